//! A GGUF file as a model the engine sizes: its metadata as the keys of a Hugging Face
//! `config.json` (so the attention shape, the KV cache and the windows follow the same rules as
//! a pasted config), and its tensor table, exact, under the key `gguf` (as runs,
//! [`crate::engine::model::tensors::table_to_runs`]).
//!
//! # Source
//! The metadata keys (`general.architecture`, `{arch}.block_count`, `{arch}.embedding_length`,
//! `{arch}.attention.head_count_kv`, …) as llama.cpp's `convert_hf_to_gguf.py` writes them and
//! `src/llama-arch.cpp` (`LLM_KV_NAMES`) reads them.

use super::read::{GgufHeader, Meta};
use crate::engine::model::tensors::{classify, table_to_runs, Role, Tensor, TensorTable};
use crate::engine::precision::file_type::FileType;
use serde_json::{json, Map, Value};

/// What is missing from a GGUF file's metadata for the engine to size it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MissingKey(pub String);

/// GGUF architecture names and the `model_type` whose config rules fit them.
const ARCHITECTURES: [(&str, &str); 16] = [
    ("llama", "llama"),
    ("qwen2", "qwen2"),
    ("qwen2moe", "qwen2_moe"),
    ("qwen3", "qwen3"),
    ("qwen3moe", "qwen3_moe"),
    ("gemma", "gemma"),
    ("gemma2", "gemma2"),
    ("gemma3", "gemma3_text"),
    ("phi3", "phi3"),
    ("gpt2", "gpt2"),
    ("falcon", "falcon"),
    ("deepseek2", "deepseek_v3"),
    ("gpt-oss", "gpt_oss"),
    ("llama4", "llama4_text"),
    ("glm4moe", "glm4_moe"),
    ("olmo2", "olmo2"),
];

/// The config a GGUF header describes: the model's keys, `_name_or_path` from `general.name`,
/// and `gguf` with the file type and the tensor runs.
pub fn config_from_header(h: &GgufHeader) -> Result<Value, MissingKey> {
    let arch = h
        .get("general.architecture")
        .and_then(Meta::as_str)
        .ok_or_else(|| MissingKey("general.architecture".into()))?
        .to_owned();
    let k = |key: &str| h.get(&format!("{arch}.{key}"));
    let int = |key: &str| k(key).and_then(first_number);
    let need = |key: &str| int(key).ok_or_else(|| MissingKey(format!("{arch}.{key}")));
    let table = table_from_header(h);
    let experts = int("expert_count").unwrap_or(0);
    let model_type = ARCHITECTURES
        .iter()
        .find(|(a, _)| *a == arch)
        .map(|(_, t)| if *t == "llama" && experts > 0 { "mixtral" } else { *t })
        .map_or_else(|| format!("gguf-{arch}"), str::to_owned);
    let heads = need("attention.head_count")?;
    let mut c = Map::new();
    let mut put = |key: &str, v: Value| {
        c.insert(key.to_owned(), v);
    };
    put("model_type", json!(model_type));
    put("hidden_size", json!(need("embedding_length")?));
    put("num_hidden_layers", json!(need("block_count")?));
    put("num_attention_heads", json!(heads));
    put("num_key_value_heads", json!(max_number(k("attention.head_count_kv")).unwrap_or(heads)));
    if let Some(d) = int("attention.key_length") {
        put("head_dim", json!(d));
    }
    if let Some(i) = max_number(k("feed_forward_length")) {
        put("intermediate_size", json!(i));
    }
    put("vocab_size", json!(vocab(h, &arch, &table)));
    put("tie_word_embeddings", json!(!table.tensors.iter().any(|t| t.role == Role::Output)));
    if let Some(n) = int("context_length") {
        put("max_position_embeddings", json!(n));
    }
    if let Some(w) = int("attention.sliding_window") {
        put("sliding_window", json!(w));
    }
    moe_keys(&mut put, &int, experts);
    mla_keys(&mut put, &int);
    if let Some(name) = h.get("general.name").and_then(Meta::as_str) {
        put("_name_or_path", json!(name));
    }
    let file_type = h.get("general.file_type").and_then(Meta::as_u64).and_then(|id| {
        FileType::from_id(u32::try_from(id).ok()?).map(FileType::name).or(match id & !1024 {
            0 => Some("F32"),
            1 => Some("F16"),
            32 => Some("BF16"),
            _ => None,
        })
    });
    put("gguf", json!({"file_type": file_type, "tensors": table_to_runs(&table)}));
    Ok(Value::Object(c))
}

