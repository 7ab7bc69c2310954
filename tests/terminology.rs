//! Words and punctuation of the Chinese pages: one term per concept (the list in
//! `content/terminology.json`) and full-width punctuation next to Chinese text, across the
//! chapters, the glossary and every Chinese string of the interface, the tools, the widgets and
//! the exercises (the source's Chinese lines outside its tests).

use serde_json::Value;
use std::path::{Path, PathBuf};

/// A piece of Chinese text and where it is (file and line).
struct Line {
    at: String,
    text: String,
}

fn has_han(s: &str) -> bool {
    s.chars().any(|c| ('\u{4e00}'..='\u{9fff}').contains(&c))
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let p = entry.unwrap().path();
        if p.is_dir() {
            rust_files(&p, out);
        } else if p.extension().is_some_and(|e| e == "rs") {
            out.push(p);
        }
    }
}

/// Every Chinese line a reader can see: the zh chapters, the glossary's zh terms and
/// definitions, and the Chinese lines of the source outside its test modules.
fn chinese_lines() -> Vec<Line> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut out = Vec::new();
    let mut chapters: Vec<PathBuf> =
        std::fs::read_dir(root.join("content/zh")).unwrap().map(|e| e.unwrap().path()).collect();
    chapters.sort();
    for p in chapters {
        let text = std::fs::read_to_string(&p).unwrap();
        let mut code = false;
        for (i, l) in text.lines().enumerate() {
            if l.trim_start().starts_with("```") {
                code = !code;
            }
            if !code && has_han(l) {
                out.push(Line {
                    at: format!("{}:{}", p.strip_prefix(root).unwrap().display(), i + 1),
                    text: l.to_owned(),
                });
            }
        }
    }
    let glossary: Value =
        serde_json::from_str(&std::fs::read_to_string(root.join("content/glossary.json")).unwrap()).unwrap();
    for t in glossary["terms"].as_array().unwrap() {
        for key in ["term", "def"] {
            let text = t["zh"][key].as_str().unwrap().to_owned();
            out.push(Line { at: format!("glossary {} zh.{key}", t["id"]), text });
        }
    }
    let mut files = Vec::new();
    rust_files(&root.join("src"), &mut files);
    files.sort();
    for p in files {
        let text = std::fs::read_to_string(&p).unwrap();
        // The source's own tests (sample data in either language) are not what a reader sees.
        let body =
            ["#[cfg(test)]\nmod tests", "#[cfg(test)]\npub(crate) mod tests", "#[cfg(test)]\npub mod tests"]
                .iter()
                .filter_map(|m| text.find(m))
                .min()
                .map_or(text.as_str(), |at| &text[..at]);
        for (i, l) in body.lines().enumerate() {
            let t = l.trim_start();
            if has_han(l) && !t.starts_with("//") {
                out.push(Line {
                    at: format!("{}:{}", p.strip_prefix(root).unwrap().display(), i + 1),
                    text: l.to_owned(),
                });
            }
        }
    }
    out
}

#[test]
fn one_chinese_term_per_concept() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let list: Value =
        serde_json::from_str(&std::fs::read_to_string(root.join("content/terminology.json")).unwrap())
            .unwrap();
    let terms = list["terms"].as_array().unwrap();
    assert!(terms.len() >= 6);
    let lines = chinese_lines();
    assert!(lines.len() > 2000, "the scan reads the Chinese text ({} lines)", lines.len());
    let mut problems = Vec::new();
    for t in terms {
        let zh = t["zh"].as_str().unwrap();
        let except: Vec<&str> = t
            .get("except")
            .and_then(Value::as_array)
            .map_or(vec![], |v| v.iter().filter_map(Value::as_str).collect());
        // The chosen term is in use somewhere.
        assert!(lines.iter().any(|l| l.text.contains(zh)), "'{zh}' is used nowhere");
        for avoid in t["avoid"].as_array().unwrap().iter().filter_map(Value::as_str) {
            for l in &lines {
                let mut text = l.text.clone();
                for e in &except {
                    text = text.replace(e, "");
                }
                if text.contains(avoid) {
                    problems.push(format!("{}: '{avoid}' (say '{zh}'): {}", l.at, l.text.trim()));
                }
            }
        }
    }
    assert!(problems.is_empty(), "{} variants of a term:\n{}", problems.len(), problems.join("\n"));
}

/// `text` without the argument lists of `min(…)`, `max(…)` and `ceil(…)`.
fn without_formula_arguments(text: &str) -> String {
    let mut out = String::new();
    let mut rest = text;
    while let Some(at) =
        ["min(", "max(", "ceil("].iter().filter_map(|f| rest.find(f).map(|i| i + f.len())).min()
    {
        out.push_str(&rest[..at]);
        rest = &rest[at..];
        let mut depth = 1;
        let end = rest
            .char_indices()
            .find(|(_, c)| {
                match c {
                    '(' => depth += 1,
                    ')' => depth -= 1,
                    _ => {}
                }
                depth == 0
            })
            .map_or(rest.len(), |(i, _)| i);
        rest = &rest[end..];
    }
    out.push_str(rest);
    out
}

/// Chinese text uses full-width punctuation: `权重放得下吗？`, `预填充：`, not `吗?` or `充: `.
/// A half-width `? : ; !` or `,` right after a Chinese character (or `,` right before one) is
/// flagged; code spans and URLs are left alone.
#[test]
fn chinese_text_uses_full_width_punctuation() {
    let mut problems = Vec::new();
    for l in chinese_lines() {
        // Inline code (`…`) is code, not prose.
        let mut prose = String::new();
        for (i, part) in l.text.split('`').enumerate() {
            if i % 2 == 0 {
                prose.push_str(part);
            }
        }
        // A formula's argument list (`min(峰值, 强度 × 带宽)`) keeps its ASCII commas.
        let prose = without_formula_arguments(&prose);
        let chars: Vec<char> = prose.chars().collect();
        for (i, w) in chars.windows(2).enumerate() {
            let han = |c: char| ('\u{4e00}'..='\u{9fff}').contains(&c);
            let bad =
                (han(w[0]) && matches!(w[1], '?' | ':' | ';' | '!' | ',')) || (w[0] == ',' && han(w[1]));
            if bad {
                let from = i.saturating_sub(8);
                let at: String = chars[from..(i + 6).min(chars.len())].iter().collect();
                problems.push(format!("{}: '{at}'", l.at));
            }
        }
    }
    assert!(
        problems.is_empty(),
        "{} half-width marks in Chinese text:\n{}",
        problems.len(),
        problems.join("\n")
    );
}
