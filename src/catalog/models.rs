//! Catalog of open models, each stored as its published Hugging Face config (architecture
//! fields only) with the page it came from. Parameter counts are never stored: the engine
//! computes them from these configs.

use super::json::{list, Obj};
use crate::engine::model::config::parse_config;
use crate::engine::model::Architecture;
#[cfg(test)]
use serde::Deserialize;
use serde_json::Value;
use std::sync::OnceLock;

/// One catalog entry.
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(test, derive(Deserialize))]
pub struct CatalogModel {
    /// Id used in Scenario JSON, e.g. `llama-3.1-8b`.
    pub id: String,
    /// Display name.
    pub name: String,
    /// Where the config was published.
    pub source: String,
    /// The chat (instruction-tuned) checkpoint a chat service serves, `org/name` on Hugging
    /// Face, where `source` is the base model's: same architecture and format.
    #[cfg_attr(test, serde(default))]
    pub serve_repo: Option<String>,
    /// When the fields were transcribed or last checked.
    pub retrieved: String,
    /// The format the checkpoint is published in: `bf16`, `fp16` or `fp32` (the config's
    /// `torch_dtype`), `fp8` or `mxfp4` (its `quantization_config`, which the engine applies
    /// when no weight format is chosen).
    pub published_format: String,
    /// Where the published format is stated, when not in the config at `source` alone.
    #[cfg_attr(test, serde(default))]
    pub published_source: Option<String>,
    /// Whether the architecture fields were checked against a published copy of the config
    /// (named in `source`) or an exact published parameter count. `false` (also when absent)
    /// means the entry is unverified: the UI shows it as such and `note` says what is missing.
    #[cfg_attr(test, serde(default))]
    pub verified: bool,
    #[cfg_attr(test, serde(default))]
    pub note: Option<String>,
    /// The config.json fields, as published.
    pub config: Value,
    /// Quantised checkpoints of the model its publisher released beside the base repository
    /// (what a serving engine loads instead of quantising the 16-bit weights as it loads them).
    #[cfg_attr(test, serde(default))]
    pub quantized: Vec<QuantizedCheckpoint>,
}

/// A published quantised checkpoint of a catalog model.
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(test, derive(Deserialize))]
pub struct QuantizedCheckpoint {
    /// `org/name` on Hugging Face.
    pub repo: String,
    /// The weight format a reader chooses to get it: `fp8`, `int4` (AWQ or GPTQ 4-bit), `int8`.
    pub format: String,
    /// Its `quantization_config` as its model card states the scheme: the engine sizes and times
    /// the checkpoint with it (the base config's shapes are the checkpoint's).
    pub quantization_config: Value,
    /// Where the repository and its format are stated.
    pub source: String,
    pub retrieved: String,
    #[cfg_attr(test, serde(default))]
    pub note: Option<String>,
}

impl QuantizedCheckpoint {
    fn from_json(v: &Value) -> Option<QuantizedCheckpoint> {
        let o = Obj::of(v)?;
        Some(QuantizedCheckpoint {
            repo: o.text("repo")?,
            format: o.text("format")?,
            quantization_config: o.req("quantization_config", |c| Some(c.clone()))?,
            source: o.text("source")?,
            retrieved: o.text("retrieved")?,
            note: o.opt_text("note")?,
        })
    }
}

impl CatalogModel {
    /// The published checkpoint in weight format `format` (`fp8`, `int4`, `int8`), if any.
    pub fn quantized_in(&self, format: &str) -> Option<&QuantizedCheckpoint> {
        self.quantized.iter().find(|q| q.format == format)
    }

    /// The config of a published quantised checkpoint: the base config's shapes with the
    /// checkpoint's `quantization_config`.
    pub fn checkpoint_config(&self, q: &QuantizedCheckpoint) -> Value {
        let mut c = self.config.clone();
        if let Some(o) = c.as_object_mut() {
            o.insert("quantization_config".into(), q.quantization_config.clone());
        }
        c
    }
}

