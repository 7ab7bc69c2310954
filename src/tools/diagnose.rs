//! The bottleneck diagnosis tool apart from the browser: its state and the query it lives in
//! (`#/{lang}/tools/diagnose?util=95&sm=10&…`), repaired field by field; the observations and
//! the optional workload it hands to the engine; and the form and the results as escaped HTML.
//!
//! Query keys (each optional; absent = don't know): `oom` (`no`, `yes`, `start`, `batch`,
//! `conc`), `util`, `sm`, `bw` (percent, or GB/s with `bwu=gbs`), `multi` (`1`, `0`), `comm`,
//! `dl` (percentages), `e2e`, `lat` (milliseconds); the workload: `m` (catalog model id; absent =
//! no workload), `g` (GPU id), `p` (weight dtype), `b` (batch), `ctx` (context tokens), `mk`
//! (`decode`, `prefill`, `step`), `mv` (the measured tokens/s or step seconds). `preset=NAME`
//! starts from one of [`PRESETS`]; the other keys then change it.

use crate::catalog::{self, gpus, models};
use crate::charts::format::{format_bytes, format_percent, format_rate, format_seconds, ByteUnit};
use crate::engine::bound::Term;
use crate::engine::diagnose::{
    compare_to_bound, diagnose_with, remedies, Bottleneck, BoundComparison, Compare, Contradiction, Cost,
    Diagnosis, Measured, Observations, OomAt, RemedyId, Rule, Signal, Strength, Tension,
};
use crate::engine::error::EngineError;
use crate::engine::hardware::GpuSpec;
use crate::engine::precision::Dtype;
use crate::engine::workload::Mode as RunMode;
use crate::engine::{ModelSpec, Scenario};
use crate::html::escape as esc;
use crate::i18n::Lang;

/// The examples a reader can start from (the first is chapter 11's widget), each a query.
pub const PRESETS: [(&str, &str); 6] = [
    ("decode", "m=llama-3.1-8b&g=h100-sxm&p=bf16&b=1&ctx=4096&mk=decode&mv=170&util=97"),
    ("oom-kv", "oom=conc&m=llama-3.1-8b&g=l4&p=bf16&b=64&ctx=8192"),
    ("busy-idle", "util=95&sm=10&bw=20"),
    ("scaling", "multi=1&comm=35&util=70"),
    ("input", "dl=30&util=55&multi=0"),
    ("endpoint", "e2e=1200&lat=300"),
];

const DEFAULT_GPU: &str = "h100-sxm";
const DEFAULT_BATCH: u64 = 1;
const DEFAULT_CONTEXT: u64 = 4096;
const MAX_BATCH: u64 = 100_000;
const MAX_CONTEXT: u64 = 10_000_000;
/// Weight precisions offered for the workload.
pub const PRECISIONS: [Dtype; 5] = [Dtype::Bf16, Dtype::Fp16, Dtype::Fp8, Dtype::Int8, Dtype::Int4];

/// The out-of-memory answer.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Oom {
    #[default]
    Unknown,
    No,
    /// Yes, when not known.
    Yes,
    At(OomAt),
}

/// What the reader measured of their workload.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Kind {
    #[default]
    Decode,
    Prefill,
    Step,
}

/// Everything the tool shows, as one value. Percentages as typed (0..100), times in ms.
#[derive(Clone, Debug, PartialEq)]
pub struct State {
    pub oom: Oom,
    pub util: Option<f64>,
    pub sm: Option<f64>,
    pub bw: Option<f64>,
    /// `bw` is in GB/s (else percent of the peak).
    pub bw_gbs: bool,
    pub multi: Option<bool>,
    pub comm: Option<f64>,
    pub loader: Option<f64>,
    pub e2e_ms: Option<f64>,
    pub model_ms: Option<f64>,
    /// The workload's model; `None`: no workload given.
    pub model: Option<String>,
    pub gpu: String,
    pub precision: Dtype,
    pub batch: u64,
    pub context: u64,
    pub kind: Kind,
    pub measured: Option<f64>,
}

