//! The native command line: `gpu-primer --help`, `--version`, and one subcommand per engine feature.
//!
//! Contract: output on stdout, a one-line message on stderr and exit code 2 for bad input,
//! never a panic.

mod classroom;
mod export;

use std::io::Write;

const USAGE: &str = "\
gpu-primer: learn GPU compute, estimate memory, time and scaling for LLMs

Usage:
  gpu-primer <COMMAND> [ARGS]

Commands:
  estimate FILE          Read a Scenario (JSON; FILE - = stdin), print the Report (JSON).
                         FILE may be a GGUF file (only its header is read): the model of a
                         scenario with every default; a scenario's model may also be the
                         path of a GGUF file
  validate [--json|--markdown]
                         Compare the engine with the embedded published measurements
                         (measured, expected, bound, error; median error per kind)
  list gpus|models [--json]
                         The catalog's GPUs (id, name, memory, bandwidth) or models (id,
                         name, family, parameters, published weight format), as a table or JSON
  bench [N] [MODEL]      Time N full evaluations (default 20000), print microseconds each
                         (MODEL: only that one of the three scenarios, for a profiler)
  site DIST [--site-url URL] [--catalog FILE] [--trunk-reload]
                         Write every page of the site into DIST (where Trunk built the app):
                         chapters, tools, glossary, search indexes, the print page; with the
                         site's public address, absolute canonical links and sitemap.xml too;
                         --catalog: a team catalog (JSON: your GPUs and prices per GPU-hour,
                         docs/site.md) checked, then listed in every tool beside the standard one;
                         --trunk-reload: every page carries the reload script `trunk serve`
                         put into DIST/index.html (Trunk's post_build hook, scripts/pages.sh)
  export moodle|qti|list [--lang zh|en] [--class CODE] [--variants N]
         [--exercises ID,ID] [--out FILE]
                         The parametric exercises for a learning-management system, each
                         with N variants (default 10) drawn from the class code: a Moodle
                         XML question bank (one category per exercise, for a quiz's random
                         question) or a QTI 2.1 package (ZIP, --out required); list: which
                         exercises have parameters
  export scorm --token TOKEN --offline FILE [--lang zh|en] --out FILE.zip
                         An assignment as a SCORM 1.2 package: the offline course (FILE,
                         dist/gpu-primer-offline.html) opened at the student's page, which
                         reports the score and completion to the LMS when the student checks
                         and hands in
  assign --class CODE --exercises ID,ID [--title T] [--due D] [--hints]
         [--solutions] [--answer-key]
                         Print an assignment's token (what the students' link carries)
  grade TOKEN [FILE]     Read the hand-in codes in FILE (default stdin) for the assignment,
                         check every answer against each student's key, print the gradebook
                         as CSV; each code that cannot be used is named on stderr
  help, --help, -h       Show this help
  version, --version, -V Show the version

Exit codes: 0 ok, 2 invalid input or usage.
";

/// Runs the command line and returns the process exit code.
pub fn run(args: &[String]) -> i32 {
    let out = std::io::stdout();
    let mut out = out.lock();
    match args.first().map(String::as_str) {
        None | Some("help" | "--help" | "-h") => {
            let _ = out.write_all(USAGE.as_bytes());
            0
        }
        Some("version" | "--version" | "-V") => {
            let _ = writeln!(out, "gpu-primer {}", env!("CARGO_PKG_VERSION"));
            0
        }
        Some("estimate") => estimate(args.get(1).map(String::as_str), &mut out),
        Some("bench") => bench(args.get(1).map(String::as_str), args.get(2).map(String::as_str), &mut out),
        Some("validate") => validate(args.get(1).map(String::as_str), &mut out),
        Some("list") => list(&args[1..], &mut out),
        Some("site") => site(&args[1..], &mut out),
        Some("export") => export::run(&args[1..], &mut out),
        Some("assign") => classroom::assign(&args[1..], &mut out),
        Some("grade") => classroom::grade_codes(&args[1..], &mut out),
        Some(other) => {
            eprintln!("gpu-primer: unknown command '{other}' (try --help)");
            2
        }
    }
}

