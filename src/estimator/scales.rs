//! Slider scales. Log-like quantities (context, batch, GPU count) move along "nice" values —
//! powers of two and the midpoints 1.5·2^k, the sizes people actually configure (4096, 6144,
//! 8192, 12288 …) — so one arrow-key press is one sensible step; the number field beside each
//! slider still takes any value in range.

/// Integers of the form 2^k and 3·2^(k−1) within `[min, max]`, plus `min` and `max` themselves.
pub fn nice_values(min: u64, max: u64) -> Vec<u64> {
    let (min, max) = (min.max(1), max.max(min.max(1)));
    let mut v = vec![min];
    let mut p: u64 = 1;
    while p <= max {
        for candidate in [p, p.saturating_mul(3) / 2] {
            if candidate > min && candidate < max && (candidate == p || p >= 2) {
                v.push(candidate);
            }
        }
        match p.checked_mul(2) {
            Some(n) => p = n,
            None => break,
        }
    }
    v.push(max);
    v.sort_unstable();
    v.dedup();
    v
}

/// Powers of two within `[min, max]` (tensor and pipeline parallel degrees, LoRA ranks).
pub fn powers_of_two(min: u64, max: u64) -> Vec<u64> {
    let mut v = Vec::new();
    let mut p: u64 = 1;
    while p <= max {
        if p >= min {
            v.push(p);
        }
        match p.checked_mul(2) {
            Some(n) => p = n,
            None => break,
        }
    }
    if v.is_empty() {
        v.push(min);
    }
    v
}

/// Index of the value nearest to `x` on a log scale (ties go to the lower one).
pub fn nearest_index(values: &[u64], x: u64) -> usize {
    let lx = (x.max(1) as f64).ln();
    let mut best = 0;
    let mut best_d = f64::INFINITY;
    for (i, v) in values.iter().enumerate() {
        let d = ((*v).max(1) as f64).ln() - lx;
        if d.abs() < best_d {
            best = i;
            best_d = d.abs();
        }
    }
    best
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn context_steps_are_the_usual_sizes() {
        let v = nice_values(512, 1 << 20);
        assert_eq!(&v[..6], &[512, 768, 1024, 1536, 2048, 3072]);
        assert!(v.contains(&4096) && v.contains(&6144) && v.contains(&131_072));
        assert_eq!(*v.last().unwrap(), 1 << 20);
    }

    #[test]
    fn batch_steps_start_at_one() {
        assert_eq!(&nice_values(1, 1024)[..8], &[1, 2, 3, 4, 6, 8, 12, 16]);
        assert_eq!(nice_values(5, 5), vec![5]);
        assert_eq!(nice_values(0, 0), vec![1]);
    }

    #[test]
    fn nearest() {
        let v = nice_values(1, 1024);
        assert_eq!(v[nearest_index(&v, 1000)], 1024);
        assert_eq!(v[nearest_index(&v, 5)], 6, "5 is nearer 6 than 4 on a log scale");
        assert_eq!(v[nearest_index(&v, 0)], 1);
        assert_eq!(v[nearest_index(&v, u64::MAX)], 1024);
        assert_eq!(powers_of_two(1, 64), vec![1, 2, 4, 8, 16, 32, 64]);
    }
}
