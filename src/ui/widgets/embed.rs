//! Embedding: `{lang}/embed/{kind}/?state` shows one widget alone (a page without the site's
//! header, navigation and footer: [`crate::ui::pages::EmbedPage`]), and every widget has a
//! "copy embed code" control that writes an `<iframe>` for that page's address on this site.

use super::escape;
use crate::i18n::Lang;
use leptos::prelude::*;
use wasm_bindgen::prelude::*;

#[wasm_bindgen]
extern "C" {
    /// What `navigator.clipboard.writeText` returns.
    type ClipboardPromise;
    /// Throws where there is no clipboard API (insecure contexts); then `Err`.
    #[wasm_bindgen(catch, js_namespace = ["navigator", "clipboard"], js_name = writeText)]
    fn clipboard_write_text(text: &str) -> Result<ClipboardPromise, JsValue>;
    #[wasm_bindgen(method)]
    fn then(this: &ClipboardPromise, ok: &JsValue, err: &JsValue) -> ClipboardPromise;
}

/// The absolute address of the embed page of `kind` in `lang` with `query` on this site, or
/// `None` where the page is not served over http(s) (a file, the offline copy).
fn embed_url(lang: Lang, kind: &str, query: &str) -> Option<String> {
    #[cfg(target_arch = "wasm32")]
    {
        let location = web_sys::window()?.location();
        let hosted = location.protocol().ok().is_some_and(|p| p == "http:" || p == "https:");
        let q = if query.is_empty() { String::new() } else { format!("?{query}") };
        let hash = format!("#/{}/embed/{kind}/{q}", lang.code());
        hosted.then(|| crate::ui::nav::absolute(&hash)).flatten()
    }
    #[cfg(not(target_arch = "wasm32"))]
    {
        let _ = (lang, kind, query);
        None
    }
}

/// The script the embed code carries for the host page: it listens for the height an embed
/// page posts (`site::frame::EMBED_SCRIPT`: `{type: "gpu-primer:height", height}`) and sets it
/// on the `<iframe data-gpu-primer>` whose window sent it, only when the message comes from
/// that iframe's origin (a message from anywhere else changes nothing). The same script twice
/// on a page (two embeds) sets each height twice to the same value: harmless.
pub const HOST_LISTENER: &str = "<script>\n\
/* gpu-primer embeds: each iframe takes the height of its content. */\n\
addEventListener(\"message\", function (e) {\n\
  var d = e.data;\n\
  if (!d || d.type !== \"gpu-primer:height\" || !(d.height > 0)) return;\n\
  document.querySelectorAll(\"iframe[data-gpu-primer]\").forEach(function (f) {\n\
    if (f.contentWindow === e.source && new URL(f.src, location.href).origin === e.origin)\n\
      f.height = String(Math.min(Math.ceil(d.height), 20000));\n\
  });\n\
});\n\
</script>";

/// The embed code for the embed page at `src`: the `<iframe>` (600 px high until its page says
/// its height) and [`HOST_LISTENER`].
pub fn iframe_snippet(src: &str, title: &str) -> String {
    format!(
        "<iframe src=\"{}\" title=\"{}\" width=\"100%\" height=\"600\" loading=\"lazy\" data-gpu-primer></iframe>\n{HOST_LISTENER}",
        escape(src),
        escape(title)
    )
}

#[derive(Clone, Copy, PartialEq)]
enum Copied {
    Not,
    Yes,
    Failed,
    NotHosted,
}

/// The "copy embed code" button; after a click, the embed code in a read-only field (selected
/// when the clipboard could not be written) and what happened.
#[component]
pub fn EmbedCode(lang: Lang, kind: &'static str, #[prop(into)] query: Signal<String>) -> impl IntoView {
    let w = lang.wid();
    let (snippet, set_snippet) = signal(String::new());
    let (copied, set_copied) = signal(Copied::Not);
    let field = NodeRef::<leptos::html::Textarea>::new();
    let select_field = move || {
        if let Some(f) = field.get_untracked() {
            f.select();
        }
    };
    let on_click = move |_| {
        let Some(src) = embed_url(lang, kind, &query.get_untracked()) else {
            set_snippet.set(String::new());
            set_copied.set(Copied::NotHosted);
            return;
        };
        let title = format!("{} · {}", lang.strings().site_title, super::lessons::title(kind, lang));
        let text = iframe_snippet(&src, &title);
        set_snippet.set(text.clone());
        match clipboard_write_text(&text) {
            Ok(promise) => {
                let ok = Closure::once_into_js(move || set_copied.set(Copied::Yes));
                let err = Closure::once_into_js(move || {
                    set_copied.set(Copied::Failed);
                    select_field();
                });
                let _ = promise.then(&ok, &err);
            }
            Err(_) => {
                set_copied.set(Copied::Failed);
                // The field is drawn on the next tick; select it then.
                request_animation_frame(select_field);
            }
        }
    };
    let status = move || match copied.get() {
        Copied::Not => "",
        Copied::Yes => w.embed_copied,
        Copied::Failed => w.embed_copy_failed,
        Copied::NotHosted => w.embed_needs_host,
    };
    view! {
        <div class="embed-code">
            <button type="button" class="copy-embed" on:click=on_click>{w.copy_embed}</button>
            <span class="hint embed-status" role="status">{status}</span>
            <label class="visually-hidden" for=format!("{kind}-embed")>{w.embed_label}</label>
            <textarea id=format!("{kind}-embed") class="share-url embed-snippet" readonly=true rows="6"
                spellcheck="false" hidden=move || snippet.with(String::is_empty)
                node_ref=field prop:value=move || snippet.get() on:focus=move |_| select_field()></textarea>
        </div>
    }
}
