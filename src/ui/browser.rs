//! The few browser facts the app needs: the page's query, in-site links as this page writes
//! them and going to one, the saved language and estimator state, the viewport's width, a file offered for download. Every
//! call tolerates a missing window, storage or permission (private mode, file://, a sandboxed
//! embed). Where the page is and how it moves to another is [`super::nav`]'s (in the browser).
//!
//! Natively, where the prerenderer renders the same components to HTML, there is no browser:
//! each function gives what a first visit would see (no query, nothing saved, a desktop
//! viewport, links in the hash form), so a page's snapshot is its default state.

#[cfg(target_arch = "wasm32")]
pub use live::*;
#[cfg(not(target_arch = "wasm32"))]
pub use prerender::*;

/// Chart width for a viewport `width` CSS pixels wide: the phone layout below 560.
fn chart_width_for(width: f64) -> u32 {
    if width < 560.0 {
        crate::charts::PHONE_WIDTH
    } else {
        crate::charts::DESKTOP_WIDTH
    }
}

#[cfg(target_arch = "wasm32")]
mod live {
    use super::chart_width_for;
    use crate::i18n::Lang;

    const LANG_KEY: &str = "gpu-primer.lang";
    const ESTIMATOR_KEY: &str = "gpu-primer.estimator";

    /// localStorage, or `None` where the browser refuses it (storage disabled, a sandboxed
    /// embed). Not gloo-storage: its `LocalStorage::raw()` throws there, which would abort the app.
    pub fn storage() -> Option<web_sys::Storage> {
        web_sys::window()?.local_storage().ok().flatten()
    }

    /// The page's state: the query of its address, without `?` (in the offline file, the part
    /// of the hash after `?`).
    pub fn page_query() -> String {
        crate::ui::nav::current().query
    }

    /// Replaces the page's query without a history entry (and without reloading): the state of
    /// the estimator or a tool follows its edits in the address.
    pub fn replace_query(query: &str) {
        crate::ui::nav::replace_query(query);
    }

    /// An in-site link in the hash form (`#/en/estimate/?…`) as this page links it: relative to
    /// the site root, or the hash itself in the offline file.
    pub fn href(hash: &str) -> String {
        crate::ui::nav::href(hash)
    }

    /// Goes to the in-site link `hash` (in the hash form), as following a link would.
    pub fn go(hash: &str) {
        crate::ui::nav::visit(hash);
    }

    /// The absolute address of the in-site link `hash`, for the reader to copy.
    pub fn absolute(hash: &str) -> String {
        crate::ui::nav::absolute(hash).unwrap_or_else(|| hash.to_string())
    }

    /// Whether the page is the offline file (the whole site in one HTML file).
    pub fn offline() -> bool {
        crate::ui::nav::offline()
    }

    /// The bytes of the file `name` at the site root (`gpu-primer-offline.html`); none in the
    /// offline file, where the site is not around, or when the fetch fails or is not found.
    pub async fn site_file(name: &str) -> Option<Vec<u8>> {
        use wasm_bindgen::JsCast;
        use wasm_bindgen_futures::JsFuture;
        let url = crate::ui::nav::site_file(name)?;
        let response: web_sys::Response =
            JsFuture::from(web_sys::window()?.fetch_with_str(&url)).await.ok()?.dyn_into().ok()?;
        if !response.ok() {
            return None;
        }
        let bytes = JsFuture::from(response.array_buffer().ok()?).await.ok()?;
        Some(web_sys::js_sys::Uint8Array::new(&bytes).to_vec())
    }

    /// HTML the app builds in the page (a tool's results) with its in-site links as this page
    /// links them (see [`href`]).
    pub fn links(html: String) -> String {
        crate::ui::nav::links(&html)
    }

    /// Keeps the reader's language (the root page's script reads it to pick their home page).
    pub fn remember_lang(lang: Lang) {
        if let Some(s) = storage() {
            let _ = s.set_item(LANG_KEY, lang.code());
        }
    }

    /// The estimator's last state (its query string), if this browser saved one.
    pub fn saved_estimator_state() -> Option<String> {
        storage()?.get_item(ESTIMATOR_KEY).ok().flatten().filter(|s| !s.is_empty())
    }

