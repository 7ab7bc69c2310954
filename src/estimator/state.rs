//! The estimator's state in a URL hash query, in localStorage, and in a JSON file.
//!
//! Query format (version 1): `v=1&s=<scenario>[&c=<compare scenario>][&u=gib]` where a scenario
//! is the base64url (no padding) of the JSON object of its fields that differ from the defaults
//! (`model` is always present). Short, shareable, and exact: decoding gives the same Scenario.
//!
//! Decoding never fails: a damaged or outdated query opens the nearest valid state, and every
//! field that had to be dropped is reported as a [`Notice`] naming it and saying why.

use crate::catalog::memory_fit;
use crate::engine::error::{classify_serde, ErrorKind, ScenarioError};
use crate::engine::{ModelSpec, Scenario};
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use base64::Engine as _;
use serde_json::{Map, Value};

/// The current version of the query format.
pub const VERSION: u32 = 1;

/// The model a fresh estimator opens with.
pub const DEFAULT_MODEL: &str = "llama-3.1-8b";

pub use crate::charts::format::ByteUnit;

/// Everything the estimator page shows, as one value.
#[derive(Clone, Debug, PartialEq)]
pub struct EstimatorState {
    pub scenario: Scenario,
    /// The second scenario of compare mode.
    pub compare: Option<Scenario>,
    pub unit: ByteUnit,
}

impl Default for EstimatorState {
    fn default() -> Self {
        EstimatorState { scenario: default_scenario(), compare: None, unit: ByteUnit::Gb }
    }
}

/// Something in the input that could not be used, and why (worded by `i18n::errors`).
#[derive(Clone, Debug, PartialEq)]
pub struct Notice {
    /// The field (`context_tokens`, `model.hidden_size`), or `link` / `file` for the whole input.
    pub field: String,
    pub kind: NoticeKind,
}

/// What was kept instead of a value that could not be used.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Kept {
    /// The value kept, as the reader wrote it (JSON text or a string).
    Value(String),
    /// The field's default.
    Default,
}

