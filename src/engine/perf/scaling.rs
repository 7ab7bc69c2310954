//! Scaling curves: training throughput and parallel efficiency against 1..1024 GPUs for data,
//! tensor and pipeline parallelism on a topology, and the point where communication starts to
//! dominate (the article's "twice the GPUs, barely faster"). Each point is one training step of
//! the operation model ([`super::training::training_step`]), so a full curve costs microseconds.
//!
//! Data parallel is weak scaling (each replica keeps its batch; gradients all-reduced).
//! Tensor and pipeline parallel are strong scaling of one replica's step; pipeline stages are
//! capped at the layer count (larger counts are left out of the curve).

use super::training::run::TrainingRun;
use super::training::{Stepper, TrainingLayout};
use crate::engine::checked::{positive, PerfError};
use crate::engine::efficiency::Efficiency;
use crate::engine::links::Topology;
use serde::{Deserialize, Serialize};

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Strategy {
    Data,
    Tensor,
    Pipeline,
}

/// GPU counts on the curve: powers of two and 1.5× between them, 1 to 1024.
pub fn default_gpu_counts() -> Vec<u32> {
    let mut v = vec![1, 2, 3];
    let mut p = 4;
    while p <= 1024 {
        v.push(p);
        if p < 1024 {
            v.push(p + p / 2);
        }
        p *= 2;
    }
    v
}

#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct ScalingPoint {
    pub gpus: u32,
    pub bound_tokens_per_s: f64,
    pub expected_tokens_per_s: f64,
    /// Expected throughput / expected throughput on 1 GPU.
    pub speedup: f64,
    /// `speedup / gpus`
    pub efficiency: f64,
    /// Expected communication (and bubble) share of the step time.
    pub communication_fraction: f64,
}

/// Throughput and efficiency of `strategy` at each of `gpu_counts`: the run's step with its
/// micro-batches (`micro_batches` of them) on one replica of `n` GPUs of tensor or pipeline
/// parallelism (strong scaling), or on `n` data-parallel replicas (weak scaling); no context,
/// expert or virtual pipeline parallelism.
pub fn scaling_curve(
    strategy: Strategy,
    run: &TrainingRun,
    micro_batches: f64,
    topology: &Topology,
    eff: &Efficiency,
    gpu_counts: &[u32],
) -> Result<Vec<ScalingPoint>, PerfError> {
    let m = positive("micro_batches", micro_batches)?;
    let base = TrainingLayout {
        tp: 1.0,
        pp: 1.0,
        cp: 1.0,
        dp: 1.0,
        ep: 1.0,
        vp: 1.0,
        micro_batches: m,
        ..run.layout
    };
    // Along the data and pipeline curves a layer's times stay the same: computed once.
    let mut stepper = Stepper::new(&run.shape, &run.hw, topology, eff, &run.settings)?;
    let mut step = |n: u32| {
        let n = f64::from(n);
        let layout = match strategy {
            Strategy::Data => TrainingLayout { dp: n, ..base },
            Strategy::Tensor => TrainingLayout { tp: n, ..base },
            Strategy::Pipeline => TrainingLayout { pp: n, ..base },
        };
        stepper.step(&layout)
    };
    let one = step(1)?.tokens_per_s;
    let mut out = Vec::with_capacity(gpu_counts.len());
    for &n in gpu_counts {
        if n == 0 || (strategy == Strategy::Pipeline && f64::from(n) > run.shape.layers) {
            continue;
        }
        if strategy != Strategy::Data && n > topology.gpus_per_node && topology.inter_node.is_none() {
            continue;
        }
        let t = step(n)?;
        let speedup = if one > 0.0 { t.tokens_per_s / one } else { 0.0 };
        let e = &t.expected;
        let waiting = e.communication_s + t.breakdown.pipeline_bubble_s;
        let comm_fraction = if e.total_s > 0.0 { (waiting / e.total_s).clamp(0.0, 1.0) } else { 0.0 };
        out.push(ScalingPoint {
            gpus: n,
            bound_tokens_per_s: t.tokens_per_s_bound,
            expected_tokens_per_s: t.tokens_per_s,
            speedup,
            efficiency: speedup / f64::from(n),
            communication_fraction: comm_fraction,
        });
    }
    Ok(out)
}