    pub fn save_estimator_state(query: &str) {
        if let Some(s) = storage() {
            let _ = s.set_item(ESTIMATOR_KEY, query);
        }
    }

    /// Offers `bytes` as a file named `name` of type `mime` (a link clicked for the reader). The
    /// object URL is revoked when it drops, after the click has started the download.
    pub fn download(name: &str, mime: &str, bytes: &[u8]) -> Option<()> {
        use gloo_file::{Blob, ObjectUrl};
        use wasm_bindgen::JsCast;
        let url = ObjectUrl::from(Blob::new_with_options(bytes, Some(mime)));
        let document = web_sys::window()?.document()?;
        let a: web_sys::HtmlAnchorElement = document.create_element("a").ok()?.dyn_into().ok()?;
        a.set_href(&url);
        a.set_download(name);
        a.click();
        Some(())
    }

    /// Runs `f` after the next frame is painted: the frame callback runs just before the paint
    /// and a task queued from it runs after it. For what a reader can wait a frame for, so that
    /// an input is answered on screen first (interaction to next paint).
    pub fn after_paint(f: impl FnOnce() + 'static) {
        use leptos::leptos_dom::helpers::{request_animation_frame, set_timeout};
        request_animation_frame(move || set_timeout(f, std::time::Duration::ZERO));
    }

    /// Chart width for the current viewport.
    pub fn chart_width() -> u32 {
        let w =
            web_sys::window().and_then(|w| w.inner_width().ok()).and_then(|v| v.as_f64()).unwrap_or(1024.0);
        chart_width_for(w)
    }
}

#[cfg(not(target_arch = "wasm32"))]
mod prerender {
    use super::chart_width_for;

    pub fn page_query() -> String {
        String::new()
    }

    pub fn replace_query(_query: &str) {}

    /// The hash form is kept: `site::links` makes it relative to the page being written.
    pub fn href(hash: &str) -> String {
        hash.to_string()
    }

    /// Nothing is followed here.
    pub fn go(_hash: &str) {}

    /// The hash form, as [`href`].
    pub fn absolute(hash: &str) -> String {
        hash.to_string()
    }

    pub fn offline() -> bool {
        false
    }

    /// No site to fetch from.
    pub async fn site_file(_name: &str) -> Option<Vec<u8>> {
        None
    }

    /// The hash forms are kept, as [`href`].
    pub fn links(html: String) -> String {
        html
    }

    pub fn saved_estimator_state() -> Option<String> {
        None
    }

    pub fn save_estimator_state(_query: &str) {}

    pub fn download(_name: &str, _mime: &str, _bytes: &[u8]) -> Option<()> {
        None
    }

    thread_local! {
        /// The viewport width the prerenderer draws for (a desktop unless `with_viewport` says).
        static VIEWPORT: std::cell::Cell<f64> = const { std::cell::Cell::new(1280.0) };
    }

    pub fn chart_width() -> u32 {
        chart_width_for(VIEWPORT.with(std::cell::Cell::get))
    }

    /// Runs `f` as if the viewport were `width` CSS pixels wide (the snapshot of a phone's
    /// charts), then restores the desktop.
    pub fn with_viewport<T>(width: f64, f: impl FnOnce() -> T) -> T {
        let before = VIEWPORT.with(|v| v.replace(width));
        let out = f();
        VIEWPORT.with(|v| v.set(before));
        out
    }

    /// Nothing is painted here: `f` runs at once.
    pub fn after_paint(f: impl FnOnce() + 'static) {
        f();
    }

    #[cfg(test)]
    mod tests {
        #[test]
        fn a_first_visit_sees_defaults() {
            assert_eq!(super::page_query(), "");
            assert_eq!(super::saved_estimator_state(), None);
            assert_eq!(super::chart_width(), crate::charts::DESKTOP_WIDTH);
        }

        #[test]
        fn a_phone_viewport_draws_phone_charts_and_is_restored() {
            assert_eq!(super::with_viewport(390.0, super::chart_width), crate::charts::PHONE_WIDTH);
            assert_eq!(super::chart_width(), crate::charts::DESKTOP_WIDTH);
        }
    }
}
