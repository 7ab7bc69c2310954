//! "Make an assignment": the teacher's form (title, class code, due line, roster, what students
//! see, the exercises) and what it gives: the students' link, the gradebook, the printed sheets
//! and the exports. The form's state is the page's query (`a=` the assignment as it is being
//! made, `r=` the roster), so a reload or a bookmark keeps it.

use super::{chapter_label, Query};
use crate::classroom::assignment::{Assignment, MAX_EXERCISES};
use crate::classroom::export::{moodle, qti, Request};
use crate::html::escape as esc;
use crate::i18n::Lang;
use crate::route::{Class, Route, Target};

/// The form's state.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Make {
    pub a: Assignment,
    pub roster: Vec<String>,
}

impl Default for Make {
    /// A new assignment: hints and worked solutions shown, no exercise chosen.
    fn default() -> Make {
        Make {
            a: Assignment {
                title: String::new(),
                class: String::new(),
                due: String::new(),
                exercises: Vec::new(),
                show_hints: true,
                show_solutions: true,
                show_answer_key: false,
            },
            roster: Vec::new(),
        }
    }
}

/// The form of a query; a token that cannot be read starts a new assignment (the form is
/// then empty, which the reader sees at once).
pub fn decode(query: &str) -> Make {
    let q = Query::parse(query);
    let mut m = Make::default();
    // An exercise the site no longer has is kept: removing it would change the fingerprint, and
    // codes already handed in would read as another assignment's.
    if let Ok(a) = Assignment::read_token(&q.token) {
        m.a = a;
    }
    m.roster = q.roster;
    m
}

pub fn encode(m: &Make) -> String {
    Query { token: m.a.to_token(), roster: m.roster.clone(), ..Query::default() }.encode()
}

/// Applies one field's edit (`data-f` of the control).
pub fn edit(m: &mut Make, field: &str, value: &str, checked: bool) {
    match field {
        "title" => m.a.title = value.to_string(),
        "class" => m.a.class = value.trim().to_string(),
        "due" => m.a.due = value.to_string(),
        "roster" => m.roster = super::roster_of(value),
        "hints" => m.a.show_hints = checked,
        "solutions" => m.a.show_solutions = checked,
        "answer-key" => m.a.show_answer_key = checked,
        "ex" => choose(&mut m.a.exercises, value, checked),
        _ => {}
    }
}

/// Adds or removes exercise `id`, keeping the course's order.
fn choose(chosen: &mut Vec<String>, id: &str, on: bool) {
    if crate::exercises::find(id).is_none() {
        return;
    }
    chosen.retain(|c| c != id);
    if on {
        chosen.push(id.to_string());
    }
    let order: Vec<&str> = crate::exercises::all().iter().flat_map(|(_, l)| l.iter().map(|e| e.id)).collect();
    chosen.sort_by_key(|c| order.iter().position(|o| o == c).unwrap_or(usize::MAX));
}

/// The first `n` characters of `s`, with `…` when cut.
fn clip(s: &str, n: usize) -> String {
    match s.char_indices().nth(n) {
        Some((at, _)) => format!("{}…", &s[..at]),
        None => s.to_string(),
    }
}

