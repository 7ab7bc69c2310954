//! The output logits, their own line of the memory breakdown (with a 128K vocabulary they are
//! often the largest activation of a fine-tuning step), and what activation offloading keeps.
//!
//! **Training**, last pipeline stage, `T = batch × context / cp` tokens and `V/tp` vocabulary
//! columns (the output layer is split over tensor parallelism): the loss's working set at its
//! peak, which sits on top of every saved activation (the loss runs after the whole forward),
//! in bytes per logit element by the loss's implementation (`loss_impl`):
//! - `upcast` (`F.cross_entropy(logits.float())`: Hugging Face transformers'
//!   `ForCausalLMLoss`, "upcast to float if we need to compute the loss"; torchtitan's train.py):
//!   the logits in the compute dtype, their fp32 copy and the fp32 log-softmax the loss saves for
//!   its backward, `a + 4 + 4` (10 in bf16); with `loss_chunks = n > 1` the fp32 pair exists for
//!   one chunk of `ceil(T / n)` tokens at a time, `a + 8/n` (torchtune `CEWithChunkedOutputLoss`,
//!   default 8 chunks: "saves memory by only upcasting one chunk at a time");
//! - `vocab_parallel` (Megatron `vocab_parallel_cross_entropy`: `.float()`, the exponent and the
//!   division in place, the softmax saved) and `fused` (Megatron `--cross-entropy-loss-fusion`):
//!   the logits and one fp32 tensor, `a + 4`;
//! - `fused_linear` (Liger `LigerFusedLinearCrossEntropyLoss`, Cut Cross-Entropy): the output
//!   GEMM and the loss run in token chunks and the logits never exist in full: one chunk's logits
//!   and fp32 softmax, `a + 4`, for `ceil(T / ceil(V/h))` tokens (Liger's chunk size rule,
//!   liger_kernel/ops/fused_linear_cross_entropy.py, which keeps a chunk's logits as large as the
//!   hidden states).
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
use crate::engine::workload::LossImpl;

/// Layers whose saved activations stay on the GPU with offloading (see the module doc).
pub const OFFLOAD_LAYERS_ON_GPU: u128 = 2;

/// Logits elements of a training step on one GPU: `T × ceil(V / tp)`.
pub fn training_logits_elements(a: &Architecture, x: &Inputs) -> u128 {
    x.tokens_per_gpu() * u128::from(a.vocab).div_ceil(u128::from(x.tp.max(1)))
}

/// Tokens whose logits are upcast to fp32 at once: all of them, or one chunk's.
pub fn upcast_tokens(tokens: u128, loss_chunks: u64) -> u128 {
    if loss_chunks > 1 {
        tokens.div_ceil(u128::from(loss_chunks))
    } else {
        tokens
    }
}

/// Tokens whose logits exist at once under the loss's implementation (all of them, or a fused
/// linear cross-entropy's chunk of `ceil(T / ceil(V/h))`), and the fp32 bytes each of the
/// upcast ones holds (the copy and the log-softmax: 8; the softmax alone: 4).
pub fn loss_working_tokens(a: &Architecture, x: &Inputs) -> (u128, u128, u128) {
    let tokens = x.tokens_per_gpu();
    match x.loss_impl {
        LossImpl::Upcast => (tokens, upcast_tokens(tokens, x.loss_chunks), 8),
        LossImpl::VocabParallel | LossImpl::Fused => (tokens, tokens, 4),
        LossImpl::FusedLinear => {
            let chunks = u128::from(a.vocab).div_ceil(u128::from(a.hidden.max(1))).max(1);
            let chunk = tokens.div_ceil(chunks);
            (chunk, chunk, 4)
        }
    }
}

/// The loss's working set on the last stage: `held × V/tp × a + upcast × V/tp × fp32 bytes`
/// (see the module doc for each implementation).
pub fn training_logits_bytes(a: &Architecture, x: &Inputs) -> u128 {
    let vocab = u128::from(a.vocab).div_ceil(u128::from(x.tp.max(1)));
    let (held, upcast, fp32) = loss_working_tokens(a, x);
    x.activation.bytes_for(held * vocab, x.group) + upcast * vocab * fp32
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
    fn llama3_8b_loss_working_set_by_implementation() {
        use crate::engine::scenario::{ModelSpec, Scenario};
        let a = crate::engine::model::config::parse_config(&serde_json::json!({"model_type": "llama",
            "hidden_size": 4096, "intermediate_size": 14336, "num_hidden_layers": 32,
            "num_attention_heads": 32, "num_key_value_heads": 8, "vocab_size": 128256}))
        .unwrap();
        let mut s = Scenario::new(ModelSpec::Id("x".into()));
        (s.mode, s.batch, s.context_tokens) = (crate::engine::workload::Mode::Training, 2, 8192);
        let bytes = |s: &Scenario| training_logits_bytes(&a, &Inputs::from_scenario(s));
        // 16,384 tokens × 128,256 × 10 bytes = 21.0 GB = 19.6 GiB (torchtitan's loss).
        assert_eq!(bytes(&s), 16_384 * 128_256 * 10);
        s.loss_impl = LossImpl::VocabParallel;
        assert_eq!(bytes(&s), 16_384 * 128_256 * 6); // 11.8 GiB
        s.loss_impl = LossImpl::FusedLinear;
        // ceil(128256 / 4096) = 32 chunks of 512 tokens.
        assert_eq!(bytes(&s), 512 * 128_256 * 6);
        s.loss_impl = LossImpl::Upcast;
        s.loss_chunks = 8;
        assert_eq!(bytes(&s), 16_384 * 128_256 * 2 + 2048 * 128_256 * 8);
    }

    #[test]
    fn chunks_upcast_a_share() {
        assert_eq!(upcast_tokens(4096, 0), 4096);
        assert_eq!(upcast_tokens(4096, 1), 4096);
        assert_eq!(upcast_tokens(4096, 8), 512);
        assert_eq!(upcast_tokens(4097, 8), 513);
    }
}
