//! Number formats and how many bytes a tensor of N elements takes in each.
//!
//! Sizes are exact rationals (bits per element as numerator / denominator) so that group-wise
//! scales are counted without floating point:
//! - fp32 32 bits, bf16/fp16 16 bits, fp8 (e4m3 or e5m2) and int8 8 bits (per-tensor or
//!   per-channel scales are negligible and not counted).
//! - int4 with group-wise scales (GPTQ/AWQ style): 4 bits + one fp16 scale and one 4-bit zero
//!   point per group of `g` weights = `4 + 20/g` bits (g = 128 gives 4.156 bits).
//!   Source: Frantar et al. 2022 (GPTQ), Lin et al. 2023 (AWQ) packing formats.
//! - nf4 with double quantisation (QLoRA): 4 bits + an 8-bit scale per 64 weights + one fp32
//!   second-level scale per 256 first-level scales = `4 + 8/64 + 32/(64*256)` = 4.127 bits.
//!   Source: Dettmers et al. 2023, "QLoRA", Section 3 (0.127 bits per parameter).
//! - mxfp4 (OCP Microscaling): 4-bit E2M1 values in blocks of 32 sharing one 8-bit E8M0 scale
//!   = `4 + 8/32` = 4.25 bits. Source: Open Compute Project, "OCP Microscaling Formats (MX)
//!   Specification" v1.0 (2023), §5 (block size k = 32, scale E8M0) and §5.3.3 (MXFP4 = E2M1).
//! - nvfp4: 4-bit E2M1 values in blocks of 16 sharing one FP8 E4M3 scale, plus one FP32 scale
//!   per tensor = `4 + 8/16` = 4.5 bits (the per-tensor scale is 4 bytes a matrix: not counted).
//!   Source: NVIDIA Technical Blog, "Introducing NVFP4 for Efficient and Accurate Low-Precision
//!   Inference" (June 2025); NVIDIA Transformer Engine docs, "Using FP8 and FP4 with Transformer
//!   Engine" (NVFP4 recipe: 16-element blocks, E4M3 block scale, FP32 tensor scale).

use serde::{Deserialize, Serialize};

/// A storage format for weights, KV cache or activations.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Dtype {
    Fp32,
    Bf16,
    Fp16,
    /// 8-bit float; e4m3 and e5m2 both take one byte.
    #[serde(alias = "fp8_e4m3", alias = "fp8_e5m2", alias = "e4m3", alias = "e5m2")]
    Fp8,
    Int8,
    /// 4-bit integer with group-wise fp16 scale and 4-bit zero point.
    Int4,
    /// 4-bit NormalFloat with double quantisation (QLoRA).
    Nf4,
    /// OCP MXFP4: E2M1 values, one E8M0 scale per 32 (4.25 bits).
    Mxfp4,
    /// NVIDIA NVFP4: E2M1 values, one E4M3 scale per 16, one FP32 scale per tensor (4.5 bits).
    Nvfp4,
}

/// Bits per element as an exact fraction `numerator / denominator`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BitsPerElement {
    pub numerator: u128,
    pub denominator: u128,
}