/// Why a part of a link, a file or saved state was not used.
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub enum NoticeKind {
    /// The engine rejected the value (the error says why).
    Rejected(ErrorKind),
    /// The engine rejected the value; `kept` was kept instead.
    RejectedKept { error: Box<ErrorKind>, kept: Kept },
    /// The value is fine alone but conflicts with another field.
    Conflicts { with: String, error: Box<ErrorKind>, kept: Kept },
    /// The value could not be applied.
    NotApplied { kept: Kept },
    /// A link part this page does not know.
    UnknownPart { part: String },
    /// An unknown byte unit in the link; GB is shown.
    UnknownUnit { unit: String },
    /// The link was made by another version of the page.
    OtherVersion { found: String, current: u32 },
    /// The link has no version.
    NoVersion { current: u32 },
    /// The scenario in the link is not base64url; the defaults were opened.
    NotBase64,
    /// The scenario in the link is not JSON; the defaults were opened.
    Damaged(ErrorKind),
    /// The scenario is not a JSON object; the defaults were opened.
    NotAnObject,
    /// The scenario names no model; `default` is used.
    MissingModel { default: &'static str },
    /// An imported file is not JSON.
    FileNotJson(ErrorKind),
    /// An imported file holds an array or a value, not a scenario object.
    FileNotAnObject,
    /// An imported file names no model.
    FileMissingModel,
    /// An imported file is empty (or only white space).
    FileEmpty,
    /// The value was out of range: the nearest allowed one, `to`, was used instead.
    Clamped { error: Box<ErrorKind>, to: String },
    /// The name of a file that failed to import (shown as is, above its errors).
    FileName { name: String },
}

impl Notice {
    fn new(field: impl Into<String>, kind: NoticeKind) -> Notice {
        Notice { field: field.into(), kind }
    }
}

pub fn default_scenario() -> Scenario {
    Scenario::new(ModelSpec::Id(DEFAULT_MODEL.to_owned()))
}

/// The scenario as JSON with only the fields that differ from the defaults (and `model`).
pub fn compact_value(s: &Scenario) -> Value {
    let full = serde_json::to_value(s).unwrap_or(Value::Null);
    let base = serde_json::to_value(Scenario::new(s.model.clone())).unwrap_or(Value::Null);
    let (Value::Object(full), Value::Object(base)) = (full, base) else {
        return Value::Null;
    };
    let mut out = Map::new();
    for (k, v) in full {
        if k == "model" || base.get(&k) != Some(&v) {
            out.insert(k, v);
        }
    }
    Value::Object(out)
}

fn encode_scenario(s: &Scenario) -> String {
    URL_SAFE_NO_PAD.encode(compact_value(s).to_string())
}

/// The query string for a state (without the leading `?`).
pub fn encode(state: &EstimatorState) -> String {
    let mut q = format!("v={VERSION}&s={}", encode_scenario(&state.scenario));
    if let Some(c) = &state.compare {
        q.push_str("&c=");
        q.push_str(&encode_scenario(c));
    }
    if state.unit == ByteUnit::Gib {
        q.push_str("&u=gib");
    }
    q
}

/// Reads a query string (with or without `?`). Never fails; see the module docs.
pub fn decode(query: &str) -> (EstimatorState, Vec<Notice>) {
    let query = query.strip_prefix('?').unwrap_or(query);
    let mut notices = Vec::new();
    let mut state = EstimatorState::default();
    let mut version = None;
    let mut scenario_text = None;
    let mut compare_text = None;
    for pair in query.split('&').filter(|p| !p.is_empty()) {
        let (key, value) = pair.split_once('=').unwrap_or((pair, ""));
        match key {
            "v" => version = Some(value.to_owned()),
            "s" => scenario_text = Some(value.to_owned()),
            "c" => compare_text = Some(value.to_owned()),
            "u" => match value {
                "gib" => state.unit = ByteUnit::Gib,
                "gb" => state.unit = ByteUnit::Gb,
                other => {
                    notices.push(Notice::new("link", NoticeKind::UnknownUnit { unit: other.to_owned() }))
                }
            },
            other => notices.push(Notice::new("link", NoticeKind::UnknownPart { part: other.to_owned() })),
        }
    }
    match version.as_deref() {
        Some(v) if v == VERSION.to_string() => {}
        Some(v) => notices
            .push(Notice::new("link", NoticeKind::OtherVersion { found: v.to_owned(), current: VERSION })),
        None if scenario_text.is_some() => {
            notices.push(Notice::new("link", NoticeKind::NoVersion { current: VERSION }))
        }
        None => {}
    }
    if let Some(text) = scenario_text {
        let (s, mut n) = scenario_from_text(&text, "link");
        state.scenario = s;
        notices.append(&mut n);
    }
    if let Some(text) = compare_text {
        let (s, n) = scenario_from_text(&text, "link");
        state.compare = Some(s);
        notices.extend(n.into_iter().map(|n| Notice { field: format!("compare.{}", n.field), ..n }));
    }
    (state, notices)
}

fn scenario_from_text(text: &str, whole: &str) -> (Scenario, Vec<Notice>) {
    let bytes = match URL_SAFE_NO_PAD.decode(text.trim_end_matches('=')) {
        Ok(b) => b,
        Err(_) => return (default_scenario(), vec![Notice::new(whole, NoticeKind::NotBase64)]),
    };
    // Text first (invalid UTF-8 becomes U+FFFD, which the JSON parser or the engine then names),
    // so the wasm holds serde_json's string reader only, not a second copy for byte slices.
    match serde_json::from_str::<Value>(&String::from_utf8_lossy(&bytes)) {
        Ok(v) => repair(&v),
        Err(e) => (default_scenario(), vec![Notice::new(whole, NoticeKind::Damaged(classify_serde(&e)))]),
    }
}

/// Whether the engine accepts a scenario value, with the error if not. Asks [`memory_fit`], which
/// accepts exactly what `evaluate` accepts without running the time model: the repair below asks
/// once per field and round.
fn check(v: &Value) -> Result<Scenario, ScenarioError> {
    let s = Scenario::from_json(v)?;
    memory_fit(&s).map_err(|e| {
        let crate::engine::EngineError::Invalid(e) = e;
        e
    })?;
    Ok(s)
}

/// The nearest valid scenario to a JSON value: the whole value when the engine accepts it;
/// otherwise the defaults with each field of the value applied when (and only when) the engine
/// still accepts the result. Fields are retried until none can be added, so fields that only
/// make sense together (gpus=8 with tensor_parallel=8) both survive.
pub fn repair(v: &Value) -> (Scenario, Vec<Notice>) {
    repair_with(v, false)
}

/// A field's value at the nearest end of its range, when the engine refused it for being out of
/// range (`field` may name a nested key, `efficiency.memory_bandwidth`): the value to try
/// instead, as the JSON the field takes (whole numbers stay whole).
fn clamped(kind: &ErrorKind) -> Option<Value> {
    let (min, max, got) = match kind {
        ErrorKind::OutOfRange { min, max, got } => (*min, *max, *got),
        ErrorKind::RateOutOfRange { max, got } if *got > *max => (0.0, *max, *got),
        _ => return None,
    };
    if !(min.is_finite() && max.is_finite() && got.is_finite() && min <= max) {
        return None;
    }
    let to = got.clamp(min, max);
    if to.fract() == 0.0 && (0.0..9.0e15).contains(&to) {
        Some(Value::from(to as u64))
    } else {
        serde_json::Number::from_f64(to).map(Value::Number)
    }
}

/// Sets `path` (`a` or `a.b`) in a scenario object to `v`.
fn set_path(obj: &mut Map<String, Value>, path: &str, v: Value) {
    match path.split_once('.') {
        None => {
            obj.insert(path.to_owned(), v);
        }
        Some((head, rest)) => {
            if let Some(Value::Object(inner)) = obj.get_mut(head) {
                set_path(inner, rest, v);
            }
        }
    }
}

/// [`repair`]; with `clamp`, a value out of its range is set to the nearest allowed one (and the
/// notice says so) instead of the field's default: what an imported file gets.
fn repair_with(v: &Value, clamp: bool) -> (Scenario, Vec<Notice>) {
    if let Ok(s) = check(v) {
        return (s, Vec::new());
    }
    let Value::Object(input) = v else {
        return (default_scenario(), vec![Notice::new("scenario", NoticeKind::NotAnObject)]);
    };
    let mut notices = Vec::new();
    let mut current = match serde_json::to_value(default_scenario()) {
        Ok(Value::Object(m)) => m,
        _ => return (default_scenario(), notices),
    };
    // The model first: everything else is checked against it.
    if let Some(model) = input.get("model") {
        let mut candidate = current.clone();
        candidate.insert("model".into(), model.clone());
        if check(&Value::Object(candidate.clone())).is_ok() {
            current = candidate;
        } else if let Err(n) = check(&serde_json::json!({ "model": model })) {
            let kept = Kept::Value(DEFAULT_MODEL.to_owned());
            notices.push(Notice::new(n.field, NoticeKind::RejectedKept { error: Box::new(n.kind), kept }));
        }
    } else {
        notices.push(Notice::new("model", NoticeKind::MissingModel { default: DEFAULT_MODEL }));
    }
    let mut pending: Vec<(&String, &Value)> = input.iter().filter(|(k, _)| k.as_str() != "model").collect();
    loop {
        let before = pending.len();
        let mut still = Vec::new();
        for (k, val) in pending {
            let mut candidate = current.clone();
            candidate.insert(k.clone(), val.clone());
            if check(&Value::Object(candidate.clone())).is_ok() {
                current = candidate;
            } else {
                still.push((k, val));
            }
        }
        pending = still;
        if pending.is_empty() || pending.len() == before {
            break;
        }
    }
    for (k, val) in pending {
        let mut candidate = current.clone();
        candidate.insert(k.clone(), val.clone());
        let kept = short(current.get(k));
        let error = check(&Value::Object(candidate.clone()));
        if let (true, Err(n)) = (clamp, &error) {
            let own = n.field == *k || n.field.starts_with(&format!("{k}."));
            if let (true, Some(to)) = (own, clamped(&n.kind)) {
                let mut nearer = candidate.clone();
                set_path(&mut nearer, &n.field, to.clone());
                if check(&Value::Object(nearer.clone())).is_ok() {
                    current = nearer;
                    let kind = NoticeKind::Clamped { error: Box::new(n.kind.clone()), to: to.to_string() };
                    notices.push(Notice::new(n.field.clone(), kind));
                    continue;
                }
            }
        }
        let kind = match error {
            Err(n) if n.field == *k || n.field.starts_with(&format!("{k}.")) => {
                NoticeKind::RejectedKept { error: Box::new(n.kind), kept }
            }
            Err(n) => NoticeKind::Conflicts { with: n.field, error: Box::new(n.kind), kept },
            Ok(_) => NoticeKind::NotApplied { kept },
        };
        notices.push(Notice::new(k.clone(), kind));
    }
    let scenario = Scenario::from_json(&Value::Object(current)).unwrap_or_else(|_| default_scenario());
    (scenario, notices)
}

fn short(v: Option<&Value>) -> Kept {
    match v {
        Some(Value::String(s)) => Kept::Value(s.clone()),
        Some(Value::Null) | None => Kept::Default,
        Some(other) => {
            let s = other.to_string();
            if s.chars().count() > 40 {
                Kept::Default
            } else {
                Kept::Value(s)
            }
        }
    }
}

/// Reads an imported JSON file: a scenario object. Errors name what is wrong; a valid file with
/// some unusable fields opens with those fields reset (and says so).
///
/// A file is refused whole only when it is empty, not JSON, not an object or names no model;
/// otherwise each field the engine refuses is repaired as in a link (dropped, named, the
/// default kept), except that a value out of its range is set to the nearest allowed one.
pub fn import_json(text: &str) -> Result<(Scenario, Vec<Notice>), Notice> {
    if text.trim().is_empty() {
        return Err(Notice::new("file", NoticeKind::FileEmpty));
    }
    let v: Value = serde_json::from_str(text)
        .map_err(|e| Notice::new("file", NoticeKind::FileNotJson(classify_serde(&e))))?;
    let Value::Object(obj) = &v else {
        return Err(Notice::new("file", NoticeKind::FileNotAnObject));
    };
    if !obj.contains_key("model") {
        return Err(Notice::new("model", NoticeKind::FileMissingModel));
    }
    Ok(repair_with(&v, true))
}

/// The scenario as a pretty JSON file (every field, so the file documents itself).
pub fn export_json(s: &Scenario) -> String {
    serde_json::to_string_pretty(s).unwrap_or_else(|_| "{}".to_owned())
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn scenario(v: Value) -> Scenario {
        Scenario::from_json(&v).unwrap()
    }

    #[test]
    fn round_trip_is_exact_and_compact() {
        let s = scenario(
            json!({"model": "llama-3.1-70b", "context_tokens": 32768, "batch": 8, "gpus": 8, "tensor_parallel": 8}),
        );
        let state =
            EstimatorState { scenario: s.clone(), compare: Some(default_scenario()), unit: ByteUnit::Gib };
        let q = encode(&state);
        assert!(q.starts_with("v=1&s="), "{q}");
        assert!(q.len() < 200, "compact: {q}");
        let (back, notices) = decode(&q);
        assert_eq!(notices, vec![]);
        assert_eq!(back, state);
        assert_eq!(compact_value(&default_scenario()), json!({"model": DEFAULT_MODEL}));
    }

    #[test]
    fn inline_configs_survive_the_url() {
        let cfg = json!({"model_type": "llama", "hidden_size": 2048, "intermediate_size": 8192, "num_hidden_layers": 16,
            "num_attention_heads": 32, "num_key_value_heads": 8, "vocab_size": 128256, "tie_word_embeddings": true});
        let s = scenario(json!({"model": cfg}));
        let (back, notices) = decode(&encode(&EstimatorState { scenario: s.clone(), ..Default::default() }));
        assert_eq!(notices, vec![]);
        assert_eq!(back.scenario, s);
    }

    #[test]
    fn empty_query_is_the_default_without_notices() {
        assert_eq!(decode(""), (EstimatorState::default(), vec![]));
        assert_eq!(decode("?"), (EstimatorState::default(), vec![]));
    }

    #[test]
    fn garbage_opens_defaults_with_a_notice() {
        for q in ["v=1&s=%%%", "v=1&s=!!!!", "v=1&s=bm90IGpzb24", "s=W10", "v=1&s=", "v=1&s=e30"] {
            let (state, notices) = decode(q);
            assert_eq!(state.scenario.model, default_scenario().model, "{q}");
            assert!(!notices.is_empty(), "{q} must say what was wrong");
        }
    }

    #[test]
    fn bad_fields_are_dropped_one_by_one_and_named() {
        // context too long, unknown GPU, good batch; tensor_parallel needs gpus, given later in order.
        let v = json!({"model": "llama-3.1-8b", "context_tokens": 0, "gpu": "tpu-v9", "batch": 4,
            "tensor_parallel": 2, "gpus": 2});
        let (s, notices) = repair(&v);
        assert_eq!(s.batch, 4);
        assert_eq!((s.gpus, s.tensor_parallel), (2, 2), "fields that need each other both survive");
        assert_eq!(s.context_tokens, 4096);
        let fields: Vec<&str> = notices.iter().map(|n| n.field.as_str()).collect();
        assert_eq!(fields, vec!["context_tokens", "gpu"]);
        assert!(
            matches!(
                &notices[0].kind,
                NoticeKind::RejectedKept { error, .. } if matches!(**error, ErrorKind::OutOfRange { min: 1.0, .. })
            ),
            "{:?}",
            notices[0]
        );
    }

    #[test]
    fn arrival_rate_travels_in_the_link_and_a_bad_one_is_named() {
        let s = scenario(json!({"model": "llama-3.1-8b", "arrival_rate_per_s": 2.5}));
        let state = EstimatorState { scenario: s, compare: None, unit: ByteUnit::Gb };
        let (back, notices) = decode(&encode(&state));
        assert_eq!(notices, vec![]);
        assert_eq!(back.scenario.arrival_rate_per_s, Some(2.5));
        for bad in [json!(-3), json!("fast"), json!(1e9)] {
            let (s, notices) =
                repair(&json!({"model": "llama-3.1-8b", "batch": 8, "arrival_rate_per_s": bad}));
            assert_eq!((s.arrival_rate_per_s, s.batch), (None, 8));
            let fields: Vec<&str> = notices.iter().map(|n| n.field.as_str()).collect();
            assert_eq!(fields, vec!["arrival_rate_per_s"]);
        }
    }

    #[test]
    fn prefix_reuse_travels_in_the_link_and_bad_values_are_named() {
        let v = json!({"model": "llama-3.1-8b", "prompt_tokens": 2000, "output_tokens": 200,
            "prefix_shared_tokens": 1500, "prefix_hit_rate": 0.6});
        let s = scenario(v);
        let state = EstimatorState { scenario: s, compare: None, unit: ByteUnit::Gb };
        let (back, notices) = decode(&encode(&state));
        assert!(notices.is_empty());
        assert_eq!((back.scenario.prefix_shared_tokens, back.scenario.prefix_hit_rate), (1500, Some(0.6)));
        // A prefix longer than the prompt (4096-token context less 256 generated), a hit rate
        // past 1 and a session of 0 turns: each dropped and named, the rest kept.
        let (s, notices) = repair(&json!({"model": "llama-3.1-8b", "prefix_shared_tokens": 5000,
            "prefix_hit_rate": 1.5, "session_turn_tokens": 100, "batch": 4}));
        let fields: Vec<&str> = notices.iter().map(|n| n.field.as_str()).collect();
        assert_eq!(
            (s.prefix_shared_tokens, s.prefix_hit_rate, s.session_turn_tokens, s.batch),
            (0, None, 0, 4)
        );
        assert_eq!(fields, ["prefix_hit_rate", "prefix_shared_tokens", "session_turn_tokens"]);
    }

    #[test]
    fn kv_tiers_travel_in_the_link_and_bad_values_are_named_or_clamped() {
        let v = json!({"model": "llama-3.1-8b", "prefix_hit_rate": 0.9, "prefix_open_sessions": 200,
            "kv_gpu_cache_bytes": 0, "kv_cpu_tier_bytes": 100_000_000_000u64, "kv_cpu_tier_bytes_per_s": 25e9,
            "kv_ssd_tier_bytes": 2_000_000_000_000u64, "kv_ssd_tier_bytes_per_s": 5e9});
        let s = scenario(v);
        let state = EstimatorState { scenario: s, compare: None, unit: ByteUnit::Gb };
        let (back, notices) = decode(&encode(&state));
        assert_eq!(notices, vec![]);
        assert_eq!(back, state);
        let b = &back.scenario;
        assert_eq!(
            (b.prefix_open_sessions, b.kv_gpu_cache_bytes, b.kv_ssd_tier_bytes_per_s),
            (200, Some(0), Some(5e9))
        );
        // In a link: sessions past the engine's 100,000,000, a negative CPU tier, a mangled SSD
        // size and a read rate below 1 MB/s are each dropped and named; the rest is kept.
        let (s, notices) = repair(&json!({"model": "llama-3.1-8b", "prefix_open_sessions": 200_000_000u64,
            "kv_cpu_tier_bytes": -5, "kv_ssd_tier_bytes": "lots", "kv_ssd_tier_bytes_per_s": 10.0,
            "kv_cpu_tier_bytes_per_s": 30e9, "batch": 4}));
        let mut fields: Vec<&str> = notices.iter().map(|n| n.field.as_str()).collect();
        fields.sort_unstable();
        assert_eq!(
            (s.prefix_open_sessions, s.kv_cpu_tier_bytes, s.kv_ssd_tier_bytes, s.kv_ssd_tier_bytes_per_s),
            (0, 0, 0, None)
        );
        assert_eq!((s.kv_cpu_tier_bytes_per_s, s.batch), (Some(30e9), 4));
        assert_eq!(
            fields,
            ["kv_cpu_tier_bytes", "kv_ssd_tier_bytes", "kv_ssd_tier_bytes_per_s", "prefix_open_sessions"]
        );
        // An imported file's out-of-range numbers are set to the nearest allowed value instead.
        let (s, notices) = import_json(
            r#"{"model": "llama-3.1-8b", "prefix_open_sessions": 200000000, "kv_ssd_tier_bytes_per_s": 10}"#,
        )
        .unwrap();
        assert_eq!((s.prefix_open_sessions, s.kv_ssd_tier_bytes_per_s), (100_000_000, Some(1e6)));
        assert!(notices.iter().all(|n| matches!(n.kind, NoticeKind::Clamped { .. })), "{notices:?}");
        for lang in crate::i18n::Lang::ALL {
            for n in &notices {
                let item = crate::i18n::errors::notice_item_html(n, lang);
                let label = crate::i18n::errors::field_label(&n.field, lang).unwrap_or_default();
                assert!(!label.is_empty() && item.contains(label), "{item}");
            }
        }
    }

    #[test]
    fn speculation_travels_in_the_link_and_bad_values_are_named() {
        let v = json!({"model": "llama-3.1-8b", "speculative_method": "eagle3", "speculative_draft_tokens": 3,
            "speculative_acceptance_rate": 0.7});
        let s = scenario(v);
        let state = EstimatorState { scenario: s, compare: None, unit: ByteUnit::Gb };
        let (back, notices) = decode(&encode(&state));
        assert!(notices.is_empty());
        let b = &back.scenario;
        assert_eq!(
            (b.speculative_method, b.speculative_draft_tokens, b.speculative_acceptance_rate),
            (Some(crate::engine::workload::SpecMethod::Eagle3), Some(3), Some(0.7))
        );
        // An acceptance rate of 1, per-position rates that rise and 40 draft tokens: each dropped
        // and named, the method and the rest kept.
        let (s, notices) = repair(&json!({"model": "llama-3.1-8b", "speculative_method": "ngram",
            "speculative_acceptance_rate": 1.0, "speculative_acceptance": [0.5, 0.7],
            "speculative_draft_tokens": 40, "batch": 4}));
        let mut fields: Vec<&str> = notices.iter().map(|n| n.field.as_str()).collect();
        fields.sort_unstable();
        assert_eq!(s.speculative_method, Some(crate::engine::workload::SpecMethod::Ngram));
        assert_eq!((s.speculative_acceptance_rate, s.speculative_draft_tokens, s.batch), (None, None, 4));
        assert_eq!(
            fields,
            ["speculative_acceptance", "speculative_acceptance_rate", "speculative_draft_tokens"]
        );
    }

    #[test]
    fn training_precision_and_fused_optimizer_travel_in_the_link() {
        let s = scenario(json!({"model": "llama-3.1-8b", "mode": "lora", "training_precision": "bf16",
            "optimizer_in_backward": true, "optimizer": "adam_8bit"}));
        let state = EstimatorState { scenario: s, compare: None, unit: ByteUnit::Gb };
        let (back, notices) = decode(&encode(&state));
        assert_eq!(notices, vec![]);
        assert_eq!(back, state);
        // A mangled precision is dropped, named, and the rest is kept.
        let (s, notices) = repair(&json!({"model": "llama-3.1-8b", "mode": "training",
            "training_precision": "fp12", "optimizer_in_backward": true}));
        assert_eq!(s.training_precision, default_scenario().training_precision);
        assert!(s.optimizer_in_backward);
        let fields: Vec<&str> = notices.iter().map(|n| n.field.as_str()).collect();
        assert_eq!(fields, vec!["training_precision"]);
    }

    #[test]
    fn recipe_fields_travel_in_the_link() {
        let s = scenario(json!({"model": "llama-3.1-8b", "mode": "training", "loss_chunks": 8,
            "activation_offload": true, "optimizer": "paged_adamw_8bit",
            "efficiency": {"request_overhead_s": 0.04, "fp8_tensor_flops": 0.6}}));
        let state = EstimatorState { scenario: s, compare: None, unit: ByteUnit::Gb };
        let (back, notices) = decode(&encode(&state));
        assert_eq!(notices, vec![]);
        assert_eq!(back, state);
        // A negative chunk count is dropped and named; the rest is kept.
        let (s, notices) = repair(&json!({"model": "llama-3.1-8b", "mode": "training", "loss_chunks": -3,
            "activation_offload": true}));
        assert_eq!(s.loss_chunks, 0);
        assert!(s.activation_offload);
        let fields: Vec<&str> = notices.iter().map(|n| n.field.as_str()).collect();
        assert_eq!(fields, vec!["loss_chunks"]);
    }

    #[test]
    fn unknown_model_keeps_the_default_model_and_other_fields() {
        let (s, notices) = repair(&json!({"model": "no-such-model", "batch": 3}));
        assert_eq!(s.model, default_scenario().model);
        assert_eq!(s.batch, 3);
        assert_eq!(notices[0].field, "model");
    }

    #[test]
    fn other_versions_are_read_with_a_notice() {
        let q = encode(&EstimatorState::default()).replace("v=1", "v=0");
        let (state, notices) = decode(&q);
        assert_eq!(state, EstimatorState::default());
        assert_eq!(notices.len(), 1);
        assert!(matches!(&notices[0].kind, NoticeKind::OtherVersion { found, current: 1 } if found == "0"));
    }

    #[test]
    fn import_reports_broken_files_precisely() {
        assert_eq!(import_json("{").unwrap_err().field, "file");
        assert_eq!(import_json("[1,2]").unwrap_err().field, "file");
        assert_eq!(import_json("{\"batch\": 2}").unwrap_err().field, "model");
        assert_eq!(import_json(" ").unwrap_err().kind, NoticeKind::FileEmpty);
        // A bad field is repaired, as in a link, and named; the rest of the file is kept.
        let (s, notices) =
            import_json("{\"model\": \"qwen2.5-7b\", \"batch\": \"many\", \"gpus\": 2}").unwrap();
        assert_eq!((s.batch, s.gpus), (1, 2));
        assert_eq!(notices.iter().map(|n| n.field.as_str()).collect::<Vec<_>>(), ["batch"]);
        let (s, notices) =
            import_json(&export_json(&scenario(json!({"model": "qwen2.5-7b", "batch": 16})))).unwrap();
        assert_eq!((s.batch, notices.len()), (16, 0));
    }
}
