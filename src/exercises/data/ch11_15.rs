//! Chapters 11 to 15: bottlenecks, learning path, capacity estimation, clusters, sharing GPUs.

use super::{choice, engine, num, pick, report, BF16};
use crate::exercises::{Calc, Exercise};

const L2_7B_A100_B1: &str =
    r#"{"model": "llama-2-7b", "batch": 1, "context_tokens": 512, "gpu": "a100-sxm-80gb"}"#;

pub static BOTTLENECKS: &[Exercise] = &[
    Exercise {
        id: "bottle-mfu-3000",
        answer: choice(&["7", "15", "30", "40"], "15"),
        zh: pick(
            "一个团队训练 80.3 亿参数的模型，每张 H100 SXM（稠密 BF16 989.5 TFLOPS）每秒处理 3,000 个 token。MFU 约是多少？",
            &["约 7%", "约 15%", "约 30%", "约 40%"],
            "训练每个 token 约 6 × 参数量 FLOP（前向 2，反向 4）。",
            "6 × 8.03e9 × 3,000 ≈ 1.45e14 FLOP/s，÷ 989.5e12 ≈ 14.6%。远低于调好的大规模训练约 40%，先找算力空转（批太小、kernel 碎片化、启动开销）或数据输入卡顿，再看通信。",
        ),
        en: pick(
            "A team trains an 8.03B-parameter model at 3,000 tokens per second per H100 SXM (989.5 dense BF16 TFLOPS). Roughly what is the MFU?",
            &["About 7%", "About 15%", "About 30%", "About 40%"],
            "Training costs about 6 × parameters FLOPs per token (2 forward, 4 backward).",
            "6 × 8.03e9 × 3,000 ≈ 1.45e14 FLOP/s ÷ 989.5e12 ≈ 14.6%, far below the roughly 40% of well-tuned large runs. Look first for idle compute (small batches, fragmented kernels, launch overhead) or input stalls, then communication.",
        ),
    },
    Exercise {
        id: "bottle-7b-a100-bound",
        answer: report(L2_7B_A100_B1, "phases.decode.tokens_per_s_bound", 1.0, 0, 0.03),
        zh: num(
            "Llama-2-7B（67.4 亿参数，BF16）在 A100 80GB SXM 上批大小 1 解码，上下文 512。设每个 token 把全部 67.4 亿个权重读一遍（这么短的上下文，KV cache 可以忽略）。按峰值带宽 2.039 TB/s，上限是多少 token/s？",
            "token/s",
            "每个 token 读一遍全部权重：6.74e9 × 2 字节。",
            "按题目的算法：6.74e9 × 2 字节 = 13.48 GB，2.039 TB/s 下上限约 151 token/s，检查会接受它（误差 ±3% 以内）。下面给出的答案 {key} 是引擎的数，略有不同：它还算上了很小的 KV cache，又扣掉了只按行取用、不整张读取的嵌入表；每个 token 实际读取 {r:phases.decode.bytes:1e-9:2} GB（不含嵌入表的权重加上 KV cache），在这个上下文下两者几乎抵消。瓶颈在哪？gpt-fast 在限功耗 330 W 时实测 104.9 token/s：按本题算法 104.9 × 13.48 GB ≈ 1.41 TB/s（gpt-fast 自己的算法是 1,397 GB/s），约为峰值的 69%，低于 BabelStream 在这张卡上的 79–86%，但已是受带宽限制的量级：这个负载受显存带宽限制，加算力没用，减少字节才有用（同一来源用 INT8 权重测到 155.6 token/s）。",
        ),
        en: num(
            "Llama-2-7B (6.74 billion parameters, BF16) decodes at batch 1 on an A100 80GB SXM with a 512-token context. Take each token to read all 6.74 billion weights once (at so short a context the KV cache can be ignored). At the peak 2.039 TB/s, what is the tokens-per-second bound?",
            "tokens/s",
            "Each token reads all weights: 6.74e9 × 2 bytes.",
            "By the question's method, 6.74e9 × 2 bytes = 13.48 GB at 2.039 TB/s give a bound of about 151 tokens/s, which the check accepts (within ±3%). The key shown, {key}, is the engine's and differs slightly: it also counts the small KV cache and leaves out the embedding table, which is gathered row by row rather than read in full; per token it reads {r:phases.decode.bytes:1e-9:2} GB (the weights without the embedding table, and the KV cache); at this context the two nearly cancel. What limits the workload? gpt-fast measured 104.9 tokens/s at a 330 W power limit: 104.9 × 13.48 GB ≈ 1.41 TB/s by this question's count (1,397 GB/s by gpt-fast's own), about 69% of peak, below the 79–86% BabelStream reaches on this GPU but in the bandwidth-bound regime: more FLOPS will not help, fewer bytes will (the same source measures 155.6 tokens/s with INT8 weights).",
        ),
    },
    // Evidence from a profiler: bytes and a measured time give the achieved bandwidth, its share
    // of peak, and which term of the bound sets the kernel's time.
    Exercise {
        id: "bottle-evidence-bw-share",
        answer: engine(Calc::MemoryTime { gpu: "h100-sxm", bytes: 1.2e9 }, 100.0 / 0.45e-3, 0, 0.02),
        zh: num(
            "Nsight Compute 报告，H100 SXM（峰值显存带宽 3.35 TB/s）上的一个融合逐元素 kernel 从显存读取 0.8 GB、写回 0.4 GB，耗时 0.45 ms。它达到了峰值带宽的百分之多少？",
            "%",
            "搬运的字节数要把读和写都算上；实测带宽 = 字节数 ÷ 耗时，再除以峰值。",
            "0.8 + 0.4 = 1.2 GB，1.2 GB ÷ 0.45 ms ≈ 2.67 TB/s，÷ 3.35 TB/s ≈ {key}%。换个角度看：1.2 GB ÷ 3.35 TB/s ≈ 0.358 ms 是这个 kernel 耗时的下限，实测的 0.45 ms 只比它多约 26%。",
        ),
        en: num(
            "Nsight Compute reports that a fused elementwise kernel on an H100 SXM (peak memory bandwidth 3.35 TB/s) reads 0.8 GB from memory and writes 0.4 GB back in 0.45 ms. What percentage of the peak bandwidth does it reach?",
            "%",
            "The bytes moved count reads and writes; achieved bandwidth = bytes ÷ time, then divide by the peak.",
            "0.8 + 0.4 = 1.2 GB, and 1.2 GB ÷ 0.45 ms ≈ 2.67 TB/s, ÷ 3.35 TB/s ≈ {key}%. Seen the other way: 1.2 GB ÷ 3.35 TB/s ≈ 0.358 ms is a lower bound on the kernel's time, and the measured 0.45 ms is only about 26% above it.",
        ),
    },
    Exercise {
        id: "bottle-evidence-term",
        answer: choice(&["compute", "memory", "communication", "overhead"], "memory"),
        zh: pick(
            "同一个 kernel（在 H100 SXM 上 0.45 ms 搬运 1.2 GB，峰值 3.35 TB/s）还做了 0.6 GFLOP 的运算，只用一张 GPU。和大多数逐元素 kernel 一样，它读入 BF16，却在 CUDA 核心上而不是 Tensor Core 上按 FP32 计算，所以它的算力屋顶是 H100 SXM 非 Tensor Core 的 FP32 峰值 67 TFLOPS。max(W/F, Q/B, C/N) 里哪一项决定了它的耗时？",
            &["计算项 W/F：换用 FP8 Tensor Core", "显存项 Q/B：少搬字节（与相邻 kernel 融合、用更小的格式存激活）", "通信项 C/N：换互联更好的机器", "固定开销：kernel 离两条屋顶都很远，应减少启动次数"],
            "分别算出 W/F 和 Q/B，和实测的 0.45 ms 比较。",
            "W/F = 0.6e9 ÷ 67e12 ≈ 9.0 µs，Q/B = 1.2e9 ÷ 3.35e12 ≈ 358 µs：显存项是计算项的 40 倍，而实测的 450 µs 离它只差约 1.26 倍（峰值的 80%）。算术强度 0.6 ÷ 1.2 = 0.5 FLOP/字节，远在 CUDA 核心的拐点（67 ÷ 3.35 = 20 FLOP/字节）左边，离 Tensor Core 的 BF16 拐点（约 295）就更远了。更多的算力毫无用处；即使是完美的 kernel，耗时也至少要 358 µs。要更快，只能少搬字节：把它和相邻的 kernel 融合，让中间结果不落显存，或用更小的格式存激活。单卡任务没有通信项；离屋顶这么近，开销也不是主因。",
        ),
        en: pick(
            "The same kernel (1.2 GB moved in 0.45 ms on an H100 SXM, 3.35 TB/s peak) also performs 0.6 GFLOP of arithmetic, on one GPU. Like most elementwise kernels it loads BF16 but computes in FP32 on the CUDA cores, not the Tensor Cores, so its compute roof is the H100 SXM's non-tensor FP32 peak, 67 TFLOPS. Which term of max(W/F, Q/B, C/N) sets its time?",
            &["Compute, W/F: switch to FP8 Tensor Cores", "Memory, Q/B: move fewer bytes (fuse it with its neighbours, store activations in a smaller format)", "Communication, C/N: a better-connected machine", "Fixed overhead: the kernel is far from both roofs, launch fewer kernels"],
            "Work out W/F and Q/B and compare them with the measured 0.45 ms.",
            "W/F = 0.6e9 ÷ 67e12 ≈ 9.0 µs and Q/B = 1.2e9 ÷ 3.35e12 ≈ 358 µs: the memory term is 40 times the compute term, and the measured 450 µs is within about 1.26 times of it (80% of peak). The intensity is 0.6 ÷ 1.2 = 0.5 FLOP/byte, far left of the CUDA cores' ridge (67 ÷ 3.35 = 20 FLOP/byte), and further still from the Tensor Cores' BF16 ridge (about 295). More FLOPS change nothing; even a perfect kernel takes at least 358 µs. The way to go faster is to move fewer bytes: fuse it with its neighbours so intermediates stay out of memory, or store activations in a smaller format. A one-GPU job has no communication term, and so close to the roof the overhead is not the cause either.",
        ),
    },
    Exercise {
        id: "bottle-allreduce-nvswitch",
        answer: engine(Calc::AllReduce { bytes: 16.06e9, ranks: 8, bus_bytes_per_s: 370e9 }, 1e3, 0, 0.02),
        zh: num(
            "在 8 张 GPU 上数据并行训练 8.03B 模型，每步用环形 all-reduce 同步 16.06 GB 的 BF16 梯度。在 NVSwitch 上按环形算法（NCCL_ALGO=Ring）实测的 370 GB/s busbw，要多少毫秒？",
            "ms",
            "每卡流量 2 × 7/8 × 16.06 GB，除以 busbw。",
            "2 × 7/8 × 16.06 ≈ 28.1 GB，÷ 370 GB/s ≈ {key} ms。若计算每步 400 ms 且不重叠，通信约占 16%。",
        ),
        en: num(
            "Data-parallel training of an 8.03B model on 8 GPUs synchronises 16.06 GB of BF16 gradients per step with a ring all-reduce. At the 370 GB/s bus bandwidth measured on NVSwitch with the ring algorithm (NCCL_ALGO=Ring), how many milliseconds does it take?",
            "ms",
            "Per GPU: 2 × 7/8 × 16.06 GB, divided by busbw.",
            "2 × 7/8 × 16.06 ≈ 28.1 GB ÷ 370 GB/s ≈ {key} ms. With 400 ms of compute per step and no overlap, communication is about 16% of the step.",
        ),
    },
    Exercise {
        id: "bottle-allreduce-pcie",
        answer: engine(Calc::AllReduce { bytes: 16.06e9, ranks: 8, bus_bytes_per_s: 31.5e9 }, 1.0, 2, 0.02),
        zh: num(
            "同样在 8 张 GPU 上对 16.06 GB 梯度做环形 all-reduce，改走 PCIe 4.0，按理想的单向 31.5 GB/s（作为 busbw），要多少秒？",
            "s",
            "同样的 28.1 GB，换成 31.5 GB/s。",
            "28.1 GB ÷ 31.5 GB/s ≈ {key} s，即使理想情况也是。计算 400 ms 时通信占一步的约 69%，扩展性崩溃。重叠和梯度累积能缓解，但弥补不了 370 对 31.5 GB/s 这样十倍以上的链路差距。",
        ),
        en: num(
            "The same ring all-reduce of 16.06 GB of gradients over 8 GPUs, now on PCIe 4.0 at an ideal 31.5 GB/s per direction (taken as the bus bandwidth): how many seconds?",
            "s",
            "The same 28.1 GB at 31.5 GB/s.",
            "28.1 GB ÷ 31.5 GB/s ≈ {key} s even in the ideal case. With 400 ms of compute, communication is about 69% of the step and scaling collapses. Overlap and gradient accumulation help, but cannot remove a link gap of more than ten times (370 against 31.5 GB/s).",
        ),
    },
];

