//! A glossary link is a concept, not a string (issue 33, class 3). Every automatic link from a
//! chapter to the glossary is written, with the sentence it sits in, to
//! `tests/snapshots/auto-links.md`, which is committed: a change to the links (a new term, a new
//! pattern, new prose) shows up in review as a diff of that file, read sentence by sentence.
//! The test fails when the file differs from what the chapters link now (run with
//! `UPDATE_AUTO_LINKS=1` to rewrite it, then read the diff), when a link's sentence holds one of
//! its term's `not` phrases, when a `not` phrase no longer occurs in any chapter (stale), and on
//! a list of known-bad links (another sense of the same word).

use gpu_primer::content::{self, Segment};
use gpu_primer::i18n::Lang;
use serde_json::Value;
use std::path::Path;

/// One automatic link: where, which term, the text linked and the sentence around it (the
/// linked text between ⟦ and ⟧), and the sentence without the marks with the link's byte range
/// in it.
struct Link {
    lang: Lang,
    chapter: &'static str,
    term: String,
    text: String,
    sentence: String,
    plain: String,
    at: (usize, usize),
}

/// `html` as text, with each glossary link's text marked `⟦…⟧` and its term id collected.
fn text_with_links(html: &str, lang: Lang) -> (String, Vec<String>) {
    let prefix = format!("<a href=\"#/{}/glossary/#term-", lang.code());
    let mut out = String::new();
    let mut ids = Vec::new();
    let mut rest = html;
    let mut in_link = false;
    while let Some(lt) = rest.find('<') {
        out.push_str(&rest[..lt]);
        let Some(gt) = rest[lt..].find('>') else { break };
        let tag = &rest[lt..lt + gt + 1];
        if tag.starts_with(&prefix) {
            ids.push(tag[prefix.len()..].split('"').next().unwrap_or("").to_owned());
            out.push('⟦');
            in_link = true;
        } else if tag == "</a>" && in_link {
            out.push('⟧');
            in_link = false;
        } else if tag.starts_with("<p")
            || tag.starts_with("<li")
            || tag.starts_with("<td")
            || tag.starts_with("<th")
        {
            out.push('\n');
        }
        rest = &rest[lt + gt + 1..];
    }
    out.push_str(rest);
    let text = out
        .replace("&amp;", "&")
        .replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&quot;", "\"")
        .replace("&#39;", "'");
    (text, ids)
}

/// The byte range of the sentence around byte `at` of `text`: back to the previous and on to the
/// next sentence end or line, at most about 600 bytes each way.
fn sentence_at(text: &str, at: usize) -> (usize, usize) {
    let ends = |c: char| matches!(c, '。' | '！' | '？' | '\n' | '；');
    let before = &text[..at];
    let mut start = before
        .char_indices()
        .rev()
        .find(|(i, c)| ends(*c) || (*c == '.' && before[i + 1..].starts_with(' ')))
        .map_or(0, |(i, c)| i + c.len_utf8());
    let after = &text[at..];
    let mut end = at
        + after
            .char_indices()
            .find(|(i, c)| {
                ends(*c) || (*c == '.' && (after[i + 1..].starts_with(' ') || i + 1 == after.len()))
            })
            .map_or(after.len(), |(i, c)| i + c.len_utf8());
    while at - start > 600 {
        start += text[start..].chars().next().map_or(1, char::len_utf8);
    }
    while end - at > 600 {
        end -= text[..end].chars().next_back().map_or(1, char::len_utf8);
    }
    (start, end)
}

/// Runs of white space as one space.
fn squeeze(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}

fn links() -> Vec<Link> {
    let mut out = Vec::new();
    for c in content::chapters() {
        for lang in Lang::ALL {
            for segment in c.page(lang).segments {
                let Segment::Html(html) = segment else { continue };
                let (text, ids) = text_with_links(html, lang);
                let mut ids = ids.into_iter();
                for (at, _) in text.match_indices('⟦') {
                    let close = text[at..].find('⟧').map_or(text.len(), |i| at + i);
                    let (start, end) = sentence_at(&text, at);
                    let unmark = |s: &str| s.replace(['⟦', '⟧'], "");
                    let before = unmark(&text[start..at]);
                    let linked = text[at + '⟦'.len_utf8()..close].to_owned();
                    out.push(Link {
                        lang,
                        chapter: c.slug,
                        term: ids.next().unwrap_or_default(),
                        at: (before.len(), before.len() + linked.len()),
                        plain: unmark(&text[start..end]),
                        text: linked,
                        sentence: squeeze(&text[start..end]),
                    });
                }
            }
        }
    }
    out
}

/// The snapshot: one section per term, one line per link (language, chapter, linked text,
/// sentence).
fn snapshot(links: &[Link]) -> String {
    let glossary = glossary();
    let mut out = String::from(
        "# Automatic glossary links\n\nGenerated by `tests/glossary_links.rs` (`UPDATE_AUTO_LINKS=1 cargo test --test glossary_links`). Every link a chapter makes to the glossary, by term, with the sentence it sits in (the linked text between ⟦ and ⟧): read each against the term's definition. A wrong sense gets a `not` phrase in `content/glossary.json`.\n",
    );
    for t in glossary["terms"].as_array().unwrap() {
        let id = t["id"].as_str().unwrap();
        let mine: Vec<&Link> = links.iter().filter(|l| l.term == id).collect();
        out.push_str(&format!(
            "\n## {id} — {} / {}\n\n",
            t["en"]["term"].as_str().unwrap(),
            t["zh"]["term"].as_str().unwrap()
        ));
        if mine.is_empty() {
            out.push_str("(no automatic link)\n");
        }
        for l in mine {
            out.push_str(&format!("- {} {} «{}»: {}\n", l.lang.code(), l.chapter, l.text, l.sentence));
        }
    }
    out
}

