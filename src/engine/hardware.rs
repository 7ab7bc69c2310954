//! The hardware half of a Scenario: which GPU (catalog id or an inline custom GPU) and how the
//! GPUs are wired (topology). The efficiency factors the expected times assume, and their
//! overrides, are [`crate::engine::efficiency`].

use super::error::{Catalogue, ErrorKind, Expected, ScenarioError};
use super::gpu::Gpu;
use super::json_read::Read;
use super::links::{Link, Topology};
use super::lookup::{Lookup, Network};
#[cfg(test)]
use serde::Deserializer;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use std::borrow::Cow;

/// A GPU catalog id (`"h100-sxm"`) or an inline custom GPU (`{"memory_bytes": ...,
/// "memory_bandwidth_bytes_per_s": ..., "peak_flops": {"bf16": ...}}`, the catalog's `Gpu` shape).
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(untagged)]
pub enum GpuSpec {
    Id(String),
    Custom(Box<Gpu>),
}

impl Default for GpuSpec {
    fn default() -> Self {
        GpuSpec::Id("h100-sxm".into())
    }
}

impl From<&str> for GpuSpec {
    fn from(id: &str) -> Self {
        GpuSpec::Id(id.to_owned())
    }
}

impl From<String> for GpuSpec {
    fn from(id: String) -> Self {
        GpuSpec::Id(id)
    }
}

/// serde's reading, kept for the tests that compare it with [`GpuSpec::from_json`].
#[cfg(test)]
impl<'de> Deserialize<'de> for GpuSpec {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        use serde::de::Error;
        match Value::deserialize(d)? {
            Value::String(s) => Ok(GpuSpec::Id(s)),
            v @ Value::Object(_) => serde_json::from_value::<Gpu>(v)
                .map(|g| GpuSpec::Custom(Box::new(g)))
                .map_err(D::Error::custom),
            _ => Err(D::Error::custom(Expected::GpuIdOrObject)),
        }
    }
}

impl GpuSpec {
    /// Reads a catalog id (a string) or an inline custom GPU (an object).
    pub fn from_json(v: &Value) -> Read<GpuSpec> {
        match v {
            Value::String(s) => Ok(GpuSpec::Id(s.clone())),
            Value::Object(_) => Gpu::from_json(v).map(|g| GpuSpec::Custom(Box::new(g))),
            _ => Err(ErrorKind::WrongType { expected: Expected::GpuIdOrObject, got: String::new() }),
        }
    }

    /// The GPU: the catalog entry, or the validated custom GPU. Errors name `gpu` or `gpu.<field>`.
    pub fn resolve<'a>(&'a self, lookup: &'a dyn Lookup) -> Result<Cow<'a, Gpu>, ScenarioError> {
        match self {
            GpuSpec::Id(id) => lookup.gpu(id).ok_or_else(|| {
                ScenarioError::new(
                    "gpu",
                    ErrorKind::UnknownId {
                        catalogue: Catalogue::Gpu,
                        id: id.clone(),
                        known: super::closest::closest_ids(
                            id,
                            &lookup.gpu_ids(),
                            super::closest::SUGGESTED_IDS,
                        ),
                    },
                )
            }),
            GpuSpec::Custom(g) => {
                self.validate_custom()?;
                Ok(Cow::Borrowed(&**g))
            }
        }
    }

    /// Checks an inline custom GPU (a catalog id is checked when it is resolved).
    pub fn validate_custom(&self) -> Result<(), ScenarioError> {
        match self {
            GpuSpec::Id(_) => Ok(()),
            GpuSpec::Custom(g) => match g.validate().into_iter().next() {
                Some(e) => Err(ScenarioError::new(format!("gpu.{}", e.field), e.kind)),
                None => Ok(()),
            },
        }
    }
}

/// How the GPUs are connected, inside a node and between nodes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TopologyKind {
    /// NVLink through NVSwitch inside the node (the GPU's own NVLink rate; PCIe when it has
    /// none); nodes joined by InfiniBand NDR, one 400 Gbit/s port per GPU.
    #[serde(alias = "multi_node_ib", alias = "nvswitch_ib")]
    Nvswitch,
    /// NVSwitch nodes joined by AWS EFA (p5 class, 400 Gbit/s per GPU).
    #[serde(alias = "multi_node_efa")]
    NvswitchEfa,
    /// PCIe only inside the node; nodes joined by InfiniBand HDR (200 Gbit/s per GPU).
    Pcie,
    /// PCIe cards joined in pairs by an NVLink bridge (H100 NVL, A100 PCIe; Azure's
    /// NC80adis_H100_v5): a collective of at most 2 GPUs runs at the GPU's NVLink rate (H100 NVL:
    /// 600 GB/s bidirectional per NVIDIA's H100 product page, as the catalog's `h100-nvl` records it),
    /// a larger group
    /// crosses PCIe between the pairs, so its slowest link is PCIe; nodes joined as `Pcie`'s.
    NvlinkBridge,
}

