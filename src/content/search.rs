//! Site search: chapters, sections, glossary terms and tools, in one language.
//!
//! The index is a file per language written at build time (`site::search_index`: chapter
//! titles, section headings with their `s-N` ids, the glossary, the tools, and the plain text
//! of each section taken from the rendered chapters), which the page fetches when the search
//! field is first used. This module reads that file ([`Index::from_json`]) and matches queries
//! against it; it is pure and runs in the browser and in the tests alike.
//!
//! Matching is by characters, not words: the query is split at whitespace and every piece must
//! occur (case-insensitively) somewhere in the entry, so Chinese matches without spaces
//! (`显存` finds `显存带宽`). Ranking: chapter title > tool > section heading > glossary term >
//! body text; within a rank an exact or prefix title match comes first, then reading order.

use serde_json::Value;

/// What a result is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum HitKind {
    Chapter,
    Section,
    Term,
    Tool,
}

/// One searchable thing.
#[derive(Debug, Clone, PartialEq)]
pub struct Entry {
    kind: HitKind,
    title: String,
    /// Where it is: the chapter of a section, the other language's name of a term.
    context: String,
    /// Matched too, but shown only as a snippet.
    body: String,
    /// Where it is, as an in-site link in the hash form (`#/en/chapters/cuda/#s-2`).
    href: String,
    /// Lowercased `title` and `context` together, and `body`.
    title_key: String,
    body_key: String,
}

impl Entry {
    pub fn new(kind: HitKind, title: &str, context: &str, body: String, href: String) -> Entry {
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

impl HitKind {
    /// Its letter in the index file.
    fn code(self) -> &'static str {
        match self {
            HitKind::Chapter => "c",
            HitKind::Section => "s",
            HitKind::Term => "g",
            HitKind::Tool => "t",
        }
    }

    fn from_code(code: &str) -> Option<HitKind> {
        [HitKind::Chapter, HitKind::Section, HitKind::Term, HitKind::Tool]
            .into_iter()
            .find(|k| k.code() == code)
    }
}

/// One language's searchable entries, in reading order.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Index {
    entries: Vec<Entry>,
}

impl Index {
    pub fn new(entries: Vec<Entry>) -> Index {
        Index { entries }
    }

    pub fn entries(&self) -> &[Entry] {
        &self.entries
    }

    /// Every text of every entry (its title, context and body), for checks over the index.
    pub fn texts(&self) -> impl Iterator<Item = &str> {
        self.entries.iter().flat_map(|e| [e.title.as_str(), e.context.as_str(), e.body.as_str()])
    }

    /// The index file: a JSON array with one `[kind, title, context, body, href]` array per
    /// entry (kind `c` chapter, `s` section, `g` glossary term, `t` tool).
    pub fn to_json(&self) -> String {
        let rows: Vec<Value> = self
            .entries
            .iter()
            .map(|e| {
                Value::Array(
                    [e.kind.code(), &e.title, &e.context, &e.body, &e.href]
                        .into_iter()
                        .map(|s| Value::String(s.to_string()))
                        .collect(),
                )
            })
            .collect();
        Value::Array(rows).to_string()
    }

    /// Reads an index file; `None` when it is not one (a damaged or foreign file).
    pub fn from_json(text: &str) -> Option<Index> {
        let rows = match serde_json::from_str::<Value>(text).ok()? {
            Value::Array(rows) => rows,
            _ => return None,
        };
        let mut entries = Vec::with_capacity(rows.len());
        for row in rows {
            let Value::Array(cells) = row else { return None };
            let text: Vec<&str> = cells.iter().filter_map(Value::as_str).collect();
            let [kind, title, context, body, href] = text.as_slice() else { return None };
            entries.push(Entry::new(
                HitKind::from_code(kind)?,
                title,
                context,
                body.to_string(),
                href.to_string(),
            ));
        }
        Some(Index { entries })
    }

    /// Searches the index (shown by `ui::search::results_html`). An empty query finds nothing.
    pub fn search(&self, query: &str) -> Vec<Hit> {
        let tokens = tokens(query);
        if tokens.is_empty() {
            return Vec::new();
        }
        // Insertion after the equal scores keeps reading order within a rank (and no sort code).
        let mut hits: Vec<Hit> = Vec::new();
        for hit in self.entries.iter().filter_map(|entry| score(entry, &tokens)) {
            let at = hits.partition_point(|h| h.score >= hit.score);
            if at < MAX_HITS {
                hits.insert(at, hit);
                hits.truncate(MAX_HITS);
            }
        }
        hits
    }
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

#[cfg(test)]
mod tests {
    use super::*;

    fn small() -> Index {
        Index::new(vec![
            Entry::new(
                HitKind::Chapter,
                "Memory bandwidth",
                "",
                "Why decode reads every weight.".into(),
                "#/en/chapters/memory-bandwidth/".into(),
            ),
            Entry::new(
                HitKind::Section,
                "The ridge point",
                "Tensor Cores",
                "Where an H100 turns compute-bound.".into(),
                "#/en/chapters/tensor-cores/#s-2".into(),
            ),
            Entry::new(
                HitKind::Term,
                "KV 缓存",
                "KV cache",
                "每个序列的键和值。".into(),
                "#/zh/glossary/#term-kv-cache".into(),
            ),
            Entry::new(
                HitKind::Tool,
                "Estimator",
                "",
                "Memory, time and scaling.".into(),
                "#/en/estimate/".into(),
            ),
        ])
    }

    #[test]
    fn the_index_file_round_trips_and_damaged_files_are_refused() {
        let index = small();
        assert_eq!(Index::from_json(&index.to_json()), Some(index));
        for bad in ["", "{}", "[[\"x\",\"a\",\"b\",\"c\",\"d\"]]", "[[\"c\",\"a\"]]", "[1]"] {
            assert_eq!(Index::from_json(bad), None, "{bad}");
        }
        assert_eq!(Index::from_json("[]"), Some(Index::default()));
    }

    #[test]
    fn every_piece_must_occur_and_titles_outrank_bodies() {
        let index = small();
        assert!(index.search("   ").is_empty());
        assert!(index.search("memory zzzz").is_empty());
        let hits = index.search("memory");
        assert_eq!(hits[0].kind, HitKind::Chapter, "{hits:?}");
        assert!(hits.windows(2).all(|w| w[0].score >= w[1].score));
        let h100 = index.search("h100 ridge");
        assert_eq!(h100.len(), 1);
        assert_eq!(h100[0].href, "#/en/chapters/tensor-cores/#s-2");
        let zh = index.search("kv缓存");
        assert_eq!(zh.len(), 1, "Chinese needs no spaces: {zh:?}");
        assert_eq!(tokens(" KV缓存  H100显存 "), vec!["kv", "缓存", "h100", "显存"]);
    }

    #[test]
    fn snippets_are_short_and_marked_where_cut() {
        assert_eq!(snippet_at("short", 3), "short");
        let long = "x".repeat(300);
        let s = snippet_at(&long, 150);
        assert!(s.starts_with('…') && s.ends_with('…'));
        assert!(s.chars().count() <= SNIPPET_LEN + 2);
    }
}
