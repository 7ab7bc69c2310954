//! Default prices: the cheapest dated on-demand price per GPU-hour in the instance catalog.

/// Which instance-catalog GPU model names a catalog GPU id sells as.
const INSTANCE_GPU_NAMES: [(&str, &str); 9] = [
    ("a100-sxm-40gb", "A100 40GB SXM4"),
    ("a100-sxm-80gb", "A100 80GB SXM4"),
    ("a100-pcie-80gb", "A100 80GB PCIe"),
    ("h100-sxm", "H100 80GB SXM5"),
    ("h100-nvl", "H100 NVL 94GB"),
    ("h200-sxm", "H200 141GB SXM"),
    ("a10g", "A10G 24GB"),
    ("l4", "L4 24GB"),
    ("l40s", "L40S 48GB"),
];

/// The cheapest dated on-demand price per GPU-hour for a catalog GPU, with where it comes from.
pub fn default_price_per_gpu_hour(gpu_id: &str) -> Option<(f64, String)> {
    let name = INSTANCE_GPU_NAMES.iter().find(|(id, _)| *id == gpu_id)?.1;
    super::instances::all()
        .iter()
        .filter(|i| i.gpu_model == name && i.price_date.is_some())
        .filter_map(|i| i.price_per_gpu_hour().map(|p| (p, i)))
        .min_by(|a, b| a.0.total_cmp(&b.0))
        .map(|(p, i)| {
            let text = format!(
                "{} {} ({}, {}): ${:.4}/h / {} GPUs",
                i.provider,
                i.instance,
                i.price_region.as_deref().unwrap_or("region not stated"),
                i.price_date.as_deref().unwrap_or(""),
                i.price_usd_per_hour.unwrap_or(0.0),
                i.gpu_count.unwrap_or(1)
            );
            (p, text)
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn prices_come_from_dated_instances() {
        let (p, src) = default_price_per_gpu_hour("h100-sxm").unwrap();
        assert!((p - 6.88).abs() < 1e-9, "{p} {src}");
        assert!(default_price_per_gpu_hour("t4").is_none());
    }
}
