//! The classroom's pages in the browser: each holds its state in a signal and applies events
//! to it; the HTML is `classroom::page`'s (pure, tested natively). Make an assignment keeps its
//! form in the address; a student's work and a teacher's pasted codes are kept in the
//! browser's storage, so a reload loses nothing.

use crate::classroom::assignment::Assignment;
use crate::classroom::gradebook::grade;
use crate::classroom::page::{grading, make, sheets, student, student::Progress, Query};
use crate::i18n::Lang;
use crate::route::Class;
use leptos::prelude::*;
use wasm_bindgen::JsCast;

/// `{lang}/classroom/…`: the page of `class`.
#[component]
pub fn ClassroomPage(lang: Lang, class: Class) -> impl IntoView {
    let w = lang.class();
    let (title, lead) = match class {
        Class::Make => (w.make_title, w.make_lead),
        Class::Do => (w.do_title, w.do_lead),
        Class::Grade => (w.grade_title, w.grade_lead),
        Class::Print => (w.print_title, w.print_lead),
    };
    let body = match class {
        Class::Make => make_view(lang),
        Class::Do => with_assignment(lang, (title, lead), do_view),
        Class::Grade => with_assignment(lang, ("", ""), grade_view),
        Class::Print => with_assignment(lang, (title, lead), print_view),
    };
    // A student's page and a sheet carry the assignment's own title; the others the page's.
    let head = matches!(class, Class::Make | Class::Grade).then(|| {
        view! {
            <h1>{title}</h1>
            <p class="lead no-print">{lead}</p>
        }
    });
    view! {
        <article class="classroom" data-page="classroom" data-class=class.app()>
            {head}
            {body}
        </article>
    }
}

fn storage() -> Option<web_sys::Storage> {
    #[cfg(target_arch = "wasm32")]
    return super::browser::storage();
    #[cfg(not(target_arch = "wasm32"))]
    None
}

fn load(key: &str) -> Option<String> {
    storage().and_then(|s| s.get_item(key).ok().flatten())
}

fn keep(key: &str, value: &str) {
    if let Some(s) = storage() {
        let _ = if value.is_empty() { s.remove_item(key) } else { s.set_item(key, value) };
    }
}

/// The element an event happened on.
fn target(ev: &web_sys::Event) -> Option<web_sys::Element> {
    ev.target().and_then(|t| t.dyn_into::<web_sys::Element>().ok())
}

/// The element with `data-a` the event happened in, and its action.
fn action(ev: &web_sys::Event) -> Option<(web_sys::Element, String)> {
    let el = target(ev)?.closest("[data-a]").ok()??;
    let a = el.get_attribute("data-a")?;
    Some((el, a))
}

fn index(el: &web_sys::Element) -> usize {
    el.get_attribute("data-i").and_then(|i| i.parse().ok()).unwrap_or(0)
}

/// The page of an assignment from the link (`a=`), or why there is none, in the page's words
/// (under the page's `title` where the page has no heading of its own yet).
fn with_assignment(
    lang: Lang,
    (title, lead): (&'static str, &'static str),
    page: fn(Lang, Assignment, Query) -> AnyView,
) -> AnyView {
    let q = Query::parse(&super::browser::page_query());
    let w = lang.class();
    let head = (!title.is_empty()).then(|| view! { <h1>{title}</h1><p class="lead">{lead}</p> });
    if q.token.is_empty() {
        return view! { {head}<p class="banner warn cr-missing" role="status">{w.no_assignment}</p> }
            .into_any();
    }
    match Assignment::from_link(&q.token) {
        Ok(a) => page(lang, a, q),
        Err(e) => {
            let why = crate::i18n::classroom::assignment_error(&e, lang);
            view! { {head}<p class="banner error cr-missing" role="alert">{why}</p> }.into_any()
        }
    }
}

