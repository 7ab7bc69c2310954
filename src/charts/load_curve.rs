//! Latency against load: p50 and p95 time to first token and time per output token (log y,
//! seconds) against the arrival rate (linear x, requests/s) up to the sustainable rate, drawn
//! as a dashed vertical line; the scenario's current rate is a second vertical line with a dot
//! on each curve where it was simulated.

use super::canvas::{self, Anchor, LegendItem, Plot, Scale, Swatch, Theme};
use super::format::format_seconds;
use super::palette;

/// One curve: `(requests/s, seconds)` points.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct LoadSeries {
    /// E.g. "TTFT p95".
    pub label: String,
    pub points: Vec<(f64, f64)>,
    /// Dashed (the p95 lines).
    pub dashed: bool,
}

/// A vertical marker at a rate (the sustainable rate, the current rate).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct RateMark {
    /// The caller's words, with the rate already formatted.
    pub label: String,
    pub rate: f64,
}

#[derive(Clone, Debug, Default, PartialEq)]
pub struct LoadCurveChart {
    pub title: String,
    /// E.g. "Arrival rate (requests/s)".
    pub x_label: String,
    /// E.g. "Latency".
    pub y_label: String,
    pub series: Vec<LoadSeries>,
    pub sustainable: Option<RateMark>,
    pub current: Option<RateMark>,
    /// Values at the current rate, one per series (same order), dotted on the curves.
    pub current_values: Vec<Option<f64>>,
    pub no_data: String,
}

fn ok_rate(r: f64) -> Option<f64> {
    (r.is_finite() && r > 0.0).then_some(r)
}

