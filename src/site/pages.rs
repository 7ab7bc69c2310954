//! Every page of the site and what is on it: the list of routes the build writes, and for each
//! its title, description and `<main>`.

use super::frame::Page;
use crate::content;
use crate::html::escape as esc;
use crate::i18n::Lang;
use crate::route::{Class, Route, Sheet, Tool, WIDGET_KINDS};
use crate::ui::snapshot;

/// Every page the build writes, both languages: the root, each language's home, chapters and
/// their sheets, the whole course, the glossary, the estimator, planner, tools, lab, validation,
/// the embed pages, and `404.html`.
pub fn all_routes() -> Vec<Route> {
    let mut out = vec![Route::Root, Route::NotFound(None)];
    for lang in Lang::ALL {
        out.push(Route::Home(lang));
        for slug in content::slugs() {
            out.push(Route::Chapter(lang, slug));
            out.push(Route::Sheet(lang, slug, Sheet::Worksheet));
            out.push(Route::Sheet(lang, slug, Sheet::Answers));
        }
        out.extend([
            Route::Print(lang),
            Route::Embeds(lang),
            Route::Glossary(lang),
            Route::Estimate(lang),
            Route::Plan(lang),
            Route::Tools(lang),
            Route::Lab(lang),
            Route::Validation(lang),
        ]);
        out.extend(Tool::ALL.map(|t| Route::Tool(lang, t)));
        out.extend(Class::ALL.map(|c| Route::Classroom(lang, c)));
        out.extend(WIDGET_KINDS.iter().map(|k| Route::Embed(lang, k)));
    }
    out
}

/// The page of `route`, with the bundle its live parts need. A page without the app (the print
/// page, the embed list, the root, 404) is in no bundle: the app's navigation leaves it to the
/// browser, which runs the page's own inline script (a body the app swaps in would not).
pub fn page(route: &Route) -> Page {
    let mut page = content_of(route);
    page.bundle = if page.app { bundle_for(&page.main) } else { "none" };
    page
}

/// The bundle a page's `<main>` needs, from the mounts in it.
fn bundle_for(main: &str) -> &'static str {
    let value = |attr: &str| -> Vec<String> {
        main.split(&format!(" {attr}=\""))
            .skip(1)
            .filter_map(|rest| rest.split('"').next())
            .map(str::to_string)
            .collect()
    };
    let app = value("data-app");
    let widgets = value("data-widget");
    let widgets: Vec<&str> = widgets.iter().map(String::as_str).collect();
    crate::ui::pages::bundle_of(app.first().map(String::as_str), &widgets)
}

