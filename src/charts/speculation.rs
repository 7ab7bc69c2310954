//! Speculative decoding against batch size: tokens/s per user (upper panel) and per GPU (lower
//! panel), with speculation (solid) and without (dashed), log₂ x (batch 1 to 512), log y. Where
//! speculation stops paying per user, a vertical dashed line across both panels, labelled: the
//! crossover the roofline gives when the verify pass of γ + 1 tokens per sequence turns
//! compute-bound.

use super::canvas::{self, Anchor, LegendItem, Plot, Scale, Swatch, Theme};
use super::palette;

/// One batch size's four rates.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct SpecPoint {
    pub batch: u64,
    pub per_user: f64,
    pub per_user_without: f64,
    pub per_gpu: f64,
    pub per_gpu_without: f64,
}

#[derive(Clone, Debug, Default, PartialEq)]
pub struct SpeculationChart {
    pub title: String,
    /// E.g. "Batch (sequences)".
    pub x_label: String,
    /// Titles of the two panels, e.g. "tokens/s per user", "tokens/s per GPU".
    pub panels: [String; 2],
    /// Legend names: with speculation, without.
    pub legend: [String; 2],
    pub points: Vec<SpecPoint>,
    /// The smallest batch where speculation is slower per user, and its label.
    pub crossover: Option<(u64, String)>,
    pub no_data: String,
}

fn usable(p: &SpecPoint) -> bool {
    p.batch > 0
        && [p.per_user, p.per_user_without, p.per_gpu, p.per_gpu_without]
            .iter()
            .all(|v| v.is_finite() && *v > 0.0)
}

