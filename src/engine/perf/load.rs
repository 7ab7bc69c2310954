//! Serving under load: Poisson arrivals at `arrival_rate_per_s` served by continuous batching
//! with chunked prefill ([`sim`]), each scheduler step timed by the engine's own roofline timing
//! ([`super::timing::phase_timing`]) of that step's mix: the weights read once per step, the KV
//! cache of every running sequence read, the prompt chunk's FLOPs and attention.
//!
//! The scheduler's limits: `batch` is the most sequences admitted at once (vLLM `max_num_seqs`),
//! lowered to what the KV cache holds at `prompt + output` tokens each (the memory model's own
//! solver) and to the step's token budget (vLLM requires `max_num_batched_tokens >=
//! max_num_seqs`); the budget is `prefill_chunk_tokens` (vLLM `max_num_batched_tokens`).
//! Data-parallel replicas each see `rate / data_parallel` (Poisson splitting).
//!
//! The sustainable rate is measured, not assumed: the same simulation with every request
//! waiting from the start (a full queue) completes requests at the replica's saturated rate;
//! below it the queue stays bounded (`stable`), at or above it the queue grows without bound
//! and the latencies are undefined (null).

pub mod disagg;
pub mod sim;

use super::phases::{decode_step_work, ModelShape, PhaseWork};
use super::timing::{
    dense_gemm_and_weights, kernels_in_sequence_s, kernels_per_pass, phase_timing, Hardware, Parallelism,
    Phase,
};
use crate::engine::checked::perf_error;
use crate::engine::checked::{finite, PerfError};
use crate::engine::efficiency::Efficiency;
use crate::engine::error::ScenarioError;
use crate::engine::hardware::TopologyKind;
use crate::engine::links::Topology;
use crate::engine::memory::Inputs;
use crate::engine::num::{u32_sat, u64_from_f64, usize_sat};
use crate::engine::perf::performance::{at_context, served_shape, time_model_inputs, SizedScenario};
use serde::Serialize;
use sim::{simulate, SimInputs, StepMix, StepTime};
use std::cell::Cell;

/// Requests simulated per rate (before the bound on iterations lowers it for long prompts).
pub const REQUESTS: usize = 400;
/// Requests left out of the percentiles at the start (the empty system warming up).
pub const WARMUP_FRACTION: f64 = 0.1;
/// The generator's fixed seed: the same scenario always gives the same numbers.
pub const SEED: u64 = 0x6750_5052_494D_4552;
/// Fractions of the sustainable rate the curve is drawn at.
pub const CURVE_FRACTIONS: [f64; 10] = [0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 0.95];

/// Latencies at one arrival rate, or at one number of users in a closed loop (a point of the
/// chart).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct LoadPoint {
    /// Users in the closed loop (null: Poisson arrivals at `arrival_rate_per_s`).
    pub concurrent_users: Option<u64>,
    /// The rate requests arrive at (a closed loop: the rate its users send at).
    pub arrival_rate_per_s: f64,
    pub ttft_p50_s: f64,
    pub ttft_p90_s: f64,
    pub ttft_p95_s: f64,
    pub ttft_p99_s: f64,
    /// Null when requests generate a single token.
    pub tpot_p50_s: Option<f64>,
    pub tpot_p90_s: Option<f64>,
    pub tpot_p95_s: Option<f64>,
    pub tpot_p99_s: Option<f64>,
    /// p99 of the gaps between consecutive tokens, over tokens ([`LoadReport::itl_p99_s`]).
    pub itl_p99_s: Option<f64>,
}

/// The report's `load` section (null when the scenario sets neither an arrival rate nor
/// concurrent users).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct LoadReport {
    /// Users in a closed loop over the whole deployment (null: Poisson arrivals at
    /// `arrival_rate_per_s`).
    pub concurrent_users: Option<u64>,
    /// Requests per second over the whole deployment (a closed loop: the rate its users send
    /// at, which is the rate it completes).
    pub arrival_rate_per_s: f64,
    /// Below the sustainable rate: the queue stays bounded.
    pub stable: bool,
    /// Requests per second the deployment completes with a full queue.
    pub max_sustainable_rate_per_s: f64,
    /// Time-average of requests in the system, waiting or running (null when not stable).
    pub mean_concurrency: Option<f64>,
    /// Arrival rate ÷ sustainable rate (a closed loop: its completion rate ÷ that): a ratio of
    /// rates, not a share of time. A closed loop can pass 1: its requests are admitted one by one
    /// as others finish, so their prompts share the decode steps, which the full-queue run (all
    /// admitted together) does not reach.
    pub utilization: f64,
    /// Share of the run's wall time the replica's GPUs spend running steps (Σ step times ÷
    /// time from the first arrival to the last completion; at most 1; the busiest replica in a
    /// closed loop). Continuous batching steps whenever a request is admitted, so it stays high
    /// well below the sustainable rate. Null when not stable.
    pub busy_fraction: Option<f64>,
    /// Output tokens per second served (at saturation when not stable).
    pub throughput_tokens_per_s: f64,
    /// Output tokens of the whole simulated run over its duration, first send to last token, as
    /// the serving benchmarks print their "output token throughput" (null when not stable).
    pub run_output_tokens_per_s: Option<f64>,
    /// Roofline bound on output tokens per second: `max_seqs` sequences per decode step at peak
    /// rates, no context cached, whole deployment. The throughput can never exceed it.
    pub throughput_bound_tokens_per_s: f64,
    pub ttft_p50_s: Option<f64>,
    pub ttft_p90_s: Option<f64>,
    pub ttft_p95_s: Option<f64>,
    pub ttft_p99_s: Option<f64>,
    /// Mean time to first token: what serving benchmarks print as the average (genai-perf,
    /// AIPerf, NIM's tables), above the median when some requests wait behind another's prompt.
    pub ttft_mean_s: Option<f64>,
    /// Time per output token of each request, (last − first token) / (output − 1), at the
    /// percentiles over requests (null when not stable or with one output token).
    pub tpot_p50_s: Option<f64>,
    pub tpot_p90_s: Option<f64>,
    pub tpot_p95_s: Option<f64>,
    pub tpot_p99_s: Option<f64>,
    /// Inter-token latency: the gap between consecutive tokens of a sequence, at percentiles over
    /// every token (not over requests). A request's TPOT averages its gaps; a step that also
    /// carries a prompt chunk (chunked prefill) or runs prompts alone (prefill first) makes some
    /// gaps long, so the ITL's tail (p99) is what a reader sees as a stall in the stream, well
    /// above the TPOT's (vLLM's benchmark reports both: `benchmark_serving.py`, "ITL" and
    /// "TPOT"; Agrawal et al. 2024 (Sarathi-Serve) §2: generation stalls under prefill
    /// interference). Null when not stable or with one output token.
    pub itl_p50_s: Option<f64>,
    pub itl_p90_s: Option<f64>,
    pub itl_p99_s: Option<f64>,
    /// Mean inter-token latency over tokens.
    pub itl_mean_s: Option<f64>,
    /// Mean time from arrival to the last token (null when not stable).
    pub mean_time_in_system_s: Option<f64>,
    /// Sequences admitted at once per replica: min(batch, kv_limit, step_token_budget).
    pub max_seqs: u64,
    /// Sequences of `prompt + output` tokens whose KV cache fits (null: not even one).
    pub kv_limit_seqs: Option<u64>,
    /// Tokens per scheduler step (prefill_chunk_tokens).
    pub step_token_budget: u64,
    pub replicas: u64,
    /// A step of `max_seqs` decodes at `prompt + output/2` cached tokens each (expected).
    pub decode_step_s: f64,
    /// A step of `max_seqs − 1` decodes plus one fresh prompt chunk (what an arrival costs the
    /// running sequences' next token).
    pub mixed_step_s: f64,
    /// Tokens of that chunk: min(prompt − cached, budget − (max_seqs − 1)), after the cached
    /// prefix.
    pub mixed_chunk_tokens: u64,
    /// Mean step time with a full queue (the saturated run).
    pub saturated_step_s: f64,
    pub requests_simulated: u64,
    pub warmup_requests: u64,
    pub seed: u64,
    /// The first-token fixed cost used (seconds per request).
    pub first_token_fixed_s: f64,
    /// p50/p90/p95/p99 TTFT and TPOT, and p99 ITL, at fractions of the sustainable rate; for a closed loop, at
    /// numbers of users ([`users_grid`]).
    pub curve: Vec<LoadPoint>,
    /// Prefill and decode on separate pools (`prefill_workers` > 0, [`disagg`]); null: one
    /// aggregated pool.
    pub disaggregated: Option<disagg::DisaggregatedReport>,
}

