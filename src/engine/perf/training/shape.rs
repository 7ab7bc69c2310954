//! What a training step needs of a model: the GEMMs of an average decoder layer (their input and
//! output widths, which layers have them), the element-wise widths, the attention width, the
//! output layer and the parameter counts the collectives and the optimizer move.
//!
//! The GEMM FLOPs follow the parameter count (`2·P_active` per token forward, Kaplan et al. 2020
//! §2.1, as the inference phases): the widths below only say how those FLOPs split into GEMMs of
//! which shapes (for wave quantisation, grouped experts and op-level recomputation), so families
//! whose layers the widths describe loosely (MLA, hybrid layers) keep their exact FLOPs.

use crate::engine::memory::Inputs;
use crate::engine::model::params::ParamCounts;
use crate::engine::model::{Architecture, MlpKind};
use crate::engine::perf::phases::ModelShape;

/// Where a GEMM sits in tensor parallelism (Megatron's column- and row-parallel linears).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Split {
    /// The output is split (QKV, gate/up): `N = out/tp`.
    Column,
    /// The input is split (attention output, down): `K = in/tp`.
    Row,
}

/// One GEMM of a layer: `tokens × input` by `input × output`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Gemm {
    pub input: f64,
    pub output: f64,
    pub split: Split,
    /// Copies of each token it multiplies (top-k for routed experts, 1 otherwise).
    pub per_token: f64,
    /// The share of layers that have it (MoE layers' share for experts).
    pub layers_share: f64,
    /// Routed experts: the experts and their intermediate size (a grouped GEMM).
    pub experts: Option<(f64, f64)>,
    /// The share of its forward FLOPs that torchtitan's op-level policy recomputes (the
    /// even-numbered matmuls of a block: wk, wo, w3; a plain MLP's second).
    pub op_recomputed: f64,
}

impl Gemm {
    /// Forward FLOPs per token, all GPUs of a TP group together (before the FLOP scale).
    pub fn flops_per_token(&self) -> f64 {
        2.0 * self.input * self.output * self.per_token * self.layers_share
    }
}

/// The model as the training step sees it.
#[derive(Clone, Debug, PartialEq)]
pub struct TrainingShape {
    pub layers: f64,
    pub hidden: f64,
    /// Query, key and value widths (`H·d`, `K·d`, `K·d_v`).
    pub q: f64,
    pub k: f64,
    pub v: f64,
    /// The GEMMs of an average layer (at most eight: attention, MLP or experts and shared ones).
    pub gemms: Vec<Gemm>,
    /// Scale from the widths' FLOPs to the parameter count's (1 for the families the widths
    /// describe exactly).
    pub flop_scale: f64,
    pub norms: f64,
    pub rotary: bool,
    /// Feed-forward width of a dense layer and of an MoE layer (top-k × expert + shared).
    pub ffn_dense: f64,
    pub ffn_moe: f64,
    pub gated: bool,
    /// MoE layers' share of the layers, experts, top-k.
    pub moe_share: f64,
    pub experts: f64,
    pub top_k: f64,
    /// Group-limited routing `(n_group, topk_group)` (zeros without): the most nodes a token's
    /// experts span under DeepEP's forwarding.
    pub routing_groups: (f64, f64),
    pub vocab: f64,
    /// Attention width of the score FLOPs (sliding windows and hybrid layers counted).
    pub attention_width: f64,
    /// Output layer parameters (the tied embedding when tied).
    pub head_params: f64,
    /// Parameters of all decoder layers, of their routed experts, and outside the layers.
    pub layer_params: f64,
    pub expert_params: f64,
    pub outer_params: f64,
    /// Parameters multiplied per token (the output layer, not the input embedding) and all.
    pub multiplied_params: f64,
    pub all_params: f64,
    pub activation_bytes: f64,
    /// Bytes per matrix weight in the model's weight format.
    pub weight_bytes: f64,
}

