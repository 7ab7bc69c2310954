//! The search results as HTML: links with the kind, the context and a snippet, the query's
//! pieces marked. Built as a string rather than as components: the list is rebuilt on every
//! key press, and a plain string keeps the wasm small.

use super::search::{tokens, Hit};
use crate::i18n::Lang;

/// Escapes text for HTML element content and double-quoted attributes.
pub fn escape_html(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '&' => out.push_str("&amp;"),
            '"' => out.push_str("&quot;"),
            c => out.push(c),
        }
    }
    out
}

/// The result list's items as HTML (`<li role="option">` links), the `active`-th one selected.
/// Built as a string rather than as components: it is rebuilt on every key press and a plain
/// string keeps the wasm small.
pub fn results_html(lang: Lang, query: &str, hits: &[Hit], active: usize) -> String {
    let tokens = tokens(query);
    let c = lang.course();
    if hits.is_empty() {
        return format!(
            "<li class=\"search-none\" role=\"presentation\">{}</li>",
            escape_html(c.search_none)
        );
    }
    let mut out = String::new();
    for (i, hit) in hits.iter().enumerate() {
        let kind = c.kind(hit.kind);
        let context =
            if hit.context.is_empty() { kind.to_string() } else { format!("{kind} · {}", hit.context) };
        let selected = i == active;
        out.push_str(&format!(
            "<li role=\"option\" id=\"search-hit-{i}\" aria-selected=\"{selected}\"{}><a class=\"search-hit\" tabindex=\"-1\" href=\"{}\"><span class=\"hit-title\">{}</span><span class=\"hit-kind\">{}</span><span class=\"hit-snippet\">{}</span></a></li>",
            if selected { " class=\"active\"" } else { "" },
            escape_html(&hit.href),
            mark(&hit.title, &tokens),
            escape_html(&context),
            mark(&hit.snippet, &tokens),
        ));
    }
    out
}

/// `text` escaped, with each occurrence of a query piece in `<mark>`. Text whose lowercase has
/// another byte length (rare letters) is only escaped.
fn mark(text: &str, tokens: &[String]) -> String {
    let lower = text.to_ascii_lowercase();
    if lower.len() != text.len() {
        return escape_html(text);
    }
    let mut marked = vec![false; text.len()];
    for token in tokens.iter().filter(|t| !t.is_empty()) {
        for (start, _) in lower.match_indices(token.as_str()) {
            for m in marked.iter_mut().skip(start).take(token.len()) {
                *m = true;
            }
        }
    }
    let mut out = String::new();
    let mut open = false;
    for (i, c) in text.char_indices() {
        let on = marked.get(i).copied().unwrap_or(false);
        if on != open {
            out.push_str(if on { "<mark>" } else { "</mark>" });
            open = on;
        }
        out.push_str(&escape_html(c.encode_utf8(&mut [0; 4])));
    }
    if open {
        out.push_str("</mark>");
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::content::search::search;

    #[test]
    fn results_are_links_with_snippets() {
        let hits = search(Lang::En, "kv cache");
        let html = results_html(Lang::En, "kv cache", &hits, 1);
        assert_eq!(html.matches("<li role=\"option\"").count(), hits.len());
        assert!(html.contains("id=\"search-hit-1\" aria-selected=\"true\" class=\"active\""));
        assert!(html.contains("class=\"hit-snippet\""));
        assert!(html.contains("<mark>KV</mark> <mark>cache</mark>"), "{html}");
        assert!(results_html(Lang::Zh, "x", &[], 0).contains("没有找到"));
        assert_eq!(mark("显存 & KV 缓存", &tokens("kv缓存")), "显存 &amp; <mark>KV</mark> <mark>缓存</mark>");
        assert_eq!(escape_html("<a href=\"x\">&</a>"), "&lt;a href=&quot;x&quot;&gt;&amp;&lt;/a&gt;");
    }
}
