//! Exercise cards in a chapter (`{{exercise:ID}}`), the chapter's saved progress, and the
//! worksheet / answer-key print views (`#/{lang}/chapters/{slug}?print=worksheet|answers`).
//! One exercise opens focused with `?exercise=ID`. Keys come from `crate::exercises`, which
//! computes them with the engine here in the page.

use crate::estimator::state::{encode, EstimatorState};
use crate::exercises::{self, Exercise};
use crate::i18n::Lang;
use crate::route::Route;
use leptos::prelude::*;

fn storage() -> Option<web_sys::Storage> {
    web_sys::window()?.local_storage().ok().flatten()
}

fn storage_key(slug: &str) -> String {
    format!("gpu-primer.exercises.{slug}")
}

/// The ids solved in one chapter, saved in localStorage (one line per id).
#[derive(Clone, Copy, Debug)]
pub struct Progress {
    slug: &'static str,
    /// Sorted, each id once (a chapter has a handful; a Vec costs less wasm than a BTreeSet).
    solved: RwSignal<Vec<String>>,
}

/// Adds `id` to the sorted list `v` unless it is there.
fn insert_sorted(v: &mut Vec<String>, id: &str) {
    if let Err(at) = v.binary_search_by(|x| x.as_str().cmp(id)) {
        v.insert(at, id.to_string());
    }
}

impl Progress {
    pub fn load(slug: &'static str) -> Progress {
        let saved = storage().and_then(|s| s.get_item(&storage_key(slug)).ok().flatten()).unwrap_or_default();
        // A chapter has a handful of exercises: a linear look-up (no second BTreeSet type).
        let known = exercises::for_chapter(slug);
        let mut solved = Vec::new();
        for l in saved.lines().filter(|l| known.iter().any(|e| e.id == *l)) {
            insert_sorted(&mut solved, l);
        }
        Progress { slug, solved: RwSignal::new(solved) }
    }

    fn save(&self) {
        let text = self.solved.with_untracked(|s| s.join("\n"));
        if let Some(s) = storage() {
            let _ = s.set_item(&storage_key(self.slug), &text);
        }
    }

    fn mark(&self, id: &str) {
        self.solved.update(|s| insert_sorted(s, id));
        self.save();
    }

    fn reset(&self) {
        self.solved.set(Vec::new());
        if let Some(s) = storage() {
            let _ = s.remove_item(&storage_key(self.slug));
        }
    }
}

/// A value of the hash's query (`?a=b&c=d`).
pub fn query_value(name: &str) -> Option<String> {
    let hash = web_sys::window().and_then(|w| w.location().hash().ok()).unwrap_or_default();
    let (_, query) = hash.split_once('?')?;
    query.split('&').find_map(|pair| {
        let (k, v) = pair.split_once('=')?;
        (k == name).then(|| v.to_string())
    })
}

fn chapter_hash(lang: Lang, slug: &'static str) -> String {
    Route::Chapter(lang, slug).to_hash()
}

fn estimator_link(lang: Lang, ex: &Exercise) -> Option<String> {
    let scenario = ex.scenario()?;
    let state = EstimatorState { scenario, ..EstimatorState::default() };
    Some(format!("{}?{}", Route::Estimate(lang).to_hash(), encode(&state)))
}

/// Sets a property (`textContent`, `hidden`, `innerHTML`) of the first element under `root` that
/// matches `selector`.
fn set(root: &web_sys::Element, selector: &str, property: &str, value: &wasm_bindgen::JsValue) {
    if let Some(el) = root.query_selector(selector).ok().flatten() {
        let _ = web_sys::js_sys::Reflect::set(&el, &property.into(), value);
    }
}

/// Sets the attribute `name` to `value`, or removes it (`None`).
fn attribute(el: &web_sys::Element, name: &str, value: Option<&str>) {
    let _ = match value {
        Some(v) => el.set_attribute(name, v),
        None => el.remove_attribute(name),
    };
}

/// The class of the button an event happened in (or on), if any.
fn button_class(ev: &web_sys::Event) -> String {
    use wasm_bindgen::JsCast;
    ev.target()
        .and_then(|t| t.dyn_into::<web_sys::Element>().ok())
        .and_then(|t| t.closest("button").ok().flatten())
        .map(|b| b.class_name())
        .unwrap_or_default()
}

/// The answer given in a card: the typed number, or the value of the chosen option.
fn answer_of(card: &web_sys::Element) -> String {
    let value = |selector: &str| {
        card.query_selector(selector)
            .ok()
            .flatten()
            .and_then(|el| web_sys::js_sys::Reflect::get(&el, &"value".into()).ok())
            .and_then(|v| v.as_string())
    };
    value("[data-role=answer]").or_else(|| value("input[type=radio]:checked")).unwrap_or_default()
}

