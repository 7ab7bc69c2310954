//! Prose and the widget beside it tell one story (issue 33, class 6). A calculator placed in a
//! chapter opens at a preset; the paragraphs of its section state numbers of named scenarios
//! (`{r:SCENARIO:…}`). When the section cites scenarios, the widget opens at one of them, or the
//! section says, in both languages, what the widget shows instead (the phrases in [`NAMED`]).

use gpu_primer::content::numbers::scenario as named_scenario;
use gpu_primer::content::{chapters, Segment};
use gpu_primer::engine::Scenario;
use gpu_primer::estimator::presets;
use gpu_primer::exercises::parse_scenario;

/// A widget that opens at another scenario than its section cites: (chapter slug, widget, the
/// words of the English section that name the difference, the same in Chinese).
const NAMED: &[(&str, &str, &str, &str)] = &[];

/// Kinds of widget whose preset is an estimator scenario (`{{widget:KIND:PRESET}}`).
const ESTIMATOR_KINDS: [&str; 2] = ["memory", "kv-cache"];

/// `{r:NAME:…}` names in `html`, in order, each once.
fn cited(html: &str) -> Vec<&str> {
    let mut out: Vec<&str> = Vec::new();
    for part in html.split("{r:").skip(1) {
        if let Some(name) = part.split(':').next() {
            if !out.contains(&name) {
                out.push(name);
            }
        }
    }
    out
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

fn preset_scenario(widget: &str) -> Option<Scenario> {
    let (kind, preset) = widget.split_once(':')?;
    ESTIMATOR_KINDS.contains(&kind).then_some(())?;
    presets::find(preset).map(presets::Preset::scenario)
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
            let Some(opens) = preset_scenario(widget) else { continue };
            let names = cited(en_html);
            if names.is_empty() {
                continue;
            }
            checked += 1;
            let same = names
                .iter()
                .any(|n| named_scenario(n).and_then(|j| parse_scenario(j).ok()).is_some_and(|s| s == opens));
            if same {
                continue;
            }
            let said = NAMED.iter().any(|(slug, w, en_words, zh_words)| {
                *slug == ch.slug && w == widget && en_html.contains(en_words) && zh_html.contains(zh_words)
            });
            if !said {
                problems.push(format!(
                    "{}: {{{{widget:{widget}}}}} opens at another scenario than {names:?}, and the section does not say so",
                    ch.slug
                ));
            }
        }
    }
    assert!(checked >= 2, "only {checked} widgets checked");
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

#[test]
fn sections_and_citations_are_read() {
    assert_eq!(cited("a {r:x:p:1:0} b {r:y:q:1:0} {r:x:z:1:0}"), vec!["x", "y"]);
    let segs = [
        Segment::Html("<h2>A</h2>{r:a:p:1:0}<h2>B</h2>{r:b:p:1:0}"),
        Segment::Widget("memory:70b-fp16"),
        Segment::Html("<p>more {r:c:p:1:0}</p>"),
        Segment::Widget("local"),
    ];
    let w = widgets_with_sections(&segs);
    assert_eq!(cited(&w[0].1), vec!["b"]);
    assert_eq!(cited(&w[1].1), vec!["b", "c"]);
    assert!(preset_scenario("memory:70b-fp16").is_some() && preset_scenario("local").is_none());
}
