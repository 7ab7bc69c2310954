//! gpt-oss, Llama 4, GLM-4.5, MiniMax-M2 and Kimi K2: exact parameter counts derived by hand
//! below from each config's shapes (following the transformers modelling code, see
//! `src/engine/model/families.rs`), checked against the engine and against the rounded figures
//! the model makers publish; KV bytes of sliding and chunked layers derived by hand.

use gpu_primer::catalog::evaluate;
use gpu_primer::catalog::models::find;
use gpu_primer::engine::model::kv_cache::{kv_cache_bytes, kv_cache_bytes_per_token};
use gpu_primer::engine::model::params::{by_class, count_params};
use gpu_primer::engine::precision::Dtype;
use gpu_primer::engine::{ModelSpec, Scenario};

fn counts(id: &str) -> (u128, u128) {
    let r = evaluate(&Scenario::new(ModelSpec::Id(id.into()))).unwrap_or_else(|e| panic!("{id}: {e}"));
    (r.params.total.into(), r.params.active.into())
}

/// `x` in billions, rounded to two decimals as the model card prints it.
fn hundredths(x: u128) -> f64 {
    (x as f64 / 1e7).round() / 100.0
}

/// `x` within `pct` percent of `published`.
fn near(x: u128, published: f64, pct: f64) -> bool {
    ((x as f64 - published) / published).abs() * 100.0 <= pct
}

/// gpt-oss (h 2880, 64 q heads and 8 KV heads of 64, expert width 2880, vocab 201,088, untied).
/// Per layer: q and o 2·2880·4096, k and v 2·2880·512 → 26,542,080; q/k/v/o biases
/// 4096 + 512 + 512 + 2880 = 8,000; sinks 64; one expert 2880·5760 + 5760 + 2880·2880 + 2880
/// = 24,891,840; router 2880·E + E; two RMSNorms 5,760.
fn gpt_oss(layers: u128, experts: u128) -> (u128, u128) {
    let fixed = 26_542_080 + 8_000 + 64 + 5_760 + 2_880 * experts + experts;
    let outer = 2 * 201_088 * 2_880 + 2_880;
    (layers * (fixed + experts * 24_891_840) + outer, layers * (fixed + 4 * 24_891_840) + outer)
}

#[test]
fn gpt_oss_counts_match_openai_model_card() {
    let embedding = 201_088 * 2_880u128;
    let (t, a) = gpt_oss(36, 128);
    assert_eq!((t, a), (116_829_156_672, 5_711_982_912));
    assert_eq!(counts("gpt-oss-120b"), (t, a));
    // Model card (arXiv 2508.10925, table 1): 116.83B total, 5.13B active without the input embedding.
    assert_eq!((hundredths(t), hundredths(a - embedding)), (116.83, 5.13));
    let (t, a) = gpt_oss(24, 32);
    assert_eq!((t, a), (20_914_757_184, 4_187_440_704));
    assert_eq!(counts("gpt-oss-20b"), (t, a));
    assert_eq!((hundredths(t), hundredths(a - embedding)), (20.91, 3.61));
}

#[test]
fn gpt_oss_params_by_class_split_off_the_expert_matrices() {
    let a = &find("gpt-oss-120b").unwrap().architecture;
    let c = by_class(a);
    // 36 layers × 128 experts × (2880·5760 + 2880·2880) matrices; the biases are small.
    assert_eq!(c.routed_experts, 36 * 128 * 24_883_200);
    assert_eq!(c.routed_experts + c.other_matrices + c.small, count_params(a).total);
    // small: per layer biases 8,000 + sinks 64 + norms 5,760 + router 368,768 + expert biases 128·8,640
    assert_eq!(c.small, 36 * (8_000 + 64 + 5_760 + 368_768 + 128 * 8_640) + 2_880);
}

#[test]
fn gpt_oss_sliding_layers_hold_128_tokens() {
    let a = &find("gpt-oss-120b").unwrap().architecture;
    // K and V: 2 · 8 heads · 64 · 2 bytes = 2,048 B per token and layer, 36 layers.
    assert_eq!(kv_cache_bytes_per_token(a, Dtype::Bf16, 128), 36 * 2_048);
    // 32,768 tokens: 18 full layers hold all of them, 18 sliding layers 128 (16-token blocks).
    let held = kv_cache_bytes(a, 0..36, 32_768, 1, 16, 1, Dtype::Bf16, 128);
    assert_eq!(held, 2_048 * (18 * 32_768 + 18 * 128));
    assert_eq!(held, 1_212_678_144);
}