/// `site DIST [--site-url URL] [--catalog FILE] [--trunk-reload]`: the prerendered pages (see
/// `gpu_primer::site`).
fn site(args: &[String], out: &mut impl Write) -> i32 {
    let mut dist = None;
    let mut site_url = None;
    let mut team_catalog = None;
    let mut trunk_reload = false;
    let mut rest = args.iter();
    while let Some(arg) = rest.next() {
        match arg.as_str() {
            "--trunk-reload" => trunk_reload = true,
            "--site-url" => match rest.next() {
                Some(url) => site_url = Some(url.clone()),
                None => {
                    eprintln!("gpu-primer: --site-url needs the site's address (https://…)");
                    return 2;
                }
            },
            "--catalog" => {
                match rest.next().map(|p| (std::path::PathBuf::from(p), std::fs::read_to_string(p))) {
                    Some((path, Ok(text))) => team_catalog = Some((path, text)),
                    Some((path, Err(e))) => {
                        eprintln!("gpu-primer: --catalog {}: {e}", path.display());
                        return 2;
                    }
                    None => {
                        eprintln!("gpu-primer: --catalog needs a team catalog file (JSON, see docs/site.md)");
                        return 2;
                    }
                }
            }
            other if dist.is_none() && !other.starts_with("--") => {
                dist = Some(std::path::PathBuf::from(other))
            }
            other => {
                eprintln!("gpu-primer: site: unexpected argument '{other}' (try --help)");
                return 2;
            }
        }
    }
    let Some(dist) = dist else {
        eprintln!("gpu-primer: site needs the directory Trunk built the app into (DIST)");
        return 2;
    };
    match gpu_primer::site::build(&gpu_primer::site::Options { dist, site_url, trunk_reload, team_catalog }) {
        Ok(s) => {
            let sitemap = if s.sitemap { ", sitemap.xml" } else { "" };
            let _ =
                writeln!(out, "site: {} pages, {} KiB of HTML and indexes{sitemap}", s.pages, s.bytes / 1024);
            0
        }
        Err(e) => {
            eprintln!("gpu-primer: site: {e}");
            2
        }
    }
}

/// `estimate FILE`: Scenario JSON in, Report JSON out; exit 2 with one line naming the field.
fn estimate(file: Option<&str>, out: &mut impl Write) -> i32 {
    use gpu_primer::catalog::evaluate;
    use gpu_primer::engine::Scenario;
    use gpu_primer::i18n::facts::report_json;
    use gpu_primer::i18n::Lang;
    use std::io::Read;
    let Some(file) = file else {
        eprintln!("gpu-primer: estimate needs a FILE (or - for stdin)");
        return 2;
    };
    let mut text = String::new();
    if file.ends_with(".gguf") {
        text = serde_json::json!({ "model": file }).to_string();
    }
    let read = if !text.is_empty() {
        Ok(())
    } else if file == "-" {
        std::io::stdin().read_to_string(&mut text).map(|_| ())
    } else {
        std::fs::read_to_string(file).map(|t| text = t)
    };
    if let Err(e) = read {
        eprintln!("gpu-primer: cannot read {file}: {e}");
        return 2;
    }
    let mut value: serde_json::Value = match serde_json::from_str(&text) {
        Ok(v) => v,
        Err(e) => {
            eprintln!("scenario: invalid JSON: {e}");
            return 2;
        }
    };
    if let Some(path) = value.get("model").and_then(|m| m.as_str()).filter(|m| m.ends_with(".gguf")) {
        match gguf_model(path) {
            Ok(config) => value["model"] = config,
            Err(msg) => {
                eprintln!("model: {path}: {msg}");
                return 2;
            }
        }
    }
    let report = Scenario::from_json(&value)
        .map_err(|e| e.to_string())
        .and_then(|s| evaluate(&s).map_err(|e| e.to_string()));
    match report {
        Ok(r) => match serde_json::to_string_pretty(&report_json(&r, Lang::En)) {
            Ok(json) => {
                let _ = writeln!(out, "{json}");
                0
            }
            Err(e) => {
                eprintln!("gpu-primer: cannot write report: {e}");
                2
            }
        },
        Err(msg) => {
            eprintln!("{}", msg.replace('\n', " "));
            2
        }
    }
}

/// The model a GGUF file describes, read from its header (as much of the file as the header
/// takes), or why it cannot be (in English).
fn gguf_model(path: &str) -> Result<serde_json::Value, String> {
    use gpu_primer::estimator::gguf_file::load_model;
    use std::io::Read;
    let mut f = std::fs::File::open(path).map_err(|e| format!("cannot read: {e}"))?;
    let size = f.metadata().map_err(|e| format!("cannot read: {e}"))?.len();
    let mut buf: Vec<u8> = Vec::new();
    load_model(size, |len| {
        let want = usize::try_from(len).ok()?;
        if buf.len() < want {
            let mut more = vec![0u8; want - buf.len()];
            f.read_exact(&mut more).ok()?;
            buf.extend(more);
        }
        buf.get(..want).map(<[u8]>::to_vec)
    })
    .map_err(|e| gpu_primer::i18n::gguf::gguf_error(&e, gpu_primer::i18n::Lang::En))
}

