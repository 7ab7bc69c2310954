//! The plan beside a disaggregated prefill/decode deployment under the same targets
//! (DistServe: Zhong et al., OSDI 2024; Splitwise: Patel et al., ISCA 2024), as the engine models
//! it (`src/engine/perf/load/disagg.rs`: a scenario with `prefill_workers` > 0).
//!
//! A *unit* is `P` prefill workers and `D` decode workers, every worker at the aggregated
//! plan's tensor-parallel degree (the same replica split by role, so that the comparison is of
//! the split alone; a prefill worker of another degree is the engine's
//! `prefill_tensor_parallel`, not searched here, to keep the search bounded). Its highest load
//! meeting both targets at their percentiles is found by the aggregated search's own bisection
//! ([`super::capacity`]), from the engine's `load` section of the whole unit (its percentiles,
//! its sustainable rate: the slower pool's); units = ⌈peak ÷ ((1 − headroom) × that)⌉ and
//! GPUs = units × (P + D) × TP. Several units are one deployment of `units × P` prefill and
//! `units × D` decode workers behind one proxy: with Poisson arrivals split evenly, each worker
//! sees the same load either way.
//!
//! Only a replica within one node is split: a prefill worker runs one pipeline stage, and a
//! worker across nodes would need its own multi-node launch.
//!
//! Work: one probe of a 1:1 unit at a light load gives each pool's sustainable rate per worker
//! (`μp`, `μd`; a pool of `n` workers sustains `n` times as much) and checks the targets there
//! (a lone request's latencies do not depend on how many workers wait idle). For each ratio it
//! gives the fewest GPUs its units could need at their sustainable rate `min(P·μp, D·μd)` (a
//! lower bound: a unit within its targets carries no more). The search starts at the ratio with
//! the lowest bound (then the most requests per GPU at saturation: the balanced pools) and walks
//! along the ratios, ordered by P ÷ D, toward the pool that broke first (the time to first
//! token or the prefill pool's throughput: one more prefill worker per decode worker; the time
//! per output token or the decode pool's: the other way), each step the aggregated search's 7
//! bisections, one exact check and one point at peak. It stops when the next ratio's bound
//! exceeds the best found, when it would turn back to a ratio already searched (the best lies
//! between), or after [`SEARCHED`] ratios ([`SEARCHED_USERS`] over users).

use super::state::{Pd, PlanState, GPUS_PER_NODE};
use super::{capacity, demand, floor_gpus, kept, missed, Candidate, Capacity, Layout, Limit, LoadPoint};
use super::{Ready, Verdict, LIGHT_LOAD};
use crate::engine::{EngineError, Scenario};

/// The prefill:decode ratios of a unit: one worker of one role and one to four of the other.
/// The ratio that balances the two pools' sustainable rates (`P/D = μd/μp`) wastes no GPU at
/// saturation, and the targets move the best ratio away from it (a tight TPOT runs the decode
/// pool below saturation: more decode workers; a tight TTFT runs the prefill pool below it: more
/// prefill workers), so the set is the small ratios on both sides of 1:1. With the engine as it
/// stands, Llama 3.1 70B at TP 8 with 4,096-token prompts and 512-token outputs balances near
/// 2:1 (a prefill worker sustains about 5.3 requests/s, a decode worker 11.5), the default
/// service (8B, 1,024 + 256 tokens) near 1:1. A unit stays at most five workers, so that units
/// round a small service up by at most one small unit. Past 1:4 lie very short prompts (8B with
/// 128-token prompts and 512-token outputs: a prefill worker sustains about eleven times a
/// decode worker's rate): there even 1:4 idles most of its prefill GPU, which is the page's answer
/// (a prefill pool does not pay for itself), not a ratio to add.
pub const RATIOS: [(u64, u64); 7] = [(1, 1), (1, 2), (2, 1), (1, 3), (3, 1), (1, 4), (4, 1)];

/// Ratios searched at most over a rate: a search costs about ten disaggregated load points, each
/// two pools' worth of simulations and the engine's curve.
pub const SEARCHED: usize = 3;
/// Ratios searched at most over users: a closed loop of two pools is three runs, and the search
/// over users also bisects for the users within the headroom (about sixteen points a ratio).
pub const SEARCHED_USERS: usize = 2;