/// The mixture-of-experts keys under every name the config rules read.
fn moe_keys(put: &mut impl FnMut(&str, Value), int: &impl Fn(&str) -> Option<u64>, experts: u64) {
    if experts == 0 {
        return;
    }
    for key in ["num_local_experts", "num_experts", "n_routed_experts"] {
        put(key, json!(experts));
    }
    if let Some(k) = int("expert_used_count") {
        put("num_experts_per_tok", json!(k));
        put("experts_per_token", json!(k));
    }
    if let Some(i) = int("expert_feed_forward_length") {
        put("moe_intermediate_size", json!(i));
    }
    if let Some(i) = int("expert_shared_feed_forward_length") {
        put("shared_expert_intermediate_size", json!(i));
    }
    if let Some(n) = int("expert_shared_count") {
        put("n_shared_experts", json!(n));
    }
    if let Some(n) = int("leading_dense_block_count") {
        put("first_k_dense_replace", json!(n));
    }
}

/// DeepSeek's multi-head latent attention keys.
fn mla_keys(put: &mut impl FnMut(&str, Value), int: &impl Fn(&str) -> Option<u64>) {
    let Some(r) = int("attention.kv_lora_rank") else {
        return;
    };
    put("kv_lora_rank", json!(r));
    if let Some(q) = int("attention.q_lora_rank") {
        put("q_lora_rank", json!(q));
    }
    let rope = int("rope.dimension_count").unwrap_or(64);
    put("qk_rope_head_dim", json!(rope));
    if let Some(k) = int("attention.key_length") {
        put("qk_nope_head_dim", json!(k.saturating_sub(rope)));
    }
    if let Some(v) = int("attention.value_length") {
        put("v_head_dim", json!(v));
    }
}

/// A number, or an array's first one.
fn first_number(m: &Meta) -> Option<u64> {
    match m {
        Meta::Array { numbers, .. } => numbers.first().and_then(|f| Meta::Float(*f).as_u64()),
        other => other.as_u64(),
    }
}

/// A number, or an array's largest (per-layer head counts and widths).
fn max_number(m: Option<&Meta>) -> Option<u64> {
    match m? {
        Meta::Array { numbers, .. } => numbers.iter().filter_map(|f| Meta::Float(*f).as_u64()).max(),
        other => other.as_u64(),
    }
}

/// The vocabulary: `{arch}.vocab_size`, the tokenizer's token count, or the embedding's rows.
fn vocab(h: &GgufHeader, arch: &str, table: &TensorTable) -> u64 {
    h.get(&format!("{arch}.vocab_size"))
        .and_then(Meta::as_u64)
        .or_else(|| match h.get("tokenizer.ggml.tokens") {
            Some(Meta::Array { len, .. }) => Some(*len),
            _ => None,
        })
        .or_else(|| {
            let e = table.tensors.iter().find(|t| t.role == Role::TokenEmbd)?;
            u64::try_from(e.elements / u128::from(e.row.max(1))).ok()
        })
        .unwrap_or(1)
}

