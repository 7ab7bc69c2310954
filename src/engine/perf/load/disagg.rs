//! Disaggregated prefill and decode (DistServe: Zhong et al., OSDI 2024; Splitwise: Patel et al.,
//! ISCA 2024; Mooncake: Qin et al., FAST 2025; shipped by vLLM, SGLang, NVIDIA Dynamo and llm-d):
//! prompts run on `prefill_workers` workers of `prefill_tensor_parallel` GPUs each, the
//! scenario's own layout (`gpus`, `tensor_parallel`, `data_parallel`) is the decode pool, and
//! each prompt's KV cache crosses `kv_transfer_link` from one to the other.
//!
//! The two pools are two queues in tandem, each run by the same scheduler simulation
//! ([`super::sim`]):
//! - a prefill worker serves requests of one output token, the prompt and its first token; its
//!   KV cache holds prompts only while they run;
//! - the transfer takes `bytes / (link rate × efficiency) + attention layers × α`: `bytes` is the
//!   cache one GPU of the narrower tensor-parallel group holds for the prompt (every GPU sends
//!   its shard over its own link at once, after the prompt's last layer, one message per layer:
//!   vLLM's NixlConnector registers each layer's cache as its own buffer unless cross-layer
//!   blocks are enabled), the efficiency is the collective model's achieved share of the same
//!   link;
//! - a decode worker receives the cache of `prompt − 1` tokens, computes the last prompt token in
//!   its first step and generates the rest: its steps carry no prompt chunk, so a stream's gaps
//!   are decode steps alone.
//!
//! Time to first token = the prefill worker's wait and compute + the transfer + the decode
//! worker's wait for a slot and its first step (the first token streams from the decode worker, as
//! vLLM's disaggregated proxy and Dynamo return it). The decode simulation takes each request's
//! prefill time, drawn from the prefill simulation at the same load in a fixed shuffled order,
//! plus the transfer, as the request's delay before its scheduler.
//!
//! Poisson arrivals at λ: a prefill worker sees λ/P, a decode worker λ/D (Poisson splitting; a
//! Poisson stream whose points are moved by independent delays stays Poisson). A closed loop of U
//! users, in three runs: (1) the decode pool with U/D users each, delayed by an unloaded prefill
//! and the transfer; (2) the prefill pool with U/P users each, delayed by (1)'s time in decode and
//! the transfer; (3) the decode pool again, each request delayed by its prefill time from (2) and
//! the transfer. Each pool's sustainable rate is its saturated run's; the deployment sustains the
//! smaller.

use super::sim::{self, simulate, simulate_with_delays, SimResult, StepMix};
use super::{
    closed_inputs, cycle_s, itl, point, requests_for, sim_inputs, step_times, users_grid, users_per_replica,
    EngineStep, LoadCurve, LoadKey, LoadPoint, LoadReport, LoadSetup, PoolParts, Role, CURVE_FRACTIONS,
    REQUESTS, SEED, WARMUP_FRACTION,
};
use crate::engine::checked::{finite, perf_error, PerfError};
use crate::engine::error::{ErrorKind, ScenarioError};
use crate::engine::hardware::TopologyKind;
use crate::engine::links::{KvLink, Link};
use crate::engine::lookup::Network;
use crate::engine::memory::Inputs;
use crate::engine::num::u64_from_f64;
use crate::engine::perf::performance::SizedScenario;
use serde::Serialize;

/// Which pool limits the deployment's sustainable rate.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum LimitingPool {
    Prefill,
    Decode,
}

/// The load report's `disaggregated` section.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct DisaggregatedReport {
    pub prefill_workers: u64,
    pub prefill_tensor_parallel: u64,
    /// prefill_workers × prefill_tensor_parallel.
    pub prefill_gpus: u64,
    /// The scenario's own `gpus`: the decode pool.
    pub decode_gpus: u64,
    pub total_gpus: u64,
    pub link: KvLink,
    /// The link's rate per GPU in one direction (before the efficiency).
    pub link_bytes_per_s: f64,
    /// The share of it a transfer reaches (the collective model's efficiency for that link).
    pub link_efficiency: f64,
    /// α per layer's transfer.
    pub link_latency_s: f64,
    /// Bytes of KV cache one GPU sends for one prompt.
    pub transfer_bytes: u64,
    /// Seconds to send them.
    pub transfer_s: f64,
    /// Prompts a prefill worker runs at once (its KV cache at `prompt + 1` tokens each, its
    /// step budget, `batch`).
    pub prefill_max_seqs: u64,
    /// One prompt alone on an idle prefill worker, its chunks in sequence.
    pub prefill_alone_s: f64,
    /// Requests per second each pool completes with a full queue (whole pool).
    pub prefill_max_rate_per_s: f64,
    pub decode_max_rate_per_s: f64,
    pub limited_by: LimitingPool,
    /// The prefill worker's part of the time to first token (from the send: fixed cost, wait and
    /// compute) at p50 and p99, at this load (null when not stable).
    pub prefill_p50_s: Option<f64>,
    pub prefill_p99_s: Option<f64>,
}

