//! Hand-in codes and the gradebook: round trips, every single-character corruption caught,
//! codes of another assignment named, answers checked again against each student's key.

use gpu_primer::classroom::assignment::{Assignment, AssignmentError};
use gpu_primer::classroom::draw::Draw;
use gpu_primer::classroom::gradebook::{grade, Problem};
use gpu_primer::classroom::handin::{Answered, CodeError, HandIn};
use gpu_primer::classroom::{self, variant_seed};
use gpu_primer::i18n::{classroom as words, Lang};

fn assignment() -> Assignment {
    Assignment {
        title: "Week 3".into(),
        class: "CS101-2027".into(),
        due: "Friday 18:00".into(),
        exercises: vec![
            "mem-kv-32x8k".into(),
            "mem-70b-int4-requests".into(),
            "intro-pcie-copy-share".into(),
        ],
        show_hints: true,
        show_solutions: false,
        show_answer_key: false,
    }
}

/// A code of generated content: names in both scripts, answers with units and separators.
fn generated(d: &mut Draw, i: usize) -> HandIn {
    let names = ["Li Hua", "李华", "s2027-0042", "Ana María", "王小明 (B班)", ""];
    let answers = ["34.4", "34.4 GB", "1,024", "80 亿", "1.2万", "12 个请求", "", "76", "0.5ms"];
    let n = 1 + d.below(12) as usize;
    HandIn {
        assignment: d.next_u64() as u32,
        student: format!("{}{i}", names[d.below(names.len() as u64) as usize]),
        answers: (0..n)
            .map(|_| Answered {
                answer: answers[d.below(answers.len() as u64) as usize].to_string(),
                checked: [None, Some(true), Some(false)][d.below(3) as usize],
            })
            .collect(),
    }
}

#[test]
fn a_thousand_codes_round_trip() {
    let mut d = Draw::new(7);
    for i in 0..1000 {
        let h = generated(&mut d, i);
        let code = h.encode();
        assert!(code.starts_with("GP1-"));
        assert_eq!(HandIn::decode(&code, None), Ok(h.clone()), "{code}");
        // Pasted in lower case, wrapped over lines, without the dashes: the same code.
        let messy = code
            .to_lowercase()
            .replace('-', "")
            .chars()
            .collect::<Vec<_>>()
            .chunks(30)
            .map(|c| c.iter().collect::<String>())
            .collect::<Vec<_>>()
            .join("\n");
        assert_eq!(HandIn::decode(&messy, None), Ok(h), "{messy}");
    }
}

const ALPHABET: &str = "0123456789ABCDEFGHJKMNPQRSTVWXYZ";

#[test]
fn every_single_character_corruption_is_caught() {
    let mut d = Draw::new(11);
    let mut tried = 0;
    for i in 0..40 {
        let h = generated(&mut d, i);
        let code = h.encode();
        let chars: Vec<char> = code.chars().collect();
        for (at, &c) in chars.iter().enumerate() {
            if c == '-' {
                continue;
            }
            // Every other character of the alphabet in its place.
            for other in ALPHABET.chars().filter(|&o| o != c) {
                let mut v = chars.clone();
                v[at] = other;
                let s: String = v.iter().collect();
                assert_ne!(HandIn::decode(&s, None).ok(), Some(h.clone()), "{s}");
                assert!(HandIn::decode(&s, None).is_err(), "changed {c}→{other} at {at}: {s}");
                tried += 1;
            }
            // Left out, and doubled.
            let mut v = chars.clone();
            v.remove(at);
            assert!(HandIn::decode(&v.iter().collect::<String>(), None).is_err(), "without {at}");
            let mut v = chars.clone();
            v.insert(at, c);
            assert!(HandIn::decode(&v.iter().collect::<String>(), None).is_err(), "{c} doubled at {at}");
        }
        // Cut off anywhere.
        for end in 0..chars.len() - 1 {
            let s: String = chars[..end].iter().collect();
            assert!(HandIn::decode(&s, None).is_err(), "cut at {end}");
        }
    }
    assert!(tried > 10_000);
}

