//! Site search: chapters, sections, glossary terms and tools, in one language.
//!
//! The index comes from what the build made: chapter titles, section headings (with their
//! `s-N` ids), the glossary, and the plain text of each section (taken from the rendered HTML,
//! so the wasm carries no second copy of the chapters). It is assembled once per language, on
//! the first search.
//!
//! Matching is by characters, not words: the query is split at whitespace and every piece must
//! occur (case-insensitively) somewhere in the entry, so Chinese matches without spaces
//! (`显存` finds `显存带宽`). Ranking: chapter title > tool > section heading > glossary term >
//! body text; within a rank an exact or prefix title match comes first, then reading order.

use super::{chapters, glossary};
use crate::i18n::Lang;
use crate::route::Route;
use std::sync::OnceLock;

/// What a result is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum HitKind {
    Chapter,
    Section,
    Term,
    Tool,
}

/// One searchable thing.
#[derive(Debug)]
struct Entry {
    kind: HitKind,
    title: String,
    /// Where it is: the chapter of a section, the other language's name of a term.
    context: String,
    /// Matched too, but shown only as a snippet.
    body: String,
    href: String,
    /// Lowercased `title` and `context` together, and `body`.
    title_key: String,
    body_key: String,
}

impl Entry {
    fn new(kind: HitKind, title: &str, context: &str, body: String, href: String) -> Entry {
        Entry {
            kind,
            title_key: format!("{} {}", title.to_ascii_lowercase(), context.to_ascii_lowercase()),
            body_key: body.to_ascii_lowercase(),
            title: title.to_string(),
            context: context.to_string(),
            body,
            href,
        }
    }
}

/// A search result, ready to show as a link.
#[derive(Clone, Debug, PartialEq)]
pub struct Hit {
    pub kind: HitKind,
    pub title: String,
    pub context: String,
    pub snippet: String,
    pub href: String,
    pub score: u32,
}

/// The most results a search returns.
pub const MAX_HITS: usize = 12;

/// The link to a section of a chapter.
pub fn section_href(lang: Lang, slug: &'static str, section: &str) -> String {
    format!("{}?s={section}", Route::Chapter(lang, slug).to_hash())
}

/// The link to a term's glossary entry.
pub fn term_href(lang: Lang, id: &str) -> String {
    format!("{}?term={id}", Route::Glossary(lang).to_hash())
}

/// Searches the site in `lang` (shown by `search_html::results_html`). An empty query finds nothing.
pub fn search(lang: Lang, query: &str) -> Vec<Hit> {
    let tokens = tokens(query);
    if tokens.is_empty() {
        return Vec::new();
    }
    // Insertion after the equal scores keeps reading order within a rank (and no sort code).
    let mut hits: Vec<Hit> = Vec::new();
    for hit in index(lang).iter().filter_map(|entry| score(entry, &tokens)) {
        let at = hits.partition_point(|h| h.score >= hit.score);
        if at < MAX_HITS {
            hits.insert(at, hit);
            hits.truncate(MAX_HITS);
        }
    }
    hits
}

/// The pieces of a query that must all occur: split at whitespace and where Latin letters or
/// digits meet Chinese (`KV缓存` → `kv`, `缓存`), since chapters write `KV 缓存` with a space.
pub(crate) fn tokens(query: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for word in query.split_whitespace() {
        let mut current = String::new();
        let mut ascii: Option<bool> = None;
        for c in word.to_ascii_lowercase().chars() {
            let is_ascii = c.is_ascii();
            if ascii.is_some_and(|a| a != is_ascii) && !current.is_empty() {
                out.push(std::mem::take(&mut current));
            }
            ascii = Some(is_ascii);
            current.push(c);
        }
        if !current.is_empty() {
            out.push(current);
        }
    }
    out
}

fn score(entry: &Entry, tokens: &[String]) -> Option<Hit> {
    let in_title = tokens.iter().all(|t| entry.title_key.contains(t.as_str()));
    let in_body = !in_title
        && tokens.iter().all(|t| entry.title_key.contains(t.as_str()) || entry.body_key.contains(t.as_str()));
    if !in_title && !in_body {
        return None;
    }
    let score = if in_title {
        let rank = match entry.kind {
            HitKind::Chapter => 400,
            HitKind::Tool => 350,
            HitKind::Section => 300,
            HitKind::Term => 200,
        };
        let title = entry.title.to_ascii_lowercase();
        let query = tokens.join(" ");
        rank + if title == query {
            50
        } else if title.starts_with(&query) {
            20
        } else {
            0
        }
    } else {
        100
    };
    let snippet = if in_title {
        snippet_at(&entry.body, 0)
    } else {
        let first = tokens.iter().filter_map(|t| entry.body_key.find(t.as_str())).min().unwrap_or(0);
        let chars_before = entry.body_key.get(..first).map_or(0, |s| s.chars().count());
        snippet_at(&entry.body, chars_before)
    };
    Some(Hit {
        kind: entry.kind,
        title: entry.title.clone(),
        context: entry.context.clone(),
        snippet,
        href: entry.href.clone(),
        score,
    })
}