/// The engine's timing of one step's mix: [`phase_timing`] of the mix's work, taken apart once so
/// that a step costs a few multiplications. For a fixed layout, phase_timing's expected time is
/// `max(k_c·W, k_m·Q) + C(T) + O` with `k_c`, `k_m` the per-FLOP and per-byte seconds (slots ×
/// share / (peak × efficiency)) and the communication and launch overhead depending only on the
/// step's tokens `T`; `new` reads `k_c` and `k_m` from one call, and `C(T) + O` comes from a call
/// per distinct `T` (kept in a small cache). A test checks it against phase_timing itself.
#[derive(Debug)]
pub struct EngineStep<'a> {
    pub shape: &'a ModelShape,
    pub hw: Hardware,
    pub par: Parallelism,
    pub topo: Topology,
    pub eff: Efficiency,
    k_compute: f64,
    k_memory: f64,
    /// Kernels of one pass, for the host's time of an eager step ([`kernels_per_pass`]).
    kernels: f64,
    /// Communication + overhead seconds by step tokens (direct-mapped).
    fixed: [Cell<(u64, f64)>; 64],
}

impl<'a> EngineStep<'a> {
    pub fn new(
        shape: &'a ModelShape,
        hw: Hardware,
        par: Parallelism,
        topo: Topology,
        eff: Efficiency,
    ) -> Result<Self, PerfError> {
        // The per-FLOP and per-byte seconds of the dense kernels (the routed experts are timed
        // by their kernel family apart, in `step`).
        let probe = PhaseWork {
            flops: 1e12,
            bytes: 1e9,
            expected_bytes: 1e9,
            tokens: 1.0,
            logit_rows: 1.0,
            decode_sequences: 1.0,
        };
        let dense = ModelShape { moe: None, ..shape.clone() };
        let t = phase_timing(&probe, &dense, Phase::Decode, &hw, &par, &topo, &eff)?;
        Ok(EngineStep {
            shape,
            hw,
            par,
            topo,
            k_compute: t.expected.compute_s / 1e12,
            k_memory: t.expected.memory_s / 1e9,
            // A step passes every pipeline stage in turn (`m + pp − 1 = pp` slots of `K/pp`).
            kernels: kernels_per_pass(shape, 1, &eff),
            eff,
            fixed: std::array::from_fn(|_| Cell::new((u64::MAX, 0.0))),
        })
    }

    /// FLOPs and bytes of a mix: `W = 2·P_active·T + 4·L·d_attn·(Σ(c_i + 1) + Σ chunk
    /// positions)`, `Q = weights read once for T tokens + KV read and written by each decode
    /// (Σ(c_i + 1)) + KV written by the chunks + 2·state per decode` (+ the chunks' cached
    /// prefix, expected only),
    /// as [`super::phases::decode_step_work`] and [`super::phases::prefill_work`] count them.
    pub fn work(&self, m: &StepMix) -> PhaseWork {
        let s = self.shape;
        let t = m.decode_seqs as f64 + m.prefill_tokens as f64;
        // Logits for every decode token and the last position of each prompt chunk.
        let logit_rows = (m.decode_seqs + m.prefill_chunks) as f64;
        let per_pos = 4.0 * f64::from(s.layers) * f64::from(s.attention_width);
        let dec_positions = m.decode_cached_sum + m.decode_seqs as f64;
        let (wb, we) = s.weight_bytes_read(t);
        // A hybrid model's fixed state: read and written back by every decode (as
        // decode_step_work counts it); a prompt chunk's state update is left out (one per chunk).
        let kv = (dec_positions + m.prefill_tokens as f64) * s.kv_bytes_per_token
            + 2.0 * m.decode_seqs as f64 * s.state_bytes_per_sequence;
        PhaseWork {
            flops: s.weight_flops(t, logit_rows) + per_pos * (dec_positions + m.prefill_positions),
            bytes: wb + kv,
            expected_bytes: we + kv + m.prefill_past * s.kv_bytes_per_token,
            tokens: t,
            logit_rows,
            decode_sequences: m.decode_seqs as f64,
        }
    }

    /// Expected and bound seconds of a mix straight from [`phase_timing`].
    pub fn times(&self, m: &StepMix) -> Result<(f64, f64), PerfError> {
        let w = self.work(m);
        let t = phase_timing(&w, self.shape, Phase::Decode, &self.hw, &self.par, &self.topo, &self.eff)?;
        Ok((t.expected.total_s, t.bound.total_s))
    }

    /// Seconds of the routed experts' grouped GEMMs in a step of `tokens` tokens, as
    /// [`phase_timing`] adds them: `L/pp · I · max(memory, compute)` of one MoE layer.
    fn grouped_gemm_s(&self, tokens: f64) -> Result<f64, PerfError> {
        let Some(run) = self.shape.moe.as_ref().filter(|_| self.shape.experts > 0) else { return Ok(0.0) };
        let l = super::moe::moe_layer_time(
            run,
            tokens,
            self.hw.peak_flops_per_s,
            self.hw.memory_bandwidth_bytes_per_s,
        )?;
        let layers = f64::from(run.layers) / f64::from(self.par.pipeline.max(1));
        Ok(layers * l.imbalance * l.memory_s.max(l.compute_s))
    }

    /// Communication and overhead seconds of a step of `tokens` tokens (without the CPU's share,
    /// which `step` applies to the whole step).
    fn fixed_s(&self, tokens: u64) -> Result<f64, PerfError> {
        let slot = self.fixed.get(usize_sat(tokens % 64));
        if let Some((t, v)) = slot.map(Cell::get) {
            if t == tokens {
                return Ok(v);
            }
        }
        let t = tokens as f64;
        // No decoding sequences: the host's eager time belongs to `step`, over the whole step.
        let w = PhaseWork {
            flops: 0.0,
            bytes: 0.0,
            expected_bytes: 0.0,
            tokens: t,
            logit_rows: t,
            decode_sequences: 0.0,
        };
        let t = phase_timing(&w, self.shape, Phase::Decode, &self.hw, &self.par, &self.topo, &self.eff)?;
        let v = t.expected.communication_s + t.expected.overhead_s - t.cpu_exposed_s;
        if let Some(c) = slot {
            c.set((tokens, v));
        }
        Ok(v)
    }
}

impl StepTime for EngineStep<'_> {
    fn step(&self, mix: &StepMix) -> Result<(f64, bool), PerfError> {
        let w = self.work(mix);
        // The routed experts apart (their kernel family's grouped GEMMs), the rest as one roofline.
        let (ef, _, eb) = self.shape.routed_expert_work(w.tokens);
        let (flops, q) = ((w.flops - ef).max(0.0), (w.expected_bytes.max(w.bytes) - eb).max(0.0));
        let (c, m) = (self.k_compute * flops, self.k_memory * q);
        // GEMMs, then attention over the caches: kernels in sequence, as phase_timing times them.
        let (gemm, weights) = dense_gemm_and_weights(self.shape, w.tokens, w.logit_rows, 1.0);
        let core = kernels_in_sequence_s(self.k_compute, self.k_memory, flops, q, gemm, weights)
            + self.grouped_gemm_s(w.tokens)?;
        let gpu = core + self.fixed_s(mix.decode_seqs + mix.prefill_tokens)?;
        // Past the stack's largest decode graph the step runs eagerly: at least the host's time.
        let eager = self.eff.eager_host_s(self.kernels, w.decode_sequences);
        let t = finite("step time", (gpu / (1.0 - self.eff.cpu_share_of_step)).max(eager))?;
        Ok((t, c >= m))
    }
}

/// The queue-independent inputs of the load model for one replica.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct LoadSetup {
    pub prompt: u64,
    /// Tokens of each prompt found in the prefix cache (`memory::prefix`).
    pub cached: u64,
    pub output: u64,
    pub max_seqs: u64,
    pub budget: u64,
    pub replicas: u64,
    /// The per-request fixed cost before the first token (tokenisation, scheduling, sampling,
    /// first launches): the efficiency factor `request_overhead_s`, the same one TTFT carries
    /// without load. It occupies no GPU step; it is added to TTFT and to the time in system.
    pub first_token_s: f64,
    /// The scheduler runs waiting prompts in steps of their own (`prefill_policy`).
    pub prefill_first: bool,
    /// Requests a closed loop sends in all, whole deployment (`benchmark_requests`; `None`:
    /// 10 × users).
    pub benchmark_requests: Option<u64>,
    /// The shortest request's share of the stated lengths (`length_min_ratio`, 1: all equal).
    pub length_min_ratio: f64,
    /// A closed loop's latencies over its steady state (genai-perf's windows), not over every
    /// request (vLLM's and SGLang's benchmarks).
    pub steady_state: bool,
}

/// Requests per run for a prompt of `prompt` tokens and budget `budget`: fewer when prompts
/// take many chunks, so a run stays within [`sim::MAX_ITERATIONS`].
fn requests_for(prompt: u64, budget: u64, base: u64) -> u64 {
    let per_request = prompt.div_ceil(budget.max(1)).saturating_add(4);
    (sim::MAX_ITERATIONS / 2 / per_request).clamp(20, base.max(20))
}

