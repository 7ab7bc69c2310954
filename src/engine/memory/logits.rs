//! The output logits, their own line of the memory breakdown (with a 128K vocabulary they are
//! often the largest activation of a fine-tuning step), and what activation offloading keeps.
//!
//! **Training**, last pipeline stage, `T = batch × context` tokens and `V/tp` vocabulary
//! columns (the output layer is split over tensor parallelism):
//! - unchunked loss (`loss_chunks` 0 or 1): the logits in the compute dtype plus an fp32 copy
//!   at full size, which the loss makes before the softmax (Hugging Face transformers,
//!   `loss_utils.ForCausalLMLoss`: "upcast to float if we need to compute the loss");
//! - chunked loss (`loss_chunks = n > 1`): the logits in the compute dtype, and an fp32 copy of
//!   one chunk of `ceil(T / n)` tokens at a time (torchtune `CEWithChunkedOutputLoss`, default
//!   8 chunks: "saves memory by only upcasting one chunk at a time").
//!
//! **Inference**: one fp32 row per sequence (vLLM's logits processor computes logits only at
//! the positions it samples from, and samples in fp32).
//!
//! **Activation offloading** (torchtune `OffloadActivations`, PyTorch
//! `torch.autograd.graph.save_on_cpu`): each saved activation is copied to host memory once
//! its layer is done and brought back for the backward pass. With the copies on a side
//! stream, overlapped with compute (torchtune's `use_streams`), two layers are on the GPU at
//! a time: the one computing and the one being copied.

use super::Inputs;
use crate::engine::model::Architecture;

/// Layers whose saved activations stay on the GPU with offloading (see the module doc).
pub const OFFLOAD_LAYERS_ON_GPU: u128 = 2;

/// Logits elements of a training step on one GPU: `T × ceil(V / tp)`.
pub fn training_logits_elements(a: &Architecture, x: &Inputs) -> u128 {
    let tokens = u128::from(x.context) * u128::from(x.batch);
    tokens * u128::from(a.vocab).div_ceil(u128::from(x.tp.max(1)))
}

/// Tokens whose logits are upcast to fp32 at once: all of them, or one chunk's.
pub fn upcast_tokens(tokens: u128, loss_chunks: u64) -> u128 {
    if loss_chunks > 1 {
        tokens.div_ceil(u128::from(loss_chunks))
    } else {
        tokens
    }
}

/// Training logits on the last stage: compute-dtype logits + fp32 copy (all, or one chunk).
pub fn training_logits_bytes(a: &Architecture, x: &Inputs) -> u128 {
    let tokens = u128::from(x.context) * u128::from(x.batch);
    let vocab = u128::from(a.vocab).div_ceil(u128::from(x.tp.max(1)));
    let compute = x.activation.bytes_for(tokens * vocab, x.group);
    compute + upcast_tokens(tokens, x.loss_chunks) * vocab * 4
}

/// Inference logits on the last stage: one fp32 row per sequence. llama.cpp reserves one per
/// token of a micro-batch (its worst case, every token an output: up to
/// [`super::offload::N_UBATCH`] rows).
pub fn inference_logits_bytes(a: &Architecture, x: &Inputs) -> u128 {
    let rows = if a.tensor_table.is_some() {
        u128::from(super::offload::N_UBATCH).min(u128::from(x.context).saturating_mul(u128::from(x.batch)))
    } else {
        u128::from(x.batch)
    };
    rows * u128::from(a.vocab).div_ceil(u128::from(x.tp.max(1))) * 4
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn chunks_upcast_a_share() {
        assert_eq!(upcast_tokens(4096, 0), 4096);
        assert_eq!(upcast_tokens(4096, 1), 4096);
        assert_eq!(upcast_tokens(4096, 8), 512);
        assert_eq!(upcast_tokens(4097, 8), 513);
    }
}
