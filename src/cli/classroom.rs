//! `gpu-primer assign` and `gpu-primer grade`: an assignment's token, and the gradebook of the
//! hand-in codes pasted for it (CSV on stdout, each unusable piece named on stderr).

use gpu_primer::classroom::assignment::Assignment;
use gpu_primer::classroom::gradebook::grade;
use gpu_primer::i18n::{classroom as words, Lang};
use std::io::{Read, Write};

/// `assign --class CODE --exercises ID,ID [--title T] [--due D] [--hints] [--solutions] [--answer-key]`.
pub fn assign(args: &[String], out: &mut impl Write) -> i32 {
    let mut a = Assignment {
        title: String::new(),
        class: String::new(),
        due: String::new(),
        exercises: Vec::new(),
        show_hints: false,
        show_solutions: false,
        show_answer_key: false,
    };
    let mut it = args.iter();
    while let Some(flag) = it.next() {
        let mut value = || it.next().cloned().ok_or_else(|| format!("{flag} needs a value"));
        let r = match flag.as_str() {
            "--class" => value().map(|v| a.class = v),
            "--title" => value().map(|v| a.title = v),
            "--due" => value().map(|v| a.due = v),
            "--exercises" => value().map(|v| {
                a.exercises = v.split(',').map(|s| s.trim().to_string()).filter(|s| !s.is_empty()).collect()
            }),
            "--hints" => set(&mut a.show_hints),
            "--solutions" => set(&mut a.show_solutions),
            "--answer-key" => set(&mut a.show_answer_key),
            other => Err(format!("unknown option '{other}'")),
        };
        if let Err(e) = r {
            eprintln!("gpu-primer assign: {e}");
            return 2;
        }
    }
    if let Err(e) = a.check() {
        eprintln!("gpu-primer assign: {}", words::assignment_error(&e, Lang::En));
        return 2;
    }
    let _ = writeln!(out, "{}", a.to_token());
    0
}

/// A flag that turns a setting on.
fn set(flag: &mut bool) -> Result<(), String> {
    *flag = true;
    Ok(())
}

/// `grade TOKEN [FILE|-]`: the codes in FILE (default stdin).
pub fn grade_codes(args: &[String], out: &mut impl Write) -> i32 {
    let Some(token) = args.first() else {
        eprintln!("gpu-primer grade: name the assignment's token (gpu-primer assign prints it)");
        return 2;
    };
    let a = match Assignment::from_token(token) {
        Ok(a) => a,
        Err(e) => {
            eprintln!("gpu-primer grade: {}", words::assignment_error(&e, Lang::En));
            return 2;
        }
    };
    let mut text = String::new();
    let read = match args.get(1).map(String::as_str) {
        None | Some("-") => std::io::stdin().read_to_string(&mut text).map(|_| ()),
        Some(path) => std::fs::read_to_string(path).map(|t| text = t),
    };
    if let Err(e) = read {
        eprintln!("gpu-primer grade: cannot read the codes: {e}");
        return 2;
    }
    let book = grade(&a, &text);
    for p in &book.problems {
        eprintln!("gpu-primer grade: {}", words::problem(p, Lang::En));
    }
    let _ = out.write_all(book.csv(&a).as_bytes());
    0
}
