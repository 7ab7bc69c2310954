//! Numbers a person reads (issue 33, class 8): every value that "show the math" prints, in both
//! languages, for a wide set of scenarios (dense, MoE, a checkpoint's own quantisation, training
//! with ZeRO, LoRA/QLoRA and paged optimizer states, llama.cpp with partial offload and
//! `--n-cpu-moe`, a MIG slice, every estimator preset, unified memory, a price) reads with its
//! unit: no run of more than five digits (`16060522496`), no grouped integer of seven digits or
//! more (`16,060,522,496`: a byte or parameter count a person reads at a glance is `16.1 GB` or
//! `8.03 B`), no scientific notation (`9.8950e14`). A derivation added later with a raw
//! `Val::Int`, `Val::Sci` or `Val::Fixed` for bytes, FLOPs or a rate fails here.

use gpu_primer::catalog::evaluate;
use gpu_primer::engine::{Report, Scenario};
use gpu_primer::i18n::facts::{assumption, derivation};
use gpu_primer::i18n::Lang;
use serde_json::json;

fn scenario(v: serde_json::Value) -> Scenario {
    Scenario::from_json(&v).expect("test scenario parses")
}

/// The scenarios: one per kind of derivation, plus every preset of the estimator.
fn reports() -> Vec<(String, Report)> {
    let cases = [
        json!({"model": "llama-3.1-8b"}),
        json!({"model": "llama-3.1-8b", "context_tokens": 131072, "batch": 64, "gpus": 8, "tensor_parallel": 8}),
        json!({"model": "llama-3.1-8b", "price_per_gpu_hour": 6.88}),
        json!({"model": "llama-3.1-70b", "gpus": 1024, "tensor_parallel": 8, "mode": "training", "zero_stage": 3, "batch": 8, "context_tokens": 8192}),
        json!({"model": "llama-3.1-8b", "mode": "training", "zero_stage": 3, "gpus": 8, "recompute": "full"}),
        json!({"model": "llama-3.1-8b", "mode": "training", "gpu": "rtx-4090", "optimizer": "paged_adam8bit", "training_precision": "bf16", "optimizer_in_backward": true, "activation_offload": true, "recompute": "full", "context_tokens": 2048}),
        json!({"model": "llama-3.1-70b", "mode": "qlora", "gpu": "a100-sxm-80gb"}),
        json!({"model": "llama-3.1-8b", "mode": "lora", "optimizer": "adam8bit", "loss_chunks": 8}),
        json!({"model": "mixtral-8x7b", "gpus": 2, "tensor_parallel": 2, "expert_parallel": 2}),
        json!({"model": "deepseek-v3", "gpus": 16, "tensor_parallel": 8, "pipeline_parallel": 2, "weight_dtype": "fp8"}),
        json!({"model": "gpt-oss-120b", "gpu": "h100-sxm"}),
        json!({"model": "qwen3-next-80b-a3b", "weight_dtype": "int4", "gpu": "h100-sxm", "context_tokens": 131072, "batch": 16}),
        json!({"model": "gemma-4-26b-a4b", "gpus": 2, "tensor_parallel": 2}),
        json!({"model": "llama-3.1-70b", "weight_dtype": "q4_k_m", "gpu": "rtx-4090", "gpu_layers": 20, "host_memory_bytes": 64e9}),
        json!({"model": "qwen3-30b-a3b", "weight_dtype": "iq4_xs", "gpu": "rtx-4090", "n_cpu_moe": 12, "kv_dtype": "q8_0", "batch": 64}),
        json!({"model": "llama-3.1-70b", "weight_dtype": "q4_k_m", "gpu": "apple-m4-max-40c"}),
        json!({"model": "llama-3.1-405b", "weight_dtype": "int4", "kv_dtype": "fp8", "batch": 64, "context_tokens": 200000}),
        json!({"model": "llama-3.1-8b", "gpu": "h100-sxm", "speculative_method": "eagle3"}),
        json!({"model": "llama-3.1-8b", "gpu": "h100-sxm", "speculative_method": "ngram", "batch": 32}),
        json!({"model": "llama-3.1-70b", "gpus": 4, "tensor_parallel": 4, "speculative_method": "draft_model",
            "speculative_draft_model": "llama-3.2-1b", "speculative_acceptance_rate": 0.7}),
        json!({"model": "deepseek-v3", "gpus": 8, "tensor_parallel": 8, "gpu": "h200-sxm", "speculative_method": "mtp"}),
    ];
    let mut out: Vec<(String, Report)> = cases
        .into_iter()
        .map(|c| {
            let label = c.to_string();
            let r = evaluate(&scenario(c)).unwrap_or_else(|e| panic!("{label}: {e}"));
            (label, r)
        })
        .collect();
    for p in gpu_primer::estimator::presets::PRESETS {
        let r = evaluate(&p.scenario()).unwrap_or_else(|e| panic!("preset {}: {e}", p.id));
        out.push((format!("preset {}", p.id), r));
    }
    out
}

