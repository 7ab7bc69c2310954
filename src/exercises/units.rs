//! The units an answer may be typed in, and how one converts into another of the same kind: a
//! size in GiB is converted into the question's GB (1 GiB = 2³⁰ B, 1 GB = 10⁹ B, IEC 80000-13),
//! a time in µs into its ms, `1.2k tokens/s` into tokens/s. A unit of another kind (a time for a
//! size) is named, not converted. Both languages' spellings are known (`毫秒`, `张 GPU`, `美元/小时`).

/// What a unit measures: only units of the same kind convert into each other.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    Bytes,
    Time,
    TokenRate,
    Tokens,
    FlopRate,
    Flop,
    ByteRate,
    FlopPerByte,
    Requests,
    Gpus,
    Dollars,
    DollarsPerHour,
    Percent,
}

/// A unit: its spellings (lower case, without spaces), its kind and its size in the kind's base
/// unit (bytes, seconds, tokens per second, …).
struct Unit {
    spellings: &'static [&'static str],
    kind: Kind,
    size: f64,
}

const fn unit(spellings: &'static [&'static str], kind: Kind, size: f64) -> Unit {
    Unit { spellings, kind, size }
}

const GIB: f64 = 1_073_741_824.0;

/// Every unit an answer may carry. A decimal prefix before a base that takes one (`k`, `M`, `G`,
/// `T`, `P` before tokens/s, FLOPS, FLOP, tokens) is read by [`prefixed`].
const UNITS: &[Unit] = &[
    unit(&["b", "byte", "bytes", "字节"], Kind::Bytes, 1.0),
    unit(&["kb", "千字节"], Kind::Bytes, 1e3),
    unit(&["mb", "兆字节"], Kind::Bytes, 1e6),
    unit(&["gb", "g字节"], Kind::Bytes, 1e9),
    unit(&["tb"], Kind::Bytes, 1e12),
    unit(&["pb"], Kind::Bytes, 1e15),
    unit(&["kib"], Kind::Bytes, 1024.0),
    unit(&["mib"], Kind::Bytes, 1_048_576.0),
    unit(&["gib"], Kind::Bytes, GIB),
    unit(&["tib"], Kind::Bytes, GIB * 1024.0),
    unit(&["s", "sec", "secs", "second", "seconds", "秒", "秒钟"], Kind::Time, 1.0),
    unit(&["ms", "msec", "millisecond", "milliseconds", "毫秒"], Kind::Time, 1e-3),
    unit(&["µs", "μs", "us", "microsecond", "microseconds", "微秒"], Kind::Time, 1e-6),
    unit(&["ns", "nanosecond", "nanoseconds", "纳秒"], Kind::Time, 1e-9),
    unit(&["min", "mins", "minute", "minutes", "分钟"], Kind::Time, 60.0),
    unit(&["h", "hr", "hrs", "hour", "hours", "小时", "个小时"], Kind::Time, 3600.0),
    unit(&["d", "day", "days", "天"], Kind::Time, 86_400.0),
    unit(
        &[
            "token/s",
            "tokens/s",
            "tok/s",
            "t/s",
            "tps",
            "token/sec",
            "tokens/sec",
            "tokens/second",
            "token/秒",
            "tokens/秒",
            "token每秒",
            "个token/s",
            "个token/秒",
            "词元/秒",
            "词元/s",
        ],
        Kind::TokenRate,
        1.0,
    ),
    unit(&["token", "tokens", "tok", "个token", "词元", "个词元"], Kind::Tokens, 1.0),
    unit(&["flops", "flop/s", "flops/s"], Kind::FlopRate, 1.0),
    unit(&["flop", "flops"], Kind::Flop, 1.0),
    unit(&["b/s", "bytes/s", "byte/s", "字节/秒"], Kind::ByteRate, 1.0),
    unit(&["kb/s"], Kind::ByteRate, 1e3),
    unit(&["mb/s"], Kind::ByteRate, 1e6),
    unit(&["gb/s", "gb每秒"], Kind::ByteRate, 1e9),
    unit(&["tb/s", "tb每秒"], Kind::ByteRate, 1e12),
    unit(&["mib/s"], Kind::ByteRate, 1_048_576.0),
    unit(&["gib/s"], Kind::ByteRate, GIB),
    unit(&["tib/s"], Kind::ByteRate, GIB * 1024.0),
    unit(
        &["flop/byte", "flop/b", "flops/byte", "flop/字节", "flops/字节", "flop每字节"],
        Kind::FlopPerByte,
        1.0,
    ),
    unit(
        &["requests", "request", "req", "reqs", "请求", "个请求", "个", "sequences", "条请求"],
        Kind::Requests,
        1.0,
    ),
    unit(
        &["gpu", "gpus", "张gpu", "块gpu", "个gpu", "张", "块", "卡", "张卡", "块卡", "card", "cards"],
        Kind::Gpus,
        1.0,
    ),
    unit(&["$", "usd", "dollar", "dollars", "美元"], Kind::Dollars, 1.0),
    unit(
        &[
            "$/h",
            "$/hr",
            "$/hour",
            "usd/h",
            "usd/hr",
            "usd/hour",
            "美元/小时",
            "美元/时",
            "$/小时",
            "美元每小时",
            "$perhour",
        ],
        Kind::DollarsPerHour,
        1.0,
    ),
    unit(&["%", "percent", "pct"], Kind::Percent, 1.0),
];

