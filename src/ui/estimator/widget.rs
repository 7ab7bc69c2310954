//! A calculator inside a chapter: `{{widget:KIND}}` or `{{widget:KIND:PRESET}}` in the markdown.
//! It is a small estimator of its own (its own Scenario, not in the URL), with the controls that
//! matter for its lesson, one view, and a link that opens the full estimator in the same state.

#[cfg(feature = "course")]
use super::charts_view::{BoundChart, KvChart, RooflineChart, ScalingChart, ScalingNote};
use super::controls::Select;
use super::memory_view::MemoryView;
use super::panels::int_slider;
#[cfg(feature = "course")]
use super::perf_view::PerformanceView;
use super::Ctx;
use crate::catalog::gpus;
use crate::engine::hardware::GpuSpec;
use crate::engine::precision::Dtype;
use crate::estimator::edits;
use crate::estimator::presets;
use crate::estimator::scales::nice_values;
use crate::estimator::state::{self, EstimatorState};
use crate::i18n::Lang;
use leptos::either::Either;
use leptos::prelude::*;

const DTYPES: [Dtype; 6] = [Dtype::Fp32, Dtype::Bf16, Dtype::Fp16, Dtype::Fp8, Dtype::Int8, Dtype::Int4];

fn context_slider(ctx: Ctx) -> impl IntoView {
    let e = ctx.lang.est();
    int_slider(
        ctx,
        "context",
        e.context,
        e.u_tokens,
        nice_values(512, 1 << 20),
        |s| s.context_tokens,
        edits::set_context_tokens,
    )
}

fn batch_slider(ctx: Ctx) -> impl IntoView {
    let e = ctx.lang.est();
    int_slider(
        ctx,
        "batch",
        e.batch_inference,
        e.u_sequences,
        nice_values(1, 1024),
        |s| s.batch,
        |s, v| s.batch = v,
    )
}

/// GPU count; the model is spread over it by [`edits::spread_over_gpus`].
fn gpus_slider(ctx: Ctx) -> impl IntoView {
    let e = ctx.lang.est();
    int_slider(ctx, "gpus", e.gpus, e.u_gpus, nice_values(1, 64), |s| s.gpus, edits::spread_over_gpus)
}

fn dtype_select(ctx: Ctx) -> impl IntoView {
    let e = ctx.lang.est();
    view! {
        <Select id="weight-dtype" label=e.weight_dtype
            options=std::iter::once((super::panels::AS_PUBLISHED.to_owned(), e.weight_as_published.to_owned()))
                .chain(DTYPES.iter().map(|d| (d.name().to_owned(), d.name().to_ascii_uppercase())))
                .collect()
            value=Signal::derive(move || ctx.with_scenario(super::panels::weight_dtype_value))
            set=Callback::new(move |v: String| ctx.edit(|s| super::panels::set_weight_dtype(s, &v))) />
    }
}

fn gpu_select(ctx: Ctx) -> impl IntoView {
    let e = ctx.lang.est();
    let mut options: Vec<(String, String)> =
        gpus::all().iter().map(|g| (g.id.clone(), super::panels::gpu_label(g, e))).collect();
    // A preset on a MIG slice or a custom GPU keeps it as the first choice.
    if let Some((id, name)) = ctx.with_scenario(|s| match &s.gpu {
        GpuSpec::Custom(g) => Some((g.id.clone(), super::panels::gpu_label(g, e))),
        GpuSpec::Id(_) => None,
    }) {
        options.insert(0, (id, name));
    }
    let custom = ctx.with_scenario(|s| s.gpu.clone());
    view! {
        <Select id="gpu" label=e.gpu options=options
            value=Signal::derive(move || ctx.with_scenario(|s| match &s.gpu { GpuSpec::Id(id) => id.clone(), GpuSpec::Custom(g) => g.id.clone() }))
            set=Callback::new(move |v: String| {
                let spec = match &custom {
                    GpuSpec::Custom(g) if g.id == v => custom.clone(),
                    _ => GpuSpec::Id(v),
                };
                ctx.edit(|s| s.gpu = spec)
            }) />
    }
}

