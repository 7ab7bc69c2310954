//! Weights, gradients and optimizer states when training, and their ZeRO sharding.
//!
//! Mixed-precision Adam keeps 16-bit weights and gradients plus fp32 master weights and two
//! fp32 moments: 2 + 2 + 12 = 16 bytes per parameter (Rajbhandari et al. 2020, "ZeRO", §3:
//! K = 12). 8-bit Adam stores the moments in 1 byte each (Dettmers et al. 2022); SGD with
//! momentum one fp32 buffer; plain SGD none. Pure fp32 training needs no master copy.
//! ZeRO over the data-parallel size `N_d`: stage 1 shards optimizer states, stage 2 also
//! gradients, stage 3 (FSDP full shard) also weights. LoRA trains only the adapters, kept in
//! fp32 as PEFT does by default (`autocast_adapter_dtype=True`), so they need no master copy.
//!
//! `training_precision`: `mixed` is the above, `mixed_fp32_grads` the same with fp32 gradients
//! (4 bytes each; Megatron's default for bf16); `bf16` keeps weights (adapters), gradients and
//! optimizer states all in bf16 with no master copy, as single-device fine-tuning recipes run
//! (torchtune `dtype: bf16`): AdamW then needs 2 + 2 + 4 = 8 bytes per parameter; `fp32` keeps
//! everything in fp32 (4 + 4 + 8 = 16 for AdamW). With the optimizer step fused into the
//! backward pass (PyTorch tutorial "How to save memory by fusing the optimizer step into the
//! backward pass"; torchtune `optimizer_in_bwd`) each gradient is freed once applied: at most
//! one layer's gradients are alive, counted here as the largest layer's.

use super::weights::StageWeights;
use super::{lora, Inputs};
use crate::engine::model::Architecture;
use crate::engine::precision::Dtype;
use crate::engine::workload::{Optimizer, TrainingPrecision};

/// Bytes of weights, gradients and optimizer states on one GPU.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ModelStates {
    pub weights: u128,
    pub gradients: u128,
    /// Optimizer states the allocator must find room for on the device.
    pub optimizer: u128,
    /// Optimizer states in CUDA unified memory (paged optimizers): on the device only as far as
    /// there is room, see [`resident_paged_bytes`].
    pub paged_optimizer: u128,
}

/// Optimizer bytes per trainable parameter: moments (fp32, or bf16 under `bf16` precision;
/// 8-bit Adam's stay 1 byte each) plus an fp32 master copy when the trained weights are
/// narrower than fp32, except under `bf16` precision, which keeps none.
pub fn optimizer_bytes_per_param(
    optimizer: Optimizer,
    precision: TrainingPrecision,
    trained_dtype: Dtype,
) -> u128 {
    let state = if precision == TrainingPrecision::Bf16 { 2 } else { 4 };
    let moments = match optimizer {
        Optimizer::Adamw | Optimizer::PagedAdamw => 2 * state,
        Optimizer::Adam8bit | Optimizer::PagedAdam8bit => 2,
        Optimizer::Sgd => 0,
        Optimizer::SgdMomentum => state,
    };
    let master = if trained_dtype == Dtype::Fp32 || precision == TrainingPrecision::Bf16 { 0 } else { 4 };
    moments + master
}

/// Whether the optimizer keeps its states in CUDA unified memory (bitsandbytes paged
/// optimizers: "automatically evicted to CPU RAM when the GPU runs out of memory", bitsandbytes
/// docs "Paged optimizers"; QLoRA §3). They never make an allocation fail, so they are not part
/// of what must fit; how much of them sits on the device is [`resident_paged_bytes`].
pub fn paged(optimizer: Optimizer) -> bool {
    match optimizer {
        Optimizer::PagedAdam8bit | Optimizer::PagedAdamw => true,
        Optimizer::Adamw | Optimizer::Adam8bit | Optimizer::Sgd | Optimizer::SgdMomentum => false,
    }
}

/// Bytes of paged optimizer states resident on the device: all of them while the device has
/// room, else what is left of its memory after everything that must fit,
/// `min(states, max(0, device − rest))`.
///
/// bitsandbytes allocates each state of more than 100K elements with `cudaMallocManaged`
/// (`functional.get_paged`) and prefetches it to the device before every update
/// (`cudaMemPrefetchAsync`, `Optimizer8bit.prefetch_state`); the driver keeps the pages there
/// and moves them to host memory only when the device is oversubscribed (CUDA C++ Programming
/// Guide, "Unified Memory": on-demand migration and oversubscription). So with room to spare
/// the states occupy the device as an ordinary optimizer's would; only a device that runs
/// short pages them out.
pub fn resident_paged_bytes(states: u128, device: u128, rest: u128) -> u128 {
    states.min(device.saturating_sub(rest))
}

