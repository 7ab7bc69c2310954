//! The validation table: every published measurement the engine can express (embedded from
//! `catalog/data/measurements.json`, a copy of the shared reference file), turned into a
//! Scenario by generic rules (model name → catalog id, GPU name → catalog id, precision →
//! dtypes, layout and lengths from the conditions), evaluated, and compared: measured,
//! expected, bound, error, and whether the bound holds (bound speed ≥ measured speed, bound
//! time ≤ measured time). Rows that cannot be expressed are listed with the reason.
//! No constant is fitted to any row.

use crate::catalog::evaluate;
use crate::engine::precision::Dtype;
use crate::engine::report::Report;
use crate::engine::scenario::{ModelSpec, Scenario};
use crate::engine::workload::{Mode, Recompute};
use serde::Serialize;
use serde_json::Value;

mod express;
mod names;
use express::express;
pub use names::{gpu_id, model_id};

/// One compared measurement.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ValidationRow {
    /// Index in measurements.json.
    pub index: usize,
    /// What is compared (e.g. `decode_throughput_bs1`, `inference_memory`).
    pub kind: String,
    pub model: String,
    pub gpu: String,
    /// The conditions, as the scenario that expresses them (worded by `i18n::validation`).
    pub conditions: Conditions,
    pub unit: RowUnit,
    pub measured: f64,
    pub expected: f64,
    /// Roofline bound (null for memory, which has no bound).
    pub bound: Option<f64>,
    /// (expected − measured) / measured × 100.
    pub error_pct: f64,
    /// Bound speed ≥ measured (or bound time ≤ measured); null without a bound.
    pub bound_holds: Option<bool>,
    pub source: String,
}

/// A measurement the engine cannot express, and why.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct NotExpressed {
    pub index: usize,
    pub kind: String,
    pub model: String,
    pub reason: Reason,
}

/// The conditions of a compared measurement: the facts of the scenario that expresses it.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Conditions {
    /// Model catalog id, or `None` for a config built from the conditions.
    pub model: Option<String>,
    pub weight_dtype: Dtype,
    pub gpus: u64,
    /// GPU catalog id (or `custom`).
    pub gpu: String,
    pub tensor_parallel: u64,
    pub pipeline_parallel: u64,
    pub data_parallel: u64,
    pub batch: u64,
    pub context_tokens: u64,
    pub mode: Mode,
    pub micro_batches: u64,
    pub note: Note,
}

/// What else the comparison assumes.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Note {
    None,
    /// Prompt and output lengths (the output assumed when the source does not state it).
    PromptOutput {
        prompt: u64,
        output: u64,
        output_assumed: bool,
    },
    /// The recomputation and sequence parallelism of the run.
    Recompute {
        recompute: Recompute,
        sequence_parallel: bool,
    },
    /// Sequences per data-parallel replica per step, and the model chunks per pipeline rank
    /// the row takes (1: plain 1F1B).
    SequencesPerReplica {
        sequences: f64,
        virtual_stages: u64,
    },
    /// A fine-tuning method whose peak memory is not compared (only its throughput).
    ThroughputOnly {
        method: String,
    },
    /// A serving run under Poisson arrivals at `rate` requests/s; the p95 or the median.
    UnderLoad {
        rate: f64,
        prompt: u64,
        output: u64,
        max_seqs: u64,
        p95: bool,
    },
    /// A serving run with `users` users in a closed loop; the p95 or the median.
    AtConcurrency {
        users: u64,
        prompt: u64,
        output: u64,
        max_seqs: u64,
        p95: bool,
    },
    /// A fine-tuning run as a framework's recipe runs it (see [`recipe`]).
    Recipe {
        method: String,
        recipe: Recipe,
    },
    /// A llama-bench run: its test, back end, flash attention (null: not recorded), `-ngl` and
    /// the compute path its kernels take (see `express::llama`).
    LlamaBench {
        test: LlamaTest,
        backend: LlamaBackend,
        flash_attention: Option<bool>,
        gpu_layers: Option<u64>,
        compute: crate::engine::precision::compute::ComputeDtype,
    },
    /// A model size as llama.cpp reports it.
    ModelSize {
        reported: SizeReport,
    },
    /// A training run as its source states it (the settings the time and memory models read).
    Stated(Box<StatedRun>),
    /// One phase of a wide expert-parallel deployment with data-parallel attention, alone at a
    /// fixed load per GPU: sequences per replica (prompts of `prompt` tokens in a prefill), the
    /// EP group, its redundant experts, its dispatch and the imbalance when the source states it.
    WideEp {
        sequences_per_replica: u64,
        prompt: Option<u64>,
        expert_parallel: u64,
        redundant_experts: u64,
        ep_comm: crate::engine::stack::EpComm,
        expert_imbalance: Option<f64>,
    },
    /// One request whose whole prompt of `prompt` tokens is restored from a CPU tier (the GPU's
    /// prefix cache off), or, `restored` false, the same prompt prefilled; `read_off_figure`:
    /// the measured value was read off the source's figure by eye.
    KvTier {
        prompt: u64,
        restored: bool,
        read_off_figure: bool,
    },
    /// A serving run under Poisson arrivals at `rate` requests/s, disaggregated (`prefill_workers`
    /// of `prefill_tensor_parallel` GPUs beside the decode pool) or aggregated (0 workers); the
    /// means.
    Disaggregation {
        rate: f64,
        prompt: u64,
        output: u64,
        prefill_workers: u64,
        prefill_tensor_parallel: u64,
    },
}