/// `P` prefill workers and `D` decode workers of `tp` GPUs each.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Unit {
    pub tp: u64,
    pub prefill: u64,
    pub decode: u64,
}

impl Unit {
    pub fn gpus(self) -> u64 {
        self.prefill.saturating_add(self.decode).saturating_mul(self.tp)
    }

    /// Nodes of [`GPUS_PER_NODE`] GPUs one unit fills.
    pub fn nodes(self) -> u64 {
        self.gpus().div_ceil(GPUS_PER_NODE).max(1)
    }

    /// `P:D`.
    pub fn ratio(self) -> String {
        format!("{}:{}", self.prefill, self.decode)
    }
}

/// The engine scenario of one unit: the decode pool is the scenario's own layout (`D × tp`
/// GPUs, `seqs` sequences per decode worker), beside `P` prefill workers of `tp` GPUs.
pub fn scenario(s: &PlanState, unit: Unit, seqs: u64) -> Scenario {
    let mut x = super::scenario_at(s, Layout::tp(unit.tp), seqs);
    x.gpus = unit.decode.saturating_mul(unit.tp);
    x.prefill_workers = unit.prefill;
    x.prefill_tensor_parallel = Some(unit.tp);
    x
}

/// One ratio and what it gives (`Meets`: its capacity, whose `replicas` are units and `gpus`
/// all their GPUs).
#[derive(Clone, Debug, PartialEq)]
pub struct UnitCandidate {
    pub unit: Unit,
    pub verdict: Verdict,
}

/// The disaggregated side of the comparison at one degree.
#[derive(Clone, Debug, PartialEq)]
pub struct Comparison {
    /// The degree of every worker: the aggregated plan's.
    pub tp: u64,
    /// Sequences a decode worker runs at once (as a replica of that degree).
    pub seqs: u64,
    /// The 1:1 unit at a light load (its pools' sustainable rates per worker, the transfer), or
    /// why no unit meets the targets even there.
    pub probe: Result<LoadPoint, Verdict>,
    /// The ratios, in the order searched.
    pub units: Vec<UnitCandidate>,
    /// Index into `units` of the fewest GPUs (then the lowest cost, then the most requests per
    /// second within the targets, then the ratio searched first).
    pub chosen: Option<usize>,
}

impl Comparison {
    pub fn chosen(&self) -> Option<(Unit, &Capacity)> {
        let c = self.units.get(self.chosen?)?;
        match &c.verdict {
            Verdict::Meets(cap) => Some((c.unit, cap)),
            _ => None,
        }
    }
}

/// Whether and where the plan was compared.
#[derive(Clone, Debug, PartialEq)]
pub enum Disagg {
    /// The reader turned the comparison off.
    Off,
    /// The plan's replica spans nodes, or no layout within one node holds the model.
    AcrossNodes,
    Compared(Box<Comparison>),
}

impl Disagg {
    pub fn compared(&self) -> Option<&Comparison> {
        match self {
            Disagg::Compared(c) => Some(c),
            _ => None,
        }
    }
}

/// Which deployment the same targets take fewer GPUs (then less money) with.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    Disaggregated,
    Aggregated,
    /// The same GPUs and cost: the plan stays aggregated (one pool, no KV cache to move).
    Tie,
    /// No aggregated degree meets the targets; a unit does.
    OnlyDisaggregated,
    /// No unit meets the targets (the probe or every ratio says why).
    OnlyAggregated,
    /// Neither meets them.
    Neither,
}

/// The comparison's outcome (`None`: not compared).
pub fn outcome(plan: &super::Plan) -> Option<Outcome> {
    let c = plan.disagg.compared()?;
    Some(match (plan.chosen(), c.chosen()) {
        (Some((_, a)), Some((_, d))) => {
            let cost = |x: &Capacity| x.cost_per_month().unwrap_or(0.0);
            if d.gpus < a.gpus || (d.gpus == a.gpus && cost(d) < cost(a)) {
                Outcome::Disaggregated
            } else if d.gpus == a.gpus && cost(d) == cost(a) {
                Outcome::Tie
            } else {
                Outcome::Aggregated
            }
        }
        (None, Some(_)) => Outcome::OnlyDisaggregated,
        (Some(_), None) => Outcome::OnlyAggregated,
        (None, None) => Outcome::Neither,
    })
}

