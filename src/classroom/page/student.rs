//! A student's page: the assignment from the link, the student's name or ID, their own
//! questions with a check each (the key computed here, when they check: it is not in the page),
//! what the teacher chose to show (hint, worked solution, the chapter's answer key), and the
//! hand-in code. What the student typed is kept in the browser ([`Progress`], saved as JSON).

use super::{chapter_label, Item};
use crate::classroom::assignment::Assignment;
use crate::classroom::handin::{fit_answer, fit_student, Answered, HandIn};
use crate::html::escape as esc;
use crate::i18n::unreadable_text;
use crate::i18n::Lang;
use crate::route::{Route, Sheet};
use serde::{Deserialize, Serialize};

/// What one student has done, per exercise of the assignment.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Progress {
    pub student: String,
    pub answers: Vec<String>,
    /// The page's last verdict: right, wrong, or not checked (or unreadable).
    pub checked: Vec<Option<bool>>,
    /// Wrong checks so far (a worked solution shows after two).
    pub wrong: Vec<u32>,
    /// Why the last answer could not be read, per exercise (not saved).
    #[serde(skip)]
    pub unreadable: Vec<String>,
}

impl Progress {
    /// A fresh start for `student` on an assignment of `n` exercises.
    pub fn new(student: &str, n: usize) -> Progress {
        Progress {
            student: fit_student(student).to_string(),
            answers: vec![String::new(); n],
            checked: vec![None; n],
            wrong: vec![0; n],
            unreadable: vec![String::new(); n],
        }
    }

    /// A saved progress, fitted to `n` exercises (a corrupt one reads as `None`: the page starts
    /// afresh rather than failing).
    pub fn from_saved(json: &str, n: usize) -> Option<Progress> {
        let mut p: Progress = serde_json::from_str(json).ok()?;
        p.answers.resize(n, String::new());
        p.checked.resize(n, None);
        p.wrong.resize(n, 0);
        p.unreadable = vec![String::new(); n];
        Some(p)
    }

    pub fn to_saved(&self) -> String {
        serde_json::to_string(self).unwrap_or_default()
    }

    /// Keeps what was typed into exercise `i` (a new answer is not checked yet).
    pub fn type_answer(&mut self, i: usize, answer: &str) {
        if let Some(a) = self.answers.get_mut(i) {
            if a != answer {
                *a = answer.to_string();
                self.checked[i] = None;
                self.unreadable[i].clear();
            }
        }
    }

    /// Checks exercise `i`'s answer against the student's key.
    pub fn check(&mut self, a: &Assignment, i: usize, lang: Lang) {
        let Some(id) = a.exercises.get(i) else { return };
        let Ok(item) = Item::new(&a.class, &self.student, id, lang) else { return };
        let answer = self.answers.get(i).map(|a| fit_answer(a).to_string()).unwrap_or_default();
        match item.check(&answer) {
            Ok(right) => {
                self.checked[i] = Some(right);
                self.unreadable[i].clear();
                if !right {
                    self.wrong[i] += 1;
                }
            }
            Err(why) => {
                self.checked[i] = None;
                self.unreadable[i] = unreadable_text(&why, item.unit, lang);
            }
        }
    }

    /// The hand-in code of what was done.
    pub fn code(&self, a: &Assignment) -> String {
        HandIn {
            assignment: a.fingerprint(),
            student: self.student.clone(),
            answers: self
                .answers
                .iter()
                .zip(&self.checked)
                .map(|(answer, checked)| Answered { answer: answer.trim().to_string(), checked: *checked })
                .collect(),
        }
        .encode()
    }

    /// Whether exercise `i` shows a verdict (right, wrong, or why it could not be read).
    pub fn has_verdict(&self, i: usize) -> bool {
        self.checked.get(i).is_some_and(Option::is_some)
            || self.unreadable.get(i).is_some_and(|u| !u.is_empty())
    }

