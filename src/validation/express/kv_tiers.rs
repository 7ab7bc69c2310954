//! A KV cache tier's restore against recomputing the prompt: the time to first token of one
//! request whose whole prompt is a hit in a CPU tier with the GPU's prefix cache off (vLLM's
//! offloading connector measured this way), and of the same request prefilled. The row states
//! the prompt (`input_len`), `tier` (`cpu`) and the tier's size (`kv_cpu_tier_bytes`; any size
//! that holds the prompt gives the same time); the value is `{"restore_ttft_ms",
//! "recompute_ttft_ms"}`, each its own case, compared with `time.time_to_first_token_s`.
//!
//! The restore is expressed with the tier keys as the measurement ran: `prefix_hit_rate` 1.0,
//! `prefix_open_sessions` 1, `kv_gpu_cache_bytes` 0 (the GPU keeps no finished prefix), the CPU
//! tier holding it; the engine restores when that beats recomputing (`engine::perf::kv_tiers`).
//! The recompute is the plain prompt. Nothing is fitted: the per-copy cost, the PCIe share and
//! the per-request cost are the engine's defaults.

use super::Row;
use crate::engine::scenario::Scenario;
use crate::validation::{num, text, Case, Metric, Note, Reason, RowUnit};

/// Whether a kind is a KV tier's restore row.
pub(super) fn is_kv_tier(k: &str) -> bool {
    k == "kv_tier_restore"
}

/// The row's restore and recompute as two cases of one request.
pub(super) fn restore(row: &Row, mut s: Scenario) -> Result<Vec<Case>, Reason> {
    let c = &row.c;
    let Some(prompt) = num(c, &["input_len", "prompt_len"]).map(|p| p as u64).filter(|p| *p > 1) else {
        return Err(Reason::NoBatchOrValue);
    };
    if !text(c, "tier").eq_ignore_ascii_case("cpu") {
        return Err(Reason::UnsupportedKind { kind: row.kind.clone() });
    }
    s.batch = 1;
    (s.prompt_tokens, s.output_tokens, s.context_tokens) = (Some(prompt), Some(1), prompt + 1);
    if let Some(b) = num(c, &["block_tokens", "kv_block_tokens"]) {
        s.kv_block_tokens = b as u64;
    }
    let read_off_figure = c.get("read_off_figure").is_some();
    let value = |key: &str| row.value.get(key).and_then(serde_json::Value::as_f64);
    let mut cases = Vec::new();
    if let Some(v) = value("restore_ttft_ms") {
        let mut r = s.clone();
        r.prefix_hit_rate = Some(1.0);
        r.prefix_open_sessions = 1;
        r.kv_gpu_cache_bytes = Some(0);
        r.kv_cpu_tier_bytes = num(c, &["kv_cpu_tier_bytes"]).map_or(500_000_000_000, |b| b as u64);
        cases.push(Case::new(
            "kv_tier_restore_ttft",
            Metric::TierRestoreTtftMs,
            v,
            RowUnit::MsToFirstToken,
            r,
            Note::KvTier { prompt, restored: true, read_off_figure },
        ));
    }
    if let Some(v) = value("recompute_ttft_ms") {
        cases.push(Case::new(
            "kv_tier_recompute_ttft",
            Metric::TimeToFirstTokenMs,
            v,
            RowUnit::MsToFirstToken,
            s,
            Note::KvTier { prompt, restored: false, read_off_figure },
        ));
    }
    if cases.is_empty() {
        return Err(Reason::NoBatchOrValue);
    }
    Ok(cases)
}

#[cfg(test)]
mod tests {
    use crate::validation::{validation_table, Note, Reason, Setting};

    /// Every restore is compared and restored (not recomputed) in the engine, shorter than the
    /// recompute of the same prompt, as measured; the bound holds; the rows the engine cannot
    /// express name why.
    #[test]
    fn restores_are_compared_and_beat_recomputing() {
        let t = validation_table();
        let of = |kind: &str| t.rows.iter().filter(|r| r.kind == kind).collect::<Vec<_>>();
        let (restore, recompute) = (of("kv_tier_restore_ttft"), of("kv_tier_recompute_ttft"));
        assert!(restore.len() >= 8 && recompute.len() >= 4, "{} {}", restore.len(), recompute.len());
        let prompt = |r: &crate::validation::ValidationRow| match r.conditions.note {
            Note::KvTier { prompt, .. } => prompt,
            _ => panic!("{r:?}"),
        };
        for r in &restore {
            assert_eq!(r.bound_holds, Some(true), "{r:?}");
            if let Some(p) = recompute.iter().find(|p| p.index == r.index && prompt(p) == prompt(r)) {
                assert!(r.measured < p.measured && r.expected < p.expected, "{r:?} {p:?}");
            }
        }
        let median = |kind: &str| t.summary.iter().find(|s| s.kind == kind).unwrap().median_abs_error_pct;
        assert!(median("kv_tier_restore_ttft") <= 20.0, "{}", median("kv_tier_restore_ttft"));
        assert!(median("kv_tier_recompute_ttft") <= 20.0, "{}", median("kv_tier_recompute_ttft"));
        for s in [Setting::SpeedupOnly, Setting::GpuNotStated, Setting::TierDefect, Setting::ServingStudy] {
            assert!(t.not_expressed.iter().any(|n| n.reason == Reason::Unexpressed { setting: s }), "{s:?}");
        }
    }
}
