//! Every number a chapter states with a unit comes from the engine or from a source. In the
//! prose a number the engine or the catalog gives is a placeholder (`content::numbers`), filled
//! at build time, and a number a worked example chooses as its input is marked `{n:…}`; any other figure with a unit (a datasheet's, a price, a measured result) must
//! be one that the chapter's References list gives next to its source (`[Source](url): 2,039
//! GB/s, 312 TFLOPS`). This test fails on a number with a unit that is neither, naming it.
//!
//! A unit is one of [`UNITS`], after a space (`80 GB`: `80GB` is a product's name). A range
//! (`380–430 TFLOPS`) gives its first number the unit of its second.

#[path = "support/numbers.rs"]
mod numbers;

use gpu_primer::content::{chapters, Page, Segment};

/// The units a stated figure carries, longest first where one starts another.
const UNITS: &[&str] = &[
    "TB/s",
    "GB/s",
    "MB/s",
    "Gb/s",
    "Gbit/s",
    "GT/s",
    "TFLOPS",
    "PFLOPS",
    "GFLOPS",
    "TOPS",
    "PFLOP",
    "TFLOP",
    "GFLOP",
    "FLOP/byte",
    "FLOP/s",
    "FLOPs",
    "FLOP",
    "TiB",
    "GiB",
    "MiB",
    "KiB",
    "TB",
    "GB",
    "MB",
    "KB",
    "ms",
    "µs",
    "ns",
    "s",
    "min",
    "tokens/s",
    "token/s",
    "W",
    "kW",
    "GHz",
    "MHz",
    "毫秒",
    "微秒",
    "纳秒",
    "秒",
    "分钟",
    "小时",
    "瓦",
];

/// The same unit in either language's spelling.
fn canonical(unit: &str) -> &str {
    match unit {
        "毫秒" => "ms",
        "微秒" => "µs",
        "纳秒" => "ns",
        "秒" => "s",
        "分钟" => "min",
        "小时" => "h",
        "瓦" => "W",
        "token/s" => "tokens/s",
        u => u,
    }
}

/// Text of `html` without tags, with each placeholder replaced by a mark that is no number.
fn text(html: &str) -> String {
    numbers::plain_text(&numbers::without_placeholders(html))
}

/// A number of `text` with its unit: (value as written, unit, the words around it).
fn figures(text: &str) -> Vec<(numbers::Number, &'static str, String)> {
    let found = numbers::numbers(text);
    let mut out = Vec::new();
    for (k, n) in found.iter().enumerate() {
        let unit = unit_after(text, n.end).or_else(|| {
            let next = found.get(k + 1)?;
            let between = text[n.end..next.start].trim();
            ["–", "-", "~", "～", "to", "至", "到"]
                .contains(&between)
                .then(|| unit_after(text, next.end))
                .flatten()
        });
        let prefix_dollar = text[..n.start].ends_with('$');
        let unit = match (unit, prefix_dollar) {
            (Some(u), _) => u,
            (None, true) => "$",
            (None, false) => continue,
        };
        // A letter or digit right before it: part of a name (`H100`, `Llama-3`).
        if text[..n.start]
            .chars()
            .next_back()
            .is_some_and(|c| c.is_ascii_alphabetic() || c == '-' || c == '.')
        {
            continue;
        }
        let from = floor(text, n.start.saturating_sub(30));
        let to = floor(text, (n.end + 30).min(text.len()));
        out.push((*n, unit, text[from..to].replace('\n', " ")));
    }
    out
}

fn floor(s: &str, mut i: usize) -> usize {
    while !s.is_char_boundary(i) {
        i -= 1;
    }
    i
}

/// The unit right after a space at `at`, if any.
fn unit_after(text: &str, at: usize) -> Option<&'static str> {
    let rest = &text[at..];
    let spaced = rest.trim_start_matches([' ', '\u{a0}', '\u{202f}']);
    if spaced.len() == rest.len() && !rest.starts_with(|c: char| !c.is_ascii()) {
        return None;
    }
    UNITS.iter().copied().find(|u| {
        spaced.starts_with(u)
            && !spaced[u.len()..].starts_with(|c: char| c.is_ascii_alphanumeric() || c == '/')
    })
}

/// The page's HTML, and where its References section starts.
fn page_html(page: &Page) -> (String, String) {
    let html: String = page
        .segments
        .iter()
        .map(|s| match s {
            Segment::Html(h) => *h,
            _ => "",
        })
        .collect();
    let refs = ["References", "参考资料"].iter().filter_map(|h| html.rfind(&format!(">{h}</h2>"))).max();
    match refs {
        Some(at) => (html[..at].to_string(), html[at..].to_string()),
        None => (html, String::new()),
    }
}

