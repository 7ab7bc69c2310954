//! The site's pages and the links between them.
//!
//! Every page is a file written at build time (`src/site/`): `{lang}/index.html`,
//! `{lang}/chapters/{slug}/index.html` and so on, [`Route::path`] relative to the site root. An
//! in-site link is written, wherever it is built, in one hash form, `#/` + path + `?query` +
//! `#fragment` (for example `#/en/chapters/cuda/#s-2`); the prerenderer turns it into a
//! relative URL for the page it sits in, the app resolves it against the site root, and the
//! offline file (one HTML file) navigates by it as it is. [`Target::from_hash`] also reads the
//! addresses of the hash-routed site before it (`#/en/chapters/cuda?s=s-2`), so old links land.
//!
//! | path                              | page                               |
//! |-----------------------------------|------------------------------------|
//! | (root)                            | picks the reader's language        |
//! | `{lang}/`                         | home                               |
//! | `{lang}/chapters/{slug}/`         | a chapter (`#s-3`: a section)      |
//! | `{lang}/chapters/{slug}/worksheet/`, `…/answers/` | its exercises to print |
//! | `{lang}/print/`                   | the whole course on one page       |
//! | `{lang}/estimate/?…`              | the estimator (state in `?…`)      |
//! | `{lang}/plan/?…`                  | the capacity planner               |
//! | `{lang}/validation/`              | engine vs published figures        |
//! | `{lang}/glossary/` (`#term-id`)   | the glossary                       |
//! | `{lang}/embed/`                   | every embeddable widget, its code  |
//! | `{lang}/embed/{kind}/?…`          | one widget alone, to embed         |
//! | `{lang}/lab/bandwidth/?…`         | the WebGPU lab                     |
//! | `{lang}/tools/`, `{lang}/tools/{tool}/?…` | the decision tools         |
//! | `{lang}/classroom/?…`             | make an assignment (teachers)      |
//! | `{lang}/classroom/do/?a=…`        | a student's own variant, hand-in   |
//! | `{lang}/classroom/grade/?a=…`     | the teacher's gradebook            |
//! | `{lang}/classroom/print/?a=…`     | worksheets and the class key       |
//! | anything else                     | not found (`404.html`)             |

use crate::content;
use crate::lang::Lang;

/// Every widget kind a chapter may place (`{{widget:KIND}}`) and an embed route may show: the
/// one list in `content/render.rs`, which the build checks every placed widget against.
pub use crate::content::WIDGETS as WIDGET_KINDS;

/// A decision tool: a page at `#/{lang}/tools/{slug}` whose state is the query, and a chapter
/// widget of the same name (`{{widget:SLUG}}` / `{{widget:SLUG:PRESET}}`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Tool {
    /// Places MIG instances on GPUs by the MIG user guide's rules, or packs workloads.
    Mig,
    /// Ranks cloud instances for a workload by cost, with the ones that do not fit greyed.
    Cloud,
    /// From what the reader observes to the likely bottleneck.
    Diagnose,
    /// What a shared GPU pool costs per month, idle time and reclaim included.
    Cluster,
    /// Which models run on the reader's own GPU or Mac, in which llama.cpp file types, and how
    /// fast.
    Local,
}

impl Tool {
    /// In the order the index and the home page list them.
    pub const ALL: [Tool; 5] = [Tool::Local, Tool::Mig, Tool::Cloud, Tool::Diagnose, Tool::Cluster];

    /// The tool's path segment, which is also its widget kind.
    pub fn slug(self) -> &'static str {
        match self {
            Tool::Mig => "mig",
            Tool::Cloud => "cloud",
            Tool::Diagnose => "diagnose",
            Tool::Cluster => "cluster",
            Tool::Local => "local",
        }
    }

    /// The chapter that teaches what the tool computes (its widget sits there).
    pub fn chapter_slug(self) -> &'static str {
        match self {
            Tool::Mig => "mig",
            Tool::Cloud => "cloud-gpus",
            Tool::Diagnose => "bottlenecks",
            Tool::Cluster => "sharing-gpus",
            Tool::Local => "memory-capacity",
        }
    }

    pub fn from_slug(slug: &str) -> Option<Tool> {
        Tool::ALL.into_iter().find(|t| t.slug() == slug)
    }
}

/// A page of the classroom: a teacher makes an assignment, students do it, the teacher grades
/// and prints. Every one keeps the assignment in its query (`a=TOKEN`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Class {
    /// Make an assignment: pick exercises, class code, roster; links and exports.
    Make,
    /// A student's page: their own numbers, checks, the hand-in code.
    Do,
    /// The gradebook of pasted hand-in codes.
    Grade,
    /// Per-student worksheets and the class answer key, to print.
    Print,
}

