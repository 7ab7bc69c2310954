//! Exercises that check: every numeric key is recomputed by the engine, every engine number in a
//! worked solution fills, every chapter places exactly its exercises, and the counts hold.

use gpu_primer::content::{chapters, Segment};
use gpu_primer::exercises::{self, Answer};
use gpu_primer::i18n::Lang;
use std::collections::BTreeSet;

fn placed(page: &gpu_primer::content::Page) -> Vec<&'static str> {
    page.segments
        .iter()
        .filter_map(|s| match s {
            Segment::Exercise(id) => Some(*id),
            _ => None,
        })
        .collect()
}

#[test]
fn ids_are_unique_and_stable_words() {
    let mut seen = BTreeSet::new();
    for (_, list) in exercises::all() {
        for e in *list {
            assert!(seen.insert(e.id), "exercise id '{}' is used twice", e.id);
            assert!(
                !e.id.is_empty()
                    && e.id.chars().all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-'),
                "id '{}': lowercase letters, digits and dashes",
                e.id
            );
        }
    }
}

#[test]
fn every_numeric_key_is_computed_by_the_engine() {
    for (slug, list) in exercises::all() {
        for e in *list {
            let key = e.key_text().unwrap_or_else(|err| panic!("{slug}/{}: {err}", e.id));
            if let Answer::Number { .. } = e.answer {
                let value = e.key_value().unwrap();
                assert!(value.is_finite() && value > 0.0, "{}: key {value}", e.id);
                assert!(
                    e.is_right(&key),
                    "{}: the shown key '{key}' is not within tolerance of {value}",
                    e.id
                );
                let far = format!("{}", value * 1.5 + 1.0);
                assert!(!e.is_right(&far), "{}: a wrong answer {far} passes", e.id);
            }
        }
    }
}

#[test]
fn worked_solutions_fill_from_the_engine() {
    for (_, list) in exercises::all() {
        for e in *list {
            for lang in Lang::ALL {
                let text = e.solution(lang).unwrap_or_else(|err| panic!("{} ({lang:?}): {err}", e.id));
                assert!(!text.contains('{') && !text.contains('}'), "{}: unfilled field in {text}", e.id);
                if let Answer::Number { decimals, .. } = e.answer {
                    let shown = exercises::format_number(e.key_value().unwrap(), decimals, true);
                    assert!(
                        text.contains(&shown),
                        "{} ({lang:?}): the solution does not state the key {shown}",
                        e.id
                    );
                }
            }
        }
    }
}

#[test]
fn choices_have_labels_for_every_value_and_a_valid_key() {
    for (_, list) in exercises::all() {
        for e in *list {
            let t = [&e.zh, &e.en];
            match e.answer {
                Answer::Choice { values, key } => {
                    assert!(values.contains(&key), "{}: key '{key}' is not an option", e.id);
                    for text in t {
                        assert_eq!(text.options.len(), values.len(), "{}: one label per option", e.id);
                    }
                }
                Answer::Number { .. } => {
                    for text in t {
                        assert!(!text.unit.is_empty(), "{}: a number states its unit", e.id);
                        assert!(text.options.is_empty(), "{}: a number has no options", e.id);
                    }
                }
            }
            for text in t {
                assert!(
                    !text.question.is_empty() && !text.hint.is_empty() && !text.solution.is_empty(),
                    "{}",
                    e.id
                );
            }
        }
    }
}

#[test]
fn chapters_place_their_exercises_in_both_languages() {
    let mut total = 0;
    for c in chapters() {
        let defined: Vec<&str> = exercises::for_chapter(c.slug).iter().map(|e| e.id).collect();
        for (lang, page) in [(Lang::Zh, &c.zh), (Lang::En, &c.en)] {
            assert_eq!(
                placed(page),
                defined,
                "{} ({lang:?}): placed exercises differ from its definitions",
                c.slug
            );
        }
        assert!(defined.len() >= 4, "{}: {} exercises, at least 4 wanted", c.slug, defined.len());
        total += defined.len();
    }
    assert!(total >= 60, "{total} exercises per language, at least 60 wanted");
    for (slug, _) in exercises::all() {
        assert!(chapters().iter().any(|c| c.slug == *slug), "exercises for unknown chapter {slug}");
    }
}
