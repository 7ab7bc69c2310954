//! The two languages say the same thing: every section of every chapter, and every exercise's
//! question, hint and worked solution, states the same numbers in zh and en (compared as
//! numbers, whatever their formatting: `2,039` and `2039`, `6.74 billion` and `67.4 亿`).
//! Numbers up to 10 are left out: one language spells them as words ("eight GPUs", "两个").

#[path = "support/numbers.rs"]
mod numbers;

use gpu_primer::content::{chapters, Page, Segment};
use gpu_primer::exercises;
use gpu_primer::i18n::Lang;

/// The page's text by section (split at each `<h2`), placeholders left as they are.
fn sections(page: &Page) -> Vec<String> {
    let html: String = page
        .segments
        .iter()
        .map(|s| match s {
            Segment::Html(h) => (*h).to_string(),
            _ => String::new(),
        })
        .collect();
    html.split("<h2").map(numbers::plain_text).collect()
}

/// The numbers of `text` whose value is above 10.
fn distinct(text: &str) -> Vec<numbers::Number> {
    numbers::numbers(text).into_iter().filter(|n| n.value > 10.0).collect()
}

/// Whether two numbers are the same: by value, or as written (`8.03B` and `80.3 亿` are both
/// 8.03e9; a number one language writes with a multiplier word the other may write in full).
fn alike(a: &numbers::Number, b: &numbers::Number) -> bool {
    [a.value, a.written].iter().any(|&x| [b.value, b.written].iter().any(|&y| numbers::same(x, y)))
}

/// What `zh` and `en` do not share, as "only in zh: …; only in en: …", or `None`.
fn difference(zh: &str, en: &str) -> Option<String> {
    let (z, e) = (distinct(zh), distinct(en));
    let only = |a: &[numbers::Number], b: &[numbers::Number]| -> Vec<String> {
        let mut out: Vec<String> = Vec::new();
        for x in a.iter().filter(|x| !b.iter().any(|y| alike(x, y))) {
            let s = format!("{}", x.value);
            if !out.contains(&s) {
                out.push(s);
            }
        }
        out
    };
    let (oz, oe) = (only(&z, &e), only(&e, &z));
    (!oz.is_empty() || !oe.is_empty())
        .then(|| format!("only in zh: {}; only in en: {}", oz.join(", "), oe.join(", ")))
}

#[test]
fn every_section_states_the_same_numbers_in_both_languages() {
    let mut problems = Vec::new();
    for ch in chapters() {
        let (zh, en) = (sections(ch.zh), sections(ch.en));
        assert_eq!(zh.len(), en.len(), "{}: sections", ch.slug);
        for (i, (z, e)) in zh.iter().zip(&en).enumerate() {
            if let Some(d) = difference(z, e) {
                let heading = if i == 0 {
                    "(opening)"
                } else {
                    ch.en.headings.iter().filter(|h| h.0 == 2).nth(i - 1).map_or("?", |h| h.1)
                };
                problems.push(format!("{} § {heading}: {d}", ch.slug));
            }
        }
    }
    assert!(problems.is_empty(), "{} sections differ:\n{}", problems.len(), problems.join("\n"));
}

#[test]
fn every_exercise_states_the_same_numbers_in_both_languages() {
    let mut problems = Vec::new();
    for (_, list) in exercises::all() {
        for e in *list {
            let (zh, en) = (e.text(Lang::Zh), e.text(Lang::En));
            for (part, z, n) in [
                ("question", zh.question, en.question),
                ("options", &zh.options.join(" | ")[..], &en.options.join(" | ")[..]),
                ("hint", zh.hint, en.hint),
                ("solution", zh.solution, en.solution),
            ] {
                if let Some(d) = difference(z, n) {
                    problems.push(format!("{} {part}: {d}", e.id));
                }
            }
        }
    }
    assert!(problems.is_empty(), "{} exercise texts differ:\n{}", problems.len(), problems.join("\n"));
}

#[test]
fn a_difference_is_found_and_formatting_is_not_one() {
    assert_eq!(difference("带宽 2,039 GB/s，67.4 亿参数", "2039 GB/s, 6.74 billion parameters"), None);
    assert!(difference("上限 222 token/s", "a bound of 208 tokens/s").is_some());
    assert_eq!(difference("两张卡", "2 GPUs"), None);
}