impl Class {
    pub const ALL: [Class; 4] = [Class::Make, Class::Do, Class::Grade, Class::Print];

    /// The path segment after `classroom/` (none for [`Class::Make`]).
    pub fn slug(self) -> &'static str {
        match self {
            Class::Make => "",
            Class::Do => "do",
            Class::Grade => "grade",
            Class::Print => "print",
        }
    }

    /// The page's `data-app` name.
    pub fn app(self) -> &'static str {
        match self {
            Class::Make => "classroom",
            Class::Do => "classroom:do",
            Class::Grade => "classroom:grade",
            Class::Print => "classroom:print",
        }
    }

    pub fn from_app(app: &str) -> Option<Class> {
        Class::ALL.into_iter().find(|c| c.app() == app)
    }
}

/// A chapter's exercises on their own, to print.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Sheet {
    /// The questions with room for answers.
    Worksheet,
    /// The answer key: every key and worked solution.
    Answers,
}

impl Sheet {
    pub fn slug(self) -> &'static str {
        match self {
            Sheet::Worksheet => "worksheet",
            Sheet::Answers => "answers",
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Route {
    /// The site root: sends the reader to the home page of their language.
    Root,
    Home(Lang),
    Chapter(Lang, &'static str),
    /// A chapter's worksheet or answer key.
    Sheet(Lang, &'static str, Sheet),
    /// The whole course on one page, for a printer or a PDF.
    Print(Lang),
    /// The estimator; its state is the query (see `estimator::state`).
    Estimate(Lang),
    /// The engine checked against published measurements.
    Validation(Lang),
    /// The glossary; `#term-id` is one entry.
    Glossary(Lang),
    /// Every widget that can be embedded, its parameters and its embed code.
    Embeds(Lang),
    /// One widget of [`WIDGET_KINDS`] without the site's frame; its state is the query.
    Embed(Lang, &'static str),
    /// The WebGPU lab: bandwidth and FLOP/s measured on the reader's GPU.
    Lab(Lang),
    /// The list of decision tools.
    Tools(Lang),
    /// One decision tool; its state is the query.
    Tool(Lang, Tool),
    /// The capacity planner; its state is the query.
    Plan(Lang),
    /// A classroom page; its state (the assignment) is the query.
    Classroom(Lang, Class),
    /// The language is the one named in the address when it was valid.
    NotFound(Option<Lang>),
}

impl Route {
    /// Parses a page's path (`en/chapters/cuda/`, with or without the slashes, with or without
    /// a leading `#`; anything after `?` or a second `#` is ignored). Total: every string is a
    /// route.
    pub fn parse(hash: &str) -> Route {
        let hash = hash.strip_prefix('#').unwrap_or(hash);
        let path = hash.split(['?', '#']).next().unwrap_or("");
        let parts: Vec<&str> = path.split('/').filter(|p| !p.is_empty()).collect();
        let Some((first, rest)) = parts.split_first() else {
            return Route::Root;
        };
        let Some(lang) = Lang::from_code(first) else {
            return Route::NotFound(None);
        };
        match rest {
            [] | ["index.html"] => Route::Home(lang),
            ["estimate"] => Route::Estimate(lang),
            ["validation"] => Route::Validation(lang),
            ["glossary"] => Route::Glossary(lang),
            ["print"] => Route::Print(lang),
            ["embed"] => Route::Embeds(lang),
            ["lab", "bandwidth"] => Route::Lab(lang),
            ["tools"] => Route::Tools(lang),
            ["plan"] => Route::Plan(lang),
            ["classroom"] => Route::Classroom(lang, Class::Make),
            ["classroom", "do"] => Route::Classroom(lang, Class::Do),
            ["classroom", "grade"] => Route::Classroom(lang, Class::Grade),
            ["classroom", "print"] => Route::Classroom(lang, Class::Print),
            ["tools", slug] => match Tool::from_slug(slug) {
                Some(t) => Route::Tool(lang, t),
                None => Route::NotFound(Some(lang)),
            },
            ["embed", kind] => match WIDGET_KINDS.iter().find(|k| *k == kind) {
                Some(k) => Route::Embed(lang, k),
                None => Route::NotFound(Some(lang)),
            },
            ["chapters", slug] => match content::slug(slug) {
                Some(slug) => Route::Chapter(lang, slug),
                None => Route::NotFound(Some(lang)),
            },
            ["chapters", slug, sheet] => match (content::slug(slug), *sheet) {
                (Some(slug), "worksheet") => Route::Sheet(lang, slug, Sheet::Worksheet),
                (Some(slug), "answers") => Route::Sheet(lang, slug, Sheet::Answers),
                _ => Route::NotFound(Some(lang)),
            },
            _ => Route::NotFound(Some(lang)),
        }
    }

    /// The language of the page, if the route names one.
    pub fn lang(&self) -> Option<Lang> {
        match self {
            Route::Root => None,
            Route::Home(l)
            | Route::Chapter(l, _)
            | Route::Sheet(l, ..)
            | Route::Print(l)
            | Route::Estimate(l)
            | Route::Validation(l)
            | Route::Glossary(l)
            | Route::Lab(l)
            | Route::Tools(l)
            | Route::Tool(l, _)
            | Route::Plan(l)
            | Route::Classroom(l, _)
            | Route::Embeds(l)
            | Route::Embed(l, _) => Some(*l),
            Route::NotFound(l) => *l,
        }
    }

    /// The same page in another language. Not-found pages map to the other language's home.
    pub fn in_lang(&self, lang: Lang) -> Route {
        match self {
            Route::Root | Route::Home(_) | Route::NotFound(_) => Route::Home(lang),
            Route::Chapter(_, slug) => Route::Chapter(lang, slug),
            Route::Sheet(_, slug, sheet) => Route::Sheet(lang, slug, *sheet),
            Route::Print(_) => Route::Print(lang),
            Route::Estimate(_) => Route::Estimate(lang),
            Route::Validation(_) => Route::Validation(lang),
            Route::Glossary(_) => Route::Glossary(lang),
            Route::Lab(_) => Route::Lab(lang),
            Route::Tools(_) => Route::Tools(lang),
            Route::Tool(_, t) => Route::Tool(lang, *t),
            Route::Plan(_) => Route::Plan(lang),
            Route::Classroom(_, c) => Route::Classroom(lang, *c),
            Route::Embeds(_) => Route::Embeds(lang),
            Route::Embed(_, kind) => Route::Embed(lang, kind),
        }
    }

    /// The page's directory relative to the site root, ending in `/` (its file is
    /// `index.html` there); the root is the empty path and not-found pages are `404.html`.
    pub fn path(&self) -> String {
        match self {
            Route::Root => String::new(),
            Route::Home(l) => format!("{}/", l.code()),
            Route::Chapter(l, slug) => format!("{}/chapters/{slug}/", l.code()),
            Route::Sheet(l, slug, sheet) => format!("{}/chapters/{slug}/{}/", l.code(), sheet.slug()),
            Route::Print(l) => format!("{}/print/", l.code()),
            Route::Estimate(l) => format!("{}/estimate/", l.code()),
            Route::Validation(l) => format!("{}/validation/", l.code()),
            Route::Glossary(l) => format!("{}/glossary/", l.code()),
            Route::Lab(l) => format!("{}/lab/bandwidth/", l.code()),
            Route::Tools(l) => format!("{}/tools/", l.code()),
            Route::Tool(l, t) => format!("{}/tools/{}/", l.code(), t.slug()),
            Route::Plan(l) => format!("{}/plan/", l.code()),
            Route::Classroom(l, Class::Make) => format!("{}/classroom/", l.code()),
            Route::Classroom(l, c) => format!("{}/classroom/{}/", l.code(), c.slug()),
            Route::Embeds(l) => format!("{}/embed/", l.code()),
            Route::Embed(l, kind) => format!("{}/embed/{kind}/", l.code()),
            Route::NotFound(_) => "404.html".to_string(),
        }
    }

    /// The link to this page in the site's hash form (`#/en/estimate/`): see the module doc.
    pub fn to_hash(&self) -> String {
        format!("#/{}", self.path())
    }

    /// Whether the page keeps a state of its own in the query (the estimator's scenario, a
    /// tool's inputs), which a link to the same page in the other language carries along.
    pub fn has_state(&self) -> bool {
        matches!(
            self,
            Route::Estimate(_)
                | Route::Embed(..)
                | Route::Tool(..)
                | Route::Plan(_)
                | Route::Lab(_)
                | Route::Classroom(..)
        )
    }
}

/// Where an in-site link leads: a page, the page's state (the query, without `?`) and a place
/// in it (the fragment, without `#`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Target {
    pub route: Route,
    pub query: String,
    pub fragment: String,
}

impl Target {
    pub fn new(route: Route) -> Target {
        Target { route, query: String::new(), fragment: String::new() }
    }

    /// Reads a link in the site's hash form (`#/en/chapters/cuda/?a=1#s-2`) or in the form of
    /// the hash-routed site before it, whose page state was all in the query: a chapter's
    /// `?s=s-3` becomes the fragment `s-3`, `?exercise=ID` the exercise's card `exercise-ID`,
    /// `?print=worksheet|answers` the chapter's sheet page, the glossary's `?term=id` the
    /// fragment `term-id`. Pages without a state of their own drop any other query.
    pub fn from_hash(hash: &str) -> Target {
        let hash = hash.strip_prefix('#').unwrap_or(hash);
        let (before, fragment) = hash.split_once('#').unwrap_or((hash, ""));
        let query = before.split_once('?').map_or("", |(_, q)| q);
        let mut target =
            Target { route: Route::parse(before), query: String::new(), fragment: fragment.to_string() };
        let old = |key: &str| {
            query.split('&').find_map(|pair| match pair.split_once('=') {
                Some((k, v)) if k == key && is_slug(v) => Some(v.to_string()),
                _ => None,
            })
        };
        match target.route {
            Route::Chapter(lang, slug) => match old("print").as_deref() {
                Some("worksheet") => target.route = Route::Sheet(lang, slug, Sheet::Worksheet),
                Some("answers") => target.route = Route::Sheet(lang, slug, Sheet::Answers),
                _ => {
                    if let Some(section) = old("s") {
                        target.fragment = section;
                    } else if let Some(id) = old("exercise") {
                        target.fragment = format!("exercise-{id}");
                    }
                }
            },
            Route::Glossary(_) => {
                if let Some(term) = old("term") {
                    target.fragment = format!("term-{term}");
                }
            }
            ref r if r.has_state() => target.query = query.to_string(),
            _ => {}
        }
        target
    }

    /// The URL relative to the site root: path, then `?query` and `#fragment` where not empty.
    pub fn site_url(&self) -> String {
        let mut out = self.route.path();
        if !self.query.is_empty() {
            out.push('?');
            out.push_str(&self.query);
        }
        if !self.fragment.is_empty() {
            out.push('#');
            out.push_str(&self.fragment);
        }
        out
    }

    /// The same target in the site's hash form.
    pub fn to_hash(&self) -> String {
        format!("#/{}", self.site_url())
    }
}

/// Letters, digits and `-`: the ids a fragment may carry from an old link.
fn is_slug(v: &str) -> bool {
    !v.is_empty() && v.chars().all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-')
}

/// The relative URL from the page at site path `from` (a directory such as
/// `en/chapters/cuda/`, or a file such as `404.html`) to the site root: `../../../`, or `./`
/// from the root itself.
pub fn path_to_root(from: &str) -> String {
    let depth = from.matches('/').count();
    if depth == 0 {
        "./".to_string()
    } else {
        "../".repeat(depth)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn first_slug() -> &'static str {
        content::slugs()[0]
    }

    #[test]
    fn root_forms() {
        for h in ["", "#", "#/", "/", "#//"] {
            assert_eq!(Route::parse(h), Route::Root, "{h:?}");
        }
    }

    #[test]
    fn homes() {
        assert_eq!(Route::parse("#/zh/"), Route::Home(Lang::Zh));
        assert_eq!(Route::parse("#/en"), Route::Home(Lang::En));
        assert_eq!(Route::parse("#/en/?x=1"), Route::Home(Lang::En));
        assert_eq!(Route::parse("en/index.html"), Route::Home(Lang::En));
    }

    #[test]
    fn chapters_and_unknowns() {
        let first = first_slug();
        assert_eq!(Route::parse(&format!("#/en/chapters/{first}")), Route::Chapter(Lang::En, first));
        assert_eq!(Route::parse(&format!("zh/chapters/{first}/")), Route::Chapter(Lang::Zh, first));
        assert_eq!(Route::parse("#/en/chapters/no-such-chapter"), Route::NotFound(Some(Lang::En)));
        assert_eq!(Route::parse("#/en/chapters"), Route::NotFound(Some(Lang::En)));
        assert_eq!(Route::parse("#/fr/"), Route::NotFound(None));
        assert_eq!(Route::parse("#/zh/nonsense/deep/path"), Route::NotFound(Some(Lang::Zh)));
        assert_eq!(Route::parse("#%%%\u{0}"), Route::NotFound(None));
        assert_eq!(Route::parse("404.html"), Route::NotFound(None));
        assert_eq!(
            Route::parse(&format!("en/chapters/{first}/answers/")),
            Route::Sheet(Lang::En, first, Sheet::Answers)
        );
        assert_eq!(Route::parse(&format!("en/chapters/{first}/nope/")), Route::NotFound(Some(Lang::En)));
    }

    #[test]
    fn language_switch_keeps_the_page() {
        let first = first_slug();
        assert_eq!(Route::Chapter(Lang::Zh, first).in_lang(Lang::En), Route::Chapter(Lang::En, first));
        assert_eq!(Route::Home(Lang::En).in_lang(Lang::Zh), Route::Home(Lang::Zh));
        assert_eq!(Route::NotFound(None).in_lang(Lang::Zh), Route::Home(Lang::Zh));
    }

    #[test]
    fn paths_are_directories_and_parse_back() {
        let mut routes = vec![Route::Root, Route::NotFound(None)];
        for lang in Lang::ALL {
            for slug in content::slugs() {
                routes.push(Route::Chapter(lang, slug));
                routes.push(Route::Sheet(lang, slug, Sheet::Worksheet));
                routes.push(Route::Sheet(lang, slug, Sheet::Answers));
            }
            routes.extend([
                Route::Home(lang),
                Route::Print(lang),
                Route::Estimate(lang),
                Route::Validation(lang),
                Route::Glossary(lang),
                Route::Lab(lang),
                Route::Tools(lang),
                Route::Plan(lang),
                Route::Embeds(lang),
            ]);
            routes.extend(Tool::ALL.map(|t| Route::Tool(lang, t)));
            routes.extend(Class::ALL.map(|c| Route::Classroom(lang, c)));
            routes.extend(WIDGET_KINDS.iter().map(|k| Route::Embed(lang, k)));
        }
        for r in routes {
            let path = r.path();
            assert!(path.is_empty() || path.ends_with('/') || path == "404.html", "{path}");
            assert_eq!(Route::parse(&path), r, "{path}");
            assert_eq!(Route::parse(&r.to_hash()), r);
        }
    }

    #[test]
    fn old_links_land_with_their_state() {
        let first = first_slug();
        let t = |h: &str| Target::from_hash(h).site_url();
        assert_eq!(t("#/en/estimate?v=1&s=abc"), "en/estimate/?v=1&s=abc");
        assert_eq!(t("#/zh/estimate"), "zh/estimate/");
        assert_eq!(t(&format!("#/en/chapters/{first}?s=s-3")), format!("en/chapters/{first}/#s-3"));
        assert_eq!(
            t(&format!("#/en/chapters/{first}?exercise=x-1")),
            format!("en/chapters/{first}/#exercise-x-1")
        );
        assert_eq!(
            t(&format!("#/zh/chapters/{first}?print=worksheet")),
            format!("zh/chapters/{first}/worksheet/")
        );
        assert_eq!(
            t(&format!("#/zh/chapters/{first}?print=answers")),
            format!("zh/chapters/{first}/answers/")
        );
        assert_eq!(t("#/zh/glossary?term=kv-cache"), "zh/glossary/#term-kv-cache");
        assert_eq!(t("#/zh/glossary?term=<b>"), "zh/glossary/");
        assert_eq!(t("#/en/embed/cuda-grid?n=1000&t=128"), "en/embed/cuda-grid/?n=1000&t=128");
        assert_eq!(t("#/en/tools/mig?a=1"), "en/tools/mig/?a=1");
        assert_eq!(t("#/en/lab/bandwidth?cap=16"), "en/lab/bandwidth/?cap=16");
        assert_eq!(t("#/en/validation?x=1"), "en/validation/");
        assert_eq!(t("#/en/no-such"), "404.html");
        assert_eq!(t(""), "");
    }

    #[test]
    fn new_links_keep_their_query_and_fragment() {
        let first = first_slug();
        let hash = format!("#/en/chapters/{first}/#s-2");
        assert_eq!(Target::from_hash(&hash).to_hash(), hash);
        assert_eq!(Target::from_hash("#/en/estimate/?v=1&s=x").site_url(), "en/estimate/?v=1&s=x");
        assert_eq!(Target::from_hash("#/en/glossary/#term-hbm").site_url(), "en/glossary/#term-hbm");
    }

    #[test]
    fn the_root_is_as_deep_as_the_path() {
        assert_eq!(path_to_root(""), "./");
        assert_eq!(path_to_root("404.html"), "./");
        assert_eq!(path_to_root("en/"), "../");
        assert_eq!(path_to_root("en/chapters/cuda/"), "../../../");
    }

    #[test]
    fn tools_are_widgets_and_have_chapters() {
        for t in Tool::ALL {
            assert_eq!(Tool::from_slug(t.slug()), Some(t));
            assert!(content::slug(t.chapter_slug()).is_some(), "{t:?}");
            assert!(WIDGET_KINDS.contains(&t.slug()), "{t:?} is a widget kind too");
        }
    }
}