fn glossary() -> Value {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    serde_json::from_str(&std::fs::read_to_string(root.join("content/glossary.json")).unwrap()).unwrap()
}

#[test]
fn every_automatic_link_is_in_the_reviewed_snapshot() {
    let links = links();
    assert!(links.len() > 500, "only {} links", links.len());
    let got = snapshot(&links);
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/snapshots/auto-links.md");
    if std::env::var_os("UPDATE_AUTO_LINKS").is_some() {
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(&path, &got).unwrap();
    }
    let want = std::fs::read_to_string(&path).unwrap_or_default();
    if want != got {
        let first = want.lines().zip(got.lines()).position(|(a, b)| a != b).unwrap_or(0);
        panic!(
            "the chapters' glossary links differ from tests/snapshots/auto-links.md (first at line {}):\n  file: {}\n  now:  {}\nRead the new links, then rewrite it with UPDATE_AUTO_LINKS=1.",
            first + 1,
            want.lines().nth(first).unwrap_or(""),
            got.lines().nth(first).unwrap_or("")
        );
    }
}

/// Links that once attached a word to the wrong concept (issue 33's review): the term and a piece
/// of the linked sentence with the link marked. None may come back.
const KNOWN_BAD: &[(&str, &str)] = &[
    ("utilization", "FLOPs ⟦utilisation⟧"),
    ("utilization", "算力⟦利用率⟧"),
    ("utilization", "gpu_memory_⟦utilization⟧"),
    ("utilization", "pipe ⟦utilization⟧"),
    ("utilization", "流水线⟦利用率⟧"),
    ("utilization", "⟦Utilisation⟧ often moves the bill"),
    ("utilization", "⟦利用率⟧对账单"),
    ("utilization", "⟦utilisation⟧ targets"),
    ("utilization", "⟦利用率⟧目标"),
    ("utilization", "Raising ⟦utilization⟧"),
    ("utilization", "协作进程的⟦利用率⟧"),
    ("utilization", "about ⟦utilisation⟧ and stability"),
    ("decode", "fetching, ⟦decoding⟧"),
    ("shared-memory", "P2P、⟦共享内存⟧"),
    ("activations", "⟦激活⟧函数"),
    ("activations", "⟦激活⟧参数"),
    ("activations", "Normalizations, ⟦activations⟧"),
    ("data-parallelism", "⟦data-parallel⟧ work"),
    ("data-parallelism", "⟦数据并行⟧的工作"),
    ("data-parallelism", "⟦data-parallel⟧ arithmetic"),
    ("data-parallelism", "⟦数据并行⟧算术"),
    ("attention", "their ⟦attention⟧"),
    ("attention", "把⟦注意力⟧"),
    ("tdp", "⟦功耗⟧"),
    ("kernel-launch-overhead", "A ⟦kernel launch⟧ creates"),
    ("spot", "⟦preemptible⟧ training jobs"),
    ("reserved", "inference needs ⟦reserved capacity⟧"),
    ("reserved", "在线推理需要⟦预留容量⟧"),
    ("dense-sparse", "⟦稠密⟧模型"),
    ("dense-sparse", "⟦稠密⟧矩阵运算"),
    ("memory-bandwidth", "主机⟦内存带宽⟧"),
    ("batch", "⟦并发⟧共享"),
    ("mps", "和⟦多进程服务⟧"),
    ("flops", "消耗⟦算力⟧"),
];

#[test]
fn no_link_is_another_sense_of_its_word() {
    let glossary = glossary();
    let links = links();
    let mut problems = Vec::new();
    for l in &links {
        for (term, bad) in KNOWN_BAD {
            if l.term == *term && l.sentence.contains(bad) {
                problems.push(format!(
                    "{} {} {term}: known-bad link “{bad}” in: {}",
                    l.lang.code(),
                    l.chapter,
                    l.sentence
                ));
            }
        }
        // The link is not inside one of its term's `not` phrases (the linker skips those).
        let t = glossary["terms"].as_array().unwrap().iter().find(|t| t["id"] == l.term.as_str()).unwrap();
        let nots: Vec<String> = t[l.lang.code()]["not"]
            .as_array()
            .map(|a| a.iter().filter_map(Value::as_str).map(str::to_owned).collect())
            .unwrap_or_default();
        let lower = l.plain.to_ascii_lowercase();
        for n in &nots {
            let n = n.to_ascii_lowercase();
            let inside = lower.match_indices(&n).any(|(s, _)| s <= l.at.0 && l.at.1 <= s + n.len());
            if inside {
                problems.push(format!(
                    "{} {} {}: linked inside its `not` phrase “{n}”: {}",
                    l.lang.code(),
                    l.chapter,
                    l.term,
                    l.sentence
                ));
            }
        }
    }
    // Every `not` phrase still occurs in a chapter of its language: none is kept for prose that
    // no longer exists.
    for t in glossary["terms"].as_array().unwrap() {
        for lang in Lang::ALL {
            for n in t[lang.code()]["not"].as_array().into_iter().flatten().filter_map(Value::as_str) {
                let used = content::chapters().iter().any(|c| {
                    c.page(lang).segments.iter().any(|s| {
                        matches!(s, Segment::Html(h) if text_with_links(h, lang).0.replace(['⟦', '⟧'], "").to_ascii_lowercase().contains(&n.to_ascii_lowercase()))
                    })
                });
                if !used {
                    problems.push(format!(
                        "{} {}: the `not` phrase “{n}” occurs in no chapter: remove it",
                        t["id"],
                        lang.code()
                    ));
                }
            }
        }
    }
    assert!(problems.is_empty(), "{} problems:\n{}", problems.len(), problems.join("\n"));
}
