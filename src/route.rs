//! Hash routes: the part of the URL after `#`, so the site works on a plain static server,
//! under any sub-path and from `file://` (no server rewrites, no History API).
//!
//! | hash                         | page                         |
//! |------------------------------|------------------------------|
//! | `` / `#` / `#/`              | the reader's language's home |
//! | `#/{lang}/`                  | home                         |
//! | `#/{lang}/chapters/{slug}`   | a chapter                    |
//! | `#/{lang}/estimate?…`        | the estimator (state in `?…`)|
//! | `#/{lang}/validation`        | engine vs published figures  |
//! | `#/{lang}/glossary`          | the glossary (`?term=id`)    |
//! | `#/{lang}/embed/{kind}?…`    | one widget alone, to embed   |
//! | `#/{lang}/lab/bandwidth?…`   | the WebGPU lab               |
//! | `#/{lang}/tools`             | the decision tools' index    |
//! | `#/{lang}/tools/{tool}?…`    | a decision tool (state in `?…`)|
//! | anything else                | not found                    |
//!
//! A `?…` after the path is kept for page state (the estimator's scenario, a chapter's section
//! `?s=s-3`, a glossary term `?term=kv-cache`) and ignored here.

use crate::content;
use crate::i18n::Lang;

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
}

impl Tool {
    /// In the order the index and the home page list them.
    pub const ALL: [Tool; 4] = [Tool::Mig, Tool::Cloud, Tool::Diagnose, Tool::Cluster];

