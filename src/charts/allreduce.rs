//! A quantity against a size in bytes (log-log), one line per series, with an optional size
//! marked by a dashed vertical line and a dot on each curve. Drawn for all-reduce time against
//! message size (one line per topology, the engine's times from `engine::allreduce`) and for the
//! WebGPU lab's bandwidth against working set (one line per kernel); the chart only draws.

use super::canvas::{self, Anchor, LegendItem, Plot, Scale, Swatch, Theme};
use super::format::{format_bytes_f64, format_rate, format_seconds, ByteUnit};
use super::palette;

/// One topology's curve: (message bytes, expected seconds) pairs.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct AllReduceSeries {
    pub label: String,
    pub points: Vec<(f64, f64)>,
}

/// What the y axis holds.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum YAxis {
    /// Seconds (all-reduce time).
    #[default]
    Seconds,
    /// Bytes per second (measured bandwidth).
    BytesPerSecond,
}

#[derive(Clone, Debug, Default, PartialEq)]
pub struct AllReduceChart {
    pub title: String,
    /// E.g. "Message size".
    pub x_label: String,
    /// E.g. "time".
    pub y_label: String,
    /// At most four series are drawn.
    pub series: Vec<AllReduceSeries>,
    pub y_axis: YAxis,
    /// Units of the x axis's byte labels (GB or GiB steps).
    pub x_unit: ByteUnit,
    /// The size the reader chose, marked on every curve.
    pub marker_bytes: Option<f64>,
    pub no_data: String,
}

/// A drawn series: its colour index, its input and its usable points.
type Drawn<'a> = (usize, &'a AllReduceSeries, Vec<(f64, f64)>);

fn usable(p: &(f64, f64)) -> bool {
    p.0.is_finite() && p.0 > 0.0 && p.1.is_finite() && p.1 > 0.0
}

