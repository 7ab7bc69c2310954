//! The WebGPU lab, apart from the browser: what a run measured ([`LabResult`]), what can go
//! wrong ([`LabError`]), how the results read on the page ([`results_html`]) and how they become
//! a custom GPU for the estimator ([`measured_gpu`]). The WebGPU driver is `ui::lab::gpu` (and its
//! `driver.js`); the plan it runs and the reading of what it measured are [`run`]; the arithmetic
//! is `engine::lab`; the kernels are [`shaders`].

pub mod run;
pub mod shaders;

use crate::charts::format::{format_bytes, format_percent, format_rate, ByteUnit};
use crate::charts::{
    allreduce_svg, roofline_svg, AllReduceChart, AllReduceSeries, RooflineChart, RooflinePoint, YAxis,
};
use crate::engine::gpu::{Gpu, PeakFlops};
use crate::engine::lab::{fma_chain, ridge_point, Spread, StreamKernel};
use crate::html::escape as esc;
use crate::i18n::Lang;

/// What the adapter says about itself, and what the lab can use.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct AdapterInfo {
    pub vendor: String,
    pub architecture: String,
    pub description: String,
    /// A software or fallback adapter (SwiftShader, `isFallbackAdapter`): it measures the CPU.
    pub software: bool,
    pub timestamps: bool,
    pub f16: bool,
    /// `maxBufferSize`: the largest buffer (what the estimator gets as this device's memory).
    pub max_buffer_bytes: u64,
    /// `maxStorageBufferBindingSize`: the largest array a kernel may bind.
    pub max_binding_bytes: u64,
}

impl AdapterInfo {
    /// Software adapters by flag or by name (SwiftShader, llvmpipe, WARP, "Basic Render").
    pub fn looks_like_software(&self) -> bool {
        let text = format!("{} {} {}", self.vendor, self.architecture, self.description).to_ascii_lowercase();
        self.software
            || ["swiftshader", "llvmpipe", "lavapipe", "warp", "basic render", "software"]
                .iter()
                .any(|n| text.contains(n))
    }
}

/// How the run was timed.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Timing {
    /// GPU timestamp queries around the compute pass.
    #[default]
    Timestamps,
    /// Wall clock from submit to `onSubmittedWorkDone`.
    WallClock,
}

/// One memory kernel at one array size: bandwidth in bytes/s over the timed samples.
#[derive(Clone, Debug, PartialEq)]
pub struct Point {
    pub kernel: StreamKernel,
    pub array_bytes: u64,
    pub bytes_per_s: Spread,
}

/// Everything one run measured. Only validated figures are ever stored here.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct LabResult {
    pub adapter: AdapterInfo,
    pub timing: Timing,
    pub points: Vec<Point>,
    /// FLOP/s of the FP32 FMA chain.
    pub fma_f32: Option<Spread>,
    /// FLOP/s of the FP16 FMA chain (only with `shader-f16`).
    pub fma_f16: Option<Spread>,
    /// Matrix edge and FLOP/s of the tiled matmul.
    pub matmul: Option<(u64, Spread)>,
    /// Why the sweep ended before its largest size, if it did.
    pub stopped: Option<LabError>,
}

impl LabResult {
    /// Triad at the largest array measured: the bandwidth out of memory rather than cache.
    pub fn memory_bandwidth(&self) -> Option<f64> {
        self.points
            .iter()
            .filter(|p| p.kernel == StreamKernel::Triad)
            .max_by_key(|p| p.array_bytes)
            .map(|p| p.bytes_per_s.median)
    }

    /// The best measured FP32 rate (FMA chain or matmul).
    pub fn fp32_flops(&self) -> Option<f64> {
        let m = self.matmul.map(|(_, s)| s.median);
        match (self.fma_f32.map(|s| s.median), m) {
            (Some(a), Some(b)) => Some(a.max(b)),
            (a, b) => a.or(b),
        }
    }
}

