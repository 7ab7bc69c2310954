//! The capacity planner (`#/{lang}/plan`): the source article's capacity-estimation flow as a
//! page. Do the weights fit; what else the GPU holds; how much context and concurrency the rest
//! allows; how to shard; and, last, the command lines that check the plan on real hardware.
//!
//! For each tensor-parallel degree of one node (1, 2, 4, 8) the engine sizes a replica (the
//! memory, the most sequences its KV cache holds) and the engine's serving-under-load model
//! gives its p95 latencies at a request rate. Latencies do not fall as load grows, so the highest
//! per-replica rate that meets both p95 targets is found by bisection between a light load (which
//! must meet them, or the degree cannot) and the replica's sustainable rate (where the queue stops
//! draining). Replicas = ⌈peak × (1 + headroom) ÷ that rate⌉; the plan is the degree with the
//! fewest GPUs (then the lowest cost, then the smaller degree: more replicas, the same GPUs).
//!
//! `state` is the URL form, `html` the page, `command` the serving-engine command lines; `load`
//! adapts the engine's load report. The search takes the load model as a function so that it
//! is tested on a queue whose answers are known in closed form.

pub mod command;
pub mod html;
pub mod load;
pub mod state;

use crate::catalog::{self, prices};
use crate::engine::hardware::GpuSpec;
use crate::engine::scenario::Mode;
use crate::engine::{EngineError, ModelSpec, Report, Scenario};
pub use load::LoadPoint;
use state::{PlanState, TP_DEGREES};

/// Hours of a month of continuous service (365 × 24 ÷ 12).
pub const HOURS_PER_MONTH: f64 = 730.0;
/// Bisection steps of the rate search: the rate meeting the targets is known to within
/// 2⁻¹² of the sustainable rate.
const BISECTIONS: u32 = 12;
/// The light load every degree must meet its targets at, as a share of its sustainable rate.
const LIGHT_LOAD: f64 = 0.02;
/// Points of the latency-against-load curve.
pub const CURVE_POINTS: usize = 16;

/// The engine scenario of one replica: `tp` GPUs in tensor parallel, at most `seqs` sequences.
pub fn scenario(s: &PlanState, tp: u64, seqs: u64) -> Scenario {
    let mut x = Scenario::new(ModelSpec::Id(s.model.clone()));
    x.mode = Mode::Inference;
    x.weight_dtype = Some(s.weights);
    x.kv_dtype = Some(s.kv);
    x.gpu = GpuSpec::Id(s.gpu.clone());
    x.gpus = tp;
    x.tensor_parallel = tp;
    x.context_tokens = s.prompt_tokens.saturating_add(s.output_tokens);
    x.prompt_tokens = Some(s.prompt_tokens);
    x.output_tokens = Some(s.output_tokens);
    x.batch = seqs;
    x
}

/// What stops a replica from taking more load.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Limit {
    /// The p95 time to first token passes its target.
    Ttft,
    /// The p95 time per output token passes its target.
    Tpot,
    /// Requests arrive faster than the replica finishes them: the queue grows without bound.
    Saturation,
}

/// Which target a load point misses first (`None`: it meets both and is stable).
pub fn missed(p: &LoadPoint, s: &PlanState) -> Option<Limit> {
    if !p.stable {
        return Some(Limit::Saturation);
    }
    match (p.ttft_p95_s, p.tpot_p95_s) {
        (Some(ttft), _) if ttft > s.ttft_p95_s => Some(Limit::Ttft),
        (_, Some(tpot)) if tpot * 1e3 > s.tpot_p95_ms => Some(Limit::Tpot),
        (Some(_), Some(_)) => None,
        _ => Some(Limit::Saturation),
    }
}

