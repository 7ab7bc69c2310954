//! Named scenarios for the chapters' `{r:NAME:PATH:SCALE:DECIMALS}` placeholders (names start
//! with the chapter's slug).

pub static SCENARIOS: &[(&str, &str)] = &[
    // Training, fine-tuning and inference.
    // Full training of Llama-3.1-8B with mixed-precision AdamW on one H100 SXM: 4,096 tokens,
    // micro-batch 1, FlashAttention, nothing recomputed.
    (
        "training-finetuning-inference-8b-train",
        r#"{"model": "llama-3.1-8b", "mode": "training", "gpu": "h100-sxm"}"#,
    ),
    // The same with full activation recomputation (only each layer's input kept).
    (
        "training-finetuning-inference-8b-train-recompute",
        r#"{"model": "llama-3.1-8b", "mode": "training", "gpu": "h100-sxm", "recompute": "full"}"#,
    ),
    // ZeRO stage 3 over 8 GPUs.
    (
        "training-finetuning-inference-8b-zero3-8",
        r#"{"model": "llama-3.1-8b", "mode": "training", "gpu": "h100-sxm", "zero_stage": 3, "gpus": 8}"#,
    ),
    ("training-finetuning-inference-70b-train", r#"{"model": "llama-3.1-70b", "mode": "training"}"#),
    // LoRA rank 16 on the four attention projections.
    (
        "training-finetuning-inference-lora-attn",
        r#"{"model": "llama-3.1-8b", "mode": "lora", "lora_targets": ["q_proj", "k_proj", "v_proj", "o_proj"]}"#,
    ),
    // Serving one sequence of 4,096 tokens (3,840 prompt + 256 generated).
    ("training-finetuning-inference-8b-h100", r#"{"model": "llama-3.1-8b", "gpu": "h100-sxm"}"#),
    ("training-finetuning-inference-8b-a100", r#"{"model": "llama-3.1-8b", "gpu": "a100-sxm-80gb"}"#),
    // 4,000 retrieved tokens of one request.
    ("training-finetuning-inference-rag", r#"{"model": "llama-3.1-8b", "context_tokens": 4000}"#),
    // torchtune's single-device full fine-tune of Llama-3.1-8B (batch 2 × 2,048 packed tokens,
    // RTX 4090), one switch at a time, then the recipe.
    (
        "training-finetuning-inference-tt-base",
        r#"{"model": "llama-3.1-8b", "mode": "training", "gpu": "rtx-4090", "batch": 2, "context_tokens": 2048}"#,
    ),
    (
        "training-finetuning-inference-tt-chunked",
        r#"{"model": "llama-3.1-8b", "mode": "training", "gpu": "rtx-4090", "batch": 2, "context_tokens": 2048, "loss_chunks": 8}"#,
    ),
    (
        "training-finetuning-inference-tt-bf16",
        r#"{"model": "llama-3.1-8b", "mode": "training", "gpu": "rtx-4090", "batch": 2, "context_tokens": 2048, "training_precision": "bf16"}"#,
    ),
    (
        "training-finetuning-inference-tt-recompute",
        r#"{"model": "llama-3.1-8b", "mode": "training", "gpu": "rtx-4090", "batch": 2, "context_tokens": 2048, "recompute": "full"}"#,
    ),
    (
        "training-finetuning-inference-tt-offload",
        r#"{"model": "llama-3.1-8b", "mode": "training", "gpu": "rtx-4090", "batch": 2, "context_tokens": 2048, "recompute": "full", "activation_offload": true}"#,
    ),
    (
        "training-finetuning-inference-tt-recipe",
        r#"{"model": "llama-3.1-8b", "mode": "training", "gpu": "rtx-4090", "batch": 2, "context_tokens": 2048, "training_precision": "bf16", "loss_chunks": 8, "optimizer": "paged_adam8bit", "optimizer_in_backward": true, "recompute": "full"}"#,
    ),
    // Diagnosing bottlenecks: the diagnosis tool's decode example (Llama-3.1-8B, BF16, H100 SXM,
    // batch 1, 4,096-token context).
    (
        "bottlenecks-diagnose-8b",
        r#"{"model": "llama-3.1-8b", "gpu": "h100-sxm", "batch": 1, "context_tokens": 4096}"#,
    ),
];
