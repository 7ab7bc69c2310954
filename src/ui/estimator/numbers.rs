//! The model's key numbers and the solvers' answers, each with its derivation.

use super::math::ShowMath;
use super::Ctx;
use crate::charts::format::{format_bytes, format_tokens};
use leptos::prelude::*;

/// Everything the key-numbers panel shows, as text.
#[derive(Clone, PartialEq)]
struct KeyText {
    name: String,
    /// (label, report key, value, element id)
    rows: Vec<(&'static str, &'static str, String, &'static str)>,
    assumptions: Vec<String>,
}

fn key_text(r: &crate::engine::Report, unit: crate::charts::format::ByteUnit, ctx: Ctx) -> KeyText {
    let e = ctx.lang.est();
    let count = |n: u64| format!("{} ({})", params_text(n), crate::charts::format::group_digits(n));
    let mut rows = vec![
        (e.params_total, "params.total", count(r.params.total), "params-total"),
        (e.params_active, "params.active", count(r.params.active), "params-active"),
    ];
    if r.params.trainable > 0 {
        rows.push((e.params_trainable, "params.trainable", count(r.params.trainable), "params-trainable"));
    }
    rows.push((
        e.kv_per_token,
        "kv_cache_bytes_per_token",
        kv_text(r.kv_cache_bytes_per_token, unit),
        "kv-per-token",
    ));
    let impossible = || e.impossible.to_owned();
    let s = &r.solvers;
    rows.push((
        e.longest_context,
        "solvers.max_context_tokens",
        s.max_context_tokens.map_or_else(impossible, |n| format!("{} {}", format_tokens(n), e.u_tokens)),
        "max-context",
    ));
    rows.push((
        e.largest_batch,
        "solvers.max_batch",
        s.max_batch.map_or_else(impossible, |n| n.to_string()),
        "max-batch",
    ));
    rows.push((
        e.fewest_gpus,
        "solvers.min_gpus",
        s.min_gpus.as_ref().map_or_else(impossible, |g| {
            format!(
                "{} (TP {} × PP {} × DP {})",
                g.gpus, g.tensor_parallel, g.pipeline_parallel, g.data_parallel
            )
        }),
        "min-gpus",
    ));
    let assumptions = r.assumptions.iter().map(|a| crate::i18n::facts::assumption(a, ctx.lang)).collect();
    KeyText { name: r.model.name.clone(), rows, assumptions }
}

#[component]
pub fn KeyNumbers() -> impl IntoView {
    let ctx = expect_context::<Ctx>();
    // The state's unit alone (reading `ctx.unit()` in the view would track every edit).
    let unit = Memo::new(move |_| ctx.unit());
    let text = Memo::new(move |_| {
        let unit = unit.get();
        ctx.with_shown(|r| r.map(|r| key_text(r, unit, ctx)))
    });
    // The panel's structure (which rows): rebuilt only when it changes (a switch to fine-tuning
    // adds a row); an edit otherwise updates the text of the cells in place, one `Memo` per
    // displayed string. The assumptions' list is rebuilt only when their number changes.
    let shape = Memo::new(move |_| {
        text.with(|t| t.as_ref().map(|t| t.rows.iter().map(|r| (r.0, r.1, r.3)).collect::<Vec<_>>()))
    });
    let assumptions = Memo::new(move |_| text.with(|t| t.as_ref().map_or(0, |t| t.assumptions.len())));
    let cell = move |f: fn(&KeyText, usize) -> Option<&String>, i: usize| {
        let m =
            Memo::new(move |_| text.with(|t| t.as_ref().and_then(|t| f(t, i)).cloned().unwrap_or_default()));
        move || m.get()
    };
    move || {
        let rows = shape.get()?;
        Some(view! {
            <div class="panel numbers">
                <h2>{cell(|t, _| Some(&t.name), 0)}</h2>
                <table class="key-numbers">
                    <tbody>
                        {rows
                            .into_iter()
                            .enumerate()
                            .map(|(i, (label, key, id))| view! {
                                <tr>
                                    <th scope="row">{label}</th>
                                    <td class="num" id=id>{cell(|t, i| t.rows.get(i).map(|r| &r.2), i)}</td>
                                    <td><ShowMath key=key /></td>
                                </tr>
                            })
                            .collect_view()}
                    </tbody>
                </table>
                <ul class="assumptions">
                    {move || (0..assumptions.get()).map(|i| view! { <li>{cell(|t, i| t.assumptions.get(i), i)}</li> }).collect_view()}
                </ul>
            </div>
        })
    }
}

fn kv_text(bytes: u64, unit: crate::charts::format::ByteUnit) -> String {
    let kib = bytes as f64 / 1024.0;
    format!("{} ({} KiB)", format_bytes(bytes, unit), crate::charts::format::format_sig3(kib))
}

/// Parameter counts the way models are named: 8.03 B, 494 M, 124 M.
pub fn params_text(n: u64) -> String {
    if n >= 1_000_000_000 {
        format!("{} B", crate::charts::format::format_sig3(n as f64 / 1e9))
    } else {
        format!("{} M", crate::charts::format::format_sig3(n as f64 / 1e6))
    }
}
