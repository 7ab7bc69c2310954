//! The planner page as escaped HTML strings: the controls (static), the repair notice, and the
//! five steps of the plan with its chart, table and command lines (rebuilt on every change).

use super::command;
use super::disagg::{self, Disagg, Outcome};
use super::state::{self, plain, Field, PlanState, KV, WEIGHTS};
use super::{Candidate, Capacity, Limit, Plan, Verdict, HOURS_PER_MONTH};
use crate::catalog::{self, gpus};
use crate::charts::format::{format_bytes, format_seconds, format_sig3, group_digits, ByteUnit};
use crate::charts::latency_load::{latency_load_svg, LatencyLoadChart, LatencyPanel};
use crate::html::escape as esc;
use crate::i18n::plan::agree;
use crate::i18n::Lang;
use crate::tools::cloud::money as usd;
use std::fmt::Write;

fn option(out: &mut String, value: &str, label: &str, selected: bool) {
    let sel = if selected { " selected" } else { "" };
    let _ = write!(out, "<option value=\"{}\"{sel}>{}</option>", esc(value), esc(label));
}

fn labelled(out: &mut String, id: &str, label: &str, field: &str) {
    let _ = write!(out, "<div class=\"control\"><label for=\"{id}\">{}</label>{field}</div>", esc(label));
}

fn select(id: &str, key: &str, options: &str) -> String {
    format!("<select id=\"{id}\" data-k=\"{key}\">{options}</select>")
}

/// A target's percentile menu (p50, p90, p95, p99).
fn pct_menu(key: &str, now: state::Pct) -> String {
    let mut o = String::new();
    for p in state::Pct::ALL {
        option(&mut o, p.key(), &format!("p{}", p.key()), p == now);
    }
    select(&format!("plan-{key}"), key, &o)
}

/// The controls (static: the page updates its state, not their markup).
pub fn controls_html(lang: Lang, s: &PlanState) -> String {
    let t = lang.plan();
    let mut out = String::with_capacity(6000);
    let _ = write!(out, "<fieldset class=\"plan-controls\"><legend>{}</legend>", esc(t.inputs));
    let mut o = String::new();
    for m in catalog::models::all() {
        option(&mut o, &m.model.id, &m.model.name, m.model.id == s.model);
    }
    labelled(&mut out, "plan-m", t.model, &select("plan-m", "m", &o));
    let mut o = String::new();
    option(&mut o, "auto", t.weights_auto, s.weights.is_none());
    for d in WEIGHTS {
        option(&mut o, d.name(), &d.name().to_ascii_uppercase(), Some(d) == s.weights);
    }
    labelled(&mut out, "plan-w", t.weights, &select("plan-w", "w", &o));
    let mut o = String::new();
    for d in KV {
        option(&mut o, d.name(), &d.name().to_ascii_uppercase(), d == s.kv);
    }
    labelled(&mut out, "plan-kv", t.kv, &select("plan-kv", "kv", &o));
    let mut o = String::new();
    for g in gpus::all() {
        // A GPU of the team catalog the site was built with says so (`site --catalog`).
        let name = if catalog::team::is_team_gpu(&g.id) {
            format!("{} · {}", g.name, lang.est().team_catalog)
        } else {
            g.name.clone()
        };
        option(&mut o, &g.id, &name, g.id == s.gpu);
    }
    labelled(&mut out, "plan-gpu", t.gpu, &select("plan-gpu", "gpu", &o));
    let mut o = String::new();
    for (net, name) in [state::Net::Ib, state::Net::Efa].into_iter().zip(t.net_options) {
        option(&mut o, net.key(), name, net == s.net);
    }
    labelled(&mut out, "plan-net", t.net, &select("plan-net", "net", &o));
    let pd = lang.plan_pd();
    let mut o = String::new();
    option(&mut o, "auto", pd.option_auto, s.pd == state::Pd::Auto);
    for (p, d) in state::RATIOS {
        let ratio = state::Pd::Ratio(p, d);
        let label = format!("{}{}{}", pd.option_ratio.0, ratio.key(), pd.option_ratio.1);
        option(&mut o, &ratio.key(), &label, s.pd == ratio);
    }
    option(&mut o, "off", pd.option_off, s.pd == state::Pd::Off);
    labelled(&mut out, "plan-pd", pd.control, &select("plan-pd", "pd", &o));
    let number = |key: &str, value: String, (min, max): (String, String), step: &str| {
        format!(
            "<input id=\"plan-{key}\" data-k=\"{key}\" type=\"number\" inputmode=\"decimal\" min=\"{min}\" max=\"{max}\" step=\"{step}\" value=\"{}\">",
            esc(&value)
        )
    };
    let f = |r: (f64, f64)| (plain(r.0), plain(r.1));
    let u = |r: (u64, u64)| (r.0.to_string(), r.1.to_string());
    let rows = [
        ("rate", t.rate, number("rate", plain(s.peak_rate), f(state::RATE), "any")),
        (
            "users",
            lang.plan_users().input,
            number(
                "users",
                s.peak_users.unwrap_or(0).to_string(),
                ("0".into(), state::USERS.1.to_string()),
                "1",
            ),
        ),
        ("in", t.prompt, number("in", s.prompt_tokens.to_string(), u(state::PROMPT), "1")),
        ("out", t.output, number("out", s.output_tokens.to_string(), u(state::OUTPUT), "1")),
        (
            "pre",
            t.prefix[0],
            number("pre", s.prefix_shared.to_string(), ("0".into(), state::PROMPT.1.to_string()), "1"),
        ),
        ("hit", t.prefix[1], number("hit", plain(s.hit_pct), f(state::HIT), "any")),
        ("ses", t.tiers[0], number("ses", s.sessions.to_string(), u(state::SESSIONS), "1")),
        ("cpu", t.tiers[1], number("cpu", plain(s.cpu_tier_gb), f(state::CPU_TIER_GB), "any")),
        ("ssd", t.tiers[2], number("ssd", plain(s.ssd_tier_gb), f(state::SSD_TIER_GB), "any")),
        ("gpc", t.tiers[3], {
            let mut o = String::new();
            for (on, label) in [true, false].into_iter().zip(t.gpu_cache_options) {
                option(&mut o, if on { "on" } else { "off" }, label, on == s.gpu_cache);
            }
            select("plan-gpc", "gpc", &o)
        }),
        ("ttft", t.ttft_target, number("ttft", plain(s.ttft_s), f(state::TTFT), "any")),
        ("ttftp", t.target_pct[0], pct_menu("ttftp", s.ttft_pct)),
        ("tpot", t.tpot_target, number("tpot", plain(s.tpot_ms), f(state::TPOT), "any")),
        ("tpotp", t.target_pct[1], pct_menu("tpotp", s.tpot_pct)),
        ("head", t.headroom, number("head", plain(s.headroom_pct), f(state::HEADROOM), "any")),
        ("seqs", t.max_seqs, number("seqs", s.max_seqs.to_string(), u(state::SEQS), "1")),
    ];
    for (key, label, field) in rows {
        labelled(&mut out, &format!("plan-{key}"), label, &field);
    }
    let _ = write!(out, "<p class=\"hint\">{}</p></fieldset>", esc(t.inputs_hint));
    let open = if s.config.is_some() { " open" } else { "" };
    let text = s.config.as_ref().and_then(|c| serde_json::to_string_pretty(c).ok()).unwrap_or_default();
    let _ = write!(
        out,
        "<details class=\"plan-paste\"{open}><summary>{}</summary><p class=\"hint\">{}</p><div class=\"control\"><textarea id=\"plan-cfg\" rows=\"8\" spellcheck=\"false\" aria-label=\"config.json\">{}</textarea></div><p><button type=\"button\" data-action=\"cfg\">{}</button> <button type=\"button\" data-action=\"nocfg\">{}</button></p><p class=\"error\" id=\"plan-cfg-error\" role=\"alert\" hidden></p></details>",
        esc(t.paste),
        esc(t.paste_hint),
        esc(&text),
        esc(t.use_config),
        esc(t.back_to_catalog)
    );
    out
}