/// The comparison for a plan: at the chosen degree, or with no plan the smallest degree within
/// one node that holds the model; `ready` are the degrees the aggregated search prepared.
pub(super) fn beside<F>(
    s: &PlanState,
    candidates: &[Candidate],
    chosen: Option<usize>,
    ready: &[(usize, Ready)],
    load: &F,
) -> Disagg
where
    F: Fn(&Scenario, f64) -> Result<LoadPoint, EngineError>,
{
    if s.pd == Pd::Off {
        return Disagg::Off;
    }
    let one_node = |c: &&Candidate| c.pp == 1 && c.layout().nodes() == 1;
    let at = match chosen.and_then(|i| candidates.get(i)) {
        Some(c) => Some(c).filter(one_node),
        None => candidates.iter().filter(one_node).find(|c| !super::holds_not(&c.verdict)),
    };
    let Some(c) = at else { return Disagg::AcrossNodes };
    let layout = c.layout();
    let seqs = ready
        .iter()
        .find(|(i, _)| candidates.get(*i).is_some_and(|x| x.layout() == layout))
        .map(|(_, r)| r.seqs)
        .or_else(|| super::sequences(s, layout));
    let Some(seqs) = seqs else { return Disagg::AcrossNodes };
    Disagg::Compared(Box::new(compare(s, layout.tp, seqs, load)))
}

/// Which way along the ratios a searched unit asks to move: toward more prefill workers (+1)
/// when what breaks first is on the prefill side (the time to first token, mostly its prefill
/// part; the prefill pool's throughput), toward more decode workers (−1) when it is on the decode
/// side (the time per output token; the decode pool's throughput; over users, the search's top,
/// which is the decode workers' sequences).
fn direction(s: &PlanState, cap: &Capacity) -> i64 {
    let pools = cap.at_peak.disaggregated.as_ref();
    match cap.limit {
        Limit::Tpot => -1,
        Limit::Ttft => {
            let prefill = pools.and_then(|d| d.prefill_p99_s).unwrap_or(0.0);
            let ttft = cap.at_peak.ttft(s.ttft_pct).unwrap_or(0.0);
            if 2.0 * prefill >= ttft {
                1
            } else {
                -1
            }
        }
        Limit::Saturation if s.peak_users.is_some() => -1,
        Limit::Saturation => match pools.map(|d| d.limited_by) {
            Some(crate::engine::perf::load::disagg::LimitingPool::Prefill) => 1,
            _ => -1,
        },
    }
}

/// Ratios searched at most: [`SEARCHED`] over a rate, [`SEARCHED_USERS`] over users.
pub fn searched_at_most(s: &PlanState) -> usize {
    if s.peak_users.is_some() {
        SEARCHED_USERS
    } else {
        SEARCHED
    }
}