pub static LEARNING_PATH: &[Exercise] = &[
    Exercise {
        id: "path-h100-ridge",
        answer: engine(Calc::RidgePoint { gpu: "h100-sxm", dtype: BF16 }, 1.0, 0, 0.02),
        zh: num(
            "H100 SXM 的 BF16 拐点是多少 FLOP/字节？（稠密 989.5 TFLOPS，3.35 TB/s）",
            "FLOP/字节",
            "峰值算力 ÷ 显存带宽。",
            "989.5 ÷ 3.35 ≈ {key} FLOP/字节。A100 的拐点约 153：一个 200 FLOP/字节的 kernel 在 A100 上受算力限制，在 H100 上却受带宽限制。",
        ),
        en: num(
            "What is the H100 SXM's BF16 ridge point in FLOP per byte? (989.5 dense TFLOPS, 3.35 TB/s)",
            "FLOP/byte",
            "Peak compute ÷ memory bandwidth.",
            "989.5 ÷ 3.35 ≈ {key} FLOP/byte. The A100's is about 153: a kernel at 200 FLOP/byte is compute-bound on the A100 and memory-bound on the H100.",
        ),
    },
    Exercise {
        id: "path-h100-attainable-200",
        answer: engine(Calc::Attainable { gpu: "h100-sxm", dtype: BF16, intensity: 200.0 }, 1e-12, 0, 0.02),
        zh: num(
            "一个每字节做 200 次浮点运算的 kernel，在 H100 SXM 的 BF16 roofline 上（稠密 989.5 TFLOPS，3.35 TB/s）最多能达到多少 TFLOPS？",
            "TFLOPS",
            "min(峰值, 强度 × 带宽)。",
            "min(989.5, 200 × 3.35) = {key} TFLOPS，受带宽限制。在 A100 上（312 TFLOPS，2.039 TB/s，拐点约 153）它受算力限制，能跑到 312 TFLOPS；换到 H100 后快约 670 / 312 ≈ 2.1 倍：既不是按算力算的 3.2 倍，也不是按带宽算的 1.6 倍，因为瓶颈从算力换成了带宽。",
        ),
        en: num(
            "A kernel performs 200 FLOPs per byte it moves. How many TFLOPS can it reach at most on the H100 SXM's BF16 roofline (989.5 dense TFLOPS, 3.35 TB/s)?",
            "TFLOPS",
            "min(peak, intensity × bandwidth).",
            "min(989.5, 200 × 3.35) = {key} TFLOPS: bandwidth-bound. On an A100 (312 TFLOPS, 2.039 TB/s, ridge about 153) it is compute-bound at 312 TFLOPS, so moving to the H100 speeds it up about 670 / 312 ≈ 2.1×: neither the 3.2× of the FLOPS nor the 1.6× of the bandwidth, because the limit switches from compute to bandwidth.",
        ),
    },
    Exercise {
        id: "path-scaling-efficiency",
        answer: choice(&["68", "85", "92", "100"], "85"),
        zh: pick(
            "一个微调任务单卡每秒 3,000 token，8 卡每秒 20,400 token。扩展效率是多少？",
            &["68%", "85%", "92%", "100%"],
            "实际吞吐 ÷（卡数 × 单卡吞吐）。",
            "20,400 ÷ (8 × 3,000) = 85%。损失的 15% 相当于 0.15 × 8 = 1.2 张卡的吞吐：付了钱却没拿到。",
        ),
        en: pick(
            "A fine-tuning job processes 3,000 tokens per second on 1 GPU and 20,400 on 8 GPUs. What is the scaling efficiency?",
            &["68%", "85%", "92%", "100%"],
            "Achieved ÷ (GPUs × single-GPU throughput).",
            "20,400 ÷ (8 × 3,000) = 85%. The lost 15% is 0.15 × 8 = 1.2 GPUs' worth of throughput paid for but not delivered.",
        ),
    },
    Exercise {
        id: "path-cost-per-request",
        answer: choice(&["a", "b"], "b"),
        zh: pick(
            "候选 A（Azure NC24ads A100 v4，每小时 $3.673）在延迟目标下每秒处理 5 个请求；候选 B（NC40ads H100 v5，每小时 $6.98）每秒 12 个。按每 1,000 个请求算，哪个更便宜？",
            &["A（约 $0.204）", "B（约 $0.162）"],
            "先算每小时能处理多少请求。",
            "A：每小时 18,000 个请求，$3.673 / 18 ≈ 每 1,000 个 $0.204。B：每小时 43,200 个，$6.98 / 43.2 ≈ 每 1,000 个 $0.162。B 每小时贵近一倍，每个请求却便宜约 21%。",
        ),
        en: pick(
            "Candidate A (Azure NC24ads A100 v4, $3.673 per hour) sustains 5 requests per second at your latency target; candidate B (NC40ads H100 v5, $6.98 per hour) sustains 12. Which is cheaper per 1,000 requests?",
            &["A (about $0.204)", "B (about $0.162)"],
            "Work out requests per hour first.",
            "A: 18,000 requests per hour, $3.673 / 18 ≈ $0.204 per 1,000. B: 43,200 per hour, $6.98 / 43.2 ≈ $0.162 per 1,000. B costs almost twice as much per hour but about 21% less per request.",
        ),
    },
];

