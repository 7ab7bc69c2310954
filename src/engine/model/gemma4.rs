//! Gemma 4 (`gemma4`, `gemma4_text`), module by module as huggingface/transformers builds it
//! (`src/transformers/models/gemma4/modeling_gemma4.py`, `configuration_gemma4.py`, transformers
//! ≥ 5.5) and as vLLM serves it (`vllm/model_executor/models/gemma4.py`).
//!
//! - **Two layer kinds.** `layer_types` ("sliding_attention" / "full_attention"; default: every
//!   6th layer full, and the last layer is always full) choose per layer. Sliding layers use
//!   `head_dim` and `num_key_value_heads`; full layers use `global_head_dim` (default 512) and,
//!   when `attention_k_eq_v`, `num_global_key_value_heads` (else `num_key_value_heads`).
//! - **Attention** (`Gemma4TextAttention`): `q_proj` `h·H·d`, `o_proj` `H·d·h`, a `q_norm` and a
//!   `k_norm` of `d` weights each, and a `v_norm` without weights; `k_proj` `h·K·d`; `v_proj`
//!   `h·K·d` except on full layers with `attention_k_eq_v`, where the key projection's output is
//!   also the value. Both are still cached: the key after `k_norm` and RoPE, the value after
//!   `v_norm` (transformers' `past_key_values.update(key_states, value_states)`; vLLM loads the
//!   key weights into both slots of `qkv_proj` and caches K and V of `num_kv_heads × head_dim`).
//! - **KV sharing** (`num_kv_shared_layers`): the last layers keep no cache of their own and
//!   read the cache of the last earlier layer of their kind (vLLM `kv_sharing_target_layer_name`).
//!   transformers drops their `k_proj`/`v_proj`/`k_norm` on load
//!   (`_keys_to_ignore_on_load_unexpected`), though the published checkpoints still carry them;
//!   like the MTP layers of other families (`families.rs`) they are not counted here.
//! - **MLP** (`Gemma4TextMLP`): gated, `intermediate_size`, twice that on the KV-shared layers
//!   when `use_double_wide_mlp`.
//! - **MoE** (`enable_moe_block`): every layer keeps its dense MLP and adds `num_experts` experts
//!   of `moe_intermediate_size` (`gate_up_proj (E, 2I, h)`, `down_proj (E, h, I)`), `top_k_experts`
//!   per token, a router (`proj` `h·E`, `scale` `h`, `per_expert_scale` `E`) and three more norms
//!   (`post_feedforward_layernorm_1/2`, `pre_feedforward_layernorm_2`).
//! - **Per-layer input embeddings** (`hidden_size_per_layer_input` p > 0, the "E" models): one
//!   table `embed_tokens_per_layer` of `vocab_size_per_layer_input × (L·p)`, looked up per token
//!   like a position table (counted with the gathered lookups, not read whole per token), a
//!   `per_layer_model_projection` `h·(L·p)` and its norm `p`; in each layer a
//!   `per_layer_input_gate` `h·p`, a `per_layer_projection` `p·h` and a norm `h`.
//! - Four norms per layer, a `layer_scalar` buffer (1 value, stored in the checkpoint), the
//!   embedding (tied head by default) and a final norm.
//!
//! The vision and audio towers of `Gemma4ForConditionalGeneration` are not counted: the model
//! card's parameter counts (30.7B for 31B, 25.2B / 3.8B active for 26B A4B) are the text
//! decoder's.

use super::config::Fields;
use super::params::LayerParams;
use super::{Architecture, Family, Moe};
use crate::engine::derivation::{Formula, Val};
use crate::engine::error::{ErrorKind, Expected, ScenarioError};
use crate::engine::num::usize_sat;
use crate::engine::precision::Dtype;
use serde::Serialize;
use serde_json::Value;

const MAX_HEADS: u64 = 1 << 16;
const MAX_WIDTH: u64 = 1 << 20;
const MAX_VOCAB: u64 = 1 << 24;
const MAX_EXPERTS: u64 = 1 << 16;
const MAX_INTERMEDIATE: u64 = 1 << 22;

