//! Form controls: a slider with a number field beside it, a select, a checkbox.
//! Every slider is an `<input type="range">` (keyboard: arrows, Page Up/Down, Home/End) with a
//! number field, a unit and an aria label in the page's language.

use crate::html::escape;
use leptos::prelude::*;

/// How a slider moves.
#[derive(Clone, Debug, PartialEq)]
pub enum Scale {
    /// Along a list of values (powers of two, "nice" log steps); the number field takes any
    /// integer between the first and the last.
    Steps(Vec<u64>),
    /// Evenly, between `min` and `max` in steps of `step`.
    Linear { min: f64, max: f64, step: f64 },
}

impl Scale {
    fn bounds(&self) -> (f64, f64) {
        match self {
            Scale::Steps(v) => (*v.first().unwrap_or(&1) as f64, *v.last().unwrap_or(&1) as f64),
            Scale::Linear { min, max, .. } => (*min, *max),
        }
    }

    fn position(&self, value: f64) -> f64 {
        match self {
            Scale::Steps(v) => {
                crate::estimator::scales::nearest_index(v, value.max(0.0).round() as u64) as f64
            }
            Scale::Linear { .. } => value,
        }
    }

    fn value_at(&self, position: f64) -> f64 {
        match self {
            Scale::Steps(v) => {
                let i = (position.max(0.0).round() as usize).min(v.len().saturating_sub(1));
                v.get(i).copied().unwrap_or(1) as f64
            }
            Scale::Linear { .. } => position,
        }
    }

    fn range_attrs(&self) -> (f64, f64, f64) {
        match self {
            Scale::Steps(v) => (0.0, v.len().saturating_sub(1) as f64, 1.0),
            Scale::Linear { min, max, step } => (*min, *max, *step),
        }
    }

    fn integer(&self) -> bool {
        matches!(self, Scale::Steps(_))
    }
}

fn show(value: f64, integer: bool) -> String {
    if integer {
        format!("{}", value.round() as i64)
    } else {
        let s = format!("{value:.2}");
        s.trim_end_matches('0').trim_end_matches('.').to_string()
    }
}

/// The slider's row as HTML: the range input, the number field and the unit. Static markup is
/// parsed by the browser at once instead of being built node by node; the live value is then
/// written in place by one effect (see [`Slider`]).
fn slider_row_html(id: &str, label: &str, unit: &str, scale: &Scale, value: f64) -> String {
    let (min, max) = scale.bounds();
    let (rmin, rmax, rstep) = scale.range_attrs();
    let integer = scale.integer();
    let (label, unit) = (escape(label), escape(unit));
    let shown = show(value, integer);
    format!(
        "<input type=\"range\" id=\"{id}\" min=\"{rmin}\" max=\"{rmax}\" step=\"{rstep}\" value=\"{pos}\" \
         aria-label=\"{label}\" aria-valuetext=\"{shown} {unit}\">\
         <input type=\"number\" class=\"number\" id=\"{id}-number\" min=\"{min}\" max=\"{max}\" step=\"{step}\" \
         value=\"{shown}\" aria-label=\"{label} ({unit})\" aria-invalid=\"false\">\
         <span class=\"unit\">{unit}</span>",
        pos = scale.position(value),
        step = if integer { 1.0 } else { rstep },
    )
}

/// The input that sent `ev`, and whether it is the range (else the number field).
fn event_input(ev: &web_sys::Event) -> Option<(web_sys::HtmlInputElement, bool)> {
    use wasm_bindgen::JsCast;
    let input = ev.target()?.dyn_into::<web_sys::HtmlInputElement>().ok()?;
    let range = input.type_() == "range";
    Some((input, range))
}

