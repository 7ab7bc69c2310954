//! The cloud instance selector's state and HTML: the workload in the URL, the catalog's
//! instances (plus the reader's own) as engine offers, and the ranked table.
//!
//! The query is `m=MODEL&job=serve|train|lora|qlora&w=DTYPE&ctx=N&n=N&tpot=MS|none&tok=B&
//! rank=hour|mtok|run&pv=all|aws|gcp|azure&price=KEY~USD,…&add=NAME~GPU~COUNT~USD,…`; a value
//! that does not parse is reset to its default and named (`Field`), never guessed.

use crate::catalog::instances::{self, Instance};
use crate::catalog::{self, gpus, Catalog};
use crate::charts::format::{format_bytes, format_rate, format_seconds, format_si, group_digits, ByteUnit};
use crate::engine::cloud::{
    apply_price, assess_unpriced, hours_minutes, is_training, layout_scenario, ranking, Assessment, Choice,
    Goal, Objective, Offer, Problem,
};
use crate::engine::hardware::{GpuSpec, TopologyKind};
use crate::engine::precision::Dtype;
use crate::engine::workload::Mode;
use crate::engine::{ModelSpec, Scenario};
use crate::estimator::state::{encode, EstimatorState};
use crate::html::escape as esc;
use crate::i18n::Lang;
use std::fmt::Write;

/// Weight precisions offered (the others are the estimator's).
pub const WEIGHTS: [Dtype; 4] = [Dtype::Bf16, Dtype::Fp8, Dtype::Int8, Dtype::Int4];
const MODES: [(Mode, &str); 4] =
    [(Mode::Inference, "serve"), (Mode::Training, "train"), (Mode::Lora, "lora"), (Mode::Qlora, "qlora")];
const OBJECTIVES: [(Objective, &str); 3] =
    [(Objective::PerHour, "hour"), (Objective::PerMillionTokens, "mtok"), (Objective::PerRun, "run")];
const PROVIDERS: [&str; 3] = ["AWS", "GCP", "Azure"];
/// Most instances of the reader's own.
pub const MAX_ADDED: usize = 8;

/// An instance the reader adds (a quote, a private cloud).
#[derive(Clone, Debug, PartialEq)]
pub struct Added {
    pub name: String,
    pub gpu: String,
    pub gpus: u64,
    pub price: f64,
}

/// Everything the selector's page keeps in its URL.
#[derive(Clone, Debug, PartialEq)]
pub struct CloudState {
    pub model: String,
    pub mode: Mode,
    pub weights: Dtype,
    pub context: u64,
    /// Concurrent requests (serving) or micro-batch per replica (training).
    pub batch: u64,
    /// Serving latency target: slowest time per output token, ms.
    pub tpot_ms: Option<f64>,
    /// Training tokens, billions.
    pub tokens_b: f64,
    pub objective: Objective,
    /// `None`: every provider.
    pub provider: Option<&'static str>,
    /// Prices the reader edited: (instance key, USD per hour).
    pub prices: Vec<(String, f64)>,
    pub added: Vec<Added>,
}

impl Default for CloudState {
    fn default() -> Self {
        CloudState {
            model: "llama-3.1-8b".into(),
            mode: Mode::Inference,
            weights: Dtype::Bf16,
            context: 4096,
            batch: 32,
            tpot_ms: Some(50.0),
            tokens_b: 1.0,
            objective: Objective::PerMillionTokens,
            provider: None,
            prices: Vec::new(),
            added: Vec::new(),
        }
    }
}

/// A field of the state that a bad URL value was reset in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Field {
    Model,
    Mode,
    Weights,
    Context,
    Concurrency,
    Tpot,
    Tokens,
    Objective,
    Provider,
    Price,
    Added,
}

/// The chapter presets (`{{widget:cloud:NAME}}`).
pub fn preset(name: &str) -> Option<CloudState> {
    let base = CloudState::default();
    match name {
        // Chapter 9's worked example: an 8B chat service, ranked by cost per million tokens.
        "8b-chat" => Some(base),
        "70b-chat" => Some(CloudState { model: "llama-3.1-70b".into(), batch: 16, ..base }),
        "8b-lora" => Some(CloudState {
            mode: Mode::Lora,
            batch: 4,
            tpot_ms: None,
            objective: Objective::PerRun,
            ..base
        }),
        _ => None,
    }
}

fn mode_code(m: Mode) -> &'static str {
    MODES.iter().find(|(x, _)| *x == m).map_or("serve", |(_, c)| c)
}

pub fn objective_code(o: Objective) -> &'static str {
    OBJECTIVES.iter().find(|(x, _)| *x == o).map_or("hour", |(_, c)| c)
}

/// Whether `o` ranks this job (serving has no runs, training no output tokens).
pub fn objective_fits(mode: Mode, o: Objective) -> bool {
    match o {
        Objective::PerHour => true,
        Objective::PerMillionTokens => mode == Mode::Inference,
        Objective::PerRun => mode != Mode::Inference,
    }
}

/// The objective a job ranks by when its own does not apply.
fn default_objective(mode: Mode) -> Objective {
    if mode == Mode::Inference {
        Objective::PerMillionTokens
    } else {
        Objective::PerRun
    }
}

/// Names the reader may give an instance: 1-40 of `A-Z a-z 0-9 . _ -`.
pub fn valid_name(name: &str) -> bool {
    (1..=40).contains(&name.len())
        && name.bytes().all(|b| b.is_ascii_alphanumeric() || matches!(b, b'.' | b'_' | b'-'))
}

fn positive(v: &str) -> Option<f64> {
    v.parse::<f64>().ok().filter(|x| x.is_finite() && *x > 0.0)
}

