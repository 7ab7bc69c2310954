//! The validation table's typed facts in words (conditions, units, reasons), and the table as
//! markdown for the CLI and docs/validation.md.

use super::facts::{mode, recompute};
use super::Lang;
use crate::engine::precision::compute::ComputeDtype;
use crate::validation::{
    Conditions, LlamaBackend, LlamaTest, Note, Reason, RowUnit, SizeReport, ValidationTable,
};

/// The conditions of a row in `lang` (the GPU itself is the table's GPU column).
pub fn conditions(c: &Conditions, lang: Lang) -> String {
    let zh = lang == Lang::Zh;
    // A model size depends on the file type alone: no GPU, layout or lengths.
    if let Note::ModelSize { .. } = c.note {
        return if zh {
            format!("{} 文件类型；{}", c.weight_dtype.name(), note(&c.note, lang))
        } else {
            format!("{} file type; {}", c.weight_dtype.name(), note(&c.note, lang))
        };
    }
    let mut out = if zh {
        format!(
            "{} 权重，{} 块 GPU，tp {} pp {} dp {}，batch {}，上下文 {}",
            c.weight_dtype.name(),
            c.gpus,
            c.tensor_parallel,
            c.pipeline_parallel,
            c.data_parallel,
            c.batch,
            c.context_tokens
        )
    } else {
        format!(
            "{} weights, {} GPU{}, tp {} pp {} dp {}, batch {}, context {}",
            c.weight_dtype.name(),
            c.gpus,
            if c.gpus == 1 { "" } else { "s" },
            c.tensor_parallel,
            c.pipeline_parallel,
            c.data_parallel,
            c.batch,
            c.context_tokens
        )
    };
    if c.mode != crate::engine::workload::Mode::Inference {
        out += &if zh {
            format!("，{}，{} 个微批", mode(c.mode, lang), c.micro_batches)
        } else {
            format!(", {}, {} micro-batches", mode(c.mode, lang), c.micro_batches)
        };
    }
    let note = note(&c.note, lang);
    if !note.is_empty() {
        out += if zh { "；" } else { "; " };
        out += &note;
    }
    out
}

fn yes_no(b: bool, lang: Lang) -> &'static str {
    match (b, lang) {
        (true, Lang::Zh) => "是",
        (false, Lang::Zh) => "否",
        (true, Lang::En) => "yes",
        (false, Lang::En) => "no",
    }
}

