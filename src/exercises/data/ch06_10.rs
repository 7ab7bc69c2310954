//! Chapters 6 to 10: spec sheets, NVLink, MIG, cloud GPUs, training / fine-tuning / inference.

use super::{choice, engine, num, pick, report, BF16};
use crate::exercises::{Calc, Exercise};

const L2_13B_L40S: &str =
    r#"{"model": "llama-2-13b", "weight_dtype": "fp16", "batch": 1, "context_tokens": 512, "gpu": "l40s"}"#;
const L2_13B_A100: &str = r#"{"model": "llama-2-13b", "weight_dtype": "fp16", "batch": 1, "context_tokens": 512, "gpu": "a100-sxm-80gb"}"#;

pub static READING_SPEC_SHEETS: &[Exercise] = &[
    Exercise {
        id: "spec-1e15-at-60pct",
        answer: engine(Calc::ComputeTime { gpu: "h100-sxm", dtype: BF16, flops: 1e15 }, 1.0 / 0.6, 2, 0.02),
        zh: num(
            "规格表把 H100 SXM 写成“1,979 TFLOPS FP16 Tensor*”，星号表示稀疏。一个 1e15 FLOP 的任务若达到稠密峰值的 60%，要多少秒？",
            "s",
            "稠密峰值是稀疏数字的一半；时间 = FLOP ÷ (0.6 × 稠密峰值)。",
            "稠密峰值 989.5 TFLOPS，1e15 ÷ (0.6 × 989.5e12) ≈ {key} s。误用稀疏数字会预测出一半的时间。",
        ),
        en: num(
            "A sheet lists an H100 SXM at \"1,979 TFLOPS FP16 Tensor*\", the asterisk meaning sparsity. How many seconds does a 1e15-FLOP job take if it achieves 60% of the dense peak?",
            "s",
            "Dense is half the sparse figure; time = FLOPs ÷ (0.6 × dense peak).",
            "The dense peak is 989.5 TFLOPS, so 1e15 ÷ (0.6 × 989.5e12) ≈ {key} s. Using the sparse figure by mistake would predict half that time.",
        ),
    },
    Exercise {
        id: "spec-13b-l40s-decode",
        answer: report(L2_13B_L40S, "phases.decode.tokens_per_s_bound", 1.0, 0, 0.03),
        zh: num(
            "13B 模型（Llama-2-13B）以 FP16 权重、批大小 1 在 L40S（864 GB/s）上解码，上下文 512。每生成一个 token 把全部权重读一遍（512 个 token 的 KV cache 很小，可以不计）。每秒最多多少 token？",
            "token/s",
            "权重约 26 GB，每个 token 读一遍：时间 = 字节 ÷ 带宽。",
            "权重 {r:memory_per_gpu_bytes.weights:1e-9:1} GB，÷ 864 GB/s，上限约 {key} token/s。L40S 的稠密 BF16 峰值（362 TFLOPS）比 A100 还高，但解码看的是带宽。",
        ),
        en: num(
            "A 13B model (Llama-2-13B) decodes at batch 1 with FP16 weights on an L40S (864 GB/s), 512-token context. Each generated token reads all the weights once (the KV cache of 512 tokens is small enough to leave out). What is the tokens-per-second bound?",
            "tokens/s",
            "The weights are about 26 GB, read once per token: time = bytes ÷ bandwidth.",
            "{r:memory_per_gpu_bytes.weights:1e-9:1} GB of weights ÷ 864 GB/s gives a bound of about {key} tokens/s. The L40S has a higher dense BF16 peak (362 TFLOPS) than the A100, but decoding is about bandwidth.",
        ),
    },
    Exercise {
        id: "spec-13b-a100-decode",
        answer: report(L2_13B_A100, "phases.decode.tokens_per_s_bound", 1.0, 0, 0.03),
        zh: num(
            "同一个 13B 模型在 A100 80GB SXM（2,039 GB/s）上，同样每个 token 读一遍全部 FP16 权重，批大小 1 的解码上限是多少 token/s？",
            "token/s",
            "同样的字节数，换成 A100 的带宽。",
            "{r:memory_per_gpu_bytes.weights:1e-9:1} GB ÷ 2,039 GB/s，上限约 {key} token/s，而 L40S 只有 {x:spec-13b-l40s-decode} token/s，尽管 A100 的 BF16 峰值更低（312 对 362 TFLOPS）。",
        ),
        en: num(
            "The same 13B model on an A100 80GB SXM (2,039 GB/s), again reading all its FP16 weights once per token: what is the batch-1 decode bound in tokens per second?",
            "tokens/s",
            "Same bytes, the A100's bandwidth.",
            "{r:memory_per_gpu_bytes.weights:1e-9:1} GB ÷ 2,039 GB/s gives about {key} tokens/s, against {x:spec-13b-l40s-decode} tokens/s on the L40S, although the A100's BF16 peak is lower (312 vs 362 TFLOPS).",
        ),
    },
    Exercise {
        id: "spec-mfu-sparse",
        answer: choice(&["20", "40", "60", "81"], "40"),
        zh: pick(
            "一次训练报告每张 H100 达到 400 TFLOPS（BF16）。相对稠密峰值 989.5 TFLOPS，MFU 约是多少？",
            &["约 20%", "约 40%", "约 60%", "约 81%"],
            "MFU = 实际算力 ÷ 稠密峰值，不是稀疏峰值。",
            "400 ÷ 989.5 ≈ 40%。若拿稀疏的 1,979 去除，会得到约 20%，把一次很好的训练说成很差。",
        ),
        en: pick(
            "A training run reports 400 TFLOPS per H100 in BF16. Against the dense peak of 989.5 TFLOPS, what is the MFU?",
            &["About 20%", "About 40%", "About 60%", "About 81%"],
            "MFU = achieved ÷ dense peak, not the sparse one.",
            "400 ÷ 989.5 ≈ 40%. Dividing by the sparse 1,979 would give about 20%, making a very good run look poor.",
        ),
    },
];

