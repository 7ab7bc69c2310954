//! Collective communication time: all-reduce, all-gather, reduce-scatter, all-to-all.
//!
//! Conventions follow nccl-tests (github.com/NVIDIA/nccl-tests, doc/PERFORMANCE.md):
//! `algbw = S / t`; `busbw = algbw × 2(n-1)/n` for all-reduce and `× (n-1)/n` for
//! all-gather, reduce-scatter and all-to-all, where S is the buffer size and n the ranks.
//! busbw is comparable to the per-direction bandwidth of the slowest link, so the expected
//! time is the α-β (latency-bandwidth, Hockney) model
//! `t = steps × α + S × factor / (β × efficiency)`.
//! The bound uses `S × (n-1)/n / β` with no latency for every collective: in-network reduction
//! (NVLink SHARP, IB SHARP) lets all-reduce beat the ring's `2(n-1)/n` (8x H200 NVLS measured
//! busbw 480 GB/s over a 450 GB/s link), so only the `(n-1)/n` floor is a true lower bound.

use crate::engine::checked::{finite, non_negative, positive, PerfError};
use crate::engine::efficiency::Efficiency;
use crate::engine::links::{Link, Topology};
use serde::{Deserialize, Serialize};

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Collective {
    AllReduce,
    AllGather,
    ReduceScatter,
    AllToAll,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Algorithm {
    /// Ring: bandwidth-optimal, latency grows linearly with ranks.
    Ring,
    /// (Double binary) tree: same bandwidth term in NCCL, latency grows with log2(ranks).
    /// Applies to all-reduce only; other collectives use the ring.
    Tree,
}

/// nccl-tests bus-bandwidth factor: `2(n-1)/n` for all-reduce, `(n-1)/n` otherwise; 0 for n <= 1.
/// Worked: all-reduce on 8 ranks = 1.75; all-gather on 8 ranks = 0.875.
pub fn bus_factor(collective: Collective, ranks: u32) -> f64 {
    if ranks <= 1 {
        return 0.0;
    }
    let n = f64::from(ranks);
    let one_way = (n - 1.0) / n;
    match collective {
        Collective::AllReduce => 2.0 * one_way,
        _ => one_way,
    }
}

/// nccl-tests algorithm bandwidth `algbw = S / t` (bytes/s).
pub fn algbw(bytes: f64, seconds: f64) -> Result<f64, PerfError> {
    finite("algbw", non_negative("bytes", bytes)? / positive("seconds", seconds)?)
}

/// nccl-tests bus bandwidth `busbw = algbw × bus_factor`.
/// Worked: 8 GB all-reduce in 60.45 ms on 8 ranks: algbw 132.3 GB/s, busbw 231.6 GB/s.
pub fn busbw(collective: Collective, ranks: u32, algbw: f64) -> f64 {
    algbw * bus_factor(collective, ranks)
}

/// Latency steps α is paid: ring all-reduce `2(n-1)`, ring others `n-1`, tree all-reduce
/// `2·ceil(log2 n)` (reduce up, broadcast down). Source: Thakur, Rabenseifner, Gropp,
/// "Optimization of collective communication operations in MPICH", IJHPCA 2005.
pub fn latency_steps(collective: Collective, algorithm: Algorithm, ranks: u32) -> f64 {
    if ranks <= 1 {
        return 0.0;
    }
    let n = f64::from(ranks);
    match (collective, algorithm) {
        (Collective::AllReduce, Algorithm::Tree) => 2.0 * n.log2().ceil(),
        (Collective::AllReduce, Algorithm::Ring) => 2.0 * (n - 1.0),
        _ => n - 1.0,
    }
}

/// Expected time of one collective over a flat group on one kind of link:
/// `t = steps × α + S × bus_factor / (β × efficiency)`. Zero for one rank.
/// Worked: 1 GB all-reduce, 8 ranks, β = 300 GB/s, eff 0.75, α = 0: 1.75e9/225e9 = 7.78 ms.
pub fn collective_time(
    collective: Collective,
    algorithm: Algorithm,
    bytes: f64,
    ranks: u32,
    link: &Link,
    bus_efficiency: f64,
) -> Result<f64, PerfError> {
    let s = non_negative("bytes", bytes)?;
    if ranks <= 1 {
        return Ok(0.0);
    }
    let beta = positive("link.bytes_per_s_per_direction", link.bytes_per_s_per_direction)?;
    let alpha = non_negative("link.latency_s", link.latency_s)?;
    let eff = positive("bus_efficiency", bus_efficiency)?;
    let t = latency_steps(collective, algorithm, ranks) * alpha
        + s * bus_factor(collective, ranks) / (beta * eff);
    finite("collective time", t)
}

/// Lower bound on a collective's time: `S × (n-1)/n / β`, no latency, peak link rate.
pub fn collective_time_bound(bytes: f64, ranks: u32, link: &Link) -> Result<f64, PerfError> {
    let s = non_negative("bytes", bytes)?;
    if ranks <= 1 {
        return Ok(0.0);
    }
    let beta = positive("link.bytes_per_s_per_direction", link.bytes_per_s_per_direction)?;
    finite("collective bound", s * bus_factor(Collective::AllGather, ranks) / beta)
}

/// Expected and bound time of one collective.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct CommTime {
    pub expected_s: f64,
    pub bound_s: f64,
}

