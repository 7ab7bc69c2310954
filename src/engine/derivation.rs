//! How a number was obtained, as typed facts: which report path ([`DerivKey`]), which formula
//! ([`Formula`]), the values substituted ([`Val`], in the order the formula's values template
//! names them) and where the formula comes from ([`Source`]). The engine never words them:
//! `i18n::facts` renders each in Chinese and English with an exhaustive `match`, so a
//! formula without wording is a compile error.

use super::bound::Term;
use super::precision::compute::{ComputeDtype, ComputePath};
use super::precision::Dtype;
use super::workload::{Mode, Optimizer, Recompute, TrainingPrecision};
use serde::{Serialize, Serializer};

/// A phase of the time model.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum PhaseName {
    Prefill,
    Decode,
    Training,
}

impl PhaseName {
    /// The name used in report paths (`phases.decode.time_s`).
    pub fn path(self) -> &'static str {
        match self {
            PhaseName::Prefill => "prefill",
            PhaseName::Decode => "decode",
            PhaseName::Training => "training",
        }
    }
}

/// A quantity reported for every phase.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum PhaseQty {
    Flops,
    Bytes,
    ArithmeticIntensity,
    TimeBound,
    Time,
    /// The host part of partial offload (`expected.host_s`).
    Host,
    /// The routed experts' grouped GEMMs as their kernel family runs them
    /// (`moe.grouped_gemm_s`).
    Moe,
    /// The routed experts' dispatch and combine with expert parallelism
    /// (`expert_parallel_comm_s`).
    ExpertComm,
    /// The tensor-parallel all-reduces (`tensor_parallel_comm_s`).
    TensorComm,
}

/// A quantity of the report's `training` section.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum TrainingQty {
    TokensPerGpu,
    ModelFlopsPerToken,
    Mfu,
    Hfu,
    Gemm,
    Attention,
    Elementwise,
    Loss,
    Recompute,
    Optimizer,
    TensorParallel,
    ContextParallel,
    ExpertParallel,
    Fsdp,
    DataParallel,
    Bubble,
    Launch,
}

impl TrainingQty {
    /// The parts of a step, in the order of `StepBreakdown::parts` (every quantity but the four
    /// rates: tokens per GPU, model FLOPs per token, MFU, HFU).
    pub const STEP_PARTS: [TrainingQty; 13] = [
        TrainingQty::Gemm,
        TrainingQty::Attention,
        TrainingQty::Elementwise,
        TrainingQty::Loss,
        TrainingQty::Recompute,
        TrainingQty::Optimizer,
        TrainingQty::TensorParallel,
        TrainingQty::ContextParallel,
        TrainingQty::ExpertParallel,
        TrainingQty::Fsdp,
        TrainingQty::DataParallel,
        TrainingQty::Bubble,
        TrainingQty::Launch,
    ];

    /// The path under `training.` in the report.
    pub fn path(self) -> &'static str {
        match self {
            TrainingQty::TokensPerGpu => "tokens_per_s_per_gpu",
            TrainingQty::ModelFlopsPerToken => "model_flops_per_token",
            TrainingQty::Mfu => "mfu",
            TrainingQty::Hfu => "hfu",
            TrainingQty::Gemm => "step.gemm_s",
            TrainingQty::Attention => "step.attention_s",
            TrainingQty::Elementwise => "step.elementwise_s",
            TrainingQty::Loss => "step.loss_s",
            TrainingQty::Recompute => "step.recompute_s",
            TrainingQty::Optimizer => "step.optimizer_s",
            TrainingQty::TensorParallel => "step.tensor_parallel_s",
            TrainingQty::ContextParallel => "step.context_parallel_s",
            TrainingQty::ExpertParallel => "step.expert_parallel_s",
            TrainingQty::Fsdp => "step.fsdp_s",
            TrainingQty::DataParallel => "step.data_parallel_s",
            TrainingQty::Bubble => "step.pipeline_bubble_s",
            TrainingQty::Launch => "step.launch_s",
        }
    }
}

