//! Properties: evaluate never panics, in-range inputs always evaluate, errors name a field that
//! was given, and memory never shrinks as context, batch or model grow.
//!
//! Each generated case that should evaluate is `expect`ed to, with a message naming its inputs;
//! each test also counts its successes and asserts a stated share, so a decoder or an engine that
//! rejected everything would fail here rather than pass on no case at all.

#[path = "support/share.rs"]
mod share;

use gpu_primer::catalog::evaluate;
use gpu_primer::engine::{EngineError, ModelSpec, Scenario};
use proptest::prelude::*;
use serde_json::{json, Value};
use share::Tally;

/// Catalog models with the largest power-of-two tensor parallelism (≤ 8) their heads allow:
/// it must divide the attention heads and divide (or be a multiple of) the KV heads. Heads from
/// the published config.json files: Llama 3.1 8B 32/8, Gemma 2 9B 16/8, Mixtral 8x7B 32/8,
/// DeepSeek-V3 128 (MLA), GPT-2 12/12 (8 does not divide 12), Falcon 7B 71/1 (71 is prime).
/// Every one has at least 12 layers, so pipeline parallelism up to 4 is allowed.
const MODELS: [(&str, u64); 6] = [
    ("llama-3.1-8b", 8),
    ("gemma-2-9b", 8),
    ("mixtral-8x7b", 8),
    ("deepseek-v3", 8),
    ("gpt2", 4),
    ("falcon-7b", 1),
];
const MODES: [&str; 4] = ["inference", "training", "lora", "qlora"];
const DTYPES: [&str; 7] = ["fp32", "bf16", "fp16", "fp8", "int8", "int4", "nf4"];

fn model_ids() -> Vec<&'static str> {
    MODELS.iter().map(|(id, _)| *id).collect()
}

/// Whether `Scenario::validate` accepts weights in `dtype` for `mode`: full training needs a
/// trainable float (fp32, bf16, fp16), QLoRA a quantised base (nf4, int4, int8).
fn dtype_allowed(mode: &str, dtype: &str) -> bool {
    match mode {
        "training" => matches!(dtype, "fp32" | "bf16" | "fp16"),
        "qlora" => matches!(dtype, "nf4" | "int4" | "int8"),
        _ => true,
    }
}

/// The top-level key an error is about (`efficiency.tensor_flops` → `efficiency`).
fn error_root(e: &EngineError) -> String {
    e.field().split('.').next().unwrap_or_default().to_owned()
}

/// Evaluates a JSON scenario: `Ok(())`, or the error, which must name a key the JSON has.
fn evaluate_json(v: &Value) -> Result<(), EngineError> {
    let result = Scenario::from_json(v).map_err(EngineError::from).and_then(|s| evaluate(&s).map(drop));
    if let Err(e) = &result {
        let root = error_root(e);
        let given = v.as_object().expect("scenarios here are objects");
        assert!(
            root == "scenario" || given.contains_key(&root),
            "{v}: the error names '{e}', a field not given"
        );
    }
    result
}

