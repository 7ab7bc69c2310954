//! Issue 12, the recipes: the logits line, chunked loss, activation offloading, paged
//! optimizers; efficiency by compute path and weight format; the first-token cost; the
//! validation kinds for training peak memory and TTFT. Worked numbers are written by hand.

use gpu_primer::catalog::evaluate;
use gpu_primer::engine::report::Report;
use gpu_primer::engine::Scenario;
use serde_json::{json, Value};

/// Llama-3.1-8B: vocabulary 128,256, hidden 4,096, 32 layers, 8,030,261,248 parameters.
const V: u64 = 128_256;
const P: u64 = 8_030_261_248;

fn run(v: Value) -> Report {
    evaluate(&Scenario::from_json(&v).unwrap()).unwrap()
}

fn train(extra: Value) -> Report {
    let mut s = json!({"model": "llama-3.1-8b", "mode": "training", "batch": 2, "context_tokens": 2048,
        "training_precision": "bf16", "gpu": "h200-sxm"});
    for (k, x) in extra.as_object().unwrap() {
        s[k] = x.clone();
    }
    run(s)
}

#[test]
fn logits_of_a_128k_vocabulary_by_hand() {
    // 2 × 2048 tokens × 128,256 columns = 525,336,576 values: 1,050,673,152 bytes in bf16,
    // 2,101,346,304 more for the fp32 copy the unchunked loss makes.
    let r = train(json!({}));
    assert_eq!(2 * 2048 * V, 525_336_576);
    assert_eq!(r.memory_per_gpu_bytes.logits, 1_050_673_152 + 2_101_346_304);
    // 8 chunks: 512 tokens upcast at a time: 512 × 128,256 × 4 = 262,668,288.
    let c = train(json!({"loss_chunks": 8}));
    assert_eq!(c.memory_per_gpu_bytes.logits, 1_050_673_152 + 262_668_288);
    // 0 and 1 both mean unchunked.
    assert_eq!(train(json!({"loss_chunks": 1})).memory_per_gpu_bytes.logits, r.memory_per_gpu_bytes.logits);
    // Tensor parallel splits the vocabulary: 4 GPUs hold 32,064 columns each.
    let tp = train(json!({"gpus": 4, "tensor_parallel": 4}));
    assert_eq!(tp.memory_per_gpu_bytes.logits, 2 * 2048 * 32_064 * (2 + 4));
    // Inference: one fp32 row per sequence: 8 × 128,256 × 4 = 4,104,192.
    let i = run(json!({"model": "llama-3.1-8b", "batch": 8}));
    assert_eq!(i.memory_per_gpu_bytes.logits, 8 * V * 4);
    // The logits are part of the total and no longer inside the activations.
    let m = &r.memory_per_gpu_bytes;
    assert_eq!(
        m.total,
        m.weights + m.kv_cache + m.activations + m.logits + m.gradients + m.optimizer + m.overhead
    );
    let d = r.derivation("memory_per_gpu_bytes.logits").expect("a derivation");
    let en = gpu_primer::i18n::facts::derivation(d, gpu_primer::i18n::Lang::En);
    assert!(en.values.contains("1.05 GB + 4,096 upcast tokens (loss chunks 0)"), "{}", en.values);
}

