//! Chapters 1 to 3: introduction, memory capacity, memory bandwidth.

use super::Solution;

/// Bytes of one KiB.
const KIB: f64 = 1024.0;

pub const SOLUTIONS: &[Solution] = &[
    Solution {
        id: "intro-8b-decode-bound",
        // Bytes per token: the weights but the input embedding (2 bytes each) + the average KV
        // cache; tokens/s = bandwidth / bytes.
        given: &[8.03e9, 5.25e8, 128.0, 384.0, 3.35],
        solve: |g| {
            let bytes = (g[0] - g[1]) * 2.0 + g[3] * g[2] * KIB;
            g[4] * 1e12 / bytes
        },
    },
    Solution {
        id: "intro-8b-memory-term",
        // Q / B in milliseconds, Q as in the exercise before.
        given: &[8.03e9, 5.25e8, 128.0, 384.0, 3.35],
        solve: |g| {
            let bytes = (g[0] - g[1]) * 2.0 + g[3] * g[2] * KIB;
            bytes / (g[4] * 1e12) * 1e3
        },
    },
    Solution {
        id: "mem-kv-32x8k",
        // 2 (K and V) × layers × KV heads × head_dim × 2 bytes × tokens × requests, in GB.
        given: &[32.0, 8.0, 128.0, 8192.0, 32.0],
        solve: |g| 2.0 * g[0] * g[1] * g[2] * 2.0 * g[3] * g[4] / 1e9,
    },
    Solution {
        id: "mem-adam-optimizer-7b",
        // Parameters × 12 bytes, in GB.
        given: &[6.74e9, 12.0],
        solve: |g| g[0] * g[1] / 1e9,
    },
    Solution {
        id: "mem-70b-int4-requests",
        // (GPU memory × (1 − margin) − weights − activations − runtime) / KV bytes per request,
        // rounded down.
        given: &[80.0, 10.0, 39.77, 1.38, 1.0, 80.0, 8.0, 128.0, 4096.0],
        solve: |g| {
            let free = g[0] * 1e9 * (1.0 - g[1] / 100.0) - g[2] * 1e9 - g[3] * 1e9 - g[4] * KIB * KIB * KIB;
            let per_request = g[8] * 2.0 * g[5] * g[6] * g[7] * 2.0;
            (free / per_request).floor()
        },
    },
    Solution {
        id: "mem-70b-kv-per-token",
        // 2 × layers × KV heads × head_dim × 2 bytes, in KiB.
        given: &[80.0, 8.0, 128.0],
        solve: |g| 2.0 * g[0] * g[1] * g[2] * 2.0 / KIB,
    },
    Solution {
        id: "bw-a100-ridge",
        // Peak FLOP/s ÷ bytes/s.
        given: &[312.0, 2.039],
        solve: |g| g[0] / g[1],
    },
    Solution {
        id: "bw-a100-attainable-10",
        // min(peak, intensity × bandwidth), in TFLOPS.
        given: &[10.0, 312.0, 2.039],
        solve: |g| g[1].min(g[0] * g[2]),
    },
    Solution {
        id: "bw-7b-int4-a100-bound",
        // Bytes per step: the 4-bit layers at 4.625 bits, the BF16 output layer, the average KV
        // cache; tokens/s = bandwidth / bytes.
        given: &[6.48e9, 4.625, 1.31e8, 512.0, 384.0, 2.039],
        solve: |g| {
            let bytes = g[0] * g[1] / 8.0 + g[2] * 2.0 + g[4] * g[3] * KIB;
            g[5] * 1e12 / bytes
        },
    },
    Solution {
        id: "bw-h200-16x8k-step",
        // (weights but the embedding × 2 bytes + sequences × average context × KV per token) / B.
        given: &[8.03e9, 5.25e8, 16.0, 8064.0, 128.0, 4.8],
        solve: |g| {
            let bytes = (g[0] - g[1]) * 2.0 + g[2] * g[3] * g[4] * KIB;
            bytes / (g[5] * 1e12) * 1e3
        },
    },
    Solution {
        id: "bw-8b-prefill-2k-bound",
        // (2 × (parameters − 2 × embedding) × tokens + 2 × embedding (the output layer, last
        // token) + 2 × layers × hidden × tokens²) / peak, in ms.
        given: &[8.03e9, 5.25e8, 2048.0, 32.0, 4096.0, 989.5],
        solve: |g| {
            (2.0 * (g[0] - 2.0 * g[1]) * g[2] + 2.0 * g[1] + 2.0 * g[3] * g[4] * g[2] * g[2]) / (g[5] * 1e12)
                * 1e3
        },
    },
    Solution {
        id: "bw-8b-decode-b64-throughput",
        // sequences × bandwidth / (weights but the embedding × 2 bytes + sequences × context × KV).
        given: &[8.03e9, 5.25e8, 64.0, 2176.0, 128.0, 3.35],
        solve: |g| g[2] * g[5] * 1e12 / ((g[0] - g[1]) * 2.0 + g[2] * g[3] * g[4] * KIB),
    },
    Solution {
        id: "bw-spec-expected-tokens",
        // (1 − α^(γ+1)) / (1 − α).
        given: &[0.8, 3.0],
        solve: |g| (1.0 - g[0].powf(g[1] + 1.0)) / (1.0 - g[0]),
    },
    Solution {
        id: "bw-spec-tpot",
        // (verify + drafts × max(GPU, host)) ÷ E, in ms.
        given: &[6.58, 4.0, 0.34, 0.93, 3.05],
        solve: |g| (g[0] + g[1] * g[2].max(g[3])) / g[4],
    },
];
