//! A chapter page: its rendered text, with calculators mounted at the widget slots.

use crate::content::{self, Segment};
use crate::i18n::Lang;
use crate::route::Route;
use leptos::html::Div;
use leptos::prelude::*;
use wasm_bindgen::JsCast;

/// Whether `el` starts within the window's first screen (from where the page is scrolled to).
fn in_first_screen(w: &web_sys::Window, el: &web_sys::HtmlElement) -> bool {
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

/// Sets `ready` unless it is set (setting it again would draw its slots anew).
fn release(ready: RwSignal<bool>) {
    if ready.try_get_untracked() == Some(false) {
        ready.set(true);
    }
}

/// A chapter's widget, figure or exercise box: its element and the signal that fills it.
type Slot = (NodeRef<Div>, RwSignal<bool>);

/// Fills the slots: in the next frame callback (just before the first paint, measured with the
/// layout that paint needs anyway) those that start in the first screen, and each of the rest
/// in a task of its own queued from there, so after that paint.
fn fill_slots(slots: Vec<Slot>) {
    request_animation_frame(move || {
        if let Some(w) = web_sys::window() {
            for (node, ready) in &slots {
                if let Some(el) = node.try_get_untracked().flatten() {
                    if in_first_screen(&w, &el) {
                        release(*ready);
                    }
                }
            }
        }
        for (_, ready) in slots {
            set_timeout(move || release(ready), std::time::Duration::ZERO);
        }
    });
}

/// A box for a widget, figure or exercise (`kind`) that holds `mount(lang, slug, name)`'s view
/// once `ready` is set (by [`fill_slots`]); until then it reserves about its drawn height, so
/// the text after it stays in place.
fn slot(
    kind: &'static str,
    ready: RwSignal<bool>,
    slots: &mut Vec<Slot>,
    mount: fn(Lang, &'static str, &'static str) -> AnyView,
    (lang, slug, name): (Lang, &'static str, &'static str),
) -> AnyView {
    let node = NodeRef::<Div>::new();
    slots.push((node, ready));
    view! {
        <div class="slot" data-slot=kind data-pending=move || (!ready.get()).then_some("") node_ref=node>
            {move || ready.get().then(|| mount(lang, slug, name))}
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
    // does not. The text is drawn now; the slots are filled by `fill_slots` (the exercise cards
    // share one signal: they are drawn together).
    let exercises_ready = RwSignal::new(false);
    let mut slots = Vec::new();
    let body = page
        .segments
        .iter()
        .map(|segment| match *segment {
            Segment::Html(html) => view! { <div class="prose" inner_html=html></div> }.into_any(),
            Segment::Widget(name) => slot(
                "widget",
                RwSignal::new(false),
                &mut slots,
                |lang, _, name| {
                    view! { <super::estimator::widget::ChapterWidget lang=lang name=name /> }.into_any()
                },
                (lang, slug, name),
            ),
            Segment::Figure(name) => slot(
                "figure",
                RwSignal::new(false),
                &mut slots,
                |lang, _, name| view! { <super::figure::ChapterFigure lang=lang name=name /> }.into_any(),
                (lang, slug, name),
            ),
            Segment::Exercise(id) => slot(
                "exercise",
                exercises_ready,
                &mut slots,
                |lang, slug, id| {
                    view! { <super::exercise::ExerciseCard lang=lang slug=slug id=id /> }.into_any()
                },
                (lang, slug, id),
            ),
        })
        .collect_view();
    fill_slots(slots);
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