/// `list gpus|models [--json]`: the catalog's ids with what a script or a reader picks them by.
fn list(args: &[String], out: &mut impl Write) -> i32 {
    let (what, json) = match args {
        [w] => (w.as_str(), false),
        [w, flag] if flag == "--json" => (w.as_str(), true),
        [_, other] => {
            eprintln!("list: unknown option '{other}' (use --json)");
            return 2;
        }
        _ => {
            eprintln!("list: name what to list: gpus or models (then --json for JSON)");
            return 2;
        }
    };
    let rows = match what {
        "gpus" => gpu_rows(),
        "models" => model_rows(),
        other => {
            eprintln!("list: unknown catalog '{other}' (use gpus or models)");
            return 2;
        }
    };
    if json {
        return match serde_json::to_string_pretty(&rows) {
            Ok(text) => {
                let _ = writeln!(out, "{text}");
                0
            }
            Err(e) => {
                eprintln!("gpu-primer: cannot write list: {e}");
                2
            }
        };
    }
    let _ = write!(out, "{}", table(what, &rows));
    0
}

/// One object per catalog GPU: id, name, vendor, memory (decimal bytes, as vendors quote), its
/// kind (discrete, apple_unified, unified) and the sizes sold, and the memory bandwidth.
fn gpu_rows() -> Vec<serde_json::Value> {
    gpu_primer::catalog::gpus::all()
        .iter()
        .map(|g| {
            serde_json::json!({
                "id": g.id,
                "name": g.name,
                "vendor": g.vendor,
                "memory_bytes": g.memory_bytes,
                "memory_kind": g.memory_kind,
                "memory_options_bytes": g.memory_options_bytes,
                "memory_bandwidth_bytes_per_s": g.memory_bandwidth_bytes_per_s,
            })
        })
        .collect()
}

/// One object per catalog model: id, name, family (`model_type`), parameters (total and active
/// per token, computed from the architecture) and the weight format it is published in (the
/// config's `quantization_config` method, else its `torch_dtype`; null when neither is given).
fn model_rows() -> Vec<serde_json::Value> {
    use gpu_primer::engine::model::params::count_params;
    gpu_primer::catalog::models::all()
        .iter()
        .map(|e| {
            let a = &e.architecture;
            let p = count_params(a);
            let format =
                a.quantization.as_ref().map(|q| q.method.name().to_owned()).or_else(|| {
                    e.model.config.get("torch_dtype").and_then(|v| v.as_str()).map(str::to_owned)
                });
            serde_json::json!({
                "id": e.model.id,
                "name": e.model.name,
                "family": a.model_type,
                "params_total": u64::try_from(p.total).unwrap_or(u64::MAX),
                "params_active": u64::try_from(p.active).unwrap_or(u64::MAX),
                "published_format": format,
            })
        })
        .collect()
}

/// The rows as an aligned text table: GPUs with memory (GB) and bandwidth (GB/s), models with
/// family, parameters (billions) and published format.
fn table(what: &str, rows: &[serde_json::Value]) -> String {
    let text = |v: &serde_json::Value, k: &str| v[k].as_str().unwrap_or("-").to_owned();
    let num = |v: &serde_json::Value, k: &str| v[k].as_f64().unwrap_or(0.0);
    let (header, cells): ([&str; 4], Vec<[String; 4]>) = if what == "gpus" {
        (
            ["id", "name", "memory", "bandwidth"],
            rows.iter()
                .map(|r| {
                    let kind = match r["memory_kind"].as_str() {
                        Some("apple_unified") | Some("unified") => " unified",
                        _ => "",
                    };
                    [
                        text(r, "id"),
                        text(r, "name"),
                        format!("{:.0} GB{kind}", num(r, "memory_bytes") / 1e9),
                        format!("{:.0} GB/s", num(r, "memory_bandwidth_bytes_per_s") / 1e9),
                    ]
                })
                .collect(),
        )
    } else {
        (
            ["id", "name", "family", "parameters"],
            rows.iter()
                .map(|r| {
                    let (total, active) = (num(r, "params_total"), num(r, "params_active"));
                    let active = if active < total {
                        format!(" ({:.2} B active)", active / 1e9)
                    } else {
                        String::new()
                    };
                    let format = r["published_format"].as_str().map(|f| format!(", {f}")).unwrap_or_default();
                    [
                        text(r, "id"),
                        text(r, "name"),
                        text(r, "family"),
                        format!("{:.2} B{active}{format}", total / 1e9),
                    ]
                })
                .collect(),
        )
    };
    let width =
        |i: usize| cells.iter().map(|c| c[i].chars().count()).chain([header[i].len()]).max().unwrap_or(0);
    let widths = [width(0), width(1), width(2)];
    let line = |c: [&str; 4]| {
        let pad = |s: &str, w: usize| format!("{s}{}", " ".repeat(w.saturating_sub(s.chars().count())));
        format!("{}  {}  {}  {}\n", pad(c[0], widths[0]), pad(c[1], widths[1]), pad(c[2], widths[2]), c[3])
    };
    let mut out = line(header);
    for c in &cells {
        out += &line([&c[0], &c[1], &c[2], &c[3]]);
    }
    out
}

