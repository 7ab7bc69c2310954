//! KV cache size against context length (log x, e.g. 512 … 1M tokens; log y, bytes) for
//! several concurrency levels (1, 8, 32, 128 sequences) as lines, with the GPU memory left
//! for the KV cache (capacity after weights) as a horizontal line. Where a line crosses it a
//! ring marks the longest context that fits at that concurrency.

use super::canvas::{self, Anchor, LegendItem, Plot, Scale, Swatch, Theme};
use super::format::{format_bytes_f64, format_tokens, ByteUnit};
use super::palette;

/// One concurrency level: `(context tokens, KV cache bytes)` points.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct KvLine {
    /// E.g. "32 concurrent" / "并发 32".
    pub label: String,
    pub points: Vec<(u64, u64)>,
}

/// Memory available to the KV cache, drawn as a horizontal line.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct KvCapacity {
    /// E.g. "free memory"; the chart appends the size.
    pub label: String,
    pub bytes: u64,
}

#[derive(Clone, Debug, Default, PartialEq)]
pub struct KvGrowthChart {
    pub title: String,
    /// E.g. "Context length (tokens)".
    pub x_label: String,
    /// E.g. "KV cache".
    pub y_label: String,
    pub unit: ByteUnit,
    pub lines: Vec<KvLine>,
    pub capacity: Option<KvCapacity>,
    pub no_data: String,
}

/// Tick values at 1, 10, 100 × each prefix of `unit` (1 GB, 10 GB, 100 GB, 1 TB; or GiB).
fn byte_ticks(s: &Scale, unit: ByteUnit) -> Vec<(f64, String)> {
    let mut v = Vec::new();
    let mut p = 1.0;
    for _ in 0..7 {
        for m in [1.0, 10.0, 100.0] {
            if s.contains(p * m) {
                v.push((p * m, format_bytes_f64(p * m, unit)));
            }
        }
        p *= unit.step();
    }
    v
}

/// The point where the log-log segment `a`–`b` crosses `y = cap`.
fn crossing(a: (f64, f64), b: (f64, f64), cap: f64) -> Option<(f64, f64)> {
    if !(a.1 <= cap && b.1 > cap) {
        return None;
    }
    let t = (cap.ln() - a.1.ln()) / (b.1.ln() - a.1.ln());
    t.is_finite().then(|| ((a.0.ln() + t * (b.0.ln() - a.0.ln())).exp(), cap))
}

