//! Interconnects: per-GPU bandwidth per direction and a per-step latency α for the collective
//! model. Bandwidths from the shared reference `hardware.json` (retrieved 2026-11-29; vendor
//! GB/s and Gbit/s converted to bytes/s, bidirectional figures halved). Latencies are not in
//! the reference data: they are order-of-magnitude estimates (flagged uncertain) for one hop
//! of an NCCL ring step, so every entry has "latency_s" in `uncertain`.

use crate::engine::links::Link;
use serde::Serialize;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Scope {
    IntraNode,
    InterNode,
}

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Interconnect {
    pub id: &'static str,
    pub name: &'static str,
    pub scope: Scope,
    /// Per GPU, one direction (for NICs: the node's line rate divided by its GPUs).
    pub bytes_per_s_per_direction: f64,
    /// α per collective step (estimate).
    pub latency_s: f64,
    pub used_in: &'static str,
    pub source: &'static str,
    pub retrieved: &'static str,
    pub uncertain: &'static [&'static str],
}

impl Interconnect {
    /// The link the collective model uses.
    pub fn link(&self) -> Link {
        Link { bytes_per_s_per_direction: self.bytes_per_s_per_direction, latency_s: self.latency_s }
    }
}

const R: &str = "2026-11-29";
const LAT: &[&str] = &["latency_s"];
const LAT_BW: &[&str] = &["latency_s", "bytes_per_s_per_direction"];

macro_rules! ic {
    ($id:expr, $name:expr, $scope:ident, $bw:expr, $lat:expr, $used:expr, $src:expr, $unc:expr) => {
        Interconnect {
            id: $id,
            name: $name,
            scope: Scope::$scope,
            bytes_per_s_per_direction: $bw,
            latency_s: $lat,
            used_in: $used,
            source: $src,
            retrieved: R,
            uncertain: $unc,
        }
    };
}

