//! Moving between pages without a reload. Every page is a prerendered file; once the app runs,
//! a click on an in-site link fetches the next page's HTML, swaps the document's `<body>` and
//! the page's head entries (title, description, canonical and hreflang links), and mounts the
//! new page's components (with the mounting [`super::mount`] hands in when it starts
//! navigation). History, back/forward, scroll position and focus behave as on any page; a
//! fetch that fails becomes an ordinary navigation, so nothing is lost. Without the app the
//! same links are plain links.
//!
//! Where the page is: online, the path below the site root (`data-root` on `<html>`, resolved
//! against the page's own address) and the query; in the offline file (one HTML file, `file://`),
//! the hash `#/{path}?{query}#{fragment}`, and pages come from the file's own store
//! (`gpuPrimerOffline.page(path)`, written by `tools/single-file.mjs`).

use super::address::{is_page, parse_offline_hash, without_fragment, Here};
use crate::route::Target;
use std::cell::{Cell, RefCell};
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use web_sys::js_sys::{Function, Promise, Reflect};

fn document() -> Option<web_sys::Document> {
    web_sys::window()?.document()
}

fn html_attr(name: &str) -> Option<String> {
    document()?.document_element()?.get_attribute(name)
}

/// Whether this is the offline file (its pages are in the file, its routes in the hash).
pub fn offline() -> bool {
    html_attr("data-offline").is_some()
}

/// The site root as an absolute URL ending in `/`.
fn root_url() -> Option<String> {
    let href = web_sys::window()?.location().href().ok()?;
    let root = html_attr("data-root").unwrap_or_else(|| "./".to_string());
    web_sys::Url::new_with_base(&root, &href).ok().map(|u| u.href())
}

/// Where the page is now.
pub fn current() -> Here {
    let Some(location) = web_sys::window().map(|w| w.location()) else { return Here::default() };
    if offline() {
        return parse_offline_hash(&location.hash().unwrap_or_default());
    }
    let href = location.href().unwrap_or_default();
    let path = root_url()
        .and_then(|root| {
            href.split(['?', '#']).next().and_then(|h| h.strip_prefix(root.as_str())).map(str::to_string)
        })
        .unwrap_or_default();
    let query = location.search().unwrap_or_default();
    let hash = location.hash().unwrap_or_default();
    Here {
        path: path.strip_suffix("index.html").unwrap_or(&path).to_string(),
        query: query.strip_prefix('?').unwrap_or(&query).to_string(),
        fragment: hash.strip_prefix('#').unwrap_or(&hash).to_string(),
    }
}

/// The URL an in-site link in the hash form (`#/en/estimate/?v=1…`) has from this page: the
/// hash itself in the offline file, else the site root followed by the target.
pub fn href(hash: &str) -> String {
    let target = Target::from_hash(hash);
    if offline() {
        return target.to_hash();
    }
    format!("{}{}", html_attr("data-root").unwrap_or_else(|| "./".to_string()), target.site_url())
}

/// `html`'s in-site hash links as this page links them: relative to it, or (offline) in the
/// current hash form.
pub fn links(html: &str) -> String {
    if !html.contains("href=\"#/") {
        return html.to_string();
    }
    if offline() {
        crate::links::normal(html)
    } else {
        crate::links::relative(html, &html_attr("data-path").unwrap_or_default())
    }
}

/// The absolute URL of an in-site link (a share link, an embed code another site pastes); in
/// the offline file, the file's own address with the link's hash.
pub fn absolute(hash: &str) -> Option<String> {
    let target = Target::from_hash(hash);
    if offline() {
        let href = web_sys::window()?.location().href().ok()?;
        return Some(format!("{}{}", href.split('#').next().unwrap_or_default(), target.to_hash()));
    }
    Some(format!("{}{}", root_url()?, target.site_url()))
}

/// The absolute URL of the file `name` at the site root; none in the offline file, which has
/// no site around it.
pub fn site_file(name: &str) -> Option<String> {
    if offline() {
        return None;
    }
    Some(format!("{}{name}", root_url()?))
}

