//! The capacity planner (`#/{lang}/plan`): the source article's capacity-estimation flow as a
//! page. Do the weights fit; what else the GPU holds; how much context and concurrency the rest
//! allows; how to shard; and, last, the command lines that check the plan on real hardware.
//!
//! For each tensor-parallel degree of one node (1, 2, 4, 8) the engine sizes a replica (the
//! memory, the most sequences its KV cache holds) and the engine's serving-under-load model
//! gives its latency percentiles at a request rate (each target names its own: p50, p90, p95 or
//! p99). Latencies do not fall as load grows, so the highest
//! per-replica rate that meets both targets is found by bisection between a light load (which
//! must meet them, or the degree cannot) and the replica's sustainable rate (where the queue stops
//! draining). The headroom is the share of that capacity each replica keeps free at peak:
//! replicas = ⌈peak ÷ ((1 − headroom) × that rate)⌉, so a plan with 20% headroom runs each
//! replica at no more than 80% of the rate its targets allow (hence of its sustainable rate) at
//! peak. Over concurrent users the same holds of the rate the users send at (see [`capacity`]).
//! The plan is the degree with the fewest GPUs (then the lowest cost, then the smaller degree:
//! more replicas, the same GPUs).
//!
//! Beside it, unless the reader turns it off, the same targets are met by a disaggregated
//! deployment ([`disagg`]): units of prefill and decode workers at the plan's degree, searched
//! the same way, and the page says which needs fewer GPUs and why.
//!
//! `state` is the URL form, `html` the page, `command` the serving-engine command lines; `load`
//! adapts the engine's load report. The search takes the load model as a function so that it
//! is tested on a queue whose answers are known in closed form.

pub mod command;
pub mod disagg;
pub mod html;
pub mod load;
pub mod state;

use crate::catalog;
use crate::catalog::gpus;
use crate::catalog::models::QuantizedCheckpoint;
use crate::engine::hardware::{GpuSpec, TopologyKind};
use crate::engine::workload::Mode;
use crate::engine::{EngineError, ModelSpec, Report, Scenario};
pub use load::LoadPoint;
use state::{PlanState, NODES, TP_DEGREES};

/// Hours of a month of continuous service (365 × 24 ÷ 12).
pub const HOURS_PER_MONTH: f64 = 730.0;
/// Bisection steps of the rate search: the rate meeting the targets is known to within
/// 2⁻⁷ of the sustainable rate (one replica fewer is then checked exactly).
const BISECTIONS: u32 = 7;
/// The light load every degree must meet its targets at, as a share of its sustainable rate.
const LIGHT_LOAD: f64 = 0.02;
/// Points of the latency-against-load curve.
pub const CURVE_POINTS: usize = 6;

/// What the plan is sized for over the whole service: the peak concurrent users when the
/// reader gives them, else the peak requests per second. The search's load axis is the same
/// quantity per replica.
pub fn demand(s: &PlanState) -> f64 {
    s.peak_users.map_or(s.peak_rate, |u| u as f64)
}

/// The share of a replica's capacity the plan may use at peak: 1 − headroom.
pub fn kept(s: &PlanState) -> f64 {
    (1.0 - s.headroom_pct / 100.0).clamp(0.01, 1.0)
}

/// The model's architecture: the pasted config's, else the catalog model's.
pub fn architecture(s: &PlanState) -> Option<crate::engine::model::Architecture> {
    match &s.config {
        Some(c) => crate::engine::model::config::parse_config(c).ok(),
        None => catalog::models::find(&s.model).map(|m| m.architecture.clone()),
    }
}

/// The KV cache one request of prompt + output tokens holds until it finishes, over the whole
/// model (no parallel split), as the engine sizes it: a sliding-window layer keeps at most its
/// window ([`crate::engine::model::hybrid::per_sequence`]); `None` when the model does not read.
pub fn kv_per_request(s: &PlanState) -> Option<u64> {
    let a = architecture(s)?;
    let tokens = s.prompt_tokens.saturating_add(s.output_tokens);
    let p =
        crate::engine::model::hybrid::per_sequence(&a, tokens, s.kv, crate::engine::precision::Dtype::Bf16);
    Some(crate::engine::report::to_u64(p.kv))
}

