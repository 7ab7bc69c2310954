//! The teacher's gradebook: pasted hand-in codes read back, every answer checked again against
//! the student's own key, one row per student, and the table as CSV.

use crate::classroom::assignment::Assignment;
use crate::classroom::handin::{CodeError, HandIn};
use crate::classroom::variant_seed;
use crate::exercises::{check::answer_is_right, Answer};
use crate::i18n::Lang;

/// One exercise of one student.
#[derive(Debug, Clone, PartialEq)]
pub struct Cell {
    pub answer: String,
    /// The teacher's check: `None` when there is no answer.
    pub right: Option<bool>,
    /// What the student's page said (`None`: not checked there).
    pub page_said: Option<bool>,
}

/// One student's row.
#[derive(Debug, Clone, PartialEq)]
pub struct Row {
    pub student: String,
    pub cells: Vec<Cell>,
}

impl Row {
    /// Exercises right.
    pub fn score(&self) -> usize {
        self.cells.iter().filter(|c| c.right == Some(true)).count()
    }

    /// Exercises whose page verdict the teacher's check contradicts (a sign of a hand-made code).
    pub fn disagreements(&self) -> usize {
        self.cells
            .iter()
            .filter(|c| c.page_said.is_some() && c.right.is_some() && c.page_said != c.right)
            .count()
    }
}

/// A pasted piece that was not a usable code, with the start of what was pasted.
#[derive(Debug, Clone, PartialEq)]
pub enum Problem {
    Code {
        pasted: String,
        error: CodeError,
    },
    /// A code whose exercise count is not the assignment's.
    WrongLength {
        student: String,
        found: usize,
        expected: usize,
    },
    /// A second code from the same student: the later one is kept.
    Replaced {
        student: String,
    },
}

#[derive(Debug, Clone, PartialEq)]
pub struct Gradebook {
    pub rows: Vec<Row>,
    pub problems: Vec<Problem>,
}

/// Whether `answer` is right for `student` on exercise `id` of the assignment (parametric
/// exercises with the student's numbers, the others with the chapter's); `None` when empty.
pub fn recheck(a: &Assignment, student: &str, id: &str, answer: &str) -> Option<bool> {
    if answer.trim().is_empty() {
        return None;
    }
    if let Some(p) = crate::classroom::find(id) {
        let v = p.variant(variant_seed(&a.class, student, id)).ok()?;
        return Some(v.check(answer, Lang::En).unwrap_or(false));
    }
    let ex = crate::exercises::find(id)?;
    Some(match ex.answer {
        Answer::Number { tolerance, .. } => ex
            .key_value()
            .ok()
            .and_then(|key| answer_is_right(answer, ex.text(Lang::En).unit, key, tolerance).ok())
            .unwrap_or(false),
        Answer::Choice { key, .. } => answer.trim() == key,
    })
}

/// The codes in a pasted text: a line starting with `GP1` opens one, lines of code characters
/// after it continue it (a code wrapped by an email program); any other line is not a code.
pub fn split_codes(text: &str) -> Vec<String> {
    let mut codes: Vec<String> = Vec::new();
    let mut open = false;
    for line in text.lines().map(str::trim).filter(|l| !l.is_empty()) {
        let is_code_chars = line.chars().all(|c| c.is_ascii_alphanumeric() || c == '-' || c == ' ');
        if line.to_uppercase().starts_with("GP1") {
            codes.push(line.to_string());
            open = true;
        } else if open && is_code_chars {
            if let Some(last) = codes.last_mut() {
                last.push_str(line);
            }
        } else {
            codes.push(line.to_string());
            open = false;
        }
    }
    codes
}

/// The gradebook of the codes pasted for assignment `a`.
pub fn grade(a: &Assignment, pasted: &str) -> Gradebook {
    let mut rows: Vec<Row> = Vec::new();
    let mut problems = Vec::new();
    for code in split_codes(pasted) {
        let h = match HandIn::decode(&code, Some(a.fingerprint())) {
            Ok(h) => h,
            Err(error) => {
                problems.push(Problem::Code { pasted: code.chars().take(24).collect(), error });
                continue;
            }
        };
        if h.answers.len() != a.exercises.len() {
            problems.push(Problem::WrongLength {
                student: h.student.clone(),
                found: h.answers.len(),
                expected: a.exercises.len(),
            });
            continue;
        }
        let cells: Vec<Cell> = a
            .exercises
            .iter()
            .zip(&h.answers)
            .map(|(id, x)| Cell {
                answer: x.answer.clone(),
                right: recheck(a, &h.student, id, &x.answer),
                page_said: x.checked,
            })
            .collect();
        if let Some(at) = rows.iter().position(|r| r.student == h.student) {
            // The same code twice (a file added to what was pasted) is one hand-in.
            if rows[at].cells == cells {
                continue;
            }
            rows.remove(at);
            problems.push(Problem::Replaced { student: h.student.clone() });
        }
        rows.push(Row { student: h.student, cells });
    }
    Gradebook { rows, problems }
}

impl Gradebook {
    /// The table as CSV (RFC 4180): student, each exercise's answer and verdict, the score, and
    /// how many page verdicts the check contradicts.
    pub fn csv(&self, a: &Assignment) -> String {
        let mut header = vec!["student".to_string()];
        for id in &a.exercises {
            header.push(format!("{id} answer"));
            header.push(format!("{id} right"));
        }
        header.push("score".into());
        header.push("out of".into());
        header.push("page verdicts contradicted".into());
        let mut out = line(&header);
        for r in &self.rows {
            let mut cells = vec![r.student.clone()];
            for c in &r.cells {
                cells.push(c.answer.clone());
                cells.push(match c.right {
                    Some(true) => "1".into(),
                    Some(false) => "0".into(),
                    None => String::new(),
                });
            }
            cells.push(r.score().to_string());
            cells.push(a.exercises.len().to_string());
            cells.push(r.disagreements().to_string());
            out.push_str(&line(&cells));
        }
        out
    }
}

/// One CSV record: fields with a comma, quote or line break quoted, quotes doubled; a field a
/// spreadsheet would run as a formula (`=`, `+`, `-`, `@` first) gets a leading `'` (OWASP's
/// CSV-injection advice).
fn line(fields: &[String]) -> String {
    let quoted: Vec<String> = fields
        .iter()
        .map(|f| {
            let f = if f.starts_with(['=', '+', '-', '@']) && f.parse::<f64>().is_err() {
                format!("'{f}")
            } else {
                f.clone()
            };
            if f.contains([',', '"', '\n', '\r']) {
                format!("\"{}\"", f.replace('"', "\"\""))
            } else {
                f
            }
        })
        .collect();
    format!("{}\r\n", quoted.join(","))
}