#[cfg(test)]
#[derive(Deserialize)]
struct CatalogFile {
    models: Vec<CatalogModel>,
}

impl CatalogModel {
    /// One entry of `models.json` (`verified` and `note` may be absent).
    fn from_json(v: &Value) -> Option<CatalogModel> {
        let o = Obj::of(v)?;
        Some(CatalogModel {
            id: o.text("id")?,
            name: o.text("name")?,
            source: o.text("source")?,
            serve_repo: o.opt_text("serve_repo")?,
            retrieved: o.text("retrieved")?,
            published_format: o.text("published_format")?,
            published_source: o.opt_text("published_source")?,
            verified: o.opt("verified", Value::as_bool)?.unwrap_or(false),
            note: o.opt_text("note")?,
            config: o.req("config", |c| Some(c.clone()))?,
            quantized: o.opt("quantized", |q| list(q, QuantizedCheckpoint::from_json))?.unwrap_or_default(),
        })
    }
}

/// A catalog model with its parsed architecture.
#[derive(Debug)]
pub struct Entry {
    pub model: CatalogModel,
    pub architecture: Architecture,
}

static MODELS: OnceLock<Vec<Entry>> = OnceLock::new();

/// Every catalog model whose config parses (a test checks that all of them do).
pub fn all() -> &'static [Entry] {
    MODELS.get_or_init(|| {
        // Through serde_json::Value and a hand-written reader (see `catalog::json`).
        let models =
            serde_json::from_str::<Value>(include_str!(concat!(env!("OUT_DIR"), "/catalog/models.json")))
                .ok()
                .and_then(|v| v.get("models").and_then(|m| list(m, CatalogModel::from_json)))
                .unwrap_or_default();
        models
            .into_iter()
            .filter_map(|m| parse_config(&m.config).ok().map(|architecture| Entry { model: m, architecture }))
            .collect()
    })
}

/// A catalog model by id.
pub fn find(id: &str) -> Option<&'static Entry> {
    all().iter().find(|e| e.model.id == id)
}