/// Writes the page's query into the address without a history entry.
pub fn replace_query(query: &str) {
    let Some(window) = web_sys::window() else { return };
    let Ok(history) = window.history() else { return };
    let here = current();
    // An embed keeps its `theme=` (the page's, not the widget's state): a reload shows the
    // same colours.
    let theme = here.query.split('&').find(|p| p.starts_with("theme=")).filter(|_| in_embed());
    let with_theme;
    let query = match theme {
        Some(t) if !query.split('&').any(|p| p.starts_with("theme=")) => {
            with_theme = if query.is_empty() { t.to_string() } else { format!("{query}&{t}") };
            with_theme.as_str()
        }
        _ => query,
    };
    let url = if offline() {
        let q = if query.is_empty() { String::new() } else { format!("?{query}") };
        let f = if here.fragment.is_empty() { String::new() } else { format!("#{}", here.fragment) };
        format!("#/{}{q}{f}", here.path)
    } else if query.is_empty() {
        window.location().pathname().unwrap_or_default()
    } else {
        format!("?{query}")
    };
    let state = history.state().unwrap_or(JsValue::NULL);
    let _ = history.replace_state_with_url(&state, "", Some(&url));
    shown_here();
}

/// What a page swap asks of the components: to unmount the old page's and mount the new
/// page's. [`super::mount`] hands them in when it starts navigation ([`start`]), so that moving
/// between pages needs nothing above it.
#[derive(Clone, Copy)]
pub struct Mounts {
    pub unmount_all: fn(),
    pub mount_page: fn(),
}

thread_local! {
    /// Which navigation is the latest: an older fetch that lands late is dropped.
    static GENERATION: Cell<u32> = const { Cell::new(0) };
    /// The components' mounting, for the swaps (set by [`start`]).
    static MOUNTS: Cell<Option<Mounts>> = const { Cell::new(None) };
    /// The address of the page the document shows, without its fragment: a history move that
    /// changes only the fragment (a link to a place on this page, back from it) shows no new page.
    static SHOWN: RefCell<String> = const { RefCell::new(String::new()) };
}

/// The address bar, without its fragment.
fn address() -> Option<String> {
    web_sys::window()?.location().href().ok().map(|h| without_fragment(&h).to_string())
}

/// The address is the page the document shows (after a load, a swap, a query replaced).
fn shown_here() {
    if let Some(here) = address() {
        SHOWN.with(|s| *s.borrow_mut() = here);
    }
}

/// Starts listening: clicks on in-site links, back/forward, and (offline) hash changes; a
/// page swapped in is mounted with `mounts`.
pub fn start(mounts: Mounts) {
    MOUNTS.with(|m| m.set(Some(mounts)));
    shown_here();
    let Some(window) = web_sys::window() else { return };
    if let Ok(history) = window.history() {
        let _ = history.set_scroll_restoration(web_sys::ScrollRestoration::Manual);
    }
    let click = Closure::<dyn FnMut(web_sys::MouseEvent)>::new(on_click);
    let _ = window.add_event_listener_with_callback("click", click.as_ref().unchecked_ref());
    click.forget();
    let pop = Closure::<dyn FnMut(web_sys::Event)>::new(move |_| {
        if !offline() {
            on_history_move();
        }
    });
    let _ = window.add_event_listener_with_callback("popstate", pop.as_ref().unchecked_ref());
    pop.forget();
    let hash = Closure::<dyn FnMut(web_sys::Event)>::new(move |_| {
        if offline() {
            on_offline_hash();
        } else {
            let _ = mark_fragment(&current().fragment);
        }
    });
    let _ = window.add_event_listener_with_callback("hashchange", hash.as_ref().unchecked_ref());
    hash.forget();
    // Before a page is left (a link, a reload), its scroll position goes into its history entry.
    let hide = Closure::<dyn FnMut(web_sys::Event)>::new(move |_| save_scroll());
    let _ = window.add_event_listener_with_callback("pagehide", hide.as_ref().unchecked_ref());
    hide.forget();
}

/// What a navigation does with the scroll position.
#[derive(Clone, Copy, PartialEq)]
enum Restore {
    /// A new page: its fragment's element, else the top.
    Top,
    /// Back or forward: where the reader was on that page.
    Saved,
}

/// Whether this page is an embed (`<body data-embed>`, `site::frame`).
fn in_embed() -> bool {
    web_sys::window()
        .and_then(|w| w.document())
        .and_then(|d| d.body())
        .is_some_and(|b| b.has_attribute("data-embed"))
}