pub static NVLINK: &[Exercise] = &[
    Exercise {
        id: "nvlink-7b-grad-allreduce",
        answer: engine(Calc::AllReduce { bytes: 13.5e9, ranks: 8, bus_bytes_per_s: 231.58e9 }, 1e3, 0, 0.02),
        zh: num(
            "在 8 张带 NVSwitch 的 A100 SXM 上数据并行训练 Llama-2-7B，BF16 梯度 13.5 GB。实测 all-reduce busbw 为 231.58 GB/s，每步梯度 all-reduce 要多少毫秒（不计与反向传播的重叠）？",
            "ms",
            "环形 all-reduce 每张卡的流量是 2 × (n−1)/n × 数据量，除以 busbw。",
            "2 × 7/8 × 13.5 GB ≈ 23.6 GB，÷ 231.58 GB/s ≈ {key} ms。",
        ),
        en: num(
            "Data-parallel training of Llama-2-7B (13.5 GB of BF16 gradients) on 8 A100 SXM with NVSwitch. With a measured all-reduce busbw of 231.58 GB/s, how many milliseconds does the gradient all-reduce take per step (before any overlap with the backward pass)?",
            "ms",
            "A ring all-reduce moves 2 × (n−1)/n × the data per GPU; divide by busbw.",
            "2 × 7/8 × 13.5 GB ≈ 23.6 GB ÷ 231.58 GB/s ≈ {key} ms.",
        ),
    },
    Exercise {
        id: "nvlink-70b-tp8-prefill",
        answer: engine(
            Calc::AllReduce { bytes: 4096.0 * 8192.0 * 2.0, ranks: 8, bus_bytes_per_s: 370e9 },
            160e3,
            0,
            0.02,
        ),
        zh: num(
            "Llama-3-70B（hidden 8,192，80 层）在 H100 SXM 上做 8 路张量并行。4,096 token 的预填充每层对 BF16 激活做两次 all-reduce。按环形算法（NCCL_ALGO=Ring）实测的 370 GB/s busbw，预填充的通信一共多少毫秒？",
            "ms",
            "一个激活张量 4,096 × 8,192 × 2 B；每次 all-reduce 每卡发送 2 × 7/8 倍；共 80 × 2 次。",
            "一个张量约 67.1 MB，每次 all-reduce 每卡约 117 MB，160 次共约 18.8 GB，÷ 370 GB/s ≈ {key} ms。",
        ),
        en: num(
            "Llama-3-70B (hidden size 8,192, 80 layers) runs with tensor parallelism 8 on H100 SXM. A 4,096-token prefill does two all-reduces of the BF16 activations per layer. At the 370 GB/s busbw measured with the ring algorithm (NCCL_ALGO=Ring), how many milliseconds of communication does the prefill take?",
            "ms",
            "One activation tensor is 4,096 × 8,192 × 2 B; each all-reduce sends 2 × 7/8 of it per GPU; there are 80 × 2 of them.",
            "One tensor is about 67.1 MB, each all-reduce sends about 117 MB per GPU, 160 of them about 18.8 GB, ÷ 370 GB/s ≈ {key} ms.",
        ),
    },
    Exercise {
        id: "nvlink-70b-tp8-weights",
        answer: report(
            r#"{"model": "llama-3.1-70b", "gpus": 8, "tensor_parallel": 8, "gpu": "h100-sxm"}"#,
            "memory_per_gpu_bytes.weights",
            1e-9,
            1,
            0.02,
        ),
        zh: num(
            "Llama-3.1-70B（706 亿参数）以 BF16 做 8 路张量并行，分在 8 张 H100 SXM 上。每张 GPU 上的权重多少 GB？",
            "GB",
            "张量并行把每层的矩阵切成 8 份；嵌入层和输出层也被切分。",
            "全部权重约 141 GB，每卡约 {key} GB，给 KV cache 留出了大半张卡。代价是每层两次 all-reduce，这正是它需要 NVLink 的原因。",
        ),
        en: num(
            "Llama-3.1-70B (70.6 billion parameters) in BF16 runs with tensor parallelism 8 over 8 H100 SXM. How many GB of weights does each GPU hold?",
            "GB",
            "Tensor parallelism splits every layer's matrices eight ways; the embeddings and output layer are split too.",
            "The whole model is about 141 GB, about {key} GB per GPU, leaving most of each card for KV cache. The price is two all-reduces per layer, which is why it wants NVLink.",
        ),
    },
    Exercise {
        id: "nvlink-nvls-busbw",
        answer: choice(&["line", "reduce", "error", "sparse"], "reduce"),
        zh: pick(
            "8 张 H100 SXM 上 all_reduce_perf 不开 NVLS 时 busbw 约 370 GB/s（NVLink 4 单向 450 GB/s 的 82%），开 NVLS 后约 480 GB/s。为什么能超过线速？",
            &["NVLS 提高了链路速率", "NVSwitch 自己做归约，每卡发送的数据少于环形公式的假设", "测量误差", "用了稀疏数据"],
            "busbw 是用 2(n−1)/n 这个环形公式从 algbw 换算出来的。",
            "NVLS 让 NVSwitch 在交换机里做归约，每张 GPU 实际发送的数据比环形算法少；busbw 仍按 2(n−1)/n 换算，所以能超过链路速率。这时应改为比较 algbw。",
        ),
        en: pick(
            "On 8 H100 SXM, all_reduce_perf shows about 370 GB/s busbw without NVLS (82% of NVLink 4's 450 GB/s per direction) and about 480 GB/s with NVLS. How can the second exceed the line rate?",
            &["NVLS raises the link rate", "The NVSwitch does the reduction, so each GPU sends less than the ring formula assumes", "Measurement error", "It uses sparse data"],
            "busbw is converted from algbw with the ring factor 2(n−1)/n.",
            "With NVLS the NVSwitch reduces in the switch, so each GPU sends less than a ring would; busbw is still computed with 2(n−1)/n, so it can exceed the link rate. Compare algbw instead in that case.",
        ),
    },
];