/// Make an assignment.
fn make_view(lang: Lang) -> AnyView {
    let w = lang.class();
    let state = RwSignal::new(make::decode(&super::browser::page_query()));
    Effect::new(move |_| state.with(|m| super::browser::replace_query(&make::encode(m))));
    let failed = RwSignal::new(String::new());
    let on_input = move |ev: leptos::ev::Event| {
        let Some(el) = target(&ev) else { return };
        let Some(field) = el.get_attribute("data-f") else { return };
        let checked =
            el.dyn_ref::<web_sys::HtmlInputElement>().is_some_and(web_sys::HtmlInputElement::checked);
        let value = event_target_value(&ev);
        state.update(|m| make::edit(m, &field, &value, checked));
    };
    let on_click = move |ev: leptos::ev::MouseEvent| {
        let Some((_, a)) = action(&ev) else { return };
        if a == "scorm" {
            failed.set(String::new());
            leptos::task::spawn_local(async move {
                match scorm_package(lang, state.get_untracked()).await {
                    Ok((name, zip)) => {
                        super::browser::download(&name, "application/zip", &zip);
                    }
                    Err(e) => failed.set(e),
                }
            });
            return;
        }
        let made = state.with_untracked(|m| match a.as_str() {
            "moodle" => Some(make::moodle_xml(m, lang).map(|x| {
                (
                    format!("{}-moodle-{}.xml", make::file_stem(&m.a.class), lang.code()),
                    "application/xml",
                    x.into_bytes(),
                )
            })),
            "qti" => Some(make::qti_zip(m, lang).map(|z| {
                (format!("{}-qti21-{}.zip", make::file_stem(&m.a.class), lang.code()), "application/zip", z)
            })),
            _ => None,
        });
        match made {
            Some(Ok((name, mime, bytes))) => {
                failed.set(String::new());
                super::browser::download(&name, mime, &bytes);
            }
            Some(Err(e)) => failed.set(format!("{}{e}", w.export_failed)),
            None => {}
        }
    };
    let controls = state.with_untracked(|m| make::controls_html(lang, m));
    let results = move || {
        state.with(|m| {
            let url = super::browser::absolute(&make::link(lang, Class::Do, m, false, &[], false));
            super::browser::links(make::results_html(lang, m, &url))
        })
    };
    view! {
        <section class="cr-make" on:input=on_input on:click=on_click on:submit=|ev| ev.prevent_default()>
            <div class="cr-controls" inner_html=controls></div>
            <div class="cr-results" inner_html=results></div>
            <p class="banner error" role="alert" hidden=move || failed.with(String::is_empty)>{move || failed.get()}</p>
        </section>
    }
    .into_any()
}

/// The SCORM 1.2 package of the assignment being made and its file name: the site's offline
/// file fetched from the site root, or why there is none, in the page's words.
async fn scorm_package(lang: Lang, m: make::Make) -> Result<(String, Vec<u8>), String> {
    let w = lang.class();
    if super::browser::offline() {
        return Err(w.scorm_from_offline.into());
    }
    let course = super::browser::site_file("gpu-primer-offline.html").await.ok_or(w.scorm_no_course)?;
    let zip = make::scorm_zip(&m, lang, &course).map_err(|e| {
        if crate::classroom::export::scorm::is_offline_file(&course) {
            format!("{}{e}", w.export_failed)
        } else {
            w.scorm_no_course.to_string()
        }
    })?;
    Ok((format!("{}-scorm12-{}.zip", make::file_stem(&m.a.class), lang.code()), zip))
}