fn on_click(ev: web_sys::MouseEvent) {
    if ev.default_prevented()
        || ev.button() != 0
        || ev.ctrl_key()
        || ev.meta_key()
        || ev.shift_key()
        || ev.alt_key()
    {
        return;
    }
    let Some(anchor) = ev
        .target()
        .and_then(|t| t.dyn_into::<web_sys::Element>().ok())
        .and_then(|t| t.closest("a[href]").ok().flatten())
    else {
        return;
    };
    // An embed's links open outside its frame (its `<base target="_blank">`): the browser
    // follows them, to the full site's pages.
    if anchor.has_attribute("download")
        || anchor.get_attribute("target").is_some_and(|t| !t.is_empty() && t != "_self")
        || in_embed()
    {
        return;
    }
    let mut raw = anchor.get_attribute("href").unwrap_or_default();
    if anchor.id() == "lang-switch" {
        // The same page in the other language keeps what the reader has there: the state in
        // the query (a tool's inputs) and the place on the page.
        raw = with_state(&raw);
    }
    if offline() {
        // Links in the offline file are hashes already; an old-style one is normalised.
        if raw.starts_with("#/") {
            ev.prevent_default();
            set_offline_hash(&Target::from_hash(&raw).to_hash());
        }
        return;
    }
    let url = if raw.starts_with("#/") { href(&raw) } else { raw };
    let Some(absolute) = resolve(&url) else { return };
    let Some(root) = root_url() else { return };
    let Some(inside) = absolute.strip_prefix(root.as_str()) else { return };
    if !is_page(inside) {
        return;
    }
    let here = current();
    let (path_and_query, _) = inside.split_once('#').unwrap_or((inside, ""));
    let same_page = {
        let q = if here.query.is_empty() { String::new() } else { format!("?{}", here.query) };
        format!("{}{q}", here.path) == path_and_query
    };
    if same_page && inside.contains('#') {
        // A place on this page: the browser scrolls to it, in a new history entry; back
        // returns to where the reader is now.
        save_scroll();
        return;
    }
    ev.prevent_default();
    save_scroll();
    if let Some(w) = web_sys::window() {
        if let Ok(history) = w.history() {
            let _ = history.push_state_with_url(&JsValue::NULL, "", Some(&absolute));
        }
    }
    go(Some(absolute), Restore::Top);
}

fn resolve(url: &str) -> Option<String> {
    let base = web_sys::window()?.location().href().ok()?;
    web_sys::Url::new_with_base(url, &base).ok().map(|u| u.href())
}

fn set_offline_hash(hash: &str) {
    if let Some(w) = web_sys::window() {
        save_scroll();
        let _ = w.location().set_hash(hash);
    }
}

fn on_offline_hash() {
    let raw = web_sys::window().and_then(|w| w.location().hash().ok()).unwrap_or_default();
    let normal = Target::from_hash(&raw).to_hash();
    if normal != raw && raw.starts_with("#/") {
        // An old-style link: replace it with its new form (which fires this again).
        if let Some(w) = web_sys::window() {
            let _ = w.location().replace(&normal);
        }
        return;
    }
    let here = current();
    let shown = html_attr("data-path").unwrap_or_default();
    if here.path == shown {
        scroll_to_fragment(&here.fragment);
        return;
    }
    go(None, Restore::Top);
}

/// The scroll position of this history entry, saved into its state.
fn save_scroll() {
    let Some(w) = web_sys::window() else { return };
    let y = w.scroll_y().unwrap_or(0.0);
    if let Ok(history) = w.history() {
        let state = web_sys::js_sys::Object::new();
        let _ = Reflect::set(&state, &"scrollY".into(), &y.into());
        let _ = history.replace_state(&state, "");
    }
}

fn saved_scroll() -> Option<f64> {
    let state = web_sys::window()?.history().ok()?.state().ok()?;
    Reflect::get(&state, &"scrollY".into()).ok()?.as_f64()
}

/// Back or forward (or a move to a fragment, which the browser reports the same way): a new
/// page is loaded; on the page shown, only the place changes (where the reader was in that
/// history entry, else the fragment's element).
fn on_history_move() {
    let same_page = address().is_some_and(|a| SHOWN.with(|s| *s.borrow() == a));
    if !same_page {
        go(None, Restore::Saved);
        return;
    }
    let fragment = current().fragment;
    match (saved_scroll(), web_sys::window()) {
        (Some(y), Some(w)) => {
            let _ = mark_fragment(&fragment);
            w.scroll_to_with_x_and_y(0.0, y);
        }
        _ => scroll_to_fragment(&fragment),
    }
}

