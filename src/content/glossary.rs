//! The glossary: terms in both languages with a short definition each, grouped by topic, and
//! the chapters that use them. `build.rs` generates the list from `content/glossary.json` and
//! links the first use of each term in every chapter to its entry.

use crate::i18n::Lang;

/// The groups of the glossary page, in the order it shows them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Topic {
    Memory,
    Compute,
    Precision,
    Model,
    Inference,
    Training,
    Interconnect,
    Sharing,
    Cloud,
}

impl Topic {
    pub const ALL: [Topic; 9] = [
        Topic::Memory,
        Topic::Compute,
        Topic::Precision,
        Topic::Model,
        Topic::Inference,
        Topic::Training,
        Topic::Interconnect,
        Topic::Sharing,
        Topic::Cloud,
    ];
}

/// A term in one language.
#[derive(Debug)]
pub struct TermText {
    pub term: &'static str,
    pub definition: &'static str,
    /// Slugs of the chapters whose text in this language uses the term, in reading order.
    pub chapters: &'static [&'static str],
}

#[derive(Debug)]
pub struct Term {
    /// Stable slug: the `data-term` of its entry and the `?term=` of links to it.
    pub id: &'static str,
    pub topic: Topic,
    pub zh: TermText,
    pub en: TermText,
    /// Explained for completeness (the estimator handles it) though no chapter names it.
    pub standalone: bool,
}

impl Term {
    pub fn text(&self, lang: Lang) -> &TermText {
        match lang {
            Lang::Zh => &self.zh,
            Lang::En => &self.en,
        }
    }
}

include!(concat!(env!("OUT_DIR"), "/glossary.rs"));

/// Every term, in the order of `content/glossary.json`.
pub fn terms() -> &'static [Term] {
    TERMS
}

pub fn find(id: &str) -> Option<&'static Term> {
    TERMS.iter().find(|t| t.id == id)
}

/// The element id of a term's entry on the glossary page.
pub fn anchor(id: &str) -> String {
    format!("term-{id}")
}

/// The glossary page's body in `lang`: per topic a heading and a `<dl>` of entries, each with
/// `data-term`, both languages' names, the definition and links to the chapters that use it.
/// Built as one string (the page is static), which keeps the wasm small.
pub fn page_html(lang: Lang) -> String {
    use super::search_html::escape_html as esc;
    let c = lang.course();
    let mut out = String::new();
    for topic in Topic::ALL {
        out.push_str(&format!(
            "<section class=\"glossary-topic\"><h2>{}</h2><dl class=\"terms\">",
            esc(c.topic(topic))
        ));
        for t in TERMS.iter().filter(|t| t.topic == topic) {
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
                for chapter in chapters.iter().filter_map(|slug| super::find(slug)) {
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
    use crate::content;

    #[test]
    fn the_page_lists_every_term_with_working_chapter_links() {
        for lang in Lang::ALL {
            let html = page_html(lang);
            assert_eq!(html.matches(" data-term=\"").count(), terms().len());
            assert!(terms().len() >= 60);
            for part in html.split(&format!("<a href=\"#/{}/chapters/", lang.code())).skip(1) {
                let slug = part.split('"').next().unwrap_or("");
                assert!(content::find(slug).is_some(), "link to unknown chapter {slug}");
            }
            assert!(html.contains("data-term=\"kv-cache\""));
        }
    }

    #[test]
    fn at_least_sixty_terms_in_both_languages() {
        assert!(terms().len() >= 60, "{} terms", terms().len());
        for t in terms() {
            for lang in Lang::ALL {
                assert!(!t.text(lang).term.trim().is_empty(), "{} has no {lang:?} term", t.id);
                assert!(!t.text(lang).definition.trim().is_empty(), "{} has no {lang:?} definition", t.id);
            }
            assert_eq!(find(t.id).map(|f| f.id), Some(t.id));
        }
    }

    #[test]
    fn every_term_is_used_and_links_only_to_chapters_that_exist() {
        for t in terms() {
            for lang in Lang::ALL {
                let used = !t.text(lang).chapters.is_empty();
                assert!(used || t.standalone, "{} is used by no {lang:?} chapter", t.id);
            }
            for lang in Lang::ALL {
                for slug in t.text(lang).chapters {
                    assert!(content::find(slug).is_some(), "{} lists unknown chapter {slug}", t.id);
                    // The chapter's text in that language links the term.
                    let page = content::find(slug).map(|c| c.page(lang));
                    let link = format!("glossary?term={}\"", t.id);
                    let linked = page.is_some_and(|p| {
                        p.segments.iter().any(|s| matches!(s, content::Segment::Html(h) if h.contains(&link)))
                    });
                    assert!(linked, "{}/{slug} does not link {}", lang.code(), t.id);
                }
            }
        }
        for topic in Topic::ALL {
            assert!(terms().iter().any(|t| t.topic == topic), "{topic:?} has no terms");
        }
    }

    #[test]
    fn chapter_term_links_point_at_known_terms() {
        let mut links = 0;
        for c in content::chapters() {
            for lang in Lang::ALL {
                for segment in c.page(lang).segments {
                    let content::Segment::Html(html) = segment else { continue };
                    let prefix = format!("<a href=\"#/{}/glossary?term=", lang.code());
                    for part in html.split(prefix.as_str()).skip(1) {
                        let id = part.split('"').next().unwrap_or("");
                        assert!(find(id).is_some(), "{}/{}: unknown term {id}", lang.code(), c.slug);
                        links += 1;
                    }
                    let other = format!("#/{}/glossary", lang.other().code());
                    assert!(!html.contains(&other), "{}/{} links the other language", lang.code(), c.slug);
                }
            }
        }
        assert!(links >= 200, "only {links} term links in the chapters");
    }
}
