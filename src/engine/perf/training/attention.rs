//! The attention kernels of a training step: their FLOPs and the share of the 16-bit peak each
//! kernel family reaches, forward and backward.
//!
//! Per layer and micro-batch the forward computes `F = 4·T·s·d_attn/tp · ½` (the two matmuls
//! `QKᵀ` and `A·V` over a causal mask, `T = b·s/cp` query tokens per GPU; a context-parallel rank
//! gets `1/cp` of the causal work with the load-balanced split). The backward has twice the
//! model FLOPs, but FlashAttention-class kernels recompute `QKᵀ`: they report backward TFLOP/s
//! counting `2.5·F`. So, with `r` the reported rates,
//!
//! ```text
//! t_att = F / r_fwd + 2.5·F / r_bwd
//! ```
//!
//! Rates are kept as shares of the reference GPU's dense BF16 peak (causal, head dim 128), and
//! apply to every GPU of that generation:
//!
//! | kernel | generation | forward | backward | source |
//! |---|---|---|---|---|
//! | `fa2` | Ampere | 133 → 148 of 312 (2k → 16k tokens) | 145 → 186 | Dao, FlashAttention-2, arXiv:2307.08691, Figs. 4-6 (A100) |
//! | `fa2` | Hopper | 271 → 335 of 989 | 263 → 325 | FA3 paper Fig. 5 (FA2 forward, causal, 16k: 335); backward from FA2 Fig. 7's forward+backward 265 → 328: `3.5/328 − 1/335 = 2.5/r_bwd` |
//! | `fa2` | Blackwell | 374 of 2,500 | 374 | Azure AI-benchmarking-guide, ND GB200 v6, FlashAttention-2 (not Blackwell-tuned) |
//! | `fa3` | Hopper | 616 of 989 | 561 | Shah et al., FlashAttention-3, arXiv:2407.08608, Figs. 5-6 (H100 SXM5; backward non-causal) |
//! | `cudnn` | Hopper | 539 of 989 | 516 | same figures, cuDNN 9.1 (backward non-causal) |
//! | `cudnn` | Blackwell | 1,235 of 2,250 | 1,182 | FlashAttention-4 (Together AI, 2026): 1,605 TFLOP/s forward, "up to 1.3× faster than cuDNN 9.13"; backward at cuDNN's Hopper backward/forward ratio 516/539 (estimate) |
//! | `fa4` | Blackwell | 1,605 of 2,250 | 1,536 | the same, backward at the same ratio (estimate) |
//!
//! Between 2k and 16k tokens the FlashAttention-2 rates are interpolated in `log s` and held at
//! the ends; the others are single points at 16k. GPUs of other vendors take FlashAttention-2's
//! Ampere shares (a FlashAttention-2-class kernel; no published training-attention rate here).

use crate::engine::gpu::Generation;
use crate::engine::workload::AttentionKernel;

/// The kernel family a generation runs by default: FlashAttention-2 (PyTorch SDPA's flash back
/// end) on Ampere and older; cuDNN fused attention, Transformer Engine's default back end, on
/// Hopper and Blackwell.
pub fn default_kernel(generation: Generation) -> AttentionKernel {
    match generation {
        Generation::Hopper | Generation::Blackwell => AttentionKernel::Cudnn,
        Generation::Ampere | Generation::Ada | Generation::Other => AttentionKernel::Fa2,
    }
}

/// The generations a kernel family runs on (`Err` names them): FA3 on Hopper, FA4 on
/// Blackwell, cuDNN's published rates on Hopper and Blackwell; FA2 anywhere.
pub fn check_kernel(kernel: AttentionKernel, generation: Generation) -> Result<(), &'static str> {
    match (kernel, generation) {
        (AttentionKernel::Fa2, _)
        | (AttentionKernel::Fa3, Generation::Hopper)
        | (AttentionKernel::Fa4, Generation::Blackwell)
        | (AttentionKernel::Cudnn, Generation::Hopper | Generation::Blackwell) => Ok(()),
        (AttentionKernel::Fa3, _) => Err("Hopper"),
        (AttentionKernel::Fa4, _) => Err("Blackwell"),
        (AttentionKernel::Cudnn, _) => Err("Hopper or Blackwell"),
    }
}

/// The forward and backward shares of the dense BF16 peak a kernel reaches at `seq` tokens.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct AttentionRates {
    pub forward: f64,
    pub backward: f64,
}

