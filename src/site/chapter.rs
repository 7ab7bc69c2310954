//! A chapter's article as its page carries it: the rendered markdown, each widget and figure
//! already drawn in its default state (the app's own components rendered to HTML, so the box
//! has the size and the numbers the live widget mounts with), each exercise card with its key,
//! the progress line, and the previous/next links. Also the chapter's worksheet and answer key.

use crate::content::{self, Chapter, Segment};
use crate::exercises;
use crate::html::escape as esc;
use crate::i18n::Lang;
use crate::route::{Route, Sheet};
use crate::ui::snapshot;

/// The figures whose drawing the reader can step through or change: the app mounts these; the
/// others stay as the page has them.
pub const LIVE_FIGURES: [&str; 2] = ["memory-hierarchy", "ring-allreduce"];

/// The inside of `<main>` for a chapter.
pub fn article(lang: Lang, chapter: &Chapter) -> String {
    let s = lang.strings();
    let page = chapter.page(lang);
    let mut out = format!(
        "<article class=\"chapter\" data-page=\"chapter\" data-slug=\"{}\"><p class=\"eyebrow\">{}</p><h1>{}</h1>",
        chapter.slug,
        esc(&s.chapter_number(chapter.number)),
        esc(page.title)
    );
    out.push_str(&body(lang, chapter, &Route::Chapter(lang, chapter.slug)));
    out.push_str(&pager(lang, chapter.slug));
    out.push_str("</article>");
    out
}

/// The chapter's segments in order (also what the print page strings together).
pub fn body(lang: Lang, chapter: &Chapter, route: &Route) -> String {
    let list = exercises::for_chapter(chapter.slug);
    let mut out = String::new();
    for segment in chapter.page(lang).segments {
        match *segment {
            Segment::Html(html) => {
                out.push_str("<div class=\"prose\">");
                out.push_str(&term_tips(&content::numbers::prose(html), lang, chapter.slug));
                out.push_str("</div>");
            }
            Segment::Widget(name) => out.push_str(&format!(
                "<div class=\"slot\" data-slot=\"widget\" data-mount=\"widget\" data-widget=\"{}\">{}</div>",
                esc(name),
                snapshot::widget(lang, name)
            )),
            Segment::Figure(name) => {
                let mount = if LIVE_FIGURES.contains(&name) { " data-mount=\"figure\"" } else { "" };
                out.push_str(&format!(
                    "<div class=\"slot\" data-slot=\"figure\"{mount} data-figure=\"{}\">{}</div>",
                    esc(name),
                    snapshot::figure(lang, name)
                ));
            }
            Segment::Exercise(id) => {
                let Some(number) = list.iter().position(|e| e.id == id) else { continue };
                let Some(ex) = list.get(number) else { continue };
                out.push_str("<div class=\"slot\" data-slot=\"exercise\">");
                if number == 0 {
                    out.push_str(&exercises::progress_html(lang, route, list.len()));
                }
                let link = format!("{}#exercise-{id}", route.to_hash());
                let estimator = exercises::estimator_href(lang, ex);
                out.push_str(&exercises::card_html(lang, ex, number + 1, &link, estimator.as_deref()));
                out.push_str("</div>");
            }
        }
    }
    out
}