#[test]
fn each_option_lowers_the_peak_never_raises_it() {
    let base = train(json!({"recompute": "full"}));
    let peak = |r: &Report| r.memory_per_gpu_bytes.total;
    for (name, extra) in [
        ("loss_chunks", json!({"recompute": "full", "loss_chunks": 8})),
        ("activation_offload", json!({"recompute": "full", "activation_offload": true})),
        ("paged_adam8bit", json!({"recompute": "full", "optimizer": "paged_adamw_8bit"})),
        ("optimizer_in_backward", json!({"recompute": "full", "optimizer_in_backward": true})),
    ] {
        let r = train(extra);
        assert!(peak(&r) < peak(&base), "{name}: {} !< {}", peak(&r), peak(&base));
    }
    // Without recomputation too, and for LoRA and QLoRA.
    for mode in ["training", "lora", "qlora"] {
        let plain = train(json!({"mode": mode}));
        let all = train(json!({"mode": mode, "loss_chunks": 8, "activation_offload": true,
            "optimizer": "paged_adamw_8bit", "optimizer_in_backward": true}));
        assert!(peak(&all) < peak(&plain), "{mode}");
        for extra in [json!({"loss_chunks": 8}), json!({"activation_offload": true})] {
            let mut e = extra.clone();
            e["mode"] = mode.into();
            assert!(peak(&train(e)) <= peak(&plain), "{mode} {extra}");
        }
    }
    // Paged states never raise the peak, and what must fit drops by the states.
    let paged = train(json!({"recompute": "full", "optimizer": "paged_adamw"}));
    assert!(peak(&paged) <= peak(&base));
    // Inference is untouched by the training-only options.
    let i = run(json!({"model": "llama-3.1-8b"}));
    let j = run(json!({"model": "llama-3.1-8b", "loss_chunks": 8, "activation_offload": true}));
    assert_eq!(i.memory_per_gpu_bytes, j.memory_per_gpu_bytes);
}

#[test]
fn offloading_keeps_two_layers_on_the_gpu() {
    // Full recompute: each layer's input (h = 4,096 bf16 values per token) is what is saved.
    // 32 layers stored: 4096 tokens × 4096 × 32 × 2 bytes = 1,073,741,824; offloaded, 2 layers:
    // 67,108,864. The layer being recomputed is the same in both.
    let on = train(json!({"recompute": "full", "activation_offload": true}));
    let off = train(json!({"recompute": "full"}));
    assert_eq!(
        off.memory_per_gpu_bytes.activations - on.memory_per_gpu_bytes.activations,
        1_073_741_824 - 67_108_864
    );
    // Pipeline stages hold one micro-batch, not p − k, when offloading.
    let pp = |o: bool| {
        train(json!({"gpus": 4, "pipeline_parallel": 4, "activation_offload": o}))
            .memory_per_gpu_bytes
            .activations
    };
    assert!(pp(true) * 4 <= pp(false), "{} {}", pp(true), pp(false));
}

#[test]
fn paged_states_sit_on_the_device_while_it_has_room() {
    let paged = train(json!({"optimizer": "paged_adamw_8bit"}));
    let plain = train(json!({"optimizer": "adam_8bit"}));
    // Two 8-bit moments: 2 bytes per parameter, 16,060,522,496 bytes, in unified memory. An
    // H200's 141 GB has room for them: the driver keeps every page on the device.
    assert_eq!(plain.memory_per_gpu_bytes.optimizer, 2 * P);
    assert_eq!(paged.memory_per_gpu_bytes.optimizer, 2 * P);
    assert_eq!(paged.memory_per_gpu_bytes.total, plain.memory_per_gpu_bytes.total);
    assert_eq!(paged.host_memory_bytes, 0);
    let d = paged.derivation("memory_per_gpu_bytes.optimizer").unwrap();
    let en = gpu_primer::i18n::facts::derivation(d, gpu_primer::i18n::Lang::En);
    assert!(
        en.values.contains(&gpu_primer::i18n::facts::bytes(u128::from(2 * P)))
            && en.formula.contains("unified memory"),
        "{en:?}"
    );
    // The time model still moves the states: the step reads and writes them.
    let t = |r: &Report| r.performance.phases.training.as_ref().unwrap().bytes;
    assert_eq!(t(&paged), t(&plain));
    // 32-bit paged AdamW under bf16: two bf16 moments, 4 bytes per parameter.
    let p32 = train(json!({"optimizer": "paged_adamw"}));
    assert_eq!(p32.memory_per_gpu_bytes.optimizer, 4 * P);
    assert_eq!(train(json!({"optimizer": "adamw"})).memory_per_gpu_bytes.optimizer, 4 * P);
}

