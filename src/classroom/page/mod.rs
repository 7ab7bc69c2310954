//! The classroom's pages as pure functions to HTML strings (the tools' pattern: the browser
//! view in `ui::classroom` only holds the state and applies events): making an assignment
//! ([`make`]), a student's page ([`student`]), the gradebook ([`grading`]) and the printed
//! worksheets and class key ([`sheets`]). This module holds what they share: the pages' query
//! and one exercise as a given student sees it ([`Item`]).

pub mod grading;
pub mod make;
pub mod sheets;
pub mod student;

use crate::classroom::assignment::Assignment;
use crate::classroom::variant_seed;
use crate::exercises::check::{answer_is_right, Unreadable};
use crate::exercises::{format_number, Answer};
use crate::i18n::Lang;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use base64::Engine as _;

/// What a classroom page's query holds: `a=` the assignment's token, `r=` the roster (base64url
/// of the names, one per line: teacher pages only), `s=` students to print (repeated), `show=`
/// `key` for the class key instead of worksheets, `h=` a hand-in code to resume from (a SCORM
/// package's launcher passes what the LMS kept, `cmi.suspend_data`, so that a student who goes on
/// from another computer finds their answers).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Query {
    pub token: String,
    pub roster: Vec<String>,
    pub students: Vec<String>,
    pub show_key: bool,
    pub handin: String,
}

impl Query {
    /// Reads a query (without `?`); what it cannot read is left empty (the page says so).
    pub fn parse(query: &str) -> Query {
        let mut q = Query::default();
        for (k, v) in query.split('&').filter_map(|p| p.split_once('=')) {
            match k {
                "a" => q.token = v.to_string(),
                "r" => q.roster = roster_from_token(v),
                "s" => {
                    let name = decode_component(v);
                    if !name.trim().is_empty() {
                        q.students.push(name);
                    }
                }
                "show" => q.show_key = v == "key",
                "h" => q.handin = decode_component(v),
                _ => {}
            }
        }
        q
    }

    /// The query (without `?`).
    pub fn encode(&self) -> String {
        let mut out = format!("a={}", self.token);
        if !self.roster.is_empty() {
            out.push_str(&format!("&r={}", roster_token(&self.roster)));
        }
        for s in &self.students {
            out.push_str(&format!("&s={}", encode_component(s)));
        }
        if self.show_key {
            out.push_str("&show=key");
        }
        if !self.handin.is_empty() {
            out.push_str(&format!("&h={}", encode_component(&self.handin)));
        }
        out
    }
}

/// The names of a pasted roster: one per line, trimmed, empty lines and repeats left out.
pub fn roster_of(text: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for name in text.lines().map(str::trim).filter(|l| !l.is_empty()) {
        if !out.iter().any(|n| n == name) {
            out.push(name.to_string());
        }
    }
    out
}

fn roster_token(names: &[String]) -> String {
    URL_SAFE_NO_PAD.encode(names.join("\n"))
}

fn roster_from_token(token: &str) -> Vec<String> {
    URL_SAFE_NO_PAD
        .decode(token.trim_end_matches('='))
        .ok()
        .and_then(|b| String::from_utf8(b).ok())
        .map(|t| roster_of(&t))
        .unwrap_or_default()
}

