//! The validation page: the engine's expected values and bounds next to published measurements
//! (the same table as `gpu-primer validate`), its tables built as one HTML string
//! (`content::validation_html`).

use crate::content::validation_html::page_html;
use crate::i18n::Lang;
use crate::validation::validation_table;
use leptos::prelude::*;

#[component]
pub fn ValidationPage(lang: Lang) -> impl IntoView {
    let v = &lang.strings().validation;
    view! {
        <article class="validation" data-page="validation">
            <h1>{v.title}</h1>
            <p class="lead">{v.intro}</p>
            <div inner_html=page_html(&validation_table(), lang)></div>
        </article>
    }
}
