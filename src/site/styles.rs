//! Style attributes out of the page: the site's Content-Security-Policy applies no `style`
//! attributes (`style-src` has no `'unsafe-inline'`), and the components' `style:` directives
//! (a memory bar's segment widths), which the browser sets through the CSSOM, render as such
//! attributes when prerendered. Each distinct one becomes `data-s="N"` on its element and a
//! rule in one `<style>` element of the page (which `tools/csp.mjs` allows by its hash).

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
        let n = styles.iter().position(|s| *s == style).unwrap_or_else(|| {
            styles.push(style);
            styles.len() - 1
        });
        out.push_str(&format!(" data-s=\"{n}\""));
        rest = body.get(end + 1..).unwrap_or("");
    }
    out.push_str(rest);
    if styles.is_empty() {
        return out;
    }
    let rules: String =
        styles.iter().enumerate().map(|(n, s)| format!("[data-s=\"{n}\"]{{{}}}", important(s))).collect();
    out.replacen("</head>", &format!("<style>{rules}</style>\n</head>"), 1)
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
        assert!(!out.contains("style=\""), "{out}");
        assert!(out
            .contains("<div class=\"seg\" data-s=\"0\"></div><div data-s=\"1\"></div><i data-s=\"0\"></i>"));
        assert!(out.contains("<style>[data-s=\"0\"]{width: 10%!important;background: #abc!important;}[data-s=\"1\"]{left: 5%!important;}</style>\n</head>"), "{out}");
        assert_eq!(to_stylesheet("<p>no styles</p>"), "<p>no styles</p>");
    }
}
