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
