//! The engine's typed facts in words: derivations (formula, values, source), assumptions and
//! substituted values, in Chinese and English. Every `match` is exhaustive, so a formula or an
//! assumption without wording in one language is a compile error; a values template whose
//! placeholders (`{}`) differ in count from the values is caught by the tests below.

use super::quantities as q;
use super::Lang;
use crate::engine::assumption::Assumption;
use crate::engine::bound::Term;
use crate::engine::derivation::{Absent, Derivation, Formula, Source, Val};
use crate::engine::efficiency::Factor;
use crate::engine::precision::compute::{ComputeDtype, ComputePath};
use crate::engine::workload::{Mode, Optimizer, Recompute, TrainingPrecision};
use serde::Serialize;

/// A derivation in words, as the CLI's JSON and the "show the math" panel show it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct DerivationText {
    pub formula: String,
    pub values: String,
    pub source: String,
    /// The source is a cited title, as written (not translated): the page marks it as such.
    pub cited: bool,
}

/// A topology id (`nvswitch`, `nvswitch_efa`, `pcie`, `nvlink_bridge`) as the estimator's topology picker words it;
/// an unknown id as is.
pub fn topology_name(id: &str, lang: Lang) -> &str {
    let e = lang.est();
    match id {
        "nvswitch" => e.topology_nvswitch,
        "nvswitch_efa" => e.topology_efa,
        "pcie" => e.topology_pcie,
        "nvlink_bridge" => e.topology_bridge,
        other => other,
    }
}

/// What a roofline figure bounds. With peak rates and no overhead, max(W/F, Q/B, C/N) is the
/// shortest possible time: a lower bound on a time and, through its inverse, an upper bound on
/// a rate. Every label of a roofline figure is chosen by this, never shared between the two.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bounded {
    /// A time: the roofline gives the shortest possible one ("at least", 下限, 至少).
    Time,
    /// A rate (tokens/s, FLOP/s): the roofline gives the highest possible one ("at most", 上限, 最多).
    Rate,
}

/// A roofline figure in a column of times and rates: `≥ 4.64 ms` (the time is at least this),
/// `≤ 216 tokens/s` (the rate is at most this).
pub fn bound_cell(b: Bounded, value: &str) -> String {
    match b {
        Bounded::Time => format!("≥ {value}"),
        Bounded::Rate => format!("≤ {value}"),
    }
}

/// The words for a roofline figure of quantity `b`: "shortest possible" / "最短可能" for a time,
/// "highest possible" / "最高可能" for a rate.
pub fn bound_words(b: Bounded, lang: Lang) -> &'static str {
    match (b, lang) {
        (Bounded::Time, Lang::En) => "shortest possible",
        (Bounded::Time, Lang::Zh) => "最短可能",
        (Bounded::Rate, Lang::En) => "highest possible",
        (Bounded::Rate, Lang::Zh) => "最高可能",
    }
}

/// Words a derivation in `lang`.
pub fn derivation(d: &Derivation, lang: Lang) -> DerivationText {
    DerivationText {
        formula: formula(d.formula, lang).to_owned(),
        values: fill(values_template(d.formula, lang), &d.values, lang),
        source: source(&d.source, lang),
        cited: matches!(d.source, Source::Cited(_)),
    }
}

/// Replaces each `{}` of `template` with the next value in words; missing values leave `?`.
pub fn fill(template: &str, values: &[Val], lang: Lang) -> String {
    let mut out = String::with_capacity(template.len() + 16 * values.len());
    let mut vals = values.iter();
    let mut parts = template.split("{}");
    if let Some(first) = parts.next() {
        out.push_str(first);
    }
    for part in parts {
        match vals.next() {
            Some(v) => out.push_str(&val(v, lang)),
            None => out.push('?'),
        }
        out.push_str(part);
    }
    out
}

/// `12.345 ms`, `4.100 s`, `310.00 µs`: short times (the units read the same in both languages).
pub fn secs(t: f64) -> String {
    if t >= 1.0 {
        format!("{t:.3} s")
    } else if t >= 1e-3 {
        format!("{:.3} ms", t * 1e3)
    } else {
        format!("{:.2} µs", t * 1e6)
    }
}

pub use super::quantities::bytes;

/// One substituted value in words.
pub fn val(v: &Val, lang: Lang) -> String {
    let zh = lang == Lang::Zh;
    match v {
        Val::Int(n) => q::grouped(*n),
        Val::Count(n) => q::count(*n, lang),
        Val::Bytes(n) => bytes(*n),
        Val::ExactBytes(n) => q::exact_bytes(*n),
        Val::Flops(x) => q::flops(*x),
        Val::FlopRate(x) => q::flop_rate(*x),
        Val::ByteRate(x) => q::byte_rate(*x),
        Val::TokenRate(x) => q::token_rate(*x, lang),
        // A ratio of a million or more (a long prefill's FLOP per byte) reads by magnitude.
        Val::Fixed(x, _) if x.abs() >= 1e6 => {
            q::count(crate::engine::num::u128_from_f64(x.abs().round()), lang)
        }
        Val::Fixed(x, digits) => q::group_integer_part(&format!("{x:.*}", usize::from(*digits))),
        Val::Sci(x) => format!("{x:.4e}"),
        Val::Num(x) => q::group_integer_part(&x.to_string()),
        Val::Secs(t) => secs(*t),
        Val::Usd(x) => q::usd(*x),
        Val::Bits(d, group) => d.bits_label(*group),
        Val::Dtype(d) => d.name().to_owned(),
        Val::ComputeDtype(d) => d.label().to_owned(),
        Val::Path(p) => compute_path(p, lang),
        Val::Mode(m) => mode(*m, lang).to_owned(),
        Val::Optimizer(o) => optimizer(*o, lang).to_owned(),
        Val::Precision(p) => training_precision(*p, lang).to_owned(),
        Val::Recompute(r) => recompute(*r, lang).to_owned(),
        Val::Bool(b) => match (zh, b) {
            (true, true) => "是",
            (true, false) => "否",
            (false, true) => "yes",
            (false, false) => "no",
        }
        .to_owned(),
        Val::Term(t) => term(*t, lang).to_owned(),
        Val::ComputeBound(b) => match (zh, b) {
            (true, true) => "受算力限制",
            (true, false) => "受带宽限制",
            (false, true) => "compute-bound",
            (false, false) => "memory-bound",
        }
        .to_owned(),
        Val::Ratio(None) => String::new(),
        Val::Ratio(Some(r)) if zh => format!("，是次大项的 {r:.1} 倍"),
        Val::Ratio(Some(r)) => format!(" by {r:.1}×"),
        Val::Id(s) => s.clone(),
        Val::Layout { gpus, tp, pp, dp } if zh => format!("{gpus} 块 GPU = tp {tp} × pp {pp} × dp {dp}"),
        Val::Layout { gpus, tp, pp, dp } => format!("{gpus} GPUs = tp {tp} × pp {pp} × dp {dp}"),
        Val::Absent(a) => absent(*a, lang).to_owned(),
    }
}

/// A compute path: `bf16 tensor`, or `fp32 vector (no bf16 path)` on fallback.
pub fn compute_path(p: &ComputePath, lang: Lang) -> String {
    let vector = matches!(p.used, ComputeDtype::Fp32 | ComputeDtype::Fp64);
    let (used, asked) = (p.used.label(), p.requested.label());
    match (lang, vector, p.used == p.requested) {
        (Lang::En, false, true) => format!("{used} tensor"),
        (Lang::En, true, true) => format!("{used} vector"),
        (Lang::En, false, false) => format!("{used} tensor (no {asked} path)"),
        (Lang::En, true, false) => format!("{used} vector (no {asked} path)"),
        (Lang::Zh, false, true) => format!("{used} Tensor Core"),
        (Lang::Zh, true, true) => format!("{used} 向量单元"),
        (Lang::Zh, false, false) => format!("{used} Tensor Core（无 {asked} 路径）"),
        (Lang::Zh, true, false) => format!("{used} 向量单元（无 {asked} 路径）"),
    }
}

pub fn mode(m: Mode, lang: Lang) -> &'static str {
    match (m, lang) {
        (Mode::Inference, Lang::Zh) => "推理",
        (Mode::Inference, Lang::En) => "inference",
        (Mode::Training, Lang::Zh) => "训练",
        (Mode::Training, Lang::En) => "training",
        (Mode::Lora, Lang::Zh) => "LoRA",
        (Mode::Lora, Lang::En) => "lora",
        (Mode::Qlora, Lang::Zh) => "QLoRA",
        (Mode::Qlora, Lang::En) => "qlora",
    }
}

/// A training precision in the page's language.
pub fn training_precision(p: TrainingPrecision, lang: Lang) -> &'static str {
    match (p, lang) {
        (TrainingPrecision::Mixed, Lang::Zh) => "混合精度",
        (TrainingPrecision::Mixed, Lang::En) => "mixed precision",
        (TrainingPrecision::MixedFp32Grads, Lang::Zh) => "混合精度（fp32 梯度）",
        (TrainingPrecision::MixedFp32Grads, Lang::En) => "mixed precision, fp32 gradients",
        (TrainingPrecision::Bf16, Lang::Zh) => "全 bf16",
        (TrainingPrecision::Bf16, Lang::En) => "all bf16",
        (TrainingPrecision::Fp32, Lang::Zh) => "全 fp32",
        (TrainingPrecision::Fp32, Lang::En) => "all fp32",
    }
}

/// An optimizer's name in the page's language.
pub fn optimizer(o: Optimizer, lang: Lang) -> &'static str {
    match (o, lang) {
        (Optimizer::Adamw, _) => "AdamW",
        (Optimizer::Adam8bit, Lang::Zh) => "8 位 Adam",
        (Optimizer::Adam8bit, Lang::En) => "8-bit Adam",
        (Optimizer::Sgd, _) => "SGD",
        (Optimizer::SgdMomentum, Lang::Zh) => "带动量的 SGD",
        (Optimizer::SgdMomentum, Lang::En) => "SGD with momentum",
        (Optimizer::PagedAdam8bit, Lang::Zh) => "分页 8 位 AdamW",
        (Optimizer::PagedAdam8bit, Lang::En) => "paged 8-bit AdamW",
        (Optimizer::PagedAdamw, Lang::Zh) => "分页 AdamW",
        (Optimizer::PagedAdamw, Lang::En) => "paged AdamW",
    }
}

pub fn recompute(r: Recompute, lang: Lang) -> &'static str {
    match (r, lang) {
        (Recompute::None, Lang::Zh) => "不重算",
        (Recompute::None, Lang::En) => "none",
        (Recompute::Selective, Lang::Zh) => "选择性重算",
        (Recompute::Selective, Lang::En) => "selective",
        (Recompute::OpSelective, Lang::Zh) => "算子级选择性重算",
        (Recompute::OpSelective, Lang::En) => "op-level selective",
        (Recompute::Full, Lang::Zh) => "完全重算",
        (Recompute::Full, Lang::En) => "full",
    }
}

pub fn term(t: Term, lang: Lang) -> &'static str {
    match (t, lang) {
        (Term::Compute, Lang::Zh) => "计算",
        (Term::Compute, Lang::En) => "compute",
        (Term::Memory, Lang::Zh) => "显存带宽",
        (Term::Memory, Lang::En) => "memory",
        (Term::Communication, Lang::Zh) => "通信",
        (Term::Communication, Lang::En) => "communication",
        (Term::Overhead, Lang::Zh) => "开销",
        (Term::Overhead, Lang::En) => "overhead",
        (Term::Host, Lang::Zh) => "主机内存与 PCIe",
        (Term::Host, Lang::En) => "host memory and PCIe",
    }
}

fn absent(a: Absent, lang: Lang) -> &'static str {
    match (a, lang) {
        (Absent::NoneFits, Lang::Zh) => "放不下",
        (Absent::NoneFits, Lang::En) => "none fits",
        (Absent::NotStated, Lang::Zh) => "未注明",
        (Absent::NotStated, Lang::En) => "not stated",
        (Absent::NoLayoutUpTo65536, Lang::Zh) => "65536 块 GPU 以内均放不下",
        (Absent::NoLayoutUpTo65536, Lang::En) => "none up to 65536 GPUs",
        (Absent::NoNetwork, Lang::Zh) => "无",
        (Absent::NoNetwork, Lang::En) => "none",
        (Absent::UnifiedMemory, Lang::Zh) => "不经 PCIe（统一内存）",
        (Absent::UnifiedMemory, Lang::En) => "none (unified memory)",
        (Absent::NoTier, Lang::Zh) => "无此层",
        (Absent::NoTier, Lang::En) => "no such tier",
    }
}

