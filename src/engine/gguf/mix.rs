//! Which ggml type `llama-quantize` gives each tensor of a file type: the main type, except the
//! tensors its rules keep at a higher (or, for the IQ mixes, lower) one.
//!
//! # Source
//! `llama_tensor_get_type` and the main loop of `llama_model_quantize_impl` in llama.cpp's
//! `src/llama-quant.cpp` (ggml-org/llama.cpp @8784689f, late 2025), read rule by rule; the
//! comments below name each branch. The rules see tensors in the loader's order (the
//! non-layer tensors, then `blk.0.*`, `blk.1.*`, … each by name), and count attn_v and
//! ffn_down tensors as they go. Checked against published files: Llama-3.1-8B Q4_K_M is 193
//! Q4_K, 33 Q6_K and 66 F32 tensors, 4.58 GiB (the loader's log); Qwen2.5-7B-Instruct Q4_K_M
//! is 4,677,120,000 bytes (llama-bench's README, `tools/llama-bench/README.md` @5a32f10a).

use crate::engine::model::tensors::{Role, Tensor};
use crate::engine::precision::file_type::FileType;
use crate::engine::precision::ggml_type::GgmlType;
use GgmlType as T;

/// What the rules read about the model (GGUF metadata in llama.cpp).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MixFacts {
    /// `block_count`.
    pub layers: u32,
    /// Query heads per KV head (`head_count / head_count_kv`).
    pub gqa: u64,
    /// Routed experts (`expert_count`, 0 for a dense model).
    pub experts: u64,
    /// Falcon's own rules (`LLM_ARCH_FALCON`).
    pub falcon: bool,
    /// llama.cpp's `LLM_TYPE_70B`: a Llama-architecture model of 80 layers with grouped-query
    /// attention, or a Qwen2 model of 80 layers (`load_hparams`, `src/llama-model.cpp`).
    pub seventy_b: bool,
    /// Whether the model has its own `output.weight` (otherwise the embedding is the head).
    pub has_output: bool,
}

/// The counters the quantizer keeps while it walks the tensors.
#[derive(Clone, Copy, Debug, Default)]
struct Counters {
    /// Tensors named attn_v, attn_qkv or attn_kv_b (counted before the walk).
    n_attention_wv: u32,
    i_attention_wv: u32,
    i_ffn_down: u32,
    i_ffn_gate: u32,
    i_ffn_up: u32,
}

/// Whether files of this type are made with an importance matrix: `llama-quantize` refuses the 1-
/// and 2-bit IQ types and Q2_K_S without one ("Missing importance matrix … in a very low-bit
/// quantization", `llama_model_quantize_impl`; IQ3_XXS too since the 2026 `tensor_requires_imatrix`),
/// and the published IQ files are made with one (bartowski's and unsloth's, and
/// `tools/quantize/README.md`'s IQ3_XXS: 3.04 GiB for Llama-3.1-8B, which the rules give only with
/// it). Some rules keep fewer bits when it is there.
pub fn has_imatrix(ft: FileType) -> bool {
    matches!(
        ft,
        FileType::IQ1_S
            | FileType::IQ1_M
            | FileType::IQ2_XXS
            | FileType::IQ2_XS
            | FileType::IQ2_S
            | FileType::IQ2_M
            | FileType::IQ3_XXS
            | FileType::IQ3_XS
            | FileType::IQ3_S
            | FileType::IQ3_M
            | FileType::IQ4_NL
            | FileType::IQ4_XS
            | FileType::Q2_K_S
    )
}

/// `use_more_bits`: the first and last eighth of the layers, and every third one between.
pub fn use_more_bits(i: u32, n: u32) -> bool {
    let (i, n) = (i64::from(i), i64::from(n));
    i < n / 8 || i >= 7 * n / 8 || (i - n / 8) % 3 == 2
}