    /// The verdict of exercise `i` in words (empty when it has none).
    pub fn verdict(&self, i: usize, lang: Lang) -> String {
        let x = lang.ex();
        match self.checked.get(i).copied().flatten() {
            Some(true) => x.correct.to_string(),
            Some(false) => x.wrong.to_string(),
            None => self.unreadable.get(i).cloned().unwrap_or_default(),
        }
    }

    /// Right answers so far.
    pub fn right(&self) -> usize {
        self.checked.iter().filter(|c| **c == Some(true)).count()
    }

    pub fn unanswered(&self) -> usize {
        self.answers.iter().filter(|a| a.trim().is_empty()).count()
    }
}

/// `name`'s saved work on `a` (`load` reads the browser's storage), or a fresh start; a saved
/// state that is corrupt or another name's starts afresh.
pub fn resume(a: &Assignment, name: &str, load: impl Fn(&str) -> Option<String>) -> Progress {
    let fresh = Progress::new(name, a.exercises.len());
    load(&storage_key(a, &fresh.student))
        .and_then(|s| Progress::from_saved(&s, a.exercises.len()))
        .filter(|p| p.student == fresh.student)
        .unwrap_or(fresh)
}

/// `name`'s work on `a`, from this browser's storage or from a hand-in code `saved` (what a
/// SCORM package's LMS kept, `cmi.suspend_data`): the one with more answers checked, this
/// browser's on a tie (it also keeps what was typed since the last check). A code of another
/// assignment or another name, or one that does not read, is not used. The code carries each
/// answer and its verdict, not the wrong tries: a wrong verdict counts as one.
pub fn resume_with_code(
    a: &Assignment,
    name: &str,
    load: impl Fn(&str) -> Option<String>,
    saved: &str,
) -> Progress {
    let here = resume(a, name, load);
    let Some(from_code) = progress_of_code(a, &here.student, saved) else { return here };
    let checked = |p: &Progress| p.checked.iter().filter(|c| c.is_some()).count();
    if checked(&from_code) > checked(&here) {
        from_code
    } else {
        here
    }
}

/// The progress a hand-in code carries for `student` on `a` (`None`: empty, unreadable, or
/// another assignment's or student's).
fn progress_of_code(a: &Assignment, student: &str, code: &str) -> Option<Progress> {
    if code.trim().is_empty() {
        return None;
    }
    let h = HandIn::decode(code, Some(a.fingerprint())).ok().filter(|h| h.student == student)?;
    let mut p = Progress::new(student, a.exercises.len());
    for (i, done) in h.answers.into_iter().take(a.exercises.len()).enumerate() {
        p.answers[i] = done.answer;
        p.checked[i] = done.checked;
        p.wrong[i] = u32::from(done.checked == Some(false));
    }
    Some(p)
}

/// The localStorage key of a student's work on an assignment.
pub fn storage_key(a: &Assignment, student: &str) -> String {
    format!("gpu-primer.class.{:08x}.{}", a.fingerprint(), fit_student(student))
}

/// The localStorage key of the name last used on an assignment.
pub fn last_student_key(a: &Assignment) -> String {
    format!("gpu-primer.class.{:08x}", a.fingerprint())
}

/// The assignment's title, class and due line.
pub fn header_html(lang: Lang, a: &Assignment) -> String {
    let w = lang.class();
    let title = if a.title.trim().is_empty() { w.do_title } else { a.title.trim() };
    let mut facts = format!("<span>{}{}{}</span>", esc(w.class), lang.colon(), esc(&a.class));
    if !a.due.trim().is_empty() {
        facts.push_str(&format!(" <span>{}{}{}</span>", esc(w.due), lang.colon(), esc(a.due.trim())));
    }
    format!("<h1>{}</h1><p class=\"cr-facts\">{facts}</p>", esc(title))
}

/// The name form (before the questions).
pub fn name_form_html(lang: Lang, name: &str) -> String {
    let w = lang.class();
    format!(
        "<form class=\"cr-name\" data-a=\"start\"><label class=\"cr-field\"><span>{}</span><input type=\"text\" data-f=\"student\" value=\"{}\" autocomplete=\"name\" maxlength=\"64\"><small>{}</small></label><button type=\"submit\" class=\"button\">{}</button></form>",
        esc(w.name_label),
        esc(name),
        esc(w.name_help),
        esc(w.start)
    )
}

