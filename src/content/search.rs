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
//! (`显存` finds `显存带宽`). A Latin piece of four letters or more that occurs nowhere may be one
//! typo away from a word of a name (`nvlnk` finds NVLink): a name matched so ranks a little
//! lower. A tool is also found by the other language's name and by the words readers use for it
//! (`keys`: "bandwidth lab", "显存计算器"), which are matched but not shown.
//!
//! Ranking: chapter title > tool > section heading > glossary term > a section found only
//! through its chapter's title (every chapter's "Exercises" and "References" would otherwise
//! answer every query that names the chapter) > body text. An exact name match lifts a glossary
//! term above section headings. Within a rank an exact or prefix name match comes first, then
//! reading order.

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
    /// Other names it is found by, `|`-separated, never shown (a tool's name in the other
    /// language and the words readers use for it).
    keys: String,
    /// Lowercased: the names it answers to (title and keys; a term's context, its other
    /// language's name, too), the rest of its context (a section's chapter), and `body`.
    name_key: String,
    context_key: String,
    body_key: String,
}

impl Entry {
    pub fn new(kind: HitKind, title: &str, context: &str, body: String, href: String) -> Entry {
        Entry {
            kind,
            name_key: String::new(),
            context_key: String::new(),
            body_key: body.to_ascii_lowercase(),
            title: title.to_string(),
            context: context.to_string(),
            body,
            href,
            keys: String::new(),
        }
        .keyed()
    }

    /// The entry also found by `keys` (other names, `|`-separated; matched, not shown).
    pub fn with_keys(mut self, keys: &str) -> Entry {
        self.keys = keys.to_string();
        self.keyed()
    }