impl TopologyKind {
    /// Default for a GPU: PCIe cards (even NVLink-bridged pairs) → `pcie`; SXM/OAM with
    /// NVLink or Infinity Fabric → `nvswitch`.
    pub fn default_for(gpu: &Gpu) -> TopologyKind {
        if gpu.form_factor.contains("PCIe") || gpu.nvlink_bytes_per_s_per_direction() <= 0.0 {
            TopologyKind::Pcie
        } else {
            TopologyKind::Nvswitch
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            TopologyKind::Nvswitch => "nvswitch",
            TopologyKind::NvswitchEfa => "nvswitch_efa",
            TopologyKind::Pcie => "pcie",
            TopologyKind::NvlinkBridge => "nvlink_bridge",
        }
    }

    /// Whether the GPUs of one node are all connected to each other by NVLink (through
    /// NVSwitch, or a bridged pair) or Infinity Fabric, as the serving stacks' custom all-reduce
    /// requires for more than two GPUs (vLLM `CustomAllreduce`: `fully_connected`). PCIe cards are
    /// not counted, even the pairs vLLM would run with peer-to-peer access, which depends on the
    /// host.
    ///
    /// `gpus` and `gpus_per_node` are the run's, as [`TopologyKind::topology_for`] takes them: a
    /// bridged pair counts only where that topology puts the run on the bridge.
    pub fn fully_connected(self, gpu: &Gpu, gpus_per_node: u32, gpus: u32) -> bool {
        let nvlink = gpu.nvlink_bytes_per_s_per_direction() > 0.0;
        match self {
            TopologyKind::Nvswitch | TopologyKind::NvswitchEfa => nvlink,
            TopologyKind::NvlinkBridge => nvlink && gpus.min(gpus_per_node.max(1)) <= BRIDGED_GPUS,
            TopologyKind::Pcie => false,
        }
    }

    /// The links the collective model uses for a run on `gpus` GPUs, `gpus_per_node` per node:
    /// as [`TopologyKind::topology`], except that NVLink-bridged cards talk over their bridge
    /// when the run's GPUs on a node are one bridged pair (2 GPUs of 8 per node included).
    pub fn topology_for(self, gpu: &Gpu, gpus_per_node: u32, gpus: u32, lookup: &dyn Lookup) -> Topology {
        let t = self.topology(gpu, gpus_per_node, lookup);
        let nvlink = gpu.nvlink_bytes_per_s_per_direction();
        match self {
            TopologyKind::NvlinkBridge if gpus.min(t.gpus_per_node) <= BRIDGED_GPUS && nvlink > 0.0 => {
                Topology { intra_node: Link { bytes_per_s_per_direction: nvlink, latency_s: 2e-6 }, ..t }
            }
            _ => t,
        }
    }

    /// The links the collective model uses, with `gpus_per_node` GPUs per node.
    pub fn topology(self, gpu: &Gpu, gpus_per_node: u32, lookup: &dyn Lookup) -> Topology {
        let preset = match self {
            TopologyKind::Nvswitch => TopologyPreset::NvSwitchInfiniBand,
            TopologyKind::NvswitchEfa => TopologyPreset::NvSwitchEfa,
            TopologyKind::Pcie | TopologyKind::NvlinkBridge => TopologyPreset::PcieOnly,
        };
        let t = Topology { gpus_per_node: gpus_per_node.max(1), ..topology_preset(preset, gpu, lookup) };
        let nvlink = gpu.nvlink_bytes_per_s_per_direction();
        match self {
            TopologyKind::NvlinkBridge if t.gpus_per_node <= BRIDGED_GPUS && nvlink > 0.0 => {
                Topology { intra_node: Link { bytes_per_s_per_direction: nvlink, latency_s: 2e-6 }, ..t }
            }
            _ => t,
        }
    }
}

/// GPUs one NVLink bridge joins: the H100 NVL and A100 PCIe bridges are 2-way (NVIDIA H100 and
/// A100 product pages, as the catalog's `h100-nvl` and `a100-pcie-80gb` notes record them).
pub const BRIDGED_GPUS: u32 = 2;

/// Topologies offered by the scaling widget.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TopologyPreset {
    /// 8 GPUs per node on NVLink/NVSwitch, nodes joined by InfiniBand NDR (one 400G port per GPU).
    NvSwitchInfiniBand,
    /// 8 GPUs per node on NVLink/NVSwitch, nodes joined by AWS EFA (p5-class).
    NvSwitchEfa,
    /// 8 GPUs per node on PCIe only, nodes joined by InfiniBand HDR.
    PcieOnly,
}

