//! Markdown → HTML for chapters, with widget slots. Used by `build.rs` at compile time
//! (through `#[path]`) and unit-tested natively; the site itself never parses markdown.
//!
//! A chapter file is CommonMark + GFM tables:
//! - line 1 is `# Title` (the only H1; the page renders it itself, so it is left out of the body);
//! - a line that is exactly `{{widget:NAME}}` (outside code fences) is a widget slot: the
//!   calculator NAME is mounted there. NAME must be in [`WIDGETS`];
//! - a line that is exactly `{{exercise:ID}}` places the exercise ID (defined in
//!   `src/exercises/data/`, checked by `tests/exercises.rs`);
//! - a line that is exactly `{{figure:NAME}}` places the diagram NAME (one of [`FIGURES`]);
//! - `<details>` blocks are counted for the zh/en parity check.
//!
//! Headings below the title get ids `s-1`, `s-2`, … in order: the two languages have the same
//! structure, so a section id names the same section in both. With glossary terms given, the
//! first use of each term in the chapter's prose (not in headings, links, code or exercise
//! answers) becomes a link to its glossary entry (see `terms.rs`).

use super::terms::{first_match_from, TermPatterns};
use pulldown_cmark::{html, CowStr, Event, HeadingLevel, Options, Parser, Tag, TagEnd};

// `WIDGETS`: the widget kinds, one list shared with the embed route (`content::WIDGETS`).
include!("widget_kinds.rs");

/// The figures a chapter may place, as `{{figure:NAME}}`; `ui::figure` draws each.
pub const FIGURES: &[&str] = &[
    "memory-hierarchy",
    "thread-hierarchy",
    "roofline-kernels",
    "ring-allreduce",
    "topology",
    "mig-slices",
    "bottlenecks",
];

