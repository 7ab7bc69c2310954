//! The cost of a shared GPU pool per month: what is used, what sits idle, what auto-reclaim of
//! idle notebooks would win back, what pre-emptible jobs can run on idle quota that its owners
//! lend (priority and pre-emption), what MIG slicing of light services saves, and each team's
//! bill (the source article's transparent billing: allocated GPU-hours, split into used and idle).
//!
//! Money is per GPU-hour × hours; a month is 730 hours (8,760 ÷ 12). Inputs out of range are
//! reported as errors naming the field, never turned into NaN.

/// Hours in an average month.
pub const HOURS_PER_MONTH: f64 = 730.0;

/// One team's use of the pool in a month.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Team {
    /// GPUs reserved for the team (its quota), held all month.
    pub gpus: f64,
    /// GPU-hours the team's jobs actually ran.
    pub busy_gpu_hours: f64,
    /// GPU-hours of interactive notebooks left idle while holding a GPU (part of the idle time).
    pub idle_notebook_gpu_hours: f64,
    /// Typical length of one idle notebook stretch, in hours (for auto-reclaim).
    pub idle_stretch_hours: f64,
    /// Priority and pre-emption: the team's idle quota may run other teams' pre-emptible jobs,
    /// which are pre-empted when the team wants its GPUs back. `false`: its quota is kept free
    /// for it (an inference pool's headroom, say).
    pub lends_idle: bool,
    /// GPU-hours a month of the team's pre-emptible work (sweeps, evaluation, batch jobs) that
    /// waits for capacity beyond its own quota.
    pub preemptible_gpu_hours: f64,
}

/// The pool and the policies to price.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Pool {
    pub gpus: f64,
    pub price_per_gpu_hour: f64,
    pub teams: Vec<Team>,
    /// Reclaim a notebook's GPU after this many idle minutes (`None`: no auto-reclaim).
    pub reclaim_after_minutes: Option<f64>,
}

/// A field that is out of range: its path (`teams[1].busy_gpu_hours`) and the rule it breaks.
#[derive(Clone, Debug, PartialEq)]
pub struct FieldError {
    pub field: String,
    pub problem: Problem,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Problem {
    /// Negative or not a number.
    NotANonNegativeNumber,
    /// The price must be above zero.
    ZeroPrice,
    /// More than the GPUs held for the month allow (gpus × 730 h).
    MoreHoursThanHeld,
    /// The teams' quotas add up to more GPUs than the pool has.
    QuotasExceedPool,
}

/// One team's bill: the article's transparent billing, allocated GPU-hours split into used and
/// idle, in hours and in money.
#[derive(Clone, Debug, PartialEq)]
pub struct Bill {
    /// GPU-hours held (quota × 730 h).
    pub held_hours: f64,
    pub used_hours: f64,
    pub idle_hours: f64,
    /// Of the idle hours, what auto-reclaim would win back.
    pub reclaimable_hours: f64,
    pub used: f64,
    pub idle: f64,
    pub reclaimable: f64,
}

/// The month's costs of one pool.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Costs {
    pub pool: f64,
    pub used: f64,
    /// Held by teams but not running.
    pub idle: f64,
    /// Not given to any team.
    pub unallocated: f64,
    /// Of the idle cost, what auto-reclaim of idle notebooks wins back.
    pub reclaimable: f64,
    /// GPU-hours other teams' pre-emptible jobs may use: unallocated GPUs, and the idle quota
    /// (reclaimed notebooks included) of teams that lend it.
    pub lendable_hours: f64,
    /// Pre-emptible GPU-hours waiting in the pool's teams.
    pub preemptible_hours: f64,
    /// What runs of it on idle capacity: min(waiting, lendable).
    pub borrowed_hours: f64,
    /// Those hours at the pool's price: work done on GPUs already paid for.
    pub preemption_value: f64,
    pub bills: Vec<Bill>,
}

fn check(errors: &mut Vec<FieldError>, field: String, v: f64) {
    if !(v.is_finite() && v >= 0.0) {
        errors.push(FieldError { field, problem: Problem::NotANonNegativeNumber });
    }
}