#[test]
fn arbitrary_and_in_range_json_never_panic() {
    let tally = Tally::default();
    proptest!(ProptestConfig::with_cases(64), |(
        (model, max_tp) in prop::sample::select(MODELS.to_vec()),
        mode in prop::sample::select(MODES.to_vec()),
        w in prop::sample::select(DTYPES.to_vec()),
        ctx in any::<i64>(), batch in any::<i64>(), tp in 0u64..20, pp in 0u64..100, gpus in 0u64..200,
        zero in 0u8..6, margin in -1.0f64..2.0, group in 0u64..300,
        in_ctx in 1u64..=200_000, in_batch in 1u64..=64, tp_exp in 0u32..4, in_pp in 1u64..=4,
        dp in 1u64..=8, in_zero in 0u8..=3, in_margin in 0.0f64..0.9, in_group in 1u64..=1024,
    )| {
        // Anything: a report or an error naming one of the fields.
        let wild = json!({"model": model, "mode": mode, "weight_dtype": w, "context_tokens": ctx,
            "batch": batch, "tensor_parallel": tp, "pipeline_parallel": pp, "gpus": gpus, "zero_stage": zero,
            "safety_margin": margin, "int4_group_size": group});
        tally.record(evaluate_json(&wild).is_ok());

        // The same draws folded into every documented range: this one must evaluate.
        let in_tp = (1u64 << tp_exp).min(max_tp);
        let mut in_range = json!({"model": model, "mode": mode, "context_tokens": in_ctx, "batch": in_batch,
            "tensor_parallel": in_tp, "pipeline_parallel": in_pp, "gpus": in_tp * in_pp * dp,
            "zero_stage": in_zero, "safety_margin": in_margin, "int4_group_size": in_group});
        if dtype_allowed(mode, w) {
            in_range["weight_dtype"] = json!(w);
        }
        evaluate_json(&in_range).unwrap_or_else(|e| panic!("{in_range}: {e}"));
        tally.record(true);
    });
    // One in-range scenario per case always evaluates.
    tally.assert_share(0.5, "arbitrary and in-range scenarios");
}

