//! One stacked horizontal bar per GPU (or pipeline stage) of its memory: weights, KV cache,
//! activations, gradients, optimizer states and overhead, in the palette's component colours,
//! with the free headroom up to capacity in a pale fill. A solid line marks the GPU's
//! capacity and a dashed one the usable memory after the safety margin. Whatever lies past
//! capacity is drawn in the warning colour and labelled with how much does not fit.

use super::canvas::{self, Anchor, LegendItem, Plot, Scale, Swatch, Theme};
use super::format::{format_bytes, format_bytes_f64, ByteUnit};
use super::palette;
use crate::engine::report::Memory;

/// Names of the components, in the page's language.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct MemoryLabels {
    pub weights: String,
    pub kv_cache: String,
    pub activations: String,
    pub logits: String,
    pub gradients: String,
    pub optimizer: String,
    pub overhead: String,
    /// Fixed-size state of hybrid models' linear-attention / Mamba layers.
    pub recurrent_state: String,
    /// A low-precision recipe's quantised weight copies.
    pub fp8_weight_cache: String,
    /// FSDP's unsharded layers and gradient buffer.
    pub fsdp_buffers: String,
    /// The allocator's reserve.
    pub allocator_reserve: String,
    pub headroom: String,
    /// Capacity line, e.g. "80 GB HBM3" → the chart writes "{capacity} 80 GB".
    pub capacity: String,
    /// Usable line (after the safety margin).
    pub usable: String,
    /// Prefix of the overflow amount, e.g. "over by" / "超出".
    pub overflow: String,
}

/// One bar: a label plus one GPU's bytes per component (the engine's breakdown, as the
/// report's `memory_per_gpu_bytes`; the bar sums the components, not `total`).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct MemoryRow {
    /// E.g. "GPU 0" or "stage 3"; may be empty for a single bar.
    pub label: String,
    pub memory: Memory,
}

#[derive(Clone, Debug, Default, PartialEq)]
pub struct MemoryBarChart {
    pub title: String,
    pub labels: MemoryLabels,
    pub unit: ByteUnit,
    pub rows: Vec<MemoryRow>,
    pub capacity_bytes: u64,
    /// Capacity minus the safety margin (0: no usable line).
    pub usable_bytes: u64,
    pub no_data: String,
}

const COLORS: [&str; 11] = [
    palette::WEIGHTS,
    palette::KV_CACHE,
    palette::ACTIVATIONS,
    palette::LOGITS,
    palette::GRADIENTS,
    palette::OPTIMIZER,
    palette::MEMORY_OVERHEAD,
    palette::RECURRENT_STATE,
    palette::FP8_WEIGHT_CACHE,
    palette::FSDP_BUFFERS,
    palette::ALLOCATOR_RESERVE,
];

fn parts(r: &MemoryRow) -> [u64; 11] {
    let m = &r.memory;
    [
        m.weights,
        m.kv_cache,
        m.activations,
        m.logits,
        m.gradients,
        m.optimizer,
        m.overhead,
        m.recurrent_state,
        m.fp8_weight_cache,
        m.fsdp_buffers,
        m.allocator_reserve,
    ]
}

