//! Log-log roofline (Williams, Waterman, Patterson 2009): x = arithmetic intensity
//! (FLOP/byte), y = attainable FLOP/s. The roof `min(peak, bandwidth × I)` is drawn in two
//! parts: the memory-bound slope (memory colour) and the compute-bound flat (compute colour),
//! meeting at the ridge point, which is marked and labelled with its intensity. An optional
//! dashed "expected" roof scales both by achieved efficiencies. Named workload points
//! (prefill, decode) are dots with labels; an optional sweep (decode at batch 1…1024) is a
//! connected path with a few labels. A point above the roof is impossible: it is drawn on
//! the roof, never above it.

use super::canvas::{self, Anchor, LegendItem, Plot, Scale, Swatch, Theme};
use super::palette;

/// One workload on the roofline.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct RooflinePoint {
    pub label: String,
    /// FLOP per byte of memory traffic.
    pub intensity: f64,
    /// Achieved (or estimated) FLOP/s.
    pub flops_per_s: f64,
}

/// A second, dashed roof with efficiency factors (fractions of peak, 0..1).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ExpectedRoof {
    pub label: String,
    pub flops_efficiency: f64,
    pub bandwidth_efficiency: f64,
}

/// Everything the roofline shows; all text in the page's language.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct RooflineChart {
    pub title: String,
    /// E.g. "Arithmetic intensity (FLOP/byte)".
    pub x_label: String,
    /// E.g. "Attainable FLOP/s".
    pub y_label: String,
    /// Dense peak of the chosen dtype, FLOP/s.
    pub peak_flops_per_s: f64,
    /// Peak memory bandwidth, bytes/s.
    pub bandwidth_bytes_per_s: f64,
    /// Legend names of the two roof parts, e.g. "memory-bound" / "compute-bound".
    pub memory_roof_label: String,
    pub compute_roof_label: String,
    /// Ridge annotation; the chart appends the intensity, e.g. "ridge 295 FLOP/B".
    pub ridge_label: String,
    pub expected: Option<ExpectedRoof>,
    pub points: Vec<RooflinePoint>,
    /// Legend name of the sweep path (empty: no legend entry).
    pub sweep_label: String,
    pub sweep: Vec<RooflinePoint>,
    /// Shown instead of the chart when the peak or bandwidth is unusable.
    pub no_data: String,
}

fn usable(p: &RooflinePoint) -> bool {
    p.intensity.is_finite() && p.intensity > 0.0 && p.flops_per_s.is_finite() && p.flops_per_s > 0.0
}