/// The two pools, the transfer between them and what the report says of them.
struct Pools<'a> {
    prefill: EngineStep<'a>,
    pre: LoadSetup,
    decode: EngineStep<'a>,
    dec: LoadSetup,
    transfer_s: f64,
    prefill_alone_s: f64,
    /// The decode pool's step times (its full decode step, and one with a prompt's last token).
    steps: LoadCurve,
    /// Sequences of `prompt + output` tokens a decode GPU's KV cache holds.
    kv_limit: Option<u64>,
}

/// A run of both pools at one load.
struct Tandem {
    prefill: SimResult,
    decode: SimResult,
    /// Requests per second the deployment completes.
    rate: f64,
}

/// The prefill worker's layout: `prefill_tensor_parallel` GPUs (default the scenario's), one
/// pipeline stage, `prefill_workers` replicas; its experts spread over at most its own GPUs.
pub fn prefill_inputs(s: &crate::engine::scenario::Scenario, x: &Inputs) -> Inputs {
    let tp = s.prefill_tensor_parallel.unwrap_or(x.tp).max(1);
    let ep = if x.ep > 1 && tp.is_multiple_of(x.ep) { x.ep } else { 1 };
    let redundant_experts = if ep > 1 { x.redundant_experts } else { 0 };
    Inputs { tp, pp: 1, dp: s.prefill_workers.max(1), ep, redundant_experts, ..*x }
}

/// The link the cache crosses, its rate and α, and the efficiency the collective model uses for
/// it. Default: NVLink when both pools fit in one node of an NVLink topology, PCIe when they fit
/// in one node of another, else the topology's network (EFA on `nvswitch_efa`, InfiniBand NDR
/// otherwise).
pub fn transfer_link(z: &SizedScenario, total_gpus: u64) -> Result<(KvLink, Link, f64), ScenarioError> {
    let (s, gpu) = (z.scenario, z.gpu);
    let kind = s.topology.unwrap_or_else(|| TopologyKind::default_for(gpu));
    let nvlink = gpu.nvlink_bytes_per_s_per_direction();
    let one_node = total_gpus <= s.gpus_per_node.max(1);
    let chosen = s.kv_transfer_link.unwrap_or(match kind {
        TopologyKind::Nvswitch | TopologyKind::NvswitchEfa if one_node && nvlink > 0.0 => KvLink::Nvlink,
        _ if one_node => KvLink::Pcie,
        TopologyKind::NvswitchEfa => KvLink::Efa,
        _ => KvLink::Infiniband,
    });
    let pcie = Link {
        bytes_per_s_per_direction: gpu.pcie_bytes_per_s_per_direction().unwrap_or(31.5e9),
        latency_s: 5e-6,
    };
    let net =
        |n: Network| z.lookup.network(n).unwrap_or(Link { bytes_per_s_per_direction: 50e9, latency_s: 5e-6 });
    let link = match chosen {
        KvLink::Nvlink if nvlink <= 0.0 => {
            return Err(ScenarioError::new("kv_transfer_link", ErrorKind::NoNvlink));
        }
        KvLink::Nvlink => Link { bytes_per_s_per_direction: nvlink, latency_s: 2e-6 },
        KvLink::Pcie => pcie,
        KvLink::Infiniband | KvLink::Roce => net(Network::InfinibandNdr),
        KvLink::Efa => net(Network::EfaP5),
    };
    let (listed, _, _) = crate::engine::perf::performance::time_model_inputs(
        s,
        gpu,
        z.published(),
        z.arch.attention.mla.is_some(),
    )?;
    let eff = match chosen {
        KvLink::Nvlink => listed.intra_node_bus_bandwidth,
        KvLink::Pcie => listed.pcie_bandwidth,
        _ => listed.inter_node_bus_bandwidth,
    };
    Ok((chosen, link, eff))
}