/// A replica that meets the targets, and the service built from it.
#[derive(Clone, Debug, PartialEq)]
pub struct Capacity {
    /// Concurrent sequences per replica: the reader's maximum, or fewer when the KV cache holds fewer.
    pub seqs: u64,
    /// Whether the KV cache (not the reader's maximum) sets `seqs`.
    pub kv_bound: bool,
    /// Requests per second one replica finishes at full load.
    pub sustainable_per_replica: f64,
    /// The highest rate per replica that meets both p95 targets.
    pub per_replica: f64,
    /// What breaks first past `per_replica`.
    pub limit: Limit,
    pub replicas: u64,
    pub gpus: u64,
    /// The load at planned peak (peak ÷ replicas per replica).
    pub at_peak: LoadPoint,
    /// USD per GPU-hour and where it comes from, when the catalog has a dated price.
    pub price: Option<(f64, String)>,
}

impl Capacity {
    /// USD per month of continuous service.
    pub fn cost_per_month(&self) -> Option<f64> {
        self.price.as_ref().map(|(p, _)| p * self.gpus as f64 * HOURS_PER_MONTH)
    }
}

/// What one tensor-parallel degree gives.
#[derive(Clone, Debug, PartialEq)]
pub enum Verdict {
    /// The engine refused the scenario at this degree (e.g. the heads do not divide).
    Engine(EngineError),
    /// Weights, runtime and one sequence need more than a GPU's usable memory.
    DoesNotFit {
        needed_bytes: u64,
        usable_bytes: u64,
    },
    /// Even at a light load a target is missed (`value` is the p95 there, seconds).
    Misses {
        limit: Limit,
        value: Option<f64>,
    },
    Meets(Capacity),
}

#[derive(Clone, Debug, PartialEq)]
pub struct Candidate {
    pub tp: u64,
    pub verdict: Verdict,
    /// The engine's report of one replica at `seqs` (or at one sequence when it does not fit).
    pub report: Option<Report>,
}

/// The whole plan.
#[derive(Clone, Debug, PartialEq)]
pub struct Plan {
    pub candidates: Vec<Candidate>,
    /// Index into `candidates` of the chosen degree.
    pub chosen: Option<usize>,
    /// The chosen replica's latencies from light load up to its sustainable rate.
    pub curve: Vec<LoadPoint>,
}

impl Plan {
    pub fn chosen(&self) -> Option<(&Candidate, &Capacity)> {
        let c = self.candidates.get(self.chosen?)?;
        match &c.verdict {
            Verdict::Meets(cap) => Some((c, cap)),
            _ => None,
        }
    }
}

/// The highest rate in `[light, sustainable)` meeting the targets, and what breaks past it.
fn search<F>(s: &PlanState, x: &Scenario, sustainable: f64, load: &F) -> Result<(f64, Limit), Verdict>
where
    F: Fn(&Scenario, f64) -> Result<LoadPoint, EngineError>,
{
    let light = sustainable * LIGHT_LOAD;
    let p = load(x, light).map_err(Verdict::Engine)?;
    if let Some(limit) = missed(&p, s) {
        let value = match limit {
            Limit::Ttft => p.ttft_p95_s,
            Limit::Tpot => p.tpot_p95_s,
            Limit::Saturation => None,
        };
        return Err(Verdict::Misses { limit, value });
    }
    let (mut lo, mut hi, mut limit) = (light, sustainable, Limit::Saturation);
    for _ in 0..BISECTIONS {
        let mid = 0.5 * (lo + hi);
        match missed(&load(x, mid).map_err(Verdict::Engine)?, s) {
            None => lo = mid,
            Some(l) => {
                hi = mid;
                limit = l;
            }
        }
    }
    Ok((lo, limit))
}

