//! The search index file of each language (`{lang}/search-index.json`), written at build time
//! from the chapters, the glossary and the tools; `content::search` reads and matches it in the
//! page. The section text is taken from the rendered chapters, split at their headings.

use crate::content::search::{Entry, HitKind, Index};
use crate::content::{self, Segment};
use crate::i18n::Lang;
use crate::route::Route;

/// The index of `lang`: the estimator, the capacity planner, the decision tools, the lab, the
/// validation page, the glossary, each chapter, its sections and the glossary's terms, in
/// reading order.
pub fn index(lang: Lang) -> Index {
    let mut entries: Vec<Entry> = pages()
        .into_iter()
        .map(|page| {
            let o = lang.other();
            // Found by its name in the other language too, and by either language's words for it.
            let keys = [page.keys(lang), page.name(o), page.keys(o)].join("|");
            Entry::new(
                HitKind::Tool,
                page.name(lang),
                "",
                page.about(lang).to_string(),
                page.route(lang).to_hash(),
            )
            .with_keys(&keys)
        })
        .collect();
    for chapter in content::chapters() {
        let page = chapter.page(lang);
        let html: String = page
            .segments
            .iter()
            .filter_map(|s| match s {
                Segment::Html(h) => Some(content::numbers::prose(h)),
                Segment::Widget(_) | Segment::Exercise(_) | Segment::Figure(_) => None,
            })
            .collect();
        let sections = sections(&html);
        let intro = sections.iter().find(|(id, _)| id.is_empty()).map(|(_, t)| t.clone()).unwrap_or_default();
        entries.push(Entry::new(
            HitKind::Chapter,
            page.title,
            "",
            intro,
            Route::Chapter(lang, chapter.slug).to_hash(),
        ));
        for (i, (_, heading)) in page.headings.iter().enumerate() {
            let id = content::section_id(i + 1);
            let text = sections.iter().find(|(s, _)| *s == id).map(|(_, t)| t.clone()).unwrap_or_default();
            let body = text.strip_prefix(heading).map(str::trim_start).unwrap_or(&text).to_string();
            entries.push(Entry::new(
                HitKind::Section,
                heading,
                page.title,
                body,
                format!("{}#{id}", Route::Chapter(lang, chapter.slug).to_hash()),
            ));
        }
    }
    for term in content::glossary::terms() {
        let (here, other) = (term.text(lang), term.text(lang.other()));
        entries.push(Entry::new(
            HitKind::Term,
            here.term,
            other.term,
            here.definition.to_string(),
            format!("{}#term-{}", Route::Glossary(lang).to_hash(), term.id),
        ));
    }
    Index::new(entries)
}

/// The pages the search lists as tools, in the order it lists them.
#[derive(Clone, Copy, Debug)]
enum Page {
    Estimator,
    Plan,
    Tool(crate::route::Tool),
    Lab,
    Validation,
    Glossary,
}

fn pages() -> Vec<Page> {
    let mut out = vec![Page::Estimator, Page::Plan];
    out.extend(crate::route::Tool::ALL.into_iter().map(Page::Tool));
    out.extend([Page::Lab, Page::Validation, Page::Glossary]);
    out
}

impl Page {
    fn name(self, lang: Lang) -> &'static str {
        match self {
            Page::Estimator => lang.est().title,
            Page::Plan => lang.plan().title,
            Page::Tool(kind) => lang.tools().name(kind),
            Page::Lab => lang.lab().nav,
            Page::Validation => lang.strings().validation.title,
            Page::Glossary => lang.course().glossary_title,
        }
    }

    fn about(self, lang: Lang) -> &'static str {
        match self {
            Page::Estimator => lang.course().estimator_about,
            Page::Plan => lang.plan().blurb,
            Page::Tool(kind) => lang.tools().blurb(kind),
            Page::Lab => lang.lab().intro,
            Page::Validation => lang.course().validation_about,
            Page::Glossary => lang.course().glossary_intro,
        }
    }

    fn keys(self, lang: Lang) -> &'static str {
        let k = lang.search_keys();
        match self {
            Page::Estimator => k.estimator,
            Page::Plan => k.plan,
            Page::Tool(kind) => k.tool(kind),
            Page::Lab => k.lab,
            Page::Validation => k.validation,
            Page::Glossary => k.glossary,
        }
    }

    fn route(self, lang: Lang) -> Route {
        match self {
            Page::Estimator => Route::Estimate(lang),
            Page::Plan => Route::Plan(lang),
            Page::Tool(kind) => Route::Tool(lang, kind),
            Page::Lab => Route::Lab(lang),
            Page::Validation => Route::Validation(lang),
            Page::Glossary => Route::Glossary(lang),
        }
    }
}