/// Why a pasted config was not used, in the page's language.
pub fn config_problem(lang: Lang, p: &state::ConfigProblem) -> String {
    let t = lang.plan();
    match p {
        state::ConfigProblem::NotJson { line, column } => {
            format!("{}{line}{}{column}{}", t.bad_json.0, t.bad_json.1, t.bad_json.2)
        }
        state::ConfigProblem::NotObject => t.not_object.to_owned(),
        state::ConfigProblem::Model(e) => crate::i18n::errors::scenario_error(e, lang),
    }
}

/// The repair notice for the fields a URL had wrong (empty when none).
pub fn notice_html(lang: Lang, fields: &[Field]) -> String {
    let t = lang.plan();
    let mut out = String::new();
    for f in fields {
        let name = t.field_name(*f);
        let _ = write!(out, "<li>{}{}{}</li>", esc(t.repaired.0), esc(name), esc(t.repaired.1));
    }
    if out.is_empty() {
        out
    } else {
        format!("<ul class=\"notices\" role=\"status\">{out}</ul>")
    }
}

fn engine_error(lang: Lang, e: &crate::engine::EngineError) -> String {
    let crate::engine::EngineError::Invalid(e) = e;
    crate::i18n::errors::scenario_error(e, lang)
}

fn gb(bytes: u64) -> String {
    format_bytes(bytes, ByteUnit::Gb)
}

fn ms(s: Option<f64>) -> String {
    s.map_or_else(|| "—".to_owned(), |v| format!("{} ms", format_sig3(v * 1e3)))
}

fn secs(s: Option<f64>) -> String {
    s.map_or_else(|| "—".to_owned(), format_seconds)
}

fn rate(v: f64) -> String {
    format_sig3(v)
}

/// What breaks first; the end of a search over users is its upper bound, not saturation.
/// A target's name with its percentile ("p90 time to first token").
fn limit_text(lang: Lang, s: &PlanState, l: Limit, users: bool) -> String {
    let t = lang.plan();
    match l {
        Limit::Ttft => format!("p{}{}", s.ttft_pct.key(), t.limit_ttft),
        Limit::Tpot => format!("p{}{}", s.tpot_pct.key(), t.limit_tpot),
        Limit::Saturation if users => lang.plan_users().limit_queue.to_owned(),
        Limit::Saturation => t.limit_saturation.to_owned(),
    }
}

fn gpu_name(s: &PlanState) -> String {
    gpus::find(&s.gpu).map_or_else(|| s.gpu.clone(), |g| g.name.clone())
}

/// The plan: headline, the five steps, the chart and the math, its chart drawn for a desktop.
pub fn results_html(lang: Lang, s: &PlanState, plan: &Plan) -> String {
    results_html_at(lang, s, plan, crate::charts::DESKTOP_WIDTH)
}

/// [`results_html`] with its chart drawn `width` px wide (a phone's charts are narrower, so
/// their text is not shrunk to a few pixels).
pub fn results_html_at(lang: Lang, s: &PlanState, plan: &Plan, width: u32) -> String {
    let t = lang.plan();
    let mut out = String::with_capacity(12_000);
    if s.config.is_some() {
        let _ = write!(out, "<p class=\"banner note\">{}</p>", esc(t.using_config));
    }
    headline(&mut out, lang, s, plan);
    out.push_str("<ol class=\"plan-steps\">");
    step_weights(&mut out, lang, s, plan);
    step_state(&mut out, lang, plan);
    step_context(&mut out, lang, s, plan);
    let _ = write!(out, "<li><h2>{}</h2><p>{}</p>", esc(t.step_shard), esc(t.step_shard_lead));
    across_nodes(&mut out, lang, s, plan);
    table(&mut out, lang, s, plan);
    if let Some((c, cap)) = plan.chosen() {
        breaks(&mut out, lang, s, cap);
        let _ = write!(out, "<div class=\"chart plan-chart\">{}</div>", chart(lang, s, c, cap, plan, width));
    }
    comparison(&mut out, lang, s, plan);
    out.push_str("</li>");
    step_confirm(&mut out, lang, s, plan);
    out.push_str("</ol>");
    math(&mut out, lang, s, plan);
    out
}

