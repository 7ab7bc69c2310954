//! Throughput against GPU count (log₂ x, 1 to 1024) for up to three strategies (data, tensor,
//! pipeline parallel), with ideal linear scaling as a dashed reference (from the best
//! single-GPU-equivalent throughput), and parallel efficiency 0–100 % in a second panel
//! below on the same x. When given, the GPU count where communication starts to dominate is
//! marked with a vertical dashed line across both panels and labelled.

use super::canvas::{self, Anchor, LegendItem, Plot, Scale, Swatch, Theme};
use super::format::format_percent;
use super::palette;

/// One point of a curve.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct ScalingPoint {
    pub gpus: u32,
    /// Throughput (e.g. tokens/s) at this GPU count.
    pub throughput: f64,
    /// Parallel efficiency, 0..1 (speedup / GPUs).
    pub efficiency: f64,
}

/// One strategy's curve.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ScalingSeries {
    pub label: String,
    pub points: Vec<ScalingPoint>,
}

#[derive(Clone, Debug, Default, PartialEq)]
pub struct ScalingChart {
    pub title: String,
    /// E.g. "GPUs".
    pub x_label: String,
    /// E.g. "tokens/s".
    pub y_label: String,
    /// Title of the lower panel, e.g. "Efficiency".
    pub efficiency_label: String,
    /// Legend name of the dashed reference, e.g. "ideal (linear)".
    pub ideal_label: String,
    /// At most three series are drawn (colours 0..3 of [`palette::SERIES`]).
    pub series: Vec<ScalingSeries>,
    /// GPU count where communication starts to dominate, and its label.
    pub communication_dominates_at: Option<u32>,
    pub communication_label: String,
    pub no_data: String,
}

fn usable(p: &ScalingPoint) -> bool {
    p.gpus > 0 && p.throughput.is_finite() && p.throughput > 0.0
}

