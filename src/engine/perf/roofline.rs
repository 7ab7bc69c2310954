//! Roofline model (Williams, Waterman, Patterson, "Roofline: an insightful visual performance
//! model", CACM 2009) and the article's bound `T = max(W/F, Q/B, C/N) + T_overhead`.

use crate::engine::bound::Term;
use crate::engine::checked::{finite, non_negative, positive, PerfError};
use crate::engine::gpu::Gpu;
use crate::engine::precision::compute::{ComputeDtype, ComputePath};
use serde::{Deserialize, Serialize};

/// Arithmetic intensity `I = W / Q` in FLOP per byte of memory traffic.
/// Source: Williams et al. 2009. Zero bytes is an error (intensity undefined).
pub fn arithmetic_intensity(flops: f64, bytes: f64) -> Result<f64, PerfError> {
    let w = non_negative("flops", flops)?;
    let q = positive("bytes", bytes)?;
    finite("arithmetic intensity", w / q)
}

/// Ridge point `I* = F / B` (FLOP/byte): kernels with intensity below it are memory-bound,
/// above it compute-bound. Source: Williams et al. 2009.
/// Worked: H100 SXM BF16 989.5e12 / 3.35e12 = 295.4 FLOP/byte.
pub fn ridge_point(peak_flops_per_s: f64, bandwidth_bytes_per_s: f64) -> Result<f64, PerfError> {
    let f = positive("peak_flops_per_s", peak_flops_per_s)?;
    let b = positive("bandwidth_bytes_per_s", bandwidth_bytes_per_s)?;
    finite("ridge point", f / b)
}

/// The ridge point of a GPU for a dtype, with the Tensor Core path that applies.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct GpuRidgePoint {
    pub path: ComputePath,
    pub flop_per_byte: f64,
}

/// Ridge point of `gpu` for `dtype` using its dense peak for that path (TF32, BF16/FP16, FP8,
/// INT8, ...) and its peak HBM bandwidth. `None` when the GPU has no usable peak.
pub fn gpu_ridge_point(gpu: &Gpu, dtype: ComputeDtype) -> Option<GpuRidgePoint> {
    let path = gpu.compute_path(dtype)?;
    let flop_per_byte = ridge_point(path.peak_flops_per_s, gpu.memory_bandwidth_bytes_per_s).ok()?;
    Some(GpuRidgePoint { path, flop_per_byte })
}

/// Attainable FLOP/s at intensity `I`: `min(F, I · B)`. Source: Williams et al. 2009.
pub fn attainable_flops(
    intensity: f64,
    peak_flops_per_s: f64,
    bandwidth_bytes_per_s: f64,
) -> Result<f64, PerfError> {
    let i = non_negative("intensity", intensity)?;
    let f = positive("peak_flops_per_s", peak_flops_per_s)?;
    let b = positive("bandwidth_bytes_per_s", bandwidth_bytes_per_s)?;
    Ok(f.min(finite("intensity × bandwidth", i * b)?))
}

/// The article's bound with every term kept, so a view can show which one dominates.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct BoundTime {
    /// `W / F`
    pub compute_s: f64,
    /// `Q / B`
    pub memory_s: f64,
    /// `C / N` (plus collective latencies in the expected model)
    pub communication_s: f64,
    /// `T_overhead`: kernel launches, scheduling, exposed communication.
    pub overhead_s: f64,
    /// `T_host`: partial offload's CPU and PCIe seconds, which run one after the GPU's work
    /// (the layers are in sequence); 0 when the model is all on the GPU.
    #[serde(default)]
    pub host_s: f64,
    /// `max(compute, memory, communication) + overhead + host`
    pub total_s: f64,
    /// The largest of the four terms ([`dominant_term`]).
    pub dominant: Term,
    /// Largest term / second largest; `None` when the others are zero.
    pub dominance_ratio: Option<f64>,
}

