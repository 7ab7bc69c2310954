//! The chapter widgets that are not estimators (one per chapter that had none: CUDA grid,
//! Tensor Core peaks, spec sheet, GPU ladder, all-reduce) and the embed control.
//!
//! A widget is a list of parameters (a select or a number field, each with a key that is also
//! its key in the embed URL's query) and a pure function from their values to the HTML of its
//! numbers (`lessons.rs`): every number comes from an engine function, the view only formats
//! it. The defaults are the example the chapter works through.

mod embed;
mod lessons;

#[cfg(not(target_arch = "wasm32"))]
pub use embed::iframe_snippet;
pub use embed::EmbedCode;
pub use lessons::title;

use crate::i18n::Lang;
use leptos::prelude::*;

/// Whether `kind` is drawn here.
pub fn is_lesson(kind: &str) -> bool {
    crate::content::LESSON_WIDGETS.contains(&kind)
}

/// How a parameter is entered.
enum Input {
    /// (value, label) pairs.
    Select(Vec<(String, String)>),
    /// A number in `[min, max]`; `whole`: an integer (a count).
    Number { min: f64, max: f64, whole: bool },
}

struct Param {
    key: &'static str,
    label: &'static str,
    input: Input,
}

impl Param {
    /// A whole number (a count) in `[min, max]`.
    fn count(key: &'static str, label: &'static str, min: f64, max: f64) -> Param {
        Param { key, label, input: Input::Number { min, max, whole: true } }
    }

    /// One of fixed `(value, label)` options.
    fn choice(key: &'static str, label: &'static str, options: &[(&str, &str)]) -> Param {
        let options = options.iter().map(|(v, l)| (v.to_string(), l.to_string())).collect();
        Param { key, label, input: Input::Select(options) }
    }

    /// A number in `[min, max]`, fractions allowed.
    fn amount(key: &'static str, label: &'static str, min: f64, max: f64) -> Param {
        Param { key, label, input: Input::Number { min, max, whole: false } }
    }

    /// Whether the parameter takes `value` (NaN and infinities never are in range).
    fn accepts(&self, value: &str) -> bool {
        match &self.input {
            Input::Select(options) => options.iter().any(|(v, _)| v == value),
            Input::Number { min, max, whole } => value
                .trim()
                .parse::<f64>()
                .is_ok_and(|v| v >= *min && v <= *max && (!*whole || v.fract() == 0.0)),
        }
    }
}

/// What a lesson widget's parameter takes, for the embed list (`site::embeds`).
#[cfg(not(target_arch = "wasm32"))]
#[derive(Clone, Debug, PartialEq)]
pub enum Allowed {
    /// One of these values.
    OneOf(Vec<String>),
    /// A number in `[min, max]`; `whole`: an integer.
    Range { min: f64, max: f64, whole: bool },
}

/// A lesson widget's parameter as the embed list shows it: its query key, its label (what it
/// means, as the widget's own field names it), what it takes and its default (the chapter's
/// example). Empty for a kind that is not a lesson widget.
#[cfg(not(target_arch = "wasm32"))]
pub fn param_docs(kind: &str, lang: Lang) -> Vec<(&'static str, &'static str, Allowed, &'static str)> {
    if !is_lesson(kind) {
        return Vec::new();
    }
    let defaults = lessons::defaults(kind);
    lessons::params(kind, lang)
        .into_iter()
        .map(|p| {
            let allowed = match p.input {
                Input::Select(options) => Allowed::OneOf(options.into_iter().map(|(v, _)| v).collect()),
                Input::Number { min, max, whole } => Allowed::Range { min, max, whole },
            };
            let default = defaults.iter().find(|(k, _)| *k == p.key).map_or("", |(_, v)| *v);
            (p.key, p.label, allowed, default)
        })
        .collect()
}

/// The current values, in the order of the widget's parameters.
pub(crate) type Values = Vec<(&'static str, String)>;

/// The value of `key` (empty when absent).
pub(crate) fn get<'a>(values: &'a Values, key: &str) -> &'a str {
    values.iter().find(|(k, _)| *k == key).map(|(_, v)| v.as_str()).unwrap_or("")
}

/// `key=value&…`, each value percent-encoded except letters, digits and `.-_`.
fn encode_query(values: &Values) -> String {
    let mut out = String::new();
    for (k, v) in values {
        if !out.is_empty() {
            out.push('&');
        }
        out.push_str(k);
        out.push('=');
        for b in v.bytes() {
            if b.is_ascii_alphanumeric() || matches!(b, b'.' | b'-' | b'_') {
                out.push(char::from(b));
            } else {
                out.push_str(&format!("%{b:02X}"));
            }
        }
    }
    out
}

