//! A deterministic discrete-event simulation of one serving replica doing continuous batching
//! with chunked prefill, the scheduler of vLLM (V1, and V0 with chunked prefill) and of
//! Sarathi-Serve (Agrawal et al., "Taming Throughput-Latency Tradeoff in LLM Inference with
//! Sarathi-Serve", OSDI 2024):
//!
//! - every step first gives each running sequence its next decode token, then spends the rest
//!   of the step's token budget (`max_num_batched_tokens`) on prompt chunks of admitted requests,
//!   oldest first (vLLM docs, "Optimization and Tuning", chunked prefill: decode requests are
//!   prioritised, prefills fill the remaining budget and are split when they exceed it);
//! - a request is admitted (first come, first served) while fewer than `max_seqs` are admitted
//!   (vLLM `max_num_seqs`, here already bounded by the KV cache that fits, each admitted request
//!   holding the KV of its whole prompt and output: no preemption);
//! - the step that finishes a prompt's last chunk samples its first token; each later step adds
//!   one token; a request leaves after its output tokens.
//!
//! Every request asks for `prompt_tokens` and `output_tokens`, or, with `length_min_ratio`
//! r < 1, lengths drawn uniformly from `[floor(r·L), L]` for each (fixed seed): the random
//! dataset of the serving benchmarks (`sglang.bench_serving` and vLLM's `benchmark_serving.py`
//! before its symmetric range, `--random-range-ratio`: `randint(int(L·r), L + 1)`). Lengths that
//! differ keep a closed loop's users from finishing together: after the first wave their next
//! requests arrive one by one instead of as a burst that queues behind itself.
//!
//! Requests arrive in one of two ways. In a closed loop (`users` > 0: the serving benchmarks'
//! fixed concurrency, vLLM `benchmark_serving --max-concurrency`, genai-perf and NVIDIA NIM's
//! `--concurrency`, LLMPerf `--num-concurrent-requests`) `users` requests are sent at once and each
//! completion sends the next one; at steady state the prompts of the requests that replace
//! finished ones are chunked into the running sequences' decode steps, about `users × prompt /
//! output` prompt tokens per step. Otherwise (open loop) arrivals are Poisson: exponential gaps drawn from a fixed-seed SplitMix64 generator, then
//! scaled so the sample's mean gap is exactly `1 / rate` (the same pattern, compressed, at every
//! rate). The step time comes from a [`StepTime`] (the engine's roofline timing of the step's
//! mix). Stretches of decode-only steps with nothing arriving that could join are advanced in one
//! go: within such a stretch each step's time is linear in the step index (the cached context
//! grows by one token per sequence per step) as long as the same roofline term dominates at both
//! ends, so the stretch's time is summed exactly (otherwise the stretch is halved). Everything is
//! bounded: at most [`MAX_ITERATIONS`] loop iterations, else an error.

use crate::engine::checked::{finite, PerfError};

/// Hard bound on the simulation's loop iterations (steps or stretches).
pub const MAX_ITERATIONS: u64 = 400_000;

/// What one scheduler step processes.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct StepMix {
    /// Running sequences, one decode token each.
    pub decode_seqs: u64,
    /// Sum over those sequences of the tokens already cached.
    pub decode_cached_sum: f64,
    /// Prompt tokens processed this step (all chunks together).
    pub prefill_tokens: u64,
    /// Sum over chunks of the causal attention positions, `new·past + new(new+1)/2`.
    pub prefill_positions: f64,
    /// Sum over chunks of the tokens cached before the chunk (read by its attention).
    pub prefill_past: f64,
    /// Prompt chunks in the step: each ends in one position whose logits are computed.
    pub prefill_chunks: u64,
}

/// A step's time, with whether compute (rather than memory) is the larger term: within a run of
/// steps where that does not change, the time is linear in the cached context.
pub trait StepTime {
    fn step(&self, mix: &StepMix) -> Result<(f64, bool), PerfError>;
}

