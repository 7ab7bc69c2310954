//! The engine's serving-under-load model, read at one request rate.

use crate::catalog;
use crate::engine::{EngineError, Scenario};

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
}

impl LoadPoint {
    pub fn ttft(&self, p: super::state::Pct) -> Option<f64> {
        self.ttft_s.get(p as usize).copied().flatten()
    }
    pub fn tpot(&self, p: super::state::Pct) -> Option<f64> {
        self.tpot_s.get(p as usize).copied().flatten()
    }
}

/// The engine's load report for replica `x` at `rate` requests per second (a rate of 0 asks for
/// the sustainable rate only, read at a light load).
pub fn load_at(x: &Scenario, rate: f64) -> Result<LoadPoint, EngineError> {
    let mut s = x.clone();
    s.arrival_rate_per_s = Some(if rate > 0.0 { rate } else { 1e-3 });
    let Some(l) = catalog::evaluate(&s)?.load else { return Ok(LoadPoint::default()) };
    Ok(LoadPoint {
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
    })
}

/// Users in a closed loop a replica's search goes up to, as a multiple of the sequences it runs
/// at once: past them users only wait for a slot, and at this many most of them do.
pub const USERS_PER_SEQUENCE: f64 = 4.0;

/// The engine's closed loop for replica `x` at `users` users (rounded, at least 1), read as a
/// load point whose "rate" is the users: the planner's search then runs over users. Always
/// stable; its upper end (`max_rate_per_s`) is [`USERS_PER_SEQUENCE`] × the replica's
/// sequences (`x.batch`, at most what its KV cache holds).
pub fn users_at(x: &Scenario, users: f64) -> Result<LoadPoint, EngineError> {
    let mut s = x.clone();
    let u = users.round().max(1.0) as u64;
    s.concurrent_users = Some(u);
    s.arrival_rate_per_s = None;
    let Some(l) = catalog::evaluate(&s)?.load else { return Ok(LoadPoint::default()) };
    Ok(LoadPoint {
        rate_per_s: u as f64,
        stable: l.max_seqs > 0,
        max_rate_per_s: l.max_seqs as f64 * USERS_PER_SEQUENCE,
        utilization: l.utilization,
        completed_per_s: l.arrival_rate_per_s,
        sustainable_rate_per_s: l.max_sustainable_rate_per_s,
        busy: l.busy_fraction,
        mean_concurrency: l.mean_concurrency,
        ttft_s: [l.ttft_p50_s, l.ttft_p90_s, l.ttft_p95_s, l.ttft_p99_s],
        tpot_s: [l.tpot_p50_s, l.tpot_p90_s, l.tpot_p95_s, l.tpot_p99_s],
    })
}