const L31_8B_INT4_10GB: &str = r#"{"model": "llama-3.1-8b", "weight_dtype": "int4", "gpu": "h100-sxm", "gpu_memory_bytes": 10000000000, "context_tokens": 4096}"#;

pub static MIG: &[Exercise] = &[
    Exercise {
        id: "mig-1g10gb-sms",
        answer: choice(&["14", "16", "18", "19"], "16"),
        zh: pick(
            "一张 H100 SXM 80GB 切成 7 个 1g.10gb 实例。每个实例有多少个 SM？",
            &["14", "16", "18", "19"],
            "H100 SXM 有 132 个 SM，但 MIG 的每种规格都有固定的 SM 数（本章列出了 Hopper 各规格的数），并不是 132 ÷ 7。",
            "每个 1g 实例 16 个 SM（7 × 16 = 112，其余 SM 不分给实例）。显存约 10 GB，带宽约为整卡的八分之一。",
        ),
        en: pick(
            "An H100 SXM 80GB is split into seven 1g.10gb instances. How many SMs does each get?",
            &["14", "16", "18", "19"],
            "The H100 SXM has 132 SMs, but each MIG profile has a fixed SM count (the chapter lists Hopper's), not 132 ÷ 7.",
            "16 SMs per 1g instance (7 × 16 = 112; the rest are not given to instances). Each has about 10 GB of memory and roughly an eighth of the bandwidth.",
        ),
    },
    Exercise {
        id: "mig-8b-int4-10gb-requests",
        answer: report(L31_8B_INT4_10GB, "solvers.max_batch", 1.0, 0, 0.0),
        zh: num(
            "4 bit 的 Llama-3.1-8B（连同 16 位的嵌入层，权重约 5.73 GB，下一题会算出来）放在 10 GB 的 1g.10gb 实例上，KV cache 用 BF16，每 token 128 KiB。按引擎的默认假设：留 10% 余量、1 GiB 运行时开销，再为预填充 prompt 预留 0.70 GB 激活（两个及以上请求时，每次预填充 8,192 个 token）。能同时服务几个 4,096 token 的请求？显存容量按厂商标称的 GB 计：1 GB = 10⁹ 字节。",
            "个请求",
            "剩余 = 10 GB × 0.9 − 权重 − 1 GiB − 激活；每个请求的 KV 是 4,096 × 128 KiB，向下取整。",
            "可用 {r:usable_gpu_memory_bytes:1e-9:1} GB，减去权重 {r:memory_per_gpu_bytes.weights:1e-9:2} GB、开销 1.07 GB 和激活 0.70 GB，剩约 1.49 GB；每个 4,096 token 的请求需要约 0.54 GB KV cache，所以能放 {key} 个请求。",
        ),
        en: num(
            "Llama-3.1-8B in 4-bit (about 5.73 GB of weights with its 16-bit embeddings, as the next exercise works out) runs on a 10 GB 1g.10gb instance with a BF16 KV cache of 128 KiB per token. With the engine's defaults (10% of memory kept free, 1 GiB of runtime overhead, and, for two or more requests, 0.70 GB of activations for prefilling 8,192 prompt tokens at a time), how many concurrent 4,096-token requests fit? GPU memory counts the vendor's GB: 1 GB = 10⁹ bytes.",
            "requests",
            "Left = 10 GB × 0.9 − weights − 1 GiB − activations; each request holds 4,096 × 128 KiB of KV; round down.",
            "Of {r:usable_gpu_memory_bytes:1e-9:1} GB usable, the weights take {r:memory_per_gpu_bytes.weights:1e-9:2} GB, the overhead 1.07 GB and the activations 0.70 GB, leaving about 1.49 GB; each 4,096-token request needs about 0.54 GB of KV cache, so {key} requests fit.",
        ),
    },
    Exercise {
        id: "mig-8b-int4-weights",
        answer: report(L31_8B_INT4_10GB, "memory_per_gpu_bytes.weights", 1e-9, 2, 0.02),
        zh: num(
            "Llama-3.1-8B 有 80.3 亿参数，其中嵌入层和输出层各为 128,256 × 4,096。用 4 bit 量化：其余线性层每个权重 4 bit，每 128 个权重再配一个 16 位缩放因子和一个 4 位零点；嵌入和输出层保持 16 位。权重一共多少 GB？",
            "GB",
            "不是简单的 8.03e9 × 0.5：嵌入层和输出层各约 5.25 亿参数、每个 2 字节；其余参数每个 (4 + 20/128) bit。",
            "嵌入和输出层 2 × 5.25 亿 × 2 B ≈ 2.10 GB；其余约 69.8 亿参数 × 4.156 bit ÷ 8 ≈ 3.63 GB；合计约 {key} GB，比“参数 × 0.5 字节”的 4 GB 多出不少。",
        ),
        en: num(
            "Llama-3.1-8B has 8.03 billion parameters, of which the embedding and the output layer are 128,256 × 4,096 each. Quantized to 4 bits, the other linear layers store 4 bits per weight plus a 16-bit scale and a 4-bit zero point per group of 128 weights; the embedding and output layer stay in 16-bit. How many GB of weights?",
            "GB",
            "Not simply 8.03e9 × 0.5: the embedding and the output layer are about 525 million parameters each at 2 bytes; the rest take (4 + 20/128) bits each.",
            "Embedding and output layer: 2 × 525 million × 2 B ≈ 2.10 GB; the other 6.98 billion parameters × 4.156 bits ÷ 8 ≈ 3.63 GB; about {key} GB in all, well above the 4 GB of \"parameters × 0.5 bytes\".",
        ),
    },
    Exercise {
        id: "mig-a100-layout",
        answer: choice(&["yes", "no"], "no"),
        zh: pick(
            "一张 A100 80GB 能同时放一个 4g.40gb 和两个 2g.20gb 实例吗？",
            &["能", "不能"],
            "数一数计算切片：A100 一共 7 个。",
            "不能。需要 4 + 2 + 2 = 8 个计算切片，而 GPU 只有 7 个。保留 4g.40gb 的合法布局有 4g.40gb + 2g.20gb + 1g.10gb，或 4g.40gb + 3 × 1g.10gb。",
        ),
        en: pick(
            "Can an A100 80GB host one 4g.40gb and two 2g.20gb instances at the same time?",
            &["Yes", "No"],
            "Count compute slices: the A100 has 7.",
            "No. They would need 4 + 2 + 2 = 8 compute slices, but the GPU has 7. Valid layouts that keep the 4g.40gb include 4g.40gb + 2g.20gb + 1g.10gb, or 4g.40gb + 3 × 1g.10gb.",
        ),
    },
];

