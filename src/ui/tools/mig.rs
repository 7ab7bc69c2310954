//! The MIG planner's view: the panel's HTML comes from `tools::mig::html` (pure, tested natively);
//! this file holds the state, routes delegated clicks and changes to it, and rewrites the parts
//! an edit changes. A page writes the state into its address; a widget links to the page.

use super::{write_query, Mode};
use crate::engine::mig::{free_starts, valid_starts, Placement};
use crate::i18n::Lang;
use crate::tools::mig::html::{
    compare_html, gpu_select, hand_html, notices_html, open_full_href, results_html, workloads_html,
};
use crate::tools::mig::state::{decode, encode, gpu_of, try_add, whole_in, Field, MigState, Notice, Part};
use crate::tools::mig::state::{KV_DTYPES, MAX_CONCURRENCY, MAX_CONTEXT, MAX_WORKLOADS, WEIGHT_DTYPES};
use crate::tools::mig::{gpu_tables, Refusal};
use leptos::prelude::*;
use wasm_bindgen::JsCast;

/// The parts of the panel an edit may rewrite.
#[derive(Clone, Copy)]
struct Parts {
    hand: bool,
    workloads: bool,
    results: bool,
}

const ALL: Parts = Parts { hand: true, workloads: true, results: true };

pub fn view(lang: Lang, query: &str, mode: Mode) -> AnyView {
    let (initial, repaired) = decode(query);
    let pick0 = first_pick(&initial);
    let state = RwSignal::new(initial);
    let pick = RwSignal::new(pick0);
    let refused: RwSignal<Option<Refusal>> = RwSignal::new(None);
    let notices: RwSignal<Vec<Notice>> = RwSignal::new(repaired);

    let render = move |parts: Parts| {
        state.with_untracked(|s| {
            let Some((gpu, mig)) = gpu_of(s) else { return };
            if parts.hand {
                let html = refused.with_untracked(|r| {
                    hand_html(lang, gpu, &mig, &s.placed, pick.get_untracked(), r.as_ref())
                });
                set_html("mig-hand", &html);
            }
            if parts.workloads {
                set_html("mig-workloads", &workloads_html(lang, &s.workloads));
            }
            if parts.results {
                set_html("mig-results", &results_html(lang, gpu, &mig, &s.workloads));
            }
            notices.with_untracked(|n| set_html("mig-notices", &notices_html(lang, n)));
            match mode {
                Mode::Page => write_query(&encode(s)),
                Mode::Widget => {
                    if let Some(a) = document().get_element_by_id("mig-open") {
                        let _ = a.set_attribute("href", &crate::ui::browser::href(&open_full_href(lang, s)));
                    }
                }
            }
        });
    };
    // The page's address holds the repaired state from the start.
    if mode == Mode::Page {
        state.with_untracked(|s| write_query(&encode(s)));
    }

    let place = move |p: Placement| {
        let outcome = state.with_untracked(|s| gpu_tables(&s.gpu).map(|m| try_add(&m, &s.placed, p)));
        match outcome {
            Some(Ok(())) => {
                state.update_untracked(|s| s.placed.push(p));
                refused.set(None);
                let next = state.with_untracked(first_pick_keeping(p.profile));
                pick.set(next);
            }
            Some(Err(r)) => refused.set(Some(r)),
            None => {}
        }
        render(Parts { hand: true, workloads: false, results: false });
        focus("mig-place");
    };

    let on_click = move |ev: leptos::ev::MouseEvent| {
        let Some((act, i, _)) = acted(&ev) else { return };
        notices.set(Vec::new());
        match act.as_str() {
            "place" => place(pick.get_untracked()),
            "put" => place(Placement {
                profile: pick.get_untracked().profile,
                start: u8::try_from(i).unwrap_or(0),
            }),
            "remove" | "clear" => {
                state.update_untracked(|s| {
                    if act == "clear" {
                        s.placed.clear();
                    } else if i < s.placed.len() {
                        s.placed.remove(i);
                    }
                });
                refused.set(None);
                render(Parts { hand: true, workloads: false, results: false });
            }
            "w-add" => {
                state.update_untracked(|s| {
                    if s.workloads.len() < MAX_WORKLOADS {
                        let next = s.workloads.last().cloned().unwrap_or_default();
                        s.workloads.push(next);
                    }
                });
                render(Parts { hand: false, workloads: true, results: true });
            }
            "w-remove" => {
                state.update_untracked(|s| {
                    if i < s.workloads.len() {
                        s.workloads.remove(i);
                    }
                });
                render(Parts { hand: false, workloads: true, results: true });
            }
            _ => {}
        }
    };

    let on_change = move |ev: leptos::ev::Event| {
        let Some((act, i, id)) = acted(&ev) else { return };
        let value = event_target_value(&ev);
        notices.set(Vec::new());
        let parts = match act.as_str() {
            "gpu" => {
                state.update_untracked(|s| switch_gpu(s, &value));
                refused.set(None);
                pick.set(state.with_untracked(first_pick));
                ALL
            }
            "pick-profile" | "pick-start" => {
                let mut p = pick.get_untracked();
                if act == "pick-profile" {
                    p.profile = value.parse().unwrap_or(0);
                    p.start = state.with_untracked(|s| start_for(s, p.profile));
                } else {
                    p.start = value.parse().unwrap_or(0);
                }
                pick.set(p);
                refused.set(None);
                Parts { hand: true, workloads: false, results: false }
            }
            _ => {
                let problem = state.try_update_untracked(|s| edit_workload(s, &act, i, &value)).flatten();
                if let Some(n) = problem {
                    notices.set(vec![n]);
                    // A refused number goes back to its last good value, in place: rebuilding
                    // the row would remove the focused input, whose blur fires another change.
                    let kept = state.with_untracked(|s| {
                        s.workloads.get(i).map(|w| if act == "w-context" { w.context } else { w.concurrency })
                    });
                    let input = ev.target().and_then(|t| t.dyn_into::<web_sys::HtmlInputElement>().ok());
                    if let (Some(input), Some(v)) = (input, kept) {
                        input.set_value(&v.to_string());
                    }
                }
                Parts { hand: false, workloads: false, results: true }
            }
        };
        render(parts);
        if !id.is_empty() {
            focus(&id);
        }
    };

    let skeleton = state.with_untracked(|s| skeleton(lang, s, mode, pick0, &notices.get_untracked()));
    let skeleton = crate::ui::browser::links(skeleton);
    view! { <section class="mig-planner" inner_html=skeleton on:click=on_click on:change=on_change></section> }.into_any()
}

