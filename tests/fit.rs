//! `catalog::memory_fit` (`engine::fit::memory_fit_with` over the catalog) agrees with `evaluate` on every scenario: the same `Ok`/`Err`, the
//! same error, and when both succeed the same total bytes, usable bytes, KV cache and `fits`.
//! The estimator relies on it to ask "does this fit?" without the time model.

use gpu_primer::catalog::evaluate;
use gpu_primer::catalog::memory_fit;
use gpu_primer::engine::Scenario;
use proptest::prelude::*;

const MODELS: [&str; 8] = [
    "llama-3.1-8b",
    "llama-3.1-70b",
    "gemma-2-9b",
    "mixtral-8x7b",
    "deepseek-v3",
    "gpt2",
    "falcon-7b",
    "qwen2.5-7b",
];
const MODES: [&str; 4] = ["inference", "training", "lora", "qlora"];
const DTYPES: [&str; 7] = ["fp32", "bf16", "fp16", "fp8", "int8", "int4", "nf4"];
const GPUS: [&str; 8] =
    ["h100-sxm", "a100-sxm-40gb", "l4", "t4", "v100-sxm-16gb", "rtx-4090", "mi300x", "b200"];
const COMPUTE: [&str; 7] = ["fp32", "tf32", "fp16", "bf16", "fp8", "int8", "fp4"];

fn agree(s: &Scenario) -> Result<(), TestCaseError> {
    match (memory_fit(s), evaluate(s)) {
        (Ok(f), Ok(r)) => {
            prop_assert_eq!(f.total_bytes, r.memory_per_gpu_bytes.total);
            prop_assert_eq!(f.kv_cache_bytes, r.memory_per_gpu_bytes.kv_cache);
            prop_assert_eq!(f.usable_bytes, r.usable_gpu_memory_bytes);
            prop_assert_eq!(f.fits, r.fits);
        }
        (Err(a), Err(b)) => prop_assert_eq!(a, b),
        (f, r) => prop_assert!(false, "memory_fit {:?} but evaluate {:?}", f, r.map(|r| r.fits)),
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn memory_fit_agrees_with_evaluate(
        model in prop::sample::select(MODELS.to_vec()),
        mode in prop::sample::select(MODES.to_vec()),
        w in prop::sample::select(DTYPES.to_vec()),
        kv in prop::sample::select(DTYPES.to_vec()),
        compute in prop::option::of(prop::sample::select(COMPUTE.to_vec())),
        gpu in prop::sample::select(GPUS.to_vec()),
        ctx in 1u64..300_000, batch in 1u64..512,
        tp in prop::sample::select(vec![1u64, 2, 4, 8, 3]), pp in 1u64..6, dp in 1u64..4,
        zero in 0u8..4, margin in 0.0f64..0.5, flash in any::<bool>(),
        recompute in prop::sample::select(vec!["none", "selective", "full"]),
        memory_bytes in prop::option::of(1_000_000_000u64..200_000_000_000),
        tensor_eff in prop::option::of(0.01f64..1.2),
    ) {
        let mut v = serde_json::json!({"model": model, "mode": mode, "weight_dtype": w, "kv_dtype": kv,
            "gpu": gpu, "context_tokens": ctx, "batch": batch, "tensor_parallel": tp,
            "pipeline_parallel": pp, "gpus": tp * pp * dp, "zero_stage": zero, "safety_margin": margin,
            "flash_attention": flash, "recompute": recompute});
        if let Some(c) = compute {
            v["compute_dtype"] = c.into();
        }
        if let Some(m) = memory_bytes {
            v["gpu_memory_bytes"] = m.into();
        }
        if let Some(e) = tensor_eff {
            v["efficiency"] = serde_json::json!({"tensor_flops": e});
        }
        let s = Scenario::from_json(&v);
        prop_assume!(s.is_ok());
        agree(&s.expect("assumed"))?;
    }
}

#[test]
fn agrees_on_the_presets_and_a_custom_gpu() {
    for p in gpu_primer::estimator::presets::PRESETS {
        agree(&p.scenario()).expect("preset agrees");
    }
    let custom = serde_json::json!({"model": "llama-3.1-8b", "gpu": {"memory_bytes": 24_000_000_000u64,
        "memory_bandwidth_bytes_per_s": 1e12, "peak_flops": {"bf16": 2e14}}, "compute_dtype": "fp8"});
    agree(&Scenario::from_json(&custom).expect("a valid custom GPU")).expect("custom GPU agrees");
}
