//! The shared-cluster calculator's view: the controls and results are HTML strings from
//! `tools::cluster::html`; one delegated handler per event kind applies `tools::cluster::edit`
//! to the state. The controls are drawn again only when rows or dependent fields change, so a
//! field keeps its focus while the reader types and the results follow every keystroke.

use super::{write_query, Mode};
use crate::i18n::Lang;
use crate::route::{Route, Tool};
use crate::tools::cluster::edit::{self, Redraw};
use crate::tools::cluster::html::{controls_html, notices_html, results_html};
use crate::tools::cluster::{decode, encode};
use leptos::prelude::*;
use wasm_bindgen::JsCast;

/// The element an event happened on.
fn target(ev: &web_sys::Event) -> Option<web_sys::Element> {
    ev.target().and_then(|t| t.dyn_into::<web_sys::Element>().ok())
}

fn index(el: &web_sys::Element) -> usize {
    el.get_attribute("data-i").and_then(|i| i.parse().ok()).unwrap_or(0)
}

pub fn view(lang: Lang, query: &str, mode: Mode) -> AnyView {
    let t = lang.cluster();
    let (initial, notices) = decode(query, &t.names);
    let repaired = notices_html(lang, &initial, &notices, t.repaired, "warn", t.example_used);
    let state = RwSignal::new(initial);
    // Bumped when the controls must be drawn again.
    let layout = RwSignal::new(0u32);
    let shown_notices = RwSignal::new(repaired);
    if mode == Mode::Page {
        Effect::new(move |_| state.with(|s| write_query(&encode(s))));
    }
    let on_input = move |ev: leptos::ev::Event| {
        let Some(el) = target(&ev) else { return };
        let Some(key) = el.get_attribute("data-f") else { return };
        let checked =
            el.dyn_ref::<web_sys::HtmlInputElement>().is_some_and(web_sys::HtmlInputElement::checked);
        let value = event_target_value(&ev);
        let mut redraw = Redraw::Results;
        state.update(|s| redraw = edit::set(s, &key, index(&el), &value, checked));
        if redraw == Redraw::Controls {
            layout.update(|n| *n += 1);
        }
    };
    let on_click = move |ev: leptos::ev::MouseEvent| {
        let Some(el) = target(&ev).and_then(|e| e.closest("[data-a]").ok().flatten()) else { return };
        let Some(action) = el.get_attribute("data-a") else { return };
        if action == "dismiss" {
            shown_notices.set(String::new());
            return;
        }
        state.update(|s| edit::act(s, &action, index(&el), t.new_team, t.new_service));
        layout.update(|n| *n += 1);
    };
    let controls = move || {
        layout.track();
        state.with_untracked(|s| controls_html(lang, s))
    };
    let results = move || {
        state.with(|s| crate::ui::browser::links(results_html(lang, s, crate::ui::browser::chart_width())))
    };
    let notices_view = move || {
        shown_notices.with(|n| {
            if n.is_empty() {
                String::new()
            } else {
                format!(
                    "{n}<button type=\"button\" class=\"button secondary\" data-a=\"dismiss\">{}</button>",
                    t.dismiss
                )
            }
        })
    };
    let link = (mode == Mode::Widget).then(|| {
        let href = move || {
            crate::ui::browser::href(&format!(
                "{}?{}",
                Route::Tool(lang, Tool::Cluster).to_hash(),
                state.with(encode)
            ))
        };
        view! {
            <p class="cl-open">{t.widget_note}" "<a class="cl-full" href=href>{t.open_full}</a></p>
        }
    });
    view! {
        <section class="cluster-tool" data-tool-body="cluster" on:input=on_input on:click=on_click>
            {link}
            <div class="cl-notices" inner_html=notices_view></div>
            <div class="cl-controls" inner_html=controls></div>
            <div class="cl-results" aria-live="polite" inner_html=results></div>
        </section>
    }
    .into_any()
}
