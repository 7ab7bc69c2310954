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

/// Whether a path below the root is one of the site's pages (not a file it links, such as the
/// offline download or the search index).
pub fn is_page(inside: &str) -> bool {
    let path = inside.split(['?', '#']).next().unwrap_or("");
    path.is_empty() || path.ends_with('/') || path.ends_with("index.html") || path == "404.html"
}

#[cfg(test)]
mod tests {
    use super::*;

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
    }
}
