//! Cloud instances with dated on-demand prices (AWS, GCP, Azure), derived from hardware.json
//! into `data/instances.json`. A missing price is `None`: it was not found in a dated source.

use super::json::{list, u32_of, Obj};
use crate::engine::hardware::TopologyKind;
#[cfg(test)]
use serde::Deserialize;
use serde::Serialize;
use serde_json::Value;
use std::sync::OnceLock;

#[derive(Clone, Debug, PartialEq, Serialize)]
#[cfg_attr(test, derive(Deserialize))]
pub struct Instance {
    pub provider: String,
    pub instance: String,
    pub gpu_model: String,
    /// Whole GPUs; `None` for vGPU fractions (see `gpu_count_text`, e.g. "1/6").
    pub gpu_count: Option<u32>,
    pub gpu_count_text: String,
    pub vcpus: Option<u32>,
    /// Host memory, in `ram_unit` (the provider's own unit: AWS and Azure list GiB, GCP GB).
    pub ram_gb: Option<f64>,
    pub ram_unit: Option<String>,
    /// Local NVMe/SSD as the source states it (often not verified; the text says so).
    pub local_nvme: Option<String>,
    /// The network between nodes (EFA, InfiniBand, …) as the source names it.
    pub network_type: Option<String>,
    pub price_usd_per_hour: Option<f64>,
    pub price_region: Option<String>,
    /// When the price was read (some snapshots are undated; the text says so).
    pub price_date: Option<String>,
    pub intra_node_interconnect: String,
    pub inter_node_network_gbps: Option<f64>,
    pub source: String,
    pub notes: Vec<String>,
}

impl Instance {
    /// One entry of `data/instances.json` (every field required; the optional ones may be null).
    fn from_json(v: &Value) -> Option<Instance> {
        let o = Obj::of(v)?;
        Some(Instance {
            provider: o.text("provider")?,
            instance: o.text("instance")?,
            gpu_model: o.text("gpu_model")?,
            gpu_count: o.opt("gpu_count", u32_of)?,
            gpu_count_text: o.text("gpu_count_text")?,
            vcpus: o.opt("vcpus", u32_of)?,
            ram_gb: o.opt("ram_gb", Value::as_f64)?,
            ram_unit: o.opt_text("ram_unit")?,
            local_nvme: o.opt_text("local_nvme")?,
            network_type: o.opt_text("network_type")?,
            price_usd_per_hour: o.opt("price_usd_per_hour", Value::as_f64)?,
            price_region: o.opt_text("price_region")?,
            price_date: o.opt_text("price_date")?,
            intra_node_interconnect: o.text("intra_node_interconnect")?,
            inter_node_network_gbps: o.opt("inter_node_network_gbps", Value::as_f64)?,
            source: o.text("source")?,
            notes: o.opt_texts("notes")?,
        })
    }

    /// Hourly price per GPU, when both are known.
    pub fn price_per_gpu_hour(&self) -> Option<f64> {
        match (self.price_usd_per_hour, self.gpu_count) {
            (Some(p), Some(n)) if n > 0 => Some(p / f64::from(n)),
            _ => None,
        }
    }
}

impl Instance {
    /// The catalog GPU id this instance's GPU model sells as (`instance_gpu_names.rs`); `None`
    /// for a model the GPU catalog does not have.
    pub fn gpu_id(&self) -> Option<&'static str> {
        GPU_NAMES.iter().find(|(_, name)| *name == self.gpu_model).map(|(id, _)| *id)
    }

    /// How the instance joins its GPUs, for the time model: an NVLink bridge between a pair of
    /// PCIe cards as `NvlinkBridge`; NVLink (through NVSwitch or an HGX board) as `Nvswitch`
    /// (`NvswitchEfa` on AWS, whose nodes talk over EFA); else PCIe.
    pub fn topology(&self) -> TopologyKind {
        let intra = self.intra_node_interconnect.to_ascii_lowercase();
        if intra.contains("nvlink bridge") {
            TopologyKind::NvlinkBridge
        } else if intra.contains("nvswitch") || intra.contains("nvlink3") || intra.contains("nvlink4") {
            if self.provider == "AWS" {
                TopologyKind::NvswitchEfa
            } else {
                TopologyKind::Nvswitch
            }
        } else {
            TopologyKind::Pcie
        }
    }

    /// A short key for the instance in a URL: its name up to the first space
    /// (`Standard_NC24ads_A100_v4 (NC A100 v4)` → `Standard_NC24ads_A100_v4`).
    pub fn key(&self) -> &str {
        self.instance.split(' ').next().unwrap_or(&self.instance)
    }
}

const GPU_NAMES: [(&str, &str); 10] = include!("instance_gpu_names.rs");

static INSTANCES: OnceLock<Vec<Instance>> = OnceLock::new();

pub fn all() -> &'static [Instance] {
    INSTANCES.get_or_init(|| {
        serde_json::from_str(include_str!(concat!(env!("OUT_DIR"), "/catalog/instances.json")))
            .ok()
            .and_then(|v| list(&v, Instance::from_json))
            .unwrap_or_default()
    })
}

/// An instance by its provider's name (e.g. `p5.48xlarge`).
pub fn find(name: &str) -> Option<&'static Instance> {
    all().iter().find(|i| i.instance == name)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn instances_parse_with_dated_prices() {
        let parsed: Vec<Instance> = serde_json::from_str(include_str!("data/instances.json")).unwrap();
        assert_eq!(parsed.len(), 58);
        assert_eq!(all(), parsed, "the hand-written reader reads what serde's derive read");
        let p5 = find("p5.48xlarge").unwrap();
        assert_eq!(p5.gpu_count, Some(8));
        assert!((p5.price_per_gpu_hour().unwrap() - 6.88).abs() < 1e-9);
        let keys: std::collections::BTreeSet<&str> = all().iter().map(Instance::key).collect();
        assert_eq!(keys.len(), all().len(), "URL keys are unique");
        assert_eq!(find("p5.48xlarge").unwrap().topology(), TopologyKind::NvswitchEfa);
        assert_eq!(find("g6.24xlarge").unwrap().topology(), TopologyKind::Pcie);
        assert_eq!(find("a2-highgpu-8g").unwrap().topology(), TopologyKind::Nvswitch);
        // Two H100 NVL joined by their bridge (issue 33, class 4): NVLink between the pair.
        let nc80 = all().iter().find(|i| i.key() == "Standard_NC80adis_H100_v5").unwrap();
        assert_eq!(nc80.topology(), TopologyKind::NvlinkBridge);
        let known = all().iter().filter(|i| i.gpu_id().is_some()).count();
        assert!(known >= 55, "{known} instances name a catalog GPU");
        for i in all() {
            if let Some(id) = i.gpu_id() {
                assert!(crate::catalog::gpus::find(id).is_some(), "{id}");
            }
            if i.price_usd_per_hour.is_some() {
                assert!(i.price_date.is_some(), "{}", i.instance);
            }
        }
    }
}
