//! The time half of the `Report`: types only (filled by [`super::performance`]). Every time is
//! given twice: `*_bound` is the roofline upper bound on speed (peak figures, no overheads,
//! communication overlapped: reality is never faster) and the plain name is the expected value
//! (efficiency factors, latencies, launches, pipeline bubble).

use super::roofline::BoundTime;
use super::scaling::ScalingPoint;
use super::serving::ServingEstimate;
use crate::engine::bound::Term;
use crate::engine::efficiency::Factor;
use crate::engine::precision::compute::ComputePath;
use serde::Serialize;

/// The GPU and links used.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct HardwareInfo {
    /// Catalog id, or `custom` (or the inline object's id).
    pub gpu: String,
    pub gpu_name: String,
    pub memory_bandwidth_bytes_per_s: f64,
    /// Dense peak of the compute path in use.
    pub peak_flops_per_s: f64,
    /// Which path applies, e.g. `bf16 tensor`, `fp8 tensor`, `fp32 vector (no bf16 path)`
    /// (English label for the JSON; views word [`HardwareInfo::path`] with `i18n::facts::compute_path`).
    pub compute_path: String,
    /// The compute path, typed.
    pub path: ComputePath,
    /// GPU fields flagged uncertain in the catalog (keep them visible).
    pub uncertain: Vec<String>,
    pub source: String,
    pub retrieved: String,
    /// `nvswitch` | `nvswitch_efa` | `pcie` | `nvlink_bridge`.
    pub topology: String,
    pub gpus_per_node: u32,
    pub intra_node_bytes_per_s_per_direction: f64,
    pub intra_node_latency_s: f64,
    pub inter_node_bytes_per_s_per_direction: Option<f64>,
    pub inter_node_latency_s: Option<f64>,
    /// The host's memory bandwidth the layers in host memory are read at (partial offload).
    pub host_memory_bandwidth_bytes_per_s: f64,
    /// The GPU's PCIe link per direction (null on a unified-memory device).
    pub pcie_bytes_per_s_per_direction: Option<f64>,
    /// Whether the GPU's memory is its own or shared with the CPU.
    pub memory_kind: crate::engine::gpu::MemoryKind,
}

/// The request shape the times are for.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Workload {
    pub prompt_tokens: u64,
    pub output_tokens: u64,
    /// Cached tokens per sequence at the average decode step: prompt + output / 2.
    pub decode_context_tokens: f64,
    /// Sequences in flight over the whole deployment: batch × data_parallel.
    pub concurrency: u64,
    pub micro_batches: u64,
    pub expert_parallel: u64,
}

/// Seconds.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Times {
    /// Prefill of the batch's prompts (all `batch` sequences of one replica together).
    pub prefill_s: f64,
    pub prefill_s_bound: f64,
    /// One decode step of the batch at the average context.
    pub decode_step_s: f64,
    pub decode_step_s_bound: f64,
    /// One training step (training, lora, qlora); null in inference.
    pub step_s: Option<f64>,
    pub step_s_bound: Option<f64>,
    /// = prefill_s (no queueing).
    pub time_to_first_token_s: f64,
    /// = decode_step_s.
    pub time_per_output_token_s: f64,
    /// prefill + output_tokens × decode step: one batch from prompt to last token.
    pub generation_s: f64,
    pub generation_s_bound: f64,
    /// Prompt tokens per request found in the prefix cache (`memory::prefix`): prefill computes
    /// only the rest. 0 without prefix reuse.
    pub prefix_cached_tokens: u64,
    /// The prefix cache's hit rate: `prefix_hit_rate`, else a session's, else 0.
    pub prefix_hit_rate: f64,
    /// Where the reused histories are served from (GPU, CPU tier, SSD tier, recomputed) and the
    /// mean restore added to the time to first token; null without `prefix_open_sessions`.
    pub kv_tiers: Option<super::kv_tiers::KvTierReport>,
}