/// The roofline as an SVG string `width` px wide (see the module doc).
pub fn roofline_svg(c: &RooflineChart, width: u32) -> String {
    let t = Theme::new(width);
    let (peak, bw) = (c.peak_flops_per_s, c.bandwidth_bytes_per_s);
    let ridge = peak / bw;
    if !(peak.is_finite() && bw.is_finite() && peak > 0.0 && bw > 0.0 && ridge.is_finite() && ridge > 0.0) {
        return canvas::no_data(&t, &c.title, &c.no_data);
    }
    let roof = |i: f64| peak.min(bw * i);
    let pts: Vec<&RooflinePoint> = c.points.iter().filter(|p| usable(p)).collect();
    let sweep: Vec<&RooflinePoint> = c.sweep.iter().filter(|p| usable(p)).collect();
    let all = || pts.iter().chain(sweep.iter());

    // x: a decade below the smallest intensity (or ridge/1000) to a decade past the ridge.
    let imin = all().map(|p| p.intensity).fold(ridge / 300.0, f64::min);
    let imax = all().map(|p| p.intensity).fold(ridge * 10.0, f64::max);
    let (xlo, xhi) = canvas::decade_range(imin, imax, 7);
    // y: up to the decade above the peak, down to the roof at xlo (or the lowest point).
    let ymin = all().map(|p| p.flops_per_s.min(roof(p.intensity))).fold(roof(xlo), f64::min);
    // The top stays just above the peak (not the next decade) so the roof uses the height.
    let (ylo, _) = canvas::decade_range(ymin, peak * 2.5, 6);
    let yhi = peak * 2.5;

    let expected = c.expected.as_ref().and_then(|e| {
        let (fe, be) = (e.flops_efficiency, e.bandwidth_efficiency);
        (fe.is_finite() && be.is_finite() && fe > 0.0 && be > 0.0).then_some((e, fe.min(1.0), be.min(1.0)))
    });
    let mut items = vec![
        LegendItem { label: c.memory_roof_label.clone(), color: palette::MEMORY, swatch: Swatch::Line },
        LegendItem { label: c.compute_roof_label.clone(), color: palette::COMPUTE, swatch: Swatch::Line },
    ];
    if let Some((e, _, _)) = expected {
        items.push(LegendItem { label: e.label.clone(), color: palette::MUTED, swatch: Swatch::Dashed });
    }
    if !sweep.is_empty() {
        items.push(LegendItem {
            label: c.sweep_label.clone(),
            color: palette::COMMUNICATION,
            swatch: Swatch::Line,
        });
    }

    let h = (t.w() * 0.66).max(340.0);
    let top0 = canvas::title_bottom(&t, &c.title);
    let legend_h = canvas::legend(None, &t, &items, t.pad, top0, t.w() - 2.0 * t.pad);
    let probe = Scale::new(ylo, yhi, 0.0, 1.0, true);
    let yt = canvas::log10_ticks(&probe, canvas::num);
    let mut plot = Plot {
        left: canvas::y_gutter(&t, &yt),
        top: top0 + legend_h + 8.0,
        right: t.w() - t.pad * 1.5,
        bottom: h - t.font * 3.2,
    };
    plot.top = plot.top.min(plot.bottom - 80.0);
    let xs = Scale::new(xlo, xhi, plot.left, plot.right, true);
    let ys = Scale::new(ylo, yhi, plot.bottom, plot.top, true);
    let xt = canvas::thin_ticks(canvas::log10_ticks(&xs, canvas::num), &xs, t.font, true);
    let yt = canvas::thin_ticks(yt, &ys, t.font, false);
    let at = |i: f64, f: f64| (xs.map(i), ys.map(f));

    canvas::render(&t, h, &c.title, |a| {
        canvas::draw_title(a, &t, &c.title);
        canvas::legend(Some(a), &t, &items, t.pad, top0, t.w() - 2.0 * t.pad);
        canvas::draw_axes(a, &t, &plot, (&xs, &xt, &c.x_label), (&ys, &yt, &c.y_label));

        // Roof: slope from the left edge to the ridge, flat from the ridge to the right edge.
        let r = ridge.clamp(xlo, xhi);
        canvas::line(a, &[at(xlo, roof(xlo)), at(r, roof(r))], palette::MEMORY, 3, false);
        canvas::line(a, &[at(r, roof(r)), at(xhi, roof(xhi))], palette::COMPUTE, 3, false);
        if let Some((_, fe, be)) = expected {
            let (ep, eb) = (peak * fe, bw * be);
            let er = (ep / eb).clamp(xlo, xhi);
            canvas::line(
                a,
                &[at(xlo, eb * xlo), at(er, ep.min(eb * er)), at(xhi, ep.min(eb * xhi))],
                palette::MUTED,
                2,
                true,
            );
        }
        // Ridge point: dashed drop line, ring, label.
        let (rx, ry) = at(r, roof(r));
        canvas::line(a, &[(rx, ry), (rx, plot.bottom)], palette::AXIS, 1, true);
        canvas::ring(a, (rx, ry), 5, palette::TEXT);
        // Label at the foot of the drop line, in the empty compute-bound area below the roof.
        let ridge_text = format!("{} {} FLOP/B", c.ridge_label.trim(), canvas::num(ridge)).trim().to_string();
        let right_room = plot.right - rx;
        let anchor = if right_room > canvas::text_width(&ridge_text, t.small) + 10.0 {
            Anchor::Start
        } else {
            Anchor::End
        };
        let dx = if anchor == Anchor::Start { 6.0 } else { -6.0 };
        canvas::text(
            a,
            &ridge_text,
            (rx + dx, plot.bottom - t.small * 1.1),
            t.small,
            palette::TEXT,
            anchor,
            true,
        );

        // Sweep path with labels at least 36 px apart (first and last always).
        if !sweep.is_empty() {
            let path: Vec<_> =
                sweep.iter().map(|p| at(p.intensity, p.flops_per_s.min(roof(p.intensity)))).collect();
            canvas::line(a, &path, palette::COMMUNICATION, 2, false);
            let mut last_x = f64::NEG_INFINITY;
            for (i, (p, q)) in sweep.iter().zip(&path).enumerate() {
                canvas::dot(a, *q, 3, palette::COMMUNICATION);
                let is_end = i + 1 == path.len();
                let room_after = path.last().is_none_or(|l| l.0 - q.0 >= 36.0);
                if i == 0 || is_end || (q.0 - last_x >= 36.0 && room_after) {
                    canvas::text(
                        a,
                        &p.label,
                        (q.0 + 4.0, q.1 + t.small * 1.2),
                        t.small,
                        palette::COMMUNICATION,
                        Anchor::Start,
                        false,
                    );
                    last_x = q.0;
                }
            }
        }
        // Named points: dots above the roof are pulled down onto it (impossible there).
        // Right edge of the last label put below a point: a compute-bound label that would
        // overlap it goes above its point instead (two kernels close together on the flat roof).
        let mut below_right = f64::NEG_INFINITY;
        for p in &pts {
            let f = p.flops_per_s.min(roof(p.intensity));
            let q = at(p.intensity, f);
            canvas::dot(a, q, 5, palette::TEXT);
            // Memory-bound: above-left of the point (empty, above the slope). Compute-bound:
            // below it, kept inside the plot.
            let w = canvas::text_width(&p.label, t.font);
            if p.intensity < ridge && q.0 - w - 8.0 > plot.left {
                canvas::text(
                    a,
                    &p.label,
                    (q.0 - 8.0, q.1 - t.font * 0.9),
                    t.font,
                    palette::TEXT,
                    Anchor::End,
                    true,
                );
            } else {
                let x = q.0.min(plot.right - w / 2.0 - 2.0).max(plot.left + w / 2.0 + 2.0); // never clamp(): a wide label makes min > max
                let above = x - w / 2.0 < below_right + 6.0;
                if !above {
                    below_right = x + w / 2.0;
                }
                canvas::text(
                    a,
                    &p.label,
                    (x, if above { q.1 - t.font * 1.1 } else { q.1 + t.font * 1.3 }),
                    t.font,
                    palette::TEXT,
                    Anchor::Middle,
                    true,
                );
            }
        }
    })
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::charts::test_util::*;

    pub(crate) fn sample() -> RooflineChart {
        let (peak, bw) = (989.5e12, 3.35e12);
        RooflineChart {
            title: "H100 SXM BF16 屋顶线".into(),
            x_label: "算术强度 (FLOP/byte)".into(),
            y_label: "可达 FLOP/s".into(),
            peak_flops_per_s: peak,
            bandwidth_bytes_per_s: bw,
            memory_roof_label: "显存带宽受限".into(),
            compute_roof_label: "算力受限".into(),
            ridge_label: "拐点".into(),
            expected: Some(ExpectedRoof {
                label: "预期 (70% / 80%)".into(),
                flops_efficiency: 0.7,
                bandwidth_efficiency: 0.8,
            }),
            points: vec![
                RooflinePoint { label: "prefill".into(), intensity: 2000.0, flops_per_s: 0.6 * peak },
                RooflinePoint { label: "decode".into(), intensity: 1.0, flops_per_s: 0.8 * bw },
            ],
            sweep_label: "decode, batch 1…1024".into(),
            sweep: [1u32, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024]
                .iter()
                .map(|&b| {
                    let i = f64::from(b) * 0.98;
                    RooflinePoint { label: b.to_string(), intensity: i, flops_per_s: 0.75 * peak.min(bw * i) }
                })
                .collect(),
            no_data: "无数据".into(),
        }
    }

    #[test]
    fn draws_roof_ridge_points_and_sweep() {
        let c = sample();
        let svg = roofline_svg(&c, 640);
        assert_valid(&svg, "H100 SXM BF16 屋顶线");
        for l in [
            "显存带宽受限",
            "算力受限",
            "算术强度 (FLOP/byte)",
            "可达 FLOP/s",
            "prefill",
            "decode",
            "拐点 295 FLOP/B",
            "1024",
        ] {
            assert!(svg.contains(l), "missing {l}");
        }
        // Two roof parts (solid, 3 px), expected roof + ridge drop line dashed (+ legend swatch).
        assert_eq!(count(&svg, "stroke-width=\"3\""), 2 + 3, "roof parts + legend swatches");
        assert_eq!(count(&svg, "stroke-dasharray"), 3);
        // 11 sweep dots (r=3), 2 named points (r=5, filled) and the ridge ring.
        assert_eq!(count(&svg, "r=\"3\""), 11);
        assert_eq!(count(&svg, "r=\"5\""), 3);
        let phone = roofline_svg(&c, 360);
        assert_valid(&phone, "H100 SXM BF16 屋顶线");
        assert!(phone.contains("viewBox=\"0 0 360 "));
    }

    #[test]
    fn points_above_the_roof_are_drawn_on_it() {
        let mut c = sample();
        c.sweep.clear();
        c.expected = None;
        c.points = vec![RooflinePoint { label: "impossible".into(), intensity: 1.0, flops_per_s: 1e30 }];
        let svg = roofline_svg(&c, 640);
        assert_valid(&svg, &c.title);
        assert!(svg.contains("impossible"));
    }

    #[test]
    fn degenerate_inputs_give_valid_svg() {
        for (peak, bw) in
            [(0.0, 1.0), (1.0, 0.0), (f64::NAN, 1.0), (f64::INFINITY, 1.0), (-1.0, -1.0), (1e300, 1e-300)]
        {
            let mut c = sample();
            c.peak_flops_per_s = peak;
            c.bandwidth_bytes_per_s = bw;
            let svg = roofline_svg(&c, 640);
            assert_valid(&svg, &c.title);
            assert!(svg.contains("无数据"), "{peak} {bw}");
        }
        let mut c = sample();
        c.points.push(RooflinePoint { label: "nan".into(), intensity: f64::NAN, flops_per_s: 1.0 });
        c.sweep = vec![RooflinePoint { label: "0".into(), intensity: 0.0, flops_per_s: 0.0 }];
        c.expected = Some(ExpectedRoof {
            label: "e".into(),
            flops_efficiency: f64::INFINITY,
            bandwidth_efficiency: -1.0,
        });
        assert_valid(&roofline_svg(&c, 0), &c.title);
        c.peak_flops_per_s = 1e-30;
        c.bandwidth_bytes_per_s = 1e30;
        assert_valid(&roofline_svg(&c, u32::MAX), &c.title);
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(256))]
        #[test]
        fn never_panics(peak in proptest::num::f64::ANY, bw in proptest::num::f64::ANY, i in proptest::num::f64::ANY, f in proptest::num::f64::ANY, w in 0u32..3000) {
            let mut c = sample();
            c.peak_flops_per_s = peak;
            c.bandwidth_bytes_per_s = bw;
            c.points.push(RooflinePoint { label: "p".into(), intensity: i, flops_per_s: f });
            assert_valid(&roofline_svg(&c, w), &c.title);
        }
    }
}
