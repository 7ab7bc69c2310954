//! Chapters 1 to 5: introduction, memory capacity, memory bandwidth, CUDA, Tensor Cores.

use super::{choice, engine, num, pick, report, BF16};
use crate::engine::precision::compute::ComputeDtype;
use crate::exercises::{Calc, Exercise};

const L3_8B_H100_B1: &str =
    r#"{"model": "llama-3-8b", "batch": 1, "context_tokens": 512, "gpu": "h100-sxm"}"#;

pub static INTRODUCTION: &[Exercise] = &[
    Exercise {
        id: "intro-8b-decode-bound",
        answer: report(L3_8B_H100_B1, "phases.decode.tokens_per_s_bound", 1.0, 0, 0.03),
        zh: num(
            "把本章的算例换成 Llama-3-8B（80.3 亿参数，BF16 权重），跑在 H100 SXM（3.35 TB/s）上，批大小 1：先输入 256 个 token 的提示，再生成 256 个 token，所以生成过程中 KV cache（每 token 128 KiB）平均存有 384 个 token。每生成一个 token，要读一遍除输入 embedding（5.25 亿参数，每个 token 只按行查一行，不必整表读取）以外的全部权重，外加整个 KV cache。按峰值带宽算，每秒最多能生成多少个 token？",
            "token/s",
            "解码时算力几乎闲着：把每个 token 要读的字节加起来（不含 embedding 的权重，每个 2 字节，再加 384 × 128 KiB 的 KV cache），除以 3.35 TB/s 得到每个 token 的时间，再取倒数。",
            "权重共 {r:memory_per_gpu_bytes.weights:1e-9:2} GB，去掉 {r:params.embedding:2e-9:2} GB 的输入 embedding，再加约 0.05 GB 的 KV cache，每步要读约 {r:phases.decode.bytes:1e-9:2} GB，除以 3.35 TB/s 得 {r:phases.decode.bound.memory_s:1e3:2} ms；计算项只有 {r:phases.decode.bound.compute_s:1e3:3} ms。所以上限约 {key} token/s，由显存带宽决定。实际会更低：达到的带宽低于峰值，还有 kernel 启动等开销。",
        ),
        en: num(
            "Redo the chapter's worked example for Llama-3-8B (8.03 billion parameters, BF16 weights) on an H100 SXM (3.35 TB/s) at batch size 1: a 256-token prompt, then 256 generated tokens, so during generation the KV cache (128 KiB per token) holds 384 tokens on average. Each generated token reads every weight once except the input embedding (525 million parameters, looked up one row per token rather than read whole), plus the whole KV cache. At peak bandwidth, what is the upper bound on tokens per second?",
            "tokens/s",
            "Decoding leaves the compute units almost idle: add up the bytes read per token (the weights without the embedding, 2 bytes each, plus 384 × 128 KiB of KV cache), divide by 3.35 TB/s and take the inverse.",
            "The weights take {r:memory_per_gpu_bytes.weights:1e-9:2} GB; without the {r:params.embedding:2e-9:2} GB input embedding and with about 0.05 GB of KV cache, one step reads about {r:phases.decode.bytes:1e-9:2} GB, which takes {r:phases.decode.bound.memory_s:1e3:2} ms at 3.35 TB/s; the compute term is only {r:phases.decode.bound.compute_s:1e3:3} ms. The bound is therefore about {key} tokens/s, set by memory bandwidth. Real systems land below it: achieved bandwidth is under peak and there is kernel launch overhead.",
        ),
    },
    Exercise {
        id: "intro-8b-memory-term",
        answer: report(L3_8B_H100_B1, "phases.decode.bound.memory_s", 1e3, 2, 0.03),
        zh: num(
            "同一个场景（Llama-3-8B，80.3 亿参数，BF16；其中输入 embedding 的 5.25 亿参数只查不读；H100 SXM，3.35 TB/s；批大小 1；KV cache 平均 384 个 token，每 token 128 KiB）：第一章那个式子里的显存项 Q/B 是多少毫秒？",
            "ms",
            "Q 是一步要读的字节（不含 embedding 的权重，每个 2 字节，加上 384 × 128 KiB 的 KV cache），B 是 3.35 TB/s。",
            "Q ≈ {r:phases.decode.bytes:1e-9:2} GB，Q/B ≈ {key} ms。计算项 W/F 只有 {r:phases.decode.bound.compute_s:1e3:3} ms，两者相差两个数量级，所以单请求解码是受显存带宽限制的。",
        ),
        en: num(
            "Same scenario (Llama-3-8B, 8.03 billion parameters in BF16, of which the input embedding's 525 million are looked up, not read; H100 SXM at 3.35 TB/s; batch 1; on average 384 tokens of 128 KiB each in the KV cache): how many milliseconds is the memory term Q/B of the bound?",
            "ms",
            "Q is the bytes one step reads (the weights without the embedding, 2 bytes each, plus 384 × 128 KiB of KV cache); B is 3.35 TB/s.",
            "Q ≈ {r:phases.decode.bytes:1e-9:2} GB, so Q/B ≈ {key} ms. The compute term W/F is only {r:phases.decode.bound.compute_s:1e3:3} ms, two orders of magnitude smaller: single-request decoding is bound by memory bandwidth.",
        ),
    },
    Exercise {
        id: "intro-pcie-copy-share",
        answer: choice(&["24", "31", "76", "100"], "76"),
        zh: pick(
            "一个预处理 kernel 在 GPU 上运行 50 µs，但每次调用前都要通过 PCIe 以实际 25 GB/s 从主机内存拷贝 4 MB 数据，且拷贝与计算不重叠。每次调用中传输时间约占多少？",
            &["约 24%", "约 31%", "约 76%", "100%"],
            "先算拷贝时间：4 MB ÷ 25 GB/s。再除以拷贝加计算的总时间。",
            "拷贝需要 4e6 B ÷ 25e9 B/s = 160 µs，一次调用约 160 + 50 = 210 µs，其中 160/210 ≈ 76% 是传输。这是那个式子里的通信项（这里是主机到设备的流量）；办法是让数据常驻 GPU、合并成更大的传输，或让拷贝与计算重叠。",
        ),
        en: pick(
            "A preprocessing kernel runs for 50 µs on the GPU, but each call first copies a 4 MB batch from host memory over PCIe at an achieved 25 GB/s, without overlapping copy and compute. Roughly what share of each call is the transfer?",
            &["About 24%", "About 31%", "About 76%", "100%"],
            "Work out the copy time first: 4 MB ÷ 25 GB/s. Then divide by copy plus compute.",
            "The copy takes 4e6 B ÷ 25e9 B/s = 160 µs, so one call takes about 160 + 50 = 210 µs and 160/210 ≈ 76% of it is transfer. This is the communication term of the bound (host-to-device traffic here); keep data resident on the GPU, batch larger transfers, or overlap copies with compute.",
        ),
    },
    Exercise {
        id: "intro-pcie-scaling-term",
        answer: choice(&["compute", "memory", "communication", "overhead"], "communication"),
        zh: pick(
            "一个团队把数据并行训练从 4 张 GPU 扩到 8 张，服务器里 GPU 之间只有 PCIe，吞吐只涨了 20%。显存占用没变，单卡步时也正常。最可能在增长的是那个式子里的哪一项？",
            &["计算项 W/F", "显存项 Q/B", "通信项 C/N", "固定开销 T_overhead"],
            "数据并行每一步都要做什么跨卡的事？PCIe 的带宽和 NVLink 比起来如何？",
            "通信项 C/N_eff。每一步都要在所有 GPU 之间同步梯度，PCIe 上实际带宽低，梯度 all-reduce 开始主导步时。先用 nvidia-smi topo -m 看拓扑，用 nccl-tests 测 all-reduce 带宽，再和 NVLink/NVSwitch 实例对比。",
        ),
        en: pick(
            "A team moves data-parallel training from 4 to 8 GPUs in servers whose GPUs talk only over PCIe, and throughput rises by only 20%. Memory use is unchanged and single-GPU step time is fine. Which term of the bound is most likely growing?",
            &["Compute, W/F", "Memory, Q/B", "Communication, C/N", "Fixed overhead, T_overhead"],
            "What must data parallelism do across GPUs every step, and how fast is PCIe compared with NVLink?",
            "The communication term C/N_eff. Every step synchronises gradients across all GPUs, and over PCIe the achieved bandwidth is low, so the gradient all-reduce starts to dominate the step. Check the topology (nvidia-smi topo -m), measure all-reduce bandwidth with nccl-tests, and compare with an NVLink/NVSwitch instance.",
        ),
    },
];

