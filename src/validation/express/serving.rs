//! Serving measurements as scenarios: generation throughput and latency of a batch, inference
//! memory, time per output token under load, time to first token.

use super::Row;
use crate::engine::scenario::Scenario;
use crate::validation::{num, text, Case, Metric, Note, Reason, RowUnit, GIB};
use serde_json::Value;

/// The conditions' prompt length (`prompt_len` or `input_len`).
fn prompt_len(c: &Value) -> Option<f64> {
    num(c, &["prompt_len", "input_len"])
}

/// Decode throughput (batch 1 or batched) and end-to-end latency of a batch: prompt and
/// output lengths as stated, else gpt-fast's defaults (a 16-token prompt, 200 generated
/// tokens); throughput per GPU when the unit says so.
pub(super) fn generation(row: &Row, mut s: Scenario) -> Result<Vec<Case>, Reason> {
    let c = &row.c;
    let (Some(b), Some(v)) = (num(c, &["batch_size"]), row.value.as_f64()) else {
        return Err(Reason::NoBatchOrValue);
    };
    s.batch = b as u64;
    let prompt = prompt_len(c).unwrap_or(16.0) as u64;
    let output = num(c, &["output_len"]).unwrap_or(200.0) as u64;
    (s.prompt_tokens, s.output_tokens, s.context_tokens) = (Some(prompt), Some(output), prompt + output);
    let note = Note::PromptOutput { prompt, output, output_assumed: c.get("output_len").is_none() };
    // A per-token latency of the generation stage (TinyChat's tables): the average decode step;
    // with speculative decoding, the step over the tokens it emits.
    if row.unit.contains("ms per token") && v > 0.0 {
        let kind = if s.speculative_method.is_some() {
            "speculative_tpot_bs1"
        } else if s.weight_kernel.is_some() {
            "decode_throughput_bs1_int4_kernels"
        } else {
            "decode_throughput_bs1"
        };
        return Ok(vec![Case::new(kind, Metric::DecodeTokensPerS, 1000.0 / v, RowUnit::TokensPerS, s, note)]);
    }
    if row.kind == "e2e_latency_batched" {
        return Ok(vec![Case::new(
            "e2e_latency_batched",
            Metric::GenerationTimeMs,
            v,
            RowUnit::MsPerBatch,
            s,
            note,
        )]);
    }
    let per_gpu = row.unit.contains("per GPU") || row.unit.contains("per-GPU");
    // A named weight-only kernel family (ExLlamaV2, AWQ's GEMV, ...) is its own kind.
    let kind = match (row.kind.ends_with("bs1"), s.weight_kernel.is_some()) {
        (true, true) => "decode_throughput_bs1_int4_kernels",
        (true, false) => "decode_throughput_bs1",
        _ => "decode_throughput_batched",
    };
    let unit = if per_gpu { RowUnit::OutputTokensPerSPerGpu } else { RowUnit::OutputTokensPerS };
    Ok(vec![Case::new(kind, Metric::GenerationTokensPerS { per_gpu }, v, unit, s, note)])
}

/// Inference memory: the weights per GPU in GiB, and the KV cache bytes per token when the row
/// states the cache's GiB and the tokens it holds.
pub(super) fn inference_memory(row: &Row, s: Scenario) -> Result<Vec<Case>, Reason> {
    let value = &row.value;
    let weights = value
        .get("weights_GiB")
        .and_then(Value::as_f64)
        .or_else(|| value.as_f64().filter(|_| row.unit.contains("GiB")));
    let Some(wgib) = weights else { return Err(Reason::NoWeightsGib) };
    let mut cases = vec![Case::new(
        "inference_memory",
        Metric::WeightsGiB,
        wgib,
        RowUnit::GibWeightsPerGpu,
        s.clone(),
        Note::None,
    )];
    if let (Some(kv), Some(t)) =
        (value.get("kv_cache_GiB").and_then(Value::as_f64), value.get("kv_tokens").and_then(Value::as_f64))
    {
        cases.push(Case::new(
            "kv_cache_bytes_per_token",
            Metric::KvBytesPerToken,
            kv * GIB / t,
            RowUnit::BytesPerToken,
            s,
            Note::None,
        ));
    }
    Ok(cases)
}

