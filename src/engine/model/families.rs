//! The newer MoE families, each following its Hugging Face modelling code module by module:
//!
//! - `gpt_oss` (`modeling_gpt_oss.py`): q/k/v/o projections with biases (`attention_bias`,
//!   default true), one learned attention sink per query head (`self.sinks`, `H` values per
//!   layer), experts stored as `gate_up_proj (E, h, 2I)` + `gate_up_proj_bias (E, 2I)` and
//!   `down_proj (E, I, h)` + `down_proj_bias (E, h)`, a router with weight `(E, h)` and bias
//!   `(E)`; every layer is MoE; `layer_types` alternates `sliding_attention` (window
//!   `sliding_window`, default 128) and `full_attention`, starting with sliding
//!   (`GptOssConfig`: layer `i` slides when `(i + 1) % 2` is odd). OpenAI's model card (arXiv
//!   2508.10925, table 1) counts 116.83B total / 5.13B active for gpt-oss-120b and
//!   20.91B / 3.61B for gpt-oss-20b; its active count leaves out the input embedding.
//! - `llama4` / `llama4_text` (`modeling_llama4.py`, `configuration_llama4.py`): MoE layers
//!   are `moe_layers`, else `range(step - 1, layers, step)` with
//!   `interleave_moe_layer_step`; each MoE layer has `num_local_experts` experts of width
//!   `intermediate_size`, a bias-free router and one shared expert of the same width; the
//!   other layers are dense MLPs of width `intermediate_size_mlp`. The q/k norm
//!   (`use_qk_norm`) is an L2 norm without weights, and layers without RoPE
//!   (`no_rope_layers` = 0) add or remove no parameters. `layer_types` (default: chunked where
//!   `no_rope_layers` is 1, full where it is 0, every 4th layer by `no_rope_layer_interval`)
//!   makes a layer attend within chunks of `attention_chunk_size` tokens, so it never holds
//!   more than one chunk of KV (vLLM `ChunkedLocalAttentionSpec`): counted here as a window
//!   of that size. The vision tower of multimodal checkpoints is not counted.
//! - `glm4_moe` (`modeling_glm4_moe.py`): q/k/v biases when `attention_bias`, o without;
//!   per-head q/k RMSNorms when `use_qk_norm`; the first `first_k_dense_replace` layers are
//!   dense (`intermediate_size`), the rest MoE with `n_routed_experts` experts of
//!   `moe_intermediate_size`, `n_shared_experts` shared ones, a router `(E, h)` and its
//!   `e_score_correction_bias (E)`. Partial rotary (`partial_rotary_factor`) changes no
//!   shapes. The `num_nextn_predict_layers` multi-token-prediction layers shipped in the
//!   checkpoint are not counted: transformers skips them on load (`_keys_to_ignore_on_load_
//!   unexpected` on layer index `num_hidden_layers`) and servers load them only for
//!   speculative decoding; [`Extras::mtp_layers`] keeps the number.
//! - `minimax_m2` (`modular_minimax_m2.py`): bias-free attention with full-width q/k RMSNorms
//!   (`H·d` and `K·d` weights, FlexOlmo's layout) when `use_qk_norm`, every layer MoE with
//!   `num_local_experts` experts of `intermediate_size`, a router and its
//!   `e_score_correction_bias` (a stored buffer, counted as it takes memory). Its MTP modules
//!   (`num_mtp_modules`) are not counted, as for GLM.

use super::config::Fields;
use super::params::LayerParams;
use super::{Architecture, Family, MlpKind, Moe};
use crate::engine::error::{ErrorKind, Expected, ScenarioError};
use crate::engine::num::usize_sat;
use serde::Serialize;
use serde_json::Value;

const MAX_EXPERTS: u64 = 1 << 16;
const MAX_INTERMEDIATE: u64 = 1 << 22;
const MAX_LAYERS: u64 = 4096;

