//! Model FLOPs per token as training frameworks count them, for the model FLOPs utilisation
//! (MFU: model FLOPs, no recomputation, over time and the dense 16-bit peak; Korthikanti et al.
//! 2022 §6, who also define the hardware FLOPs utilisation, HFU, with the recomputation). Every
//! convention counts a `m×n` by `n×k` GEMM as `2mnk` and a training token as three forwards;
//! they differ in the attention and the embedding (`N` the multiplied parameters, the output
//! layer included and the input embedding not; `L` layers, `d` the attention width, `s` the
//! sequence):
//! - `megatron_causal`: `6N + 6·L·d·s`, the causal mask halving the score matrix
//!   (Megatron-LM's `num_floating_point_operations` since commit 8873b55, 2025-03-06, "Only half
//!   of the attention matrix is non-zero"; NeMo since PR #14424, 2025-08-09; Megatron-Bridge);
//! - `palm`: `6N + 12·L·d·s` (Chowdhery et al., PaLM, 2022, App. B; Megatron-LM before
//!   2025-03; torchtitan after 2024, "we follow the convention and do not account for sparsity
//!   in causal attention");
//! - `with_embedding`: `6·N_all + 12·L·d·s`, every parameter counted once (torchtitan until
//!   mid-2024; llm-foundry's `6·N + 12·L·d·s`).
//!
//! Worked (Llama 3 8B, s 8192; N 7.505e9, all 8.030e9): 51.47, 57.91 and 61.07 GFLOP per token.
//! Megatron-Bridge's 14,451 tokens/s per GPU on H100 (25.11, FP8) × 51.47 GFLOP = 744 TFLOP/s,
//! the table's figure.

use crate::engine::workload::FlopConvention;

/// Model FLOPs per token under `convention`: `multiplied` parameters (the output layer, not the
/// input embedding), `all` parameters, `layers`, attention width `d_attn`, sequence `seq`.
pub fn model_flops_per_token(
    convention: FlopConvention,
    multiplied: f64,
    all: f64,
    layers: f64,
    d_attn: f64,
    seq: f64,
) -> f64 {
    let attention = 12.0 * layers * d_attn * seq;
    match convention {
        FlopConvention::MegatronCausal => 6.0 * multiplied + attention / 2.0,
        FlopConvention::Palm => 6.0 * multiplied + attention,
        FlopConvention::WithEmbedding => 6.0 * all + attention,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn llama3_8b_by_convention() {
        let (n, all) = (8_030_261_248.0 - 525_336_576.0, 8_030_261_248.0);
        let f = |c| model_flops_per_token(c, n, all, 32.0, 4096.0, 8192.0) / 1e9;
        assert!(
            (f(FlopConvention::MegatronCausal) - 51.47).abs() < 0.01,
            "{}",
            f(FlopConvention::MegatronCausal)
        );
        assert!((f(FlopConvention::Palm) - 57.91).abs() < 0.01);
        assert!((f(FlopConvention::WithEmbedding) - 61.07).abs() < 0.01);
        // Megatron-Bridge 25.11: 14,451 tokens/s per GPU → 744 TFLOP/s.
        assert!((14_451.0 * f(FlopConvention::MegatronCausal) / 1e3 - 744.0).abs() < 0.5);
        // llm-foundry, MPT-7B (tied embedding, 6,658,859,008 parameters), s 2048: 43.17 GFLOP.
        let mpt =
            model_flops_per_token(FlopConvention::WithEmbedding, 0.0, 6_658_859_008.0, 32.0, 4096.0, 2048.0);
        assert!((mpt / 1e9 - 43.17).abs() < 0.01);
    }
}
