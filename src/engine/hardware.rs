//! The hardware half of a Scenario: which GPU (catalog id or an inline custom GPU), how the
//! GPUs are wired (topology), the efficiency factors the expected times assume, and the price.

use super::checked::perf_error;
use super::error::{Catalogue, ErrorKind, Expected, ScenarioError};
use super::gpu::Gpu;
use super::json_read::{de, fields, opt, Read};
use super::lookup::Lookup;
use super::perf::collectives::Topology;
use super::perf::efficiency::Efficiency;
use super::perf::scaling::{topology_preset, TopologyPreset};
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
                            super::evaluate::SUGGESTED_IDS,
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
        }
    }

    /// The links the collective model uses, with `gpus_per_node` GPUs per node.
    pub fn topology(self, gpu: &Gpu, gpus_per_node: u32, lookup: &dyn Lookup) -> Topology {
        let preset = match self {
            TopologyKind::Nvswitch => TopologyPreset::NvSwitchInfiniBand,
            TopologyKind::NvswitchEfa => TopologyPreset::NvSwitchEfa,
            TopologyKind::Pcie => TopologyPreset::PcieOnly,
        };
        Topology { gpus_per_node: gpus_per_node.max(1), ..topology_preset(preset, gpu, lookup) }
    }
}

/// Overrides of the efficiency factors; every field optional (absent = the sourced default).
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
#[cfg_attr(test, derive(Deserialize))]
#[serde(default, deny_unknown_fields)]
pub struct EfficiencyOverrides {
    pub memory_bandwidth: Option<f64>,
    pub tensor_flops: Option<f64>,
    pub intra_node_bus_bandwidth: Option<f64>,
    pub inter_node_bus_bandwidth: Option<f64>,
    pub kernel_launch_s: Option<f64>,
    pub kernels_per_layer: Option<f64>,
    pub gradient_sync_overlap: Option<f64>,
    pub fp8_tensor_flops: Option<f64>,
    pub quantized_weight_bandwidth: Option<f64>,
    pub request_overhead_s: Option<f64>,
    pub host_memory_bandwidth: Option<f64>,
    pub pcie_bandwidth: Option<f64>,
    pub quantized_matmul_flops: Option<f64>,
}

/// The JSON keys of [`EfficiencyOverrides`], in declaration order.
pub(crate) const EFFICIENCY_FIELDS: [&str; 13] = [
    "memory_bandwidth",
    "tensor_flops",
    "intra_node_bus_bandwidth",
    "inter_node_bus_bandwidth",
    "kernel_launch_s",
    "kernels_per_layer",
    "gradient_sync_overlap",
    "fp8_tensor_flops",
    "quantized_weight_bandwidth",
    "request_overhead_s",
    "host_memory_bandwidth",
    "pcie_bandwidth",
    "quantized_matmul_flops",
];

impl EfficiencyOverrides {
    /// Reads the overrides object (every key optional, unknown keys are errors).
    pub fn from_json(v: &Value) -> Read<EfficiencyOverrides> {
        let mut o = EfficiencyOverrides::default();
        fields(v, &EFFICIENCY_FIELDS, |key, x| {
            let slot = match key {
                "memory_bandwidth" => &mut o.memory_bandwidth,
                "tensor_flops" => &mut o.tensor_flops,
                "intra_node_bus_bandwidth" => &mut o.intra_node_bus_bandwidth,
                "inter_node_bus_bandwidth" => &mut o.inter_node_bus_bandwidth,
                "kernel_launch_s" => &mut o.kernel_launch_s,
                "kernels_per_layer" => &mut o.kernels_per_layer,
                "gradient_sync_overlap" => &mut o.gradient_sync_overlap,
                "fp8_tensor_flops" => &mut o.fp8_tensor_flops,
                "quantized_weight_bandwidth" => &mut o.quantized_weight_bandwidth,
                "request_overhead_s" => &mut o.request_overhead_s,
                "host_memory_bandwidth" => &mut o.host_memory_bandwidth,
                "pcie_bandwidth" => &mut o.pcie_bandwidth,
                "quantized_matmul_flops" => &mut o.quantized_matmul_flops,
                _ => return Ok(false),
            };
            *slot = opt(x, de)?;
            Ok(true)
        })?;
        Ok(o)
    }