const SNIPPET_BEFORE: usize = 24;
const SNIPPET_LEN: usize = 100;

/// About [`SNIPPET_LEN`] characters of `text` around character `at`, with ellipses where cut.
fn snippet_at(text: &str, at: usize) -> String {
    let total = text.chars().count();
    let start = at.saturating_sub(SNIPPET_BEFORE).min(total);
    let piece: String = text.chars().skip(start).take(SNIPPET_LEN).collect();
    let mut out = String::new();
    if start > 0 {
        out.push('…');
    }
    out.push_str(piece.trim());
    if start + SNIPPET_LEN < total {
        out.push('…');
    }
    out
}

fn index(lang: Lang) -> &'static [Entry] {
    static ZH: OnceLock<Vec<Entry>> = OnceLock::new();
    static EN: OnceLock<Vec<Entry>> = OnceLock::new();
    match lang {
        Lang::Zh => ZH.get_or_init(|| build_index(Lang::Zh)),
        Lang::En => EN.get_or_init(|| build_index(Lang::En)),
    }
}

fn build_index(lang: Lang) -> Vec<Entry> {
    let s = lang.strings();
    let c = lang.course();
    let mut entries = vec![
        Entry::new(
            HitKind::Tool,
            lang.est().title,
            "",
            c.estimator_about.to_string(),
            Route::Estimate(lang).to_hash(),
        ),
        Entry::new(
            HitKind::Tool,
            s.validation.title,
            "",
            c.validation_about.to_string(),
            Route::Validation(lang).to_hash(),
        ),
        Entry::new(
            HitKind::Tool,
            c.glossary_title,
            "",
            c.glossary_intro.to_string(),
            Route::Glossary(lang).to_hash(),
        ),
    ];
    for chapter in chapters() {
        let page = chapter.page(lang);
        let html: String = page
            .segments
            .iter()
            .filter_map(|s| match s {
                super::Segment::Html(h) => Some(*h),
                super::Segment::Widget(_) | super::Segment::Exercise(_) | super::Segment::Figure(_) => None,
            })
            .collect();
        let sections = sections(&html);
        let intro = sections.iter().find(|(id, _)| id.is_empty()).map(|(_, t)| t.clone()).unwrap_or_default();
        entries.push(Entry::new(
            HitKind::Chapter,
            page.title,
            "",
            intro,
            Route::Chapter(lang, chapter.slug).to_hash(),
        ));
        for (i, (_, heading)) in page.headings.iter().enumerate() {
            let id = super::section_id(i + 1);
            let text = sections.iter().find(|(s, _)| *s == id).map(|(_, t)| t.clone()).unwrap_or_default();
            let body = text.strip_prefix(heading).map(str::trim_start).unwrap_or(&text).to_string();
            entries.push(Entry::new(
                HitKind::Section,
                heading,
                page.title,
                body,
                section_href(lang, chapter.slug, &id),
            ));
        }
    }
    for term in glossary::terms() {
        let (here, other) = (term.text(lang), term.text(lang.other()));
        entries.push(Entry::new(
            HitKind::Term,
            here.term,
            other.term,
            here.definition.to_string(),
            term_href(lang, term.id),
        ));
    }
    entries
}

/// Splits rendered chapter HTML into (section id, plain text) at headings with an `id`; the
/// text before the first heading has the empty id.
fn sections(html: &str) -> Vec<(String, String)> {
    let mut out = vec![(String::new(), String::new())];
    let mut rest = html;
    while let Some(open) = rest.find('<') {
        push_text(&mut out, rest.get(..open).unwrap_or(""));
        let Some(close) = rest.get(open..).and_then(|r| r.find('>')) else { break };
        let tag = rest.get(open + 1..open + close).unwrap_or("");
        let is_heading =
            tag.len() > 2 && tag.starts_with('h') && tag.as_bytes().get(1).is_some_and(u8::is_ascii_digit);
        if let Some(id) = tag.split("id=\"").nth(1).and_then(|r| r.split('"').next()).filter(|_| is_heading) {
            out.push((id.to_string(), String::new()));
        } else if is_block(tag) {
            push_text(&mut out, " ");
        }
        rest = rest.get(open + close + 1..).unwrap_or("");
    }
    push_text(&mut out, rest);
    for (_, text) in &mut out {
        *text = text.split_whitespace().collect::<Vec<_>>().join(" ");
    }
    out
}

