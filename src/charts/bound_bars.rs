//! Horizontal bars of the time each term of the bound would take for one phase:
//! compute `W/F`, memory `Q/B`, communication `C/N` and overhead. The dominant term (the
//! engine's `dominant_term`: the largest of the four) is
//! drawn in full colour with its value in bold and the caller's "dominant" tag; the others
//! are paler. Optionally two groups (e.g. upper bound and expected) on one shared scale.

use super::canvas::{self, Anchor, Theme};
use super::format::format_seconds;
use super::palette;
use crate::engine::bound::Term;
use crate::engine::perf::roofline::dominant_term;

/// Names of the four terms, in the page's language.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct TermLabels {
    pub compute: String,
    pub memory: String,
    pub communication: String,
    pub overhead: String,
}

/// One phase's four times in seconds.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct BoundGroup {
    /// E.g. "upper bound" / "expected"; empty for a single unnamed group.
    pub label: String,
    pub compute_s: f64,
    pub memory_s: f64,
    pub communication_s: f64,
    pub overhead_s: f64,
    /// Shown after the group label when given (the engine's total for this group).
    pub total_s: Option<f64>,
}

#[derive(Clone, Debug, Default, PartialEq)]
pub struct BoundBarsChart {
    pub title: String,
    pub terms: TermLabels,
    /// Tag after the dominant bar's value, e.g. "dominant" / "主导".
    pub dominant_label: String,
    /// Word before a group's total, e.g. "total" / "合计".
    pub total_label: String,
    /// One or two groups (more are drawn too, the chart just grows).
    pub groups: Vec<BoundGroup>,
    pub no_data: String,
}

fn clean(v: f64) -> f64 {
    if v.is_finite() && v > 0.0 {
        v
    } else {
        0.0
    }
}

/// Index (0..4) of the dominant term: the engine's one definition
/// ([`dominant_term`], the largest of the four), or `None` when every term is zero.
fn dominant(v: &[f64; 4]) -> Option<usize> {
    let [compute, memory, communication, overhead] = *v;
    if v.iter().all(|x| *x <= 0.0) {
        return None;
    }
    Some(match dominant_term(compute, memory, communication, overhead).0 {
        Term::Compute => 0,
        Term::Memory => 1,
        Term::Communication => 2,
        Term::Overhead => 3,
        // Not among the four bars' terms.
        Term::Host => return None,
    })
}

