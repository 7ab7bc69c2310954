//! The WebGPU lab page (`#/{lang}/lab/bandwidth?cap=MiB&vs=gpu-id`) and its chapter widget: the
//! adapter, Run / Cancel with progress, then the results (`lab::results_html`) and the hand-off
//! to the estimator. The measuring is `gpu`; the words and tables are built natively in `lab`.

pub mod gpu;

use crate::catalog::gpus;
use crate::engine::hardware::GpuSpec;
use crate::engine::Scenario;
use crate::estimator::state::{default_scenario, encode, EstimatorState};
use crate::i18n::Lang;
use crate::lab::{error_text, measured_gpu, results_html, AdapterInfo, LabError, LabResult};
use crate::route::Route;
use leptos::prelude::*;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

/// Largest-array choices in MiB (0: the adapter's limit).
const CAPS: [u64; 6] = [4, 16, 64, 256, 1024, 0];
const DEFAULT_COMPARE: &str = "h100-sxm";

#[derive(Clone, Debug, PartialEq)]
enum Status {
    Idle,
    Running(gpu::Progress),
    Done(Box<LabResult>),
    Failed(LabError),
}

/// A `key=value` of the hash's query.
fn query(key: &str) -> Option<String> {
    let hash = super::browser::current_hash();
    let q = hash.split_once('?')?.1;
    q.split('&').find_map(|kv| kv.strip_prefix(key)?.strip_prefix('=').map(str::to_owned))
}

#[component]
pub fn LabPage(lang: Lang) -> impl IntoView {
    let s = lang.lab();
    view! {
        <article class="lab" data-page="lab">
            <h1>{s.title}</h1>
            <p class="lead">{s.intro}</p>
            <LabPanel lang=lang widget=false />
        </article>
    }
}

