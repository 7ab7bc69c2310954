//! Latency against load, for the estimator's "Under load" panel and the capacity planner: for
//! each latency (time to first token, time per output token) a panel with its p50 (dashed) and
//! p95 (solid) against the request rate, its target (if any) as a horizontal line; a rate of
//! interest (the scenario's or the planned one) as a vertical line with a dot where each curve
//! meets it, and the sustainable rate (if given) as a dashed vertical line past which latencies
//! are undefined. Linear axes from 0 (each panel in its own unit, so TTFT in seconds and TPOT in
//! milliseconds both use their height); panels stacked, sharing the x range, so the reader sees
//! which target the rising p95s cross first.

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
    /// p50 and p95 at the marker's rate (dots on the curves), in the panel's unit.
    pub at_marker: [Option<f64>; 2],
}

#[derive(Clone, Debug, Default, PartialEq)]
pub struct LatencyLoadChart {
    pub title: String,
    /// E.g. "Requests per second per replica".
    pub x_label: String,
    /// Names of the p50 and p95 lines.
    pub legend: [String; 2],
    pub panels: Vec<LatencyPanel>,
    /// The rate of interest (the scenario's, the planned one) and its label.
    pub marker: Option<(f64, String)>,
    /// The sustainable rate and its label: latencies past it are undefined.
    pub limit: Option<(f64, String)>,
    pub no_data: String,
}

fn finite(p: &[(f64, f64)]) -> Vec<(f64, f64)> {
    p.iter().copied().filter(|(x, y)| x.is_finite() && y.is_finite() && *x >= 0.0 && *y >= 0.0).collect()
}

/// A panel's drawable parts: its finite points, its target if positive, its finite dots.
struct Drawn<'a> {
    panel: &'a LatencyPanel,
    p50: Vec<(f64, f64)>,
    p95: Vec<(f64, f64)>,
    target: Option<&'a (f64, String)>,
    dots: [Option<f64>; 2],
}

impl<'a> Drawn<'a> {
    fn new(panel: &'a LatencyPanel) -> Self {
        Drawn {
            panel,
            p50: finite(&panel.p50),
            p95: finite(&panel.p95),
            target: panel.target.as_ref().filter(|(v, _)| v.is_finite() && *v > 0.0),
            dots: panel.at_marker.map(|v| v.filter(|v| v.is_finite() && *v >= 0.0)),
        }
    }

    /// The top of the panel's y range: its curves, dots and a quarter above its target.
    fn ymax(&self) -> f64 {
        self.p50
            .iter()
            .chain(&self.p95)
            .map(|p| p.1)
            .chain(self.target.map(|t| t.0 * 1.25))
            .chain(self.dots.iter().flatten().copied())
            .fold(0.0, f64::max)
            .max(1e-9)
            * 1.08
    }
}

