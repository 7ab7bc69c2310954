//! The whole course on one page per language (`{lang}/print/`, mdBook's `print.html`): every
//! chapter in order, its widgets as their default figures, for a classroom printer or a PDF.
//! Ids are made unique across chapters (`{slug}-s-3`), and links between chapters point into
//! the page itself.

use crate::content;
use crate::html::escape as esc;
use crate::i18n::Lang;
use crate::route::{Route, Target};

/// The inside of `<main>` for the print page of `lang`.
pub fn course(lang: Lang) -> String {
    let s = lang.strings();
    let c = lang.course();
    let mut out = format!(
        "<article class=\"print-course\" data-page=\"print\"><h1>{}</h1><p class=\"lead\">{}</p><nav class=\"toc\"><ol>",
        esc(c.print_title),
        esc(c.print_intro)
    );
    for chapter in content::chapters() {
        out.push_str(&format!(
            "<li><a href=\"#{}\">{}</a></li>",
            chapter.slug,
            esc(chapter.page(lang).title)
        ));
    }
    out.push_str("</ol></nav>");
    for chapter in content::chapters() {
        let page = chapter.page(lang);
        let body = super::chapter::body(lang, chapter, &Route::Chapter(lang, chapter.slug));
        out.push_str(&format!(
            "<section class=\"print-chapter chapter\" id=\"{slug}\"><p class=\"eyebrow\">{}</p><h1>{}</h1>{}</section>",
            esc(&s.chapter_number(chapter.number)),
            esc(page.title),
            within(&body, chapter.slug, lang),
            slug = chapter.slug,
        ));
    }
    out.push_str("</article>");
    out
}

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
