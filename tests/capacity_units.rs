//! One convention for memory sizes (issue 33, class 2), stated once at the start of chapter 2: a
//! GB is 10⁹ bytes and a GiB 2³⁰; a GPU's capacity is the vendor's figure counted in decimal (an
//! "80 GB" H100 is 80×10⁹ B), and what software reports (81,559 MiB) is named beside it. These
//! tests keep it so: the catalog stores the vendor's decimal figure, every computed size is
//! labelled with the unit of its scale, no text equates a GB figure with the same GiB figure, and
//! an exercise whose key would change under the other reading says which one it uses.

use gpu_primer::catalog::{gpus, Catalog};
use gpu_primer::exercises::{self, report_value, Answer, Calc};
use std::path::{Path, PathBuf};

const GIB: f64 = 1_073_741_824.0;

/// Every catalog capacity is a whole number of decimal GB (the vendor's figure), and a name that
/// states its size (`H100 SXM5 80GB`, `RTX 3060 12GB`) states the stored one.
#[test]
fn the_catalog_stores_the_vendors_decimal_figure() {
    let mut problems = Vec::new();
    for g in gpus::all() {
        for b in std::iter::once(g.memory_bytes).chain(g.memory_options_bytes.iter().copied()) {
            if b % 1_000_000_000 != 0 {
                problems.push(format!("{}: {b} B is not a whole number of GB", g.id));
            }
        }
        if let Some(n) = named_size_gb(&g.name) {
            if n * 1_000_000_000 != g.memory_bytes {
                problems.push(format!("{}: named {n} GB, stores {} B", g.id, g.memory_bytes));
            }
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

/// The number before `GB` in a catalog name (`A100 80GB PCIe` → 80).
fn named_size_gb(name: &str) -> Option<u64> {
    name.split_whitespace().find_map(|w| w.strip_suffix("GB")?.parse().ok())
}

#[test]
fn a_size_in_a_name_is_read() {
    assert_eq!(named_size_gb("A100 80GB PCIe"), Some(80));
    assert_eq!(named_size_gb("GeForce RTX 4090"), None);
}

/// The unit a computed size must carry, by the scale its placeholder applies.
fn unit_of_scale(scale: f64) -> Option<&'static str> {
    const UNITS: [(f64, &str); 8] = [
        (1e-12, "TB"),
        (1.0 / (GIB * 1024.0), "TiB"),
        (1e-9, "GB"),
        (1.0 / GIB, "GiB"),
        (1e-6, "MB"),
        (1.0 / 1_048_576.0, "MiB"),
        (1e-3, "KB"),
        (1.0 / 1024.0, "KiB"),
    ];
    UNITS.iter().find(|(s, _)| ((scale - s) / s).abs() < 1e-9).map(|(_, u)| *u)
}

/// Every `{r:…}`, `{g:…}` (and an exercise's short `{r:PATH:…}`) placeholder of a size in bytes,
/// followed by a unit of size: (the placeholder, the scale's unit, the unit written).
fn mislabelled(text: &str) -> Vec<(String, &'static str, String)> {
    const WRITTEN: [&str; 8] = ["TiB", "TB", "GiB", "GB", "MiB", "MB", "KiB", "KB"];
    let mut out = Vec::new();
    let mut rest = text;
    while let Some(at) = rest.find(['{']) {
        let after = &rest[at + 1..];
        let Some(end) = after.find('}') else { break };
        let body = &after[..end];
        rest = &after[end + 1..];
        if !(body.starts_with("r:") || body.starts_with("g:")) {
            continue;
        }
        let parts: Vec<&str> = body.split(':').collect();
        let n = parts.len();
        if n < 4 {
            continue;
        }
        let path = parts[n - 3];
        if !path.contains("bytes") || path.contains("per_s") {
            continue;
        }
        let Some(expected) = parts[n - 2].parse::<f64>().ok().and_then(unit_of_scale) else { continue };
        let next = rest.trim_start_matches([' ', '\u{a0}', '\u{202f}']);
        let written = WRITTEN.iter().find(|u| {
            next.starts_with(**u)
                && !next[u.len()..].starts_with(|c: char| c.is_ascii_alphanumeric() || c == '/')
        });
        if let Some(w) = written {
            if *w != expected {
                out.push((format!("{{{body}}}"), expected, (*w).to_string()));
            }
        }
    }
    out
}

/// Text files a reader's words come from: the chapters, the glossary, and the source (strings
/// of the interface, the exercises, the tools, the numbers tables).
fn reader_texts() -> Vec<(PathBuf, String)> {
    fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
        let Ok(entries) = std::fs::read_dir(dir) else { return };
        for e in entries.flatten() {
            let p = e.path();
            if p.is_dir() {
                walk(&p, out);
            } else if matches!(p.extension().and_then(|x| x.to_str()), Some("md" | "rs" | "json")) {
                out.push(p);
            }
        }
    }
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = Vec::new();
    walk(&root.join("content"), &mut files);
    walk(&root.join("src"), &mut files);
    files.sort();
    files.into_iter().filter_map(|p| std::fs::read_to_string(&p).ok().map(|t| (p, t))).collect()
}

#[test]
fn every_computed_size_is_labelled_with_its_scales_unit() {
    let mut problems = Vec::new();
    for (path, text) in reader_texts() {
        for (placeholder, expected, written) in mislabelled(&text) {
            problems.push(format!("{}: {placeholder} is in {expected}, labelled {written}", path.display()));
        }
    }
    assert!(problems.is_empty(), "{} sizes in the other unit:\n{}", problems.len(), problems.join("\n"));
}

#[test]
fn a_mislabelled_size_is_found() {
    let t = "{r:s:memory_per_gpu_bytes.kv_cache:1e-9:1} GiB and {g:h100-sxm:memory_bytes:9.313225746154785e-10:1} GiB, {r:s:phases.decode.bytes_per_s:1e-9:0} GB/s";
    let found = mislabelled(t);
    assert_eq!(found.len(), 1, "{found:?}");
    assert_eq!((found[0].1, found[0].2.as_str()), ("GB", "GiB"));
}

/// "24 GB is 24 GiB", "80 GiB = 80 GB", "24 GB 即 24 GiB": two different sizes said to be one.
fn equated(text: &str) -> Vec<String> {
    const IS: [&str; 8] = ["is", "equals", "means", "即", "就是", "等于", "=", "是"];
    let mut out = Vec::new();
    for (a, b) in [("GB", "GiB"), ("GiB", "GB")] {
        let mut from = 0;
        while let Some(i) = text[from..].find(a).map(|i| i + from) {
            from = i + a.len();
            if a == "GB" && text[i..].starts_with("GB/") {
                continue;
            }
            let before: String = text[..i]
                .trim_end()
                .chars()
                .rev()
                .take_while(|c| c.is_ascii_digit() || *c == '.' || *c == ',')
                .collect();
            if before.is_empty() {
                continue;
            }
            let n: String = before.chars().rev().collect();
            let after = &text[from..];
            for is in IS {
                let Some(rest) = after.trim_start().strip_prefix(is) else { continue };
                let rest = rest.trim_start();
                if let Some(tail) = rest.strip_prefix(n.as_str()) {
                    if tail.trim_start().starts_with(b) && !tail.trim_start().starts_with("GB/") {
                        out.push(format!("{n} {a} … {n} {b}"));
                    }
                }
            }
        }
    }
    out
}

#[test]
fn no_text_equates_a_gb_figure_with_the_same_gib_figure() {
    let mut problems = Vec::new();
    for (path, text) in reader_texts() {
        for e in equated(&text) {
            problems.push(format!("{}: {e}", path.display()));
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

#[test]
fn an_equation_of_units_is_found() {
    assert_eq!(
        equated("Memory sizes as sold are GiB (24 GB is 24 GiB)."),
        vec!["24 GB … 24 GiB".to_string()]
    );
    assert_eq!(equated("标称的内存容量按 GiB 计（24 GB 即 24 GiB）。").len(), 1);
    assert!(equated("a card sold as 24 GB at 24 GiB; 80 GB is 74.5 GiB; 900 GB/s").is_empty());
}

/// An exercise whose key would change if the GPU's capacity were read as GiB instead of GB
/// says in its question, in both languages, that capacities count 10⁹ bytes per GB.
#[test]
fn a_key_that_rests_on_the_convention_states_it() {
    let mut problems = Vec::new();
    let mut checked = 0;
    for (slug, list) in exercises::all() {
        for e in *list {
            let Answer::Number { calc: Calc::Report { scenario, path }, .. } = e.answer else { continue };
            let s = exercises::parse_scenario(scenario).expect("a valid scenario");
            let Ok(gpu) = s.gpu.resolve(&Catalog) else { continue };
            let decimal = s.gpu_memory_bytes.unwrap_or(gpu.memory_bytes);
            let binary = (decimal as f64 / 1e9 * GIB) as u64;
            let read = |m: u64| {
                let r = gpu_primer::catalog::evaluate(&gpu_primer::engine::Scenario {
                    gpu_memory_bytes: Some(m),
                    ..s.clone()
                })
                .ok()?;
                report_value(&r, path)
            };
            let (a, b) = (read(decimal), read(binary));
            if a.is_none() || a == b {
                continue;
            }
            checked += 1;
            for (lang, q) in [("en", e.en.question), ("zh", e.zh.question)] {
                if !q.contains("10⁹") {
                    problems.push(format!("{slug}/{} ({lang}): {a:?} in GB, {b:?} in GiB", e.id));
                }
            }
        }
    }
    assert!(checked >= 5, "only {checked} keys rest on the capacity");
    assert!(problems.is_empty(), "questions that do not say GB = 10⁹ bytes:\n{}", problems.join("\n"));
}