fn content_of(route: &Route) -> Page {
    let lang = route.lang().unwrap_or(Lang::En);
    let mut page = Page {
        route: route.clone(),
        lang,
        title: String::new(),
        description: String::new(),
        kind: "home",
        main: String::new(),
        chrome: true,
        app: true,
        bundle: "course",
        search: snapshot::search(lang),
    };
    let s = lang.strings();
    match route {
        Route::Root => root(&mut page),
        Route::NotFound(_) => not_found(&mut page),
        Route::Home(_) => {
            page.description = format!("{} {}", s.tagline, s.home_intro);
            page.main = format!(
                "<article class=\"home\" data-page=\"home\">{}</article>",
                super::home::home_html(lang)
            );
        }
        Route::Chapter(_, slug) => {
            let Some(chapter) = content::find(slug) else { return page };
            let p = chapter.page(lang);
            page.kind = "chapter";
            page.title = p.title.to_string();
            page.description = super::chapter::description(lang, chapter);
            page.main = super::chapter::article(lang, chapter);
        }
        Route::Sheet(_, slug, sheet) => {
            let Some(chapter) = content::find(slug) else { return page };
            let x = lang.ex();
            page.kind = "worksheet";
            let what = if *sheet == Sheet::Answers { x.answer_key } else { x.worksheet };
            page.title = format!("{} — {what}", chapter.page(lang).title);
            page.description = format!("{what}{}{}", lang.colon(), chapter.page(lang).summary);
            page.main = super::chapter::sheet(lang, chapter, *sheet);
        }
        Route::Print(_) => {
            let c = lang.course();
            page.kind = "print";
            page.title = c.print_title.to_string();
            page.description = c.print_intro.to_string();
            page.main = super::print::course(lang);
            page.app = false;
        }
        Route::Embeds(_) => {
            let e = lang.embeds();
            page.kind = "embeds";
            page.title = e.title.to_string();
            page.description = e.intro.to_string();
            page.main = super::embeds::page_html(lang);
            page.app = false;
        }
        Route::Glossary(_) => {
            let c = lang.course();
            page.kind = "glossary";
            page.title = c.glossary_title.to_string();
            page.description = c.glossary_intro.to_string();
            page.main = format!(
                "<article class=\"glossary\" data-page=\"glossary\"><h1>{}</h1><p class=\"lead\">{}</p><div>{}</div></article>",
                esc(c.glossary_title),
                esc(c.glossary_intro),
                super::glossary::page_html(lang)
            );
        }
        Route::Validation(_) => {
            let v = &s.validation;
            page.kind = "validation";
            page.title = v.title.to_string();
            page.description = v.intro.to_string();
            page.main = format!(
                "<article class=\"validation\" data-page=\"validation\"><h1>{}</h1><p class=\"lead\">{}</p><div>{}</div></article>",
                esc(v.title),
                esc(v.intro),
                super::validation::page_html(&crate::validation::validation_table(), lang)
            );
        }
        Route::Tools(_) => {
            let t = lang.tools();
            page.kind = "tools";
            page.title = t.index_title.to_string();
            page.description = t.index_intro.to_string();
            page.main = format!(
                "<article class=\"tools-index\" data-page=\"tools\"><h1>{}</h1><p class=\"lead\">{}</p><div>{}</div></article>",
                esc(t.index_title),
                esc(t.index_intro),
                super::home::tool_list_html(lang)
            );
        }
        Route::Estimate(_) | Route::Plan(_) | Route::Lab(_) | Route::Tool(..) | Route::Classroom(..) => {
            app(&mut page)
        }
        Route::Embed(_, kind) => {
            page.kind = "embed";
            page.chrome = false;
            page.title = crate::ui::widgets::title(kind, lang).to_string();
            page.description = format!("{} · {}", page.title, s.tagline);
            page.main = format!(
                "<div data-mount=\"embed\" data-widget=\"{kind}\">{}</div>",
                snapshot::embed(lang, kind)
            );
        }
    }
    page
}

/// A page whose content is a component (the estimator, the planner, a tool, the lab), drawn
/// in its default state.
fn app(page: &mut Page) {
    let lang = page.lang;
    let (kind, title, description) = match page.route {
        Route::Estimate(_) => ("estimate", lang.est().title, lang.est().intro),
        Route::Plan(_) => ("plan", lang.plan().title, lang.plan().blurb),
        Route::Lab(_) => ("lab", lang.lab().nav, lang.lab().intro),
        Route::Tool(_, t) => ("tool", lang.tools().name(t), lang.tools().blurb(t)),
        Route::Classroom(_, c) => {
            let w = lang.class();
            match c {
                Class::Make => ("classroom", w.make_title, w.make_lead),
                Class::Do => ("classroom", w.do_title, w.do_lead),
                Class::Grade => ("classroom", w.grade_title, w.grade_lead),
                Class::Print => ("classroom", w.print_title, w.print_lead),
            }
        }
        _ => ("home", "", ""),
    };
    page.kind = kind;
    page.title = title.to_string();
    page.description = description.to_string();
    let name = crate::ui::pages::app_name(&page.route).unwrap_or_default();
    page.main = format!(
        "<div class=\"app-page\" data-mount=\"page\" data-app=\"{name}\">{}</div>",
        snapshot::app_page(&page.route).unwrap_or_default()
    );
}