/// Llama 4 (h 5120, 40 q and 8 KV heads of 128, experts and shared expert of width 8192, dense
/// MLP 16384, vocab 202,048, untied). Attention 2·5120² + 2·5120·1024 = 62,914,560; one expert
/// or the shared one 3·5120·8192 = 125,829,120; router 5120·E (no bias); norms 10,240; the
/// q/k L2 norm has no weights. A dense layer: attention + 3·5120·16384 + norms = 314,583,040.
fn llama4(experts: u128, moe_layers: u128) -> (u128, u128) {
    let outer = 2 * 202_048 * 5_120 + 5_120;
    let dense = (48 - moe_layers) * 314_583_040;
    let base = 62_914_560 + 125_829_120 + 5_120 * experts + 10_240;
    (
        moe_layers * (base + experts * 125_829_120) + dense + outer,
        moe_layers * (base + 125_829_120) + dense + outer,
    )
}

#[test]
fn llama_4_text_counts_match_meta_figures() {
    let (t, a) = llama4(16, 48);
    assert_eq!((t, a), (107_769_861_120, 17_172_894_720));
    assert_eq!(counts("llama-4-scout"), (t, a));
    // Meta's 109B includes the vision encoder: the whole checkpoint's trainable total printed
    // from the model is 109,676,279,296, i.e. 1,906,418,176 outside the text model.
    assert_eq!(109_676_279_296 - t, 1_906_418_176);
    assert!(near(a, 17e9, 1.1));
    let (t, a) = llama4(128, 24);
    assert_eq!((t, a), (400_711_848_960, 17_184_691_200));
    assert_eq!(counts("llama-4-maverick"), (t, a));
    assert!(near(t, 400e9, 0.2) && near(a, 17e9, 1.1));
}

#[test]
fn llama_4_chunked_layers_hold_one_chunk() {
    let a = &find("llama-4-scout").unwrap().architecture;
    // Every 4th layer (no RoPE) is global; the other 36 attend within 8,192-token chunks.
    assert_eq!(a.layer_is_sliding.iter().filter(|c| !**c).count(), 12);
    assert!(a.extras.chunked_attention);
    // 2 · 8 · 128 · 2 = 4,096 B per token and layer; at 131,072 tokens:
    let held = kv_cache_bytes(a, 0..48, 131_072, 1, 16, 1, Dtype::Bf16, 128);
    assert_eq!(held, 4_096 * (36 * 8_192 + 12 * 131_072));
    assert_eq!(held, 7_650_410_496);
}

/// GLM-4.5 MoE: h, dense width, expert width, experts E, dense first layers, q/k norm.
/// 96 q and 8 KV heads of 128; q/k/v biases (12,288 + 2,048), no o bias; q/k norms 2·128;
/// router h·E + E (e_score_correction_bias); one shared expert; top-8; vocab 151,552.
fn glm(
    h: u128,
    dense_i: u128,
    moe_i: u128,
    e: u128,
    first_dense: u128,
    layers: u128,
    qk: u128,
) -> (u128, u128) {
    let attn = h * 12_288 * 2 + h * 1_024 * 2 + 14_336 + qk;
    let expert = 3 * h * moe_i;
    let dense = attn + 3 * h * dense_i + 2 * h;
    let moe_fixed = attn + expert + h * e + e + 2 * h;
    let outer = 2 * 151_552 * h + h;
    let moe = layers - first_dense;
    (
        first_dense * dense + moe * (moe_fixed + e * expert) + outer,
        first_dense * dense + moe * (moe_fixed + 8 * expert) + outer,
    )
}

#[test]
fn glm_4_5_counts_main_model_without_mtp() {
    let (t, a) = glm(5_120, 12_288, 1_536, 160, 3, 92, 256);
    assert_eq!((t, a), (352_797_829_024, 33_632_266_144));
    assert_eq!(counts("glm-4.5"), (t, a));
    // Z.ai: 355B total, 32B active (the MTP layer not counted here; active without the input embedding).
    assert!(near(t, 355e9, 0.7) && near(a - 151_552 * 5_120, 32e9, 3.0));
    let (t, a) = glm(4_096, 10_944, 1_408, 128, 1, 46, 0);
    assert_eq!((t, a), (106_852_251_264, 13_424_129_664));
    assert_eq!(counts("glm-4.5-air"), (t, a));
    assert!(near(t, 106e9, 0.9) && near(a - 151_552 * 4_096, 12e9, 7.0));
    assert_eq!(find("glm-4.5").unwrap().architecture.extras.mtp_layers, 1);
}

#[test]
fn minimax_m2_counts_with_full_width_qk_norms() {
    // h 3072, 48 q and 8 KV heads of 128: attention 2·3072·6144 + 2·3072·1024 = 44,040,192,
    // q/k norms over all heads 6,144 + 1,024; expert 3·3072·1536 = 14,155,776 × 256;
    // router 3072·256 + 256 bias; norms 6,144; vocab 200,064 untied.
    let fixed = 44_040_192u128 + 7_168 + 786_688 + 6_144;
    let outer = 2 * 200_064 * 3_072 + 3_072;
    let (t, a) = (62 * (fixed + 256 * 14_155_776) + outer, 62 * (fixed + 8 * 14_155_776) + outer);
    assert_eq!(counts("minimax-m2"), (t, a));
    // MiniMax: 230B total, 10B active (without the input embedding).
    assert!(near(t, 230e9, 0.6) && near(a - 200_064 * 3_072, 10e9, 5.0));
}

