//! The glossary: terms in both languages with a short definition each, grouped by topic, and
//! the chapters that use them. `build.rs` generates the list from `content/glossary.json` and
//! links the first use of each term in every chapter to its entry.

use crate::lang::Lang;

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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::content;

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
                    let link = format!("glossary/#term-{}\"", t.id);
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
                    let prefix = format!("<a href=\"#/{}/glossary/#term-", lang.code());
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
