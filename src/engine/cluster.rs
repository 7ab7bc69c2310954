//! The cost of a shared GPU pool per month: what is used, what sits idle, what auto-reclaim of
//! idle notebooks would win back, what MIG slicing of light services saves, and each team's bill
//! (the source article's transparent billing: allocated GPU-hours, split into used and idle).
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
}

/// The pool and the policies to price.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Pool {
    pub gpus: f64,
    pub price_per_gpu_hour: f64,
    pub teams: Vec<Team>,
    /// Reclaim a notebook's GPU after this many idle minutes (`None`: no auto-reclaim).
    pub reclaim_after_minutes: Option<f64>,
    /// Light services that each hold a whole GPU today, and how many fit one GPU as MIG slices.
    pub light_services: u32,
    pub services_per_gpu: u32,
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
    /// At least one service per GPU.
    ZeroPerGpu,
}

/// One team's bill.
#[derive(Clone, Debug, PartialEq)]
pub struct Bill {
    pub used: f64,
    pub idle: f64,
    /// Of the idle cost, what auto-reclaim would win back.
    pub reclaimable: f64,
}

/// The month's costs.
#[derive(Clone, Debug, PartialEq)]
pub struct Costs {
    pub pool: f64,
    pub used: f64,
    /// Held by teams but not running.
    pub idle: f64,
    /// Not given to any team.
    pub unallocated: f64,
    pub reclaimable: f64,
    /// GPUs the light services need as MIG slices instead of one each, and the money saved.
    pub mig_gpus: u32,
    pub mig_savings: f64,
    pub bills: Vec<Bill>,
}

fn check(errors: &mut Vec<FieldError>, field: String, v: f64) {
    if !(v.is_finite() && v >= 0.0) {
        errors.push(FieldError { field, problem: Problem::NotANonNegativeNumber });
    }
}

/// Checks every field and prices the month.
pub fn month(p: &Pool) -> Result<Costs, Vec<FieldError>> {
    let mut e = Vec::new();
    check(&mut e, "gpus".into(), p.gpus);
    check(&mut e, "price_per_gpu_hour".into(), p.price_per_gpu_hour);
    if p.price_per_gpu_hour == 0.0 {
        e.push(FieldError { field: "price_per_gpu_hour".into(), problem: Problem::ZeroPrice });
    }
    if let Some(t) = p.reclaim_after_minutes {
        check(&mut e, "reclaim_after_minutes".into(), t);
    }
    if p.light_services > 0 && p.services_per_gpu == 0 {
        e.push(FieldError { field: "services_per_gpu".into(), problem: Problem::ZeroPerGpu });
    }
    for (i, t) in p.teams.iter().enumerate() {
        let f = |name: &str| format!("teams[{i}].{name}");
        check(&mut e, f("gpus"), t.gpus);
        check(&mut e, f("busy_gpu_hours"), t.busy_gpu_hours);
        check(&mut e, f("idle_notebook_gpu_hours"), t.idle_notebook_gpu_hours);
        check(&mut e, f("idle_stretch_hours"), t.idle_stretch_hours);
        if t.busy_gpu_hours + t.idle_notebook_gpu_hours > t.gpus * HOURS_PER_MONTH + 1e-9 {
            e.push(FieldError { field: f("busy_gpu_hours"), problem: Problem::MoreHoursThanHeld });
        }
    }
    let quotas: f64 = p.teams.iter().map(|t| t.gpus).sum();
    if quotas > p.gpus + 1e-9 {
        e.push(FieldError { field: "teams".into(), problem: Problem::QuotasExceedPool });
    }
    if !e.is_empty() {
        return Err(e);
    }
    let price = p.price_per_gpu_hour;
    let bills: Vec<Bill> = p
        .teams
        .iter()
        .map(|t| {
            let held = t.gpus * HOURS_PER_MONTH;
            let idle_hours = (held - t.busy_gpu_hours).max(0.0);
            Bill {
                used: t.busy_gpu_hours * price,
                idle: idle_hours * price,
                reclaimable: reclaimed_hours(t, p.reclaim_after_minutes) * price,
            }
        })
        .collect();
    let used: f64 = bills.iter().map(|b| b.used).sum();
    let idle: f64 = bills.iter().map(|b| b.idle).sum();
    let reclaimable: f64 = bills.iter().map(|b| b.reclaimable).sum();
    let mig_gpus =
        if p.light_services == 0 { 0 } else { p.light_services.div_ceil(p.services_per_gpu.max(1)) };
    let mig_savings = f64::from(p.light_services.saturating_sub(mig_gpus)) * HOURS_PER_MONTH * price;
    Ok(Costs {
        pool: p.gpus * HOURS_PER_MONTH * price,
        used,
        idle,
        unallocated: (p.gpus - quotas) * HOURS_PER_MONTH * price,
        reclaimable,
        mig_gpus,
        mig_savings,
        bills,
    })
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
                },
                Team { gpus: 4.0, busy_gpu_hours: 2920.0, ..Default::default() },
            ],
            reclaim_after_minutes: Some(30.0),
            light_services: 10,
            services_per_gpu: 7,
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
        // 10 light services, 7 per GPU as 1g slices: 2 GPUs instead of 10, 8 × 730 × $2 saved.
        assert_eq!((c.mig_gpus, c.mig_savings), (2, 11_680.0));
        assert_eq!(c.bills[1], Bill { used: 5_840.0, idle: 0.0, reclaimable: 0.0 });
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
        p.teams.push(Team { gpus: 8.0, ..Default::default() });
        p.services_per_gpu = 0;
        let e = month(&p).unwrap_err();
        let got: Vec<(&str, Problem)> = e.iter().map(|f| (f.field.as_str(), f.problem)).collect();
        assert_eq!(
            got,
            vec![
                ("price_per_gpu_hour", Problem::ZeroPrice),
                ("services_per_gpu", Problem::ZeroPerGpu),
                ("teams[0].busy_gpu_hours", Problem::MoreHoursThanHeld),
                ("teams[1].busy_gpu_hours", Problem::NotANonNegativeNumber),
                ("teams", Problem::QuotasExceedPool),
            ]
        );
        // An empty pool costs nothing and is not an error.
        let empty = Pool { price_per_gpu_hour: 1.0, ..Default::default() };
        let c = month(&empty).unwrap();
        assert_eq!((c.pool, c.mig_gpus, c.bills.len()), (0.0, 0, 0));
    }

    proptest::proptest! {
        /// Whatever the valid input, the parts add up to the pool and nothing is NaN.
        #[test]
        fn parts_add_up(gpus in 0u32..64, price in 0.01f64..20.0, busy in 0.0f64..1.0, quota in 0.0f64..1.0) {
            let g = f64::from(gpus);
            let t = Team { gpus: g * quota, busy_gpu_hours: g * quota * HOURS_PER_MONTH * busy, ..Default::default() };
            let c = month(&Pool { gpus: g, price_per_gpu_hour: price, teams: vec![t], ..Default::default() }).unwrap();
            proptest::prop_assert!((c.used + c.idle + c.unallocated - c.pool).abs() <= 1e-6 * c.pool.max(1.0));
            proptest::prop_assert!(c.used.is_finite() && c.idle >= 0.0 && c.unallocated >= -1e-9);
        }
    }
}