/// The simulation's inputs (one replica).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SimInputs {
    /// Requests per second arriving at this replica; 0 = saturated (every request waiting at 0).
    /// Not used in a closed loop.
    pub rate_per_s: f64,
    /// Users in a closed loop (0: open loop at `rate_per_s`): the first `users` requests are
    /// sent at 0, as the serving benchmarks start (`vllm bench serve --max-concurrency` and
    /// `sglang.bench_serving` create every request up front behind a semaphore of that size), and
    /// each completion sends the next request; a request reaches the scheduler after its delay
    /// (exponential, mean `first_token_fixed_s`, [`request_delays`]).
    pub users: u64,
    /// A closed loop's first sends drawn uniformly (fixed seed) from `[0, spread_s)`; 0: all at
    /// once, as the benchmarks start. A steady-state measurement (genai-perf's windows) sees the
    /// users at the random phases a long run settles into; spreading the first sends over about
    /// one request's time starts them there.
    pub spread_s: f64,
    /// A prefill-first scheduler (SGLang's default, vLLM before chunked prefill): while prompts
    /// wait, a step runs them alone and the running sequences get no token; otherwise each step
    /// gives every running sequence a token and fills the rest of the budget with prompt chunks.
    pub prefill_first: bool,
    pub prompt_tokens: u64,
    /// Tokens of each prompt already in the prefix cache (< prompt): an admitted request starts
    /// with them done, so its chunks cover only the rest, whose attention reads them
    /// (`memory::prefix`).
    pub cached_tokens: u64,
    pub output_tokens: u64,
    /// The shortest request's share of the stated lengths (1: every request exactly
    /// `prompt_tokens` and `output_tokens`; see the module doc).
    pub length_min_ratio: f64,
    /// Most requests admitted at once (>= 1).
    pub max_seqs: u64,
    /// Tokens per step (>= max_seqs).
    pub step_token_budget: u64,
    pub requests: usize,
    /// Requests at the start left out of the latency percentiles (the empty system warming up).
    pub warmup: usize,
    /// Requests at the end left out of the latency percentiles (a closed loop's last requests,
    /// served as the users stop sending; 0 in an open loop).
    pub cooldown: usize,
    pub seed: u64,
    /// Fixed seconds per request before its first token (tokenisation, scheduling, sampling)
    /// that occupy no GPU step: added to TTFT and time in system (a closed loop's mean delay).
    pub first_token_fixed_s: f64,
}

/// What the simulation measured.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct SimResult {
    /// Time-average of requests in the system (waiting or admitted) over `[0, end]`.
    pub mean_in_system: f64,
    /// Mean time from arrival to last token.
    pub mean_time_in_system_s: f64,
    /// Last completion.
    pub end_s: f64,
    /// Output tokens per second over `[first arrival, end]`.
    pub output_tokens_per_s: f64,
    /// Share of `[first arrival, end]` the replica spends running steps (at most 1): the GPUs
    /// are busy while any request is admitted, idle only while none is.
    pub busy_fraction: f64,
    /// Completed requests per second between the first and last quarter's completions (the
    /// steady state; used for the saturated run).
    pub steady_completions_per_s: f64,
    /// Per request after the warm-up, sorted ascending.
    pub ttft_s: Vec<f64>,
    /// Per request after the warm-up with >= 2 output tokens: (last − first token) / (output − 1).
    pub tpot_s: Vec<f64>,
    /// Inter-token latencies: (gap in seconds, tokens that saw it), sorted by gap. Each decode
    /// step is one gap for each running sequence; a prefill-first scheduler's prompt-only steps
    /// lengthen the next gap. Kept while the run is past its warm-up and before its cool-down
    /// (counted in completions); a decode-only stretch of k steps is two entries: its first step,
    /// and the other k − 1 at their mean (the steps' times are linear in the step index).
    pub itl_s: Vec<(f64, f64)>,
    pub steps: u64,
    pub iterations: u64,
}

