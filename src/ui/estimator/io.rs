//! Getting scenarios in and out: notices about repaired input, JSON import and export, and the
//! share link.

use super::Ctx;
use crate::estimator::state::{export_json, import_json, Notice, NoticeKind};
use gloo_file::futures::read_as_text;
use gloo_file::File;
use leptos::prelude::*;
use wasm_bindgen::JsCast;

/// What was repaired or refused, naming each field; dismissable.
#[component]
pub fn Notices() -> impl IntoView {
    let ctx = expect_context::<Ctx>();
    let e = ctx.lang.est();
    move || {
        let notices = ctx.notices.get();
        (!notices.is_empty()).then(|| {
            let (heading, class) = if notices.iter().any(|n| n.field == "file-error") {
                (ctx.lang.est_panels().import_failed, "banner error")
            } else if notices.iter().any(|n| n.field.starts_with("import:")) {
                (ctx.lang.est_panels().imported_with_changes, "banner warn")
            } else {
                (ctx.lang.est_panels().link_repaired, "banner warn")
            };
            view! {
                <div class=class role="status" id="notices">
                    <strong>{heading}</strong>
                    <ul inner_html=notices_html(&notices, ctx.lang)></ul>
                    <button class="dismiss" on:click=move |_| ctx.notices.set(Vec::new())>{e.dismiss}</button>
                </div>
            }
        })
    }
}

/// The notices as list items ([`crate::i18n::errors::notice_item_html`]).
fn notices_html(notices: &[Notice], lang: crate::i18n::Lang) -> String {
    notices.iter().map(|n| crate::i18n::errors::notice_item_html(n, lang)).collect()
}

#[component]
pub fn ImportExport() -> impl IntoView {
    let ctx = expect_context::<Ctx>();
    let e = ctx.lang.est();
    let (share_open, set_share_open) = signal(false);
    let on_file = move |ev: leptos::ev::Event| {
        let Some(input) = ev.target().and_then(|t| t.dyn_into::<web_sys::HtmlInputElement>().ok()) else {
            return;
        };
        let Some(file) = input.files().and_then(|f| f.get(0)).map(File::from) else { return };
        let name = file.name();
        input.set_value("");
        leptos::task::spawn_local(async move {
            // An unreadable file reads as empty text, which import_json refuses by name.
            let text = read_as_text(&file).await.unwrap_or_default();
            match import_json(&text) {
                Ok((scenario, notices)) => {
                    ctx.edit(move |s| *s = scenario);
                    ctx.notices.set(
                        notices
                            .into_iter()
                            .map(|n| Notice { field: format!("import:{}", n.field), ..n })
                            .collect(),
                    );
                }
                Err(n) => ctx.notices.set(vec![
                    Notice { field: "file-error".into(), kind: NoticeKind::FileName { name: name.clone() } },
                    Notice { field: format!("file-error:{}", n.field), ..n },
                ]),
            }
        });
    };
    view! {
        <div class="io">
            <label class="button-like" for="import-file">{ctx.lang.est_panels().import}</label>
            <input type="file" id="import-file" class="visually-hidden" accept=".json,application/json" on:change=on_file />
            <button id="export" on:click=move |_| {
                let text = ctx.with_scenario(export_json);
                let _ = crate::ui::browser::download("gpu-primer-scenario.json", "application/json", text.as_bytes());
            }>{ctx.lang.est_panels().export}</button>
            <button id="share" aria-expanded=move || share_open.get().to_string() on:click=move |_| set_share_open.update(|o| *o = !*o)>{e.share}</button>
            {move || share_open.get().then(|| {
                // Built from the state itself, so the link is always the current one.
                let query = ctx.state.with(crate::estimator::state::encode);
                let href = crate::ui::browser::absolute(&format!("#/{}/estimate/?{query}", ctx.lang.code()));
                view! { <input class="share-url" id="share-url" readonly=true prop:value=href on:focus=move |ev| {
                    if let Some(i) = ev.target().and_then(|t| t.dyn_into::<web_sys::HtmlInputElement>().ok()) { i.select(); }
                } /> }
            })}
        </div>
    }
}
