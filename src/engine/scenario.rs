//! The `Scenario`: every input of a calculation, as one serde value.
//!
//! It is what the UI edits, what the URL hash holds, and what `gpu-primer estimate FILE` reads.
//! Every key but `model` has a default (docs/cli.md lists each with its formula and source).

use super::efficiency::EfficiencyOverrides;
use super::error::{ErrorKind, ScenarioError};
use super::hardware::{GpuSpec, TopologyKind};
use super::json_read::{de, opt, Read};
use super::model::quant::Quantization;
use super::precision::compute::ComputeDtype;
use super::precision::Dtype;
use super::stack::{BenchTool, EpComm, LlamaBackend, MoeKernel, PrefillPolicy, ServingStack, WeightKernel};
use super::workload::{
    AttentionKernel, FlopConvention, LossImpl, LowPrecisionRecipe, Mode, Optimizer, OptimizerImpl, Recompute,
    SpecMethod, TrainingPrecision,
};
#[cfg(test)]
use serde::Deserialize;
use serde::Serialize;
use serde_json::Value;

/// A catalog id (`"llama-3.1-8b"`) or a pasted Hugging Face `config.json` object.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[cfg_attr(test, derive(Deserialize))]
#[serde(untagged)]
pub enum ModelSpec {
    Id(String),
    Config(Value),
}

/// The seven linear modules of a decoder layer that LoRA can target.
pub const LORA_TARGETS: [&str; 7] =
    ["q_proj", "k_proj", "v_proj", "o_proj", "gate_proj", "up_proj", "down_proj"];

// serde's defaults, for the derive the tests compare `Scenario::from_json` with.
macro_rules! default_fn {
    ($name:ident, $ty:ty, $value:expr) => {
        #[cfg(test)]
        fn $name() -> $ty {
            $value
        }
    };
}
default_fn!(default_context, u64, 4096);
default_fn!(default_one, u64, 1);
default_fn!(default_gpus_per_node, u64, 8);
default_fn!(default_group, u64, 128);
default_fn!(default_dtype_bf16, Dtype, Dtype::Bf16);
default_fn!(default_true, bool, true);
default_fn!(default_lora_rank, u64, 16);
default_fn!(default_block, u64, 16);
default_fn!(default_chunk, u64, 8192);
default_fn!(default_overhead, u64, 1 << 30);
default_fn!(default_margin, f64, 0.10);

/// The seven LoRA targets, the default of `lora_targets`.
fn default_lora_targets() -> Vec<String> {
    LORA_TARGETS.iter().map(|s| (*s).to_owned()).collect()
}

