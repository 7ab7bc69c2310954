//! The frame of every prerendered page: `<head>` (its own title, description in its language,
//! canonical and hreflang links, the stylesheet, the app's module script), the site header with
//! the language switch, the chapter navigation, `<main>` and the footer. A pure function from a
//! [`Page`] to an HTML string; links inside are in the site's hash form and become relative in
//! `site::links`.
//!
//! The `<html>` element tells the app where it is: `data-root` (the relative URL of the site
//! root, mdBook's `path_to_root`), `data-path` (the page's site path), `data-page` (what kind
//! of page) and `lang`.

use super::Assets;
use crate::html::escape as esc;
use crate::i18n::Lang;
use crate::route::{path_to_root, Route};

/// What a page is: its route, its words and its `<main>`.
#[derive(Debug)]
pub struct Page {
    pub route: Route,
    /// The page's language (also for the not-found page, which is bilingual: `Lang::En`).
    pub lang: Lang,
    /// The `<title>` without the site's name.
    pub title: String,
    pub description: String,
    /// `data-page`: `home`, `chapter`, `estimate`, … (the app mounts by it).
    pub kind: &'static str,
    /// The inside of `<main>`.
    pub main: String,
    /// The site header, navigation and footer (no: an embed, which is only its widget).
    pub chrome: bool,
    /// The app's script (no: pages with nothing live on them, such as the print page).
    pub app: bool,
    /// Which bundle of the app the page loads (`ui::pages::bundle_of`).
    pub bundle: &'static str,
    /// The header's search box, as the app's component renders it.
    pub search: String,
}

/// The page's whole HTML document. `site_url`, when the build is given the site's address,
/// makes the canonical and alternate links absolute (`https://example.org/docs/`).
pub fn document(page: &Page, assets: &Assets, site_url: Option<&str>) -> String {
    let path = page.route.path();
    let root = path_to_root(&path);
    let lang = page.lang;
    let s = lang.strings();
    let title = if page.title.is_empty() {
        format!("{} · {}", s.site_title, s.tagline)
    } else {
        format!("{} · {}", page.title, s.site_title)
    };
    let mut out = String::with_capacity(page.main.len() + 8 * 1024);
    out.push_str(&format!(
        "<!doctype html>\n<html lang=\"{}\" data-root=\"{root}\" data-path=\"{}\" data-page=\"{}\" data-bundle=\"{}\">\n<head>\n\
         <meta charset=\"utf-8\">\n<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n\
         <meta name=\"color-scheme\" content=\"light dark\">\n<title>{}</title>\n<meta name=\"description\" content=\"{}\">\n",
        lang.html_lang(),
        esc(&path),
        page.kind,
        page.bundle,
        esc(&title),
        esc(&page.description),
    ));
    out.push_str(&head_links(page, &root, site_url));
    out.push_str(&format!(
        "<link rel=\"icon\" href=\"{ICON}\">\n<link rel=\"stylesheet\" href=\"{root}{}\">\n",
        assets.css
    ));
    if page.kind == "embed" {
        // Links open outside the frame (the app's router leaves an embed's links to the
        // browser: `ui::nav`); the theme and the height for the host page (see EMBED_SCRIPT).
        out.push_str("<base target=\"_blank\">\n<script>");
        out.push_str(EMBED_SCRIPT);
        out.push_str("</script>\n");
    }
    if page.app {
        out.push_str(&format!(
            "<script type=\"module\" src=\"{root}{}\"></script>\n",
            assets.boot(page.bundle)
        ));
    }
    // Without scripts, what only the app can do is not offered (the search field, a Check
    // button): one rule, applied only when scripting is off.
    out.push_str(
        "<noscript><style>.needs-js{display:none!important}.search-slot+.nav-estimate{margin-left:auto}</style></noscript>\n</head>\n",
    );
    out.push_str(match (page.chrome, page.kind) {
        (true, _) => "<body>\n",
        (false, "embed") => "<body data-embed>\n",
        (false, _) => "<body class=\"bare\">\n",
    });
    if page.chrome {
        out.push_str(&header(page));
        out.push_str("<div class=\"layout\">\n");
        out.push_str(&navigation(page));
    }
    out.push_str(&format!("<main id=\"main\" tabindex=\"-1\">{}</main>\n", page.main));
    if page.chrome {
        out.push_str(&format!(
            "</div>\n<footer class=\"site-footer\"><p>{}</p>{}</footer>\n",
            esc(s.footer),
            course_files(lang, &root)
        ));
    }
    out.push_str("</body>\n</html>\n");
    out
}

