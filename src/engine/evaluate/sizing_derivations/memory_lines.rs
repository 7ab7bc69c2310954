//! The derivations of `memory_per_gpu_bytes.*` (and `weight_bits_per_element`): each line of
//! the heaviest GPU's memory, with the formula and source it was computed from.

use super::{entry, Entry};
use crate::engine::derivation::{DerivKey, Formula, Source, Val};
use crate::engine::evaluate::Sizing;
use crate::engine::memory::checkpointing::{in_flight, kept_per_token, policy_layers};
use crate::engine::memory::fp8::cache_bytes_per_param;
use crate::engine::memory::fp8_cached_params;
use crate::engine::memory::fsdp::fsdp_buffer_parts;
use crate::engine::memory::logits::{loss_working_tokens, OFFLOAD_LAYERS_ON_GPU};
use crate::engine::memory::model_states::{
    adapter_dtype, full_gradient_dtype, optimizer_bytes_per_param, paged,
};
use crate::engine::memory::{quant_weights, stage_layers, Inputs, StageMemory};
use crate::engine::model::hybrid::{ssm_state_dtype, state_elements};
use crate::engine::model::kv_cache::kv_elements_per_token_per_layer;
use crate::engine::model::{gemma4, Architecture};
use crate::engine::precision::Dtype;
use crate::engine::workload::LossImpl;

/// Every memory line of the sizing `z`: weights and their bits, KV cache, activations,
/// logits, recurrent state, gradients, optimizer states, overhead and the total.
pub(super) fn memory_line_derivations(a: &Architecture, z: &Sizing) -> Vec<Entry> {
    let (x, mem) = (&z.inputs, &z.memory);
    let mut lines = weight_derivations(a, x, z).to_vec();
    lines.extend([
        kv_cache(a, x, mem),
        activations(a, x, mem),
        logits(a, x, mem),
        recurrent_state(a, x, mem),
        gradients(x, mem),
        optimizer(x, z),
        fp8_weight_cache(a, x, mem),
        fsdp_buffers(a, x, mem),
        allocator_reserve(x, mem),
    ]);
    if x.trains() && paged(x.optimizer) {
        lines.push(host_memory(z));
    } else if z.host_parts.total() > 0 {
        lines.push(host_offload(z));
    }
    lines.extend(total_derivations(mem));
    lines
}

/// `memory_per_gpu_bytes.weights`: the stage's parameters over tensor parallelism in the
/// weight format (Megatron TP, Shoeybi et al. 2019), or per module class when a config's
/// quantisation applies; and `weight_bits_per_element`, the matrices' bits with their scales
/// (GPTQ/AWQ/QLoRA storage formats).
fn weight_derivations(a: &Architecture, x: &Inputs, z: &Sizing) -> [Entry; 2] {
    let mem = &z.memory;
    let weights = match (&a.tensor_table, quant_weights::active(a, x)) {
        (Some(t), _) => table_weights(t, x, z),
        (None, Some(q)) => {
            let (f, v, src) = quant_weights::mixed_weights_derivation(a, q, x, mem.stage, mem.weights);
            entry(DerivKey::MemWeights, f, v, src)
        }
        (None, None) => entry(
            DerivKey::MemWeights,
            Formula::Weights,
            vec![
                Val::int(mem.stage),
                Val::int(x.pp),
                Val::int(x.tp),
                Val::Dtype(x.weight),
                Val::Bits(x.weight, x.group),
                Val::Bytes(mem.weights),
            ],
            Source::cited("Shoeybi et al. 2019 (Megatron TP); GPTQ/AWQ/QLoRA storage formats"),
        ),
    };
    let (f, v, src) = quant_weights::bits_derivation(&z.weight_format, a.hidden);
    [weights, entry(DerivKey::WeightBits, f, v, src)]
}

/// `memory_per_gpu_bytes.kv_cache`: `batch × context × elements per token per layer × bits`
/// over the stage's layers (PagedAttention); Gemma 4 by layer kind, its KV-shared layers
/// storing none.
fn kv_cache(a: &Architecture, x: &Inputs, mem: &StageMemory) -> Entry {
    let bits = Val::Bits(x.kv, x.group);
    let (formula, values) = match &a.gemma4 {
        Some(g) => {
            let layers = stage_layers(a.layers, x.pp, mem.stage);
            let values = gemma4::kv_cache_values(a, g, layers, x.batch, x.context, x.tp);
            (
                Formula::KvCacheByLayerKind,
                values.into_iter().chain([bits, Val::Bytes(mem.kv_cache)]).collect(),
            )
        }
        None => (
            Formula::KvCache,
            vec![
                Val::int(x.batch),
                Val::int(x.context),
                Val::Int(kv_elements_per_token_per_layer(a, x.tp)),
                bits,
                Val::Bytes(mem.kv_cache),
            ],
        ),
    };
    entry(DerivKey::MemKvCache, formula, values, Source::PagedAttention)
}

