//! The few drawing primitives every figure shares: an SVG root with its accessible name, boxes,
//! text (always escaped), lines and arrows, and word wrapping. Colours are CSS classes from the
//! figure section of `assets/style.css` (theme variables, so dark mode works), never fills.

use crate::charts::canvas::{escape, text_width};
use std::fmt::Write as _;

/// Text ink, secondary ink, a neutral box, the accent box, a connector line, an arrow head.
pub(crate) const INK: &str = "fig-ink";
pub(crate) const MUTED: &str = "fig-muted";
pub(crate) const BOX: &str = "fig-box";
pub(crate) const ACCENT: &str = "fig-accent";
pub(crate) const LINE: &str = "fig-line";

/// Tone `i` (cycles through six colour-blind-safe hues), as a fill + stroke class.
pub(crate) fn tone(i: usize) -> &'static str {
    ["fig-t0", "fig-t1", "fig-t2", "fig-t3", "fig-t4", "fig-t5"][i % 6]
}

/// A text anchor.
#[derive(Clone, Copy, Debug)]
pub(crate) enum At {
    Start,
    Middle,
}

impl At {
    fn name(self) -> &'static str {
        match self {
            At::Start => "start",
            At::Middle => "middle",
        }
    }
}

/// An SVG being written.
#[derive(Debug)]
pub(crate) struct Svg {
    out: String,
}

impl Svg {
    /// A responsive root `w × h` (viewBox units) named `label` for assistive technology.
    pub fn new(w: f64, h: f64, label: &str) -> Svg {
        let label = escape(label);
        Svg {
            out: format!(
                "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 {w:.0} {h:.0}\" width=\"100%\" class=\"fig-svg\" role=\"img\" aria-label=\"{label}\" font-family=\"sans-serif\"><title>{label}</title>"
            ),
        }
    }

    /// A box with rounded corners in class `class` (extra attributes, e.g. `fill-opacity`, in `extra`).
    pub fn rect(&mut self, x: f64, y: f64, w: f64, h: f64, class: &str, extra: &str) {
        let _ = write!(
            self.out,
            "<rect x=\"{x:.1}\" y=\"{y:.1}\" width=\"{:.1}\" height=\"{:.1}\" rx=\"4\" class=\"{class}\"{extra}/>",
            w.max(0.0),
            h.max(0.0)
        );
    }

    /// One line of text with its baseline at `y`.
    pub fn text(&mut self, x: f64, y: f64, size: f64, at: At, class: &str, s: &str) {
        let _ = write!(
            self.out,
            "<text x=\"{x:.1}\" y=\"{y:.1}\" font-size=\"{size}\" text-anchor=\"{}\" class=\"{class}\">{}</text>",
            at.name(),
            escape(s)
        );
    }

    /// Several lines, the first baseline at `y`, 1.25 × `size` apart.
    pub fn lines(&mut self, x: f64, y: f64, size: f64, at: At, class: &str, lines: &[String]) {
        for (i, l) in lines.iter().enumerate() {
            self.text(x, y + size * 1.25 * i as f64, size, at, class, l);
        }
    }

    /// Text centred in a box: the lines of `s` wrapped to the box width, centred vertically.
    pub fn boxed_text(&mut self, (x, y, w, h): (f64, f64, f64, f64), size: f64, class: &str, s: &str) {
        let lines = wrap(s, size, w - 8.0);
        let block = size * 1.25 * (lines.len() as f64 - 1.0);
        self.lines(x + w / 2.0, y + h / 2.0 - block / 2.0 + size * 0.35, size, At::Middle, class, &lines);
    }

    /// Text centred at `x` on a plate of the page's background, readable over lines.
    pub fn plate(&mut self, x: f64, y: f64, size: f64, class: &str, s: &str) {
        let w = text_width(s, size) + 8.0;
        self.rect(x - w / 2.0, y - size, w, size * 1.45, "fig-plate", "");
        self.text(x, y, size, At::Middle, class, s);
    }

    pub fn line(&mut self, x1: f64, y1: f64, x2: f64, y2: f64, class: &str) {
        let _ = write!(
            self.out,
            "<line x1=\"{x1:.1}\" y1=\"{y1:.1}\" x2=\"{x2:.1}\" y2=\"{y2:.1}\" class=\"{class}\"/>"
        );
    }

