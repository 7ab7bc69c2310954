//! In-site links in HTML: every `href="#/…"` (the site's hash form, see `route`) becomes the
//! relative URL of its target from the page it is on, as mdBook writes `path_to_root` links:
//! one `dist/` then works at a domain's root, under any sub-path and without the app. The
//! prerenderer writes the pages this way, and the app does the same to the HTML it builds in
//! the page (a tool's results). Links of the hash-routed site before this one
//! (`#/en/chapters/x?s=s-2`) are read too, so strings written with them still land.

use crate::route::{path_to_root, Target};

/// `html` with its in-site hash links made relative to the page at `page` (its site path,
/// such as `en/chapters/cuda/`). A link to a place on the page itself stays a bare fragment.
pub fn relative(html: &str, page: &str) -> String {
    let root = path_to_root(page);
    map_links(html, |hash| url_from(hash, page, &root))
}

/// `html` with its in-site hash links in the current hash form (the offline file's links).
pub fn normal(html: &str) -> String {
    map_links(html, |hash| Target::from_hash(hash).to_hash())
}

/// Each `href="#/…"` value of `html`, unescaped, replaced by `to(value)`.
fn map_links(html: &str, to: impl Fn(&str) -> String) -> String {
    const OPEN: &str = "href=\"#/";
    let mut out = String::with_capacity(html.len() + html.len() / 16);
    let mut rest = html;
    while let Some(at) = rest.find(OPEN) {
        let (before, from) = rest.split_at(at);
        out.push_str(before);
        let value_start = "href=\"".len();
        let Some(len) = from.get(value_start..).and_then(|v| v.find('"')) else {
            out.push_str(from);
            return out;
        };
        let hash = from.get(value_start..value_start + len).unwrap_or("");
        out.push_str("href=\"");
        out.push_str(&to(&unescape(hash)).replace('&', "&amp;"));
        out.push('"');
        rest = from.get(value_start + len + 1..).unwrap_or("");
    }
    out.push_str(rest);
    out
}

/// The URL of the target of `hash` from the page at `page`, whose root is `root`.
pub fn url_from(hash: &str, page: &str, root: &str) -> String {
    let target = Target::from_hash(hash);
    if target.route.path() == page && target.query.is_empty() && !target.fragment.is_empty() {
        return format!("#{}", target.fragment);
    }
    let url = target.site_url();
    if url.is_empty() {
        root.to_string()
    } else {
        format!("{root}{url}")
    }
}

/// An attribute value as written (`&amp;` between query pairs) back to its text.
fn unescape(value: &str) -> String {
    value.replace("&amp;", "&")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hash_links_become_relative_to_the_page() {
        let html = "<a href=\"#/en/estimate/?v=1&amp;s=x\">e</a> <a href=\"#/en/chapters/cuda\">c</a> \
                    <a href=\"#/en/glossary/#term-hbm\">g</a> <a href=\"https://x.org/#/a\">out</a> <a href=\"#s-2\">in</a>";
        let out = relative(html, "en/chapters/nvlink/");
        assert_eq!(
            out,
            "<a href=\"../../../en/estimate/?v=1&amp;s=x\">e</a> <a href=\"../../../en/chapters/cuda/\">c</a> \
             <a href=\"../../../en/glossary/#term-hbm\">g</a> <a href=\"https://x.org/#/a\">out</a> <a href=\"#s-2\">in</a>"
        );
    }

    #[test]
    fn old_links_and_links_to_the_page_itself() {
        let out = relative("<a href=\"#/en/chapters/cuda?s=s-3\">x</a>", "en/chapters/cuda/");
        assert_eq!(out, "<a href=\"#s-3\">x</a>");
        let out = relative("<a href=\"#/zh/glossary?term=kv-cache\">x</a>", "zh/");
        assert_eq!(out, "<a href=\"../zh/glossary/#term-kv-cache\">x</a>");
        let out = relative("<a href=\"#/\">home</a><a href=\"#/en/\">en</a>", "");
        assert_eq!(out, "<a href=\"./\">home</a><a href=\"./en/\">en</a>");
        assert_eq!(relative("<a href=\"#/en/", "en/"), "<a href=\"#/en/");
        assert_eq!(
            normal("<a href=\"#/en/estimate?v=1&amp;s=x\">"),
            "<a href=\"#/en/estimate/?v=1&amp;s=x\">"
        );
    }
}