/// The form, drawn once (its fields are not redrawn while the teacher types).
pub fn controls_html(lang: Lang, m: &Make) -> String {
    let w = lang.class();
    let check = |on: bool| if on { " checked" } else { "" };
    let field = |f: &str, label: &str, value: &str, placeholder: &str, help: &str| {
        format!(
            "<label class=\"cr-field\"><span>{}</span><input type=\"text\" data-f=\"{f}\" value=\"{}\" placeholder=\"{}\" autocomplete=\"off\">{}</label>",
            esc(label),
            esc(value),
            esc(placeholder),
            if help.is_empty() { String::new() } else { format!("<small>{}</small>", esc(help)) }
        )
    };
    let mut out = String::from("<form class=\"cr-form\" autocomplete=\"off\">");
    out.push_str(&field("title", w.title_label, &m.a.title, w.title_placeholder, ""));
    out.push_str(&field("class", w.class_label, &m.a.class, "", w.class_help));
    out.push_str(&field("due", w.due_label, &m.a.due, w.due_placeholder, ""));
    out.push_str(&format!(
        "<label class=\"cr-field\"><span>{}</span><textarea data-f=\"roster\" rows=\"5\">{}</textarea><small>{}</small></label>",
        esc(w.roster_label),
        esc(&m.roster.join("\n")),
        esc(w.roster_help)
    ));
    out.push_str(&format!(
        "<fieldset class=\"cr-see\"><legend>{}</legend>\
         <label><input type=\"checkbox\" data-f=\"hints\"{}> {}</label>\
         <label><input type=\"checkbox\" data-f=\"solutions\"{}> {}</label>\
         <label><input type=\"checkbox\" data-f=\"answer-key\"{}> {}</label></fieldset>",
        esc(w.students_see),
        check(m.a.show_hints),
        esc(w.show_hints),
        check(m.a.show_solutions),
        esc(w.show_solutions),
        check(m.a.show_answer_key),
        esc(w.show_answer_key),
    ));
    out.push_str(&format!("<fieldset class=\"cr-pick\"><legend>{}</legend>", esc(w.pick_legend)));
    for (slug, list) in crate::exercises::all() {
        let any = list.iter().any(|e| m.a.exercises.iter().any(|c| c == e.id));
        out.push_str(&format!(
            "<details class=\"cr-chapter\" data-chapter=\"{}\"{}><summary>{}</summary><ul>",
            esc(slug),
            if any { " open" } else { "" },
            esc(&chapter_label(slug, lang))
        ));
        for e in *list {
            let own = crate::classroom::find(e.id).is_some();
            out.push_str(&format!(
                "<li><label><input type=\"checkbox\" data-f=\"ex\" value=\"{}\"{}> <span class=\"tag{}\">{}</span> <span class=\"cr-ex-text\">{}</span></label></li>",
                esc(e.id),
                check(m.a.exercises.iter().any(|c| c == e.id)),
                if own { " own" } else { "" },
                esc(if own { w.own_numbers } else { w.same_numbers }),
                esc(&clip(e.text(lang).question, 150))
            ));
        }
        out.push_str("</ul></details>");
    }
    out.push_str("</fieldset></form>");
    out
}

/// How many variants of each exercise the exports hold: the roster's size, at least 10.
pub fn export_variants(m: &Make) -> usize {
    m.roster.len().max(10)
}

/// The export request of the assignment (its exercises with own numbers).
fn request(m: &Make, lang: Lang) -> Request {
    Request {
        exercises: m.a.exercises.iter().filter_map(|id| crate::classroom::find(id)).collect(),
        variants: export_variants(m),
        class: m.a.class.clone(),
        lang,
    }
}

/// The Moodle XML question bank of the assignment.
pub fn moodle_xml(m: &Make, lang: Lang) -> Result<String, String> {
    moodle::bank(&request(m, lang))
}

/// The QTI 2.1 content package (ZIP bytes).
pub fn qti_zip(m: &Make, lang: Lang) -> Result<Vec<u8>, String> {
    qti::package(&request(m, lang))
}

/// A file name for downloads of class `class`: its ASCII letters, digits and `-` (`class` when
/// none).
pub fn file_stem(class: &str) -> String {
    let s: String = class.chars().filter(|c| c.is_ascii_alphanumeric() || *c == '-').collect();
    if s.is_empty() {
        "class".into()
    } else {
        s
    }
}

