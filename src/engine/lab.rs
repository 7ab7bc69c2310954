//! The arithmetic of the WebGPU lab: what each benchmark kernel moves and computes, the sizes it
//! sweeps, how a dispatch covers the data, the expected contents after each kernel (so the page
//! can validate by reading back), and the statistics of repeated timings.
//!
//! The memory kernels are four of BabelStream's five, Copy, Mul, Add and Triad (Deakin et al.,
//! "GPU-STREAM v2.0", 2016; McCalpin's STREAM calls Mul "Scale"), on arrays of `vec4<f32>` (16
//! bytes per element). BabelStream's fifth, Dot (a reduction), is not run:
//!
//! | kernel | operation      | arrays read | written | bytes per element |
//! |--------|----------------|-------------|---------|-------------------|
//! | copy   | c = a          | 1           | 1       | 32                |
//! | mul    | b = s·c        | 1           | 1       | 32                |
//! | add    | c = a + b      | 2           | 1       | 48                |
//! | triad  | a = b + s·c    | 2           | 1       | 48                |
//!
//! Bandwidth = bytes counted this way ÷ time, as BabelStream reports it (write-allocate traffic
//! is not counted). The compute kernels: a chain of fused multiply-adds (2 FLOP each) and a tiled
//! matrix product (2·M·N·K FLOP).

/// Bytes of one `vec4<f32>` element.
pub const VEC4_BYTES: u64 = 16;

/// One of the BabelStream memory kernels the lab runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum StreamKernel {
    Copy,
    Mul,
    Add,
    Triad,
}

impl StreamKernel {
    /// In BabelStream's order, which is also the order the lab runs them.
    pub const ALL: [StreamKernel; 4] =
        [StreamKernel::Copy, StreamKernel::Mul, StreamKernel::Add, StreamKernel::Triad];

    /// The WGSL entry point (and the kernel's name on screen: an identifier in both languages).
    pub fn name(self) -> &'static str {
        match self {
            StreamKernel::Copy => "copy",
            StreamKernel::Mul => "mul",
            StreamKernel::Add => "add",
            StreamKernel::Triad => "triad",
        }
    }

    /// Arrays read and written per element.
    pub fn arrays(self) -> (u64, u64) {
        match self {
            StreamKernel::Copy | StreamKernel::Mul => (1, 1),
            StreamKernel::Add | StreamKernel::Triad => (2, 1),
        }
    }

    /// Bytes counted for one pass over `elements` vec4 elements.
    pub fn bytes(self, elements: u64) -> u64 {
        let (r, w) = self.arrays();
        (r + w).saturating_mul(VEC4_BYTES).saturating_mul(elements)
    }
}

/// Working-set sizes per array, in bytes: powers of two from `min` up to `max` (inclusive),
/// each a whole number of vec4 elements. Empty when `max < min` or `min` is 0.
pub fn sweep(min: u64, max: u64) -> Vec<u64> {
    let mut out = Vec::new();
    if min == 0 {
        return out;
    }
    let mut size = min.next_power_of_two().max(VEC4_BYTES);
    while size <= max {
        out.push(size);
        match size.checked_mul(2) {
            Some(next) => size = next,
            None => break,
        }
    }
    out
}

/// The largest array the lab may allocate: the adapter's buffer limits and a cap the reader
/// chose, rounded down to a power of two.
pub fn max_array_bytes(max_buffer_size: u64, max_storage_binding: u64, cap: u64) -> u64 {
    let limit = max_buffer_size.min(max_storage_binding).min(cap);
    if limit == 0 {
        0
    } else {
        1u64 << (63 - limit.leading_zeros())
    }
}

/// Workgroups in x and y that cover `workgroups` with at most `max_per_dimension` in each
/// (WebGPU's default limit is 65,535): x × y ≥ workgroups, y as small as possible. The shader
/// skips invocations past the end of the data. `(0, 0)` when nothing fits.
pub fn dispatch_2d(workgroups: u64, max_per_dimension: u64) -> (u32, u32) {
    if workgroups == 0 || max_per_dimension == 0 {
        return (0, 0);
    }
    let x = workgroups.min(max_per_dimension);
    let y = workgroups.div_ceil(x);
    if y > max_per_dimension {
        return (0, 0);
    }
    (u32::try_from(x).unwrap_or(0), u32::try_from(y).unwrap_or(0))
}

/// The value every element of the three arrays holds (the lab fills each array with one value,
/// so one number per array describes it). The starting values are BabelStream's.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct StreamState {
    pub a: f32,
    pub b: f32,
    pub c: f32,
}

/// BabelStream's scalar.
pub const SCALAR: f32 = 0.4;

impl StreamState {
    pub const START: StreamState = StreamState { a: 0.1, b: 0.2, c: 0.0 };

    /// The arrays after `kernel` has run once (or any number of times: each kernel's output does
    /// not feed its own inputs, so repeating it changes nothing).
    pub fn after(self, kernel: StreamKernel) -> StreamState {
        let StreamState { a, b, c } = self;
        match kernel {
            StreamKernel::Copy => StreamState { c: a, ..self },
            StreamKernel::Mul => StreamState { b: SCALAR * c, ..self },
            StreamKernel::Add => StreamState { c: a + b, ..self },
            StreamKernel::Triad => StreamState { a: b + SCALAR * c, ..self },
        }
    }