/// The decimal prefixes a base unit such as tokens/s or FLOPS may take (`k tokens/s`, `TFLOPS`),
/// and alone after a number they scale the question's own unit (`34.4G` for GB: 34.4 GB).
const PREFIXES: [(char, f64); 5] = [('k', 1e3), ('m', 1e6), ('g', 1e9), ('t', 1e12), ('p', 1e15)];

/// Kinds whose base unit takes a decimal prefix.
fn takes_prefix(kind: Kind) -> bool {
    matches!(kind, Kind::TokenRate | Kind::Tokens | Kind::FlopRate | Kind::Flop)
}

/// A unit as typed, for lookup: lower case, without spaces.
fn key(text: &str) -> String {
    text.chars().filter(|c| !c.is_whitespace()).map(|c| c.to_ascii_lowercase()).collect()
}

/// The units `text` can mean (a spelling may mean two: `flops` is a rate or a count): (kind, size).
fn meanings(text: &str) -> Vec<(Kind, f64)> {
    let k = key(text);
    let mut out: Vec<(Kind, f64)> =
        UNITS.iter().filter(|u| u.spellings.contains(&k.as_str())).map(|u| (u.kind, u.size)).collect();
    out.extend(prefixed(&k));
    out
}

/// `kTOKENS/S`, `TFLOPS`, `GFLOP`: a decimal prefix before a base that takes one.
fn prefixed(k: &str) -> Vec<(Kind, f64)> {
    let mut chars = k.chars();
    let Some(first) = chars.next() else { return Vec::new() };
    let Some(&(_, scale)) = PREFIXES.iter().find(|(p, _)| *p == first) else { return Vec::new() };
    let base = chars.as_str();
    UNITS
        .iter()
        .filter(|u| takes_prefix(u.kind) && u.spellings.contains(&base))
        .map(|u| (u.kind, u.size * scale))
        .collect()
}

/// What the question's `unit` measures and its size in the kind's base unit (bytes, seconds,
/// tokens per second, …); `None` for a plain number or a unit this page does not know.
pub fn kind_and_size(unit: &str) -> Option<(Kind, f64)> {
    meanings(unit).first().copied()
}

/// How an answer's unit relates to the question's.
#[derive(Debug, Clone, PartialEq)]
pub enum Reading {
    /// The number is in the question's unit (typed with it, with none, or with only a classifier
    /// such as `个`).
    Same,
    /// The number was typed in another unit of the same kind: multiply it by this to get the
    /// question's unit.
    Convert(f64),
    /// A unit of another kind than the question's (a time for a size), or a unit where the
    /// question asks for a plain number.
    OtherKind,
    /// Not a unit this page knows.
    Unknown,
}

