//! Wide expert parallelism with data-parallel attention through the whole engine (issue 32,
//! item 5): each GPU an attention replica holding only its own sequences' KV cache, the MoE
//! layers' dispatch and combine priced per layer and shown with their numbers, and an
//! expert-parallel size that does not divide the experts named where a stack refuses it.

use gpu_primer::catalog::evaluate;
use gpu_primer::engine::error::ErrorKind;
use gpu_primer::engine::stack::EpComm;
use gpu_primer::engine::{EngineError, Scenario};
use gpu_primer::i18n::Lang;
use serde_json::{json, Value};

fn scenario(v: Value) -> Scenario {
    Scenario::from_json(&v).unwrap_or_else(|e| panic!("{v}: {e}"))
}

/// DeepSeek-V3 in FP8 under SGLang on `gpus` H200s, one attention replica per GPU (TP 1) of
/// 64 sequences of 4,096 tokens, the routed experts spread over all of them.
fn deepseek_wide(gpus: u64, comm: &str) -> Value {
    json!({"model": "deepseek-v3", "weight_dtype": "fp8", "serving_stack": "sglang",
           "gpu": "h200-sxm", "gpus": gpus, "tensor_parallel": 1, "expert_parallel": gpus,
           "batch": 64, "context_tokens": 4096, "ep_comm": comm})
}

#[test]
fn each_attention_replica_holds_only_its_own_sequences() {
    let r16 = evaluate(&scenario(deepseek_wide(16, "deepep_low_latency"))).unwrap();
    let r32 = evaluate(&scenario(deepseek_wide(32, "deepep_low_latency"))).unwrap();
    // MLA: 61 layers × (512 + 64) × 2 bytes = 70,272 B per token; 64 sequences × 4,096 tokens
    // on each GPU, however many replicas the EP group holds.
    assert_eq!(r16.kv_cache_bytes_per_token, 70_272);
    assert_eq!(r16.memory_per_gpu_bytes.kv_cache, 64 * 4096 * 70_272);
    assert_eq!(r32.memory_per_gpu_bytes.kv_cache, r16.memory_per_gpu_bytes.kv_cache);
    assert_eq!((r16.layout.data_parallel, r16.layout.experts_per_gpu), (16, 16));
    assert_eq!(r32.layout.experts_per_gpu, 8);
    // The MoE layers see every replica's tokens: 64 × 16 per step at EP 16.
    let m = r16.performance.phases.decode.moe.as_ref().unwrap();
    assert_eq!(m.layer.tokens, 64.0 * 16.0);
}

#[test]
fn dispatch_and_combine_worked_for_deepep_low_latency() {
    let r = evaluate(&scenario(deepseek_wide(16, "deepep_low_latency"))).unwrap();
    let d = &r.performance.phases.decode;
    let m = d.moe.as_ref().unwrap();
    let x = m.exchange.as_ref().unwrap();
    assert_eq!(x.comm, EpComm::DeepepLowLatency);
    // 64 tokens of this rank, each sent once per chosen expert (the low-latency kernels do not
    // merge copies bound for one GPU): 8; FP8 + scales + metadata 7,168 + 224 + 16 = 7,408 B
    // dispatched, BF16 14,336 B combined.
    assert_eq!(x.tokens, 64.0);
    assert_eq!(x.destinations, 8.0);
    assert_eq!((x.dispatch_bytes, x.combine_bytes), (7408.0, 14336.0));
    let per_layer = 64.0 * x.destinations * (7408.0 / x.dispatch_rate + 14336.0 / x.combine_rate);
    assert!((x.per_layer_s - per_layer).abs() < 1e-12);
    // The phase's time: 58 MoE layers × the slowest rank's load × one layer.
    let total = 58.0 * m.layer.imbalance * x.per_layer_s;
    assert!((d.expert_parallel_comm_s - total).abs() < 1e-12, "{} vs {total}", d.expert_parallel_comm_s);
    // Shown with its numbers and its source.
    let dv = r.derivation("phases.decode.expert_parallel_comm_s").expect("derived");
    let en = gpu_primer::i18n::facts::derivation(dv, Lang::En);
    assert!(en.values.contains("7,408 B") && en.values.contains("58 layers"), "{}", en.values);
    assert!(en.source.contains("DeepEP"), "{}", en.source);
    let zh = gpu_primer::i18n::facts::derivation(dv, Lang::Zh);
    assert!(zh.values.contains("58 层"), "{}", zh.values);
}

#[test]
fn nccl_sends_twice_per_layer() {
    let r = evaluate(&scenario(deepseek_wide(16, "nccl"))).unwrap();
    let d = &r.performance.phases.decode;
    let x = d.moe.as_ref().unwrap().exchange.unwrap();
    assert_eq!(x.comm, EpComm::Nccl);
    // S = 64 tokens × 8 experts × 7,168 × 2 bytes from each GPU per all-to-all.
    assert_eq!(x.dispatch_bytes, 64.0 * 8.0 * 7168.0 * 2.0);
    assert!((x.per_layer_s - 2.0 * x.dispatch_bytes / x.dispatch_rate).abs() < 1e-12);
    assert!(r.derivation("phases.decode.expert_parallel_comm_s").is_some());
    // DeepEP's low-latency kernels send FP8 (half NCCL's BF16 going out): less time per layer.
    let ll = evaluate(&scenario(deepseek_wide(16, "deepep_low_latency"))).unwrap();
    let ll_x = ll.performance.phases.decode.moe.unwrap().exchange.unwrap();
    assert!(ll_x.per_layer_s < x.per_layer_s, "{} vs {}", ll_x.per_layer_s, x.per_layer_s);
}