/// What the newer families add to the common shape.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Extras {
    /// One learned attention-sink logit per query head and layer (gpt-oss).
    pub attention_sinks: bool,
    /// Biases on every routed expert's gate/up (`2I`) and down (`h`) projections (gpt-oss).
    pub expert_biases: bool,
    /// The windowed layers attend within fixed chunks (Llama 4's `attention_chunk_size`)
    /// rather than a sliding window; either way a layer holds at most that many tokens.
    pub chunked_attention: bool,
    /// Multi-token-prediction layers the checkpoint also ships, not counted (GLM-4.5's
    /// `num_nextn_predict_layers`, MiniMax's `num_mtp_modules`).
    pub mtp_layers: u64,
    /// Group-limited routing (DeepSeek-V2/V3's `n_group`, `topk_group`): the routed experts
    /// form `routing_groups` groups and each token chooses its experts within
    /// `groups_per_token` of them (0 when the config has none).
    pub routing_groups: u64,
    pub groups_per_token: u64,
}

/// Completes an architecture that `config::build` read with the common rules, for the
/// families of this file; other families pass through unchanged.
pub(super) fn apply(f: &Fields, mut a: Architecture) -> Result<Architecture, ScenarioError> {
    match a.family {
        Family::GptOss => gpt_oss(f, &mut a)?,
        Family::Llama4 => llama4(f, &mut a)?,
        Family::Glm4Moe => glm4_moe(f, &mut a)?,
        Family::MinimaxM2 => minimax_m2(f, &mut a)?,
        _ => {}
    }
    Ok(a)
}

/// Routed experts and top-k, read from the first present key of each list.
fn experts(f: &Fields, count: &[&'static str], top: &[&'static str]) -> Result<(u64, u64), ScenarioError> {
    let e = f.need(count, 1, MAX_EXPERTS)?;
    Ok((e, f.need(top, 1, e)?))
}

fn gpt_oss(f: &Fields, a: &mut Architecture) -> Result<(), ScenarioError> {
    let bias = f.boolean(&["attention_bias"], true)?;
    a.attention.qkv_bias = bias;
    a.attention.o_bias = bias;
    let (e, k) =
        experts(f, &["num_local_experts", "num_experts"], &["num_experts_per_tok", "experts_per_token"])?;
    let n = usize_sat(a.layers);
    a.moe = Some(Moe {
        routed_experts: e,
        experts_per_token: k,
        expert_intermediate: a.intermediate,
        shared_intermediate: 0,
        shared_expert_gate: false,
        router_bias: true,
        layer_is_moe: vec![true; n],
    });
    a.extras.attention_sinks = true;
    a.extras.expert_biases = true;
    // `config::build` read `layer_types` when `sliding_window` was given; GptOssConfig's
    // defaults (window 128, alternating from a sliding first layer) fill in the rest.
    if a.sliding_window.is_none() || f.get("layer_types").is_none() {
        a.sliding_window = a.sliding_window.or(Some(128));
        a.layer_is_sliding = match f.get("layer_types") {
            Some(Value::Array(types)) if types.len() == n => {
                types.iter().map(|t| t.as_str() == Some("sliding_attention")).collect()
            }
            Some(Value::Array(types)) => {
                return Err(ScenarioError::new(
                    f.path("layer_types"),
                    ErrorKind::OnePerLayer { layers: n, got: types.len() },
                ))
            }
            _ => (0..n).map(|i| i % 2 == 0).collect(),
        };
    }
    Ok(())
}

/// A list of layer indices (`moe_layers`), or `None` when absent.
fn index_list(f: &Fields, key: &'static str) -> Result<Option<Vec<u64>>, ScenarioError> {
    match f.get(key) {
        None => Ok(None),
        Some(Value::Array(v)) => Ok(Some(v.iter().filter_map(Value::as_u64).collect())),
        Some(v) => Err(ScenarioError::new(
            f.path(key),
            ErrorKind::WrongType { expected: Expected::List, got: v.to_string() },
        )),
    }
}