/// A training run's settings as its source states them: the framework, the layout beyond
/// tp/pp/dp, the recipe and the checkpointing, and for a memory row which allocator statistic
/// it is.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct StatedRun {
    pub framework: String,
    pub context_parallel: u64,
    pub virtual_pipeline_stages: u64,
    pub expert_parallel: u64,
    /// How the MoE layers dispatch and combine, and whether that overlaps another
    /// micro-batch's compute (shown with expert parallelism).
    pub ep_comm: crate::engine::stack::EpComm,
    pub ep_overlap: bool,
    pub zero_stage: u8,
    pub recipe: crate::engine::workload::LowPrecisionRecipe,
    pub recompute: Recompute,
    pub recompute_layers: Option<u64>,
    pub flop_convention: Option<crate::engine::workload::FlopConvention>,
    pub statistic: Option<MemoryStatistic>,
}

/// Which PyTorch allocator statistic a peak-memory row reports: `torch.cuda.max_memory_allocated`
/// (tensors alive) or `max_memory_reserved` (what the caching allocator holds, allocated plus
/// its cached free blocks: torchtitan's `Memory(GiB)`). The engine models what is allocated.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum MemoryStatistic {
    Allocated,
    Reserved,
}

/// A setting a measurement ran with that no scenario key states.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Setting {
    /// `torch.compile` fuses kernels and changes what is saved: neither the element-wise time
    /// nor the kept sets of the scenario describe it.
    TorchCompile,
    /// The GPUs ran power-capped at a peak the source does not know.
    PowerCap,
    /// The run spans nodes and the source does not state the network between them.
    NetworkNotStated,
    /// Activations of some layers offloaded to CPU memory (the scenario offloads all or none).
    ActivationOffloadLayers,
    /// The network between the nodes is stated but is none of the scenario's topologies.
    UnlistedNetwork,
    /// An attention kernel family without published training rates (FlexAttention).
    FlexAttention,
    /// KV tiers: the source gives only speed-ups over a full prefill, no times, with a fixed
    /// cost it does not explain (llm-d's file-system offloading).
    SpeedupOnly,
    /// The source does not name the GPU (or the model) it measured on.
    GpuNotStated,
    /// A tier whose restore is slower than its medium by orders of magnitude, a defect of the
    /// implementation rather than a rate (Dynamo's disk tier).
    TierDefect,
    /// Restores measured under a request rate through an external cache daemon (the tier rows
    /// compare one request at a time).
    TierUnderLoad,
    /// A serving study at high concurrency over traces or request mixes the source does not state
    /// in full, reported as changes against a baseline.
    ServingStudy,
}