/// First GPU count where communication and bubble take more than half the step.
pub fn communication_dominates_from(curve: &[ScalingPoint]) -> Option<u32> {
    curve.iter().find(|p| p.communication_fraction > 0.5).map(|p| p.gpus)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::catalog::gpus::find;
    use crate::catalog::Catalog;
    use crate::engine::hardware::{topology_preset, TopologyPreset};
    use crate::engine::perf::training::run::tests::run_for;
    use serde_json::json;

    /// Llama-2-7B, 8 sequences of 4096 tokens per replica in 8 micro-batches, on H100s.
    fn llama2_7b() -> TrainingRun {
        run_for(json!({"model": "llama-2-7b", "mode": "training", "context_tokens": 4096, "gpu": "h100-sxm"}))
    }

    #[test]
    fn counts_cover_1_to_1024() {
        let c = default_gpu_counts();
        assert_eq!((c[0], *c.last().unwrap()), (1, 1024));
        assert!(c.contains(&8) && c.contains(&12) && c.contains(&768));
    }

    #[test]
    fn tensor_parallel_falls_off_beyond_the_node() {
        let topo = topology_preset(TopologyPreset::NvSwitchInfiniBand, find("h100-sxm").unwrap(), &Catalog);
        let c = scaling_curve(
            Strategy::Tensor,
            &llama2_7b(),
            8.0,
            &topo,
            &Efficiency::default(),
            &default_gpu_counts(),
        )
        .unwrap();
        let at = |n| c.iter().find(|p| p.gpus == n).unwrap();
        // Within the node TP 8 keeps about half the GPUs' work (its all-reduces are exposed and
        // its GEMMs are an eighth as wide); beyond it, the network.
        assert!(at(8).efficiency > 0.4, "{:?}", at(8));
        assert!(at(16).efficiency < at(8).efficiency);
        assert!(at(16).speedup < 1.5 * at(8).speedup); // twice the GPUs, barely faster
        let from = communication_dominates_from(&c).unwrap();
        assert!(from > 8 && from <= 64, "{from}");
        assert!(c.iter().all(|p| p.expected_tokens_per_s <= p.bound_tokens_per_s));
    }

    #[test]
    fn data_parallel_scales_well_and_pcie_worse() {
        let gpu = find("h100-sxm").unwrap();
        let eff = Efficiency::default();
        let counts = default_gpu_counts();
        let nv = scaling_curve(
            Strategy::Data,
            &llama2_7b(),
            8.0,
            &topology_preset(TopologyPreset::NvSwitchInfiniBand, gpu, &Catalog),
            &eff,
            &counts,
        )
        .unwrap();
        let pc = scaling_curve(
            Strategy::Data,
            &llama2_7b(),
            8.0,
            &topology_preset(TopologyPreset::PcieOnly, gpu, &Catalog),
            &eff,
            &counts,
        )
        .unwrap();
        assert!(nv.last().unwrap().efficiency > 0.8, "{:?}", nv.last());
        assert!(pc[5].efficiency <= nv[5].efficiency);
        let pp = scaling_curve(
            Strategy::Pipeline,
            &llama2_7b(),
            8.0,
            &topology_preset(TopologyPreset::NvSwitchInfiniBand, gpu, &Catalog),
            &eff,
            &counts,
        )
        .unwrap();
        assert!(pp.iter().all(|p| p.gpus <= 32));
    }

    #[test]
    fn full_curve_is_cheap() {
        let topo = topology_preset(TopologyPreset::NvSwitchEfa, find("h100-sxm").unwrap(), &Catalog);
        let counts = default_gpu_counts();
        let start = std::time::Instant::now();
        for s in [Strategy::Data, Strategy::Tensor, Strategy::Pipeline] {
            scaling_curve(s, &llama2_7b(), 8.0, &topo, &Efficiency::default(), &counts).unwrap();
        }
        // A wall-clock budget only in optimised builds (`cargo test --release`): a debug build on
        // a shared CI machine measures the machine, not the code. `scripts/bench.sh` reports it.
        if !cfg!(debug_assertions) {
            assert!(start.elapsed().as_millis() < 50, "{:?}", start.elapsed());
        }
    }
}
