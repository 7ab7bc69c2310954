//! What each estimator chart is drawn from: a `Report` (and the scenario, for the KV curves)
//! mapped to the small plain input struct of a `crate::charts` function, in the page's words.
//!
//! The estimator wraps each of these in a `Memo` and builds the SVG from the memo, so a chart is
//! redrawn only when its own input changes (`PartialEq`): a price edit redraws nothing, a
//! safety-margin edit only the KV chart (its "room for KV" line). The tests below count those
//! rebuilds per edit.

use super::kv_growth::{default_batches, default_contexts, kv_growth, room_for_kv};
use crate::charts::{bound_bars, kv_growth as kvc, roofline, scaling, speculation, ByteUnit};
use crate::engine::perf::roofline::BoundTime;
use crate::engine::perf::scaling::ScalingPoint as EnginePoint;
use crate::engine::{Report, Scenario};
use crate::i18n::{EstimatorStrings, Lang};

/// Attainable FLOP/s at arithmetic intensity `intensity` (FLOP/byte) under the roofline:
/// `min(F, I · B)` (Williams, Waterman, Patterson 2009), where `F` is the peak FLOP/s and `B`
/// the memory bandwidth in bytes/s. Unusable inputs (negative, non-finite) give 0, which the
/// chart skips as a point it cannot place.
pub fn attainable_flops_per_s(intensity: f64, bandwidth_bytes_per_s: f64, peak_flops_per_s: f64) -> f64 {
    let v = (intensity * bandwidth_bytes_per_s).min(peak_flops_per_s);
    if v.is_finite() && v > 0.0 {
        v
    } else {
        0.0
    }
}

/// The achieved fraction the report used for an efficiency factor (`tensor_flops`,
/// `memory_bandwidth`…), 1 when the report does not list it.
pub fn efficiency(r: &Report, field: &str) -> f64 {
    r.performance.efficiency.iter().find(|x| x.field == field).map_or(1.0, |x| x.value)
}

/// Tokens/s per user and per GPU with and without speculative decoding against batch
/// (`performance.speculative.by_batch`), or `None` without speculation.
pub fn speculation_chart(r: &Report, e: &EstimatorStrings) -> Option<speculation::SpeculationChart> {
    let sp = r.performance.speculative.as_ref()?;
    let [user, gpu] = e.chart_spec_panels;
    let [with, without] = e.chart_spec_legend;
    Some(speculation::SpeculationChart {
        title: format!(
            "{} · γ {} · E {:.2}",
            e.chart_spec_title, sp.draft_tokens, sp.expected_tokens_per_step
        ),
        x_label: e.chart_spec_x.into(),
        panels: [user.into(), gpu.into()],
        legend: [with.into(), without.into()],
        points: sp
            .by_batch
            .iter()
            .map(|p| speculation::SpecPoint {
                batch: p.batch,
                per_user: p.per_user_tokens_per_s,
                per_user_without: p.per_user_tokens_per_s_without,
                per_gpu: p.per_gpu_tokens_per_s,
                per_gpu_without: p.per_gpu_tokens_per_s_without,
            })
            .collect(),
        crossover: sp.crossover_batch.map(|b| (b, e.chart_spec_crossover.into())),
        no_data: e.chart_no_data.into(),
    })
}

/// Bound-vs-expected bars of the decode step (the training step when training).
pub fn bound_chart(r: &Report, e: &EstimatorStrings) -> bound_bars::BoundBarsChart {
    let p = &r.performance;
    let phase = p.phases.training.as_ref().unwrap_or(&p.phases.decode);
    let group = |label: &str, b: &BoundTime| bound_bars::BoundGroup {
        label: label.to_owned(),
        compute_s: b.compute_s,
        memory_s: b.memory_s,
        communication_s: b.communication_s,
        overhead_s: b.overhead_s,
        total_s: Some(b.total_s),
    };
    bound_bars::BoundBarsChart {
        title: format!(
            "{} · {}",
            e.chart_bound_title,
            if p.phases.training.is_some() { e.training_step } else { e.decode_step }
        ),
        terms: bound_bars::TermLabels {
            compute: e.term_compute.into(),
            memory: e.term_memory.into(),
            communication: e.term_communication.into(),
            overhead: e.term_overhead.into(),
        },
        dominant_label: e.chart_dominant.into(),
        total_label: e.chart_total.into(),
        groups: vec![group(e.expected, &phase.expected), group(e.chart_bound_time, &phase.bound)],
        no_data: e.chart_no_data.into(),
    }
}

