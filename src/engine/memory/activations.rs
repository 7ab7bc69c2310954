//! Activation memory.
//!
//! **Training** follows Korthikanti et al. 2022, "Reducing Activation Recomputation in Large
//! Transformer Models", §4: per layer and token a GPT layer stores `34·h` bytes plus `5·a·s`
//! for the attention scores (16-bit, with dropout). We count the same tensors in elements for
//! any shape, without dropout (modern LLMs train with dropout 0), times the activation bytes:
//! - replicated over the TP group (split only with sequence parallelism): each norm's input,
//!   the attention input and the MLP input: `(norms + 2) · h`;
//! - split by TP: Q, K, V and the attention output `H·d + 2·K·d + H·d_v`, and the MLP
//!   intermediates (gated: gate, up, act(gate), product = `4·I`; plain: `2·I`; MoE: `I = k·I_e + I_s`);
//! - the softmax output `H·s` per token, unless FlashAttention or selective recomputation.
//!
//! For GPT-3-like shapes this is `32·h + 2·a·s` bytes (the paper's 34 and 5 minus dropout).
//! Full recomputation keeps only each layer's input (`h`) plus one layer being recomputed.
//! With 1F1B pipeline schedules stage `k` of `p` holds `p − k` micro-batches in flight
//! (Narayanan et al. 2021). The logits are their own line (`super::logits`), as is what
//! activation offloading keeps on the GPU.
//!
//! **Inference** peaks during a prefill chunk of `T = min(chunk, context·batch)` tokens: the
//! residual and normed hidden states `2·h`, the QKV output and the MLP intermediates of one
//! layer (vLLM profiles the same with a dummy run); the logits are their own line.

use super::Inputs;
use crate::engine::model::{Architecture, MlpKind};
use crate::engine::workload::{Mode, Recompute};

/// Width of the feed-forward intermediate a token passes through, worst layer.
fn ffn_width(a: &Architecture) -> u128 {
    let dense = u128::from(a.intermediate);
    match &a.moe {
        Some(m) => {
            let moe = u128::from(m.experts_per_token) * u128::from(m.expert_intermediate)
                + u128::from(m.shared_intermediate);
            let any_dense = m.layer_is_moe.iter().any(|x| !x);
            if any_dense {
                moe.max(dense)
            } else {
                moe
            }
        }
        None => dense,
    }
}

fn act_bytes(x: &Inputs, elements: u128) -> u128 {
    x.activation.bytes_for(elements, x.group)
}

/// Peak prefill workspace on one GPU for inference: a prefill chunk's activations. llama.cpp
/// (a model given as a tensor table) reserves its compute buffer for one micro-batch of
/// [`super::offload::N_UBATCH`] tokens in f32 instead.
pub fn inference_workspace_bytes(a: &Architecture, x: &Inputs, last_stage: bool) -> u128 {
    let tp = u128::from(x.tp.max(1));
    let at = &a.attention;
    let h = u128::from(a.hidden);
    let llama_cpp = a.tensor_table.is_some();
    let budget = if llama_cpp { super::offload::N_UBATCH } else { x.prefill_chunk_tokens };
    let chunk = u128::from(budget).min(u128::from(x.context) * u128::from(x.batch));
    let qkv = u128::from(at.heads) * u128::from(at.head_dim)
        + u128::from(at.kv_heads) * (u128::from(at.head_dim) + u128::from(at.v_head_dim));
    let ffn = ffn_width(a) * if a.mlp == MlpKind::Gated { 2 } else { 1 };
    let mut per_token = 2 * h + qkv.div_ceil(tp) + ffn.div_ceil(tp);
    if !x.flash_attention {
        per_token += u128::from(at.heads).div_ceil(tp) * u128::from(x.context);
    }
    // The logits (one fp32 row per sequence) are their own line: `super::logits`.
    let _ = last_stage;
    if llama_cpp {
        return chunk.saturating_mul(per_token).saturating_mul(4);
    }
    act_bytes(x, chunk.saturating_mul(per_token))
}