/// The links to the whole course on one page, to the offline file (`root`: the page's way to
/// the site root) and to the list of embeddable widgets, as the footer and the home page carry
/// them. The offline file is written
/// after the pages (`tools/single-file.mjs`), which then shows its link with the file's size;
/// until then (a site built without it, `trunk serve`) the link stays hidden.
pub fn course_files(lang: Lang, root: &str) -> String {
    let c = lang.course();
    format!(
        "<ul class=\"course-files\"><li><a href=\"{}\">{}</a></li><li class=\"offline\" hidden>\
         <a class=\"offline-link\" href=\"{root}{OFFLINE_FILE}\" download>{}{}<span class=\"offline-size\"></span>{}</a></li>\
         <li><a class=\"embeds-link\" href=\"{}\">{}</a></li></ul>",
        Route::Print(lang).to_hash(),
        esc(c.print_link),
        esc(c.offline_link),
        esc(c.offline_size.0),
        esc(c.offline_size.1),
        Route::Embeds(lang).to_hash(),
        esc(lang.embeds().link),
    )
}

/// The embed page's own script (inline: `tools/csp.mjs` allows it by its hash), run before the
/// page is drawn:
/// - `?theme=light|dark` sets `data-theme` on `<html>`, which the stylesheet's dark rules follow
///   (`auto`, or no parameter: the reader's system scheme, `prefers-color-scheme`);
/// - inside a frame, the page posts its content height to the host page, on load and on every
///   resize of `<body>` (a `ResizeObserver`): `{type: "gpu-primer:height", height}` in CSS
///   pixels, to any origin (the height is all it says). The host's listener, in the embed code
///   (`HOST_LISTENER` in `ui::widgets::embed`), checks that the message comes from its iframe.
pub const EMBED_SCRIPT: &str = "(function(){var d=document,t=new URLSearchParams(location.search).get('theme');\
if(t==='light'||t==='dark')d.documentElement.setAttribute('data-theme',t);\
if(window.parent===window)return;var last=-1;function post(){var b=d.body;if(!b)return;var s=getComputedStyle(b);\
var h=Math.ceil(b.getBoundingClientRect().height+parseFloat(s.marginTop)+parseFloat(s.marginBottom));\
if(h!==last){last=h;window.parent.postMessage({type:'gpu-primer:height',height:h},'*');}}\
addEventListener('load',post);d.addEventListener('DOMContentLoaded',function(){post();\
if(window.ResizeObserver)new ResizeObserver(post).observe(d.body);});})();";

/// The offline file's name, beside the site's root page.
pub const OFFLINE_FILE: &str = "gpu-primer-offline.html";

/// The favicon: a filled rounded square in the site's colour, as a data URI (nothing fetched).
const ICON: &str = "data:image/svg+xml,%3Csvg xmlns=%27http://www.w3.org/2000/svg%27 viewBox=%270 0 16 16%27%3E%3Crect width=%2716%27 height=%2716%27 rx=%273%27 fill=%27%231f6f5c%27/%3E%3C/svg%3E";

/// Canonical and hreflang alternates: both languages' versions of the page, and the root as
/// the `x-default` (it picks the reader's language).
fn head_links(page: &Page, root: &str, site_url: Option<&str>) -> String {
    let url = |route: &Route| match site_url {
        Some(base) => format!("{}/{}", base.trim_end_matches('/'), route.path()),
        None => format!("{root}{}", route.path()),
    };
    let mut out = format!("<link rel=\"canonical\" href=\"{}\">\n", esc(&url(&page.route)));
    if page.route.lang().is_some() && !matches!(page.route, Route::NotFound(_)) {
        for lang in Lang::ALL {
            out.push_str(&format!(
                "<link rel=\"alternate\" hreflang=\"{}\" href=\"{}\">\n",
                lang.html_lang(),
                esc(&url(&page.route.in_lang(lang)))
            ));
        }
        out.push_str(&format!(
            "<link rel=\"alternate\" hreflang=\"x-default\" href=\"{}\">\n",
            esc(&url(&Route::Root))
        ));
    }
    out
}

/// The site header: the menu button that opens the chapter list on a narrow screen (a link to
/// the list without the app), the brand, the search box, the estimator and tools links and the
/// link to the same page in the other language (the app adds the page's state and the reader's
/// section to it when followed). The switch's label is in the other language and marked so;
/// what it does is said to a screen reader in the page's language, after the label.
fn header(page: &Page) -> String {
    let lang = page.lang;
    let s = lang.strings();
    let current = |on: bool| if on { " aria-current=\"page\"" } else { "" };
    let other = lang.other();
    format!(
        "<a class=\"skip\" href=\"#main\">{}</a>\n<header class=\"site-header\">\
         <a class=\"nav-menu\" href=\"#chapter-nav\" aria-controls=\"chapter-nav\" aria-expanded=\"false\">\
         <span aria-hidden=\"true\">☰</span><span class=\"visually-hidden\">{}</span></a>\
         <a class=\"brand\" href=\"{}\"><span class=\"brand-mark\" aria-hidden=\"true\">▦</span><span class=\"brand-name\">{}</span></a>\
         {}<a class=\"nav-estimate\" href=\"{}\"{}>{}</a><a class=\"nav-tools\" href=\"{}\"{}>{}</a>\
         <a class=\"lang-switch\" id=\"lang-switch\" href=\"{}\" hreflang=\"{}\"><span lang=\"{}\">{}</span>\
         <span class=\"visually-hidden\">{}</span></a></header>\n",
        esc(s.skip_to_content),
        esc(s.menu_label),
        Route::Home(lang).to_hash(),
        esc(s.site_title),
        // Search needs the app: a page without it (print, 404) has no search box.
        if page.app && !page.search.is_empty() {
            format!("<div class=\"search-slot\" data-mount=\"search\">{}</div>", page.search)
        } else {
            String::new()
        },
        Route::Estimate(lang).to_hash(),
        current(matches!(page.route, Route::Estimate(_))),
        esc(s.nav_estimate),
        Route::Tools(lang).to_hash(),
        current(matches!(page.route, Route::Tools(_) | Route::Tool(..))),
        esc(lang.tools().nav),
        page.route.in_lang(other).to_hash(),
        other.html_lang(),
        other.html_lang(),
        esc(s.switch_to_other),
        esc(s.switch_hint),
    )
}