/// The lab's controls and results. As a chapter widget (`widget`), the state is not written to
/// the URL and a link leads to the full page.
#[component]
pub fn LabPanel(lang: Lang, widget: bool) -> impl IntoView {
    let s = lang.lab();
    let adapter: RwSignal<Option<Result<AdapterInfo, LabError>>> = RwSignal::new(None);
    let status = RwSignal::new(Status::Idle);
    let cap = RwSignal::new(
        (!widget)
            .then(|| query("cap").and_then(|c| c.parse::<u64>().ok()).filter(|c| CAPS.contains(c)))
            .flatten()
            .unwrap_or(if widget { 64 } else { 256 }),
    );
    let compare = RwSignal::new(
        (!widget)
            .then(|| query("vs").filter(|id| gpus::find(id).is_some()))
            .flatten()
            .unwrap_or_else(|| DEFAULT_COMPARE.to_owned()),
    );
    let cancel = Arc::new(AtomicBool::new(false));
    {
        let cancel = cancel.clone();
        on_cleanup(move || cancel.store(true, Ordering::Relaxed));
    }
    leptos::task::spawn_local(async move {
        let found = gpu::adapter().await.map(|(_, info)| info);
        adapter.set(Some(found));
    });
    if !widget {
        Effect::new(move |_| {
            let q = format!("?cap={}&vs={}", cap.get(), compare.get());
            super::browser::replace_hash(&format!("{}{q}", Route::Lab(lang).to_hash()));
        });
    }

    let run = {
        let cancel = cancel.clone();
        move |_| {
            cancel.store(false, Ordering::Relaxed);
            let cancel = cancel.clone();
            status.set(Status::Running(gpu::Progress { step: 0, total: 0, label: String::new() }));
            leptos::task::spawn_local(async move {
                let outcome = match gpu::adapter().await {
                    Ok((a, info)) => {
                        let bytes = match cap.get_untracked() {
                            0 => u64::MAX,
                            mib => mib.saturating_mul(1 << 20),
                        };
                        gpu::run(a, info, bytes, cancel.clone(), move |p| {
                            status.try_set(Status::Running(p));
                        })
                        .await
                    }
                    Err(e) => Err(e),
                };
                if cancel.load(Ordering::Relaxed) && outcome.is_err() {
                    status.try_set(Status::Failed(LabError::Cancelled));
                    return;
                }
                status.try_set(match outcome {
                    Ok(r) => Status::Done(Box::new(r)),
                    Err(e) => Status::Failed(e),
                });
            });
        }
    };
    let stop = move |_| cancel.store(true, Ordering::Relaxed);
    let running = move || matches!(status.get(), Status::Running(_));
    let unavailable = move || matches!(adapter.get(), Some(Err(_)));

    let adapter_html = move || match adapter.get() {
        None => String::new(),
        Some(Err(e)) => {
            format!("<p class=\"banner error\" role=\"alert\">{}</p>", esc(&error_text(lang, &e)))
        }
        Some(Ok(a)) => {
            let value = |v: &str| if v.is_empty() { esc(s.not_reported) } else { esc(v) };
            let mut out = format!(
                "<dl class=\"lab-adapter\"><dt>{}</dt><dd>{}</dd><dt>{}</dt><dd>{}</dd><dt>{}</dt><dd>{}</dd></dl>",
                esc(s.vendor),
                value(&a.vendor),
                esc(s.architecture),
                value(&a.architecture),
                esc(s.description),
                value(&a.description)
            );
            if a.looks_like_software() {
                out.push_str(&format!(
                    "<p class=\"banner warn lab-software\" role=\"alert\">{}</p>",
                    esc(s.software)
                ));
            }
            out
        }
    };
    let progress_text = move || match status.get() {
        Status::Running(p) if p.total > 0 => {
            format!("{}{}{}{}{}{}", s.progress.0, p.step, s.progress.1, p.total, s.progress.2, p.label)
        }
        Status::Running(_) => s.preparing.to_owned(),
        Status::Failed(e) => error_text(lang, &e),
        _ => String::new(),
    };
    let results = move || {
        let vs = compare.get();
        status.with(|st| match st {
            Status::Done(r) => results_html(lang, r, gpus::find(&vs), super::browser::chart_width()),
            _ => String::new(),
        })
    };
    let to_estimator = move |_| {
        let Status::Done(r) = status.get_untracked() else { return };
        let date =
            String::from(web_sys::js_sys::Date::new_0().to_iso_string()).chars().take(10).collect::<String>();
        let Some(g) = measured_gpu(lang, &r, &date) else { return };
        let scenario = Scenario { gpu: GpuSpec::Custom(Box::new(g)), ..default_scenario() };
        let state = EstimatorState { scenario, ..EstimatorState::default() };
        if let Some(w) = web_sys::window() {
            let _ = w.location().set_hash(&format!("{}?{}", Route::Estimate(lang).to_hash(), encode(&state)));
        }
    };
    let can_hand_off = move || {
        status.with(
            |st| matches!(st, Status::Done(r) if r.memory_bandwidth().is_some() && r.fp32_flops().is_some()),
        )
    };

    // Static option lists as HTML (the page's selects change only their value).
    let cap_options: String = CAPS
        .iter()
        .map(|c| {
            let label = if *c == 0 { s.cap_limit.to_owned() } else { format!("{c} MiB") };
            format!("<option value=\"{c}\">{}</option>", esc(&label))
        })
        .collect();
    let gpu_options: String = gpus::all()
        .iter()
        .map(|g| format!("<option value=\"{}\">{}</option>", esc(&g.id), esc(&g.name)))
        .collect();

    view! {
        <section class=if widget { "widget lab-panel" } else { "lab-panel" } data-widget=widget.then_some("lab")>
            {widget.then(|| view! {
                <p class="muted">{s.widget_note} " " <a href=Route::Lab(lang).to_hash()>{s.open_lab}</a></p>
            })}
            <h2>{s.adapter}</h2>
            <div id="lab-adapter" inner_html=adapter_html></div>
            <div class="lab-controls">
                <label>
                    {s.max_size} " "
                    <select id="lab-cap" inner_html=cap_options prop:value=move || cap.get().to_string()
                        on:change=move |ev| { if let Ok(v) = event_target_value(&ev).parse::<u64>() { cap.set(v) } }
                        disabled=running>
                    </select>
                </label>
                <button id="lab-run" class="button" on:click=run disabled=move || running() || unavailable()>{s.run}</button>
                <button id="lab-cancel" class="button secondary" on:click=stop hidden=move || !running()>{s.cancel}</button>
                <label>
                    {s.compare_gpu} " "
                    <select id="lab-compare" inner_html=gpu_options prop:value=move || compare.get()
                        on:change=move |ev| compare.set(event_target_value(&ev))>
                    </select>
                </label>
            </div>
            <p id="lab-progress" role="status" class:error=move || matches!(status.get(), Status::Failed(_))>{progress_text}</p>
            <div id="lab-results" inner_html=results></div>
            <p hidden=move || !can_hand_off()>
                <button id="lab-estimator" class="button cta" on:click=to_estimator>{s.use_in_estimator}</button>
            </p>
        </section>
    }
}

fn esc(t: &str) -> String {
    crate::content::search_html::escape_html(t)
}
