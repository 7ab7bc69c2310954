//! Number formatting shared by the charts and the UI: three significant digits, SI or binary
//! prefixes, a space before the unit ("12.3 ms", "80 GB", "3.35 TB/s"). Never panics;
//! non-finite input formats as "—".

use serde::{Deserialize, Serialize};

/// Decimal GB (vendor figures) or binary GiB (what software reports).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ByteUnit {
    #[default]
    Gb,
    Gib,
}

impl ByteUnit {
    /// Bytes in one kilo step (1000 or 1024).
    pub fn step(self) -> f64 {
        match self {
            ByteUnit::Gb => 1000.0,
            ByteUnit::Gib => 1024.0,
        }
    }
}

const DASH: &str = "—";

/// `v` with three significant digits, trailing zeros trimmed: 1.234 → "1.23", 12.34 → "12.3",
/// 123.4 → "123", 1234 → "1234", 0.5 → "0.5".
pub fn format_sig3(v: f64) -> String {
    format_significant(v, 3)
}

/// `v` with `sig` significant figures, trailing zeros of the decimals dropped (never in
/// exponent form; a whole number keeps all its digits): (989.5, 4) → "989.5", (3.35, 4) →
/// "3.35", (450.0, 4) → "450", (17.09, 3) → "17.1", (0.01234, 3) → "0.0123"; "-0" reads "0".
pub fn format_significant(v: f64, sig: i32) -> String {
    if !v.is_finite() {
        return DASH.to_string();
    }
    let a = v.abs();
    let magnitude = if a == 0.0 { 0 } else { a.log10().floor() as i32 };
    let decimals = (sig - 1 - magnitude).clamp(0, 12) as usize;
    let s = format!("{v:.decimals$}");
    let s = if s.contains('.') { s.trim_end_matches('0').trim_end_matches('.').to_string() } else { s };
    if s == "-0" {
        "0".to_string()
    } else {
        s
    }
}

/// Mantissa in `[1, step)` (with rounding carried) and prefix index for `v >= 0`.
fn scaled(v: f64, step: f64, max_index: usize) -> (f64, usize) {
    let mut m = v;
    let mut i = 0;
    while m >= step && i < max_index {
        m /= step;
        i += 1;
    }
    // 999.96 rounds to "1000": move up one prefix so it reads "1".
    if i < max_index && format_sig3(m).parse::<f64>().is_ok_and(|r| r >= step) {
        m /= step;
        i += 1;
    }
    (m, i)
}

/// Bytes with the best prefix: `format_bytes(80_000_000_000, ByteUnit::Gb)` = "80 GB",
/// `format_bytes(80_000_000_000, ByteUnit::Gib)` = "74.5 GiB", 512 → "512 B".
pub fn format_bytes(bytes: u64, unit: ByteUnit) -> String {
    format_bytes_f64(bytes as f64, unit)
}

/// [`format_bytes`] for a float (negative gets a minus sign; non-finite gives "—").
pub fn format_bytes_f64(bytes: f64, unit: ByteUnit) -> String {
    if !bytes.is_finite() {
        return DASH.to_string();
    }
    let names: [&str; 7] = match unit {
        ByteUnit::Gb => ["B", "KB", "MB", "GB", "TB", "PB", "EB"],
        ByteUnit::Gib => ["B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"],
    };
    let (m, i) = scaled(bytes.abs(), unit.step(), names.len() - 1);
    let sign = if bytes < 0.0 { "-" } else { "" };
    format!("{sign}{} {}", format_sig3(m), names[i])
}

const SI: [&str; 7] = ["", "k", "M", "G", "T", "P", "E"];

/// A rate with an SI prefix glued to the unit: `format_rate(989.5e12, "FLOP/s")` =
/// "990 TFLOP/s", `format_rate(3.35e12, "B/s")` = "3.35 TB/s", `format_rate(42.0, "tok/s")` = "42 tok/s".
pub fn format_rate(per_s: f64, unit: &str) -> String {
    if !per_s.is_finite() {
        return DASH.to_string();
    }
    let (m, i) = scaled(per_s.abs(), 1000.0, SI.len() - 1);
    let sign = if per_s < 0.0 { "-" } else { "" };
    format!("{sign}{} {}{unit}", format_sig3(m), SI[i])
}

/// A compact SI number for axis ticks: 0.1 → "0.1", 1500 → "1.5k", 1e15 → "1P".
pub fn format_si(v: f64) -> String {
    if !v.is_finite() {
        return DASH.to_string();
    }
    let (m, i) = scaled(v.abs(), 1000.0, SI.len() - 1);
    let sign = if v < 0.0 { "-" } else { "" };
    format!("{sign}{}{}", format_sig3(m), SI[i])
}

/// Seconds with a readable unit: 0.0123 → "12.3 ms", 1.2 → "1.2 s", 8.5e-7 → "850 ns",
/// 90 → "1.5 min", 7200 → "2 h".
pub fn format_seconds(s: f64) -> String {
    if !s.is_finite() {
        return DASH.to_string();
    }
    let a = s.abs();
    let sign = if s < 0.0 { "-" } else { "" };
    let (v, unit) = if a == 0.0 {
        (0.0, "s")
    } else if a < 1e-6 {
        (a * 1e9, "ns")
    } else if a < 1e-3 {
        (a * 1e6, "µs")
    } else if a < 1.0 {
        (a * 1e3, "ms")
    } else if a < 60.0 {
        (a, "s")
    } else if a < 3600.0 {
        (a / 60.0, "min")
    } else if a < 86400.0 * 2.0 {
        (a / 3600.0, "h")
    } else {
        (a / 86400.0, "d")
    };
    // 999.96 ms would print "1000 ms": hand over to the next unit.
    if unit != "d" && unit != "h" && format_sig3(v).parse::<f64>().is_ok_and(|r| r >= 1000.0) {
        return format_seconds(s.signum() * (a * 1.0001));
    }
    format!("{sign}{} {unit}", format_sig3(v))
}

