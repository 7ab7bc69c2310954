//! The parametric exercises: which numbers of a chapter exercise a student's variant may
//! change, and the question, hint and worked solution as templates in both languages.
//!
//! Model lists keep to dense models with grouped-query attention on every layer and an output
//! layer of their own (no sliding windows, no latent attention, no tied embeddings), so that
//! the shape a question states (layers, KV heads, head size) is all a student needs.

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

const fn n(v: &'static str, label: &'static str) -> Choice {
    c(v, label)
}

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
            question: "{m:name}（{m:layers} 层、{m:kv_heads} 个 KV 头、head_dim {m:head_dim}）以 BF16 KV cache 服务 {p:batch} 个并发请求，每个请求的上下文是 {p:ctx} 个 token。KV cache 一共多少 GB（1 GB = 10⁹ 字节）？",
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
        zh: Words {
            question: "全量微调 {m:name}（{r:params.total:1e-8:1} 亿参数），混合精度 Adam：FP32 主权重加两个矩，共 12 字节/参数。仅优化器状态就占多少 GB（1 GB = 10⁹ 字节）？",
            hint: "参数量 × 12 字节。",
            solution: "{r:params.total:1e-9:2}e9 × 12 B ≈ {key} GB。再加 BF16 权重 {r:memory_per_gpu_bytes.weights:1e-9:1} GB 和梯度 {r:memory_per_gpu_bytes.gradients:1e-9:1} GB，模型状态约 16 B/参数，还没算激活。",
        },
        en: Words {
            question: "A full fine-tune of {m:name} ({r:params.total:1e-9:2} billion parameters) with mixed-precision Adam keeps an FP32 master copy and two moments: 12 bytes per parameter. How many GB (1 GB = 10⁹ bytes) do the optimizer states alone take?",
            hint: "Parameters × 12 bytes.",
            solution: "{r:params.total:1e-9:2}e9 × 12 B ≈ {key} GB. Add {r:memory_per_gpu_bytes.weights:1e-9:1} GB of BF16 weights and {r:memory_per_gpu_bytes.gradients:1e-9:1} GB of gradients: about 16 B per parameter before activations.",
        },
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
        zh: Words {
            question: "{m:name}（{r:params.total:1e-8:1} 亿参数，BF16 权重）跑在 {g:name}（{g:bandwidth_tbs} TB/s）上，批大小 1：先输入 {r:workload.prompt_tokens:1:0} 个 token 的提示，再生成 {r:workload.output_tokens:1:0} 个 token，所以生成过程中 KV cache（每 token {r:kv_cache_bytes_per_token:0.0009765625:0} KiB）平均存有 {r:workload.decode_context_tokens:1:0} 个 token。每生成一个 token，要读一遍除输入 embedding（{r:params.embedding:1e-6:0} 百万参数，只按行查，不必整表读取）以外的全部权重，外加整个 KV cache。按峰值带宽算，每秒最多能生成多少个 token？",
            hint: "把每个 token 要读的字节加起来（不含 embedding 的权重，每个 2 字节，再加 {r:workload.decode_context_tokens:1:0} × {r:kv_cache_bytes_per_token:0.0009765625:0} KiB 的 KV cache），除以 {g:bandwidth_tbs} TB/s 得到每个 token 的时间，再取倒数。",
            solution: "每步要读约 {r:phases.decode.bytes:1e-9:2} GB，除以 {g:bandwidth_tbs} TB/s 得 {r:phases.decode.bound.memory_s:1e3:2} ms；计算项只有 {r:phases.decode.bound.compute_s:1e3:3} ms。所以上限约 {key} token/s，由显存带宽决定。",
        },
        en: Words {
            question: "{m:name} ({r:params.total:1e-9:2} billion parameters, BF16 weights) runs on an {g:name} ({g:bandwidth_tbs} TB/s) at batch size 1: a {r:workload.prompt_tokens:1:0}-token prompt, then {r:workload.output_tokens:1:0} generated tokens, so during generation the KV cache ({r:kv_cache_bytes_per_token:0.0009765625:0} KiB per token) holds {r:workload.decode_context_tokens:1:0} tokens on average. Each generated token reads every weight once except the input embedding ({r:params.embedding:1e-6:0} million parameters, looked up one row per token rather than read whole), plus the whole KV cache. At peak bandwidth, what is the upper bound on tokens per second?",
            hint: "Add up the bytes read per token (the weights without the embedding, 2 bytes each, plus {r:workload.decode_context_tokens:1:0} × {r:kv_cache_bytes_per_token:0.0009765625:0} KiB of KV cache), divide by {g:bandwidth_tbs} TB/s and take the inverse.",
            solution: "One step reads about {r:phases.decode.bytes:1e-9:2} GB, which takes {r:phases.decode.bound.memory_s:1e3:2} ms at {g:bandwidth_tbs} TB/s; the compute term is only {r:phases.decode.bound.compute_s:1e3:3} ms. The bound is therefore about {key} tokens/s, set by memory bandwidth.",
        },
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
            question: "{m:name}（{r:params.total:1e-8:1} 亿参数，BF16）在 {g:name}（{g:bandwidth_tbs} TB/s）上同时服务 {p:batch} 条序列。每条先输入 {r:workload.prompt_tokens:1:0} 个 token 的提示，再生成 {r:workload.output_tokens:1:0} 个 token，所以生成过程中每条序列的 KV cache 平均存有 {r:workload.decode_context_tokens:1:0} 个 token，每 token {r:kv_cache_bytes_per_token:0.0009765625:0} KiB。每一步要读除输入 embedding（{r:params.embedding:1e-6:0} 百万参数，只查不读）以外的全部权重，以及所有序列的 KV cache。按峰值带宽，一个平均的解码步最少要多少毫秒？",
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
        rules: &[Rule::WithinContext, Rule::AtLeast { path: "solvers.max_batch", min: 1.0 }],
        zh: Words {
            question: "{m:name}（{m:layers} 层，{m:kv_heads} 个 KV 头，head_dim {m:head_dim}）量化为 4 bit 权重，在一张 {g:name}（{g:memory_gb} GB）上服务，KV cache 用 BF16。权重占 {r:memory_per_gpu_bytes.weights:1e-9:2} GB（含分组缩放因子，embedding 和输出层保持 16 位），一个预填充分块的激活占 {b:memory_per_gpu_bytes.activations:1e-9:3} GB，各请求的输出 logits 共占 {b:memory_per_gpu_bytes.logits:1e-9:3} GB，运行时开销 1 GiB，另留 10% 的显存不用。最多能同时服务多少个 {p:ctx} token 的请求？显存容量按厂商标称的 GB 计：1 GB = 10⁹ 字节。",
            hint: "可用显存 = {g:memory_gb} GB × 0.9 − 权重 − 激活 − logits − 开销；每个请求的 KV = {p:ctx} × 每 token KV 字节。结果向下取整。",
            solution: "每 token KV = 2 × {m:layers} × {m:kv_heads} × {m:head_dim} × 2 B = {r:kv_cache_bytes_per_token:1:0} B。可用的 {r:usable_gpu_memory_bytes:1e-9:2} GB 里，权重占 {r:memory_per_gpu_bytes.weights:1e-9:2} GB，激活 {b:memory_per_gpu_bytes.activations:1e-9:3} GB，logits {b:memory_per_gpu_bytes.logits:1e-9:3} GB，运行时 1 GiB（1.07 GB）；剩下的空间放得下 {key} 个请求。",
        },
        en: Words {
            question: "{m:name} ({m:layers} layers, {m:kv_heads} KV heads, head_dim {m:head_dim}) is quantized to 4-bit weights and served on one {g:name} ({g:memory_gb} GB) with a BF16 KV cache. The weights take {r:memory_per_gpu_bytes.weights:1e-9:2} GB (with their group scales, and the embeddings and output layer in 16 bits), a prefill chunk's activations {b:memory_per_gpu_bytes.activations:1e-9:3} GB, the requests' output logits {b:memory_per_gpu_bytes.logits:1e-9:3} GB in all and the runtime 1 GiB, and 10% of the memory is kept free. How many concurrent {p:ctx}-token requests fit? GPU memory counts the vendor's GB: 1 GB = 10⁹ bytes.",
            hint: "Usable memory = {g:memory_gb} GB × 0.9 − weights − activations − logits − overhead; each request holds {p:ctx} × the KV bytes per token. Round down.",
            solution: "KV per token = 2 × {m:layers} × {m:kv_heads} × {m:head_dim} × 2 B = {r:kv_cache_bytes_per_token:1:0} B. Of the {r:usable_gpu_memory_bytes:1e-9:2} GB usable, the weights take {r:memory_per_gpu_bytes.weights:1e-9:2} GB, the activations {b:memory_per_gpu_bytes.activations:1e-9:3} GB, the logits {b:memory_per_gpu_bytes.logits:1e-9:3} GB and the runtime 1 GiB (1.07 GB); what is left holds {key} requests.",
        },
    },
];
