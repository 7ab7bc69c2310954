//! Cloud instances for one workload: which fit, how fast each serves or trains it, what that
//! costs, and in which order they rank.
//!
//! An instance is an [`Offer`]: a catalog GPU, how many of them, the hourly price of the whole
//! instance (when one is known) and how its GPUs are joined. For each offer the engine tries
//! every tensor-parallel degree that divides the GPU count (1, 2, 4, 8 …; the other GPUs run
//! replicas):
//!
//! * **serving**: `replicas = gpus / tp`, each replica takes `⌈concurrency / replicas⌉` of the
//!   concurrent requests; output tokens/s over the instance = `replicas × batch / TPOT`
//!   (the engine's expected decode step). Of the layouts that fit, the one with the highest
//!   tokens/s that meets the latency target wins; when none meets it, the one with the lowest
//!   TPOT, marked as missing the target.
//! * **training** (full, LoRA, QLoRA): all GPUs train, `dp = gpus / tp`, the micro-batch per
//!   replica as given; the fitting layout with the most training tokens/s wins.
//!
//! Costs: per hour is the instance's price; per million output tokens is
//! `price_per_hour / (tokens_per_s × 3600) × 10⁶`; per training run is
//! `tokens / tokens_per_s / 3600 × price_per_hour`. One instance only: a job that needs more
//! GPUs than one instance has does not fit here (multi-node runs are the cluster chapter's).
//!
//! Memory is checked first with the cheap fit check (`fit::memory_fit_with`); only layouts that
//! fit get the full time model.

use super::error::EngineError;
use super::evaluate::evaluate_with;
use super::fit::memory_fit_with;
use super::hardware::TopologyKind;
use super::lookup::Lookup;
use super::num::u64_from_f64;
use super::scenario::Scenario;
use super::workload::Mode;

/// One instance as the ranking sees it.
#[derive(Clone, Debug, PartialEq)]
pub struct Offer {
    /// Catalog GPU id.
    pub gpu: String,
    /// Whole GPUs in the instance (at least 1).
    pub gpus: u64,
    /// USD per hour for the whole instance, when known.
    pub price_per_hour: Option<f64>,
    pub topology: TopologyKind,
}

/// What the ranking minimises.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Objective {
    /// USD per instance-hour.
    #[default]
    PerHour,
    /// USD per million output tokens (serving).
    PerMillionTokens,
    /// USD per training run of the given tokens (training).
    PerRun,
}

/// The workload's goal besides its scenario.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Goal {
    pub objective: Objective,
    /// Serving: the slowest acceptable time per output token, seconds.
    pub max_tpot_s: Option<f64>,
    /// Training: tokens the run processes (tokens per sequence × sequences × epochs).
    pub training_tokens: f64,
}

/// The layout that won on one offer, with its speed and costs.
#[derive(Clone, Debug, PartialEq)]
pub struct Choice {
    pub tensor_parallel: u64,
    /// Serving: independent replicas; training: data-parallel replicas.
    pub replicas: u64,
    /// Serving: concurrent requests per replica; training: micro-batch per replica.
    pub batch: u64,
    /// Output tokens/s over the instance (serving) or training tokens/s (training).
    pub tokens_per_s: f64,
    /// Serving: expected time per output token.
    pub tpot_s: Option<f64>,
    pub memory_per_gpu_bytes: u64,
    pub usable_bytes: u64,
    pub cost_per_hour: Option<f64>,
    pub cost_per_million_tokens: Option<f64>,
    /// Training: hours of the run and its cost.
    pub run_hours: Option<f64>,
    pub cost_per_run: Option<f64>,
}

/// Why an offer is shown greyed instead of ranked.
#[derive(Clone, Debug, PartialEq)]
pub enum Problem {
    /// Even the widest tensor-parallel layout does not fit: what it needs per GPU and has.
    DoesNotFit { needed_bytes: u64, usable_bytes: u64, gpus: u64 },
    /// The fastest layout's time per output token is above the target.
    MissesLatency { tpot_s: f64, target_s: f64 },
    /// No price: the offer can be compared by speed but not by cost.
    NoPrice,
    /// The scenario cannot be evaluated on this GPU (unknown GPU, a layout the model cannot
    /// take, a GPU without a peak for the compute path).
    Engine(EngineError),
}