/// `memory_per_gpu_bytes.activations`: saved activations in training (Korthikanti et al. 2022
/// §4) or the prefill workspace in inference (vLLM's profile run); with activation offload,
/// only the layers in flight stay on the GPU (torchtune OffloadActivations, PyTorch
/// `save_on_cpu`).
fn activations(a: &Architecture, x: &Inputs, mem: &StageMemory) -> Entry {
    if x.trains() && x.activation_offload {
        let layers = stage_layers(a.layers, x.pp, mem.stage).len() as u128;
        return entry(
            DerivKey::MemActivations,
            Formula::ActivationsOffloaded,
            vec![
                Val::int(x.context),
                Val::int(x.batch),
                Val::Recompute(x.recompute),
                Val::Int(layers.min(OFFLOAD_LAYERS_ON_GPU)),
                Val::Int(layers),
                Val::Bytes(mem.activations),
            ],
            Source::cited(
                "Korthikanti et al. 2022 §4; torchtune OffloadActivations (enable_activation_offloading, use_streams); PyTorch torch.autograd.graph.save_on_cpu",
            ),
        );
    }
    if !x.trains() {
        return entry(
            DerivKey::MemActivations,
            Formula::ActivationsInference,
            vec![
                Val::int(x.context),
                Val::int(x.batch),
                Val::Recompute(x.recompute),
                Val::Bool(x.flash_attention),
                Val::Bool(x.sequence_parallel),
                Val::Bytes(mem.activations),
            ],
            Source::cited("vLLM gpu_model_runner.py profile_run"),
        );
    }
    let layers = stage_layers(a.layers, x.pp, mem.stage).len() as u128;
    let (num, den) = in_flight(x.pp, mem.stage, x.micro_batches, x.vp);
    let (rep, split) = kept_per_token(a, x, x.recompute);
    entry(
        DerivKey::MemActivations,
        Formula::ActivationsTraining,
        vec![
            Val::int(x.context),
            Val::int(x.batch),
            Val::int(x.cp),
            Val::Recompute(x.recompute),
            Val::Int(policy_layers(x, layers)),
            Val::Int(layers),
            Val::Int(rep + split),
            Val::Bool(x.flash_attention),
            Val::Bool(x.sequence_parallel),
            Val::Fixed(num as f64 / den.max(1) as f64, 2),
            Val::Bytes(mem.activations),
        ],
        Source::cited(
            "Korthikanti et al. 2022 §4-5 (saved tensors, selective recomputation, interleaving); torchtitan activation_checkpoint.py (op-level selective); Megatron recompute_method block; Narayanan et al. 2021 §2.2 (1F1B in flight)",
        ),
    )
}

/// `memory_per_gpu_bytes.logits`: in training, `tokens × vocab / tp` logits in the compute
/// dtype plus the loss's fp32 upcast of all of them or of one chunk (transformers
/// `ForCausalLMLoss`, torchtune `CEWithChunkedOutputLoss`); in inference, one fp32 row per
/// sequence at the sampled position (vLLM `LogitsProcessor`).
fn logits(a: &Architecture, x: &Inputs, mem: &StageMemory) -> Entry {
    let columns = u128::from(a.vocab).div_ceil(u128::from(x.tp.max(1)));
    if !x.trains() {
        return entry(
            DerivKey::MemLogits,
            Formula::LogitsInference,
            vec![Val::int(x.batch), Val::Int(columns), Val::Bytes(mem.logits)],
            Source::cited("vLLM logits_processor.py LogitsProcessor"),
        );
    }
    let (held, upcast, fp32) = loss_working_tokens(a, x);
    entry(
        DerivKey::MemLogits,
        Formula::LogitsTraining,
        vec![
            Val::Id(loss_name(x.loss_impl).to_owned()),
            Val::Count(held),
            Val::Int(columns),
            Val::Bytes(x.activation.bytes_for(held * columns, x.group)),
            Val::Count(upcast),
            Val::int(x.loss_chunks),
            Val::Int(columns),
            Val::Int(fp32),
            Val::Bytes(mem.logits),
        ],
        Source::cited(
            "Hugging Face transformers ForCausalLMLoss and torchtitan train.py (logits upcast to fp32, log-softmax saved); torchtune CEWithChunkedOutputLoss (one chunk upcast at a time); Megatron vocab_parallel_cross_entropy and fused cross-entropy; Liger FusedLinearCrossEntropy chunk rule",
        ),
    )
}

