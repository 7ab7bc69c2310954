//! GPU catalog: memory, bandwidth, dense peak FLOP/s per dtype, L2, NVLink, PCIe, MIG.
//!
//! Data: `data/gpus.json`, derived by `tools/derive_catalog.py` from the shared reference
//! `hardware.json` (retrieved 2026-11-29). Every figure is the vendor's *dense* peak; the
//! sparse (2:4 structured sparsity) figures as quoted are kept in `sparse_as_quoted` only so a
//! test can check dense = sparse / 2. Units: bytes (decimal GB × 1e9 as vendors quote them),
//! bytes/s, FLOP/s (INT8 in OP/s). L2 sizes are binary (MiB), as the caches are built.
//!
//! The same [`Gpu`] type is what a reader gives inline for a custom GPU: every field except
//! memory, bandwidth and at least one peak has a default; [`Gpu::validate`] names bad fields.

use std::sync::OnceLock;

pub use crate::engine::gpu::*;

static GPUS: OnceLock<Vec<Gpu>> = OnceLock::new();

/// Every catalog GPU, parsed once from the embedded data file.
pub fn all() -> &'static [Gpu] {
    GPUS.get_or_init(|| {
        // The file is embedded at compile time and checked by the tests below, so a parse error
        // can only come from a broken build; fall back to an empty catalog rather than panic.
        // Each entry is read by `Gpu::from_json`, the reader of a custom GPU given inline in a
        // scenario, so the wasm holds one GPU reader.
        let Ok(serde_json::Value::Array(list)) =
            serde_json::from_str(include_str!(concat!(env!("OUT_DIR"), "/catalog/gpus.json")))
        else {
            return Vec::new();
        };
        list.iter().filter_map(|v| Gpu::from_json(v).ok()).collect()
    })
}

/// A catalog GPU by id (e.g. `h100-sxm`).
pub fn find(id: &str) -> Option<&'static Gpu> {
    all().iter().find(|g| g.id == id)
}

#[cfg(test)]
mod tests {
    use super::*;

    const REQUIRED: [&str; 21] = [
        "v100-sxm-32gb",
        "t4",
        "a10g",
        "a10",
        "a30",
        "l4",
        "l40s",
        "a100-sxm-40gb",
        "a100-sxm-80gb",
        "a100-pcie-80gb",
        "h100-sxm",
        "h100-pcie",
        "h100-nvl",
        "h200-sxm",
        "h200-nvl",
        "b200",
        "gb200",
        "rtx-4090",
        "rtx-5090",
        "mi300x",
        "mi325x",
    ];

    #[test]
    fn data_file_parses_and_ids_are_unique() {
        let parsed: Vec<Gpu> = serde_json::from_str(include_str!("data/gpus.json")).unwrap();
        assert_eq!(parsed.len(), 23);
        assert_eq!(all().len(), parsed.len());
        let mut ids: Vec<_> = parsed.iter().map(|g| g.id.as_str()).collect();
        ids.sort();
        ids.dedup();
        assert_eq!(ids.len(), parsed.len());
        for id in REQUIRED {
            assert!(find(id).is_some(), "missing {id}");
        }
    }

    #[test]
    fn every_entry_is_valid_and_sourced() {
        for g in all() {
            assert!(g.validate().is_empty(), "{}: {:?}", g.id, g.validate());
            assert!(!g.source.is_empty() && !g.retrieved.is_empty(), "{}", g.id);
            assert!(g.compute_path(ComputeDtype::Bf16).is_some(), "{}", g.id);
        }
    }

    /// Dense = sparse / 2 wherever the vendor quoted a sparse figure. Tolerance 1.5%: the L40S
    /// datasheet lists FP16/BF16 362.05 dense against 733 sparse (flagged uncertain).
    #[test]
    fn peaks_are_dense_not_sparse() {
        for g in all() {
            for (k, sparse) in &g.sparse_as_quoted {
                let d = ComputeDtype::ALL.iter().find(|d| d.label() == k).unwrap();
                let dense = g.peak_flops.get(*d).unwrap();
                let rel = (dense - sparse / 2.0).abs() / (sparse / 2.0);
                assert!(rel < 0.015, "{} {k}: dense {dense} vs sparse {sparse}", g.id);
                if rel > 0.002 {
                    assert!(g.is_uncertain(&format!("peak_flops.{k}")), "{} {k}", g.id);
                }
            }
        }
    }

    #[test]
    fn worked_figures() {
        let h = find("h100-sxm").unwrap();
        assert_eq!(h.memory_bytes, 80_000_000_000);
        assert_eq!(h.memory_bandwidth_bytes_per_s, 3.35e12);
        assert_eq!(h.peak_flops.bf16, Some(989.5e12));
        assert_eq!(h.nvlink_bytes_per_s_per_direction(), 450e9);
        assert_eq!(h.mig.profiles.as_deref(), Some("h100-80gb"));
        let v = find("v100-sxm-32gb").unwrap();
        let p = v.compute_path(ComputeDtype::Bf16).unwrap();
        assert_eq!(p.used, ComputeDtype::Fp32);
        assert!(find("a10g").unwrap().is_uncertain("peak_flops.bf16"));
        assert!(!find("a100-sxm-80gb").unwrap().is_uncertain("memory_bytes"));
        assert_eq!(find("a100-sxm-40gb").unwrap().l2_bytes, Some(40 * 1024 * 1024));
    }

    #[test]
    fn custom_gpu_from_inline_json() {
        let read = |text: &str| Gpu::from_json(&serde_json::from_str(text).unwrap());
        let g = read(
            r#"{"memory_bytes": 48000000000, "memory_bandwidth_bytes_per_s": 1.0e12,
                "peak_flops": {"bf16": 200e12}}"#,
        )
        .unwrap();
        assert!(g.validate().is_empty());
        assert_eq!(g.id, "custom");
        let bad = read(r#"{"memory_bandwidth_bytes_per_s": -1}"#).unwrap();
        let fields: Vec<_> = bad.validate().into_iter().map(|e| e.field).collect();
        assert_eq!(fields, ["memory_bytes", "memory_bandwidth_bytes_per_s", "peak_flops"]);
        let unknown = read(r#"{"memory_gigs": 1}"#).unwrap_err();
        assert!(
            matches!(&unknown, crate::engine::error::ErrorKind::UnknownKey { key, known }
                if key == "memory_gigs" && known.len() == 25 && known.contains(&"memory_bytes".to_owned())),
            "{unknown:?}"
        );
    }
}
