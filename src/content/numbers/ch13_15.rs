//! Named scenarios for the chapters' `{r:NAME:PATH:SCALE:DECIMALS}` placeholders (names start
//! with the chapter's slug).

pub static SCENARIOS: &[(&str, &str)] = &[
    // capacity-estimation, step 1: the weights of the two models in each storage format.
    ("capacity-estimation-8b-fp32", r#"{"model": "llama-3.1-8b", "weight_dtype": "fp32"}"#),
    ("capacity-estimation-8b-bf16", r#"{"model": "llama-3.1-8b", "weight_dtype": "bf16"}"#),
    ("capacity-estimation-8b-fp8", r#"{"model": "llama-3.1-8b", "weight_dtype": "fp8"}"#),
    ("capacity-estimation-8b-nvfp4", r#"{"model": "llama-3.1-8b", "weight_dtype": "nvfp4"}"#),
    ("capacity-estimation-8b-int4", r#"{"model": "llama-3.1-8b", "weight_dtype": "int4"}"#),
    ("capacity-estimation-70b-fp32", r#"{"model": "llama-3.1-70b", "weight_dtype": "fp32"}"#),
    ("capacity-estimation-70b-bf16", r#"{"model": "llama-3.1-70b", "weight_dtype": "bf16"}"#),
    ("capacity-estimation-70b-fp8", r#"{"model": "llama-3.1-70b", "weight_dtype": "fp8"}"#),
    ("capacity-estimation-70b-nvfp4", r#"{"model": "llama-3.1-70b", "weight_dtype": "nvfp4"}"#),
    ("capacity-estimation-70b-int4", r#"{"model": "llama-3.1-70b", "weight_dtype": "int4"}"#),
    // Step 2: the KV cache of Llama-3.1-8B at 4K and 32K, one request and 32.
    ("capacity-estimation-8b-4k", r#"{"model": "llama-3.1-8b", "context_tokens": 4096}"#),
    ("capacity-estimation-8b-32k", r#"{"model": "llama-3.1-8b", "context_tokens": 32768}"#),
    ("capacity-estimation-8b-32x32k", r#"{"model": "llama-3.1-8b", "context_tokens": 32768, "batch": 32}"#),
    // Step 3: full training with mixed-precision AdamW.
    ("capacity-estimation-8b-train", r#"{"model": "llama-3.1-8b", "mode": "training"}"#),
    // The worked estimate: Llama-3.1-70B, 32 requests of 8,192 tokens on H100 SXM.
    (
        "capacity-estimation-70b-32x8k",
        r#"{"model": "llama-3.1-70b", "context_tokens": 8192, "batch": 32, "gpu": "h100-sxm"}"#,
    ),
    (
        "capacity-estimation-70b-32x8k-tp2",
        r#"{"model": "llama-3.1-70b", "context_tokens": 8192, "batch": 32, "gpu": "h100-sxm", "gpus": 2, "tensor_parallel": 2}"#,
    ),
    (
        "capacity-estimation-70b-32x8k-tp4",
        r#"{"model": "llama-3.1-70b", "context_tokens": 8192, "batch": 32, "gpu": "h100-sxm", "gpus": 4, "tensor_parallel": 4}"#,
    ),
    // FP8 weights alone, the KV cache left as the estimator leaves it (BF16): the takeaway's
    // middle answer.
    (
        "capacity-estimation-70b-32x8k-fp8w",
        r#"{"model": "llama-3.1-70b", "weight_dtype": "fp8", "context_tokens": 8192, "batch": 32, "gpu": "h100-sxm"}"#,
    ),
    (
        "capacity-estimation-70b-32x8k-fp8",
        r#"{"model": "llama-3.1-70b", "weight_dtype": "fp8", "kv_dtype": "fp8", "context_tokens": 8192, "batch": 32, "gpu": "h100-sxm"}"#,
    ),
    (
        "capacity-estimation-70b-32x8k-fp8-tp2",
        r#"{"model": "llama-3.1-70b", "weight_dtype": "fp8", "kv_dtype": "fp8", "context_tokens": 8192, "batch": 32, "gpu": "h100-sxm", "gpus": 2, "tensor_parallel": 2}"#,
    ),
    // gpu-clusters: an H100 SXM node (p5.48xlarge-like: NVSwitch inside, a 400 Gb/s NIC share per GPU).
    ("gpu-clusters-h100", r#"{"model": "llama-3.1-8b", "gpu": "h100-sxm"}"#),
    // A Blackwell GPU of a GB200 NVL72 rack (NVLink 5 through NVLink Switch trays).
    ("gpu-clusters-gb200", r#"{"model": "llama-3.1-8b", "gpu": "gb200"}"#),
    // The gradients of an 8B model and the training state of a 70B model (checkpoint size).
    ("gpu-clusters-8b-train", r#"{"model": "llama-3.1-8b", "mode": "training", "gpu": "h100-sxm"}"#),
    ("gpu-clusters-70b-train", r#"{"model": "llama-3.1-70b", "mode": "training", "gpu": "h100-sxm"}"#),
    // gpu-clusters, disaggregated prefill and decode: Llama-3.1-70B on 8 H100 SXM at TP 8 (up to
    // 256 sequences), 4,096-token prompts and 512 output tokens at 3 requests/s, served by one
    // aggregated pool; the same pool as the decode pool beside one prefill worker of 8 GPUs (1P1D,
    // the KV cache over InfiniBand NDR); two prefill workers of 4 GPUs instead; the same 16 GPUs as
    // two aggregated replicas; 8 GPUs split 4 + 4 inside one node (NVLink).
    (
        "gpu-clusters-disagg-agg",
        r#"{"model": "llama-3.1-70b", "gpu": "h100-sxm", "gpus": 8, "tensor_parallel": 8, "batch": 256, "prompt_tokens": 4096, "output_tokens": 512, "context_tokens": 4608, "arrival_rate_per_s": 3}"#,
    ),
    (
        "gpu-clusters-disagg-1p1d",
        r#"{"model": "llama-3.1-70b", "gpu": "h100-sxm", "gpus": 8, "tensor_parallel": 8, "batch": 256, "prompt_tokens": 4096, "output_tokens": 512, "context_tokens": 4608, "arrival_rate_per_s": 3, "prefill_workers": 1}"#,
    ),
    (
        "gpu-clusters-disagg-2p1d-tp4",
        r#"{"model": "llama-3.1-70b", "gpu": "h100-sxm", "gpus": 8, "tensor_parallel": 8, "batch": 256, "prompt_tokens": 4096, "output_tokens": 512, "context_tokens": 4608, "arrival_rate_per_s": 3, "prefill_workers": 2, "prefill_tensor_parallel": 4}"#,
    ),
    (
        "gpu-clusters-disagg-agg-dp2",
        r#"{"model": "llama-3.1-70b", "gpu": "h100-sxm", "gpus": 16, "data_parallel": 2, "tensor_parallel": 8, "batch": 256, "prompt_tokens": 4096, "output_tokens": 512, "context_tokens": 4608, "arrival_rate_per_s": 3}"#,
    ),
    (
        "gpu-clusters-disagg-node",
        r#"{"model": "llama-3.1-70b", "gpu": "h100-sxm", "gpus": 4, "tensor_parallel": 4, "batch": 256, "prompt_tokens": 4096, "output_tokens": 512, "context_tokens": 4608, "arrival_rate_per_s": 3, "prefill_workers": 1}"#,
    ),
    // The aggregated server at about its mean concurrency at 3 requests/s (55 sequences): the
    // step that carries one prompt; the same server and the same 16 GPUs as two replicas with a
    // prefill chunk budget of 512 tokens instead of 8,192; one 4,096-token prompt alone at TP 8
    // and TP 4 (its arithmetic, all-reduce and fixed costs).
    (
        "gpu-clusters-disagg-agg-b55",
        r#"{"model": "llama-3.1-70b", "gpu": "h100-sxm", "gpus": 8, "tensor_parallel": 8, "batch": 55, "prompt_tokens": 4096, "output_tokens": 512, "context_tokens": 4608, "arrival_rate_per_s": 3}"#,
    ),
    (
        "gpu-clusters-disagg-agg-c512",
        r#"{"model": "llama-3.1-70b", "gpu": "h100-sxm", "gpus": 8, "tensor_parallel": 8, "batch": 256, "prompt_tokens": 4096, "output_tokens": 512, "context_tokens": 4608, "arrival_rate_per_s": 3, "prefill_chunk_tokens": 512}"#,
    ),
    (
        "gpu-clusters-disagg-agg-dp2-c512",
        r#"{"model": "llama-3.1-70b", "gpu": "h100-sxm", "gpus": 16, "data_parallel": 2, "tensor_parallel": 8, "batch": 256, "prompt_tokens": 4096, "output_tokens": 512, "context_tokens": 4608, "arrival_rate_per_s": 3, "prefill_chunk_tokens": 512}"#,
    ),
    (
        "gpu-clusters-disagg-prefill-tp8",
        r#"{"model": "llama-3.1-70b", "gpu": "h100-sxm", "gpus": 8, "tensor_parallel": 8, "batch": 1, "prompt_tokens": 4096, "output_tokens": 512, "context_tokens": 4608}"#,
    ),
    (
        "gpu-clusters-disagg-prefill-tp4",
        r#"{"model": "llama-3.1-70b", "gpu": "h100-sxm", "gpus": 4, "tensor_parallel": 4, "batch": 1, "prompt_tokens": 4096, "output_tokens": 512, "context_tokens": 4608}"#,
    ),
    // When one pool is enough: 512-token prompts at 8 requests/s (aggregated on 8 and on 16 GPUs,
    // and 1P1D), and the long prompts at 0.5 requests/s.
    (
        "gpu-clusters-disagg-short-agg",
        r#"{"model": "llama-3.1-70b", "gpu": "h100-sxm", "gpus": 8, "tensor_parallel": 8, "batch": 256, "prompt_tokens": 512, "output_tokens": 512, "context_tokens": 1024, "arrival_rate_per_s": 8}"#,
    ),
    (
        "gpu-clusters-disagg-short-1p1d",
        r#"{"model": "llama-3.1-70b", "gpu": "h100-sxm", "gpus": 8, "tensor_parallel": 8, "batch": 256, "prompt_tokens": 512, "output_tokens": 512, "context_tokens": 1024, "arrival_rate_per_s": 8, "prefill_workers": 1}"#,
    ),
    (
        "gpu-clusters-disagg-short-agg-dp2",
        r#"{"model": "llama-3.1-70b", "gpu": "h100-sxm", "gpus": 16, "data_parallel": 2, "tensor_parallel": 8, "batch": 256, "prompt_tokens": 512, "output_tokens": 512, "context_tokens": 1024, "arrival_rate_per_s": 8}"#,
    ),
    (
        "gpu-clusters-disagg-low-agg",
        r#"{"model": "llama-3.1-70b", "gpu": "h100-sxm", "gpus": 8, "tensor_parallel": 8, "batch": 256, "prompt_tokens": 4096, "output_tokens": 512, "context_tokens": 4608, "arrival_rate_per_s": 0.5}"#,
    ),
    (
        "gpu-clusters-disagg-low-1p1d",
        r#"{"model": "llama-3.1-70b", "gpu": "h100-sxm", "gpus": 8, "tensor_parallel": 8, "batch": 256, "prompt_tokens": 4096, "output_tokens": 512, "context_tokens": 4608, "arrival_rate_per_s": 0.5, "prefill_workers": 1}"#,
    ),
    // gpu-clusters, wide expert parallelism: DeepSeek-V3 in FP8 under SGLang, 4,096-token contexts,
    // every GPU an attention replica (tensor_parallel 1, so data_parallel = gpus) holding 64 of its
    // own sequences and 1/ep of the routed experts; DeepEP's low-latency kernels at EP 8, 16, 32 and
    // 64 on H200 SXM; NCCL's all-to-all at EP 16; EP 16 and 32 with DeepSeek's 32 redundant experts
    // (EPLB); attention at TP 8 in two replicas on the same 16 GPUs; and H100 SXM (80 GB) at EP 16,
    // 32 and 64, each filled to the sequences that fit.
    (
        "gpu-clusters-wep-8",
        r#"{"model": "deepseek-v3", "weight_dtype": "fp8", "serving_stack": "sglang", "context_tokens": 4096, "tensor_parallel": 1, "gpu": "h200-sxm", "gpus": 8, "expert_parallel": 8, "batch": 64, "ep_comm": "deepep_low_latency"}"#,
    ),
    (
        "gpu-clusters-wep-16",
        r#"{"model": "deepseek-v3", "weight_dtype": "fp8", "serving_stack": "sglang", "context_tokens": 4096, "tensor_parallel": 1, "gpu": "h200-sxm", "gpus": 16, "expert_parallel": 16, "batch": 64, "ep_comm": "deepep_low_latency"}"#,
    ),
    (
        "gpu-clusters-wep-32",
        r#"{"model": "deepseek-v3", "weight_dtype": "fp8", "serving_stack": "sglang", "context_tokens": 4096, "tensor_parallel": 1, "gpu": "h200-sxm", "gpus": 32, "expert_parallel": 32, "batch": 64, "ep_comm": "deepep_low_latency"}"#,
    ),
    (
        "gpu-clusters-wep-64",
        r#"{"model": "deepseek-v3", "weight_dtype": "fp8", "serving_stack": "sglang", "context_tokens": 4096, "tensor_parallel": 1, "gpu": "h200-sxm", "gpus": 64, "expert_parallel": 64, "batch": 64, "ep_comm": "deepep_low_latency"}"#,
    ),
    (
        "gpu-clusters-wep-16-nccl",
        r#"{"model": "deepseek-v3", "weight_dtype": "fp8", "serving_stack": "sglang", "context_tokens": 4096, "tensor_parallel": 1, "gpu": "h200-sxm", "gpus": 16, "expert_parallel": 16, "batch": 64, "ep_comm": "nccl"}"#,
    ),
    (
        "gpu-clusters-wep-16-eplb",
        r#"{"model": "deepseek-v3", "weight_dtype": "fp8", "serving_stack": "sglang", "context_tokens": 4096, "tensor_parallel": 1, "gpu": "h200-sxm", "gpus": 16, "expert_parallel": 16, "batch": 64, "ep_comm": "deepep_low_latency", "redundant_experts": 32}"#,
    ),
    (
        "gpu-clusters-wep-32-eplb",
        r#"{"model": "deepseek-v3", "weight_dtype": "fp8", "serving_stack": "sglang", "context_tokens": 4096, "tensor_parallel": 1, "gpu": "h200-sxm", "gpus": 32, "expert_parallel": 32, "batch": 64, "ep_comm": "deepep_low_latency", "redundant_experts": 32}"#,
    ),
    (
        "gpu-clusters-wep-tp8",
        r#"{"model": "deepseek-v3", "weight_dtype": "fp8", "serving_stack": "sglang", "context_tokens": 4096, "tensor_parallel": 8, "gpu": "h200-sxm", "gpus": 16, "expert_parallel": 16, "batch": 64, "ep_comm": "deepep_low_latency"}"#,
    ),
    (
        "gpu-clusters-wep-h100-16",
        r#"{"model": "deepseek-v3", "weight_dtype": "fp8", "serving_stack": "sglang", "context_tokens": 4096, "tensor_parallel": 1, "gpu": "h100-sxm", "gpus": 16, "expert_parallel": 16, "batch": 31, "ep_comm": "deepep_low_latency"}"#,
    ),
    (
        "gpu-clusters-wep-h100-32",
        r#"{"model": "deepseek-v3", "weight_dtype": "fp8", "serving_stack": "sglang", "context_tokens": 4096, "tensor_parallel": 1, "gpu": "h100-sxm", "gpus": 32, "expert_parallel": 32, "batch": 102, "ep_comm": "deepep_low_latency"}"#,
    ),
    (
        "gpu-clusters-wep-h100-64",
        r#"{"model": "deepseek-v3", "weight_dtype": "fp8", "serving_stack": "sglang", "context_tokens": 4096, "tensor_parallel": 1, "gpu": "h100-sxm", "gpus": 64, "expert_parallel": 64, "batch": 137, "ep_comm": "deepep_low_latency"}"#,
    ),
    // sharing-gpus: a 7B chat service (the calculator's qwen2.5-7b, 4K context, one request) on an
    // H100 SXM at the p5.48xlarge rate, and the notebooks' A100 80GB PCIe at the Azure NC24ads rate.
    ("sharing-gpus-7b-chat", r#"{"model": "qwen2.5-7b", "context_tokens": 4096, "gpu": "h100-sxm"}"#),
    ("sharing-gpus-a100", r#"{"model": "qwen2.5-7b", "gpu": "a100-pcie-80gb"}"#),
    // Prefix reuse: Llama-3.1-8B on an H100 SXM, 4,096-token prompts and 256 generated tokens;
    // one request with 0, half or 90% of its prompt in the prefix cache; under load (3 requests/s,
    // up to 64 at once); a 2,048-token system prompt every request shares; an 8-turn session.
    (
        "capacity-estimation-prefix-h0",
        r#"{"model": "llama-3.1-8b", "prompt_tokens": 4096, "output_tokens": 256, "context_tokens": 4352, "gpu": "h100-sxm", "batch": 1}"#,
    ),
    (
        "capacity-estimation-prefix-h50",
        r#"{"model": "llama-3.1-8b", "prompt_tokens": 4096, "output_tokens": 256, "context_tokens": 4352, "gpu": "h100-sxm", "batch": 1, "prefix_hit_rate": 0.5}"#,
    ),
    (
        "capacity-estimation-prefix-h90",
        r#"{"model": "llama-3.1-8b", "prompt_tokens": 4096, "output_tokens": 256, "context_tokens": 4352, "gpu": "h100-sxm", "batch": 1, "prefix_hit_rate": 0.9}"#,
    ),
    (
        "capacity-estimation-prefix-load-h0",
        r#"{"model": "llama-3.1-8b", "prompt_tokens": 4096, "output_tokens": 256, "context_tokens": 4352, "gpu": "h100-sxm", "batch": 64, "arrival_rate_per_s": 3}"#,
    ),
    (
        "capacity-estimation-prefix-load-h90",
        r#"{"model": "llama-3.1-8b", "prompt_tokens": 4096, "output_tokens": 256, "context_tokens": 4352, "gpu": "h100-sxm", "batch": 64, "arrival_rate_per_s": 3, "prefix_hit_rate": 0.9}"#,
    ),
    (
        "capacity-estimation-prefix-shared",
        r#"{"model": "llama-3.1-8b", "prompt_tokens": 4096, "output_tokens": 256, "context_tokens": 4352, "gpu": "h100-sxm", "batch": 1, "prefix_shared_tokens": 2048}"#,
    ),
    (
        "capacity-estimation-session",
        r#"{"model": "llama-3.1-8b", "prompt_tokens": 2950, "output_tokens": 300, "context_tokens": 3250, "gpu": "h100-sxm", "batch": 1, "session_turns": 8, "session_turn_tokens": 200, "session_turn_output_tokens": 300, "prefix_shared_tokens": 1000}"#,
    ),
    (
        "capacity-estimation-prefix-32",
        r#"{"model": "llama-3.1-8b", "prompt_tokens": 4096, "output_tokens": 256, "context_tokens": 4352, "gpu": "h100-sxm", "batch": 32}"#,
    ),
    (
        "capacity-estimation-prefix-shared-32",
        r#"{"model": "llama-3.1-8b", "prompt_tokens": 4096, "output_tokens": 256, "context_tokens": 4352, "gpu": "h100-sxm", "batch": 32, "prefix_shared_tokens": 2048}"#,
    ),
    (
        "capacity-estimation-session-cold",
        r#"{"model": "llama-3.1-8b", "prompt_tokens": 2950, "output_tokens": 300, "context_tokens": 3250, "gpu": "h100-sxm", "batch": 1}"#,
    ),
    // KV cache tiers: the same model and GPU, agent-like sessions (a 2,000-token system prompt,
    // 16 turns of 1,000 tokens in and 500 out: a mean prompt of 14,250 tokens), one request at a
    // time, 20, 300 or 3,000 sessions open, a 200 GB CPU tier and a 3.84 TB SSD tier per GPU (a
    // DGX H100: 2 TB of memory and eight 3.84 TB drives for eight GPUs); then one prompt whose
    // whole cache is in a tier, the GPU's own prefix cache off (vLLM's measurement set-up).
    (
        "capacity-estimation-tiers-20",
        r#"{"model": "llama-3.1-8b", "gpu": "h100-sxm", "prompt_tokens": 14250, "output_tokens": 500, "context_tokens": 14750, "batch": 1, "session_turns": 16, "session_turn_tokens": 1000, "prefix_shared_tokens": 2000, "prefix_open_sessions": 20}"#,
    ),
    (
        "capacity-estimation-tiers-gpu",
        r#"{"model": "llama-3.1-8b", "gpu": "h100-sxm", "prompt_tokens": 14250, "output_tokens": 500, "context_tokens": 14750, "batch": 1, "session_turns": 16, "session_turn_tokens": 1000, "prefix_shared_tokens": 2000, "prefix_open_sessions": 300}"#,
    ),
    (
        "capacity-estimation-tiers-cpu",
        r#"{"model": "llama-3.1-8b", "gpu": "h100-sxm", "prompt_tokens": 14250, "output_tokens": 500, "context_tokens": 14750, "batch": 1, "session_turns": 16, "session_turn_tokens": 1000, "prefix_shared_tokens": 2000, "prefix_open_sessions": 300, "kv_cpu_tier_bytes": 200000000000}"#,
    ),
    (
        "capacity-estimation-tiers-ssd",
        r#"{"model": "llama-3.1-8b", "gpu": "h100-sxm", "prompt_tokens": 14250, "output_tokens": 500, "context_tokens": 14750, "batch": 1, "session_turns": 16, "session_turn_tokens": 1000, "prefix_shared_tokens": 2000, "prefix_open_sessions": 300, "kv_cpu_tier_bytes": 200000000000, "kv_ssd_tier_bytes": 3840000000000}"#,
    ),
    (
        "capacity-estimation-tiers-3000",
        r#"{"model": "llama-3.1-8b", "gpu": "h100-sxm", "prompt_tokens": 14250, "output_tokens": 500, "context_tokens": 14750, "batch": 1, "session_turns": 16, "session_turn_tokens": 1000, "prefix_shared_tokens": 2000, "prefix_open_sessions": 3000, "kv_cpu_tier_bytes": 200000000000, "kv_ssd_tier_bytes": 3840000000000}"#,
    ),
    (
        "capacity-estimation-tiers-100k",
        r#"{"model": "llama-3.1-8b", "gpu": "h100-sxm", "prompt_tokens": 100000, "output_tokens": 1, "context_tokens": 100001, "batch": 1, "prefix_hit_rate": 1.0, "prefix_open_sessions": 1, "kv_gpu_cache_bytes": 0, "kv_cpu_tier_bytes": 500000000000}"#,
    ),
    (
        "capacity-estimation-tiers-8b-ssd-2k",
        r#"{"model": "llama-3.1-8b", "gpu": "h100-sxm", "prompt_tokens": 2000, "output_tokens": 1, "context_tokens": 2001, "batch": 1, "prefix_hit_rate": 1.0, "prefix_open_sessions": 1, "kv_gpu_cache_bytes": 0, "kv_ssd_tier_bytes": 500000000000}"#,
    ),
    (
        "capacity-estimation-tiers-8b-ssd-20k",
        r#"{"model": "llama-3.1-8b", "gpu": "h100-sxm", "prompt_tokens": 20000, "output_tokens": 1, "context_tokens": 20001, "batch": 1, "prefix_hit_rate": 1.0, "prefix_open_sessions": 1, "kv_gpu_cache_bytes": 0, "kv_ssd_tier_bytes": 500000000000}"#,
    ),
    (
        "capacity-estimation-tiers-70b-ssd-2k",
        r#"{"model": "llama-3.1-70b", "gpu": "h100-sxm", "gpus": 4, "tensor_parallel": 4, "prompt_tokens": 2000, "output_tokens": 1, "context_tokens": 2001, "batch": 1, "prefix_hit_rate": 1.0, "prefix_open_sessions": 1, "kv_gpu_cache_bytes": 0, "kv_ssd_tier_bytes": 500000000000}"#,
    ),
];
