//! Memory per GPU: weights, KV cache, activations, gradients, optimizer states, overhead.
//!
//! Pipeline parallelism gives each GPU a contiguous stage of layers (the first
//! `layers % pp` stages get one extra); the report shows the heaviest stage, which decides
//! whether the job fits.

pub mod activations;
pub mod checkpointing;
pub mod expert_parallel;
pub mod fp8;
pub mod fsdp;
pub mod logits;
pub mod lora;
pub mod model_states;
pub mod offload;
pub mod prefix;
pub mod quant_weights;
pub mod speculative;
pub mod table_weights;
pub mod weights;

use super::model::hybrid::recurrent_state_bytes;
use super::model::kv_cache::kv_cache_bytes;
use super::model::Architecture;
use super::num::usize_sat;
use super::precision::Dtype;
use super::scenario::{Scenario, LORA_TARGETS};
use super::workload::{Mode, Optimizer, Recompute, TrainingPrecision};
use serde::Serialize;

/// The scenario with defaults resolved, as plain numbers (cheap to copy for the solvers).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Inputs {
    pub mode: Mode,
    pub weight: Dtype,
    pub kv: Dtype,
    pub activation: Dtype,
    pub group: u64,
    pub context: u64,
    pub batch: u64,
    pub tp: u64,
    pub pp: u64,
    pub dp: u64,
    /// GPUs the routed experts are spread over (`expert_parallel`; [`expert_parallel`]).
    pub ep: u64,
    /// Redundant expert copies over the EP group (`redundant_experts`).
    pub redundant_experts: u64,
    pub sequence_parallel: bool,
    pub optimizer: Optimizer,
    pub precision: TrainingPrecision,
    pub optimizer_in_backward: bool,
    pub zero_stage: u8,
    pub activation_offload: bool,
    pub loss_chunks: u64,
    pub recompute: Recompute,
    pub flash_attention: bool,
    pub lora_rank: u64,
    /// Which of [`LORA_TARGETS`] get adapters.
    pub lora_targets: [bool; 7],
    pub kv_block_tokens: u64,
    pub prefill_chunk_tokens: u64,
    pub overhead: u64,
    /// Whether the reader chose the weight format (it then wins over the config's
    /// `quantization_config`).
    pub weight_chosen: bool,
    /// llama.cpp's `-ngl` (absent: every layer on the GPU).
    pub gpu_layers: Option<u64>,
    /// llama.cpp's `--n-cpu-moe`.
    pub n_cpu_moe: u64,
    /// Context-parallel GPUs a sequence is split over (training). `dp` above counts them: it is
    /// the group the ZeRO/FSDP states are sharded over (data × context parallel, as Megatron's
    /// distributed optimizer and torchtitan's FSDP mesh shard them).
    pub cp: u64,
    /// Model chunks per pipeline stage (interleaved 1F1B).
    pub vp: u64,
    /// Micro-batches per step per replica.
    pub micro_batches: u64,
    /// Layers per pipeline stage the recompute policy applies to (absent: all).
    pub recompute_layers: Option<u64>,
    /// The linear layers' low-precision recipe (resolved: fp8 compute in training names one).
    pub recipe: crate::engine::workload::LowPrecisionRecipe,
    /// Only quantised copies of the linear weights are held (FP8 primary weights).
    pub fp8_primary_weights: bool,
    /// How the loss is computed.
    pub loss_impl: crate::engine::workload::LossImpl,
    /// The allocator's reserve beyond what is allocated (its own line).
    pub allocator_reserve: u64,
    /// The GPU's FP8 GEMMs need a transposed copy of each weight (Hopper, Ada; not Blackwell):
    /// set from the GPU by [`Inputs::on_gpu`], true without one.
    pub fp8_transpose: bool,
    /// Tokens of a shared prefix stored once per replica, whole blocks ([`prefix`]; 0: none).
    pub shared_prefix: u64,
    /// A speculative decoder's drafter, whole model ([`speculative`]; zero: none). Set by the
    /// evaluation, which resolves a draft model.
    pub drafter: speculative::Drafter,
}