#[test]
fn a_device_that_runs_short_pages_the_rest_to_the_host() {
    // The same run on a 24 GB card: everything else must fit, the states fill what is left.
    let on = |optimizer: &str| {
        train(json!({"optimizer": optimizer, "gpu": "rtx-4090", "recompute": "full",
        "optimizer_in_backward": true, "loss_chunks": 8}))
    };
    let (paged, plain) = (on("paged_adamw_8bit"), on("adam_8bit"));
    let rest = plain.memory_per_gpu_bytes.total - 2 * P;
    let device = paged.gpu_memory_bytes;
    assert!(rest < device && plain.memory_per_gpu_bytes.total > device, "{rest} {device}");
    assert_eq!(paged.memory_per_gpu_bytes.optimizer, device - rest);
    assert_eq!(paged.memory_per_gpu_bytes.total, device);
    assert_eq!(paged.host_memory_bytes, 2 * P - (device - rest));
    // What must fit is the rest: the paged run fits where the plain one does not.
    assert!(paged.fits && !plain.fits);
    let fits =
        gpu_primer::i18n::facts::derivation(paged.derivation("fits").unwrap(), gpu_primer::i18n::Lang::En);
    // Written for a person: the rest in GB, as the report's bytes round.
    assert!(fits.values.contains(&gpu_primer::i18n::facts::bytes(u128::from(rest))), "{fits:?}");
    let host = paged.derivation("host_memory_bytes").unwrap();
    let zh = gpu_primer::i18n::facts::derivation(host, gpu_primer::i18n::Lang::Zh);
    assert!(
        zh.values.contains(&gpu_primer::i18n::facts::bytes(u128::from(paged.host_memory_bytes))),
        "{zh:?}"
    );
}

#[test]
fn new_fields_are_checked_and_named() {
    let e = Scenario::from_json(&json!({"model": "x", "loss_chunks": -1})).unwrap_err();
    assert_eq!(e.field, "loss_chunks");
    let e = Scenario::from_json(&json!({"model": "x", "activation_offload": "yes"})).unwrap_err();
    assert_eq!(e.field, "activation_offload");
    let mut s = Scenario::from_json(&json!({"model": "x"})).unwrap();
    s.loss_chunks = 2_000_000;
    assert_eq!(s.validate().unwrap_err().field, "loss_chunks");
    for (key, bad) in
        [("fp8_tensor_flops", 0.0), ("quantized_weight_bandwidth", 1.5), ("request_overhead_s", -0.01)]
    {
        let s = Scenario::from_json(&json!({"model": "llama-3.1-8b", "efficiency": {key: bad}})).unwrap();
        let e = s.validate().unwrap_err();
        assert_eq!(e.field, format!("efficiency.{key}"));
    }
}

#[test]
fn fp8_gemms_use_their_own_fraction() {
    // A long prefill is compute-bound: its compute time is flops / (peak × factor).
    let r = run(
        json!({"model": "llama-3.1-8b", "weight_dtype": "fp8", "prompt_tokens": 8000, "output_tokens": 1,
        "context_tokens": 8001}),
    );
    let p = &r.performance.phases.prefill;
    assert_eq!(p.path.used, gpu_primer::engine::precision::compute::ComputeDtype::Fp8);
    let per_gpu = r.performance.hardware.peak_flops_per_s;
    assert!((p.expected.compute_s - p.flops / (per_gpu * 0.69)).abs() < 1e-9 * p.expected.compute_s.max(1.0));
    let f = r.performance.efficiency.iter().find(|f| f.field == "fp8_tensor_flops").unwrap();
    assert_eq!((f.value, f.default, f.overridden), (0.69, 0.69, false));
    // BF16 keeps tensor_flops = 0.75.
    let b = run(
        json!({"model": "llama-3.1-8b", "prompt_tokens": 8000, "output_tokens": 1, "context_tokens": 8001}),
    );
    let q = &b.performance.phases.prefill;
    assert!(
        (q.expected.compute_s - q.flops / (b.performance.hardware.peak_flops_per_s * 0.75)).abs() < 1e-12
    );
    // Overridable.
    let o = run(
        json!({"model": "llama-3.1-8b", "weight_dtype": "fp8", "prompt_tokens": 8000, "output_tokens": 1,
        "context_tokens": 8001, "efficiency": {"fp8_tensor_flops": 0.5}}),
    );
    assert!(o.performance.phases.prefill.expected.compute_s > p.expected.compute_s);
    // The bound never moves.
    assert_eq!(o.performance.phases.prefill.time_s_bound, p.time_s_bound);
}