/// Tokens per second over the whole deployment unless named per user.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Throughput {
    /// batch × data_parallel / decode step.
    pub decode_tokens_per_s: f64,
    pub decode_tokens_per_s_bound: f64,
    pub prefill_tokens_per_s: f64,
    pub prefill_tokens_per_s_bound: f64,
    /// 1 / decode step.
    pub per_user_tokens_per_s: f64,
    pub per_user_tokens_per_s_bound: f64,
    /// Output tokens over prefill + decode of a whole batch (static batching).
    pub generation_tokens_per_s: f64,
    pub generation_tokens_per_s_bound: f64,
    /// Training tokens per second (null in inference).
    pub tokens_per_s: Option<f64>,
    pub tokens_per_s_bound: Option<f64>,
}

/// One phase in full: work, intensity, both times term by term, and what dominates.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct PhaseReport {
    /// Whole phase, all GPUs of one replica together.
    pub flops: f64,
    /// Memory traffic of the bound (MoE: top-k experts only).
    pub bytes: f64,
    /// Memory traffic of the expected value (MoE: experts the batch touches on average).
    pub expected_bytes: f64,
    pub tokens: f64,
    /// flops / bytes (FLOP/byte).
    pub arithmetic_intensity: f64,
    /// Peak FLOP/s / bandwidth of the compute path (FLOP/byte).
    pub ridge_point: f64,
    /// English label of [`PhaseReport::path`].
    pub compute_path: String,
    pub path: ComputePath,
    /// Roofline terms with peak figures; `total_s = max(compute, memory, communication)`.
    pub bound: BoundTime,
    /// Terms with efficiency factors; `total_s = max(compute, memory) + communication + overhead`.
    pub expected: BoundTime,
    /// Largest expected term among compute, memory, communication, overhead.
    pub dominant: Term,
    /// Largest expected term / second largest (null when the others are zero).
    pub dominance_ratio: Option<f64>,
    pub time_s: f64,
    pub time_s_bound: f64,
    pub tokens_per_s: f64,
    pub tokens_per_s_bound: f64,
    pub tensor_parallel_comm_s: f64,
    pub expert_parallel_comm_s: f64,
    pub data_parallel_sync_s: f64,
    pub data_parallel_exposed_s: f64,
    pub pipeline_bubble_fraction: f64,
    /// The routed experts as their kernel family runs them (null: a dense model, training, or
    /// llama.cpp, whose experts stay in the dense roofline).
    pub moe: Option<super::timing::MoeTiming>,
    /// Seconds the GPU waits for the serving stack's CPU work (`efficiency.cpu_share_of_step`).
    pub cpu_exposed_s: f64,
    /// One tensor-parallel all-reduce and the calls of the phase (null without tensor
    /// parallelism, and in training, whose step has its own breakdown).
    pub tp_all_reduce: Option<super::timing::TpAllReduce>,
}

/// The software the time model assumes, each setting with where it comes from.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct StackReport {
    pub serving_stack: crate::engine::stack::ServingStack,
    /// What the stack sets, with its source and date.
    pub settings: crate::engine::stack::StackSettings,
    /// The routed experts' kernel family (null: a dense model or llama.cpp).
    pub moe_kernel: Option<crate::engine::stack::MoeKernel>,
    /// Its measured costs, with their source (null as `moe_kernel`).
    pub moe_costs: Option<crate::engine::stack::GroupedGemmCosts>,
    /// The costs at this model's expert slice: `(t0 s, η_b, η_c of the compute path)`.
    pub moe_resolved: Option<(f64, f64, f64)>,
    pub ep_comm: crate::engine::stack::EpComm,
    /// Whether the stack's custom all-reduce runs the tensor-parallel all-reduces here: the
    /// scenario's `custom_all_reduce`, a serving run, 2, 4, 6 or 8 tensor-parallel GPUs all
    /// connected inside one node (messages over 8 MiB still go to NCCL).
    pub custom_all_reduce_runs: bool,
    pub prefill_policy: crate::engine::stack::PrefillPolicy,
    pub bench_tool: crate::engine::stack::BenchTool,
    /// The slowest EP rank's load the reader gave (null: the default, per step).
    pub expert_imbalance: Option<f64>,
    /// The weight-only kernel family named (null: `efficiency.quantized_weight_bandwidth`).
    pub weight_kernel: Option<crate::engine::stack::WeightKernel>,
    /// llama.cpp's back end (a GGUF model only).
    pub llama_backend: Option<crate::engine::stack::LlamaBackend>,
    /// llama.cpp MoE prompt processing padded to the micro-batch's tile: `(useful share of the
    /// experts' tile columns, the experts' share of the active parameters)`.
    pub llama_moe_tiles: Option<(f64, f64)>,
}

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Phases {
    pub prefill: PhaseReport,
    pub decode: PhaseReport,
    /// Training, lora and qlora only.
    pub training: Option<PhaseReport>,
}

