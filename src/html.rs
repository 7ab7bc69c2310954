//! HTML text: the site's one escaper, for element content and double-quoted attribute values.
//! Every HTML string the site builds (prerendered pages, widget bodies, search results, tool
//! tables) passes its text through here.

/// Escapes `<`, `>`, `&` and `"`.
pub fn escape(text: &str) -> String {
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

#[cfg(test)]
mod tests {
    #[test]
    fn escapes_markup_and_quotes() {
        assert_eq!(super::escape("<a href=\"x\">&</a>"), "&lt;a href=&quot;x&quot;&gt;&amp;&lt;/a&gt;");
        assert_eq!(super::escape("显存 'ok'"), "显存 'ok'");
    }
}
