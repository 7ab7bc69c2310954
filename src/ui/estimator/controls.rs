//! Form controls: a slider with a number field beside it, a select, a checkbox.
//! Every slider is an `<input type="range">` (keyboard: arrows, Page Up/Down, Home/End) with a
//! number field, a unit and an aria label in the page's language.

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

/// A labelled slider with a number field. `value` is read reactively; `set` is called with a
/// value inside the scale's bounds (out-of-range typing shows a message and changes nothing).
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
    // Each edit of the scenario re-reads every slider's value; the slider's own text, attribute
    // and property updates run only when its value changed.
    let value = Memo::new(move |_| value.get());
    let (min, max) = scale.bounds();
    let (rmin, rmax, rstep) = scale.range_attrs();
    let integer = scale.integer();
    let (problem, set_problem) = signal(None::<String>);
    let scale_for_range = scale.clone();
    let scale_for_pos = scale.clone();
    let number_id = format!("{id}-number");
    view! {
        <div class="control slider" data-control=id>
            <label for=id>{label}</label>
            <div class="slider-row">
                <input
                    type="range"
                    id=id
                    min=rmin
                    max=rmax
                    step=rstep
                    aria-label=label
                    aria-valuetext=move || format!("{} {unit}", show(value.get(), integer))
                    prop:value=move || scale_for_pos.position(value.get()).to_string()
                    on:input=move |ev| {
                        if let Ok(p) = event_target_value(&ev).parse::<f64>() {
                            set_problem.set(None);
                            set.run(scale_for_range.value_at(p));
                        }
                    }
                />
                <input
                    type="number"
                    class="number"
                    id=number_id
                    min=min
                    max=max
                    step=if integer { 1.0 } else { rstep }
                    aria-label=format!("{label} ({unit})")
                    aria-invalid=move || problem.get().is_some().to_string()
                    prop:value=move || show(value.get(), integer)
                    on:change=move |ev| {
                        let text = event_target_value(&ev);
                        match text.trim().parse::<f64>() {
                            Ok(v) if v.is_finite() && v >= min && v <= max => {
                                set_problem.set(None);
                                set.run(if integer { v.round() } else { v });
                            }
                            _ => set_problem.set(Some(format!(
                                "{} {}: {} – {}",
                                text.trim(),
                                out_of_range,
                                show(min, integer),
                                show(max, integer)
                            ))),
                        }
                    }
                />
                <span class="unit">{unit}</span>
            </div>
            {move || problem.get().map(|p| view! { <p class="field-error" role="alert">{p}</p> })}
        </div>
    }
}

/// A labelled `<select>`; `options` are (value, label) pairs.
#[component]
pub fn Select(
    id: &'static str,
    label: &'static str,
    options: Vec<(String, String)>,
    #[prop(into)] value: Signal<String>,
    set: Callback<String>,
) -> impl IntoView {
    // Read once per edit of the scenario; the options' `selected` flags update only when it changed.
    let value = Memo::new(move |_| value.get());
    view! {
        <div class="control select" data-control=id>
            <label for=id>{label}</label>
            <select
                id=id
                on:change=move |ev| set.run(event_target_value(&ev))
                prop:value=move || value.get()
            >
                {options
                    .into_iter()
                    .map(|(v, l)| {
                        let selected_v = v.clone();
                        view! { <option value=v selected=move || value.get() == selected_v>{l}</option> }
                    })
                    .collect_view()}
            </select>
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
