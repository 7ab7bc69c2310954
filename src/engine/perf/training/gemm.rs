//! The efficiency of one GEMM of a training step: the GPU's share at the best shape (the
//! "Maximum Achievable Matmul FLOPS", `efficiency.matmul_flops`) times the wave quantisation of
//! the GEMM's output tiles.
//!
//! NVIDIA, "Matrix Multiplication Background User's Guide" (docs.nvidia.com/deeplearning/
//! performance/dl-performance-matrix-multiplication): a GEMM's output is computed in tiles, one
//! tile per SM at a time; a wave is one tile on every SM, and the last wave runs partly empty.
//! With `n = ceil(M/T_m)·ceil(N/T_n)` tiles on `S` SMs the share of issued tile slots that do
//! work is `q = n / (ceil(n/S)·S)`. The best-shape share already has `q ≈ 1` (a shape sweep
//! picks full waves), so a GEMM reaches `e_MAMF · q`. Tiles: 256×128 on Ampere (the guide's
//! A100 example), 128×256 on Hopper and Blackwell (the shapes of their largest BF16 CUTLASS/
//! cuBLAS kernels, Megatron-LM and CUTLASS profiles). Without an SM count `q = 1`.

use crate::engine::gpu::Generation;

/// The output tile `(T_m, T_n)` of a generation's large 16-bit GEMM kernels.
pub fn tile(generation: Generation) -> (f64, f64) {
    match generation {
        Generation::Ampere | Generation::Ada | Generation::Other => (256.0, 128.0),
        Generation::Hopper | Generation::Blackwell => (128.0, 256.0),
    }
}

/// Wave quantisation `q = n / (ceil(n/S)·S)` of an `M × N` output on `sms` SMs (1 without an SM
/// count or for an empty GEMM). Worked: Llama 3 70B's QKV at TP 8 on an H100, M = 8192,
/// N = 10240/8 = 1280, tile 128×256: 64 × 5 = 320 tiles, 3 waves of 132 → 320/396 = 0.808.
pub fn wave_quantization(m: f64, n: f64, tile: (f64, f64), sms: Option<f64>) -> f64 {
    let Some(s) = sms.filter(|s| s.is_finite() && *s >= 1.0) else { return 1.0 };
    let (tm, tn) = tile;
    if !(m > 0.0 && n > 0.0 && tm > 0.0 && tn > 0.0) {
        return 1.0;
    }
    let tiles = (m / tm).ceil() * (n / tn).ceil();
    let slots = (tiles / s).ceil() * s;
    if slots > 0.0 && tiles.is_finite() {
        (tiles / slots).clamp(0.0, 1.0)
    } else {
        1.0
    }
}

/// One GEMM's expected seconds as a roofline of its own: `max(F / (P·e·q·S), Q / (B·e_b))`,
/// with `F` FLOPs at the 16-bit peak `P` times the GEMM share `e`, wave quantisation `q` and a
/// low-precision speedup `S`, against `Q` bytes at the achieved bandwidth.
pub fn gemm_seconds(flops: f64, bytes: f64, rate: f64, bandwidth: f64) -> f64 {
    let c = if rate > 0.0 { flops.max(0.0) / rate } else { 0.0 };
    let m = if bandwidth > 0.0 { bytes.max(0.0) / bandwidth } else { 0.0 };
    let t = c.max(m);
    if t.is_finite() {
        t
    } else {
        0.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn llama3_70b_qkv_at_tp8_loses_a_fifth_to_the_last_wave() {
        let q = wave_quantization(8192.0, 1280.0, tile(Generation::Hopper), Some(132.0));
        assert!((q - 320.0 / 396.0).abs() < 1e-12, "{q}");
        // The same GEMM without tensor parallelism: 2,560 tiles in 20 waves of 132.
        let q1 = wave_quantization(8192.0, 10240.0, tile(Generation::Hopper), Some(132.0));
        assert!((q1 - 2560.0 / 2640.0).abs() < 1e-12, "{q1}");
        assert_eq!(wave_quantization(8192.0, 1280.0, tile(Generation::Hopper), None), 1.0);
        assert_eq!(wave_quantization(0.0, 1280.0, tile(Generation::Hopper), Some(132.0)), 1.0);
    }

    #[test]
    fn a_gemm_is_the_slower_of_its_flops_and_its_bytes() {
        assert_eq!(gemm_seconds(1e12, 1e9, 1e15, 1e12), 1e-3);
        assert_eq!(gemm_seconds(1e9, 1e10, 1e15, 1e12), 1e-2);
        assert_eq!(gemm_seconds(1e9, 1e10, 0.0, 0.0), 0.0);
    }
}
