use super::Solution;

pub const SOLUTIONS: &[Solution] = &[
    // Training, fine-tuning and inference.
    Solution {
        id: "train-8b-optimizer",
        // parameters × 12 bytes (FP32 master copy + two FP32 moments), in GB
        given: &[8.03e9, 12.0],
        solve: |g| g[0] * g[1] / 1e9,
    },
    Solution {
        id: "train-8b-zero3-min-gpus",
        // ZeRO-3: states / n + activations + logits + overhead ≤ 90% of 80 GB; fewest n
        given: &[8.03e9, 16.0, 22.0, 5.25, 1.0, 10.0, 80.0],
        solve: |g| {
            let states_gb = g[0] * g[1] / 1e9;
            let overhead_gb = g[4] * 1.073741824; // 1 GiB
            let room = g[6] * (1.0 - g[5] / 100.0) - g[2] - g[3] - overhead_gb;
            (states_gb / room).ceil()
        },
    },
    Solution {
        id: "train-70b-qlora-base",
        // NF4 linear layers at 4.127 bits + BF16 embedding and output + FP32 adapters, in GB
        given: &[68.45e9, 4.127, 2.10e9, 207.1e6],
        solve: |g| (g[0] * g[1] / 8.0 + g[2] * 2.0 + g[3] * 4.0) / 1e9,
    },
    Solution {
        id: "train-rag-extra-kv",
        // K and V × layers × KV heads × head dim × 2 bytes × tokens × requests, in GB
        given: &[32.0, 8.0, 128.0, 4000.0, 32.0],
        solve: |g| 2.0 * g[0] * g[1] * g[2] * 2.0 * g[3] * g[4] / 1e9,
    },
    // Diagnosing bottlenecks.
    Solution {
        id: "bottle-7b-a100-bound",
        // every BF16 weight read once per token: bandwidth / bytes
        given: &[6.74e9, 2.039],
        solve: |g| g[1] * 1e12 / (g[0] * 2.0),
    },
    Solution {
        id: "bottle-evidence-bw-share",
        // (bytes read + bytes written) ÷ measured time ÷ peak bandwidth, in %
        given: &[0.8, 0.4, 0.45, 3.35],
        solve: |g| (g[0] + g[1]) * 1e9 / (g[2] * 1e-3) / (g[3] * 1e12) * 100.0,
    },
    Solution {
        id: "bottle-allreduce-nvswitch",
        // ring all-reduce: 2 (n − 1) / n × S / busbw, in ms
        given: &[8.0, 16.06, 370.0],
        solve: |g| 2.0 * (g[0] - 1.0) / g[0] * g[1] / g[2] * 1e3,
    },
    Solution {
        id: "bottle-allreduce-pcie",
        // the same at 31.5 GB/s, in s
        given: &[8.0, 16.06, 31.5],
        solve: |g| 2.0 * (g[0] - 1.0) / g[0] * g[1] / g[2],
    },
    // From learning to production.
    Solution {
        id: "path-h100-ridge",
        // peak FLOP/s ÷ bandwidth
        given: &[989.5, 3.35],
        solve: |g| g[0] * 1e12 / (g[1] * 1e12),
    },
    Solution {
        id: "path-h100-attainable-200",
        // min(peak, intensity × bandwidth), in TFLOPS
        given: &[200.0, 989.5, 3.35],
        solve: |g| g[1].min(g[0] * g[2]),
    },
];
