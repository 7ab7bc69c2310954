//! The parametric exercises: which numbers of a chapter exercise a student's variant may
//! change, and the question, hint and worked solution as templates in both languages.
//!
//! Model lists keep to dense models with grouped-query attention on every layer and an output
//! layer of their own (no sliding windows, no latent attention, no tied embeddings), so that
//! the shape a question states (layers, KV heads, head size) is all a student needs. Exercises
//! that share a question (the same computation at another chapter's numbers) share its words.

use super::variant::{Choice, Param, Parametric, Rule, Words};

const fn c(value: &'static str, label: &'static str) -> Choice {
    Choice { value, label }
}

const L31_8B: Choice = c("llama-3.1-8b", "Llama-3.1-8B");
const L3_8B: Choice = c("llama-3-8b", "Llama-3-8B");
const L31_70B: Choice = c("llama-3.1-70b", "Llama-3.1-70B");
const L2_7B: Choice = c("llama-2-7b", "Llama-2-7B");
const L2_13B: Choice = c("llama-2-13b", "Llama-2-13B");
const Q25_7B: Choice = c("qwen2.5-7b", "Qwen2.5-7B");
const Q25_14B: Choice = c("qwen2.5-14b", "Qwen2.5-14B");
const Q25_72B: Choice = c("qwen2.5-72b", "Qwen2.5-72B");
const Q3_8B: Choice = c("qwen3-8b", "Qwen3-8B");
const MISTRAL_7B: Choice = c("mistral-7b-v0.3", "Mistral-7B-v0.3");
const L33_70B: Choice = c("llama-3.3-70b", "Llama-3.3-70B");

/// Dense GQA models with their own output layer.
const GQA_MODELS: &[Choice] = &[L31_8B, L3_8B, Q25_7B, Q25_14B, Q3_8B, MISTRAL_7B, L31_70B];

const H100: Choice = c("h100-sxm", "H100 SXM");
const H200: Choice = c("h200-sxm", "H200 SXM");
const A100_80: Choice = c("a100-sxm-80gb", "A100 80GB SXM");
const L40S: Choice = c("l40s", "L40S");
const DATACENTER_GPUS: &[Choice] = &[H100, H200, A100_80, L40S];
const H100_PCIE: Choice = c("h100-pcie", "H100 PCIe");
const H100_NVL: Choice = c("h100-nvl", "H100 NVL");
const A100_PCIE_80: Choice = c("a100-pcie-80gb", "A100 80GB PCIe");
const A100_PCIE_40: Choice = c("a100-pcie-40gb", "A100 40GB PCIe");
const RTX_6000_ADA: Choice = c("rtx-6000-ada", "RTX 6000 Ada");
const L4: Choice = c("l4", "L4");
const A10G: Choice = c("a10g", "A10G");
const V100_32: Choice = c("v100-sxm-32gb", "V100 SXM2 32GB");
const MI300X: Choice = c("mi300x", "Instinct MI300X");

/// Models a batch-1 FP16 decode question draws from (Llama-2 with full multi-head attention
/// beside the GQA ones: the question states the KV bytes per token, not the shape).
const FP16_MODELS: &[Choice] = &[L2_13B, L2_7B, L31_8B, Q25_7B, Q25_14B, Q3_8B, MISTRAL_7B];

const fn n(v: &'static str, label: &'static str) -> Choice {
    c(v, label)
}

/// How many requests of a context fit beside 4-bit weights (mem-70b-int4-requests, cap-70b-int4-8k-requests).
const INT4_REQUESTS_ZH: Words = Words {
        question: "{m:name}（{m:layers} 层，{m:kv_heads} 个 KV 头，head_dim {m:head_dim}）量化为 4 bit 权重，在一张 {g:name}（{g:memory_gb} GB）上服务，KV cache 用 BF16。权重占 {r:memory_per_gpu_bytes.weights:1e-9:3} GB（含分组缩放因子，embedding 和输出层保持 16 位），一个预填充分块的激活占 {b:memory_per_gpu_bytes.activations:1e-9:3} GB，各请求的输出 logits 共占 {b:memory_per_gpu_bytes.logits:1e-9:3} GB，运行时开销 1 GiB，另留 10% 的显存不用。最多能同时服务多少个 {p:ctx} token 的请求？显存容量按厂商标称的 GB 计：1 GB = 10⁹ 字节。",
        hint: "可用显存 = {g:memory_gb} GB × 0.9 − 权重 − 激活 − logits − 开销；每个请求的 KV = {p:ctx} × 每 token KV 字节（2 × 层数 × KV 头数 × head_dim × 2）。结果向下取整。",
        solution: "每 token KV = 2 × {m:layers} × {m:kv_heads} × {m:head_dim} × 2 B = {r:kv_cache_bytes_per_token:1:0} B。可用的 {r:usable_gpu_memory_bytes:1e-9:2} GB 里，权重占 {r:memory_per_gpu_bytes.weights:1e-9:3} GB，激活 {b:memory_per_gpu_bytes.activations:1e-9:3} GB，logits {b:memory_per_gpu_bytes.logits:1e-9:3} GB，运行时 1 GiB（1.07 GB）；剩下的空间放得下 {key} 个请求。",
    };
const INT4_REQUESTS_EN: Words = Words {
        question: "{m:name} ({m:layers} layers, {m:kv_heads} KV heads, head_dim {m:head_dim}) is quantized to 4-bit weights and served on one {g:name} ({g:memory_gb} GB) with a BF16 KV cache. The weights take {r:memory_per_gpu_bytes.weights:1e-9:3} GB (with their group scales, and the embeddings and output layer in 16 bits), a prefill chunk's activations {b:memory_per_gpu_bytes.activations:1e-9:3} GB, the requests' output logits {b:memory_per_gpu_bytes.logits:1e-9:3} GB in all and the runtime 1 GiB, and 10% of the memory is kept free. How many concurrent {p:ctx}-token requests fit? GPU memory counts the vendor's GB: 1 GB = 10⁹ bytes.",
        hint: "Usable memory = {g:memory_gb} GB × 0.9 − weights − activations − logits − overhead; each request holds {p:ctx} × the KV bytes per token (2 × layers × KV heads × head_dim × 2). Round down.",
        solution: "KV per token = 2 × {m:layers} × {m:kv_heads} × {m:head_dim} × 2 B = {r:kv_cache_bytes_per_token:1:0} B. Of the {r:usable_gpu_memory_bytes:1e-9:2} GB usable, the weights take {r:memory_per_gpu_bytes.weights:1e-9:2} GB, the activations {b:memory_per_gpu_bytes.activations:1e-9:3} GB, the logits {b:memory_per_gpu_bytes.logits:1e-9:3} GB and the runtime 1 GiB (1.07 GB); what is left holds {key} requests.",
    };

/// The batch-1 decode bound at peak bandwidth, BF16 weights (intro-8b-decode-bound, bottle-7b-a100-bound).
const DECODE_B1_ZH: Words = Words {
            question: "{m:name}（{r:params.total:1e-8:1} 亿参数，BF16 权重）跑在 {g:name}（{g:bandwidth_tbs} TB/s）上，批大小 1：先输入 {r:workload.prompt_tokens:1:0} 个 token 的提示，再生成 {r:workload.output_tokens:1:0} 个 token，所以生成过程中 KV cache（每 token {r:kv_cache_bytes_per_token:0.0009765625:0} KiB）平均存有 {r:workload.decode_context_tokens:1:0} 个 token。每生成一个 token，要读一遍除输入 embedding（{r:params.embedding:1e-8:2} 亿参数，只按行查，不必整表读取）以外的全部权重，外加整个 KV cache。按峰值带宽算，每秒最多能生成多少个 token？",
            hint: "把每个 token 要读的字节加起来（不含 embedding 的权重，每个 2 字节，再加 {r:workload.decode_context_tokens:1:0} × {r:kv_cache_bytes_per_token:0.0009765625:0} KiB 的 KV cache），除以 {g:bandwidth_tbs} TB/s 得到每个 token 的时间，再取倒数。",
            solution: "每步要读约 {r:phases.decode.bytes:1e-9:2} GB，除以 {g:bandwidth_tbs} TB/s 得 {r:phases.decode.bound.memory_s:1e3:2} ms；计算项只有 {r:phases.decode.bound.compute_s:1e3:3} ms。所以上限约 {key} token/s，由显存带宽决定。",
        };
const DECODE_B1_EN: Words = Words {
            question: "{m:name} ({r:params.total:1e-9:2} billion parameters, BF16 weights) runs on an {g:name} ({g:bandwidth_tbs} TB/s) at batch size 1: a {r:workload.prompt_tokens:1:0}-token prompt, then {r:workload.output_tokens:1:0} generated tokens, so during generation the KV cache ({r:kv_cache_bytes_per_token:0.0009765625:0} KiB per token) holds {r:workload.decode_context_tokens:1:0} tokens on average. Each generated token reads every weight once except the input embedding ({r:params.embedding:1e-6:0} million parameters, looked up one row per token rather than read whole), plus the whole KV cache. At peak bandwidth, what is the upper bound on tokens per second?",
            hint: "Add up the bytes read per token (the weights without the embedding, 2 bytes each, plus {r:workload.decode_context_tokens:1:0} × {r:kv_cache_bytes_per_token:0.0009765625:0} KiB of KV cache), divide by {g:bandwidth_tbs} TB/s and take the inverse.",
            solution: "One step reads about {r:phases.decode.bytes:1e-9:2} GB, which takes {r:phases.decode.bound.memory_s:1e3:2} ms at {g:bandwidth_tbs} TB/s; the compute term is only {r:phases.decode.bound.compute_s:1e3:3} ms. The bound is therefore about {key} tokens/s, set by memory bandwidth.",
        };

/// Adam's optimizer states at 12 bytes per parameter (mem-adam-optimizer-7b, train-8b-optimizer).
const ADAM_ZH: Words = Words {
            question: "全量微调 {m:name}（{r:params.total:1e-8:1} 亿参数），混合精度 Adam：FP32 主权重加两个矩，共 12 字节/参数。仅优化器状态就占多少 GB（1 GB = 10⁹ 字节）？",
            hint: "参数量 × 12 字节。",
            solution: "{r:params.total:1e-8:1} 亿 × 12 B ≈ {key} GB。再加 BF16 权重 {r:memory_per_gpu_bytes.weights:1e-9:1} GB 和梯度 {r:memory_per_gpu_bytes.gradients:1e-9:1} GB，模型状态约 16 B/参数，还没算激活。",
        };
