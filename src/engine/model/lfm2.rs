//! LFM2 (`lfm2`), module by module as huggingface/transformers builds it
//! (`src/transformers/models/lfm2/modeling_lfm2.py`, `configuration_lfm2.py`):
//!
//! - `layer_types` names each layer `"conv"` or `"full_attention"`; without it the layers in
//!   `full_attn_idxs` are attention (default: all of them) and the rest convolution.
//! - A convolution layer (`Lfm2ShortConv`) has `in_proj` `h·3h` (B, C and x), a depthwise
//!   `conv` of `conv_L_cache` taps (default 3) over `h` channels and `out_proj` `h·h`, all
//!   three biased with `conv_bias` (default false). It keeps only the last `conv_L_cache − 1`
//!   inputs per sequence: vLLM's `short_conv_state_shape` is `(kernel − 1) × h/tp`.
//! - An attention layer (`Lfm2Attention`): bias-free q, k, v and `out_proj`, per-head q/k
//!   RMSNorms (`q_layernorm`, `k_layernorm`, `head_dim` each).
//! - Every layer: a gated MLP (`Lfm2MLP`: `w1`, `w3` `h·I`, `w2` `I·h`, no biases), an
//!   `operator_norm` and an `ffn_norm`; the model ends in `embedding_norm`. The head is tied
//!   unless `tie_embedding` / `tie_word_embeddings` says otherwise (default tied).
//! - MLP width: `I = block_ff_dim` (else `intermediate_size`); with `block_auto_adjust_ff_dim`
//!   (default true) `I = int(2·I/3)`, then, when `block_ffn_dim_multiplier` is not null
//!   (default 1.0), `I = int(multiplier·I)` rounded up to a multiple of `block_multiple_of`
//!   (default 256).
//! - LFM2-MoE (`lfm2_moe`, `modular_lfm2_moe.py`): the same layers, with a mixture of experts
//!   in place of the MLP after the first `num_dense_layers` (see [`apply`]).

use super::config::Fields;
use super::hybrid::{mixer_list, Ffn, Hybrid, Mixer, ShortConv};
use super::{Architecture, MlpKind, Moe, NormKind};
use crate::engine::error::{ErrorKind, Expected, ScenarioError};
use crate::engine::num::{u64_from_f64, usize_sat};
use serde_json::Value;

const MAX_KERNEL: u64 = 64;
const MAX_INTERMEDIATE: u64 = 1 << 22;
const MAX_EXPERTS: u64 = 1 << 16;