#[test]
fn every_number_with_a_unit_is_computed_or_sourced() {
    let mut problems = Vec::new();
    for ch in chapters() {
        for (lang, page) in [("en", ch.en), ("zh", ch.zh)] {
            let (prose, references) = page_html(page);
            let (prose, references) = (text(&prose), text(&references));
            let cited = figures(&references);
            for (n, unit, context) in figures(&prose) {
                let sourced = cited.iter().any(|(c, u, _)| {
                    canonical(u) == canonical(unit)
                        && (numbers::same(c.written, n.written) || numbers::same(c.value, n.value))
                });
                if !sourced {
                    problems.push(format!("{lang}/{}: {} {unit} in “{context}”", ch.slug, n.written));
                }
            }
        }
    }
    assert!(
        problems.is_empty(),
        "{} numbers neither computed nor sourced:\n{}",
        problems.len(),
        problems.join("\n")
    );
}

#[test]
fn figures_are_read_with_their_units_and_ranges() {
    let t = "380–430 TFLOPS, 80 GB HBM, an A100 80GB, $3.67 per hour, 12 ms and ⟨ GB/s, 3 秒";
    let f: Vec<(f64, &str)> = figures(t).iter().map(|(n, u, _)| (n.written, *u)).collect();
    assert_eq!(
        f,
        vec![(380.0, "TFLOPS"), (430.0, "TFLOPS"), (80.0, "GB"), (3.67, "$"), (12.0, "ms"), (3.0, "秒")]
    );
}

/// Chapter 13's takeaway (a 70B model for 32 × 8K requests on H100s) states the engine's fewest
/// GPUs for each format, as placeholders of named scenarios, and each scenario is what the
/// estimator computes when a reader sets those inputs on its defaults: "FP8" alone leaves the
/// KV cache in BF16 there, so the takeaway names the KV cache's format too.
#[test]
fn a_takeaway_about_a_scenario_is_the_estimators_answer() {
    use gpu_primer::content::numbers::{prose, scenario};
    use gpu_primer::engine::hardware::GpuSpec;
    use gpu_primer::engine::precision::Dtype;
    use gpu_primer::engine::{ModelSpec, Scenario};
    let ch = gpu_primer::content::find("capacity-estimation").unwrap();
    let reader = |weights: Option<Dtype>, kv: Option<Dtype>| {
        let mut s = gpu_primer::estimator::state::default_scenario();
        s.model = ModelSpec::Id("llama-3.1-70b".into());
        (s.context_tokens, s.batch, s.gpu) = (8192, 32, GpuSpec::Id("h100-sxm".into()));
        (s.weight_dtype, s.kv_dtype) = (weights, kv);
        s
    };
    let cases = [
        ("capacity-estimation-70b-32x8k", reader(None, None)),
        ("capacity-estimation-70b-32x8k-fp8w", reader(Some(Dtype::Fp8), None)),
        ("capacity-estimation-70b-32x8k-fp8", reader(Some(Dtype::Fp8), Some(Dtype::Fp8))),
    ];
    let mut answers = Vec::new();
    for (name, expected) in &cases {
        let named = Scenario::from_json(&serde_json::from_str(scenario(name).unwrap()).unwrap()).unwrap();
        assert_eq!(&named, expected, "{name} is not the estimator's scenario");
        let r = gpu_primer::catalog::evaluate(expected).unwrap();
        answers.push(r.solvers.min_gpus.unwrap().gpus);
    }
    assert!(answers[1] > answers[2], "FP8 weights alone need more GPUs than FP8 weights and KV: {answers:?}");
    for (lang, page, heading) in [("en", ch.en, "Takeaways"), ("zh", ch.zh, "要点")] {
        let (html, _) = page_html(page);
        let at = html.find(&format!(">{heading}</h2>")).unwrap();
        let takeaways = &html[at..html[at..].find("</ul>").map_or(html.len(), |e| at + e)];
        let line = takeaways
            .split("<li>")
            .find(|l| l.contains("70B"))
            .unwrap_or_else(|| panic!("{lang}: no 70B line"));
        for (name, _) in &cases {
            assert!(
                line.contains(&format!("{{r:{name}:solvers.min_gpus.gpus:1:0}}")),
                "{lang}: {name} in {line}"
            );
        }
        let filled = text(&prose(line)).replace("H100", "GPU");
        let counts: Vec<u64> = filled
            .split(|c: char| !c.is_ascii_digit())
            .filter_map(|w| w.parse().ok())
            .filter(|n| ![70, 32, 8, 16].contains(n))
            .collect();
        assert_eq!(counts, answers, "{lang}: {filled}");
    }
}
