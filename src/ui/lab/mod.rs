//! The WebGPU lab page (`#/{lang}/lab/bandwidth?cap=MiB&vs=gpu-id`) and its chapter widget: the
//! adapter, Run / Cancel with progress, then the results (`lab::results_html`) and the hand-off
//! to the estimator. The measuring is `gpu`; the words and tables are built natively in `lab`.

pub mod gpu;

use crate::catalog::gpus;
use crate::engine::hardware::GpuSpec;
use crate::engine::Scenario;
use crate::estimator::state::{decode, encode, EstimatorState};
use crate::i18n::Lang;
use crate::lab::{error_text, measured_gpu, results_html, AdapterInfo, LabError, LabResult};
use crate::route::Route;
use leptos::prelude::*;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use wasm_bindgen::JsCast;

/// Largest-array choices in MiB (0: the adapter's limit).
const CAPS: [u64; 6] = [4, 16, 64, 256, 1024, 0];
const DEFAULT_COMPARE: &str = "h100-sxm";
/// The largest array by default on a software adapter, in MiB.
#[cfg(target_arch = "wasm32")]
const SOFTWARE_CAP: u64 = 16;

#[derive(Clone, Debug, PartialEq)]
enum Status {
    Idle,
    Running(gpu::Progress),
    Done(Box<LabResult>),
    Failed(LabError),
}