/// What Gemma 4 adds to the common shape (the sliding layers' shape is `Architecture::attention`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Gemma4 {
    /// Head size of the full-attention layers (`global_head_dim`).
    pub global_head_dim: u64,
    /// KV heads of the full-attention layers.
    pub global_kv_heads: u64,
    /// Full-attention layers compute the value with the key projection (no `v_proj`).
    pub k_eq_v: bool,
    /// The first layer that reads an earlier layer's cache (`layers` when none does).
    pub first_shared_layer: u64,
    /// Per-layer input width `p` (`hidden_size_per_layer_input`, 0 when none).
    pub per_layer_input: u64,
    /// Rows of the per-layer embedding table (`vocab_size_per_layer_input`).
    pub per_layer_vocab: u64,
    /// The KV-shared layers' MLP is twice as wide (`use_double_wide_mlp`).
    pub double_wide_mlp: bool,
}

impl Gemma4 {
    /// Whether layer `i` reads another layer's cache (and stores none).
    pub fn shares_kv(&self, i: usize) -> bool {
        u64::try_from(i).is_ok_and(|i| i >= self.first_shared_layer)
    }

    /// The per-layer embedding table `vocab_size_per_layer_input × (L·p)`.
    pub fn lookup_table(&self, layers: u64) -> u128 {
        u128::from(self.per_layer_vocab) * u128::from(layers) * u128::from(self.per_layer_input)
    }
}

/// Completes a Gemma 4 architecture (other families pass unchanged).
pub(super) fn apply(f: &Fields, mut a: Architecture) -> Result<Architecture, ScenarioError> {
    if a.family != Family::Gemma4 {
        return Ok(a);
    }
    let n = usize_sat(a.layers);
    // Gemma4TextConfig: tied head, 4 norms per layer, q/k norms, window 512.
    a.tied_embeddings = f.boolean(&["tie_word_embeddings"], true)?;
    a.norms_per_layer = 4;
    a.attention.qk_norm = true;
    a.attention.qk_norm_full_width = false;
    let mut window = f.int(&["sliding_window"], 1, u64::MAX)?.unwrap_or(512);
    // Bidirectional attention everywhere halves the window (configuration_gemma4.py).
    if f.string("use_bidirectional_attention") == Some("all") {
        window = window / 2 + 1;
    }
    a.sliding_window = Some(window);
    a.layer_is_sliding = layer_kinds(f, n)?;
    let k_eq_v = f.boolean(&["attention_k_eq_v"], false)?;
    let global_kv_heads = match (k_eq_v, f.int(&["num_global_key_value_heads"], 1, MAX_HEADS)?) {
        (true, Some(k)) => k,
        _ => a.attention.kv_heads,
    };
    if !a.attention.heads.is_multiple_of(global_kv_heads) {
        return Err(ScenarioError::new(
            f.path("num_global_key_value_heads"),
            ErrorKind::MustDivide {
                what: "num_attention_heads",
                value: a.attention.heads,
                got: global_kv_heads,
            },
        ));
    }
    let shared = f.int(&["num_kv_shared_layers"], 0, a.layers.saturating_sub(1))?.unwrap_or(0);
    let first_shared_layer = a.layers - shared;
    check_shared_sources(f, &a.layer_is_sliding, usize_sat(first_shared_layer))?;
    let per_layer_input = f.int(&["hidden_size_per_layer_input"], 0, MAX_WIDTH)?.unwrap_or(256);
    a.gemma4 = Some(Gemma4 {
        global_head_dim: f.int(&["global_head_dim"], 1, MAX_HEADS)?.unwrap_or(512),
        global_kv_heads,
        k_eq_v,
        first_shared_layer,
        per_layer_input,
        per_layer_vocab: f.int(&["vocab_size_per_layer_input"], 1, MAX_VOCAB)?.unwrap_or(262_144),
        double_wide_mlp: f.boolean(&["use_double_wide_mlp"], false)?,
    });
    if f.boolean(&["enable_moe_block"], false)? {
        let e = f.need(&["num_experts"], 1, MAX_EXPERTS)?;
        a.moe = Some(Moe {
            routed_experts: e,
            experts_per_token: f.need(&["top_k_experts"], 1, e)?,
            expert_intermediate: f.need(&["moe_intermediate_size"], 1, MAX_INTERMEDIATE)?,
            // The dense MLP runs beside the experts for every token: an always-on shared expert.
            shared_intermediate: a.intermediate,
            shared_expert_gate: false,
            // `per_expert_scale` (E values).
            router_bias: true,
            layer_is_moe: vec![true; n],
        });
    }
    Ok(a)
}