impl Inputs {
    pub fn from_scenario(s: &Scenario) -> Inputs {
        let targets = LORA_TARGETS.map(|t| s.lora_targets_module(t));
        Inputs {
            mode: s.mode,
            weight: s.resolved_weight_dtype(),
            kv: s.resolved_kv_dtype(),
            activation: s.activation_dtype,
            group: s.int4_group_size,
            context: s.context_tokens,
            batch: s.batch,
            tp: s.tensor_parallel,
            pp: s.pipeline_parallel,
            dp: s.data_parallel().saturating_mul(s.context_parallel.max(1)),
            ep: s.expert_parallel,
            redundant_experts: s.redundant_experts,
            sequence_parallel: s.sequence_parallel,
            optimizer: s.optimizer,
            precision: s.training_precision,
            optimizer_in_backward: s.optimizer_in_backward,
            zero_stage: s.zero_stage,
            activation_offload: s.activation_offload,
            loss_chunks: s.loss_chunks,
            recompute: s.recompute,
            flash_attention: s.flash_attention,
            lora_rank: s.lora_rank,
            lora_targets: targets,
            kv_block_tokens: s.kv_block_tokens,
            prefill_chunk_tokens: s.prefill_chunk_tokens,
            overhead: s.runtime_overhead_bytes,
            weight_chosen: s.weight_dtype.is_some(),
            gpu_layers: s.gpu_layers,
            n_cpu_moe: s.n_cpu_moe,
            cp: s.context_parallel.max(1),
            vp: s.virtual_pipeline_stages.max(1),
            micro_batches: s.resolved_micro_batches().max(1),
            recompute_layers: s.recompute_layers,
            recipe: s.resolved_recipe(),
            fp8_primary_weights: s.fp8_primary_weights,
            loss_impl: s.loss_impl,
            allocator_reserve: s.allocator_reserve_bytes,
            fp8_transpose: true,
            shared_prefix: prefix::shared_block_tokens(s),
            drafter: speculative::Drafter::default(),
        }
    }

    /// [`Inputs::from_scenario`] on `gpu`: a GPU with an FP4 Tensor Core path (Blackwell) keeps
    /// one FP8 copy for both GEMM layouts (TE docs, "Performance considerations"); earlier FP8
    /// GPUs need the transpose.
    pub fn on_gpu(s: &Scenario, gpu: &super::gpu::Gpu) -> Inputs {
        let fp4 = gpu.peak_flops.fp4.is_some_and(|f| f > 0.0);
        Inputs { fp8_transpose: !fp4, ..Inputs::from_scenario(s) }
    }

    /// Tokens one GPU holds of a micro-batch: `batch × context / cp`.
    pub fn tokens_per_gpu(&self) -> u128 {
        (u128::from(self.context) * u128::from(self.batch)).div_ceil(u128::from(self.cp.max(1)))
    }

    /// Data-parallel replicas: the sharding group over the context-parallel size.
    pub fn replicas(&self) -> u64 {
        (self.dp / self.cp.max(1)).max(1)
    }

    /// Whether the weights are trained (full training) rather than frozen.
    pub fn full_training(&self) -> bool {
        self.mode == Mode::Training
    }

    /// Whether the run trains anything (training, LoRA, QLoRA).
    pub fn trains(&self) -> bool {
        self.mode != Mode::Inference
    }

    /// How one GPU holds the routed experts of `a` ([`expert_parallel::ExpertLayout`]).
    pub fn experts(&self, a: &Architecture) -> expert_parallel::ExpertLayout {
        expert_parallel::ExpertLayout::of_model(a, self.tp, self.ep, self.redundant_experts)
    }
}

