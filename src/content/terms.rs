//! Finding glossary terms in chapter prose. Used by `render.rs` at build time (the first use of a
//! term in a chapter becomes a link to its glossary entry) and unit-tested natively.
//!
//! A pattern matches case-insensitively at word boundaries: the character before it is not an
//! ASCII letter, digit or `_`, and the one after it is not an ASCII letter or `_` (a digit may
//! follow a pattern that ends in a letter, so `HBM` matches `HBM3e`; `gpu_memory_utilization` is
//! one identifier, not the word "utilization"). A pattern with a capital after its first letter
//! (`SM`, `ZeRO`, `KV cache`) matches only as written. CJK text has no word boundaries to check.
//!
//! A link is a concept, not a string: a term also lists the phrases that contain one of its
//! patterns but mean something else (`not`: "model FLOPs utilisation" is not nvidia-smi's
//! utilisation, "激活函数" is not the stored activations). A match inside one of them is skipped.

/// One glossary term's patterns in one language, and the phrases that are not it.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct TermPatterns {
    pub id: String,
    pub patterns: Vec<String>,
    /// Longer phrases that contain a pattern in another sense: a match inside one is not a use
    /// of the term.
    pub not: Vec<String>,
}

/// A match of a term in a piece of text: byte range and the term's index.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TermMatch {
    pub start: usize,
    pub end: usize,
    pub term: usize,
}

/// A pattern with a capital after its first letter (`SM`, `ZeRO`, `KV cache`) is a name that
/// must match as written; `ZeRO` is not the word "zero".
fn is_case_sensitive(pattern: &str) -> bool {
    pattern.chars().skip(1).any(|c| c.is_ascii_uppercase())
}

/// Part of an ASCII word or identifier: a letter, a digit or `_`.
fn wordish(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '_'
}

fn boundary_ok(text: &str, start: usize, end: usize, pattern: &str) -> bool {
    let before = text.get(..start).and_then(|s| s.chars().next_back());
    let after = text.get(end..).and_then(|s| s.chars().next());
    let first = pattern.chars().next();
    let last = pattern.chars().next_back();
    let before_ok = !first.is_some_and(|c| c.is_ascii_alphanumeric()) || !before.is_some_and(wordish);
    let after_ok = match (last, after) {
        (Some(l), Some(a)) if l.is_ascii_alphabetic() => !(a.is_ascii_alphabetic() || a == '_'),
        (Some(l), Some(a)) if l.is_ascii_digit() => !wordish(a),
        _ => true,
    };
    before_ok && after_ok
}

/// Every place `needle` occurs in `text` at or after byte `from` (ASCII case folded unless
/// `case_sensitive`), as byte ranges, in order.
fn occurrences(text: &str, needle: &str, from: usize, case_sensitive: bool) -> Vec<(usize, usize)> {
    if needle.is_empty() {
        return Vec::new();
    }
    // ASCII lowercasing keeps byte offsets; patterns and the words they match are ASCII or CJK.
    let hay = if case_sensitive { text.to_string() } else { text.to_ascii_lowercase() };
    let needle = if case_sensitive { needle.to_string() } else { needle.to_ascii_lowercase() };
    let mut out = Vec::new();
    let mut at = from;
    while let Some(offset) = hay.get(at..).and_then(|h| h.find(&needle)) {
        let start = at + offset;
        out.push((start, start + needle.len()));
        at = start + hay.get(start..).and_then(|h| h.chars().next()).map_or(1, char::len_utf8);
    }
    out
}

/// The first place `pattern` occurs in `text` as a whole word at or after byte `from`.
pub fn find_pattern_from(text: &str, pattern: &str, from: usize) -> Option<(usize, usize)> {
    occurrences(text, pattern, from, is_case_sensitive(pattern))
        .into_iter()
        .find(|&(start, end)| boundary_ok(text, start, end, pattern))
}

/// The first place `pattern` occurs in `text` as a whole word, as a byte range.
#[cfg(test)]
pub fn find_pattern(text: &str, pattern: &str) -> Option<(usize, usize)> {
    find_pattern_from(text, pattern, 0)
}

/// Whether `start..end` of `text` lies inside one of the phrases `not` (ASCII case folded).
pub fn inside_a_phrase(text: &str, start: usize, end: usize, not: &[String]) -> bool {
    not.iter()
        .any(|phrase| occurrences(text, phrase, 0, false).into_iter().any(|(s, e)| s <= start && end <= e))
}

