//! The estimator's control groups, toolbar, invalid-state banner and compare table.

use super::controls::{Scale, Select, Slider, Toggle};
use super::memory_view::MemoryBar;
use super::{Ctx, Side};
use crate::catalog::gpus;
use crate::charts::format::{format_bytes, format_rate, ByteUnit};
use crate::engine::precision::Dtype;
use crate::engine::scenario::Mode;
use crate::engine::Scenario;
use crate::estimator::presets::PRESETS;
use crate::estimator::scales::{nice_values, powers_of_two};
use leptos::prelude::*;
use serde::de::DeserializeOwned;
use serde::Serialize;

/// The serde name of an enum value ("inference", "adam8bit" …).
fn name_of<T: Serialize>(v: &T) -> String {
    serde_json::to_value(v).ok().and_then(|v| v.as_str().map(str::to_owned)).unwrap_or_default()
}

fn parse_name<T: DeserializeOwned>(s: &str) -> Option<T> {
    serde_json::from_value(serde_json::Value::String(s.to_owned())).ok()
}

const DTYPES: [Dtype; 7] = [Dtype::Fp32, Dtype::Bf16, Dtype::Fp16, Dtype::Fp8, Dtype::Int8, Dtype::Int4, Dtype::Nf4];

fn dtype_options() -> Vec<(String, String)> {
    DTYPES.iter().map(|d| (d.name().to_owned(), d.name().to_uppercase())).collect()
}

/// A slider bound to an integer field of the active scenario.
fn int_slider(
    ctx: Ctx,
    id: &'static str,
    label: &'static str,
    unit: &'static str,
    values: Vec<u64>,
    get: fn(&Scenario) -> u64,
    set: fn(&mut Scenario, u64),
) -> impl IntoView {
    view! {
        <Slider
            id=id
            label=label
            unit=unit
            scale=Scale::Steps(values)
            value=Signal::derive(move || ctx.with_scenario(get) as f64)
            set=Callback::new(move |v: f64| ctx.edit(|s| set(s, v.max(0.0) as u64)))
            out_of_range=ctx.lang.est().number_out_of_range
        />
    }
}

/// Keeps `gpus` a multiple of tp × pp after either changes (rounding up).
fn fit_gpus_to_layout(s: &mut Scenario) {
    let group = (s.tensor_parallel * s.pipeline_parallel).max(1);
    if s.gpus % group != 0 || s.gpus < group {
        s.gpus = s.gpus.div_ceil(group).max(1) * group;
    }
}

#[component]
pub fn Toolbar() -> impl IntoView {
    let ctx = expect_context::<Ctx>();
    let e = ctx.lang.est();
    let lang = ctx.lang;
    let comparing = move || ctx.state.with(|s| s.compare.is_some());
    view! {
        <div class="toolbar">
            <div class="presets" role="group" aria-label=e.presets>
                <span class="toolbar-label">{e.presets}</span>
                {PRESETS
                    .iter()
                    .map(|p| view! {
                        <button class="preset" data-preset=p.id title=p.note(lang) on:click=move |_| {
                            let s = p.scenario();
                            ctx.edit(move |cur| *cur = s);
                        }>{p.title(lang)}</button>
                    })
                    .collect_view()}
            </div>
            <div class="toolbar-row">
                <label class="switch" title=e.compare_hint>
                    <input type="checkbox" id="compare-toggle" prop:checked=comparing on:change=move |ev| {
                        let on = event_target_checked(&ev);
                        ctx.state.update(|st| st.compare = if on { Some(st.scenario.clone()) } else { None });
                        ctx.side.set(if on { Side::B } else { Side::A });
                    } />
                    " " {e.compare}
                </label>
                {move || comparing().then(|| view! {
                    <div class="tabs" role="tablist" aria-label=e.editing>
                        <button role="tab" id="tab-a" aria-selected=move || (ctx.side.get() == Side::A).to_string()
                            on:click=move |_| ctx.side.set(Side::A)>{e.side_a}</button>
                        <button role="tab" id="tab-b" aria-selected=move || (ctx.side.get() == Side::B).to_string()
                            on:click=move |_| ctx.side.set(Side::B)>{e.side_b}</button>
                    </div>
                })}
                <div class="unit-switch" role="radiogroup" aria-label=e.unit>
                    {[(ByteUnit::Gb, "GB"), (ByteUnit::Gib, "GiB")]
                        .into_iter()
                        .map(|(u, name)| view! {
                            <label>
                                <input type="radio" name="unit" id=format!("unit-{}", name.to_lowercase())
                                    prop:checked=move || ctx.unit() == u
                                    on:change=move |_| ctx.state.update(|s| s.unit = u) />
                                " " {name}
                            </label>
                        })
                        .collect_view()}
                </div>
                <super::io::ImportExport />
            </div>
        </div>
    }
}

