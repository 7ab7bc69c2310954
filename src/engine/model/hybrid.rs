//! Hybrid families: decoder layers that are not all attention.
//!
//! - **Qwen3-Next** (`qwen3_next`) and **Qwen3.5** (`qwen3_5`, `qwen3_5_moe`): three of every four
//!   layers are Gated DeltaNet linear attention (Yang et al. 2024, "Gated Delta Networks"), the
//!   fourth gated full attention (`layer_types`, else `full_attention_interval`); every layer has
//!   a (sparse) MLP. Module by module as `modeling_qwen3_next.py` builds them
//!   (huggingface/transformers): `Qwen3NextGatedDeltaNet` has `in_proj_qkvz` `h·(2·K_h·d_k +
//!   2·V_h·d_v)`, `in_proj_ba` `h·2·V_h`, a depthwise `conv1d` over `2·K_h·d_k + V_h·d_v`
//!   channels with `linear_conv_kernel_dim` taps (no bias), `dt_bias` and `A_log` (`V_h` each),
//!   a gated RMSNorm of `d_v` and `out_proj` `V_h·d_v·h`; `Qwen3NextAttention` doubles `q_proj`
//!   (queries and an output gate, `2·H·d`) and has per-head q/k RMSNorms; the MoE block has `E`
//!   gated experts, a router `h·E`, a gated shared expert and its `h×1` gate.
//!   The checkpoints also carry a multi-token-prediction layer (`mtp.*`, one attention + MoE
//!   layer, an `fc` of `2h·h` and three norms): transformers drops it on load
//!   (`_keys_to_ignore_on_load_unexpected`) and it is not counted here.
//! - **Nemotron-H** (`nemotron_h`, `modeling_nemotron_h.py`): each layer is one block, a norm
//!   and one mixer from `hybrid_override_pattern` (`M` Mamba-2, `*` attention, `-` MLP, `E`
//!   MoE) or `layers_block_type`. Mamba-2 (Dao & Gu 2024): `in_proj` `h·(2·I + 2·G·N + H_m)`
//!   with `I = H_m·P`, a depthwise `conv1d` over `I + 2·G·N` channels (bias when
//!   `use_conv_bias`), `dt_bias`, `A_log`, `D` (`H_m` each), a gated RMSNorm of `I`, `out_proj`
//!   `I·h`. MLPs are up/down only (relu²); the MoE has plain experts, a router with a
//!   correction bias (DeepSeek-V3's), a shared expert and, with `moe_latent_size`, the latent
//!   projections `fc1_latent_proj`/`fc2_latent_proj`.
//!
//! **State per sequence.** A linear-attention or Mamba layer keeps, for each sequence, a
//! recurrent state that does not grow with the context, plus the last `kernel − 1` inputs of
//! its short convolution. Shapes as vLLM allocates them (`MambaStateShapeCalculator`,
//! vllm/model_executor/layers/mamba/mamba_utils.py): Gated DeltaNet `V_h × d_v × d_k` and a
//! conv state `(2·K_h·d_k + V_h·d_v) × (kernel − 1)`; Mamba-2 `H_m × P × N` and
//! `(I + 2·G·N) × (kernel − 1)`; heads and channels split over tensor parallelism (groups
//! replicated up to the TP size when they do not divide). Dtypes as vLLM's
//! `MambaStateDtypeCalculator`: the conv state in the model dtype, the recurrent state in the
//! dtype the config names (`mamba_ssm_cache_dtype` / `mamba_ssm_dtype`, float32 in the Nemotron 3
//! and Qwen3.5 configs), else the model dtype.

use super::config::Fields;
use super::params::LayerParams;
use super::{Architecture, Family, MlpKind, Moe, NormKind};
use crate::engine::error::{ErrorKind, Expected, ScenarioError};
use crate::engine::num::usize_sat;
use crate::engine::precision::Dtype;
use serde::Serialize;
use serde_json::Value;

const MAX_WIDTH: u64 = 1 << 20;
const MAX_HEADS: u64 = 1 << 16;
const MAX_EXPERTS: u64 = 1 << 16;
const MAX_INTERMEDIATE: u64 = 1 << 22;
const MAX_LAYERS: u64 = 4096;
const MAX_KERNEL: u64 = 64;

/// What mixes tokens in a layer.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Mixer {
    /// Softmax attention: a KV cache that grows with the context.
    Attention,
    /// Gated DeltaNet: a fixed-size state per sequence.
    LinearAttention,
    /// Mamba-2: a fixed-size state per sequence.
    Mamba2,
    /// No token mixer (a Nemotron-H MLP or MoE block).
    None,
    /// LFM2's gated short convolution: only a convolution cache per sequence (`lfm2.rs`).
    ShortConv,
}

/// The feed-forward part of a layer.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Ffn {
    None,
    Dense,
    Moe,
}

