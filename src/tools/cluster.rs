//! The shared-cluster calculator's pure logic: its state (pools, teams, the reclaim policy, light
//! services for MIG), that state in the URL's query and back with every bad field repaired and
//! named, and the month it prices through `engine::cluster` and `engine::mig`. The HTML of its
//! controls and results is [`html`]; the view (`ui::tools::cluster`) only wires events to it.
//!
//! The query is compact and readable: `p=` pools (`gpu*price*count`), `t=` teams
//! (`pool*name*quota*used*notebooks*active*stretches*lends*waiting`, `used` in GPU-hours or
//! `25p` for 25 %), `r=` reclaim minutes (`off`), `m=` the MIG GPU and its price, `s=` services
//! (`name*GB` or `name*model-id`); rows are joined by `~`. `preset=NAME` starts from an example.

pub mod edit;
pub mod html;
pub mod presets;

use crate::catalog::{self, gpus, mig as mig_catalog};
use crate::engine::cluster::{self, Bill, Costs, FieldError, Problem, Slicing, Team, HOURS_PER_MONTH};
use crate::engine::mig::{pack, Assignment, SliceGeometry, SliceProfile};
use crate::engine::{ModelSpec, Scenario};

/// One pool of GPUs of one type.
#[derive(Clone, Debug, PartialEq)]
pub struct PoolRow {
    /// Catalog GPU id.
    pub gpu: String,
    /// USD per GPU-hour.
    pub price: f64,
    pub gpus: f64,
}

/// A team's busy time: GPU-hours a month, or a utilisation of its quota in percent.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Used {
    Hours(f64),
    Percent(f64),
}

/// One team in a pool.
#[derive(Clone, Debug, PartialEq)]
pub struct TeamRow {
    /// Index into the pools.
    pub pool: usize,
    pub name: String,
    /// GPUs reserved (its quota).
    pub quota: f64,
    pub used: Used,
    /// Interactive notebooks, each holding one of the quota's GPUs.
    pub notebooks: f64,
    /// Hours a day each notebook is actually used.
    pub active_hours: f64,
    /// Idle stretches a day (the idle hours come in this many pieces).
    pub stretches: f64,
    /// Its idle quota may run others' pre-emptible jobs.
    pub lends: bool,
    /// Pre-emptible GPU-hours a month waiting for capacity.
    pub waiting: f64,
}

/// How a light service's memory is given.
#[derive(Clone, Debug, PartialEq)]
pub enum Need {
    /// Typed, in GB.
    Gb(f64),
    /// A catalog model, sized by the engine (weights BF16, 4K context, one request).
    Model(String),
}

/// A light service that holds a whole GPU today.
#[derive(Clone, Debug, PartialEq)]
pub struct ServiceRow {
    pub name: String,
    pub need: Need,
}

/// Everything the calculator prices.
#[derive(Clone, Debug, PartialEq)]
pub struct State {
    pub pools: Vec<PoolRow>,
    pub teams: Vec<TeamRow>,
    /// Reclaim an idle notebook's GPU after this many minutes (`None`: off).
    pub reclaim: Option<f64>,
    /// The MIG GPU the services would share, and its price per GPU-hour.
    pub mig_gpu: String,
    pub mig_price: f64,
    pub services: Vec<ServiceRow>,
}

/// A field of the state, for notices and errors (worded by `i18n::tool_cluster`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Field {
    Preset,
    Pools,
    PoolGpu(usize),
    PoolPrice(usize),
    PoolCount(usize),
    /// The teams of pool `i` together (their quotas).
    PoolQuotas(usize),
    Teams,
    TeamPool(usize),
    TeamQuota(usize),
    TeamUsed(usize),
    TeamNotebooks(usize),
    TeamActive(usize),
    TeamStretches(usize),
    TeamWaiting(usize),
    Reclaim,
    MigGpu,
    MigPrice,
    ServiceNeed(usize),
}

