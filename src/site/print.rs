//! The whole course on one page per language (`{lang}/print/`, mdBook's `print.html`): every
//! chapter in order, its widgets as their default figures, for a classroom printer or a PDF.
//! Ids are made unique across chapters (`{slug}-s-3`), and links between chapters point into
//! the page itself.

use crate::content;
use crate::html::escape as esc;
use crate::i18n::Lang;
use crate::route::{Route, Target};

/// The inside of `<main>` for the print page of `lang`: the title, the table of contents (each
/// chapter's number, title and, once the script below has run at print time, its first page),
/// a checkbox per chapter to print only those ticked, and every chapter, each starting a page.
///
/// Choosing chapters works without scripts: the stylesheet's rules (CSS `:has()`, the K-th box
/// for the K-th chapter, up to 20, which a test checks) hide every chapter that is not ticked once one
/// is. `?chapters=1,3` ticks chapters 1 and 3 ([`PRINT_SCRIPT`]).
pub fn course(lang: Lang) -> String {
    let s = lang.strings();
    let c = lang.course();
    let e = lang.embeds();
    let mut out = format!(
        "<article class=\"print-course\" data-page=\"print\"><h1>{}</h1><p class=\"lead\">{}</p>\
         <nav class=\"toc\" aria-labelledby=\"toc-heading\"><h2 id=\"toc-heading\">{}</h2>\
         <p class=\"print-choose no-print\"><strong>{}</strong>{}{}</p><ol class=\"toc-list\">",
        esc(c.print_title),
        esc(c.print_intro),
        esc(e.toc_heading),
        esc(e.print_choose),
        lang.colon(),
        esc(e.print_choose_hint),
    );
    for chapter in content::chapters() {
        let title = chapter.page(lang).title;
        out.push_str(&format!(
            "<li><input type=\"checkbox\" class=\"pick no-print\" id=\"pick-{n}\" value=\"{n}\" aria-label=\"{}{}{}\">\
             <a href=\"#{slug}\"><span class=\"toc-number\">{}</span> {}</a>\
             <span class=\"toc-page\" data-chapter=\"{slug}\"></span></li>",
            esc(e.print_choose),
            lang.colon(),
            esc(title),
            esc(&s.chapter_number(chapter.number)),
            esc(title),
            n = chapter.number,
            slug = chapter.slug,
        ));
    }
    out.push_str("</ol></nav>");
    for chapter in content::chapters() {
        let page = chapter.page(lang);
        let body = super::chapter::body(lang, chapter, &Route::Chapter(lang, chapter.slug));
        out.push_str(&format!(
            "<section class=\"print-chapter chapter\" id=\"{slug}\" data-number=\"{}\"><p class=\"eyebrow\">{}</p><h1>{}</h1>{}</section>",
            chapter.number,
            esc(&s.chapter_number(chapter.number)),
            esc(page.title),
            within(&body, chapter.slug, lang),
            slug = chapter.slug,
        ));
    }
    out.push_str(&format!("<script>{PRINT_SCRIPT}</script></article>"));
    out
}

/// How many chapters the stylesheet's choice rules cover (`assets/style.css`, `.print-course`).
#[cfg(test)]
const MAX_CHAPTERS: usize = 20;

/// The print page's script (inline: `tools/csp.mjs` allows it by its hash).
///
/// `?chapters=1,3` ticks those chapters' boxes. Before printing (`beforeprint`), it writes each
/// shown chapter's first page into the table of contents. Chromium cannot do it in CSS (no
/// `target-counter()`), and a script cannot see the printed layout; so the script lays the page
/// out as the printer will, and counts: it applies the stylesheet's `@media print` rules to the
/// screen under `html.print-measure` (the same rules, copied through the CSSOM), sets the page to
/// the printed width (A4 less the 15 mm margins of `@page`, 180 × 267 mm), then walks each
/// chapter (every chapter starts a page) block by block: a box the print rules keep whole
/// (`break-inside: avoid`) moves to the next page when it does not fit; a paragraph splits
/// between lines, at least two lines on either side (Chromium's default `orphans` and
/// `widows`); a heading goes with what follows it. The browser test checks the numbers against
/// the pages of Chromium's own PDF of the page (`tests/e2e/print.test.mjs`).
pub const PRINT_SCRIPT: &str = include_str!("print.js");
/// A chapter's body with its section ids prefixed by its slug and links to any chapter of the
/// course (and its sections) turned into links within the page.
fn within(body: &str, slug: &str, lang: Lang) -> String {
    let body = body
        .replace(" id=\"s-", &format!(" id=\"{slug}-s-"))
        .replace("href=\"#s-", &format!("href=\"#{slug}-s-"));
    let mut out = String::with_capacity(body.len());
    let mut rest = body.as_str();
    const OPEN: &str = "href=\"#/";
    while let Some(at) = rest.find(OPEN) {
        let (before, from) = rest.split_at(at);
        out.push_str(before);
        let value = from.get(6..).unwrap_or("");
        let end = value.find('"').unwrap_or(value.len());
        let hash = value.get(..end).unwrap_or("");
        let target = Target::from_hash(hash);
        match target.route {
            Route::Chapter(l, s) if l == lang => {
                let anchor = match target.fragment.as_str() {
                    "" => s.to_string(),
                    f if f.starts_with("s-") => format!("{s}-{f}"),
                    f => f.to_string(),
                };
                out.push_str(&format!("href=\"#{anchor}\""));
            }
            _ => out.push_str(&format!("href=\"{hash}\"")),
        }
        rest = value.get(end + 1..).unwrap_or("");
    }
    out.push_str(rest);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_chapter_can_be_chosen_and_has_its_line_in_the_contents() {
        for lang in Lang::ALL {
            let html = course(lang);
            for chapter in content::chapters() {
                let (n, slug) = (chapter.number, chapter.slug);
                assert!(html.contains(&format!("id=\"pick-{n}\" value=\"{n}\"")), "{slug}");
                assert!(
                    html.contains(&format!("<span class=\"toc-page\" data-chapter=\"{slug}\">")),
                    "{slug}"
                );
                assert!(html.contains(&format!("id=\"{slug}\" data-number=\"{n}\"")), "{slug}");
            }
            assert!(html.contains(PRINT_SCRIPT) && html.contains("beforeprint"));
            assert!(!html.contains("<style"), "no inline style: the offline file would refuse it");
        }
        // The stylesheet shows the K-th chapter for the K-th box, for every chapter there is.
        let css = include_str!("../../assets/style.css");
        assert!(content::chapters().len() <= MAX_CHAPTERS);
        let k = MAX_CHAPTERS;
        assert!(css.contains(&format!("li:nth-child({k}) .pick:checked) > .print-chapter:nth-of-type({k})")));
    }

    #[test]
    fn chapter_links_stay_on_the_page_and_ids_are_unique() {
        let body = "<h2 id=\"s-1\">A</h2><a href=\"#s-1\">x</a><a href=\"#/en/chapters/cuda\">c</a>\
                    <a href=\"#/en/chapters/cuda?s=s-2\">d</a><a href=\"#/en/estimate/\">e</a>";
        let out = within(body, "nvlink", Lang::En);
        assert_eq!(
            out,
            "<h2 id=\"nvlink-s-1\">A</h2><a href=\"#nvlink-s-1\">x</a><a href=\"#cuda\">c</a>\
             <a href=\"#cuda-s-2\">d</a><a href=\"#/en/estimate/\">e</a>"
        );
    }
}