#[test]
fn kimi_k2_is_deepseek_v3_with_384_experts_and_64_heads() {
    let a = &find("kimi-k2").unwrap().architecture;
    assert_eq!(a.family, gpu_primer::engine::model::Family::DeepseekV3);
    // MLA with 64 heads: q_a 7168·1536 + 1536 norm, q_b 1536·64·192, kv_a 7168·576 + 512 norm,
    // kv_b 512·64·256, o 64·128·7168.
    let attn =
        7_168 * 1_536 + 1_536 + 1_536 * 64 * 192 + 7_168 * 576 + 512 + 512 * 64 * 256 + 64 * 128 * 7_168;
    let expert = 3 * 7_168 * 2_048u128;
    let norms = 2 * 7_168;
    let dense = attn + 3 * 7_168 * 18_432 + norms;
    let moe_fixed = attn + expert + 7_168 * 384 + 384 + norms;
    let outer = 2 * 163_840 * 7_168 + 7_168;
    let t = dense + 60 * (moe_fixed + 384 * expert) + outer;
    let act = dense + 60 * (moe_fixed + 8 * expert) + outer;
    assert_eq!(counts("kimi-k2"), (t, act));
    // Moonshot: about 1T total (1.04T in its report), 32B active.
    assert!(near(t, 1.04e12, 1.5) && near(act, 32.6e9, 1.0));
    // Why 1.026T and not 1.04T. The released config (moonshotai/Kimi-K2-Instruct) has 61
    // layers, one dense (first_k_dense_replace 1) and num_nextn_predict_layers 0: unlike
    // DeepSeek-V3 (whose 671B likewise leaves out its 14B MTP layer) the checkpoint ships no
    // multi-token-prediction layer, so there is nothing more to load. The FP8 checkpoint's
    // block scales (weight_scale_inv, one F32 per 128×128 block of every quantised matrix: q_a
    // 12·56, q_b 96·12, kv_a 5·56, kv_b 128·4, o 56·64 per layer; the dense MLP 3·144·56; 385
    // experts × 3·16·56 per MoE layer) add 62.5M values, 0.006%: the safetensors listing holds
    // t + scales. The report's 1.04T is 8.6B to 18.6B more than the modules the model runs with
    // (1.035T to 1.045T rounds to it); one more MoE layer would be 17.06B. The engine counts
    // what is loaded, and the catalog entry says so.
    let scales =
        61 * (12 * 56 + 96 * 12 + 5 * 56 + 128 * 4 + 56 * 64) + 3 * 144 * 56 + 60 * 385 * 3 * 16 * 56;
    assert_eq!(scales, 62_495_192u128);
    assert_eq!(hundredths(t + scales), 1026.47);
    let one_more_moe_layer = moe_fixed + 384 * expert;
    assert_eq!(hundredths(one_more_moe_layer), 17.06);
    assert!((t as f64) < 1.035e12 && ((t + one_more_moe_layer) as f64) > 1.035e12);
    // MLA cache: (512 + 64) · 2 bytes · 61 layers.
    assert_eq!(kv_cache_bytes_per_token(a, Dtype::Bf16, 128), 576 * 2 * 61);
}

#[test]
fn a_multimodal_llama4_config_nests_its_text_model() {
    use serde_json::json;
    let cfg = json!({"model_type": "llama4", "architectures": ["Llama4ForConditionalGeneration"],
        "text_config": {"model_type": "llama4_text", "hidden_size": 64, "intermediate_size": 32,
        "intermediate_size_mlp": 128, "num_hidden_layers": 4, "num_attention_heads": 4, "num_key_value_heads": 2,
        "head_dim": 16, "vocab_size": 10, "num_local_experts": 4, "num_experts_per_tok": 1,
        "interleave_moe_layer_step": 2}, "vision_config": {"hidden_size": 8}});
    let r = evaluate(&Scenario::new(ModelSpec::Config(cfg))).unwrap();
    // attention 2·64·64 + 2·64·32 = 12,288; norms 128; dense layer MLP 3·64·128 = 24,576;
    // MoE layer: 4 experts + shared of 3·64·32 = 6,144, router 256.
    let dense = 12_288 + 24_576 + 128;
    let moe = 12_288 + 5 * 6_144 + 256 + 128;
    let outer = 2 * 640 + 64;
    assert_eq!(u128::from(r.params.total), 2 * dense + 2 * moe + outer);
    assert_eq!(u128::from(r.params.active), 2 * dense + 2 * (moe - 3 * 6_144) + outer);
}