/// The report path a derivation explains (one variant per path; phases parameterised).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum DerivKey {
    ParamsTotal,
    ParamsActive,
    ParamsTrainable,
    KvCacheBytesPerToken,
    MemWeights,
    /// Bits per weight of the matrices' format.
    WeightBits,
    MemKvCache,
    MemRecurrentState,
    MemActivations,
    MemGradients,
    MemOptimizer,
    MemOverhead,
    MemTotal,
    MemLogits,
    MemFp8WeightCache,
    MemFsdpBuffers,
    MemAllocatorReserve,
    GpuMemoryBytes,
    UsableGpuMemoryBytes,
    Fits,
    /// Bytes kept in host memory.
    HostMemory,
    LayoutDataParallel,
    /// Routed experts one GPU holds under expert parallelism.
    LayoutExpertsPerGpu,
    SolverMaxContext,
    SolverMaxBatch,
    SolverMinGpus,
    SolverMaxGpuLayers,
    SolverMinCpuMoe,
    HardwareComputePath,
    HardwareTopology,
    RooflineRidgePoint,
    Phase(PhaseName, PhaseQty),
    TimePrefill,
    /// Prompt tokens per request found in the prefix cache.
    TimePrefixCached,
    /// The prefix cache's hit rate.
    TimePrefixHitRate,
    /// Which tier serves what share of the reused histories.
    TimeKvTierShares,
    /// Restoring a history from each tier against recomputing it.
    TimeKvRestore,
    /// Speculative decoding: tokens emitted per target step, E.
    SpeculativeExpectedTokens,
    /// Speculative decoding: the step and the time per output token.
    SpeculativeTimePerOutputToken,
    TimeDecodeStep,
    TimeToFirstToken,
    TimePerOutputToken,
    TimeGeneration,
    TimeStep,
    ThroughputDecode,
    ThroughputDecodeBound,
    ThroughputPrefill,
    ThroughputPerUser,
    ThroughputGeneration,
    ThroughputTraining,
    ServingCostPerMillion,
    Bound,
    /// `training.*`.
    Training(TrainingQty),
}

impl DerivKey {
    /// The key's path in the report's JSON, e.g. `memory_per_gpu_bytes.weights`.
    pub fn path(self) -> String {
        let s = match self {
            DerivKey::ParamsTotal => "params.total",
            DerivKey::ParamsActive => "params.active",
            DerivKey::ParamsTrainable => "params.trainable",
            DerivKey::KvCacheBytesPerToken => "kv_cache_bytes_per_token",
            DerivKey::MemWeights => "memory_per_gpu_bytes.weights",
            DerivKey::WeightBits => "weight_bits_per_element",
            DerivKey::MemKvCache => "memory_per_gpu_bytes.kv_cache",
            DerivKey::MemRecurrentState => "memory_per_gpu_bytes.recurrent_state",
            DerivKey::MemActivations => "memory_per_gpu_bytes.activations",
            DerivKey::MemGradients => "memory_per_gpu_bytes.gradients",
            DerivKey::MemOptimizer => "memory_per_gpu_bytes.optimizer",
            DerivKey::MemOverhead => "memory_per_gpu_bytes.overhead",
            DerivKey::MemTotal => "memory_per_gpu_bytes.total",
            DerivKey::MemLogits => "memory_per_gpu_bytes.logits",
            DerivKey::MemFp8WeightCache => "memory_per_gpu_bytes.fp8_weight_cache",
            DerivKey::MemFsdpBuffers => "memory_per_gpu_bytes.fsdp_buffers",
            DerivKey::MemAllocatorReserve => "memory_per_gpu_bytes.allocator_reserve",
            DerivKey::GpuMemoryBytes => "gpu_memory_bytes",
            DerivKey::UsableGpuMemoryBytes => "usable_gpu_memory_bytes",
            DerivKey::Fits => "fits",
            DerivKey::HostMemory => "host_memory_bytes",
            DerivKey::LayoutDataParallel => "layout.data_parallel",
            DerivKey::LayoutExpertsPerGpu => "layout.experts_per_gpu",
            DerivKey::SolverMaxContext => "solvers.max_context_tokens",
            DerivKey::SolverMaxBatch => "solvers.max_batch",
            DerivKey::SolverMinGpus => "solvers.min_gpus",
            DerivKey::SolverMaxGpuLayers => "solvers.max_gpu_layers",
            DerivKey::SolverMinCpuMoe => "solvers.min_cpu_moe",
            DerivKey::HardwareComputePath => "hardware.compute_path",
            DerivKey::HardwareTopology => "hardware.topology",
            DerivKey::RooflineRidgePoint => "roofline.ridge_point",
            DerivKey::Phase(p, q) => {
                let q = match q {
                    PhaseQty::Flops => "flops",
                    PhaseQty::Bytes => "bytes",
                    PhaseQty::ArithmeticIntensity => "arithmetic_intensity",
                    PhaseQty::TimeBound => "time_s_bound",
                    PhaseQty::Time => "time_s",
                    PhaseQty::Host => "expected.host_s",
                    PhaseQty::Moe => "moe.grouped_gemm_s",
                    PhaseQty::ExpertComm => "expert_parallel_comm_s",
                    PhaseQty::TensorComm => "tensor_parallel_comm_s",
                };
                return format!("phases.{}.{q}", p.path());
            }
            DerivKey::TimePrefill => "time.prefill_s",
            DerivKey::TimePrefixCached => "time.prefix_cached_tokens",
            DerivKey::TimePrefixHitRate => "time.prefix_hit_rate",
            DerivKey::TimeKvTierShares => "time.kv_tiers.gpu_share",
            DerivKey::TimeKvRestore => "time.kv_tiers.restore_s",
            DerivKey::SpeculativeExpectedTokens => "speculative.expected_tokens_per_step",
            DerivKey::SpeculativeTimePerOutputToken => "speculative.time_per_output_token_s",
            DerivKey::TimeDecodeStep => "time.decode_step_s",
            DerivKey::TimeToFirstToken => "time.time_to_first_token_s",
            DerivKey::TimePerOutputToken => "time.time_per_output_token_s",
            DerivKey::TimeGeneration => "time.generation_s",
            DerivKey::TimeStep => "time.step_s",
            DerivKey::ThroughputDecode => "throughput.decode_tokens_per_s",
            DerivKey::ThroughputDecodeBound => "throughput.decode_tokens_per_s_bound",
            DerivKey::ThroughputPrefill => "throughput.prefill_tokens_per_s",
            DerivKey::ThroughputPerUser => "throughput.per_user_tokens_per_s",
            DerivKey::ThroughputGeneration => "throughput.generation_tokens_per_s",
            DerivKey::ThroughputTraining => "throughput.tokens_per_s",
            DerivKey::ServingCostPerMillion => "serving.cost_per_million_tokens",
            DerivKey::Bound => "bound",
            DerivKey::Training(q) => return format!("training.{}", q.path()),
        };
        s.to_owned()
    }
}