/// What is wrong with a field.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Issue {
    /// One of the engine's rules.
    Engine(Problem),
    /// Not a number (or not readable at all).
    Unreadable,
    /// Not in the catalog.
    UnknownGpu,
    UnknownModel,
    UnknownPreset,
    /// A GPU without MIG profiles.
    NoMig,
    /// A pool or team index that does not exist.
    NoSuchPool,
    /// An empty list where at least one row is needed.
    Empty,
    /// More than 24 hours a day.
    MoreThanADay,
    /// At least one.
    AtLeastOne,
    /// More notebooks than the team's GPUs.
    NotebooksExceedQuota,
}

/// A field and what is wrong with it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Notice {
    pub field: Field,
    pub issue: Issue,
}

/// The services' sizing assumptions for a model: weights and KV cache in BF16, this context,
/// one request.
pub const SERVICE_CONTEXT: u64 = 4096;
/// The reclaim minutes a new policy starts with.
pub const DEFAULT_RECLAIM: f64 = 60.0;
/// A GPU per notebook all day: hours in a day.
const DAY: f64 = 24.0;

impl Used {
    /// GPU-hours a month for a team holding `quota` GPUs.
    pub fn hours(self, quota: f64) -> f64 {
        match self {
            Used::Hours(h) => h,
            Used::Percent(p) => p / 100.0 * quota * HOURS_PER_MONTH,
        }
    }

    /// As typed in the field: `1825` or `25%`.
    pub fn text(self) -> String {
        match self {
            Used::Hours(h) => plain(h),
            Used::Percent(p) => format!("{}%", plain(p)),
        }
    }

    /// From the field: a number of hours, or a number followed by `%`.
    pub fn parse(s: &str) -> Used {
        let s = s.trim();
        match s.strip_suffix('%').or_else(|| s.strip_suffix('p')) {
            Some(p) => Used::Percent(number(p)),
            None => Used::Hours(number(s)),
        }
    }
}

impl TeamRow {
    /// Idle notebook GPU-hours a month: notebooks × (24 − active) h × 730 ÷ 24.
    pub fn idle_notebook_hours(&self) -> f64 {
        self.notebooks * (DAY - self.active_hours) * HOURS_PER_MONTH / DAY
    }

    /// The length of one idle stretch: (24 − active) ÷ stretches a day.
    pub fn stretch_hours(&self) -> f64 {
        (DAY - self.active_hours) / self.stretches
    }

    fn engine_team(&self) -> Team {
        Team {
            gpus: self.quota,
            busy_gpu_hours: self.used.hours(self.quota),
            idle_notebook_gpu_hours: self.idle_notebook_hours(),
            idle_stretch_hours: if self.notebooks > 0.0 { self.stretch_hours() } else { 0.0 },
            lends_idle: self.lends,
            preemptible_gpu_hours: self.waiting,
        }
    }

    /// A new team in pool `pool`: two GPUs, half used, nothing else.
    pub fn new(pool: usize, name: String) -> TeamRow {
        TeamRow {
            pool,
            name,
            quota: 2.0,
            used: Used::Percent(50.0),
            notebooks: 0.0,
            active_hours: 6.0,
            stretches: 1.0,
            lends: true,
            waiting: 0.0,
        }
    }
}

impl PoolRow {
    /// A pool of `gpus` GPUs of `gpu` at the catalog's dated price (1 USD when it has none).
    pub fn new(gpu: &str, gpus: f64) -> PoolRow {
        PoolRow { gpu: gpu.to_owned(), price: default_price(gpu).unwrap_or(1.0), gpus }
    }
}

/// The catalog's cheapest dated price per GPU-hour for a GPU id.
pub fn default_price(gpu: &str) -> Option<f64> {
    catalog::default_price_per_gpu_hour(gpu).map(|(p, _)| p)
}

/// A number as typed (NaN when it is not one: the checks name it).
fn number(s: &str) -> f64 {
    s.trim().parse::<f64>().unwrap_or(f64::NAN)
}

/// A number for a field or the URL: no grouping, no trailing `.0`.
pub fn plain(v: f64) -> String {
    let s = format!("{v}");
    s.strip_suffix(".0").map(str::to_owned).unwrap_or(s)
}

// ---------- the URL ----------

