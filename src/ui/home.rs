//! The home page of one language: what the site is, and every chapter in order.

use crate::content;
use crate::i18n::Lang;
use crate::route::Route;
use leptos::prelude::*;

#[component]
pub fn Home(lang: Lang) -> impl IntoView {
    let s = lang.strings();
    view! {
        <article class="home" data-page="home">
            <h1>{s.site_title}</h1>
            <p class="tagline">{s.tagline}</p>
            <p class="lead">{s.home_intro}</p>
            <p><a class="button cta" href=Route::Estimate(lang).to_hash()>{s.estimate_cta}</a></p>
            <p><a href=Route::Validation(lang).to_hash() id="validation-link">{s.validation.nav}</a></p>
            <p><a href=Route::Glossary(lang).to_hash() id="glossary-link">{lang.course().glossary_title}</a></p>
            <h2>{s.chapters_heading}</h2>
            <ol class="toc">
                {content::chapters()
                    .iter()
                    .map(|c| {
                        let page = c.page(lang);
                        view! {
                            <li>
                                <a href=Route::Chapter(lang, c.slug).to_hash()>
                                    <span class="toc-num">{s.chapter_number(c.number)}</span>
                                    <span class="toc-title">{page.title}</span>
                                </a>
                                <p class="toc-summary">{page.summary}</p>
                            </li>
                        }
                    })
                    .collect_view()}
            </ol>
        </article>
    }
}