/// The earliest match at or after byte `from` of `text` of a term for which `wanted(index)`
/// holds and that is not inside one of the term's `not` phrases (which may begin before
/// `from`: `text` can carry the words before the piece being linked); at the same place the
/// longest pattern wins (`ring all-reduce` before `all-reduce`).
pub fn first_match_from(
    text: &str,
    from: usize,
    terms: &[TermPatterns],
    wanted: impl Fn(usize) -> bool,
) -> Option<TermMatch> {
    let mut best: Option<TermMatch> = None;
    for (index, term) in terms.iter().enumerate() {
        if !wanted(index) {
            continue;
        }
        for pattern in &term.patterns {
            let mut at = from;
            while let Some((start, end)) = find_pattern_from(text, pattern, at) {
                if !inside_a_phrase(text, start, end, &term.not) {
                    let better = match best {
                        None => true,
                        Some(b) => start < b.start || (start == b.start && end > b.end),
                    };
                    if better {
                        best = Some(TermMatch { start, end, term: index });
                    }
                    break;
                }
                at = start + text.get(start..).and_then(|t| t.chars().next()).map_or(1, char::len_utf8);
            }
        }
    }
    best
}

/// The earliest match in `text` of a term for which `wanted(index)` holds ([`first_match_from`]
/// from the start).
#[cfg(test)]
pub fn first_match(text: &str, terms: &[TermPatterns], wanted: impl Fn(usize) -> bool) -> Option<TermMatch> {
    first_match_from(text, 0, terms, wanted)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn terms(list: &[(&str, &[&str])]) -> Vec<TermPatterns> {
        list.iter()
            .map(|(id, p)| TermPatterns {
                id: id.to_string(),
                patterns: p.iter().map(|s| s.to_string()).collect(),
                not: Vec::new(),
            })
            .collect()
    }

    #[test]
    fn words_not_parts_of_words() {
        assert_eq!(find_pattern("the KV cache grows", "KV cache"), Some((4, 12)));
        assert_eq!(find_pattern("Memory bandwidth", "memory bandwidth"), Some((0, 16)));
        assert_eq!(find_pattern("zero waste, then ZeRO", "ZeRO"), Some((17, 21)));
        assert_eq!(find_pattern("bring it", "ring"), None);
        assert_eq!(find_pattern("a ring.", "ring"), Some((2, 6)));
        assert_eq!(find_pattern("HBM3e memory", "HBM"), Some((0, 3)));
        assert_eq!(find_pattern("FP16 and FP8", "FP8"), Some((9, 12)));
        assert_eq!(find_pattern("FP16", "FP1"), None);
        assert_eq!(find_pattern("sm and SMS and SM.", "SM"), Some((15, 17)), "acronyms match capitals");
        assert_eq!(
            find_pattern("gpu_memory_utilization 0.9", "utilization"),
            None,
            "an identifier is one word"
        );
        assert_eq!(find_pattern("utilization_pct", "utilization"), None);
    }

    #[test]
    fn a_phrase_that_is_not_the_term_is_skipped() {
        let mut t = terms(&[("utilization", &["utilisation", "利用率"]), ("flops", &["FLOPs"])]);
        t[0].not = vec!["FLOPs utilisation".into(), "模型算力利用率".into()];
        let text = "38% model FLOPs utilisation; GPU utilisation is another thing";
        let m = first_match(text, &t, |i| i == 0).unwrap();
        assert_eq!(&text[m.start..m.end], "utilisation");
        assert!(m.start > text.find(';').unwrap(), "the second use is the term");
        assert!(first_match("模型算力利用率（MFU）", &t, |i| i == 0).is_none());
        // A phrase may begin before the piece being linked.
        let text = "model FLOPs utilisation";
        assert!(first_match_from(text, 12, &t, |i| i == 0).is_none());
        assert_eq!(first_match_from(text, 6, &t, |i| i == 1).map(|m| m.start), Some(6));
    }

    #[test]
    fn chinese_by_characters() {
        let text = "数据中心卡用 HBM，显存带宽决定速度";
        let (s, e) = find_pattern(text, "显存带宽").unwrap();
        assert_eq!(&text[s..e], "显存带宽");
        let (s, e) = find_pattern("每张卡的KV 缓存", "KV 缓存").unwrap();
        assert_eq!(&"每张卡的KV 缓存"[s..e], "KV 缓存");
    }

    #[test]
    fn earliest_then_longest() {
        let t = terms(&[("all-reduce", &["all-reduce"]), ("ring", &["ring all-reduce"]), ("hbm", &["HBM"])]);
        let m = first_match("a ring all-reduce over HBM", &t, |_| true).unwrap();
        assert_eq!((m.term, m.start, m.end), (1, 2, 17));
        let m = first_match("a ring all-reduce over HBM", &t, |i| i != 1).unwrap();
        assert_eq!(m.term, 0);
        assert!(first_match("nothing here", &t, |_| true).is_none());
    }
}