static ALL: [Interconnect; 17] = [
    ic!(
        "nvlink-2",
        "NVLink 2.0",
        IntraNode,
        150e9,
        2e-6,
        "V100 SXM2 (6 links)",
        "NV-VOLTA-WP, V100-BW-SEC, NV-NVLINK: 300 GB/s bidirectional per GPU",
        LAT_BW
    ),
    ic!(
        "nvlink-3",
        "NVLink 3.0",
        IntraNode,
        300e9,
        2e-6,
        "A100 (12 links; PCIe cards via 2-GPU bridge)",
        "NV-AMPERE-BLOG, NV-NVLINK: 600 GB/s bidirectional per GPU",
        LAT
    ),
    ic!(
        "nvlink-4",
        "NVLink 4.0",
        IntraNode,
        450e9,
        2e-6,
        "H100/H200 SXM (18 links)",
        "NV-HOPPER-BLOG, NV-NVLINK: 900 GB/s bidirectional per GPU",
        LAT
    ),
    ic!(
        "nvlink-5",
        "NVLink 5.0",
        IntraNode,
        900e9,
        2e-6,
        "B200/GB200 (18 links)",
        "NV-NVLINK, NV-PRODPAGES: 1,800 GB/s bidirectional per GPU",
        LAT
    ),
    ic!(
        "nvswitch-a100",
        "NVSwitch (NVLink 3, HGX A100 8-GPU)",
        IntraNode,
        300e9,
        2e-6,
        "p4d/p4de, ND A100 v4, DGX A100",
        "NVLink 3.0 per-GPU rate through NVSwitch (AWS-DOCS, AZ-DOCS)",
        LAT
    ),
    ic!(
        "nvswitch-h100",
        "NVSwitch (NVLink 4, HGX H100/H200 8-GPU)",
        IntraNode,
        450e9,
        2e-6,
        "p5, a3, ND H100/H200 v5",
        "NVLink 4.0 per-GPU rate through 3rd-gen NVSwitch (NV-HOPPER-BLOG)",
        LAT
    ),
    ic!(
        "nvswitch-b200",
        "NVLink Switch (NVLink 5, HGX B200 / GB200 NVL72)",
        IntraNode,
        900e9,
        2e-6,
        "HGX B200, GB200 NVL72 (72-GPU domain)",
        "NV-NVLINK: 5th-gen NVLink Switch",
        LAT
    ),
    ic!(
        "pcie-3",
        "PCIe 3.0 x16",
        IntraNode,
        15.75e9,
        5e-6,
        "V100 PCIe, T4",
        "DERIVED: 8 GT/s × 16 × 128b/130b / 8",
        LAT
    ),
    ic!(
        "pcie-4",
        "PCIe 4.0 x16",
        IntraNode,
        31.5e9,
        5e-6,
        "A100 PCIe, A10, A10G, L4, L40S, RTX 4090",
        "NV-A100-DS, NV-AMPERE-BLOG: 64 GB/s bidir., 31.5 GB/s per direction",
        LAT
    ),
    ic!(
        "pcie-5",
        "PCIe 5.0 x16",
        IntraNode,
        63e9,
        5e-6,
        "H100 PCIe/NVL, H200 NVL, RTX 5090, MI300X host",
        "NV-PRODPAGES: 128 GB/s bidir.; ~63 GB/s per direction (derived)",
        LAT
    ),
    ic!(
        "infinity-fabric",
        "AMD Infinity Fabric (MI300X/MI325X, 7 links, fully connected)",
        IntraNode,
        448e9,
        3e-6,
        "MI300X/MI325X 8-GPU OAM platforms",
        "AMD-IF-SEC (secondary): 896 GB/s bidirectional aggregate; 64 GB/s per peer per direction",
        LAT_BW
    ),
    ic!(
        "ib-hdr",
        "InfiniBand HDR (200 Gbit/s per GPU)",
        InterNode,
        25e9,
        5e-6,
        "Azure ND A100 v4 (8 ports per VM)",
        "AZ-DOCS: HDR 200 Gbit/s per port, one port per GPU",
        LAT
    ),
    ic!(
        "ib-ndr",
        "InfiniBand NDR (400 Gbit/s per GPU)",
        InterNode,
        50e9,
        5e-6,
        "Azure ND H100/H200 v5 (8 ConnectX-7 ports per VM)",
        "AZ-DOCS: NDR 400 Gbit/s per port, one port per GPU",
        LAT
    ),
    ic!(
        "ib-xdr",
        "InfiniBand XDR (800 Gbit/s per GPU)",
        InterNode,
        100e9,
        5e-6,
        "Quantum-X800 / ConnectX-8 clusters",
        "IB-SEC (secondary): 800 Gbit/s per port",
        LAT_BW
    ),
    ic!(
        "efa-p4d",
        "AWS EFA on p4d/p4de (400 Gbit/s per 8 GPUs)",
        InterNode,
        6.25e9,
        15e-6,
        "p4d.24xlarge, p4de.24xlarge",
        "AWS-DOCS: 4 × 100 Gbit/s per instance = 50 Gbit/s per GPU",
        LAT
    ),
    ic!(
        "efa-p5",
        "AWS EFA on p5/p5e/p5en (3,200 Gbit/s per 8 GPUs)",
        InterNode,
        50e9,
        15e-6,
        "p5.48xlarge, p5e, p5en",
        "DYNAMO, TORCHX: 3,200 Gbit/s per instance = 400 Gbit/s per GPU",
        LAT
    ),
    ic!(
        "gcp-tcpxo",
        "GCP GPUDirect-TCPXO (8 × 200 Gbit/s per 8 GPUs)",
        InterNode,
        25e9,
        20e-6,
        "a3-megagpu-8g",
        "GCP-AO: 8 GPU NICs × 200 Gbit/s",
        LAT
    ),
];

/// Every interconnect.
pub fn all() -> &'static [Interconnect] {
    &ALL
}

/// An interconnect by id (e.g. `ib-ndr`).
pub fn find(id: &str) -> Option<&'static Interconnect> {
    ALL.iter().find(|i| i.id == id)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_unique_and_rates_positive() {
        let mut ids: Vec<_> = all().iter().map(|i| i.id).collect();
        ids.sort();
        ids.dedup();
        assert_eq!(ids.len(), all().len());
        for i in all() {
            assert!(i.bytes_per_s_per_direction > 0.0 && i.latency_s > 0.0, "{}", i.id);
            assert!(i.uncertain.contains(&"latency_s"));
        }
        assert_eq!(find("nvlink-4").unwrap().link().bytes_per_s_per_direction, 450e9);
        // NDR: 400 Gbit/s = 50 GB/s per GPU per direction.
        assert_eq!(find("ib-ndr").unwrap().bytes_per_s_per_direction, 400e9 / 8.0);
    }
}