/// Lets the browser load `url` itself (a page of the other bundle, or one the app could not
/// fetch). The address already is `url` (pushed by the click, or the history entry moved to):
/// replacing it with itself plus a fragment would only move to the fragment, a same-document
/// navigation that reports itself as a history move and would start this again without end;
/// the page is reloaded instead.
fn load(url: &str) {
    let Some(window) = web_sys::window() else { return };
    let location = window.location();
    if address().is_some_and(|a| a == without_fragment(url)) {
        // After a reload the browser scrolls nowhere (this site restores positions itself):
        // the new page is told to ([`landed`]), keeping the position saved in the entry.
        if let Ok(history) = window.history() {
            let state = web_sys::js_sys::Object::new();
            if let Some(y) = saved_scroll() {
                let _ = Reflect::set(&state, &"scrollY".into(), &y.into());
            }
            let _ = Reflect::set(&state, &LOADED.into(), &true.into());
            let _ = history.replace_state(&state, "");
        }
        let _ = location.reload();
    } else {
        let _ = location.replace(url);
    }
}

/// Loads the page at `url` (the current address when `None`) and swaps it in.
fn go(url: Option<String>, restore: Restore) {
    let generation = GENERATION.with(|g| {
        g.set(g.get().wrapping_add(1));
        g.get()
    });
    let url = url.or_else(|| web_sys::window()?.location().href().ok());
    let Some(url) = url else { return };
    wasm_bindgen_futures::spawn_local(async move {
        let html = if offline() { offline_page(&current().path).await } else { fetch_page(&url).await };
        if GENERATION.with(Cell::get) != generation {
            return;
        }
        // A page of the other bundle is loaded by the browser, which starts that bundle.
        let next = html.and_then(|h| parse(&h)).filter(|n| offline() || same_bundle(&n.doc));
        match next {
            Some(next) => {
                swap(&next);
                after_swap(restore);
            }
            // Not a page we can swap in: the browser loads it.
            None if !offline() => load(&url),
            None => {}
        }
    });
}

async fn fetch_page(url: &str) -> Option<String> {
    let window = web_sys::window()?;
    let response: web_sys::Response =
        wasm_bindgen_futures::JsFuture::from(window.fetch_with_str(url)).await.ok()?.dyn_into().ok()?;
    if !response.ok() {
        return None;
    }
    let is_html =
        response.headers().get("content-type").ok().flatten().is_some_and(|t| t.contains("text/html"));
    if !is_html {
        return None;
    }
    wasm_bindgen_futures::JsFuture::from(response.text().ok()?).await.ok()?.as_string()
}

/// A page of the offline file's store (its 404 page for a path it does not have).
async fn offline_page(path: &str) -> Option<String> {
    let window: JsValue = web_sys::window()?.into();
    let store = Reflect::get(&window, &"gpuPrimerOffline".into()).ok()?;
    let page: Function = Reflect::get(&store, &"page".into()).ok()?.dyn_into().ok()?;
    let promise: Promise = page.call1(&store, &path.into()).ok()?.dyn_into().ok()?;
    wasm_bindgen_futures::JsFuture::from(promise).await.ok()?.as_string()
}

/// The place the reader is at on this page, for the same page in the other language: the
/// fragment when there is one, else the last section heading (a chapter's `s-N`), glossary
/// entry or exercise whose top is above the upper quarter of the screen under the header (the
/// two languages' pages have the same ids in the same order); none at the top of the page.
fn reading_place(here: &Here) -> String {
    if !here.fragment.is_empty() {
        return here.fragment.clone();
    }
    let (Some(doc), Some(w)) = (document(), web_sys::window()) else { return String::new() };
    if w.scroll_y().unwrap_or(0.0) < 1.0 {
        return String::new();
    }
    let header = doc
        .query_selector(".site-header")
        .ok()
        .flatten()
        .map_or(0.0, |h| h.get_bounding_client_rect().bottom());
    let Ok(list) = doc.query_selector_all(
        "main h2[id], main h3[id], main h4[id], main .term-card[id], main section.exercise[id]",
    ) else {
        return String::new();
    };
    let height = w.inner_height().ok().and_then(|h| h.as_f64()).unwrap_or(header);
    let line = header + (height - header).max(0.0) / 4.0;
    let mut place = String::new();
    for i in 0..list.length() {
        let Some(el) = list.item(i).and_then(|n| n.dyn_into::<web_sys::Element>().ok()) else { continue };
        if el.get_bounding_client_rect().top() > line {
            break;
        }
        place = el.id();
    }
    place
}

