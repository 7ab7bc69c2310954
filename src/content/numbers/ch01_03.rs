//! Named scenarios for the chapters' `{r:NAME:PATH:SCALE:DECIMALS}` placeholders (names start
//! with the chapter's slug).

pub static SCENARIOS: &[(&str, &str)] = &[
    // Introduction: the worked example, one token of Llama-2-7B in BF16 on an A100 80GB.
    (
        "introduction-7b-a100",
        r#"{"model": "llama-2-7b", "batch": 1, "context_tokens": 512, "gpu": "a100-sxm-80gb"}"#,
    ),
    // Memory capacity: training state of Llama-2-7B (16 bytes per parameter).
    ("memory-capacity-7b-train", r#"{"model": "llama-2-7b", "mode": "training", "gpu": "h100-sxm"}"#),
    // Activations of Llama-2-7B at s = 2048, b = 1, with and without FlashAttention.
    (
        "memory-capacity-7b-act",
        r#"{"model": "llama-2-7b", "mode": "training", "context_tokens": 2048, "batch": 1, "flash_attention": false}"#,
    ),
    (
        "memory-capacity-7b-act-flash",
        r#"{"model": "llama-2-7b", "mode": "training", "context_tokens": 2048, "batch": 1, "flash_attention": true}"#,
    ),
    // Llama-3.1-70B weights in each format.
    ("memory-capacity-70b-fp32", r#"{"model": "llama-3.1-70b", "weight_dtype": "fp32"}"#),
    ("memory-capacity-70b-bf16", r#"{"model": "llama-3.1-70b", "weight_dtype": "bf16"}"#),
    ("memory-capacity-70b-fp8", r#"{"model": "llama-3.1-70b", "weight_dtype": "fp8"}"#),
    ("memory-capacity-70b-int4", r#"{"model": "llama-3.1-70b", "weight_dtype": "int4"}"#),
    ("memory-capacity-70b-nvfp4", r#"{"model": "llama-3.1-70b", "weight_dtype": "nvfp4"}"#),
    // KV cache of Llama-3.1-8B (32 layers, 8 KV heads, head_dim 128) in BF16.
    ("memory-capacity-8b-4k", r#"{"model": "llama-3.1-8b", "context_tokens": 4096, "gpu": "h100-sxm"}"#),
    ("memory-capacity-8b-32k", r#"{"model": "llama-3.1-8b", "context_tokens": 32768}"#),
    ("memory-capacity-8b-32x32k", r#"{"model": "llama-3.1-8b", "context_tokens": 32768, "batch": 32}"#),
    ("memory-capacity-8b-l4", r#"{"model": "llama-3.1-8b", "context_tokens": 4096, "gpu": "l4"}"#),
    ("memory-capacity-llama2-7b", r#"{"model": "llama-2-7b", "context_tokens": 4096}"#),
    // On your own machine: Llama-3.1-8B as a llama.cpp Q4_K_M file (and the host's default bandwidth).
    ("memory-capacity-local-8b", r#"{"model": "llama-3.1-8b", "weight_dtype": "q4_k_m", "gpu": "rtx-4090"}"#),
    // Hybrid models: Qwen3-Next (Gated DeltaNet) and Nemotron 3 Nano (Mamba-2), Qwen3-30B-A3B for comparison.
    ("memory-capacity-qwen3-next-128k", r#"{"model": "qwen3-next-80b-a3b", "context_tokens": 131072}"#),
    (
        "memory-capacity-qwen3-next-16x128k",
        r#"{"model": "qwen3-next-80b-a3b", "context_tokens": 131072, "batch": 16}"#,
    ),
    ("memory-capacity-qwen3-next-1k", r#"{"model": "qwen3-next-80b-a3b", "context_tokens": 1024}"#),
    ("memory-capacity-qwen3-30b-128k", r#"{"model": "qwen3-30b-a3b", "context_tokens": 131072}"#),
    ("memory-capacity-nemotron-nano", r#"{"model": "nemotron-3-nano-30b-a3b", "context_tokens": 4096}"#),
    // Memory bandwidth: Llama-3-8B decode on an H100 SXM at the step where 4,096 tokens are cached
    // (a 4,094-token prompt and 2 generated tokens put the average step at 4,095 + 1).
    (
        "memory-bandwidth-8b-b1-4k",
        r#"{"model": "llama-3-8b", "context_tokens": 4096, "prompt_tokens": 4094, "batch": 1, "gpu": "h100-sxm"}"#,
    ),
    (
        "memory-bandwidth-8b-b32-4k",
        r#"{"model": "llama-3-8b", "context_tokens": 4096, "prompt_tokens": 4094, "batch": 32, "gpu": "h100-sxm"}"#,
    ),
    // A mixture-of-experts decode step as a serving engine runs its experts: DeepSeek-V3 (its own
    // block-FP8 weights) on eight H200s at TP 8, batch 16, Triton's fused MoE (vLLM V1's default).
    (
        "memory-bandwidth-deepseek-b16",
        r#"{"model": "deepseek-v3", "gpu": "h200-sxm", "gpus": 8, "tensor_parallel": 8, "batch": 16, "context_tokens": 1100, "prompt_tokens": 1000}"#,
    ),
    // Prefill and decode as two phases: Llama-3.1-8B in BF16 on an H100 SXM, a 2,048-token prompt
    // and 256 generated tokens, at batch 1 and 64, and under load (6 requests/s arriving).
    (
        "memory-bandwidth-phases-b1",
        r#"{"model": "llama-3.1-8b", "prompt_tokens": 2048, "output_tokens": 256, "context_tokens": 2304, "batch": 1, "gpu": "h100-sxm"}"#,
    ),
    (
        "memory-bandwidth-phases-b64",
        r#"{"model": "llama-3.1-8b", "prompt_tokens": 2048, "output_tokens": 256, "context_tokens": 2304, "batch": 64, "gpu": "h100-sxm"}"#,
    ),
    (
        "memory-bandwidth-phases-load",
        r#"{"model": "llama-3.1-8b", "prompt_tokens": 2048, "output_tokens": 256, "context_tokens": 2304, "batch": 64, "gpu": "h100-sxm", "arrival_rate_per_s": 6}"#,
    ),
    // Speculative decoding on a short chat turn (MT-bench-like: 128 tokens in, 256 out): an EAGLE-3
    // head drafting 4 tokens a step, each accepted with probability 0.75, under vLLM (its drafter's
    // host floor) and under SGLang.
    (
        "memory-bandwidth-spec",
        r#"{"model": "llama-3.1-8b", "prompt_tokens": 128, "output_tokens": 256, "context_tokens": 384, "batch": 1, "gpu": "h100-sxm", "speculative_method": "eagle3", "speculative_draft_tokens": 4, "speculative_acceptance_rate": 0.75}"#,
    ),
    (
        "memory-bandwidth-spec-sglang",
        r#"{"model": "llama-3.1-8b", "prompt_tokens": 128, "output_tokens": 256, "context_tokens": 384, "batch": 1, "gpu": "h100-sxm", "speculative_method": "eagle3", "speculative_draft_tokens": 4, "speculative_acceptance_rate": 0.75, "serving_stack": "sglang"}"#,
    ),
];