impl BoundTime {
    /// The largest term and its ratio to the next (the one definition, [`dominant_term`]).
    pub fn dominant(&self) -> (Term, Option<f64>) {
        dominant_of([
            (self.compute_s, Term::Compute),
            (self.memory_s, Term::Memory),
            (self.communication_s, Term::Communication),
            (self.overhead_s, Term::Overhead),
            (self.host_s, Term::Host),
        ])
    }

    /// This time with `host_s` more seconds in sequence (partial offload's host part).
    pub fn plus_host(mut self, host_s: f64) -> BoundTime {
        let h = if host_s.is_finite() { host_s.max(0.0) } else { 0.0 };
        self.host_s += h;
        self.total_s += h;
        (self.dominant, self.dominance_ratio) = self.dominant();
        self
    }
}

/// The largest of the terms (ties go to the earlier one) and its ratio to the next: one pass
/// keeping the largest and the second largest (what a stable sort by size would put first).
fn dominant_of<const N: usize>(v: [(f64, Term); N]) -> (Term, Option<f64>) {
    let mut first: Option<(f64, Term)> = None;
    let mut second = 0.0f64;
    for (t, term) in v {
        match first {
            Some((f, _)) if t.total_cmp(&f).is_le() => {
                if t.total_cmp(&second).is_gt() {
                    second = t;
                }
            }
            _ => {
                if let Some((f, _)) = first {
                    second = f;
                }
                first = Some((t, term));
            }
        }
    }
    let (top, term) = first.unwrap_or((0.0, Term::Compute));
    (term, (second > 0.0).then(|| top / second).filter(|r| r.is_finite()))
}

/// The dominant term: the largest of compute, memory, communication and overhead (ties go to
/// the earlier one in that order), with its ratio to the second largest (`None` when the
/// others are zero). Every "what dominates" in the report and the charts uses this.
pub fn dominant_term(
    compute_s: f64,
    memory_s: f64,
    communication_s: f64,
    overhead_s: f64,
) -> (Term, Option<f64>) {
    dominant_of([
        (compute_s, Term::Compute),
        (memory_s, Term::Memory),
        (communication_s, Term::Communication),
        (overhead_s, Term::Overhead),
    ])
}

/// `T = max(W/F, Q/B, C/N) + T_overhead` from the four times (seconds, each >= 0).
/// Source: the article (source/*.txt), which takes the three resources as fully overlapped.
pub fn bound_time(
    compute_s: f64,
    memory_s: f64,
    communication_s: f64,
    overhead_s: f64,
) -> Result<BoundTime, PerfError> {
    let c = non_negative("compute_s", compute_s)?;
    let m = non_negative("memory_s", memory_s)?;
    let n = non_negative("communication_s", communication_s)?;
    let o = non_negative("overhead_s", overhead_s)?;
    let (dominant, dominance_ratio) = dominant_term(c, m, n, o);
    let total = c.max(m).max(n);
    Ok(BoundTime {
        compute_s: c,
        memory_s: m,
        communication_s: n,
        overhead_s: o,
        host_s: 0.0,
        total_s: finite("total time", total + o)?,
        dominant,
        dominance_ratio,
    })
}

/// Expected time when communication sits on the critical path (tensor- and expert-parallel
/// collectives wait for the layer before them in common frameworks):
/// `T = max(W/F_eff, Q/B_eff) + C_exposed + T_overhead`. The article's `max` form is the
/// fully overlapped limit used by [`bound_time`]; `dominant` still names the largest term.
pub fn expected_time(
    compute_s: f64,
    memory_s: f64,
    exposed_communication_s: f64,
    overhead_s: f64,
) -> Result<BoundTime, PerfError> {
    let mut t = bound_time(compute_s, memory_s, exposed_communication_s, overhead_s)?;
    t.total_s = finite("total time", compute_s.max(memory_s) + exposed_communication_s + overhead_s)?;
    Ok(t)
}