/// One offer assessed: the winning layout when any fits, and what keeps it out of the ranking.
#[derive(Clone, Debug, PartialEq)]
pub struct Assessment {
    pub choice: Option<Choice>,
    pub problems: Vec<Problem>,
}

impl Assessment {
    /// Ranked (not greyed): a layout fits and nothing is wrong.
    pub fn ranked(&self) -> bool {
        self.choice.is_some() && self.problems.is_empty()
    }

    /// The objective's value, when the offer has one.
    pub fn cost(&self, objective: Objective) -> Option<f64> {
        let c = self.choice.as_ref()?;
        match objective {
            Objective::PerHour => c.cost_per_hour,
            Objective::PerMillionTokens => c.cost_per_million_tokens,
            Objective::PerRun => c.cost_per_run,
        }
    }
}

/// Whether the scenario trains (full, LoRA or QLoRA) rather than serves.
pub fn is_training(s: &Scenario) -> bool {
    !matches!(s.mode, Mode::Inference)
}

/// The tensor-parallel degrees tried on `gpus` GPUs: the powers of two that divide it.
pub fn tensor_parallel_degrees(gpus: u64) -> Vec<u64> {
    let mut out = Vec::new();
    let mut tp = 1_u64;
    while tp <= gpus && tp <= 64 {
        if gpus.is_multiple_of(tp) {
            out.push(tp);
        }
        tp *= 2;
    }
    out
}

/// `a / b` rounded up, for counts (`b` ≥ 1).
fn div_ceil(a: u64, b: u64) -> u64 {
    a.div_ceil(b.max(1))
}

/// The scenario one layout of `offer` runs: serving evaluates one replica of `tp` GPUs with its
/// share of the requests; training evaluates the whole instance.
pub fn layout_scenario(base: &Scenario, offer: &Offer, tp: u64) -> (Scenario, u64) {
    let mut s = base.clone();
    s.gpu = super::hardware::GpuSpec::Id(offer.gpu.clone());
    s.topology = Some(offer.topology);
    s.tensor_parallel = tp;
    s.pipeline_parallel = 1;
    s.data_parallel = None;
    s.gpus_per_node = offer.gpus.max(1);
    s.price_per_gpu_hour = offer.price_per_hour.map(|p| p / f64_of(offer.gpus.max(1)));
    let replicas = offer.gpus.max(1) / tp.max(1);
    if is_training(base) {
        s.gpus = offer.gpus.max(1);
    } else {
        s.gpus = tp;
        s.batch = div_ceil(base.batch.max(1), replicas);
    }
    (s, replicas)
}

fn f64_of(v: u64) -> f64 {
    // Counts here are small (GPUs, requests); the conversion is exact below 2^53.
    #[allow(clippy::cast_precision_loss)]
    let f = v as f64;
    f
}

/// Assesses one offer for the workload `base` and `goal`: [`assess_unpriced`] on its GPUs, then
/// [`apply_price`] with its price.
pub fn assess(base: &Scenario, goal: &Goal, offer: &Offer, lookup: &dyn Lookup) -> Assessment {
    apply_price(assess_unpriced(base, goal, offer, lookup), offer.price_per_hour)
}

