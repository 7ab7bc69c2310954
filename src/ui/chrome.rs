//! The site's frame on every page, made live once for the whole visit (its listeners are on the
//! window, so a page swapped in needs nothing new):
//!
//! - **the chapter menu** of a narrow screen: the header's menu button (`.nav-menu`, a link to the
//!   chapter list, which a phone shows after the page's text) opens the list over the page,
//!   under the header; Escape, the button again or a tap outside closes it;
//! - **a glossary term's definition**: hovering or focusing the term shows it (the stylesheet);
//!   Escape hides it until the pointer or the focus comes back (WCAG 1.4.13); on a touch screen,
//!   where there is no hover, the first tap on a term shows its definition with a link to its
//!   entry instead of leaving the page, and a second tap on the term follows it.
//!
//! Without the app the menu button is a link to the list and a term is a link to its entry.

use crate::i18n::Lang;
use std::cell::Cell;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

thread_local! {
    /// Whether the last press was a touch (or a pen): its click previews a term.
    static TOUCH: Cell<bool> = const { Cell::new(false) };
}

fn document() -> Option<web_sys::Document> {
    web_sys::window()?.document()
}

fn each(selector: &str, mut f: impl FnMut(web_sys::Element)) {
    let Some(list) = document().and_then(|d| d.query_selector_all(selector).ok()) else { return };
    for i in 0..list.length() {
        if let Some(el) = list.item(i).and_then(|n| n.dyn_into::<web_sys::Element>().ok()) {
            f(el);
        }
    }
}

fn listen<E: wasm_bindgen::convert::FromWasmAbi + 'static>(
    target: &web_sys::EventTarget,
    event: &str,
    f: impl FnMut(E) + 'static,
) {
    let closure = Closure::<dyn FnMut(E)>::new(f);
    let _ = target.add_event_listener_with_callback_and_bool(event, closure.as_ref().unchecked_ref(), true);
    closure.forget();
}

/// Starts the frame's listeners (once, when the app starts).
pub fn start() {
    let Some(window) = web_sys::window() else { return };
    let target: &web_sys::EventTarget = window.as_ref();
    listen(target, "pointerdown", |e: web_sys::PointerEvent| {
        TOUCH.with(|t| t.set(matches!(e.pointer_type().as_str(), "touch" | "pen")));
        let inside = |selector: &str| {
            e.target()
                .and_then(|t| t.dyn_into::<web_sys::Element>().ok())
                .and_then(|t| t.closest(selector).ok().flatten())
                .is_some()
        };
        if !inside(".term[data-open]") {
            each(".term[data-open]", |el| close_term(&el));
        }
        if !inside(".chapter-nav[data-open]") && !inside(".nav-menu") {
            close_menu(false);
        }
    });
    // Before the app's navigation (a click listener on the window too, added later): a click
    // this one takes is not followed.
    listen(target, "click", on_click);
    listen(target, "keydown", |e: web_sys::KeyboardEvent| {
        if e.key() == "Escape" {
            each(".term:hover, .term:focus-within", |el| {
                let _ = el.set_attribute("data-quiet", "");
            });
            each(".term[data-open]", |el| close_term(&el));
            close_menu(true);
        }
    });
    for event in ["pointerover", "focusin"] {
        listen(target, event, |_: web_sys::Event| {
            each(".term[data-quiet]:not(:hover):not(:focus-within)", |el| {
                let _ = el.remove_attribute("data-quiet");
            });
        });
    }
}

fn on_click(ev: web_sys::MouseEvent) {
    let Some(t) = ev.target().and_then(|t| t.dyn_into::<web_sys::Element>().ok()) else { return };
    if t.closest(".nav-menu").ok().flatten().is_some() {
        ev.prevent_default();
        ev.stop_propagation();
        toggle_menu();
        return;
    }
    let Some(term) = t.closest(".term").ok().flatten() else { return };
    let on_link = t.closest(".term > a").ok().flatten().is_some();
    if on_link && TOUCH.with(Cell::get) && !term.has_attribute("data-open") {
        // A tap: the definition first; the next tap on the term goes to the glossary.
        ev.prevent_default();
        ev.stop_propagation();
        each(".term[data-open]", |el| close_term(&el));
        open_term(&term);
    }
}

/// Shows a term's definition, with a link to its glossary entry (the term's own link).
fn open_term(term: &web_sys::Element) {
    let _ = term.set_attribute("data-open", "");
    let (Some(tip), Some(link), Some(doc)) = (
        term.query_selector(".term-tip").ok().flatten(),
        term.query_selector(":scope > a").ok().flatten(),
        document(),
    ) else {
        return;
    };
    if tip.query_selector(".term-more").ok().flatten().is_none() {
        if let Ok(more) = doc.create_element("a") {
            let lang = Lang::from_browser_tag(
                &doc.document_element().and_then(|e| e.get_attribute("lang")).unwrap_or_default(),
            );
            let _ = more.set_attribute("class", "term-more");
            let _ = more.set_attribute("href", &link.get_attribute("href").unwrap_or_default());
            more.set_text_content(Some(lang.course().term_more));
            let _ = tip.append_child(&more);
        }
    }
}

fn close_term(term: &web_sys::Element) {
    let _ = term.remove_attribute("data-open");
}

/// The header's menu button and the chapter list it opens.
fn menu() -> Option<(web_sys::Element, web_sys::HtmlElement)> {
    let doc = document()?;
    let button = doc.query_selector(".nav-menu").ok()??;
    let nav = doc.get_element_by_id("chapter-nav")?.dyn_into::<web_sys::HtmlElement>().ok()?;
    Some((button, nav))
}

fn toggle_menu() {
    let Some((button, nav)) = menu() else { return };
    if nav.has_attribute("data-open") {
        close_menu(true);
        return;
    }
    // Under the header, whatever its height on this screen.
    let top = document()
        .and_then(|d| d.query_selector(".site-header").ok().flatten())
        .map_or(0.0, |h| h.get_bounding_client_rect().bottom());
    let _ = nav.style().set_property("top", &format!("{top}px"));
    let _ = nav.set_attribute("data-open", "");
    let _ = button.set_attribute("aria-expanded", "true");
    if let Some(details) = nav.query_selector("details").ok().flatten() {
        let _ = details.set_attribute("open", "");
    }
    // The focus goes to the chapter shown (else the first), so the list is read from there.
    let first = nav
        .query_selector("a.current")
        .ok()
        .flatten()
        .or_else(|| nav.query_selector("li a").ok().flatten())
        .and_then(|a| a.dyn_into::<web_sys::HtmlElement>().ok());
    if let Some(a) = first {
        let _ = a.focus();
    }
}

/// Closes the chapter menu (`refocus`: the focus goes back to its button).
fn close_menu(refocus: bool) {
    let Some((button, nav)) = menu() else { return };
    if !nav.has_attribute("data-open") {
        return;
    }
    let _ = nav.remove_attribute("data-open");
    let _ = nav.style().remove_property("top");
    let _ = button.set_attribute("aria-expanded", "false");
    if refocus {
        if let Ok(b) = button.dyn_into::<web_sys::HtmlElement>() {
            let _ = b.focus();
        }
    }
}
