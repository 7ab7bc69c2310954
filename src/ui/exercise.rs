//! Checking the exercises of a chapter page. The cards are in the page already
//! (`exercises::card_html`: question, answer field, key in `data-key` / `data-tolerance`,
//! worked solution in a `<details>`); this listens on the document for Check (and Enter in an
//! answer field), writes the verdict, shows the hint after a wrong try (the worked solution
//! stays closed until the reader opens it: a wrong try, even a 0, gives nothing away), and
//! keeps the chapter's progress in localStorage (`gpu-primer.exercises.{slug}`, one solved id per
//! line), with the reset button. A fragment `#exercise-ID` focuses that card.

use crate::exercises::check::{answer_is_right, read_answer, Unreadable};
use crate::i18n::Lang;
use std::cell::Cell;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

thread_local! {
    /// The listeners are added once; the page they act on is whichever is shown.
    static LISTENING: Cell<bool> = const { Cell::new(false) };
}

fn document() -> Option<web_sys::Document> {
    web_sys::window()?.document()
}

fn storage_key(slug: &str) -> String {
    format!("gpu-primer.exercises.{slug}")
}

/// The slug of the chapter shown, if it is one.
fn chapter_slug() -> Option<String> {
    document()?.query_selector("article[data-page=chapter]").ok()??.get_attribute("data-slug")
}

/// The ids of the exercises on this page.
fn page_ids() -> Vec<String> {
    let mut ids = Vec::new();
    if let Some(list) = document().and_then(|d| d.query_selector_all("section[data-exercise]").ok()) {
        for i in 0..list.length() {
            if let Some(id) = list
                .item(i)
                .and_then(|n| n.dyn_into::<web_sys::Element>().ok())
                .and_then(|e| e.get_attribute("data-exercise"))
            {
                ids.push(id);
            }
        }
    }
    ids
}

/// The solved ids saved for `slug` that are on this page.
fn solved(slug: &str) -> Vec<String> {
    let known = page_ids();
    let saved = super::browser::storage()
        .and_then(|s| s.get_item(&storage_key(slug)).ok().flatten())
        .unwrap_or_default();
    let mut out: Vec<String> =
        saved.lines().filter(|l| known.iter().any(|k| k == l)).map(str::to_string).collect();
    out.sort();
    out.dedup();
    out
}

fn save(slug: &str, ids: &[String]) {
    if let Some(s) = super::browser::storage() {
        let _ = if ids.is_empty() {
            s.remove_item(&storage_key(slug))
        } else {
            s.set_item(&storage_key(slug), &ids.join("\n"))
        };
    }
}

/// Writes the progress line and each card's solved mark from what is saved.
fn show_progress(lang: Lang) {
    let (Some(slug), Some(doc)) = (chapter_slug(), document()) else { return };
    let done = solved(&slug);
    let total = page_ids().len();
    if let Some(count) = doc.query_selector(".exercise-progress-count").ok().flatten() {
        count.set_text_content(Some(&(lang.ex().progress)(done.len(), total)));
    }
    for id in page_ids() {
        if let Some(card) = card(&id) {
            let _ = if done.contains(&id) {
                card.set_attribute("data-solved", "true")
            } else {
                card.remove_attribute("data-solved")
            };
        }
    }
}

fn card(id: &str) -> Option<web_sys::Element> {
    document()?.get_element_by_id(&format!("exercise-{id}"))
}

/// The answer given in a card: the typed number, or the value of the chosen option.
fn answer_of(card: &web_sys::Element) -> String {
    let value = |selector: &str| {
        card.query_selector(selector)
            .ok()
            .flatten()
            .and_then(|el| web_sys::js_sys::Reflect::get(&el, &"value".into()).ok())
            .and_then(|v| v.as_string())
    };
    value("[data-role=answer]").or_else(|| value("input[type=radio]:checked")).unwrap_or_default()
}

/// What checking an answer found: right or wrong, and how a number typed in another unit of
/// the question's kind was read (the number in the question's unit, the unit typed).
struct Verdict {
    right: bool,
    read_as: Option<(f64, String)>,
}

/// Whether `answer` is right for `card`, by the key the page carries; `Err` when a number was
/// asked for and the answer cannot be read as one in the question's unit.
fn is_right(card: &web_sys::Element, answer: &str) -> Result<Verdict, Unreadable> {
    let key = card.get_attribute("data-key").unwrap_or_default();
    match card.get_attribute("data-tolerance").and_then(|t| t.parse::<f64>().ok()) {
        Some(tolerance) => {
            let unit = card.get_attribute("data-unit").unwrap_or_default();
            let read = read_answer(answer, &unit)?;
            let key = key.parse::<f64>().unwrap_or(f64::NAN);
            let right = answer_is_right(answer, &unit, key, tolerance)?;
            Ok(Verdict { right, read_as: read.converted_from.map(|from| (read.value, from)) })
        }
        None => Ok(Verdict { right: !answer.is_empty() && answer == key, read_as: None }),
    }
}