/// A page of the classroom with this assignment (`roster`: with the roster, for the printed
/// sheets), in the hash form.
pub fn link(lang: Lang, class: Class, m: &Make, roster: bool, students: &[String], key: bool) -> String {
    let q = Query {
        token: m.a.to_token(),
        roster: if roster { m.roster.clone() } else { Vec::new() },
        students: students.to_vec(),
        show_key: key,
        handin: String::new(),
    };
    Target { route: Route::Classroom(lang, class), query: q.encode(), fragment: String::new() }.to_hash()
}

/// What the form gives: its problems, or the students' link (`student_url`, the absolute
/// address of [`link`] to the student page), the gradebook, the printed sheets and the exports.
pub fn results_html(lang: Lang, m: &Make, student_url: &str) -> String {
    let w = lang.class();
    let mut problems = Vec::new();
    if m.a.class.trim().is_empty() {
        problems.push(w.need_class.to_string());
    }
    if m.a.exercises.is_empty() {
        problems.push(w.need_exercises.to_string());
    } else if m.a.exercises.len() > MAX_EXERCISES {
        problems.push((w.too_many)(m.a.exercises.len(), MAX_EXERCISES));
    }
    if !problems.is_empty() {
        let items: String = problems.iter().map(|p| format!("<li>{}</li>", esc(p))).collect();
        return format!("<div role=\"status\"><ul class=\"cr-problems\">{items}</ul></div>");
    }
    let own = m.a.exercises.iter().filter(|id| crate::classroom::find(id).is_some()).count();
    let mut out = format!(
        "<p class=\"cr-summary\" role=\"status\">{}</p>",
        esc(&(w.summary)(m.a.exercises.len(), own, m.roster.len()))
    );
    out.push_str(&format!(
        "<h2>{}</h2><p>{}</p><p><input type=\"text\" class=\"cr-link\" readonly value=\"{}\" aria-label=\"{}\"></p>\
         <p class=\"cr-actions\"><a class=\"button\" data-go=\"student\" href=\"{}\">{}</a> <a class=\"button secondary\" data-go=\"grade\" href=\"{}\">{}</a></p>",
        esc(w.student_link),
        esc(w.student_link_help),
        esc(student_url),
        esc(w.student_link),
        esc(&link(lang, Class::Do, m, false, &[], false)),
        esc(w.open_student_page),
        esc(&link(lang, Class::Grade, m, false, &[], false)),
        esc(w.open_gradebook),
    ));
    out.push_str(&format!("<h2>{}</h2>", esc(w.print_heading)));
    if m.roster.is_empty() {
        out.push_str(&format!("<p>{}</p>", esc(w.no_roster)));
    } else {
        out.push_str(&format!(
            "<p class=\"cr-actions\"><a class=\"button\" data-go=\"sheets\" href=\"{}\">{}</a> <a class=\"button\" data-go=\"key\" href=\"{}\">{}</a></p><ul class=\"cr-sheets\">",
            esc(&link(lang, Class::Print, m, true, &[], false)),
            esc(&(w.all_worksheets)(m.roster.len())),
            esc(&link(lang, Class::Print, m, true, &[], true)),
            esc(w.class_key),
        ));
        for name in &m.roster {
            out.push_str(&format!(
                "<li><a href=\"{}\">{}{}</a></li>",
                esc(&link(lang, Class::Print, m, true, std::slice::from_ref(name), false)),
                esc(w.worksheet_of),
                esc(name)
            ));
        }
        out.push_str("</ul>");
    }
    out.push_str(&format!("<h2>{}</h2>", esc(w.exports_heading)));
    if own == 0 {
        out.push_str(&format!("<p>{}</p>", esc(w.nothing_to_export)));
    } else {
        out.push_str(&format!(
            "<p>{}</p><p class=\"cr-actions needs-js\"><button type=\"button\" class=\"button\" data-a=\"moodle\">{}</button> <button type=\"button\" class=\"button\" data-a=\"qti\">{}</button></p>",
            esc(&(w.exports_help)(export_variants(m))),
            esc(w.moodle_button),
            esc(w.qti_button)
        ));
        if own < m.a.exercises.len() {
            out.push_str(&format!("<p class=\"hint\">{}</p>", esc(w.not_exported)));
        }
    }
    out.push_str(&format!(
        "<p>{}</p><p class=\"cr-actions needs-js\"><button type=\"button\" class=\"button\" data-a=\"scorm\">{}</button></p>",
        esc(w.scorm_help),
        esc(w.scorm_button)
    ));
    out
}

