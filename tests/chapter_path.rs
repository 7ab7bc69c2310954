//! The learning path and the sources, checked on the chapter files themselves (issue 9): every
//! chapter in both languages opens with what the reader will be able to do and what to read
//! first (earlier chapters only), ends its text with the takeaways just before the exercises,
//! and ends with its references, each an http(s) link, the same sources in both languages.
//! Chapter 1's roadmap links every chapter in order.

use std::path::{Path, PathBuf};

/// The words that mark each part of the path in one language.
struct Marks {
    lang: &'static str,
    goals: &'static str,
    read_first: &'static str,
    nothing_first: &'static str,
    takeaways: &'static str,
    exercises: &'static str,
    references: &'static str,
}

const EN: Marks = Marks {
    lang: "en",
    goals: "> **After this chapter you can**",
    read_first: "> **Read first:** ",
    nothing_first: "nothing",
    takeaways: "## Takeaways",
    exercises: "## Exercises",
    references: "## References",
};

const ZH: Marks = Marks {
    lang: "zh",
    goals: "> **读完本章，你能**",
    read_first: "> **先读**：",
    nothing_first: "无",
    takeaways: "## 要点",
    exercises: "## 练习",
    references: "## 参考资料",
};

/// What a chapter file says about its place on the path.
#[derive(Debug, PartialEq)]
struct PathParts {
    goals: usize,
    /// Slugs of the chapters linked under "read first", in order.
    read_first: Vec<String>,
    takeaways: usize,
    /// URLs of the references, in order.
    references: Vec<String>,
}

/// The markdown link targets `](target)` in `line`.
fn link_targets(line: &str) -> Vec<String> {
    line.split("](").skip(1).filter_map(|rest| rest.split_once(')').map(|(t, _)| t.to_string())).collect()
}

fn h2_lines(md: &str) -> Vec<(usize, &str)> {
    md.lines().enumerate().filter(|(_, l)| l.starts_with("## ")).collect()
}

/// Reads the path parts of one chapter, or says what is missing or malformed.
fn path_parts(md: &str, m: &Marks) -> Result<PathParts, String> {
    let lines: Vec<&str> = md.lines().collect();
    // The opening: title, blank, the goals block.
    let start =
        lines.iter().position(|l| !l.starts_with("# ") && !l.trim().is_empty()).ok_or("empty chapter")?;
    if lines.get(start) != Some(&m.goals) {
        return Err(format!("the first block after the title must be '{}'", m.goals));
    }
    let block: Vec<&str> = lines[start..].iter().take_while(|l| l.starts_with('>')).copied().collect();
    let goals = block.iter().filter(|l| l.starts_with("> - ")).count();
    if goals < 2 {
        return Err(format!("'{}' lists {goals} goals; give at least two", m.goals));
    }
    let read =
        block.iter().find(|l| l.starts_with(m.read_first)).ok_or(format!("no '{}' line", m.read_first))?;
    let prefix = format!("#/{}/chapters/", m.lang);
    let mut read_first = Vec::new();
    for target in link_targets(read) {
        let slug =
            target.strip_prefix(&prefix).ok_or(format!("read-first link '{target}' is not a chapter"))?;
        read_first.push(slug.to_string());
    }
    if read_first.is_empty() && !read.contains(m.nothing_first) {
        return Err(format!("'{}' names no chapter and does not say '{}'", m.read_first, m.nothing_first));
    }

    // The end: ... takeaways, exercises, references (the last heading).
    let h2 = h2_lines(md);
    let last = h2.last().ok_or("no headings")?;
    if last.1 != m.references {
        return Err(format!("the last heading must be '{}', found '{}'", m.references, last.1));
    }
    let n = h2.len();
    if n < 3 || h2[n - 2].1 != m.exercises || h2[n - 3].1 != m.takeaways {
        return Err(format!(
            "the chapter must end with '{}', '{}', '{}'",
            m.takeaways, m.exercises, m.references
        ));
    }
    let takeaways = lines[h2[n - 3].0 + 1..h2[n - 2].0].iter().filter(|l| l.starts_with("- ")).count();
    if takeaways < 2 {
        return Err(format!("'{}' lists {takeaways} points; give at least two", m.takeaways));
    }
    let mut references = Vec::new();
    for line in lines[last.0 + 1..].iter().filter(|l| !l.trim().is_empty()) {
        let url = match (line.strip_prefix("- ["), link_targets(line).first()) {
            (Some(_), Some(url)) => url.clone(),
            _ => {
                return Err(format!("reference '{line}' is not a list item that starts with a [title](link)"))
            }
        };
        if !(url.starts_with("https://") || url.starts_with("http://")) || url.contains(' ') {
            return Err(format!("reference '{line}': '{url}' is not an http(s) link"));
        }
        references.push(url);
    }
    if references.is_empty() {
        return Err(format!("'{}' lists nothing", m.references));
    }
    Ok(PathParts { goals, read_first, takeaways, references })
}

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// (number, slug, text) of every chapter of one language, in order.
fn chapters(lang: &str) -> Vec<(u32, String, String)> {
    let dir = root().join("content").join(lang);
    let mut out: Vec<(u32, String, String)> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "md"))
        .map(|p: PathBuf| {
            let stem = p.file_stem().unwrap().to_str().unwrap().to_string();
            let (num, slug) = stem.split_once('-').unwrap();
            (num.parse().unwrap(), slug.to_string(), std::fs::read_to_string(Path::new(&p)).unwrap())
        })
        .collect();
    out.sort();
    out
}