/// Where a formula comes from, in words (cited titles as written).
pub fn source(s: &Source, lang: Lang) -> String {
    let zh = lang == Lang::Zh;
    let text = match s {
        Source::Cited(title) => return title.clone(),
        Source::ArticleBound if zh => {
            "原文的估算式 T ≈ max(W/F, Q/B, C/N) + T_overhead（用峰值、不计开销时为时间的下限）；Williams et al. 2009（roofline）"
        }
        Source::ArticleBound => {
            "the article's estimate T ≈ max(W/F, Q/B, C/N) + T_overhead (at peak rates with no overhead, a lower bound on time); Williams et al. 2009 (roofline)"
        }
        Source::ModelingCode if zh => "该模型族的 Hugging Face transformers 建模代码，逐模块计数",
        Source::ModelingCode => {
            "Hugging Face transformers modeling code for the family; counted module by module"
        }
        Source::PagedAttention if zh => "vLLM PagedAttention（Kwon et al. 2023）；训练时为 0",
        Source::PagedAttention => "vLLM PagedAttention (Kwon et al. 2023); 0 when training",
        Source::OverheadAssumption if zh => {
            "给定的假设；vLLM 报告的非 torch 显存为 0.05–0.12 GiB，另加 CUDA 上下文"
        }
        Source::OverheadAssumption => {
            "stated assumption; vLLM reports 0.05-0.12 GiB non-torch memory plus the CUDA context"
        }
        Source::StatedAssumption if zh => "给定的假设",
        Source::StatedAssumption => "stated assumption",
        Source::Definition if zh => "定义",
        Source::Definition => "definition",
        Source::StaticBatching if zh => "定义（静态批处理，同 gptSessionBenchmark）",
        Source::StaticBatching => "definition (static batching, as gptSessionBenchmark)",
        Source::Sum if zh => "各项之和",
        Source::Sum => "sum",
        Source::ThisEngine if zh => "本引擎",
        Source::ThisEngine => "this engine",
        Source::ThisEngineWeights if zh => "本引擎（权重字节来自显存估算）",
        Source::ThisEngineWeights => "this engine (weights from the sizing engine)",
        Source::GpuCatalog if zh => "GPU 目录 catalog/data/gpus.json",
        Source::GpuCatalog => "catalog/data/gpus.json",
        Source::InterconnectCatalog if zh => "互连目录 catalog/interconnects.rs",
        Source::InterconnectCatalog => "catalog/interconnects.rs",
        Source::ScenarioInput if zh => "场景输入",
        Source::ScenarioInput => "scenario",
    };
    text.to_owned()
}