#[component]
pub fn WorkloadControls() -> impl IntoView {
    let ctx = expect_context::<Ctx>();
    let e = ctx.lang.est();
    let mode = Signal::derive(move || ctx.with_scenario(|s| name_of(&s.mode)));
    let training = move || ctx.with_scenario(|s| s.mode != Mode::Inference);
    view! {
        <fieldset class="group workload">
            <legend>{e.workload}</legend>
            <Select
                id="mode"
                label=e.mode
                options=vec![
                    ("inference".into(), e.mode_inference.into()),
                    ("training".into(), e.mode_training.into()),
                    ("lora".into(), e.mode_lora.into()),
                    ("qlora".into(), e.mode_qlora.into()),
                ]
                value=mode
                set=Callback::new(move |v: String| {
                    if let Some(m) = parse_name::<Mode>(&v) {
                        ctx.edit(|s| {
                            s.mode = m;
                            // Quantised weights cannot be trained; QLoRA wants a quantised base.
                            match m {
                                Mode::Training | Mode::Lora if s.weight_dtype.is_some_and(|d| !d.is_trainable_float()) => s.weight_dtype = None,
                                Mode::Qlora if s.weight_dtype.is_some_and(|d| d.is_trainable_float() || d == Dtype::Fp8) => s.weight_dtype = None,
                                _ => {}
                            }
                        })
                    }
                })
            />
            <Select
                id="weight-dtype"
                label=e.weight_dtype
                options=dtype_options()
                value=Signal::derive(move || ctx.with_scenario(|s| s.resolved_weight_dtype().name().to_owned()))
                set=Callback::new(move |v: String| if let Some(d) = parse_name::<Dtype>(&v) { ctx.edit(|s| s.weight_dtype = Some(d)) })
            />
            <Select
                id="kv-dtype"
                label=e.kv_dtype
                options=dtype_options()
                value=Signal::derive(move || ctx.with_scenario(|s| s.resolved_kv_dtype().name().to_owned()))
                set=Callback::new(move |v: String| if let Some(d) = parse_name::<Dtype>(&v) { ctx.edit(|s| s.kv_dtype = Some(d)) })
            />
            <Select
                id="activation-dtype"
                label=e.activation_dtype
                options=dtype_options()
                value=Signal::derive(move || ctx.with_scenario(|s| s.activation_dtype.name().to_owned()))
                set=Callback::new(move |v: String| if let Some(d) = parse_name::<Dtype>(&v) { ctx.edit(|s| s.activation_dtype = d) })
            />
            {int_slider(ctx, "context", e.context, e.u_tokens, nice_values(512, 1 << 20), |s| s.context_tokens, |s, v| s.context_tokens = v)}
            {move || {
                let label = if training() { e.batch_training } else { e.batch_inference };
                int_slider(ctx, "batch", label, e.u_sequences, nice_values(1, 1024), |s| s.batch, |s, v| s.batch = v)
            }}
        </fieldset>
    }
}

