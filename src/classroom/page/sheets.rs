//! The printed sheets of an assignment: one worksheet per student (their own numbers, a blank
//! for each answer, one page each) and the class answer key (every student's key to every
//! exercise, with the numbers drawn for it, in one table).

use super::{chapter_label, items, Item};
use crate::classroom::assignment::Assignment;
use crate::html::escape as esc;
use crate::i18n::Lang;

/// The worksheets of `students`.
pub fn worksheets_html(lang: Lang, a: &Assignment, students: &[String]) -> String {
    let w = lang.class();
    if students.is_empty() {
        return format!("<p class=\"warn\">{}</p>", esc(w.no_students));
    }
    let mut out = String::new();
    for student in students {
        out.push_str(&format!(
            "<section class=\"cr-sheet\" data-student=\"{}\">{}<p class=\"cr-facts\"><span>{}<strong>{}</strong></span></p><ol class=\"worksheet\">",
            esc(student),
            super::student::header_html(lang, a).replacen("<h1>", "<h2>", 1).replacen("</h1>", "</h2>", 1),
            esc(w.name_line),
            esc(student)
        ));
        for item in items(a, student, lang) {
            match item {
                Ok(item) => out.push_str(&worksheet_item(lang, &item)),
                Err(_) => out.push_str(&format!("<li class=\"warn\">{}</li>", esc(w.gone))),
            }
        }
        out.push_str("</ol></section>");
    }
    out
}

fn worksheet_item(lang: Lang, item: &Item) -> String {
    let w = lang.class();
    let options: String = item
        .options
        .iter()
        .map(|(_, label)| format!("<li class=\"cr-ex-text\">☐ {}</li>", esc(label)))
        .collect();
    let blank = if item.options.is_empty() {
        format!("<p class=\"worksheet-blank\">________ {}</p>", esc(item.unit))
    } else {
        format!("<ul class=\"worksheet-options\">{options}</ul>")
    };
    format!(
        "<li class=\"worksheet-item\" data-exercise=\"{}\"><p class=\"hint\">{}{}</p><p class=\"cr-ex-text\">{}</p>{blank}</li>",
        esc(&item.id),
        esc(w.from_chapter),
        esc(&chapter_label(item.chapter, lang)),
        esc(&item.question)
    )
}

/// The class key: a row per student, a column per exercise.
pub fn key_html(lang: Lang, a: &Assignment, students: &[String]) -> String {
    let w = lang.class();
    let x = lang.ex();
    if students.is_empty() {
        return format!("<p class=\"warn\">{}</p>", esc(w.no_students));
    }
    let mut out = format!(
        "<section class=\"cr-key\">{}<h2>{}</h2><p class=\"hint\">{}</p><ol class=\"cr-key-list\">",
        super::student::header_html(lang, a),
        esc(w.key_heading),
        esc(w.key_note)
    );
    for id in &a.exercises {
        let slug = crate::classroom::export::moodle::chapter_of(id);
        let own = crate::classroom::find(id).is_some();
        out.push_str(&format!(
            "<li data-own=\"{own}\">{} · {}</li>",
            esc(&chapter_label(slug, lang)),
            esc(if own { w.own_numbers } else { w.same_numbers })
        ));
    }
    out.push_str("</ol>");
    let mut head = format!("<th scope=\"col\">{}</th>", esc(w.student));
    for i in 1..=a.exercises.len() {
        head.push_str(&format!("<th scope=\"col\">{} {i}</th>", esc(x.exercise)));
    }
    let mut body = String::new();
    for student in students {
        body.push_str(&format!(
            "<tr data-student=\"{}\"><th scope=\"row\">{}</th>",
            esc(student),
            esc(student)
        ));
        for item in items(a, student, lang) {
            let cell = match item {
                Ok(item) if item.values.is_empty() => format!("<strong>{}</strong>", esc(&item.key_shown())),
                Ok(item) => format!(
                    "<strong>{}</strong><br><small class=\"cr-ex-text\">({})</small>",
                    esc(&item.key_shown()),
                    esc(&item.values.join(", "))
                ),
                Err(_) => format!("<span class=\"warn\">{}</span>", esc(w.gone)),
            };
            body.push_str(&format!("<td>{cell}</td>"));
        }
        body.push_str("</tr>");
    }
    out.push_str(&format!(
        "<div class=\"table-wrap\"><table class=\"cr-book\"><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table></div></section>"
    ));
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_student_gets_a_sheet_and_a_row_with_their_own_key() {
        let a = Assignment {
            title: "T".into(),
            class: "P1".into(),
            due: "Fri".into(),
            exercises: crate::classroom::all().iter().take(4).map(|p| p.id.to_string()).collect(),
            show_hints: false,
            show_solutions: false,
            show_answer_key: false,
        };
        let students: Vec<String> = ["Ann", "王五"].map(String::from).to_vec();
        for lang in Lang::ALL {
            let sheets = worksheets_html(lang, &a, &students);
            assert_eq!(sheets.matches("class=\"cr-sheet\"").count(), 2);
            assert_eq!(sheets.matches("worksheet-item").count(), 8);
            let key = key_html(lang, &a, &students);
            for s in &students {
                let first = items(&a, s, lang)[0].as_ref().unwrap().key_shown();
                assert!(key.contains(&esc(&first)), "{s}: {first}");
                let q = items(&a, s, lang)[0].as_ref().unwrap().question.clone();
                assert!(sheets.contains(&esc(&q)));
            }
            assert!(worksheets_html(lang, &a, &[]).contains(&esc(lang.class().no_students)));
        }
    }
}
