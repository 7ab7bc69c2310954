//! `gpu-primer export moodle|qti|list`: the parametric exercises as an LMS imports them;
//! `gpu-primer export scorm`: one assignment as a SCORM 1.2 package of the offline course.

use gpu_primer::classroom::assignment::Assignment;
use gpu_primer::classroom::export::{moodle, qti, scorm, Request};
use gpu_primer::i18n::{classroom as words, Lang};
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
    if args.first().map(String::as_str) == Some("scorm") {
        return scorm(&args[1..]);
    }
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
        other => Err(format!("unknown format '{other}' (moodle, qti, scorm or list)")),
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
    let format = it.next().ok_or("name a format: moodle, qti, scorm or list")?.clone();
    let mut o =
        Options { format, lang: Lang::En, class: "class".into(), variants: 10, ids: Vec::new(), out: None };
    while let Some(flag) = it.next() {
        let mut value = || it.next().cloned().ok_or_else(|| format!("{flag} needs a value"));
        match flag.as_str() {
            "--lang" => o.lang = lang(&value()?)?,
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

fn lang(v: &str) -> Result<Lang, String> {
    match v {
        "zh" => Ok(Lang::Zh),
        "en" => Ok(Lang::En),
        other => Err(format!("--lang is zh or en, not '{other}'")),
    }
}

/// `export scorm --token TOKEN --offline FILE [--lang zh|en] --out FILE.zip`: the assignment as
/// a SCORM 1.2 package (`classroom::export::scorm`).
fn scorm(args: &[String]) -> i32 {
    match scorm_package(args) {
        Ok(()) => 0,
        Err(e) => {
            eprintln!("gpu-primer export scorm: {e}");
            2
        }
    }
}

fn scorm_package(args: &[String]) -> Result<(), String> {
    let (mut token, mut offline, mut out, mut lang_) = (None, None, None, Lang::En);
    let mut it = args.iter();
    while let Some(flag) = it.next() {
        let mut value = || it.next().cloned().ok_or_else(|| format!("{flag} needs a value"));
        match flag.as_str() {
            "--token" => token = Some(value()?),
            "--offline" => offline = Some(value()?),
            "--out" => out = Some(value()?),
            "--lang" => lang_ = lang(&value()?)?,
            other => return Err(format!("unknown option '{other}'")),
        }
    }
    let token = token.ok_or("name the assignment with --token TOKEN (gpu-primer assign prints it)")?;
    let a = Assignment::from_token(&token)
        .map_err(|e| format!("--token: {}", words::assignment_error(&e, Lang::En)))?;
    let offline = offline.ok_or("name the offline course with --offline dist/gpu-primer-offline.html")?;
    let out = out.ok_or("a SCORM package is a ZIP file: name it with --out FILE.zip")?;
    let course =
        std::fs::read(&offline).map_err(|e| format!("cannot read the offline course {offline}: {e}"))?;
    let zip = scorm::package(&a, lang_, &course).map_err(|e| format!("{offline}: {e}"))?;
    std::fs::write(&out, zip).map_err(|e| format!("cannot write {out}: {e}"))
}
