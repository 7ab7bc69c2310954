//! Exercises that check: every chapter's exercises as data, with keys computed by the engine.
//!
//! An exercise is a number or a choice. A number's key is never typed: it is a [`Calc`], an
//! engine computation (a `Scenario` and a path into its `Report`, or a named engine function
//! such as the roofline's attainable FLOP/s or a collective's time), scaled to the unit the
//! question asks for. The page computes the key with the same engine that the tests run
//! (`tests/exercises.rs` recomputes every key and every number in the worked solutions), so a
//! chapter cannot carry a wrong answer. A choice's key is typed and reviewed.
//!
//! Texts are data next to the computation, one file per chapter in `data/`, both languages side
//! by side. A chapter places an exercise with a line `{{exercise:ID}}` in its markdown (the
//! build checks that zh and en place the same ids in the same order). In a worked solution,
//! `{key}` is the key, `{r:PATH:SCALE:DECIMALS}` another number of the same scenario's report
//! and `{x:ID}` the key of another exercise, all filled from the engine when the page is drawn.

mod data;

use crate::engine::gpu::ComputeDtype;
use crate::engine::perf::collectives::{collective_time, Algorithm, Collective, Link};
use crate::engine::perf::roofline::{attainable_flops, compute_time, gpu_ridge_point, memory_time};
use crate::engine::Scenario;
use crate::i18n::Lang;
use serde_json::Value;

/// One language's words for an exercise.
#[derive(Debug)]
pub struct Text {
    pub question: &'static str,
    /// The unit shown next to the input (numbers); empty for choices.
    pub unit: &'static str,
    /// Labels of the options, in the order of [`Answer::Choice`]'s values (choices only).
    pub options: &'static [&'static str],
    /// Shown after a wrong try.
    pub hint: &'static str,
    /// The worked solution; `{key}`, `{r:PATH:SCALE:DECIMALS}` and `{x:ID}` are filled from the engine.
    pub solution: &'static str,
}

