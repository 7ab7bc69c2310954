//! `sitemap.xml` (sitemaps.org 0.9), written when the build is given the site's address: every
//! page of both languages with its alternate in the other (Google's `xhtml:link` hreflang form).

use crate::html::escape as esc;
use crate::i18n::Lang;
use crate::route::Route;

/// The sitemap for the site at `base` (`https://example.org/docs/`) listing `routes`' pages
/// (the root, the not-found page and embeds are not pages to find).
pub fn xml(base: &str, routes: &[Route]) -> String {
    let base = base.trim_end_matches('/');
    let url = |r: &Route| format!("{base}/{}", r.path());
    let mut out = String::from(
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\" xmlns:xhtml=\"http://www.w3.org/1999/xhtml\">\n",
    );
    for r in routes.iter().filter(|r| !matches!(r, Route::Root | Route::NotFound(_) | Route::Embed(..))) {
        out.push_str(&format!("<url><loc>{}</loc>", esc(&url(r))));
        for lang in Lang::ALL {
            out.push_str(&format!(
                "<xhtml:link rel=\"alternate\" hreflang=\"{}\" href=\"{}\"/>",
                lang.html_lang(),
                esc(&url(&r.in_lang(lang)))
            ));
        }
        out.push_str("</url>\n");
    }
    out.push_str("</urlset>\n");
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_page_is_listed_with_its_other_language() {
        let routes = vec![
            Route::Root,
            Route::Home(Lang::En),
            Route::Estimate(Lang::Zh),
            Route::Embed(Lang::En, "memory"),
        ];
        let x = xml("https://x.org/docs/", &routes);
        assert!(x.contains("<loc>https://x.org/docs/en/</loc><xhtml:link rel=\"alternate\" hreflang=\"zh-CN\" href=\"https://x.org/docs/zh/\"/>"));
        assert!(x.contains("<loc>https://x.org/docs/zh/estimate/</loc>"));
        assert_eq!(x.matches("<url>").count(), 2, "{x}");
    }
}