/// The part of model states `m` that paging moves into unified memory.
fn page_optimizer(m: ModelStates, optimizer: Optimizer) -> ModelStates {
    if paged(optimizer) {
        ModelStates { optimizer: 0, paged_optimizer: m.optimizer, ..m }
    } else {
        m
    }
}

/// Format of the gradients of full training: fp32 under `mixed_fp32_grads` (Megatron's fp32
/// `main_grad`), else the weights' format.
pub fn full_gradient_dtype(x: &Inputs) -> Dtype {
    if x.precision == TrainingPrecision::MixedFp32Grads {
        Dtype::Fp32
    } else {
        x.weight
    }
}

/// Format of LoRA adapters (and their gradients): bf16 under `bf16` precision, else fp32.
pub fn adapter_dtype(precision: TrainingPrecision) -> Dtype {
    if precision == TrainingPrecision::Bf16 {
        Dtype::Bf16
    } else {
        Dtype::Fp32
    }
}

/// Trainable parameters whose gradients are held at once: all of them, or the largest
/// layer's when the optimizer runs inside the backward pass.
pub fn gradient_params(all: u128, largest_layer: u128, in_backward: bool) -> u128 {
    if in_backward {
        largest_layer.min(all)
    } else {
        all
    }
}

/// ZeRO sharding of (weights, gradients, optimizer) bytes over `dp` replicas.
pub fn zero_shard(weights: u128, gradients: u128, optimizer: u128, stage: u8, dp: u64) -> ModelStates {
    let dp = u128::from(dp.max(1));
    let shard = |bytes: u128, from_stage: u8| if stage >= from_stage { bytes.div_ceil(dp) } else { bytes };
    ModelStates {
        weights: shard(weights, 3),
        gradients: shard(gradients, 2),
        optimizer: shard(optimizer, 1),
        paged_optimizer: 0,
    }
}

/// Weights, gradients and optimizer states of full training, ZeRO-sharded: the dense
/// parameters over the `dp` replicas, the routed experts' over the replicas of each expert slice
/// (`edp = tp·dp / (ep·moe_tp)`, Megatron-Core's expert data-parallel group;
/// [`super::expert_parallel::ExpertLayout::expert_data_parallel`]), which is `dp` without
/// expert parallelism.
///
/// # Formula
/// `states = shard(dense, dp) + shard(experts, edp)`, each part `shard(W, G, O)` as
/// [`zero_shard`]. Worked: 3.62 B expert parameters per GPU at EP 8 over 8 GPUs (TP 1, DP 8),
/// mixed-precision Adam, ZeRO-1: their 12 bytes of states per parameter stay whole (edp 1,
/// 43.5 GB) where the dense parameters' are divided by 8.
fn full_training_states(a: &Architecture, x: &Inputs, w: &StageWeights) -> ModelStates {
    let per_param = optimizer_bytes_per_param(x.optimizer, x.precision, x.weight);
    let edp = x.experts(a).expert_data_parallel(x.tp, x.dp);
    if w.expert_params == 0 || edp == x.dp.max(1) || x.optimizer_in_backward {
        let grad_params = gradient_params(w.params, w.largest_layer_params, x.optimizer_in_backward);
        let grad_bytes = full_gradient_dtype(x).bytes_for(grad_params, x.group);
        return zero_shard(w.bytes, grad_bytes, w.params * per_param, x.zero_stage, x.dp);
    }
    let dense_params = w.params.saturating_sub(w.expert_params);
    let dense = zero_shard(
        w.bytes.saturating_sub(w.expert_bytes),
        full_gradient_dtype(x).bytes_for(dense_params, x.group),
        dense_params * per_param,
        x.zero_stage,
        x.dp,
    );
    let experts = zero_shard(
        w.expert_bytes,
        full_gradient_dtype(x).bytes_for(w.expert_params, x.group),
        w.expert_params * per_param,
        x.zero_stage,
        edp,
    );
    ModelStates {
        weights: dense.weights + experts.weights,
        gradients: dense.gradients + experts.gradients,
        optimizer: dense.optimizer + experts.optimizer,
        paged_optimizer: 0,
    }
}

