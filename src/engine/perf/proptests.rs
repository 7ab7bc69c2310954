//! Properties of the inference time model: the bound never loses to the expected value, more bandwidth
//! never slows a memory-bound phase, and every function is total (finite or a typed error).

use super::collectives::{hierarchical_time, Algorithm, Collective};
use super::phases::{decode_step_work, prefill_work, ModelShape};
use super::roofline::{arithmetic_intensity, bound_time, ridge_point};
use super::serving::serving_estimate;
use super::timing::{phase_timing, Hardware, Parallelism, Phase};
use crate::engine::efficiency::Efficiency;
use crate::engine::links::{Link, Topology};
use proptest::prelude::*;

fn model() -> impl Strategy<Value = ModelShape> {
    (1e6f64..1e12, 1u32..200, 64u32..32768, 0f64..2e6, 0u32..3).prop_map(|(p, layers, hidden, kv, moe)| {
        ModelShape {
            params_total: p,
            params_active: if moe > 0 { p / 4.0 } else { p },
            layers,
            attention_width: hidden,
            hidden,
            kv_bytes_per_token: kv,
            dense_weight_bytes: if moe > 0 { p / 2.0 } else { 2.0 * p },
            expert_weight_bytes: if moe > 0 { 1.5 * p } else { 0.0 },
            experts: if moe > 0 { 8 * moe } else { 0 },
            experts_per_token: if moe > 0 { 2 } else { 0 },
            activation_bytes: 2.0,
            state_bytes_per_sequence: 0.0,
            ffn_width: 4 * hidden,
            moe: None,
            output_params: if moe > 0 { p / 80.0 } else { p / 20.0 },
        }
    })
}

fn hardware() -> impl Strategy<Value = Hardware> {
    (1e12f64..1e16, 1e11f64..1e13)
        .prop_map(|(f, b)| Hardware { peak_flops_per_s: f, memory_bandwidth_bytes_per_s: b })
}

fn topology() -> impl Strategy<Value = Topology> {
    (1u32..16, 1e9f64..1e12, 0f64..1e-4, 1e8f64..1e11).prop_map(|(g, bi, a, be)| Topology {
        gpus_per_node: g,
        intra_node: Link { bytes_per_s_per_direction: bi, latency_s: a },
        inter_node: Some(Link { bytes_per_s_per_direction: be, latency_s: a }),
    })
}

fn layout() -> impl Strategy<Value = Parallelism> {
    (1u32..16, 1u32..8, 1u32..64, 1u32..8, 1u32..32, any::<bool>()).prop_map(|(t, p, d, e, m, c)| {
        Parallelism {
            tensor: t,
            pipeline: p,
            data: d,
            expert: e,
            micro_batches: m,
            custom_all_reduce: c.then_some(super::custom_all_reduce::Kernels::Trtllm),
        }
    })
}

fn phase() -> impl Strategy<Value = (u8, f64, f64)> {
    (0u8..2, 0f64..2048.0, 0f64..131072.0)
}

proptest! {
    #[test]
    fn bound_is_never_slower_than_expected(m in model(), hw in hardware(), topo in topology(), par in layout(), (kind, batch, ctx) in phase()) {
        // A training step has its own model and properties (`training::proptests`).
        let (work, ph) = match kind {
            0 => (prefill_work(&m, ctx.max(1.0), batch.max(1.0), 0.0).unwrap(), Phase::Prefill),
            _ => (decode_step_work(&m, batch, ctx).unwrap(), Phase::Decode),
        };
        // Every generated input is positive and finite, so the timing must exist.
        let t = phase_timing(&work, &m, ph, &hw, &par, &topo, &Efficiency::default())
            .unwrap_or_else(|e| panic!("{e}: {m:?} {hw:?} {par:?} {topo:?} phase {kind}, batch {batch}, context {ctx}"));
        prop_assert!(t.bound.total_s <= t.expected.total_s * (1.0 + 1e-9), "{t:?}");
        prop_assert!(t.bound_tokens_per_s * (1.0 + 1e-9) >= t.expected_tokens_per_s);
        prop_assert!(t.bound_tokens_per_s.is_finite() && t.expected_tokens_per_s.is_finite());
        prop_assert!(t.expected.total_s.is_finite() && t.bound.total_s.is_finite());
    }

    #[test]
    fn more_bandwidth_never_slows_memory_bound_decode(m in model(), hw in hardware(), factor in 1.0f64..10.0, batch in 0f64..8.0, ctx in 0f64..32768.0) {
        let w = decode_step_work(&m, batch, ctx).unwrap();
        let topo = Topology { gpus_per_node: 8, intra_node: Link { bytes_per_s_per_direction: 1e11, latency_s: 1e-6 }, inter_node: None };
        let faster = Hardware { memory_bandwidth_bytes_per_s: hw.memory_bandwidth_bytes_per_s * factor, ..hw };
        let eff = Efficiency::default();
        let a = phase_timing(&w, &m, Phase::Decode, &hw, &Parallelism::default(), &topo, &eff).unwrap();
        let b = phase_timing(&w, &m, Phase::Decode, &faster, &Parallelism::default(), &topo, &eff).unwrap();
        prop_assert!(b.expected.total_s <= a.expected.total_s && b.bound.total_s <= a.bound.total_s);
    }

    #[test]
    fn functions_are_total(x in proptest::num::f64::ANY, y in proptest::num::f64::ANY, n in 0u32..5000) {
        let _ = arithmetic_intensity(x, y);
        let _ = ridge_point(x, y);
        let _ = bound_time(x, y, x, y);
        let _ = serving_estimate(x, y, x, y, Some(x));
        let topo = Topology { gpus_per_node: n % 9, intra_node: Link { bytes_per_s_per_direction: x, latency_s: y }, inter_node: Some(Link { bytes_per_s_per_direction: y, latency_s: x }) };
        for c in [Collective::AllReduce, Collective::AllGather, Collective::ReduceScatter, Collective::AllToAll] {
            match hierarchical_time(c, Algorithm::Tree, x, n, &topo, &Efficiency::default()) {
                Ok(t) => prop_assert!(t.expected_s.is_finite() && t.bound_s.is_finite() && t.bound_s <= t.expected_s * (1.0 + 1e-9) + 1e-300),
                // Plain sizes, rates and latencies (1 to 1e9) on at least one GPU per node must work.
                Err(e) => prop_assert!(!((1.0..=1e9).contains(&x) && (1.0..=1e9).contains(&y) && n % 9 >= 1), "{e}: {x} {y} {n}"),
            }
        }
    }
}
