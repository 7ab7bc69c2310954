//! The memory-bandwidth chapter's example kernels on one GPU's roofline: each kernel sits at
//! its arithmetic intensity (computed by `engine::perf::kernels`) and at the FLOP/s the roof
//! allows there (`engine::perf::roofline::attainable_flops`). Drawn by the shared roofline chart.

use crate::charts::roofline::{roofline_svg, RooflineChart, RooflinePoint};
use crate::engine::perf::roofline::attainable_flops;

/// One kernel: its name in the page's language and its intensity (FLOP/byte).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Kernel {
    pub label: String,
    pub intensity: f64,
}

/// The roofline chart (texts, peak and bandwidth from the caller; `points` ignored) with one
/// point per kernel at its attainable FLOP/s. A kernel whose intensity the engine rejects is
/// left out.
pub fn roofline_kernels_svg(chart: &RooflineChart, kernels: &[Kernel], width: u32) -> String {
    let points = kernels
        .iter()
        .filter_map(|k| {
            let y =
                attainable_flops(k.intensity, chart.peak_flops_per_s, chart.bandwidth_bytes_per_s).ok()?;
            Some(RooflinePoint { label: k.label.clone(), intensity: k.intensity, flops_per_s: y })
        })
        .collect();
    roofline_svg(&RooflineChart { points, sweep: Vec::new(), expected: None, ..chart.clone() }, width)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::perf::kernels::{elementwise_intensity, gemm_intensity};

    #[test]
    fn kernels_are_placed_on_the_h100_roof() {
        let chart = RooflineChart {
            title: "Kernels on H100 SXM".into(),
            x_label: "FLOP/byte".into(),
            y_label: "FLOP/s".into(),
            peak_flops_per_s: 989.5e12,
            bandwidth_bytes_per_s: 3.35e12,
            memory_roof_label: "memory".into(),
            compute_roof_label: "compute".into(),
            ridge_label: "ridge".into(),
            no_data: "no data".into(),
            ..Default::default()
        };
        let kernels = [
            Kernel { label: "add".into(), intensity: elementwise_intensity(1.0, 2.0, 1.0, 2.0).unwrap() },
            Kernel { label: "GEMM".into(), intensity: gemm_intensity(4096.0, 4096.0, 4096.0, 2.0).unwrap() },
            Kernel { label: "bad".into(), intensity: f64::NAN },
        ];
        let svg = roofline_kernels_svg(&chart, &kernels, 640);
        assert!(svg.contains("\nadd\n") && svg.contains("\nGEMM\n"), "{svg}");
        assert!(!svg.contains("\nbad\n") && !svg.contains("NaN"));
        assert!(svg.contains("ridge 295"), "ridge labelled with the engine's 295 FLOP/B");
    }

    /// The y of the `<text>` whose content is `label`.
    fn label_y(svg: &str, label: &str) -> f64 {
        let at = svg.find(&format!("\n{label}\n")).unwrap();
        let open = svg[..at].rfind("<text").unwrap();
        let y = &svg[open..at].split(" y=\"").nth(1).unwrap();
        y[..y.find('"').unwrap()].parse().unwrap()
    }

    #[test]
    fn close_compute_bound_kernels_get_labels_on_both_sides_of_the_roof() {
        let chart = RooflineChart {
            peak_flops_per_s: 989.5e12,
            bandwidth_bytes_per_s: 3.35e12,
            ..Default::default()
        };
        let kernels = [
            Kernel {
                label: "prefill".into(),
                intensity: gemm_intensity(2048.0, 4096.0, 4096.0, 2.0).unwrap(),
            },
            Kernel { label: "GEMM".into(), intensity: gemm_intensity(4096.0, 4096.0, 4096.0, 2.0).unwrap() },
        ];
        let svg = roofline_kernels_svg(&chart, &kernels, 640);
        let (below, above) = (label_y(&svg, "prefill"), label_y(&svg, "GEMM"));
        assert!(above + 20.0 < below, "GEMM's label above the roof, prefill's below: {above} vs {below}");
    }
}
