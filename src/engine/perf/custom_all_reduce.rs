//! The serving stacks' own all-reduce for tensor parallelism inside one node: vLLM's
//! `CustomAllreduce` (pull request #2192, 2023-12), which SGLang and TensorRT-LLM run in the same
//! form. Each GPU maps its peers' buffers over NVLink (or Infinity Fabric) and reduces in one
//! kernel, without NCCL's ring of `2(n−1)` steps, so a decode step's small all-reduces cost about
//! one synchronisation each instead of fourteen hops on 8 GPUs.
//!
//! # Formula
//! For `S` bytes over `n` GPUs on a link of `β` bytes/s per direction at bus efficiency `e`
//! (vLLM `csrc/custom_all_reduce.cuh`, `REDUCE_CASE`):
//! - one-shot, when `n = 2`, or `n ≤ 4` and `S < 512 KiB`, or `n ≤ 8` and `S < 256 KiB`: every
//!   GPU reads the other `n − 1` buffers and sums them, `t = α(n) + (n − 1)·S / (β·e)`;
//! - two-shot otherwise (reduce-scatter, then all-gather, both by direct reads),
//!   `t = 2·α(n) + 2(n − 1)/n · S / (β·e)`;
//! - only for `n` in {2, 4, 6, 8} GPUs that are all connected to each other, and `S` up to the
//!   buffer's 8 MiB (vLLM's default `max_size`); anything else goes to NCCL
//!   ([`super::collectives`]).
//!
//! The scenario's `custom_all_reduce` (default true) turns it off.
//!
//! `α(n)`, the fixed time of one call, is SGLang's measurement of its custom all-reduce on H100
//! at the smallest message (pull request #2904, 2025-01-15, 512 elements, without CUDA graphs):
//! 3.7, 4.8 and 5.9 µs on 2, 4 and 8 GPUs, linear in between. A cross-check, not a fit: an
//! 8×H200 SGLang profile of DeepSeek-R1 at 16 concurrent requests times its fused one-shot
//! all-reduce (with the residual add and RMSNorm) at 12.7 µs a call (SemiAnalysis InferenceX
//! issue #1004, 2026-04-05), where this model gives 10.3 µs for 16 tokens × 7,168 × 2 bytes.

use super::collectives::{collective_time_bound, CommTime};
use crate::engine::checked::{finite, non_negative, positive, PerfError};
use crate::engine::links::Link;

/// The largest message the custom all-reduce takes (vLLM's default buffer, 8 MiB).
pub const MAX_BYTES: f64 = 8.0 * 1024.0 * 1024.0;

/// `α(n)` at 2, 4 and 8 GPUs (SGLang pull request #2904, H100).
const LATENCY: [(f64, f64); 3] = [(2.0, 3.7e-6), (4.0, 4.8e-6), (8.0, 5.9e-6)];

/// `α(n)`: the measured points, linear between them. Worked: 6 GPUs → 5.35 µs.
pub fn latency_s(ranks: u32) -> f64 {
    let n = f64::from(ranks);
    let mut prev = LATENCY[0];
    for p in LATENCY {
        if n <= p.0 {
            let span = p.0 - prev.0;
            return if span > 0.0 { prev.1 + (p.1 - prev.1) * (n - prev.0) / span } else { p.1 };
        }
        prev = p;
    }
    prev.1
}

/// Whether one call of `bytes` over `ranks` GPUs runs the one-shot kernel (vLLM's rule).
pub fn one_shot(bytes: f64, ranks: u32) -> bool {
    const KIB: f64 = 1024.0;
    ranks == 2 || (ranks <= 4 && bytes < 512.0 * KIB) || (ranks <= 8 && bytes < 256.0 * KIB)
}

/// One custom all-reduce of `bytes` over `ranks` GPUs on `link`, or `None` where the stacks hand
/// it to NCCL (a group size other than 2, 4, 6 or 8, or a message over [`MAX_BYTES`]). Worked:
/// 229,376 bytes (16 tokens × 7,168 × 2) over 8 GPUs at 450 GB/s, e 0.82: one-shot,
/// 5.9 µs + 7 × 229,376 / 369 GB/s = 10.25 µs; NCCL's ring on the same link with α 2 µs takes
/// 29.1 µs.
pub fn time(bytes: f64, ranks: u32, link: &Link, bus_efficiency: f64) -> Result<Option<CommTime>, PerfError> {
    let s = non_negative("bytes", bytes)?;
    if !matches!(ranks, 2 | 4 | 6 | 8) || s > MAX_BYTES {
        return Ok(None);
    }
    let rate = positive("link.bytes_per_s_per_direction", link.bytes_per_s_per_direction)?
        * positive("bus_efficiency", bus_efficiency)?;
    let (n, alpha) = (f64::from(ranks), latency_s(ranks));
    let expected = if one_shot(s, ranks) {
        alpha + (n - 1.0) * s / rate
    } else {
        2.0 * alpha + 2.0 * (n - 1.0) / n * s / rate
    };
    Ok(Some(CommTime {
        expected_s: finite("custom all-reduce time", expected)?,
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
        assert_eq!(latency_s(2), 3.7e-6);
        assert_eq!(latency_s(8), 5.9e-6);
        assert!((latency_s(6) - 5.35e-6).abs() < 1e-12);
        assert!((latency_s(3) - 4.25e-6).abs() < 1e-12);
    }

    #[test]
    fn one_shot_follows_vllms_rule() {
        assert!(one_shot(4.0 * 1024.0 * 1024.0, 2));
        assert!(one_shot(300.0 * 1024.0, 4) && !one_shot(300.0 * 1024.0, 8));
        assert!(!one_shot(512.0 * 1024.0, 4));
    }

    /// The worked decode all-reduce, and what the stacks leave to NCCL.
    #[test]
    fn worked_decode_all_reduce() {
        let s = 16.0 * 7168.0 * 2.0;
        let t = time(s, 8, &NVLINK4, 0.82).unwrap().unwrap();
        assert!((t.expected_s - (5.9e-6 + 7.0 * s / (450e9 * 0.82))).abs() < 1e-12);
        assert!((t.expected_s * 1e6 - 10.25).abs() < 0.01, "{}", t.expected_s);
        let ring = collective_time(Collective::AllReduce, Algorithm::Ring, s, 8, &NVLINK4, 0.82).unwrap();
        assert!((ring * 1e6 - 29.09).abs() < 0.01, "{ring}");
        // Two-shot past 256 KiB on 8 GPUs.
        let big = 1024.0 * 1024.0;
        let two = time(big, 8, &NVLINK4, 0.82).unwrap().unwrap();
        assert!((two.expected_s - (2.0 * 5.9e-6 + 1.75 * big / (450e9 * 0.82))).abs() < 1e-12);
        // NCCL's: 16 GPUs, 3 GPUs, more than 8 MiB.
        assert_eq!(time(s, 16, &NVLINK4, 0.82).unwrap(), None);
        assert_eq!(time(s, 3, &NVLINK4, 0.82).unwrap(), None);
        assert_eq!(time(MAX_BYTES + 1.0, 8, &NVLINK4, 0.82).unwrap(), None);
    }

    /// Never below the bound, at every size either kernel runs.
    #[test]
    fn stays_above_the_bound() {
        for ranks in [2, 4, 6, 8] {
            for s in [0.0, 1e3, 1e5, 3e5, 6e5, 2e6, MAX_BYTES] {
                let t = time(s, ranks, &NVLINK4, 1.0).unwrap().unwrap();
                assert!(t.expected_s >= t.bound_s, "{ranks} {s}");
            }
        }
    }
}
