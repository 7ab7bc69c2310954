//! The site search in the header: a search field (also opened by the `/` key) whose results
//! drop down as links with a snippet; arrow keys move through them, Enter opens one, Escape
//! closes the list. The index is a file per language (`{lang}/search-index.json`, written by
//! `site::search_index`), fetched when the field is first used, as mdBook loads its index; the
//! matching is `content::search` (pure, tested natively).

use crate::content::search::{tokens, Hit, Index};
use crate::html::escape;
use crate::i18n::Lang;
use leptos::html::Input;
use leptos::prelude::*;

/// Where the index stands.
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(not(target_arch = "wasm32"), allow(dead_code))]
enum Loaded {
    /// Not asked for yet (the field has not been used).
    No,
    Loading,
    Ready(std::sync::Arc<Index>),
    /// The file could not be fetched or read: the list says so.
    Failed,
}

/// The result list's items as HTML (`<li role="option">` links), the `active`-th one selected.
/// Built as a string rather than as components: it is rebuilt on every key press and a plain
/// string keeps the wasm small.
pub fn results_html(lang: Lang, query: &str, hits: &[Hit], active: usize) -> String {
    let tokens = tokens(query);
    let c = lang.course();
    if hits.is_empty() {
        return format!("<li class=\"search-none\" role=\"presentation\">{}</li>", escape(c.search_none));
    }
    let mut out = String::new();
    for (i, hit) in hits.iter().enumerate() {
        let kind = c.kind(hit.kind);
        let context =
            if hit.context.is_empty() { kind.to_string() } else { format!("{kind} · {}", hit.context) };
        let selected = i == active;
        out.push_str(&format!(
            "<li role=\"option\" id=\"search-hit-{i}\" aria-selected=\"{selected}\"{}><a class=\"search-hit\" tabindex=\"-1\" href=\"{}\" data-href=\"{}\"><span class=\"hit-title\">{}</span><span class=\"hit-kind\">{}</span><span class=\"hit-snippet\">{}</span></a></li>",
            if selected { " class=\"active\"" } else { "" },
            escape(&crate::ui::browser::href(&hit.href)),
            escape(&hit.href),
            mark(&hit.title, &tokens),
            escape(&context),
            mark(&hit.snippet, &tokens),
        ));
    }
    out
}

/// `text` escaped, with each occurrence of a query piece in `<mark>`. Text whose lowercase has
/// another byte length (rare letters) is only escaped.
fn mark(text: &str, tokens: &[String]) -> String {
    let lower = text.to_ascii_lowercase();
    if lower.len() != text.len() {
        return escape(text);
    }
    let mut marked = vec![false; text.len()];
    for token in tokens.iter().filter(|t| !t.is_empty()) {
        for (start, _) in lower.match_indices(token.as_str()) {
            for m in marked.iter_mut().skip(start).take(token.len()) {
                *m = true;
            }
        }
    }
    let mut out = String::new();
    let mut open = false;
    for (i, c) in text.char_indices() {
        let on = marked.get(i).copied().unwrap_or(false);
        if on != open {
            out.push_str(if on { "<mark>" } else { "</mark>" });
            open = on;
        }
        out.push_str(&escape(c.encode_utf8(&mut [0; 4])));
    }
    if open {
        out.push_str("</mark>");
    }
    out
}

