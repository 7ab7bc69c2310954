//! Wide expert parallelism with data-parallel attention (SGLang's and vLLM's DeepSeek
//! deployments over many nodes): the throughput per GPU of one phase, measured by running that
//! phase alone at a fixed load per GPU, as DeepSeek's and LMSYS's profiles do (the other phase
//! given unlimited resources). Each GPU is an attention replica (`data_parallel` = the GPUs,
//! `tensor_parallel` 1) holding its own sequences, and the EP group spans the replicas, as the
//! scenario keys `expert_parallel`, `redundant_experts`, `ep_comm` and `moe_kernel` state.
//!
//! - `wide_ep_decode_throughput_per_gpu`: output tokens/s per GPU of the decode step at
//!   `batch_per_replica` sequences per GPU, each with `kv_cache_len` tokens of KV cache (else
//!   `input_len` + `output_len`, decode at the average step)
//!   (`performance.throughput.decode_tokens_per_s` over the GPUs);
//! - `wide_ep_prefill_throughput_per_gpu`: prompt tokens/s per GPU of a prefill of
//!   `tokens_per_replica` tokens per GPU in prompts of `prompt_len`
//!   (`performance.throughput.prefill_tokens_per_s` over the GPUs).
//!
//! A stated `expert_imbalance` (a simulated perfectly balanced routing), `gpus_per_node` (an
//! NVL72 rack is one NVLink domain), `weight_dtype` and `kv_dtype` (engine names) are set as
//! stated; nothing else is assumed.

use super::Row;
use crate::engine::scenario::Scenario;
use crate::validation::{num, Case, Metric, Note, Reason, RowUnit};

/// Whether a kind is a wide-EP phase throughput.
pub(super) fn is_wide_ep(k: &str) -> bool {
    k.starts_with("wide_ep_")
}

/// The row as the phase it measures, per GPU.
pub(super) fn phase_throughput(row: &Row, mut s: Scenario) -> Result<Vec<Case>, Reason> {
    let c = &row.c;
    let Some(v) = row.value.as_f64() else { return Err(Reason::NoBatchOrValue) };
    if let Some(n) = num(c, &["gpus_per_node"]) {
        s.gpus_per_node = n as u64;
    }
    s.expert_imbalance = num(c, &["expert_imbalance"]);
    // Engine dtypes the row states (a 4-bit MoE checkpoint the precision text does not name).
    let dtype = |key: &str| c.get(key).and_then(|v| serde_json::from_value(v.clone()).ok());
    if let Some(w) = dtype("weight_dtype") {
        s.weight_dtype = Some(w);
    }
    if let Some(kv) = dtype("kv_dtype") {
        s.kv_dtype = Some(kv);
    }
    let prefill = row.kind.contains("prefill");
    let (sequences, prompt) = if prefill {
        let (Some(tokens), Some(prompt)) =
            (num(c, &["tokens_per_replica"]), num(c, &["prompt_len", "input_len"]))
        else {
            return Err(Reason::NoBatchOrValue);
        };
        let prompts = (tokens / prompt).floor().max(1.0) as u64;
        (s.batch, s.prompt_tokens, s.output_tokens, s.context_tokens) =
            (prompts, Some(prompt as u64), Some(1), prompt as u64 + 1);
        (prompts, Some(prompt as u64))
    } else {
        let Some(b) = num(c, &["batch_per_replica"]) else { return Err(Reason::NoBatchOrValue) };
        s.batch = b as u64;
        // The KV cache length the source states, else its prompt and output lengths (the
        // engine reports decode at the average step, prompt + output / 2).
        match (num(c, &["kv_cache_len"]), num(c, &["input_len", "prompt_len"]), num(c, &["output_len"])) {
            (Some(kv), _, _) => s.context_tokens = kv as u64,
            (None, Some(p), Some(o)) => {
                (s.prompt_tokens, s.output_tokens, s.context_tokens) =
                    (Some(p as u64), Some(o as u64), (p + o) as u64)
            }
            _ => return Err(Reason::NoBatchOrValue),
        }
        (b as u64, None)
    };
    let note = Note::WideEp {
        sequences_per_replica: sequences,
        prompt,
        expert_parallel: s.expert_parallel,
        redundant_experts: s.redundant_experts,
        ep_comm: s.ep_comm.unwrap_or_default(),
        expert_imbalance: s.expert_imbalance,
    };
    let (kind, metric) = if prefill {
        ("wide_ep_prefill_throughput_per_gpu", Metric::PrefillTokensPerSPerGpu)
    } else {
        ("wide_ep_decode_throughput_per_gpu", Metric::DecodeTokensPerSPerGpu)
    };
    let unit = if prefill { RowUnit::PromptTokensPerSPerGpu } else { RowUnit::OutputTokensPerSPerGpu };
    Ok(vec![Case::new(kind, metric, v, unit, s, note)])
}

#[cfg(test)]
mod tests {
    use crate::validation::{validation_table, Note};

    /// The wide-EP decode rows are compared per GPU on the layout they state (one attention
    /// replica per GPU, the EP group over all of them), their bounds hold, and so do the LMSYS
    /// prefill rows' (DeepEP's normal kernels across nodes, node-limited routing).
    #[test]
    fn wide_ep_rows_are_compared_per_gpu_on_their_layout() {
        let t = validation_table();
        let rows: Vec<_> = t.rows.iter().filter(|r| r.kind == "wide_ep_decode_throughput_per_gpu").collect();
        assert!(rows.len() >= 3, "{}", rows.len());
        for r in &rows {
            let c = &r.conditions;
            assert_eq!((c.tensor_parallel, c.data_parallel), (1, c.gpus), "{r:?}");
            let Note::WideEp { expert_parallel, sequences_per_replica, .. } = c.note else { panic!("{r:?}") };
            assert_eq!((expert_parallel, sequences_per_replica), (c.gpus, c.batch), "{r:?}");
            assert_eq!(r.bound_holds, Some(true), "{r:?}");
        }
        // The prefill rows: DeepEP's normal kernels across 4 nodes, one NIC crossing per
        // remote node (DeepSeek-V3's node-limited routing), and the bound holds.
        let prefill: Vec<_> =
            t.rows.iter().filter(|r| r.kind == "wide_ep_prefill_throughput_per_gpu").collect();
        assert!(prefill.len() >= 2, "{}", prefill.len());
        for r in &prefill {
            assert_eq!(r.bound_holds, Some(true), "{r:?}");
        }
    }
}