/// A measurement kind (from measurements.json, or the kind a row compares) in `lang`, or `None`
/// for a kind this table does not know (see [`kind`]).
pub fn known_kind(kind: &str, lang: Lang) -> Option<&'static str> {
    let (en, zh) = match kind {
        "decode_throughput_bs1" => ("decode throughput, batch 1", "解码吞吐（batch 1）"),
        "decode_throughput_batched" => ("decode throughput, batched", "解码吞吐（多请求成批）"),
        "e2e_latency_batched" => ("end-to-end latency, batched", "端到端延迟（多请求成批）"),
        "offline_throughput" => ("offline throughput", "离线吞吐"),
        "inference_memory" => ("inference memory", "推理显存"),
        "inference_memory_profile" => ("inference memory profile", "推理显存剖析"),
        "inference_weights_memory" => ("inference weight memory", "推理权重显存"),
        "inference_memory_breakdown_paper" => ("inference memory breakdown (paper)", "推理显存构成（论文）"),
        "inference_model_size_4bit" => ("4-bit model size", "4 位量化模型大小"),
        "kv_cache_bytes_per_token" => ("KV cache bytes per token", "每 token 的 KV cache 字节数"),
        "finetune_memory_peft" => ("fine-tuning memory (PEFT)", "微调显存（PEFT）"),
        "training_peak_memory" => ("training peak memory", "训练峰值显存"),
        "training_memory_analytic" => ("training memory (analytic)", "训练显存（解析式）"),
        "training_activation_formula" => ("training activation formula", "训练激活值公式"),
        "training_iteration_time" => ("training iteration time", "训练迭代时间"),
        "training_layer_time" => ("training time of one layer", "训练单层时间"),
        "training_throughput" => ("training throughput", "训练吞吐"),
        "training_tokens_per_s" => ("training tokens per second", "训练吞吐（token/秒）"),
        "ttft" => ("time to first token", "首 token 时间"),
        "tpot_under_load" => ("time between tokens under load", "负载下的 token 间隔"),
        "itl_fixed_concurrency" => {
            ("time between tokens at a fixed number of users", "固定并发用户数下的 token 间隔")
        }
        "ttft_fixed_concurrency" => {
            ("time to first token at a fixed number of users", "固定并发用户数下的首 token 时间")
        }
        "moe_itl_fixed_concurrency" => (
            "time between tokens at a fixed number of users, mixture-of-experts",
            "固定并发用户数下的 token 间隔（混合专家）",
        ),
        "moe_ttft_fixed_concurrency" => (
            "time to first token at a fixed number of users, mixture-of-experts",
            "固定并发用户数下的首 token 时间（混合专家）",
        ),
        "speculative_tpot_bs1" => (
            "time per output token at batch 1 with speculative decoding, acceptance length stated",
            "batch 1 下使用投机解码的每个输出 token 时间（给定接受长度）",
        ),
        "prefix_throughput_fixed_concurrency" => (
            "serving throughput at a fixed number of users, prefix cache hit rate stated",
            "固定并发用户数下的服务吞吐（给定前缀缓存命中率）",
        ),
        "prefix_ttft_fixed_concurrency" => (
            "time to first token at a fixed number of users, prefix cache hit rate stated",
            "固定并发用户数下的首 token 时间（给定前缀缓存命中率）",
        ),
        "moe_throughput_fixed_concurrency" => (
            "serving throughput at a fixed number of users, mixture-of-experts",
            "固定并发用户数下的服务吞吐（混合专家）",
        ),
        "wide_ep_decode_throughput_per_gpu" => (
            "decode throughput per GPU, wide expert parallelism (attention data-parallel, decode alone at a fixed batch per GPU)",
            "每块 GPU 的解码吞吐（大规模专家并行，注意力数据并行，单独测解码、每块 GPU 的 batch 固定）",
        ),
        "disaggregation_under_load" => (
            "serving under a Poisson load, disaggregated deployment and its aggregated baseline",
            "泊松负载下的服务（prefill 与 decode 分离的部署及其不分离的基线）",
        ),
        "disaggregation_ttft_under_load" => (
            "mean time to first token under a Poisson load, disaggregated deployment and its aggregated baseline",
            "泊松负载下的平均首 token 时间（prefill 与 decode 分离的部署及其不分离的基线）",
        ),
        "disaggregation_itl_under_load" => (
            "mean inter-token latency under a Poisson load, disaggregated deployment and its aggregated baseline",
            "泊松负载下的平均 token 间隔（prefill 与 decode 分离的部署及其不分离的基线）",
        ),
        "kv_tier_restore" => (
            "time to first token with the prompt's KV cache in a CPU tier, against recomputing it",
            "KV cache 在 CPU 层级时的首 token 时间（对比重新计算）",
        ),
        "kv_tier_restore_ttft" => (
            "time to first token of one request whose whole prompt is restored from a CPU tier",
            "整个 prompt 的 KV cache 从 CPU 层级恢复时，单个请求的首 token 时间",
        ),
        "kv_tier_recompute_ttft" => (
            "time to first token of the same request, its whole prompt recomputed",
            "同一请求整个 prompt 重新计算时的首 token 时间",
        ),
        "kv_tier_serving_gain" => (
            "serving gain of KV cache tiers at high concurrency",
            "高并发下 KV cache 分级带来的服务收益",
        ),
        "wide_ep_prefill_throughput_per_gpu" => (
            "prefill throughput per GPU, wide expert parallelism (prefill alone at a fixed number of prompt tokens per GPU)",
            "每块 GPU 的预填充吞吐（大规模专家并行，单独测预填充、每块 GPU 的提示 token 数固定）",
        ),
        "decode_throughput_bs1_int4_kernels" => (
            "decode throughput, batch 1, named int4 kernel (ExLlamaV2, AWQ GEMV)",
            "解码吞吐（batch 1，指定的 int4 kernel：ExLlamaV2、AWQ GEMV）",
        ),
        "training_mfu" => ("training MFU", "训练 MFU"),
        "llama_bench" => ("llama-bench run", "llama-bench 测试"),
        "gguf_model_size" => ("model size in a llama.cpp file type", "llama.cpp 文件类型下的模型大小"),
        "llama_bench_tg_cuda" => ("llama-bench decode (tg), CUDA", "llama-bench 解码（tg），CUDA"),
        "llama_bench_tg_metal" => ("llama-bench decode (tg), Metal", "llama-bench 解码（tg），Metal"),
        "llama_bench_tg_rocm_vulkan" => {
            ("llama-bench decode (tg), ROCm/HIP and Vulkan", "llama-bench 解码（tg），ROCm/HIP 和 Vulkan")
        }
        "llama_bench_pp_cuda" => ("llama-bench prompt (pp), CUDA", "llama-bench 提示处理（pp），CUDA"),
        "llama_bench_pp_metal" => ("llama-bench prompt (pp), Metal", "llama-bench 提示处理（pp），Metal"),
        "llama_bench_pp_rocm_vulkan" => {
            ("llama-bench prompt (pp), ROCm/HIP and Vulkan", "llama-bench 提示处理（pp），ROCm/HIP 和 Vulkan")
        }
        _ => return None,
    };
    Some(if lang == Lang::Zh { zh } else { en })
}

/// A measurement kind in `lang`; a kind not in [`known_kind`] gets a generic label (the data
/// file may gain kinds before this table does; a test names any without wording).
pub fn kind(kind: &str, lang: Lang) -> &'static str {
    known_kind(kind, lang).unwrap_or(match lang {
        Lang::Zh => "其他测量",
        Lang::En => "other measurement",
    })
}

