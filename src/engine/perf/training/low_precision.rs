//! How much faster a low-precision recipe runs a linear layer than BF16, quantisation included.
//!
//! Transformer Engine, "GEMM Speedups Across Precisions" (docs/features/low_precision_training/
//! speedups.rst, 2026-06-01): a 5B-parameter configuration (hidden 4096, intermediate 16384),
//! all 12 GEMMs of a layer (forward, input gradient, weight gradient of its four linears),
//! "Autocast" = the GEMMs plus each step's quantisation:
//!
//! | recipe | H200 (Hopper) | B300 (Blackwell) |
//! |---|---|---|
//! | FP8 delayed scaling | 1.69 | 1.61 |
//! | FP8 current scaling | 1.57 | 1.41 |
//! | FP8 block scaling | 1.41 | — (taken as current scaling's 1.41) |
//! | MXFP8 | — | 1.44 |
//! | NVFP4 | — | 2.03 |
//!
//! Other FP8 GPUs (Ada, custom) take the Hopper column. Only the linear layers run in the
//! recipe's format (TE docs, "Low precision training → Introduction": attention, norms and the
//! loss stay in high precision); the training model divides their BF16 time by this speedup.

use crate::engine::gpu::Generation;
use crate::engine::workload::LowPrecisionRecipe;

/// The linear-layer speedup `S` of `recipe` over BF16 on `generation` (1 without a recipe, or
/// for a recipe the generation cannot run, which the scenario's checks refuse first).
pub fn linear_speedup(recipe: LowPrecisionRecipe, generation: Generation) -> f64 {
    use LowPrecisionRecipe as R;
    match (recipe, generation) {
        (R::None, _) => 1.0,
        (R::Fp8Delayed, Generation::Blackwell) => 1.61,
        (R::Fp8Current | R::Fp8Blockwise, Generation::Blackwell) => 1.41,
        (R::Mxfp8, Generation::Blackwell) => 1.44,
        (R::Nvfp4, Generation::Blackwell) => 2.03,
        (R::Fp8Delayed, _) => 1.69,
        (R::Fp8Current, _) => 1.57,
        (R::Fp8Blockwise, _) => 1.41,
        (R::Mxfp8 | R::Nvfp4, _) => 1.0,
    }
}

/// The Tensor Core path a recipe needs: `fp8` for the FP8 recipes, `fp4` (Blackwell) for MXFP8
/// and NVFP4, none without a recipe.
pub fn needed_path(recipe: LowPrecisionRecipe) -> Option<&'static str> {
    match recipe {
        LowPrecisionRecipe::None => None,
        LowPrecisionRecipe::Fp8Delayed
        | LowPrecisionRecipe::Fp8Current
        | LowPrecisionRecipe::Fp8Blockwise => Some("fp8"),
        LowPrecisionRecipe::Mxfp8 | LowPrecisionRecipe::Nvfp4 => Some("fp4"),
    }
}

/// Bytes a low-precision GEMM reads per weight (1 for FP8 and MXFP8, 0.5625 for NVFP4 with its
/// scales); `weight_bytes` without a recipe.
pub fn weight_read_bytes(recipe: LowPrecisionRecipe, weight_bytes: f64) -> f64 {
    match recipe {
        LowPrecisionRecipe::None => weight_bytes,
        LowPrecisionRecipe::Nvfp4 => 0.5625,
        _ => 1.0,
    }
}

/// Bytes per element of the activations Transformer Engine all-gathers for a tensor-parallel
/// GEMM: quantised before the gather under an FP8 recipe (`fp8_buf` for every all-gather
/// buffer, `initialize_ub`; MXFP8 with one E8M0 scale per 32 values), otherwise the activation
/// bytes `a`. NVFP4 recipes gather FP8 here too (an assumption: their activation format for the
/// gather is not read). The reduce-scatters stay in 16 bits.
pub fn gathered_bytes(recipe: LowPrecisionRecipe, a: f64) -> f64 {
    match recipe {
        LowPrecisionRecipe::None => a,
        LowPrecisionRecipe::Mxfp8 => 1.0 + 1.0 / 32.0,
        _ => 1.0_f64.min(a),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn te_speedups_by_generation() {
        use LowPrecisionRecipe as R;
        assert_eq!(linear_speedup(R::Fp8Current, Generation::Hopper), 1.57);
        assert_eq!(linear_speedup(R::Fp8Current, Generation::Blackwell), 1.41);
        assert_eq!(linear_speedup(R::Nvfp4, Generation::Blackwell), 2.03);
        assert_eq!(linear_speedup(R::Fp8Delayed, Generation::Ada), 1.69);
        assert_eq!(linear_speedup(R::None, Generation::Hopper), 1.0);
        assert_eq!(needed_path(R::Mxfp8), Some("fp4"));
        assert_eq!(needed_path(R::Fp8Blockwise), Some("fp8"));
        assert_eq!(weight_read_bytes(R::Nvfp4, 2.0), 0.5625);
    }
}
