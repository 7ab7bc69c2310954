//! Real `config.json` files, pasted whole as published (with `architectures`, `torch_dtype`,
//! `rope_scaling` objects, `auto_map`, nested `text_config`/`vision_config`, ...), run through
//! the library and the `estimate` CLI. Expected counts and their basis are in
//! `tests/fixtures/configs/expected.json`.

mod common;

use gpu_primer::catalog::evaluate;
use gpu_primer::engine::{ModelSpec, Scenario};
use serde_json::{json, Value};
use std::path::Path;

fn dir() -> &'static Path {
    Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/configs"))
}

fn load(name: &str) -> Value {
    let text = std::fs::read_to_string(dir().join(format!("{name}.json"))).unwrap();
    serde_json::from_str(&text).unwrap()
}

fn expected() -> Vec<(String, Value)> {
    let text = std::fs::read_to_string(dir().join("expected.json")).unwrap();
    let v: Value = serde_json::from_str(&text).unwrap();
    v["configs"].as_object().unwrap().iter().map(|(k, v)| (k.clone(), v.clone())).collect()
}

fn report(config: Value) -> gpu_primer::engine::Report {
    evaluate(&Scenario::new(ModelSpec::Config(config))).unwrap_or_else(|e| panic!("{e}"))
}

#[test]
fn every_fixture_has_an_expectation_and_there_are_at_least_ten() {
    let names: Vec<String> = expected().into_iter().map(|(k, _)| k).collect();
    assert!(names.len() >= 10);
    for entry in std::fs::read_dir(dir()).unwrap() {
        let file = entry.unwrap().file_name().into_string().unwrap();
        if file != "expected.json" {
            let stem = file.trim_end_matches(".json");
            assert!(names.iter().any(|n| n == stem), "{file} has no entry in expected.json");
        }
    }
}

#[test]
fn published_configs_give_exact_counts_and_kv_bytes() {
    for (name, e) in expected() {
        let r = report(load(&name));
        assert_eq!(r.params.total, e["total"].as_u64().unwrap(), "{name}: total");
        assert_eq!(r.params.active, e["active"].as_u64().unwrap(), "{name}: active");
        assert_eq!(
            r.kv_cache_bytes_per_token,
            e["kv_bytes_per_token"].as_u64().unwrap(),
            "{name}: kv bytes per token"
        );
    }
}

#[test]
fn the_cli_reads_a_published_config_whole() {
    let scenario = json!({"model": load("deepseek-v2-lite"), "context_tokens": 4096});
    let (code, stdout, stderr) = common::estimate(&scenario.to_string());
    assert_eq!(code, 0, "{stderr}");
    let r: Value = serde_json::from_str(&stdout).unwrap();
    assert_eq!(r["params"]["total"], 15_706_484_224u64);
    assert_eq!(r["kv_cache_bytes_per_token"], 31_104);
}

/// Quantised repos (AWQ, GPTQ, FP8) publish the same architecture plus a
/// `quantization_config`; the parameter count must not change. The blocks below follow the
/// keys AutoAWQ, AutoGPTQ and DeepSeek-V3's FP8 checkpoint write (constructed, not copied).
#[test]
fn quantization_config_does_not_change_the_architecture() {
    let base = report(load("qwen2.5-3b")).params.total;
    for q in [
        json!({"bits": 4, "group_size": 128, "modules_to_not_convert": null, "quant_method": "awq", "version": "gemm", "zero_point": true}),
        json!({"bits": 4, "damp_percent": 0.01, "desc_act": false, "group_size": 128, "quant_method": "gptq", "static_groups": false, "sym": true, "true_sequential": true}),
        json!({"activation_scheme": "dynamic", "fmt": "e4m3", "quant_method": "fp8", "weight_block_size": [128, 128]}),
    ] {
        let mut cfg = load("qwen2.5-3b");
        cfg["quantization_config"] = q;
        assert_eq!(report(cfg).params.total, base);
    }
}

#[test]
fn unsupported_families_name_model_type_and_list_the_supported_ones() {
    let cfg = json!({"architectures": ["Mystery9ForConditionalGeneration"], "model_type": "mystery9",
        "text_config": {"model_type": "mystery9_text", "hidden_size": 5120}});
    let e = evaluate(&Scenario::new(ModelSpec::Config(cfg))).unwrap_err();
    let msg = e.to_string();
    assert!(msg.starts_with("model.text_config.model_type"), "{msg}");
    assert!(
        msg.contains("mystery9_text") && msg.contains("qwen3_moe") && msg.contains("deepseek_v3"),
        "{msg}"
    );
    assert!(msg.contains("gpt_oss") && msg.contains("llama4_text") && msg.contains("glm4_moe"), "{msg}");
    let e = evaluate(&Scenario::new(ModelSpec::Config(json!({"model_type": "mamba"})))).unwrap_err();
    assert!(e.to_string().contains("'mamba'") && e.to_string().contains("olmo2"), "{e}");
}
