//! Chapters: the registry that `build.rs` generates from `content/{zh,en}/NN-slug.md`.
//! Each chapter has the same slug, headings, widget slots and exercises in both languages
//! (the build fails otherwise).

use crate::i18n::Lang;

#[cfg(test)]
mod render;

/// A piece of a chapter body: rendered HTML, or the place where a calculator is mounted.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Segment {
    Html(&'static str),
    Widget(&'static str),
    /// The place of an exercise (its id in `crate::exercises`).
    Exercise(&'static str),
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
    pub zh: Page,
    pub en: Page,
}

impl Chapter {
    pub fn page(&self, lang: Lang) -> &Page {
        match lang {
            Lang::Zh => &self.zh,
            Lang::En => &self.en,
        }
    }
}

include!(concat!(env!("OUT_DIR"), "/chapters.rs"));

/// All chapters, in reading order.
pub fn chapters() -> &'static [Chapter] {
    CHAPTERS
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
