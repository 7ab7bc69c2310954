//! One formatter per quantity for the numbers a person reads in a derivation ("show the math"),
//! in both languages: bytes in decimal units (`16.1 GB`), counts with thousands separators or a
//! magnitude (`131,072`; `8.03 B` / `80.3 亿`), FLOPs and rates with SI prefixes (`17.1 GFLOP`,
//! `989.5 TFLOP/s`, `3.35 TB/s`), tokens per second and dollars. `facts::val` calls them for the
//! engine's typed values ([`crate::engine::derivation::Val`]); nothing here allocates Unicode
//! tables (the browser runs it).

use super::Lang;

pub use crate::charts::format::group_digits as grouped;

/// A number already printed (`3968.5`, `0.85`, `-1234`) with its integer part grouped:
/// "3,968.5", "0.85", "-1,234"; anything that is not a plain decimal number is returned as is.
pub fn group_integer_part(s: &str) -> String {
    let (sign, rest) = s.strip_prefix('-').map_or(("", s), |r| ("-", r));
    let (int, frac) = rest.split_once('.').map_or((rest, None), |(i, f)| (i, Some(f)));
    match int.parse::<u128>() {
        Ok(n) if int.bytes().all(|b| b.is_ascii_digit()) => match frac {
            Some(f) => format!("{sign}{}.{f}", grouped(n)),
            None => format!("{sign}{}", grouped(n)),
        },
        _ => s.to_owned(),
    }
}

/// `x` with `sig` significant figures (the charts' formatter: one rule site-wide).
fn significant(x: f64, sig: i32) -> String {
    crate::charts::format::format_significant(x, sig)
}

/// `x` scaled by 1000s to a prefix of `prefixes` (the first is none), `sig` significant
/// figures, a rounding that reaches 1000 carried to the next prefix: (9.895e14, "FLOP/s")
/// → "989.5 TFLOP/s".
fn si(x: f64, unit: &str, sig: i32) -> String {
    const PREFIXES: [&str; 7] = ["", "k", "M", "G", "T", "P", "E"];
    if !x.is_finite() {
        return format!("— {unit}");
    }
    let (mut m, mut i) = (x.abs(), 0usize);
    while i + 1 < PREFIXES.len() && significant(m, sig).parse::<f64>().is_ok_and(|r| r >= 1000.0) {
        m /= 1000.0;
        i += 1;
    }
    let sign = if x < 0.0 { "-" } else { "" };
    let prefix = PREFIXES.get(i).copied().unwrap_or("");
    format!("{sign}{} {prefix}{unit}", significant(m, sig))
}

/// Bytes as a person reads them: decimal units, three significant figures kept (`18.0 GB`,
/// `1.07 GB`, `512 MB`, `512 B`), the same in both languages.
pub fn bytes(n: u128) -> String {
    const UNITS: [&str; 6] = ["B", "KB", "MB", "GB", "TB", "PB"];
    let mut v = n as f64;
    let mut i = 0;
    while v >= 999.95 && i + 1 < UNITS.len() {
        v /= 1000.0;
        i += 1;
    }
    let unit = UNITS.get(i).copied().unwrap_or("B");
    match (i, v) {
        (0, _) => format!("{n} B"),
        (_, v) if v >= 99.95 => format!("{v:.0} {unit}"),
        (_, v) if v >= 9.995 => format!("{v:.1} {unit}"),
        (_, v) => format!("{v:.2} {unit}"),
    }
}

/// A small byte count in full, with its binary size when it is a whole number of KiB or MiB:
/// 131072 → "131,072 B (128 KiB)", 24576 → "24,576 B (24 KiB)", 1000 → "1,000 B".
pub fn exact_bytes(n: u128) -> String {
    let binary = [(1u128 << 20, "MiB"), (1 << 10, "KiB")]
        .into_iter()
        .find(|(step, _)| n >= *step && n.is_multiple_of(*step / 16))
        .map(|(step, unit)| format!(" ({} {unit})", significant(n as f64 / step as f64, 4)));
    format!("{} B{}", grouped(n), binary.unwrap_or_default())
}

/// A count read at a glance: in full below a million (`884,736`), else three significant
/// figures with the language's magnitude: `18.9 M`, `8.03 B`, `1.2 T` in English; `1887 万`,
/// `80.3 亿`, `1.2 万亿` in Chinese.
pub fn count(n: u128, lang: Lang) -> String {
    if n < 1_000_000 {
        return grouped(n);
    }
    let x = n as f64;
    match lang {
        Lang::En => {
            let (v, m) = if x < 1e9 {
                (x / 1e6, "M")
            } else if x < 1e12 {
                (x / 1e9, "B")
            } else {
                (x / 1e12, "T")
            };
            format!("{} {m}", significant(v, 3))
        }
        Lang::Zh => {
            let (v, m) = if x < 1e8 {
                (x / 1e4, "万")
            } else if x < 1e12 {
                (x / 1e8, "亿")
            } else {
                (x / 1e12, "万亿")
            };
            // 100 万 to 9,999 万 are whole numbers of 万; 亿 and up keep three figures.
            let v = if m == "万" { format!("{v:.0}") } else { significant(v, 3) };
            format!("{v} {m}")
        }
    }
}

/// Floating-point operations (a count): `17.1 GFLOP`.
pub fn flops(x: f64) -> String {
    si(x, "FLOP", 3)
}

/// A compute rate: `989.5 TFLOP/s`.
pub fn flop_rate(x: f64) -> String {
    si(x, "FLOP/s", 4)
}

/// A bandwidth in decimal units: `3.35 TB/s`, `450 GB/s`, `89.6 GB/s`.
pub fn byte_rate(x: f64) -> String {
    si(x, "B/s", 4)
}

