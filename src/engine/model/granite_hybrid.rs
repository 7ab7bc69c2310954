//! Granite 4.0 hybrid (`granitemoehybrid`), module by module as huggingface/transformers builds
//! it (`src/transformers/models/granitemoehybrid/modular_granitemoehybrid.py`,
//! `configuration_granitemoehybrid.py`, and the GraniteMoeShared / Bamba modules it reuses):
//!
//! - `layer_types` (alias `layers_block_type`) names each layer `"mamba"` or `"attention"`;
//!   without it every layer is Mamba.
//! - A Mamba layer is Bamba's Mamba-2 mixer: inner width `I = mamba_expand · h` (default 2),
//!   `mamba_n_heads` heads (default 128) of `mamba_d_head` (`"auto"`: `I / heads`),
//!   `mamba_n_groups` groups (default 1) of `mamba_d_state` (default 256); `in_proj`
//!   `h·(2I + 2·G·N + heads)` and `out_proj` `I·h`, both biased with `mamba_proj_bias`; a
//!   depthwise `conv1d` of `mamba_d_conv` taps (bias with `mamba_conv_bias`, default true);
//!   `dt_bias`, `A_log`, `D`; a gated RMSNorm of `I`.
//! - An attention layer: q, k, v, o, all biased with `attention_bias`; no rotary parameters
//!   (`position_embedding_type` "nope" or "rope" adds none).
//! - Every layer then has a `shared_mlp` (gated: `input_linear` `h·2S`, `output_linear` `S·h`,
//!   `S = shared_intermediate_size`, default 1024) and, when `num_local_experts > 0` (default
//!   8), a `block_sparse_moe`: `E` gated experts of `intermediate_size` (`input_linear`
//!   `E·2I·h`, `output_linear` `E·h·I`) and a bias-free router `h·E`, `num_experts_per_tok`
//!   (default 2) of them per token. Two RMSNorms per layer and a final norm; the head is tied
//!   only with `tie_word_embeddings` (default false).
//! - The multipliers (`embedding_multiplier`, `residual_multiplier`, `attention_multiplier`,
//!   `logits_scaling`) are scalars, not parameters.

use super::config::Fields;
use super::falcon_h1::mamba2;
use super::hybrid::{mixer_list, Ffn, Hybrid, Mixer};
use super::{Architecture, MlpKind, Moe, NormKind};
use crate::engine::error::ScenarioError;
use crate::engine::num::usize_sat;

const MAX_EXPERTS: u64 = 1 << 16;
const MAX_INTERMEDIATE: u64 = 1 << 22;

/// Fills in Granite 4.0's hybrid layout on an architecture `config::build` read.
pub(super) fn apply(f: &Fields, a: &mut Architecture) -> Result<(), ScenarioError> {
    let n = usize_sat(a.layers);
    const NAMES: [&str; 2] = ["mamba", "attention"];
    let kinds = [Mixer::Mamba2, Mixer::Attention];
    let mixers = match mixer_list(f, "layer_types", n, &NAMES, &kinds)? {
        Some(m) => m,
        None => {
            mixer_list(f, "layers_block_type", n, &NAMES, &kinds)?.unwrap_or_else(|| vec![Mixer::Mamba2; n])
        }
    };
    let inner = f.int(&["mamba_expand"], 1, 64)?.unwrap_or(2).saturating_mul(a.hidden);
    let mamba = mamba2(f, inner, "mamba_expand")?;
    let shared = f.int(&["shared_intermediate_size"], 1, MAX_INTERMEDIATE)?.unwrap_or(1024);
    let experts = f.int(&["num_local_experts"], 0, MAX_EXPERTS)?.unwrap_or(8);
    let ffn = if experts > 0 {
        a.moe = Some(Moe {
            routed_experts: experts,
            experts_per_token: f.int(&["num_experts_per_tok"], 1, experts)?.unwrap_or(2.min(experts)),
            expert_intermediate: a.intermediate,
            shared_intermediate: shared,
            shared_expert_gate: false,
            router_bias: false,
            layer_is_moe: vec![true; n],
        });
        vec![Ffn::Moe; n]
    } else {
        // Dense: the shared MLP is the layer's only feed-forward block.
        a.intermediate = shared;
        vec![Ffn::Dense; n]
    };
    a.mlp = MlpKind::Gated;
    a.mlp_bias = false;
    a.norm = NormKind::RmsNorm;
    a.norms_per_layer = 2;
    a.hybrid = Some(Hybrid { mixers, ffn, mamba: Some(mamba), ..Hybrid::default() });
    Ok(())
}

#[cfg(test)]
mod tests {
    use crate::engine::model::config::parse_config;
    use crate::engine::model::hybrid::{layer_params, recurrent_state_bytes};
    use crate::engine::model::params::count_params;
    use crate::engine::precision::Dtype;
    use serde_json::json;

    fn tiny() -> serde_json::Value {
        json!({"model_type": "granitemoehybrid", "hidden_size": 64, "num_hidden_layers": 2,
            "num_attention_heads": 4, "num_key_value_heads": 2, "intermediate_size": 32,
            "shared_intermediate_size": 48, "num_local_experts": 4, "num_experts_per_tok": 2,
            "vocab_size": 100, "tie_word_embeddings": true, "layer_types": ["mamba", "attention"],
            "mamba_n_heads": 8, "mamba_d_head": 16, "mamba_n_groups": 1, "mamba_d_state": 8,
            "mamba_d_conv": 4, "mamba_expand": 2})
    }

    #[test]
    fn mamba_and_attention_layers_each_carry_the_moe_and_the_shared_mlp() {
        let a = parse_config(&tiny()).unwrap();
        let h = a.hybrid.as_ref().unwrap();
        // Mamba: I = 128, conv = 128 + 16 = 144; in_proj 64·(128 + 144 + 8) = 17920, out 128·64 = 8192;
        //   conv1d 144·4 + 144 = 720; dt/A/D 24; gated norm 128
        // MoE: 4 experts × 3·64·32 = 24576, router 64·4 = 256; shared 3·64·48 = 9216; norms 128
        let ffn = 24576 + 256 + 9216 + 128;
        assert_eq!(layer_params(&a, h, 0).total(), 17920 + 8192 + 720 + 24 + 128 + ffn);
        // attention: q, o 64·64, k, v 64·32
        assert_eq!(layer_params(&a, h, 1).total(), 2 * 4096 + 2 * 2048 + ffn);
        // Active: 2 of 4 experts.
        let c = count_params(&a);
        assert_eq!(c.total - c.active, 2 * 2 * 3 * 64 * 32);
        // One Mamba layer's state: 144 × 3 conv + 8 × 16 × 8 SSM, bf16.
        assert_eq!(recurrent_state_bytes(&a, 0..2, 1, 1, Dtype::Bf16), (144 * 3 + 8 * 16 * 8) * 2);
    }

    #[test]
    fn zero_experts_leave_the_shared_mlp_alone_and_bad_layers_are_named() {
        let mut cfg = tiny();
        cfg["num_local_experts"] = json!(0);
        let a = parse_config(&cfg).unwrap();
        assert!(a.moe.is_none());
        assert_eq!(a.intermediate, 48);
        let mut cfg = tiny();
        cfg["layer_types"] = json!(["mamba", "mlp"]);
        assert_eq!(parse_config(&cfg).unwrap_err().field, "model.layer_types");
        let mut cfg = tiny();
        cfg["mamba_n_heads"] = json!(7);
        assert_eq!(parse_config(&cfg).unwrap_err().field, "model.mamba_n_heads");
    }
}