/// All ids, for error messages and the UI's picker.
pub fn ids() -> Vec<&'static str> {
    all().iter().map(|e| e.model.id.as_str()).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Checkpoints published pre-quantised: the catalog must record it, so that "as published"
    /// sizes them as they ship (DeepSeek's README_WEIGHTS.md, Moonshot's and MiniMax's configs,
    /// OpenAI's gpt-oss config).
    #[test]
    fn quantised_checkpoints_are_recorded_as_published() {
        for (id, format) in [
            ("deepseek-v3", "fp8"),
            ("deepseek-r1", "fp8"),
            ("kimi-k2", "fp8"),
            ("minimax-m2", "fp8"),
            ("gpt-oss-120b", "mxfp4"),
            ("gpt-oss-20b", "mxfp4"),
            ("llama-3.1-70b", "bf16"),
            ("llama-2-7b", "fp16"),
        ] {
            assert_eq!(find(id).unwrap().model.published_format, format, "{id}");
        }
        // The engine sizes them so when no weight format is chosen: DeepSeek-V3 in FP8 blocks,
        // about 1 byte per parameter, not 2.
        let s = crate::engine::Scenario::new(crate::engine::ModelSpec::Id("deepseek-v3".into()));
        let r = crate::catalog::evaluate(&s).unwrap();
        let q = r.model.quantization.as_ref().expect("applied");
        assert!(q.applied);
        let per_param = q.bytes as f64 / r.params.total as f64;
        assert!((1.0..1.05).contains(&per_param), "{per_param}");
    }

    /// Published quantised checkpoints (issue 30, item 7): each names its repository, a weight
    /// format a reader can pick, a config the engine reads in that format, a source and a date;
    /// Qwen3-235B-A22B's FP8 checkpoint is there, sized as FP8 blocks.
    #[test]
    fn published_quantised_checkpoints_are_read_and_sized_in_their_format() {
        use crate::engine::model::quant::QuantMethod;
        let mut seen = 0;
        for e in all() {
            for q in &e.model.quantized {
                seen += 1;
                assert_eq!(q.repo.split('/').filter(|p| !p.is_empty()).count(), 2, "{}", q.repo);
                assert!(q.source.starts_with("https://") && !q.retrieved.is_empty(), "{}", q.repo);
                let a = parse_config(&e.model.checkpoint_config(q))
                    .unwrap_or_else(|err| panic!("{}: {err}", q.repo));
                let method = a.quantization.as_ref().map(|x| x.method);
                let expected = match q.format.as_str() {
                    "fp8" => vec![QuantMethod::Fp8],
                    "int4" | "int8" => vec![QuantMethod::Awq, QuantMethod::Gptq],
                    other => panic!("{}: unknown format {other}", q.repo),
                };
                assert!(method.is_some_and(|m| expected.contains(&m)), "{}: {method:?}", q.repo);
                assert!(crate::engine::precision::Dtype::parse(&q.format).is_some(), "{}", q.format);
            }
        }
        assert!(seen >= 10, "{seen}");
        let m = &find("qwen3-235b-a22b").unwrap().model;
        let q = m.quantized_in("fp8").unwrap();
        assert_eq!(q.repo, "Qwen/Qwen3-235B-A22B-FP8");
        // About one byte per parameter (FP8 blocks, the embedding and head in 16 bits).
        let s = crate::engine::Scenario::new(crate::engine::ModelSpec::Config(m.checkpoint_config(q)));
        let r = crate::catalog::evaluate(&s).unwrap();
        let per_param = r.memory_per_gpu_bytes.weights as f64 / r.params.total as f64;
        assert!((1.0..1.05).contains(&per_param), "{per_param}");
        assert!(m.quantized_in("int4").is_none() && find("llama-3.1-8b").unwrap().model.quantized.is_empty());
    }

    #[test]
    fn every_entry_parses_and_has_a_source() {
        let file: CatalogFile = serde_json::from_str(include_str!("models.json")).unwrap();
        assert!(file.models.len() >= 25);
        let read: Vec<&CatalogModel> = all().iter().map(|e| &e.model).collect();
        assert_eq!(
            read,
            file.models.iter().collect::<Vec<_>>(),
            "the hand-written reader reads what serde's derive read"
        );
        for m in &file.models {
            parse_config(&m.config).unwrap_or_else(|e| panic!("{}: {e}", m.id));
            assert!(m.source.starts_with("https://"), "{}", m.id);
            assert!(!m.retrieved.is_empty());
            if !m.verified {
                assert!(
                    m.note.as_deref().is_some_and(|n| !n.is_empty()),
                    "{}: unverified entries say why",
                    m.id
                );
            }
        }
        assert_eq!(all().len(), file.models.len());
        for m in &file.models {
            let q = m
                .config
                .get("quantization_config")
                .and_then(|q| q.get("quant_method"))
                .and_then(|q| q.as_str());
            match m.published_format.as_str() {
                "bf16" | "fp16" => {
                    assert_eq!(q, None, "{}: a 16-bit checkpoint has no quantization_config", m.id)
                }
                "fp32" | "fp8" | "mxfp4" => assert!(m.published_source.is_some(), "{}: says where", m.id),
                other => panic!("{}: unknown published format {other}", m.id),
            }
            if m.published_format == "fp8" || m.published_format == "mxfp4" {
                assert_eq!(q, Some(m.published_format.as_str()), "{}: the engine applies the format", m.id);
            }
        }
        let mut ids = ids();
        ids.sort_unstable();
        ids.dedup();
        assert_eq!(ids.len(), file.models.len(), "duplicate ids");
    }
}
