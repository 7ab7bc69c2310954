//! A team's own catalog beside the embedded one: its GPUs and its prices per GPU-hour, read from
//! a JSON file (`gpu-primer site DIST --catalog team.json`, see `docs/site.md`), checked entry by
//! entry, and installed once before the catalog is first read, so that every tool lists the
//! team's GPUs by name and prices them at the team's rate.
//!
//! The file:
//! ```json
//! { "name": "Example Lab", "source": "Example Lab infrastructure team, inventory of 2026-11-30",
//!   "retrieved": "2026-11-30",
//!   "gpus": [ { "id": "lab-l40s-48", "name": "Lab L40S 48 GB", "memory_bytes": 48e9,
//!               "memory_bandwidth_bytes_per_s": 864e9, "peak_flops": { "bf16": 362e12 } } ],
//!   "prices": [ { "gpu": "lab-l40s-48", "usd_per_gpu_hour": 0.9 } ] }
//! ```
//! A GPU is read by [`Gpu::from_json`], the reader of a custom GPU given inline in a scenario,
//! and checked by [`Gpu::validate`]; a GPU without its own `source` or `retrieved` takes the
//! file's. Every problem is reported with the entry and field it is in ([`TeamError`]).
//!
//! The site writes the file's text into each page (`<script type="application/json"
//! id="team-catalog">`), and the app installs it at start ([`install_text`]), so it works at any
//! sub-path and in the offline file alike.

use super::json::Obj;
use crate::engine::gpu::Gpu;
use serde_json::Value;
use std::fmt;
use std::sync::OnceLock;

/// The id of the page element that carries the team catalog's JSON.
pub const ELEMENT_ID: &str = "team-catalog";

/// A team's catalog, read and checked.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Team {
    /// The team's name as the file gives it (may be empty).
    pub name: String,
    /// Where the file's figures come from, as the file states it.
    pub source: String,
    /// When they were read (ISO 8601, may be empty).
    pub retrieved: String,
    /// The team's GPUs, ids distinct from the embedded catalog's.
    pub gpus: Vec<Gpu>,
    /// (GPU id, USD per GPU-hour, source): the team's price for a GPU of either catalog.
    pub prices: Vec<(String, f64, String)>,
}

/// One problem in a team catalog: where (`gpus[1] 'lab-a100'.memory_bytes`) and what.
#[derive(Clone, Debug, PartialEq)]
pub struct TeamError {
    pub place: String,
    pub problem: String,
}

impl fmt::Display for TeamError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.place, self.problem)
    }
}

const FILE_FIELDS: [&str; 5] = ["name", "source", "retrieved", "gpus", "prices"];
const PRICE_FIELDS: [&str; 3] = ["gpu", "usd_per_gpu_hour", "source"];
/// A price above this is taken for a mistake (per GPU-hour, not per instance-month).
const MAX_USD_PER_GPU_HOUR: f64 = 1000.0;
const MAX_ID_LEN: usize = 64;