/// Splits rendered chapter HTML into (section id, plain text) at headings with an `id`; the
/// text before the first heading has the empty id.
fn sections(html: &str) -> Vec<(String, String)> {
    let mut out = vec![(String::new(), String::new())];
    let mut rest = html;
    while let Some(open) = rest.find('<') {
        push_text(&mut out, rest.get(..open).unwrap_or(""));
        let Some(close) = rest.get(open..).and_then(|r| r.find('>')) else { break };
        let tag = rest.get(open + 1..open + close).unwrap_or("");
        let is_heading =
            tag.len() > 2 && tag.starts_with('h') && tag.as_bytes().get(1).is_some_and(u8::is_ascii_digit);
        if let Some(id) = tag.split("id=\"").nth(1).and_then(|r| r.split('"').next()).filter(|_| is_heading) {
            out.push((id.to_string(), String::new()));
        } else if is_block(tag) {
            push_text(&mut out, " ");
        }
        rest = rest.get(open + close + 1..).unwrap_or("");
    }
    push_text(&mut out, rest);
    for (_, text) in &mut out {
        *text = text.split_whitespace().collect::<Vec<_>>().join(" ");
    }
    out
}

/// Whether a tag (`p`, `/li`, `td class=…`) separates words; inline tags such as `em` do not.
fn is_block(tag: &str) -> bool {
    let name: String = tag.trim_start_matches('/').chars().take_while(char::is_ascii_alphanumeric).collect();
    matches!(
        name.as_str(),
        "p" | "br"
            | "li"
            | "ul"
            | "ol"
            | "td"
            | "th"
            | "tr"
            | "table"
            | "div"
            | "pre"
            | "blockquote"
            | "details"
            | "summary"
            | "h1"
            | "h2"
            | "h3"
            | "h4"
            | "h5"
            | "h6"
            | "hr"
    )
}