/// A fraction as a percentage: 0.853 → "85%", 0.0042 → "0.42%".
pub fn format_percent(fraction: f64) -> String {
    if !fraction.is_finite() {
        return DASH.to_string();
    }
    let p = fraction * 100.0;
    let s = if p.abs() >= 10.0 { format!("{p:.0}") } else { format_sig3(p) };
    format!("{s}%")
}

/// Token counts the way context lengths are written: 512 → "512", 4096 → "4K",
/// 131072 → "128K", 1048576 → "1M", 1000 → "1000", 1500000 → "1.43M".
pub fn format_tokens(n: u64) -> String {
    const K: u64 = 1024;
    if n >= K * K {
        format!("{}M", format_sig3(n as f64 / (K * K) as f64))
    } else if n >= K && n.is_multiple_of(K / 16) || n >= 10 * K {
        format!("{}K", format_sig3(n as f64 / K as f64))
    } else {
        n.to_string()
    }
}

/// An integer with thousands separators: 8030261248 → "8,030,261,248" (the estimator's parameter
/// counts, the lesson widgets' block and warp counts, the derivations' counts and bytes).
pub fn group_digits(n: impl Into<u128>) -> String {
    let n: u128 = n.into();
    let s = n.to_string();
    let mut out = String::with_capacity(s.len() + s.len() / 3);
    for (i, c) in s.chars().enumerate() {
        if i > 0 && (s.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn thousands_separators() {
        assert_eq!(group_digits(0u64), "0");
        assert_eq!(group_digits(999u64), "999");
        assert_eq!(group_digits(1000u64), "1,000");
        assert_eq!(group_digits(39_063u64), "39,063");
        assert_eq!(group_digits(8_030_261_248u64), "8,030,261,248");
    }

    #[test]
    fn three_significant_digits() {
        assert_eq!(format_sig3(1.234), "1.23");
        assert_eq!(format_sig3(12.34), "12.3");
        assert_eq!(format_sig3(123.4), "123");
        assert_eq!(format_sig3(2.0), "2");
        assert_eq!(format_sig3(0.5), "0.5");
        assert_eq!(format_sig3(0.01234), "0.0123");
        assert_eq!(format_sig3(0.0), "0");
        assert_eq!(format_sig3(-0.0001), "-0.0001");
        assert_eq!(format_sig3(f64::NAN), "—");
    }

    #[test]
    fn bytes_decimal_and_binary() {
        assert_eq!(format_bytes(80_000_000_000, ByteUnit::Gb), "80 GB");
        assert_eq!(format_bytes(80_000_000_000, ByteUnit::Gib), "74.5 GiB");
        assert_eq!(format_bytes(512, ByteUnit::Gb), "512 B");
        assert_eq!(format_bytes(0, ByteUnit::Gib), "0 B");
        assert_eq!(format_bytes(1 << 30, ByteUnit::Gib), "1 GiB");
        assert_eq!(format_bytes(140_000_000_000, ByteUnit::Gb), "140 GB");
        assert_eq!(format_bytes(999_960_000, ByteUnit::Gb), "1 GB");
        assert_eq!(format_bytes(u64::MAX, ByteUnit::Gb), "18.4 EB");
        assert_eq!(format_bytes_f64(-2.5e9, ByteUnit::Gb), "-2.5 GB");
        assert_eq!(format_bytes_f64(f64::INFINITY, ByteUnit::Gb), "—");
    }

    #[test]
    fn rates_and_si() {
        assert_eq!(format_rate(989.5e12, "FLOP/s"), "990 TFLOP/s");
        assert_eq!(format_rate(3.35e12, "B/s"), "3.35 TB/s");
        assert_eq!(format_rate(42.0, "tok/s"), "42 tok/s");
        assert_eq!(format_rate(1.5e3, "tok/s"), "1.5 ktok/s");
        assert_eq!(format_si(0.1), "0.1");
        assert_eq!(format_si(1500.0), "1.5k");
        assert_eq!(format_si(1e15), "1P");
        assert_eq!(format_si(1e30), "1000000000000E");
    }

    #[test]
    fn seconds() {
        assert_eq!(format_seconds(0.0123), "12.3 ms");
        assert_eq!(format_seconds(1.2), "1.2 s");
        assert_eq!(format_seconds(8.5e-7), "850 ns");
        assert_eq!(format_seconds(2.5e-5), "25 µs");
        assert_eq!(format_seconds(90.0), "1.5 min");
        assert_eq!(format_seconds(7200.0), "2 h");
        assert_eq!(format_seconds(0.0), "0 s");
        assert_eq!(format_seconds(0.99996), "1 s");
        assert_eq!(format_seconds(f64::NAN), "—");
        assert_eq!(format_seconds(1e12), "11574074 d");
    }

    #[test]
    fn percent_and_tokens() {
        assert_eq!(format_percent(0.853), "85%");
        assert_eq!(format_percent(1.0), "100%");
        assert_eq!(format_percent(0.0042), "0.42%");
        assert_eq!(format_tokens(512), "512");
        assert_eq!(format_tokens(4096), "4K");
        assert_eq!(format_tokens(131_072), "128K");
        assert_eq!(format_tokens(1_048_576), "1M");
        assert_eq!(format_tokens(1000), "1000");
        assert_eq!(format_tokens(1_500_000), "1.43M");
    }
}
