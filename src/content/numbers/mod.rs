//! Numbers in a chapter's prose, computed at build time: a chapter writes a placeholder where
//! it states a number the engine or the catalog gives, and the prerenderer fills it in both
//! languages from the same computation, so prose cannot drift from the calculators.
//!
//! - `{r:SCENARIO:PATH:SCALE:DECIMALS}`: the number at `PATH` in the report of a named scenario
//!   ([`SCENARIOS`], one table per group of chapters), times `SCALE`, with `DECIMALS` decimals.
//!   `PATH` is the report's JSON path as `gpu-primer estimate` prints it (`phases.decode.bytes`).
//! - `{g:GPU:FIELD:SCALE:DECIMALS}`: a field of a catalog GPU (`memory_bandwidth_bytes_per_s`,
//!   `peak_flops.bf16`, `memory_bytes`, `sm_count`, `l2_bytes`, `tdp_w`, …), each with its source
//!   and date in the catalog.
//! - `{f:ridge:GPU:DTYPE:DECIMALS}`: the ridge point (FLOP/byte) of a catalog GPU for a dtype.
//! - `{f:attainable:GPU:DTYPE:INTENSITY:SCALE:DECIMALS}`: attainable FLOP/s at an intensity.
//! - `{f:memory_time:GPU:BYTES:SCALE:DECIMALS}`, `{f:compute_time:GPU:DTYPE:FLOPS:SCALE:DECIMALS}`:
//!   the roofline's two times on a catalog GPU's peaks.
//! - `{f:allreduce:BYTES:RANKS:BUS_BYTES_PER_S:SCALE:DECIMALS}`: a ring all-reduce's time.
//! - `{x:ID}`: the key of an exercise, as its card shows it.
//! - `{m:EXPR:SCALE:DECIMALS}`: the product and quotient of an example's own numbers
//!   (`{m:8×2000×150e3:1e-9:1}` GB: eight GPUs × 2,000 images/s × 150 KB), so that a worked
//!   example's result follows its inputs.
//! - `{n:TEXT}`: a number a worked example chooses as its input (`{n:4} MB` copied at each step),
//!   written as it is: neither computed nor a fact to source, and marked so
//!   (`tests/prose_numbers.rs` checks that every other number with a unit is computed or sourced).
//!
//! Numbers are written with `,` between thousands, as the worked solutions are.

mod ch01_03;
mod ch04_06;
mod ch07_09;
mod ch10_12;
mod ch13_15;

use crate::engine::precision::compute::ComputeDtype;
use crate::exercises::{self, format_number, Calc};

const TABLES: [&[(&str, &str)]; 5] =
    [ch01_03::SCENARIOS, ch04_06::SCENARIOS, ch07_09::SCENARIOS, ch10_12::SCENARIOS, ch13_15::SCENARIOS];

/// Named scenarios for `{r:…}` (JSON: the fields that differ from the defaults).
pub fn scenario(name: &str) -> Option<&'static str> {
    TABLES.iter().flat_map(|t| t.iter()).find(|(n, _)| *n == name).map(|(_, json)| *json)
}

/// Every scenario name, for tests (names are unique across the tables).
pub fn scenario_names() -> Vec<&'static str> {
    TABLES.iter().flat_map(|t| t.iter().map(|(n, _)| *n)).collect()
}

/// `html` with every placeholder filled, or what is wrong with the first one that cannot be.
/// A `{` that does not open a placeholder (`{r:`, `{g:`, `{f:`, `{x:`, `{n:`, `{m:`) is left as it is.
pub fn fill(html: &str) -> Result<String, String> {
    let mut out = String::with_capacity(html.len());
    let mut rest = html;
    while let Some(start) = find_placeholder(rest) {
        out.push_str(&rest[..start]);
        let after = &rest[start + 1..];
        let end =
            after.find('}').ok_or_else(|| format!("unclosed placeholder at '{}'", head(&rest[start..])))?;
        out.push_str(&value(&after[..end])?);
        rest = &after[end + 1..];
    }
    out.push_str(rest);
    Ok(out)
}

/// A chapter's prose as its pages show it: [`fill`]ed, or as written where a placeholder cannot
/// be (which [`check_chapters`] reports first: the site's build stops on it).
pub fn prose(html: &str) -> String {
    fill(html).unwrap_or_else(|_| html.to_string())
}

