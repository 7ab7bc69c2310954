//! A check that every text of an SVG (a chart or a figure) lies inside its `viewBox`, by the
//! same conservative width estimate the charts lay out with (`canvas::text_width`, DejaVu
//! Sans's widths, wider than the fonts of most readers), and that none was cut short with "…".
//! The real-browser walk (`tests/e2e/every-page.test.mjs`) measures the drawn text itself.

use super::canvas::{bold_width, text_width};

/// The width of `s` at `size`, bold or not.
fn width_of(s: &str, size: f64, bold: bool) -> f64 {
    if bold {
        bold_width(s, size)
    } else {
        text_width(s, size)
    }
}

/// One text that does not fit: its content and where its estimated box lies.
#[derive(Clone, Debug, PartialEq)]
pub struct Overflow {
    pub text: String,
    pub x: (f64, f64),
    pub y: (f64, f64),
    /// The viewBox's width and height.
    pub view: (f64, f64),
}

fn attr(tag: &str, name: &str) -> Option<String> {
    let key = format!(" {name}=\"");
    let at = tag.find(&key)? + key.len();
    let rest = tag.get(at..)?;
    Some(rest.get(..rest.find('"')?)?.to_string())
}

fn num(tag: &str, name: &str) -> Option<f64> {
    attr(tag, name)?.trim().parse().ok()
}

fn unescape(s: &str) -> String {
    s.replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&quot;", "\"")
        .replace("&apos;", "'")
        .replace("&#39;", "'")
        .replace("&amp;", "&")
}

/// Every `<text>` of `svg` (one `<svg>` element, nested ones included) whose estimated box
/// leaves the root's viewBox (by more than half a pixel) or that ends in "…". Plotters' text is
/// centred on its `y` (`dy="0.5ex"`); a figure's sits on its baseline. `rotate(270 …)` turns
/// the box.
pub fn overflows(svg: &str) -> Vec<Overflow> {
    let root = svg.get(..svg.find('>').unwrap_or(0)).unwrap_or("");
    let Some(view) = attr(root, "viewBox") else {
        return Vec::new();
    };
    // A text without a size of its own has the root's (16 px, the browser's, when neither says).
    let root_size = num(root, "font-size").unwrap_or(16.0);
    let v: Vec<f64> = view.split_whitespace().filter_map(|p| p.parse().ok()).collect();
    let (Some(&vx), Some(&vy), Some(&vw), Some(&vh)) = (v.first(), v.get(1), v.get(2), v.get(3)) else {
        return Vec::new();
    };
    let mut out = Vec::new();
    let mut rest = svg;
    while let Some(open) = rest.find("<text") {
        let after = rest.get(open..).unwrap_or("");
        let (Some(gt), Some(close)) = (after.find('>'), after.find("</text>")) else { break };
        let tag = after.get(..gt).unwrap_or("");
        let text = unescape(after.get(gt + 1..close).unwrap_or("").trim());
        rest = after.get(close + "</text>".len()..).unwrap_or("");
        if text.is_empty() {
            continue;
        }
        let (x, y) = (num(tag, "x").unwrap_or(0.0), num(tag, "y").unwrap_or(0.0));
        let size = num(tag, "font-size").unwrap_or(root_size);
        let bold =
            attr(tag, "font-weight").is_some_and(|w| w == "bold" || w.parse::<u32>().is_ok_and(|n| n >= 600));
        let w = width_of(&text, size, bold);
        let (start, end) = match attr(tag, "text-anchor").as_deref() {
            Some("middle") => (-w / 2.0, w / 2.0),
            Some("end") => (-w, 0.0),
            _ => (0.0, w),
        };
        let centred = attr(tag, "dy").is_some();
        let (up, down) = if centred { (0.6 * size, 0.6 * size) } else { (0.8 * size, 0.25 * size) };
        let rotated = attr(tag, "transform").is_some_and(|t| t.starts_with("rotate(270"));
        let (bx, by) = if rotated {
            // Reading upwards from (x, y): the text runs along −y, its height along x.
            ((x - up, x + down), (y - end, y - start))
        } else {
            ((x + start, x + end), (y - up, y + down))
        };
        let outside = bx.0 < vx - 0.5 || bx.1 > vx + vw + 0.5 || by.0 < vy - 0.5 || by.1 > vy + vh + 0.5;
        if outside || text.ends_with('…') {
            out.push(Overflow { text, x: bx, y: by, view: (vw, vh) });
        }
    }
    out
}

/// The outermost `<svg …>…</svg>` elements of an HTML page, in order.
pub fn svgs(html: &str) -> Vec<&str> {
    let mut found = Vec::new();
    let mut from = 0;
    while let Some(start) = html.get(from..).and_then(|h| h.find("<svg")).map(|i| from + i) {
        let mut depth = 0usize;
        let mut i = start;
        let end = loop {
            let rest = html.get(i..).unwrap_or("");
            let open = rest.find("<svg").map(|k| i + k);
            let Some(close) = rest.find("</svg>").map(|k| i + k) else { return found };
            match open {
                Some(o) if o < close => {
                    depth += 1;
                    i = o + 4;
                }
                _ => {
                    depth = depth.saturating_sub(1);
                    i = close + "</svg>".len();
                    if depth == 0 {
                        break i;
                    }
                }
            }
        };
        if let Some(svg) = html.get(start..end) {
            found.push(svg);
        }
        from = end;
    }
    found
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_past_an_edge_or_cut_short_is_found() {
        let svg = "<svg viewBox=\"0 0 100 50\"><text x=\"2\" y=\"20\" dy=\"0.5ex\" font-size=\"10\">fits</text>\
            <text x=\"95\" y=\"20\" dy=\"0.5ex\" font-size=\"10\">past the right edge</text>\
            <text x=\"50\" y=\"20\" text-anchor=\"middle\" font-size=\"10\">Share of the…</text>\
            <text x=\"10\" y=\"25\" dy=\"0.5ex\" font-size=\"10\" transform=\"rotate(270, 10, 25)\">a long vertical title</text>\
            <text x=\"99\" y=\"20\" text-anchor=\"end\" font-size=\"10\">ok</text></svg>";
        let found: Vec<String> = overflows(svg).into_iter().map(|o| o.text).collect();
        assert_eq!(found, vec!["past the right edge", "Share of the…", "a long vertical title"]);
    }

    #[test]
    fn bold_text_is_wider() {
        let plain = "<svg viewBox=\"0 0 52 20\"><text x=\"0\" y=\"10\" dy=\"0.5ex\" font-size=\"10\">abcdefghi</text></svg>";
        assert!(overflows(plain).is_empty());
        let bold = plain.replace("font-size=\"10\"", "font-size=\"10\" font-weight=\"bold\"");
        assert_eq!(overflows(&bold).len(), 1);
    }

    #[test]
    fn outermost_svgs_of_a_page() {
        let html = "<p><svg viewBox=\"0 0 1 1\"><svg></svg></svg></p><svg viewBox=\"0 0 2 2\"></svg>";
        assert_eq!(
            svgs(html),
            vec!["<svg viewBox=\"0 0 1 1\"><svg></svg></svg>", "<svg viewBox=\"0 0 2 2\"></svg>"]
        );
    }
}