    fn keyed(mut self) -> Entry {
        let (title, context) = (self.title.to_ascii_lowercase(), self.context.to_ascii_lowercase());
        self.name_key = format!("{title} | {}", self.keys.to_ascii_lowercase());
        if self.kind == HitKind::Term {
            self.name_key = format!("{} | {context}", self.name_key);
        } else {
            self.context_key = context;
        }
        self
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

    /// Every text of every entry (its title, context, body and keys), for checks over the index.
    pub fn texts(&self) -> impl Iterator<Item = &str> {
        self.entries
            .iter()
            .flat_map(|e| [e.title.as_str(), e.context.as_str(), e.body.as_str(), e.keys.as_str()])
    }

    /// The index file: a JSON array with one `[kind, title, context, body, href]` array per
    /// entry (kind `c` chapter, `s` section, `g` glossary term, `t` tool), and a sixth element,
    /// its keys, where it has any.
    pub fn to_json(&self) -> String {
        let rows: Vec<Value> = self
            .entries
            .iter()
            .map(|e| {
                let keys = (!e.keys.is_empty()).then_some(e.keys.as_str());
                Value::Array(
                    [e.kind.code(), &e.title, &e.context, &e.body, &e.href]
                        .into_iter()
                        .chain(keys)
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
            let (fields, keys) = match text.as_slice() {
                [fields @ .., keys] if fields.len() == 5 => (fields, *keys),
                fields => (fields, ""),
            };
            let [kind, title, context, body, href] = fields else { return None };
            let entry =
                Entry::new(HitKind::from_code(kind)?, title, context, body.to_string(), href.to_string());
            entries.push(if keys.is_empty() { entry } else { entry.with_keys(keys) });
        }
        Some(Index { entries })
    }

    /// Searches the index (shown by `ui::search::results_html`). An empty query finds nothing.
    pub fn search(&self, query: &str) -> Vec<Hit> {
        let tokens = tokens(query);
        if tokens.is_empty() {
            return Vec::new();
        }
        // A piece is read as a typo only where it occurs nowhere as typed (`estimator` is a word,
        // not a typo of `estimate`).
        let typos: Vec<bool> = tokens
            .iter()
            .map(|t| {
                !self.entries.iter().any(|e| {
                    e.name_key.contains(t.as_str())
                        || e.context_key.contains(t.as_str())
                        || e.body_key.contains(t.as_str())
                })
            })
            .collect();
        // Insertion after the equal scores keeps reading order within a rank (and no sort code).
        let mut hits: Vec<Hit> = Vec::new();
        for hit in self.entries.iter().filter_map(|entry| score(entry, &tokens, &typos)) {
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

/// Where a query piece was found in an entry (the best place).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Found {
    /// Only in its body text.
    Body,
    /// One typo away from a word of a name.
    Typo,
    /// In its context (a section's chapter title).
    Context,
    /// In one of its names.
    Name,
}

fn found(entry: &Entry, token: &str, maybe_typo: bool) -> Option<Found> {
    if entry.name_key.contains(token) {
        Some(Found::Name)
    } else if entry.context_key.contains(token) {
        Some(Found::Context)
    } else if maybe_typo && typo_of_a_word(token, &entry.name_key) {
        Some(Found::Typo)
    } else if entry.body_key.contains(token) {
        Some(Found::Body)
    } else {
        None
    }
}

fn score(entry: &Entry, tokens: &[String], typos: &[bool]) -> Option<Hit> {
    let places: Vec<Found> = tokens
        .iter()
        .zip(typos)
        .map(|(t, &maybe_typo)| found(entry, t, maybe_typo))
        .collect::<Option<_>>()?;
    let only = |allowed: &[Found]| places.iter().all(|p| allowed.contains(p));
    let by_name = |bonus: bool| {
        let rank = match entry.kind {
            HitKind::Chapter => 400,
            HitKind::Tool => 350,
            HitKind::Section => 300,
            HitKind::Term => 280,
        };
        let query = tokens.join(" ");
        let title = entry.title.to_ascii_lowercase();
        let names = std::iter::once(title.as_str()).chain(entry.keys.split('|').map(str::trim));
        let close = |n: &str| {
            let n = n.to_ascii_lowercase();
            typo_of_a_word(&query, &n) && !n.contains(|c: char| !c.is_ascii_alphanumeric())
        };
        let extra = if !bonus {
            // A typo of a whole name (`nvlnk` for NVLink) is as good as the name.
            if names.clone().any(close) {
                50
            } else {
                0
            }
        } else if names.clone().any(|n| n.eq_ignore_ascii_case(&query)) {
            50
        } else if names.clone().any(|n| n.to_ascii_lowercase().starts_with(&query)) {
            20
        } else {
            0
        };
        rank + extra
    };
    let (score, in_body) = if only(&[Found::Name]) {
        (by_name(true), false)
    } else if only(&[Found::Name, Found::Typo]) {
        (by_name(false) - 40, false)
    } else if only(&[Found::Name, Found::Typo, Found::Context]) {
        // A section only through its chapter's name: below the terms, above body text.
        (150, false)
    } else {
        (100, true)
    };
    let snippet = if in_body {
        let first = tokens.iter().filter_map(|t| entry.body_key.find(t.as_str())).min().unwrap_or(0);
        let chars_before = entry.body_key.get(..first).map_or(0, |s| s.chars().count());
        snippet_at(&entry.body, chars_before)
    } else {
        snippet_at(&entry.body, 0)
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

/// Whether `token` (Latin, four letters or more) is one edit from a word of `text` (two for
/// eight letters or more): a letter missing, extra, wrong or two letters swapped.
fn typo_of_a_word(token: &str, text: &str) -> bool {
    let n = token.len();
    if n < 4 || !token.bytes().all(|b| b.is_ascii_alphanumeric()) {
        return false;
    }
    let most = if n >= 8 { 2 } else { 1 };
    text.split(|c: char| !c.is_ascii_alphanumeric())
        .filter(|w| w.len() + most >= n && w.len() <= n + most)
        .any(|w| edits(token.as_bytes(), w.as_bytes()) <= most)
}

/// Optimal string alignment distance: insertions, deletions, substitutions and swaps of two
/// neighbours, each one edit.
fn edits(a: &[u8], b: &[u8]) -> usize {
    let width = b.len() + 1;
    let mut d: Vec<usize> = (0..(a.len() + 1) * width).map(|k| if k < width { k } else { 0 }).collect();
    let at = |i: usize, j: usize| i * width + j;
    for i in 1..=a.len() {
        if let Some(cell) = d.get_mut(at(i, 0)) {
            *cell = i;
        }
        for j in 1..=b.len() {
            let get = |i: usize, j: usize| d.get(at(i, j)).copied().unwrap_or(usize::MAX / 2);
            let same = a.get(i - 1) == b.get(j - 1);
            let mut best =
                (get(i - 1, j) + 1).min(get(i, j - 1) + 1).min(get(i - 1, j - 1) + usize::from(!same));
            if i > 1 && j > 1 && a.get(i - 1) == b.get(j - 2) && a.get(i - 2) == b.get(j - 1) {
                best = best.min(get(i - 2, j - 2) + 1);
            }
            if let Some(cell) = d.get_mut(at(i, j)) {
                *cell = best;
            }
        }
    }
    d.get(at(a.len(), b.len())).copied().unwrap_or(usize::MAX)
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
    fn a_typo_finds_a_name_only_where_the_piece_occurs_nowhere() {
        let index = small();
        let hits = index.search("bandwdth");
        assert_eq!(hits.first().map(|h| h.title.as_str()), Some("Memory bandwidth"), "{hits:?}");
        assert!(hits.iter().all(|h| h.score < 400), "a typo ranks below the name: {hits:?}");
        // One letter more than a word of a heading.
        assert_eq!(index.search("ridgex").first().map(|h| h.kind), Some(HitKind::Section));
        assert!(index.search("memroy bandwidth").iter().any(|h| h.kind == HitKind::Chapter));
        // Short pieces and Chinese are never read as typos.
        assert!(index.search("kvc").is_empty());
        assert!(index.search("缓在").is_empty());
        assert_eq!(edits(b"nvlnk", b"nvlink"), 1);
        assert_eq!(edits(b"nvilnk", b"nvlink"), 1, "two letters swapped");
        assert_eq!(edits(b"tensor", b"tensro"), 1);
        assert_eq!(edits(b"abc", b"xyz"), 3);
        assert!(typo_of_a_word("nvlnk", "pcie, nvlink and nvswitch"));
        assert!(!typo_of_a_word("nvl", "nvlink"));
    }

    #[test]
    fn keys_find_an_entry_without_being_shown() {
        let index = Index::new(vec![Entry::new(
            HitKind::Tool,
            "WebGPU lab",
            "",
            "Measure the browser's GPU.".into(),
            "#/en/lab/bandwidth/".into(),
        )
        .with_keys("bandwidth lab|WebGPU 实验室")]);
        let hits = index.search("bandwidth lab");
        assert_eq!(hits.len(), 1);
        assert_eq!(hits[0].score, 400, "an exact key is an exact name");
        assert_eq!(hits[0].title, "WebGPU lab");
        assert!(!hits[0].snippet.contains("bandwidth lab"));
        assert_eq!(index.search("实验室").len(), 1);
        assert_eq!(Index::from_json(&index.to_json()), Some(index));
    }

    #[test]
    fn a_section_found_only_through_its_chapter_ranks_below_terms() {
        let index = Index::new(vec![
            Entry::new(HitKind::Section, "Exercises", "Tensor Cores", String::new(), "#e".into()),
            Entry::new(HitKind::Section, "References", "Tensor Cores", String::new(), "#r".into()),
            Entry::new(HitKind::Term, "Tensor Core", "张量核心", "A matrix unit.".into(), "#t".into()),
        ]);
        let hits = index.search("tensor core");
        assert_eq!(
            hits.iter().map(|h| h.href.as_str()).collect::<Vec<_>>(),
            vec!["#t", "#e", "#r"],
            "{hits:?}"
        );
        assert_eq!(hits[1].score, 150);
        // Found by its own heading, a section still outranks a term matched in part.
        assert_eq!(index.search("exercises")[0].score, 350);
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