/// A student's page. A name in the link (`s=`, one: a SCORM package's launcher passes the LMS's
/// learner name, and the hand-in code the LMS kept as `h=`) starts the page with that name and
/// the more advanced of this browser's work and the code's; otherwise the form offers the name last used
/// here, and the student confirms it (on a shared computer the next student does not land in the
/// previous one's answers).
fn do_view(lang: Lang, a: Assignment, q: Query) -> AnyView {
    let n = a.exercises.len();
    let given = match q.students.as_slice() {
        [one] => Some(one.trim().to_string()),
        _ => None,
    };
    let last_used = load(&student::last_student_key(&a)).unwrap_or_default();
    let progress = RwSignal::new(match &given {
        Some(name) => student::resume_with_code(&a, name, load, &q.handin),
        None => Progress::new("", n),
    });
    let redraw = RwSignal::new(0u32);
    let show_code = RwSignal::new(false);
    // The last verdict, in one live region that stays in place (the cards are drawn again).
    let said = RwSignal::new(String::new());
    let a = StoredValue::new(a);
    Effect::new(move |_| {
        progress.with(|p| {
            if !p.student.is_empty() {
                a.with_value(|a| {
                    keep(&student::storage_key(a, &p.student), &p.to_saved());
                    keep(&student::last_student_key(a), &p.student);
                })
            }
        })
    });
    // What the frame around the page (a SCORM package's launcher) is told: after every check
    // and on hand-in (`last`).
    let tell = move |last: bool| progress.with_untracked(|p| a.with_value(|a| tell_parent(a, p, last)));
    let check = move |i: usize, back_to: &'static str| {
        progress.update(|p| a.with_value(|a| p.check(a, i, lang)));
        said.set(progress.with_untracked(|p| {
            format!("{} {}{}{}", lang.ex().exercise, i + 1, lang.colon(), p.verdict(i, lang))
        }));
        redraw.update(|r| *r += 1);
        focus_item(i, back_to);
        tell(false);
    };
    let on_input = move |ev: leptos::ev::Event| {
        let Some(el) = target(&ev) else { return };
        if el.get_attribute("data-role").as_deref() == Some("answer") {
            let (i, value) = (index(&el), event_target_value(&ev));
            let had_verdict = progress.with_untracked(|p| p.has_verdict(i));
            progress.update(|p| p.type_answer(i, &value));
            // The card is not drawn again while the student types (the field keeps its focus):
            // a verdict about the previous answer is taken off it.
            if had_verdict {
                clear_verdict(&el);
            }
        }
    };
    let start = move |name: String| {
        if name.trim().is_empty() {
            return;
        }
        progress.set(a.with_value(|a| student::resume(a, &name, load)));
        show_code.set(false);
        redraw.update(|r| *r += 1);
        focus_item(0, "[data-role=answer]");
    };
    let on_submit = move |ev: leptos::ev::SubmitEvent| {
        ev.prevent_default();
        let name = target(&ev)
            .and_then(|f| f.query_selector("[data-f=student]").ok().flatten())
            .and_then(|i| i.dyn_into::<web_sys::HtmlInputElement>().ok())
            .map(|i| i.value())
            .unwrap_or_default();
        start(name);
    };
    let on_click = move |ev: leptos::ev::MouseEvent| {
        let Some((el, act)) = action(&ev) else { return };
        match act.as_str() {
            "check" => check(index(&el), ".exercise-check"),
            "hand-in" => {
                show_code.set(true);
                tell(true);
            }
            "rename" => {
                a.with_value(|a| keep(&student::last_student_key(a), ""));
                progress.set(Progress::new("", n));
                show_code.set(false);
                redraw.update(|r| *r += 1);
            }
            _ => {}
        }
    };
    let on_keydown = move |ev: leptos::ev::KeyboardEvent| {
        let Some(el) = target(&ev) else { return };
        // The Enter that ends an input method's composition (pinyin) is not a check.
        let answer = el.get_attribute("data-role").as_deref() == Some("answer");
        if answer && ev.key() == "Enter" && !ev.is_composing() && ev.key_code() != 229 {
            check(index(&el), "[data-role=answer]");
        }
    };
    let header = a.with_value(|a| student::header_html(lang, a));
    let body = move || {
        // Each drawing differs from the last (the count in a comment): the same cards drawn again
        // after `clear_verdict` changed them in place would otherwise be skipped as unchanged.
        let drawing = redraw.get();
        progress.with_untracked(|p| {
            let html = if p.student.is_empty() {
                student::name_form_html(lang, &last_used)
            } else {
                a.with_value(|a| student::items_html(lang, a, p))
            };
            format!("<!--{drawing}-->{}", super::browser::links(html))
        })
    };
    let hand_in = move || {
        let shown = show_code.get();
        progress.with(|p| {
            if p.student.is_empty() {
                String::new()
            } else {
                a.with_value(|a| student::handin_html(lang, a, p, shown))
            }
        })
    };
    view! {
        <header class="cr-head" inner_html=header></header>
        <section class="cr-do" on:input=on_input on:click=on_click on:keydown=on_keydown on:submit=on_submit>
            <p class="visually-hidden" role="status">{move || said.get()}</p>
            <div class="cr-items" inner_html=body></div>
            <div class="cr-handin" inner_html=hand_in></div>
        </section>
    }
    .into_any()
}

