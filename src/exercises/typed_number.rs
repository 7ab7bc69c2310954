//! A number as people type it into an answer field, in either language: `34.4`, `34,4` (a
//! decimal comma), `1,024`, full-width `３４．４`, `约 34.4`, `~34`, `34.4。`, `1.5×10^9`,
//! Chinese numerals (`三十四点四`, `两千`, `一百零八`) and magnitudes (`80 亿`, `1.2 万`).
//! What follows the number is its unit, read by [`super::units`].
//!
//! Chinese numerals are read as the positional system they are: digits 零〇一二两三四五六七八九,
//! the multipliers 十 百 千 inside a section, the section words 万 (10⁴) and 亿 (10⁸) after it,
//! and 点 before the decimal digits (GB/T 15835-2011 gives when each form is used in print).

/// A typed answer split into its number and what follows it (the unit as typed, trimmed).
#[derive(Debug, Clone, PartialEq)]
pub struct Typed {
    pub value: f64,
    pub unit: String,
}

/// Words that only say the number is approximate, before it (`约`, `~`, `about`) or after it
/// (`左右`); they do not change the number.
const ABOUT_BEFORE: [&str; 12] = [
    "大约",
    "大概",
    "约为",
    "约",
    "≈",
    "~",
    "about",
    "approximately",
    "approx.",
    "approx",
    "around",
    "roughly",
];
const ABOUT_AFTER: [&str; 3] = ["左右", "上下", "多"];

/// Full-width forms (U+FF01 to U+FF5E) as their ASCII letters, the ideographic space as a space
/// and the ideographic full stop and comma as `.` and `,` (what a Chinese input method types).
pub fn fold_width(input: &str) -> String {
    input
        .chars()
        .map(|c| match c {
            '\u{ff01}'..='\u{ff5e}' => char::from_u32(u32::from(c) - 0xfee0).unwrap_or(c),
            '\u{3000}' => ' ',
            '。' => '.',
            _ => c,
        })
        .collect()
}

/// The value of a Chinese digit.
fn digit(c: char) -> Option<u32> {
    Some(match c {
        '零' | '〇' => 0,
        '一' => 1,
        '二' | '两' => 2,
        '三' => 3,
        '四' => 4,
        '五' => 5,
        '六' => 6,
        '七' => 7,
        '八' => 8,
        '九' => 9,
        _ => c.to_digit(10)?,
    })
}

/// A multiplier inside a section (十 百 千) or a section word (万 亿).
fn magnitude(c: char) -> Option<f64> {
    Some(match c {
        '十' => 10.0,
        '百' => 100.0,
        '千' => 1e3,
        '万' => 1e4,
        '亿' => 1e8,
        _ => return None,
    })
}

/// Whether `c` can be part of a number as typed.
fn numeric(c: char) -> bool {
    c.is_ascii_digit()
        || matches!(c, '.' | ',' | '_' | ' ' | '\u{a0}' | '+' | '-' | '点')
        || digit(c).is_some()
        || magnitude(c).is_some()
}

/// The integer part of a Chinese numeral: `三十四` = 34, `一百零八` = 108, `十二` = 12,
/// `三亿五千万` = 350,000,000. None when the characters do not form one.
fn chinese_integer(text: &str) -> Option<f64> {
    let (mut total, mut section, mut number) = (0.0_f64, 0.0_f64, None::<f64>);
    for c in text.chars() {
        if let Some(d) = digit(c) {
            number = Some(f64::from(d));
        } else {
            match c {
                '万' => {
                    total += (section + number.unwrap_or(0.0)) * 1e4;
                    section = 0.0;
                }
                '亿' => {
                    total = (total + section + number.unwrap_or(0.0)) * 1e8;
                    section = 0.0;
                }
                _ => section += number.unwrap_or(1.0) * magnitude(c)?,
            }
            number = None;
        }
    }
    Some(total + section + number.unwrap_or(0.0))
}

/// A number written in Chinese numerals, with an optional decimal part after 点.
fn chinese_number(text: &str) -> Option<f64> {
    let (whole, fraction) = text.split_once('点').unwrap_or((text, ""));
    let mut value = if whole.is_empty() { 0.0 } else { chinese_integer(whole)? };
    let mut place = 0.1;
    for c in fraction.chars() {
        value += f64::from(digit(c)?) * place;
        place /= 10.0;
    }
    Some(value)
}