/// Percent-encodes every byte that is not unreserved (RFC 3986), for a name in the query.
pub fn encode_component(s: &str) -> String {
    let mut out = String::new();
    for b in s.bytes() {
        if b.is_ascii_alphanumeric() || b"-._~".contains(&b) {
            out.push(b as char);
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

/// The inverse of [`encode_component`] (`+` read as a space); a broken escape is kept as typed.
pub fn decode_component(s: &str) -> String {
    let bytes = s.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        let hex = |j: usize| bytes.get(j).and_then(|c| (*c as char).to_digit(16));
        match (bytes[i], hex(i + 1), hex(i + 2)) {
            (b'%', Some(h), Some(l)) => {
                out.push((h * 16 + l) as u8);
                i += 3;
            }
            (b'+', ..) => {
                out.push(b' ');
                i += 1;
            }
            (c, ..) => {
                out.push(c);
                i += 1;
            }
        }
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// The key of an exercise for one student.
#[derive(Debug, Clone, PartialEq)]
pub enum Key {
    /// A number in the question's unit, within a relative tolerance, shown with `decimals`.
    Number { value: f64, tolerance: f64, decimals: usize },
    /// The value of the right option.
    Choice(String),
}

/// One exercise of an assignment as one student sees it: a parametric exercise with the
/// student's numbers, any other with the chapter's.
#[derive(Debug, Clone, PartialEq)]
pub struct Item {
    pub id: String,
    /// The chapter it comes from (its slug).
    pub chapter: &'static str,
    /// Whether the numbers are the student's own.
    pub own_numbers: bool,
    /// The drawn values, as the question shows them (parametric exercises).
    pub values: Vec<&'static str>,
    pub question: String,
    pub unit: &'static str,
    /// (value, label) of each option (choices).
    pub options: Vec<(&'static str, &'static str)>,
    pub hint: String,
    pub solution: String,
    pub key: Key,
}

impl Item {
    /// Exercise `id` for `student` of the class `class` (the name as a hand-in code carries it:
    /// a name longer than a code keeps gets the numbers the gradebook will check against).
    pub fn new(class: &str, student: &str, id: &str, lang: Lang) -> Result<Item, String> {
        let student = crate::classroom::handin::fit_student(student);
        let ex = crate::exercises::find(id).ok_or_else(|| format!("no exercise '{id}'"))?;
        let chapter = crate::classroom::export::moodle::chapter_of(id);
        let t = ex.text(lang);
        if let Some(p) = crate::classroom::find(id) {
            let v = p.variant(variant_seed(class, student, id))?;
            let decimals = match ex.answer {
                Answer::Number { decimals, .. } => decimals,
                Answer::Choice { .. } => 0,
            };
            return Ok(Item {
                id: id.to_string(),
                chapter,
                own_numbers: true,
                values: v.values.iter().map(|(_, c)| c.label).collect(),
                question: v.question(lang)?,
                unit: v.unit(lang),
                options: Vec::new(),
                hint: v.hint(lang)?,
                solution: v.solution(lang)?,
                key: Key::Number { value: v.key_value()?, tolerance: v.tolerance(), decimals },
            });
        }
        let key = match ex.answer {
            Answer::Number { tolerance, decimals, .. } => {
                Key::Number { value: ex.key_value()?, tolerance, decimals }
            }
            Answer::Choice { key, .. } => Key::Choice(key.to_string()),
        };
        let options = match ex.answer {
            Answer::Choice { values, .. } => values.iter().copied().zip(t.options.iter().copied()).collect(),
            Answer::Number { .. } => Vec::new(),
        };
        Ok(Item {
            id: id.to_string(),
            chapter,
            own_numbers: false,
            values: Vec::new(),
            question: t.question.to_string(),
            unit: t.unit,
            options,
            hint: t.hint.to_string(),
            solution: ex.solution(lang)?,
            key,
        })
    }

    /// The key as the answer key shows it: the number with separators and the unit, or the
    /// right option's label.
    pub fn key_shown(&self) -> String {
        match &self.key {
            Key::Number { value, decimals, .. } => {
                format!("{} {}", format_number(*value, *decimals, true), self.unit).trim_end().to_string()
            }
            Key::Choice(key) => self
                .options
                .iter()
                .find(|(v, _)| v == key)
                .map(|(_, label)| label.to_string())
                .unwrap_or_else(|| key.clone()),
        }
    }

    /// Whether `input` is right; `Err` says why it cannot be read (a number in another unit).
    pub fn check(&self, input: &str) -> Result<bool, Unreadable> {
        match &self.key {
            Key::Number { value, tolerance, .. } => answer_is_right(input, self.unit, *value, *tolerance),
            Key::Choice(_) if input.trim().is_empty() => Err(Unreadable::Empty),
            Key::Choice(key) => Ok(input.trim() == key),
        }
    }
}

/// Every item of an assignment for one student, in order; `Err` in the place of an exercise the
/// site no longer has (or whose variant cannot be drawn: not expected, the tests draw 1,000 of
/// each), which the pages note in their language.
pub fn items(a: &Assignment, student: &str, lang: Lang) -> Vec<Result<Item, String>> {
    a.exercises.iter().map(|id| Item::new(&a.class, student, id, lang)).collect()
}

/// The chapter's number and title, for "From: …".
pub fn chapter_label(slug: &str, lang: Lang) -> String {
    crate::content::title(slug, lang)
        .map(|(number, title)| format!("{number} {title}"))
        .unwrap_or_else(|| slug.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn queries_round_trip_with_any_name() {
        let q = Query {
            token: "abc_-1".into(),
            roster: vec!["张三".into(), "Ann O'Neil".into(), "s 1&2=3".into()],
            students: vec!["张三".into(), "s 1&2=3".into()],
            show_key: true,
            handin: "GP1-ABCDE-12345".into(),
        };
        assert_eq!(Query::parse(&q.encode()), q);
        assert_eq!(
            Query::parse("a=x&s=%E5%BC%A0+%ZZ"),
            Query { token: "x".into(), students: vec!["张 %ZZ".into()], ..Query::default() }
        );
        assert_eq!(Query::parse("r=!!!&show=sheets").roster, Vec::<String>::new());
    }

    #[test]
    fn a_roster_drops_blank_lines_and_repeats() {
        assert_eq!(roster_of(" Ann \n\nBob\nAnn\r\n李四 "), vec!["Ann", "Bob", "李四"]);
    }

    #[test]
    fn an_item_is_the_students_variant_or_the_chapters_exercise() {
        let own = crate::classroom::all()[0].id;
        let plain = crate::exercises::all()
            .iter()
            .flat_map(|(_, l)| l.iter())
            .find(|e| crate::classroom::find(e.id).is_none())
            .unwrap()
            .id;
        for lang in Lang::ALL {
            let a = Item::new("C1", "Ann", own, lang).unwrap();
            assert!(a.own_numbers);
            let v = crate::classroom::find(own).unwrap().variant(variant_seed("C1", "Ann", own)).unwrap();
            assert_eq!(
                a.key,
                Key::Number {
                    value: v.key_value().unwrap(),
                    tolerance: v.tolerance(),
                    decimals: a_decimals(&a)
                }
            );
            assert_eq!(a.check(&v.key_text().unwrap()), Ok(true));
            let p = Item::new("C1", "Ann", plain, lang).unwrap();
            assert!(!p.own_numbers);
            let ex = crate::exercises::find(plain).unwrap();
            assert_eq!(p.check(&ex.key_text().unwrap()), Ok(true));
        }
    }

    fn a_decimals(i: &Item) -> usize {
        match i.key {
            Key::Number { decimals, .. } => decimals,
            Key::Choice(_) => 0,
        }
    }
}
