//! A set of variants in the formats learning-management systems import: a Moodle XML question
//! bank ([`moodle`]) and a QTI 2.1 content package ([`qti`]). Both carry each variant's question
//! with its numbers, the key the engine computed, and the exercise's tolerance. And one
//! assignment as a SCORM 1.2 package ([`scorm`]): the offline course at the student's page,
//! which reports the score to the LMS.

pub mod moodle;
pub mod qti;
pub mod scorm;
mod units;
pub mod zip;

use crate::classroom::variant::{Parametric, Variant};
use crate::classroom::variant_seed;
use crate::i18n::Lang;

/// What to export: exercises, how many variants of each, the class code that seeds them, and
/// the language.
#[derive(Debug, Clone)]
pub struct Request {
    pub exercises: Vec<&'static Parametric>,
    pub variants: usize,
    pub class: String,
    pub lang: Lang,
}

/// The variants of one exercise: variant `i` is the class's draw for the name `variant-i`, so
/// the same request gives the same numbers in the CLI and in the browser.
pub fn variants(p: &'static Parametric, class: &str, count: usize) -> Result<Vec<Variant>, String> {
    (1..=count).map(|i| p.variant(variant_seed(class, &format!("variant-{i}"), p.id))).collect()
}

/// Text and double-quoted attribute values for XML: the site's one escaper
/// (`crate::html::escape`: `<`, `>`, `&`, `"`), which is all XML needs there; an apostrophe
/// needs no escape outside single-quoted attributes.
pub use crate::html::escape as xml_escape;

/// A decimal for an XML value: no exponent, no trailing zeros, at most 12 significant digits.
pub fn xml_number(v: f64) -> String {
    if v == 0.0 || !v.is_finite() {
        return "0".into();
    }
    let digits = (11 - v.abs().log10().floor() as i32).clamp(0, 15) as usize;
    let s = format!("{v:.digits$}");
    if s.contains('.') {
        s.trim_end_matches('0').trim_end_matches('.').to_string()
    } else {
        s
    }
}

/// The language's tag for `xml:lang`.
pub fn lang_tag(lang: Lang) -> &'static str {
    match lang {
        Lang::Zh => "zh-CN",
        Lang::En => "en",
    }
}
