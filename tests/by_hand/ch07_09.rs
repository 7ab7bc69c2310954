use super::Solution;

/// Bytes of one GiB (the engine's runtime overhead is stated as 1 GiB).
const GIB: f64 = 1_073_741_824.0;

/// Requests that fit: floor((memory × (1 − margin) − weights − overhead − activations) / KV per
/// request), all in bytes.
fn requests(memory: f64, margin_percent: f64, weights: f64, overhead: f64, activations: f64, kv: f64) -> f64 {
    ((memory * (1.0 - margin_percent / 100.0) - weights - overhead - activations) / kv).floor()
}

pub const SOLUTIONS: &[Solution] = &[
    Solution {
        id: "nvlink-7b-grad-allreduce",
        // ring all-reduce: each GPU sends 2 (n − 1)/n × S; time = that / busbw, in ms
        given: &[13.5, 8.0, 231.58],
        solve: |g| 2.0 * (g[1] - 1.0) / g[1] * g[0] / g[2] * 1e3,
    },
    Solution {
        id: "nvlink-70b-tp8-prefill",
        // one BF16 activation tensor = tokens × hidden × 2 B; two all-reduces per layer
        given: &[4096.0, 8192.0, 8.0, 370.0, 80.0],
        solve: |g| {
            let tensor = g[0] * g[1] * 2.0;
            let per_all_reduce = 2.0 * (g[2] - 1.0) / g[2] * tensor / (g[3] * 1e9);
            per_all_reduce * g[4] * 2.0 * 1e3
        },
    },
    Solution {
        id: "nvlink-70b-tp8-weights",
        // BF16 (2 B per parameter), split eight ways, in GB
        given: &[70.6e9, 8.0],
        solve: |g| g[0] * 2.0 / g[1] / 1e9,
    },
    Solution {
        id: "mig-8b-int4-weights",
        // embedding + output layer in 16 bits; every other parameter at 4 bits + a 16-bit scale
        // and a 4-bit zero point per 128 weights
        given: &[8.03e9, 128_256.0, 4096.0, 4.0, 16.0, 4.0, 128.0],
        solve: |g| {
            let table = g[1] * g[2];
            let bits = g[3] + (g[4] + g[5]) / g[6];
            (2.0 * table * 2.0 + (g[0] - 2.0 * table) * bits / 8.0) / 1e9
        },
    },
    Solution {
        id: "mig-8b-int4-10gb-requests",
        // memory 10 GB, margin 10%, weights 5.73 GB, 1 GiB overhead, 0.70 GB activations;
        // KV = 4,096 tokens × 128 KiB
        given: &[10.0, 10.0, 5.73, 1.0, 0.70, 4096.0, 128.0],
        solve: |g| requests(g[0] * 1e9, g[1], g[2] * 1e9, g[3] * GIB, g[4] * 1e9, g[5] * g[6] * 1024.0),
    },
    Solution {
        id: "cloud-l4-8k-requests",
        // L4 24 GB, margin 10%, 8.03e9 BF16 parameters, 1 GiB, 0.70 GB; KV = 8,192 × 128 KiB
        given: &[24.0, 10.0, 8.03e9, 1.0, 0.70, 8192.0, 128.0],
        solve: |g| requests(g[0] * 1e9, g[1], g[2] * 2.0, g[3] * GIB, g[4] * 1e9, g[5] * g[6] * 1024.0),
    },
    Solution {
        id: "cloud-a100-8k-requests",
        // the same service on 80 GB
        given: &[80.0, 10.0, 8.03e9, 1.0, 0.70, 8192.0, 128.0],
        solve: |g| requests(g[0] * 1e9, g[1], g[2] * 2.0, g[3] * GIB, g[4] * 1e9, g[5] * g[6] * 1024.0),
    },
];