/// SplitMix64 (Steele, Lea, Flood, "Fast splittable pseudorandom number generators", 2014).
pub(super) fn splitmix(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// Arrival times of `n` requests at `rate` (0: all at 0), normalised to a mean gap of `1/rate`.
pub fn arrivals(n: usize, rate: f64, seed: u64) -> Vec<f64> {
    let mut out = Vec::with_capacity(n);
    if !(rate.is_finite() && rate > 0.0) {
        out.resize(n, 0.0);
        return out;
    }
    let mut state = seed;
    let mut t = 0.0;
    for _ in 0..n {
        // U in (0, 1]: 53 random bits, never 0, so ln(U) is finite.
        let u = ((splitmix(&mut state) >> 11) + 1) as f64 / (1u64 << 53) as f64;
        t += -u.ln();
        out.push(t);
    }
    let scale = if t > 0.0 { n as f64 / (rate * t) } else { 0.0 };
    for a in &mut out {
        *a *= scale;
    }
    out
}

/// The mean of `v` (none when empty).
pub fn mean(v: &[f64]) -> Option<f64> {
    (!v.is_empty()).then(|| v.iter().sum::<f64>() / v.len() as f64)
}

/// Percentile `p` (0..=100) of values sorted ascending, linear between ranks (numpy's default,
/// which vLLM's benchmark uses). `None` for none.
pub fn percentile(sorted: &[f64], p: f64) -> Option<f64> {
    let n = sorted.len();
    let last = n.checked_sub(1)?;
    let rank = (p.clamp(0.0, 100.0) / 100.0) * last as f64;
    let lo = crate::engine::num::usize_sat(crate::engine::num::u64_from_f64(rank.floor()));
    let hi = lo.saturating_add(1).min(last);
    let (a, b) = (sorted.get(lo)?, sorted.get(hi)?);
    Some(a + (b - a) * (rank - lo as f64))
}

/// Percentile `p` (0..=100) of weighted values sorted ascending: the smallest value whose
/// cumulative weight reaches `p`% of the total (the nearest-rank definition over tokens: p99 of
/// inter-token latency is the gap that 99% of tokens waited at most). `None` for no weight.
pub fn weighted_percentile(sorted: &[(f64, f64)], p: f64) -> Option<f64> {
    let total: f64 = sorted.iter().map(|x| x.1).sum();
    if total.is_nan() || total <= 0.0 {
        return None;
    }
    let want = p.clamp(0.0, 100.0) / 100.0 * total;
    let mut sum = 0.0;
    for (v, w) in sorted {
        sum += w;
        if sum >= want {
            return Some(*v);
        }
    }
    sorted.last().map(|x| x.0)
}

/// The weighted mean of (value, weight) pairs (none without weight).
pub fn weighted_mean(v: &[(f64, f64)]) -> Option<f64> {
    let w: f64 = v.iter().map(|x| x.1).sum();
    (w > 0.0).then(|| v.iter().map(|x| x.0 * x.1).sum::<f64>() / w)
}

/// Sorts ascending (`f64::total_cmp`, stable): a binary insertion sort. The latencies of a run
/// (hundreds, in no particular order) cost n·log n comparisons and block moves instead of the
/// plain insertion sort's n²/4 swaps, which a CPU profile of the estimator showed as the largest
/// part of a simulation; with far less wasm than the standard library's sort.
fn sort<T: Copy + Key>(v: &mut [T]) {
    for i in 1..v.len() {
        let Some(&x) = v.get(i) else { break };
        let at = v.get(..i).map_or(i, |done| done.partition_point(|a| a.key().total_cmp(&x.key()).is_le()));
        if let Some(block) = v.get_mut(at..=i) {
            block.rotate_right(1);
        }
    }
}

/// The number a value is sorted by.
trait Key {
    fn key(&self) -> f64;
}

impl Key for f64 {
    fn key(&self) -> f64 {
        *self
    }
}

impl Key for (f64, f64) {
    fn key(&self) -> f64 {
        self.0
    }
}

/// An admitted request.
#[derive(Clone, Copy, Debug)]
struct Admitted {
    id: usize,
    /// Prompt tokens already processed.
    done: u64,
    /// The request's prompt tokens.
    prompt: u64,
}

/// A decoding request: leaves at the end of step `last_step`.
#[derive(Clone, Copy, Debug)]
struct Decoding {
    id: usize,
    last_step: u64,
    /// Tokens it holds in the KV cache when it leaves (prompt + output − 1).
    held: u64,
}

/// The running sequences, the one leaving first at the end (a list kept sorted by last step,
/// descending; ties in the order they started): with lengths that differ, a later sequence may
/// leave first.
#[derive(Debug, Default)]
struct Running {
    items: Vec<Decoding>,
}

impl Running {
    fn len(&self) -> usize {
        self.items.len()
    }
    /// The sequence that leaves first.
    fn front(&self) -> Option<&Decoding> {
        self.items.last()
    }
    fn pop_front(&mut self) -> Option<Decoding> {
        self.items.pop()
    }
    /// Adds a sequence, after those leaving at the same step.
    fn push(&mut self, d: Decoding) {
        let at = self.items.partition_point(|x| x.last_step > d.last_step);
        self.items.insert(at, d);
    }
}

/// A first-in first-out queue: a vector and the index of its front.
#[derive(Debug)]
struct Queue<T> {
    items: Vec<T>,
    front: usize,
}

impl<T> Default for Queue<T> {
    fn default() -> Self {
        Queue { items: Vec::new(), front: 0 }
    }
}

impl<T: Copy> Queue<T> {
    fn len(&self) -> usize {
        self.items.len() - self.front.min(self.items.len())
    }
    fn push_back(&mut self, v: T) {
        self.items.push(v);
    }
    fn pop_front(&mut self) -> Option<T> {
        let v = self.items.get(self.front).copied();
        self.front += usize::from(v.is_some());
        v
    }
    fn get_mut(&mut self, i: usize) -> Option<&mut T> {
        self.items.get_mut(self.front.saturating_add(i))
    }
    fn iter(&self) -> impl Iterator<Item = &T> {
        self.items.iter().skip(self.front)
    }
}

/// Time of `k` steps whose times go linearly from `t0` (first) by `d` per step.
fn stretch_time(k: u64, t0: f64, d: f64) -> f64 {
    let k = k as f64;
    k * t0 + k * (k - 1.0) / 2.0 * d
}

/// Arrival times before the run: Poisson at `rate_per_s` (open loop), or, in a closed loop, the
/// `users` first requests sent at 0 (reaching the scheduler after their delay) and every later
/// one unknown (infinite) until a completion sends it.
fn initial_arrivals(x: &SimInputs, delay: &[f64]) -> Vec<f64> {
    if x.users == 0 {
        return arrivals(x.requests, x.rate_per_s, x.seed);
    }
    let first = x.requests.min(crate::engine::num::usize_sat(x.users));
    let mut state = x.seed;
    let spread = if x.spread_s.is_finite() { x.spread_s.max(0.0) } else { 0.0 };
    let mut a: Vec<f64> = delay
        .iter()
        .take(first)
        .map(|d| d + spread * ((splitmix(&mut state) >> 11) as f64 / (1u64 << 53) as f64))
        .collect();
    a.resize(x.requests, f64::INFINITY);
    a
}

/// Each request's delay between its send and the scheduler (the per-request fixed cost): in a
/// closed loop drawn from an exponential law of mean `first_token_fixed_s` (the run's fixed seed;
/// a client's and the server's per-request jitter, which keeps identical requests from moving in
/// lockstep; the exponential is the maximum-entropy law of a positive delay of known mean, a
/// modelling choice, not a measurement), in an open loop the mean itself.
fn request_delays(x: &SimInputs) -> Vec<f64> {
    let mean = if x.first_token_fixed_s.is_finite() { x.first_token_fixed_s.max(0.0) } else { 0.0 };
    if x.users == 0 {
        return vec![mean; x.requests];
    }
    let mut state = x.seed ^ 0x5EED_DE1A_7000_0001;
    (0..x.requests)
        .map(|_| {
            // U in (0, 1]: ln(U) is finite.
            let u = ((splitmix(&mut state) >> 11) + 1) as f64 / (1u64 << 53) as f64;
            -mean * u.ln()
        })
        .collect()
}

/// Each request's (prompt, output) tokens: the stated lengths, or with `length_min_ratio` r < 1
/// each drawn uniformly from `[floor(r·L), L]` (the benchmarks' `randint(int(L·r), L + 1)`) from
/// the run's fixed seed. Outputs are at least 1 token. Worked: L 1024, r 0.8 → 819..=1024, mean
/// 921.5.
fn request_lengths(x: &SimInputs) -> Vec<(u64, u64)> {
    let r = if x.length_min_ratio.is_finite() { x.length_min_ratio.clamp(0.0, 1.0) } else { 1.0 };
    let mut state = x.seed ^ 0x1E46_7400_5EED_0002;
    let mut draw = |l: u64| {
        let lo = crate::engine::num::u64_from_f64((l as f64 * r).floor()).min(l);
        let span = l - lo + 1;
        if span <= 1 {
            l
        } else {
            lo + splitmix(&mut state) % span
        }
    };
    (0..x.requests).map(|_| (draw(x.prompt_tokens), draw(x.output_tokens).max(1))).collect()
}

/// Requests not yet arrived, earliest last (popped from the end): a list kept sorted by arrival
/// time, ties in the order they were sent.
#[derive(Debug, Default)]
struct Upcoming {
    items: Vec<(f64, usize)>,
}

impl Upcoming {
    fn of(arr: &[f64]) -> Upcoming {
        let mut items: Vec<(f64, usize)> =
            arr.iter().enumerate().filter(|(_, a)| a.is_finite()).map(|(i, a)| (*a, i)).collect();
        items.reverse();
        // Sorted descending by time (ties: the higher id first, so the lower pops first).
        crate::engine::num::sort_stable_by(&mut items, |p, q| p.0 > q.0);
        Upcoming { items }
    }

    /// The earliest arrival time (infinite when none).
    fn next(&self) -> f64 {
        self.items.last().map_or(f64::INFINITY, |x| x.0)
    }

    fn pop(&mut self) -> Option<(f64, usize)> {
        self.items.pop()
    }

    /// Adds a request arriving at `t`, after any already there at the same time.
    fn insert(&mut self, t: f64, id: usize) {
        let at = self.items.partition_point(|x| x.0 > t);
        self.items.insert(at, (t, id));
    }
}

/// The state of a run: the requests' times, the scheduler's queues and the clock.
struct Sim<'a> {
    x: &'a SimInputs,
    st: &'a dyn StepTime,
    /// Each request's (prompt, output) tokens ([`request_lengths`]).
    lengths: Vec<(u64, u64)>,
    cap: usize,
    budget: u64,
    /// Arrival of each request at the scheduler (a closed loop fills them in as it sends them).
    arr: Vec<f64>,
    /// Each request's delay between its send and its arrival ([`request_delays`]).
    delay: Vec<f64>,
    first: Vec<f64>,
    done_at: Vec<f64>,
    now: f64,
    /// Steps run.
    step: u64,
    /// Steps that gave the running sequences no token (a prefill-first scheduler's prompt steps).
    stalls: u64,
    /// Requests not yet arrived, by arrival time.
    upcoming: Upcoming,
    /// Requests arrived and not yet admitted, in arrival order.
    waiting: Queue<usize>,
    /// Requests arrived so far.
    arrived: usize,
    /// Requests sent so far (a closed loop's next request id).
    sent: usize,
    // Queues as vectors with a moving front (each request enters each at most once).
    prefilling: Queue<Admitted>,
    decoding: Running,
    /// Σ cached tokens of decoding sequences.
    cached_sum: f64,
    completed: usize,
    /// ∫ requests in system dt.
    area: f64,
    /// Σ step times: the time the replica is running a step.
    busy: f64,
    iterations: u64,
    completions: Vec<f64>,
    /// Inter-token gaps seen so far ([`SimResult::itl_s`], unsorted).
    gaps: Vec<(f64, f64)>,
    /// Time of prompt-only steps since the running sequences' last token.
    stalled_s: f64,
}