/// The model a row was evaluated with: its catalog id, or a GPT-style config from the conditions.
pub fn model(c: &Conditions, lang: Lang) -> String {
    match (&c.model, lang) {
        (Some(id), _) => id.clone(),
        (None, Lang::Zh) => "按条件构造的 GPT 式结构".into(),
        (None, Lang::En) => "GPT-style config from the conditions".into(),
    }
}

/// A llama-bench run in `lang`: the test, back end, flash attention, `-ngl` and compute path.
fn llama_bench(
    test: LlamaTest,
    backend: LlamaBackend,
    flash_attention: Option<bool>,
    gpu_layers: Option<u64>,
    compute: ComputeDtype,
    lang: Lang,
) -> String {
    let zh = lang == Lang::Zh;
    let test = match (test, zh) {
        (LlamaTest::Tg(n), false) => {
            format!("llama-bench tg{n}: {n} tokens generated from an empty context, batch 1")
        }
        (LlamaTest::Tg(n), true) => format!("llama-bench tg{n}：从空上下文生成 {n} 个 token，batch 1"),
        (LlamaTest::Pp(n), false) => format!("llama-bench pp{n}: a prompt of {n} tokens, batch 1"),
        (LlamaTest::Pp(n), true) => format!("llama-bench pp{n}：处理 {n} 个 token 的提示，batch 1"),
    };
    let fa = match (flash_attention, zh) {
        (Some(true), false) => "flash attention on",
        (Some(false), false) => "flash attention off",
        (None, false) => "flash attention not recorded",
        (Some(true), true) => "FlashAttention 开启",
        (Some(false), true) => "FlashAttention 关闭",
        (None, true) => "未记录是否开启 FlashAttention",
    };
    let ngl = gpu_layers.map(|n| format!(" -ngl {n}")).unwrap_or_default();
    let path = match (compute, zh) {
        (ComputeDtype::Int8, false) => "int8 path (llama.cpp's MMQ kernels)".to_owned(),
        (ComputeDtype::Int8, true) => "int8 路径（llama.cpp 的 MMQ kernel）".to_owned(),
        (d, false) => format!("{} path", d.label()),
        (d, true) => format!("{} 路径", d.label()),
    };
    let sep = if zh { "，" } else { ", " };
    [test, backend.name().to_owned() + &ngl, fa.to_owned(), path].join(sep)
}