/// Gated DeltaNet shape (`linear_*` keys of Qwen3-Next / Qwen3.5).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct GatedDeltaNet {
    pub key_heads: u64,
    pub value_heads: u64,
    pub key_head_dim: u64,
    pub value_head_dim: u64,
    pub conv_kernel: u64,
}

impl GatedDeltaNet {
    /// Channels of the short convolution: `2·K_h·d_k + V_h·d_v`.
    pub fn conv_channels(&self) -> u128 {
        2 * u128::from(self.key_heads) * u128::from(self.key_head_dim)
            + u128::from(self.value_heads) * u128::from(self.value_head_dim)
    }
}

/// Mamba-2 shape (Nemotron-H keys).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Mamba2 {
    pub heads: u64,
    pub head_dim: u64,
    pub state_size: u64,
    pub groups: u64,
    pub conv_kernel: u64,
    pub conv_bias: bool,
    /// Bias on `in_proj`.
    pub proj_bias: bool,
    /// Bias on `out_proj` (Nemotron-H: `use_bias` as `in_proj`; Falcon-H1: `projectors_bias`).
    pub out_bias: bool,
    /// The gated RMSNorm over the inner width (Falcon-H1: only with `mamba_rms_norm`).
    pub gated_norm: bool,
}

impl Mamba2 {
    /// Inner width `I = heads × head_dim`.
    pub fn inner(&self) -> u128 {
        u128::from(self.heads) * u128::from(self.head_dim)
    }
}

/// LFM2's short-convolution block (`Lfm2ShortConv`): `in_proj` `h·3h`, a depthwise `conv` of
/// `kernel` taps over `h` channels, `out_proj` `h·h`, biases on all three with `conv_bias`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct ShortConv {
    pub channels: u64,
    pub kernel: u64,
    pub bias: bool,
}

/// The layer layout of a hybrid model. `Default` is no layer and every optional part off, so a
/// family states only what it has: `Hybrid { mixers, ffn, mamba: Some(m), ..Hybrid::default() }`.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Hybrid {
    /// Per layer: its token mixer.
    pub mixers: Vec<Mixer>,
    /// Per layer: its feed-forward block.
    pub ffn: Vec<Ffn>,
    pub gated_delta_net: Option<GatedDeltaNet>,
    pub mamba: Option<Mamba2>,
    /// Gated attention: `q_proj` also produces a sigmoid output gate (`2·H·d` outputs).
    pub attn_output_gate: bool,
    /// Nemotron-H latent MoE: experts work in this width between two projections.
    pub moe_latent: Option<u64>,
    /// The recurrent state's dtype when the config names one (else the model dtype).
    pub ssm_state_dtype: Option<Dtype>,
    /// Falcon-H1: every attention layer also runs a Mamba-2 mixer side by side (both keep
    /// their cache: KV that grows and a fixed state).
    pub mamba_beside_attention: bool,
    /// LFM2's short convolution, for the [`Mixer::ShortConv`] layers.
    pub short_conv: Option<ShortConv>,
}

/// Fills in the hybrid layout for the hybrid families; other architectures pass unchanged.
pub(super) fn apply(f: &Fields, mut a: Architecture) -> Result<Architecture, ScenarioError> {
    match a.family {
        Family::Qwen3Next | Family::Qwen35 => qwen3_next(f, &mut a)?,
        Family::NemotronH => nemotron_h(f, &mut a)?,
        Family::FalconH1 => super::falcon_h1::apply(f, &mut a)?,
        Family::Lfm2 => super::lfm2::apply(f, &mut a)?,
        Family::GraniteMoeHybrid => super::granite_hybrid::apply(f, &mut a)?,
        _ => return Ok(a),
    }
    Ok(a)
}

/// A value that is not one of `options` (named, with the allowed values).
fn one_of(f: &Fields, key: &str, options: &[&str], got: String) -> ScenarioError {
    let expected = Expected::OneOf(options.iter().map(|o| (*o).to_owned()).collect());
    ScenarioError::new(f.path(key), ErrorKind::WrongType { expected, got })
}

/// The index of `name` among `options`, or the error naming `key`.
fn pick(
    f: &Fields,
    key: &str,
    options: &[&str],
    name: Option<&str>,
    got: &dyn Fn() -> String,
) -> Result<usize, ScenarioError> {
    name.and_then(|n| options.iter().position(|o| *o == n)).ok_or_else(|| one_of(f, key, options, got()))
}