/// Units at tensor parallel `tp`, `seqs` sequences per decode worker: the probe, then a walk
/// along the ratios (the module doc).
pub fn compare<F>(s: &PlanState, tp: u64, seqs: u64, load: &F) -> Comparison
where
    F: Fn(&Scenario, f64) -> Result<LoadPoint, EngineError>,
{
    let refuse = |v: Verdict| Comparison { tp, seqs, probe: Err(v), units: Vec::new(), chosen: None };
    let one = Unit { tp, prefill: 1, decode: 1 };
    let probe = match load(&scenario(s, one, seqs), 0.0) {
        Ok(p) => p,
        Err(e) => return refuse(Verdict::Engine(e)),
    };
    let pools = probe.disaggregated.as_ref().map(|d| (d.prefill_max_rate_per_s, d.decode_max_rate_per_s));
    let Some((mu_p, mu_d)) = pools.filter(|(p, d)| p.is_finite() && d.is_finite() && *p > 0.0 && *d > 0.0)
    else {
        return refuse(Verdict::Misses { limit: Limit::Saturation, value: None });
    };
    if let Some(limit) = missed(&probe, s) {
        let value = match limit {
            Limit::Ttft => probe.ttft(s.ttft_pct),
            Limit::Tpot => probe.tpot(s.tpot_pct),
            Limit::Saturation => None,
        };
        return refuse(Verdict::Misses { limit, value });
    }
    let users = s.peak_users.is_some();
    let target = if users { demand(s) } else { demand(s) / kept(s) };
    // The ratios along the line of P ÷ D, each with the top of the search's axis (over a rate
    // the unit's sustainable rate, over users 4 × the sequences its decode workers run at
    // once), the fewest GPUs its units could need, and the requests per second per GPU its
    // pools sustain.
    let mut line: Vec<(u64, u64)> = match s.pd {
        Pd::Ratio(p, d) => vec![(p, d)],
        _ => RATIOS.to_vec(),
    };
    crate::engine::num::sort_stable_by(&mut line, |a, b| a.0 * b.1 < b.0 * a.1);
    let ratios: Vec<(Unit, f64, u64, f64)> = line
        .into_iter()
        .map(|(p, d)| {
            let unit = Unit { tp, prefill: p, decode: d };
            let rate = (p as f64 * mu_p).min(d as f64 * mu_d);
            let top = if users { probe.max_rate_per_s * d as f64 } else { rate };
            (unit, top, floor_gpus(target, top, unit.gpus()), rate / unit.gpus() as f64)
        })
        .collect();
    // Start where the fewest GPUs could do (then the most requests per GPU at saturation: the
    // balanced pools), and walk toward the pool that breaks first.
    let start = (0..ratios.len()).min_by(|&i, &j| {
        let (a, b) = (&ratios[i], &ratios[j]);
        a.2.cmp(&b.2).then(b.3.partial_cmp(&a.3).unwrap_or(std::cmp::Ordering::Equal))
    });
    let mut verdicts: Vec<Option<Verdict>> = vec![None; ratios.len()];
    let mut order = Vec::new();
    let mut best: Option<(u64, f64, f64)> = None;
    let mut chosen_at = None;
    let mut at = start;
    while let Some(i) = at {
        let Some(&(unit, top, floor, _)) = ratios.get(i) else { break };
        if order.len() >= searched_at_most(s) || best.is_some_and(|b| floor > b.0) {
            break;
        }
        order.push(i);
        let x = scenario(s, unit, seqs);
        let light = if users { probe.rate_per_s } else { probe.rate_per_s.clamp(0.0, top * LIGHT_LOAD) };
        let r = Ready { seqs, x, sustainable: top, light, idle: probe.clone(), gpus: unit.gpus() };
        let (verdict, next) = match capacity(s, &r, load, &mut Vec::new()) {
            Ok(cap) => {
                let key =
                    (cap.gpus, cap.cost_per_month().unwrap_or(0.0), cap.capacity_per_s * cap.replicas as f64);
                let better = best.is_none_or(|b| {
                    key.0 < b.0
                        || (key.0 == b.0 && key.1 < b.1)
                        || (key.0 == b.0 && key.1 == b.1 && key.2 > b.2)
                });
                if better {
                    best = Some(key);
                    chosen_at = Some(i);
                }
                let step = direction(s, &cap);
                (Verdict::Meets(Box::new(cap)), i.checked_add_signed(step as isize))
            }
            Err(e) => (Verdict::Engine(e), None),
        };
        if let Some(v) = verdicts.get_mut(i) {
            *v = Some(verdict);
        }
        // A ratio already searched means the walk turned back: the best lies between.
        at = next.filter(|n| *n < ratios.len() && !order.contains(n));
    }
    // The rest, in the order of their bounds: no fewer GPUs than the best even at their
    // sustainable rate, or not reached by the walk.
    let mut rest: Vec<usize> = (0..ratios.len()).filter(|i| !order.contains(i)).collect();
    crate::engine::num::sort_stable_by(&mut rest, |&a, &b| ratios[a].2 < ratios[b].2);
    let mut units = Vec::with_capacity(ratios.len());
    let mut chosen = None;
    for i in order.into_iter().chain(rest) {
        let (unit, _, floor, _) = ratios[i];
        let verdict = verdicts.get_mut(i).and_then(Option::take).unwrap_or(match best {
            Some((gpus, _, _)) if floor >= gpus => Verdict::NotNeeded { at_least_gpus: floor },
            _ => Verdict::Skipped { at_least_gpus: floor },
        });
        if chosen_at == Some(i) {
            chosen = Some(units.len());
        }
        units.push(UnitCandidate { unit, verdict });
    }
    Comparison { tp, seqs, probe: Ok(probe), units, chosen }
}
