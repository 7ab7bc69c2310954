//! Reading a pasted Hugging Face `config.json` into an [`Architecture`].
//!
//! Follows the field names and defaults of each family's `configuration_*.py` and the module
//! layout of `modeling_*.py` in huggingface/transformers. Also accepts GPT-2's own names
//! (`n_embd`, `n_layer`, `n_head`, `n_inner`, `n_positions`), Falcon's (`n_head_kv`,
//! `num_kv_heads`, `multi_query`, `new_decoder_architecture`, `parallel_attn`, `bias`,
//! `ffn_hidden_size`), and a nested `text_config` (Gemma 3 multimodal checkpoints).
//!
//! An unknown `model_type` whose config has the usual keys is counted as a generic Llama-style
//! decoder ([`Family::Generic`]: gated MLP, RMSNorm, rotary positions, biases only where the
//! config asks) and marked as inferred, with the keys the count read and the keys it ignored.

use super::{Architecture, Attention, Family, InferredKeys, Mla, MlpKind, Moe, NormKind};
use crate::engine::error::{ErrorKind, Expected, ScenarioError};
use crate::engine::num::{u64_from_f64, usize_sat};
use serde_json::{Map, Value};
use std::cell::Cell;

/// Upper bounds that keep every product far inside `u128` and reject typos.
const MAX_WIDTH: u64 = 1 << 20;
const MAX_LAYERS: u64 = 4096;
const MAX_VOCAB: u64 = 1 << 24;
const MAX_INTERMEDIATE: u64 = 1 << 22;
const MAX_HEADS: u64 = 1 << 16;
const MAX_EXPERTS: u64 = 1 << 16;

const SUPPORTED: &str = "llama, granite, mistral, ministral3 and mistral3 (text_config), mixtral, qwen2, \
qwen2_moe, qwen3, qwen3_moe, gemma, gemma2, gemma3, gemma3_text, phi3, olmo2, gpt2, falcon, deepseek_v2, deepseek_v3, \
kimi_k2, gpt_oss, llama4, llama4_text, glm4_moe, minimax_m2, qwen3_next, qwen3_5, qwen3_5_moe, nemotron_h, \
falcon_h1, lfm2, lfm2_moe, granitemoehybrid, \
gemma4, gemma4_text";

/// Keys that are bookkeeping (names, versions, token ids, dtype, training-only settings), not
/// shapes: never listed among the keys a generic count ignored.
pub const METADATA_KEYS: &[&str] = &[
    "_name_or_path",
    "architectures",
    "model_type",
    "auto_map",
    "torch_dtype",
    "dtype",
    "transformers_version",
    "bos_token_id",
    "eos_token_id",
    "pad_token_id",
    "sep_token_id",
    "decoder_start_token_id",
    "tokenizer_class",
    "use_cache",
    "initializer_range",
    "attention_dropout",
    "hidden_dropout",
    "dropout",
    "return_dict",
    "output_attentions",
    "output_hidden_states",
    "torchscript",
    "is_decoder",
    "is_encoder_decoder",
    "_attn_implementation",
    // Read by `quant::read`: the weight format, not the shape.
    "quantization_config",
];

/// The keys a generic count cannot do without (each with the aliases it also accepts).
const GENERIC_ESSENTIALS: &[&[&str]] = &[
    &["hidden_size", "n_embd", "d_model"],
    &["num_hidden_layers", "n_layer", "num_layers"],
    &["num_attention_heads", "n_head"],
    &["intermediate_size", "ffn_dim"],
    &["vocab_size", "padded_vocab_size"],
];

/// Expert-count keys a generic count reads (the first present, non-zero one makes it MoE).
const EXPERT_KEYS: &[&str] = &["num_experts", "num_local_experts", "n_routed_experts"];

/// A view on a config object that reports errors with the field's full path and remembers
/// which keys it read.
pub(super) struct Fields<'a> {
    map: &'a Map<String, Value>,
    prefix: String,
    read: Cell<Vec<&'static str>>,
}

impl<'a> Fields<'a> {
    fn new(map: &'a Map<String, Value>, prefix: &str) -> Self {
        Fields { map, prefix: prefix.to_owned(), read: Cell::new(Vec::new()) }
    }

    pub(super) fn path(&self, key: &str) -> String {
        format!("{}{}", self.prefix, key)
    }

    fn mark(&self, key: &'static str) {
        let mut read = self.read.take();
        read.push(key);
        self.read.set(read);
    }