/// The chart as an SVG string `width` px wide (see the module doc).
pub fn latency_load_svg(c: &LatencyLoadChart, width: u32) -> String {
    let t = Theme::new(width);
    let panels: Vec<Drawn> =
        c.panels.iter().map(Drawn::new).filter(|d| !(d.p50.is_empty() && d.p95.is_empty())).collect();
    if panels.is_empty() {
        return canvas::no_data(&t, &c.title, &c.no_data);
    }
    let rate = |m: &Option<(f64, String)>| m.as_ref().filter(|(x, _)| x.is_finite() && *x > 0.0).cloned();
    let (marker, limit) = (rate(&c.marker), rate(&c.limit));
    let xmax = panels
        .iter()
        .flat_map(|d| d.p50.iter().chain(&d.p95))
        .map(|p| p.0)
        .chain(marker.iter().chain(limit.iter()).map(|m| m.0))
        .fold(0.0, f64::max)
        .max(1e-9);
    let items = [
        LegendItem { label: c.legend[0].clone(), color: palette::series(0), swatch: Swatch::Dashed },
        LegendItem { label: c.legend[1].clone(), color: palette::series(0), swatch: Swatch::Line },
    ];
    let top0 = canvas::title_bottom(&t, &c.title);
    let legend_h = canvas::legend(None, &t, &items, t.pad, top0, t.w() - 2.0 * t.pad);
    // Tall enough for each panel's y title along its axis (a phone's panels would cut
    // "每个输出 token 时间（毫秒）" short).
    let title_h =
        panels.iter().map(|d| canvas::text_width(&d.panel.y_label, t.font)).fold(0.0, f64::max) + 16.0;
    let panel_h = (t.w() * 0.34).clamp(150.0, 260.0).max(title_h.min(400.0));
    let gap = t.font * 3.4;
    let first_top = top0 + legend_h + 10.0 + if limit.is_some() { t.small * 1.2 } else { 0.0 };
    let h = first_top + panels.len() as f64 * (panel_h + gap) + t.pad;
    let xs_of = |plot: &Plot| Scale::new(0.0, xmax * 1.04, plot.left, plot.right, false);

    // Each panel's y range (its curves, dots and target), then one left gutter for all, so the
    // panels' x axes line up.
    let ranges: Vec<f64> = panels.iter().map(Drawn::ymax).collect();
    let left = ranges
        .iter()
        .map(|&ymax| {
            canvas::y_gutter(
                &t,
                &canvas::linear_ticks(&Scale::new(0.0, ymax, 1.0, 0.0, false), 4, canvas::num),
            )
        })
        .fold(0.0, f64::max);

    canvas::render(&t, h, &c.title, |a| {
        canvas::draw_title(a, &t, &c.title);
        canvas::legend(Some(a), &t, &items, t.pad, top0, t.w() - 2.0 * t.pad);
        for (k, (d, ymax)) in panels.iter().zip(&ranges).enumerate() {
            let top = first_top + k as f64 * (panel_h + gap);
            let plot = Plot { left, top, right: t.w() - t.pad * 1.5, bottom: top + panel_h };
            let xs = xs_of(&plot);
            let ys = Scale::new(0.0, *ymax, plot.bottom, plot.top, false);
            let xt = canvas::thin_ticks(canvas::linear_ticks(&xs, 6, canvas::num), &xs, t.font, true);
            let yt = canvas::thin_ticks(canvas::linear_ticks(&ys, 4, canvas::num), &ys, t.font, false);
            let x_label = if k + 1 == panels.len() { c.x_label.as_str() } else { "" };
            canvas::draw_axes(a, &t, &plot, (&xs, &xt, x_label), (&ys, &yt, &d.panel.y_label));
            let path = |p: &[(f64, f64)]| p.iter().map(|&(x, y)| (xs.map(x), ys.map(y))).collect::<Vec<_>>();
            canvas::line(a, &path(&d.p50), palette::series(0), 2, true);
            canvas::line(a, &path(&d.p95), palette::series(0), 3, false);
            if let Some((v, label)) = d.target {
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
            if let Some((x, label)) = &limit {
                let px = xs.map(*x);
                canvas::line(a, &[(px, plot.top), (px, plot.bottom)], palette::WARNING, 1, true);
                if k == 0 {
                    canvas::text(
                        a,
                        label,
                        (px.min(plot.right), plot.top - t.small * 0.6),
                        t.small,
                        palette::WARNING,
                        Anchor::End,
                        true,
                    );
                }
            }
            if let Some((x, label)) = &marker {
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
                for v in d.dots.iter().flatten() {
                    canvas::dot(a, (px, ys.map(*v)), 4, palette::series(0));
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
                    at_marker: [Some(0.16), Some(0.33)],
                },
                LatencyPanel {
                    y_label: "TPOT (ms)".into(),
                    p50: pts(10.0),
                    p95: pts(15.0),
                    target: Some((50.0, "target 50 ms".into())),
                    at_marker: [None, Some(f64::NAN)],
                },
            ],
            marker: Some((5.0, "planned".into())),
            limit: Some((8.5, "sustainable 8.5/s".into())),
            no_data: "no data".into(),
        }
    }

    #[test]
    fn both_panels_their_targets_and_the_marker_are_drawn() {
        let svg = latency_load_svg(&sample(), 640);
        assert!(svg.starts_with("<svg") && svg.ends_with("</svg>"));
        for text in
            ["TTFT (s)", "TPOT (ms)", "target 1 s", "target 50 ms", "planned", "p95", "sustainable 8.5/s"]
        {
            assert!(svg.contains(text), "{text}");
        }
        assert!(!svg.contains("NaN"));
        // Two finite values at the marker give two dots (the NaN one is dropped).
        assert_eq!(svg.matches("<circle").count(), 2, "{svg}");
        // Without a target or limit the panels still draw, and nothing is labelled for them.
        let mut c = sample();
        c.limit = None;
        c.panels.iter_mut().for_each(|p| p.target = None);
        let svg = latency_load_svg(&c, 390);
        assert!(!svg.contains("target") && !svg.contains("sustainable") && svg.contains("planned"));
    }

    #[test]
    fn rates_past_the_data_widen_the_axis_and_bad_rates_are_ignored() {
        let mut c = sample();
        c.limit = Some((40.0, "limit".into()));
        let wide = latency_load_svg(&c, 640);
        let ticks: Vec<&str> =
            wide.split("</text>").filter_map(|t| t.rsplit('>').next()).map(str::trim).collect();
        assert!(ticks.contains(&"40"), "the x axis reaches the limit: {ticks:?}");
        c.limit = Some((f64::INFINITY, "inf".into()));
        c.marker = Some((-3.0, "neg".into()));
        let svg = latency_load_svg(&c, 640);
        assert!(!svg.contains("inf") && !svg.contains("neg") && !svg.contains("NaN"));
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
