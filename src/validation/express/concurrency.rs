//! Inter-token latency and time to first token at a fixed number of users: the serving benchmarks' closed loop (NVIDIA
//! NIM's and genai-perf's `--concurrency`, vLLM `benchmark_serving --max-concurrency`, LLMPerf
//! `--num-concurrent-requests`), each of `concurrency` users sending its next request when the
//! last one completes. Expressed as the scenario's `concurrent_users`; the scheduler's batch is
//! vLLM's default `max_num_seqs` (256) unless stated, lowered by the engine to what the KV
//! cache holds.

use super::serving::{ms_per_token, set_load_shape, set_server_settings};
use super::Row;
use crate::engine::scenario::Scenario;
use crate::validation::{num, text, Case, Metric, Note, Reason, RowUnit};

/// Whether a kind is the inter-token latency of a closed loop.
pub(super) fn is_at_concurrency(k: &str) -> bool {
    k.contains("fixed_concurrency")
}

/// The row as a closed loop of `concurrency` users at the stated prompt and output lengths; the
/// p95 when the row says 95, else the median (NIM and genai-perf report the mean inter-token
/// latency, which the median stands for: every request has the same lengths).
pub(super) fn itl_at_concurrency(row: &Row, mut s: Scenario) -> Result<Vec<Case>, Reason> {
    let c = &row.c;
    let (Some(users), Some(prompt), Some(output), Some(v)) = (
        num(c, &["concurrency", "max_concurrency", "num_concurrent_requests", "concurrent_users"]),
        num(c, &["prompt_len", "input_len"]),
        num(c, &["output_len"]),
        row.value.as_f64(),
    ) else {
        return Err(Reason::NoBatchOrValue);
    };
    let max_seqs =
        num(c, &["max_num_seqs", "max_running_requests", "max_batch_size", "batch"]).unwrap_or(256.0) as u64;
    let p95 = [text(c, "percentile"), text(c, "statistic")].join(" ").contains("95");
    let (users, prompt, output) = (users as u64, prompt as u64, output as u64);
    s.concurrent_users = Some(users);
    set_load_shape(&mut s, prompt, output, max_seqs);
    set_server_settings(c, &mut s);
    // Prefix reuse the row states: a shared prefix and/or the hit rate vLLM's counters gave.
    if let Some(p) = num(c, &["prefix_shared_tokens", "prefix_len"]) {
        s.prefix_shared_tokens = p as u64;
    }
    s.prefix_hit_rate = num(c, &["prefix_hit_rate"]);
    let note = Note::AtConcurrency { users, prompt, output, max_seqs, p95 };
    let moe = row.kind.starts_with("moe_");
    if row.kind.starts_with("prefix_") {
        let (kind, metric, unit, v) = if row.kind.contains("throughput") {
            let m = Metric::ThroughputAtConcurrency { per_gpu: false };
            ("prefix_throughput_fixed_concurrency", m, RowUnit::OutputTokensPerS, v)
        } else {
            let m = Metric::TtftUnderLoadMs { p95 };
            ("prefix_ttft_fixed_concurrency", m, RowUnit::MsToFirstTokenUnderLoad, ms_per_token(row, v))
        };
        return Ok(vec![Case::new(kind, metric, v, unit, s, note)]);
    }
    if row.kind.contains("throughput") {
        // Output tokens over the run's duration, as the benchmarks print it (per GPU when the
        // unit says so).
        let per_gpu = row.unit.contains("per GPU");
        let unit = if per_gpu { RowUnit::OutputTokensPerSPerGpu } else { RowUnit::OutputTokensPerS };
        return Ok(vec![Case::new(
            "moe_throughput_fixed_concurrency",
            Metric::ThroughputAtConcurrency { per_gpu },
            v,
            unit,
            s,
            note,
        )]);
    }
    let ms = ms_per_token(row, v);
    // The time to first token of each request, queueing for a slot included: the mean, as
    // NIM's tables give it (requests that wait behind another's prompt pull it above the median).
    let case = if row.kind.trim_start_matches("moe_").starts_with("ttft") {
        Case::new(
            if moe { "moe_ttft_fixed_concurrency" } else { "ttft_fixed_concurrency" },
            Metric::TtftUnderLoadMs { p95 },
            ms,
            RowUnit::MsToFirstTokenUnderLoad,
            s,
            note,
        )
    } else {
        Case::new(
            if moe { "moe_itl_fixed_concurrency" } else { "itl_fixed_concurrency" },
            Metric::TpotUnderLoadMs { p95 },
            ms,
            RowUnit::MsPerOutputTokenUnderLoad,
            s,
            note,
        )
    };
    Ok(vec![case])
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    fn row(extra: serde_json::Value) -> serde_json::Value {
        let mut c = json!({"concurrency": 8, "input_len": 1024, "output_len": 1024, "tensor_parallel": 8});
        if let (Some(c), Some(e)) = (c.as_object_mut(), extra.as_object()) {
            c.extend(e.clone());
        }
        json!({"kind": "moe_ttft_fixed_concurrency", "model": "DeepSeek-R1-0528", "gpu": "8x NVIDIA H200",
               "conditions": c, "value": 330.6, "unit": "ms mean time to first token", "source": "test"})
    }

    /// A server's stated prompt-chunk budget, largest decode graph and most running requests
    /// reach the scenario; a row that states none keeps the defaults.
    #[test]
    fn the_servers_stated_settings_reach_the_scenario() {
        let stated = json!({"max_running_requests": 512, "cuda_graph_max_bs": 512, "chunked_prefill_size": 32768, "max_prefill_tokens": 32768});
        let cases = crate::validation::express::express(&row(stated)).expect("expressed");
        let s = &cases[0].scenario;
        assert_eq!((s.prefill_chunk_tokens, s.batch), (32768, 512));
        assert_eq!(s.efficiency.decode_graph_max_batch, Some(512.0));
        let plain = crate::validation::express::express(&row(json!({}))).expect("expressed");
        let d = &plain[0].scenario;
        assert_eq!(d.batch, 256);
        assert_eq!(d.efficiency.decode_graph_max_batch, None);
        assert_ne!(d.prefill_chunk_tokens, 32768);
        // SGLang admits a prefill batch up to the smaller of its two budgets.
        let capped = json!({"chunked_prefill_size": 32768, "max_prefill_tokens": 16384});
        assert_eq!(
            crate::validation::express::express(&row(capped)).expect("expressed")[0]
                .scenario
                .prefill_chunk_tokens,
            16384
        );
    }
}