fn headline(out: &mut String, lang: Lang, s: &PlanState, plan: &Plan) {
    let t = lang.plan();
    let Some((c, cap)) = plan.chosen() else {
        let (why, text) = match (no_fit_anywhere(plan), no_load_anywhere(plan)) {
            (None, Some((layout, needed, usable))) => {
                let m = t.no_plan_load;
                let tp = t.tp_words(lang, layout);
                ("load", format!("{}{tp}{}{}{}{}{}", m.0, m.1, gb(needed), m.2, gb(usable), m.3))
            }
            (fit, _) => match fit {
                Some((layout, needed, usable, weights)) => {
                    let m = t.no_plan_memory;
                    let tp = t.tp_words(lang, layout);
                    let text = format!(
                        "{}{tp}{}{}{}{}{}{}{}{}{}",
                        m.0,
                        m.1,
                        gpu_name(s),
                        m.2,
                        gb(needed),
                        m.3,
                        gb(usable),
                        m.4,
                        gb(weights),
                        m.5
                    );
                    ("memory", text)
                }
                None => ("latency", t.no_plan.to_owned()),
            },
        };
        let _ = write!(
            out,
            "<p class=\"plan-headline plan-none\" role=\"status\" data-why=\"{why}\">{}</p>",
            esc(&text)
        );
        headline_note(out, lang, plan);
        return;
    };
    let cost = cap
        .cost_per_month()
        .map_or_else(|| t.no_price.to_owned(), |v| format!("{}{}{}", t.cost_pre, usd(v), t.cost_post));
    let per = super::demand(s) / cap.replicas.max(1) as f64;
    let taken = if s.peak_users.is_some() {
        let u = lang.plan_users();
        format!(
            "{}{}{}{}",
            rate(per),
            agree(lang, per.round() as u64, u.at_peak_util),
            rate(cap.at_peak.completed_per_s),
            u.at_peak_sent
        )
    } else {
        format!("{}{}", rate(per), t.at_peak_util)
    };
    let _ = write!(
        out,
        "<p class=\"plan-headline\" role=\"status\"><strong>{}</strong>{}</p><p class=\"plan-peak\">{}</p><p class=\"hint plan-busy-note\">{}</p>",
        esc(&t.headline(lang, cap.replicas, c.layout(), cap.gpus)),
        esc(&format!("{}{}", gpu_name(s), cost)),
        esc(&format!(
            "{}{taken}{}{}{}{}{}{}{}{}{}{}",
            t.at_peak_pre,
            t.at_peak_load(lang, load_share(cap), &rate(cap.sustainable_rate_per_s), busy(cap)),
            t.at_peak_ttft.0,
            s.ttft_pct.key(),
            t.at_peak_ttft.1,
            secs(cap.at_peak.ttft(s.ttft_pct)),
            t.at_peak_tpot.0,
            s.tpot_pct.key(),
            t.at_peak_tpot.1,
            ms(cap.at_peak.tpot(s.tpot_pct)),
            t.at_peak_end
        )),
        esc(t.busy_note)
    );
    headline_note(out, lang, plan);
}

/// Under the headline, when a disaggregated deployment needs fewer GPUs (or is the only one
/// that meets the targets).
fn headline_note(out: &mut String, lang: Lang, plan: &Plan) {
    let t = lang.plan_pd();
    let Some(c) = plan.disagg.compared() else { return };
    let Some((unit, d)) = c.chosen() else { return };
    let text = match (disagg::outcome(plan), plan.chosen()) {
        (Some(Outcome::Disaggregated), Some((_, a))) => format!(
            "{}{}{}{}{}",
            t.headline_note.0,
            group_digits(d.gpus),
            t.headline_note.1,
            group_digits(a.gpus),
            t.headline_note.2
        ),
        (Some(o @ Outcome::OnlyDisaggregated), _) => {
            t.verdict(lang, o, (0, d.gpus), (d.replicas, &unit.ratio(), unit.tp))
        }
        _ => return,
    };
    let _ = write!(out, "<p class=\"plan-pd-note\" id=\"plan-pd-note\">{}</p>", esc(&text));
}

/// The planned load at peak as a share of the replica's sustainable rate, percent.
pub fn load_share(cap: &Capacity) -> f64 {
    if cap.sustainable_rate_per_s > 0.0 {
        100.0 * cap.at_peak.completed_per_s / cap.sustainable_rate_per_s
    } else {
        0.0
    }
}

/// The share of time the replica's GPUs run steps at peak, as text (`—` when unknown).
fn busy(cap: &Capacity) -> String {
    cap.at_peak.busy.map_or_else(|| "—".to_owned(), |b| format_sig3(b * 100.0))
}

/// "Serves Qwen/Qwen3-235B-A22B-FP8, the FP8 checkpoint its publisher released (URL, date): …".
fn checkpoint_text(lang: Lang, q: &catalog::models::QuantizedCheckpoint) -> String {
    let t = lang.plan();
    let url = q.source.split_whitespace().next().unwrap_or_default();
    format!(
        "{}{}{}{}{}{url}, {}{}",
        t.serves_checkpoint.0,
        q.repo,
        t.serves_checkpoint.1,
        q.format.to_ascii_uppercase(),
        t.serves_checkpoint.2,
        q.retrieved,
        t.serves_checkpoint.3
    )
}

/// When no degree holds the model in memory: the largest degree tried, what one of its GPUs
/// needs, what it has, and the weights' share (memory, not latency, is then why there is no plan).
fn no_fit_anywhere(plan: &Plan) -> Option<(super::Layout, u64, u64, u64)> {
    let fits_somewhere =
        plan.candidates.iter().any(|c| !matches!(c.verdict, Verdict::DoesNotFit { .. } | Verdict::Engine(_)));
    if fits_somewhere {
        return None;
    }
    plan.candidates.iter().rev().find_map(|c| match c.verdict {
        Verdict::DoesNotFit { needed_bytes, usable_bytes } => {
            let weights = c.report.as_ref().map_or(0, |r| r.memory_per_gpu_bytes.weights);
            Some((c.layout(), needed_bytes, usable_bytes, weights))
        }
        _ => None,
    })
}

/// When every degree that holds the model once quantised cannot load the 16-bit checkpoint
/// first: the largest such degree, what one GPU needs at load and what it has.
fn no_load_anywhere(plan: &Plan) -> Option<(super::Layout, u64, u64)> {
    let loads_somewhere = plan.candidates.iter().any(|c| {
        !matches!(c.verdict, Verdict::DoesNotFit { .. } | Verdict::LoadDoesNotFit { .. } | Verdict::Engine(_))
    });
    if loads_somewhere {
        return None;
    }
    plan.candidates.iter().rev().find_map(|c| match c.verdict {
        Verdict::LoadDoesNotFit { needed_bytes, usable_bytes } => {
            Some((c.layout(), needed_bytes, usable_bytes))
        }
        _ => None,
    })
}

fn first_fitting(plan: &Plan) -> Option<&Candidate> {
    plan.candidates.iter().find(|c| matches!(c.verdict, Verdict::Meets(_) | Verdict::Misses { .. }))
}

/// The weight format as the engine applied it: the reader's, else the checkpoint's, else BF16.
fn weight_format(s: &PlanState, r: &crate::engine::Report) -> String {
    match (s.weights, r.model.quantization.as_ref()) {
        (Some(d), _) => d.name().to_ascii_uppercase(),
        (None, Some(q)) => q.format.to_ascii_uppercase(),
        (None, None) => "BF16".to_owned(),
    }
}

