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
//!   one token; a request leaves after `output_tokens` tokens.
//!
//! Arrivals are Poisson: exponential gaps drawn from a fixed-seed SplitMix64 generator, then
//! scaled so the sample's mean gap is exactly `1 / rate` (the same pattern, compressed, at every
//! rate). The step time comes from a [`StepTime`] (the engine's roofline timing of the step's
//! mix). Stretches of decode-only steps with nothing arriving that could join are advanced in one
//! go: within such a stretch each step's time is linear in the step index (the cached context
//! grows by one token per sequence per step) as long as the same roofline term dominates at both
//! ends, so the stretch's time is summed exactly (otherwise the stretch is halved). Everything is
//! bounded: at most [`MAX_ITERATIONS`] loop iterations, else an error.

use super::super::{finite, PerfError};

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
    pub rate_per_s: f64,
    pub prompt_tokens: u64,
    pub output_tokens: u64,
    /// Most requests admitted at once (>= 1).
    pub max_seqs: u64,
    /// Tokens per step (>= max_seqs).
    pub step_token_budget: u64,
    pub requests: usize,
    /// Requests at the start left out of the latency percentiles (the empty system warming up).
    pub warmup: usize,
    pub seed: u64,
    /// Fixed seconds per request before its first token (tokenisation, scheduling, sampling)
    /// that occupy no GPU step: added to TTFT and time in system.
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
    /// Completed requests per second between the first and last quarter's completions (the
    /// steady state; used for the saturated run).
    pub steady_completions_per_s: f64,
    /// Per request after the warm-up, sorted ascending.
    pub ttft_s: Vec<f64>,
    /// Per request after the warm-up with >= 2 output tokens: (last − first token) / (output − 1).
    pub tpot_s: Vec<f64>,
    pub steps: u64,
    pub iterations: u64,
}

