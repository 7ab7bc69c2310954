//! The pages whose content is a component: `data-app` on their `[data-mount=page]` element
//! names which (`estimate`, `plan`, `lab`, `tool:mig`, …). The prerenderer renders the same
//! name into the page, so the two cannot disagree. And the embed page: one chapter widget
//! alone ([`EmbedPage`]).

use crate::i18n::Lang;
#[cfg(any(feature = "tools", not(target_arch = "wasm32")))]
use crate::route::Tool;
use leptos::prelude::*;

/// The `data-app` name of a page that is a component.
#[cfg(not(target_arch = "wasm32"))]
pub fn app_name(route: &crate::route::Route) -> Option<String> {
    use crate::route::Route;
    match route {
        Route::Estimate(_) => Some("estimate".into()),
        Route::Plan(_) => Some("plan".into()),
        Route::Lab(_) => Some("lab".into()),
        Route::Tool(_, t) => Some(format!("tool:{}", t.slug())),
        Route::Classroom(_, c) => Some(c.app().into()),
        _ => None,
    }
}

/// The component of the page named `app` (nothing for a name it does not know).
pub fn app_page(lang: Lang, app: &str) -> AnyView {
    match app {
        #[cfg(feature = "estimator")]
        "estimate" => view! { <super::estimator::EstimatorPage lang=lang /> }.into_any(),
        #[cfg(feature = "planner")]
        "plan" => view! { <super::plan::PlanPage lang=lang /> }.into_any(),
        #[cfg(feature = "course")]
        "lab" => view! { <super::lab::LabPage lang=lang /> }.into_any(),
        #[cfg(feature = "classroom")]
        other if other.starts_with("classroom") => match crate::route::Class::from_app(other) {
            Some(class) => view! { <super::classroom::ClassroomPage lang=lang class=class /> }.into_any(),
            None => ().into_any(),
        },
        #[cfg(feature = "tools")]
        other if other.starts_with("tool:") => match other.strip_prefix("tool:").and_then(Tool::from_slug) {
            Some(tool) => view! { <super::tools::ToolPage lang=lang tool=tool /> }.into_any(),
            None => ().into_any(),
        },
        _ => {
            let _ = lang;
            ().into_any()
        }
    }
}

/// The embed page: the widget `name` (a kind) alone, started from `query`.
#[component]
pub fn EmbedPage(lang: Lang, name: String, query: String) -> impl IntoView {
    // The chapter widget sends the lesson kinds to `LessonWidget` itself. `into_any` on exactly
    // the type the chapter page erases shares its code instead of a second copy of the widget's.
    let kind = name.clone();
    let widget =
        view! { <crate::ui::estimator::widget::ChapterWidget lang=lang name=name query=query /> }.into_any();
    view! { <article class="embed" data-page="embed" data-kind=kind>{widget}</article> }
}

/// Which bundle a page's mounts need (`site` writes it on the page): `estimator` for the
/// estimator's page, `planner` for the planner's (its whole state is in its address, so moving
/// to it from any page loses nothing), `classroom` for the classroom's pages,
/// `tools` for the decision tools (and a chapter with one of them), `course` for everything
/// else. Each holds the engine; what sets them apart is the page's own interface, so that each
/// stays within its size budget (600,000 B gzip: the planner and the decision tools together
/// came to 610 KB, the estimator and the planner together to 694 KB).
#[cfg(not(target_arch = "wasm32"))]
pub fn bundle_of(app: Option<&str>, widgets: &[&str]) -> &'static str {
    let tools_app = app.is_some_and(|a| a.starts_with("tool:"));
    // What runs on my machine is in the course bundle too: a chapter that holds it stays there.
    let tools_widget = widgets
        .iter()
        .any(|w| Tool::from_slug(w.split(':').next().unwrap_or(w)).is_some_and(|t| t != Tool::Local));
    if app == Some("estimate") {
        "estimator"
    } else if app == Some("plan") {
        "planner"
    } else if app.is_some_and(|a| a.starts_with("classroom")) {
        "classroom"
    } else if tools_app || tools_widget {
        "tools"
    } else {
        "course"
    }
}
