//! Exercise cards in a chapter (`{{exercise:ID}}`), the chapter's saved progress, and the
//! worksheet / answer-key print views (`#/{lang}/chapters/{slug}?print=worksheet|answers`).
//! One exercise opens focused with `?exercise=ID`. Keys come from `crate::exercises`, which
//! computes them with the engine here in the page.

use crate::estimator::state::{encode, EstimatorState};
use crate::exercises::{self, Answer, Exercise};
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

/// The chapter's progress line, with the reset button and the print views' links.
#[component]
fn ProgressBar(lang: Lang, slug: &'static str, progress: Progress) -> impl IntoView {
    let x = lang.ex();
    let total = exercises::for_chapter(slug).len();
    let base = chapter_hash(lang, slug);
    view! {
        <div class="exercise-progress" data-exercise-progress=slug>
            <span class="exercise-progress-count">{move || (x.progress)(progress.solved.with(Vec::len), total)}</span>
            <button type="button" class="exercise-reset" on:click=move |_| progress.reset()>{x.reset}</button>
            <a class="exercise-print" href=format!("{base}?print=worksheet") target="_blank">{x.worksheet}</a>
            <a class="exercise-print" href=format!("{base}?print=answers") target="_blank">{x.answer_key}</a>
        </div>
    }
}

/// The input of a numeric exercise or the options of a choice; writes the answer signal.
fn answer_input(
    lang: Lang,
    ex: &'static Exercise,
    answer: RwSignal<String>,
    check: impl Fn() + 'static,
) -> AnyView {
    let x = lang.ex();
    let t = ex.text(lang);
    match ex.answer {
        Answer::Number { tolerance, .. } => view! {
            <label class="exercise-answer">
                <span>{x.answer_label}</span>
                <input type="text" inputmode="decimal" autocomplete="off" data-role="answer"
                    prop:value=move || answer.get()
                    on:input=move |e| answer.set(event_target_value(&e))
                    on:keydown=move |e| {
                        if e.key() == "Enter" {
                            answer.set(event_target_value(&e));
                            check();
                        }
                    } />
                <span class="exercise-unit">{t.unit}</span>
                <span class="exercise-tolerance">{(x.tolerance)(tolerance)}</span>
            </label>
        }
        .into_any(),
        Answer::Choice { values, .. } => {
            let options = values
                .iter()
                .zip(t.options.iter())
                .map(|(value, label)| {
                    let value: &'static str = value;
                    view! {
                        <label class="exercise-option">
                            <input type="radio" name=format!("exercise-{}", ex.id) value=value
                                on:change=move |_| answer.set(value.to_string()) />
                            <span>{*label}</span>
                        </label>
                    }
                })
                .collect_view();
            view! { <fieldset class="exercise-options"><legend>{x.answer_label}</legend>{options}</fieldset> }
                .into_any()
        }
    }
}

/// One exercise: question, answer, check, verdict in words, hint after a wrong try, solution.
#[component]
pub fn ExerciseCard(lang: Lang, slug: &'static str, id: &'static str) -> impl IntoView {
    let Some(ex) = exercises::find(id) else { return ().into_any() };
    let x = lang.ex();
    let t = ex.text(lang);
    let progress = use_context::<Progress>().unwrap_or_else(|| Progress::load(slug));
    let list = exercises::for_chapter(slug);
    let number = list.iter().position(|e| e.id == id).map_or(0, |i| i + 1);
    let first = number == 1;
    let answer = RwSignal::new(String::new());
    let result: RwSignal<Option<bool>> = RwSignal::new(None);
    let wrong_once = RwSignal::new(false);
    let revealed = RwSignal::new(false);
    let key = ex.key_text().unwrap_or_default();
    let check = move || {
        let ok = ex.is_right(answer.get_untracked().trim());
        result.set(Some(ok));
        revealed.set(true);
        if ok {
            progress.mark(id);
        } else {
            wrong_once.set(true);
        }
    };
    let card = NodeRef::<leptos::html::Section>::new();
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
    let link = format!("{}?exercise={id}", chapter_hash(lang, slug));
    view! {
        {first.then(|| view! { <ProgressBar lang=lang slug=slug progress=progress /> })}
        <section class="exercise" node_ref=card tabindex="-1" id=format!("exercise-{id}")
            data-exercise=id data-answer=key
            data-result=move || result.get().map(|ok| if ok { "correct" } else { "wrong" })
            data-solved=move || progress.solved.with(|s| s.iter().any(|x| x.as_str() == id)).then_some("true")>
            <h3 class="exercise-title">
                {x.exercise} " " {number}
                <a class="exercise-link" href=link.clone() title=x.link aria-label=x.link>"#"</a>
            </h3>
            <p class="exercise-question">{t.question}</p>
            {answer_input(lang, ex, answer, check)}
            <div class="exercise-actions">
                <button type="button" class="exercise-check" on:click=move |_| check()>{x.check}</button>
                <button type="button" class="exercise-show" on:click=move |_| revealed.set(true)
                    hidden=move || revealed.get()>{x.show_solution}</button>
                <span class="exercise-verdict" role="status" aria-live="polite">
                    {move || match result.get() {
                        Some(true) => x.correct,
                        Some(false) => x.wrong,
                        None => "",
                    }}
                </span>
            </div>
            <p class="exercise-hint" hidden=move || !wrong_once.get()>
                <strong>{x.hint} ": "</strong>{t.hint}
            </p>
            <details class="exercise-solution" hidden=move || !revealed.get()>
                <summary>{x.solution}</summary>
                // The worked numbers and the estimator link are computed when the solution is
                // offered (after a try or on request), not when the chapter is drawn.
                {move || revealed.get().then(|| {
                    let solution = ex.solution(lang).unwrap_or_default();
                    let estimator = estimator_link(lang, ex);
                    view! {
                        <p>{solution}</p>
                        {estimator.map(|href| view! { <p><a class="exercise-open" href=href>{x.open_estimator} " →"</a></p> })}
                    }
                })}
            </details>
        </section>
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