impl Default for State {
    fn default() -> Self {
        State {
            oom: Oom::Unknown,
            util: None,
            sm: None,
            bw: None,
            bw_gbs: false,
            multi: None,
            comm: None,
            loader: None,
            e2e_ms: None,
            model_ms: None,
            model: None,
            gpu: DEFAULT_GPU.to_owned(),
            precision: Dtype::Bf16,
            batch: DEFAULT_BATCH,
            context: DEFAULT_CONTEXT,
            kind: Kind::Decode,
            measured: None,
        }
    }
}

/// A field of the form and the query.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Field {
    Oom,
    Util,
    Sm,
    Bw,
    BwUnit,
    Multi,
    Comm,
    Loader,
    EndToEnd,
    ModelLatency,
    Model,
    Gpu,
    Precision,
    Batch,
    Context,
    Kind,
    Measured,
    Preset,
}

/// Every field with its query key, in the order the query is written.
pub const FIELDS: [(Field, &str); 18] = [
    (Field::Preset, "preset"),
    (Field::Oom, "oom"),
    (Field::Util, "util"),
    (Field::Sm, "sm"),
    (Field::Bw, "bw"),
    (Field::BwUnit, "bwu"),
    (Field::Multi, "multi"),
    (Field::Comm, "comm"),
    (Field::Loader, "dl"),
    (Field::EndToEnd, "e2e"),
    (Field::ModelLatency, "lat"),
    (Field::Model, "m"),
    (Field::Gpu, "g"),
    (Field::Precision, "p"),
    (Field::Batch, "b"),
    (Field::Context, "ctx"),
    (Field::Kind, "mk"),
    (Field::Measured, "mv"),
];

impl Field {
    pub fn key(self) -> &'static str {
        FIELDS.iter().find(|(f, _)| *f == self).map(|(_, k)| *k).unwrap_or("")
    }

    fn from_key(key: &str) -> Option<Field> {
        FIELDS.iter().find(|(_, k)| *k == key).map(|(f, _)| *f)
    }

    /// The field as its question names it.
    pub fn label(self, lang: Lang) -> &'static str {
        let t = lang.diag();
        match self {
            Field::Oom => t.oom,
            Field::Util => t.util,
            Field::Sm => t.sm,
            Field::Bw => t.bw,
            Field::BwUnit => t.bw_unit,
            Field::Multi => t.multi,
            Field::Comm => t.comm,
            Field::Loader => t.loader,
            Field::EndToEnd => t.e2e,
            Field::ModelLatency => t.model_latency,
            Field::Model => t.wl_model,
            Field::Gpu => t.wl_gpu,
            Field::Precision => t.wl_precision,
            Field::Batch => t.wl_batch,
            Field::Context => t.wl_context,
            Field::Kind => t.wl_kind,
            Field::Measured => t.wl_measured,
            Field::Preset => t.field_preset,
        }
    }

    /// A field with a default goes back to it; the others go back to "don't know".
    fn has_default(self) -> bool {
        matches!(
            self,
            Field::BwUnit | Field::Gpu | Field::Precision | Field::Batch | Field::Context | Field::Kind
        )
    }
}

/// Why a value could not be used.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Problem {
    NotANumber,
    Above100,
    Negative,
    NotPositive,
    NotWhole,
    TooLarge,
    UnknownChoice,
    UnknownModel,
    UnknownGpu,
    UnknownPart,
    UnknownPreset,
}

/// A value from the address or the form that was not used, naming its field.
#[derive(Clone, Debug, PartialEq)]
pub struct Notice {
    /// `None`: a key this page does not know (`key` holds it).
    pub field: Option<Field>,
    pub key: String,
    pub value: String,
    pub problem: Problem,
}

fn number(v: &str) -> Result<f64, Problem> {
    let x: f64 = v.trim().parse().map_err(|_| Problem::NotANumber)?;
    if x.is_finite() {
        Ok(x)
    } else {
        Err(Problem::NotANumber)
    }
}

fn percent(v: &str) -> Result<f64, Problem> {
    let x = number(v)?;
    if x < 0.0 {
        Err(Problem::Negative)
    } else if x > 100.0 {
        Err(Problem::Above100)
    } else {
        Ok(x)
    }
}