const L31_8B_32X8K: &str =
    r#"{"model": "llama-3.1-8b", "context_tokens": 8192, "batch": 32, "gpu": "h100-sxm"}"#;
const L2_7B_TRAIN: &str = r#"{"model": "llama-2-7b", "mode": "training", "gpu": "h100-sxm"}"#;
const L31_70B_INT4_4K: &str =
    r#"{"model": "llama-3.1-70b", "weight_dtype": "int4", "context_tokens": 4096, "gpu": "h100-sxm"}"#;

pub static MEMORY_CAPACITY: &[Exercise] = &[
    Exercise {
        id: "mem-kv-32x8k",
        answer: report(L31_8B_32X8K, "memory_per_gpu_bytes.kv_cache", 1e-9, 1, 0.02),
        zh: num(
            "Llama-3.1-8B（32 层、8 个 KV 头、head_dim 128）以 BF16 KV cache 服务 32 个并发请求，每个 8K（8,192）token 的上下文。KV cache 一共多少 GB（十进制）？",
            "GB",
            "每个 token 的 KV = 2（K 和 V）× 32 层 × 8 个 KV 头 × 128 维 × 2 字节。再乘以 token 数 8,192 × 32。",
            "每 token {r:kv_cache_bytes_per_token:1:0} 字节（128 KiB），共 8,192 × 32 = 262,144 个 token，KV cache ≈ {key} GB（32 GiB）。加上权重 {r:memory_per_gpu_bytes.weights:1e-9:1} GB，引擎算出的总占用约 {r:memory_per_gpu_bytes.total:1e-9:1} GB（含激活和运行时开销），能放进 80 GB。",
        ),
        en: num(
            "Llama-3.1-8B (32 layers, 8 KV heads, head_dim 128) serves 32 concurrent requests at 8K (8,192 tokens) context with a BF16 KV cache. How many (decimal) GB of KV cache is that?",
            "GB",
            "KV per token = 2 (K and V) × 32 layers × 8 KV heads × 128 dims × 2 bytes. Multiply by 8,192 × 32 tokens.",
            "{r:kv_cache_bytes_per_token:1:0} bytes (128 KiB) per token over 8,192 × 32 = 262,144 tokens gives {key} GB (32 GiB) of KV cache. With {r:memory_per_gpu_bytes.weights:1e-9:1} GB of weights the engine's total is about {r:memory_per_gpu_bytes.total:1e-9:1} GB (activations and runtime included): it fits in 80 GB.",
        ),
    },
    Exercise {
        id: "mem-adam-optimizer-7b",
        answer: report(L2_7B_TRAIN, "memory_per_gpu_bytes.optimizer", 1e-9, 1, 0.02),
        zh: num(
            "全量微调 Llama-2-7B（67.4 亿参数），混合精度 Adam：FP32 主权重加两个矩，共 12 字节/参数。仅优化器状态就占多少 GB？",
            "GB",
            "参数量 × 12 字节。",
            "{r:params.total:1e-9:2}e9 × 12 B ≈ {key} GB。再加 BF16 权重 {r:memory_per_gpu_bytes.weights:1e-9:1} GB 和梯度 {r:memory_per_gpu_bytes.gradients:1e-9:1} GB，模型状态约 16 B/参数，还没算激活，单张 80 GB GPU 放不下。ZeRO-3 在 8 张卡上切分后每卡只剩八分之一。",
        ),
        en: num(
            "A full fine-tune of Llama-2-7B (6.74 billion parameters) with mixed-precision Adam keeps an FP32 master copy and two moments: 12 bytes per parameter. How many GB do the optimizer states alone take?",
            "GB",
            "Parameters × 12 bytes.",
            "{r:params.total:1e-9:2}e9 × 12 B ≈ {key} GB. Add {r:memory_per_gpu_bytes.weights:1e-9:1} GB of BF16 weights and {r:memory_per_gpu_bytes.gradients:1e-9:1} GB of gradients: about 16 B per parameter before activations, too much for one 80 GB GPU. ZeRO stage 3 over 8 GPUs leaves an eighth of it on each.",
        ),
    },
    Exercise {
        id: "mem-70b-int4-requests",
        answer: report(L31_70B_INT4_4K, "solvers.max_batch", 1.0, 0, 0.0),
        zh: num(
            "Llama-3.1-70B（80 层，8 个 KV 头，head_dim 128）量化为 4 bit 权重，在一张 80 GB 的 H100 上服务，KV cache 用 BF16。权重占 39.77 GB（含分组缩放因子，embedding 和输出层保持 16 位），一个预填充分块的激活占 1.38 GB，运行时开销 1 GiB，另留 10% 的显存不用。最多能同时服务多少个 4,096 token 的请求？显存容量按厂商标称的 GB 计：1 GB = 10⁹ 字节。",
            "个请求",
            "可用显存 = 80 GB × 0.9 − 权重 − 激活 − 开销；每个请求的 KV = 4,096 × 每 token KV 字节。结果向下取整。",
            "每 token KV = 2 × 80 × 8 × 128 × 2 B = {r:kv_cache_bytes_per_token:1:0} B（320 KiB），一个 4,096 token 的请求要 {r:memory_per_gpu_bytes.kv_cache:1e-9:2} GB。可用的 {r:usable_gpu_memory_bytes:1e-9:0} GB 里，权重占 {r:memory_per_gpu_bytes.weights:1e-9:2} GB，激活 1.38 GB，运行时 1 GiB（1.07 GB）；剩下的空间放得下 {key} 个请求。",
        ),
        en: num(
            "Llama-3.1-70B (80 layers, 8 KV heads, head_dim 128) is quantized to 4-bit weights and served on one 80 GB H100 with a BF16 KV cache. The weights take 39.77 GB (with their group scales, and the embeddings and output layer in 16 bits), a prefill chunk's activations 1.38 GB and the runtime 1 GiB, and 10% of the memory is kept free. How many concurrent 4,096-token requests fit? GPU memory counts the vendor's GB: 1 GB = 10⁹ bytes.",
            "requests",
            "Usable memory = 80 GB × 0.9 − weights − activations − overhead; each request holds 4,096 × the KV bytes per token. Round down.",
            "KV per token = 2 × 80 × 8 × 128 × 2 B = {r:kv_cache_bytes_per_token:1:0} B (320 KiB), so one 4,096-token request needs {r:memory_per_gpu_bytes.kv_cache:1e-9:2} GB. Of the {r:usable_gpu_memory_bytes:1e-9:0} GB usable, the weights take {r:memory_per_gpu_bytes.weights:1e-9:2} GB, the activations 1.38 GB and the runtime 1 GiB (1.07 GB); what is left holds {key} requests.",
        ),
    },
    Exercise {
        id: "mem-70b-kv-per-token",
        answer: report(L31_70B_INT4_4K, "kv_cache_bytes_per_token", 1.0 / 1024.0, 0, 0.0),
        zh: num(
            "Llama-3.1-70B 的 KV cache 在 BF16 下每个 token 占多少 KiB？（80 层，8 个 KV 头，head_dim 128）",
            "KiB",
            "2（K 和 V）× 层数 × KV 头数 × head_dim × 每元素字节数，再除以 1,024。",
            "2 × 80 × 8 × 128 × 2 B = {r:kv_cache_bytes_per_token:1:0} B = {key} KiB。GQA 让 64 个查询头共享 8 个 KV 头；如果每个头都有自己的 K 和 V，会是 8 倍。",
        ),
        en: num(
            "How many KiB of BF16 KV cache does Llama-3.1-70B need per token? (80 layers, 8 KV heads, head_dim 128)",
            "KiB",
            "2 (K and V) × layers × KV heads × head_dim × bytes per element, divided by 1,024.",
            "2 × 80 × 8 × 128 × 2 B = {r:kv_cache_bytes_per_token:1:0} B = {key} KiB. Grouped-query attention lets 64 query heads share 8 KV heads; with a K and V per head it would be 8 times as much.",
        ),
    },
    Exercise {
        id: "mem-oom-fragmentation",
        answer: choice(&["other-process", "smaller-batch", "expandable-segments", "fewer-contexts"], "expandable-segments"),
        zh: pick(
            "一个微调任务报错退出：“Tried to allocate 4.00 GiB. GPU 0 has a total capacity of 79.22 GiB of which 1.40 GiB is free. Process 4242 has 77.80 GiB memory in use. Of the allocated memory 61.30 GiB is allocated by PyTorch, and 15.90 GiB is reserved by PyTorch but unallocated.” 应该先试什么？",
            &[
                "找到并停掉占着显存的另一个进程",
                "调小 batch：张量把卡占满了",
                "设置 PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True：缓存里的空闲显存碎成了小段",
                "少开几个进程：缺的显存被 CUDA 上下文占了",
            ],
            "做两次减法：总量 − 空闲 − 本进程占用；本进程占用 − 已分配 − reserved 未分配。再拿 reserved 未分配的部分和请求的大小比。",
            "79.22 − 1.40 − 77.80 = 0.02 GiB：没有别的进程占显存。77.80 − 61.30 − 15.90 = 0.60 GiB 在 PyTorch 之外，是 CUDA 上下文，小到可以不管。张量占 61.30 GiB，而分配器的缓存里空着 15.90 GiB，几乎是请求的 4.00 GiB 的四倍，却碎成了没有一段够大的小块：这是碎片。expandable_segments 让分配器改为扩展一个段；如果报错还在，再调小 batch。",
        ),
        en: pick(
            "A fine-tuning job stops with: “Tried to allocate 4.00 GiB. GPU 0 has a total capacity of 79.22 GiB of which 1.40 GiB is free. Process 4242 has 77.80 GiB memory in use. Of the allocated memory 61.30 GiB is allocated by PyTorch, and 15.90 GiB is reserved by PyTorch but unallocated.” What should you try first?",
            &[
                "Find and stop the other process that holds the memory",
                "Lower the batch: the tensors fill the card",
                "Set PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True: the cache holds free memory in pieces",
                "Start fewer processes: the CUDA context takes the missing memory",
            ],
            "Subtract twice: total − free − this process's use; this process's use − allocated − reserved but unallocated. Then compare what is reserved but unallocated with the request.",
            "79.22 − 1.40 − 77.80 = 0.02 GiB: no other process holds memory. 77.80 − 61.30 − 15.90 = 0.60 GiB sit outside PyTorch, the CUDA context, too little to matter. The tensors take 61.30 GiB, while 15.90 GiB lie free in the allocator's cache, almost four times the 4.00 GiB asked for, but in pieces none of which is large enough: fragmentation. expandable_segments lets the allocator grow one segment instead; if the error stays, lower the batch.",
        ),
    },
    Exercise {
        id: "mem-nvidia-smi-total",
        answer: choice(&["74.5-80", "79.65-85.52", "81.56-81.56", "80-80"], "79.65-85.52"),
        zh: pick(
            "一张以“80 GB”出售的 H100，nvidia-smi 显示总显存为 81,559 MiB。换算成 GiB 和十进制 GB 各是多少？",
            &["74.5 GiB，80 GB", "79.65 GiB，85.52 GB", "81.56 GiB，81.56 GB", "80 GiB，80 GB"],
            "1 MiB = 1,048,576 字节，1 GiB = 1,024 MiB，1 GB = 10⁹ 字节。",
            "81,559 ÷ 1,024 ≈ 79.65 GiB；81,559 × 1,048,576 B ≈ 85.52 GB，比标称的 80 GB 还多。CUDA 报告的总量还要少一点（驱动保留了一部分），而估算器从十进制的 80 GB（74.5 GiB）做规划。",
        ),
        en: pick(
            "nvidia-smi shows the total memory of an H100 sold as “80 GB” as 81,559 MiB. How much is that in GiB and in decimal GB?",
            &["74.5 GiB, 80 GB", "79.65 GiB, 85.52 GB", "81.56 GiB, 81.56 GB", "80 GiB, 80 GB"],
            "1 MiB = 1,048,576 bytes, 1 GiB = 1,024 MiB, 1 GB = 10⁹ bytes.",
            "81,559 ÷ 1,024 ≈ 79.65 GiB, and 81,559 × 1,048,576 B ≈ 85.52 GB: more than the nominal 80 GB. CUDA reports a little less as its total (the driver keeps some), and the estimator plans from the decimal 80 GB (74.5 GiB).",
        ),
    },
];