    /// The factors in use, and the names of the overridden ones. Errors name `efficiency.<field>`.
    pub fn resolve(&self) -> Result<(Efficiency, Vec<&'static str>), ScenarioError> {
        self.resolve_over(Efficiency::default())
    }

    /// The factors in use on a device: the published defaults, then the device's own profile
    /// (its back end's measured fractions, [`crate::engine::gpu::Gpu::efficiency`]), then these
    /// overrides.
    pub fn resolve_for(&self, gpu: &Gpu) -> Result<(Efficiency, Vec<&'static str>), ScenarioError> {
        let (device, _) = gpu.efficiency.resolve()?;
        self.resolve_over(device)
    }

    fn resolve_over(&self, base: Efficiency) -> Result<(Efficiency, Vec<&'static str>), ScenarioError> {
        let mut e = base;
        let mut overridden = Vec::new();
        let fields: [(&'static str, Option<f64>, &mut f64); 13] = [
            ("memory_bandwidth", self.memory_bandwidth, &mut e.memory_bandwidth),
            ("tensor_flops", self.tensor_flops, &mut e.tensor_flops),
            ("intra_node_bus_bandwidth", self.intra_node_bus_bandwidth, &mut e.intra_node_bus_bandwidth),
            ("inter_node_bus_bandwidth", self.inter_node_bus_bandwidth, &mut e.inter_node_bus_bandwidth),
            ("kernel_launch_s", self.kernel_launch_s, &mut e.kernel_launch_s),
            ("kernels_per_layer", self.kernels_per_layer, &mut e.kernels_per_layer),
            ("gradient_sync_overlap", self.gradient_sync_overlap, &mut e.gradient_sync_overlap),
            ("fp8_tensor_flops", self.fp8_tensor_flops, &mut e.fp8_tensor_flops),
            (
                "quantized_weight_bandwidth",
                self.quantized_weight_bandwidth,
                &mut e.quantized_weight_bandwidth,
            ),
            ("request_overhead_s", self.request_overhead_s, &mut e.request_overhead_s),
            ("host_memory_bandwidth", self.host_memory_bandwidth, &mut e.host_memory_bandwidth),
            ("pcie_bandwidth", self.pcie_bandwidth, &mut e.pcie_bandwidth),
            ("quantized_matmul_flops", self.quantized_matmul_flops, &mut e.quantized_matmul_flops),
        ];
        for (name, value, slot) in fields {
            if let Some(v) = value {
                *slot = v;
                overridden.push(name);
            }
        }
        e.validate().map_err(|err| perf_error("efficiency", err))?;
        Ok((e, overridden))
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
    fn topology_defaults_and_overrides() {
        let find = |id| crate::catalog::gpus::find(id).unwrap();
        assert_eq!(TopologyKind::default_for(find("h100-sxm")), TopologyKind::Nvswitch);
        assert_eq!(TopologyKind::default_for(find("l4")), TopologyKind::Pcie);
        assert_eq!(TopologyKind::default_for(find("h100-nvl")), TopologyKind::Pcie);
        let t: TopologyKind = serde_json::from_str(r#""multi_node_efa""#).unwrap();
        assert_eq!(t, TopologyKind::NvswitchEfa);
        let o = EfficiencyOverrides { tensor_flops: Some(0.5), ..Default::default() };
        let (e, names) = o.resolve().unwrap();
        assert_eq!((e.tensor_flops, names), (0.5, vec!["tensor_flops"]));
        let bad = EfficiencyOverrides { memory_bandwidth: Some(1.5), ..Default::default() };
        assert_eq!(bad.resolve().unwrap_err().field, "efficiency.memory_bandwidth");
    }
}
