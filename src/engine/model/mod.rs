//! A model's architecture in one normalised shape, whatever family or config dialect it came from.
//!
//! [`config::parse_config`] reads a Hugging Face `config.json`; [`params`] counts parameters from
//! the shape; [`kv_cache`] gives the bytes one token adds to the KV cache.

pub mod config;
pub mod falcon_h1;
pub mod families;
pub mod gemma4;
pub mod granite_hybrid;
pub mod hybrid;
pub mod kv_cache;
pub mod lfm2;
pub mod params;
pub mod quant;
pub mod tensors;

use serde::Serialize;

/// Model families whose Hugging Face modelling code this engine follows.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Family {
    Llama,
    Mistral,
    Mixtral,
    Qwen2,
    Qwen2Moe,
    Qwen3,
    Qwen3Moe,
    Gemma,
    Gemma2,
    Gemma3,
    /// Gemma 4: sliding and full layers of different head sizes, key-as-value full layers,
    /// KV shared across the last layers, per-layer input embeddings, MoE beside the MLP
    /// (`gemma4.rs`).
    Gemma4,
    Phi3,
    Gpt2,
    Falcon,
    DeepseekV2,
    DeepseekV3,
    /// OLMo 2: full-width q/k RMSNorms, norms after attention and MLP (no input norm).
    Olmo2,
    /// gpt-oss: biased attention with per-head sinks, biased experts and router, alternating
    /// sliding-window and full attention (`families.rs`).
    GptOss,
    /// Llama 4 text model: interleaved MoE layers with a shared expert, chunked attention.
    Llama4,
    /// GLM-4.5 MoE: dense first layers, then MoE with a shared expert; q/k/v biases.
    Glm4Moe,
    /// MiniMax-M2: every layer MoE, full-width q/k RMSNorms, routing bias.
    MinimaxM2,
    /// Qwen3-Next: Gated DeltaNet linear-attention layers and gated full-attention layers
    /// (`layer_types` / `full_attention_interval`), many small experts plus a gated shared expert.
    Qwen3Next,
    /// Qwen3.5 (`qwen3_5`, `qwen3_5_moe`): the Qwen3-Next layer layout, dense or MoE.
    Qwen35,
    /// Nemotron-H: one block per layer, a Mamba-2 mixer, attention, an MLP or an MoE
    /// (`hybrid_override_pattern`).
    NemotronH,
    /// Falcon-H1: attention and a Mamba-2 mixer side by side in every layer, then a gated MLP
    /// (`falcon_h1.rs`).
    FalconH1,
    /// LFM2: gated short-convolution layers and attention layers (`layer_types`), each with a
    /// gated MLP, or in `lfm2_moe` a mixture of experts after the first dense layers (`lfm2.rs`).
    Lfm2,
    /// Granite 4.0 hybrid (`granitemoehybrid`): Mamba-2 and attention layers by `layer_types`,
    /// each with a shared MLP and (when it has experts) a mixture of experts
    /// (`granite_hybrid.rs`).
    GraniteMoeHybrid,
    /// An unknown `model_type` counted from the usual keys as a Llama-style decoder (gated MLP,
    /// RMSNorm, rotary positions, biases only where the config asks): the result is inferred.
    Generic,
}

/// For a generic (inferred) count: the config keys it read and the ones it ignored (metadata
/// such as `architectures` or `torch_dtype` is in neither list), in key order.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct InferredKeys {
    pub used: Vec<String>,
    pub ignored: Vec<String>,
}

/// Feed-forward block: gated (SwiGLU/GeGLU: gate, up, down) or plain (up, down).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum MlpKind {
    Gated,
    Plain,
}

/// RMSNorm has a weight vector; LayerNorm has a weight and a bias.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum NormKind {
    RmsNorm,
    LayerNorm,
}

/// Multi-head latent attention (DeepSeek-V2/V3): queries and keys/values pass through
/// low-rank projections and the cache holds the compressed latent.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Mla {
    pub q_lora_rank: Option<u64>,
    pub kv_lora_rank: u64,
    pub qk_rope_head_dim: u64,
    pub qk_nope_head_dim: u64,
    pub v_head_dim: u64,
}

/// Attention shape.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Attention {
    pub heads: u64,
    pub kv_heads: u64,
    /// Query/key head size (may differ from hidden / heads, e.g. Gemma's 256).
    pub head_dim: u64,
    /// Value head size (equals `head_dim` except in MLA).
    pub v_head_dim: u64,
    /// Biases on the q, k, v projections.
    pub qkv_bias: bool,
    /// Bias on the output projection.
    pub o_bias: bool,
    /// RMSNorm on queries and keys (Qwen3, Gemma3: one `d`-wide norm shared by all heads;
    /// OLMo 2: see `qk_norm_full_width`).
    pub qk_norm: bool,
    /// Whether the q/k norms span all heads (`H·d` and `K·d` weights, OLMo 2) rather than
    /// one head (`d` each).
    pub qk_norm_full_width: bool,
    /// Whether q, k and v live in one fused matrix (Phi-3, Falcon, GPT-2).
    pub fused_qkv: bool,
    pub mla: Option<Mla>,
}

