//! The validation page: the engine's expected values and bounds next to published measurements
//! (the same table as `gpu-primer validate`).

use crate::charts::format::format_sig3;
use crate::i18n::validation::{kind, unit};
use crate::i18n::Lang;
use crate::validation::validation_table;
use leptos::prelude::*;

#[component]
pub fn ValidationPage(lang: Lang) -> impl IntoView {
    let v = &lang.strings().validation;
    let table = validation_table();
    view! {
        <article class="validation" data-page="validation">
            <h1>{v.title}</h1>
            <p class="lead">{v.intro}</p>
            <h2>{v.summary}</h2>
            <div class="table-scroll">
            <table class="data-table" id="validation-summary">
                <thead><tr><th>{v.kind}</th><th>{v.rows}</th><th>{v.median_error}</th><th>{v.violations}</th></tr></thead>
                <tbody>
                    {table.summary.iter().map(|k| view! {
                        <tr>
                            <td class="kind" title=k.kind.clone()>{kind(&k.kind, lang)}</td>
                            <td class="num">{k.rows}</td>
                            <td class="num">{format!("{}%", format_sig3(k.median_abs_error_pct))}</td>
                            <td class="num" data-violations=k.bound_violations.to_string()>{k.bound_violations}</td>
                        </tr>
                    }).collect_view()}
                </tbody>
            </table>
            </div>
            <div class="table-scroll">
                <table class="data-table" id="validation-rows">
                    <thead>
                        <tr>
                            <th>"#"</th><th>{v.kind}</th><th>{v.model}</th><th>{v.gpu}</th><th>{v.conditions}</th>
                            <th>{v.measured}</th><th>{v.expected}</th><th>{v.bound}</th><th>{v.error}</th><th>{v.bound_holds}</th>
                        </tr>
                    </thead>
                    <tbody>
                        {table.rows.iter().map(|r| view! {
                            <tr title=r.source.clone()>
                                <td class="num">{r.index}</td>
                                <td class="kind" title=r.kind.clone()>{kind(&r.kind, lang)}</td>
                                <td class="name" title=r.model.clone()>{model_name(&r.conditions, lang)}</td>
                                <td class="name" title=r.gpu.clone()>{gpu_name(&r.conditions.gpu)}</td>
                                <td class="conditions">{crate::i18n::validation::conditions(&r.conditions, lang)}</td>
                                <td class="num">{format!("{} {}", format_sig3(r.measured), unit(r.unit, lang))}</td>
                                <td class="num">{format!("{} {}", format_sig3(r.expected), unit(r.unit, lang))}</td>
                                <td class="num">{r.bound.map(|b| format!("{} {}", format_sig3(b), unit(r.unit, lang))).unwrap_or_else(|| "—".into())}</td>
                                <td class="num">{format!("{:+.1}%", r.error_pct)}</td>
                                <td>{match r.bound_holds { Some(true) => "✓", Some(false) => "✗", None => "—" }}</td>
                            </tr>
                        }).collect_view()}
                    </tbody>
                </table>
            </div>
            <h2>{v.not_expressed}</h2>
            <ul class="not-expressed">
                // The model as the cited source names it (transcribed, so it stays in its words).
                {table.not_expressed.iter().map(|n| view! {
                    <li>
                        "#" {n.index} " " <span title=n.kind.clone()>{kind(&n.kind, lang)}</span>
                        " (" <span class="source" data-source="" lang="en">{n.model.trim().to_string()}</span> "): "
                        {crate::i18n::validation::reason(&n.reason, lang)}
                    </li>
                }).collect_view()}
            </ul>
        </article>
    }
}

/// The catalog's display name of a row's model (its id in the cell's title), or the worded
/// GPT-style config.
fn model_name(c: &crate::validation::Conditions, lang: Lang) -> String {
    c.model
        .as_deref()
        .and_then(crate::catalog::models::find)
        .map(|e| e.model.name.clone())
        .unwrap_or_else(|| crate::i18n::validation::model(c, lang))
}

/// The catalog's display name of a GPU id; the id itself when the catalog has none (`custom`).
fn gpu_name(id: &str) -> String {
    crate::catalog::gpus::find(id).map_or_else(|| id.to_string(), |g| g.name.clone())
}