/// The search field and its results, in the page's language.
#[component]
pub fn SiteSearch(
    /// The page's language: results and labels follow it.
    lang: Lang,
) -> impl IntoView {
    let c = lang.course();
    let (query, set_query) = signal(String::new());
    let (open, set_open) = signal(false);
    let (active, set_active) = signal(0usize);
    let loaded = RwSignal::new(Loaded::No);
    let input = NodeRef::<Input>::new();
    let hits = Memo::new(move |_| {
        loaded.with(|l| match l {
            Loaded::Ready(index) => query.with(|q| index.search(q)),
            _ => Vec::new(),
        })
    });
    let showing = move || open.get() && query.with(|q| !q.trim().is_empty());
    let load = move || {
        if loaded.get_untracked() == Loaded::No {
            loaded.set(Loaded::Loading);
            #[cfg(target_arch = "wasm32")]
            leptos::task::spawn_local(async move {
                let index = fetch_index(lang).await;
                loaded.try_set(index.map_or(Loaded::Failed, |i| Loaded::Ready(std::sync::Arc::new(i))));
            });
        }
    };
    let focus = move || {
        load();
        set_open.set(true);
        if let Some(el) = input.get_untracked() {
            let _ = el.focus();
            el.select();
        }
    };
    let listener = window_event_listener(leptos::ev::keydown, move |e: web_sys::KeyboardEvent| {
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
                    crate::ui::browser::go(&href);
                }
            }
            "Escape" => {
                e.prevent_default();
                close();
            }
            _ => {}
        }
    };
    let list = move || {
        query.with(|q| match loaded.get() {
            Loaded::Ready(_) => hits.with(|h| results_html(lang, q, h, active.get())),
            Loaded::Failed => {
                format!("<li class=\"search-none\" role=\"presentation\">{}</li>", escape(c.search_failed))
            }
            Loaded::No | Loaded::Loading => {
                format!("<li class=\"search-none\" role=\"presentation\">{}</li>", escape(c.search_loading))
            }
        })
    };

    view! {
        <div class="site-search needs-js" role="search" class:open=open>
            <button type="button" class="search-toggle" aria-label=c.search_open
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
                aria-label=c.search_label
                placeholder=c.search_placeholder
                prop:value=query
                on:input=move |e| {
                    load();
                    set_query.set(event_target_value(&e));
                    set_active.set(0);
                    set_open.set(true);
                }
                on:focus=move |_| {
                    load();
                    set_open.set(true);
                }
                on:blur=move |_| set_open.set(false)
                on:keydown=on_key
            />
            <ul id="search-results" class="search-results" role="listbox" aria-label=c.search_results
                hidden=move || !showing()
                // Keeps the focus in the field, so the list stays open while a result is clicked.
                on:mousedown=|e| e.prevent_default()
                on:click=move |e| {
                    // Navigate here: closing the list replaces the link, and a link that left
                    // the page while being clicked would not be followed.
                    use wasm_bindgen::JsCast;
                    e.prevent_default();
                    let link = e.target().and_then(|t| t.dyn_into::<web_sys::Element>().ok())
                        .and_then(|el| el.closest("a[data-href]").ok().flatten())
                        .and_then(|a| a.get_attribute("data-href"));
                    if let Some(href) = link {
                        close();
                        crate::ui::browser::go(&href);
                    }
                }
                inner_html=list>
            </ul>
        </div>
    }
}

/// True when a key press is meant for a text field (or editable element), not for the page.
fn typing_in_a_field(event: &web_sys::KeyboardEvent) -> bool {
    use wasm_bindgen::JsCast;
    let Some(element) = event.target().and_then(|t| t.dyn_into::<web_sys::HtmlElement>().ok()) else {
        return false;
    };
    matches!(element.tag_name().as_str(), "INPUT" | "TEXTAREA" | "SELECT") || element.is_content_editable()
}

/// Fetches and reads the index of `lang` (from the offline file's store there).
#[cfg(target_arch = "wasm32")]
async fn fetch_index(lang: Lang) -> Option<Index> {
    let text = super::nav::fetch_text(&format!("{}/search-index.json", lang.code())).await?;
    Index::from_json(&text)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::content::search::{Entry, HitKind};

    #[test]
    fn results_are_links_with_snippets() {
        let index = Index::new(vec![
            Entry::new(
                HitKind::Term,
                "KV cache",
                "KV 缓存",
                "Keys and values.".into(),
                "#/en/glossary/#term-kv-cache".into(),
            ),
            Entry::new(
                HitKind::Section,
                "The KV cache per token",
                "Memory",
                "Under GQA.".into(),
                "#/en/chapters/memory-capacity/#s-2".into(),
            ),
        ]);
        let hits = index.search("kv cache");
        let html = results_html(Lang::En, "kv cache", &hits, 1);
        assert_eq!(html.matches("<li role=\"option\"").count(), hits.len());
        assert!(html.contains("id=\"search-hit-1\" aria-selected=\"true\" class=\"active\""));
        assert!(html.contains("class=\"hit-snippet\""));
        assert!(html.contains("<mark>KV</mark> <mark>cache</mark>"), "{html}");
        assert!(html.contains("data-href=\"#/en/glossary/#term-kv-cache\""), "{html}");
        assert!(results_html(Lang::Zh, "x", &[], 0).contains("没有找到"));
        assert_eq!(mark("显存 & KV 缓存", &tokens("kv缓存")), "显存 &amp; <mark>KV</mark> <mark>缓存</mark>");
    }
}