fn sim_inputs(c: &LoadSetup, rate: f64, requests: u64) -> SimInputs {
    let n = usize_sat(requests);
    SimInputs {
        rate_per_s: rate,
        users: 0,
        spread_s: 0.0,
        prefill_first: c.prefill_first,
        prompt_tokens: c.prompt,
        cached_tokens: c.cached,
        output_tokens: c.output,
        length_min_ratio: c.length_min_ratio,
        max_seqs: c.max_seqs,
        step_token_budget: c.budget,
        requests: n,
        warmup: usize_sat(u64_from_f64((requests as f64 * WARMUP_FRACTION).floor())),
        cooldown: 0,
        seed: SEED,
        first_token_fixed_s: c.first_token_s,
    }
}

/// The rate-independent half of the load model: the step times the panel explains, the
/// throughput bound, the saturated run and the latency curve. None of it depends on the arrival
/// rate (the curve is drawn at fractions of the sustainable rate), so a caller that changes only
/// the rate can keep it ([`load_report_reusing`]) and pay one simulation instead of twelve.
#[derive(Clone, Debug, PartialEq)]
pub struct LoadCurve {
    /// Everything the half is computed from: equal inputs give the same half.
    key: LoadKey,
    requests: u64,
    decode_step_s: f64,
    mixed_step_s: f64,
    mixed_chunk_tokens: u64,
    throughput_bound_tokens_per_s: f64,
    max_rate: f64,
    saturated_step_s: f64,
    curve: Vec<LoadPoint>,
    /// A disaggregated deployment's pools' sustainable rates, prefill and decode ([`disagg`]).
    pools: Option<(f64, f64)>,
}

/// The inputs of [`LoadCurve`]: the setup and the step timing's own inputs.
#[derive(Clone, Debug, PartialEq)]
struct LoadKey {
    setup: LoadSetup,
    /// The curve is over users (a closed loop) rather than over the arrival rate.
    closed_loop: bool,
    /// A disaggregated deployment's prefill pool and transfer ([`disagg`]): none for one pool.
    prefill: Option<disagg::PrefillKey>,
    shape: ModelShape,
    hw: Hardware,
    par: Parallelism,
    topo: Topology,
    eff: Efficiency,
}

impl LoadKey {
    fn of(st: &EngineStep, c: &LoadSetup, closed_loop: bool) -> LoadKey {
        LoadKey {
            setup: *c,
            closed_loop,
            prefill: None,
            shape: st.shape.clone(),
            hw: st.hw,
            par: st.par,
            topo: st.topo,
            eff: st.eff.clone(),
        }
    }
}

impl LoadKey {
    /// The key of a disaggregated model's half: its decode pool's key with the prefill pool's.
    fn with_prefill(self, prefill: disagg::PrefillKey) -> LoadKey {
        LoadKey { prefill: Some(prefill), ..self }
    }
}

/// The rate-independent half for a step timing and setup; its curve over users when
/// `closed_loop`, else over fractions of the sustainable rate.
pub fn load_curve(st: &EngineStep, c: &LoadSetup, closed_loop: bool) -> Result<LoadCurve, PerfError> {
    let dp = c.replicas.max(1) as f64;
    let n = requests_for(c.prompt, c.budget, REQUESTS as u64);
    let cap = c.max_seqs.max(1) as f64;
    let LoadCurve { decode_step_s, mixed_step_s, mixed_chunk_tokens: chunk, .. } = step_times(st, c)?;
    let w = decode_step_work(st.shape, cap, 0.0)?;
    let t = phase_timing(&w, st.shape, Phase::Decode, &st.hw, &st.par, &st.topo, &st.eff)?;
    let bound =
        if t.bound.total_s > 0.0 { finite("throughput bound", cap * dp / t.bound.total_s)? } else { 0.0 };

    // Saturated: a full queue, enough requests for several turnovers of the batch.
    // With max_seqs 0 (not one request's KV cache fits beside the weights) nothing is served.
    let (max_rate, saturated_step_s) = if c.max_seqs > 0 {
        let n_sat = requests_for(c.prompt, c.budget, c.max_seqs.saturating_mul(3).saturating_add(60));
        let sat = simulate(&sim_inputs(c, 0.0, n_sat), st)?;
        (sat.steady_completions_per_s * dp, if sat.steps > 0 { sat.end_s / sat.steps as f64 } else { 0.0 })
    } else {
        (0.0, 0.0)
    };

    let curve = match (max_rate > 0.0, closed_loop) {
        (false, _) => Vec::new(),
        (true, false) => rate_curve(st, c, max_rate, n)?,
        (true, true) => users_curve(st, c, cycle_s(c, mixed_step_s, decode_step_s))?,
    };
    Ok(LoadCurve {
        key: LoadKey::of(st, c, closed_loop),
        requests: n,
        decode_step_s,
        mixed_step_s,
        mixed_chunk_tokens: chunk,
        throughput_bound_tokens_per_s: bound,
        max_rate,
        saturated_step_s,
        curve,
        pools: None,
    })
}

/// Latencies at [`CURVE_FRACTIONS`] of the sustainable rate `max_rate` (whole deployment).
fn rate_curve(st: &EngineStep, c: &LoadSetup, max_rate: f64, n: u64) -> Result<Vec<LoadPoint>, PerfError> {
    let dp = c.replicas.max(1) as f64;
    CURVE_FRACTIONS
        .iter()
        .map(|f| {
            let r = simulate(&sim_inputs(c, f * max_rate / dp, n), st)?;
            Ok(point(None, f * max_rate, &r))
        })
        .collect()
}

/// Numbers of users the closed-loop curve is drawn at: 1 and nine steps of equal ratio up to
/// twice the sequences the deployment runs at once (`max_seqs × replicas`), so that the curve
/// shows where users start to queue; rounded, without repeats.
pub fn users_grid(max_seqs: u64, replicas: u64) -> Vec<u64> {
    let top = (2 * max_seqs.max(1)).saturating_mul(replicas.max(1)).max(2) as f64;
    let mut v: Vec<u64> =
        (0..10).map(|k| u64_from_f64(top.powf(f64::from(k) / 9.0).round()).max(1)).collect();
    v.dedup();
    v
}

/// Latencies of closed loops at [`users_grid`] users (whole deployment).
fn users_curve(st: &EngineStep, c: &LoadSetup, cycle: f64) -> Result<Vec<LoadPoint>, PerfError> {
    users_grid(c.max_seqs, c.replicas)
        .into_iter()
        .map(|users| {
            let share = users_per_replica(users, c.replicas);
            let r = simulate(&closed_inputs(c, share, users, cycle), st)?;
            Ok(point(Some(users), r.steady_completions_per_s * users as f64 / share as f64, &r))
        })
        .collect()
}

/// A point of the curve from a run's latencies.
fn point(users: Option<u64>, rate: f64, r: &sim::SimResult) -> LoadPoint {
    LoadPoint {
        concurrent_users: users,
        arrival_rate_per_s: rate,
        ttft_p50_s: sim::percentile(&r.ttft_s, 50.0).unwrap_or(0.0),
        ttft_p90_s: sim::percentile(&r.ttft_s, 90.0).unwrap_or(0.0),
        ttft_p95_s: sim::percentile(&r.ttft_s, 95.0).unwrap_or(0.0),
        ttft_p99_s: sim::percentile(&r.ttft_s, 99.0).unwrap_or(0.0),
        tpot_p50_s: sim::percentile(&r.tpot_s, 50.0),
        tpot_p90_s: sim::percentile(&r.tpot_s, 90.0),
        tpot_p95_s: sim::percentile(&r.tpot_s, 95.0),
        tpot_p99_s: sim::percentile(&r.tpot_s, 99.0),
        itl_p99_s: itl(r, 99.0),
    }
}

/// Percentile `p` of a run's inter-token latencies (none with one output token).
fn itl(r: &sim::SimResult, p: f64) -> Option<f64> {
    sim::weighted_percentile(&r.itl_s, p)
}