    /// The value at `key` when present and not null, remembered as read.
    pub(super) fn get(&self, key: &'static str) -> Option<&'a Value> {
        match self.map.get(key) {
            Some(Value::Null) | None => None,
            Some(v) => {
                self.mark(key);
                Some(v)
            }
        }
    }

    /// The first present, non-null key among `keys`.
    fn find(&self, keys: &[&'static str]) -> Option<(&'static str, &'a Value)> {
        keys.iter().find_map(|k| self.get(k).map(|v| (*k, v)))
    }

    /// An optional non-negative integer between `min` and `max`.
    pub(super) fn int(
        &self,
        keys: &[&'static str],
        min: u64,
        max: u64,
    ) -> Result<Option<u64>, ScenarioError> {
        let Some((key, v)) = self.find(keys) else { return Ok(None) };
        let n = match v {
            Value::Number(n) => n.as_u64().or_else(|| {
                n.as_f64().filter(|f| f.fract() == 0.0 && *f >= 0.0 && *f <= max as f64).map(u64_from_f64)
            }),
            _ => None,
        };
        match n {
            Some(n) if n >= min && n <= max => Ok(Some(n)),
            _ => Err(ScenarioError::new(
                self.path(key),
                ErrorKind::IntegerOutOfRange { min, max, got: v.to_string() },
            )),
        }
    }

    /// A required integer.
    pub(super) fn need(&self, keys: &[&'static str], min: u64, max: u64) -> Result<u64, ScenarioError> {
        self.int(keys, min, max)?.ok_or_else(|| {
            ScenarioError::new(self.path(keys.first().copied().unwrap_or("")), ErrorKind::MissingFromConfig)
        })
    }

    pub(super) fn boolean(&self, keys: &[&'static str], default: bool) -> Result<bool, ScenarioError> {
        match self.find(keys) {
            None => Ok(default),
            Some((_, Value::Bool(b))) => Ok(*b),
            Some((key, v)) => Err(ScenarioError::new(
                self.path(key),
                ErrorKind::WrongType { expected: Expected::TrueFalse, got: v.to_string() },
            )),
        }
    }

    pub(super) fn string(&self, key: &'static str) -> Option<&'a str> {
        self.get(key).and_then(Value::as_str)
    }

    pub(super) fn has(&self, key: &'static str) -> bool {
        self.get(key).is_some()
    }

    /// Whether `key` is present and set to null (Falcon-H1's null `mamba_d_ssm` has a meaning).
    pub(super) fn is_null(&self, key: &str) -> bool {
        matches!(self.map.get(key), Some(Value::Null))
    }

    /// Which essential keys a generic count needs and this config lacks (all of them, by their
    /// first name; a positive expert count also needs `num_experts_per_tok`).
    fn missing_essentials(&self) -> Vec<String> {
        let present =
            |keys: &[&str]| keys.iter().any(|k| !matches!(self.map.get(*k), None | Some(Value::Null)));
        let mut missing: Vec<String> = GENERIC_ESSENTIALS
            .iter()
            .filter(|keys| !present(keys))
            .filter_map(|keys| keys.first().map(|k| (*k).to_owned()))
            .collect();
        let moe = EXPERT_KEYS.iter().any(|k| self.map.get(*k).and_then(Value::as_u64).is_some_and(|n| n > 0));
        if moe && !present(&["num_experts_per_tok"]) {
            missing.push("num_experts_per_tok".to_owned());
        }
        missing
    }

    /// After a generic count: the keys it read and the keys it did not (metadata and keys set
    /// to null, which say nothing, in neither), with `prefix` (`text_config.` for a nested
    /// config) in front; a nested config's outer keys follow among the ignored. serde_json's
    /// map is sorted, so both lists are in key order without sorting here.
    fn inferred_keys(&self, prefix: &str, outer: Option<&Map<String, Value>>) -> InferredKeys {
        let read = self.read.take();
        let mut keys = InferredKeys::default();
        for (k, v) in self.map {
            if v.is_null() || METADATA_KEYS.contains(&k.as_str()) {
                continue;
            }
            let list = if read.contains(&k.as_str()) { &mut keys.used } else { &mut keys.ignored };
            list.push(format!("{prefix}{k}"));
        }
        for (k, v) in outer.into_iter().flatten() {
            if !v.is_null() && k != "text_config" && !METADATA_KEYS.contains(&k.as_str()) {
                keys.ignored.push(k.clone());
            }
        }
        keys
    }
}

/// Maps `model_type` (or the `architectures` class name) to a family.
fn family_of(model_type: &str) -> Option<Family> {
    Some(match model_type {
        // Granite adds only scalar multipliers to Llama's module layout.
        "llama" | "LlamaForCausalLM" | "granite" | "GraniteForCausalLM" => Family::Llama,
        // Ministral 3 (text_config of Mistral3ForConditionalGeneration) is Mistral's layout.
        "mistral" | "MistralForCausalLM" | "ministral3" | "Ministral3ForCausalLM" => Family::Mistral,
        "mixtral" | "MixtralForCausalLM" => Family::Mixtral,
        "qwen2" | "Qwen2ForCausalLM" => Family::Qwen2,
        "qwen2_moe" | "Qwen2MoeForCausalLM" => Family::Qwen2Moe,
        "qwen3" | "Qwen3ForCausalLM" => Family::Qwen3,
        "qwen3_moe" | "Qwen3MoeForCausalLM" => Family::Qwen3Moe,
        "gemma" | "GemmaForCausalLM" => Family::Gemma,
        "gemma2" | "Gemma2ForCausalLM" => Family::Gemma2,
        "gemma3" | "gemma3_text" | "Gemma3ForCausalLM" | "Gemma3ForConditionalGeneration" => Family::Gemma3,
        "gemma4" | "gemma4_text" | "Gemma4ForCausalLM" | "Gemma4ForConditionalGeneration" => Family::Gemma4,
        "phi3" | "Phi3ForCausalLM" => Family::Phi3,
        "gpt2" | "GPT2LMHeadModel" => Family::Gpt2,
        "falcon" | "RefinedWeb" | "RefinedWebModel" | "FalconForCausalLM" | "RWForCausalLM" => Family::Falcon,
        "deepseek_v2" | "DeepseekV2ForCausalLM" => Family::DeepseekV2,
        "deepseek_v3" | "DeepseekV3ForCausalLM" => Family::DeepseekV3,
        "olmo2" | "Olmo2ForCausalLM" => Family::Olmo2,
        // Newer MoE families: families.rs. Kimi K2 ships the DeepSeek-V3 layout.
        "kimi_k2" => Family::DeepseekV3,
        "gpt_oss" | "GptOssForCausalLM" => Family::GptOss,
        "llama4" | "llama4_text" | "Llama4ForCausalLM" | "Llama4ForConditionalGeneration" => Family::Llama4,
        "glm4_moe" | "Glm4MoeForCausalLM" => Family::Glm4Moe,
        "minimax_m2" | "MiniMaxM2ForCausalLM" => Family::MinimaxM2,
        // Hybrid families (Gated DeltaNet / Mamba-2 layers with a fixed-size state): hybrid.rs.
        "qwen3_next" | "Qwen3NextForCausalLM" => Family::Qwen3Next,
        "qwen3_5"
        | "qwen3_5_text"
        | "qwen3_5_moe"
        | "qwen3_5_moe_text"
        | "Qwen3_5ForConditionalGeneration"
        | "Qwen3_5MoeForConditionalGeneration"
        | "Qwen3_5ForCausalLM"
        | "Qwen3_5MoeForCausalLM" => Family::Qwen35,
        "nemotron_h" | "NemotronHForCausalLM" => Family::NemotronH,
        "falcon_h1" | "FalconH1ForCausalLM" => Family::FalconH1,
        "lfm2" | "Lfm2ForCausalLM" | "lfm2_moe" | "Lfm2MoeForCausalLM" => Family::Lfm2,
        "granitemoehybrid" | "GraniteMoeHybridForCausalLM" => Family::GraniteMoeHybrid,
        _ => return None,
    })
}

/// Parses a Hugging Face `config.json` object. Errors name the field as `model.<key>`.
pub fn parse_config(value: &Value) -> Result<Architecture, ScenarioError> {
    let Value::Object(top) = value else {
        return Err(ScenarioError::new(
            "model",
            ErrorKind::WrongType { expected: Expected::ModelIdOrConfig, got: value.to_string() },
        ));
    };
    let top_fields = Fields::new(top, "model.");
    let top_type = top_fields
        .string("model_type")
        .map(str::to_owned)
        .or_else(|| {
            top.get("architectures")
                .and_then(Value::as_array)
                .and_then(|a| a.first())
                .and_then(Value::as_str)
                .map(str::to_owned)
        })
        .ok_or_else(|| {
            ScenarioError::new(
                "model.model_type",
                ErrorKind::MissingFamily { supported: SUPPORTED.to_owned() },
            )
        })?;
    // Multimodal wrappers keep the language model in `text_config`.
    let (f, model_type, nested) = match top.get("text_config") {
        Some(Value::Object(text)) => {
            let fields = Fields::new(text, "model.text_config.");
            let t = fields.string("model_type").map(str::to_owned).unwrap_or_else(|| {
                if top_type == "gemma3" {
                    "gemma3_text".to_owned()
                } else {
                    top_type.clone()
                }
            });
            (fields, t, true)
        }
        _ => (top_fields, top_type, false),
    };
    if let Some(family) = family_of(&model_type) {
        let mut a = build(&f, family, model_type)
            .and_then(|a| super::hybrid::apply(&f, a))
            .and_then(|a| super::families::apply(&f, a))
            .and_then(|a| super::gemma4::apply(&f, a))?;
        // DeepSeek-V3/R1 ship their multi-token-prediction module the same way (not counted in
        // the main model, kept for speculative decoding).
        if a.extras.mtp_layers == 0 {
            a.extras.mtp_layers = f.int(&["num_nextn_predict_layers"], 0, MAX_LAYERS)?.unwrap_or(0);
        }
        if a.moe.is_some() {
            let groups = f.int(&["n_group"], 0, MAX_EXPERTS)?.unwrap_or(0);
            a.extras.routing_groups = groups;
            a.extras.groups_per_token = f.int(&["topk_group"], 0, groups.max(1))?.unwrap_or(0);
        }
        a.quantization = super::quant::read(top)?;
        read_gguf(top, &mut a)?;
        return Ok(a);
    }
    // An unknown family: a generic decoder when the usual keys are there.
    let missing = f.missing_essentials();
    if !missing.is_empty() {
        return Err(ScenarioError::new(
            f.path("model_type"),
            ErrorKind::UnknownFamily { family: model_type, supported: SUPPORTED.to_owned(), missing },
        ));
    }
    let mut a = build(&f, Family::Generic, model_type)?;
    a.quantization = super::quant::read(top)?;
    read_gguf(top, &mut a)?;
    a.inferred =
        Some(if nested { f.inferred_keys("text_config.", Some(top)) } else { f.inferred_keys("", None) });
    Ok(a)
}

/// A GGUF file's tensor table and file type (the `gguf` key that
/// [`crate::engine::gguf::model::config_from_header`] writes).
fn read_gguf(top: &Map<String, Value>, a: &mut Architecture) -> Result<(), ScenarioError> {
    let Some(g) = top.get("gguf") else {
        return Ok(());
    };
    let runs = g.get("tensors").unwrap_or(&Value::Null);
    let table = crate::engine::model::tensors::table_from_runs(runs)
        .map_err(|bad| ScenarioError::new("model.gguf.tensors", ErrorKind::BadTensorRun { index: bad.0 }))?;
    if table.tensors.is_empty() {
        return Err(ScenarioError::new("model.gguf.tensors", ErrorKind::BadTensorRun { index: 0 }));
    }
    a.gguf_file_type =
        g.get("file_type").and_then(Value::as_str).and_then(crate::engine::precision::Dtype::parse);
    a.tensor_table = Some(table);
    Ok(())
}

/// The architecture from a config's fields, in named steps (each names the field it rejects).
fn build(f: &Fields, family: Family, model_type: String) -> Result<Architecture, ScenarioError> {
    let size = parse_sizes(f, family)?;
    let (kv_heads, head_dim) = parse_heads(f, family, &size)?;
    let intermediate = parse_intermediate(f, family, size.hidden)?;
    let (attention, mlp_bias) = parse_attention(f, family, size.heads, kv_heads, head_dim)?;
    let moe = parse_moe(f, family, size.layers, intermediate)?;
    let (norm, norms_per_layer) = parse_norms(f, family)?;
    let tied_embeddings = parse_tied(f, family)?;
    let learned_positions = match family {
        Family::Gpt2 => f.int(&["n_positions", "max_position_embeddings"], 1, MAX_VOCAB)?.unwrap_or(1024),
        _ => 0,
    };
    let (sliding_window, layer_is_sliding) = parse_sliding(f, family, size.layers)?;
    Ok(Architecture {
        family,
        model_type,
        hidden: size.hidden,
        layers: size.layers,
        vocab: size.vocab,
        intermediate,
        mlp: if matches!(family, Family::Gpt2 | Family::Falcon) { MlpKind::Plain } else { MlpKind::Gated },
        mlp_bias,
        fused_gate_up: family == Family::Phi3,
        norm,
        norms_per_layer,
        attention,
        moe,
        tied_embeddings,
        learned_positions,
        sliding_window,
        layer_is_sliding,
        max_position_embeddings: f.int(&["max_position_embeddings", "n_positions", "n_ctx"], 0, u64::MAX)?,
        inferred: None,
        extras: super::families::Extras::default(),
        hybrid: None,
        quantization: None,
        gemma4: None,
        tensor_table: None,
        gguf_file_type: None,
    })
}

/// Gemma3TextConfig defaults: published gemma-3 text_configs omit several fields.
fn or_default(family: Family, v: Option<u64>, d: u64) -> Option<u64> {
    v.or(if family == Family::Gemma3 { Some(d) } else { None })
}

/// The four sizes every family states.
struct Sizes {
    hidden: u64,
    layers: u64,
    heads: u64,
    vocab: u64,
}

fn parse_sizes(f: &Fields, family: Family) -> Result<Sizes, ScenarioError> {
    let missing = |key: &str| ScenarioError::new(f.path(key), ErrorKind::MissingFromConfig);
    let hidden = or_default(family, f.int(&["hidden_size", "n_embd", "d_model"], 1, MAX_WIDTH)?, 2304)
        .ok_or_else(|| missing("hidden_size"))?;
    let layers =
        or_default(family, f.int(&["num_hidden_layers", "n_layer", "num_layers"], 1, MAX_LAYERS)?, 26)
            .ok_or_else(|| missing("num_hidden_layers"))?;
    let heads = or_default(family, f.int(&["num_attention_heads", "n_head"], 1, MAX_HEADS)?, 8)
        .ok_or_else(|| missing("num_attention_heads"))?;
    let vocab = or_default(family, f.int(&["vocab_size", "padded_vocab_size"], 1, MAX_VOCAB)?, 262_208)
        .ok_or_else(|| missing("vocab_size"))?;
    Ok(Sizes { hidden, layers, heads, vocab })
}

/// Key/value heads (GQA field, Falcon's names, MQA flags, else multi-head) and the head width.
fn parse_heads(f: &Fields, family: Family, size: &Sizes) -> Result<(u64, u64), ScenarioError> {
    let (hidden, heads) = (size.hidden, size.heads);
    let mut kv_heads =
        or_default(family, f.int(&["num_key_value_heads", "num_kv_heads", "n_head_kv"], 1, MAX_HEADS)?, 4);
    if family == Family::Falcon {
        let new_arch = f.boolean(&["new_decoder_architecture"], false)?;
        let multi_query = f.boolean(&["multi_query"], true)?;
        if !new_arch {
            kv_heads = Some(if multi_query { 1 } else { heads });
        }
    }
    let kv_heads = kv_heads.unwrap_or(heads);
    if heads % kv_heads != 0 {
        return Err(ScenarioError::new(
            f.path("num_key_value_heads"),
            ErrorKind::MustDivide { what: "num_attention_heads", value: heads, got: kv_heads },
        ));
    }
    let explicit_head_dim = or_default(family, f.int(&["head_dim"], 1, MAX_HEADS)?, 256).or(match family {
        Family::Gemma => Some(256),
        _ => None,
    });
    let head_dim = match explicit_head_dim {
        Some(d) => d,
        None if hidden % heads == 0 => hidden / heads,
        None => {
            return Err(ScenarioError::new(
                f.path("num_attention_heads"),
                ErrorKind::MustDivide { what: "hidden_size", value: hidden, got: heads },
            ))
        }
    };
    Ok((kv_heads, head_dim))
}

/// Dense MLP width.
fn parse_intermediate(f: &Fields, family: Family, hidden: u64) -> Result<u64, ScenarioError> {
    Ok(match family {
        Family::Gpt2 | Family::Falcon => f
            .int(&["n_inner", "ffn_hidden_size", "intermediate_size"], 1, MAX_INTERMEDIATE)?
            .unwrap_or(4 * hidden),
        // Qwen3.5-MoE text configs have no dense MLP width (hybrid.rs checks that it is not needed).
        Family::Qwen35 => f.int(&["intermediate_size"], 1, MAX_INTERMEDIATE)?.unwrap_or(0),
        // Lfm2Config: `block_ff_dim` (LiquidAI's key) wins over `intermediate_size`, default 12288.
        Family::Lfm2 => f.int(&["block_ff_dim", "intermediate_size"], 1, MAX_INTERMEDIATE)?.unwrap_or(12288),
        _ => or_default(family, f.int(&["intermediate_size", "ffn_dim"], 1, MAX_INTERMEDIATE)?, 9216)
            .ok_or_else(|| ScenarioError::new(f.path("intermediate_size"), ErrorKind::MissingFromConfig))?,
    })
}

/// Attention (biases, norms, fused projections, MLA) and whether the MLP has biases.
fn parse_attention(
    f: &Fields,
    family: Family,
    heads: u64,
    kv_heads: u64,
    head_dim: u64,
) -> Result<(Attention, bool), ScenarioError> {
    use Family::*;
    let attention_bias = f.boolean(&["attention_bias"], false)?;
    let falcon_bias = if family == Falcon { f.boolean(&["bias"], false)? } else { false };
    let (qkv_bias, o_bias) = match family {
        Qwen2 | Qwen2Moe => (true, false),
        Gpt2 => (true, true),
        Falcon => (falcon_bias, falcon_bias),
        Mistral | Mixtral | Phi3 => (false, false),
        DeepseekV2 | DeepseekV3 => (false, attention_bias),
        _ => (attention_bias, attention_bias),
    };
    let mlp_bias = match family {
        Gpt2 => true,
        Falcon => falcon_bias,
        Llama | Generic => f.boolean(&["mlp_bias"], false)?,
        _ => false,
    };
    let mla = match family {
        DeepseekV2 | DeepseekV3 => Some(Mla {
            q_lora_rank: f.int(&["q_lora_rank"], 1, MAX_WIDTH)?,
            kv_lora_rank: f.need(&["kv_lora_rank"], 1, MAX_WIDTH)?,
            qk_rope_head_dim: f.need(&["qk_rope_head_dim"], 1, MAX_HEADS)?,
            qk_nope_head_dim: f.need(&["qk_nope_head_dim"], 0, MAX_HEADS)?,
            v_head_dim: f.need(&["v_head_dim"], 1, MAX_HEADS)?,
        }),
        _ => None,
    };
    let (head_dim, v_head_dim) = match mla {
        Some(m) => (m.qk_nope_head_dim + m.qk_rope_head_dim, m.v_head_dim),
        None => (head_dim, head_dim),
    };
    let attention = Attention {
        heads,
        kv_heads: if mla.is_some() { heads } else { kv_heads },
        head_dim,
        v_head_dim,
        qkv_bias,
        o_bias,
        qk_norm: matches!(family, Qwen3 | Qwen3Moe | Gemma3 | Olmo2),
        qk_norm_full_width: family == Olmo2,
        fused_qkv: matches!(family, Phi3 | Falcon | Gpt2),
        mla,
    };
    Ok((attention, mlp_bias))
}

/// The norm kind and norms per layer.
fn parse_norms(f: &Fields, family: Family) -> Result<(NormKind, u64), ScenarioError> {
    Ok(match family {
        Family::Gpt2 => (NormKind::LayerNorm, 2),
        Family::Falcon => {
            let new_arch = f.boolean(&["new_decoder_architecture"], false)?;
            let parallel = f.boolean(&["parallel_attn"], true)?;
            let n = if new_arch {
                f.int(&["num_ln_in_parallel_attn"], 1, 2)?.unwrap_or(2)
            } else if parallel {
                1
            } else {
                2
            };
            (NormKind::LayerNorm, n)
        }
        Family::Gemma2 | Family::Gemma3 => (NormKind::RmsNorm, 4),
        _ => (NormKind::RmsNorm, 2),
    })
}

/// Tied output head. Family defaults follow each configuration class; Falcon's tiiuae
/// checkpoints store `lm_head.weight` as its own tensor and their published parameter
/// counts include it, so Falcon counts the head unless the config says it is tied.
fn parse_tied(f: &Fields, family: Family) -> Result<bool, ScenarioError> {
    let tie_default = matches!(family, Family::Gemma | Family::Gemma2 | Family::Gemma3 | Family::Gpt2);
    if family == Family::Falcon && !f.has("tie_word_embeddings") {
        Ok(false)
    } else {
        f.boolean(&["tie_word_embeddings"], tie_default)
    }
}

/// Layers a Qwen-style `mlp_only_layers` list keeps dense.
fn dense_only_layers(f: &Fields) -> Result<Vec<u64>, ScenarioError> {
    match f.get("mlp_only_layers") {
        None => Ok(Vec::new()),
        Some(Value::Array(a)) => Ok(a.iter().filter_map(Value::as_u64).collect()),
        Some(v) => Err(ScenarioError::new(
            f.path("mlp_only_layers"),
            ErrorKind::WrongType { expected: Expected::List, got: v.to_string() },
        )),
    }
}

fn parse_moe(f: &Fields, family: Family, layers: u64, dense: u64) -> Result<Option<Moe>, ScenarioError> {
    use Family::*;
    let n = usize_sat(layers);
    let moe = match family {
        Mixtral => {
            let experts = f.need(&["num_local_experts"], 1, MAX_EXPERTS)?;
            Moe {
                routed_experts: experts,
                experts_per_token: f.need(&["num_experts_per_tok"], 1, experts)?,
                expert_intermediate: f.need(&["intermediate_size"], 1, MAX_INTERMEDIATE)?,
                shared_intermediate: 0,
                shared_expert_gate: false,
                router_bias: false,
                layer_is_moe: vec![true; n],
            }
        }
        Qwen2Moe | Qwen3Moe => {
            let experts = f.need(&["num_experts"], 1, MAX_EXPERTS)?;
            let step = f.int(&["decoder_sparse_step"], 1, MAX_LAYERS)?.unwrap_or(1);
            let dense_only = dense_only_layers(f)?;
            let shared = if family == Qwen2Moe {
                f.int(&["shared_expert_intermediate_size"], 0, MAX_INTERMEDIATE)?.unwrap_or(0)
            } else {
                0
            };
            Moe {
                routed_experts: experts,
                experts_per_token: f.need(&["num_experts_per_tok"], 1, experts)?,
                expert_intermediate: f.need(&["moe_intermediate_size"], 1, MAX_INTERMEDIATE)?,
                shared_intermediate: shared,
                shared_expert_gate: shared > 0,
                router_bias: false,
                layer_is_moe: (0..layers).map(|i| !dense_only.contains(&i) && (i + 1) % step == 0).collect(),
            }
        }
        DeepseekV2 | DeepseekV3 => {
            let experts = f.need(&["n_routed_experts"], 1, MAX_EXPERTS)?;
            let expert_intermediate = f.need(&["moe_intermediate_size"], 1, MAX_INTERMEDIATE)?;
            let shared = f.int(&["n_shared_experts"], 0, MAX_EXPERTS)?.unwrap_or(0);
            let first_dense = f.int(&["first_k_dense_replace"], 0, MAX_LAYERS)?.unwrap_or(0);
            let freq = f.int(&["moe_layer_freq"], 1, MAX_LAYERS)?.unwrap_or(1);
            let noaux = f.string("topk_method") == Some("noaux_tc");
            Moe {
                routed_experts: experts,
                experts_per_token: f.need(&["num_experts_per_tok"], 1, experts)?,
                expert_intermediate,
                shared_intermediate: shared.saturating_mul(expert_intermediate),
                shared_expert_gate: false,
                router_bias: family == DeepseekV3 || noaux,
                layer_is_moe: (0..layers).map(|i| i >= first_dense && i % freq == 0).collect(),
            }
        }
        // Every layer MoE unless `first_k_dense_replace` or `mlp_only_layers` says otherwise;
        // shared experts by total width or by count of routed-expert widths.
        Generic => {
            let Some(experts) = f.int(EXPERT_KEYS, 0, MAX_EXPERTS)?.filter(|e| *e > 0) else {
                return Ok(None);
            };
            let expert_intermediate =
                f.int(&["moe_intermediate_size"], 1, MAX_INTERMEDIATE)?.unwrap_or(dense);
            let shared = match f.int(&["shared_expert_intermediate_size"], 0, MAX_INTERMEDIATE)? {
                Some(s) => s,
                None => f
                    .int(&["n_shared_experts"], 0, MAX_EXPERTS)?
                    .unwrap_or(0)
                    .saturating_mul(expert_intermediate),
            };
            let first_dense = f.int(&["first_k_dense_replace"], 0, MAX_LAYERS)?.unwrap_or(0);
            let dense_only = dense_only_layers(f)?;
            Moe {
                routed_experts: experts,
                experts_per_token: f.need(&["num_experts_per_tok"], 1, experts)?,
                expert_intermediate,
                shared_intermediate: shared,
                shared_expert_gate: false,
                router_bias: false,
                layer_is_moe: (0..layers).map(|i| i >= first_dense && !dense_only.contains(&i)).collect(),
            }
        }
        _ => return Ok(None),
    };
    Ok(Some(moe))
}

/// Which layers use a sliding window, following each family's modelling code:
/// Mistral/Mixtral/Phi-3 use it on every layer when `sliding_window` is set; Qwen2/3 only with
/// `use_sliding_window` and from layer `max_window_layers` on; Gemma 2 on even layers;
/// Gemma 3 on all but every `sliding_window_pattern`-th layer; an explicit `layer_types` list
/// ("sliding_attention" / "full_attention") wins over all of these.
fn parse_sliding(f: &Fields, family: Family, layers: u64) -> Result<(Option<u64>, Vec<bool>), ScenarioError> {
    use Family::*;
    let n = usize_sat(layers);
    let default_window = match family {
        Gemma2 => Some(4096),
        Gemma3 => Some(4096),
        _ => None,
    };
    let window = f.int(&["sliding_window", "sliding_window_size"], 1, u64::MAX)?.or(default_window);
    let Some(w) = window else { return Ok((None, vec![false; n])) };
    if let Some(Value::Array(types)) = f.get("layer_types") {
        if types.len() != n {
            return Err(ScenarioError::new(
                f.path("layer_types"),
                ErrorKind::OnePerLayer { layers: n, got: types.len() },
            ));
        }
        let v: Vec<bool> = types.iter().map(|t| t.as_str() == Some("sliding_attention")).collect();
        return Ok((Some(w), v));
    }
    let v: Vec<bool> = match family {
        Mistral | Mixtral | Phi3 => vec![true; n],
        Qwen2 | Qwen2Moe | Qwen3 | Qwen3Moe => {
            if f.boolean(&["use_sliding_window"], false)? {
                let from = f.int(&["max_window_layers"], 0, u64::MAX)?.unwrap_or(0);
                (0..layers).map(|i| i >= from).collect()
            } else {
                vec![false; n]
            }
        }
        // A generic config: every layer, unless `use_sliding_window` is false (Qwen's switch).
        Generic => vec![f.boolean(&["use_sliding_window"], true)?; n],
        Gemma2 => (0..layers).map(|i| i % 2 == 0).collect(),
        Gemma3 => {
            let p =
                f.int(&["sliding_window_pattern", "_sliding_window_pattern"], 1, MAX_LAYERS)?.unwrap_or(6);
            (0..layers).map(|i| (i + 1) % p != 0).collect()
        }
        _ => vec![false; n],
    };
    Ok((Some(w), v))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn gemma3_text_config_uses_transformers_defaults() {
        let cfg = json!({"model_type": "gemma3", "text_config": {"hidden_size": 2560,
            "intermediate_size": 10240, "model_type": "gemma3_text", "num_hidden_layers": 34,
            "sliding_window": 1024}});
        let a = parse_config(&cfg).unwrap();
        assert_eq!(
            (a.attention.heads, a.attention.kv_heads, a.attention.head_dim, a.vocab),
            (8, 4, 256, 262_208)
        );
        assert!(a.tied_embeddings);
        // every 6th layer is global: layers 5, 11, 17, 23, 29
        assert_eq!(a.layer_is_sliding.iter().filter(|s| !**s).count(), 5);
    }

    #[test]
    fn falcon_7b_is_multi_query() {
        let cfg = json!({"model_type": "falcon", "hidden_size": 4544, "num_hidden_layers": 32,
            "num_attention_heads": 71, "vocab_size": 65024, "multi_query": true, "parallel_attn": true});
        let a = parse_config(&cfg).unwrap();
        assert_eq!(
            (a.attention.kv_heads, a.attention.head_dim, a.intermediate, a.norms_per_layer),
            (1, 64, 18176, 1)
        );
    }

    #[test]
    fn errors_name_the_field() {
        let e = parse_config(&json!({"model_type": "llama", "hidden_size": 4096})).unwrap_err();
        assert_eq!(e.field, "model.num_hidden_layers");
        let e = parse_config(&json!({"model_type": "bert"})).unwrap_err();
        assert_eq!(e.field, "model.model_type");
        let e = parse_config(&json!({"model_type": "llama", "hidden_size": -4})).unwrap_err();
        assert_eq!(e.field, "model.hidden_size");
        let e = parse_config(&json!({"model_type": "llama", "hidden_size": 4096, "num_hidden_layers": 2,
            "num_attention_heads": 32, "num_key_value_heads": 5, "vocab_size": 10, "intermediate_size": 8}))
        .unwrap_err();
        assert_eq!(e.field, "model.num_key_value_heads");
        let e = parse_config(&json!({"model_type": "llama", "hidden_size": 100, "num_hidden_layers": 2,
            "num_attention_heads": 3, "vocab_size": 10, "intermediate_size": 8}))
        .unwrap_err();
        assert_eq!(e.field, "model.num_attention_heads");
    }

    #[test]
    fn a_nested_unknown_family_lists_keys_with_their_path() {
        let cfg = json!({"model_type": "mystery_vl", "vision_config": {"hidden_size": 1}, "torch_dtype": "bfloat16",
            "text_config": {"model_type": "mystery_text", "hidden_size": 64, "num_hidden_layers": 2,
            "num_attention_heads": 4, "intermediate_size": 128, "vocab_size": 10, "num_experts": 0,
            "rope_theta": 10000.0, "sliding_window": null}});
        let a = parse_config(&cfg).unwrap();
        assert_eq!(
            (a.family, a.model_type.as_str(), a.moe.is_none()),
            (Family::Generic, "mystery_text", true)
        );
        let keys = a.inferred.unwrap();
        assert!(keys.used.contains(&"text_config.num_experts".to_owned()), "{:?}", keys.used);
        assert_eq!(keys.ignored, ["text_config.rope_theta", "vision_config"]);
        // Known families carry no inferred keys.
        let a = parse_config(&json!({"model_type": "llama", "hidden_size": 64, "num_hidden_layers": 2,
            "num_attention_heads": 4, "intermediate_size": 128, "vocab_size": 10}))
        .unwrap();
        assert!(a.inferred.is_none());
        // A bad value under an unknown family is named like any other.
        let e = parse_config(&json!({"model_type": "m", "hidden_size": 64, "num_hidden_layers": 2,
            "num_attention_heads": 4, "intermediate_size": 128, "vocab_size": 10, "num_experts": "many"}))
        .unwrap_err();
        assert_eq!(e.field, "model.num_experts");
    }
}