/// Bytes of KV cache one GPU sends for a prompt of `prompt` tokens: the cache of the narrower
/// tensor-parallel group's GPU (a GPU of the wider group receives less; MLA's latent is whole on
/// every GPU), one pipeline stage's share of the layers.
pub fn transfer_bytes(z: &SizedScenario, prefill_tp: u64, prompt: u64) -> u128 {
    let (a, x) = (z.arch, z.inputs);
    let tp = prefill_tp.min(x.tp).max(1);
    let layers = crate::engine::num::usize_sat(a.layers);
    let all = crate::engine::model::kv_cache::kv_cache_bytes(a, 0..layers, prompt, 1, 1, tp, x.kv, x.group);
    all / u128::from(x.pp.max(1))
}

/// Seconds to send `bytes` over `link` at `efficiency`, one α per attention layer of a stage.
pub fn transfer_seconds(bytes: u128, link: Link, efficiency: f64, layers: u64) -> f64 {
    let rate = link.bytes_per_s_per_direction * efficiency;
    let body = if rate > 0.0 { bytes as f64 / rate } else { 0.0 };
    body + layers as f64 * link.latency_s
}

/// One prompt alone on an idle worker: its uncached tokens in chunks of the step budget, each
/// chunk's attention reading what came before.
fn prefill_alone_s(st: &EngineStep, c: &LoadSetup) -> Result<f64, PerfError> {
    let fresh = c.prompt.saturating_sub(c.cached.min(c.prompt.saturating_sub(1))).max(1);
    let budget = c.budget.max(1);
    let chunks = fresh.div_ceil(budget);
    // At most 64 chunks are timed one by one; a longer prompt's middle chunks are timed at the
    // middle chunk's context (attention grows linearly in the past: the mean is the middle).
    let timed = chunks.min(64);
    let mut total = 0.0;
    for k in 0..timed {
        let index = if chunks <= 64 { k } else { k * chunks / timed };
        let past = (c.prompt - fresh) as f64 + (index * budget) as f64;
        let n = budget.min(fresh - (index * budget).min(fresh)).max(1) as f64;
        let mix = StepMix {
            prefill_tokens: u64_from_f64(n),
            prefill_positions: n * past + n * (n + 1.0) / 2.0,
            prefill_past: past,
            prefill_chunks: 1,
            ..StepMix::default()
        };
        total += sim::StepTime::step(st, &mix)?.0;
    }
    finite("prefill alone", total * chunks as f64 / timed.max(1) as f64)
}

/// A fixed-seed shuffle of `v` plus `add` each: prefill times in an order unrelated to their
/// size, so that pairing them with decode requests in arrival order draws the two independently.
fn shuffled_plus(v: &[f64], add: f64) -> Vec<f64> {
    let mut out: Vec<f64> = v.iter().map(|t| t + add).collect();
    let mut state = SEED ^ 0xD15A_6600_0000_0003;
    for i in (1..out.len()).rev() {
        let j = crate::engine::num::usize_sat(sim::splitmix(&mut state) % (i as u64 + 1));
        out.swap(i, j);
    }
    out
}

