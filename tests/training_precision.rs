//! Training memory as frameworks run it: `training_precision`, `optimizer_in_backward`, and
//! the optimizer names frameworks use. Worked numbers are written out by hand.

mod common;

use gpu_primer::catalog::evaluate;
use gpu_primer::engine::report::Report;
use gpu_primer::engine::{ModelSpec, Scenario};
use serde_json::json;

/// Llama-3.1-8B: 8,030,261,248 parameters; the embedding and the (untied) head are each
/// 128,256 × 4,096 = 525,336,576, the largest single layers.
const P: u64 = 8_030_261_248;
const EMBEDDING: u64 = 128_256 * 4_096;
/// LoRA r = 16 on all seven linears of one layer: 16 × ((4096+4096) + 2·(4096+1024) +
/// (4096+4096) + 3·(4096+14336)) = 16 × 81,920 = 1,310,720; 32 layers.
const ADAPTERS_PER_LAYER: u64 = 16 * 81_920;
const ADAPTERS: u64 = 32 * ADAPTERS_PER_LAYER;

fn run(v: serde_json::Value) -> Report {
    evaluate(&Scenario::from_json(&v).unwrap()).unwrap()
}

#[test]
fn full_fine_tune_in_bf16_has_no_master_copy() {
    let r = run(
        json!({"model": "llama-3.1-8b", "mode": "training", "training_precision": "bf16", "gpu": "h200-sxm"}),
    );
    let m = &r.memory_per_gpu_bytes;
    assert_eq!(r.params.total, P);
    assert_eq!(m.weights, 2 * P); // bf16 weights
    assert_eq!(m.gradients, 2 * P); // bf16 gradients
    assert_eq!(m.optimizer, 4 * P); // two bf16 moments, no fp32 master
                                    // Mixed precision (the default) for comparison: 2 + 2 + (8 + 4) = 16 bytes/param.
    let mixed = run(json!({"model": "llama-3.1-8b", "mode": "training", "gpu": "h200-sxm"}));
    assert_eq!(mixed.memory_per_gpu_bytes.weights, 2 * P);
    assert_eq!(mixed.memory_per_gpu_bytes.gradients, 2 * P);
    assert_eq!(mixed.memory_per_gpu_bytes.optimizer, 12 * P);
}

#[test]
fn full_fine_tune_in_fp32_is_4_4_8() {
    let r = run(json!({"model": "llama-3.1-8b", "mode": "training", "training_precision": "fp32"}));
    let m = &r.memory_per_gpu_bytes;
    assert_eq!((m.weights, m.gradients, m.optimizer), (4 * P, 4 * P, 8 * P));
}

/// Megatron's rule for bf16 (megatron/training/arguments.py): gradients accumulated and
/// reduced in fp32. Memory 2 + 4 + 12 bytes a parameter; the data-parallel reduce-scatter moves
/// twice the bytes, the parameters' all-gather the same.
#[test]
fn fp32_gradients_double_the_gradient_bytes_and_their_reduction() {
    let r =
        run(json!({"model": "llama-3.1-8b", "mode": "training", "training_precision": "mixed_fp32_grads"}));
    let m = &r.memory_per_gpu_bytes;
    assert_eq!((m.weights, m.gradients, m.optimizer), (2 * P, 4 * P, 12 * P));
    let sync = |precision: &str| {
        let r = run(json!({"model": "llama-3.1-8b", "mode": "training", "training_precision": precision,
            "gpu": "h100-sxm", "gpus": 16, "zero_stage": 1, "micro_batches": 4}));
        r.performance.phases.training.expect("a training phase").data_parallel_sync_s
    };
    let (mixed, fp32) = (sync("mixed"), sync("mixed_fp32_grads"));
    // Reduce-scatter of grads (2 → 4 bytes) plus the same all-gather of bf16 parameters: the
    // sync grows by half, within the collectives' latency terms.
    assert!(fp32 > 1.4 * mixed && fp32 < 1.6 * mixed, "{mixed} → {fp32}");
    // ZeRO-3: a layer's unsharded gradients wait for their reduce-scatter in fp32 too; a decoder
    // layer is 4096 × (4096 + 1024 + 1024 + 4096) + 3 × 4096 × 14336 + 2 × 4096 = 218,112,000
    // parameters, 2 more bytes each.
    let fsdp = |precision: &str| {
        run(json!({"model": "llama-3.1-8b", "mode": "training", "training_precision": precision,
            "gpus": 8, "zero_stage": 3}))
        .memory_per_gpu_bytes
        .fsdp_buffers
    };
    assert_eq!(fsdp("mixed_fp32_grads") - fsdp("mixed"), 2 * 218_112_000);
}