impl Serialize for DerivKey {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&self.path())
    }
}

/// Every formula the report derives a number with. Each has a formula text and a values
/// template (one placeholder per [`Val`]) in every language.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Formula {
    ParamsTotal,
    ParamsActive,
    ParamsTrainable,
    KvPerToken,
    KvPerTokenMla,
    Weights,
    /// Weights in the checkpoint's own mixed format (quantization_config), class by class.
    WeightsMixed,
    /// Bits per weight: value bits + scale (and zero) bits per group + second-level scales.
    WeightBits,
    KvCache,
    RecurrentState,
    ActivationsTraining,
    ActivationsInference,
    Gradients,
    Optimizer,
    Overhead,
    MemoryTotal,
    GpuMemory,
    Usable,
    Fits,
    /// What must fit: the total less the paged optimizer states on the device.
    FitsPaged,
    /// Host memory: the paged optimizer states the device has no room for.
    HostPagedStates,
    DataParallel,
    MaxContext,
    MaxBatch,
    MinGpus,
    ComputePath,
    Topology,
    RidgePoint,
    PrefillFlops,
    DecodeFlops,
    TrainingFlops,
    PrefillBytes,
    DecodeBytes,
    TrainingBytes,
    Intensity,
    PhaseTimeBound,
    PhaseTime,
    PrefillTime,
    DecodeStepTime,
    TimeToFirstToken,
    TimePerOutputToken,
    GenerationTime,
    DecodeTokensPerS,
    DecodeTokensPerSBound,
    PrefillTokensPerS,
    PerUserTokensPerS,
    GenerationTokensPerS,
    StepTime,
    TrainingTokensPerS,
    CostPerMillion,
    Bound,
    /// Training logits: compute-dtype logits + an fp32 copy (all, or one loss chunk).
    LogitsTraining,
    /// Inference logits: one fp32 row per sequence.
    LogitsInference,
    /// Training activations with the saved activations offloaded to host memory.
    ActivationsOffloaded,
    /// Paged optimizer states: in unified memory, on the device as far as it has room.
    OptimizerPaged,
    /// Time to first token: prefill plus the per-request fixed cost.
    TimeToFirstTokenWithRequest,
    /// Gemma 4: KV per token summed over sliding and full layers of different shapes.
    KvPerTokenByLayerKind,
    /// Gemma 4: the KV cache summed over sliding and full layers of different shapes.
    KvCacheByLayerKind,
    /// Weights as llama.cpp's tensors, each in its ggml type.
    WeightsTable,
    /// What partial offload (and paged optimizer states) leave in host memory.
    HostOffload,
    /// Usable memory of a unified-memory device: the GPU's working set, less the margin.
    UsableWorkingSet,
    /// The most layers llama.cpp can offload.
    MaxGpuLayers,
    /// The fewest layers whose experts stay in host memory with every layer on the GPU.
    MinCpuMoe,
    /// The host part of a phase under partial offload.
    PhaseHost,
    /// Experts per GPU under expert parallelism: ceil((E + R)/ep), each split max(1, tp/ep) ways.
    ExpertsPerGpu,
    /// One MoE layer's grouped GEMMs on one GPU, its kernel family's measured costs, times the
    /// layers.
    MoeGroupedGemm,
    /// Dispatch and combine of DeepEP's kernels per MoE layer, at the slowest rank, times the
    /// layers.
    EpDispatchCombineDeepep,
    /// NCCL's all-to-all twice per MoE layer, at the slowest rank, times the layers.
    EpAllToAllNccl,
    /// A serving phase's tensor-parallel all-reduces inside one node: one call on the stack's
    /// kernels or NCCL's ring, times the calls.
    TpAllReduce,
    /// The same across nodes: NCCL's hierarchical ring.
    TpAllReduceNodes,
    /// DeepEP's normal kernels across nodes: once per remote node over the NIC, forwarded over
    /// NVLink, the longer of the two, at the slowest rank, times the layers.
    EpDispatchCombineNodes,
    /// A low-precision recipe's quantised weight copies.
    Fp8WeightCache,
    /// FSDP's unsharded layers and gradient buffer.
    FsdpBuffers,
    /// The allocator's reserve (a stated input).
    AllocatorReserve,
    /// A training step as the sum of its operations.
    TrainingStepTime,
    /// Training: tokens per second per GPU.
    TrainingTokensPerGpu,
    /// Model FLOPs per token under a named convention.
    ModelFlopsPerToken,
    Mfu,
    Hfu,
    StepGemm,
    StepAttention,
    StepElementwise,
    StepLoss,
    StepRecompute,
    StepOptimizer,
    StepTensorParallel,
    StepContextParallel,
    StepExpertParallel,
    StepFsdp,
    StepDataParallel,
    StepBubble,
    StepLaunch,
    /// The compute path a checkpoint's own format chooses (block FP8 → FP8 GEMMs).
    ComputePathCheckpoint,
    /// The compute path of a llama.cpp file type on an RDNA GPU, with its back end's measured
    /// share of the 16-bit peak on that generation.
    ComputePathLlamaBackend,
    /// Prompt tokens found in the prefix cache, and the shared prefix stored once.
    PrefixCached,
    /// The hit rate of a multi-turn session.
    SessionHitRate,
    /// The working set of the reused histories and the share each KV tier serves.
    KvTierShares,
    /// A history restored from each tier, against recomputing it.
    KvTierRestore,
    /// Time to first token with a restore from a KV tier before the prefill.
    TimeToFirstTokenWithRestore,
    /// E from an i.i.d. acceptance rate (Leviathan et al. 2023).
    SpecAcceptanceIid,
    /// E from cumulative per-position acceptance.
    SpecAcceptancePerPosition,
    /// E given as a measured acceptance length.
    SpecAcceptanceLength,
    /// The speculative step and the time per output token.
    SpecStep,
}