/// All inputs of one calculation.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[cfg_attr(test, derive(Deserialize))]
pub struct Scenario {
    /// Catalog id or inline Hugging Face config.
    pub model: ModelSpec,
    #[serde(default)]
    pub mode: Mode,
    /// Weight format. Default bf16 (nf4 in qlora mode).
    #[serde(default)]
    pub weight_dtype: Option<Dtype>,
    /// KV cache format. Default: the weight format when it is fp32 or fp16, else bf16
    /// (vLLM's `kv_cache_dtype="auto"` keeps the model's compute dtype).
    #[serde(default)]
    pub kv_dtype: Option<Dtype>,
    /// Activation format. Default bf16.
    #[serde(default = "default_dtype_bf16")]
    pub activation_dtype: Dtype,
    /// Weights per scale group for int4 (and int4 KV). Default 128.
    #[serde(default = "default_group")]
    pub int4_group_size: u64,
    /// Tokens per sequence (prompt + generated; training sequence length). Default 4096.
    #[serde(default = "default_context")]
    pub context_tokens: u64,
    /// Concurrent sequences (inference) or micro-batch per data-parallel replica (training).
    #[serde(default = "default_one")]
    pub batch: u64,
    /// GPU catalog id, or an inline custom GPU object. Default h100-sxm.
    #[serde(default)]
    pub gpu: GpuSpec,
    /// Overrides the GPU's memory in bytes (a GPU not in the catalog, or MIG slice).
    #[serde(default)]
    pub gpu_memory_bytes: Option<u64>,
    #[serde(default = "default_one")]
    pub gpus: u64,
    #[serde(default = "default_one")]
    pub tensor_parallel: u64,
    #[serde(default = "default_one")]
    pub pipeline_parallel: u64,
    /// Data-parallel replicas. Default gpus / (tp × pp × cp); when given, tp × pp × cp × dp must
    /// equal gpus.
    #[serde(default)]
    pub data_parallel: Option<u64>,
    /// GPUs the routed experts of an MoE model are spread over (all-to-all per MoE layer). Default 1.
    #[serde(default = "default_one")]
    pub expert_parallel: u64,
    /// `nvswitch` | `nvswitch_efa` | `pcie` | `nvlink_bridge` (aliases `multi_node_ib`,
    /// `multi_node_efa`).
    /// Default: `pcie` for PCIe cards, `nvswitch` for SXM/OAM GPUs with NVLink.
    #[serde(default)]
    pub topology: Option<TopologyKind>,
    /// GPUs per node (beyond it, collectives cross the network). Default 8.
    #[serde(default = "default_gpus_per_node")]
    pub gpus_per_node: u64,
    /// Overrides of the efficiency factors behind the expected times (fractions of peak, latencies).
    #[serde(default)]
    pub efficiency: EfficiencyOverrides,
    /// USD per GPU-hour. Default: cheapest dated on-demand price in the instance catalog, if any.
    #[serde(default)]
    pub price_per_gpu_hour: Option<f64>,
    /// Prompt tokens per sequence. Default context_tokens − output_tokens.
    #[serde(default)]
    pub prompt_tokens: Option<u64>,
    /// Generated tokens per sequence. Default context_tokens − prompt_tokens when the prompt is
    /// given, else min(256, context_tokens / 2).
    #[serde(default)]
    pub output_tokens: Option<u64>,
    /// Tensor Core path of the matmuls. Default: fp8 weights → fp8; fp32 → tf32; fp16 → fp16;
    /// otherwise bf16 (weight-only int8/int4/nf4 dequantise to 16 bits: fewer bytes, same path).
    #[serde(default)]
    pub compute_dtype: Option<ComputeDtype>,
    /// Micro-batches per training step per replica (gradient accumulation; they fill the
    /// pipeline). Default 1, or 4 × pipeline_parallel when pipeline_parallel > 1.
    #[serde(default)]
    pub micro_batches: Option<u64>,
    /// Megatron sequence parallelism (splits norm/dropout activations over the TP group).
    #[serde(default)]
    pub sequence_parallel: bool,
    #[serde(default)]
    pub optimizer: Optimizer,
    /// Formats of trained weights, gradients and optimizer states. Default mixed.
    #[serde(default)]
    pub training_precision: TrainingPrecision,
    /// The optimizer step runs inside the backward pass, each gradient freed once applied
    /// (PyTorch's optimizer-in-backward; torchtune `optimizer_in_bwd`): no full gradient buffer.
    #[serde(default)]
    pub optimizer_in_backward: bool,
    /// Saved activations kept in host memory except the layers in flight (torchtune
    /// `enable_activation_offloading`; PyTorch `save_on_cpu`). Training only.
    #[serde(default)]
    pub activation_offload: bool,
    /// Chunks of the cross-entropy loss: 0 or 1 = the logits upcast to fp32 at full size (as
    /// Hugging Face transformers' loss does); n > 1 = the logits stay in the compute dtype and
    /// one chunk at a time is upcast (torchtune `CEWithChunkedOutputLoss`, 8 chunks). Training only.
    #[serde(default)]
    pub loss_chunks: u64,
    /// ZeRO stage over the data-parallel group: 0 none, 1 optimizer, 2 + gradients,
    /// 3 + weights (= FSDP full shard).
    #[serde(default)]
    pub zero_stage: u8,
    #[serde(default)]
    pub recompute: Recompute,
    /// FlashAttention: the s×s score matrix is never stored.
    #[serde(default = "default_true")]
    pub flash_attention: bool,
    #[serde(default = "default_lora_rank")]
    pub lora_rank: u64,
    /// Modules given adapters: any of q_proj k_proj v_proj o_proj gate_proj up_proj down_proj,
    /// or "all-linear". Default all seven.
    #[serde(default = "default_lora_targets")]
    pub lora_targets: Vec<String>,
    /// Paged KV cache block size in tokens (vLLM default 16).
    #[serde(default = "default_block")]
    pub kv_block_tokens: u64,
    /// Tokens processed per prefill step (vLLM `max_num_batched_tokens`, default 8192).
    #[serde(default = "default_chunk")]
    pub prefill_chunk_tokens: u64,
    /// CUDA context, NCCL and cuBLAS workspaces, allocator reserve. Default 1 GiB.
    #[serde(default = "default_overhead")]
    pub runtime_overhead_bytes: u64,
    /// Fraction of GPU memory kept free. Default 0.10 (like vLLM gpu_memory_utilization 0.9).
    #[serde(default = "default_margin")]
    pub safety_margin: f64,
    /// Requests per second arriving (Poisson) for the serving-under-load model; absent or 0:
    /// no load model (the report's `load` is null).
    #[serde(default)]
    pub arrival_rate_per_s: Option<f64>,
    /// Users in a closed loop for the serving-under-load model (each sends its next request when
    /// the last one completes, as serving benchmarks run a fixed concurrency); absent or 0: none.
    /// Set, it is the load model (an arrival rate is then not used); `batch` stays the
    /// scheduler's most concurrent sequences.
    #[serde(default)]
    pub concurrent_users: Option<u64>,
    /// llama.cpp's `-ngl`: how many of the last decoder layers run on the GPU (the output layer
    /// too once it exceeds the layer count, as `-ngl 99` does); the first layers stay in host
    /// memory and run on the CPU. Absent: every layer on the GPU.
    #[serde(default)]
    pub gpu_layers: Option<u64>,
    /// llama.cpp's `--n-cpu-moe`: the routed experts of the first N layers stay in host memory
    /// (and run on the CPU) while the rest of those layers follow `gpu_layers`. Default 0.
    #[serde(default)]
    pub n_cpu_moe: u64,
    /// The host's memory (system RAM) in bytes, which what stays off the GPU must fit. Absent:
    /// not checked.
    #[serde(default)]
    pub host_memory_bytes: Option<u64>,
    /// Memory the operating system and the reader's other programs keep, in bytes: what stays
    /// off the GPU must fit the host's memory less this (a unified-memory device: its memory
    /// less this and less the GPU's part). Default 0: the whole memory is the model's.
    #[serde(default)]
    pub host_reserve_bytes: u64,
    /// The host's memory bandwidth in bytes/s, at which the CPU reads the layers kept in host
    /// memory. Default: dual-channel DDR5-5600, 2 × 8 B × 5600 MT/s = 89.6 GB/s (a unified-memory
    /// device: the share of its own its CPU cores reach, `perf::offload::UNIFIED_CPU_SHARE`).
    #[serde(default)]
    pub host_memory_bandwidth_bytes_per_s: Option<f64>,
    /// Redundant copies of hot experts spread over the expert-parallel group (DeepSeek's EPLB):
    /// each GPU holds `ceil((experts + redundant) / expert_parallel)`. Default 0.
    #[serde(default)]
    pub redundant_experts: u64,
    /// The serving engine and version (`vllm_v1`, `vllm_v0_5`, `sglang`, `trtllm`): it sets the
    /// MoE kernel family, the prefill policy and the CPU share of a step. Default `vllm_v1`.
    #[serde(default)]
    pub serving_stack: ServingStack,
    /// The routed experts' kernel family (`triton_fused`, `deepgemm`, `cutlass_grouped`).
    /// Default: the serving stack's.
    #[serde(default)]
    pub moe_kernel: Option<MoeKernel>,
    /// Dispatch and combine with expert parallelism (`nccl`, `deepep_normal`,
    /// `deepep_low_latency`). Default `nccl`.
    #[serde(default)]
    pub ep_comm: Option<EpComm>,
    /// A serving run's tensor-parallel all-reduces on the stack's own kernels where they apply
    /// (vLLM's `CustomAllreduce`, which SGLang and TensorRT-LLM run too: 2, 4, 6 or 8 GPUs joined
    /// by NVLink in one node, below 8 MiB; `perf::custom_all_reduce`); `false`: NCCL for every
    /// all-reduce (`--disable-custom-all-reduce`).
    /// Default true.
    #[serde(default = "default_true")]
    pub custom_all_reduce: bool,
    /// How the scheduler mixes prompts with running sequences (`mixed`, `prefill_first`).
    /// Default: the serving stack's.
    #[serde(default)]
    pub prefill_policy: Option<PrefillPolicy>,
    /// The slowest expert-parallel rank's load over the mean (1 to 8). Default: the larger of
    /// the statistical imbalance and the measured routing skew (1.2, or 1.05 with redundant
    /// experts).
    #[serde(default)]
    pub expert_imbalance: Option<f64>,
    /// The weight-only kernel of quantised decode (`marlin`, `machete`, `exllamav2`, `awq_gemv`,
    /// `bnb_nf4`, `llama_cpp_mmvq`). Default: the engine's MARLIN-derived
    /// `efficiency.quantized_weight_bandwidth`.
    #[serde(default)]
    pub weight_kernel: Option<WeightKernel>,
    /// llama.cpp's back end for a GGUF model (`cuda`, `metal`, `rocm`, `rocm_rocblas`,
    /// `vulkan_coopmat`, `vulkan`). Default by the GPU's vendor: CUDA, Metal, ROCm.
    #[serde(default)]
    pub llama_backend: Option<LlamaBackend>,
    /// Requests a closed loop sends in all (the benchmarks' `--num-prompts`). Default 10 × users.
    #[serde(default)]
    pub benchmark_requests: Option<u64>,
    /// The shortest request's share of `prompt_tokens` and `output_tokens` in a load run: each
    /// request's lengths drawn uniformly from `[floor(r·L), L]`, as the serving benchmarks' random
    /// dataset with `--random-range-ratio r` (`sglang.bench_serving`, InferenceX). Default 1:
    /// every request exactly the stated lengths.
    #[serde(default)]
    pub length_min_ratio: Option<f64>,
    /// The client measuring a closed loop (`vllm_bench`: every request from a start together;
    /// `genai_perf`: the steady state). Default `vllm_bench`.
    #[serde(default)]
    pub bench_tool: BenchTool,
    /// Context parallelism (training): each sequence split over this many GPUs, which exchange
    /// keys and values for attention (Megatron `--context-parallel-size`, torchtitan `cp`).
    /// GPUs = tensor × pipeline × context × data parallel. Default 1.
    #[serde(default = "default_one")]
    pub context_parallel: u64,
    /// Model chunks per pipeline stage of an interleaved 1F1B schedule (Megatron
    /// `--num-layers-per-virtual-pipeline-stage`; Narayanan et al. 2021 §2.2.2): the bubble
    /// shrinks by this factor; micro-batches must be a multiple of the stages. Default 1.
    #[serde(default = "default_one")]
    pub virtual_pipeline_stages: u64,
    /// Layers of each pipeline stage the recompute policy applies to; the others keep every
    /// activation (Megatron `--recompute-method block --recompute-num-layers`). Absent: all.
    #[serde(default)]
    pub recompute_layers: Option<u64>,
    /// The linear layers' low-precision recipe in training (`fp8_delayed`, `fp8_current`,
    /// `fp8_blockwise`, `mxfp8`, `nvfp4`). Default `none`, or `fp8_delayed` when a training run's
    /// compute dtype is fp8.
    #[serde(default)]
    pub low_precision_recipe: LowPrecisionRecipe,
    /// The model holds only quantised copies of its linear weights (TE `quantized_model_init`,
    /// Megatron `--fp8-param-gather`): no 16-bit weights beside the cache, 1-byte all-gathers.
    #[serde(default)]
    pub fp8_primary_weights: bool,
    /// The attention kernel family of a training step. Default: `fa2` on Ampere and older,
    /// `cudnn` on Hopper and Blackwell.
    #[serde(default)]
    pub attention_kernel: Option<AttentionKernel>,
    /// How the training loss is computed (`upcast`, `vocab_parallel`, `fused`, `fused_linear`).
    #[serde(default)]
    pub loss_impl: LossImpl,
    /// How the optimizer step is launched (`foreach`, `fused`).
    #[serde(default)]
    pub optimizer_impl: OptimizerImpl,
    /// Tensor-parallel collectives overlapped with the adjacent GEMMs (Megatron
    /// `--tp-comm-overlap`, torchtitan async TP). Default false: exposed.
    #[serde(default)]
    pub tp_comm_overlap: bool,
    /// Training: each MoE layer's dispatch and combine run beside another micro-batch's compute
    /// (Megatron `--overlap-moe-expert-parallel-comm`, Megatron-Bridge `moe_a2a_overlap`).
    /// Default false: exposed.
    #[serde(default)]
    pub ep_comm_overlap: bool,
    /// Memory the allocator holds beyond what is allocated (PyTorch's reserved minus allocated),
    /// added as its own line. Default 0.
    #[serde(default)]
    pub allocator_reserve_bytes: u64,
    /// The FLOP convention of the reported MFU. Default `megatron_causal`.
    #[serde(default)]
    pub flop_convention: FlopConvention,
    /// Tokens at the start of every prompt that every request shares (a system prompt), cached
    /// once and stored once per replica (`memory::prefix`). Default 0; at most the prompt.
    #[serde(default)]
    pub prefix_shared_tokens: u64,
    /// Share of each prompt's tokens found in the prefix cache, in [0, 1] (a measured
    /// `vllm:prefix_cache_hits / queries`). Absent: the session's (`session_turns`), else 0.
    #[serde(default)]
    pub prefix_hit_rate: Option<f64>,
    /// Turns of a multi-turn session (each turn resends the conversation so far); 0: none.
    /// The hit rate follows from the turns, `session_turn_tokens` and
    /// `session_turn_output_tokens` (`memory::prefix::session_hit_rate`).
    #[serde(default)]
    pub session_turns: u64,
    /// Tokens the user appends each turn.
    #[serde(default)]
    pub session_turn_tokens: u64,
    /// Tokens generated each turn. Default: the scenario's output tokens.
    #[serde(default)]
    pub session_turn_output_tokens: Option<u64>,
    /// Open sessions per replica whose histories are kept for reuse (the working set of the
    /// prefix cache, `perf::kv_tiers`); 0: not given, every hit found on the GPU.
    #[serde(default)]
    pub prefix_open_sessions: u64,
    /// GPU memory that keeps finished sequences' prefixes for reuse, bytes. Default: what the
    /// KV pool has beyond the running sequences (vLLM's and SGLang's caches use it all); 0: GPU
    /// prefix caching off (vLLM `--no-enable-prefix-caching` with a CPU tier).
    #[serde(default)]
    pub kv_gpu_cache_bytes: Option<u64>,
    /// Host memory per GPU given to a CPU tier of the KV cache (vLLM's KV offloading, LMCache,
    /// Dynamo's G2); 0: none.
    #[serde(default)]
    pub kv_cpu_tier_bytes: u64,
    /// The CPU tier's read rate into the GPU, bytes/s. Default: the GPU's PCIe link, one way.
    #[serde(default)]
    pub kv_cpu_tier_bytes_per_s: Option<f64>,
    /// SSD per GPU given to a disk tier of the KV cache (LMCache's local disk, Dynamo's G3); 0:
    /// none.
    #[serde(default)]
    pub kv_ssd_tier_bytes: u64,
    /// The SSD tier's read rate per GPU, bytes/s. Default: one PCIe 4.0 NVMe drive, 7 GB/s.
    #[serde(default)]
    pub kv_ssd_tier_bytes_per_s: Option<f64>,
    /// Speculative decoding: how tokens are drafted (`perf::speculative`); absent: none.
    #[serde(default)]
    pub speculative_method: Option<SpecMethod>,
    /// Tokens drafted per target step, γ (vLLM `num_speculative_tokens`). Default: the method's
    /// (`perf::speculative::method_default`).
    #[serde(default)]
    pub speculative_draft_tokens: Option<u64>,
    /// Probability α that a drafted token is accepted, i.i.d. per position, in (0, 1).
    #[serde(default)]
    pub speculative_acceptance_rate: Option<f64>,
    /// Acceptance per draft position, cumulative (position k: the share of steps whose first k
    /// drafts were all accepted, as vLLM's `acceptance rate at token k` counts it), non-increasing,
    /// each in (0, 1), one per draft token.
    #[serde(default)]
    pub speculative_acceptance: Option<Vec<f64>>,
    /// Mean tokens each target step emits, E (vLLM's and SGLang's `mean acceptance length`), in
    /// [1, γ + 1].
    #[serde(default)]
    pub speculative_acceptance_length: Option<f64>,
    /// The draft model (`speculative_method: draft_model`): a catalog id or a config.json.
    #[serde(default)]
    pub speculative_draft_model: Option<ModelSpec>,
    /// Disaggregated serving: prefill workers beside the decode replicas the layout describes
    /// (`gpus`, `tensor_parallel`, `data_parallel` are the decode pool); 0, the default: one
    /// aggregated pool (`perf::load::disagg`).
    #[serde(default)]
    pub prefill_workers: u64,
    /// Tensor-parallel GPUs of each prefill worker. Default: `tensor_parallel`.
    #[serde(default)]
    pub prefill_tensor_parallel: Option<u64>,
    /// The link each prompt's KV cache crosses from a prefill to a decode worker. Default: NVLink
    /// when both pools fit in one node of an NVLink topology, else the topology's network.
    #[serde(default)]
    pub kv_transfer_link: Option<crate::engine::links::KvLink>,
}

