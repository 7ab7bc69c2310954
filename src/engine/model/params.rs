//! Parameter counts computed from the architecture, module by module as the Hugging Face
//! modelling code builds them (`modeling_llama.py`, `modeling_gemma2.py`, `modeling_falcon.py`,
//! `modeling_gpt2.py`, `modeling_deepseek_v3.py`, ...).
//!
//! - Attention: q `h·H·d`, k and v `h·K·d` each (K = KV heads, GQA/MQA), o `H·d_v·h`,
//!   plus the biases each family has and per-head q/k norms (`d` each).
//! - MLA (DeepSeek): `q_a h·r_q + r_q` (norm) `+ q_b r_q·H·(d_nope+d_rope)`,
//!   `kv_a h·(r_kv+d_rope) + r_kv` (norm) `+ kv_b r_kv·H·(d_nope+d_v)`, o `H·d_v·h`.
//! - MLP: gated `3·h·I`, plain `2·h·I` (+ biases `2I+h` or `I+h`).
//! - MoE: `E` routed experts of `3·h·I_e`, router `h·E` (+ `E` correction biases in
//!   DeepSeek-V3), shared experts `3·h·I_s` (+ `h` gate in Qwen2-MoE). Active counts take
//!   `k` routed experts instead of `E`.
//! - Norms: `h` per RMSNorm, `2h` per LayerNorm, per layer and one final.
//! - Embeddings `V·h`, output head `V·h` unless tied, learned positions `P·h` (GPT-2).

use super::{Architecture, MlpKind, NormKind};
use crate::engine::num::usize_sat;
use serde::Serialize;

/// The parameters of one decoder layer, split by what they are.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct LayerParams {
    /// Attention weight matrices (sharded by tensor parallelism, quantised with the weights).
    pub attention_matrices: u128,
    /// Dense MLP or shared-expert matrices.
    pub mlp_matrices: u128,
    /// All routed experts' matrices.
    pub expert_matrices: u128,
    /// The routed experts one token uses (top-k).
    pub active_expert_matrices: u128,
    /// Router weights and biases, norms and biases: small, kept in 16 bits, replicated.
    pub small: u128,
    /// The part of `small` one token does not use: biases of the routed experts outside its
    /// top-k (gpt-oss).
    pub inactive_small: u128,
}

impl LayerParams {
    pub fn total(&self) -> u128 {
        self.attention_matrices + self.mlp_matrices + self.expert_matrices + self.small
    }
    /// Matrices that quantisation and tensor parallelism apply to.
    pub fn matrices(&self) -> u128 {
        self.attention_matrices + self.mlp_matrices + self.expert_matrices
    }
}

/// Parameter counts for the whole model.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct ParamCounts {
    /// Every parameter the checkpoint stores (a tied head counted once).
    pub total: u128,
    /// Parameters one token passes through (MoE: top-k routed experts only).
    pub active: u128,
    /// Token embedding matrix `V·h`.
    pub embedding: u128,
    /// Output head `V·h`, 0 when tied to the embedding.
    pub lm_head: u128,
    /// Learned position embeddings (GPT-2).
    pub positions: u128,
    /// Attention matrices in all layers.
    pub attention: u128,
    /// Dense MLP and shared-expert matrices in all layers.
    pub mlp: u128,
    /// Routed expert matrices in all layers.
    pub experts: u128,
    /// Norms, biases, routers.
    pub other: u128,
}

fn norm_size(a: &Architecture) -> u128 {
    let h = u128::from(a.hidden);
    match a.norm {
        NormKind::RmsNorm => h,
        NormKind::LayerNorm => 2 * h,
    }
}

/// Parameters of a feed-forward block of width `i` (matrices, biases).
fn mlp_params(a: &Architecture, i: u128) -> (u128, u128) {
    let h = u128::from(a.hidden);
    match a.mlp {
        MlpKind::Gated => (3 * h * i, if a.mlp_bias { 2 * i + h } else { 0 }),
        MlpKind::Plain => (2 * h * i, if a.mlp_bias { i + h } else { 0 }),
    }
}