/// The formula in symbols and words.
pub fn formula(f: Formula, lang: Lang) -> &'static str {
    use Formula as F;
    match lang {
        Lang::En => match f {
            F::TrainingStepTime | F::TrainingTokensPerGpu | F::ModelFlopsPerToken | F::Mfu | F::Hfu | F::StepGemm | F::StepAttention | F::StepElementwise | F::StepLoss | F::StepRecompute | F::StepOptimizer | F::StepTensorParallel | F::StepContextParallel | F::StepExpertParallel | F::StepFsdp | F::StepDataParallel | F::StepBubble | F::StepLaunch => super::training::formula(f, Lang::En).unwrap_or_default(),
            F::ParamsTotal => "embedding V·h + lm_head (V·h unless tied) + Σ_layers(attention + MLP/experts + norms + biases) + final norm",
            F::ParamsActive => "total − routed experts + top-k routed experts per token",
            F::ParamsTrainable => "training: all parameters; LoRA: Σ r·(in+out) over targeted modules; inference: 0",
            F::KvPerToken => "layers × kv_heads × (head_dim_k + head_dim_v) × bytes",
            F::KvPerTokenMla => "layers × (kv_lora_rank + qk_rope_head_dim) × bytes (MLA latent)",
            F::Weights => "Σ layer matrices / tp × weight bits + (embedding, head, norms, biases) × 16-bit when quantised; ZeRO-3 / dp",
            F::WeightsMixed => "the checkpoint's quantization_config: Σ module classes (params / tp × their format's bits) + unconverted modules, norms and biases × 16 bits",
            F::WeightBits => "value bits + (scale + zero-point bits) / group + second-level scale bits / (group × groups per second-level scale)",
            F::KvCache => "batch × Σ_stage layers ceil(min(context, window)/block)·block × ceil(kv_heads/tp) × (d_k + d_v) × bytes",
            F::ActivationsTraining => "batch × context / cp × (policy layers × kept(policy) + other layers × kept(none) [+ one layer while it is recomputed]) × in-flight micro-batches × bytes; kept(none) = (norms+2)·h + (Q,K,V,O + MLP intermediates)/tp [+ H·s without flash], kept(op_selective) = 2h + (Q + V + gate + attention output)/tp, kept(full) = h",
            F::Fp8WeightCache => "cached linear-layer parameters × bytes per parameter of the recipe (FP8 weight + its transpose on Hopper: 2; Blackwell FP8: 1; MXFP8: 2·(1 + 1/32); NVFP4: 2·(0.5 + 1/16)); with FP8 primary weights the 16-bit linear weights are replaced by one quantised copy",
            F::FsdpBuffers => "(max(decoder layer, embedding + output layer) + decoder layer) × weight bytes + one layer's gradients, unsharded",
            F::AllocatorReserve => "the stated reserve of the caching allocator (PyTorch reserved − allocated)",
            F::ActivationsInference => "min(chunk, context·batch) × (2h + QKV/tp + MLP intermediates/tp) × bytes",
            F::Gradients => "trainable params on this GPU (only the largest layer's with the optimizer in backward) × bytes of the gradients' format (full training: the weights', fp32 under mixed precision with fp32 gradients; LoRA: the adapters', fp32, or bf16 under all-bf16); ZeRO ≥ 2: / dp",
            F::Optimizer => "trainable params × (moments in fp32, or in bf16 under all-bf16; + an fp32 master copy under mixed precision when the trained weights are 16-bit); ZeRO ≥ 1: / dp",
            F::Overhead => "CUDA context + NCCL/cuBLAS workspaces + allocator reserve (assumed)",
            F::MemoryTotal => "weights + kv_cache + activations + logits + gradients + optimizer + overhead + recurrent_state + fp8_weight_cache + fsdp_buffers + allocator_reserve",
            F::RecurrentState => "batch × Σ_stage state layers (conv channels/tp × (kernel − 1) × model bytes + state/tp × state bytes): no context term",
            F::GpuMemory => "GPU catalog memory (or gpu_memory_bytes override)",
            F::Usable => "gpu_memory × (1 − safety_margin)",
            F::Fits => "total ≤ usable",
            F::FitsPaged => "total − paged optimizer states on the device ≤ usable (paged states never make an allocation fail)",
            F::HostPagedStates => "paged optimizer states − the part on the device",
            F::DataParallel => "gpus / (tp × pp × cp)",
            F::MaxContext => "largest context ≤ min(10M, max_position_embeddings) with total ≤ usable (binary search, memory is monotone in context)",
            F::MaxBatch => "largest batch with total ≤ usable (binary search)",
            F::MinGpus => "fewest GPUs with total ≤ usable: tp ≤ 8 dividing heads, then pp; ZeRO data parallel when training",
            F::ComputePath => "Tensor Core path of compute_dtype (fallback: fp32 vector)",
            F::ComputePathLlamaBackend => "llama.cpp's kernels are tuned per GPU generation, so its back end's prompt processing reaches a measured share of the 16-bit peak on each RDNA generation (a llama-bench prompt rate × FLOPs per token / the peak); quantised weights on an int8 path with a higher peak run at that share × the fp16 peak / the int8 peak",
            F::ComputePathCheckpoint => "the checkpoint's quantization_config sets the GEMMs: FP8 weights with FP8 activations (block FP8) run on the FP8 Tensor Cores where the GPU has them, as vLLM and SGLang run them; 16-bit GEMMs (weight-only FP8) where it has none",
            F::Topology => "intra-node link per GPU per direction; beyond gpus_per_node, the NIC share per GPU",
            F::RidgePoint => "I* = F / B (FLOP per byte)",
            F::PrefillFlops => "2·(P − P_o)·batch·prompt + 2·P_o·batch + 4·L·d_attn·batch·prompt(prompt+1)/2 (causal; P_o the output layer's parameters, run on each prompt's last token only)",
            F::DecodeFlops => "2·P·batch + 4·L·d_attn·context·batch",
            F::TrainingFlops => "6·P·tokens (8·P with full recompute; 4·P for LoRA) + attention",
            F::PrefillBytes => "weights read once + KV written",
            F::DecodeBytes => "weights read once (input embedding gathered) + batch·(context+1)·KV bytes per token",
            F::TrainingBytes => "2·weights + gradients + 2·optimizer states",
            F::Intensity => "I = W / Q",
            F::PhaseTimeBound => "max(W/F, Q/B, C_floor) per GPU, peak figures, no overhead",
            F::PhaseTime => "max(W/F_eff, Q/B_eff) + T_seq + T_act + C_exposed + T_launch (× (m+p−1) pipeline slots) + T_cpu + T_host (partial offload, see expected.host_s); T_cpu, the serving stack's CPU the GPU waits for: t_gpu·s/(1 − s) with s = cpu_share_of_step, and a decode step past the stack's largest CUDA graph (more sequences than decode_graph_max_batch) at least K·eager_kernel_host_s in all, K its kernels; inference: T_seq = max(W_gemm/F_eff, Q_w/B_eff) + max(W_attn/F_eff, Q_kv/B_eff) − max(W/F_eff, Q/B_eff), the attention kernels run after the GEMMs (per-operator rooflines, Yuan et al. 2024, arXiv:2402.16363); T_act = tokens·L·a·(14·d + (4·d + 6·d_ff)/tp) / B_eff, the norms, residual adds, gated activation and GEMM operands (LLM-Viewer operator count); C_exposed adds 2 tensor-parallel all-reduces a layer, on the stack's own kernels inside a node or NCCL's ring, each worked out in its own derivation, tensor_parallel_comm_s (for decode, the estimator's row “of which tensor-parallel all-reduces”)",
            F::PrefillTime => "expected prefill of batch × prompt tokens",
            F::DecodeStepTime => "expected decode step at context prompt + output/2",
            F::TimeToFirstToken => "prefill_s (no queueing)",
            F::LogitsTraining => "logits held × ceil(V/tp) × activation bytes + fp32 tokens × ceil(V/tp) × fp32 bytes (upcast: the fp32 copy and the saved log-softmax, 8, for all tokens or one loss chunk; Megatron vocab-parallel or fused: 4; fused linear cross-entropy: one chunk of ceil(T / ceil(V/h)) tokens)",
            F::LogitsInference => "batch × ceil(V/tp) × 4 (one fp32 row per sequence, at the sampled positions)",
            F::ActivationsOffloaded => "tokens × min(layers, 2) layers in flight on the GPU × ((norms+2)·h + (Q,K,V,O + MLP intermediates)/tp) × bytes (full recompute: the layer inputs of 2 layers + one layer recomputed); the rest in host memory",
            F::OptimizerPaged => "trainable params × state bytes in CUDA unified memory: on the device min(states, device − everything else), the rest paged to host (PyTorch's memory statistics count none of it)",
            F::TimeToFirstTokenWithRequest => "prefill_s + per-request fixed cost (tokenisation, scheduling, sampling, first launches; no queueing)",
            F::KvPerTokenByLayerKind => "sliding layers × kv_heads × 2·head_dim + full layers × global_kv_heads × 2·global_head_dim, × bytes (layers that read an earlier layer's cache store none)",
            F::KvCacheByLayerKind => "batch × (sliding layers × ceil(min(context, window)/block)·block × ceil(kv_heads/tp)·2·head_dim + full layers × ceil(context/block)·block × ceil(global_kv_heads/tp)·2·global_head_dim) × bytes, over the stage's layers that keep a cache",
            F::TimePerOutputToken => "decode_step_s",
            F::GenerationTime => "prefill_s + output_tokens × decode_step_s",
            F::DecodeTokensPerS => "batch × data_parallel / decode_step_s",
            F::DecodeTokensPerSBound => "batch × data_parallel / decode_step_s_bound",
            F::PrefillTokensPerS => "batch × prompt × data_parallel / prefill_s",
            F::PerUserTokensPerS => "1 / decode_step_s",
            F::GenerationTokensPerS => "batch × data_parallel × output / generation_s",
            F::StepTime => "expected training step (see phases.training.time_s)",
            F::TrainingTokensPerS => "batch × micro_batches × context × data_parallel / step_s",
            F::CostPerMillion => "price_per_gpu_hour × gpus / (aggregate tokens/s × 3600) × 10⁶",
            F::Bound => "largest expected term of decode (inference) or the step (training)",
            F::WeightsTable => "Σ over the tensors this GPU holds of elements / block × bytes per block of the tensor's ggml type (llama.cpp's ggml_nbytes; the mix llama-quantize writes for a file type, or a GGUF file's own types); llama.cpp keeps the token embedding in host memory",
            F::HostOffload => "token embedding + the first min(L, max(L + 1 − n, 0)) layers (and the output layer at -ngl 0: it is the first to go to the GPU) + the routed experts of the GPU's layers among the first --n-cpu-moe + the KV cache (and fixed state) of the layers in host memory + paged optimizer states the device has no room for",
            F::UsableWorkingSet => "memory × the GPU's share (macOS: Metal's recommendedMaxWorkingSetSize, 2/3 of memory up to 36 GB and 3/4 above, at least; Linux on Ryzen AI Max: GTT, half by default) × (1 − safety_margin)",
            F::MaxGpuLayers => "largest -ngl in 0..=layers + 1 (the output layer first, then the last layers) whose GPU share ≤ usable (binary search: memory grows with -ngl)",
            F::MinCpuMoe => "smallest --n-cpu-moe m in 0..=layers (the routed experts of the first m layers in host memory, every layer on the GPU) whose GPU share ≤ usable (binary search: memory falls as m grows); what llama.cpp's --fit does before moving whole layers",
            F::PhaseHost => "after the GPU's layers: the CPU reads what is in host memory at B_host · e_host, and the hidden state crosses PCIe k times (10 µs each + d · 4 bytes per token); from 32 tokens on, llama.cpp copies the host's weights to the GPU once per 512-token micro-batch instead (op offload; of an MoE layer only the experts its tokens route to; on unified memory a memory copy, 2 × bytes at the host's bandwidth)",
            F::ExpertsPerGpu => "experts per GPU = ceil((E + R) / ep) of the E routed experts and R redundant copies, each split moe_tp = max(1, tp / ep) ways; the attention stays split by tp (data-parallel inside the EP group when ep > tp)",
            F::MoeGroupedGemm => "per MoE layer on one GPU: T_moe = tokens × max(1, ep/tp) (the EP group's replicas pooled), X = n · (1 − (1 − k/E)^T_moe) experts touched, W = X · bytes per expert / moe_tp read at B · η_b, padded rows R = T_moe·k/ep + BM/2 · X computed at F · η_c; t = t0 + max(W′ / (B·η_b), I · 2·R·P_e/moe_tp / (F·η_c)) with I the slowest EP rank's load and W′ the weights of the experts its I · T_moe tokens touch, at most the n it holds (a GPU whose experts are all touched reads them whatever its load); × the stage's MoE layers",
            F::EpDispatchCombineDeepep => "with expert parallelism, each MoE layer sends every token's activation D times and brings the results back (DeepEP): D = k, one copy per chosen expert, for the low-latency kernels; D = ep·(1 − (1 − 1/ep)^k), one per GPU holding one of its k experts, for the normal kernels; t = T·D·(p_d/β_d + p_c/β_c), p_d = H + 4·H/128 + 16 bytes (FP8 with one scale per 128 values, and metadata), p_c = 2·H (BF16), β the kernels' measured rates (low-latency: RDMA by EP size; normal: a share of NVLink within a node, of the NIC across); × I, the slowest rank's load over the mean, × the MoE layers",
            F::EpDispatchCombineNodes => "DeepEP's normal kernels across nodes send each token once to every remote node holding one of its experts, R = min(n·(1 − (1 − 1/n)^k), cap) · (n − 1)/n of n nodes, the cap being topk_group groups of experts (DeepSeek-V3: at most 4 nodes) or k, then forward it over NVLink to the experts' GPUs: t = max(T·R·(p_d + p_c) / (B_nic·s_rdma), T·D·(p_d + p_c) / (B_nvl·s_nvl)); × I, the slowest rank's load over the mean, × the MoE layers",
            F::EpAllToAllNccl => "with expert parallelism, each MoE layer runs NCCL's all-to-all twice (dispatch, combine), each sending S = T × k × H × activation bytes / tp from one GPU, (g − 1)/n of it over NVLink and (n − g)/n over the NIC; × I, the slowest rank's load over the mean, × the MoE layers",
            // The estimator's page alone shows these two (its all-reduce rows): the other
            // bundles do without their words (`feature = "estimator"`, as in `perf_view`).
            #[cfg(feature = "estimator")]
            F::TpAllReduce => "per serving step, 2 all-reduces a layer of S = the micro-batch's tokens × hidden × activation bytes over the n tensor-parallel GPUs of one node: on 2, 4, 6 or 8 GPUs joined by NVLink and below 8 MiB, the stack's own kernels (vllm_custom, vLLM's; trtllm_custom, TensorRT-LLM's, which SGLang runs) at the share e = 0.34 of the link's rate β, one-shot in 1 step α(n) + (n−1)·S/(β·e), two-shot in 2 from 256 KiB (262,144 B) on 6-8 GPUs or 512 KiB on 4, 2·α(n) + 2(n−1)/n·S/(β·e), α(8) 10.1 µs (vllm_custom) or 5.9 µs (trtllm_custom); otherwise NCCL's ring (nccl_ring) in 2(n−1) steps, 2(n−1)·α + 2(n−1)/n·S/(β·e), α the link's latency and e intra_node_bus_bandwidth; × the calls (2 × layers of a stage × pipeline slots)",
            #[cfg(feature = "estimator")]
            F::TpAllReduceNodes => "per serving step, 2 all-reduces a layer of S = the micro-batch's tokens × hidden × activation bytes over n tensor-parallel GPUs on N nodes of g: NCCL's ring (nccl_ring) hierarchically, a reduce-scatter of S inside each node over NVLink, (g−1)·α + (g−1)/g·S/(β·e), an all-reduce of S/g between the nodes over the NIC, 2(N−1)·α′ + 2(N−1)/N·(S/g)/(β′·e′), and an all-gather of S inside each node as the reduce-scatter: 2(g−1) + 2(N−1) steps (e intra_node_bus_bandwidth, e′ inter_node_bus_bandwidth); × the calls (2 × layers of a stage × pipeline slots)",
            #[cfg(not(feature = "estimator"))]
            F::TpAllReduce | F::TpAllReduceNodes => "",
            F::KvTierShares => "W = n open sessions × kv(prompt + output − s_B), each keeping its last prompt and answer (the shared prefix once); under uniform reuse an LRU cache of C bytes keeps min(1, C/W) of it (Fagin 1977; Che et al. 2002); the tiers are inclusive (each copy written down as it is computed): GPU r_g = min(1, C_g/W), CPU r_c − r_g with r_c = max(r_g, min(1, C_c/W)), SSD r_s − r_c, the rest recomputed",
            F::KvTierRestore => "a session's history of h tokens sits whole in one tier; restoring it for the batch's b prompts takes b × (⌈h/B⌉ block copies × t_copy + kv(h) / (B_t × e_t)), chosen only when shorter than recomputing it (the prefill with the shared prefix cached less the prefill with the history cached); the mean restore is Σ share_t × restore_t over the tiers chosen",
            F::TimeToFirstTokenWithRestore => "prefill_s + mean restore from the KV tiers (before the prefill: loading is not overlapped with compute) + per-request fixed cost",
            F::PrefixCached => "cached = min(prompt − 1, max(s, round(h × prompt))): prefill computes only prompt − cached tokens, their attention still reading the cached ones (vLLM recomputes at least the last token); a shared prefix's whole blocks, ⌊s / B⌋ × B tokens, are stored once per replica, not once per sequence",
            F::SessionHitRate => "a session of T turns, each appending a tokens and generating o: turn k sends s + (k − 1)(a + o) + a tokens, of which s + (k − 1)(a + o) are cached; h = (s + (a + o)(T − 1)/2) / (s + (a + o)(T − 1)/2 + a)",
            F::SpecAcceptanceIid => "speculative decoding: a target step verifies γ drafted tokens plus its own and emits E = (1 − α^(γ+1)) / (1 − α) on average when each draft is accepted with probability α independently (Leviathan et al. 2023, Eq. 1)",
            F::SpecAcceptancePerPosition => "speculative decoding: E = 1 + Σ a_k, a_k the share of steps whose first k drafts were all accepted (cumulative per-position acceptance, as vLLM counts it)",
            F::SpecAcceptanceLength => "speculative decoding: E, the mean tokens a target step emits (a measured acceptance length, between 1 and γ + 1)",
            F::SpecStep => "speculative step: T_step = T_verify(b, γ + 1) + γ · T_draft(b), the verify pass timed like a decode step of γ + 1 tokens per sequence (weights read once), a draft pass T_draft = max(its GPU time, the host's floor per pass), the floor the longer of the stack's per-pass glue efficiency.draft_pass_host_s and, with more sequences than the stack's largest decode graph (efficiency.decode_graph_max_batch), its eager launches K · efficiency.eager_kernel_host_s (K its kernels per pass); time per output token = T_step / E; speed-up = T_decode / (T_step / E), at most E, below 1 once a step costs more than E plain decode steps (a large batch, where verifying is compute-bound)",
        },
        Lang::Zh => match f {
            F::TrainingStepTime | F::TrainingTokensPerGpu | F::ModelFlopsPerToken | F::Mfu | F::Hfu | F::StepGemm | F::StepAttention | F::StepElementwise | F::StepLoss | F::StepRecompute | F::StepOptimizer | F::StepTensorParallel | F::StepContextParallel | F::StepExpertParallel | F::StepFsdp | F::StepDataParallel | F::StepBubble | F::StepLaunch => super::training::formula(f, Lang::Zh).unwrap_or_default(),
            F::ParamsTotal => "嵌入 V·h + lm_head（未共享时为 V·h）+ Σ_层（注意力 + MLP/专家 + 归一化 + 偏置）+ 末层归一化",
            F::ParamsActive => "总数 − 路由专家 + 每个 token 激活的 top-k 路由专家",
            F::ParamsTrainable => "全量训练：全部参数；LoRA：对目标模块求 Σ r·(in+out)；推理：0",
            F::KvPerToken => "层数 × kv_heads × (head_dim_k + head_dim_v) × 字节",
            F::KvPerTokenMla => "层数 × (kv_lora_rank + qk_rope_head_dim) × 字节（MLA 潜向量）",
            F::Weights => "Σ 层内矩阵 / tp × 权重位数 +（嵌入、输出头、归一化、偏置）量化时按 16 位；ZeRO-3 时再 / dp",
            F::WeightsMixed => "按检查点的 quantization_config：Σ 各类模块（参数 / tp × 该类格式的位数）+ 未转换的模块、归一化与偏置 × 16 位",
            F::WeightBits => "数值位数 +（缩放因子位数 + 零点位数）/ 组大小 + 二级缩放因子位数 /（组大小 × 每个二级缩放因子管的组数）",
            F::KvCache => "batch × Σ_本段各层 ceil(min(上下文, 窗口)/块)·块 × ceil(kv_heads/tp) × (d_k + d_v) × 字节",
            F::ActivationsTraining => "batch × 上下文 / cp × (策略覆盖的层数 × 保存量(策略) + 其余层数 × 保存量(不重算) [+ 正在重算的一层]) × 在途微批数 × 字节；保存量(不重算) = (归一化数+2)·h + (Q,K,V,O + MLP 中间量)/tp [无 FlashAttention 时 + H·s]，保存量(算子级选择性重算) = 2h + (Q + V + 门控 + 注意力输出)/tp，保存量(完全重算) = h",
            F::Fp8WeightCache => "缓存的线性层参数 × 该配方每参数字节数（Hopper 上 FP8 权重及其转置：2；Blackwell FP8：1；MXFP8：2·(1 + 1/32)；NVFP4：2·(0.5 + 1/16)）；使用 FP8 主权重时，16 位线性层权重由一份量化副本取代",
            F::FsdpBuffers => "(max(解码层, 嵌入层 + 输出层) + 解码层) × 权重字节 + 一层未分片的梯度",
            F::AllocatorReserve => "给定的缓存分配器预留（PyTorch 的已预留 − 已分配）",
            F::ActivationsInference => "min(分块, 上下文·batch) × (2h + QKV/tp + MLP 中间量/tp) × 字节",
            F::Gradients => "本卡可训练参数（优化器融入反向传播时只算最大一层）× 梯度格式的字节数（全量训练按权重格式，混合精度 fp32 梯度时为 fp32；LoRA 按适配器格式：fp32，全 bf16 时为 bf16）；ZeRO ≥ 2 时 / dp",
            F::Optimizer => "可训练参数 × (动量：fp32，全 bf16 时为 bf16；混合精度且被训练权重为 16 位时另加 fp32 主权重)；ZeRO ≥ 1 时 / dp",
            F::Overhead => "CUDA 上下文 + NCCL/cuBLAS 工作区 + 分配器预留（假设值）",
            F::MemoryTotal => "权重 + KV cache + 激活 + logits + 梯度 + 优化器状态 + 运行时开销 + 循环状态 + 低精度权重缓存 + FSDP 缓冲区 + 分配器预留",
            F::RecurrentState => "batch × Σ_本段状态层（卷积通道/tp × (卷积核 − 1) × 模型字节 + 状态/tp × 状态字节）：与上下文长度无关",
            F::GpuMemory => "GPU 目录中的显存（或 gpu_memory_bytes 覆盖值）",
            F::Usable => "显存 × (1 − safety_margin)",
            F::Fits => "总量 ≤ 可用量",
            F::FitsPaged => "总量 − 设备上的分页优化器状态 ≤ 可用量（分页状态不会让分配失败）",
            F::HostPagedStates => "分页优化器状态 − 设备上的部分",
            F::DataParallel => "gpus / (tp × pp × cp)",
            F::MaxContext => "总量 ≤ 可用量时最长的上下文，上限 min(10M, max_position_embeddings)（二分查找，显存随上下文单调增长）",
            F::MaxBatch => "总量 ≤ 可用量时最大的 batch（二分查找）",
            F::MinGpus => "总量 ≤ 可用量时最少的 GPU 数：先取整除头数且 ≤ 8 的 tp，再加 pp；训练时用 ZeRO 数据并行",
            F::ComputePath => "compute_dtype 对应的 Tensor Core 路径（没有时退回 fp32 向量单元）",
            F::ComputePathLlamaBackend => "llama.cpp 的 kernel 按 GPU 代际分别调优，所以它的后端处理提示词时，在每一代 RDNA 上达到 16 位峰值的一个实测比例（llama-bench 的提示词速率 × 每个 token 的 FLOPs / 峰值）；量化权重若走峰值更高的 int8 路径，则按该比例 × fp16 峰值 / int8 峰值",
            F::ComputePathCheckpoint => "由检查点的 quantization_config 决定矩阵乘走哪条路径：权重和激活都是 FP8（分块 FP8）时，GPU 有 FP8 Tensor Core 就走 FP8，和 vLLM、SGLang 的做法一样；没有时按 16 位矩阵乘算（只有权重是 FP8）",
            F::Topology => "节点内每卡单向链路带宽；超出 gpus_per_node 后取每卡分到的网卡带宽",
            F::RidgePoint => "I* = F / B（每字节 FLOP）",
            F::PrefillFlops => "2·(P − P_o)·batch·prompt + 2·P_o·batch + 4·L·d_attn·batch·prompt(prompt+1)/2（因果；P_o 为输出层的参数，只对每个提示的最后一个 token 计算）",
            F::DecodeFlops => "2·P·batch + 4·L·d_attn·上下文·batch",
            F::TrainingFlops => "6·P·token 数（完全重算为 8·P；LoRA 为 4·P）+ 注意力",
            F::PrefillBytes => "权重读一遍 + 写入 KV",
            F::DecodeBytes => "权重读一遍（输入嵌入按行取）+ batch·(上下文+1)·每 token KV 字节",
            F::TrainingBytes => "2·权重 + 梯度 + 2·优化器状态",
            F::Intensity => "I = W / Q",
            F::PhaseTimeBound => "每卡 max(W/F, Q/B, C_floor)，用峰值，不计开销",
            F::PhaseTime => "max(W/F_eff, Q/B_eff) + 顺序执行的注意力 kernel + 激活读写 + C_exposed + T_launch（× (m+p−1) 个流水线槽位）+ 服务栈的 CPU 时间（GPU 等待 CPU 的部分：服务栈的 CPU 占比为 s 时，为 GPU 时间 × s/(1 − s)；解码步的序列数超过服务栈捕获的最大 CUDA 图时，整步至少为它的 kernel 数 × 每个 kernel 的主机时间）+ 主机部分（部分卸载时 CPU 读主机内存与 PCIe 拷贝的时间）；推理时注意力 kernel 在矩阵乘之后执行、不与之重叠：max(矩阵乘 FLOP/F_eff, 权重字节/B_eff) + max(注意力 FLOP/F_eff, KV 读取/B_eff) − max(W/F_eff, Q/B_eff)（逐算子 roofline）；激活读写 = token 数 × L × 每元素字节 × (14 × 隐藏维 + (4 × 隐藏维 + 6 × 前馈宽度) / tp) / B_eff（归一化、残差相加、门控激活与矩阵乘的输入输出）；C_exposed 另含每层 2 次张量并行 all-reduce（节点内用服务栈自带的 kernel，否则为 NCCL 环形），每次的算式见各自的推导 tensor_parallel_comm_s（解码步见估算器中“其中张量并行 all-reduce”一行）",
            F::PrefillTime => "batch × prompt 个 token 的预期预填充时间",
            F::DecodeStepTime => "上下文为 prompt + output/2 时一步解码的预期时间",
            F::TimeToFirstToken => "prefill_s（不计排队）",
            F::LogitsTraining => "持有的 logits × ceil(V/tp) × 激活字节 + fp32 token 数 × ceil(V/tp) × fp32 字节（upcast：fp32 副本与保存的 log-softmax，共 8，对全部 token 或一个损失分块；Megatron 词表并行或融合实现：4；融合线性交叉熵：每块 ceil(T / ceil(V/h)) 个 token）",
            F::LogitsInference => "batch × ceil(V/tp) × 4（每条序列一行 fp32，只在采样位置）",
            F::ActivationsOffloaded => "token 数 × GPU 上在途的 min(层数, 2) 层 × ((归一化数+2)·h + (Q,K,V,O + MLP 中间量)/tp) × 字节（完全重算时：2 层的层输入 + 正在重算的一层）；其余在主机内存",
            F::OptimizerPaged => "可训练参数 × 状态字节，放在 CUDA 统一内存：设备上 min(状态, 设备 − 其余一切)，其余换页到主机（PyTorch 的显存统计一概不计）",
            F::TimeToFirstTokenWithRequest => "prefill_s + 每个请求的固定开销（分词、调度、采样、首批 kernel 启动；不计排队）",
            F::KvPerTokenByLayerKind => "滑动窗口层数 × kv_heads × 2·head_dim + 全局层数 × global_kv_heads × 2·global_head_dim，再 × 字节（复用前面层缓存的层不存 KV）",
            F::KvCacheByLayerKind => "batch × (滑动窗口层数 × ceil(min(上下文, 窗口)/块)·块 × ceil(kv_heads/tp)·2·head_dim + 全局层数 × ceil(上下文/块)·块 × ceil(global_kv_heads/tp)·2·global_head_dim) × 字节，只计本段自存缓存的层",
            F::TimePerOutputToken => "decode_step_s",
            F::GenerationTime => "prefill_s + output_tokens × decode_step_s",
            F::DecodeTokensPerS => "batch × data_parallel / decode_step_s",
            F::DecodeTokensPerSBound => "batch × data_parallel / decode_step_s_bound",
            F::PrefillTokensPerS => "batch × prompt × data_parallel / prefill_s",
            F::PerUserTokensPerS => "1 / decode_step_s",
            F::GenerationTokensPerS => "batch × data_parallel × output / generation_s",
            F::StepTime => "一步训练的预期时间（见 phases.training.time_s）",
            F::TrainingTokensPerS => "batch × micro_batches × 上下文 × data_parallel / step_s",
            F::CostPerMillion => "price_per_gpu_hour × gpus / (总 token/秒 × 3600) × 10⁶",
            F::Bound => "解码（推理）或训练步（训练）中最大的预期时间项",
            F::WeightsTable => "对本卡持有的每个张量求和：元素数 / 块大小 × 该张量 ggml 类型每块的字节数（llama.cpp 的 ggml_nbytes；文件类型按 llama-quantize 写出的混合，GGUF 文件按其自身类型）；llama.cpp 把 token 嵌入放在主机内存",
            F::HostOffload => "token 嵌入 + 前 min(L, max(L + 1 − n, 0)) 层（-ngl 为 0 时还有输出层：它最先放上 GPU）+ 前 --n-cpu-moe 层中在 GPU 上的层的路由专家 + 主机内存中各层的 KV cache（及固定状态） + 设备放不下的分页优化器状态",
            F::UsableWorkingSet => "内存 × GPU 可用比例（macOS：Metal 的 recommendedMaxWorkingSetSize，36 GB 及以下至少为内存的 2/3，以上至少为 3/4；Linux 下的 Ryzen AI Max：GTT，默认一半）× (1 − safety_margin)",
            F::MaxGpuLayers => "在 0..=层数 + 1 中（先放输出层，再放最后几层）找 GPU 部分 ≤ 可用量的最大 -ngl（二分查找：显存随 -ngl 增长）",
            F::MinCpuMoe => "在 0..=层数 中找 GPU 部分 ≤ 可用量的最小 --n-cpu-moe m（前 m 层的路由专家留在主机内存，所有层都在 GPU 上；二分查找：m 越大显存越少）；llama.cpp 的 --fit 在移走整层之前先这样做",
            F::PhaseHost => "接在 GPU 各层之后：CPU 以 B_host · e_host 读取主机内存中的部分，隐藏状态跨越 PCIe k 次（每次 10 µs + 每 token d · 4 字节）；从 32 个 token 起，llama.cpp 改为每个 512 token 的微批把主机上的权重拷到 GPU 计算（算子卸载；混合专家层只拷其 token 路由到的专家；统一内存上是一次内存拷贝，按主机带宽计 2 × 字节数）",
            F::ExpertsPerGpu => "每张 GPU 的专家数 = ceil((E + R) / ep)：E 个路由专家加 R 个冗余副本，每个再切成 moe_tp = max(1, tp / ep) 份；注意力仍按 tp 切分（ep > tp 时在 EP 组内做数据并行）",
            F::MoeGroupedGemm => "每个混合专家层、每张 GPU：T_moe = token 数 × max(1, ep/tp)（EP 组内各副本的 token 汇在一起），触及的专家 X = n · (1 − (1 − k/E)^T_moe)，以 B · η_b 读取 W = X · 每个专家的字节 / moe_tp，补齐后的行数 R = T_moe·k/ep + BM/2 · X，以 F · η_c 计算；t = t0 + max(W′ / (B·η_b), I · 2·R·P_e/moe_tp / (F·η_c))，I 为 EP 组中最慢的 GPU 的负载与平均之比，W′ 为它的 I · T_moe 个 token 触及的专家的权重，至多为它所持有的 n 个（专家全被触及的 GPU 不论负载多少都要读全部专家）；再乘以该阶段的混合专家层数",
            F::EpDispatchCombineDeepep => "专家并行时，每个混合专家层把每个 token 的激活发出 D 份，再把结果取回（DeepEP）：低延迟 kernel 每个选中的专家一份，D = k；普通 kernel 每张持有其 k 个专家之一的 GPU 一份，D = ep·(1 − (1 − 1/ep)^k)；t = T·D·(p_d/β_d + p_c/β_c)，p_d = H + 4·H/128 + 16 字节（FP8，每 128 个值一个缩放因子，另加元数据），p_c = 2·H（BF16），β 为 kernel 实测速率（低延迟 kernel：按 EP 规模的 RDMA 速率；普通 kernel：节点内 NVLink、跨节点网卡的一定比例）；再乘以 I（最慢 GPU 的负载与平均之比）和混合专家层数",
            F::EpDispatchCombineNodes => "跨节点时 DeepEP 的普通 kernel 把每个 token 向持有其专家的每个远端节点各发一次，n 个节点中 R = min(n·(1 − (1 − 1/n)^k), cap) · (n − 1)/n 个，cap 为 topk_group 组专家所在的节点数（DeepSeek-V3 至多 4 个节点），无分组路由时为 k；再经 NVLink 转发到专家所在的 GPU：t = max(T·R·(p_d + p_c) / (B_nic·s_rdma), T·D·(p_d + p_c) / (B_nvl·s_nvl))；再乘以 I（最慢 GPU 的负载与平均之比）和混合专家层数",
            F::EpAllToAllNccl => "专家并行时，每个混合专家层做两次 NCCL all-to-all（分发、合并），每次每张 GPU 发出 S = T × k × H × 激活字节数 / tp，其中 (g − 1)/n 走 NVLink、(n − g)/n 走网卡；再乘以 I（最慢 GPU 的负载与平均之比）和混合专家层数",
            // The estimator's page alone shows these two (its all-reduce rows): the other
            // bundles do without their words (`feature = "estimator"`, as in `perf_view`).
            #[cfg(feature = "estimator")]
            F::TpAllReduce => "每个推理步中每层 2 次 all-reduce，消息 S = 每个微批次的 token 数 × 隐藏维度 × 激活字节数，在一个节点内的 n 块张量并行 GPU 之间：2、4、6 或 8 块经 NVLink 互连的 GPU、小于 8 MiB 时用服务栈自带的 kernel（vllm_custom 为 vLLM 的，trtllm_custom 为 TensorRT-LLM 的，SGLang 也用它），达到链路速率 β 的 e = 0.34，一段式 1 步 α(n) + (n−1)·S/(β·e)，6 至 8 块从 256 KiB（262,144 B）、4 块从 512 KiB 起为两段式 2 步 2·α(n) + 2(n−1)/n·S/(β·e)，α(8) 为 10.1 µs（vllm_custom）或 5.9 µs（trtllm_custom）；否则用 NCCL 环形（nccl_ring），2(n−1) 步 2(n−1)·α + 2(n−1)/n·S/(β·e)，α 为链路延迟，e 为 intra_node_bus_bandwidth；再乘以调用次数（2 × 每段的层数 × 流水线槽数）",
            #[cfg(feature = "estimator")]
            F::TpAllReduceNodes => "每个推理步中每层 2 次 all-reduce，消息 S = 每个微批次的 token 数 × 隐藏维度 × 激活字节数，在 N 个节点（每个节点 g 块）上的 n 块张量并行 GPU 之间：NCCL 环形（nccl_ring）分层进行，先在每个节点内经 NVLink 对 S 做 reduce-scatter，(g−1)·α + (g−1)/g·S/(β·e)，再经网卡在节点之间对 S/g 做 all-reduce，2(N−1)·α′ + 2(N−1)/N·(S/g)/(β′·e′)，最后在每个节点内做与 reduce-scatter 相同的 all-gather：共 2(g−1) + 2(N−1) 步（e 为 intra_node_bus_bandwidth，e′ 为 inter_node_bus_bandwidth）；再乘以调用次数（2 × 每段的层数 × 流水线槽数）",
            #[cfg(not(feature = "estimator"))]
            F::TpAllReduce | F::TpAllReduceNodes => "",
            F::KvTierShares => "W = n 个开着的会话 × kv(提示词 + 输出 − s_B)，每个会话保留上一轮的提示词和回答（共享前缀只存一份）；复用均匀时，C 字节的 LRU 缓存留住其中 min(1, C/W)（Fagin 1977；Che 等 2002）；各层级是包含关系（块算出即写到下一级）：GPU r_g = min(1, C_g/W)，CPU r_c − r_g，其中 r_c = max(r_g, min(1, C_c/W))，SSD r_s − r_c，其余重算",
            F::KvTierRestore => "一个会话的 h 个 token 的历史整段位于某一层级；为 batch 的 b 个提示词恢复它需 b × (⌈h/B⌉ 次块拷贝 × t_copy + kv(h) / (B_t × e_t))，只有比重算更快时才恢复（只缓存共享前缀时的预填充 减去 缓存了历史时的预填充）；平均恢复时间为所选各层级 Σ 份额_t × 恢复_t",
            F::TimeToFirstTokenWithRestore => "prefill_s + 从 KV 分级恢复的平均时间（在预填充之前：加载不与计算重叠）+ 每个请求的固定开销",
            F::PrefixCached => "已缓存 = min(提示词 − 1, max(s, round(h × 提示词)))：预填充只计算 提示词 − 已缓存 个 token，它们的注意力仍要读已缓存的部分（vLLM 至少重算最后一个 token）；共享前缀的整块，⌊s / B⌋ × B 个 token，每个副本只存一份，而不是每个序列一份",
            F::SessionHitRate => "一个 T 轮的会话，每轮追加 a 个 token、生成 o 个：第 k 轮发送 s + (k − 1)(a + o) + a 个 token，其中 s + (k − 1)(a + o) 个已缓存；h = (s + (a + o)(T − 1)/2) / (s + (a + o)(T − 1)/2 + a)",
            F::SpecAcceptanceIid => "投机解码：目标模型每步验证 γ 个草稿 token 再加自己的一个，每个草稿以概率 α 独立被接受时，平均产出 E = (1 − α^(γ+1)) / (1 − α) 个 token（Leviathan 等 2023，式 1）",
            F::SpecAcceptancePerPosition => "投机解码：E = 1 + Σ a_k，a_k 为前 k 个草稿全部被接受的步数占比（逐位置累计接受率，vLLM 的统计方式）",
            F::SpecAcceptanceLength => "投机解码：E 为目标模型每步平均产出的 token 数（实测的接受长度，在 1 到 γ + 1 之间）",
            F::SpecStep => "投机解码的一步：T_step = T_verify(b, γ + 1) + γ · T_draft(b)，验证这一遍按每个序列 γ + 1 个 token 的解码步计时（权重只读一次），一次草稿 T_draft = max(它在 GPU 上的时间, 主机每次草稿的下限)，下限取两者中较长的：服务栈每次草稿的衔接工作 efficiency.draft_pass_host_s；序列数超过服务栈最大解码图的批大小（efficiency.decode_graph_max_batch）时，逐个发射 K 个 kernel 的主机时间 K · efficiency.eager_kernel_host_s（K 为一次前向的 kernel 数）；每个输出 token 的时间 = T_step / E；加速比 = T_decode / (T_step / E)，不超过 E，一步的耗时超过 E 个普通解码步时低于 1（batch 大、验证受算力限制时）",
        },
    }
}

