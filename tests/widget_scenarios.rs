//! Prose and the widget beside it tell one story (issue 33, class 6). A calculator placed in a
//! chapter opens at a preset; the paragraphs of its section state numbers of named scenarios
//! (`{r:SCENARIO:PATH:…}`). When the section cites scenarios, the widget opens at one of them
//! (every number the section cites of that scenario is the widget's number too), or the section
//! says, in both languages, what the widget shows instead (the phrases in [`NAMED`]). A cloud
//! selector is compared on the instances whose per-GPU price a cited scenario charges: their
//! rows' cost per million tokens against the cost that scenario's throughput gives.

use gpu_primer::catalog::evaluate;
use gpu_primer::content::numbers::scenario as named_scenario;
use gpu_primer::content::{chapters, Segment};
use gpu_primer::engine::hardware::GpuSpec;
use gpu_primer::engine::Scenario;
use gpu_primer::estimator::presets;
use gpu_primer::exercises::{parse_scenario, report_value};
use gpu_primer::tools::{cloud, diagnose};

/// A widget that opens at another scenario than its section cites: (chapter slug, widget, the
/// words of the English section that name the difference, the same in Chinese).
const NAMED: &[(&str, &str, &str, &str)] = &[(
    "cloud-gpus",
    "cloud:8b-chat",
    "It sizes one service of 32 concurrent requests per instance, not 32 per GPU as above",
    "它为每个实例配置一个共 32 个并发请求的服务，而不是像上面那样每张 GPU 32 个",
)];

/// Kinds of widget whose preset is an estimator scenario (`{{widget:KIND:PRESET}}`).
const ESTIMATOR_KINDS: [&str; 2] = ["memory", "kv-cache"];

/// `{r:NAME:PATH:…}` in `html`: each name once, in order, with the paths cited of it.
fn cited(html: &str) -> Vec<(&str, Vec<&str>)> {
    let mut out: Vec<(&str, Vec<&str>)> = Vec::new();
    for part in html.split("{r:").skip(1) {
        let mut fields = part.split(':');
        let (Some(name), Some(path)) = (fields.next(), fields.next()) else { continue };
        match out.iter_mut().find(|(n, _)| *n == name) {
            Some((_, paths)) => paths.push(path),
            None => out.push((name, vec![path])),
        }
    }
    out
}

/// Whether every cited number of scenario `name` is the same on the widget's scenario.
fn same_numbers(name: &str, paths: &[&str], opens: &Scenario) -> bool {
    let Some(named) = named_scenario(name).and_then(|j| parse_scenario(j).ok()) else { return false };
    if named == *opens {
        return true;
    }
    let (Ok(a), Ok(b)) = (evaluate(&named), evaluate(opens)) else { return false };
    paths.iter().all(|p| match (report_value(&a, p), report_value(&b, p)) {
        (Some(x), Some(y)) => (x - y).abs() <= 1e-9 * x.abs().max(y.abs()),
        (None, None) => true,
        _ => false,
    })
}

/// Each widget with the HTML of its section up to it (from the last `<h2>`/`<h3>` before it).
fn widgets_with_sections(segments: &[Segment]) -> Vec<(&'static str, String)> {
    let mut out = Vec::new();
    let mut section = String::new();
    for s in segments {
        match s {
            Segment::Html(h) => {
                let last = ["<h2", "<h3"].iter().filter_map(|t| h.rfind(t)).max();
                match last {
                    Some(at) => section = h[at..].to_string(),
                    None => section.push_str(h),
                }
            }
            Segment::Widget(w) => out.push((*w, section.clone())),
            _ => {}
        }
    }
    out
}

/// The scenario a widget opens at: an estimator preset, or a diagnosis example's workload.
fn preset_scenario(widget: &str) -> Option<Scenario> {
    let (kind, preset) = widget.split_once(':')?;
    if kind == "diagnose" {
        let (_, query) = diagnose::PRESETS.iter().find(|(n, _)| *n == preset)?;
        return diagnose::parse_query(query).0.scenario();
    }
    ESTIMATOR_KINDS.contains(&kind).then_some(())?;
    presets::find(preset).map(presets::Preset::scenario)
}

