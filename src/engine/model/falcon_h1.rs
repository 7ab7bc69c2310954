//! Falcon-H1 (`falcon_h1`), module by module as huggingface/transformers builds it
//! (`src/transformers/models/falcon_h1/modeling_falcon_h1.py`, `configuration_falcon_h1.py`):
//!
//! - Every decoder layer (`FalconH1DecoderLayer`) runs a Mamba-2 mixer (`FalconH1Mixer`) and
//!   attention (`FalconH1Attention`) side by side on the same normed input and adds their
//!   outputs, then a gated MLP (`FalconH1MLP`: `gate_proj`, `up_proj`, `down_proj`, biases with
//!   `mlp_bias`). Two RMSNorms per layer (`input_layernorm`, `pre_ff_layernorm`) and a
//!   `final_layernorm`; the head is untied unless `tie_word_embeddings` (default false).
//! - Attention: q `h·H·d`, k and v `h·K·d`, o `H·d·h`, all four biased with `attention_bias`;
//!   `head_dim` from the config, else `h / H`.
//! - Mamba-2: inner width `I = mamba_d_ssm` (default 1024; `mamba_expand · h` when the config
//!   sets it to null), `mamba_n_heads` heads of `mamba_d_head` (`"auto"`: `I / heads`; the
//!   config class rejects `heads · d_head ≠ I`), `conv_dim = I + 2·G·N` with
//!   `G = mamba_n_groups`, `N = mamba_d_state`; `in_proj` `h·(I + conv_dim + heads)` (bias with
//!   `mamba_proj_bias`), a depthwise `conv1d` of `mamba_d_conv` taps (bias with
//!   `mamba_conv_bias`, default true), `dt_bias`, `A_log`, `D` (`heads` each), the gated
//!   RMSNorm of `I` only when `mamba_rms_norm` (default false), `out_proj` `I·h` (bias with
//!   `projectors_bias`).
//! - The µP multipliers (`mlp_multipliers`, `ssm_multipliers`, `key_multiplier`,
//!   `attention_in/out_multiplier`, `ssm_in/out_multiplier`, `embedding_multiplier`,
//!   `lm_head_multiplier`) are runtime scalars; `mup_vector` is a non-persistent buffer. None
//!   of them is a parameter.
//!
//! **Memory per sequence.** Each layer keeps both caches: a KV cache that grows with the
//! context and the Mamba-2 state that does not (`FalconHybridMambaAttentionDynamicCache`;
//! vLLM `FalconH1ParallelHybrid` with `MambaStateShapeCalculator.mamba2_state_shape`).

use super::config::Fields;
use super::hybrid::{Ffn, Hybrid, Mamba2, Mixer};
use super::{Architecture, MlpKind, NormKind};
use crate::engine::error::{ErrorKind, ScenarioError};
use crate::engine::num::usize_sat;
use serde_json::Value;

const MAX_WIDTH: u64 = 1 << 20;
const MAX_HEADS: u64 = 1 << 16;
const MAX_KERNEL: u64 = 64;

/// Fills in Falcon-H1's layout on an architecture `config::build` read with the common rules.
pub(super) fn apply(f: &Fields, a: &mut Architecture) -> Result<(), ScenarioError> {
    let n = usize_sat(a.layers);
    // `mamba_d_ssm`: absent → the class default 1024; null → `mamba_expand · hidden`.
    let inner = match f.int(&["mamba_d_ssm"], 1, MAX_WIDTH)? {
        Some(i) => i,
        None if f.is_null("mamba_d_ssm") => {
            f.int(&["mamba_expand"], 1, 64)?.unwrap_or(2).saturating_mul(a.hidden)
        }
        None => 1024,
    };
    let mamba = Mamba2 {
        out_bias: f.boolean(&["projectors_bias"], false)?,
        gated_norm: f.boolean(&["mamba_rms_norm"], false)?,
        ..mamba2(f, inner, "mamba_d_ssm")?
    };
    a.mlp = MlpKind::Gated;
    a.mlp_bias = f.boolean(&["mlp_bias"], false)?;
    a.norm = NormKind::RmsNorm;
    a.norms_per_layer = 2;
    a.hybrid = Some(Hybrid {
        mixers: vec![Mixer::Attention; n],
        ffn: vec![Ffn::Dense; n],
        mamba: Some(mamba),
        mamba_beside_attention: true,
        ..Hybrid::default()
    });
    Ok(())
}

/// A Mamba-2 mixer from the `mamba_*` keys Falcon-H1 and GraniteMoeHybrid share: heads and head
/// size by [`mamba_heads`], `mamba_n_groups` (default 1, dividing the heads), `mamba_d_state`
/// (256), `mamba_d_conv` (4), `mamba_conv_bias` (true), `mamba_proj_bias` (false) on `in_proj`
/// and `out_proj` alike, with the gated RMSNorm; a family changes what its config class does
/// differently.
pub(super) fn mamba2(f: &Fields, inner: u64, inner_key: &'static str) -> Result<Mamba2, ScenarioError> {
    let (heads, head_dim) = mamba_heads(f, inner, inner_key)?;
    let groups = f.int(&["mamba_n_groups"], 1, MAX_HEADS)?.unwrap_or(1);
    if !heads.is_multiple_of(groups) {
        return Err(ScenarioError::new(
            f.path("mamba_n_groups"),
            ErrorKind::MustDivide { what: "mamba_n_heads", value: heads, got: groups },
        ));
    }
    let proj_bias = f.boolean(&["mamba_proj_bias"], false)?;
    Ok(Mamba2 {
        heads,
        head_dim,
        state_size: f.int(&["mamba_d_state"], 1, MAX_WIDTH)?.unwrap_or(256),
        groups,
        conv_kernel: f.int(&["mamba_d_conv"], 1, MAX_KERNEL)?.unwrap_or(4),
        conv_bias: f.boolean(&["mamba_conv_bias"], true)?,
        proj_bias,
        out_bias: proj_bias,
        gated_norm: true,
    })
}

