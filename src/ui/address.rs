//! Reading the app's own addresses (pure, tested natively): where a page is, in the offline
//! file's hash form, and which in-site links lead to pages.

/// The page's place: its site path (`en/chapters/cuda/`), query and fragment.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Here {
    pub path: String,
    pub query: String,
    pub fragment: String,
}

/// `#/{path}?{query}#{fragment}` read into its parts (the offline file's address).
pub fn parse_offline_hash(hash: &str) -> Here {
    let rest = hash.strip_prefix("#/").unwrap_or("");
    let (before, fragment) = rest.split_once('#').unwrap_or((rest, ""));
    let (path, query) = before.split_once('?').unwrap_or((before, ""));
    Here { path: path.to_string(), query: query.to_string(), fragment: fragment.to_string() }
}

/// `url` without its `#fragment`.
pub fn without_fragment(url: &str) -> &str {
    url.split_once('#').map_or(url, |(before, _)| before)
}

/// Whether a path below the root is one of the site's pages (not a file it links, such as the
/// offline download or the search index).
pub fn is_page(inside: &str) -> bool {
    let path = inside.split(['?', '#']).next().unwrap_or("");
    path.is_empty() || path.ends_with('/') || path.ends_with("index.html") || path == "404.html"
}

/// The rules of a page's `data-s` stylesheet (`[data-s="0a1b"]{width: 10%!important;}`), as
/// (`"0a1b"`, `"width: 10%!important;"`) pairs.
pub fn style_rules(css: &str) -> Vec<(String, String)> {
    css.split('}')
        .filter_map(|rule| {
            let (selector, body) = rule.split_once('{')?;
            let n = selector.trim().strip_prefix("[data-s=\"")?.strip_suffix("\"]")?;
            Some((n.to_string(), body.to_string()))
        })
        .collect()
}

/// A fetched page's HTML without the `<style>` elements of its `<head>`, and the `data-s` rules
/// they held. The app reads a page with `DOMParser`, whose document has no scripting (so the
/// `<noscript>` style would be parsed as one) and whose inline styles the page's policy refuses:
/// the styles are taken out before, and the rules set through the CSSOM after.
pub fn without_head_styles(html: &str) -> (String, Vec<(String, String)>) {
    let head_end = html.find("</head>").unwrap_or(0);
    let (head, rest) = html.split_at(head_end);
    let mut out = String::with_capacity(html.len());
    let mut rules = Vec::new();
    let mut from = head;
    while let Some(open) = from.find("<style>") {
        out.push_str(from.get(..open).unwrap_or(""));
        let after = from.get(open + "<style>".len()..).unwrap_or("");
        let Some(close) = after.find("</style>") else { break };
        rules.extend(style_rules(after.get(..close).unwrap_or("")));
        from = after.get(close + "</style>".len()..).unwrap_or("");
    }
    out.push_str(from);
    out.push_str(rest);
    (out, rules)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_prerendered_style_rules_are_read_back() {
        let rules = style_rules("[data-s=\"0\"]{width: 10%!important;}[data-s=\"1\"]{left: 5%!important;}");
        assert_eq!(
            rules,
            vec![("0".into(), "width: 10%!important;".into()), ("1".into(), "left: 5%!important;".into())]
        );
        assert!(style_rules(".other{color:red}").is_empty());
        let page = "<html><head><noscript><style>.needs-js{display:none}</style></noscript><style>[data-s=\"ab\"]{left: 1%;}</style></head><body><style>x</style></body>";
        let (html, rules) = without_head_styles(page);
        assert_eq!(html, "<html><head><noscript></noscript></head><body><style>x</style></body>");
        assert_eq!(rules, vec![("ab".into(), "left: 1%;".into())]);
    }

    #[test]
    fn offline_hashes_split_into_path_query_and_fragment() {
        let h = parse_offline_hash("#/en/estimate/?v=1&s=x#top");
        assert_eq!(
            (h.path.as_str(), h.query.as_str(), h.fragment.as_str()),
            ("en/estimate/", "v=1&s=x", "top")
        );
        assert_eq!(parse_offline_hash("").path, "");
        assert!(is_page("en/chapters/cuda/") && is_page("") && is_page("en/index.html#x"));
        assert!(!is_page("gpu-primer-offline.html") && !is_page("en/search-index.json"));
        assert_eq!(without_fragment("http://x/en/glossary/#term-mig"), "http://x/en/glossary/");
        assert_eq!(without_fragment("http://x/en/?a=1"), "http://x/en/?a=1");
    }
}