/// `validate [--json|--markdown]`: the validation table (markdown by default).
fn validate(format: Option<&str>, out: &mut impl Write) -> i32 {
    use gpu_primer::i18n::validation::to_markdown;
    use gpu_primer::validation::validation_table;
    let table = validation_table();
    match format {
        None | Some("--markdown") => {
            let _ = write!(out, "{}", to_markdown(&table, gpu_primer::i18n::Lang::En));
            0
        }
        Some("--json") => match serde_json::to_string_pretty(&table) {
            Ok(json) => {
                let _ = writeln!(out, "{json}");
                0
            }
            Err(e) => {
                eprintln!("gpu-primer: cannot write table: {e}");
                2
            }
        },
        Some(other) => {
            eprintln!("validate: unknown option '{other}' (use --json or --markdown)");
            2
        }
    }
}

/// `bench [N] [MODEL]`: times N full evaluations (sizing, solvers, time model with three 1-1024 GPU
/// scaling curves and the roofline series, derivations).
fn bench(n: Option<&str>, only: Option<&str>, out: &mut impl Write) -> i32 {
    use gpu_primer::catalog::evaluate;
    use gpu_primer::engine::{ModelSpec, Scenario};
    let n: u32 = match n.map(str::parse).unwrap_or(Ok(20_000)) {
        Ok(n) if n > 0 => n,
        _ => {
            eprintln!("bench: N must be a positive integer");
            return 2;
        }
    };
    let cases = [("llama-3.1-70b", 8u64), ("llama-3.1-8b", 1), ("deepseek-v3", 8)];
    if only.is_some_and(|m| !cases.iter().any(|(c, _)| *c == m)) {
        eprintln!("bench: MODEL must be one of llama-3.1-70b, llama-3.1-8b, deepseek-v3");
        return 2;
    }
    for (model, gpus) in cases.into_iter().filter(|(m, _)| only.is_none_or(|o| o == *m)) {
        let mut s = Scenario::new(ModelSpec::Id(model.to_owned()));
        s.gpus = gpus;
        s.tensor_parallel = gpus;
        s.context_tokens = 8192;
        s.batch = 16;
        let start = std::time::Instant::now();
        let mut ok = 0u32;
        for _ in 0..n {
            ok += u32::from(std::hint::black_box(evaluate(std::hint::black_box(&s))).is_ok());
        }
        let us = start.elapsed().as_secs_f64() * 1e6 / f64::from(n);
        let _ = writeln!(out, "{model} tp={gpus} ctx=8192 batch=16: {us:.2} us per evaluate() (sizing, solvers, prefill/decode/training times, roofline by batch, 1-1024 GPU scaling curves, derivations), {ok}/{n} ok");
        bench_load(&s, us, n, out);
    }
    0
}

/// The load model's cost apart: the same scenario with `arrival_rate_per_s` at half the
/// sustainable rate (one saturated run, the run at that rate and the ten-point curve), minus
/// the plain evaluate.
fn bench_load(s: &gpu_primer::engine::Scenario, plain_us: f64, n: u32, out: &mut impl Write) {
    use gpu_primer::catalog::evaluate;
    let mut s = s.clone();
    s.arrival_rate_per_s = Some(1.0);
    let max = match evaluate(&s).map(|r| r.load.map(|l| l.max_sustainable_rate_per_s)) {
        Ok(Some(m)) if m > 0.0 => m,
        _ => {
            let _ = writeln!(out, "  load model: not run (nothing served)");
            return;
        }
    };
    s.arrival_rate_per_s = Some(max / 2.0);
    let runs = (n / 1000).max(5);
    let start = std::time::Instant::now();
    for _ in 0..runs {
        std::hint::black_box(evaluate(std::hint::black_box(&s))).ok();
    }
    let us = start.elapsed().as_secs_f64() * 1e6 / f64::from(runs);
    let _ = writeln!(out, "  with arrival_rate_per_s = {:.2} (half the sustainable {max:.2}/s): {us:.0} us per evaluate(), of which the load model {:.0} us (12 simulations), {runs} runs", max / 2.0, us - plain_us);
}
