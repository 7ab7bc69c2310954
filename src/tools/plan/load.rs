//! The engine's serving-under-load model, read at one request rate (or one number of users).
//!
//! [`Reusing`] is what [`super::plan`] searches with: it keeps each scenario's rate-independent
//! half of the load model (the saturated run and the latency curve, twelve simulations; the
//! engine's [`crate::engine::evaluate::load_with`]) and asks the engine again only for the run at
//! the new load (one simulation), with the same report as a fresh evaluation. A disaggregated
//! scenario's half (its two pools' saturated runs and their ten-point curve) is kept the same way:
//! a point after the first runs both pools once (two simulations; three over users).

use crate::catalog;
use crate::engine::perf::load::disagg::DisaggregatedReport;
use crate::engine::perf::load::{LoadCurve, LoadReport};
use crate::engine::{EngineError, Scenario};
use std::cell::{Cell, RefCell};

/// One replica at one arrival rate.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct LoadPoint {
    pub rate_per_s: f64,
    pub stable: bool,
    /// The highest rate the replica sustains (its queue still drains).
    pub max_rate_per_s: f64,
    /// Requests per second arriving ÷ the replica's sustainable rate (a closed loop: its
    /// completion rate ÷ that), a ratio of rates, not a share of time.
    pub utilization: f64,
    /// Requests per second the replica completes (Poisson: the arrival rate; a closed loop: the
    /// rate its users send at).
    pub completed_per_s: f64,
    /// Requests per second the replica completes with a full queue (the load model's sustainable
    /// rate, whichever the axis).
    pub sustainable_rate_per_s: f64,
    /// Share of wall time its GPUs run steps (at most 1; none when not stable).
    pub busy: Option<f64>,
    pub mean_concurrency: Option<f64>,
    /// Time to first token and time per output token at p50, p90, p95 and p99
    /// ([`super::state::Pct::ALL`]'s order).
    pub ttft_s: [Option<f64>; 4],
    pub tpot_s: [Option<f64>; 4],
    /// The engine's full decode step (`max_seqs` decodes) and the same step carrying one prompt
    /// chunk of `mixed_chunk_tokens` tokens, seconds (a disaggregated scenario: its decode
    /// pool's, whose steps carry no chunk but a prompt's last token).
    pub decode_step_s: f64,
    pub mixed_step_s: f64,
    pub mixed_chunk_tokens: u64,
    /// The two pools of a disaggregated scenario (none: aggregated).
    pub disaggregated: Option<DisaggregatedReport>,
}

impl LoadPoint {
    pub fn ttft(&self, p: super::state::Pct) -> Option<f64> {
        self.ttft_s.get(p as usize).copied().flatten()
    }
    pub fn tpot(&self, p: super::state::Pct) -> Option<f64> {
        self.tpot_s.get(p as usize).copied().flatten()
    }
}

/// The fields every load point reads alike from the engine's report.
fn point(l: &LoadReport) -> LoadPoint {
    LoadPoint {
        rate_per_s: l.arrival_rate_per_s,
        stable: l.stable,
        max_rate_per_s: l.max_sustainable_rate_per_s,
        utilization: l.utilization,
        completed_per_s: if l.stable { l.arrival_rate_per_s } else { l.max_sustainable_rate_per_s },
        sustainable_rate_per_s: l.max_sustainable_rate_per_s,
        busy: l.busy_fraction,
        mean_concurrency: l.mean_concurrency,
        ttft_s: [l.ttft_p50_s, l.ttft_p90_s, l.ttft_p95_s, l.ttft_p99_s],
        tpot_s: [l.tpot_p50_s, l.tpot_p90_s, l.tpot_p95_s, l.tpot_p99_s],
        decode_step_s: l.decode_step_s,
        mixed_step_s: l.mixed_step_s,
        mixed_chunk_tokens: l.mixed_chunk_tokens,
        disaggregated: l.disaggregated.clone(),
    }
}

/// `x` at `rate` requests per second (a rate of 0 asks for the sustainable rate only, read at
/// a light load).
fn at_rate(x: &Scenario, rate: f64) -> Scenario {
    let mut s = x.clone();
    s.arrival_rate_per_s = Some(if rate > 0.0 { rate } else { 1e-3 });
    s.concurrent_users = None;
    s
}

/// `x` with `users` users in a closed loop (rounded, at least 1).
fn with_users(x: &Scenario, users: f64) -> Scenario {
    let mut s = x.clone();
    s.concurrent_users = Some(users.round().max(1.0) as u64);
    s.arrival_rate_per_s = None;
    s
}