/// Checks every field and prices the month.
///
/// # Formula
/// pool = GPUs × 730 h × price; a team's used = busy hours × price, idle = (quota × 730 h −
/// busy hours) × price; unallocated = (GPUs − Σ quotas) × 730 h × price, so used + idle +
/// unallocated = pool. Reclaimable: [`reclaimed_hours`] × price. Pre-emption: borrowed =
/// min(Σ pre-emptible hours, unallocated hours + Σ lending teams' (idle − idle notebook +
/// reclaimed notebook) hours).
///
/// # Errors
/// Every field out of range, each named by its path (`teams[1].gpus`).
pub fn month(p: &Pool) -> Result<Costs, Vec<FieldError>> {
    let e = validate(p);
    if !e.is_empty() {
        return Err(e);
    }
    let price = p.price_per_gpu_hour;
    let bills: Vec<Bill> = p.teams.iter().map(|t| bill(t, price, p.reclaim_after_minutes)).collect();
    let sum = |f: fn(&Bill) -> f64| bills.iter().map(f).sum::<f64>();
    let quotas: f64 = p.teams.iter().map(|t| t.gpus).sum();
    let unallocated_hours = ((p.gpus - quotas) * HOURS_PER_MONTH).max(0.0);
    let lent: f64 = p
        .teams
        .iter()
        .zip(&bills)
        .filter(|(t, _)| t.lends_idle)
        .map(|(t, b)| (b.idle_hours - t.idle_notebook_gpu_hours).max(0.0) + b.reclaimable_hours)
        .sum();
    let lendable_hours = unallocated_hours + lent;
    let preemptible_hours: f64 = p.teams.iter().map(|t| t.preemptible_gpu_hours).sum();
    let borrowed_hours = preemptible_hours.min(lendable_hours);
    Ok(Costs {
        pool: p.gpus * HOURS_PER_MONTH * price,
        used: sum(|b| b.used),
        idle: sum(|b| b.idle),
        unallocated: unallocated_hours * price,
        reclaimable: sum(|b| b.reclaimable),
        lendable_hours,
        preemptible_hours,
        borrowed_hours,
        preemption_value: borrowed_hours * price,
        bills,
    })
}

fn validate(p: &Pool) -> Vec<FieldError> {
    let mut e = Vec::new();
    check(&mut e, "gpus".into(), p.gpus);
    check(&mut e, "price_per_gpu_hour".into(), p.price_per_gpu_hour);
    if p.price_per_gpu_hour == 0.0 {
        e.push(FieldError { field: "price_per_gpu_hour".into(), problem: Problem::ZeroPrice });
    }
    if let Some(t) = p.reclaim_after_minutes {
        check(&mut e, "reclaim_after_minutes".into(), t);
    }
    for (i, t) in p.teams.iter().enumerate() {
        let f = |name: &str| format!("teams[{i}].{name}");
        check(&mut e, f("gpus"), t.gpus);
        check(&mut e, f("busy_gpu_hours"), t.busy_gpu_hours);
        check(&mut e, f("idle_notebook_gpu_hours"), t.idle_notebook_gpu_hours);
        check(&mut e, f("idle_stretch_hours"), t.idle_stretch_hours);
        check(&mut e, f("preemptible_gpu_hours"), t.preemptible_gpu_hours);
        if t.busy_gpu_hours + t.idle_notebook_gpu_hours > t.gpus * HOURS_PER_MONTH + 1e-9 {
            e.push(FieldError { field: f("busy_gpu_hours"), problem: Problem::MoreHoursThanHeld });
        }
    }
    let quotas: f64 = p.teams.iter().map(|t| t.gpus).sum();
    if quotas > p.gpus + 1e-9 {
        e.push(FieldError { field: "teams".into(), problem: Problem::QuotasExceedPool });
    }
    e
}

fn bill(t: &Team, price: f64, reclaim_after_minutes: Option<f64>) -> Bill {
    let held_hours = t.gpus * HOURS_PER_MONTH;
    let idle_hours = (held_hours - t.busy_gpu_hours).max(0.0);
    let reclaimable_hours = reclaimed_hours(t, reclaim_after_minutes);
    Bill {
        held_hours,
        used_hours: t.busy_gpu_hours,
        idle_hours,
        reclaimable_hours,
        used: t.busy_gpu_hours * price,
        idle: idle_hours * price,
        reclaimable: reclaimable_hours * price,
    }
}

/// Idle notebook GPU-hours that reclaiming after `minutes` wins back: of each idle stretch of
/// length L, the part after the first T hours, i.e. a share max(0, L − T) ÷ L of the idle hours.
pub fn reclaimed_hours(t: &Team, minutes: Option<f64>) -> f64 {
    let Some(m) = minutes else { return 0.0 };
    let l = t.idle_stretch_hours;
    if l <= 0.0 {
        return 0.0;
    }
    let share = ((l - m / 60.0) / l).clamp(0.0, 1.0);
    t.idle_notebook_gpu_hours * share
}

/// Light services on whole GPUs against the same services as MIG slices, per month.
#[derive(Clone, Debug, PartialEq)]
pub struct Slicing {
    /// GPUs the services hold when each gets whole GPUs (at least one each).
    pub whole_gpus: u64,
    /// GPUs the MIG packing needs for the same services.
    pub sliced_gpus: u64,
    pub whole_cost: f64,
    pub sliced_cost: f64,
    /// whole_cost − sliced_cost (never below zero: packing never needs more GPUs).
    pub savings: f64,
}