/// Each glossary link of a chapter's prose (the first use of a term, `render.rs`) followed by the
/// term's definition in the page's language, as a tooltip the stylesheet shows while the link is
/// hovered or has keyboard focus (no script: it works with JavaScript off, and the page's CSP has
/// nothing to allow). The link is described by it (`aria-describedby`); the id carries the
/// chapter's slug, so the whole course on one page (print) has each id once.
fn term_tips(html: &str, lang: Lang, slug: &str) -> String {
    let open = format!("<a href=\"#/{}/glossary/#term-", lang.code());
    let mut out = String::with_capacity(html.len() + 2_000);
    let mut rest = html;
    while let Some(at) = rest.find(&open) {
        let after = rest.get(at + open.len()..).unwrap_or("");
        let id = after.split('"').next().unwrap_or("");
        let (Some(term), Some(end)) = (content::glossary::find(id), after.find("</a>")) else {
            out.push_str(rest.get(..at + open.len()).unwrap_or(""));
            rest = after;
            continue;
        };
        let link = rest.get(at..at + open.len() + end + "</a>".len()).unwrap_or("");
        let tip = format!("tip-{slug}-{id}");
        let text = term.text(lang);
        out.push_str(rest.get(..at).unwrap_or(""));
        out.push_str("<span class=\"term\">");
        out.push_str(&link.replacen("\">", &format!("\" aria-describedby=\"{tip}\">"), 1));
        out.push_str(&format!(
            "<span class=\"term-tip\" role=\"tooltip\" id=\"{tip}\"><b>{}</b> {}</span></span>",
            esc(text.term),
            esc(text.definition)
        ));
        rest = after.get(end + "</a>".len()..).unwrap_or("");
    }
    out.push_str(rest);
    out
}

/// A chapter page's description: its title and what the reader will be able to do after it (the
/// goals that open the chapter), in the chapter's language.
pub fn description(lang: Lang, chapter: &Chapter) -> String {
    let page = chapter.page(lang);
    let first = page.segments.iter().find_map(|s| match s {
        Segment::Html(h) => Some(*h),
        _ => None,
    });
    let first = first.map(content::numbers::prose);
    let first = first.as_deref();
    let goals = first.map(goals).unwrap_or_default();
    let (stop, sep) = match lang {
        Lang::Zh => ("。", "；"),
        Lang::En => (". ", "; "),
    };
    let lead = first.and_then(|h| between(h, "<strong>", "</strong>")).map(plain).unwrap_or_default();
    if goals.is_empty() {
        return format!("{}{stop}{}", page.title, page.summary);
    }
    let end = if lang == Lang::Zh { "。" } else { "." };
    let space = if lang == Lang::Zh { "" } else { " " };
    format!("{}{stop}{lead}{space}{}{end}", page.title, goals.join(sep))
}

/// The plain text of each item of the first list in `html`.
fn goals(html: &str) -> Vec<String> {
    let Some(list) = between(html, "<ul>", "</ul>") else { return Vec::new() };
    list.split("<li>").skip(1).map(|item| plain(item.split("</li>").next().unwrap_or(""))).collect()
}

fn between<'a>(html: &'a str, open: &str, close: &str) -> Option<&'a str> {
    let start = html.find(open)? + open.len();
    let len = html.get(start..)?.find(close)?;
    html.get(start..start + len)
}

/// Text without its tags, entities decoded, whitespace collapsed.
fn plain(html: &str) -> String {
    let mut out = String::new();
    let mut in_tag = false;
    for c in html.chars() {
        match c {
            '<' => in_tag = true,
            '>' => in_tag = false,
            c if !in_tag => out.push(c),
            _ => {}
        }
    }
    let text = out
        .replace("&amp;", "&")
        .replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&quot;", "\"")
        .replace("&#39;", "'");
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// The previous and next chapters.
fn pager(lang: Lang, slug: &str) -> String {
    let s = lang.strings();
    let (previous, next) = content::neighbours(slug);
    let link = |c: &Chapter, rel: &str, label: String| {
        format!(
            "<a class=\"{rel}\" rel=\"{rel}\" href=\"{}\"><span class=\"pager-label\">{}</span><span class=\"pager-title\">{}</span></a>",
            Route::Chapter(lang, c.slug).to_hash(),
            esc(&label),
            esc(c.page(lang).title)
        )
    };
    format!(
        "<nav class=\"pager\" aria-label=\"{}\">{}{}</nav>",
        esc(s.pager_aria),
        previous.map(|p| link(p, "prev", format!("← {}", s.previous))).unwrap_or_default(),
        next.map(|n| link(n, "next", format!("{} →", s.next))).unwrap_or_default()
    )
}