/// Bytes on one GPU, by component: the one memory breakdown of the project. The engine sums
/// in `u128` (no overflow on any input); the report holds `u64` ([`MemoryBreakdown::from`]
/// saturates), and a chart row is a label plus the report's breakdown.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct MemoryBreakdown<T = u64> {
    pub weights: T,
    pub kv_cache: T,
    pub activations: T,
    /// The output logits (batch × sequence × vocabulary in training; one row per sequence in
    /// an inference prefill), with the fp32 copy the loss or the sampler makes.
    pub logits: T,
    pub gradients: T,
    pub optimizer: T,
    pub overhead: T,
    pub total: T,
    /// Fixed-size per-sequence state of linear-attention and Mamba layers (recurrent state and
    /// convolution cache): independent of the context length, times the concurrent sequences.
    pub recurrent_state: T,
    /// Quantised copies of the linear weights a low-precision training recipe caches
    /// ([`fp8`]).
    pub fp8_weight_cache: T,
    /// FSDP's unsharded layers and gradient buffer ([`fsdp`]).
    pub fsdp_buffers: T,
    /// The allocator's reserve beyond what is allocated (a stated input).
    pub allocator_reserve: T,
}

impl From<&MemoryBreakdown<u128>> for MemoryBreakdown<u64> {
    /// The engine's sums as report bytes (saturating at `u64::MAX`).
    fn from(m: &MemoryBreakdown<u128>) -> MemoryBreakdown<u64> {
        let b = |v: u128| u64::try_from(v).unwrap_or(u64::MAX);
        MemoryBreakdown {
            weights: b(m.weights),
            kv_cache: b(m.kv_cache),
            activations: b(m.activations),
            logits: b(m.logits),
            gradients: b(m.gradients),
            optimizer: b(m.optimizer),
            overhead: b(m.overhead),
            total: b(m.total),
            recurrent_state: b(m.recurrent_state),
            fp8_weight_cache: b(m.fp8_weight_cache),
            fsdp_buffers: b(m.fsdp_buffers),
            allocator_reserve: b(m.allocator_reserve),
        }
    }
}

/// The memory of one pipeline stage (the heaviest one is what the report shows).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct StageMemory {
    pub bytes: MemoryBreakdown<u128>,
    /// Which pipeline stage this is (0-based).
    pub stage: u64,
    /// Paged optimizer states of this stage (CUDA unified memory), not in `bytes`: they never
    /// make an allocation fail, and occupy the device only as far as it has room.
    pub paged_optimizer: u128,
}

impl std::ops::Deref for StageMemory {
    type Target = MemoryBreakdown<u128>;

    /// The stage's bytes (`stage_memory(..).total` reads as the stage's total).
    fn deref(&self) -> &MemoryBreakdown<u128> {
        &self.bytes
    }
}

/// The layers held by pipeline stage `stage` of `pp`.
pub fn stage_layers(layers: u64, pp: u64, stage: u64) -> std::ops::Range<usize> {
    let pp = pp.clamp(1, layers.max(1));
    let base = layers / pp;
    let extra = layers % pp;
    let start = stage * base + stage.min(extra);
    let len = base + u64::from(stage < extra);
    usize_sat(start)..usize_sat((start + len).min(layers))
}

/// The layers a GPU holds and whether it holds the embedding and the output layer: the
/// pipeline stage's, or with one stage the layers partial offload leaves on the GPU
/// ([`offload::Placement`]), with the layers whose experts stay in host memory.
struct GpuShare {
    layers: std::ops::Range<usize>,
    first: bool,
    last: bool,
    host_experts: std::ops::Range<usize>,
}

fn gpu_share(a: &Architecture, x: &Inputs, stage: u64) -> GpuShare {
    if x.pp <= 1 {
        let p = offload::Placement::of(a, x);
        return GpuShare {
            layers: p.gpu_layers(),
            first: !p.embedding_on_host,
            last: p.output_on_gpu,
            host_experts: p.host_expert_layers_on_gpu(),
        };
    }
    GpuShare {
        layers: stage_layers(a.layers, x.pp, stage),
        first: stage == 0,
        last: stage + 1 >= x.pp.min(a.layers.max(1)),
        host_experts: 0..0,
    }
}

