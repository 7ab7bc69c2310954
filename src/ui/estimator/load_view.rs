//! The "Under load" panel: one `inner_html` string from `crate::estimator::load_panel`, rebuilt
//! only when that string changes. The load model runs inside `evaluate` only while the scenario
//! sets an arrival rate (about 3–15 ms natively per evaluation, a few times that in wasm: the
//! estimator's own evaluation is already deferred to idle time, so slider moves stay smooth).

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