impl Formula {
    /// Every formula, for tests that check each has wording in every language.
    pub const ALL: [Formula; 103] = [
        Formula::TpAllReduce,
        Formula::TpAllReduceNodes,
        Formula::KvTierShares,
        Formula::KvTierRestore,
        Formula::TimeToFirstTokenWithRestore,
        Formula::EpDispatchCombineNodes,
        Formula::EpDispatchCombineDeepep,
        Formula::EpAllToAllNccl,
        Formula::SpecAcceptanceIid,
        Formula::SpecAcceptancePerPosition,
        Formula::SpecAcceptanceLength,
        Formula::SpecStep,
        Formula::PrefixCached,
        Formula::SessionHitRate,
        Formula::ExpertsPerGpu,
        Formula::ComputePathLlamaBackend,
        Formula::MoeGroupedGemm,
        Formula::ComputePathCheckpoint,
        Formula::TrainingStepTime,
        Formula::TrainingTokensPerGpu,
        Formula::ModelFlopsPerToken,
        Formula::Mfu,
        Formula::Hfu,
        Formula::StepGemm,
        Formula::StepAttention,
        Formula::StepElementwise,
        Formula::StepLoss,
        Formula::StepRecompute,
        Formula::StepOptimizer,
        Formula::StepTensorParallel,
        Formula::StepContextParallel,
        Formula::StepExpertParallel,
        Formula::StepFsdp,
        Formula::StepDataParallel,
        Formula::StepBubble,
        Formula::StepLaunch,
        Formula::Fp8WeightCache,
        Formula::FsdpBuffers,
        Formula::AllocatorReserve,
        Formula::MinCpuMoe,
        Formula::WeightsTable,
        Formula::HostOffload,
        Formula::UsableWorkingSet,
        Formula::MaxGpuLayers,
        Formula::PhaseHost,
        Formula::WeightsMixed,
        Formula::WeightBits,
        Formula::ParamsTotal,
        Formula::ParamsActive,
        Formula::ParamsTrainable,
        Formula::KvPerToken,
        Formula::KvPerTokenMla,
        Formula::Weights,
        Formula::KvCache,
        Formula::RecurrentState,
        Formula::ActivationsTraining,
        Formula::ActivationsInference,
        Formula::Gradients,
        Formula::Optimizer,
        Formula::Overhead,
        Formula::MemoryTotal,
        Formula::GpuMemory,
        Formula::Usable,
        Formula::Fits,
        Formula::FitsPaged,
        Formula::HostPagedStates,
        Formula::DataParallel,
        Formula::MaxContext,
        Formula::MaxBatch,
        Formula::MinGpus,
        Formula::ComputePath,
        Formula::Topology,
        Formula::RidgePoint,
        Formula::PrefillFlops,
        Formula::DecodeFlops,
        Formula::TrainingFlops,
        Formula::PrefillBytes,
        Formula::DecodeBytes,
        Formula::TrainingBytes,
        Formula::Intensity,
        Formula::PhaseTimeBound,
        Formula::PhaseTime,
        Formula::PrefillTime,
        Formula::DecodeStepTime,
        Formula::TimeToFirstToken,
        Formula::TimePerOutputToken,
        Formula::GenerationTime,
        Formula::DecodeTokensPerS,
        Formula::DecodeTokensPerSBound,
        Formula::PrefillTokensPerS,
        Formula::PerUserTokensPerS,
        Formula::GenerationTokensPerS,
        Formula::StepTime,
        Formula::TrainingTokensPerS,
        Formula::CostPerMillion,
        Formula::Bound,
        Formula::LogitsTraining,
        Formula::LogitsInference,
        Formula::ActivationsOffloaded,
        Formula::OptimizerPaged,
        Formula::TimeToFirstTokenWithRequest,
        Formula::KvPerTokenByLayerKind,
        Formula::KvCacheByLayerKind,
    ];
}