/// Gives every tensor its type under `ft` (the tensors in loader order, each with the type the
/// converter wrote it in; quantisable ones get the file type's).
pub fn assign_types(ft: FileType, facts: &MixFacts, tensors: &mut [Tensor]) {
    let mut c = Counters {
        n_attention_wv: u32::try_from(
            tensors.iter().filter(|t| matches!(t.role, Role::AttnV | Role::AttnQkv | Role::AttnKvB)).count(),
        )
        .unwrap_or(u32::MAX),
        ..Counters::default()
    };
    for t in tensors.iter_mut() {
        // A tensor the converter already wrote quantised (gpt-oss's MXFP4 experts) is copied
        // (requantizing is refused without --allow-requantize).
        if quantized(t.role) && !t.ty.is_quantized() {
            t.ty = tensor_type(ft, facts, t, &mut c);
        }
    }
}

/// Whether the quantizer quantises a tensor of this role at all (norms, biases, the router,
/// position embeddings and convolution kernels are copied as they are).
fn quantized(role: Role) -> bool {
    !matches!(role, Role::Kept | Role::Vector)
}

/// `llama_tensor_get_type`: the first rule that matches, then the fallback for rows that do not
/// split into whole blocks.
fn tensor_type(ft: FileType, f: &MixFacts, t: &Tensor, c: &mut Counters) -> GgmlType {
    let main = ft.main_type();
    let ty = if t.role == Role::Output || (!f.has_output && t.role == Role::TokenEmbd) {
        output_type(ft, f, t, main)
    } else if ft == FileType::MXFP4_MOE {
        // Expert tensors in MXFP4, every other quantised tensor in Q8_0.
        if t.experts {
            T::MXFP4
        } else {
            T::Q8_0
        }
    } else if t.role == Role::TokenEmbd {
        token_embd_type(ft, main)
    } else if is_iq2_group(ft) {
        iq2_group_type(ft, f, t, c, main)
    } else {
        layer_type(ft, f, t, c, main)
    };
    fallback(ty, t.row)
}

/// Rule A: the head (or the tied embedding that serves as the head).
fn output_type(ft: FileType, f: &MixFacts, t: &Tensor, main: GgmlType) -> GgmlType {
    if ft == FileType::MXFP4_MOE || f.falcon || !main.fits_row(t.row) {
        T::Q8_0
    } else if matches!(
        ft,
        FileType::IQ2_XXS
            | FileType::IQ2_XS
            | FileType::IQ3_XXS
            | FileType::IQ1_S
            | FileType::IQ2_S
            | FileType::IQ2_M
            | FileType::IQ1_M
    ) {
        T::Q5_K
    } else if main != T::Q8_0 {
        T::Q6_K
    } else {
        main
    }
}

/// Rule C: an untied token embedding.
fn token_embd_type(ft: FileType, main: GgmlType) -> GgmlType {
    match ft {
        FileType::IQ2_XXS | FileType::IQ2_XS | FileType::IQ1_S | FileType::IQ1_M => T::Q2_K,
        FileType::IQ2_S | FileType::IQ2_M | FileType::IQ3_XXS => T::IQ3_S,
        FileType::TQ1_0 | FileType::TQ2_0 => T::Q4_K,
        _ => main,
    }
}

fn is_iq2_group(ft: FileType) -> bool {
    matches!(
        ft,
        FileType::IQ2_XXS
            | FileType::IQ2_XS
            | FileType::IQ1_S
            | FileType::IQ2_S
            | FileType::IQ2_M
            | FileType::IQ1_M
    )
}

/// Rule D: the 1- and 2-bit IQ mixes.
fn iq2_group_type(ft: FileType, f: &MixFacts, t: &Tensor, c: &mut Counters, main: GgmlType) -> GgmlType {
    let s_or_m = matches!(ft, FileType::IQ2_S | FileType::IQ2_M);
    match t.role {
        Role::AttnV => {
            c.i_attention_wv += 1;
            if f.gqa >= 4 || f.experts >= 4 {
                T::Q4_K
            } else if s_or_m {
                T::IQ3_S
            } else {
                T::Q2_K
            }
        }
        Role::AttnK if f.experts == 8 => T::Q4_K,
        Role::FfnDown => {
            let low = c.i_ffn_down < f.layers / 8;
            c.i_ffn_down += 1;
            match (low, s_or_m) {
                (true, true) => T::IQ3_S,
                (true, false) => T::Q2_K,
                _ => main,
            }
        }
        Role::AttnOutput if f.experts == 8 => T::Q5_K,
        Role::AttnOutput if matches!(ft, FileType::IQ1_S | FileType::IQ1_M) => T::IQ2_XXS,
        Role::AttnOutput if s_or_m => T::IQ3_S,
        _ => main,
    }
}