/// The scenario's name of a loss implementation.
fn loss_name(l: LossImpl) -> &'static str {
    match l {
        LossImpl::Upcast => "upcast",
        LossImpl::VocabParallel => "vocab_parallel",
        LossImpl::Fused => "fused",
        LossImpl::FusedLinear => "fused_linear",
    }
}

/// `memory_per_gpu_bytes.fp8_weight_cache`: the quantised copies of the linear weights a
/// low-precision recipe keeps (TE docs, "Performance considerations → Memory usage"; Megatron's
/// cached FP8 weight workspaces), [`crate::engine::memory::fp8`].
fn fp8_weight_cache(a: &Architecture, x: &Inputs, mem: &StageMemory) -> Entry {
    let layers = stage_layers(a.layers, x.pp, mem.stage);
    let first = mem.stage == 0;
    let matrices =
        crate::engine::memory::weights::stage_weights(a, x, layers.clone(), first, false).matrix_params;
    let cached = fp8_cached_params(a, x, matrices, layers);
    let (n, d) = cache_bytes_per_param(x.recipe, x.fp8_transpose);
    entry(
        DerivKey::MemFp8WeightCache,
        Formula::Fp8WeightCache,
        vec![
            Val::Id(x.recipe.name().to_owned()),
            Val::Bool(x.fp8_transpose),
            Val::Count(cached),
            Val::Fixed(n as f64 / d.max(1) as f64, 4),
            Val::Bool(x.fp8_primary_weights),
            Val::Bytes(mem.fp8_weight_cache),
        ],
        Source::cited(
            "Transformer Engine docs, Low precision training: Performance considerations (memory usage), mxfp8.rst, nvfp4.rst; Megatron extensions/transformer_engine.py (is_first_microbatch weight caching)",
        ),
    )
}

/// `memory_per_gpu_bytes.fsdp_buffers`: FSDP's unsharded layers and gradient buffer
/// ([`crate::engine::memory::fsdp`]).
fn fsdp_buffers(a: &Architecture, x: &Inputs, mem: &StageMemory) -> Entry {
    let layers = stage_layers(a.layers, x.pp, mem.stage);
    let last = mem.stage + 1 >= x.pp.min(a.layers.max(1));
    let p = fsdp_buffer_parts(a, x, layers, mem.stage == 0, last);
    entry(
        DerivKey::MemFsdpBuffers,
        Formula::FsdpBuffers,
        vec![
            Val::int(u64::from(x.zero_stage)),
            Val::int(x.dp),
            Val::Bytes(p.layer),
            Val::Bytes(p.outer),
            Val::Bytes(p.layer),
            Val::Bytes(p.gradients),
            Val::Bytes(mem.fsdp_buffers),
        ],
        Source::cited("Zhao et al. 2023, PyTorch FSDP (arXiv:2304.11277) §3; torchtitan parallelize_llama.py (root and per-block units)"),
    )
}

/// `memory_per_gpu_bytes.allocator_reserve`: the stated reserve of the caching allocator.
fn allocator_reserve(x: &Inputs, mem: &StageMemory) -> Entry {
    entry(
        DerivKey::MemAllocatorReserve,
        Formula::AllocatorReserve,
        vec![Val::Bytes(u128::from(x.allocator_reserve)), Val::Bytes(mem.allocator_reserve)],
        Source::StatedAssumption,
    )
}

