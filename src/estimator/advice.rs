//! "What would make it fit": when a scenario does not fit its GPUs, the changes that would,
//! each as a ready scenario the reader can apply with one click.
//!
//! Sources: the engine's solvers (longest context, largest batch, fewest GPUs) and re-sizing
//! the scenario with each lower weight precision (fp8, int8, int4) until one fits. Each candidate
//! is checked with [`memory_fit`] (memory only, no time model): this runs on every slider move
//! while the scenario does not fit.

use crate::catalog::memory_fit;
use crate::engine::precision::file_type::FileType;
use crate::engine::precision::Dtype;
use crate::engine::workload::Mode;
use crate::engine::{Report, Scenario};

#[derive(Clone, Debug, PartialEq)]
pub enum Change {
    /// Tokens per sequence that fit at the current batch.
    ShorterContext(u64),
    /// Concurrent sequences (training: micro-batch) that fit at the current context.
    SmallerBatch(u64),
    /// The first lower weight precision that fits.
    LowerPrecision(Dtype),
    /// An 8-bit KV cache (vLLM `kv_cache_dtype="fp8"`), when the cache is in 16 bits or more.
    LowerKvPrecision(Dtype),
    /// The fewest GPUs of this kind that fit, with their layout.
    MoreGpus { gpus: u64, tensor_parallel: u64, pipeline_parallel: u64 },
    /// Keep only this many layers on the GPU (llama.cpp's `-ngl`), the rest in host memory.
    GpuLayers(u64),
    /// Every layer on the GPU, the routed experts of this many first layers in host memory
    /// (llama.cpp's `--n-cpu-moe`): for an MoE model, offered before [`Change::GpuLayers`].
    CpuMoe(u64),
}

#[derive(Clone, Debug, PartialEq)]
pub struct Advice {
    pub change: Change,
    /// The scenario with the change applied (it fits).
    pub scenario: Scenario,
}

/// Bytes over the usable memory of the heaviest GPU (0 when it fits).
pub fn overflow_bytes(r: &Report) -> u64 {
    r.memory_per_gpu_bytes.total.saturating_sub(r.usable_gpu_memory_bytes)
}

