//! The prerenderer: every page of the site as an HTML file of its own, written at build time
//! into the directory trunk built the app into (`gpu-primer site DIST [--site-url URL]`, run by
//! `scripts/env.sh build_site`).
//!
//! A page carries its whole content (a chapter's article with its figures, exercises, glossary
//! links and references; a tool's page in its default state), its own title, a description in
//! its language, canonical and hreflang links, and `lang` on `<html>`; the app's one module
//! script loads after the text and mounts into it (`ui::mount`). Links are relative (mdBook's
//! `path_to_root`), so one `dist/` serves at a domain root or under any sub-path. Beside the
//! pages: each language's search index, the whole course on one page per language, the root
//! page that sends old hash links (`#/zh/chapters/nvlink`) to their pages, `404.html`, and a
//! `sitemap.xml` when the site's address is given.
//!
//! What it reuses: the chapters as `build.rs` rendered them, the figures and charts (pure SVG
//! functions), the tools' HTML, and the app's own components rendered to HTML (`ui::snapshot`).

mod assets;
mod chapter;
mod embeds;
mod frame;
mod glossary;
mod home;
mod not_found;
mod pages;
mod print;
mod redirect;
mod search_index;
mod sitemap;
mod styles;
mod validation;

pub use assets::Assets;
pub use pages::all_routes;

use std::fmt;
use std::path::{Path, PathBuf};

/// What the build is given.
#[derive(Debug, Clone)]
pub struct Options {
    /// The directory Trunk wrote the app into (`dist/`); the pages are written there too.
    pub dist: PathBuf,
    /// The site's public address (`https://example.org/docs/gpu/`), for the sitemap and
    /// absolute canonical links; without it the links stay relative and no sitemap is written.
    pub site_url: Option<String>,
    /// Development (`trunk serve`): every page carries the reload script Trunk put into the
    /// `index.html` it built, so that a rebuild reloads whichever page is open.
    pub trunk_reload: bool,
    /// A team catalog (`--catalog FILE`): its path and JSON text. Checked and installed before
    /// anything reads the catalog, so the pages are drawn with the team's GPUs and prices; its
    /// text goes into every page for the app to install at start
    /// (`catalog::team::ELEMENT_ID`), and beside the pages as `team-catalog.json`.
    pub team_catalog: Option<(PathBuf, String)>,
}

/// What went wrong, naming the file or the input.
#[derive(Debug)]
pub enum SiteError {
    /// A file could not be read or written.
    Io(PathBuf, std::io::Error),
    /// The app's files are not in the directory (its bundles are not built).
    MissingAsset(String),
    /// The site address is not an http(s) URL.
    BadSiteUrl(String),
    /// A number placeholder in a chapter does not fill (`content::numbers`).
    Content(String),
    /// The team catalog (`--catalog`) has these problems, each naming its entry and field.
    TeamCatalog(PathBuf, Vec<crate::catalog::team::TeamError>),
}

impl fmt::Display for SiteError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SiteError::Io(path, e) => write!(f, "{}: {e}", path.display()),
            SiteError::MissingAsset(what) => {
                write!(f, "{what} (build the bundles first: scripts/serve.sh or scripts/test.sh does)")
            }
            SiteError::Content(what) => write!(f, "chapter text: {what}"),
            SiteError::TeamCatalog(path, errors) => {
                let n = errors.len();
                write!(f, "--catalog {}: {n} problem{}", path.display(), if n == 1 { "" } else { "s" })?;
                errors.iter().try_for_each(|e| write!(f, "\n  {e}"))
            }
            SiteError::BadSiteUrl(url) => {
                write!(f, "--site-url: expected an http:// or https:// address, got '{url}'")
            }
        }
    }
}

impl std::error::Error for SiteError {}

/// What was written.
#[derive(Debug, Default)]
pub struct Summary {
    pub pages: usize,
    pub bytes: u64,
    pub sitemap: bool,
}

/// Writes every page, the search indexes and the rest into `options.dist`.
pub fn build(options: &Options) -> Result<Summary, SiteError> {
    let site_url = match options.site_url.as_deref() {
        Some(url) if url.starts_with("https://") || url.starts_with("http://") => Some(url),
        Some(url) => return Err(SiteError::BadSiteUrl(url.to_string())),
        None => None,
    };
    // Before anything reads the catalog: the pages are drawn with the team's GPUs.
    let team_script = match &options.team_catalog {
        Some((path, text)) => {
            crate::catalog::team::install_text(text).map_err(|e| SiteError::TeamCatalog(path.clone(), e))?;
            Some(format!(
                "<script type=\"application/json\" id=\"{}\">{}</script>",
                crate::catalog::team::ELEMENT_ID,
                crate::catalog::team::script_safe(text.trim())
            ))
        }
        None => None,
    };
    crate::content::numbers::check_chapters().map_err(SiteError::Content)?;
    let dist = options.dist.as_path();
    let reload = if options.trunk_reload { trunk_reload_script(dist) } else { None };
    let assets = Assets::find(dist)?;
    let mut summary = Summary::default();
    for route in all_routes() {
        let page = pages::page(&route);
        let html = frame::document(&page, &assets, site_url);
        let html = styles::to_stylesheet(&crate::links::relative(&html, &route.path()));
        let html = match route {
            crate::route::Route::Root => redirect::with_script(&html),
            // A server serves 404.html for any missing path, at any depth: with the site's
            // address known, its links and stylesheet are absolute; without it the stylesheet
            // is written into the page, and its script finds the site's root for its links.
            crate::route::Route::NotFound(_) => match site_url {
                Some(base) => html.replace("=\"./", &format!("=\"{}/", base.trim_end_matches('/'))),
                None => not_found::with_script(&inline_stylesheet(&html, dist, &assets.css)?),
            },
            _ => html,
        };
        let html = match &team_script {
            Some(script) => after_body_open(&html, script),
            None => html,
        };
        let html = match &reload {
            Some(script) => html.replacen("</body>", &format!("{script}</body>"), 1),
            None => html,
        };
        write(dist, &file_of(&route.path()), &html, &mut summary)?;
        summary.pages += 1;
    }
    for lang in crate::i18n::Lang::ALL {
        let index = search_index::index(lang).to_json();
        write(dist, &format!("{}/search-index.json", lang.code()), &index, &mut summary)?;
    }
    if let Some((_, text)) = &options.team_catalog {
        write(dist, "team-catalog.json", text, &mut summary)?;
    }
    if let Some(url) = site_url {
        write(dist, "sitemap.xml", &sitemap::xml(url, &all_routes()), &mut summary)?;
        summary.sitemap = true;
    }
    // Trunk's own frame of each bundle (its loader with absolute links) is not a page of the site.
    for bundle in assets::BUNDLES {
        let _ = std::fs::remove_file(dist.join(assets::trunk_frame(bundle)));
    }
    Ok(summary)
}