impl Pools<'_> {
    fn replicas(&self) -> (f64, f64) {
        (self.pre.replicas.max(1) as f64, self.dec.replicas.max(1) as f64)
    }

    /// Requests per second each pool completes with a full queue (whole pool).
    fn saturated(&self) -> Result<(f64, f64), PerfError> {
        let run = |st: &EngineStep, c: &LoadSetup| -> Result<f64, PerfError> {
            if c.max_seqs == 0 {
                return Ok(0.0);
            }
            let n = requests_for(c.prompt, c.budget, c.max_seqs.saturating_mul(3).saturating_add(60));
            let sat = simulate(&sim_inputs(c, 0.0, n), st)?;
            Ok(sat.steady_completions_per_s * c.replicas.max(1) as f64)
        };
        Ok((run(&self.prefill, &self.pre)?, run(&self.decode, &self.dec)?))
    }

    /// Poisson arrivals at `rate` (whole deployment).
    fn open(&self, rate: f64) -> Result<Tandem, PerfError> {
        let (p, d) = self.replicas();
        let n = requests_for(self.pre.prompt, self.pre.budget, REQUESTS as u64);
        let prefill = simulate(&sim_inputs(&self.pre, rate / p, n), &self.prefill)?;
        let delays = shuffled_plus(&prefill.ttft_s, self.transfer_s);
        let decode = simulate_with_delays(&sim_inputs(&self.dec, rate / d, n), &self.decode, &delays)?;
        Ok(Tandem { prefill, decode, rate })
    }

    /// A closed loop of `users` (whole deployment), in the module doc's three runs.
    fn closed(&self, users: u64) -> Result<Tandem, PerfError> {
        let (p, d) = (self.pre.replicas.max(1), self.dec.replicas.max(1));
        let (d_share, p_share) = (users_per_replica(users, d), users_per_replica(users, p));
        let cycle =
            cycle_s(&self.dec, self.steps.mixed_step_s, self.steps.decode_step_s) + self.prefill_alone_s;
        let first_delay = self.pre.first_token_s + self.prefill_alone_s + self.transfer_s;
        let dec_inputs = closed_inputs(&self.dec, d_share, users, cycle);
        let one = simulate_with_delays(&dec_inputs, &self.decode, &[first_delay])?;
        let in_decode = (one.mean_time_in_system_s - first_delay).max(0.0);
        let away = in_decode + self.transfer_s;
        let two =
            simulate_with_delays(&closed_inputs(&self.pre, p_share, users, cycle), &self.prefill, &[away])?;
        let prefill_times: Vec<f64> = two.ttft_s.iter().map(|t| (t - away).max(0.0)).collect();
        let delays = shuffled_plus(&prefill_times, self.transfer_s);
        let decode = simulate_with_delays(&dec_inputs, &self.decode, &delays)?;
        let rate = decode.steady_completions_per_s * users as f64 / d_share as f64;
        let prefill = SimResult { ttft_s: prefill_times, ..two };
        Ok(Tandem { prefill, decode, rate })
    }
}

/// The pools of a disaggregated scenario, handed to `f`: named errors when a decode GPU cannot
/// hold one sequence or a prefill worker one prompt.
fn with_pools<T>(
    z: &SizedScenario,
    usable: u128,
    f: impl FnOnce(&Pools, &DisaggregatedReport) -> Result<T, ScenarioError>,
) -> Result<T, ScenarioError> {
    let s = z.scenario;
    let pe = |e: PerfError| perf_error("load", e);
    let xp = prefill_inputs(s, z.inputs);
    let dec_parts: PoolParts = super::pool_parts(z, z.inputs, usable, Role::Decode)?;
    let pre_parts: PoolParts = super::pool_parts(z, &xp, usable, Role::Prefill)?;
    let (prompt, output) = (dec_parts.setup.prompt, dec_parts.setup.output);
    if dec_parts.setup.max_seqs == 0 {
        let tokens = prompt.saturating_add(output);
        return Err(ScenarioError::new("prefill_workers", ErrorKind::DecodePoolHoldsNoSequence { tokens }));
    }
    if pre_parts.setup.max_seqs == 0 {
        let tokens = prompt.saturating_add(1);
        return Err(ScenarioError::new(
            "prefill_tensor_parallel",
            ErrorKind::PrefillWorkerHoldsNoPrompt { tokens },
        ));
    }
    let prefill_gpus = xp.tp.saturating_mul(xp.dp);
    let decode_gpus = s.gpus.max(1);
    let total_gpus = prefill_gpus.saturating_add(decode_gpus);
    let (link, wire, efficiency) = transfer_link(z, total_gpus)?;
    let bytes = transfer_bytes(z, xp.tp, prompt);
    let layers = z.arch.attention_layers().div_ceil(z.inputs.pp.max(1));
    let transfer_s = transfer_seconds(bytes, wire, efficiency, layers);
    let prefill = pre_parts.step().map_err(pe)?;
    let decode = dec_parts.step().map_err(pe)?;
    let steps = step_times(&decode, &dec_parts.setup).map_err(pe)?;
    let alone = prefill_alone_s(&prefill, &pre_parts.setup).map_err(pe)?;
    let pools = Pools {
        prefill,
        pre: pre_parts.setup,
        decode,
        dec: dec_parts.setup,
        transfer_s,
        prefill_alone_s: alone,
        steps,
        kv_limit: dec_parts.kv_limit,
    };
    let facts = DisaggregatedReport {
        prefill_workers: xp.dp,
        prefill_tensor_parallel: xp.tp,
        prefill_gpus,
        decode_gpus,
        total_gpus,
        link,
        link_bytes_per_s: wire.bytes_per_s_per_direction,
        link_efficiency: efficiency,
        link_latency_s: wire.latency_s,
        transfer_bytes: u64::try_from(bytes).unwrap_or(u64::MAX),
        transfer_s,
        prefill_max_seqs: pools.pre.max_seqs,
        prefill_alone_s: alone,
        // Filled in from the saturated runs (or the half they were kept in).
        prefill_max_rate_per_s: 0.0,
        decode_max_rate_per_s: 0.0,
        limited_by: LimitingPool::Decode,
        prefill_p50_s: None,
        prefill_p99_s: None,
    };
    f(&pools, &facts)
}

