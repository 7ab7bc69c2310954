//! Numbers as a reader reads them in a text, in either language: digits with `,` between
//! thousands (`2,039`), a decimal point, an exponent (`6.74e9`), and a multiplier word after it
//! (`6.74 billion`, `67.4 亿`, `3 万`). Each number gives its value as written and its value with
//! the multiplier, so that `8.03 billion` and `80.3 亿` are the same number.
// Each test crate that includes this module uses a part of it.
#![allow(dead_code)]

/// One number of a text: as written (`6.74` of `6.74 billion`) and with its multiplier (6.74e9).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Number {
    /// Byte offset of its first digit.
    pub start: usize,
    pub written: f64,
    pub value: f64,
    /// Byte offset just after the number (and its multiplier), for what follows it (a unit).
    pub end: usize,
}

const MULTIPLIERS: &[(&str, f64)] = &[
    ("trillion", 1e12),
    ("billion", 1e9),
    ("million", 1e6),
    ("thousand", 1e3),
    ("万亿", 1e12),
    ("亿", 1e8),
    ("千万", 1e7),
    ("百万", 1e6),
    ("万", 1e4),
];

/// The text of `html` without its tags (each a space), its entities decoded.
pub fn plain_text(html: &str) -> String {
    let mut out = String::new();
    let mut in_tag = false;
    for c in html.chars() {
        match c {
            '<' => in_tag = true,
            '>' if in_tag => {
                in_tag = false;
                out.push(' ');
            }
            _ if !in_tag => out.push(c),
            _ => {}
        }
    }
    out.replace("&amp;", "&")
        .replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&quot;", "\"")
        .replace("&#39;", "'")
        .replace("&nbsp;", " ")
}

/// `text` with each number placeholder (`content::numbers`) replaced by `⟨`, a mark that is no
/// number.
pub fn without_placeholders(text: &str) -> String {
    let mut out = String::new();
    let mut rest = text;
    while let Some(start) = gpu_primer::content::numbers::OPENINGS.iter().filter_map(|o| rest.find(o)).min() {
        out.push_str(&rest[..start]);
        out.push('⟨');
        rest = rest[start..].find('}').map_or("", |end| &rest[start + end + 1..]);
    }
    out.push_str(rest);
    out
}

/// Letters right after digits that multiply them (`8B` parameters, `128K` tokens).
const SUFFIXES: &[(char, f64)] = &[('K', 1e3), ('M', 1e6), ('B', 1e9), ('T', 1e12)];

/// Every number written with digits in `text`.
pub fn numbers(text: &str) -> Vec<Number> {
    let bytes = text.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        if !bytes[i].is_ascii_digit() {
            i += 1;
            continue;
        }
        let start = i;
        let mut digits = String::new();
        // The integer part, with `,` between groups of three.
        while i < bytes.len() {
            if bytes[i].is_ascii_digit() {
                digits.push(bytes[i] as char);
                i += 1;
            } else if bytes[i] == b','
                && i + 3 < bytes.len() + 1
                && bytes.get(i + 1..i + 4).is_some_and(|g| g.iter().all(u8::is_ascii_digit))
                && !bytes.get(i + 4).is_some_and(u8::is_ascii_digit)
            {
                i += 1;
            } else {
                break;
            }
        }
        if bytes.get(i) == Some(&b'.') && bytes.get(i + 1).is_some_and(u8::is_ascii_digit) {
            digits.push('.');
            i += 1;
            while i < bytes.len() && bytes[i].is_ascii_digit() {
                digits.push(bytes[i] as char);
                i += 1;
            }
        }
        if matches!(bytes.get(i), Some(b'e' | b'E')) {
            let sign = matches!(bytes.get(i + 1), Some(b'-' | b'+'));
            let first = i + 1 + usize::from(sign);
            if bytes.get(first).is_some_and(u8::is_ascii_digit)
                && !bytes.get(first + 1).is_some_and(u8::is_ascii_alphabetic)
            {
                digits.push('e');
                digits.push_str(&text[i + 1..first]);
                i = first;
                while i < bytes.len() && bytes[i].is_ascii_digit() {
                    digits.push(bytes[i] as char);
                    i += 1;
                }
            }
        }
        let Ok(written) = digits.parse::<f64>() else { continue };
        let rest = &text[i..];
        // A letter right after the digits: `8B`, `128K` (not `4 MB`, not `8 GB`).
        if let Some(&(_, m)) = SUFFIXES.iter().find(|(c, _)| {
            rest.starts_with(*c) && !rest[1..].starts_with(|c: char| c.is_ascii_alphanumeric())
        }) {
            out.push(Number { start, written, value: written * m, end: i + 1 });
            i += 1;
            continue;
        }
        let spaced = rest.trim_start_matches([' ', '\u{a0}']);
        let mut value = written;
        let mut end = i;
        for (word, m) in MULTIPLIERS {
            if let Some(after) = spaced.strip_prefix(word) {
                if !after.starts_with(|c: char| c.is_ascii_alphabetic()) {
                    value = written * m;
                    end = text.len() - after.len();
                    break;
                }
            }
        }
        out.push(Number { start, written, value, end });
        i = end.max(i);
    }
    out
}

/// Whether two numbers are the same to 4 significant figures (formatting aside).
pub fn same(a: f64, b: f64) -> bool {
    a == b || (a - b).abs() <= 5e-4 * a.abs().max(b.abs())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn values(t: &str) -> Vec<f64> {
        numbers(t).iter().map(|n| n.value).collect()
    }

    #[test]
    fn digits_groups_decimals_exponents_and_multipliers() {
        assert_eq!(values("2,039 GB/s and 1, 2"), vec![2039.0, 1.0, 2.0]);
        assert_eq!(values("6.74e9 FLOPs, 1e-3 s"), vec![6.74e9, 1e-3]);
        assert_eq!(values("6.74 billion"), vec![6.74e9]);
        assert!(same(values("67.4 亿参数")[0], 6.74e9));
        assert_eq!(values("H100 SXM, 8B, 128K"), vec![100.0, 8e9, 128e3]);
        assert_eq!(values("4 MB, 8GB"), vec![4.0, 8.0]);
        assert_eq!(values("3.35 TB/s."), vec![3.35]);
        assert_eq!(numbers("6.74 billion")[0].written, 6.74);
    }

    #[test]
    fn text_of_html_with_placeholders_marked() {
        assert_eq!(plain_text("<p>a &amp; <b>b</b></p>"), " a &  b  ");
        assert_eq!(without_placeholders("{r:x:y:1:0} GB, {b} {n:4"), "⟨ GB, {b} ⟨");
    }
}