/// Checks the answer in `card` and shows the verdict (or, for a number that cannot be read,
/// says why, naming a unit of another kind, without counting a try).
fn check(card: &web_sys::Element, lang: Lang) {
    let x = lang.ex();
    let unit = card.get_attribute("data-unit").unwrap_or_default();
    let verdict = match is_right(card, answer_of(card).trim()) {
        Ok(verdict) => verdict,
        Err(why) => {
            let _ = card.set_attribute("data-result", "unreadable");
            if let Some(v) = card.query_selector(".exercise-verdict").ok().flatten() {
                v.set_text_content(Some(&crate::i18n::unreadable_text(&why, &unit, lang)));
            }
            return;
        }
    };
    let ok = verdict.right;
    let _ = card.set_attribute("data-result", if ok { "correct" } else { "wrong" });
    if let Some(v) = card.query_selector(".exercise-verdict").ok().flatten() {
        let read_as = verdict.read_as.map_or(String::new(), |(value, from)| {
            let decimals = if value.abs() >= 100.0 {
                1
            } else if value.abs() >= 1.0 {
                2
            } else {
                4
            };
            (x.read_as)(&crate::exercises::format_number(value, decimals, true), &unit, &from)
        });
        v.set_text_content(Some(&format!("{}{read_as}", if ok { x.correct } else { x.wrong })));
    }
    if !ok {
        if let Some(hint) = card.query_selector(".exercise-hint").ok().flatten() {
            let _ = hint.remove_attribute("hidden");
        }
    }
    if let (true, Some(slug), Some(id)) = (ok, chapter_slug(), card.get_attribute("data-exercise")) {
        let mut done = solved(&slug);
        if !done.contains(&id) {
            done.push(id);
            done.sort();
        }
        save(&slug, &done);
        show_progress(lang);
    }
}

fn page_lang() -> Lang {
    let tag = document()
        .and_then(|d| d.document_element())
        .and_then(|e| e.get_attribute("lang"))
        .unwrap_or_default();
    Lang::from_browser_tag(&tag)
}

fn target(ev: &web_sys::Event) -> Option<web_sys::Element> {
    ev.target().and_then(|t| t.dyn_into::<web_sys::Element>().ok())
}

/// A chapter's exercise card: it carries its key (`data-key`). The classroom's cards carry none
/// (each student's key is computed from their own numbers) and are checked by the classroom's
/// own handler, so a page of the bundle with every feature checks them once.
const CHAPTER_CARD: &str = "section[data-exercise][data-key]";

fn on_click(ev: web_sys::MouseEvent) {
    let Some(t) = target(&ev) else { return };
    if let Some(button) = t.closest(".exercise-check").ok().flatten() {
        if let Some(card) = button.closest(CHAPTER_CARD).ok().flatten() {
            check(&card, page_lang());
        }
    } else if t.closest(".exercise-reset").ok().flatten().is_some() {
        if let Some(slug) = chapter_slug() {
            save(&slug, &[]);
            show_progress(page_lang());
        }
    }
}

fn on_keydown(ev: web_sys::KeyboardEvent) {
    if ev.key() != "Enter" {
        return;
    }
    let Some(t) = target(&ev) else { return };
    if t.get_attribute("data-role").as_deref() == Some("answer") {
        if let Some(card) = t.closest(CHAPTER_CARD).ok().flatten() {
            ev.prevent_default();
            check(&card, page_lang());
        }
    }
}

/// Makes the exercises of the page shown live (the listeners are added on the first page).
pub fn attach(lang: Lang) {
    if !LISTENING.with(|l| l.replace(true)) {
        if let Some(doc) = document() {
            let click = Closure::<dyn FnMut(web_sys::MouseEvent)>::new(on_click);
            let _ = doc.add_event_listener_with_callback("click", click.as_ref().unchecked_ref());
            click.forget();
            let key = Closure::<dyn FnMut(web_sys::KeyboardEvent)>::new(on_keydown);
            let _ = doc.add_event_listener_with_callback("keydown", key.as_ref().unchecked_ref());
            key.forget();
        }
    }
    show_progress(lang);
    // A link to one exercise (`#exercise-ID`): the browser has scrolled there; the card gets
    // the focus, so the answer field is one Tab away.
    let fragment = super::nav::current().fragment;
    if let Some(id) = fragment.strip_prefix("exercise-") {
        if let Some(el) = card(id).and_then(|c| c.dyn_into::<web_sys::HtmlElement>().ok()) {
            el.scroll_into_view();
            let _ = el.focus();
        }
    }
}