const L31_8B_32X8K: &str =
    r#"{"model": "llama-3.1-8b", "context_tokens": 8192, "batch": 32, "gpu": "h100-sxm"}"#;

const L31_8B_SESSION: &str = r#"{"model": "llama-3.1-8b", "prompt_tokens": 2950, "output_tokens": 300, "context_tokens": 3250, "gpu": "h100-sxm", "batch": 1, "session_turns": 8, "session_turn_tokens": 200, "session_turn_output_tokens": 300, "prefix_shared_tokens": 1000}"#;
const L31_8B_SHARED_32: &str = r#"{"model": "llama-3.1-8b", "prompt_tokens": 4096, "output_tokens": 256, "context_tokens": 4352, "gpu": "h100-sxm", "batch": 32, "prefix_shared_tokens": 2048}"#;
const L31_8B_PREFIX_H90: &str = r#"{"model": "llama-3.1-8b", "prompt_tokens": 4096, "output_tokens": 256, "context_tokens": 4352, "gpu": "h100-sxm", "batch": 1, "prefix_hit_rate": 0.9}"#;
/// KV cache tiers, as chapter 13 works them (`capacity-estimation-tiers-ssd`): agent sessions of
/// Llama-3.1-8B on an H100, 300 open, a 200 GB CPU tier and a 3.84 TB SSD tier.
const L31_8B_TIERS: &str = r#"{"model": "llama-3.1-8b", "gpu": "h100-sxm", "prompt_tokens": 14250, "output_tokens": 500, "context_tokens": 14750, "batch": 1, "session_turns": 16, "session_turn_tokens": 1000, "prefix_shared_tokens": 2000, "prefix_open_sessions": 300, "kv_cpu_tier_bytes": 200000000000, "kv_ssd_tier_bytes": 3840000000000}"#;
/// vLLM's offloading measurement (`capacity-estimation-tiers-100k`): a 100,000-token prompt whose
/// cache is all in the CPU tier, the GPU's prefix cache off.
const L31_8B_CPU_100K: &str = r#"{"model": "llama-3.1-8b", "gpu": "h100-sxm", "prompt_tokens": 100000, "output_tokens": 1, "context_tokens": 100001, "batch": 1, "prefix_hit_rate": 1.0, "prefix_open_sessions": 1, "kv_gpu_cache_bytes": 0, "kv_cpu_tier_bytes": 500000000000}"#;