/// What else a row assumes, in `lang` (empty for none).
pub fn note(n: &Note, lang: Lang) -> String {
    match (n, lang) {
        (Note::None, _) => String::new(),
        (Note::PromptOutput { prompt, output, output_assumed }, Lang::En) => {
            format!("prompt {prompt}, output {output}{}", if *output_assumed { " (assumed)" } else { "" })
        }
        (Note::PromptOutput { prompt, output, output_assumed }, Lang::Zh) => {
            format!("提示 {prompt}，输出 {output}{}", if *output_assumed { "（假设值）" } else { "" })
        }
        (Note::Recompute { recompute: r, sequence_parallel }, Lang::En) => format!(
            "{} recompute, sequence parallel {}",
            recompute(*r, lang),
            yes_no(*sequence_parallel, lang)
        ),
        (Note::Recompute { recompute: r, sequence_parallel }, Lang::Zh) => {
            format!("{}，序列并行 {}", recompute(*r, lang), yes_no(*sequence_parallel, lang))
        }
        (Note::SequencesPerReplica { sequences, virtual_stages: 1 }, Lang::En) => {
            format!("{sequences} sequences per replica")
        }
        (Note::SequencesPerReplica { sequences, virtual_stages: 1 }, Lang::Zh) => format!("每副本 {sequences} 条序列"),
        (Note::SequencesPerReplica { sequences, virtual_stages }, Lang::En) => format!(
            "{sequences} sequences per replica; interleaved schedule, {virtual_stages} stages per pipeline rank (the least the paper's interleaving allows; V not stated)"
        ),
        (Note::SequencesPerReplica { sequences, virtual_stages }, Lang::Zh) => format!(
            "每副本 {sequences} 条序列；交错流水线调度，每张 GPU 上 {virtual_stages} 个流水线阶段（论文所述交错调度允许的最小值；论文未给出 V）"
        ),
        (Note::ThroughputOnly { method }, Lang::En) => {
            format!("{method}; throughput only (peak memory not compared)")
        }
        (Note::ThroughputOnly { method }, Lang::Zh) => {
            format!("原文方法“{method}”；只比吞吐（不比峰值显存）")
        }
        (Note::UnderLoad { rate, prompt, output, max_seqs, p95 }, Lang::En) => format!(
            "{rate} requests/s (Poisson), prompt {prompt}, output {output}, at most {max_seqs} sequences; {}",
            if *p95 { "p95" } else { "median" }
        ),
        (Note::UnderLoad { rate, prompt, output, max_seqs, p95 }, Lang::Zh) => format!(
            "每秒 {rate} 个请求（泊松到达），提示 {prompt}，输出 {output}，最多 {max_seqs} 条序列；{}",
            if *p95 { "p95" } else { "中位数" }
        ),
        (Note::AtConcurrency { users, prompt, output, max_seqs, p95 }, Lang::En) => format!(
            "{users} {} in a closed loop, prompt {prompt}, output {output}, at most {max_seqs} sequences; {}",
            if *users == 1 { "user" } else { "users" },
            if *p95 { "p95" } else { "median" }
        ),
        (Note::AtConcurrency { users, prompt, output, max_seqs, p95 }, Lang::Zh) => format!(
            "{users} 个用户闭环请求（一个完成才发下一个），提示 {prompt}，输出 {output}，最多 {max_seqs} 条序列；{}",
            if *p95 { "p95" } else { "中位数" }
        ),
        (Note::Recipe { method, recipe: r }, Lang::En) => format!(
            "{method}, {} recipe: all bf16, {}{}, {} recompute, loss in {} chunks, ZeRO-{}",
            r.framework,
            super::facts::optimizer(r.optimizer, lang),
            if r.optimizer_in_backward { " in backward" } else { "" },
            recompute(r.recompute, lang),
            r.loss_chunks,
            r.zero_stage
        ),
        (Note::LlamaBench { test, backend, flash_attention, gpu_layers, compute }, _) => {
            llama_bench(*test, *backend, *flash_attention, *gpu_layers, *compute, lang)
        }
        (Note::ModelSize { reported }, Lang::En) => match reported {
            SizeReport::LlamaBench => "size as llama-bench's size column reports it",
            SizeReport::QuantizeHelp => "size as llama-quantize's help text lists it",
            SizeReport::LoaderLog => "size from the loader's 'file size' line",
        }
        .into(),
        (Note::ModelSize { reported }, Lang::Zh) => match reported {
            SizeReport::LlamaBench => "llama-bench 的 “size” 列报告的大小",
            SizeReport::QuantizeHelp => "llama-quantize 帮助文本列出的大小",
            SizeReport::LoaderLog => "加载器日志中 “file size” 一行给出的大小",
        }
        .into(),
        (Note::Stated(r), _) => stated(r, lang),
        (Note::Disaggregation { rate, prompt, output, prefill_workers: 0, .. }, Lang::En) => format!(
            "{rate} requests/s (Poisson), prompt {prompt}, output {output}; aggregated: every replica prefills and decodes; means"
        ),
        (Note::Disaggregation { rate, prompt, output, prefill_workers: 0, .. }, Lang::Zh) => format!(
            "每秒 {rate} 个请求（泊松到达），提示 {prompt}，输出 {output}；不分离：每个副本既做预填充也做解码；平均值"
        ),
        (Note::Disaggregation { rate, prompt, output, prefill_workers, prefill_tensor_parallel }, Lang::En) => {
            format!(
                "{rate} requests/s (Poisson), prompt {prompt}, output {output}; disaggregated: {prefill_workers} prefill worker(s) of tp {prefill_tensor_parallel} beside the decode pool; means"
            )
        }
        (Note::Disaggregation { rate, prompt, output, prefill_workers, prefill_tensor_parallel }, Lang::Zh) => {
            format!(
                "每秒 {rate} 个请求（泊松到达），提示 {prompt}，输出 {output}；prefill 与 decode 分离：decode 池之外 {prefill_workers} 个 prefill 节点，每个 tp {prefill_tensor_parallel}；平均值"
            )
        }
        (Note::KvTier { prompt, restored, read_off_figure }, Lang::En) => format!(
            "prompt {prompt}, one request, GPU prefix cache off; {}{}",
            if *restored {
                "the whole prompt restored from a CPU tier"
            } else {
                "the whole prompt recomputed (no tier)"
            },
            if *read_off_figure { "; value read off the source's figure" } else { "" }
        ),
        (Note::KvTier { prompt, restored, read_off_figure }, Lang::Zh) => format!(
            "prompt {prompt}，单个请求，GPU 前缀缓存关闭；{}{}",
            if *restored { "整个 prompt 从 CPU 层级恢复" } else { "整个 prompt 重新计算（不用分级）" },
            if *read_off_figure { "；测量值从原文的图上读出" } else { "" }
        ),
        (Note::WideEp { sequences_per_replica, prompt, expert_parallel, redundant_experts, ep_comm, expert_imbalance }, _) => {
            wide_ep(*sequences_per_replica, *prompt, *expert_parallel, *redundant_experts, *ep_comm, *expert_imbalance, lang)
        }
        (Note::Recipe { method, recipe: r }, Lang::Zh) => format!(
            "原文方法“{method}”，{} 配方：全 bf16，{}{}，{}，损失分 {} 块，ZeRO-{}",
            r.framework,
            super::facts::optimizer(r.optimizer, lang),
            if r.optimizer_in_backward { "（融入反向传播）" } else { "" },
            recompute(r.recompute, lang),
            r.loss_chunks,
            r.zero_stage
        ),
    }
}