/// A closed loop read as a load point whose "rate" is the users: the planner's search then runs
/// over users. Always stable; its upper end (`max_rate_per_s`) is [`USERS_PER_SEQUENCE`] × the
/// sequences the deployment runs at once (`x.batch` per replica, at most what its KV cache
/// holds, × its replicas: a disaggregated unit's decode replicas).
fn from_users(l: &LoadReport, users: u64) -> LoadPoint {
    LoadPoint {
        rate_per_s: users as f64,
        stable: l.max_seqs > 0,
        max_rate_per_s: (l.max_seqs.saturating_mul(l.replicas.max(1))) as f64 * USERS_PER_SEQUENCE,
        completed_per_s: l.arrival_rate_per_s,
        ..point(l)
    }
}

/// The engine's load report for replica `x` at `rate` requests per second (a rate of 0 asks for
/// the sustainable rate only, read at a light load).
pub fn load_at(x: &Scenario, rate: f64) -> Result<LoadPoint, EngineError> {
    let Some(l) = catalog::evaluate(&at_rate(x, rate))?.load else { return Ok(LoadPoint::default()) };
    Ok(point(&l))
}

/// Users in a closed loop a replica's search goes up to, as a multiple of the sequences it runs
/// at once: past them users only wait for a slot, and at this many most of them do.
pub const USERS_PER_SEQUENCE: f64 = 4.0;

/// The engine's closed loop for replica `x` at `users` users (rounded, at least 1), read as a
/// load point whose "rate" is the users: the planner's search then runs over users. Always
/// stable; its upper end (`max_rate_per_s`) is [`USERS_PER_SEQUENCE`] × the replica's
/// sequences (`x.batch`, at most what its KV cache holds).
pub fn users_at(x: &Scenario, users: f64) -> Result<LoadPoint, EngineError> {
    let s = with_users(x, users);
    let Some(l) = catalog::evaluate(&s)?.load else { return Ok(LoadPoint::default()) };
    Ok(from_users(&l, s.concurrent_users.unwrap_or(1)))
}

/// Rate-independent halves kept at most (a plan asks for a few layouts; the oldest goes first).
const KEPT_HALVES: usize = 12;

/// The engine's load model with each scenario's rate-independent half kept between calls (the
/// module doc): [`load_at`] and [`users_at`] at a fraction of the work, the same answers.
/// It counts the points it was asked for and the simulations they ran (see [`Reusing::work`]).
#[derive(Debug, Default)]
pub struct Reusing {
    /// The scenario without its load, whether the load was users, and the engine's half.
    halves: RefCell<Vec<(Scenario, bool, LoadCurve)>>,
    points: Cell<u64>,
    simulations: Cell<u64>,
}

/// Simulations of a fresh half (the saturated run and ten curve points) and of one run.
const HALF_SIMULATIONS: u64 = 11;

impl Reusing {
    fn report(&self, s: &Scenario) -> Result<Option<LoadReport>, EngineError> {
        let users = s.concurrent_users.is_some();
        let mut key = s.clone();
        key.arrival_rate_per_s = None;
        key.concurrent_users = None;
        let mut halves = self.halves.borrow_mut();
        let at = halves.iter().position(|(k, u, _)| *u == users && *k == key);
        let previous = at.and_then(|i| halves.get(i)).map(|(_, _, h)| h);
        let out = crate::engine::evaluate::load_with(s, &catalog::Catalog, previous)?;
        self.points.set(self.points.get() + 1);
        // One run, and a half when none was kept; a disaggregated point runs both pools, a
        // closed loop of them three runs.
        let fresh = at.is_none();
        let (runs, half) = match (s.prefill_workers > 0, users) {
            (true, false) => (2, if fresh { 2 * HALF_SIMULATIONS } else { 0 }),
            (true, true) => (3, if fresh { 3 * 10 + 2 } else { 0 }),
            (false, _) => (1, if fresh { HALF_SIMULATIONS } else { 0 }),
        };
        self.simulations.set(self.simulations.get() + runs + half);
        let Some((report, h)) = out else { return Ok(None) };
        if at.is_none() {
            if halves.len() >= KEPT_HALVES {
                halves.remove(0);
            }
            halves.push((key, users, h));
        }
        Ok(Some(report))
    }

    /// [`load_at`], reusing.
    pub fn rate(&self, x: &Scenario, rate: f64) -> Result<LoadPoint, EngineError> {
        Ok(self.report(&at_rate(x, rate))?.map_or_else(LoadPoint::default, |l| point(&l)))
    }

    /// [`users_at`], reusing.
    pub fn users(&self, x: &Scenario, users: f64) -> Result<LoadPoint, EngineError> {
        let s = with_users(x, users);
        let u = s.concurrent_users.unwrap_or(1);
        Ok(self.report(&s)?.map_or_else(LoadPoint::default, |l| from_users(&l, u)))
    }

    /// The load points asked for so far, and about how many scheduler simulations they ran
    /// (an aggregated point: one, plus eleven for a half not kept; a disaggregated one: two, plus
    /// its two pools' halves, 22, when not kept; over users three runs, plus 32).
    pub fn work(&self) -> (u64, u64) {
        (self.points.get(), self.simulations.get())
    }
}