#[test]
fn a_code_says_what_is_wrong_in_both_languages() {
    let a = assignment();
    let h = HandIn { assignment: a.fingerprint(), student: "Li".into(), answers: vec![] };
    assert_eq!(HandIn::decode("", None), Err(CodeError::Empty));
    assert_eq!(HandIn::decode("hello", None), Err(CodeError::NotACode));
    assert!(matches!(
        HandIn::decode("GP1-ABU", None),
        Err(CodeError::BadCharacter { position: 3, found: 'U' })
    ));
    assert_eq!(HandIn::decode(&h.encode(), Some(a.fingerprint() ^ 1)), Err(CodeError::OtherAssignment));
    for e in [
        CodeError::Empty,
        CodeError::NotACode,
        CodeError::Checksum,
        CodeError::Truncated,
        CodeError::OtherAssignment,
    ] {
        let (zh, en) = (words::code_error(&e, Lang::Zh), words::code_error(&e, Lang::En));
        assert!(!zh.is_empty() && !en.is_empty() && zh != en);
        assert!(!zh.chars().any(|c| c.is_ascii_lowercase()), "zh words: {zh}");
    }
}

#[test]
fn an_assignment_travels_in_its_link_and_a_mangled_one_is_named() {
    let a = assignment();
    let token = a.to_token();
    assert_eq!(Assignment::from_token(&token), Ok(a.clone()));
    assert!(Assignment::from_token(&token[..token.len() / 2]).is_err());
    assert_eq!(Assignment::from_token("%%%"), Err(AssignmentError::NotBase64));
    let mut b = a.clone();
    b.exercises.push("no-such".into());
    assert_eq!(
        Assignment::from_token(&b.to_token()),
        Err(AssignmentError::UnknownExercise("no-such".into()))
    );
    b.exercises.clear();
    assert_eq!(Assignment::from_token(&b.to_token()), Err(AssignmentError::ExerciseCount(0)));
    // The fingerprint follows what decides the numbers (class, exercises), not the title.
    assert_eq!(a.fingerprint(), Assignment { title: "Week 4".into(), ..a.clone() }.fingerprint());
    assert_ne!(a.fingerprint(), Assignment { class: format!("{}x", a.class), ..a.clone() }.fingerprint());
    let mut fewer = a.clone();
    fewer.exercises.pop();
    assert_ne!(a.fingerprint(), fewer.fingerprint());
    // A link whose exercise the site no longer has still opens (and grades).
    let mut gone = a.clone();
    gone.exercises.push("no-such".into());
    assert_eq!(Assignment::from_link(&gone.to_token()), Ok(gone.clone()));
}

/// What a student types as the answer: the key of their own variant, or the chapter's.
fn answer_for(a: &Assignment, student: &str, id: &str) -> String {
    match classroom::find(id) {
        Some(p) => p.variant(variant_seed(&a.class, student, id)).unwrap().key_text().unwrap(),
        None => gpu_primer::exercises::find(id).unwrap().key_text().unwrap(),
    }
}

fn code(a: &Assignment, student: &str, answers: &[String]) -> String {
    HandIn {
        assignment: a.fingerprint(),
        student: student.into(),
        answers: answers.iter().map(|x| Answered { answer: x.clone(), checked: Some(true) }).collect(),
    }
    .encode()
}

