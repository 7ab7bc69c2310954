//! Latency against load: for each latency (time to first token, time per output token) a panel
//! with its p50 (dashed) and p95 (solid) against the request rate, its target as a horizontal
//! line, and the planned rate as a vertical line. Linear axes from 0; panels stacked, sharing
//! the x range, so the reader sees which target the rising p95s cross first.

use super::canvas::{self, Anchor, LegendItem, Plot, Scale, Swatch, Theme};
use super::palette;

/// One latency.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct LatencyPanel {
    /// E.g. "p95 time to first token (s)".
    pub y_label: String,
    /// `(rate, latency)` points, in the panel's unit.
    pub p50: Vec<(f64, f64)>,
    pub p95: Vec<(f64, f64)>,
    /// The target and its label, in the panel's unit.
    pub target: Option<(f64, String)>,
}

#[derive(Clone, Debug, Default, PartialEq)]
pub struct LatencyLoadChart {
    pub title: String,
    /// E.g. "Requests per second per replica".
    pub x_label: String,
    /// Names of the p50 and p95 lines.
    pub legend: [String; 2],
    pub panels: Vec<LatencyPanel>,
    /// The planned rate and its label.
    pub marker: Option<(f64, String)>,
    pub no_data: String,
}

fn finite(p: &[(f64, f64)]) -> Vec<(f64, f64)> {
    p.iter().copied().filter(|(x, y)| x.is_finite() && y.is_finite() && *x >= 0.0 && *y >= 0.0).collect()
}

