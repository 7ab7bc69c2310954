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

/// Every catalog GPU, parsed once from the embedded data file, followed by the team's GPUs when
/// a team catalog was installed before ([`super::team`]).
pub fn all() -> &'static [Gpu] {
    GPUS.get_or_init(|| {
        let mut list = embedded();
        if let Some(team) = super::team::get() {
            list.extend(team.gpus.iter().cloned());
        }
        list
    })
}

/// The embedded catalog's GPUs alone, parsed afresh (what a team catalog is checked against).
pub fn embedded() -> Vec<Gpu> {
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
}

/// Whether [`all`] was read already (a team catalog installed after it would not be in it).
pub fn is_loaded() -> bool {
    GPUS.get().is_some()
}

/// A catalog GPU by id (e.g. `h100-sxm`).
pub fn find(id: &str) -> Option<&'static Gpu> {
    all().iter().find(|g| g.id == id)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::precision::compute::ComputeDtype;

    const REQUIRED: [&str; 36] = [
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
        "b300",
        "gb300",
        "rtx-4090",
        "rtx-5090",
        "mi300x",
        "mi325x",
        "mi355x",
        "rtx-3090",
        "rtx-4060-ti-16gb",
        "rtx-a6000",
        "rtx-6000-ada",
        "rtx-pro-6000-blackwell",
        "tesla-p40",
        "radeon-rx-7900-xtx",
        "mi210",
        "apple-m1-8c",
        "apple-m2-ultra-76c",
        "dgx-spark",
        "ryzen-ai-max-395",
    ];

    #[test]
    fn data_file_parses_and_ids_are_unique() {
        let parsed: Vec<Gpu> = serde_json::from_str(include_str!("data/gpus.json")).unwrap();
        assert_eq!(parsed.len(), 80);
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

    /// Apple chips are `apple_unified` (macOS wires part of the memory for the GPU), DGX Spark
    /// `unified`, Ryzen AI Max `linux_gtt` (half of it under Linux's default); both list the memory sizes sold, the largest being
    /// `memory_bytes`. Every other device has its own memory and no options.
    #[test]
    fn memory_kinds_follow_the_device() {
        let mut apple = 0;
        for g in all() {
            let expected = if g.id.starts_with("apple-") {
                apple += 1;
                MemoryKind::AppleUnified
            } else if g.id == "dgx-spark" {
                MemoryKind::Unified
            } else if g.id == "ryzen-ai-max-395" {
                MemoryKind::LinuxGtt
            } else {
                MemoryKind::Discrete
            };
            assert_eq!(g.memory_kind, expected, "{}", g.id);
            if expected == MemoryKind::Discrete {
                assert!(g.memory_options_bytes.is_empty(), "{}", g.id);
            } else {
                let o = &g.memory_options_bytes;
                assert!(o.windows(2).all(|w| w[0] < w[1]), "{}: {o:?}", g.id);
                assert_eq!(o.last(), Some(&g.memory_bytes), "{}", g.id);
            }
        }
        assert_eq!(apple, 21);
        let m1 = find("apple-m1-8c").unwrap();
        assert_eq!(m1.memory_options_bytes, [8_000_000_000, 16_000_000_000]);
        assert_eq!(m1.memory_kind.gpu_budget(m1.memory_bytes), 16_000_000_000 / 3 * 2);
    }

    /// The Apple chips carry the Metal profile (calibrated on llama.cpp PR #2917, see
    /// `tests/validation_llama.rs`); the training GPUs of the Maximum Achievable Matmul FLOPS
    /// table carry their GEMM share and nothing else; the L40S carries its FP8 GEMM share
    /// (vLLM PR #6677's kernel timings); the other devices keep the defaults.
    #[test]
    fn only_apple_chips_and_measured_gpus_carry_an_efficiency_profile() {
        let mamf = [
            ("a100-sxm-40gb", 0.869),
            ("a100-sxm-80gb", 0.869),
            ("a100-pcie-40gb", 0.811),
            ("a100-pcie-80gb", 0.811),
            ("h100-sxm", 0.803),
            ("h200-sxm", 0.803),
            ("b200", 0.776),
            ("gb200", 0.729),
            ("mi300x", 0.514),
            ("mi325x", 0.604),
        ];
        for g in all() {
            let (e, _) = g.efficiency.resolve().unwrap();
            if g.memory_kind == MemoryKind::AppleUnified {
                assert_eq!(g.efficiency.memory_bandwidth, Some(0.848), "{}", g.id);
                assert_eq!(g.efficiency.kernel_launch_s, Some(17.8e-6), "{}", g.id);
                assert!(g.efficiency_source.contains("pull/2917"), "{}", g.id);
                assert!(e.validate().is_ok());
            } else if let Some((_, share)) = mamf.iter().find(|(id, _)| *id == g.id) {
                let want = crate::engine::efficiency::EfficiencyOverrides {
                    matmul_flops: Some(*share),
                    ..Default::default()
                };
                assert_eq!(g.efficiency, want, "{}", g.id);
                assert!(g.efficiency_source.contains("Maximum Achievable Matmul FLOPS"), "{}", g.id);
            } else if g.id == "l40s" {
                let want = crate::engine::efficiency::EfficiencyOverrides {
                    fp8_tensor_flops: Some(0.51),
                    ..Default::default()
                };
                assert_eq!(g.efficiency, want);
                assert!(g.efficiency_source.contains("pull request #6677"));
                assert!(e.validate().is_ok());
            } else {
                assert_eq!(g.efficiency, Default::default(), "{}", g.id);
                assert!(g.efficiency_source.is_empty(), "{}", g.id);
            }
        }
    }

    /// What a reader sees of an entry (name, source, notes) states facts and citations; the
    /// research's working remarks stay out of it.
    #[test]
    fn reader_text_has_no_research_remarks() {
        const REMARKS: [&str; 9] = [
            "[UNVERIFIED]",
            "secondary copy",
            "summarising tool",
            "summarizing",
            "corpus",
            "this research",
            "devices.md",
            "not verified here",
            "(secondary)",
        ];
        for g in all() {
            let texts = [&g.name, &g.source, &g.efficiency_source].into_iter().chain(&g.notes);
            for t in texts {
                for r in REMARKS {
                    assert!(!t.contains(r), "{}: '{r}' in {t}", g.id);
                }
            }
            assert!(!g.source_ids.iter().any(|s| s == "UNVERIFIED"), "{}", g.id);
        }
    }

    /// Cards on a PCIe x8 link carry the x8 figure (per direction half of it), and say so.
    #[test]
    fn x8_cards_carry_the_x8_link() {
        for (id, per_direction) in [
            ("rtx-4060", 16e9),
            ("rtx-4060-ti-8gb", 16e9),
            ("rtx-4060-ti-16gb", 16e9),
            ("rtx-5060-ti-16gb", 32e9),
        ] {
            let g = find(id).unwrap();
            assert_eq!(g.pcie_bytes_per_s_per_direction(), Some(per_direction), "{id}");
            assert!(g.notes.iter().any(|n| n.contains("x8")), "{id}");
        }
        assert_eq!(find("rtx-4090").unwrap().pcie_bytes_per_s_per_direction(), Some(32e9));
    }

    /// DGX Spark: NVIDIA publishes only the FP4 peak; BF16 is a flagged derivation (62.5
    /// TFLOPS, the RTX 5090's FP4:BF16 ratio of 8), never the FP4 peak itself.
    #[test]
    fn dgx_spark_bf16_is_a_flagged_derivation_not_the_fp4_peak() {
        let g = find("dgx-spark").unwrap();
        let p = g.compute_path(ComputeDtype::Bf16).unwrap();
        assert_eq!((p.used, p.peak_flops_per_s), (ComputeDtype::Bf16, 62.5e12));
        assert!(g.is_uncertain("peak_flops.bf16") && !g.is_uncertain("peak_flops.fp4"));
        assert_eq!(g.peak_flops.fp4, Some(500e12));
        assert_eq!(g.memory_bandwidth_bytes_per_s, 273e9);
        // Apple publishes no FP16 peak before the M5: the FP32 path applies, as on a V100.
        let m2 = find("apple-m2-ultra-76c").unwrap();
        assert_eq!(m2.compute_path(ComputeDtype::Fp16).unwrap().used, ComputeDtype::Fp32);
        let m5 = find("apple-m5-pro-20c").unwrap();
        assert_eq!(m5.compute_path(ComputeDtype::Fp16).unwrap().used, ComputeDtype::Fp16);
        assert!(m5.is_uncertain("peak_flops.fp16"));
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
