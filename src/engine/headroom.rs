//! Headroom and hourly cost of one deployment step (notebook card → workstation → datacenter):
//! how much of the usable memory is left once the model, its KV cache and the runtime are in,
//! and what the GPUs cost per hour when a price is known.
//!
//! # Formula
//! `headroom = usable − total`, `headroom share = headroom / usable`,
//! `cost per hour = price per GPU-hour × GPUs`, where `usable = memory × (1 − safety margin)`
//! and `total` is the heaviest GPU's bytes (both from [`MemoryFit`]).

use super::fit::MemoryFit;

#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Headroom {
    /// `usable − total` in bytes; negative when it does not fit.
    pub headroom_bytes: f64,
    /// `headroom / usable`; 0 when nothing is usable.
    pub headroom_share: f64,
    /// `price × GPUs` in USD per hour; `None` without a finite, non-negative price.
    pub cost_per_hour: Option<f64>,
}

/// Headroom of `fit` and the hourly cost of `gpus` GPUs at `price_per_gpu_hour`.
pub fn headroom(fit: &MemoryFit, price_per_gpu_hour: Option<f64>, gpus: u32) -> Headroom {
    let usable = fit.usable_bytes as f64;
    let headroom_bytes = usable - fit.total_bytes as f64;
    Headroom {
        headroom_bytes,
        headroom_share: if usable > 0.0 { headroom_bytes / usable } else { 0.0 },
        cost_per_hour: price_per_gpu_hour
            .filter(|p| p.is_finite() && *p >= 0.0)
            .map(|p| p * f64::from(gpus.max(1))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fit(total_bytes: u64, usable_bytes: u64) -> MemoryFit {
        MemoryFit { total_bytes, kv_cache_bytes: 0, usable_bytes, fits: total_bytes <= usable_bytes }
    }

    #[test]
    fn worked_numbers() {
        // 18 GB in 72 GB usable (80 GB × 0.9): 54 GB left, 75 %; 1 GPU at $6.88/h.
        let h = headroom(&fit(18_000_000_000, 72_000_000_000), Some(6.88), 1);
        assert_eq!(h.headroom_bytes, 54e9);
        assert_eq!(h.headroom_share, 0.75);
        assert_eq!(h.cost_per_hour, Some(6.88));
        // 30 GB in 21.6 GB usable (24 GB × 0.9): 8.4 GB short, no price known.
        let h = headroom(&fit(30_000_000_000, 21_600_000_000), None, 1);
        assert!((h.headroom_bytes + 8.4e9).abs() < 1.0);
        assert!(h.headroom_share < 0.0);
        assert_eq!(h.cost_per_hour, None);
        // Two GPUs at $2/h cost $4/h; a NaN price is no price.
        assert_eq!(headroom(&fit(1, 2), Some(2.0), 2).cost_per_hour, Some(4.0));
        assert_eq!(headroom(&fit(1, 2), Some(f64::NAN), 2).cost_per_hour, None);
        assert_eq!(headroom(&fit(1, 0), None, 1).headroom_share, 0.0);
    }
}
