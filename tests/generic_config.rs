//! A config whose `model_type` the engine does not know: counted as a generic Llama-style
//! decoder from the usual keys, marked as inferred, with the keys read and ignored listed
//! (issue 13, "Any other config").

mod common;

use gpu_primer::catalog::evaluate;
use gpu_primer::engine::error::ErrorKind;
use gpu_primer::engine::{ModelSpec, Report, Scenario};
use serde_json::{json, Value};
use std::path::Path;

fn fixture(name: &str) -> Value {
    let path = Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/configs"))
        .join(format!("{name}.json"));
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

fn expected(name: &str) -> (u64, u64, u64) {
    let path = Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/configs/expected.json"));
    let v: Value = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    let e = &v["configs"][name];
    (e["total"].as_u64().unwrap(), e["active"].as_u64().unwrap(), e["kv_bytes_per_token"].as_u64().unwrap())
}

/// A published config under a made-up family name.
fn renamed(name: &str) -> Value {
    let mut cfg = fixture(name);
    cfg["model_type"] = json!("mystery_decoder");
    cfg["architectures"] = json!(["MysteryDecoderForCausalLM"]);
    cfg
}

fn report(cfg: Value) -> Report {
    evaluate(&Scenario::new(ModelSpec::Config(cfg))).unwrap_or_else(|e| panic!("{e}"))
}

fn strings(v: &[&str]) -> Vec<String> {
    v.iter().map(|s| (*s).to_owned()).collect()
}

#[test]
fn llama_keys_under_an_unknown_name_give_llama_3_1_8b_exactly_marked_inferred() {
    let (total, active, kv) = expected("llama-3.1-8b");
    let r = report(renamed("llama-3.1-8b"));
    assert_eq!((r.params.total, r.params.active, r.kv_cache_bytes_per_token), (total, active, kv));
    assert_eq!(r.params.total, 8_030_261_248);
    assert!(r.model.inferred);
    assert_eq!(r.model.family, "mystery_decoder");
    assert_eq!(
        r.model.keys_used,
        strings(&[
            "attention_bias",
            "hidden_size",
            "intermediate_size",
            "max_position_embeddings",
            "mlp_bias",
            "num_attention_heads",
            "num_hidden_layers",
            "num_key_value_heads",
            "tie_word_embeddings",
            "vocab_size",
        ])
    );
    // Shape-neutral to the counter, so listed: the reader sees what was not taken into account.
    assert_eq!(
        r.model.keys_ignored,
        strings(&["hidden_act", "pretraining_tp", "rms_norm_eps", "rope_scaling", "rope_theta"])
    );
}

#[test]
fn known_families_are_not_inferred_and_list_no_keys() {
    for name in ["llama-3.1-8b", "qwen3-30b-a3b", "gemma-3-1b-it", "deepseek-v2-lite"] {
        let r = report(fixture(name));
        assert!(!r.model.inferred, "{name}");
        assert!(r.model.keys_used.is_empty() && r.model.keys_ignored.is_empty(), "{name}");
        assert_eq!((r.params.total, r.params.active, r.kv_cache_bytes_per_token), expected(name), "{name}");
    }
    let r = evaluate(&Scenario::new(ModelSpec::Id("llama-3.1-8b".into()))).unwrap();
    assert!(!r.model.inferred);
}

#[test]
fn moe_keys_under_an_unknown_name_count_the_experts() {
    // Qwen3-30B-A3B as a generic decoder: the same experts, router, attention and KV cache;
    // only Qwen3's per-head q/k RMSNorms (2 × head_dim 128 in each of 48 layers) are not known.
    let (total, active, kv) = expected("qwen3-30b-a3b");
    let qk_norms = 48 * 2 * 128;
    let r = report(renamed("qwen3-30b-a3b"));
    assert_eq!(
        (r.params.total, r.params.active, r.kv_cache_bytes_per_token),
        (total - qk_norms, active - qk_norms, kv)
    );
    assert!(r.model.inferred);
    for key in ["num_experts", "num_experts_per_tok", "moe_intermediate_size", "mlp_only_layers", "head_dim"]
    {
        assert!(r.model.keys_used.iter().any(|k| k == key), "{key} used: {:?}", r.model.keys_used);
    }
    for key in ["decoder_sparse_step", "max_window_layers", "norm_topk_prob", "use_sliding_window"] {
        assert!(r.model.keys_ignored.iter().any(|k| k == key), "{key} ignored: {:?}", r.model.keys_ignored);
    }
    // sliding_window is null in this config: it says nothing, so it is in neither list.
    assert!(!r.model.keys_ignored.iter().chain(&r.model.keys_used).any(|k| k == "sliding_window"));
}

#[test]
fn shared_experts_first_dense_layers_and_a_sliding_window_are_read() {
    let h: u64 = 64;
    let cfg = json!({"model_type": "tiny_moe", "hidden_size": h, "num_hidden_layers": 4,
        "num_attention_heads": 4, "num_key_value_heads": 2, "intermediate_size": 256, "vocab_size": 100,
        "n_routed_experts": 8, "num_experts_per_tok": 2, "moe_intermediate_size": 32, "n_shared_experts": 1,
        "first_k_dense_replace": 1, "tie_word_embeddings": true, "sliding_window": 16,
        "layer_types": ["full_attention", "sliding_attention", "sliding_attention", "full_attention"]});
    let r = report(cfg);
    // Hand count: attention q,o 2h² + k,v 2·h·32 per layer; norms 2h per layer + h final;
    // layer 0 dense 3·h·256; layers 1–3: 8 experts 3·h·32 + shared 3·h·32 + router h·8.
    let attn = 2 * h * h + 2 * h * 32;
    let norms = 4 * 2 * h + h;
    let dense = 3 * h * 256;
    let expert = 3 * h * 32;
    let total = 100 * h + 4 * attn + norms + dense + 3 * (8 * expert + expert + h * 8);
    let active = 100 * h + 4 * attn + norms + dense + 3 * (2 * expert + expert + h * 8);
    assert_eq!((r.params.total, r.params.active), (total, active));
    assert!(r.model.inferred);
    assert!(r.model.keys_used.iter().any(|k| k == "layer_types"));
}

#[test]
fn missing_essentials_are_all_named() {
    let cfg = json!({"model_type": "mystery_decoder", "num_attention_heads": 32, "intermediate_size": 14336,
        "vocab_size": 128256});
    let e = evaluate(&Scenario::new(ModelSpec::Config(cfg))).unwrap_err();
    let se = e.scenario_error();
    assert_eq!(se.field, "model.model_type");
    match &se.kind {
        ErrorKind::UnknownFamily { family, missing, .. } => {
            assert_eq!(family, "mystery_decoder");
            assert_eq!(missing, &strings(&["hidden_size", "num_hidden_layers"]));
        }
        other => panic!("{other:?}"),
    }
    let msg = e.to_string();
    assert!(msg.contains("hidden_size, num_hidden_layers") && msg.contains("'mystery_decoder'"), "{msg}");
    // An expert count without top-k names that too.
    let cfg = json!({"model_type": "m", "hidden_size": 64, "num_hidden_layers": 2, "num_attention_heads": 4,
        "intermediate_size": 128, "vocab_size": 10, "num_local_experts": 4});
    let e = evaluate(&Scenario::new(ModelSpec::Config(cfg))).unwrap_err();
    assert!(e.to_string().ends_with("needs num_experts_per_tok"), "{e}");
}

#[test]
fn the_cli_report_carries_the_inferred_fields() {
    let scenario = json!({"model": renamed("llama-3.1-8b"), "context_tokens": 4096});
    let (code, stdout, stderr) = common::estimate(&scenario.to_string());
    assert_eq!(code, 0, "{stderr}");
    let r: Value = serde_json::from_str(&stdout).unwrap();
    assert_eq!(r["model"]["inferred"], json!(true));
    assert_eq!(r["model"]["keys_used"][0], json!("attention_bias"));
    assert_eq!(r["model"]["keys_ignored"][0], json!("hidden_act"));
    assert_eq!(r["params"]["total"], json!(8_030_261_248u64));
    let scenario = json!({"model": "llama-3.1-8b"});
    let (_, stdout, _) = common::estimate(&scenario.to_string());
    let r: Value = serde_json::from_str(&stdout).unwrap();
    assert_eq!(r["model"]["inferred"], json!(false));
    assert_eq!(r["model"]["keys_used"], json!([]));
}