/// The changes that would make `s` fit, most direct first. Empty when it already fits.
pub fn what_would_fit(s: &Scenario, r: &Report) -> Vec<Advice> {
    if r.fits {
        return Vec::new();
    }
    let mut out = Vec::new();
    let fits = |c: &Scenario| memory_fit(c).map(|f| f.fits).unwrap_or(false);
    if let Some(n) = r.solvers.max_context_tokens.filter(|n| *n >= 1 && *n < s.context_tokens) {
        let mut c = s.clone();
        c.context_tokens = n;
        if fits(&c) {
            out.push(Advice { change: Change::ShorterContext(n), scenario: c });
        }
    }
    if let Some(n) = r.solvers.max_batch.filter(|n| *n >= 1 && *n < s.batch) {
        let mut c = s.clone();
        c.batch = n;
        if fits(&c) {
            out.push(Advice { change: Change::SmallerBatch(n), scenario: c });
        }
    }
    let current_bits = s.resolved_weight_dtype().bits_per_element(s.int4_group_size);
    let current_bits = current_bits.numerator as f64 / current_bits.denominator.max(1) as f64;
    let llama_cpp = r.model.gguf.is_some();
    let file_types: Vec<Dtype> = FileType::LADDER.iter().map(|t| Dtype::Gguf(*t)).collect();
    let candidates: &[Dtype] = match s.mode {
        Mode::Training => &[],
        Mode::Qlora => &[Dtype::Int4],
        Mode::Inference if llama_cpp => &file_types,
        Mode::Inference | Mode::Lora => &[Dtype::Fp8, Dtype::Int8, Dtype::Int4],
    };
    for &dtype in candidates {
        let bits = dtype.bits_per_element(s.int4_group_size);
        if (bits.numerator as f64 / bits.denominator.max(1) as f64) >= current_bits {
            continue;
        }
        let mut c = s.clone();
        c.weight_dtype = Some(dtype);
        if fits(&c) {
            out.push(Advice { change: Change::LowerPrecision(dtype), scenario: c });
            break;
        }
    }
    if s.mode == Mode::Inference && r.memory_per_gpu_bytes.kv_cache > 0 {
        let kv = s.resolved_kv_dtype().bits_per_element(s.int4_group_size);
        // llama.cpp's 8-bit cache is q8_0, which needs flash attention.
        let eight = if llama_cpp { Dtype::Gguf(FileType::Q8_0) } else { Dtype::Fp8 };
        if kv.numerator / kv.denominator.max(1) >= 16 && (!llama_cpp || s.flash_attention) {
            let mut c = s.clone();
            c.kv_dtype = Some(eight);
            if fits(&c) {
                out.push(Advice { change: Change::LowerKvPrecision(eight), scenario: c });
            }
        }
    }
    if let Some(m) = r.solvers.min_cpu_moe.filter(|_| s.mode == Mode::Inference) {
        let mut c = s.clone();
        c.gpu_layers = None;
        c.n_cpu_moe = m;
        if fits(&c) {
            out.push(Advice { change: Change::CpuMoe(m), scenario: c });
        }
    }
    if let Some(n) = r.solvers.max_gpu_layers.filter(|n| *n > 0 && s.mode == Mode::Inference) {
        let mut c = s.clone();
        c.gpu_layers = Some(n);
        if fits(&c) {
            out.push(Advice { change: Change::GpuLayers(n), scenario: c });
        }
    }
    if let Some(g) = &r.solvers.min_gpus {
        if g.gpus > s.gpus {
            let mut c = s.clone();
            c.gpus = g.gpus;
            c.tensor_parallel = g.tensor_parallel;
            c.pipeline_parallel = g.pipeline_parallel;
            if fits(&c) {
                out.push(Advice {
                    change: Change::MoreGpus {
                        gpus: g.gpus,
                        tensor_parallel: g.tensor_parallel,
                        pipeline_parallel: g.pipeline_parallel,
                    },
                    scenario: c,
                });
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::catalog::evaluate;
    use crate::estimator::presets;

    #[test]
    fn seventy_b_in_fp16_gets_precision_and_gpu_advice() {
        let s = presets::find("70b-fp16").unwrap().scenario();
        let r = evaluate(&s).unwrap();
        assert!(overflow_bytes(&r) > 60_000_000_000);
        let advice = what_would_fit(&s, &r);
        assert!(advice.iter().any(|a| matches!(a.change, Change::LowerPrecision(Dtype::Int4))), "{advice:?}");
        assert!(
            advice.iter().any(|a| matches!(a.change, Change::MoreGpus { gpus, .. } if gpus >= 2)),
            "{advice:?}"
        );
        for a in &advice {
            assert!(evaluate(&a.scenario).unwrap().fits, "{a:?} fits");
        }
    }

    #[test]
    fn a_llama_cpp_model_too_large_for_its_card_gets_file_types_and_offload() {
        let s = Scenario::from_json(&serde_json::json!({
            "model": "llama-3.1-70b", "weight_dtype": "q4_k_m", "gpu": "rtx-4090", "context_tokens": 8192}))
        .unwrap();
        let r = evaluate(&s).unwrap();
        let advice = what_would_fit(&s, &r);
        assert!(
            advice.iter().any(|a| matches!(a.change, Change::GpuLayers(n) if n > 20 && n < 81)),
            "{advice:?}"
        );
        assert!(
            advice.iter().any(|a| a.change == Change::LowerKvPrecision(Dtype::Gguf(FileType::Q8_0)))
                || r.memory_per_gpu_bytes.kv_cache < 5_000_000_000
        );
        assert!(!advice.iter().any(|a| matches!(a.change, Change::LowerPrecision(Dtype::Int4))));
        for a in &advice {
            assert!(evaluate(&a.scenario).unwrap().fits, "{a:?} fits");
        }
    }

    #[test]
    fn long_context_at_high_concurrency_gets_context_and_batch_advice() {
        let mut s = presets::find("long-context-chat").unwrap().scenario();
        s.batch = 128;
        let r = evaluate(&s).unwrap();
        assert!(!r.fits);
        let advice = what_would_fit(&s, &r);
        assert!(advice.iter().any(|a| matches!(a.change, Change::ShorterContext(n) if n < 32768)));
        assert!(advice.iter().any(|a| matches!(a.change, Change::SmallerBatch(n) if n < 128)));
    }

    #[test]
    fn an_fp8_kv_cache_is_offered_when_the_cache_is_what_overflows() {
        let mut s = presets::find("long-context-chat").unwrap().scenario();
        s.batch = 20; // 80 GiB of BF16 cache: too much; 40 GiB in FP8 fits beside 16 GB of weights
        let r = evaluate(&s).unwrap();
        assert!(!r.fits);
        let advice = what_would_fit(&s, &r);
        assert!(advice.iter().any(|a| a.change == Change::LowerKvPrecision(Dtype::Fp8)), "{advice:?}");
    }

    #[test]
    fn nothing_to_advise_when_it_fits() {
        let s = presets::find("7b-int4-mig").unwrap().scenario();
        let r = evaluate(&s).unwrap();
        assert_eq!((overflow_bytes(&r), what_would_fit(&s, &r)), (0, vec![]));
    }
}
