//! A MIG slice as a GPU of its own: the parent's memory and bandwidth scaled by the profile's
//! share of memory slices, its peaks by the share of compute slices (SMs).
//!
//! Source: NVIDIA Multi-Instance GPU User Guide (profiles: memory and compute slices). Memory
//! bandwidth follows the memory slices because each slice owns its memory controllers; this is
//! an approximation, flagged as uncertain on the derived GPU, as are the scaled peaks. A slice
//! has no NVLink of its own.

use crate::catalog::gpus::{Gpu, Mig};
use crate::catalog::mig::{self, MigProfile};

/// The separator between the parent GPU id and the profile in a slice's id.
pub const SLICE_SEPARATOR: &str = "/mig-";

/// The MIG profiles of a catalog GPU (empty when it has none).
pub fn profiles(gpu: &Gpu) -> &'static [MigProfile] {
    gpu.mig.profiles.as_deref().and_then(mig::find).map(|t| t.profiles.as_slice()).unwrap_or(&[])
}

/// The share of `gpu`'s SMs a slice of `profile` computes with, and its SM count:
/// `sm_count / gpu SMs` where the profile table lists SM counts that apply to this GPU (none
/// above its SM count: the listings are for A100's 108 and H100 SXM's 132, not H100 PCIe's
/// 114), else the profile's share of compute slices. The two differ: an A100 1g slice computes
/// on 14 of 108 SMs (13.0%, not 1/7), an H100 4g.40gb on 64 of 132 (48.5%, not 4/7), per
/// `nvidia-smi mig -lgip` (the table's sources).
pub fn sm_share(gpu: &Gpu, profile: &MigProfile) -> (f64, Option<u32>) {
    let fraction = profile.sm_fraction.clamp(0.0, 1.0);
    match (listed_sm_count(gpu, profile), gpu.sm_count) {
        (Some(c), Some(total)) => ((f64::from(c) / f64::from(total)).min(1.0), Some(c)),
        _ => (fraction, gpu.sm_count.map(|n| ((n as f64) * fraction).round() as u32)),
    }
}

/// The profile's SM count as its table lists it, when the listing applies to `gpu` (no count in
/// the table above the GPU's SM count); `None` where it does not or lists none.
pub fn listed_sm_count(gpu: &Gpu, profile: &MigProfile) -> Option<u32> {
    let total = gpu.sm_count.filter(|n| *n > 0)?;
    let table = gpu.mig.profiles.as_deref().and_then(mig::find)?;
    let applies = table.profiles.iter().all(|p| p.sm_count.is_none_or(|c| c <= total));
    profile.sm_count.filter(|_| applies)
}

/// The slice `profile` of `gpu` as a GPU: memory and bandwidth by its share of memory slices,
/// peaks by its share of SMs ([`sm_share`]).
pub fn mig_slice(gpu: &Gpu, profile: &MigProfile) -> Gpu {
    let mem = profile.memory_fraction.clamp(0.0, 1.0);
    let (sm, sm_count) = sm_share(gpu, profile);
    let mut g = gpu.clone();
    g.id = format!("{}{SLICE_SEPARATOR}{}", gpu.id, profile.name);
    g.name = format!("{} · MIG {}", gpu.name, profile.name);
    g.memory_bytes = ((gpu.memory_bytes as f64) * mem).round().max(1.0) as u64;
    g.memory_bandwidth_bytes_per_s = gpu.memory_bandwidth_bytes_per_s * mem;
    let p = &mut g.peak_flops;
    for v in
        [&mut p.fp64, &mut p.fp32, &mut p.tf32, &mut p.fp16, &mut p.bf16, &mut p.fp8, &mut p.int8, &mut p.fp4]
            .into_iter()
            .flatten()
    {
        *v *= sm;
    }
    g.sparse_as_quoted.clear();
    g.l2_bytes = gpu.l2_bytes.map(|b| ((b as f64) * mem) as u64);
    g.sm_count = sm_count;
    g.nvlink = None;
    g.mig = Mig { supported: false, max_instances: 0, profiles: None };
    for field in ["memory_bandwidth_bytes_per_s", "peak_flops"] {
        if !g.uncertain.iter().any(|u| u == field) {
            g.uncertain.push(field.to_owned());
        }
    }
    // The parent's research notes and source ids are about the whole card (and the wasm's
    // catalog has none, `build.rs` NOT_IN_WASM): the slice keeps its own note, alike everywhere.
    g.source_ids.clear();
    g.notes = vec![format!(
        "MIG {}: {:.1}% of memory slices (memory and bandwidth), {:.1}% of the SMs (peaks), derived from {}",
        profile.name,
        mem * 100.0,
        sm * 100.0,
        gpu.id
    )];
    let table_source =
        gpu.mig.profiles.as_deref().and_then(mig::find).map(|t| t.source.clone()).unwrap_or_default();
    g.source = format!("{table_source}; {}", gpu.source);
    g
}