/// `key=value&…` in a fixed order.
pub fn encode(s: &State) -> String {
    let pools: Vec<String> =
        s.pools.iter().map(|p| format!("{}*{}*{}", p.gpu, plain(p.price), plain(p.gpus))).collect();
    let teams: Vec<String> = s
        .teams
        .iter()
        .map(|t| {
            let used = match t.used {
                Used::Hours(h) => plain(h),
                Used::Percent(p) => format!("{}p", plain(p)),
            };
            format!(
                "{}*{}*{}*{used}*{}*{}*{}*{}*{}",
                t.pool + 1,
                escape_part(&t.name),
                plain(t.quota),
                plain(t.notebooks),
                plain(t.active_hours),
                plain(t.stretches),
                u8::from(t.lends),
                plain(t.waiting)
            )
        })
        .collect();
    let services: Vec<String> = s
        .services
        .iter()
        .map(|v| {
            let need = match &v.need {
                Need::Gb(gb) => plain(*gb),
                Need::Model(id) => escape_part(id),
            };
            format!("{}*{need}", escape_part(&v.name))
        })
        .collect();
    let reclaim = s.reclaim.map_or_else(|| "off".to_owned(), plain);
    format!(
        "p={}&t={}&r={reclaim}&m={}*{}&s={}",
        pools.join("~"),
        teams.join("~"),
        escape_part(&s.mig_gpu),
        plain(s.mig_price),
        services.join("~")
    )
}

