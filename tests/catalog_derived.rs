//! The catalogs' derived fields against what they are derived from (issue 33, class 4): one
//! test per field that a chapter or tool repeats. MIG: memory per profile per GPU, compute
//! slices, SMs per profile per GPU. GPUs: the sparse figure of each precision a datasheet lists.
//! Instances: the link kind the time model reads from the interconnect a provider states.

use gpu_primer::catalog::{gpus, instances, mig};
use gpu_primer::engine::hardware::TopologyKind;
use gpu_primer::estimator::mig_slice;

/// The GB in a profile's name (`3g.71gb` → 71) and its compute slices (3).
fn named(profile: &str) -> Option<(u32, f64)> {
    let base = profile.split('+').next()?;
    let (g, gb) = base.split_once("g.")?;
    Some((g.parse().ok()?, gb.strip_suffix("gb")?.parse().ok()?))
}

/// Every GPU with MIG, with its profiles.
fn mig_gpus() -> Vec<(&'static gpus::Gpu, &'static [mig::MigProfile])> {
    gpus::all()
        .iter()
        .filter(|g| g.mig.supported)
        .map(|g| (g, mig_slice::profiles(g)))
        .filter(|(_, p)| !p.is_empty())
        .collect()
}

/// A slice's memory is its share of the GPU's memory slices, and that is the size its name
/// states, to the GB the name rounds to (H200's 1g.18gb is 1/8 of 141 GB, 17.6 GB).
#[test]
fn memory_per_profile_per_gpu_is_the_named_size() {
    let mut problems = Vec::new();
    for (g, profiles) in mig_gpus() {
        for p in profiles {
            let Some((_, gb)) = named(&p.name) else {
                problems.push(format!("{}: {} has no size in its name", g.id, p.name));
                continue;
            };
            let slice = mig_slice::mig_slice(g, p).memory_bytes as f64 / 1e9;
            if (slice - gb).abs() > 0.5 {
                problems.push(format!("{} {}: {slice:.2} GB", g.id, p.name));
            }
        }
    }
    assert!(mig_gpus().len() >= 10);
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

/// A profile's compute-slice share is the `g` of its name over the GPU's compute slices.
#[test]
fn compute_slices_per_profile_are_the_named_ones() {
    for (g, profiles) in mig_gpus() {
        let full = profiles.iter().filter_map(|p| named(&p.name)).map(|(n, _)| n).max().unwrap();
        for p in profiles {
            let (n, _) = named(&p.name).unwrap();
            assert!((p.sm_fraction - f64::from(n) / f64::from(full)).abs() < 1e-9, "{} {}", g.id, p.name);
        }
    }
}

/// SMs per profile per GPU: a listed count is never above the GPU's SMs where it is used, grows
/// with the compute slices, and the slice's peaks follow it (H100 SXM 4g.40gb: 64 of 132 SMs).
#[test]
fn sms_per_profile_per_gpu_follow_the_listing() {
    let mut used = 0;
    for (g, profiles) in mig_gpus() {
        let mut by_slices: Vec<(u32, u32)> = Vec::new();
        for p in profiles {
            let (share, count) = mig_slice::sm_share(g, p);
            assert!(share > 0.0 && share <= 1.0, "{} {}", g.id, p.name);
            if let (Some(c), Some(total)) = (mig_slice::listed_sm_count(g, p), g.sm_count) {
                used += 1;
                assert!(c <= total, "{} {}: {c} of {total}", g.id, p.name);
                assert_eq!(count, Some(c));
                let slice = mig_slice::mig_slice(g, p);
                if let (Some(s), Some(w)) = (slice.peak_flops.bf16, g.peak_flops.bf16) {
                    assert!((s / w - f64::from(c) / f64::from(total)).abs() < 1e-9, "{} {}", g.id, p.name);
                }
                by_slices.push((named(&p.name).unwrap().0, c));
            }
        }
        by_slices.sort_unstable();
        assert!(by_slices.windows(2).all(|w| w[0].1 <= w[1].1), "{}: {by_slices:?}", g.id);
    }
    assert!(used >= 20, "only {used} listed counts used");
}

/// GPUs whose sources quote one sparse tensor figure (FP16), with no BF16 row to carry over.
const ONE_SPARSE_FIGURE: [&str; 4] = ["rtx-a4000", "rtx-a6000", "rtx-4090", "rtx-5090"];

/// Sparse figures for each precision the datasheet lists (the 2x rule itself is
/// `catalog::gpus::tests::peaks_are_dense_not_sparse`): where a datasheet quotes FP16 with
/// sparsity and BF16 runs at the FP16 rate, it quotes BF16 with sparsity too (A100: "BF16
/// Tensor Core 312 | 624 TF"; H100 SXM: 1,979 TF), and the spec-sheet widget shows it.
#[test]
fn a_sparse_fp16_figure_comes_with_its_bf16_row() {
    let mut problems = Vec::new();
    for g in gpus::all().iter().filter(|g| !ONE_SPARSE_FIGURE.contains(&g.id.as_str())) {
        let Some(fp16) = g.sparse_as_quoted.get("fp16") else { continue };
        if g.peak_flops.fp16.is_some() && g.peak_flops.fp16 == g.peak_flops.bf16 {
            match g.sparse_as_quoted.get("bf16") {
                Some(bf16) if bf16 == fp16 => {}
                other => problems.push(format!("{}: sparse fp16 {fp16:e}, bf16 {other:?}", g.id)),
            }
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
    for id in ONE_SPARSE_FIGURE {
        let g = gpus::find(id).expect("a catalog GPU");
        assert!(!g.sparse_as_quoted.contains_key("bf16"), "{id} quotes BF16 now: take it off the list");
    }
}

/// The link kind read from each multi-GPU instance's stated interconnect: an NVLink bridge pair
/// as a bridge, NVLink or NVSwitch boards as NVSwitch, everything else as PCIe.
#[test]
fn link_kinds_follow_the_stated_interconnect() {
    let mut bridges = 0;
    for i in instances::all().iter().filter(|i| i.gpu_count.is_some_and(|n| n > 1)) {
        let text = i.intra_node_interconnect.to_ascii_lowercase();
        let expected = if text.contains("nvlink bridge") {
            bridges += 1;
            TopologyKind::NvlinkBridge
        } else if text.starts_with("pcie") {
            TopologyKind::Pcie
        } else if text.contains("nvswitch") || text.contains("nvlink") {
            if i.provider == "AWS" {
                TopologyKind::NvswitchEfa
            } else {
                TopologyKind::Nvswitch
            }
        } else {
            TopologyKind::Pcie
        };
        assert_eq!(i.topology(), expected, "{}: {}", i.instance, i.intra_node_interconnect);
    }
    assert_eq!(bridges, 1);
}

#[test]
fn profile_names_are_read() {
    assert_eq!(named("3g.71gb"), Some((3, 71.0)));
    assert_eq!(named("1g.10gb+me"), Some((1, 10.0)));
    assert_eq!(named("7g"), None);
}
