//! Chapters: the registry that `build.rs` generates from `content/{zh,en}/NN-slug.md`.
//! Each chapter has the same slug, headings, widget slots and exercises in both languages
//! (the build fails otherwise). The glossary's terms and the search's matching live here too;
//! nothing here words anything (the words are `i18n`'s) or builds a page (that is `site`'s).
//!
//! The chapters' text is read by the prerenderer only: the browser's app gets its pages as
//! HTML files, so code that runs there uses [`slugs`] (a list of its own), never [`chapters`].

use crate::lang::Lang;

pub mod glossary;
#[cfg(test)]
mod glossary_data;
/// Numbers in the prose, filled at build time (the prerenderer's step; the app never calls it).
pub mod numbers;
#[cfg(test)]
mod render;
pub mod search;
#[cfg(test)]
mod terms;

include!("widget_kinds.rs");

/// The estimator charts the tools' bundle draws: the chapters that hold a tool show only the
/// memory chart (the MIG chapter's), so the other charts, their views and their words stay in the
/// course's bundle (`ui::estimator::widget`; a test in `site::pages` holds every page of that bundle to it).
pub const TOOLS_BUNDLE_CHARTS: &[&str] = &["memory"];

/// The chapter figures the tools' bundle draws (`ui::figure`): the MIG chapter's and the
/// bottlenecks chapter's; the others are the course's.
pub const TOOLS_BUNDLE_FIGURES: &[&str] = &["mig-slices", "bottlenecks"];

/// A piece of a chapter body: rendered HTML, or the place where a calculator is mounted.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Segment {
    Html(&'static str),
    Widget(&'static str),
    /// The place of an exercise (its id in `crate::exercises`).
    Exercise(&'static str),
    /// The place of a figure (a name in `render::FIGURES`, drawn by `ui::figure`).
    Figure(&'static str),
}

/// One language's version of a chapter.
#[derive(Debug)]
pub struct Page {
    pub title: &'static str,
    /// Plain text of the opening paragraph.
    pub summary: &'static str,
    /// (level, text) of the headings below the title.
    pub headings: &'static [(u8, &'static str)],
    pub segments: &'static [Segment],
}

#[derive(Debug)]
pub struct Chapter {
    pub number: u32,
    pub slug: &'static str,
    /// Into the generated per-language page arrays (one language's text after the other).
    pub zh: &'static Page,
    pub en: &'static Page,
}

impl Chapter {
    pub fn page(&self, lang: Lang) -> &'static Page {
        match lang {
            Lang::Zh => self.zh,
            Lang::En => self.en,
        }
    }
}

include!(concat!(env!("OUT_DIR"), "/chapters.rs"));

/// The id of the `n`-th heading below a chapter's title (1-based), the same in both languages
/// (`render.rs` gives the headings these ids at build time). A link to a section is
/// `#/{lang}/chapters/{slug}/#{id}`.
pub fn section_id(n: usize) -> String {
    format!("s-{n}")
}

/// Every chapter's slug in reading order. A list of its own: the app's route parser runs in the
/// browser, and reading [`CHAPTERS`] there would put every chapter's text into the wasm.
pub fn slugs() -> &'static [&'static str] {
    &SLUGS
}

/// The slug `s` as the registry holds it, if a chapter has it.
pub fn slug(s: &str) -> Option<&'static str> {
    SLUGS.iter().copied().find(|x| *x == s)
}

/// All chapters, in reading order.
pub fn chapters() -> &'static [Chapter] {
    CHAPTERS
}

/// A chapter's number and title in `lang`, without its text: a page that names chapters (the
/// classroom's) links this small table, not every chapter's body, into its bundle.
pub fn title(slug: &str, lang: Lang) -> Option<(u32, &'static str)> {
    TITLES.iter().find(|t| t.1 == slug).map(|&(number, _, zh, en)| match lang {
        Lang::Zh => (number, zh),
        Lang::En => (number, en),
    })
}

pub fn find(slug: &str) -> Option<&'static Chapter> {
    CHAPTERS.iter().find(|c| c.slug == slug)
}

/// The chapters before and after `slug`, for the previous/next links.
pub fn neighbours(slug: &str) -> (Option<&'static Chapter>, Option<&'static Chapter>) {
    let Some(i) = CHAPTERS.iter().position(|c| c.slug == slug) else {
        return (None, None);
    };
    (i.checked_sub(1).and_then(|p| CHAPTERS.get(p)), CHAPTERS.get(i + 1))
}

/// The chapter number each stage of the learning path starts at (the home page groups the
/// chapters by stage; the stage names are `CourseStrings::stages`).
pub const STAGE_STARTS: [u32; 4] = [1, 7, 10, 14];

/// The stage (0-based) that chapter `number` belongs to.
pub fn stage_of(number: u32) -> usize {
    STAGE_STARTS.iter().rposition(|&start| number >= start).unwrap_or(0)
}

#[cfg(test)]
mod tests {
    use super::{chapters, stage_of, STAGE_STARTS};

    #[test]
    fn every_stage_has_chapters_and_stages_follow_reading_order() {
        let stages: Vec<usize> = chapters().iter().map(|c| stage_of(c.number)).collect();
        assert!(stages.windows(2).all(|w| w[0] <= w[1]), "{stages:?}");
        for i in 0..STAGE_STARTS.len() {
            assert!(stages.contains(&i), "stage {i} has no chapter: {stages:?}");
        }
        assert_eq!((stage_of(1), stage_of(6), stage_of(7), stage_of(15)), (0, 0, 1, 3));
    }

    #[test]
    fn the_slug_list_is_the_chapters_slugs() {
        let from_chapters: Vec<&str> = chapters().iter().map(|c| c.slug).collect();
        assert_eq!(super::slugs(), from_chapters.as_slice());
        assert_eq!(super::slug(from_chapters[3]), Some(from_chapters[3]));
        assert_eq!(super::slug("no-such"), None);
    }

    #[test]
    fn section_ids_agree_with_the_renderer() {
        for n in [1, 7, 30] {
            assert_eq!(super::section_id(n), super::render::section_id(n));
        }
    }
}