/// What the step about to run holds: its mix and the prompt chunks (slot in the prefill queue,
/// tokens).
struct Plan {
    mix: StepMix,
    chunks: Vec<(usize, u64)>,
}

impl<'a> Sim<'a> {
    fn new(x: &'a SimInputs, st: &'a dyn StepTime, extra: &[f64]) -> Sim<'a> {
        let n = x.requests;
        let cap = x.max_seqs.max(1);
        let mut delay = request_delays(x);
        add_extra_delays(&mut delay, extra);
        let arr = initial_arrivals(x, &delay);
        let upcoming = Upcoming::of(&arr);
        let sent = if x.users == 0 { n } else { n.min(crate::engine::num::usize_sat(x.users)) };
        Sim {
            x,
            st,
            lengths: request_lengths(x),
            cap: crate::engine::num::usize_sat(cap),
            budget: x.step_token_budget.max(cap),
            arr,
            delay,
            first: vec![f64::NAN; n],
            done_at: vec![f64::NAN; n],
            now: 0.0,
            step: 0,
            stalls: 0,
            upcoming,
            waiting: Queue::default(),
            arrived: 0,
            sent,
            prefilling: Queue::default(),
            decoding: Running::default(),
            cached_sum: 0.0,
            completed: 0,
            area: 0.0,
            busy: 0.0,
            iterations: 0,
            completions: Vec::with_capacity(n),
            gaps: Vec::new(),
            stalled_s: 0.0,
        }
    }

    /// Records a gap of `gap` seconds seen by `tokens` tokens, when the run is measured (past the
    /// warm-up, before the cool-down, not the saturated run).
    fn gap(&mut self, gap: f64, tokens: f64) {
        let x = self.x;
        let measured = (x.rate_per_s > 0.0 || x.users > 0)
            && self.completed >= x.warmup
            && self.completed < x.requests.saturating_sub(x.cooldown);
        if measured && tokens > 0.0 {
            self.gaps.push((gap, tokens));
        }
    }

    /// Decode steps run so far: the steps that gave the running sequences a token.
    fn clock(&self) -> u64 {
        self.step - self.stalls.min(self.step)
    }

    fn admitted(&self) -> usize {
        self.prefilling.len() + self.decoding.len()
    }

    fn in_system(&self) -> f64 {
        self.arrived.saturating_sub(self.completed) as f64
    }

    /// Moves the arrivals up to `t` into the waiting queue, in arrival order; each arriving
    /// within the last `dt` before `t` adds to the area under the count from its arrival.
    fn arrive_until(&mut self, t: f64) {
        while self.upcoming.next() <= t {
            let Some((a, id)) = self.upcoming.pop() else { break };
            self.area += (t - a).max(0.0);
            self.waiting.push_back(id);
            self.arrived += 1;
        }
    }

    /// Time passes by `dt`: the requests in the system add to the area under the count, and each
    /// request arriving within `dt` counts from its arrival.
    fn advance(&mut self, in_system: f64, dt: f64) {
        let end = self.now + dt;
        self.area += in_system * dt;
        self.arrive_until(end);
        self.now = end;
    }

    /// Counts the arrivals up to now (jumping to the next one when nothing is admitted or
    /// waiting) and admits waiting requests, first come first served, while there is room.
    fn admit(&mut self) {
        if self.admitted() == 0 && self.waiting.len() == 0 {
            let next = self.upcoming.next();
            if next.is_finite() {
                self.now = self.now.max(next);
            }
        }
        let now = self.now;
        self.arrive_until(now);
        while self.admitted() < self.cap {
            let Some(id) = self.waiting.pop_front() else { break };
            let prompt = self.lengths.get(id).map_or(self.x.prompt_tokens, |l| l.0);
            let done = self.x.cached_tokens.min(prompt.saturating_sub(1));
            self.prefilling.push_back(Admitted { id, done, prompt });
        }
    }

    /// Whether the next step runs prompts alone (a prefill-first scheduler with prompts waiting).
    fn prefill_only(&self) -> bool {
        self.x.prefill_first && self.prefilling.len() > 0
    }

    /// The next step: one decode token per running sequence, then prompt chunks, oldest first,
    /// in the rest of the token budget (a prefill-first scheduler: the prompts alone while any
    /// wait, else the decodes alone).
    fn plan(&self) -> Plan {
        let prefill_only = self.prefill_only();
        let ndec = if prefill_only { 0 } else { self.decoding.len() as u64 };
        let mut left = self.budget.saturating_sub(ndec);
        let cached = if prefill_only { 0.0 } else { self.cached_sum };
        let mut mix = StepMix { decode_seqs: ndec, decode_cached_sum: cached, ..StepMix::default() };
        let mut chunks = Vec::new();
        let prompts = if self.x.prefill_first && !prefill_only { 0 } else { self.prefilling.len() };
        for (slot, a) in self.prefilling.iter().take(prompts).enumerate() {
            if left == 0 {
                break;
            }
            let c = (a.prompt - a.done.min(a.prompt)).min(left);
            // A zero-token prompt still takes a step to sample its first token.
            let (past, new) = (a.done as f64, c as f64);
            mix.prefill_tokens += c;
            mix.prefill_positions += new * past + new * (new + 1.0) / 2.0;
            mix.prefill_past += past;
            mix.prefill_chunks += 1;
            left -= c.min(left);
            chunks.push((slot, c));
            if c == 0 && a.prompt > 0 {
                break;
            }
        }
        Plan { mix, chunks }
    }

    /// Steps of a decode-only stretch: up to the oldest sequence's last step, halved until one
    /// roofline term dominates at both ends, and cut at the first step whose end reaches an
    /// arrival that could join. Returns the steps, the time they take and the first one's time.
    fn stretch(&self, mix: &StepMix, last_step: u64) -> Result<(u64, f64, f64), PerfError> {
        let mut k = (last_step + 1).saturating_sub(self.clock()).max(1);
        let m = mix.decode_seqs as f64;
        let (t0, c0) = self.st.step(mix)?;
        let (t0, d) = loop {
            if k == 1 {
                break (t0, 0.0);
            }
            let end = StepMix { decode_cached_sum: self.cached_sum + (k - 1) as f64 * m, ..*mix };
            let (t1, c1) = self.st.step(&end)?;
            if c1 == c0 {
                break (t0, (t1 - t0) / (k - 1) as f64);
            }
            k = k.div_ceil(2);
        };
        let next = self.upcoming.next();
        if self.admitted() < self.cap && next.is_finite() {
            // Smallest j in 1..=k whose end reaches the arrival (binary search).
            let (mut lo, mut hi) = (1u64, k);
            while lo < hi {
                let mid = lo + (hi - lo) / 2;
                if self.now + stretch_time(mid, t0, d) >= next {
                    hi = mid;
                } else {
                    lo = mid + 1;
                }
            }
            k = lo;
        }
        Ok((k, finite("load simulation time", stretch_time(k, t0, d))?, t0))
    }

    /// Runs a decode-only stretch; `false` when there is nothing to run and nothing will arrive.
    fn decode_only(&mut self, mix: &StepMix, in_system: f64) -> Result<Option<u64>, PerfError> {
        let Some(oldest) = self.decoding.front().copied() else {
            // Nothing to run and nothing admitted: wait for the next arrival.
            let next = self.upcoming.next();
            if !next.is_finite() {
                return Ok(None);
            }
            self.area += in_system * (next - self.now).max(0.0);
            self.now = self.now.max(next);
            return Ok(Some(0));
        };
        let (k, dt, first) = self.stretch(mix, oldest.last_step)?;
        // The stretch's first step carries the stall before it; the others their mean time.
        let m = mix.decode_seqs as f64;
        self.gap(first + self.stalled_s, m);
        self.stalled_s = 0.0;
        if k > 1 {
            self.gap((dt - first) / (k - 1) as f64, (k - 1) as f64 * m);
        }
        self.busy += dt;
        self.advance(in_system, dt);
        self.cached_sum += k as f64 * mix.decode_seqs as f64;
        Ok(Some(k))
    }

    /// Runs one step with prompt chunks; the prompts it finishes sample their first token.
    fn mixed(&mut self, p: &Plan, in_system: f64) -> Result<u64, PerfError> {
        let (t, _) = self.st.step(&p.mix)?;
        let t = finite("load simulation time", t)?;
        self.busy += t;
        self.advance(in_system, t);
        self.cached_sum += p.mix.decode_seqs as f64;
        // A step without the running sequences gives them no token: their last decode step moves.
        let stall = u64::from(p.mix.decode_seqs == 0 && self.decoding.len() > 0);
        if stall == 1 {
            self.stalled_s += t;
        } else {
            self.gap(t + self.stalled_s, p.mix.decode_seqs as f64);
            self.stalled_s = 0.0;
        }
        let mut finished = 0usize;
        for (slot, c) in &p.chunks {
            if let Some(a) = self.prefilling.get_mut(*slot) {
                a.done += c;
                if a.done >= a.prompt {
                    finished += 1;
                }
            }
        }
        // The decode clock after this step; a prompt finished in a step without decodes gets its
        // later tokens from the next decode step on.
        let clock = self.clock();
        let prefill_only = u64::from(p.mix.decode_seqs == 0 && self.x.prefill_first);
        // Prompts finish in order (oldest first gets budget first).
        for _ in 0..finished {
            let Some(a) = self.prefilling.pop_front() else { break };
            if let Some(f) = self.first.get_mut(a.id) {
                *f = self.now;
            }
            let output = self.lengths.get(a.id).map_or(1, |l| l.1);
            if output <= 1 {
                self.complete(a.id);
            } else {
                let last = (clock + output - 1).saturating_sub(prefill_only);
                self.decoding.push(Decoding { id: a.id, last_step: last, held: a.prompt + output - 1 });
                self.cached_sum += a.prompt as f64;
            }
        }
        self.stalls += stall.max(prefill_only);
        Ok(1)
    }

    /// Request `id` has its last token now. In a closed loop its user sends the next request,
    /// which reaches the scheduler after that request's delay ([`request_delays`]).
    fn complete(&mut self, id: usize) {
        if let Some(t) = self.done_at.get_mut(id) {
            *t = self.now;
        }
        self.completions.push(self.now);
        if self.x.users > 0 && self.sent < self.arr.len() {
            let next = self.sent;
            let arrive = self.now + self.delay.get(next).copied().unwrap_or(0.0);
            if let Some(a) = self.arr.get_mut(next) {
                *a = arrive;
            }
            self.upcoming.insert(arrive, next);
            self.sent += 1;
        }
        self.completed += 1;
    }

    /// Sequences whose last token came in the step just run leave.
    fn retire(&mut self) {
        let clock = self.clock();
        while let Some(d) = self.decoding.front().copied() {
            if d.last_step > clock.saturating_sub(1) {
                break;
            }
            self.decoding.pop_front();
            self.cached_sum -= d.held as f64;
            self.complete(d.id);
        }
    }

    /// One iteration of the loop: admit, plan, run a step or a stretch, retire. `false` when
    /// the run cannot go on.
    fn iterate(&mut self) -> Result<bool, PerfError> {
        self.iterations += 1;
        if self.iterations > MAX_ITERATIONS {
            return Err(PerfError::Overflow { quantity: "load simulation steps" });
        }
        self.admit();
        let in_system = self.in_system();
        let plan = self.plan();
        let k = if plan.chunks.is_empty() {
            match self.decode_only(&plan.mix, in_system)? {
                Some(k) => k,
                None => return Ok(false),
            }
        } else {
            self.mixed(&plan, in_system)?
        };
        self.step += k;
        self.retire();
        Ok(true)
    }
}