/// Whether every placeholder of every chapter, in both languages, fills; else what is wrong
/// where.
pub fn check_chapters() -> Result<(), String> {
    for chapter in super::chapters() {
        for lang in crate::i18n::Lang::ALL {
            for segment in chapter.page(lang).segments {
                if let super::Segment::Html(html) = segment {
                    fill(html).map_err(|e| format!("{}/{}: {e}", lang.code(), chapter.slug))?;
                }
            }
        }
    }
    Ok(())
}

/// How each placeholder opens (`render.rs`, which the build script compiles apart, keeps the
/// same list so that glossary links skip placeholders).
pub const OPENINGS: [&str; 6] = ["{r:", "{g:", "{f:", "{x:", "{n:", "{m:"];

/// Where the next placeholder starts in `s`.
fn find_placeholder(s: &str) -> Option<usize> {
    let mut from = 0;
    while let Some(i) = s[from..].find('{').map(|i| from + i) {
        if OPENINGS.iter().any(|p| s[i..].starts_with(p)) {
            return Some(i);
        }
        from = i + 1;
    }
    None
}

fn head(s: &str) -> &str {
    s.char_indices().nth(40).map_or(s, |(i, _)| &s[..i])
}

/// The text of one placeholder (without its braces).
pub fn value(field: &str) -> Result<String, String> {
    let bad = |what: &str| format!("'{{{field}}}': {what}");
    let parts: Vec<&str> = field.split(':').collect();
    let num = |s: &str| s.parse::<f64>().map_err(|_| bad(&format!("'{s}' is not a number")));
    let dec = |s: &str| s.parse::<usize>().map_err(|_| bad(&format!("'{s}' is not a count of decimals")));
    let dtype = |s: &str| dtype(s).ok_or_else(|| bad(&format!("'{s}' is not a dtype")));
    let shown = |calc: Calc, scale: &str, decimals: &str| -> Result<String, String> {
        let v = exercises::compute(&calc).map_err(|e| bad(&e))? * num(scale)?;
        finite(v, dec(decimals)?).ok_or_else(|| bad("not a finite number"))
    };
    let gpu = |id: &str| -> Result<&'static str, String> {
        crate::catalog::gpus::find(id).map(|g| g.id.as_str()).ok_or_else(|| bad(&format!("no GPU '{id}'")))
    };
    match parts.as_slice() {
        ["r", name, path, scale, decimals] => {
            let scenario = scenario(name).ok_or_else(|| bad(&format!("no scenario '{name}'")))?;
            shown(Calc::Report { scenario, path: leak(path) }, scale, decimals)
        }
        ["g", id, path, scale, decimals] => {
            let g = crate::catalog::gpus::find(id).ok_or_else(|| bad(&format!("no GPU '{id}'")))?;
            let json = serde_json::to_value(g).map_err(|e| bad(&e.to_string()))?;
            let v = path.split('.').try_fold(&json, |v, key| v.get(key)).and_then(serde_json::Value::as_f64);
            let v = v.ok_or_else(|| bad(&format!("{id} has no number at '{path}'")))? * num(scale)?;
            finite(v, dec(decimals)?).ok_or_else(|| bad("not a finite number"))
        }
        ["f", "ridge", g, d, decimals] => {
            shown(Calc::RidgePoint { gpu: gpu(g)?, dtype: dtype(d)? }, "1", decimals)
        }
        ["f", "attainable", g, d, i, scale, decimals] => {
            shown(Calc::Attainable { gpu: gpu(g)?, dtype: dtype(d)?, intensity: num(i)? }, scale, decimals)
        }
        ["f", "memory_time", g, bytes, scale, decimals] => {
            shown(Calc::MemoryTime { gpu: gpu(g)?, bytes: num(bytes)? }, scale, decimals)
        }
        ["f", "compute_time", g, d, flops, scale, decimals] => {
            shown(Calc::ComputeTime { gpu: gpu(g)?, dtype: dtype(d)?, flops: num(flops)? }, scale, decimals)
        }
        ["f", "allreduce", bytes, ranks, bw, scale, decimals] => {
            let ranks = ranks.parse().map_err(|_| bad(&format!("'{ranks}' is not a count of GPUs")))?;
            shown(Calc::AllReduce { bytes: num(bytes)?, ranks, bus_bytes_per_s: num(bw)? }, scale, decimals)
        }
        ["n", ..] => Ok(field["n:".len()..].to_string()),
        ["m", expr, scale, decimals] => {
            let v = arithmetic(expr).ok_or_else(|| bad("not numbers joined by × and /"))? * num(scale)?;
            finite(v, dec(decimals)?).ok_or_else(|| bad("not a finite number"))
        }
        ["x", id] => {
            let e = exercises::find(id).ok_or_else(|| bad(&format!("no exercise '{id}'")))?;
            e.key_text_grouped().map_err(|err| bad(&err))
        }
        _ => Err(bad("not a known placeholder (see content::numbers)")),
    }
}