/// Splits a widget name into its kind and optional preset.
pub fn widget_parts(name: &str) -> (&str, Option<&str>) {
    match name.split_once(':') {
        Some((kind, preset)) => (kind, Some(preset)),
        None => (name, None),
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Segment {
    Html(String),
    Widget(String),
    Exercise(String),
    Figure(String),
}

/// One language's version of a chapter, ready to embed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RenderedPage {
    pub title: String,
    /// The chapter's one-line goal for the table of contents: the plain text of the first list
    /// item above the first heading (the first of "After this chapter you can"), else of the
    /// first paragraph.
    pub summary: String,
    /// (level, text) of every heading below the title, in order.
    pub headings: Vec<(u8, String)>,
    pub segments: Vec<Segment>,
    /// Number of `<details>` blocks (exercise answers).
    pub exercises: usize,
    /// Ids of the glossary terms linked in this page, in order of first use.
    pub terms: Vec<String>,
}

impl RenderedPage {
    pub fn widgets(&self) -> Vec<&str> {
        self.segments
            .iter()
            .filter_map(|s| match s {
                Segment::Widget(w) => Some(w.as_str()),
                _ => None,
            })
            .collect()
    }

    /// The figures the page places, in order.
    pub fn figures(&self) -> Vec<&str> {
        self.segments
            .iter()
            .filter_map(|s| match s {
                Segment::Figure(f) => Some(f.as_str()),
                _ => None,
            })
            .collect()
    }

    /// The ids of the exercises the page places, in order.
    pub fn exercise_ids(&self) -> Vec<&str> {
        self.segments
            .iter()
            .filter_map(|s| match s {
                Segment::Exercise(id) => Some(id.as_str()),
                _ => None,
            })
            .collect()
    }
}

fn widget_name(line: &str) -> Option<&str> {
    line.trim().strip_prefix("{{widget:")?.strip_suffix("}}")
}

fn exercise_id(line: &str) -> Option<&str> {
    line.trim().strip_prefix("{{exercise:")?.strip_suffix("}}")
}

fn figure_name(line: &str) -> Option<&str> {
    line.trim().strip_prefix("{{figure:")?.strip_suffix("}}")
}

/// A slot line: `Err(name)` for a widget, `Err("exercise:ID")` for an exercise,
/// `Err("figure:NAME")` for a figure.
fn slot_name(line: &str) -> Option<String> {
    widget_name(line)
        .map(str::to_string)
        .or_else(|| exercise_id(line).map(|id| format!("exercise:{id}")))
        .or_else(|| figure_name(line).map(|f| format!("figure:{f}")))
}

/// Splits the markdown at widget lines, ignoring lines inside fenced code.
fn split_at_widgets(md: &str) -> Vec<Result<String, String>> {
    let mut parts = Vec::new();
    let mut current = String::new();
    let mut in_fence = false;
    for line in md.lines() {
        let trimmed = line.trim_start();
        if trimmed.starts_with("```") || trimmed.starts_with("~~~") {
            in_fence = !in_fence;
        }
        match slot_name(line) {
            Some(name) if !in_fence => {
                parts.push(Ok(std::mem::take(&mut current)));
                parts.push(Err(name));
            }
            _ => {
                current.push_str(line);
                current.push('\n');
            }
        }
    }
    parts.push(Ok(current));
    parts
}

fn level_number(level: HeadingLevel) -> u8 {
    match level {
        HeadingLevel::H1 => 1,
        HeadingLevel::H2 => 2,
        HeadingLevel::H3 => 3,
        HeadingLevel::H4 => 4,
        HeadingLevel::H5 => 5,
        HeadingLevel::H6 => 6,
    }
}

/// The id of the `n`-th heading below the title (1-based), the same in both languages.
pub fn section_id(n: usize) -> String {
    format!("s-{n}")
}

/// Renders one chapter file without glossary links.
pub fn render(md: &str) -> Result<RenderedPage, String> {
    render_linked(md, "", &[])
}

/// Where a text event sits, for deciding whether a term in it may become a link.
#[derive(Default)]
struct Context {
    /// Inside a number placeholder (`{r:…}`, see `content::numbers`), which a text event may end
    /// in the middle of (pulldown-cmark splits text at `_`).
    placeholder: bool,
    heading: bool,
    links: usize,
    code: bool,
    details: usize,
    images: usize,
    /// Inside the reference list (the section headed "References" / "参考资料"): cited titles
    /// and notes, not prose that teaches a term.
    references: bool,
    /// The text of the current paragraph, list item or table cell so far: a term's `not`
    /// phrase may begin in an earlier text event than the word being linked.
    block: String,
}

impl Context {
    fn prose(&self) -> bool {
        !self.heading
            && self.links == 0
            && !self.code
            && self.details == 0
            && self.images == 0
            && !self.references
    }
}

/// The heading of a chapter's reference list, in either language.
fn is_references_heading(text: &str) -> bool {
    matches!(text.trim(), "References" | "参考资料")
}

/// `text` cut into pieces outside and inside number placeholders (`{r:`, `{g:`, `{f:`, `{x:`,
/// `{n:`, `{m:` up to `}`), `inside` saying where the text before it left off (and updated).
fn placeholder_pieces<'t>(text: &'t str, inside: &mut bool) -> Vec<(&'t str, bool)> {
    const OPENINGS: [&str; 6] = ["{r:", "{g:", "{f:", "{x:", "{n:", "{m:"];
    let mut pieces = Vec::new();
    let mut rest = text;
    while !rest.is_empty() {
        if *inside {
            let (piece, more) = match rest.find('}') {
                Some(end) => (&rest[..=end], &rest[end + 1..]),
                None => (rest, ""),
            };
            *inside = !piece.ends_with('}');
            pieces.push((piece, true));
            rest = more;
        } else {
            let start = OPENINGS.iter().filter_map(|o| rest.find(o)).min().unwrap_or(rest.len());
            if start > 0 {
                pieces.push((&rest[..start], false));
            }
            *inside = start < rest.len();
            rest = &rest[start..];
        }
    }
    pieces
}