/// Percent-encodes all but letters, digits and `.-_` (so `*`, `~`, `&` and `=` separate).
fn escape_part(s: &str) -> String {
    let mut out = String::new();
    for b in s.bytes() {
        if b.is_ascii_alphanumeric() || matches!(b, b'.' | b'-' | b'_') {
            out.push(char::from(b));
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

fn unescape_part(s: &str) -> String {
    let bytes = s.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while let Some(&b) = bytes.get(i) {
        let hex = bytes.get(i + 1..i + 3).and_then(|h| std::str::from_utf8(h).ok());
        match (b, hex.and_then(|h| u8::from_str_radix(h, 16).ok())) {
            (b'%', Some(v)) => {
                out.push(v);
                i += 3;
            }
            _ => {
                out.push(b);
                i += 1;
            }
        }
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// The state a query describes, with a notice for every field that had to be repaired. Fields
/// not given come from the preset (`preset=`, else the page's example); a bad field gets the
/// preset's value (or the nearest valid one) and a notice naming it.
pub fn decode(query: &str, example: &presets::Names) -> (State, Vec<Notice>) {
    let mut notices = Vec::new();
    let given = |key: &str| {
        query
            .split('&')
            .filter_map(|kv| kv.split_once('='))
            .find(|(k, _)| *k == key)
            .map(|(_, v)| v.to_owned())
    };
    let preset = given("preset");
    let base = match preset.as_deref() {
        None => presets::page(example),
        Some(name) => presets::named(name, example).unwrap_or_else(|| {
            notices.push(Notice { field: Field::Preset, issue: Issue::UnknownPreset });
            presets::page(example)
        }),
    };
    let mut s = base.clone();
    if let Some(p) = given("p") {
        s.pools = decode_pools(&p, &mut notices);
        if s.pools.is_empty() {
            notices.push(Notice { field: Field::Pools, issue: Issue::Empty });
            s.pools = base.pools.clone();
        }
    }
    if let Some(t) = given("t") {
        s.teams = decode_teams(&t, s.pools.len(), &mut notices);
        if s.teams.is_empty() {
            notices.push(Notice { field: Field::Teams, issue: Issue::Empty });
            s.teams = base.teams.iter().filter(|t| t.pool < s.pools.len()).cloned().collect();
        }
    }
    if let Some(r) = given("r") {
        s.reclaim = if r == "off" {
            None
        } else {
            match r.parse::<f64>() {
                Ok(v) if v.is_finite() && v >= 0.0 => Some(v),
                _ => {
                    notices.push(Notice { field: Field::Reclaim, issue: Issue::Unreadable });
                    base.reclaim
                }
            }
        };
    }
    if let Some(m) = given("m") {
        let (gpu, price) = m.split_once('*').unwrap_or((&m, ""));
        let gpu = unescape_part(gpu);
        if mig_profiles(&gpu).is_some() {
            s.mig_gpu = gpu;
            s.mig_price = default_price(&s.mig_gpu).unwrap_or(base.mig_price);
        } else {
            notices.push(Notice { field: Field::MigGpu, issue: Issue::NoMig });
        }
        if !price.is_empty() {
            s.mig_price = price_or(price, s.mig_price, Field::MigPrice, &mut notices);
        }
    }
    if let Some(v) = given("s") {
        s.services = decode_services(&v, &mut notices);
    }
    (s, notices)
}

/// A price from the URL: above zero, else `fallback` and a notice.
fn price_or(text: &str, fallback: f64, field: Field, notices: &mut Vec<Notice>) -> f64 {
    match text.parse::<f64>() {
        Ok(v) if v.is_finite() && v > 0.0 => v,
        parsed => {
            let issue = match parsed {
                Ok(v) if v.is_finite() && v < 0.0 => Issue::Engine(Problem::NotANonNegativeNumber),
                Ok(v) if v.is_finite() => Issue::Engine(Problem::ZeroPrice),
                _ => Issue::Unreadable,
            };
            notices.push(Notice { field, issue });
            fallback
        }
    }
}

/// A count or amount from the URL: a finite number ≥ 0, else `fallback` and a notice.
fn amount_or(text: Option<&str>, fallback: f64, field: Field, notices: &mut Vec<Notice>) -> f64 {
    match text.map(str::parse::<f64>) {
        Some(Ok(v)) if v.is_finite() && v >= 0.0 => v,
        Some(Ok(v)) if v.is_finite() => {
            notices.push(Notice { field, issue: Issue::Engine(Problem::NotANonNegativeNumber) });
            fallback
        }
        _ => {
            notices.push(Notice { field, issue: Issue::Unreadable });
            fallback
        }
    }
}

fn rows(text: &str) -> impl Iterator<Item = Vec<&str>> {
    text.split('~').filter(|r| !r.is_empty()).map(|r| r.split('*').collect())
}

fn decode_pools(text: &str, notices: &mut Vec<Notice>) -> Vec<PoolRow> {
    rows(text)
        .enumerate()
        .map(|(i, f)| {
            let id = f.first().map(|g| unescape_part(g)).unwrap_or_default();
            let gpu = if gpus::find(&id).is_some() {
                id
            } else {
                notices.push(Notice { field: Field::PoolGpu(i), issue: Issue::UnknownGpu });
                presets::FALLBACK_GPU.to_owned()
            };
            let catalog_price = default_price(&gpu).unwrap_or(1.0);
            let price = match f.get(1) {
                Some(p) if !p.is_empty() => price_or(p, catalog_price, Field::PoolPrice(i), notices),
                _ => catalog_price,
            };
            let count = amount_or(f.get(2).copied(), 8.0, Field::PoolCount(i), notices);
            PoolRow { gpu, price, gpus: count }
        })
        .collect()
}

fn decode_teams(text: &str, pools: usize, notices: &mut Vec<Notice>) -> Vec<TeamRow> {
    let mut teams: Vec<TeamRow> = Vec::new();
    for (i, f) in rows(text).enumerate() {
        let field = |k: usize| f.get(k).copied();
        let mut t = TeamRow::new(0, field(1).map(unescape_part).unwrap_or_default());
        match field(0).and_then(|p| p.parse::<usize>().ok()) {
            Some(p) if (1..=pools).contains(&p) => t.pool = p - 1,
            _ => notices.push(Notice { field: Field::TeamPool(i), issue: Issue::NoSuchPool }),
        }
        t.quota = amount_or(field(2), t.quota, Field::TeamQuota(i), notices);
        t.used = match field(3).map(Used::parse) {
            Some(u @ (Used::Hours(v) | Used::Percent(v))) if v.is_finite() && v >= 0.0 => u,
            _ => {
                notices.push(Notice { field: Field::TeamUsed(i), issue: Issue::Unreadable });
                t.used
            }
        };
        t.notebooks = amount_or(field(4), 0.0, Field::TeamNotebooks(i), notices);
        t.active_hours = amount_or(field(5), t.active_hours, Field::TeamActive(i), notices);
        if t.active_hours > DAY {
            notices.push(Notice { field: Field::TeamActive(i), issue: Issue::MoreThanADay });
            t.active_hours = DAY;
        }
        t.stretches = amount_or(field(6), 1.0, Field::TeamStretches(i), notices);
        if t.stretches < 1.0 {
            notices.push(Notice { field: Field::TeamStretches(i), issue: Issue::AtLeastOne });
            t.stretches = 1.0;
        }
        t.lends = field(7) != Some("0");
        t.waiting = amount_or(field(8), 0.0, Field::TeamWaiting(i), notices);
        if t.notebooks > t.quota {
            notices.push(Notice { field: Field::TeamNotebooks(i), issue: Issue::NotebooksExceedQuota });
            t.notebooks = t.quota.floor();
        }
        // More busy and idle-notebook hours than the quota holds: busy hours cut to fit.
        let room = (t.quota * HOURS_PER_MONTH - t.idle_notebook_hours()).max(0.0);
        if t.used.hours(t.quota) > room + 1e-9 {
            notices
                .push(Notice { field: Field::TeamUsed(i), issue: Issue::Engine(Problem::MoreHoursThanHeld) });
            t.used = Used::Hours((room * 10.0).floor() / 10.0);
        }
        teams.push(t);
    }
    teams
}

fn decode_services(text: &str, notices: &mut Vec<Notice>) -> Vec<ServiceRow> {
    rows(text)
        .enumerate()
        .map(|(i, f)| {
            let name = f.first().map(|n| unescape_part(n)).unwrap_or_default();
            let raw = f.get(1).map(|n| unescape_part(n)).unwrap_or_default();
            let need = match raw.parse::<f64>() {
                Ok(gb) if gb.is_finite() && gb > 0.0 => Need::Gb(gb),
                Ok(_) => {
                    notices.push(Notice {
                        field: Field::ServiceNeed(i),
                        issue: Issue::Engine(Problem::NotANonNegativeNumber),
                    });
                    Need::Gb(10.0)
                }
                Err(_) if catalog::models::find(&raw).is_some() => Need::Model(raw),
                Err(_) => {
                    notices.push(Notice { field: Field::ServiceNeed(i), issue: Issue::UnknownModel });
                    Need::Gb(10.0)
                }
            };
            ServiceRow { name, need }
        })
        .collect()
}

// ---------- the month ----------

/// One pool's month and which teams (indices into the state's teams) are in it.
#[derive(Clone, Debug, PartialEq)]
pub struct PoolMonth {
    pub costs: Costs,
    pub teams: Vec<usize>,
}

/// The whole cluster's month: each pool's, the sums, and each team's bill in the state's order.
#[derive(Clone, Debug, PartialEq)]
pub struct Month {
    pub pools: Vec<PoolMonth>,
    pub total: Costs,
    pub bills: Vec<Bill>,
}

/// One light service as the MIG packing placed it.
#[derive(Clone, Debug, PartialEq)]
pub struct ServiceOut {
    pub need_bytes: u64,
    /// The profile's name, or `None` when it needs whole GPUs.
    pub profile: Option<String>,
    /// On which sliced GPU (0-based), or how many whole GPUs.
    pub gpu: Option<usize>,
    pub whole_gpus: u64,
    /// The slice's monthly price by the chapter's rule (max of compute and memory share).
    pub slice_month: f64,
}

/// The services on whole GPUs against MIG slices.
#[derive(Clone, Debug, PartialEq)]
pub struct SlicingOut {
    pub slicing: Slicing,
    pub services: Vec<ServiceOut>,
    pub gpu_bytes: u64,
}

/// Every rule the state breaks, each naming its field; empty when the month can be priced.
pub fn check(s: &State) -> Vec<Notice> {
    let mut out = Vec::new();
    if s.pools.is_empty() {
        out.push(Notice { field: Field::Pools, issue: Issue::Empty });
    }
    if s.teams.is_empty() {
        out.push(Notice { field: Field::Teams, issue: Issue::Empty });
    }
    for (i, p) in s.pools.iter().enumerate() {
        if gpus::find(&p.gpu).is_none() {
            out.push(Notice { field: Field::PoolGpu(i), issue: Issue::UnknownGpu });
        }
    }
    for (i, t) in s.teams.iter().enumerate() {
        if t.pool >= s.pools.len() {
            out.push(Notice { field: Field::TeamPool(i), issue: Issue::NoSuchPool });
        }
        if t.active_hours.is_nan() || t.active_hours > DAY {
            out.push(Notice { field: Field::TeamActive(i), issue: Issue::MoreThanADay });
        }
        if t.stretches.is_nan() || t.stretches < 1.0 {
            out.push(Notice { field: Field::TeamStretches(i), issue: Issue::AtLeastOne });
        }
        if t.notebooks > t.quota {
            out.push(Notice { field: Field::TeamNotebooks(i), issue: Issue::NotebooksExceedQuota });
        }
    }
    out
}

/// Prices the month of every pool (through `engine::cluster::month`), or every broken rule.
pub fn month(s: &State) -> Result<Month, Vec<Notice>> {
    let mut errors = check(s);
    let mut pools = Vec::new();
    for (p, row) in s.pools.iter().enumerate() {
        let members: Vec<usize> =
            (0..s.teams.len()).filter(|&i| s.teams.get(i).is_some_and(|t| t.pool == p)).collect();
        let pool = cluster::Pool {
            gpus: row.gpus,
            price_per_gpu_hour: row.price,
            teams: members.iter().filter_map(|&i| s.teams.get(i)).map(TeamRow::engine_team).collect(),
            reclaim_after_minutes: s.reclaim,
        };
        match cluster::month(&pool) {
            Ok(costs) => pools.push(PoolMonth { costs, teams: members }),
            Err(e) => errors.extend(e.iter().map(|fe| engine_notice(p, &members, fe))),
        }
    }
    if !errors.is_empty() {
        errors.dedup();
        return Err(errors);
    }
    let mut bills: Vec<Option<Bill>> = vec![None; s.teams.len()];
    let mut total = Costs::default();
    for pm in &pools {
        let c = &pm.costs;
        total.pool += c.pool;
        total.used += c.used;
        total.idle += c.idle;
        total.unallocated += c.unallocated;
        total.reclaimable += c.reclaimable;
        total.lendable_hours += c.lendable_hours;
        total.preemptible_hours += c.preemptible_hours;
        total.borrowed_hours += c.borrowed_hours;
        total.preemption_value += c.preemption_value;
        for (&i, b) in pm.teams.iter().zip(&c.bills) {
            if let Some(slot) = bills.get_mut(i) {
                *slot = Some(b.clone());
            }
        }
    }
    Ok(Month { pools, total, bills: bills.into_iter().flatten().collect() })
}

/// An engine error of pool `p` as a field of the state (team indices back to the state's).
fn engine_notice(p: usize, members: &[usize], e: &FieldError) -> Notice {
    let issue = Issue::Engine(e.problem);
    let field = match e.field.as_str() {
        "gpus" => Field::PoolCount(p),
        "price_per_gpu_hour" => Field::PoolPrice(p),
        "reclaim_after_minutes" => Field::Reclaim,
        "teams" => Field::PoolQuotas(p),
        other => {
            let (k, name) = other
                .strip_prefix("teams[")
                .and_then(|r| r.split_once("]."))
                .and_then(|(k, n)| Some((k.parse::<usize>().ok()?, n)))
                .unwrap_or((0, ""));
            let i = members.get(k).copied().unwrap_or(0);
            match name {
                "gpus" => Field::TeamQuota(i),
                "idle_notebook_gpu_hours" | "idle_stretch_hours" => Field::TeamNotebooks(i),
                "preemptible_gpu_hours" => Field::TeamWaiting(i),
                _ => Field::TeamUsed(i),
            }
        }
    };
    Notice { field, issue }
}

/// The MIG profiles of a catalog GPU as the engine's slice shapes, with their catalog names
/// and fractions; `None` for a GPU without MIG.
pub fn mig_profiles(
    gpu: &str,
) -> Option<(SliceGeometry, Vec<(SliceProfile, &'static mig_catalog::MigProfile)>)> {
    let g = gpus::find(gpu)?;
    let table = g.mig.profiles.as_deref().and_then(mig_catalog::find)?;
    let geometry = if table.key.starts_with("a30") { SliceGeometry::FOUR } else { SliceGeometry::SEVEN };
    let shapes: Vec<_> = table
        .profiles
        .iter()
        .filter_map(|p| {
            let max = p.max_instances.and_then(|m| u8::try_from(m).ok()).unwrap_or(1);
            let shape = SliceProfile::from_fractions(
                geometry,
                p.memory_fraction,
                p.sm_fraction,
                max,
                p.name.ends_with("+me"),
            )?;
            Some((shape, p))
        })
        .collect();
    (!shapes.is_empty()).then_some((geometry, shapes))
}

/// A service's memory in bytes: typed GB × 10⁹, or the engine's per-GPU total for its model
/// (BF16, [`SERVICE_CONTEXT`] tokens, one request) on the MIG GPU.
pub fn service_bytes(need: &Need, gpu: &str) -> Option<u64> {
    match need {
        Need::Gb(gb) => (gb.is_finite() && *gb > 0.0).then(|| crate::engine::num::u64_from_f64(gb * 1e9)),
        Need::Model(id) => {
            let mut s = Scenario::new(ModelSpec::Id(id.clone()));
            s.gpu = gpu.into();
            s.context_tokens = SERVICE_CONTEXT;
            s.batch = 1;
            catalog::memory_fit(&s).ok().map(|f| f.total_bytes)
        }
    }
}

/// The services packed onto MIG slices of the state's MIG GPU against a whole GPU each, or the
/// fields that stop it. `Ok(None)`: no services.
pub fn slicing(s: &State) -> Result<Option<SlicingOut>, Vec<Notice>> {
    let mut errors = Vec::new();
    let Some((geometry, shapes)) = mig_profiles(&s.mig_gpu) else {
        return Err(vec![Notice { field: Field::MigGpu, issue: Issue::NoMig }]);
    };
    let gpu_bytes = gpus::find(&s.mig_gpu).map_or(0, |g| g.memory_bytes);
    let needs: Vec<u64> = s
        .services
        .iter()
        .enumerate()
        .map(|(i, v)| {
            service_bytes(&v.need, &s.mig_gpu).unwrap_or_else(|| {
                let issue = match v.need {
                    Need::Gb(_) => Issue::Engine(Problem::NotANonNegativeNumber),
                    Need::Model(_) => Issue::UnknownModel,
                };
                errors.push(Notice { field: Field::ServiceNeed(i), issue });
                0
            })
        })
        .collect();
    if s.services.is_empty() {
        return Ok(None);
    }
    let profiles: Vec<SliceProfile> = shapes.iter().map(|(p, _)| *p).collect();
    let mem = |i: usize| {
        shapes
            .get(i)
            .map_or(0, |(_, p)| crate::engine::num::u64_from_f64(p.memory_fraction * gpu_bytes as f64))
    };
    let plan = pack(geometry, &profiles, &mem, gpu_bytes, &needs);
    let whole = cluster::whole_gpus_each(&needs, gpu_bytes);
    let result = cluster::slicing(whole, plan.total_gpus(), s.mig_price);
    if let Err(e) = &result {
        errors.push(Notice { field: Field::MigPrice, issue: Issue::Engine(e.problem) });
    }
    if !errors.is_empty() {
        return Err(errors);
    }
    let services = needs
        .iter()
        .zip(&plan.assignments)
        .map(|(&need_bytes, a)| match a {
            Assignment::Instance { gpu, placement } => {
                let p = shapes.get(placement.profile).map(|(_, p)| *p);
                ServiceOut {
                    need_bytes,
                    profile: p.map(|p| p.name.clone()),
                    gpu: Some(*gpu),
                    whole_gpus: 0,
                    slice_month: p.map_or(0.0, |p| {
                        cluster::slice_price_per_hour(p.sm_fraction, p.memory_fraction, s.mig_price)
                            * HOURS_PER_MONTH
                    }),
                }
            }
            Assignment::WholeGpus { gpus } => ServiceOut {
                need_bytes,
                profile: None,
                gpu: None,
                whole_gpus: *gpus,
                slice_month: *gpus as f64 * s.mig_price * HOURS_PER_MONTH,
            },
        })
        .collect();
    Ok(result.ok().map(|slicing| SlicingOut { slicing, services, gpu_bytes }))
}

#[cfg(test)]
mod tests;
