//! Mounting the app into a prerendered page. The page says what it is (`data-page` and `lang`
//! on `<html>`) and where its live parts go: elements with `data-mount` (`search` in the header,
//! `widget` and `figure` in a chapter, `page` for a tool's whole page, `embed`). Each holds its
//! default state already drawn by the same component (`super::snapshot`), so mounting replaces
//! markup with the same markup made live: nothing jumps. Nothing is hydrated.
//!
//! Widgets and figures are mounted when they come within half a screen of the viewport (one
//! `IntersectionObserver`), so a long chapter starts with only what the reader sees; the rest
//! of the page is live from the start (its links, exercises and search work without it).

use crate::i18n::Lang;
use leptos::prelude::*;
use std::any::Any;
use std::cell::RefCell;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

/// The observer that mounts widgets as they near the viewport, and its callback (kept alive
/// with it).
type Observer = (web_sys::IntersectionObserver, Closure<dyn FnMut(web_sys::js_sys::Array)>);

thread_local! {
    /// What is mounted on this page (dropping a handle unmounts its view and runs its cleanups).
    static MOUNTED: RefCell<Vec<Box<dyn Any>>> = const { RefCell::new(Vec::new()) };
    static OBSERVER: RefCell<Option<Observer>> = const { RefCell::new(None) };
}

fn keep(handle: impl Any) {
    MOUNTED.with(|m| m.borrow_mut().push(Box::new(handle)));
}

/// Unmounts everything on the page (before another page is swapped in).
pub fn unmount_all() {
    OBSERVER.with(|o| {
        if let Some((observer, _)) = o.borrow_mut().take() {
            observer.disconnect();
        }
    });
    let handles = MOUNTED.with(|m| std::mem::take(&mut *m.borrow_mut()));
    drop(handles);
}

/// The page's language, from `<html lang>`.
fn page_lang() -> Lang {
    let tag = document().document_element().and_then(|e| e.get_attribute("lang")).unwrap_or_default();
    Lang::from_browser_tag(&tag)
}

/// Whether this bundle serves chapters and embed pages (the course's and the tools'): only they
/// have chapter widgets, figures and exercises to mount, so the estimator's, the planner's and
/// the classroom's bundles leave that code out.
const CHAPTERS: bool = cfg!(any(feature = "course", feature = "tools"));

/// Mounts the current page's live parts.
pub fn mount_page() {
    let lang = page_lang();
    super::browser::remember_lang(lang);
    let Ok(list) = document().query_selector_all("[data-mount]") else { return };
    let mut lazy = Vec::new();
    for i in 0..list.length() {
        let Some(el) = list.item(i).and_then(|n| n.dyn_into::<web_sys::HtmlElement>().ok()) else { continue };
        match el.get_attribute("data-mount").as_deref() {
            Some("widget" | "figure") if CHAPTERS => lazy.push(el),
            Some(_) => mount_now(&el, lang),
            None => {}
        }
    }
    observe(lazy, lang);
    #[cfg(any(feature = "course", feature = "tools"))]
    super::exercise::attach(lang);
    // The page is live (tests and the bench wait for this; a swap clears it first).
    if let Some(root) = document().document_element() {
        let _ = root.set_attribute("data-live", "");
    }
}

/// Mounts one slot's component in place of its snapshot. The snapshot stays in the slot while
/// the component is built (a component may take what it would compute from it, as the planner
/// takes its default plan) and is removed right after, before anything is painted.
fn mount_now(el: &web_sys::HtmlElement, lang: Lang) {
    let attr = |name: &str| el.get_attribute(name).unwrap_or_default();
    let kind = attr("data-mount");
    let snapshot: Vec<web_sys::Node> = {
        let children = el.child_nodes();
        (0..children.length()).filter_map(|i| children.item(i)).collect()
    };
    mount_component(el, lang, &kind, &attr);
    for node in snapshot {
        if let Some(parent) = node.parent_node() {
            let _ = parent.remove_child(&node);
        }
    }
    let _ = el.set_attribute("data-live", "");
}

