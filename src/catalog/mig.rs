//! MIG (Multi-Instance GPU) profiles per GPU family: memory and SM fraction of each profile.
//! Data: `data/mig.json`, derived from hardware.json (NVIDIA MIG User Guide r580, observed
//! `nvidia-smi mig -lgipp`, mig-parted). Keys match [`crate::catalog::gpus::Mig::profiles`].

use super::json::{list, u32_of, Obj};
#[cfg(test)]
use serde::Deserialize;
use serde::Serialize;
use serde_json::Value;
use std::sync::OnceLock;

#[derive(Clone, Debug, PartialEq, Serialize)]
#[cfg_attr(test, derive(Deserialize))]
pub struct MigProfile {
    /// e.g. `3g.40gb`
    pub name: String,
    /// Fraction of the GPU's memory slices (1g.10gb on A100-40GB is 2/8: the guide's 1/8 is a typo).
    pub memory_fraction: f64,
    /// Fraction of the GPU's compute slices (SMs).
    pub sm_fraction: f64,
    pub max_instances: Option<u32>,
    pub sm_count: Option<u32>,
}

#[derive(Clone, Debug, PartialEq, Serialize)]
#[cfg_attr(test, derive(Deserialize))]
pub struct MigTable {
    pub key: String,
    pub name: String,
    pub profiles: Vec<MigProfile>,
    pub notes: Vec<String>,
    pub source: String,
    pub retrieved: String,
}

impl MigProfile {
    fn from_json(v: &Value) -> Option<MigProfile> {
        let o = Obj::of(v)?;
        Some(MigProfile {
            name: o.text("name")?,
            memory_fraction: o.req("memory_fraction", Value::as_f64)?,
            sm_fraction: o.req("sm_fraction", Value::as_f64)?,
            max_instances: o.opt("max_instances", u32_of)?,
            sm_count: o.opt("sm_count", u32_of)?,
        })
    }
}

impl MigTable {
    fn from_json(v: &Value) -> Option<MigTable> {
        let o = Obj::of(v)?;
        Some(MigTable {
            key: o.text("key")?,
            name: o.text("name")?,
            profiles: o.req("profiles", |p| list(p, MigProfile::from_json))?,
            notes: o.opt_texts("notes")?,
            source: o.text("source")?,
            retrieved: o.text("retrieved")?,
        })
    }
}

static TABLES: OnceLock<Vec<MigTable>> = OnceLock::new();

/// Every MIG table (A100-40GB, A100-80GB, H100-80GB, H100-94GB, H200-141GB, B200-180GB, A30, GB200).
pub fn all() -> &'static [MigTable] {
    // Through serde_json::Value and a hand-written reader (see `catalog::json`).
    TABLES.get_or_init(|| {
        serde_json::from_str(include_str!(concat!(env!("OUT_DIR"), "/catalog/mig.json")))
            .ok()
            .and_then(|v| list(&v, MigTable::from_json))
            .unwrap_or_default()
    })
}

/// A MIG table by key (e.g. `h100-80gb`).
pub fn find(key: &str) -> Option<&'static MigTable> {
    all().iter().find(|t| t.key == key)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tables_parse_and_gpu_keys_resolve() {
        let parsed: Vec<MigTable> = serde_json::from_str(include_str!("data/mig.json")).unwrap();
        assert_eq!(parsed.len(), 11);
        assert_eq!(all(), parsed, "the hand-written reader reads what serde's derive read");
        for g in crate::catalog::gpus::all() {
            if let Some(k) = &g.mig.profiles {
                assert!(find(k).is_some(), "{}: {k}", g.id);
            }
            // A GPU that supports MIG names its table (empty when the profiles were not read,
            // as for GB200 and the RTX PRO 6000 Blackwell: the planner then does not offer it).
            assert_eq!(g.mig.supported, g.mig.profiles.is_some(), "{}", g.id);
        }
        let h = find("h100-80gb").unwrap();
        let p = h.profiles.iter().find(|p| p.name == "3g.40gb").unwrap();
        assert_eq!((p.memory_fraction, p.sm_fraction), (0.5, 3.0 / 7.0));
        for t in all() {
            for p in &t.profiles {
                assert!(
                    p.memory_fraction > 0.0
                        && p.memory_fraction <= 1.0
                        && p.sm_fraction > 0.0
                        && p.sm_fraction <= 1.0
                );
            }
        }
    }
}