const L2_7B_INT4_A100: &str = r#"{"model": "llama-2-7b", "weight_dtype": "int4", "int4_group_size": 32, "batch": 1, "context_tokens": 512, "gpu": "a100-sxm-80gb"}"#;
const L3_8B_H200_16X8K: &str =
    r#"{"model": "llama-3-8b", "context_tokens": 8192, "batch": 16, "gpu": "h200-sxm"}"#;

const L31_8B_PHASES_B1: &str = r#"{"model": "llama-3.1-8b", "prompt_tokens": 2048, "output_tokens": 256, "context_tokens": 2304, "batch": 1, "gpu": "h100-sxm"}"#;
const L31_8B_PHASES_B64: &str = r#"{"model": "llama-3.1-8b", "prompt_tokens": 2048, "output_tokens": 256, "context_tokens": 2304, "batch": 64, "gpu": "h100-sxm"}"#;
/// Speculative decoding on chapter 3's short chat turn: EAGLE-3, 4 drafts at α 0.75, under vLLM
/// (`memory-bandwidth-spec`), and 3 drafts at α 0.8.
const L31_8B_SPEC: &str = r#"{"model": "llama-3.1-8b", "prompt_tokens": 128, "output_tokens": 256, "context_tokens": 384, "batch": 1, "gpu": "h100-sxm", "speculative_method": "eagle3", "speculative_draft_tokens": 4, "speculative_acceptance_rate": 0.75}"#;
const L31_8B_SPEC_A80: &str = r#"{"model": "llama-3.1-8b", "prompt_tokens": 128, "output_tokens": 256, "context_tokens": 384, "batch": 1, "gpu": "h100-sxm", "speculative_method": "eagle3", "speculative_draft_tokens": 3, "speculative_acceptance_rate": 0.8}"#;