/// The chart as an SVG string `width` px wide (see the module doc).
pub fn load_curve_svg(c: &LoadCurveChart, width: u32) -> String {
    let t = Theme::new(width);
    let usable = |&(x, y): &(f64, f64)| x.is_finite() && x >= 0.0 && y.is_finite() && y > 0.0;
    type Drawn<'a> = (usize, &'a LoadSeries, Vec<(f64, f64)>);
    let lines: Vec<Drawn> = c
        .series
        .iter()
        .enumerate()
        .map(|(i, s)| (i, s, s.points.iter().copied().filter(usable).collect::<Vec<_>>()))
        .filter(|(_, _, p)| !p.is_empty())
        .collect();
    if lines.is_empty() {
        return canvas::no_data(&t, &c.title, &c.no_data);
    }
    let pts = || lines.iter().flat_map(|(_, _, p)| p.iter());
    let mark_rate = |m: &Option<RateMark>| m.as_ref().and_then(|m| ok_rate(m.rate));
    let xmax = pts()
        .map(|p| p.0)
        .chain(mark_rate(&c.sustainable))
        .chain(mark_rate(&c.current))
        .fold(0.0, f64::max)
        .max(1e-9)
        * 1.05;
    let cur_vals: Vec<f64> =
        c.current_values.iter().flatten().copied().filter(|v| v.is_finite() && *v > 0.0).collect();
    let ymin = pts().map(|p| p.1).chain(cur_vals.iter().copied()).fold(f64::INFINITY, f64::min);
    let ymax = pts().map(|p| p.1).chain(cur_vals.iter().copied()).fold(0.0, f64::max);
    let (ylo, yhi) = canvas::decade_range(ymin, ymax.max(ymin * 10.0), 7);

    let items: Vec<LegendItem> = lines
        .iter()
        .map(|(i, s, _)| LegendItem {
            label: s.label.clone(),
            color: palette::series(*i / 2),
            swatch: Swatch::Line,
        })
        .collect();
    let h = (t.w() * 0.66).max(340.0);
    let top0 = t.pad + t.title * 1.3;
    let legend_h = canvas::legend(None, &t, &items, t.pad, top0, t.w() - 2.0 * t.pad);
    let probe = Scale::new(ylo, yhi, 0.0, 1.0, true);
    let yt = canvas::log10_ticks(&probe, format_seconds);
    let bottom = h - t.font * 3.2;
    let plot = Plot {
        left: canvas::y_gutter(&t, &yt),
        top: (top0 + legend_h + 8.0).min(bottom - 80.0),
        right: t.w() - t.pad * 1.5,
        bottom,
    };
    let xs = Scale::new(0.0, xmax, plot.left, plot.right, false);
    let ys = Scale::new(ylo, yhi, plot.bottom, plot.top, true);
    let xt = canvas::linear_ticks(&xs, 5, super::format::format_si);
    let xt = canvas::thin_ticks(xt, &xs, t.font, true);
    let yt = canvas::thin_ticks(canvas::log10_ticks(&ys, format_seconds), &ys, t.font, false);

    canvas::render(&t, h, &c.title, |a| {
        canvas::draw_title(a, &t, &c.title);
        canvas::legend(Some(a), &t, &items, t.pad, top0, t.w() - 2.0 * t.pad);
        canvas::draw_axes(a, &t, &plot, (&xs, &xt, &c.x_label), (&ys, &yt, &c.y_label));
        let marks = [(&c.sustainable, palette::WARNING, true, 0.9), (&c.current, palette::TEXT, false, 2.2)];
        for (m, color, dashed, dy) in marks {
            if let Some((m, r)) = m.as_ref().and_then(|m| ok_rate(m.rate).map(|r| (m, r))) {
                let x = xs.map(r.min(xmax));
                canvas::line(a, &[(x, plot.bottom), (x, plot.top)], color, 1, dashed);
                let anchor = if x > (plot.left + plot.right) / 2.0 { Anchor::End } else { Anchor::Start };
                let tx = if matches!(anchor, Anchor::End) { x - 4.0 } else { x + 4.0 };
                canvas::text(a, &m.label, (tx, plot.top + t.small * dy), t.small, color, anchor, true);
            }
        }
        for (i, s, p) in &lines {
            let path: Vec<_> = p.iter().map(|&(x, y)| (xs.map(x), ys.map(y))).collect();
            canvas::line(a, &path, palette::series(*i / 2), 2, s.dashed);
        }
        if let Some(r) = mark_rate(&c.current) {
            for (i, v) in c.current_values.iter().enumerate() {
                if let Some(v) = v.filter(|v| v.is_finite() && *v > 0.0) {
                    canvas::dot(
                        a,
                        (xs.map(r.min(xmax)), ys.map(v.clamp(ylo, yhi))),
                        4,
                        palette::series(i / 2),
                    );
                }
            }
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::charts::test_util::*;

    fn sample() -> LoadCurveChart {
        let rates: Vec<f64> = (1..=10).map(|i| f64::from(i) * 1.5).collect();
        let mk = |label: &str, base: f64, dashed: bool| LoadSeries {
            label: label.into(),
            points: rates.iter().map(|r| (*r, base * (1.0 + r / 10.0))).collect(),
            dashed,
        };
        LoadCurveChart {
            title: "负载下的延迟".into(),
            x_label: "到达率 (请求/s)".into(),
            y_label: "延迟".into(),
            series: vec![
                mk("TTFT p50", 0.05, false),
                mk("TTFT p95", 0.08, true),
                mk("TPOT p50", 0.01, false),
                mk("TPOT p95", 0.012, true),
            ],
            sustainable: Some(RateMark { label: "可持续 16/s".into(), rate: 16.0 }),
            current: Some(RateMark { label: "当前 5/s".into(), rate: 5.0 }),
            current_values: vec![Some(0.07), Some(0.1), Some(0.015), None],
            no_data: "无数据".into(),
        }
    }

    #[test]
    fn draws_curves_marks_and_dots() {
        let c = sample();
        let svg = load_curve_svg(&c, 640);
        assert_valid(&svg, &c.title);
        for l in
            ["TTFT p50", "TPOT p95", "可持续 16/s", "当前 5/s", "到达率 (请求/s)", "延迟", "10 ms", "100 ms"]
        {
            assert!(svg.contains(l), "missing {l}");
        }
        // Two dashed p95 lines and the dashed sustainable-rate line.
        assert_eq!(count(&svg, "stroke-dasharray"), 3);
        assert_valid(&load_curve_svg(&c, 360), &c.title);
    }

    #[test]
    fn degenerate_inputs_give_valid_svg() {
        let mut c = sample();
        c.series.iter_mut().for_each(|s| s.points = vec![(f64::NAN, 1.0), (1.0, 0.0)]);
        assert!(load_curve_svg(&c, 640).contains("无数据"));
        let mut c = sample();
        c.series = vec![LoadSeries {
            label: "x".into(),
            points: vec![(0.0, 1e-300), (f64::MAX, 1e300)],
            dashed: false,
        }];
        c.sustainable = Some(RateMark { label: String::new(), rate: f64::INFINITY });
        c.current = Some(RateMark { label: "<&>".into(), rate: -1.0 });
        assert_valid(&load_curve_svg(&c, 1), &c.title);
    }
}