pub static CAPACITY_ESTIMATION: &[Exercise] = &[
    Exercise {
        id: "cap-8b-32x8k-total",
        answer: report(L31_8B_32X8K, "memory_per_gpu_bytes.total", 1e-9, 1, 0.02),
        zh: num(
            "Llama-3.1-8B（80.3 亿参数，KV cache 每 token 131,072 字节）以 BF16 权重和 KV cache 在一张 H100 80 GB 上服务 32 个并发请求，每个 8,192 个 token。再加上引擎的另外两项：激活峰值 0.70 GB 和运行时开销 1 GiB（1.07 GB）。总显存占用是多少 GB？在 72 GB 的预算（80 GB 的 90%）之内吗？",
            "GB",
            "权重 + KV cache + 激活 + 运行时开销。",
            "权重 8.03e9 × 2 = {r:memory_per_gpu_bytes.weights:1e-9:2} GB，KV 32 × 8,192 × 131,072 = {r:memory_per_gpu_bytes.kv_cache:1e-9:1} GB（32 GiB），激活 {r:memory_per_gpu_bytes.activations:1e-9:2} GB，开销 {r:memory_per_gpu_bytes.overhead:1e-9:2} GB（引擎另计 {r:memory_per_gpu_bytes.logits:1e-9:2} GB 的 logits），合计约 {key} GB，在 72 GB 预算内还有约 20 GB。",
        ),
        en: num(
            "Llama-3.1-8B (8.03 billion parameters, 131,072 bytes of KV cache per token) serves 32 concurrent requests of 8,192 tokens each with BF16 weights and KV cache on one H100 80 GB. Add the engine's two other terms, an activation peak of 0.70 GB and 1 GiB (1.07 GB) of runtime overhead. What is the total, in GB? Is it inside the 72 GB budget (90% of 80 GB)?",
            "GB",
            "Weights + KV cache + activations + runtime overhead.",
            "Weights 8.03e9 × 2 = {r:memory_per_gpu_bytes.weights:1e-9:2} GB, KV 32 × 8,192 × 131,072 = {r:memory_per_gpu_bytes.kv_cache:1e-9:1} GB (32 GiB), activations {r:memory_per_gpu_bytes.activations:1e-9:2} GB, overhead {r:memory_per_gpu_bytes.overhead:1e-9:2} GB (the engine also counts {r:memory_per_gpu_bytes.logits:1e-9:2} GB of logits): about {key} GB in all, inside the 72 GB budget with roughly 20 GB to spare.",
        ),
    },
    Exercise {
        id: "cap-8b-32k-requests",
        answer: report(
            r#"{"model": "llama-3.1-8b", "context_tokens": 32768, "gpu": "h100-sxm"}"#,
            "solvers.max_batch",
            1.0,
            0,
            0.0,
        ),
        zh: num(
            "同样的模型和 GPU（80.3 亿参数的 BF16 权重，KV cache 每 token 131,072 字节，激活峰值 0.70 GB，运行时开销 1 GiB 即 1.07 GB），但每个请求用 32,768 个 token。在 72 GB 预算内最多能同时服务几个？显存容量按厂商标称的 GB 计：1 GB = 10⁹ 字节。",
            "个请求",
            "每请求 KV = 131,072 × 32,768 字节 ≈ 4.29 GB。",
            "72 − {r:memory_per_gpu_bytes.weights:1e-9:2} − 0.70 − 1.07 ≈ 54.2 GB 留给 KV，每请求 4.29 GB（4 GiB），54.2 / 4.29 ≈ 12.6，向下取整能放 {key} 个。8K 时能放 {x:cap-8b-8k-requests} 个：上下文翻四倍，容量约降到四分之一。",
        ),
        en: num(
            "Same model and GPU (8.03 billion parameters in BF16, 131,072 bytes of KV cache per token, a 0.70 GB activation peak and 1 GiB, or 1.07 GB, of runtime overhead), but each request now uses 32,768 tokens. Within the 72 GB budget, how many such requests fit at once? GPU memory counts the vendor's GB: 1 GB = 10⁹ bytes.",
            "requests",
            "KV per request = 131,072 × 32,768 bytes ≈ 4.29 GB.",
            "72 − {r:memory_per_gpu_bytes.weights:1e-9:2} − 0.70 − 1.07 ≈ 54.2 GB is left for KV at 4.29 GB (4 GiB) per request: 54.2 / 4.29 ≈ 12.6, so {key} fit. At 8K {x:cap-8b-8k-requests} would: quadrupling the context cuts capacity about fourfold.",
        ),
    },
    Exercise {
        id: "cap-8b-8k-requests",
        answer: report(
            r#"{"model": "llama-3.1-8b", "context_tokens": 8192, "gpu": "h100-sxm"}"#,
            "solvers.max_batch",
            1.0,
            0,
            0.0,
        ),
        zh: num(
            "还是 Llama-3.1-8B 在一张 H100 80 GB 上，每个请求 8,192 个 token。按引擎的默认假设（80.3 亿参数的 BF16 权重，KV cache 每 token 131,072 字节，激活峰值 0.70 GB，运行时开销 1 GiB 即 1.07 GB，预算为 80 GB 的 90% 即 72 GB），最多能同时服务几个请求？显存容量按厂商标称的 GB 计：1 GB = 10⁹ 字节。",
            "个请求",
            "每请求 KV 约 1.07 GB；可用 72 GB。",
            "扣掉权重 {r:memory_per_gpu_bytes.weights:1e-9:2} GB、开销和激活后剩 72 − 16.06 − 0.70 − 1.07 ≈ 54.17 GB，按每请求 8,192 × 131,072 字节 ≈ 1.074 GB 算，54.17 / 1.074 ≈ 50.4，能放 {key} 个请求。",
        ),
        en: num(
            "Again Llama-3.1-8B on one H100 80 GB, 8,192 tokens per request. With the engine's defaults (8.03 billion parameters in BF16, 131,072 bytes of KV cache per token, a 0.70 GB activation peak, 1 GiB, or 1.07 GB, of runtime overhead, and a budget of 90% of 80 GB, 72 GB), how many concurrent requests fit? GPU memory counts the vendor's GB: 1 GB = 10⁹ bytes.",
            "requests",
            "About 1.07 GB of KV per request; 72 GB usable.",
            "After {r:memory_per_gpu_bytes.weights:1e-9:2} GB of weights, overhead and activations, 72 − 16.06 − 0.70 − 1.07 ≈ 54.17 GB is left; at 8,192 × 131,072 bytes ≈ 1.074 GB per request, 54.17 / 1.074 ≈ 50.4, so {key} requests fit.",
        ),
    },
    Exercise {
        id: "cap-70b-int4-8k-requests",
        answer: report(
            r#"{"model": "llama-3.1-70b", "weight_dtype": "int4", "context_tokens": 8192, "gpu": "h100-sxm"}"#,
            "solvers.max_batch",
            1.0,
            0,
            0.0,
        ),
        zh: num(
            "Llama-3.1-70B 量化到 4 bit，在一张 H100 80 GB 上服务：684.5 亿个线性层权重每个 4.156 bit（4 bit 数值，加上每 128 个一组的 16 bit 缩放因子和 4 bit 零点），21.0 亿个嵌入层和输出层权重留在 BF16。KV cache 用 BF16，每 token 327,680 字节（320 KiB）；引擎再计 1.38 GB 的激活峰值和 1 GiB（1.07 GB）的运行时开销。在 72 GB 预算内能同时服务几个 8,192 token 的请求？显存容量按厂商标称的 GB 计：1 GB = 10⁹ 字节。",
            "个请求",
            "每请求 KV = 8,192 × 327,680 字节 ≈ 2.68 GB。",
            "权重 684.5 亿 × 4.156 / 8 + 21.0 亿 × 2 ≈ {r:memory_per_gpu_bytes.weights:1e-9:1} GB；72 − {r:memory_per_gpu_bytes.weights:1e-9:1} − 1.38 − 1.07 ≈ 29.8 GB 留给 KV，每请求约 2.68 GB，29.8 / 2.68 ≈ 11.1，能放 {key} 个。",
        ),
        en: num(
            "Llama-3.1-70B is quantized to 4-bit and served on one H100 80 GB: its 68.45 billion linear-layer weights take 4.156 bits each (4-bit values plus a 16-bit scale and a 4-bit zero point per group of 128), and its 2.10 billion embedding and output weights stay in BF16. The KV cache is BF16 at 327,680 bytes (320 KiB) per token; the engine adds an activation peak of 1.38 GB and 1 GiB (1.07 GB) of runtime overhead. Within the 72 GB budget, how many requests of 8,192 tokens fit? GPU memory counts the vendor's GB: 1 GB = 10⁹ bytes.",
            "requests",
            "KV per request = 8,192 × 327,680 bytes ≈ 2.68 GB.",
            "Weights 68.45e9 × 4.156 / 8 + 2.10e9 × 2 ≈ {r:memory_per_gpu_bytes.weights:1e-9:1} GB; 72 − {r:memory_per_gpu_bytes.weights:1e-9:1} − 1.38 − 1.07 ≈ 29.8 GB is left for KV at about 2.68 GB per request: 29.8 / 2.68 ≈ 11.1, so {key} requests.",
        ),
    },
    Exercise {
        id: "cap-session-hit-rate",
        answer: report(L31_8B_SESSION, "time.prefix_hit_rate", 100.0, 1, 0.01),
        zh: num(
            "一个对话服务的每个会话都以 1,000 个 token 的共享系统提示开头，之后共 8 轮：每轮用户追加 200 个 token，模型生成 300 个 token，下一轮把之前的全部内容连同新问题一起发送。服务开启了前缀缓存：系统提示在之前的会话里就已缓存（第一轮也能命中），每一轮之前发过的提示和模型生成的回答都已缓存。整个会话平均下来，提示 token 的命中率是百分之多少？",
            "%",
            "第 k 轮发送 1,000 + (k − 1) × (200 + 300) + 200 个 token，其中只有新追加的 200 个需要计算。把 8 轮的命中 token 和发送 token 分别加起来再相除，或用 h = (s + (a + o)(T − 1)/2) / (s + (a + o)(T − 1)/2 + a)。",
            "平均每轮命中 1,000 + 500 × 7 / 2 = 2,750 个 token，平均提示 2,750 + 200 = 2,950 个 token，h = 2,750 / 2,950 ≈ {key}%。单个请求时，这让平均 TTFT 降到 {r:time.time_to_first_token_s:1e3:1} ms：prefill 只算每轮新追加的 200 个 token。会话越长，命中率越接近 100%。",
        ),
        en: num(
            "Every session of a chat service starts with a shared 1,000-token system prompt, then runs 8 turns: each turn the user appends 200 tokens and the model generates 300, and the next turn resends everything so far with the new question. Prefix caching is on: the system prompt is already cached from earlier sessions (so it hits even in the first turn), and each turn's earlier prompts and the model's earlier answers are cached. Over the whole session, what percentage of prompt tokens hit the cache?",
            "%",
            "Turn k sends 1,000 + (k − 1) × (200 + 300) + 200 tokens, of which only the new 200 need computing. Add up the cached and the sent tokens over the 8 turns and divide, or use h = (s + (a + o)(T − 1)/2) / (s + (a + o)(T − 1)/2 + a).",
            "On average a turn finds 1,000 + 500 × 7 / 2 = 2,750 tokens cached in a mean prompt of 2,750 + 200 = 2,950 tokens: h = 2,750 / 2,950 ≈ {key}%. For a lone request that brings the mean TTFT down to {r:time.time_to_first_token_s:1e3:1} ms: prefill computes only each turn's new 200 tokens. The longer the session, the closer the hit rate comes to 100%.",
        ),
    },
    Exercise {
        id: "cap-shared-prefix-kv",
        answer: report(L31_8B_SHARED_32, "memory_per_gpu_bytes.kv_cache", 1e-9, 2, 0.02),
        zh: num(
            "Llama-3.1-8B 在 H100 上服务 32 个请求，每个请求的上下文为 4,352 个 token，其中开头 2,048 个 token 是所有请求共享的系统提示（正好是整数个 KV 块）。KV cache 为 BF16，每 token 128 KiB。开启前缀缓存后，共享前缀每个副本只存一份。这 32 个请求的 KV cache 共占多少 GB？",
            "GB",
            "存储的 token 数 = 32 × (4,352 − 2,048) + 2,048，再乘以 128 KiB。",
            "32 × (4,352 − 2,048) + 2,048 = 75,776 个 token，× 131,072 字节 ≈ {key} GB；不共享时是 32 × 4,352 个 token，接近它的两倍。省下的显存可以容纳更多并发请求。",
        ),
        en: num(
            "Llama-3.1-8B serves 32 requests on an H100, each with a 4,352-token context whose first 2,048 tokens are a system prompt every request shares (a whole number of KV blocks). The KV cache is BF16 at 128 KiB per token. With prefix caching the shared prefix is stored once per replica. How many GB of KV cache do the 32 requests take?",
            "GB",
            "Tokens stored = 32 × (4,352 − 2,048) + 2,048; multiply by 128 KiB.",
            "32 × (4,352 − 2,048) + 2,048 = 75,776 tokens × 131,072 bytes ≈ {key} GB; without sharing, 32 × 4,352 tokens would take nearly twice as much. The memory saved holds more concurrent requests.",
        ),
    },
    Exercise {
        id: "cap-prefix-90-prefill",
        answer: report(L31_8B_PREFIX_H90, "phases.prefill.time_s_bound", 1e3, 2, 0.03),
        zh: num(
            "Llama-3.1-8B（80.3 亿参数，BF16；输入 embedding 的 5.25 亿参数只查不乘，同样大小的输出层只为最后一个 token 计算）在 H100 SXM（稠密 BF16 989.5 TFLOPS）上收到一个 4,096 个 token 的提示，其中前 3,686 个 token 已在前缀缓存里。prefill 只算剩下的 token：每个 token 对其余每个参与矩阵乘的参数花 2 FLOPs，最后一个 token 另对输出层每个参数花 2 FLOPs，它们对整个提示的因果 attention 共花 2 × 层数 × 隐藏维度 × (4,096² − 3,686²) FLOPs（32 层，隐藏维度 4,096）。prefill 的时间下限是多少毫秒？",
            "ms",
            "FLOPs = 2 × (参数 − 2 × embedding) × (4,096 − 3,686) + 2 × embedding + 2 × 32 × 4,096 × (4,096² − 3,686²)，再除以 989.5 TFLOPS。",
            "2 × (80.3 亿 − 2 × 5.25 亿) × 410 + 2 × 5.25 亿 + 2 × 32 × 4,096 × (4,096² − 3,686²) ≈ {r:phases.prefill.flops:1e-12:2} TFLOP，÷ 989.5 TFLOPS ≈ {key} ms。只算了 10% 的 token，attention 却仍要读整个提示，所以时间比完整 prefill 的十分之一略多。按实测效率约需 {r:time.prefill_s:1e3:1} ms，TTFT 约 {r:time.time_to_first_token_s:1e3:1} ms。",
        ),
        en: num(
            "Llama-3.1-8B (8.03 billion parameters in BF16; the input embedding's 525 million looked up, not multiplied, and the output layer of the same size computed for the last token only) gets a 4,096-token prompt on an H100 SXM (989.5 dense BF16 TFLOPS), of which the first 3,686 tokens are in the prefix cache. Prefill computes only the rest: 2 FLOPs per other multiplied parameter per token, 2 FLOPs per output-layer parameter more for the last token, and their causal attention over the whole prompt costs 2 × layers × hidden size × (4,096² − 3,686²) FLOPs (32 layers, hidden size 4,096). What is the lower bound on the prefill time, in milliseconds?",
            "ms",
            "FLOPs = 2 × (parameters − 2 × embedding) × (4,096 − 3,686) + 2 × embedding + 2 × 32 × 4,096 × (4,096² − 3,686²); divide by 989.5 TFLOPS.",
            "2 × (8.03e9 − 2 × 5.25e8) × 410 + 2 × 5.25e8 + 2 × 32 × 4,096 × (4,096² − 3,686²) ≈ {r:phases.prefill.flops:1e-12:2} TFLOP; ÷ 989.5 TFLOPS ≈ {key} ms. Only a tenth of the tokens are computed, but their attention still reads the whole prompt, so the time is a little more than a tenth of the full prefill's. At measured efficiency it takes about {r:time.prefill_s:1e3:1} ms, and the TTFT is about {r:time.time_to_first_token_s:1e3:1} ms.",
        ),
    },
    Exercise {
        id: "cap-tiers-gpu-share",
        answer: report(L31_8B_TIERS, "time.kv_tiers.gpu_share", 100.0, 1, 0.02),
        zh: num(
            "Llama-3.1-8B 在一张 H100 上服务智能体会话，用前缀缓存保留各个会话的历史。每个会话在共享系统提示之外保留 12,750 个 token（它上一轮的提示和回答），每 token 的 KV cache 是 131,072 字节；同时有 300 个会话开着，下一轮请求落到哪个会话的机会都一样。GPU 的 KV 池在运行中的序列之外还空着 52.2 GB 可以缓存前缀，按 LRU 淘汰。一个会话的下一轮到来时，它的历史还在 GPU 上的比例是百分之多少？容量按 GB 计：1 GB = 10⁹ 字节。",
            "%",
            "工作集 W = 会话数 × 每个会话的字节数；在均匀复用下，容量为 C 的 LRU 缓存命中 min(1, C/W)。",
            "W = 300 × 12,750 × 131,072 字节 ≈ {r:time.kv_tiers.working_set_bytes:1e-9:0} GB（引擎把每个会话向上取整到 16 个 token 的整块）；min(1, 52.2 / 501) ≈ {key}%。其余的历史已被挤出 GPU：没有下一级缓存，它们就得重算。有 200 GB 的 CPU 层级时，CPU 内存再接住 {r:time.kv_tiers.cpu.share:100:1}%（它保存 min(1, 200 / 501) 的历史，其中包括 GPU 上那部分）；3.84 TB 的 SSD 层级接住剩下的 {r:time.kv_tiers.ssd.share:100:1}%。",
        ),
        en: num(
            "Llama-3.1-8B serves agent sessions on one H100 and keeps their histories in its prefix cache. Each session keeps 12,750 tokens beyond the shared system prompt (its last prompt and answer) at 131,072 bytes of KV cache per token; 300 sessions are open, and the next request is as likely to come from any of them. The GPU's KV pool has 52.2 GB free for cached prefixes beyond the running sequences, evicted LRU. When a session's next turn arrives, what percentage of the histories is still on the GPU? Capacities count GB: 1 GB = 10⁹ bytes.",
            "%",
            "The working set W = sessions × bytes per session; under uniform reuse an LRU cache of C bytes serves min(1, C/W).",
            "W = 300 × 12,750 × 131,072 bytes ≈ {r:time.kv_tiers.working_set_bytes:1e-9:0} GB (the engine rounds each session up to whole 16-token blocks); min(1, 52.2 / 501) ≈ {key}%. The rest has been evicted from the GPU and, with no tier below it, is recomputed. With a 200 GB CPU tier, CPU memory catches {r:time.kv_tiers.cpu.share:100:1}% more (it holds min(1, 200 / 501) of the histories, the GPU's share included); a 3.84 TB SSD tier catches the remaining {r:time.kv_tiers.ssd.share:100:1}%.",
        ),
    },
    Exercise {
        id: "cap-tiers-cpu-restore",
        answer: report(L31_8B_CPU_100K, "time.kv_tiers.restore_s", 1e3, 1, 0.01),
        zh: num(
            "vLLM 在 H100 上测它的 KV 卸载连接器：Llama-3.1-8B（BF16 下每 token 的 KV cache 是 131,072 字节），一个 100,000 个 token 的提示，除了总要计算的最后一个 token，其余 99,999 个 token 的 cache 都在 CPU 内存里。连接器按每块 16 个 token 一次拷一块（这里把没填满的最后一块也算作整块拷贝，和引擎一样；vLLM 只缓存填满的块，会少拷一块，差 0.04 ms）；每次拷贝固定花 3.6 µs，再加上它的字节按 PCIe 5.0 链路 64 GB/s 的 80% 传输的时间。恢复这些 cache 要多少毫秒？",
            "ms",
            "拷贝次数 = ⌈99,999 / 16⌉；每次 3.6 µs + 16 × 131,072 字节 ÷ (64 GB/s × 80%)。",
            "⌈99,999 / 16⌉ = 6,250 次拷贝，每次 16 × 131,072 字节 = 2 MiB；每次 3.6 µs + 2,097,152 字节 ÷ 51.2 GB/s = 44.56 µs；× 6,250 = {key} ms。改为重算这些 token 要 {r:time.kv_tiers.recompute_s:1:2} s，长 20 倍。vLLM 实测从 CPU 加载时 TTFT 约 0.30 s，重算约 6.85 s（从博客的图上读出）；引擎的 TTFT 还加上一个 token 的 prefill 和每个请求的固定开销：{r:time.time_to_first_token_s:1e3:1} ms。",
        ),
        en: num(
            "vLLM measured its KV offloading connector on an H100: Llama-3.1-8B (131,072 bytes of KV cache per token in BF16), a 100,000-token prompt whose cache is in CPU memory except for the last token, which is always computed: 99,999 tokens. The connector copies one block of 16 tokens at a time (count a partly filled last block as a whole copy, as the engine does; vLLM caches only full blocks and would copy one fewer, 0.04 ms less); each copy costs a fixed 3.6 µs plus its bytes at 80% of the 64 GB/s PCIe 5.0 link. How many milliseconds does the restore take?",
            "ms",
            "Copies = ⌈99,999 / 16⌉; each 3.6 µs + 16 × 131,072 bytes ÷ (64 GB/s × 80%).",
            "⌈99,999 / 16⌉ = 6,250 copies of 16 × 131,072 bytes = 2 MiB; each takes 3.6 µs + 2,097,152 bytes ÷ 51.2 GB/s = 44.56 µs; × 6,250 = {key} ms. Recomputing those tokens would take {r:time.kv_tiers.recompute_s:1:2} s, 20 times as long. vLLM measured a TTFT of about 0.30 s loading from CPU memory against about 6.85 s recomputing (read off the blog's figure); the engine's TTFT adds one token's prefill and the per-request cost: {r:time.time_to_first_token_s:1e3:1} ms.",
        ),
    },
    Exercise {
        id: "cap-tiers-ssd-restore",
        answer: report(L31_8B_TIERS, "time.kv_tiers.ssd.restore_s", 1e3, 1, 0.01),
        zh: num(
            "接第一题的智能体会话：一个会话在共享系统提示之外的历史有 11,250 个 token，Llama-3.1-8B 每 token 131,072 字节。从 SSD 层级恢复时，按一块 7 GB/s 的盘的 80% 读取（在这个速度下每块的固定开销可以忽略）。恢复要多少毫秒？",
            "ms",
            "字节数 ÷ (7 GB/s × 80%)。",
            "11,250 × 131,072 字节 = 1.47 GB，÷ 5.6 GB/s ≈ {key} ms（引擎存的是整块：11,264 个 token）。在 H100 上重算这些 token 要 {r:time.kv_tiers.recompute_s:1e3:1} ms，所以 SSD 只快大约六分之一；从 CPU 内存恢复只要 {r:time.kv_tiers.cpu.restore_s:1e3:1} ms。历史越短，重算越快，SSD 的优势就没了：本章的例子里 2,000 个 token 时重算更快。",
        ),
        en: num(
            "Continuing with the agent sessions of the first tier exercise: a session's history beyond the shared system prompt is 11,250 tokens of Llama-3.1-8B at 131,072 bytes per token. An SSD tier reads it at 80% of a 7 GB/s drive (a per-block cost is negligible at this rate). How many milliseconds does restoring it take?",
            "ms",
            "Bytes ÷ (7 GB/s × 80%).",
            "11,250 × 131,072 bytes = 1.47 GB ÷ 5.6 GB/s ≈ {key} ms (the engine stores whole blocks: 11,264 tokens). Recomputing those tokens on the H100 takes {r:time.kv_tiers.recompute_s:1e3:1} ms, so the SSD is faster by only about a sixth; CPU memory restores them in {r:time.kv_tiers.cpu.restore_s:1e3:1} ms. The shorter the history, the faster the recompute, and the SSD's lead is gone: in this chapter's example recomputing wins at 2,000 tokens.",
        ),
    },
];

