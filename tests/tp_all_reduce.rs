//! A serving step's tensor-parallel all-reduces through the whole engine, shown with their
//! numbers: the stack's own kernels inside a node (one call `α(n) + (n−1)·S/(β·e)`, e = 0.34), NCCL's
//! ring where they do not run, and no such term without tensor parallelism.

use gpu_primer::catalog::evaluate;
use gpu_primer::engine::perf::custom_all_reduce::Kernels;
use gpu_primer::engine::Scenario;
use gpu_primer::i18n::Lang;
use serde_json::{json, Value};

fn scenario(v: Value) -> Scenario {
    Scenario::from_json(&v).unwrap_or_else(|e| panic!("{v}: {e}"))
}

/// DeepSeek-V3 in FP8 on H200s, 16 sequences a decode step, tensor parallel over `gpus`.
fn deepseek_tp(gpus: u64, extra: Value) -> Value {
    let mut v = json!({"model": "deepseek-v3", "weight_dtype": "fp8", "serving_stack": "sglang",
        "gpu": "h200-sxm", "gpus": gpus, "tensor_parallel": gpus, "batch": 16, "context_tokens": 2048});
    if let (Some(o), Some(x)) = (v.as_object_mut(), extra.as_object()) {
        o.extend(x.clone());
    }
    v
}

/// Worked: 16 tokens × 7,168 × 2 bytes = 229,376 B over 8 GPUs on NVLink's 450 GB/s, SGLang's
/// (TensorRT-LLM's) kernels one-shot: 5.9 µs + 7 × 229,376 / (0.34 × 450 GB/s) = 16.39 µs a
/// call; 2 a layer × 61 layers = 122 calls in the step.
#[test]
fn the_decode_steps_all_reduces_worked_on_sglangs_kernels() {
    let r = evaluate(&scenario(deepseek_tp(8, json!({})))).unwrap();
    let d = &r.performance.phases.decode;
    let a = d.tp_all_reduce.expect("tensor parallel");
    assert_eq!((a.bytes, a.ranks, a.calls), (229_376.0, 8, 122.0));
    assert_eq!(a.custom, Some((Kernels::Trtllm, true)));
    assert!((a.per_call_s * 1e6 - 16.39).abs() < 0.01, "{}", a.per_call_s);
    assert!((d.tensor_parallel_comm_s - 122.0 * a.per_call_s).abs() < 1e-15);
    let dv = r.derivation("phases.decode.tensor_parallel_comm_s").expect("derived");
    let en = gpu_primer::i18n::facts::derivation(dv, Lang::En);
    assert_eq!((a.node.alpha_s, a.node.beta_bytes_per_s, a.node.share), (5.9e-6, 450e9, 0.34));
    assert_eq!(a.nic, None);
    assert!(
        en.values.starts_with(
            "trtllm_custom, steps per call 1: S 229 KB on 8 GPUs, α 5.90 µs, β 450 GB/s, e 0.34"
        ),
        "{}",
        en.values
    );
    assert!(en.values.contains("16.39 µs a call × 122 calls"), "{}", en.values);
    assert!(en.formula.contains("α(n) + (n−1)·S/(β·e)") && en.formula.contains("e = 0.34"), "{}", en.formula);
    assert!(en.source.contains("PR #2904"), "{}", en.source);
    let zh = gpu_primer::i18n::facts::derivation(dv, Lang::Zh);
    assert!(zh.values.contains("每次 16.39 µs × 122 次"), "{}", zh.values);
}

/// Without the stack's kernels, NCCL's ring of 2(n − 1) steps: slower per call; vLLM's kernels
/// cost more per call than SGLang's.
#[test]
fn nccls_ring_and_vllms_kernels() {
    let sglang = evaluate(&scenario(deepseek_tp(8, json!({})))).unwrap();
    let off = evaluate(&scenario(deepseek_tp(8, json!({"custom_all_reduce": false})))).unwrap();
    let vllm = evaluate(&scenario(deepseek_tp(8, json!({"serving_stack": "vllm_v1"})))).unwrap();
    let call = |r: &gpu_primer::engine::Report| r.performance.phases.decode.tp_all_reduce.unwrap();
    assert_eq!(call(&off).custom, None);
    assert_eq!(call(&vllm).custom, Some((Kernels::Vllm, true)));
    assert!(call(&off).per_call_s > call(&vllm).per_call_s);
    assert!(call(&vllm).per_call_s > call(&sglang).per_call_s);
    let dv = off.derivation("phases.decode.tensor_parallel_comm_s").unwrap();
    let en = gpu_primer::i18n::facts::derivation(dv, Lang::En);
    // 14 × 2 µs + 1.75 × 229,376 B / (450 GB/s × 0.75) = 29.19 µs.
    assert!(
        en.values.starts_with(
            "nccl_ring, steps per call 14: S 229 KB on 8 GPUs, α 2.00 µs, β 450 GB/s, e 0.75 → 29.19 µs"
        ),
        "{}",
        en.values
    );
}

/// Sixteen GPUs span two nodes: NCCL's hierarchical ring, a reduce-scatter and an all-gather
/// inside each node (7 steps each at NVLink's 2 µs, 450 GB/s × 0.75: 14.60 µs) around an
/// all-reduce of S/8 between the nodes (2 steps at the NIC's 5 µs, 50 GB/s × 0.75: 10.76 µs),
/// 39.95 µs a call; one GPU has no such term.
#[test]
fn across_nodes_and_without_tensor_parallelism() {
    let r = evaluate(&scenario(deepseek_tp(16, json!({})))).unwrap();
    let a = r.performance.phases.decode.tp_all_reduce.unwrap();
    assert_eq!((a.ranks, a.custom), (16, None));
    let nic = a.nic.expect("spans nodes");
    assert_eq!((nic.alpha_s, nic.beta_bytes_per_s), (5e-6, 50e9));
    let s = 229_376.0;
    let node = 7.0 * 2e-6 + 7.0 / 8.0 * s / (450e9 * 0.75);
    let between = 2.0 * 5e-6 + (s / 8.0) / (50e9 * 0.75);
    assert!((a.per_call_s - (2.0 * node + between)).abs() < 1e-12, "{}", a.per_call_s);
    let en = gpu_primer::i18n::facts::derivation(
        r.derivation("phases.decode.tensor_parallel_comm_s").unwrap(),
        Lang::En,
    );
    assert!(en.values.starts_with("nccl_ring on 2 nodes of 8 GPUs, steps per call 16: S 229 KB; inside a node α 2.00 µs, β 450 GB/s, e 0.75; between nodes α′ 5.00 µs, β′ 50 GB/s, e′ 0.75 → 39.95 µs a call × 122 calls"), "{}", en.values);
    let zh = gpu_primer::i18n::facts::derivation(
        r.derivation("phases.decode.tensor_parallel_comm_s").unwrap(),
        Lang::Zh,
    );
    assert!(zh.values.contains("2 个节点、每个节点 8 块 GPU，每次 16 步"), "{}", zh.values);
    let one = evaluate(&scenario(json!({"model": "llama-3.1-8b", "gpu": "h100-sxm"}))).unwrap();
    assert_eq!(one.performance.phases.decode.tp_all_reduce, None);
    assert!(one.derivation("phases.decode.tensor_parallel_comm_s").is_none());
}