/// A collective over `ranks` GPUs on `topology`, composed hierarchically across nodes:
/// all-reduce = intra reduce-scatter + inter all-reduce of S/g + intra all-gather (as NCCL's
/// tree/ring across nodes and Horovod's hierarchical all-reduce); all-gather and
/// reduce-scatter = inter on S/g + intra on S; all-to-all sends (g-1)/n of S over the
/// intra-node link and (n-g)/n over the NIC. `ranks` beyond one node needs `inter_node`.
pub fn hierarchical_time(
    collective: Collective,
    algorithm: Algorithm,
    bytes: f64,
    ranks: u32,
    topology: &Topology,
    eff: &Efficiency,
) -> Result<CommTime, PerfError> {
    let g = topology.gpus_per_node.max(1);
    let intra = &topology.intra_node;
    let (ei, ee) = (eff.intra_node_bus_bandwidth, eff.inter_node_bus_bandwidth);
    if ranks <= g {
        return Ok(CommTime {
            expected_s: collective_time(collective, algorithm, bytes, ranks, intra, ei)?,
            bound_s: collective_time_bound(bytes, ranks, intra)?,
        });
    }
    let Some(inter) = topology.inter_node.as_ref() else {
        return Err(PerfError::OutOfRange {
            field: "ranks",
            value: f64::from(ranks),
            min: 1.0,
            max: f64::from(g),
        });
    };
    let s = non_negative("bytes", bytes)?;
    let nodes = ranks.div_ceil(g);
    let shard = s / f64::from(g);
    let bound_s = if collective == Collective::AllToAll {
        let n = f64::from(ranks);
        let on_node =
            s * f64::from(g - 1) / n / positive("intra_node bandwidth", intra.bytes_per_s_per_direction)?;
        let off_node =
            s * (n - f64::from(g)) / n / positive("inter_node bandwidth", inter.bytes_per_s_per_direction)?;
        finite("collective bound", on_node.max(off_node))?
    } else {
        collective_time_bound(s, g, intra)?.max(collective_time_bound(shard, nodes, inter)?)
    };
    let expected_s = match collective {
        Collective::AllReduce => {
            collective_time(Collective::ReduceScatter, Algorithm::Ring, s, g, intra, ei)?
                + collective_time(Collective::AllReduce, algorithm, shard, nodes, inter, ee)?
                + collective_time(Collective::AllGather, Algorithm::Ring, s, g, intra, ei)?
        }
        Collective::AllGather | Collective::ReduceScatter => {
            collective_time(collective, Algorithm::Ring, shard, nodes, inter, ee)?
                + collective_time(collective, Algorithm::Ring, s, g, intra, ei)?
        }
        Collective::AllToAll => {
            let n = f64::from(ranks);
            let on_node = s * f64::from(g - 1) / n;
            let off_node = s * (n - f64::from(g)) / n;
            (n - 1.0) * intra.latency_s.max(inter.latency_s)
                + on_node / (positive("intra_node bandwidth", intra.bytes_per_s_per_direction)? * ei)
                + off_node / (positive("inter_node bandwidth", inter.bytes_per_s_per_direction)? * ee)
        }
    };
    Ok(CommTime { expected_s: finite("collective time", expected_s)?, bound_s })
}

