//! Weights, gradients and optimizer states when training, and their ZeRO sharding.
//!
//! Mixed-precision Adam keeps 16-bit weights and gradients plus fp32 master weights and two
//! fp32 moments: 2 + 2 + 12 = 16 bytes per parameter (Rajbhandari et al. 2020, "ZeRO", §3:
//! K = 12). 8-bit Adam stores the moments in 1 byte each (Dettmers et al. 2022); SGD with
//! momentum one fp32 buffer; plain SGD none. Pure fp32 training needs no master copy.
//! ZeRO over the data-parallel size `N_d`: stage 1 shards optimizer states, stage 2 also
//! gradients, stage 3 (FSDP full shard) also weights. LoRA trains only the adapters, kept in
//! fp32 as PEFT does by default (`autocast_adapter_dtype=True`), so they need no master copy.

use super::weights::StageWeights;
use super::{lora, Inputs};
use crate::engine::model::Architecture;
use crate::engine::precision::Dtype;
use crate::engine::scenario::Optimizer;

/// Bytes of weights, gradients and optimizer states on one GPU.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ModelStates {
    pub weights: u128,
    pub gradients: u128,
    pub optimizer: u128,
}

/// Optimizer bytes per trainable parameter: moments plus an fp32 master copy when the
/// trained weights are narrower than fp32.
pub fn optimizer_bytes_per_param(optimizer: Optimizer, trained_dtype: Dtype) -> u128 {
    let moments = match optimizer {
        Optimizer::Adamw => 8,
        Optimizer::Adam8bit => 2,
        Optimizer::Sgd => 0,
        Optimizer::SgdMomentum => 4,
    };
    let master = if trained_dtype == Dtype::Fp32 { 0 } else { 4 };
    moments + master
}

/// ZeRO sharding of (weights, gradients, optimizer) bytes over `dp` replicas.
pub fn zero_shard(weights: u128, gradients: u128, optimizer: u128, stage: u8, dp: u64) -> ModelStates {
    let dp = u128::from(dp.max(1));
    let shard = |bytes: u128, from_stage: u8| if stage >= from_stage { bytes.div_ceil(dp) } else { bytes };
    ModelStates { weights: shard(weights, 3), gradients: shard(gradients, 2), optimizer: shard(optimizer, 1) }
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
        let grad_bytes = x.weight.bytes_for(w.params, x.group);
        let opt = w.params * optimizer_bytes_per_param(x.optimizer, x.weight);
        return zero_shard(w.bytes, grad_bytes, opt, x.zero_stage, x.dp);
    }
    // LoRA / QLoRA: frozen base (sharded only by ZeRO-3), fp32 adapters.
    let adapters = lora::adapter_params(a, x, layers);
    let adapter_bytes = adapters * 4;
    let sharded = zero_shard(
        adapter_bytes,
        adapter_bytes,
        adapters * optimizer_bytes_per_param(x.optimizer, Dtype::Fp32),
        x.zero_stage,
        x.dp,
    );
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
        let k = optimizer_bytes_per_param(Optimizer::Adamw, Dtype::Fp16);
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
        assert_eq!(optimizer_bytes_per_param(Optimizer::Adamw, Dtype::Fp32), 8);
        assert_eq!(optimizer_bytes_per_param(Optimizer::Adam8bit, Dtype::Bf16), 6);
        assert_eq!(optimizer_bytes_per_param(Optimizer::Sgd, Dtype::Bf16), 4);
        assert_eq!(optimizer_bytes_per_param(Optimizer::SgdMomentum, Dtype::Fp32), 4);
    }
}
