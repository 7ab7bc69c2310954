//! The glossary page: every term in both languages with a short definition and links to the
//! chapters that use it, grouped by topic (`content::glossary::page_html`). `?term=id` scrolls
//! to and marks one entry (see `anchor.rs`).

use crate::content::glossary;
use crate::i18n::Lang;
use leptos::prelude::*;

#[component]
pub fn GlossaryPage(lang: Lang) -> impl IntoView {
    let c = lang.course();
    view! {
        <article class="glossary" data-page="glossary">
            <h1>{c.glossary_title}</h1>
            <p class="lead">{c.glossary_intro}</p>
            <div inner_html=glossary::page_html(lang)></div>
        </article>
    }
}