/// `W / F` with checks: seconds to do `flops` at `flops_per_s`.
pub fn compute_time(flops: f64, flops_per_s: f64) -> Result<f64, PerfError> {
    finite("compute time", non_negative("flops", flops)? / positive("flops_per_s", flops_per_s)?)
}

/// `Q / B` with checks: seconds to move `bytes` at `bytes_per_s`.
pub fn memory_time(bytes: f64, bytes_per_s: f64) -> Result<f64, PerfError> {
    finite("memory time", non_negative("bytes", bytes)? / positive("bytes_per_s", bytes_per_s)?)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::catalog::gpus::find;

    /// FLOPs and bytes of `y = x·Wᵀ` with W 4096×1024, x batch×1024, all BF16 (2 bytes).
    fn linear(batch: f64) -> (f64, f64) {
        let (n, k) = (4096.0, 1024.0);
        let flops = 2.0 * batch * n * k;
        let bytes = 2.0 * (n * k + batch * k + batch * n);
        (flops, bytes)
    }

    #[test]
    fn h100_bf16_ridge_point_near_295() {
        let r = gpu_ridge_point(find("h100-sxm").unwrap(), ComputeDtype::Bf16).unwrap();
        assert!((r.flop_per_byte - 295.4).abs() < 0.1, "{}", r.flop_per_byte);
        assert_eq!(r.path.used, ComputeDtype::Bf16);
    }

    #[test]
    fn linear_layer_on_a100_bf16() {
        let a100 = find("a100-sxm-80gb").unwrap();
        let ridge = gpu_ridge_point(a100, ComputeDtype::Bf16).unwrap().flop_per_byte; // 153.0
        assert!((ridge - 153.0).abs() < 0.1);
        // Batch 512: 4.295e9 FLOP over 13.63e6 bytes = 315 FLOP/byte > 153: compute-bound.
        let (w, q) = linear(512.0);
        let i = arithmetic_intensity(w, q).unwrap();
        assert!((i - 315.1).abs() < 0.1, "{i}");
        let peak = a100.peak_flops.bf16.unwrap();
        let bw = a100.memory_bandwidth_bytes_per_s;
        let t = bound_time(compute_time(w, peak).unwrap(), memory_time(q, bw).unwrap(), 0.0, 0.0).unwrap();
        assert_eq!(t.dominant, Term::Compute);
        assert!((t.dominance_ratio.unwrap() - i / ridge).abs() < 1e-9);
        // Batch 1: 8.4e6 FLOP over 8.4e6 bytes ≈ 1 FLOP/byte: memory-bound, ~153× away.
        let (w, q) = linear(1.0);
        let i = arithmetic_intensity(w, q).unwrap();
        assert!((i - 0.998).abs() < 0.01);
        let t = bound_time(compute_time(w, peak).unwrap(), memory_time(q, bw).unwrap(), 0.0, 0.0).unwrap();
        assert_eq!(t.dominant, Term::Memory);
        assert!((t.dominance_ratio.unwrap() - 153.3).abs() < 1.0);
        assert!((attainable_flops(i, peak, bw).unwrap() - i * bw).abs() < 1.0);
    }

    #[test]
    fn bound_adds_overhead_and_rejects_bad_input() {
        let t = bound_time(1.0, 2.0, 0.5, 0.25).unwrap();
        assert_eq!(t.total_s, 2.25);
        assert_eq!(t.dominant, Term::Memory);
        assert_eq!(t.dominance_ratio, Some(2.0));
        assert_eq!(bound_time(0.0, 0.0, 0.0, 1.0).unwrap().dominant, Term::Overhead);
        assert!(bound_time(f64::NAN, 0.0, 0.0, 0.0).is_err());
        assert!(ridge_point(1.0, 0.0).is_err());
        assert!(arithmetic_intensity(1.0, 0.0).is_err());
        assert!(compute_time(1e300, 1e-300).is_err());
    }
}