#[component]
pub fn HardwareControls() -> impl IntoView {
    let ctx = expect_context::<Ctx>();
    let e = ctx.lang.est();
    let options: Vec<(String, String)> = gpus::all()
        .iter()
        .map(|g| (g.id.clone(), format!("{} · {}", g.name, format_bytes(g.memory_bytes, ByteUnit::Gb))))
        .collect();
    let facts = move || {
        let id = ctx.with_scenario(|s| s.gpu.clone());
        gpus::find(&id).map(|g| {
            let mark = |field: &str| if g.uncertain.iter().any(|u| u == field || u.starts_with(&format!("{field}."))) { " ≈?" } else { "" };
            let bf16 = g.peak_flops.bf16.or(g.peak_flops.fp16).map(|f| format!("{} BF16/FP16 dense{}", format_rate(f, "FLOP/s"), mark("peak_flops"))).unwrap_or_default();
            let text = format!(
                "{} {}{} · {}{} · {}",
                format_bytes(g.memory_bytes, ByteUnit::Gb),
                g.memory_type,
                mark("memory_bytes"),
                format_rate(g.memory_bandwidth_bytes_per_s, "B/s"),
                mark("memory_bandwidth_bytes_per_s"),
                bf16
            );
            let uncertain = (!g.uncertain.is_empty()).then(|| g.uncertain.join(", "));
            (text, uncertain, g.retrieved.clone(), g.source.clone())
        })
    };
    view! {
        <fieldset class="group hardware">
            <legend>{e.hardware}</legend>
            <Select
                id="gpu"
                label=e.gpu
                options=options
                value=Signal::derive(move || ctx.with_scenario(|s| s.gpu.clone()))
                set=Callback::new(move |v: String| ctx.edit(|s| { s.gpu = v; s.gpu_memory_bytes = None; }))
            />
            {move || facts().map(|(text, uncertain, date, source)| view! {
                <p class="gpu-facts" id="gpu-facts">
                    {text}
                    {uncertain.map(|u| { let title = u.clone(); view! { <span class="uncertain" title=title>" · ≈? " {u}</span> } })}
                    <br />
                    <span class="source" title=source.clone()>{format!("{source}")}</span> " · " {date}
                </p>
            })}
            {int_slider(ctx, "gpus", e.gpus, e.u_gpus, nice_values(1, 1024), |s| s.gpus, |s, v| s.gpus = v)}
            {int_slider(ctx, "tensor-parallel", e.tensor_parallel, e.u_ways, powers_of_two(1, 64), |s| s.tensor_parallel, |s, v| { s.tensor_parallel = v; fit_gpus_to_layout(s); })}
            {int_slider(ctx, "pipeline-parallel", e.pipeline_parallel, e.u_ways, powers_of_two(1, 64), |s| s.pipeline_parallel, |s, v| { s.pipeline_parallel = v; fit_gpus_to_layout(s); })}
            <p class="derived">{e.data_parallel} ": " {move || ctx.with_scenario(|s| s.data_parallel())}</p>
        </fieldset>
    }
}

#[component]
pub fn TrainingControls() -> impl IntoView {
    let ctx = expect_context::<Ctx>();
    let e = ctx.lang.est();
    let mode = move || ctx.with_scenario(|s| s.mode);
    move || {
        let m = mode();
        (m != Mode::Inference).then(|| {
            view! {
                <fieldset class="group training">
                    <legend>{e.training}</legend>
                    <Select
                        id="optimizer"
                        label=e.optimizer
                        options=vec![
                            ("adamw".into(), "AdamW".into()),
                            ("adam8bit".into(), "8-bit Adam".into()),
                            ("sgd_momentum".into(), "SGD + momentum".into()),
                            ("sgd".into(), "SGD".into()),
                        ]
                        value=Signal::derive(move || ctx.with_scenario(|s| name_of(&s.optimizer)))
                        set=Callback::new(move |v: String| if let Some(o) = parse_name(&v) { ctx.edit(|s| s.optimizer = o) })
                    />
                    <Select
                        id="zero-stage"
                        label=e.zero_stage
                        options=(0..=3).map(|z| (z.to_string(), format!("ZeRO-{z}"))).collect()
                        value=Signal::derive(move || ctx.with_scenario(|s| s.zero_stage.to_string()))
                        set=Callback::new(move |v: String| if let Ok(z) = v.parse::<u8>() { ctx.edit(|s| s.zero_stage = z) })
                    />
                    <Select
                        id="recompute"
                        label=e.recompute
                        options=vec![
                            ("none".into(), e.recompute_none.into()),
                            ("selective".into(), e.recompute_selective.into()),
                            ("full".into(), e.recompute_full.into()),
                        ]
                        value=Signal::derive(move || ctx.with_scenario(|s| name_of(&s.recompute)))
                        set=Callback::new(move |v: String| if let Some(r) = parse_name(&v) { ctx.edit(|s| s.recompute = r) })
                    />
                    <Toggle
                        id="flash-attention"
                        label=e.flash_attention
                        value=Signal::derive(move || ctx.with_scenario(|s| s.flash_attention))
                        set=Callback::new(move |v: bool| ctx.edit(|s| s.flash_attention = v))
                    />
                    {matches!(m, Mode::Lora | Mode::Qlora).then(|| int_slider(ctx, "lora-rank", e.lora_rank, "r", powers_of_two(1, 1024), |s| s.lora_rank, |s, v| s.lora_rank = v))}
                </fieldset>
            }
        })
    }
}