/// A labelled slider with a number field. `value` is read reactively; `set` is called with a
/// value inside the scale's bounds (out-of-range typing shows a message and changes nothing).
/// The row is static HTML; one effect writes a changed value into the range, its
/// `aria-valuetext` and the number field, and the row's listeners take both inputs' events.
#[component]
pub fn Slider(
    id: &'static str,
    label: &'static str,
    unit: &'static str,
    scale: Scale,
    #[prop(into)] value: Signal<f64>,
    set: Callback<f64>,
    #[prop(optional)] out_of_range: &'static str,
) -> impl IntoView {
    let (min, max) = scale.bounds();
    let integer = scale.integer();
    let (problem, set_problem) = signal(None::<String>);
    let first = value.get_untracked();
    let row_html = slider_row_html(id, label, unit, &scale, first);
    let row = NodeRef::<leptos::html::Div>::new();
    let scale = StoredValue::new(scale);
    // Each edit of the scenario re-reads the value; the DOM is written only when it changed.
    Effect::new(move |prev: Option<f64>| {
        let v = value.get();
        if prev.unwrap_or(first) != v {
            if let Some(row) = row.get_untracked() {
                use wasm_bindgen::JsCast;
                let as_input = |e: web_sys::Element| e.dyn_into::<web_sys::HtmlInputElement>().ok();
                let range = row.first_element_child();
                let number = range.as_ref().and_then(|r| r.next_element_sibling()).and_then(as_input);
                let range = range.and_then(as_input);
                let shown = show(v, integer);
                if let Some(range) = range {
                    range.set_value(&scale.with_value(|s| s.position(v)).to_string());
                    let _ = range.set_attribute("aria-valuetext", &format!("{shown} {unit}"));
                }
                if let Some(number) = number {
                    number.set_value(&shown);
                }
            }
        }
        v
    });
    // A drag or a key press shows its value in the number field at once; the scenario follows it
    // after that frame is painted (one edit per frame, the latest: a drag that outruns the
    // evaluation skips the values in between).
    let pending = StoredValue::new(None::<f64>);
    let edit_after_paint = move |v: f64| {
        let scheduled = pending.get_value().is_some();
        pending.set_value(Some(v));
        if !scheduled {
            crate::ui::browser::after_paint(move || {
                if let Some(v) = pending.try_update_value(Option::take).flatten() {
                    set.run(v);
                }
            });
        }
    };
    // Marks the number field while its text is refused.
    let flag = move |number: &web_sys::HtmlInputElement, bad: bool| {
        let flag = if bad { "true" } else { "false" };
        if number.get_attribute("aria-invalid").as_deref() != Some(flag) {
            let _ = number.set_attribute("aria-invalid", flag);
        }
    };
    view! {
        <div class="control slider" data-control=id>
            <label for=id>{label}</label>
            <div
                class="slider-row"
                node_ref=row
                inner_html=row_html
                on:input=move |ev| {
                    let Some((range, true)) = event_input(&ev) else { return };
                    if let Ok(p) = range.value().parse::<f64>() {
                        if problem.get_untracked().is_some() {
                            set_problem.set(None);
                        }
                        let v = scale.with_value(|s| s.value_at(p));
                        if let Some(number) = range.next_element_sibling().and_then(|n| {
                            use wasm_bindgen::JsCast;
                            n.dyn_into::<web_sys::HtmlInputElement>().ok()
                        }) {
                            flag(&number, false);
                            number.set_value(&show(v, integer));
                        }
                        edit_after_paint(v);
                    }
                }
                on:change=move |ev| {
                    let Some((number, false)) = event_input(&ev) else { return };
                    let text = number.value();
                    match text.trim().parse::<f64>() {
                        Ok(v) if v.is_finite() && v >= min && v <= max => {
                            set_problem.set(None);
                            flag(&number, false);
                            set.run(if integer { v.round() } else { v });
                        }
                        _ => {
                            flag(&number, true);
                            set_problem.set(Some(format!(
                                "{} {}: {} – {}",
                                text.trim(),
                                out_of_range,
                                show(min, integer),
                                show(max, integer)
                            )))
                        }
                    }
                }
            ></div>
            {move || problem.get().map(|p| view! { <p class="field-error" role="alert">{p}</p> })}
        </div>
    }
}

/// A labelled `<select>`; `options` are (value, label) pairs. The options are static HTML (the
/// browser parses them at once); the chosen one follows `value`.
#[component]
pub fn Select(
    id: &'static str,
    label: &'static str,
    options: Vec<(String, String)>,
    #[prop(into)] value: Signal<String>,
    set: Callback<String>,
) -> impl IntoView {
    // Read once per edit of the scenario; the select's value is written only when it changed.
    let value = Memo::new(move |_| value.get());
    let first = value.get_untracked();
    let options_html: String = options
        .iter()
        .map(|(v, l)| {
            let selected = if *v == first { " selected" } else { "" };
            format!("<option value=\"{}\"{selected}>{}</option>", escape(v), escape(l))
        })
        .collect();
    view! {
        <div class="control select" data-control=id>
            <label for=id>{label}</label>
            <select
                id=id
                inner_html=options_html
                on:change=move |ev| set.run(event_target_value(&ev))
                prop:value=move || value.get()
            ></select>
        </div>
    }
}

/// A labelled checkbox.
#[component]
pub fn Toggle(
    id: &'static str,
    label: &'static str,
    #[prop(into)] value: Signal<bool>,
    set: Callback<bool>,
) -> impl IntoView {
    view! {
        <div class="control toggle" data-control=id>
            <label>
                <input
                    type="checkbox"
                    id=id
                    prop:checked=move || value.get()
                    on:change=move |ev| set.run(event_target_checked(&ev))
                />
                " "
                {label}
            </label>
        </div>
    }
}