/// One exercise: question, answer, check, verdict in words, hint after a wrong try, solution.
/// The card is static HTML (`exercises::card_html`); clicks and Enter reach the section, and one
/// effect writes the verdict, the hint, the solution and the solved flag into it. The first card
/// of a chapter has the chapter's progress line above it.
#[component]
pub fn ExerciseCard(lang: Lang, slug: &'static str, id: &'static str) -> impl IntoView {
    let Some(ex) = exercises::find(id) else { return ().into_any() };
    let x = lang.ex();
    let progress = use_context::<Progress>().unwrap_or_else(|| Progress::load(slug));
    let list = exercises::for_chapter(slug);
    let total = list.len();
    let number = list.iter().position(|e| e.id == id).map_or(0, |i| i + 1);
    let result: RwSignal<Option<bool>> = RwSignal::new(None);
    let wrong_once = RwSignal::new(false);
    let revealed = RwSignal::new(false);
    let card = NodeRef::<leptos::html::Section>::new();
    let check = move || {
        let Some(el) = card.get_untracked() else { return };
        let ok = ex.is_right(answer_of(&el).trim());
        result.set(Some(ok));
        revealed.set(true);
        if ok {
            progress.mark(id);
        } else {
            wrong_once.set(true);
        }
    };
    if query_value("exercise").as_deref() == Some(id) {
        set_timeout(
            move || {
                if let Some(el) = card.get_untracked() {
                    el.scroll_into_view();
                    let _ = el.focus();
                }
            },
            std::time::Duration::from_millis(100),
        );
    }
    Effect::new(move |_| {
        let (r, wrong, shown) = (result.get(), wrong_once.get(), revealed.get());
        let solved = progress.solved.with(|s| s.iter().any(|x| x.as_str() == id));
        let Some(el) = card.get() else { return };
        attribute(&el, "data-result", r.map(|ok| if ok { "correct" } else { "wrong" }));
        attribute(&el, "data-solved", solved.then_some("true"));
        let verdict = match r {
            Some(true) => x.correct,
            Some(false) => x.wrong,
            None => "",
        };
        set(&el, ".exercise-verdict", "textContent", &verdict.into());
        set(&el, ".exercise-show", "hidden", &shown.into());
        set(&el, ".exercise-hint", "hidden", &(!wrong).into());
        set(&el, ".exercise-solution", "hidden", &(!shown).into());
        // The worked numbers and the estimator link are computed when the solution is offered
        // (after a try or on request), not when the chapter is drawn; once.
        if shown && el.query_selector(".exercise-solution p").ok().flatten().is_none() {
            let html = exercises::solution_html(lang, ex, estimator_link(lang, ex).as_deref());
            set(&el, ".exercise-solution", "innerHTML", &html.into());
        }
    });
    let base = chapter_hash(lang, slug);
    let link = format!("{base}?exercise={id}");
    let bar = (number == 1).then(|| {
        let node = NodeRef::<leptos::html::Div>::new();
        Effect::new(move |_| {
            let done = progress.solved.with(Vec::len);
            if let Some(el) = node.get() {
                set(&el, ".exercise-progress-count", "textContent", &(x.progress)(done, total).into());
            }
        });
        let html = exercises::progress_html(lang, &base, progress.solved.with_untracked(Vec::len), total);
        view! {
            <div class="exercise-progress" data-exercise-progress=slug node_ref=node inner_html=html
                on:click=move |ev| {
                    if button_class(&ev) == "exercise-reset" {
                        progress.reset();
                    }
                }></div>
        }
    });
    let on_click = move |ev: web_sys::MouseEvent| match button_class(&ev).as_str() {
        "exercise-check" => check(),
        "exercise-show" => revealed.set(true),
        _ => {}
    };
    let on_keydown = move |ev: web_sys::KeyboardEvent| {
        use wasm_bindgen::JsCast;
        let typed = ev
            .target()
            .and_then(|t| t.dyn_into::<web_sys::Element>().ok())
            .is_some_and(|t| t.get_attribute("data-role").as_deref() == Some("answer"));
        if typed && ev.key() == "Enter" {
            check();
        }
    };
    view! {
        {bar}
        <section class="exercise" node_ref=card tabindex="-1" id=format!("exercise-{id}")
            data-exercise=id data-answer=ex.key_text().unwrap_or_default()
            inner_html=exercises::card_html(lang, ex, number, &link) on:click=on_click on:keydown=on_keydown></section>
    }
    .into_any()
}

/// A chapter's exercises as a worksheet (`answers = false`) or as the answer key; the items are
/// one HTML string (`exercises::worksheet_items_html`).
#[component]
pub fn Worksheet(lang: Lang, slug: &'static str, answers: bool) -> impl IntoView {
    let x = lang.ex();
    let title = crate::content::find(slug).map(|c| c.page(lang).title).unwrap_or_default();
    view! {
        <article class="worksheet" data-page="worksheet" data-print=if answers { "answers" } else { "worksheet" }>
            <p class="worksheet-nav no-print">
                <a href=chapter_hash(lang, slug)>"← " {x.back_to_chapter}</a>
                " · "
                <button type="button" on:click=move |_| {
                    if let Some(w) = web_sys::window() {
                        let _ = w.print();
                    }
                }>{x.print}</button>
            </p>
            <h1>{title} " — " {if answers { x.answer_key } else { x.worksheet }}</h1>
            {(!answers).then(|| view! { <p class="worksheet-name">{x.name_line}</p> })}
            <ol class="worksheet-list" inner_html=exercises::worksheet_items_html(lang, slug, answers)></ol>
        </article>
    }
}