#[test]
fn dequantised_weights_are_read_at_a_smaller_fraction() {
    // Batch-1 decode of int4 weights: the weight bytes at 0.72 × 0.85 of the bandwidth, the KV
    // cache at 0.85. With no KV (share 1) the whole memory term is bytes / (B × 0.85 × 0.72).
    let r =
        run(json!({"model": "llama-3.1-8b", "weight_dtype": "int4", "prompt_tokens": 1, "output_tokens": 1,
        "context_tokens": 2}));
    let d = &r.performance.phases.decode;
    let b = r.performance.hardware.memory_bandwidth_bytes_per_s;
    let all_at_full = d.expected_bytes / (b * 0.85);
    let all_at_quant = d.expected_bytes / (b * 0.85 * 0.72);
    assert!(d.expected.memory_s > all_at_full * 1.3 && d.expected.memory_s <= all_at_quant * (1.0 + 1e-9));
    // bf16 and native fp8 read at the full fraction.
    for w in ["bf16", "fp8"] {
        let r =
            run(json!({"model": "llama-3.1-8b", "weight_dtype": w, "prompt_tokens": 1, "output_tokens": 1,
            "context_tokens": 2}));
        let d = &r.performance.phases.decode;
        let full = d.expected_bytes / (r.performance.hardware.memory_bandwidth_bytes_per_s * 0.85);
        assert!((d.expected.memory_s - full).abs() < 1e-12, "{w}");
    }
    // fp8 weights on an A100 (no fp8 path) are dequantised.
    let a = run(json!({"model": "llama-3.1-8b", "weight_dtype": "fp8", "gpu": "a100-sxm-80gb",
        "prompt_tokens": 1, "output_tokens": 1, "context_tokens": 2}));
    assert!(a
        .assumptions
        .iter()
        .any(|x| matches!(x, gpu_primer::engine::assumption::Assumption::DequantisedWeightReads { .. })));
    // Setting the factor to 1 gives the 16-bit fraction back; bounds are unchanged.
    let one =
        run(json!({"model": "llama-3.1-8b", "weight_dtype": "int4", "prompt_tokens": 1, "output_tokens": 1,
        "context_tokens": 2, "efficiency": {"quantized_weight_bandwidth": 1.0}}));
    let d1 = &one.performance.phases.decode;
    assert!((d1.expected.memory_s - all_at_full).abs() < 1e-12);
    assert_eq!(d1.time_s_bound, d.time_s_bound);
}

#[test]
fn first_token_pays_the_request_cost() {
    let r =
        run(json!({"model": "llama-3.1-8b", "prompt_tokens": 16, "output_tokens": 16, "context_tokens": 32}));
    let t = &r.performance.time;
    assert!((t.time_to_first_token_s - (t.prefill_s + 0.015)).abs() < 1e-12);
    // Generation time and throughput are the engine's own (no request cost).
    assert!((t.generation_s - (t.prefill_s + 16.0 * t.decode_step_s)).abs() < 1e-12);
    let o =
        run(json!({"model": "llama-3.1-8b", "prompt_tokens": 16, "output_tokens": 16, "context_tokens": 32,
        "efficiency": {"request_overhead_s": 0.0}}));
    assert!((o.performance.time.time_to_first_token_s - t.prefill_s).abs() < 1e-12);
    let d = r.derivation("time.time_to_first_token_s").unwrap();
    let zh = gpu_primer::i18n::facts::derivation(d, gpu_primer::i18n::Lang::Zh);
    assert!(zh.formula.contains("固定开销"), "{zh:?}");
    assert!(r.assumptions.iter().any(|a| matches!(
        a,
        gpu_primer::engine::assumption::Assumption::FirstTokenFixedCost { ms } if (*ms - 15.0).abs() < 1e-9
    )));
}