const H100_NODE: &str = r#"{"model": "llama-3.1-8b", "gpu": "h100-sxm"}"#;
/// The same node on AWS EFA, as the p5.48xlarge the question names.
const H100_NODE_EFA: &str = r#"{"model": "llama-3.1-8b", "gpu": "h100-sxm", "topology": "nvswitch_efa"}"#;

/// Disaggregated serving, as chapter 14 works it (`gpu-clusters-disagg-1p1d`): Llama-3.1-70B, one
/// prefill worker of 8 H100s (TP 8) beside a decode pool of 8 (TP 8), 4,096-token prompts, the KV
/// cache over InfiniBand NDR.
const L70B_1P1D: &str = r#"{"model": "llama-3.1-70b", "gpu": "h100-sxm", "gpus": 8, "tensor_parallel": 8, "batch": 256, "prompt_tokens": 4096, "output_tokens": 512, "context_tokens": 4608, "arrival_rate_per_s": 3, "prefill_workers": 1}"#;

/// Wide expert parallelism, as chapter 14 works it (`gpu-clusters-wep-16`): DeepSeek-V3 in FP8
/// under SGLang on 16 H200s, every GPU an attention replica of 64 sequences of 4,096 tokens and 16
/// of the routed experts, DeepEP's low-latency kernels.
const DSV3_WEP16: &str = r#"{"model": "deepseek-v3", "weight_dtype": "fp8", "serving_stack": "sglang", "context_tokens": 4096, "tensor_parallel": 1, "gpu": "h200-sxm", "gpus": 16, "expert_parallel": 16, "batch": 64, "ep_comm": "deepep_low_latency"}"#;

