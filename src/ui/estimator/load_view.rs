//! The "Under load" panel: one `inner_html` string from `crate::estimator::load_panel`, rebuilt
//! only when that string changes. The load model runs inside `evaluate` only while the scenario
//! sets an arrival rate: then every edit costs its twelve simulations (5-20 ms natively, 20-140 ms
//! in the browser on a busy machine, README "Benchmark"), not cached or debounced.

use super::Ctx;
use crate::estimator::load_panel::panel_html;
use leptos::prelude::*;

#[component]
pub fn LoadView() -> impl IntoView {
    let ctx = expect_context::<Ctx>();
    let width = crate::ui::browser::chart_width();
    let html = Memo::new(move |_| {
        let s = ctx.with_scenario(Clone::clone);
        ctx.with_shown(|r| panel_html(r, &s, ctx.lang, width))
    });
    view! { <div class="panel load" id="load" inner_html=move || html.get()></div> }
}