/// Adds `extra[i]` (cycled) to request `i`'s delay: time the request spends before this
/// replica's scheduler that this replica does not simulate (a disaggregated deployment's prefill
/// and KV transfer, `super::disagg`). Non-finite or negative extras count as 0.
fn add_extra_delays(delay: &mut [f64], extra: &[f64]) {
    if extra.is_empty() {
        return;
    }
    for (i, d) in delay.iter_mut().enumerate() {
        let e = extra.get(i % extra.len()).copied().unwrap_or(0.0);
        *d += if e.is_finite() { e.max(0.0) } else { 0.0 };
    }
}

/// Runs the simulation. See the module doc.
pub fn simulate(x: &SimInputs, st: &dyn StepTime) -> Result<SimResult, PerfError> {
    simulate_with_delays(x, st, &[])
}

/// [`simulate`] with `extra[i]` seconds added to request `i`'s delay before the scheduler
/// (cycled over the requests): in an open loop it adds to the request's time to first token and
/// time in system (the arrivals at the scheduler stay Poisson: a Poisson stream whose points
/// are each moved by an independent delay is still Poisson, the displacement theorem); in a
/// closed loop it also delays the request's arrival after its send.
pub fn simulate_with_delays(x: &SimInputs, st: &dyn StepTime, extra: &[f64]) -> Result<SimResult, PerfError> {
    let mut sim = Sim::new(x, st, extra);
    while sim.completed < x.requests && sim.iterate()? {}
    let arr: Vec<f64> = sim.arr.iter().map(|a| if a.is_finite() { *a } else { sim.now }).collect();
    let times = Times {
        arr: &arr,
        delay: &sim.delay,
        first: &sim.first,
        done_at: &sim.done_at,
        completions: &sim.completions,
    };
    let outputs: Vec<u64> = sim.lengths.iter().map(|l| l.1).collect();
    let mut r = summarise(x, &times, sim.now, sim.area, (sim.step, sim.iterations), &outputs)?;
    sort(&mut sim.gaps);
    if sim.gaps.iter().any(|g| !g.0.is_finite()) {
        return Err(PerfError::Overflow { quantity: "load simulation latencies" });
    }
    r.itl_s = sim.gaps;
    // From the first arrival (requests arrive out of index order in a closed loop).
    let start = arr.iter().copied().fold(f64::INFINITY, f64::min);
    let span = if start.is_finite() { sim.now - start } else { 0.0 };
    r.busy_fraction = if span > 0.0 { (sim.busy / span).clamp(0.0, 1.0) } else { 0.0 };
    Ok(r)
}