/// One degree's verdict.
fn candidate<F>(s: &PlanState, tp: u64, load: &F) -> Candidate
where
    F: Fn(&Scenario, f64) -> Result<LoadPoint, EngineError>,
{
    let one = match catalog::evaluate(&scenario(s, tp, 1)) {
        Ok(r) => r,
        Err(e) => return Candidate { tp, verdict: Verdict::Engine(e), report: None },
    };
    if !one.fits {
        let verdict = Verdict::DoesNotFit {
            needed_bytes: one.memory_per_gpu_bytes.total,
            usable_bytes: one.usable_gpu_memory_bytes,
        };
        return Candidate { tp, verdict, report: Some(one) };
    }
    let fit = one.solvers.max_batch.unwrap_or(1).max(1);
    let seqs = s.max_seqs.min(fit);
    let x = scenario(s, tp, seqs);
    let report = catalog::evaluate(&x).ok();
    let verdict = capacity(s, &x, seqs, seqs < s.max_seqs, load);
    Candidate { tp, verdict, report: report.or(Some(one)) }
}

fn capacity<F>(s: &PlanState, x: &Scenario, seqs: u64, kv_bound: bool, load: &F) -> Verdict
where
    F: Fn(&Scenario, f64) -> Result<LoadPoint, EngineError>,
{
    let sustainable = match load(x, 0.0) {
        Ok(p) if p.max_rate_per_s.is_finite() && p.max_rate_per_s > 0.0 => p.max_rate_per_s,
        Ok(_) => return Verdict::Misses { limit: Limit::Saturation, value: None },
        Err(e) => return Verdict::Engine(e),
    };
    let (per_replica, limit) = match search(s, x, sustainable, load) {
        Ok(v) => v,
        Err(v) => return v,
    };
    let target = s.peak_rate * (1.0 + s.headroom_pct / 100.0);
    let replicas = (target / per_replica).ceil().clamp(1.0, 1e9) as u64;
    let at_peak = match load(x, s.peak_rate / replicas as f64) {
        Ok(p) => p,
        Err(e) => return Verdict::Engine(e),
    };
    Verdict::Meets(Capacity {
        seqs,
        kv_bound,
        sustainable_per_replica: sustainable,
        per_replica,
        limit,
        replicas,
        gpus: replicas.saturating_mul(x.tensor_parallel),
        at_peak,
        price: prices::default_price_per_gpu_hour(&s.gpu),
    })
}

/// The plan for a state, with the load model `load` (the engine's: [`load::load_at`]).
pub fn plan_with<F>(s: &PlanState, load: &F) -> Plan
where
    F: Fn(&Scenario, f64) -> Result<LoadPoint, EngineError>,
{
    let candidates: Vec<Candidate> = TP_DEGREES.iter().map(|&tp| candidate(s, tp, load)).collect();
    let chosen = candidates
        .iter()
        .enumerate()
        .filter_map(|(i, c)| match &c.verdict {
            Verdict::Meets(cap) => Some((i, cap.gpus, cap.cost_per_month().unwrap_or(0.0), c.tp)),
            _ => None,
        })
        .min_by(|a, b| a.1.cmp(&b.1).then(a.2.total_cmp(&b.2)).then(a.3.cmp(&b.3)))
        .map(|(i, ..)| i);
    let curve = chosen
        .and_then(|i| candidates.get(i))
        .and_then(|c| match &c.verdict {
            Verdict::Meets(cap) => Some(curve(s, c.tp, cap, load)),
            _ => None,
        })
        .unwrap_or_default();
    Plan { candidates, chosen, curve }
}

/// The engine's plan.
pub fn plan(s: &PlanState) -> Plan {
    plan_with(s, &load::load_at)
}

/// Latencies of the chosen replica from light load to just under its sustainable rate.
fn curve<F>(s: &PlanState, tp: u64, cap: &Capacity, load: &F) -> Vec<LoadPoint>
where
    F: Fn(&Scenario, f64) -> Result<LoadPoint, EngineError>,
{
    let x = scenario(s, tp, cap.seqs);
    (1..=CURVE_POINTS)
        .filter_map(|i| {
            let share = 0.97 * i as f64 / CURVE_POINTS as f64;
            load(&x, cap.sustainable_per_replica * share).ok()
        })
        .collect()
}

#[cfg(test)]
mod tests;