/// A chapter's exercises as a worksheet or as its answer key, with a link back and a print
/// button (the app's).
pub fn sheet(lang: Lang, chapter: &Chapter, sheet: Sheet) -> String {
    let x = lang.ex();
    let answers = sheet == Sheet::Answers;
    format!(
        "<article class=\"worksheet\" data-page=\"worksheet\" data-print=\"{}\"><p class=\"worksheet-nav no-print\">\
         <a href=\"{}\">← {}</a><span class=\"needs-js\"> · <button type=\"button\" data-action=\"print\">{}</button></span></p>\
         <h1>{} — {}</h1>{}<ol class=\"worksheet-list\">{}</ol></article>",
        sheet.slug(),
        Route::Chapter(lang, chapter.slug).to_hash(),
        esc(x.back_to_chapter),
        esc(x.print),
        esc(chapter.page(lang).title),
        esc(if answers { x.answer_key } else { x.worksheet }),
        if answers { String::new() } else { format!("<p class=\"worksheet-name\">{}</p>", esc(x.name_line)) },
        exercises::worksheet_items_html(lang, chapter.slug, answers)
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_description_is_the_title_and_the_goals_in_the_pages_language() {
        let cuda = content::find("cuda").unwrap();
        let en = description(Lang::En, cuda);
        assert!(
            en.starts_with(
                "CUDA: the entry point to the GPU software stack. After this chapter you can describe"
            ),
            "{en}"
        );
        assert!(en.contains("; map grids, blocks, threads and warps onto SMs;") && en.ends_with('.'), "{en}");
        let zh = description(Lang::Zh, cuda);
        assert!(zh.starts_with("CUDA：GPU 软件栈的基础入口。读完本章，你能把 CUDA 说成"), "{zh}");
        assert!(zh.ends_with('。') && !zh.contains('<'), "{zh}");
        for c in content::chapters() {
            for lang in Lang::ALL {
                let d = description(lang, c);
                assert!(d.len() > 40 && d.chars().count() < 400, "{lang:?} {}: {d}", c.slug);
            }
        }
    }

    #[test]
    fn every_glossary_link_of_a_chapter_carries_its_definition() {
        let html = "<p>The <a href=\"#/en/glossary/#term-kv-cache\">KV cache</a> and <a href=\"#/en/glossary/#term-nonesuch\">x</a>.</p>";
        let out = term_tips(html, Lang::En, "cuda");
        let kv = content::glossary::find("kv-cache").unwrap();
        assert!(out.starts_with(
            "<p>The <span class=\"term\"><a href=\"#/en/glossary/#term-kv-cache\" aria-describedby=\"tip-cuda-kv-cache\">KV cache</a><span class=\"term-tip\" role=\"tooltip\" id=\"tip-cuda-kv-cache\"><b>KV cache</b> "
        ), "{out}");
        assert!(out.contains(&esc(kv.en.definition)), "{out}");
        assert!(
            out.ends_with("</span></span> and <a href=\"#/en/glossary/#term-nonesuch\">x</a>.</p>"),
            "{out}"
        );
        for c in content::chapters() {
            for lang in Lang::ALL {
                let body = body(lang, c, &Route::Chapter(lang, c.slug));
                let links = body.matches("/glossary/#term-").count();
                let tips = body.matches("role=\"tooltip\"").count();
                assert!(
                    links > 3 && tips == links,
                    "{lang:?} {}: {links} glossary links, {tips} tooltips",
                    c.slug
                );
                let id = body.split("/glossary/#term-").nth(1).and_then(|r| r.split('"').next()).unwrap();
                let def = content::glossary::find(id).unwrap().text(lang).definition;
                assert!(body.contains(&esc(def)), "{lang:?} {}: the first term's definition", c.slug);
            }
        }
    }
}