/// Arabic digits with separators: spaces, `_` and thousands commas are ignored; a single comma
/// followed by other than three digits is a decimal comma (`34,4`, `0,25`).
pub fn arabic_number(text: &str) -> Option<f64> {
    let trimmed = text.trim();
    let commas = trimmed.matches(',').count();
    let decimal_comma = commas == 1
        && !trimmed.contains('.')
        && trimmed
            .rsplit(',')
            .next()
            .is_some_and(|after| after.chars().filter(char::is_ascii_digit).count() != 3);
    let cleaned: String = trimmed
        .chars()
        .filter(|c| !matches!(c, ' ' | '_' | '\u{a0}') && (decimal_comma || *c != ','))
        .map(|c| if c == ',' { '.' } else { c })
        .collect();
    let x: f64 = cleaned.parse().ok()?;
    x.is_finite().then_some(x)
}

/// Arabic digits followed by magnitude characters (`80亿`, `1.2万`, `3千`), or Chinese numerals.
fn number_text(text: &str) -> Option<f64> {
    let text = text.trim();
    if text.is_empty() {
        return None;
    }
    if text.chars().any(|c| c.is_ascii_digit()) {
        let digits_end =
            text.char_indices().rfind(|(_, c)| c.is_ascii_digit()).map_or(0, |(i, c)| i + c.len_utf8());
        let (digits, words) = text.split_at(digits_end);
        let scale =
            words.chars().filter(|c| !c.is_whitespace()).try_fold(1.0, |s, c| magnitude(c).map(|m| s * m))?;
        return arabic_number(digits).map(|x| x * scale).filter(|x| x.is_finite());
    }
    chinese_number(&text.chars().filter(|c| !c.is_whitespace()).collect::<String>())
}

/// `a×10^n` (also `x10^n`, `*10^n`, `×10ⁿ` with superscript digits), as `aen`.
fn times_ten_to(text: &str) -> String {
    let superscript = |c: char| "⁰¹²³⁴⁵⁶⁷⁸⁹".chars().position(|s| s == c);
    let mut out = text.to_string();
    for sign in ["×10^", "x10^", "*10^", "×10", "x10", "*10"] {
        let compact: String = out.chars().filter(|c| *c != ' ').collect();
        let Some(at) = compact.find(sign) else { continue };
        let (mantissa, rest) = compact.split_at(at);
        let rest = rest.get(sign.len()..).unwrap_or("");
        let mut exponent = String::new();
        let mut used = 0;
        for (i, c) in rest.char_indices() {
            let d = if sign.ends_with('^') {
                (c.is_ascii_digit() || (i == 0 && matches!(c, '-' | '+'))).then_some(c)
            } else {
                superscript(c)
                    .and_then(|d| char::from_digit(u32::try_from(d).unwrap_or(0), 10))
                    .or((c == '⁻').then_some('-'))
            };
            match d {
                Some(d) => {
                    exponent.push(d);
                    used = i + c.len_utf8();
                }
                None => break,
            }
        }
        if exponent.chars().any(|c| c.is_ascii_digit()) {
            out = format!("{mantissa}e{exponent}{}", rest.get(used..).unwrap_or(""));
        }
    }
    out
}

/// Splits `input` into the number and the unit after it; None when no number can be read.
pub fn read(input: &str) -> Option<Typed> {
    let folded = times_ten_to(&fold_width(input));
    let mut text = folded.trim().trim_end_matches(['.', '!']).trim();
    while let Some(rest) = ABOUT_BEFORE.iter().find_map(|w| strip_prefix_ignore_case(text, w)) {
        text = rest.trim_start();
    }
    while let Some(rest) = ABOUT_AFTER.iter().find_map(|w| text.strip_suffix(w)) {
        text = rest.trim_end();
    }
    // The number is the longest prefix made of numeric characters (an exponent `e` only between
    // digits and a digit or sign): what follows is the unit.
    let chars: Vec<(usize, char)> = text.char_indices().collect();
    let mut end = 0;
    for (k, &(i, c)) in chars.iter().enumerate() {
        let next = chars.get(k + 1).map(|&(_, n)| n);
        let exponent = matches!(c, 'e' | 'E')
            && end > 0
            && next.is_some_and(|n| n.is_ascii_digit() || matches!(n, '-' | '+'));
        if numeric(c) || exponent {
            end = i + c.len_utf8();
        } else {
            break;
        }
    }
    let (number, unit) = text.split_at(end);
    let value = number_text(number.trim_end_matches(['.', ',']).trim())?;
    Some(Typed { value, unit: unit.trim().to_string() })
}