/// Applies a workload edit; a number out of range is refused with its notice.
fn edit_workload(s: &mut MigState, act: &str, i: usize, value: &str) -> Option<Notice> {
    let w = s.workloads.get_mut(i)?;
    let refuse = |part, problem| Some(Notice { field: Field::Workload(i, part), problem });
    match act {
        "w-model" => w.model = value.to_owned(),
        "w-weights" => w.weights = WEIGHT_DTYPES.into_iter().find(|d| d.name() == value).unwrap_or(w.weights),
        "w-kv" => w.kv = KV_DTYPES.into_iter().find(|d| d.name() == value).unwrap_or(w.kv),
        "w-context" => match whole_in(value, 1, MAX_CONTEXT, w.context) {
            Ok(v) => w.context = v,
            Err(p) => return refuse(Part::Context, p),
        },
        "w-concurrency" => match whole_in(value, 1, MAX_CONCURRENCY, w.concurrency) {
            Ok(v) => w.concurrency = v,
            Err(p) => return refuse(Part::Concurrency, p),
        },
        _ => {}
    }
    None
}

/// Another GPU: the placements carry over by profile (the 7-slice tables list the same classes
/// in the same order) while the guide's rules still allow them.
fn switch_gpu(s: &mut MigState, id: &str) {
    let Some(mig) = gpu_tables(id) else { return };
    s.gpu = id.to_owned();
    let old = std::mem::take(&mut s.placed);
    for p in old {
        if try_add(&mig, &s.placed, p).is_ok() {
            s.placed.push(p);
        }
    }
}

/// Where a new instance of `profile` would go: its first free start, else its first valid one.
fn start_for(s: &MigState, profile: usize) -> u8 {
    let Some(m) = gpu_tables(&s.gpu) else { return 0 };
    let free = free_starts(m.geometry, &m.slices, &s.placed, profile);
    let any = m.slices.get(profile).map(|p| valid_starts(m.geometry, p)).unwrap_or_default();
    free.first().or(any.first()).copied().unwrap_or(0)
}

fn first_pick(s: &MigState) -> Placement {
    first_pick_keeping(0)(s)
}

/// The same profile at its next free start (or its first valid one).
fn first_pick_keeping(profile: usize) -> impl Fn(&MigState) -> Placement {
    move |s| Placement { profile, start: start_for(s, profile) }
}

fn skeleton(lang: Lang, s: &MigState, mode: Mode, pick: Placement, notices: &[Notice]) -> String {
    let t = lang.mig();
    let esc = crate::html::escape;
    let (hand, results) = gpu_of(s).map_or((String::new(), String::new()), |(gpu, mig)| {
        (hand_html(lang, gpu, &mig, &s.placed, pick, None), results_html(lang, gpu, &mig, &s.workloads))
    });
    let link = if mode == Mode::Widget {
        format!(
            "<p class=\"muted\">{} <a id=\"mig-open\" href=\"{}\">{}</a></p>",
            esc(t.widget_note),
            esc(&open_full_href(lang, s)),
            esc(t.open_full)
        )
    } else {
        String::new()
    };
    format!(
        "{link}<div id=\"mig-notices\">{}</div>{}\
         <section class=\"mig-part\"><h2>{}</h2><p class=\"hint\">{}</p><div id=\"mig-hand\">{hand}</div></section>\
         <section class=\"mig-part\"><h2>{}</h2><p class=\"hint\">{}</p><div id=\"mig-workloads\">{}</div><div id=\"mig-results\" aria-live=\"polite\">{results}</div></section>\
         {}",
        notices_html(lang, notices),
        gpu_select(lang, s),
        esc(t.hand_heading),
        esc(t.hand_intro),
        esc(t.pack_heading),
        esc(t.pack_intro),
        workloads_html(lang, &s.workloads),
        // The chapter has this comparison in its text; the page shows it beside the plan.
        if mode == Mode::Page { format!("<section class=\"mig-part\">{}</section>", compare_html(lang)) } else { String::new() }
    )
}

/// The `data-act`, `data-i` and id of the control an event came from.
fn acted(ev: &web_sys::Event) -> Option<(String, usize, String)> {
    let el = ev.target()?.dyn_into::<web_sys::Element>().ok()?.closest("[data-act]").ok()??;
    let act = el.get_attribute("data-act")?;
    let i = el.get_attribute("data-i").and_then(|v| v.parse().ok()).unwrap_or(0);
    Some((act, i, el.id()))
}

fn set_html(id: &str, html: &str) {
    if let Some(el) = document().get_element_by_id(id) {
        el.set_inner_html(&crate::ui::browser::links(html.to_string()));
    }
}

fn focus(id: &str) {
    if let Some(el) = document().get_element_by_id(id).and_then(|e| e.dyn_into::<web_sys::HtmlElement>().ok())
    {
        let _ = el.focus();
    }
}
