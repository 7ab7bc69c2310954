//! The glossary page: every term in both languages with a short definition and links to the
//! chapters that use it, grouped by topic.

use crate::content;
use crate::content::glossary::{anchor, terms, Topic};
use crate::html::escape as esc;
use crate::i18n::Lang;

/// The glossary page's body in `lang`: per topic a heading and a `<dl>` of entries, each with
/// `data-term`, both languages' names, the definition and links to the chapters that use it.
/// The page is static: the app does nothing there.
pub fn page_html(lang: Lang) -> String {
    let c = lang.course();
    let mut out = String::new();
    for topic in Topic::ALL {
        out.push_str(&format!(
            "<section class=\"glossary-topic\"><h2>{}</h2><dl class=\"terms\">",
            esc(c.topic(topic))
        ));
        for t in terms().iter().filter(|t| t.topic == topic) {
            out.push_str(&format!(
                "<div class=\"term-card\" id=\"{}\" data-term=\"{}\"><dt><span class=\"term-here\" lang=\"{}\">{}</span><span class=\"term-other\" lang=\"{}\">{}</span></dt><dd><p class=\"term-def\">{}</p>",
                anchor(t.id),
                t.id,
                lang.html_lang(),
                esc(t.text(lang).term),
                lang.other().html_lang(),
                esc(t.text(lang.other()).term),
                esc(t.text(lang).definition),
            ));
            let chapters = t.text(lang).chapters;
            if !chapters.is_empty() {
                out.push_str(&format!("<p class=\"used-in\"><span>{}</span>", esc(c.used_in)));
                // The chapter's number, named in full for hover and screen readers: a term used
                // in ten chapters stays one line.
                for chapter in chapters.iter().filter_map(|slug| content::find(slug)) {
                    let name = esc(&format!("{}. {}", chapter.number, chapter.page(lang).title));
                    out.push_str(&format!(
                        "<a href=\"{}\" title=\"{name}\" aria-label=\"{name}\">{}</a>",
                        crate::route::Route::Chapter(lang, chapter.slug).to_hash(),
                        chapter.number,
                    ));
                }
                out.push_str("</p>");
            }
            out.push_str("</dd></div>");
        }
        out.push_str("</dl></section>");
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_page_lists_every_term_with_working_chapter_links() {
        for lang in Lang::ALL {
            let html = page_html(lang);
            assert_eq!(html.matches(" data-term=\"").count(), terms().len());
            assert!(terms().len() >= 60);
            for part in html.split(&format!("<a href=\"#/{}/chapters/", lang.code())).skip(1) {
                let slug = part.split(['"', '/']).next().unwrap_or("");
                assert!(content::find(slug).is_some(), "link to unknown chapter {slug}");
            }
            assert!(html.contains("data-term=\"kv-cache\""));
        }
    }
}