const ADAM_EN: Words = Words {
            question: "A full fine-tune of {m:name} ({r:params.total:1e-9:2} billion parameters) with mixed-precision Adam keeps an FP32 master copy and two moments: 12 bytes per parameter. How many GB (1 GB = 10⁹ bytes) do the optimizer states alone take?",
            hint: "Parameters × 12 bytes.",
            solution: "{r:params.total:1e-9:2}e9 × 12 B ≈ {key} GB. Add {r:memory_per_gpu_bytes.weights:1e-9:1} GB of BF16 weights and {r:memory_per_gpu_bytes.gradients:1e-9:1} GB of gradients: about 16 B per parameter before activations.",
        };

/// The batch-1 decode bound at peak bandwidth, FP16 weights (spec-13b-l40s-decode,
/// spec-13b-a100-decode: the same question on the two GPUs the chapter compares).
const DECODE_FP16_ZH: Words = Words {
    question: "{m:name}（{r:params.total:1e-8:1} 亿参数）以 FP16 权重、批大小 1 在 {g:name}（{g:bandwidth_tbs} TB/s）上解码：先输入 {r:workload.prompt_tokens:1:0} 个 token 的提示，再生成 {r:workload.output_tokens:1:0} 个 token，所以生成过程中 KV cache（16 位，每 token {r:kv_cache_bytes_per_token:0.0009765625:0} KiB）平均存有 {r:workload.decode_context_tokens:1:0} 个 token。每生成一个 token，要读一遍除输入 embedding（{r:params.embedding:1e-8:2} 亿参数，只按行查，不必整表读取）以外的全部权重，外加整个 KV cache。按峰值带宽，每秒最多生成多少个 token？",
    hint: "每个 token 读的字节 = 不含 embedding 的权重 × 2 字节 + {r:workload.decode_context_tokens:1:0} × {r:kv_cache_bytes_per_token:0.0009765625:0} KiB；时间 = 字节 ÷ {g:bandwidth_tbs} TB/s，再取倒数。",
    solution: "权重共 {r:memory_per_gpu_bytes.weights:1e-9:1} GB；去掉 embedding、加上 KV cache，每步读约 {r:phases.decode.bytes:1e-9:2} GB，÷ {g:bandwidth_tbs} TB/s 得 {r:phases.decode.bound.memory_s:1e3:2} ms，上限约 {key} token/s。{g:name} 的稠密 FP16/BF16 峰值是 {g:bf16_tflops} TFLOPS，但解码看的是带宽。",
};
const DECODE_FP16_EN: Words = Words {
    question: "{m:name} ({r:params.total:1e-9:2} billion parameters) decodes at batch 1 with FP16 weights on an {g:name} ({g:bandwidth_tbs} TB/s): a {r:workload.prompt_tokens:1:0}-token prompt, then {r:workload.output_tokens:1:0} generated tokens, so during generation the 16-bit KV cache ({r:kv_cache_bytes_per_token:0.0009765625:0} KiB per token) holds {r:workload.decode_context_tokens:1:0} tokens on average. Each generated token reads every weight once except the input embedding ({r:params.embedding:1e-6:0} million parameters, looked up one row per token rather than read whole), plus the whole KV cache. At peak bandwidth, what is the tokens-per-second bound?",
    hint: "Bytes per token = the weights without the embedding × 2 bytes + {r:workload.decode_context_tokens:1:0} × {r:kv_cache_bytes_per_token:0.0009765625:0} KiB; time = bytes ÷ {g:bandwidth_tbs} TB/s; take the inverse.",
    solution: "The weights take {r:memory_per_gpu_bytes.weights:1e-9:1} GB; without the embedding and with the KV cache a step reads about {r:phases.decode.bytes:1e-9:2} GB, {r:phases.decode.bound.memory_s:1e3:2} ms at {g:bandwidth_tbs} TB/s: a bound of about {key} tokens/s. The {g:name}'s dense FP16/BF16 peak is {g:bf16_tflops} TFLOPS, but decoding is about bandwidth.",
};

/// How many requests of a context fit beside BF16 weights (cap-8b-8k-requests,
/// cap-8b-32k-requests, cloud-l4-8k-requests, cloud-a100-8k-requests).
const BF16_REQUESTS_ZH: Words = Words {
    question: "{m:name}（{m:layers} 层，{m:kv_heads} 个 KV 头，head_dim {m:head_dim}）以 BF16 权重和 BF16 KV cache 在一张 {g:name}（{g:memory_gb} GB）上服务。权重占 {r:memory_per_gpu_bytes.weights:1e-9:3} GB，一个预填充分块的激活占 {b:memory_per_gpu_bytes.activations:1e-9:3} GB，各请求的输出 logits 共占 {b:memory_per_gpu_bytes.logits:1e-9:3} GB，运行时开销 1 GiB，另留 10% 的显存不用。最多能同时服务多少个 {p:ctx} token 的请求？显存容量按厂商标称的 GB 计：1 GB = 10⁹ 字节。",
    hint: "可用显存 = {g:memory_gb} GB × 0.9 − 权重 − 激活 − logits − 开销；每个请求的 KV = {p:ctx} × 每 token KV 字节（2 × 层数 × KV 头数 × head_dim × 2）。结果向下取整。",
    solution: "每 token KV = 2 × {m:layers} × {m:kv_heads} × {m:head_dim} × 2 B = {r:kv_cache_bytes_per_token:1:0} B，每个请求 {p:ctx} 个 token。可用的 {r:usable_gpu_memory_bytes:1e-9:2} GB 里，权重占 {r:memory_per_gpu_bytes.weights:1e-9:3} GB，激活 {b:memory_per_gpu_bytes.activations:1e-9:3} GB，logits {b:memory_per_gpu_bytes.logits:1e-9:3} GB，运行时 1 GiB（1.07 GB）；剩下的空间放得下 {key} 个请求。",
};
const BF16_REQUESTS_EN: Words = Words {
    question: "{m:name} ({m:layers} layers, {m:kv_heads} KV heads, head_dim {m:head_dim}) is served with BF16 weights and a BF16 KV cache on one {g:name} ({g:memory_gb} GB). The weights take {r:memory_per_gpu_bytes.weights:1e-9:3} GB, a prefill chunk's activations {b:memory_per_gpu_bytes.activations:1e-9:3} GB, the requests' output logits {b:memory_per_gpu_bytes.logits:1e-9:3} GB in all and the runtime 1 GiB, and 10% of the memory is kept free. How many concurrent {p:ctx}-token requests fit? GPU memory counts the vendor's GB: 1 GB = 10⁹ bytes.",
    hint: "Usable memory = {g:memory_gb} GB × 0.9 − weights − activations − logits − overhead; each request holds {p:ctx} × the KV bytes per token (2 × layers × KV heads × head_dim × 2). Round down.",
    solution: "KV per token = 2 × {m:layers} × {m:kv_heads} × {m:head_dim} × 2 B = {r:kv_cache_bytes_per_token:1:0} B, {p:ctx} tokens per request. Of the {r:usable_gpu_memory_bytes:1e-9:2} GB usable, the weights take {r:memory_per_gpu_bytes.weights:1e-9:2} GB, the activations {b:memory_per_gpu_bytes.activations:1e-9:3} GB, the logits {b:memory_per_gpu_bytes.logits:1e-9:3} GB and the runtime 1 GiB (1.07 GB); what is left holds {key} requests.",
};