/// The per-request times of a run.
struct Times<'a> {
    arr: &'a [f64],
    /// Each request's delay between its send and its arrival.
    delay: &'a [f64],
    first: &'a [f64],
    done_at: &'a [f64],
    /// Completion times in the order they happened (non-decreasing).
    completions: &'a [f64],
}

/// Latency lists and averages from the per-request times.
fn summarise(
    x: &SimInputs,
    t: &Times,
    end: f64,
    area: f64,
    (steps, iterations): (u64, u64),
    outputs: &[u64],
) -> Result<SimResult, PerfError> {
    let (arr, first, done_at, completions) = (t.arr, t.first, t.done_at, t.completions);
    let n = arr.len();
    let fixed = x.first_token_fixed_s;
    let mut ttft = Vec::with_capacity(n);
    let mut tpot = Vec::with_capacity(n);
    let mut sojourn = 0.0;
    // A saturated run (rate 0) measures throughput only: its latencies mean nothing.
    // A closed loop's last `cooldown` requests run as the users stop sending: left out too.
    let latencies = x.rate_per_s > 0.0 || x.users > 0;
    let kept = x.warmup..n.saturating_sub(x.cooldown);
    for (i, ((a, f), d)) in arr.iter().zip(first).zip(done_at).enumerate() {
        // From the send: the request's delay before the scheduler, then its wait and prefill.
        let delay = t.delay.get(i).copied().unwrap_or(fixed);
        sojourn += d - a + delay;
        if latencies && kept.contains(&i) {
            ttft.push(f - a + delay);
            let output = outputs.get(i).copied().unwrap_or(1);
            if output >= 2 {
                tpot.push((d - f) / (output - 1) as f64);
            }
        }
    }
    sort(&mut ttft);
    sort(&mut tpot);
    let start = arr.first().copied().unwrap_or(0.0);
    // Completion times in the order they happened (non-decreasing).
    let (q1, q3) = (n / 4, (3 * n) / 4);
    let steady = match (completions.get(q1), completions.get(q3)) {
        (Some(a), Some(b)) if b > a => (q3 - q1) as f64 / (b - a),
        _ => 0.0,
    };
    let span = end - start;
    let r = SimResult {
        mean_in_system: if end > 0.0 { (area + fixed * n as f64) / (end + fixed) } else { 0.0 },
        mean_time_in_system_s: if n > 0 { sojourn / n as f64 } else { 0.0 },
        end_s: end,
        output_tokens_per_s: if span > 0.0 { outputs.iter().sum::<u64>() as f64 / span } else { 0.0 },
        busy_fraction: 0.0,
        steady_completions_per_s: steady,
        ttft_s: ttft,
        tpot_s: tpot,
        itl_s: Vec::new(),
        steps,
        iterations,
    };
    for v in [r.mean_in_system, r.mean_time_in_system_s, r.end_s, r.output_tokens_per_s, steady] {
        finite("load simulation", v)?;
    }
    if r.ttft_s.iter().chain(&r.tpot_s).any(|v| !v.is_finite()) {
        return Err(PerfError::Overflow { quantity: "load simulation latencies" });
    }
    Ok(r)
}