/// The values template: one `{}` per value of the derivation, in order. One exhaustive match:
/// a template that is only symbols and numbers is written once ([`T::Same`]), one with words in
/// both languages ([`T::Words`]).
pub fn values_template(f: Formula, lang: Lang) -> &'static str {
    match (template(f), lang) {
        (T::Same(t), _) | (T::Words { en: t, .. }, Lang::En) | (T::Words { zh: t, .. }, Lang::Zh) => t,
    }
}

/// A values template, language-neutral or worded per language.
enum T {
    Same(&'static str),
    Words { en: &'static str, zh: &'static str },
}

fn template(f: Formula) -> T {
    use Formula as F;
    match f {
        F::TrainingStepTime | F::TrainingTokensPerGpu | F::ModelFlopsPerToken | F::Mfu | F::Hfu | F::StepGemm | F::StepAttention | F::StepElementwise | F::StepLoss | F::StepRecompute | F::StepOptimizer | F::StepTensorParallel | F::StepContextParallel | F::StepExpertParallel | F::StepFsdp | F::StepDataParallel | F::StepBubble | F::StepLaunch => match super::training::template(f) {
            Some(super::training::Template::Same(t)) => T::Same(t),
            Some(super::training::Template::Words { en, zh }) => T::Words { en, zh },
            None => T::Same(""),
        },
        F::ParamsTotal => T::Words { en: "{} + {} + {} (attention) + {} (MLP) + {} (experts) + {} (norms, biases, routers, positions) = {} parameters", zh: "{} + {} + {}（注意力）+ {}（MLP）+ {}（专家）+ {}（归一化、偏置、路由、位置）= {}参数" },
        F::ParamsActive => T::Words { en: "{} − {} + active experts = {} parameters", zh: "{} − {} + 激活的专家 = {}参数" },
        F::ParamsTrainable => T::Words { en: "mode {}, rank {} → {} parameters", zh: "模式 {}，秩 {} → {}参数" },
        F::KvPerToken => T::Words { en: "{} × {} × ({} + {}) × {} bits/8 = {}", zh: "{} × {} × ({} + {}) × {} 位/8 = {}" },
        F::KvPerTokenMla => T::Words { en: "{} × ({} + {}) × {} bits/8 = {}", zh: "{} × ({} + {}) × {} 位/8 = {}" },
        F::Weights => T::Words { en: "stage {} of {}, tp {}, {} ({} bits) → {}", zh: "第 {} 段（共 {} 段），tp {}，{}（{} 位）→ {}" },
        F::WeightsMixed => T::Words {
            en: "stage {} of {}, tp {}, {}: experts {} × {} bits + attention {} × {} bits + MLP {} × {} bits + router {} × {} bits + embedding {} × {} bits + lm_head {} × {} bits + {} × 16 bits → {}",
            zh: "第 {} 段（共 {} 段），tp {}，{}：专家 {} × {} 位 + 注意力 {} × {} 位 + MLP {} × {} 位 + 路由器 {} × {} 位 + 嵌入 {} × {} 位 + lm_head {} × {} 位 + {} × 16 位 → {}",
        },
        F::WeightBits => T::Words { en: "{}: {} + {} / {} + {} / ({} × {}) = {} bits", zh: "{}：{} + {} / {} + {} / ({} × {}) = {} 位" },
        F::KvCache => T::Words { en: "{} × {} tokens × {} elements/token/layer × {} bits/8 → {}", zh: "{} × {} 个 token × 每 token 每层 {} 个元素 × {} 位/8 → {}" },
        F::ActivationsInference => T::Words { en: "context {}, batch {}, recompute {}, flash {}, sp {} → {}", zh: "上下文 {}，batch {}，重算 {}，FlashAttention {}，序列并行 {} → {}" },
        F::ActivationsTraining => T::Words {
            en: "context {}, batch {}, cp {}; recompute {} on {} of {} layers ({} elements per token per layer under it); flash {}, sp {}; {} micro-batches in flight → {}",
            zh: "上下文 {}，batch {}，cp {}；重算 {} 作用于 {} 层（共 {} 层，该策略下每 token 每层 {} 个元素）；FlashAttention {}，序列并行 {}；在途微批 {} 个 → {}",
        },
        F::Fp8WeightCache => T::Words {
            en: "recipe {}, transposed copy {}: {} parameters × {} bytes; FP8 primary weights {} → {}",
            zh: "配方 {}，需要转置副本 {}：{} 个参数 × {} 字节；FP8 主权重 {} → {}",
        },
        F::FsdpBuffers => T::Words {
            en: "ZeRO stage {}, {} shards: (max({}, {}) + {}) + {} of gradients → {}",
            zh: "ZeRO 阶段 {}，{} 份分片：(max({}, {}) + {}) + 梯度 {} → {}",
        },
        F::AllocatorReserve => T::Same("{} → {}"),
        F::Gradients => T::Words { en: "{}, gradients in {}, optimizer in backward {}, zero stage {}, dp {} → {}", zh: "{}，梯度为 {}，优化器融入反向传播 {}，ZeRO 阶段 {}，dp {} → {}" },
        F::Optimizer => T::Words { en: "{}, {}: {} bytes/trainable param, zero stage {}, dp {} → {}", zh: "{}，{}：每个可训练参数 {} 字节，ZeRO 阶段 {}，dp {} → {}" },
        F::Overhead => T::Same("{}"),
        F::MemoryTotal => T::Same("{} + {} + {} + {} + {} + {} + {} + {} + {} + {} + {} = {}"),
        F::RecurrentState => T::Words { en: "{} layers: ({} conv elements × {} + {} state elements × {}) per sequence × {} sequences → {}", zh: "{} 层：每序列（{} 个卷积元素 × {} + {} 个状态元素 × {}）× {} 个序列 → {}" },
        F::GpuMemory => T::Same("{} → {}"),
        F::Usable => T::Same("{} × (1 − {}) = {}"),
        F::Fits => T::Same("{} ≤ {} → {}"),
        F::FitsPaged => T::Same("{} − {} = {} ≤ {} → {}"),
        F::HostPagedStates => T::Same("{} − {} = {}"),
        F::DataParallel => T::Same("{} / ({} × {} × {}) = {}"),
        F::MaxContext => T::Words { en: "batch {}, usable {}, model limit {} → {}", zh: "batch {}，可用 {}，模型上限 {} → {}" },
        F::MaxBatch => T::Words { en: "context {}, usable {} → {}", zh: "上下文 {}，可用 {} → {}" },
        F::MinGpus => T::Same("{}"),
        F::ComputePath => T::Words { en: "{} on {}: {} → {} dense", zh: "{} 在 {} 上：{} → 稠密 {}" },
        F::ComputePathLlamaBackend => T::Words {
            en: "{} on {}: {} → {} dense; llama.cpp {} on {}: prompt share {} of the 16-bit peak → fraction {}",
            zh: "{} 在 {} 上：{} → 稠密 {}；llama.cpp {} 后端在 {} 上：提示词达到 16 位峰值的 {} → 比例 {}",
        },
        F::ComputePathCheckpoint => T::Words { en: "the checkpoint's {} weights on {}: {} → {} dense", zh: "检查点的 {} 权重在 {} 上：{} → 稠密 {}" },
        F::Topology => T::Words { en: "{}: {} GPUs per node, {} intra-node, {} inter-node", zh: "{}：每节点 {} 块 GPU，节点内 {}，节点间 {}" },
        F::RidgePoint => T::Words { en: "{} / {} = {} FLOP/byte", zh: "{} / {} = {} FLOP/字节" },
        F::PrefillFlops | F::DecodeFlops | F::TrainingFlops => T::Same("{}"),
        F::PrefillBytes | F::DecodeBytes | F::TrainingBytes => T::Words { en: "{} (expected {})", zh: "{}（预期 {}）" },
        F::Intensity => T::Words { en: "{} / {} = {} FLOP/byte vs ridge {}: {}", zh: "{} / {} = {} FLOP/字节，拐点 {}：{}" },
        F::PhaseTimeBound => T::Words { en: "tp {} × pp {} GPUs per replica: max({}, {}, {}) = {}", zh: "每副本 tp {} × pp {} 块 GPU：max({}, {}, {}) = {}" },
        F::PhaseTime => T::Words { en: "max({}, {}) + {} (attention kernels after the GEMMs) + {} (activation traffic) + {} + {} + {} (the serving stack's CPU) + {} (host memory and PCIe) = {} (F_eff = {} F, B_eff = {} B); dominant {}{}", zh: "max({}, {}) + {}（注意力 kernel 排在矩阵乘之后）+ {}（激活读写）+ {} + {} + {}（服务栈的 CPU）+ {}（主机内存与 PCIe）= {}（F_eff = {} F，B_eff = {} B）；主导项 {}{}" },
        F::PrefillTime => T::Words { en: "{} × {} tokens → {} (roofline: at least {})", zh: "{} × {} 个 token → {}（roofline 下限 {}）" },
        F::DecodeStepTime => T::Words { en: "batch {} at {} cached tokens → {} (roofline: at least {})", zh: "batch {}，缓存 {} 个 token → {}（roofline 下限 {}）" },
        F::TimeToFirstToken | F::TimePerOutputToken | F::StepTime | F::PrefillTokensPerS | F::Bound => T::Same("{}"),
        F::GenerationTime => T::Same("{} + {} × {} = {}"),
        F::DecodeTokensPerS | F::DecodeTokensPerSBound => T::Same("{} × {} / {} = {}"),
        F::PerUserTokensPerS => T::Same("1 / {} = {}"),
        F::GenerationTokensPerS => T::Same("{} × {} × {} / {} = {}"),
        F::TrainingTokensPerS => T::Same("{} × {} × {} × {} / {} = {}"),
        F::CostPerMillion => T::Words { en: "{} per GPU-hour × {} / ({} × 3,600 s) × 10⁶ = {} per million tokens", zh: "每 GPU 小时 {} × {} / ({} × 3,600 s) × 10⁶ = 每百万 token {}" },
        F::LogitsTraining => T::Words { en: "loss {}: {} tokens × {} columns = {} + {} fp32 tokens (loss chunks {}) × {} columns × {} bytes → {}", zh: "损失 {}：{} 个 token × {} 列 = {} + {} 个 fp32 token（损失分块 {}）× {} 列 × {} 字节 → {}" },
        F::LogitsInference => T::Words { en: "{} × {} × 4 B = {}", zh: "{} × {} × 4 字节 = {}" },
        F::ActivationsOffloaded => T::Words { en: "context {}, batch {}, recompute {}, {} of {} layers on the GPU → {}", zh: "上下文 {}，batch {}，重算 {}，GPU 上 {} 层（共 {} 层）→ {}" },
        F::OptimizerPaged => T::Words { en: "{}, {}: {} bytes/trainable param = {} in unified memory; on the device min({}, {} − {}) = {}", zh: "{}，{}：每个可训练参数 {} 字节 = 统一内存中 {}；设备上 min({}, {} − {}) = {}" },
        F::TimeToFirstTokenWithRequest => T::Same("{} + {} = {}"),
        F::KvTierShares => T::Words {
            en: "{} sessions × {} = W {}; GPU room {} → {}; CPU tier {} → {}; SSD tier {} → {}; recomputed {}",
            zh: "{} 个会话 × {} = W {}；GPU 余量 {} → {}；CPU 层级 {} → {}；SSD 层级 {} → {}；重算 {}",
        },
        F::KvTierRestore => T::Words {
            en: "batch {} × history h {} tokens, kv(h) {}, {} copies × {}: from CPU {} at {} (restored {}), from SSD {} at {} (restored {}); recompute {}; mean restore {}",
            zh: "batch {} × 历史 h {} 个 token，kv(h) {}，{} 次拷贝 × {}：从 CPU {}，速率 {}（恢复 {}），从 SSD {}，速率 {}（恢复 {}）；重算 {}；平均恢复 {}",
        },
        F::TimeToFirstTokenWithRestore => T::Same("{} + {} + {} = {}"),
        F::PrefixCached => T::Words {
            en: "prompt {}, shared prefix s {}, hit rate h {} → cached {}, computed {}; stored once {} tokens",
            zh: "提示词 {}，共享前缀 s {}，命中率 h {} → 已缓存 {}，需计算 {}；只存一份的 {} 个 token",
        },
        F::SpecAcceptanceIid => T::Words {
            en: "α {}, γ {} → E = {} tokens per target step",
            zh: "α {}，γ {} → E = 每个目标步 {} 个 token",
        },
        F::SpecAcceptancePerPosition => T::Words {
            en: "1 + ({}) → E = {} tokens per target step",
            zh: "1 + （{}）→ E = 每个目标步 {} 个 token",
        },
        F::SpecAcceptanceLength => T::Words {
            en: "γ {} draft tokens, E = {} tokens per target step",
            zh: "γ = {} 个草稿 token，E = 每个目标步 {} 个 token",
        },
        F::SpecStep => T::Words {
            en: "batch {}: verify {} tokens per sequence {} + {} drafts × {} (GPU {}, floor {}) = step {}; / E {} = {} per output token (without speculation {}; speed-up {}×)",
            zh: "batch {}：每个序列验证 {} 个 token {} + {} 次草稿 × {}（GPU {}，下限 {}）= 一步 {}；/ E {} = 每个输出 token {}（不用投机解码 {}；加速 {}×）",
        },
        F::SessionHitRate => T::Words {
            en: "T {} turns, a {}, o {}, s {} → h = {}; mean prompt {} tokens",
            zh: "T {} 轮，a {}，o {}，s {} → h = {}；平均提示词 {} 个 token",
        },
        F::KvPerTokenByLayerKind => T::Words {
            en: "({} × {} × 2·{} + {} × {} × 2·{}) × {} bits/8 = {}",
            zh: "（{} × {} × 2·{} + {} × {} × 2·{}）× {} 位/8 = {}",
        },
        F::KvCacheByLayerKind => T::Words {
            en: "{} × ({} × min({}, {}) tokens × {} + {} × {} tokens × {}) elements × {} bits/8 → {}",
            zh: "{} × ({} × min({}, {}) 个 token × {} + {} × {} 个 token × {}) 个元素 × {} 位/8 → {}",
        },
        F::WeightsTable => T::Words {
            en: "{} (llama.cpp), {} tensors on this GPU by type {}; decoder layers {}, output layer on the GPU {}; token embedding in host memory {} → {}",
            zh: "{}（llama.cpp），本卡 {} 个张量，按类型 {}；解码层 {}，输出层在 GPU 上 {}；token 嵌入在主机内存 {} → {}",
        },
        F::HostOffload => T::Words {
            en: "{} + {} layers {} + experts of {} layers {} + KV cache {} + paged optimizer states {} = {}",
            zh: "{} + {} 层 {} + {} 层的专家 {} + KV cache {} + 分页优化器状态 {} = {}",
        },
        F::UsableWorkingSet => T::Same("{} × {} × (1 − {}) = {}"),
        F::MaxGpuLayers => T::Words {
            en: "context {}, batch {}, usable {}: -ngl {} of {}",
            zh: "上下文 {}，batch {}，可用 {}：-ngl {}（共 {}）",
        },
        F::MinCpuMoe => T::Words {
            en: "context {}, batch {}, usable {}: --n-cpu-moe {} of {} layers",
            zh: "上下文 {}，batch {}，可用 {}：--n-cpu-moe {}（共 {} 层）",
        },
        F::PhaseHost => T::Words {
            en: "CPU {} at {} × {} + PCIe {} at {} × {} + {} crossings × 10 µs; op offload {} → {}",
            zh: "CPU 读 {}，{} × {} + PCIe {}，{} × {} + {} 次跨越 × 10 µs；算子卸载 {} → {}",
        },
        F::ExpertsPerGpu => T::Words {
            en: "ceil(({} experts + {} redundant) / ep {}) = {} per GPU, each split max(1, tp {} / ep) = {} ways",
            zh: "ceil(({} 个专家 + {} 个冗余) / ep {}) = 每张 GPU {} 个，每个切成 max(1, tp {} / ep) = {} 份",
        },
        F::MoeGroupedGemm => T::Words {
            en: "kernel {}: T_moe {} tokens, X {} experts touched, W {} at {} × η_b {} = {}; {} on padded rows at {} × η_c {} = {}; t0 {} + max(slowest rank's reads {}, I {} × compute) → {} per layer × {} layers = {}",
            zh: "kernel {}：T_moe {} 个 token，触及 {} 个专家，W {}，{} × η_b {} = {}；补齐后的行 {}，{} × η_c {} = {}；t0 {} + max(最慢 GPU 的读取 {}，I {} × 计算) → 每层 {} × {} 层 = {}",
        },
        F::EpDispatchCombineDeepep => T::Words {
            en: "{}: T {} tokens × D {} copies × (p_d {} / β_d {} + p_c {} / β_c {}) = {} per layer; × I {} × {} layers = {}",
            zh: "{}：T {} 个 token × D {} 份 × (p_d {} / β_d {} + p_c {} / β_c {}) = 每层 {}；× I {} × {} 层 = {}",
        },
        F::EpDispatchCombineNodes => T::Words {
            en: "deepep_normal across nodes: T {} tokens × R {} remote nodes × (p_d + p_c) {} / {} = {} over the NIC; NVLink forwarding {}; the longer → {} per layer; × I {} × {} layers = {}",
            zh: "跨节点的 deepep_normal：T {} 个 token × R {} 个远端节点 × (p_d + p_c) {} / {} = 网卡上 {}；NVLink 转发 {}；取较长者 → 每层 {}；× I {} × {} 层 = {}",
        },
        #[cfg(feature = "estimator")]
        F::TpAllReduce => T::Words {
            en: "{}, steps per call {}: S {} on {} GPUs, α {}, β {}, e {} → {} a call × {} calls = {}",
            zh: "{}，每次 {} 步：S {}，{} 块 GPU，α {}，β {}，e {} → 每次 {} × {} 次 = {}",
        },
        #[cfg(feature = "estimator")]
        F::TpAllReduceNodes => T::Words {
            en: "nccl_ring on {} nodes of {} GPUs, steps per call {}: S {}; inside a node α {}, β {}, e {}; between nodes α′ {}, β′ {}, e′ {} → {} a call × {} calls = {}",
            zh: "nccl_ring，{} 个节点、每个节点 {} 块 GPU，每次 {} 步：S {}；节点内 α {}，β {}，e {}；节点之间 α′ {}，β′ {}，e′ {} → 每次 {} × {} 次 = {}",
        },
        #[cfg(not(feature = "estimator"))]
        F::TpAllReduce | F::TpAllReduceNodes => T::Same(""),
        F::EpAllToAllNccl => T::Words {
            en: "T {} tokens: each all-to-all sends S {} from this GPU at {} → 2 × {} per layer (dispatch, combine); × I {} × {} layers = {}",
            zh: "T {} 个 token：每次 all-to-all 本卡发出 S {}，速率 {} → 每层 2 次共 {}（分发、合并）；× I {} × {} 层 = {}",
        },
    }
}

/// An assumption in words.
pub fn assumption(a: &Assumption, lang: Lang) -> String {
    match (a, lang) {
        (Assumption::RuntimeOverhead { bytes: b }, Lang::En) => format!(
            "runtime overhead {} per GPU (CUDA context, NCCL/cuBLAS workspaces, allocator reserve)",
            bytes(u128::from(*b))
        ),
        (Assumption::RuntimeOverhead { bytes: b }, Lang::Zh) => {
            format!("每块 GPU 的运行时开销 {}（CUDA 上下文、NCCL/cuBLAS 工作区、分配器预留）", bytes(u128::from(*b)))
        }
        (Assumption::SafetyMargin { fraction }, Lang::En) => {
            format!("safety margin {fraction} of GPU memory kept free")
        }
        (Assumption::SafetyMargin { fraction }, Lang::Zh) => format!("预留 {fraction} 的显存作为安全余量"),
        (Assumption::UnevenExperts { experts, expert_parallel, heavier_ranks }, Lang::En) => format!(
            "expert parallelism {expert_parallel} does not divide the {experts} experts: vLLM gives {heavier_ranks} of the GPUs one expert more ({} against {}), and the busiest sets the step's time (SGLang and training frameworks refuse such a split)",
            experts.div_ceil(*expert_parallel),
            experts / expert_parallel
        ),
        (Assumption::UnevenExperts { experts, expert_parallel, heavier_ranks }, Lang::Zh) => format!(
            "专家并行 {expert_parallel} 不能整除 {experts} 个专家：vLLM 让其中 {heavier_ranks} 张 GPU 多放一个专家（{} 对 {}），由最忙的那张决定每步时间（SGLang 和训练框架不接受这样的切分）",
            experts.div_ceil(*expert_parallel),
            experts / expert_parallel
        ),
        (Assumption::ContextBeyondModel { context, limit }, Lang::En) => format!(
            "warning: context_tokens {} exceeds the model's max_position_embeddings {}; the memory is computed, but the model was not built for it",
            q::grouped(u128::from(*context)),
            q::grouped(u128::from(*limit))
        ),
        (Assumption::ContextBeyondModel { context, limit }, Lang::Zh) => format!(
            "注意：context_tokens {} 超过模型的 max_position_embeddings {}；显存照算，但模型并非为此长度设计",
            q::grouped(u128::from(*context)),
            q::grouped(u128::from(*limit))
        ),
        (Assumption::TextDecoderOnly { per_layer_table: 0 }, Lang::En) => {
            "only the text decoder is counted: a multimodal checkpoint's vision and audio encoders are not".into()
        }
        (Assumption::TextDecoderOnly { per_layer_table: 0 }, Lang::Zh) => {
            "只计文本解码器：多模态检查点里的视觉和音频编码器不计入".into()
        }
        (Assumption::TextDecoderOnly { per_layer_table }, Lang::En) => format!(
            "only the text decoder is counted: a multimodal checkpoint's vision and audio encoders are not; its per-layer embedding table ({} parameters) is in the total and is looked up per token, not read whole at each step",
            q::count(u128::from(*per_layer_table), lang)
        ),
        (Assumption::TextDecoderOnly { per_layer_table }, Lang::Zh) => format!(
            "只计文本解码器：多模态检查点里的视觉和音频编码器不计入；逐层嵌入表（{}参数）计入总数，每个 token 只查表取行，不在每步整表读取",
            q::count(u128::from(*per_layer_table), lang)
        ),
        (Assumption::SpeculationNotInLoad, Lang::En) => {
            "speculative decoding is in the times, throughput and memory above; the serving-under-load model does not use it yet (one token per sequence per step)".into()
        }
        (Assumption::SpeculationNotInLoad, Lang::Zh) => {
            "上面的时间、吞吐和显存已计入投机解码；负载下的服务模型尚未计入（每步每个序列一个 token）".into()
        }
        (Assumption::KvTiersWithoutSessions, Lang::En) => {
            "KV tiers are set but no open sessions are (prefix_open_sessions): without a working set every cached token is taken to be on the GPU and the tiers serve nothing".into()
        }
        (Assumption::KvTiersWithoutSessions, Lang::Zh) => {
            "设置了 KV 分级，开着的会话数却是 0：没有工作集，所有已缓存的 token 都当作在 GPU 上，分级不起作用".into()
        }
        (Assumption::KvTiersUniformSequential, Lang::En) => {
            "KV tiers: every open session is as likely to return (uniform reuse; a few hot sessions would keep more on the GPU); a history is restored whole before its prefill starts, not layer by layer while it computes, and each restore has the link to itself".into()
        }
        (Assumption::KvTiersUniformSequential, Lang::Zh) => {
            "KV 分级：每个开着的会话回来的可能相同（均匀复用；少数热门会话会让 GPU 留住更多）；历史在预填充开始前整段恢复，而不是边计算边逐层加载，且每次恢复独占链路".into()
        }
        (Assumption::SmallTensorsIn16Bits, Lang::En) => {
            "embeddings, output head, norms, biases and routers stay in 16 bits in quantised checkpoints".into()
        }
        (Assumption::SmallTensorsIn16Bits, Lang::Zh) => {
            "量化检查点中嵌入、输出头、归一化、偏置和路由器仍为 16 位".into()
        }
        (Assumption::PagedKvAndChunk { block_tokens, chunk_tokens }, Lang::En) => format!(
            "paged KV cache in blocks of {block_tokens} tokens; prefill chunk of {chunk_tokens} tokens"
        ),
        (Assumption::PagedKvAndChunk { block_tokens, chunk_tokens }, Lang::Zh) => {
            format!("分页 KV cache，每块 {block_tokens} 个 token；预填充分块 {chunk_tokens} 个 token")
        }
        (Assumption::TrainingSchedule, Lang::En) => {
            "no dropout; 1F1B pipeline schedule; logits kept in 16 bits and fp32 for the loss (all of them, or one loss chunk at a time)".into()
        }
        (Assumption::TrainingSchedule, Lang::Zh) => {
            "不用 dropout；流水线按 1F1B 调度；logits 存为 16 位，计算损失时用 fp32（全部，或损失分块时每次一块）".into()
        }
        (Assumption::AdaptersInFp32, Lang::En) => {
            "adapters, their gradients and optimizer states in fp32 (PEFT autocast_adapter_dtype)".into()
        }
        (Assumption::AdaptersInFp32, Lang::Zh) => {
            "适配器及其梯度和优化器状态均为 fp32（PEFT autocast_adapter_dtype）".into()
        }
        (Assumption::TimeModel { memory_bandwidth, tensor_flops, kernel_launch_us, kernels_per_layer }, Lang::En) => {
            format!(
                "time: expected = efficiency factors ({memory_bandwidth} of peak bandwidth, {tensor_flops} of peak FLOP/s, {kernel_launch_us} µs per kernel × {kernels_per_layer} kernels per layer); roofline = peak figures, no overheads, communication overlapped: the shortest possible time, the highest possible rate"
            )
        }
        (Assumption::TimeModel { memory_bandwidth, tensor_flops, kernel_launch_us, kernels_per_layer }, Lang::Zh) => {
            format!(
                "时间：预期值 = 按效率系数折算（峰值带宽的 {memory_bandwidth}，峰值 FLOP/s 的 {tensor_flops}，每个 kernel {kernel_launch_us} µs × 每层 {kernels_per_layer} 个 kernel）；roofline = 用峰值，不计开销，通信完全重叠：时间取最短可能值，速率取最高可能值"
            )
        }
        (Assumption::DecodeAtAverageStep { prompt, output, cached }, Lang::En) => format!(
            "decode reported at the average step: {} prompt + {}/2 generated = {} cached tokens per sequence; the input embedding is gathered, not streamed",
            q::grouped(u128::from(*prompt)),
            q::grouped(u128::from(*output)),
            q::group_integer_part(&cached.to_string())
        ),
        (Assumption::DecodeAtAverageStep { prompt, output, cached }, Lang::Zh) => format!(
            "解码按平均一步计：{} 个提示 token + {}/2 个生成 token = 每序列缓存 {} 个 token；输入嵌入按行取，不整表读取",
            q::grouped(u128::from(*prompt)),
            q::grouped(u128::from(*output)),
            q::group_integer_part(&cached.to_string())
        ),
        (Assumption::FirstTokenFixedCost { ms }, Lang::En) => format!(
            "time to first token = prefill + {ms} ms per request (tokenisation, scheduling, sampling, first launches; efficiency.request_overhead_s); no queueing"
        ),
        (Assumption::FirstTokenFixedCost { ms }, Lang::Zh) => format!(
            "首 token 时间 = 预填充 + 每个请求 {ms} ms（分词、调度、采样、首批 kernel 启动；可在效率系数中修改）；不计排队"
        ),
        (Assumption::DequantisedWeightReads { dtype, factor }, Lang::En) => format!(
            "{} weights are dequantised inside the kernel: their reads run at {factor} of the 16-bit bandwidth fraction (efficiency.quantized_weight_bandwidth)",
            dtype.name()
        ),
        (Assumption::DequantisedWeightReads { dtype, factor }, Lang::Zh) => format!(
            "{} 权重在 kernel 中反量化：读取它们时的带宽为 16 位读取的 {factor} 倍（可在效率系数中修改）",
            dtype.name()
        ),
        (Assumption::LowPrecisionPath { tensor_flops }, Lang::En) => format!(
            "8/4-bit Tensor Core path: large GEMMs at {tensor_flops} of its peak (efficiency.fp8_tensor_flops)"
        ),
        (Assumption::LowPrecisionPath { tensor_flops }, Lang::Zh) => format!(
            "8/4 位 Tensor Core 路径：大矩阵乘达到其峰值的 {tensor_flops}（可在效率系数中修改）"
        ),
        (Assumption::LoraStepFlops, Lang::En) => {
            "lora/qlora step: 4·P·tokens (no weight gradients for the frozen base)".into()
        }
        (Assumption::LoraStepFlops, Lang::Zh) => "LoRA/QLoRA 一步：4·P·token 数（冻结的基座不算权重梯度）".into(),
        (Assumption::ScalingCurves { sequences, seq_len, micro_batches, topology }, Lang::En) => format!(
            "scaling curves: one training step of {sequences} sequences × {} tokens per replica, {micro_batches} micro-batches, on {}",
            q::group_integer_part(&seq_len.to_string()),
            topology_name(topology, lang)
        ),
        (Assumption::ScalingCurves { sequences, seq_len, micro_batches, topology }, Lang::Zh) => format!(
            "扩展曲线：每副本一步训练 {sequences} 条序列 × {} 个 token，{micro_batches} 个微批，拓扑：{}",
            q::group_integer_part(&seq_len.to_string()),
            topology_name(topology, lang)
        ),
    }
}

/// Where an efficiency factor's default comes from, with its citations (titles as written).
pub fn factor_note(f: Factor, lang: Lang) -> &'static str {
    match (f, lang) {
        (Factor::Fp8TensorFlops, Lang::En) => "8- and 4-bit Tensor Core paths (fp8, int8, fp4) reach a smaller fraction of their peak than 16-bit ones: H200 FP8 GEMM 1,366 of 1,979 TFLOPS = 0.69, against A100 FP16 256.5 of 312 = 0.82 (hardware.json, Azure AI-benchmarking-guide). The L40S carries its own 0.51 (its INT8 path too): FP8 GEMMs of Llama-2-7B's attention projections at M = 512 ran 367-378 of its 733 TFLOPS, the faster of torch._scaled_mm and vLLM's CUTLASS kernel (vLLM PR #6677, 2024-07). Uncertain: a prefill's larger M was not measured, and at M = 256 the MLP's wide up-projection ran lower than the rest (0.37 against 0.41-0.45).",
        (Factor::Fp8TensorFlops, Lang::Zh) => "8 位和 4 位 Tensor Core 路径（fp8、int8、fp4）达到的峰值比例低于 16 位路径：H200 FP8 矩阵乘为 1,979 TFLOPS 中的 1,366 = 0.69，A100 FP16 为 312 中的 256.5 = 0.82（hardware.json，Azure AI-benchmarking-guide）。L40S 带自己的 0.51（INT8 路径也用它）：Llama-2-7B 注意力投影的 FP8 矩阵乘在 M = 512 时，取 torch._scaled_mm 与 vLLM 的 CUTLASS kernel 中较快者，为其 733 TFLOPS 中的 367-378（vLLM PR #6677，2024-07）。不确定：预填充更大的 M 未测；M = 256 时 MLP 较宽的上投影低于其余形状（0.37，对 0.41-0.45）。",
        (Factor::QuantizedWeightBandwidth, Lang::En) => "Weight-only int8/int4/nf4 (and fp8 without an fp8 path) are dequantised inside the kernel, which reads them at a smaller fraction of the bandwidth than a 16-bit GEMV: MARLIN (Frantar et al., PPoPP 2025) reaches up to 2.8× end-to-end in vLLM where 4-bit weights with group scales would give 3.87×: 2.8 / 3.87 = 0.72. Applied to the weight bytes only.",
        (Factor::QuantizedWeightBandwidth, Lang::Zh) => "仅权重量化的 int8/int4/nf4（以及没有 fp8 路径时的 fp8）在 kernel 里反量化，读取时达到的带宽比例低于 16 位矩阵向量乘：MARLIN（Frantar 等，PPoPP 2025）在 vLLM 中端到端最多提速 2.8 倍，而带分组缩放的 4 位权重按带宽应为 3.87 倍：2.8 / 3.87 = 0.72。只作用于权重字节。",
        (Factor::RequestOverheadS, Lang::En) => "Per-request fixed cost before the first token (tokenisation, scheduling, input preparation, sampling, first launches), added to the time to first token. The vLLM v0.6.0 performance blog (Sept. 2024) profiles this CPU work as a large share of each step on an H100. Estimate. Under serving_stack sglang on an MLA model (DeepSeek-V2/V3/R1): 0.147 s, measured: DeepSeek-R1-0528 under SGLang on 16 H100 at one user took 169.7 ms + 10.6 µs per prompt token to its first token (tenstorrent/tt-inference-server issue #356, 2025-07-09), less one forward (the same runs' 23.1 ms per output token).",
        (Factor::RequestOverheadS, Lang::Zh) => "每个请求在首个 token 之前的固定开销（分词、调度、准备输入、采样、首批 kernel 启动），计入首 token 时间。vLLM v0.6.0 性能博客（2024 年 9 月）的剖析显示，这部分 CPU 工作在 H100 上占每一步的很大比例。估计值。serving_stack 为 SGLang 且模型使用 MLA 注意力（DeepSeek-V2/V3/R1）时为 0.147 s，来自实测：DeepSeek-R1-0528 在 16 张 H100 上用 SGLang、单用户时，首 token 时间为 169.7 ms + 每个提示 token 10.6 µs（公开议题 #356，2025-07-09，出处见首 token 时间的“看算式”），减去一次前向计算（同一组运行的每输出 token 时间 23.1 ms）。",
        (Factor::MemoryBandwidth, Lang::En) => "BabelStream-style HBM tests reach 79-93% of peak on A100 and H200 (hardware.json: Azure AI-benchmarking-guide ND A100 v4 1.61-1.75 of 2.039 TB/s = 0.79-0.86; ND H200 v5 4.0-4.48 of 4.8 TB/s = 0.83-0.93). Lower end taken. Apple silicon carries its own 0.848, solved with 17.8 µs per kernel from the M2 Ultra's llama-bench rows in llama.cpp PR #2917 (2023-08).",
        (Factor::MemoryBandwidth, Lang::Zh) => "BabelStream 类 HBM 测试在 A100 和 H200 上达峰值的 79–93%（hardware.json：Azure AI-benchmarking-guide，ND A100 v4 为 2.039 TB/s 中的 1.61–1.75 = 0.79–0.86；ND H200 v5 为 4.8 TB/s 中的 4.0–4.48 = 0.83–0.93）。取下限。Apple 芯片带自己的 0.848，与每个 kernel 17.8 µs 一起由 llama.cpp PR #2917（2023-08）中 M2 Ultra 的 llama-bench 数据解出。",
        (Factor::TensorFlops, Lang::En) => "Large GEMM benchmarks (hardware.json, Azure AI-benchmarking-guide): A100 FP16 256.5 of 312 TFLOPS = 0.82; H200 FP8 1,366 of 1,979 TFLOPS = 0.69. Midpoint.",
        (Factor::TensorFlops, Lang::Zh) => "大矩阵乘基准（hardware.json，Azure AI-benchmarking-guide）：A100 FP16 为 312 TFLOPS 中的 256.5 = 0.82；H200 FP8 为 1,979 TFLOPS 中的 1,366 = 0.69。取中值。",
        (Factor::IntraNodeBusBandwidth, Lang::En) => "nccl-tests all_reduce_perf busbw vs NVLink per-direction peak (hardware.json): 8x A100 231.6/300 = 0.77 (Azure, NCCL 2.18.5), user reports 0.67-0.69; 8x H100 ~370/450 = 0.82 with the ring algorithm (NCCL_ALGO=Ring; NCCL issue #212, 2024-05). NCCL all-reduce bus bandwidth 70-80% of NVLink for a ring; NVLS, NCCL's default on NVSwitch systems from H100 on, reports ~480 GB/s busbw on 8x H100, which is not wire traffic.",
        (Factor::IntraNodeBusBandwidth, Lang::Zh) => "nccl-tests all_reduce_perf 的 busbw 与 NVLink 单向峰值之比（hardware.json）：8 卡 A100 为 231.6/300 = 0.77（Azure，NCCL 2.18.5），用户报告 0.67–0.69；8 卡 H100 用环形算法（NCCL_ALGO=Ring）约 370/450 = 0.82（NCCL issue #212，2024-05）。环形 NCCL all-reduce 总线带宽约为 NVLink 的 70–80%；H100 起的 NVSwitch 系统上 NCCL 默认的 NVLS 在 8 卡 H100 上报告约 480 GB/s 的 busbw，那不是线上的流量。",
        (Factor::InterNodeBusBandwidth, Lang::En) => "Assumed equal to the NVLink fraction; no inter-node nccl-tests figure in the reference data.",
        (Factor::InterNodeBusBandwidth, Lang::Zh) => "假设与 NVLink 的比例相同；参考数据中没有节点间的 nccl-tests 数字。",
        (Factor::KernelLaunchS, Lang::En) => "CUDA kernel launch overhead is a few microseconds per launch (CUDA C++ Best Practices Guide; CUDA Graphs blog, NVIDIA 2019). Estimate. Apple silicon carries its own 17.8 µs (Metal, llama.cpp PR #2917).",
        (Factor::KernelLaunchS, Lang::Zh) => "每次 CUDA kernel 启动开销为几微秒（CUDA C++ Best Practices Guide；CUDA Graphs 博客，NVIDIA 2019）。估计值。Apple 芯片带自己的 17.8 µs（Metal，llama.cpp PR #2917）。",
        (Factor::KernelsPerLayer, Lang::En) => "Count of the separate kernels in a Llama-style decoder layer without fusion. Estimate.",
        (Factor::KernelsPerLayer, Lang::Zh) => "不做算子融合时，一个 Llama 式解码层中独立 kernel 的个数。估计值。",
        (Factor::GradientSyncOverlap, Lang::En) => "PyTorch DDP overlaps bucketed gradient all-reduce with backward (Li et al., VLDB 2020); the first bucket cannot overlap. Estimate.",
        (Factor::HostMemoryBandwidth, Lang::En) => "Layers kept in host memory are read by the CPU at this fraction of the host memory's theoretical peak. llama.cpp's CPU back end decoded LLaMA 7B at 18.27 tokens/s on an i9-13900K with DDR5-6400 (about 70 GB/s of the 102.4 peak if the file was Q4_0, 0.68); CPU decoding is commonly reported at 60-75% of the peak. Estimate.",
        (Factor::HostMemoryBandwidth, Lang::Zh) => "放在主机内存里的层由 CPU 读取，达到主机内存理论峰值带宽的这个比例。llama.cpp 的 CPU 后端在 i9-13900K + DDR5-6400 上解码 LLaMA 7B 为 18.27 token/s（若文件为 Q4_0，约为峰值 102.4 GB/s 中的 70 GB/s，即 0.68）；CPU 解码通常在峰值的 60–75%。估计值。",
        (Factor::PcieBandwidth, Lang::En) => "Host-to-device copies reach 23.9-27.1 GB/s of PCIe 4.0 x16's 31.5 GB/s per direction (nvbandwidth issue #15, 8× RTX 4090) and 56.3-57.3 of PCIe 5.0's 63 (tinygrad open-gpu-kernel-modules issue #29, 8× RTX 5090): 0.76-0.91; 0.8, near the lower end. Those copies are from pinned buffers; llama.cpp maps the file's weights (mmap), and copies from pageable memory are likely slower.",
        (Factor::PcieBandwidth, Lang::Zh) => "主机到设备的拷贝在 PCIe 4.0 x16 单向 31.5 GB/s 中达到 23.9–27.1 GB/s（nvbandwidth issue #15，8 张 RTX 4090），在 PCIe 5.0 的 63 GB/s 中达到 56.3–57.3（tinygrad open-gpu-kernel-modules issue #29，8 张 RTX 5090）：0.76–0.91，取 0.8，接近下限。这些拷贝来自锁页内存；llama.cpp 以 mmap 映射文件中的权重，从可分页内存拷贝可能更慢。",
        (Factor::QuantizedMatmulFlops, Lang::En) => "llama.cpp multiplies quantised weights with its MMQ kernels on the int8 tensor cores, reaching a small share of their peak: Llama-3-8B Q4_0 prefilled 10,358.75 tokens/s (512-token micro-batches) on an RTX 4090 in llama.cpp PR #7676 (June 2024), 0.26 of its 660.6 TOPS with this engine's FLOPs and the rest of its prefill time. Applied to the int8 path with llama.cpp file types.",
        (Factor::QuantizedMatmulFlops, Lang::Zh) => "llama.cpp 用 MMQ kernel 在 int8 Tensor Core 上乘量化权重，只达到峰值的一小部分：llama.cpp PR #7676（2024 年 6 月）在 RTX 4090 上预填充 Llama-3-8B Q4_0 为 10,358.75 token/s（512 token 微批），按本引擎的 FLOP 与预填充的其余各项计，为其 660.6 TOPS 的 0.26。用于 llama.cpp 文件类型的 int8 路径。",
        (Factor::MatmulFlops, Lang::En) => "A training step's GEMMs at their best shape reach the Maximum Achievable Matmul FLOPS of stas00/ml-engineering's table (compute/accelerator/README.md, 2026-08): A100 SXM 271.2 of 312 TFLOPS = 0.869, H100 and H200 SXM 794.5 of 989 = 0.803, B200 1,745 of 2,250 = 0.776, GB200 1,822 of 2,500 = 0.729, A100 PCIe 0.811, MI300X 0.514, MI325X 0.604 (each GPU carries its own); other GPUs take tensor_flops' 0.75. Each GEMM then loses its wave quantisation.",
        (Factor::MatmulFlops, Lang::Zh) => "训练一步中的矩阵乘在最佳形状下达到 stas00 的“ml-engineering”书中加速器一章的“最大可达矩阵乘 FLOPS”表（2026-08）：A100 SXM 为 312 TFLOPS 中的 271.2 = 0.869，H100 与 H200 SXM 为 989 中的 794.5 = 0.803，B200 为 2,250 中的 1,745 = 0.776，GB200 为 2,500 中的 1,822 = 0.729，A100 PCIe 为 0.811，MI300X 为 0.514，MI325X 为 0.604（每种 GPU 带自己的值）；其他 GPU 取 tensor_flops 的 0.75。每个矩阵乘再扣去其波次量化损失。",
        (Factor::GradientSyncOverlap, Lang::Zh) => "PyTorch DDP 把分桶的梯度 all-reduce 与反向传播重叠（Li et al.，VLDB 2020）；第一个桶无法重叠。估计值。",
        (Factor::CpuShareOfStep, Lang::En) => "Share of a serving step the GPU waits for the CPU (API server, scheduler, input preparation); a step takes t_gpu / (1 − share). Set by serving_stack: 0 for vLLM V1, SGLang and TensorRT-LLM, whose CPU work runs beside the GPU's (vLLM blog \"vLLM V1\", 2025-01-27; LMSYS blog \"SGLang v0.4\", 2024-12-04); 0.62 for vLLM 0.5.3, whose GPU was busy 38% of the time on Llama 3 8B on one H100 (vLLM v0.6.0 blog, 2024-09-05).",
        (Factor::CpuShareOfStep, Lang::Zh) => "服务一步中 GPU 等待 CPU（API 服务器、调度器、准备输入）的时间占比；一步耗时 t_gpu / (1 − 占比)。由 serving_stack 设定：vLLM V1、SGLang 和 TensorRT-LLM 为 0，它们的 CPU 工作与 GPU 并行（vLLM 博客“vLLM V1”，2025-01-27；LMSYS 博客“SGLang v0.4”，2024-12-04）；vLLM 0.5.3 为 0.62，在一张 H100 上跑 Llama 3 8B 时 GPU 只有 38% 的时间在忙（vLLM v0.6.0 博客，2024-09-05）。",
        (Factor::DraftPassHostS, Lang::En) => "The time one speculative draft pass cannot go below outside full CUDA graphs, seconds: a pass takes max(its GPU time, this). Set by serving_stack: 0.93 ms for vLLM, whose drafter runs outside full CUDA graphs (eager, then piecewise graphs with the attention between pieces run eagerly), so each pass pays Python dispatch, an attention-metadata rebuild and other glue. Measured with CUDA events on an NVIDIA GB10 at one request, MTP drafter, γ = 3: 4.9 ms a step less 2.1 ms of sampling over three passes, the GB10's GPU work for that drafter included (vLLM issue #45258, 2026-06-11; one machine and one model, hence an estimate elsewhere; vLLM's EAGLE-3 runs on an 8B model lengthen their step by about 1.0 ms a draft, issue #20780). 0 for SGLang and TensorRT-LLM, which capture the draft passes in CUDA graphs, and for vLLM 0.5, not measured.",
        (Factor::DraftPassHostS, Lang::Zh) => "一次投机草稿在完整的 CUDA Graphs 之外至少要花的时间（秒）：一次草稿耗时 max(它在 GPU 上的时间, 这个值)。由 serving_stack 设定：vLLM 为 0.93 毫秒，它的草稿模型不在完整的 CUDA Graphs 里运行（先是逐个算子即时执行，后来分段捕获，段与段之间的注意力即时执行），每一次都要付主机端调度、重建注意力元数据和其他衔接工作的时间。这是用 CUDA 事件测得的：一台 NVIDIA GB10，一个请求，MTP 草稿，γ = 3，每步 4.9 毫秒减去 2.1 毫秒的采样，再分给三次草稿，其中含 GB10 为这个草稿做的 GPU 工作（vLLM issue #45258，2026-06-11；只有一台机器、一个模型，所以在别处只是估计；vLLM 在一个 8B 模型上跑 EAGLE-3，每多一个草稿一步约长 1.0 毫秒，issue #20780）。SGLang 和 TensorRT-LLM 把草稿放进 CUDA Graphs，为 0；vLLM 0.5 没有测量，也为 0。",
        (Factor::DecodeGraphMaxBatch, Lang::En) => "The largest decode batch (sequences in one replica's step) the serving stack replays as a CUDA graph; a decode step with more sequences runs eagerly and takes max(its GPU time, its kernels × eager_kernel_host_s). 0: every decode step is in a graph. Set by serving_stack and the GPU's memory (a card sold as N GB reports just under N GiB): SGLang captures 8 sequences under 20 GiB, 48 under 35 GiB (A10, RTX 4090, RTX 5090; 160 at tensor parallelism 4 or more), 32 under 60 GiB (A100 40GB, L40S; 160), 256 under 160 GiB (H100, H200; 512) and 512 above (python/sglang/srt/server_args, _handle_gpu_memory_settings, after pull request #37898, 2026-09); older releases set other limits (SGLang 0.4: 8 under 25,000 MiB at tensor parallelism below 4, 80 at 4 or more, 160 above). 0 for vLLM V1 (graphs up to 512 sequences; its default of 1,024 running sequences on GPUs of 70 GiB and more can pass that, not modelled), TensorRT-LLM and vLLM 0.5. A slow step keeps more sequences running, so past the limit a load can stay there.",
        (Factor::DecodeGraphMaxBatch, Lang::Zh) => "服务栈以 CUDA Graphs 重放的最大解码批（一个副本一步中的序列数）；序列更多的解码步即时执行，耗时 max(它在 GPU 上的时间, 它的 kernel 数 × eager_kernel_host_s)。0 表示每个解码步都在图中。由 serving_stack 和 GPU 显存决定（标称 N GB 的卡报告的显存略少于 N GiB）：SGLang 在显存小于 20 GiB 时捕获 8 个序列，小于 35 GiB（A10、RTX 4090、RTX 5090）时 48 个（张量并行 4 及以上为 160），小于 60 GiB（A100 40GB、L40S）时 32 个（160），小于 160 GiB（H100、H200）时 256 个（512），更大时 512 个（SGLang 按显存设定参数的 _handle_gpu_memory_settings，合并 PR #37898 之后，2026-09）；更早的版本另有上限（SGLang 0.4：显存小于 25,000 MiB 时，张量并行小于 4 为 8，4 及以上为 80；更大时 160）。vLLM V1（图捕获到 512 个序列；它在 70 GiB 及以上显存的 GPU 上默认最多 1,024 个并发序列，可能超过这个数，未建模）、TensorRT-LLM 和 vLLM 0.5 为 0。一步变慢，在跑的序列就变多，所以负载一旦越过这个上限，可能就停在那里。",
        (Factor::EagerKernelHostS, Lang::En) => "Host seconds per kernel of a decode step run eagerly, outside CUDA graphs (Python dispatch and the launch, one kernel after another), a speculative drafter's passes included: 17.8 µs. SGLang v0.5.20 serving Qwen3-0.6B (28 layers) on an RTX 5090 at 50 requests/s took 5.44-5.51 ms per output token with its default decode-graph limit of 48, which the running batch passed, and 2.64 ms with graphs up to 128 (SGLang pull request #40346, 2026-09-19); this engine's load model gives 5.49 ms at that setting with 17.8 µs a kernel (the plain quotient, 5.475 ms over 28 layers × 10 kernels = 19.6 µs, would count the prompts' steps between decode steps twice). One desktop host's measurement; other hosts may take longer (not measured). Estimate for other hosts.",
        (Factor::EagerKernelHostS, Lang::Zh) => "在 CUDA Graphs 之外即时执行的解码步中，主机端每个 kernel 花的时间（解释器逐个调度并启动，一个接一个），投机解码草稿的每一遍也算在内：17.8 µs。SGLang v0.5.20 在 RTX 5090 上服务 Qwen3-0.6B（28 层），每秒 50 个请求：默认解码图上限为 48，在跑的批超过了它，每个输出 token 耗时 5.44–5.51 毫秒；图捕获到 128 时为 2.64 毫秒（SGLang PR #40346，2026-09-19）；本引擎的负载模型在这个设置下取每个 kernel 17.8 µs 时给出 5.49 毫秒（直接相除，5.475 毫秒除以 28 层 × 10 个 kernel = 19.6 µs，会把解码步之间的提示词步骤算两次）。这是台式机主机上的一次测量；其他主机可能更慢（未测量）。对其他主机是估计值。",
    }
}

