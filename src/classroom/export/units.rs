//! The units an LMS's numeric question may accept beside the question's own, with how many of
//! each make one of the question's unit (Moodle's "multiplier"): 34.4 GB is also 34,400 MB and
//! 32.04 GiB. Only units of the same kind, spelled as people type them.

use crate::exercises::units::{kind_and_size, Kind};

const GIB: f64 = 1_073_741_824.0;

/// Spellings shown by an LMS, with their size in the kind's base unit.
fn table(kind: Kind) -> &'static [(&'static str, f64)] {
    match kind {
        Kind::Bytes => &[
            ("B", 1.0),
            ("kB", 1e3),
            ("MB", 1e6),
            ("GB", 1e9),
            ("TB", 1e12),
            ("KiB", 1024.0),
            ("MiB", 1_048_576.0),
            ("GiB", GIB),
            ("TiB", GIB * 1024.0),
        ],
        Kind::Time => &[("s", 1.0), ("ms", 1e-3), ("µs", 1e-6), ("us", 1e-6), ("ns", 1e-9)],
        Kind::ByteRate => &[("GB/s", 1e9), ("TB/s", 1e12), ("MB/s", 1e6), ("GiB/s", GIB)],
        Kind::TokenRate => &[("tokens/s", 1.0), ("token/s", 1.0), ("k tokens/s", 1e3)],
        Kind::FlopRate => &[("TFLOPS", 1e12), ("PFLOPS", 1e15), ("GFLOPS", 1e9)],
        _ => &[],
    }
}

/// `(spelling, multiplier)` for every unit of the question's kind other than the question's
/// own: a value in that unit is the value in the question's unit × multiplier.
pub fn alternatives(unit: &str) -> Vec<(&'static str, f64)> {
    let Some((kind, size)) = kind_and_size(unit) else { return Vec::new() };
    let own = unit.trim();
    table(kind)
        .iter()
        .filter(|(name, s)| {
            *name != own && !(*name).eq_ignore_ascii_case(own) && (s / size - 1.0).abs() > 1e-12
        })
        .map(|&(name, s)| (name, size / s))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_gb_question_also_takes_mb_and_gib() {
        let alt = alternatives("GB");
        let mb = alt.iter().find(|(n, _)| *n == "MB").expect("MB").1;
        let gib = alt.iter().find(|(n, _)| *n == "GiB").expect("GiB").1;
        assert!((mb - 1000.0).abs() < 1e-9);
        assert!((gib - 1e9 / GIB).abs() < 1e-12);
        assert!(!alt.iter().any(|(n, _)| *n == "GB"));
        assert!(alternatives("").is_empty());
    }
}