    /// The array `kernel` writes and the value it must hold afterwards.
    pub fn written(self, kernel: StreamKernel) -> (usize, f32) {
        let next = self.after(kernel);
        match kernel {
            StreamKernel::Copy | StreamKernel::Add => (2, next.c),
            StreamKernel::Mul => (1, next.b),
            StreamKernel::Triad => (0, next.a),
        }
    }
}

/// Whether values read back match the expected one (relative error ≤ 1e-5, and all finite).
/// An empty read-back does not validate.
pub fn all_close(values: &[f32], expected: f32) -> bool {
    !values.is_empty()
        && values.iter().all(|v| v.is_finite() && (v - expected).abs() <= 1e-5 * expected.abs().max(1e-6))
}

/// FLOPs of the FMA-chain kernel: each invocation runs `chains` independent chains of
/// `iterations` fused multiply-adds, 2 FLOP each.
pub fn fma_flops(invocations: u64, iterations: u64, chains: u64) -> u64 {
    invocations.saturating_mul(iterations).saturating_mul(chains).saturating_mul(2)
}

/// The value one FMA chain reaches: x ← x·m + k repeated `iterations` times from `x0`, in f32
/// with one rounding per step (a fused multiply-add), as the shader computes it.
pub fn fma_chain(x0: f32, m: f32, k: f32, iterations: u32) -> f32 {
    (0..iterations).fold(x0, |x, _| x.mul_add(m, k))
}

/// FLOPs of an M×K by K×N matrix product.
pub fn matmul_flops(m: u64, n: u64, k: u64) -> u64 {
    m.saturating_mul(n).saturating_mul(k).saturating_mul(2)
}

/// Median, minimum and maximum of the valid samples (finite and > 0). `None` without any.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Spread {
    pub median: f64,
    pub min: f64,
    pub max: f64,
    pub samples: usize,
}

pub fn spread(samples: &[f64]) -> Option<Spread> {
    let mut v: Vec<f64> = samples.iter().copied().filter(|x| x.is_finite() && *x > 0.0).collect();
    super::num::sort_stable_by(&mut v, |a, b| a < b);
    let n = v.len();
    let min = *v.first()?;
    let max = *v.last()?;
    Some(Spread { median: super::num::median_of_sorted(&v)?, min, max, samples: n })
}

/// Seconds between two GPU timestamps (nanoseconds); `None` when the end is not after the start
/// (timestamps may be quantised or reset: such samples are discarded, not counted as zero).
pub fn timestamp_seconds(start_ns: u64, end_ns: u64) -> Option<f64> {
    let d = end_ns.checked_sub(start_ns)?;
    (d > 0).then(|| d as f64 / 1e9)
}

/// How many launches one timed sample needs to last at least `target_s`, from one launch that
/// took `single_s`; at least 1, at most `cap`.
pub fn launches_for(single_s: f64, target_s: f64, cap: u32) -> u32 {
    if !(single_s.is_finite() && single_s > 0.0 && target_s.is_finite() && target_s > 0.0) {
        return cap.max(1);
    }
    super::num::u32_from_f64((target_s / single_s).ceil()).clamp(1, cap.max(1))
}

/// A rate (per second) from an amount and a time; `None` unless both are positive and finite.
pub fn rate(amount: u64, seconds: f64) -> Option<f64> {
    (seconds.is_finite() && seconds > 0.0 && amount > 0).then(|| amount as f64 / seconds)
}