/// Rules E–L: every other quantised file type, by role.
fn layer_type(ft: FileType, f: &MixFacts, t: &Tensor, c: &mut Counters, main: GgmlType) -> GgmlType {
    match t.role {
        Role::AttnV => attn_v_type(ft, f, c, main),
        Role::AttnK => match ft {
            _ if f.experts == 8 => T::Q8_0,
            FileType::IQ3_XS => T::IQ3_XXS,
            FileType::IQ3_XXS => T::IQ2_S,
            _ => main,
        },
        Role::AttnQ => match ft {
            FileType::IQ3_XS => T::IQ3_XXS,
            FileType::IQ3_XXS => T::IQ2_S,
            _ => main,
        },
        Role::FfnDown => {
            let (i, n) = layer_info(c.i_ffn_down, f, t);
            c.i_ffn_down += 1;
            ffn_down_type(ft, f, i, n, main)
        }
        Role::AttnOutput => attn_output_type(ft, f, main),
        Role::AttnQkv => match ft {
            FileType::Q3_K_M | FileType::Q3_K_L | FileType::IQ3_M => T::Q4_K,
            FileType::Q4_K_M => T::Q5_K,
            FileType::Q5_K_M => T::Q6_K,
            _ => main,
        },
        Role::FfnGate | Role::FfnUp => {
            let counter = if t.role == Role::FfnGate { &mut c.i_ffn_gate } else { &mut c.i_ffn_up };
            let i = if f.experts > 1 { t.layer.unwrap_or(0) } else { *counter };
            *counter += 1;
            let n = f.layers;
            if ft == FileType::IQ3_XS && i >= n / 8 && i < 7 * n / 8 {
                T::IQ3_XXS
            } else {
                main
            }
        }
        _ => main,
    }
}

/// The layer a counted rule looks at: the counter, or the name's layer in an MoE model.
fn layer_info(counter: u32, f: &MixFacts, t: &Tensor) -> (u32, u32) {
    let i = if f.experts > 1 { t.layer.unwrap_or(0) } else { counter };
    (i, f.layers)
}

/// Rule E: the value projection (a quantised V costs more quality than its bytes).
fn attn_v_type(ft: FileType, f: &MixFacts, c: &mut Counters, main: GgmlType) -> GgmlType {
    let i = c.i_attention_wv;
    let gqa4 = f.gqa >= 4;
    let mut ty = match ft {
        FileType::Q2_K if gqa4 => T::Q4_K,
        FileType::Q2_K => T::Q3_K,
        FileType::Q2_K_S if gqa4 => T::Q4_K,
        FileType::IQ3_XXS if gqa4 => T::Q4_K,
        // With an importance matrix (see [`has_imatrix`]) V stays IQ3_XXS; without one, IQ3_S.
        FileType::IQ3_XXS if has_imatrix(ft) => T::IQ3_XXS,
        FileType::IQ3_XXS => T::IQ3_S,
        FileType::IQ3_XS | FileType::IQ3_S if gqa4 => T::Q4_K,
        FileType::IQ3_M => T::Q4_K,
        FileType::Q3_K_M if i < 2 => T::Q5_K,
        FileType::Q3_K_M => T::Q4_K,
        FileType::Q3_K_L => T::Q5_K,
        FileType::IQ4_NL | FileType::IQ4_XS if gqa4 => T::Q5_K,
        FileType::Q4_K_M | FileType::Q5_K_M if use_more_bits(i, c.n_attention_wv) => T::Q6_K,
        FileType::Q4_K_S if i < 4 => T::Q5_K,
        _ => main,
    };
    if f.seventy_b && matches!(ty, T::Q3_K | T::Q4_K) {
        ty = T::Q5_K;
    }
    if f.experts == 8 {
        ty = T::Q8_0;
    }
    c.i_attention_wv += 1;
    ty
}