/// GPUs that services of these memory needs hold when each gets whole GPUs of `gpu_bytes`:
/// Σ max(1, ⌈need ÷ GPU memory⌉).
pub fn whole_gpus_each(needs: &[u64], gpu_bytes: u64) -> u64 {
    needs
        .iter()
        .map(|&n| if gpu_bytes == 0 { 1 } else { n.div_ceil(gpu_bytes).max(1) })
        .fold(0u64, u64::saturating_add)
}

/// The month of `whole_gpus` against `sliced_gpus` (from [`crate::engine::mig::pack`]) at `price`
/// per GPU-hour: cost = GPUs × 730 h × price each, savings = the difference.
///
/// # Errors
/// A price that is zero, negative or not a number.
pub fn slicing(whole_gpus: u64, sliced_gpus: u64, price: f64) -> Result<Slicing, FieldError> {
    if !(price.is_finite() && price > 0.0) {
        let problem = if price == 0.0 { Problem::ZeroPrice } else { Problem::NotANonNegativeNumber };
        return Err(FieldError { field: "price_per_gpu_hour".into(), problem });
    }
    let whole_cost = whole_gpus as f64 * HOURS_PER_MONTH * price;
    let sliced_cost = sliced_gpus as f64 * HOURS_PER_MONTH * price;
    Ok(Slicing {
        whole_gpus,
        sliced_gpus,
        whole_cost,
        sliced_cost,
        savings: (whole_cost - sliced_cost).max(0.0),
    })
}