/// What a disaggregated half is computed from besides its decode pool's [`LoadKey`]: the prefill
/// pool's setup, layout and shape, and the transfer.
#[derive(Clone, Debug, PartialEq)]
pub struct PrefillKey {
    setup: LoadSetup,
    par: crate::engine::perf::timing::Parallelism,
    shape: crate::engine::perf::phases::ModelShape,
    transfer_s: f64,
}

/// The `load` section of a disaggregated scenario at Poisson `rate` or, with `users`, a closed
/// loop; with its curve unless `curve` is false (then the curve is empty). `previous`, the half
/// of an earlier call, is used again when it was computed from the same inputs (an edit of the
/// rate or the users alone): the pools' saturated runs and the curve are then not run again.
pub fn load_report(
    z: &SizedScenario,
    usable: u128,
    users: Option<u64>,
    rate: f64,
    curve: bool,
    previous: Option<&LoadCurve>,
) -> Result<(LoadReport, LoadCurve), ScenarioError> {
    let pe = |e: PerfError| perf_error("load", e);
    with_pools(z, usable, |pools, facts| {
        let prefill = PrefillKey {
            setup: pools.pre,
            par: pools.prefill.par,
            shape: pools.prefill.shape.clone(),
            transfer_s: pools.transfer_s,
        };
        let key = LoadKey::of(&pools.decode, &pools.dec, users.is_some()).with_prefill(prefill);
        let kept = previous.filter(|h| h.key == key && h.pools.is_some() && (!curve || !h.curve.is_empty()));
        let ((pre_rate, dec_rate), points) = match kept {
            Some(h) => (h.pools.unwrap_or_default(), h.curve.clone()),
            None => {
                let rates = pools.saturated().map_err(pe)?;
                let max_rate = rates.0.min(rates.1);
                let points = if curve {
                    draw_curve(pools, users.is_some(), max_rate).map_err(pe)?
                } else {
                    Vec::new()
                };
                (rates, points)
            }
        };
        let max_rate = pre_rate.min(dec_rate);
        let run = match users {
            Some(u) => Some(pools.closed(u).map_err(pe)?),
            None if rate > 0.0 && rate < max_rate => Some(pools.open(rate).map_err(pe)?),
            None => None,
        };
        let half = LoadCurve {
            key,
            requests: run.as_ref().map_or(0, |t| t.decode.ttft_s.len() as u64),
            curve: points,
            max_rate,
            pools: Some((pre_rate, dec_rate)),
            ..pools.steps.clone()
        };
        let facts = DisaggregatedReport {
            prefill_max_rate_per_s: pre_rate,
            decode_max_rate_per_s: dec_rate,
            limited_by: if pre_rate < dec_rate { LimitingPool::Prefill } else { LimitingPool::Decode },
            ..facts.clone()
        };
        let r = assemble(pools, &facts, &half, users, rate, run.as_ref()).map_err(pe)?;
        Ok((r, half))
    })
}

/// Latencies at fractions of the sustainable rate, or over the users grid in a closed loop.
fn draw_curve(pools: &Pools, closed: bool, max_rate: f64) -> Result<Vec<LoadPoint>, PerfError> {
    if max_rate <= 0.0 {
        return Ok(Vec::new());
    }
    if closed {
        return users_grid(pools.dec.max_seqs, pools.dec.replicas)
            .into_iter()
            .map(|u| pools.closed(u).map(|t| point(Some(u), t.rate, &t.decode)))
            .collect();
    }
    CURVE_FRACTIONS
        .iter()
        .map(|f| pools.open(f * max_rate).map(|t| point(None, f * max_rate, &t.decode)))
        .collect()
}