/// SplitMix64 (Steele, Lea, Flood, "Fast splittable pseudorandom number generators", 2014).
fn splitmix(state: &mut u64) -> u64 {
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

/// Sorts ascending (`f64::total_cmp`, stable): a binary insertion sort. The latencies of a run
/// (hundreds, in no particular order) cost n·log n comparisons and block moves instead of the
/// plain insertion sort's n²/4 swaps, which a CPU profile of the estimator showed as the largest
/// part of a simulation; with far less wasm than the standard library's sort.
fn sort(v: &mut [f64]) {
    for i in 1..v.len() {
        let Some(&x) = v.get(i) else { break };
        let at = v.get(..i).map_or(i, |done| done.partition_point(|a| a.total_cmp(&x).is_le()));
        if let Some(block) = v.get_mut(at..=i) {
            block.rotate_right(1);
        }
    }
}

/// An admitted request.
#[derive(Clone, Copy, Debug)]
struct Admitted {
    id: usize,
    /// Prompt tokens already processed.
    done: u64,
}

/// A decoding request: leaves at the end of step `last_step`.
#[derive(Clone, Copy, Debug)]
struct Decoding {
    id: usize,
    last_step: u64,
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
    fn front(&self) -> Option<&T> {
        self.items.get(self.front)
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

/// Runs the simulation. See the module doc.
pub fn simulate(x: &SimInputs, st: &dyn StepTime) -> Result<SimResult, PerfError> {
    let n = x.requests;
    let arr = arrivals(n, x.rate_per_s, x.seed);
    let prompt = x.prompt_tokens;
    let output = x.output_tokens.max(1);
    let cap = x.max_seqs.max(1);
    let budget = x.step_token_budget.max(cap);
    let nan = f64::NAN;
    let mut first = vec![nan; n];
    let mut done_at = vec![nan; n];

    let mut now = 0.0_f64;
    let mut step: u64 = 0;
    let mut arrived = 0usize; // requests with arrival <= now
    let mut next_admit = 0usize;
    // Queues as vectors with a moving front (each request enters each at most once).
    let mut prefilling: Queue<Admitted> = Queue::default();
    let mut decoding: Queue<Decoding> = Queue::default();
    let mut cached_sum = 0.0_f64; // Σ cached tokens of decoding sequences
    let mut completed = 0usize;
    let mut area = 0.0_f64; // ∫ requests in system dt
    let mut iterations = 0u64;
    let mut completions: Vec<f64> = Vec::with_capacity(n);

    let at = |i: usize| arr.get(i).copied().unwrap_or(f64::INFINITY);
    // Time passes by `dt`: the requests in the system add to the area under the count, and each
    // request arriving within `dt` counts from its arrival. Returns (area, arrived, now).
    let advance = |area: f64, in_system: f64, arrived: usize, now: f64, dt: f64| {
        let (mut area, end, mut j) = (area + in_system * dt, now + dt, arrived);
        while j < n && at(j) <= end {
            area += end - at(j);
            j += 1;
        }
        (area, j, end)
    };
    while completed < n {
        iterations += 1;
        if iterations > MAX_ITERATIONS {
            return Err(PerfError::Overflow { quantity: "load simulation steps" });
        }
        let admitted = prefilling.len() + decoding.len();
        if admitted == 0 && next_admit >= arrived {
            // Idle: jump to the next arrival.
            now = now.max(at(arrived));
        }
        while arrived < n && at(arrived) <= now {
            arrived += 1;
        }
        while (prefilling.len() + decoding.len()) < crate::engine::num::usize_sat(cap) && next_admit < arrived
        {
            prefilling.push_back(Admitted { id: next_admit, done: 0 });
            next_admit += 1;
        }
        let in_system = (arrived - completed) as f64;
        let ndec = decoding.len() as u64;
        let room = (prefilling.len() + decoding.len()) < crate::engine::num::usize_sat(cap);
        let mut left = budget.saturating_sub(ndec);
        let mut mix = StepMix { decode_seqs: ndec, decode_cached_sum: cached_sum, ..StepMix::default() };
        let mut chunks: Vec<(usize, u64)> = Vec::new();
        for (slot, a) in prefilling.iter().enumerate() {
            if left == 0 {
                break;
            }
            let c = (prompt - a.done.min(prompt)).min(left);
            // A zero-token prompt still takes a step to sample its first token.
            let (past, new) = (a.done as f64, c as f64);
            mix.prefill_tokens += c;
            mix.prefill_positions += new * past + new * (new + 1.0) / 2.0;
            mix.prefill_past += past;
            left -= c.min(left);
            chunks.push((slot, c));
            if c == 0 && prompt > 0 {
                break;
            }
        }
        let k = if chunks.is_empty() {
            // Decode-only stretch up to the oldest sequence's last step, or until an arrival
            // could join (when there is room).
            let Some(oldest) = decoding.front() else {
                // Nothing to run and nothing admitted: wait for the next arrival.
                let next = at(arrived);
                if !next.is_finite() {
                    break;
                }
                area += in_system * (next - now);
                now = next;
                continue;
            };
            let mut k = (oldest.last_step + 1).saturating_sub(step).max(1);
            let m = ndec as f64;
            let (t0, c0) = st.step(&mix)?;
            let (t0, d) = loop {
                if k == 1 {
                    break (t0, 0.0);
                }
                let end = StepMix { decode_cached_sum: cached_sum + (k - 1) as f64 * m, ..mix };
                let (t1, c1) = st.step(&end)?;
                if c1 == c0 {
                    break (t0, (t1 - t0) / (k - 1) as f64);
                }
                k = k.div_ceil(2);
            };
            let next = at(arrived);
            if room && next.is_finite() {
                // Smallest j in 1..=k whose end reaches the arrival (binary search).
                let (mut lo, mut hi) = (1u64, k);
                while lo < hi {
                    let mid = lo + (hi - lo) / 2;
                    if now + stretch_time(mid, t0, d) >= next {
                        hi = mid;
                    } else {
                        lo = mid + 1;
                    }
                }
                k = lo;
            }
            let dt = finite("load simulation time", stretch_time(k, t0, d))?;
            // Arrivals during the stretch count from their arrival.
            (area, arrived, now) = advance(area, in_system, arrived, now, dt);
            cached_sum += k as f64 * m;
            k
        } else {
            let (t, _) = st.step(&mix)?;
            let dt = finite("load simulation time", t)?;
            (area, arrived, now) = advance(area, in_system, arrived, now, dt);
            cached_sum += ndec as f64;
            // Chunks: the ones that finish their prompt sample their first token now.
            let mut finished = 0usize;
            for (slot, c) in &chunks {
                if let Some(a) = prefilling.get_mut(*slot) {
                    a.done += c;
                    if a.done >= prompt {
                        finished += 1;
                    }
                }
            }
            // Prompts finish in order (oldest first gets budget first).
            for _ in 0..finished {
                if let Some(a) = prefilling.pop_front() {
                    if let Some(f) = first.get_mut(a.id) {
                        *f = now;
                    }
                    if output <= 1 {
                        if let Some(d) = done_at.get_mut(a.id) {
                            *d = now;
                        }
                        completions.push(now);
                        completed += 1;
                    } else {
                        decoding.push_back(Decoding { id: a.id, last_step: step + output - 1 });
                        cached_sum += prompt as f64;
                    }
                }
            }
            1
        };
        step += k;
        // Sequences whose last token came in this step leave.
        while let Some(d) = decoding.front().copied() {
            if d.last_step > step.saturating_sub(1) {
                break;
            }
            decoding.pop_front();
            cached_sum -= (prompt + output - 1) as f64;
            completions.push(now);
            if let Some(t) = done_at.get_mut(d.id) {
                *t = now;
            }
            completed += 1;
        }
    }

    summarise(x, &arr, &first, &done_at, &completions, now, area, (step, iterations), output)
}

/// Latency lists and averages from the per-request times.
#[allow(clippy::too_many_arguments)]
fn summarise(
    x: &SimInputs,
    arr: &[f64],
    first: &[f64],
    done_at: &[f64],
    completions: &[f64],
    end: f64,
    area: f64,
    (steps, iterations): (u64, u64),
    output: u64,
) -> Result<SimResult, PerfError> {
    let n = arr.len();
    let fixed = x.first_token_fixed_s;
    let mut ttft = Vec::with_capacity(n);
    let mut tpot = Vec::with_capacity(n);
    let mut sojourn = 0.0;
    // A saturated run (rate 0) measures throughput only: its latencies mean nothing.
    let latencies = x.rate_per_s > 0.0;
    for (i, ((a, f), d)) in arr.iter().zip(first).zip(done_at).enumerate() {
        sojourn += d - a + fixed;
        if latencies && i >= x.warmup {
            ttft.push(f - a + fixed);
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
        output_tokens_per_s: if span > 0.0 { (n as f64 * output as f64) / span } else { 0.0 },
        steady_completions_per_s: steady,
        ttft_s: ttft,
        tpot_s: tpot,
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
