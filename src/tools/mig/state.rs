//! The MIG planner's state and its URL form: `gpu=ID&place=PROFILE@START,…&w=MODEL:W:KV:CTX:N,…`
//! (`preset=NAME` starts from a named example; the other keys then override it).
//!
//! [`decode`] never fails: each field is read on its own and a bad one is repaired (the GPU to
//! the default, a bad placement or workload part dropped or set to its default) with a
//! [`Notice`] that names it. [`encode`] writes the canonical form, which `decode` reads back
//! unchanged.

use super::{gpu_tables, Gpu, MigGpu, Refusal};
use crate::catalog::models;
use crate::engine::mig::{check, Placement};
use crate::engine::precision::Dtype;

/// Most workloads in a list (the packing search is exact per GPU; this keeps it instant).
pub const MAX_WORKLOADS: usize = 24;
/// Largest concurrency a workload may ask for.
pub const MAX_CONCURRENCY: u64 = 4096;
/// Longest context (the engine's own bound).
pub const MAX_CONTEXT: u64 = 10_000_000;
/// The GPU when none (or an unknown one) is given.
pub const DEFAULT_GPU: &str = "h100-sxm";
/// Weight precisions offered (the engine's inference dtypes; nf4 is a training format).
pub const WEIGHT_DTYPES: [Dtype; 6] =
    [Dtype::Bf16, Dtype::Fp16, Dtype::Fp8, Dtype::Int8, Dtype::Int4, Dtype::Fp32];
/// KV-cache precisions offered.
pub const KV_DTYPES: [Dtype; 4] = [Dtype::Bf16, Dtype::Fp16, Dtype::Fp8, Dtype::Int8];

/// One service to place: a catalog model served at a precision, context and concurrency.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Workload {
    pub model: String,
    pub weights: Dtype,
    pub kv: Dtype,
    pub context: u64,
    pub concurrency: u64,
}

impl Default for Workload {
    fn default() -> Self {
        Workload {
            model: "llama-3.1-8b".into(),
            weights: Dtype::Bf16,
            kv: Dtype::Bf16,
            context: 4096,
            concurrency: 4,
        }
    }
}

/// Everything the planner shows is computed from this.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MigState {
    /// A catalog GPU id with a MIG profile table.
    pub gpu: String,
    /// The hand-placed instances (profile index into the GPU's table, start memory slice).
    pub placed: Vec<Placement>,
    pub workloads: Vec<Workload>,
}

/// Which field a notice is about.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Field {
    Preset,
    Gpu,
    /// The n-th placement (0-based) of `place`.
    Place(usize),
    /// Workload n (0-based) and which part.
    Workload(usize, Part),
    /// The list of workloads as a whole.
    Workloads,
}

/// A part of one workload.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Part {
    Model,
    Weights,
    Kv,
    Context,
    Concurrency,
}

/// What was wrong with a field and what was done.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Problem {
    /// No preset of that name: ignored.
    UnknownPreset { got: String },
    /// Not a catalog GPU with MIG profiles: the default is used.
    UnknownGpu { got: String },
    /// Not `PROFILE@START`: dropped.
    BadPlacement { got: String },
    /// No profile of that name on this GPU: dropped.
    UnknownProfile { got: String },
    /// The guide's rules refuse it beside the earlier ones: dropped.
    Refused(Refusal),
    /// Not a catalog model: the default model is used.
    UnknownModel { got: String },
    /// Not one of the offered precisions: the default is used.
    BadDtype { got: String, used: Dtype },
    /// Not a whole number in range: `used` instead.
    OutOfRange { got: String, min: u64, max: u64, used: u64 },
    /// `w=` with nothing in it: nothing to pack.
    EmptyList,
    /// More workloads than [`MAX_WORKLOADS`]: the rest dropped.
    TooManyWorkloads { max: usize },
}

/// A repaired field.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Notice {
    pub field: Field,
    pub problem: Problem,
}

/// Named starting points: the chapter's worked example and a mixed fleet.
pub const PRESETS: [(&str, &str); 2] = [
    // Chapter 8: the 3-2-1-1 layout on an A100 80GB, and seven copies of its 4-bit Llama-2-7B
    // service (3 requests of 2,048 tokens), which the chapter says fit one card.
    (
        "7b-int4",
        "gpu=a100-sxm-80gb&place=1g.10gb@0,1g.10gb@1,2g.20gb@2,3g.40gb@4&w=llama-2-7b:int4:fp16:2048:3*7",
    ),
    // A mixed fleet on H100s: small and medium services and one that needs whole GPUs.
    (
        "mixed",
        "gpu=h100-sxm&place=4g.40gb@0,2g.20gb@4,1g.10gb@6&w=llama-3.1-8b:bf16:bf16:8192:8,qwen2.5-7b:int4:fp8:4096:4,llama-3.2-3b:bf16:bf16:4096:4,mistral-7b-v0.3:fp8:fp8:16384:2,llama-3.1-70b:bf16:bf16:8192:8",
    ),
];

