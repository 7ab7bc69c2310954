//! The four charts, each a pure SVG string from `crate::charts`. What a chart is drawn from is
//! its own small input struct (`crate::estimator::chart_inputs`) held in a `Memo`: the SVG is
//! built only when that input changes, not on every edit of the scenario, and neither is computed
//! while the chart is far from the viewport.

use super::Ctx;
use crate::charts;
use crate::estimator::chart_inputs::{
    bound_chart, kv_chart, roofline_chart, scaling_chart, speculation_chart,
};
use leptos::prelude::*;
use wasm_bindgen::JsCast;

/// Whether `node` is within half a screen of the viewport (a signal; true where the browser has
/// no IntersectionObserver). Charts far below the fold are built when the reader scrolls near
/// them, not on every edit of a slider at the top of the page.
pub(super) fn near_viewport<E>(node: NodeRef<E>) -> ReadSignal<bool>
where
    E: leptos::html::ElementType,
    E::Output: JsCast + Clone + 'static,
{
    // Prerendering: every chart is drawn into the page.
    #[cfg(not(target_arch = "wasm32"))]
    {
        let _ = node;
        signal(true).0
    }
    #[cfg(target_arch = "wasm32")]
    observed(node)
}

#[cfg(target_arch = "wasm32")]
fn observed<E>(node: NodeRef<E>) -> ReadSignal<bool>
where
    E: leptos::html::ElementType,
    E::Output: JsCast + Clone + 'static,
{
    use wasm_bindgen::closure::Closure;
    use web_sys::{IntersectionObserver, IntersectionObserverEntry, IntersectionObserverInit};
    let (near, set_near) = signal(false);
    let callback =
        Closure::<dyn FnMut(web_sys::js_sys::Array)>::new(move |entries: web_sys::js_sys::Array| {
            if let Some(entry) = entries.iter().last() {
                set_near.set(entry.unchecked_into::<IntersectionObserverEntry>().is_intersecting());
            }
        });
    let init = IntersectionObserverInit::new();
    init.set_root_margin("50% 0px");
    let observer = IntersectionObserver::new_with_options(callback.as_ref().unchecked_ref(), &init).ok();
    if observer.is_none() {
        set_near.set(true);
    }
    let observer = StoredValue::new_local(observer);
    let callback = StoredValue::new_local(Some(callback));
    Effect::new(move |_| {
        if let Some(el) = node.get() {
            observer.with_value(|o| o.iter().for_each(|o| o.observe(el.unchecked_ref())));
        }
    });
    on_cleanup(move || {
        observer.with_value(|o| o.iter().for_each(IntersectionObserver::disconnect));
        callback.update_value(|c| *c = None);
    });
    near
}

/// A chart whose SVG is built by `svg` from what `input` reads off the report: after its first
/// drawing, the input is read only while the figure is near the viewport (out of view neither it nor the SVG is computed on
/// an edit: the figure keeps its last SVG, and builds the current one when the reader scrolls to
/// it), and the SVG is built only when the input changes. The SVG is set as the figure's inner
/// HTML: every text in it is XML-escaped by `crate::charts`.
///
/// In the browser the first drawing is made at once, and a redrawing after an edit waits for the
/// frame that shows the edit's numbers (`after_paint`): a chart is the slowest part of an edit,
/// and the reader's key press or drag is answered on screen first (interaction to next paint).
/// Edits that come faster than drawings are drawn once, the latest.
fn figure<T>(
    id: &'static str,
    input: impl Fn() -> Option<T> + Send + Sync + 'static,
    svg: fn(&T, u32) -> String,
) -> impl IntoView
where
    T: Clone + PartialEq + Send + Sync + 'static,
{
    let width = crate::ui::browser::chart_width();
    let node = NodeRef::<leptos::html::Figure>::new();
    let near = near_viewport(node);
    let input = Memo::new(move |previous: Option<&Option<T>>| {
        // The first drawing is made wherever the chart is: it takes the place of the
        // prerendered one, and a chart drawn only on reaching the view would move the page.
        if near.get() || previous.is_none() {
            input()
        } else {
            previous.cloned().flatten()
        }
    });
    #[cfg(not(target_arch = "wasm32"))]
    {
        // Prerendering: drawn into the page's markup.
        let html = input.with_untracked(|i| i.as_ref().map(|i| svg(i, width)).unwrap_or_default());
        view! { <figure class="chart" id=id node_ref=node inner_html=html></figure> }
    }
    #[cfg(target_arch = "wasm32")]
    {
        let drawn = StoredValue::new(false);
        let latest = StoredValue::new(0u32);
        Effect::new(move |_| {
            let Some(current) = input.get() else { return };
            let draw = move |current: &T| {
                if let Some(el) = node.get_untracked() {
                    el.set_inner_html(&svg(current, width));
                }
            };
            if !drawn.get_value() {
                drawn.set_value(true);
                draw(&current);
                return;
            }
            latest.update_value(|n| *n = n.wrapping_add(1));
            let mine = latest.get_value();
            crate::ui::browser::after_paint(move || {
                if latest.try_get_value() == Some(mine) {
                    draw(&current);
                }
            });
        });
        view! { <figure class="chart" id=id node_ref=node></figure> }
    }
}