/// What a reader cannot read at a glance in `text`, if anything: a run of more than five
/// digits, a grouped integer of seven digits or more, or a number in scientific notation.
fn unreadable(text: &str) -> Option<String> {
    let chars: Vec<char> = text.chars().collect();
    let mut i = 0;
    while i < chars.len() {
        let starts_number = chars[i].is_ascii_digit()
            && (i == 0 || !(chars[i - 1].is_ascii_alphanumeric() || chars[i - 1] == '_'));
        if !starts_number {
            i += 1;
            continue;
        }
        // The number: digits with `,` between groups of three, then a fraction, then an exponent.
        let start = i;
        let mut digits = 0;
        let mut run = 0;
        let mut longest_run = 0;
        while i < chars.len() {
            let c = chars[i];
            if c.is_ascii_digit() {
                digits += 1;
                run += 1;
                longest_run = longest_run.max(run);
                i += 1;
            } else if c == ',' && chars.get(i + 1..i + 4).is_some_and(|g| g.iter().all(char::is_ascii_digit))
            {
                run = 0;
                i += 1;
            } else {
                break;
            }
        }
        let integer: String = chars[start..i].iter().collect();
        if longest_run > 5 {
            return Some(format!("{integer} (a run of {longest_run} digits)"));
        }
        if digits >= 7 {
            return Some(format!("{integer} (an integer of {digits} digits)"));
        }
        if chars.get(i) == Some(&'.') {
            i += 1;
            while chars.get(i).is_some_and(char::is_ascii_digit) {
                i += 1;
            }
        }
        let exponent = matches!(chars.get(i), Some('e' | 'E'))
            && (chars.get(i + 1).is_some_and(char::is_ascii_digit)
                || (matches!(chars.get(i + 1), Some('+' | '-'))
                    && chars.get(i + 2).is_some_and(char::is_ascii_digit)));
        if exponent {
            let end = (i + 6).min(chars.len());
            return Some(format!("{} (scientific notation)", chars[start..end].iter().collect::<String>()));
        }
    }
    None
}

#[test]
fn the_checker_catches_what_the_issue_names() {
    for bad in [
        "stage 0 of 1, tp 1, bf16 (16 bits) → 16060522496",
        "… → 536870912",
        "525336576 + 525336576",
        "bf16 tensor → 9.8950e14 FLOP/s dense",
        "4.5000e11 B/s intra",
        "= 16,060,522,496",
        "6.8800 × 1 / (148.4 × 3600) × 1e6 = 12.8762 USD",
    ] {
        assert!(unreadable(bad).is_some(), "{bad}");
    }
    for good in [
        "stage 0 of 1, tp 1, bf16 (16 bits) → 16.1 GB",
        "1 × 4,096 tokens × 2,048 elements/token/layer × 16 bits/8 → 537 MB",
        "525 M + 525 M + 1.34 B (attention) = 8.03 B parameters",
        "bf16 tensor → 989.5 TFLOP/s dense",
        "131,072 B (128 KiB)",
        "llama-3.1-8b on h100-sxm, q4_K 154, fp16 at 10⁶",
        "1 × 1 / 6.738 ms = 148.4 tokens/s",
        "39,206.5 token/s",
    ] {
        assert_eq!(unreadable(good), None, "{good}");
    }
}

#[test]
fn every_derivation_and_assumption_reads_with_its_units() {
    let mut failures = Vec::new();
    let mut checked = 0;
    for (label, r) in reports() {
        for (key, d) in &r.derivations {
            for lang in Lang::ALL {
                let t = derivation(d, lang);
                checked += 1;
                if let Some(bad) = unreadable(&t.values) {
                    failures.push(format!("{} ({lang:?}) {bad}: '{}' [{label}]", key.path(), t.values));
                }
            }
        }
        for a in &r.assumptions {
            for lang in Lang::ALL {
                let text = assumption(a, lang);
                if let Some(bad) = unreadable(&text) {
                    failures.push(format!("assumption ({lang:?}) {bad}: '{text}' [{label}]"));
                }
            }
        }
    }
    assert!(checked > 1000, "only {checked} derivations worded");
    failures.sort();
    failures.dedup();
    assert!(failures.is_empty(), "{} unreadable values:\n{}", failures.len(), failures.join("\n"));
}

/// The sweep's examples, as the default scenario (Llama-3.1-8B on an H100 SXM) shows them.
#[test]
fn the_default_scenario_reads_like_the_rest_of_the_page() {
    let r = evaluate(&scenario(json!({"model": "llama-3.1-8b", "gpu": "h100-sxm"}))).expect("evaluates");
    let en = |path: &str| derivation(r.derivation(path).expect(path), Lang::En).values;
    let zh = |path: &str| derivation(r.derivation(path).expect(path), Lang::Zh).values;
    assert!(
        en("memory_per_gpu_bytes.weights").ends_with("→ 16.1 GB"),
        "{}",
        en("memory_per_gpu_bytes.weights")
    );
    assert!(
        en("memory_per_gpu_bytes.kv_cache").ends_with("→ 537 MB"),
        "{}",
        en("memory_per_gpu_bytes.kv_cache")
    );
    assert!(en("params.total").ends_with("= 8.03 B parameters"), "{}", en("params.total"));
    assert!(zh("params.total").ends_with("= 80.3 亿参数"), "{}", zh("params.total"));
    assert!(
        en("hardware.compute_path").ends_with("→ 989.5 TFLOP/s dense"),
        "{}",
        en("hardware.compute_path")
    );
    assert!(
        en("roofline.ridge_point").starts_with("989.5 TFLOP/s / 3.35 TB/s = "),
        "{}",
        en("roofline.ridge_point")
    );
    assert!(
        en("kv_cache_bytes_per_token").ends_with("= 131,072 B (128 KiB)"),
        "{}",
        en("kv_cache_bytes_per_token")
    );
    assert!(
        en("throughput.decode_tokens_per_s").ends_with(" tokens/s"),
        "{}",
        en("throughput.decode_tokens_per_s")
    );
    assert!(
        zh("throughput.decode_tokens_per_s").ends_with(" token/s"),
        "{}",
        zh("throughput.decode_tokens_per_s")
    );
    assert!(en("phases.decode.flops").ends_with("GFLOP"), "{}", en("phases.decode.flops"));
}
