//! A chapter's article as its page carries it: the rendered markdown, each widget and figure
//! already drawn in its default state (the app's own components rendered to HTML, so the box
//! has the size and the numbers the live widget mounts with), each exercise card with its key,
//! the progress line, and the previous/next links. Also the chapter's worksheet and answer key.

use crate::content::{self, Chapter, Segment};
use crate::exercises;
use crate::html::escape as esc;
use crate::i18n::Lang;
use crate::route::{Route, Sheet};
use crate::ui::snapshot;

/// The figures whose drawing the reader can step through or change: the app mounts these; the
/// others stay as the page has them.
pub const LIVE_FIGURES: [&str; 2] = ["memory-hierarchy", "ring-allreduce"];

/// The inside of `<main>` for a chapter.
pub fn article(lang: Lang, chapter: &Chapter) -> String {
    let s = lang.strings();
    let page = chapter.page(lang);
    let mut out = format!(
        "<article class=\"chapter\" data-page=\"chapter\" data-slug=\"{}\"><p class=\"eyebrow\">{}</p><h1>{}</h1>",
        chapter.slug,
        esc(&s.chapter_number(chapter.number)),
        esc(page.title)
    );
    out.push_str(&body(lang, chapter, &Route::Chapter(lang, chapter.slug)));
    out.push_str(&pager(lang, chapter.slug));
    out.push_str("</article>");
    out
}

/// The chapter's segments in order (also what the print page strings together).
pub fn body(lang: Lang, chapter: &Chapter, route: &Route) -> String {
    let list = exercises::for_chapter(chapter.slug);
    let mut out = String::new();
    for segment in chapter.page(lang).segments {
        match *segment {
            Segment::Html(html) => {
                out.push_str("<div class=\"prose\">");
                out.push_str(html);
                out.push_str("</div>");
            }
            Segment::Widget(name) => out.push_str(&format!(
                "<div class=\"slot\" data-slot=\"widget\" data-mount=\"widget\" data-widget=\"{}\">{}</div>",
                esc(name),
                snapshot::widget(lang, name)
            )),
            Segment::Figure(name) => {
                let mount = if LIVE_FIGURES.contains(&name) { " data-mount=\"figure\"" } else { "" };
                out.push_str(&format!(
                    "<div class=\"slot\" data-slot=\"figure\"{mount} data-figure=\"{}\">{}</div>",
                    esc(name),
                    snapshot::figure(lang, name)
                ));
            }
            Segment::Exercise(id) => {
                let Some(number) = list.iter().position(|e| e.id == id) else { continue };
                let Some(ex) = list.get(number) else { continue };
                out.push_str("<div class=\"slot\" data-slot=\"exercise\">");
                if number == 0 {
                    out.push_str(&exercises::progress_html(lang, route, list.len()));
                }
                let link = format!("{}#exercise-{id}", route.to_hash());
                let estimator = exercises::estimator_href(lang, ex);
                out.push_str(&exercises::card_html(lang, ex, number + 1, &link, estimator.as_deref()));
                out.push_str("</div>");
            }
        }
    }
    out
}

/// The previous and next chapters.
fn pager(lang: Lang, slug: &str) -> String {
    let s = lang.strings();
    let (previous, next) = content::neighbours(slug);
    let link = |c: &Chapter, rel: &str, label: String| {
        format!(
            "<a class=\"{rel}\" rel=\"{rel}\" href=\"{}\"><span class=\"pager-label\">{}</span><span class=\"pager-title\">{}</span></a>",
            Route::Chapter(lang, c.slug).to_hash(),
            esc(&label),
            esc(c.page(lang).title)
        )
    };
    format!(
        "<nav class=\"pager\" aria-label=\"{}\">{}{}</nav>",
        esc(s.nav_aria),
        previous.map(|p| link(p, "prev", format!("← {}", s.previous))).unwrap_or_default(),
        next.map(|n| link(n, "next", format!("{} →", s.next))).unwrap_or_default()
    )
}

/// A chapter's exercises as a worksheet or as its answer key, with a link back and a print
/// button (the app's).
pub fn sheet(lang: Lang, chapter: &Chapter, sheet: Sheet) -> String {
    let x = lang.ex();
    let answers = sheet == Sheet::Answers;
    format!(
        "<article class=\"worksheet\" data-page=\"worksheet\" data-print=\"{}\"><p class=\"worksheet-nav no-print\">\
         <a href=\"{}\">← {}</a><span class=\"needs-js\"> · <button type=\"button\" data-action=\"print\">{}</button></span></p>\
         <h1>{} — {}</h1>{}<ol class=\"worksheet-list\">{}</ol></article>",
        sheet.slug(),
        Route::Chapter(lang, chapter.slug).to_hash(),
        esc(x.back_to_chapter),
        esc(x.print),
        esc(chapter.page(lang).title),
        esc(if answers { x.answer_key } else { x.worksheet }),
        if answers { String::new() } else { format!("<p class=\"worksheet-name\">{}</p>", esc(x.name_line)) },
        exercises::worksheet_items_html(lang, chapter.slug, answers)
    )
}
