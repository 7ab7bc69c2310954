//! Finding glossary terms in chapter prose. Used by `render.rs` at build time (the first use of a
//! term in a chapter becomes a link to its glossary entry) and unit-tested natively.
//!
//! A pattern matches case-insensitively at word boundaries: the character before it is not an
//! ASCII letter or digit, and the one after it is not an ASCII letter (a digit may follow a
//! pattern that ends in a letter, so `HBM` matches `HBM3e`). A pattern with a capital after its
//! first letter (`SM`, `ZeRO`, `KV cache`) matches only as written. CJK text has no word
//! boundaries to check.

/// One glossary term's patterns in one language.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TermPatterns {
    pub id: String,
    pub patterns: Vec<String>,
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

fn boundary_ok(text: &str, start: usize, end: usize, pattern: &str) -> bool {
    let before = text.get(..start).and_then(|s| s.chars().next_back());
    let after = text.get(end..).and_then(|s| s.chars().next());
    let first = pattern.chars().next();
    let last = pattern.chars().next_back();
    let before_ok = !first.is_some_and(|c| c.is_ascii_alphanumeric())
        || !before.is_some_and(|c| c.is_ascii_alphanumeric());
    let after_ok = match (last, after) {
        (Some(l), Some(a)) if l.is_ascii_alphabetic() => !a.is_ascii_alphabetic(),
        (Some(l), Some(a)) if l.is_ascii_digit() => !a.is_ascii_alphanumeric(),
        _ => true,
    };
    before_ok && after_ok
}

/// The first place `pattern` occurs in `text` as a whole word, as a byte range.
pub fn find_pattern(text: &str, pattern: &str) -> Option<(usize, usize)> {
    if pattern.is_empty() {
        return None;
    }
    let case_sensitive = is_case_sensitive(pattern);
    // ASCII lowercasing keeps byte offsets; patterns and the words they match are ASCII or CJK.
    let hay = if case_sensitive { text.to_string() } else { text.to_ascii_lowercase() };
    let needle = if case_sensitive { pattern.to_string() } else { pattern.to_ascii_lowercase() };
    let mut from = 0;
    while let Some(offset) = hay.get(from..).and_then(|h| h.find(&needle)) {
        let start = from + offset;
        let end = start + needle.len();
        if boundary_ok(text, start, end, pattern) {
            return Some((start, end));
        }
        from = start + hay.get(start..).and_then(|h| h.chars().next()).map_or(1, char::len_utf8);
    }
    None
}

/// The earliest match in `text` of a term for which `wanted(index)` holds; at the same place the
/// longest pattern wins (`ring all-reduce` before `all-reduce`).
pub fn first_match(text: &str, terms: &[TermPatterns], wanted: impl Fn(usize) -> bool) -> Option<TermMatch> {
    let mut best: Option<TermMatch> = None;
    for (index, term) in terms.iter().enumerate() {
        if !wanted(index) {
            continue;
        }
        for pattern in &term.patterns {
            if let Some((start, end)) = find_pattern(text, pattern) {
                let better = match best {
                    None => true,
                    Some(b) => start < b.start || (start == b.start && end > b.end),
                };
                if better {
                    best = Some(TermMatch { start, end, term: index });
                }
            }
        }
    }
    best
}

#[cfg(test)]
mod tests {
    use super::*;

    fn terms(list: &[(&str, &[&str])]) -> Vec<TermPatterns> {
        list.iter()
            .map(|(id, p)| TermPatterns {
                id: id.to_string(),
                patterns: p.iter().map(|s| s.to_string()).collect(),
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