/// Why the lab could not measure (or stopped).
#[derive(Clone, Debug, PartialEq)]
pub enum LabError {
    NoWebGpu,
    NoAdapter,
    Device(String),
    Lost(String),
    OutOfMemory,
    Timeout,
    /// A kernel's output did not validate (its name).
    Invalid(&'static str),
    Cancelled,
    Failed(String),
}

/// The explanation of an error in the page's language, with the browser's own words if any.
pub fn error_text(lang: Lang, e: &LabError) -> String {
    let s = lang.lab();
    let with = |text: &str, detail: &str| {
        if detail.is_empty() {
            text.to_owned()
        } else {
            format!("{text} {}{detail}", s.browser_said)
        }
    };
    match e {
        LabError::NoWebGpu => s.err_no_webgpu.to_owned(),
        LabError::NoAdapter => s.err_no_adapter.to_owned(),
        LabError::Device(d) => with(s.err_device, d),
        LabError::Lost(d) => with(s.err_lost, d),
        LabError::OutOfMemory => s.err_oom.to_owned(),
        LabError::Timeout => s.err_timeout.to_owned(),
        LabError::Invalid(k) => format!("{}{k}", s.err_invalid),
        LabError::Cancelled => s.err_cancelled.to_owned(),
        LabError::Failed(d) => with(s.err_failed, d),
    }
}

/// The expected output of invocation `i` of the FMA-chain kernel after `steps` steps (f32).
pub fn fma_expected(invocation: u32, steps: u32) -> f32 {
    shaders::fma_starts(invocation).iter().map(|&x| fma_chain(x, 0.999, 0.001, steps)).sum()
}

/// The expected entry of C = A·B with A filled with 0.1 and B with 0.2 (the `init` kernel's
/// values), for an n × n product: n × 0.02.
pub fn matmul_expected(n: u64) -> f32 {
    (0..n).fold(0.0f32, |acc, _| 0.1f32.mul_add(0.2, acc))
}

/// The custom GPU the estimator gets from "use my device": measured bandwidth and FP32 (FP16
/// when measured), memory from the adapter's largest buffer, all flagged uncertain and sourced
/// to this browser. `None` without a validated bandwidth and FP32 figure.
pub fn measured_gpu(lang: Lang, r: &LabResult, date: &str) -> Option<Gpu> {
    let bandwidth = r.memory_bandwidth()?;
    let fp32 = r.fp32_flops()?;
    let a = &r.adapter;
    let base = [a.vendor.as_str(), a.architecture.as_str(), a.description.as_str()]
        .iter()
        .filter(|t| !t.is_empty())
        .copied()
        .collect::<Vec<_>>()
        .join(" ");
    let base = if base.is_empty() { "WebGPU".to_owned() } else { format!("WebGPU {base}") };
    Some(Gpu {
        id: "browser-measured".into(),
        name: format!("{base}{}", lang.lab().measured_name),
        vendor: a.vendor.clone(),
        architecture: a.architecture.clone(),
        memory_bytes: a.max_buffer_bytes.max(1),
        memory_bandwidth_bytes_per_s: bandwidth,
        peak_flops: PeakFlops { fp32: Some(fp32), fp16: r.fma_f16.map(|s| s.median), ..PeakFlops::default() },
        source: "measured in this browser with WebGPU (gpu-primer lab: BabelStream triad, FMA chain, tiled matmul)".into(),
        retrieved: date.to_owned(),
        uncertain: vec!["memory_bytes".into(), "memory_bandwidth_bytes_per_s".into(), "peak_flops".into()],
        notes: vec![
            "memory_bytes is the adapter's largest buffer, not the device memory".into(),
            "a web page's kernels: no Tensor Cores, browser and driver overhead".into(),
        ],
        ..Gpu::default()
    })
}

fn spread_cell(s: &Spread, unit: &str) -> String {
    format!(
        "{} <span class=\"muted\">({}–{}, n={})</span>",
        esc(&format_rate(s.median, unit)),
        esc(&format_rate(s.min, unit)),
        esc(&format_rate(s.max, unit)),
        s.samples
    )
}

/// The sizes measured, ascending.
fn sizes(r: &LabResult) -> Vec<u64> {
    let mut v: Vec<u64> = Vec::new();
    for p in &r.points {
        if !v.contains(&p.array_bytes) {
            v.push(p.array_bytes);
        }
    }
    crate::engine::num::sort_stable_by(&mut v, |a, b| a < b);
    v
}

/// The results as HTML: adapter, timing, bandwidth table and chart, compute table, measured
/// roofline, comparison with `compare` (a datasheet GPU). Every text is escaped.
pub fn results_html(lang: Lang, r: &LabResult, compare: Option<&Gpu>, width: u32) -> String {
    let s = lang.lab();
    let mut out = String::new();
    if let Some(e) = &r.stopped {
        out.push_str(&format!(
            "<p class=\"banner warn\" role=\"status\">{}{}</p>",
            esc(s.stopped_early),
            esc(&error_text(lang, e))
        ));
    }
    out.push_str(&format!(
        "<p class=\"muted\">{} {}</p>",
        esc(match r.timing {
            Timing::Timestamps => s.timing_timestamps,
            Timing::WallClock => s.timing_wall,
        }),
        esc(s.validated)
    ));
    // Bandwidth.
    let sizes = sizes(r);
    if !sizes.is_empty() {
        out.push_str(&format!("<h2>{}</h2>", esc(s.bandwidth_heading)));
        let n = r.points.first().map_or(0, |p| p.bytes_per_s.samples);
        out.push_str(&format!(
            "<div class=\"table-scroll\"><table class=\"data-table\" id=\"lab-bandwidth\"><caption>{}{n}</caption><thead><tr><th>{}</th>",
            esc(s.median_of),
            esc(s.working_set)
        ));
        for k in StreamKernel::ALL {
            out.push_str(&format!("<th>{}</th>", k.name()));
        }
        out.push_str("</tr></thead><tbody>");
        for size in &sizes {
            out.push_str(&format!("<tr><th scope=\"row\">{}</th>", esc(&format_bytes(*size, ByteUnit::Gib))));
            for k in StreamKernel::ALL {
                let cell = r
                    .points
                    .iter()
                    .find(|p| p.kernel == k && p.array_bytes == *size)
                    .map_or_else(|| "–".to_owned(), |p| spread_cell(&p.bytes_per_s, "B/s"));
                out.push_str(&format!("<td data-kernel=\"{}\">{cell}</td>", k.name()));
            }
            out.push_str("</tr>");
        }
        out.push_str("</tbody></table></div>");
        let series = StreamKernel::ALL
            .iter()
            .map(|k| AllReduceSeries {
                label: k.name().to_owned(),
                points: r
                    .points
                    .iter()
                    .filter(|p| p.kernel == *k)
                    .map(|p| (p.array_bytes as f64, p.bytes_per_s.median))
                    .collect(),
            })
            .collect();
        let chart = allreduce_svg(
            &AllReduceChart {
                title: s.chart_title.into(),
                x_label: s.working_set.into(),
                y_label: s.chart_y.into(),
                series,
                y_axis: YAxis::BytesPerSecond,
                x_unit: ByteUnit::Gib,
                marker_bytes: None,
                no_data: s.no_data.into(),
            },
            width,
        );
        out.push_str(&format!("<figure class=\"chart\" id=\"lab-chart\">{chart}</figure>"));
    }
    // Compute.
    out.push_str(&format!(
        "<h2>{}</h2><div class=\"table-scroll\"><table class=\"data-table\" id=\"lab-compute\"><thead><tr><th>{}</th><th>{}</th></tr></thead><tbody>",
        esc(s.compute_heading),
        esc(s.kernel),
        esc(s.result)
    ));
    let row = |name: &str, id: &str, cell: String| {
        format!("<tr data-row=\"{id}\"><th scope=\"row\">{}</th><td>{cell}</td></tr>", esc(name))
    };
    if let Some(f) = &r.fma_f32 {
        out.push_str(&row(s.fma32, "fma32", spread_cell(f, "FLOP/s")));
    }
    match &r.fma_f16 {
        Some(f) => out.push_str(&row(s.fma16, "fma16", spread_cell(f, "FLOP/s"))),
        None => out.push_str(&row(s.fma16, "fma16", esc(s.no_f16))),
    }
    if let Some((n, f)) = &r.matmul {
        out.push_str(&row(&format!("{} {n}×{n}", s.matmul), "matmul", spread_cell(f, "FLOP/s")));
    }
    out.push_str("</tbody></table></div>");
    // Measured roofline: triad's bandwidth and the best FP32 rate.
    if let (Some(bw), Some(fl)) = (r.memory_bandwidth(), r.fp32_flops()) {
        let mut points =
            vec![RooflinePoint { label: "triad".into(), intensity: 1.0 / 6.0, flops_per_s: bw / 6.0 }];
        if let Some((n, m)) = &r.matmul {
            // Each of A, B and C crosses memory once in the ideal tiled product: 2n³ / 12n².
            points.push(RooflinePoint {
                label: "matmul".into(),
                intensity: *n as f64 / 6.0,
                flops_per_s: m.median,
            });
        }
        let chart = roofline_svg(
            &RooflineChart {
                title: s.roofline_title.into(),
                x_label: s.intensity.into(),
                y_label: s.attainable.into(),
                peak_flops_per_s: fl,
                bandwidth_bytes_per_s: bw,
                memory_roof_label: s.memory_roof.into(),
                compute_roof_label: s.compute_roof.into(),
                ridge_label: s.ridge.into(),
                points,
                no_data: s.no_data.into(),
                ..RooflineChart::default()
            },
            width,
        );
        out.push_str(&format!("<figure class=\"chart\" id=\"lab-roofline\">{chart}</figure>"));
        if let Some(g) = compare {
            out.push_str(&compare_html(lang, g, bw, fl, ridge_point(fl, bw)));
        }
    }
    out
}

fn compare_html(lang: Lang, g: &Gpu, bw: f64, fl: f64, _ridge: Option<f64>) -> String {
    let s = lang.lab();
    let ds_bw = g.memory_bandwidth_bytes_per_s;
    let ds_fp32 = g.peak_flops.fp32;
    let share = |m: f64, d: f64| if d > 0.0 { format_percent(m / d) } else { "–".into() };
    let mut rows = format!(
        "<tr><th scope=\"row\">{}</th><td>{}</td><td>{}</td><td>{}</td></tr>",
        esc(s.measured_bw_row),
        esc(&format_rate(ds_bw, "B/s")),
        esc(&format_rate(bw, "B/s")),
        esc(&share(bw, ds_bw))
    );
    if let Some(d) = ds_fp32 {
        rows.push_str(&format!(
            "<tr><th scope=\"row\">{}</th><td>{}</td><td>{}</td><td>{}</td></tr>",
            esc(s.fp32_row),
            esc(&format_rate(d, "FLOP/s")),
            esc(&format_rate(fl, "FLOP/s")),
            esc(&share(fl, d))
        ));
    }
    format!(
        "<div class=\"table-scroll\"><table class=\"data-table\" id=\"lab-vs\"><thead><tr><td></td><th>{}</th><th>{}</th><th>{}</th></tr></thead><tbody>{rows}</tbody></table></div><p class=\"muted\">{}</p>",
        esc(&format!("{} · {}", s.datasheet, g.name)),
        esc(s.measured),
        esc(s.fraction),
        esc(s.published)
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn spread(m: f64) -> Spread {
        Spread { median: m, min: m * 0.9, max: m * 1.1, samples: 10 }
    }

    fn sample() -> LabResult {
        let mib = 1u64 << 20;
        let mut points = Vec::new();
        for (i, size) in [mib, 2 * mib, 4 * mib].into_iter().enumerate() {
            for k in StreamKernel::ALL {
                points.push(Point {
                    kernel: k,
                    array_bytes: size,
                    bytes_per_s: spread(1e11 * (3 - i) as f64),
                });
            }
        }
        LabResult {
            adapter: AdapterInfo {
                vendor: "nvidia".into(),
                architecture: "<hopper>".into(),
                max_buffer_bytes: 1 << 30,
                ..Default::default()
            },
            timing: Timing::Timestamps,
            points,
            fma_f32: Some(spread(2e13)),
            fma_f16: None,
            matmul: Some((1024, spread(1e13))),
            stopped: None,
        }
    }

    #[test]
    fn bandwidth_is_triad_at_the_largest_array_and_fp32_the_best_rate() {
        let r = sample();
        assert_eq!(r.memory_bandwidth(), Some(1e11));
        assert_eq!(r.fp32_flops(), Some(2e13));
        assert_eq!(LabResult::default().memory_bandwidth(), None);
    }

    #[test]
    fn expected_outputs() {
        // Zero steps: the starts' sum 0.5 + … + 0.57 = 4.28.
        assert!((fma_expected(0, 0) - 4.28).abs() < 1e-5);
        // The chains converge to 1: eight of them to 8.
        assert!((fma_expected(5, 20_000) - 8.0).abs() < 1e-3);
        assert!((matmul_expected(256) - 5.12).abs() < 1e-3);
    }

    #[test]
    fn html_escapes_and_shows_every_part() {
        for lang in [Lang::Zh, Lang::En] {
            let g = crate::catalog::gpus::find("h100-sxm").unwrap();
            let html = results_html(lang, &sample(), Some(g), 640);
            assert!(!html.contains("<hopper>"));
            for id in ["lab-bandwidth", "lab-chart", "lab-compute", "lab-roofline", "lab-vs"] {
                assert!(html.contains(&format!("id=\"{id}\"")), "{id}");
            }
            assert_eq!(html.matches("data-kernel=\"triad\"").count(), 3);
            assert!(html.contains(lang.lab().no_f16));
            assert!(html.contains("100 GB/s"), "{html}");
            assert!(!html.contains("NaN"));
        }
    }

    #[test]
    fn the_charts_keep_their_text_inside_in_both_languages_and_widths() {
        let g = crate::catalog::gpus::find("h100-sxm").unwrap();
        for lang in [Lang::Zh, Lang::En] {
            for width in [crate::charts::DESKTOP_WIDTH, crate::charts::PHONE_WIDTH] {
                let html = results_html(lang, &sample(), Some(g), width);
                let svgs = crate::charts::text_fit::svgs(&html);
                assert_eq!(svgs.len(), 2, "the bandwidth chart and the roofline");
                for svg in svgs {
                    let outside = crate::charts::text_fit::overflows(svg);
                    assert!(outside.is_empty(), "{lang:?} {width}: {outside:?}");
                }
            }
        }
    }

    #[test]
    fn errors_are_worded_in_both_languages() {
        for e in [
            LabError::NoWebGpu,
            LabError::NoAdapter,
            LabError::Device("x".into()),
            LabError::Lost(String::new()),
            LabError::OutOfMemory,
            LabError::Timeout,
            LabError::Invalid("triad"),
            LabError::Cancelled,
            LabError::Failed("boom".into()),
        ] {
            let zh = error_text(Lang::Zh, &e);
            let en = error_text(Lang::En, &e);
            assert!(!zh.is_empty() && !en.is_empty() && zh != en, "{e:?}");
        }
        assert!(error_text(Lang::En, &LabError::NoWebGpu).contains("WebGPU"));
        assert!(error_text(Lang::Zh, &LabError::Invalid("triad")).ends_with("triad"));
        assert!(error_text(Lang::En, &LabError::Failed("boom".into())).contains("boom"));
    }

    #[test]
    fn the_measured_gpu_is_valid_and_flagged() {
        let g = measured_gpu(Lang::En, &sample(), "2026-11-30").unwrap();
        assert_eq!(g.memory_bandwidth_bytes_per_s, 1e11);
        assert_eq!(g.peak_flops.fp32, Some(2e13));
        assert!(g.is_uncertain("peak_flops.fp32") && g.is_uncertain("memory_bytes"));
        assert!(g.validate().is_empty(), "{:?}", g.validate());
        assert!(g.name.contains("measured in the browser"));
        assert_eq!(measured_gpu(Lang::En, &LabResult::default(), ""), None);
        let soft = AdapterInfo { architecture: "swiftshader".into(), ..Default::default() };
        assert!(soft.looks_like_software());
        assert!(!sample().adapter.looks_like_software());
    }
}
