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
    /// When the fields were transcribed or last checked.
    pub retrieved: String,
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
            retrieved: o.text("retrieved")?,
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
        let mut ids = ids();
        ids.sort_unstable();
        ids.dedup();
        assert_eq!(ids.len(), file.models.len(), "duplicate ids");
    }
}
