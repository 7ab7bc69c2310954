//! MIG (Multi-Instance GPU) profiles per GPU family: memory and SM fraction of each profile.
//! Data: `data/mig.json`, derived from hardware.json (NVIDIA MIG User Guide r580, observed
//! `nvidia-smi mig -lgipp`, mig-parted). Keys match [`crate::catalog::gpus::Mig::profiles`].

use serde::{Deserialize, Serialize};
use std::sync::OnceLock;

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
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

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct MigTable {
    pub key: String,
    pub name: String,
    pub profiles: Vec<MigProfile>,
    pub notes: Vec<String>,
    pub source: String,
    pub retrieved: String,
}

static TABLES: OnceLock<Vec<MigTable>> = OnceLock::new();

/// Every MIG table (A100-40GB, A100-80GB, H100-80GB, H100-94GB, H200-141GB, B200-180GB, A30, GB200).
pub fn all() -> &'static [MigTable] {
    // Through serde_json::Value, like the GPU catalog: the wasm already parses text into a Value,
    // so the typed tables need only the Value deserializer, not a second one for text.
    TABLES.get_or_init(|| {
        serde_json::from_str::<serde_json::Value>(include_str!("data/mig.json"))
            .ok()
            .and_then(|v| serde_json::from_value(v).ok())
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
        assert_eq!(parsed.len(), 8);
        for g in crate::catalog::gpus::all() {
            if let Some(k) = &g.mig.profiles {
                assert!(find(k).is_some(), "{}: {k}", g.id);
            }
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