/// `mamba_n_heads` (default 128) and `mamba_d_head` (`"auto"` or absent: `inner / heads`), as
/// the Falcon-H1 and GraniteMoeHybrid config classes check them: the heads divide the inner
/// width (`inner_key` names it in the error) and `heads · d_head = inner`.
pub(super) fn mamba_heads(
    f: &Fields,
    inner: u64,
    inner_key: &'static str,
) -> Result<(u64, u64), ScenarioError> {
    let heads = f.int(&["mamba_n_heads"], 1, MAX_HEADS)?.unwrap_or(128);
    if !inner.is_multiple_of(heads) {
        return Err(ScenarioError::new(
            f.path("mamba_n_heads"),
            ErrorKind::MustDivide { what: inner_key, value: inner, got: heads },
        ));
    }
    let want = inner / heads;
    if let Some(Value::String(s)) = f.get("mamba_d_head") {
        if s == "auto" {
            return Ok((heads, want));
        }
    }
    match f.int(&["mamba_d_head"], 1, MAX_WIDTH)? {
        Some(d) if d != want => Err(ScenarioError::new(
            f.path("mamba_d_head"),
            ErrorKind::IntegerOutOfRange { min: want, max: want, got: d.to_string() },
        )),
        _ => Ok((heads, want)),
    }
}

#[cfg(test)]
mod tests {
    use crate::engine::model::config::parse_config;
    use crate::engine::model::hybrid::{layer_params, recurrent_state_bytes};
    use crate::engine::precision::Dtype;
    use serde_json::json;

    fn tiny() -> serde_json::Value {
        json!({"model_type": "falcon_h1", "hidden_size": 64, "num_hidden_layers": 2,
            "num_attention_heads": 4, "num_key_value_heads": 2, "head_dim": 16, "intermediate_size": 96,
            "vocab_size": 100, "mamba_d_ssm": 32, "mamba_n_heads": 4, "mamba_d_head": "auto",
            "mamba_n_groups": 1, "mamba_d_state": 8, "mamba_d_conv": 4})
    }

    #[test]
    fn a_layer_holds_attention_mamba_and_the_mlp() {
        let a = parse_config(&tiny()).unwrap();
        let h = a.hybrid.as_ref().unwrap();
        // attention: q 64·64, k,v 64·32 each, o 64·64 = 12288
        // Mamba-2: I = 32, conv_dim = 32 + 2·8 = 48; in_proj 64·(32 + 48 + 4) = 5376,
        //   out_proj 32·64 = 2048; conv1d 48·4 + bias 48 = 240; dt_bias, A_log, D 12; no norm
        // MLP: 3·64·96 = 18432; norms 2·64
        assert_eq!(layer_params(&a, h, 0).total(), 12288 + 5376 + 2048 + 240 + 12 + 18432 + 128);
        // Every layer keeps KV and a state: 2 layers × (48·3 conv + 4·8·8 SSM) × 2 bytes.
        assert_eq!(a.attention_layers(), 2);
        assert_eq!(recurrent_state_bytes(&a, 0..2, 1, 1, Dtype::Bf16), 2 * (48 * 3 + 4 * 8 * 8) * 2);
        // The optional norm and the biases.
        let mut cfg = tiny();
        cfg["mamba_rms_norm"] = json!(true);
        cfg["projectors_bias"] = json!(true);
        cfg["mamba_proj_bias"] = json!(true);
        let b = parse_config(&cfg).unwrap();
        assert_eq!(
            layer_params(&b, b.hybrid.as_ref().unwrap(), 0).total(),
            layer_params(&a, h, 0).total() + 32 + 64 + 84
        );
    }

    #[test]
    fn inconsistent_mamba_shapes_are_named() {
        let mut cfg = tiny();
        cfg["mamba_n_heads"] = json!(5);
        assert_eq!(parse_config(&cfg).unwrap_err().field, "model.mamba_n_heads");
        let mut cfg = tiny();
        cfg["mamba_d_head"] = json!(16);
        assert_eq!(parse_config(&cfg).unwrap_err().field, "model.mamba_d_head");
        let mut cfg = tiny();
        cfg["mamba_n_groups"] = json!(3);
        assert_eq!(parse_config(&cfg).unwrap_err().field, "model.mamba_n_groups");
        // null mamba_d_ssm: mamba_expand × hidden = 128, 4 heads of 32.
        let mut cfg = tiny();
        cfg["mamba_d_ssm"] = json!(null);
        cfg["mamba_d_head"] = json!(32);
        let a = parse_config(&cfg).unwrap();
        assert_eq!(a.hybrid.unwrap().mamba.unwrap().inner(), 128);
    }
}