fn parse_added(v: &str) -> Option<Vec<Added>> {
    let mut out = Vec::new();
    for item in v.split(',').filter(|s| !s.is_empty()) {
        let parts: Vec<&str> = item.split('~').collect();
        let [name, gpu, count, price] = parts.as_slice() else { return None };
        let gpus = count.parse::<u64>().ok().filter(|n| (1..=64).contains(n))?;
        if !valid_name(name) || gpus::find(gpu).is_none() {
            return None;
        }
        out.push(Added { name: (*name).to_owned(), gpu: (*gpu).to_owned(), gpus, price: positive(price)? });
    }
    (out.len() <= MAX_ADDED).then_some(out)
}

fn parse_prices(v: &str) -> Option<Vec<(String, f64)>> {
    let mut out = Vec::new();
    for item in v.split(',').filter(|s| !s.is_empty()) {
        let (key, usd) = item.split_once('~')?;
        instances::all().iter().find(|i| i.key() == key)?;
        out.push((key.to_owned(), positive(usd)?));
    }
    Some(out)
}

/// The state a query gives, with the fields that were reset. `preset=NAME` starts from a
/// chapter preset; other keys override it.
pub fn parse(query: &str) -> (CloudState, Vec<Field>) {
    let pairs: Vec<(&str, &str)> = query.split('&').filter_map(|p| p.split_once('=')).collect();
    let mut s = pairs.iter().find(|(k, _)| *k == "preset").and_then(|(_, v)| preset(v)).unwrap_or_default();
    let mut bad = Vec::new();
    for (k, v) in pairs {
        let ok = match k {
            "m" => catalog::models::find(v).map(|_| s.model = v.to_owned()).is_some(),
            "job" => MODES.iter().find(|(_, c)| *c == v).map(|(m, _)| s.mode = *m).is_some(),
            "w" => WEIGHTS.iter().find(|d| d.name() == v).map(|d| s.weights = *d).is_some(),
            "ctx" => v
                .parse::<u64>()
                .ok()
                .filter(|n| (128..=1_048_576).contains(n))
                .map(|n| s.context = n)
                .is_some(),
            "n" => v.parse::<u64>().ok().filter(|n| (1..=4096).contains(n)).map(|n| s.batch = n).is_some(),
            "tpot" if v == "none" => {
                s.tpot_ms = None;
                true
            }
            "tpot" => positive(v).filter(|x| *x <= 10_000.0).map(|x| s.tpot_ms = Some(x)).is_some(),
            "tok" => positive(v).filter(|x| *x <= 1e6).map(|x| s.tokens_b = x).is_some(),
            "rank" => OBJECTIVES.iter().find(|(_, c)| *c == v).map(|(o, _)| s.objective = *o).is_some(),
            "pv" if v == "all" => {
                s.provider = None;
                true
            }
            "pv" => {
                PROVIDERS.iter().find(|p| p.eq_ignore_ascii_case(v)).map(|p| s.provider = Some(p)).is_some()
            }
            "price" => parse_prices(v).map(|p| s.prices = p).is_some(),
            "add" => parse_added(v).map(|a| s.added = a).is_some(),
            _ => true,
        };
        if !ok {
            let field = match k {
                "m" => Field::Model,
                "job" => Field::Mode,
                "w" => Field::Weights,
                "ctx" => Field::Context,
                "n" => Field::Concurrency,
                "tpot" => Field::Tpot,
                "tok" => Field::Tokens,
                "rank" => Field::Objective,
                "pv" => Field::Provider,
                "price" => Field::Price,
                _ => Field::Added,
            };
            if !bad.contains(&field) {
                bad.push(field);
            }
        }
    }
    if !objective_fits(s.mode, s.objective) {
        s.objective = default_objective(s.mode);
    }
    (s, bad)
}

/// A number as typed: no trailing `.0`.
fn plain(v: f64) -> String {
    let t = format!("{v}");
    t.strip_suffix(".0").map(str::to_owned).unwrap_or(t)
}

/// The query for `s` (every field, so a link keeps the whole workload).
pub fn encode_state(s: &CloudState) -> String {
    let mut q = format!(
        "m={}&job={}&w={}&ctx={}&n={}&tpot={}&tok={}&rank={}&pv={}",
        s.model,
        mode_code(s.mode),
        s.weights.name(),
        s.context,
        s.batch,
        s.tpot_ms.map_or_else(|| "none".to_owned(), plain),
        plain(s.tokens_b),
        objective_code(s.objective),
        s.provider.map_or("all", |p| p).to_ascii_lowercase(),
    );
    if !s.prices.is_empty() {
        let items: Vec<String> = s.prices.iter().map(|(k, p)| format!("{k}~{}", plain(*p))).collect();
        let _ = write!(q, "&price={}", items.join(","));
    }
    if !s.added.is_empty() {
        let items: Vec<String> =
            s.added.iter().map(|a| format!("{}~{}~{}~{}", a.name, a.gpu, a.gpus, plain(a.price))).collect();
        let _ = write!(q, "&add={}", items.join(","));
    }
    q
}

/// Applies one control's value (`key` as in the query); `false` when the value is refused.
pub fn set(s: &mut CloudState, key: &str, value: &str) -> bool {
    let mut probe = s.clone();
    let (next, bad) = parse(&format!("{}&{key}={value}", encode_state(&probe)));
    if !bad.is_empty() {
        return false;
    }
    probe = next;
    if key == "job" && !objective_fits(probe.mode, s.objective) {
        probe.objective = default_objective(probe.mode);
    }
    *s = probe;
    true
}

/// Sets the edited price of instance `key` (an empty or invalid value removes the edit).
pub fn set_price(s: &mut CloudState, key: &str, value: &str) {
    s.prices.retain(|(k, _)| k != key);
    if let Some(p) = positive(value.trim()) {
        if instances::all().iter().any(|i| i.key() == key) {
            s.prices.push((key.to_owned(), p));
        }
    }
}