/// The measured roofline: attainable FLOP/s at arithmetic intensity `intensity` (FLOP/byte) is
/// min(compute roof, bandwidth × intensity); the ridge point is compute ÷ bandwidth.
pub fn ridge_point(flops_per_s: f64, bytes_per_s: f64) -> Option<f64> {
    (flops_per_s.is_finite() && bytes_per_s.is_finite() && flops_per_s > 0.0 && bytes_per_s > 0.0)
        .then(|| flops_per_s / bytes_per_s)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bytes_follow_babelstream() {
        // 1 Mi elements of vec4<f32> = 16 MiB per array; triad moves three arrays: 48 MiB.
        let n = 1 << 20;
        assert_eq!(StreamKernel::Copy.bytes(n), 32 << 20);
        assert_eq!(StreamKernel::Mul.bytes(n), 32 << 20);
        assert_eq!(StreamKernel::Add.bytes(n), 48 << 20);
        assert_eq!(StreamKernel::Triad.bytes(n), 48 << 20);
        assert_eq!(StreamKernel::Triad.bytes(u64::MAX), u64::MAX);
    }

    #[test]
    fn sweep_doubles_from_one_mib() {
        let mib = 1 << 20;
        assert_eq!(sweep(mib, 8 * mib), vec![mib, 2 * mib, 4 * mib, 8 * mib]);
        assert_eq!(sweep(mib, 8 * mib - 1), vec![mib, 2 * mib, 4 * mib]);
        assert!(sweep(mib, mib - 1).is_empty());
        assert!(sweep(0, mib).is_empty());
        assert_eq!(sweep(1 << 62, u64::MAX), vec![1 << 62, 1 << 63]);
        assert_eq!(max_array_bytes(1 << 30, 128 << 20, u64::MAX), 128 << 20);
        assert_eq!(max_array_bytes(3 << 20, 1 << 30, 1 << 30), 2 << 20);
        assert_eq!(max_array_bytes(0, 1, 1), 0);
    }

    #[test]
    fn dispatch_goes_two_dimensional_past_65535() {
        assert_eq!(dispatch_2d(1, 65_535), (1, 1));
        assert_eq!(dispatch_2d(65_535, 65_535), (65_535, 1));
        // 256 MiB of vec4 with 256 invocations per workgroup: 65,536 workgroups.
        assert_eq!(dispatch_2d(65_536, 65_535), (65_535, 2));
        let (x, y) = dispatch_2d(1_000_000, 65_535);
        assert!(u64::from(x) * u64::from(y) >= 1_000_000 && y == 16);
        assert_eq!(dispatch_2d(0, 65_535), (0, 0));
        assert_eq!(dispatch_2d(u64::MAX, 65_535), (0, 0));
    }

    #[test]
    fn expected_values_after_each_kernel() {
        // BabelStream's sequence from a = 0.1, b = 0.2, c = 0: copy → c = 0.1; mul → b = 0.04;
        // add → c = 0.14; triad → a = 0.04 + 0.4 × 0.14 = 0.096.
        let s = StreamState::START;
        let s = s.after(StreamKernel::Copy);
        assert_eq!(s.c, 0.1);
        let s = s.after(StreamKernel::Mul);
        assert!((s.b - 0.04).abs() < 1e-7);
        let s = s.after(StreamKernel::Add);
        assert!((s.c - 0.14).abs() < 1e-7);
        assert_eq!(s.written(StreamKernel::Triad).0, 0);
        let s = s.after(StreamKernel::Triad);
        assert!((s.a - 0.096).abs() < 1e-7);
        // Repeating a kernel changes nothing.
        assert_eq!(s.after(StreamKernel::Triad), s);
        assert!(all_close(&[0.096, 0.096_000_2], 0.096));
        assert!(!all_close(&[0.096, 0.1], 0.096));
        assert!(!all_close(&[f32::NAN], 0.096));
        assert!(!all_close(&[], 0.096));
    }

    #[test]
    fn flops_count_two_per_fma() {
        // 65,536 invocations × 1,024 iterations × 8 chains × 2 FLOP = 1.07 GFLOP.
        assert_eq!(fma_flops(65_536, 1024, 8), 1_073_741_824);
        assert_eq!(matmul_flops(1024, 1024, 1024), 2_147_483_648);
        // x ← 0.999x + 0.001 converges to 1 and stays finite.
        let x = fma_chain(0.5, 0.999, 0.001, 10_000);
        assert!((x - 1.0).abs() < 1e-3, "{x}");
        assert_eq!(fma_chain(0.5, 0.999, 0.001, 0), 0.5);
    }

    #[test]
    fn spread_discards_bad_samples() {
        let s = spread(&[3.0, 1.0, 2.0, f64::NAN, 0.0, -1.0]).unwrap();
        assert_eq!(s, Spread { median: 2.0, min: 1.0, max: 3.0, samples: 3 });
        assert_eq!(spread(&[4.0, 1.0, 2.0, 3.0]).unwrap().median, 2.5);
        assert_eq!(spread(&[f64::INFINITY, 0.0]), None);
        assert_eq!(spread(&[]), None);
    }

    #[test]
    fn timestamps_and_rates() {
        assert_eq!(timestamp_seconds(1_000, 21_000_000), Some(0.020_999));
        assert_eq!(timestamp_seconds(5, 5), None);
        assert_eq!(timestamp_seconds(6, 5), None);
        // 48 MiB in 20 ms = 2.52 GB/s.
        let r = rate(48 << 20, 0.02).unwrap();
        assert!((r - 2.516_582_4e9).abs() < 1e3);
        assert_eq!(rate(0, 1.0), None);
        assert_eq!(rate(1, 0.0), None);
        assert_eq!(rate(1, f64::NAN), None);
        // A 1 ms launch needs 20 launches to fill 20 ms; a 50 ms launch needs one.
        assert_eq!(launches_for(0.001, 0.02, 1000), 20);
        assert_eq!(launches_for(0.05, 0.02, 1000), 1);
        assert_eq!(launches_for(1e-9, 0.02, 1000), 1000);
        assert_eq!(launches_for(0.0, 0.02, 1000), 1000);
        // H100 SXM datasheet: 989 TFLOP/s BF16 dense over 3.35 TB/s: ridge ≈ 295 FLOP/byte.
        let ridge = ridge_point(989e12, 3.35e12).unwrap();
        assert!((ridge - 295.2).abs() < 0.1);
        assert_eq!(ridge_point(0.0, 1.0), None);
    }
}