fn llama4(f: &Fields, a: &mut Architecture) -> Result<(), ScenarioError> {
    let n = usize_sat(a.layers);
    let expert_intermediate = a.intermediate;
    a.intermediate = f.int(&["intermediate_size_mlp"], 1, MAX_INTERMEDIATE)?.unwrap_or(16_384);
    let e = f.int(&["num_local_experts"], 1, MAX_EXPERTS)?.unwrap_or(16);
    let k = f.int(&["num_experts_per_tok"], 1, e)?.unwrap_or(1);
    let layer_is_moe = match index_list(f, "moe_layers")? {
        Some(list) => (0..a.layers).map(|i| list.contains(&i)).collect(),
        None => {
            let step = f.int(&["interleave_moe_layer_step"], 1, MAX_LAYERS)?.unwrap_or(1);
            (0..a.layers).map(|i| (i + 1) % step == 0).collect()
        }
    };
    a.moe = Some(Moe {
        routed_experts: e,
        experts_per_token: k,
        expert_intermediate,
        shared_intermediate: expert_intermediate,
        shared_expert_gate: false,
        router_bias: false,
        layer_is_moe,
    });
    // The q/k L2 norm has no weights.
    a.attention.qk_norm = false;
    // Chunked layers: `layer_types`, else the layers with RoPE (`no_rope_layers` = 1).
    let chunked: Vec<bool> = match f.get("layer_types") {
        Some(Value::Array(types)) if types.len() == n => {
            types.iter().map(|t| t.as_str() == Some("chunked_attention")).collect()
        }
        Some(Value::Array(types)) => {
            return Err(ScenarioError::new(
                f.path("layer_types"),
                ErrorKind::OnePerLayer { layers: n, got: types.len() },
            ))
        }
        _ => match f.get("no_rope_layers") {
            Some(Value::Array(v)) if !v.is_empty() => {
                if v.len() != n {
                    return Err(ScenarioError::new(
                        f.path("no_rope_layers"),
                        ErrorKind::OnePerLayer { layers: n, got: v.len() },
                    ));
                }
                v.iter().map(|x| x.as_u64() == Some(1)).collect()
            }
            _ => {
                let every = f.int(&["no_rope_layer_interval"], 1, MAX_LAYERS)?.unwrap_or(4);
                (0..a.layers).map(|i| (i + 1) % every != 0).collect()
            }
        },
    };
    a.sliding_window = Some(f.int(&["attention_chunk_size"], 1, u64::MAX)?.unwrap_or(8192));
    a.layer_is_sliding = chunked;
    a.extras.chunked_attention = true;
    Ok(())
}

fn glm4_moe(f: &Fields, a: &mut Architecture) -> Result<(), ScenarioError> {
    a.attention.qkv_bias = f.boolean(&["attention_bias"], false)?;
    a.attention.o_bias = false;
    a.attention.qk_norm = f.boolean(&["use_qk_norm"], false)?;
    a.attention.qk_norm_full_width = false;
    let (e, k) = experts(f, &["n_routed_experts"], &["num_experts_per_tok"])?;
    let expert_intermediate = f.need(&["moe_intermediate_size"], 1, MAX_INTERMEDIATE)?;
    let shared = f.int(&["n_shared_experts"], 0, MAX_EXPERTS)?.unwrap_or(1);
    let first_dense = f.int(&["first_k_dense_replace"], 0, MAX_LAYERS)?.unwrap_or(1);
    a.moe = Some(Moe {
        routed_experts: e,
        experts_per_token: k,
        expert_intermediate,
        shared_intermediate: shared.saturating_mul(expert_intermediate),
        shared_expert_gate: false,
        router_bias: true,
        layer_is_moe: (0..a.layers).map(|i| i >= first_dense).collect(),
    });
    a.extras.mtp_layers = f.int(&["num_nextn_predict_layers"], 0, MAX_LAYERS)?.unwrap_or(0);
    Ok(())
}

fn minimax_m2(f: &Fields, a: &mut Architecture) -> Result<(), ScenarioError> {
    a.attention.qkv_bias = false;
    a.attention.o_bias = false;
    a.attention.qk_norm = f.boolean(&["use_qk_norm"], true)?;
    a.attention.qk_norm_full_width = true;
    let (e, k) = experts(f, &["num_local_experts"], &["num_experts_per_tok"])?;
    a.moe = Some(Moe {
        routed_experts: e,
        experts_per_token: k,
        expert_intermediate: a.intermediate,
        shared_intermediate: f.int(&["shared_intermediate_size"], 0, MAX_INTERMEDIATE)?.unwrap_or(0),
        shared_expert_gate: false,
        router_bias: f.boolean(&["use_routing_bias"], true)?,
        layer_is_moe: vec![true; usize_sat(a.layers)],
    });
    a.extras.mtp_layers = f.int(&["num_mtp_modules"], 0, MAX_LAYERS)?.unwrap_or(0);
    Ok(())
}

