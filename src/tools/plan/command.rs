//! The command lines that check a plan on real hardware: one vLLM replica as planned, and vLLM's
//! serving benchmark sending it the planned peak load per replica.
//!
//! Flags as documented for `vllm serve` (engine arguments: `--tensor-parallel-size`,
//! `--max-model-len`, `--max-num-seqs`, `--gpu-memory-utilization`, `--kv-cache-dtype`,
//! `--quantization`) and `vllm bench serve` (`--dataset-name random`, `--random-input-len`,
//! `--random-output-len`, `--ignore-eos`, `--request-rate`, `--num-prompts`,
//! `--percentile-metrics`, `--metric-percentiles`): https://docs.vllm.ai/en/v0.11.2/cli/bench/serve/
//! and https://docs.vllm.ai/en/v0.11.2/configuration/engine_args/ (retrieved 2026-12-01).

use super::state::PlanState;
use super::Capacity;
use crate::catalog::models;
use crate::engine::precision::Dtype;

/// vLLM's default share of GPU memory for weights, activations and the KV cache.
pub const GPU_MEMORY_UTILIZATION: &str = "0.90";
/// The benchmark runs about five minutes of the planned load, between 200 and 10,000 requests.
const BENCH_SECONDS: f64 = 300.0;

/// The Hugging Face repository of a catalog model (`org/name` from its config URL).
pub fn hf_repo(model: &str) -> Option<String> {
    let source = &models::find(model)?.model.source;
    let rest = source.strip_prefix("https://huggingface.co/")?;
    let mut parts = rest.split('/');
    let (org, name) = (parts.next()?, parts.next()?);
    (!org.is_empty() && !name.is_empty()).then(|| format!("{org}/{name}"))
}

/// What the weight format asks of the checkpoint: `Some(flag)` when vLLM quantises a 16-bit
/// checkpoint itself (FP8), `None` with `needs_checkpoint` when a pre-quantised checkpoint
/// (AWQ, GPTQ, W8A8…) must be served instead.
/// As published (`None`): vLLM reads the checkpoint's own `quantization_config`, no flag.
pub fn quantization_flag(weights: Option<Dtype>) -> (Option<&'static str>, bool) {
    match weights {
        Some(Dtype::Fp8) => (Some("fp8"), false),
        Some(Dtype::Int8 | Dtype::Int4 | Dtype::Nf4 | Dtype::Mxfp4 | Dtype::Nvfp4) => (None, true),
        _ => (None, false),
    }
}

/// The model argument: a pasted config's `_name_or_path`, else the catalog model's repository.
pub fn model_arg(s: &PlanState) -> String {
    if let Some(c) = &s.config {
        let name = c.get("_name_or_path").and_then(|v| v.as_str()).unwrap_or("");
        let ok = !name.is_empty() && name.bytes().all(|b| b.is_ascii_alphanumeric() || b"./_-".contains(&b));
        return if ok { name.to_owned() } else { "MODEL".to_owned() };
    }
    hf_repo(&s.model).unwrap_or_else(|| s.model.clone())
}

/// `vllm serve …` for one replica of the plan.
pub fn serve(s: &PlanState, tp: u64, cap: &Capacity) -> String {
    let repo = model_arg(s);
    let mut out = format!(
        "vllm serve {repo} \\\n  --tensor-parallel-size {tp} \\\n  --max-model-len {} \\\n  --max-num-seqs {} \\\n  --gpu-memory-utilization {GPU_MEMORY_UTILIZATION}",
        s.prompt_tokens.saturating_add(s.output_tokens),
        cap.seqs,
    );
    if s.kv == Dtype::Fp8 {
        out.push_str(" \\\n  --kv-cache-dtype fp8");
    }
    if let (Some(q), _) = quantization_flag(s.weights) {
        out.push_str(" \\\n  --quantization ");
        out.push_str(q);
    }
    out
}

/// The benchmark's request count: about [`BENCH_SECONDS`] of the rate, within 200..=10,000.
pub fn bench_prompts(rate_per_s: f64) -> u64 {
    (rate_per_s * BENCH_SECONDS).ceil().clamp(200.0, 10_000.0) as u64
}

/// A rate as the benchmark takes it (at most 3 decimals, no trailing zeros).
fn rate_text(r: f64) -> String {
    let t = format!("{:.3}", r.max(0.001));
    t.trim_end_matches('0').trim_end_matches('.').to_owned()
}

/// Requests a closed-loop benchmark sends: ten per user, within 200..=10,000.
pub fn bench_prompts_users(users: u64) -> u64 {
    users.saturating_mul(10).clamp(200, 10_000)
}

/// `vllm bench serve …` at the planned peak load of one replica: Poisson arrivals at its rate,
/// or its users in a closed loop (`--max-concurrency`, every request sent as soon as a slot
/// frees: `--request-rate inf`).
pub fn bench(s: &PlanState, cap: &Capacity) -> String {
    let repo = model_arg(s);
    let per_replica = super::demand(s) / cap.replicas.max(1) as f64;
    let load = match s.peak_users {
        Some(_) => {
            let users = per_replica.ceil().max(1.0) as u64;
            format!(
                "--max-concurrency {users} \\\n  --request-rate inf \\\n  --num-prompts {}",
                bench_prompts_users(users)
            )
        }
        None => format!(
            "--request-rate {} \\\n  --num-prompts {}",
            rate_text(per_replica),
            bench_prompts(per_replica)
        ),
    };
    format!(
        "vllm bench serve \\\n  --model {repo} \\\n  --dataset-name random \\\n  --random-input-len {} \\\n  --random-output-len {} \\\n  --ignore-eos \\\n  {load} \\\n  --percentile-metrics ttft,tpot \\\n  --metric-percentiles 50,95",
        s.prompt_tokens,
        s.output_tokens,
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn repositories_come_from_the_catalogs_config_urls() {
        assert_eq!(hf_repo("llama-3.1-8b").as_deref(), Some("meta-llama/Llama-3.1-8B"));
        assert_eq!(hf_repo("qwen2.5-7b").as_deref(), Some("Qwen/Qwen2.5-7B"));
        assert_eq!(hf_repo("nope"), None);
    }

    #[test]
    fn rates_and_counts_as_the_benchmark_takes_them() {
        assert_eq!(rate_text(2.5), "2.5");
        assert_eq!(rate_text(4.0), "4");
        assert_eq!(rate_text(1.0 / 3.0), "0.333");
        assert_eq!(bench_prompts(0.1), 200);
        assert_eq!(bench_prompts(5.0), 1500);
        assert_eq!(bench_prompts(1e6), 10_000);
    }

    #[test]
    fn fp8_weights_ask_vllm_to_quantise_and_4_bit_needs_a_checkpoint() {
        assert_eq!(quantization_flag(Some(Dtype::Fp8)), (Some("fp8"), false));
        assert_eq!(quantization_flag(Some(Dtype::Int4)), (None, true));
        assert_eq!(quantization_flag(Some(Dtype::Bf16)), (None, false));
        assert_eq!(quantization_flag(None), (None, false));
    }
}