/// The rows of a cloud widget that price a cited scenario's GPU at its per-GPU price but cost
/// another amount per million tokens than the scenario's throughput at that price (1% apart).
fn cloud_rows_that_differ(widget: &str, names: &[(&str, Vec<&str>)]) -> Option<Vec<String>> {
    let (kind, preset) = widget.split_once(':')?;
    (kind == "cloud").then_some(())?;
    let rows = cloud::rows(&cloud::preset(preset)?);
    let mut out = Vec::new();
    for (name, _) in names {
        let Some(s) = named_scenario(name).and_then(|j| parse_scenario(j).ok()) else { continue };
        let (Some(price), GpuSpec::Id(gpu)) = (s.price_per_gpu_hour, &s.gpu) else { continue };
        let Some(tps) = evaluate(&s).ok().and_then(|r| report_value(&r, "throughput.decode_tokens_per_s"))
        else {
            continue;
        };
        let prose = price / (tps * 3600.0) * 1e6;
        for row in &rows {
            let cloud::Source::Catalog(i) = &row.source else { continue };
            let priced = i.price_per_gpu_hour().is_some_and(|p| (p - price).abs() < 1e-6 * price);
            if i.gpu_id() != Some(gpu.as_str()) || !priced {
                continue;
            }
            let cost = row.assessment.as_ref().ok().and_then(|a| a.choice.as_ref()?.cost_per_million_tokens);
            if cost.is_none_or(|c| (c - prose).abs() > 0.01 * prose) {
                out.push(format!(
                    "{}: {cost:?} per million tokens, the prose's {name} {prose:.2}",
                    i.instance
                ));
            }
        }
    }
    Some(out)
}

#[test]
fn a_widget_opens_at_the_scenario_its_section_cites_or_says_why_not() {
    let mut problems = Vec::new();
    let mut checked = 0;
    for ch in chapters() {
        let en = widgets_with_sections(ch.en.segments);
        let zh = widgets_with_sections(ch.zh.segments);
        assert_eq!(en.len(), zh.len(), "{}: widgets differ between languages", ch.slug);
        for ((widget, en_html), (_, zh_html)) in en.iter().zip(&zh) {
            let names = cited(en_html);
            if names.is_empty() {
                continue;
            }
            let said = NAMED.iter().any(|(slug, w, en_words, zh_words)| {
                *slug == ch.slug && w == widget && en_html.contains(en_words) && zh_html.contains(zh_words)
            });
            if let Some(rows) = cloud_rows_that_differ(widget, &names) {
                checked += 1;
                if !rows.is_empty() && !said {
                    problems.push(format!(
                        "{}: {{{{widget:{widget}}}}} {rows:?}, and the section does not say why",
                        ch.slug
                    ));
                }
                continue;
            }
            let Some(opens) = preset_scenario(widget) else { continue };
            checked += 1;
            if names.iter().any(|(n, paths)| same_numbers(n, paths, &opens)) {
                continue;
            }
            if !said {
                let names: Vec<&str> = names.iter().map(|(n, _)| *n).collect();
                problems.push(format!(
                    "{}: {{{{widget:{widget}}}}} opens at another scenario than {names:?}, and the section does not say so",
                    ch.slug
                ));
            }
        }
    }
    assert!(checked >= 4, "only {checked} widgets checked");
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

#[test]
fn sections_and_citations_are_read() {
    let names = |c: Vec<(&str, Vec<&str>)>| c.into_iter().map(|(n, _)| n.to_string()).collect::<Vec<_>>();
    assert_eq!(cited("{r:x:p:1:0} {r:y:q:1:0} {r:x:z:1:0}"), vec![("x", vec!["p", "z"]), ("y", vec!["q"])]);
    let segs = [
        Segment::Html("<h2>A</h2>{r:a:p:1:0}<h2>B</h2>{r:b:p:1:0}"),
        Segment::Widget("memory:70b-fp16"),
        Segment::Html("<p>more {r:c:p:1:0}</p>"),
        Segment::Widget("local"),
    ];
    let w = widgets_with_sections(&segs);
    assert_eq!(names(cited(&w[0].1)), vec!["b"]);
    assert_eq!(names(cited(&w[1].1)), vec!["b", "c"]);
    assert!(preset_scenario("memory:70b-fp16").is_some() && preset_scenario("local").is_none());
    assert!(preset_scenario("diagnose:decode").is_some());
}

/// Chapter 9's selector serves 32 requests per instance, so its p5.48xlarge row costs more per
/// million tokens than the section's eight replicas of 32: a difference the section must name.
#[test]
fn the_cloud_selector_is_compared_row_by_row() {
    let names = vec![("cloud-gpus-8b-h100", vec!["throughput.decode_tokens_per_s"])];
    let rows = cloud_rows_that_differ("cloud:8b-chat", &names).unwrap();
    assert!(rows.iter().any(|r| r.starts_with("p5.48xlarge")), "{rows:?}");
    assert!(cloud_rows_that_differ("memory:70b-fp16", &names).is_none());
}

/// The comparison tells scenarios apart by the numbers cited: chapter 13's 70B estimate is not
/// the 8B long-context preset its widget used to open at, and is the 70B preset it opens at now.
#[test]
fn a_different_scenario_is_told_apart() {
    let chat = preset_scenario("kv-cache:long-context-chat").unwrap();
    let kv = ["memory_per_gpu_bytes.kv_cache"];
    assert!(!same_numbers("capacity-estimation-70b-32x8k-tp4", &kv, &chat));
    let tp4 = preset_scenario("kv-cache:70b-32x8k-tp4").unwrap();
    assert!(same_numbers("capacity-estimation-70b-32x8k-tp4", &kv, &tp4));
}