/// Bytes of the routed experts of `layers` in the weights' format.
pub fn expert_bytes(a: &Architecture, x: &Inputs, layers: std::ops::Range<usize>) -> u128 {
    if layers.is_empty() || a.moe.is_none() {
        return 0;
    }
    if let Some(t) = &a.tensor_table {
        let (from, to) =
            (u32::try_from(layers.start).unwrap_or(u32::MAX), u32::try_from(layers.end).unwrap_or(u32::MAX));
        return x.experts(a).share(t.bytes(crate::engine::model::tensors::Part::LayersExperts { from, to }));
    }
    let params = x
        .experts(a)
        .share(layers.map(|i| super::model::params::layer_params(a, i).expert_matrices).sum::<u128>());
    match quant_weights::active(a, x) {
        Some(q) => {
            let format = q.formats.get(super::model::quant::ModuleClass::Experts);
            format.map_or(Dtype::Bf16.bytes_for(params, 1), |f| f.bytes_for(params, a.hidden))
        }
        None => x.weight.bytes_for(params, x.group),
    }
}

/// The weights one GPU of pipeline stage `stage` holds (less the experts kept in host memory).
pub fn stage_weights_of(a: &Architecture, x: &Inputs, stage: u64) -> weights::StageWeights {
    let GpuShare { layers, first, last, host_experts } = gpu_share(a, x, stage);
    let mut w = weights::stage_weights(a, x, layers, first, last);
    w.bytes = w.bytes.saturating_sub(expert_bytes(a, x, host_experts));
    w
}

/// Memory of one pipeline stage.
pub fn stage_memory(a: &Architecture, x: &Inputs, stage: u64) -> StageMemory {
    stage_memory_with(a, x, stage, stage_weights_of(a, x, stage))
}

/// KV cache of `x.batch` sequences of `x.context` tokens on one GPU holding `layers`, a shared
/// prefix of `p = x.shared_prefix` tokens (whole blocks) stored once: `kv(context − p) × batch +
/// kv(p)` ([`prefix`]); none on a model with sliding-window layers.
fn prefix_kv_bytes(a: &Architecture, x: &Inputs, layers: std::ops::Range<usize>) -> u128 {
    // A sliding-window layer keeps only the last tokens of each sequence, not the prefix: a
    // model with such layers is counted without sharing (an upper bound).
    let sliding = a.sliding_window.is_some() || a.gemma4.is_some();
    let p = if x.batch > 0 && !sliding { x.shared_prefix.min(x.context) } else { 0 };
    let kv = |tokens: u64, seqs: u64| {
        kv_cache_bytes(a, layers.clone(), tokens, seqs, x.kv_block_tokens, x.tp, x.kv, x.group)
    };
    let own = kv(x.context - p, x.batch);
    if p == 0 {
        own
    } else {
        own.saturating_add(kv(p, 1))
    }
}

/// One sequence's KV cache of `tokens` tokens on the first stage's GPU (its layers, this
/// tensor-parallel share, whole blocks): what a KV tier stores or restores for it.
pub fn sequence_kv_bytes(a: &Architecture, x: &Inputs, tokens: u64) -> u128 {
    let layers = gpu_share(a, x, 0).layers;
    kv_cache_bytes(a, layers, tokens, 1, x.kv_block_tokens, x.tp, x.kv, x.group)
}

