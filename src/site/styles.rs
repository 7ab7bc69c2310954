//! Style attributes out of the page: the site's Content-Security-Policy applies no `style`
//! attributes (`style-src` has no `'unsafe-inline'`), and the components' `style:` directives
//! (a memory bar's segment widths), which the browser sets through the CSSOM, render as such
//! attributes when prerendered. Each distinct one becomes `data-s="KEY"` on its element (the
//! key is a hash of the style, so a style has the same key on every page) and a rule in one
//! `<style>` element of the page (which `tools/csp.mjs` allows by its hash).

/// `html` with its style attributes moved into a `<style>` at the end of `<head>`.
pub fn to_stylesheet(html: &str) -> String {
    const OPEN: &str = " style=\"";
    let mut styles: Vec<String> = Vec::new();
    let mut out = String::with_capacity(html.len());
    let mut rest = html;
    while let Some(at) = rest.find(OPEN) {
        let (before, from) = rest.split_at(at);
        out.push_str(before);
        let body = from.get(OPEN.len()..).unwrap_or("");
        let Some(end) = body.find('"') else {
            out.push_str(from);
            rest = "";
            break;
        };
        let style = body.get(..end).unwrap_or("").to_string();
        out.push_str(&format!(" data-s=\"{}\"", key(&style)));
        if !styles.contains(&style) {
            styles.push(style);
        }
        rest = body.get(end + 1..).unwrap_or("");
    }
    out.push_str(rest);
    if styles.is_empty() {
        return out;
    }
    let rules: String =
        styles.iter().map(|s| format!("[data-s=\"{}\"]{{{}}}", key(s), important(s))).collect();
    out.replacen("</head>", &format!("<style>{rules}</style>\n</head>"), 1)
}

/// A style's key: 48 bits of its FNV-1a hash, in hex.
fn key(style: &str) -> String {
    let h = style
        .bytes()
        .fold(0xcbf2_9ce4_8422_2325_u64, |h, b| (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3));
    format!("{:012x}", h >> 16)
}

/// Each declaration marked `!important`, as an inline style outranks the stylesheet's rules.
fn important(style: &str) -> String {
    style
        .split(';')
        .map(str::trim)
        .filter(|d| !d.is_empty())
        .map(|d| format!("{}!important;", d.replace("&quot;", "\"").replace('<', "")))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn style_attributes_become_rules() {
        let html = "<html><head></head><body><div class=\"seg\" style=\"width: 10%; background: #abc\"></div>\
                    <div style=\"left: 5%;\"></div><i style=\"width: 10%; background: #abc\"></i></body></html>";
        let out = to_stylesheet(html);
        let (a, b) = (key("width: 10%; background: #abc"), key("left: 5%;"));
        assert_ne!(a, b);
        assert!(!out.contains("style=\""), "{out}");
        let elements = format!(
            "<div class=\"seg\" data-s=\"{a}\"></div><div data-s=\"{b}\"></div><i data-s=\"{a}\"></i>"
        );
        assert!(out.contains(&elements), "{out}");
        let rules = format!(
            "<style>[data-s=\"{a}\"]{{width: 10%!important;background: #abc!important;}}[data-s=\"{b}\"]{{left: 5%!important;}}</style>\n</head>"
        );
        assert!(out.contains(&rules), "{out}");
        assert_eq!(to_stylesheet("<p>no styles</p>"), "<p>no styles</p>");
    }
}
