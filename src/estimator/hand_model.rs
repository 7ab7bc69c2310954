//! A model made from four sizes a reader may know (parameters, layers, hidden size, KV heads),
//! as a Llama-style Hugging Face config the engine can read.
//!
//! Assumptions (stated on screen): head_dim 128 (64 when the hidden size is not a multiple of
//! 128), a 128,256-token vocabulary (Llama 3) with untied embeddings, a SwiGLU MLP whose width is
//! solved from the parameter count, RMSNorm twice per layer plus a final norm, no biases:
//!
//! `P = 2·V·h + h + L·(2h² + 2·h·kv·d + 2h + 3·h·f)`  →  `f = (P − 2Vh − h − L·(2h² + 2hkv·d + 2h)) / (3hL)`
//!
//! with f rounded to a multiple of 256 (as Llama's `multiple_of`), so the engine's exact count
//! is within a fraction of a percent of the requested P.

use serde_json::{json, Value};

pub const VOCAB: u64 = 128_256;

/// Why the sizes cannot make a model; `field` is one of params, layers, hidden_size, kv_heads.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HandModelError {
    pub field: &'static str,
    pub kind: HandErrorKind,
}

/// What is wrong with the sizes (worded by `i18n::errors`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum HandErrorKind {
    /// Layers outside 1..=1000.
    Layers { got: u64 },
    /// Hidden size not a multiple of 64 in 64..=65536.
    Hidden { got: u64 },
    /// KV heads must divide the attention heads.
    KvHeads { heads: u64, hidden: u64, head_dim: u64, got: u64 },
    /// Too few parameters for the layers and hidden size.
    TooFewParams { params: u64, layers: u64, hidden: u64, needed: u128 },
    /// The MLP would be implausibly wide.
    MlpTooWide { params: u64, ffn: u128 },
}

fn err(field: &'static str, kind: HandErrorKind) -> HandModelError {
    HandModelError { field, kind }
}

/// Builds the config. `params` is the total parameter count.
pub fn config_from_sizes(
    params: u64,
    layers: u64,
    hidden: u64,
    kv_heads: u64,
) -> Result<Value, HandModelError> {
    if !(1..=1_000).contains(&layers) {
        return Err(err("layers", HandErrorKind::Layers { got: layers }));
    }
    if !(64..=65_536).contains(&hidden) || !hidden.is_multiple_of(64) {
        return Err(err("hidden_size", HandErrorKind::Hidden { got: hidden }));
    }
    let head_dim = if hidden.is_multiple_of(128) { 128 } else { 64 };
    let heads = hidden / head_dim;
    if kv_heads == 0 || !heads.is_multiple_of(kv_heads) {
        return Err(err("kv_heads", HandErrorKind::KvHeads { heads, hidden, head_dim, got: kv_heads }));
    }
    let (p, l, h, kv, d, v) =
        (params as u128, layers as u128, hidden as u128, kv_heads as u128, head_dim as u128, VOCAB as u128);
    let fixed = 2 * v * h + h + l * (2 * h * h + 2 * h * kv * d + 2 * h);
    let min_ffn = 256u128;
    let needed = fixed + 3 * h * l * min_ffn;
    if p < needed {
        return Err(err("params", HandErrorKind::TooFewParams { params, layers, hidden, needed }));
    }
    let ffn = ((p - fixed) / (3 * h * l) + 128) / 256 * 256;
    let ffn = ffn.max(min_ffn);
    if ffn > 1 << 22 {
        return Err(err("params", HandErrorKind::MlpTooWide { params, ffn }));
    }
    Ok(json!({
        // A name made of symbols, so it reads the same on the zh and en pages.
        "_name_or_path": format!("custom {:.1}B · L={layers} · h={hidden} · kv={kv_heads}", params as f64 / 1e9),
        "model_type": "llama",
        "architectures": ["LlamaForCausalLM"],
        "hidden_size": hidden,
        "intermediate_size": ffn as u64,
        "num_hidden_layers": layers,
        "num_attention_heads": heads,
        "num_key_value_heads": kv_heads,
        "head_dim": head_dim,
        "vocab_size": VOCAB,
        "tie_word_embeddings": false,
        "max_position_embeddings": 131072,
    }))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::catalog::evaluate;
    use crate::engine::{ModelSpec, Scenario};

    fn count(v: Value) -> u64 {
        evaluate(&Scenario::new(ModelSpec::Config(v))).unwrap().params.total
    }

    #[test]
    fn llama_3_1_8b_sizes_give_about_8b() {
        let v = config_from_sizes(8_030_261_248, 32, 4096, 8).unwrap();
        assert_eq!(v["intermediate_size"], 14336, "recovers Llama 3.1 8B's MLP width");
        assert_eq!(count(v), 8_030_261_248);
    }

    #[test]
    fn requested_count_is_met_within_half_a_percent() {
        for (p, l, h, kv) in
            [(70_000_000_000u64, 80, 8192, 8), (13_000_000_000, 40, 5120, 40), (1_000_000_000, 16, 2048, 8)]
        {
            let got = count(config_from_sizes(p, l, h, kv).unwrap()) as f64;
            assert!((got / p as f64 - 1.0).abs() < 0.005, "{p}: {got}");
        }
    }

    #[test]
    fn impossible_sizes_name_the_field() {
        assert_eq!(config_from_sizes(1_000_000, 32, 4096, 8).unwrap_err().field, "params");
        assert_eq!(config_from_sizes(8_000_000_000, 32, 4096, 5).unwrap_err().field, "kv_heads");
        assert_eq!(config_from_sizes(8_000_000_000, 0, 4096, 8).unwrap_err().field, "layers");
        assert_eq!(config_from_sizes(8_000_000_000, 32, 100, 1).unwrap_err().field, "hidden_size");
        assert_eq!(config_from_sizes(u64::MAX, 1, 64, 1).unwrap_err().field, "params");
    }
}