#[component]
pub fn BoundChart() -> impl IntoView {
    let ctx = expect_context::<Ctx>();
    let e = ctx.lang.est();
    let input = move || ctx.with_shown(|r| r.map(|r| bound_chart(r, e)));
    figure("chart-bound", input, charts::bound_bars_svg)
}

#[component]
pub fn RooflineChart() -> impl IntoView {
    let ctx = expect_context::<Ctx>();
    let e = ctx.lang.est();
    let input = move || ctx.with_shown(|r| r.map(|r| roofline_chart(r, e, ctx.lang)));
    figure("chart-roofline", input, charts::roofline_svg)
}

#[component]
pub fn ScalingChart() -> impl IntoView {
    let ctx = expect_context::<Ctx>();
    let e = ctx.lang.est();
    let input = move || ctx.with_shown(|r| r.map(|r| scaling_chart(r, e, ctx.lang)));
    figure("chart-scaling", input, charts::scaling_svg)
}

#[component]
pub fn KvChart() -> impl IntoView {
    let ctx = expect_context::<Ctx>();
    let e = ctx.lang.est();
    let input = move || {
        let unit = ctx.unit();
        ctx.with_shown(|r| r.map(|r| ctx.with_scenario(|s| kv_chart(s, r, unit, e))))
    };
    figure("chart-kv", input, charts::kv_growth_svg)
}

/// Tokens/s per user and per GPU with and without speculative decoding against batch (drawn only
/// when the scenario speculates).
#[component]
pub fn SpeculationChart() -> impl IntoView {
    let ctx = expect_context::<Ctx>();
    let e = ctx.lang.est();
    let input = move || ctx.with_shown(|r| r.and_then(|r| speculation_chart(r, e)));
    figure("chart-speculation", input, charts::speculation_svg)
}

/// Under the scaling chart: which tensor-parallel degrees it draws (those the engine accepts)
/// and where communication takes over among them.
#[component]
pub fn ScalingNote() -> impl IntoView {
    let ctx = expect_context::<Ctx>();
    let e = ctx.lang.est();
    let text = Memo::new(move |_| {
        ctx.with_shown(|r| {
            r.map(|r| {
                let sc = &r.performance.scaling;
                let sep = if ctx.lang == crate::i18n::Lang::Zh { "、" } else { ", " };
                let degrees: Vec<String> = sc.tensor.iter().map(|p| p.gpus.to_string()).collect();
                let (a, b, c, never) = e.scaling_tp;
                match sc.communication_dominates_from.tensor {
                    Some(n) => format!("{a}{}{b}{n}{c}", degrees.join(sep)),
                    None => format!("{a}{}{never}", degrees.join(sep)),
                }
            })
            .unwrap_or_default()
        })
    });
    view! {
        <p class="hint" id="scaling-tp">{e.scaling_note} " " {move || text.get()}</p>
    }
}

/// The charts, for the estimator page (the speculation chart only when the scenario speculates).
#[component]
pub fn Charts() -> impl IntoView {
    let e = expect_context::<Ctx>().lang.est();
    view! {
        <div class="panel charts" id="charts">
            <h2>{e.charts}</h2>
            <BoundChart />
            <RooflineChart />
            <KvChart />
            <SpeculationChart />
            <ScalingChart />
            <ScalingNote />
        </div>
    }
}
