//! "What runs on my machine": the controls are static HTML, the table one string rebuilt when the
//! state changes, events delegated to the tool's root. Everything it computes and writes is
//! `crate::tools::local`.

use super::{write_query, Mode};
use crate::i18n::Lang;
use crate::route::{Route, Tool};
use crate::tools::local as l;
use leptos::prelude::*;
use wasm_bindgen::JsCast;

pub fn view(lang: Lang, query: &str, mode: Mode) -> AnyView {
    let t = lang.local();
    let (initial, repaired) = l::parse(query);
    let prefix = if mode == Mode::Page { "local" } else { "localw" };
    let state = RwSignal::new(initial);
    if mode == Mode::Page {
        Effect::new(move |_| state.with(|s| write_query(&l::encode_state(s))));
    }
    // The controls change shape with the device (a custom one's fields, a Mac's memory sizes).
    let controls = move || {
        state.with(|s| format!("{}{}", l::controls_html(lang, s, prefix), l::reserve_html(lang, s, prefix)))
    };
    let results = move || state.with(|s| crate::ui::browser::links(l::results_html(lang, s, &l::rows(s))));
    let on_change = move |ev: web_sys::Event| {
        let Some(el) = ev.target().and_then(|t| t.dyn_into::<web_sys::Element>().ok()) else { return };
        let Some(key) = el.get_attribute("data-k") else { return };
        let value = event_target_value(&ev);
        let ok = state.try_update(|s| l::set(s, &key, value.trim())).unwrap_or(false);
        let _ =
            if ok { el.remove_attribute("aria-invalid") } else { el.set_attribute("aria-invalid", "true") };
    };
    let open_full = (mode == Mode::Widget).then(|| {
        let href = move || {
            crate::ui::browser::href(&format!(
                "{}?{}",
                Route::Tool(lang, Tool::Local).to_hash(),
                state.with(l::encode_state)
            ))
        };
        view! { <a class="open-estimator" id="local-open" href=href>{t.open_full}</a> }
    });
    view! {
        <div class="local-tool" on:change=on_change>
            <div inner_html=l::notice_html(lang, &repaired)></div>
            <div class="local-grid">
                <div inner_html=controls></div>
                <div class="local-results" id=format!("{prefix}-results") inner_html=results></div>
            </div>
            <div inner_html=l::method_html(lang)></div>
            {open_full}
        </div>
    }
    .into_any()
}

/// The tool as the memory-capacity chapter's widget (the course bundle carries it on its own,
/// without the other tools).
pub fn widget(lang: Lang, preset: Option<&str>, query: Option<String>) -> AnyView {
    let state = match query {
        Some(q) if !q.is_empty() => q,
        _ => preset.map(|p| format!("preset={p}")).unwrap_or_default(),
    };
    let t = lang.tools();
    let body = view(lang, &state, Mode::Widget);
    view! {
        <aside class="widget tool-widget" data-widget="local">
            <header class="widget-head">
                <span class="eyebrow">{lang.est().try_it}</span>
                <strong>{t.name(Tool::Local)}</strong>
            </header>
            {body}
        </aside>
    }
    .into_any()
}
