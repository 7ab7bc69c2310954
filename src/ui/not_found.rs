//! The page for any address the site does not have.

use crate::i18n::Lang;
use crate::route::Route;
use leptos::prelude::*;

#[component]
pub fn NotFound(lang: Lang) -> impl IntoView {
    let s = lang.strings();
    view! {
        <article class="not-found" data-page="not-found">
            <h1>{s.not_found_title}</h1>
            <p>{s.not_found_body}</p>
            <p><a class="button" href=Route::Home(lang).to_hash()>{s.back_home}</a></p>
        </article>
    }
}