/// Reads a team catalog from its JSON text, checking it against the embedded GPU ids
/// (`embedded_ids`). Every problem found is returned, each naming its entry and field.
pub fn read(text: &str, embedded_ids: &[&str]) -> Result<Team, Vec<TeamError>> {
    let mut errors = Vec::new();
    let mut err = |place: String, problem: String| errors.push(TeamError { place, problem });
    let value: Value = match serde_json::from_str(text) {
        Ok(v) => v,
        Err(e) => {
            err(
                "the file".into(),
                format!("is not valid JSON (line {}, column {}): {e}", e.line(), e.column()),
            );
            return Err(errors);
        }
    };
    let Some(file) = value.as_object() else {
        err("the file".into(), "must be a JSON object with 'source', 'gpus' and 'prices'".into());
        return Err(errors);
    };
    for key in file.keys().filter(|k| !FILE_FIELDS.contains(&k.as_str())) {
        err(key.clone(), format!("unknown field (known: {})", FILE_FIELDS.join(", ")));
    }
    let obj = Obj::of(&value);
    let text_field = |key: &str, err: &mut dyn FnMut(String, String)| match obj.and_then(|o| o.opt_text(key))
    {
        Some(t) => t.unwrap_or_default().trim().to_owned(),
        None => {
            err(key.into(), "must be a string".into());
            String::new()
        }
    };
    let mut team = Team {
        name: text_field("name", &mut err),
        source: text_field("source", &mut err),
        retrieved: text_field("retrieved", &mut err),
        ..Team::default()
    };
    if team.source.is_empty() && file.get("source").is_none_or(Value::is_string) {
        err("source".into(), "is required: say where the figures come from".into());
    }
    let entries = |key: &str, err: &mut dyn FnMut(String, String)| -> &[Value] {
        match file.get(key) {
            None | Some(Value::Null) => &[],
            Some(Value::Array(items)) => items,
            Some(_) => {
                err(key.into(), "must be a list".into());
                &[]
            }
        }
    };
    for (i, v) in entries("gpus", &mut err).iter().enumerate() {
        if let Some(g) = read_gpu(i, v, &team, embedded_ids, &mut err) {
            team.gpus.push(g);
        }
    }
    for (i, v) in entries("prices", &mut err).iter().enumerate() {
        if let Some(p) = read_price(i, v, &team, embedded_ids, &mut err) {
            team.prices.push(p);
        }
    }
    if team.gpus.is_empty() && team.prices.is_empty() && errors.is_empty() {
        errors.push(TeamError { place: "the file".into(), problem: "lists no GPUs and no prices".into() });
    }
    if errors.is_empty() {
        Ok(team)
    } else {
        Err(errors)
    }
}

/// Whether `id` may name a GPU in a URL, a menu and a JSON file: 1 to 64 of `a-z 0-9 - . _`.
fn id_is_plain(id: &str) -> bool {
    !id.is_empty()
        && id.len() <= MAX_ID_LEN
        && id.bytes().all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b"-._".contains(&b))
}

fn read_gpu(
    i: usize,
    v: &Value,
    team: &Team,
    embedded_ids: &[&str],
    err: &mut dyn FnMut(String, String),
) -> Option<Gpu> {
    let id = v.get("id").and_then(Value::as_str).unwrap_or_default();
    let place = if id.is_empty() { format!("gpus[{i}]") } else { format!("gpus[{i}] '{id}'") };
    let Some(entry) = v.as_object() else {
        err(place, "must be a JSON object (a GPU as `gpu-primer list gpus --json` prints one)".into());
        return None;
    };
    let mut g = match Gpu::from_json(v) {
        Ok(g) => g,
        Err(kind) => {
            // The reader stops at the first bad field without naming it: read each field alone
            // to find which one it is.
            let unknown = matches!(kind, crate::engine::error::ErrorKind::UnknownKey { .. });
            let field = entry
                .iter()
                .filter(|_| !unknown)
                .find(|(k, x)| {
                    Gpu::from_json(&Value::Object([((*k).clone(), (*x).clone())].into_iter().collect()))
                        .is_err()
                })
                .map_or_else(String::new, |(k, _)| format!(".{k}"));
            err(format!("{place}{field}"), kind.to_string());
            return None;
        }
    };
    let before = (team.gpus.iter().any(|t| t.id == id), embedded_ids.contains(&id));
    let id_problem = match (entry.get("id"), before) {
        (None, _) => Some("is required (the GPU's id in menus and links, e.g. \"lab-a100-80gb\")".to_owned()),
        _ if !id_is_plain(id) => Some("must be 1 to 64 of a-z, 0-9, '-', '.', '_'".to_owned()),
        _ if id == "custom" => Some("'custom' is the estimator's own; pick another".to_owned()),
        (_, (true, _)) => Some("is given twice in this file".to_owned()),
        (_, (_, true)) => Some("is already a GPU of the standard catalog; pick another id".to_owned()),
        _ => None,
    };
    let mut ok = true;
    if let Some(problem) = id_problem {
        err(format!("{place}.id"), problem);
        ok = false;
    }
    if g.name.trim().is_empty() || !entry.contains_key("name") {
        err(format!("{place}.name"), "is required (the name the menus show)".into());
        ok = false;
    }
    for e in g.validate() {
        err(format!("{place}.{}", e.field), e.kind.to_string());
        ok = false;
    }
    if let Some(key) = g.mig.profiles.as_deref().filter(|k| super::mig::find(k).is_none()) {
        err(format!("{place}.mig.profiles"), format!("no MIG profile table '{key}' in the catalog"));
        ok = false;
    }
    if !entry.contains_key("source") {
        g.source.clone_from(&team.source);
    }
    if !entry.contains_key("retrieved") {
        g.retrieved.clone_from(&team.retrieved);
    }
    ok.then_some(g)
}