pub static PARAMETRIC: &[Parametric] = &[
    Parametric {
        id: "mem-kv-32x8k",
        params: &[
            Param { name: "model", default: L31_8B, choices: GQA_MODELS },
            Param {
                name: "batch",
                default: n("32", "32"),
                choices: &[n("8", "8"), n("16", "16"), n("24", "24"), n("32", "32"), n("48", "48"), n("64", "64")],
            },
            Param {
                name: "ctx",
                default: n("8192", "8,192"),
                choices: &[n("2048", "2,048"), n("4096", "4,096"), n("8192", "8,192"), n("16384", "16,384"), n("32768", "32,768")],
            },
        ],
        scenario: r#"{"model": "{p:model}", "context_tokens": {p:ctx}, "batch": {p:batch}, "gpu": "h100-sxm"}"#,
        rules: &[Rule::WithinContext],
        zh: Words {
            question: "{m:name}（{m:layers} 层，{m:kv_heads} 个 KV 头，head_dim {m:head_dim}）以 BF16 KV cache 服务 {p:batch} 个并发请求，每个请求的上下文是 {p:ctx} 个 token。KV cache 一共多少 GB（1 GB = 10⁹ 字节）？",
            hint: "每个 token 的 KV = 2（K 和 V）× {m:layers} 层 × {m:kv_heads} 个 KV 头 × {m:head_dim} 维 × 2 字节，再乘以 {p:ctx} × {p:batch} 个 token。",
            solution: "每 token 2 × {m:layers} × {m:kv_heads} × {m:head_dim} × 2 B = {r:kv_cache_bytes_per_token:1:0} 字节，共 {p:ctx} × {p:batch} 个 token，KV cache ≈ {key} GB。",
        },
        en: Words {
            question: "{m:name} ({m:layers} layers, {m:kv_heads} KV heads, head_dim {m:head_dim}) serves {p:batch} concurrent requests of {p:ctx} tokens of context each, with a BF16 KV cache. How many GB (1 GB = 10⁹ bytes) of KV cache is that?",
            hint: "KV per token = 2 (K and V) × {m:layers} layers × {m:kv_heads} KV heads × {m:head_dim} dims × 2 bytes; multiply by {p:ctx} × {p:batch} tokens.",
            solution: "2 × {m:layers} × {m:kv_heads} × {m:head_dim} × 2 B = {r:kv_cache_bytes_per_token:1:0} bytes per token over {p:ctx} × {p:batch} tokens gives {key} GB of KV cache.",
        },
    },
    Parametric {
        id: "mem-70b-kv-per-token",
        params: &[Param { name: "model", default: L31_70B, choices: GQA_MODELS }],
        scenario: r#"{"model": "{p:model}", "weight_dtype": "int4", "context_tokens": 4096, "gpu": "h100-sxm"}"#,
        rules: &[],
        zh: Words {
            question: "{m:name} 的 KV cache 在 BF16 下每个 token 占多少 KiB？（{m:layers} 层，{m:kv_heads} 个 KV 头，head_dim {m:head_dim}）",
            hint: "2（K 和 V）× 层数 × KV 头数 × head_dim × 每元素字节数，再除以 1,024。",
            solution: "2 × {m:layers} × {m:kv_heads} × {m:head_dim} × 2 B = {r:kv_cache_bytes_per_token:1:0} B = {key} KiB。{m:heads} 个查询头共享 {m:kv_heads} 个 KV 头（GQA）。",
        },
        en: Words {
            question: "How many KiB of BF16 KV cache does {m:name} need per token? ({m:layers} layers, {m:kv_heads} KV heads, head_dim {m:head_dim})",
            hint: "2 (K and V) × layers × KV heads × head_dim × bytes per element, divided by 1,024.",
            solution: "2 × {m:layers} × {m:kv_heads} × {m:head_dim} × 2 B = {r:kv_cache_bytes_per_token:1:0} B = {key} KiB. Its {m:heads} query heads share {m:kv_heads} KV heads (grouped-query attention).",
        },
    },
    Parametric {
        id: "mem-adam-optimizer-7b",
        params: &[Param {
            name: "model",
            default: L2_7B,
            choices: &[L2_7B, L2_13B, L31_8B, Q25_7B, Q25_14B, Q3_8B, MISTRAL_7B],
        }],
        scenario: r#"{"model": "{p:model}", "mode": "training", "gpu": "h100-sxm"}"#,
        rules: &[],
        zh: ADAM_ZH,
        en: ADAM_EN,
    },
    Parametric {
        id: "intro-8b-decode-bound",
        params: &[
            Param { name: "model", default: L3_8B, choices: &[L3_8B, L31_8B, Q25_7B, Q3_8B, MISTRAL_7B, L2_13B, Q25_14B] },
            Param { name: "gpu", default: H100, choices: DATACENTER_GPUS },
            Param {
                name: "ctx",
                default: n("512", "512"),
                choices: &[n("512", "512"), n("1024", "1,024"), n("2048", "2,048"), n("4096", "4,096")],
            },
        ],
        scenario: r#"{"model": "{p:model}", "batch": 1, "context_tokens": {p:ctx}, "gpu": "{p:gpu}"}"#,
        rules: &[Rule::Fits, Rule::WithinContext],
        zh: DECODE_B1_ZH,
        en: DECODE_B1_EN,
    },
    Parametric {
        id: "bw-h200-16x8k-step",
        params: &[
            Param { name: "model", default: L3_8B, choices: &[L3_8B, L31_8B, Q25_7B, Q3_8B, MISTRAL_7B] },
            Param { name: "gpu", default: H200, choices: &[H100, H200, A100_80] },
            Param {
                name: "batch",
                default: n("16", "16"),
                choices: &[n("4", "4"), n("8", "8"), n("16", "16"), n("32", "32")],
            },
            Param {
                name: "ctx",
                default: n("8192", "8,192"),
                choices: &[n("2048", "2,048"), n("4096", "4,096"), n("8192", "8,192")],
            },
        ],
        scenario: r#"{"model": "{p:model}", "context_tokens": {p:ctx}, "batch": {p:batch}, "gpu": "{p:gpu}"}"#,
        rules: &[Rule::Fits, Rule::WithinContext],
        zh: Words {
            question: "{m:name}（{r:params.total:1e-8:1} 亿参数，BF16）在 {g:name}（{g:bandwidth_tbs} TB/s）上同时服务 {p:batch} 条序列。每条先输入 {r:workload.prompt_tokens:1:0} 个 token 的提示，再生成 {r:workload.output_tokens:1:0} 个 token，所以生成过程中每条序列的 KV cache 平均存有 {r:workload.decode_context_tokens:1:0} 个 token，每 token {r:kv_cache_bytes_per_token:0.0009765625:0} KiB。每一步要读除输入 embedding（{r:params.embedding:1e-8:2} 亿参数，只查不读）以外的全部权重，以及所有序列的 KV cache。按峰值带宽，一个平均的解码步最少要多少毫秒？",
            hint: "每步字节 = 不含 embedding 的权重 × 2 + {p:batch} × {r:workload.decode_context_tokens:1:0} × {r:kv_cache_bytes_per_token:0.0009765625:0} KiB，再除以 {g:bandwidth_tbs} TB/s。",
            solution: "一步读约 {r:phases.decode.bytes:1e-9:1} GB，÷ {g:bandwidth_tbs} TB/s ≈ {key} ms，即总共约 {r:phases.decode.tokens_per_s_bound:1:0} token/s。实际带宽低于峰值，真实数字会更低。",
        },
        en: Words {
            question: "{m:name} ({r:params.total:1e-9:2} billion parameters, BF16) serves {p:batch} sequences on an {g:name} ({g:bandwidth_tbs} TB/s). Each has a {r:workload.prompt_tokens:1:0}-token prompt and generates {r:workload.output_tokens:1:0} tokens, so during generation each cache holds {r:workload.decode_context_tokens:1:0} tokens on average, at {r:kv_cache_bytes_per_token:0.0009765625:0} KiB per token. A step reads every weight except the input embedding ({r:params.embedding:1e-6:0} million parameters, looked up rather than read) and every sequence's KV cache. At peak bandwidth, how many milliseconds does an average decode step take at least?",
            hint: "Bytes per step = the weights without the embedding × 2 + {p:batch} × {r:workload.decode_context_tokens:1:0} × {r:kv_cache_bytes_per_token:0.0009765625:0} KiB; divide by {g:bandwidth_tbs} TB/s.",
            solution: "A step reads about {r:phases.decode.bytes:1e-9:1} GB; ÷ {g:bandwidth_tbs} TB/s ≈ {key} ms, about {r:phases.decode.tokens_per_s_bound:1:0} tokens/s in all. Achieved bandwidth is below peak, so real numbers are lower.",
        },
    },
    Parametric {
        id: "mem-70b-int4-requests",
        params: &[
            Param { name: "model", default: L31_70B, choices: &[L31_70B, L33_70B, Q25_72B, Q25_14B, L31_8B] },
            Param { name: "gpu", default: H100, choices: &[H100, H200, A100_80, L40S] },
            Param {
                name: "ctx",
                default: n("4096", "4,096"),
                choices: &[n("2048", "2,048"), n("4096", "4,096"), n("8192", "8,192")],
            },
        ],
        scenario: r#"{"model": "{p:model}", "weight_dtype": "int4", "context_tokens": {p:ctx}, "gpu": "{p:gpu}"}"#,
        rules: &[Rule::WithinContext, Rule::AtLeast { path: "solvers.max_batch", min: 1.0 }, Rule::ClearOfRounding { margin: 0.02 }],
        zh: INT4_REQUESTS_ZH,
        en: INT4_REQUESTS_EN,
    },
    Parametric {
        id: "bw-7b-int4-a100-bound",
        params: &[
            Param { name: "model", default: L2_7B, choices: &[L2_7B, L2_13B, L31_8B, Q25_7B, Q25_14B, Q3_8B, MISTRAL_7B, L31_70B] },
            Param { name: "gpu", default: A100_80, choices: DATACENTER_GPUS },
        ],
        scenario: r#"{"model": "{p:model}", "weight_dtype": "int4", "int4_group_size": 32, "batch": 1, "context_tokens": 512, "gpu": "{p:gpu}"}"#,
        rules: &[Rule::Fits],
        zh: Words {
            question: "{m:name} 在 {g:name}（{g:bandwidth_tbs} TB/s）上以批大小 1 解码，权重为 4 bit。它共有 {r:params.total:1e-8:2} 亿参数，其中输入 embedding（{r:params.embedding:1e-8:2} 亿参数）和输出层（{r:params.lm_head:1e-8:2} 亿参数）保持 BF16；其余权重每个 4 bit，每 32 个一组另带一个 16 位缩放因子和一个 4 位零点，合计每个权重 4.625 bit。每步读一遍这些 4 bit 权重和输出层（embedding 只按行查，不必整表读取）。BF16 KV cache 每 token {r:kv_cache_bytes_per_token:0.0009765625:0} KiB，平均存有 {r:workload.decode_context_tokens:1:0} 个 token（{r:workload.prompt_tokens:1:0} 个 token 的提示，再生成 {r:workload.output_tokens:1:0} 个）。按峰值带宽，每秒最多多少 token？",
            hint: "每步读的字节 = (总参数 − embedding − 输出层) × 4.625 / 8 + 输出层 × 2 + {r:workload.decode_context_tokens:1:0} × {r:kv_cache_bytes_per_token:0.0009765625:0} KiB；用 {g:bandwidth_tbs} TB/s 除以它。",
            solution: "权重在显存里共占 {r:memory_per_gpu_bytes.weights:1e-9:2} GB；每步要读约 {r:phases.decode.bytes:1e-9:2} GB（4 bit 的各层、输出层和 KV cache），÷ {g:bandwidth_tbs} TB/s 得 {r:phases.decode.bound.memory_s:1e3:2} ms，上限约 {key} token/s。实测会低得多：4 bit kernel 吃不满带宽，反量化、缩放因子和 kernel 启动开销在缩小了的显存项旁边变得重要。",
        },
        en: Words {
            question: "{m:name} decodes at batch 1 on an {g:name} ({g:bandwidth_tbs} TB/s) with 4-bit weights. Of its {r:params.total:1e-9:3} billion parameters, the input embedding ({r:params.embedding:1e-6:0} million) and the output layer ({r:params.lm_head:1e-6:0} million) stay in BF16; every other weight takes 4 bits plus a 16-bit scale and a 4-bit zero point per group of 32, 4.625 bits in all. A step reads these 4-bit weights and the output layer once (the embedding is looked up one row per token, not read whole). The BF16 KV cache takes {r:kv_cache_bytes_per_token:0.0009765625:0} KiB per token and holds {r:workload.decode_context_tokens:1:0} tokens on average (a {r:workload.prompt_tokens:1:0}-token prompt, then {r:workload.output_tokens:1:0} generated). At peak bandwidth, what is the tokens-per-second bound?",
            hint: "Bytes per step = (all parameters − embedding − output layer) × 4.625 / 8 + the output layer × 2 + {r:workload.decode_context_tokens:1:0} × {r:kv_cache_bytes_per_token:0.0009765625:0} KiB; divide {g:bandwidth_tbs} TB/s by it.",
            solution: "The weights take {r:memory_per_gpu_bytes.weights:1e-9:3} GB in memory; a step reads about {r:phases.decode.bytes:1e-9:2} GB (the 4-bit layers, the output layer and the KV cache), {r:phases.decode.bound.memory_s:1e3:2} ms at {g:bandwidth_tbs} TB/s, so the bound is about {key} tokens/s. Measurements land well below it: a 4-bit kernel does not saturate memory, and dequantization, scales and launch overhead matter beside the shrunken memory term.",
        },
    },
    Parametric {
        id: "bw-8b-prefill-2k-bound",
        params: &[
            Param { name: "model", default: L31_8B, choices: &[L31_8B, L3_8B, L2_7B, L2_13B, Q25_7B, Q25_14B, Q3_8B, MISTRAL_7B] },
            Param { name: "gpu", default: H100, choices: DATACENTER_GPUS },
        ],
        scenario: r#"{"model": "{p:model}", "prompt_tokens": 2048, "output_tokens": 256, "context_tokens": 2304, "batch": 1, "gpu": "{p:gpu}"}"#,
        rules: &[Rule::Fits, Rule::WithinContext],
        zh: Words {
            question: "{m:name}（{r:params.total:1e-8:2} 亿参数，BF16；其中输入 embedding 的 {r:params.embedding:1e-8:2} 亿参数只查不乘，输出层的 {r:params.lm_head:1e-8:2} 亿参数只为提示的最后一个 token 算出下一个 token 的分布）在 {g:name}（稠密 BF16 {g:bf16_tflops} TFLOPS）上处理一个 {r:workload.prompt_tokens:1:0} 个 token 的提示。每个提示 token 对其余每个参与矩阵乘的参数花 2 FLOPs，最后一个 token 另对输出层每个参数花 2 FLOPs；因果 attention 另外共花 2 × 层数 × 查询头数 × head_dim × token 数² FLOPs（{m:layers} 层，{m:heads} 个查询头，head_dim {m:head_dim}）。prefill 受算力限制，它的时间下限是多少毫秒？",
            hint: "FLOPs = 2 × (参数 − embedding − 输出层) × {r:workload.prompt_tokens:1:0} + 2 × 输出层 + 2 × {m:layers} × {m:heads} × {m:head_dim} × {r:workload.prompt_tokens:1:0}²，再除以 {g:bf16_tflops} TFLOPS。",
            solution: "FLOPs ≈ {r:phases.prefill.flops:1e-12:1} TFLOP，÷ {g:bf16_tflops} TFLOPS ≈ {key} ms。显存项（读 {r:phases.prefill.bytes:1e-9:1} GB）只有 {r:phases.prefill.bound.memory_s:1e3:1} ms：算术强度 {r:phases.prefill.arithmetic_intensity:1:0} FLOP/字节，远在拐点右边，所以 prefill 受算力限制。按引擎采用的实测 GEMM 效率，实际约需 {r:phases.prefill.time_s:1e3:1} ms。",
        },
        en: Words {
            question: "{m:name} ({r:params.total:1e-9:3} billion parameters in BF16, of which the input embedding's {r:params.embedding:1e-6:0} million are looked up, not multiplied, and the output layer's {r:params.lm_head:1e-6:0} million give the next token's distribution for the prompt's last token only) reads a {r:workload.prompt_tokens:1:0}-token prompt on an {g:name} ({g:bf16_tflops} dense BF16 TFLOPS). Each prompt token costs 2 FLOPs per other multiplied parameter, the last one 2 FLOPs per output-layer parameter more, and causal attention adds 2 × layers × query heads × head_dim × tokens² FLOPs in all ({m:layers} layers, {m:heads} query heads, head_dim {m:head_dim}). Prefill is compute-bound: what is the lower bound on its time, in milliseconds?",
            hint: "FLOPs = 2 × (parameters − embedding − output layer) × {r:workload.prompt_tokens:1:0} + 2 × output layer + 2 × {m:layers} × {m:heads} × {m:head_dim} × {r:workload.prompt_tokens:1:0}²; divide by {g:bf16_tflops} TFLOPS.",
            solution: "FLOPs ≈ {r:phases.prefill.flops:1e-12:1} TFLOP; ÷ {g:bf16_tflops} TFLOPS ≈ {key} ms. The memory term (reading {r:phases.prefill.bytes:1e-9:1} GB) is only {r:phases.prefill.bound.memory_s:1e3:1} ms: at {r:phases.prefill.arithmetic_intensity:1:0} FLOP/byte, far right of the ridge point, prefill is compute-bound. At the engine's measured GEMM efficiency it takes about {r:phases.prefill.time_s:1e3:1} ms.",
        },
    },
    Parametric {
        id: "bw-8b-decode-b64-throughput",
        params: &[
            Param { name: "model", default: L31_8B, choices: &[L31_8B, L3_8B, Q25_7B, Q25_14B, Q3_8B, MISTRAL_7B] },
            Param {
                name: "batch",
                default: n("64", "64"),
                choices: &[n("16", "16"), n("32", "32"), n("64", "64"), n("96", "96"), n("128", "128")],
            },
            Param { name: "gpu", default: H100, choices: &[H100, H200, A100_80] },
        ],
        scenario: r#"{"model": "{p:model}", "prompt_tokens": 2048, "output_tokens": 256, "context_tokens": 2304, "batch": {p:batch}, "gpu": "{p:gpu}"}"#,
        rules: &[Rule::Fits, Rule::WithinContext],
        zh: Words {
            question: "{m:name}（{r:params.total:1e-8:1} 亿参数，BF16；输入 embedding 的 {r:params.embedding:1e-8:2} 亿参数只查不读）在 {g:name}（{g:bandwidth_tbs} TB/s）上同时为 {p:batch} 条序列做 decode。每条序列先输入 {r:workload.prompt_tokens:1:0} 个 token 的提示，再生成 {r:workload.output_tokens:1:0} 个 token；在平均的一步，每条序列的 KV cache 存有 {r:workload.decode_context_tokens:1:0} 个 token，每 token {r:kv_cache_bytes_per_token:0.0009765625:0} KiB。一步把除 embedding 以外的全部权重读一遍（整批共享），再读每条序列的 KV cache，并为每条序列生成一个 token。按峰值带宽，整卡 decode 吞吐的上限是每秒多少个 token？",
            hint: "每步字节 = (参数 − embedding) × 2 + {p:batch} × {r:workload.decode_context_tokens:1:0} × {r:kv_cache_bytes_per_token:0.0009765625:0} KiB；一步的时间 = 字节 ÷ {g:bandwidth_tbs} TB/s；一步产出 {p:batch} 个 token。",
            solution: "每步读约 {r:phases.decode.bytes:1e-9:1} GB，一步至少 {r:phases.decode.time_s_bound:1e3:2} ms，所以整批最多约 {key} token/s。权重只读一遍，由 {p:batch} 条序列分摊；KV cache 却是每条序列各读各的。按引擎的实测带宽和开销，一步约 {r:phases.decode.time_s:1e3:1} ms，约 {r:phases.decode.tokens_per_s:1:0} token/s。",
        },
        en: Words {
            question: "{m:name} ({r:params.total:1e-9:2} billion parameters in BF16; the input embedding's {r:params.embedding:1e-6:0} million looked up, not read) decodes {p:batch} sequences at once on an {g:name} ({g:bandwidth_tbs} TB/s). Each sequence has a {r:workload.prompt_tokens:1:0}-token prompt and generates {r:workload.output_tokens:1:0} tokens; at the average step each sequence's KV cache holds {r:workload.decode_context_tokens:1:0} tokens of {r:kv_cache_bytes_per_token:0.0009765625:0} KiB each. A step reads every weight except the embedding once (shared by the whole batch), then every sequence's KV cache, and gives each sequence one token. At peak bandwidth, what is the upper bound on the GPU's decode throughput in tokens per second?",
            hint: "Bytes per step = (parameters − embedding) × 2 + {p:batch} × {r:workload.decode_context_tokens:1:0} × {r:kv_cache_bytes_per_token:0.0009765625:0} KiB; a step takes bytes ÷ {g:bandwidth_tbs} TB/s and yields {p:batch} tokens.",
            solution: "A step reads about {r:phases.decode.bytes:1e-9:1} GB, so it takes at least {r:phases.decode.time_s_bound:1e3:2} ms and the batch gets at most about {key} tokens/s. The weights are read once for all {p:batch} sequences; the KV cache is read per sequence. At the engine's measured bandwidth and overheads a step takes about {r:phases.decode.time_s:1e3:1} ms, about {r:phases.decode.tokens_per_s:1:0} tokens/s.",
        },
    },
    Parametric {
        id: "spec-13b-l40s-decode",
        params: &[
            Param { name: "model", default: L2_13B, choices: FP16_MODELS },
            Param { name: "gpu", default: L40S, choices: &[L40S, RTX_6000_ADA, A100_80, A100_PCIE_80, H100_PCIE] },
        ],
        scenario: r#"{"model": "{p:model}", "weight_dtype": "fp16", "batch": 1, "context_tokens": 512, "gpu": "{p:gpu}"}"#,
        rules: &[Rule::Fits],
        zh: DECODE_FP16_ZH,
        en: DECODE_FP16_EN,
    },
    Parametric {
        id: "spec-13b-a100-decode",
        params: &[
            Param { name: "model", default: L2_13B, choices: FP16_MODELS },
            Param { name: "gpu", default: A100_80, choices: &[A100_80, A100_PCIE_80, H100, H100_PCIE, H200, L40S] },
        ],
        scenario: r#"{"model": "{p:model}", "weight_dtype": "fp16", "batch": 1, "context_tokens": 512, "gpu": "{p:gpu}"}"#,
        rules: &[Rule::Fits],
        zh: DECODE_FP16_ZH,
        en: DECODE_FP16_EN,
    },
    Parametric {
        id: "bottle-7b-a100-bound",
        params: &[
            Param { name: "model", default: L2_7B, choices: &[L2_7B, L2_13B, L31_8B, Q25_7B, Q3_8B, MISTRAL_7B] },
            Param { name: "gpu", default: A100_80, choices: &[A100_80, A100_PCIE_80, H100, L40S] },
            Param {
                name: "ctx",
                default: n("512", "512"),
                choices: &[n("512", "512"), n("1024", "1,024"), n("2048", "2,048"), n("4096", "4,096")],
            },
        ],
        scenario: r#"{"model": "{p:model}", "batch": 1, "context_tokens": {p:ctx}, "gpu": "{p:gpu}"}"#,
        rules: &[Rule::Fits, Rule::WithinContext],
        zh: DECODE_B1_ZH,
        en: DECODE_B1_EN,
    },
    Parametric {
        id: "mig-8b-int4-weights",
        params: &[Param { name: "model", default: L31_8B, choices: &[L31_8B, L3_8B, L2_7B, L2_13B, Q25_7B, Q25_14B, Q3_8B, MISTRAL_7B] }],
        scenario: r#"{"model": "{p:model}", "weight_dtype": "int4", "gpu": "h100-sxm", "gpu_memory_bytes": 10000000000, "context_tokens": 4096}"#,
        rules: &[],
        zh: Words {
            question: "{m:name} 有 {r:params.total:1e-8:2} 亿参数，其中嵌入层 {r:params.embedding:1e-8:3} 亿、输出层 {r:params.lm_head:1e-8:3} 亿。用 4 bit 量化：其余参数每个 4 bit，每 128 个再配一个 16 位缩放因子和一个 4 位零点；嵌入和输出层保持 16 位。权重一共多少 GB（1 GB = 10⁹ 字节）？",
            hint: "不是简单的“参数 × 0.5 字节”：嵌入层和输出层每个参数 2 字节；其余参数每个 (4 + 20/128) bit。",
            solution: "嵌入和输出层每个参数 2 字节；其余参数 × 4.156 bit ÷ 8；合计约 {key} GB，比“参数 × 0.5 字节”的 {r:params.total:0.5e-9:2} GB 多出不少。",
        },
        en: Words {
            question: "{m:name} has {r:params.total:1e-9:3} billion parameters, of which the embedding is {r:params.embedding:1e-6:1} million and the output layer {r:params.lm_head:1e-6:1} million. Quantized to 4 bits, every other parameter takes 4 bits plus a 16-bit scale and a 4-bit zero point per group of 128; the embedding and output layer stay in 16-bit. How many GB (1 GB = 10⁹ bytes) of weights?",
            hint: "Not simply parameters × 0.5 bytes: the embedding and the output layer take 2 bytes per parameter; the rest take (4 + 20/128) bits each.",
            solution: "The embedding and output layer at 2 bytes per parameter, the rest × 4.156 bits ÷ 8: about {key} GB in all, well above the {r:params.total:0.5e-9:2} GB of \"parameters × 0.5 bytes\".",
        },
    },
    Parametric {
        id: "cloud-l4-8k-requests",
        params: &[
            Param { name: "model", default: L31_8B, choices: &[L31_8B, L3_8B, Q25_7B, Q3_8B, MISTRAL_7B] },
            Param { name: "gpu", default: L4, choices: &[L4, A10G, L40S, A100_PCIE_40] },
            Param {
                name: "ctx",
                default: n("8192", "8,192"),
                choices: &[n("2048", "2,048"), n("4096", "4,096"), n("8192", "8,192")],
            },
        ],
        scenario: r#"{"model": "{p:model}", "context_tokens": {p:ctx}, "gpu": "{p:gpu}"}"#,
        rules: &[Rule::WithinContext, Rule::AtLeast { path: "solvers.max_batch", min: 1.0 }, Rule::ClearOfRounding { margin: 0.02 }],
        zh: BF16_REQUESTS_ZH,
        en: BF16_REQUESTS_EN,
    },
    Parametric {
        id: "cloud-a100-8k-requests",
        params: &[
            Param { name: "model", default: L31_8B, choices: &[L31_8B, L3_8B, Q25_7B, Q25_14B, Q3_8B, MISTRAL_7B] },
            Param { name: "gpu", default: A100_PCIE_80, choices: &[A100_PCIE_80, A100_80, H100_PCIE, L40S] },
            Param {
                name: "ctx",
                default: n("8192", "8,192"),
                choices: &[n("4096", "4,096"), n("8192", "8,192"), n("16384", "16,384")],
            },
        ],
        scenario: r#"{"model": "{p:model}", "context_tokens": {p:ctx}, "gpu": "{p:gpu}"}"#,
        rules: &[Rule::WithinContext, Rule::AtLeast { path: "solvers.max_batch", min: 1.0 }, Rule::ClearOfRounding { margin: 0.02 }],
        zh: BF16_REQUESTS_ZH,
        en: BF16_REQUESTS_EN,
    },
    Parametric {
        id: "cap-8b-8k-requests",
        params: &[
            Param { name: "model", default: L31_8B, choices: &[L31_8B, L3_8B, Q25_7B, Q25_14B, Q3_8B, MISTRAL_7B] },
            Param { name: "gpu", default: H100, choices: &[H100, H200, A100_80, H100_NVL] },
            Param {
                name: "ctx",
                default: n("8192", "8,192"),
                choices: &[n("4096", "4,096"), n("8192", "8,192"), n("16384", "16,384"), n("32768", "32,768")],
            },
        ],
        scenario: r#"{"model": "{p:model}", "context_tokens": {p:ctx}, "gpu": "{p:gpu}"}"#,
        rules: &[Rule::WithinContext, Rule::AtLeast { path: "solvers.max_batch", min: 1.0 }, Rule::ClearOfRounding { margin: 0.02 }],
        zh: BF16_REQUESTS_ZH,
        en: BF16_REQUESTS_EN,
    },
    Parametric {
        id: "cap-70b-int4-8k-requests",
        params: &[
            Param { name: "model", default: L31_70B, choices: &[L31_70B, L33_70B, Q25_72B] },
            Param { name: "gpu", default: H100, choices: &[H100, H200, A100_80, H100_NVL] },
            Param {
                name: "ctx",
                default: n("8192", "8,192"),
                choices: &[n("4096", "4,096"), n("8192", "8,192"), n("16384", "16,384")],
            },
        ],
        scenario: r#"{"model": "{p:model}", "weight_dtype": "int4", "context_tokens": {p:ctx}, "gpu": "{p:gpu}"}"#,
        rules: &[Rule::WithinContext, Rule::AtLeast { path: "solvers.max_batch", min: 1.0 }, Rule::ClearOfRounding { margin: 0.02 }],
        zh: INT4_REQUESTS_ZH,
        en: INT4_REQUESTS_EN,
    },
    Parametric {
        id: "cap-8b-32x8k-total",
        params: &[
            Param { name: "model", default: L31_8B, choices: &[L31_8B, L3_8B, Q25_7B, Q25_14B, Q3_8B, MISTRAL_7B] },
            Param {
                name: "batch",
                default: n("32", "32"),
                choices: &[n("8", "8"), n("16", "16"), n("32", "32"), n("48", "48"), n("64", "64")],
            },
            Param {
                name: "ctx",
                default: n("8192", "8,192"),
                choices: &[n("2048", "2,048"), n("4096", "4,096"), n("8192", "8,192"), n("16384", "16,384")],
            },
        ],
        scenario: r#"{"model": "{p:model}", "context_tokens": {p:ctx}, "batch": {p:batch}, "gpu": "h100-sxm"}"#,
        rules: &[Rule::Fits, Rule::WithinContext],
        zh: Words {
            question: "{m:name}（{r:params.total:1e-8:2} 亿参数，KV cache 每 token {r:kv_cache_bytes_per_token:1:0} 字节）以 BF16 权重和 KV cache 在一张 H100 SXM（80 GB）上服务 {p:batch} 个并发请求，每个 {p:ctx} 个 token。再加上引擎的另外三项：激活峰值 {r:memory_per_gpu_bytes.activations:1e-9:3} GB、各请求的输出 logits 共 {r:memory_per_gpu_bytes.logits:1e-9:3} GB 和运行时开销 1 GiB（1.07 GB）。总显存占用是多少 GB（1 GB = 10⁹ 字节）？",
            hint: "权重（每参数 2 字节）+ KV cache（{p:batch} × {p:ctx} × 每 token 字节）+ 激活 + logits + 运行时开销。",
            solution: "权重 {r:memory_per_gpu_bytes.weights:1e-9:2} GB，KV cache {r:memory_per_gpu_bytes.kv_cache:1e-9:2} GB，激活 {r:memory_per_gpu_bytes.activations:1e-9:3} GB，logits {r:memory_per_gpu_bytes.logits:1e-9:3} GB，开销 {r:memory_per_gpu_bytes.overhead:1e-9:2} GB，合计约 {key} GB，在 72 GB 的预算（80 GB 的 90%）之内。",
        },
        en: Words {
            question: "{m:name} ({r:params.total:1e-9:3} billion parameters, {r:kv_cache_bytes_per_token:1:0} bytes of KV cache per token) serves {p:batch} concurrent requests of {p:ctx} tokens each with BF16 weights and KV cache on one H100 SXM (80 GB). Add the engine's three other terms: an activation peak of {r:memory_per_gpu_bytes.activations:1e-9:3} GB, the requests' output logits, {r:memory_per_gpu_bytes.logits:1e-9:3} GB in all, and 1 GiB (1.07 GB) of runtime overhead. What is the total, in GB (1 GB = 10⁹ bytes)?",
            hint: "Weights (2 bytes per parameter) + KV cache ({p:batch} × {p:ctx} × the bytes per token) + activations + logits + runtime overhead.",
            solution: "Weights {r:memory_per_gpu_bytes.weights:1e-9:2} GB, KV cache {r:memory_per_gpu_bytes.kv_cache:1e-9:2} GB, activations {r:memory_per_gpu_bytes.activations:1e-9:3} GB, logits {r:memory_per_gpu_bytes.logits:1e-9:3} GB, overhead {r:memory_per_gpu_bytes.overhead:1e-9:2} GB: about {key} GB in all, inside the 72 GB budget (90% of 80 GB).",
        },
    },
    Parametric {
        id: "share-8x4k-kv",
        params: &[
            Param { name: "model", default: L31_8B, choices: &[L31_8B, L3_8B, L2_7B, Q25_7B, Q25_14B, Q3_8B, MISTRAL_7B] },
            Param {
                name: "batch",
                default: n("8", "8"),
                choices: &[n("2", "2"), n("4", "4"), n("8", "8"), n("16", "16")],
            },
            Param {
                name: "ctx",
                default: n("4096", "4,096"),
                choices: &[n("1024", "1,024"), n("2048", "2,048"), n("4096", "4,096"), n("8192", "8,192")],
            },
        ],
        scenario: r#"{"model": "{p:model}", "weight_dtype": "int4", "context_tokens": {p:ctx}, "batch": {p:batch}}"#,
        rules: &[Rule::WithinContext],
        zh: Words {
            question: "用 4 bit 权重的 {m:name} 服务 {p:batch} 个 {p:ctx} token 的并发请求，KV cache 用 BF16（每 token {r:kv_cache_bytes_per_token:1:0} 字节，即 {r:kv_cache_bytes_per_token:0.0009765625:0} KiB）。KV cache 一共多少 GB（1 GB = 10⁹ 字节）？",
            hint: "{p:batch} × {p:ctx} × {r:kv_cache_bytes_per_token:1:0} 字节。",
            solution: "{p:batch} × {p:ctx} × {r:kv_cache_bytes_per_token:1:0} B ≈ {key} GB。权重量化到 4 bit，KV cache 并不随之变小：加上约 {r:memory_per_gpu_bytes.weights:1e-9:1} GB 的权重（嵌入层和输出层仍是 16 位）、{r:memory_per_gpu_bytes.activations:1e-9:1} GB 的激活和 1 GiB 的运行时开销，合计约 {r:memory_per_gpu_bytes.total:1e-9:1} GB。",
        },
        en: Words {
            question: "{m:name} with 4-bit weights serves {p:batch} concurrent requests of {p:ctx} tokens with a BF16 KV cache ({r:kv_cache_bytes_per_token:1:0} bytes, {r:kv_cache_bytes_per_token:0.0009765625:0} KiB, per token). How many GB (1 GB = 10⁹ bytes) of KV cache is that?",
            hint: "{p:batch} × {p:ctx} × {r:kv_cache_bytes_per_token:1:0} bytes.",
            solution: "{p:batch} × {p:ctx} × {r:kv_cache_bytes_per_token:1:0} B ≈ {key} GB. Quantizing the weights to 4 bits leaves the KV cache as large as it was: with about {r:memory_per_gpu_bytes.weights:1e-9:1} GB of weights (the embedding and output layers stay in 16 bits), {r:memory_per_gpu_bytes.activations:1e-9:1} GB of activations and 1 GiB of runtime overhead, the total is about {r:memory_per_gpu_bytes.total:1e-9:1} GB.",
        },
    },
    Parametric {
        id: "nvlink-70b-tp8-weights",
        params: &[
            Param { name: "model", default: L31_70B, choices: &[L31_70B, L33_70B, Q25_72B] },
            Param { name: "tp", default: n("8", "8"), choices: &[n("2", "2"), n("4", "4"), n("8", "8")] },
        ],
        scenario: r#"{"model": "{p:model}", "gpus": {p:tp}, "tensor_parallel": {p:tp}, "gpu": "h100-sxm"}"#,
        rules: &[],
        zh: Words {
            question: "{m:name}（{r:params.total:1e-8:1} 亿参数）以 BF16 做 {p:tp} 路张量并行，分在 {p:tp} 张 H100 SXM 上。每张 GPU 上的权重多少 GB（1 GB = 10⁹ 字节）？",
            hint: "张量并行把每层的矩阵切成 {p:tp} 份；嵌入层和输出层也被切分。每个参数 2 字节。",
            solution: "全部权重约 {r:params.total:2e-9:1} GB，每卡约 {key} GB。代价是每层两次 all-reduce，这正是它需要 NVLink 的原因。",
        },
        en: Words {
            question: "{m:name} ({r:params.total:1e-9:2} billion parameters) in BF16 runs with tensor parallelism {p:tp} over {p:tp} H100 SXM. How many GB (1 GB = 10⁹ bytes) of weights does each GPU hold?",
            hint: "Tensor parallelism splits every layer's matrices {p:tp} ways; the embeddings and output layer are split too. Each parameter takes 2 bytes.",
            solution: "The whole model is about {r:params.total:2e-9:1} GB, about {key} GB per GPU. The price is two all-reduces per layer, which is why it wants NVLink.",
        },
    },
    Parametric {
        id: "train-8b-optimizer",
        params: &[Param {
            name: "model",
            default: L31_8B,
            choices: &[L31_8B, L3_8B, L2_7B, L2_13B, Q25_7B, Q25_14B, Q3_8B, MISTRAL_7B],
        }],
        scenario: r#"{"model": "{p:model}", "mode": "training", "gpu": "h100-sxm"}"#,
        rules: &[],
        zh: ADAM_ZH,
        en: ADAM_EN,
    },
    Parametric {
        id: "intro-8b-memory-term",
        params: &[
            Param { name: "model", default: L3_8B, choices: &[L3_8B, L31_8B, Q25_7B, Q3_8B, MISTRAL_7B, L2_13B, Q25_14B] },
            Param { name: "gpu", default: H100, choices: DATACENTER_GPUS },
            Param {
                name: "ctx",
                default: n("512", "512"),
                choices: &[n("512", "512"), n("1024", "1,024"), n("2048", "2,048"), n("4096", "4,096")],
            },
        ],
        scenario: r#"{"model": "{p:model}", "batch": 1, "context_tokens": {p:ctx}, "gpu": "{p:gpu}"}"#,
        rules: &[Rule::Fits, Rule::WithinContext],
        zh: Words {
            question: "{m:name}（{r:params.total:1e-8:1} 亿参数，BF16；其中输入 embedding 的 {r:params.embedding:1e-8:2} 亿参数只查不读）在 {g:name}（{g:bandwidth_tbs} TB/s）上以批大小 1 解码：先输入 {r:workload.prompt_tokens:1:0} 个 token 的提示，再生成 {r:workload.output_tokens:1:0} 个 token，KV cache 平均存有 {r:workload.decode_context_tokens:1:0} 个 token，每 token {r:kv_cache_bytes_per_token:0.0009765625:0} KiB。第一章那个式子里的显存项 Q/B 是多少毫秒？",
            hint: "Q 是一步要读的字节（不含 embedding 的权重，每个 2 字节，加上 {r:workload.decode_context_tokens:1:0} × {r:kv_cache_bytes_per_token:0.0009765625:0} KiB 的 KV cache），B 是 {g:bandwidth_tbs} TB/s。",
            solution: "Q ≈ {r:phases.decode.bytes:1e-9:2} GB，Q/B ≈ {key} ms。计算项 W/F 只有 {r:phases.decode.bound.compute_s:1e3:3} ms，所以单请求解码是受显存带宽限制的。",
        },
        en: Words {
            question: "{m:name} ({r:params.total:1e-9:2} billion parameters in BF16, of which the input embedding's {r:params.embedding:1e-6:0} million are looked up, not read) decodes at batch 1 on an {g:name} ({g:bandwidth_tbs} TB/s): a {r:workload.prompt_tokens:1:0}-token prompt, then {r:workload.output_tokens:1:0} generated tokens, with on average {r:workload.decode_context_tokens:1:0} tokens of {r:kv_cache_bytes_per_token:0.0009765625:0} KiB each in the KV cache. How many milliseconds is the memory term Q/B of chapter 1's bound?",
            hint: "Q is the bytes one step reads (the weights without the embedding, 2 bytes each, plus {r:workload.decode_context_tokens:1:0} × {r:kv_cache_bytes_per_token:0.0009765625:0} KiB of KV cache); B is {g:bandwidth_tbs} TB/s.",
            solution: "Q ≈ {r:phases.decode.bytes:1e-9:2} GB, so Q/B ≈ {key} ms. The compute term W/F is only {r:phases.decode.bound.compute_s:1e3:3} ms: single-request decoding is bound by memory bandwidth.",
        },
    },
    Parametric {
        id: "cap-8b-32k-requests",
        params: &[
            Param { name: "model", default: L31_8B, choices: &[L31_8B, Q25_7B, Q25_14B, Q3_8B, MISTRAL_7B] },
            Param { name: "gpu", default: H100, choices: &[H100, H200, A100_80, H100_NVL] },
            Param {
                name: "ctx",
                default: n("32768", "32,768"),
                choices: &[n("16384", "16,384"), n("24576", "24,576"), n("32768", "32,768")],
            },
        ],
        scenario: r#"{"model": "{p:model}", "context_tokens": {p:ctx}, "gpu": "{p:gpu}"}"#,
        rules: &[Rule::WithinContext, Rule::AtLeast { path: "solvers.max_batch", min: 1.0 }, Rule::ClearOfRounding { margin: 0.02 }],
        zh: BF16_REQUESTS_ZH,
        en: BF16_REQUESTS_EN,
    },
    Parametric {
        id: "mig-8b-int4-10gb-requests",
        params: &[
            Param { name: "model", default: L31_8B, choices: &[L31_8B, L3_8B, Q25_7B, Q3_8B, MISTRAL_7B] },
            Param {
                name: "ctx",
                default: n("4096", "4,096"),
                choices: &[n("1024", "1,024"), n("2048", "2,048"), n("4096", "4,096")],
            },
        ],
        scenario: r#"{"model": "{p:model}", "weight_dtype": "int4", "gpu": "h100-sxm", "gpu_memory_bytes": 10000000000, "context_tokens": {p:ctx}}"#,
        rules: &[Rule::WithinContext, Rule::AtLeast { path: "solvers.max_batch", min: 1.0 }, Rule::ClearOfRounding { margin: 0.02 }],
        zh: Words {
            question: "4 bit 的 {m:name}（{m:layers} 层，{m:kv_heads} 个 KV 头，head_dim {m:head_dim}）放在 H100 SXM 80GB 的一个 1g.10gb MIG 实例上（显存按规格名取 {r:gpu_memory_bytes:1e-9:0} GB），KV cache 用 BF16。权重占 {r:memory_per_gpu_bytes.weights:1e-9:3} GB（嵌入层和输出层保持 16 位），一个预填充分块的激活占 {b:memory_per_gpu_bytes.activations:1e-9:3} GB，各请求的输出 logits 共占 {b:memory_per_gpu_bytes.logits:1e-9:3} GB，运行时开销 1 GiB，另留 10% 的显存不用。能同时服务几个 {p:ctx} token 的请求？显存容量按厂商标称的 GB 计：1 GB = 10⁹ 字节。",
            hint: "剩余 = {r:gpu_memory_bytes:1e-9:0} GB × 0.9 − 权重 − 激活 − logits − 1 GiB；每个请求的 KV 是 {p:ctx} × 每 token KV 字节（2 × 层数 × KV 头数 × head_dim × 2），向下取整。",
            solution: "每 token KV = 2 × {m:layers} × {m:kv_heads} × {m:head_dim} × 2 B = {r:kv_cache_bytes_per_token:1:0} B。可用 {r:usable_gpu_memory_bytes:1e-9:1} GB，减去权重 {r:memory_per_gpu_bytes.weights:1e-9:2} GB、激活 {b:memory_per_gpu_bytes.activations:1e-9:3} GB、logits {b:memory_per_gpu_bytes.logits:1e-9:3} GB 和开销 1.07 GB，剩下的空间放得下 {key} 个请求。",
        },
        en: Words {
            question: "{m:name} in 4-bit ({m:layers} layers, {m:kv_heads} KV heads, head_dim {m:head_dim}) runs on a 1g.10gb MIG instance of an H100 SXM 80GB (its memory taken as the profile's name says, {r:gpu_memory_bytes:1e-9:0} GB) with a BF16 KV cache. The weights take {r:memory_per_gpu_bytes.weights:1e-9:3} GB (the embedding and output layer in 16 bits), a prefill chunk's activations {b:memory_per_gpu_bytes.activations:1e-9:3} GB, the requests' output logits {b:memory_per_gpu_bytes.logits:1e-9:3} GB in all and the runtime 1 GiB, and 10% of the memory is kept free. How many concurrent {p:ctx}-token requests fit? GPU memory counts the vendor's GB: 1 GB = 10⁹ bytes.",
            hint: "Left = {r:gpu_memory_bytes:1e-9:0} GB × 0.9 − weights − activations − logits − 1 GiB; each request holds {p:ctx} × the KV bytes per token (2 × layers × KV heads × head_dim × 2); round down.",
            solution: "KV per token = 2 × {m:layers} × {m:kv_heads} × {m:head_dim} × 2 B = {r:kv_cache_bytes_per_token:1:0} B. Of {r:usable_gpu_memory_bytes:1e-9:1} GB usable, the weights take {r:memory_per_gpu_bytes.weights:1e-9:2} GB, the activations {b:memory_per_gpu_bytes.activations:1e-9:3} GB, the logits {b:memory_per_gpu_bytes.logits:1e-9:3} GB and the overhead 1.07 GB; what is left holds {key} requests.",
        },
    },
    Parametric {
        id: "train-rag-extra-kv",
        params: &[
            // Not Llama 3 8B: 8,000 retrieved tokens would leave it 192 of its 8,192.
            Param { name: "model", default: L31_8B, choices: &[L31_8B, Q25_7B, Q25_14B, Q3_8B, MISTRAL_7B, L31_70B] },
            Param {
                name: "batch",
                default: n("32", "32"),
                choices: &[n("8", "8"), n("16", "16"), n("32", "32"), n("64", "64")],
            },
            Param {
                name: "ctx",
                default: n("4000", "4,000"),
                choices: &[n("2000", "2,000"), n("4000", "4,000"), n("8000", "8,000")],
            },
        ],
        scenario: r#"{"model": "{p:model}", "context_tokens": {p:ctx}, "batch": {p:batch}}"#,
        rules: &[Rule::WithinContext],
        zh: Words {
            question: "一个 RAG 服务运行 {m:name}（{m:layers} 层，{m:kv_heads} 个 KV 头，head_dim {m:head_dim}，BF16 KV cache），每个提示多塞进 {p:ctx} 个检索来的 token。{p:batch} 个并发请求仅因检索就多需要多少 GB 的 KV cache（1 GB = 10⁹ 字节）？",
            hint: "每 token 2 × {m:layers} 层 × {m:kv_heads} 个 KV 头 × {m:head_dim} × 2 字节，再乘以 {p:ctx} × {p:batch}。",
            solution: "每 token {r:kv_cache_bytes_per_token:1:0} 字节，每请求 {p:ctx} 个 token，{p:batch} 个请求约 {key} GB，全花在检索来的文本上。",
        },
        en: Words {
            question: "A RAG service runs {m:name} ({m:layers} layers, {m:kv_heads} KV heads of dimension {m:head_dim}) with a BF16 KV cache and adds {p:ctx} retrieved tokens to each prompt. How many extra GB (1 GB = 10⁹ bytes) of KV cache do {p:batch} concurrent requests need because of retrieval alone?",
            hint: "Per token: 2 × {m:layers} layers × {m:kv_heads} KV heads × {m:head_dim} × 2 bytes; multiply by {p:ctx} × {p:batch}.",
            solution: "{r:kv_cache_bytes_per_token:1:0} bytes per token, {p:ctx} tokens per request: about {key} GB for {p:batch} requests, all of it spent on retrieved text.",
        },
    },
    Parametric {
        id: "cap-shared-prefix-kv",
        params: &[
            Param { name: "model", default: L31_8B, choices: &[L31_8B, L3_8B, Q25_7B, Q25_14B, Q3_8B, MISTRAL_7B] },
            Param {
                name: "batch",
                default: n("32", "32"),
                choices: &[n("8", "8"), n("16", "16"), n("32", "32"), n("64", "64")],
            },
            Param {
                name: "prefix",
                default: n("2048", "2,048"),
                choices: &[n("1024", "1,024"), n("2048", "2,048"), n("3072", "3,072")],
            },
        ],
        scenario: r#"{"model": "{p:model}", "prompt_tokens": 4096, "output_tokens": 256, "context_tokens": 4352, "gpu": "h100-sxm", "batch": {p:batch}, "prefix_shared_tokens": {p:prefix}}"#,
        rules: &[Rule::Fits, Rule::WithinContext],
        zh: Words {
            question: "{m:name} 在 H100 上服务 {p:batch} 个请求，每个请求的上下文为 {r:workload.prompt_tokens:1:0} + {r:workload.output_tokens:1:0} = 4,352 个 token，其中开头 {p:prefix} 个 token 是所有请求共享的系统提示（正好是整数个 KV 块）。KV cache 为 BF16，每 token {r:kv_cache_bytes_per_token:0.0009765625:0} KiB。开启前缀缓存后，共享前缀只存一份。这 {p:batch} 个请求的 KV cache 共占多少 GB（1 GB = 10⁹ 字节）？",
            hint: "存储的 token 数 = {p:batch} × (4,352 − {p:prefix}) + {p:prefix}，再乘以 {r:kv_cache_bytes_per_token:0.0009765625:0} KiB。",
            solution: "({p:batch} × (4,352 − {p:prefix}) + {p:prefix}) 个 token × {r:kv_cache_bytes_per_token:1:0} 字节 ≈ {key} GB；不共享时是 {p:batch} × 4,352 个 token。省下的显存可以容纳更多并发请求。",
        },
        en: Words {
            question: "{m:name} serves {p:batch} requests on an H100, each with a context of {r:workload.prompt_tokens:1:0} + {r:workload.output_tokens:1:0} = 4,352 tokens whose first {p:prefix} tokens are a system prompt every request shares (a whole number of KV blocks). The KV cache is BF16 at {r:kv_cache_bytes_per_token:0.0009765625:0} KiB per token. With prefix caching the shared prefix is stored only once. How many GB (1 GB = 10⁹ bytes) of KV cache do the {p:batch} requests take?",
            hint: "Tokens stored = {p:batch} × (4,352 − {p:prefix}) + {p:prefix}; multiply by {r:kv_cache_bytes_per_token:0.0009765625:0} KiB.",
            solution: "({p:batch} × (4,352 − {p:prefix}) + {p:prefix}) tokens × {r:kv_cache_bytes_per_token:1:0} bytes ≈ {key} GB; without sharing it would be {p:batch} × 4,352 tokens. The memory saved holds more concurrent requests.",
        },
    },
    Parametric {
        id: "cap-prefix-90-prefill",
        params: &[
            // Not Llama 2: its 4,096 positions are below the scenario's 4,352-token context.
            Param { name: "model", default: L31_8B, choices: &[L31_8B, L3_8B, Q25_7B, Q25_14B, Q3_8B, MISTRAL_7B] },
            Param { name: "gpu", default: H100, choices: DATACENTER_GPUS },
            Param {
                name: "prompt",
                default: n("4096", "4,096"),
                choices: &[n("2048", "2,048"), n("3072", "3,072"), n("4096", "4,096")],
            },
            Param {
                name: "hit",
                default: n("0.9", "90%"),
                choices: &[n("0.5", "50%"), n("0.6", "60%"), n("0.75", "75%"), n("0.8", "80%"), n("0.9", "90%")],
            },
        ],
        scenario: r#"{"model": "{p:model}", "prompt_tokens": {p:prompt}, "output_tokens": 256, "context_tokens": 4352, "gpu": "{p:gpu}", "batch": 1, "prefix_hit_rate": {p:hit}}"#,
        // A few new tokens on a GPU with a high ridge point (the L40S) are memory-bound.
        rules: &[Rule::Fits, Rule::WithinContext, Rule::ComputeBound { phase: "prefill" }],
        zh: Words {
            question: "{m:name}（{r:params.total:1e-8:2} 亿参数，BF16；输入 embedding 的 {r:params.embedding:1e-8:2} 亿参数只查不乘，输出层的 {r:params.lm_head:1e-8:2} 亿参数只为最后一个 token 计算）在 {g:name}（稠密 BF16 {g:bf16_tflops} TFLOPS）上收到一个 {r:workload.prompt_tokens:1:0} 个 token 的提示。前缀缓存命中 {p:hit}：前 {r:time.prefix_cached_tokens:1:0} 个 token 已在缓存里。prefill 只算剩下的 token：每个 token 对其余每个参与矩阵乘的参数花 2 FLOPs，最后一个 token 另对输出层每个参数花 2 FLOPs，它们对整个提示的因果 attention 共花 2 × 层数 × 查询头数 × head_dim × (提示长度² − 已缓存长度²) FLOPs（{m:layers} 层，{m:heads} 个查询头，head_dim {m:head_dim}）。这段 prefill 受算力限制，它的时间下限是多少毫秒？",
            hint: "要算的 token 数 = {r:workload.prompt_tokens:1:0} − {r:time.prefix_cached_tokens:1:0}。FLOPs = 2 × (参数 − embedding − 输出层) × 要算的 token 数 + 2 × 输出层 + 2 × {m:layers} × {m:heads} × {m:head_dim} × ({r:workload.prompt_tokens:1:0}² − {r:time.prefix_cached_tokens:1:0}²)，再除以 {g:bf16_tflops} TFLOPS。",
            solution: "只算 {r:phases.prefill.tokens:1:0} 个新 token，FLOPs ≈ {r:phases.prefill.flops:1e-12:2} TFLOP，÷ {g:bf16_tflops} TFLOPS ≈ {key} ms。新 token 的 attention 仍要读整个提示的 KV，所以时间比按新 token 占比折算的完整 prefill 略长。显存项（读 {r:phases.prefill.bytes:1e-9:1} GB）只要 {r:phases.prefill.bound.memory_s:1e3:2} ms。按实测效率约需 {r:time.prefill_s:1e3:1} ms，TTFT 约 {r:time.time_to_first_token_s:1e3:1} ms。",
        },
        en: Words {
            question: "{m:name} ({r:params.total:1e-9:3} billion parameters in BF16; the input embedding's {r:params.embedding:1e-6:0} million looked up, not multiplied, and the output layer's {r:params.lm_head:1e-6:0} million computed for the last token only) gets a {r:workload.prompt_tokens:1:0}-token prompt on an {g:name} ({g:bf16_tflops} dense BF16 TFLOPS). The prefix cache hits {p:hit} of it: the first {r:time.prefix_cached_tokens:1:0} tokens are already cached. Prefill computes only the rest: 2 FLOPs per other multiplied parameter per token, 2 FLOPs per output-layer parameter more for the last token, and their causal attention over the whole prompt costs 2 × layers × query heads × head_dim × (prompt length² − cached length²) FLOPs ({m:layers} layers, {m:heads} query heads, head_dim {m:head_dim}). This prefill is compute-bound: what is the lower bound on its time, in milliseconds?",
            hint: "Tokens to compute = {r:workload.prompt_tokens:1:0} − {r:time.prefix_cached_tokens:1:0}. FLOPs = 2 × (parameters − embedding − output layer) × tokens to compute + 2 × output layer + 2 × {m:layers} × {m:heads} × {m:head_dim} × ({r:workload.prompt_tokens:1:0}² − {r:time.prefix_cached_tokens:1:0}²); divide by {g:bf16_tflops} TFLOPS.",
            solution: "Only {r:phases.prefill.tokens:1:0} new tokens are computed: FLOPs ≈ {r:phases.prefill.flops:1e-12:2} TFLOP; ÷ {g:bf16_tflops} TFLOPS ≈ {key} ms. The new tokens' attention still reads the whole prompt's KV, so the time is a little more than the full prefill's scaled by the share of new tokens. The memory term (reading {r:phases.prefill.bytes:1e-9:1} GB) is only {r:phases.prefill.bound.memory_s:1e3:2} ms. At measured efficiency it takes about {r:time.prefill_s:1e3:1} ms, and the TTFT is about {r:time.time_to_first_token_s:1e3:1} ms.",
        },
    },
    Parametric {
        id: "cluster-intra-node-bw",
        params: &[Param {
            name: "gpu",
            default: H100,
            choices: &[H100, H200, A100_80, V100_32, MI300X, L40S, A100_PCIE_80, H100_PCIE],
        }],
        scenario: r#"{"model": "llama-3.1-8b", "gpu": "{p:gpu}"}"#,
        rules: &[],
        zh: Words {
            question: "一台服务器装有 {r:hardware.gpus_per_node:1:0} 张 {g:name}，节点内 GPU 之间走 {g:link}，每卡双向 {r:hardware.intra_node_bytes_per_s_per_direction:2e-9:0} GB/s。节点内每张 GPU 单向带宽是多少 GB/s？",
            hint: "厂商给的是两个方向之和，要除以 2。",
            solution: "{r:hardware.intra_node_bytes_per_s_per_direction:2e-9:0} / 2 = {key} GB/s 每方向。出了节点，按引擎默认的集群网络，每卡单向只剩 {r:hardware.inter_node_bytes_per_s_per_direction:1e-9:0} GB/s。",
        },
        en: Words {
            question: "A server holds {r:hardware.gpus_per_node:1:0} {g:name} GPUs, linked inside the node by {g:link} at {r:hardware.intra_node_bytes_per_s_per_direction:2e-9:0} GB/s bidirectional per GPU. What is the per-GPU bandwidth in one direction inside the node, in GB/s?",
            hint: "The vendor's figure adds both directions: halve it.",
            solution: "{r:hardware.intra_node_bytes_per_s_per_direction:2e-9:0} / 2 = {key} GB/s per direction. Outside the node, on the engine's default cluster network, each GPU has only {r:hardware.inter_node_bytes_per_s_per_direction:1e-9:0} GB/s per direction.",
        },
    },
    Parametric {
        id: "cluster-inter-node-bw",
        params: &[Param {
            name: "net",
            default: n("nvswitch_efa", "AWS EFA"),
            // The topologies' networks: EFA as on a p5 (3,200 Gbps per node), InfiniBand NDR (one
            // 400 Gbps port per GPU), InfiniBand HDR (200 Gbps per GPU, the engine's network
            // for PCIe nodes). The question names no GPU: the network alone sets the key.
            choices: &[n("nvswitch_efa", "AWS EFA"), n("nvswitch", "InfiniBand NDR"), n("pcie", "InfiniBand HDR")],
        }],
        scenario: r#"{"model": "llama-3.1-8b", "gpu": "h100-sxm", "topology": "{p:net}"}"#,
        rules: &[],
        zh: Words {
            question: "一个 GPU 集群的每个节点有 {r:hardware.gpus_per_node:1:0} 张 GPU，节点之间用 {p:net} 连接：每个节点的网络带宽合计 {r:hardware.inter_node_bytes_per_s_per_direction:6.4e-8:0} Gbps，由节点里的 {r:hardware.gpus_per_node:1:0} 张 GPU 分用。离开节点后，每张 GPU 单向带宽是多少 GB/s？",
            hint: "Gbps 除以 8 得 GB/s，再分给 {r:hardware.gpus_per_node:1:0} 张卡。",
            solution: "{r:hardware.inter_node_bytes_per_s_per_direction:6.4e-8:0} Gbps / 8 = {r:hardware.inter_node_bytes_per_s_per_direction:8e-9:0} GB/s 每节点，/ {r:hardware.gpus_per_node:1:0} 张卡 = {key} GB/s 每卡。离开节点后，每卡的带宽比节点内的链路低（NVLink 在节点内要快上数倍到十几倍），延迟也更高，这是张量并行留在节点内的原因之一。",
        },
        en: Words {
            question: "Each node of a GPU cluster has {r:hardware.gpus_per_node:1:0} GPUs, and the nodes are joined by {p:net}: {r:hardware.inter_node_bytes_per_s_per_direction:6.4e-8:0} Gbps of networking per node, shared by its {r:hardware.gpus_per_node:1:0} GPUs. Outside the node, what is the per-GPU bandwidth in one direction, in GB/s?",
            hint: "Gbps ÷ 8 gives GB/s; share it among {r:hardware.gpus_per_node:1:0} GPUs.",
            solution: "{r:hardware.inter_node_bytes_per_s_per_direction:6.4e-8:0} Gbps / 8 = {r:hardware.inter_node_bytes_per_s_per_direction:8e-9:0} GB/s per node, / {r:hardware.gpus_per_node:1:0} GPUs = {key} GB/s per GPU. Outside the node each GPU has less bandwidth than on the links inside it (NVLink inside a node is several to over ten times faster) and more latency, one reason tensor parallelism stays inside a node.",
        },
    },
    Parametric {
        id: "train-70b-qlora-base",
        params: &[
            Param {
                name: "model",
                default: L31_70B,
                choices: &[L31_70B, L33_70B, Q25_72B, Q25_14B, L2_13B, L31_8B, Q3_8B, Q25_7B, MISTRAL_7B],
            },
            Param {
                name: "rank",
                default: n("16", "16"),
                choices: &[n("8", "8"), n("16", "16"), n("32", "32"), n("64", "64")],
            },
        ],
        scenario: r#"{"model": "{p:model}", "mode": "qlora", "lora_rank": {p:rank}}"#,
        rules: &[],
        zh: Words {
            question: "用 QLoRA 微调 {m:name}：它共有 {r:params.total:1e-8:1} 亿参数，其中嵌入层 {r:params.embedding:1e-8:2} 亿、输出层 {r:params.lm_head:1e-8:2} 亿，这两层保持 BF16，其余参数以双重量化的 NF4 存储（每参数 4.127 bit）。每层七个线性模块（q/k/v/o/gate/up/down）上挂秩 {p:rank} 的适配器，共 {r:params.trainable:1e-4:0} 万个 FP32 参数。GPU 上的权重（冻结底座加适配器）共占多少 GB（1 GB = 10⁹ 字节）？",
            hint: "NF4 部分 = (总参数 − 嵌入层 − 输出层) × 4.127 / 8 字节；BF16 参数每个 2 字节，适配器参数每个 4 字节。",
            solution: "NF4 部分是 ({r:params.total:1e-8:1} − {r:params.embedding:1e-8:2} − {r:params.lm_head:1e-8:2}) 亿 × 4.127 / 8 字节；BF16 的嵌入层和输出层共 {r:params.embedding:2e-9:2} + {r:params.lm_head:2e-9:2} GB；适配器 {r:params.trainable:4e-9:2} GB。合计约 {key} GB，而 BF16 的完整权重要 {r:params.total:2e-9:1} GB。",
        },
        en: Words {
            question: "QLoRA fine-tuning of {m:name}: of its {r:params.total:1e-9:2} billion parameters, the embedding ({r:params.embedding:1e-6:0} million) and the output layer ({r:params.lm_head:1e-6:0} million) stay in BF16 and the rest are stored in NF4 with double quantisation (4.127 bits each). Rank-{p:rank} adapters on the seven linear modules of every layer (q/k/v/o/gate/up/down) add {r:params.trainable:1e-6:2} million FP32 parameters. How many GB (1 GB = 10⁹ bytes) do the weights on the GPU (frozen base plus adapters) take?",
            hint: "NF4 part = (all parameters − embedding − output layer) × 4.127 / 8 bytes; 2 bytes per BF16 parameter, 4 per adapter parameter.",
            solution: "The NF4 part is ({r:params.total:1e-9:2} − {r:params.embedding:1e-9:3} − {r:params.lm_head:1e-9:3}) × 10⁹ × 4.127 / 8 bytes; the BF16 embedding and output layer take {r:params.embedding:2e-9:2} + {r:params.lm_head:2e-9:2} GB; the adapters {r:params.trainable:4e-9:2} GB. In all about {key} GB, where the full BF16 weights would take {r:params.total:2e-9:1} GB.",
        },
    },
];