pub static CLOUD_GPUS: &[Exercise] = &[
    Exercise {
        id: "cloud-l4-8k-requests",
        answer: report(r#"{"model": "llama-3.1-8b", "context_tokens": 8192, "gpu": "l4"}"#, "solvers.max_batch", 1.0, 0, 0.0),
        zh: num(
            "Llama-3.1-8B（80.3 亿参数，BF16 权重，每 token 128 KiB 的 BF16 KV cache）放在一张 L4 24 GB（GCP g2-standard-4）上，服务需要同时处理 16 个请求。按引擎的默认假设：留 10% 余量、1 GiB 运行时开销，再为预填充预留 0.70 GB 激活（每次 8,192 个 prompt token）。最多同时服务几个 8,192 token 的请求？显存容量按厂商标称的 GB 计：1 GB = 10⁹ 字节。",
            "个请求",
            "剩余 = 24 GB × 0.9 − 16.06 GB 权重 − 1 GiB − 激活；每个请求 8,192 × 128 KiB ≈ 1.07 GB KV，向下取整。",
            "权重 {r:memory_per_gpu_bytes.weights:1e-9:2} GB，可用 {r:usable_gpu_memory_bytes:1e-9:1} GB，每请求 KV 约 1.07 GB，只能放 {key} 个。要 16 个并发就需要更大的卡，比如 Azure NC24ads A100 v4 的 80 GB A100。",
        ),
        en: num(
            "Llama-3.1-8B (8.03 billion parameters, BF16 weights, 128 KiB of BF16 KV cache per token) on a single L4 24 GB (GCP g2-standard-4), for a service that must handle 16 concurrent requests. With the engine's defaults (10% of memory kept free, 1 GiB of runtime overhead, 0.70 GB of activations for prefilling 8,192 prompt tokens at a time), how many concurrent 8,192-token requests fit? GPU memory counts the vendor's GB: 1 GB = 10⁹ bytes.",
            "requests",
            "Left = 24 GB × 0.9 − 16.06 GB of weights − 1 GiB − activations; 8,192 × 128 KiB ≈ 1.07 GB of KV per request; round down.",
            "The weights take {r:memory_per_gpu_bytes.weights:1e-9:2} GB of {r:usable_gpu_memory_bytes:1e-9:1} GB usable and each request needs about 1.07 GB of KV, so only {key} fit. For 16 concurrent requests you need a bigger card, such as the 80 GB A100 of Azure NC24ads A100 v4.",
        ),
    },
    Exercise {
        id: "cloud-a100-8k-requests",
        answer: report(
            r#"{"model": "llama-3.1-8b", "context_tokens": 8192, "gpu": "a100-pcie-80gb"}"#,
            "solvers.max_batch",
            1.0,
            0,
            0.0,
        ),
        zh: num(
            "同样的服务（80.3 亿个 BF16 参数，每 token 128 KiB KV，留 10% 余量、1 GiB 开销、0.70 GB 激活）放在 A100 80GB PCIe（Azure NC24ads A100 v4）上，最多能同时服务几个 8,192 token 的请求？显存容量按厂商标称的 GB 计：1 GB = 10⁹ 字节。",
            "个请求",
            "可用显存变成 72 GB，其余不变。",
            "可用 {r:usable_gpu_memory_bytes:1e-9:0} GB，扣掉权重、开销和激活后能放 {key} 个 8K 请求，需要的 16 个绰绰有余。",
        ),
        en: num(
            "The same service (8.03 billion BF16 parameters, 128 KiB of KV per token, 10% margin, 1 GiB of overhead, 0.70 GB of activations) on an A100 80GB PCIe (Azure NC24ads A100 v4): how many concurrent 8,192-token requests fit? GPU memory counts the vendor's GB: 1 GB = 10⁹ bytes.",
            "requests",
            "Usable memory is now 72 GB; the rest is unchanged.",
            "With {r:usable_gpu_memory_bytes:1e-9:0} GB usable, after weights, overhead and activations {key} requests of 8K fit, far more than the 16 needed.",
        ),
    },
    Exercise {
        id: "cloud-idle-weekend",
        answer: choice(&["1321", "3468", "4623", "9246"], "3468"),
        zh: pick(
            "有人让一台 p5.48xlarge 从周五 18:00 空转到周一 09:00。按快照价格每小时 $55.04（us-east-1，2026-11-09），这个周末花了多少钱？",
            &["约 $1,321", "约 $3,468", "约 $4,623", "约 $9,246"],
            "先数小时：周五 18:00 到周一 09:00。",
            "共 63 小时，63 × $55.04 = $3,467.52，什么也没干。这就是空闲自动关机的理由。",
        ),
        en: pick(
            "Someone leaves a p5.48xlarge idle from Friday 18:00 to Monday 09:00. At the snapshot price of $55.04 per hour (us-east-1, 2026-11-09), what does the weekend cost?",
            &["About $1,321", "About $3,468", "About $4,623", "About $9,246"],
            "Count the hours first: Friday 18:00 to Monday 09:00.",
            "63 hours × $55.04 = $3,467.52 for no work at all: the case for automatic shutdown on idle.",
        ),
    },
    Exercise {
        id: "cloud-price-per-gpu-hour",
        answer: choice(&["p5", "a3"], "p5"),
        zh: pick(
            "按表中快照，p5.48xlarge 每小时 $55.04（2026-11-09），a3-highgpu-8g 每小时 $88.49（2025-03-06，早了 20 个月，这里没有更新的 GCP 价格来源），都是 8 张 H100。哪个每 GPU 小时更便宜？",
            &["p5.48xlarge（约 $6.88）", "a3-highgpu-8g（约 $11.06）"],
            "除以 8。",
            "p5.48xlarge：55.04 / 8 = $6.88；a3-highgpu-8g：88.49 / 8 ≈ $11.06。但直接比较并不公平：快照日期（2026-11-09 对 2025-03-06）和地区不同，网络（3,200 对 1,000 Gbps）、CPU、内存和本地盘也不同，折扣和承诺用量都没算；拿不到配额或利用率低时，便宜的单价也不等于便宜的结果。",
        ),
        en: pick(
            "In the table's snapshots, p5.48xlarge costs $55.04 per hour (2026-11-09) and a3-highgpu-8g $88.49 (2025-03-06, 20 months older: no newer GCP price source is cited here), both with 8 H100s. Which is cheaper per GPU-hour?",
            &["p5.48xlarge (about $6.88)", "a3-highgpu-8g (about $11.06)"],
            "Divide by 8.",
            "p5.48xlarge: 55.04 / 8 = $6.88; a3-highgpu-8g: 88.49 / 8 ≈ $11.06. The raw comparison is unfair, though: the snapshots differ in date (2026-11-09 vs 2025-03-06) and region, the instances differ in network (3,200 vs 1,000 Gbps), CPU, RAM and disk, and discounts are not included; without quota, or at low utilisation, a lower rate is not a cheaper result.",
        ),
    },
];

const L31_8B_TRAIN_Z3: &str =
    r#"{"model": "llama-3.1-8b", "mode": "training", "gpu": "h100-sxm", "zero_stage": 3}"#;

pub static TRAINING: &[Exercise] = &[
    Exercise {
        id: "train-8b-optimizer",
        answer: report(
            r#"{"model": "llama-3.1-8b", "mode": "training", "gpu": "h100-sxm"}"#,
            "memory_per_gpu_bytes.optimizer",
            1e-9,
            1,
            0.02,
        ),
        zh: num(
            "全量微调 Llama-3.1-8B（80.3 亿参数），混合精度 Adam。单卡时优化器状态（FP32 主权重和两个矩，12 字节/参数）占多少 GB？",
            "GB",
            "参数 × 12 字节。",
            "8.03e9 × 12 B ≈ {key} GB；加上 BF16 权重 {r:memory_per_gpu_bytes.weights:1e-9:1} GB 和梯度 {r:memory_per_gpu_bytes.gradients:1e-9:1} GB，模型状态约 {r:params.total:16e-9:1} GB，一张 80 GB 的卡放不下。",
        ),
        en: num(
            "A full fine-tune of Llama-3.1-8B (8.03 billion parameters) with mixed-precision Adam: on one GPU, how many GB do the optimizer states (FP32 master weights and two moments, 12 bytes per parameter) take?",
            "GB",
            "Parameters × 12 bytes.",
            "8.03e9 × 12 B ≈ {key} GB; with {r:memory_per_gpu_bytes.weights:1e-9:1} GB of BF16 weights and {r:memory_per_gpu_bytes.gradients:1e-9:1} GB of gradients the model states are about {r:params.total:16e-9:1} GB, too much for one 80 GB GPU.",
        ),
    },
    Exercise {
        id: "train-8b-zero3-min-gpus",
        answer: report(L31_8B_TRAIN_Z3, "solvers.min_gpus.gpus", 1.0, 0, 0.0),
        zh: num(
            "同样的全量微调（80.3 亿参数，权重、梯度和 Adam 状态合计每参数 16 字节），用 ZeRO-3（FSDP 全切分）把全部模型状态均分到多张 H100 80GB 上。每张卡另有 22.0 GB 激活（序列长度 4,096、每卡微批 1、不做重计算）、5.25 GB logits 和 1 GiB 运行时开销，并留出 80 GB 的 10% 不用。最少要几张卡？",
            "张 GPU",
            "每卡：8.03e9 × 16 B ÷ n + 22.0 + 5.25 + 1.07 GB，必须放进 72 GB。",
            "留给模型状态的空间是 72 − {r:memory_per_gpu_bytes.activations:1e-9:1} − {r:memory_per_gpu_bytes.logits:1e-9:2} − 1.07 ≈ 43.7 GB；{r:params.total:16e-9:1} GB ÷ 43.7 GB ≈ 2.9，向上取整为 {key} 张。只看模型状态（{r:params.total:16e-9:1} ÷ 72 ≈ 1.8）会以为 2 张就够，但 2 张时每卡要 64.2 + 28.3 ≈ 92.5 GB。这个算法忽略了 FSDP 的全收集（all-gather）缓冲区（仅输出层在 BF16 下就约 {r:params.embedding:2e-9:2} GB）：算上它们，估算器里 ZeRO-3 用 3 张卡时每卡略超 72 GB，所以实际用 ZeRO-3 需要 4 张。估算器给出的最少 {key} 张还会尝试别的切分方式，它靠的是改用 3 段流水并行。",
        ),
        en: num(
            "The same full fine-tune (8.03 billion parameters, 16 bytes per parameter for weights, gradients and Adam states together) with ZeRO stage 3 (FSDP full shard) spreads all model states evenly over H100 80GB GPUs. Each GPU also holds 22.0 GB of activations (sequence length 4,096, micro-batch 1, nothing recomputed), 5.25 GB of logits and 1 GiB of runtime overhead, and keeps 10% of its 80 GB free. What is the fewest GPUs?",
            "GPUs",
            "Per GPU: 8.03e9 × 16 B ÷ n + 22.0 + 5.25 + 1.07 GB must fit in 72 GB.",
            "The room left for model states is 72 − {r:memory_per_gpu_bytes.activations:1e-9:1} − {r:memory_per_gpu_bytes.logits:1e-9:2} − 1.07 ≈ 43.7 GB; {r:params.total:16e-9:1} GB ÷ 43.7 GB ≈ 2.9, rounded up to {key} GPUs. The model states alone ({r:params.total:16e-9:1} ÷ 72 ≈ 1.8) suggest 2, but on 2 GPUs each would need 64.2 + 28.3 ≈ 92.5 GB. This ignores FSDP's all-gather buffers (the output layer's alone is about {r:params.embedding:2e-9:2} GB in BF16): with them, 3 GPUs under ZeRO-3 come out just over the 72 GB in the estimator, so in practice ZeRO-3 needs 4. The estimator's fewest-GPUs answer of {key} also tries other layouts and gets there with a 3-stage pipeline instead.",
        ),
    },
    Exercise {
        id: "train-70b-qlora-base",
        answer: report(
            r#"{"model": "llama-3.1-70b", "mode": "qlora", "lora_rank": 16}"#,
            "memory_per_gpu_bytes.weights",
            1e-9,
            1,
            0.02,
        ),
        zh: num(
            "用 QLoRA 微调 Llama-3.1-70B：线性层的 684.5 亿个参数以双重量化的 NF4 存储（每参数 4.127 bit），嵌入层和输出层的 21.0 亿个参数保持 BF16，每层七个线性模块上的秩 16 适配器另有 2.071 亿个 FP32 参数。GPU 上的权重（冻结底座加适配器）共占多少 GB？",
            "GB",
            "线性层 684.5 亿 × 4.127 / 8 字节；BF16 参数每个 2 字节，适配器参数每个 4 字节。",
            "684.5 亿 × 4.127 / 8 ≈ 35.31 GB，加上 21.0 亿 × 2 ≈ 4.20 GB 和 2.071 亿 × 4 ≈ 0.83 GB，约 {key} GB。权重能放进一张 48 GB 的卡，余下 48 − {key} GB；其余部分（适配器的梯度和优化器状态、激活）只有在激活检查点加较短序列时才放得下，QLoRA 论文在一张 48 GB 卡上微调 65B 就是这样做的。按这个场景的 4,096 token、不做重计算，估算器算出仅激活就要 {r:memory_per_gpu_bytes.activations:1e-9:0} GB。",
        ),
        en: num(
            "QLoRA fine-tuning of Llama-3.1-70B: the 68.45 billion parameters of its linear layers are stored in NF4 with double quantisation (4.127 bits each), its 2.10 billion embedding and output-layer parameters stay in BF16, and rank-16 adapters on the seven linear modules of every layer add 207.1 million FP32 parameters. How many GB do the weights on the GPU (frozen base plus adapters) take?",
            "GB",
            "Linear layers: 68.45e9 × 4.127 / 8 bytes; 2 bytes per BF16 parameter, 4 per adapter parameter.",
            "68.45e9 × 4.127 / 8 ≈ 35.31 GB, plus 2.10e9 × 2 ≈ 4.20 GB and 207.1e6 × 4 ≈ 0.83 GB: about {key} GB. The weights fit one 48 GB GPU with 48 − {key} GB to spare; the rest (the adapters' gradients and optimizer states, the activations) fits only with activation checkpointing and short sequences, as in the QLoRA paper's 65B run on one 48 GB GPU. At this scenario's 4,096 tokens without recomputation the estimator puts the activations alone at {r:memory_per_gpu_bytes.activations:1e-9:0} GB.",
        ),
    },
    Exercise {
        id: "train-rag-extra-kv",
        answer: report(
            r#"{"model": "llama-3.1-8b", "context_tokens": 4000, "batch": 32}"#,
            "memory_per_gpu_bytes.kv_cache",
            1e-9,
            1,
            0.02,
        ),
        zh: num(
            "一个 RAG 服务运行 Llama-3.1-8B（32 层，8 个 KV 头，每头维度 128，BF16 KV cache），每个提示多塞进 4,000 个检索来的 token。32 个并发请求仅因检索就多需要多少 GB 的 KV cache？",
            "GB",
            "每 token 2 × 32 层 × 8 个 KV 头 × 128 × 2 字节。",
            "每 token {r:kv_cache_bytes_per_token:1:0} 字节，每请求 4,000 × 131,072 ≈ 0.52 GB，32 个请求约 {key} GB，一张 80 GB 卡的五分之一花在检索文本上。",
        ),
        en: num(
            "A RAG service runs Llama-3.1-8B (32 layers, 8 KV heads of dimension 128) with a BF16 KV cache and adds 4,000 retrieved tokens to each prompt. How many extra GB of KV cache do 32 concurrent requests need because of retrieval alone?",
            "GB",
            "Per token: 2 × 32 layers × 8 KV heads × 128 × 2 bytes.",
            "{r:kv_cache_bytes_per_token:1:0} bytes per token, 4,000 × 131,072 ≈ 0.52 GB per request, about {key} GB for 32 requests: a fifth of an 80 GB GPU spent on retrieved text.",
        ),
    },
];