/// The chart as an SVG string `width` px wide (see the module doc).
pub fn latency_load_svg(c: &LatencyLoadChart, width: u32) -> String {
    let t = Theme::new(width);
    type Drawn<'a> = (&'a LatencyPanel, Vec<(f64, f64)>, Vec<(f64, f64)>);
    let panels: Vec<Drawn> = c
        .panels
        .iter()
        .map(|p| (p, finite(&p.p50), finite(&p.p95)))
        .filter(|(_, a, b)| !(a.is_empty() && b.is_empty()))
        .collect();
    if panels.is_empty() {
        return canvas::no_data(&t, &c.title, &c.no_data);
    }
    let marker = c.marker.as_ref().filter(|(x, _)| x.is_finite() && *x > 0.0);
    let xmax = panels
        .iter()
        .flat_map(|(_, a, b)| a.iter().chain(b))
        .map(|p| p.0)
        .chain(marker.map(|m| m.0))
        .fold(0.0, f64::max);
    let items = [
        LegendItem { label: c.legend[0].clone(), color: palette::series(0), swatch: Swatch::Dashed },
        LegendItem { label: c.legend[1].clone(), color: palette::series(0), swatch: Swatch::Line },
    ];
    let top0 = t.pad + t.title * 1.3;
    let legend_h = canvas::legend(None, &t, &items, t.pad, top0, t.w() - 2.0 * t.pad);
    let panel_h = (t.w() * 0.34).clamp(150.0, 260.0);
    let gap = t.font * 3.4;
    let first_top = top0 + legend_h + 10.0;
    let h = first_top + panels.len() as f64 * (panel_h + gap) + t.pad;
    let xs_of = |plot: &Plot| Scale::new(0.0, xmax * 1.04, plot.left, plot.right, false);

    canvas::render(&t, h, &c.title, |a| {
        canvas::draw_title(a, &t, &c.title);
        canvas::legend(Some(a), &t, &items, t.pad, top0, t.w() - 2.0 * t.pad);
        for (k, (panel, p50, p95)) in panels.iter().enumerate() {
            let top = first_top + k as f64 * (panel_h + gap);
            let target = panel.target.as_ref().filter(|(v, _)| v.is_finite() && *v > 0.0);
            let ymax = p50
                .iter()
                .chain(p95.iter())
                .map(|p| p.1)
                .chain(target.map(|t| t.0 * 1.25))
                .fold(0.0, f64::max)
                .max(1e-9);
            let probe = Scale::new(0.0, ymax * 1.08, 1.0, 0.0, false);
            let yt = canvas::linear_ticks(&probe, 4, canvas::num);
            let plot = Plot {
                left: canvas::y_gutter(&t, &yt),
                top,
                right: t.w() - t.pad * 1.5,
                bottom: top + panel_h,
            };
            let xs = xs_of(&plot);
            let ys = Scale::new(0.0, ymax * 1.08, plot.bottom, plot.top, false);
            let xt = canvas::thin_ticks(canvas::linear_ticks(&xs, 6, canvas::num), &xs, t.font, true);
            let yt = canvas::thin_ticks(canvas::linear_ticks(&ys, 4, canvas::num), &ys, t.font, false);
            let x_label = if k + 1 == panels.len() { c.x_label.as_str() } else { "" };
            canvas::draw_axes(a, &t, &plot, (&xs, &xt, x_label), (&ys, &yt, &panel.y_label));
            let path = |p: &[(f64, f64)]| p.iter().map(|&(x, y)| (xs.map(x), ys.map(y))).collect::<Vec<_>>();
            canvas::line(a, &path(p50), palette::series(0), 2, true);
            canvas::line(a, &path(p95), palette::series(0), 3, false);
            if let Some((v, label)) = target {
                let y = ys.map(*v);
                canvas::line(a, &[(plot.left, y), (plot.right, y)], palette::WARNING, 2, true);
                canvas::text(
                    a,
                    label,
                    (plot.left + 6.0, y - t.small * 0.9),
                    t.small,
                    palette::WARNING,
                    Anchor::Start,
                    true,
                );
            }
            if let Some((x, label)) = marker {
                let px = xs.map(*x);
                canvas::line(a, &[(px, plot.top), (px, plot.bottom)], palette::MUTED, 1, true);
                if k == 0 {
                    canvas::text(
                        a,
                        label,
                        (px - 4.0, plot.top + t.small),
                        t.small,
                        palette::MUTED,
                        Anchor::End,
                        false,
                    );
                }
            }
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> LatencyLoadChart {
        let pts =
            |k: f64| (1..=8).map(|i| (f64::from(i), k / (1.0 - f64::from(i) / 9.0))).collect::<Vec<_>>();
        LatencyLoadChart {
            title: "Latency against load".into(),
            x_label: "Requests per second per replica".into(),
            legend: ["p50".into(), "p95".into()],
            panels: vec![
                LatencyPanel {
                    y_label: "TTFT (s)".into(),
                    p50: pts(0.1),
                    p95: pts(0.2),
                    target: Some((1.0, "target 1 s".into())),
                },
                LatencyPanel {
                    y_label: "TPOT (ms)".into(),
                    p50: pts(10.0),
                    p95: pts(15.0),
                    target: Some((50.0, "target 50 ms".into())),
                },
            ],
            marker: Some((5.0, "planned".into())),
            no_data: "no data".into(),
        }
    }

    #[test]
    fn both_panels_their_targets_and_the_marker_are_drawn() {
        let svg = latency_load_svg(&sample(), 640);
        assert!(svg.starts_with("<svg") && svg.ends_with("</svg>"));
        for text in ["TTFT (s)", "TPOT (ms)", "target 1 s", "target 50 ms", "planned", "p95"] {
            assert!(svg.contains(text), "{text}");
        }
        assert!(!svg.contains("NaN"));
    }

    #[test]
    fn bad_points_are_dropped_and_no_points_says_so() {
        let mut c = sample();
        c.panels[0].p95.push((f64::NAN, 1.0));
        c.panels[1].p50.push((2.0, f64::INFINITY));
        assert!(!latency_load_svg(&c, 390).contains("NaN"));
        c.panels.iter_mut().for_each(|p| {
            p.p50.clear();
            p.p95.clear();
        });
        assert!(latency_load_svg(&c, 390).contains("no data"));
    }
}
