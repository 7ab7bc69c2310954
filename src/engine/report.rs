//! The `Report`: every number the engine computes, each with its derivation.

use super::assumption::Assumption;
use super::derivation::{DerivKey, Derivation};
pub use super::memory::MemoryBreakdown;
use super::solvers::GpuCount;
use serde::Serialize;
use std::collections::BTreeMap;

/// Which model was evaluated.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ModelInfo {
    /// Catalog id, or null for a pasted config.
    pub id: Option<String>,
    pub name: String,
    pub family: String,
    /// Where the catalog config came from (null for a pasted config).
    pub source: Option<String>,
    /// True when `model_type` is unknown and the counts come from the usual keys (a generic
    /// Llama-style decoder): approximate, not the family's own layout.
    pub inferred: bool,
    /// For an inferred model: the config keys the count read (else empty).
    pub keys_used: Vec<String>,
    /// For an inferred model: the config keys it did not read, metadata aside (else empty).
    pub keys_ignored: Vec<String>,
    /// The config's `quantization_config` read as a weight format (null when it has none).
    pub quantization: Option<super::memory::quant_weights::QuantInfo>,
    /// The tensors llama.cpp stores (null unless a GGUF file or a llama.cpp file type).
    pub gguf: Option<GgufInfo>,
    /// Decoder layers.
    pub layers: u64,
}

/// Parameter counts.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Params {
    pub total: u64,
    pub active: u64,
    /// Parameters updated by training (all in training mode, adapters in lora/qlora, 0 in inference).
    pub trainable: u64,
    pub embedding: u64,
    pub lm_head: u64,
    pub attention: u64,
    pub mlp: u64,
    pub experts: u64,
    pub other: u64,
    /// A speculative decoder's drafter loaded beside the model, not in `total` (which is the
    /// model's, as published): a draft model's parameters, an EAGLE-3 head's, or the MTP
    /// modules the checkpoint ships (DeepSeek-V3: 11.6 B beside the 671 B). 0 without one.
    pub drafter: u64,
}

/// Bytes on the heaviest GPU, by component (the engine's [`MemoryBreakdown`] in `u64`).
pub type Memory = MemoryBreakdown<u64>;

/// How the GPUs are arranged.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Layout {
    pub gpus: u64,
    pub tensor_parallel: u64,
    pub pipeline_parallel: u64,
    /// Data-parallel replicas (gpus / (tp × pp × cp)).
    pub data_parallel: u64,
    /// GPUs each sequence is split over (context parallelism, training).
    pub context_parallel: u64,
    /// The pipeline stage the memory figures describe (the heaviest, 0-based).
    pub heaviest_stage: u64,
    /// GPUs the routed experts are spread over.
    pub expert_parallel: u64,
    /// Routed experts one GPU holds, `ceil((experts + redundant) / expert_parallel)` (0 for a
    /// dense model).
    pub experts_per_gpu: u64,
    /// Ways each held expert is split, `max(1, tensor_parallel / expert_parallel)`.
    pub expert_tensor_parallel: u64,
    pub redundant_experts: u64,
}

/// Inverse questions, answered for the chosen GPU and safety margin (null = impossible).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Solvers {
    /// Longest context (tokens per sequence) that fits, at the scenario's batch.
    pub max_context_tokens: Option<u64>,
    /// Most concurrent sequences (training: micro-batch) that fit, at the scenario's context.
    pub max_batch: Option<u64>,
    /// Fewest GPUs of this kind that fit the scenario.
    pub min_gpus: Option<GpuCount>,
    /// Most of the model that fits on the GPU at the scenario's context and batch, as llama.cpp's
    /// `-ngl` counts it (layers, plus one for the output layer); set for llama.cpp models
    /// (GGUF files and file types) and whenever layers are kept in host memory.
    pub max_gpu_layers: Option<u64>,
    /// Fewest layers whose routed experts stay in host memory (`--n-cpu-moe`) with every layer on
    /// the GPU, for an MoE model under llama.cpp; `None` when the model fits without it, or does
    /// not fit even with every expert in host memory.
    pub min_cpu_moe: Option<u64>,
}

