//! The mig tool (being built on its own branch).

use super::Mode;
use crate::i18n::Lang;
use leptos::prelude::*;

pub fn view(lang: Lang, query: &str, mode: Mode) -> AnyView {
    let _ = (query, mode);
    view! { <p class="hint">{lang.tools().nav}</p> }.into_any()
}