/// Takes the verdict off the card that holds `field` (its answer changed since the check).
fn clear_verdict(field: &web_sys::Element) {
    if let Ok(Some(card)) = field.closest(".cr-item") {
        let _ = card.remove_attribute("data-result");
        if let Ok(Some(v)) = card.query_selector(".exercise-verdict") {
            v.set_text_content(None);
        }
    }
}

/// Posts the student's standing to the window that frames this page, if any:
/// `{type: "gpu-primer:result", student, score (right answers), max (exercises), answered, code
/// (the hand-in code), final}` (`classroom::export::scorm`'s launcher reports it to the LMS).
/// The target origin is the page's own, so a frame of another site gets nothing; a page from
/// `file://` has the opaque origin "null", which cannot be targeted, and posts to any: the
/// message holds only what the student would paste into a hand-in anyway.
fn tell_parent(a: &Assignment, p: &Progress, last: bool) {
    #[cfg(target_arch = "wasm32")]
    {
        use wasm_bindgen::JsValue;
        use web_sys::js_sys::{Object, Reflect};
        let Some(window) = web_sys::window() else { return };
        let Ok(Some(parent)) = window.parent() else { return };
        if p.student.is_empty() || JsValue::from(&parent) == JsValue::from(&window) {
            return;
        }
        let right = p.checked.iter().filter(|c| **c == Some(true)).count();
        let message = Object::new();
        let fields: [(&str, JsValue); 7] = [
            ("type", crate::classroom::export::scorm::MESSAGE_TYPE.into()),
            ("student", p.student.as_str().into()),
            ("score", (right as u32).into()),
            ("max", (p.answers.len() as u32).into()),
            ("answered", ((p.answers.len() - p.unanswered()) as u32).into()),
            ("code", p.code(a).into()),
            ("final", last.into()),
        ];
        for (k, v) in fields {
            let _ = Reflect::set(&message, &k.into(), &v);
        }
        let origin = window.location().origin().unwrap_or_default();
        let target = if origin.is_empty() || origin == "null" { "*" } else { origin.as_str() };
        let _ = parent.post_message(&message, target);
    }
    #[cfg(not(target_arch = "wasm32"))]
    let _ = (a, p, last);
}

/// Puts the focus on `what` (a selector: the answer field or the Check button) of exercise `i`
/// after the cards were drawn again.
fn focus_item(i: usize, what: &'static str) {
    #[cfg(target_arch = "wasm32")]
    super::browser::after_paint(move || {
        let el = web_sys::window()
            .and_then(|w| w.document())
            .and_then(|d| d.query_selector(&format!(".cr-item[data-i=\"{i}\"] {what}")).ok().flatten())
            .and_then(|e| e.dyn_into::<web_sys::HtmlElement>().ok());
        if let Some(el) = el {
            let _ = el.focus();
        }
    });
    #[cfg(not(target_arch = "wasm32"))]
    let _ = (i, what);
}