fn positive(v: &str, max: f64) -> Result<f64, Problem> {
    let x = number(v)?;
    if x < 0.0 {
        Err(Problem::Negative)
    } else if x == 0.0 {
        Err(Problem::NotPositive)
    } else if x > max {
        Err(Problem::TooLarge)
    } else {
        Ok(x)
    }
}

fn whole(v: &str, max: u64) -> Result<u64, Problem> {
    let x = positive(v, 1e18)?;
    if x.fract() != 0.0 {
        return Err(Problem::NotWhole);
    }
    let n = v.trim().parse::<u64>().map_err(|_| Problem::NotWhole)?;
    if n > max {
        Err(Problem::TooLarge)
    } else {
        Ok(n)
    }
}

fn dtype(v: &str) -> Option<Dtype> {
    PRECISIONS.iter().copied().find(|d| d.name() == v)
}

impl State {
    /// Sets one field from its query key and text, as the address or the form gives it. An
    /// empty value clears it (back to don't know, or to its default). A value that cannot be
    /// used leaves the field cleared and is returned as a notice.
    pub fn set(&mut self, key: &str, value: &str) -> Option<Notice> {
        let Some(field) = Field::from_key(key) else {
            return Some(Notice {
                field: None,
                key: key.to_owned(),
                value: value.to_owned(),
                problem: Problem::UnknownPart,
            });
        };
        let v = value.trim();
        let result = if v.is_empty() { self.clear(field) } else { self.apply(field, v) };
        result.err().map(|problem| {
            self.clear(field).ok();
            Notice { field: Some(field), key: key.to_owned(), value: value.to_owned(), problem }
        })
    }

    fn clear(&mut self, field: Field) -> Result<(), Problem> {
        let d = State::default();
        match field {
            Field::Oom => self.oom = d.oom,
            Field::Util => self.util = None,
            Field::Sm => self.sm = None,
            Field::Bw => self.bw = None,
            Field::BwUnit => self.bw_gbs = d.bw_gbs,
            Field::Multi => self.multi = None,
            Field::Comm => self.comm = None,
            Field::Loader => self.loader = None,
            Field::EndToEnd => self.e2e_ms = None,
            Field::ModelLatency => self.model_ms = None,
            Field::Model => self.model = None,
            Field::Gpu => self.gpu = d.gpu,
            Field::Precision => self.precision = d.precision,
            Field::Batch => self.batch = d.batch,
            Field::Context => self.context = d.context,
            Field::Kind => self.kind = d.kind,
            Field::Measured => self.measured = None,
            Field::Preset => {}
        }
        Ok(())
    }

    fn apply(&mut self, field: Field, v: &str) -> Result<(), Problem> {
        match field {
            Field::Oom => {
                self.oom = match v {
                    "no" => Oom::No,
                    "yes" => Oom::Yes,
                    "start" => Oom::At(OomAt::StartUp),
                    "batch" => Oom::At(OomAt::GrowingBatch),
                    "conc" => Oom::At(OomAt::RisingConcurrency),
                    _ => return Err(Problem::UnknownChoice),
                }
            }
            Field::Util => self.util = Some(percent(v)?),
            Field::Sm => self.sm = Some(percent(v)?),
            // In GB/s a value is checked against the GPU's peak by the engine (a contradiction).
            Field::Bw => self.bw = Some(if self.bw_gbs { positive(v, 1e6)? } else { percent(v)? }),
            Field::BwUnit => {
                self.bw_gbs = match v {
                    "pct" => false,
                    "gbs" => true,
                    _ => return Err(Problem::UnknownChoice),
                }
            }
            Field::Multi => {
                self.multi = match v {
                    "1" => Some(true),
                    "0" => Some(false),
                    _ => return Err(Problem::UnknownChoice),
                }
            }
            Field::Comm => self.comm = Some(percent(v)?),
            Field::Loader => self.loader = Some(percent(v)?),
            Field::EndToEnd => self.e2e_ms = Some(positive(v, 1e9)?),
            Field::ModelLatency => self.model_ms = Some(positive(v, 1e9)?),
            Field::Model => {
                models::find(v).ok_or(Problem::UnknownModel)?;
                self.model = Some(v.to_owned());
            }
            Field::Gpu => {
                gpus::find(v).ok_or(Problem::UnknownGpu)?;
                v.clone_into(&mut self.gpu);
            }
            Field::Precision => self.precision = dtype(v).ok_or(Problem::UnknownChoice)?,
            Field::Batch => self.batch = whole(v, MAX_BATCH)?,
            Field::Context => self.context = whole(v, MAX_CONTEXT)?,
            Field::Kind => {
                self.kind = match v {
                    "decode" => Kind::Decode,
                    "prefill" => Kind::Prefill,
                    "step" => Kind::Step,
                    _ => return Err(Problem::UnknownChoice),
                }
            }
            Field::Measured => self.measured = Some(positive(v, 1e12)?),
            Field::Preset => {
                let (_, q) = PRESETS.iter().find(|(name, _)| *name == v).ok_or(Problem::UnknownPreset)?;
                let (preset, _) = parse_query(q);
                *self = preset;
            }
        }
        Ok(())
    }

