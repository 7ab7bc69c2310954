//! A chapter page: its rendered text, with calculators mounted at the widget slots.

use crate::content::{self, Segment};
use crate::i18n::Lang;
use crate::route::Route;
use leptos::html::Div;
use leptos::prelude::*;
use wasm_bindgen::JsCast;

/// Runs `f` after the next paint: a frame callback runs just before a paint, and the task it
/// queues runs after it.
fn after_paint(f: impl FnOnce() + 'static) {
    request_animation_frame(move || set_timeout(f, std::time::Duration::ZERO));
}

/// Whether `el` starts within the window's first screen (from where the page is scrolled to).
fn in_first_screen(el: &web_sys::HtmlElement) -> bool {
    let Some(w) = web_sys::window() else { return true };
    let height = w.inner_height().ok().and_then(|v| v.as_f64()).unwrap_or(0.0);
    let scrolled = w.scroll_y().unwrap_or(0.0);
    let mut top = 0.0;
    let mut node = Some(el.clone());
    while let Some(n) = node {
        top += f64::from(n.offset_top());
        node = n.offset_parent().and_then(|p| p.dyn_into::<web_sys::HtmlElement>().ok());
    }
    top < scrolled + height
}

/// A box for a widget, figure or exercise (`kind`) that holds `mount`'s view once `ready` is
/// true. The box itself is in the page from the start (its reserved height keeps the layout
/// steady); if it starts in the first screen it is filled before the first paint, else when
/// `ready` is set: by this slot right after the first paint when `own_task`, else by the page.
fn slot(
    kind: &'static str,
    ready: RwSignal<bool>,
    own_task: bool,
    mount: impl Fn() -> AnyView + Send + Sync + 'static,
) -> AnyView {
    let node = NodeRef::<Div>::new();
    // Effects run after the page is in the document and before the first paint.
    Effect::new(move |_| {
        if let Some(el) = node.get() {
            if !ready.get_untracked() && in_first_screen(&el) {
                ready.set(true);
            }
        }
    });
    if own_task {
        after_paint(move || {
            ready.try_set(true);
        });
    }
    view! {
        <div class="slot" data-slot=kind data-pending=move || (!ready.get()).then_some("") node_ref=node>
            {move || ready.get().then(&mount)}
        </div>
    }
    .into_any()
}

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
    // Widgets, figures and exercise cards compute with the engine and the catalogs; the text
    // does not. Slots in the first screen mount at once; the rest right after the first paint
    // (each widget and figure its own task, the exercises together in one last task).
    let exercises_ready = RwSignal::new(false);
    let body = page
        .segments
        .iter()
        .map(|segment| match *segment {
            Segment::Html(html) => view! { <div class="prose" inner_html=html></div> }.into_any(),
            Segment::Widget(name) => slot("widget", RwSignal::new(false), true, move || {
                view! { <super::estimator::widget::ChapterWidget lang=lang name=name /> }.into_any()
            }),
            Segment::Figure(name) => slot("figure", RwSignal::new(false), true, move || {
                view! { <super::figure::ChapterFigure lang=lang name=name /> }.into_any()
            }),
            Segment::Exercise(id) => slot("exercise", exercises_ready, false, move || {
                view! { <super::exercise::ExerciseCard lang=lang slug=slug id=id /> }.into_any()
            }),
        })
        .collect_view();
    after_paint(move || {
        exercises_ready.try_set(true);
    });
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