/// Per-layer mixers from the list at `key` (LFM2's and Granite's `layer_types`): each entry one
/// of `names`, mapped to the `kinds` at the same place; `None` when the key is absent. A list of
/// the wrong length, a non-list or an unknown name is an error naming `key`.
pub(super) fn mixer_list(
    f: &Fields,
    key: &'static str,
    layers: usize,
    names: &[&str],
    kinds: &[Mixer],
) -> Result<Option<Vec<Mixer>>, ScenarioError> {
    let Some(v) = f.get(key) else { return Ok(None) };
    let Value::Array(list) = v else {
        return Err(ScenarioError::new(
            f.path(key),
            ErrorKind::WrongType { expected: Expected::List, got: v.to_string() },
        ));
    };
    if list.len() != layers {
        return Err(ScenarioError::new(f.path(key), ErrorKind::OnePerLayer { layers, got: list.len() }));
    }
    let mut mixers = Vec::with_capacity(layers);
    for t in list {
        let i = pick(f, key, names, t.as_str(), &|| t.to_string())?;
        mixers.extend(kinds.get(i).copied());
    }
    Ok(Some(mixers))
}

fn ssm_dtype(f: &Fields) -> Result<Option<Dtype>, ScenarioError> {
    const NAMES: [&str; 4] = ["float32", "bfloat16", "float16", "auto"];
    for key in ["mamba_ssm_cache_dtype", "mamba_ssm_dtype"] {
        if let Some(v) = f.get(key) {
            let i = pick(f, key, &NAMES, v.as_str(), &|| v.to_string())?;
            return Ok([Some(Dtype::Fp32), Some(Dtype::Bf16), Some(Dtype::Fp16), None]
                .get(i)
                .copied()
                .flatten());
        }
    }
    Ok(None)
}

/// Qwen3-Next / Qwen3.5: `layer_types` ("linear_attention" / "full_attention") or every
/// `full_attention_interval`-th layer full (`Qwen3NextConfig`'s default 4); MoE where
/// `num_experts > 0`, not in `mlp_only_layers` and `(i + 1) % decoder_sparse_step == 0`.
fn qwen3_next(f: &Fields, a: &mut Architecture) -> Result<(), ScenarioError> {
    let n = usize_sat(a.layers);
    let mixers = match f.get("layer_types") {
        Some(Value::Array(types)) => {
            if types.len() != n {
                return Err(ScenarioError::new(
                    f.path("layer_types"),
                    ErrorKind::OnePerLayer { layers: n, got: types.len() },
                ));
            }
            const TYPES: [&str; 2] = ["linear_attention", "full_attention"];
            let mut mixers = Vec::with_capacity(n);
            for t in types {
                let i = pick(f, "layer_types", &TYPES, t.as_str(), &|| t.to_string())?;
                mixers.push(if i == 0 { Mixer::LinearAttention } else { Mixer::Attention });
            }
            mixers
        }
        Some(v) => {
            return Err(ScenarioError::new(
                f.path("layer_types"),
                ErrorKind::WrongType { expected: Expected::List, got: v.to_string() },
            ))
        }
        None => {
            let every = f.int(&["full_attention_interval"], 1, MAX_LAYERS)?.unwrap_or(4);
            (0..a.layers)
                .map(
                    |i| if (i + 1).is_multiple_of(every) { Mixer::Attention } else { Mixer::LinearAttention },
                )
                .collect()
        }
    };
    let gdn = GatedDeltaNet {
        key_heads: f.int(&["linear_num_key_heads"], 1, MAX_HEADS)?.unwrap_or(16),
        value_heads: f.int(&["linear_num_value_heads"], 1, MAX_HEADS)?.unwrap_or(32),
        key_head_dim: f.int(&["linear_key_head_dim"], 1, MAX_HEADS)?.unwrap_or(128),
        value_head_dim: f.int(&["linear_value_head_dim"], 1, MAX_HEADS)?.unwrap_or(128),
        conv_kernel: f.int(&["linear_conv_kernel_dim"], 1, MAX_KERNEL)?.unwrap_or(4),
    };
    if !gdn.value_heads.is_multiple_of(gdn.key_heads) {
        return Err(ScenarioError::new(
            f.path("linear_num_key_heads"),
            ErrorKind::MustDivide {
                what: "linear_num_value_heads",
                value: gdn.value_heads,
                got: gdn.key_heads,
            },
        ));
    }
    // Qwen3.5-MoE (`Qwen3_5MoeTextConfig`) drops `intermediate_size`, `decoder_sparse_step` and
    // `mlp_only_layers`: every layer is a sparse MoE block (256 experts by default).
    let moe_only = a.model_type.starts_with("qwen3_5_moe") || a.model_type.starts_with("Qwen3_5Moe");
    let experts = f.int(&["num_experts"], 0, MAX_EXPERTS)?.unwrap_or(if moe_only { 256 } else { 0 });
    let step = if moe_only { 1 } else { f.int(&["decoder_sparse_step"], 1, MAX_LAYERS)?.unwrap_or(1) };
    let dense_only: Vec<u64> = match f.get("mlp_only_layers") {
        Some(Value::Array(l)) if !moe_only => l.iter().filter_map(Value::as_u64).collect(),
        _ => Vec::new(),
    };
    if a.intermediate == 0 && (experts == 0 || !dense_only.is_empty() || step > 1) {
        return Err(ScenarioError::new(f.path("intermediate_size"), ErrorKind::MissingFromConfig));
    }
    let ffn: Vec<Ffn> = (0..a.layers)
        .map(|i| {
            if experts > 0 && !dense_only.contains(&i) && (i + 1).is_multiple_of(step) {
                Ffn::Moe
            } else {
                Ffn::Dense
            }
        })
        .collect();
    if experts > 0 {
        let shared = f.int(&["shared_expert_intermediate_size"], 0, MAX_INTERMEDIATE)?.unwrap_or(0);
        a.moe = Some(Moe {
            routed_experts: experts,
            experts_per_token: f.need(&["num_experts_per_tok"], 1, experts)?,
            expert_intermediate: f.need(&["moe_intermediate_size"], 1, MAX_INTERMEDIATE)?,
            shared_intermediate: shared,
            shared_expert_gate: shared > 0,
            router_bias: false,
            layer_is_moe: ffn.iter().map(|x| *x == Ffn::Moe).collect(),
        });
    }
    a.attention.qk_norm = true;
    a.mlp = MlpKind::Gated;
    a.norm = NormKind::RmsNorm;
    a.norms_per_layer = 2;
    a.hybrid = Some(Hybrid {
        mixers,
        ffn,
        gated_delta_net: Some(gdn),
        // Qwen3-Next always gates (no key); Qwen3.5 states `attn_output_gate` (default true).
        attn_output_gate: f.boolean(&["attn_output_gate"], true)?,
        ssm_state_dtype: ssm_dtype(f)?,
        ..Hybrid::default()
    });
    Ok(())
}