/// The report as JSON with its derivations (`{formula, values, source}`) and assumptions as
/// strings in `lang`: what `gpu-primer estimate` prints (in English).
pub fn report_json(r: &crate::engine::Report, lang: Lang) -> serde_json::Value {
    let mut v = serde_json::to_value(r).unwrap_or(serde_json::Value::Null);
    if let serde_json::Value::Object(map) = &mut v {
        let derivations: serde_json::Map<String, serde_json::Value> = r
            .derivations
            .iter()
            .map(|(k, d)| (k.path(), serde_json::to_value(derivation(d, lang)).unwrap_or_default()))
            .collect();
        map.insert("derivations".into(), serde_json::Value::Object(derivations));
        let assumptions =
            r.assumptions.iter().map(|a| serde_json::Value::String(assumption(a, lang))).collect();
        map.insert("assumptions".into(), serde_json::Value::Array(assumptions));
        if let Some(serde_json::Value::Array(factors)) = map.get_mut("efficiency") {
            for (v, f) in factors.iter_mut().zip(&r.performance.efficiency) {
                if let serde_json::Value::Object(o) = v {
                    o.insert("source".into(), factor_note(f.factor, lang).into());
                }
            }
        }
    }
    v
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bytes_read_as_a_person_reads_them() {
        assert_eq!(bytes(18_000_000_000), "18.0 GB");
        assert_eq!(bytes(40_000_000_000), "40.0 GB");
        assert_eq!(bytes(1_073_741_824), "1.07 GB");
        assert_eq!(bytes(141_107_412_992), "141 GB");
        assert_eq!(bytes(999_960_000), "1.00 GB");
        assert_eq!(bytes(512), "512 B");
        assert_eq!(bytes(0), "0 B");
        assert_eq!(bytes(u128::MAX), bytes(u128::MAX), "no panic on the largest count");
    }

    #[test]
    fn the_fit_and_the_runtime_reserve_are_in_gb_not_raw_bytes() {
        let mut s = crate::engine::Scenario::new(crate::engine::ModelSpec::Id("llama-3.1-8b".into()));
        s.gpu = crate::engine::hardware::GpuSpec::Id("a100-pcie-40gb".into());
        let r = crate::catalog::evaluate(&s).unwrap();
        for lang in Lang::ALL {
            let fits = r
                .derivations
                .iter()
                .find(|(k, _)| k.path() == "fits")
                .map(|(_, d)| derivation(d, lang))
                .unwrap();
            assert!(fits.values.contains(" GB ≤ 36.0 GB"), "{}", fits.values);
            assert!(
                fits.values.chars().filter(char::is_ascii_digit).count() < 12,
                "no raw byte counts: {}",
                fits.values
            );
            let overhead = r.assumptions.iter().map(|a| assumption(a, lang)).find(|t| t.contains("1.07 GB"));
            assert!(overhead.is_some(), "{:?}", r.assumptions);
        }
    }
}
