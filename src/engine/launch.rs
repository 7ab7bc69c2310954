//! CUDA launch arithmetic for a one-dimensional element-wise kernel (the `add` kernel of the
//! CUDA chapter): how a grid of blocks covers `n` elements, how it spreads over the SMs, and
//! how the launch overhead compares with the kernel's own (memory-bound) time.
//!
//! # Formula
//! `blocks = ⌈n / T⌉`, `warps per block = ⌈T / 32⌉`, `idle threads = blocks · T − n`,
//! `blocks per SM = blocks / SMs`, `kernel time ≥ n · bytes per element / B`,
//! `launch share = t_launch / (t_launch + kernel time)`, where `T` is threads per block, `B`
//! the memory bandwidth and `t_launch` the time one launch costs.
//! Source: CUDA C++ Programming Guide (thread hierarchy, warps of 32 threads, at most 1024
//! threads per block).

use super::checked::{non_negative, positive, PerfError};

/// Threads in a warp on every NVIDIA GPU (CUDA C++ Programming Guide, SIMT architecture).
pub const WARP_SIZE: u32 = 32;
/// The most threads a block may have (compute capability 2.0 and later).
pub const MAX_THREADS_PER_BLOCK: u32 = 1024;

/// What the grid is launched for.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct LaunchInput {
    /// Elements to process, one thread each (`n`), at least 1.
    pub elements: u64,
    /// Threads per block (`T`), 1 to 1024.
    pub threads_per_block: u32,
    /// Streaming multiprocessors of the GPU, at least 1.
    pub sm_count: u32,
    /// Bytes each element moves to or from memory (12 for FP32 `out = x + y`).
    pub bytes_per_element: f64,
    /// Peak memory bandwidth `B` in bytes/s.
    pub bandwidth_bytes_per_s: f64,
    /// Seconds one kernel launch costs (`t_launch`).
    pub launch_s: f64,
}

/// The grid and its timing.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Launch {
    pub blocks: u64,
    pub warps_per_block: u32,
    /// `blocks × warps per block`.
    pub warps: u64,
    /// Threads in the last block that fail the `i < n` guard.
    pub idle_threads: u64,
    /// Average blocks each SM runs over the kernel.
    pub blocks_per_sm: f64,
    /// SMs that get no block at all (when the grid has fewer blocks than SMs).
    pub idle_sms: u32,
    /// Lower bound on the kernel's time from its memory traffic.
    pub memory_s: f64,
    /// `t_launch / (t_launch + memory_s)`.
    pub launch_share: f64,
}

