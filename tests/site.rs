#![cfg(not(target_arch = "wasm32"))]
//! The prerenderer end to end, natively: every page written into a directory that holds the
//! app's files (stand-ins here), with a site address. Checked: each page exists, every link
//! between pages (and to the stylesheet and scripts) resolves to a file that was written, no
//! page carries a style attribute, the canonical links are absolute and the sitemap lists every
//! page with its other language.

use gpu_primer::route::Route;
use gpu_primer::site::{self, Options};
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

#[path = "support/app_stand_ins.rs"]
mod app_stand_ins;

fn built() -> (PathBuf, site::Summary) {
    let dir = app_stand_ins::dist_with_app("site");
    let options = Options {
        dist: dir.clone(),
        site_url: Some("https://example.org/docs/gpu/".into()),
        trunk_reload: false,
        team_catalog: None,
    };
    let summary = site::build(&options).unwrap();
    (dir, summary)
}

fn files(dir: &Path, base: &Path, out: &mut BTreeSet<String>) {
    for e in std::fs::read_dir(dir).unwrap() {
        let p = e.unwrap().path();
        if p.is_dir() {
            files(&p, base, out);
        } else {
            out.insert(p.strip_prefix(base).unwrap().to_string_lossy().replace('\\', "/"));
        }
    }
}

/// The target file of a relative `href` / `src` from the page at `page` (a site path), if it is
/// one of the site's own (not external, not a bare fragment or data URI).
fn target(page: &str, link: &str) -> Option<String> {
    if link.starts_with('#')
        || link.contains("://")
        || link.starts_with("data:")
        || link.starts_with("mailto:")
    {
        return None;
    }
    let path = link.split(['?', '#']).next().unwrap_or("");
    let mut parts: Vec<&str> = page.split('/').filter(|p| !p.is_empty()).collect();
    if !page.ends_with('/') {
        parts.pop();
    }
    for seg in path.split('/') {
        match seg {
            ".." => {
                parts.pop();
            }
            "." | "" => {}
            s => parts.push(s),
        }
    }
    let joined = parts.join("/");
    Some(if path.ends_with('/') || path.is_empty() {
        if joined.is_empty() {
            "index.html".to_string()
        } else {
            format!("{joined}/index.html")
        }
    } else {
        joined
    })
}

fn attributes<'a>(html: &'a str, name: &str) -> Vec<&'a str> {
    html.split(&format!(" {name}=\"")).skip(1).filter_map(|s| s.split('"').next()).collect()
}

