//! The estimator page (`#/{lang}/estimate`): controls edit one Scenario (two in compare mode),
//! the engine turns it into a Report, and the views show it. The state lives in the URL hash
//! (replaced in place, so sliders never re-route) and in localStorage.

mod charts_view;
mod controls;
mod io;
mod math;
mod memory_view;
mod model_picker;
mod numbers;
mod panels;
mod perf_view;
pub mod widget;

use crate::catalog::evaluate;
use crate::engine::{EngineError, Report, Scenario};
use crate::estimator::state::{self, EstimatorState, Notice};
use crate::i18n::Lang;
use leptos::prelude::*;

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
    pub report_a: Memo<Result<Report, EngineError>>,
    pub report_b: Memo<Option<Result<Report, EngineError>>>,
    /// The last report that evaluated, per side, so an invalid edit never blanks the page.
    pub shown_a: Memo<Option<Report>>,
    pub shown_b: Memo<Option<Report>>,
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

    /// The active side's evaluation (tracked).
    pub fn result(&self) -> Result<Report, EngineError> {
        match self.active_side() {
            Side::B => self.report_b.get().unwrap_or_else(|| self.report_a.get()),
            Side::A => self.report_a.get(),
        }
    }

    /// The active side's last valid report (tracked).
    pub fn shown(&self) -> Option<Report> {
        match self.active_side() {
            Side::B => self.shown_b.get(),
            Side::A => self.shown_a.get(),
        }
    }

    /// Reads the active side's last valid report without copying it (tracked): for the many
    /// small reads each slider move triggers.
    pub fn with_shown<R>(&self, f: impl FnOnce(Option<&Report>) -> R) -> R {
        match self.active_side() {
            Side::B => self.shown_b.with(|r| f(r.as_ref())),
            Side::A => self.shown_a.with(|r| f(r.as_ref())),
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
        let report_a = Memo::new(move |_| state.with(|s| evaluate(&s.scenario)));
        let report_b = Memo::new(move |_| state.with(|s| s.compare.as_ref().map(evaluate)));
        let shown_a = Memo::new(move |prev: Option<&Option<Report>>| match report_a.get() {
            Ok(r) => Some(r),
            Err(_) => prev.cloned().flatten(),
        });
        let shown_b = Memo::new(move |prev: Option<&Option<Report>>| match report_b.get() {
            Some(Ok(r)) => Some(r),
            Some(Err(_)) => prev.cloned().flatten(),
            None => None,
        });
        let ctx = Ctx { lang, state, side, report_a, report_b, shown_a, shown_b, notices };
        provide_context(ctx);
        ctx
    }
}

/// Reads the state: the hash's query, else the last state saved in this browser.
fn initial_state() -> (EstimatorState, Vec<Notice>) {
    let hash = super::browser::current_hash();
    let query = hash.split_once('?').map(|(_, q)| q.to_owned()).unwrap_or_default();
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

#[component]
pub fn EstimatorPage(lang: Lang) -> impl IntoView {
    let (initial, initial_notices) = initial_state();
    let ctx = Ctx::provide(lang, initial, initial_notices);
    let state = ctx.state;

    // Keep the URL and the saved state in step with every change (no new history entries).
    Effect::new(move |_| {
        let query = state.with(state::encode);
        super::browser::replace_hash(&format!("#/{}/estimate?{query}", lang.code()));
        super::browser::save_estimator_state(&query);
    });

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
                    <panels::TrainingControls />
                    <panels::EfficiencyControls />
                    <panels::AssumptionControls />
                </section>
                <section class="est-results" aria-live="polite">
                    <panels::InvalidBanner />
                    <memory_view::MemoryView />
                    <perf_view::PerformanceView />
                    <charts_view::Charts />
                    <numbers::KeyNumbers />
                    <panels::Compare />
                </section>
            </div>
            <memory_view::StickySummary />
        </article>
    }
}
