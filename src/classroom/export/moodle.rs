//! A Moodle XML question bank: one numerical question per variant, each exercise's variants in
//! their own question category, so that a Moodle quiz's "random question from this category"
//! gives every student one of them.
//!
//! The format is Moodle's documented import format (docs.moodle.org/en/Moodle_XML_format;
//! the numerical type's fields as `question/type/numerical/questiontype.php` exports them):
//! `<answer fraction="100">` with an absolute `<tolerance>` (the exercise's relative tolerance
//! × the key), `<units>` with the question's unit at multiplier 1 and the others of its kind
//! (`export::units`), `unitgradingtype` 0 (a unit is optional; when given, it converts the
//! answer to the question's unit before grading), `showunits` 0 (a text box, unit typed with
//! the number) and `unitsleft` 0 (the unit follows the number).

use super::{lang_tag, units::alternatives, variants, xml_escape, xml_number, Request};
use crate::classroom::variant::Variant;
use crate::i18n::Lang;

/// The question bank for `req`.
pub fn bank(req: &Request) -> Result<String, String> {
    let mut out = String::from("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<quiz>\n");
    for p in &req.exercises {
        let chapter = chapter_of(p.id);
        out.push_str(&format!(
            "  <question type=\"category\">\n    <category><text>$course$/top/gpu-primer ({})/{}/{}</text></category>\n  </question>\n",
            lang_tag(req.lang),
            xml_escape(chapter),
            xml_escape(p.id)
        ));
        for (i, v) in variants(p, &req.class, req.variants)?.iter().enumerate() {
            out.push_str(&question(v, i + 1, req.lang)?);
        }
    }
    out.push_str("</quiz>\n");
    Ok(out)
}

/// The chapter (its slug) an exercise belongs to.
pub fn chapter_of(id: &str) -> &'static str {
    crate::exercises::all()
        .iter()
        .find(|(_, list)| list.iter().any(|e| e.id == id))
        .map(|(slug, _)| *slug)
        .unwrap_or("exercises")
}

/// One numerical question.
fn question(v: &Variant, number: usize, lang: Lang) -> Result<String, String> {
    let key = v.key_value()?;
    let unit = v.unit(lang);
    let tolerance = key * v.tolerance();
    let mut units =
        format!("      <unit><multiplier>1</multiplier><unit_name>{}</unit_name></unit>\n", xml_escape(unit));
    for (name, multiplier) in alternatives(unit) {
        units.push_str(&format!(
            "      <unit><multiplier>{}</multiplier><unit_name>{}</unit_name></unit>\n",
            xml_number(multiplier),
            xml_escape(name)
        ));
    }
    let text = format!("<p>{}</p>", xml_escape(&v.question(lang)?));
    let feedback = format!("<p>{}</p>", xml_escape(&v.solution(lang)?));
    Ok(format!(
        "  <question type=\"numerical\">\n    <name><text>{id} #{number}</text></name>\n    \
         <questiontext format=\"html\"><text>{text}</text></questiontext>\n    \
         <generalfeedback format=\"html\"><text>{feedback}</text></generalfeedback>\n    \
         <defaultgrade>1</defaultgrade>\n    <penalty>0.3333333</penalty>\n    <hidden>0</hidden>\n    \
         <idnumber>{id}-{number}</idnumber>\n    \
         <answer fraction=\"100\" format=\"moodle_auto_format\">\n      <text>{key}</text>\n      \
         <feedback format=\"html\"><text></text></feedback>\n      <tolerance>{tolerance}</tolerance>\n    </answer>\n    \
         <units>\n{units}    </units>\n    <unitgradingtype>0</unitgradingtype>\n    <unitpenalty>0.1</unitpenalty>\n    \
         <showunits>0</showunits>\n    <unitsleft>0</unitsleft>\n  </question>\n",
        id = xml_escape(v.exercise.id),
        text = xml_escape(&text),
        feedback = xml_escape(&feedback),
        key = xml_number(key),
        tolerance = xml_number(tolerance),
    ))
}
