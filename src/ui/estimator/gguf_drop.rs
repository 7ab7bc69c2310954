//! A GGUF file as the model: chosen or dropped, its header read in slices (`Blob.slice`, a few
//! megabytes of a file of gigabytes; nothing leaves the browser), the model applied when the
//! engine accepts it. What the bytes mean is `estimator::gguf_file`.

use super::Ctx;
use crate::estimator::gguf_file::{model_from_prefix, GgufLoadError, Step, FIRST_READ};
use crate::estimator::load_panel::evaluate_without_load as evaluate;
use crate::i18n::errors;
use crate::i18n::gguf::gguf_error;
use gloo_file::futures::read_as_bytes;
use gloo_file::File;
use leptos::prelude::*;
use wasm_bindgen::JsCast;

/// Reads a file's model from its header, reading more while the header asks for it; returns
/// the config and how many bytes were read.
async fn read_model(file: &File) -> Result<(serde_json::Value, u64), GgufLoadError> {
    let size = file.size();
    let mut len = FIRST_READ.min(size);
    loop {
        let bytes = read_as_bytes(&file.slice(0, len)).await.map_err(|_| GgufLoadError::Unreadable)?;
        match model_from_prefix(&bytes, size) {
            Ok(v) => return Ok((v, bytes.len() as u64)),
            Err(Step::Read(n)) => len = n,
            Err(Step::Failed(e)) => return Err(e),
        }
    }
}

/// "x MB of y GB" for the status line.
fn read_of(read: u64, size: u64) -> (String, String) {
    use crate::charts::format::{format_bytes, ByteUnit};
    (format_bytes(read, ByteUnit::Gb), format_bytes(size, ByteUnit::Gb))
}

#[component]
pub fn GgufDrop() -> impl IntoView {
    let ctx = expect_context::<Ctx>();
    let ps = ctx.lang.est_panels();
    let (error, set_error) = signal(None::<String>);
    let (status, set_status) = signal(None::<String>);
    let (over, set_over) = signal(false);
    let load = move |file: File| {
        set_error.set(None);
        set_status.set(Some(ps.gguf_reading.to_owned()));
        leptos::task::spawn_local(async move {
            let size = file.size();
            match read_model(&file).await {
                Ok((config, read)) => {
                    let mut candidate = ctx.with_scenario(|s| s.clone());
                    candidate.model = crate::engine::ModelSpec::Config(config);
                    candidate.weight_dtype = None;
                    match evaluate(&candidate) {
                        Ok(_) => {
                            let (r, s) = read_of(read, size);
                            set_status.set(Some(ps.gguf_read.replace("{read}", &r).replace("{size}", &s)));
                            ctx.edit(move |s| *s = candidate);
                        }
                        Err(err) => {
                            set_status.set(None);
                            set_error.set(Some(errors::scenario_error(err.scenario_error(), ctx.lang)));
                        }
                    }
                }
                Err(err) => {
                    set_status.set(None);
                    set_error.set(Some(format!("{}: {}", file.name(), gguf_error(&err, ctx.lang))));
                }
            }
        });
    };
    let on_change = move |ev: leptos::ev::Event| {
        let Some(input) = ev.target().and_then(|t| t.dyn_into::<web_sys::HtmlInputElement>().ok()) else {
            return;
        };
        if let Some(file) = input.files().and_then(|f| f.get(0)).map(File::from) {
            load(file);
        }
        input.set_value("");
    };
    let on_drop = move |ev: leptos::ev::DragEvent| {
        ev.prevent_default();
        set_over.set(false);
        if let Some(file) = ev.data_transfer().and_then(|d| d.files()).and_then(|f| f.get(0)).map(File::from)
        {
            load(file);
        }
    };
    view! {
        <details class="control gguf">
            <summary>{ps.gguf_file}</summary>
            <p class="hint">{ps.gguf_hint}</p>
            <label
                class="drop-zone"
                class:over=move || over.get()
                for="gguf-file"
                on:dragover=move |ev: leptos::ev::DragEvent| { ev.prevent_default(); set_over.set(true); }
                on:dragleave=move |_| set_over.set(false)
                on:drop=on_drop
            >
                {ps.gguf_drop}
            </label>
            <input type="file" id="gguf-file" class="visually-hidden" on:change=on_change />
            {move || status.get().map(|m| view! { <p class="hint" role="status" id="gguf-status">{m}</p> })}
            {move || error.get().map(|m| view! { <p class="field-error" role="alert" id="gguf-error">{m}</p> })}
        </details>
    }
}