/// The scenario of a serving benchmark: the scheduler's most concurrent sequences, and every
/// request `prompt` then `output` tokens long.
pub(super) fn set_load_shape(s: &mut Scenario, prompt: u64, output: u64, max_seqs: u64) {
    s.batch = max_seqs.max(1);
    (s.prompt_tokens, s.output_tokens, s.context_tokens) =
        (Some(prompt), Some(output), prompt.saturating_add(output));
}

/// The server's settings where a row states them: its prompt-chunk budget (SGLang's
/// `--chunked-prefill-size`, capped by `--max-prefill-tokens`; vLLM's `--max-num-batched-tokens`)
/// and its largest decode graph (SGLang's `--cuda-graph-max-bs`, the release's own where the row
/// names it). The most running requests are read with the load shape.
pub(super) fn set_server_settings(c: &Value, s: &mut Scenario) {
    if let Some(t) = num(c, &["chunked_prefill_size", "max_num_batched_tokens"]) {
        let cap = num(c, &["max_prefill_tokens"]).unwrap_or(t);
        s.prefill_chunk_tokens = t.min(cap) as u64;
    }
    if let Some(b) = num(c, &["cuda_graph_max_bs"]) {
        s.efficiency.decode_graph_max_batch = Some(b);
    }
}

/// A row's time per output token in milliseconds (rows give ms or seconds).
pub(super) fn ms_per_token(row: &Row, v: f64) -> f64 {
    let u = row.unit.to_ascii_lowercase();
    if u.contains("ms") || u.contains("millisecond") {
        v
    } else {
        v * 1e3
    }
}

/// A kind that is a time between tokens under load.
pub(super) fn is_under_load(k: &str) -> bool {
    k.contains("under_load") || k.contains("tbt") || k.contains("inter_token") || k.contains("tpot")
}

/// Time between tokens under load (vLLM's benchmark reports TPOT and ITL percentiles at a
/// request rate): Poisson arrivals at the rate, the scheduler's batch vLLM's default
/// `max_num_seqs` (256) unless stated; the p95 when the row says 95, else the median.
pub(super) fn tpot_under_load(row: &Row, mut s: Scenario) -> Result<Vec<Case>, Reason> {
    let c = &row.c;
    let (Some(rate), Some(prompt), Some(output), Some(v)) = (
        num(c, &["request_rate", "arrival_rate", "qps", "rate"]),
        prompt_len(c),
        num(c, &["output_len"]),
        row.value.as_f64(),
    ) else {
        return Err(Reason::NoBatchOrValue);
    };
    let max_seqs = num(c, &["max_num_seqs", "max_concurrency", "batch"]).unwrap_or(256.0) as u64;
    let p95 = [text(c, "percentile"), text(c, "statistic"), row.kind.clone()].join(" ").contains("95");
    let (prompt, output) = (prompt as u64, output as u64);
    s.arrival_rate_per_s = Some(rate);
    set_load_shape(&mut s, prompt, output, max_seqs);
    let ms = ms_per_token(row, v);
    Ok(vec![Case::new(
        "tpot_under_load",
        Metric::TpotUnderLoadMs { p95 },
        ms,
        RowUnit::MsPerOutputTokenUnderLoad,
        s,
        Note::UnderLoad { rate, prompt, output, max_seqs, p95 },
    )])
}

/// Time to first token: the stated prompt, one output token, batch 1 unless stated; the value
/// in ms when the unit says so, else in seconds.
pub(super) fn time_to_first_token(row: &Row, mut s: Scenario) -> Result<Vec<Case>, Reason> {
    let c = &row.c;
    let (Some(prompt), Some(v)) = (prompt_len(c), row.value.as_f64()) else {
        return Err(Reason::NoBatchOrValue);
    };
    s.batch = num(c, &["batch_size"]).unwrap_or(1.0) as u64;
    let prompt = prompt as u64;
    (s.prompt_tokens, s.output_tokens, s.context_tokens) = (Some(prompt), Some(1), prompt + 1);
    let u = row.unit.to_ascii_lowercase();
    let in_ms = u.trim_start().starts_with("ms")
        || u.contains(" ms")
        || u.contains("(ms)")
        || u.contains("millisecond");
    let ms = if in_ms { v } else { v * 1e3 };
    Ok(vec![Case::new(
        "ttft",
        Metric::TimeToFirstTokenMs,
        ms,
        RowUnit::MsToFirstToken,
        s,
        Note::PromptOutput { prompt, output: 1, output_assumed: false },
    )])
}