/// `layer_types`, else every 6th layer full; the last layer is full either way.
fn layer_kinds(f: &Fields, n: usize) -> Result<Vec<bool>, ScenarioError> {
    const TYPES: [&str; 2] = ["sliding_attention", "full_attention"];
    let mut sliding: Vec<bool> = match f.get("layer_types") {
        None => (0..n).map(|i| (i + 1) % 6 != 0).collect(),
        Some(Value::Array(types)) if types.len() == n => {
            let mut v = Vec::with_capacity(n);
            for t in types {
                match t.as_str() {
                    Some("sliding_attention") => v.push(true),
                    Some("full_attention") => v.push(false),
                    _ => {
                        return Err(ScenarioError::new(
                            f.path("layer_types"),
                            ErrorKind::WrongType {
                                expected: Expected::OneOf(TYPES.iter().map(|s| (*s).to_owned()).collect()),
                                got: t.to_string(),
                            },
                        ))
                    }
                }
            }
            v
        }
        Some(Value::Array(types)) => {
            return Err(ScenarioError::new(
                f.path("layer_types"),
                ErrorKind::OnePerLayer { layers: n, got: types.len() },
            ))
        }
        Some(v) => {
            return Err(ScenarioError::new(
                f.path("layer_types"),
                ErrorKind::WrongType { expected: Expected::List, got: v.to_string() },
            ))
        }
    };
    if let Some(last) = sliding.last_mut() {
        *last = false;
    }
    Ok(sliding)
}

/// Every KV-shared layer needs an earlier layer of its kind to read from.
fn check_shared_sources(f: &Fields, sliding: &[bool], first_shared: usize) -> Result<(), ScenarioError> {
    let (own, shared) = sliding.split_at(first_shared.min(sliding.len()));
    let missing = |kind: bool| shared.contains(&kind) && !own.contains(&kind);
    if missing(true) || missing(false) {
        // The most layers that can share: all but the layers up to the first of each kind.
        let first = |kind: bool| sliding.iter().position(|s| *s == kind).unwrap_or(0);
        let keep = first(true).max(first(false)) + 1;
        let max = sliding.len().saturating_sub(keep) as u64;
        let got = (sliding.len() - first_shared.min(sliding.len())).to_string();
        return Err(ScenarioError::new(
            f.path("num_kv_shared_layers"),
            ErrorKind::IntegerOutOfRange { min: 0, max, got },
        ));
    }
    Ok(())
}

/// Layer `i`'s attention shape: (KV heads, head size, whether it has a `v_proj`).
fn attention_shape(a: &Architecture, g: &Gemma4, i: usize) -> (u128, u128, bool) {
    if a.is_sliding_layer(i) {
        (u128::from(a.attention.kv_heads), u128::from(a.attention.head_dim), true)
    } else {
        (u128::from(g.global_kv_heads), u128::from(g.global_head_dim), !g.k_eq_v)
    }
}

/// Cache elements one token adds to layer `i` on one GPU of a `tp`-way group: a key and a
/// value for each KV head (heads split over GPUs, replicated when fewer than `tp`), none on a
/// layer that reads another layer's cache.
pub fn kv_elements(a: &Architecture, g: &Gemma4, i: usize, tp: u64) -> u128 {
    if g.shares_kv(i) {
        return 0;
    }
    let (kv, d, _) = attention_shape(a, g, i);
    let kv_per_gpu = kv.div_ceil(u128::from(tp.max(1)));
    2 * kv_per_gpu * d
}