/// `href` (the other language's page) with this page's query and the reader's place on it.
fn with_state(href: &str) -> String {
    let mut here = current();
    here.fragment = reading_place(&here);
    if href.starts_with("#/") {
        let mut target = Target::from_hash(href);
        target.query = here.query;
        target.fragment = here.fragment;
        return target.to_hash();
    }
    let base = href.split(['?', '#']).next().unwrap_or(href);
    let mut out = base.to_string();
    if !here.query.is_empty() {
        out.push('?');
        out.push_str(&here.query);
    }
    if !here.fragment.is_empty() {
        out.push('#');
        out.push_str(&here.fragment);
    }
    out
}

/// Whether `next` runs on the bundle this page runs on (`data-bundle` on `<html>`).
fn same_bundle(next: &web_sys::Document) -> bool {
    let of = |d: &web_sys::Document| d.document_element().and_then(|e| e.get_attribute("data-bundle"));
    document().is_some_and(|d| of(&d) == of(next))
}

/// A prerendered page, read, with its `data-s` style rules.
struct Next {
    doc: web_sys::Document,
    rules: Vec<(String, String)>,
}

/// Reads a prerendered page; `None` for anything that is not one of the site's pages.
fn parse(html: &str) -> Option<Next> {
    let (html, rules) = super::address::without_head_styles(html);
    let parser = web_sys::DomParser::new().ok()?;
    let doc = parser.parse_from_string(&html, web_sys::SupportedType::TextHtml).ok()?;
    doc.document_element()?.get_attribute("data-page")?;
    Some(Next { doc, rules })
}

/// Puts `next`'s page in place of the current one.
fn swap(Next { doc: next, rules }: &Next) {
    let (Some(doc), Some(root), Some(next_root)) =
        (document(), document().and_then(|d| d.document_element()), next.document_element())
    else {
        return;
    };
    let mounts = MOUNTS.with(Cell::get);
    if let Some(m) = mounts {
        (m.unmount_all)();
    }
    let _ = root.remove_attribute("data-live");
    for name in ["lang", "data-root", "data-path", "data-page", "data-bundle"] {
        match next_root.get_attribute(name) {
            Some(v) => {
                let _ = root.set_attribute(name, &v);
            }
            None => {
                let _ = root.remove_attribute(name);
            }
        }
    }
    doc.set_title(&next.title());
    if let (Some(head), Some(next_head)) = (doc.head(), next.head()) {
        const ENTRIES: &str = "meta[name=description], link[rel=canonical], link[rel=alternate]";
        if let Ok(old) = head.query_selector_all(ENTRIES) {
            for i in 0..old.length() {
                if let Some(n) = old.item(i).and_then(|n| n.dyn_into::<web_sys::Element>().ok()) {
                    n.remove();
                }
            }
        }
        if let Ok(new) = next_head.query_selector_all(ENTRIES) {
            for i in 0..new.length() {
                if let Some(n) = new.item(i).and_then(|n| doc.import_node_with_deep(&n, true).ok()) {
                    let _ = head.append_child(&n);
                }
            }
        }
    }
    if let (Some(body), Some(next_body)) = (doc.body(), next.body()) {
        if let Ok(imported) = doc.import_node_with_deep(&next_body, true) {
            if let Ok(imported) = imported.dyn_into::<web_sys::HtmlElement>() {
                apply_styles(rules, &imported);
                let _ = body.replace_with_with_node_1(&imported);
            }
        }
    }
    shown_here();
    if let Some(m) = mounts {
        (m.mount_page)();
    }
}

/// The next page's style rules for its `data-s` elements (`site::styles`: what its components'
/// `style:` directives drew), set on them through the CSSOM: this page's policy allows only its
/// own `<style>`, and the CSSOM is not restricted by it.
fn apply_styles(rules: &[(String, String)], body: &web_sys::HtmlElement) {
    if rules.is_empty() {
        return;
    }
    let Ok(list) = body.query_selector_all("[data-s]") else { return };
    for i in 0..list.length() {
        let Some(el) = list.item(i).and_then(|n| n.dyn_into::<web_sys::HtmlElement>().ok()) else { continue };
        let n = el.get_attribute("data-s").unwrap_or_default();
        if let Some((_, declarations)) = rules.iter().find(|(k, _)| *k == n) {
            el.style().set_css_text(declarations);
        }
    }
}

