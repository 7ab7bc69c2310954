//! A disaggregated deployment against its aggregated baseline under the same Poisson load: the
//! mean time to first token and the mean inter-token latency of each, as the serving benchmarks
//! print them (SGLang's and vLLM's `bench_serving` at `--request-rate`). The row states its
//! configuration with the scenario keys: `prefill_workers` and `prefill_tensor_parallel` beside
//! a decode pool of `tensor_parallel` × `data_parallel` GPUs, or, for the baseline,
//! `data_parallel` aggregated replicas; `gpus_per_node` places the pools on their servers (the
//! KV cache crosses `kv_transfer_link`, the engine's default for the topology unless stated).
//! The value is `{"mean_ttft_ms", "mean_itl_ms"}`; each is its own case.

use super::serving::{set_load_shape, set_server_settings};
use super::Row;
use crate::engine::scenario::Scenario;
use crate::validation::{num, Case, Metric, Note, Reason, RowUnit};

/// Whether a kind is a disaggregated-versus-aggregated pair's row.
pub(super) fn is_disaggregation(k: &str) -> bool {
    k.starts_with("disaggregation_")
}

/// The row as its configuration under its request rate: mean TTFT and mean ITL.
pub(super) fn under_load(row: &Row, mut s: Scenario) -> Result<Vec<Case>, Reason> {
    let c = &row.c;
    let (Some(rate), Some(prompt), Some(output)) = (
        num(c, &["request_rate", "arrival_rate_per_s"]),
        num(c, &["input_len", "prompt_len"]),
        num(c, &["output_len"]),
    ) else {
        return Err(Reason::NoBatchOrValue);
    };
    let max_seqs = num(c, &["max_running_requests", "max_num_seqs"]).unwrap_or(256.0) as u64;
    set_load_shape(&mut s, prompt as u64, output as u64, max_seqs);
    s.arrival_rate_per_s = Some(rate);
    if let Some(n) = num(c, &["gpus_per_node"]) {
        s.gpus_per_node = n as u64;
    }
    set_server_settings(c, &mut s);
    s.prefill_workers = num(c, &["prefill_workers"]).unwrap_or(0.0) as u64;
    s.prefill_tensor_parallel = num(c, &["prefill_tensor_parallel"]).map(|t| t as u64);
    if let Some(link) = c.get("kv_transfer_link").and_then(|v| serde_json::from_value(v.clone()).ok()) {
        s.kv_transfer_link = Some(link);
    }
    let note = Note::Disaggregation {
        rate,
        prompt: prompt as u64,
        output: output as u64,
        prefill_workers: s.prefill_workers,
        prefill_tensor_parallel: s.prefill_tensor_parallel.unwrap_or(s.tensor_parallel),
    };
    let mut cases = Vec::new();
    if let Some(v) = row.value.get("mean_ttft_ms").and_then(serde_json::Value::as_f64) {
        cases.push(Case::new(
            "disaggregation_ttft_under_load",
            Metric::TtftUnderLoadMs { p95: false },
            v,
            RowUnit::MsToFirstTokenUnderLoad,
            s.clone(),
            note.clone(),
        ));
    }
    if let Some(v) = row.value.get("mean_itl_ms").and_then(serde_json::Value::as_f64) {
        cases.push(Case::new(
            "disaggregation_itl_under_load",
            Metric::ItlMeanUnderLoadMs,
            v,
            RowUnit::MsPerOutputTokenUnderLoad,
            s,
            note,
        ));
    }
    if cases.is_empty() {
        return Err(Reason::NoBatchOrValue);
    }
    Ok(cases)
}

#[cfg(test)]
mod tests {
    use crate::validation::{validation_table, Note};

    /// Each published pair is compared in both configurations, and the engine's mean ITL is
    /// lower disaggregated than aggregated, as both pairs measured (decode steps that carry no
    /// prompt chunk).
    #[test]
    fn each_pair_is_compared_and_disaggregation_lowers_the_itl() {
        let t = validation_table();
        let itl: Vec<_> = t.rows.iter().filter(|r| r.kind == "disaggregation_itl_under_load").collect();
        let workers = |r: &crate::validation::ValidationRow| match r.conditions.note {
            Note::Disaggregation { prefill_workers, rate, .. } => (prefill_workers, rate),
            _ => panic!("{r:?}"),
        };
        let mut pairs = 0;
        for d in itl.iter().filter(|r| workers(r).0 > 0) {
            let rate = workers(d).1;
            let a = itl.iter().find(|r| workers(r) == (0, rate)).expect("the aggregated baseline");
            assert!(d.measured < a.measured && d.expected < a.expected, "{d:?} {a:?}");
            pairs += 1;
        }
        assert!(pairs >= 2, "{pairs}");
        assert_eq!(t.rows.iter().filter(|r| r.kind == "disaggregation_ttft_under_load").count(), itl.len());
    }
}
