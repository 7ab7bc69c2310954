//! Shared drawing for all charts: the SVG wrapper (responsive root, title, accessibility),
//! scales, ticks, axes and legends, on top of plotters' SVG backend.
//!
//! Text is never measured through plotters' font backend (which on wasm32 appends spans to
//! the document, and natively is a crude guess): every label is drawn as a plain `<text>`
//! with an anchor, and layout uses [`text_width`], a conservative per-character estimate
//! that counts CJK as one em. The same SVG therefore comes out natively and in the browser.

use super::format::format_sig3;
use super::palette::{self, rgb};
use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

pub(crate) type Area<'a> = DrawingArea<SVGBackend<'a>, Shift>;

/// Alpha that marks a stroke as dashed; [`finish`] turns it into `stroke-dasharray`.
const DASH_ALPHA: f64 = 0.997;
const DASH_ATTR: &str = "opacity=\"0.997\"";

/// Font sizes and margins for one chart width.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Theme {
    pub width: u32,
    /// Tick labels, legend, annotations (px).
    pub font: f64,
    pub small: f64,
    pub title: f64,
    pub pad: f64,
}

impl Theme {
    /// `width` is clamped to 240..=2000; narrow charts get slightly smaller fonts, which the
    /// viewBox then shows at about their nominal size on a phone.
    pub fn new(width: u32) -> Self {
        let width = width.clamp(240, 2000);
        let narrow = width < 480;
        Theme {
            width,
            font: if narrow { 11.5 } else { 13.0 },
            small: if narrow { 10.5 } else { 11.5 },
            title: if narrow { 14.0 } else { 16.0 },
            pad: if narrow { 8.0 } else { 12.0 },
        }
    }
    pub fn w(&self) -> f64 {
        f64::from(self.width)
    }
}

/// Advance widths of ASCII 32..=126 in hundredths of an em, in DejaVu Sans (what `system-ui`
/// and `sans-serif` are on Linux, and wider than Segoe UI, San Francisco, Roboto or Noto Sans,
/// so an estimate from it errs on the wide side wherever the page is read). Measured in
/// Chromium with canvas `measureText`, rounded up.
const ASCII_EM: [u8; 95] = [
    32, 40, 46, 84, 64, 95, 78, 28, 39, 39, 50, 84, 32, 36, 32, 34, // ' ' to '/'
    64, 64, 64, 64, 64, 64, 64, 64, 64, 64, 34, 34, 84, 84, 84, 53, // '0' to '?'
    100, 69, 69, 70, 77, 64, 58, 78, 76, 30, 30, 66, 56, 87, 76, 79, // '@' to 'O'
    61, 79, 70, 64, 62, 74, 69, 99, 69, 62, 69, 39, 34, 39, 84, 50, // 'P' to '_'
    50, 62, 64, 56, 64, 62, 36, 64, 64, 28, 28, 58, 28, 98, 64, 62, // '`' to 'o'
    64, 64, 42, 53, 40, 64, 60, 82, 60, 60, 53, 64, 34, 64, 84, // 'p' to '~'
];

/// Estimated rendered width of `s` at `size` px in the page's sans-serif font, regular weight:
/// DejaVu Sans's widths for ASCII (see [`ASCII_EM`]), one em for CJK and full-width forms, and
/// 0.84 em for any other character (arrows, `·`, `×`, accented letters: no wider in DejaVu).
/// It errs on the wide side, so text laid out with it is not clipped.
pub(crate) fn text_width(s: &str, size: f64) -> f64 {
    let em: f64 = s
        .chars()
        .map(|c| match c {
            ' '..='~' => ASCII_EM.get((c as usize) - 32).map_or(1.0, |&w| f64::from(w) / 100.0),
            c if (c as u32) >= 0x2E80 => 1.0,
            _ => 0.84,
        })
        .sum();
    em * size
}

/// [`text_width`] in bold (DejaVu Sans Bold is at most 12 % wider, character for character).
pub(crate) fn bold_width(s: &str, size: f64) -> f64 {
    text_width(s, size) * 1.12
}

/// Shorten `s` with "…" to fit `max` px: the last resort for a name that cannot wrap (a
/// catalog or pasted model's name in a narrow column); the charts' own words wrap instead.
pub(crate) fn fit(s: &str, size: f64, max: f64) -> String {
    if text_width(s, size) <= max {
        return s.to_string();
    }
    let mut out = String::new();
    for c in s.chars() {
        out.push(c);
        if text_width(&out, size) + size > max {
            out.pop();
            break;
        }
    }
    out.push('…');
    out
}