/// Nemotron-H: `hybrid_override_pattern` (`M`, `*`, `-`, `E`) or `layers_block_type`.
fn nemotron_h(f: &Fields, a: &mut Architecture) -> Result<(), ScenarioError> {
    let n = usize_sat(a.layers);
    // Block kinds as the pattern's characters and as `layers_block_type` names.
    const CHARS: [&str; 4] = ["M", "*", "-", "E"];
    const NAMES: [&str; 4] = ["mamba", "attention", "mlp", "moe"];
    const KINDS: [(Mixer, Ffn); 4] = [
        (Mixer::Mamba2, Ffn::None),
        (Mixer::Attention, Ffn::None),
        (Mixer::None, Ffn::Dense),
        (Mixer::None, Ffn::Moe),
    ];
    let mut kinds: Vec<(Mixer, Ffn)> = Vec::with_capacity(n);
    if let Some(v) = f.get("hybrid_override_pattern") {
        let key = "hybrid_override_pattern";
        let Some(p) = v.as_str() else { return Err(one_of(f, key, &CHARS, v.to_string())) };
        for c in p.chars() {
            let c = c.to_string();
            let i = pick(f, key, &CHARS, Some(&c), &|| format!("\"{c}\""))?;
            kinds.extend(KINDS.get(i).copied());
        }
    } else if let Some(Value::Array(l)) = f.get("layers_block_type") {
        for t in l {
            let i = pick(f, "layers_block_type", &NAMES, t.as_str(), &|| t.to_string())?;
            kinds.extend(KINDS.get(i).copied());
        }
    } else {
        return Err(ScenarioError::new(f.path("hybrid_override_pattern"), ErrorKind::MissingFromConfig));
    };
    if kinds.len() != n {
        let key =
            if f.has("hybrid_override_pattern") { "hybrid_override_pattern" } else { "layers_block_type" };
        return Err(ScenarioError::new(f.path(key), ErrorKind::OnePerLayer { layers: n, got: kinds.len() }));
    }
    let (mixers, ffn): (Vec<Mixer>, Vec<Ffn>) = kinds.into_iter().unzip();
    // NemotronHConfig defaults.
    let proj_bias = f.boolean(&["mamba_proj_bias", "use_bias"], false)?;
    let mamba = Mamba2 {
        heads: f.int(&["mamba_num_heads"], 1, MAX_HEADS)?.unwrap_or(128),
        head_dim: f.int(&["mamba_head_dim"], 1, MAX_HEADS)?.unwrap_or(64),
        state_size: f.int(&["ssm_state_size"], 1, MAX_WIDTH)?.unwrap_or(128),
        groups: f.int(&["n_groups"], 1, MAX_HEADS)?.unwrap_or(8),
        conv_kernel: f.int(&["conv_kernel"], 1, MAX_KERNEL)?.unwrap_or(4),
        conv_bias: f.boolean(&["use_conv_bias"], true)?,
        proj_bias,
        out_bias: proj_bias,
        gated_norm: true,
    };
    if ffn.contains(&Ffn::Moe) {
        let experts = f.need(&["n_routed_experts"], 1, MAX_EXPERTS)?;
        a.moe = Some(Moe {
            routed_experts: experts,
            experts_per_token: f.need(&["num_experts_per_tok"], 1, experts)?,
            expert_intermediate: f.need(&["moe_intermediate_size"], 1, MAX_INTERMEDIATE)?,
            shared_intermediate: f
                .int(&["moe_shared_expert_intermediate_size"], 0, MAX_INTERMEDIATE)?
                .unwrap_or(0),
            shared_expert_gate: false,
            router_bias: true,
            layer_is_moe: ffn.iter().map(|x| *x == Ffn::Moe).collect(),
        });
    }
    if let Some(d) = f.int(&["attention_head_dim"], 1, MAX_HEADS)? {
        if !f.has("head_dim") {
            a.attention.head_dim = d;
            a.attention.v_head_dim = d;
        }
    }
    a.mlp = MlpKind::Plain;
    a.mlp_bias = f.boolean(&["mlp_bias"], false)?;
    a.norm = NormKind::RmsNorm;
    a.norms_per_layer = 1;
    a.hybrid = Some(Hybrid {
        mixers,
        ffn,
        mamba: Some(mamba),
        moe_latent: f.int(&["moe_latent_size"], 1, MAX_WIDTH)?,
        ssm_state_dtype: ssm_dtype(f)?,
        ..Hybrid::default()
    });
    Ok(())
}