/// `memory_per_gpu_bytes.recurrent_state`: the fixed-size state of the stage's recurrent
/// layers per sequence on this GPU, the convolution cache in the model dtype and the recurrent
/// state in the config's SSM dtype (vLLM `MambaStateShapeCalculator` /
/// `MambaStateDtypeCalculator`; Gated DeltaNet, Mamba-2), times the sequences (none in
/// training).
fn recurrent_state(a: &Architecture, x: &Inputs, mem: &StageMemory) -> Entry {
    let layers = stage_layers(a.layers, x.pp, mem.stage);
    let per_layer: Vec<(u128, u128)> =
        layers.map(|i| state_elements(a, i, x.tp)).filter(|e| *e != (0, 0)).collect();
    let (conv, ssm) = per_layer.iter().fold((0u128, 0u128), |s, e| (s.0 + e.0, s.1 + e.1));
    entry(
        DerivKey::MemRecurrentState,
        Formula::RecurrentState,
        vec![
            Val::int(per_layer.len() as u64),
            Val::Count(conv),
            Val::Dtype(x.activation),
            Val::Count(ssm),
            Val::Dtype(ssm_state_dtype(a, x.activation)),
            Val::int(if x.trains() { 0 } else { x.batch }),
            Val::Bytes(mem.recurrent_state),
        ],
        Source::cited(
            "vLLM MambaStateShapeCalculator / MambaStateDtypeCalculator (vllm/model_executor/layers/mamba/mamba_utils.py); Yang et al. 2024 (Gated DeltaNet); Dao & Gu 2024 (Mamba-2)",
        ),
    )
}

/// The trained tensors' format: the weights in full training, the adapters otherwise.
fn trained_dtype(x: &Inputs) -> Dtype {
    if x.full_training() {
        x.weight
    } else {
        adapter_dtype(x.precision)
    }
}

/// `memory_per_gpu_bytes.gradients`: one gradient per trained parameter in the trained format
/// (fp32 under `mixed_fp32_grads`),
/// sharded by ZeRO stage 2 and up (Rajbhandari et al. 2020), only the largest layer's with
/// the optimizer step fused into the backward pass (PyTorch, torchtune `optimizer_in_bwd`).
fn gradients(x: &Inputs, mem: &StageMemory) -> Entry {
    entry(
        DerivKey::MemGradients,
        Formula::Gradients,
        vec![
            Val::Precision(x.precision),
            Val::Dtype(if !x.trains() {
                x.weight
            } else if x.full_training() {
                full_gradient_dtype(x)
            } else {
                trained_dtype(x)
            }),
            Val::Bool(x.optimizer_in_backward),
            Val::int(u64::from(x.zero_stage)),
            Val::int(x.dp),
            Val::Bytes(mem.gradients),
        ],
        Source::cited(
            "Rajbhandari et al. 2020 (ZeRO); optimizer in backward: PyTorch tutorial \"How to save memory by fusing the optimizer step into the backward pass\", torchtune optimizer_in_bwd",
        ),
    )
}

/// `memory_per_gpu_bytes.optimizer`: bytes of state per trainable parameter (Adam K = 12 under
/// mixed precision, ZeRO; 8-bit states, Dettmers et al. 2022) sharded by ZeRO stage 1 and up;
/// bitsandbytes' paged optimizers: the states in unified memory, on the device as far as it
/// has room (`model_states::resident_paged_bytes`).
fn optimizer(x: &Inputs, z: &Sizing) -> Entry {
    let mem = &z.memory;
    let per_param = optimizer_bytes_per_param(x.optimizer, x.precision, trained_dtype(x));
    if x.trains() && paged(x.optimizer) {
        let states = mem.paged_optimizer;
        return entry(
            DerivKey::MemOptimizer,
            Formula::OptimizerPaged,
            vec![
                Val::Optimizer(x.optimizer),
                Val::Precision(x.precision),
                Val::Int(per_param),
                Val::Bytes(states),
                Val::Bytes(states),
                Val::Bytes(u128::from(z.gpu_memory_bytes)),
                Val::Bytes(z.must_fit),
                Val::Bytes(mem.optimizer),
            ],
            Source::cited(PAGED_SOURCE),
        );
    }
    entry(
        DerivKey::MemOptimizer,
        Formula::Optimizer,
        vec![
            Val::Optimizer(x.optimizer),
            Val::Precision(x.precision),
            Val::Int(per_param),
            Val::int(u64::from(x.zero_stage)),
            Val::int(x.dp),
            Val::Bytes(mem.optimizer),
        ],
        Source::cited(
            "Rajbhandari et al. 2020 (ZeRO) K=12 for Adam; Micikevicius et al. 2018 (mixed precision); Dettmers et al. 2022 (8-bit optimizers); torchtune bf16 recipes",
        ),
    )
}

/// Where paged optimizer states live: bitsandbytes allocates them with `cudaMallocManaged` and
/// wraps them as CPU tensors (`torch.frombuffer`), so PyTorch's allocator statistics never
/// count them; the driver keeps them on the device until it is oversubscribed.
const PAGED_SOURCE: &str = "bitsandbytes functional.get_paged (cudaMallocManaged, torch.frombuffer) and Optimizer8bit.prefetch_state; CUDA C++ Programming Guide, Unified Memory (on-demand migration, oversubscription); bitsandbytes docs, Paged optimizers";