/// The report from a run of both pools (none: not stable).
fn assemble(
    pools: &Pools,
    facts: &DisaggregatedReport,
    half: &LoadCurve,
    users: Option<u64>,
    rate: f64,
    run: Option<&Tandem>,
) -> Result<LoadReport, PerfError> {
    let d = pools.dec.replicas.max(1) as f64;
    let max_rate = half.max_rate;
    let completed = run.map_or(rate, |t| t.rate);
    let utilization = if max_rate > 0.0 { finite("utilization", completed / max_rate)? } else { 0.0 };
    let dec = run.map(|t| &t.decode);
    let pct = |v: Option<&Vec<f64>>, p: f64| v.and_then(|v| sim::percentile(v, p));
    let (ttft, tpot) = (dec.map(|r| &r.ttft_s), dec.map(|r| &r.tpot_s));
    let pre = run.map(|t| &t.prefill.ttft_s);
    let out = pools.dec.output as f64;
    let n = half.requests;
    Ok(LoadReport {
        concurrent_users: users,
        arrival_rate_per_s: completed,
        stable: run.is_some(),
        max_sustainable_rate_per_s: max_rate,
        // Little's law: requests in the system = rate × time in system.
        mean_concurrency: dec.map(|r| completed * r.mean_time_in_system_s),
        utilization,
        busy_fraction: dec.map(|r| r.busy_fraction),
        // As the aggregated model reports it: Poisson arrivals, the run's output tokens over its
        // duration; a closed loop, its completion rate × output tokens.
        throughput_tokens_per_s: match (users, dec) {
            (None, Some(r)) => finite("throughput", r.output_tokens_per_s * d)?,
            (Some(_), Some(_)) => finite("throughput", completed * out)?,
            (_, None) => max_rate * out,
        },
        run_output_tokens_per_s: dec.map(|r| r.output_tokens_per_s * d),
        throughput_bound_tokens_per_s: decode_bound(pools)?,
        ttft_p50_s: pct(ttft, 50.0),
        ttft_p90_s: pct(ttft, 90.0),
        ttft_p95_s: pct(ttft, 95.0),
        ttft_p99_s: pct(ttft, 99.0),
        ttft_mean_s: ttft.and_then(|v| sim::mean(v)),
        tpot_p50_s: pct(tpot, 50.0),
        tpot_p90_s: pct(tpot, 90.0),
        tpot_p95_s: pct(tpot, 95.0),
        tpot_p99_s: pct(tpot, 99.0),
        itl_p50_s: dec.and_then(|r| itl(r, 50.0)),
        itl_p90_s: dec.and_then(|r| itl(r, 90.0)),
        itl_p99_s: dec.and_then(|r| itl(r, 99.0)),
        itl_mean_s: dec.and_then(|r| sim::weighted_mean(&r.itl_s)),
        mean_time_in_system_s: dec.map(|r| r.mean_time_in_system_s),
        max_seqs: pools.dec.max_seqs,
        kv_limit_seqs: pools.kv_limit,
        step_token_budget: pools.dec.budget,
        replicas: pools.dec.replicas,
        decode_step_s: half.decode_step_s,
        mixed_step_s: half.mixed_step_s,
        mixed_chunk_tokens: half.mixed_chunk_tokens,
        saturated_step_s: half.saturated_step_s,
        requests_simulated: n,
        warmup_requests: u64_from_f64((n as f64 * WARMUP_FRACTION).floor()),
        seed: SEED,
        first_token_fixed_s: pools.pre.first_token_s,
        curve: half.curve.clone(),
        disaggregated: Some(DisaggregatedReport {
            prefill_p50_s: pct(pre, 50.0),
            prefill_p99_s: pct(pre, 99.0),
            ..facts.clone()
        }),
    })
}

/// The decode pool's roofline bound on output tokens per second: its sequences per step at peak
/// rates, no context cached (as the aggregated model's bound).
fn decode_bound(pools: &Pools) -> Result<f64, PerfError> {
    use crate::engine::perf::phases::decode_step_work;
    use crate::engine::perf::timing::{phase_timing, Phase};
    let st = &pools.decode;
    let cap = pools.dec.max_seqs.max(1) as f64;
    let w = decode_step_work(st.shape, cap, 0.0)?;
    let t = phase_timing(&w, st.shape, Phase::Decode, &st.hw, &st.par, &st.topo, &st.eff)?;
    let d = pools.dec.replicas.max(1) as f64;
    if t.bound.total_s > 0.0 {
        finite("throughput bound", cap * d / t.bound.total_s)
    } else {
        Ok(0.0)
    }
}