/// The root: both languages' names and links (the redirect script sends a reader with scripts
/// on to their language before this is drawn).
fn root(page: &mut Page) {
    page.kind = "root";
    page.chrome = false;
    page.app = false;
    page.description = Lang::ALL.map(|l| l.strings().tagline).join(" / ");
    let mut main = String::from("<article class=\"root\" data-page=\"root\">");
    for lang in Lang::ALL {
        let s = lang.strings();
        main.push_str(&format!(
            "<section lang=\"{}\"><h1>{}</h1><p class=\"tagline\">{}</p><p><a class=\"button cta\" href=\"{}\" hreflang=\"{}\">{}</a></p></section>",
            lang.html_lang(),
            esc(s.site_title),
            esc(s.tagline),
            Route::Home(lang).to_hash(),
            lang.html_lang(),
            esc(lang.course().choose_language),
        ));
    }
    main.push_str("</article>");
    page.main = main;
}

/// `404.html`: in both languages, with a link to each home (a server serves it for any path,
/// at any depth: its links are written from the root, as the server's root).
fn not_found(page: &mut Page) {
    page.kind = "not-found";
    page.app = false;
    page.title = Lang::ALL.map(|l| l.strings().not_found_title).join(" · ");
    page.description = Lang::ALL.map(|l| l.strings().not_found_body).join(" ");
    let mut main = String::from("<article class=\"not-found\" data-page=\"not-found\">");
    for lang in Lang::ALL {
        let s = lang.strings();
        main.push_str(&format!(
            "<section lang=\"{}\"><h1>{}</h1><p>{}</p><p><a class=\"button\" href=\"{}\">{}</a></p></section>",
            lang.html_lang(),
            esc(s.not_found_title),
            esc(s.not_found_body),
            Route::Home(lang).to_hash(),
            esc(s.back_home)
        ));
    }
    main.push_str("</article>");
    page.main = main;
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn both_languages_have_the_same_pages() {
        let routes = all_routes();
        let zh = routes.iter().filter(|r| r.lang() == Some(Lang::Zh)).count();
        let en = routes.iter().filter(|r| r.lang() == Some(Lang::En)).count();
        assert_eq!(zh, en);
        assert_eq!(routes.len(), 2 + 2 * zh);
        let mut paths: Vec<String> = routes.iter().map(Route::path).collect();
        paths.sort();
        paths.dedup();
        assert_eq!(paths.len(), routes.len(), "every page has its own file");
    }

    #[test]
    fn the_tools_bundle_draws_every_chart_and_figure_its_pages_hold() {
        let (mut seen, mut figures) = (0, 0);
        for route in all_routes() {
            let p = page(&route);
            if p.bundle != "tools" {
                continue;
            }
            for name in p.main.split(" data-figure=\"").skip(1).filter_map(|s| s.split('"').next()) {
                figures += 1;
                assert!(
                    content::TOOLS_BUNDLE_FIGURES.contains(&name),
                    "{}: the {name} figure is not in the tools' bundle",
                    route.path()
                );
            }
            for kind in p.main.split(" data-widget=\"").skip(1).filter_map(|s| s.split(['"', ':']).next()) {
                if content::ESTIMATOR_WIDGETS.contains(&kind) {
                    seen += 1;
                    assert!(
                        content::TOOLS_BUNDLE_CHARTS.contains(&kind),
                        "{}: the {kind} chart is not in the tools' bundle",
                        route.path()
                    );
                }
            }
        }
        assert!(seen > 0 && figures > 0, "the MIG chapter's memory chart and figure");
    }

    #[test]
    fn pages_load_the_bundle_their_parts_are_in() {
        assert_eq!(page(&Route::Estimate(Lang::En)).bundle, "estimator");
        assert_eq!(page(&Route::Plan(Lang::Zh)).bundle, "planner");
        assert_eq!(page(&Route::Tool(Lang::Zh, Tool::Mig)).bundle, "tools");
        assert_eq!(page(&Route::Chapter(Lang::En, "mig")).bundle, "tools", "it has the MIG planner");
        assert_eq!(page(&Route::Chapter(Lang::En, "cuda")).bundle, "course");
        assert_eq!(page(&Route::Embed(Lang::En, "cloud")).bundle, "tools");
        assert_eq!(page(&Route::Embed(Lang::En, "memory")).bundle, "course");
        assert_eq!(page(&Route::Glossary(Lang::En)).bundle, "course");
        assert_eq!(page(&Route::Print(Lang::En)).bundle, "none", "its script runs on a page load");
        assert_eq!(page(&Route::Embeds(Lang::Zh)).bundle, "none");
    }
}