/// A phase placed on the roofline chart.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct RooflinePoint {
    pub phase: String,
    pub arithmetic_intensity: f64,
    /// min(F, I × B): the roof above this intensity.
    pub attainable_flops_per_s: f64,
    /// FLOP/s per GPU at the expected time.
    pub expected_flops_per_s: f64,
}

/// Decode at one batch size (the point moving along the roofline).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct DecodeBatchPoint {
    pub batch: u64,
    pub arithmetic_intensity: f64,
    pub tokens_per_s: f64,
    pub tokens_per_s_bound: f64,
    pub dominant: Term,
}

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Roofline {
    pub peak_flops_per_s: f64,
    pub memory_bandwidth_bytes_per_s: f64,
    pub ridge_point: f64,
    /// English label of [`Roofline::path`].
    pub compute_path: String,
    pub path: ComputePath,
    /// prefill, decode (at the scenario's batch) and training when it applies.
    pub points: Vec<RooflinePoint>,
    /// Decode at batch 1, 2, 4, ..., 1024 (same layout and context), whole deployment.
    pub decode_by_batch: Vec<DecodeBatchPoint>,
}

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ScalingCurves {
    /// What is scaled: one training step of `sequences` × `seq_len` tokens per replica.
    pub phase: String,
    pub sequences: f64,
    pub seq_len: f64,
    pub micro_batches: u32,
    pub topology: String,
    pub data: Vec<ScalingPoint>,
    pub tensor: Vec<ScalingPoint>,
    pub pipeline: Vec<ScalingPoint>,
    /// First GPU count where communication and bubble exceed half the step (null: never).
    pub communication_dominates_from: CommunicationDominates,
}

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct CommunicationDominates {
    pub data: Option<u32>,
    pub tensor: Option<u32>,
    pub pipeline: Option<u32>,
}

/// Serving at the scenario's concurrency: the serving estimate plus the price behind its cost.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Serving {
    pub concurrency: u64,
    /// TTFT, TPOT, tokens/s per user and aggregate, requests/s, cost per million tokens
    /// (flattened: the JSON keys are the estimate's).
    #[serde(flatten)]
    pub estimate: ServingEstimate,
    /// USD per GPU-hour used (null when unknown).
    pub price_per_gpu_hour: Option<f64>,
    /// Where the price comes from (`scenario` or the instance it was read from).
    pub price_source: Option<String>,
}

/// One efficiency factor as used, with its default (its provenance is worded by
/// `i18n::facts::factor_note`).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct EfficiencyFactor {
    pub factor: Factor,
    pub field: String,
    pub value: f64,
    pub default: f64,
    /// True when the default is an engineering estimate rather than a published measurement.
    pub estimate: bool,
    pub overridden: bool,
    /// True when the default is the device's own (its back end's measured fraction,
    /// `Gpu::efficiency_source`) rather than the engine's.
    pub device: bool,
}

/// Everything time-related in the report (flattened into its top level).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Performance {
    pub hardware: HardwareInfo,
    pub workload: Workload,
    pub time: Times,
    pub throughput: Throughput,
    /// Dominant expected term of the phase that matters: decode (inference) or the step (training).
    pub bound: Term,
    /// How many times larger it is than the next term (null when alone).
    pub bound_ratio: Option<f64>,
    pub phases: Phases,
    pub roofline: Roofline,
    pub scaling: ScalingCurves,
    pub serving: Serving,
    pub efficiency: Vec<EfficiencyFactor>,
    /// The serving stack and kernel families the times assume.
    pub stack: StackReport,
    /// The training step by operation, tokens per second per GPU, MFU and HFU (training, lora
    /// and qlora; null in inference).
    pub training: Option<super::training::run::TrainingReport>,
    /// Speculative decoding's verify and draft passes, acceptance, speed-up and the curve
    /// against batch (null without `speculative_method`); `time.time_per_output_token_s` and
    /// the throughputs already include it.
    pub speculative: Option<super::speculative::SpeculativeReport>,
}