/// The training shape of `a` (see the module doc).
pub fn training_shape(a: &Architecture, counts: &ParamCounts, x: &Inputs, m: &ModelShape) -> TrainingShape {
    let at = &a.attention;
    let h = a.hidden as f64;
    let (q, k, v) = (
        (at.heads * at.head_dim) as f64,
        (at.kv_heads * at.head_dim) as f64,
        (at.kv_heads * at.v_head_dim) as f64,
    );
    let o = (at.heads * at.v_head_dim) as f64;
    let gated = a.mlp == MlpKind::Gated;
    let up = |f: f64| if gated { 2.0 * f } else { f };
    let layers = a.layers.max(1) as f64;
    let (moe_share, experts, top_k, f_e, f_s) = match &a.moe {
        Some(moe) => {
            let n = moe.layer_is_moe.iter().filter(|x| **x).count() as f64;
            let share = if moe.layer_is_moe.is_empty() { 1.0 } else { n / layers };
            (
                share,
                moe.routed_experts as f64,
                moe.experts_per_token.min(moe.routed_experts) as f64,
                moe.expert_intermediate as f64,
                moe.shared_intermediate as f64,
            )
        }
        None => (0.0, 0.0, 0.0, 0.0, 0.0),
    };
    let f = a.intermediate as f64;
    let dense = 1.0 - moe_share;
    // Call order of a block: q, k, v, o, then gate, up, down (or fc1, fc2): torchtitan's op
    // policy recomputes the 2nd, 4th and 6th: k (its share of the fused QKV), o, and up (half
    // of the fused gate/up) or a plain MLP's fc2.
    let (up_recomputed, down_recomputed) = if gated { (0.5, 0.0) } else { (0.0, 1.0) };
    let gemm = |input, output, split, per_token, layers_share, experts, op_recomputed| Gemm {
        input,
        output,
        split,
        per_token,
        layers_share,
        experts,
        op_recomputed,
    };
    let mut gemms = vec![
        gemm(h, q + k + v, Split::Column, 1.0, 1.0, None, k / (q + k + v).max(1.0)),
        gemm(o, h, Split::Row, 1.0, 1.0, None, 1.0),
    ];
    if dense > 0.0 && f > 0.0 {
        gemms.push(gemm(h, up(f), Split::Column, 1.0, dense, None, up_recomputed));
        gemms.push(gemm(f, h, Split::Row, 1.0, dense, None, down_recomputed));
    }
    if moe_share > 0.0 && f_e > 0.0 {
        gemms.push(gemm(h, up(f_e), Split::Column, top_k, moe_share, Some((experts, f_e)), up_recomputed));
        gemms.push(gemm(f_e, h, Split::Row, top_k, moe_share, Some((experts, f_e)), down_recomputed));
    }
    if moe_share > 0.0 && f_s > 0.0 {
        gemms.push(gemm(h, up(f_s), Split::Column, 1.0, moe_share, None, up_recomputed));
        gemms.push(gemm(f_s, h, Split::Row, 1.0, moe_share, None, down_recomputed));
    }
    let head = if a.tied_embeddings { counts.embedding } else { counts.lm_head } as f64;
    let linear = (m.params_active - head).max(0.0);
    let widths: f64 = gemms.iter().map(Gemm::flops_per_token).sum::<f64>() * layers;
    let flop_scale = if widths > 0.0 { 2.0 * linear / widths } else { 1.0 };
    // The decoder layers' parameters from the counts (their small tensors with the final norm).
    let layer_total = (counts.attention + counts.mlp + counts.experts + counts.other) as f64;
    let expert_total = counts.experts as f64;
    TrainingShape {
        layers,
        hidden: h,
        q,
        k,
        v,
        gemms,
        flop_scale: if flop_scale.is_finite() && flop_scale > 0.0 { flop_scale } else { 1.0 },
        norms: a.norms_per_layer as f64,
        rotary: a.learned_positions == 0,
        ffn_dense: f,
        ffn_moe: top_k * f_e + f_s,
        gated,
        moe_share,
        experts,
        top_k,
        routing_groups: (a.extras.routing_groups as f64, a.extras.groups_per_token as f64),
        vocab: a.vocab as f64,
        attention_width: f64::from(m.attention_width),
        head_params: head,
        layer_params: layer_total,
        expert_params: expert_total,
        outer_params: (counts.total as f64 - layer_total).max(0.0),
        multiplied_params: m.params_active,
        all_params: counts.total as f64,
        activation_bytes: m.activation_bytes,
        weight_bytes: x.weight.bytes_for(1000, x.group) as f64 / 1000.0,
    }
}

impl TrainingShape {
    /// Forward FLOPs per token of all decoder layers' linear layers: `2·(P_active − P_head)`.
    pub fn layer_linear_flops_per_token(&self) -> f64 {
        self.gemms.iter().map(Gemm::flops_per_token).sum::<f64>() * self.layers * self.flop_scale
    }

    /// Attention forward FLOPs of one sequence of `seq` tokens, all layers, causal:
    /// `4·L·d_attn·s(s+1)/2` (as `ModelShape::attention_flops`).
    pub fn attention_flops_per_sequence(&self, seq: f64) -> f64 {
        4.0 * self.layers * self.attention_width * seq * (seq + 1.0) / 2.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::model::config::parse_config;
    use crate::engine::model::params::count_params;
    use crate::engine::scenario::{ModelSpec, Scenario};
    use serde_json::json;

    #[test]
    fn llama3_8b_gemms_carry_its_parameter_flops() {
        let a = parse_config(&json!({"model_type": "llama", "hidden_size": 4096, "intermediate_size": 14336,
            "num_hidden_layers": 32, "num_attention_heads": 32, "num_key_value_heads": 8,
            "vocab_size": 128256}))
        .unwrap();
        let counts = count_params(&a);
        let s = Scenario::new(ModelSpec::Id("x".into()));
        let x = Inputs::from_scenario(&s);
        let m = crate::engine::perf::performance::model_shape(&a, &counts, &x, 8192);
        let t = training_shape(&a, &counts, &x, &m);
        // 218.1M matrix parameters per layer (q 4096², k and v 4096·1024, o 4096², 3 × 4096·14336).
        assert_eq!(t.gemms.len(), 4);
        let widths: f64 = t.gemms.iter().map(Gemm::flops_per_token).sum();
        assert_eq!(widths, 2.0 * 218_103_808.0);
        // The parameter count adds only the norms: the scale is 1 within 1e-4.
        assert!((t.flop_scale - 1.0).abs() < 1e-4, "{}", t.flop_scale);
        assert_eq!(t.head_params, 525_336_576.0);
        // torchtitan's op policy recomputes k, o and up: 4.19M + 16.78M + 58.72M of 218.1M.
        let recomputed: f64 = t.gemms.iter().map(|g| g.flops_per_token() * g.op_recomputed).sum();
        assert!((recomputed / widths - 0.365).abs() < 0.001, "{}", recomputed / widths);
    }
}