/// Adds what these families put in a decoder layer beyond the common modules: attention sinks
/// (`H`) and routed-expert biases (`E·(2I + h)`, of which one token uses `k·(2I + h)`).
pub(super) fn layer_extras(a: &Architecture, index: usize, p: &mut LayerParams) {
    if a.extras.attention_sinks {
        p.small += u128::from(a.attention.heads);
    }
    if let (true, true, Some(moe)) = (a.extras.expert_biases, a.is_moe_layer(index), &a.moe) {
        let i = u128::from(moe.expert_intermediate);
        let per_expert = match a.mlp {
            MlpKind::Gated => 2 * i,
            MlpKind::Plain => i,
        } + u128::from(a.hidden);
        let (e, k) = (u128::from(moe.routed_experts), u128::from(moe.experts_per_token));
        p.small += e * per_expert;
        p.inactive_small += e.saturating_sub(k) * per_expert;
    }
}

#[cfg(test)]
mod tests {
    use crate::engine::model::config::parse_config;
    use crate::engine::model::params::count_params;
    use serde_json::json;

    #[test]
    fn gpt_oss_defaults_alternate_sliding_layers_and_bias_everything() {
        let a = parse_config(&json!({"model_type": "gpt_oss", "hidden_size": 64, "num_hidden_layers": 4,
            "num_attention_heads": 4, "num_key_value_heads": 2, "head_dim": 16, "intermediate_size": 32,
            "num_local_experts": 4, "num_experts_per_tok": 2, "vocab_size": 10}))
        .unwrap();
        assert_eq!(a.layer_is_sliding, [true, false, true, false]);
        assert_eq!(a.sliding_window, Some(128));
        // attention 64·(64+32+32) + 64·64 = 12,288, biases 64+32+32+64, sinks 4;
        // experts 4·(3·64·32 + 2·32 + 64) = 25,088, router 64·4 + 4, norms 128
        let c = count_params(&a);
        let layer = 12_288 + 192 + 4 + 25_088 + 260 + 128;
        assert_eq!(c.total, 4 * layer + 2 * 640 + 64);
        // a token uses 2 of the 4 experts with their biases
        assert_eq!(c.active, c.total - 4 * 2 * (3 * 64 * 32 + 2 * 32 + 64));
    }

    #[test]
    fn gpt_oss_layer_types_without_a_window_use_the_default_128() {
        let a = parse_config(&json!({"model_type": "gpt_oss", "hidden_size": 64, "num_hidden_layers": 2,
            "num_attention_heads": 4, "num_key_value_heads": 2, "head_dim": 16, "intermediate_size": 32,
            "num_local_experts": 4, "num_experts_per_tok": 2, "vocab_size": 10,
            "layer_types": ["full_attention", "sliding_attention"]}))
        .unwrap();
        assert_eq!((a.sliding_window, a.layer_is_sliding.as_slice()), (Some(128), &[false, true][..]));
        let e = parse_config(&json!({"model_type": "gpt_oss", "hidden_size": 64, "num_hidden_layers": 2,
            "num_attention_heads": 4, "intermediate_size": 32, "num_local_experts": 4,
            "num_experts_per_tok": 2, "vocab_size": 10, "layer_types": ["full_attention"]}))
        .unwrap_err();
        assert_eq!(e.field, "model.layer_types");
    }

    #[test]
    fn missing_expert_counts_are_named() {
        let e = parse_config(&json!({"model_type": "glm4_moe", "hidden_size": 64, "num_hidden_layers": 2,
            "num_attention_heads": 4, "intermediate_size": 32, "vocab_size": 10}))
        .unwrap_err();
        assert_eq!(e.field, "model.n_routed_experts");
        let e = parse_config(&json!({"model_type": "llama4_text", "hidden_size": 64, "num_hidden_layers": 2,
            "num_attention_heads": 4, "intermediate_size": 32, "vocab_size": 10, "no_rope_layers": [1, 0, 1]}))
        .unwrap_err();
        assert_eq!(e.field, "model.no_rope_layers");
    }
}