#[test]
fn no_exchange_without_expert_parallelism() {
    let r = evaluate(&scenario(json!({"model": "deepseek-v3", "weight_dtype": "fp8",
        "gpu": "h200-sxm", "gpus": 8, "tensor_parallel": 8})))
    .unwrap();
    let d = &r.performance.phases.decode;
    assert_eq!(d.expert_parallel_comm_s, 0.0);
    assert!(d.moe.as_ref().unwrap().exchange.is_none());
    assert!(r.derivation("phases.decode.expert_parallel_comm_s").is_none());
}

fn invalid(v: Value) -> (String, ErrorKind) {
    match evaluate(&scenario(v)) {
        Err(EngineError::Invalid(e)) => (e.field, e.kind),
        Ok(_) => panic!("accepted"),
    }
}

#[test]
fn an_expert_parallel_size_that_does_not_divide_the_experts() {
    // SGLang asserts (experts + redundant) % ep == 0: Qwen3-30B-A3B's 128 experts over 6 GPUs.
    let (field, kind) = invalid(json!({"model": "qwen3-30b-a3b", "gpus": 6, "tensor_parallel": 1,
        "expert_parallel": 6, "serving_stack": "sglang"}));
    assert_eq!(field, "expert_parallel");
    assert_eq!(kind, ErrorKind::ExpertsNotDivisible { experts: 128, allowed: vec![1, 2, 4], got: 6 });
    let zh = gpu_primer::i18n::errors::error_kind(&kind, Lang::Zh);
    assert!(zh.contains("可取 1、2、4") && zh.contains("实际为 6"), "{zh}");
    let en = gpu_primer::i18n::errors::error_kind(&kind, Lang::En);
    assert!(en.contains("one of 1, 2, 4, got 6"), "{en}");
    // Training frameworks (Megatron-Core) refuse it too, whatever the serving stack.
    let (field, _) = invalid(json!({"model": "qwen3-30b-a3b", "mode": "training", "gpus": 6,
        "tensor_parallel": 1, "expert_parallel": 6}));
    assert_eq!(field, "expert_parallel");
    // Redundant experts count: 256 + 32 = 288 over 32 GPUs is 9 each under SGLang.
    let ok = evaluate(&scenario(json!({"model": "deepseek-v3", "weight_dtype": "fp8",
        "serving_stack": "sglang", "gpu": "h200-sxm", "gpus": 32, "tensor_parallel": 1,
        "expert_parallel": 32, "redundant_experts": 32})))
    .unwrap();
    assert_eq!(ok.layout.experts_per_gpu, 9);
}

#[test]
fn vllm_spreads_a_remainder_and_says_so() {
    let r = evaluate(&scenario(json!({"model": "qwen3-30b-a3b", "gpus": 6, "tensor_parallel": 1,
        "expert_parallel": 6})))
    .unwrap();
    // 128 = 6 × 21 + 2: two GPUs hold 22 experts, and the busiest sets the memory and the time.
    assert_eq!(r.layout.experts_per_gpu, 22);
    let said: Vec<String> =
        r.assumptions.iter().map(|a| gpu_primer::i18n::facts::assumption(a, Lang::En)).collect();
    assert!(
        said.iter().any(|a| a.contains("gives 2 of the GPUs one expert more (22 against 21)")),
        "{said:?}"
    );
}

#[test]
fn the_normal_kernels_cross_the_nic_once_per_remote_node() {
    // DeepSeek-V3's prefill on 64 H100s (8 nodes), DeepEP's normal kernels: each token's 8
    // experts lie in at most 4 of its 8 groups (config.json n_group 8, topk_group 4), one group
    // per node here: min(5.25, 4) nodes, 7/8 of them remote = 3.5 NIC crossings per token.
    let v = json!({"model": "deepseek-v3", "weight_dtype": "fp8", "serving_stack": "sglang",
        "gpu": "h100-sxm", "gpus": 64, "tensor_parallel": 1, "expert_parallel": 64, "batch": 16,
        "context_tokens": 4096, "prompt_tokens": 4000, "output_tokens": 96, "ep_comm": "deepep_normal"});
    let r = evaluate(&scenario(v)).unwrap();
    let p = &r.performance.phases.prefill;
    let x = p.moe.as_ref().unwrap().exchange.unwrap();
    assert!((x.destinations - 3.5).abs() < 1e-9, "{}", x.destinations);
    assert!(x.forward_s > 0.0 && x.forward_s < x.per_layer_s);
    assert!(x.bound_s <= x.per_layer_s);
    assert!(p.time_s_bound <= p.time_s);
    // Kimi K2 routes without groups (n_group 1): every expected node is crossed.
    let k2 = evaluate(&scenario(json!({"model": "kimi-k2", "weight_dtype": "fp8",
        "serving_stack": "sglang", "gpu": "h100-sxm", "gpus": 64, "tensor_parallel": 1,
        "expert_parallel": 64, "batch": 16, "context_tokens": 4096, "prompt_tokens": 4000,
        "output_tokens": 96, "ep_comm": "deepep_normal"})))
    .unwrap();
    let kx = k2.performance.phases.prefill.moe.unwrap().exchange.unwrap();
    assert!((kx.destinations - 8.0 * (1.0 - (7.0f64 / 8.0).powi(8)) * 7.0 / 8.0).abs() < 1e-9);
}