/// Why a solver or an optional figure has no value.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Absent {
    /// No value of the searched quantity fits.
    NoneFits,
    /// The model config does not state it.
    NotStated,
    /// No layout up to 65536 GPUs fits.
    NoLayoutUpTo65536,
    /// The topology has no inter-node network.
    NoNetwork,
    /// A unified-memory device: the CPU and the GPU share one memory (no PCIe copy).
    UnifiedMemory,
    /// The scenario gives no such KV tier.
    NoTier,
}

/// One substituted value, typed so each language can render it (`12.4 ms`, 是/否, dtype names).
///
/// A value carries its quantity, never only its representation: a byte count is [`Val::Bytes`],
/// a parameter or element count [`Val::Count`], a rate [`Val::FlopRate`], [`Val::ByteRate`] or
/// [`Val::TokenRate`], so that `i18n` prints each with its unit in both languages ("16.1 GB",
/// "989.5 TFLOP/s", "148.4 tokens/s") and a reader never meets `16060522496` or `9.8950e14`.
/// `tests/readable_derivations.rs` holds every derivation of a wide set of scenarios to that.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(tag = "kind", content = "value", rename_all = "snake_case")]
pub enum Val {
    /// A small exact integer read in full (layers, heads, tp, a context in tokens), with
    /// thousands separators (`4,096`, `131,072`). Not for bytes ([`Val::Bytes`]) nor for a large
    /// count a person reads at a glance ([`Val::Count`]).
    Int(u128),
    /// A large count (parameters, elements) read at a glance: in full below a million
    /// (`884,736`), else three significant figures with the language's magnitude (`8.03 B`,
    /// `80.3 亿`). The exact count is in the report itself.
    Count(u128),
    /// A byte count a person reads at a glance: decimal units, three significant figures
    /// (`18.0 GB`, `1.07 GB`), where the exact count is in the report itself.
    Bytes(u128),
    /// A small byte count read exactly, with its binary size when it is one (`131,072 B
    /// (128 KiB)`): a per-token or per-sequence size that the chapters quote in KiB.
    ExactBytes(u128),
    /// Floating-point operations, a count (`17.1 GFLOP`).
    Flops(f64),
    /// Floating-point operations per second (`989.5 TFLOP/s`).
    FlopRate(f64),
    /// Bytes per second, decimal prefixes (`3.35 TB/s`, `450 GB/s`).
    ByteRate(f64),
    /// Tokens per second (`148.4 tokens/s`).
    TokenRate(f64),
    /// A number printed with this many decimals: a ratio or a fraction, whose unit (if any) the
    /// template writes.
    Fixed(f64, u8),
    /// A number in scientific notation with four decimals (`9.8950e14`). Kept for callers
    /// that print numbers for machines; a derivation a person reads uses a typed quantity.
    Sci(f64),
    /// A number printed as short as it round-trips (`0.1`, `0.85`): a fraction or a factor.
    Num(f64),
    /// Seconds, printed with a unit chosen by size (`12.345 ms`).
    Secs(f64),
    /// US dollars (`$6.88`, `$0.0412`).
    Usd(f64),
    /// Bits per element of a storage format at an int4 group size (`16`, `4.125`).
    Bits(Dtype, u64),
    Dtype(Dtype),
    ComputeDtype(ComputeDtype),
    /// A compute path: `bf16` Tensor Core path, or a fallback.
    Path(ComputePath),
    Mode(Mode),
    Optimizer(Optimizer),
    /// Formats of trained weights, gradients and optimizer states.
    Precision(TrainingPrecision),
    Recompute(Recompute),
    Bool(bool),
    /// A term of the time model (the dominant one).
    Term(Term),
    /// Compute-bound (`true`) or memory-bound (`false`) against the ridge point.
    ComputeBound(bool),
    /// "by 2.3×" after a dominant term, or nothing when it stands alone.
    Ratio(Option<f64>),
    /// An identifier the reader types or a proper name: a GPU id, a topology name.
    Id(String),
    /// A parallel layout: GPUs = tp × pp × dp.
    Layout {
        gpus: u64,
        tp: u64,
        pp: u64,
        dp: u64,
    },
    /// No value, and why.
    Absent(Absent),
}

