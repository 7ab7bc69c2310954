//! Renders `content/{zh,en}/NN-slug.md` into `$OUT_DIR/chapters.rs` and fails the build when
//! the two languages differ in chapter files, heading structure, widget slots or exercises.

#[path = "src/content/render.rs"]
mod render;

use render::{check_parity, parse_file_name, render, RenderedPage, Segment};
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
        }
    }
    s.push_str("] }");
    s
}

fn main() {
    println!("cargo:rerun-if-changed=content/zh");
    println!("cargo:rerun-if-changed=content/en");
    println!("cargo:rerun-if-changed=src/content/render.rs");

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

    let mut out = String::from("pub static CHAPTERS: &[Chapter] = &[\n");
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
        let zh_page =
            render(zh_text).unwrap_or_else(|e| fail(&format!("content/zh/{number:02}-{slug}.md: {e}")));
        let en_page =
            render(en_text).unwrap_or_else(|e| fail(&format!("content/en/{number:02}-{slug}.md: {e}")));
        check_parity(&zh_page, &en_page)
            .unwrap_or_else(|e| fail(&format!("{number:02}-{slug}.md: zh and en differ: {e}")));
        let _ = writeln!(
            out,
            "    Chapter {{ number: {number}, slug: {slug:?}, zh: {}, en: {} }},",
            page_literal(&zh_page),
            page_literal(&en_page)
        );
    }
    out.push_str("];\n");
    let dest = Path::new(&std::env::var("OUT_DIR").expect("cargo sets OUT_DIR")).join("chapters.rs");
    std::fs::write(&dest, out).unwrap_or_else(|e| fail(&format!("{}: {e}", dest.display())));
}
