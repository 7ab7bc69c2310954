//! Checks shared by the chart tests.

/// The SVG is complete and carries the responsive, accessible root and the title.
pub(crate) fn assert_valid(svg: &str, title: &str) {
    assert!(svg.starts_with("<svg"), "{}", &svg[..svg.len().min(200)]);
    assert!(svg.ends_with("</svg>"));
    assert_eq!(count(svg, "<svg"), 1);
    let root = &svg[..svg.find('>').unwrap()];
    for a in
        ["viewBox=\"0 0 ", "width=\"100%\"", "role=\"img\"", "aria-label=\"", "font-family=\"sans-serif\""]
    {
        assert!(root.contains(a), "root lacks {a}: {root}");
    }
    assert!(!root.contains("height=\""), "fixed height in {root}");
    // The page's Content-Security-Policy allows no style attributes (the site CSS sizes the SVG).
    assert!(!svg.contains(" style="), "a style attribute in {}", &svg[..svg.len().min(300)]);
    let escaped = crate::charts::canvas::escape(title.trim());
    assert!(svg.contains(&format!("<title>{escaped}</title>")));
    assert!(!svg.contains("NaN") && !svg.contains("inf"), "non-finite number in SVG");
    // Every opened text element is closed.
    assert_eq!(count(svg, "<text"), count(svg, "</text>"));
}

pub(crate) fn count(svg: &str, needle: &str) -> usize {
    svg.matches(needle).count()
}
