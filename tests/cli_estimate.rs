//! The `gpu-primer estimate` contract: JSON report on stdout, or exit 2 with one line naming the field.

mod common;

use std::process::Command;

fn run(input: &str) -> (i32, String, String) {
    common::estimate(input)
}

fn assert_bad(input: &str, field: &str) {
    let (code, stdout, stderr) = run(input);
    assert_eq!(code, 2, "{input}");
    assert!(stdout.is_empty());
    assert_eq!(stderr.trim_end().lines().count(), 1, "one line: {stderr}");
    assert!(stderr.starts_with(field), "'{stderr}' should name {field}");
}

#[test]
fn good_input_prints_the_report() {
    let (code, stdout, _) =
        run(r#"{"model": "llama-3.1-8b", "context_tokens": 8192, "batch": 4, "gpu": "a100-sxm-80gb"}"#);
    assert_eq!(code, 0);
    let r: serde_json::Value = serde_json::from_str(&stdout).unwrap();
    assert_eq!(r["params"]["total"], 8_030_261_248u64);
    assert_eq!(r["kv_cache_bytes_per_token"], 131_072);
    assert_eq!(r["memory_per_gpu_bytes"]["kv_cache"], 131_072u64 * 8192 * 4);
    assert_eq!(r["fits"], true);
    for key in ["weights", "kv_cache", "activations", "gradients", "optimizer", "overhead", "total"] {
        assert!(r["memory_per_gpu_bytes"][key].is_u64(), "{key}");
        assert!(r["derivations"][format!("memory_per_gpu_bytes.{key}")].is_object(), "{key}");
    }
}

#[test]
fn file_argument_and_inline_config() {
    let path = std::env::temp_dir().join(format!("gpu-primer-test-{}.json", std::process::id()));
    std::fs::write(&path, r#"{"model": {"model_type": "gpt2", "n_embd": 768, "n_layer": 12, "n_head": 12, "vocab_size": 50257}}"#).unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_gpu-primer")).arg("estimate").arg(&path).output().unwrap();
    let _ = std::fs::remove_file(&path);
    assert_eq!(out.status.code(), Some(0));
    let r: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(r["params"]["total"], 124_439_808);
}

#[test]
fn bad_input_exits_2_naming_the_field() {
    assert_bad("{not json", "scenario");
    assert_bad("[1, 2]", "scenario");
    assert_bad(r#"{"model": "no-such-model"}"#, "model");
    assert_bad(r#"{"model": "llama-3.1-8b", "context_tokens": 0}"#, "context_tokens");
    assert_bad(r#"{"model": "llama-3.1-8b", "batch": "four"}"#, "batch");
    assert_bad(r#"{"model": "llama-3.1-8b", "weight_dtype": "fp12"}"#, "weight_dtype");
    assert_bad(r#"{"model": "llama-3.1-8b", "gpu": "voodoo2"}"#, "gpu");
    assert_bad(r#"{"model": "llama-3.1-8b", "tensor_parallel": 3, "gpus": 3}"#, "tensor_parallel");
    assert_bad(r#"{"model": "llama-3.1-8b", "safety_margin": 1.5}"#, "safety_margin");
    assert_bad(r#"{"model": {"model_type": "bert"}}"#, "model.model_type");
    assert_bad(r#"{"model": {"model_type": "llama", "hidden_size": 4096}}"#, "model.num_hidden_layers");
    assert_bad(r#"{"context_tokens": 5}"#, "model");
}

#[test]
fn speculative_keys_in_and_out() {
    let (code, stdout, _) = run(
        r#"{"model": "llama-3.1-8b", "gpu": "h100-sxm", "speculative_method": "eagle3", "speculative_draft_tokens": 3, "speculative_acceptance_rate": 0.8}"#,
    );
    assert_eq!(code, 0);
    let r: serde_json::Value = serde_json::from_str(&stdout).unwrap();
    let sp = &r["speculative"];
    assert_eq!(sp["method"], "eagle3");
    assert_eq!(sp["draft_tokens"], 3);
    // Leviathan et al.'s Eq. 1: (1 − 0.8⁴) / 0.2 = 2.952.
    assert!((sp["expected_tokens_per_step"].as_f64().unwrap() - 2.952).abs() < 1e-9);
    assert_eq!(sp["acceptance_from"], "rate");
    assert_eq!(r["time"]["time_per_output_token_s"], sp["time_per_output_token_s"]);
    assert_eq!(sp["by_batch"].as_array().unwrap().len(), 10);
    assert!(r["derivations"]["speculative.time_per_output_token_s"].is_object());
    assert_bad(
        r#"{"model": "llama-3.1-8b", "speculative_method": "eagle3", "speculative_acceptance_rate": 1.2}"#,
        "speculative_acceptance_rate",
    );
    assert_bad(r#"{"model": "llama-3.1-8b", "speculative_method": "mtp"}"#, "speculative_method");
    assert_bad(r#"{"model": "llama-3.1-8b", "speculative_method": "warp"}"#, "speculative_method");
    assert_bad(r#"{"model": "llama-3.1-8b", "speculative_acceptance_length": 2.5}"#, "speculative_method");
}
