//! The estimator page (`{lang}/estimate/`): controls edit one Scenario (two in compare mode),
//! the engine turns it into a Report, and the views show it. The state lives in the page's
//! query (replaced in place, so sliders never add history entries) and in localStorage.

mod charts_view;
mod controls;
mod gguf_drop;
mod io;
mod load_view;
mod math;
mod memory_view;
mod model_picker;
mod numbers;
mod offload_view;
mod panels;
mod perf_view;
mod training_panel;
pub mod widget;

// The page's evaluation leaves the `load` section out: the Under load panel asks for it apart.
use crate::engine::{EngineError, Report, Scenario};
use crate::estimator::load_panel::evaluate_without_load as evaluate;
use crate::estimator::state::{self, EstimatorState, Notice};
use crate::i18n::Lang;
use leptos::prelude::*;
use std::sync::Arc;

/// Which scenario the controls edit.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Side {
    A,
    B,
}

/// Everything the estimator's components share (all `Copy`).
#[derive(Clone, Copy)]
pub struct Ctx {
    pub lang: Lang,
    pub state: RwSignal<EstimatorState>,
    pub side: RwSignal<Side>,
    pub report_a: Memo<Result<Arc<Report>, EngineError>>,
    pub report_b: Memo<Option<Result<Arc<Report>, EngineError>>>,
    /// The last report that evaluated, per side, so an invalid edit never blanks the page. It
    /// shares the evaluation's report (an `Arc`): a slider move clones no report.
    pub shown_a: Memo<Option<Arc<Report>>>,
    pub shown_b: Memo<Option<Arc<Report>>>,
    pub notices: RwSignal<Vec<Notice>>,
}

impl Ctx {
    fn active_side(&self) -> Side {
        if self.state.with(|s| s.compare.is_some()) {
            self.side.get()
        } else {
            Side::A
        }
    }

    /// Reads the scenario the controls edit (tracked).
    pub fn with_scenario<R>(&self, f: impl FnOnce(&Scenario) -> R) -> R {
        let side = self.active_side();
        self.state.with(|st| match (side, &st.compare) {
            (Side::B, Some(c)) => f(c),
            _ => f(&st.scenario),
        })
    }

    /// Changes the scenario the controls edit.
    pub fn edit(&self, f: impl FnOnce(&mut Scenario)) {
        let side = self.active_side();
        self.state.update(|st| match (side, st.compare.as_mut()) {
            (Side::B, Some(c)) => f(c),
            _ => f(&mut st.scenario),
        });
    }

    /// Reads the active side's evaluation without copying it (tracked).
    pub fn with_result<R>(&self, f: impl FnOnce(&Result<Arc<Report>, EngineError>) -> R) -> R {
        match self.active_side() {
            Side::B => self.report_b.with(|b| match b {
                Some(r) => f(r),
                None => self.report_a.with(f),
            }),
            Side::A => self.report_a.with(f),
        }
    }

    /// Reads the active side's last valid report without copying it (tracked): for the many
    /// small reads each slider move triggers.
    pub fn with_shown<R>(&self, f: impl FnOnce(Option<&Report>) -> R) -> R {
        match self.active_side() {
            Side::B => self.shown_b.with(|r| f(r.as_deref())),
            Side::A => self.shown_a.with(|r| f(r.as_deref())),
        }
    }

    pub fn unit(&self) -> crate::charts::format::ByteUnit {
        self.state.with(|s| s.unit)
    }

    /// Creates the signals and memos for one estimator (the page, or a chapter widget) and
    /// provides them to the components below.
    pub fn provide(lang: Lang, initial: EstimatorState, notices: Vec<Notice>) -> Ctx {
        let state = RwSignal::new(initial);
        let side = RwSignal::new(Side::A);
        let notices = RwSignal::new(notices);
        // Every evaluation is a changed report, without comparing two reports field by field (a
        // derived `Report` equality is 5 KB of wasm, a `Scenario` one 2.7 KB). The state changes
        // otherwise only with the unit (which redraws the numbers anyway) and, in compare mode,
        // with the other side's edits (one more evaluation).
        let report_a = Memo::new_with_compare(
            move |_| state.with(|s| evaluate(&s.scenario).map(Arc::new)),
            |_: Option<&Result<Arc<Report>, EngineError>>, _: Option<&Result<Arc<Report>, EngineError>>| true,
        );
        let report_b = Memo::new_with_compare(
            move |_| state.with(|s| s.compare.as_ref().map(|c| evaluate(c).map(Arc::new))),
            |a: Option<&Option<Result<Arc<Report>, EngineError>>>,
             b: Option<&Option<Result<Arc<Report>, EngineError>>>| {
                !matches!((a, b), (Some(None), Some(None)))
            },
        );
        // A new `Arc` is a changed report.
        let changed = |a: Option<&Option<Arc<Report>>>, b: Option<&Option<Arc<Report>>>| match (a, b) {
            (Some(Some(a)), Some(Some(b))) => !Arc::ptr_eq(a, b),
            (Some(None), Some(None)) => false,
            _ => true,
        };
        let shown_a = Memo::new_with_compare(
            move |prev: Option<&Option<Arc<Report>>>| match report_a.with(|r| r.as_ref().ok().cloned()) {
                Some(r) => Some(r),
                None => prev.cloned().flatten(),
            },
            changed,
        );
        let shown_b = Memo::new_with_compare(
            move |prev: Option<&Option<Arc<Report>>>| {
                report_b.with(|r| match r {
                    Some(Ok(r)) => Some(r.clone()),
                    Some(Err(_)) => prev.cloned().flatten(),
                    None => None,
                })
            },
            changed,
        );
        let ctx = Ctx { lang, state, side, report_a, report_b, shown_a, shown_b, notices };
        provide_context(ctx);
        ctx
    }
}

