//! Properties: evaluate never panics, and memory never shrinks as context, batch or model grow.

use gpu_primer::catalog::evaluate;
use gpu_primer::engine::{ModelSpec, Scenario};
use proptest::prelude::*;

const MODELS: [&str; 6] = ["llama-3.1-8b", "gemma-2-9b", "mixtral-8x7b", "deepseek-v3", "gpt2", "falcon-7b"];
const MODES: [&str; 4] = ["inference", "training", "lora", "qlora"];
const DTYPES: [&str; 7] = ["fp32", "bf16", "fp16", "fp8", "int8", "int4", "nf4"];

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn arbitrary_json_never_panics(
        model in prop::sample::select(MODELS.to_vec()),
        mode in prop::sample::select(MODES.to_vec()),
        w in prop::sample::select(DTYPES.to_vec()),
        ctx in any::<i64>(), batch in any::<i64>(), tp in 0u64..20, pp in 0u64..100, gpus in 0u64..200,
        zero in 0u8..6, margin in -1.0f64..2.0, group in 0u64..300,
    ) {
        let v = serde_json::json!({"model": model, "mode": mode, "weight_dtype": w, "context_tokens": ctx,
            "batch": batch, "tensor_parallel": tp, "pipeline_parallel": pp, "gpus": gpus, "zero_stage": zero,
            "safety_margin": margin, "int4_group_size": group});
        if let Ok(s) = Scenario::from_json(&v) {
            let _ = evaluate(&s);
        }
    }

    #[test]
    fn pasted_configs_never_panic(h in 0u64..100_000, l in 0u64..200, heads in 0u64..200, kv in 0u64..200,
        hd in prop::option::of(0u64..1000), inter in 0u64..100_000, vocab in 0u64..300_000,
        family in prop::sample::select(vec!["llama", "qwen2", "gemma2", "gemma3_text", "phi3", "falcon", "gpt2", "mixtral", "qwen3_moe", "deepseek_v3"])) {
        let v = serde_json::json!({"model": {"model_type": family, "hidden_size": h, "num_hidden_layers": l,
            "num_attention_heads": heads, "num_key_value_heads": kv, "head_dim": hd, "intermediate_size": inter,
            "vocab_size": vocab, "num_local_experts": 8, "num_experts_per_tok": 2, "num_experts": 16,
            "moe_intermediate_size": 64, "n_routed_experts": 8, "kv_lora_rank": 64, "qk_rope_head_dim": 16,
            "qk_nope_head_dim": 32, "v_head_dim": 32}, "context_tokens": 1000});
        if let Ok(s) = Scenario::from_json(&v) {
            let _ = evaluate(&s);
        }
    }

    #[test]
    fn memory_grows_with_context_and_batch(
        model in prop::sample::select(MODELS.to_vec()),
        mode in prop::sample::select(MODES.to_vec()),
        ctx in 1u64..200_000, extra in 0u64..200_000, batch in 1u64..64, more in 0u64..64,
    ) {
        let mut s = Scenario::from_json(&serde_json::json!({"model": model, "mode": mode})).unwrap();
        s.context_tokens = ctx;
        s.batch = batch;
        let base = evaluate(&s).unwrap().memory_per_gpu_bytes;
        s.context_tokens = ctx + extra;
        let longer = evaluate(&s).unwrap().memory_per_gpu_bytes;
        prop_assert!(longer.total >= base.total);
        prop_assert!(longer.kv_cache >= base.kv_cache);
        s.context_tokens = ctx;
        s.batch = batch + more;
        let wider = evaluate(&s).unwrap().memory_per_gpu_bytes;
        prop_assert!(wider.total >= base.total);
    }

    #[test]
    fn more_tensor_parallel_never_means_more_weights_per_gpu(tp_exp in 0u32..4) {
        let tp = 1u64 << tp_exp;
        let mut s = Scenario::new(ModelSpec::Id("llama-3.1-70b".into()));
        s.tensor_parallel = tp;
        s.gpus = tp;
        let a = evaluate(&s).unwrap().memory_per_gpu_bytes.weights;
        s.tensor_parallel = tp * 2;
        s.gpus = tp * 2;
        let b = evaluate(&s).unwrap().memory_per_gpu_bytes.weights;
        prop_assert!(b <= a);
    }
}

/// Bigger models in a family never need less memory.
#[test]
fn memory_grows_with_model_size() {
    for family in [
        ["llama-3.2-1b", "llama-3.2-3b", "llama-3.1-8b", "llama-3.1-70b", "llama-3.1-405b"].as_slice(),
        ["qwen2.5-0.5b", "qwen2.5-7b", "qwen2.5-14b", "qwen2.5-32b", "qwen2.5-72b"].as_slice(),
    ] {
        let mut last = 0;
        for m in family {
            let total =
                evaluate(&Scenario::new(ModelSpec::Id((*m).into()))).unwrap().memory_per_gpu_bytes.total;
            assert!(total > last, "{m}");
            last = total;
        }
    }
}