/// The grid for `input`. Errors name the field out of range.
pub fn launch(input: &LaunchInput) -> Result<Launch, PerfError> {
    let n = input.elements;
    if n == 0 {
        return Err(PerfError::NotPositive { field: "elements", value: 0.0 });
    }
    let t = input.threads_per_block;
    if t == 0 || t > MAX_THREADS_PER_BLOCK {
        return Err(PerfError::OutOfRange {
            field: "threads_per_block",
            value: f64::from(t),
            min: 1.0,
            max: f64::from(MAX_THREADS_PER_BLOCK),
        });
    }
    if input.sm_count == 0 {
        return Err(PerfError::NotPositive { field: "sm_count", value: 0.0 });
    }
    let per_element = non_negative("bytes_per_element", input.bytes_per_element)?;
    let bandwidth = positive("bandwidth_bytes_per_s", input.bandwidth_bytes_per_s)?;
    let launch_s = non_negative("launch_s", input.launch_s)?;
    let blocks = n.div_ceil(u64::from(t));
    let warps_per_block = t.div_ceil(WARP_SIZE);
    let busy_sms = blocks.min(u64::from(input.sm_count));
    let idle_sms = input.sm_count.saturating_sub(u32::try_from(busy_sms).unwrap_or(u32::MAX));
    let memory_s = super::checked::finite("memory time", n as f64 * per_element / bandwidth)?;
    let total = launch_s + memory_s;
    Ok(Launch {
        blocks,
        warps_per_block,
        warps: blocks.saturating_mul(u64::from(warps_per_block)),
        idle_threads: blocks.saturating_mul(u64::from(t)).saturating_sub(n),
        blocks_per_sm: blocks as f64 / f64::from(input.sm_count),
        idle_sms,
        memory_s,
        launch_share: if total > 0.0 { launch_s / total } else { 0.0 },
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn h100(elements: u64, threads_per_block: u32) -> LaunchInput {
        LaunchInput {
            elements,
            threads_per_block,
            sm_count: 132,
            bytes_per_element: 12.0,
            bandwidth_bytes_per_s: 3.35e12,
            launch_s: 4e-6,
        }
    }

    #[test]
    fn ten_million_elements_in_256_thread_blocks_on_an_h100() {
        // ceil(1e7 / 256) = 39,063 blocks; 39,063 × 256 = 10,000,128 threads, 128 idle;
        // 8 warps a block, 312,504 warps; 39,063 / 132 = 295.93 blocks per SM.
        // 1e7 × 12 B / 3.35e12 B/s = 35.821 µs; 4 / (4 + 35.821) = 10.04 %.
        let l = launch(&h100(10_000_000, 256)).unwrap();
        assert_eq!(l.blocks, 39_063);
        assert_eq!(l.warps_per_block, 8);
        assert_eq!(l.warps, 312_504);
        assert_eq!(l.idle_threads, 128);
        assert_eq!(l.idle_sms, 0);
        assert!((l.blocks_per_sm - 295.932).abs() < 1e-3);
        assert!((l.memory_s - 35.821e-6).abs() < 1e-9);
        assert!((l.launch_share - 0.10045).abs() < 1e-4);
    }

    #[test]
    fn a_small_grid_leaves_sms_idle_and_the_launch_dominates() {
        // 4,096 elements / 256 = 16 blocks on 132 SMs: 116 idle; 49,152 B / 3.35e12 = 14.67 ns.
        let l = launch(&h100(4096, 256)).unwrap();
        assert_eq!(l.blocks, 16);
        assert_eq!(l.idle_sms, 116);
        assert!(l.launch_share > 0.99);
        // 100 threads a block: the last warp is partly empty.
        assert_eq!(launch(&h100(100, 100)).unwrap().warps_per_block, 4);
    }

    #[test]
    fn bad_inputs_name_their_field() {
        assert_eq!(launch(&h100(0, 256)), Err(PerfError::NotPositive { field: "elements", value: 0.0 }));
        assert!(matches!(
            launch(&h100(1, 2048)),
            Err(PerfError::OutOfRange { field: "threads_per_block", .. })
        ));
        let no_sms = LaunchInput { sm_count: 0, ..h100(1, 32) };
        assert!(matches!(launch(&no_sms), Err(PerfError::NotPositive { field: "sm_count", .. })));
        let no_bw = LaunchInput { bandwidth_bytes_per_s: f64::NAN, ..h100(1, 32) };
        assert!(launch(&no_bw).is_err());
    }

    proptest! {
        #[test]
        fn the_grid_covers_every_element_with_less_than_one_block_to_spare(
            n in 1u64..u64::from(u32::MAX) * 4,
            t in 1u32..=1024,
            sms in 1u32..400,
        ) {
            let l = launch(&LaunchInput { sm_count: sms, ..h100(n, t) }).unwrap();
            prop_assert!(l.blocks * u64::from(t) >= n);
            prop_assert!((l.blocks - 1) * u64::from(t) < n);
            prop_assert!(l.idle_threads < u64::from(t));
            prop_assert!(u64::from(l.warps_per_block) * 32 >= u64::from(t));
            prop_assert!((0.0..=1.0).contains(&l.launch_share));
        }
    }
}