/// The same at EP 32 with DeepSeek's 32 redundant experts (`gpu-clusters-wep-32-eplb`).
const DSV3_WEP32_EPLB: &str = r#"{"model": "deepseek-v3", "weight_dtype": "fp8", "serving_stack": "sglang", "context_tokens": 4096, "tensor_parallel": 1, "gpu": "h200-sxm", "gpus": 32, "expert_parallel": 32, "batch": 64, "ep_comm": "deepep_low_latency", "redundant_experts": 32}"#;

pub static GPU_CLUSTERS: &[Exercise] = &[
    Exercise {
        id: "cluster-intra-node-bw",
        answer: report(H100_NODE, "hardware.intra_node_bytes_per_s_per_direction", 1e-9, 0, 0.02),
        zh: num(
            "AWS p5.48xlarge 有 8 张 H100 SXM，NVLink 4 每卡双向 900 GB/s。节点内每张 GPU 单向带宽是多少 GB/s？",
            "GB/s",
            "双向数字要除以 2。",
            "900 / 2 = {key} GB/s 每方向。",
        ),
        en: num(
            "An AWS p5.48xlarge has 8 H100 SXM GPUs with NVLink 4 at 900 GB/s bidirectional per GPU. What is the per-GPU bandwidth in one direction inside the node, in GB/s?",
            "GB/s",
            "Halve the bidirectional figure.",
            "900 / 2 = {key} GB/s per direction.",
        ),
    },
    Exercise {
        id: "cluster-inter-node-bw",
        answer: report(H100_NODE_EFA, "hardware.inter_node_bytes_per_s_per_direction", 1e-9, 0, 0.02),
        zh: num(
            "同一台机器每节点有 3,200 Gbps 的 EFA 网络，由节点里的 8 张 GPU 分用。离开节点后，每张 GPU 单向带宽是多少 GB/s？",
            "GB/s",
            "Gbps 除以 8 得 GB/s，再分给 8 张卡。",
            "3,200 Gbps / 8 = 400 GB/s 每节点，/ 8 张卡 = {key} GB/s 每卡。离开节点后每卡的链路速率约降到九分之一（延迟也更高），这是张量并行留在节点内的原因之一。",
        ),
        en: num(
            "The same machine has 3,200 Gbps of EFA networking per node, shared by its 8 GPUs. Outside the node, what is the per-GPU bandwidth in one direction, in GB/s?",
            "GB/s",
            "Gbps ÷ 8 gives GB/s; share it among 8 GPUs.",
            "3,200 Gbps / 8 = 400 GB/s per node, / 8 GPUs = {key} GB/s per GPU. Leaving the node cuts each GPU's link rate about nine times (and adds latency), one reason tensor parallelism stays inside a node.",
        ),
    },
    Exercise {
        id: "cluster-checkpoint-write",
        answer: choice(&["49", "98", "490", "980"], "98"),
        zh: pick(
            "70B 模型的训练 checkpoint 每参数约 14 字节。以聚合 10 GB/s 同步写入要多少秒？",
            &["49 s", "98 s", "490 s", "980 s"],
            "先算大小：70e9 × 14 字节。",
            "70e9 × 14 = 980 GB，10 GB/s 下 98 s；2 GB/s 下 490 s，约 8 分钟所有 GPU 都在等，除非异步写。",
        ),
        en: pick(
            "A training checkpoint of a 70B model holds about 14 bytes per parameter. How long does a synchronous write take at an aggregate 10 GB/s?",
            &["49 s", "98 s", "490 s", "980 s"],
            "Size first: 70e9 × 14 bytes.",
            "70e9 × 14 = 980 GB: 98 s at 10 GB/s, and 490 s at 2 GB/s, about 8 minutes in which every GPU waits unless the write is asynchronous.",
        ),
    },
    Exercise {
        id: "cluster-young-interval",
        answer: choice(&["12", "27", "54", "120"], "54"),
        zh: pick(
            "一个任务写一次 checkpoint 要 120 s，大约每 12 小时遇到一次故障。按 Young 近似，大约多久存一次？",
            &["约 12 分钟", "约 27 分钟", "约 54 分钟", "约 2 小时"],
            "间隔 ≈ sqrt(2 × 写入时间 × 平均故障间隔)，单位统一成秒。",
            "12 h = 43,200 s，间隔 ≈ sqrt(2 × 120 × 43,200) ≈ 3,220 s，约 54 分钟。故障平均落在间隔中点，每次约丢 27 分钟的工作，再加重启和加载时间。",
        ),
        en: pick(
            "A job's checkpoint takes 120 s to write and the job sees a failure about every 12 hours. By Young's approximation, how often should it checkpoint?",
            &["About every 12 minutes", "About every 27 minutes", "About every 54 minutes", "About every 2 hours"],
            "Interval ≈ sqrt(2 × write time × mean time between failures), in seconds.",
            "12 h = 43,200 s, interval ≈ sqrt(2 × 120 × 43,200) ≈ 3,220 s, about 54 minutes. A failure lands halfway through on average, so about 27 minutes of work is lost, plus restart and reload.",
        ),
    },
    Exercise {
        id: "cluster-disagg-kv-bytes",
        answer: report(L70B_1P1D, "load.disaggregated.transfer_bytes", 1e-6, 1, 0.02),
        zh: num(
            "一个 8 卡、张量并行 8 的 prefill 节点处理 Llama-3.1-70B 的一个 4,096 个 token 的提示（80 层，8 个 KV 头，每头维度 128，KV cache 为 BF16），再把提示的 KV cache 发给同样是张量并行 8 的 decode 节点。每张 GPU 持有一个 KV 头，经自己的链路发送自己那一份。一张 GPU 要发送多少 MB？",
            "MB",
            "每个 token 的 key 和 value：整个模型是 2 × 层数 × KV 头数 × 头维度 × 2 字节；乘以 token 数，再分给 8 张 GPU（1 MB = 10⁶ 字节）。",
            "2 × 80 × 8 × 128 × 2 B = 每 token {r:kv_cache_bytes_per_token:1:0} B（整个模型）；× 4,096 个 token ÷ 8 张 GPU = {r:load.disaggregated.transfer_bytes:1:0} B，即每张 GPU {key} MB，8 张 GPU 同时发送。整个提示的 cache 是它的 8 倍，{r:load.disaggregated.transfer_bytes:8e-9:2} GB。如果 prefill 节点只有 4 张 GPU，每张持有两个 KV 头，每张就要发送两倍的数据。",
        ),
        en: num(
            "A prefill worker of 8 GPUs at tensor parallelism 8 runs a 4,096-token prompt of Llama-3.1-70B (80 layers, 8 KV heads of dimension 128, a BF16 KV cache) and sends the prompt's KV cache to a decode worker, also at tensor parallelism 8. Each GPU holds one KV head and sends its share over its own link. How many MB does one GPU send?",
            "MB",
            "Keys and values per token: 2 × layers × KV heads × head dimension × 2 bytes for the whole model; times the tokens, shared among the 8 GPUs (1 MB = 10⁶ bytes).",
            "2 × 80 × 8 × 128 × 2 B = {r:kv_cache_bytes_per_token:1:0} B per token for the whole model; × 4,096 tokens ÷ 8 GPUs = {r:load.disaggregated.transfer_bytes:1:0} B, {key} MB per GPU, all 8 GPUs sending at once. The whole prompt's cache is 8 times that, {r:load.disaggregated.transfer_bytes:8e-9:2} GB. A prefill worker of 4 GPUs holds two KV heads on each, and each sends twice as much.",
        ),
    },
    Exercise {
        id: "cluster-disagg-transfer",
        answer: report(L70B_1P1D, "load.disaggregated.transfer_s", 1e3, 2, 0.02),
        zh: num(
            "接上题：每张 GPU 经自己的 InfiniBand NDR 端口发送它的 167,772,160 字节，端口每个方向 50 GB/s，传输能达到其中的 75%，80 层每层再加 5 µs 的延迟。传输要多少毫秒？",
            "ms",
            "字节数 ÷（50 GB/s × 0.75），再加 80 × 5 µs。",
            "167,772,160 B ÷（50e9 × 0.75 B/s）= 4.47 ms，加上 80 × 5 µs = 0.4 ms，共 {key} ms。这个部署在每秒 3 个请求时的 TTFT 中位数是 {r:load.ttft_p50_s:1e3:1} ms，传输只占其中很小一部分。引擎在提示的最后一层算完之后才开始传输；与后面几层的计算重叠进行的传输给 TTFT 增加得更少，所以这个数是传输给 TTFT 增加量的上限。",
        ),
        en: num(
            "Continuing: each GPU sends its 167,772,160 bytes over its own InfiniBand NDR port, 50 GB/s in each direction, of which the transfer reaches 75%, and each of the 80 layers adds a latency of 5 µs. How many milliseconds does the transfer take?",
            "ms",
            "Bytes ÷ (50 GB/s × 0.75), plus 80 × 5 µs.",
            "167,772,160 B ÷ (50e9 × 0.75 B/s) = 4.47 ms, plus 80 × 5 µs = 0.4 ms: {key} ms. At 3 requests per second the median TTFT of this deployment is {r:load.ttft_p50_s:1e3:1} ms, so the transfer is a small part of it. The engine starts the transfer after the prompt's last layer; a transfer that overlaps the later layers' compute adds less to the TTFT, so this figure is an upper bound on what the transfer adds.",
        ),
    },
    Exercise {
        id: "cluster-disagg-limit",
        answer: choice(&["prefill", "decode", "sum", "transfer"], "prefill"),
        zh: pick(
            "一个分离式部署有一个 prefill 节点，满队列时每秒最多完成 5.3 个提示；decode 节点每秒最多完成 11.5 个请求；每个提示的 KV cache 传输经各自的链路需要 5 ms。这个部署每秒最多能承受多少个请求，受什么限制？",
            &[
                "每秒约 5.3 个请求，由 prefill 节点决定",
                "每秒约 11.5 个请求，由 decode 节点决定",
                "每秒约 16.8 个请求，两个池的速率相加",
                "每秒约 200 个请求，由传输决定",
            ],
            "每个请求都要先后经过两个池。",
            "每个请求先经过 prefill 节点，再经过 decode 节点：整个部署能承受的是两者中较小的速率，每秒约 5.3 个请求，decode 节点本可以处理两倍。传输不是限制：每个提示 5 ms，这些链路每秒能传 200 个提示。要更快，就增加 prefill 节点，直到 decode 节点成为限制（估算器会说明是哪个池）。这些数是本章 1P1D 例子四舍五入后的值。",
        ),
        en: pick(
            "A disaggregated deployment has one prefill worker that completes at most 5.3 prompts per second with a full queue, and a decode pool that completes at most 11.5 requests per second; the KV transfer takes 5 ms per prompt over the GPUs' own links. What is the highest request rate it sustains, and what limits it?",
            &[
                "About 5.3 requests per second, set by the prefill worker",
                "About 11.5 requests per second, set by the decode pool",
                "About 16.8 requests per second, the two pools' rates added",
                "About 200 requests per second, set by the transfer",
            ],
            "Every request passes through both pools, one after the other.",
            "Every request needs the prefill worker, then the decode pool: the deployment sustains the smaller of their rates, about 5.3 requests per second, and the decode pool could take twice that. The transfer is no limit: at 5 ms per prompt the links could carry 200 prompts per second. To go faster, add prefill workers until the decode pool limits (the estimator says which pool does). These are this chapter's 1P1D example, rounded.",
        ),
    },
    Exercise {
        id: "cluster-wide-ep-experts",
        answer: report(DSV3_WEP32_EPLB, "layout.experts_per_gpu", 1.0, 0, 0.0),
        zh: num(
            "DeepSeek-V3 每个 MoE 层有 256 个路由专家。DeepSeek 的 prefill 用 32 张 GPU 做专家并行，另加 32 个冗余专家（EPLB 复制的热门专家）。每张 GPU 每层持有多少个路由专家？",
            "个",
            "（路由专家数 + 冗余专家数）÷ GPU 数，除不尽时向上取整。",
            "(256 + 32) ÷ 32 = {key} 个，正是 DeepSeek 公布的 prefill 布局（每张 GPU 9 个路由专家，外加共享专家）；没有冗余专家时是 8 个。多出的那个专家在 58 个 MoE 层里都要占显存：FP8 下这个部署每张 GPU 的权重是 {r:memory_per_gpu_bytes.weights:1e-9:1} GB。换来的是更低的负载不均衡：在每张 GPU 64 条序列的 decode 中，引擎在这里取 {r:phases.decode.moe.layer.imbalance:1:2}，没有冗余专家时是 1.2。",
        ),
        en: num(
            "DeepSeek-V3 has 256 routed experts in each MoE layer. DeepSeek's prefill spreads them over 32 GPUs with expert parallelism and adds 32 redundant experts (copies of busy experts, placed by EPLB). How many routed experts does each GPU hold per layer?",
            "experts",
            "(Routed experts + redundant experts) ÷ GPUs, rounded up if it does not divide.",
            "(256 + 32) ÷ 32 = {key}, DeepSeek's published prefill layout (9 routed experts per GPU, plus the shared expert); without redundant experts it is 8. The extra expert takes memory in all 58 MoE layers: in FP8 this deployment holds {r:memory_per_gpu_bytes.weights:1e-9:1} GB of weights per GPU. In return the load is more even: in decode at 64 sequences per GPU the engine takes an imbalance of {r:phases.decode.moe.layer.imbalance:1:2} here, against 1.2 without redundant experts.",
        ),
    },
    Exercise {
        id: "cluster-wide-ep-kv",
        answer: report(DSV3_WEP16, "memory_per_gpu_bytes.kv_cache", 1e-9, 2, 0.02),
        zh: num(
            "DeepSeek-V3 部署在 16 张 GPU 上，用数据并行注意力：每张 GPU 是一个注意力副本，有它自己的 64 条序列，每条 4,096 个 token。MLA 每个 token 每层缓存 576 个值（512 维潜在向量加 64 维 RoPE key），BF16，共 61 层。一张 GPU 持有多少 GB 的 KV cache？",
            "GB",
            "每 token 字节数 = 576 × 2 × 61；再乘以这张 GPU 自己的序列数和每条的 token 数。1 GB = 10^9 字节。",
            "576 × 2 B × 61 = {r:kv_cache_bytes_per_token:1:0} B 每 token；× 64 × 4,096 = {r:memory_per_gpu_bytes.kv_cache:1:0} B，即 {key} GB，只是它自己那 64 条序列的。如果同样 16 张 GPU 把注意力做成张量并行度 8 的两个副本，MLA 的潜在向量没有头可分，组里 8 张 GPU 每张都保存整个副本的 cache：每张 GPU 同样是 {key} GB，但 16 张 GPU 只服务 128 条序列，而不是 1,024 条。",
        ),
        en: num(
            "DeepSeek-V3 runs on 16 GPUs with data-parallel attention: each GPU is an attention replica with 64 sequences of its own, 4,096 tokens each. MLA caches 576 values per token and layer (a 512-value latent and a 64-value RoPE key) in BF16, over 61 layers. How many GB of KV cache does one GPU hold?",
            "GB",
            "Bytes per token = 576 × 2 × 61; times this GPU's own sequences and their tokens. 1 GB = 10^9 bytes.",
            "576 × 2 B × 61 = {r:kv_cache_bytes_per_token:1:0} B per token; × 64 × 4,096 = {r:memory_per_gpu_bytes.kv_cache:1:0} B, {key} GB, for its own 64 sequences only. With attention at tensor parallelism 8 in two replicas on the same 16 GPUs, MLA's latent has no heads to divide and each of a group's 8 GPUs keeps the whole replica's cache: {key} GB per GPU again, but the 16 GPUs serve 128 sequences instead of 1,024.",
        ),
    },
    Exercise {
        id: "cluster-wide-ep-exchange",
        answer: report(DSV3_WEP16, "phases.decode.expert_parallel_comm_s", 1e3, 2, 0.02),
        zh: num(
            "接上题，专家并行度 16。每个 decode 步，每张 GPU 的 64 个 token 在每个 MoE 层各发出 8 份，每个选中的专家一份（DeepEP 的低延迟 kernel 不合并发往同一张 GPU 的份）。dispatch 每份发 7,408 字节（FP8 激活加缩放因子），combine 取回 14,336 字节（BF16）。DeepEP 的低延迟 kernel 在 EP 16 时 dispatch 达到 63 GB/s，combine 74 GB/s。58 个 MoE 层，每层都等最忙的 GPU，不均衡系数 1.2。每个 decode 步的 dispatch 加 combine 要多少毫秒？",
            "ms",
            "每层：64 × 8 ×（7,408 B ÷ 63 GB/s + 14,336 B ÷ 74 GB/s）；再乘以 58 层和 1.2。",
            "每层 64 × 8 = 512 份；× (7,408 B ÷ 63e9 B/s + 14,336 B ÷ 74e9 B/s) = 512 × 0.311 µs ≈ 159.4 µs；× 58 × 1.2 ≈ {key} ms。这个步长 {r:phases.decode.time_s:1e3:1} ms 中的 {r:phases.decode.moe.grouped_gemm_s:1e3:1} ms 是分组 GEMM。每层每张 GPU 发出约 3.79 MB、取回约 7.34 MB；combine 的字节是 dispatch 的近两倍，因为结果以 BF16 返回。引擎把交换直接加到步长上；双 batch 重叠能把其中一部分藏到计算后面。",
        ),
        en: num(
            "Continuing, at expert parallelism 16. In each decode step, each of a GPU's 64 tokens is sent 8 times per MoE layer, once per chosen expert (DeepEP's low-latency kernels do not merge copies bound for one GPU). The dispatch sends 7,408 bytes per copy (the FP8 activation and its scales), and the combine returns 14,336 bytes (BF16). DeepEP's low-latency kernels reach 63 GB/s for the dispatch and 74 GB/s for the combine at EP 16. There are 58 MoE layers, and each waits for its busiest GPU, at an imbalance of 1.2. How many milliseconds of dispatch and combine does one decode step take?",
            "ms",
            "Per layer: 64 × 8 × (7,408 B ÷ 63 GB/s + 14,336 B ÷ 74 GB/s); then times 58 layers and 1.2.",
            "Per layer 64 × 8 = 512 copies; × (7,408 B ÷ 63e9 B/s + 14,336 B ÷ 74e9 B/s) = 512 × 0.311 µs ≈ 159.4 µs; × 58 × 1.2 ≈ {key} ms. Of this step's {r:phases.decode.time_s:1e3:1} ms, {r:phases.decode.moe.grouped_gemm_s:1e3:1} ms are the grouped GEMM. Per layer each GPU sends about 3.79 MB and gets about 7.34 MB back; the combine moves nearly twice the dispatch's bytes because the results return in BF16. The engine adds the exchange to the step; a two-batch overlap hides part of it behind compute.",
        ),
    },
];