/// The gradebook.
fn grade_view(lang: Lang, a: Assignment, _q: Query) -> AnyView {
    let w = lang.class();
    let key = format!("gpu-primer.grade.{:08x}", a.fingerprint());
    let pasted = RwSignal::new(load(&key).unwrap_or_default());
    let file_error = RwSignal::new(String::new());
    let key_saved = key.clone();
    Effect::new(move |_| pasted.with(|t| keep(&key_saved, t)));
    let a = StoredValue::new(a);
    let on_input = move |ev: leptos::ev::Event| {
        let Some(el) = target(&ev) else { return };
        if el.get_attribute("data-f").as_deref() == Some("codes") {
            pasted.set(event_target_value(&ev));
        }
    };
    let on_change = move |ev: leptos::ev::Event| {
        let Some(input) = target(&ev).and_then(|t| t.dyn_into::<web_sys::HtmlInputElement>().ok()) else {
            return;
        };
        if input.get_attribute("data-f").as_deref() != Some("file") {
            return;
        }
        let Some(file) = input.files().and_then(|f| f.get(0)).map(gloo_file::File::from) else { return };
        input.set_value("");
        let name = file.name();
        leptos::task::spawn_local(async move {
            match gloo_file::futures::read_as_text(&file).await {
                Ok(text) => {
                    file_error.set(String::new());
                    let joined = pasted.with_untracked(|p| {
                        if p.trim().is_empty() {
                            text.clone()
                        } else {
                            format!("{}\n{text}", p.trim_end())
                        }
                    });
                    set_codes_box(&joined);
                    pasted.set(joined);
                }
                Err(_) => file_error.set(format!("{}{name}", w.file_failed)),
            }
        });
    };
    let on_click = move |ev: leptos::ev::MouseEvent| {
        if let Some((_, act)) = action(&ev) {
            if act == "csv" {
                let csv = pasted.with_untracked(|t| a.with_value(|a| grade(a, t).csv(a)));
                let name = a.with_value(|a| format!("gradebook-{}.csv", make::file_stem(&a.class)));
                // A byte-order mark, so that a spreadsheet reads the names as UTF-8.
                super::browser::download(&name, "text/csv", format!("\u{feff}{csv}").as_bytes());
            }
        }
    };
    let controls = pasted.with_untracked(|t| grading::controls_html(lang, t));
    let header = a.with_value(|a| {
        student::header_html(lang, a).replacen("<h1>", "<h2>", 1).replacen("</h1>", "</h2>", 1)
    });
    let results = move || pasted.with(|t| a.with_value(|a| grading::results_html(lang, a, &grade(a, t))));
    view! {
        <header class="cr-head" inner_html=header></header>
        <section class="cr-grade" on:input=on_input on:change=on_change on:click=on_click>
            <div class="cr-controls" inner_html=controls></div>
            <p class="banner error" role="alert" hidden=move || file_error.with(String::is_empty)>{move || file_error.get()}</p>
            <div class="cr-results" inner_html=results></div>
        </section>
    }
    .into_any()
}

/// Shows `text` in the paste box (after a file was read into it).
fn set_codes_box(text: &str) {
    let el = web_sys::window()
        .and_then(|w| w.document())
        .and_then(|d| d.query_selector("[data-f=codes]").ok().flatten())
        .and_then(|e| e.dyn_into::<web_sys::HtmlTextAreaElement>().ok());
    if let Some(el) = el {
        el.set_value(text);
    }
}

/// The printed worksheets, or the class key (`show=key`).
fn print_view(lang: Lang, a: Assignment, q: Query) -> AnyView {
    let w = lang.class();
    let students = if q.students.is_empty() { q.roster.clone() } else { q.students.clone() };
    let html = if q.show_key {
        sheets::key_html(lang, &a, &students)
    } else {
        sheets::worksheets_html(lang, &a, &students)
    };
    let print = |_| {
        if let Some(w) = web_sys::window() {
            let _ = w.print();
        }
    };
    view! {
        <h1 class="no-print">{w.print_title}</h1>
        <p class="no-print cr-print-bar"><button type="button" class="button" on:click=print>{w.print_button}</button></p>
        <div class="cr-print" inner_html=html></div>
    }
    .into_any()
}