#[cfg(test)]
mod sort_tests {
    /// The binary insertion sort gives the standard library's stable sort's order, on runs of
    /// pseudo-random values with repeats, zeros of both signs and already ordered input.
    #[test]
    fn sort_matches_the_standard_sort() {
        let mut seed = 0x2545_F491_4F6C_DD1D_u64;
        for n in [0, 1, 2, 3, 17, 360, 1000] {
            let mut v: Vec<f64> = (0..n)
                .map(|i| {
                    seed ^= seed << 13;
                    seed ^= seed >> 7;
                    seed ^= seed << 17;
                    match i % 7 {
                        0 => 0.0,
                        1 => -0.0,
                        2 => (seed % 5) as f64,
                        _ => (seed % 1_000_000) as f64 / 7.0 - 50_000.0,
                    }
                })
                .collect();
            let mut want = v.clone();
            want.sort_by(f64::total_cmp);
            super::sort(&mut v);
            assert_eq!(
                v.iter().map(|x| x.to_bits()).collect::<Vec<_>>(),
                want.iter().map(|x| x.to_bits()).collect::<Vec<_>>(),
                "n = {n}"
            );
            super::sort(&mut v);
            assert_eq!(
                v.iter().map(|x| x.to_bits()).collect::<Vec<_>>(),
                want.iter().map(|x| x.to_bits()).collect::<Vec<_>>(),
                "sorted input, n = {n}"
            );
        }
    }
}