/// KV bytes one decode step reads for one sequence of `context` cached tokens, and the bytes per
/// token without the window cap: (read at this context, per token uncapped). A KV-shared layer
/// stores nothing but its attention reads its source layer's cache (the same kind, so the same
/// shape), so reads exceed what is stored (vLLM: the shared layer's `Attention` runs on the
/// target layer's cache).
pub fn kv_read_bytes(
    a: &Architecture,
    g: &Gemma4,
    context: u64,
    dtype: Dtype,
    group_size: u64,
) -> (u128, u128) {
    let (mut held, mut per_token) = (0u128, 0u128);
    for i in 0..usize_sat(a.layers) {
        let (kv, d, _) = attention_shape(a, g, i);
        let tokens = match (a.is_sliding_layer(i), a.sliding_window) {
            (true, Some(w)) => context.min(w),
            _ => context,
        };
        held = held.saturating_add(2 * kv * d * u128::from(tokens));
        per_token += 2 * kv * d;
    }
    (dtype.bytes_for(held, group_size), dtype.bytes_for(per_token, group_size))
}

/// The average over layers of `H · d` times the share of the `context` a layer attends to (its
/// window on sliding layers): the width the time model charges attention scores with.
pub fn attention_width(a: &Architecture, g: &Gemma4, context: u64) -> f64 {
    let c = context.max(1);
    let mut sum = 0u128;
    for i in 0..usize_sat(a.layers) {
        let (_, d, _) = attention_shape(a, g, i);
        let tokens = match (a.is_sliding_layer(i), a.sliding_window) {
            (true, Some(w)) => c.min(w),
            _ => c,
        };
        sum += u128::from(a.attention.heads) * d * u128::from(tokens);
    }
    sum as f64 / (c as f64 * a.layers.max(1) as f64)
}

/// The KV-cache derivation's values for the stage holding `layers`: batch; sliding layers with a
/// cache, context, window, elements per token on one GPU; full layers with a cache, context,
/// elements per token on one GPU (the caller adds the bits and the bytes).
pub fn kv_cache_values(
    a: &Architecture,
    g: &Gemma4,
    layers: std::ops::Range<usize>,
    batch: u64,
    context: u64,
    tp: u64,
) -> Vec<Val> {
    let own = |sliding: bool| {
        layers.clone().filter(|i| a.is_sliding_layer(*i) == sliding && !g.shares_kv(*i)).count() as u64
    };
    let sliding_layer = (0..usize_sat(a.layers)).find(|i| a.is_sliding_layer(*i)).unwrap_or(0);
    let full_layer = (0..usize_sat(a.layers)).find(|i| !a.is_sliding_layer(*i)).unwrap_or(0);
    let per_token = |i: usize| {
        let (kv, d, _) = attention_shape(a, g, i);
        Val::Int(2 * kv.div_ceil(u128::from(tp.max(1))) * d)
    };
    vec![
        Val::int(batch),
        Val::int(own(true)),
        Val::int(context),
        Val::int(a.sliding_window.unwrap_or(context)),
        per_token(sliding_layer),
        Val::int(own(false)),
        Val::int(context),
        per_token(full_layer),
    ]
}

/// The KV-per-token derivation: sliding layers with a cache of their own, their KV heads and
/// head size; the same for the full layers; the cache's bits; the bytes per token.
pub fn kv_derivation(a: &Architecture, g: &Gemma4, bits: Val, bytes: u128) -> (Formula, Vec<Val>) {
    let own = |sliding: bool| {
        (0..usize_sat(a.layers)).filter(|i| a.is_sliding_layer(*i) == sliding && !g.shares_kv(*i)).count()
    };
    let values = vec![
        Val::int(own(true) as u64),
        Val::int(a.attention.kv_heads),
        Val::int(a.attention.head_dim),
        Val::int(own(false) as u64),
        Val::int(g.global_kv_heads),
        Val::int(g.global_head_dim),
        bits,
        Val::ExactBytes(bytes),
    ];
    (Formula::KvPerTokenByLayerKind, values)
}