/// `a + (b − a)·clamp(log2(s/2048)/3, 0, 1)`: from the 2k-token rate to the 16k-token one.
fn by_length(at_2k: f64, at_16k: f64, seq: f64) -> f64 {
    let x = if seq > 0.0 { ((seq / 2048.0).log2() / 3.0).clamp(0.0, 1.0) } else { 0.0 };
    at_2k + (at_16k - at_2k) * x
}

/// The shares of [`AttentionRates`] (see the module doc's table).
/// Worked: FA2 on an A100 at 8,192 tokens: forward (133 + 15·2/3)/312 = 0.458.
pub fn rates(kernel: AttentionKernel, generation: Generation, seq: f64) -> AttentionRates {
    let r = |f: f64, b: f64, peak: f64| AttentionRates { forward: f / peak, backward: b / peak };
    match (kernel, generation) {
        (AttentionKernel::Fa2, Generation::Hopper) => {
            r(by_length(270.7, 335.0, seq), by_length(262.6, 325.0, seq), 989.0)
        }
        (AttentionKernel::Fa2, Generation::Blackwell) => r(373.9, 373.9, 2500.0),
        (AttentionKernel::Fa3, _) => r(616.0, 561.0, 989.0),
        (AttentionKernel::Cudnn, Generation::Blackwell) => r(1235.0, 1182.0, 2250.0),
        (AttentionKernel::Cudnn, _) => r(539.0, 516.0, 989.0),
        (AttentionKernel::Fa4, _) => r(1605.0, 1536.0, 2250.0),
        (AttentionKernel::Fa2, _) => r(by_length(133.0, 148.0, seq), by_length(145.0, 186.0, seq), 312.0),
    }
}

/// Expected seconds of the attention kernels of one layer and micro-batch:
/// `F / (P·r_fwd) + 2.5·F / (P·r_bwd)` with `F` the forward FLOPs and `P` the dense BF16 peak;
/// and the forward alone (what a recomputation repeats): `(forward+backward, forward)`.
pub fn attention_seconds(forward_flops: f64, peak: f64, r: AttentionRates) -> (f64, f64) {
    let f = forward_flops.max(0.0);
    let fwd = if peak > 0.0 && r.forward > 0.0 { f / (peak * r.forward) } else { 0.0 };
    let bwd = if peak > 0.0 && r.backward > 0.0 { 2.5 * f / (peak * r.backward) } else { 0.0 };
    (fwd + bwd, fwd)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fa2_on_a100_grows_with_length_and_cudnn_on_h100_is_a_point() {
        let a = rates(AttentionKernel::Fa2, Generation::Ampere, 8192.0);
        assert!((a.forward - (133.0 + 15.0 * 2.0 / 3.0) / 312.0).abs() < 1e-12, "{a:?}");
        assert_eq!(rates(AttentionKernel::Fa2, Generation::Ampere, 1024.0).forward, 133.0 / 312.0);
        assert_eq!(rates(AttentionKernel::Fa2, Generation::Ampere, 65536.0).backward, 186.0 / 312.0);
        let h = rates(AttentionKernel::Cudnn, Generation::Hopper, 8192.0);
        assert_eq!((h.forward, h.backward), (539.0 / 989.0, 516.0 / 989.0));
        // Llama 3 8B at 8,192 tokens, one layer: F = 4·8192·8192·4096/2 = 5.50e11 FLOPs; on an
        // H100 with cuDNN: 5.50e11/539e12 + 2.5·5.50e11/516e12 = 1.020 + 2.664 = 3.685 ms.
        let f = 4.0 * 8192.0 * 8192.0 * 4096.0 / 2.0;
        let (t, fwd) = attention_seconds(f, 989e12, h);
        assert!((t - (f / 539e12 + 2.5 * f / 516e12)).abs() < 1e-12 && (t - 3.685e-3).abs() < 1e-5, "{t}");
        assert!(fwd < t);
    }

    #[test]
    fn kernels_run_where_they_were_measured() {
        assert!(check_kernel(AttentionKernel::Fa3, Generation::Hopper).is_ok());
        assert_eq!(check_kernel(AttentionKernel::Fa3, Generation::Ampere), Err("Hopper"));
        assert_eq!(check_kernel(AttentionKernel::Cudnn, Generation::Ampere), Err("Hopper or Blackwell"));
        assert_eq!(default_kernel(Generation::Ampere), AttentionKernel::Fa2);
        assert_eq!(default_kernel(Generation::Blackwell), AttentionKernel::Cudnn);
    }
}