/// Fills in LFM2's layout on an architecture `config::build` read with the common rules.
pub(super) fn apply(f: &Fields, a: &mut Architecture) -> Result<(), ScenarioError> {
    let n = usize_sat(a.layers);
    const NAMES: [&str; 2] = ["conv", "full_attention"];
    let kinds = [Mixer::ShortConv, Mixer::Attention];
    let mixers = match mixer_list(f, "layer_types", n, &NAMES, &kinds)? {
        Some(m) => m,
        // `full_attn_idxs` (LiquidAI's key): those layers attend, the rest convolve; neither
        // key: every layer attends (Lfm2Config's default).
        None => match f.get("full_attn_idxs") {
            None => vec![Mixer::Attention; n],
            Some(Value::Array(idxs)) => {
                let attention: Vec<u64> = idxs.iter().filter_map(Value::as_u64).collect();
                (0..a.layers)
                    .map(|i| if attention.contains(&i) { Mixer::Attention } else { Mixer::ShortConv })
                    .collect()
            }
            Some(v) => {
                return Err(ScenarioError::new(
                    f.path("full_attn_idxs"),
                    ErrorKind::WrongType { expected: Expected::List, got: v.to_string() },
                ))
            }
        },
    };
    // Lfm2Config's default of 8 KV heads (the common reader falls back to multi-head).
    if !f.has("num_key_value_heads") {
        let kv = 8.min(a.attention.heads);
        if !a.attention.heads.is_multiple_of(kv) {
            return Err(ScenarioError::new(
                f.path("num_key_value_heads"),
                ErrorKind::MustDivide { what: "num_attention_heads", value: a.attention.heads, got: kv },
            ));
        }
        a.attention.kv_heads = kv;
    }
    // LFM2-MoE (`lfm2_moe`, modular_lfm2_moe.py): the first `num_dense_layers` (default 2) keep
    // a dense `Lfm2MoeMLP` of `intermediate_size` (default 7168, no adjustment); the others are a
    // sparse block of `num_experts` (32) gated experts of `moe_intermediate_size` (1792),
    // `num_experts_per_tok` (4) per token, a bias-free router `h·E` and, with `use_expert_bias`
    // (default true), an `expert_bias` buffer of `E` values. No shared expert.
    let moe = a.model_type.starts_with("lfm2_moe") || a.model_type.starts_with("Lfm2Moe");
    let mut ffn = vec![Ffn::Dense; n];
    if moe {
        a.intermediate = f.int(&["intermediate_size"], 1, MAX_INTERMEDIATE)?.unwrap_or(7168);
        let experts = f.int(&["num_experts"], 1, MAX_EXPERTS)?.unwrap_or(32);
        let dense = f.int(&["num_dense_layers"], 0, a.layers)?.unwrap_or(2);
        let layer_is_moe: Vec<bool> = (0..a.layers).map(|i| i >= dense).collect();
        ffn = layer_is_moe.iter().map(|m| if *m { Ffn::Moe } else { Ffn::Dense }).collect();
        a.moe = Some(Moe {
            routed_experts: experts,
            experts_per_token: f.int(&["num_experts_per_tok"], 1, experts)?.unwrap_or(4.min(experts)),
            expert_intermediate: f.int(&["moe_intermediate_size"], 1, MAX_INTERMEDIATE)?.unwrap_or(1792),
            shared_intermediate: 0,
            shared_expert_gate: false,
            router_bias: f.boolean(&["use_expert_bias"], true)?,
            layer_is_moe,
        });
    } else {
        a.intermediate = ff_dim(f, a.intermediate)?;
    }
    a.attention.qk_norm = true;
    a.attention.qkv_bias = false;
    a.attention.o_bias = false;
    a.mlp = MlpKind::Gated;
    a.mlp_bias = false;
    a.norm = NormKind::RmsNorm;
    a.norms_per_layer = 2;
    a.tied_embeddings = f.boolean(&["tie_embedding", "tie_word_embeddings"], true)?;
    a.hybrid = Some(Hybrid {
        mixers,
        ffn,
        short_conv: Some(ShortConv {
            channels: a.hidden,
            kernel: f.int(&["conv_L_cache"], 1, MAX_KERNEL)?.unwrap_or(3),
            bias: f.boolean(&["conv_bias"], false)?,
        }),
        ..Hybrid::default()
    });
    Ok(())
}

/// `Lfm2MLP`'s width from `block_ff_dim` (`ff`) and the adjustment keys.
fn ff_dim(f: &Fields, ff: u64) -> Result<u64, ScenarioError> {
    if !f.boolean(&["block_auto_adjust_ff_dim"], true)? {
        return Ok(ff);
    }
    let ff = 2 * ff / 3;
    // A null multiplier skips the scaling and the rounding, as `Lfm2MLP` does.
    if f.is_null("block_ffn_dim_multiplier") {
        return Ok(ff);
    }
    let m = match f.get("block_ffn_dim_multiplier") {
        None => 1.0,
        Some(Value::Number(m)) => {
            let m = m.as_f64().unwrap_or(f64::NAN);
            if !(m.is_finite() && m >= 0.0) {
                return Err(ScenarioError::new(
                    f.path("block_ffn_dim_multiplier"),
                    ErrorKind::Negative { got: m },
                ));
            }
            m
        }
        Some(v) => {
            return Err(ScenarioError::new(
                f.path("block_ffn_dim_multiplier"),
                ErrorKind::WrongType { expected: Expected::Number, got: v.to_string() },
            ))
        }
    };
    let multiple = f.int(&["block_multiple_of"], 1, MAX_INTERMEDIATE)?.unwrap_or(256);
    let ff = u64_from_f64(m * ff as f64);
    Ok(ff.div_ceil(multiple).saturating_mul(multiple))
}

#[cfg(test)]
mod tests {
    use crate::engine::model::config::parse_config;
    use crate::engine::model::hybrid::{layer_params, recurrent_state_bytes};
    use crate::engine::model::kv_cache::kv_cache_bytes_per_token;
    use crate::engine::precision::Dtype;
    use serde_json::json;

    fn tiny() -> serde_json::Value {
        json!({"model_type": "lfm2", "hidden_size": 64, "num_hidden_layers": 3, "num_attention_heads": 4,
            "num_key_value_heads": 2, "intermediate_size": 96, "block_auto_adjust_ff_dim": false,
            "vocab_size": 100, "layer_types": ["conv", "full_attention", "conv"]})
    }