/// A llama-bench test: `tgN` generates N tokens from an empty context, `ppN` processes a prompt
/// of N tokens.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "test", content = "tokens", rename_all = "snake_case")]
pub enum LlamaTest {
    Tg(u64),
    Pp(u64),
}

impl LlamaTest {
    /// `tg128`, `pp512` (a test at a depth, `pp512 @ d4096`, is not one of these).
    pub fn parse(t: &str) -> Option<LlamaTest> {
        let t = t.trim();
        let n = |rest: &str| rest.parse::<u64>().ok().filter(|n| *n > 0);
        t.strip_prefix("tg")
            .and_then(n)
            .map(LlamaTest::Tg)
            .or_else(|| t.strip_prefix("pp").and_then(n).map(LlamaTest::Pp))
    }
}

/// The llama.cpp back end of a run.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum LlamaBackend {
    Cuda,
    Metal,
    Rocm,
    Vulkan,
}

impl LlamaBackend {
    /// `CUDA`, `Metal`, `ROCm/HIP` (or `HIP`, `ROCm`), `Vulkan`; others (CPU, SYCL, OpenCL) are
    /// not compared.
    pub fn parse(b: &str) -> Option<LlamaBackend> {
        match b.trim().to_ascii_lowercase().as_str() {
            "cuda" => Some(LlamaBackend::Cuda),
            "metal" => Some(LlamaBackend::Metal),
            "rocm/hip" | "rocm" | "hip" => Some(LlamaBackend::Rocm),
            "vulkan" => Some(LlamaBackend::Vulkan),
            _ => None,
        }
    }

    /// The back end as llama-bench prints it.
    pub fn name(self) -> &'static str {
        match self {
            LlamaBackend::Cuda => "CUDA",
            LlamaBackend::Metal => "Metal",
            LlamaBackend::Rocm => "ROCm/HIP",
            LlamaBackend::Vulkan => "Vulkan",
        }
    }
}

/// Where llama.cpp reports a model's size.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum SizeReport {
    /// llama-bench's `size` column (all tensors, GiB).
    LlamaBench,
    /// The size `llama-quantize` lists beside each file type in its help text (GiB).
    QuantizeHelp,
    /// The loader's `file size` line.
    LoaderLog,
}

impl SizeReport {
    /// From the measurement's `reported_by` text (llama-bench unless it names another).
    pub fn parse(t: &str) -> SizeReport {
        if t.contains("quantize") {
            SizeReport::QuantizeHelp
        } else if t.contains("loader") {
            SizeReport::LoaderLog
        } else {
            SizeReport::LlamaBench
        }
    }
}

/// The settings a framework's published recipe uses, as the scenario expresses them.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Recipe {
    pub framework: String,
    pub optimizer: crate::engine::workload::Optimizer,
    pub optimizer_in_backward: bool,
    pub recompute: Recompute,
    pub loss_chunks: u64,
    pub zero_stage: u8,
}

/// The unit a measurement is compared in.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum RowUnit {
    MsPerBatch,
    OutputTokensPerSPerGpu,
    OutputTokensPerS,
    GibWeightsPerGpu,
    BytesPerToken,
    SPerIteration,
    ModelTflopsPerGpu,
    TokensPerSReported,
    GibPeakPerGpu,
    MsToFirstToken,
    MsPerOutputTokenUnderLoad,
    MsToFirstTokenUnderLoad,
    /// Tokens per second as llama-bench reports it.
    TokensPerS,
    /// GiB of tensors: llama.cpp's model size.
    GibModelSize,
    /// Training tokens per second per GPU (global tokens per step / (step time × GPUs)).
    TokensPerSPerGpu,
    /// Model FLOPs utilisation under the source's FLOP convention.
    Mfu,
    /// Prompt tokens per second per GPU (a prefill phase on its own).
    PromptTokensPerSPerGpu,
}

impl RowUnit {
    /// Whether the row measures a time (its roofline figure is the shortest possible time, a
    /// lower bound) rather than a rate or a size.
    pub fn is_time(self) -> bool {
        matches!(
            self,
            RowUnit::MsPerBatch
                | RowUnit::SPerIteration
                | RowUnit::MsToFirstToken
                | RowUnit::MsPerOutputTokenUnderLoad
                | RowUnit::MsToFirstTokenUnderLoad
        )
    }
}