/// The memory bars as an SVG string `width` px wide (see the module doc).
pub fn memory_bar_svg(c: &MemoryBarChart, width: u32) -> String {
    let t = Theme::new(width);
    let total = |r: &MemoryRow| parts(r).iter().map(|&b| b as f64).sum::<f64>();
    let tmax = c.rows.iter().map(total).fold(0.0, f64::max);
    let cap = c.capacity_bytes as f64;
    if c.rows.is_empty() || (tmax <= 0.0 && cap <= 0.0) {
        return canvas::no_data(&t, &c.title, &c.no_data);
    }
    let l = &c.labels;
    let names = [
        &l.weights,
        &l.kv_cache,
        &l.activations,
        &l.logits,
        &l.gradients,
        &l.optimizer,
        &l.overhead,
        &l.recurrent_state,
        &l.fp8_weight_cache,
        &l.fsdp_buffers,
        &l.allocator_reserve,
    ];
    let mut items: Vec<LegendItem> = (0..11)
        .filter(|&i| c.rows.iter().any(|r| parts(r)[i] > 0))
        .map(|i| LegendItem { label: names[i].clone(), color: COLORS[i], swatch: Swatch::Box })
        .collect();
    if cap > 0.0 && c.rows.iter().any(|r| total(r) < cap) {
        items.push(LegendItem { label: l.headroom.clone(), color: palette::HEADROOM, swatch: Swatch::Box });
    }
    if cap > 0.0 && tmax > cap {
        items.push(LegendItem { label: l.overflow.clone(), color: palette::WARNING, swatch: Swatch::Box });
    }

    let top0 = canvas::title_bottom(&t, &c.title);
    let legend_h = canvas::legend(None, &t, &items, t.pad, top0, t.w() - 2.0 * t.pad);
    let label_w =
        c.rows.iter().map(|r| canvas::text_width(&r.label, t.font)).fold(0.0, f64::max).min(t.w() * 0.25);
    let left = t.pad + if label_w > 0.0 { label_w + 10.0 } else { 0.0 };
    let bar_h = t.font * 2.0;
    let top = top0 + legend_h + t.font * 2.6; // room for the capacity / usable labels
    let plot =
        Plot { left, top, right: t.w() - t.pad * 1.5, bottom: top + c.rows.len() as f64 * (bar_h + 10.0) };
    let h = plot.bottom + t.font * 2.2 + t.pad;
    let xs = Scale::new(0.0, tmax.max(cap) * 1.06, plot.left, plot.right, false);
    let step = c.unit.step();
    let ticks = canvas::linear_ticks(&Scale::new(0.0, xs.hi / step.powi(3), 0.0, 1.0, false), 5, |v| {
        format_bytes_f64(v * step.powi(3), c.unit)
    });
    let ticks: Vec<(f64, String)> = ticks.into_iter().map(|(v, s)| (v * step.powi(3), s)).collect();
    let ticks = canvas::thin_ticks(ticks, &xs, t.font, true);

    canvas::render(&t, h, &c.title, |a| {
        canvas::draw_title(a, &t, &c.title);
        canvas::legend(Some(a), &t, &items, t.pad, top0, t.w() - 2.0 * t.pad);
        canvas::draw_axes(a, &t, &plot, (&xs, &ticks, ""), (&xs, &[], ""));
        for (k, r) in c.rows.iter().enumerate() {
            let y = plot.top + 5.0 + k as f64 * (bar_h + 10.0);
            let label = canvas::fit(&r.label, t.font, label_w);
            canvas::text(
                a,
                &label,
                (plot.left - 8.0, y + bar_h / 2.0),
                t.font,
                palette::TEXT,
                Anchor::End,
                false,
            );
            let mut acc = 0.0;
            for (i, &b) in parts(r).iter().enumerate() {
                let (s, e) = (acc, acc + b as f64);
                acc = e;
                if b == 0 {
                    continue;
                }
                // The part below capacity in the component colour, the rest in the warning colour.
                let below = if cap > 0.0 { e.min(cap) } else { e };
                if below > s {
                    canvas::rect(a, xs.map(s), y, xs.map(below), y + bar_h, COLORS[i], 1.0);
                }
            }
            if cap > 0.0 && acc < cap {
                canvas::rect(a, xs.map(acc), y, xs.map(cap), y + bar_h, palette::HEADROOM, 1.0);
            } else if cap > 0.0 && acc > cap {
                canvas::rect(a, xs.map(cap), y, xs.map(acc), y + bar_h, palette::WARNING, 1.0);
                let over = format!("{} {}", l.overflow.trim(), format_bytes_f64(acc - cap, c.unit))
                    .trim()
                    .to_string();
                // Inside the red segment when it is wide enough, else right of the bar's end.
                let (x_cap, x_end) = (xs.map(cap), xs.map(acc));
                if x_end - x_cap > canvas::text_width(&over, t.small) + 10.0 {
                    canvas::text(
                        a,
                        &over,
                        (x_end - 5.0, y + bar_h / 2.0),
                        t.small,
                        palette::BACKGROUND,
                        Anchor::End,
                        true,
                    );
                } else {
                    canvas::text(
                        a,
                        &over,
                        (x_cap + 4.0, y + bar_h + t.small * 0.6),
                        t.small,
                        palette::WARNING,
                        Anchor::Start,
                        true,
                    );
                }
            }
        }
        // Capacity (solid) and usable (dashed) lines with labels above the bars.
        let mark = |bytes: u64, label: &str, dashed: bool, row: f64| {
            if bytes == 0 {
                return;
            }
            let x = xs.map(bytes as f64);
            canvas::line(
                a,
                &[(x, plot.top - 4.0 - row * t.font * 1.25), (x, plot.bottom)],
                palette::TEXT,
                2,
                dashed,
            );
            let text = format!("{} {}", label.trim(), format_bytes(bytes, c.unit)).trim().to_string();
            let w = canvas::text_width(&text, t.small);
            let (anchor, dx) =
                if x + w + 6.0 < t.w() - t.pad { (Anchor::Start, 4.0) } else { (Anchor::End, -4.0) };
            canvas::text(
                a,
                &text,
                (x + dx, plot.top - 4.0 - row * t.font * 1.25 + t.small * 0.2),
                t.small,
                palette::TEXT,
                anchor,
                !dashed,
            );
        };
        mark(c.capacity_bytes, &l.capacity, false, 1.0);
        if c.usable_bytes > 0 && c.usable_bytes < c.capacity_bytes {
            mark(c.usable_bytes, &l.usable, true, 0.0);
        }
    })
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::charts::test_util::*;

    pub(crate) fn sample() -> MemoryBarChart {
        MemoryBarChart {
            title: "每卡显存 (Llama 3 70B, BF16)".into(),
            labels: MemoryLabels {
                weights: "权重".into(),
                kv_cache: "KV 缓存".into(),
                activations: "激活".into(),
                logits: "logits".into(),
                gradients: "梯度".into(),
                optimizer: "优化器".into(),
                overhead: "开销".into(),
                recurrent_state: "循环状态".into(),
                fp8_weight_cache: "FP8 权重缓存".into(),
                fsdp_buffers: "FSDP 缓冲".into(),
                allocator_reserve: "分配器预留".into(),
                headroom: "余量".into(),
                capacity: "显存".into(),
                usable: "可用".into(),
                overflow: "超出".into(),
            },
            unit: ByteUnit::Gb,
            rows: vec![
                MemoryRow {
                    label: "TP=2".into(),
                    memory: Memory {
                        weights: 70_600_000_000,
                        kv_cache: 5_000_000_000,
                        activations: 1_200_000_000,
                        overhead: 2_000_000_000,
                        ..Default::default()
                    },
                },
                MemoryRow {
                    label: "TP=1".into(),
                    memory: Memory {
                        weights: 141_100_000_000,
                        kv_cache: 10_700_000_000,
                        activations: 1_200_000_000,
                        overhead: 2_000_000_000,
                        ..Default::default()
                    },
                },
            ],
            capacity_bytes: 80_000_000_000,
            usable_bytes: 72_000_000_000,
            no_data: "无数据".into(),
        }
    }

    #[test]
    fn draws_stacks_capacity_usable_and_overflow() {
        let c = sample();
        let svg = memory_bar_svg(&c, 640);
        assert_valid(&svg, &c.title);
        for l in ["权重", "KV 缓存", "激活", "开销", "显存 80 GB", "可用 72 GB", "超出 75 GB", "TP=1", "TP=2"]
        {
            assert!(svg.contains(l), "missing {l}");
        }
        assert!(!svg.contains("梯度"), "zero components stay out of the legend");
        // Weights: a segment per row + legend swatch. TP=1 (155 GB) overflows: warning rect
        // (its label inside it, in white) and the swatch. TP=2 (78.8 GB) fits but is past usable: headroom + swatch.
        assert_eq!(count(&svg, &format!("fill=\"{}\"", palette::WEIGHTS)), 3);
        assert_eq!(count(&svg, &format!("fill=\"{}\"", palette::WARNING)), 2);
        assert_eq!(count(&svg, &format!("fill=\"{}\"", palette::HEADROOM)), 2);
        assert_eq!(count(&svg, "stroke-dasharray"), 1);
        assert_valid(&memory_bar_svg(&c, 360), &c.title);
    }

    #[test]
    fn headroom_when_it_fits() {
        let mut c = sample();
        c.rows.truncate(1);
        c.rows[0].memory.weights = 35_300_000_000;
        let svg = memory_bar_svg(&c, 640);
        assert_valid(&svg, &c.title);
        assert!(svg.contains("余量") && !svg.contains("超出"));
        assert_eq!(count(&svg, &format!("fill=\"{}\"", palette::HEADROOM)), 2);
    }

    #[test]
    fn degenerate_inputs_give_valid_svg() {
        let mut c = sample();
        c.rows.clear();
        assert!(memory_bar_svg(&c, 640).contains("无数据"));
        let mut c = sample();
        c.rows = vec![MemoryRow::default()];
        c.capacity_bytes = 0;
        assert!(memory_bar_svg(&c, 640).contains("无数据"));
        let memory = Memory { weights: u64::MAX, kv_cache: u64::MAX, ..Default::default() };
        c.rows = vec![MemoryRow { memory, ..Default::default() }];
        c.usable_bytes = u64::MAX;
        assert_valid(&memory_bar_svg(&c, 0), &c.title);
        c.capacity_bytes = 1;
        c.unit = ByteUnit::Gib;
        assert_valid(&memory_bar_svg(&c, 5000), &c.title);
    }
}