/// The SCORM 1.2 package of the assignment (`classroom::export::scorm`), around `course`, the
/// site's offline file.
pub fn scorm_zip(m: &Make, lang: Lang, course: &[u8]) -> Result<Vec<u8>, String> {
    crate::classroom::export::scorm::package(&m.a, lang, course)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn two() -> (String, String) {
        let own = crate::classroom::all()[0].id.to_string();
        let plain = crate::exercises::all()
            .iter()
            .flat_map(|(_, l)| l.iter())
            .find(|e| crate::classroom::find(e.id).is_none())
            .unwrap()
            .id
            .to_string();
        (own, plain)
    }

    #[test]
    fn the_form_survives_its_address_and_keeps_the_course_order() {
        let (own, plain) = two();
        let mut m = Make::default();
        edit(&mut m, "class", " C-7 ", false);
        edit(&mut m, "roster", "Ann\n张三\n\nAnn", false);
        edit(&mut m, "ex", &own, true);
        edit(&mut m, "ex", &plain, true);
        edit(&mut m, "ex", "no-such-exercise", true);
        edit(&mut m, "answer-key", "", true);
        assert_eq!(m.a.class, "C-7");
        assert_eq!(m.roster, vec!["Ann", "张三"]);
        assert_eq!(m.a.exercises.len(), 2);
        assert!(m.a.show_answer_key);
        assert_eq!(decode(&encode(&m)), m);
        edit(&mut m, "ex", &own, false);
        assert_eq!(m.a.exercises, vec![plain]);
        // A mangled address starts a new form rather than failing.
        assert_eq!(decode("a=%%%&r=***"), Make::default());
    }

    #[test]
    fn the_results_name_what_is_missing_then_give_links_and_exports() {
        let (own, plain) = two();
        for lang in Lang::ALL {
            let mut m = Make::default();
            let html = results_html(lang, &m, "");
            assert!(
                html.contains(&esc(lang.class().need_class))
                    && html.contains(&esc(lang.class().need_exercises))
            );
            edit(&mut m, "class", "C1", false);
            edit(&mut m, "ex", &plain, true);
            let html = results_html(lang, &m, "http://x/");
            assert!(html.contains(&esc(lang.class().nothing_to_export)), "{html}");
            edit(&mut m, "ex", &own, true);
            edit(&mut m, "roster", "Ann\nBob", false);
            let html = results_html(lang, &m, "http://x/");
            assert!(html.contains("data-a=\"moodle\"") && html.contains("data-a=\"qti\""));
            assert!(html.contains("data-a=\"scorm\"") && html.contains(&esc(lang.class().scorm_button)));
            let course = b"<!doctype html>\n<html data-offline></html>";
            assert_eq!(&scorm_zip(&m, lang, course).unwrap()[..2], b"PK");
            assert!(scorm_zip(&m, lang, b"<!doctype html><p>not found</p>").is_err());
            assert_eq!(html.matches(esc(lang.class().worksheet_of).as_str()).count(), 2);
            assert!(html.contains("classroom/do/?a=") && html.contains("classroom/grade/?a="));
            assert!(moodle_xml(&m, lang).unwrap().contains("<quiz>"));
            assert_eq!(&qti_zip(&m, lang).unwrap()[..2], b"PK");
            let html = controls_html(lang, &m);
            assert_eq!(html.matches(" checked").count(), 2 + 2, "two exercises, hints and solutions");
        }
    }
}