/// How `typed` (what followed the number) reads against the question's `unit`.
pub fn reading(typed: &str, unit: &str) -> Reading {
    let t = key(typed);
    if t.is_empty() || t == "个" && meanings(unit).first().is_none_or(|(k, _)| *k != Kind::Requests) {
        return Reading::Same;
    }
    if t == key(unit) {
        return Reading::Same;
    }
    let asked = meanings(unit);
    let Some(&(kind, size)) = asked.first() else {
        return if meanings(typed).is_empty() && !unit.trim().is_empty() {
            Reading::Unknown
        } else {
            Reading::OtherKind
        };
    };
    // Alone, a prefix scales the question's base unit: `34.4G` for GB, `900T` for TFLOPS.
    if let Some(&(_, scale)) = PREFIXES.iter().find(|(p, _)| t.len() == 1 && t.starts_with(*p)) {
        if kind != Kind::Time {
            return Reading::Convert(scale / size);
        }
    }
    let typed_meanings = meanings(typed);
    match typed_meanings.iter().find(|(k, _)| *k == kind) {
        Some(&(_, typed_size)) if (typed_size / size - 1.0).abs() < 1e-12 => Reading::Same,
        Some(&(_, typed_size)) => Reading::Convert(typed_size / size),
        None if typed_meanings.is_empty() => Reading::Unknown,
        None => Reading::OtherKind,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn factor(typed: &str, unit: &str) -> f64 {
        match reading(typed, unit) {
            Reading::Same => 1.0,
            Reading::Convert(f) => f,
            other => panic!("{typed} for {unit}: {other:?}"),
        }
    }

    #[test]
    fn the_questions_own_unit_in_any_spelling_is_the_same() {
        for (typed, unit) in [
            ("GB", "GB"),
            ("gb", "GB"),
            ("", "GB"),
            ("个", "GB"),
            ("tokens/s", "token/s"),
            ("token/秒", "tokens/s"),
            ("秒", "s"),
            ("毫秒", "ms"),
            ("个请求", "requests"),
            ("个", "个请求"),
            ("requests", "个请求"),
            ("张", "张 GPU"),
            ("GPUs", "张 GPU"),
            ("FLOP/byte", "FLOP/字节"),
            ("TFLOP/s", "TFLOPS"),
        ] {
            assert_eq!(reading(typed, unit), Reading::Same, "{typed} for {unit}");
        }
    }

    #[test]
    fn another_unit_of_the_same_kind_is_converted() {
        assert!((factor("GiB", "GB") - 1.073_741_824).abs() < 1e-12);
        assert!((factor("MB", "GB") - 1e-3).abs() < 1e-15);
        assert!((factor("µs", "ms") - 1e-3).abs() < 1e-15);
        assert!((factor("us", "ms") - 1e-3).abs() < 1e-15);
        assert!((factor("s", "ms") - 1e3).abs() < 1e-9);
        assert!((factor("k tokens/s", "tokens/s") - 1e3).abs() < 1e-9);
        assert!((factor("PFLOPS", "TFLOPS") - 1e3).abs() < 1e-9);
        assert!((factor("TB/s", "GB/s") - 1e3).abs() < 1e-9);
        assert!((factor("G", "GB") - 1.0).abs() < 1e-12, "34.4G for GB is 34.4 GB");
        assert!((factor("T", "TFLOPS") - 1.0).abs() < 1e-12);
        assert!((factor("KiB", "KiB") - 1.0).abs() < 1e-12);
        assert!((factor("小时", "s") - 3600.0).abs() < 1e-9);
    }

    #[test]
    fn a_unit_of_another_kind_is_named_not_converted() {
        assert_eq!(reading("ms", "GB"), Reading::OtherKind);
        assert_eq!(reading("GB", "ms"), Reading::OtherKind);
        assert_eq!(reading("GB/s", "GB"), Reading::OtherKind);
        assert_eq!(reading("TFLOPS", "GB/s"), Reading::OtherKind);
        assert_eq!(reading("GB", ""), Reading::OtherKind, "a plain number was asked for");
        assert_eq!(reading("furlongs", "GB"), Reading::Unknown);
        assert_eq!(reading("G", "ms"), Reading::Unknown, "a prefix alone does not scale a time");
    }
}