#[component]
pub fn AssumptionControls() -> impl IntoView {
    let ctx = expect_context::<Ctx>();
    let e = ctx.lang.est();
    view! {
        <details class="group assumptions-group">
            <summary>{e.assumptions}</summary>
            <Slider
                id="safety-margin"
                label=e.safety_margin
                unit=e.u_percent
                scale=Scale::Linear { min: 0.0, max: 50.0, step: 1.0 }
                value=Signal::derive(move || ctx.with_scenario(|s| (s.safety_margin * 100.0).round()))
                set=Callback::new(move |v: f64| ctx.edit(|s| s.safety_margin = (v / 100.0).clamp(0.0, 0.5)))
                out_of_range=e.number_out_of_range
            />
            <Slider
                id="overhead"
                label=e.overhead
                unit="GiB"
                scale=Scale::Linear { min: 0.0, max: 16.0, step: 0.25 }
                value=Signal::derive(move || ctx.with_scenario(|s| s.runtime_overhead_bytes as f64 / (1u64 << 30) as f64))
                set=Callback::new(move |v: f64| ctx.edit(|s| s.runtime_overhead_bytes = (v.clamp(0.0, 16.0) * (1u64 << 30) as f64) as u64))
                out_of_range=e.number_out_of_range
            />
            {int_slider(ctx, "int4-group", e.int4_group, e.u_per_group, powers_of_two(16, 1024), |s| s.int4_group_size, |s, v| s.int4_group_size = v)}
            {int_slider(ctx, "kv-block", e.kv_block, e.u_tokens, powers_of_two(1, 256), |s| s.kv_block_tokens, |s, v| s.kv_block_tokens = v)}
        </details>
    }
}

/// Shown while the current settings do not evaluate: names the field and keeps the last result.
#[component]
pub fn InvalidBanner() -> impl IntoView {
    let ctx = expect_context::<Ctx>();
    let e = ctx.lang.est();
    move || {
        ctx.result().err().map(|err| view! {
            <div class="banner error" role="alert" id="invalid-banner" data-field=err.field().to_owned()>
                <strong>{e.invalid_heading}</strong>
                ": " {err.to_string()}
                " " {move || ctx.shown().is_some().then_some(e.showing_last_valid)}
            </div>
        })
    }
}

/// Compare mode: both scenarios' memory side by side.
#[component]
pub fn Compare() -> impl IntoView {
    let ctx = expect_context::<Ctx>();
    let e = ctx.lang.est();
    move || {
        let (Some(a), Some(b)) = (ctx.shown_a.get(), ctx.shown_b.get()) else { return ().into_any() };
        let unit = ctx.unit();
        let (sa, sb) = ctx.state.with(|s| (s.scenario.clone(), s.compare.clone().unwrap_or_else(|| s.scenario.clone())));
        let row = |label: &'static str, fa: String, fb: String| view! { <tr><th scope="row">{label}</th><td>{fa}</td><td>{fb}</td></tr> };
        let verdict = |r: &crate::engine::Report| if r.fits { e.fits.to_owned() } else { e.does_not_fit.to_owned() };
        view! {
            <div class="panel compare" id="compare">
                <h2>{e.compare}</h2>
                <table class="compare-table">
                    <thead><tr><th></th><th>{e.side_a}</th><th>{e.side_b}</th></tr></thead>
                    <tbody>
                        {row(e.model, a.model.name.clone(), b.model.name.clone())}
                        {row(e.gpu, format!("{} × {}", sa.gpus, sa.gpu), format!("{} × {}", sb.gpus, sb.gpu))}
                        {row(e.weight_dtype, sa.resolved_weight_dtype().name().into(), sb.resolved_weight_dtype().name().into())}
                        {row(e.context, sa.context_tokens.to_string(), sb.context_tokens.to_string())}
                        {row(e.batch_inference, sa.batch.to_string(), sb.batch.to_string())}
                        {row(e.weights, format_bytes(a.memory_per_gpu_bytes.weights, unit), format_bytes(b.memory_per_gpu_bytes.weights, unit))}
                        {row(e.kv_cache, format_bytes(a.memory_per_gpu_bytes.kv_cache, unit), format_bytes(b.memory_per_gpu_bytes.kv_cache, unit))}
                        {row(e.total, format_bytes(a.memory_per_gpu_bytes.total, unit), format_bytes(b.memory_per_gpu_bytes.total, unit))}
                        {row(e.memory_per_gpu, verdict(&a), verdict(&b))}
                    </tbody>
                </table>
                <div class="compare-bars">
                    <p>{e.side_a}</p>
                    <MemoryBar report=a.clone() />
                    <p>{e.side_b}</p>
                    <MemoryBar report=b.clone() />
                </div>
            </div>
        }
        .into_any()
    }
}
