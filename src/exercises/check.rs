//! Checking a reader's answer: what the chapter page runs when Check is pressed, against the
//! key the prerenderer wrote into the card (`data-key`, `data-tolerance`, `data-unit`). Pure and
//! small: the page's app carries this, not the exercises' data or the engine runs that made the
//! keys.
//!
//! An answer is read as people type it ([`super::typed_number`]: `34.4`, `３４．４`, `约 34.4`,
//! `三十四点四`, `80 亿`, `1.5×10^9`) with its unit, if any, converted into the question's
//! ([`super::units`]: `32 GiB` for a question in GB is 34.36 GB); a unit of another kind is
//! named, not marked wrong.

use super::typed_number;
use super::units::{reading, Reading};

/// Why a typed answer could not be read as a number in the question's unit.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Unreadable {
    /// Nothing was typed.
    Empty,
    /// A unit of another kind than the question's followed the number (`3 ms` for a size), or a
    /// unit where the question asks for a plain number: the page names it.
    OtherUnit(String),
    /// A unit the page does not know followed the number.
    UnknownUnit(String),
    /// Not a number at all.
    NotANumber,
}

/// A typed answer read in the question's unit.
#[derive(Clone, Debug, PartialEq)]
pub struct AnswerValue {
    /// The number in the question's unit.
    pub value: f64,
    /// The unit it was typed in, when that is another unit of the question's kind (`GiB` for GB):
    /// the page says how it read it.
    pub converted_from: Option<String>,
}

/// Reads a typed number (no unit): separators, decimal commas, full-width digits, Chinese
/// numerals and magnitudes.
pub fn parse_number(input: &str) -> Option<f64> {
    typed_number::read(input).filter(|t| t.unit.is_empty()).map(|t| t.value)
}

/// Reads a typed answer to a question in `unit`: the number, with a unit after it or not, or why
/// it cannot be read.
pub fn read_answer(input: &str, unit: &str) -> Result<AnswerValue, Unreadable> {
    if input.trim().is_empty() {
        return Err(Unreadable::Empty);
    }
    let typed = typed_number::read(input).ok_or(Unreadable::NotANumber)?;
    let value = |x: f64| if x.is_finite() { Ok(x) } else { Err(Unreadable::NotANumber) };
    match reading(&typed.unit, unit) {
        Reading::Same => Ok(AnswerValue { value: value(typed.value)?, converted_from: None }),
        Reading::Convert(factor) => {
            Ok(AnswerValue { value: value(typed.value * factor)?, converted_from: Some(typed.unit) })
        }
        Reading::OtherKind => Err(Unreadable::OtherUnit(typed.unit)),
        Reading::Unknown => Err(Unreadable::UnknownUnit(typed.unit)),
    }
}

/// Whether `input` is within the relative `tolerance` of `key` (a key of 0 needs an exact 0).
pub fn number_is_right(input: &str, key: f64, tolerance: f64) -> bool {
    answer_is_right(input, "", key, tolerance).unwrap_or(false)
}

/// [`number_is_right`] for a question in `unit` ([`read_answer`]); `Err` when the answer cannot
/// be read as a number in that unit (the page then says why).
pub fn answer_is_right(input: &str, unit: &str, key: f64, tolerance: f64) -> Result<bool, Unreadable> {
    let x = read_answer(input, unit)?.value;
    Ok(key.is_finite() && (x - key).abs() <= tolerance * key.abs().max(f64::MIN_POSITIVE))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn value(input: &str, unit: &str) -> Result<f64, Unreadable> {
        read_answer(input, unit).map(|r| r.value)
    }

    #[test]
    fn numbers_check_within_the_tolerance() {
        assert!(number_is_right("207.7", 207.7, 0.03));
        assert!(number_is_right("214", 207.7, 0.031));
        assert!(!number_is_right("222.4", 207.7, 0.03));
        assert!(!number_is_right("x", 1.0, 0.5));
        assert!(!number_is_right("1", f64::NAN, 0.5));
        assert!(number_is_right("0", 0.0, 0.01) && !number_is_right("0.001", 0.0, 0.01));
        assert_eq!(parse_number("1,234"), Some(1234.0));
        assert_eq!(parse_number("34 GB"), None);
    }

    #[test]
    fn an_answer_typed_with_its_unit_is_read_as_the_number() {
        for typed in [
            "34.4 GB",
            "34.4GB",
            "34,4",
            "34,4 gb",
            " 34.4 ",
            "34.4 GB ",
            "34.4G",
            "约 34.4 GB",
            "３４．４ＧＢ",
        ] {
            assert_eq!(value(typed, "GB"), Ok(34.4), "{typed}");
            assert_eq!(answer_is_right(typed, "GB", 34.4, 0.01), Ok(true), "{typed}");
        }
        assert_eq!(value("120 tokens/s", "token/s"), Ok(120.0));
        assert_eq!(value("120 token/s", "tokens/s"), Ok(120.0));
        assert_eq!(value("0.5 秒", "s"), Ok(0.5));
        assert_eq!(value("1e15", "FLOP"), Ok(1e15));
        assert_eq!(value("8 个", "个请求"), Ok(8.0));
        assert_eq!(value("八个", "个请求"), Ok(8.0));
        assert_eq!(value("三十四点四", "GB"), Ok(34.4));
        assert_eq!(value("34.4。", "GB"), Ok(34.4));
    }

    #[test]
    fn another_unit_of_the_same_kind_is_converted_and_said() {
        let r = read_answer("32 GiB", "GB").unwrap();
        assert!((r.value - 34.359_738_368).abs() < 1e-9);
        assert_eq!(r.converted_from.as_deref(), Some("GiB"));
        assert!((value("4640 µs", "ms").unwrap() - 4.64).abs() < 1e-12);
        assert!((value("0.00464 s", "ms").unwrap() - 4.64).abs() < 1e-12);
        assert!((value("1.2k tokens/s", "tokens/s").unwrap() - 1200.0).abs() < 1e-9);
        assert_eq!(answer_is_right("3.35 TB/s", "GB/s", 3350.0, 0.01), Ok(true));
    }

    #[test]
    fn a_unit_of_another_kind_or_unknown_is_named() {
        assert_eq!(read_answer("3 ms", "GB"), Err(Unreadable::OtherUnit("ms".into())));
        assert_eq!(read_answer("34.4 GB/s", "GB"), Err(Unreadable::OtherUnit("GB/s".into())));
        assert_eq!(read_answer("34 GB", ""), Err(Unreadable::OtherUnit("GB".into())));
        assert_eq!(read_answer("34 furlongs", "GB"), Err(Unreadable::UnknownUnit("furlongs".into())));
        assert_eq!(read_answer("", "GB"), Err(Unreadable::Empty));
        assert_eq!(read_answer("GB", "GB"), Err(Unreadable::NotANumber));
        assert_eq!(read_answer("about", "GB"), Err(Unreadable::NotANumber));
    }
}
