use super::Solution;

pub const SOLUTIONS: &[Solution] = &[
    // CUDA
    Solution {
        id: "cuda-saxpy-h100",
        // 1.2 GB moved at 3.35 TB/s: the bandwidth bound, in ms
        given: &[1.2, 3.35],
        solve: |g| g[0] * 1e9 / (g[1] * 1e12) * 1e3,
    },
    // Tensor Cores
    Solution {
        id: "tc-gemm-a100-bf16",
        // 2·M·N·K FLOPs at the dense BF16 peak of 312 TFLOPS, in ms
        given: &[8192.0, 312.0],
        solve: |g| 2.0 * g[0].powi(3) / (g[1] * 1e12) * 1e3,
    },
    Solution {
        id: "tc-gemm-a100-tf32",
        // the same 2·8192³ FLOPs at the dense TF32 peak of 156 TFLOPS, in ms
        given: &[8192.0, 156.0],
        solve: |g| 2.0 * g[0].powi(3) / (g[1] * 1e12) * 1e3,
    },
    // Reading spec sheets
    Solution {
        id: "spec-1e15-at-60pct",
        // dense = sparse 1,979 / 2; time = FLOPs / (60% of dense), in s
        given: &[1979.0, 1e15, 60.0],
        solve: |g| g[1] / (g[2] / 100.0 * g[0] / 2.0 * 1e12),
    },
    Solution {
        id: "spec-13b-l40s-decode",
        // 13B FP16 weights (2 bytes each) read once per token at 864 GB/s
        given: &[13e9, 864.0],
        solve: |g| g[1] * 1e9 / (g[0] * 2.0),
    },
    Solution {
        id: "spec-13b-a100-decode",
        // the same 26 GB at 2,039 GB/s
        given: &[13e9, 2039.0],
        solve: |g| g[1] * 1e9 / (g[0] * 2.0),
    },
];