/// `s` in lines no wider than `max` px at `size` (bold when `bold`): broken at spaces and
/// between CJK characters; a single word wider than `max` is shortened with "…" ([`fit`]).
pub(crate) fn wrap(s: &str, size: f64, max: f64, bold: bool) -> Vec<String> {
    let scale = if bold { 1.12 } else { 1.0 };
    super::figures::wrap(s.trim(), size * scale, max)
        .into_iter()
        .map(|l| if text_width(&l, size * scale) > max { fit(&l, size * scale, max) } else { l })
        .collect()
}

/// Render a chart: `draw` paints on a `theme.width × height` area; errors from plotters are
/// ignored (the SVG backend only fails on I/O, which a string never does).
pub(crate) fn render(theme: &Theme, height: f64, title: &str, draw: impl FnOnce(&Area<'_>)) -> String {
    let (w, h) = (theme.width, height.clamp(120.0, 4000.0) as u32);
    let mut buf = String::new();
    {
        let root = SVGBackend::with_string(&mut buf, (w, h)).into_drawing_area();
        let _ = root.fill(&rgb(palette::BACKGROUND));
        draw(&root);
        let _ = root.present();
    }
    finish(&buf, title, w, h)
}

/// A chart that says only `message` under its title (empty or unusable data).
pub(crate) fn no_data(theme: &Theme, title: &str, message: &str) -> String {
    let h = (theme.w() * 0.45).max(160.0);
    render(theme, h, title, |a| {
        draw_title(a, theme, title);
        let msg = if message.trim().is_empty() { "—" } else { message };
        text(a, msg, (theme.w() / 2.0, h / 2.0), theme.font, palette::MUTED, Anchor::Middle, false);
    })
}

pub(crate) fn escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '&' => out.push_str("&amp;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            c if (c as u32) < 0x20 && c != '\n' && c != '\t' => {}
            c => out.push(c),
        }
    }
    out
}

/// Replace plotters' fixed-size root with a responsive, accessible one and mark dashes.
fn finish(svg: &str, title: &str, w: u32, h: u32) -> String {
    let body = match (svg.find("<svg"), svg.rfind("</svg>")) {
        (Some(s), Some(e)) => match svg[s..].find('>') {
            Some(gt) if s + gt < e => &svg[s + gt + 1..e],
            _ => "",
        },
        _ => "",
    };
    let t = escape(title.trim());
    let mut out = String::with_capacity(body.len() + 400);
    out.push_str(&format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 {w} {h}\" width=\"100%\" \
         preserveAspectRatio=\"xMidYMid meet\" role=\"img\" aria-label=\"{t}\" \
         font-family=\"sans-serif\" class=\"plot\">\n<title>{t}</title>\n"
    ));
    out.push_str(&body.replace(DASH_ATTR, "opacity=\"1\" stroke-dasharray=\"6 4\""));
    out.push_str("</svg>\n");
    out.trim_end().to_string()
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Anchor {
    Start,
    Middle,
    End,
}

/// Text with its baseline-centre at `pos` (vertically centred on `pos.1`).
pub(crate) fn text(
    a: &Area<'_>,
    s: &str,
    pos: (f64, f64),
    size: f64,
    color: &str,
    anchor: Anchor,
    bold: bool,
) {
    text_styled(a, s, pos, size, color, anchor, bold, false);
}

/// Text rotated 270° (reading bottom to top), centred on `pos`.
pub(crate) fn text_vertical(a: &Area<'_>, s: &str, pos: (f64, f64), size: f64, color: &str) {
    text_styled(a, s, pos, size, color, Anchor::Middle, false, true);
}

#[allow(clippy::too_many_arguments)]
fn text_styled(
    a: &Area<'_>,
    s: &str,
    pos: (f64, f64),
    size: f64,
    color: &str,
    anchor: Anchor,
    bold: bool,
    vertical: bool,
) {
    if s.is_empty() {
        return;
    }
    let h = match anchor {
        Anchor::Start => HPos::Left,
        Anchor::Middle => HPos::Center,
        Anchor::End => HPos::Right,
    };
    // plotters writes font-size = size / 1.24 into the SVG.
    let mut font = (FontFamily::SansSerif, size * 1.24).into_font();
    if bold {
        font = font.style(FontStyle::Bold);
    }
    if vertical {
        font = font.transform(FontTransform::Rotate270);
    }
    let c = rgb(color);
    let style = TextStyle::from(font).color(&c).pos(Pos::new(h, VPos::Center));
    let _ = a.draw(&Text::new(s.to_string(), px(pos), style));
}

