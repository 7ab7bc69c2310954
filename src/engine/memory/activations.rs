//! Activation memory.
//!
//! **Training** follows Korthikanti et al. 2022, "Reducing Activation Recomputation in Large
//! Transformer Models", §4: per layer and token a GPT layer stores `34·h` bytes plus `5·a·s`
//! for the attention scores (16-bit, with dropout). We count the same tensors in elements for
//! any shape, without dropout (modern LLMs train with dropout 0), times the activation bytes,
//! under the scenario's checkpointing policy ([`super::checkpointing`]: none, Korthikanti's
//! selective, torchtitan's op-level selective, full, on all layers or on `recompute_layers` of
//! each stage). For GPT-3-like shapes `none` is `32·h + 2·a·s` bytes (the paper's 34 and 5
//! minus dropout). Full recomputation keeps only each layer's input (`h`) plus one layer being
//! recomputed. A context-parallel GPU holds `batch × context / cp` tokens. A pipeline stage holds
//! the micro-batches in flight of its schedule ([`super::checkpointing::in_flight`]). The loss's
//! working set is its own line (`super::logits`), as is what activation offloading keeps.
//!
//! **Inference** peaks during a prefill chunk of `T = min(chunk, context·batch)` tokens: the
//! residual and normed hidden states `2·h`, the QKV output and the MLP intermediates of one
//! layer (vLLM profiles the same with a dummy run); the logits are their own line.

use super::checkpointing::{ffn_width, in_flight, kept_per_token, policy_layers};
use super::Inputs;
use crate::engine::model::{Architecture, MlpKind};
use crate::engine::workload::{Mode, Recompute};

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

/// Activation elements one token stores in one layer under the scenario's policy: (replicated
/// over TP, split by TP).
pub fn layer_elements_per_token(a: &Architecture, x: &Inputs) -> (u128, u128) {
    kept_per_token(a, x, x.recompute)
}

/// Elements per token a stage of `layers` layers holds at its peak, `covered` of them under a
/// policy that keeps `kept` per layer, the others `full` (what `none` keeps), with `num/den`
/// micro-batches in flight: `m·(c·kept + (L − c)·full)`, and when every layer is covered
/// (`c = L`) one layer's full set more while the last layer's backward recomputes it:
/// `+ (full − kept)`. The backward runs the layers in reverse, so when a covered layer (the
/// first `c`, Megatron's block method) is recomputed the uncovered later layers have been freed:
/// the peak is `c·kept + (L − c)·full` for `c < L` and `(L − 1)·kept + full` for `c = L`, which
/// never rises with `c`. Worked: L 32, kept 4096, full 83,968, all covered, one micro-batch:
/// 31 × 4096 + 83,968 = 210,944.
pub fn kept_elements(layers: u128, covered: u128, kept: u128, full: u128, num: u128, den: u128) -> u128 {
    let c = covered.min(layers);
    let forward = c * kept + (layers - c) * full;
    let transient = if c == layers && c > 0 { full.saturating_sub(kept) } else { 0 };
    (forward.saturating_mul(num)).div_ceil(den.max(1)) + transient
}

/// Training activations on one GPU of pipeline stage `stage` holding `layers`:
/// `T·a·`[`kept_elements`] with `T = batch·context/cp`, the policy's and `none`'s kept sets
/// ([`kept_per_token`]) and the schedule's micro-batches in flight ([`in_flight`]).
pub fn training_activation_bytes(
    a: &Architecture,
    x: &Inputs,
    layers: std::ops::Range<usize>,
    stage: u64,
    last_stage: bool,
) -> u128 {
    let tp = u128::from(x.tp.max(1));
    let h = u128::from(a.hidden);
    let tokens = x.tokens_per_gpu();
    let per_layer = |p: Recompute| {
        let (replicated, split) = kept_per_token(a, x, p);
        let replicated = if x.sequence_parallel { replicated.div_ceil(tp) } else { replicated };
        replicated + split.div_ceil(tp)
    };
    let full_layer = per_layer(Recompute::None);
    let n_layers = layers.len() as u128;
    // With offloading only the layers in flight stay on the GPU (`super::logits` has why 2),
    // and micro-batches waiting in the pipeline wait in host memory too.
    let (held, (num, den)) = if x.activation_offload {
        (n_layers.min(super::logits::OFFLOAD_LAYERS_ON_GPU), (1, 1))
    } else {
        (n_layers, in_flight(x.pp, stage, x.micro_batches, x.vp))
    };
    let covered = policy_layers(x, n_layers).min(held);
    let elements = tokens * kept_elements(held, covered, per_layer(x.recompute), full_layer, num, den);
    let mut bytes = act_bytes(x, elements);
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

    #[test]
    fn kept_elements_worked_and_monotone() {
        assert_eq!(kept_elements(32, 32, 4096, 83_968, 1, 1), 31 * 4096 + 83_968);
        assert_eq!(kept_elements(32, 0, 4096, 83_968, 1, 1), 32 * 83_968);
        assert_eq!(kept_elements(32, 5, 4096, 83_968, 1, 1), 5 * 4096 + 27 * 83_968);
        let mut last = u128::MAX;
        for c in 0..=32 {
            let k = kept_elements(32, c, 4096, 83_968, 3, 1);
            assert!(k <= last, "{c}");
            last = k;
        }
    }
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