/// A feed-forward block of width `i` over `width`: (matrices, biases).
fn mlp(a: &Architecture, width: u128, i: u128) -> (u128, u128) {
    match a.mlp {
        MlpKind::Gated => (3 * width * i, if a.mlp_bias { 2 * i + width } else { 0 }),
        MlpKind::Plain => (2 * width * i, if a.mlp_bias { i + width } else { 0 }),
    }
}

/// Parameters of hybrid layer `index`, split as [`LayerParams`]: token-mixer matrices
/// (attention, Gated DeltaNet, Mamba-2 projections) count as attention matrices; convolution
/// weights, `A_log`, `dt_bias`, `D` and norms are small tensors.
pub fn layer_params(a: &Architecture, h: &Hybrid, index: usize) -> LayerParams {
    let w = u128::from(a.hidden);
    let mut p = LayerParams::default();
    match h.mixers.get(index).copied().unwrap_or(Mixer::Attention) {
        Mixer::Attention => {
            let at = &a.attention;
            let (heads, kv, d, dv) = (
                u128::from(at.heads),
                u128::from(at.kv_heads),
                u128::from(at.head_dim),
                u128::from(at.v_head_dim),
            );
            let q_out = heads * d * if h.attn_output_gate { 2 } else { 1 };
            let kv_out = kv * d + kv * dv;
            p.attention_matrices = w * (q_out + kv_out) + heads * dv * w;
            if at.qkv_bias {
                p.small += q_out + kv_out;
            }
            if at.o_bias {
                p.small += w;
            }
            if at.qk_norm {
                p.small += 2 * d;
            }
            if h.mamba_beside_attention {
                if let Some(m) = h.mamba {
                    mamba2_params(w, &m, &mut p);
                }
            }
        }
        Mixer::ShortConv => {
            if let Some(c) = h.short_conv {
                let ch = u128::from(c.channels);
                // in_proj (B, C, x), out_proj; the depthwise conv; biases on all three
                p.attention_matrices = w * 3 * ch + ch * w;
                p.small += ch * u128::from(c.kernel) + if c.bias { 3 * ch + w + ch } else { 0 };
            }
        }
        Mixer::LinearAttention => {
            if let Some(g) = h.gated_delta_net {
                let (kh, vh) = (u128::from(g.key_heads), u128::from(g.value_heads));
                let key = kh * u128::from(g.key_head_dim);
                let value = vh * u128::from(g.value_head_dim);
                // in_proj_qkvz, in_proj_ba, out_proj
                p.attention_matrices = w * (2 * key + 2 * value) + w * 2 * vh + value * w;
                // conv1d (no bias), dt_bias, A_log, gated norm over d_v
                p.small +=
                    g.conv_channels() * u128::from(g.conv_kernel) + 2 * vh + u128::from(g.value_head_dim);
            }
        }
        Mixer::Mamba2 => {
            if let Some(m) = h.mamba {
                mamba2_params(w, &m, &mut p);
            }
        }
        Mixer::None => {}
    }
    match h.ffn.get(index).copied().unwrap_or(Ffn::None) {
        Ffn::None => {}
        Ffn::Dense => {
            let (m, b) = mlp(a, w, u128::from(a.intermediate));
            p.mlp_matrices += m;
            p.small += b;
        }
        Ffn::Moe => {
            if let Some(moe) = &a.moe {
                let e = u128::from(moe.routed_experts);
                let width = h.moe_latent.map_or(w, u128::from);
                let (one, _) = mlp(a, width, u128::from(moe.expert_intermediate));
                p.expert_matrices = e * one;
                p.active_expert_matrices = u128::from(moe.experts_per_token) * one;
                p.small += w * e; // router
                if moe.router_bias {
                    p.small += e;
                }
                if let Some(l) = h.moe_latent {
                    let l = u128::from(l);
                    p.mlp_matrices += 2 * w * l; // fc1_latent_proj, fc2_latent_proj
                    if a.mlp_bias {
                        p.small += l + w;
                    }
                }
                if moe.shared_intermediate > 0 {
                    let (m, b) = mlp(a, w, u128::from(moe.shared_intermediate));
                    p.mlp_matrices += m;
                    p.small += b;
                    if moe.shared_expert_gate {
                        p.small += w;
                    }
                }
            }
        }
    }
    p.small += u128::from(a.norms_per_layer)
        * match a.norm {
            NormKind::RmsNorm => w,
            NormKind::LayerNorm => 2 * w,
        };
    p
}