/// Dual-channel DDR5-5600: 2 channels × 64 bits × 5600 MT/s = 89.6 GB/s (JEDEC DDR5-5600 is
/// PC5-44800: 44.8 GB/s per 64-bit channel).
pub const DEFAULT_HOST_BANDWIDTH: f64 = 89.6e9;

impl ModelSpec {
    /// A string is a catalog id; any other JSON value is taken as a config (and checked when
    /// the model is resolved), as serde's untagged reading did.
    pub fn from_json(v: &Value) -> ModelSpec {
        match v {
            Value::String(id) => ModelSpec::Id(id.clone()),
            other => ModelSpec::Config(other.clone()),
        }
    }
}

impl Scenario {
    /// A scenario for `model` with every default.
    pub fn new(model: ModelSpec) -> Scenario {
        defaults(model)
    }

    /// Reads a scenario from JSON, naming the first field whose value has the wrong type.
    /// Every key but `model` has a default; keys that are not fields are ignored.
    pub fn from_json(v: &Value) -> Result<Scenario, ScenarioError> {
        let Value::Object(obj) = v else {
            return Err(ScenarioError::new("scenario", ErrorKind::NotAnObject));
        };
        let Some(model) = obj.get("model") else {
            return Err(ScenarioError::new("model", ErrorKind::ModelRequired));
        };
        let mut s = defaults(ModelSpec::from_json(model));
        for (key, value) in obj {
            s.set_json(key, value).map_err(|kind| ScenarioError::new(key.clone(), kind))?;
        }
        Ok(s)
    }

    /// Sets the field `key` from its JSON value (a key that is no field changes nothing).
    fn set_json(&mut self, key: &str, v: &Value) -> Read<()> {
        match key {
            "model" => self.model = ModelSpec::from_json(v),
            "mode" => self.mode = de(v)?,
            "weight_dtype" => self.weight_dtype = opt(v, de)?,
            "kv_dtype" => self.kv_dtype = opt(v, de)?,
            "activation_dtype" => self.activation_dtype = de(v)?,
            "int4_group_size" => self.int4_group_size = de(v)?,
            "context_tokens" => self.context_tokens = de(v)?,
            "batch" => self.batch = de(v)?,
            "gpu" => self.gpu = GpuSpec::from_json(v)?,
            "gpu_memory_bytes" => self.gpu_memory_bytes = opt(v, de)?,
            "gpus" => self.gpus = de(v)?,
            "tensor_parallel" => self.tensor_parallel = de(v)?,
            "pipeline_parallel" => self.pipeline_parallel = de(v)?,
            "data_parallel" => self.data_parallel = opt(v, de)?,
            "expert_parallel" => self.expert_parallel = de(v)?,
            "topology" => self.topology = opt(v, de)?,
            "gpus_per_node" => self.gpus_per_node = de(v)?,
            "efficiency" => self.efficiency = EfficiencyOverrides::from_json(v)?,
            "price_per_gpu_hour" => self.price_per_gpu_hour = opt(v, de)?,
            "prompt_tokens" => self.prompt_tokens = opt(v, de)?,
            "output_tokens" => self.output_tokens = opt(v, de)?,
            "compute_dtype" => self.compute_dtype = opt(v, de)?,
            "micro_batches" => self.micro_batches = opt(v, de)?,
            "sequence_parallel" => self.sequence_parallel = de(v)?,
            "optimizer" => self.optimizer = de(v)?,
            "training_precision" => self.training_precision = de(v)?,
            "optimizer_in_backward" => self.optimizer_in_backward = de(v)?,
            "zero_stage" => self.zero_stage = de(v)?,
            "activation_offload" => self.activation_offload = de(v)?,
            "loss_chunks" => self.loss_chunks = de(v)?,
            "recompute" => self.recompute = de(v)?,
            "flash_attention" => self.flash_attention = de(v)?,
            "lora_rank" => self.lora_rank = de(v)?,
            "lora_targets" => self.lora_targets = de(v)?,
            "kv_block_tokens" => self.kv_block_tokens = de(v)?,
            "prefill_chunk_tokens" => self.prefill_chunk_tokens = de(v)?,
            "runtime_overhead_bytes" => self.runtime_overhead_bytes = de(v)?,
            "safety_margin" => self.safety_margin = de(v)?,
            "arrival_rate_per_s" => self.arrival_rate_per_s = opt(v, de)?,
            "concurrent_users" => self.concurrent_users = opt(v, de)?,
            "gpu_layers" => self.gpu_layers = opt(v, de)?,
            "n_cpu_moe" => self.n_cpu_moe = de(v)?,
            "host_memory_bytes" => self.host_memory_bytes = opt(v, de)?,
            "host_reserve_bytes" => self.host_reserve_bytes = de(v)?,
            "host_memory_bandwidth_bytes_per_s" => self.host_memory_bandwidth_bytes_per_s = opt(v, de)?,
            "redundant_experts" => self.redundant_experts = de(v)?,
            "serving_stack" => self.serving_stack = de(v)?,
            "moe_kernel" => self.moe_kernel = opt(v, de)?,
            "ep_comm" => self.ep_comm = opt(v, de)?,
            "custom_all_reduce" => self.custom_all_reduce = de(v)?,
            "prefill_policy" => self.prefill_policy = opt(v, de)?,
            "expert_imbalance" => self.expert_imbalance = opt(v, de)?,
            "weight_kernel" => self.weight_kernel = opt(v, de)?,
            "llama_backend" => self.llama_backend = opt(v, de)?,
            "benchmark_requests" => self.benchmark_requests = opt(v, de)?,
            "length_min_ratio" => self.length_min_ratio = opt(v, de)?,
            "bench_tool" => self.bench_tool = de(v)?,
            "context_parallel" => self.context_parallel = de(v)?,
            "virtual_pipeline_stages" => self.virtual_pipeline_stages = de(v)?,
            "recompute_layers" => self.recompute_layers = opt(v, de)?,
            "low_precision_recipe" => self.low_precision_recipe = de(v)?,
            "fp8_primary_weights" => self.fp8_primary_weights = de(v)?,
            "attention_kernel" => self.attention_kernel = opt(v, de)?,
            "loss_impl" => self.loss_impl = de(v)?,
            "optimizer_impl" => self.optimizer_impl = de(v)?,
            "tp_comm_overlap" => self.tp_comm_overlap = de(v)?,
            "ep_comm_overlap" => self.ep_comm_overlap = de(v)?,
            "allocator_reserve_bytes" => self.allocator_reserve_bytes = de(v)?,
            "flop_convention" => self.flop_convention = de(v)?,
            "prefix_shared_tokens" => self.prefix_shared_tokens = de(v)?,
            "prefix_hit_rate" => self.prefix_hit_rate = opt(v, de)?,
            "session_turns" => self.session_turns = de(v)?,
            "session_turn_tokens" => self.session_turn_tokens = de(v)?,
            "session_turn_output_tokens" => self.session_turn_output_tokens = opt(v, de)?,
            "prefix_open_sessions" => self.prefix_open_sessions = de(v)?,
            "kv_gpu_cache_bytes" => self.kv_gpu_cache_bytes = opt(v, de)?,
            "kv_cpu_tier_bytes" => self.kv_cpu_tier_bytes = de(v)?,
            "kv_cpu_tier_bytes_per_s" => self.kv_cpu_tier_bytes_per_s = opt(v, de)?,
            "kv_ssd_tier_bytes" => self.kv_ssd_tier_bytes = de(v)?,
            "kv_ssd_tier_bytes_per_s" => self.kv_ssd_tier_bytes_per_s = opt(v, de)?,
            "speculative_method" => self.speculative_method = opt(v, de)?,
            "speculative_draft_tokens" => self.speculative_draft_tokens = opt(v, de)?,
            "speculative_acceptance_rate" => self.speculative_acceptance_rate = opt(v, de)?,
            "speculative_acceptance" => self.speculative_acceptance = opt(v, de)?,
            "speculative_acceptance_length" => self.speculative_acceptance_length = opt(v, de)?,
            "prefill_workers" => self.prefill_workers = de(v)?,
            "prefill_tensor_parallel" => self.prefill_tensor_parallel = opt(v, de)?,
            "kv_transfer_link" => self.kv_transfer_link = opt(v, de)?,
            "speculative_draft_model" => {
                self.speculative_draft_model =
                    opt(v, |v| Ok(ModelSpec::from_json(&super::json_read::whole_numbers_as_integers(v))))?
            }
            _ => {}
        }
        Ok(())
    }