/// The parameters of decoder layer `i`.
pub fn layer_params(a: &Architecture, g: &Gemma4, i: usize) -> LayerParams {
    let h = u128::from(a.hidden);
    let heads = u128::from(a.attention.heads);
    let (kv, d, has_v) = attention_shape(a, g, i);
    let shared = g.shares_kv(i);
    let mut p = LayerParams::default();
    // Attention: q, o and q_norm always; k, v and k_norm unless the layer reads another's cache.
    let q_out = heads * d;
    let kv_out = if shared { 0 } else { kv * d * if has_v { 2 } else { 1 } };
    p.attention_matrices = h * (q_out + kv_out) + q_out * h;
    p.small += d + if shared { 0 } else { d };
    if a.attention.qkv_bias {
        p.small += q_out + kv_out + h;
    }
    // Dense MLP (double width on the shared layers when asked; `> 0` as in Gemma4TextMLP).
    let double = g.double_wide_mlp && shared && g.first_shared_layer > 0;
    let width = u128::from(a.intermediate) * if double { 2 } else { 1 };
    p.mlp_matrices = 3 * h * width;
    // Experts beside the MLP: router proj, scale and per-expert scale, three more norms.
    if let Some(m) = a.moe.as_ref().filter(|_| a.is_moe_layer(i)) {
        let (e, k) = (u128::from(m.routed_experts), u128::from(m.experts_per_token));
        let one = 3 * h * u128::from(m.expert_intermediate);
        p.expert_matrices = e * one;
        p.active_expert_matrices = k * one;
        p.small += h * e + h + e + 3 * h;
    }
    // Per-layer input: gate h·p, projection p·h, this layer's slice h·p of the model
    // projection, and the post norm.
    let pl = u128::from(g.per_layer_input);
    if pl > 0 {
        p.mlp_matrices += 3 * h * pl;
        p.small += h;
    }
    p.small += 4 * h + 1;
    p
}

/// The outer parameters Gemma 4 adds: (lookup table counted with the gathered positions,
/// the per-layer projection norm counted with the final norm).
pub fn outer_extras(a: &Architecture) -> (u128, u128) {
    match &a.gemma4 {
        Some(g) if g.per_layer_input > 0 => (g.lookup_table(a.layers), u128::from(g.per_layer_input)),
        _ => (0, 0),
    }
}

#[cfg(test)]
mod tests {
    use crate::engine::model::config::parse_config;
    use crate::engine::model::params::count_params;
    use serde_json::json;

    fn small(extra: serde_json::Value) -> serde_json::Value {
        let mut cfg = json!({"model_type": "gemma4_text", "hidden_size": 64, "num_hidden_layers": 4,
            "num_attention_heads": 4, "num_key_value_heads": 2, "head_dim": 16, "global_head_dim": 32,
            "intermediate_size": 128, "vocab_size": 100, "hidden_size_per_layer_input": 0,
            "layer_types": ["sliding_attention", "full_attention", "sliding_attention", "full_attention"]});
        if let (Some(c), Some(e)) = (cfg.as_object_mut(), extra.as_object()) {
            c.extend(e.clone());
        }
        cfg
    }

    #[test]
    fn k_eq_v_drops_v_proj_on_full_layers_only() {
        let a =
            parse_config(&small(json!({"attention_k_eq_v": true, "num_global_key_value_heads": 1}))).unwrap();
        // sliding: q 64·64 + k,v 2·64·32 + o 64·64 = 12,288; full: q 64·128 + k 64·32 + o 128·64 = 18,432
        let c = count_params(&a);
        let norms = 2 * (16 + 16) + 2 * (32 + 32) + 4 * (4 * 64 + 1) + 64;
        assert_eq!(c.attention, 2 * 12_288 + 2 * 18_432);
        assert_eq!(c.total, c.attention + 4 * 3 * 64 * 128 + 100 * 64 + norms);
    }

    #[test]
    fn shared_layers_need_an_earlier_layer_of_their_kind() {
        let e = parse_config(&small(json!({"num_kv_shared_layers": 3}))).unwrap_err();
        assert_eq!(e.field, "model.num_kv_shared_layers");
        let e = parse_config(&small(json!({"layer_types": ["sliding_attention", "local"]}))).unwrap_err();
        assert_eq!(e.field, "model.layer_types");
        assert!(parse_config(&small(json!({"num_kv_shared_layers": 2}))).is_ok());
    }
}