/// Adds a Mamba-2 mixer's parameters over width `w` to `p`: `in_proj` and `out_proj` as
/// token-mixer matrices; conv1d, `dt_bias`, `A_log`, `D`, the gated norm and biases as small.
fn mamba2_params(w: u128, m: &Mamba2, p: &mut LayerParams) {
    let inner = m.inner();
    let heads = u128::from(m.heads);
    let conv = inner + 2 * u128::from(m.groups) * u128::from(m.state_size);
    let in_proj = inner + conv + heads;
    p.attention_matrices += w * in_proj + inner * w;
    if m.proj_bias {
        p.small += in_proj;
    }
    if m.out_bias {
        p.small += w;
    }
    p.small += conv * u128::from(m.conv_kernel) + if m.conv_bias { conv } else { 0 };
    p.small += 3 * heads; // dt_bias, A_log, D
    if m.gated_norm {
        p.small += inner;
    }
}

/// Mamba-2 state elements on one GPU of a `tp`-way group: (conv cache, SSM state).
fn mamba2_state(m: &Mamba2, tp: u64) -> (u128, u128) {
    // vLLM replicates groups so that every head shard has its groups.
    let groups = if m.groups.is_multiple_of(tp) { m.groups } else { m.groups.max(tp).next_multiple_of(tp) };
    let channels = m.inner() + 2 * u128::from(groups) * u128::from(m.state_size);
    let conv = channels.div_ceil(u128::from(tp)) * u128::from(m.conv_kernel.saturating_sub(1));
    let ssm = u128::from(m.heads.div_ceil(tp)) * u128::from(m.head_dim) * u128::from(m.state_size);
    (conv, ssm)
}

/// Elements of one sequence's fixed-size state in layer `index` on one GPU of a `tp`-way
/// group: `(convolution cache, recurrent state)`; `(0, 0)` for attention and MLP layers.
pub fn state_elements(a: &Architecture, index: usize, tp: u64) -> (u128, u128) {
    let Some(h) = &a.hybrid else { return (0, 0) };
    let tp = tp.max(1);
    match h.mixers.get(index) {
        Some(Mixer::LinearAttention) => h.gated_delta_net.map_or((0, 0), |g| {
            let conv =
                g.conv_channels().div_ceil(u128::from(tp)) * u128::from(g.conv_kernel.saturating_sub(1));
            let ssm = u128::from(g.value_heads.div_ceil(tp))
                * u128::from(g.value_head_dim)
                * u128::from(g.key_head_dim);
            (conv, ssm)
        }),
        Some(Mixer::Mamba2) => h.mamba.map_or((0, 0), |m| mamba2_state(&m, tp)),
        Some(Mixer::Attention) if h.mamba_beside_attention => {
            h.mamba.map_or((0, 0), |m| mamba2_state(&m, tp))
        }
        // vLLM `short_conv_state_shape`: (kernel − 1) × channels/tp, no recurrent state.
        Some(Mixer::ShortConv) => h.short_conv.map_or((0, 0), |c| {
            (u128::from(c.channels.div_ceil(tp)) * u128::from(c.kernel.saturating_sub(1)), 0)
        }),
        _ => (0, 0),
    }
}

/// The recurrent state's dtype: the one the config names, else the model dtype.
pub fn ssm_state_dtype(a: &Architecture, model: Dtype) -> Dtype {
    a.hybrid.as_ref().and_then(|h| h.ssm_state_dtype).unwrap_or(model)
}

/// Bytes of fixed-size state one GPU holding `layers` keeps for `batch` sequences: the
/// convolution caches in the model dtype plus the recurrent states in [`ssm_state_dtype`].
/// Independent of the context length.
pub fn recurrent_state_bytes(
    a: &Architecture,
    layers: std::ops::Range<usize>,
    batch: u64,
    tp: u64,
    model: Dtype,
) -> u128 {
    if a.hybrid.is_none() {
        return 0;
    }
    let (conv, ssm) =
        layers.map(|i| state_elements(a, i, tp)).fold((0u128, 0u128), |s, e| (s.0 + e.0, s.1 + e.1));
    let per_sequence = model.bytes_for(conv, 128) + ssm_state_dtype(a, model).bytes_for(ssm, 128);
    per_sequence.saturating_mul(u128::from(batch))
}