/// [`stage_memory`] with the stage's weights already sized ([`stage_weights_of`]): they depend
/// on the layout and formats, not on the context or the batch a solver probes.
pub fn stage_memory_with(a: &Architecture, x: &Inputs, stage: u64, w: weights::StageWeights) -> StageMemory {
    let GpuShare { layers, first, last, .. } = gpu_share(a, x, stage);
    let (draft_weights, draft_kv) =
        if last && !x.trains() { speculative::per_gpu(&x.drafter, x) } else { (0, 0) };
    let kv_cache =
        if x.trains() { 0 } else { prefix_kv_bytes(a, x, layers.clone()).saturating_add(draft_kv) };
    let recurrent_state =
        if x.trains() { 0 } else { recurrent_state_bytes(a, layers.clone(), x.batch, x.tp, x.activation) };
    let activations = if x.trains() {
        activations::training_activation_bytes(a, x, layers.clone(), stage, last)
    } else {
        activations::inference_workspace_bytes(a, x, last)
    };
    let logits = if !last {
        0
    } else if x.trains() {
        logits::training_logits_bytes(a, x)
    } else {
        logits::inference_logits_bytes(a, x)
    };
    let fsdp_buffers = fsdp::fsdp_buffer_bytes(a, x, layers.clone(), first, last);
    let (fp8_weight_cache, primary_saving) = fp8_lines(a, x, &w, layers.clone());
    let mut states = model_states::stage_model_states(a, x, &w, layers);
    states.weights = states.weights.saturating_sub(primary_saving);
    let mut m = MemoryBreakdown {
        weights: states.weights.saturating_add(draft_weights),
        kv_cache,
        activations,
        logits,
        gradients: states.gradients,
        optimizer: states.optimizer,
        overhead: u128::from(x.overhead),
        total: 0,
        recurrent_state,
        fp8_weight_cache,
        fsdp_buffers,
        allocator_reserve: if x.trains() { u128::from(x.allocator_reserve) } else { 0 },
    };
    m.total = m.weights + m.kv_cache + m.activations + m.gradients + m.optimizer + m.overhead;
    m.total += m.logits + m.recurrent_state + m.fp8_weight_cache + m.fsdp_buffers + m.allocator_reserve;
    StageMemory { bytes: m, stage, paged_optimizer: states.paged_optimizer }
}

/// Linear-layer parameters whose quantised copies a low-precision recipe caches on a stage
/// ([`fp8`]): the stage's matrices (the embedding and the output layer stay in 16 bits:
/// Megatron's output layer is a plain `ColumnParallelLinear`), or under ZeRO-3 the two layers
/// gathered at once; 0 without a recipe.
pub fn fp8_cached_params(
    a: &Architecture,
    x: &Inputs,
    stage_matrices: u128,
    layers: std::ops::Range<usize>,
) -> u128 {
    if !x.full_training() || !x.recipe.is_low_precision() {
        return 0;
    }
    if x.zero_stage >= 3 && x.dp > 1 {
        let layer = layers.map(|i| weights::stage_weights(a, x, i..i + 1, false, false).matrix_params).max();
        2 * layer.unwrap_or(0)
    } else {
        stage_matrices
    }
}

/// [`fp8_cached_params`]' cache in bytes, and the 16-bit weights FP8 primary weights replace.
fn fp8_lines(
    a: &Architecture,
    x: &Inputs,
    w: &weights::StageWeights,
    layers: std::ops::Range<usize>,
) -> (u128, u128) {
    let cached = fp8_cached_params(a, x, w.matrix_params, layers);
    if cached == 0 {
        return (0, 0);
    }
    let cache = fp8::weight_cache_bytes(cached, x.recipe, x.fp8_transpose);
    if !x.fp8_primary_weights {
        return (cache, 0);
    }
    // Primary weights: the 16-bit linear weights are replaced by one row-wise quantised copy,
    // which the cache no longer needs to hold.
    let (pn, pd) = fp8::primary_bytes_per_param(x.recipe);
    let primary = (w.matrix_params * pn).div_ceil(pd);
    let sixteen = x.weight.bytes_for(w.matrix_params, x.group);
    let own = if x.zero_stage >= 3 { primary.div_ceil(u128::from(x.dp.max(1))) } else { primary };
    let replaced = if x.zero_stage >= 3 { sixteen.div_ceil(u128::from(x.dp.max(1))) } else { sixteen };
    let row_copy = (cached * pn).div_ceil(pd);
    (cache.saturating_sub(row_copy) + own, replaced)
}

