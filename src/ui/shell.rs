//! The frame around every page: header with the language switch, chapter navigation, footer.
//! An embed route (`#/{lang}/embed/{kind}`) shows none of them, only the widget: `<body>` gets
//! `data-embed` and the stylesheet hides the frame (one attribute, no second copy of the frame's
//! view code in the wasm).

use crate::content::page_html::chapter_nav_html;
use crate::i18n::Lang;
use crate::route::Route;
use leptos::prelude::*;

#[component]
pub fn Shell(route: ReadSignal<Route>, lang: Memo<Lang>, children: Children) -> impl IntoView {
    let s = move || lang.get().strings();
    let other_href = move || route.get().in_lang(lang.get().other()).to_hash();
    let home_href = move || Route::Home(lang.get()).to_hash();
    let current_slug = move || match route.get() {
        Route::Chapter(_, slug) => Some(slug),
        _ => None,
    };
    Effect::new(move |_| {
        let embed = matches!(route.get(), Route::Embed(..));
        if let Some(body) = document().body() {
            let _ = if embed {
                body.set_attribute("data-embed", "")
            } else {
                body.remove_attribute("data-embed")
            };
        }
    });
    view! {
        <a class="skip" href="#main" on:click=|ev| {
            ev.prevent_default();
            if let Some(main) = document().get_element_by_id("main") { main.scroll_into_view(); }
        }>{move || s().skip_to_content}</a>
        <header class="site-header">
            <a class="brand" href=home_href>
                <span class="brand-mark" aria-hidden="true">"▦"</span>
                <span class="brand-name">{move || s().site_title}</span>
            </a>
            <super::search::SiteSearch lang=lang />
            <a class="nav-estimate" href=move || Route::Estimate(lang.get()).to_hash()
                aria-current=move || matches!(route.get(), Route::Estimate(_)).then_some("page")>
                {move || s().nav_estimate}
            </a>
            <a class="nav-tools" href=move || Route::Tools(lang.get()).to_hash()
                aria-current=move || matches!(route.get(), Route::Tools(_) | Route::Tool(..)).then_some("page")>
                {move || lang.get().tools().nav}
            </a>
            <a
                class="lang-switch"
                id="lang-switch"
                href=other_href
                on:click=move |ev| {
                    // The live hash, not the route: the estimator keeps its state in the query.
                    ev.prevent_default();
                    let target = crate::route::switch_language(&super::browser::current_hash(), lang.get_untracked().other());
                    if let Some(w) = web_sys::window() {
                        let _ = w.location().set_hash(&target);
                    }
                }
                hreflang=move || lang.get().other().html_lang()
                lang=move || lang.get().other().html_lang()
                aria-label=move || s().switch_aria
            >
                {move || s().switch_to_other}
            </a>
        </header>
        <div class="layout">
            <nav class="chapter-nav" aria-label=move || s().nav_aria>
                <details class="chapter-nav-box" open=true>
                    <summary>{move || s().chapters_heading}</summary>
                    // One string for the 15 links (the browser parses it at once); rebuilt when the
                    // language or the current chapter changes.
                    <ol inner_html=move || chapter_nav_html(lang.get(), current_slug())></ol>
                    <p class="nav-glossary">
                        <a href=move || Route::Glossary(lang.get()).to_hash()
                            aria-current=move || matches!(route.get(), Route::Glossary(_)).then_some("page")>
                            {move || lang.get().course().glossary_nav}
                        </a>
                    </p>
                </details>
            </nav>
            <main id="main" tabindex="-1">{children()}</main>
        </div>
        <footer class="site-footer">{move || s().footer}</footer>
    }
}