pub static SHARING_GPUS: &[Exercise] = &[
    Exercise {
        id: "share-quota-runs",
        answer: choice(&["5", "6", "7", "8"], "6"),
        zh: pick(
            "一个团队每月有 4,000 GPU 小时的配额。能跑几次 8 卡、72 小时的训练？",
            &["5 次", "6 次", "7 次", "8 次"],
            "每次 8 × 72 GPU 小时。",
            "每次 576 GPU 小时，4,000 / 576 ≈ 6.9，所以 6 次，用掉 3,456，剩 544 GPU 小时给小任务。",
        ),
        en: pick(
            "A team has a monthly quota of 4,000 GPU-hours. How many 72-hour training runs on 8 GPUs fit?",
            &["5", "6", "7", "8"],
            "Each run costs 8 × 72 GPU-hours.",
            "576 GPU-hours per run; 4,000 / 576 ≈ 6.9, so 6 runs using 3,456 GPU-hours, leaving 544 for smaller work.",
        ),
    },
    Exercise {
        id: "share-mig-monthly-cost",
        answer: choice(&["627", "717", "1255", "5022"], "717"),
        zh: pick(
            "一个 4 bit 量化、上下文很短的 7B 服务全天占用一整张 H100，每 GPU 小时 $6.88（每月 730 小时），每月约 $5,022。如果它放得进按整卡 1/7 计费的 1g.10gb 切片，每月多少钱？",
            &["约 $627", "约 $717", "约 $1,255", "约 $5,022"],
            "整卡月费除以 7。",
            "5,022 / 7 ≈ $717 每月，省下约 $4,300，前提是模型、KV cache 和运行时放得进切片，延迟目标也守得住。",
        ),
        en: pick(
            "A 4-bit 7B service with a short context occupies a whole H100 around the clock at $6.88 per GPU-hour (730 hours per month), about $5,022 per month. If it fits a 1g.10gb MIG slice billed at 1/7 of the GPU rate, what does it cost per month?",
            &["About $627", "About $717", "About $1,255", "About $5,022"],
            "Divide the whole-GPU bill by 7.",
            "5,022 / 7 ≈ $717 per month, saving about $4,300, provided the model, its KV cache and the runtime fit in the slice and latency targets hold.",
        ),
    },
    Exercise {
        id: "share-8x4k-kv",
        answer: report(
            r#"{"model": "llama-3.1-8b", "weight_dtype": "int4", "context_tokens": 4096, "batch": 8}"#,
            "memory_per_gpu_bytes.kv_cache",
            1e-9,
            2,
            0.02,
        ),
        zh: num(
            "用 4 bit 权重的 Llama-3.1-8B 服务 8 个 4,096 token 的并发请求，KV cache 用 BF16（每 token 131,072 字节，即 128 KiB）。KV cache 一共多少 GB？",
            "GB",
            "8 × 4,096 × 131,072 字节。",
            "8 × 4,096 × 131,072 B ≈ {key} GB。加上约 {r:memory_per_gpu_bytes.weights:1e-9:1} GB 的权重（嵌入层和输出层仍是 16 bit）、{r:memory_per_gpu_bytes.activations:1e-9:1} GB 的激活和 1 GiB 的运行时开销，合计约 {r:memory_per_gpu_bytes.total:1e-9:1} GB，10 GB 的切片放不下。",
        ),
        en: num(
            "Llama-3.1-8B with 4-bit weights serves 8 concurrent requests of 4,096 tokens with a BF16 KV cache (131,072 bytes, 128 KiB, per token). How many GB of KV cache is that?",
            "GB",
            "8 × 4,096 × 131,072 bytes.",
            "8 × 4,096 × 131,072 B ≈ {key} GB. With about {r:memory_per_gpu_bytes.weights:1e-9:1} GB of weights (the embedding and output layers stay in 16 bits), {r:memory_per_gpu_bytes.activations:1e-9:1} GB of activations and 1 GiB of runtime overhead, the total is about {r:memory_per_gpu_bytes.total:1e-9:1} GB: a 10 GB slice is too small.",
        ),
    },
    Exercise {
        id: "share-mig-profile",
        answer: choice(&["1g.10gb", "1g.20gb", "3g.40gb"], "1g.20gb"),
        zh: pick(
            "接上题：在 H100 80 GB 的 MIG 配置里，最小的合理选择是哪个？",
            &["1g.10gb", "1g.20gb", "3g.40gb"],
            "权重、KV cache 和运行时加起来约 11–12 GB。",
            "1g.20gb（1/7 的计算切片，即 H100 的 132 个 SM 中的 26 个；2/8 的显存）放得下还有余量。只有在这些 SM 满足不了延迟目标时，才考虑 2g.20gb 或 3g.40gb。",
        ),
        en: pick(
            "Continuing: which H100 80 GB MIG profile is the smallest sensible choice?",
            &["1g.10gb", "1g.20gb", "3g.40gb"],
            "Weights, KV cache and runtime add up to about 11–12 GB.",
            "1g.20gb (1/7 of the compute slices, which on H100 is 26 of its 132 SMs, and 2/8 of the memory) fits with headroom. Choose 2g.20gb or 3g.40gb only if those SMs cannot meet the latency target.",
        ),
    },
];
