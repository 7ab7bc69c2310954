//! The pipeline schedule's step: `m` micro-batches through `p` stages of `v` model chunks each.
//!
//! 1F1B (PipeDream-Flush; Narayanan et al., "Efficient Large-Scale Language Model Training on GPU
//! Clusters Using Megatron-LM", SC21, §2.2.1): `T = (m + p − 1)·t_mb` with `t_mb` the slowest
//! stage's forward and backward of one micro-batch; the bubble is `(p − 1)/(m + p − 1)` of the
//! step (GPipe's form, Huang et al. 2019). Interleaved 1F1B with `v` chunks per GPU (§2.2.2):
//! the bubble shrinks `v`-fold, `T = (m + (p − 1)/v)·t_mb`.

/// Micro-batch slots of a step, `m + (p − 1)/v`. Worked: p 8, m 16: 23; with v 5: 17.4.
pub fn slots(micro_batches: f64, stages: f64, virtual_stages: f64) -> f64 {
    let (m, p, v) = (micro_batches.max(1.0), stages.max(1.0), virtual_stages.max(1.0));
    m + (p - 1.0) / v
}

/// The bubble's share of the step, `((p − 1)/v) / (m + (p − 1)/v)`.
/// Worked: p 8, m 16: 7/23 = 0.304; with v 5: 1.4/17.4 = 0.080.
pub fn bubble_fraction(micro_batches: f64, stages: f64, virtual_stages: f64) -> f64 {
    let s = slots(micro_batches, stages, virtual_stages);
    (s - micro_batches.max(1.0)) / s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn interleaving_shrinks_the_bubble() {
        assert_eq!(slots(16.0, 8.0, 1.0), 23.0);
        assert!((slots(16.0, 8.0, 5.0) - 17.4).abs() < 1e-12);
        assert!((bubble_fraction(16.0, 8.0, 1.0) - 7.0 / 23.0).abs() < 1e-12);
        assert!((bubble_fraction(16.0, 8.0, 5.0) - 1.4 / 17.4).abs() < 1e-12);
        assert_eq!(bubble_fraction(4.0, 1.0, 1.0), 0.0);
    }
}