/// A `key=value` of the page's query.
fn query(key: &str) -> Option<String> {
    let q = super::browser::page_query();
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
    let chosen = (!widget)
        .then(|| query("cap").and_then(|c| c.parse::<u64>().ok()).filter(|c| CAPS.contains(c)))
        .flatten();
    let cap = RwSignal::new(chosen.unwrap_or(if widget { 64 } else { 256 }));
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
    // Prerendering: there is no adapter to ask; the page shows the lab before it looks.
    #[cfg(target_arch = "wasm32")]
    leptos::task::spawn_local(async move {
        let found = gpu::adapter().await.map(|(_, info)| info);
        // A software adapter runs the kernels on the CPU: a smaller default sweep keeps the run
        // short (the reader can still choose more).
        if chosen.is_none() && found.as_ref().is_ok_and(AdapterInfo::looks_like_software) {
            cap.try_set(SOFTWARE_CAP);
        }
        adapter.try_set(Some(found));
    });
    if !widget {
        Effect::new(move |_| {
            super::browser::replace_query(&format!("cap={}&vs={}", cap.get(), compare.get()));
        });
    }

    let run = {
        let cancel = cancel.clone();
        move |()| {
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
    let hand_off = move || {
        let Status::Done(r) = status.get_untracked() else { return };
        let date =
            String::from(web_sys::js_sys::Date::new_0().to_iso_string()).chars().take(10).collect::<String>();
        let Some(g) = measured_gpu(lang, &r, &date) else { return };
        // The reader's own scenario (the estimator's saved state), now on the measured GPU.
        let saved = super::browser::saved_estimator_state().map(|q| decode(&q).0).unwrap_or_default();
        let scenario = Scenario { gpu: GpuSpec::Custom(Box::new(g)), ..saved.scenario };
        let state = EstimatorState { scenario, compare: None, ..saved };
        crate::ui::browser::go(&format!("{}?{}", Route::Estimate(lang).to_hash(), encode(&state)));
    };
    // What runs on a custom device of the measured bandwidth (the reader gives its memory: a web
    // page sees only its largest buffer).
    let local_hand_off = move || {
        let Status::Done(r) = status.get_untracked() else { return };
        let Some(bw) = r.memory_bandwidth() else { return };
        let query = format!("gpu=custom&bw={:.1}", bw / 1e9);
        crate::ui::browser::go(&format!(
            "{}?{query}",
            Route::Tool(lang, crate::route::Tool::Local).to_hash()
        ));
    };
    // The controls are static HTML; clicks and changes reach the section (event delegation) and
    // one effect writes what changes (adapter, buttons, progress, results) into it.
    let on_click = {
        let cancel = cancel.clone();
        move |ev: leptos::ev::MouseEvent| match target_id(&ev).as_str() {
            "lab-run" => run(()),
            "lab-cancel" => cancel.store(true, Ordering::Relaxed),
            "lab-estimator" => hand_off(),
            "lab-local" => local_hand_off(),
            _ => {}
        }
    };
    let on_change = move |ev: leptos::ev::Event| {
        let value = event_target_value(&ev);
        match target_id(&ev).as_str() {
            "lab-cap" => {
                if let Ok(v) = value.parse::<u64>() {
                    cap.set(v);
                }
            }
            "lab-compare" => compare.set(value),
            _ => {}
        }
    };
    // Three effects, each writing only what its signals change: the adapter once it is known,
    // the buttons and progress line on every step, the results when a run ends or the compared
    // GPU changes (not on every progress step).
    Effect::new(move |_| {
        adapter.with(|ad| set(("lab-adapter", "innerHTML"), &adapter_html(lang, ad.as_ref())));
    });
    Effect::new(move |_| {
        let unavailable = adapter.with(|ad| matches!(ad, Some(Err(_))));
        let (running, failed, progress) = status.with(|st| {
            let text = match st {
                Status::Running(p) if p.total > 0 => {
                    format!(
                        "{}{}{}{}{}{}",
                        s.progress.0, p.step, s.progress.1, p.total, s.progress.2, p.label
                    )
                }
                Status::Running(_) => s.preparing.to_owned(),
                Status::Failed(e) => error_text(lang, e),
                _ => String::new(),
            };
            (matches!(st, Status::Running(_)), matches!(st, Status::Failed(_)), text)
        });
        set(("lab-run", "disabled"), &(running || unavailable).into());
        set(("lab-cap", "disabled"), &running.into());
        set(("lab-cap", "value"), &cap.get().to_string().into());
        set(("lab-cancel", "hidden"), &(!running).into());
        set(("lab-progress", "textContent"), &progress.into());
        set(("lab-progress", "className"), &(if failed { "error" } else { "" }).into());
    });
    let done = Memo::new(move |_| status.with(|st| matches!(st, Status::Done(_))));
    Effect::new(move |_| {
        let (results, hand) = if done.get() {
            let vs = compare.get();
            status.with_untracked(|st| match st {
                Status::Done(r) => (
                    results_html(lang, r, gpus::find(&vs), super::browser::chart_width()),
                    r.memory_bandwidth().is_some() && r.fp32_flops().is_some(),
                ),
                _ => (String::new(), false),
            })
        } else {
            (String::new(), false)
        };
        set(("lab-results", "innerHTML"), &results.into());
        set(("lab-hand-off", "hidden"), &(!hand).into());
    });

    let skeleton = skeleton(lang, widget, cap.get_untracked(), &compare.get_untracked());
    view! {
        <section class=if widget { "widget lab-panel" } else { "lab-panel" } data-widget=widget.then_some("lab")
            inner_html=skeleton on:click=on_click on:change=on_change></section>
    }
}

/// The id of the element an event happened on.
fn target_id(ev: &web_sys::Event) -> String {
    ev.target().and_then(|t| t.dyn_into::<web_sys::Element>().ok()).map(|e| e.id()).unwrap_or_default()
}

/// Sets a property of the element with this id (`innerHTML`, `textContent`, `hidden`, …).
fn set((id, property): (&str, &str), value: &wasm_bindgen::JsValue) {
    if let Some(el) = document().get_element_by_id(id) {
        let _ = web_sys::js_sys::Reflect::set(&el, &property.into(), value);
    }
}

/// The adapter as the page shows it: its names and the software flag, or why there is none.
fn adapter_html(lang: Lang, adapter: Option<&Result<AdapterInfo, LabError>>) -> wasm_bindgen::JsValue {
    let s = lang.lab();
    let html = match adapter {
        None => format!("<p class=\"muted\">{}</p>", esc(s.looking)),
        Some(Err(e)) => format!("<p class=\"banner error\" role=\"alert\">{}</p>", esc(&error_text(lang, e))),
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
    html.into()
}

/// The panel's static HTML: heading, the two selects with their options, the buttons, and the
/// empty places the effect fills.
fn skeleton(lang: Lang, widget: bool, cap: u64, compare: &str) -> String {
    let s = lang.lab();
    let selected = |yes: bool| if yes { " selected" } else { "" };
    let caps: String = CAPS
        .iter()
        .map(|c| {
            let label = if *c == 0 { s.cap_limit.to_owned() } else { format!("{c} MiB") };
            format!("<option value=\"{c}\"{}>{}</option>", selected(*c == cap), esc(&label))
        })
        .collect();
    let gpu_options: String = gpus::all()
        .iter()
        .map(|g| {
            format!("<option value=\"{}\"{}>{}</option>", esc(&g.id), selected(g.id == compare), esc(&g.name))
        })
        .collect();
    let note = if widget {
        format!(
            "<p class=\"muted\">{} <a href=\"{}\">{}</a></p>",
            esc(s.widget_note),
            crate::ui::browser::href(&Route::Lab(lang).to_hash()),
            esc(s.open_lab)
        )
    } else {
        String::new()
    };
    format!(
        "{note}<h2>{}</h2><div id=\"lab-adapter\"><p class=\"muted\">{}</p></div><div class=\"lab-controls\"><label>{} <select id=\"lab-cap\">{caps}</select></label> \
         <button id=\"lab-run\" class=\"button\" disabled>{}</button> <button id=\"lab-cancel\" class=\"button secondary\" hidden>{}</button> \
         <label>{} <select id=\"lab-compare\">{gpu_options}</select></label></div><p id=\"lab-progress\" role=\"status\"></p>\
         <div id=\"lab-results\"></div><p id=\"lab-hand-off\" hidden><button id=\"lab-estimator\" class=\"button cta\">{}</button> <button id=\"lab-local\" class=\"button secondary\">{}</button></p>",
        esc(s.adapter),
        esc(s.looking),
        esc(s.max_size),
        esc(s.run),
        esc(s.cancel),
        esc(s.compare_gpu),
        esc(s.use_in_estimator),
        esc(s.what_runs)
    )
}

fn esc(t: &str) -> String {
    crate::html::escape(t)
}
