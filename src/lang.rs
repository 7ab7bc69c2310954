//! The two languages of the site. Every layer may name a language; only `i18n` words anything
//! in it (the engine, the catalogs and the content registry import this and nothing above).

use serde::{Deserialize, Serialize};

/// A language of the site. The route carries it (`#/zh/…`, `#/en/…`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Lang {
    Zh,
    En,
}

impl Lang {
    pub const ALL: [Lang; 2] = [Lang::Zh, Lang::En];

    /// The code used in routes and in localStorage: `zh` or `en`.
    pub fn code(self) -> &'static str {
        match self {
            Lang::Zh => "zh",
            Lang::En => "en",
        }
    }

    /// The value for `<html lang>`.
    pub fn html_lang(self) -> &'static str {
        match self {
            Lang::Zh => "zh-CN",
            Lang::En => "en",
        }
    }

    /// Parses a route or storage code; `None` for anything else.
    pub fn from_code(code: &str) -> Option<Lang> {
        match code {
            "zh" => Some(Lang::Zh),
            "en" => Some(Lang::En),
            _ => None,
        }
    }

    /// Picks a language from a browser language tag such as `zh-CN`, `zh-Hant-TW` or `en-GB`:
    /// any Chinese tag gives Chinese, everything else English.
    pub fn from_browser_tag(tag: &str) -> Lang {
        let primary = tag.split(['-', '_']).next().unwrap_or("").to_ascii_lowercase();
        if primary == "zh" {
            Lang::Zh
        } else {
            Lang::En
        }
    }

    pub fn other(self) -> Lang {
        match self {
            Lang::Zh => Lang::En,
            Lang::En => Lang::Zh,
        }
    }
}
