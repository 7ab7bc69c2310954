//! "Show the math": the formula, the values substituted and the source of a report number.

use super::Ctx;
use crate::html::escape;
use leptos::prelude::*;

/// A disclosure with the derivation of report path `key` (for example `memory_per_gpu_bytes.weights`).
#[component]
pub fn ShowMath(key: &'static str) -> impl IntoView {
    let ctx = expect_context::<Ctx>();
    let e = ctx.lang.est();
    // The derivation is read and rendered only while the disclosure is open: a closed one (most
    // of them) costs nothing when a slider moves.
    let (open, set_open) = signal(false);
    let toggle = move |ev: leptos::ev::Event| {
        use wasm_bindgen::JsCast;
        let el = ev.target().and_then(|t| t.dyn_into::<web_sys::Element>().ok());
        set_open.set(el.is_some_and(|el| el.has_attribute("open")));
    };
    let derivation = move || {
        open.get()
            .then(|| {
                ctx.with_shown(|r| {
                    r.and_then(|r| r.derivation(key)).map(|d| crate::i18n::facts::derivation(d, ctx.lang))
                })
            })
            .flatten()
    };
    // The weights' math also derives their bits per weight (value bits + scales per group).
    let bits = move || {
        (key == "memory_per_gpu_bytes.weights" && open.get())
            .then(|| {
                ctx.with_shown(|r| {
                    r.and_then(|r| r.derivation("weight_bits_per_element"))
                        .map(|d| crate::i18n::facts::derivation(d, ctx.lang))
                })
            })
            .flatten()
    };
    view! {
        <details class="math" data-math=key on:toggle=toggle>
            <summary>{e.show_math}</summary>
            {move || derivation().map(|d| view! { <dl inner_html=derivation_html(e, &d)></dl> })}
            {move || bits().map(|d| view! { <dl class="weight-bits" inner_html=derivation_html(e, &d)></dl> })}
        </details>
    }
}

/// The derivation's terms as HTML (static once built; every text escaped).
fn derivation_html(e: &crate::i18n::EstimatorStrings, d: &crate::i18n::facts::DerivationText) -> String {
    format!(
        "<dt>{}</dt><dd><code>{}</code></dd><dt>{}</dt><dd><code>{}</code></dd><dt>{}</dt><dd class=\"source\"{}>{}</dd>",
        escape(e.formula),
        escape(&d.formula),
        escape(e.values),
        escape(&d.values),
        escape(e.source),
        if d.cited { " data-source=\"\"" } else { "" },
        escape(&d.source),
    )
}
