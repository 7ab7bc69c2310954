//! All-reduce time against message size, for the cluster chapter's chart: the engine's
//! hierarchical collective model ([`hierarchical_time`]) evaluated over a range of sizes, and
//! the nccl-tests bandwidths at one size.
//!
//! # Formula
//! One node (`n ≤ g`): `t = 2(n−1)·α + S · 2(n−1)/n / (β · e)`. Across nodes: intra-node
//! reduce-scatter + inter-node all-reduce of `S/g` + intra-node all-gather.
//! `algbw = S / t`, `busbw = algbw · 2(n−1)/n` (nccl-tests).

use super::checked::PerfError;
use super::efficiency::Efficiency;
use super::links::Topology;
use super::perf::collectives::{busbw, hierarchical_time, Algorithm, Collective, CommTime};

/// Message sizes from `lo` to `hi` bytes, `per_decade` points per factor of ten, both ends
/// included. Empty when the range is not finite and positive.
pub fn message_sizes(lo: f64, hi: f64, per_decade: u32) -> Vec<f64> {
    if !(lo.is_finite() && hi.is_finite() && lo > 0.0 && hi >= lo) || per_decade == 0 {
        return Vec::new();
    }
    let step = 10f64.powf(1.0 / f64::from(per_decade));
    let mut out = Vec::new();
    let mut s = lo;
    while s < hi * (1.0 - 1e-9) && out.len() < 1000 {
        out.push(s);
        s *= step;
    }
    out.push(hi);
    out
}

/// One point of the all-reduce curve.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct AllReducePoint {
    pub bytes: f64,
    pub time: CommTime,
    /// `S / t_expected` (0 for one rank).
    pub algbw: f64,
    /// `algbw · 2(n−1)/n`.
    pub busbw: f64,
}

/// All-reduce (ring) of `bytes` over `ranks` GPUs on `topology`.
pub fn all_reduce(
    bytes: f64,
    ranks: u32,
    topology: &Topology,
    eff: &Efficiency,
) -> Result<AllReducePoint, PerfError> {
    let time = hierarchical_time(Collective::AllReduce, Algorithm::Ring, bytes, ranks, topology, eff)?;
    let algbw = if time.expected_s > 0.0 { bytes / time.expected_s } else { 0.0 };
    Ok(AllReducePoint { bytes, time, algbw, busbw: busbw(Collective::AllReduce, ranks, algbw) })
}

/// [`all_reduce`] at every size; the first error stops it.
pub fn all_reduce_curve(
    sizes: &[f64],
    ranks: u32,
    topology: &Topology,
    eff: &Efficiency,
) -> Result<Vec<AllReducePoint>, PerfError> {
    sizes.iter().map(|&s| all_reduce(s, ranks, topology, eff)).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::links::Link;

    fn nvswitch_ib() -> Topology {
        Topology {
            gpus_per_node: 8,
            intra_node: Link { bytes_per_s_per_direction: 450e9, latency_s: 2e-6 },
            inter_node: Some(Link { bytes_per_s_per_direction: 50e9, latency_s: 5e-6 }),
        }
    }

    #[test]
    fn one_gigabyte_in_one_node_and_across_two() {
        let eff = Efficiency::default(); // bus efficiency 0.75 both ways
                                         // 8 ranks, one node: 14 × 2 µs + 1e9 × 1.75 / (450e9 × 0.75) = 28 µs + 5.1852 ms.
        let p = all_reduce(1e9, 8, &nvswitch_ib(), &eff).unwrap();
        assert!((p.time.expected_s - 5.2132e-3).abs() < 1e-7);
        assert!((p.algbw - 1e9 / 5.2132e-3).abs() / p.algbw < 1e-4);
        assert!((p.busbw - p.algbw * 1.75).abs() < 1.0);
        // 16 ranks, two nodes: reduce-scatter 7 × 2 µs + 1e9 × 0.875 / 337.5e9 = 2.6066 ms,
        // all-reduce of 125 MB over 2 nodes 2 × 5 µs + 1.25e8 / 37.5e9 = 3.3433 ms,
        // all-gather = reduce-scatter: 8.5565 ms in all.
        let p = all_reduce(1e9, 16, &nvswitch_ib(), &eff).unwrap();
        assert!((p.time.expected_s - 8.5565e-3).abs() < 1e-6, "{}", p.time.expected_s);
        assert_eq!(all_reduce(1e9, 1, &nvswitch_ib(), &eff).unwrap().algbw, 0.0);
    }

    #[test]
    fn sizes_span_the_range_and_time_grows_with_size() {
        let s = message_sizes(1e3, 1e9, 2);
        assert_eq!(s.len(), 13);
        assert_eq!(s.first(), Some(&1e3));
        assert_eq!(s.last(), Some(&1e9));
        assert!(message_sizes(0.0, 1.0, 2).is_empty());
        assert!(message_sizes(2.0, 1.0, 2).is_empty());
        let c = all_reduce_curve(&s, 16, &nvswitch_ib(), &Efficiency::default()).unwrap();
        assert!(c.windows(2).all(|w| w[1].time.expected_s > w[0].time.expected_s));
        assert!(c.iter().all(|p| p.time.bound_s <= p.time.expected_s));
        let one_node = Topology { inter_node: None, ..nvswitch_ib() };
        assert!(all_reduce_curve(&s, 16, &one_node, &Efficiency::default()).is_err());
    }
}