/// The roofline with the workload's phases and the decode sweep over batch sizes.
pub fn roofline_chart(r: &Report, e: &EstimatorStrings, lang: Lang) -> roofline::RooflineChart {
    let rf = &r.performance.roofline;
    roofline::RooflineChart {
        title: format!("{} · {}", e.chart_roofline_title, crate::i18n::facts::compute_path(&rf.path, lang)),
        x_label: e.chart_roofline_x.into(),
        y_label: e.chart_roofline_y.into(),
        peak_flops_per_s: rf.peak_flops_per_s,
        bandwidth_bytes_per_s: rf.memory_bandwidth_bytes_per_s,
        memory_roof_label: e.chart_memory_roof.into(),
        compute_roof_label: e.chart_compute_roof.into(),
        ridge_label: e.chart_ridge.into(),
        expected: Some(roofline::ExpectedRoof {
            label: e.chart_expected_roof.into(),
            flops_efficiency: efficiency(r, "tensor_flops"),
            bandwidth_efficiency: efficiency(r, "memory_bandwidth"),
        }),
        points: rf
            .points
            .iter()
            .map(|p| roofline::RooflinePoint {
                label: e.phase(&p.phase),
                intensity: p.arithmetic_intensity,
                flops_per_s: p.attainable_flops_per_s,
            })
            .collect(),
        sweep_label: e.chart_decode_sweep.into(),
        sweep: rf
            .decode_by_batch
            .iter()
            .map(|d| roofline::RooflinePoint {
                label: d.batch.to_string(),
                intensity: d.arithmetic_intensity,
                flops_per_s: attainable_flops_per_s(
                    d.arithmetic_intensity,
                    rf.memory_bandwidth_bytes_per_s,
                    rf.peak_flops_per_s,
                ),
            })
            .collect(),
        no_data: e.chart_no_data.into(),
    }
}

fn scaling_points(points: &[EnginePoint]) -> Vec<scaling::ScalingPoint> {
    points
        .iter()
        .map(|p| scaling::ScalingPoint {
            gpus: p.gpus,
            throughput: p.expected_tokens_per_s,
            efficiency: p.efficiency,
        })
        .collect()
}

/// Throughput and efficiency against GPU count for data, tensor and pipeline parallelism.
pub fn scaling_chart(r: &Report, e: &EstimatorStrings, lang: Lang) -> scaling::ScalingChart {
    let sc = &r.performance.scaling;
    let series = |label: &str, points: &[EnginePoint]| scaling::ScalingSeries {
        label: label.to_owned(),
        points: scaling_points(points),
    };
    scaling::ScalingChart {
        title: format!(
            "{} · {}",
            e.chart_scaling_title,
            crate::i18n::facts::topology_name(&sc.topology, lang)
        ),
        x_label: e.chart_scaling_x.into(),
        y_label: e.chart_scaling_y.into(),
        efficiency_label: e.chart_efficiency.into(),
        ideal_label: e.chart_ideal.into(),
        series: vec![
            series(e.chart_data_parallel, &sc.data),
            series(e.chart_tensor_parallel, &sc.tensor),
            series(e.chart_pipeline_parallel, &sc.pipeline),
        ],
        communication_dominates_at: sc.communication_dominates_from.tensor,
        communication_label: e.chart_comm_dominates.into(),
        no_data: e.chart_no_data.into(),
    }
}