/// Parameters of decoder layer `index`.
pub fn layer_params(a: &Architecture, index: usize) -> LayerParams {
    if let Some(h) = &a.hybrid {
        return super::hybrid::layer_params(a, h, index);
    }
    if let Some(g) = &a.gemma4 {
        return super::gemma4::layer_params(a, g, index);
    }
    let h = u128::from(a.hidden);
    let at = &a.attention;
    let (heads, kv, d, dv) =
        (u128::from(at.heads), u128::from(at.kv_heads), u128::from(at.head_dim), u128::from(at.v_head_dim));
    let mut p = LayerParams::default();

    // Attention.
    if let Some(m) = at.mla {
        let (r_kv, rope, nope, v) = (
            u128::from(m.kv_lora_rank),
            u128::from(m.qk_rope_head_dim),
            u128::from(m.qk_nope_head_dim),
            u128::from(m.v_head_dim),
        );
        let q = match m.q_lora_rank {
            Some(r_q) => {
                let r_q = u128::from(r_q);
                p.small += r_q; // q_a_layernorm
                if at.o_bias {
                    p.small += r_q; // q_a_proj bias (attention_bias)
                }
                h * r_q + r_q * heads * (nope + rope)
            }
            None => h * heads * (nope + rope),
        };
        let kv_a = h * (r_kv + rope);
        p.small += r_kv; // kv_a_layernorm
        if at.o_bias {
            p.small += (r_kv + rope) + h; // kv_a_proj and o_proj biases
        }
        let kv_b = r_kv * heads * (nope + v);
        p.attention_matrices = q + kv_a + kv_b + heads * v * h;
    } else {
        let q_out = heads * d;
        let kv_out = kv * d + kv * dv;
        p.attention_matrices = h * (q_out + kv_out) + heads * dv * h;
        if at.qkv_bias {
            p.small += q_out + kv_out;
        }
        if at.o_bias {
            p.small += h;
        }
        if at.qk_norm {
            p.small += if at.qk_norm_full_width { q_out + kv * d } else { 2 * d };
        }
    }

    // Feed-forward.
    if a.is_moe_layer(index) {
        if let Some(moe) = &a.moe {
            let e = u128::from(moe.routed_experts);
            let (one_expert, _) = mlp_params(a, u128::from(moe.expert_intermediate));
            p.expert_matrices = e * one_expert;
            p.active_expert_matrices = u128::from(moe.experts_per_token) * one_expert;
            p.small += h * e; // router
            if moe.router_bias {
                p.small += e;
            }
            if moe.shared_intermediate > 0 {
                let (shared, _) = mlp_params(a, u128::from(moe.shared_intermediate));
                p.mlp_matrices = shared;
                if moe.shared_expert_gate {
                    p.small += h;
                }
            }
        }
    } else {
        let (m, b) = mlp_params(a, u128::from(a.intermediate));
        p.mlp_matrices = m;
        p.small += b;
    }

    super::families::layer_extras(a, index, &mut p);
    p.small += u128::from(a.norms_per_layer) * norm_size(a);
    p
}

/// Parameters outside the decoder layers: (embedding, lm_head, positions, final norm).
pub fn outer_params(a: &Architecture) -> (u128, u128, u128, u128) {
    let h = u128::from(a.hidden);
    let embedding = u128::from(a.vocab) * h;
    let lm_head = if a.tied_embeddings { 0 } else { embedding };
    let positions = u128::from(a.learned_positions) * h;
    // Gemma 4: the per-layer embedding table is gathered like positions (gemma4.rs).
    let (lookup, projection_norm) = super::gemma4::outer_extras(a);
    (embedding, lm_head, positions + lookup, norm_size(a) + projection_norm)
}

/// Counts all parameters of the model.
pub fn count_params(a: &Architecture) -> ParamCounts {
    let (embedding, lm_head, positions, final_norm) = outer_params(a);
    let mut c = ParamCounts { embedding, lm_head, positions, other: final_norm, ..Default::default() };
    let mut active_experts = 0u128;
    let mut inactive_small = 0u128;
    for i in 0..usize_sat(a.layers) {
        let l = layer_params(a, i);
        c.attention += l.attention_matrices;
        c.mlp += l.mlp_matrices;
        c.experts += l.expert_matrices;
        c.other += l.small;
        active_experts += l.active_expert_matrices;
        inactive_small += l.inactive_small;
    }
    c.total = c.embedding + c.lm_head + c.positions + c.attention + c.mlp + c.experts + c.other;
    c.active = c.total - c.experts + active_experts;
    c.active = c.active.saturating_sub(inactive_small);
    c
}

/// Parameters by how quantisation treats them: routed-expert matrices (what gpt-oss ships in
/// MXFP4), the other matrices (attention, dense MLP and shared experts, embedding, output
/// head), and the small vectors (norms, biases, routers, sinks) kept in 16 bits.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ParamClasses {
    pub routed_experts: u128,
    pub other_matrices: u128,
    pub small: u128,
}

/// [`ParamClasses`] of the whole model; the three add up to `count_params(a).total`.
pub fn by_class(a: &Architecture) -> ParamClasses {
    let c = count_params(a);
    ParamClasses {
        routed_experts: c.experts,
        other_matrices: c.embedding + c.lm_head + c.positions + c.attention + c.mlp,
        small: c.other,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::model::config::parse_config;
    use serde_json::json;

    #[test]
    fn llama_2_7b_has_6_738_415_616_parameters() {
        let a = parse_config(&json!({"model_type": "llama", "hidden_size": 4096, "intermediate_size": 11008,
            "num_hidden_layers": 32, "num_attention_heads": 32, "vocab_size": 32000}))
        .unwrap();
        let c = count_params(&a);
        // per layer 4·4096² + 3·4096·11008 + 2·4096 = 202,383,360; ×32 + 2·32000·4096 + 4096
        assert_eq!(layer_params(&a, 0).total(), 202_383_360);
        assert_eq!(c.total, 6_738_415_616);
        assert_eq!(c.active, c.total);
    }

    #[test]
    fn gpt2_counts_biases_layernorms_and_positions_with_tied_head() {
        let a = parse_config(&json!({"model_type": "gpt2", "n_embd": 768, "n_layer": 12, "n_head": 12,
            "n_positions": 1024, "vocab_size": 50257}))
        .unwrap();
        assert_eq!(layer_params(&a, 0).total(), 7_087_872);
        assert_eq!(count_params(&a).total, 124_439_808);
    }

    #[test]
    fn mixtral_active_uses_two_of_eight_experts_plus_router() {
        let a =
            parse_config(&json!({"model_type": "mixtral", "hidden_size": 4096, "intermediate_size": 14336,
            "num_hidden_layers": 32, "num_attention_heads": 32, "num_key_value_heads": 8,
            "num_local_experts": 8, "num_experts_per_tok": 2, "vocab_size": 32000}))
            .unwrap();
        let c = count_params(&a);
        assert_eq!(c.total, 46_702_792_704);
        assert_eq!(c.active, 12_879_925_248);
    }
}
