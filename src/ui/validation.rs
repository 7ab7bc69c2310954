//! The validation page: the engine's expected values and bounds next to published measurements
//! (the same table as `gpu-primer validate`).

use crate::charts::format::format_sig3;
use crate::i18n::validation::unit;
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
            <table class="data-table" id="validation-summary">
                <thead><tr><th>{v.kind}</th><th>{v.rows}</th><th>{v.median_error}</th><th>{v.violations}</th></tr></thead>
                <tbody>
                    {table.summary.iter().map(|k| view! {
                        <tr>
                            <td><code>{k.kind.clone()}</code></td>
                            <td class="num">{k.rows}</td>
                            <td class="num">{format!("{}%", format_sig3(k.median_abs_error_pct))}</td>
                            <td class="num" data-violations=k.bound_violations.to_string()>{k.bound_violations}</td>
                        </tr>
                    }).collect_view()}
                </tbody>
            </table>
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
                                <td><code>{r.kind.clone()}</code></td>
                                <td title=r.model.clone()>{crate::i18n::validation::model(&r.conditions, lang)}</td>
                                <td title=r.gpu.clone()><code>{r.conditions.gpu.clone()}</code></td>
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
                {table.not_expressed.iter().map(|n| view! { <li>"#" {n.index} " " <code>{n.kind.clone()}</code> " (" {n.model.clone()} "): " {crate::i18n::validation::reason(&n.reason, lang)}</li> }).collect_view()}
            </ul>
        </article>
    }
}