fn read_price(
    i: usize,
    v: &Value,
    team: &Team,
    embedded_ids: &[&str],
    err: &mut dyn FnMut(String, String),
) -> Option<(String, f64, String)> {
    let place = format!("prices[{i}]");
    let Some(o) = Obj::of(v) else {
        err(place, "must be a JSON object {\"gpu\": ID, \"usd_per_gpu_hour\": NUMBER}".into());
        return None;
    };
    if let Some(key) = v.as_object()?.keys().find(|k| !PRICE_FIELDS.contains(&k.as_str())) {
        err(format!("{place}.{key}"), format!("unknown field (known: {})", PRICE_FIELDS.join(", ")));
        return None;
    }
    let Some(gpu) = o.text("gpu") else {
        err(format!("{place}.gpu"), "is required: a GPU id of this file or of the standard catalog".into());
        return None;
    };
    let known = embedded_ids.contains(&gpu.as_str()) || team.gpus.iter().any(|g| g.id == gpu);
    if !known {
        err(format!("{place}.gpu"), format!("no GPU '{gpu}' in this file or the standard catalog"));
        return None;
    }
    if team.prices.iter().any(|(id, _, _)| *id == gpu) {
        err(format!("{place}.gpu"), format!("'{gpu}' is priced twice"));
        return None;
    }
    let usd = o.req("usd_per_gpu_hour", Value::as_f64).filter(|p| *p > 0.0 && *p <= MAX_USD_PER_GPU_HOUR);
    let Some(usd) = usd else {
        err(
            format!("{place}.usd_per_gpu_hour"),
            format!("must be a number of US dollars per GPU-hour in (0, {MAX_USD_PER_GPU_HOUR}]"),
        );
        return None;
    };
    let Some(source) = o.opt_text("source") else {
        err(format!("{place}.source"), "must be a string".into());
        return None;
    };
    Some((gpu, usd, source.filter(|s| !s.trim().is_empty()).unwrap_or_else(|| team.source.clone())))
}

static TEAM: OnceLock<Team> = OnceLock::new();

/// The installed team catalog, if any.
pub fn get() -> Option<&'static Team> {
    TEAM.get()
}

/// Whether `id` is one of the team's GPUs.
pub fn is_team_gpu(id: &str) -> bool {
    get().is_some_and(|t| t.gpus.iter().any(|g| g.id == id))
}

/// Installs `team` for the rest of the program. Refused (false) when a team catalog is already
/// installed or the GPU catalog was already read without it.
pub fn install(team: Team) -> bool {
    !super::gpus::is_loaded() && TEAM.set(team).is_ok()
}

/// Reads and installs a team catalog from its JSON text; what [`read`] found wrong otherwise.
pub fn install_text(text: &str) -> Result<(), Vec<TeamError>> {
    let embedded = super::gpus::embedded();
    let ids: Vec<&str> = embedded.iter().map(|g| g.id.as_str()).collect();
    let team = read(text, &ids)?;
    if install(team) {
        Ok(())
    } else {
        Err(vec![TeamError {
            place: "the team catalog".into(),
            problem: "came after the catalog was first read".into(),
        }])
    }
}

/// `text` made safe inside a `<script>` element: `</` written as `<\/`, which JSON reads back
/// as the same string.
pub fn script_safe(text: &str) -> String {
    text.replace("</", "<\\/")
}

#[cfg(test)]
#[path = "team_tests.rs"]
mod tests;