/// The run at `rate` (whole deployment) on top of the rate-independent half `h`, which must
/// have been computed from the same `st` and `c`.
fn load_at(st: &EngineStep, c: &LoadSetup, h: &LoadCurve, rate: f64) -> Result<LoadReport, PerfError> {
    let rate = crate::engine::checked::non_negative("arrival_rate_per_s", rate)?;
    let dp = c.replicas.max(1) as f64;
    let (n, max_rate) = (h.requests, h.max_rate);
    let stable = rate > 0.0 && rate < max_rate;
    let utilization = if max_rate > 0.0 { finite("utilization", rate / max_rate)? } else { 0.0 };
    let run = if stable { Some(simulate(&sim_inputs(c, rate / dp, n), st)?) } else { None };
    let pct = |v: Option<&Vec<f64>>, p: f64| v.and_then(|v| sim::percentile(v, p));
    let (ttft, tpot) = (run.as_ref().map(|r| &r.ttft_s), run.as_ref().map(|r| &r.tpot_s));
    let throughput = match &run {
        Some(r) => r.output_tokens_per_s * dp,
        None => max_rate * c.output as f64,
    };
    Ok(LoadReport {
        concurrent_users: None,
        arrival_rate_per_s: rate,
        stable,
        max_sustainable_rate_per_s: max_rate,
        mean_concurrency: run.as_ref().map(|r| r.mean_in_system * dp),
        utilization,
        busy_fraction: run.as_ref().map(|r| r.busy_fraction),
        throughput_tokens_per_s: throughput,
        run_output_tokens_per_s: run.as_ref().map(|r| r.output_tokens_per_s * dp),
        throughput_bound_tokens_per_s: h.throughput_bound_tokens_per_s,
        ttft_p50_s: pct(ttft, 50.0),
        ttft_p90_s: pct(ttft, 90.0),
        ttft_p95_s: pct(ttft, 95.0),
        ttft_p99_s: pct(ttft, 99.0),
        ttft_mean_s: ttft.and_then(|v| sim::mean(v)),
        tpot_p50_s: pct(tpot, 50.0),
        tpot_p90_s: pct(tpot, 90.0),
        tpot_p95_s: pct(tpot, 95.0),
        tpot_p99_s: pct(tpot, 99.0),
        itl_p50_s: run.as_ref().and_then(|r| itl(r, 50.0)),
        itl_p90_s: run.as_ref().and_then(|r| itl(r, 90.0)),
        itl_p99_s: run.as_ref().and_then(|r| itl(r, 99.0)),
        itl_mean_s: run.as_ref().and_then(|r| sim::weighted_mean(&r.itl_s)),
        mean_time_in_system_s: run.as_ref().map(|r| r.mean_time_in_system_s),
        max_seqs: c.max_seqs,
        kv_limit_seqs: None,
        step_token_budget: c.budget,
        replicas: c.replicas,
        decode_step_s: h.decode_step_s,
        mixed_step_s: h.mixed_step_s,
        mixed_chunk_tokens: h.mixed_chunk_tokens,
        saturated_step_s: h.saturated_step_s,
        requests_simulated: n,
        warmup_requests: u64_from_f64((n as f64 * WARMUP_FRACTION).floor()),
        seed: SEED,
        first_token_fixed_s: c.first_token_s,
        curve: h.curve.clone(),
        disaggregated: None,
    })
}

/// What the load model computes, from a step timing and the setup: the saturated rate, the
/// run at `rate` (whole deployment) and the curve.
pub fn load_model(st: &EngineStep, c: &LoadSetup, rate: f64) -> Result<LoadReport, PerfError> {
    // A bad rate is named before twelve simulations are spent.
    crate::engine::checked::non_negative("arrival_rate_per_s", rate)?;
    load_at(st, c, &load_curve(st, c, false)?, rate)
}

/// Users per replica in a closed loop of `users` over `replicas`: the busiest replica's share
/// (a client spreads its connections round robin).
fn users_per_replica(users: u64, replicas: u64) -> u64 {
    users.div_ceil(replicas.max(1)).max(1)
}

/// About one request's time from send to last token: its prompt in one mixed step and its
/// output at full-batch decode steps, plus the fixed cost (the spread of a steady-state closed
/// loop's first sends, [`sim::SimInputs::spread_s`]).
fn cycle_s(c: &LoadSetup, mixed_step_s: f64, decode_step_s: f64) -> f64 {
    c.first_token_s + mixed_step_s + c.output as f64 * decode_step_s
}

/// Requests a closed loop of `users` (whole deployment) sends in all when the reader gives no
/// `benchmark_requests`: 10 per user, the convention of the sweeps in vLLM PR #28992 (4 users
/// 40 prompts … 128 users 1,280).
pub const REQUESTS_PER_USER: u64 = 10;

/// The closed-loop run's inputs for one replica holding `share` of `users` users, as the serving
/// benchmarks run a fixed concurrency: every user's first request sent at 0, `--num-prompts`
/// requests in all (`benchmark_requests` over the replicas, default [`REQUESTS_PER_USER`] per
/// user) and every one of them measured, the first wave included (the benchmarks print the mean
/// over all requests); fewer requests when prompts take many chunks ([`requests_for`]).
/// A steady-state measurement (genai-perf) starts the users at random phases over about one
/// request's time ([`cycle_s`]) and leaves out the first `users` requests and a tenth of the run
/// as warm-up and the last `users` as the drain, over at least [`REQUESTS`] requests.
fn closed_inputs(c: &LoadSetup, share: u64, users: u64, cycle: f64) -> SimInputs {
    let total = c.benchmark_requests.unwrap_or(users.saturating_mul(REQUESTS_PER_USER));
    let base = u64_from_f64((total as f64 * share as f64 / users.max(1) as f64).ceil()).max(share);
    if c.steady_state {
        let n = requests_for(c.prompt, c.budget, base.max(REQUESTS as u64).max(share.saturating_mul(4)));
        let tenth = u64_from_f64((n as f64 * WARMUP_FRACTION).floor());
        return SimInputs {
            users: share,
            spread_s: cycle,
            warmup: usize_sat(share.max(tenth)),
            cooldown: usize_sat(share),
            ..sim_inputs(c, 0.0, n)
        };
    }
    let n = requests_for(c.prompt, c.budget, base);
    SimInputs { users: share, warmup: 0, cooldown: 0, ..sim_inputs(c, 0.0, n) }
}

/// The closed loop at `users` users (whole deployment) on top of the rate-independent half `h`:
/// each replica serves its share of the users, every user sending its next request when the
/// last one completes. Throughput is the steady completion rate (between the first and third
/// quarters of completions) × output tokens, scaled from the busiest replica by users / its
/// share. Always stable: at most `users` requests are in the system.
fn closed_loop_at(
    st: &EngineStep,
    c: &LoadSetup,
    h: &LoadCurve,
    users: u64,
) -> Result<LoadReport, PerfError> {
    let share = users_per_replica(users, c.replicas);
    let scale = users as f64 / share as f64;
    let x = closed_inputs(c, share, users, cycle_s(c, h.mixed_step_s, h.decode_step_s));
    let r = if c.max_seqs > 0 { Some(simulate(&x, st)?) } else { None };
    let rate = r.as_ref().map_or(0.0, |r| r.steady_completions_per_s * scale);
    let pct = |p: f64, tpot: bool| {
        r.as_ref().and_then(|r| sim::percentile(if tpot { &r.tpot_s } else { &r.ttft_s }, p))
    };
    Ok(LoadReport {
        concurrent_users: Some(users),
        arrival_rate_per_s: rate,
        stable: true,
        max_sustainable_rate_per_s: h.max_rate,
        mean_concurrency: r.as_ref().map(|r| r.mean_in_system * scale),
        utilization: if h.max_rate > 0.0 { finite("utilization", rate / h.max_rate)? } else { 0.0 },
        busy_fraction: r.as_ref().map(|r| r.busy_fraction),
        throughput_tokens_per_s: finite("throughput", rate * c.output as f64)?,
        run_output_tokens_per_s: r.as_ref().map(|r| r.output_tokens_per_s * scale),
        throughput_bound_tokens_per_s: h.throughput_bound_tokens_per_s,
        ttft_p50_s: pct(50.0, false),
        ttft_p90_s: pct(90.0, false),
        ttft_p95_s: pct(95.0, false),
        ttft_p99_s: pct(99.0, false),
        ttft_mean_s: r.as_ref().and_then(|r| sim::mean(&r.ttft_s)),
        tpot_p50_s: pct(50.0, true),
        tpot_p90_s: pct(90.0, true),
        tpot_p95_s: pct(95.0, true),
        tpot_p99_s: pct(99.0, true),
        itl_p50_s: r.as_ref().and_then(|r| itl(r, 50.0)),
        itl_p90_s: r.as_ref().and_then(|r| itl(r, 90.0)),
        itl_p99_s: r.as_ref().and_then(|r| itl(r, 99.0)),
        itl_mean_s: r.as_ref().and_then(|r| sim::weighted_mean(&r.itl_s)),
        mean_time_in_system_s: r.as_ref().map(|r| r.mean_time_in_system_s),
        max_seqs: c.max_seqs,
        kv_limit_seqs: None,
        step_token_budget: c.budget,
        replicas: c.replicas,
        decode_step_s: h.decode_step_s,
        mixed_step_s: h.mixed_step_s,
        mixed_chunk_tokens: h.mixed_chunk_tokens,
        saturated_step_s: h.saturated_step_s,
        requests_simulated: x.requests as u64,
        warmup_requests: x.warmup as u64,
        seed: SEED,
        first_token_fixed_s: c.first_token_s,
        curve: h.curve.clone(),
        disaggregated: None,
    })
}