/// The slice a scenario names by its id (`a100-sxm-80gb/mig-1g.10gb`), as the GPU [`mig_slice`]
/// derives, so that a chapter's worked numbers and the widget opened at the same slice compute
/// on one GPU; `None` for any other GPU.
pub fn slice_by_id(id: &str) -> Option<Gpu> {
    let (parent, profile) = parse_slice_id(id)?;
    let gpu = crate::catalog::gpus::find(parent)?;
    profiles(gpu).iter().find(|p| p.name == profile).map(|p| mig_slice(gpu, p))
}

/// The parent id and profile name of a slice id made by [`mig_slice`].
pub fn parse_slice_id(id: &str) -> Option<(&str, &str)> {
    id.split_once(SLICE_SEPARATOR)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::catalog::gpus;

    #[test]
    fn a100_80gb_1g_10gb() {
        let a100 = gpus::find("a100-sxm-80gb").unwrap();
        let p = profiles(a100).iter().find(|p| p.name == "1g.10gb").unwrap();
        let s = mig_slice(a100, p);
        assert_eq!(s.memory_bytes, 10_000_000_000);
        assert!((s.memory_bandwidth_bytes_per_s - a100.memory_bandwidth_bytes_per_s / 8.0).abs() < 1.0);
        // 14 of the A100's 108 SMs (nvidia-smi mig -lgip), not a seventh of them.
        assert!((s.peak_flops.bf16.unwrap() - a100.peak_flops.bf16.unwrap() * 14.0 / 108.0).abs() < 1e6);
        assert_eq!(s.sm_count, Some(14));
        assert!(s.uncertain.iter().any(|u| u == "peak_flops"));
        assert!(s.validate().is_empty(), "{:?}", s.validate());
        assert_eq!(parse_slice_id(&s.id), Some(("a100-sxm-80gb", "1g.10gb")));
    }

    /// The SM share per profile per GPU (issue 33, class 4): measured counts where the table's
    /// listing is for this GPU, the compute-slice share where it is not.
    #[test]
    fn each_slice_computes_on_its_listed_sms() {
        let share = |id: &str, profile: &str| {
            let g = gpus::find(id).unwrap();
            sm_share(g, profiles(g).iter().find(|p| p.name == profile).unwrap())
        };
        let close = |(s, _): (f64, Option<u32>), want: f64| (s - want).abs() < 1e-9;
        assert!(close(share("h100-sxm", "4g.40gb"), 64.0 / 132.0));
        assert!(close(share("h100-sxm", "1g.20gb"), 26.0 / 132.0));
        assert_eq!(share("h100-sxm", "7g.80gb"), (1.0, Some(132)));
        assert_eq!(share("a100-sxm-80gb", "7g.80gb").1, Some(98));
        assert!(close(share("h200-sxm", "2g.35gb"), 32.0 / 132.0));
        // H100 PCIe has 114 SMs: the SXM listing does not apply, the slices' share does.
        assert!(close(share("h100-pcie", "4g.40gb"), 4.0 / 7.0));
        assert_eq!(share("h100-pcie", "7g.80gb").1, Some(114));
        // Where the parent's SM count is unknown, the compute-slice share.
        assert!(close(share("h100-nvl", "1g.24gb"), 1.0 / 7.0));
    }

    #[test]
    fn gpus_without_mig_have_no_profiles() {
        assert!(profiles(gpus::find("l4").unwrap()).is_empty());
        assert!(!profiles(gpus::find("h100-sxm").unwrap()).is_empty());
    }
}