/// The chart as an SVG string `width` px wide.
pub fn allreduce_svg(c: &AllReduceChart, width: u32) -> String {
    let t = Theme::new(width);
    let series: Vec<Drawn<'_>> = c
        .series
        .iter()
        .take(4)
        .enumerate()
        .map(|(i, s)| (i, s, s.points.iter().copied().filter(usable).collect::<Vec<_>>()))
        .filter(|(_, _, p)| p.len() >= 2)
        .collect();
    if series.is_empty() {
        return canvas::no_data(&t, &c.title, &c.no_data);
    }
    let all = || series.iter().flat_map(|(_, _, p)| p.iter());
    let (xlo, xhi) = canvas::decade_range(
        all().map(|p| p.0).fold(f64::INFINITY, f64::min),
        all().map(|p| p.0).fold(0.0, f64::max),
        12,
    );
    let (ylo, yhi) = canvas::decade_range(
        all().map(|p| p.1).fold(f64::INFINITY, f64::min),
        all().map(|p| p.1).fold(0.0, f64::max),
        10,
    );
    let items: Vec<LegendItem> = series
        .iter()
        .map(|(i, s, _)| LegendItem {
            label: s.label.clone(),
            color: palette::series(*i),
            swatch: Swatch::Line,
        })
        .collect();
    let h = (t.w() * 0.7).max(360.0);
    let top0 = canvas::title_bottom(&t, &c.title);
    let legend_h = canvas::legend(None, &t, &items, t.pad, top0, t.w() - 2.0 * t.pad);
    let y_format = |v: f64| match c.y_axis {
        YAxis::Seconds => format_seconds(v),
        YAxis::BytesPerSecond => format_rate(v, "B/s"),
    };
    let yt = canvas::log10_ticks(&Scale::new(ylo, yhi, 0.0, 1.0, true), y_format);
    let left = canvas::y_gutter(&t, &yt);
    // Room for half of the last x tick label ("10 GB"), which is centred on the right edge.
    let right = t.w() - t.pad - t.font * 1.8;
    let bottom = h - t.font * 3.2;
    let top = (top0 + legend_h + 8.0).min(bottom - 120.0);
    let plot = Plot { left, top, right, bottom };
    let xs = Scale::new(xlo, xhi, left, right, true);
    let ys = Scale::new(ylo, yhi, bottom, top, true);
    // Binary sizes tick at powers of two (1, 2, 4 … MiB), decimal ones at powers of ten.
    let xt = match c.x_unit {
        ByteUnit::Gib => canvas::log2_ticks(&xs, |v| format_bytes_f64(v, c.x_unit)),
        ByteUnit::Gb => canvas::log10_ticks(&xs, |v| format_bytes_f64(v, c.x_unit)),
    };
    let xt = canvas::thin_ticks(xt, &xs, t.font, true);
    let yt = canvas::thin_ticks(yt, &ys, t.font, false);
    let marker = c.marker_bytes.filter(|m| m.is_finite() && xs.contains(*m));
    canvas::render(&t, h, &c.title, |a| {
        canvas::draw_title(a, &t, &c.title);
        canvas::legend(Some(a), &t, &items, t.pad, top0, t.w() - 2.0 * t.pad);
        canvas::draw_axes(a, &t, &plot, (&xs, &xt, &c.x_label), (&ys, &yt, &c.y_label));
        if let Some(m) = marker {
            let x = xs.map(m);
            canvas::line(a, &[(x, top), (x, bottom)], palette::MUTED, 1, true);
            let label = format_bytes_f64(m, c.x_unit);
            let anchor = if x + canvas::text_width(&label, t.small) + 8.0 < right {
                Anchor::Start
            } else {
                Anchor::End
            };
            let dx = if anchor == Anchor::Start { 4.0 } else { -4.0 };
            canvas::text(a, &label, (x + dx, top + t.small), t.small, palette::MUTED, anchor, false);
        }
        for (i, _, p) in &series {
            let col = palette::series(*i);
            let pts: Vec<_> = p.iter().map(|(b, s)| (xs.map(*b), ys.map(*s))).collect();
            canvas::line(a, &pts, col, 2, false);
            if let Some(m) = marker {
                // The curve's value at the marker, interpolated in log-log between its points.
                if let Some(w) = p.windows(2).find(|w| w[0].0 <= m && m <= w[1].0) {
                    let (x0, y0, x1, y1) = (w[0].0.ln(), w[0].1.ln(), w[1].0.ln(), w[1].1.ln());
                    let f = if x1 > x0 { (m.ln() - x0) / (x1 - x0) } else { 0.0 };
                    canvas::dot(a, (xs.map(m), ys.map((y0 + f * (y1 - y0)).exp())), 4, col);
                }
            }
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::charts::test_util::*;

    fn sample() -> AllReduceChart {
        let line = |label: &str, beta: f64| AllReduceSeries {
            label: label.into(),
            points: (0..=12)
                .map(|k| 10f64.powf(3.0 + k as f64 * 0.5))
                .map(|s| (s, 28e-6 + s * 1.75 / beta))
                .collect(),
        };
        AllReduceChart {
            title: "all-reduce 时间 <16 GPU>".into(),
            x_label: "消息大小".into(),
            y_label: "时间".into(),
            series: vec![line("NVSwitch", 337.5e9), line("PCIe & IB", 47e9), line("EFA", 37.5e9)],
            marker_bytes: Some(1e9),
            no_data: "无数据".into(),
            ..Default::default()
        }
    }

    #[test]
    fn draws_three_curves_a_marker_and_escapes_labels() {
        for w in [crate::charts::DESKTOP_WIDTH, crate::charts::PHONE_WIDTH] {
            let svg = allreduce_svg(&sample(), w);
            assert_valid(&svg, "all-reduce 时间 <16 GPU>");
            assert!(svg.contains("PCIe &amp; IB"));
            assert!(svg.contains("1 GB"), "the marker is labelled");
            assert_eq!(count(&svg, "<circle"), 3, "one dot per curve at the marker");
        }
    }

    #[test]
    fn bandwidth_axis_reads_bytes_per_second() {
        let c = AllReduceChart {
            y_axis: YAxis::BytesPerSecond,
            x_unit: ByteUnit::Gib,
            marker_bytes: None,
            series: vec![AllReduceSeries {
                label: "triad".into(),
                points: vec![(1048576.0, 2e11), (268435456.0, 9e11)],
            }],
            ..sample()
        };
        let svg = allreduce_svg(&c, 640);
        assert_valid(&svg, &c.title);
        assert!(svg.contains("GB/s"), "{svg}");
        assert!(svg.contains("MiB"), "{svg}");
        assert_eq!(count(&svg, "<circle"), 0);
    }

    /// The lab's sweep (1 to 16 MiB arrays) ticks at the sizes it ran: 1, 2, 4, 8, 16 MiB, not
    /// at powers of ten written in MiB (977 KiB, 9.54 MiB).
    #[test]
    fn binary_sizes_tick_at_powers_of_two() {
        let mib = 1048576.0;
        let c = AllReduceChart {
            y_axis: YAxis::BytesPerSecond,
            x_unit: ByteUnit::Gib,
            marker_bytes: None,
            series: vec![AllReduceSeries {
                label: "triad".into(),
                points: [1.0, 2.0, 4.0, 8.0, 16.0].iter().map(|m| (m * mib, 1e9)).collect(),
            }],
            ..sample()
        };
        let labels = |w| allreduce_svg(&c, w).lines().map(|l| l.trim().to_owned()).collect::<Vec<_>>();
        for w in [crate::charts::DESKTOP_WIDTH, crate::charts::PHONE_WIDTH] {
            let labels = labels(w);
            for label in ["1 MiB", "4 MiB", "16 MiB"] {
                assert!(labels.iter().any(|l| l == label), "{label} at {w}: {labels:?}");
            }
            assert!(!labels.iter().any(|l| l == "9.54 MiB" || l == "977 KiB"), "{labels:?}");
        }
        let labels = labels(crate::charts::DESKTOP_WIDTH);
        for label in ["2 MiB", "8 MiB"] {
            assert!(labels.iter().any(|l| l == label), "{label}: {labels:?}");
        }
    }

    #[test]
    fn unusable_data_gives_the_no_data_message() {
        let mut c = sample();
        for s in &mut c.series {
            for p in &mut s.points {
                p.1 = f64::NAN;
            }
        }
        let svg = allreduce_svg(&c, 640);
        assert_valid(&svg, &c.title);
        assert!(svg.contains("无数据"));
        let out_of_range = AllReduceChart { marker_bytes: Some(1e30), ..sample() };
        assert_eq!(count(&allreduce_svg(&out_of_range, 640), "<circle"), 0);
    }
}