/// One phase of a wide-EP deployment in `lang`: the load per replica (prompts in a prefill), the
/// EP group, its redundant experts, the dispatch kernels and a stated imbalance.
fn wide_ep(
    sequences: u64,
    prompt: Option<u64>,
    ep: u64,
    redundant: u64,
    comm: crate::engine::stack::EpComm,
    imbalance: Option<f64>,
    lang: Lang,
) -> String {
    let zh = lang == Lang::Zh;
    let mut parts = vec![match (prompt, zh) {
        (Some(p), false) => format!("prefill alone: {sequences} prompts of {p} tokens per replica"),
        (Some(p), true) => format!("单独测预填充：每副本 {sequences} 个 {p} token 的提示"),
        (None, false) => format!("decode alone: {sequences} sequences per replica"),
        (None, true) => format!("单独测解码：每副本 {sequences} 条序列"),
    }];
    parts.push(format!("ep {ep}"));
    if redundant > 0 {
        parts.push(if zh {
            format!("{redundant} 个冗余专家")
        } else {
            format!("{redundant} redundant experts")
        });
    }
    parts.push(if zh { format!("分发 {}", comm.key()) } else { format!("dispatch {}", comm.key()) });
    if let Some(i) = imbalance {
        parts.push(if zh {
            format!("专家负载不均衡 {i}（原文所述）")
        } else {
            format!("expert imbalance {i} (as stated)")
        });
    }
    parts.join(if zh { "，" } else { ", " })
}

/// A stated training run's settings in `lang`: framework, the layout beyond tp/pp/dp, the
/// recipe, the checkpointing, and the FLOP convention or memory statistic compared.
fn stated(r: &crate::validation::StatedRun, lang: Lang) -> String {
    use crate::engine::workload::{FlopConvention, LowPrecisionRecipe};
    use crate::validation::MemoryStatistic;
    let zh = lang == Lang::Zh;
    // The framework as the source names it, quoted on zh pages (a name, not a sentence).
    let mut parts = vec![if zh { format!("“{}”", r.framework) } else { r.framework.clone() }];
    if r.context_parallel > 1 {
        parts.push(if zh {
            format!("上下文并行 {}", r.context_parallel)
        } else {
            format!("cp {}", r.context_parallel)
        });
    }
    if r.virtual_pipeline_stages > 1 {
        parts.push(if zh {
            format!("交错流水线 v {}", r.virtual_pipeline_stages)
        } else {
            format!("interleaved v {}", r.virtual_pipeline_stages)
        });
    }
    if r.expert_parallel > 1 {
        parts.push(format!("ep {}", r.expert_parallel));
        parts.push(r.ep_comm.key().to_owned());
        if r.ep_overlap {
            parts.push(if zh { "EP 重叠".to_owned() } else { "EP overlap".to_owned() });
        }
    }
    if r.zero_stage > 0 {
        parts.push(format!("ZeRO-{}", r.zero_stage));
    }
    if r.recipe != LowPrecisionRecipe::None {
        parts.push(r.recipe.name().to_owned());
    }
    let policy = recompute(r.recompute, lang);
    parts.push(match (r.recompute_layers, zh) {
        (Some(n), false) => format!("{policy} on {n} layers per stage"),
        (Some(n), true) => format!("{policy}（每段 {n} 层）"),
        (None, _) => policy.to_owned(),
    });
    if let Some(c) = r.flop_convention {
        let name = match c {
            FlopConvention::MegatronCausal => "megatron_causal",
            FlopConvention::Palm => "palm",
            FlopConvention::WithEmbedding => "with_embedding",
        };
        parts.push(if zh { format!("FLOP 口径“{name}”") } else { format!("FLOP convention {name}") });
    }
    if let Some(st) = r.statistic {
        parts.push(match (st, zh) {
            (MemoryStatistic::Allocated, false) => "the source reports allocated memory".to_owned(),
            (MemoryStatistic::Allocated, true) => "原文报告已分配显存".to_owned(),
            (MemoryStatistic::Reserved, false) => {
                "the source reports reserved memory (the engine models allocated)".to_owned()
            }
            (MemoryStatistic::Reserved, true) => "原文报告已预留显存（引擎估算的是已分配显存）".to_owned(),
        });
    }
    parts.join(if zh { "，" } else { ", " })
}