/// Why a measurement cannot be expressed as a scenario.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(tag = "reason", rename_all = "snake_case")]
pub enum Reason {
    SpeculativeDecoding,
    /// The measured rate is past what the engine's load model sustains (its latencies unbounded).
    BeyondSustainableRate {
        sustainable: f64,
    },
    NoArchitecture,
    GpuNotInCatalog {
        gpu: String,
    },
    /// The source's GPU name fits more than one catalog GPU.
    AmbiguousGpu {
        gpu: String,
        candidates: Vec<String>,
    },
    NoBatchOrValue,
    NoWeightsGib,
    NoBatchOrSequenceLength,
    PeakTrainingMemory,
    /// The framework's recipe is not one the validation knows.
    UnknownRecipe {
        framework: String,
    },
    /// FSDP CPU offload of parameters, gradients and optimizer states.
    FsdpCpuOffload,
    UnsupportedKind {
        kind: String,
    },
    /// A llama.cpp file type the engine does not know.
    UnknownFileType {
        name: String,
    },
    /// A llama.cpp back end the comparison does not group (CPU, SYCL, OpenCL).
    UnsupportedBackend {
        backend: String,
    },
    /// A llama-bench test other than `tgN` or `ppN` (a test at a depth, `tg32 @ d4096`).
    UnknownTest {
        test: String,
    },
    /// The run used a setting the scenario cannot state.
    Unexpressed {
        setting: Setting,
    },
    /// The engine rejected the scenario (the field and what is wrong).
    Rejected {
        field: String,
        #[serde(skip)]
        kind: crate::engine::error::ErrorKind,
    },
}

/// Median absolute error of the expected values of one kind.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct KindSummary {
    pub kind: String,
    pub rows: usize,
    pub median_abs_error_pct: f64,
    pub bound_violations: usize,
}

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ValidationTable {
    pub rows: Vec<ValidationRow>,
    pub summary: Vec<KindSummary>,
    pub not_expressed: Vec<NotExpressed>,
}

/// Which number of the report a measurement is compared with.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Metric {
    /// Output tokens/s over prefill + decode of a batch; `per_gpu` divides by the GPUs.
    GenerationTokensPerS {
        per_gpu: bool,
    },
    GenerationTimeMs,
    WeightsGiB,
    KvBytesPerToken,
    TrainingTokensPerS,
    TrainingStepS,
    TrainingTflopsPerGpu,
    /// The heaviest GPU's peak; `without_paged_states`: as PyTorch's allocator statistics
    /// count it (`torch.cuda.max_memory_allocated`, what torchtune logs) under a paged
    /// optimizer, whose states they never see (bitsandbytes allocates them with
    /// `cudaMallocManaged` and wraps them as CPU tensors, `functional.get_paged`): the total
    /// less the optimizer line.
    PeakMemoryGiB {
        without_paged_states: bool,
    },
    TimeToFirstTokenMs,
    /// Time per output token (time between tokens) under a Poisson load: the load model's p50
    /// or p95.
    TpotUnderLoadMs {
        p95: bool,
    },
    /// Time to first token under load: the load model's mean (what the benchmarks print as the
    /// average) or p95 (no bound, as for TPOT).
    TtftUnderLoadMs {
        p95: bool,
    },
    /// Mean inter-token latency under load (every gap between two tokens of a sequence, as the
    /// benchmarks' "Mean ITL"); no bound, as for TPOT.
    ItlMeanUnderLoadMs,
    /// Output tokens per second of a closed loop over its whole run (the benchmarks' "output
    /// token throughput": generated tokens over the duration); `per_gpu` divides by the GPUs.
    ThroughputAtConcurrency {
        per_gpu: bool,
    },
    /// Decode tokens/s of one sequence at the average step (llama-bench `tgN`).
    DecodeTokensPerS,
    /// Prompt tokens/s of one sequence (llama-bench `ppN`).
    PrefillTokensPerS,
    /// Decode tokens/s of the whole deployment's step over its GPUs (a decode phase alone).
    DecodeTokensPerSPerGpu,
    /// Prompt tokens/s of the whole deployment's prefill over its GPUs (a prefill phase alone).
    PrefillTokensPerSPerGpu,
    /// The bytes of all tensors in GiB (`model.gguf.bytes`; the weights for 16-bit types).
    ModelSizeGiB,
    /// Training tokens per second per GPU (`training.tokens_per_s_per_gpu`).
    TrainingTokensPerGpu,
    /// Model FLOPs utilisation (`training.mfu`, the scenario's convention).
    Mfu,
    /// What PyTorch's allocator counts: the total less the stated runtime overhead (CUDA context
    /// and library workspaces are outside it).
    AllocatorPeakGiB,
    /// Time to first token of a request whose prompt is restored from the KV tiers: its bound
    /// adds to the prefill's the restored bytes at the tiers' peak read rates (no per-copy cost).
    TierRestoreTtftMs,
}

