//! ggml's tensor types: the number a GGUF file stores for a tensor's type, and how many bytes a
//! block of that type takes.
//!
//! # Formula
//! A row of `n` elements of type `t` takes `n / block(t) × bytes(t)` bytes (`ggml_row_size`); a
//! tensor is its rows (`ggml_nbytes`). Bits per weight are `8 × bytes(t) / block(t)`: Q4_K
//! packs 256 weights in 144 bytes (two fp16 super-scales, twelve bytes of 6-bit sub-block
//! scales and minimums, 128 bytes of nibbles) = 4.5 bits.
//!
//! # Source
//! `enum ggml_type` in ggml's `ggml/include/ggml.h` (ids 0–39, ggml-org/llama.cpp @3514e9f6,
//! late 2025; NVFP4 = 40, Q1_0 = 41 and Q2_0 = 42 from 2026 versions of the same header), the
//! `block_*` structs and their `static_assert`s in `ggml/src/ggml-common.h` (@01243c58), and
//! the `type_traits` table (`blck_size`, `type_size`) in `ggml/src/ggml.c` (@1f08e2d6). Ids 4,
//! 5 and 31–33, 36–38 were types whose support was removed from GGUF files.

use serde::Serialize;

/// One ggml tensor type with a storage layout.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
#[allow(non_camel_case_types)]
pub enum GgmlType {
    F32,
    F16,
    Q4_0,
    Q4_1,
    Q5_0,
    Q5_1,
    Q8_0,
    Q8_1,
    Q2_K,
    Q3_K,
    Q4_K,
    Q5_K,
    Q6_K,
    Q8_K,
    IQ2_XXS,
    IQ2_XS,
    IQ3_XXS,
    IQ1_S,
    IQ4_NL,
    IQ3_S,
    IQ2_S,
    IQ4_XS,
    I8,
    I16,
    I32,
    I64,
    F64,
    IQ1_M,
    BF16,
    TQ1_0,
    TQ2_0,
    MXFP4,
    NVFP4,
    Q1_0,
    Q2_0,
}

/// Every type: (type, id in a GGUF file, name as ggml prints it, elements per block, bytes per
/// block).
const TABLE: [(GgmlType, u32, &str, u32, u32); 35] = [
    (GgmlType::F32, 0, "F32", 1, 4),
    (GgmlType::F16, 1, "F16", 1, 2),
    (GgmlType::Q4_0, 2, "Q4_0", 32, 18),
    (GgmlType::Q4_1, 3, "Q4_1", 32, 20),
    (GgmlType::Q5_0, 6, "Q5_0", 32, 22),
    (GgmlType::Q5_1, 7, "Q5_1", 32, 24),
    (GgmlType::Q8_0, 8, "Q8_0", 32, 34),
    (GgmlType::Q8_1, 9, "Q8_1", 32, 36),
    (GgmlType::Q2_K, 10, "Q2_K", 256, 84),
    (GgmlType::Q3_K, 11, "Q3_K", 256, 110),
    (GgmlType::Q4_K, 12, "Q4_K", 256, 144),
    (GgmlType::Q5_K, 13, "Q5_K", 256, 176),
    (GgmlType::Q6_K, 14, "Q6_K", 256, 210),
    (GgmlType::Q8_K, 15, "Q8_K", 256, 292),
    (GgmlType::IQ2_XXS, 16, "IQ2_XXS", 256, 66),
    (GgmlType::IQ2_XS, 17, "IQ2_XS", 256, 74),
    (GgmlType::IQ3_XXS, 18, "IQ3_XXS", 256, 98),
    (GgmlType::IQ1_S, 19, "IQ1_S", 256, 50),
    (GgmlType::IQ4_NL, 20, "IQ4_NL", 32, 18),
    (GgmlType::IQ3_S, 21, "IQ3_S", 256, 110),
    (GgmlType::IQ2_S, 22, "IQ2_S", 256, 82),
    (GgmlType::IQ4_XS, 23, "IQ4_XS", 256, 136),
    (GgmlType::I8, 24, "I8", 1, 1),
    (GgmlType::I16, 25, "I16", 1, 2),
    (GgmlType::I32, 26, "I32", 1, 4),
    (GgmlType::I64, 27, "I64", 1, 8),
    (GgmlType::F64, 28, "F64", 1, 8),
    (GgmlType::IQ1_M, 29, "IQ1_M", 256, 56),
    (GgmlType::BF16, 30, "BF16", 1, 2),
    (GgmlType::TQ1_0, 34, "TQ1_0", 256, 54),
    (GgmlType::TQ2_0, 35, "TQ2_0", 256, 66),
    (GgmlType::MXFP4, 39, "MXFP4", 32, 17),
    (GgmlType::NVFP4, 40, "NVFP4", 64, 36),
    (GgmlType::Q1_0, 41, "Q1_0", 128, 18),
    (GgmlType::Q2_0, 42, "Q2_0", 64, 18),
];