    /// Checks every range that does not depend on the model, in named steps (the first
    /// failing check names its field).
    pub fn validate(&self) -> Result<(), ScenarioError> {
        self.validate_model_id()?;
        self.validate_counts()?;
        self.validate_lengths()?;
        self.validate_price_and_hardware()?;
        self.validate_layout()?;
        self.validate_training()?;
        self.validate_llama_cpp()?;
        if self.mode == Mode::Inference {
            crate::engine::speculation::validate(&self.spec_keys())?;
        }
        Ok(())
    }

    /// The speculative-decoding keys as `speculation` reads them (no method outside inference).
    pub fn spec_keys(&self) -> crate::engine::speculation::SpecKeys<'_> {
        crate::engine::speculation::SpecKeys {
            method: self.speculative_method.filter(|_| self.mode == Mode::Inference),
            draft_tokens: self.speculative_draft_tokens,
            acceptance_rate: self.speculative_acceptance_rate,
            acceptance: self.speculative_acceptance.as_deref(),
            acceptance_length: self.speculative_acceptance_length,
            draft_model: self.speculative_draft_model.is_some(),
        }
    }

    /// The scenario's speculative decoding, resolved (`speculation::resolve`).
    pub fn speculation(&self) -> Option<crate::engine::speculation::Speculation> {
        crate::engine::speculation::resolve(&self.spec_keys())
    }

    /// llama.cpp's rules: its KV cache takes a few formats, a block-quantised V cache needs flash
    /// attention (`llama_init_from_model`, src/llama-context.cpp: "V cache quantization requires
    /// flash_attn"), and layers in host memory need the model on one GPU.
    fn validate_llama_cpp(&self) -> Result<(), ScenarioError> {
        if let Some(Dtype::Gguf(t)) = self.kv_dtype {
            let main = t.main_type();
            let accepted = crate::engine::precision::ggml_type::KV_CACHE_TYPES.contains(&main)
                && t.key().eq_ignore_ascii_case(main.name());
            if !accepted {
                return Err(ScenarioError::new("kv_dtype", ErrorKind::KvCacheFormat { got: Dtype::Gguf(t) }));
            }
            if !self.flash_attention {
                return Err(ScenarioError::new(
                    "flash_attention",
                    ErrorKind::QuantizedCacheNeedsFlashAttention { got: Dtype::Gguf(t) },
                ));
            }
        }
        let offloaded = self.gpu_layers.is_some() || self.n_cpu_moe > 0;
        if offloaded && (self.tensor_parallel > 1 || self.pipeline_parallel > 1) {
            return Err(ScenarioError::new(
                "gpu_layers",
                ErrorKind::OffloadNeedsOneGpu { tp: self.tensor_parallel, pp: self.pipeline_parallel },
            ));
        }
        Ok(())
    }

    fn validate_model_id(&self) -> Result<(), ScenarioError> {
        match &self.model {
            ModelSpec::Id(id) if id.trim().is_empty() => Err(ScenarioError::new("model", ErrorKind::Empty)),
            _ => Ok(()),
        }
    }

    /// Counts and sizes within their ranges.
    fn validate_counts(&self) -> Result<(), ScenarioError> {
        range("context_tokens", self.context_tokens, 1, 10_000_000)?;
        range("batch", self.batch, 1, 1_000_000)?;
        range("gpus", self.gpus, 1, 1_000_000)?;
        range("tensor_parallel", self.tensor_parallel, 1, 1024)?;
        range("pipeline_parallel", self.pipeline_parallel, 1, 1024)?;
        range("int4_group_size", self.int4_group_size, 1, 1 << 20)?;
        range("zero_stage", u64::from(self.zero_stage), 0, 3)?;
        range("loss_chunks", self.loss_chunks, 0, 1_000_000)?;
        range("lora_rank", self.lora_rank, 1, 65_536)?;
        range("kv_block_tokens", self.kv_block_tokens, 1, 65_536)?;
        range("prefill_chunk_tokens", self.prefill_chunk_tokens, 1, 10_000_000)?;
        range("runtime_overhead_bytes", self.runtime_overhead_bytes, 0, 1 << 40)?;
        if let Some(m) = self.gpu_memory_bytes {
            range("gpu_memory_bytes", m, 1, 1 << 50)?;
        }
        range("expert_parallel", self.expert_parallel, 1, 1024)?;
        range("gpus_per_node", self.gpus_per_node, 1, 1024)?;
        if let Some(m) = self.micro_batches {
            range("micro_batches", m, 1, 1_000_000)?;
        }
        if let Some(u) = self.concurrent_users {
            range("concurrent_users", u, 0, 100_000)?;
        }
        if let Some(n) = self.gpu_layers {
            range("gpu_layers", n, 0, 100_000)?;
        }
        range("n_cpu_moe", self.n_cpu_moe, 0, 100_000)?;
        range("redundant_experts", self.redundant_experts, 0, 4096)?;
        if let Some(i) = self.expert_imbalance {
            if !(i.is_finite() && (1.0..=8.0).contains(&i)) {
                return Err(ScenarioError::new(
                    "expert_imbalance",
                    ErrorKind::OutOfRange { min: 1.0, max: 8.0, got: i },
                ));
            }
        }
        if let Some(n) = self.benchmark_requests {
            let least = self.concurrent_users.unwrap_or(0).max(1);
            range("benchmark_requests", n, least, 1_000_000)?;
        }
        if let Some(r) = self.length_min_ratio {
            if !(r.is_finite() && (0.0..=1.0).contains(&r)) {
                return Err(ScenarioError::new(
                    "length_min_ratio",
                    ErrorKind::OutOfRange { min: 0.0, max: 1.0, got: r },
                ));
            }
        }
        range("context_parallel", self.context_parallel, 1, 1024)?;
        range("virtual_pipeline_stages", self.virtual_pipeline_stages, 1, 1024)?;
        if let Some(n) = self.recompute_layers {
            range("recompute_layers", n, 1, 100_000)?;
        }
        range("allocator_reserve_bytes", self.allocator_reserve_bytes, 0, 1 << 40)?;
        if let Some(m) = self.host_memory_bytes {
            range("host_memory_bytes", m, 1, 1 << 50)?;
        }
        range("host_reserve_bytes", self.host_reserve_bytes, 0, 1 << 50)?;
        self.validate_disaggregation()
    }

    /// Disaggregated serving: at most 4,096 prefill workers of 1-1,024 GPUs each, in serving
    /// only.
    fn validate_disaggregation(&self) -> Result<(), ScenarioError> {
        range("prefill_workers", self.prefill_workers, 0, 4096)?;
        if let Some(tp) = self.prefill_tensor_parallel {
            range("prefill_tensor_parallel", tp, 1, 1024)?;
        }
        if self.prefill_workers > 0 && self.mode != Mode::Inference {
            return Err(ScenarioError::new("prefill_workers", ErrorKind::NeedsInference));
        }
        Ok(())
    }

    /// Prompt and output tokens fit in the context.
    fn validate_lengths(&self) -> Result<(), ScenarioError> {
        if let Some(p) = self.prompt_tokens {
            range("prompt_tokens", p, 0, self.context_tokens)?;
        }
        if let Some(o) = self.output_tokens {
            range("output_tokens", o, 0, self.context_tokens)?;
        }
        if let (Some(p), Some(o)) = (self.prompt_tokens, self.output_tokens) {
            if p + o > self.context_tokens {
                return Err(ScenarioError::new(
                    "output_tokens",
                    ErrorKind::PromptPlusOutput { context: self.context_tokens, prompt: p, output: o },
                ));
            }
        }
        self.validate_prefix()
    }

    /// Prefix reuse: a shared prefix within the prompt, a hit rate in [0, 1], a session of at
    /// least one turn that appends at least one token.
    fn validate_prefix(&self) -> Result<(), ScenarioError> {
        let (prompt, _) = self.resolved_prompt_output();
        range("prefix_shared_tokens", self.prefix_shared_tokens, 0, prompt)?;
        if let Some(h) = self.prefix_hit_rate {
            fraction("prefix_hit_rate", h, 1.0)?;
        }
        let session = self.session_turns > 0
            || self.session_turn_tokens > 0
            || self.session_turn_output_tokens.is_some();
        if session {
            range("session_turns", self.session_turns, 1, 100_000)?;
            range("session_turn_tokens", self.session_turn_tokens, 1, self.context_tokens.max(1))?;
            if let Some(o) = self.session_turn_output_tokens {
                range("session_turn_output_tokens", o, 0, self.context_tokens)?;
            }
        }
        self.validate_kv_tiers()
    }

    /// KV tiers: sessions, capacities and read rates within physical ranges.
    fn validate_kv_tiers(&self) -> Result<(), ScenarioError> {
        range("prefix_open_sessions", self.prefix_open_sessions, 0, 100_000_000)?;
        range("kv_gpu_cache_bytes", self.kv_gpu_cache_bytes.unwrap_or(0), 0, 1 << 50)?;
        range("kv_cpu_tier_bytes", self.kv_cpu_tier_bytes, 0, 1 << 50)?;
        range("kv_ssd_tier_bytes", self.kv_ssd_tier_bytes, 0, 1 << 55)?;
        for (field, rate) in [
            ("kv_cpu_tier_bytes_per_s", self.kv_cpu_tier_bytes_per_s),
            ("kv_ssd_tier_bytes_per_s", self.kv_ssd_tier_bytes_per_s),
        ] {
            if let Some(r) = rate {
                fraction(field, r, 1e13)?;
                if r < 1e6 {
                    return Err(ScenarioError::new(
                        field,
                        ErrorKind::OutOfRange { min: 1e6, max: 1e13, got: r },
                    ));
                }
            }
        }
        Ok(())
    }

    /// Price, efficiency factors, an inline GPU and the safety margin.
    fn validate_price_and_hardware(&self) -> Result<(), ScenarioError> {
        if let Some(p) = self.price_per_gpu_hour {
            fraction("price_per_gpu_hour", p, 1e6)?;
        }
        self.efficiency.resolve()?;
        self.gpu.validate_custom()?;
        if let Some(r) = self.arrival_rate_per_s {
            fraction("arrival_rate_per_s", r, 1e6)?;
        }
        if let Some(b) = self.host_memory_bandwidth_bytes_per_s {
            fraction("host_memory_bandwidth_bytes_per_s", b, 1e14)?;
        }
        fraction("safety_margin", self.safety_margin, 0.9)
    }

    /// gpus = tp × pp × cp × dp, expert parallelism within the GPUs, and the schedule's rules
    /// ([`Scenario::validate_schedule`]).
    fn validate_layout(&self) -> Result<(), ScenarioError> {
        self.validate_schedule()?;
        let cp = self.context_parallel;
        let group = self.tensor_parallel * self.pipeline_parallel * cp;
        if !self.gpus.is_multiple_of(group) {
            let kind = if cp > 1 {
                ErrorKind::NotMultipleOf {
                    of: "tensor_parallel × pipeline_parallel × context_parallel",
                    value: group,
                    got: self.gpus,
                }
            } else {
                ErrorKind::NotMultipleOfGroup { group, got: self.gpus }
            };
            return Err(ScenarioError::new("gpus", kind));
        }
        if let Some(dp) = self.data_parallel {
            range("data_parallel", dp, 1, 1_000_000)?;
            if dp * group != self.gpus {
                let kind = if cp > 1 {
                    ErrorKind::ContextLayoutMismatch { gpus: self.gpus, group, dp }
                } else {
                    ErrorKind::LayoutMismatch { gpus: self.gpus, group, dp }
                };
                return Err(ScenarioError::new("data_parallel", kind));
            }
        }
        if self.expert_parallel > self.gpus {
            return Err(ScenarioError::new(
                "expert_parallel",
                ErrorKind::MoreThanGpus { gpus: self.gpus, got: self.expert_parallel },
            ));
        }
        // The EP group lies within a pipeline stage's tp × dp GPUs, and holds whole tensor-parallel
        // groups (vLLM: EP = TP × DP) or splits one (SGLang: ep ≤ tp, each expert tp/ep ways).
        let (ep, tp, stage) =
            (self.expert_parallel, self.tensor_parallel, self.gpus / self.pipeline_parallel.max(1));
        if !stage.is_multiple_of(ep) || !(tp.is_multiple_of(ep) || ep.is_multiple_of(tp)) {
            return Err(ScenarioError::new(
                "expert_parallel",
                ErrorKind::ExpertParallelSplit { stage_gpus: stage, tp, got: ep },
            ));
        }
        Ok(())
    }

    /// Context parallelism splits training sequences (a serving run has none); an interleaved
    /// schedule needs pipeline stages and a whole number of micro-batch rounds per stage
    /// (Megatron's interleaved 1F1B asserts `num_microbatches % pipeline_parallel_size == 0`).
    fn validate_schedule(&self) -> Result<(), ScenarioError> {
        // Megatron-Bridge's comm_overlap.py asserts both for --overlap-moe-expert-parallel-comm.
        if self.ep_comm_overlap && self.mode != Mode::Inference && self.expert_parallel > 1 {
            if self.recompute == Recompute::Full {
                return Err(ScenarioError::new("ep_comm_overlap", ErrorKind::EpOverlapWithFullRecompute));
            }
            if self.pipeline_parallel > 1 && self.virtual_pipeline_stages < 2 {
                return Err(ScenarioError::new(
                    "ep_comm_overlap",
                    ErrorKind::EpOverlapNeedsVirtualStages { pp: self.pipeline_parallel },
                ));
            }
        }
        if self.context_parallel > 1 && self.mode == Mode::Inference {
            return Err(ScenarioError::new("context_parallel", ErrorKind::NeedsTraining));
        }
        if self.context_parallel > 1 && !self.context_tokens.is_multiple_of(2 * self.context_parallel) {
            // The load-balanced split cuts each sequence into 2·cp chunks (Megatron-Core's
            // context-parallel guide).
            return Err(ScenarioError::new(
                "context_tokens",
                ErrorKind::NotMultipleOf {
                    of: "2 × context_parallel",
                    value: 2 * self.context_parallel,
                    got: self.context_tokens,
                },
            ));
        }
        if self.virtual_pipeline_stages > 1 {
            if self.pipeline_parallel < 2 {
                return Err(ScenarioError::new(
                    "virtual_pipeline_stages",
                    ErrorKind::NeedsPipeline { pp: self.pipeline_parallel },
                ));
            }
            let m = self.resolved_micro_batches();
            if !m.is_multiple_of(self.pipeline_parallel) {
                return Err(ScenarioError::new(
                    "micro_batches",
                    ErrorKind::NotMultipleOf {
                        of: "pipeline_parallel",
                        value: self.pipeline_parallel,
                        got: m,
                    },
                ));
            }
        }
        Ok(())
    }

    /// LoRA targets are module names; the weights suit the mode.
    fn validate_training(&self) -> Result<(), ScenarioError> {
        if let Some(t) =
            self.lora_targets.iter().find(|t| *t != "all-linear" && !LORA_TARGETS.contains(&t.as_str()))
        {
            return Err(ScenarioError::new(
                "lora_targets",
                ErrorKind::NotALoraTarget {
                    allowed: LORA_TARGETS.iter().map(|t| (*t).to_owned()).collect(),
                    got: t.clone(),
                },
            ));
        }
        let w = self.resolved_weight_dtype();
        match self.mode {
            Mode::Training if !w.is_trainable_float() => {
                Err(ScenarioError::new("weight_dtype", ErrorKind::TrainingNeedsFloat { got: w }))
            }
            Mode::Qlora if !matches!(w, Dtype::Nf4 | Dtype::Int4 | Dtype::Int8) => {
                Err(ScenarioError::new("weight_dtype", ErrorKind::QloraNeedsQuantised { got: w }))
            }
            _ => Ok(()),
        }
    }

    /// The file type of a GGUF file given as the model (its `gguf.file_type`).
    pub fn model_file_type(&self) -> Option<Dtype> {
        match &self.model {
            ModelSpec::Config(v) => v.get("gguf")?.get("file_type")?.as_str().and_then(Dtype::parse),
            ModelSpec::Id(_) => None,
        }
    }

    /// Weight format after defaults: a GGUF file's own file type, else bf16 (nf4 in qlora mode,
    /// fp32 in full training at fp32).
    pub fn resolved_weight_dtype(&self) -> Dtype {
        self.weight_dtype.or_else(|| self.model_file_type()).unwrap_or(match self.mode {
            Mode::Qlora => Dtype::Nf4,
            Mode::Training if self.training_precision == TrainingPrecision::Fp32 => Dtype::Fp32,
            _ => Dtype::Bf16,
        })
    }

    /// KV cache format after defaults.
    pub fn resolved_kv_dtype(&self) -> Dtype {
        self.kv_dtype.unwrap_or(match self.resolved_weight_dtype() {
            Dtype::Fp32 => Dtype::Fp32,
            // llama.cpp's cache is f16 unless `-ctk`/`-ctv` say otherwise.
            Dtype::Fp16 | Dtype::Gguf(_) => Dtype::Fp16,
            _ => Dtype::Bf16,
        })
    }

    /// Data-parallel replicas: gpus / (tp × pp × cp).
    pub fn data_parallel(&self) -> u64 {
        self.gpus / (self.tensor_parallel * self.pipeline_parallel * self.context_parallel).max(1)
    }

    /// The low-precision recipe after defaults: as given, or `fp8_delayed` (Transformer Engine's
    /// default recipe) when a training run's compute dtype is fp8 and no recipe is named.
    pub fn resolved_recipe(&self) -> LowPrecisionRecipe {
        let fp8 = self.resolved_compute_dtype() == ComputeDtype::Fp8;
        match self.low_precision_recipe {
            LowPrecisionRecipe::None if fp8 && self.mode != Mode::Inference => LowPrecisionRecipe::Fp8Delayed,
            r => r,
        }
    }

    /// (prompt, output) tokens per sequence after defaults; they sum to at most context_tokens.
    pub fn resolved_prompt_output(&self) -> (u64, u64) {
        let c = self.context_tokens;
        match (self.prompt_tokens, self.output_tokens) {
            (Some(p), Some(o)) => (p, o),
            (Some(p), None) => (p, c.saturating_sub(p)),
            (None, Some(o)) => (c.saturating_sub(o), o),
            (None, None) => {
                let o = (c / 2).min(256);
                (c - o, o)
            }
        }
    }

    /// The Tensor Core path after defaults (see [`Scenario::compute_dtype`]).
    pub fn resolved_compute_dtype(&self) -> ComputeDtype {
        self.compute_dtype.unwrap_or(match self.resolved_weight_dtype() {
            Dtype::Fp8 => ComputeDtype::Fp8,
            Dtype::Fp32 => ComputeDtype::Tf32,
            Dtype::Fp16 => ComputeDtype::Fp16,
            // llama.cpp computes in 16 bits: dequantised blocks through cuBLAS/Metal GEMMs in fp16
            // (its quantised matrix kernels accumulate the same products).
            Dtype::Gguf(_) => ComputeDtype::Fp16,
            _ if self.activation_dtype == Dtype::Fp16 => ComputeDtype::Fp16,
            _ => ComputeDtype::Bf16,
        })
    }

    /// The Tensor Core path on `gpu`: [`Scenario::resolved_compute_dtype`], except that a
    /// llama.cpp quantised file multiplies on the int8 path when the GPU's int8 peak is the
    /// higher one. llama.cpp's MMQ kernels quantise the activations to 8 bits and run integer
    /// matrix instructions (int8 MMA on NVIDIA Turing and newer, DP4A on Pascal;
    /// `ggml_cuda_should_use_mmq`, ggml/src/ggml-cuda/mmq.cu); elsewhere (Metal, and GPUs whose
    /// int8 peak is no higher) the blocks are dequantised for 16-bit GEMMs.
    ///
    /// The weights' format chooses the path as serving engines choose it (vLLM, "FP8 W8A8":
    /// FP8 GEMMs on GPUs with FP8 Tensor Cores, compute capability 8.9 and newer; older GPUs
    /// run FP8 weights as weight-only W8A16 through the FP8 Marlin kernel, i.e. 16-bit GEMMs):
    /// `published` is the checkpoint's own `quantization_config` when it sets this run's weights
    /// ([`crate::engine::memory::quant_weights::active`]); a block-FP8 checkpoint (`quant_method:
    /// fp8`, DeepSeek-V3's format: FP8 weights, activations quantised to FP8 per 1×128 group as
    /// they run) is multiplied on the FP8 path where the GPU has one, like FP8 weights chosen by
    /// hand, and both take the 16-bit path where it has none.
    pub fn compute_dtype_on(&self, gpu: &super::gpu::Gpu, published: Option<&Quantization>) -> ComputeDtype {
        let default = self.resolved_compute_dtype();
        if self.compute_dtype.is_some() {
            return default;
        }
        let peak = |d| gpu.compute_path(d).map_or(0.0, |p| p.peak_flops_per_s);
        let fp8_weights = default == ComputeDtype::Fp8 || published.is_some_and(Quantization::runs_fp8_gemms);
        if fp8_weights {
            let has_fp8 = gpu.compute_path(ComputeDtype::Fp8).is_some_and(|p| p.used == ComputeDtype::Fp8);
            return if has_fp8 { ComputeDtype::Fp8 } else { ComputeDtype::Bf16 };
        }
        if self.resolved_weight_dtype().file_type().is_none() {
            return default;
        }
        if peak(ComputeDtype::Int8) > peak(ComputeDtype::Fp16) {
            ComputeDtype::Int8
        } else {
            default
        }
    }

    /// Micro-batches per step after defaults.
    pub fn resolved_micro_batches(&self) -> u64 {
        self.micro_batches.unwrap_or(if self.pipeline_parallel > 1 { 4 * self.pipeline_parallel } else { 1 })
    }

    /// Whether LoRA targets `module` (one of [`LORA_TARGETS`]).
    pub fn lora_targets_module(&self, module: &str) -> bool {
        self.lora_targets.iter().any(|t| t == module || t == "all-linear")
    }
}