/// One scenario that expresses a measurement, with the report's number it is compared with.
struct Case {
    kind: &'static str,
    scenario: Scenario,
    metric: Metric,
    measured: f64,
    unit: RowUnit,
    note: Note,
}

impl Case {
    fn new(
        kind: &'static str,
        metric: Metric,
        measured: f64,
        unit: RowUnit,
        scenario: Scenario,
        note: Note,
    ) -> Case {
        Case { kind, scenario, metric, measured, unit, note }
    }
}

pub(crate) const GIB: f64 = 1024.0 * 1024.0 * 1024.0;

fn text(v: &Value, key: &str) -> String {
    v.get(key).map(|x| x.as_str().map_or_else(|| x.to_string(), str::to_owned)).unwrap_or_default()
}

fn num(c: &Value, keys: &[&str]) -> Option<f64> {
    keys.iter()
        .find_map(|k| c.get(*k).and_then(|v| v.as_f64().or_else(|| v.as_str().and_then(|s| s.parse().ok()))))
}

/// The report's expected value and bound for a metric, and whether higher is better.
fn metric(r: &Report, m: Metric, gpus: f64) -> (f64, Option<f64>, bool) {
    let t = &r.performance;
    match m {
        Metric::GenerationTokensPerS { per_gpu } => {
            let k = if per_gpu { gpus } else { 1.0 };
            (
                t.throughput.generation_tokens_per_s / k,
                Some(t.throughput.generation_tokens_per_s_bound / k),
                true,
            )
        }
        Metric::GenerationTimeMs => (t.time.generation_s * 1e3, Some(t.time.generation_s_bound * 1e3), false),
        Metric::WeightsGiB => (r.memory_per_gpu_bytes.weights as f64 / GIB, None, true),
        Metric::KvBytesPerToken => (r.kv_cache_bytes_per_token as f64, None, true),
        Metric::TrainingTokensPerS => {
            (t.throughput.tokens_per_s.unwrap_or(0.0), t.throughput.tokens_per_s_bound, true)
        }
        Metric::TrainingStepS => (t.time.step_s.unwrap_or(0.0), t.time.step_s_bound, false),
        Metric::PeakMemoryGiB { without_paged_states } => {
            let seen =
                if without_paged_states { r.allocator_counted_bytes } else { r.memory_per_gpu_bytes.total };
            (seen as f64 / GIB, None, true)
        }
        // No bound: a lower bound on the time between tokens under load would need the step's
        // least traffic, which depends on the batch the scheduler happens to run.
        Metric::TpotUnderLoadMs { p95 } => {
            let l = r.load.as_ref();
            let v = l.and_then(|l| if p95 { l.tpot_p95_s } else { l.tpot_p50_s });
            (v.unwrap_or(0.0) * 1e3, None, false)
        }
        Metric::TtftUnderLoadMs { p95 } => {
            let l = r.load.as_ref();
            let v = l.and_then(|l| if p95 { l.ttft_p95_s } else { l.ttft_mean_s });
            (v.unwrap_or(0.0) * 1e3, None, false)
        }
        Metric::ItlMeanUnderLoadMs => {
            let v = r.load.as_ref().and_then(|l| l.itl_mean_s);
            (v.unwrap_or(0.0) * 1e3, None, false)
        }
        Metric::ThroughputAtConcurrency { per_gpu } => {
            let k = if per_gpu { gpus } else { 1.0 };
            let l = r.load.as_ref();
            (
                l.and_then(|l| l.run_output_tokens_per_s).unwrap_or(0.0) / k,
                l.map(|l| l.throughput_bound_tokens_per_s / k),
                true,
            )
        }
        Metric::DecodeTokensPerS => {
            (t.throughput.decode_tokens_per_s, Some(t.throughput.decode_tokens_per_s_bound), true)
        }
        Metric::PrefillTokensPerS => {
            (t.throughput.prefill_tokens_per_s, Some(t.throughput.prefill_tokens_per_s_bound), true)
        }
        Metric::DecodeTokensPerSPerGpu => (
            t.throughput.decode_tokens_per_s / gpus,
            Some(t.throughput.decode_tokens_per_s_bound / gpus),
            true,
        ),
        Metric::PrefillTokensPerSPerGpu => (
            t.throughput.prefill_tokens_per_s / gpus,
            Some(t.throughput.prefill_tokens_per_s_bound / gpus),
            true,
        ),
        Metric::ModelSizeGiB => {
            let bytes = r.model.gguf.as_ref().map_or(r.memory_per_gpu_bytes.weights, |g| g.bytes);
            (bytes as f64 / GIB, None, true)
        }
        Metric::TimeToFirstTokenMs => {
            (t.time.time_to_first_token_s * 1e3, Some(t.time.prefill_s_bound * 1e3), false)
        }
        Metric::TierRestoreTtftMs => {
            let least = t.time.kv_tiers.as_ref().map_or(0.0, |k| {
                [k.cpu, k.ssd]
                    .iter()
                    .flatten()
                    .filter(|u| u.restored)
                    .map(|u| u.share * k.history_bytes / u.bytes_per_s)
                    .sum()
            });
            (t.time.time_to_first_token_s * 1e3, Some((t.time.prefill_s_bound + least) * 1e3), false)
        }
        Metric::TrainingTokensPerGpu => {
            let tr = t.training.as_ref();
            (tr.map_or(0.0, |x| x.tokens_per_s_per_gpu), tr.map(|x| x.tokens_per_s_per_gpu_bound), true)
        }
        Metric::Mfu => {
            let tr = t.training.as_ref();
            let bound = tr.map(|x| {
                if x.tokens_per_s_per_gpu > 0.0 {
                    x.mfu * x.tokens_per_s_per_gpu_bound / x.tokens_per_s_per_gpu
                } else {
                    0.0
                }
            });
            (tr.map_or(0.0, |x| x.mfu), bound, true)
        }
        Metric::AllocatorPeakGiB => {
            let m = &r.memory_per_gpu_bytes;
            (m.total.saturating_sub(m.overhead) as f64 / GIB, None, true)
        }
        Metric::TrainingTflopsPerGpu => {
            let flops = t.phases.training.as_ref().map_or(0.0, |p| p.flops) * r.layout.data_parallel as f64
                / gpus
                / 1e12;
            let per = |s: Option<f64>| s.filter(|s| *s > 0.0).map_or(0.0, |s| flops / s);
            (per(t.time.step_s), Some(per(t.time.step_s_bound)), true)
        }
    }
}