/// Rule H: the down projection of layer `i` of `n`.
fn ffn_down_type(ft: FileType, f: &MixFacts, i: u32, n: u32, main: GgmlType) -> GgmlType {
    let more = use_more_bits(i, n);
    match ft {
        FileType::Q2_K => T::Q3_K,
        FileType::Q2_K_S if i < n / 8 => T::Q4_K,
        FileType::IQ3_XXS if !has_imatrix(ft) && i < n / 8 => T::Q4_K,
        FileType::IQ3_XXS if !has_imatrix(ft) => T::Q3_K,
        FileType::Q3_K_M if i < n / 16 => T::Q5_K,
        FileType::Q3_K_M if !f.falcon || more => T::Q4_K,
        FileType::Q3_K_M => T::Q3_K,
        FileType::IQ3_M if i < n / 8 || (f.experts == 8 && more) => T::Q4_K,
        FileType::Q3_K_L if f.falcon => T::Q4_K,
        FileType::Q3_K_L => T::Q5_K,
        FileType::Q4_K_M if f.falcon && i < n / 16 => T::Q6_K,
        FileType::Q4_K_M if f.falcon && more => T::Q5_K,
        FileType::Q4_K_M if !f.falcon && more => T::Q6_K,
        FileType::IQ4_NL | FileType::IQ4_XS if !has_imatrix(ft) && i < n / 8 => T::Q5_K,
        FileType::Q5_K_M if more => T::Q6_K,
        FileType::Q4_K_S if !f.falcon && i < n / 8 => T::Q5_K,
        _ => main,
    }
}

/// Rule I: the attention output projection.
fn attn_output_type(ft: FileType, f: &MixFacts, main: GgmlType) -> GgmlType {
    if f.falcon {
        return if ft == FileType::Q3_K_L { T::Q4_K } else { main };
    }
    if f.experts == 8 {
        return match ft {
            FileType::Q2_K
            | FileType::IQ3_XS
            | FileType::IQ3_XXS
            | FileType::Q3_K_S
            | FileType::Q3_K_M
            | FileType::IQ4_NL
            | FileType::Q4_K_S
            | FileType::Q4_K_M
            | FileType::IQ3_S
            | FileType::IQ3_M
            | FileType::IQ4_XS => T::Q5_K,
            _ => main,
        };
    }
    match ft {
        FileType::Q2_K => T::Q3_K,
        FileType::IQ3_XXS => T::IQ3_S,
        FileType::Q3_K_M | FileType::IQ3_M => T::Q4_K,
        FileType::Q3_K_L => T::Q5_K,
        _ => main,
    }
}

/// When a row does not split into whole blocks of the chosen type: the nearest type with
/// 32-element blocks, else F16 (end of `llama_tensor_get_type`).
fn fallback(ty: GgmlType, row: u64) -> GgmlType {
    if ty.fits_row(row) {
        return ty;
    }
    let next = match ty {
        T::TQ1_0 | T::TQ2_0 => T::Q4_0,
        T::IQ2_XXS
        | T::IQ2_XS
        | T::IQ2_S
        | T::IQ3_XXS
        | T::IQ3_S
        | T::IQ1_S
        | T::IQ1_M
        | T::Q2_K
        | T::Q3_K
        | T::IQ4_XS => T::IQ4_NL,
        T::Q4_K => T::Q5_0,
        T::Q5_K => T::Q5_1,
        T::Q6_K => T::Q8_0,
        other => other,
    };
    if next.fits_row(row) {
        next
    } else {
        T::F16
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn more_bits_for_the_ends_and_every_third_layer() {
        let n = 32;
        let picked: Vec<u32> = (0..n).filter(|i| use_more_bits(*i, n)).collect();
        assert_eq!(picked, vec![0, 1, 2, 3, 6, 9, 12, 15, 18, 21, 24, 27, 28, 29, 30, 31]);
        assert_eq!((0..28).filter(|i| use_more_bits(*i, 28)).count(), 14);
    }

    #[test]
    fn rows_that_do_not_split_fall_back() {
        assert_eq!(fallback(T::Q4_K, 896), T::Q5_0);
        assert_eq!(fallback(T::Q6_K, 896), T::Q8_0);
        assert_eq!(fallback(T::IQ4_XS, 2880), T::IQ4_NL);
        assert_eq!(fallback(T::Q4_K, 4096), T::Q4_K);
        assert_eq!(fallback(T::Q4_0, 100), T::F16);
    }
}