/// The chapter list and the glossary link, the current chapter marked.
fn navigation(page: &Page) -> String {
    let lang = page.lang;
    let s = lang.strings();
    let current_slug = match page.route {
        Route::Chapter(_, slug) | Route::Sheet(_, slug, _) => Some(slug),
        _ => None,
    };
    let glossary_current =
        if matches!(page.route, Route::Glossary(_)) { " aria-current=\"page\"" } else { "" };
    format!(
        "<nav class=\"chapter-nav\" id=\"chapter-nav\" aria-label=\"{}\"><details class=\"chapter-nav-box\" open><summary>{}</summary>\
         <ol>{}</ol><p class=\"nav-glossary\"><a href=\"{}\"{glossary_current}>{}</a></p></details></nav>\n",
        esc(s.nav_aria),
        esc(s.chapters_heading),
        super::home::chapter_nav_html(lang, current_slug),
        Route::Glossary(lang).to_hash(),
        esc(lang.course().glossary_nav),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn assets() -> Assets {
        Assets { css: "style-1.css".into(), boot: vec![("course", "boot-2.js".into())] }
    }

    fn page(route: Route) -> Page {
        Page {
            lang: route.lang().unwrap_or(Lang::En),
            route,
            title: "T <1>".into(),
            description: "D \"q\"".into(),
            kind: "chapter",
            main: "<article>x</article>".into(),
            chrome: true,
            app: true,
            bundle: "course",
            search: String::new(),
        }
    }

    #[test]
    fn the_head_names_the_page_in_its_language_and_links_the_other() {
        let html = document(&page(Route::Chapter(Lang::Zh, "cuda")), &assets(), None);
        assert!(html.contains("<html lang=\"zh-CN\" data-root=\"../../../\" data-path=\"zh/chapters/cuda/\" data-page=\"chapter\" data-bundle=\"course\">"));
        assert!(html.contains("<title>T &lt;1&gt; · GPU 算力入门</title>"));
        assert!(html.contains("<meta name=\"description\" content=\"D &quot;q&quot;\">"));
        assert!(html.contains("<link rel=\"canonical\" href=\"../../../zh/chapters/cuda/\">"));
        assert!(html.contains("<link rel=\"alternate\" hreflang=\"en\" href=\"../../../en/chapters/cuda/\">"));
        assert!(html.contains("<link rel=\"alternate\" hreflang=\"x-default\" href=\"../../../\">"));
        assert!(
            html.contains("href=\"../../../style-1.css\"") && html.contains("src=\"../../../boot-2.js\"")
        );
        assert!(
            html.contains("href=\"#/en/chapters/cuda/\" hreflang=\"en\""),
            "the switch leads to the same chapter"
        );
        assert!(
            html.contains("aria-current=\"page\" class=\"current\""),
            "the chapter is marked in the navigation"
        );
    }

    #[test]
    fn a_site_address_makes_the_links_absolute_and_embeds_have_no_frame() {
        let html = document(&page(Route::Estimate(Lang::En)), &assets(), Some("https://x.org/docs/"));
        assert!(html.contains("<link rel=\"canonical\" href=\"https://x.org/docs/en/estimate/\">"));
        assert!(html.contains("class=\"nav-estimate\" href=\"#/en/estimate/\" aria-current=\"page\""));
        let mut embed = page(Route::Embed(Lang::En, "memory"));
        embed.kind = "embed";
        embed.chrome = false;
        embed.app = true;
        let html = document(&embed, &assets(), None);
        assert!(html.contains("<body data-embed>") && !html.contains("site-header"));
        // Its links open outside the frame; its script (theme, height for the host) runs first.
        let base = html.find("<base target=\"_blank\">").unwrap_or(usize::MAX);
        let script = html.find(EMBED_SCRIPT).unwrap_or(usize::MAX);
        assert!(base < script && script < html.find("<script type=\"module\"").unwrap_or(0));
        assert!(!document(&page(Route::Chapter(Lang::En, "cuda")), &assets(), None).contains("<base"));
    }
}