/// An engine computation that gives a number.
#[derive(Debug, Clone, Copy)]
pub enum Calc {
    /// The number at `path` (dots between keys, digits index arrays) in the report of a
    /// scenario (JSON, only the fields that differ from the defaults).
    Report { scenario: &'static str, path: &'static str },
    /// The ridge point of a catalog GPU (FLOP/byte), `engine::perf::roofline::gpu_ridge_point`.
    RidgePoint { gpu: &'static str, dtype: ComputeDtype },
    /// Attainable FLOP/s at an intensity on a catalog GPU's roofline,
    /// `engine::perf::roofline::attainable_flops`.
    Attainable { gpu: &'static str, dtype: ComputeDtype, intensity: f64 },
    /// Seconds to move `bytes` at a catalog GPU's peak memory bandwidth,
    /// `engine::perf::roofline::memory_time`.
    MemoryTime { gpu: &'static str, bytes: f64 },
    /// Seconds to run `flops` at a catalog GPU's dense peak for `dtype`,
    /// `engine::perf::roofline::compute_time`.
    ComputeTime { gpu: &'static str, dtype: ComputeDtype, flops: f64 },
    /// Time of a ring all-reduce of `bytes` over `ranks` at a measured bus bandwidth (no
    /// latency), `engine::perf::collectives::collective_time` with efficiency 1.
    AllReduce { bytes: f64, ranks: u32, bus_bytes_per_s: f64 },
}

/// What a correct answer is.
#[derive(Debug, Clone, Copy)]
pub enum Answer {
    /// `calc × scale`, shown with `decimals`; an answer within `tolerance` (relative) is right.
    Number { calc: Calc, scale: f64, decimals: usize, tolerance: f64 },
    /// The values of the options, and the right one (typed and reviewed).
    Choice { values: &'static [&'static str], key: &'static str },
}

/// One exercise.
#[derive(Debug)]
pub struct Exercise {
    /// Stable id, unique across the site (links and saved progress use it).
    pub id: &'static str,
    pub answer: Answer,
    pub zh: Text,
    pub en: Text,
}

impl Exercise {
    pub fn text(&self, lang: Lang) -> &Text {
        match lang {
            Lang::Zh => &self.zh,
            Lang::En => &self.en,
        }
    }

    /// The scenario the worked solution opens in the estimator: the key's own scenario, or for
    /// a key computed on one catalog GPU (roofline, memory or compute time) the default model on
    /// that GPU, whose roofline and bound views show the same peaks. `None` for the rest.
    pub fn scenario(&self) -> Option<Scenario> {
        let Answer::Number { calc, .. } = self.answer else { return None };
        match calc {
            Calc::Report { scenario, .. } => parse_scenario(scenario).ok(),
            Calc::RidgePoint { gpu, .. }
            | Calc::Attainable { gpu, .. }
            | Calc::MemoryTime { gpu, .. }
            | Calc::ComputeTime { gpu, .. } => {
                let mut s = crate::estimator::state::default_scenario();
                s.gpu = crate::engine::hardware::GpuSpec::Id(gpu.to_string());
                Some(s)
            }
            Calc::AllReduce { .. } => None,
        }
    }

    /// The key as a number in the question's unit (numbers only).
    pub fn key_value(&self) -> Result<f64, String> {
        match self.answer {
            Answer::Number { calc, scale, .. } => Ok(compute(&calc)? * scale),
            Answer::Choice { .. } => Err(format!("{}: a choice has no numeric key", self.id)),
        }
    }

    /// The key as a reader would type it: the number with the stated decimals, or the
    /// choice's value.
    pub fn key_text(&self) -> Result<String, String> {
        match self.answer {
            Answer::Number { decimals, .. } => Ok(format_number(self.key_value()?, decimals, false)),
            Answer::Choice { key, .. } => Ok(key.to_string()),
        }
    }

    /// Whether `input` is a right answer. Numbers accept spaces, `,` and `_` as digit
    /// separators and are right within the stated relative tolerance of the key.
    pub fn is_right(&self, input: &str) -> bool {
        match self.answer {
            Answer::Number { tolerance, .. } => {
                let (Some(x), Ok(key)) = (parse_number(input), self.key_value()) else { return false };
                (x - key).abs() <= tolerance * key.abs().max(f64::MIN_POSITIVE)
            }
            Answer::Choice { key, .. } => input == key,
        }
    }

    /// The worked solution in `lang` with its engine numbers filled in.
    pub fn solution(&self, lang: Lang) -> Result<String, String> {
        fill(self, self.text(lang).solution)
    }
}

/// Every exercise of the chapter `slug`, in the order the chapter places them.
pub fn for_chapter(slug: &str) -> &'static [Exercise] {
    data::CHAPTERS.iter().find(|(s, _)| *s == slug).map(|(_, list)| *list).unwrap_or(&[])
}

/// The chapter slugs that have exercises, with their exercises.
pub fn all() -> &'static [(&'static str, &'static [Exercise])] {
    data::CHAPTERS
}

pub fn find(id: &str) -> Option<&'static Exercise> {
    data::CHAPTERS.iter().flat_map(|(_, list)| list.iter()).find(|e| e.id == id)
}

fn parse_scenario(json: &str) -> Result<Scenario, String> {
    let v: Value = serde_json::from_str(json).map_err(|e| format!("scenario JSON: {e}"))?;
    Scenario::from_json(&v).map_err(|e| format!("scenario: {e}"))
}

/// The number at a dotted `path` of a JSON value.
fn lookup(v: &Value, path: &str) -> Option<f64> {
    let mut at = v;
    for part in path.split('.') {
        at = match part.parse::<usize>() {
            Ok(i) => at.get(i)?,
            Err(_) => at.get(part)?,
        };
    }
    at.as_f64()
}

fn report_number(scenario: &str, path: &str) -> Result<f64, String> {
    let s = parse_scenario(scenario)?;
    let report = crate::catalog::evaluate(&s).map_err(|e| format!("engine: {e}"))?;
    let v = serde_json::to_value(&report).map_err(|e| format!("report: {e}"))?;
    lookup(&v, path).ok_or_else(|| format!("report has no number at '{path}'"))
}

fn catalog_gpu(id: &str) -> Result<&'static crate::engine::gpu::Gpu, String> {
    crate::catalog::gpus::find(id).ok_or_else(|| format!("no GPU '{id}' in the catalog"))
}

/// Runs an engine computation.
pub fn compute(calc: &Calc) -> Result<f64, String> {
    match *calc {
        Calc::Report { scenario, path } => report_number(scenario, path),
        Calc::RidgePoint { gpu, dtype } => gpu_ridge_point(catalog_gpu(gpu)?, dtype)
            .map(|r| r.flop_per_byte)
            .ok_or_else(|| format!("{gpu} has no {dtype:?} peak")),
        Calc::Attainable { gpu, dtype, intensity } => {
            let g = catalog_gpu(gpu)?;
            let path = g.compute_path(dtype).ok_or_else(|| format!("{gpu} has no {dtype:?} peak"))?;
            attainable_flops(intensity, path.peak_flops_per_s, g.memory_bandwidth_bytes_per_s)
                .map_err(|e| format!("{e:?}"))
        }
        Calc::MemoryTime { gpu, bytes } => {
            memory_time(bytes, catalog_gpu(gpu)?.memory_bandwidth_bytes_per_s).map_err(|e| format!("{e:?}"))
        }
        Calc::ComputeTime { gpu, dtype, flops } => {
            let path = catalog_gpu(gpu)?
                .compute_path(dtype)
                .ok_or_else(|| format!("{gpu} has no {dtype:?} peak"))?;
            compute_time(flops, path.peak_flops_per_s).map_err(|e| format!("{e:?}"))
        }
        Calc::AllReduce { bytes, ranks, bus_bytes_per_s } => {
            let link = Link { bytes_per_s_per_direction: bus_bytes_per_s, latency_s: 0.0 };
            collective_time(Collective::AllReduce, Algorithm::Ring, bytes, ranks, &link, 1.0)
                .map_err(|e| format!("{e:?}"))
        }
    }
}

