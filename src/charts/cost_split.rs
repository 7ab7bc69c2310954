//! The shared-cluster calculator's month as stacked horizontal bars: one bar per pool (and one
//! for all pools), split into used, idle, reclaimable and unallocated money. Bars share one
//! scale (the largest total is the full width), so pools compare at a glance. Colours are the
//! figures' theme classes (`fig-t*`, dark mode included); every text is escaped.

use super::canvas::{escape, text_width};
use std::fmt::Write as _;

/// One bar: its label, its four parts (money, ≥ 0) and the total as the caller writes it.
#[derive(Clone, Debug, PartialEq)]
pub struct CostSplitRow {
    pub label: String,
    /// used, idle (not reclaimable), reclaimable, unallocated.
    pub parts: [f64; 4],
    pub total_text: String,
}

/// The chart: title, the four parts' names (legend), the rows, and what to say with no data.
#[derive(Clone, Debug, PartialEq)]
pub struct CostSplitChart {
    pub title: String,
    pub legend: [String; 4],
    pub rows: Vec<CostSplitRow>,
    pub no_data: String,
}

/// The theme class of each part.
const TONES: [&str; 4] = ["fig-t0", "fig-t1", "fig-t2", "fig-box"];
const BAR: f64 = 22.0;
const GAP: f64 = 30.0;
const PAD: f64 = 12.0;

fn usable(v: f64) -> f64 {
    if v.is_finite() && v > 0.0 {
        v
    } else {
        0.0
    }
}

/// The SVG (`width` px of viewBox; height from the legend and the rows).
pub fn cost_split_svg(c: &CostSplitChart, width: u32) -> String {
    let w = f64::from(width.max(200));
    let max = c.rows.iter().map(|r| r.parts.iter().copied().map(usable).sum::<f64>()).fold(0.0, f64::max);
    // Legend: a swatch and a name per part, wrapping to a new line when the width runs out.
    // The title wraps to the width (a phone's is too narrow for it on one line).
    let title_lines = crate::charts::figures::wrap(&c.title, 13.0, w - 2.0 * PAD);
    let title_extra = (title_lines.len().max(1) - 1) as f64 * 16.0;
    let mut legend = Vec::new();
    let (mut x, mut y) = (PAD, PAD + 36.0 + title_extra);
    for (tone, name) in TONES.iter().zip(&c.legend) {
        let item = 16.0 + text_width(name, 11.0) + 14.0;
        if x + item > w - PAD && x > PAD {
            x = PAD;
            y += 16.0;
        }
        legend.push((x, y, *tone, name.as_str()));
        x += item;
    }
    let top = y + 14.0;
    let body = if max > 0.0 { c.rows.len() as f64 * (BAR + GAP) } else { 30.0 };
    let h = top + body + PAD;
    let title = escape(&c.title);
    let mut out = format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 {w:.0} {h:.0}\" width=\"100%\" class=\"fig-svg cost-split\" role=\"img\" aria-label=\"{title}\" font-family=\"sans-serif\"><title>{title}</title>"
    );
    let text = |out: &mut String, x: f64, y: f64, size: f64, class: &str, s: &str| {
        let _ = write!(
            out,
            "<text x=\"{x:.1}\" y=\"{y:.1}\" font-size=\"{size}\" class=\"{class}\">{}</text>",
            escape(s)
        );
    };
    for (i, line) in title_lines.iter().enumerate() {
        text(&mut out, PAD, PAD + 12.0 + i as f64 * 16.0, 13.0, "fig-ink", line);
    }
    for (x, y, tone, name) in legend {
        let _ = write!(
            out,
            "<rect x=\"{x:.1}\" y=\"{:.1}\" width=\"11\" height=\"11\" rx=\"2\" class=\"{tone}\"/>",
            y - 10.0
        );
        text(&mut out, x + 15.0, y, 11.0, "fig-muted", name);
    }
    if max <= 0.0 {
        text(&mut out, PAD, top + 18.0, 12.0, "fig-muted", &c.no_data);
        out.push_str("</svg>");
        return out;
    }
    let span = w - 2.0 * PAD;
    for (i, r) in c.rows.iter().enumerate() {
        let y0 = top + i as f64 * (BAR + GAP);
        let total: f64 = r.parts.iter().copied().map(usable).sum();
        text(&mut out, PAD, y0 + 11.0, 12.0, "fig-ink", &format!("{} · {}", r.label, r.total_text));
        let mut x = PAD;
        for (tone, v) in TONES.iter().zip(r.parts) {
            let len = usable(v) / max * span;
            if len > 0.0 {
                let _ = write!(
                    out,
                    "<rect x=\"{x:.1}\" y=\"{:.1}\" width=\"{len:.1}\" height=\"{BAR}\" class=\"{tone}\" data-part=\"{:.4}\"/>",
                    y0 + 16.0,
                    usable(v) / total
                );
            }
            x += len;
        }
    }
    out.push_str("</svg>");
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn chart(rows: Vec<CostSplitRow>) -> CostSplitChart {
        CostSplitChart {
            title: "Month <split>".into(),
            legend: ["Used".into(), "Idle".into(), "Reclaimable".into(), "Unallocated".into()],
            rows,
            no_data: "No GPUs".into(),
        }
    }

    fn widths(svg: &str) -> Vec<f64> {
        svg.split("data-part=")
            .skip(1)
            .filter_map(|s| {
                let before = svg.get(..svg.find(s)?)?;
                let w = before.rsplit("width=\"").next()?.split('"').next()?;
                w.parse().ok()
            })
            .collect()
    }

    #[test]
    fn bars_are_proportional_and_labelled() {
        let svg = cost_split_svg(
            &chart(vec![
                CostSplitRow {
                    label: "Pool 1".into(),
                    parts: [300.0, 100.0, 100.0, 0.0],
                    total_text: "$500".into(),
                },
                CostSplitRow {
                    label: "Pool 2".into(),
                    parts: [0.0, 0.0, 0.0, 250.0],
                    total_text: "$250".into(),
                },
            ]),
            640,
        );
        assert!(svg.starts_with("<svg") && svg.ends_with("</svg>"));
        for label in [
            "Pool 1 · $500",
            "Pool 2 · $250",
            "Used",
            "Idle",
            "Reclaimable",
            "Unallocated",
            "Month &lt;split&gt;",
        ] {
            assert!(svg.contains(label), "{label}");
        }
        // 616 px of bar for $500: $300 → 369.6, $100 → 123.2; $250 → 308.
        assert_eq!(widths(&svg), vec![369.6, 123.2, 123.2, 308.0]);
        assert!(!svg.contains("NaN") && !svg.contains("inf"));
    }

    #[test]
    fn zero_and_bad_totals_give_the_message_not_nan() {
        for parts in [[0.0; 4], [f64::NAN, -1.0, f64::INFINITY, 0.0]] {
            let svg = cost_split_svg(
                &chart(vec![CostSplitRow { label: "P".into(), parts, total_text: "$0".into() }]),
                360,
            );
            assert!(svg.contains("No GPUs"), "{svg}");
            assert!(!svg.contains("NaN") && !svg.contains("inf"), "{svg}");
        }
        let svg = cost_split_svg(&chart(vec![]), 360);
        assert!(svg.contains("No GPUs") && svg.ends_with("</svg>"));
    }
}