/// Activation elements one token stores in one layer: (replicated over TP, split by TP).
pub fn layer_elements_per_token(a: &Architecture, x: &Inputs) -> (u128, u128) {
    let at = &a.attention;
    let h = u128::from(a.hidden);
    let (heads, kv, d, dv) =
        (u128::from(at.heads), u128::from(at.kv_heads), u128::from(at.head_dim), u128::from(at.v_head_dim));
    let mut replicated = (u128::from(a.norms_per_layer) + 2) * h;
    if matches!(x.mode, Mode::Lora | Mode::Qlora) {
        // LoRA keeps each adapter's rank-r intermediate for the backward pass.
        replicated += u128::from(x.lora_rank) * x.lora_targets.iter().filter(|t| **t).count() as u128;
    }
    let attention = heads * d + kv * (d + dv) + heads * dv;
    let mlp = ffn_width(a) * if a.mlp == MlpKind::Gated { 4 } else { 2 };
    let mut split = attention + mlp;
    if !x.flash_attention && x.recompute == Recompute::None {
        split += heads * u128::from(x.context);
    }
    (replicated, split)
}

/// Training activations on one GPU of pipeline stage `stage` holding `layers`.
pub fn training_activation_bytes(
    a: &Architecture,
    x: &Inputs,
    layers: std::ops::Range<usize>,
    stage: u64,
    last_stage: bool,
) -> u128 {
    let tp = u128::from(x.tp.max(1));
    let h = u128::from(a.hidden);
    let tokens = u128::from(x.context) * u128::from(x.batch);
    let (replicated, split) = layer_elements_per_token(a, x);
    let replicated = if x.sequence_parallel { replicated.div_ceil(tp) } else { replicated };
    let full_layer = replicated + split.div_ceil(tp);
    let n_layers = layers.len() as u128;
    // With offloading only the layers in flight stay on the GPU (`super::logits` has why 2).
    let on_gpu =
        if x.activation_offload { n_layers.min(super::logits::OFFLOAD_LAYERS_ON_GPU) } else { n_layers };
    let per_microbatch = match x.recompute {
        Recompute::Full => {
            let input = if x.sequence_parallel { h.div_ceil(tp) } else { h };
            tokens * (input * on_gpu + full_layer)
        }
        _ => tokens * full_layer * on_gpu,
    };
    // Offloaded micro-batches waiting in the pipeline wait in host memory too.
    let in_flight = if x.activation_offload { 1 } else { u128::from(x.pp.saturating_sub(stage).max(1)) };
    let mut bytes = act_bytes(x, per_microbatch.saturating_mul(in_flight));
    // The logits are their own line: `super::logits`.
    let _ = last_stage;
    if x.mode == Mode::Qlora {
        // One layer's largest matrix dequantised to bf16 while it is used.
        let widest = ffn_width(a).max(u128::from(a.attention.heads) * u128::from(a.attention.head_dim));
        bytes += 2 * h * widest.div_ceil(tp);
    }
    bytes
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::model::config::parse_config;
    use crate::engine::scenario::{ModelSpec, Scenario};
    use serde_json::json;

    #[test]
    fn gpt3_like_layer_matches_korthikanti_without_dropout() {
        // h = 4096, a = 32, s = 2048, plain 4h MLP: 34·h − 2·h (no dropout masks) = 32·h bytes,
        // plus 5·a·s − 3·a·s (no dropout) = 2·a·s bytes for the softmax output.
        let a = parse_config(&json!({"model_type": "gpt2", "n_embd": 4096, "n_layer": 1, "n_head": 32,
            "vocab_size": 50257}))
        .unwrap();
        let mut s = Scenario::new(ModelSpec::Id("x".into()));
        s.mode = Mode::Training;
        s.context_tokens = 2048;
        s.flash_attention = false;
        let x = Inputs::from_scenario(&s);
        let (rep, split) = layer_elements_per_token(&a, &x);
        assert_eq!(2 * (rep + split), 32 * 4096 + 2 * 32 * 2048);
        s.flash_attention = true;
        let (rep, split) = layer_elements_per_token(&a, &Inputs::from_scenario(&s));
        assert_eq!(2 * (rep + split), 32 * 4096);
    }
}
