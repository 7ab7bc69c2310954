//! The cross-entropy over the vocabulary: memory-bound over the `T·V/tp` logits of the last
//! stage, `t = T·(V/tp)·β / (B·e_bw)` with `β` the bytes each implementation reads and writes per
//! logit, forward and backward (the output GEMM itself is a GEMM of the step):
//!
//! | implementation | β | passes |
//! |---|---|---|
//! | `upcast` (`cross_entropy(logits.float())`) | 36 | upcast 2 + 4; log-softmax over fp32 (max, sum of exponents, write) ≈ 12; its backward with the loss's ≈ 12; the gradient cast back 4 + 2 |
//! | `vocab_parallel` (Megatron) | 30 | upcast 2 + 4; exponent and sum 2 × 4; in-place divide 4 + 4; backward in place 4 + 4; cast 4 + 2 |
//! | `fused` (Megatron `--cross-entropy-loss-fusion`, TE) | 12 | read bf16 2, write the fp32 softmax 4, gradient 4 + 2 |
//! | `fused_linear` (Liger, Cut Cross-Entropy) | 0 | the logits never reach memory; the output GEMM's forward runs again in the backward |
//!
//! The pass counts are this engine's reading of the kernels each implementation launches
//! (PyTorch ATen's `log_softmax`/`nll_loss`, Megatron's tensor_parallel/cross_entropy.py and
//! fusions/fused_cross_entropy.py, Liger's fused_linear_cross_entropy.py): an estimate of passes,
//! not a measurement. Chunking (`loss_chunks`) changes what is held, not what is moved.
//! Worked: Llama 3 8B, 36 bytes × 128,256 columns = 4.62 MB per token: 1.6 µs per token on an
//! H100 at 0.85 of 3.35 TB/s.

use crate::engine::workload::LossImpl;

/// Bytes read and written per logit element by the loss, forward and backward (`β` above).
pub fn bytes_per_logit(l: LossImpl) -> f64 {
    match l {
        LossImpl::Upcast => 36.0,
        LossImpl::VocabParallel => 30.0,
        LossImpl::Fused => 12.0,
        LossImpl::FusedLinear => 0.0,
    }
}

/// Whether the output GEMM's forward runs again in the backward (the fused linear loss).
pub fn recomputes_output_gemm(l: LossImpl) -> bool {
    l == LossImpl::FusedLinear
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn llama3_8b_upcast_loss_on_an_h100() {
        let per_token = bytes_per_logit(LossImpl::Upcast) * 128_256.0;
        assert!((per_token - 4.617e6).abs() < 1e3, "{per_token}");
        let t = per_token / (0.85 * 3.35e12);
        assert!((t - 1.62e-6).abs() < 0.01e-6, "{t}");
        assert_eq!(bytes_per_logit(LossImpl::FusedLinear), 0.0);
        assert!(recomputes_output_gemm(LossImpl::FusedLinear) && !recomputes_output_gemm(LossImpl::Fused));
    }
}