/// `v` within `[min, max]`, or an error naming `field` with the bounds.
fn range(field: &str, v: u64, min: u64, max: u64) -> Result<(), ScenarioError> {
    if v < min || v > max {
        return Err(ScenarioError::new(
            field,
            ErrorKind::OutOfRange { min: min as f64, max: max as f64, got: v as f64 },
        ));
    }
    Ok(())
}

/// `v` finite and within `[0, max]`.
fn fraction(field: &str, v: f64, max: f64) -> Result<(), ScenarioError> {
    if v.is_finite() && (0.0..=max).contains(&v) {
        Ok(())
    } else {
        Err(ScenarioError::new(field, ErrorKind::OutOfRange { min: 0.0, max, got: v }))
    }
}

/// The documented defaults (kept equal to the serde defaults by a test).
fn defaults(model: ModelSpec) -> Scenario {
    Scenario {
        model,
        mode: Mode::Inference,
        weight_dtype: None,
        kv_dtype: None,
        activation_dtype: Dtype::Bf16,
        int4_group_size: 128,
        context_tokens: 4096,
        batch: 1,
        gpu: GpuSpec::default(),
        gpu_memory_bytes: None,
        gpus: 1,
        tensor_parallel: 1,
        pipeline_parallel: 1,
        data_parallel: None,
        expert_parallel: 1,
        topology: None,
        gpus_per_node: 8,
        efficiency: EfficiencyOverrides::default(),
        price_per_gpu_hour: None,
        prompt_tokens: None,
        output_tokens: None,
        compute_dtype: None,
        micro_batches: None,
        sequence_parallel: false,
        optimizer: Optimizer::Adamw,
        training_precision: TrainingPrecision::Mixed,
        optimizer_in_backward: false,
        zero_stage: 0,
        activation_offload: false,
        loss_chunks: 0,
        recompute: Recompute::None,
        flash_attention: true,
        lora_rank: 16,
        lora_targets: default_lora_targets(),
        kv_block_tokens: 16,
        prefill_chunk_tokens: 8192,
        runtime_overhead_bytes: 1 << 30,
        safety_margin: 0.10,
        arrival_rate_per_s: None,
        concurrent_users: None,
        gpu_layers: None,
        n_cpu_moe: 0,
        host_memory_bytes: None,
        host_reserve_bytes: 0,
        host_memory_bandwidth_bytes_per_s: None,
        redundant_experts: 0,
        serving_stack: ServingStack::VllmV1,
        moe_kernel: None,
        ep_comm: None,
        custom_all_reduce: true,
        prefill_policy: None,
        expert_imbalance: None,
        weight_kernel: None,
        llama_backend: None,
        benchmark_requests: None,
        length_min_ratio: None,
        bench_tool: BenchTool::VllmBench,
        context_parallel: 1,
        virtual_pipeline_stages: 1,
        recompute_layers: None,
        low_precision_recipe: LowPrecisionRecipe::None,
        fp8_primary_weights: false,
        attention_kernel: None,
        loss_impl: LossImpl::Upcast,
        optimizer_impl: OptimizerImpl::Foreach,
        tp_comm_overlap: false,
        ep_comm_overlap: false,
        allocator_reserve_bytes: 0,
        flop_convention: FlopConvention::MegatronCausal,
        prefix_shared_tokens: 0,
        prefix_hit_rate: None,
        session_turns: 0,
        session_turn_tokens: 0,
        session_turn_output_tokens: None,
        prefix_open_sessions: 0,
        kv_gpu_cache_bytes: None,
        kv_cpu_tier_bytes: 0,
        kv_cpu_tier_bytes_per_s: None,
        kv_ssd_tier_bytes: 0,
        kv_ssd_tier_bytes_per_s: None,
        speculative_method: None,
        speculative_draft_tokens: None,
        speculative_acceptance_rate: None,
        speculative_acceptance: None,
        speculative_acceptance_length: None,
        speculative_draft_model: None,
        prefill_workers: 0,
        prefill_tensor_parallel: None,
        kv_transfer_link: None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn defaults_are_documented_values() {
        let s = Scenario::from_json(&json!({"model": "llama-3.1-8b"})).unwrap();
        assert_eq!(s, defaults(ModelSpec::Id("llama-3.1-8b".into())));
        assert_eq!(s, Scenario::new(ModelSpec::Id("llama-3.1-8b".into())));
        assert_eq!(s.resolved_weight_dtype(), Dtype::Bf16);
        assert_eq!(s.resolved_kv_dtype(), Dtype::Bf16);
    }

    #[test]
    fn concurrent_users_is_read_and_checked() {
        let s = Scenario::from_json(&json!({"model": "x", "concurrent_users": 32})).unwrap();
        assert_eq!(s.concurrent_users, Some(32));
        assert!(s.validate().is_ok());
        let s = Scenario::from_json(&json!({"model": "x", "concurrent_users": 100_001})).unwrap();
        assert_eq!(s.validate().unwrap_err().field, "concurrent_users");
        let e = Scenario::from_json(&json!({"model": "x", "concurrent_users": -1})).unwrap_err();
        assert_eq!(e.field, "concurrent_users");
    }

    #[test]
    fn bad_values_name_their_field() {
        let e = Scenario::from_json(&json!({"model": "x", "weight_dtype": "fp12"})).unwrap_err();
        assert_eq!(e.field, "weight_dtype");
        let e = Scenario::from_json(&json!({"model": "x", "batch": -1})).unwrap_err();
        assert_eq!(e.field, "batch");
        let e = Scenario::from_json(&json!({"batch": 1})).unwrap_err();
        assert_eq!(e.field, "model");
        let mut s = Scenario::new(ModelSpec::Id("x".into()));
        s.context_tokens = 0;
        assert_eq!(
            s.validate().unwrap_err().to_string(),
            "context_tokens: must be between 1 and 10000000, got 0"
        );
        s.context_tokens = 10;
        s.gpus = 4;
        s.tensor_parallel = 8;
        assert_eq!(s.validate().unwrap_err().field, "gpus");
    }

    /// How scenarios were read before `from_json` was written by hand: serde's derive, one probe
    /// per key so that the error names it, serde's errors classified.
    /// The derives as the readers' reference, with the readers' one extension applied first:
    /// whole numbers written as floats are integers.
    fn read_with_serde(v: &Value) -> Result<Scenario, ScenarioError> {
        use crate::engine::json_read::whole_numbers_as_integers as whole;
        // The model's config is kept as it was written.
        let v = &match v {
            Value::Object(m) => Value::Object(
                m.iter().map(|(k, x)| (k.clone(), if k == "model" { x.clone() } else { whole(x) })).collect(),
            ),
            other => whole(other),
        };
        use crate::engine::error::classify_serde;
        let Value::Object(obj) = v else {
            return Err(ScenarioError::new("scenario", ErrorKind::NotAnObject));
        };
        if !obj.contains_key("model") {
            return Err(ScenarioError::new("model", ErrorKind::ModelRequired));
        }
        for (key, value) in obj {
            let probe = if key == "model" {
                json!({"model": value})
            } else {
                json!({"model": "x", key.as_str(): value})
            };
            if let Err(e) = serde_json::from_value::<Scenario>(probe) {
                return Err(ScenarioError::new(key.clone(), classify_serde(&e)));
            }
        }
        serde_json::from_value(v.clone()).map_err(|e| ScenarioError::new("scenario", classify_serde(&e)))
    }

    /// Values of every JSON type and the shapes serde treats specially (enum objects, structs
    /// as lists, floats that look whole, escapes in strings).
    fn samples() -> Vec<Value> {
        let mut v = vec![
            json!(null),
            json!(true),
            json!(false),
            json!(0),
            json!(1),
            json!(3),
            json!(-1),
            json!(300),
            json!(70000),
            json!(5_000_000_000_u64),
            json!(u64::MAX),
            json!(i64::MIN),
            json!(1.5),
            json!(4096.0),
            json!(1e300),
            json!(-0.0),
            json!(0.1),
            json!("x"),
            json!(""),
            json!("bf16"),
            json!("fp8"),
            json!("nf4"),
            json!("training"),
            json!("qlora"),
            json!("adam"),
            json!("paged_adamw_8bit"),
            json!("adam_8bit"),
            json!("mixed"),
            json!("sgd_momentum"),
            json!("selective"),
            json!("op_selective"),
            json!("fp8_current"),
            json!("cudnn"),
            json!("fused"),
            json!("megatron_causal"),
            json!("multi_node_ib"),
            json!("nvswitch_efa"),
            json!("q_proj"),
            json!("all-linear"),
            json!("é\n\"\u{7}"),
            json!([]),
            json!([1]),
            json!(["q_proj"]),
            json!(["q_proj", 2]),
            json!([null]),
            json!([1e12, 2e12]),
            json!([0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22]),
            json!({}),
            json!({"a": 1}),
            json!({"training": null}),
            json!({"bf16": null}),
            json!({"training": 1}),
            json!({"bf16": 1e12}),
            json!({"bf16": "x"}),
            json!({"fp8": null, "bf16": 2e14}),
            json!({"bf16": 1, "fp8": 2}),
        ];
        v.push(json!({"memory_bytes": 48_000_000_000_u64, "memory_bandwidth_bytes_per_s": 1e12, "peak_flops": {"bf16": 2e14}}));
        v
    }

    #[test]
    fn from_json_reads_like_serde_did() {
        let keys = [
            "model",
            "mode",
            "weight_dtype",
            "kv_dtype",
            "activation_dtype",
            "int4_group_size",
            "context_tokens",
            "batch",
            "gpu",
            "gpu_memory_bytes",
            "gpus",
            "tensor_parallel",
            "pipeline_parallel",
            "data_parallel",
            "expert_parallel",
            "topology",
            "gpus_per_node",
            "efficiency",
            "price_per_gpu_hour",
            "prompt_tokens",
            "output_tokens",
            "compute_dtype",
            "micro_batches",
            "sequence_parallel",
            "optimizer",
            "training_precision",
            "optimizer_in_backward",
            "zero_stage",
            "activation_offload",
            "loss_chunks",
            "recompute",
            "flash_attention",
            "lora_rank",
            "lora_targets",
            "kv_block_tokens",
            "prefill_chunk_tokens",
            "runtime_overhead_bytes",
            "safety_margin",
            "arrival_rate_per_s",
            "concurrent_users",
            "gpu_layers",
            "n_cpu_moe",
            "host_memory_bytes",
            "host_reserve_bytes",
            "host_memory_bandwidth_bytes_per_s",
            "context_parallel",
            "virtual_pipeline_stages",
            "recompute_layers",
            "low_precision_recipe",
            "fp8_primary_weights",
            "attention_kernel",
            "loss_impl",
            "optimizer_impl",
            "tp_comm_overlap",
            "ep_comm_overlap",
            "allocator_reserve_bytes",
            "flop_convention",
            "prefix_shared_tokens",
            "prefix_hit_rate",
            "session_turns",
            "session_turn_tokens",
            "session_turn_output_tokens",
            "prefix_open_sessions",
            "kv_gpu_cache_bytes",
            "kv_cpu_tier_bytes",
            "kv_cpu_tier_bytes_per_s",
            "kv_ssd_tier_bytes",
            "kv_ssd_tier_bytes_per_s",
            "speculative_method",
            "speculative_draft_tokens",
            "speculative_acceptance_rate",
            "speculative_acceptance",
            "speculative_acceptance_length",
            "speculative_draft_model",
            "prefill_workers",
            "prefill_tensor_parallel",
            "kv_transfer_link",
            "not_a_field",
        ];
        // Every field a GPU has, plus one it does not (the reader must refuse it).
        let gpu_keys: Vec<&str> =
            crate::engine::gpu::GPU_FIELDS.iter().copied().chain(["memory_gigs"]).collect();
        let nested: [(&str, &[&str]); 5] = [
            ("peak_flops", &["fp64", "fp32", "tf32", "fp16", "bf16", "fp8", "int8", "fp4", "fp6"]),
            ("nvlink", &["generation", "links", "bidirectional_bytes_per_s", "lanes"]),
            ("pcie", &["generation", "bidirectional_bytes_per_s", "lanes"]),
            ("mig", &["supported", "max_instances", "profiles", "slices"]),
            ("sparse_as_quoted", &["bf16"]),
        ];
        // Every efficiency key, plus one that is not (the reader must refuse it).
        let efficiency_keys: Vec<&str> =
            crate::engine::efficiency::EFFICIENCY_FIELDS.iter().copied().chain(["launch"]).collect();
        let base_gpu = json!({"memory_bytes": 48_000_000_000_u64, "memory_bandwidth_bytes_per_s": 1e12, "peak_flops": {"bf16": 2e14}});
        let mut inputs = vec![json!(null), json!([]), json!("x"), json!({}), json!({"batch": 2})];
        for sample in samples() {
            for key in keys {
                inputs.push(json!({"model": "llama-3.1-8b", key: sample}));
                inputs.push(json!({key: sample, "model": "llama-3.1-8b", "batch": "two"}));
            }
            for key in gpu_keys.iter().copied() {
                let mut g = base_gpu.clone();
                g[key] = sample.clone();
                inputs.push(json!({"model": "x", "gpu": g}));
            }
            for (outer, inner) in nested {
                for key in inner {
                    let mut g = base_gpu.clone();
                    g[outer] = json!({*key: sample});
                    inputs.push(json!({"model": "x", "gpu": g}));
                }
            }
            for key in efficiency_keys.iter().copied() {
                inputs.push(json!({"model": "x", "efficiency": {key: sample}}));
            }
        }
        for (outer, _) in nested {
            for list in [
                json!([1, 2]),
                json!([true, 3, "p"]),
                json!(["NVLink 4", 18, 9e11]),
                json!([null, null, null, null, null, null, null, null, 1]),
            ] {
                let mut g = base_gpu.clone();
                g[outer] = list;
                inputs.push(json!({"model": "x", "gpu": g}));
            }
        }
        for v in &inputs {
            assert_eq!(Scenario::from_json(v), read_with_serde(v), "{v}");
        }
        assert!(inputs.len() > 5000, "{}", inputs.len());
    }

    #[test]
    fn whole_numbers_with_an_exponent_are_integers() {
        let s = Scenario::from_json(&json!({"model": "llama-3.1-8b", "context_tokens": 8.192e3, "batch": 32.0,
            "gpu": {"memory_bytes": 48e9, "memory_bandwidth_bytes_per_s": 1e12, "peak_flops": {"bf16": 2e14}}}))
        .unwrap();
        assert_eq!((s.context_tokens, s.batch), (8192, 32));
        let GpuSpec::Custom(g) = &s.gpu else { panic!("inline GPU") };
        assert_eq!(g.memory_bytes, 48_000_000_000);
        for bad in [json!(4096.5), json!(-1.0), json!(1e300)] {
            let e =
                Scenario::from_json(&json!({"model": "llama-3.1-8b", "context_tokens": bad})).unwrap_err();
            assert_eq!(e.field, "context_tokens", "{bad}");
        }
    }

    #[test]
    fn catalog_gpus_read_like_serde_did() {
        let Value::Array(list) = serde_json::from_str(include_str!("../catalog/data/gpus.json")).unwrap()
        else {
            panic!("gpus.json is a list")
        };
        for v in &list {
            let g = crate::engine::gpu::Gpu::from_json(v).unwrap();
            assert_eq!(g, serde_json::from_value(v.clone()).unwrap());
        }
    }

    #[test]
    fn training_layout_keys_are_checked_with_their_field() {
        let base = json!({"model": "x", "mode": "training", "gpus": 16, "tensor_parallel": 2,
            "context_parallel": 2, "context_tokens": 8192});
        let s = Scenario::from_json(&base).unwrap();
        assert!(s.validate().is_ok());
        assert_eq!(s.data_parallel(), 4);
        let with = |k: &str, v: Value| {
            let mut b = base.clone();
            b[k] = v;
            Scenario::from_json(&b).unwrap().validate().unwrap_err()
        };
        assert_eq!(with("mode", json!("inference")).kind, ErrorKind::NeedsTraining);
        let e = with("gpus", json!(14));
        assert_eq!((e.field.as_str(), e.to_string().contains("context_parallel")), ("gpus", true));
        assert_eq!(with("data_parallel", json!(2)).field, "data_parallel");
        assert_eq!(with("context_tokens", json!(8190)).field, "context_tokens");
        assert_eq!(with("virtual_pipeline_stages", json!(2)).kind, ErrorKind::NeedsPipeline { pp: 1 });
        assert_eq!(with("recompute_layers", json!(0)).field, "recompute_layers");
        let e = Scenario::from_json(&json!({"model": "x", "low_precision_recipe": "fp9"})).unwrap_err();
        assert_eq!(e.field, "low_precision_recipe");
        // Interleaving: the micro-batches fill whole rounds of the stages.
        let s = Scenario::from_json(&json!({"model": "x", "mode": "training", "gpus": 4,
            "pipeline_parallel": 4, "virtual_pipeline_stages": 2, "micro_batches": 6}))
        .unwrap();
        let e = s.validate().unwrap_err();
        assert_eq!(e.kind, ErrorKind::NotMultipleOf { of: "pipeline_parallel", value: 4, got: 6 });
        // fp8 compute in training names TE's default recipe; inference keeps none.
        let s =
            Scenario::from_json(&json!({"model": "x", "mode": "training", "compute_dtype": "fp8"})).unwrap();
        assert_eq!(s.resolved_recipe(), LowPrecisionRecipe::Fp8Delayed);
        let s = Scenario::from_json(&json!({"model": "x", "compute_dtype": "fp8"})).unwrap();
        assert_eq!(s.resolved_recipe(), LowPrecisionRecipe::None);
        // EP overlap: Megatron refuses it with full recomputation, and across pipeline stages
        // without an interleaved schedule; without expert parallelism it changes nothing.
        let moe = json!({"model": "x", "mode": "training", "gpus": 8, "expert_parallel": 8, "ep_comm_overlap": true});
        assert!(Scenario::from_json(&moe).unwrap().validate().is_ok());
        let with_moe = |k: &str, v: Value| {
            let mut b = moe.clone();
            b[k] = v;
            Scenario::from_json(&b).unwrap().validate()
        };
        let e = with_moe("recompute", json!("full")).unwrap_err();
        assert_eq!((e.field.as_str(), e.kind), ("ep_comm_overlap", ErrorKind::EpOverlapWithFullRecompute));
        assert!(with_moe("recompute", json!("selective")).is_ok());
        let e = with_moe("pipeline_parallel", json!(2)).unwrap_err();
        assert_eq!(e.kind, ErrorKind::EpOverlapNeedsVirtualStages { pp: 2 });
        assert!(e.to_string().contains("virtual_pipeline_stages"));
        assert!(with_moe("expert_parallel", json!(1)).is_ok());
    }

    #[test]
    fn qlora_defaults_to_nf4_and_training_rejects_int4() {
        let s = Scenario::from_json(&json!({"model": "x", "mode": "qlora"})).unwrap();
        assert_eq!(s.resolved_weight_dtype(), Dtype::Nf4);
        let s =
            Scenario::from_json(&json!({"model": "x", "mode": "training", "weight_dtype": "int4"})).unwrap();
        assert_eq!(s.validate().unwrap_err().field, "weight_dtype");
    }
}
