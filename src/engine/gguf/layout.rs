//! A catalog model's tensors as llama.cpp's converter (`convert_hf_to_gguf.py`) writes them,
//! then typed by the quantizer's rules for a file type.
//!
//! Each decoder layer's matrices come from [`layer_params`] (the same counts the rest of the
//! engine uses, so the table's total is the model's parameter count), split into the tensors
//! llama.cpp names: `attn_q`, `attn_k`, `attn_v`, `attn_output` (or one fused `attn_qkv`; MLA's
//! `attn_q_a`, `attn_q_b`, `attn_kv_a_mqa`, `attn_kv_b`), `ffn_gate`, `ffn_up`, `ffn_down`
//! (`_shexp` for shared experts), the routed experts' 3-D `ffn_*_exps`; what a family adds
//! beyond these (Mamba and linear-attention projections) is one more matrix quantised with the
//! main type. Vectors (norms, biases), the MoE router and learned positions are 32-bit floats
//! (the converter writes 1-D tensors, `ffn_gate_inp` and `position_embd` in F32).

use super::mix::{assign_types, MixFacts};
use crate::engine::model::params::{layer_params, outer_params, LayerParams};
use crate::engine::model::tensors::{Role, Tensor, TensorTable};
use crate::engine::model::{Architecture, Family, MlpKind};
use crate::engine::precision::file_type::FileType;
use crate::engine::precision::ggml_type::GgmlType;

/// The model's tensors in file type `ft`.
pub fn table(a: &Architecture, ft: FileType) -> TensorTable {
    let mut tensors = converted(a);
    assign_types(ft, &facts(a), &mut tensors);
    TensorTable::new(tensors)
}

/// What the quantizer's rules read about `a`.
pub fn facts(a: &Architecture) -> MixFacts {
    let at = &a.attention;
    let llama_arch = matches!(a.family, Family::Llama | Family::Mistral | Family::Mixtral);
    let grouped = at.kv_heads > 0 && at.kv_heads < at.heads;
    MixFacts {
        layers: u32::try_from(a.layers).unwrap_or(u32::MAX),
        gqa: at.heads.checked_div(at.kv_heads).unwrap_or(1),
        experts: a.moe.as_ref().map_or(0, |m| m.routed_experts),
        falcon: a.family == Family::Falcon,
        seventy_b: a.layers == 80 && ((llama_arch && grouped) || a.family == Family::Qwen2),
        has_output: !a.tied_embeddings,
    }
}

/// The tensors as converted (16-bit matrices, 32-bit vectors), in the loader's order.
fn converted(a: &Architecture) -> Vec<Tensor> {
    let h = a.hidden;
    let (embedding, lm_head, positions, final_norm) = outer_params(a);
    let mut out = Vec::new();
    if lm_head > 0 {
        out.push(matrix(Role::Output, None, h, lm_head));
    }
    out.push(vector(None, final_norm + positions));
    out.push(matrix(Role::TokenEmbd, None, h, embedding));
    for i in 0..u32::try_from(a.layers).unwrap_or(u32::MAX) {
        layer(a, i, &mut out);
    }
    out.retain(|t| t.elements > 0);
    out
}

fn matrix(role: Role, layer: Option<u32>, row: u64, elements: u128) -> Tensor {
    Tensor { role, layer, row: row.max(1), elements, experts: false, ty: GgmlType::F16 }
}

fn vector(layer: Option<u32>, elements: u128) -> Tensor {
    Tensor { role: Role::Vector, layer, row: 1, elements, experts: false, ty: GgmlType::F32 }
}

/// One decoder layer's tensors.
fn layer(a: &Architecture, i: u32, out: &mut Vec<Tensor>) {
    let index = usize::try_from(i).unwrap_or(usize::MAX);
    let p = layer_params(a, index);
    let l = Some(i);
    let mut placed = attention(a, index, &p, l, out);
    placed += mlp(a, &p, l, out);
    placed += experts(a, &p, l, out);
    let rest = p.matrices().saturating_sub(placed);
    if rest > 0 {
        out.push(matrix(Role::Other, l, a.hidden, rest));
    }
    out.push(vector(l, p.small));
}

