//! The model's key numbers and the solvers' answers, each with its derivation.

use super::math::ShowMath;
use super::Ctx;
use crate::charts::format::{format_bytes, format_tokens};
use leptos::prelude::*;

/// The part of the report the key numbers show.
#[derive(Clone, PartialEq)]
struct KeyData {
    name: String,
    params: crate::engine::report::Params,
    kv_cache_bytes_per_token: u64,
    solvers: crate::engine::report::Solvers,
    assumptions: Vec<crate::engine::assumption::Assumption>,
}

#[component]
pub fn KeyNumbers() -> impl IntoView {
    let ctx = expect_context::<Ctx>();
    let e = ctx.lang.est();
    // Only what this panel shows: an edit that changes none of it (an efficiency factor, the
    // price) rebuilds nothing here.
    let shown = Memo::new(move |_| {
        ctx.with_shown(|r| {
            r.map(|r| KeyData {
                name: r.model.name.clone(),
                params: r.params.clone(),
                kv_cache_bytes_per_token: r.kv_cache_bytes_per_token,
                solvers: r.solvers.clone(),
                assumptions: r.assumptions.clone(),
            })
        })
    });
    // The state's unit alone (reading `ctx.unit()` in the view would track every edit).
    let unit = Memo::new(move |_| ctx.unit());
    move || {
        let Some(r) = shown.get() else { return ().into_any() };
        let unit = unit.get();
        let count = |n: u64| format!("{} ({})", params_text(n), group_digits(n));
        let mut rows: Vec<(&'static str, &'static str, String, &'static str)> = vec![
            (e.params_total, "params.total", count(r.params.total), "params-total"),
            (e.params_active, "params.active", count(r.params.active), "params-active"),
        ];
        if r.params.trainable > 0 {
            rows.push((
                e.params_trainable,
                "params.trainable",
                count(r.params.trainable),
                "params-trainable",
            ));
        }
        rows.push((
            e.kv_per_token,
            "kv_cache_bytes_per_token",
            kv_text(r.kv_cache_bytes_per_token, unit),
            "kv-per-token",
        ));
        let impossible = e.impossible;
        rows.push((
            e.longest_context,
            "solvers.max_context_tokens",
            r.solvers
                .max_context_tokens
                .map(|n| format!("{} {}", format_tokens(n), e.u_tokens))
                .unwrap_or_else(|| impossible.into()),
            "max-context",
        ));
        rows.push((
            e.largest_batch,
            "solvers.max_batch",
            r.solvers.max_batch.map(|n| n.to_string()).unwrap_or_else(|| impossible.into()),
            "max-batch",
        ));
        rows.push((
            e.fewest_gpus,
            "solvers.min_gpus",
            r.solvers
                .min_gpus
                .as_ref()
                .map(|g| {
                    format!(
                        "{} (TP {} × PP {} × DP {})",
                        g.gpus, g.tensor_parallel, g.pipeline_parallel, g.data_parallel
                    )
                })
                .unwrap_or_else(|| impossible.into()),
            "min-gpus",
        ));
        view! {
            <div class="panel numbers">
                <h2>{r.name.clone()}</h2>
                <table class="key-numbers">
                    <tbody>
                        {rows
                            .into_iter()
                            .map(|(label, key, text, id)| view! {
                                <tr>
                                    <th scope="row">{label}</th>
                                    <td class="num" id=id>{text}</td>
                                    <td><ShowMath key=key /></td>
                                </tr>
                            })
                            .collect_view()}
                    </tbody>
                </table>
                <ul class="assumptions">
                    {r.assumptions.iter().map(|a| view! { <li>{crate::i18n::facts::assumption(a, ctx.lang)}</li> }).collect_view()}
                </ul>
            </div>
        }
        .into_any()
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

/// 8030261248 → "8,030,261,248".
pub fn group_digits(n: u64) -> String {
    let s = n.to_string();
    let mut out = String::with_capacity(s.len() + s.len() / 3);
    for (i, c) in s.chars().enumerate() {
        if i > 0 && (s.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}