impl Dtype {
    /// The name used in Scenario JSON.
    pub fn name(self) -> &'static str {
        match self {
            Dtype::Fp32 => "fp32",
            Dtype::Bf16 => "bf16",
            Dtype::Fp16 => "fp16",
            Dtype::Fp8 => "fp8",
            Dtype::Int8 => "int8",
            Dtype::Int4 => "int4",
            Dtype::Nf4 => "nf4",
            Dtype::Mxfp4 => "mxfp4",
            Dtype::Nvfp4 => "nvfp4",
        }
    }

    /// Bits one element takes, scales included. `group_size` only matters for int4
    /// (callers validate it is at least 1; 0 is treated as 1).
    pub fn bits_per_element(self, group_size: u64) -> BitsPerElement {
        let whole = |bits| BitsPerElement { numerator: bits, denominator: 1 };
        match self {
            Dtype::Fp32 => whole(32),
            Dtype::Bf16 | Dtype::Fp16 => whole(16),
            Dtype::Fp8 | Dtype::Int8 => whole(8),
            Dtype::Int4 => {
                let g = u128::from(group_size.max(1));
                // 4 + 20/g = (4g + 20) / g
                BitsPerElement { numerator: 4 * g + 20, denominator: g }
            }
            // 4 + 8/64 + 32/16384 = (65536 + 2048 + 32) / 16384
            Dtype::Nf4 => BitsPerElement { numerator: 67_616, denominator: 16_384 },
            // 4 + 8/32 = 136/32
            Dtype::Mxfp4 => BitsPerElement { numerator: 136, denominator: 32 },
            // 4 + 8/16 = 72/16
            Dtype::Nvfp4 => BitsPerElement { numerator: 72, denominator: 16 },
        }
    }

    /// Bytes for `elements` values, rounded up to a whole byte.
    pub fn bytes_for(self, elements: u128, group_size: u64) -> u128 {
        let b = self.bits_per_element(group_size);
        let bits = elements.saturating_mul(b.numerator);
        let denom = b.denominator.saturating_mul(8);
        bits.div_ceil(denom)
    }

    /// True for the 16- and 32-bit float formats that training can update in place.
    pub fn is_trainable_float(self) -> bool {
        matches!(self, Dtype::Fp32 | Dtype::Bf16 | Dtype::Fp16)
    }

    /// True when the format is narrower than 16 bits (a quantised checkpoint).
    pub fn is_quantised(self) -> bool {
        matches!(self, Dtype::Fp8 | Dtype::Int8 | Dtype::Int4 | Dtype::Nf4 | Dtype::Mxfp4 | Dtype::Nvfp4)
    }

    /// The bits as a human string, e.g. "4.156" for int4 g=128.
    pub fn bits_label(self, group_size: u64) -> String {
        let b = self.bits_per_element(group_size);
        if b.denominator == 1 {
            format!("{}", b.numerator)
        } else {
            format!("{:.3}", b.numerator as f64 / b.denominator as f64)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seventy_billion_in_fp16_is_140_gb() {
        assert_eq!(Dtype::Fp16.bytes_for(70_000_000_000, 128), 140_000_000_000);
    }

    #[test]
    fn int4_group_128_costs_4_156_bits() {
        // 128 weights: 64 bytes of nibbles + 2 bytes scale + 0.5 byte zero = 66.5 -> 67 bytes
        assert_eq!(Dtype::Int4.bytes_for(128, 128), 67);
        assert_eq!(Dtype::Int4.bytes_for(1_000_000, 128), 519_532);
        assert_eq!(Dtype::Int4.bits_label(128), "4.156");
    }

    #[test]
    fn nf4_double_quant_is_0_127_bits_over_4() {
        // QLoRA: 4.127 bits per parameter -> 7B params ~ 3.61 GB
        assert_eq!(Dtype::Nf4.bytes_for(7_000_000_000, 64), 3_611_083_985);
        assert_eq!(Dtype::Nf4.bits_label(64), "4.127");
    }

    #[test]
    fn mxfp4_is_4_25_bits_and_nvfp4_4_5_bits() {
        // 32 MXFP4 values: 16 bytes of nibbles + 1 byte E8M0 scale = 17 bytes
        assert_eq!(Dtype::Mxfp4.bytes_for(32, 128), 17);
        assert_eq!(Dtype::Mxfp4.bits_label(128), "4.250");
        // 16 NVFP4 values: 8 bytes of nibbles + 1 byte E4M3 scale = 9 bytes
        assert_eq!(Dtype::Nvfp4.bytes_for(16, 128), 9);
        assert_eq!(Dtype::Nvfp4.bits_label(128), "4.500");
        let d: Dtype = serde_json::from_str("\"mxfp4\"").unwrap();
        assert_eq!(d, Dtype::Mxfp4);
        let d: Dtype = serde_json::from_str("\"nvfp4\"").unwrap();
        assert_eq!(d, Dtype::Nvfp4);
    }

    #[test]
    fn fp8_aliases_parse() {
        let d: Dtype = serde_json::from_str("\"fp8_e5m2\"").unwrap();
        assert_eq!(d, Dtype::Fp8);
        assert_eq!(Dtype::Fp8.bytes_for(10, 1), 10);
    }
}