/// Pushes `text`, turning the first use of each not yet linked term into a glossary link;
/// `before` is the block's text before it, where a term's `not` phrase may begin.
fn push_linked_text<'a>(
    before: &str,
    text: &str,
    lang: &str,
    terms: &[TermPatterns],
    linked: &mut Vec<String>,
    events: &mut Vec<Event<'a>>,
) {
    let hay = format!("{before}{text}");
    let mut at = before.len();
    while let Some(m) =
        first_match_from(&hay, at, terms, |i| terms.get(i).is_some_and(|t| !linked.contains(&t.id)))
    {
        let (Some(plain), Some(word), Some(term)) =
            (hay.get(at..m.start), hay.get(m.start..m.end), terms.get(m.term))
        else {
            break;
        };
        if !plain.is_empty() {
            events.push(Event::Text(CowStr::from(plain.to_string())));
        }
        events.push(Event::InlineHtml(CowStr::from(format!(
            "<a href=\"#/{lang}/glossary/#term-{id}\">",
            id = term.id
        ))));
        events.push(Event::Text(CowStr::from(word.to_string())));
        events.push(Event::InlineHtml(CowStr::Borrowed("</a>")));
        linked.push(term.id.clone());
        at = m.end;
    }
    if let Some(rest) = hay.get(at..).filter(|r| !r.is_empty()) {
        events.push(Event::Text(CowStr::from(rest.to_string())));
    }
}

