//! Renders `content/{zh,en}/NN-slug.md` into `$OUT_DIR/chapters.rs` and fails the build when
//! the two languages differ in chapter files, heading structure, widget slots, figures or exercises.
//! Reads `content/glossary.json`, links each term's first use in every chapter to the glossary,
//! and writes the terms with the chapters that use them into `$OUT_DIR/glossary.rs`.

#[path = "src/content/glossary_data.rs"]
mod glossary_data;
// Shared with the crate's unit tests, which use a few helpers the build does not.
#[allow(dead_code)]
#[path = "src/content/render.rs"]
mod render;
#[path = "src/content/terms.rs"]
mod terms;

use render::{check_parity, parse_file_name, render_linked, RenderedPage, Segment};
use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::Path;

fn chapter_files(dir: &Path) -> BTreeMap<(u32, String), String> {
    let mut files = BTreeMap::new();
    let entries = std::fs::read_dir(dir).unwrap_or_else(|e| fail(&format!("{}: {e}", dir.display())));
    for entry in entries {
        let entry = entry.unwrap_or_else(|e| fail(&format!("{}: {e}", dir.display())));
        let name = entry.file_name().to_string_lossy().into_owned();
        if !name.ends_with(".md") {
            continue;
        }
        let key = parse_file_name(&name).unwrap_or_else(|e| fail(&format!("{}/{e}", dir.display())));
        let text = std::fs::read_to_string(entry.path())
            .unwrap_or_else(|e| fail(&format!("{}/{name}: {e}", dir.display())));
        files.insert(key, text);
    }
    files
}

fn fail(message: &str) -> ! {
    panic!("\n\ncontent error: {message}\n\n");
}

fn page_literal(page: &RenderedPage) -> String {
    let mut s = String::new();
    let _ = write!(s, "Page {{ title: {:?}, summary: {:?}, headings: &[", page.title, page.summary);
    for (level, text) in &page.headings {
        let _ = write!(s, "({level}, {text:?}),");
    }
    s.push_str("], segments: &[");
    for segment in &page.segments {
        match segment {
            Segment::Html(h) => {
                let _ = write!(s, "Segment::Html({h:?}),");
            }
            Segment::Widget(w) => {
                let _ = write!(s, "Segment::Widget({w:?}),");
            }
            Segment::Exercise(id) => {
                let _ = write!(s, "Segment::Exercise({id:?}),");
            }
            Segment::Figure(f) => {
                let _ = write!(s, "Segment::Figure({f:?}),");
            }
        }
    }
    s.push_str("] }");
    s
}

/// Per term id, the slugs of the chapters whose zh and en text use it.
type Uses = BTreeMap<String, (Vec<String>, Vec<String>)>;

/// `$OUT_DIR/glossary.rs`: every term, with the slugs of the chapters that use it per language.
fn glossary_literal(glossary: &glossary_data::Glossary, used: &Uses) -> String {
    let unused: Vec<&str> = glossary
        .terms
        .iter()
        .filter(|t| !t.standalone && !used.contains_key(&t.id))
        .map(|t| t.id.as_str())
        .collect();
    if !unused.is_empty() {
        fail(&format!(
            "glossary terms used by no chapter: {unused:?}; widen their match patterns or mark them \"standalone\""
        ));
    }
    let mut s = String::from("pub static TERMS: &[Term] = &[\n");
    for t in &glossary.terms {
        let (zh_chapters, en_chapters) = used.get(&t.id).cloned().unwrap_or_default();
        let _ = writeln!(
            s,
            "    Term {{ id: {:?}, topic: Topic::{}, zh: TermText {{ term: {:?}, definition: {:?}, chapters: &{:?} }}, en: TermText {{ term: {:?}, definition: {:?}, chapters: &{:?} }}, standalone: {} }},",
            t.id,
            glossary_data::topic_variant(&t.topic),
            t.zh.term,
            t.zh.definition,
            zh_chapters,
            t.en.term,
            t.en.definition,
            en_chapters,
            t.standalone
        );
    }
    s.push_str("];\n");
    s
}

