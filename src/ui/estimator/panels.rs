//! The estimator's control groups, toolbar, invalid-state banner and compare table.

use super::controls::{Scale, Select, Slider, Toggle};
use super::memory_view::{bar_view, Bar};
use super::{Ctx, Side};
use crate::catalog::{gpus, team};
use crate::charts::format::{format_bytes, format_rate, format_seconds, ByteUnit};
use crate::engine::efficiency::EfficiencyOverrides;
use crate::engine::hardware::GpuSpec;
use crate::engine::links::KvLink;
use crate::engine::precision::file_type::FileType;
use crate::engine::precision::Dtype;
use crate::engine::workload::{Mode, SpecMethod};
use crate::engine::Scenario;
use crate::estimator::edits;
use crate::estimator::mig_slice::{self, parse_slice_id};
use crate::estimator::presets::PRESETS;
use crate::estimator::scales::{nice_values, powers_of_two};
use crate::i18n::{EstimatorPanelStrings, EstimatorStrings};
use leptos::prelude::*;
use serde::de::DeserializeOwned;
use serde::Serialize;

/// The serde name of an enum value ("inference", "adam8bit" …).
pub(super) fn name_of<T: Serialize>(v: &T) -> String {
    serde_json::to_value(v).ok().and_then(|v| v.as_str().map(str::to_owned)).unwrap_or_default()
}

pub(super) fn parse_name<T: DeserializeOwned>(s: &str) -> Option<T> {
    serde_json::from_value(serde_json::Value::String(s.to_owned())).ok()
}

const DTYPES: [Dtype; 7] =
    [Dtype::Fp32, Dtype::Bf16, Dtype::Fp16, Dtype::Fp8, Dtype::Int8, Dtype::Int4, Dtype::Nf4];

/// The weight formats: the KV/activation ones plus the 4-bit microscaling formats.
const WEIGHT_DTYPES: [Dtype; 2] = [Dtype::Mxfp4, Dtype::Nvfp4];

/// llama.cpp's file types in the weight menu, by bits (the quantizer's own list order aside).
const FILE_TYPES: [FileType; 30] = [
    FileType::Q8_0,
    FileType::Q6_K,
    FileType::Q5_K_M,
    FileType::Q5_K_S,
    FileType::Q5_1,
    FileType::Q5_0,
    FileType::Q4_K_M,
    FileType::Q4_K_S,
    FileType::Q4_1,
    FileType::IQ4_NL,
    FileType::Q4_0,
    FileType::IQ4_XS,
    FileType::MXFP4_MOE,
    FileType::Q3_K_L,
    FileType::Q3_K_M,
    FileType::IQ3_M,
    FileType::IQ3_S,
    FileType::Q3_K_S,
    FileType::IQ3_XS,
    FileType::IQ3_XXS,
    FileType::Q2_K,
    FileType::Q2_K_S,
    FileType::IQ2_M,
    FileType::IQ2_S,
    FileType::IQ2_XS,
    FileType::IQ2_XXS,
    FileType::TQ2_0,
    FileType::IQ1_M,
    FileType::TQ1_0,
    FileType::IQ1_S,
];

/// llama.cpp's KV cache formats (`-ctk`/`-ctv`) beyond the 16/32-bit ones.
const KV_FILE_TYPES: [FileType; 6] =
    [FileType::Q8_0, FileType::Q5_1, FileType::Q5_0, FileType::Q4_1, FileType::IQ4_NL, FileType::Q4_0];

fn llama_cpp_option(t: FileType) -> (String, String) {
    (t.key().to_owned(), format!("{} · llama.cpp", t.name()))
}

/// The weight formats, after "as published" (`auto`: the checkpoint's own format, which the
/// engine reads from a `quantization_config`, else 16 bits).
fn weight_dtype_options(e: &EstimatorStrings) -> Vec<(String, String)> {
    let mut o = vec![(AS_PUBLISHED.to_owned(), e.weight_as_published.to_owned())];
    o.extend(dtype_options());
    o.extend(WEIGHT_DTYPES.iter().map(|d| (d.name().to_owned(), d.name().to_ascii_uppercase())));
    o.extend(FILE_TYPES.iter().map(|t| llama_cpp_option(*t)));
    o
}

fn kv_dtype_options() -> Vec<(String, String)> {
    let mut o = dtype_options();
    o.extend(KV_FILE_TYPES.iter().map(|t| llama_cpp_option(*t)));
    o
}

/// The weight format a report was sized in: the checkpoint's own when the engine applied it
/// (as published), else the scenario's.
fn weight_shown(s: &Scenario, r: &crate::engine::Report) -> String {
    match r.model.quantization.as_ref().filter(|q| q.applied) {
        Some(q) => q.format.to_ascii_uppercase(),
        None => s.resolved_weight_dtype().name().to_ascii_uppercase(),
    }
}

/// The weight select's value for "as published".
pub(super) const AS_PUBLISHED: &str = "auto";

/// The weight select's value: `auto` while inference keeps the checkpoint's format.
pub(super) fn weight_dtype_value(s: &Scenario) -> String {
    match (s.weight_dtype, s.mode) {
        (None, Mode::Inference) => AS_PUBLISHED.to_owned(),
        _ => s.resolved_weight_dtype().name().to_owned(),
    }
}

/// Sets the weight format from the select (`auto`: as published).
pub(super) fn set_weight_dtype(s: &mut Scenario, v: &str) {
    if v == AS_PUBLISHED {
        s.weight_dtype = None;
    } else if let Some(d) = parse_name::<Dtype>(v) {
        s.weight_dtype = Some(d);
    }
}