/// Build the topology for `gpu` (its own NVLink/PCIe rates) and a preset's network.
pub fn topology_preset(preset: TopologyPreset, gpu: &Gpu, lookup: &dyn Lookup) -> Topology {
    let net = |n: Network| lookup.network(n);
    let pcie = Link {
        bytes_per_s_per_direction: gpu.pcie_bytes_per_s_per_direction().unwrap_or(31.5e9),
        latency_s: 5e-6,
    };
    let nvlink = gpu.nvlink_bytes_per_s_per_direction();
    let intra = if nvlink > 0.0 { Link { bytes_per_s_per_direction: nvlink, latency_s: 2e-6 } } else { pcie };
    match preset {
        TopologyPreset::NvSwitchInfiniBand => {
            Topology { gpus_per_node: 8, intra_node: intra, inter_node: net(Network::InfinibandNdr) }
        }
        TopologyPreset::NvSwitchEfa => {
            Topology { gpus_per_node: 8, intra_node: intra, inter_node: net(Network::EfaP5) }
        }
        TopologyPreset::PcieOnly => {
            Topology { gpus_per_node: 8, intra_node: pcie, inter_node: net(Network::InfinibandHdr) }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::catalog::Catalog;

    #[test]
    fn gpu_spec_reads_ids_and_objects() {
        let s: GpuSpec = serde_json::from_str(r#""a100-sxm-80gb""#).unwrap();
        assert_eq!(s.resolve(&Catalog).unwrap().id, "a100-sxm-80gb");
        let c: GpuSpec = serde_json::from_str(
            r#"{"memory_bytes": 48000000000, "memory_bandwidth_bytes_per_s": 1e12, "peak_flops": {"bf16": 2e14}}"#,
        )
        .unwrap();
        assert_eq!(c.resolve(&Catalog).unwrap().memory_bytes, 48_000_000_000);
        let bad: GpuSpec = serde_json::from_str(
            r#"{"memory_bytes": 0, "memory_bandwidth_bytes_per_s": 1e12, "peak_flops": {"bf16": 2e14}}"#,
        )
        .unwrap();
        assert_eq!(bad.resolve(&Catalog).unwrap_err().field, "gpu.memory_bytes");
        assert!(serde_json::from_str::<GpuSpec>("3").is_err());
        assert_eq!(GpuSpec::Id("nope".into()).resolve(&Catalog).unwrap_err().field, "gpu");
    }

    #[test]
    fn topology_defaults_and_names() {
        let find = |id| crate::catalog::gpus::find(id).unwrap();
        assert_eq!(TopologyKind::default_for(find("h100-sxm")), TopologyKind::Nvswitch);
        assert_eq!(TopologyKind::default_for(find("l4")), TopologyKind::Pcie);
        assert_eq!(TopologyKind::default_for(find("h100-nvl")), TopologyKind::Pcie);
        let t: TopologyKind = serde_json::from_str(r#""nvlink_bridge""#).unwrap();
        assert_eq!(t, TopologyKind::NvlinkBridge);
        assert_eq!(t.name(), "nvlink_bridge");
        let t: TopologyKind = serde_json::from_str(r#""multi_node_efa""#).unwrap();
        assert_eq!(t, TopologyKind::NvswitchEfa);
    }

    /// Two H100 NVL on their bridge talk at the bridge's 600 GB/s (300 GB/s per direction, the
    /// catalog's NVLink figure); a group of 4 bridged cards crosses PCIe Gen5 between its pairs.
    #[test]
    fn an_nvlink_bridge_joins_a_pair() {
        let nvl = crate::catalog::gpus::find("h100-nvl").unwrap();
        let pair = TopologyKind::NvlinkBridge.topology(nvl, 2, &Catalog);
        assert!((pair.intra_node.bytes_per_s_per_direction - 300e9).abs() < 1.0, "{pair:?}");
        let four = TopologyKind::NvlinkBridge.topology(nvl, 4, &Catalog);
        let pcie = TopologyKind::Pcie.topology(nvl, 4, &Catalog);
        assert_eq!(four, pcie);
        assert!(four.intra_node.bytes_per_s_per_direction < 100e9, "{four:?}");
        // Two GPUs of a node of 8 bridged cards: their own bridge; all 8: PCIe.
        let two_of_eight = TopologyKind::NvlinkBridge.topology_for(nvl, 8, 2, &Catalog);
        assert_eq!(two_of_eight.intra_node, pair.intra_node);
        assert_eq!(
            TopologyKind::NvlinkBridge.topology_for(nvl, 8, 8, &Catalog),
            TopologyKind::Pcie.topology(nvl, 8, &Catalog)
        );
        // A card without NVLink has no bridge: PCIe.
        let l40s = crate::catalog::gpus::find("l40s").unwrap();
        assert_eq!(
            TopologyKind::NvlinkBridge.topology(l40s, 2, &Catalog),
            TopologyKind::Pcie.topology(l40s, 2, &Catalog)
        );
    }
}