/// `memory_per_gpu_bytes.weights` from llama.cpp's tensor table: the tensors of the layers on
/// this GPU (and of the output layer when it is there), by type.
fn table_weights(t: &crate::engine::model::tensors::TensorTable, x: &Inputs, z: &Sizing) -> Entry {
    use crate::engine::model::tensors::Part;
    let p = &z.placement;
    let (from, to) =
        (u32::try_from(p.gpu_start).unwrap_or(u32::MAX), u32::try_from(p.layers).unwrap_or(u32::MAX));
    let on_gpu = |x: &crate::engine::model::tensors::Tensor| {
        Part::LayersDense { from, to }.takes(x)
            || Part::LayersExperts { from, to }.takes(x)
            || (p.output_on_gpu && Part::OutputLayer.takes(x))
    };
    let held =
        crate::engine::model::tensors::TensorTable::new(t.tensors.iter().copied().filter(on_gpu).collect());
    let types = held
        .type_counts()
        .iter()
        .map(|c| format!("{} {}", c.ty.name(), c.tensors))
        .collect::<Vec<_>>()
        .join(", ");
    let layers =
        if p.gpu_start < p.layers { format!("{}–{}", p.gpu_start, p.layers - 1) } else { "–".to_owned() };
    entry(
        DerivKey::MemWeights,
        Formula::WeightsTable,
        vec![
            Val::Dtype(x.weight),
            Val::Int(held.tensors.len() as u128),
            Val::Id(types),
            Val::Id(layers),
            Val::Bool(p.output_on_gpu),
            Val::Bool(p.embedding_on_host),
            Val::Bytes(z.memory.weights),
        ],
        Source::cited(
            "ggml block layouts (ggml-common.h, ggml.c type_traits); llama.cpp src/llama-quant.cpp llama_tensor_get_type (file types); src/llama-model.cpp load_tensors (placement)",
        ),
    )
}

/// `host_memory_bytes` under partial offload: the embedding, the layers and experts kept in host
/// memory and their cache.
fn host_offload(z: &Sizing) -> Entry {
    let h = &z.host_parts;
    let layer_weights = h.weights.saturating_sub(h.embedding).saturating_sub(h.experts);
    entry(
        DerivKey::HostMemory,
        Formula::HostOffload,
        vec![
            Val::Bytes(h.embedding),
            Val::int(h.layers),
            Val::Bytes(layer_weights),
            Val::int(h.expert_layers),
            Val::Bytes(h.experts),
            Val::Bytes(h.kv_cache + h.recurrent_state),
            Val::Bytes(z.host - h.total()),
            Val::Bytes(z.host),
        ],
        Source::cited(
            "llama.cpp src/llama-model.cpp load_tensors, common/common.h --n-cpu-moe, src/llama-kv-cache.cpp",
        ),
    )
}

/// `host_memory_bytes`: the paged optimizer states the device has no room for.
fn host_memory(z: &Sizing) -> Entry {
    let mem = &z.memory;
    let spilled = z.host - z.host_parts.total();
    let resident = mem.paged_optimizer - spilled;
    entry(
        DerivKey::HostMemory,
        Formula::HostPagedStates,
        vec![Val::Bytes(mem.paged_optimizer), Val::Bytes(resident), Val::Bytes(spilled)],
        Source::cited(PAGED_SOURCE),
    )
}

/// `memory_per_gpu_bytes.overhead` (the stated runtime overhead) and `.total`, the sum of
/// every line.
fn total_derivations(mem: &StageMemory) -> [Entry; 2] {
    let lines = [
        mem.weights,
        mem.kv_cache,
        mem.activations,
        mem.logits,
        mem.gradients,
        mem.optimizer,
        mem.overhead,
        mem.recurrent_state,
        mem.fp8_weight_cache,
        mem.fsdp_buffers,
        mem.allocator_reserve,
        mem.total,
    ];
    [
        entry(
            DerivKey::MemOverhead,
            Formula::Overhead,
            vec![Val::Bytes(mem.overhead)],
            Source::OverheadAssumption,
        ),
        entry(DerivKey::MemTotal, Formula::MemoryTotal, lines.map(Val::Bytes).to_vec(), Source::Sum),
    ]
}