pub(crate) fn px(p: (f64, f64)) -> (i32, i32) {
    let c = |v: f64| if v.is_finite() { v.round().clamp(-1e6, 1e6) as i32 } else { 0 };
    (c(p.0), c(p.1))
}

/// A dashed vertical marker at `x` from `top` to `bottom` with its bold label beside it, on the
/// side with room (to the right unless the left has more and the label does not fit), wrapped
/// where neither side has room: the scaling chart's "communication dominates" and the
/// speculation chart's crossover.
pub(crate) fn marker(a: &Area<'_>, t: &Theme, x: f64, (top, bottom): (f64, f64), label: &str) {
    line(a, &[(x, top), (x, bottom)], palette::COMMUNICATION, 2, true);
    let (room_right, room_left) = (t.w() - 2.0 - x - 5.0, x - 5.0 - 2.0);
    let (anchor, dx, room) = if bold_width(label, t.small) <= room_right || room_right >= room_left {
        (Anchor::Start, 5.0, room_right)
    } else {
        (Anchor::End, -5.0, room_left)
    };
    for (k, row) in wrap(label, t.small, room, true).iter().enumerate() {
        let y = top + t.small + k as f64 * t.small * 1.25;
        text(a, row, (x + dx, y), t.small, palette::COMMUNICATION, anchor, true);
    }
}

pub(crate) fn line(a: &Area<'_>, pts: &[(f64, f64)], color: &str, width: u32, dashed: bool) {
    if pts.len() < 2 {
        return;
    }
    let c = rgb(color);
    let style = if dashed { c.mix(DASH_ALPHA).stroke_width(width) } else { c.stroke_width(width) };
    let _ = a.draw(&PathElement::new(pts.iter().map(|&p| px(p)).collect::<Vec<_>>(), style));
}

pub(crate) fn rect(a: &Area<'_>, x0: f64, y0: f64, x1: f64, y1: f64, color: &str, opacity: f64) {
    let (p0, p1) = (px((x0.min(x1), y0.min(y1))), px((x0.max(x1), y0.max(y1))));
    if p1.0 <= p0.0 || p1.1 <= p0.1 {
        return;
    }
    let _ = a.draw(&Rectangle::new([p0, p1], rgb(color).mix(opacity).filled()));
}

pub(crate) fn dot(a: &Area<'_>, c: (f64, f64), r: u32, color: &str) {
    let _ = a.draw(&Circle::new(px(c), r, rgb(color).filled()));
}

pub(crate) fn ring(a: &Area<'_>, c: (f64, f64), r: u32, color: &str) {
    let _ = a.draw(&Circle::new(px(c), r, rgb(color).stroke_width(2)));
}

/// The chart title's lines: wrapped to the chart's width, never cut.
fn title_lines(t: &Theme, title: &str) -> Vec<String> {
    wrap(title, t.title, t.w() - 2.0 * t.pad, true)
}

/// The y below the chart title (as many lines as it wraps to): where a chart's legend starts.
pub(crate) fn title_bottom(t: &Theme, title: &str) -> f64 {
    let lines = title_lines(t, title).len().max(1) as f64;
    t.pad + t.title * 1.3 + (lines - 1.0) * t.title * 1.25
}

/// Chart title at the top left, wrapped to the chart's width; returns the y below it
/// ([`title_bottom`]).
pub(crate) fn draw_title(a: &Area<'_>, t: &Theme, title: &str) -> f64 {
    for (i, line) in title_lines(t, title).iter().enumerate() {
        let y = t.pad + t.title * 0.6 + i as f64 * t.title * 1.25;
        text(a, line, (t.pad, y), t.title, palette::TEXT, Anchor::Start, true);
    }
    title_bottom(t, title)
}

/// A linear or logarithmic map from data to pixels; values are clamped to the range.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Scale {
    pub lo: f64,
    pub hi: f64,
    pub p0: f64,
    pub p1: f64,
    pub log: bool,
}