/// The layouts of one offer, without money: which fits and which wins. Offers that differ only
/// in price share this (the UI assesses each GPU type and count once per edit).
pub fn assess_unpriced(base: &Scenario, goal: &Goal, offer: &Offer, lookup: &dyn Lookup) -> Assessment {
    let training = is_training(base);
    let unpriced = Offer { price_per_hour: None, ..offer.clone() };
    let mut widest_miss: Option<Problem> = None;
    let mut candidates: Vec<Choice> = Vec::new();
    let mut first_error: Option<EngineError> = None;
    for tp in tensor_parallel_degrees(offer.gpus.max(1)) {
        let (s, replicas) = layout_scenario(base, &unpriced, tp);
        let fit = match memory_fit_with(&s, lookup) {
            Ok(f) => f,
            Err(e) => {
                first_error.get_or_insert(e);
                continue;
            }
        };
        if !fit.fits {
            widest_miss = Some(Problem::DoesNotFit {
                needed_bytes: fit.total_bytes,
                usable_bytes: fit.usable_bytes,
                gpus: offer.gpus,
            });
            continue;
        }
        let report = match evaluate_with(&s, lookup) {
            Ok(r) => r,
            Err(e) => {
                first_error.get_or_insert(e);
                continue;
            }
        };
        let perf = &report.performance;
        let (tokens_per_s, tpot_s) = if training {
            (perf.throughput.tokens_per_s.unwrap_or(0.0), None)
        } else {
            let tpot = perf.serving.estimate.time_per_output_token_s;
            let per_replica = if tpot > 0.0 { f64_of(s.batch) / tpot } else { 0.0 };
            (per_replica * f64_of(replicas), Some(tpot))
        };
        let run_hours = (training && tokens_per_s > 0.0 && goal.training_tokens > 0.0)
            .then(|| goal.training_tokens / tokens_per_s / 3600.0);
        candidates.push(Choice {
            tensor_parallel: tp,
            replicas,
            batch: s.batch,
            tokens_per_s,
            tpot_s,
            memory_per_gpu_bytes: fit.total_bytes,
            usable_bytes: fit.usable_bytes,
            cost_per_hour: None,
            cost_per_million_tokens: None,
            run_hours,
            cost_per_run: None,
        });
    }
    let meets = |c: &Choice| match (goal.max_tpot_s, c.tpot_s) {
        (Some(target), Some(t)) => t <= target,
        _ => true,
    };
    let best_meeting = candidates
        .iter()
        .filter(|c| meets(c))
        .max_by(|a, b| a.tokens_per_s.total_cmp(&b.tokens_per_s))
        .cloned();
    let mut problems = Vec::new();
    let choice = match best_meeting {
        Some(c) => Some(c),
        None => {
            let fastest = candidates
                .iter()
                .min_by(|a, b| {
                    a.tpot_s.unwrap_or(f64::INFINITY).total_cmp(&b.tpot_s.unwrap_or(f64::INFINITY))
                })
                .cloned();
            if let (Some(c), Some(target)) = (&fastest, goal.max_tpot_s) {
                problems.push(Problem::MissesLatency { tpot_s: c.tpot_s.unwrap_or(0.0), target_s: target });
            }
            fastest
        }
    };
    if choice.is_none() {
        match (widest_miss, first_error) {
            (Some(miss), _) => problems.push(miss),
            (None, Some(e)) => problems.push(Problem::Engine(e)),
            (None, None) => {}
        }
    }
    Assessment { choice, problems }
}

/// The costs of an unpriced assessment at `price` USD per instance-hour (none: the offer is
/// greyed with [`Problem::NoPrice`] when a layout fits). A price that is not a positive finite
/// number counts as none.
pub fn apply_price(mut a: Assessment, price: Option<f64>) -> Assessment {
    let price = price.filter(|p| p.is_finite() && *p > 0.0);
    a.problems.retain(|p| *p != Problem::NoPrice);
    if let Some(c) = a.choice.as_mut() {
        c.cost_per_hour = price;
        c.cost_per_million_tokens = match price {
            Some(p) if c.tpot_s.is_some() && c.tokens_per_s > 0.0 => {
                Some(p / (c.tokens_per_s * 3600.0) * 1e6)
            }
            _ => None,
        };
        c.cost_per_run = c.run_hours.zip(price).map(|(h, p)| h * p);
        if price.is_none() {
            a.problems.push(Problem::NoPrice);
        }
    }
    a
}

