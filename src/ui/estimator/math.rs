//! "Show the math": the formula, the values substituted and the source of a report number.

use super::Ctx;
use leptos::prelude::*;

/// A disclosure with the derivation of report path `key` (for example `memory_per_gpu_bytes.weights`).
#[component]
pub fn ShowMath(key: &'static str) -> impl IntoView {
    let ctx = expect_context::<Ctx>();
    let e = ctx.lang.est();
    let derivation = move || {
        ctx.with_shown(|r| {
            r.and_then(|r| r.derivation(key)).map(|d| crate::i18n::facts::derivation(d, ctx.lang))
        })
    };
    view! {
        <details class="math" data-math=key>
            <summary>{e.show_math}</summary>
            {move || derivation().map(|d| view! {
                <dl>
                    <dt>{e.formula}</dt>
                    <dd><code>{d.formula}</code></dd>
                    <dt>{e.values}</dt>
                    <dd><code>{d.values}</code></dd>
                    <dt>{e.source}</dt>
                    <dd class="source" data-source=d.cited.then_some("")>{d.source}</dd>
                </dl>
            })}
        </details>
    }
}
