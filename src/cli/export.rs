//! `gpu-primer export moodle|qti|list`: the parametric exercises as an LMS imports them.

use gpu_primer::classroom::export::{moodle, qti, Request};
use gpu_primer::i18n::Lang;
use std::io::Write;

/// Options of `export`.
struct Options {
    format: String,
    lang: Lang,
    class: String,
    variants: usize,
    ids: Vec<String>,
    out: Option<String>,
}

pub fn run(args: &[String], out: &mut impl Write) -> i32 {
    let opts = match parse(args) {
        Ok(o) => o,
        Err(e) => {
            eprintln!("gpu-primer export: {e}");
            return 2;
        }
    };
    if opts.format == "list" {
        return list(out);
    }
    let exercises = match chosen(&opts.ids) {
        Ok(e) => e,
        Err(e) => {
            eprintln!("gpu-primer export: {e}");
            return 2;
        }
    };
    let req = Request { exercises, variants: opts.variants, class: opts.class, lang: opts.lang };
    let bytes = match opts.format.as_str() {
        "moodle" => moodle::bank(&req).map(String::into_bytes),
        "qti" => qti::package(&req),
        other => Err(format!("unknown format '{other}' (moodle, qti or list)")),
    };
    let bytes = match bytes {
        Ok(b) => b,
        Err(e) => {
            eprintln!("gpu-primer export: {e}");
            return 2;
        }
    };
    match (&opts.out, opts.format.as_str()) {
        (Some(path), _) => match std::fs::write(path, &bytes) {
            Ok(()) => 0,
            Err(e) => {
                eprintln!("gpu-primer export: cannot write {path}: {e}");
                2
            }
        },
        (None, "qti") => {
            eprintln!("gpu-primer export: a QTI package is a ZIP file: name it with --out FILE.zip");
            2
        }
        (None, _) => match out.write_all(&bytes) {
            Ok(()) => 0,
            Err(_) => 2,
        },
    }
}

fn parse(args: &[String]) -> Result<Options, String> {
    let mut it = args.iter();
    let format = it.next().ok_or("name a format: moodle, qti or list")?.clone();
    let mut o =
        Options { format, lang: Lang::En, class: "class".into(), variants: 10, ids: Vec::new(), out: None };
    while let Some(flag) = it.next() {
        let mut value = || it.next().cloned().ok_or_else(|| format!("{flag} needs a value"));
        match flag.as_str() {
            "--lang" => {
                o.lang = match value()?.as_str() {
                    "zh" => Lang::Zh,
                    "en" => Lang::En,
                    other => return Err(format!("--lang is zh or en, not '{other}'")),
                }
            }
            "--class" => o.class = value()?,
            "--variants" => {
                let v = value()?;
                o.variants = match v.parse::<usize>() {
                    Ok(n) if (1..=500).contains(&n) => n,
                    _ => return Err(format!("--variants is a whole number from 1 to 500, not '{v}'")),
                }
            }
            "--exercises" => {
                o.ids = value()?.split(',').map(|s| s.trim().to_string()).filter(|s| !s.is_empty()).collect()
            }
            "--out" => o.out = Some(value()?),
            other => return Err(format!("unknown option '{other}'")),
        }
    }
    Ok(o)
}

/// The exercises named (all parametric ones when none is).
fn chosen(ids: &[String]) -> Result<Vec<&'static gpu_primer::classroom::Parametric>, String> {
    if ids.is_empty() {
        return Ok(gpu_primer::classroom::all().iter().collect());
    }
    ids.iter()
        .map(|id| {
            gpu_primer::classroom::find(id).ok_or_else(|| {
                format!("'{id}' is not a parametric exercise (gpu-primer export list names them)")
            })
        })
        .collect()
}

/// `export list`: each parametric exercise, its chapter and what a variant may change.
fn list(out: &mut impl Write) -> i32 {
    for p in gpu_primer::classroom::all() {
        let params: Vec<String> =
            p.params.iter().map(|q| format!("{} ({} values)", q.name, q.choices.len())).collect();
        let chapter = moodle::chapter_of(p.id);
        let _ = writeln!(out, "{:<28} {:<30} {}", p.id, chapter, params.join(", "));
    }
    0
}