fn dtype_options() -> Vec<(String, String)> {
    DTYPES.iter().map(|d| (d.name().to_owned(), d.name().to_ascii_uppercase())).collect()
}

/// A slider bound to an integer field of the active scenario.
/// The speculative methods the estimator offers (a draft model needs a second model and an
/// acceptance: the CLI and the link take it).
fn spec_method_options(ps: &EstimatorPanelStrings) -> Vec<(String, String)> {
    let [off, eagle, mtp, ngram] = ps.spec_methods;
    vec![
        ("off".into(), off.into()),
        (SpecMethod::Eagle3.key().into(), eagle.into()),
        (SpecMethod::Mtp.key().into(), mtp.into()),
        (SpecMethod::Ngram.key().into(), ngram.into()),
    ]
}

/// The KV transfer links as the menu names them, "auto" (the engine's default) first.
fn kv_link_options(l: &crate::i18n::LoadStrings) -> Vec<(String, String)> {
    std::iter::once(("auto".to_owned(), l.kv_link_auto.to_owned()))
        .chain(KvLink::ALL.into_iter().zip(l.kv_links).map(|(k, name)| (k.key().to_owned(), name.to_owned())))
        .collect()
}

pub(super) fn int_slider(
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

#[component]
pub fn Toolbar() -> impl IntoView {
    let ctx = expect_context::<Ctx>();
    let e = ctx.lang.est();
    let ps = ctx.lang.est_panels();
    let lang = ctx.lang;
    // Memos: the tabs and the unit switch change only when these do, not on every edit.
    let comparing = Memo::new(move |_| ctx.state.with(|s| s.compare.is_some()));
    let unit = Memo::new(move |_| ctx.unit());
    view! {
        <div class="toolbar">
            <div class="presets" role="group" aria-label=ctx.lang.est_panels().presets>
                <span class="toolbar-label">{ctx.lang.est_panels().presets}</span>
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
                <label class="switch" title=ps.compare_hint>
                    <input type="checkbox" id="compare-toggle" prop:checked=move || comparing.get() on:change=move |ev| {
                        let on = event_target_checked(&ev);
                        ctx.state.update(|st| st.compare = if on { Some(st.scenario.clone()) } else { None });
                        ctx.side.set(if on { Side::B } else { Side::A });
                    } />
                    " " {e.compare}
                </label>
                {move || comparing.get().then(|| view! {
                    <div class="tabs" role="tablist" aria-label=ps.editing>
                        <button role="tab" id="tab-a" aria-selected=move || (ctx.side.get() == Side::A).to_string()
                            on:click=move |_| ctx.side.set(Side::A)>{ps.side_a}</button>
                        <button role="tab" id="tab-b" aria-selected=move || (ctx.side.get() == Side::B).to_string()
                            on:click=move |_| ctx.side.set(Side::B)>{ps.side_b}</button>
                    </div>
                })}
                <div class="unit-switch" role="radiogroup" aria-label=e.unit>
                    {[(ByteUnit::Gb, "GB"), (ByteUnit::Gib, "GiB")]
                        .into_iter()
                        .map(|(u, name)| view! {
                            <label>
                                <input type="radio" name="unit" id=format!("unit-{}", name.to_ascii_lowercase())
                                    prop:checked=move || unit.get() == u
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
    let ps = ctx.lang.est_panels();
    let mode = Signal::derive(move || ctx.with_scenario(|s| name_of(&s.mode)));
    // A memo: the batch and output-token sliders are rebuilt when the mode switches between
    // serving and training, not on every edit.
    let training = Memo::new(move |_| ctx.with_scenario(|s| s.mode != Mode::Inference));
    view! {
        <fieldset class="group workload">
            <legend>{e.workload}</legend>
            <Select
                id="mode"
                label=e.mode
                options=vec![
                    ("inference".into(), ps.mode_inference.into()),
                    ("training".into(), ps.mode_training.into()),
                    ("lora".into(), ps.mode_lora.into()),
                    ("qlora".into(), ps.mode_qlora.into()),
                ]
                value=mode
                set=Callback::new(move |v: String| {
                    if let Some(m) = parse_name::<Mode>(&v) {
                        ctx.edit(|s| edits::set_mode(s, m))
                    }
                })
            />
            <Select
                id="weight-dtype"
                label=e.weight_dtype
                options=weight_dtype_options(e)
                value=Signal::derive(move || ctx.with_scenario(weight_dtype_value))
                set=Callback::new(move |v: String| ctx.edit(|s| set_weight_dtype(s, &v)))
            />
            <Select
                id="kv-dtype"
                label=e.kv_dtype
                options=kv_dtype_options()
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
            {int_slider(ctx, "context", e.context, e.u_tokens, nice_values(512, 1 << 20), |s| s.context_tokens, edits::set_context_tokens)}
            {move || {
                let label = if training.get() { ps.batch_training } else { e.batch_inference };
                int_slider(ctx, "batch", label, e.u_sequences, nice_values(1, 1024), |s| s.batch, |s, v| s.batch = v)
            }}
            {move || (!training.get()).then(|| view! {
                <Slider
                    id="output-tokens"
                    label=e.output_tokens
                    unit=e.u_tokens
                    scale=Scale::Steps(nice_values(1, 32768))
                    value=Signal::derive(move || ctx.with_shown(|r| r.map(|r| r.performance.workload.output_tokens as f64)).unwrap_or(1.0))
                    set=Callback::new(move |v: f64| ctx.edit(|s| edits::set_output_tokens(s, v.max(1.0) as u64)))
                    out_of_range=e.number_out_of_range
                />
                <p class="derived">{ps.prompt_derived} {ctx.lang.colon()} {move || ctx.with_shown(|r| r.map(|r| r.performance.workload.prompt_tokens))}</p>
                {int_slider(ctx, "prefix-shared", e.prefix_shared, e.u_tokens,
                    std::iter::once(0).chain(nice_values(16, 1 << 20)).collect(),
                    |s| s.prefix_shared_tokens, edits::set_prefix_shared)}
                <Slider
                    id="prefix-hit"
                    label=e.prefix_hit
                    unit=ps.u_percent
                    scale=Scale::Linear { min: 0.0, max: 100.0, step: 1.0 }
                    value=Signal::derive(move || ctx.with_scenario(|s| (s.prefix_hit_rate.unwrap_or(0.0) * 100.0).round()))
                    set=Callback::new(move |v: f64| ctx.edit(|s| edits::set_prefix_hit_rate(s, v)))
                    out_of_range=e.number_out_of_range
                />
                <p class="hint">{ps.prefix_note}</p>
                {int_slider(ctx, "kv-sessions", e.kv_sessions, ps.u_sessions,
                    std::iter::once(0).chain(nice_values(1, 1_000_000)).collect(),
                    |s| s.prefix_open_sessions, edits::set_open_sessions)}
                <KvTierControls />
                <Select
                    id="spec-method"
                    label=ps.spec_method
                    options=spec_method_options(ps)
                    value=Signal::derive(move || ctx.with_scenario(|s| s.speculative_method.map_or("off", |m| m.key()).to_owned()))
                    set=Callback::new(move |v: String| {
                        let m = SpecMethod::ALL.into_iter().find(|m| m.key() == v);
                        ctx.edit(|s| edits::set_spec_method(s, m))
                    })
                />
                {move || ctx.with_scenario(|s| s.speculative_method.is_some()).then(|| view! {
                    <Slider
                        id="spec-tokens"
                        label=ps.spec_tokens
                        unit=e.u_tokens
                        scale=Scale::Linear { min: 1.0, max: 32.0, step: 1.0 }
                        value=Signal::derive(move || ctx.with_shown(|r| r.and_then(|r| r.performance.speculative.as_ref().map(|p| p.draft_tokens as f64))).unwrap_or(1.0))
                        set=Callback::new(move |v: f64| ctx.edit(|s| edits::set_spec_draft_tokens(s, v.max(1.0) as u64)))
                        out_of_range=e.number_out_of_range
                    />
                    <Slider
                        id="spec-acceptance"
                        label=ps.spec_acceptance
                        unit=ps.u_percent
                        scale=Scale::Linear { min: 0.0, max: 99.0, step: 1.0 }
                        value=Signal::derive(move || ctx.with_scenario(|s| (s.speculative_acceptance_rate.unwrap_or(0.0) * 100.0).round()))
                        set=Callback::new(move |v: f64| ctx.edit(|s| edits::set_spec_acceptance(s, v)))
                        out_of_range=e.number_out_of_range
                    />
                    <p class="hint">{ps.spec_note}</p>
                    {move || ctx.with_shown(|r| r.and_then(|r| r.performance.speculative.as_ref().filter(|p| p.acceptance_uncertain).and_then(|p| p.acceptance_source)))
                        .map(|src| view! { <p class="hint uncertain">{ps.spec_uncertain} " " {src}</p> })}
                })}
                <Slider
                    id="arrival-rate"
                    label=ctx.lang.load().rate_control
                    unit=ctx.lang.load().u_per_s
                    scale=Scale::Linear { min: 0.0, max: 500.0, step: 0.1 }
                    value=Signal::derive(move || ctx.with_scenario(|s| s.arrival_rate_per_s.unwrap_or(0.0)))
                    set=Callback::new(move |v: f64| ctx.edit(|s| edits::set_arrival_rate(s, v)))
                    out_of_range=e.number_out_of_range
                />
                {int_slider(ctx, "concurrent-users", ctx.lang.load().users_control, ctx.lang.load().u_users,
                    std::iter::once(0).chain(nice_values(1, 4096)).collect(),
                    |s| s.concurrent_users.unwrap_or(0), edits::set_concurrent_users)}
                {int_slider(ctx, "prefill-workers", ctx.lang.load().prefill_workers_control, ctx.lang.load().u_workers,
                    std::iter::once(0).chain(nice_values(1, 4096)).collect(),
                    |s| s.prefill_workers, edits::set_prefill_workers)}
                {move || ctx.with_scenario(|s| s.prefill_workers > 0).then(|| view! {
                    {int_slider(ctx, "prefill-tp", ctx.lang.load().prefill_tp_control, ctx.lang.load().u_gpus,
                        vec![1, 2, 4, 8, 16, 32, 64],
                        |s| s.prefill_tensor_parallel.unwrap_or(s.tensor_parallel), edits::set_prefill_tensor_parallel)}
                    <Select
                        id="kv-link"
                        label=ctx.lang.load().kv_link_control
                        options=kv_link_options(ctx.lang.load())
                        value=Signal::derive(move || ctx.with_scenario(|s| s.kv_transfer_link.map_or("auto", |k| k.key()).to_owned()))
                        set=Callback::new(move |v: String| {
                            let k = KvLink::ALL.into_iter().find(|k| k.key() == v);
                            ctx.edit(|s| s.kv_transfer_link = k)
                        })
                    />
                    <p class="hint">{ctx.lang.load().disagg_note}</p>
                })}
            })}
        </fieldset>
    }
}

/// Bytes in whole decimal GB (the tiers' sliders).
fn gb(bytes: u64) -> u64 {
    (bytes as f64 / 1e9).round() as u64
}

/// KV cache tiers below the GPU, shown while open sessions are counted: the CPU and SSD tiers'
/// sizes per GPU (GB), their read rates (GB/s, the engine's default shown until the reader
/// gives one; 0 goes back to it) and GPU prefix caching off (`kv_*` fields).
#[component]
fn KvTierControls() -> impl IntoView {
    use crate::engine::perf::kv_tiers::DEFAULT_SSD_BYTES_PER_S;
    use crate::engine::perf::offload::PCIE4_X16;
    use edits::Tier;
    let ctx = expect_context::<Ctx>();
    let e = ctx.lang.est();
    let ps = ctx.lang.est_panels();
    // Memos: the group and each rate slider are built when they appear, not on every edit.
    let open = Memo::new(move |_| ctx.with_scenario(|s| s.prefix_open_sessions > 0));
    let has = move |tier: Tier| {
        Memo::new(move |_| {
            ctx.with_scenario(|s| match tier {
                Tier::Cpu => s.kv_cpu_tier_bytes > 0,
                Tier::Ssd => s.kv_ssd_tier_bytes > 0,
            })
        })
    };
    let (cpu, ssd) = (has(Tier::Cpu), has(Tier::Ssd));
    // A tier's read rate in GB/s as the engine used it: the reader's, else its default.
    let rate = move |tier: Tier| {
        Signal::derive(move || {
            let bytes_per_s = ctx.with_shown(|r| {
                r.map(|r| {
                    let p = &r.performance;
                    let used = p.time.kv_tiers.as_ref().and_then(|t| match tier {
                        Tier::Cpu => t.cpu.map(|u| u.bytes_per_s),
                        Tier::Ssd => t.ssd.map(|u| u.bytes_per_s),
                    });
                    let given = ctx.with_scenario(|s| match tier {
                        Tier::Cpu => s.kv_cpu_tier_bytes_per_s,
                        Tier::Ssd => s.kv_ssd_tier_bytes_per_s,
                    });
                    let default = match tier {
                        Tier::Cpu => p.hardware.pcie_bytes_per_s_per_direction.unwrap_or(PCIE4_X16),
                        Tier::Ssd => DEFAULT_SSD_BYTES_PER_S,
                    };
                    given.or(used).unwrap_or(default)
                })
            });
            (bytes_per_s.unwrap_or(0.0) / 1e8).round() / 10.0
        })
    };
    let rate_slider = move |tier: Tier| {
        let (id, label, max) = match tier {
            Tier::Cpu => ("kv-cpu-rate", e.kv_cpu_rate, 500.0),
            Tier::Ssd => ("kv-ssd-rate", e.kv_ssd_rate, 100.0),
        };
        view! {
            <Slider
                id=id
                label=label
                unit="GB/s"
                scale=Scale::Linear { min: 0.0, max, step: 0.1 }
                value=rate(tier)
                set=Callback::new(move |v: f64| ctx.edit(|s| edits::set_tier_rate(s, tier, v)))
                out_of_range=e.number_out_of_range
            />
        }
    };
    move || {
        open.get().then(|| {
            view! {
                {int_slider(ctx, "kv-cpu-tier", e.kv_cpu_tier, "GB", std::iter::once(0).chain(nice_values(1, 8192)).collect(),
                    |s| gb(s.kv_cpu_tier_bytes), |s, v| edits::set_tier_gb(s, Tier::Cpu, v as f64))}
                {move || cpu.get().then(|| rate_slider(Tier::Cpu))}
                {int_slider(ctx, "kv-ssd-tier", e.kv_ssd_tier, "GB", std::iter::once(0).chain(nice_values(1, 131_072)).collect(),
                    |s| gb(s.kv_ssd_tier_bytes), |s, v| edits::set_tier_gb(s, Tier::Ssd, v as f64))}
                {move || ssd.get().then(|| rate_slider(Tier::Ssd))}
                <Toggle
                    id="kv-gpu-cache-off"
                    label=e.kv_gpu_cache_off
                    value=Signal::derive(move || ctx.with_scenario(|s| s.kv_gpu_cache_bytes == Some(0)))
                    set=Callback::new(move |off: bool| ctx.edit(|s| edits::set_gpu_prefix_cache(s, !off)))
                />
                <p class="hint">{ps.kv_tiers_note}</p>
            }
        })
    }
}

/// A GPU as the menus name it: its name and memory, a custom GPU without a name of its own
/// in the page's language, and a GPU of the team's catalog marked as such.
pub fn gpu_label(g: &gpus::Gpu, e: &EstimatorStrings) -> String {
    let name = if g.id == "custom" && g.name == gpus::Gpu::default().name { e.custom_gpu } else { &g.name };
    let label = format!("{name} · {}", format_bytes(g.memory_bytes, ByteUnit::Gb));
    if team::is_team_gpu(&g.id) {
        format!("{label} · {}", e.team_catalog)
    } else {
        label
    }
}

/// The catalog id behind the scenario's GPU (a MIG slice's parent), and the slice's profile.
fn gpu_choice(s: &Scenario) -> (String, Option<String>) {
    match &s.gpu {
        GpuSpec::Id(id) => (id.clone(), None),
        GpuSpec::Custom(g) => match parse_slice_id(&g.id) {
            Some((parent, profile)) => (parent.to_owned(), Some(profile.to_owned())),
            None => ("custom".to_owned(), None),
        },
    }
}

#[component]
pub fn HardwareControls() -> impl IntoView {
    let ctx = expect_context::<Ctx>();
    let e = ctx.lang.est();
    let ps = ctx.lang.est_panels();
    let options: Vec<(String, String)> =
        gpus::all().iter().map(|g| (g.id.clone(), gpu_label(g, e))).collect();
    // A custom GPU (imported, or given in the address) is a choice of its own, by its name; the
    // menu is redrawn when it comes or goes.
    let custom = Memo::new(move |_| {
        ctx.with_scenario(|s| match &s.gpu {
            GpuSpec::Custom(g) if parse_slice_id(&g.id).is_none() => Some(gpu_label(g, e)),
            _ => None,
        })
    });
    // Memos: the GPU's facts and its MIG profiles are rebuilt when they change (another GPU), not
    // on every edit.
    let facts = Memo::new(move |_| {
        ctx.with_shown(|r| {
            r.map(|r| {
                let h = &r.performance.hardware;
                let mark = |field: &str| {
                    if h.uncertain.iter().any(|u| u == field || u.starts_with(&format!("{field}."))) {
                        " ≈?"
                    } else {
                        ""
                    }
                };
                let text = format!(
                    "{}{} · {}{} · {} {}{}",
                    format_bytes(r.gpu_memory_bytes, ByteUnit::Gb),
                    mark("memory_bytes"),
                    format_rate(h.memory_bandwidth_bytes_per_s, "B/s"),
                    mark("memory_bandwidth_bytes_per_s"),
                    format_rate(h.peak_flops_per_s, "FLOP/s"),
                    crate::i18n::facts::compute_path(&h.path, ctx.lang),
                    mark("peak_flops"),
                );
                let uncertain = (!h.uncertain.is_empty()).then(|| h.uncertain.join(", "));
                let team = ctx.with_scenario(|s| team::is_team_gpu(&gpu_choice(s).0));
                let source = if team {
                    format!("{}{}{}", e.team_catalog, ctx.lang.colon(), h.source)
                } else {
                    h.source.clone()
                };
                (text, uncertain, h.retrieved.clone(), source)
            })
        })
    });
    let mig_options = Memo::new(move |_| {
        let (parent, _) = ctx.with_scenario(gpu_choice);
        gpus::find(&parent)
            .map(|g| mig_slice::profiles(g).iter().map(|p| p.name.clone()).collect::<Vec<_>>())
            .unwrap_or_default()
    });
    view! {
        <fieldset class="group hardware">
            <legend>{e.hardware}</legend>
            {move || {
                let mut options = options.clone();
                options.extend(custom.get().map(|name| ("custom".to_owned(), name)));
                view! {
                    <Select
                        id="gpu"
                        label=e.gpu
                        options=options
                        value=Signal::derive(move || ctx.with_scenario(|s| gpu_choice(s).0))
                        set=Callback::new(move |v: String| if v != "custom" { ctx.edit(|s| { s.gpu = GpuSpec::Id(v); s.gpu_memory_bytes = None; }) })
                    />
                }
            }}
            {move || {
                let profiles = mig_options.get();
                (!profiles.is_empty()).then(|| {
                    let mut opts = vec![("".to_owned(), e.whole_gpu.to_owned())];
                    opts.extend(profiles.into_iter().map(|p| (p.clone(), p)));
                    view! {
                        <Select
                            id="mig"
                            label=ps.mig_slice
                            options=opts
                            value=Signal::derive(move || ctx.with_scenario(|s| gpu_choice(s).1.unwrap_or_default()))
                            set=Callback::new(move |v: String| {
                                let (parent, _) = ctx.with_scenario(gpu_choice);
                                let Some(g) = gpus::find(&parent) else { return };
                                let spec = mig_slice::profiles(g)
                                    .iter()
                                    .find(|p| p.name == v)
                                    .map(|p| GpuSpec::Custom(Box::new(mig_slice::mig_slice(g, p))))
                                    .unwrap_or(GpuSpec::Id(parent));
                                ctx.edit(|s| { s.gpu = spec; s.gpu_memory_bytes = None; });
                            })
                        />
                    }
                })
            }}
            {move || facts.get().map(|(text, uncertain, date, source)| view! {
                <p class="gpu-facts" id="gpu-facts">
                    {text}
                    {uncertain.map(|u| { let title = u.clone(); view! { <span class="uncertain" title=title>" · ≈? " {u}</span> } })}
                    <br />
                    <span class="source" data-source="" title=source.clone()>{source.clone()}</span> " · " {date}
                </p>
            })}
            {int_slider(ctx, "gpus", e.gpus, e.u_gpus, nice_values(1, 1024), |s| s.gpus, edits::set_gpus)}
            {int_slider(ctx, "tensor-parallel", e.tensor_parallel, ps.u_ways, powers_of_two(1, 64), |s| s.tensor_parallel, edits::set_tensor_parallel)}
            {int_slider(ctx, "pipeline-parallel", e.pipeline_parallel, ps.u_ways, powers_of_two(1, 64), |s| s.pipeline_parallel, edits::set_pipeline_parallel)}
            <p class="derived">{e.data_parallel} {ctx.lang.colon()} {move || ctx.with_scenario(|s| s.data_parallel())}</p>
            <Select
                id="topology"
                label=e.topology
                options=vec![
                    ("nvswitch".into(), e.topology_nvswitch.into()),
                    ("nvswitch_efa".into(), e.topology_efa.into()),
                    ("pcie".into(), e.topology_pcie.into()),
                    ("nvlink_bridge".into(), e.topology_bridge.into()),
                ]
                value=Signal::derive(move || ctx.with_shown(|r| r.map(|r| r.performance.hardware.topology.clone())).unwrap_or_default())
                set=Callback::new(move |v: String| if let Some(t) = parse_name(&v) { ctx.edit(|s| s.topology = Some(t)) })
            />
            <StackControls />
            <Slider
                id="price"
                label=e.price
                unit=ps.u_usd
                scale=Scale::Linear { min: 0.0, max: 20.0, step: 0.05 }
                value=Signal::derive(move || ctx.with_shown(|r| r.and_then(|r| r.performance.serving.price_per_gpu_hour)).unwrap_or(0.0))
                set=Callback::new(move |v: f64| ctx.edit(|s| s.price_per_gpu_hour = (v > 0.0).then_some(v)))
                out_of_range=e.number_out_of_range
            />
        </fieldset>
    }
}

/// The serving stack, and for an MoE model the experts' kernel family and expert parallelism
/// (`serving_stack`, `moe_kernel`, `expert_parallel`).
#[component]
fn StackControls() -> impl IntoView {
    use crate::engine::stack::{MoeKernel, ServingStack};
    let ctx = expect_context::<Ctx>();
    let e = ctx.lang.est();
    let ps = ctx.lang.est_panels();
    // Proper names, the same in both languages.
    let stack_name = |s: ServingStack| match s {
        ServingStack::VllmV1 => "vLLM V1 (2025)",
        ServingStack::VllmV05 => "vLLM 0.5 (2024)",
        ServingStack::Sglang => "SGLang",
        ServingStack::Trtllm => "TensorRT-LLM 1.0",
    };
    let kernel_name = |k: MoeKernel| match k {
        MoeKernel::TritonFused => "Triton fused_moe",
        MoeKernel::Deepgemm => "DeepGEMM",
        MoeKernel::CutlassGrouped => "CUTLASS grouped GEMM",
    };
    let stacks: Vec<(String, String)> =
        ServingStack::ALL.iter().map(|s| (s.key().to_owned(), stack_name(*s).to_owned())).collect();
    let mut kernels = vec![(String::new(), ps.moe_kernel_default.to_owned())];
    kernels.extend(MoeKernel::ALL.iter().map(|k| (k.key().to_owned(), kernel_name(*k).to_owned())));
    let moe = Memo::new(move |_| ctx.with_shown(|r| r.is_some_and(|r| r.params.experts > 0)));
    view! {
        <Select
            id="serving-stack"
            label=e.serving_stack
            options=stacks
            value=Signal::derive(move || ctx.with_scenario(|s| s.serving_stack.key().to_owned()))
            set=Callback::new(move |v: String| if let Some(t) = parse_name(&v) { ctx.edit(|s| s.serving_stack = t) })
        />
        <Toggle
            id="custom-all-reduce"
            label=ps.custom_all_reduce
            value=Signal::derive(move || ctx.with_scenario(|s| s.custom_all_reduce))
            set=Callback::new(move |v: bool| ctx.edit(|s| s.custom_all_reduce = v))
        />
        {move || moe.get().then(|| {
            let kernels = kernels.clone();
            view! {
                <Select
                    id="moe-kernel"
                    label=ctx.lang.est_panels().moe_kernel
                    options=kernels
                    value=Signal::derive(move || ctx.with_scenario(|s| s.moe_kernel.map_or(String::new(), |k| k.key().to_owned())))
                    set=Callback::new(move |v: String| ctx.edit(|s| s.moe_kernel = parse_name(&v)))
                />
                {int_slider(ctx, "expert-parallel", e.expert_parallel, ps.u_ways, expert_parallel_steps(), |s| s.expert_parallel, |s, v| s.expert_parallel = v.max(1))}
                <ExpertParallelControls />
            }
        })}
    }
}

/// Expert-parallel sizes the slider offers: powers of two to 256, and the wide deployments'
/// 72 (one NVL72 rack) and 96 (LMSYS's 12 H100 nodes) and 320 (DeepSeek's decode: 40 nodes).
fn expert_parallel_steps() -> Vec<u64> {
    let mut v = powers_of_two(1, 256);
    v.extend([72, 96, 320]);
    v.sort_unstable();
    v
}

/// With expert parallelism over more than one GPU: how tokens reach their experts
/// (`ep_comm`), in training whether that overlaps another micro-batch's compute
/// (`ep_comm_overlap`), redundant experts (`redundant_experts`) and the load imbalance
/// (`expert_imbalance`, shown as the engine resolved it).
#[component]
fn ExpertParallelControls() -> impl IntoView {
    use crate::engine::stack::EpComm;
    let ctx = expect_context::<Ctx>();
    let e = ctx.lang.est();
    let ps = ctx.lang.est_panels();
    // Proper names, the same in both languages.
    let comm_name = |c: EpComm| match c {
        EpComm::Nccl => "NCCL all-to-all",
        EpComm::DeepepNormal => "DeepEP normal",
        EpComm::DeepepLowLatency => "DeepEP low-latency",
    };
    let comms: Vec<(String, String)> =
        EpComm::ALL.iter().map(|c| (c.key().to_owned(), comm_name(*c).to_owned())).collect();
    let wide = Memo::new(move |_| ctx.with_scenario(|s| s.expert_parallel > 1));
    let training = Memo::new(move |_| ctx.with_scenario(|s| s.mode != Mode::Inference));
    let imbalance = Signal::derive(move || {
        ctx.with_shown(|r| {
            r.and_then(|r| r.performance.phases.decode.moe.as_ref().map(|m| m.layer.imbalance))
        })
        .unwrap_or(1.0)
    });
    move || {
        let comms = comms.clone();
        wide.get().then(|| {
            view! {
                <Select
                    id="ep-comm"
                    label=e.ep_comm
                    options=comms
                    value=Signal::derive(move || ctx.with_scenario(|s| s.ep_comm.unwrap_or_default().key().to_owned()))
                    set=Callback::new(move |v: String| if let Some(c) = parse_name(&v) { ctx.edit(|s| s.ep_comm = Some(c)) })
                />
                {training.get().then(|| view! {
                    <Toggle
                        id="ep-overlap"
                        label=ctx.lang.est_panels().ep_overlap
                        value=Signal::derive(move || ctx.with_scenario(|s| s.ep_comm_overlap))
                        set=Callback::new(move |v: bool| ctx.edit(|s| s.ep_comm_overlap = v))
                    />
                })}
                {int_slider(ctx, "redundant-experts", e.redundant_experts, ps.u_experts, vec![0, 8, 16, 32, 64, 128], |s| s.redundant_experts, |s, v| s.redundant_experts = v)}
                <Slider
                    id="expert-imbalance"
                    label=ctx.lang.est_panels().expert_imbalance
                    unit="×"
                    scale=Scale::Linear { min: 1.0, max: 3.0, step: 0.01 }
                    value=Signal::derive(move || (imbalance.get() * 100.0).round() / 100.0)
                    set=Callback::new(move |v: f64| ctx.edit(|s| s.expert_imbalance = Some(v.clamp(1.0, 8.0))))
                    out_of_range=e.number_out_of_range
                />
            }
        })
    }
}

#[component]
pub fn EfficiencyControls() -> impl IntoView {
    let ctx = expect_context::<Ctx>();
    let e = ctx.lang.est();
    let ps = ctx.lang.est_panels();
    let factor = move |field: &'static str| {
        Signal::derive(move || {
            ctx.with_shown(|r| {
                r.and_then(|r| r.performance.efficiency.iter().find(|f| f.field == field).map(|f| f.value))
            })
            .unwrap_or(0.0)
        })
    };
    let fraction = |id: &'static str,
                    label: &'static str,
                    field: &'static str,
                    set: fn(&mut EfficiencyOverrides, f64)| {
        let value = factor(field);
        view! {
            <Slider
                id=id
                label=label
                unit=ps.u_percent
                scale=Scale::Linear { min: 5.0, max: 100.0, step: 1.0 }
                value=Signal::derive(move || (value.get() * 100.0).round())
                set=Callback::new(move |v: f64| ctx.edit(|s| set(&mut s.efficiency, (v / 100.0).clamp(0.05, 1.0))))
                out_of_range=e.number_out_of_range
            />
        }
    };
    let launch = factor("kernel_launch_s");
    let request = factor("request_overhead_s");
    // The factors' list: (field, the rest of its line). Its items are rebuilt only when the
    // fields change; an edit updates their text in place.
    let lines = Memo::new(move |_| {
        ctx.with_shown(|r| {
            r.map(|r| {
                r.performance
                    .efficiency
                    .iter()
                    .map(|f| {
                        let rest = format!(
                            " = {}{} · {}{}",
                            crate::charts::format::format_sig3(f.value),
                            if f.overridden { " ✎" } else { "" },
                            crate::i18n::facts::factor_note(f.factor, ctx.lang),
                            if f.estimate { " (≈?)" } else { "" }
                        );
                        (f.field.clone(), rest)
                    })
                    .collect::<Vec<_>>()
            })
            .unwrap_or_default()
        })
    });
    let fields = Memo::new(move |_| lines.with(|l| l.iter().map(|(f, _)| f.clone()).collect::<Vec<_>>()));
    view! {
        <details class="group efficiency-group">
            <summary>{e.efficiency}</summary>
            {fraction("eff-memory", ps.eff_memory, "memory_bandwidth", |o, v| o.memory_bandwidth = Some(v))}
            {fraction("eff-tensor", ps.eff_tensor, "tensor_flops", |o, v| o.tensor_flops = Some(v))}
            {fraction("eff-intra", ps.eff_intra, "intra_node_bus_bandwidth", |o, v| o.intra_node_bus_bandwidth = Some(v))}
            {fraction("eff-inter", ps.eff_inter, "inter_node_bus_bandwidth", |o, v| o.inter_node_bus_bandwidth = Some(v))}
            {fraction("eff-fp8", ps.eff_fp8, "fp8_tensor_flops", |o, v| o.fp8_tensor_flops = Some(v))}
            {fraction("eff-quantized", ps.eff_quantized, "quantized_weight_bandwidth", |o, v| o.quantized_weight_bandwidth = Some(v))}
            <Slider
                id="eff-request"
                label=ps.eff_request
                unit=ps.u_ms
                scale=Scale::Linear { min: 0.0, max: 200.0, step: 1.0 }
                value=Signal::derive(move || request.get() * 1e3)
                set=Callback::new(move |v: f64| ctx.edit(|s| s.efficiency.request_overhead_s = Some((v / 1e3).clamp(0.0, 60.0))))
                out_of_range=e.number_out_of_range
            />
            <Slider
                id="eff-launch"
                label=ps.eff_launch
                unit=ps.u_us
                scale=Scale::Linear { min: 0.0, max: 50.0, step: 0.5 }
                value=Signal::derive(move || launch.get() * 1e6)
                set=Callback::new(move |v: f64| ctx.edit(|s| s.efficiency.kernel_launch_s = Some((v / 1e6).clamp(0.0, 50e-6))))
                out_of_range=e.number_out_of_range
            />
            <ul class="sources">
                {move || fields.get().into_iter().enumerate().map(|(i, field)| view! {
                    <li>
                        <code>{field}</code>
                        {move || lines.with(|l| l.get(i).map(|(_, rest)| rest.clone()).unwrap_or_default())}
                    </li>
                }).collect_view()}
            </ul>
        </details>
    }
}

#[component]
pub fn AssumptionControls() -> impl IntoView {
    let ctx = expect_context::<Ctx>();
    let e = ctx.lang.est();
    let ps = ctx.lang.est_panels();
    view! {
        <details class="group assumptions-group">
            <summary>{e.assumptions}</summary>
            <Slider
                id="safety-margin"
                label=e.safety_margin
                unit=ps.u_percent
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
            {int_slider(ctx, "int4-group", e.int4_group, ps.u_per_group, powers_of_two(16, 1024), |s| s.int4_group_size, |s, v| s.int4_group_size = v)}
            {int_slider(ctx, "kv-block", e.kv_block, e.u_tokens, powers_of_two(1, 256), |s| s.kv_block_tokens, |s, v| s.kv_block_tokens = v)}
        </details>
    }
}

/// Shown while the current settings do not evaluate: names the field and keeps the last result.
#[component]
pub fn InvalidBanner() -> impl IntoView {
    let ctx = expect_context::<Ctx>();
    let e = ctx.lang.est();
    // The error's field and message: the banner is built when the scenario stops evaluating and
    // updated in place while it stays invalid.
    let error = Memo::new(move |_| {
        ctx.with_result(|r| {
            r.as_ref().err().map(|e| {
                (e.field().to_owned(), crate::i18n::errors::scenario_error(e.scenario_error(), ctx.lang))
            })
        })
    });
    let invalid = Memo::new(move |_| error.with(Option::is_some));
    let part = move |f: fn(&(String, String)) -> &String| {
        move || error.with(|e| e.as_ref().map(f).cloned().unwrap_or_default())
    };
    let has_shown = Memo::new(move |_| ctx.with_shown(|r| r.is_some()));
    move || {
        invalid.get().then(|| {
            view! {
                <div class="banner error" role="alert" id="invalid-banner" data-field=part(|e| &e.0)>
                    <strong>{e.invalid_heading}</strong>
                    {ctx.lang.colon()} {part(|e| &e.1)}
                    {move || has_shown.get().then(|| format!("{}{}", ctx.lang.full_stop(), e.showing_last_valid))}
                </div>
            }
        })
    }
}

/// Compare mode: both scenarios' memory side by side (rebuilt on an edit: compare mode is not on
/// the slider's hot path, and this keeps the code small).
#[component]
pub fn Compare() -> impl IntoView {
    let ctx = expect_context::<Ctx>();
    let e = ctx.lang.est();
    let ps = ctx.lang.est_panels();
    move || {
        let (Some(a), Some(b)) = (ctx.shown_a.get(), ctx.shown_b.get()) else { return ().into_any() };
        let unit = ctx.unit();
        let (sa, sb) =
            ctx.state.with(|s| (s.scenario.clone(), s.compare.clone().unwrap_or_else(|| s.scenario.clone())));
        let row = |label: &'static str, fa: String, fb: String| view! { <tr><th scope="row">{label}</th><td>{fa}</td><td>{fb}</td></tr> };
        let verdict =
            |r: &crate::engine::Report| if r.fits { e.fits.to_owned() } else { e.does_not_fit.to_owned() };
        let bar = |r: &crate::engine::Report| bar_view(Signal::stored(Bar::of(r, unit)), e);
        view! {
            <div class="panel compare" id="compare">
                <h2>{e.compare}</h2>
                <table class="compare-table">
                    <thead><tr><td></td><th>{ps.side_a}</th><th>{ps.side_b}</th></tr></thead>
                    <tbody>
                        {row(e.model, a.model.name.clone(), b.model.name.clone())}
                        {row(e.gpu, format!("{} × {}", sa.gpus, a.performance.hardware.gpu_name), format!("{} × {}", sb.gpus, b.performance.hardware.gpu_name))}
                        {row(e.decode_throughput, format_rate(a.performance.throughput.decode_tokens_per_s, "tok/s"), format_rate(b.performance.throughput.decode_tokens_per_s, "tok/s"))}
                        {row(e.ttft, format_seconds(a.performance.time.time_to_first_token_s), format_seconds(b.performance.time.time_to_first_token_s))}
                        {row(e.weight_dtype, weight_shown(&sa, &a), weight_shown(&sb, &b))}
                        {row(e.context, sa.context_tokens.to_string(), sb.context_tokens.to_string())}
                        {row(e.batch_inference, sa.batch.to_string(), sb.batch.to_string())}
                        {row(e.weights, format_bytes(a.memory_per_gpu_bytes.weights, unit), format_bytes(b.memory_per_gpu_bytes.weights, unit))}
                        {row(e.kv_cache, format_bytes(a.memory_per_gpu_bytes.kv_cache, unit), format_bytes(b.memory_per_gpu_bytes.kv_cache, unit))}
                        {row(e.total, format_bytes(a.memory_per_gpu_bytes.total, unit), format_bytes(b.memory_per_gpu_bytes.total, unit))}
                        {row(e.memory_per_gpu, verdict(&a), verdict(&b))}
                    </tbody>
                </table>
                <div class="compare-bars">
                    <p>{ps.side_a}</p>
                    {bar(&a)}
                    <p>{ps.side_b}</p>
                    {bar(&b)}
                </div>
            </div>
        }
        .into_any()
    }
}
