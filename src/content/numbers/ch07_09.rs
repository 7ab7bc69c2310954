//! Named scenarios for the chapters' `{r:NAME:PATH:SCALE:DECIMALS}` placeholders (names start
//! with the chapter's slug).

/// An A100 80GB SXM `1g.10gb` MIG slice as its own GPU, by its id: `exercises::parse_scenario`
/// makes it the GPU `estimator::mig_slice` derives (1/8 of the memory and of the 2,039 GB/s, 1/7
/// of the peaks, the parent's measured efficiencies), the one chapter 8's widget opens at.
macro_rules! a100_1g10gb {
    () => {
        r#""a100-sxm-80gb/mig-1g.10gb""#
    };
}

pub static SCENARIOS: &[(&str, &str)] = &[
    // Chapter 7: a 70B model in BF16 on H100 SXM (its weights; the node's links as the engine
    // models them).
    ("nvlink-70b-bf16", r#"{"model": "llama-3.1-70b", "gpu": "h100-sxm"}"#),
    // Chapter 7: Llama-2-7B in BF16, whose weights are as large as its BF16 gradients.
    ("nvlink-7b-bf16", r#"{"model": "llama-2-7b", "gpu": "h100-sxm"}"#),
    // Chapter 8: the worked example, Llama-2-7B in 4-bit with 3 (and 4) requests of 2,048
    // tokens on an A100 80GB 1g.10gb slice.
    (
        "mig-7b-int4-slice",
        concat!(
            r#"{"model": "llama-2-7b", "weight_dtype": "int4", "context_tokens": 2048, "batch": 3, "gpu": "#,
            a100_1g10gb!(),
            "}"
        ),
    ),
    (
        "mig-7b-int4-slice-1",
        concat!(
            r#"{"model": "llama-2-7b", "weight_dtype": "int4", "context_tokens": 2048, "batch": 1, "gpu": "#,
            a100_1g10gb!(),
            "}"
        ),
    ),
    (
        "mig-7b-int4-slice-4",
        concat!(
            r#"{"model": "llama-2-7b", "weight_dtype": "int4", "context_tokens": 2048, "batch": 4, "gpu": "#,
            a100_1g10gb!(),
            "}"
        ),
    ),
    // Chapter 9: Llama-3.1-8B serving 32 requests of 4,096 tokens on one H100 SXM, priced at the
    // p5.48xlarge snapshot (us-east-1, 2026-11-09): $55.04 per hour / 8 GPUs.
    (
        "cloud-gpus-8b-h100",
        r#"{"model": "llama-3.1-8b", "gpu": "h100-sxm", "batch": 32, "context_tokens": 4096, "price_per_gpu_hour": 6.88}"#,
    ),
    // Chapter 9: the same model and context with 4 requests on one GPU: one service of 32
    // requests split over a p5.48xlarge's eight GPUs as eight replicas (the instance selector
    // also tries tensor-parallel groups and keeps the fastest layout).
    (
        "cloud-gpus-8b-h100-b4",
        r#"{"model": "llama-3.1-8b", "gpu": "h100-sxm", "batch": 4, "context_tokens": 4096}"#,
    ),
];
