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
    let half = StoredValue::new(None::<LoadCurve>);
    let parts = Memo::new(move |previous: Option<&PanelParts>| {
        let near = near.get();
        // Out of view, or while the edited scenario does not evaluate (the rest of the page
        // keeps the last valid report too), the panel keeps what it shows.
        if let Some(p) = previous {
            if !near || ctx.with_result(Result::is_err) {
                return p.clone();
            }
        }
        ctx.with_scenario(|s| {
            let section = half.with_value(|h| load_section(s, h.as_ref()));
            match section {
                Ok(section) => {
                    let (report, kept) = section.unzip();
                    half.set_value(kept);
                    panel_parts(report.as_ref(), s, ctx.lang, width)
                }
                Err(_) => previous.cloned().unwrap_or_else(|| panel_parts(None, s, ctx.lang, width)),
            }
        })
    });
    let body = Memo::new(move |_| parts.with(|p| p.body.clone()));
    let math = Memo::new(move |_| parts.with(|p| p.math.clone()));
    let chart = Memo::new(move |_| parts.with(|p| p.chart.clone()));
    view! {
        <div class="panel load" id="load" node_ref=node>
            <h2>{ctx.lang.load().heading}</h2>
            <div inner_html=move || body.get()></div>
            <div inner_html=move || math.get()></div>
            <div class="chart load-chart" hidden=move || chart.with(String::is_empty) inner_html=move || chart.get()></div>
        </div>
    }
}