pub static MEMORY_BANDWIDTH: &[Exercise] = &[
    Exercise {
        id: "bw-a100-ridge",
        answer: engine(Calc::RidgePoint { gpu: "a100-sxm-80gb", dtype: BF16 }, 1.0, 0, 0.02),
        zh: num(
            "A100 80GB SXM 的 BF16 拐点（ridge point）是多少 FLOP/字节？（稠密 312 TFLOPS，2.039 TB/s）",
            "FLOP/字节",
            "拐点 = 峰值算力 ÷ 显存带宽。",
            "312e12 ÷ 2.039e12 ≈ {key} FLOP/字节。算术强度低于它的 kernel 受带宽限制，高于它的受算力限制。",
        ),
        en: num(
            "What is the BF16 ridge point of an A100 80GB SXM in FLOP per byte? (312 dense TFLOPS, 2.039 TB/s)",
            "FLOP/byte",
            "Ridge point = peak compute ÷ memory bandwidth.",
            "312e12 ÷ 2.039e12 ≈ {key} FLOP/byte. Kernels below that intensity are bandwidth-bound, kernels above it compute-bound.",
        ),
    },
    Exercise {
        id: "bw-a100-attainable-10",
        answer: engine(Calc::Attainable { gpu: "a100-sxm-80gb", dtype: BF16, intensity: 10.0 }, 1e-12, 1, 0.02),
        zh: num(
            "算术强度为 10 FLOP/字节的 kernel，在 A100 80GB SXM 的 BF16 roofline 上（稠密 312 TFLOPS，2.039 TB/s）最多能达到多少 TFLOPS？",
            "TFLOPS",
            "可达算力 = min(峰值, 强度 × 带宽)。",
            "min(312, 10 × 2.039) ≈ {key} TFLOPS，不到峰值的 7%：这个 kernel 受带宽限制，再多的 Tensor Core 也帮不上忙。",
        ),
        en: num(
            "A kernel has an arithmetic intensity of 10 FLOP/byte. How many TFLOPS can it reach at most on the A100 80GB SXM's BF16 roofline (312 dense TFLOPS, 2.039 TB/s)?",
            "TFLOPS",
            "Attainable = min(peak, intensity × bandwidth).",
            "min(312, 10 × 2.039) ≈ {key} TFLOPS, under 7% of the peak: the kernel is bandwidth-bound and more Tensor Cores would not help.",
        ),
    },
    Exercise {
        id: "bw-7b-int4-a100-bound",
        answer: report(L2_7B_INT4_A100, "phases.decode.tokens_per_s_bound", 1.0, 0, 0.03),
        zh: num(
            "Llama-2-7B 在 A100 80GB SXM（2.039 TB/s）上以批大小 1 解码，权重为 4 bit：32 层共 64.8 亿个权重，每个 4 bit，每 32 个一组另带一个 16 位缩放因子和一个 4 位零点，合计每个权重 4.625 bit；输入 embedding 和输出层（各 1.31 亿参数）保持 BF16，每步只读输出层（embedding 只按行查）。BF16 KV cache 每 token 512 KiB，平均存有 384 个 token（256 个 token 的提示，再生成 256 个）。按峰值带宽，每秒最多多少 token？gpt-fast 用它自己的 4 bit 格式（每组 32 个）在限功耗的 A100 上实测 196.8 token/s，这说明了什么？",
            "token/s",
            "每步读的字节 = 64.8 亿 × 4.625 / 8 + 输出层 1.31 亿 × 2 + 384 × 512 KiB；用带宽除以它。",
            "权重在显存里共占 {r:memory_per_gpu_bytes.weights:1e-9:2} GB；每步要读约 {r:phases.decode.bytes:1e-9:2} GB（4 bit 的各层、输出层和 KV cache），上限约 {key} token/s。实测只到它的约 41%。差距的一部分来自这张卡本身：同一张限功耗（330 W）的 A100 在 BF16 下也只跑到峰值带宽的约 69%（gpt-fast 自己统计为 1,397 GB/s）。从 69% 再降到约 41% 的部分才归于 4 bit kernel：它已经吃不满带宽，反量化、缩放因子和 kernel 启动开销相对于缩小了的显存项变得重要。",
        ),
        en: num(
            "Llama-2-7B decodes at batch 1 on an A100 80GB SXM (2.039 TB/s) with 4-bit weights: the 6.48 billion weights of its 32 layers take 4 bits each plus a 16-bit scale and a 4-bit zero point per group of 32, 4.625 bits in all; the input embedding and the output layer (131 million parameters each) stay in BF16, and only the output layer is read at each step (the embedding is looked up). The BF16 KV cache takes 512 KiB per token and holds 384 tokens on average (a 256-token prompt, then 256 generated). At peak bandwidth, what is the tokens-per-second bound? gpt-fast measured 196.8 tokens/s with its own 4-bit format (groups of 32) on a power-capped A100: what does that suggest?",
            "tokens/s",
            "Bytes per step = 6.48 billion × 4.625 / 8 + the output layer's 131 million × 2 + 384 × 512 KiB; divide the bandwidth by it.",
            "The weights take {r:memory_per_gpu_bytes.weights:1e-9:2} GB in memory; a step reads about {r:phases.decode.bytes:1e-9:2} GB (the 4-bit layers, the output layer and the KV cache), so the bound is about {key} tokens/s. The measurement reaches about 41% of it. Part of the gap is the card itself: the same power-capped (330 W) A100 reached only about 69% of peak bandwidth in BF16 (1,397 GB/s by gpt-fast's own count). The rest, from about 69% down to about 41%, is the 4-bit kernel's: it no longer saturates memory, and dequantization, scales and launch overhead now matter relative to the shrunken memory term.",
        ),
    },
    Exercise {
        id: "bw-h200-16x8k-step",
        answer: report(L3_8B_H200_16X8K, "phases.decode.time_s_bound", 1e3, 1, 0.03),
        zh: num(
            "Llama-3-8B（80.3 亿参数，BF16）在 H200（4.8 TB/s）上同时服务 16 条序列。每条先输入 7,936 个 token 的提示，再生成 256 个 token（共 8K），所以生成过程中每条序列的 KV cache 平均存有 8,064 个 token，每 token 128 KiB。每一步要读除输入 embedding（5.25 亿参数，只查不读）以外的全部权重，以及所有序列的 KV cache。按峰值带宽，一个平均的解码步最少要多少毫秒？",
            "ms",
            "每步字节 = 不含 embedding 的权重 × 2 + 16 × 8,064 × 128 KiB，再除以 4.8 TB/s。",
            "KV cache 存满（每条 8,192 个 token）时为 {r:memory_per_gpu_bytes.kv_cache:1e-9:1} GB，权重 {r:memory_per_gpu_bytes.weights:1e-9:2} GB；不读 embedding、按平均上下文算，一步读约 {r:phases.decode.bytes:1e-9:1} GB，÷ 4.8 TB/s ≈ {key} ms，即总共约 {r:phases.decode.tokens_per_s_bound:1:0} token/s。实际带宽低于峰值，真实数字会更低。",
        ),
        en: num(
            "Llama-3-8B (8.03 billion parameters, BF16) serves 16 sequences on an H200 (4.8 TB/s). Each has a 7,936-token prompt and generates 256 tokens (8K in all), so during generation each cache holds 8,064 tokens on average, at 128 KiB per token. A step reads every weight except the input embedding (525 million parameters, looked up rather than read) and every sequence's KV cache. At peak bandwidth, how many milliseconds does an average decode step take at least?",
            "ms",
            "Bytes per step = the weights without the embedding × 2 + 16 × 8,064 × 128 KiB; divide by 4.8 TB/s.",
            "The full KV cache (8,192 tokens per sequence) is {r:memory_per_gpu_bytes.kv_cache:1e-9:1} GB and the weights {r:memory_per_gpu_bytes.weights:1e-9:2} GB; without the embedding and at the average context a step reads about {r:phases.decode.bytes:1e-9:1} GB, ÷ 4.8 TB/s ≈ {key} ms, about {r:phases.decode.tokens_per_s_bound:1:0} tokens/s in total. Achieved bandwidth is below peak, so real numbers are lower.",
        ),
    },
    Exercise {
        id: "bw-8b-prefill-2k-bound",
        answer: report(L31_8B_PHASES_B1, "phases.prefill.time_s_bound", 1e3, 1, 0.03),
        zh: num(
            "Llama-3.1-8B（80.3 亿参数，BF16；其中输入 embedding 的 5.25 亿参数只查不乘，同样大小的输出层只为提示的最后一个 token 算出下一个 token 的分布）在 H100 SXM（稠密 BF16 989.5 TFLOPS）上处理一个 2,048 个 token 的提示。每个提示 token 对其余每个参与矩阵乘的参数花 2 FLOPs，最后一个 token 另对输出层每个参数花 2 FLOPs；因果 attention 另外共花 2 × 层数 × 隐藏维度 × token 数² FLOPs（32 层，隐藏维度 4,096）。prefill 受算力限制，它的时间下限是多少毫秒？",
            "ms",
            "FLOPs = 2 × (参数 − 2 × embedding) × 2,048 + 2 × embedding + 2 × 32 × 4,096 × 2,048²，再除以 989.5 TFLOPS。",
            "FLOPs = 2 × (80.3 亿 − 2 × 5.25 亿) × 2,048 + 2 × 5.25 亿 + 2 × 32 × 4,096 × 2,048² ≈ {r:phases.prefill.flops:1e-12:1} TFLOP，÷ 989.5 TFLOPS ≈ {key} ms。显存项（读 {r:phases.prefill.bytes:1e-9:1} GB）只有 {r:phases.prefill.bound.memory_s:1e3:1} ms：算术强度 {r:phases.prefill.arithmetic_intensity:1:0} FLOP/字节，远在拐点右边，所以 prefill 受算力限制。按引擎采用的实测 GEMM 效率，实际约需 {r:phases.prefill.time_s:1e3:1} ms。",
        ),
        en: num(
            "Llama-3.1-8B (8.03 billion parameters in BF16, of which the input embedding's 525 million are looked up, not multiplied, and the output layer of the same size gives the next token's distribution for the prompt's last token only) reads a 2,048-token prompt on an H100 SXM (989.5 dense BF16 TFLOPS). Each prompt token costs 2 FLOPs per other multiplied parameter, the last one 2 FLOPs per output-layer parameter more, and causal attention adds 2 × layers × hidden size × tokens² FLOPs in all (32 layers, hidden size 4,096). Prefill is compute-bound: what is the lower bound on its time, in milliseconds?",
            "ms",
            "FLOPs = 2 × (parameters − 2 × embedding) × 2,048 + 2 × embedding + 2 × 32 × 4,096 × 2,048²; divide by 989.5 TFLOPS.",
            "FLOPs = 2 × (8.03e9 − 2 × 5.25e8) × 2,048 + 2 × 5.25e8 + 2 × 32 × 4,096 × 2,048² ≈ {r:phases.prefill.flops:1e-12:1} TFLOP; ÷ 989.5 TFLOPS ≈ {key} ms. The memory term (reading {r:phases.prefill.bytes:1e-9:1} GB) is only {r:phases.prefill.bound.memory_s:1e3:1} ms: at {r:phases.prefill.arithmetic_intensity:1:0} FLOP/byte, far right of the ridge point, prefill is compute-bound. At the engine's measured GEMM efficiency it takes about {r:phases.prefill.time_s:1e3:1} ms.",
        ),
    },
    Exercise {
        id: "bw-8b-decode-b64-throughput",
        answer: report(L31_8B_PHASES_B64, "throughput.decode_tokens_per_s_bound", 1.0, 0, 0.03),
        zh: num(
            "同一个模型（Llama-3.1-8B，80.3 亿参数，BF16；输入 embedding 的 5.25 亿参数只查不读）在 H100 SXM（3.35 TB/s）上同时为 64 条序列做 decode。在平均的一步，每条序列的 KV cache 存有 2,176 个 token，每 token 128 KiB。一步把除 embedding 以外的全部权重读一遍（整批共享），再读每条序列的 KV cache，并为每条序列生成一个 token。按峰值带宽，整卡 decode 吞吐的上限是每秒多少个 token？",
            "token/s",
            "每步字节 = (参数 − embedding) × 2 + 64 × 2,176 × 128 KiB；一步的时间 = 字节 ÷ 3.35 TB/s；一步产出 64 个 token。",
            "每步读 2 × (80.3 亿 − 5.25 亿) + 64 × 2,176 × 128 KiB ≈ {r:phases.decode.bytes:1e-9:1} GB，一步至少 {r:phases.decode.time_s_bound:1e3:2} ms，所以整批最多约 {key} token/s。权重只读一遍，由 64 条序列分摊；KV 却是每条序列各读各的，在这一步里已经超过权重。按引擎的实测带宽和开销，一步约 {r:phases.decode.time_s:1e3:1} ms，约 {r:phases.decode.tokens_per_s:1:0} token/s。",
        ),
        en: num(
            "The same model (Llama-3.1-8B, 8.03 billion parameters in BF16; the input embedding's 525 million looked up, not read) decodes 64 sequences at once on an H100 SXM (3.35 TB/s). At the average step each sequence's KV cache holds 2,176 tokens of 128 KiB each. A step reads every weight except the embedding once (shared by the whole batch), then every sequence's KV cache, and gives each sequence one token. At peak bandwidth, what is the upper bound on the GPU's decode throughput in tokens per second?",
            "tokens/s",
            "Bytes per step = (parameters − embedding) × 2 + 64 × 2,176 × 128 KiB; a step takes bytes ÷ 3.35 TB/s and yields 64 tokens.",
            "A step reads 2 × (8.03e9 − 5.25e8) + 64 × 2,176 × 128 KiB ≈ {r:phases.decode.bytes:1e-9:1} GB, so it takes at least {r:phases.decode.time_s_bound:1e3:2} ms and the batch gets at most about {key} tokens/s. The weights are read once for all 64 sequences; the KV cache is read per sequence, and in this step it already outweighs the weights. At the engine's measured bandwidth and overheads a step takes about {r:phases.decode.time_s:1e3:1} ms, about {r:phases.decode.tokens_per_s:1:0} tokens/s.",
        ),
    },
    Exercise {
        id: "bw-spec-expected-tokens",
        answer: report(L31_8B_SPEC_A80, "speculative.expected_tokens_per_step", 1.0, 3, 0.01),
        zh: num(
            "投机解码中，草稿头每步起草 3 个 token，目标模型一遍验证它们。假设每个草稿 token 都以 0.8 的概率被接受、彼此独立，并且一旦有一个被拒绝，它后面的草稿都作废；无论接受几个，目标模型在这一遍里总会再给出一个自己的 token。平均每个目标步产出多少个 token？",
            "token",
            "前 k 个草稿全被接受的概率是 α^k；产出的 token = 1 + 被接受的草稿数，E = 1 + α + α² + … + α^γ。",
            "E = 1 + 0.8 + 0.64 + 0.512 = (1 − 0.8⁴) / (1 − 0.8) = {key}。这就是 Leviathan 等人（2023）的公式。γ 越大，加上的项越小：再多起草一个 token 只多 0.8⁴ ≈ 0.41 个，却要多一次草稿的时间。",
        ),
        en: num(
            "In speculative decoding a draft head proposes 3 tokens a step and the target model verifies them in one pass. Each draft token is accepted with probability 0.8, independently, and once one is rejected the drafts after it are discarded; however many are accepted, the target's pass adds one token of its own. How many tokens does a target step yield on average?",
            "tokens",
            "The first k drafts are all accepted with probability α^k; a step yields 1 + the accepted drafts, so E = 1 + α + α² + … + α^γ.",
            "E = 1 + 0.8 + 0.64 + 0.512 = (1 − 0.8⁴) / (1 − 0.8) = {key}: Leviathan et al.'s formula (2023). Each further draft adds less: a fourth would add 0.8⁴ ≈ 0.41 tokens, for one more draft pass.",
        ),
    },
    Exercise {
        id: "bw-spec-tpot",
        answer: report(L31_8B_SPEC, "speculative.time_per_output_token_s", 1e3, 2, 0.02),
        zh: num(
            "Llama-3.1-8B（BF16）在一张 H100 SXM 上，batch 1，用 vLLM 跑 EAGLE-3 投机解码：每步起草 4 个 token，每个以 0.75 的概率被接受，所以每个目标步平均产出 3.05 个 token。验证 5 个 token 的一遍需要 6.58 ms（权重只读一次，和普通的一步几乎一样）。一次草稿在 GPU 上只要 0.34 ms，但 vLLM 的草稿每次在主机上至少要 0.93 ms。每个输出 token 平均要多少毫秒？",
            "ms",
            "一次草稿取 GPU 时间和主机时间中较大的一个；一步 = 验证 + 4 × 一次草稿；每个 token 的时间 = 一步 ÷ 3.05。",
            "一步 = 6.58 + 4 × max(0.34, 0.93) = 10.30 ms；÷ 3.05 ≈ {key} ms。不用投机解码时每个 token {r:speculative.time_per_output_token_s_without:1e3:2} ms，速度约是不用时的 {r:speculative.speedup:1:2} 倍。如果草稿在 CUDA Graphs 里运行（SGLang），一次草稿只有 GPU 的 0.34 ms，一步 7.94 ms，每个 token 约 2.60 ms。",
        ),
        en: num(
            "Llama-3.1-8B (BF16) on one H100 SXM at batch 1 runs EAGLE-3 speculative decoding under vLLM: 4 drafts a step, each accepted with probability 0.75, so a target step yields 3.05 tokens on average. The verify pass over 5 tokens takes 6.58 ms (the weights are read once, about a plain step). A draft pass needs only 0.34 ms of GPU time, but vLLM's drafter spends at least 0.93 ms of host time on each. How many milliseconds does each output token take on average?",
            "ms",
            "A draft pass takes the longer of its GPU and host times; a step = verify + 4 × one draft pass; per token = step ÷ 3.05.",
            "A step = 6.58 + 4 × max(0.34, 0.93) = 10.30 ms; ÷ 3.05 ≈ {key} ms. Without speculation a token takes {r:speculative.time_per_output_token_s_without:1e3:2} ms, so the speed-up is about {r:speculative.speedup:1:2}×. With the drafts in CUDA graphs (SGLang) a pass costs only its 0.34 ms on the GPU: a step of 7.94 ms, about 2.60 ms a token.",
        ),
    },
];

