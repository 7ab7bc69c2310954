//! Checking a reader's answer: what the chapter page runs when Check is pressed, against the
//! key the prerenderer wrote into the card (`data-key`, `data-tolerance`, `data-unit`). Pure and
//! small: the page's app carries this, not the exercises' data or the engine runs that made the
//! keys.

/// Why a typed answer could not be read as a number.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Unreadable {
    /// Nothing was typed.
    Empty,
    /// A unit other than the question's followed the number (`34.4 GiB` for GB): the reader is
    /// asked for the number alone, in the question's unit.
    OtherUnit(String),
    /// Not a number at all.
    NotANumber,
}

/// Parses a typed number: spaces, `,` and `_` between digits are ignored, `，` and `。` too.
/// A single comma followed by other than three digits is a decimal comma (`34,4`).
pub fn parse_number(input: &str) -> Option<f64> {
    let trimmed = input.trim();
    let commas = trimmed.chars().filter(|c| matches!(c, ',' | '，')).count();
    let decimal_comma = commas == 1
        && !trimmed.contains(['.', '。'])
        && trimmed
            .rsplit([',', '，'])
            .next()
            .is_some_and(|after| after.trim().chars().filter(char::is_ascii_digit).count() != 3);
    let cleaned: String = trimmed
        .chars()
        .filter(|c| !matches!(c, ' ' | '_' | '\u{a0}') && (decimal_comma || !matches!(c, ',' | '，')))
        .map(|c| if matches!(c, '。' | ',' | '，') { '.' } else { c })
        .collect();
    let x: f64 = cleaned.parse().ok()?;
    x.is_finite().then_some(x)
}

/// A unit as typed, for comparison: lower case, no spaces, plurals and Chinese aliases folded
/// (`tokens/s` = `token/s`, `秒` = `s`).
fn unit_key(u: &str) -> String {
    let u: String = u.chars().filter(|c| !c.is_whitespace()).map(|c| c.to_ascii_lowercase()).collect();
    let u = u.replace("tokens", "token").replace('秒', "s").replace("毫s", "ms").replace("微s", "µs");
    match u.as_str() {
        "sec" | "secs" | "second" | "seconds" => "s".to_owned(),
        "us" => "µs".to_owned(),
        _ => u,
    }
}

/// Reads a typed answer to a question in `unit`: the number, with the question's own unit after
/// it or not (`34.4 GB`, `34.4GB`, `34,4`), or why it cannot be read.
pub fn read_answer(input: &str, unit: &str) -> Result<f64, Unreadable> {
    let input = input.trim();
    if input.is_empty() {
        return Err(Unreadable::Empty);
    }
    let end = input.char_indices().rfind(|(_, c)| c.is_ascii_digit()).map(|(i, c)| i + c.len_utf8());
    let Some(end) = end else { return Err(Unreadable::NotANumber) };
    let (number, rest) = input.split_at(end);
    let rest = rest.trim();
    if !rest.is_empty() && unit_key(rest) != unit_key(unit) {
        return Err(if unit.trim().is_empty() || rest.chars().all(|c| c.is_ascii_punctuation()) {
            Unreadable::NotANumber
        } else {
            Unreadable::OtherUnit(rest.to_owned())
        });
    }
    parse_number(number).ok_or(Unreadable::NotANumber)
}

/// Whether `input` is within the relative `tolerance` of `key` (a key of 0 needs an exact 0).
pub fn number_is_right(input: &str, key: f64, tolerance: f64) -> bool {
    answer_is_right(input, "", key, tolerance).unwrap_or(false)
}

/// [`number_is_right`] for a question in `unit` ([`read_answer`]); `Err` when the answer cannot
/// be read as a number (the page then asks for the number alone).
pub fn answer_is_right(input: &str, unit: &str, key: f64, tolerance: f64) -> Result<bool, Unreadable> {
    let x = read_answer(input, unit)?;
    Ok(key.is_finite() && (x - key).abs() <= tolerance * key.abs().max(f64::MIN_POSITIVE))
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

    #[test]
    fn a_decimal_comma_is_a_decimal_point_and_thousands_stay_thousands() {
        assert_eq!(parse_number("34,4"), Some(34.4));
        assert_eq!(parse_number("0,25"), Some(0.25));
        assert_eq!(parse_number("34，4"), Some(34.4));
        assert_eq!(parse_number("1,234"), Some(1234.0));
        assert_eq!(parse_number("1,234,567"), Some(1234567.0));
        assert_eq!(parse_number("1,234.5"), Some(1234.5));
    }

    #[test]
    fn an_answer_typed_with_its_unit_is_read_as_the_number() {
        for typed in ["34.4 GB", "34.4GB", "34,4", "34,4 gb", " 34.4 ", "34.4 GB "] {
            assert_eq!(read_answer(typed, "GB"), Ok(34.4), "{typed}");
            assert_eq!(answer_is_right(typed, "GB", 34.4, 0.01), Ok(true), "{typed}");
        }
        assert_eq!(read_answer("120 tokens/s", "token/s"), Ok(120.0));
        assert_eq!(read_answer("120 token/s", "tokens/s"), Ok(120.0));
        assert_eq!(read_answer("0.5 秒", "s"), Ok(0.5));
        assert_eq!(read_answer("1e15", "FLOP"), Ok(1e15));
        // Another unit is not silently read: the reader is asked for the number alone.
        assert_eq!(read_answer("34.4 GiB", "GB"), Err(Unreadable::OtherUnit("GiB".into())));
        assert_eq!(read_answer("3 ms", "s"), Err(Unreadable::OtherUnit("ms".into())));
        assert_eq!(read_answer("", "GB"), Err(Unreadable::Empty));
        assert_eq!(read_answer("GB", "GB"), Err(Unreadable::NotANumber));
        assert_eq!(read_answer("about 3", "GB"), Err(Unreadable::NotANumber));
    }
}