#[cfg(test)]
mod tests {
    use super::*;

    const NVLINK3: Link = Link { bytes_per_s_per_direction: 300e9, latency_s: 0.0 };

    #[test]
    fn nccl_tests_bus_factors() {
        assert_eq!(bus_factor(Collective::AllReduce, 8), 1.75);
        assert_eq!(bus_factor(Collective::AllGather, 8), 0.875);
        assert_eq!(bus_factor(Collective::ReduceScatter, 2), 0.5);
        assert_eq!(bus_factor(Collective::AllToAll, 4), 0.75);
        assert_eq!(bus_factor(Collective::AllReduce, 1), 0.0);
        // Azure ND A100 v4: 8 GB all-reduce, busbw 231.58 GB/s => t = 8e9 × 1.75 / 231.58e9.
        let t = 8e9 * 1.75 / 231.58e9;
        let a = algbw(8e9, t).unwrap();
        assert!((busbw(Collective::AllReduce, 8, a) - 231.58e9).abs() < 1e3);
    }

    #[test]
    fn ring_time_matches_busbw_convention() {
        let t = collective_time(Collective::AllReduce, Algorithm::Ring, 1e9, 8, &NVLINK3, 0.75).unwrap();
        assert!((t - 7.777_777e-3).abs() < 1e-8, "{t}");
        // busbw of that run equals link rate × efficiency.
        let bw = busbw(Collective::AllReduce, 8, algbw(1e9, t).unwrap());
        assert!((bw - 225e9).abs() < 1.0);
        // Latency: tree pays 2·log2(8) = 6 steps, ring 14.
        let l = Link { bytes_per_s_per_direction: 300e9, latency_s: 1e-6 };
        let ring = collective_time(Collective::AllReduce, Algorithm::Ring, 0.0, 8, &l, 1.0).unwrap();
        let tree = collective_time(Collective::AllReduce, Algorithm::Tree, 0.0, 8, &l, 1.0).unwrap();
        assert!((ring - 14e-6).abs() < 1e-15 && (tree - 6e-6).abs() < 1e-15);
        assert_eq!(collective_time(Collective::AllReduce, Algorithm::Ring, 1e9, 1, &l, 1.0).unwrap(), 0.0);
    }

    #[test]
    fn bound_allows_in_network_reduction() {
        // 8x H200 NVLS: 8 GB at measured busbw 479.98 GB/s (algbw 274.3 GB/s) on a 450 GB/s link.
        let measured = 8e9 / (479.98e9 / 1.75);
        let link = Link { bytes_per_s_per_direction: 450e9, latency_s: 0.0 };
        let bound = collective_time_bound(8e9, 8, &link).unwrap();
        assert!(bound < measured, "bound {bound} measured {measured}");
    }

    #[test]
    fn hierarchical_all_reduce_over_two_nodes() {
        let topo = Topology {
            gpus_per_node: 8,
            intra_node: Link { bytes_per_s_per_direction: 450e9, latency_s: 0.0 },
            inter_node: Some(Link { bytes_per_s_per_direction: 50e9, latency_s: 0.0 }),
        };
        let eff =
            Efficiency { intra_node_bus_bandwidth: 1.0, inter_node_bus_bandwidth: 1.0, ..Default::default() };
        let t = hierarchical_time(Collective::AllReduce, Algorithm::Ring, 16e9, 16, &topo, &eff).unwrap();
        // intra RS + AG: 2 × 16e9 × 7/8 / 450e9 = 62.2 ms; inter AR of 2e9 on 2 nodes: 2e9 / 50e9 = 40 ms.
        assert!((t.expected_s - (2.0 * 16e9 * 0.875 / 450e9 + 2e9 / 50e9)).abs() < 1e-9);
        assert!(t.bound_s <= t.expected_s);
        let single = Topology { inter_node: None, ..topo };
        assert!(hierarchical_time(Collective::AllReduce, Algorithm::Ring, 1.0, 16, &single, &eff).is_err());
    }
}