pub static CUDA: &[Exercise] = &[
    Exercise {
        id: "cuda-blocks-10m",
        answer: choice(&["39062", "39063", "39064", "10000000"], "39063"),
        zh: pick(
            "对 n = 10,000,000 个元素启动本章的 add kernel，每个 block 256 个线程。要启动多少个 block？",
            &["39,062", "39,063", "39,064", "10,000,000"],
            "block 数要向上取整：ceil(n / 256)。",
            "ceil(10,000,000 / 256) = 39,063 个 block，共 39,063 × 256 = 10,000,128 个线程，其中 128 个不满足 i < n 的判断，什么也不做。没有这个判断它们会写越界。",
        ),
        en: pick(
            "You launch the chapter's add kernel for n = 10,000,000 elements with 256 threads per block. How many blocks are launched?",
            &["39,062", "39,063", "39,064", "10,000,000"],
            "Round up: ceil(n / 256).",
            "ceil(10,000,000 / 256) = 39,063 blocks, 39,063 × 256 = 10,000,128 threads, so 128 threads fail the i < n guard and do nothing. Without the guard they would write past the end of the arrays.",
        ),
    },
    Exercise {
        id: "cuda-saxpy-h100",
        answer: engine(Calc::MemoryTime { gpu: "h100-sxm", bytes: 1.2e9 }, 1e3, 2, 0.02),
        zh: num(
            "FP32 的 SAXPY（y = a·x + y）处理 1 亿个元素：每个元素读 x、y（8 字节），写 y（4 字节），共 1.2 GB。在 H100 SXM（3.35 TB/s）上运行时间的下限是多少毫秒？",
            "ms",
            "每元素 12 字节只对应 2 次浮点运算，强度约 0.17 FLOP/字节，远低于拐点：按带宽算。",
            "1.2e9 B ÷ 3.35e12 B/s ≈ {key} ms。0.2 GFLOP 的运算在 67 TFLOPS 的 FP32 单元上只要约 3 µs。它受显存带宽限制。",
        ),
        en: num(
            "SAXPY (y = a·x + y) in FP32 on 100 million elements reads x and y (8 bytes) and writes y (4 bytes) per element: 1.2 GB in all. What is the lower bound on its run time on an H100 SXM (3.35 TB/s), in milliseconds?",
            "ms",
            "12 bytes per element for 2 FLOPs is about 0.17 FLOP/byte, far below the ridge point: use the bandwidth.",
            "1.2e9 B ÷ 3.35e12 B/s ≈ {key} ms. The 0.2 GFLOP of arithmetic would take about 3 µs on the 67 TFLOPS FP32 units. It is memory-bound.",
        ),
    },
    Exercise {
        id: "cuda-launch-overhead",
        answer: choice(&["4.8", "6.8", "2.0", "400"], "6.8"),
        zh: pick(
            "一个解码步发出 400 次 kernel 启动，每次约占 5 µs 的 CPU 时间，而且 CPU 无法提前把启动排进队列（每次启动都要等上一个 kernel 跑完才发出）；GPU 本身的工作是 4.8 ms 的受带宽限制的步。一步大约多长？",
            &["4.8 ms", "6.8 ms", "2.0 ms", "400 ms"],
            "CPU 端启动开销 = 400 × 5 µs；CPU 不能提前排队，所以它与 GPU 工作串行相加。",
            "启动开销 400 × 5 µs = 2 ms，一步约 4.8 + 2 = 6.8 ms，比 4.8 ms 长约 42%。如果 CPU 能提前把启动排进队列，这 2 ms 就会藏在 GPU 的 4.8 ms 之后，一步约为 max(4.8, 2) = 4.8 ms。CUDA Graph 把录下的 400 个 kernel 一次重放，去掉大部分这 2 ms。",
        ),
        en: pick(
            "A decode step issues 400 kernel launches at about 5 µs of CPU time each, and the CPU cannot queue launches ahead of the GPU (each launch is issued only after the previous kernel has finished); the GPU work itself is a 4.8 ms memory-bound step. Roughly how long is a step?",
            &["4.8 ms", "6.8 ms", "2.0 ms", "400 ms"],
            "CPU launch overhead = 400 × 5 µs; since the CPU cannot queue ahead, it adds to the GPU work.",
            "Launch overhead is 400 × 5 µs = 2 ms, so a step takes about 4.8 + 2 = 6.8 ms, some 42% longer. If the CPU could queue launches ahead, the 2 ms would hide behind the GPU's 4.8 ms and a step would take about max(4.8, 2) = 4.8 ms. A CUDA Graph replays the 400 recorded kernels with one launch and removes most of the 2 ms.",
        ),
    },
    Exercise {
        id: "cuda-shared-memory-scope",
        answer: choice(&["thread", "block", "grid", "host"], "block"),
        zh: pick(
            "CUDA 的共享内存（__shared__）在哪个范围内共享？",
            &["一个线程内", "同一个 block 的线程之间", "整个 grid 的所有线程", "CPU 与 GPU 之间"],
            "它位于 SM 上，随 block 的调度而分配。",
            "同一个 block 的线程之间。共享内存在 SM 上，block 被调度到哪个 SM 就在哪里分配，block 结束就释放；不同 block 之间通常要通过全局显存交换数据（Hopper 起，同一线程块簇里的 block 还能读写彼此的共享内存，即分布式共享内存）。",
        ),
        en: pick(
            "Among which threads is CUDA shared memory (__shared__) shared?",
            &["Within one thread", "Among the threads of one block", "Among all threads of the grid", "Between CPU and GPU"],
            "It lives on the SM and is allocated when a block is scheduled there.",
            "Among the threads of one block. Shared memory is on the SM the block runs on, allocated when the block starts and freed when it ends; different blocks usually exchange data through global memory (since Hopper, the blocks of one thread block cluster can also reach each other's shared memory: distributed shared memory).",
        ),
    },
    Exercise {
        id: "cuda-occupancy-registers",
        answer: choice(&["16", "32", "48", "64"], "16"),
        zh: pick(
            "一个 kernel 每块 128 个线程，每个线程用 128 个寄存器，运行在 H100 上（每个 SM 有 65,536 个寄存器，最多 64 个 warp、32 个线程块；这个 kernel 不用共享内存）。一个 SM 上最多能驻留多少个 warp？",
            &["16 个（占用率 25%）", "32 个（50%）", "48 个（75%）", "64 个（100%）"],
            "每块寄存器数 = 线程数 × 每线程寄存器数；能放的块数 = 65,536 ÷ 每块寄存器数；warp 数 = 块数 × 每块线程数 ÷ 32。再和 warp 上限、块数上限比一比。",
            "128 × 128 = 16,384 个寄存器一块，65,536 ÷ 16,384 = 4 个块，每块 128 ÷ 32 = 4 个 warp：共 16 个 warp，占用率 25%。warp 上限（64 ÷ 4 = 16 个块）和块数上限（32）都没碰到，是寄存器说了算。每个线程的寄存器减到 64 个，驻留的 warp 就翻倍到 32 个，前提是编译器不必因此把寄存器溢出到本地内存。",
        ),
        en: pick(
            "A kernel runs 128 threads per block and uses 128 registers per thread on an H100 (65,536 registers, at most 64 warps and 32 blocks per SM; the kernel uses no shared memory). How many warps can be resident on one SM?",
            &["16 (25% occupancy)", "32 (50%)", "48 (75%)", "64 (100%)"],
            "Registers per block = threads × registers per thread; blocks that fit = 65,536 ÷ registers per block; warps = blocks × threads per block ÷ 32. Then compare with the warp and block limits.",
            "128 × 128 = 16,384 registers per block, so 65,536 ÷ 16,384 = 4 blocks fit, each of 128 ÷ 32 = 4 warps: 16 warps, 25% occupancy. Neither the warp limit (64 ÷ 4 = 16 blocks) nor the block limit (32) is reached; the registers decide. At 64 registers per thread the resident warps double to 32, provided the compiler need not spill registers to local memory for it.",
        ),
    },
];

