//! The capacity planner page (`#/{lang}/plan?state`): static controls, and the plan rebuilt as
//! one HTML string a moment after each change (it runs the engine's load simulation some dozens
//! of times, so the page first says it is working). Everything it computes and writes is
//! `crate::tools::plan`.

use crate::i18n::Lang;
use crate::tools::plan::{self as p, html, state};
use leptos::leptos_dom::helpers::{set_timeout_with_handle, TimeoutHandle};
use leptos::prelude::*;
use std::time::Duration;

/// Long enough for the browser to paint the "working" state before the plan blocks the thread.
const SETTLE: Duration = Duration::from_millis(40);

#[component]
pub fn PlanPage(lang: Lang) -> impl IntoView {
    let t = lang.plan();
    let query = super::browser::page_query();
    let (initial, repaired) = state::parse(&query);
    let controls = html::controls_html(lang, &initial);
    // The default plan is in the prerendered page already (the same engine drew it): on a first
    // visit the page keeps it instead of planning again (natively, prerendering, it is planned
    // here). A state from the address is planned after the first paint.
    let ready = prerendered_results(query.is_empty()).unwrap_or_else(|| {
        if cfg!(target_arch = "wasm32") {
            String::new()
        } else {
            html::results_html_at(lang, &initial, &p::plan(&initial), super::browser::chart_width())
        }
    });
    let kept = !ready.is_empty();
    let plan_state = RwSignal::new(initial);
    let results = RwSignal::new(ready);
    let busy = RwSignal::new(!kept);
    let pending: StoredValue<Option<TimeoutHandle>> = StoredValue::new(None);
    Effect::new(move |first: Option<()>| {
        let s = plan_state.get();
        if first.is_none() && kept {
            return;
        }
        let query = state::encode(&s);
        super::browser::replace_query(&query);
        busy.set(true);
        if let Some(h) = pending.get_value() {
            h.clear();
        }
        let run = move || {
            let plan = p::plan(&s);
            let _ = results.try_set(html::results_html_at(lang, &s, &plan, super::browser::chart_width()));
            let _ = busy.try_set(false);
        };
        pending.set_value(set_timeout_with_handle(run, SETTLE).ok());
    });
    on_cleanup(move || {
        if let Some(h) = pending.try_get_value().flatten() {
            h.clear();
        }
    });
    let on_change = move |ev: web_sys::Event| {
        use wasm_bindgen::JsCast;
        let Some(el) = ev.target().and_then(|t| t.dyn_into::<web_sys::Element>().ok()) else { return };
        let Some(key) = el.get_attribute("data-k") else { return };
        let value = event_target_value(&ev);
        let ok = plan_state.try_update(|s| state::set(s, &key, value.trim())).unwrap_or(false);
        let _ =
            if ok { el.remove_attribute("aria-invalid") } else { el.set_attribute("aria-invalid", "true") };
    };
    // "Use this config" / "Back to the catalog model": the textarea's text becomes the model, or a
    // message in the page's language says why it cannot.
    let on_click = move |ev: web_sys::MouseEvent| {
        use wasm_bindgen::JsCast;
        let Some(el) = ev.target().and_then(|t| t.dyn_into::<web_sys::Element>().ok()) else { return };
        let doc = document();
        let error = doc.get_element_by_id("plan-cfg-error");
        let show = |text: Option<String>| {
            if let Some(e) = &error {
                match text {
                    Some(t) => {
                        e.set_text_content(Some(&t));
                        let _ = e.remove_attribute("hidden");
                    }
                    None => {
                        let _ = e.set_attribute("hidden", "");
                    }
                }
            }
        };
        match el.get_attribute("data-action").as_deref() {
            Some("cfg") => {
                let text = doc
                    .get_element_by_id("plan-cfg")
                    .and_then(|t| t.dyn_into::<web_sys::HtmlTextAreaElement>().ok())
                    .map(|t| t.value())
                    .unwrap_or_default();
                let result = plan_state.try_update(|s| state::paste_config(s, &text));
                show(match result {
                    Some(Err(p)) => Some(html::config_problem(lang, &p)),
                    _ => None,
                });
            }
            Some("nocfg") => {
                plan_state.update(|s| s.config = None);
                show(None);
            }
            _ => {}
        }
    };
    view! {
        <article class="plan" data-page="plan">
            <h1>{t.title}</h1>
            <p class="lead">{t.lead}</p>
            <div inner_html=html::notice_html(lang, &repaired)></div>
            <div class="plan-grid" on:change=on_change on:click=on_click>
                <div class="plan-inputs" inner_html=controls></div>
                <div class="plan-results" aria-live="polite" aria-busy=move || busy.get().to_string()>
                    <p class="plan-busy" hidden=move || !busy.get()>{t.working}</p>
                    <div id="plan-results" inner_html=move || results.get()></div>
                </div>
            </div>
        </article>
    }
}

/// The results of the default plan from the prerendered page the planner mounts over, where
/// they are the ones it would compute: a default state (`default`), drawn at this viewport's
/// chart width.
fn prerendered_results(default: bool) -> Option<String> {
    #[cfg(target_arch = "wasm32")]
    {
        let desktop = super::browser::chart_width() == crate::charts::DESKTOP_WIDTH;
        let html = document().get_element_by_id("plan-results")?.inner_html();
        (default && desktop && !html.is_empty()).then_some(html)
    }
    #[cfg(not(target_arch = "wasm32"))]
    {
        let _ = default;
        None
    }
}