/// The scaling chart as an SVG string `width` px wide (see the module doc).
pub fn scaling_svg(c: &ScalingChart, width: u32) -> String {
    let t = Theme::new(width);
    let series: Vec<(usize, &ScalingSeries, Vec<ScalingPoint>)> = c
        .series
        .iter()
        .take(3)
        .enumerate()
        .map(|(i, s)| {
            let mut p: Vec<_> = s.points.iter().copied().filter(usable).collect();
            crate::engine::num::sort_stable_by(&mut p, |a, b| a.gpus < b.gpus);
            (i, s, p)
        })
        .filter(|(_, _, p)| !p.is_empty())
        .collect();
    if series.is_empty() {
        return canvas::no_data(&t, &c.title, &c.no_data);
    }
    let pts = || series.iter().flat_map(|(_, _, p)| p.iter());
    let gmax = pts().map(|p| p.gpus).max().unwrap_or(1).clamp(8, 1 << 20);
    let xhi = f64::from(gmax.next_power_of_two());
    // Ideal: the best throughput per GPU at the smallest count, times n.
    let gmin = pts().map(|p| p.gpus).min().unwrap_or(1);
    let per_gpu =
        pts().filter(|p| p.gpus == gmin).map(|p| p.throughput / f64::from(p.gpus)).fold(0.0, f64::max);
    let ideal = |n: f64| per_gpu * n;
    let tmin = pts().map(|p| p.throughput).fold(f64::INFINITY, f64::min).min(ideal(1.0));
    let tmax = pts().map(|p| p.throughput).fold(0.0, f64::max).max(ideal(xhi));
    let (ylo, yhi) = canvas::decade_range(tmin, tmax, 8);

    let mut items: Vec<LegendItem> = series
        .iter()
        .map(|(i, s, _)| LegendItem {
            label: s.label.clone(),
            color: palette::series(*i),
            swatch: Swatch::Line,
        })
        .collect();
    items.push(LegendItem { label: c.ideal_label.clone(), color: palette::MUTED, swatch: Swatch::Dashed });

    let h = (t.w() * 0.8).max(420.0);
    let top0 = canvas::title_bottom(&t, &c.title);
    let legend_h = canvas::legend(None, &t, &items, t.pad, top0, t.w() - 2.0 * t.pad);
    let yt = canvas::log10_ticks(&Scale::new(ylo, yhi, 0.0, 1.0, true), canvas::num);
    let et: Vec<(f64, String)> = [0.0, 0.5, 1.0].iter().map(|v| (*v, format_percent(*v))).collect();
    let left = canvas::y_gutter(&t, &yt).max(canvas::y_gutter(&t, &et));
    let right = t.w() - t.pad * 1.5;
    let bottom = h - t.font * 3.2;
    let top = (top0 + legend_h + 8.0).min(bottom - 160.0);
    let split = top + (bottom - top) * 0.64;
    let upper = Plot { left, top, right, bottom: split - t.font * 1.6 };
    let lower = Plot { left, top: split + t.font * 1.4, right, bottom };

    let xs = Scale::new(1.0, xhi, left, right, true);
    let ys = Scale::new(ylo, yhi, upper.bottom, upper.top, true);
    let es = Scale::new(0.0, 1.0, lower.bottom, lower.top, false);
    let mut xt = Vec::new();
    let mut n = 1u32;
    while f64::from(n) <= xhi {
        xt.push((f64::from(n), n.to_string()));
        n = n.saturating_mul(2);
    }
    let xt = canvas::thin_ticks(xt, &xs, t.font, true);
    let yt = canvas::thin_ticks(yt, &ys, t.font, false);

    canvas::render(&t, h, &c.title, |a| {
        canvas::draw_title(a, &t, &c.title);
        canvas::legend(Some(a), &t, &items, t.pad, top0, t.w() - 2.0 * t.pad);
        canvas::draw_axes(a, &t, &upper, (&xs, &[], ""), (&ys, &yt, &c.y_label));
        canvas::draw_axes(a, &t, &lower, (&xs, &xt, &c.x_label), (&es, &et, ""));
        for (v, _) in &xt {
            let x = xs.map(*v);
            canvas::line(a, &[(x, upper.top), (x, upper.bottom)], palette::GRID, 1, false);
        }
        let et_title = canvas::fit(&c.efficiency_label, t.font, right - left);
        canvas::text(
            a,
            &et_title,
            (left + 4.0, lower.top - t.font * 0.8),
            t.font,
            palette::TEXT,
            Anchor::Start,
            false,
        );

        canvas::line(
            a,
            &[(xs.map(1.0), ys.map(ideal(1.0))), (xs.map(xhi), ys.map(ideal(xhi)))],
            palette::MUTED,
            2,
            true,
        );
        for (i, _, p) in &series {
            let col = palette::series(*i);
            let tp: Vec<_> = p.iter().map(|q| (xs.map(f64::from(q.gpus)), ys.map(q.throughput))).collect();
            canvas::line(a, &tp, col, 2, false);
            let ep: Vec<_> = p
                .iter()
                .filter(|q| q.efficiency.is_finite())
                .map(|q| (xs.map(f64::from(q.gpus)), es.map(q.efficiency.clamp(0.0, 1.0))))
                .collect();
            canvas::line(a, &ep, col, 2, false);
            for q in tp.iter().chain(&ep) {
                canvas::dot(a, *q, 2, col);
            }
        }
        if let Some(n) = c.communication_dominates_at.filter(|n| *n > 0 && f64::from(*n) <= xhi) {
            let x = xs.map(f64::from(n));
            let label = format!("{} ({n})", c.communication_label.trim());
            canvas::marker(a, &t, x, (upper.top, lower.bottom), &label);
        }
    })
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::charts::test_util::*;

    pub(crate) fn sample() -> ScalingChart {
        let curve = |base: f64, knee: f64| -> Vec<ScalingPoint> {
            [1u32, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024]
                .iter()
                .map(|&n| {
                    let n_ = f64::from(n);
                    let eff = 1.0 / (1.0 + n_ / knee);
                    ScalingPoint { gpus: n, throughput: base * n_ * eff, efficiency: eff }
                })
                .collect()
        };
        let mut tensor = curve(3000.0, 12.0);
        tensor.truncate(7);
        let mut pipe = curve(3000.0, 40.0);
        pipe.truncate(6);
        ScalingChart {
            title: "扩展效率 Llama 2 7B".into(),
            x_label: "GPU 数".into(),
            y_label: "tokens/s".into(),
            efficiency_label: "并行效率".into(),
            ideal_label: "理想 (线性)".into(),
            series: vec![
                ScalingSeries { label: "数据并行".into(), points: curve(3000.0, 4000.0) },
                ScalingSeries { label: "张量并行".into(), points: tensor },
                ScalingSeries { label: "流水线并行".into(), points: pipe },
            ],
            communication_dominates_at: Some(16),
            communication_label: "通信主导".into(),
            no_data: "无数据".into(),
        }
    }

    #[test]
    fn draws_three_series_ideal_and_marker() {
        let c = sample();
        let svg = scaling_svg(&c, 640);
        assert_valid(&svg, &c.title);
        for l in [
            "数据并行",
            "张量并行",
            "流水线并行",
            "理想 (线性)",
            "通信主导 (16)",
            "并行效率",
            "GPU 数",
            "tokens/s",
            "1024",
            "100%",
        ] {
            assert!(svg.contains(l), "missing {l}");
        }
        // Each series: throughput and efficiency polylines (+ legend swatch).
        for col in &palette::SERIES[..3] {
            assert_eq!(count(&svg, &format!("stroke=\"{col}\" stroke-width=\"2\"")), 2, "{col}");
        }
        assert_eq!(count(&svg, "stroke-dasharray"), 3, "ideal, its swatch, the marker");
        assert_eq!(count(&svg, "r=\"2\""), 2 * (11 + 7 + 6));
        assert_valid(&scaling_svg(&c, 360), &c.title);
    }

    #[test]
    fn degenerate_inputs_give_valid_svg() {
        let mut c = sample();
        c.series.iter_mut().for_each(|s| s.points.clear());
        assert!(scaling_svg(&c, 640).contains("无数据"));
        let mut c = sample();
        c.series[0].points = vec![
            ScalingPoint { gpus: 0, throughput: 1.0, efficiency: 1.0 },
            ScalingPoint { gpus: 3, throughput: f64::NAN, efficiency: f64::INFINITY },
            ScalingPoint { gpus: u32::MAX, throughput: 1e300, efficiency: -5.0 },
            ScalingPoint { gpus: 2, throughput: 5e-300, efficiency: f64::NAN },
        ];
        c.communication_dominates_at = Some(u32::MAX);
        assert_valid(&scaling_svg(&c, 640), &c.title);
        c.series.truncate(1);
        c.series.push(ScalingSeries {
            label: String::new(),
            points: vec![ScalingPoint { gpus: 1, throughput: 1.0, efficiency: 1.0 }],
        });
        assert_valid(&scaling_svg(&c, 0), &c.title);
    }
}