fn step_weights(out: &mut String, lang: Lang, s: &PlanState, plan: &Plan) {
    let t = lang.plan();
    let _ = write!(out, "<li><h2>{}</h2>", esc(t.step_weights));
    let Some(r) = plan.candidates.first().and_then(|c| c.report.as_ref()) else {
        if let Some(Candidate { verdict: Verdict::Engine(e), .. }) = plan.candidates.first() {
            let _ = write!(out, "<p class=\"error\">{}</p>", esc(&engine_error(lang, e)));
        }
        out.push_str("</li>");
        return;
    };
    let weights = r.memory_per_gpu_bytes.weights;
    let usable = r.usable_gpu_memory_bytes;
    let need_tp = plan.candidates.iter().find(|c| {
        c.report.as_ref().is_some_and(|r| r.memory_per_gpu_bytes.weights <= r.usable_gpu_memory_bytes)
    });
    let verdict = match need_tp {
        Some(c) if c.tp == 1 => t.weights_fit_one.to_owned(),
        Some(c) if c.layout().nodes() > 1 => format!(
            "{}{}{}{}{}",
            t.weights_need_nodes.0,
            c.layout().nodes(),
            t.weights_need_nodes.1,
            c.layout().gpus(),
            t.weights_need_nodes.2
        ),
        Some(c) => format!("{}{}{}", t.weights_need_tp.0, c.tp, t.weights_need_tp.1),
        None => t.weights_no_node.to_owned(),
    };
    let other = match (s.weights, s.config.as_ref()) {
        (None | Some(crate::engine::precision::Dtype::Bf16), None) => {
            catalog::models::find(&s.model).and_then(|m| m.model.quantized.first())
        }
        _ => None,
    };
    let also = other.map_or_else(String::new, |q| {
        let f = q.format.to_ascii_uppercase();
        format!(
            "{}{}{}{f}{}{f}{}",
            t.also_published.0, q.repo, t.also_published.1, t.also_published.2, t.also_published.3
        )
    });
    let _ = write!(
        out,
        "<p>{}{}</p></li>",
        esc(&format!(
            "{}{}{}{}{}{}{}{}{}{verdict}",
            t.weights_are.0,
            weight_format(s, r),
            t.weights_are.1,
            gb(weights),
            t.weights_are.2,
            gpu_name(s),
            t.weights_are.3,
            gb(usable),
            t.weights_are.4
        )),
        esc(&also)
    );
}

fn step_state(out: &mut String, lang: Lang, plan: &Plan) {
    let t = lang.plan();
    let _ = write!(out, "<li><h2>{}</h2>", esc(t.step_state));
    match first_fitting(plan).and_then(|c| c.report.as_ref().map(|r| (t.tp_words(lang, c.layout()), r))) {
        Some((tp, r)) => {
            let m = &r.memory_per_gpu_bytes;
            let _ = write!(
                out,
                "<p>{}</p>",
                esc(&format!(
                    "{}{}{}{}{}{}{}",
                    t.state_at.0,
                    tp,
                    t.state_at.1,
                    gb(m.overhead),
                    t.state_at.2,
                    gb(m.activations),
                    t.state_at.3
                ))
            );
        }
        None => {
            let _ = write!(out, "<p>{}</p>", esc(t.state_none));
        }
    }
    out.push_str("</li>");
}

fn step_context(out: &mut String, lang: Lang, s: &PlanState, plan: &Plan) {
    let t = lang.plan();
    let _ = write!(out, "<li><h2>{}</h2>", esc(t.step_context));
    let Some(r) = plan.candidates.iter().find_map(|c| c.report.as_ref()) else {
        out.push_str("</li>");
        return;
    };
    let tokens = s.prompt_tokens.saturating_add(s.output_tokens);
    // The engine's own figure: a sliding-window layer keeps at most its window.
    let per_seq =
        super::kv_per_request(s).unwrap_or_else(|| r.kv_cache_bytes_per_token.saturating_mul(tokens));
    let window = super::architecture(s).and_then(|a| {
        a.sliding_window
            .filter(|w| *w < tokens && r.kv_cache_bytes_per_token.saturating_mul(tokens) > per_seq)
    });
    let capped =
        window.map_or_else(String::new, |w| format!("{}{}{}", t.kv_window.0, group_digits(w), t.kv_window.1));
    let _ = write!(
        out,
        "<p id=\"plan-kv-per-request\">{}</p>",
        esc(&format!(
            "{}{}{}{}{}{}{}{capped}",
            t.kv_per.0,
            format_bytes(r.kv_cache_bytes_per_token, ByteUnit::Gb),
            t.kv_per.1,
            group_digits(tokens),
            t.kv_per.2,
            gb(per_seq),
            t.kv_per.3
        ))
    );
    tiers_line(out, lang, plan);
    let mut list = String::new();
    for c in &plan.candidates {
        if let Verdict::Meets(cap) = &c.verdict {
            let why = agree(lang, cap.seqs, if cap.kv_bound { t.seqs_kv_bound } else { t.seqs_reader_bound });
            let _ = write!(
                list,
                "<li>{}</li>",
                esc(&format!(
                    "{}{}{}{}{why}",
                    t.seqs_at.0,
                    t.tp_words(lang, c.layout()),
                    t.seqs_at.1,
                    group_digits(cap.seqs)
                ))
            );
        }
    }
    if !list.is_empty() {
        let _ = write!(out, "<ul>{list}</ul>");
    }
    out.push_str("</li>");
}

/// Step 3 with open sessions: where the plan's replica serves the reused histories from and the
/// mean restore each request's time to first token carries (the engine's `time.kv_tiers`, whose
/// restore is for the report's batch of `seqs` prompts; the load model's requests wait for one).
fn tiers_line(out: &mut String, lang: Lang, plan: &Plan) {
    let Some((k, seqs)) = plan
        .chosen()
        .and_then(|(c, cap)| Some((c.report.as_ref()?.performance.time.kv_tiers.as_ref()?, cap.seqs)))
    else {
        return;
    };
    let m = lang.plan().tiers_at;
    let _ = write!(
        out,
        "<p id=\"plan-kv-tiers\">{}</p>",
        esc(&format!(
            "{}{}{}{}{}{}{}{}{}",
            m.0,
            group_digits(k.sessions),
            m.1,
            format_bytes(k.working_set_bytes as u64, ByteUnit::Gb),
            m.2,
            crate::i18n::kv_tier_shares(k, lang),
            m.3,
            format_seconds(k.restore_s / seqs.max(1) as f64),
            m.4
        ))
    );
}