impl Scale {
    /// A scale; a degenerate or non-finite range becomes a usable one.
    pub fn new(lo: f64, hi: f64, p0: f64, p1: f64, log: bool) -> Self {
        let (mut lo, mut hi) = (lo, hi);
        if log {
            if !(lo.is_finite() && lo > 0.0) {
                lo = 1.0;
            }
            if !(hi.is_finite() && hi > lo) {
                hi = lo * 10.0;
            }
        } else {
            if !lo.is_finite() {
                lo = 0.0;
            }
            if !(hi.is_finite() && hi > lo) {
                hi = lo + 1.0;
            }
        }
        Scale { lo, hi, p0, p1, log }
    }
    fn t(&self, v: f64) -> f64 {
        let t = if self.log {
            (v.max(f64::MIN_POSITIVE).ln() - self.lo.ln()) / (self.hi.ln() - self.lo.ln())
        } else {
            (v - self.lo) / (self.hi - self.lo)
        };
        if t.is_nan() {
            0.0
        } else {
            t.clamp(0.0, 1.0)
        }
    }
    pub fn map(&self, v: f64) -> f64 {
        self.p0 + self.t(v) * (self.p1 - self.p0)
    }
    pub fn contains(&self, v: f64) -> bool {
        v.is_finite() && v >= self.lo * (1.0 - 1e-9) && v <= self.hi * (1.0 + 1e-9)
    }
}

/// Powers of ten covering `[lo, hi]` (positive): `floor(log10 lo)` to `ceil(log10 hi)`,
/// at most `max_decades` wide (keeping the top).
pub(crate) fn decade_range(lo: f64, hi: f64, max_decades: i32) -> (f64, f64) {
    let hi = if hi.is_finite() && hi > 0.0 { hi } else { 1.0 };
    let lo = if lo.is_finite() && lo > 0.0 && lo < hi { lo } else { hi / 10.0 };
    let top = hi.log10().ceil().clamp(-300.0, 300.0) as i32;
    let bottom = (lo.log10().floor().clamp(-300.0, 300.0) as i32).max(top - max_decades).min(top - 1);
    (10f64.powi(bottom), 10f64.powi(top))
}

/// Ticks at powers of ten within the scale.
pub(crate) fn log10_ticks(s: &Scale, label: impl Fn(f64) -> String) -> Vec<(f64, String)> {
    let (a, b) = (s.lo.log10().floor() as i32, s.hi.log10().ceil() as i32);
    (a..=b).map(|k| 10f64.powi(k)).filter(|v| s.contains(*v)).map(|v| (v, label(v))).collect()
}

/// Ticks at the powers of two within a log scale (binary sizes: 1, 2, 4, 8, 16 MiB), labelled
/// by `label`.
pub(crate) fn log2_ticks(s: &Scale, label: impl Fn(f64) -> String) -> Vec<(f64, String)> {
    if !(s.lo > 0.0 && s.hi >= s.lo && s.hi.is_finite()) {
        return vec![];
    }
    let (a, b) = (s.lo.log2().floor() as i32, s.hi.log2().ceil() as i32);
    (a..=b.min(a + 200)).map(|k| 2f64.powi(k)).filter(|v| s.contains(*v)).map(|v| (v, label(v))).collect()
}

/// "Nice" linear ticks (1, 2, 5 × 10^k) within the scale, about `n` of them.
pub(crate) fn linear_ticks(s: &Scale, n: usize, label: impl Fn(f64) -> String) -> Vec<(f64, String)> {
    let span = s.hi - s.lo;
    let raw = span / n.max(1) as f64;
    if !(raw.is_finite() && raw > 0.0) {
        return vec![];
    }
    let mag = 10f64.powf(raw.log10().floor());
    let step = [1.0, 2.0, 5.0, 10.0].iter().map(|m| m * mag).find(|st| *st >= raw).unwrap_or(10.0 * mag);
    let first = (s.lo / step).ceil() as i64;
    let last = (s.hi / step).floor() as i64;
    (first..=last.min(first + 50)).map(|k| k as f64 * step).map(|v| (v, label(v))).collect()
}

/// Keep every k-th tick so that labels (at `size`) are `gap` px apart at least.
pub(crate) fn thin_ticks(
    ticks: Vec<(f64, String)>,
    s: &Scale,
    size: f64,
    horizontal: bool,
) -> Vec<(f64, String)> {
    for k in 1..=ticks.len().max(1) {
        let kept: Vec<_> = ticks.iter().step_by(k).cloned().collect();
        let ok = kept.windows(2).all(|w| {
            let d = (s.map(w[1].0) - s.map(w[0].0)).abs();
            let need = if horizontal {
                (text_width(&w[0].1, size) + text_width(&w[1].1, size)) / 2.0 + 8.0
            } else {
                size * 1.6
            };
            d >= need
        });
        if ok {
            return kept;
        }
    }
    ticks.into_iter().take(1).collect()
}

