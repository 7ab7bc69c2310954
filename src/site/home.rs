//! The home page, the tool list and the chapter navigation as HTML strings (every text escaped),
//! for the prerendered pages.

use crate::content;
use crate::html::escape as esc;
use crate::i18n::Lang;
use crate::route::{Route, Tool};
use std::fmt::Write;

/// The inside of the home page's `<article>` in `lang`.
pub fn home_html(lang: Lang) -> String {
    let s = lang.strings();
    let course = lang.course();
    let mut out = String::with_capacity(8 * 1024);
    let _ = write!(
        out,
        "<h1>{}</h1><p class=\"tagline\">{}</p><p class=\"lead\">{}</p>\
         <p><a class=\"button cta\" href=\"{}\">{}</a></p>\
         <p><a href=\"{}\" id=\"validation-link\">{}</a></p>\
         <p><a href=\"{}\" id=\"glossary-link\">{}</a></p><div class=\"for-class\"><p>{}</p>{}</div>\
         <h2>{}</h2><div class=\"path\">",
        esc(s.site_title),
        esc(s.tagline),
        esc(s.home_intro),
        esc(&Route::Estimate(lang).to_hash()),
        esc(s.estimate_cta),
        esc(&Route::Validation(lang).to_hash()),
        esc(s.validation.nav),
        esc(&Route::Glossary(lang).to_hash()),
        esc(course.glossary_title),
        esc(course.course_files),
        super::frame::course_files(lang, &crate::route::path_to_root(&Route::Home(lang).path())),
        esc(course.path_heading),
    );
    for (i, name) in course.stages.iter().enumerate() {
        let _ = write!(
            out,
            "<section class=\"stage\" data-stage=\"{}\"><h3>{}</h3><ol class=\"toc\">",
            i + 1,
            esc(name)
        );
        for c in content::chapters().iter().filter(|c| content::stage_of(c.number) == i) {
            let page = c.page(lang);
            let _ = write!(
                out,
                "<li><a href=\"{}\"><span class=\"toc-num\">{}</span><span class=\"toc-title\">{}</span></a>\
                 <p class=\"toc-summary\">{}</p></li>",
                esc(&Route::Chapter(lang, c.slug).to_hash()),
                esc(&s.chapter_number(c.number)),
                esc(page.title),
                esc(page.summary),
            );
        }
        out.push_str("</ol></section>");
    }
    out.push_str("</div>");
    let _ = write!(out, "<h2 id=\"tools\">{}</h2>", esc(lang.tools().index_title));
    out.push_str(&tool_list_html(lang));
    let w = lang.class();
    let _ = write!(
        out,
        "<h2 id=\"classroom\">{}</h2><p>{}</p><p><a class=\"button\" href=\"{}\">{}</a></p>",
        esc(w.home_heading),
        esc(w.home_blurb),
        esc(&Route::Classroom(lang, crate::route::Class::Make).to_hash()),
        esc(w.make_title)
    );
    out
}

/// The decision tools as a list of links with their purpose and chapter: on the home page and
/// on the tools index.
pub fn tool_list_html(lang: Lang) -> String {
    let t = lang.tools();
    let mut out = String::from("<ul class=\"tool-list\">");
    for tool in Tool::ALL {
        let href = Route::Tool(lang, tool).to_hash();
        tool_item(&mut out, lang, (tool.slug(), &href), (t.name(tool), t.blurb(tool)), tool.chapter_slug());
    }
    // The capacity planner (its own route, `#/{lang}/plan`), from the capacity chapter.
    let p = lang.plan();
    tool_item(
        &mut out,
        lang,
        ("plan", &Route::Plan(lang).to_hash()),
        (p.title, p.blurb),
        "capacity-estimation",
    );
    out.push_str("</ul>");
    out
}

/// One entry of the tool list: its name linked, what it answers, and its chapter.
fn tool_item(
    out: &mut String,
    lang: Lang,
    (slug, href): (&str, &str),
    (name, blurb): (&str, &str),
    chapter: &str,
) {
    let _ = write!(
        out,
        "<li data-tool=\"{}\"><a href=\"{}\"><strong>{}</strong></a><p>{}</p>",
        slug,
        esc(href),
        esc(name),
        esc(blurb),
    );
    if let Some(c) = content::find(chapter) {
        let _ = write!(
            out,
            "<p class=\"hint\">{}<a href=\"{}\">{}</a></p>",
            esc(lang.tools().from_chapter),
            esc(&Route::Chapter(lang, c.slug).to_hash()),
            esc(c.page(lang).title)
        );
    }
    out.push_str("</li>");
}

/// The chapter list of the navigation in `lang`: one `<li>` per chapter, the chapter `current`
/// (if any) marked with `aria-current="page"` and the class `current`.
pub fn chapter_nav_html(lang: Lang, current: Option<&str>) -> String {
    let mut out = String::with_capacity(2 * 1024);
    for c in content::chapters() {
        let here = if current == Some(c.slug) { " aria-current=\"page\" class=\"current\"" } else { "" };
        let _ = write!(
            out,
            "<li><a href=\"{}\"{here}><span class=\"num\">{}</span>{}</a></li>",
            esc(&Route::Chapter(lang, c.slug).to_hash()),
            c.number,
            esc(c.page(lang).title),
        );
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn home_lists_every_chapter_once_in_both_languages() {
        for lang in [Lang::Zh, Lang::En] {
            let html = home_html(lang);
            // The learning path, before the tools (which link their chapters again).
            let (path, tools) = html.split_once("id=\"tools\"").unwrap();
            for c in content::chapters() {
                let href = format!("href=\"{}\"", Route::Chapter(lang, c.slug).to_hash());
                assert_eq!(path.matches(&href).count(), 1, "{lang:?} {}", c.slug);
                assert!(html.contains(&esc(c.page(lang).summary)));
            }
            assert_eq!(html.matches("<section class=\"stage\"").count(), lang.course().stages.len());
            assert!(html.contains("id=\"validation-link\"") && html.contains("id=\"glossary-link\""));
            assert_eq!(html.matches("<li").count(), html.matches("</li>").count());
            for tool in Tool::ALL {
                assert!(tools.contains(&Route::Tool(lang, tool).to_hash()), "{lang:?} {tool:?}");
            }
        }
    }

    #[test]
    fn nav_marks_only_the_current_chapter() {
        let slug = content::chapters()[2].slug;
        let html = chapter_nav_html(Lang::En, Some(slug));
        assert_eq!(html.matches("aria-current=\"page\"").count(), 1);
        assert!(
            html.contains(&format!("href=\"#/en/chapters/{slug}/\" aria-current=\"page\" class=\"current\""))
        );
        let none = chapter_nav_html(Lang::Zh, None);
        assert!(!none.contains("aria-current"));
        assert_eq!(none.matches("<li>").count(), content::chapters().len());
    }
}