/// Step 4 when one node is not enough: the layouts across nodes tried, their network, which
/// the plan takes and why.
fn across_nodes(out: &mut String, lang: Lang, s: &PlanState, plan: &Plan) {
    let t = lang.plan();
    let across: Vec<&Candidate> = plan.candidates.iter().filter(|c| c.layout().nodes() > 1).collect();
    let Some(nodes) = across.iter().map(|c| c.layout().nodes()).max() else { return };
    let kind = super::topology(s);
    let (net, name) = match kind {
        crate::engine::hardware::TopologyKind::Nvswitch => ("ib-ndr", t.net_names[0]),
        crate::engine::hardware::TopologyKind::NvswitchEfa => ("efa-p5", t.net_names[1]),
        crate::engine::hardware::TopologyKind::Pcie | crate::engine::hardware::TopologyKind::NvlinkBridge => {
            ("ib-hdr", t.net_names[2])
        }
    };
    let ic = catalog::interconnects::find(net);
    let inter = ic.map_or(0.0, |i| i.bytes_per_s_per_direction);
    let intra = gpus::find(&s.gpu).map_or(0.0, |g| {
        let nvlink = g.nvlink_bytes_per_s_per_direction();
        if nvlink > 0.0 {
            nvlink
        } else {
            g.pcie_bytes_per_s_per_direction().unwrap_or(0.0)
        }
    });
    let bw = |b: f64| format!("{} GB/s", format_sig3(b / 1e9));
    let _ = write!(
        out,
        "<p id=\"plan-nodes\">{}",
        esc(&t.across_nodes(lang, nodes, name, &bw(inter), &bw(intra)))
    );
    if let Some((c, cap)) = plan.chosen().filter(|(c, _)| c.layout().nodes() > 1) {
        // The other layouts that hold the model: their GPUs (at least, when not searched) and
        // what a replica carries within the targets.
        let others: Vec<(u64, Option<f64>)> = across
            .iter()
            .filter(|o| o.layout() != c.layout())
            .filter_map(|o| match &o.verdict {
                Verdict::Meets(x) => Some((x.gpus, Some(x.capacity_per_s))),
                Verdict::NotNeeded { at_least_gpus } => Some((*at_least_gpus, None)),
                _ => None,
            })
            .collect();
        let reason = match others.iter().min_by_key(|o| o.0) {
            None => t.picks_only.to_owned(),
            Some((gpus, _)) if *gpus > cap.gpus => format!(
                "{}{}{}{}{}",
                t.picks_fewer.0,
                group_digits(cap.gpus),
                t.picks_fewer.1,
                group_digits(*gpus),
                t.picks_fewer.2
            ),
            Some((_, other)) => format!(
                "{}{}{}{}{}",
                t.picks_more.0,
                rate(cap.capacity_per_s),
                t.picks_more.1,
                other.map_or_else(|| "—".to_owned(), rate),
                t.picks_more.2
            ),
        };
        let label = format!("{}{}", lang.plan().tp_prefix, t.tp_words(lang, c.layout()));
        let _ = write!(out, "{}", esc(&format!("{}{label}{}{reason}{}", t.picks.0, t.picks.1, t.picks.2)));
    }
    let _ = write!(out, "</p><p class=\"hint\">{}</p>", esc(t.across_note));
}

fn table(out: &mut String, lang: Lang, s: &PlanState, plan: &Plan) {
    let t = lang.plan();
    let users = s.peak_users.is_some();
    out.push_str("<div class=\"plan-scroll\"><table class=\"plan-table\"><thead><tr>");
    for (i, h) in t.table_head.iter().enumerate() {
        let h = match i {
            2 | 3 if users => lang.plan_users().table_cols[i - 2],
            _ => h,
        };
        let _ = write!(out, "<th scope=\"col\">{}</th>", esc(h));
    }
    out.push_str("</tr></thead><tbody>");
    for (i, c) in plan.candidates.iter().enumerate() {
        let chosen = plan.chosen == Some(i);
        let class = if chosen { " class=\"chosen\"" } else { "" };
        let label = if c.pp > 1 { format!("{} × {}", c.tp, c.pp) } else { c.tp.to_string() };
        let _ = write!(out, "<tr{class}><th scope=\"row\">{}</th>", esc(&label));
        match &c.verdict {
            Verdict::Meets(cap) => row(out, lang, s, cap),
            other => {
                let _ = write!(
                    out,
                    "<td colspan=\"9\" class=\"muted\">{}</td>",
                    esc(&verdict_text(lang, s, other))
                );
            }
        }
        out.push_str("</tr>");
    }
    out.push_str("</tbody></table></div>");
}

/// What breaks first in a disaggregated unit: a target, or the throughput of its slower pool.
fn unit_limit(lang: Lang, s: &PlanState, cap: &Capacity) -> String {
    let pools = cap.at_peak.disaggregated.as_ref();
    match (cap.limit, pools, s.peak_users.is_some()) {
        (Limit::Saturation, Some(d), false) => {
            let i = usize::from(d.limited_by == crate::engine::perf::load::disagg::LimitingPool::Decode);
            lang.plan_pd().limit_pool.get(i).copied().unwrap_or_default().to_owned()
        }
        (l, _, users) => limit_text(lang, s, l, users),
    }
}

/// Requests per second one GPU carries within the targets.
fn per_gpu(cap: &Capacity, gpus_each: u64) -> f64 {
    cap.capacity_per_s / gpus_each.max(1) as f64
}

/// The link a unit's KV cache crosses, by name.
fn link_name(link: crate::engine::links::KvLink) -> &'static str {
    use crate::engine::links::KvLink;
    match link {
        KvLink::Nvlink => "NVLink",
        KvLink::Pcie => "PCIe",
        KvLink::Infiniband => "InfiniBand NDR",
        KvLink::Roce => "RoCE",
        KvLink::Efa => "AWS EFA",
    }
}

/// The outcome as the section's `data-outcome`.
fn outcome_key(o: Option<Outcome>) -> &'static str {
    match o {
        Some(Outcome::Disaggregated) => "disaggregated",
        Some(Outcome::Aggregated) => "aggregated",
        Some(Outcome::Tie) => "tie",
        Some(Outcome::OnlyDisaggregated) => "only-disaggregated",
        Some(Outcome::OnlyAggregated) => "only-aggregated",
        Some(Outcome::Neither) | None => "neither",
    }
}

