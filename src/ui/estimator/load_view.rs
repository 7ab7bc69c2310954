//! The "Under load" panel: its parts as `inner_html` strings from
//! `crate::estimator::load_panel`, each rebuilt only when its own string changes. The load
//! section is not part of the page's evaluation (an edit elsewhere never waits for the load
//! model's twelve simulations): the panel asks for it apart, once when it mounts and then only
//! while it is near the viewport (out of view it keeps its last numbers and catches up when the
//! reader scrolls to it), and keeps the load model's rate-independent half, so an edit of the
//! arrival rate alone costs one simulation.

use super::charts_view::near_viewport;
use super::Ctx;
use crate::engine::perf::load::LoadCurve;
use crate::estimator::load_panel::{load_section, panel_parts, PanelParts};
use leptos::prelude::*;

#[component]
pub fn LoadView() -> impl IntoView {
    let ctx = expect_context::<Ctx>();
    let width = crate::ui::browser::chart_width();
    let node = NodeRef::<leptos::html::Div>::new();
    let near = near_viewport(node);
    // The parts shown, with the load model's rate-independent half they came from.
    let shown = Memo::new(move |previous: Option<&(PanelParts, Option<LoadCurve>)>| {
        let near = near.get();
        // Out of view, or while the edited scenario does not evaluate (the rest of the page
        // keeps the last valid report too), the panel keeps what it shows.
        if let Some(p) = previous {
            if !near || ctx.with_result(Result::is_err) {
                return p.clone();
            }
        }
        let half = previous.and_then(|p| p.1.as_ref());
        ctx.with_scenario(|s| match load_section(s, half) {
            Ok(section) => {
                let (report, half) = section.unzip();
                (panel_parts(report.as_ref(), s, ctx.lang, width), half)
            }
            Err(_) => previous.cloned().unwrap_or_else(|| (panel_parts(None, s, ctx.lang, width), None)),
        })
    });
    // Each part's inner HTML is set only when its text changed (tachys compares the strings).
    let part = move |f: fn(&PanelParts) -> &String| move || shown.with(|p| f(&p.0).clone());
    view! {
        <div class="panel load" id="load" node_ref=node>
            <h2>{ctx.lang.load().heading}</h2>
            <div inner_html=part(|p| &p.body)></div>
            <div inner_html=part(|p| &p.math)></div>
            <div class="chart load-chart" hidden=move || shown.with(|p| p.0.chart.is_empty()) inner_html=part(|p| &p.chart)></div>
        </div>
    }
}