/// What the load model computes for a closed loop of `users` users (whole deployment).
pub fn closed_loop_model(st: &EngineStep, c: &LoadSetup, users: u64) -> Result<LoadReport, PerfError> {
    closed_loop_at(st, c, &load_curve(st, c, true)?, users)
}

/// The `load` section for a sized scenario (inference only; null without an arrival rate or
/// concurrent users; with both, the closed loop of `concurrent_users`).
/// `usable` is the GPU memory the KV cache limit is found in.
pub fn load_report(z: &SizedScenario, usable: u128) -> Result<Option<LoadReport>, ScenarioError> {
    Ok(load_report_reusing(z, usable, None)?.map(|(r, _)| r))
}

/// [`load_report`], and the rate-independent half it used: `previous` is used again when it was
/// computed from the same inputs (an edit of the arrival rate alone), else computed anew. The
/// report is the same either way (a test checks it); only the work differs.
pub fn load_report_reusing(
    z: &SizedScenario,
    usable: u128,
    previous: Option<&LoadCurve>,
) -> Result<Option<(LoadReport, LoadCurve)>, ScenarioError> {
    let s = z.scenario;
    let users = s.concurrent_users.filter(|u| *u > 0);
    let rate = match (users, s.arrival_rate_per_s) {
        _ if z.inputs.trains() => return Ok(None),
        (Some(_), _) => 0.0,
        (None, Some(r)) if r > 0.0 => r,
        _ => return Ok(None),
    };
    if s.prefill_workers > 0 {
        return disagg::load_report(z, usable, users, rate, true, previous).map(Some);
    }
    let pe = |e: PerfError| perf_error("load", e);
    with_setup(z, usable, |st, setup, kv_limit| {
        let half = match previous {
            Some(h) if h.key == LoadKey::of(st, setup, users.is_some()) => h.clone(),
            _ => load_curve(st, setup, users.is_some()).map_err(pe)?,
        };
        let mut r = match users {
            Some(u) => closed_loop_at(st, setup, &half, u),
            None => load_at(st, setup, &half, rate),
        }
        .map_err(pe)?;
        r.kv_limit_seqs = kv_limit;
        Ok(Some((r, half)))
    })
}

/// What each user of a static batch waits for the first token when the batch's sequences are
/// users in a closed loop instead (`batch × data_parallel` users, each sending its next request
/// as soon as the last completes: a serving benchmark at that concurrency): one simulation,
/// without the sustainable rate or the curve (their fields are 0 and empty). `None` in training
/// or when the load model already runs (its own `load` section says it).
///
/// A static batch's time to first token is the whole batch's prefill, which every user of a
/// running service does not wait: a new request's prompt shares the steps of the others'
/// decoding (continuous batching, Yu et al. 2022 (Orca); chunked prefill, Agrawal et al. 2024
/// (Sarathi-Serve)).
pub fn static_batch_users_wait(z: &SizedScenario, usable: u128) -> Result<Option<LoadReport>, ScenarioError> {
    let s = z.scenario;
    let load_runs =
        s.concurrent_users.is_some_and(|u| u > 0) || s.arrival_rate_per_s.is_some_and(|r| r > 0.0);
    if z.inputs.trains() || load_runs {
        return Ok(None);
    }
    let pe = |e: PerfError| perf_error("load", e);
    let users = z.inputs.batch.max(1).saturating_mul(z.inputs.dp.max(1));
    if s.prefill_workers > 0 {
        return disagg::load_report(z, usable, Some(users), 0.0, false, None).map(|(r, _)| Some(r));
    }
    with_setup(z, usable, |st, setup, kv_limit| {
        let half = step_times(st, setup).map_err(pe)?;
        let mut r = closed_loop_at(st, setup, &half, users).map_err(pe)?;
        r.kv_limit_seqs = kv_limit;
        Ok(Some(r))
    })
}

/// The rate-independent half without the saturated run or the curve: the full-batch decode step
/// and the step that also carries a prompt chunk (what a closed loop's spread of first sends
/// needs), the sustainable rate left at 0.
fn step_times(st: &EngineStep, c: &LoadSetup) -> Result<LoadCurve, PerfError> {
    let full_cached = c.prompt as f64 + c.output as f64 / 2.0;
    let cap = c.max_seqs.max(1) as f64;
    let decode_mix =
        StepMix { decode_seqs: c.max_seqs, decode_cached_sum: cap * full_cached, ..StepMix::default() };
    let (decode_step_s, _) = st.step(&decode_mix)?;
    // The chunk after the cached prefix, whose attention reads it.
    let fresh = c.prompt.saturating_sub(c.cached.min(c.prompt.saturating_sub(1)));
    let chunk = fresh.min(c.budget.saturating_sub(c.max_seqs.saturating_sub(1))).max(1);
    let past = (c.prompt - fresh) as f64;
    let mixed = StepMix {
        decode_seqs: c.max_seqs.saturating_sub(1),
        decode_cached_sum: (cap - 1.0).max(0.0) * full_cached,
        prefill_tokens: chunk,
        prefill_positions: chunk as f64 * past + chunk as f64 * (chunk as f64 + 1.0) / 2.0,
        prefill_past: past,
        prefill_chunks: 1,
    };
    let (mixed_step_s, _) = st.step(&mixed)?;
    Ok(LoadCurve {
        key: LoadKey::of(st, c, true),
        requests: 0,
        decode_step_s,
        mixed_step_s,
        mixed_chunk_tokens: chunk,
        throughput_bound_tokens_per_s: 0.0,
        max_rate: 0.0,
        saturated_step_s: 0.0,
        curve: Vec::new(),
        pools: None,
    })
}

/// What a replica's role changes in its scheduler setup: an aggregated replica serves whole
/// requests; in a disaggregated deployment (`disagg`) a prefill worker computes each prompt and
/// its first token only, and a decode worker receives the prompt's KV cache and generates the
/// rest.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Role {
    Aggregated,
    Prefill,
    Decode,
}

/// One pool's step-timing inputs, scheduler setup and KV cache limit on sequences.
#[derive(Clone, Debug)]
pub struct PoolParts {
    pub shape: ModelShape,
    pub hw: Hardware,
    pub par: Parallelism,
    pub topo: Topology,
    pub eff: Efficiency,
    pub setup: LoadSetup,
    pub kv_limit: Option<u64>,
}

impl PoolParts {
    /// The step timing of this pool.
    pub fn step(&self) -> Result<EngineStep<'_>, PerfError> {
        EngineStep::new(&self.shape, self.hw, self.par, self.topo, self.eff.clone())
    }
}

