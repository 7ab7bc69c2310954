//! Named scenarios for the chapters' `{r:NAME:PATH:SCALE:DECIMALS}` placeholders (names start
//! with the chapter's slug).

pub static SCENARIOS: &[(&str, &str)] = &[
    // Reading spec sheets, "Capacity, bandwidth and the rest of the system": Llama-2-13B in FP16
    // at batch 1 on an L40S and on an A100 80GB SXM (the chapter's exercises use the same two).
    (
        "reading-spec-sheets-13b-l40s",
        r#"{"model": "llama-2-13b", "weight_dtype": "fp16", "batch": 1, "context_tokens": 512, "gpu": "l40s"}"#,
    ),
    (
        "reading-spec-sheets-13b-a100",
        r#"{"model": "llama-2-13b", "weight_dtype": "fp16", "batch": 1, "context_tokens": 512, "gpu": "a100-sxm-80gb"}"#,
    ),
];