    #[test]
    fn conv_and_attention_layers_count_their_own_modules() {
        let a = parse_config(&tiny()).unwrap();
        let h = a.hybrid.as_ref().unwrap();
        // conv: in_proj 64·192 + out_proj 64·64 + conv 64·3 = 16576; MLP 3·64·96 = 18432; norms 128
        assert_eq!(layer_params(&a, h, 0).total(), 16576 + 18432 + 128);
        // attention: q, out 64·64 each, k, v 64·32 each = 12288; q/k norms 2·16
        assert_eq!(layer_params(&a, h, 1).total(), 12288 + 32 + 18432 + 128);
        // Only the attention layer holds KV: 2 heads × (16 + 16) × 2 B.
        assert_eq!(kv_cache_bytes_per_token(&a, Dtype::Bf16, 128), 2 * 32 * 2);
        // Each conv layer keeps 64 channels × (3 − 1) inputs per sequence, in the model dtype.
        assert_eq!(recurrent_state_bytes(&a, 0..3, 1, 1, Dtype::Bf16), 2 * 64 * 2 * 2);
        assert_eq!(recurrent_state_bytes(&a, 0..3, 1, 2, Dtype::Bf16), 2 * 32 * 2 * 2);
        assert!(a.tied_embeddings);
    }

    #[test]
    fn the_ff_dim_adjustment_follows_lfm2_mlp() {
        // 12288 → int(2·12288/3) = 8192 → ×1.0 → multiple of 256: 8192 (LFM2-1.2B).
        let mut cfg = tiny();
        cfg["block_auto_adjust_ff_dim"] = json!(true);
        cfg["block_ff_dim"] = json!(12288);
        assert_eq!(parse_config(&cfg).unwrap().intermediate, 8192);
        // 100 → 66 → ×1.5 = 99 → multiple of 32: 128; a null multiplier skips both steps.
        cfg["block_ff_dim"] = json!(100);
        cfg["block_ffn_dim_multiplier"] = json!(1.5);
        cfg["block_multiple_of"] = json!(32);
        assert_eq!(parse_config(&cfg).unwrap().intermediate, 128);
        cfg["block_ffn_dim_multiplier"] = json!(null);
        assert_eq!(parse_config(&cfg).unwrap().intermediate, 66);
        cfg["block_ffn_dim_multiplier"] = json!("big");
        assert_eq!(parse_config(&cfg).unwrap_err().field, "model.block_ffn_dim_multiplier");
    }

    #[test]
    fn lfm2_moe_keeps_dense_first_layers_and_routes_the_rest() {
        let mut cfg = tiny();
        cfg["model_type"] = json!("lfm2_moe");
        cfg["num_dense_layers"] = json!(1);
        cfg["num_experts"] = json!(4);
        cfg["num_experts_per_tok"] = json!(2);
        cfg["moe_intermediate_size"] = json!(16);
        let a = parse_config(&cfg).unwrap();
        let h = a.hybrid.as_ref().unwrap();
        // Layer 0 (conv) dense as in `conv_and_attention_layers_count_their_own_modules`; layer 2
        // (conv) MoE: 4 experts × 3·64·16 = 12288, router 64·4 = 256, expert_bias 4.
        assert_eq!(layer_params(&a, h, 0).total(), 16576 + 18432 + 128);
        assert_eq!(layer_params(&a, h, 2).total(), 16576 + 12288 + 256 + 4 + 128);
        let m = a.moe.as_ref().unwrap();
        assert_eq!((m.layer_is_moe.clone(), m.experts_per_token), (vec![false, true, true], 2));
    }

    #[test]
    fn layer_lists_are_checked() {
        let mut cfg = tiny();
        cfg["layer_types"] = json!(["conv", "mamba", "conv"]);
        assert_eq!(parse_config(&cfg).unwrap_err().field, "model.layer_types");
        cfg["layer_types"] = json!(["conv"]);
        assert_eq!(parse_config(&cfg).unwrap_err().field, "model.layer_types");
        // full_attn_idxs instead of layer_types.
        let mut cfg = tiny();
        cfg.as_object_mut().unwrap().remove("layer_types");
        cfg["full_attn_idxs"] = json!([2]);
        let a = parse_config(&cfg).unwrap();
        assert!(a.is_attention_layer(2) && !a.is_attention_layer(0));
    }
}
