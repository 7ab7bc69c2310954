//! Every numeric exercise accepts the answer its question leads to. Each is solved here by hand,
//! from the numbers its question states (a short formula in `by_hand/`, not the engine), and the
//! answer must be marked right by the same check the page runs against the engine's key, both at
//! full precision and as a reader would type it (3 significant figures). The numbers a solution
//! takes (`given`) must each be written in the question, in both languages: a key cannot rest on
//! an assumption the question does not state. Constants of the trade a chapter teaches (2 FLOPs
//! per parameter and token, 2 bytes per BF16 value, 1e9 bytes per GB) are written in the formula.

#[path = "support/numbers.rs"]
mod numbers;

mod by_hand;

use gpu_primer::exercises::{self, check::number_is_right, Answer};
use gpu_primer::i18n::Lang;

/// `v` to 3 significant figures, as a reader would type it.
fn typed(v: f64) -> String {
    if v == 0.0 || !v.is_finite() {
        return format!("{v}");
    }
    let digits = 2 - v.abs().log10().floor() as i32;
    format!("{:.*}", digits.max(0) as usize, v)
}

fn stated(question: &str, given: f64) -> bool {
    numbers::numbers(question)
        .iter()
        .any(|n| numbers::same(n.written, given) || numbers::same(n.value, given))
}

#[test]
fn every_numeric_exercise_accepts_the_answer_its_question_leads_to() {
    let mut problems = Vec::new();
    for (slug, list) in exercises::all() {
        for e in *list {
            let Answer::Number { tolerance, .. } = e.answer else { continue };
            let Some(s) = by_hand::find(e.id) else {
                problems.push(format!("{slug}/{}: no solution by hand in tests/by_hand/", e.id));
                continue;
            };
            for lang in [Lang::En, Lang::Zh] {
                let question = e.text(lang).question;
                for &g in s.given {
                    if !stated(question, g) {
                        problems.push(format!("{}: {g} is not in the {lang:?} question: {question}", e.id));
                    }
                }
            }
            let key = e.key_value().expect("the engine computes every key");
            let answer = (s.solve)(s.given);
            for input in [format!("{answer}"), typed(answer)] {
                if !number_is_right(&input, key, tolerance) {
                    problems.push(format!(
                        "{}: the question leads to {input}, marked wrong against the key {key} (tolerance {tolerance})",
                        e.id
                    ));
                }
            }
        }
    }
    assert!(problems.is_empty(), "{} problems:\n{}", problems.len(), problems.join("\n"));
}

#[test]
fn every_solution_by_hand_belongs_to_a_numeric_exercise() {
    for s in by_hand::all() {
        let e = exercises::find(s.id).unwrap_or_else(|| panic!("{}: no such exercise", s.id));
        assert!(matches!(e.answer, Answer::Number { .. }), "{}: a choice needs no solution by hand", s.id);
    }
}

#[test]
fn a_rounded_answer_is_typed_to_three_figures() {
    assert_eq!(typed(207.66), "208");
    assert_eq!(typed(4.8137), "4.81");
    assert_eq!(typed(0.012345), "0.0123");
    assert_eq!(typed(12345.0), "12345");
}