/// The default state (an empty query): the mixed preset.
pub fn default_state() -> MigState {
    PRESETS.get(1).map(|(_, q)| decode(q).0).unwrap_or_else(|| MigState {
        gpu: DEFAULT_GPU.into(),
        placed: Vec::new(),
        workloads: vec![Workload::default()],
    })
}

fn dtype_of(text: &str, offered: &[Dtype]) -> Option<Dtype> {
    offered.iter().copied().find(|d| d.name() == text)
}

/// `%XX` escapes decoded (ASCII only); `+` stays `+` (profile names carry it).
fn percent_decode(text: &str) -> String {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while let Some(&b) = bytes.get(i) {
        let hex = bytes.get(i + 1..i + 3).and_then(|h| std::str::from_utf8(h).ok());
        match (b, hex.and_then(|h| u8::from_str_radix(h, 16).ok())) {
            (b'%', Some(v)) if v.is_ascii() => {
                out.push(v);
                i += 3;
            }
            _ => {
                out.push(b);
                i += 1;
            }
        }
    }
    String::from_utf8(out).unwrap_or_default()
}

/// A whole number in `[min, max]`, else the problem (the caller's `used` goes into it).
pub fn whole_in(text: &str, min: u64, max: u64, used: u64) -> Result<u64, Problem> {
    match text.trim().parse::<u64>() {
        Ok(v) if (min..=max).contains(&v) => Ok(v),
        _ => Err(Problem::OutOfRange { got: text.to_owned(), min, max, used }),
    }
}

/// The state a query describes, and what had to be repaired.
pub fn decode(query: &str) -> (MigState, Vec<Notice>) {
    if query.trim().is_empty() {
        return (default_state(), Vec::new());
    }
    let mut notices = Vec::new();
    let pairs: Vec<(String, String)> = query
        .split('&')
        .filter(|p| !p.is_empty())
        .map(|p| {
            let (k, v) = p.split_once('=').unwrap_or((p, ""));
            (percent_decode(k), percent_decode(v))
        })
        .collect();
    let get = |key: &str| pairs.iter().rev().find(|(k, _)| k == key).map(|(_, v)| v.as_str());
    // A preset first; the other keys override it.
    let preset = get("preset").and_then(|name| {
        let found = PRESETS.iter().find(|(n, _)| *n == name).map(|(_, q)| *q);
        if found.is_none() {
            notices
                .push(Notice { field: Field::Preset, problem: Problem::UnknownPreset { got: name.into() } });
        }
        found
    });
    let base = preset.map(|q| decode(q).0);
    let gpu_text = get("gpu").map(str::to_owned).or_else(|| base.as_ref().map(|b| b.gpu.clone()));
    let gpu = match gpu_text.as_deref() {
        Some(id) if gpu_tables(id).is_some() => id.to_owned(),
        Some(id) => {
            notices.push(Notice { field: Field::Gpu, problem: Problem::UnknownGpu { got: id.into() } });
            DEFAULT_GPU.to_owned()
        }
        None => DEFAULT_GPU.to_owned(),
    };
    let mig = gpu_tables(&gpu);
    let placed = match (get("place"), &base) {
        (Some(text), _) => mig.map(|m| read_placements(&m, text, &mut notices)).unwrap_or_default(),
        (None, Some(b)) if b.gpu == gpu => b.placed.clone(),
        _ => Vec::new(),
    };
    let workloads = match (get("w"), base) {
        (Some(text), _) => read_workloads(text, &mut notices),
        (None, Some(b)) => b.workloads,
        (None, None) => vec![Workload::default()],
    };
    (MigState { gpu, placed, workloads }, notices)
}

fn read_placements(mig: &MigGpu, text: &str, notices: &mut Vec<Notice>) -> Vec<Placement> {
    let mut placed: Vec<Placement> = Vec::new();
    for (n, entry) in text.split(',').filter(|e| !e.is_empty()).enumerate() {
        let field = Field::Place(n);
        let Some((name, start)) = entry.split_once('@') else {
            notices.push(Notice { field, problem: Problem::BadPlacement { got: entry.into() } });
            continue;
        };
        let Ok(start) = start.parse::<u8>() else {
            notices.push(Notice { field, problem: Problem::BadPlacement { got: entry.into() } });
            continue;
        };
        let Some(profile) = mig.profile_index(name) else {
            notices.push(Notice { field, problem: Problem::UnknownProfile { got: name.into() } });
            continue;
        };
        let p = Placement { profile, start };
        match try_add(mig, &placed, p) {
            Ok(()) => placed.push(p),
            Err(r) => notices.push(Notice { field, problem: Problem::Refused(r) }),
        }
    }
    placed
}

