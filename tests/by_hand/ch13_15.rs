use super::Solution;

pub const SOLUTIONS: &[Solution] = &[
    Solution {
        id: "cap-8b-32x8k-total",
        // BF16 weights + KV (requests × tokens × bytes per token) + activations + overhead, in GB.
        given: &[8.03e9, 131_072.0, 32.0, 8192.0, 0.70, 1.07],
        solve: |g| g[0] * 2.0 / 1e9 + g[1] * g[2] * g[3] / 1e9 + g[4] + g[5],
    },
    Solution {
        id: "cap-8b-32k-requests",
        // (budget − BF16 weights − activations − overhead) / KV per request, whole requests.
        given: &[72.0, 8.03e9, 0.70, 1.07, 131_072.0, 32_768.0],
        solve: |g| ((g[0] - g[1] * 2.0 / 1e9 - g[2] - g[3]) / (g[4] * g[5] / 1e9)).floor(),
    },
    Solution {
        id: "cap-8b-8k-requests",
        // Same as above at 8,192 tokens per request.
        given: &[72.0, 8.03e9, 0.70, 1.07, 131_072.0, 8192.0],
        solve: |g| ((g[0] - g[1] * 2.0 / 1e9 - g[2] - g[3]) / (g[4] * g[5] / 1e9)).floor(),
    },
    Solution {
        id: "cap-70b-int4-8k-requests",
        // weights = linear weights × bits / 8 + 16-bit embedding and output; then the free
        // budget over the KV of one 8,192-token request, whole requests.
        given: &[68.45e9, 4.156, 2.10e9, 72.0, 1.38, 1.07, 327_680.0, 8192.0],
        solve: |g| {
            let weights = (g[0] * g[1] / 8.0 + g[2] * 2.0) / 1e9;
            ((g[3] - weights - g[4] - g[5]) / (g[6] * g[7] / 1e9)).floor()
        },
    },
    Solution {
        id: "cap-tiers-gpu-share",
        // min(1, free pool ÷ (sessions × tokens × bytes per token)), in %.
        given: &[52.2, 300.0, 12_750.0, 131_072.0],
        solve: |g| (g[0] * 1e9 / (g[1] * g[2] * g[3])).min(1.0) * 100.0,
    },
    Solution {
        id: "cap-tiers-cpu-restore",
        // ⌈tokens ÷ block⌉ × (per-copy µs + block × bytes per token ÷ (GB/s × share)), in ms.
        given: &[99_999.0, 16.0, 3.6, 131_072.0, 64.0, 80.0],
        solve: |g| (g[0] / g[1]).ceil() * (g[2] * 1e-6 + g[1] * g[3] / (g[4] * 1e9 * g[5] / 100.0)) * 1e3,
    },
    Solution {
        id: "cap-tiers-ssd-restore",
        // tokens × bytes per token ÷ (GB/s × share), in ms.
        given: &[11_250.0, 131_072.0, 7.0, 80.0],
        solve: |g| g[0] * g[1] / (g[2] * 1e9 * g[3] / 100.0) * 1e3,
    },
    Solution {
        id: "cluster-intra-node-bw",
        // Bidirectional figure halved.
        given: &[900.0],
        solve: |g| g[0] / 2.0,
    },
    Solution {
        id: "cluster-inter-node-bw",
        // Gbps / 8 bits per byte = GB/s per node, shared by the node's GPUs.
        given: &[3200.0, 8.0],
        solve: |g| g[0] / 8.0 / g[1],
    },
    Solution {
        id: "cluster-disagg-kv-bytes",
        // 2 (K and V) × layers × KV heads × head dimension × 2 bytes (BF16) × tokens ÷ GPUs, in MB.
        given: &[80.0, 8.0, 128.0, 4096.0, 8.0],
        solve: |g| 2.0 * g[0] * g[1] * g[2] * 2.0 * g[3] / g[4] / 1e6,
    },
    Solution {
        id: "cluster-disagg-transfer",
        // bytes ÷ (GB/s × 1e9 × efficiency) + layers × latency (µs), in ms.
        given: &[167_772_160.0, 50.0, 75.0, 80.0, 5.0],
        solve: |g| g[0] / (g[1] * 1e9 * g[2] / 100.0) * 1e3 + g[3] * g[4] / 1e3,
    },
    Solution {
        id: "cluster-wide-ep-experts",
        // ceil((routed + redundant) ÷ GPUs).
        given: &[256.0, 32.0, 32.0],
        solve: |g| ((g[0] + g[1]) / g[2]).ceil(),
    },
    Solution {
        id: "cluster-wide-ep-kv",
        // values × 2 bytes (BF16) × layers × sequences × tokens, in GB.
        given: &[576.0, 61.0, 64.0, 4096.0],
        solve: |g| g[0] * 2.0 * g[1] * g[2] * g[3] / 1e9,
    },
    Solution {
        id: "cluster-wide-ep-exchange",
        // tokens × copies (one per chosen expert) × (dispatch B ÷ GB/s + combine B ÷ GB/s) ×
        // layers × imbalance, in ms.
        given: &[64.0, 8.0, 7408.0, 63.0, 14_336.0, 74.0, 58.0, 1.2],
        solve: |g| g[0] * g[1] * (g[2] / (g[3] * 1e9) + g[4] / (g[5] * 1e9)) * g[6] * g[7] * 1e3,
    },
    Solution {
        id: "share-8x4k-kv",
        // requests × tokens × bytes per token, in GB.
        given: &[8.0, 4096.0, 131_072.0],
        solve: |g| g[0] * g[1] * g[2] / 1e9,
    },
    Solution {
        id: "cap-session-hit-rate",
        // h = (s + (a + o)(T − 1)/2) / (s + (a + o)(T − 1)/2 + a), in percent.
        given: &[1000.0, 8.0, 200.0, 300.0],
        solve: |g| {
            let cached = g[0] + (g[2] + g[3]) * (g[1] - 1.0) / 2.0;
            cached / (cached + g[2]) * 100.0
        },
    },
    Solution {
        id: "cap-shared-prefix-kv",
        // (requests × (context − shared) + shared) × KV per token, in GB.
        given: &[32.0, 4352.0, 2048.0, 128.0],
        solve: |g| (g[0] * (g[1] - g[2]) + g[2]) * g[3] * 1024.0 / 1e9,
    },
    Solution {
        id: "cap-prefix-90-prefill",
        // (2 × (parameters − 2 × embedding) × new tokens + 2 × embedding (the output layer, last
        // token) + 2 × layers × hidden × (prompt² − cached²)) / peak, in ms.
        given: &[8.03e9, 5.25e8, 4096.0, 3686.0, 32.0, 4096.0, 989.5],
        solve: |g| {
            let flops = 2.0 * (g[0] - 2.0 * g[1]) * (g[2] - g[3])
                + 2.0 * g[1]
                + 2.0 * g[4] * g[5] * (g[2] * g[2] - g[3] * g[3]);
            flops / (g[6] * 1e12) * 1e3
        },
    },
];
