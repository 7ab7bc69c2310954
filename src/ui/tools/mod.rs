//! The decision tools (`{lang}/tools/{tool}/?state`): each a page and a chapter widget over
//! the engine. A tool's view is `view(lang, query, mode)` in its own file; this module routes to
//! it. (The tools' index is a static page: `site::home::tool_list_html`.)
//!
//! A page keeps the tool's state in its query (replaced in place, so the back button leaves
//! the tool instead of stepping through edits); a widget starts from its chapter's preset, does
//! not touch the address and links to the page with its state.

mod cloud;
mod cluster;
mod diagnose;
pub(crate) mod local;
mod mig;

use crate::i18n::Lang;
use crate::route::Tool;
use leptos::prelude::*;

/// Where a tool is drawn.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    /// Its own page: the state lives in the URL.
    Page,
    /// A chapter widget or an embed, started from a preset (or from the embed URL's query).
    Widget,
}

/// The page's query (its state), empty when there is none.
pub fn current_query() -> String {
    super::browser::page_query()
}

/// Writes the page's state into the address without a history entry.
pub fn write_query(query: &str) {
    super::browser::replace_query(query);
}

/// `{lang}/tools/{tool}/?state`.
#[component]
pub fn ToolPage(lang: Lang, tool: Tool) -> impl IntoView {
    let t = lang.tools();
    let body = view(lang, tool, &current_query(), Mode::Page);
    view! {
        <article class="tool" data-page="tool" data-tool=tool.slug()>
            <h1>{t.name(tool)}</h1>
            <p class="lead">{t.blurb(tool)}</p>
            {body}
        </article>
    }
}

/// The tool as a chapter widget: `preset` names the chapter's example, `query` (an embed URL's
/// state) wins over it when given.
pub fn widget(lang: Lang, tool: Tool, preset: Option<&str>, query: Option<String>) -> AnyView {
    let state = match query {
        Some(q) if !q.is_empty() => q,
        _ => preset.map(|p| format!("preset={p}")).unwrap_or_default(),
    };
    let t = lang.tools();
    let body = view(lang, tool, &state, Mode::Widget);
    view! {
        <aside class="widget tool-widget" data-widget=tool.slug()>
            <header class="widget-head">
                <span class="eyebrow">{lang.est().try_it}</span>
                <strong>{t.name(tool)}</strong>
            </header>
            {body}
        </aside>
    }
    .into_any()
}

fn view(lang: Lang, tool: Tool, query: &str, mode: Mode) -> AnyView {
    match tool {
        Tool::Mig => mig::view(lang, query, mode),
        Tool::Cloud => cloud::view(lang, query, mode),
        Tool::Diagnose => diagnose::view(lang, query, mode),
        Tool::Cluster => cluster::view(lang, query, mode),
        Tool::Local => local::view(lang, query, mode),
    }
}