    /// The state as its query: only what differs from a blank form, in a fixed order.
    pub fn to_query(&self) -> String {
        let d = State::default();
        let mut parts: Vec<String> = Vec::new();
        let mut push = |key: &str, value: String| parts.push(format!("{key}={value}"));
        match self.oom {
            Oom::Unknown => {}
            Oom::No => push("oom", "no".into()),
            Oom::Yes => push("oom", "yes".into()),
            Oom::At(OomAt::StartUp) => push("oom", "start".into()),
            Oom::At(OomAt::GrowingBatch) => push("oom", "batch".into()),
            Oom::At(OomAt::RisingConcurrency) => push("oom", "conc".into()),
        }
        let mut num = |key: &str, v: Option<f64>| {
            if let Some(v) = v {
                push(key, format!("{v}"));
            }
        };
        num("util", self.util);
        num("sm", self.sm);
        num("bw", self.bw);
        if self.bw_gbs {
            parts.push("bwu=gbs".into());
        }
        if let Some(m) = self.multi {
            parts.push(format!("multi={}", if m { 1 } else { 0 }));
        }
        let mut num = |key: &str, v: Option<f64>| {
            if let Some(v) = v {
                parts.push(format!("{key}={v}"));
            }
        };
        num("comm", self.comm);
        num("dl", self.loader);
        num("e2e", self.e2e_ms);
        num("lat", self.model_ms);
        if let Some(m) = &self.model {
            parts.push(format!("m={m}"));
        }
        if self.gpu != d.gpu {
            parts.push(format!("g={}", self.gpu));
        }
        if self.precision != d.precision {
            parts.push(format!("p={}", self.precision.name()));
        }
        if self.batch != d.batch {
            parts.push(format!("b={}", self.batch));
        }
        if self.context != d.context {
            parts.push(format!("ctx={}", self.context));
        }
        match self.kind {
            Kind::Decode => {}
            Kind::Prefill => parts.push("mk=prefill".into()),
            Kind::Step => parts.push("mk=step".into()),
        }
        if let Some(v) = self.measured {
            parts.push(format!("mv={v}"));
        }
        parts.join("&")
    }

    /// The GPU's datasheet memory bandwidth in bytes/s.
    fn gpu_bandwidth(&self) -> Option<f64> {
        gpus::find(&self.gpu).map(|g| g.memory_bandwidth_bytes_per_s).filter(|b| *b > 0.0)
    }

    /// What the engine's rules read: shares as fractions, times in seconds. Bandwidth in GB/s is
    /// divided by the workload GPU's peak.
    pub fn observations(&self) -> Observations {
        let share = |v: Option<f64>| v.map(|p| p / 100.0);
        let bandwidth_share = match (self.bw, self.bw_gbs) {
            (Some(gbs), true) => self.gpu_bandwidth().map(|peak| gbs * 1e9 / peak),
            (p, false) => share(p),
            (None, true) => None,
        };
        Observations {
            out_of_memory: match self.oom {
                Oom::Unknown => None,
                Oom::No => Some(false),
                Oom::Yes | Oom::At(_) => Some(true),
            },
            oom_at: match self.oom {
                Oom::At(a) => Some(a),
                _ => None,
            },
            gpu_utilization: share(self.util),
            sm_activity: share(self.sm),
            bandwidth_share,
            communication_share: share(self.comm),
            loader_wait_share: share(self.loader),
            end_to_end_s: self.e2e_ms.map(|ms| ms / 1000.0),
            model_s: self.model_ms.map(|ms| ms / 1000.0),
            multi_gpu: self.multi,
        }
    }