/// Step 4's comparison with a disaggregated deployment: which needs fewer GPUs, both plans'
/// GPUs, capacity per replica or unit and what limits each, and why, in words from the numbers.
fn comparison(out: &mut String, lang: Lang, s: &PlanState, plan: &Plan) {
    let t = lang.plan_pd();
    let c = match &plan.disagg {
        Disagg::Off => {
            let _ = write!(out, "<p class=\"hint\" id=\"plan-pd-off\">{}</p>", esc(t.off));
            return;
        }
        Disagg::AcrossNodes => {
            let _ = write!(
                out,
                "<section id=\"plan-compare\" data-outcome=\"neither\"><h3>{}</h3><p>{}</p></section>",
                esc(t.title),
                esc(t.across)
            );
            return;
        }
        Disagg::Compared(c) => c,
    };
    let outcome = disagg::outcome(plan);
    let _ = write!(
        out,
        "<section id=\"plan-compare\" data-outcome=\"{}\"><h3>{}</h3><p class=\"hint\">{}</p>",
        outcome_key(outcome),
        esc(t.title),
        esc(t.lead)
    );
    let agg = plan.chosen();
    let dis = c.chosen();
    // The verdict, or why no unit meets the targets.
    match (outcome, dis) {
        (Some(o), Some((unit, d))) => {
            let a = agg.map_or(0, |(_, a)| a.gpus);
            let _ = write!(
                out,
                "<p class=\"plan-pd-verdict\"><strong>{}</strong></p>",
                esc(&t.verdict(lang, o, (a, d.gpus), (d.replicas, &unit.ratio(), unit.tp)))
            );
        }
        _ => {
            let why = match &c.probe {
                Err(v) => verdict_text(lang, s, v),
                Ok(_) => c.units.first().map_or_else(String::new, |u| verdict_text(lang, s, &u.verdict)),
            };
            let _ = write!(
                out,
                "<p class=\"plan-pd-verdict\"><strong>{}</strong></p>",
                esc(&format!("{}{}{}{why}", t.none.0, c.tp, t.none.1))
            );
        }
    }
    // Both plans side by side: the aggregated replica and every ratio tried.
    out.push_str("<div class=\"plan-scroll\"><table class=\"plan-pd-table\"><thead><tr>");
    for h in t.table_head {
        let _ = write!(out, "<th scope=\"col\">{}</th>", esc(h));
    }
    out.push_str("</tr></thead><tbody>");
    let cost = |cap: &Capacity| cap.cost_per_month().map_or_else(|| "—".to_owned(), usd);
    let cells = |out: &mut String, each: u64, cap: &Capacity, limit: String| {
        for v in [
            group_digits(each),
            rate(cap.capacity_per_s),
            rate(per_gpu(cap, each)),
            limit,
            group_digits(cap.replicas),
            group_digits(cap.gpus),
            cost(cap),
        ] {
            let _ = write!(out, "<td>{}</td>", esc(&v));
        }
    };
    let won = matches!(outcome, Some(Outcome::Disaggregated | Outcome::OnlyDisaggregated));
    if let Some((a, cap)) = agg {
        let class = if won { "" } else { " class=\"chosen\"" };
        let label = format!("{}{}", t.row_aggregated, lang.plan().tp_words(lang, a.layout()));
        let _ = write!(out, "<tr{class}><th scope=\"row\">{}</th>", esc(&label));
        cells(out, a.layout().gpus(), cap, limit_text(lang, s, cap.limit, s.peak_users.is_some()));
        out.push_str("</tr>");
    }
    for (i, u) in c.units.iter().enumerate() {
        let class = if won && c.chosen == Some(i) { " class=\"chosen\"" } else { "" };
        let label = format!("{}{}{}{}", t.row_unit.0, u.unit.ratio(), t.row_unit.1, u.unit.tp);
        let _ = write!(out, "<tr{class}><th scope=\"row\">{}</th>", esc(&label));
        match &u.verdict {
            Verdict::Meets(cap) => cells(out, u.unit.gpus(), cap, unit_limit(lang, s, cap)),
            Verdict::NotNeeded { at_least_gpus } => {
                let n = t.not_needed;
                let text = format!("{}{}{}", n.0, group_digits(*at_least_gpus), n.1);
                let _ = write!(out, "<td colspan=\"7\" class=\"muted\">{}</td>", esc(&text));
            }
            v => {
                let _ =
                    write!(out, "<td colspan=\"7\" class=\"muted\">{}</td>", esc(&verdict_text(lang, s, v)));
            }
        }
        out.push_str("</tr>");
    }
    out.push_str("</tbody></table></div>");
    // Why, from the numbers.
    let mut why = Vec::new();
    if let (Some((a, acap)), Some((unit, dcap))) = (agg, dis) {
        why.push(t.per_gpu(
            lang,
            (
                &rate(per_gpu(acap, a.layout().gpus())),
                &limit_text(lang, s, acap.limit, s.peak_users.is_some()),
            ),
            &unit.ratio(),
            (&rate(per_gpu(dcap, unit.gpus())), &unit_limit(lang, s, dcap)),
        ));
        let p = &acap.at_peak;
        match acap.limit {
            Limit::Tpot => why.push(t.why_tpot(
                lang,
                s.tpot_pct.key(),
                &group_digits(p.mixed_chunk_tokens),
                (&ms(Some(p.mixed_step_s)), &ms(Some(p.decode_step_s))),
                (&ms(dcap.at_peak.tpot(s.tpot_pct)), &format!("{} ms", plain(s.tpot_ms))),
            )),
            Limit::Ttft => {
                let prefill = dcap.at_peak.disaggregated.as_ref().and_then(|f| f.prefill_p99_s);
                why.push(t.why_ttft(lang, s.ttft_pct.key(), &secs(prefill)));
            }
            Limit::Saturation => why.push(t.why_throughput(lang).to_owned()),
        }
    }
    if let Some((unit, dcap)) = dis {
        if let Some(f) = &dcap.at_peak.disaggregated {
            let (pre, dec) = (f.prefill_max_rate_per_s, f.decode_max_rate_per_s);
            let (slower, faster) = if pre < dec { (0, 1) } else { (1, 0) };
            let unused = if pre.max(dec) > 0.0 { 100.0 * (1.0 - pre.min(dec) / pre.max(dec)) } else { 0.0 };
            why.push(t.pools_text(
                lang,
                &unit.ratio(),
                (&rate(pre), &rate(dec)),
                (slower, faster, &format_sig3(unused)),
                (&gb(f.transfer_bytes), link_name(f.link), &format_seconds(f.transfer_s)),
            ));
        }
    }
    if let (Some(o @ (Outcome::Disaggregated | Outcome::Aggregated)), Some((_, acap))) = (outcome, agg) {
        why.push(t.close(lang, o == Outcome::Disaggregated, acap.limit == Limit::Tpot).to_owned());
    }
    if !why.is_empty() {
        let _ = write!(
            out,
            "<p class=\"plan-pd-why\">{}</p>",
            esc(&why.join(if lang == Lang::Zh { "" } else { " " }))
        );
    }
    out.push_str("</section>");
}

fn row(out: &mut String, lang: Lang, s: &PlanState, cap: &Capacity) {
    let cost = cap.cost_per_month().map_or_else(|| "—".to_owned(), usd);
    let cells = [
        group_digits(cap.seqs),
        rate(cap.sustainable_per_replica),
        rate(cap.per_replica),
        limit_text(lang, s, cap.limit, s.peak_users.is_some()),
        group_digits(cap.replicas),
        group_digits(cap.gpus),
        format!("{}%", format_sig3(load_share(cap))),
        format!("{}%", busy(cap)),
        cost,
    ];
    for c in cells {
        let _ = write!(out, "<td>{}</td>", esc(&c));
    }
}

