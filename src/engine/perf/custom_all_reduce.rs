//! The serving stacks' own all-reduce for tensor parallelism inside one node: vLLM's
//! `CustomAllreduce` (pull request #2192, merged 2024-01), and the TensorRT-LLM kernels SGLang
//! runs. Each GPU maps its peers' buffers over NVLink (or Infinity Fabric) and reduces in one
//! kernel, without NCCL's ring of `2(n−1)` steps, so a decode step's small all-reduces cost about
//! one synchronisation each instead of fourteen hops on 8 GPUs. vLLM's rule below is its
//! kernel's own (later vLLM versions hand large messages on Hopper to symmetric memory instead);
//! SGLang and TensorRT-LLM choose by their own rules, taken here as vLLM's.
//!
//! # Formula
//! For `S` bytes over `n` GPUs on a link of `β` bytes/s per direction, at the kernels' share `e`
//! of it (vLLM `csrc/custom_all_reduce.cuh`, `REDUCE_CASE`):
//! - one-shot, when `n = 2`, or `n ≤ 4` and `S < 512 KiB`, or `n ≤ 8` and `S < 256 KiB`: every
//!   GPU reads the other `n − 1` buffers and sums them, `t = α(n) + (n − 1)·S / (β·e)`;
//! - two-shot otherwise (reduce-scatter, then all-gather, both by direct reads),
//!   `t = 2·α(n) + 2(n − 1)/n · S / (β·e)`;
//! - only for `n` in {2, 4, 6, 8} GPUs that are all connected to each other, and `S` below the
//!   buffer's 8 MiB (vLLM's default `max_size`); anything else goes to NCCL
//!   ([`super::collectives`]).
//!
//! The scenario's `custom_all_reduce` (default true) turns it off.
//!
//! `α(n)` and the share `e` of the link's rate are fitted to SGLang's measurement of both
//! kernel families on H100 (pull request #2904, 2025-01-15, without CUDA graphs; its "data size"
//! read as bf16 elements): vLLM's kernel 9.5, 9.1, 10.1 µs and SGLang's (TensorRT-LLM's
//! kernels, which TensorRT-LLM runs too) 3.7, 4.8, 5.9 µs on 2, 4, 8 GPUs at the smallest
//! message, linear in between; `e` 0.34 fitted over all 36 points (each within 20%: vLLM's 8 GPUs
//! at 2 MiB 45.0 µs measured, 44.2 modelled). A cross-check, not a fit: an 8×H200 SGLang v0.5.9
//! profile of DeepSeek-R1 at 16 users times its newer fused one-shot all-reduce (FlashInfer's,
//! with the residual add and RMSNorm) at 12.7 µs a call (SemiAnalysis InferenceX issue #1004,
//! 2026-04-05), where this model gives 16.7 µs for 16 tokens × 7,168 × 2 bytes: newer kernels run
//! faster than the 2025 ones measured. Both are estimates for other GPUs.

use super::collectives::{collective_time_bound, CommTime};
use crate::engine::checked::{finite, non_negative, PerfError};
use crate::engine::links::Link;
pub use crate::engine::stack::AllReduceKernels as Kernels;

/// The largest message the custom all-reduce takes: vLLM's default buffer, 8 MiB, for messages
/// strictly smaller (`should_custom_ar`: `inp_size < max_size`).
pub const MAX_BYTES: f64 = 8.0 * 1024.0 * 1024.0;

/// The share of the link's per-direction rate the kernels reach (fitted, see the module).
pub const BANDWIDTH_SHARE: f64 = 0.34;

/// Whether one call of `bytes` over `ranks` GPUs runs the one-shot kernel (vLLM's rule).
pub fn one_shot(bytes: f64, ranks: u32) -> bool {
    const KIB: f64 = 1024.0;
    ranks == 2 || (ranks <= 4 && bytes < 512.0 * KIB) || (ranks <= 8 && bytes < 256.0 * KIB)
}