    /// The workload as an estimator scenario (`None` when no model is given).
    pub fn scenario(&self) -> Option<Scenario> {
        let model = self.model.as_ref()?;
        let mut s = Scenario::new(ModelSpec::Id(model.clone()));
        s.gpu = GpuSpec::Id(self.gpu.clone());
        s.weight_dtype = Some(self.precision);
        s.batch = self.batch;
        s.context_tokens = self.context;
        if self.kind == Kind::Step {
            s.mode = RunMode::Training;
        }
        Some(s)
    }

    /// True when nothing is observed and no workload is given.
    pub fn is_blank(&self) -> bool {
        self.observations() == Observations::default() && self.model.is_none()
    }
}

/// Reads a query (`util=95&sm=10`) into a state: `preset` first, then the other keys in their
/// order. Never fails: every part that cannot be used is cleared and named in a notice.
pub fn parse_query(query: &str) -> (State, Vec<Notice>) {
    let mut state = State::default();
    let mut notices = Vec::new();
    let parts: Vec<(&str, &str)> =
        query.split('&').filter(|p| !p.is_empty()).map(|p| p.split_once('=').unwrap_or((p, ""))).collect();
    // The unit before the bandwidth, so `bw=1200&bwu=gbs` reads 1200 as GB/s in any order.
    let rank = |k: &str| match k {
        "preset" => 0,
        "bwu" => 1,
        _ => 2,
    };
    let mut ordered = parts.clone();
    crate::engine::num::sort_stable_by(&mut ordered, |a, b| rank(a.0) < rank(b.0));
    for (k, v) in ordered {
        notices.extend(state.set(k, v));
    }
    (state, notices)
}

/// The engine's view of the workload.
#[derive(Clone, Debug, PartialEq)]
pub struct WorkloadView {
    pub scenario: Scenario,
    pub gpu_name: String,
    pub memory_needed: u64,
    pub usable_memory: u64,
    pub fits: bool,
    /// The bound for the phase measured, in tokens/s (training: seconds per step).
    pub bound_tokens_per_s: f64,
    pub bound_s: f64,
    pub roof: Term,
    pub peak_bandwidth: f64,
    pub comparison: Option<BoundComparison>,
}

/// Evaluates the workload (when a model is given) and compares the measured speed with the
/// engine's bound for the phase measured.
pub fn workload(state: &State) -> Option<Result<WorkloadView, EngineError>> {
    let scenario = state.scenario()?;
    Some(catalog::evaluate(&scenario).map(|r| {
        let p = &r.performance;
        let phase = match state.kind {
            Kind::Decode => &p.phases.decode,
            Kind::Prefill => &p.phases.prefill,
            Kind::Step => p.phases.training.as_ref().unwrap_or(&p.phases.decode),
        };
        let measured = state.measured.map(|v| match state.kind {
            Kind::Step => Measured::StepSeconds(v),
            _ => Measured::TokensPerS(v),
        });
        let comparison = measured.and_then(|m| compare_to_bound(m, phase.tokens, &phase.bound));
        WorkloadView {
            gpu_name: p.hardware.gpu_name.clone(),
            memory_needed: r.memory_per_gpu_bytes.total,
            usable_memory: r.usable_gpu_memory_bytes,
            fits: r.fits,
            bound_tokens_per_s: phase.tokens_per_s_bound,
            bound_s: phase.bound.total_s,
            roof: phase.bound.dominant,
            peak_bandwidth: p.hardware.memory_bandwidth_bytes_per_s,
            comparison,
            scenario,
        }
    }))
}

mod html;
pub use html::*;

#[cfg(test)]
mod tests;