/// Whether layer `i` has a feed-forward block (every layer unless a Nemotron-H mixer block).
pub fn has_ffn(a: &Architecture, i: usize) -> bool {
    a.hybrid.as_ref().is_none_or(|h| h.ffn.get(i).is_some_and(|f| *f != Ffn::None))
}

/// Layers with a fixed-size state (linear attention, Mamba-2, a short convolution, or
/// Falcon-H1's attention layers with their Mamba-2 mixer beside).
pub fn state_layers(a: &Architecture) -> u64 {
    a.hybrid.as_ref().map_or(0, |h| {
        h.mixers
            .iter()
            .filter(|m| match m {
                Mixer::LinearAttention | Mixer::Mamba2 | Mixer::ShortConv => true,
                Mixer::Attention => h.mamba_beside_attention,
                Mixer::None => false,
            })
            .count() as u64
    })
}

/// One sequence's memory in a model: the KV cache its attention layers hold at `context`
/// tokens, the fixed state of its linear-attention / Mamba layers, and (for comparison) the KV
/// cache it would hold if every layer were attention. No parallel split, no paging.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct PerSequence {
    pub layers: u64,
    pub attention_layers: u64,
    pub state_layers: u64,
    /// KV bytes one token adds (attention layers only).
    pub kv_per_token: u128,
    pub kv: u128,
    pub state: u128,
    /// The KV cache if all `layers` kept one (same heads and widths).
    pub kv_if_all_attention: u128,
}

impl PerSequence {
    pub fn total(&self) -> u128 {
        self.kv + self.state
    }
}