/// The chart as an SVG string `width` px wide (see the module doc).
pub fn speculation_svg(c: &SpeculationChart, width: u32) -> String {
    let t = Theme::new(width);
    let mut pts: Vec<SpecPoint> = c.points.iter().copied().filter(usable).collect();
    crate::engine::num::sort_stable_by(&mut pts, |a, b| a.batch < b.batch);
    if pts.is_empty() {
        return canvas::no_data(&t, &c.title, &c.no_data);
    }
    let bmax = pts.iter().map(|p| p.batch).max().unwrap_or(1).clamp(2, 1 << 20);
    let xhi = bmax.next_power_of_two() as f64;
    let range = |f: fn(&SpecPoint) -> [f64; 2]| {
        let v: Vec<f64> = pts.iter().flat_map(f).collect();
        canvas::decade_range(
            v.iter().copied().fold(f64::INFINITY, f64::min),
            v.iter().copied().fold(0.0, f64::max),
            8,
        )
    };
    let user = range(|p| [p.per_user, p.per_user_without]);
    let gpu = range(|p| [p.per_gpu, p.per_gpu_without]);
    let items = [
        LegendItem { label: c.legend[0].clone(), color: palette::series(0), swatch: Swatch::Line },
        LegendItem { label: c.legend[1].clone(), color: palette::MUTED, swatch: Swatch::Dashed },
    ];
    let h = (t.w() * 0.8).max(420.0);
    let top0 = canvas::title_bottom(&t, &c.title);
    let legend_h = canvas::legend(None, &t, &items, t.pad, top0, t.w() - 2.0 * t.pad);
    let ut = canvas::log10_ticks(&Scale::new(user.0, user.1, 0.0, 1.0, true), canvas::num);
    let gt = canvas::log10_ticks(&Scale::new(gpu.0, gpu.1, 0.0, 1.0, true), canvas::num);
    let left = canvas::y_gutter(&t, &ut).max(canvas::y_gutter(&t, &gt));
    let right = t.w() - t.pad * 1.5;
    let bottom = h - t.font * 3.2;
    let top = (top0 + legend_h + 8.0 + t.font).min(bottom - 160.0);
    let split = top + (bottom - top) * 0.5;
    let upper = Plot { left, top, right, bottom: split - t.font * 1.6 };
    let lower = Plot { left, top: split + t.font * 1.4, right, bottom };
    let xs = Scale::new(1.0, xhi, left, right, true);
    let us = Scale::new(user.0, user.1, upper.bottom, upper.top, true);
    let gs = Scale::new(gpu.0, gpu.1, lower.bottom, lower.top, true);
    let mut xt = Vec::new();
    let mut n = 1u64;
    while n as f64 <= xhi {
        xt.push((n as f64, n.to_string()));
        n = n.saturating_mul(2);
    }
    let xt = canvas::thin_ticks(xt, &xs, t.font, true);
    let ut = canvas::thin_ticks(ut, &us, t.font, false);
    let gt = canvas::thin_ticks(gt, &gs, t.font, false);
    canvas::render(&t, h, &c.title, |a| {
        canvas::draw_title(a, &t, &c.title);
        canvas::legend(Some(a), &t, &items, t.pad, top0, t.w() - 2.0 * t.pad);
        canvas::draw_axes(a, &t, &upper, (&xs, &[], ""), (&us, &ut, ""));
        canvas::draw_axes(a, &t, &lower, (&xs, &xt, &c.x_label), (&gs, &gt, ""));
        for (plot, label) in [(&upper, &c.panels[0]), (&lower, &c.panels[1])] {
            let label = canvas::fit(label, t.font, right - left);
            canvas::text(
                a,
                &label,
                (left + 4.0, plot.top - t.font * 0.8),
                t.font,
                palette::TEXT,
                Anchor::Start,
                false,
            );
        }
        let curve = |ys: &Scale, f: fn(&SpecPoint) -> f64| -> Vec<(f64, f64)> {
            pts.iter().map(|p| (xs.map(p.batch as f64), ys.map(f(p)))).collect()
        };
        for (ys, with, without) in [
            (&us, curve(&us, |p| p.per_user), curve(&us, |p| p.per_user_without)),
            (&gs, curve(&gs, |p| p.per_gpu), curve(&gs, |p| p.per_gpu_without)),
        ] {
            let _ = ys;
            canvas::line(a, &without, palette::MUTED, 2, true);
            canvas::line(a, &with, palette::series(0), 2, false);
            for q in &with {
                canvas::dot(a, *q, 2, palette::series(0));
            }
        }
        if let Some((b, label)) = c.crossover.as_ref().filter(|(b, _)| *b > 0 && (*b as f64) <= xhi) {
            let x = xs.map(*b as f64);
            let label = format!("{} ({b})", label.trim());
            canvas::marker(a, &t, x, (upper.top, lower.bottom), &label);
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::charts::test_util::*;

    fn sample() -> SpeculationChart {
        let points = (0..10)
            .map(|i| {
                let b = 1u64 << i;
                let bf = b as f64;
                let without = 150.0 / (1.0 + bf / 256.0);
                let with = 340.0 / (1.0 + bf / 48.0);
                SpecPoint {
                    batch: b,
                    per_user: with,
                    per_user_without: without,
                    per_gpu: with * bf,
                    per_gpu_without: without * bf,
                }
            })
            .collect();
        SpeculationChart {
            title: "投机解码与 batch".into(),
            x_label: "batch（序列数）".into(),
            panels: ["每用户 tokens/s".into(), "每 GPU tokens/s".into()],
            legend: ["使用投机解码".into(), "不使用".into()],
            points,
            crossover: Some((256, "不再划算".into())),
            no_data: "无数据".into(),
        }
    }

    #[test]
    fn draws_both_panels_both_lines_and_the_crossover() {
        let c = sample();
        let svg = speculation_svg(&c, 640);
        assert_valid(&svg, &c.title);
        for l in ["每用户 tokens/s", "每 GPU tokens/s", "使用投机解码", "不使用", "不再划算 (256)", "512"]
        {
            assert!(svg.contains(l), "missing {l}");
        }
        assert_eq!(count(&svg, "r=\"2\""), 2 * 10, "a dot per batch on each panel's solid line");
        assert_valid(&speculation_svg(&c, 360), &c.title);
    }

    #[test]
    fn degenerate_inputs_give_valid_svg() {
        let mut c = sample();
        c.points.clear();
        assert!(speculation_svg(&c, 640).contains("无数据"));
        let mut c = sample();
        c.points = vec![
            SpecPoint { batch: 0, per_user: 1.0, per_user_without: 1.0, per_gpu: 1.0, per_gpu_without: 1.0 },
            SpecPoint { batch: 3, per_user: f64::NAN, ..SpecPoint::default() },
            SpecPoint {
                batch: u64::MAX,
                per_user: 1e300,
                per_user_without: 1.0,
                per_gpu: 1.0,
                per_gpu_without: 5e-300,
            },
        ];
        c.crossover = Some((u64::MAX, String::new()));
        assert_valid(&speculation_svg(&c, 640), &c.title);
        assert_valid(&speculation_svg(&c, 0), &c.title);
    }
}