/// Renders one chapter file of language `lang` (`zh`/`en`), linking the first use of each of
/// `terms` to the glossary. Errors name what is wrong (the build prints them).
pub fn render_linked(md: &str, lang: &str, terms: &[TermPatterns]) -> Result<RenderedPage, String> {
    let mut options = Options::empty();
    options.insert(Options::ENABLE_TABLES);
    options.insert(Options::ENABLE_STRIKETHROUGH);

    let mut title: Option<String> = None;
    let mut summary: Option<String> = None;
    let mut first_item: Option<String> = None;
    let mut headings = Vec::new();
    let mut segments = Vec::new();
    let mut exercises = 0;
    let mut linked: Vec<String> = Vec::new();
    let mut context = Context::default();

    for part in split_at_widgets(md) {
        let chunk = match part {
            Err(name) if name.starts_with("exercise:") => {
                let id = name.trim_start_matches("exercise:");
                if id.is_empty()
                    || !id.chars().all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-')
                {
                    return Err(format!("exercise '{id}': an id is lowercase letters, digits and dashes"));
                }
                segments.push(Segment::Exercise(id.to_string()));
                continue;
            }
            Err(name) if name.starts_with("figure:") => {
                let figure = name.trim_start_matches("figure:");
                if !FIGURES.contains(&figure) {
                    return Err(format!("unknown figure '{figure}' (known: {FIGURES:?})"));
                }
                segments.push(Segment::Figure(figure.to_string()));
                continue;
            }
            Err(name) => {
                let (kind, preset) = widget_parts(&name);
                if !WIDGETS.contains(&kind) {
                    return Err(format!("unknown widget '{kind}' (known: {WIDGETS:?})"));
                }
                if preset.is_some_and(|p| {
                    p.is_empty()
                        || !p.chars().all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-')
                }) {
                    return Err(format!("widget '{name}': a preset is lowercase letters, digits and dashes"));
                }
                segments.push(Segment::Widget(name));
                continue;
            }
            Ok(chunk) => chunk,
        };
        let mut events = Vec::new();
        let mut in_heading: Option<u8> = None;
        let mut in_paragraph = false;
        let mut heading_text = String::new();
        let mut paragraph_text = String::new();
        let mut items = 0usize;
        let mut item_text = String::new();
        for mut event in Parser::new_ext(&chunk, options) {
            match &mut event {
                Event::Start(Tag::Heading { level, id, .. }) => {
                    in_heading = Some(level_number(*level));
                    heading_text.clear();
                    context.heading = true;
                    context.block.clear();
                    if *level != HeadingLevel::H1 {
                        *id = Some(CowStr::from(section_id(headings.len() + 1)));
                    }
                }
                Event::End(TagEnd::Heading(_)) => {
                    context.heading = false;
                    let level = in_heading.take().unwrap_or(1);
                    let text = heading_text.trim().to_string();
                    if level == 1 {
                        if title.is_some() {
                            return Err(format!("second H1 '{text}': a chapter has one title"));
                        }
                        if !headings.is_empty() || !segments.is_empty() || !events.is_empty() {
                            return Err("the H1 title must come first".to_string());
                        }
                        title = Some(text);
                        continue;
                    }
                    if level == 2 {
                        context.references = is_references_heading(&text);
                    }
                    headings.push((level, text));
                }
                Event::Start(Tag::Paragraph) => {
                    in_paragraph = true;
                    paragraph_text.clear();
                    context.block.clear();
                }
                Event::Start(Tag::TableCell) => context.block.clear(),
                Event::End(TagEnd::Paragraph) => {
                    in_paragraph = false;
                    if summary.is_none() && !paragraph_text.trim().is_empty() {
                        summary = Some(paragraph_text.trim().to_string());
                    }
                }
                Event::Start(Tag::Item) => {
                    items += 1;
                    item_text.clear();
                    context.block.clear();
                }
                Event::End(TagEnd::Item) => {
                    items = items.saturating_sub(1);
                    if first_item.is_none() && headings.is_empty() && !item_text.trim().is_empty() {
                        first_item = Some(item_text.trim().to_string());
                    }
                }
                Event::Text(t) | Event::Code(t) => {
                    if in_heading.is_some() {
                        heading_text.push_str(t);
                    } else if in_paragraph {
                        paragraph_text.push_str(t);
                    }
                    if items > 0 {
                        item_text.push_str(t);
                    }
                }
                Event::SoftBreak => {
                    if in_paragraph {
                        paragraph_text.push(' ');
                    }
                    if items > 0 {
                        item_text.push(' ');
                    }
                }
                Event::Html(h) | Event::InlineHtml(h) => {
                    exercises += count_details(h);
                    context.details += count_details(h);
                    context.details = context.details.saturating_sub(h.matches("</details").count());
                }
                Event::Start(Tag::Link { .. }) => context.links += 1,
                Event::End(TagEnd::Link) => context.links = context.links.saturating_sub(1),
                Event::Start(Tag::Image { .. }) => context.images += 1,
                Event::End(TagEnd::Image) => context.images = context.images.saturating_sub(1),
                Event::Start(Tag::CodeBlock(_)) => context.code = true,
                Event::End(TagEnd::CodeBlock) => context.code = false,
                _ => {}
            }
            if in_heading == Some(1) {
                continue;
            }
            match event {
                Event::Text(t) if context.prose() && !terms.is_empty() => {
                    // A placeholder's text is not prose: no glossary link inside it.
                    for (piece, inside) in placeholder_pieces(&t, &mut context.placeholder) {
                        if inside {
                            events.push(Event::Text(CowStr::from(piece.to_string())));
                        } else {
                            push_linked_text(&context.block, piece, lang, terms, &mut linked, &mut events);
                        }
                        context.block.push_str(piece);
                    }
                }
                other => {
                    match &other {
                        Event::Text(t) | Event::Code(t) => context.block.push_str(t),
                        Event::SoftBreak => context.block.push(' '),
                        _ => {}
                    }
                    events.push(other);
                }
            }
        }
        let mut out = String::new();
        html::push_html(&mut out, events.into_iter().map(open_links_safely));
        // A table's empty top-left cell is a cell, not a header without a name (axe's
        // empty-table-header: a screen reader would announce a blank column head).
        let out = out.replace("<th></th>", "<td></td>");
        if !out.trim().is_empty() {
            segments.push(Segment::Html(out));
        }
    }

    let title = title.ok_or("no '# Title' line: a chapter starts with its H1 title")?;
    if title.is_empty() {
        return Err("the H1 title is empty".to_string());
    }
    Ok(RenderedPage {
        title,
        summary: first_item.or(summary).unwrap_or_default(),
        headings,
        segments,
        exercises,
        terms: linked,
    })
}