/// The facts of the scenario that expresses a measurement.
fn conditions(s: &Scenario, note: Note) -> Conditions {
    Conditions {
        model: match &s.model {
            ModelSpec::Id(id) => Some(id.clone()),
            ModelSpec::Config(_) => None,
        },
        weight_dtype: s.resolved_weight_dtype(),
        gpus: s.gpus,
        gpu: match (&s.gpu, &note) {
            // A model size has no GPU.
            (_, Note::ModelSize { .. }) => String::new(),
            (crate::engine::hardware::GpuSpec::Id(i), _) => i.clone(),
            _ => "custom".into(),
        },
        tensor_parallel: s.tensor_parallel,
        pipeline_parallel: s.pipeline_parallel,
        data_parallel: s.data_parallel(),
        batch: s.batch,
        context_tokens: s.context_tokens,
        mode: s.mode,
        micro_batches: s.resolved_micro_batches(),
        note,
    }
}

/// The median of `v` (0 for an empty list).
pub fn median(mut v: Vec<f64>) -> f64 {
    crate::engine::num::sort_stable_by(&mut v, |a, b| a.total_cmp(b).is_lt());
    crate::engine::num::median_of_sorted(&v).unwrap_or(0.0)
}

/// Builds the table from a measurements file (`{"measurements": [...]}`).
pub fn validate_measurements(file: &Value) -> ValidationTable {
    let rows_in = file.get("measurements").and_then(Value::as_array).cloned().unwrap_or_default();
    let mut rows = Vec::new();
    let mut not_expressed = Vec::new();
    for (index, row) in rows_in.iter().enumerate() {
        let skip = |reason: Reason| NotExpressed {
            index,
            kind: text(row, "kind"),
            model: text(row, "model"),
            reason,
        };
        match express(row) {
            Err(reason) => not_expressed.push(skip(reason)),
            Ok(cases) => {
                for case in cases {
                    match compare(index, row, case) {
                        Ok(r) => rows.push(r),
                        Err(reason) => not_expressed.push(skip(reason)),
                    }
                }
            }
        }
    }
    let summary = summarise(&rows);
    ValidationTable { rows, summary, not_expressed }
}