/// A MIG slice's price per hour by the chapter's rule: the larger of its compute and memory
/// shares of the GPU, times the GPU's price (an H100 1g.10gb: max(1/7, 1/8) = 1/7).
pub fn slice_price_per_hour(sm_fraction: f64, memory_fraction: f64, price: f64) -> f64 {
    sm_fraction.max(memory_fraction).clamp(0.0, 1.0) * price
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pool() -> Pool {
        Pool {
            gpus: 16.0,
            price_per_gpu_hour: 2.0,
            teams: vec![
                // 8 GPUs held: 5,840 h; 3,000 busy; 1,000 h of idle notebooks in 4-hour stretches.
                Team {
                    gpus: 8.0,
                    busy_gpu_hours: 3000.0,
                    idle_notebook_gpu_hours: 1000.0,
                    idle_stretch_hours: 4.0,
                    lends_idle: true,
                    preemptible_gpu_hours: 0.0,
                },
                Team {
                    gpus: 4.0,
                    busy_gpu_hours: 2920.0,
                    preemptible_gpu_hours: 9_000.0,
                    ..Default::default()
                },
            ],
            reclaim_after_minutes: Some(30.0),
        }
    }

    #[test]
    fn a_worked_month() {
        let c = month(&pool()).unwrap();
        // 16 × 730 × $2 = $23,360.
        assert_eq!(c.pool, 23_360.0);
        // Used: (3,000 + 2,920) h × $2.
        assert_eq!(c.used, 11_840.0);
        // Idle: (5,840 − 3,000) + (2,920 − 2,920) = 2,840 h → $5,680; unallocated 4 GPUs → $5,840.
        assert_eq!(c.idle, 5_680.0);
        assert_eq!(c.unallocated, 5_840.0);
        assert_eq!(c.used + c.idle + c.unallocated, c.pool);
        // Reclaim after 30 min of 4-hour stretches: 3.5/4 of 1,000 h = 875 h → $1,750.
        assert_eq!(c.reclaimable, 1_750.0);
        assert_eq!(
            c.bills[0],
            Bill {
                held_hours: 5_840.0,
                used_hours: 3_000.0,
                idle_hours: 2_840.0,
                reclaimable_hours: 875.0,
                used: 6_000.0,
                idle: 5_680.0,
                reclaimable: 1_750.0
            }
        );
        assert_eq!((c.bills[1].used, c.bills[1].idle, c.bills[1].reclaimable), (5_840.0, 0.0, 0.0));
        // Lendable: 4 unallocated GPUs (2,920 h) + team 0's idle quota outside notebooks
        // (2,840 − 1,000 = 1,840 h) + its reclaimed notebook hours (875 h) = 5,635 h; 9,000 h
        // wait, so 5,635 h run at $2.
        assert_eq!(c.lendable_hours, 5_635.0);
        assert_eq!((c.preemptible_hours, c.borrowed_hours, c.preemption_value), (9_000.0, 5_635.0, 11_270.0));
    }

    #[test]
    fn a_team_that_keeps_its_quota_lends_nothing() {
        let mut p = pool();
        p.teams[0].lends_idle = false;
        let c = month(&p).unwrap();
        assert_eq!(c.lendable_hours, 2_920.0, "only the unallocated GPUs");
        p.teams[1].preemptible_gpu_hours = 100.0;
        assert_eq!(month(&p).unwrap().borrowed_hours, 100.0, "less waiting than lendable");
    }

    #[test]
    fn reclaim_rules() {
        let t = Team { idle_notebook_gpu_hours: 100.0, idle_stretch_hours: 2.0, ..Default::default() };
        assert_eq!(reclaimed_hours(&t, None), 0.0);
        assert_eq!(reclaimed_hours(&t, Some(0.0)), 100.0);
        assert_eq!(reclaimed_hours(&t, Some(60.0)), 50.0);
        assert_eq!(reclaimed_hours(&t, Some(240.0)), 0.0, "stretches end before the reclaim");
        assert_eq!(reclaimed_hours(&Team::default(), Some(30.0)), 0.0);
    }

    #[test]
    fn bad_input_names_the_field() {
        let mut p = pool();
        p.price_per_gpu_hour = 0.0;
        p.teams[1].busy_gpu_hours = f64::NAN;
        p.teams[0].busy_gpu_hours = 9_000.0;
        p.teams[0].preemptible_gpu_hours = -1.0;
        p.teams.push(Team { gpus: 8.0, ..Default::default() });
        let e = month(&p).unwrap_err();
        let got: Vec<(&str, Problem)> = e.iter().map(|f| (f.field.as_str(), f.problem)).collect();
        assert_eq!(
            got,
            vec![
                ("price_per_gpu_hour", Problem::ZeroPrice),
                ("teams[0].preemptible_gpu_hours", Problem::NotANonNegativeNumber),
                ("teams[0].busy_gpu_hours", Problem::MoreHoursThanHeld),
                ("teams[1].busy_gpu_hours", Problem::NotANonNegativeNumber),
                ("teams", Problem::QuotasExceedPool),
            ]
        );
        // An empty pool costs nothing and is not an error.
        let empty = Pool { price_per_gpu_hour: 1.0, ..Default::default() };
        let c = month(&empty).unwrap();
        assert_eq!((c.pool, c.borrowed_hours, c.bills.len()), (0.0, 0.0, 0));
    }

    #[test]
    fn slicing_a_worked_example() {
        // Ten services on ten whole GPUs against two GPUs of slices at $2: 8 × 730 × $2 saved.
        let s = slicing(10, 2, 2.0).unwrap();
        assert_eq!((s.whole_cost, s.sliced_cost, s.savings), (14_600.0, 2_920.0, 11_680.0));
        assert_eq!(slicing(1, 1, 6.88).unwrap().whole_cost, 5_022.4);
        assert_eq!(slicing(3, 1, 0.0).unwrap_err().problem, Problem::ZeroPrice);
        assert_eq!(slicing(3, 1, f64::NAN).unwrap_err().problem, Problem::NotANonNegativeNumber);
        // A service larger than one GPU holds several: 12 GB → 1, 100 GB → 2, 0 → 1.
        assert_eq!(whole_gpus_each(&[12_000_000_000, 100_000_000_000, 0], 80_000_000_000), 4);
        assert_eq!(whole_gpus_each(&[], 80_000_000_000), 0);
        // The chapter's billing rule: H100 1g.10gb = max(1/7, 1/8) of $7 = $1.
        assert!((slice_price_per_hour(1.0 / 7.0, 1.0 / 8.0, 7.0) - 1.0).abs() < 1e-12);
    }

    proptest::proptest! {
        /// Whatever the valid input, the parts add up to the pool and nothing is NaN.
        #[test]
        fn parts_add_up(gpus in 0u32..64, price in 0.01f64..20.0, busy in 0.0f64..1.0, quota in 0.0f64..1.0, wait in 0.0f64..1e5) {
            let g = f64::from(gpus);
            let t = Team { gpus: g * quota, busy_gpu_hours: g * quota * HOURS_PER_MONTH * busy, lends_idle: true, preemptible_gpu_hours: wait, ..Default::default() };
            let c = month(&Pool { gpus: g, price_per_gpu_hour: price, teams: vec![t], ..Default::default() }).unwrap();
            proptest::prop_assert!((c.used + c.idle + c.unallocated - c.pool).abs() <= 1e-6 * c.pool.max(1.0));
            proptest::prop_assert!(c.used.is_finite() && c.idle >= 0.0 && c.unallocated >= -1e-9);
            proptest::prop_assert!(c.borrowed_hours <= c.lendable_hours + 1e-9 && c.borrowed_hours <= wait + 1e-9);
            proptest::prop_assert!(c.preemption_value <= c.idle + c.unallocated + 1e-6 * c.pool.max(1.0));
        }
    }
}