#[test]
fn three_pasted_codes_make_a_gradebook() {
    let a = assignment();
    let right: Vec<String> = a.exercises.iter().map(|id| answer_for(&a, "李华", id)).collect();
    // Li Hua's first answer in MB instead of GB: converted, still right.
    let mut in_mb = right.clone();
    in_mb[0] = format!("{} MB", right[0].parse::<f64>().unwrap() * 1000.0);
    let li = code(&a, "李华", &in_mb);
    // Ana used Li Hua's numbers: her own key differs, so the check marks it wrong although her
    // page's verdict (forged here) says right.
    let ana = code(&a, "Ana", &right);
    let other = HandIn { assignment: a.fingerprint() ^ 7, student: "Bo".into(), answers: vec![] }.encode();
    let mut typo: Vec<char> = code(&a, "Chen", &right).chars().collect();
    let at = typo.len() - 3;
    typo[at] = if typo[at] == 'Z' { 'Y' } else { 'Z' };
    let typo: String = typo.into_iter().collect();
    // Li's code wrapped by an email program over two lines.
    let (l1, l2) = li.split_at(20);
    let pasted = format!("{l1}\n{l2}\n\n{ana}\n{other}\n{typo}\nthanks!\n");
    let book = grade(&a, &pasted);
    assert_eq!(book.rows.len(), 2, "{:?}", book.problems);
    assert_eq!(book.rows[0].student, "李华");
    assert_eq!(book.rows[0].score(), 3);
    let ana_row = &book.rows[1];
    assert!(ana_row.score() < 3, "Ana's own numbers differ");
    assert!(ana_row.disagreements() > 0);
    let kinds: Vec<String> = book.problems.iter().map(|p| words::problem(p, Lang::En)).collect();
    assert_eq!(book.problems.len(), 3, "{kinds:?}");
    assert!(kinds[0].contains("another assignment"));
    assert!(kinds[1].contains("checksum"));
    assert!(matches!(&book.problems[2], Problem::Code { error: CodeError::NotACode, .. }));
    let csv = book.csv(&a);
    let lines: Vec<&str> = csv.split("\r\n").filter(|l| !l.is_empty()).collect();
    assert_eq!(lines.len(), 3);
    assert!(lines[0].starts_with("student,mem-kv-32x8k answer,mem-kv-32x8k right,"));
    assert!(lines[1].starts_with("李华,"));
    assert!(lines[1].ends_with(",3,3,0"));
}

#[test]
fn a_spreadsheet_formula_in_a_name_is_defused() {
    let a = assignment();
    let c = code(&a, "=HYPERLINK(\"x\")", &["1".into(), "2".into(), "3".into()]);
    let csv = grade(&a, &c).csv(&a);
    assert!(csv.contains("\"'=HYPERLINK(\"\"x\"\")\""), "{csv}");
}

#[test]
fn the_cli_assigns_and_grades() {
    let bin = env!("CARGO_BIN_EXE_gpu-primer");
    let run = |args: &[&str], stdin: &str| {
        use std::io::Write;
        let mut child = std::process::Command::new(bin)
            .args(args)
            .stdin(std::process::Stdio::piped())
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .expect("runs");
        child.stdin.take().unwrap().write_all(stdin.as_bytes()).unwrap();
        child.wait_with_output().unwrap()
    };
    let t = run(
        &[
            "assign",
            "--class",
            "CS101-2027",
            "--exercises",
            "mem-kv-32x8k,intro-pcie-copy-share",
            "--title",
            "Week 3",
        ],
        "",
    );
    assert!(t.status.success());
    let token = String::from_utf8(t.stdout).unwrap().trim().to_string();
    let a = Assignment::from_token(&token).unwrap();
    let answers: Vec<String> = a.exercises.iter().map(|id| answer_for(&a, "Li", id)).collect();
    let g = run(&["grade", &token], &format!("{}\nGP1-XXXX\n", code(&a, "Li", &answers)));
    assert!(g.status.success());
    let out = String::from_utf8(g.stdout).unwrap();
    assert!(out.lines().nth(1).unwrap().starts_with("Li,"), "{out}");
    assert!(String::from_utf8_lossy(&g.stderr).contains("GP1-XXXX"));
    let bad = run(&["grade", "not-a-token"], "");
    assert_eq!(bad.status.code(), Some(2));
    let none = run(&["assign", "--class", "C", "--exercises", "nope"], "");
    assert_eq!(none.status.code(), Some(2));
}