/// Reads the state: the hash's query, else the last state saved in this browser.
fn initial_state() -> (EstimatorState, Vec<Notice>) {
    let query = super::browser::page_query();
    if !query.is_empty() {
        return state::decode(&query);
    }
    match super::browser::saved_estimator_state() {
        Some(saved) => {
            let (st, notices) = state::decode(&saved);
            // A damaged saved state is reported the same way, under its own name.
            let notices =
                notices.into_iter().map(|n| Notice { field: format!("saved:{}", n.field), ..n }).collect();
            (st, notices)
        }
        None => (EstimatorState::default(), Vec::new()),
    }
}

/// How long the edits must pause before the state is written to the URL and localStorage.
const PERSIST_AFTER: std::time::Duration = std::time::Duration::from_millis(250);

/// Keeps the URL (no new history entries) and the saved state in step with the edits, once they
/// pause. `history.replaceState` costs milliseconds in Chromium (a same-document navigation
/// through the browser process), which a slider drag paid on every move. A pending write is
/// done at once on any pointer press and on Enter/Space (before a link or the language switch
/// reads the live hash) and when the page is hidden; when the page unmounts (a route change: the
/// hash is no longer the estimator's) only localStorage gets it.
fn persist_when_idle(state: RwSignal<EstimatorState>) {
    use leptos::leptos_dom::helpers::{set_timeout_with_handle, TimeoutHandle};
    let timer = StoredValue::new(None::<TimeoutHandle>);
    let write = move || {
        let query = state.with_untracked(state::encode);
        super::browser::replace_query(&query);
        super::browser::save_estimator_state(&query);
    };
    // Writes now if a write is pending.
    let flush = move || {
        if let Some(h) = timer.try_update_value(Option::take).flatten() {
            h.clear();
            write();
        }
    };
    let arm = move || match set_timeout_with_handle(flush, PERSIST_AFTER) {
        Ok(h) => {
            timer.try_update_value(|t| *t = Some(h));
        }
        Err(_) => write(),
    };
    Effect::new(move |prev: Option<()>| {
        state.track();
        if let Some(h) = timer.try_update_value(Option::take).flatten() {
            h.clear();
        }
        // The state as loaded is written too (a saved state gets its link, a damaged link is
        // replaced), but not before the first paint: a slow load would pay for it up front.
        if prev.is_none() {
            request_animation_frame(arm);
        } else {
            arm();
        }
    });
    let press = window_event_listener(leptos::ev::pointerdown, move |_| flush());
    let key = window_event_listener(leptos::ev::keydown, move |ev| {
        if matches!(ev.key().as_str(), "Enter" | " ") {
            flush();
        }
    });
    let hide = window_event_listener(leptos::ev::pagehide, move |_| flush());
    on_cleanup(move || {
        if let Some(h) = timer.try_update_value(Option::take).flatten() {
            h.clear();
            // The route has already changed: keep the edit in storage, leave the new hash alone.
            if let Some(query) = state.try_with_untracked(state::encode) {
                super::browser::save_estimator_state(&query);
            }
        }
        press.remove();
        key.remove();
        hide.remove();
    });
}

#[component]
pub fn EstimatorPage(lang: Lang) -> impl IntoView {
    let (initial, initial_notices) = initial_state();
    let ctx = Ctx::provide(lang, initial, initial_notices);
    let state = ctx.state;

    persist_when_idle(state);

    let e = lang.est();
    view! {
        <article class="estimator" data-page="estimate">
            <h1>{e.title}</h1>
            <p class="lead">{e.intro}</p>
            <io::Notices />
            <panels::Toolbar />
            <div class="est-grid">
                <section class="est-controls" aria-label=e.workload>
                    <model_picker::ModelPicker />
                    <panels::WorkloadControls />
                    <panels::HardwareControls />
                    <offload_view::OffloadControls />
                    <training_panel::TrainingControls />
                    <training_panel::ScheduleControls />
                    <panels::EfficiencyControls />
                    <panels::AssumptionControls />
                </section>
                <section class="est-results" aria-live="polite">
                    <panels::InvalidBanner />
                    <memory_view::MemoryView />
                    <perf_view::PerformanceView />
                    <load_view::LoadView />
                    <charts_view::Charts />
                    <numbers::KeyNumbers />
                    <panels::Compare />
                </section>
            </div>
            <memory_view::StickySummary />
        </article>
    }
}
