//! Time and throughput: the expected value next to the roofline best case for each phase (the
//! shortest possible time, the highest possible rate: `≥` and `≤` by quantity), which term
//! bounds it and by how much, with the derivation of every number.

use super::math::ShowMath;
use super::Ctx;
use crate::charts::format::{format_rate, format_seconds, format_sig3};
use crate::engine::bound::Term;
use crate::i18n::facts::{bound_cell, Bounded};
use crate::i18n::EstimatorStrings;
#[cfg(feature = "estimator")]
use crate::{
    engine::perf::training::run::TrainingReport, engine::workload::FlopConvention,
    i18n::EstimatorPanelStrings,
};
use leptos::prelude::*;

pub fn term_name(t: Term, e: &'static EstimatorStrings) -> &'static str {
    match t {
        Term::Compute => e.term_compute,
        Term::Memory => e.term_memory,
        Term::Communication => e.term_communication,
        Term::Overhead => e.term_overhead,
        Term::Host => e.term_host,
    }
}

#[derive(Clone, PartialEq)]
struct Row {
    label: &'static str,
    key: &'static str,
    expected: String,
    bound: String,
    id: &'static str,
}

#[cfg(feature = "estimator")]
/// The report paths of a training step's parts, in the order of `TrainingQty::STEP_PARTS`
/// (a test holds them to it), with the element id of each row.
const STEP_PART_ROWS: [(&str, &str); 13] = [
    ("training.step.gemm_s", "step-gemm"),
    ("training.step.attention_s", "step-attention"),
    ("training.step.elementwise_s", "step-elementwise"),
    ("training.step.loss_s", "step-loss"),
    ("training.step.recompute_s", "step-recompute"),
    ("training.step.optimizer_s", "step-optimizer"),
    ("training.step.tensor_parallel_s", "step-tp"),
    ("training.step.context_parallel_s", "step-cp"),
    ("training.step.expert_parallel_s", "step-ep"),
    ("training.step.fsdp_s", "step-fsdp"),
    ("training.step.data_parallel_s", "step-dp"),
    ("training.step.pipeline_bubble_s", "step-bubble"),
    ("training.step.launch_s", "step-launch"),
];

#[cfg(feature = "estimator")]
fn percent(x: f64) -> String {
    format!("{}%", format_sig3(x * 100.0))
}

#[cfg(feature = "estimator")]
/// Where the step's time goes, right under the step: each part that takes time with its seconds,
/// its share of the step and its derivation (the parts sum to the step).
fn step_part_rows(rows: &mut Vec<Row>, t: &TrainingReport, e: &'static EstimatorPanelStrings) {
    let step = t.step.total();
    for ((label, (key, id)), secs) in e.step_parts.iter().zip(STEP_PART_ROWS).zip(t.step.parts()) {
        if secs > 0.0 && step > 0.0 {
            rows.push(Row {
                label,
                key,
                expected: format!("{} · {}", format_seconds(secs), percent(secs / step)),
                bound: String::new(),
                id,
            });
        }
    }
}

/// The prefill's and the decode step's all-reduce rows: (derivation key, element id).
#[cfg(feature = "estimator")]
const TP_ROWS: [(&str, &str); 2] = [
    ("phases.prefill.tensor_parallel_comm_s", "tp-all-reduce-prefill"),
    ("phases.decode.tensor_parallel_comm_s", "tp-all-reduce"),
];

/// A phase's tensor-parallel all-reduces as their own row, whose math names the kernel, the
/// message and the calls. The estimator's page only: its strings stay out of the course's bundle.
#[cfg(feature = "estimator")]
fn tp_all_reduce_row(
    rows: &mut Vec<Row>,
    phase: &crate::engine::perf::report::PhaseReport,
    (key, id): (&'static str, &'static str),
    label: &'static str,
) {
    if phase.tp_all_reduce.is_some() && phase.tensor_parallel_comm_s > 0.0 {
        rows.push(Row {
            label,
            key,
            expected: format_seconds(phase.tensor_parallel_comm_s),
            bound: String::new(),
            id,
        });
    }
}

#[cfg(feature = "estimator")]
/// What training frameworks log: tokens/s per GPU, MFU with its FLOP convention named, and HFU
/// (always the causal count plus the recomputation).
fn utilisation_rows(rows: &mut Vec<Row>, t: &TrainingReport, e: &'static EstimatorPanelStrings, tok_s: &str) {
    let rate = |v: f64| token_rate(v, tok_s);
    rows.push(Row {
        label: e.training_per_gpu,
        key: "training.tokens_per_s_per_gpu",
        expected: rate(t.tokens_per_s_per_gpu),
        bound: bound_cell(Bounded::Rate, &rate(t.tokens_per_s_per_gpu_bound)),
        id: "training-per-gpu",
    });
    rows.push(Row {
        label: e.training_mfu,
        key: "training.mfu",
        expected: format!("{} · {}", percent(t.mfu), t.convention.name()),
        bound: String::new(),
        id: "training-mfu",
    });
    rows.push(Row {
        label: e.training_hfu,
        key: "training.hfu",
        expected: format!("{} · {}", percent(t.hfu), FlopConvention::MegatronCausal.name()),
        bound: String::new(),
        id: "training-hfu",
    });
}

/// Picks one string out of the panel's text.
type Pick = Box<dyn Fn(&PanelText) -> Option<String> + Send + Sync>;

#[component]
pub fn PerformanceView() -> impl IntoView {
    let ctx = expect_context::<Ctx>();
    let e = ctx.lang.est();
    // The panel's text, formatted: nothing changes in the page when an edit moves a number only
    // below its third significant digit.
    let text = Memo::new(move |_| ctx.with_shown(|r| r.map(|r| panel_text(r, e, ctx.lang))));
    // The panel's structure (which rows and phases): rebuilt only when it changes (a switch
    // between serving and training); an edit otherwise updates the text of the cells in place,
    // one `Memo` per displayed string.
    let shape = Memo::new(move |_| {
        text.with(|t| {
            t.as_ref().map(|t| {
                let rows: Vec<_> = t.rows.iter().map(|r| (r.label, r.key, r.id)).collect();
                let phases: Vec<_> = t.phases.iter().map(|p| p.0).collect();
                (rows, phases)
            })
        })
    });
    // What one user of the static batch waits in a closed loop of as many users (one
    // simulation), or where the load model already says it; empty in training.
    let users_wait = Memo::new(move |_| {
        ctx.with_scenario(|s| {
            if s.mode != crate::engine::workload::Mode::Inference {
                return String::new();
            }
            if s.concurrent_users.is_some_and(|u| u > 0) || s.arrival_rate_per_s.is_some_and(|r| r > 0.0) {
                return e.users_wait_in_load.to_owned();
            }
            let Ok(Some(l)) = crate::estimator::load_panel::users_wait(s) else { return String::new() };
            let (Some(p50), Some(p95), Some(users)) = (l.ttft_p50_s, l.ttft_p95_s, l.concurrent_users) else {
                return String::new();
            };
            let batch = text.with(|t| {
                t.as_ref().and_then(|t| t.rows.iter().find(|r| r.id == "ttft").map(|r| r.expected.clone()))
            });
            crate::i18n::users_wait(
                ctx.lang,
                users,
                &format_seconds(p50),
                &format_seconds(p95),
                &batch.unwrap_or_default(),
            )
        })
    });
    // One string of the panel's text (empty when it has none).
    let cell = move |f: Pick| Memo::new(move |_| text.with(|t| t.as_ref().and_then(&f).unwrap_or_default()));
    move || {
        let Some((rows, phases)) = shape.get() else {
            return ().into_any();
        };
        let bound_text = cell(Box::new(|t| Some(t.bound_text.clone())));
        let bound_attr = cell(Box::new(|t| Some(t.bound_attr.clone())));
        view! {
            <div class="panel performance">
                <h2>{e.performance}</h2>
                <p class="hint static-batch">{e.performance_static}</p>
                <div class="bound-line" id="bound" data-bound=move || bound_attr.get()>
                    <strong>{move || bound_text.get()}</strong>
                    <ShowMath key="bound" />
                </div>
                <table class="key-numbers perf-table">
                    <thead><tr><td></td><th>{e.expected}</th><th title=e.roofline_best_note>{e.roofline_best}</th><td></td></tr></thead>
                    <tbody>
                        {rows.into_iter().enumerate().map(|(i, (label, key, id))| {
                            let expected = cell(Box::new(move |t| t.rows.get(i).map(|r| r.expected.clone())));
                            let bound = cell(Box::new(move |t| t.rows.get(i).map(|r| r.bound.clone())));
                            view! {
                                <tr>
                                    <th scope="row">{label}</th>
                                    <td class="num" id=id>{move || expected.get()}</td>
                                    <td class="num bound">{move || bound.get()}</td>
                                    <td><ShowMath key=key /></td>
                                </tr>
                            }
                        }).collect_view()}
                    </tbody>
                </table>
                <p class="hint users-wait" id="ttft-one-user" hidden=move || users_wait.with(String::is_empty)>
                    {move || users_wait.get()}
                </p>
                <p class="intensity">
                    {phases.into_iter().enumerate().map(|(i, name)| {
                        let ai = cell(Box::new(move |t| t.phases.get(i).map(|p| p.1.clone())));
                        let ridge = cell(Box::new(move |t| t.phases.get(i).map(|p| p.2.clone())));
                        let path = cell(Box::new(move |t| t.phases.get(i).map(|p| p.3.clone())));
                        view! {
                            <span class="phase-ai">
                                {e.phase(name)} {ctx.lang.colon()} {e.arithmetic_intensity} " " {move || ai.get()} " FLOP/B · "
                                {e.ridge_point} " " {move || ridge.get()} " FLOP/B (" {move || path.get()} ")"
                            </span>
                        }
                    }).collect_view()}
                </p>
            </div>
        }
        .into_any()
    }
}

/// Everything the performance panel shows, as text.
#[derive(Clone, PartialEq)]
struct PanelText {
    rows: Vec<Row>,
    bound_text: String,
    bound_attr: String,
    /// (phase, arithmetic intensity, ridge point, compute path)
    phases: Vec<(&'static str, String, String, String)>,
}

/// A token rate as the panel prints it: "853 tokens/s", "54.6 k token/s" (the unit in the page's
/// words, one space before it).
fn token_rate(v: f64, tok_s: &str) -> String {
    format_rate(v, &format!(" {tok_s}")).replace("  ", " ")
}

fn panel_text(r: &crate::engine::Report, e: &'static EstimatorStrings, lang: crate::i18n::Lang) -> PanelText {
    let p = &r.performance;
    let tok = |v: f64| token_rate(v, e.tok_s);
    let mut rows = Vec::new();
    if let (Some(step), Some(step_b)) = (p.time.step_s, p.time.step_s_bound) {
        rows.push(Row {
            label: e.training_step,
            key: "time.step_s",
            expected: format_seconds(step),
            bound: bound_cell(Bounded::Time, &format_seconds(step_b)),
            id: "step-time",
        });
        // The estimator's page only: the course's widgets that show this panel (roofline,
        // bound) stay without these rows and their strings, which keeps them out of the course's
        // bundle.
        #[cfg(feature = "estimator")]
        if let Some(t) = &p.training {
            step_part_rows(&mut rows, t, lang.est_panels());
        }
        if let (Some(t), Some(tb)) = (p.throughput.tokens_per_s, p.throughput.tokens_per_s_bound) {
            rows.push(Row {
                label: e.training_throughput,
                key: "throughput.tokens_per_s",
                expected: tok(t),
                bound: bound_cell(Bounded::Rate, &tok(tb)),
                id: "training-throughput",
            });
        }
        #[cfg(feature = "estimator")]
        if let Some(t) = &p.training {
            utilisation_rows(&mut rows, t, lang.est_panels(), e.tok_s);
        }
    } else {
        rows.push(Row {
            label: e.prefill,
            key: "time.prefill_s",
            expected: format_seconds(p.time.prefill_s),
            bound: bound_cell(Bounded::Time, &format_seconds(p.time.prefill_s_bound)),
            id: "prefill-time",
        });
        #[cfg(feature = "estimator")]
        tp_all_reduce_row(&mut rows, &p.phases.prefill, TP_ROWS[0], lang.est_panels().tp_all_reduce_prefill);
        if p.time.prefix_cached_tokens > 0 {
            // With KV tiers the cached tokens are their mean over the tiers: shown as a share of
            // the prompt, not as the hit rate asked for.
            let cached = match p.time.kv_tiers {
                Some(_) => p.time.prefix_cached_tokens as f64 / p.workload.prompt_tokens.max(1) as f64,
                None => p.time.prefix_hit_rate,
            };
            rows.push(Row {
                label: e.prefix_cached,
                key: "time.prefix_cached_tokens",
                expected: format!(
                    "{} {} ({}%)",
                    p.time.prefix_cached_tokens,
                    e.u_tokens,
                    format_sig3(cached * 100.0)
                ),
                bound: String::new(),
                id: "prefix-cached",
            });
        }
        if let Some(k) = &p.time.kv_tiers {
            rows.push(Row {
                label: e.kv_tier_shares,
                key: "time.kv_tiers.gpu_share",
                expected: crate::i18n::kv_tier_shares(k, lang),
                bound: String::new(),
                id: "kv-tier-shares",
            });
            rows.push(Row {
                label: e.kv_restore,
                key: "time.kv_tiers.restore_s",
                expected: format_seconds(k.restore_s),
                bound: String::new(),
                id: "kv-restore",
            });
        }
        rows.push(Row {
            label: e.decode_step,
            key: "time.decode_step_s",
            expected: format_seconds(p.time.decode_step_s),
            bound: bound_cell(Bounded::Time, &format_seconds(p.time.decode_step_s_bound)),
            id: "decode-step",
        });
        #[cfg(feature = "estimator")]
        tp_all_reduce_row(&mut rows, &p.phases.decode, TP_ROWS[1], lang.est_panels().tp_all_reduce);
        if p.phases.decode.expert_parallel_comm_s > 0.0 {
            rows.push(Row {
                label: e.ep_exchange,
                key: "phases.decode.expert_parallel_comm_s",
                expected: format_seconds(p.phases.decode.expert_parallel_comm_s),
                bound: String::new(),
                id: "ep-exchange",
            });
        }
        if let Some(sp) = &p.speculative {
            rows.push(Row {
                label: e.spec_tokens_per_step,
                key: "speculative.expected_tokens_per_step",
                expected: format!("{} (γ {})", format_sig3(sp.expected_tokens_per_step), sp.draft_tokens),
                bound: String::new(),
                id: "spec-tokens-per-step",
            });
            rows.push(Row {
                label: e.spec_tpot,
                key: "speculative.time_per_output_token_s",
                expected: format!(
                    "{} (×{})",
                    format_seconds(sp.time_per_output_token_s),
                    format_sig3(sp.speedup)
                ),
                bound: bound_cell(Bounded::Time, &format_seconds(sp.time_per_output_token_s_bound)),
                id: "spec-tpot",
            });
        }
        rows.push(Row {
            label: e.ttft,
            key: "time.time_to_first_token_s",
            expected: format_seconds(p.time.time_to_first_token_s),
            bound: bound_cell(Bounded::Time, &format_seconds(p.time.prefill_s_bound)),
            id: "ttft",
        });
        rows.push(Row {
            label: e.decode_throughput,
            key: "throughput.decode_tokens_per_s",
            expected: tok(p.throughput.decode_tokens_per_s),
            bound: bound_cell(Bounded::Rate, &tok(p.throughput.decode_tokens_per_s_bound)),
            id: "decode-throughput",
        });
        rows.push(Row {
            label: e.per_user,
            key: "throughput.per_user_tokens_per_s",
            expected: tok(p.throughput.per_user_tokens_per_s),
            bound: bound_cell(Bounded::Rate, &tok(p.throughput.per_user_tokens_per_s_bound)),
            id: "per-user",
        });
        let cost = p
            .serving
            .estimate
            .cost_per_million_tokens
            .map(|c| format!("${}", format_sig3(c)))
            .unwrap_or_else(|| e.no_price.to_owned());
        rows.push(Row {
            label: e.cost_per_million,
            key: "serving.cost_per_million_tokens",
            expected: cost,
            bound: String::new(),
            id: "cost",
        });
    }
    let bound_text = match p.bound_ratio {
        Some(x) => {
            format!(
                "{}{}{} · {} {}",
                e.bound_is,
                lang.colon(),
                term_name(p.bound, e),
                format_sig3(x),
                e.times_next
            )
        }
        None => format!("{}{}{}", e.bound_is, lang.colon(), term_name(p.bound, e)),
    };
    let phases = [
        ("prefill", Some(&p.phases.prefill)),
        ("decode", Some(&p.phases.decode)),
        ("training", p.phases.training.as_ref()),
    ]
    .into_iter()
    .filter_map(|(n, ph)| {
        ph.map(|ph| {
            (
                n,
                format_sig3(ph.arithmetic_intensity),
                format_sig3(ph.ridge_point),
                crate::i18n::facts::compute_path(&ph.path, lang),
            )
        })
    })
    .collect();
    PanelText { rows, bound_text, bound_attr: p.bound.name().to_owned(), phases }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::i18n::Lang;

    /// The tiers' rows come with open sessions only: where the histories are served from (the
    /// shares sum to 100%) and the mean restore, each keyed to its derivation.
    #[test]
    fn kv_tier_rows_show_the_shares_and_the_restore() {
        let base = serde_json::json!({"model": "llama-3.1-8b", "gpu": "h100-sxm", "context_tokens": 8192,
            "prefix_hit_rate": 0.9, "kv_cpu_tier_bytes": 100_000_000_000u64});
        let r = crate::catalog::evaluate(&crate::engine::Scenario::from_json(&base).unwrap()).unwrap();
        assert!(panel_text(&r, Lang::En.est(), Lang::En).rows.iter().all(|row| !row.id.starts_with("kv-")));
        let mut with = base.clone();
        with["prefix_open_sessions"] = 200.into();
        let r = crate::catalog::evaluate(&crate::engine::Scenario::from_json(&with).unwrap()).unwrap();
        let k = r.performance.time.kv_tiers.unwrap();
        let cpu = k.cpu.unwrap();
        assert!(k.gpu_share > 0.0 && cpu.restored && cpu.share > 0.0 && k.recomputed_share > 0.0);
        for lang in Lang::ALL {
            let t = panel_text(&r, lang.est(), lang);
            let row = |id: &str| t.rows.iter().find(|row| row.id == id).unwrap().clone();
            let shares = row("kv-tier-shares");
            assert_eq!(shares.key, "time.kv_tiers.gpu_share");
            assert!(r.derivation(shares.key).is_some() && r.derivation("time.kv_tiers.restore_s").is_some());
            let pcts: Vec<f64> = shares
                .expected
                .split(" · ")
                .map(|p| p.rsplit('\u{a0}').next().unwrap().trim_end_matches('%').parse().unwrap())
                .collect();
            assert_eq!(pcts.len(), 3, "GPU, CPU, recomputed: {}", shares.expected);
            assert!((pcts.iter().sum::<f64>() - 100.0).abs() < 0.2, "{}", shares.expected);
            assert!(shares.expected.starts_with(&format!("GPU\u{a0}{}%", format_sig3(k.gpu_share * 100.0))));
            assert_eq!(row("kv-restore").expected, format_seconds(k.restore_s));
            // The cached tokens are the mean over the tiers, their share of the prompt beside them.
            let share =
                r.performance.time.prefix_cached_tokens as f64 / r.performance.workload.prompt_tokens as f64;
            assert!(share < 0.9, "fewer than the 90% asked for: {share}");
            assert!(row("prefix-cached").expected.ends_with(&format!("({}%)", format_sig3(share * 100.0))));
        }
    }

    /// Training shows what frameworks log (tokens/s per GPU, MFU with its FLOP convention) and
    /// where the step goes: each part that takes time, keyed to its derivation, the shares
    /// summing to the whole step; the row paths follow the engine's order of the parts.
    #[test]
    #[cfg(feature = "estimator")]
    fn training_rows_show_mfu_and_where_the_step_goes() {
        use crate::engine::derivation::TrainingQty;
        for ((key, _), q) in STEP_PART_ROWS.iter().zip(TrainingQty::STEP_PARTS) {
            assert_eq!(*key, format!("training.{}", q.path()));
        }
        let json = serde_json::json!({"model": "llama-3.1-70b", "gpu": "h100-sxm", "mode": "training", "gpus": 64,
            "tensor_parallel": 8, "pipeline_parallel": 4, "zero_stage": 1, "micro_batches": 16, "context_tokens": 4096});
        let r = crate::catalog::evaluate(&crate::engine::Scenario::from_json(&json).unwrap()).unwrap();
        let t = r.performance.training.as_ref().unwrap();
        for lang in Lang::ALL {
            let e = lang.est();
            let text = panel_text(&r, e, lang);
            let row = |id: &str| text.rows.iter().find(|row| row.id == id).cloned();
            let mfu = row("training-mfu").unwrap();
            assert!(
                mfu.expected.starts_with(&format!("{}%", format_sig3(t.mfu * 100.0))),
                "{}",
                mfu.expected
            );
            assert!(mfu.expected.contains("megatron_causal"), "{}", mfu.expected);
            assert!(row("training-per-gpu").is_some());
            let parts: Vec<_> =
                text.rows.iter().filter(|row| row.id.starts_with("step-") && row.id != "step-time").collect();
            // GEMMs, attention, element-wise, loss, optimizer, TP, the bubble at least.
            assert!(parts.len() >= 7, "{parts:?}", parts = parts.iter().map(|p| p.id).collect::<Vec<_>>());
            assert!(row("step-bubble").is_some() && row("step-tp").is_some() && row("step-cp").is_none());
            let mut share = 0.0;
            for p in &parts {
                assert!(r.derivation(p.key).is_some(), "{}", p.key);
                let pct = p.expected.rsplit(" · ").next().unwrap().trim_end_matches('%');
                share += pct.parse::<f64>().unwrap();
            }
            assert!((share - 100.0).abs() < 0.5, "{share}");
            // The parts sit right under the step, the framework figures after the throughput.
            let ids: Vec<_> = text.rows.iter().map(|row| row.id).collect();
            let at = |id: &str| ids.iter().position(|i| *i == id).unwrap();
            assert_eq!(at("step-gemm"), at("step-time") + 1, "{ids:?}");
            assert!(at("training-throughput") > at("step-bubble"), "{ids:?}");
            assert_eq!(
                [at("training-per-gpu"), at("training-mfu"), at("training-hfu")],
                [at("training-throughput") + 1, at("training-throughput") + 2, at("training-throughput") + 3]
            );
            let hfu = row("training-hfu").unwrap();
            assert_eq!(hfu.expected, format!("{}% · megatron_causal", format_sig3(t.hfu * 100.0)));
            // Each label names its own part (a swapped label fails here).
            let label = |id: &str| row(id).unwrap().label;
            let (bubble, exposed, gemm) = match lang {
                Lang::Zh => ("气泡", "未被掩盖", "矩阵乘"),
                Lang::En => ("bubble", "exposed", "GEMM"),
            };
            assert!(label("step-bubble").contains(bubble) && label("step-gemm").contains(gemm));
            assert!(label("step-tp").contains(exposed) && label("step-dp").contains(exposed));
            assert!(!label("step-bubble").contains(exposed));
        }
    }

    /// Issue 33, class 1: the roofline column holds times and rates, so each cell says which
    /// way it bounds (a time is at least its roofline figure, a rate at most), and the header
    /// names neither direction.
    #[test]
    fn each_roofline_cell_bounds_its_own_quantity() {
        for json in [
            serde_json::json!({"model": "llama-3.1-8b", "gpu": "h100-sxm"}),
            serde_json::json!({"model": "llama-3.1-8b", "mode": "training", "gpus": 8, "zero_stage": 2}),
        ] {
            let s = crate::engine::Scenario::from_json(&json).unwrap();
            let r = crate::catalog::evaluate(&s).unwrap();
            for lang in Lang::ALL {
                let e = lang.est();
                for word in ["上界", "上限", "下限", "upper", "lower"] {
                    assert!(!e.roofline_best.contains(word), "{}", e.roofline_best);
                }
                let t = panel_text(&r, e, lang);
                assert!(t.rows.len() >= 2);
                for row in t.rows.iter().filter(|row| !row.bound.is_empty()) {
                    let want = if row.key.starts_with("time.") { "≥ " } else { "≤ " };
                    assert!(row.bound.starts_with(want), "{} {}: {}", lang.code(), row.key, row.bound);
                }
            }
        }
    }
}
