//! Checking a reader's answer: what the chapter page runs when Check is pressed, against the
//! key the prerenderer wrote into the card (`data-key`, `data-tolerance`). Pure and small: the
//! page's app carries this, not the exercises' data or the engine runs that made the keys.

/// Parses a typed number: spaces, `,` and `_` between digits are ignored, `，` and `。` too.
pub fn parse_number(input: &str) -> Option<f64> {
    let cleaned: String = input
        .trim()
        .chars()
        .filter(|c| !matches!(c, ' ' | ',' | '_' | '，' | '\u{a0}'))
        .map(|c| if c == '。' { '.' } else { c })
        .collect();
    let x: f64 = cleaned.parse().ok()?;
    x.is_finite().then_some(x)
}

/// Whether `input` is within the relative `tolerance` of `key` (a key of 0 needs an exact 0).
pub fn number_is_right(input: &str, key: f64, tolerance: f64) -> bool {
    match parse_number(input) {
        Some(x) if key.is_finite() => (x - key).abs() <= tolerance * key.abs().max(f64::MIN_POSITIVE),
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_parse_with_separators_and_check_within_the_tolerance() {
        assert_eq!(parse_number(" 1,234.5 "), Some(1234.5));
        assert_eq!(parse_number("34 359"), Some(34359.0));
        assert_eq!(parse_number("１"), None);
        assert_eq!(parse_number("2。5"), Some(2.5));
        assert_eq!(parse_number("abc"), None);
        assert_eq!(parse_number("inf"), None);
        assert!(number_is_right("207.7", 207.7, 0.03));
        assert!(number_is_right("214", 207.7, 0.031));
        assert!(!number_is_right("222.4", 207.7, 0.03));
        assert!(!number_is_right("x", 1.0, 0.5));
        assert!(!number_is_right("1", f64::NAN, 0.5));
        assert!(number_is_right("0", 0.0, 0.01) && !number_is_right("0.001", 0.0, 0.01));
    }
}