/// One custom all-reduce of `bytes` over `ranks` GPUs on `link`, or `None` where the stacks hand
/// it to NCCL (a group size other than 2, 4, 6 or 8, or a message of [`MAX_BYTES`] or more).
/// Worked: 229,376 bytes (16 tokens × 7,168 × 2) over 8 GPUs at 450 GB/s, SGLang's kernels:
/// one-shot, 5.9 µs + 7 × 229,376 / (0.34 × 450 GB/s) = 16.39 µs; vLLM's 20.59 µs; NCCL's ring
/// on the same link with α 2 µs and e 0.75 takes 29.19 µs.
pub fn time(bytes: f64, ranks: u32, link: &Link, kernels: Kernels) -> Result<Option<CommTime>, PerfError> {
    let s = non_negative("bytes", bytes)?;
    if !matches!(ranks, 2 | 4 | 6 | 8) || s >= MAX_BYTES || link.bytes_per_s_per_direction <= 0.0 {
        return Ok(None);
    }
    let rate = link.bytes_per_s_per_direction * BANDWIDTH_SHARE;
    let (n, alpha) = (f64::from(ranks), kernels.latency_s(ranks));
    let expected = if one_shot(s, ranks) {
        alpha + (n - 1.0) * s / rate
    } else {
        2.0 * alpha + 2.0 * (n - 1.0) / n * s / rate
    };
    Ok(Some(CommTime {
        expected_s: finite("collective time", expected)?,
        bound_s: collective_time_bound(s, ranks, link)?,
    }))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::perf::collectives::{collective_time, Algorithm, Collective};

    const NVLINK4: Link = Link { bytes_per_s_per_direction: 450e9, latency_s: 2e-6 };

    #[test]
    fn latency_follows_the_measured_points() {
        assert_eq!(Kernels::Trtllm.latency_s(2), 3.7e-6);
        assert_eq!(Kernels::Vllm.latency_s(8), 10.1e-6);
        assert!((Kernels::Trtllm.latency_s(6) - 5.35e-6).abs() < 1e-12);
        assert!((Kernels::Vllm.latency_s(6) - 9.6e-6).abs() < 1e-12);
    }

    #[test]
    fn one_shot_follows_vllms_rule() {
        assert!(one_shot(4.0 * 1024.0 * 1024.0, 2));
        assert!(one_shot(300.0 * 1024.0, 4) && !one_shot(300.0 * 1024.0, 8));
        assert!(!one_shot(512.0 * 1024.0, 4));
    }

    /// The worked decode all-reduce, the table's largest point, and what the stacks leave to
    /// NCCL.
    #[test]
    fn worked_all_reduces() {
        let s = 16.0 * 7168.0 * 2.0;
        let t = time(s, 8, &NVLINK4, Kernels::Trtllm).unwrap().unwrap();
        assert!((t.expected_s * 1e6 - 16.39).abs() < 0.01, "{}", t.expected_s);
        let v = time(s, 8, &NVLINK4, Kernels::Vllm).unwrap().unwrap();
        assert!((v.expected_s * 1e6 - 20.59).abs() < 0.01, "{}", v.expected_s);
        let ring = collective_time(Collective::AllReduce, Algorithm::Ring, s, 8, &NVLINK4, 0.75).unwrap();
        assert!((ring * 1e6 - 29.19).abs() < 0.01, "{ring}");
        // vLLM's 8 GPUs at 1,048,576 bf16 elements (2 MiB): two-shot, 44.2 µs (45.0 measured).
        let big = time(2.0 * 1_048_576.0, 8, &NVLINK4, Kernels::Vllm).unwrap().unwrap();
        assert!((big.expected_s * 1e6 - 44.18).abs() < 0.01, "{}", big.expected_s);
        // NCCL's: 16 GPUs, 3 GPUs, 8 MiB and more.
        assert_eq!(time(s, 16, &NVLINK4, Kernels::Vllm).unwrap(), None);
        assert_eq!(time(s, 3, &NVLINK4, Kernels::Vllm).unwrap(), None);
        assert_eq!(time(MAX_BYTES, 8, &NVLINK4, Kernels::Vllm).unwrap(), None);
    }

    /// Never below the bound, at every size either kernel runs.
    #[test]
    fn stays_above_the_bound() {
        for kernels in [Kernels::Vllm, Kernels::Trtllm] {
            for ranks in [2, 4, 6, 8] {
                for s in [0.0, 1e3, 1e5, 3e5, 6e5, 2e6, MAX_BYTES - 1.0] {
                    let t = time(s, ranks, &NVLINK4, kernels).unwrap().unwrap();
                    assert!(t.expected_s >= t.bound_s, "{ranks} {s}");
                }
            }
        }
    }
}
