//! The gradebook page: pasted hand-in codes (or a file of them) read back, every answer checked
//! again against that student's own key ([`crate::classroom::gradebook`]), one row per student,
//! each unusable piece named, and what a checksum does not prevent said plainly.

use crate::classroom::assignment::Assignment;
use crate::classroom::gradebook::Gradebook;
use crate::html::escape as esc;
use crate::i18n::Lang;

/// The paste box and the file chooser (drawn once; `pasted` is what was kept).
pub fn controls_html(lang: Lang, pasted: &str) -> String {
    let w = lang.class();
    format!(
        "<label class=\"cr-field\"><span>{}</span><textarea data-f=\"codes\" rows=\"8\" spellcheck=\"false\" lang=\"zxx\">{}</textarea><small>{}</small></label>\
         <label class=\"cr-field needs-js\"><span>{}</span><input type=\"file\" data-f=\"file\" accept=\".txt,.csv,text/plain\"></label>",
        esc(w.paste_label),
        esc(pasted),
        esc(w.paste_help),
        esc(w.file_label)
    )
}

/// The table, the pieces not counted, the CSV button and the honest note.
pub fn results_html(lang: Lang, a: &Assignment, book: &Gradebook) -> String {
    let w = lang.class();
    let x = lang.ex();
    let mut out = String::new();
    if !book.problems.is_empty() {
        let items: String = book
            .problems
            .iter()
            .map(|p| format!("<li>{}</li>", esc(&crate::i18n::classroom::problem(p, lang))))
            .collect();
        out.push_str(&format!(
            "<div class=\"banner warn\" role=\"status\"><strong>{}</strong><ul class=\"cr-problems\">{items}</ul></div>",
            esc(w.problems_heading)
        ));
    }
    if book.rows.is_empty() {
        out.push_str(&format!("<p class=\"cr-summary\">{}</p>", esc(w.no_codes)));
    } else {
        out.push_str(&format!(
            "<p class=\"cr-summary\" role=\"status\">{}</p>",
            esc(&(w.students_in)(book.rows.len()))
        ));
        let mut head =
            format!("<th scope=\"col\">{}</th><th scope=\"col\">{}</th>", esc(w.student), esc(w.score));
        for (i, id) in a.exercises.iter().enumerate() {
            head.push_str(&format!(
                "<th scope=\"col\" title=\"{}\">{} {}</th>",
                esc(id),
                esc(x.exercise),
                i + 1
            ));
        }
        head.push_str(&format!("<th scope=\"col\">{}</th>", esc(w.disagree)));
        let mut body = String::new();
        for r in &book.rows {
            body.push_str(&format!(
                "<tr data-student=\"{}\"><th scope=\"row\">{}</th><td class=\"num\">{}/{}</td>",
                esc(&r.student),
                esc(&r.student),
                r.score(),
                a.exercises.len()
            ));
            for c in &r.cells {
                let (class, word) = match c.right {
                    Some(true) => ("ok", w.cell_right),
                    Some(false) => ("bad", w.cell_wrong),
                    None => ("none", w.cell_empty),
                };
                let differs = c.page_said.is_some() && c.right.is_some() && c.page_said != c.right;
                body.push_str(&format!(
                    "<td class=\"cr-cell {class}{}\"{}><span class=\"cr-verdict\">{}</span> {}</td>",
                    if differs { " differs" } else { "" },
                    if differs { format!(" title=\"{}\"", esc(w.disagree_note)) } else { String::new() },
                    esc(word),
                    esc(&c.answer)
                ));
            }
            body.push_str(&format!("<td class=\"num\">{}</td></tr>", r.disagreements()));
        }
        out.push_str(&format!(
            "<div class=\"table-wrap\"><table class=\"cr-book\"><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table></div>\
             <p class=\"cr-actions needs-js\"><button type=\"button\" class=\"button\" data-a=\"csv\">{}</button></p>",
            esc(w.csv_button)
        ));
    }
    out.push_str(&format!("<p class=\"hint cr-honest\">{}</p>", esc(w.checksum_honesty)));
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::classroom::gradebook::grade;
    use crate::classroom::page::student::Progress;

    #[test]
    fn three_codes_two_students_one_problem_named() {
        let a = Assignment {
            title: String::new(),
            class: "K".into(),
            due: String::new(),
            exercises: crate::classroom::all().iter().take(2).map(|p| p.id.to_string()).collect(),
            show_hints: false,
            show_solutions: false,
            show_answer_key: false,
        };
        let code = |name: &str, right: bool| {
            let mut p = Progress::new(name, 2);
            let key = super::super::items(&a, name, Lang::En)[0].as_ref().unwrap().key_shown();
            p.type_answer(0, if right { &key } else { "1" });
            p.check(&a, 0, Lang::En);
            p.code(&a)
        };
        let ann = code("Ann", true);
        let mut broken = code("Bob", false);
        broken.truncate(broken.len() - 3);
        let pasted = format!("{ann}\n{}\n{broken}\n", code("李四", false));
        for lang in Lang::ALL {
            let b = grade(&a, &pasted);
            let html = results_html(lang, &a, &b);
            assert_eq!(html.matches("<tr data-student").count(), 2, "{html}");
            assert!(html.contains(&esc(&(lang.class().students_in)(2))));
            assert!(html.contains("cr-problems") && html.contains(&esc(lang.class().checksum_honesty)));
            assert!(controls_html(lang, &pasted).contains("GP1"));
        }
    }
}