/// The questions, with what the student typed and what the page said.
pub fn items_html(lang: Lang, a: &Assignment, p: &Progress) -> String {
    let w = lang.class();
    let mut out = format!(
        "<p class=\"cr-who\">{}<strong>{}</strong> <button type=\"button\" class=\"button secondary\" data-a=\"rename\">{}</button></p><p class=\"hint\">{}</p>",
        esc(w.numbers_for),
        esc(&p.student),
        esc(w.change_name),
        esc(w.saved_here)
    );
    for (i, item) in super::items(a, &p.student, lang).into_iter().enumerate() {
        let item = match item {
            Ok(item) => item,
            Err(_) => {
                out.push_str(&format!(
                    "<section class=\"exercise cr-item\" data-i=\"{i}\"><p class=\"warn\">{} {}{}{}</p></section>",
                    esc(lang.ex().exercise),
                    i + 1,
                    lang.colon(),
                    esc(w.gone)
                ));
                continue;
            }
        };
        out.push_str(&item_html(lang, a, p, i, &item));
    }
    out
}

fn item_html(lang: Lang, a: &Assignment, p: &Progress, i: usize, item: &Item) -> String {
    let w = lang.class();
    let x = lang.ex();
    let answer = p.answers.get(i).map(String::as_str).unwrap_or("");
    let checked = p.checked.get(i).copied().flatten();
    let wrong = p.wrong.get(i).copied().unwrap_or(0);
    let result = match checked {
        Some(true) => " data-result=\"correct\"",
        Some(false) => " data-result=\"wrong\"",
        None if !p.unreadable.get(i).is_none_or(String::is_empty) => " data-result=\"unreadable\"",
        None => "",
    };
    let input = if item.options.is_empty() {
        let tolerance = match item.key {
            super::Key::Number { tolerance, .. } => (x.tolerance)(tolerance),
            super::Key::Choice(_) => String::new(),
        };
        format!(
            "<label class=\"exercise-answer\"><span>{}</span><input type=\"text\" inputmode=\"decimal\" autocomplete=\"off\" data-role=\"answer\" data-i=\"{i}\" value=\"{}\"><span class=\"exercise-unit\">{}</span><span class=\"exercise-tolerance\">{}</span></label>",
            esc(x.answer_label),
            esc(answer),
            esc(item.unit),
            esc(&tolerance)
        )
    } else {
        let options: String = item
            .options
            .iter()
            .map(|(value, label)| {
                format!(
                    "<label class=\"exercise-option\"><input type=\"radio\" name=\"cr-{i}\" data-role=\"answer\" data-i=\"{i}\" value=\"{}\"{}><span class=\"cr-ex-text\">{}</span></label>",
                    esc(value),
                    if *value == answer { " checked" } else { "" },
                    esc(label)
                )
            })
            .collect();
        format!(
            "<fieldset class=\"exercise-options\"><legend>{}</legend>{options}</fieldset>",
            esc(x.answer_label)
        )
    };
    let verdict = p.verdict(i, lang);
    let hint = if a.show_hints && wrong > 0 && checked != Some(true) {
        format!(
            "<p class=\"exercise-hint\"><strong>{}</strong><span class=\"cr-ex-text\">{}</span></p>",
            esc(x.hint),
            esc(&item.hint)
        )
    } else {
        String::new()
    };
    let solution = if a.show_solutions && (checked == Some(true) || wrong >= 2) {
        format!(
            "<details class=\"exercise-solution\"><summary>{}</summary><p class=\"cr-ex-text\">{}</p></details>",
            esc(x.show_solution),
            esc(&item.solution)
        )
    } else {
        String::new()
    };
    let key_link = if a.show_answer_key && !item.own_numbers {
        format!(
            " · <a href=\"{}\">{}</a>",
            esc(&Route::Sheet(lang, item.chapter, Sheet::Answers).to_hash()),
            esc(w.chapter_key)
        )
    } else {
        String::new()
    };
    format!(
        "<section class=\"exercise cr-item\" data-i=\"{i}\" data-exercise=\"{}\"{result}><h3 class=\"exercise-title\">{} {}</h3>\
         <p class=\"hint\">{}<a href=\"{}\">{}</a>{key_link}</p><p class=\"exercise-question cr-ex-text\">{}</p>{input}\
         <div class=\"exercise-actions\"><button type=\"button\" class=\"exercise-check\" data-a=\"check\" data-i=\"{i}\">{}</button>\
         <span class=\"exercise-verdict\">{}</span></div>{hint}{solution}</section>",
        esc(&item.id),
        esc(x.exercise),
        i + 1,
        esc(w.from_chapter),
        esc(&Route::Chapter(lang, item.chapter).to_hash()),
        esc(&chapter_label(item.chapter, lang)),
        esc(&item.question),
        esc(x.check),
        esc(&verdict),
    )
}

