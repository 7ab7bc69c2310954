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
//! - llama.cpp file types (`q4_k_m`, `q8_0`, `iq2_xs`, …, [`file_type`]): a mix of ggml block
//!   types ([`ggml_type`]); one element of the main type takes its block's bytes × 8 /
//!   its block's elements (Q4_K: 144 × 8 / 256 = 4.5 bits). The weights of a model in a file type
//!   are summed tensor by tensor ([`crate::engine::gguf::layout`]); as a KV cache format
//!   (`q8_0`, `q4_0`, … as llama.cpp's `-ctk`/`-ctv`) every element takes the main type's bits.

pub mod compute;
pub mod file_type;
pub mod ggml_type;

use file_type::FileType;
use serde::de::{Deserializer, Error as _};
use serde::{Deserialize, Serialize, Serializer};

/// A storage format for weights, KV cache or activations. Written in JSON by its name
/// ([`Dtype::name`]); read by name in any case, with the aliases below.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Dtype {
    Fp32,
    Bf16,
    Fp16,
    /// 8-bit float; e4m3 and e5m2 both take one byte (aliases `fp8_e4m3`, `fp8_e5m2`, `e4m3`,
    /// `e5m2`).
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
    /// A llama.cpp file type (`q4_k_m`): ggml block types mixed as `llama-quantize` mixes them.
    Gguf(FileType),
}

/// The formats that are not llama.cpp file types, by name.
const NAMED: [(&str, Dtype); 13] = [
    ("fp32", Dtype::Fp32),
    ("bf16", Dtype::Bf16),
    ("fp16", Dtype::Fp16),
    ("fp8", Dtype::Fp8),
    ("int8", Dtype::Int8),
    ("int4", Dtype::Int4),
    ("nf4", Dtype::Nf4),
    ("mxfp4", Dtype::Mxfp4),
    ("nvfp4", Dtype::Nvfp4),
    ("fp8_e4m3", Dtype::Fp8),
    ("fp8_e5m2", Dtype::Fp8),
    ("e4m3", Dtype::Fp8),
    ("e5m2", Dtype::Fp8),
];

/// llama.cpp's names for its 16- and 32-bit file types (`llama-quantize F16`), the same
/// formats as `fp16`, `bf16` and `fp32`.
const LLAMA_FLOATS: [(&str, Dtype); 3] = [("f16", Dtype::Fp16), ("f32", Dtype::Fp32), ("bf16", Dtype::Bf16)];

impl Serialize for Dtype {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.name())
    }
}

impl<'de> Deserialize<'de> for Dtype {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Dtype, D::Error> {
        let text = String::deserialize(d)?;
        Dtype::parse(&text).ok_or_else(|| D::Error::unknown_variant(&text, &Dtype::NAMES))
    }
}

/// Bits per element as an exact fraction `numerator / denominator`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BitsPerElement {
    pub numerator: u128,
    pub denominator: u128,
}

impl Dtype {
    /// The names an error lists: the engine's formats, then llama.cpp's file types.
    pub const NAMES: [&'static str; 39] = [
        "fp32",
        "bf16",
        "fp16",
        "fp8",
        "int8",
        "int4",
        "nf4",
        "mxfp4",
        "nvfp4",
        "q8_0",
        "q6_k",
        "q5_k_m",
        "q5_k_s",
        "q5_0",
        "q5_1",
        "q4_k_m",
        "q4_k_s",
        "q4_0",
        "q4_1",
        "iq4_xs",
        "iq4_nl",
        "q3_k_l",
        "q3_k_m",
        "q3_k_s",
        "iq3_m",
        "iq3_s",
        "iq3_xs",
        "iq3_xxs",
        "q2_k",
        "q2_k_s",
        "iq2_m",
        "iq2_s",
        "iq2_xs",
        "iq2_xxs",
        "iq1_m",
        "iq1_s",
        "tq1_0",
        "tq2_0",
        "mxfp4_moe",
    ];

    /// A format by name, any case: the engine's names and aliases, llama.cpp's file types
    /// (`Q4_K_M`, `q4_k`) and its `F16`, `F32`, `BF16`.
    pub fn parse(name: &str) -> Option<Dtype> {
        let n = name.trim().to_ascii_lowercase();
        NAMED
            .iter()
            .chain(LLAMA_FLOATS.iter())
            .find(|(k, _)| *k == n)
            .map(|(_, d)| *d)
            .or_else(|| FileType::parse(&n).map(Dtype::Gguf))
    }

    /// The llama.cpp file type, when this is one.
    pub fn file_type(self) -> Option<FileType> {
        match self {
            Dtype::Gguf(t) => Some(t),
            _ => None,
        }
    }

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
            Dtype::Gguf(t) => t.key(),
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
            // The main ggml type's block: bytes × 8 / elements (Q4_K: 1152 / 256).
            Dtype::Gguf(t) => {
                let m = t.main_type();
                BitsPerElement {
                    numerator: 8 * u128::from(m.block_bytes()),
                    denominator: u128::from(m.block_elements()),
                }
            }
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
        matches!(
            self,
            Dtype::Fp8
                | Dtype::Int8
                | Dtype::Int4
                | Dtype::Nf4
                | Dtype::Mxfp4
                | Dtype::Nvfp4
                | Dtype::Gguf(_)
        )
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
    fn llama_cpp_names_parse_in_any_case() {
        let d: Dtype = serde_json::from_str("\"Q4_K_M\"").unwrap();
        assert_eq!(d, Dtype::Gguf(FileType::Q4_K_M));
        assert_eq!(serde_json::to_string(&d).unwrap(), "\"q4_k_m\"");
        assert_eq!(Dtype::parse("F16"), Some(Dtype::Fp16));
        assert_eq!(Dtype::parse("BF16"), Some(Dtype::Bf16));
        assert_eq!(Dtype::parse("q4_k"), Some(Dtype::Gguf(FileType::Q4_K_M)));
        // Q8_0: 34 bytes per 32 weights = 8.5 bits.
        assert_eq!(Dtype::Gguf(FileType::Q8_0).bits_label(128), "8.500");
        assert_eq!(Dtype::Gguf(FileType::Q8_0).bytes_for(32, 128), 34);
        for n in Dtype::NAMES {
            assert_eq!(Dtype::parse(n).map(Dtype::name), Some(n));
        }
        let e = serde_json::from_str::<Dtype>("\"q9_k\"").unwrap_err().to_string();
        assert!(e.starts_with("unknown variant `q9_k`, expected one of `fp32`"), "{e}");
    }

    #[test]
    fn fp8_aliases_parse() {
        let d: Dtype = serde_json::from_str("\"fp8_e5m2\"").unwrap();
        assert_eq!(d, Dtype::Fp8);
        assert_eq!(Dtype::Fp8.bytes_for(10, 1), 10);
    }
}