#[cfg(test)]
mod length_tests {
    use super::*;

    fn lengths(r: f64) -> Vec<(u64, u64)> {
        let x = SimInputs {
            rate_per_s: 0.0,
            users: 0,
            spread_s: 0.0,
            prefill_first: false,
            prompt_tokens: 1024,
            cached_tokens: 0,
            output_tokens: 1024,
            length_min_ratio: r,
            max_seqs: 1,
            step_token_budget: 1,
            requests: 4000,
            warmup: 0,
            cooldown: 0,
            seed: 7,
            first_token_fixed_s: 0.0,
        };
        request_lengths(&x)
    }

    #[test]
    fn lengths_are_drawn_between_the_ratio_and_the_stated_length() {
        // r 1: every request exactly as stated.
        assert!(lengths(1.0).iter().all(|l| *l == (1024, 1024)));
        // r 0.8: randint(819, 1025), mean 921.5; both ends reached in 4,000 draws.
        let v = lengths(0.8);
        assert!(v.iter().all(|l| (819..=1024).contains(&l.0) && (819..=1024).contains(&l.1)));
        let mean = v.iter().map(|l| l.1 as f64).sum::<f64>() / v.len() as f64;
        assert!((mean - 921.5).abs() < 5.0, "{mean}");
        assert!(v.iter().any(|l| l.1 == 819) && v.iter().any(|l| l.1 == 1024));
        // r 0: SGLang's default, any length from 0 (an output still has 1 token).
        assert!(lengths(0.0).iter().all(|l| l.0 <= 1024 && (1..=1024).contains(&l.1)));
    }
}