/// KV cache per GPU against context at a few concurrencies, with the room the GPU has for it.
pub fn kv_chart(s: &Scenario, r: &Report, unit: ByteUnit, e: &EstimatorStrings) -> kvc::KvGrowthChart {
    let curves = kv_growth(s, &default_contexts(), &default_batches(s.batch));
    kvc::KvGrowthChart {
        title: e.chart_kv_title.into(),
        x_label: e.chart_kv_x.into(),
        y_label: e.chart_kv_y.into(),
        unit,
        lines: curves
            .into_iter()
            .map(|(b, points)| kvc::KvLine { label: format!("{} {b}", e.chart_kv_line), points })
            .collect(),
        capacity: Some(kvc::KvCapacity { label: e.chart_kv_room.into(), bytes: room_for_kv(r) }),
        no_data: e.chart_no_data.into(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::catalog::evaluate;
    use crate::estimator::presets;

    #[test]
    fn attainable_is_the_lower_roof() {
        // H100 SXM: 989 TFLOP/s bf16 dense, 3.35 TB/s; ridge ≈ 295 FLOP/byte.
        let (f, b) = (989e12, 3.35e12);
        assert!((attainable_flops_per_s(1.0, b, f) - 3.35e12).abs() < 1.0, "memory-bound: I·B");
        assert_eq!(attainable_flops_per_s(1000.0, b, f), f, "compute-bound: the peak");
        assert!((attainable_flops_per_s(295.2, b, f) - 988.92e12).abs() < 1e9, "at the ridge: both");
        for bad in [-1.0, f64::NAN, f64::INFINITY] {
            assert_eq!(attainable_flops_per_s(bad, b, f64::INFINITY), 0.0, "{bad}");
        }
    }

    #[test]
    fn the_sweep_sits_on_the_roof() {
        let s = presets::find("long-context-chat").expect("preset").scenario();
        let r = evaluate(&s).expect("preset evaluates");
        let c = roofline_chart(&r, Lang::En.est(), Lang::En);
        assert!(!c.sweep.is_empty());
        for p in &c.sweep {
            let roof = (p.intensity * c.bandwidth_bytes_per_s).min(c.peak_flops_per_s);
            assert!((p.flops_per_s - roof).abs() <= roof * 1e-12, "{p:?}");
        }
        assert!(efficiency(&r, "tensor_flops") < 1.0 && efficiency(&r, "no-such-factor") == 1.0);
    }

    /// The chart inputs of a scenario, as the estimator's memos hold them.
    #[derive(PartialEq)]
    struct Inputs(
        bound_bars::BoundBarsChart,
        roofline::RooflineChart,
        scaling::ScalingChart,
        kvc::KvGrowthChart,
    );

    fn inputs(s: &Scenario, unit: ByteUnit) -> Inputs {
        let r = evaluate(s).expect("the edit evaluates");
        let e = Lang::En.est();
        Inputs(
            bound_chart(&r, e),
            roofline_chart(&r, e, Lang::En),
            scaling_chart(&r, e, Lang::En),
            kv_chart(s, &r, unit, e),
        )
    }

    /// How many SVGs a `Memo`-per-chart view builds for an edit: the charts whose input changed.
    fn builds(before: &Inputs, after: &Inputs) -> [bool; 4] {
        [before.0 != after.0, before.1 != after.1, before.2 != after.2, before.3 != after.3]
    }

    #[test]
    fn an_edit_rebuilds_only_the_charts_it_changes() {
        let base = presets::find("long-context-chat").expect("preset").scenario();
        let before = inputs(&base, ByteUnit::Gb);
        assert!(builds(&before, &inputs(&base, ByteUnit::Gb)) == [false; 4], "no edit, no SVG");

        let mut price = base.clone();
        price.price_per_gpu_hour = Some(7.5);
        assert_eq!(builds(&before, &inputs(&price, ByteUnit::Gb)), [false; 4], "cost is in no chart");

        let mut margin = base.clone();
        margin.safety_margin = 0.2;
        assert_eq!(
            builds(&before, &inputs(&margin, ByteUnit::Gb)),
            [false, false, false, true],
            "room for KV"
        );

        assert_eq!(
            builds(&before, &inputs(&base, ByteUnit::Gib)),
            [false, false, false, true],
            "KV axis unit"
        );

        let mut batch = base.clone();
        batch.batch += 1;
        assert_eq!(builds(&before, &inputs(&batch, ByteUnit::Gb)), [true; 4], "batch moves every chart");
    }

    #[test]
    fn hostile_names_from_the_reader_reach_no_chart_as_markup() {
        let evil = "<img src=x onerror=alert(1)>";
        let v = serde_json::json!({
            "model": {"_name_or_path": evil, "model_type": "llama", "hidden_size": 2048,
                "intermediate_size": 8192, "num_hidden_layers": 16, "num_attention_heads": 32,
                "num_key_value_heads": 8, "vocab_size": 128256},
            "gpu": {"name": evil, "memory_bytes": 48_000_000_000u64, "memory_bandwidth_bytes_per_s": 1e12,
                "peak_flops": {"bf16": 2e14}}});
        let s = Scenario::from_json(&v).expect("a valid pasted config and custom GPU");
        let r = evaluate(&s).expect("it evaluates");
        assert_eq!(r.model.name, evil, "the name is carried as data");
        for lang in [Lang::En, Lang::Zh] {
            let e = lang.est();
            let svgs = [
                crate::charts::bound_bars_svg(&bound_chart(&r, e), 640),
                crate::charts::roofline_svg(&roofline_chart(&r, e, lang), 640),
                crate::charts::scaling_svg(&scaling_chart(&r, e, lang), 360),
                crate::charts::kv_growth_svg(&kv_chart(&s, &r, ByteUnit::Gib, e), 360),
            ];
            for svg in svgs {
                assert!(!svg.contains("<img"), "{svg}");
            }
        }
    }
}
