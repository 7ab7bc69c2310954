//! The README is the front door and `docs/` holds the references: every relative link in them
//! reaches a file (and, where it names one, a heading of that file, by GitHub's anchor rules), the
//! README stays small enough to read, keeps the two commands a new user runs, and links every
//! reference page.

use pulldown_cmark::{Event, Options, Parser, Tag, TagEnd};
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Component, Path, PathBuf};

/// The README's size limit: a front door, not a manual (issue 29: "at most ~12 KB").
const README_MAX_BYTES: usize = 12 * 1024;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// README.md and every markdown file of docs/, as paths relative to the repository root.
fn documents() -> Vec<PathBuf> {
    let mut docs: Vec<PathBuf> = std::fs::read_dir(root().join("docs"))
        .expect("docs/ is readable")
        .map(|e| e.expect("directory entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "md"))
        .map(|p| p.strip_prefix(root()).expect("under the root").to_path_buf())
        .collect();
    docs.sort();
    docs.insert(0, PathBuf::from("README.md"));
    docs
}

fn read(rel: &Path) -> String {
    std::fs::read_to_string(root().join(rel)).unwrap_or_else(|e| panic!("{}: {e}", rel.display()))
}

fn parser(text: &str) -> Parser<'_> {
    Parser::new_ext(text, Options::ENABLE_TABLES | Options::ENABLE_STRIKETHROUGH)
}

/// GitHub's anchor for a heading's text: lower case, every character that is not a letter, a
/// digit, `_`, `-` or a space dropped, spaces made hyphens.
fn slug(heading: &str) -> String {
    heading
        .to_lowercase()
        .chars()
        .filter(|c| c.is_alphanumeric() || matches!(c, '_' | '-' | ' '))
        .map(|c| if c == ' ' { '-' } else { c })
        .collect()
}

/// The anchors of a markdown text's headings; a repeated one gets `-1`, `-2`, … as on GitHub.
fn anchors(text: &str) -> BTreeSet<String> {
    let mut seen: BTreeMap<String, usize> = BTreeMap::new();
    let mut out = BTreeSet::new();
    let mut heading: Option<String> = None;
    for event in parser(text) {
        match event {
            Event::Start(Tag::Heading { .. }) => heading = Some(String::new()),
            Event::Text(t) | Event::Code(t) => {
                if let Some(h) = heading.as_mut() {
                    h.push_str(&t);
                }
            }
            Event::End(TagEnd::Heading(_)) => {
                let base = slug(&heading.take().expect("a heading was open"));
                let n = seen.entry(base.clone()).or_insert(0);
                out.insert(if *n == 0 { base.clone() } else { format!("{base}-{n}") });
                *n += 1;
            }
            _ => {}
        }
    }
    out
}

/// Every link and image address in a markdown text.
fn links(text: &str) -> Vec<String> {
    parser(text)
        .filter_map(|event| match event {
            Event::Start(Tag::Link { dest_url, .. }) | Event::Start(Tag::Image { dest_url, .. }) => {
                Some(dest_url.to_string())
            }
            _ => None,
        })
        .collect()
}

/// `dir/../x` as `x`, so a link that climbs out of docs/ is checked against the root.
fn normalise(path: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for part in path.components() {
        match part {
            Component::ParentDir => {
                assert!(out.pop(), "{} climbs out of the repository", path.display());
            }
            Component::CurDir => {}
            other => out.push(other),
        }
    }
    out
}

/// What is wrong with one link of `from`, if anything.
fn broken(from: &Path, link: &str) -> Option<String> {
    if link.contains("://") || link.starts_with("mailto:") {
        return None;
    }
    let (path, fragment) = match link.split_once('#') {
        Some((p, f)) => (p, Some(f)),
        None => (link, None),
    };
    let target = if path.is_empty() {
        from.to_path_buf()
    } else {
        normalise(&from.parent().unwrap_or(Path::new("")).join(path))
    };
    if !root().join(&target).exists() {
        return Some(format!("{link}: {} does not exist", target.display()));
    }
    let fragment = fragment?;
    if target.extension().is_none_or(|e| e != "md") {
        return Some(format!("{link}: an anchor into a file that is not markdown"));
    }
    let have = anchors(&read(&target));
    if have.contains(fragment) {
        None
    } else {
        Some(format!("{link}: {} has no heading #{fragment}", target.display()))
    }
}

#[test]
fn every_relative_link_reaches_a_file_and_heading() {
    let docs = documents();
    assert!(docs.len() >= 5, "README.md and the docs/ pages: {docs:?}");
    let mut bad = Vec::new();
    let mut count = 0;
    for doc in &docs {
        for link in links(&read(doc)) {
            count += 1;
            if let Some(why) = broken(doc, &link) {
                bad.push(format!("{}: {why}", doc.display()));
            }
        }
    }
    assert!(count > 30, "found the links ({count})");
    assert!(bad.is_empty(), "broken links:\n{}", bad.join("\n"));
}

#[test]
fn the_readme_is_a_front_door() {
    let readme = read(Path::new("README.md"));
    assert!(
        readme.len() < README_MAX_BYTES,
        "README.md is {} bytes, over {README_MAX_BYTES}: move reference text into docs/",
        readme.len()
    );
    // The two commands a new user runs, as they are.
    for line in [
        "./scripts/serve.sh    # installs what is missing, builds the site, serves it on http://127.0.0.1:8080/",
        "./scripts/test.sh     # installs what is missing, runs the gates, then every test: native (cargo test) and real-browser",
    ] {
        assert!(readme.lines().any(|l| l == line), "README.md lost the command line {line:?}");
    }
    // CI runs the README's test command, nothing weaker.
    let ci = read(Path::new(".ci/run"));
    assert!(ci.lines().any(|l| l.trim() == "exec ./scripts/test.sh"), ".ci/run:\n{ci}");
}

#[test]
fn the_readme_links_every_reference_page() {
    let linked: BTreeSet<PathBuf> = links(&read(Path::new("README.md")))
        .iter()
        .filter(|l| !l.contains("://"))
        .map(|l| normalise(Path::new(l.split('#').next().unwrap_or(""))))
        .collect();
    let missing: Vec<String> = documents()
        .into_iter()
        .skip(1)
        .filter(|d| !linked.contains(d))
        .map(|d| d.display().to_string())
        .collect();
    assert!(missing.is_empty(), "README.md does not link {missing:?}");
}

#[test]
fn anchors_follow_github() {
    assert_eq!(slug("Scenario keys (all but `model` optional)"), "scenario-keys-all-but-model-optional");
    assert_eq!(slug("Developing with trunk serve"), "developing-with-trunk-serve");
    assert_eq!(
        slug("Example 2: KV cache at 32K context × 32 requests (article)"),
        "example-2-kv-cache-at-32k-context--32-requests-article"
    );
    assert_eq!(slug("GPU Primer · GPU 算力入门"), "gpu-primer--gpu-算力入门");
    let twice = anchors("# A\n\n## A\n\n## b c\n");
    assert_eq!(twice, ["a", "a-1", "b-c"].map(String::from).into_iter().collect());
    // A link that misses is caught: a file that is not there, a heading that is not there.
    assert!(broken(Path::new("README.md"), "docs/nothing.md").is_some());
    assert!(broken(Path::new("README.md"), "docs/cli.md#no-such-heading").is_some());
    assert!(broken(Path::new("docs/cli.md"), "validation.md#known-gaps").is_none());
    assert!(broken(Path::new("docs/cli.md"), "#report-keys").is_none());
}