/// Why a degree gives no plan, in the page's language.
pub fn verdict_text(lang: Lang, s: &PlanState, v: &Verdict) -> String {
    let t = lang.plan();
    match v {
        Verdict::Engine(e) => engine_error(lang, e),
        Verdict::DoesNotFit { needed_bytes, usable_bytes } => {
            format!("{}{}{}{}{}", t.no_fit.0, gb(*needed_bytes), t.no_fit.1, gb(*usable_bytes), t.no_fit.2)
        }
        Verdict::LoadDoesNotFit { needed_bytes, usable_bytes } => format!(
            "{}{}{}{}{}",
            t.load_no_fit.0,
            gb(*needed_bytes),
            t.load_no_fit.1,
            gb(*usable_bytes),
            t.load_no_fit.2
        ),
        Verdict::Misses { limit, value } => {
            let shown = match limit {
                Limit::Ttft => secs(*value),
                Limit::Tpot => ms(*value),
                Limit::Saturation => String::new(),
            };
            format!("{}{}{}{shown}", t.misses.0, limit_text(lang, s, *limit, false), t.misses.1)
        }
        Verdict::NotNeeded { at_least_gpus } => {
            format!("{}{}{}", t.not_needed.0, group_digits(*at_least_gpus), t.not_needed.1)
        }
        Verdict::Skipped { at_least_gpus } => {
            let k = lang.plan_pd().skipped;
            format!("{}{}{}{}{}", k.0, disagg::searched_at_most(s), k.1, group_digits(*at_least_gpus), k.2)
        }
        Verdict::Meets(_) => String::new(),
    }
}

fn breaks(out: &mut String, lang: Lang, s: &PlanState, cap: &Capacity) {
    let users = s.peak_users.is_some();
    let t = if users { lang.plan_users().breaks } else { lang.plan().breaks };
    let n = cap.replicas as f64;
    let _ = write!(
        out,
        "<p class=\"plan-breaks\">{}</p>",
        esc(&format!(
            "{}{}{}{}{}{}{}{}{}",
            t.0,
            rate(cap.per_replica * n),
            t.1,
            rate(cap.per_replica),
            t.2,
            limit_text(lang, s, cap.limit, users),
            t.3,
            rate(cap.sustainable_per_replica * n),
            t.4
        ))
    );
    if cap.kv_bound {
        let _ = write!(
            out,
            "<p class=\"hint\">{}</p>",
            esc(&format!(
                "{}{}{}{}{}",
                lang.plan().kv_caps.0,
                cap.seqs,
                agree(lang, cap.seqs, lang.plan().kv_caps.1),
                s.max_seqs,
                lang.plan().kv_caps.2
            ))
        );
    }
}

fn chart(lang: Lang, s: &PlanState, c: &Candidate, cap: &Capacity, plan: &Plan, width: u32) -> String {
    let t = lang.plan();
    let pts = |f: &dyn Fn(&super::LoadPoint) -> Option<f64>, scale: f64| {
        plan.curve.iter().filter_map(|p| f(p).map(|v| (p.rate_per_s, v * scale))).collect::<Vec<_>>()
    };
    let chart = LatencyLoadChart {
        title: format!("{}{}", t.chart_title, t.tp_words(lang, c.layout())),
        x_label: if s.peak_users.is_some() { lang.plan_users().chart_x } else { t.chart_x }.to_owned(),
        legend: [
            t.p50.to_owned(),
            if s.ttft_pct == s.tpot_pct {
                format!("p{}", s.ttft_pct.key())
            } else {
                t.pct_of_target.to_owned()
            },
        ],
        panels: vec![
            LatencyPanel {
                y_label: t.chart_ttft.to_owned(),
                p50: pts(&|p| p.ttft(state::Pct::P50), 1.0),
                p95: pts(&|p| p.ttft(s.ttft_pct), 1.0),
                target: Some((
                    s.ttft_s,
                    format!("{}p{} {}", t.target, s.ttft_pct.key(), format_seconds(s.ttft_s)),
                )),
                at_marker: [cap.at_peak.ttft(state::Pct::P50), cap.at_peak.ttft(s.ttft_pct)],
            },
            LatencyPanel {
                y_label: t.chart_tpot.to_owned(),
                p50: pts(&|p| p.tpot(state::Pct::P50), 1e3),
                p95: pts(&|p| p.tpot(s.tpot_pct), 1e3),
                target: Some((
                    s.tpot_ms,
                    format!("{}p{} {} ms", t.target, s.tpot_pct.key(), plain(s.tpot_ms)),
                )),
                at_marker: [
                    cap.at_peak.tpot(state::Pct::P50).map(|v| v * 1e3),
                    cap.at_peak.tpot(s.tpot_pct).map(|v| v * 1e3),
                ],
            },
        ],
        marker: Some((super::demand(s) / cap.replicas.max(1) as f64, t.planned.to_owned())),
        limit: Some((
            cap.sustainable_per_replica,
            match s.peak_users {
                Some(_) => {
                    format!("{} {}", lang.plan_users().chart_limit, format_sig3(cap.sustainable_per_replica))
                }
                None => format!("{} {}/s", t.chart_sustainable, format_sig3(cap.sustainable_per_replica)),
            },
        )),
        no_data: t.chart_none.to_owned(),
    };
    latency_load_svg(&chart, width)
}

fn step_confirm(out: &mut String, lang: Lang, s: &PlanState, plan: &Plan) {
    let t = lang.plan();
    let _ = write!(out, "<li><h2>{}</h2>", esc(t.step_confirm));
    match plan.chosen() {
        Some((c, cap)) => confirm_replica(out, lang, s, c, cap),
        None => {
            let _ = write!(out, "<p>{}</p>", esc(t.confirm_none));
        }
    }
    confirm_unit(out, lang, s, plan);
    out.push_str("</li>");
}

/// Escaped text whose spans between backticks are code (flags, paths, identifiers).
pub fn prose(text: &str) -> String {
    text.split('`')
        .enumerate()
        .map(|(i, part)| if i % 2 == 1 { format!("<code>{}</code>", esc(part)) } else { esc(part) })
        .collect()
}

/// Step 5's disaggregated unit, when one meets the targets: its workers and proxy launched with
/// vLLM and with SGLang, and the benchmark at one unit's planned peak load.
fn confirm_unit(out: &mut String, lang: Lang, s: &PlanState, plan: &Plan) {
    let t = lang.plan_pd();
    let Some((unit, cap)) = plan.disagg.compared().and_then(|c| c.chosen()) else { return };
    let _ = write!(
        out,
        "<h3 id=\"plan-pd-confirm\">{}</h3><p>{}</p><pre class=\"plan-pd-cmd\" data-cmd=\"vllm-pd\"><code>{}</code></pre><p class=\"hint\">{}</p>\
         <p>{}</p><pre class=\"plan-pd-cmd\" data-cmd=\"sglang-pd\"><code>{}</code></pre>\
         <p>{}</p><pre class=\"plan-pd-cmd\" data-cmd=\"bench-pd\"><code>{}</code></pre>",
        esc(t.confirm_title),
        prose(t.confirm_vllm),
        esc(&command::serve_disagg(s, unit, cap)),
        prose(t.proxy_note),
        prose(t.confirm_sglang),
        esc(&command::serve_disagg_sglang(s, unit, cap)),
        esc(t.confirm_bench),
        esc(&command::bench_disagg(s, cap))
    );
}