/// The order to list assessments in: ranked offers by the objective's cost (cheapest first;
/// without a cost, by tokens/s, fastest first), then the greyed ones (those that fit before those
/// that do not). Ties keep the input order.
pub fn ranking(list: &[Assessment], objective: Objective) -> Vec<usize> {
    let key = |a: &Assessment| -> (u8, f64) {
        let group = if a.ranked() {
            0
        } else if a.choice.is_some() {
            1
        } else {
            2
        };
        let value = match (a.cost(objective), &a.choice) {
            (Some(c), _) if a.ranked() => c,
            (_, Some(c)) => -c.tokens_per_s,
            _ => 0.0,
        };
        (group, value)
    };
    let mut order: Vec<usize> = (0..list.len()).collect();
    super::num::sort_stable_by(&mut order, |&x, &y| {
        let (kx, ky) = (list.get(x).map(key), list.get(y).map(key));
        match (kx, ky) {
            (Some((gx, vx)), Some((gy, vy))) => gx < gy || (gx == gy && vx < vy),
            _ => false,
        }
    });
    order
}

/// Whole hours and minutes of `hours` (for "3 h 20 min"), rounded to the minute.
pub fn hours_minutes(hours: f64) -> (u64, u64) {
    let minutes = u64_from_f64((hours.max(0.0) * 60.0).round());
    (minutes / 60, minutes % 60)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::catalog::Catalog;
    use crate::engine::ModelSpec;

    fn serve(model: &str, batch: u64, context: u64) -> Scenario {
        let mut s = Scenario::new(ModelSpec::Id(model.into()));
        s.batch = batch;
        s.context_tokens = context;
        s
    }

    fn offer(gpu: &str, gpus: u64, price: Option<f64>) -> Offer {
        Offer { gpu: gpu.into(), gpus, price_per_hour: price, topology: TopologyKind::Nvswitch }
    }

    const HOURLY: Goal = Goal { objective: Objective::PerHour, max_tpot_s: None, training_tokens: 0.0 };

    #[test]
    fn degrees_divide_the_gpu_count() {
        assert_eq!(tensor_parallel_degrees(1), vec![1]);
        assert_eq!(tensor_parallel_degrees(8), vec![1, 2, 4, 8]);
        assert_eq!(tensor_parallel_degrees(6), vec![1, 2]);
        assert_eq!(tensor_parallel_degrees(16), vec![1, 2, 4, 8, 16]);
    }

    #[test]
    fn an_8b_model_on_an_8_gpu_node_takes_the_layout_with_the_most_tokens_per_second() {
        let s = serve("llama-3.1-8b", 64, 4096);
        let a = assess(&s, &HOURLY, &offer("h100-sxm", 8, Some(55.04)), &Catalog);
        let c = a.choice.clone().unwrap();
        assert!(a.ranked(), "{a:?}");
        // Worked for every layout: the instance's tokens/s is replicas × requests per replica /
        // TPOT; the choice is the layout with the most (wider replicas share each weight read
        // among more requests, so on NVSwitch they can beat one replica per GPU).
        let mut best = 0.0_f64;
        for (tp, replicas, batch) in [(1, 8, 8), (2, 4, 16), (4, 2, 32), (8, 1, 64)] {
            let (one, r) = layout_scenario(&s, &offer("h100-sxm", 8, Some(55.04)), tp);
            assert_eq!((r, one.batch), (replicas, batch));
            let tpot =
                crate::catalog::evaluate(&one).unwrap().performance.serving.estimate.time_per_output_token_s;
            let tps = f64_of(replicas * batch) / tpot;
            if tp == c.tensor_parallel {
                assert!((c.tokens_per_s - tps).abs() < 1e-6 * tps);
            }
            best = best.max(tps);
        }
        assert_eq!(c.tokens_per_s, best);
        let per_m = 55.04 / (c.tokens_per_s * 3600.0) * 1e6;
        assert!((c.cost_per_million_tokens.unwrap() - per_m).abs() < 1e-9);
    }

    #[test]
    fn a_70b_model_in_bf16_does_not_fit_one_l4_and_says_how_much_it_needs() {
        let s = serve("llama-3.1-70b", 8, 4096);
        let a = assess(&s, &HOURLY, &offer("l4", 1, Some(0.98)), &Catalog);
        assert!(a.choice.is_none());
        match a.problems.as_slice() {
            [Problem::DoesNotFit { needed_bytes, usable_bytes, gpus: 1 }] => {
                assert!(needed_bytes > usable_bytes);
                assert!(*needed_bytes > 140_000_000_000, "{needed_bytes}");
            }
            other => panic!("{other:?}"),
        }
        // On eight H100s it fits with tensor parallelism.
        let a = assess(&s, &HOURLY, &offer("h100-sxm", 8, Some(55.04)), &Catalog);
        assert!(a.choice.unwrap().tensor_parallel >= 2);
    }

    #[test]
    fn a_latency_target_that_no_layout_meets_is_named_with_the_fastest_layout() {
        let s = serve("llama-3.1-8b", 4, 2048);
        let goal = Goal { max_tpot_s: Some(0.001), ..HOURLY };
        let a = assess(&s, &goal, &offer("l4", 1, Some(0.98)), &Catalog);
        assert!(!a.ranked());
        assert!(
            matches!(a.problems.as_slice(), [Problem::MissesLatency { target_s, .. }] if *target_s == 0.001)
        );
        // A generous target is met.
        let goal = Goal { max_tpot_s: Some(10.0), ..HOURLY };
        assert!(assess(&s, &goal, &offer("l4", 1, Some(0.98)), &Catalog).ranked());
    }

    #[test]
    fn no_price_is_greyed_but_keeps_its_speed_and_unknown_gpus_are_errors() {
        let s = serve("llama-3.1-8b", 4, 2048);
        let a = assess(&s, &HOURLY, &offer("l4", 1, None), &Catalog);
        assert_eq!(a.problems, vec![Problem::NoPrice]);
        assert!(a.choice.unwrap().tokens_per_s > 0.0);
        let a = assess(&s, &HOURLY, &offer("no-such-gpu", 1, Some(1.0)), &Catalog);
        assert!(matches!(a.problems.as_slice(), [Problem::Engine(_)]));
    }

    #[test]
    fn training_prices_the_run() {
        let mut s = serve("llama-3.1-8b", 1, 4096);
        s.mode = Mode::Lora;
        let goal = Goal { objective: Objective::PerRun, max_tpot_s: None, training_tokens: 1e9 };
        let a = assess(&s, &goal, &offer("h100-sxm", 8, Some(55.04)), &Catalog);
        let c = a.choice.unwrap();
        let hours = 1e9 / c.tokens_per_s / 3600.0;
        assert!((c.run_hours.unwrap() - hours).abs() < 1e-9);
        assert!((c.cost_per_run.unwrap() - hours * 55.04).abs() < 1e-6);
        assert_eq!(c.replicas * c.tensor_parallel, 8);
    }

    #[test]
    fn ranking_puts_the_cheapest_first_and_the_greyed_last() {
        let s = serve("llama-3.1-8b", 4, 2048);
        let offers = [
            offer("h100-sxm", 8, Some(55.04)),
            offer("l4", 1, None),
            offer("l4", 1, Some(0.98)),
            offer("no-such-gpu", 1, Some(0.1)),
        ];
        let list: Vec<Assessment> = offers.iter().map(|o| assess(&s, &HOURLY, o, &Catalog)).collect();
        assert_eq!(ranking(&list, Objective::PerHour), vec![2, 0, 1, 3]);
        // By cost per million tokens the eight H100s may win or lose; the order follows the numbers.
        let order = ranking(&list, Objective::PerMillionTokens);
        let (a, b) = (
            list[order[0]].cost(Objective::PerMillionTokens),
            list[order[1]].cost(Objective::PerMillionTokens),
        );
        assert!(a.unwrap() <= b.unwrap());
    }

    #[test]
    fn hours_and_minutes() {
        assert_eq!(hours_minutes(3.34), (3, 20));
        assert_eq!(hours_minutes(-1.0), (0, 0));
        assert_eq!(hours_minutes(0.999), (1, 0));
    }
}
