//! The home page of one language: what the site is, and the learning path: every chapter in
//! order, grouped in stages, each with its one-line goal.

use crate::content;
use crate::i18n::Lang;
use crate::route::Route;
use leptos::prelude::*;

#[component]
pub fn Home(lang: Lang) -> impl IntoView {
    let s = lang.strings();
    let course = lang.course();
    let stages = course
        .stages
        .iter()
        .enumerate()
        .map(|(i, name)| {
            let items = content::chapters()
                .iter()
                .filter(|c| content::stage_of(c.number) == i)
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
                .collect_view();
            view! {
                <section class="stage" data-stage=i + 1>
                    <h3>{*name}</h3>
                    <ol class="toc">{items}</ol>
                </section>
            }
        })
        .collect_view();
    view! {
        <article class="home" data-page="home">
            <h1>{s.site_title}</h1>
            <p class="tagline">{s.tagline}</p>
            <p class="lead">{s.home_intro}</p>
            <p><a class="button cta" href=Route::Estimate(lang).to_hash()>{s.estimate_cta}</a></p>
            <p><a href=Route::Validation(lang).to_hash() id="validation-link">{s.validation.nav}</a></p>
            <p><a href=Route::Glossary(lang).to_hash() id="glossary-link">{course.glossary_title}</a></p>
            <h2>{course.path_heading}</h2>
            <div class="path">{stages}</div>
        </article>
    }
}