const GEMM_8192: f64 = 2.0 * 8192.0 * 8192.0 * 8192.0;

pub static TENSOR_CORES: &[Exercise] = &[
    Exercise {
        id: "tc-gemm-a100-bf16",
        answer: engine(Calc::ComputeTime { gpu: "a100-sxm-80gb", dtype: BF16, flops: GEMM_8192 }, 1e3, 2, 0.02),
        zh: num(
            "A100 上一个 M = N = K = 8192 的 BF16 矩阵乘，在稠密 Tensor Core 峰值（312 TFLOPS）下要多少毫秒？",
            "ms",
            "矩阵乘的运算量是 2 × M × N × K。",
            "2 × 8192³ ≈ 1.10e12 FLOP，÷ 312e12 ≈ {key} ms。实际 kernel 大约能到峰值的 80%（实测 A100 FP16 GEMM 256.5 TFLOPS）。",
        ),
        en: num(
            "A BF16 GEMM with M = N = K = 8192 runs on an A100. How many milliseconds does it take at the dense Tensor Core peak (312 TFLOPS)?",
            "ms",
            "A matrix multiply does 2 × M × N × K FLOPs.",
            "2 × 8192³ ≈ 1.10e12 FLOP ÷ 312e12 ≈ {key} ms. Real kernels reach about 80% of peak (a measured A100 FP16 GEMM reached 256.5 TFLOPS).",
        ),
    },
    Exercise {
        id: "tc-gemm-a100-tf32",
        answer: engine(
            Calc::ComputeTime { gpu: "a100-sxm-80gb", dtype: ComputeDtype::Tf32, flops: GEMM_8192 },
            1e3,
            2,
            0.02,
        ),
        zh: num(
            "同一个 8192³ 的矩阵乘改用 TF32 Tensor Core（A100 稠密 156 TFLOPS），要多少毫秒？",
            "ms",
            "运算量不变，只是峰值减半。",
            "1.10e12 ÷ 156e12 ≈ {key} ms，是 BF16 的两倍。若落到普通 FP32 单元（19.5 TFLOPS）上约 56 ms，是 TF32 的 8 倍、BF16 的 16 倍。",
        ),
        en: num(
            "The same 8192³ GEMM on the TF32 Tensor Core path (A100 dense 156 TFLOPS): how many milliseconds?",
            "ms",
            "Same FLOPs, half the peak.",
            "1.10e12 ÷ 156e12 ≈ {key} ms, twice the BF16 time. On the plain FP32 units (19.5 TFLOPS) it would take about 56 ms: 8 times the TF32 time, 16 times the BF16 time.",
        ),
    },
    Exercise {
        id: "tc-amdahl-bf16",
        answer: choice(&["50", "70", "80", "100"], "70"),
        zh: pick(
            "一个训练步 100 ms，其中 60 ms 是 TF32 矩阵乘。把这些矩阵乘换成 BF16 使其速度翻倍，其余不变。新的步时是多少？",
            &["50 ms", "70 ms", "80 ms", "100 ms"],
            "只有 60 ms 那部分变快了。",
            "60 / 2 + 40 = 70 ms，整体加速 100 / 70 ≈ 1.43 倍。矩阵乘之外的 40 ms（归一化、逐元素运算、数据加载、通信）不变，所以到不了 2 倍。",
        ),
        en: pick(
            "A training step takes 100 ms, 60 ms of it TF32 matrix multiplication. Switching those matmuls to BF16 doubles their speed and changes nothing else. What is the new step time?",
            &["50 ms", "70 ms", "80 ms", "100 ms"],
            "Only the 60 ms part gets faster.",
            "60 / 2 + 40 = 70 ms, a speed-up of 100 / 70 ≈ 1.43×. The 40 ms outside the matmuls (normalizations, element-wise ops, data loading, communication) is untouched, so the step cannot reach 2×.",
        ),
    },
    Exercise {
        id: "tc-fp16-overflow",
        answer: choice(&["exact", "rounded", "inf", "zero"], "inf"),
        zh: pick(
            "训练中出现一个激活值 70,000。在 FP16 中它会变成什么？",
            &["精确表示", "舍入为最近的可表示值", "溢出为无穷大", "下溢为 0"],
            "FP16 最大的有限值是多少？",
            "FP16 最大有限值是 65,504；按就近舍入，大于等于 65,520 的值都舍入为正无穷，所以 70,000 溢出为无穷大。BF16 能表示它，但只有 8 位有效位，最近的值是 70,144；FP8 E4M3 最大只有 448，而且没有无穷大：不缩放时，溢出按转换方式不同要么得到非数值，要么饱和为 448，所以 FP8 方案要先除以缩放因子。",
        ),
        en: pick(
            "An activation value of 70,000 appears during training. What becomes of it in FP16?",
            &["It is exact", "It is rounded to the nearest representable value", "It overflows to infinity", "It underflows to zero"],
            "What is FP16's largest finite value?",
            "FP16's largest finite value is 65,504; under round-to-nearest every value from 65,520 up rounds to +inf, so 70,000 overflows to infinity. BF16 represents it, but with 8 significant bits the nearest value is 70,144; FP8 E4M3 tops out at 448 and has no infinity: an overflow gives a not-a-number value or saturates to 448, depending on the conversion, so FP8 recipes divide tensors by a scale first.",
        ),
    },
];
