//! Leptos components: thin views over the route and the engine's reports.

mod anchor;
mod bench;
mod browser;
mod chapter;
mod estimator;
mod exercise;
mod figure;
mod glossary;
mod home;
mod lab;
mod not_found;
mod plan;
mod search;
mod shell;
mod tools;
mod validation;
mod widgets;

use crate::content;
use crate::i18n::Lang;
use crate::route::Route;
use leptos::prelude::*;

/// Mounts the app on `<body>`, in place of the boot header `index.html` paints while the wasm
/// loads (so a phone shows the site's frame at once instead of a blank page).
pub fn mount() {
    if let Some(boot) = document().get_element_by_id("boot") {
        boot.remove();
    }
    mount_to_body(App);
}

/// Reads the hash; the empty route becomes the home page of the reader's language.
fn resolve_route() -> Route {
    match Route::parse(&browser::current_hash()) {
        Route::Root => {
            let home = Route::Home(browser::preferred_lang());
            browser::replace_hash(&home.to_hash());
            home
        }
        other => other,
    }
}

/// The title shown in the browser tab for a route.
fn document_title(route: &Route, lang: Lang) -> String {
    let s = lang.strings();
    match route {
        Route::Chapter(_, slug) => match content::find(slug) {
            Some(c) => format!("{} · {}", c.page(lang).title, s.site_title),
            None => s.site_title.to_string(),
        },
        Route::NotFound(_) => format!("{} · {}", s.not_found_title, s.site_title),
        Route::Estimate(_) => format!("{} · {}", lang.est().title, s.site_title),
        Route::Validation(_) => format!("{} · {}", s.validation.title, s.site_title),
        Route::Glossary(_) => format!("{} · {}", lang.course().glossary_title, s.site_title),
        Route::Lab(_) => format!("{} · {}", lang.lab().nav, s.site_title),
        Route::Tools(_) => format!("{} · {}", lang.tools().index_title, s.site_title),
        Route::Tool(_, t) => format!("{} · {}", lang.tools().name(*t), s.site_title),
        Route::Plan(_) => format!("{} · {}", lang.plan().title, s.site_title),
        Route::Embed(_, kind) => format!("{} · {}", widgets::title(kind, lang), s.site_title),
        Route::Root | Route::Home(_) => format!("{} · {}", s.site_title, s.tagline),
    }
}

#[component]
fn App() -> impl IntoView {
    let (route, set_route) = signal(resolve_route());
    let listener = window_event_listener(leptos::ev::hashchange, move |_| set_route.set(resolve_route()));
    on_cleanup(move || listener.remove());

    // The language of the page: the route's, else the reader's preference (bad routes).
    let lang = Memo::new(move |_| route.with(|r| r.lang()).unwrap_or_else(browser::preferred_lang));

    Effect::new(move |_| {
        let r = route.get();
        let l = lang.get();
        if r.lang().is_some() {
            browser::remember_lang(l);
        }
        browser::set_document_language_and_title(l, &document_title(&r, l));
        anchor::scroll_to_target();
    });

    view! {
        <shell::Shell route=route lang=lang>
            {move || match route.get() {
                Route::Root | Route::Home(_) => view! { <home::Home lang=lang.get() /> }.into_any(),
                Route::Chapter(l, slug) => view! { <chapter::ChapterPage lang=l slug=slug /> }.into_any(),
                Route::Estimate(l) => view! { <estimator::EstimatorPage lang=l /> }.into_any(),
                Route::Validation(l) => view! { <validation::ValidationPage lang=l /> }.into_any(),
                Route::Glossary(l) => view! { <glossary::GlossaryPage lang=l /> }.into_any(),
                Route::Lab(l) => view! { <lab::LabPage lang=l /> }.into_any(),
                Route::Tools(l) => view! { <tools::ToolsIndex lang=l /> }.into_any(),
                Route::Tool(l, t) => view! { <tools::ToolPage lang=l tool=t /> }.into_any(),
                Route::Plan(l) => view! { <plan::PlanPage lang=l /> }.into_any(),
                Route::Embed(l, kind) => {
                    let query = browser::current_hash().split_once('?').map(|(_, q)| q.to_string()).unwrap_or_default();
                    view! { <widgets::EmbedPage lang=l kind=kind query=query /> }.into_any()
                }
                Route::NotFound(_) => view! { <not_found::NotFound lang=lang.get() /> }.into_any(),
            }}
        </shell::Shell>
    }
}