#[test]
fn every_chapter_has_goals_prerequisites_takeaways_and_references_in_both_languages() {
    let (zh, en) = (chapters("zh"), chapters("en"));
    assert_eq!(zh.len(), 15);
    assert_eq!(en.len(), zh.len());
    for ((number, slug, zh_md), (_, en_slug, en_md)) in zh.iter().zip(&en) {
        assert_eq!(slug, en_slug);
        let z = path_parts(zh_md, &ZH).unwrap_or_else(|e| panic!("content/zh/{number:02}-{slug}.md: {e}"));
        let e = path_parts(en_md, &EN).unwrap_or_else(|e| panic!("content/en/{number:02}-{slug}.md: {e}"));
        assert_eq!(
            z.references.len(),
            e.references.len(),
            "{slug}: zh and en list different numbers of references"
        );
        assert_eq!(z.references, e.references, "{slug}: zh and en cite different sources");
        assert_eq!(z.read_first, e.read_first, "{slug}: zh and en ask to read different chapters first");
        assert_eq!((z.goals, z.takeaways), (e.goals, e.takeaways), "{slug}: goal or takeaway counts differ");
        // Read first: only earlier chapters; only chapter 1 asks for nothing.
        assert_eq!(e.read_first.is_empty(), *number == 1, "{slug}: read-first list");
        for pre in &e.read_first {
            let earlier = en.iter().find(|(_, s, _)| s == pre).map(|(n, _, _)| *n);
            assert!(earlier.is_some_and(|n| n < *number), "{slug}: '{pre}' is not an earlier chapter");
        }
    }
}

#[test]
fn chapter_one_roadmap_links_every_chapter_in_order() {
    for lang in ["zh", "en"] {
        let all = chapters(lang);
        let intro = &all[0].2;
        let prefix = format!("#/{lang}/chapters/");
        let mut linked: Vec<String> = Vec::new();
        for line in intro.lines().filter(|l| l.starts_with("- [")) {
            if let Some(slug) = link_targets(line).first().and_then(|t| t.strip_prefix(&prefix)) {
                linked.push(slug.to_string());
            }
        }
        let slugs: Vec<String> = all.iter().map(|(_, s, _)| s.clone()).collect();
        assert_eq!(linked, slugs, "{lang}: the roadmap lists each chapter once, in order");
    }
}

#[test]
fn the_checker_rejects_what_it_should() {
    let good = "# T\n\n> **After this chapter you can**\n>\n> - a\n> - b\n>\n> **Read first:** nothing.\n\nText.\n\n## Takeaways\n\n- x\n- y\n\n## Exercises\n\n{{exercise:e}}\n\n## References\n\n- [A](https://a.example/x): note\n";
    assert_eq!(path_parts(good, &EN).unwrap().references, vec!["https://a.example/x".to_string()]);
    let bad = [
        good.replace("> **After this chapter you can**\n", ""),
        good.replace("> - b\n", ""),
        good.replace("nothing.", "soon."),
        good.replace("## Takeaways", "## Summary"),
        good.replace("- y\n", ""),
        good.replace("https://a.example/x", "a.example/x"),
        good.replace("- [A](https://a.example/x): note", "A, https://a.example/x"),
        good.replace("\n## References\n\n- [A](https://a.example/x): note\n", "\n"),
        format!("{good}\n## Later\n\ntext\n"),
    ];
    for (i, md) in bad.iter().enumerate() {
        assert!(path_parts(md, &EN).is_err(), "bad sample {i} passed: {md}");
    }
}

/// A `**` left in the rendered HTML is emphasis that CommonMark did not close (in Chinese, a
/// closing `**` right after full-width punctuation and before a character is not a delimiter).
#[test]
fn no_emphasis_marker_is_left_unrendered() {
    for c in gpu_primer::content::chapters() {
        for page in [&c.zh, &c.en] {
            for segment in page.segments {
                if let gpu_primer::content::Segment::Html(html) = segment {
                    let outside_code = html.split("<code>").map(|s| s.split("</code>").last().unwrap_or(""));
                    for text in outside_code {
                        assert!(!text.contains("**"), "{}: unrendered ** in {}", c.slug, text);
                    }
                }
            }
        }
    }
}