/// The widget's defaults, with every value of `query` that its parameter accepts.
fn initial_values(params: &[Param], defaults: &[(&'static str, &'static str)], query: &str) -> Values {
    // Values are catalog ids and numbers, which the encoder leaves as they are; anything
    // percent-encoded is not a value a parameter accepts, so it is not decoded, only dropped.
    let given: Vec<(&str, &str)> = query.split('&').filter_map(|p| p.split_once('=')).collect();
    defaults
        .iter()
        .map(|(k, d)| {
            let from_query = given
                .iter()
                .find(|(gk, gv)| gk == k && params.iter().any(|p| p.key == *k && p.accepts(gv)))
                .map(|(_, v)| (*v).to_string());
            (*k, from_query.unwrap_or_else(|| (*d).to_string()))
        })
        .collect()
}

fn control(kind: &'static str, p: Param, values: RwSignal<Values>) -> impl IntoView {
    let id = format!("{kind}-{}", p.key);
    let key = p.key;
    let current = move || values.with(|v| get(v, key).to_string());
    let set = move |v: String| {
        values.update(|vals| {
            if let Some(slot) = vals.iter_mut().find(|(k, _)| *k == key) {
                slot.1 = v;
            }
        })
    };
    let input = match p.input {
        Input::Select(options) => view! {
            <select id=id.clone() on:change=move |ev| set(event_target_value(&ev)) prop:value=current>
                {options
                    .into_iter()
                    .map(|(v, l)| {
                        let mine = v.clone();
                        view! { <option value=v selected=move || current() == mine>{l}</option> }
                    })
                    .collect_view()}
            </select>
        }
        .into_any(),
        // `value` is the field's first value, written into the prerendered page so that a reader
        // without JavaScript sees the numbers the widget's figures are computed from; the live
        // value is the `value` property.
        Input::Number { min, max, .. } => {
            let first = values.with_untracked(|v| get(v, key).to_string());
            view! {
                <input id=id.clone() type="number" inputmode="decimal" min=min max=max step="any"
                    value=first prop:value=current on:change=move |ev| set(event_target_value(&ev)) />
            }
            .into_any()
        }
    };
    view! {
        <div class="control" data-control=key>
            <label for=id>{p.label}</label>
            {input}
        </div>
    }
}

/// A chapter widget of a [`crate::content::LESSON_WIDGETS`] kind, started from `query` (an embed URL's) when given.
#[component]
pub fn LessonWidget(
    lang: Lang,
    kind: &'static str,
    #[prop(optional)] query: Option<String>,
) -> impl IntoView {
    let w = lang.wid();
    let params = lessons::params(kind, lang);
    let values =
        RwSignal::new(initial_values(&params, lessons::defaults(kind), query.as_deref().unwrap_or("")));
    let checked = move || {
        values.with(|vals| {
            // A number outside its range is named, in the page's language, instead of computed.
            let problems: Vec<String> = lessons::params(kind, lang)
                .iter()
                .filter(|p| !p.accepts(get(vals, p.key)))
                .map(|p| match p.input {
                    Input::Number { min, max, whole } => {
                        w.out_of_range(p.label, &fmt_plain(min), &fmt_plain(max), whole)
                    }
                    Input::Select(_) => p.label.to_string(),
                })
                .collect();
            if problems.is_empty() {
                lessons::body_html(kind, lang, vals)
            } else {
                let items: String = problems.iter().map(|m| format!("<li>{}</li>", escape(m))).collect();
                format!("<ul class=\"field-error\" role=\"alert\">{items}</ul>")
            }
        })
    };
    let controls = params.into_iter().map(|p| control(kind, p, values)).collect_view();
    let query = Signal::derive(move || values.with(encode_query));
    view! {
        <aside class="widget lesson" data-widget=kind>
            <header class="widget-head">
                <span class="eyebrow">{lang.est().try_it}</span>
                <strong>{title(kind, lang)}</strong>
            </header>
            <div class="widget-grid">
                <div class="widget-controls">{controls}</div>
                <div class="widget-body" aria-live="polite" inner_html=checked></div>
            </div>
            <EmbedCode lang=lang kind=kind query=query />
        </aside>
    }
}

/// A number as typed in a field: no grouping, no trailing zeros.
pub(crate) fn fmt_plain(v: f64) -> String {
    let s = format!("{v}");
    s.strip_suffix(".0").map(str::to_string).unwrap_or(s)
}

/// Text for HTML (element content and double-quoted attribute values): the site's one escaper,
/// also used by search results, the glossary, the validation tables and the worksheets.
pub(crate) use crate::html::escape;