/// What partial offload keeps in host memory (inference on one GPU; zero otherwise).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct HostParts {
    /// The token embedding (llama.cpp keeps it there always; otherwise with the first layers).
    pub embedding: u128,
    /// Decoder layers whose weights stay in host memory.
    pub layers: u64,
    /// GPU layers whose routed experts stay in host memory (`--n-cpu-moe`).
    pub expert_layers: u64,
    /// The routed experts of those layers.
    pub experts: u128,
    /// All the weights in host memory: the embedding, the host layers (with the output layer
    /// when it is not offloaded) and those experts.
    pub weights: u128,
    /// The KV cache of the layers in host memory.
    pub kv_cache: u128,
    /// Hybrid models: the fixed state of the layers in host memory.
    pub recurrent_state: u128,
}

impl HostParts {
    pub fn total(&self) -> u128 {
        self.weights + self.kv_cache + self.recurrent_state
    }
}

/// [`HostParts`] of a scenario: the complement of [`stage_memory`]'s GPU share.
pub fn host_parts(a: &Architecture, x: &Inputs) -> HostParts {
    if x.pp > 1 || x.trains() {
        return HostParts::default();
    }
    let p = offload::Placement::of(a, x);
    let layers = p.host_layers();
    let w = weights::stage_weights(a, x, layers.clone(), p.embedding_on_host, !p.output_on_gpu);
    let embedding =
        if p.embedding_on_host { weights::stage_weights(a, x, 0..0, true, false).bytes } else { 0 };
    let experts = expert_bytes(a, x, p.host_expert_layers_on_gpu());
    HostParts {
        embedding,
        layers: p.gpu_start,
        expert_layers: p.host_expert_layers_on_gpu().len() as u64,
        experts,
        weights: w.bytes + experts,
        kv_cache: kv_cache_bytes(a, layers.clone(), x.context, x.batch, x.kv_block_tokens, 1, x.kv, x.group),
        recurrent_state: recurrent_state_bytes(a, layers, x.batch, 1, x.activation),
    }
}

/// Memory of the heaviest GPU.
pub fn memory_per_gpu(a: &Architecture, x: &Inputs) -> StageMemory {
    let stages = x.pp.min(a.layers.max(1));
    (0..stages).map(|s| stage_memory(a, x, s)).max_by_key(|m| m.total).unwrap_or_default()
}

/// Each pipeline stage's weights on one GPU ([`stage_weights_of`]), for [`memory_per_gpu_with`].
pub fn weights_by_stage(a: &Architecture, x: &Inputs) -> Vec<weights::StageWeights> {
    (0..x.pp.min(a.layers.max(1))).map(|s| stage_weights_of(a, x, s)).collect()
}

/// [`memory_per_gpu`] with each stage's weights already sized ([`weights_by_stage`] of inputs
/// that differ from `x` in context or batch only).
pub fn memory_per_gpu_with(a: &Architecture, x: &Inputs, weights: &[weights::StageWeights]) -> StageMemory {
    weights
        .iter()
        .zip(0u64..)
        .map(|(w, s)| stage_memory_with(a, x, s, *w))
        .max_by_key(|m| m.total)
        .unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stages_split_layers_evenly() {
        assert_eq!(stage_layers(80, 1, 0), 0..80);
        assert_eq!(stage_layers(61, 4, 0), 0..16);
        assert_eq!(stage_layers(61, 4, 3), 46..61);
        let total: usize = (0..7).map(|s| stage_layers(30, 7, s).len()).sum();
        assert_eq!(total, 30);
    }
}