fn push_text(out: &mut [(String, String)], raw: &str) {
    if let Some((_, text)) = out.last_mut() {
        text.push_str(
            &raw.replace("&lt;", "<")
                .replace("&gt;", ">")
                .replace("&quot;", "\"")
                .replace("&#39;", "'")
                .replace("&amp;", "&"),
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::OnceLock;

    /// Each language's index, built once for all the tests here (building one renders every
    /// chapter: seconds in a debug build).
    fn built(lang: Lang) -> &'static Index {
        static ZH: OnceLock<Index> = OnceLock::new();
        static EN: OnceLock<Index> = OnceLock::new();
        match lang {
            Lang::Zh => ZH.get_or_init(|| index(Lang::Zh)),
            Lang::En => EN.get_or_init(|| index(Lang::En)),
        }
    }

    /// The index and the query are folded with ASCII lower case (the wasm then carries no
    /// Unicode case table); that is the same as full lower case as long as the indexed text
    /// has no other letter with case, which this checks (µ folds to itself).
    #[test]
    fn ascii_lower_case_is_full_lower_case_for_the_indexed_text() {
        for lang in [Lang::Zh, Lang::En] {
            for text in built(lang).texts() {
                assert_eq!(text.to_lowercase(), text.to_ascii_lowercase(), "{text}");
            }
        }
    }

    #[test]
    fn chinese_is_matched_by_characters() {
        let hits = built(Lang::Zh).search("显存");
        assert!(hits.len() >= 5, "{hits:?}");
        for query in ["KV 缓存", "kv缓存"] {
            let hits = built(Lang::Zh).search(query);
            assert!(
                hits.iter().any(|h| h.kind == HitKind::Term && h.href == "#/zh/glossary/#term-kv-cache"),
                "{query}: {hits:?}"
            );
        }
        // No spaces in the query or the text: still found.
        let hits = built(Lang::Zh).search("算术强度");
        assert!(!hits.is_empty());
        assert!(hits.iter().all(|h| h.href.starts_with("#/zh/")));
    }

    #[test]
    fn english_is_case_insensitive_and_titles_rank_first() {
        let hits = built(Lang::En).search("tensor core");
        assert!(!hits.is_empty());
        let first = &hits[0];
        assert_eq!(first.kind, HitKind::Chapter, "{first:?}");
        assert!(first.title.to_lowercase().contains("tensor core"));
        assert!(hits.iter().any(|h| h.kind == HitKind::Term && h.href == "#/en/glossary/#term-tensor-core"));
        let body = hits.iter().position(|h| h.score == 100);
        let term = hits.iter().position(|h| h.kind == HitKind::Term);
        if let (Some(b), Some(t)) = (body, term) {
            assert!(t < b, "a term outranks body text");
        }
        assert!(hits.windows(2).all(|w| w[0].score >= w[1].score));
    }

    #[test]
    fn all_tokens_are_required_and_snippets_show_the_match() {
        assert!(built(Lang::En).search("nvlink zzzzqqq").is_empty());
        assert!(built(Lang::En).search("   ").is_empty());
        let hits = built(Lang::En).search("ridge point h100");
        assert!(!hits.is_empty());
        let body = hits.iter().find(|h| h.score == 100).expect("a body hit");
        assert!(
            body.snippet.to_lowercase().contains("ridge") || body.snippet.to_lowercase().contains("h100"),
            "{body:?}"
        );
        assert!(body.snippet.chars().count() <= 102);
    }

    #[test]
    fn sections_link_to_their_ids_and_tools_are_found() {
        let hits = built(Lang::En).search("estimator");
        assert!(hits.iter().any(|h| h.kind == HitKind::Tool && h.href == "#/en/estimate/"), "{hits:?}");
        let hits = built(Lang::Zh).search("估算器");
        assert!(hits.iter().any(|h| h.href == "#/zh/estimate/"));
        let c = &content::chapters()[1];
        let heading = c.en.headings[0].1;
        let hits = built(Lang::En).search(heading);
        assert!(hits.iter().any(|h| h.href == format!("#/en/chapters/{}/#s-1", c.slug)), "{hits:?}");
    }

    /// Every tool is found by its name, in either language, from either language's page, and by
    /// the words readers use for it; it comes first.
    #[test]
    fn every_tool_is_found_by_its_name_in_both_languages() {
        for lang in Lang::ALL {
            let index = built(lang);
            for page in pages() {
                let href = page.route(lang).to_hash();
                let keys = [page.keys(Lang::Zh), page.keys(Lang::En)].join("|");
                let names = [page.name(Lang::Zh), page.name(Lang::En)];
                for query in names.into_iter().chain(keys.split('|')) {
                    let hits = index.search(query);
                    assert!(
                        hits.iter().any(|h| h.href == href && h.score >= 350),
                        "{lang:?} page: {query:?} does not find {href}: {hits:?}"
                    );
                }
                let hits = index.search(page.name(lang));
                assert_eq!(hits.first().map(|h| h.href.as_str()), Some(href.as_str()), "{lang:?}: {hits:?}");
            }
            // The names a reader types, as the issue lists them.
            for (query, path) in [
                ("MIG planner", "tools/mig/"),
                ("capacity planner", "plan/"),
                ("cloud selector", "tools/cloud/"),
                ("WebGPU lab", "lab/bandwidth/"),
                ("MIG 规划", "tools/mig/"),
                ("容量规划", "plan/"),
                ("云 GPU 选型", "tools/cloud/"),
                ("WebGPU 实验", "lab/bandwidth/"),
                ("带宽实验", "lab/bandwidth/"),
                ("共享集群", "tools/cluster/"),
            ] {
                let hits = index.search(query);
                let first = hits.first().map(|h| h.href.clone()).unwrap_or_default();
                assert_eq!(first, format!("#/{}/{path}", lang.code()), "{lang:?} {query:?}: {hits:?}");
            }
        }
    }

    #[test]
    fn a_typo_still_finds_the_chapter_and_the_term() {
        for lang in Lang::ALL {
            let hits = built(lang).search("nvlnk");
            assert_eq!(hits.first().map(|h| h.kind), Some(HitKind::Chapter), "{hits:?}");
            assert!(hits.first().is_some_and(|h| h.href.ends_with("/chapters/nvlink/")), "{hits:?}");
            assert!(hits.iter().any(|h| h.kind == HitKind::Term && h.title == "NVLink"), "{hits:?}");
        }
        let hits = built(Lang::En).search("bandwith");
        assert!(hits.first().is_some_and(|h| h.href == "#/en/chapters/memory-bandwidth/"), "{hits:?}");
    }

    /// A term searched by its name outranks every chapter's Exercises, References and
    /// Takeaways headings (which its chapter's title would otherwise bring up first), and every
    /// section heading that merely contains it.
    #[test]
    fn a_glossary_term_outranks_exercise_and_reference_headings() {
        for lang in Lang::ALL {
            let index = built(lang);
            let generic: Vec<&str> = content::chapters()
                .iter()
                .flat_map(|c| c.page(lang).headings.iter().map(|(_, h)| *h))
                .filter(|h| ["Exercises", "References", "Takeaways", "练习", "参考资料", "要点"].contains(h))
                .collect();
            assert_eq!(generic.len(), 45, "{lang:?}: three such headings per chapter");
            let mut checked = 0;
            for term in content::glossary::terms() {
                let name = term.text(lang).term;
                let hits = index.search(name);
                let Some(at) = hits.iter().position(|h| h.kind == HitKind::Term && h.title == name) else {
                    panic!("{lang:?}: the term {name:?} is not found by its name: {hits:?}");
                };
                for above in hits.iter().take(at) {
                    assert!(
                        !(above.kind == HitKind::Section && generic.contains(&above.title.as_str())),
                        "{lang:?} {name:?}: {above:?} ranks above the term"
                    );
                    assert!(
                        matches!(above.kind, HitKind::Chapter | HitKind::Tool | HitKind::Term)
                            || above.title.eq_ignore_ascii_case(name),
                        "{lang:?} {name:?}: the section {above:?} ranks above the term"
                    );
                }
                checked += 1;
            }
            assert!(checked > 80);
        }
    }

    #[test]
    fn html_becomes_sections_of_plain_text() {
        let s = sections(
            "<p>Intro &amp; more</p><h2 id=\"s-1\">One</h2><p>a<em>b</em></p><h3 id=\"s-2\">Two</h3><p>c</p>",
        );
        assert_eq!(
            s,
            vec![
                (String::new(), "Intro & more".to_string()),
                ("s-1".to_string(), "One ab".to_string()),
                ("s-2".to_string(), "Two c".to_string())
            ]
        );
    }
}