/// `$OUT_DIR/prices.rs`: per catalog GPU id, the cheapest dated on-demand price per GPU-hour in
/// `src/catalog/data/instances.json` and its source text (`catalog::prices` documents the rule
/// and its test checks this table against the typed instance catalog).
fn prices_literal() -> String {
    const NAMES: [(&str, &str); 10] = include!("src/catalog/instance_gpu_names.rs");
    let text = std::fs::read_to_string("src/catalog/data/instances.json")
        .unwrap_or_else(|e| fail(&format!("src/catalog/data/instances.json: {e}")));
    let list: serde_json::Value =
        serde_json::from_str(&text).unwrap_or_else(|e| fail(&format!("instances.json: {e}")));
    let list = list.as_array().cloned().unwrap_or_default();
    let s = |v: &serde_json::Value, k: &str| v.get(k).and_then(serde_json::Value::as_str).map(str::to_owned);
    let mut out = String::from("&[\n");
    for (id, name) in NAMES {
        let best = list
            .iter()
            .filter(|i| {
                s(i, "gpu_model").as_deref() == Some(name)
                    && s(i, "price_date").is_some_and(|d| is_iso_date(&d))
            })
            .filter_map(|i| {
                let usd = i.get("price_usd_per_hour").and_then(serde_json::Value::as_f64)?;
                let n = i.get("gpu_count").and_then(serde_json::Value::as_u64).filter(|n| *n > 0)?;
                Some((usd / n as f64, usd, n, i))
            })
            .min_by(|a, b| a.0.total_cmp(&b.0));
        if let Some((p, usd, n, i)) = best {
            let text = format!(
                "{} {} ({}, {}): ${:.4}/h ÷ {}",
                s(i, "provider").unwrap_or_default(),
                s(i, "instance").unwrap_or_default(),
                s(i, "price_region").as_deref().unwrap_or("-"),
                s(i, "price_date").unwrap_or_default(),
                usd,
                n
            );
            let _ = writeln!(out, "    ({id:?}, {p:?}, {text:?}),");
        }
    }
    out.push(']');
    out
}

/// Whether a price date is a day (`2026-11-09`), not "undated".
fn is_iso_date(d: &str) -> bool {
    d.len() == 10
        && d.bytes().enumerate().all(|(i, b)| if i == 4 || i == 7 { b == b'-' } else { b.is_ascii_digit() })
}

/// The catalog files the app embeds, minified into `$OUT_DIR/catalog/` (the same JSON without
/// its indentation: about 0.6 KB less in each bundle after gzip). A file that does not parse
/// fails the build here, naming it. For wasm32 the research notes go too ([`NOT_IN_WASM`]).
const CATALOG_FILES: [&str; 4] = [
    "src/catalog/data/mig.json",
    "src/catalog/data/gpus.json",
    "src/catalog/data/instances.json",
    "src/catalog/models.json",
];

/// Keys of the catalog that no page shows and the browser's code never reads, left out of the
/// copy the wasm embeds: the research notes (`notes`, a model's `note`, a checkpoint's `note`,
/// the models file's `about`; `tests/shown_sources.rs`: "the catalog keeps its provenance in
/// `notes`, which no page shows"), the GPUs' source ids (read by tests only) and their
/// `efficiency_source` (a device's measured factors are worded on screen by
/// `i18n::facts::factor_note`, which names the same sources; the field is for the catalog's
/// readers and tests). Natively (the tests, the CLI, the prerenderer) the copy keeps them. They
/// were about 14 KB of each bundle's gzip (GPU notes 9.4 KB); the efficiency sources about 0.4 KB.
const NOT_IN_WASM: [&str; 5] = ["notes", "note", "about", "source_ids", "efficiency_source"];

/// `value` without the keys in `keys`, at any depth; a model's `config` and a checkpoint's
/// `quantization_config` are kept whole (they are read as published).
fn without_keys(value: &mut serde_json::Value, keys: &[&str]) {
    match value {
        serde_json::Value::Object(map) => {
            map.retain(|k, _| !keys.contains(&k.as_str()));
            for (k, v) in map.iter_mut() {
                if k != "config" && k != "quantization_config" {
                    without_keys(v, keys);
                }
            }
        }
        serde_json::Value::Array(list) => list.iter_mut().for_each(|v| without_keys(v, keys)),
        _ => {}
    }
}

fn minify_catalog() {
    let dir = Path::new(&std::env::var("OUT_DIR").expect("cargo sets OUT_DIR")).join("catalog");
    std::fs::create_dir_all(&dir).unwrap_or_else(|e| fail(&format!("{}: {e}", dir.display())));
    let wasm = std::env::var("CARGO_CFG_TARGET_ARCH").is_ok_and(|a| a == "wasm32");
    for file in CATALOG_FILES {
        println!("cargo:rerun-if-changed={file}");
        let text = std::fs::read_to_string(file).unwrap_or_else(|e| fail(&format!("{file}: {e}")));
        let mut value: serde_json::Value =
            serde_json::from_str(&text).unwrap_or_else(|e| fail(&format!("{file}: {e}")));
        if wasm {
            without_keys(&mut value, &NOT_IN_WASM);
        }
        let name = Path::new(file).file_name().expect("a file name");
        std::fs::write(dir.join(name), value.to_string()).unwrap_or_else(|e| fail(&format!("{file}: {e}")));
    }
}

