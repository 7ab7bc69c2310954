//! The memory bar of the heaviest GPU against its capacity, the verdict, and what would fit.

use super::math::ShowMath;
use super::Ctx;
use crate::charts::format::{format_bytes, format_tokens, ByteUnit};
use crate::charts::palette;
use crate::engine::report::Memory;
use crate::engine::Report;
use crate::estimator::advice::{overflow_bytes, what_would_fit, Advice, Change};
use crate::i18n::EstimatorStrings;
use leptos::prelude::*;

fn pct(part: u64, whole: u64) -> f64 {
    if whole == 0 {
        0.0
    } else {
        (part as f64 / whole as f64 * 100.0).clamp(0.0, 100.0)
    }
}

/// What a memory bar draws.
#[derive(Clone, Copy, Default, PartialEq)]
pub(super) struct Bar {
    memory: Memory,
    usable: u64,
    capacity: u64,
    unit: ByteUnit,
}

impl Bar {
    pub(super) fn of(r: &Report, unit: ByteUnit) -> Bar {
        Bar {
            memory: r.memory_per_gpu_bytes,
            usable: r.usable_gpu_memory_bytes,
            capacity: r.gpu_memory_bytes,
            unit,
        }
    }

    /// A share of the bar's length, as a CSS percentage.
    fn width(&self, bytes: u64) -> String {
        format!("{:.3}%", pct(bytes, self.memory.total.max(self.capacity).max(1)))
    }

    fn headroom(&self) -> u64 {
        self.usable.saturating_sub(self.memory.total)
    }
}

/// One stacked bar, drawn in HTML so each segment has a readable title and the legend shares
/// the colours with the SVG charts. Its elements are built once: a change of `bar` updates their
/// attributes (a segment of 0 bytes is hidden).
pub(super) fn bar_view(bar: Signal<Bar>, e: &'static EstimatorStrings) -> impl IntoView {
    let label = move || {
        bar.with(|b| {
            format!(
                "{}{}{} / {} {}",
                e.memory_per_gpu,
                e.colon,
                format_bytes(b.memory.total, b.unit),
                format_bytes(b.capacity, b.unit),
                e.capacity
            )
        })
    };
    view! {
        <div class="membar" role="img" aria-label=label>
            {rows(e)
                .into_iter()
                .map(|(name, _, get, colour)| seg(bar, "seg", (name, e.colon), move |b| get(&b.memory), colour))
                .collect_view()}
            {seg(bar, "seg headroom", (e.headroom, e.colon), Bar::headroom, palette::HEADROOM)}
            <div class="cap-line usable" style:left=move || bar.with(|b| b.width(b.usable))
                title=move || bar.with(|b| format!("{}{}{}", e.usable, e.colon, format_bytes(b.usable, b.unit)))></div>
            <div class="cap-line capacity" style:left=move || bar.with(|b| format!("calc({} - 2px)", b.width(b.capacity)))
                title=move || bar.with(|b| format!("{}{}{}", e.capacity, e.colon, format_bytes(b.capacity, b.unit)))></div>
        </div>
    }
}

/// A segment of the bar: `bytes` of it, named `name` (and the page's colon after the name).
fn seg(
    bar: Signal<Bar>,
    class: &'static str,
    (name, colon): (&'static str, &'static str),
    bytes: impl Fn(&Bar) -> u64 + Copy + Send + Sync + 'static,
    colour: &'static str,
) -> impl IntoView {
    view! {
        <div class=class hidden=move || bar.with(|b| bytes(b) == 0)
            title=move || bar.with(|b| format!("{name}{colon}{}", format_bytes(bytes(b), b.unit)))
            style:width=move || bar.with(|b| b.width(bytes(b))) style:background=colour></div>
    }
}

/// The lines that only some runs have (hybrid models' fixed state, a low-precision recipe's
/// weight cache, FSDP's buffers, the allocator's reserve): their legend rows show only when they
/// are not 0.
const OCCASIONAL_KEYS: [&str; 4] = [
    "memory_per_gpu_bytes.recurrent_state",
    "memory_per_gpu_bytes.fp8_weight_cache",
    "memory_per_gpu_bytes.fsdp_buffers",
    "memory_per_gpu_bytes.allocator_reserve",
];

