//! The cloud instance selector's view: the workload controls and the add form are static HTML,
//! the ranked table is one string rebuilt when the state changes, and events are delegated to
//! the tool's root. Everything it computes and writes is `crate::tools::cloud`.

use super::{write_query, Mode};
use crate::engine::workload::Mode as Job;
use crate::i18n::Lang;
use crate::route::{Route, Tool};
use crate::tools::cloud::{self as c, CloudState};
use leptos::prelude::*;
use wasm_bindgen::{JsCast, JsValue};

/// The value property of the element with this id (an input or a select), empty when absent.
fn value_of(id: &str) -> String {
    document()
        .get_element_by_id(id)
        .and_then(|el| web_sys::js_sys::Reflect::get(&el, &"value".into()).ok())
        .and_then(|v| v.as_string())
        .unwrap_or_default()
}

/// Sets a property of the element with this id.
fn set_prop(id: &str, property: &str, value: &JsValue) {
    if let Some(el) = document().get_element_by_id(id) {
        let _ = web_sys::js_sys::Reflect::set(&el, &property.into(), value);
    }
}

fn target(ev: &web_sys::Event) -> Option<web_sys::Element> {
    ev.target().and_then(|t| t.dyn_into::<web_sys::Element>().ok())
}

/// The job group the controls show (`data-job` on the root; the stylesheet hides the others).
fn job_group(s: &CloudState) -> &'static str {
    match s.mode {
        Job::Inference => "serve",
        Job::Qlora => "qlora",
        _ => "train",
    }
}

pub fn view(lang: Lang, query: &str, mode: Mode) -> AnyView {
    let t = lang.cloud();
    let (initial, repaired) = c::parse(query);
    let prefix = if mode == Mode::Page { "cloud" } else { "cloudw" };
    let controls = format!("{}{}", c::controls_html(lang, &initial, prefix), c::add_form_html(lang, prefix));
    let state = RwSignal::new(initial);
    if mode == Mode::Page {
        Effect::new(move |_| state.with(|s| write_query(&c::encode_state(s))));
    }
    // A job change may change the objective (serving has no runs): the select follows the state.
    Effect::new(move |_| {
        let code = state.with(|s| c::objective_code(s.objective));
        set_prop(&format!("{prefix}-rank"), "value", &code.into());
    });
    let results =
        move || state.with(|s| crate::ui::browser::links(c::results_html(lang, s, &c::rows(s), prefix)));
    let on_change = move |ev: web_sys::Event| {
        let Some(el) = target(&ev) else { return };
        let value = event_target_value(&ev);
        if let Some(key) = el.get_attribute("data-k") {
            let value = if key == "tpot" && value.trim().is_empty() { "none".to_owned() } else { value };
            let ok = state.try_update(|s| c::set(s, &key, value.trim())).unwrap_or(false);
            let _ = if ok {
                el.remove_attribute("aria-invalid")
            } else {
                el.set_attribute("aria-invalid", "true")
            };
        } else if let Some(key) = el.get_attribute("data-price") {
            state.update(|s| c::set_price(s, &key, &value));
        }
    };
    let on_click = move |ev: web_sys::MouseEvent| {
        let Some(el) = target(&ev) else { return };
        if let Some(idx) = el.get_attribute("data-remove").and_then(|i| i.parse::<usize>().ok()) {
            state.update(|s| {
                if idx < s.added.len() {
                    s.added.remove(idx);
                }
            });
        } else if el.get_attribute("data-action").as_deref() == Some("add") {
            let field = |k: &str| value_of(&format!("{prefix}-{k}"));
            let ok = state
                .try_update(|s| c::add(s, &field("an"), &field("ag"), &field("ac"), &field("ap")))
                .unwrap_or(false);
            if let Some(err) = el
                .closest("details")
                .ok()
                .flatten()
                .and_then(|d| d.query_selector("[data-add-error]").ok().flatten())
            {
                let _ = if ok { err.set_attribute("hidden", "") } else { err.remove_attribute("hidden") };
            }
        }
    };
    let open_full = (mode == Mode::Widget).then(|| {
        let href = move || {
            crate::ui::browser::href(&format!(
                "{}?{}",
                Route::Tool(lang, Tool::Cloud).to_hash(),
                state.with(c::encode_state)
            ))
        };
        view! { <a class="open-estimator" href=href>{t.open_full}</a> }
    });
    view! {
        <div class="cloud-tool" data-job=move || state.with(job_group) on:change=on_change on:click=on_click>
            <div inner_html=c::notice_html(lang, &repaired)></div>
            <div class="cloud-grid">
                <div class="cloud-controls" inner_html=controls></div>
                <div class="cloud-results" inner_html=results></div>
            </div>
            {open_full}
            <div inner_html=c::beyond_html(lang)></div>
        </div>
    }
    .into_any()
}