    /// A line from (x1, y1) with an arrow head at (x2, y2).
    pub fn arrow(&mut self, x1: f64, y1: f64, x2: f64, y2: f64) {
        self.line(x1, y1, x2, y2, LINE);
        let (dx, dy) = (x2 - x1, y2 - y1);
        let len = (dx * dx + dy * dy).sqrt();
        if len < 1e-6 {
            return;
        }
        let (ux, uy) = (dx / len, dy / len);
        let (bx, by) = (x2 - ux * 8.0, y2 - uy * 8.0);
        let _ = write!(
            self.out,
            "<path d=\"M{x2:.1} {y2:.1}L{:.1} {:.1}L{:.1} {:.1}Z\" class=\"fig-head\"/>",
            bx - uy * 4.0,
            by + ux * 4.0,
            bx + uy * 4.0,
            by - ux * 4.0
        );
    }

    pub fn finish(mut self) -> String {
        self.out.push_str("</svg>");
        self.out
    }
}

/// `s` broken into lines no wider than `max` px at `size`: at spaces where there are any, and
/// between any two CJK characters.
pub(crate) fn wrap(s: &str, size: f64, max: f64) -> Vec<String> {
    let mut lines: Vec<String> = Vec::new();
    let mut line = String::new();
    // Pieces: a word with its following space, or one CJK character.
    let mut pieces: Vec<String> = Vec::new();
    let mut word = String::new();
    for c in s.chars() {
        if (c as u32) >= 0x2E80 && !matches!(c, '（' | '）' | '，' | '。' | '、' | '？' | '：') {
            if !word.is_empty() {
                pieces.push(std::mem::take(&mut word));
            }
            pieces.push(c.to_string());
        } else {
            word.push(c);
            if c == ' ' || (c as u32) >= 0x2E80 {
                pieces.push(std::mem::take(&mut word));
            }
        }
    }
    if !word.is_empty() {
        pieces.push(word);
    }
    for p in pieces {
        if !line.is_empty() && text_width(line.trim_end(), size) + text_width(p.trim_end(), size) > max {
            lines.push(line.trim_end().to_string());
            line.clear();
        }
        line.push_str(&p);
    }
    if !line.trim().is_empty() || lines.is_empty() {
        lines.push(line.trim_end().to_string());
    }
    lines
}

/// Replaces each `{name}` in `template` by its value (the i18n strings of the figures are
/// templates, so each language puts the numbers where its grammar wants them).
pub fn fill(template: &str, values: &[(&str, &str)]) -> String {
    let mut out = template.to_string();
    for (name, value) in values {
        out = out.replace(&format!("{{{name}}}"), value);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn root_is_accessible_and_text_escaped() {
        let mut s = Svg::new(100.0, 50.0, "a <b> & \"c\"");
        s.text(1.0, 2.0, 12.0, At::Middle, INK, "<script>");
        let out = s.finish();
        assert!(out.starts_with("<svg") && out.ends_with("</svg>"));
        assert!(
            out.contains("role=\"img\"") && out.contains("aria-label=\"a &lt;b&gt; &amp; &quot;c&quot;\"")
        );
        assert!(!out.contains("<script>") && out.contains("&lt;script&gt;"));
        assert!(!out.contains("style="), "no inline styles (CSP)");
    }

    #[test]
    fn wrapping_breaks_at_spaces_and_between_cjk() {
        assert_eq!(wrap("one two three", 10.0, 45.0), vec!["one two", "three"]);
        let zh = wrap("显存带宽决定解码速度", 10.0, 42.0);
        assert!(zh.len() >= 2 && zh.iter().all(|l| text_width(l, 10.0) <= 42.0), "{zh:?}");
        assert_eq!(zh.concat(), "显存带宽决定解码速度");
        assert_eq!(wrap("", 10.0, 40.0), vec![String::new()]);
    }

    #[test]
    fn templates_fill() {
        assert_eq!(fill("{n} of {t}", &[("n", "2"), ("t", "6")]), "2 of 6");
    }
}