/// Mixture-of-experts feed-forward layers.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Moe {
    pub routed_experts: u64,
    pub experts_per_token: u64,
    /// Intermediate size of one routed expert.
    pub expert_intermediate: u64,
    /// Total intermediate size of the always-on shared expert(s); 0 when none.
    pub shared_intermediate: u64,
    /// Qwen2-MoE's sigmoid gate on the shared expert (hidden x 1).
    pub shared_expert_gate: bool,
    /// DeepSeek-V3's `e_score_correction_bias` (one value per routed expert).
    pub router_bias: bool,
    /// Which layers are MoE (the others use the dense MLP).
    pub layer_is_moe: Vec<bool>,
}

/// A decoder-only transformer, normalised.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Architecture {
    pub family: Family,
    pub model_type: String,
    pub hidden: u64,
    pub layers: u64,
    pub vocab: u64,
    /// Dense MLP intermediate size.
    pub intermediate: u64,
    pub mlp: MlpKind,
    pub mlp_bias: bool,
    /// Whether the MLP's gate and up projections are one fused matrix (Phi-3).
    pub fused_gate_up: bool,
    pub norm: NormKind,
    /// Norms per decoder layer (2 for most, 4 for Gemma 2/3, 1 for Falcon-7B's parallel block).
    pub norms_per_layer: u64,
    pub attention: Attention,
    pub moe: Option<Moe>,
    /// Whether the output head is the embedding matrix (stored once).
    pub tied_embeddings: bool,
    /// Learned absolute position embeddings (GPT-2's wpe); 0 for RoPE models.
    pub learned_positions: u64,
    /// Sliding-window size, when some layers use one.
    pub sliding_window: Option<u64>,
    /// For each layer, whether it attends only within the sliding window.
    pub layer_is_sliding: Vec<bool>,
    pub max_position_embeddings: Option<u64>,
    /// Set when the family is unknown and the shape was inferred from the usual keys.
    pub inferred: Option<InferredKeys>,
    /// What the newer families add to the common shape (sinks, expert biases, chunked
    /// attention, MTP layers): see [`families::Extras`].
    pub extras: families::Extras,
    /// Hybrid models: what each layer holds (attention, linear attention, Mamba-2; MLP, MoE)
    /// and the shapes of the layers that keep a fixed-size state instead of a KV cache.
    pub hybrid: Option<hybrid::Hybrid>,
    /// The checkpoint's weight format from its `quantization_config` (None: 16-bit).
    pub quantization: Option<quant::Quantization>,
    /// Gemma 4's per-layer shapes, KV sharing and per-layer inputs (`gemma4.rs`).
    pub gemma4: Option<gemma4::Gemma4>,
    /// The model as llama.cpp stores it, tensor by tensor with each one's ggml type: a GGUF
    /// file's table (config key `gguf`), or a catalog model in a llama.cpp file type. When set,
    /// the weights are this table's bytes ([`crate::engine::gguf`]).
    pub tensor_table: Option<tensors::TensorTable>,
    /// The GGUF file's own file type (`general.file_type`), when the model came from a file.
    pub gguf_file_type: Option<crate::engine::precision::Dtype>,
}

impl Architecture {
    /// Whether layer `i` is a mixture-of-experts layer.
    pub fn is_moe_layer(&self, i: usize) -> bool {
        self.moe.as_ref().and_then(|m| m.layer_is_moe.get(i).copied()).unwrap_or(false)
    }

    /// Whether layer `i` is an attention layer (keeps a KV cache): every layer unless hybrid.
    pub fn is_attention_layer(&self, i: usize) -> bool {
        self.hybrid.as_ref().is_none_or(|h| h.mixers.get(i) == Some(&hybrid::Mixer::Attention))
    }

    /// Layers that keep a KV cache.
    pub fn attention_layers(&self) -> u64 {
        self.hybrid.as_ref().map_or(self.layers, |h| {
            h.mixers.iter().filter(|m| **m == hybrid::Mixer::Attention).count() as u64
        })
    }

    /// Whether layer `i` uses the sliding window.
    pub fn is_sliding_layer(&self, i: usize) -> bool {
        self.layer_is_sliding.get(i).copied().unwrap_or(false)
    }
}