/// After a swap: the scroll position, and the focus on the new page's content (where a screen
/// reader then starts reading, as after a page load).
fn after_swap(restore: Restore) {
    let Some(w) = web_sys::window() else { return };
    let here = current();
    match (restore, saved_scroll()) {
        (Restore::Saved, Some(y)) => w.scroll_to_with_x_and_y(0.0, y),
        _ if !here.fragment.is_empty() => scroll_to_fragment(&here.fragment),
        _ => w.scroll_to_with_x_and_y(0.0, 0.0),
    }
    if let Some(main) = document().and_then(|d| d.get_element_by_id("main")) {
        if let Ok(main) = main.dyn_into::<web_sys::HtmlElement>() {
            let options = web_sys::FocusOptions::new();
            options.set_prevent_scroll(true);
            let _ = main.focus_with_options(&options);
        }
    }
}

/// Scrolls to the element a fragment names (a section, a glossary entry, an exercise) and
/// marks it (`data-highlight`: a page swapped in by the app has no `:target`).
pub fn scroll_to_fragment(fragment: &str) {
    if let Some(el) = mark_fragment(fragment) {
        el.scroll_into_view();
    }
}

/// Marks the element the fragment names, the only one marked.
pub fn mark_fragment(fragment: &str) -> Option<web_sys::Element> {
    let doc = document()?;
    if let Ok(old) = doc.query_selector_all("[data-highlight]") {
        for i in 0..old.length() {
            if let Some(e) = old.item(i).and_then(|n| n.dyn_into::<web_sys::Element>().ok()) {
                let _ = e.remove_attribute("data-highlight");
            }
        }
    }
    if fragment.is_empty() {
        return None;
    }
    let el = doc.get_element_by_id(fragment)?;
    let _ = el.set_attribute("data-highlight", "");
    Some(el)
}

/// On the first load of a page: an in-site link in the hash form opened on a page (a link the
/// app wrote, opened in a new tab) goes where it leads; in the offline file, the hash's page is
/// shown.
pub fn landed() {
    let Some(location) = web_sys::window().map(|w| w.location()) else { return };
    let hash = location.hash().unwrap_or_default();
    if offline() {
        on_offline_hash();
    } else if hash.starts_with("#/") {
        let _ = location.replace(&href(&hash));
    } else if let Some(saved) = take_loaded_mark() {
        // Loaded by the app ([`load`]): a reload, after which the browser keeps the top. Back
        // or forward to the entry: where the reader was; a new page: its fragment.
        let fragment = hash.strip_prefix('#').unwrap_or("");
        match (saved, web_sys::window()) {
            (Some(y), Some(w)) => {
                let _ = mark_fragment(fragment);
                w.scroll_to_with_x_and_y(0.0, y);
            }
            _ => scroll_to_fragment(fragment),
        }
    } else {
        // The browser has scrolled to the fragment's element; the app marks it.
        let _ = mark_fragment(hash.strip_prefix('#').unwrap_or(""));
    }
}

/// The mark [`load`] leaves in the history entry it reloads: the new page goes to the place
/// the reader had there, else to its fragment, as a page the browser navigated to would.
const LOADED: &str = "gpuPrimerLoaded";

/// `Some(the scroll position saved in this entry)` when the entry carries [`LOADED`], which is
/// taken off; `None` for a page the browser loaded by itself.
fn take_loaded_mark() -> Option<Option<f64>> {
    let history = web_sys::window()?.history().ok()?;
    let state = history.state().ok()?;
    Reflect::get(&state, &LOADED.into()).ok()?.is_truthy().then_some(())?;
    let saved = saved_scroll();
    let _ = history.replace_state(&JsValue::NULL, "");
    Some(saved)
}

/// Goes to the in-site link `hash` (in the hash form) as a click on it would.
pub fn visit(hash: &str) {
    let target = Target::from_hash(hash);
    if offline() {
        set_offline_hash(&target.to_hash());
        return;
    }
    let Some(absolute) = resolve(&href(hash)) else { return };
    save_scroll();
    if let Some(w) = web_sys::window() {
        if let Ok(history) = w.history() {
            let _ = history.push_state_with_url(&JsValue::NULL, "", Some(&absolute));
        }
    }
    go(Some(absolute), Restore::Top);
}

/// The text of a file of the site (`en/search-index.json`), by its path below the root: fetched
/// online, from the offline file's store there.
pub async fn fetch_text(path: &str) -> Option<String> {
    if offline() {
        return offline_page(path).await;
    }
    let url = format!("{}{path}", root_url()?);
    let window = web_sys::window()?;
    let response: web_sys::Response =
        wasm_bindgen_futures::JsFuture::from(window.fetch_with_str(&url)).await.ok()?.dyn_into().ok()?;
    if !response.ok() {
        return None;
    }
    wasm_bindgen_futures::JsFuture::from(response.text().ok()?).await.ok()?.as_string()
}