/// Whether a tag (`p`, `/li`, `td class=…`) separates words; inline tags such as `em` do not.
fn is_block(tag: &str) -> bool {
    let name: String = tag.trim_start_matches('/').chars().take_while(char::is_ascii_alphanumeric).collect();
    matches!(
        name.as_str(),
        "p" | "br"
            | "li"
            | "ul"
            | "ol"
            | "td"
            | "th"
            | "tr"
            | "table"
            | "div"
            | "pre"
            | "blockquote"
            | "details"
            | "summary"
            | "h1"
            | "h2"
            | "h3"
            | "h4"
            | "h5"
            | "h6"
            | "hr"
    )
}

fn push_text(out: &mut [(String, String)], raw: &str) {
    if let Some((_, text)) = out.last_mut() {
        text.push_str(
            &raw.replace("&lt;", "<")
                .replace("&gt;", ">")
                .replace("&quot;", "\"")
                .replace("&#39;", "'")
                .replace("&amp;", "&"),
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The index and the query are folded with ASCII lower case (the wasm then carries no
    /// Unicode case table); that is the same as full lower case as long as the indexed text
    /// has no other letter with case, which this checks (µ folds to itself).
    #[test]
    fn ascii_lower_case_is_full_lower_case_for_the_indexed_text() {
        for lang in [Lang::Zh, Lang::En] {
            for e in index(lang) {
                for text in [&e.title, &e.context, &e.body] {
                    assert_eq!(text.to_lowercase(), text.to_ascii_lowercase(), "{text}");
                }
            }
        }
    }

    #[test]
    fn chinese_is_matched_by_characters() {
        let hits = search(Lang::Zh, "显存");
        assert!(hits.len() >= 5, "{hits:?}");
        for query in ["KV 缓存", "kv缓存"] {
            let hits = search(Lang::Zh, query);
            assert!(
                hits.iter().any(|h| h.kind == HitKind::Term && h.href == "#/zh/glossary?term=kv-cache"),
                "{query}: {hits:?}"
            );
        }
        assert_eq!(tokens(" KV缓存  H100显存 "), vec!["kv", "缓存", "h100", "显存"]);
        // No spaces in the query or the text: still found.
        let hits = search(Lang::Zh, "算术强度");
        assert!(!hits.is_empty());
        assert!(hits.iter().all(|h| h.href.starts_with("#/zh/")));
    }

    #[test]
    fn english_is_case_insensitive_and_titles_rank_first() {
        let hits = search(Lang::En, "tensor core");
        assert!(!hits.is_empty());
        let first = &hits[0];
        assert_eq!(first.kind, HitKind::Chapter, "{first:?}");
        assert!(first.title.to_lowercase().contains("tensor core"));
        assert!(hits.iter().any(|h| h.kind == HitKind::Term && h.href == "#/en/glossary?term=tensor-core"));
        let body = hits.iter().position(|h| h.score == 100);
        let term = hits.iter().position(|h| h.kind == HitKind::Term);
        if let (Some(b), Some(t)) = (body, term) {
            assert!(t < b, "a term outranks body text");
        }
        assert!(hits.windows(2).all(|w| w[0].score >= w[1].score));
    }

    #[test]
    fn all_tokens_are_required_and_snippets_show_the_match() {
        assert!(search(Lang::En, "nvlink zzzzqqq").is_empty());
        assert!(search(Lang::En, "   ").is_empty());
        let hits = search(Lang::En, "ridge point h100");
        assert!(!hits.is_empty());
        let body = hits.iter().find(|h| h.score == 100).expect("a body hit");
        assert!(
            body.snippet.to_lowercase().contains("ridge") || body.snippet.to_lowercase().contains("h100"),
            "{body:?}"
        );
        assert!(body.snippet.chars().count() <= SNIPPET_LEN + 2);
    }

    #[test]
    fn sections_link_to_their_ids_and_tools_are_found() {
        let hits = search(Lang::En, "estimator");
        assert!(hits.iter().any(|h| h.kind == HitKind::Tool && h.href == "#/en/estimate"), "{hits:?}");
        let hits = search(Lang::Zh, "估算器");
        assert!(hits.iter().any(|h| h.href == "#/zh/estimate"));
        let c = &chapters()[1];
        let heading = c.en.headings[0].1;
        let hits = search(Lang::En, heading);
        assert!(hits.iter().any(|h| h.href == format!("#/en/chapters/{}?s=s-1", c.slug)), "{hits:?}");
    }

    #[test]
    fn html_becomes_sections_of_plain_text() {
        let s = sections(
            "<p>Intro &amp; more</p><h2 id=\"s-1\">One</h2><p>a<em>b</em></p><h3 id=\"s-2\">Two</h3><p>c</p>",
        );
        assert_eq!(
            s,
            vec![
                (String::new(), "Intro & more".to_string()),
                ("s-1".to_string(), "One ab".to_string()),
                ("s-2".to_string(), "Two c".to_string())
            ]
        );
        assert_eq!(snippet_at("short", 3), "short");
    }
}