/// Mounts the component `kind` into `el` (after what it holds).
fn mount_component(el: &web_sys::HtmlElement, lang: Lang, kind: &str, attr: &dyn Fn(&str) -> String) {
    match kind {
        #[cfg(any(feature = "course", feature = "tools"))]
        "widget" => {
            let name = attr("data-widget");
            keep(mount_to(
                el.clone(),
                move || view! { <super::estimator::widget::ChapterWidget lang=lang name=name /> },
            ));
        }
        #[cfg(any(feature = "course", feature = "tools"))]
        "figure" => {
            let name = attr("data-figure");
            keep(mount_to(
                el.clone(),
                move || view! { <super::figure::ChapterFigure lang=lang name=name /> },
            ));
        }
        "search" => keep(mount_to(el.clone(), move || view! { <super::search::SiteSearch lang=lang /> })),
        #[cfg(any(feature = "course", feature = "tools"))]
        "embed" => {
            let name = attr("data-widget");
            let query = super::browser::page_query();
            keep(mount_to(
                el.clone(),
                move || view! { <super::pages::EmbedPage lang=lang name=name query=query /> },
            ));
        }
        "page" => {
            let app = attr("data-app");
            keep(mount_to(el.clone(), move || super::pages::app_page(lang, &app)));
        }
        _ => {}
    }
}

/// Mounts each of `slots` once it is within half a screen of the viewport (at once where the
/// browser has no `IntersectionObserver`).
fn observe(slots: Vec<web_sys::HtmlElement>, lang: Lang) {
    if slots.is_empty() {
        return;
    }
    let callback =
        Closure::<dyn FnMut(web_sys::js_sys::Array)>::new(move |entries: web_sys::js_sys::Array| {
            for entry in entries.iter() {
                let entry: web_sys::IntersectionObserverEntry = entry.unchecked_into();
                if !entry.is_intersecting() {
                    continue;
                }
                let target = entry.target();
                OBSERVER.with(|o| {
                    if let Some((observer, _)) = o.borrow().as_ref() {
                        observer.unobserve(&target);
                    }
                });
                if let Ok(el) = target.dyn_into::<web_sys::HtmlElement>() {
                    mount_now(&el, lang);
                }
            }
        });
    let init = web_sys::IntersectionObserverInit::new();
    init.set_root_margin("50% 0px");
    match web_sys::IntersectionObserver::new_with_options(callback.as_ref().unchecked_ref(), &init) {
        Ok(observer) => {
            for el in &slots {
                observer.observe(el);
            }
            OBSERVER.with(|o| *o.borrow_mut() = Some((observer, callback)));
        }
        Err(_) => {
            for el in &slots {
                mount_now(el, lang);
            }
        }
    }
}

/// The app's start: mounts the page it is loaded on and takes over in-site navigation.
pub fn start() {
    // The team catalog the site was built with (`site --catalog`), before anything reads the
    // catalog; the site checked it, so a problem here can only be a hand-edited page: ignored.
    if let Some(text) =
        document().get_element_by_id(crate::catalog::team::ELEMENT_ID).and_then(|e| e.text_content())
    {
        let _ = crate::catalog::team::install_text(&text);
    }
    super::nav::start(super::nav::Mounts { unmount_all, mount_page });
    super::nav::landed();
    super::chrome::start();
    mount_page();
    // A print button on the worksheet pages, in any page that has one.
    let print = Closure::<dyn FnMut(web_sys::MouseEvent)>::new(|ev: web_sys::MouseEvent| {
        let on_print = ev
            .target()
            .and_then(|t| t.dyn_into::<web_sys::Element>().ok())
            .and_then(|t| t.closest("[data-action=print]").ok().flatten())
            .is_some();
        if on_print {
            if let Some(w) = web_sys::window() {
                let _ = w.print();
            }
        }
    });
    let _ = document().add_event_listener_with_callback("click", print.as_ref().unchecked_ref());
    print.forget();
}