/// The bound bars as an SVG string `width` px wide (see the module doc).
pub fn bound_bars_svg(c: &BoundBarsChart, width: u32) -> String {
    let t = Theme::new(width);
    let groups: Vec<(&BoundGroup, [f64; 4])> = c
        .groups
        .iter()
        .map(|g| (g, [clean(g.compute_s), clean(g.memory_s), clean(g.communication_s), clean(g.overhead_s)]))
        .collect();
    let vmax = groups.iter().flat_map(|(_, v)| v.iter()).fold(0.0, |a: f64, b| a.max(*b));
    if groups.is_empty() || vmax <= 0.0 {
        return canvas::no_data(&t, &c.title, &c.no_data);
    }
    let names = [&c.terms.compute, &c.terms.memory, &c.terms.communication, &c.terms.overhead];
    let colors = [palette::COMPUTE, palette::MEMORY, palette::COMMUNICATION, palette::OVERHEAD];
    // The dominant term's name is bold: room for any of them in bold.
    let label_w =
        names.iter().map(|n| canvas::bold_width(n, t.font)).fold(0.0, f64::max).min(t.w() * 0.3) + 10.0;
    let bar_h = t.font * 1.5;
    let row = bar_h + 6.0;
    let headed =
        groups.len() > 1 || groups.iter().any(|(g, _)| !g.label.trim().is_empty() || g.total_s.is_some());
    let head = if headed { t.font * 1.9 } else { 0.0 };
    let top0 = canvas::title_bottom(&t, &c.title) + 4.0;
    let h = top0 + groups.len() as f64 * (head + 4.0 * row + 10.0) + t.pad;
    let x0 = t.pad + label_w;
    // Room on the right for the longest value text and the dominant tag.
    let tag = format!("{} ◀ {}", format_seconds(vmax), c.dominant_label.trim());
    let x1 = (t.w() - t.pad - canvas::bold_width(&tag, t.font) - 8.0).max(x0 + 40.0);
    let xs = canvas::Scale::new(0.0, vmax, x0, x1, false);

    canvas::render(&t, h, &c.title, |a| {
        canvas::draw_title(a, &t, &c.title);
        let mut y = top0;
        for (g, v) in &groups {
            if headed {
                let mut head_text = g.label.trim().to_string();
                if let Some(total) = g.total_s.filter(|s| s.is_finite()) {
                    head_text = format!("{head_text} · {} {}", c.total_label.trim(), format_seconds(total))
                        .trim_start_matches(" · ")
                        .trim()
                        .to_string();
                }
                let s = canvas::fit(&head_text, t.font, t.w() - 2.0 * t.pad);
                canvas::text(a, &s, (t.pad, y + head * 0.5), t.font, palette::TEXT, Anchor::Start, true);
                y += head;
            }
            let dom = dominant(v);
            for i in 0..4 {
                let cy = y + bar_h / 2.0;
                let is_dom = dom == Some(i);
                let name = canvas::fit(names[i], t.font, label_w - 10.0);
                canvas::text(a, &name, (x0 - 8.0, cy), t.font, palette::TEXT, Anchor::End, is_dom);
                canvas::rect(a, x0, y, x0 + 1.0, y + bar_h, palette::AXIS, 1.0);
                let x = xs.map(v[i]);
                canvas::rect(
                    a,
                    x0,
                    y,
                    x.max(x0 + 1.0),
                    y + bar_h,
                    colors[i],
                    if is_dom { 1.0 } else { 0.45 },
                );
                let value = if is_dom && !c.dominant_label.trim().is_empty() {
                    format!("{} ◀ {}", format_seconds(v[i]), c.dominant_label.trim())
                } else {
                    format_seconds(v[i])
                };
                let col = if is_dom { palette::TEXT } else { palette::MUTED };
                canvas::text(a, &value, (x.max(x0 + 1.0) + 6.0, cy), t.font, col, Anchor::Start, is_dom);
                y += row;
            }
            y += 10.0;
        }
    })
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::charts::test_util::*;

    pub(crate) fn sample() -> BoundBarsChart {
        BoundBarsChart {
            title: "解码一步的时间 (70B, TP=4)".into(),
            terms: TermLabels {
                compute: "计算".into(),
                memory: "显存".into(),
                communication: "通信".into(),
                overhead: "开销".into(),
            },
            dominant_label: "主导".into(),
            total_label: "合计".into(),
            groups: vec![
                BoundGroup {
                    label: "roofline 最短时间".into(),
                    compute_s: 0.00042,
                    memory_s: 0.0104,
                    communication_s: 0.0011,
                    overhead_s: 0.0005,
                    total_s: Some(0.0109),
                },
                BoundGroup {
                    label: "预期".into(),
                    compute_s: 0.0006,
                    memory_s: 0.0131,
                    communication_s: 0.0024,
                    overhead_s: 0.0015,
                    total_s: Some(0.017),
                },
            ],
            no_data: "无数据".into(),
        }
    }

    #[test]
    fn draws_bars_and_highlights_the_dominant_term() {
        let c = sample();
        let svg = bound_bars_svg(&c, 640);
        assert_valid(&svg, &c.title);
        for l in [
            "计算",
            "显存",
            "通信",
            "开销",
            "roofline 最短时间 · 合计 10.9 ms",
            "预期 · 合计 17 ms",
            "10.4 ms ◀ 主导",
            "420 µs",
        ] {
            assert!(svg.contains(l), "missing {l}");
        }
        assert_eq!(count(&svg, "◀ 主导"), 2);
        // Four bars per group in the term colours, the dominant one opaque.
        for col in [palette::COMPUTE, palette::MEMORY, palette::COMMUNICATION, palette::OVERHEAD] {
            assert_eq!(count(&svg, &format!("fill=\"{col}\"")), 2, "{col}");
        }
        assert_eq!(count(&svg, &format!("opacity=\"1\" fill=\"{}\"", palette::MEMORY)), 2);
        assert_valid(&bound_bars_svg(&c, 360), &c.title);
    }

    #[test]
    fn dominant_follows_the_engine() {
        assert_eq!(dominant(&[1.0, 2.0, 0.5, 0.25]), Some(1));
        // Overhead counts like any other term (the report's `bound` says the same).
        assert_eq!(dominant(&[1.0, 2.0, 0.5, 9.0]), Some(3));
        assert_eq!(dominant(&[0.0, 0.0, 0.0, 1.0]), Some(3));
        assert_eq!(dominant(&[0.0; 4]), None);
    }

    #[test]
    fn degenerate_inputs_give_valid_svg() {
        let mut c = sample();
        c.groups.clear();
        assert!(bound_bars_svg(&c, 640).contains("无数据"));
        let mut c = sample();
        c.groups = vec![BoundGroup {
            label: String::new(),
            compute_s: f64::NAN,
            memory_s: f64::INFINITY,
            communication_s: -1.0,
            overhead_s: 0.0,
            total_s: Some(f64::NAN),
        }];
        assert!(bound_bars_svg(&c, 640).contains("无数据"));
        c.groups[0].overhead_s = 1e300;
        c.groups[0].compute_s = 1e-300;
        let svg = bound_bars_svg(&c, 0);
        assert_valid(&svg, &c.title);
        assert!(svg.contains("◀ 主导"));
    }
}