fn main() {
    minify_catalog();
    println!("cargo:rerun-if-changed=src/catalog/data/instances.json");
    println!("cargo:rerun-if-changed=src/catalog/instance_gpu_names.rs");
    println!("cargo:rerun-if-changed=content/zh");
    println!("cargo:rerun-if-changed=content/en");
    println!("cargo:rerun-if-changed=src/content/render.rs");
    println!("cargo:rerun-if-changed=src/content/widget_kinds.rs");
    println!("cargo:rerun-if-changed=src/content/terms.rs");
    println!("cargo:rerun-if-changed=src/content/glossary_data.rs");
    println!("cargo:rerun-if-changed=content/glossary.json");

    let glossary_json = std::fs::read_to_string("content/glossary.json")
        .unwrap_or_else(|e| fail(&format!("content/glossary.json: {e}")));
    let glossary =
        glossary_data::parse(&glossary_json).unwrap_or_else(|e| fail(&format!("content/glossary.json: {e}")));
    let (zh_terms, en_terms) = (glossary.patterns("zh"), glossary.patterns("en"));
    let mut used = Uses::new();

    let zh = chapter_files(Path::new("content/zh"));
    let en = chapter_files(Path::new("content/en"));
    for key in zh.keys() {
        if !en.contains_key(key) {
            fail(&format!("content/zh/{:02}-{}.md has no English counterpart in content/en", key.0, key.1));
        }
    }
    for key in en.keys() {
        if !zh.contains_key(key) {
            fail(&format!("content/en/{:02}-{}.md has no Chinese counterpart in content/zh", key.0, key.1));
        }
    }

    // Each language's pages in one array, zh first, and the chapters pointing into them: the
    // text then lies in the wasm's data one language after the other (as the arrays are
    // defined), not zh and en alternating chapter by chapter, which gzips ~5 KB smaller.
    let mut chapters = String::new();
    let mut titles = String::new();
    let (mut zh_pages, mut en_pages) = (Vec::new(), Vec::new());
    let mut seen_numbers = std::collections::BTreeSet::new();
    let mut seen_slugs = std::collections::BTreeSet::new();
    for ((number, slug), zh_text) in &zh {
        if !seen_numbers.insert(*number) {
            fail(&format!("chapter number {number:02} is used twice"));
        }
        if !seen_slugs.insert(slug.clone()) {
            fail(&format!("chapter slug '{slug}' is used twice"));
        }
        let en_text = &en[&(*number, slug.clone())];
        let zh_page = render_linked(zh_text, "zh", &zh_terms)
            .unwrap_or_else(|e| fail(&format!("content/zh/{number:02}-{slug}.md: {e}")));
        let en_page = render_linked(en_text, "en", &en_terms)
            .unwrap_or_else(|e| fail(&format!("content/en/{number:02}-{slug}.md: {e}")));
        for id in &zh_page.terms {
            used.entry(id.clone()).or_default().0.push(slug.clone());
        }
        for id in &en_page.terms {
            used.entry(id.clone()).or_default().1.push(slug.clone());
        }
        check_parity(&zh_page, &en_page)
            .unwrap_or_else(|e| fail(&format!("{number:02}-{slug}.md: zh and en differ: {e}")));
        let i = zh_pages.len();
        let _ = writeln!(
            chapters,
            "    Chapter {{ number: {number}, slug: {slug:?}, zh: &ZH_PAGES[{i}], en: &EN_PAGES[{i}] }},"
        );
        let _ = writeln!(titles, "    ({number}, {slug:?}, {:?}, {:?}),", zh_page.title, en_page.title);
        zh_pages.push(page_literal(&zh_page));
        en_pages.push(page_literal(&en_page));
    }
    let n = zh_pages.len();
    let slugs: Vec<&String> = zh.keys().map(|(_, slug)| slug).collect();
    let out = format!(
        "static ZH_PAGES: [Page; {n}] = [\n    {}\n];\nstatic EN_PAGES: [Page; {n}] = [\n    {}\n];\npub static CHAPTERS: &[Chapter] = &[\n{chapters}];\nstatic SLUGS: [&str; {n}] = {slugs:?};\nstatic TITLES: [(u32, &str, &str, &str); {n}] = [\n{titles}];\n",
        zh_pages.join(",\n    "),
        en_pages.join(",\n    ")
    );
    let dest = Path::new(&std::env::var("OUT_DIR").expect("cargo sets OUT_DIR")).join("chapters.rs");
    std::fs::write(&dest, out).unwrap_or_else(|e| fail(&format!("{}: {e}", dest.display())));
    std::fs::write(dest.with_file_name("prices.rs"), prices_literal())
        .unwrap_or_else(|e| fail(&format!("prices.rs: {e}")));
    let dest = dest.with_file_name("glossary.rs");
    std::fs::write(&dest, glossary_literal(&glossary, &used))
        .unwrap_or_else(|e| fail(&format!("{}: {e}", dest.display())));
}