#[test]
fn pasted_configs_never_panic() {
    let tally = Tally::default();
    proptest!(ProptestConfig::with_cases(64), |(
        h in 0u64..100_000, l in 0u64..200, heads in 0u64..200, kv in 0u64..200,
        hd in prop::option::of(0u64..1000), inter in 0u64..100_000, vocab in 0u64..300_000,
        family in prop::sample::select(vec!["llama", "qwen2", "gemma2", "gemma3_text", "phi3", "falcon", "gpt2", "mixtral", "qwen3_moe", "deepseek_v3"]),
        mqa in any::<bool>(),
    )| {
        let wild = json!({"model": {"model_type": family, "hidden_size": h, "num_hidden_layers": l,
            "num_attention_heads": heads, "num_key_value_heads": kv, "head_dim": hd, "intermediate_size": inter,
            "vocab_size": vocab, "num_local_experts": 8, "num_experts_per_tok": 2, "num_experts": 16,
            "moe_intermediate_size": 64, "n_routed_experts": 8, "kv_lora_rank": 64, "qk_rope_head_dim": 16,
            "qk_nope_head_dim": 32, "v_head_dim": 32}, "context_tokens": 1000});
        tally.record(evaluate_json(&wild).is_ok());

        // A consistent Llama from the same draws: hidden = heads × head_dim, KV heads 1 (MQA) or
        // all of them (MHA), every count at least 1. It must evaluate.
        let (heads, head_dim) = (heads.max(1), hd.unwrap_or(64).clamp(1, 256));
        let consistent = json!({"model": {"model_type": "llama", "hidden_size": heads * head_dim,
            "num_hidden_layers": l.max(1), "num_attention_heads": heads,
            "num_key_value_heads": if mqa { 1 } else { heads }, "intermediate_size": inter.max(1),
            "vocab_size": vocab.max(1)}, "context_tokens": 1000});
        evaluate_json(&consistent).unwrap_or_else(|e| panic!("{consistent}: {e}"));
        tally.record(true);
    });
    tally.assert_share(0.5, "pasted configs");
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn memory_grows_with_context_and_batch(
        model in prop::sample::select(model_ids()),
        mode in prop::sample::select(MODES.to_vec()),
        ctx in 1u64..200_000, extra in 0u64..200_000, batch in 1u64..64, more in 0u64..64,
    ) {
        let json = json!({"model": model, "mode": mode});
        let mut s = Scenario::from_json(&json).unwrap_or_else(|e| panic!("{json}: {e}"));
        s.context_tokens = ctx;
        s.batch = batch;
        let memory = |s: &Scenario| {
            evaluate(s)
                .unwrap_or_else(|e| panic!("{model} {mode}, {} tokens × {}: {e}", s.context_tokens, s.batch))
                .memory_per_gpu_bytes
        };
        let base = memory(&s);
        s.context_tokens = ctx + extra;
        let longer = memory(&s);
        prop_assert!(longer.total >= base.total);
        prop_assert!(longer.kv_cache >= base.kv_cache);
        s.context_tokens = ctx;
        s.batch = batch + more;
        let wider = memory(&s);
        prop_assert!(wider.total >= base.total);
    }

    /// Prefix reuse (`memory::prefix`): a higher hit rate never lengthens the time to first
    /// token, a longer shared prefix never grows the KV cache nor shrinks the sequences that fit.
    #[test]
    fn prefix_reuse_never_costs_time_or_memory(
        model in prop::sample::select(model_ids()),
        prompt in 16u64..16_384, output in 1u64..2048,
        h in 0.0f64..=1.0, dh in 0.0f64..=1.0, shared in 0.0f64..=1.0, ds in 0.0f64..=1.0,
    ) {
        let mut s = Scenario::new(ModelSpec::Id(model.to_owned()));
        (s.prompt_tokens, s.output_tokens, s.context_tokens) = (Some(prompt), Some(output), prompt + output);
        s.batch = 8;
        let run = |s: &Scenario| evaluate(s).unwrap_or_else(|e| panic!("{model}, prompt {prompt}: {e}"));
        let (h2, s1) = ((h + dh).min(1.0), (shared * prompt as f64) as u64);
        let s2 = s1 + (ds * (prompt - s1) as f64) as u64;
        s.prefix_hit_rate = Some(h);
        let a = run(&s).performance.time.time_to_first_token_s;
        s.prefix_hit_rate = Some(h2);
        let b = run(&s).performance.time.time_to_first_token_s;
        prop_assert!(b <= a * (1.0 + 1e-12), "h {h} → {h2}: {a} → {b}");
        s.prefix_hit_rate = None;
        s.prefix_shared_tokens = s1;
        let (m1, n1) = { let r = run(&s); (r.memory_per_gpu_bytes.kv_cache, r.solvers.max_batch) };
        s.prefix_shared_tokens = s2;
        let (m2, n2) = { let r = run(&s); (r.memory_per_gpu_bytes.kv_cache, r.solvers.max_batch) };
        prop_assert!(m2 <= m1 && n2 >= n1, "s {s1} → {s2}: {m1} → {m2}, {n1:?} → {n2:?}");
    }

    #[test]
    fn more_tensor_parallel_never_means_more_weights_per_gpu(tp_exp in 0u32..4) {
        let tp = 1u64 << tp_exp;
        let mut s = Scenario::new(ModelSpec::Id("llama-3.1-70b".into()));
        let weights = |s: &Scenario| {
            evaluate(s).unwrap_or_else(|e| panic!("Llama 3.1 70B, TP {}: {e}", s.tensor_parallel)).memory_per_gpu_bytes.weights
        };
        s.tensor_parallel = tp;
        s.gpus = tp;
        let a = weights(&s);
        s.tensor_parallel = tp * 2;
        s.gpus = tp * 2;
        let b = weights(&s);
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
            let total = evaluate(&Scenario::new(ModelSpec::Id((*m).into())))
                .unwrap_or_else(|e| panic!("{m}: {e}"))
                .memory_per_gpu_bytes
                .total;
            assert!(total > last, "{m}");
            last = total;
        }
    }
}

/// The share check itself can fail: a run where nothing evaluated is caught.
#[test]
#[should_panic(expected = "0 of 3 cases evaluated")]
fn a_tally_with_no_success_fails() {
    let tally = Tally::default();
    for _ in 0..3 {
        tally.record(false);
    }
    tally.assert_share(0.5, "nothing");
}

#[test]
#[should_panic(expected = "no case ran")]
fn a_tally_with_no_case_fails() {
    Tally::default().assert_share(0.5, "empty");
}