/// The workload as an engine scenario (the layout is chosen per instance).
pub fn scenario(s: &CloudState) -> Scenario {
    let mut sc = Scenario::new(ModelSpec::Id(s.model.clone()));
    sc.mode = s.mode;
    sc.weight_dtype = Some(if s.mode == Mode::Qlora { Dtype::Nf4 } else { s.weights });
    sc.context_tokens = s.context;
    sc.batch = s.batch;
    sc
}

pub fn goal(s: &CloudState) -> Goal {
    Goal {
        objective: s.objective,
        max_tpot_s: if s.mode == Mode::Inference { s.tpot_ms.map(|ms| ms / 1000.0) } else { None },
        training_tokens: s.tokens_b * 1e9,
    }
}

/// Where a row comes from.
#[derive(Clone, Debug, PartialEq)]
pub enum Source {
    Catalog(&'static Instance),
    /// Index into `CloudState::added`.
    Added(usize),
}

/// Why a row cannot be assessed at all.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Skip {
    /// A time-sliced vGPU share.
    Fractional,
    UnknownGpu,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Row {
    pub source: Source,
    pub price: Option<f64>,
    pub edited: bool,
    pub assessment: Result<Assessment, Skip>,
}

impl Row {
    pub fn ranked(&self) -> bool {
        self.assessment.as_ref().is_ok_and(Assessment::ranked)
    }
}

/// Every instance of the chosen provider and the reader's own, assessed and in ranking order.
/// Offers with the same GPU, count and links share one assessment (only the price differs).
pub fn rows(s: &CloudState) -> Vec<Row> {
    let base = scenario(s);
    let g = goal(s);
    let mut cache: Vec<((String, u64, TopologyKind), Assessment)> = Vec::new();
    let mut assess = |gpu: &str, gpus: u64, topology: TopologyKind, price: Option<f64>| {
        let key = (gpu.to_owned(), gpus, topology);
        let found = cache.iter().find(|(k, _)| *k == key).map(|(_, a)| a.clone());
        let unpriced = found.unwrap_or_else(|| {
            let offer = Offer { gpu: gpu.to_owned(), gpus, price_per_hour: None, topology };
            let a = assess_unpriced(&base, &g, &offer, &Catalog);
            cache.push((key, a.clone()));
            a
        });
        apply_price(unpriced, price)
    };
    let mut out = Vec::new();
    for i in instances::all().iter().filter(|i| s.provider.is_none_or(|p| i.provider == p)) {
        let edited = s.prices.iter().find(|(k, _)| k == i.key()).map(|(_, p)| *p);
        let price = edited.or(i.price_usd_per_hour);
        let assessment = match (i.gpu_id(), i.gpu_count) {
            (_, None) => Err(Skip::Fractional),
            (None, _) => Err(Skip::UnknownGpu),
            (Some(id), Some(n)) => Ok(assess(id, u64::from(n), i.topology(), price)),
        };
        out.push(Row { source: Source::Catalog(i), price, edited: edited.is_some(), assessment });
    }
    for (idx, a) in s.added.iter().enumerate() {
        let topology = if a.gpus > 1 && gpus::find(&a.gpu).is_some_and(|g| g.nvlink.is_some()) {
            TopologyKind::Nvswitch
        } else {
            TopologyKind::Pcie
        };
        out.push(Row {
            source: Source::Added(idx),
            price: Some(a.price),
            edited: false,
            assessment: Ok(assess(&a.gpu, a.gpus, topology, Some(a.price))),
        });
    }
    // Rows that cannot be assessed go last, in catalog order.
    let assessed: Vec<Assessment> = out
        .iter()
        .map(|r| r.assessment.clone().unwrap_or(Assessment { choice: None, problems: Vec::new() }))
        .collect();
    let order = ranking(&assessed, s.objective);
    let mut sorted: Vec<Row> = order.iter().filter_map(|&i| out.get(i).cloned()).collect();
    let skipped = |r: &Row| r.assessment.is_err();
    let (mut keep, rest): (Vec<Row>, Vec<Row>) = sorted.drain(..).partition(|r| !skipped(r));
    keep.extend(rest);
    keep
}

pub(crate) fn money(v: f64) -> String {
    if !v.is_finite() {
        "—".to_owned()
    } else if v >= 100.0 {
        format!("${}", group_digits(crate::engine::num::u64_from_f64(v.round())))
    } else if v >= 1.0 {
        format!("${v:.2}")
    } else {
        format!("${v:.3}")
    }
}

fn tp_text(lang: Lang, s: &CloudState, c: &Choice) -> String {
    let t = lang.cloud();
    let each = if s.mode == Mode::Inference { t.requests_each } else { t.micro_batch_each };
    format!("{}{} · {}{} · {each}{}", t.tp, c.tensor_parallel, t.replicas, c.replicas, c.batch)
}

fn duration(lang: Lang, hours: f64) -> String {
    let t = lang.cloud();
    let (h, m) = hours_minutes(hours);
    if h == 0 {
        format!("{m}{}", t.minutes)
    } else {
        format!("{}{} {m}{}", group_digits(h), t.hours, t.minutes)
    }
}

fn problem_text(lang: Lang, p: &Problem) -> String {
    let t = lang.cloud();
    match p {
        Problem::DoesNotFit { needed_bytes, usable_bytes, .. } => format!(
            "{}{}{}{}{}",
            t.does_not_fit.0,
            format_bytes(*needed_bytes, ByteUnit::Gb),
            t.does_not_fit.1,
            format_bytes(*usable_bytes, ByteUnit::Gb),
            t.does_not_fit.2
        ),
        Problem::MissesLatency { tpot_s, target_s } => format!(
            "{}{}{}{}{}",
            t.misses_latency.0,
            format_seconds(*tpot_s),
            t.misses_latency.1,
            format_seconds(*target_s),
            t.misses_latency.2
        ),
        Problem::NoPrice => t.greyed_no_price.to_owned(),
        Problem::Engine(crate::engine::error::EngineError::Invalid(e)) => {
            format!("{}{}", t.engine_error, crate::i18n::errors::scenario_error(e, lang))
        }
    }
}

/// The repair notice for the fields a URL had wrong (empty when none).
pub fn notice_html(lang: Lang, fields: &[Field]) -> String {
    let t = lang.cloud();
    let f = &t.field_names;
    let mut out = String::new();
    for field in fields {
        let name = match field {
            Field::Model => f.model,
            Field::Mode => f.mode,
            Field::Weights => f.weights,
            Field::Context => f.context,
            Field::Concurrency => f.concurrency,
            Field::Tpot => f.tpot,
            Field::Tokens => f.tokens,
            Field::Objective => f.objective,
            Field::Provider => f.provider,
            Field::Price => f.price,
            Field::Added => f.added,
        };
        let _ = write!(out, "<li>{}{}{}</li>", esc(t.repaired.0), esc(name), esc(t.repaired.1));
    }
    if out.is_empty() {
        out
    } else {
        format!("<ul class=\"notices\" role=\"status\">{out}</ul>")
    }
}

fn option(out: &mut String, value: &str, label: &str, selected: bool) {
    let sel = if selected { " selected" } else { "" };
    let _ = write!(out, "<option value=\"{}\"{sel}>{}</option>", esc(value), esc(label));
}

fn labelled(out: &mut String, id: &str, label: &str, field: &str, hidden_when: Option<&str>) {
    let hide = hidden_when.map(|h| format!(" data-only=\"{h}\"")).unwrap_or_default();
    let _ =
        write!(out, "<div class=\"control\"{hide}><label for=\"{id}\">{}</label>{field}</div>", esc(label));
}

/// The workload controls (static: the page updates their state, not their markup). `prefix`
/// keeps ids unique when a chapter and an embed both show the tool.
pub fn controls_html(lang: Lang, s: &CloudState, prefix: &str) -> String {
    let t = lang.cloud();
    let mut out = String::with_capacity(4096);
    let _ = write!(out, "<fieldset class=\"cloud-workload\"><legend>{}</legend>", esc(t.workload));
    let mut sel = String::new();
    for m in catalog::models::all() {
        option(&mut sel, &m.model.id, &m.model.name, m.model.id == s.model);
    }
    let id = format!("{prefix}-m");
    labelled(&mut out, &id, t.model, &format!("<select id=\"{id}\" data-k=\"m\">{sel}</select>"), None);
    let mut sel = String::new();
    for ((m, code), label) in MODES.iter().zip(t.modes) {
        option(&mut sel, code, label, *m == s.mode);
    }
    let id = format!("{prefix}-job");
    labelled(&mut out, &id, t.mode, &format!("<select id=\"{id}\" data-k=\"job\">{sel}</select>"), None);
    let mut sel = String::new();
    for d in WEIGHTS {
        option(&mut sel, d.name(), &d.name().to_ascii_uppercase(), d == s.weights);
    }
    let id = format!("{prefix}-w");
    labelled(
        &mut out,
        &id,
        t.weights,
        &format!("<select id=\"{id}\" data-k=\"w\">{sel}</select>"),
        Some("noqlora"),
    );
    let number = |key: &str, value: String, min: &str, max: &str, step: &str| {
        format!(
            "<input id=\"{prefix}-{key}\" data-k=\"{key}\" type=\"number\" inputmode=\"decimal\" min=\"{min}\" max=\"{max}\" step=\"{step}\" value=\"{}\">",
            esc(&value)
        )
    };
    labelled(
        &mut out,
        &format!("{prefix}-ctx"),
        t.context,
        &number("ctx", s.context.to_string(), "128", "1048576", "1"),
        None,
    );
    labelled(
        &mut out,
        &format!("{prefix}-n"),
        t.concurrency,
        &number("n", s.batch.to_string(), "1", "4096", "1"),
        Some("serve"),
    );
    // The same field for training reads "micro-batch": a second label shown for training jobs.
    let _ = write!(
        out,
        "<p class=\"hint\" data-only=\"train\">{}</p>",
        esc(&format!("{} = {}", t.micro_batch, t.concurrency))
    );
    let tpot = s.tpot_ms.map_or_else(String::new, plain);
    let field = format!(
        "{}<span class=\"hint\">{}</span>",
        number("tpot", tpot, "0.1", "10000", "any")
            .replace(" value=", &format!(" placeholder=\"{}\" value=", esc(t.no_target))),
        esc(t.no_target_hint)
    );
    labelled(&mut out, &format!("{prefix}-tpot"), t.tpot_target, &field, Some("serve"));
    labelled(
        &mut out,
        &format!("{prefix}-tok"),
        t.training_tokens,
        &number("tok", plain(s.tokens_b), "0.001", "1000000", "any"),
        Some("train"),
    );
    let mut sel = String::new();
    for ((o, code), label) in OBJECTIVES.iter().zip(t.objectives) {
        option(&mut sel, code, label, *o == s.objective);
    }
    let id = format!("{prefix}-rank");
    labelled(&mut out, &id, t.rank_by, &format!("<select id=\"{id}\" data-k=\"rank\">{sel}</select>"), None);
    let mut sel = String::new();
    option(&mut sel, "all", t.all_providers, s.provider.is_none());
    for p in PROVIDERS {
        option(&mut sel, &p.to_ascii_lowercase(), p, s.provider == Some(p));
    }
    let id = format!("{prefix}-pv");
    labelled(&mut out, &id, t.provider, &format!("<select id=\"{id}\" data-k=\"pv\">{sel}</select>"), None);
    out.push_str("</fieldset>");
    out
}

/// The "add your own instance" form (static).
pub fn add_form_html(lang: Lang, prefix: &str) -> String {
    let t = lang.cloud();
    let mut gpus_sel = String::new();
    for g in gpus::all() {
        option(&mut gpus_sel, &g.id, &g.name, g.id == "h100-sxm");
    }
    format!(
        "<details class=\"cloud-add\"><summary>{h}</summary><div class=\"cloud-add-grid\">\
         <div class=\"control\"><label for=\"{prefix}-an\">{n}</label><input id=\"{prefix}-an\" data-add=\"name\" type=\"text\" maxlength=\"40\" placeholder=\"my-quote\"></div>\
         <div class=\"control\"><label for=\"{prefix}-ag\">{g}</label><select id=\"{prefix}-ag\" data-add=\"gpu\">{gpus_sel}</select></div>\
         <div class=\"control\"><label for=\"{prefix}-ac\">{c}</label><input id=\"{prefix}-ac\" data-add=\"count\" type=\"number\" min=\"1\" max=\"64\" step=\"1\" value=\"8\"></div>\
         <div class=\"control\"><label for=\"{prefix}-ap\">{p}</label><input id=\"{prefix}-ap\" data-add=\"price\" type=\"number\" min=\"0\" step=\"any\" inputmode=\"decimal\"></div>\
         </div><button type=\"button\" data-action=\"add\">{b}</button><p class=\"field-error\" data-add-error hidden>{e}</p></details>",
        h = esc(t.add_heading),
        n = esc(t.add_name),
        g = esc(t.add_gpu),
        c = esc(t.add_count),
        p = esc(t.add_price),
        b = esc(t.add_button),
        e = esc(t.add_invalid),
    )
}

/// Adds an instance from the form's values, when they are valid.
pub fn add(s: &mut CloudState, name: &str, gpu: &str, count: &str, price: &str) -> bool {
    let name = name.trim();
    let Some(gpus) = count.trim().parse::<u64>().ok().filter(|n| (1..=64).contains(n)) else { return false };
    let Some(price) = positive(price.trim()) else { return false };
    if !valid_name(name) || gpus::find(gpu).is_none() || s.added.len() >= MAX_ADDED {
        return false;
    }
    s.added.retain(|a| a.name != name);
    s.added.push(Added { name: name.to_owned(), gpu: gpu.to_owned(), gpus, price });
    true
}

fn links_cell(lang: Lang, i: &Instance) -> String {
    let t = lang.cloud();
    // The GPU's NVLink bandwidth, as " 900 GB/s", where the catalog has it.
    let nvlink = || {
        i.gpu_id()
            .and_then(gpus::find)
            .and_then(|g| g.nvlink.as_ref().map(|n| n.bidirectional_bytes_per_s))
            .map(|bw| format!(" {}", format_rate(bw, "B/s")))
            .unwrap_or_default()
    };
    let inside = match (i.gpu_count, i.topology()) {
        (Some(1), _) | (None, _) => t.single_gpu.to_owned(),
        (_, TopologyKind::Pcie) => "PCIe".to_owned(),
        (_, TopologyKind::NvlinkBridge) => format!("{}{}", t.nvlink_bridge, nvlink()),
        _ => format!("NVLink / NVSwitch{}", nvlink()),
    };
    let between =
        i.inter_node_network_gbps.map_or_else(|| t.not_listed.to_owned(), |g| format!("{} Gbps", plain(g)));
    let colon = lang.colon();
    format!("{}{colon}{} · {}{colon}{}", esc(t.inside), esc(&inside), esc(t.between), esc(&between))
}

fn host_cell(lang: Lang, i: &Instance) -> String {
    let t = lang.cloud();
    let cpu = i.vcpus.map_or_else(|| t.not_listed.to_owned(), |v| format!("{v} {}", t.vcpu));
    let ram = match (i.ram_gb, &i.ram_unit) {
        (Some(r), Some(u)) => format!("{} {u}", plain(r)),
        (Some(r), None) => format!("{} GB", plain(r)),
        (None, _) => t.not_listed.to_owned(),
    };
    format!("{} · {}", esc(&cpu), esc(&ram))
}

/// Tokens per second in the page's unit: "1.56k token/s".
fn tok_rate(lang: Lang, v: f64) -> String {
    format!("{} {}", format_si(v), lang.est().tok_s)
}

fn speed_cell(lang: Lang, s: &CloudState, c: &Choice) -> String {
    let t = lang.cloud();
    match c.tpot_s {
        Some(tpot) => format!(
            "{}<br><span class=\"hint\">{} {} · {}</span>",
            esc(&tok_rate(lang, c.tokens_per_s)),
            esc(&format_seconds(tpot)),
            esc(t.tpot),
            esc(&format!("{} {}", tok_rate(lang, 1.0 / tpot.max(1e-12)), t.per_user)),
        ),
        None => {
            let run = c.run_hours.map(|h| {
                format!("<br><span class=\"hint\">{}: {}</span>", esc(t.run_time), esc(&duration(lang, h)))
            });
            let _ = s;
            format!(
                "{} {}{}",
                esc(t.train_speed),
                esc(&tok_rate(lang, c.tokens_per_s)),
                run.unwrap_or_default()
            )
        }
    }
}

fn cost_cell(lang: Lang, s: &CloudState, c: &Choice) -> String {
    let t = lang.cloud();
    let main = match s.objective {
        Objective::PerHour => c.cost_per_hour.map(|v| format!("{} {}", money(v), t.per_hour)),
        Objective::PerMillionTokens => {
            c.cost_per_million_tokens.map(|v| format!("{} {}", money(v), t.per_m_tokens))
        }
        Objective::PerRun => c.cost_per_run.map(|v| format!("{} {}", money(v), t.per_run)),
    };
    main.map(|m| format!("<strong>{}</strong>", esc(&m))).unwrap_or_default()
}

fn price_cell(lang: Lang, row: &Row, i: Option<&Instance>, prefix: &str) -> String {
    let t = lang.cloud();
    let mut out = match row.price {
        Some(p) => format!("{}/h", money(p)),
        None => t.no_price.to_owned(),
    };
    let mut out_html = esc(&out);
    if let Some(i) = i {
        if row.edited {
            let _ = write!(out_html, " <span class=\"badge\">{}</span>", esc(t.edited));
        } else if let Some(r) = &i.price_region {
            let date = i.price_date.as_deref().and_then(iso_date).unwrap_or(t.undated);
            let _ =
                write!(out_html, "<br><span class=\"hint\"><code>{}</code> · {}</span>", esc(r), esc(date));
        }
        let id = format!("{prefix}-p-{}", i.key());
        let value = row.price.map(plain).unwrap_or_default();
        out.clear();
        let _ = write!(
            out_html,
            "<br><label class=\"visually-hidden\" for=\"{id}\">{} <code>{}</code></label><input id=\"{id}\" class=\"price-edit\" type=\"number\" min=\"0\" step=\"any\" inputmode=\"decimal\" data-price=\"{}\" value=\"{}\" title=\"{}\">",
            esc(t.edit_price),
            esc(&i.instance),
            esc(i.key()),
            esc(&value),
            esc(t.edit_price)
        );
    }
    out_html
}

/// The ranked table, the count of fitting instances and the top choice's math.
pub fn results_html(lang: Lang, s: &CloudState, rows: &[Row], prefix: &str) -> String {
    let t = lang.cloud();
    let mut out = String::with_capacity(32 * 1024);
    let fitting = rows.iter().filter(|r| r.ranked()).count();
    let _ = write!(
        out,
        "<h2>{}</h2><p class=\"cloud-count\">{}{}{}{}{}</p>",
        esc(t.results_heading),
        esc(t.fit_count.0),
        fitting,
        esc(t.fit_count.1),
        rows.len(),
        esc(t.fit_count.2)
    );
    if fitting == 0 && rows.iter().all(|r| r.assessment.as_ref().map_or(true, |a| a.choice.is_none())) {
        let _ = write!(out, "<p class=\"verdict bad\">{}</p>", esc(t.nothing_fits));
    }
    let _ = write!(
        out,
        "<div class=\"table-scroll\"><table class=\"cloud-table\"><thead><tr><th>#</th><th>{}</th><th>{}</th><th>{}</th><th>{}</th><th>{}</th><th>{}</th></tr></thead><tbody>",
        esc(t.col_instance),
        esc(t.col_gpus),
        esc(t.col_price),
        esc(t.col_layout),
        esc(t.col_speed),
        esc(t.col_cost)
    );
    let mut rank = 0;
    for row in rows {
        let ranked = row.ranked();
        if ranked {
            rank += 1;
        }
        let (name, provider, gpus_text, host, links, instance) = match &row.source {
            Source::Catalog(i) => (
                i.instance.clone(),
                i.provider.clone(),
                gpu_cell(lang, &i.gpu_count_text, &i.gpu_model, i.gpu_id()),
                host_cell(lang, i),
                links_cell(lang, i),
                Some(*i),
            ),
            Source::Added(idx) => {
                let Some(a) = s.added.get(*idx) else { continue };
                let gpu_name = gpus::find(&a.gpu).map_or(a.gpu.clone(), |g| g.name.clone());
                (
                    a.name.clone(),
                    t.yours.to_owned(),
                    gpu_cell(lang, &a.gpus.to_string(), &gpu_name, Some(a.gpu.as_str())),
                    esc(t.not_listed),
                    esc(t.not_listed),
                    None,
                )
            }
        };
        let class = if ranked { "" } else { " class=\"greyed\"" };
        let key = match &row.source {
            Source::Catalog(i) => i.key().to_owned(),
            Source::Added(idx) => format!("added-{idx}"),
        };
        let _ = write!(
            out,
            "<tr{class} data-row=\"{}\"><td>{}</td><td><strong><code>{}</code></strong><br><span class=\"hint\">{}</span>",
            esc(&key),
            if ranked { rank.to_string() } else { "—".to_owned() },
            esc(&name),
            esc(&provider)
        );
        let _ = write!(out, "<br><span class=\"hint\">{host}</span><br><span class=\"hint\">{links}</span>");
        if let Source::Added(idx) = &row.source {
            let _ = write!(
                out,
                " <button type=\"button\" class=\"link-button\" data-remove=\"{idx}\">{}</button>",
                esc(t.remove)
            );
        }
        if let Some(i) = instance {
            // The catalog's own words (English, as the sources give them), marked as source text.
            let _ = write!(
                out,
                "<details class=\"cloud-source\"><summary>{}</summary><div data-source>",
                esc(t.source)
            );
            let _ = write!(out, "<p>{}</p>", esc(&i.intra_node_interconnect));
            for extra in [&i.network_type, &i.local_nvme].into_iter().flatten() {
                let _ = write!(out, "<p>{}</p>", esc(extra));
            }
            // The catalog's notes are research notes, not for a reader: only the source line and
            // its date are shown.
            let _ = write!(out, "<p>{}</p></div>", esc(&i.source));
            out.push_str("</details>");
        }
        let _ = write!(out, "</td><td>{gpus_text}</td><td>{}</td>", price_cell(lang, row, instance, prefix));
        match &row.assessment {
            Ok(a) => {
                match &a.choice {
                    Some(c) => {
                        let _ = write!(
                            out,
                            "<td>{}</td><td>{}</td>",
                            esc(&tp_text(lang, s, c)),
                            speed_cell(lang, s, c)
                        );
                    }
                    None => out.push_str("<td></td><td></td>"),
                }
                let reasons: Vec<String> = a.problems.iter().map(|p| esc(&problem_text(lang, p))).collect();
                let cost = a.choice.as_ref().map(|c| cost_cell(lang, s, c)).unwrap_or_default();
                let why = if reasons.is_empty() {
                    String::new()
                } else {
                    format!("<p class=\"cloud-why\">{}</p>", reasons.join("<br>"))
                };
                let _ = write!(out, "<td>{cost}{why}</td>");
            }
            Err(skip) => {
                let why = match skip {
                    Skip::Fractional => t.fractional,
                    Skip::UnknownGpu => t.unknown_gpu,
                };
                let _ = write!(out, "<td></td><td></td><td><p class=\"cloud-why\">{}</p></td>", esc(why));
            }
        }
        out.push_str("</tr>");
    }
    out.push_str("</tbody></table></div>");
    if let Some(top) = rows.first().filter(|r| r.ranked()) {
        out.push_str(&math_html(lang, s, top, prefix));
    }
    let _ = write!(
        out,
        "<p class=\"hint\">{}</p><p class=\"hint\">{}</p>",
        esc(t.prices_note),
        esc(t.one_instance_note)
    );
    out
}

/// The first `YYYY-MM-DD` in a source's date text.
fn iso_date(text: &str) -> Option<&str> {
    let b = text.as_bytes();
    (0..b.len().saturating_sub(9)).find_map(|i| {
        let w = text.get(i..i + 10)?;
        let ok =
            w.bytes().enumerate().all(|(j, c)| if j == 4 || j == 7 { c == b'-' } else { c.is_ascii_digit() });
        ok.then_some(w)
    })
}

fn gpu_cell(lang: Lang, count: &str, model: &str, gpu_id: Option<&str>) -> String {
    let t = lang.cloud();
    let mem = gpu_id
        .and_then(gpus::find)
        .map(|g| {
            format!(
                "<br><span class=\"hint\">{} {}</span>",
                esc(&format_bytes(g.memory_bytes, ByteUnit::Gb)),
                esc(t.per_gpu)
            )
        })
        .unwrap_or_default();
    match gpu_id.and_then(gpus::find) {
        Some(g) => format!("{} × {}{mem}", esc(count), esc(&g.name)),
        None => format!("{} × <span data-source>{}</span>{mem}", esc(count), esc(model)),
    }
}

/// The top choice's numbers as formulas with their values, and a link to the estimator.
fn math_html(lang: Lang, s: &CloudState, row: &Row, prefix: &str) -> String {
    let t = lang.cloud();
    let Ok(a) = &row.assessment else { return String::new() };
    let Some(c) = &a.choice else { return String::new() };
    let mut out = format!("<div class=\"math cloud-math\"><h3>{}</h3>", esc(t.math_heading));
    let price = c.cost_per_hour.unwrap_or(0.0);
    match c.tpot_s {
        Some(tpot) => {
            let _ = write!(
                out,
                "<p><code>{}</code><br><code>= {} × {} ÷ {} = {}</code></p>",
                esc(t.math_speed),
                c.replicas,
                c.batch,
                esc(&format_seconds(tpot)),
                esc(&tok_rate(lang, c.tokens_per_s))
            );
            if let Some(m) = c.cost_per_million_tokens {
                let _ = write!(
                    out,
                    "<p><code>{}</code><br><code>= {} ÷ ({} × 3600) × 10⁶ = {}</code></p>",
                    esc(t.math_cost_m),
                    esc(&money(price)),
                    esc(&group_digits(crate::engine::num::u64_from_f64(c.tokens_per_s.round()))),
                    esc(&money(m))
                );
            }
        }
        None => {
            if let (Some(h), Some(run)) = (c.run_hours, c.cost_per_run) {
                let _ = write!(
                    out,
                    "<p><code>{}</code><br><code>= {} ÷ {} ÷ 3600 × {} = {} ({})</code></p>",
                    esc(t.math_cost_run),
                    esc(&group_digits(crate::engine::num::u64_from_f64(s.tokens_b * 1e9))),
                    esc(&tok_rate(lang, c.tokens_per_s)),
                    esc(&money(price)),
                    esc(&money(run)),
                    esc(&duration(lang, h))
                );
            }
        }
    }
    // The same workload on this instance's GPUs, as the estimator would take it.
    let gpu = match &row.source {
        Source::Catalog(i) => i.gpu_id().map(str::to_owned),
        Source::Added(idx) => s.added.get(*idx).map(|a| a.gpu.clone()),
    };
    if let Some(gpu) = gpu {
        let offer = Offer {
            gpu,
            gpus: c.tensor_parallel * c.replicas,
            price_per_hour: c.cost_per_hour,
            topology: match &row.source {
                Source::Catalog(i) => i.topology(),
                Source::Added(_) => TopologyKind::Nvswitch,
            },
        };
        let (sc, _) = layout_scenario(&scenario(s), &offer, c.tensor_parallel);
        let state = EstimatorState {
            scenario: Scenario { gpu: GpuSpec::Id(offer.gpu.clone()), ..sc },
            ..Default::default()
        };
        let _ = write!(
            out,
            "<p><a id=\"{prefix}-open-estimator\" href=\"#/{}/estimate?{}\">{}</a></p>",
            lang.code(),
            esc(&encode(&state)),
            esc(t.open_estimator)
        );
    }
    out.push_str("</div>");
    out
}

/// The article's points beside the ranking.
pub fn beyond_html(lang: Lang) -> String {
    let t = lang.cloud();
    let mut out = format!("<section class=\"cloud-beyond\"><h2>{}</h2><dl>", esc(t.beyond_heading));
    for (title, text) in t.beyond {
        let _ = write!(out, "<dt>{}</dt><dd>{}</dd>", esc(title), esc(text));
    }
    out.push_str("</dl></section>");
    out
}

/// Whether `s`'s job is a training job (for the controls shown).
pub fn trains(s: &CloudState) -> bool {
    is_training(&scenario(s))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_default_round_trips_and_every_preset_parses() {
        let s = CloudState::default();
        assert_eq!(parse(&encode_state(&s)), (s.clone(), vec![]));
        for name in ["8b-chat", "70b-chat", "8b-lora"] {
            let p = preset(name).unwrap();
            assert_eq!(parse(&format!("preset={name}")).0, p);
            assert_eq!(parse(&encode_state(&p)).0, p);
        }
    }

    #[test]
    fn chapter_widgets_name_existing_presets() {
        let mut seen = 0;
        for c in crate::content::chapters() {
            for page in [&c.zh, &c.en] {
                for seg in page.segments {
                    if let crate::content::Segment::Widget(w) = seg {
                        if let Some(p) = w.strip_prefix("cloud:") {
                            assert!(preset(p).is_some(), "{}: {w}", c.slug);
                            seen += 1;
                        }
                    }
                }
            }
        }
        assert_eq!(seen, 2, "chapter 9 places the selector in both languages");
    }

    #[test]
    fn edits_and_added_instances_round_trip() {
        let mut s = CloudState::default();
        set_price(&mut s, "p5.48xlarge", "40.5");
        assert!(add(&mut s, "my-quote", "h100-sxm", "8", "30"));
        assert!(!add(&mut s, "bad name!", "h100-sxm", "8", "30"));
        assert!(!add(&mut s, "zero", "h100-sxm", "8", "0"));
        assert!(!add(&mut s, "nogpu", "h100-sxm", "0", "3"));
        assert!(set(&mut s, "pv", "aws"));
        assert!(set(&mut s, "job", "lora"));
        assert_eq!(s.objective, Objective::PerRun, "serving's objective does not rank training");
        let (back, bad) = parse(&encode_state(&s));
        assert!(bad.is_empty());
        assert_eq!(back, s);
    }

    #[test]
    fn each_bad_field_is_reset_and_named() {
        let cases = [
            ("m=nope", Field::Model),
            ("job=sing", Field::Mode),
            ("w=fp4", Field::Weights),
            ("ctx=-5", Field::Context),
            ("n=NaN", Field::Concurrency),
            ("n=0", Field::Concurrency),
            ("tpot=-1", Field::Tpot),
            ("tok=inf", Field::Tokens),
            ("rank=cheap", Field::Objective),
            ("pv=oracle", Field::Provider),
            ("price=p5.48xlarge~0", Field::Price),
            ("price=nosuch~3", Field::Price),
            ("add=x~h100-sxm~8", Field::Added),
            ("add=%3Cb%3E~h100-sxm~8~3", Field::Added),
        ];
        for (q, field) in cases {
            let (s, bad) = parse(&format!("ctx=8192&{q}"));
            assert_eq!(bad, vec![field], "{q}");
            if field != Field::Context {
                assert_eq!(s.context, 8192, "{q}: other fields are kept");
            }
        }
        assert!(notice_html(Lang::Zh, &[Field::Tpot]).contains("延迟目标"));
        assert_eq!(notice_html(Lang::En, &[]), "");
    }

    #[test]
    fn rows_rank_fitting_priced_instances_first_and_explain_the_rest() {
        let s = CloudState::default();
        let rows = rows(&s);
        assert_eq!(rows.len(), instances::all().len());
        let first_greyed = rows.iter().position(|r| !r.ranked()).unwrap();
        assert!(first_greyed > 5, "{first_greyed} instances rank");
        assert!(rows[first_greyed..].iter().all(|r| !r.ranked()), "the greyed rows come last");
        let costs: Vec<f64> = rows[..first_greyed]
            .iter()
            .map(|r| r.assessment.as_ref().unwrap().cost(Objective::PerMillionTokens).unwrap())
            .collect();
        assert!(costs.windows(2).all(|w| w[0] <= w[1]), "{costs:?}");
        let html = results_html(Lang::En, &s, &rows, "c");
        assert!(!html.contains("NaN") && !html.contains(">inf") && !html.contains(" inf "), "{html}");
        assert!(html.contains("No dated price"));
        assert!(html.contains("vGPU"));
        let zh = results_html(Lang::Zh, &s, &rows, "c");
        assert!(zh.contains("实例排名") && zh.contains("没有带日期的价格"));
    }

    #[test]
    fn a_70b_model_is_greyed_on_single_l4s_with_its_memory() {
        let s = preset("70b-chat").unwrap();
        let rows = rows(&s);
        let l4 = rows
            .iter()
            .find(|r| matches!(r.source, Source::Catalog(i) if i.instance == "g6.2xlarge"))
            .unwrap();
        assert!(!l4.ranked());
        let html = results_html(Lang::En, &s, std::slice::from_ref(l4), "c");
        assert!(html.contains("Does not fit: needs "), "{html}");
    }

    #[test]
    fn an_edited_price_reorders_and_an_added_instance_ranks() {
        let mut s = CloudState { objective: Objective::PerHour, ..CloudState::default() };
        let cheapest = |s: &CloudState| match &rows(s)[0].source {
            Source::Catalog(i) => i.key().to_owned(),
            Source::Added(i) => format!("added-{i}"),
        };
        let before = cheapest(&s);
        assert!(add(&mut s, "cheap-box", "h100-sxm", "1", "0.05"));
        assert_eq!(cheapest(&s), "added-0");
        s.added.clear();
        set_price(&mut s, "p5.48xlarge", "0.01");
        assert_eq!(cheapest(&s), "p5.48xlarge");
        assert_ne!(before, "p5.48xlarge");
    }

    #[test]
    fn dates_are_read_from_source_text() {
        assert_eq!(iso_date("2026-11-09 (snapshot retrieved_at)"), Some("2026-11-09"));
        assert_eq!(iso_date("undated (skypilot-catalog v8 commit 00148f2)"), None);
        assert_eq!(iso_date(""), None);
    }

    #[test]
    fn training_ranks_by_the_run() {
        let s = preset("8b-lora").unwrap();
        let rows = rows(&s);
        let top = rows[0].assessment.as_ref().unwrap().choice.clone().unwrap();
        assert!(top.cost_per_run.unwrap() > 0.0 && top.run_hours.unwrap() > 0.0);
        let html = results_html(Lang::En, &s, &rows, "c");
        assert!(html.contains("per run"));
    }
}