/// A row's unit in `lang`.
pub fn unit(u: RowUnit, lang: Lang) -> &'static str {
    match (u, lang) {
        (RowUnit::MsPerBatch, Lang::En) => "ms per batch",
        (RowUnit::MsPerBatch, Lang::Zh) => "ms/批",
        (RowUnit::OutputTokensPerSPerGpu, Lang::En) => "output tokens/s per GPU",
        (RowUnit::OutputTokensPerSPerGpu, Lang::Zh) => "输出 token/秒/GPU",
        (RowUnit::OutputTokensPerS, Lang::En) => "output tokens/s",
        (RowUnit::OutputTokensPerS, Lang::Zh) => "输出 token/秒",
        (RowUnit::GibWeightsPerGpu, Lang::En) => "GiB weights per GPU",
        (RowUnit::GibWeightsPerGpu, Lang::Zh) => "GiB 权重/GPU",
        (RowUnit::BytesPerToken, Lang::En) => "bytes per token (kv_cache_GiB / kv_tokens)",
        (RowUnit::BytesPerToken, Lang::Zh) => "字节/token（kv_cache_GiB / kv_tokens）",
        (RowUnit::SPerIteration, Lang::En) => "s per iteration",
        (RowUnit::SPerIteration, Lang::Zh) => "s/迭代",
        (RowUnit::ModelTflopsPerGpu, Lang::En) => "model TFLOP/s per GPU",
        (RowUnit::ModelTflopsPerGpu, Lang::Zh) => "模型 TFLOP/s/GPU",
        (RowUnit::TokensPerSReported, Lang::En) => "tokens/s (as reported)",
        (RowUnit::TokensPerSReported, Lang::Zh) => "token/秒（按原文口径）",
        (RowUnit::GibPeakPerGpu, Lang::En) => "GiB peak per GPU",
        (RowUnit::GibPeakPerGpu, Lang::Zh) => "GiB 峰值/GPU",
        (RowUnit::MsToFirstToken, Lang::En) => "ms to first token",
        (RowUnit::MsToFirstToken, Lang::Zh) => "首 token 毫秒数",
        (RowUnit::MsPerOutputTokenUnderLoad, Lang::En) => "ms per output token under load",
        (RowUnit::MsPerOutputTokenUnderLoad, Lang::Zh) => "负载下每个输出 token 毫秒数",
        (RowUnit::MsToFirstTokenUnderLoad, Lang::En) => "ms to first token under load",
        (RowUnit::MsToFirstTokenUnderLoad, Lang::Zh) => "负载下首 token 毫秒数",
        (RowUnit::TokensPerS, Lang::En) => "tokens/s",
        (RowUnit::TokensPerS, Lang::Zh) => "token/秒",
        (RowUnit::GibModelSize, Lang::En) => "GiB of tensors (llama.cpp's model size)",
        (RowUnit::GibModelSize, Lang::Zh) => "GiB 张量（llama.cpp 报告的模型大小）",
        (RowUnit::TokensPerSPerGpu, Lang::En) => "tokens/s per GPU",
        (RowUnit::TokensPerSPerGpu, Lang::Zh) => "token/秒/GPU",
        (RowUnit::Mfu, Lang::En) => "MFU",
        (RowUnit::Mfu, Lang::Zh) => "MFU（模型 FLOP 利用率）",
        (RowUnit::PromptTokensPerSPerGpu, Lang::En) => "prompt tokens/s per GPU",
        (RowUnit::PromptTokensPerSPerGpu, Lang::Zh) => "提示 token/秒/GPU",
    }
}