/// The attention matrices of a layer (0 placed when the layer's count is not the family's
/// usual shape: they then go out as one other matrix).
fn attention(a: &Architecture, index: usize, p: &LayerParams, l: Option<u32>, out: &mut Vec<Tensor>) -> u128 {
    let at = &a.attention;
    let h = u128::from(a.hidden);
    if !a.is_attention_layer(index) || p.attention_matrices == 0 {
        return 0;
    }
    if let Some(m) = at.mla {
        let heads = u128::from(at.heads);
        let qk = u128::from(m.qk_nope_head_dim + m.qk_rope_head_dim);
        let kv_a = h * u128::from(m.kv_lora_rank + m.qk_rope_head_dim);
        let kv_b = u128::from(m.kv_lora_rank) * heads * u128::from(m.qk_nope_head_dim + m.v_head_dim);
        let o = heads * u128::from(m.v_head_dim) * h;
        let mut parts = vec![
            matrix(Role::Other, l, a.hidden, kv_a),
            matrix(Role::AttnKvB, l, m.kv_lora_rank, kv_b),
            matrix(Role::AttnOutput, l, at.heads * m.v_head_dim, o),
        ];
        match m.q_lora_rank {
            Some(r) => {
                parts.push(matrix(Role::Other, l, a.hidden, h * u128::from(r)));
                parts.push(matrix(Role::Other, l, r, u128::from(r) * heads * qk));
            }
            None => parts.push(matrix(Role::AttnQ, l, a.hidden, h * heads * qk)),
        }
        return place_if_whole(parts, p.attention_matrices, out);
    }
    let (heads, kv) = (u128::from(at.heads), u128::from(at.kv_heads));
    let (d, dv) = (u128::from(at.head_dim), u128::from(at.v_head_dim));
    let (q, k, v, o) = (h * heads * d, h * kv * d, h * kv * dv, heads * dv * h);
    let o_row = at.heads * at.v_head_dim;
    let parts = if at.fused_qkv {
        vec![matrix(Role::AttnQkv, l, a.hidden, q + k + v), matrix(Role::AttnOutput, l, o_row, o)]
    } else {
        vec![
            matrix(Role::AttnK, l, a.hidden, k),
            matrix(Role::AttnOutput, l, o_row, o),
            matrix(Role::AttnQ, l, a.hidden, q),
            matrix(Role::AttnV, l, a.hidden, v),
        ]
    };
    place_if_whole(parts, p.attention_matrices, out)
}

/// Pushes `parts` when they add up to `expected` (returns what was placed).
fn place_if_whole(parts: Vec<Tensor>, expected: u128, out: &mut Vec<Tensor>) -> u128 {
    let sum: u128 = parts.iter().map(|t| t.elements).sum();
    if sum != expected {
        return 0;
    }
    out.extend(parts);
    sum
}

/// The dense MLP, or an MoE layer's shared experts (`_shexp`).
fn mlp(a: &Architecture, p: &LayerParams, l: Option<u32>, out: &mut Vec<Tensor>) -> u128 {
    let h = u128::from(a.hidden);
    let m = p.mlp_matrices;
    if m == 0 || h == 0 {
        return 0;
    }
    // The role is the same for a dense `ffn_down` and a shared expert's `ffn_down_shexp`.
    match a.mlp {
        MlpKind::Gated if m.is_multiple_of(3 * h) => {
            let third = m / 3;
            let width = u64::try_from(third / h).unwrap_or(u64::MAX);
            out.push(matrix(Role::FfnDown, l, width, third));
            out.push(matrix(Role::FfnGate, l, a.hidden, third));
            out.push(matrix(Role::FfnUp, l, a.hidden, third));
            m
        }
        MlpKind::Plain if m.is_multiple_of(2 * h) => {
            let half = m / 2;
            let width = u64::try_from(half / h).unwrap_or(u64::MAX);
            out.push(matrix(Role::FfnDown, l, width, half));
            out.push(matrix(Role::FfnUp, l, a.hidden, half));
            m
        }
        _ => 0,
    }
}

