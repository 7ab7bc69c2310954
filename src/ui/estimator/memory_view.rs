//! The memory bar of the heaviest GPU against its capacity, the verdict, and what would fit.

use super::math::ShowMath;
use super::Ctx;
use crate::charts::format::{format_bytes, format_tokens};
use crate::charts::palette;
use crate::engine::Report;
use crate::estimator::advice::{overflow_bytes, what_would_fit, Change};
use crate::i18n::EstimatorStrings;
use leptos::prelude::*;

/// The bar's segments: (label, report key, bytes, colour).
pub fn segments(
    r: &Report,
    e: &'static EstimatorStrings,
) -> Vec<(&'static str, &'static str, u64, &'static str)> {
    let m = &r.memory_per_gpu_bytes;
    vec![
        (e.weights, "memory_per_gpu_bytes.weights", m.weights, palette::WEIGHTS),
        (e.kv_cache, "memory_per_gpu_bytes.kv_cache", m.kv_cache, palette::KV_CACHE),
        (e.activations, "memory_per_gpu_bytes.activations", m.activations, palette::ACTIVATIONS),
        (e.gradients, "memory_per_gpu_bytes.gradients", m.gradients, palette::GRADIENTS),
        (e.optimizer_states, "memory_per_gpu_bytes.optimizer", m.optimizer, palette::OPTIMIZER),
        (e.runtime_overhead, "memory_per_gpu_bytes.overhead", m.overhead, palette::MEMORY_OVERHEAD),
    ]
}

fn pct(part: u64, whole: u64) -> f64 {
    if whole == 0 {
        0.0
    } else {
        (part as f64 / whole as f64 * 100.0).clamp(0.0, 100.0)
    }
}

/// One stacked bar, drawn in HTML so each segment has a readable title and the legend shares
/// the colours with the SVG charts.
#[component]
pub fn MemoryBar(report: Report) -> impl IntoView {
    let ctx = expect_context::<Ctx>();
    let e = ctx.lang.est();
    let unit = ctx.unit();
    let total = report.memory_per_gpu_bytes.total;
    let capacity = report.gpu_memory_bytes;
    let scale = total.max(capacity).max(1);
    let label = format!(
        "{}: {} / {} {}",
        e.memory_per_gpu,
        format_bytes(total, unit),
        format_bytes(capacity, unit),
        e.capacity
    );
    let segs = segments(&report, e);
    let headroom = report.usable_gpu_memory_bytes.saturating_sub(total);
    view! {
        <div class="membar" role="img" aria-label=label>
            {segs
                .into_iter()
                .filter(|s| s.2 > 0)
                .map(|(name, _, bytes, colour)| {
                    let title = format!("{name}: {}", format_bytes(bytes, unit));
                    view! {
                        <div class="seg" title=title style:width=format!("{:.3}%", pct(bytes, scale)) style:background=colour></div>
                    }
                })
                .collect_view()}
            {(headroom > 0).then(|| view! {
                <div class="seg headroom" title=format!("{}: {}", e.headroom, format_bytes(headroom, unit))
                    style:width=format!("{:.3}%", pct(headroom, scale)) style:background=palette::HEADROOM></div>
            })}
            <div class="cap-line usable" style:left=format!("{:.3}%", pct(report.usable_gpu_memory_bytes, scale))
                title=format!("{}: {}", e.usable, format_bytes(report.usable_gpu_memory_bytes, unit))></div>
            <div class="cap-line capacity" style:left=format!("calc({:.3}% - 2px)", pct(capacity, scale))
                title=format!("{}: {}", e.capacity, format_bytes(capacity, unit))></div>
        </div>
    }
}