/// Plot rectangle in pixels.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Plot {
    pub left: f64,
    pub top: f64,
    pub right: f64,
    pub bottom: f64,
}

/// Gridlines, tick labels and axis titles around `plot`.
pub(crate) fn draw_axes(
    a: &Area<'_>,
    t: &Theme,
    plot: &Plot,
    x: (&Scale, &[(f64, String)], &str),
    y: (&Scale, &[(f64, String)], &str),
) {
    for (v, l) in x.1 {
        let px_ = x.0.map(*v);
        line(a, &[(px_, plot.top), (px_, plot.bottom)], palette::GRID, 1, false);
        // The first and last labels are kept inside the chart (centred on their tick if they can be).
        let half = text_width(l, t.font) / 2.0;
        let cx = px_.min(t.w() - 2.0 - half).max(2.0 + half);
        text(a, l, (cx, plot.bottom + t.font * 0.9), t.font, palette::MUTED, Anchor::Middle, false);
    }
    for (v, l) in y.1 {
        let py = y.0.map(*v);
        line(a, &[(plot.left, py), (plot.right, py)], palette::GRID, 1, false);
        text(a, l, (plot.left - 6.0, py), t.font, palette::MUTED, Anchor::End, false);
    }
    line(
        a,
        &[(plot.left, plot.top), (plot.left, plot.bottom), (plot.right, plot.bottom)],
        palette::AXIS,
        1,
        false,
    );
    if !x.2.is_empty() {
        let s = fit(x.2, t.font, plot.right - plot.left);
        text(
            a,
            &s,
            ((plot.left + plot.right) / 2.0, plot.bottom + t.font * 2.3),
            t.font,
            palette::TEXT,
            Anchor::Middle,
            false,
        );
    }
    if !y.2.is_empty() {
        let s = fit(y.2, t.font, plot.bottom - plot.top);
        text_vertical(a, &s, (t.pad + t.font * 0.5, (plot.top + plot.bottom) / 2.0), t.font, palette::TEXT);
    }
}

/// Width needed left of the plot for y tick labels and the rotated y title.
pub(crate) fn y_gutter(t: &Theme, ticks: &[(f64, String)]) -> f64 {
    let w = ticks.iter().map(|(_, l)| text_width(l, t.font)).fold(0.0, f64::max);
    t.pad + t.font * 1.4 + w + 8.0
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Swatch {
    Line,
    Dashed,
    Box,
}

pub(crate) struct LegendItem {
    pub label: String,
    pub color: &'static str,
    pub swatch: Swatch,
}

/// Lay legend items out left to right from `(x, y)`, wrapping within `max_w`; draws them
/// when `area` is given. Returns the height used (0 for no items).
pub(crate) fn legend(
    area: Option<&Area<'_>>,
    t: &Theme,
    items: &[LegendItem],
    x: f64,
    y: f64,
    max_w: f64,
) -> f64 {
    let items: Vec<_> = items.iter().filter(|i| !i.label.trim().is_empty()).collect();
    if items.is_empty() {
        return 0.0;
    }
    let row_h = t.font * 1.5;
    let sw = 18.0;
    let (mut cx, mut cy) = (x, y + row_h / 2.0);
    for it in items {
        let label = fit(&it.label, t.font, max_w - sw - 6.0);
        let w = sw + 5.0 + text_width(&label, t.font) + 14.0;
        if cx > x && cx + w > x + max_w {
            cx = x;
            cy += row_h;
        }
        if let Some(a) = area {
            match it.swatch {
                Swatch::Line => line(a, &[(cx, cy), (cx + sw, cy)], it.color, 3, false),
                Swatch::Dashed => line(a, &[(cx, cy), (cx + sw, cy)], it.color, 2, true),
                Swatch::Box => rect(a, cx + 3.0, cy - 6.0, cx + 15.0, cy + 6.0, it.color, 1.0),
            }
            text(a, &label, (cx + sw + 5.0, cy), t.font, palette::TEXT, Anchor::Start, false);
        }
        cx += w;
    }
    cy + row_h / 2.0 - y
}

/// A number for annotations (three significant digits with SI prefix).
pub(crate) fn num(v: f64) -> String {
    if v.abs() < 1000.0 {
        format_sig3(v)
    } else {
        super::format::format_si(v)
    }
}