/// The step timing and scheduler setup of replicas laid out as `x` (its tensor and pipeline
/// parallel group; `x.dp` replicas) in `role`, with `usable` bytes of GPU memory each.
pub fn pool_parts(
    z: &SizedScenario,
    x: &Inputs,
    usable: u128,
    role: Role,
) -> Result<PoolParts, ScenarioError> {
    let s = z.scenario;
    let (listed, _, path) = time_model_inputs(s, z.gpu, z.published(), z.arch.attention.mla.is_some())?;
    // The compute path's GEMM fraction, as the phases take it (8-bit paths: fp8_tensor_flops).
    let eff = listed.for_path_and_weights(path.used, x.weight);
    let hw = Hardware {
        peak_flops_per_s: path.peak_flops_per_s,
        memory_bandwidth_bytes_per_s: z.gpu.memory_bandwidth_bytes_per_s,
    };
    let kind = s.topology.unwrap_or_else(|| TopologyKind::default_for(z.gpu));
    let group = x.tp.max(1).saturating_mul(x.pp.max(1)).saturating_mul(x.dp.max(1));
    let gpus = if role == Role::Aggregated { s.gpus.max(1) } else { group };
    let topo = kind.topology_for(z.gpu, u32_sat(s.gpus_per_node.max(1)), u32_sat(gpus), z.lookup);
    let par = Parallelism {
        tensor: u32_sat(x.tp.max(1)),
        pipeline: u32_sat(x.pp.max(1)),
        data: 1,
        expert: u32_sat(s.expert_parallel.max(1)),
        micro_batches: 1,
        custom_all_reduce: (s.custom_all_reduce
            && kind.fully_connected(z.gpu, u32_sat(s.gpus_per_node.max(1)), u32_sat(gpus)))
        .then(|| s.serving_stack.custom_all_reduce()),
    };
    let (prompt, output) = s.resolved_prompt_output();
    // A request has at least one input token (BOS) and one output token.
    let (prompt, output) = (prompt.max(1), output.max(1));
    // A prefill worker holds each prompt's cache and its first token only, until it is sent.
    let held = if role == Role::Prefill { prompt.saturating_add(1) } else { prompt.saturating_add(output) };
    let kv_limit = crate::engine::solvers::max_batch(z.arch, &Inputs { context: held, ..*x }, usable);
    let budget = s.prefill_chunk_tokens.max(1);
    let max_seqs = x.batch.min(kv_limit.unwrap_or(0)).min(budget);
    let zx = SizedScenario { inputs: x, ..*z };
    let shape = at_context(&served_shape(&zx, &path), z.arch, x, prompt.saturating_add(output / 2));
    let prefill_first = s.prefill_policy.unwrap_or(s.serving_stack.settings().prefill_policy)
        == crate::engine::stack::PrefillPolicy::PrefillFirst;
    // KV tiers: the mean cached tokens over the tiers, and the mean restore before the prefill
    // (the link is not a GPU step: it waits like the per-request fixed cost).
    let (cached, restore_s) = match crate::engine::perf::performance::tiered_prompt(&zx)? {
        Some(t) if role != Role::Decode => t,
        _ => (crate::engine::memory::prefix::scenario_cached_tokens(s), 0.0),
    };
    let setup = LoadSetup {
        prompt,
        // A decode worker receives every prompt token's cache but the last, which its first step
        // computes (vLLM's KV connectors load `prompt − 1` tokens and schedule the last).
        cached: if role == Role::Decode { prompt - 1 } else { cached },
        output: if role == Role::Prefill { 1 } else { output },
        max_seqs,
        budget,
        replicas: x.dp.max(1),
        // The per-request fixed cost is paid once, before the prompt is computed.
        first_token_s: if role == Role::Decode { 0.0 } else { eff.request_overhead_s + restore_s },
        prefill_first,
        benchmark_requests: s.benchmark_requests,
        length_min_ratio: s.length_min_ratio.unwrap_or(1.0),
        steady_state: s.bench_tool == crate::engine::stack::BenchTool::GenaiPerf,
    };
    Ok(PoolParts { shape, hw, par, topo, eff, setup, kv_limit })
}

/// The step timing and scheduler setup of a sized scenario (the KV cache limit on sequences
/// too), handed to `f`.
fn with_setup<T>(
    z: &SizedScenario,
    usable: u128,
    f: impl FnOnce(&EngineStep, &LoadSetup, Option<u64>) -> Result<Option<T>, ScenarioError>,
) -> Result<Option<T>, ScenarioError> {
    let pe = |e: PerfError| perf_error("load", e);
    let parts = pool_parts(z, z.inputs, usable, Role::Aggregated)?;
    let st = parts.step().map_err(pe)?;
    f(&st, &parts.setup, parts.kv_limit)
}

#[cfg(test)]
mod tests {
    use super::sim::{arrivals, percentile, simulate, SimInputs, StepMix, StepTime};
    use super::*;
    use crate::engine::perf::phases::tests::llama2_7b;
    use crate::engine::perf::timing::tests::{dgx_a100, A100};

    /// Every step takes 1 ms, whatever it holds.
    struct Fixed;
    impl StepTime for Fixed {
        fn step(&self, _: &StepMix) -> Result<(f64, bool), PerfError> {
            Ok((1e-3, false))
        }
    }

    fn inputs(rate: f64, max_seqs: u64, output: u64) -> SimInputs {
        SimInputs {
            rate_per_s: rate,
            users: 0,
            spread_s: 0.0,
            prefill_first: false,
            prompt_tokens: 100,
            cached_tokens: 0,
            output_tokens: output,
            length_min_ratio: 1.0,
            max_seqs,
            step_token_budget: 8192,
            requests: 400,
            warmup: 40,
            cooldown: 0,
            seed: SEED,
            first_token_fixed_s: 0.0,
        }
    }

    #[test]
    fn worked_fixed_steps() {
        // One sequence at a time, 3 output tokens: a prefill step (token 1) and two decode
        // steps, 3 ms per request: 333.3 requests/s with a full queue.
        let r = simulate(&inputs(0.0, 1, 3), &Fixed).unwrap();
        assert!((r.steady_completions_per_s - 1000.0 / 3.0).abs() < 1e-6, "{}", r.steady_completions_per_s);
        // Two at a time in lockstep: 2 requests per 3 ms.
        let r = simulate(&inputs(0.0, 2, 3), &Fixed).unwrap();
        assert!((r.steady_completions_per_s - 2000.0 / 3.0).abs() < 1e-6, "{}", r.steady_completions_per_s);
        // Far below saturation (mean gap 100 s, never two requests within 3 ms): TTFT is one
        // step, TPOT one step, time in system three steps.
        let r = simulate(&inputs(0.01, 4, 3), &Fixed).unwrap();
        for v in r.ttft_s.iter().chain(&r.tpot_s) {
            assert!((v - 1e-3).abs() < 1e-9, "{v}");
        }
        assert!((r.mean_time_in_system_s - 3e-3).abs() < 1e-9);
        assert_eq!(r.steps, 3 * 400);
    }

    /// A step that carries a prompt chunk takes 10 ms, a decode-only step 1 ms.
    struct Lumpy;
    impl StepTime for Lumpy {
        fn step(&self, m: &StepMix) -> Result<(f64, bool), PerfError> {
            Ok((if m.prefill_tokens > 0 { 1e-2 } else { 1e-3 }, false))
        }
    }

    #[test]
    fn inter_token_gaps_add_up_to_each_requests_decode_time_and_keep_the_stalls() {
        // 20 requests/s of 21 output tokens (about 30 ms each): every arrival's prompt step
        // stretches the gap of each running sequence to 10 ms. Over all requests (no warm-up),
        // Σ gaps = Σ (last − first token), so the mean ITL over tokens is the mean TPOT.
        let x = SimInputs { warmup: 0, ..inputs(20.0, 8, 21) };
        let r = simulate(&x, &Lumpy).unwrap();
        let tpot_mean = sim::mean(&r.tpot_s).unwrap();
        let itl_mean = sim::weighted_mean(&r.itl_s).unwrap();
        assert!((itl_mean / tpot_mean - 1.0).abs() < 1e-9, "{itl_mean} {tpot_mean}");
        let tokens: f64 = r.itl_s.iter().map(|g| g.1).sum();
        assert!((tokens - 400.0 * 20.0).abs() < 1e-9, "{tokens}");
        // Most gaps are a decode step; the tail is the prompt step, which the per-request mean
        // (TPOT) dilutes over 20 gaps.
        let itl = |p: f64| sim::weighted_percentile(&r.itl_s, p).unwrap();
        assert_eq!((itl(50.0), itl(99.0)), (1e-3, 1e-2));
        let tpot_p99 = percentile(&r.tpot_s, 99.0).unwrap();
        assert!(tpot_p99 < 5e-3, "{tpot_p99}");
        // A saturated run measures no latencies.
        assert!(simulate(&inputs(0.0, 8, 21), &Lumpy).unwrap().itl_s.is_empty());
    }

    #[test]
    fn weighted_percentiles_by_hand() {
        // 97 tokens waited 1 ms, 3 waited 10 ms: p97 is 1 ms, p98 and p99 are 10 ms.
        let v = [(1e-3, 97.0), (1e-2, 3.0)];
        let p = |q: f64| sim::weighted_percentile(&v, q).unwrap();
        assert_eq!((p(50.0), p(97.0), p(98.0), p(99.0)), (1e-3, 1e-3, 1e-2, 1e-2));
        assert!((sim::weighted_mean(&v).unwrap() - 0.00127).abs() < 1e-15);
        assert_eq!(sim::weighted_percentile(&[], 50.0), None);
    }

    #[test]
    fn the_busy_fraction_is_step_time_over_wall_time() {
        // Far below saturation: 400 requests of three 1 ms steps each, spread over the run from
        // the first arrival to the last completion.
        let r = simulate(&inputs(0.01, 4, 3), &Fixed).unwrap();
        let first = arrivals(400, 0.01, SEED)[0];
        assert!((r.busy_fraction - 1.2 / (r.end_s - first)).abs() < 1e-12, "{}", r.busy_fraction);
        assert!(r.busy_fraction < 1e-3);
        // A full queue, and a closed loop whose users think no time: never idle.
        assert_eq!(simulate(&inputs(0.0, 2, 3), &Fixed).unwrap().busy_fraction, 1.0);
        let closed = SimInputs { users: 2, warmup: 4, cooldown: 4, ..inputs(0.0, 2, 3) };
        assert!((simulate(&closed, &Fixed).unwrap().busy_fraction - 1.0).abs() < 1e-9);
        // One user who waits 1 ms before each request reaches the scheduler: 3 ms of steps in
        // every 4 ms.
        let waits =
            SimInputs { users: 1, first_token_fixed_s: 1e-3, warmup: 4, cooldown: 4, ..inputs(0.0, 1, 3) };
        let b = simulate(&waits, &Fixed).unwrap().busy_fraction;
        assert!((b - 0.75).abs() < 0.01, "{b}");
    }