#[test]
fn optimizers_combine_with_bf16() {
    let opt = |o: &str| {
        run(json!({"model": "llama-3.1-8b", "mode": "training", "training_precision": "bf16", "optimizer": o}))
            .memory_per_gpu_bytes
            .optimizer
    };
    assert_eq!(opt("adamw"), 4 * P);
    assert_eq!(opt("adam_8bit"), 2 * P);
    assert_eq!(opt("sgd_momentum"), 2 * P);
    assert_eq!(opt("sgd"), 0);
}

#[test]
fn lora_in_bf16_keeps_bf16_adapters() {
    let r = run(json!({"model": "llama-3.1-8b", "mode": "lora", "training_precision": "bf16"}));
    let m = &r.memory_per_gpu_bytes;
    assert_eq!(r.params.trainable, ADAPTERS);
    assert_eq!(m.weights, 2 * P + 2 * ADAPTERS);
    assert_eq!(m.gradients, 2 * ADAPTERS);
    assert_eq!(m.optimizer, 4 * ADAPTERS);
    // Default (mixed): fp32 adapters as PEFT keeps them, no master copy.
    let d = run(json!({"model": "llama-3.1-8b", "mode": "lora"}));
    let m = &d.memory_per_gpu_bytes;
    assert_eq!((m.weights, m.gradients, m.optimizer), (2 * P + 4 * ADAPTERS, 4 * ADAPTERS, 8 * ADAPTERS));
}

#[test]
fn optimizer_in_backward_holds_one_layers_gradients() {
    let r = run(
        json!({"model": "llama-3.1-8b", "mode": "training", "training_precision": "bf16", "optimizer_in_backward": true}),
    );
    assert_eq!(r.memory_per_gpu_bytes.gradients, 2 * EMBEDDING);
    assert_eq!(r.memory_per_gpu_bytes.optimizer, 4 * P);
    let l = run(json!({"model": "llama-3.1-8b", "mode": "lora", "optimizer_in_backward": true}));
    assert_eq!(l.memory_per_gpu_bytes.gradients, 4 * ADAPTERS_PER_LAYER);
    // Inference has no gradients either way.
    let i = run(json!({"model": "llama-3.1-8b", "optimizer_in_backward": true}));
    assert_eq!(i.memory_per_gpu_bytes.gradients, 0);
}

#[test]
fn derivations_name_the_precision_and_the_fused_step() {
    let r = run(
        json!({"model": "llama-3.1-8b", "mode": "training", "training_precision": "bf16", "optimizer_in_backward": true}),
    );
    for lang in [gpu_primer::i18n::Lang::En, gpu_primer::i18n::Lang::Zh] {
        let g = gpu_primer::i18n::facts::derivation(
            r.derivation("memory_per_gpu_bytes.gradients").unwrap(),
            lang,
        )
        .values;
        let o = gpu_primer::i18n::facts::derivation(
            r.derivation("memory_per_gpu_bytes.optimizer").unwrap(),
            lang,
        )
        .values;
        assert!(
            g.contains("bf16") && g.contains(&gpu_primer::i18n::facts::bytes(u128::from(2 * EMBEDDING))),
            "{g}"
        );
        assert!(o.contains(" 4 ") && o.contains(&gpu_primer::i18n::facts::bytes(u128::from(4 * P))), "{o}");
    }
}

#[test]
fn framework_optimizer_names_are_read() {
    for name in ["adam_8bit", "adamw_8bit", "adam8bit"] {
        let s = Scenario::from_json(&json!({"model": "x", "optimizer": name})).unwrap();
        assert_eq!(
            s.optimizer,
            Scenario::from_json(&json!({"model": "x", "optimizer": "adam8bit"})).unwrap().optimizer
        );
    }
    // The paged spellings are their own optimizer: their states live in unified memory.
    for name in ["paged_adamw_8bit", "paged_adam_8bit", "paged_adam8bit"] {
        let s = Scenario::from_json(&json!({"model": "x", "optimizer": name})).unwrap();
        assert_eq!(s.optimizer, gpu_primer::engine::workload::Optimizer::PagedAdam8bit, "{name}");
    }
    let (code, stdout, stderr) =
        common::estimate(r#"{"model": "llama-3.1-8b", "mode": "lora", "optimizer": "adam_8bit"}"#);
    assert_eq!(code, 0, "{stderr}");
    let r: serde_json::Value = serde_json::from_str(&stdout).unwrap();
    // fp32 adapters (their own master copy), two 8-bit moments: 2 bytes per adapter parameter.
    assert_eq!(r["memory_per_gpu_bytes"]["optimizer"], 2 * ADAPTERS);
}

#[test]
fn bad_values_name_their_field() {
    let e = Scenario::from_json(&json!({"model": "x", "training_precision": "fp16"})).unwrap_err();
    assert_eq!(e.field, "training_precision");
    let e = Scenario::from_json(&json!({"model": "x", "optimizer_in_backward": "yes"})).unwrap_err();
    assert_eq!(e.field, "optimizer_in_backward");
    let defaults = Scenario::new(ModelSpec::Id("x".into()));
    assert!(!defaults.optimizer_in_backward);
}