/// Fills `{key}`, `{r:PATH:SCALE:DECIMALS}` and `{x:ID}` in a solution text.
fn fill(ex: &Exercise, template: &str) -> Result<String, String> {
    let mut out = String::new();
    let mut rest = template;
    while let Some(start) = rest.find('{') {
        out.push_str(&rest[..start]);
        let after = &rest[start + 1..];
        let end = after.find('}').ok_or_else(|| format!("{}: unclosed '{{' in solution", ex.id))?;
        let field = &after[..end];
        out.push_str(&fill_field(ex, field)?);
        rest = &after[end + 1..];
    }
    out.push_str(rest);
    Ok(out)
}

fn fill_field(ex: &Exercise, field: &str) -> Result<String, String> {
    if field == "key" {
        return match ex.answer {
            Answer::Number { decimals, .. } => Ok(format_number(ex.key_value()?, decimals, true)),
            Answer::Choice { .. } => Err(format!("{}: {{key}} in a choice's solution", ex.id)),
        };
    }
    if let Some(other) = field.strip_prefix("x:") {
        let o = find(other).ok_or_else(|| format!("{}: '{{{field}}}' names no exercise", ex.id))?;
        return match o.answer {
            Answer::Number { decimals, .. } => Ok(format_number(o.key_value()?, decimals, true)),
            Answer::Choice { .. } => Err(format!("{}: '{{{field}}}' names a choice", ex.id)),
        };
    }
    let spec = field.strip_prefix("r:").ok_or_else(|| format!("{}: unknown field '{{{field}}}'", ex.id))?;
    let mut parts = spec.split(':');
    let (Some(path), Some(scale), Some(decimals), None) =
        (parts.next(), parts.next(), parts.next(), parts.next())
    else {
        return Err(format!("{}: '{{{field}}}' is not r:PATH:SCALE:DECIMALS", ex.id));
    };
    let scale: f64 = scale.parse().map_err(|_| format!("{}: bad scale in '{{{field}}}'", ex.id))?;
    let decimals: usize =
        decimals.parse().map_err(|_| format!("{}: bad decimals in '{{{field}}}'", ex.id))?;
    let Answer::Number { calc: Calc::Report { scenario, .. }, .. } = ex.answer else {
        return Err(format!("{}: '{{{field}}}' needs a report-based key", ex.id));
    };
    Ok(format_number(report_number(scenario, path)? * scale, decimals, true))
}

/// `v` with `decimals` decimals; `group` puts a `,` between thousands.
pub fn format_number(v: f64, decimals: usize, group: bool) -> String {
    let s = format!("{v:.decimals$}");
    if !group {
        return s;
    }
    let (sign, s) = s.strip_prefix('-').map_or(("", s.as_str()), |r| ("-", r));
    let (int, frac) = s.split_once('.').map_or((s, None), |(i, f)| (i, Some(f)));
    let mut grouped = String::new();
    for (i, c) in int.chars().enumerate() {
        if i > 0 && (int.len() - i) % 3 == 0 {
            grouped.push(',');
        }
        grouped.push(c);
    }
    match frac {
        Some(f) => format!("{sign}{grouped}.{f}"),
        None => format!("{sign}{grouped}"),
    }
}

/// Parses a typed number: spaces, `,` and `_` between digits are ignored, `，` and `。` too.
pub fn parse_number(input: &str) -> Option<f64> {
    let cleaned: String = input
        .trim()
        .chars()
        .filter(|c| !matches!(c, ' ' | ',' | '_' | '，' | '\u{a0}'))
        .map(|c| if c == '。' { '.' } else { c })
        .collect();
    let x: f64 = cleaned.parse().ok()?;
    x.is_finite().then_some(x)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_format_and_parse() {
        assert_eq!(format_number(1234567.891, 1, true), "1,234,567.9");
        assert_eq!(format_number(-1234.0, 0, true), "-1,234");
        assert_eq!(format_number(12.0, 2, false), "12.00");
        assert_eq!(parse_number(" 1,234.5 "), Some(1234.5));
        assert_eq!(parse_number("34 359"), Some(34359.0));
        assert_eq!(parse_number("abc"), None);
        assert_eq!(parse_number("inf"), None);
    }

    #[test]
    fn lookup_walks_objects_and_arrays() {
        let v: Value = serde_json::json!({"a": {"b": [1.0, {"c": 2.5}]}});
        assert_eq!(lookup(&v, "a.b.1.c"), Some(2.5));
        assert_eq!(lookup(&v, "a.x"), None);
    }
}
