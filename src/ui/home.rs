//! The home page of one language: what the site is, and the learning path: every chapter in
//! order, grouped in stages, each with its one-line goal. All of it is static: one HTML string
//! (`content::page_html::home_html`) that the browser parses at once, instead of about a hundred
//! elements built one by one.

use crate::content::page_html::home_html;
use crate::i18n::Lang;
use leptos::prelude::*;

#[component]
pub fn Home(lang: Lang) -> impl IntoView {
    view! { <article class="home" data-page="home" inner_html=home_html(lang)></article> }
}