/// Why a measurement cannot be expressed, in `lang`.
pub fn reason(r: &Reason, lang: Lang) -> String {
    match (r, lang) {
        (Reason::SpeculativeDecoding, Lang::En) => "speculative decoding without a stated method and acceptance length is not expressed".into(),
        (Reason::SpeculativeDecoding, Lang::Zh) => "未给出方法和接受长度的投机解码无法表达".into(),
        (Reason::BeyondSustainableRate { sustainable }, Lang::En) => format!(
            "the measured rate is past the {} requests/s the load model sustains (latencies unbounded)",
            crate::charts::format::format_sig3(*sustainable)
        ),
        (Reason::BeyondSustainableRate { sustainable }, Lang::Zh) => format!(
            "测量时的请求率超过了负载模型可持续的每秒 {} 个请求（延迟会无限增长）",
            crate::charts::format::format_sig3(*sustainable)
        ),
        (Reason::NoArchitecture, Lang::En) => {
            "model not in the catalog and no architecture in the conditions".into()
        }
        (Reason::NoArchitecture, Lang::Zh) => "模型不在目录中，条件里也没有给出结构".into(),
        (Reason::GpuNotInCatalog { gpu }, Lang::En) => format!("GPU '{gpu}' is not in the catalog"),
        (Reason::GpuNotInCatalog { gpu }, Lang::Zh) => format!("GPU“{gpu}”不在目录中"),
        (Reason::AmbiguousGpu { gpu, candidates }, Lang::En) => {
            format!("GPU '{gpu}' could be any of {} (the source does not say which)", candidates.join(", "))
        }
        (Reason::AmbiguousGpu { gpu, candidates }, Lang::Zh) => {
            format!("GPU“{gpu}”可能是 {} 中的任何一个（来源未说明是哪一个）", candidates.join("、"))
        }
        (Reason::NoBatchOrValue, Lang::En) => "no batch size or value".into(),
        (Reason::NoBatchOrValue, Lang::Zh) => "缺少 batch 或测量值".into(),
        (Reason::NoWeightsGib, Lang::En) => "no weights figure in GiB".into(),
        (Reason::NoWeightsGib, Lang::Zh) => "没有以 GiB 计的权重数字".into(),
        (Reason::NoBatchOrSequenceLength, Lang::En) => "no batch or sequence length".into(),
        (Reason::NoBatchOrSequenceLength, Lang::Zh) => "缺少 batch 或序列长度".into(),
        (Reason::PeakTrainingMemory, Lang::En) => "peak training memory depends on framework details (optimizer in backward, offload) not in the scenario".into(),
        (Reason::PeakTrainingMemory, Lang::Zh) => "训练峰值显存取决于框架细节（反向中更新优化器、卸载），场景中没有这些信息".into(),
        (Reason::UnknownRecipe { framework }, Lang::En) => {
            format!("the recipe of '{framework}' (optimizer, checkpointing, loss) is not known to the validation")
        }
        (Reason::UnknownRecipe { framework }, Lang::Zh) => {
            format!("不了解“{framework}”的训练配方（优化器、检查点、损失）")
        }
        (Reason::FsdpCpuOffload, Lang::En) => {
            "FSDP offloads parameters, gradients and optimizer states to the CPU, which is not modelled".into()
        }
        (Reason::FsdpCpuOffload, Lang::Zh) => "FSDP 把参数、梯度和优化器状态卸载到 CPU，未建模".into(),
        (Reason::UnsupportedKind { kind }, Lang::En) => {
            format!("{} is not a time or inference-memory measurement the scenario can express", self::kind(kind, lang))
        }
        (Reason::UnsupportedKind { kind }, Lang::Zh) => {
            format!("“{}”不是场景能表达的时间或推理显存测量", self::kind(kind, lang))
        }
        (Reason::UnknownFileType { name }, Lang::En) => format!("the file type '{name}' is not one the engine knows"),
        (Reason::UnknownFileType { name }, Lang::Zh) => format!("引擎不认识文件类型“{name}”"),
        (Reason::UnsupportedBackend { backend }, Lang::En) => {
            format!("the {backend} back end is not compared (CUDA, Metal, ROCm/HIP and Vulkan are)")
        }
        (Reason::UnsupportedBackend { backend }, Lang::Zh) => {
            format!("不比较 {backend} 后端（只比较 CUDA、Metal、ROCm/HIP 和 Vulkan）")
        }
        (Reason::UnknownTest { test }, Lang::En) => format!("llama-bench test '{test}' is not a plain tgN or ppN run"),
        (Reason::UnknownTest { test }, Lang::Zh) => format!("llama-bench 测试“{test}”不是单纯的 tgN 或 ppN"),
        (Reason::Unexpressed { setting }, _) => unexpressed(*setting, lang).into(),
        (Reason::Rejected { field, kind }, Lang::En) => format!("scenario rejected: {field}: {kind}"),
        (Reason::Rejected { field, kind }, Lang::Zh) => {
            format!("场景被拒绝：{field}：{}", super::errors::error_kind(kind, lang))
        }
    }
}

/// A setting no scenario key states, in `lang`.
fn unexpressed(s: crate::validation::Setting, lang: Lang) -> &'static str {
    use crate::validation::Setting as S;
    match (s, lang) {
        (S::TorchCompile, Lang::En) => "the run used torch.compile, whose fusion changes both the element-wise time and the saved activations; the scenario has no compile key",
        (S::TorchCompile, Lang::Zh) => "该次运行用了 torch.compile，其算子融合同时改变逐元素耗时和保存的激活；场景没有对应的编译开关",
        (S::PowerCap, Lang::En) => "the GPUs ran power-capped (500 W) at a peak the source itself does not know",
        (S::PowerCap, Lang::Zh) => "GPU 限功耗（500 W）运行，峰值连原文也不知道",
        (S::NetworkNotStated, Lang::En) => "the run spans nodes and the source does not state the network between them, which its collectives cross",
        (S::NetworkNotStated, Lang::Zh) => "该次运行跨节点，原文没有给出节点间网络，而其集合通信要经过它",
        (S::ActivationOffloadLayers, Lang::En) => "activations of some of the layers were offloaded to CPU memory; the scenario offloads all or none",
        (S::ActivationOffloadLayers, Lang::Zh) => "部分层的激活被卸载到 CPU 内存；场景只能全部卸载或都不卸载",
        (S::FlexAttention, Lang::En) => "the run's attention is FlexAttention, a kernel family with no published training rate in the engine's attention table",
        (S::FlexAttention, Lang::Zh) => "该次运行的注意力用 FlexAttention，引擎的注意力速率表中没有这一 kernel 族已发表的训练速率",
        (S::UnlistedNetwork, Lang::En) => "the run's network between nodes (200 Gb/s RoCE per GPU) is none of the scenario's topologies (InfiniBand NDR or EFA at 400 Gb/s with NVSwitch nodes)",
        (S::SpeedupOnly, Lang::En) => "the source gives only speed-ups over a full prefill, no times; even a hit kept on the GPU is only 42.5 times faster at 128K tokens, a fixed cost the source does not explain, and the storage's read rate is not stated",
        (S::SpeedupOnly, Lang::Zh) => "原文只给出相对完整预填充的加速倍数，没有时间；即使命中仍在 GPU 上的缓存，128K token 时也只快 42.5 倍，这一固定开销原文没有解释，存储的读取速率也没有给出",
        (S::GpuNotStated, Lang::En) => "the source does not name the GPU it measured on (nor a model in the catalog)",
        (S::GpuNotStated, Lang::Zh) => "原文没有说明测量所用的 GPU（模型也不在目录中）",
        (S::TierDefect, Lang::En) => "the disk tier restored 2.6 GB in 40 s (65 MB/s) against 0.9 s recomputed, from a RAM disk as from an NVMe drive: a defect of the implementation, not a read rate the tier model can take",
        (S::TierDefect, Lang::Zh) => "磁盘层级恢复 2.6 GB 用了 40 s（65 MB/s），重新计算只要 0.9 s，换成内存盘也一样：这是实现的缺陷，不是分级模型能采用的读取速率",
        (S::TierUnderLoad, Lang::En) => "restores measured under a request rate through an external cache service, on an H800 (not in the catalog); the tier rows compare one request at a time",
        (S::TierUnderLoad, Lang::Zh) => "恢复是在一定请求率下、经由外部缓存服务测得的，所用 H800 不在目录中；分层的对比行只比较单个请求",
        (S::ServingStudy, Lang::En) => "a serving study at high concurrency over traces or request mixes the source does not state in full (arrivals, lengths, reuse, cache sizes), reported as changes against a baseline",
        (S::ServingStudy, Lang::Zh) => "高并发下的服务研究，所用请求轨迹或请求组合原文没有完整给出（到达方式、长度、复用、缓存大小），只报告相对基线的变化",
        (S::UnlistedNetwork, Lang::Zh) => "该次运行的节点间网络（每块 GPU 200 Gb/s RoCE）不是场景提供的拓扑之一（NVSwitch 节点配 400 Gb/s 的 InfiniBand NDR 或 EFA）",
    }
}

