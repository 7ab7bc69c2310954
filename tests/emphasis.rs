//! Emphasis closes where the writer meant it to. CommonMark closes `**` only on a right-flanking
//! run: one that follows punctuation must be followed by a space or punctuation. Chinese text
//! breaks this easily: in `由若干**线程块（block）**组成` the second `**` follows `）` and precedes
//! `组`, so it opens a new span instead, and the page shows the rest of the sentence in bold (or
//! literal asterisks). Every chapter's HTML, outside code, must have no `**` left over and no
//! `<strong>` or `<em>` inside another of its kind.

use gpu_primer::content::{chapters, Segment};

/// `html` without the contents of `<code>` and `<pre>` elements, where asterisks are code.
fn outside_code(html: &str) -> String {
    let mut out = String::new();
    let mut rest = html;
    loop {
        let next = ["<code", "<pre"].iter().filter_map(|t| rest.find(t).map(|i| (i, *t))).min();
        let Some((at, tag)) = next else {
            out.push_str(rest);
            return out;
        };
        out.push_str(&rest[..at]);
        let close = if tag == "<code" { "</code>" } else { "</pre>" };
        match rest[at..].find(close) {
            Some(end) => rest = &rest[at + end + close.len()..],
            None => return out,
        }
    }
}

/// What is wrong with the emphasis of `html`: leftover `**`, or a `<strong>`/`<em>` nested in
/// one of its kind.
fn problems(html: &str) -> Vec<String> {
    let text = outside_code(html);
    let mut found = Vec::new();
    if let Some(at) = text.find("**") {
        found.push(format!("literal ** near “{}”", around(&text, at)));
    }
    for tag in ["strong", "em"] {
        let (open, close) = (format!("<{tag}>"), format!("</{tag}>"));
        let mut depth = 0usize;
        let mut i = 0;
        while i < text.len() {
            if text[i..].starts_with(&open) {
                depth += 1;
                if depth > 1 {
                    found.push(format!("<{tag}> inside <{tag}> near “{}”", around(&text, i)));
                }
                i += open.len();
            } else if text[i..].starts_with(&close) {
                depth = depth.saturating_sub(1);
                i += close.len();
            } else {
                i += text[i..].chars().next().map_or(1, char::len_utf8);
            }
        }
    }
    found
}

/// About 40 characters of `text` on each side of byte `at`.
fn around(text: &str, at: usize) -> String {
    let start = text[..at].char_indices().rev().nth(40).map_or(0, |(i, _)| i);
    let end = text[at..].char_indices().nth(40).map_or(text.len(), |(i, _)| at + i);
    text[start..end].to_string()
}

#[test]
fn emphasis_in_every_chapter_closes_where_it_was_meant_to() {
    let mut all = Vec::new();
    for ch in chapters() {
        for (lang, page) in [("en", ch.en), ("zh", ch.zh)] {
            for segment in page.segments {
                if let Segment::Html(html) = segment {
                    all.extend(problems(html).into_iter().map(|p| format!("{lang}/{}: {p}", ch.slug)));
                }
            }
        }
    }
    assert!(all.is_empty(), "{} emphasis problems:\n{}", all.len(), all.join("\n"));
}

#[test]
fn a_span_that_did_not_close_is_found() {
    // What the renderer made of `由若干**线程块（block）**组成，每个**线程（thread）**。`
    let broken = "<p>由若干<strong>线程块（block）<strong>组成，每个</strong>线程（thread）</strong>。</p>";
    assert_eq!(problems(broken).len(), 1, "{:?}", problems(broken));
    assert_eq!(problems("<p>a **b</p>").len(), 1);
    assert!(problems("<p><strong>线程块</strong>（block）组成，<code>**p</code></p>").is_empty());
}
