//! The catalog ids nearest to one that is not in it, for an error that suggests a few instead
//! of listing every id: ids that contain what was typed (or are contained in it) first, then by
//! edit distance (Levenshtein: single-character insertions, deletions and substitutions),
//! ignoring ASCII case (ids are ASCII; no Unicode case tables in the wasm); ties keep the
//! catalog's order.

/// How many of the nearest catalog ids an unknown id's error suggests.
pub const SUGGESTED_IDS: usize = 5;

/// At most `n` of `ids` nearest to `typed`.
pub fn closest_ids(typed: &str, ids: &[String], n: usize) -> Vec<String> {
    let t = typed.trim().to_ascii_lowercase();
    let mut scored: Vec<((bool, usize), &String)> = ids
        .iter()
        .map(|id| {
            let l = id.to_ascii_lowercase();
            let contains = !t.is_empty() && (l.contains(&t) || t.contains(&l));
            ((!contains, distance(&t, &l)), id)
        })
        .collect();
    // Stable: ties keep the catalog's order.
    super::num::sort_stable_by(&mut scored, |a, b| a.0 < b.0);
    scored.into_iter().take(n).map(|(_, id)| id.clone()).collect()
}

/// Levenshtein distance between two strings, by characters.
fn distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut prev: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut cur = Vec::with_capacity(b.len() + 1);
        cur.push(i + 1);
        for (j, cb) in b.iter().enumerate() {
            let sub = prev.get(j).copied().unwrap_or(usize::MAX).saturating_add(usize::from(ca != *cb));
            let del = prev.get(j + 1).copied().unwrap_or(usize::MAX).saturating_add(1);
            let ins = cur.last().copied().unwrap_or(usize::MAX).saturating_add(1);
            cur.push(sub.min(del).min(ins));
        }
        prev = cur;
    }
    prev.last().copied().unwrap_or(0)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ids(v: &[&str]) -> Vec<String> {
        v.iter().map(|s| (*s).to_owned()).collect()
    }

    #[test]
    fn worked_distances() {
        assert_eq!(distance("kitten", "sitting"), 3);
        assert_eq!(distance("", "abc"), 3);
        assert_eq!(distance("abc", "abc"), 0);
        assert_eq!(distance("llama-3-70b", "llama-3.1-70b"), 2);
    }

    #[test]
    fn the_nearest_few_come_first() {
        let all =
            ids(&["gpt2", "llama-3.1-8b", "llama-3.1-70b", "llama-3.3-70b", "qwen2.5-7b", "llama-2-70b"]);
        let near = closest_ids("llama-3-70b", &all, 3);
        assert_eq!(near, ids(&["llama-2-70b", "llama-3.1-70b", "llama-3.3-70b"]));
        // What was typed inside an id wins over a short edit distance.
        assert_eq!(closest_ids("qwen", &all, 1), ids(&["qwen2.5-7b"]));
        assert_eq!(closest_ids("LLAMA-3.1-8B", &all, 1), ids(&["llama-3.1-8b"]));
        assert!(closest_ids("x", &[], 5).is_empty());
        assert_eq!(closest_ids("", &all, 2).len(), 2);
    }
}