fn strip_prefix_ignore_case<'a>(text: &'a str, prefix: &str) -> Option<&'a str> {
    let head = text.get(..prefix.len())?;
    head.eq_ignore_ascii_case(prefix).then(|| text.get(prefix.len()..)).flatten()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn value(s: &str) -> Option<f64> {
        read(s).map(|t| t.value)
    }

    #[test]
    fn arabic_numbers_with_separators_and_decimal_commas() {
        assert_eq!(value(" 1,234.5 "), Some(1234.5));
        assert_eq!(value("34 359"), Some(34359.0));
        assert_eq!(value("34,4"), Some(34.4));
        assert_eq!(value("0,25"), Some(0.25));
        assert_eq!(value("1,024"), Some(1024.0));
        assert_eq!(value("1,234,567"), Some(1_234_567.0));
        assert_eq!(value("1e15"), Some(1e15));
        assert_eq!(value("-3.5"), Some(-3.5));
        assert_eq!(value("abc"), None);
        assert_eq!(value("inf"), None);
    }

    #[test]
    fn what_a_chinese_input_method_types() {
        assert_eq!(value("３４．４"), Some(34.4));
        assert_eq!(value("34，4"), Some(34.4));
        assert_eq!(value("2。5"), Some(2.5));
        assert_eq!(read("３４．４ＧＢ"), Some(Typed { value: 34.4, unit: "GB".into() }));
        assert_eq!(value("34.4。"), Some(34.4));
        assert_eq!(value("约 34.4"), Some(34.4));
        assert_eq!(value("大约34.4"), Some(34.4));
        assert_eq!(value("~34"), Some(34.0));
        assert_eq!(value("～34"), Some(34.0));
        assert_eq!(value("About 34"), Some(34.0));
        assert_eq!(value("34 左右"), Some(34.0));
    }

    #[test]
    fn chinese_numerals_and_magnitudes() {
        assert_eq!(value("三十四点四"), Some(34.4));
        assert_eq!(value("一百零八"), Some(108.0));
        assert_eq!(value("十二"), Some(12.0));
        assert_eq!(value("两千"), Some(2000.0));
        assert_eq!(value("三亿五千万"), Some(350_000_000.0));
        assert_eq!(value("一万亿"), Some(1e12));
        assert_eq!(value("零点五"), Some(0.5));
        assert_eq!(value("80亿"), Some(8e9));
        assert_eq!(value("80 亿"), Some(8e9));
        assert_eq!(value("1.2 万"), Some(12_000.0));
        assert_eq!(value("3千"), Some(3000.0));
        let t = read("80 亿参数").unwrap();
        assert_eq!((t.value, t.unit.as_str()), (8e9, "参数"));
    }

    #[test]
    fn powers_of_ten() {
        assert_eq!(value("1.5×10^9"), Some(1.5e9));
        assert_eq!(value("1.5 x 10^-3"), Some(1.5e-3));
        assert_eq!(value("2×10¹⁵"), Some(2e15));
        assert_eq!(read("2*10^12 FLOP").map(|t| t.unit), Some("FLOP".into()));
    }

    #[test]
    fn the_unit_is_what_follows_the_number() {
        assert_eq!(read("34.4G"), Some(Typed { value: 34.4, unit: "G".into() }));
        assert_eq!(read("120 tokens/s"), Some(Typed { value: 120.0, unit: "tokens/s".into() }));
        assert_eq!(read("8 张 GPU"), Some(Typed { value: 8.0, unit: "张 GPU".into() }));
        assert_eq!(read("3e-3 s"), Some(Typed { value: 3e-3, unit: "s".into() }));
        assert_eq!(read("GB"), None);
    }
}
