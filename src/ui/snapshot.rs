//! The app's components rendered to HTML natively (Leptos in its server-rendering mode), for
//! the prerendered pages: each slot of a page holds exactly the markup its component mounts
//! with, in its default state (see `browser`'s native side: no query, nothing saved).
//!
//! One difference is taken care of here: a Leptos `style:` directive, which the browser applies
//! through the CSSOM, renders as a `style` attribute, and the site's Content-Security-Policy
//! applies no style attributes. `site::styles` moves them into the page's own stylesheet.

use crate::i18n::Lang;
use crate::route::Route;
use hydration_context::SsrSharedContext;
use leptos::prelude::*;
use std::sync::Arc;

/// Renders what `view` builds to HTML, inside a reactive owner of its own (disposed after).
pub fn render<V: IntoView + 'static>(view: impl FnOnce() -> V) -> String {
    let owner = Owner::new_root(Some(Arc::new(SsrSharedContext::new())));
    let html = owner.with(|| view().into_view().to_html());
    owner.cleanup();
    html
}

/// A chapter widget (`{{widget:NAME}}`) in its default state.
pub fn widget(lang: Lang, name: &str) -> String {
    let name = name.to_string();
    render(move || view! { <super::estimator::widget::ChapterWidget lang=lang name=name /> })
}

/// A chapter figure (`{{figure:NAME}}`).
pub fn figure(lang: Lang, name: &str) -> String {
    let name = name.to_string();
    render(move || view! { <super::figure::ChapterFigure lang=lang name=name /> })
}

/// The header's search box.
pub fn search(lang: Lang) -> String {
    render(move || view! { <super::search::SiteSearch lang=lang /> })
}

/// The component of a page such as the estimator (see `super::pages`), if the route has one.
pub fn app_page(route: &Route) -> Option<String> {
    let lang = route.lang()?;
    let app = super::pages::app_name(route)?;
    Some(render(move || super::pages::app_page(lang, &app)))
}

/// The embed page's widget.
pub fn embed(lang: Lang, name: &str) -> String {
    let name = name.to_string();
    render(move || view! { <super::widgets::EmbedPage lang=lang name=name query=String::new() /> })
}
