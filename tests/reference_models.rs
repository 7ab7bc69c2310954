//! Parameter counts and KV bytes per token against published figures.
//!
//! Configs are pasted as JSON exactly as the engine would receive them; expected values come
//! from `shared/reference/models.json` (official counts with their sources) and, for the
//! second group, from the models' Hugging Face safetensors metadata.

use gpu_primer::catalog::evaluate;
use gpu_primer::engine::{ModelSpec, Scenario};
use serde_json::{json, Value};

fn report(config: Value) -> gpu_primer::engine::Report {
    let s = Scenario::new(ModelSpec::Config(config));
    evaluate(&s).unwrap_or_else(|e| panic!("{e}"))
}

fn check(config: Value, total: u64, active: Option<u64>, kv_per_token: Option<u64>) {
    let r = report(config);
    assert_eq!(r.params.total, total, "total");
    if let Some(a) = active {
        assert_eq!(r.params.active, a, "active");
    }
    if let Some(kv) = kv_per_token {
        assert_eq!(r.kv_cache_bytes_per_token, kv, "kv per token");
    }
}

#[test]
fn llama_2_7b() {
    check(
        json!({"architectures": ["LlamaForCausalLM"], "model_type": "llama", "hidden_size": 4096,
        "intermediate_size": 11008, "num_hidden_layers": 32, "num_attention_heads": 32, "num_key_value_heads": 32,
        "vocab_size": 32000, "tie_word_embeddings": false, "rms_norm_eps": 1e-05}),
        6_738_415_616,
        None,
        Some(524_288),
    );
}

#[test]
fn llama_3_8b() {
    check(
        json!({"model_type": "llama", "hidden_size": 4096, "intermediate_size": 14336, "num_hidden_layers": 32,
        "num_attention_heads": 32, "num_key_value_heads": 8, "vocab_size": 128256, "rope_theta": 500000.0}),
        8_030_261_248,
        None,
        Some(131_072),
    );
}

#[test]
fn mixtral_8x7b_total_and_active() {
    check(
        json!({"model_type": "mixtral", "hidden_size": 4096, "intermediate_size": 14336, "num_hidden_layers": 32,
        "num_attention_heads": 32, "num_key_value_heads": 8, "num_local_experts": 8, "num_experts_per_tok": 2,
        "vocab_size": 32000, "sliding_window": null}),
        46_702_792_704,
        Some(12_879_925_248),
        Some(131_072),
    );
}

#[test]
fn qwen2_5_7b_with_qkv_bias() {
    check(
        json!({"model_type": "qwen2", "hidden_size": 3584, "intermediate_size": 18944, "num_hidden_layers": 28,
        "num_attention_heads": 28, "num_key_value_heads": 4, "vocab_size": 152064, "tie_word_embeddings": false,
        "sliding_window": 131072, "use_sliding_window": false, "max_window_layers": 28}),
        7_615_616_512,
        None,
        Some(57_344),
    );
}

#[test]
fn gemma_2_9b_four_norms_tied_head_dim_256() {
    check(
        json!({"model_type": "gemma2", "hidden_size": 3584, "intermediate_size": 14336, "num_hidden_layers": 42,
        "num_attention_heads": 16, "num_key_value_heads": 8, "head_dim": 256, "vocab_size": 256000,
        "sliding_window": 4096}),
        9_241_705_984,
        None,
        Some(344_064),
    );
}

#[test]
fn gpt2_own_field_names() {
    check(
        json!({"model_type": "gpt2", "n_embd": 768, "n_layer": 12, "n_head": 12, "n_positions": 1024,
        "n_ctx": 1024, "n_inner": null, "vocab_size": 50257}),
        124_439_808,
        None,
        Some(36_864),
    );
}