/// Leaves links alone except that it refuses `javascript:` URLs in chapter text.
fn open_links_safely(event: Event<'_>) -> Event<'_> {
    match event {
        Event::Start(Tag::Link { link_type, dest_url, title, id })
            if dest_url.trim_start().to_ascii_lowercase().starts_with("javascript:") =>
        {
            Event::Start(Tag::Link { link_type, dest_url: CowStr::Borrowed("#"), title, id })
        }
        other => other,
    }
}

fn count_details(html: &str) -> usize {
    html.matches("<details").count()
}

/// Checks that two languages' versions of a chapter have the same structure:
/// heading levels in order, widget slots in order, and the number of exercise answers.
pub fn check_parity(zh: &RenderedPage, en: &RenderedPage) -> Result<(), String> {
    let levels = |p: &RenderedPage| p.headings.iter().map(|(l, _)| *l).collect::<Vec<_>>();
    if levels(zh) != levels(en) {
        let first = levels(zh)
            .iter()
            .zip(levels(en).iter())
            .position(|(a, b)| a != b)
            .unwrap_or(zh.headings.len().min(en.headings.len()));
        let show = |p: &RenderedPage| {
            p.headings.get(first).map(|(l, t)| format!("H{l} '{t}'")).unwrap_or_else(|| "nothing".into())
        };
        return Err(format!(
            "heading structure differs: zh has {} headings, en has {}; first difference at heading {}: zh {} vs en {}",
            zh.headings.len(),
            en.headings.len(),
            first + 1,
            show(zh),
            show(en)
        ));
    }
    if zh.widgets() != en.widgets() {
        return Err(format!("widget slots differ: zh {:?} vs en {:?}", zh.widgets(), en.widgets()));
    }
    if zh.figures() != en.figures() {
        return Err(format!("figures differ: zh {:?} vs en {:?}", zh.figures(), en.figures()));
    }
    if zh.exercise_ids() != en.exercise_ids() {
        return Err(format!("exercises differ: zh {:?} vs en {:?}", zh.exercise_ids(), en.exercise_ids()));
    }
    if zh.exercises != en.exercises {
        return Err(format!(
            "exercise answers differ: zh has {} <details> blocks, en has {}",
            zh.exercises, en.exercises
        ));
    }
    Ok(())
}

/// Splits `NN-slug.md` into (NN, slug); slugs are lowercase ASCII letters, digits and dashes.
pub fn parse_file_name(name: &str) -> Result<(u32, String), String> {
    let stem = name.strip_suffix(".md").ok_or_else(|| format!("{name}: not a .md file"))?;
    let (number, slug) = stem.split_once('-').ok_or_else(|| format!("{name}: expected NN-slug.md"))?;
    let number: u32 = number.parse().map_err(|_| format!("{name}: '{number}' is not a chapter number"))?;
    let slug_ok =
        !slug.is_empty() && slug.chars().all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-');
    if !slug_ok {
        return Err(format!("{name}: slug '{slug}' must be lowercase letters, digits and dashes"));
    }
    Ok((number, slug.to_string()))
}

#[cfg(test)]
mod tests {
    use super::*;

    const EN: &str = "# Title here\n\nFirst *para* with `code`\nand more.\n\n## One\n\ntext\n\n### One.a\n\n```\n{{widget:not-a-slot}}\n```\n\n## Exercises\n\n1. Q?\n\n<details><summary>Answer</summary>\n\n42\n</details>\n";

    #[test]
    fn summary_is_the_first_goal_when_the_chapter_opens_with_a_list() {
        let p = render("# T\n\n> **After this chapter you can**\n>\n> - size `KV` cache\n>   by hand\n> - two\n\nIntro.\n").unwrap();
        assert_eq!(p.summary, "size KV cache by hand");
        assert_eq!(render("# T\n\nIntro *text*.\n\n## H\n\n- later item\n").unwrap().summary, "Intro text.");
    }

    #[test]
    fn title_summary_headings() {
        let p = render(EN).unwrap();
        assert_eq!(p.title, "Title here");
        assert_eq!(p.summary, "First para with code and more.");
        assert_eq!(p.headings, vec![(2, "One".into()), (3, "One.a".into()), (2, "Exercises".into())]);
        assert_eq!(p.exercises, 1);
        let html = match &p.segments[..] {
            [Segment::Html(h)] => h.clone(),
            other => panic!("one html segment expected, got {other:?}"),
        };
        assert!(!html.contains("<h1"), "the title is rendered by the page, not the body");
        assert!(html.contains("<h2 id=\"s-1\">One</h2>"), "{html}");
        assert!(html.contains("<h3 id=\"s-2\">One.a</h3>"));
        assert!(html.contains("{{widget:not-a-slot}}"), "code fences keep their text");
        assert!(html.contains("<table") || !EN.contains('|'));
    }

    #[test]
    fn errors_name_the_problem() {
        assert!(render("no title\n").unwrap_err().contains("H1"));
        assert!(render("# A\n\n# B\n").unwrap_err().contains("second H1"));
        assert!(render("## first\n\n# A\n").unwrap_err().contains("first"));
        assert!(render("# A\n\n{{widget:nope}}\n").unwrap_err().contains("unknown widget 'nope'"));
        assert!(render("# A\n\n{{widget:memory:Bad Preset}}\n").unwrap_err().contains("preset"));
        let p = render("# A\n\nText.\n\n{{widget:memory:70b-fp16}}\n\nMore.\n").unwrap();
        assert_eq!(p.widgets(), vec!["memory:70b-fp16"]);
        assert_eq!(p.segments.len(), 3);
    }

    #[test]
    fn exercise_slots_are_placed_and_compared() {
        let en = render("# A\n\n## Exercises\n\n{{exercise:kv-one}}\n\n{{exercise:kv-two}}\n").unwrap();
        assert_eq!(en.exercise_ids(), vec!["kv-one", "kv-two"]);
        assert!(en.widgets().is_empty());
        let zh = render("# 甲\n\n## 练习\n\n{{exercise:kv-two}}\n\n{{exercise:kv-one}}\n").unwrap();
        assert!(check_parity(&zh, &en).unwrap_err().contains("exercises differ"));
        assert!(render("# A\n\n{{exercise:Bad Id}}\n").unwrap_err().contains("exercise"));
    }

    #[test]
    fn figure_slots_are_checked_placed_and_compared() {
        let en = render("# A\n\nText.\n\n{{figure:topology}}\n\n{{figure:mig-slices}}\n").unwrap();
        assert_eq!(en.figures(), vec!["topology", "mig-slices"]);
        assert!(en.widgets().is_empty() && en.exercise_ids().is_empty());
        let zh = render("# 甲\n\n正文。\n\n{{figure:mig-slices}}\n\n{{figure:topology}}\n").unwrap();
        assert!(check_parity(&zh, &en).unwrap_err().contains("figures differ"));
        assert!(render("# A\n\n{{figure:nope}}\n").unwrap_err().contains("unknown figure"));
        let fenced = render("# A\n\n```\n{{figure:topology}}\n```\n").unwrap();
        assert!(fenced.figures().is_empty(), "a slot inside a code fence is text");
    }

    #[test]
    fn javascript_links_are_neutralised() {
        let p = render("# T\n\n[x](javascript:alert(1)) [y](#/en/)\n").unwrap();
        let Segment::Html(h) = &p.segments[0] else { panic!() };
        assert!(!h.contains("javascript:"));
        assert!(h.contains("href=\"#/en/\""));
    }

    #[test]
    fn first_use_in_prose_links_to_the_glossary() {
        let terms = vec![
            TermPatterns {
                id: "kv-cache".into(),
                patterns: vec!["KV cache".into(), "KV 缓存".into()],
                ..TermPatterns::default()
            },
            TermPatterns { id: "hbm".into(), patterns: vec!["HBM".into()], ..TermPatterns::default() },
            TermPatterns { id: "nccl".into(), patterns: vec!["NCCL".into()], ..TermPatterns::default() },
        ];
        let md = "# KV cache\n\n## About HBM\n\n`HBM` and [HBM](#/x) and\n\n```\nHBM\n```\n\n<details><summary>A</summary>\n\nNCCL here\n</details>\n\nThe KV cache lives in HBM; the KV cache again.\n";
        let p = render_linked(md, "en", &terms).unwrap();
        let Segment::Html(h) = &p.segments[0] else { panic!() };
        assert_eq!(p.terms, vec!["kv-cache".to_string(), "hbm".to_string()], "{h}");
        assert!(h.contains("The <a href=\"#/en/glossary/#term-kv-cache\">KV cache</a> lives in <a href=\"#/en/glossary/#term-hbm\">HBM</a>; the KV cache again."), "{h}");
        assert!(h.contains("<h2 id=\"s-1\">About HBM</h2>"), "headings stay plain: {h}");
        assert!(h.contains("NCCL here"), "answers stay plain");
        assert_eq!(h.matches("glossary/#term-").count(), 2);
        let zh = render_linked("# 标题\n\n每张卡的KV 缓存很大。\n", "zh", &terms).unwrap();
        let Segment::Html(h) = &zh.segments[0] else { panic!() };
        assert!(h.contains("href=\"#/zh/glossary/#term-kv-cache\">KV 缓存</a>"), "{h}");
    }

    #[test]
    fn a_link_is_a_concept_not_a_string() {
        let terms = vec![
            TermPatterns {
                id: "utilization".into(),
                patterns: vec!["utilisation".into()],
                not: vec!["FLOPs utilisation".into()],
            },
            TermPatterns {
                id: "activations".into(),
                patterns: vec!["activations".into()],
                ..TermPatterns::default()
            },
        ];
        // A `not` phrase that begins in an earlier text event (after inline code) still excludes.
        let md = "# T\n\nMeta reports 40% model `6ND` FLOPs utilisation; nvidia-smi shows utilisation.\n\n## References\n\n- A paper on activations\n";
        let p = render_linked(md, "en", &terms).unwrap();
        let Segment::Html(h) = &p.segments[0] else { panic!() };
        assert!(h.contains("FLOPs utilisation; nvidia-smi shows <a href=\"#/en/glossary/#term-utilization\">utilisation</a>."), "{h}");
        assert_eq!(p.terms, vec!["utilization".to_string()], "the reference list is not linked: {h}");
        let p = render_linked("# T\n\n`gpu_memory_utilization` and gpu_memory_utilisation\n", "en", &terms)
            .unwrap();
        assert!(p.terms.is_empty(), "an identifier is not the word: {:?}", p.segments);
    }

    #[test]
    fn tables_render() {
        let p = render("# T\n\n| a | b |\n|---|---|\n| 1 | 2 |\n").unwrap();
        let Segment::Html(h) = &p.segments[0] else { panic!() };
        assert!(h.contains("<table>"));
    }

    #[test]
    fn parity_detects_differences() {
        let en = render(EN).unwrap();
        let zh_ok = render("# 标题\n\n正文\n\n## 一\n\n### 一.a\n\n## 练习\n\n<details><summary>答案</summary>\n\n42\n</details>\n").unwrap();
        check_parity(&zh_ok, &en).unwrap();
        let zh_missing =
            render("# 标题\n\n## 一\n\n## 练习\n\n<details><summary>答案</summary>\n\n42\n</details>\n")
                .unwrap();
        let err = check_parity(&zh_missing, &en).unwrap_err();
        assert!(err.contains("heading structure differs"), "{err}");
        let zh_no_answer = render("# 标题\n\n## 一\n\n### 一.a\n\n## 练习\n").unwrap();
        assert!(check_parity(&zh_no_answer, &en).unwrap_err().contains("exercise"));
    }

    #[test]
    fn file_names() {
        assert_eq!(parse_file_name("01-introduction.md").unwrap(), (1, "introduction".to_string()));
        assert_eq!(parse_file_name("15-sharing-gpus.md").unwrap(), (15, "sharing-gpus".to_string()));
        assert!(parse_file_name("intro.md").is_err());
        assert!(parse_file_name("01-Intro.md").is_err());
        assert!(parse_file_name("xx-intro.md").is_err());
        assert!(parse_file_name("01-intro.txt").is_err());
    }

    #[test]
    fn no_glossary_link_inside_a_number_placeholder() {
        let mut inside = false;
        assert_eq!(
            placeholder_pieces("a {r:x:phases.decode", &mut inside),
            vec![("a ", false), ("{r:x:phases.decode", true)]
        );
        assert!(inside);
        assert_eq!(
            placeholder_pieces("_s:1:2} decode", &mut inside),
            vec![("_s:1:2}", true), (" decode", false)]
        );
        assert!(!inside);
        assert_eq!(placeholder_pieces("{b} c", &mut inside), vec![("{b} c", false)]);
    }
}