/// Model states of one pipeline stage on one GPU.
pub fn stage_model_states(
    a: &Architecture,
    x: &Inputs,
    w: &StageWeights,
    layers: std::ops::Range<usize>,
) -> ModelStates {
    if !x.trains() {
        return ModelStates { weights: w.bytes, ..Default::default() };
    }
    if x.full_training() {
        return page_optimizer(full_training_states(a, x, w), x.optimizer);
    }
    // LoRA / QLoRA: frozen base (sharded only by ZeRO-3), adapters in fp32 (bf16 under bf16).
    let dtype = adapter_dtype(x.precision);
    let adapters = lora::adapter_params(a, x, layers.clone());
    let largest = layers.map(|i| lora::adapter_params(a, x, i..i + 1)).max().unwrap_or(0);
    let grad_params = gradient_params(adapters, largest, x.optimizer_in_backward);
    let sharded = zero_shard(
        dtype.bytes_for(adapters, x.group),
        dtype.bytes_for(grad_params, x.group),
        adapters * optimizer_bytes_per_param(x.optimizer, x.precision, dtype),
        x.zero_stage,
        x.dp,
    );
    let sharded = page_optimizer(sharded, x.optimizer);
    let base = if x.zero_stage >= 3 { w.bytes.div_ceil(u128::from(x.dp.max(1))) } else { w.bytes };
    ModelStates { weights: base + sharded.weights, ..sharded }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// ZeRO paper, Figure 1: 7.5B parameters, Adam (K = 12), N_d = 64.
    #[test]
    fn zero_paper_7_5b_on_64_gpus() {
        let psi: u128 = 7_500_000_000;
        let k = optimizer_bytes_per_param(Optimizer::Adamw, TrainingPrecision::Mixed, Dtype::Fp16);
        assert_eq!(k, 12);
        let per_device = |stage| {
            let s = zero_shard(2 * psi, 2 * psi, k * psi, stage, 64);
            s.weights + s.gradients + s.optimizer
        };
        assert_eq!(per_device(0), 120_000_000_000);
        assert_eq!(per_device(1), 31_406_250_000); // 31.4 GB
        assert_eq!(per_device(2), 16_640_625_000); // 16.6 GB
        assert_eq!(per_device(3), 1_875_000_000); // 1.9 GB
    }

    #[test]
    fn optimizer_bytes_for_each_choice() {
        use TrainingPrecision::{Bf16, Fp32, Mixed};
        assert_eq!(optimizer_bytes_per_param(Optimizer::Adamw, Mixed, Dtype::Fp32), 8);
        assert_eq!(optimizer_bytes_per_param(Optimizer::Adam8bit, Mixed, Dtype::Bf16), 6);
        assert_eq!(optimizer_bytes_per_param(Optimizer::Sgd, Mixed, Dtype::Bf16), 4);
        assert_eq!(optimizer_bytes_per_param(Optimizer::SgdMomentum, Mixed, Dtype::Fp32), 4);
        // bf16 recipes: moments in bf16, no master copy.
        assert_eq!(optimizer_bytes_per_param(Optimizer::Adamw, Bf16, Dtype::Bf16), 4);
        assert_eq!(optimizer_bytes_per_param(Optimizer::Adam8bit, Bf16, Dtype::Bf16), 2);
        assert_eq!(optimizer_bytes_per_param(Optimizer::Sgd, Bf16, Dtype::Bf16), 0);
        assert_eq!(optimizer_bytes_per_param(Optimizer::SgdMomentum, Bf16, Dtype::Bf16), 2);
        // fp32: fp32 moments, the weights are their own master copy.
        assert_eq!(optimizer_bytes_per_param(Optimizer::Adamw, Fp32, Dtype::Fp32), 8);
        assert_eq!(optimizer_bytes_per_param(Optimizer::SgdMomentum, Fp32, Dtype::Fp32), 4);
    }

    #[test]
    fn optimizer_in_backward_keeps_the_largest_layer() {
        assert_eq!(gradient_params(8_000, 500, false), 8_000);
        assert_eq!(gradient_params(8_000, 500, true), 500);
        assert_eq!(gradient_params(100, 500, true), 100);
    }
}
