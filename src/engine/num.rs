//! Audited numeric conversions: the only casts in the engine that could truncate, lose a sign
//! or wrap. Each saturates, so no input makes a conversion panic or wrap around; the float
//! conversions are exactly Rust's `as` (NaN → 0, negative → 0, too large → MAX, fraction
//! dropped), written down once here instead of at every use.

#![allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]

/// `v` as a `usize` (saturating on 32-bit targets).
pub fn usize_sat(v: u64) -> usize {
    usize::try_from(v).unwrap_or(usize::MAX)
}

/// `v` as a `u32`, saturating at `u32::MAX`.
pub fn u32_sat(v: u64) -> u32 {
    u32::try_from(v).unwrap_or(u32::MAX)
}

/// `v` as a `u64`: NaN and negatives give 0, values above the range `u64::MAX`, the fraction is dropped.
pub fn u64_from_f64(v: f64) -> u64 {
    v as u64
}

/// `v` as a `u32`: NaN and negatives give 0, values above the range `u32::MAX`, the fraction is dropped.
pub fn u32_from_f64(v: f64) -> u32 {
    v as u32
}

/// `v` as a `u128`: NaN and negatives give 0, the fraction is dropped.
pub fn u128_from_f64(v: f64) -> u128 {
    v as u128
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn conversions_saturate() {
        assert_eq!(u32_sat(u64::MAX), u32::MAX);
        assert_eq!(u32_sat(7), 7);
        assert_eq!(usize_sat(12), 12);
        assert_eq!(u64_from_f64(f64::NAN), 0);
        assert_eq!(u64_from_f64(-3.0), 0);
        assert_eq!(u64_from_f64(1e30), u64::MAX);
        assert_eq!(u64_from_f64(2.9), 2);
        assert_eq!(u32_from_f64(5e9), u32::MAX);
        assert_eq!(u128_from_f64(72e9 * 0.9), 64_800_000_000);
    }
}
