//! The bottleneck diagnosis (`#/{lang}/tools/diagnose?…` and chapter 11's widget): the form and
//! the results are escaped HTML built natively in `tools::diagnose`; this file holds the state
//! in signals, reads the delegated input events and writes the HTML and the address.

use super::Mode;
use crate::i18n::Lang;
use crate::tools::diagnose::{form_html, notices_html, parse_query, results_html, Notice, State};
use leptos::prelude::*;
use wasm_bindgen::JsCast;

pub fn view(lang: Lang, query: &str, mode: Mode) -> AnyView {
    let widget = mode == Mode::Widget;
    let (initial, parsed_notices) = parse_query(query);
    let state = RwSignal::new(initial);
    let notices: RwSignal<Vec<Notice>> = RwSignal::new(parsed_notices);
    // Bumped when the whole form must be redrawn (an example, Clear, the bandwidth unit).
    let form_version = RwSignal::new(0u32);

    // The view is drawn with the initial form, results and notices (the prerendered page has
    // them too); the effects rewrite a part when its state changes after that.
    let (form0, results0, notices0) = state.with_untracked(|s| {
        (form_html(lang, s), results_html(lang, s, widget), notices.with_untracked(|n| notices_html(lang, n)))
    });
    Effect::new(move |first: Option<()>| {
        form_version.track();
        if first.is_some() {
            state.with_untracked(|s| set_html("dg-form", &form_html(lang, s)));
        }
    });
    Effect::new(move |first: Option<()>| {
        state.with(|s| {
            if first.is_some() {
                set_html("dg-results", &results_html(lang, s, widget));
            }
            if !widget {
                super::write_query(&s.to_query());
            }
        });
    });
    Effect::new(move |first: Option<()>| {
        notices.with(|n| {
            if first.is_some() {
                set_html("dg-notices", &notices_html(lang, n));
            }
        })
    });

    let edit = move |name: String, value: String| {
        let mut notice = None;
        state.update(|s| notice = s.set(&name, &value));
        notices.update(|n| {
            n.retain(|x| x.key != name);
            n.extend(notice);
        });
        if name == "preset" || name == "bwu" {
            form_version.update(|v| *v += 1);
        }
    };
    let on_input = move |ev: leptos::ev::Event| {
        if let Some((name, value)) = named_value(&ev, "INPUT") {
            edit(name, value);
        }
    };
    let on_change = move |ev: leptos::ev::Event| {
        if let Some((name, value)) = named_value(&ev, "SELECT") {
            edit(name, value);
        }
    };
    let on_click = move |ev: leptos::ev::MouseEvent| {
        let clear = ev
            .target()
            .and_then(|t| t.dyn_into::<web_sys::Element>().ok())
            .and_then(|e| e.get_attribute("data-action"))
            .is_some_and(|a| a == "clear");
        if clear {
            state.set(State::default());
            notices.set(Vec::new());
            form_version.update(|v| *v += 1);
        }
    };

    let t = lang.diag();
    let note = if widget {
        format!("<p class=\"muted\">{}</p>", crate::html::escape(t.widget_note))
    } else {
        String::new()
    };
    view! {
        <section class="diagnose" data-tool="diagnose" on:input=on_input on:change=on_change on:click=on_click>
            <div inner_html=note></div>
            <div id="dg-notices" inner_html=notices0></div>
            <div class="dg-layout">
                <div id="dg-form" class="dg-form" inner_html=form0></div>
                <div id="dg-results" class="dg-results" aria-live="polite" inner_html=crate::ui::browser::links(results0)></div>
            </div>
        </section>
    }
    .into_any()
}

/// The `name` and value of the element an event came from, when it is a `tag` (`INPUT`,
/// `SELECT`) with a name.
fn named_value(ev: &web_sys::Event, tag: &str) -> Option<(String, String)> {
    let el = ev.target()?.dyn_into::<web_sys::Element>().ok()?;
    if el.tag_name() != tag {
        return None;
    }
    let name = el.get_attribute("name")?;
    Some((name, event_target_value(ev)))
}

fn set_html(id: &str, html: &str) {
    if let Some(el) = document().get_element_by_id(id) {
        el.set_inner_html(&crate::ui::browser::links(html.to_string()));
    }
}
