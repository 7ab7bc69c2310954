//! Which way a bound points (issue 33, class 1). With peak rates, max(W/F, Q/B, C/N) is the
//! shortest possible time: a roofline TIME is a lower bound ("at least", "shortest possible",
//! zh 下限 / 至少 / 最短) and a RATE derived from it is an upper bound ("at most", "ceiling",
//! zh 上限 / 最多 / 最高). This linter reads every text a reader sees (the chapters, the
//! glossary, and every line of the source outside its tests: the interface strings, the widgets,
//! the tools, the exercises) and flags a bound word whose nearest time or rate word, in the same
//! clause, points the other way: "上限约 4.6 ms", "at least 215 tokens/s". The phrases below that
//! are right for a stated reason are the only exceptions.
//!
//! A label that one string shares between a time and a rate cannot be read this way (the column
//! header over 4.64 ms and 216 tokens/s): the estimator words those by quantity
//! (`i18n::BoundLabel`), tested where they are drawn.

use std::path::{Path, PathBuf};

/// Words that bound from above and from below, in both languages.
const UPPER: &[&str] = &[
    "upper bound",
    "at most",
    "ceiling",
    "no more than",
    "highest possible",
    "上限",
    "上界",
    "最多",
    "至多",
    "不超过",
    "最高",
];
const LOWER: &[&str] = &[
    "lower bound",
    "at least",
    "no less than",
    "shortest possible",
    "下限",
    "下界",
    "至少",
    "最少",
    "最短",
    "不低于",
    "不少于",
];

/// Words that name a time, and words that name a rate. A unit with `/s` is a rate, so rates are
/// looked for first at each place.
const RATE: &[&str] = &[
    "tokens/s",
    "token/s",
    "FLOP/s",
    "FLOPS",
    "TB/s",
    "GB/s",
    "B/s",
    "per second",
    "throughput",
    "bandwidth",
    "speed",
    "每秒",
    "吞吐",
    "速度",
    "速率",
    "请求率",
    "request rate",
    " rate",
    "带宽",
    "算力",
];
const TIME: &[&str] = &[
    " ms",
    " µs",
    " ns",
    "milliseconds",
    "microseconds",
    "seconds",
    "latency",
    "run time",
    "step time",
    " time",
    " takes",
    "毫秒",
    "微秒",
    "时间",
    "耗时",
    "用时",
    "延迟",
    "时延",
];

/// Phrases that put a bound word next to a time or a rate and are right, each with its reason.
const ALLOWED: &[(&str, &str)] = &[
    ("耗时最多的", "the kernels that take the most time (a ranking), not a bound"),
    ("都不超目标的最多每副本并发用户", "the most users (a count) whose p95 times stay within their targets"),
];

/// A piece of reader text and where it is.
struct Text {
    at: String,
    text: String,
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

/// The chapters (outside code blocks), the glossary's definitions, and the source's lines
/// outside its test modules and comments, in both languages.
fn reader_texts() -> Vec<Text> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut out = Vec::new();
    for lang in ["en", "zh"] {
        let mut chapters: Vec<PathBuf> =
            std::fs::read_dir(root.join("content").join(lang)).unwrap().map(|e| e.unwrap().path()).collect();
        chapters.sort();
        for p in chapters {
            let text = std::fs::read_to_string(&p).unwrap();
            let mut code = false;
            for (i, l) in text.lines().enumerate() {
                if l.trim_start().starts_with("```") {
                    code = !code;
                }
                if !code {
                    let at = format!("{}:{}", p.strip_prefix(root).unwrap().display(), i + 1);
                    out.push(Text { at, text: l.to_owned() });
                }
            }
        }
    }
    let glossary: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(root.join("content/glossary.json")).unwrap()).unwrap();
    for t in glossary["terms"].as_array().unwrap() {
        for lang in ["en", "zh"] {
            let text = t[lang]["def"].as_str().unwrap().to_owned();
            out.push(Text { at: format!("glossary {} {lang}.def", t["id"]), text });
        }
    }
    let mut files = Vec::new();
    rust_files(&root.join("src"), &mut files);
    files.sort();
    for p in files {
        let text = std::fs::read_to_string(&p).unwrap();
        let body =
            ["#[cfg(test)]\nmod tests", "#[cfg(test)]\npub(crate) mod tests", "#[cfg(test)]\npub mod tests"]
                .iter()
                .filter_map(|m| text.find(m))
                .min()
                .map_or(text.as_str(), |at| &text[..at]);
        for (i, l) in body.lines().enumerate() {
            if !l.trim_start().starts_with("//") {
                let at = format!("{}:{}", p.strip_prefix(root).unwrap().display(), i + 1);
                out.push(Text { at, text: l.to_owned() });
            }
        }
    }
    out
}

/// `line` with every number placeholder (`{r:…}`, `{f:…}`, `{key}`) replaced by `N`: what the
/// reader sees there is a number, not the words of its path.
fn numbers_as_read(line: &str) -> String {
    let mut out = String::with_capacity(line.len());
    let mut rest = line;
    while let Some(open) = rest.find('{') {
        let Some(close) = rest[open..].find('}') else { break };
        let inner = &rest[open + 1..open + close];
        out.push_str(&rest[..open]);
        let placeholder = inner == "key" || inner.chars().nth(1) == Some(':');
        out.push_str(if placeholder { "N" } else { &rest[open..=open + close] });
        rest = &rest[open + close + 1..];
    }
    out.push_str(rest);
    out
}