/// Tokens per second: one decimal with thousands separators (`148.4 tokens/s`,
/// `39,206.5 tokens/s`), two below ten (`7.43`), a magnitude from a million (`1.23 M tokens/s`,
/// `123 万 token/s`).
pub fn token_rate(x: f64, lang: Lang) -> String {
    let unit = match lang {
        Lang::Zh => "token/s",
        Lang::En => "tokens/s",
    };
    if !x.is_finite() {
        return format!("— {unit}");
    }
    let a = x.abs();
    let number = if a >= 1e6 {
        count(crate::engine::num::u128_from_f64(a.round()), lang)
    } else {
        let decimals = if a < 10.0 { 2 } else { 1 };
        let s = format!("{a:.decimals$}");
        let (int, frac) = s.split_once('.').unwrap_or((s.as_str(), ""));
        let int = int.parse::<u128>().map_or_else(|_| int.to_owned(), grouped);
        if frac.is_empty() {
            int
        } else {
            format!("{int}.{frac}")
        }
    };
    let sign = if x < 0.0 { "-" } else { "" };
    format!("{sign}{number} {unit}")
}

/// US dollars: cents from a dollar up (`$6.88`, `$12.88`), three significant figures below
/// (`$0.0412`).
pub fn usd(x: f64) -> String {
    if !x.is_finite() {
        return "$—".to_owned();
    }
    let sign = if x < 0.0 { "-" } else { "" };
    let a = x.abs();
    if a >= 1.0 || a == 0.0 {
        let s = format!("{a:.2}");
        let (int, frac) = s.split_once('.').unwrap_or((s.as_str(), "00"));
        let int = int.parse::<u128>().map_or_else(|_| int.to_owned(), grouped);
        format!("{sign}${int}.{frac}")
    } else {
        format!("{sign}${}", significant(a, 3))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_sweeps_examples_read_with_their_units() {
        assert_eq!(bytes(16_060_522_496), "16.1 GB");
        assert_eq!(bytes(536_870_912), "537 MB");
        assert_eq!(bytes(352_321_536), "352 MB");
        assert_eq!(count(6_738_415_616, Lang::En), "6.74 B");
        assert_eq!(count(6_738_415_616, Lang::Zh), "67.4 亿");
        assert_eq!(flop_rate(9.895e14), "989.5 TFLOP/s");
        assert_eq!(byte_rate(3.35e12), "3.35 TB/s");
        assert_eq!(byte_rate(4.5e11), "450 GB/s");
        assert_eq!(byte_rate(5e10), "50 GB/s");
        assert_eq!(flops(1.7091e10), "17.1 GFLOP");
        assert_eq!(token_rate(148.43, Lang::En), "148.4 tokens/s");
        assert_eq!(token_rate(39_206.5, Lang::Zh), "39,206.5 token/s");
        assert_eq!(token_rate(7.4321, Lang::En), "7.43 tokens/s");
        assert_eq!(token_rate(1_234_567.0, Lang::En), "1.23 M tokens/s");
        assert_eq!(token_rate(1_234_567.0, Lang::Zh), "123 万 token/s");
        assert_eq!(usd(6.88), "$6.88");
        assert_eq!(usd(12.8762), "$12.88");
        assert_eq!(usd(0.041_23), "$0.0412");
        assert_eq!(usd(1234.5), "$1,234.50");
    }

    #[test]
    fn counts_in_full_then_by_magnitude() {
        assert_eq!(grouped(0u128), "0");
        assert_eq!(grouped(4096u128), "4,096");
        assert_eq!(grouped(16_060_522_496u128), "16,060,522,496");
        assert_eq!(count(884_736, Lang::En), "884,736");
        assert_eq!(count(18_874_368, Lang::En), "18.9 M");
        assert_eq!(count(18_874_368, Lang::Zh), "1887 万");
        assert_eq!(count(525_336_576, Lang::En), "525 M");
        assert_eq!(count(525_336_576, Lang::Zh), "5.25 亿");
        assert_eq!(count(8_030_261_248, Lang::En), "8.03 B");
        assert_eq!(count(671_026_419_200, Lang::Zh), "6710 亿");
        assert_eq!(count(1_200_000_000_000, Lang::En), "1.2 T");
        assert_eq!(count(1_200_000_000_000, Lang::Zh), "1.2 万亿");
        assert_eq!(count(u128::MAX, Lang::En), count(u128::MAX, Lang::En), "no panic on the largest");
    }

    #[test]
    fn printed_numbers_get_their_thousands_grouped() {
        assert_eq!(group_integer_part("3968.5"), "3,968.5");
        assert_eq!(group_integer_part("0.85"), "0.85");
        assert_eq!(group_integer_part("-1234"), "-1,234");
        assert_eq!(group_integer_part("inf"), "inf");
        assert_eq!(group_integer_part("1e21"), "1e21");
    }

    #[test]
    fn exact_bytes_name_their_binary_size() {
        assert_eq!(exact_bytes(131_072), "131,072 B (128 KiB)");
        assert_eq!(exact_bytes(524_288), "524,288 B (512 KiB)");
        assert_eq!(exact_bytes(70_656), "70,656 B (69 KiB)");
        assert_eq!(exact_bytes(1000), "1,000 B");
        assert_eq!(exact_bytes(40_632_320), "40,632,320 B (38.75 MiB)");
        assert_eq!(exact_bytes(512), "512 B");
    }

    #[test]
    fn rounding_to_a_thousand_moves_up_a_prefix() {
        assert_eq!(byte_rate(999_960_000_000.0), "1 TB/s");
        assert_eq!(byte_rate(999_999_900_000.0), "1 TB/s");
        assert_eq!(flops(0.0), "0 FLOP");
        assert_eq!(byte_rate(f64::NAN), "— B/s");
    }
}