/// The hand-in button, and the code once asked for.
pub fn handin_html(lang: Lang, a: &Assignment, p: &Progress, show_code: bool) -> String {
    let w = lang.class();
    let mut out = format!(
        "<h2>{}</h2><p>{}</p><p><button type=\"button\" class=\"button\" data-a=\"hand-in\">{}</button></p>",
        esc(w.hand_in),
        esc(w.hand_in_help),
        esc(w.hand_in)
    );
    if show_code {
        let left = p.unanswered();
        if left > 0 {
            out.push_str(&format!("<p class=\"warn\">{}</p>", esc(&(w.not_answered)(left))));
        }
        out.push_str(&format!(
            "<label class=\"cr-field\"><span>{}</span><textarea class=\"cr-code\" readonly rows=\"3\" lang=\"zxx\" spellcheck=\"false\">{}</textarea></label><p class=\"hint\">{}</p>",
            esc(w.code_label),
            esc(&p.code(a)),
            esc(w.code_note)
        ));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::classroom::gradebook::grade;

    fn assignment() -> Assignment {
        let own: Vec<String> = crate::classroom::all().iter().take(3).map(|p| p.id.to_string()).collect();
        let choice = crate::exercises::all()
            .iter()
            .flat_map(|(_, l)| l.iter())
            .find(|e| matches!(e.answer, crate::exercises::Answer::Choice { .. }))
            .unwrap()
            .id
            .to_string();
        Assignment {
            title: "W2".into(),
            class: "C9".into(),
            due: String::new(),
            exercises: [own, vec![choice]].concat(),
            show_hints: true,
            show_solutions: false,
            show_answer_key: true,
        }
    }

    #[test]
    fn a_students_checks_reach_the_gradebook_through_the_code() {
        let a = assignment();
        let mut p = Progress::new(" Ann ", a.exercises.len());
        assert_eq!(p.student, "Ann");
        let items = super::super::items(&a, "Ann", Lang::Zh);
        let key0 = items[0].as_ref().unwrap().key_shown();
        // Right with its unit, wrong, unreadable (a unit of another kind), unanswered.
        p.type_answer(0, &key0);
        p.check(&a, 0, Lang::Zh);
        p.type_answer(1, "0.000001");
        p.check(&a, 1, Lang::Zh);
        p.type_answer(2, "3 ms");
        p.check(&a, 2, Lang::Zh);
        assert_eq!(p.checked[..3], [Some(true), Some(false), None]);
        assert!(!p.unreadable[2].is_empty() && p.unreadable[2].contains("ms"), "{}", p.unreadable[2]);
        let html = items_html(Lang::Zh, &a, &p);
        assert!(html.contains("data-result=\"correct\"") && html.contains("data-result=\"wrong\""));
        assert!(html.contains("exercise-hint"), "a hint after a wrong answer");
        assert!(!html.contains("exercise-solution"), "solutions hidden by the teacher");
        assert!(!html.contains("data-key"), "no key written into the page");
        let saved = Progress::from_saved(&p.to_saved(), a.exercises.len()).unwrap();
        assert_eq!((saved.answers.clone(), saved.checked.clone()), (p.answers.clone(), p.checked.clone()));
        assert_eq!(Progress::from_saved("{broken", 4), None);
        let book = grade(&a, &p.code(&a));
        assert_eq!(book.rows.len(), 1);
        assert_eq!(book.rows[0].score(), 1);
        assert_eq!(book.rows[0].disagreements(), 0);
        assert!(handin_html(Lang::En, &a, &p, true).contains(&esc(&(Lang::En.class().not_answered)(1))));
    }

    #[test]
    fn a_name_or_answer_longer_than_a_code_keeps_is_checked_as_the_code_carries_it() {
        let a = assignment();
        let long = format!("Ann {}", "Hohenzollern-".repeat(8));
        let mut p = Progress::new(&long, a.exercises.len());
        assert!(p.student.len() <= crate::classroom::handin::MAX_STUDENT_BYTES);
        let items = super::super::items(&a, &long, Lang::En);
        let cut = super::super::items(&a, &p.student, Lang::En);
        assert_eq!(items[0], cut[0], "the sheets draw what the page and the gradebook draw");
        // A right number followed by words the code cuts off: right on the page and in the book.
        let key = items[0].as_ref().unwrap().key_shown();
        p.type_answer(0, &format!("{key} {}", "because it is what the bandwidth gives".repeat(2)));
        p.check(&a, 0, Lang::En);
        let book = grade(&a, &p.code(&a));
        if let Some(page) = p.checked[0] {
            assert_eq!(book.rows[0].cells[0].right, Some(page));
        }
        assert_eq!(book.rows[0].disagreements(), 0);
        // The same code pasted twice is one hand-in, not a replaced one.
        let twice = grade(&a, &format!("{}\n{}", p.code(&a), p.code(&a)));
        assert_eq!((twice.rows.len(), twice.problems.len()), (1, 0));
        assert!(resume(&a, &long, |_| Some("{broken".into())).answers.iter().all(String::is_empty));
    }

    #[test]
    fn work_kept_by_the_lms_comes_back_on_another_computer() {
        let a = assignment();
        let mut p = Progress::new("Li, Wei", a.exercises.len());
        let key = super::super::items(&a, "Li, Wei", Lang::En)[0].as_ref().unwrap().key_shown();
        p.type_answer(0, &key);
        p.check(&a, 0, Lang::En);
        p.type_answer(1, "1");
        p.check(&a, 1, Lang::En);
        let code = p.code(&a);
        // Nothing in this browser: the LMS's code is the work, its wrong verdict one wrong try.
        let back = resume_with_code(&a, "Li, Wei", |_| None, &code);
        assert_eq!((back.answers.clone(), back.checked.clone()), (p.answers.clone(), p.checked.clone()));
        assert_eq!(back.wrong[..2], [0, 1]);
        // This browser has more checked: it wins; on a tie it wins too (it has what was typed since).
        let mut here = p.clone();
        here.type_answer(2, "7");
        let saved = here.to_saved();
        let back = resume_with_code(&a, "Li, Wei", |_| Some(saved.clone()), &code);
        assert_eq!(back.answers[2], "7");
        // Another name's code, another assignment's, a damaged one or none: this browser's work.
        let mut damaged = code.clone();
        let last = damaged.pop().unwrap();
        damaged.push(if last == '0' { '1' } else { '0' });
        for other in [Progress::new("Ann", 4).code(&a), damaged, String::new()] {
            let back = resume_with_code(&a, "Li, Wei", |_| None, &other);
            assert!(back.answers.iter().all(String::is_empty), "{other}");
        }
        let mut b = a.clone();
        b.class = "C10".into();
        assert!(resume_with_code(&b, "Li, Wei", |_| None, &code).answers.iter().all(String::is_empty));
    }
}
