//! The site search in the header: a search field (also opened by the `/` key) whose results
//! drop down as links with a snippet; arrow keys move through them, Enter opens one, Escape
//! closes the list. The matching itself is `content::search` (pure, tested natively).

use crate::content::search::search;
use crate::content::search_html::results_html;
use crate::i18n::Lang;
use leptos::ev;
use leptos::html::Input;
use leptos::prelude::*;
use wasm_bindgen::JsCast;

/// True when a key press is meant for a text field (or editable element), not for the page.
fn typing_in_a_field(event: &web_sys::KeyboardEvent) -> bool {
    let Some(element) = event.target().and_then(|t| t.dyn_into::<web_sys::HtmlElement>().ok()) else {
        return false;
    };
    matches!(element.tag_name().as_str(), "INPUT" | "TEXTAREA" | "SELECT") || element.is_content_editable()
}

fn go_to(href: &str) {
    if let Some(w) = web_sys::window() {
        let _ = w.location().set_hash(href);
    }
}

/// The search field and its results, in the page's language.
#[component]
pub fn SiteSearch(
    /// The page's language: results and labels follow it.
    lang: Memo<Lang>,
) -> impl IntoView {
    let c = move || lang.get().course();
    let (query, set_query) = signal(String::new());
    let (open, set_open) = signal(false);
    let (active, set_active) = signal(0usize);
    let input = NodeRef::<Input>::new();
    let hits = Memo::new(move |_| query.with(|q| search(lang.get(), q)));
    let showing = move || open.get() && query.with(|q| !q.trim().is_empty());

    let focus = move || {
        set_open.set(true);
        if let Some(el) = input.get_untracked() {
            let _ = el.focus();
            el.select();
        }
    };
    let listener = window_event_listener(ev::keydown, move |e: web_sys::KeyboardEvent| {
        if e.key() == "/" && !e.ctrl_key() && !e.meta_key() && !e.alt_key() && !typing_in_a_field(&e) {
            e.prevent_default();
            focus();
        }
    });
    on_cleanup(move || listener.remove());

    let close = move || {
        set_open.set(false);
        set_query.set(String::new());
        set_active.set(0);
        if let Some(el) = input.get_untracked() {
            let _ = el.blur();
        }
    };
    let on_key = move |e: web_sys::KeyboardEvent| {
        let count = hits.with(Vec::len);
        match e.key().as_str() {
            "ArrowDown" if count > 0 => {
                e.prevent_default();
                set_open.set(true);
                set_active.update(|a| *a = (*a + 1) % count);
            }
            "ArrowUp" if count > 0 => {
                e.prevent_default();
                set_active.update(|a| *a = (*a + count - 1) % count);
            }
            "Enter" => {
                e.prevent_default();
                let target = hits.with(|h| h.get(active.get_untracked()).map(|hit| hit.href.clone()));
                if let Some(href) = target {
                    close();
                    go_to(&href);
                }
            }
            "Escape" => {
                e.prevent_default();
                close();
            }
            _ => {}
        }
    };

    view! {
        <div class="site-search" role="search" class:open=open>
            <button type="button" class="search-toggle" aria-label=move || c().search_open
                on:click=move |_| focus()>
                <span aria-hidden="true">"⌕"</span>
            </button>
            <input
                node_ref=input
                type="search"
                id="site-search"
                class="search-input"
                role="combobox"
                autocomplete="off"
                aria-autocomplete="list"
                aria-controls="search-results"
                aria-expanded=move || showing().to_string()
                aria-activedescendant=move || showing().then(|| format!("search-hit-{}", active.get()))
                aria-label=move || c().search_label
                placeholder=move || c().search_placeholder
                prop:value=query
                on:input=move |e| {
                    set_query.set(event_target_value(&e));
                    set_active.set(0);
                    set_open.set(true);
                }
                on:focus=move |_| set_open.set(true)
                on:blur=move |_| set_open.set(false)
                on:keydown=on_key
            />
            <ul id="search-results" class="search-results" role="listbox" aria-label=move || c().search_results
                hidden=move || !showing()
                // Keeps the focus in the field, so the list stays open while a result is clicked.
                on:mousedown=|e| e.prevent_default()
                on:click=move |e| {
                    // Navigate here: closing the list replaces the link, and a link that left
                    // the page while being clicked would not be followed.
                    e.prevent_default();
                    let link = e.target().and_then(|t| t.dyn_into::<web_sys::Element>().ok())
                        .and_then(|el| el.closest("a[href]").ok().flatten())
                        .and_then(|a| a.get_attribute("href"));
                    if let Some(href) = link {
                        close();
                        go_to(&href);
                    }
                }
                inner_html=move || hits.with(|h| query.with(|q| results_html(lang.get(), q, h, active.get())))>
            </ul>
        </div>
    }
}
