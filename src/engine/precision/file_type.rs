//! llama.cpp's file types (`llama_ftype`): what `llama-quantize` writes and a GGUF file records
//! in `general.file_type`. A file type is a mix: one main ggml type and rules that keep some
//! tensors at a higher one ([`crate::engine::gguf::mix`]).
//!
//! # Source
//! `enum llama_ftype` in llama.cpp's `include/llama.h` (@3679b65d; MXFP4_MOE = 38 from late
//! 2025), the names `llama-quantize` lists (`QUANT_OPTIONS` in `tools/quantize/quantize.cpp`
//! @42ea59bc: `Q4_K` is an alias of `Q4_K_M`, `Q3_K` of `Q3_K_M`, `Q5_K` of `Q5_K_M`), and the
//! main type of each (`default_type` in `llama_model_quantize_impl`, `src/llama-quant.cpp`
//! @8784689f).

use super::ggml_type::GgmlType;
use serde::Serialize;

/// A quantised llama.cpp file type (the 16- and 32-bit ones are the engine's `fp16`, `bf16` and
/// `fp32` formats).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
#[allow(non_camel_case_types)]
pub enum FileType {
    Q4_0,
    Q4_1,
    Q8_0,
    Q5_0,
    Q5_1,
    Q2_K,
    Q3_K_S,
    Q3_K_M,
    Q3_K_L,
    Q4_K_S,
    Q4_K_M,
    Q5_K_S,
    Q5_K_M,
    Q6_K,
    IQ2_XXS,
    IQ2_XS,
    Q2_K_S,
    IQ3_XS,
    IQ3_XXS,
    IQ1_S,
    IQ4_NL,
    IQ3_S,
    IQ3_M,
    IQ2_S,
    IQ2_M,
    IQ4_XS,
    IQ1_M,
    TQ1_0,
    TQ2_0,
    MXFP4_MOE,
}

/// (file type, `llama_ftype` number, name as `llama-quantize` lists it, main ggml type).
const TABLE: [(FileType, u32, &str, GgmlType); 30] = [
    (FileType::Q4_0, 2, "Q4_0", GgmlType::Q4_0),
    (FileType::Q4_1, 3, "Q4_1", GgmlType::Q4_1),
    (FileType::Q8_0, 7, "Q8_0", GgmlType::Q8_0),
    (FileType::Q5_0, 8, "Q5_0", GgmlType::Q5_0),
    (FileType::Q5_1, 9, "Q5_1", GgmlType::Q5_1),
    (FileType::Q2_K, 10, "Q2_K", GgmlType::Q2_K),
    (FileType::Q3_K_S, 11, "Q3_K_S", GgmlType::Q3_K),
    (FileType::Q3_K_M, 12, "Q3_K_M", GgmlType::Q3_K),
    (FileType::Q3_K_L, 13, "Q3_K_L", GgmlType::Q3_K),
    (FileType::Q4_K_S, 14, "Q4_K_S", GgmlType::Q4_K),
    (FileType::Q4_K_M, 15, "Q4_K_M", GgmlType::Q4_K),
    (FileType::Q5_K_S, 16, "Q5_K_S", GgmlType::Q5_K),
    (FileType::Q5_K_M, 17, "Q5_K_M", GgmlType::Q5_K),
    (FileType::Q6_K, 18, "Q6_K", GgmlType::Q6_K),
    (FileType::IQ2_XXS, 19, "IQ2_XXS", GgmlType::IQ2_XXS),
    (FileType::IQ2_XS, 20, "IQ2_XS", GgmlType::IQ2_XS),
    (FileType::Q2_K_S, 21, "Q2_K_S", GgmlType::Q2_K),
    (FileType::IQ3_XS, 22, "IQ3_XS", GgmlType::IQ3_S),
    (FileType::IQ3_XXS, 23, "IQ3_XXS", GgmlType::IQ3_XXS),
    (FileType::IQ1_S, 24, "IQ1_S", GgmlType::IQ1_S),
    (FileType::IQ4_NL, 25, "IQ4_NL", GgmlType::IQ4_NL),
    (FileType::IQ3_S, 26, "IQ3_S", GgmlType::IQ3_S),
    (FileType::IQ3_M, 27, "IQ3_M", GgmlType::IQ3_S),
    (FileType::IQ2_S, 28, "IQ2_S", GgmlType::IQ2_XS),
    (FileType::IQ2_M, 29, "IQ2_M", GgmlType::IQ2_S),
    (FileType::IQ4_XS, 30, "IQ4_XS", GgmlType::IQ4_XS),
    (FileType::IQ1_M, 31, "IQ1_M", GgmlType::IQ1_M),
    (FileType::TQ1_0, 36, "TQ1_0", GgmlType::TQ1_0),
    (FileType::TQ2_0, 37, "TQ2_0", GgmlType::TQ2_0),
    (FileType::MXFP4_MOE, 38, "MXFP4_MOE", GgmlType::MXFP4),
];

/// `llama-quantize`'s aliases: a name without its size letter means the medium mix.
const ALIASES: [(&str, FileType); 3] =
    [("Q3_K", FileType::Q3_K_M), ("Q4_K", FileType::Q4_K_M), ("Q5_K", FileType::Q5_K_M)];

