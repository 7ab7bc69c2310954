//! The memory a low-precision training recipe adds: quantised copies of the linear weights.
//!
//! Transformer Engine keeps a linear layer's weights in 16 bits and quantises them before each
//! GEMM; a linear needs the weight row-wise (forward) and column-wise (the input gradient), and
//! Megatron caches both for the whole step (`is_first_microbatch` → TE's `_fp8_workspaces`,
//! megatron/core/extensions/transformer_engine.py; `--disable-parameter-transpose-cache` turns
//! it off). TE docs, "Low precision training → Performance considerations → Memory usage":
//! "Contrary to intuition, FP8 training does not always reduce memory compared to BF16". Bytes
//! per linear-layer parameter of the cache:
//! - FP8 with a per-tensor scale (delayed or current scaling) on Hopper and Ada, whose FP8
//!   GEMMs take only the TN layout: the FP8 weight and its physical transpose, **2**; on
//!   Blackwell one copy serves both layouts, **1**;
//! - FP8 block scaling (128×128 weight blocks, fp32 scales): 2 × (1 + 4/16384), rounded to **2**;
//! - MXFP8 (Blackwell): row- and column-wise copies with different E8M0 scales per 32 values,
//!   `2 × (1 + 1/32)` = **2.0625** (TE mxfp8.rst);
//! - NVFP4 (Blackwell): E2M1 with an E4M3 scale per 16 values, row- and column-wise ("NVFP4
//!   GEMM only supports the TN layout", TE nvfp4.rst), `2 × (0.5 + 1/16)` = **1.125**.
//!
//! With FP8 primary weights (TE `quantized_model_init`, Megatron `--fp8-param-gather`) the model
//! holds no 16-bit linear weights: the weights line counts them at the cache's row-wise size and
//! this line keeps the rest. Under ZeRO-3/FSDP only the layers gathered at once are cast (the
//! current one and the one prefetched: torchao casts at each all-gather).
//! Worked (Llama 3 8B, 6.98e9 linear-layer parameters, Hopper FP8): +13.96 GB.

use crate::engine::workload::LowPrecisionRecipe;

/// Cache bytes per linear parameter as `(numerator, denominator)`; `transpose`: the GPU's FP8
/// GEMMs need a transposed copy (Hopper, Ada), false on Blackwell.
pub fn cache_bytes_per_param(recipe: LowPrecisionRecipe, transpose: bool) -> (u128, u128) {
    match recipe {
        LowPrecisionRecipe::None => (0, 1),
        LowPrecisionRecipe::Fp8Delayed | LowPrecisionRecipe::Fp8Current if !transpose => (1, 1),
        LowPrecisionRecipe::Fp8Delayed
        | LowPrecisionRecipe::Fp8Current
        | LowPrecisionRecipe::Fp8Blockwise => (2, 1),
        LowPrecisionRecipe::Mxfp8 => (33, 16),
        LowPrecisionRecipe::Nvfp4 => (9, 8),
    }
}

/// Bytes of one row-wise quantised copy per parameter (what FP8 primary weights keep in place
/// of the 16-bit weight): 1 for FP8 and MXFP8, 9/16 for NVFP4 (0.5 + 1/16).
pub fn primary_bytes_per_param(recipe: LowPrecisionRecipe) -> (u128, u128) {
    match recipe {
        LowPrecisionRecipe::None => (2, 1),
        LowPrecisionRecipe::Nvfp4 => (9, 16),
        _ => (1, 1),
    }
}

/// The cache for `linear_params` linear-layer parameters on this GPU.
/// Worked: 6.98e9 parameters, FP8 on Hopper: 13.96e9 bytes.
pub fn weight_cache_bytes(linear_params: u128, recipe: LowPrecisionRecipe, transpose: bool) -> u128 {
    let (n, d) = cache_bytes_per_param(recipe, transpose);
    (linear_params * n).div_ceil(d)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn llama3_8b_hopper_fp8_cache_is_13_96_gb() {
        assert_eq!(weight_cache_bytes(6_980_000_000, LowPrecisionRecipe::Fp8Current, true), 13_960_000_000);
        assert_eq!(weight_cache_bytes(6_980_000_000, LowPrecisionRecipe::Fp8Current, false), 6_980_000_000);
        assert_eq!(weight_cache_bytes(1_600, LowPrecisionRecipe::Mxfp8, false), 3_300);
        assert_eq!(weight_cache_bytes(1_600, LowPrecisionRecipe::Nvfp4, false), 1_800);
        assert_eq!(weight_cache_bytes(1_600, LowPrecisionRecipe::None, true), 0);
    }
}