impl Val {
    /// `Int` of a u64.
    pub fn int(v: u64) -> Val {
        Val::Int(u128::from(v))
    }

    /// `v`, or why there is none.
    pub fn or_absent(v: Option<u64>, why: Absent) -> Val {
        v.map_or(Val::Absent(why), Val::int)
    }
}

/// Where a formula comes from.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(tag = "kind", content = "title", rename_all = "snake_case")]
pub enum Source {
    /// The title of a cited paper, document or data source, as written (not translated).
    Cited(String),
    /// The article's estimate `T ≈ max(W/F, Q/B, C/N) + T_overhead` (with peak rates and no
    /// overhead, a lower bound on time), with the roofline paper.
    ArticleBound,
    /// Hugging Face transformers modeling code, counted module by module.
    ModelingCode,
    /// vLLM PagedAttention; no KV cache when training.
    PagedAttention,
    /// Stated assumption, with vLLM's measured non-torch memory.
    OverheadAssumption,
    /// A stated assumption (an input of the scenario).
    StatedAssumption,
    /// A definition.
    Definition,
    /// A definition under static batching (as TensorRT-LLM's gptSessionBenchmark).
    StaticBatching,
    /// The sum of the terms.
    Sum,
    /// This engine's own method.
    ThisEngine,
    /// This engine, with weights from the sizing engine.
    ThisEngineWeights,
    /// The GPU catalog.
    GpuCatalog,
    /// The interconnect catalog.
    InterconnectCatalog,
    /// The price was given in the scenario.
    ScenarioInput,
}

impl Source {
    /// A cited title.
    pub fn cited(title: &str) -> Source {
        Source::Cited(title.to_owned())
    }
}

/// How one number was obtained.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Derivation {
    pub formula: Formula,
    /// The values substituted, in the order of the formula's values template.
    pub values: Vec<Val>,
    pub source: Source,
}

impl Derivation {
    pub fn new(formula: Formula, values: Vec<Val>, source: Source) -> Derivation {
        Derivation { formula, values, source }
    }
}
