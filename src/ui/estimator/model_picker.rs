//! Choosing the model: search the catalog, paste a config.json, or give four sizes by hand.

use super::Ctx;
use crate::catalog::evaluate;
use crate::catalog::models;
use crate::engine::error::{classify_serde, Catalogue, ErrorKind, ScenarioError};
use crate::engine::ModelSpec;
use crate::estimator::hand_model::config_from_sizes;
use crate::html::escape;
use crate::i18n::{errors, inferred_notice_html, quant_notice_html};
use leptos::prelude::*;

/// Finds a catalog model by id or display name (case-insensitive).
fn lookup(text: &str) -> Option<&'static str> {
    let t = text.trim().to_ascii_lowercase();
    models::all()
        .iter()
        .find(|m| m.model.id.to_ascii_lowercase() == t || m.model.name.to_ascii_lowercase() == t)
        .map(|m| m.model.id.as_str())
}

/// The search field's suggestions as HTML (static: parsed by the browser at once).
fn model_options() -> String {
    models::all()
        .iter()
        .map(|m| format!("<option value=\"{}\">{}</option>", escape(&m.model.name), escape(&m.model.id)))
        .collect()
}

#[component]
pub fn ModelPicker() -> impl IntoView {
    let ctx = expect_context::<Ctx>();
    let e = ctx.lang.est();
    let ps = ctx.lang.est_panels();
    let (search_error, set_search_error) = signal(None::<String>);
    let (paste_error, set_paste_error) = signal(None::<String>);
    let (hand_error, set_hand_error) = signal(None::<String>);
    let pasted = RwSignal::new(String::new());
    let hand = RwSignal::new((8.0_f64, 32_u64, 4096_u64, 8_u64));

    // Memos: the model's name and source change with the model, not with every edit.
    let current_label = Memo::new(move |_| {
        ctx.with_scenario(|s| match &s.model {
            ModelSpec::Id(id) => models::find(id).map(|m| m.model.name.clone()).unwrap_or_else(|| id.clone()),
            ModelSpec::Config(v) => {
                v.get("_name_or_path").and_then(|n| n.as_str()).unwrap_or(ps.pasted_model).to_owned()
            }
        })
    });
    let source = Memo::new(move |_| {
        ctx.with_scenario(|s| match &s.model {
            ModelSpec::Id(id) => models::find(id).map(|m| {
                let format = m.model.published_format.to_ascii_uppercase();
                (m.model.source.clone(), m.model.retrieved.clone(), m.model.verified, format)
            }),
            ModelSpec::Config(_) => None,
        })
    });

    // A pasted config of an unknown family: the notice that its counts are inferred (as one
    // HTML string, empty otherwise).
    let inferred = Memo::new(move |_| {
        ctx.with_result(|r| match r {
            Ok(r) if r.model.inferred => format!(
                "<div class=\"banner warn\" role=\"note\" id=\"model-inferred\">{}</div>",
                inferred_notice_html(ctx.lang, &r.model.family, &r.model.keys_used, &r.model.keys_ignored)
            ),
            _ => String::new(),
        })
    });

    // A llama.cpp model (a GGUF file or a file type): its tensors by type.
    let gguf = Memo::new(move |_| {
        ctx.with_result(|r| match r {
            Ok(r) => r.model.gguf.as_ref().map_or_else(String::new, |g| {
                format!(
                    "<div class=\"banner note\" role=\"note\" id=\"model-gguf\">{}</div>",
                    crate::i18n::gguf::gguf_notice_html(ctx.lang, g)
                )
            }),
            _ => String::new(),
        })
    });

    // A config with a quantization_config: which format it sets and what stays 16-bit.
    let quant = Memo::new(move |_| {
        ctx.with_result(|r| match r {
            Ok(r) => r.model.quantization.as_ref().map_or_else(String::new, |q| {
                let total = crate::charts::format::format_bytes(q.bytes, ctx.unit());
                format!(
                    "<div class=\"banner note\" role=\"note\" id=\"model-quant\">{}</div>",
                    quant_notice_html(ctx.lang, q, &total)
                )
            }),
            _ => String::new(),
        })
    });

    // Applies a model only when the engine accepts it with the rest of the scenario.
    let try_model = move |spec: ModelSpec, set_err: WriteSignal<Option<String>>| {
        let mut candidate = ctx.with_scenario(|s| s.clone());
        candidate.model = spec;
        match evaluate(&candidate) {
            Ok(_) => {
                set_err.set(None);
                ctx.edit(move |s| *s = candidate);
            }
            Err(err) => set_err.set(Some(errors::scenario_error(err.scenario_error(), ctx.lang))),
        }
    };

    view! {
        <fieldset class="group model">
            <legend>{e.model}</legend>
            <div class="control">
                <label for="model-search">{ps.model_search}</label>
                <input
                    id="model-search"
                    type="search"
                    list="model-list"
                    autocomplete="off"
                    placeholder=ps.model_search_hint
                    prop:value=move || current_label.get()
                    on:change=move |ev| {
                        let text = event_target_value(&ev);
                        match lookup(&text) {
                            Some(id) => try_model(ModelSpec::Id(id.to_owned()), set_search_error),
                            None if text.trim().is_empty() => {}
                            None => set_search_error.set(Some(errors::scenario_error(
                                &ScenarioError::new(
                                    "model",
                                    ErrorKind::UnknownId {
                                        catalogue: Catalogue::Model,
                                        id: text.trim().to_owned(),
                                        known: crate::engine::closest::closest_ids(
                                            text.trim(),
                                            &models::ids().into_iter().map(str::to_owned).collect::<Vec<_>>(),
                                            crate::engine::closest::SUGGESTED_IDS,
                                        ),
                                    },
                                ),
                                ctx.lang,
                            ))),
                        }
                    }
                />
                <datalist id="model-list" inner_html=model_options()></datalist>
                {move || search_error.get().map(|m| view! { <p class="field-error" role="alert">{m}</p> })}
                {move || source.get().map(|(src, date, verified, format)| {
                    let first = src.split([';', ' ']).find(|p| p.starts_with("http")).unwrap_or("").to_owned();
                    let shown = first.trim_start_matches("https://").trim_start_matches("http://").to_owned();
                    view! {
                        <p class="model-source">
                            {e.source} {ctx.lang.colon()}
                            <a href=first target="_blank" rel="noopener" data-source="">{shown}</a>
                            " · " {date} " · " {ps.published_as} " " <span id="model-format">{format}</span>
                            {(!verified).then(|| view! { " · " <span class="uncertain">{ps.unverified}</span> })}
                        </p>
                    }
                })}
                <div inner_html=move || inferred.get()></div>
                <div inner_html=move || quant.get()></div>
                <div inner_html=move || gguf.get()></div>
            </div>
            <super::gguf_drop::GgufDrop />
            <details class="control paste">
                <summary>{ps.paste_config}</summary>
                <textarea
                    id="config-paste"
                    rows="6"
                    spellcheck="false"
                    placeholder=ps.paste_placeholder
                    prop:value=move || pasted.get()
                    on:input=move |ev| pasted.set(event_target_value(&ev))
                ></textarea>
                <button id="config-apply" on:click=move |_| {
                    match serde_json::from_str::<serde_json::Value>(&pasted.get_untracked()) {
                        Ok(v) if v.is_object() => try_model(ModelSpec::Config(v), set_paste_error),
                        Ok(_) => set_paste_error.set(Some(errors::scenario_error(
                            &ScenarioError::new("config.json", ErrorKind::NotAnObject),
                            ctx.lang,
                        ))),
                        Err(err) => set_paste_error.set(Some(errors::scenario_error(
                            &ScenarioError::new("config.json", classify_serde(&err)),
                            ctx.lang,
                        ))),
                    }
                }>{ctx.lang.est_panels().apply}</button>
                {move || paste_error.get().map(|m| view! { <p class="field-error" role="alert" id="config-error">{m}</p> })}
            </details>
            <details class="control by-hand">
                <summary>{ps.by_hand}</summary>
                <p class="hint">{ps.by_hand_note}</p>
                <div class="hand-grid">
                    <label>{e.params} " (B)"
                        <input type="number" id="hand-params" min="0.01" step="0.1" prop:value=move || hand.get().0.to_string()
                            on:change=move |ev| { if let Ok(v) = event_target_value(&ev).parse::<f64>() { hand.update(|h| h.0 = v) } } />
                    </label>
                    <label>{e.layers}
                        <input type="number" id="hand-layers" min="1" step="1" prop:value=move || hand.get().1.to_string()
                            on:change=move |ev| { if let Ok(v) = event_target_value(&ev).parse::<u64>() { hand.update(|h| h.1 = v) } } />
                    </label>
                    <label>{e.hidden_size}
                        <input type="number" id="hand-hidden" min="64" step="64" prop:value=move || hand.get().2.to_string()
                            on:change=move |ev| { if let Ok(v) = event_target_value(&ev).parse::<u64>() { hand.update(|h| h.2 = v) } } />
                    </label>
                    <label>{ctx.lang.est_panels().kv_heads}
                        <input type="number" id="hand-kv" min="1" step="1" prop:value=move || hand.get().3.to_string()
                            on:change=move |ev| { if let Ok(v) = event_target_value(&ev).parse::<u64>() { hand.update(|h| h.3 = v) } } />
                    </label>
                </div>
                <button id="hand-apply" on:click=move |_| {
                    let (p, l, h, kv) = hand.get_untracked();
                    let params = if p.is_finite() && p > 0.0 { (p * 1e9).min(1e15) as u64 } else { 0 };
                    match config_from_sizes(params, l, h, kv) {
                        Ok(v) => try_model(ModelSpec::Config(v), set_hand_error),
                        Err(err) => set_hand_error.set(Some(errors::hand_model_error(&err, ctx.lang))),
                    }
                }>{ctx.lang.est_panels().apply}</button>
                {move || hand_error.get().map(|m| view! { <p class="field-error" role="alert">{m}</p> })}
            </details>
        </fieldset>
    }
}
