//! The app's components rendered to HTML natively (Leptos in its server-rendering mode), for
//! the prerendered pages: each slot of a page holds exactly the markup its component mounts
//! with, in its default state (see `browser`'s native side: no query, nothing saved).
//!
//! One difference is taken care of here: a Leptos `style:` directive, which the browser applies
//! through the CSSOM, renders as a `style` attribute, and the site's Content-Security-Policy
//! applies no style attributes. `site::styles` moves them into the page's own stylesheet.
//!
//! Another is the viewport: a live chart is drawn at the reader's width (a phone's charts are
//! narrower and relatively taller, `browser::chart_width`). A snapshot is rendered at both,
//! and each chart that differs is written twice, marked `data-w="wide"` and `data-w="narrow"`
//! for the stylesheet to show the one the live app will draw: nothing moves when it mounts.

use crate::i18n::Lang;
use crate::route::Route;
use hydration_context::SsrSharedContext;
use leptos::prelude::*;
use std::sync::Arc;

/// A phone's viewport width for the narrow snapshot (any width below the phone layout's).
const PHONE_VIEWPORT: f64 = 390.0;

/// Renders what `view` builds to HTML at a desktop's and a phone's width, as one snapshot
/// (see [`pair_charts`]).
pub fn render<V: IntoView + 'static>(view: impl Fn() -> V) -> String {
    let wide = render_once(&view);
    let narrow = super::browser::with_viewport(PHONE_VIEWPORT, || render_once(&view));
    pair_charts(&wide, &narrow)
}

/// Renders what `view` builds to HTML, inside a reactive owner of its own (disposed after).
fn render_once<V: IntoView + 'static>(view: &impl Fn() -> V) -> String {
    let owner = Owner::new_root(Some(Arc::new(SsrSharedContext::new())));
    let html = owner.with(|| view().into_view().to_html());
    owner.cleanup();
    html
}

/// The `wide` rendering, where each of its `<svg>` elements that differs from the one at the
/// same place in `narrow` is followed by it, the two marked `data-w="wide"` and
/// `data-w="narrow"`. When the two renderings do not have their charts at the same places
/// (they differ elsewhere than in a chart), `wide` alone.
pub fn pair_charts(wide: &str, narrow: &str) -> String {
    let (w, n) = (svg_spans(wide), svg_spans(narrow));
    let same_outside = w.len() == n.len() && outside(wide, &w) == outside(narrow, &n);
    if !same_outside {
        return wide.to_string();
    }
    let mut out = String::with_capacity(wide.len() * 2);
    let mut at = 0;
    for (&(ws, we), &(ns, ne)) in w.iter().zip(&n) {
        out.push_str(&wide[at..ws]);
        let (a, b) = (&wide[ws..we], &narrow[ns..ne]);
        if a == b {
            out.push_str(a);
        } else {
            out.push_str(&mark(a, "wide"));
            out.push_str(&mark(b, "narrow"));
        }
        at = we;
    }
    out.push_str(&wide[at..]);
    out
}

/// Byte ranges of the outermost `<svg …>…</svg>` elements of `html`.
fn svg_spans(html: &str) -> Vec<(usize, usize)> {
    let mut spans = Vec::new();
    let mut from = 0;
    while let Some(start) = html[from..].find("<svg").map(|i| from + i) {
        let mut depth = 0usize;
        let mut i = start;
        let end = loop {
            let open = html[i..].find("<svg").map(|k| i + k);
            let Some(close) = html[i..].find("</svg>").map(|k| i + k) else { return spans };
            match open {
                Some(o) if o < close => {
                    depth += 1;
                    i = o + 4;
                }
                _ => {
                    depth -= 1;
                    i = close + "</svg>".len();
                    if depth == 0 {
                        break i;
                    }
                }
            }
        };
        spans.push((start, end));
        from = end;
    }
    spans
}

/// `html` without the ranges `spans`: what must agree between the two renderings.
fn outside(html: &str, spans: &[(usize, usize)]) -> String {
    let mut out = String::new();
    let mut at = 0;
    for &(s, e) in spans {
        out.push_str(&html[at..s]);
        at = e;
    }
    out.push_str(&html[at..]);
    out
}

/// `svg` with `data-w="WHICH"` on its opening tag.
fn mark(svg: &str, which: &str) -> String {
    format!("<svg data-w=\"{which}\"{}", &svg["<svg".len()..])
}

/// A chapter widget (`{{widget:NAME}}`) in its default state.
pub fn widget(lang: Lang, name: &str) -> String {
    let name = name.to_string();
    render(move || view! { <super::estimator::widget::ChapterWidget lang=lang name=name.clone() /> })
}

/// A chapter figure (`{{figure:NAME}}`).
pub fn figure(lang: Lang, name: &str) -> String {
    let name = name.to_string();
    render(move || view! { <super::figure::ChapterFigure lang=lang name=name.clone() /> })
}

/// The header's search box.
pub fn search(lang: Lang) -> String {
    render(move || view! { <super::search::SiteSearch lang=lang /> })
}

/// The component of a page such as the estimator (see `super::pages`), if the route has one.
pub fn app_page(route: &Route) -> Option<String> {
    let lang = route.lang()?;
    let app = super::pages::app_name(route)?;
    Some(render(move || super::pages::app_page(lang, &app)))
}

/// The embed page's widget.
pub fn embed(lang: Lang, name: &str) -> String {
    let name = name.to_string();
    render(move || view! { <super::pages::EmbedPage lang=lang name=name.clone() query=String::new() /> })
}

#[cfg(test)]
mod tests {
    use super::pair_charts;

    #[test]
    fn a_chart_that_differs_is_written_at_both_widths() {
        let wide = "<div><svg viewBox=\"0 0 640 300\"><g/></svg><p>x</p><svg class=\"i\"></svg></div>";
        let narrow = "<div><svg viewBox=\"0 0 360 280\"><g/></svg><p>x</p><svg class=\"i\"></svg></div>";
        assert_eq!(
            pair_charts(wide, narrow),
            "<div><svg data-w=\"wide\" viewBox=\"0 0 640 300\"><g/></svg>\
             <svg data-w=\"narrow\" viewBox=\"0 0 360 280\"><g/></svg><p>x</p><svg class=\"i\"></svg></div>"
        );
    }

    #[test]
    fn the_same_rendering_is_kept_as_it_is() {
        let html = "<p>no chart</p><svg><svg></svg></svg>";
        assert_eq!(pair_charts(html, html), html);
    }

    #[test]
    fn renderings_that_differ_outside_their_charts_give_the_wide_one() {
        let wide = "<p>wide</p><svg viewBox=\"0 0 640 1\"></svg>";
        let narrow = "<p>narrow</p><svg viewBox=\"0 0 360 1\"></svg>";
        assert_eq!(pair_charts(wide, narrow), wide);
        assert_eq!(pair_charts(wide, "<p>wide</p>"), wide);
    }

    #[test]
    fn an_unclosed_svg_is_left_alone() {
        assert_eq!(pair_charts("<svg><g>", "<svg><p>"), "<svg><g>");
    }
}