/// The bar's segments and the legend's rows: (label, report key, bytes, colour).
type Row = (&'static str, &'static str, fn(&Memory) -> u64, &'static str);

fn rows(e: &'static EstimatorStrings) -> [Row; 11] {
    [
        (e.weights, "memory_per_gpu_bytes.weights", |m| m.weights, palette::WEIGHTS),
        (e.kv_cache, "memory_per_gpu_bytes.kv_cache", |m| m.kv_cache, palette::KV_CACHE),
        (e.activations, "memory_per_gpu_bytes.activations", |m| m.activations, palette::ACTIVATIONS),
        (e.logits, "memory_per_gpu_bytes.logits", |m| m.logits, palette::LOGITS),
        (e.gradients, "memory_per_gpu_bytes.gradients", |m| m.gradients, palette::GRADIENTS),
        (e.optimizer_states, "memory_per_gpu_bytes.optimizer", |m| m.optimizer, palette::OPTIMIZER),
        (e.runtime_overhead, "memory_per_gpu_bytes.overhead", |m| m.overhead, palette::MEMORY_OVERHEAD),
        (e.recurrent_state, OCCASIONAL_KEYS[0], |m| m.recurrent_state, palette::RECURRENT_STATE),
        (e.fp8_weight_cache, OCCASIONAL_KEYS[1], |m| m.fp8_weight_cache, palette::FP8_WEIGHT_CACHE),
        (e.fsdp_buffers, OCCASIONAL_KEYS[2], |m| m.fsdp_buffers, palette::FSDP_BUFFERS),
        (e.allocator_reserve, OCCASIONAL_KEYS[3], |m| m.allocator_reserve, palette::ALLOCATOR_RESERVE),
    ]
}

/// What the memory panel shows: the breakdown, usable and total capacity, and the fit.
#[derive(Clone, PartialEq)]
struct Shown {
    memory: Memory,
    usable: u64,
    capacity: u64,
    over: u64,
    fits: bool,
    /// What stays in host memory (partial offload, paged optimizer states).
    host: u64,
}

/// The memory panel. Its structure is built once; an edit updates the text and attributes of
/// the cells whose value changed (one `Memo` per displayed string), not the whole panel. Only
/// the bar (a few divs) and the advice (shown when the scenario does not fit; it depends on the
/// whole scenario) are rebuilt.
#[component]
pub fn MemoryView() -> impl IntoView {
    let ctx = expect_context::<Ctx>();
    let e = ctx.lang.est();
    let shown = Memo::new(move |_| {
        ctx.with_shown(|r| {
            r.map(|r| Shown {
                memory: r.memory_per_gpu_bytes,
                usable: r.usable_gpu_memory_bytes,
                capacity: r.gpu_memory_bytes,
                over: overflow_bytes(r),
                fits: r.fits,
                host: r.host_memory_bytes,
            })
        })
    });
    // The state's unit alone (reading `ctx.unit()` in the view would track every edit).
    let unit = Memo::new(move |_| ctx.unit());
    let present = Memo::new(move |_| shown.with(Option::is_some));
    // A byte count of the shown report (0 before the first valid one).
    let bytes = move |f: fn(&Shown) -> u64| Memo::new(move |_| shown.with(|s| s.as_ref().map_or(0, f)));
    // Its text in the chosen unit.
    let text = move |b: Memo<u64>| Memo::new(move |_| format_bytes(b.get(), unit.get()));
    move || {
        if !present.get() {
            return ().into_any();
        }
        let fits = Memo::new(move |_| shown.with(|s| s.as_ref().is_none_or(|s| s.fits)));
        let verdict = Memo::new(move |_| {
            let unit = unit.get();
            shown.with(|s| {
                let Some(s) = s else { return String::new() };
                if s.fits {
                    let left = format_bytes(s.usable.saturating_sub(s.memory.total), unit);
                    format!("{} · {left} {}", e.fits, e.headroom_left)
                } else {
                    format!("{} · {} {}", e.does_not_fit, e.over_by, format_bytes(s.over, unit))
                }
            })
        });
        let bar = Memo::new(move |_| {
            let unit = unit.get();
            shown.with(|s| {
                s.as_ref()
                    .map(|s| Bar { memory: s.memory, usable: s.usable, capacity: s.capacity, unit })
                    .unwrap_or_default()
            })
        });
        let legend = rows(e)
            .into_iter()
            .map(|(name, key, get, colour)| {
                let b = Memo::new(move |_| shown.with(|s| s.as_ref().map_or(0, |s| get(&s.memory))));
                let t = text(b);
                view! {
                    <tr data-key=key hidden=move || OCCASIONAL_KEYS.contains(&key) && b.get() == 0>
                        <td><span class="swatch" style:background=colour></span>{name}</td>
                        <td class="num" data-bytes=move || b.get().to_string()>{move || t.get()}</td>
                        <td><ShowMath key=key /></td>
                    </tr>
                }
            })
            .collect_view();
        let total = bytes(|s| s.memory.total);
        let total_text = text(total);
        let usable_text = text(bytes(|s| s.usable));
        let capacity_text = text(bytes(|s| s.capacity));
        let host = bytes(|s| s.host);
        let host_text = text(host);
        // The advice reads the whole scenario, so only while the scenario does not fit. Its list
        // is rebuilt when the number of changes it offers changes; otherwise their text updates.
        let advice = Memo::new(move |_| {
            if fits.get() {
                return Vec::new();
            }
            ctx.with_shown(|r| r.map(|r| ctx.with_scenario(|s| what_would_fit(s, r)))).unwrap_or_default()
        });
        let count = Memo::new(move |_| advice.with(Vec::len));
        view! {
            <div class="panel memory" data-fits=move || fits.get().to_string()>
                <h2>{e.memory_per_gpu}</h2>
                // A <div>, not a <p>: the show-the-math <details> is a block, which the HTML
                // parser would move out of a paragraph in the prerendered page.
                <div class=move || if fits.get() { "verdict ok" } else { "verdict bad" } id="verdict">
                    <strong>{move || verdict.get()}</strong>
                    <ShowMath key="fits" />
                </div>
                {bar_view(bar.into(), e)}
                <table class="legend">
                    <tbody>
                        {legend}
                        <tr class="total" data-key="memory_per_gpu_bytes.total">
                            <td>{e.total}</td>
                            <td class="num" id="total-per-gpu" data-bytes=move || total.get().to_string()>
                                {move || total_text.get()}
                            </td>
                            <td><ShowMath key="memory_per_gpu_bytes.total" /></td>
                        </tr>
                        <tr>
                            <td>{e.usable}</td>
                            <td class="num">{move || usable_text.get()} " / " {move || capacity_text.get()}</td>
                            <td><ShowMath key="usable_gpu_memory_bytes" /></td>
                        </tr>
                        <tr data-key="host_memory_bytes" hidden=move || host.get() == 0>
                            <td>{e.host_memory_row}</td>
                            <td class="num" id="host-memory-bytes">{move || host_text.get()}</td>
                            <td><ShowMath key="host_memory_bytes" /></td>
                        </tr>
                    </tbody>
                </table>
                {move || (count.get() > 0).then(|| advice_view(ctx, advice, count.get()))}
            </div>
        }
        .into_any()
    }
}

/// What would make the scenario fit (`count` changes), each a button that applies it.
fn advice_view(ctx: Ctx, advice: Memo<Vec<Advice>>, count: usize) -> impl IntoView {
    let e = ctx.lang.est();
    let text = move |change: &Change| match change {
        Change::ShorterContext(n) => format!("{} {} {}", e.shorter_context, format_tokens(*n), e.u_tokens),
        Change::SmallerBatch(n) => format!("{} {n}", e.smaller_batch),
        Change::LowerPrecision(d) => format!("{} {}", e.lower_precision, d.name().to_ascii_uppercase()),
        Change::LowerKvPrecision(d) => format!("{} {}", e.lower_kv_precision, d.name().to_ascii_uppercase()),
        Change::MoreGpus { gpus, tensor_parallel, pipeline_parallel } => {
            format!("{} {gpus} {} (TP {tensor_parallel} × PP {pipeline_parallel})", e.more_gpus, e.u_gpus)
        }
        Change::GpuLayers(n) => e.keep_gpu_layers.replace("{n}", &n.to_string()),
        Change::CpuMoe(n) => e.keep_cpu_moe.replace("{n}", &n.to_string()),
    };
    view! {
        <div class="advice">
            <h3>{e.what_would_fit}</h3>
            <ul>
                {(0..count)
                    .map(|i| {
                        let apply = move |_| {
                            if let Some(s) = advice.with_untracked(|a| a.get(i).map(|a| a.scenario.clone())) {
                                ctx.edit(move |cur| *cur = s);
                            }
                        };
                        view! {
                            <li>
                                <button class="apply" on:click=apply>
                                    {move || advice.with(|a| a.get(i).map(|a| text(&a.change)).unwrap_or_default())}
                                </button>
                            </li>
                        }
                    })
                    .collect_view()}
            </ul>
        </div>
    }
}

/// A one-line summary pinned to the bottom of narrow screens, so the effect of a slider is
/// visible while the controls fill the screen. Built once; an edit updates its text in place.
#[component]
pub fn StickySummary() -> impl IntoView {
    let ctx = expect_context::<Ctx>();
    let e = ctx.lang.est();
    // The summary as text: [fits ("true"/"false"), verdict, total, capacity, decode throughput].
    let text = Memo::new(move |_| {
        let unit = ctx.unit();
        ctx.with_shown(|r| {
            r.map(|r| {
                let tok = crate::charts::format::format_rate(
                    r.performance.throughput.decode_tokens_per_s,
                    " tok/s",
                )
                .replace("  ", " ");
                let verdict = if r.fits { e.fits } else { e.does_not_fit };
                [
                    r.fits.to_string(),
                    verdict.to_owned(),
                    format_bytes(r.memory_per_gpu_bytes.total, unit),
                    format_bytes(r.gpu_memory_bytes, unit),
                    tok,
                ]
            })
        })
    });
    let present = Memo::new(move |_| text.with(Option::is_some));
    let part =
        move |i: usize| move || text.with(|t| t.as_ref().and_then(|t| t.get(i).cloned()).unwrap_or_default());
    move || {
        present.get().then(|| {
            view! {
                <div class="sticky-summary" aria-hidden="true" data-fits=part(0)>
                    <strong>{part(1)}</strong>
                    " · " {part(2)} " / " {part(3)}
                    " · " {part(4)}
                </div>
            }
        })
    }
}
