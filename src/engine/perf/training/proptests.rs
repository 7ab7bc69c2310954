//! Properties of the training step: the roofline stays a lower bound of the modelled step, more
//! recomputation never makes a step faster, a low-precision recipe never speeds attention up,
//! interleaving never lengthens the bubble, and every input gives a finite answer.

use super::run::tests::run_for;
use super::run::TrainingRun;
use super::{training_step, TrainingLayout};
use crate::engine::efficiency::Efficiency;
use crate::engine::links::{Link, Topology};
use crate::engine::workload::{LowPrecisionRecipe, Recompute};
use proptest::prelude::*;
use serde_json::json;

const MODELS: [&str; 5] = ["llama-3.1-8b", "llama-2-13b", "qwen3-30b-a3b", "gpt2-xl", "mixtral-8x7b"];
const GPUS: [&str; 4] = ["h100-sxm", "a100-sxm-80gb", "b200", "rtx-4090"];

fn topology() -> impl Strategy<Value = Topology> {
    (1u32..16, 1e10f64..1e12, 0f64..1e-5, 1e9f64..1e11).prop_map(|(g, bi, a, be)| Topology {
        gpus_per_node: g,
        intra_node: Link { bytes_per_s_per_direction: bi, latency_s: a },
        inter_node: Some(Link { bytes_per_s_per_direction: be, latency_s: a }),
    })
}

/// A run of a catalog model on a catalog GPU, and a layout for it.
fn case() -> impl Strategy<Value = (TrainingRun, TrainingLayout)> {
    (
        0usize..MODELS.len(),
        0usize..GPUS.len(),
        (0u32..3, 0u32..3, 0u32..2, 1u32..8, 0u32..3),
        (1u32..5, 1u32..4, 0u32..4, 1u32..3, 0u8..4),
        (0u8..2, any::<bool>(), any::<bool>(), 0usize..3),
    )
        .prop_map(|(mi, gi, (tp, pp, cp, dp, ep), (mb, b, seq, vp, zero), (opt, sp, overlap, rc))| {
            let recompute = ["none", "selective", "full"].get(rc).copied().unwrap_or("none");
            let run = run_for(json!({"model": MODELS[mi], "mode": "training", "gpu": GPUS[gi],
                "context_tokens": 1024u64 << seq, "recompute": recompute, "optimizer_impl": if opt % 2 == 0 { "foreach" } else { "fused" },
                "ep_comm": if opt % 2 == 0 { "nccl" } else { "deepep_normal" }}));
            let layout = TrainingLayout {
                tp: f64::from(1u32 << tp),
                pp: f64::from(1u32 << pp),
                cp: f64::from(1u32 << cp),
                dp: f64::from(dp),
                ep: f64::from(1u32 << ep),
                vp: f64::from(vp),
                micro_batches: f64::from(mb * 4),
                batch: f64::from(b),
                seq: f64::from(1024u32 << seq),
                zero_stage: zero,
                sequence_parallel: sp,
                tp_overlap: overlap,
                ep_overlap: overlap,
            };
            let _ = opt;
            (run, layout)
        })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

    #[test]
    fn the_roofline_stays_a_lower_bound_of_the_modelled_step((run, layout) in case(), topo in topology()) {
        let t = training_step(&run.shape, &layout, &run.hw, &topo, &Efficiency::default(), &run.settings)
            .unwrap_or_else(|e| panic!("{e}: {layout:?}"));
        prop_assert!(t.bound.total_s <= t.expected.total_s * (1.0 + 1e-9), "{:?} > {:?}", t.bound, t.expected);
        prop_assert!(t.tokens_per_s <= t.tokens_per_s_bound * (1.0 + 1e-9));
        prop_assert!(t.expected.total_s.is_finite() && t.expected.total_s > 0.0);
        prop_assert!((t.breakdown.total() - t.expected.total_s).abs() <= 1e-9 * t.expected.total_s);
        // With an FP8 recipe on a GPU that has the path, still a bound.
        if run.hw.generation != crate::engine::gpu::Generation::Ampere {
            let mut set = run.settings;
            set.recipe = LowPrecisionRecipe::Fp8Current;
            let hw = super::TrainingHardware { low_precision_peak: 2.0 * run.hw.peak, ..run.hw };
            let f = training_step(&run.shape, &layout, &hw, &topo, &Efficiency::default(), &set).unwrap();
            prop_assert!(f.bound.total_s <= f.expected.total_s * (1.0 + 1e-9));
            // FP8 runs the linear layers only: attention takes the same time.
            prop_assert!((f.breakdown.attention_s - t.breakdown.attention_s).abs() <= 1e-12 * t.breakdown.attention_s.max(1.0));
        }
    }

    #[test]
    fn more_recomputation_never_makes_a_step_faster((run, layout) in case(), topo in topology()) {
        let eff = Efficiency::default();
        let time = |p: Recompute, n: Option<f64>| {
            let mut set = run.settings;
            (set.recompute, set.recompute_layers) = (p, n);
            training_step(&run.shape, &layout, &run.hw, &topo, &eff, &set).unwrap().expected.total_s
        };
        let none = time(Recompute::None, None);
        for p in [Recompute::Selective, Recompute::OpSelective, Recompute::Full] {
            let mut last = none;
            for n in [1.0, 2.0, 4.0, 1e6] {
                let t = time(p, Some(n));
                prop_assert!(t >= last * (1.0 - 1e-12), "{p:?} on {n}: {t} < {last}");
                last = t;
            }
        }
    }

    #[test]
    fn interleaving_never_lengthens_the_bubble((run, layout) in case(), topo in topology()) {
        let eff = Efficiency::default();
        let bubble = |vp: f64| {
            let l = TrainingLayout { vp, ..layout };
            training_step(&run.shape, &l, &run.hw, &topo, &eff, &run.settings).unwrap().breakdown.pipeline_bubble_s
        };
        prop_assert!(bubble(2.0) <= bubble(1.0) * (1.0 + 1e-12));
        prop_assert!(bubble(4.0) <= bubble(2.0) * (1.0 + 1e-12));
    }
}

#[test]
fn every_input_gives_a_finite_step_or_a_named_error() {
    let run = run_for(json!({"model": "llama-3.1-8b", "mode": "training"}));
    let topo = Topology {
        gpus_per_node: 8,
        intra_node: Link { bytes_per_s_per_direction: 450e9, latency_s: 1e-6 },
        inter_node: None,
    };
    let layout = run.layout;
    for bad in [0.0, -1.0, f64::NAN, f64::INFINITY] {
        let l = TrainingLayout { micro_batches: bad, ..layout };
        assert!(training_step(&run.shape, &l, &run.hw, &topo, &Efficiency::default(), &run.settings).is_err());
    }
    // More data-parallel GPUs than one node without a network: a named error, not a panic.
    let l = TrainingLayout { dp: 16.0, ..layout };
    assert!(training_step(&run.shape, &l, &run.hw, &topo, &Efficiency::default(), &run.settings).is_err());
}