/// The clauses of a line: split at sentence and clause marks of both languages.
fn clauses(line: &str) -> Vec<&str> {
    line.split(['。', '；', ';', '！', '？', '!', '?', '，', '、', '|', '：'])
        .flat_map(|c| c.split(". "))
        .flat_map(|c| c.split(", "))
        .flat_map(|c| c.split(": "))
        .collect()
}

/// Byte offsets of every occurrence of each of `words` in `text` (ASCII case folded).
fn places(text: &str, words: &[&str]) -> Vec<(usize, usize)> {
    let hay = text.to_ascii_lowercase();
    let mut out = Vec::new();
    for w in words {
        let needle = w.to_ascii_lowercase();
        let mut from = 0;
        while let Some(i) = hay.get(from..).and_then(|h| h.find(&needle)) {
            out.push((from + i, from + i + needle.len()));
            from += i + needle.len();
        }
    }
    out
}

/// How far apart two byte ranges are, in characters.
fn distance(text: &str, a: (usize, usize), b: (usize, usize)) -> usize {
    let (from, to) = if a.1 <= b.0 {
        (a.1, b.0)
    } else if b.1 <= a.0 {
        (b.1, a.0)
    } else {
        return 0;
    };
    text.get(from..to).map_or(usize::MAX, |s| s.chars().count())
}

/// The bound words of `clause` that point the wrong way for the quantity they bound: a time or
/// rate word right before it ("速度上限", "时间的下限", "it takes at least"), else the nearest
/// one after it within a few words ("at most N tokens/s", "下限是多少毫秒").
fn wrong_bounds(clause: &str) -> Vec<String> {
    const WINDOW: usize = 24;
    let rates = places(clause, RATE);
    // A time word inside a rate word (`per second`'s "second") is the rate.
    let times: Vec<(usize, usize)> = places(clause, TIME)
        .into_iter()
        .filter(|t| !rates.iter().any(|r| r.0 <= t.0 && t.1 <= r.1))
        .collect();
    let quantities: Vec<((usize, usize), bool)> =
        times.iter().map(|t| (*t, true)).chain(rates.iter().map(|r| (*r, false))).collect();
    let mut out = Vec::new();
    for (words, upper) in [(UPPER, true), (LOWER, false)] {
        for b in places(clause, words) {
            let nearest = |after: bool| {
                quantities
                    .iter()
                    .filter(|(q, _)| if after { q.0 >= b.1 } else { q.1 <= b.0 })
                    .map(|(q, is_time)| (distance(clause, b, *q), *is_time))
                    .filter(|(d, _)| *d <= WINDOW)
                    .min()
            };
            // Right before: nothing, a space or 的 between the quantity and the bound word.
            let adjacent = quantities
                .iter()
                .find(|(q, _)| q.1 <= b.0 && matches!(clause.get(q.1..b.0).map(str::trim), Some("" | "的")))
                .map(|(_, is_time)| (0, *is_time));
            let Some((_, is_time)) = adjacent.or_else(|| nearest(true)) else {
                continue;
            };
            if upper == is_time {
                let word = clause.get(b.0..b.1).unwrap_or("");
                let side = if upper { "an upper bound on a time" } else { "a lower bound on a rate" };
                out.push(format!("'{word}' is {side}"));
            }
        }
    }
    out
}

#[test]
fn the_linter_reads_the_direction() {
    for wrong in [
        "按峰值带宽算，每步上限约 4.6 ms",
        "the decode step takes at most 4.64 ms",
        "at least 215 tokens/s",
        "吞吐至少 215 token/s",
        "Upper bound on the step time: 4.64 ms",
    ] {
        assert!(clauses(wrong).iter().any(|c| !wrong_bounds(c).is_empty()), "{wrong}");
    }
    assert_eq!(
        numbers_as_read("约 {r:a:phases.decode.time_s_bound:1e3:1} ms（{key}）{x}"),
        "约 N ms（N）{x}"
    );
    for right in [
        "按峰值带宽，上限约 215 token/s",
        "运行时间的下限是多少毫秒",
        "a lower bound on time, an upper bound on speed",
        "What is the lower bound on its run time, in milliseconds",
        "即使带宽跑满，每秒最多也只能生成约 152 个 token",
        "at most 100 requests of 4,096 tokens",
        "功耗上限",
        "roofline 极限（速度的上限、时间的下限）",
        "the shortest possible time, the highest possible rate",
        "引擎算出的速度上限",
    ] {
        assert!(clauses(right).iter().all(|c| wrong_bounds(c).is_empty()), "{right}: {:?}", clauses(right));
    }
}

#[test]
fn every_bound_names_what_it_bounds() {
    let texts = reader_texts();
    assert!(texts.len() > 5000, "the scan reads the reader's text ({} lines)", texts.len());
    let mut problems = Vec::new();
    let mut used = vec![false; ALLOWED.len()];
    for t in &texts {
        let mut line = numbers_as_read(&t.text);
        for (i, (phrase, _)) in ALLOWED.iter().enumerate() {
            if line.contains(phrase) {
                used[i] = true;
                line = line.replace(phrase, " ");
            }
        }
        for clause in clauses(&line) {
            for w in wrong_bounds(clause) {
                problems.push(format!("{}: {w}: “{}”", t.at, clause.trim()));
            }
        }
    }
    for (i, (phrase, why)) in ALLOWED.iter().enumerate() {
        assert!(used[i], "the allowed phrase '{phrase}' ({why}) is no longer used: remove it");
    }
    assert!(problems.is_empty(), "{} bounds point the wrong way:\n{}", problems.len(), problems.join("\n"));
}