/// [`PerSequence`] for `context` tokens, the KV cache in `kv` and the model dtype `model`
/// (sliding windows cap as in [`super::kv_cache::kv_cache_bytes`]).
pub fn per_sequence(a: &Architecture, context: u64, kv: Dtype, model: Dtype) -> PerSequence {
    let all = 0..usize_sat(a.layers);
    let per_layer = super::kv_cache::kv_elements_per_token_per_layer(a, 1);
    PerSequence {
        layers: a.layers,
        attention_layers: a.attention_layers(),
        state_layers: state_layers(a),
        kv_per_token: super::kv_cache::kv_cache_bytes_per_token(a, kv, 128),
        kv: super::kv_cache::kv_cache_bytes(a, all.clone(), context, 1, 1, 1, kv, 128),
        state: recurrent_state_bytes(a, all, 1, 1, model),
        kv_if_all_attention: kv.bytes_for(
            per_layer.saturating_mul(u128::from(a.layers)).saturating_mul(u128::from(context)),
            128,
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::model::config::parse_config;
    use crate::engine::model::params::count_params;
    use serde_json::json;

    #[test]
    fn qwen3_next_layer_types_follow_the_interval_and_bad_values_are_named() {
        let cfg = json!({"model_type": "qwen3_next", "hidden_size": 64, "num_hidden_layers": 8,
            "num_attention_heads": 4, "num_key_value_heads": 2, "head_dim": 16, "intermediate_size": 128,
            "vocab_size": 100, "full_attention_interval": 4, "num_experts": 0});
        let a = parse_config(&cfg).unwrap();
        assert_eq!(a.attention_layers(), 2);
        assert!(a.is_attention_layer(3) && !a.is_attention_layer(0));
        let mut bad = cfg.clone();
        bad["layer_types"] = json!(["linear_attention"]);
        assert_eq!(parse_config(&bad).unwrap_err().field, "model.layer_types");
        let mut bad = cfg;
        bad["linear_num_key_heads"] = json!(3);
        assert_eq!(parse_config(&bad).unwrap_err().field, "model.linear_num_key_heads");
    }

    #[test]
    fn qwen3_5_counts_like_qwen3_next_and_reads_its_text_config() {
        // Qwen3.5's Gated DeltaNet splits in_proj_qkvz/in_proj_ba into in_proj_qkv, _z, _b, _a
        // (modular_qwen3_5.py): the same h·(2·key + 2·value + 2·V_h) weights. The vision tower
        // and the MTP layer are not counted.
        let text = json!({"hidden_size": 64, "num_hidden_layers": 4, "num_attention_heads": 4,
            "num_key_value_heads": 2, "head_dim": 16, "intermediate_size": 96, "vocab_size": 100,
            "layer_types": ["linear_attention", "linear_attention", "linear_attention", "full_attention"],
            "linear_num_key_heads": 2, "linear_num_value_heads": 4, "linear_key_head_dim": 8,
            "linear_value_head_dim": 8, "linear_conv_kernel_dim": 4, "mamba_ssm_dtype": "float32",
            "mtp_num_hidden_layers": 1, "model_type": "qwen3_5_text"});
        let a = parse_config(&json!({"model_type": "qwen3_5", "text_config": text.clone(),
            "vision_config": {"depth": 2}}))
        .unwrap();
        let mut next = text;
        next["model_type"] = json!("qwen3_next");
        let b = parse_config(&next).unwrap();
        assert_eq!(a.family, Family::Qwen35);
        assert_eq!(count_params(&a).total, count_params(&b).total);
        // GDN layer by hand: qkvz 64·(2·16 + 2·32) + ba 64·8 + out 32·64 = 8704; conv (2·16 + 32)·4
        // = 256, dt_bias + A_log 8, norm 8; dense MLP 3·64·96 = 18432; 2 norms 128.
        assert_eq!(layer_params(&a, a.hybrid.as_ref().unwrap(), 0).total(), 8704 + 256 + 8 + 8 + 18432 + 128);
        // State in float32 (mamba_ssm_dtype), conv cache in the model dtype: per GDN layer
        // 4·8·8·4 B + 64·3·2 B.
        assert_eq!(recurrent_state_bytes(&a, 0..4, 1, 1, Dtype::Bf16), 3 * (4 * 8 * 8 * 4 + 64 * 3 * 2));
    }

    #[test]
    fn qwen3_5_moe_needs_no_dense_width_and_has_only_moe_layers() {
        // Qwen3_5MoeTextConfig removes intermediate_size, decoder_sparse_step and mlp_only_layers.
        let text = json!({"model_type": "qwen3_5_moe_text", "hidden_size": 64, "num_hidden_layers": 4,
            "num_attention_heads": 4, "num_key_value_heads": 2, "head_dim": 16, "vocab_size": 100,
            "num_experts": 4, "num_experts_per_tok": 2, "moe_intermediate_size": 8,
            "shared_expert_intermediate_size": 8, "mlp_only_layers": [0], "decoder_sparse_step": 2});
        let a = parse_config(&json!({"model_type": "qwen3_5_moe", "text_config": text})).unwrap();
        assert_eq!(a.moe.as_ref().unwrap().layer_is_moe, vec![true; 4]);
        // A dense Qwen3.5 (or an MoE one with dense layers) still needs the width, and says so.
        let dense = json!({"model_type": "qwen3_5_text", "hidden_size": 64, "num_hidden_layers": 4,
            "num_attention_heads": 4, "head_dim": 16, "vocab_size": 100});
        assert_eq!(parse_config(&dense).unwrap_err().field, "model.intermediate_size");
    }

    #[test]
    fn nemotron_h_pattern_errors_name_the_field() {
        let cfg = json!({"model_type": "nemotron_h", "hidden_size": 64, "num_hidden_layers": 3,
            "num_attention_heads": 4, "intermediate_size": 128, "vocab_size": 100, "hybrid_override_pattern": "M*X"});
        assert_eq!(parse_config(&cfg).unwrap_err().field, "model.hybrid_override_pattern");
        let mut short = cfg.clone();
        short["hybrid_override_pattern"] = json!("M*");
        assert_eq!(parse_config(&short).unwrap_err().field, "model.hybrid_override_pattern");
        let mut moe = cfg;
        moe["hybrid_override_pattern"] = json!("M*E");
        assert_eq!(parse_config(&moe).unwrap_err().field, "model.n_routed_experts");
    }

    #[test]
    fn a_dense_mamba_attention_mlp_stack_counts_each_block_once() {
        // One Mamba-2, one attention, one MLP block, hidden 64:
        // Mamba: I = 2·16 = 32, conv = 32 + 2·1·8 = 48, in_proj 64·(32+48+2) = 5248,
        //   out_proj 32·64 = 2048, conv1d 48·4 + 48 = 240, dt/A/D 6, norm 32 → 7574
        // attention: q 64·64, k,v 64·16 each, o 64·64 → 10240
        // MLP (relu², up/down): 2·64·128 = 16384; one norm per block: 3·64
        // embeddings 2·100·64 = 12800, final norm 64
        let a = parse_config(&json!({"model_type": "nemotron_h", "hidden_size": 64, "num_hidden_layers": 3,
            "num_attention_heads": 4, "num_key_value_heads": 1, "intermediate_size": 128, "vocab_size": 100,
            "hybrid_override_pattern": "M*-", "mamba_num_heads": 2, "mamba_head_dim": 16, "ssm_state_size": 8,
            "n_groups": 1, "conv_kernel": 4}))
        .unwrap();
        assert_eq!(count_params(&a).total, 7574 + 10240 + 16384 + 3 * 64 + 12800 + 64);
        // State: conv 48·3 = 144 in bf16, SSM 2·16·8 = 256 in bf16 (no dtype in the config)
        assert_eq!(recurrent_state_bytes(&a, 0..3, 1, 1, Dtype::Bf16), (144 + 256) * 2);
        assert_eq!(recurrent_state_bytes(&a, 1..3, 5, 1, Dtype::Bf16), 0);
    }
}
