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
//! | anything else                | not found                    |
//!
//! A `?…` after the path is kept for page state (the estimator's scenario) and ignored here.

use crate::content;
use crate::i18n::Lang;

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
            Route::Home(l) | Route::Chapter(l, _) | Route::Estimate(l) | Route::Validation(l) => Some(*l),
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
            Route::NotFound(Some(l)) => format!("#/{}/not-found", l.code()),
            Route::NotFound(None) => "#/not-found".to_string(),
        }
    }
}

/// The hash of the same page in `lang`, keeping the page's state (the `?…` part): the
/// language switch reads the live hash, because the estimator rewrites its query without
/// a route change.
pub fn switch_language(hash: &str, lang: Lang) -> String {
    let route = Route::parse(hash);
    let target = route.in_lang(lang).to_hash();
    match (&route, hash.split_once('?')) {
        // The estimator's state, and a chapter's `?exercise=` / `?print=` (src/ui/exercise.rs).
        (Route::Estimate(_) | Route::Chapter(..), Some((_, query))) if !query.is_empty() => {
            format!("{target}?{query}")
        }
        _ => target,
    }
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
    fn hashes_round_trip() {
        for c in content::chapters() {
            for lang in Lang::ALL {
                for r in [
                    Route::Home(lang),
                    Route::Chapter(lang, c.slug),
                    Route::Estimate(lang),
                    Route::Validation(lang),
                ] {
                    assert_eq!(Route::parse(&r.to_hash()), r);
                }
            }
        }
    }
}
