//! The few browser facts the shell needs: the hash, the saved language, the page title.
//! Every call tolerates a missing window, storage or permission (private mode, file://).

use crate::i18n::Lang;

const LANG_KEY: &str = "gpu-primer.lang";

pub fn current_hash() -> String {
    web_sys::window().and_then(|w| w.location().hash().ok()).unwrap_or_default()
}

/// Replaces the hash without a new history entry and without a `hashchange` event.
pub fn replace_hash(hash: &str) {
    if let Some(history) = web_sys::window().and_then(|w| w.history().ok()) {
        let _ = history.replace_state_with_url(&wasm_bindgen::JsValue::NULL, "", Some(hash));
    }
}

/// localStorage, or `None` where the browser refuses it (storage disabled, a sandboxed embed).
/// Not gloo-storage: its `LocalStorage::raw()` throws there, which would abort the app.
fn storage() -> Option<web_sys::Storage> {
    web_sys::window()?.local_storage().ok().flatten()
}

/// The reader's language: the one they chose last (localStorage), else the browser's.
pub fn preferred_lang() -> Lang {
    if let Some(saved) = storage().and_then(|s| s.get_item(LANG_KEY).ok().flatten()) {
        if let Some(lang) = Lang::from_code(&saved) {
            return lang;
        }
    }
    let tag = web_sys::window().and_then(|w| w.navigator().language()).unwrap_or_default();
    Lang::from_browser_tag(&tag)
}

pub fn remember_lang(lang: Lang) {
    if let Some(s) = storage() {
        let _ = s.set_item(LANG_KEY, lang.code());
    }
}

/// Sets `document.title` and `<html lang>`.
pub fn set_document_language_and_title(lang: Lang, title: &str) {
    let Some(document) = web_sys::window().and_then(|w| w.document()) else { return };
    document.set_title(title);
    if let Some(html) = document.document_element() {
        let _ = html.set_attribute("lang", lang.html_lang());
    }
}

pub fn scroll_to_top() {
    if let Some(w) = web_sys::window() {
        w.scroll_to_with_x_and_y(0.0, 0.0);
    }
}

const ESTIMATOR_KEY: &str = "gpu-primer.estimator";

/// The estimator's last state (its query string), if this browser saved one.
pub fn saved_estimator_state() -> Option<String> {
    storage()?.get_item(ESTIMATOR_KEY).ok().flatten().filter(|s| !s.is_empty())
}

pub fn save_estimator_state(query: &str) {
    if let Some(s) = storage() {
        let _ = s.set_item(ESTIMATOR_KEY, query);
    }
}

/// Chart width for the current viewport: the phone layout below 560 CSS pixels.
pub fn chart_width() -> u32 {
    let w = web_sys::window().and_then(|w| w.inner_width().ok()).and_then(|v| v.as_f64()).unwrap_or(1024.0);
    if w < 560.0 {
        crate::charts::PHONE_WIDTH
    } else {
        crate::charts::DESKTOP_WIDTH
    }
}
