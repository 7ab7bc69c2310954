//! Cloud instances with dated on-demand prices (AWS, GCP, Azure), derived from hardware.json
//! into `data/instances.json`. A missing price is `None`: it was not found in a dated source.

use super::json::{list, u32_of, Obj};
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
            price_usd_per_hour: o.opt("price_usd_per_hour", Value::as_f64)?,
            price_region: o.opt_text("price_region")?,
            price_date: o.opt_text("price_date")?,
            intra_node_interconnect: o.text("intra_node_interconnect")?,
            inter_node_network_gbps: o.opt("inter_node_network_gbps", Value::as_f64)?,
            source: o.text("source")?,
            notes: o.texts("notes")?,
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

static INSTANCES: OnceLock<Vec<Instance>> = OnceLock::new();

pub fn all() -> &'static [Instance] {
    INSTANCES.get_or_init(|| {
        serde_json::from_str(include_str!("data/instances.json"))
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
        for i in all() {
            if i.price_usd_per_hour.is_some() {
                assert!(i.price_date.is_some(), "{}", i.instance);
            }
        }
    }
}
