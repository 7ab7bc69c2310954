//! Aggregate bandwidth of the on-chip shared memory / L1, which vendors do not publish as a
//! figure: it follows from the width of the SM's shared-memory path, the SM count and the clock.

use crate::engine::checked::{finite, positive, PerfError};

/// Bytes per clock one SM's shared memory delivers: 32 banks of 32 bits each, one access per
/// bank per clock (NVIDIA, CUDA C++ Programming Guide, "Shared Memory", compute capability 5.x
/// and later).
pub const SHARED_MEMORY_BYTES_PER_CLOCK_PER_SM: f64 = 32.0 * 4.0;

/// Peak aggregate shared-memory bandwidth of a GPU, bytes/s: an upper bound, reached only
/// without bank conflicts and at the boost clock.
///
/// # Formula
/// `B_smem = SMs × 128 B/clock × clock`. Worked: H100 SXM, 132 SMs at 1.98 GHz:
/// `132 × 128 × 1.98e9 ≈ 33.5e12` B/s.
pub fn shared_memory_bandwidth(sm_count: f64, clock_hz: f64) -> Result<f64, PerfError> {
    let sms = positive("sm_count", sm_count)?;
    let clock = positive("clock_hz", clock_hz)?;
    finite("shared memory bandwidth", sms * SHARED_MEMORY_BYTES_PER_CLOCK_PER_SM * clock)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn h100_and_a100_worked() {
        let h100 = shared_memory_bandwidth(132.0, 1.98e9).unwrap();
        assert!((h100 - 33.454_08e12).abs() < 1e6, "{h100}");
        // A100: 108 SMs at 1.41 GHz = 19.49 TB/s.
        let a100 = shared_memory_bandwidth(108.0, 1.41e9).unwrap();
        assert!((a100 - 19.491_84e12).abs() < 1e6, "{a100}");
        assert!(shared_memory_bandwidth(0.0, 1e9).is_err());
        assert!(shared_memory_bandwidth(10.0, f64::INFINITY).is_err());
    }
}