/// Whether `p` may join `placed` by the guide's rules; the refusal names what blocks it.
pub fn try_add(mig: &MigGpu, placed: &[Placement], p: Placement) -> Result<(), Refusal> {
    let mut trial = placed.to_vec();
    trial.push(p);
    check(mig.geometry, &mig.slices, &trial).map_err(|e| Refusal::new(mig, &trial, &e))
}

fn read_workloads(text: &str, notices: &mut Vec<Notice>) -> Vec<Workload> {
    let mut out = Vec::new();
    if text.is_empty() {
        notices.push(Notice { field: Field::Workloads, problem: Problem::EmptyList });
    }
    for entry in text.split(',').filter(|e| !e.is_empty()) {
        // `SPEC*N` repeats a workload N times (the chapter's seven identical services).
        let (spec, copies) = match entry.rsplit_once('*') {
            Some((s, n)) => (s, n.parse::<usize>().unwrap_or(1).clamp(1, MAX_WORKLOADS)),
            None => (entry, 1),
        };
        let w = read_workload(out.len(), spec, notices);
        for _ in 0..copies {
            out.push(w.clone());
        }
    }
    if out.len() > MAX_WORKLOADS {
        out.truncate(MAX_WORKLOADS);
        notices.push(Notice {
            field: Field::Workloads,
            problem: Problem::TooManyWorkloads { max: MAX_WORKLOADS },
        });
    }
    out
}

fn read_workload(n: usize, spec: &str, notices: &mut Vec<Notice>) -> Workload {
    let d = Workload::default();
    let mut parts = spec.split(':');
    let mut next = || parts.next().unwrap_or("");
    let mut note = |part, problem| notices.push(Notice { field: Field::Workload(n, part), problem });
    let model = next();
    let model = if models::find(model).is_some() {
        model.to_owned()
    } else {
        note(Part::Model, Problem::UnknownModel { got: model.into() });
        d.model.clone()
    };
    let weights = next();
    let weights = dtype_of(weights, &WEIGHT_DTYPES).unwrap_or_else(|| {
        note(Part::Weights, Problem::BadDtype { got: weights.into(), used: d.weights });
        d.weights
    });
    let kv = next();
    let kv = dtype_of(kv, &KV_DTYPES).unwrap_or_else(|| {
        note(Part::Kv, Problem::BadDtype { got: kv.into(), used: d.kv });
        d.kv
    });
    let context = whole_in(next(), 1, MAX_CONTEXT, d.context).unwrap_or_else(|p| {
        note(Part::Context, p);
        d.context
    });
    let concurrency = whole_in(next(), 1, MAX_CONCURRENCY, 1).unwrap_or_else(|p| {
        note(Part::Concurrency, p);
        1
    });
    Workload { model, weights, kv, context, concurrency }
}

/// The canonical query for a state (what the page writes into its address).
pub fn encode(s: &MigState) -> String {
    let names = gpu_tables(&s.gpu);
    let place: Vec<String> = s
        .placed
        .iter()
        .filter_map(|p| {
            let name = names.as_ref()?.profiles.get(p.profile)?.name.as_str();
            Some(format!("{name}@{}", p.start))
        })
        .collect();
    // Runs of identical workloads as `SPEC*N`.
    let mut w: Vec<String> = Vec::new();
    let mut rest = s.workloads.as_slice();
    while let Some(first) = rest.first() {
        let run = rest.iter().take_while(|x| *x == first).count();
        let spec = format!(
            "{}:{}:{}:{}:{}",
            first.model,
            first.weights.name(),
            first.kv.name(),
            first.context,
            first.concurrency
        );
        w.push(if run > 1 { format!("{spec}*{run}") } else { spec });
        rest = rest.get(run..).unwrap_or_default();
    }
    format!("gpu={}&place={}&w={}", s.gpu, place.join(","), w.join(","))
}

/// The GPU a state names (the default GPU when that one is gone).
pub fn gpu_of(s: &MigState) -> Option<(&'static Gpu, MigGpu)> {
    let id = if gpu_tables(&s.gpu).is_some() { s.gpu.as_str() } else { DEFAULT_GPU };
    let gpu = crate::catalog::gpus::find(id)?;
    Some((gpu, gpu_tables(id)?))
}

#[cfg(test)]
mod tests;