/// The KV growth chart as an SVG string `width` px wide (see the module doc).
pub fn kv_growth_svg(c: &KvGrowthChart, width: u32) -> String {
    let t = Theme::new(width);
    type Drawn<'a> = (usize, &'a KvLine, Vec<(f64, f64)>);
    let lines: Vec<Drawn> = c
        .lines
        .iter()
        .enumerate()
        .map(|(i, l)| {
            let mut p: Vec<(f64, f64)> = l
                .points
                .iter()
                .filter(|(x, y)| *x > 0 && *y > 0)
                .map(|&(x, y)| (x as f64, y as f64))
                .collect();
            crate::engine::num::sort_stable_by(&mut p, |a, b| a.0.total_cmp(&b.0).is_lt());
            (i, l, p)
        })
        .filter(|(_, _, p)| !p.is_empty())
        .collect();
    if lines.is_empty() {
        return canvas::no_data(&t, &c.title, &c.no_data);
    }
    let pts = || lines.iter().flat_map(|(_, _, p)| p.iter());
    let cap = c.capacity.as_ref().filter(|k| k.bytes > 0);
    let xmin = pts().map(|p| p.0).fold(f64::INFINITY, f64::min);
    let xmax = pts().map(|p| p.0).fold(0.0, f64::max).max(xmin * 2.0);
    let capb = cap.map_or(f64::NAN, |k| k.bytes as f64);
    let ymin = pts().map(|p| p.1).fold(f64::INFINITY, f64::min).min(capb);
    let ymax = pts().map(|p| p.1).fold(0.0, f64::max).max(if capb.is_finite() { capb * 1.5 } else { 0.0 });
    let (ylo, yhi) = canvas::decade_range(ymin, ymax, 7);

    let items: Vec<LegendItem> = lines
        .iter()
        .map(|(i, l, _)| LegendItem {
            label: l.label.clone(),
            color: palette::series(*i),
            swatch: Swatch::Line,
        })
        .collect();
    let h = (t.w() * 0.66).max(340.0);
    let top0 = canvas::title_bottom(&t, &c.title);
    let legend_h = canvas::legend(None, &t, &items, t.pad, top0, t.w() - 2.0 * t.pad);
    let yt = byte_ticks(&Scale::new(ylo, yhi, 0.0, 1.0, true), c.unit);
    let bottom = h - t.font * 3.2;
    let plot = Plot {
        left: canvas::y_gutter(&t, &yt),
        top: (top0 + legend_h + 8.0).min(bottom - 80.0),
        right: t.w() - t.pad * 1.5,
        bottom,
    };
    let xs = Scale::new(xmin, xmax, plot.left, plot.right, true);
    let ys = Scale::new(ylo, yhi, plot.bottom, plot.top, true);
    // Context ticks at powers of two, thinned to fit (512, 2K, 8K, … or every other).
    let mut xt = Vec::new();
    let mut v = xmin.log2().ceil().clamp(0.0, 62.0).exp2();
    while v <= xmax * (1.0 + 1e-9) {
        xt.push((v, format_tokens(v as u64)));
        v *= 2.0;
    }
    let xt = canvas::thin_ticks(xt, &xs, t.font, true);
    let yt = canvas::thin_ticks(yt, &ys, t.font, false);

    canvas::render(&t, h, &c.title, |a| {
        canvas::draw_title(a, &t, &c.title);
        canvas::legend(Some(a), &t, &items, t.pad, top0, t.w() - 2.0 * t.pad);
        canvas::draw_axes(a, &t, &plot, (&xs, &xt, &c.x_label), (&ys, &yt, &c.y_label));
        for (i, _, p) in &lines {
            let path: Vec<_> = p.iter().map(|&(x, y)| (xs.map(x), ys.map(y))).collect();
            canvas::line(a, &path, palette::series(*i), 2, false);
        }
        if let Some(k) = cap {
            let y = ys.map(capb);
            canvas::line(a, &[(plot.left, y), (plot.right, y)], palette::WARNING, 2, true);
            let label = format!("{} {}", k.label.trim(), format_bytes_f64(capb, c.unit)).trim().to_string();
            canvas::text(
                a,
                &label,
                (plot.left + 6.0, y - t.small * 0.9),
                t.small,
                palette::WARNING,
                Anchor::Start,
                true,
            );
            for (i, _, p) in &lines {
                if let Some((x, cy)) = p.windows(2).find_map(|w| crossing(w[0], w[1], capb)) {
                    canvas::ring(a, (xs.map(x), ys.map(cy)), 5, palette::series(*i));
                }
            }
        }
    })
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::charts::test_util::*;

    pub(crate) fn sample() -> KvGrowthChart {
        // Llama 3 70B: 327,680 bytes of KV cache per token (GQA, 8 KV heads, BF16).
        let per_token = 327_680u64;
        let ctx: Vec<u64> = (9..=20).map(|k| 1u64 << k).collect();
        KvGrowthChart {
            title: "KV 缓存随上下文增长".into(),
            x_label: "上下文长度 (tokens)".into(),
            y_label: "KV 缓存 (显存)".into(),
            unit: ByteUnit::Gb,
            lines: [1u64, 8, 32, 128]
                .iter()
                .map(|&n| KvLine {
                    label: format!("并发 {n}"),
                    points: ctx.iter().map(|&c| (c, c * n * per_token)).collect(),
                })
                .collect(),
            capacity: Some(KvCapacity { label: "可用显存".into(), bytes: 500_000_000_000 }),
            no_data: "无数据".into(),
        }
    }

    #[test]
    fn draws_lines_capacity_and_crossings() {
        let c = sample();
        let svg = kv_growth_svg(&c, 640);
        assert_valid(&svg, &c.title);
        for l in [
            "并发 1",
            "并发 128",
            "可用显存 500 GB",
            "上下文长度 (tokens)",
            "KV 缓存 (显存)",
            "512",
            "1M",
            "100 GB",
        ] {
            assert!(svg.contains(l), "missing {l}");
        }
        // One sequence never reaches 500 GB (343 GB at 1M tokens): line only; the others cross.
        for (i, col) in palette::SERIES[..4].iter().enumerate() {
            let want = if i == 0 { 1 } else { 2 };
            assert_eq!(
                count(&svg, &format!("stroke=\"{col}\" stroke-width=\"2\"")),
                want,
                "line and crossing ring {col}"
            );
        }
        assert_eq!(count(&svg, "stroke-dasharray"), 1);
        assert_valid(&kv_growth_svg(&c, 360), &c.title);
        assert!(crossing((1.0, 1.0), (100.0, 100.0), 10.0).is_some_and(|(x, _)| (x - 10.0).abs() < 1e-9));
    }

    #[test]
    fn degenerate_inputs_give_valid_svg() {
        let mut c = sample();
        c.lines.iter_mut().for_each(|l| l.points = vec![(0, 0)]);
        assert!(kv_growth_svg(&c, 640).contains("无数据"));
        let mut c = sample();
        c.lines = vec![KvLine { label: "x".into(), points: vec![(u64::MAX, u64::MAX), (1, 1), (1, 1)] }];
        c.capacity = Some(KvCapacity { label: String::new(), bytes: u64::MAX });
        assert_valid(&kv_growth_svg(&c, 640), &c.title);
        c.capacity = Some(KvCapacity { label: "0".into(), bytes: 0 });
        c.unit = ByteUnit::Gib;
        assert_valid(&kv_growth_svg(&c, 1), &c.title);
    }
}