/// The `<script>` element `trunk serve` puts into the `index.html` it builds: it reloads the page
/// when Trunk has rebuilt the app (it talks to Trunk's `/.well-known/trunk/ws`). None when
/// Trunk did not put one there (`trunk build`).
fn trunk_reload_script(dist: &Path) -> Option<String> {
    let html = std::fs::read_to_string(dist.join("index.html")).ok()?;
    let marker = html.find(".well-known/trunk/ws")?;
    let start = html.get(..marker)?.rfind("<script")?;
    let end = marker + html.get(marker..)?.find("</script>")? + "</script>".len();
    html.get(start..end).map(str::to_string)
}

/// `html` with `element` first in its `<body>` (where the offline file keeps it too: it carries
/// each page's body).
fn after_body_open(html: &str, element: &str) -> String {
    let open = html.find("<body").and_then(|at| html.get(at..)?.find('>').map(|end| at + end + 1));
    match open {
        Some(at) => {
            format!("{}{element}{}", html.get(..at).unwrap_or_default(), html.get(at..).unwrap_or_default())
        }
        None => html.to_owned(),
    }
}

/// `html` with its stylesheet link replaced by the stylesheet itself.
fn inline_stylesheet(html: &str, dist: &Path, css: &str) -> Result<String, SiteError> {
    let path = dist.join(css);
    let text = std::fs::read_to_string(&path).map_err(|e| SiteError::Io(path, e))?;
    let link = format!("<link rel=\"stylesheet\" href=\"./{css}\">");
    Ok(html.replacen(&link, &format!("<style>{}</style>", text.replace("</style", "<\\/style")), 1))
}

/// The file of a page at site path `path`: `index.html` in its directory.
fn file_of(path: &str) -> String {
    if path.is_empty() || path.ends_with('/') {
        format!("{path}index.html")
    } else {
        path.to_string()
    }
}

fn write(dist: &Path, relative: &str, text: &str, summary: &mut Summary) -> Result<(), SiteError> {
    let path = dist.join(relative);
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir).map_err(|e| SiteError::Io(dir.to_path_buf(), e))?;
    }
    std::fs::write(&path, text).map_err(|e| SiteError::Io(path.clone(), e))?;
    summary.bytes += text.len() as u64;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pages_are_index_files_in_their_directories() {
        assert_eq!(file_of(""), "index.html");
        assert_eq!(file_of("en/chapters/cuda/"), "en/chapters/cuda/index.html");
        assert_eq!(file_of("404.html"), "404.html");
    }

    #[test]
    fn a_bad_site_address_is_named() {
        let options = Options {
            dist: PathBuf::from("/nonexistent"),
            site_url: Some("example.org".into()),
            trunk_reload: false,
            team_catalog: None,
        };
        let e = build(&options).unwrap_err();
        assert!(e.to_string().contains("--site-url") && e.to_string().contains("example.org"), "{e}");
        let options = Options {
            dist: PathBuf::from("/nonexistent-dist"),
            site_url: None,
            trunk_reload: false,
            team_catalog: None,
        };
        assert!(build(&options).unwrap_err().to_string().contains("bundles"));
    }

    #[test]
    fn an_element_goes_first_in_the_body() {
        let html = "<html><head></head><body data-embed>\n<main></main></body></html>";
        assert_eq!(
            after_body_open(html, "<script id=\"t\"></script>"),
            "<html><head></head><body data-embed><script id=\"t\"></script>\n<main></main></body></html>"
        );
        assert_eq!(after_body_open("<p>", "x"), "<p>");
    }

    #[test]
    fn trunk_serves_reload_script_is_carried_whole() {
        let dir = std::env::temp_dir().join(format!("gpu-primer-reload-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        assert_eq!(trunk_reload_script(&dir), None, "no index.html");
        let script =
            "<script>\"use strict\";(function(){const url='ws://'+a+'.well-known/trunk/ws';})()</script>";
        let page = format!("<html><head><script type=\"module\">import init from '/a.js';</script></head><body>{script}</body></html>");
        std::fs::write(dir.join("index.html"), page).unwrap();
        assert_eq!(trunk_reload_script(&dir).as_deref(), Some(script));
        std::fs::write(
            dir.join("index.html"),
            "<html><script type=\"module\">import init from '/a.js';</script></html>",
        )
        .unwrap();
        assert_eq!(trunk_reload_script(&dir), None, "trunk build: no reload script");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
