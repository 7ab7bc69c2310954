//! A GPU's peak throughput by precision path: FP32 on the CUDA cores against the Tensor Core
//! paths (TF32, FP16, BF16, FP8, INT8, FP4), dense, with the vendor's 2:4 structured-sparsity
//! figure kept apart (it applies only to weights pruned to that pattern).
//!
//! # Formula
//! `speed-up = F_path / F_FP32`, with `F` the dense peak of each path.

use super::gpu::Gpu;
use super::precision::compute::{ComputeDtype, ComputePath};

/// The paths in the order a spec sheet lists them, FP32 (CUDA cores) first.
pub const PATHS: [ComputeDtype; 7] = [
    ComputeDtype::Fp32,
    ComputeDtype::Tf32,
    ComputeDtype::Fp16,
    ComputeDtype::Bf16,
    ComputeDtype::Fp8,
    ComputeDtype::Int8,
    ComputeDtype::Fp4,
];

/// One precision path of one GPU.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PeakRow {
    pub path: ComputeDtype,
    /// Dense peak in FLOP/s (OP/s for INT8); `None` when the GPU has no such path.
    pub dense: Option<f64>,
    /// `dense / FP32 dense`, when both exist.
    pub speedup_vs_fp32: Option<f64>,
    /// The vendor's figure "with sparsity" (2:4 structured), when the catalog has it.
    pub sparse_2_4: Option<f64>,
}

/// Every path of [`PATHS`] for `gpu`; total (missing figures are `None`).
pub fn peak_rows(gpu: &Gpu) -> Vec<PeakRow> {
    let fp32 = gpu.peak_flops.get(ComputeDtype::Fp32).filter(|f| f.is_finite() && *f > 0.0);
    PATHS
        .iter()
        .map(|&path| {
            let dense = gpu.peak_flops.get(path).filter(|f| f.is_finite() && *f > 0.0);
            PeakRow {
                path,
                dense,
                speedup_vs_fp32: dense.zip(fp32).map(|(d, f)| d / f),
                sparse_2_4: gpu
                    .sparse_as_quoted
                    .get(path.label())
                    .copied()
                    .filter(|f| f.is_finite() && *f > 0.0),
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::gpu::PeakFlops;

    fn a100() -> Gpu {
        Gpu {
            peak_flops: PeakFlops {
                fp32: Some(19.5e12),
                tf32: Some(156e12),
                fp16: Some(312e12),
                bf16: Some(312e12),
                int8: Some(624e12),
                ..PeakFlops::default()
            },
            sparse_as_quoted: [("bf16".to_string(), 624e12)].into_iter().collect(),
            ..Gpu::default()
        }
    }

    #[test]
    fn a100_bf16_is_sixteen_times_fp32_and_tf32_eight() {
        // 312 / 19.5 = 16; 156 / 19.5 = 8 (the chapter's "8× with no model changes").
        let rows = peak_rows(&a100());
        let row = |p| rows.iter().find(|r| r.path == p).copied().unwrap();
        assert_eq!(row(ComputeDtype::Bf16).speedup_vs_fp32, Some(16.0));
        assert_eq!(row(ComputeDtype::Tf32).speedup_vs_fp32, Some(8.0));
        assert_eq!(row(ComputeDtype::Fp32).speedup_vs_fp32, Some(1.0));
        assert_eq!(row(ComputeDtype::Bf16).sparse_2_4, Some(624e12));
        assert_eq!(row(ComputeDtype::Bf16).dense, Some(312e12), "dense stays the dense figure");
        assert_eq!(row(ComputeDtype::Fp8).dense, None, "A100 has no FP8 path");
        assert_eq!(row(ComputeDtype::Fp8).speedup_vs_fp32, None);
        assert_eq!(rows.len(), PATHS.len());
    }

    #[test]
    fn no_fp32_figure_means_no_speedup() {
        let mut g = a100();
        g.peak_flops.fp32 = Some(f64::NAN);
        assert!(peak_rows(&g).iter().all(|r| r.speedup_vs_fp32.is_none()));
    }
}

/// Where a kernel of a given arithmetic intensity sits on one GPU's roofline for one precision.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SpecPoint {
    /// The path whose dense peak applies (may differ from the one asked for, see
    /// [`Gpu::compute_path`]).
    pub path: ComputePath,
    /// Ridge point `F / B` in FLOP/byte.
    pub ridge: f64,
    /// `min(F, I · B)` in FLOP/s.
    pub attainable: f64,
    /// `I < F / B`: the kernel is limited by memory bandwidth.
    pub memory_bound: bool,
}

/// The dense peak for `dtype`, the ridge point and the attainable FLOP/s at `intensity`
/// (Williams et al. 2009). `None` when the GPU has no usable peak or the intensity is not a
/// finite non-negative number.
pub fn spec_point(gpu: &Gpu, dtype: ComputeDtype, intensity: f64) -> Option<SpecPoint> {
    use super::perf::roofline::{attainable_flops, gpu_ridge_point};
    let ridge = gpu_ridge_point(gpu, dtype)?;
    let attainable =
        attainable_flops(intensity, ridge.path.peak_flops_per_s, gpu.memory_bandwidth_bytes_per_s).ok()?;
    Some(SpecPoint {
        path: ridge.path,
        ridge: ridge.flop_per_byte,
        attainable,
        memory_bound: intensity < ridge.flop_per_byte,
    })
}

#[cfg(test)]
mod spec_tests {
    use super::*;
    use crate::engine::gpu::PeakFlops;

    #[test]
    fn l40s_bf16_at_one_flop_per_byte_is_memory_bound() {
        // 362.05e12 / 864e9 = 419.04 FLOP/byte; at I = 1, attainable = 1 × 864e9 FLOP/s.
        let g = Gpu {
            memory_bandwidth_bytes_per_s: 864e9,
            peak_flops: PeakFlops { bf16: Some(362.05e12), ..PeakFlops::default() },
            ..Gpu::default()
        };
        let p = spec_point(&g, ComputeDtype::Bf16, 1.0).unwrap();
        assert!((p.ridge - 419.039).abs() < 1e-3);
        assert_eq!(p.attainable, 864e9);
        assert!(p.memory_bound);
        let above = spec_point(&g, ComputeDtype::Bf16, 1000.0).unwrap();
        assert_eq!(above.attainable, 362.05e12);
        assert!(!above.memory_bound);
        assert_eq!(spec_point(&g, ComputeDtype::Bf16, f64::NAN), None);
        assert_eq!(spec_point(&g, ComputeDtype::Bf16, -1.0), None);
    }
}