/// Partial offload: what stays in host memory (llama.cpp's `-ngl`, `--n-cpu-moe`).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Offload {
    /// `-ngl` as applied: decoder layers on the GPU, plus one when the output layer is.
    pub gpu_layers: u64,
    /// Decoder layers.
    pub layers: u64,
    /// The first decoder layer on the GPU (the ones before it run on the CPU).
    pub first_gpu_layer: u64,
    pub output_on_gpu: bool,
    /// Layers whose routed experts stay in host memory (`--n-cpu-moe`).
    pub n_cpu_moe: u64,
    /// llama.cpp keeps the token embedding in host memory.
    pub embedding_on_host: bool,
    pub host_weights_bytes: u64,
    pub host_kv_cache_bytes: u64,
    pub host_recurrent_state_bytes: u64,
    /// Host memory it may use: the scenario's `host_memory_bytes`, or on a unified-memory device
    /// the memory the GPU's share leaves (null when neither is known).
    pub host_available_bytes: Option<u64>,
    /// Whether the host part fits that memory (null when it is not known).
    pub host_fits: Option<bool>,
}

/// A llama.cpp model's tensors by type (a GGUF file or a file type).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct GgufInfo {
    /// The file type (`q4_k_m`), when known.
    pub file_type: Option<String>,
    /// Whether the tensors are a GGUF file's own (else the quantizer's rules applied to the model).
    pub from_file: bool,
    /// Bytes of all tensors (llama.cpp's "model size").
    pub bytes: u64,
    /// Elements of all tensors (llama.cpp's "params").
    pub elements: u64,
    /// `8 × bytes / elements` (llama.cpp's BPW).
    pub bits_per_weight: f64,
    /// Tensors and bytes per ggml type, most bytes first.
    pub types: Vec<GgufTypeCount>,
}

/// Tensors of one ggml type.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct GgufTypeCount {
    /// ggml's name (`Q4_K`).
    pub ty: String,
    pub tensors: u32,
    pub bytes: u64,
}

/// Everything the engine says about one scenario.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Report {
    pub model: ModelInfo,
    pub params: Params,
    pub kv_cache_bytes_per_token: u64,
    /// Hybrid models: the fixed-size state one sequence keeps in all linear-attention and
    /// Mamba layers (convolution caches plus recurrent states, no parallel split); 0 otherwise.
    pub recurrent_state_bytes_per_sequence: u64,
    pub memory_per_gpu_bytes: Memory,
    pub gpu_memory_bytes: u64,
    /// GPU memory minus the safety margin.
    pub usable_gpu_memory_bytes: u64,
    /// Whether what must fit (everything but paged optimizer states) fits in the usable memory.
    pub fits: bool,
    /// Bytes this GPU's work keeps in host memory: paged optimizer states the device has no
    /// room for, and what partial offload leaves there (`offload`).
    pub host_memory_bytes: u64,
    /// What the GPU may use of its memory: all of it, or on Apple silicon the share macOS lets
    /// Metal wire (`recommendedMaxWorkingSetSize`).
    pub gpu_budget_bytes: u64,
    /// Partial offload (null when the whole model is on the GPU and it is not a llama.cpp model).
    pub offload: Option<Offload>,
    /// What PyTorch's allocator statistics (`torch.cuda.max_memory_allocated`, the peak
    /// frameworks such as torchtune log) count of the heaviest GPU: the total less the paged
    /// optimizer states on the device, which bitsandbytes allocates outside the allocator
    /// (`cudaMallocManaged`, wrapped as CPU tensors by `functional.get_paged`).
    pub allocator_counted_bytes: u64,
    /// Bits per weight of the matrices' format (the config's when it sets the format),
    /// scales and zero points included.
    pub weight_bits_per_element: f64,
    pub layout: Layout,
    pub solvers: Solvers,
    /// What the numbers assume (worded by `i18n::facts`).
    pub assumptions: Vec<Assumption>,
    /// Time, throughput, roofline, scaling, serving (top-level keys `hardware`, `workload`,
    /// `time`, `throughput`, `bound`, `bound_ratio`, `phases`, `roofline`, `scaling`, `serving`,
    /// `efficiency`).
    #[serde(flatten)]
    pub performance: super::perf::report::Performance,
    /// Derivation of each number, keyed by its path in this report.
    pub derivations: BTreeMap<DerivKey, Derivation>,
    /// Serving under load (null when the scenario sets no `arrival_rate_per_s`, or trains).
    pub load: Option<super::perf::load::LoadReport>,
}

impl Report {
    /// The derivation of the number at report path `path` (e.g. `memory_per_gpu_bytes.weights`).
    pub fn derivation(&self, path: &str) -> Option<&Derivation> {
        self.derivations.iter().find(|(k, _)| k.path() == path).map(|(_, d)| d)
    }
}

/// Saturating conversion for the report's integers.
pub fn to_u64(v: u128) -> u64 {
    u64::try_from(v).unwrap_or(u64::MAX)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn huge_values_saturate() {
        assert_eq!(to_u64(u128::MAX), u64::MAX);
        assert_eq!(to_u64(42), 42);
    }
}
