//! The four charts, each a pure SVG string from `crate::charts` fed with the report's numbers.

use super::Ctx;
use crate::charts::{self, bound_bars, kv_growth as kvc, roofline, scaling};
use crate::engine::perf::scaling::ScalingPoint as EnginePoint;
use crate::estimator::kv_growth::{default_batches, default_contexts, kv_growth, room_for_kv};
use leptos::prelude::*;

/// Chart width for the current viewport: phone layout below 560 CSS pixels.
fn chart_width() -> u32 {
    let w = web_sys::window().and_then(|w| w.inner_width().ok()).and_then(|v| v.as_f64()).unwrap_or(1024.0);
    if w < 560.0 {
        charts::PHONE_WIDTH
    } else {
        charts::DESKTOP_WIDTH
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

/// A chart: the SVG string from `svg`, re-rendered when the report changes.
fn figure(id: &'static str, svg: impl Fn() -> Option<String> + Send + Sync + 'static) -> impl IntoView {
    view! { <figure class="chart" id=id inner_html=move || svg().unwrap_or_default()></figure> }
}

#[component]
pub fn BoundChart() -> impl IntoView {
    let ctx = expect_context::<Ctx>();
    let e = ctx.lang.est();
    let width = chart_width();
    figure("chart-bound", move || {
        ctx.shown().map(|r| {
            let p = &r.performance;
            let phase = p.phases.training.as_ref().unwrap_or(&p.phases.decode);
            let group = |label: &str, b: &crate::engine::perf::roofline::BoundTime| bound_bars::BoundGroup {
                label: label.to_owned(),
                compute_s: b.compute_s,
                memory_s: b.memory_s,
                communication_s: b.communication_s,
                overhead_s: b.overhead_s,
                total_s: Some(b.total_s),
            };
            bound_bars::bound_bars_svg(
                &bound_bars::BoundBarsChart {
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
                    groups: vec![group(e.expected, &phase.expected), group(e.upper_bound, &phase.bound)],
                    no_data: e.chart_no_data.into(),
                },
                width,
            )
        })
    })
}

#[component]
pub fn RooflineChart() -> impl IntoView {
    let ctx = expect_context::<Ctx>();
    let e = ctx.lang.est();
    let width = chart_width();
    figure("chart-roofline", move || {
        ctx.shown().map(|r| {
            let rf = &r.performance.roofline;
            let eff = |f: &str| {
                r.performance.efficiency.iter().find(|x| x.field == f).map(|x| x.value).unwrap_or(1.0)
            };
            roofline::roofline_svg(
                &roofline::RooflineChart {
                    title: format!(
                        "{} · {}",
                        e.chart_roofline_title,
                        crate::i18n::facts::compute_path(&rf.path, ctx.lang)
                    ),
                    x_label: e.chart_roofline_x.into(),
                    y_label: e.chart_roofline_y.into(),
                    peak_flops_per_s: rf.peak_flops_per_s,
                    bandwidth_bytes_per_s: rf.memory_bandwidth_bytes_per_s,
                    memory_roof_label: e.chart_memory_roof.into(),
                    compute_roof_label: e.chart_compute_roof.into(),
                    ridge_label: e.chart_ridge.into(),
                    expected: Some(roofline::ExpectedRoof {
                        label: e.chart_expected_roof.into(),
                        flops_efficiency: eff("tensor_flops"),
                        bandwidth_efficiency: eff("memory_bandwidth"),
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
                            flops_per_s: (d.arithmetic_intensity * rf.memory_bandwidth_bytes_per_s)
                                .min(rf.peak_flops_per_s),
                        })
                        .collect(),
                    no_data: e.chart_no_data.into(),
                },
                width,
            )
        })
    })
}

#[component]
pub fn ScalingChart() -> impl IntoView {
    let ctx = expect_context::<Ctx>();
    let e = ctx.lang.est();
    let width = chart_width();
    figure("chart-scaling", move || {
        ctx.shown().map(|r| {
            let sc = &r.performance.scaling;
            scaling::scaling_svg(
                &scaling::ScalingChart {
                    title: format!(
                        "{} · {}",
                        e.chart_scaling_title,
                        crate::i18n::facts::topology_name(&sc.topology, ctx.lang)
                    ),
                    x_label: e.chart_scaling_x.into(),
                    y_label: e.chart_scaling_y.into(),
                    efficiency_label: e.chart_efficiency.into(),
                    ideal_label: e.chart_ideal.into(),
                    series: vec![
                        scaling::ScalingSeries {
                            label: e.chart_data_parallel.into(),
                            points: scaling_points(&sc.data),
                        },
                        scaling::ScalingSeries {
                            label: e.chart_tensor_parallel.into(),
                            points: scaling_points(&sc.tensor),
                        },
                        scaling::ScalingSeries {
                            label: e.chart_pipeline_parallel.into(),
                            points: scaling_points(&sc.pipeline),
                        },
                    ],
                    communication_dominates_at: sc.communication_dominates_from.tensor,
                    communication_label: e.chart_comm_dominates.into(),
                    no_data: e.chart_no_data.into(),
                },
                width,
            )
        })
    })
}

#[component]
pub fn KvChart() -> impl IntoView {
    let ctx = expect_context::<Ctx>();
    let e = ctx.lang.est();
    let width = chart_width();
    figure("chart-kv", move || {
        ctx.shown().map(|r| {
            let unit = ctx.unit();
            let curves = ctx.with_scenario(|s| kv_growth(s, &default_contexts(), &default_batches(s.batch)));
            kvc::kv_growth_svg(
                &kvc::KvGrowthChart {
                    title: e.chart_kv_title.into(),
                    x_label: e.chart_kv_x.into(),
                    y_label: e.chart_kv_y.into(),
                    unit,
                    lines: curves
                        .into_iter()
                        .map(|(b, points)| kvc::KvLine { label: format!("{} {b}", e.chart_kv_line), points })
                        .collect(),
                    capacity: Some(kvc::KvCapacity { label: e.chart_kv_room.into(), bytes: room_for_kv(&r) }),
                    no_data: e.chart_no_data.into(),
                },
                width,
            )
        })
    })
}

/// All four charts, for the estimator page.
#[component]
pub fn Charts() -> impl IntoView {
    let e = expect_context::<Ctx>().lang.est();
    view! {
        <div class="panel charts" id="charts">
            <h2>{e.charts}</h2>
            <BoundChart />
            <RooflineChart />
            <KvChart />
            <ScalingChart />
            <p class="hint">{e.scaling_note}</p>
        </div>
    }
}