    #[test]
    fn a_closed_loops_requests_arrive_in_time_order_whatever_the_spread() {
        // Two users whose first sends spread over a second while a request takes 3 ms: the
        // requests the first user sends as each completes arrive long before the second user's
        // first send. Each is admitted as it arrives (two sequences at once), so no request
        // waits more than the step under way and its own: at most 2 ms to its first token.
        let x = SimInputs { users: 2, spread_s: 1.0, warmup: 2, cooldown: 2, ..inputs(0.0, 2, 3) };
        let r = simulate(&x, &Fixed).unwrap();
        let worst = r.ttft_s.last().copied().unwrap();
        assert!(worst <= 2e-3 + 1e-12, "{worst}");
    }

    #[test]
    fn worked_closed_loop() {
        // Two users, two sequences at a time, 3 output tokens of 1 ms steps: each pair of
        // requests takes a prefill step and two decode steps, the next pair is sent at once.
        let x = |users: u64| SimInputs { users, warmup: 4, cooldown: 4, ..inputs(0.0, 2, 3) };
        let r = simulate(&x(2), &Fixed).unwrap();
        assert!((r.steady_completions_per_s - 2000.0 / 3.0).abs() < 1e-6, "{}", r.steady_completions_per_s);
        assert_eq!(r.tpot_s.len(), 400 - 8);
        assert!(r.tpot_s.iter().chain(&r.ttft_s).all(|v| (v - 1e-3).abs() < 1e-9));
        // Four users on two sequences: the same rate, and half the requests wait a whole
        // request (3 ms) before their prefill step.
        let r = simulate(&x(4), &Fixed).unwrap();
        assert!((r.steady_completions_per_s - 2000.0 / 3.0).abs() < 1e-6, "{}", r.steady_completions_per_s);
        assert!((percentile(&r.ttft_s, 95.0).unwrap() - 4e-3).abs() < 1e-9);
        assert!((r.mean_in_system - 4.0).abs() < 0.1, "{}", r.mean_in_system);
    }

    /// A step of 1 ms plus 1 µs per prompt token it runs.
    struct PerToken;
    impl StepTime for PerToken {
        fn step(&self, mix: &StepMix) -> Result<(f64, bool), PerfError> {
            Ok((1e-3 + 1e-6 * mix.prefill_tokens as f64, false))
        }
    }

    #[test]
    fn lengths_that_differ_break_a_closed_loops_waves() {
        // 64 users of 100-token prompts and 50-token outputs, all admitted at once. Equal
        // lengths: the users finish together and every wave's 64 prompts share one 7.4 ms step
        // (6,400 tokens), so each waits for all of them. Lengths drawn from [L/2, L]: after the
        // first wave requests arrive a few at a time and their prompts run in short steps.
        let x = |r: f64| SimInputs {
            users: 64,
            length_min_ratio: r,
            requests: 640,
            warmup: 0,
            cooldown: 0,
            max_seqs: 64,
            output_tokens: 50,
            ..inputs(0.0, 64, 50)
        };
        let mean = |r: f64| sim::mean(&simulate(&x(r), &PerToken).unwrap().ttft_s).unwrap();
        let (equal, spread) = (mean(1.0), mean(0.5));
        assert!((equal - 7.4e-3).abs() < 1e-6, "{equal}");
        assert!(spread < 0.5 * equal, "{spread} vs {equal}");
    }

    #[test]
    fn closed_loop_grows_with_users_and_holds_the_bound() {
        let m = llama2_7b();
        let st = engine_step(&m);
        let c = setup();
        let mut last: Option<LoadReport> = None;
        for users in [1, 4, 16, 32, 64] {
            let r = closed_loop_model(&st, &c, users).unwrap();
            assert_eq!(r.concurrent_users, Some(users));
            assert!(r.stable && r.throughput_tokens_per_s <= r.throughput_bound_tokens_per_s);
            // Little's law: users = rate × time in system.
            let w = r.mean_time_in_system_s.unwrap();
            let l = r.arrival_rate_per_s * w;
            assert!((l - users as f64).abs() <= 0.1 * users as f64, "{users}: λW {l}");
            // More users never serve fewer tokens, nor (within 2%: past max_seqs the running set
            // is the same) space them closer.
            if let Some(p) = &last {
                assert!(r.tpot_p50_s.unwrap() >= 0.98 * p.tpot_p50_s.unwrap());
                assert!(r.throughput_tokens_per_s >= p.throughput_tokens_per_s * 0.999);
            }
            last = Some(r);
        }
        // One user: its steps are a decode step of one sequence (the closed loop never overlaps
        // its own prompt with its decode).
        let one = closed_loop_model(&st, &c, 1).unwrap();
        let step =
            st.step(&StepMix { decode_seqs: 1, decode_cached_sum: 512.0 + 64.0, ..StepMix::default() });
        let t = one.tpot_p50_s.unwrap();
        assert!((t - step.unwrap().0).abs() < 0.02 * t, "{t}");
        // Past the scheduler's sequences the extra users queue: time to first token grows.
        let many = closed_loop_model(&st, &c, 128).unwrap();
        assert!(many.ttft_p50_s.unwrap() > 2.0 * last.unwrap().ttft_p50_s.unwrap());
        assert_eq!(closed_loop_model(&st, &c, 16).unwrap(), closed_loop_model(&st, &c, 16).unwrap());
    }

    #[test]
    fn the_users_curve_runs_from_one_user_to_twice_the_running_sequences() {
        // 64 sequences on 2 replicas: 256 users at the top, ratio 256^(1/9) ≈ 1.85 a step.
        assert_eq!(users_grid(64, 2), vec![1, 2, 3, 6, 12, 22, 40, 75, 138, 256]);
        // Small grids lose their repeats: 1 and 2 only, for one sequence on one replica.
        assert_eq!(users_grid(1, 1), vec![1, 2]);
        assert_eq!(users_grid(0, 0), vec![1, 2]);
        let m = llama2_7b();
        let st = engine_step(&m);
        let c = setup();
        let r = closed_loop_model(&st, &c, 8).unwrap();
        let users: Vec<u64> = r.curve.iter().map(|p| p.concurrent_users.unwrap()).collect();
        assert_eq!(users, users_grid(c.max_seqs, c.replicas));
        // Each point is the closed loop at its users: the point at 8 users (when on the grid) or
        // its neighbours bracket the report's own time to first token.
        for p in &r.curve {
            let at = closed_loop_model(&st, &c, p.concurrent_users.unwrap()).unwrap();
            assert_eq!(Some(p.ttft_p50_s), at.ttft_p50_s);
            assert_eq!(p.tpot_p95_s, at.tpot_p95_s);
        }
        // Poisson runs keep the curve over the rate.
        assert!(load_model(&st, &c, 1.0).unwrap().curve.iter().all(|p| p.concurrent_users.is_none()));
    }

    #[test]
    fn arrivals_are_poisson_like_and_normalised() {
        let a = arrivals(1000, 2.0, SEED);
        assert_eq!(a.len(), 1000);
        assert!((a.last().unwrap() - 500.0).abs() < 1e-9, "mean gap is exactly 1/rate");
        assert!(a.windows(2).all(|w| w[1] > w[0]));
        // Exponential gaps: the coefficient of variation is ~1 (0.9..1.1 for 1000 draws).
        let gaps: Vec<f64> = std::iter::once(a[0]).chain(a.windows(2).map(|w| w[1] - w[0])).collect();
        let m = gaps.iter().sum::<f64>() / 1000.0;
        let sd = (gaps.iter().map(|g| (g - m).powi(2)).sum::<f64>() / 1000.0).sqrt();
        assert!((sd / m - 1.0).abs() < 0.1, "cv {}", sd / m);
        assert_eq!(arrivals(3, 0.0, SEED), vec![0.0; 3]);
        assert_eq!(percentile(&[1.0, 2.0, 3.0, 4.0], 50.0), Some(2.5));
        assert_eq!(percentile(&[1.0, 2.0, 3.0, 4.0, 5.0], 95.0), Some(4.8));
        assert_eq!(percentile(&[], 50.0), None);
    }