/// The published quantised checkpoint the plan serves: the catalog model's checkpoint in the
/// weight format the reader chose (FP8, INT4, INT8), when its publisher released one.
pub fn checkpoint(s: &PlanState) -> Option<&'static QuantizedCheckpoint> {
    let format = s.weights?.name();
    s.config.is_none().then_some(())?;
    catalog::models::find(&s.model)?.model.quantized_in(format)
}

/// How one replica spreads over GPUs: `tp` in tensor parallel times `pp` pipeline stages.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Layout {
    pub tp: u64,
    pub pp: u64,
}

impl Layout {
    /// Tensor parallel `tp` within one node.
    pub fn tp(tp: u64) -> Layout {
        Layout { tp, pp: 1 }
    }

    pub fn gpus(self) -> u64 {
        self.tp.saturating_mul(self.pp)
    }

    /// Nodes of [`state::GPUS_PER_NODE`] GPUs the replica spans.
    pub fn nodes(self) -> u64 {
        self.gpus().div_ceil(state::GPUS_PER_NODE).max(1)
    }
}

/// The layouts across nodes tried when no single node holds the model (vLLM's guidance,
/// "Parallelism and Scaling": tensor parallel over a node's GPUs, pipeline parallel over the
/// nodes; or tensor parallel over every GPU, whose all-reduces then cross the network), for
/// `nodes` nodes.
pub fn layouts_across(nodes: u64) -> [Layout; 2] {
    [
        Layout { tp: state::GPUS_PER_NODE, pp: nodes },
        Layout { tp: state::GPUS_PER_NODE.saturating_mul(nodes), pp: 1 },
    ]
}

/// The topology the plan's nodes are joined by: NVLink inside a node of a GPU that has it, then
/// the chosen network; PCIe cards are joined as the engine's `pcie` topology joins them.
pub fn topology(s: &PlanState) -> TopologyKind {
    let default = gpus::find(&s.gpu).map_or(TopologyKind::Nvswitch, TopologyKind::default_for);
    match (default, s.net) {
        (TopologyKind::Pcie | TopologyKind::NvlinkBridge, _) => TopologyKind::Pcie,
        (_, state::Net::Ib) => TopologyKind::Nvswitch,
        (_, state::Net::Efa) => TopologyKind::NvswitchEfa,
    }
}

/// The engine scenario of one replica: `tp` GPUs in tensor parallel, at most `seqs` sequences.
pub fn scenario(s: &PlanState, tp: u64, seqs: u64) -> Scenario {
    scenario_at(s, Layout::tp(tp), seqs)
}

/// The engine scenario of one replica laid out as `layout`, at most `seqs` sequences, its nodes
/// joined by [`topology`]. A published quantised checkpoint is sized and timed as it ships (its
/// own `quantization_config` on the base config's shapes).
pub fn scenario_at(s: &PlanState, layout: Layout, seqs: u64) -> Scenario {
    let (model, weights) = match (&s.config, checkpoint(s)) {
        (Some(c), _) => (ModelSpec::Config(c.clone()), s.weights),
        (None, Some(q)) => match catalog::models::find(&s.model) {
            Some(m) => (ModelSpec::Config(m.model.checkpoint_config(q)), None),
            None => (ModelSpec::Id(s.model.clone()), s.weights),
        },
        (None, None) => (ModelSpec::Id(s.model.clone()), s.weights),
    };
    let mut x = Scenario::new(model);
    x.mode = Mode::Inference;
    x.weight_dtype = weights;
    x.kv_dtype = Some(s.kv);
    x.gpu = GpuSpec::Id(s.gpu.clone());
    x.gpus = layout.gpus();
    x.tensor_parallel = layout.tp;
    x.pipeline_parallel = layout.pp;
    x.gpus_per_node = state::GPUS_PER_NODE;
    x.topology = Some(topology(s));
    x.context_tokens = s.prompt_tokens.saturating_add(s.output_tokens);
    x.prompt_tokens = Some(s.prompt_tokens);
    x.output_tokens = Some(s.output_tokens);
    x.prefix_shared_tokens = s.prefix_shared.min(s.prompt_tokens);
    x.prefix_hit_rate = (s.hit_pct > 0.0).then(|| (s.hit_pct / 100.0).clamp(0.0, 1.0));
    x.prefix_open_sessions = s.sessions;
    x.kv_cpu_tier_bytes = (s.cpu_tier_gb.max(0.0) * 1e9).round() as u64;
    x.kv_ssd_tier_bytes = (s.ssd_tier_gb.max(0.0) * 1e9).round() as u64;
    x.kv_gpu_cache_bytes = (!s.gpu_cache).then_some(0);
    x.batch = seqs;
    x
}