/// The types llama.cpp accepts for its KV cache (`-ctk` / `-ctv`, common/arg.cpp
/// `kv_cache_types`).
pub const KV_CACHE_TYPES: [GgmlType; 9] = [
    GgmlType::F32,
    GgmlType::F16,
    GgmlType::BF16,
    GgmlType::Q8_0,
    GgmlType::Q4_0,
    GgmlType::Q4_1,
    GgmlType::IQ4_NL,
    GgmlType::Q5_0,
    GgmlType::Q5_1,
];

impl GgmlType {
    fn row(self) -> (GgmlType, u32, &'static str, u32, u32) {
        TABLE.iter().copied().find(|r| r.0 == self).unwrap_or((self, 0, "F32", 1, 4))
    }

    /// The type a GGUF file's tensor-type number names (`None`: removed or unknown).
    pub fn from_id(id: u32) -> Option<GgmlType> {
        TABLE.iter().find(|r| r.1 == id).map(|r| r.0)
    }

    /// The number a GGUF file stores for this type.
    pub fn id(self) -> u32 {
        self.row().1
    }

    /// The name ggml prints (`Q4_K`).
    pub fn name(self) -> &'static str {
        self.row().2
    }

    /// A type by its name, any case (`q8_0`, `Q8_0`).
    pub fn parse(name: &str) -> Option<GgmlType> {
        TABLE.iter().find(|r| r.2.eq_ignore_ascii_case(name.trim())).map(|r| r.0)
    }

    /// Elements per block.
    pub fn block_elements(self) -> u32 {
        self.row().3
    }

    /// Bytes per block.
    pub fn block_bytes(self) -> u32 {
        self.row().4
    }

    /// Whether this is a block-quantised type (not a plain float or integer).
    pub fn is_quantized(self) -> bool {
        self.block_elements() > 1
    }

    /// Bits per element, `8 × bytes / block` (4.5 for Q4_K).
    pub fn bits_per_weight(self) -> f64 {
        8.0 * f64::from(self.block_bytes()) / f64::from(self.block_elements())
    }

    /// Whether a row of `ne0` elements splits into whole blocks.
    pub fn fits_row(self, ne0: u64) -> bool {
        ne0.is_multiple_of(u64::from(self.block_elements()))
    }

    /// Bytes of `elements` values, whole blocks (`ggml_nbytes` of a tensor whose rows split
    /// into whole blocks; a partial block is counted whole).
    pub fn bytes_for(self, elements: u128) -> u128 {
        elements.div_ceil(u128::from(self.block_elements())) * u128::from(self.block_bytes())
    }

    /// Every type, in id order.
    pub fn all() -> impl Iterator<Item = GgmlType> {
        TABLE.iter().map(|r| r.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn k_quant_blocks_have_their_published_bits() {
        assert_eq!(GgmlType::Q4_K.bits_per_weight(), 4.5);
        assert_eq!(GgmlType::Q6_K.bits_per_weight(), 6.5625);
        assert_eq!(GgmlType::Q2_K.bits_per_weight(), 2.625);
        assert_eq!(GgmlType::Q3_K.bits_per_weight(), 3.4375);
        assert_eq!(GgmlType::Q5_K.bits_per_weight(), 5.5);
        assert_eq!(GgmlType::Q8_0.bits_per_weight(), 8.5);
        assert_eq!(GgmlType::Q4_0.bits_per_weight(), 4.5);
        assert_eq!(GgmlType::IQ4_XS.bits_per_weight(), 4.25);
        assert_eq!(GgmlType::IQ2_XXS.bits_per_weight(), 2.0625);
        assert_eq!(GgmlType::IQ1_S.bits_per_weight(), 1.5625);
        assert_eq!(GgmlType::MXFP4.bits_per_weight(), 4.25);
    }

    #[test]
    fn ids_round_trip_and_removed_ids_are_none() {
        for t in GgmlType::all() {
            assert_eq!(GgmlType::from_id(t.id()), Some(t));
            assert_eq!(GgmlType::parse(&t.name().to_ascii_lowercase()), Some(t));
        }
        for removed in [4, 5, 31, 32, 33, 36, 37, 38, 43, 1000] {
            assert_eq!(GgmlType::from_id(removed), None);
        }
        assert_eq!(GgmlType::from_id(12), Some(GgmlType::Q4_K));
    }

    #[test]
    fn a_llama_8b_attention_matrix_in_q4_k() {
        // 4096 × 4096 weights in Q4_K: 65,536 blocks of 144 bytes.
        assert_eq!(GgmlType::Q4_K.bytes_for(4096 * 4096), 9_437_184);
        assert!(GgmlType::Q4_K.fits_row(4096));
        assert!(!GgmlType::Q4_K.fits_row(896));
        assert!(GgmlType::Q5_0.fits_row(896));
    }
}