    /// The tool's path segment, which is also its widget kind.
    pub fn slug(self) -> &'static str {
        match self {
            Tool::Mig => "mig",
            Tool::Cloud => "cloud",
            Tool::Diagnose => "diagnose",
            Tool::Cluster => "cluster",
        }
    }

    /// The chapter that teaches what the tool computes (its widget sits there).
    pub fn chapter_slug(self) -> &'static str {
        match self {
            Tool::Mig => "mig",
            Tool::Cloud => "cloud-gpus",
            Tool::Diagnose => "bottlenecks",
            Tool::Cluster => "sharing-gpus",
        }
    }

    pub fn from_slug(slug: &str) -> Option<Tool> {
        Tool::ALL.into_iter().find(|t| t.slug() == slug)
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Route {
    /// No route at all: send the reader to the home page of their language.
    Root,
    Home(Lang),
    Chapter(Lang, &'static str),
    /// The estimator; its state is the query part of the hash (see `estimator::state`).
    Estimate(Lang),
    /// The engine checked against published measurements.
    Validation(Lang),
    /// The glossary; `?term=id` scrolls to a term.
    Glossary(Lang),
    /// One widget of [`WIDGET_KINDS`] without the site's frame; its state is the query.
    Embed(Lang, &'static str),
    /// The WebGPU lab: bandwidth and FLOP/s measured on the reader's GPU.
    Lab(Lang),
    /// The list of decision tools.
    Tools(Lang),
    /// One decision tool; its state is the query.
    Tool(Lang, Tool),
    /// `#/{lang}/plan?state`: the capacity planner.
    Plan(Lang),
    /// The language is the one named in the hash when it was valid.
    NotFound(Option<Lang>),
}

impl Route {
    /// Parses `location.hash` (with or without the leading `#`). Total: every string is a route.
    pub fn parse(hash: &str) -> Route {
        let hash = hash.strip_prefix('#').unwrap_or(hash);
        let path = hash.split('?').next().unwrap_or("");
        let parts: Vec<&str> = path.split('/').filter(|p| !p.is_empty()).collect();
        if parts.is_empty() {
            return Route::Root;
        }
        let Some(lang) = Lang::from_code(parts[0]) else {
            return Route::NotFound(None);
        };
        match parts[1..] {
            [] => Route::Home(lang),
            ["estimate"] => Route::Estimate(lang),
            ["validation"] => Route::Validation(lang),
            ["glossary"] => Route::Glossary(lang),
            ["lab", "bandwidth"] => Route::Lab(lang),
            ["tools"] => Route::Tools(lang),
            ["plan"] => Route::Plan(lang),
            ["tools", slug] => match Tool::from_slug(slug) {
                Some(t) => Route::Tool(lang, t),
                None => Route::NotFound(Some(lang)),
            },
            ["embed", kind] => match WIDGET_KINDS.iter().find(|k| **k == kind) {
                Some(k) => Route::Embed(lang, k),
                None => Route::NotFound(Some(lang)),
            },
            ["chapters", slug] => match content::find(slug) {
                Some(chapter) => Route::Chapter(lang, chapter.slug),
                None => Route::NotFound(Some(lang)),
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
            | Route::Estimate(l)
            | Route::Validation(l)
            | Route::Glossary(l)
            | Route::Lab(l)
            | Route::Tools(l)
            | Route::Tool(l, _)
            | Route::Plan(l)
            | Route::Embed(l, _) => Some(*l),
            Route::NotFound(l) => *l,
        }
    }

    /// The same page in another language. Not-found pages map to the other language's home.
    pub fn in_lang(&self, lang: Lang) -> Route {
        match self {
            Route::Root | Route::Home(_) | Route::NotFound(_) => Route::Home(lang),
            Route::Chapter(_, slug) => Route::Chapter(lang, slug),
            Route::Estimate(_) => Route::Estimate(lang),
            Route::Validation(_) => Route::Validation(lang),
            Route::Glossary(_) => Route::Glossary(lang),
            Route::Lab(_) => Route::Lab(lang),
            Route::Tools(_) => Route::Tools(lang),
            Route::Tool(_, t) => Route::Tool(lang, *t),
            Route::Plan(_) => Route::Plan(lang),
            Route::Embed(_, kind) => Route::Embed(lang, kind),
        }
    }

    /// The hash that leads to this route (with the leading `#`).
    pub fn to_hash(&self) -> String {
        match self {
            Route::Root => "#/".to_string(),
            Route::Home(l) => format!("#/{}/", l.code()),
            Route::Chapter(l, slug) => format!("#/{}/chapters/{}", l.code(), slug),
            Route::Estimate(l) => format!("#/{}/estimate", l.code()),
            Route::Validation(l) => format!("#/{}/validation", l.code()),
            Route::Glossary(l) => format!("#/{}/glossary", l.code()),
            Route::Lab(l) => format!("#/{}/lab/bandwidth", l.code()),
            Route::Tools(l) => format!("#/{}/tools", l.code()),
            Route::Tool(l, t) => format!("#/{}/tools/{}", l.code(), t.slug()),
            Route::Plan(l) => format!("#/{}/plan", l.code()),
            Route::Embed(l, kind) => format!("#/{}/embed/{kind}", l.code()),
            Route::NotFound(Some(l)) => format!("#/{}/not-found", l.code()),
            Route::NotFound(None) => "#/not-found".to_string(),
        }
    }
}

/// The hash of the same page in `lang`, keeping the page's state (the `?…` part: the
/// estimator's scenario, a chapter section or a glossary term, which name the same thing in
/// both languages): the language switch reads the live hash, because the estimator rewrites
/// its query without a route change.
pub fn switch_language(hash: &str, lang: Lang) -> String {
    let route = Route::parse(hash);
    let target = route.in_lang(lang).to_hash();
    match (&route, hash.split_once('?')) {
        // The estimator's state; a chapter's `?s=` section, `?exercise=` / `?print=` (src/ui/exercise.rs);
        // the glossary's `?term=`.
        (
            Route::Estimate(_)
            | Route::Chapter(..)
            | Route::Glossary(_)
            | Route::Embed(..)
            | Route::Tool(..)
            | Route::Plan(_),
            Some((_, query)),
        ) if !query.is_empty() => {
            format!("{target}?{query}")
        }
        _ => target,
    }
}

/// The id of the element a hash points into: `?s=s-3` names a chapter section, `?term=hbm` a
/// glossary entry (`term-hbm`). Only slug characters pass, so the id is safe to look up.
pub fn target_element_id(hash: &str) -> Option<String> {
    let (_, query) = hash.split_once('?')?;
    let slug = |v: &str| {
        !v.is_empty() && v.chars().all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-')
    };
    query.split('&').find_map(|pair| match pair.split_once('=') {
        Some(("s", v)) if slug(v) => Some(v.to_string()),
        Some(("term", v)) if slug(v) => Some(format!("term-{v}")),
        _ => None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

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
    }

    #[test]
    fn chapters_and_unknowns() {
        let first = content::chapters()[0].slug;
        assert_eq!(Route::parse(&format!("#/en/chapters/{first}")), Route::Chapter(Lang::En, first));
        assert_eq!(Route::parse(&format!("#/zh/chapters/{first}/")), Route::Chapter(Lang::Zh, first));
        assert_eq!(Route::parse("#/en/chapters/no-such-chapter"), Route::NotFound(Some(Lang::En)));
        assert_eq!(Route::parse("#/en/chapters"), Route::NotFound(Some(Lang::En)));
        assert_eq!(Route::parse("#/fr/"), Route::NotFound(None));
        assert_eq!(Route::parse("#/zh/nonsense/deep/path"), Route::NotFound(Some(Lang::Zh)));
        assert_eq!(Route::parse("#%%%\u{0}"), Route::NotFound(None));
    }

    #[test]
    fn language_switch_keeps_the_page() {
        let first = content::chapters()[0].slug;
        assert_eq!(Route::Chapter(Lang::Zh, first).in_lang(Lang::En), Route::Chapter(Lang::En, first));
        assert_eq!(Route::Home(Lang::En).in_lang(Lang::Zh), Route::Home(Lang::Zh));
    }

    #[test]
    fn estimator_routes_keep_their_state_across_languages() {
        assert_eq!(Route::parse("#/en/estimate?v=1&s=abc"), Route::Estimate(Lang::En));
        assert_eq!(Route::parse("#/zh/estimate"), Route::Estimate(Lang::Zh));
        assert_eq!(switch_language("#/en/estimate?v=1&s=abc", Lang::Zh), "#/zh/estimate?v=1&s=abc");
        assert_eq!(switch_language("#/en/estimate", Lang::Zh), "#/zh/estimate");
        assert_eq!(switch_language("#/zh/chapters/nope?x", Lang::En), "#/en/");
        assert_eq!(
            switch_language("#/en/chapters/cuda?print=worksheet", Lang::Zh),
            "#/zh/chapters/cuda?print=worksheet"
        );
        assert_eq!(switch_language("", Lang::Zh), "#/zh/");
    }

    #[test]
    fn sections_and_terms_are_targets() {
        let first = content::chapters()[0].slug;
        assert_eq!(Route::parse(&format!("#/en/chapters/{first}?s=s-2")), Route::Chapter(Lang::En, first));
        assert_eq!(Route::parse("#/zh/glossary?term=kv-cache"), Route::Glossary(Lang::Zh));
        assert_eq!(target_element_id("#/en/chapters/x?s=s-2"), Some("s-2".to_string()));
        assert_eq!(target_element_id("#/zh/glossary?term=kv-cache"), Some("term-kv-cache".to_string()));
        assert_eq!(target_element_id("#/zh/glossary?term=<b>"), None);
        assert_eq!(target_element_id("#/zh/glossary"), None);
        assert_eq!(switch_language("#/zh/glossary?term=hbm", Lang::En), "#/en/glossary?term=hbm");
        assert_eq!(
            switch_language(&format!("#/en/chapters/{first}?s=s-2"), Lang::Zh),
            format!("#/zh/chapters/{first}?s=s-2")
        );
    }

    #[test]
    fn hashes_round_trip() {
        for c in content::chapters() {
            for lang in Lang::ALL {
                for r in [
                    Route::Home(lang),
                    Route::Chapter(lang, c.slug),
                    Route::Estimate(lang),
                    Route::Validation(lang),
                    Route::Glossary(lang),
                    Route::Embed(lang, "memory"),
                    Route::Embed(lang, "all-reduce"),
                    Route::Tools(lang),
                    Route::Tool(lang, Tool::Mig),
                ] {
                    assert_eq!(Route::parse(&r.to_hash()), r);
                }
            }
        }
    }

    #[test]
    fn embed_routes_take_every_widget_kind_and_keep_their_state() {
        for kind in WIDGET_KINDS {
            assert_eq!(Route::parse(&format!("#/zh/embed/{kind}?ranks=8")), Route::Embed(Lang::Zh, kind));
        }
        assert_eq!(Route::parse("#/en/embed/no-such-widget"), Route::NotFound(Some(Lang::En)));
        assert_eq!(Route::parse("#/en/embed"), Route::NotFound(Some(Lang::En)));
        assert_eq!(
            switch_language("#/en/embed/cuda-grid?n=1000&t=128", Lang::Zh),
            "#/zh/embed/cuda-grid?n=1000&t=128"
        );
    }

    #[test]
    fn tool_routes_keep_their_state_across_languages() {
        for t in Tool::ALL {
            let hash = format!("#/en/tools/{}?a=1", t.slug());
            assert_eq!(Route::parse(&hash), Route::Tool(Lang::En, t));
            assert_eq!(switch_language(&hash, Lang::Zh), format!("#/zh/tools/{}?a=1", t.slug()));
            assert_eq!(Tool::from_slug(t.slug()), Some(t));
            assert!(content::find(t.chapter_slug()).is_some(), "{t:?}");
            assert!(WIDGET_KINDS.contains(&t.slug()), "{t:?} is a widget kind too");
        }
        assert_eq!(Route::parse("#/zh/tools"), Route::Tools(Lang::Zh));
        assert_eq!(Route::parse("#/zh/tools/"), Route::Tools(Lang::Zh));
        assert_eq!(Route::parse("#/zh/tools/no-such-tool"), Route::NotFound(Some(Lang::Zh)));
        assert_eq!(switch_language("#/zh/tools?x=1", Lang::En), "#/en/tools");
    }
}