/// What stops a replica from taking more load.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Limit {
    /// The time to first token at its target's percentile passes the target.
    Ttft,
    /// The time per output token at its target's percentile passes the target.
    Tpot,
    /// Requests arrive faster than the replica finishes them: the queue grows without bound.
    Saturation,
}

/// Which target a load point misses first (`None`: it meets both and is stable).
pub fn missed(p: &LoadPoint, s: &PlanState) -> Option<Limit> {
    if !p.stable {
        return Some(Limit::Saturation);
    }
    match (p.ttft(s.ttft_pct), p.tpot(s.tpot_pct)) {
        (Some(ttft), _) if ttft > s.ttft_s => Some(Limit::Ttft),
        (_, Some(tpot)) if tpot * 1e3 > s.tpot_ms => Some(Limit::Tpot),
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
    /// The top of the search's axis: requests per second one replica finishes at full load, or
    /// over users the most users searched (4 × its sequences).
    pub sustainable_per_replica: f64,
    /// The highest load per replica (requests/s, or users) that meets both targets at their percentiles.
    pub per_replica: f64,
    /// Requests per second a replica completes at `per_replica`: its capacity within the targets.
    pub capacity_per_s: f64,
    /// Requests per second a replica completes at full load (over users: the most of the
    /// full-queue run and the closed loop at the search's top, which admits requests one by one).
    pub sustainable_rate_per_s: f64,
    /// The most load per replica the plan allows at peak (requests/s, or users): what keeps the
    /// headroom, `(1 − headroom) × capacity_per_s` of completed requests.
    pub planned_per_replica: f64,
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
    DoesNotFit { needed_bytes: u64, usable_bytes: u64 },
    /// It would fit once quantised, but only online quantisation remains (no published
    /// checkpoint in that format) and the 16-bit checkpoint the engine loads first needs more
    /// than a GPU's usable memory at this degree.
    LoadDoesNotFit { needed_bytes: u64, usable_bytes: u64 },
    /// Even at a light load a target is missed (`value` is the target's percentile there, seconds).
    Misses { limit: Limit, value: Option<f64> },
    /// Boxed: a capacity carries its load point's percentiles, far larger than the other
    /// variants.
    Meets(Box<Capacity>),
    /// Not searched: even with every replica at its sustainable rate this degree needs
    /// `at_least_gpus`, more than the plan.
    NotNeeded { at_least_gpus: u64 },
    /// Not searched: a disaggregated ratio the search's walk did not reach
    /// ([`disagg::compare`]; it needs at least `at_least_gpus`, every unit at its sustainable
    /// rate).
    Skipped { at_least_gpus: u64 },
}

#[derive(Clone, Debug, PartialEq)]
pub struct Candidate {
    pub tp: u64,
    /// Pipeline stages (1 within one node).
    pub pp: u64,
    pub verdict: Verdict,
    /// The engine's report of one replica at `seqs` (or at one sequence when it does not fit).
    pub report: Option<Report>,
}

impl Candidate {
    pub fn layout(&self) -> Layout {
        Layout { tp: self.tp, pp: self.pp }
    }
}

/// The whole plan.
#[derive(Clone, Debug, PartialEq)]
pub struct Plan {
    pub candidates: Vec<Candidate>,
    /// Index into `candidates` of the chosen degree.
    pub chosen: Option<usize>,
    /// The chosen replica's latencies from light load up to its sustainable rate.
    pub curve: Vec<LoadPoint>,
    /// The disaggregated deployment under the same targets.
    pub disagg: disagg::Disagg,
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
/// Every point it evaluates is kept in `seen` (the chart reuses them).
fn search<F>(
    s: &PlanState,
    x: &Scenario,
    (light, sustainable): (f64, f64),
    load: &F,
    seen: &mut Vec<LoadPoint>,
) -> Result<(f64, Limit), EngineError>
where
    F: Fn(&Scenario, f64) -> Result<LoadPoint, EngineError>,
{
    let (mut lo, mut hi, mut limit) = (light, sustainable, Limit::Saturation);
    for _ in 0..BISECTIONS {
        let mid = 0.5 * (lo + hi);
        let p = load(x, mid)?;
        match missed(&p, s) {
            None => lo = mid,
            Some(l) => {
                hi = mid;
                limit = l;
            }
        }
        seen.push(p);
    }
    Ok((lo, limit))
}

/// What loading the served checkpoint needs on each GPU at tensor parallel `tp`, and what it
/// has, when the command quantises a 16-bit checkpoint online ([`command::quantises_on_load`]):
/// vLLM "currently load[s] the model at original precision before quantizing down to 8-bits, so
/// you need enough memory to load the whole model" (vLLM docs, Quantization: FP8 W8A8, online
/// dynamic quantization); each rank loads its shard, so the 16-bit weights ÷ tp and the
/// runtime's reserve. `None` when the checkpoint loads in the format it is served in.
pub fn load_time_bytes(s: &PlanState, layout: Layout) -> Option<(u64, u64)> {
    if !command::quantises_on_load(s) {
        return None;
    }
    let sixteen = PlanState { weights: None, ..s.clone() };
    let r = catalog::evaluate(&scenario_at(&sixteen, layout, 1)).ok()?;
    let m = &r.memory_per_gpu_bytes;
    Some((m.weights.saturating_add(m.overhead), r.usable_gpu_memory_bytes))
}

/// A degree (or a disaggregated unit) that holds the model and meets the targets at a light
/// load, before the search.
struct Ready {
    seqs: u64,
    x: Scenario,
    sustainable: f64,
    light: f64,
    /// The load point at the lightest load.
    idle: LoadPoint,
    /// GPUs of one replica (a unit: both its pools).
    gpus: u64,
}

impl Ready {
    /// The fewest GPUs this degree could need: every replica at its sustainable rate (`target`:
    /// the load to carry, headroom included where it scales with the load).
    fn floor_gpus(&self, target: f64) -> u64 {
        floor_gpus(target, self.sustainable, self.gpus)
    }
}

/// ⌈target ÷ sustainable⌉ replicas of `gpus` GPUs each.
fn floor_gpus(target: f64, sustainable: f64, gpus: u64) -> u64 {
    ((target / sustainable).ceil().clamp(1.0, 1e9) as u64).saturating_mul(gpus)
}

/// Sizes one degree: whether it fits, how many sequences, its sustainable rate, and whether a
/// light load (the first load point) meets the targets.
fn prepare<F>(s: &PlanState, layout: Layout, load: &F) -> (Option<Report>, Result<Ready, Verdict>)
where
    F: Fn(&Scenario, f64) -> Result<LoadPoint, EngineError>,
{
    let one = match catalog::evaluate(&scenario_at(s, layout, 1)) {
        Ok(r) => r,
        Err(e) => return (None, Err(Verdict::Engine(e))),
    };
    if !one.fits {
        let verdict = Verdict::DoesNotFit {
            needed_bytes: one.memory_per_gpu_bytes.total,
            usable_bytes: one.usable_gpu_memory_bytes,
        };
        return (Some(one), Err(verdict));
    }
    if let Some((needed_bytes, usable_bytes)) = load_time_bytes(s, layout).filter(|(n, u)| n > u) {
        return (Some(one), Err(Verdict::LoadDoesNotFit { needed_bytes, usable_bytes }));
    }
    let fit = one.solvers.max_batch.unwrap_or(1).max(1);
    let seqs = s.max_seqs.min(fit);
    let x = scenario_at(s, layout, seqs);
    let report = catalog::evaluate(&x).ok().or(Some(one));
    // The lightest load: one request in a long while. It gives the sustainable rate too.
    let idle = match load(&x, 0.0) {
        Ok(p) => p,
        Err(e) => return (report, Err(Verdict::Engine(e))),
    };
    let sustainable = idle.max_rate_per_s;
    if !(sustainable.is_finite() && sustainable > 0.0) {
        return (report, Err(Verdict::Misses { limit: Limit::Saturation, value: None }));
    }
    if let Some(limit) = missed(&idle, s) {
        let value = match limit {
            Limit::Ttft => idle.ttft(s.ttft_pct),
            Limit::Tpot => idle.tpot(s.tpot_pct),
            Limit::Saturation => None,
        };
        return (report, Err(Verdict::Misses { limit, value }));
    }
    let light = idle.rate_per_s.clamp(0.0, sustainable * LIGHT_LOAD);
    let gpus = x.gpus;
    (report, Ok(Ready { seqs, x, sustainable, light, idle, gpus }))
}

/// A replica's capacity and the replicas the plan needs.
///
/// Over a request rate: the search gives `r`, the highest rate within the targets, and
/// replicas = ⌈peak ÷ ((1 − headroom) × r)⌉ (then one replica fewer is checked exactly).
/// Over users (a closed loop) the load is the rate the users send at, which grows more slowly
/// than the users do: the search gives the most users within the targets `u`, whose completion
/// rate `C` is the replica's capacity, and a bisection over users finds the most users whose
/// rate stays within (1 − headroom) × C; replicas = ⌈users ÷ that⌉.
fn capacity<F>(s: &PlanState, r: &Ready, load: &F, seen: &mut Vec<LoadPoint>) -> Result<Capacity, EngineError>
where
    F: Fn(&Scenario, f64) -> Result<LoadPoint, EngineError>,
{
    let (mut per_replica, limit) = search(s, &r.x, (r.light, r.sustainable), load, seen)?;
    let keep = kept(s);
    let (replicas, capacity_per_s, sustainable_rate_per_s, planned) = if s.peak_users.is_some() {
        // Users come whole: the search's users per replica, rounded as the closed loop ran them.
        per_replica = per_replica.round().max(1.0);
        let at_targets = load(&r.x, per_replica)?;
        let top = load(&r.x, r.sustainable)?;
        let capacity = at_targets.completed_per_s;
        let sustainable = top.completed_per_s.max(top.sustainable_rate_per_s).max(capacity);
        seen.push(at_targets);
        seen.push(top);
        let planned = users_within(&r.x, per_replica, keep * capacity, load, seen)?;
        let replicas = (demand(s) / planned).ceil().clamp(1.0, 1e9) as u64;
        (replicas, capacity, sustainable, planned)
    } else {
        let target = demand(s) / keep;
        let mut replicas = (target / per_replica.max(f64::MIN_POSITIVE)).ceil().clamp(1.0, 1e9) as u64;
        // The bisection ends just below the exact boundary: when one replica fewer carries the
        // load exactly, one fewer it is, and that load is the rate known to meet the targets.
        if replicas > 1 {
            let fewer = target / (replicas - 1) as f64;
            let p = load(&r.x, fewer)?;
            if missed(&p, s).is_none() {
                replicas -= 1;
                per_replica = fewer;
            }
            seen.push(p);
        }
        (replicas, per_replica, r.sustainable, keep * per_replica)
    };
    let at_peak = load(&r.x, demand(s) / replicas as f64)?;
    seen.push(at_peak.clone());
    Ok(Capacity {
        seqs: r.seqs,
        kv_bound: r.seqs < s.max_seqs,
        sustainable_per_replica: r.sustainable,
        per_replica,
        capacity_per_s,
        sustainable_rate_per_s,
        planned_per_replica: planned,
        limit,
        replicas,
        gpus: replicas.saturating_mul(r.gpus),
        at_peak,
        price: catalog::default_price_per_gpu_hour(&s.gpu),
    })
}

/// The most users, at most `most`, whose closed loop completes at most `rate` requests per
/// second on replica `x` (at least one user: a replica serves whole users). Completion rates do
/// not fall as users are added, so a bisection over whole users finds it.
fn users_within<F>(
    x: &Scenario,
    most: f64,
    rate: f64,
    load: &F,
    seen: &mut Vec<LoadPoint>,
) -> Result<f64, EngineError>
where
    F: Fn(&Scenario, f64) -> Result<LoadPoint, EngineError>,
{
    let (mut lo, mut hi) = (1.0_f64, most.max(1.0));
    let at_most = load(x, hi)?;
    if at_most.completed_per_s <= rate * (1.0 + 1e-9) {
        seen.push(at_most);
        return Ok(hi);
    }
    seen.push(at_most);
    while hi - lo > 1.0 {
        let mid = (0.5 * (lo + hi)).floor();
        let p = load(x, mid)?;
        if p.completed_per_s <= rate * (1.0 + 1e-9) {
            lo = mid;
        } else {
            hi = mid;
        }
        seen.push(p);
    }
    Ok(lo)
}

/// Whether a verdict says the layout cannot hold (or load) the model.
fn holds_not(v: &Verdict) -> bool {
    matches!(v, Verdict::DoesNotFit { .. } | Verdict::LoadDoesNotFit { .. } | Verdict::Engine(_))
}

/// The plan for a state, with the load model `load` (the engine's: [`load::load_at`]). Degrees
/// are searched from the one that could need the fewest GPUs; a degree that needs more GPUs
/// than a plan already found, even at its sustainable rate, is not searched.
pub fn plan_with<F>(s: &PlanState, load: &F) -> Plan
where
    F: Fn(&Scenario, f64) -> Result<LoadPoint, EngineError>,
{
    // The load the fewest replicas must carry at their sustainable rate: over a rate, the peak
    // with its headroom; over users, the users (a replica's users within the headroom are fewer
    // than the search's top, whatever the headroom).
    let target = if s.peak_users.is_some() { demand(s) } else { demand(s) / kept(s) };
    let mut candidates = Vec::with_capacity(TP_DEGREES.len() + 2);
    let mut ready = Vec::new();
    let add = |layout: Layout, candidates: &mut Vec<Candidate>, ready: &mut Vec<(usize, Ready)>| {
        let (report, r) = prepare(s, layout, load);
        let verdict = match r {
            Ok(r) => {
                ready.push((candidates.len(), r));
                Verdict::Misses { limit: Limit::Saturation, value: None }
            }
            Err(v) => v,
        };
        candidates.push(Candidate { tp: layout.tp, pp: layout.pp, verdict, report });
    };
    for &tp in &TP_DEGREES {
        add(Layout::tp(tp), &mut candidates, &mut ready);
    }
    // One node is not enough when no degree in it holds the model (or can load it): the fewest
    // nodes whose layouts do.
    for nodes in NODES {
        if !ready.is_empty() || candidates.iter().any(|c| !holds_not(&c.verdict)) {
            break;
        }
        for layout in layouts_across(nodes) {
            add(layout, &mut candidates, &mut ready);
        }
    }
    crate::engine::num::sort_stable_by(&mut ready, |a, b| a.1.floor_gpus(target) < b.1.floor_gpus(target));
    // The plan: the fewest GPUs, then the lowest cost, then the most requests per second within
    // the targets over all its replicas (layouts across nodes of the same GPUs differ there),
    // then the candidate tried first (the smaller degree: more replicas, the same GPUs).
    let mut best: Option<(u64, f64, f64)> = None;
    let mut chosen = None;
    let mut points: Vec<(usize, Vec<LoadPoint>)> = Vec::new();
    for (i, r) in &ready {
        let floor = r.floor_gpus(target);
        let mut seen = vec![r.idle.clone()];
        let verdict = match best {
            Some((gpus, _, _)) if floor > gpus => Verdict::NotNeeded { at_least_gpus: floor },
            _ => match capacity(s, r, load, &mut seen) {
                Ok(cap) => {
                    let total = cap.capacity_per_s * cap.replicas as f64;
                    let key = (cap.gpus, cap.cost_per_month().unwrap_or(0.0), total);
                    let same = |a: f64, b: f64| (a - b).abs() <= 1e-9 * a.abs().max(b.abs());
                    let better = best.is_none_or(|b| {
                        key.0 < b.0
                            || (key.0 == b.0 && key.1 < b.1)
                            || (key.0 == b.0 && key.1 == b.1 && key.2 > b.2 && !same(key.2, b.2))
                    });
                    let tie = best.is_some_and(|b| key.0 == b.0 && key.1 == b.1 && same(key.2, b.2));
                    if better || (tie && chosen.is_some_and(|c: usize| *i < c)) {
                        best = Some(key);
                        chosen = Some(*i);
                    }
                    Verdict::Meets(Box::new(cap))
                }
                Err(e) => Verdict::Engine(e),
            },
        };
        if let Some(c) = candidates.get_mut(*i) {
            c.verdict = verdict;
        }
        points.push((*i, seen));
    }
    let curve = chosen
        .and_then(|i| Some((ready.iter().find(|(j, _)| *j == i)?, points.iter_mut().find(|(j, _)| *j == i)?)))
        .map(|((_, r), (_, seen))| curve(r, std::mem::take(seen), load))
        .unwrap_or_default();
    let disagg = disagg::beside(s, &candidates, chosen, &ready, load);
    Plan { candidates, chosen, curve, disagg }
}

/// The engine's plan: over the request rate, or over users in a closed loop
/// ([`load::users_at`]) when the reader gives peak users.
/// Each scenario's rate-independent half of the load model is kept between the search's points
/// ([`load::Reusing`]).
pub fn plan(s: &PlanState) -> Plan {
    plan_counted(s).0
}

/// [`plan`], and the load points it asked the engine for and about how many scheduler
/// simulations they ran ([`load::Reusing::work`]).
pub fn plan_counted(s: &PlanState) -> (Plan, (u64, u64)) {
    let engine = load::Reusing::default();
    let p = if s.peak_users.is_some() {
        plan_with(s, &|x: &Scenario, u: f64| engine.users(x, u))
    } else {
        plan_with(s, &|x: &Scenario, r: f64| engine.rate(x, r))
    };
    (p, engine.work())
}

/// Sequences one replica laid out as `layout` runs at once: the reader's maximum, or fewer when
/// its KV cache holds fewer (`None` when it does not hold one).
fn sequences(s: &PlanState, layout: Layout) -> Option<u64> {
    let one = catalog::evaluate(&scenario_at(s, layout, 1)).ok().filter(|r| r.fits)?;
    Some(s.max_seqs.min(one.solvers.max_batch.unwrap_or(1).max(1)))
}

/// Latencies of the chosen replica from light load to just under its sustainable rate: the
/// points the search already has, plus one at each tenth of the way (to 97%) that none is near.
fn curve<F>(r: &Ready, mut seen: Vec<LoadPoint>, load: &F) -> Vec<LoadPoint>
where
    F: Fn(&Scenario, f64) -> Result<LoadPoint, EngineError>,
{
    let step = r.sustainable / CURVE_POINTS as f64;
    for i in 1..=CURVE_POINTS {
        let rate = r.sustainable * (0.97 * i as f64 / CURVE_POINTS as f64);
        if !seen.iter().any(|p| (p.rate_per_s - rate).abs() < 0.4 * step) {
            if let Ok(p) = load(&r.x, rate) {
                seen.push(p);
            }
        }
    }
    seen.retain(|p| p.stable && p.rate_per_s > 0.0);
    crate::engine::num::sort_stable_by(&mut seen, |a, b| a.rate_per_s < b.rate_per_s);
    seen
}

#[cfg(test)]
mod tests;
