//! The memory hierarchy as a pyramid: registers at the top (smallest, fastest), then shared
//! memory / L1, L2 and HBM at the base, each with its size and bandwidth as the caller words
//! them (approximate figures say so in their own text).

use super::draw::{At, Svg, ACCENT, BOX, INK, MUTED};

/// One level, all text in the page's language.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct HierarchyLevel {
    pub name: String,
    pub size: String,
    pub bandwidth: String,
}

#[derive(Clone, Debug, Default, PartialEq)]
pub struct MemoryHierarchyFigure {
    pub title: String,
    /// Fastest first.
    pub levels: Vec<HierarchyLevel>,
    /// Labels of the two ends of the side arrow, e.g. "faster, smaller" / "larger, slower".
    pub faster: String,
    pub larger: String,
}

const W: f64 = 440.0;
const ROW: f64 = 62.0;
const GAP: f64 = 8.0;
const TOP: f64 = 26.0;

/// The pyramid as an SVG string.
pub fn memory_hierarchy_svg(f: &MemoryHierarchyFigure) -> String {
    let n = f.levels.len().max(1) as f64;
    let h = TOP + n * (ROW + GAP) + 20.0;
    let mut s = Svg::new(W, h, &f.title);
    let (left, right) = (44.0, W - 6.0);
    let (narrow, wide) = (300.0, right - left);
    let mid = (left + right) / 2.0;
    for (i, level) in f.levels.iter().enumerate() {
        let t = if n > 1.0 { i as f64 / (n - 1.0) } else { 1.0 };
        let w = narrow + (wide - narrow) * t;
        let y = TOP + i as f64 * (ROW + GAP);
        let class = if i + 1 == f.levels.len() { ACCENT } else { BOX };
        s.rect(mid - w / 2.0, y, w, ROW, class, "");
        s.text(mid, y + 19.0, 14.0, At::Middle, INK, &level.name);
        s.text(mid, y + 37.0, 12.5, At::Middle, INK, &level.size);
        s.text(mid, y + 54.0, 12.0, At::Middle, MUTED, &level.bandwidth);
    }
    let bottom = TOP + n * (ROW + GAP) - GAP;
    s.arrow(16.0, bottom, 16.0, TOP);
    s.text(6.0, TOP - 10.0, 12.0, At::Start, MUTED, &f.faster);
    s.text(6.0, bottom + 16.0, 12.0, At::Start, MUTED, &f.larger);
    s.finish()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> MemoryHierarchyFigure {
        let level = |n: &str, sz: &str, bw: &str| HierarchyLevel {
            name: n.into(),
            size: sz.into(),
            bandwidth: bw.into(),
        };
        MemoryHierarchyFigure {
            title: "Memory hierarchy of H100 SXM".into(),
            levels: vec![
                level("Registers", "33 MiB", "not published"),
                level("Shared memory / L1", "33 MiB", "≈ 33.5 TB/s (estimate)"),
                level("L2 cache", "50 MiB", "not published"),
                level("HBM3 <main>", "80 GB", "3.35 TB/s"),
            ],
            faster: "faster, smaller".into(),
            larger: "larger, slower".into(),
        }
    }

    #[test]
    fn every_level_is_drawn_fastest_on_top() {
        let svg = memory_hierarchy_svg(&sample());
        let at = |s: &str| svg.find(s).unwrap_or_else(|| panic!("{s} missing"));
        assert!(at("Registers") < at("Shared memory / L1") && at("L2 cache") < at("HBM3"));
        assert!(svg.contains("≈ 33.5 TB/s (estimate)") && svg.contains("3.35 TB/s"));
        assert!(svg.contains("HBM3 &lt;main&gt;"), "escaped");
        assert_eq!(svg.matches("<rect").count(), 4);
        assert!(svg.contains("aria-label=\"Memory hierarchy of H100 SXM\""));
    }

    #[test]
    fn no_levels_still_gives_a_valid_svg() {
        let svg = memory_hierarchy_svg(&MemoryHierarchyFigure::default());
        assert!(svg.starts_with("<svg") && svg.ends_with("</svg>") && !svg.contains("NaN"));
    }
}