#[test]
fn falcon_7b_multi_query_with_stored_head() {
    check(
        json!({"model_type": "falcon", "hidden_size": 4544, "num_hidden_layers": 32, "num_attention_heads": 71,
        "vocab_size": 65024, "multi_query": true, "parallel_attn": true, "new_decoder_architecture": false,
        "bias": false}),
        7_217_189_760,
        None,
        Some(8_192),
    );
    // The same model with the head declared tied: 6,921,720,704 unique parameters.
    check(
        json!({"model_type": "falcon", "hidden_size": 4544, "num_hidden_layers": 32, "num_attention_heads": 71,
        "vocab_size": 65024, "multi_query": true, "parallel_attn": true, "tie_word_embeddings": true}),
        6_921_720_704,
        None,
        None,
    );
}

#[test]
fn deepseek_v3_mla_moe_shared_experts_dense_first_layers() {
    check(
        json!({"model_type": "deepseek_v3", "hidden_size": 7168, "intermediate_size": 18432,
        "num_hidden_layers": 61, "num_attention_heads": 128, "num_key_value_heads": 128, "vocab_size": 129280,
        "n_routed_experts": 256, "num_experts_per_tok": 8, "n_shared_experts": 1, "moe_intermediate_size": 2048,
        "first_k_dense_replace": 3, "kv_lora_rank": 512, "q_lora_rank": 1536, "qk_rope_head_dim": 64,
        "qk_nope_head_dim": 128, "v_head_dim": 128, "num_nextn_predict_layers": 1, "topk_method": "noaux_tc"}),
        671_026_419_200,
        Some(37_552_297_472),
        Some(70_272),
    );
}

/// Models outside the reference file, checked against their safetensors metadata counts.
#[test]
fn other_published_counts() {
    let cases = [
        (
            json!({"model_type": "llama", "hidden_size": 2048, "intermediate_size": 8192, "num_hidden_layers": 16,
            "num_attention_heads": 32, "num_key_value_heads": 8, "head_dim": 64, "vocab_size": 128256,
            "tie_word_embeddings": true}),
            1_235_814_400u64,
        ),
        (
            json!({"model_type": "llama", "hidden_size": 3072, "intermediate_size": 8192, "num_hidden_layers": 28,
            "num_attention_heads": 24, "num_key_value_heads": 8, "head_dim": 128, "vocab_size": 128256,
            "tie_word_embeddings": true}),
            3_212_749_824,
        ),
        (
            json!({"model_type": "qwen2", "hidden_size": 896, "intermediate_size": 4864, "num_hidden_layers": 24,
            "num_attention_heads": 14, "num_key_value_heads": 2, "vocab_size": 151936, "tie_word_embeddings": true}),
            494_032_768,
        ),
        (
            json!({"model_type": "gemma3_text", "hidden_size": 1152, "intermediate_size": 6912, "num_hidden_layers": 26,
            "num_attention_heads": 4, "num_key_value_heads": 1, "head_dim": 256, "vocab_size": 262144,
            "sliding_window": 512}),
            999_885_952,
        ),
        (
            json!({"model_type": "phi3", "hidden_size": 3072, "intermediate_size": 8192, "num_hidden_layers": 32,
            "num_attention_heads": 32, "num_key_value_heads": 32, "vocab_size": 32064, "sliding_window": 2047}),
            3_821_079_552,
        ),
        (
            json!({"model_type": "mistral", "hidden_size": 4096, "intermediate_size": 14336, "num_hidden_layers": 32,
            "num_attention_heads": 32, "num_key_value_heads": 8, "vocab_size": 32000, "sliding_window": 4096}),
            7_241_732_096,
        ),
        (
            json!({"model_type": "gpt2", "n_embd": 1600, "n_layer": 48, "n_head": 25, "vocab_size": 50257}),
            1_557_611_200,
        ),
        (
            json!({"model_type": "qwen3", "hidden_size": 1024, "intermediate_size": 3072, "num_hidden_layers": 28,
            "num_attention_heads": 16, "num_key_value_heads": 8, "head_dim": 128, "vocab_size": 151936,
            "tie_word_embeddings": true}),
            596_049_920,
        ),
    ];
    for (cfg, total) in cases {
        let t = cfg["model_type"].clone();
        assert_eq!(report(cfg).params.total, total, "{t}");
    }
}