/// `a×b/c…` evaluated left to right, or `None` unless it is numbers joined by `×` and `/`
/// (not `*`, which markdown reads as emphasis).
fn arithmetic(expr: &str) -> Option<f64> {
    let mut value = 1.0;
    let mut op = '×';
    let mut rest = expr;
    loop {
        let end = rest.find(['×', '/']).unwrap_or(rest.len());
        let x: f64 = rest[..end].trim().parse().ok()?;
        value = if op == '×' { value * x } else { value / x };
        let Some(next) = rest[end..].chars().next() else { return Some(value) };
        op = next;
        rest = &rest[end + next.len_utf8()..];
    }
}

fn finite(v: f64, decimals: usize) -> Option<String> {
    v.is_finite().then(|| format_number(v, decimals, true))
}

/// The catalog's paths are `&'static str` in `Calc`; chapter text is static, so is its path.
fn leak(path: &str) -> &'static str {
    Box::leak(path.to_string().into_boxed_str())
}

fn dtype(s: &str) -> Option<ComputeDtype> {
    serde_json::from_value(serde_json::Value::String(s.to_string())).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn placeholders_fill_from_the_engine_and_the_catalog() {
        let h100_bw = crate::catalog::gpus::find("h100-sxm").unwrap().memory_bandwidth_bytes_per_s;
        assert_eq!(
            fill("{g:h100-sxm:memory_bandwidth_bytes_per_s:1e-9:0} GB/s").unwrap(),
            format!("{} GB/s", format_number(h100_bw / 1e9, 0, true))
        );
        assert_eq!(fill("a {b} c").unwrap(), "a {b} c");
        assert_eq!(fill("{n:4} MB, {n:1:2}").unwrap(), "4 MB, 1:2");
        assert_eq!(fill("{m:8×2000×150e3:1e-9:1} GB/s, {m:1/4:1:2}").unwrap(), "2.4 GB/s, 0.25");
        assert!(fill("{m:8×x:1:0}").unwrap_err().contains("joined by"));
        assert!(fill("{m:1/0:1:0}").unwrap_err().contains("finite"));
        let ridge = fill("{f:ridge:h100-sxm:bf16:0}").unwrap();
        assert!(ridge.parse::<f64>().is_ok_and(|r| r > 200.0 && r < 400.0), "{ridge}");
        let ar = fill("{f:allreduce:1e9:8:1e11:1e3:1}").unwrap();
        assert_eq!(ar, "17.5", "2 × 7/8 × 1 GB / 100 GB/s");
    }

    #[test]
    fn a_bad_placeholder_names_what_is_wrong() {
        assert!(fill("{g:nope:memory_bytes:1:0}").unwrap_err().contains("no GPU 'nope'"));
        assert!(fill("{r:no-such:x:1:0}").unwrap_err().contains("no scenario"));
        assert!(fill("{g:h100-sxm:memory_bytes:1:0").unwrap_err().contains("unclosed"));
        assert!(fill("{x:no-such}").unwrap_err().contains("no exercise"));
        assert!(fill("{f:ridge:h100-sxm:bf99:0}").unwrap_err().contains("dtype"));
    }

    #[test]
    fn every_chapter_fills() {
        check_chapters().unwrap();
    }

    #[test]
    fn scenario_names_are_unique_and_every_scenario_evaluates() {
        let names = scenario_names();
        for (i, n) in names.iter().enumerate() {
            assert!(!names[..i].contains(n), "scenario '{n}' is named twice");
            let s = exercises::parse_scenario(scenario(n).unwrap()).unwrap_or_else(|e| panic!("{n}: {e}"));
            crate::catalog::evaluate(&s).unwrap_or_else(|e| panic!("{n}: {e}"));
        }
    }
}