/// The widget `name` (`KIND` or `KIND:PRESET`); an embed page passes the state of its URL as
/// `query` (the estimator's `v=1&s=…`, or a lesson widget's own keys). A kind the site does
/// not have draws nothing.
#[component]
pub fn ChapterWidget(lang: Lang, name: String, #[prop(optional)] query: Option<String>) -> impl IntoView {
    let (kind, preset) = match name.split_once(':') {
        Some((k, p)) => (k, Some(p.to_string())),
        None => (name.as_str(), None),
    };
    let Some(kind) = crate::content::WIDGETS.iter().copied().find(|k| *k == kind) else {
        return Either::Left(().into_any());
    };
    let preset = preset.as_deref();
    #[cfg(feature = "course")]
    if kind == "lab" {
        return Either::Left(view! { <crate::ui::lab::LabPanel lang=lang widget=true /> }.into_any());
    }
    // What runs on my machine is also the course's (the memory-capacity chapter's widget), on its
    // own: the course bundle carries no other tool.
    #[cfg(any(feature = "course", feature = "tools"))]
    if kind == "local" {
        return Either::Left(crate::ui::tools::local::widget(lang, preset, query));
    }
    #[cfg(feature = "tools")]
    if let Some(tool) = crate::route::Tool::from_slug(kind) {
        return Either::Left(crate::ui::tools::widget(lang, tool, preset, query));
    }
    #[cfg(feature = "course")]
    if crate::ui::widgets::is_lesson(kind) {
        return Either::Left(
            view! { <crate::ui::widgets::LessonWidget lang=lang kind=kind query=query.unwrap_or_default() /> }
                .into_any(),
        );
    }
    // Any kind but the estimator's charts is another bundle's (the page that has it loads that
    // bundle); without the course's, only the charts the tools' chapters show.
    let charts = if cfg!(feature = "course") {
        crate::content::ESTIMATOR_WIDGETS
    } else {
        crate::content::TOOLS_BUNDLE_CHARTS
    };
    if !charts.contains(&kind) {
        return Either::Left(().into_any());
    }
    let initial = match query.as_deref() {
        Some(q) if !q.is_empty() => state::decode(q).0,
        _ => EstimatorState {
            scenario: preset
                .and_then(presets::find)
                .map(|p| p.scenario())
                .unwrap_or_else(state::default_scenario),
            ..Default::default()
        },
    };
    let e = lang.est();
    let kind_title = match kind {
        "memory" => e.memory_per_gpu,
        "kv-cache" => e.chart_kv_title,
        "roofline" => e.chart_roofline_title,
        "bound" => e.chart_bound_title,
        _ => e.chart_scaling_title,
    };
    let (title, note) = match preset.and_then(presets::find) {
        Some(p) => (p.title(lang), Some(p.note(lang))),
        None => (kind_title, None),
    };
    let ctx = Ctx::provide(lang, initial, Vec::new());
    let controls = match kind {
        "memory" => view! { {dtype_select(ctx)} {gpu_select(ctx)} {gpus_slider(ctx)} {context_slider(ctx)} {batch_slider(ctx)} }.into_any(),
        "kv-cache" => view! { {context_slider(ctx)} {batch_slider(ctx)} {gpu_select(ctx)} }.into_any(),
        "roofline" | "bound" => view! { {batch_slider(ctx)} {context_slider(ctx)} {dtype_select(ctx)} {gpu_select(ctx)} }.into_any(),
        _ => view! { {gpu_select(ctx)} {gpus_slider(ctx)} }.into_any(),
    };
    let body = match kind {
        "memory" => view! { <MemoryView /> }.into_any(),
        #[cfg(feature = "course")]
        "kv-cache" => view! { <KvChart /> <MemoryView /> }.into_any(),
        #[cfg(feature = "course")]
        "roofline" => view! { <RooflineChart /> <PerformanceView /> }.into_any(),
        #[cfg(feature = "course")]
        "bound" => view! { <BoundChart /> <PerformanceView /> }.into_any(),
        #[cfg(feature = "course")]
        _ => view! { <ScalingChart /> <ScalingNote /> }.into_any(),
        #[cfg(not(feature = "course"))]
        _ => ().into_any(),
    };
    let open_href = move || {
        crate::ui::browser::href(&format!("#/{}/estimate/?{}", lang.code(), ctx.state.with(state::encode)))
    };
    Either::Right(view! {
        <aside class="widget" data-widget=name.clone()>
            <header class="widget-head">
                <span class="eyebrow">{e.try_it}</span>
                <strong>{title}</strong>
                {note.map(|n| view! { <span class="hint">{n}</span> })}
            </header>
            <super::panels::InvalidBanner />
            <div class="widget-grid">
                <div class="widget-controls">{controls}</div>
                <div class="widget-body">{body}</div>
            </div>
            <a class="open-estimator" href=open_href>{e.open_in_estimator}</a>
            <crate::ui::widgets::EmbedCode lang=lang kind=kind
                query=Signal::derive(move || ctx.state.with(state::encode)) />
        </aside>
    })
}