/// Step 5's replica: its launch lines, the benchmark, and the notes they need.
fn confirm_replica(out: &mut String, lang: Lang, s: &PlanState, c: &Candidate, cap: &Capacity) {
    let t = lang.plan();
    let margin = command::max_model_len(s.prompt_tokens, s.output_tokens)
        .saturating_sub(s.prompt_tokens.saturating_add(s.output_tokens));
    let _ = write!(
        out,
        "<p>{}</p><pre class=\"plan-cmd\" data-cmd=\"vllm\"><code>{}</code></pre>\
         <p>{}</p><pre class=\"plan-cmd\" data-cmd=\"sglang\"><code>{}</code></pre><p class=\"hint\">{}</p>\
         <p>{}</p><pre class=\"plan-cmd\" data-cmd=\"bench\"><code>{}</code></pre>",
        esc(t.confirm_serve),
        esc(&command::serve(s, c.layout(), cap)),
        esc(t.confirm_sglang),
        esc(&command::serve_sglang(s, c.layout(), cap)),
        esc(&format!(
            "{}{}{}{}{}",
            t.confirm_flags.0,
            group_digits(margin),
            t.confirm_flags.1,
            group_digits(command::chunk_tokens(s)),
            t.confirm_flags.2
        )),
        esc(t.confirm_bench),
        esc(&command::bench(s, cap))
    );
    if c.layout().nodes() > 1 {
        let _ = write!(out, "<p class=\"hint\" id=\"plan-multinode\">{}</p>", esc(t.confirm_nodes));
    }
    if command::needs_checkpoint(s) {
        let _ = write!(out, "<p class=\"hint\">{}</p>", esc(t.needs_checkpoint));
    }
    if let Some(q) = super::checkpoint(s) {
        let _ =
            write!(out, "<p class=\"hint\" id=\"plan-checkpoint\">{}</p>", esc(&checkpoint_text(lang, q)));
    }
    if command::quantises_on_load(s) {
        let at_load = super::load_time_bytes(s, c.layout()).map_or_else(String::new, |(needed, usable)| {
            format!("{}{}{}{}{}", t.load_at.0, gb(needed), t.load_at.1, gb(usable), t.load_at.2)
        });
        let _ = write!(
            out,
            "<p class=\"hint\" id=\"plan-quantises\">{}{}</p>",
            esc(t.quantises_on_load),
            esc(&at_load)
        );
    }
    let then = match cap.replicas {
        1 => t.confirm_then_one.to_owned(),
        n => format!("{}{}{}", t.confirm_then.0, group_digits(n), t.confirm_then.1),
    };
    let _ = write!(out, "<p class=\"hint\">{}</p>", esc(&then));
}

fn math(out: &mut String, lang: Lang, s: &PlanState, plan: &Plan) {
    let t = lang.plan();
    let Some((c, cap)) = plan.chosen() else { return };
    let users = s.peak_users.is_some().then(|| lang.plan_users());
    let keep = super::kept(s);
    let sizing = if s.peak_users.is_some() {
        format!(
            "users per replica = max {{u ≤ {} : rate(u) ≤ (1 − headroom) × C}}, C = rate({}) = {} req/s; (1 − headroom) × C = {} × {} = {} req/s → u = {}; replicas = ⌈{} ÷ {}⌉ = {}",
            format_sig3(cap.per_replica),
            format_sig3(cap.per_replica),
            format_sig3(cap.capacity_per_s),
            format_sig3(keep),
            format_sig3(cap.capacity_per_s),
            format_sig3(keep * cap.capacity_per_s),
            format_sig3(cap.planned_per_replica),
            plain(super::demand(s)),
            format_sig3(cap.planned_per_replica),
            cap.replicas
        )
    } else {
        format!(
            "replicas = ⌈peak ÷ ((1 − headroom) × r)⌉ = ⌈{} ÷ ({} × {})⌉ = {}",
            plain(super::demand(s)),
            format_sig3(keep),
            format_sig3(cap.per_replica),
            cap.replicas
        )
    };
    let _ = write!(
        out,
        "<details class=\"math\"><summary>{}</summary><p>{}</p><p><code>{}</code></p><p><code>{}</code></p>",
        esc(t.math_title),
        esc(users.map_or(t.math_search, |u| u.math_search)),
        esc(&sizing),
        esc(&format!("GPUs = replicas × TP × PP = {} × {} × {} = {}", cap.replicas, c.tp, c.pp, cap.gpus))
    );
    if let (Some((price, source)), Some(cost)) = (&cap.price, cap.cost_per_month()) {
        let team = catalog::team::get().is_some_and(|t| t.prices.iter().any(|(id, _, _)| *id == s.gpu));
        let source = if team {
            format!("{}{}{source}", lang.est().team_catalog, lang.colon())
        } else {
            source.clone()
        };
        let _ = write!(
            out,
            "<p><code>{}</code></p><p class=\"hint\">{}<span data-source>{}</span></p>",
            esc(&format!("{} × {} × {} h = {}", cap.gpus, usd(*price), plain(HOURS_PER_MONTH), usd(cost))),
            esc(t.price_from),
            esc(&source)
        );
    }
    let _ = write!(
        out,
        "<p class=\"hint\">{}{}</p><p class=\"hint\">{}</p>",
        esc(users.map_or(t.math_target, |u| u.math_target)),
        esc(&rate(cap.planned_per_replica)),
        esc(t.math_headroom)
    );
    math_units(out, lang, s, plan);
    out.push_str("</details>");
}

/// The disaggregated units' sizing, when a unit meets the targets.
fn math_units(out: &mut String, lang: Lang, s: &PlanState, plan: &Plan) {
    let t = lang.plan_pd();
    let Some((unit, cap)) = plan.disagg.compared().and_then(|c| c.chosen()) else { return };
    let sizing = if s.peak_users.is_some() {
        format!(
            "units = ⌈{} ÷ {}⌉ = {}",
            plain(super::demand(s)),
            format_sig3(cap.planned_per_replica),
            cap.replicas
        )
    } else {
        format!(
            "units = ⌈peak ÷ ((1 − headroom) × r)⌉ = ⌈{} ÷ ({} × {})⌉ = {}",
            plain(super::demand(s)),
            format_sig3(super::kept(s)),
            format_sig3(cap.per_replica),
            cap.replicas
        )
    };
    let _ = write!(
        out,
        "<p><strong>{}</strong></p><p><code>{}</code></p><p><code>{}</code></p>",
        esc(t.math_title),
        esc(&sizing),
        esc(&t.gpus_line(cap.replicas, unit, cap.gpus))
    );
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn money_reads_as_money() {
        assert_eq!(usd(1234.4), "$1,234");
        assert_eq!(usd(12.5), "$12.50");
        assert_eq!(usd(f64::NAN), "—");
    }
}
