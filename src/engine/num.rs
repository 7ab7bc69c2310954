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

/// Stable insertion sort: `less(a, b)` says `a` goes before `b`; equal elements keep their
/// order, so the result is the same as `slice::sort_by`'s. For the short, mostly ordered lists
/// the engine, charts and validation sort (4 terms, a curve's points, one kind's rows), with far
/// less wasm than one copy of the standard library's sort per element type.
pub fn sort_stable_by<T>(v: &mut [T], mut less: impl FnMut(&T, &T) -> bool) {
    for i in 1..v.len() {
        let mut j = i;
        while j > 0 {
            match (v.get(j - 1), v.get(j)) {
                (Some(a), Some(b)) if less(b, a) => {
                    v.swap(j - 1, j);
                    j -= 1;
                }
                _ => break,
            }
        }
    }
}

/// The median of values already sorted ascending; `None` for none.
pub fn median_of_sorted(v: &[f64]) -> Option<f64> {
    let n = v.len();
    if n % 2 == 1 {
        v.get(n / 2).copied()
    } else {
        Some((v.get(n.checked_sub(1)? / 2)? + v.get(n / 2)?) / 2.0)
    }
}

/// `y` at `x` on the polyline through `points` (sorted by `x`, every `x` > 0) in `ln x`: between
/// two points `y0 + (y1 − y0) · ln(x/x0) / ln(x1/x0)`, held at the first point's `y` below it and
/// the last's above (no extrapolation past a measurement). A non-finite or non-positive `x`, or no
/// points, gives the first point's `y` (0 for none). Worked: (1024, 0.865), (2048, 0.943) at 1448
/// → 0.865 + 0.078 · ln(1448/1024)/ln 2 = 0.904.
pub fn log_interpolate(points: &[(f64, f64)], x: f64) -> f64 {
    let Some(&(x_first, y_first)) = points.first() else { return 0.0 };
    if !(x.is_finite() && x > 0.0) || x <= x_first {
        return y_first;
    }
    for w in points.windows(2) {
        if let [(x0, y0), (x1, y1)] = w {
            if x <= *x1 && *x1 > *x0 && *x0 > 0.0 {
                return y0 + (y1 - y0) * (x / x0).ln() / (x1 / x0).ln();
            }
        }
    }
    points.last().map_or(y_first, |p| p.1)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn log_interpolation_by_hand_and_at_the_ends() {
        let p = [(1024.0, 0.865), (2048.0, 0.943), (4096.0, 1.0)];
        let y = log_interpolate(&p, 1448.0);
        assert!((y - (0.865 + 0.078 * (1448.0f64 / 1024.0).ln() / 2f64.ln())).abs() < 1e-12);
        assert!((y - 0.904).abs() < 5e-4);
        assert_eq!(log_interpolate(&p, 2048.0), 0.943);
        assert_eq!(log_interpolate(&p, 10.0), 0.865);
        assert_eq!(log_interpolate(&p, 1e9), 1.0);
        assert_eq!(log_interpolate(&p, f64::NAN), 0.865);
        assert_eq!(log_interpolate(&p, -3.0), 0.865);
        assert_eq!(log_interpolate(&[], 5.0), 0.0);
        // Monotone points give a monotone curve.
        let mut last = 0.0;
        for k in 1..200 {
            let v = log_interpolate(&p, f64::from(k) * 37.0);
            assert!(v >= last);
            last = v;
        }
    }

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

    #[test]
    fn sort_stable_by_is_the_standard_stable_sort() {
        let cases: [&[(f64, u8)]; 5] = [
            &[],
            &[(1.0, 0)],
            &[(3.0, 0), (1.0, 1), (2.0, 2), (1.0, 3), (3.0, 4), (0.0, 5), (-0.0, 6), (f64::NAN, 7)],
            &[(5.0, 0), (4.0, 1), (3.0, 2), (2.0, 3), (1.0, 4)],
            &[(1.0, 0), (1.0, 1), (2.0, 2), (2.0, 3)],
        ];
        for case in cases {
            for desc in [false, true] {
                let cmp = |a: &(f64, u8), b: &(f64, u8)| {
                    if desc {
                        b.0.total_cmp(&a.0)
                    } else {
                        a.0.total_cmp(&b.0)
                    }
                };
                let mut want = case.to_vec();
                want.sort_by(cmp);
                let mut got = case.to_vec();
                sort_stable_by(&mut got, |a, b| cmp(a, b).is_lt());
                let bits = |v: &[(f64, u8)]| v.iter().map(|(x, i)| (x.to_bits(), *i)).collect::<Vec<_>>();
                assert_eq!(bits(&got), bits(&want), "{case:?} desc={desc}");
            }
        }
    }
}
