//! Weight bytes on one GPU.
//!
//! Decoder-layer matrices are split over the tensor-parallel group (Megatron column/row
//! parallel linears; Shoeybi et al. 2019) and stored in `weight_dtype`; the routed experts are
//! held as expert parallelism spreads them ([`super::expert_parallel`]). The embedding and
//! output head are vocab-parallel (also split by TP) and sit on the first and last pipeline
//! stage; a tied head is stored again on the last stage when pp > 1 (Megatron keeps a copy).
//! Norms, biases and routers are replicated. Quantised checkpoints (GPTQ, AWQ, bitsandbytes,
//! FP8) keep embeddings, head, norms, biases and routers in 16 bits.

use super::Inputs;
use crate::engine::model::params::{layer_params, outer_params};
use crate::engine::model::Architecture;
use crate::engine::precision::Dtype;

/// Weights of one pipeline stage on one GPU.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct StageWeights {
    /// Parameters stored on this GPU.
    pub params: u128,
    /// Of those, matrices in `weight_dtype`.
    pub matrix_params: u128,
    /// Bytes.
    pub bytes: u128,
    /// Parameters of the largest layer held here (a decoder layer, the embedding or the
    /// head): the gradients alive at once when the optimizer runs inside the backward pass.
    pub largest_layer_params: u128,
    /// Of `params`, the routed experts' (as expert parallelism holds them).
    pub expert_params: u128,
    /// Of `bytes`, the routed experts'.
    pub expert_bytes: u128,
}

/// The format of the small tensors: the weight format if it is a 16/32-bit float, else bf16.
pub fn small_tensor_dtype(weight: Dtype) -> Dtype {
    if weight.is_trainable_float() {
        weight
    } else {
        Dtype::Bf16
    }
}

/// Weights held by one GPU of a stage with `layers`.
pub fn stage_weights(
    a: &Architecture,
    x: &Inputs,
    layers: std::ops::Range<usize>,
    first: bool,
    last: bool,
) -> StageWeights {
    // A llama.cpp tensor table (a GGUF file, or a file type): every tensor in its own type.
    if let Some(t) = &a.tensor_table {
        return super::table_weights::stage_weights_table(t, x.tp, &x.experts(a), layers, first, last);
    }
    // The checkpoint's quantization_config sets the format (when the reader chose none).
    if let Some(q) = super::quant_weights::active(a, x) {
        return super::quant_weights::stage_weights_mixed(a, q, x, layers, first, last);
    }
    let tp = u128::from(x.tp.max(1));
    let experts = x.experts(a);
    // A layer's matrices on this GPU: attention and dense MLP over TP, the routed experts as
    // expert parallelism holds them.
    let held = |l: &crate::engine::model::params::LayerParams| {
        (l.attention_matrices + l.mlp_matrices).div_ceil(tp) + experts.share(l.expert_matrices)
    };
    let (embedding, lm_head, positions, final_norm) = outer_params(a);
    let mut matrices = 0u128;
    let mut small = 0u128;
    let mut largest = 0u128;
    let mut expert_params = 0u128;
    // A layer's parameters depend only on whether it is an MoE layer: count each kind once.
    let moe_layers = layers.clone().filter(|i| a.is_moe_layer(*i)).count() as u128;
    let dense_layers = layers.len() as u128 - moe_layers;
    // Gemma 4's layers also differ in head size, KV sharing and MLP width, a hybrid model's in
    // their mixer (Gated DeltaNet, Mamba-2 or attention): each counted on its own.
    let per_layer = a.gemma4.is_some() || a.hybrid.is_some();
    let kinds = if per_layer {
        [(0, None), (0, None)]
    } else {
        [
            (dense_layers, layers.clone().find(|i| !a.is_moe_layer(*i))),
            (moe_layers, layers.clone().find(|i| a.is_moe_layer(*i))),
        ]
    };
    for i in layers.clone().filter(|_| per_layer) {
        let l = layer_params(a, i);
        matrices += held(&l);
        expert_params += experts.share(l.expert_matrices);
        small += l.small;
        largest = largest.max(held(&l) + l.small);
    }
    for (count, probe) in kinds {
        if let Some(i) = probe {
            let l = layer_params(a, i);
            matrices += count * held(&l);
            expert_params += count * experts.share(l.expert_matrices);
            small += count * l.small;
            largest = largest.max(held(&l) + l.small);
        }
    }
    if first {
        small += embedding.div_ceil(tp) + positions;
        largest = largest.max(embedding.div_ceil(tp));
    }
    if last {
        small += final_norm;
        let head = if a.tied_embeddings {
            if first {
                0
            } else {
                embedding
            }
        } else {
            lm_head
        };
        small += head.div_ceil(tp);
        largest = largest.max(head.div_ceil(tp));
    }
    let bytes =
        x.weight.bytes_for(matrices, x.group) + small_tensor_dtype(x.weight).bytes_for(small, x.group);
    StageWeights {
        params: matrices + small,
        matrix_params: matrices,
        bytes,
        largest_layer_params: largest,
        expert_params,
        expert_bytes: x.weight.bytes_for(expert_params, x.group),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::catalog::models::find;
    use crate::engine::scenario::{ModelSpec, Scenario};

    fn inputs(tp: u64, weight: Dtype) -> Inputs {
        let mut s = Scenario::new(ModelSpec::Id("x".into()));
        s.tensor_parallel = tp;
        s.gpus = tp;
        s.weight_dtype = Some(weight);
        Inputs::from_scenario(&s)
    }

    #[test]
    fn llama_2_70b_fp16_is_about_138_gb_and_tp_halves_it() {
        let a = &find("llama-2-70b").unwrap().architecture;
        let one = stage_weights(a, &inputs(1, Dtype::Fp16), 0..80, true, true);
        assert_eq!(one.params, 68_976_648_192);
        assert_eq!(one.bytes, 137_953_296_384);
        let two = stage_weights(a, &inputs(2, Dtype::Fp16), 0..80, true, true);
        assert!(two.bytes < one.bytes / 2 + 10_000_000 && two.bytes > one.bytes / 2);
    }

    #[test]
    fn int4_keeps_embeddings_in_bf16() {
        let a = &find("llama-3.1-8b").unwrap().architecture;
        let w = stage_weights(a, &inputs(1, Dtype::Int4), 0..32, true, true);
        // 6.98e9 matrix params at 4.156 bits + 1.05e9 embedding/head/norm params at 2 bytes
        assert_eq!(w.matrix_params, 6_979_321_856);
        assert_eq!(w.bytes, 3_625_975_808 + 2 * 1_050_939_392);
    }
}