#[test]
fn every_page_is_written_and_every_link_resolves() {
    let (dir, summary) = built();
    let mut written = BTreeSet::new();
    files(&dir, &dir, &mut written);
    let routes = site::all_routes();
    assert_eq!(summary.pages, routes.len());
    assert!(summary.sitemap);
    let (mut checked, mut charts, mut offline_links) = (0, 0, 0);
    for route in &routes {
        let path = route.path();
        let file =
            if path.is_empty() || path.ends_with('/') { format!("{path}index.html") } else { path.clone() };
        assert!(written.contains(&file), "{file} was not written");
        let html = std::fs::read_to_string(dir.join(&file)).unwrap();
        assert!(!html.contains(" style=\""), "{file}: a style attribute");
        // Every chart and figure keeps its text inside (both widths of a paired chart).
        for svg in gpu_primer::charts::text_fit::svgs(&html) {
            let outside = gpu_primer::charts::text_fit::overflows(svg);
            assert!(outside.is_empty(), "{file}: chart text outside its chart or cut short: {outside:?}");
            charts += 1;
        }
        assert!(!html.contains("href=\"#/"), "{file}: a link left in the hash form");
        assert_eq!(
            block_in_paragraph(&html),
            None,
            "{file}: the parser would move this block out of its <p>"
        );
        if !matches!(route, Route::Root | Route::NotFound(_)) {
            let canonical = format!("<link rel=\"canonical\" href=\"https://example.org/docs/gpu/{path}\">");
            assert!(html.contains(&canonical), "{file}: {canonical}");
        }
        // 404.html's links are absolute (a host serves it at any depth).
        if matches!(route, Route::NotFound(_)) {
            assert!(html.contains("href=\"https://example.org/docs/gpu/en/\""), "{file}");
            continue;
        }
        for link in attributes(&html, "href").into_iter().chain(attributes(&html, "src")) {
            let Some(t) = target(&path, &link.replace("&amp;", "&")) else { continue };
            // The offline file is written after the pages (tools/single-file.mjs), which shows
            // their link to it with its size.
            if t == "gpu-primer-offline.html" {
                offline_links += 1;
                continue;
            }
            assert!(written.contains(&t), "{file}: {link} → {t}, which is not a file of the site");
            checked += 1;
        }
    }
    assert!(checked > 4_000, "{checked} links checked");
    assert!(
        offline_links > 100,
        "{offline_links} links to the offline file (every page's footer, the home pages)"
    );
    assert!(charts > 150, "{charts} charts and figures checked");
    let sitemap = std::fs::read_to_string(dir.join("sitemap.xml")).unwrap();
    for route in routes.iter().filter(|r| matches!(r, Route::Chapter(..))) {
        assert!(sitemap.contains(&format!("<loc>https://example.org/docs/gpu/{}</loc>", route.path())));
    }
    for lang in ["zh", "en"] {
        let index = std::fs::read_to_string(dir.join(format!("{lang}/search-index.json"))).unwrap();
        assert!(
            gpu_primer::content::search::Index::from_json(&index).is_some_and(|i| i.entries().len() > 200)
        );
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A block element inside a `<p>` of the page's markup, which the HTML parser would close the
/// paragraph before (so the prerendered page would not have the live component's layout).
fn block_in_paragraph(html: &str) -> Option<String> {
    let mut rest = html;
    while let Some(at) = rest.find("<p") {
        let after = rest.get(at + 2..)?;
        if !after.starts_with(' ') && !after.starts_with('>') {
            rest = after;
            continue;
        }
        let end = after.find("</p>").unwrap_or(after.len());
        let inside = after.get(..end)?;
        for block in [
            "<details", "<div", "<table", "<ul", "<ol", "<section", "<figure", "<h2", "<h3", "<pre", "<dl",
            "<aside",
        ] {
            if let Some(i) = inside.find(block) {
                return Some(
                    inside
                        .get(i.saturating_sub(80)..(i + 40).min(inside.len()))
                        .unwrap_or(inside)
                        .to_string(),
                );
            }
        }
        rest = after.get(end..)?;
    }
    None
}

#[test]
fn relative_links_resolve_like_a_browser() {
    assert_eq!(target("en/chapters/cuda/", "../../../zh/").as_deref(), Some("zh/index.html"));
    assert_eq!(target("en/chapters/cuda/", "../../../style-0.css").as_deref(), Some("style-0.css"));
    assert_eq!(target("", "./en/").as_deref(), Some("en/index.html"));
    assert_eq!(target("en/", "#s-1"), None);
    assert_eq!(target("en/", "https://x.org/"), None);
}

/// `trunk serve`: one build with every feature at the root, and Trunk's index.html carrying its
/// reload script (scripts/pages.sh runs `gpu-primer site STAGING --trunk-reload`). Every page
/// loads that build and carries the script, so a rebuild reloads whichever page is open.
#[test]
fn trunk_serve_gives_every_page_the_one_build_and_its_reload_script() {
    let dir = std::env::temp_dir().join(format!("gpu-primer-site-serve-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    for f in ["style-0.css", "gpu-primer-1.js", "gpu-primer-2_bg.wasm"] {
        std::fs::write(dir.join(f), "/* stand-in */").unwrap();
    }
    let reload = "<script>\"use strict\";(function () { const url = 'ws://' + '{{__TRUNK_ADDRESS__}}' + '/.well-known/trunk/ws'; })()</script>";
    let frame = format!(
        "<!doctype html><!-- Trunk's frame --><html><head><script type=\"module\">\nimport init, * as bindings from '/gpu-primer-1.js';\nconst wasm = await init({{ module_or_path: '/gpu-primer-2_bg.wasm' }});\n</script></head><body>{reload}</body></html>"
    );
    std::fs::write(dir.join("index.html"), frame).unwrap();
    let options = Options { dist: dir.clone(), site_url: None, trunk_reload: true, team_catalog: None };
    let summary = site::build(&options).unwrap();
    assert!(summary.pages > 100);
    for page in ["en/chapters/cuda/index.html", "zh/estimate/index.html", "en/plan/index.html", "index.html"]
    {
        let html = std::fs::read_to_string(dir.join(page)).unwrap();
        assert!(html.contains(reload), "{page} has no reload script");
    }
    let chapter = std::fs::read_to_string(dir.join("en/chapters/cuda/index.html")).unwrap();
    let boot = attributes(&chapter, "src").into_iter().find(|s| s.contains("boot-")).unwrap();
    let script = std::fs::read_to_string(dir.join("en/chapters/cuda").join(boot)).unwrap();
    assert!(
        script.contains("'./gpu-primer-1.js'") && script.contains("'./gpu-primer-2_bg.wasm'"),
        "{script}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}
