//! A chapter page: its rendered text, with calculators mounted at the widget slots.

use crate::content::{self, Segment};
use crate::i18n::Lang;
use crate::route::Route;
use leptos::prelude::*;

#[component]
pub fn ChapterPage(lang: Lang, slug: &'static str) -> impl IntoView {
    let s = lang.strings();
    let Some(chapter) = content::find(slug) else {
        return view! { <super::not_found::NotFound lang=lang /> }.into_any();
    };
    match super::exercise::query_value("print").as_deref() {
        Some("worksheet") => {
            return view! { <super::exercise::Worksheet lang=lang slug=slug answers=false /> }.into_any()
        }
        Some("answers") => {
            return view! { <super::exercise::Worksheet lang=lang slug=slug answers=true /> }.into_any()
        }
        _ => {}
    }
    provide_context(super::exercise::Progress::load(slug));
    let page = chapter.page(lang);
    let (previous, next) = content::neighbours(slug);
    let body = page
        .segments
        .iter()
        .map(|segment| match *segment {
            Segment::Html(html) => view! { <div class="prose" inner_html=html></div> }.into_any(),
            Segment::Widget(name) => {
                view! { <super::estimator::widget::ChapterWidget lang=lang name=name /> }.into_any()
            }
            Segment::Exercise(id) => {
                view! { <super::exercise::ExerciseCard lang=lang slug=slug id=id /> }.into_any()
            }
            Segment::Figure(name) => {
                view! { <super::figure::ChapterFigure lang=lang name=name /> }.into_any()
            }
        })
        .collect_view();
    view! {
        <article class="chapter" data-page="chapter" data-slug=slug>
            <p class="eyebrow">{s.chapter_number(chapter.number)}</p>
            <h1>{page.title}</h1>
            {body}
            <nav class="pager" aria-label=s.nav_aria>
                {previous.map(|p| view! {
                    <a class="prev" rel="prev" href=Route::Chapter(lang, p.slug).to_hash()>
                        <span class="pager-label">"← " {s.previous}</span>
                        <span class="pager-title">{p.page(lang).title}</span>
                    </a>
                })}
                {next.map(|n| view! {
                    <a class="next" rel="next" href=Route::Chapter(lang, n.slug).to_hash()>
                        <span class="pager-label">{s.next} " →"</span>
                        <span class="pager-title">{n.page(lang).title}</span>
                    </a>
                })}
            </nav>
        </article>
    }
    .into_any()
}