/// One case evaluated and compared with its measurement: error `(expected − measured) /
/// measured × 100` and whether the bound holds; or why it cannot be compared (the engine
/// rejects the scenario, or the measured rate is past what the load model sustains).
fn compare(index: usize, row: &Value, case: Case) -> Result<ValidationRow, Reason> {
    let report = evaluate(&case.scenario).map_err(|e| {
        let e = e.scenario_error().clone();
        Reason::Rejected { field: e.field, kind: e.kind }
    })?;
    if let (
        Metric::TpotUnderLoadMs { .. } | Metric::TtftUnderLoadMs { .. } | Metric::ItlMeanUnderLoadMs,
        Some(l),
    ) = (case.metric, report.load.as_ref())
    {
        if !l.stable {
            return Err(Reason::BeyondSustainableRate { sustainable: l.max_sustainable_rate_per_s });
        }
    }
    let (expected, bound, higher_is_better) = metric(&report, case.metric, case.scenario.gpus as f64);
    let holds = bound.map(|b| if higher_is_better { b >= case.measured } else { b <= case.measured });
    Ok(ValidationRow {
        index,
        kind: case.kind.into(),
        model: text(row, "model"),
        gpu: text(row, "gpu"),
        conditions: conditions(&case.scenario, case.note),
        unit: case.unit,
        measured: case.measured,
        expected,
        bound,
        error_pct: if case.measured != 0.0 {
            (expected - case.measured) / case.measured * 100.0
        } else {
            0.0
        },
        bound_holds: holds,
        source: text(row, "source"),
    })
}

/// Per kind (each once, sorted): its rows, the median absolute error of their expected values
/// and the rows whose bound does not hold.
fn summarise(rows: &[ValidationRow]) -> Vec<KindSummary> {
    // An insertion into a sorted list: no String sort in the wasm.
    let mut kinds: Vec<String> = Vec::new();
    for r in rows {
        if let Err(at) = kinds.binary_search(&r.kind) {
            kinds.insert(at, r.kind.clone());
        }
    }
    kinds
        .into_iter()
        .map(|k| {
            let of: Vec<&ValidationRow> = rows.iter().filter(|r| r.kind == k).collect();
            KindSummary {
                rows: of.len(),
                median_abs_error_pct: median(of.iter().map(|r| r.error_pct.abs()).collect()),
                bound_violations: of.iter().filter(|r| r.bound_holds == Some(false)).count(),
                kind: k,
            }
        })
        .collect()
}

/// The table for the embedded measurements.
pub fn validation_table() -> ValidationTable {
    let file: Value =
        serde_json::from_str(include_str!("../catalog/data/measurements.json")).unwrap_or(Value::Null);
    validate_measurements(&file)
}