/// Whether the checkpoint's `quantization_config` stores the routed experts in MXFP4.
fn shipped_mxfp4_experts(a: &Architecture) -> bool {
    use crate::engine::model::quant::{ElementFormat, ModuleClass};
    a.quantization.as_ref().is_some_and(|q| q.formats.get(ModuleClass::Experts) == Some(ElementFormat::MXFP4))
}

/// The routed experts: one 3-D tensor per projection (`ffn_down_exps`, `ffn_gate_exps`,
/// `ffn_up_exps`), each holding every expert.
fn experts(a: &Architecture, p: &LayerParams, l: Option<u32>, out: &mut Vec<Tensor>) -> u128 {
    let e = p.expert_matrices;
    let (Some(moe), true) = (&a.moe, e > 0) else {
        return 0;
    };
    let projections: u128 = match a.mlp {
        MlpKind::Gated => 3,
        MlpKind::Plain => 2,
    };
    if !e.is_multiple_of(projections) {
        return 0;
    }
    let each = e / projections;
    // A checkpoint that ships its experts in MXFP4 (gpt-oss) is converted with them as they are,
    // and `llama-quantize` does not requantize them ("requantizing from type mxfp4 is disabled"
    // without --allow-requantize): every published file type keeps them in MXFP4.
    let ty = if shipped_mxfp4_experts(a) { GgmlType::MXFP4 } else { GgmlType::F16 };
    let mut push = |role, row| out.push(Tensor { experts: true, ty, ..matrix(role, l, row, each) });
    push(Role::FfnDown, moe.expert_intermediate);
    if projections == 3 {
        push(Role::FfnGate, a.hidden);
    }
    push(Role::FfnUp, a.hidden);
    e
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::model::config::parse_config;
    use crate::engine::model::params::count_params;
    use crate::engine::model::tensors::Part;
    use serde_json::json;

    fn llama_31_8b() -> Architecture {
        parse_config(&json!({"model_type": "llama", "hidden_size": 4096, "intermediate_size": 14336,
            "num_hidden_layers": 32, "num_attention_heads": 32, "num_key_value_heads": 8,
            "vocab_size": 128256, "tie_word_embeddings": false}))
        .unwrap()
    }

    #[test]
    fn llama_3_1_8b_q4_k_m_is_the_published_file() {
        // The loader's log for the public file: 193 q4_K, 33 q6_K tensors (and 66 f32 vectors,
        // which this table sums per layer), 4.58 GiB.
        let a = llama_31_8b();
        let t = table(&a, FileType::Q4_K_M);
        let counts = t.type_counts();
        let n = |ty| counts.iter().find(|c| c.ty == ty).map_or(0, |c| c.tensors);
        assert_eq!(n(GgmlType::Q4_K), 193);
        assert_eq!(n(GgmlType::Q6_K), 33);
        assert_eq!(t.elements(Part::All), count_params(&a).total);
        // 4,912,898,304 bytes with the 64-value rope_freqs tensor this engine does not count.
        assert_eq!(t.bytes(Part::All), 4_912_898_304 - 256);
    }

    #[test]
    fn qwen_2_5_7b_q4_k_m_is_the_llama_bench_readme_size() {
        // tools/llama-bench/README.md @5a32f10a: model_size 4677120000, model_n_params 7615616512.
        let a = parse_config(&json!({"model_type": "qwen2", "hidden_size": 3584, "intermediate_size": 18944,
            "num_hidden_layers": 28, "num_attention_heads": 28, "num_key_value_heads": 4,
            "vocab_size": 152064, "tie_word_embeddings": false}))
        .unwrap();
        let t = table(&a, FileType::Q4_K_M);
        assert_eq!(t.elements(Part::All), 7_615_616_512);
        assert_eq!(t.bytes(Part::All), 4_677_120_000);
    }

    #[test]
    fn llama_2_7b_q4_0_is_3_56_gib() {
        let a = parse_config(&json!({"model_type": "llama", "hidden_size": 4096, "intermediate_size": 11008,
            "num_hidden_layers": 32, "num_attention_heads": 32, "vocab_size": 32000}))
        .unwrap();
        let t = table(&a, FileType::Q4_0);
        let gib = t.bytes(Part::All) as f64 / (1u64 << 30) as f64;
        assert!((gib - 3.56).abs() < 0.005, "{gib}");
    }
}