#[test]
fn validation_expresses_ttft_and_recipe_peaks() {
    use gpu_primer::validation::validate_measurements;
    let file = json!({"measurements": [
        {"kind": "ttft", "model": "Llama-3.1-8B", "gpu": "1x H100 80GB",
         "conditions": {"prompt_len": 512, "batch_size": 1, "precision": "bf16"}, "value": 40.0, "unit": "ms"},
        {"kind": "time_to_first_token", "model": "Llama-3.1-8B", "gpu": "1x H100 80GB",
         "conditions": {"input_len": 2048}, "value": 0.1, "unit": "s"},
        {"kind": "ttft_p50", "model": "Llama-3.1-70B", "gpu": "4x H100 80GB",
         "conditions": {"prompt_len": 1000}, "value": 120.0, "unit": "TTFT (milliseconds)"},
        {"kind": "training_peak_memory", "model": "Llama-3.1-8B", "gpu": "1x H100 80GB",
         "conditions": {"framework": "torchtune", "method": "Full finetune", "batch_size": 2, "seq_len": 2048},
         "value": 20.0, "unit": "GiB peak memory per GPU", "tokens_per_s": 3000},
        {"kind": "training_peak_memory", "model": "Llama-3.1-70B", "gpu": "8x A100",
         "conditions": {"framework": "torchtune", "method": "Full finetune", "note": "uses CPU offload"},
         "value": 14.0, "unit": "GiB peak memory per GPU"},
        {"kind": "training_peak_memory", "model": "Llama-3.1-8B", "gpu": "1x H100 80GB",
         "conditions": {"framework": "somethingelse", "method": "LoRA"}, "value": 20.0, "unit": "GiB"}
    ]});
    let t = validate_measurements(&file);
    let ttft: Vec<_> = t.rows.iter().filter(|r| r.kind == "ttft").collect();
    assert_eq!(ttft.len(), 3);
    assert_eq!(ttft[0].measured, 40.0);
    assert_eq!(ttft[1].measured, 100.0); // seconds read as ms
    assert_eq!(ttft[2].measured, 120.0);
    // Several GPUs without a stated layout serve with tensor parallelism over all of them.
    assert_eq!(ttft[2].conditions.tensor_parallel, 4);
    for r in &ttft {
        assert_eq!(r.bound_holds, r.bound.map(|b| b <= r.measured));
        assert!(r.bound.unwrap() < r.expected);
    }
    let peak: Vec<_> = t.rows.iter().filter(|r| r.kind == "training_peak_memory").collect();
    assert_eq!(peak.len(), 1);
    assert!(peak[0].expected > 10.0 && peak[0].expected < 30.0, "{}", peak[0].expected);
    assert!(t.summary.iter().any(|s| s.kind == "ttft" && s.rows == 3));
    assert!(t.summary.iter().any(|s| s.kind == "training_peak_memory" && s.rows == 1));
    let reasons: Vec<String> = t.not_expressed.iter().map(|n| format!("{:?}", n.reason)).collect();
    assert!(reasons.iter().any(|r| r.contains("FsdpCpuOffload")), "{reasons:?}");
    assert!(reasons.iter().any(|r| r.contains("UnknownRecipe")), "{reasons:?}");
    // The embedded file: the torchtune peaks are compared now, each under its recipe.
    let real = gpu_primer::validation::validation_table();
    assert!(real.rows.iter().filter(|r| r.kind == "training_peak_memory").count() >= 4);
}

#[test]
fn offload_derivation_names_the_layers_on_the_gpu() {
    let r = train(json!({"recompute": "full", "activation_offload": true}));
    let d = r.derivation("memory_per_gpu_bytes.activations").unwrap();
    let en = gpu_primer::i18n::facts::derivation(d, gpu_primer::i18n::Lang::En);
    assert!(en.values.contains("2 of 32 layers on the GPU"), "{}", en.values);
    let zh = gpu_primer::i18n::facts::derivation(d, gpu_primer::i18n::Lang::Zh);
    assert!(zh.values.contains("GPU 上 2 层（共 32 层）"), "{}", zh.values);
}