/// The table as markdown in `lang` (the CLI and docs/validation.md use English).
pub fn to_markdown(t: &ValidationTable, lang: Lang) -> String {
    let mut out = String::from("| # | kind | model | GPU | conditions | measured | expected | bound | error | bound holds |\n|---|---|---|---|---|---|---|---|---|---|\n");
    let f = |v: f64| if v.abs() >= 100.0 { format!("{v:.0}") } else { format!("{v:.3}") };
    for r in &t.rows {
        out += &format!(
            "| {} | {} | {} | {} | {} | {} {} | {} | {} | {:+.1}% | {} |\n",
            r.index,
            r.kind,
            r.model.trim(),
            r.conditions.gpu,
            conditions(&r.conditions, lang),
            f(r.measured),
            unit(r.unit, lang),
            f(r.expected),
            r.bound.map_or("–".into(), f),
            r.error_pct,
            match r.bound_holds {
                Some(true) => "yes",
                Some(false) => "**NO**",
                None => "–",
            }
        );
    }
    out += "\n| kind | rows | median abs error | bound violations |\n|---|---|---|---|\n";
    for s in &t.summary {
        out += &format!(
            "| {} | {} | {:.1}% | {} |\n",
            s.kind, s.rows, s.median_abs_error_pct, s.bound_violations
        );
    }
    out += "\nNot expressed:\n\n";
    for n in &t.not_expressed {
        out += &format!("- #{} {} ({}): {}\n", n.index, n.kind, n.model.trim(), reason(&n.reason, lang));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::validation::validation_table;

    #[test]
    fn every_kind_in_the_data_and_the_table_is_worded() {
        let file: serde_json::Value =
            serde_json::from_str(include_str!("../catalog/data/measurements.json")).expect("parses");
        let t = validation_table();
        let mut kinds: Vec<String> = file["measurements"]
            .as_array()
            .expect("measurements")
            .iter()
            .filter_map(|m| m["kind"].as_str().map(String::from))
            .collect();
        kinds.extend(t.rows.iter().map(|r| r.kind.clone()));
        kinds.extend(t.summary.iter().map(|s| s.kind.clone()));
        kinds.sort();
        kinds.dedup();
        let missing: Vec<&String> =
            kinds.iter().filter(|k| Lang::ALL.iter().any(|l| known_kind(k, *l).is_none())).collect();
        assert!(missing.is_empty(), "kinds without wording in i18n::validation::known_kind: {missing:?}");
        assert_eq!(kind("a_new_kind", Lang::Zh), "其他测量");
    }

    #[test]
    fn every_row_and_reason_is_worded_in_chinese() {
        let t = validation_table();
        assert!(!t.rows.is_empty());
        for r in &t.rows {
            let c = conditions(&r.conditions, Lang::Zh);
            for bad in ["context", "micro-batches", "recompute", "Some(", "true", "false", "Training"] {
                assert!(!c.contains(bad), "'{bad}' in '{c}'");
            }
        }
        for n in &t.not_expressed {
            let text = reason(&n.reason, Lang::Zh);
            assert!(!text.contains("not") && !text.contains("must"), "{text}");
        }
        let md = to_markdown(&t, Lang::En);
        assert!(md.contains("| # | kind |"));
    }
}
