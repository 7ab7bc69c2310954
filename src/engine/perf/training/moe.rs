//! Mixture-of-experts layers in training: the grouped GEMMs of the routed experts.
//!
//! A grouped GEMM runs every local expert's `tokens × h` by `h × f_e` products in one kernel.
//! With the expert matrices small (`f_e` of a few hundred), its main loop is short against its
//! prologue and epilogue and it reaches a fraction of a dense GEMM's share:
//! - VeOmni PR #460 (ByteDance-Seed, 2026-02-06), H100, BF16 forward, 32,768 tokens:
//!   `torch._grouped_mm` (CUTLASS) at Qwen3-30B-A3B's experts (E 128, h 2048, f_e 768, top-8)
//!   242 TFLOPS = 0.245 of 989; at E 512, h 2048, f_e 512, top-10: 181 = 0.18;
//! - DeepGEMM's contiguous grouped GEMM at DeepSeek-V3's experts (h 7168, f_e 2048) reaches
//!   0.61-0.68 of the FP8 peak (README, 2025-03-25), as much as its dense GEMMs of the same size:
//!   from `f_e` ≈ 2048 the grouped GEMM runs like a dense one.
//!
//! So, relative to the GPU's dense share (H100's 0.803): `g(512) = 0.18/0.803 = 0.224`,
//! `g(768) = 0.245/0.803 = 0.305`, `g(2048) = 1`, interpolated in `log f_e` and held at the ends.
//! This is a first, training-side version that the serving model's grouped-GEMM efficiency by
//! tokens per expert (issue 31, item 2) may refine: in training each local expert receives
//! `T·k·ep/E` tokens (thousands), the compute regime of those kernels.

/// The routed experts' grouped-GEMM share relative to a dense GEMM's, by the expert's
/// intermediate size `f_e` (see the module doc). Worked: f_e 768 → 0.305; 1408 → 0.305 +
/// 0.695·log(1408/768)/log(2048/768) = 0.734.
pub fn grouped_gemm_relative_share(expert_intermediate: f64) -> f64 {
    const POINTS: [(f64, f64); 3] = [(512.0, 0.18 / 0.803), (768.0, 0.245 / 0.803), (2048.0, 1.0)];
    crate::engine::num::log_interpolate(&POINTS, expert_intermediate).clamp(0.0, 1.0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn small_experts_run_far_below_dense_gemms() {
        assert!((grouped_gemm_relative_share(768.0) - 0.305).abs() < 1e-3);
        assert!((grouped_gemm_relative_share(512.0) - 0.224).abs() < 1e-3);
        assert_eq!(grouped_gemm_relative_share(256.0), grouped_gemm_relative_share(512.0));
        assert_eq!(grouped_gemm_relative_share(2048.0), 1.0);
        assert_eq!(grouped_gemm_relative_share(18432.0), 1.0);
        let g = grouped_gemm_relative_share(1408.0);
        assert!(
            (g - (0.3051 + 0.6949 * (1408.0f64 / 768.0).ln() / (2048.0f64 / 768.0).ln())).abs() < 1e-3,
            "{g}"
        );
    }
}