#[component]
pub fn MemoryView() -> impl IntoView {
    let ctx = expect_context::<Ctx>();
    let e = ctx.lang.est();
    // What the panel shows when the scenario fits: an edit that changes none of it (a time or
    // efficiency slider) rebuilds nothing here. When it does not fit, the advice depends on the
    // whole scenario, so every edit rebuilds the panel.
    let memory = Memo::new(move |_| {
        ctx.with_shown(|r| {
            r.map(|r| (r.memory_per_gpu_bytes, r.usable_gpu_memory_bytes, r.gpu_memory_bytes, r.fits))
        })
    });
    // The state's unit alone (reading `ctx.unit()` in the view would track every edit).
    let unit = Memo::new(move |_| ctx.unit());
    move || {
        let Some(fits) = memory.with(|m| m.as_ref().map(|m| m.3)) else { return ().into_any() };
        let Some(r) = (if fits { untrack(|| ctx.shown()) } else { ctx.shown() }) else {
            return ().into_any();
        };
        let unit = unit.get();
        let over = overflow_bytes(&r);
        let verdict = if r.fits {
            format!(
                "{} · {} {}",
                e.fits,
                format_bytes(r.usable_gpu_memory_bytes.saturating_sub(r.memory_per_gpu_bytes.total), unit),
                e.headroom_left
            )
        } else {
            format!("{} · {} {}", e.does_not_fit, e.over_by, format_bytes(over, unit))
        };
        let advice = if fits { Vec::new() } else { ctx.with_scenario(|s| what_would_fit(s, &r)) };
        let rows = segments(&r, e);
        view! {
            <div class="panel memory" data-fits=r.fits.to_string()>
                <h2>{e.memory_per_gpu}</h2>
                <p class=if r.fits { "verdict ok" } else { "verdict bad" } id="verdict">
                    <strong>{verdict}</strong>
                    <ShowMath key="fits" />
                </p>
                <MemoryBar report=r.clone() />
                <table class="legend">
                    <tbody>
                        {rows
                            .into_iter()
                            .map(|(name, key, bytes, colour)| view! {
                                <tr data-key=key>
                                    <td><span class="swatch" style:background=colour></span>{name}</td>
                                    <td class="num" data-bytes=bytes.to_string()>{format_bytes(bytes, unit)}</td>
                                    <td><ShowMath key=key /></td>
                                </tr>
                            })
                            .collect_view()}
                        <tr class="total" data-key="memory_per_gpu_bytes.total">
                            <td>{e.total}</td>
                            <td class="num" id="total-per-gpu" data-bytes=r.memory_per_gpu_bytes.total.to_string()>
                                {format_bytes(r.memory_per_gpu_bytes.total, unit)}
                            </td>
                            <td><ShowMath key="memory_per_gpu_bytes.total" /></td>
                        </tr>
                        <tr>
                            <td>{e.usable}</td>
                            <td class="num">{format_bytes(r.usable_gpu_memory_bytes, unit)} " / " {format_bytes(r.gpu_memory_bytes, unit)}</td>
                            <td><ShowMath key="usable_gpu_memory_bytes" /></td>
                        </tr>
                    </tbody>
                </table>
                {(!advice.is_empty()).then(|| view! {
                    <div class="advice">
                        <h3>{e.what_would_fit}</h3>
                        <ul>
                            {advice
                                .into_iter()
                                .map(|a| {
                                    let text = match &a.change {
                                        Change::ShorterContext(n) => format!("{} {} {}", e.shorter_context, format_tokens(*n), e.u_tokens),
                                        Change::SmallerBatch(n) => format!("{} {n}", e.smaller_batch),
                                        Change::LowerPrecision(d) => format!("{} {}", e.lower_precision, d.name().to_uppercase()),
                                        Change::LowerKvPrecision(d) => format!("{} {}", e.lower_kv_precision, d.name().to_uppercase()),
                                        Change::MoreGpus { gpus, tensor_parallel, pipeline_parallel } => format!(
                                            "{} {gpus} {} (TP {tensor_parallel} × PP {pipeline_parallel})",
                                            e.more_gpus, e.u_gpus
                                        ),
                                    };
                                    let scenario = a.scenario.clone();
                                    view! {
                                        <li>
                                            <button class="apply" on:click=move |_| {
                                                let s = scenario.clone();
                                                ctx.edit(move |cur| *cur = s);
                                            }>{text}</button>
                                        </li>
                                    }
                                })
                                .collect_view()}
                        </ul>
                    </div>
                })}
            </div>
        }
        .into_any()
    }
}

/// A one-line summary pinned to the bottom of narrow screens, so the effect of a slider is
/// visible while the controls fill the screen.
#[component]
pub fn StickySummary() -> impl IntoView {
    let ctx = expect_context::<Ctx>();
    let e = ctx.lang.est();
    // The summary as text: rebuilt only when what it shows changes.
    let text = Memo::new(move |_| {
        let unit = ctx.unit();
        ctx.with_shown(|r| {
            r.map(|r| {
                let tok = crate::charts::format::format_rate(
                    r.performance.throughput.decode_tokens_per_s,
                    " tok/s",
                )
                .replace("  ", " ");
                (
                    r.fits,
                    format_bytes(r.memory_per_gpu_bytes.total, unit),
                    format_bytes(r.gpu_memory_bytes, unit),
                    tok,
                )
            })
        })
    });
    move || {
        text.get().map(|(fits, total, capacity, tok)| {
            let verdict = if fits { e.fits } else { e.does_not_fit };
            view! {
                <div class="sticky-summary" aria-hidden="true" data-fits=fits.to_string()>
                    <strong>{verdict}</strong>
                    " · " {total} " / " {capacity}
                    " · " {tok}
                </div>
            }
        })
    }
}