impl FileType {
    /// The file types published most often, one a step down in bits from the last: what the
    /// estimator's advice steps down through and the columns of What runs on my machine.
    pub const LADDER: [FileType; 9] = [
        FileType::Q8_0,
        FileType::Q6_K,
        FileType::Q5_K_M,
        FileType::Q4_K_M,
        FileType::IQ4_XS,
        FileType::Q3_K_M,
        FileType::IQ3_XXS,
        FileType::Q2_K,
        FileType::IQ2_XS,
    ];

    fn row(self) -> (FileType, u32, &'static str, GgmlType) {
        TABLE.iter().copied().find(|r| r.0 == self).unwrap_or((self, 15, "Q4_K_M", GgmlType::Q4_K))
    }

    /// The name `llama-quantize` lists (`Q4_K_M`).
    pub fn name(self) -> &'static str {
        self.row().2
    }

    /// The name in lower case, as the engine's JSON writes formats (`q4_k_m`).
    pub fn key(self) -> &'static str {
        KEYS.iter().find(|(t, _)| *t == self).map_or("q4_k_m", |(_, k)| k)
    }

    /// The `general.file_type` number.
    pub fn id(self) -> u32 {
        self.row().1
    }

    /// The file type a `general.file_type` number names (`LLAMA_FTYPE_GUESSED`, 1024, is masked
    /// off); `None` for the 16/32-bit types and removed ones.
    pub fn from_id(id: u32) -> Option<FileType> {
        let id = id & !1024;
        TABLE.iter().find(|r| r.1 == id).map(|r| r.0)
    }

    /// The type most tensors get (`default_type`).
    pub fn main_type(self) -> GgmlType {
        self.row().3
    }

    /// A file type by the name `llama-quantize` lists, or one of its aliases, any case.
    pub fn parse(name: &str) -> Option<FileType> {
        let n = name.trim();
        TABLE
            .iter()
            .find(|r| r.2.eq_ignore_ascii_case(n))
            .map(|r| r.0)
            .or_else(|| ALIASES.iter().find(|(a, _)| a.eq_ignore_ascii_case(n)).map(|(_, t)| *t))
    }

    /// Every file type, in `llama_ftype` order.
    pub fn all() -> impl Iterator<Item = FileType> {
        TABLE.iter().map(|r| r.0)
    }
}

/// Lower-case names (static strings for the JSON writer).
const KEYS: [(FileType, &str); 30] = [
    (FileType::Q4_0, "q4_0"),
    (FileType::Q4_1, "q4_1"),
    (FileType::Q8_0, "q8_0"),
    (FileType::Q5_0, "q5_0"),
    (FileType::Q5_1, "q5_1"),
    (FileType::Q2_K, "q2_k"),
    (FileType::Q3_K_S, "q3_k_s"),
    (FileType::Q3_K_M, "q3_k_m"),
    (FileType::Q3_K_L, "q3_k_l"),
    (FileType::Q4_K_S, "q4_k_s"),
    (FileType::Q4_K_M, "q4_k_m"),
    (FileType::Q5_K_S, "q5_k_s"),
    (FileType::Q5_K_M, "q5_k_m"),
    (FileType::Q6_K, "q6_k"),
    (FileType::IQ2_XXS, "iq2_xxs"),
    (FileType::IQ2_XS, "iq2_xs"),
    (FileType::Q2_K_S, "q2_k_s"),
    (FileType::IQ3_XS, "iq3_xs"),
    (FileType::IQ3_XXS, "iq3_xxs"),
    (FileType::IQ1_S, "iq1_s"),
    (FileType::IQ4_NL, "iq4_nl"),
    (FileType::IQ3_S, "iq3_s"),
    (FileType::IQ3_M, "iq3_m"),
    (FileType::IQ2_S, "iq2_s"),
    (FileType::IQ2_M, "iq2_m"),
    (FileType::IQ4_XS, "iq4_xs"),
    (FileType::IQ1_M, "iq1_m"),
    (FileType::TQ1_0, "tq1_0"),
    (FileType::TQ2_0, "tq2_0"),
    (FileType::MXFP4_MOE, "mxfp4_moe"),
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_parse_in_any_case_with_the_quantizer_aliases() {
        assert_eq!(FileType::parse("q4_k_m"), Some(FileType::Q4_K_M));
        assert_eq!(FileType::parse("Q4_K"), Some(FileType::Q4_K_M));
        assert_eq!(FileType::parse("iq2_xs"), Some(FileType::IQ2_XS));
        assert_eq!(FileType::parse("bf16"), None);
        for t in FileType::all() {
            assert_eq!(FileType::parse(t.key()), Some(t));
            assert_eq!(FileType::from_id(t.id()), Some(t));
            assert!(t.key().eq_ignore_ascii_case(t.name()));
        }
    }

    #[test]
    fn main_types_follow_llama_quant() {
        assert_eq!(FileType::IQ2_S.main_type(), GgmlType::IQ2_XS);
        assert_eq!(FileType::IQ2_M.main_type(), GgmlType::IQ2_S);
        assert_eq!(FileType::IQ3_XS.main_type(), GgmlType::IQ3_S);
        assert_eq!(FileType::from_id(15 | 1024), Some(FileType::Q4_K_M));
        assert_eq!(FileType::from_id(1), None);
    }
}