    fn engine_step(shape: &ModelShape) -> EngineStep<'_> {
        EngineStep::new(shape, A100, Parallelism::default(), dgx_a100(), Efficiency::default()).unwrap()
    }

    #[test]
    fn fast_step_time_is_phase_timing() {
        let m = llama2_7b();
        for par in [
            Parallelism::default(),
            Parallelism { tensor: 4, ..Default::default() },
            Parallelism { tensor: 2, pipeline: 2, ..Default::default() },
        ] {
            // Past a decode-graph limit of 8 every step with more than 8 sequences is eager.
            let eff =
                Efficiency { decode_graph_max_batch: 8.0, eager_kernel_host_s: 1e-4, ..Default::default() };
            let st = EngineStep::new(&m, A100, par, dgx_a100(), eff).unwrap();
            for (n, cached, chunk, past) in [
                (0, 0.0, 1, 0.0),
                (1, 10.0, 0, 0.0),
                (64, 64.0 * 3000.0, 0, 0.0),
                (31, 31.0 * 500.0, 2017, 4096.0),
                // 4 sequences and a prompt chunk: inside the graphs (the limit counts sequences).
                (4, 4.0 * 500.0, 2017, 0.0),
            ] {
                let mix = StepMix {
                    decode_seqs: n,
                    decode_cached_sum: cached,
                    prefill_tokens: chunk,
                    prefill_positions: chunk as f64 * past + chunk as f64 * (chunk as f64 + 1.0) / 2.0,
                    prefill_past: past,
                    prefill_chunks: u64::from(chunk > 0),
                };
                let (fast, _) = st.step(&mix).unwrap();
                let (slow, _) = st.times(&mix).unwrap();
                assert!((fast - slow).abs() <= 1e-9 * slow, "{par:?} {mix:?}: {fast} vs {slow}");
            }
        }
    }

    fn setup() -> LoadSetup {
        LoadSetup {
            prompt: 512,
            cached: 0,
            output: 128,
            max_seqs: 32,
            budget: 2048,
            replicas: 1,
            first_token_s: 0.0,
            prefill_first: false,
            benchmark_requests: None,
            length_min_ratio: 1.0,
            steady_state: false,
        }
    }

    #[test]
    fn mixed_step_counts_weights_once() {
        let m = llama2_7b();
        let st = engine_step(&m);
        let mix = StepMix {
            decode_seqs: 2,
            decode_cached_sum: 200.0,
            prefill_tokens: 10,
            prefill_positions: 55.0,
            prefill_past: 0.0,
            prefill_chunks: 1,
        };
        let w = st.work(&mix);
        // 2·P·12 + 4·L·d·(200 + 2 + 55); weights once + KV (202 + 10) tokens.
        let flops = 2.0 * 6.74e9 * 12.0 + 4.0 * 32.0 * 4096.0 * 257.0;
        assert!((w.flops - flops).abs() < 1.0);
        assert!((w.bytes - (m.dense_weight_bytes + 212.0 * m.kv_bytes_per_token)).abs() < 1.0);
        // A decode-only mix is exactly decode_step_work at the mean context.
        let d = st.work(&StepMix { decode_seqs: 4, decode_cached_sum: 4.0 * 300.0, ..StepMix::default() });
        let e = decode_step_work(&m, 4.0, 300.0).unwrap();
        assert!((d.flops - e.flops).abs() < 1.0 && (d.bytes - e.bytes).abs() < 1.0);
    }

    #[test]
    fn properties_on_a_grid() {
        let m = llama2_7b();
        let st = engine_step(&m);
        let c = setup();
        let sat = load_model(&st, &c, 0.0).unwrap();
        let max = sat.max_sustainable_rate_per_s;
        assert!(max > 0.0 && !sat.stable);
        let mut last: Option<LoadReport> = None;
        for f in [0.05, 0.2, 0.4, 0.6, 0.8, 0.9] {
            let rate = f * max;
            let r = load_model(&st, &c, rate).unwrap();
            assert!(r.stable, "{f}");
            // Little's law: L = λ·W within 10% (the window runs past the last arrival).
            let (l, w) = (r.mean_concurrency.unwrap(), r.mean_time_in_system_s.unwrap());
            assert!((l - rate * w).abs() <= 0.10 * l, "f {f}: L {l} vs λW {}", rate * w);
            // Never above the roofline bound; served ≈ offered.
            assert!(r.throughput_tokens_per_s <= r.throughput_bound_tokens_per_s);
            let offered = rate * c.output as f64;
            assert!((r.throughput_tokens_per_s - offered).abs() <= 0.1 * offered, "f {f}");
            assert!((r.utilization - f).abs() < 1e-9);
            // The GPUs' busy share is a share of time: within (0, 1], whatever the rate ratio.
            let busy = r.busy_fraction.unwrap();
            assert!(busy > 0.0 && busy <= 1.0, "f {f}: busy {busy}");
            // Latencies do not fall as the load grows.
            if let Some(p) = &last {
                for (a, b) in [
                    (p.ttft_p50_s, r.ttft_p50_s),
                    (p.ttft_p95_s, r.ttft_p95_s),
                    (p.tpot_p50_s, r.tpot_p50_s),
                    (p.tpot_p95_s, r.tpot_p95_s),
                ] {
                    assert!(b.unwrap() >= a.unwrap(), "f {f}: {a:?} -> {b:?}");
                }
            }
            last = Some(r);
        }
        // Past the sustainable rate: not stable, latencies null.
        for f in [1.0, 1.5, 10.0] {
            let r = load_model(&st, &c, f * max).unwrap();
            assert!(
                !r.stable && r.ttft_p50_s.is_none() && r.tpot_p95_s.is_none() && r.mean_concurrency.is_none()
            );
            assert!(r.throughput_tokens_per_s <= r.throughput_bound_tokens_per_s);
        }
        // The curve rises with the rate and stays below the sustainable rate.
        assert_eq!(sat.curve.len(), CURVE_FRACTIONS.len());
        assert!(sat.curve.windows(2).all(|w| w[1].tpot_p50_s >= w[0].tpot_p50_s));
        assert!(sat.curve.iter().all(|p| p.arrival_rate_per_s < max));
    }

    #[test]
    fn time_between_tokens_grows_with_load_and_stays_above_the_decode_step() {
        let m = llama2_7b();
        let st = engine_step(&m);
        let c = setup();
        let max = load_model(&st, &c, 0.0).unwrap().max_sustainable_rate_per_s;
        let low = load_model(&st, &c, 0.05 * max).unwrap();
        let high = load_model(&st, &c, 0.9 * max).unwrap();
        // One sequence alone: a decode step of batch ~1.
        let one = phase_timing(
            &decode_step_work(&m, 1.0, 512.0).unwrap(),
            &m,
            Phase::Decode,
            &A100,
            &Parallelism::default(),
            &dgx_a100(),
            &Efficiency::default(),
        )
        .unwrap();
        assert!(low.tpot_p50_s.unwrap() >= one.expected.total_s * 0.999);
        assert!(high.tpot_p50_s.unwrap() > 1.2 * low.tpot_p50_s.unwrap());
        assert!(high.ttft_p95_s.unwrap() > low.ttft_p95_s.unwrap());
        assert!(high.mixed_step_s > high.decode_step_s * 0.5);
    }

    #[test]
    fn deterministic_and_total() {
        let m = llama2_7b();
        let st = engine_step(&m);
        let c = setup();
        assert_eq!(load_model(&st, &c, 3.0).unwrap(), load_model(&st, &c, 3.0).unwrap());
        for c in [
            LoadSetup {
                prompt: 1,
                cached: 0,
                output: 1,
                max_seqs: 1,
                budget: 1,
                replicas: 1,
                first_token_s: 0.0,
                prefill_first: false,
                benchmark_requests: None,
                length_min_ratio: 1.0,
                steady_state: false,
            },
            LoadSetup {
                prompt: 1_000_000,
                cached: 0,
                output: 1,
                max_seqs: 1,
                budget: 1,
                replicas: 1,
                first_token_s: 0.0,
                prefill_first: false,
                benchmark_requests: None,
                length_min_ratio: 1.0,
                steady_state: false,
            },
            LoadSetup {
                prompt: 100_000,
                cached: 0,
                output: 100_000,
                max_seqs: 8192,
                budget: 8192,
                replicas: 7,
                first_token_s: 0.0,
                prefill_first: false,
                benchmark_requests: None,
                length_min_ratio: 1.0,
                steady_state: false,
            },
            LoadSetup {
                prompt: 1,
                cached: 0,
                output: 5000,
                max_seqs: 1000,
                budget: 1000,
                replicas: 1,
                first_token_s: 0.0,
                prefill_first: false,
                benchmark_requests: None,
                length_min_ratio: 1.0,
                steady_state: false,
            },
        ] {
            for rate in [1e-6, 1.0, 1e6] {
                match load_model(&st, &c, rate) {
                    Ok(r) => {
                        let json = serde_json::to_string(&r).unwrap();
                        assert!(!json.contains("NaN") && !json.contains("inf"), "{json}");
                    }
                    Err(e) => assert!(matches!(e, PerfError::Overflow { .. }), "{e}"),
                }
            }
        }
        assert!(load_model(&st, &c, -1.0).is_err());
        assert!(load_model(&st, &c, f64::NAN).is_err());
    }
}