/// The tensor table of a GGUF header.
pub fn table_from_header(h: &GgufHeader) -> TensorTable {
    let tensors = h
        .tensors
        .iter()
        .map(|t| {
            let dims = u32::try_from(t.dims.iter().filter(|d| **d > 1).count().max(1)).unwrap_or(4);
            let (role, layer, experts) =
                classify(&t.name, dims.min(u32::try_from(t.dims.len()).unwrap_or(4)));
            Tensor {
                role,
                layer,
                row: t.dims.first().copied().unwrap_or(1),
                elements: t.elements(),
                experts,
                ty: t.ty,
            }
        })
        .collect();
    TensorTable::new(tensors)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::gguf::read::read_header;
    use crate::engine::gguf::read::tests::{write_gguf, MetaIn};
    use crate::engine::model::tensors::{table_from_runs, Part};
    use crate::engine::precision::ggml_type::GgmlType;

    fn small_llama() -> Vec<u8> {
        let mut tensors: Vec<(String, Vec<u64>, GgmlType)> = vec![
            ("token_embd.weight".into(), vec![64, 100], GgmlType::Q8_0),
            ("output.weight".into(), vec![64, 100], GgmlType::Q8_0),
            ("output_norm.weight".into(), vec![64], GgmlType::F32),
        ];
        for l in 0..2 {
            for (n, dims, ty) in [
                ("attn_q", vec![64, 64], GgmlType::Q8_0),
                ("attn_k", vec![64, 32], GgmlType::Q8_0),
                ("attn_v", vec![64, 32], if l == 0 { GgmlType::Q8_0 } else { GgmlType::Q4_0 }),
                ("attn_output", vec![64, 64], GgmlType::Q8_0),
                ("ffn_gate", vec![64, 128], GgmlType::Q4_0),
                ("ffn_up", vec![64, 128], GgmlType::Q4_0),
                ("ffn_down", vec![128, 64], GgmlType::Q8_0),
                ("attn_norm", vec![64], GgmlType::F32),
            ] {
                tensors.push((format!("blk.{l}.{n}.weight"), dims, ty));
            }
        }
        let t: Vec<(&str, &[u64], GgmlType)> =
            tensors.iter().map(|(n, d, t)| (n.as_str(), d.as_slice(), *t)).collect();
        write_gguf(
            &[
                ("general.architecture", MetaIn::Str("llama")),
                ("general.name", MetaIn::Str("Tiny Llama")),
                ("general.file_type", MetaIn::U32(7)),
                ("llama.block_count", MetaIn::U32(2)),
                ("llama.embedding_length", MetaIn::U32(64)),
                ("llama.feed_forward_length", MetaIn::U32(128)),
                ("llama.attention.head_count", MetaIn::U32(4)),
                ("llama.attention.head_count_kv", MetaIn::U32(2)),
                ("llama.context_length", MetaIn::U32(2048)),
                ("tokenizer.ggml.tokens", MetaIn::Strings(100)),
            ],
            &t,
        )
    }

    #[test]
    fn a_gguf_file_becomes_a_config_with_its_exact_tensors() {
        let b = small_llama();
        let h = read_header(&b, b.len() as u64).unwrap();
        let c = config_from_header(&h).unwrap();
        assert_eq!(c["model_type"], "llama");
        assert_eq!(c["num_key_value_heads"], 2);
        assert_eq!(c["vocab_size"], 100);
        assert_eq!(c["tie_word_embeddings"], false);
        assert_eq!(c["_name_or_path"], "Tiny Llama");
        assert_eq!(c["gguf"]["file_type"], "Q8_0");
        let table = table_from_header(&h);
        let back = table_from_runs(&c["gguf"]["tensors"]).unwrap();
        assert_eq!(back.bytes(Part::All), table.bytes(Part::All));
        assert_eq!(back.tensors.len(), table.tensors.len());
        // attn_q of both layers is one run; attn_v differs by layer: two.
        let runs = c["gguf"]["tensors"].as_array().unwrap();
        assert!(runs.iter().any(|r| r[0] == "attn_q" && r[1] == 0 && r[2] == 1));
        assert_eq!(runs.iter().filter(|r| r[0] == "attn_v").count(), 2);
        let a = crate::engine::model::config::parse_config(&c).unwrap();
        assert_eq!((a.layers, a.attention.kv_heads, a.attention.head_dim), (2, 2, 16));
    }

    #[test]
    fn missing_metadata_is_named() {
        let b = write_gguf(
            &[("general.architecture", MetaIn::Str("llama"))],
            &[("output.weight", &[32, 2], GgmlType::Q8_0)],
        );
        let h = read_header(&b, b.len() as u64).unwrap();
        assert_eq!(config_from_header(&h), Err(MissingKey("llama.attention.head_count".into())));
    }
}
