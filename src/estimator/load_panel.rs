//! The estimator's "Under load" panel as escaped HTML from the report's `load` section: the
//! numbers, the show-the-math (how a step is timed, the limits, the sustainable rate, what was
//! simulated and its sources) and the latency-against-load chart. Pure, tested natively; the
//! view sets it with `inner_html`.

use crate::charts::format::{
    format_bytes, format_percent, format_rate, format_seconds, format_sig3, ByteUnit,
};
use crate::charts::latency_load::{latency_load_svg, LatencyLoadChart, LatencyPanel};
use crate::engine::links::KvLink;
use crate::engine::perf::load::disagg::{DisaggregatedReport, LimitingPool};
use crate::engine::perf::load::{LoadCurve, LoadReport};
use crate::engine::workload::Mode;
use crate::engine::{EngineError, Report, Scenario};
use crate::html::escape;
use crate::i18n::{Lang, LoadStrings};

/// The sources of the scheduler model, cited by title in both languages.
const SOURCES: &str =
    "vLLM docs, \"Optimization and Tuning\" (chunked prefill); Agrawal et al., \"Taming Throughput-Latency Tradeoff in LLM Inference with Sarathi-Serve\", OSDI 2024";

fn secs(v: Option<f64>, l: &LoadStrings) -> String {
    v.map_or_else(|| l.undefined.to_owned(), format_seconds)
}

fn row(out: &mut String, id: &str, label: &str, value: &str) {
    out.push_str(&format!(
        "<tr><th scope=\"row\">{}</th><td class=\"num\" id=\"load-{id}\">{}</td></tr>",
        escape(label),
        escape(value)
    ));
}

/// The chart's input from the report: TTFT (seconds) and TPOT (milliseconds) panels, each with
/// p50 and p95 against the arrival rate, or against the users of a closed loop; the scenario's
/// rate or users (while stable) with its values as dots, and the limit: the sustainable rate, or
/// the users the deployment runs at once (more queue).
pub fn chart(r: &LoadReport, l: &LoadStrings) -> LatencyLoadChart {
    use crate::engine::perf::load::LoadPoint;
    let users = r.concurrent_users;
    let x = |p: &LoadPoint| p.concurrent_users.map_or(p.arrival_rate_per_s, |u| u as f64);
    let pick = |f: fn(&LoadPoint) -> Option<f64>, scale: f64| {
        r.curve.iter().filter_map(|p| f(p).map(|v| (x(p), v * scale))).collect::<Vec<_>>()
    };
    let ms = |v: Option<f64>| v.map(|v| v * 1e3);
    let mark = |label: &str, v: f64, unit: &str| (v, format!("{label} {}{unit}", format_sig3(v)));
    let (title, x_label, marker, limit) = match users {
        Some(u) => (
            l.chart_title_users,
            l.chart_x_users,
            Some(mark(l.chart_current, u as f64, "")),
            Some(mark(l.chart_running, (r.max_seqs * r.replicas) as f64, "")),
        ),
        None => (
            l.chart_title,
            l.chart_x,
            r.stable.then(|| mark(l.chart_current, r.arrival_rate_per_s, "/s")),
            (r.max_sustainable_rate_per_s > 0.0)
                .then(|| mark(l.chart_sustainable, r.max_sustainable_rate_per_s, "/s")),
        ),
    };
    LatencyLoadChart {
        title: title.into(),
        x_label: x_label.into(),
        legend: [l.p50.into(), l.p95.into()],
        panels: vec![
            LatencyPanel {
                y_label: l.chart_ttft.into(),
                p50: pick(|p| Some(p.ttft_p50_s), 1.0),
                p95: pick(|p| Some(p.ttft_p95_s), 1.0),
                target: None,
                at_marker: [r.ttft_p50_s, r.ttft_p95_s],
            },
            LatencyPanel {
                y_label: l.chart_tpot.into(),
                p50: pick(|p| p.tpot_p50_s, 1e3),
                p95: pick(|p| p.tpot_p95_s, 1e3),
                target: None,
                at_marker: [ms(r.tpot_p50_s), ms(r.tpot_p95_s)],
            },
        ],
        marker,
        limit,
        no_data: l.no_data.into(),
    }
}

/// The show-the-math block.
fn math(r: &LoadReport, batch: u64, l: &LoadStrings) -> String {
    let p = |s: &str| escape(s);
    let mut m = format!("<details class=\"math\" data-math=\"load\"><summary>{}</summary>", p(l.show_math));
    m.push_str(&format!("<p>{}</p>", p(l.math_step)));
    if r.concurrent_users.is_some() {
        m.push_str(&format!("<p>{}</p>", p(l.math_users)));
    }
    m.push_str(&format!(
        "<p>{}{}</p><p>{}{}{}{}</p>",
        p(l.math_decode),
        format_seconds(r.decode_step_s),
        p(l.math_mixed.0),
        r.mixed_chunk_tokens,
        p(l.math_mixed.1),
        format_seconds(r.mixed_step_s),
    ));
    let kv = r.kv_limit_seqs.map_or_else(|| "0".to_owned(), |k| k.to_string());
    m.push_str(&format!(
        "<p>{}{}{}{}{}{}{}{}</p>",
        p(l.math_limits.0),
        batch,
        p(l.math_limits.1),
        kv,
        p(l.math_limits.2),
        r.step_token_budget,
        p(l.math_limits.3),
        r.max_seqs,
    ));
    let per_replica = r.max_sustainable_rate_per_s / r.replicas.max(1) as f64;
    // A disaggregated deployment's sustainable rate is its slower pool's, said with its pools.
    if r.disaggregated.is_none() {
        m.push_str(&format!(
            "<p>{}{}{}{}{}{} = {}</p>",
            p(l.math_sustainable.0),
            format_sig3(per_replica),
            p(l.math_sustainable.1),
            format_seconds(r.saturated_step_s),
            p(l.math_sustainable.2),
            r.replicas,
            p(&format_rate(r.max_sustainable_rate_per_s, &format!(" {}", l.req_s)).replace("  ", " ")),
        ));
    }
    m.push_str(&format!(
        "<p>{}{}{}{}{}{:#x}{}{}</p>",
        p(l.math_sim.0),
        r.requests_simulated,
        p(l.math_sim.1),
        r.warmup_requests,
        p(l.math_sim.2),
        r.seed,
        p(l.math_first_token),
        format_seconds(r.first_token_fixed_s),
    ));
    m.push_str(&format!(
        "<p>{} <cite data-source=\"\">{}</cite></p></details>",
        p(l.math_sources),
        p(SOURCES)
    ));
    m
}

/// The panel's three parts below its heading, each set apart as inner HTML so that an edit
/// rebuilds only the parts whose text changed: the verdict and numbers (or the note saying why
/// there are none), the show-the-math (it does not depend on the arrival rate, so an open one
/// stays open while the rate is edited), and the chart (empty without numbers).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct PanelParts {
    pub body: String,
    pub math: String,
    pub chart: String,
}

/// The panel's parts for the load section (none: no arrival rate set) and the scenario.
pub fn panel_parts(load: Option<&LoadReport>, s: &Scenario, lang: Lang, width: u32) -> PanelParts {
    let l = lang.load();
    let note = |text: &str| PanelParts {
        body: format!("<p class=\"load-note\">{}</p>", escape(text)),
        ..PanelParts::default()
    };
    if s.mode != Mode::Inference {
        return note(l.training);
    }
    let Some(r) = load else {
        return note(l.off);
    };
    let verdict = if r.max_seqs == 0 {
        l.nothing_fits
    } else if r.concurrent_users.is_some() {
        l.users_verdict
    } else if r.stable {
        l.stable
    } else {
        l.unstable
    };
    let state = if r.stable { "stable" } else { "unstable" };
    let mut out =
        format!("<p class=\"load-verdict\" data-load=\"{state}\"><strong>{}</strong></p>", escape(verdict));
    let rate = |v: f64, unit: &str| format_rate(v, &format!(" {unit}")).replace("  ", " ");
    let mut t = String::from("<table class=\"key-numbers load-table\"><tbody>");
    if let Some(u) = r.concurrent_users {
        row(&mut t, "users", l.users, &format!("{u} {}", l.u_users));
    }
    let rate_label = if r.concurrent_users.is_some() { l.completion_rate } else { l.arrival_rate };
    row(&mut t, "rate", rate_label, &rate(r.arrival_rate_per_s, l.req_s));
    row(&mut t, "sustainable", l.sustainable, &rate(r.max_sustainable_rate_per_s, l.req_s));
    row(&mut t, "utilization", l.utilization, &format_percent(r.utilization));
    row(&mut t, "busy", l.busy, &r.busy_fraction.map_or_else(|| l.undefined.to_owned(), format_percent));
    row(
        &mut t,
        "concurrency",
        l.concurrency,
        &r.mean_concurrency.map_or_else(|| l.undefined.to_owned(), format_sig3),
    );
    row(&mut t, "throughput", l.throughput, &rate(r.throughput_tokens_per_s, l.tok_s));
    row(&mut t, "throughput-bound", l.throughput_bound, &rate(r.throughput_bound_tokens_per_s, l.tok_s));
    let rows = [
        ("ttft-p50", l.ttft, l.p50, r.ttft_p50_s),
        ("ttft-p90", l.ttft, l.p90, r.ttft_p90_s),
        ("ttft-p95", l.ttft, l.p95, r.ttft_p95_s),
        ("ttft-p99", l.ttft, l.p99, r.ttft_p99_s),
        ("tpot-p50", l.tpot, l.p50, r.tpot_p50_s),
        ("tpot-p90", l.tpot, l.p90, r.tpot_p90_s),
        ("tpot-p95", l.tpot, l.p95, r.tpot_p95_s),
        ("tpot-p99", l.tpot, l.p99, r.tpot_p99_s),
        ("itl-mean", l.itl, l.mean, r.itl_mean_s),
        ("itl-p50", l.itl, l.p50, r.itl_p50_s),
        ("itl-p90", l.itl, l.p90, r.itl_p90_s),
        ("itl-p99", l.itl, l.p99, r.itl_p99_s),
    ];
    for (key, what, at, v) in rows {
        row(&mut t, key, &format!("{what} {at}"), &secs(v, l));
    }
    row(&mut t, "e2e", l.time_in_system, &secs(r.mean_time_in_system_s, l));
    row(&mut t, "max-seqs", l.max_seqs, &format!("{} {}", r.max_seqs, l.seqs));
    if let Some(d) = &r.disaggregated {
        disaggregated_rows(&mut t, d, l);
    }
    t.push_str("</tbody></table>");
    out.push_str(&t);
    let mut m = math(r, s.batch, l);
    if let Some(d) = &r.disaggregated {
        // Inside the same details block, before its closing tag.
        let at = m.rfind("</details>").unwrap_or(m.len());
        m.insert_str(at, &format!("<p>{}</p>", escape(&disaggregated_math(d, l))));
    }
    PanelParts { body: out, math: m, chart: latency_load_svg(&chart(r, l), width) }
}

/// The table's rows of a disaggregated deployment: its GPUs, the transfer, the prefill's part of
/// the time to first token and the pool that limits the rate.
fn disaggregated_rows(t: &mut String, d: &DisaggregatedReport, l: &LoadStrings) {
    row(t, "gpus", l.disagg_gpus, &format!("{} + {} = {}", d.prefill_gpus, d.decode_gpus, d.total_gpus));
    let transfer =
        format!("{} · {}", format_bytes(d.transfer_bytes, ByteUnit::Gb), format_seconds(d.transfer_s));
    row(t, "transfer", l.disagg_transfer, &transfer);
    let prefill = match (d.prefill_p50_s, d.prefill_p99_s) {
        (Some(a), Some(b)) => format!("{} {} · {} {}", l.p50, format_seconds(a), l.p99, format_seconds(b)),
        _ => l.undefined.to_owned(),
    };
    row(t, "prefill", l.disagg_prefill, &prefill);
    let [pre, dec] = l.disagg_pools;
    let limited = if d.limited_by == LimitingPool::Prefill { pre } else { dec };
    row(t, "limited", l.disagg_limited, limited);
}

/// The show-the-math sentence of a disaggregated deployment, its slots filled in.
fn disaggregated_math(d: &DisaggregatedReport, l: &LoadStrings) -> String {
    let link =
        KvLink::ALL.iter().position(|k| *k == d.link).and_then(|i| l.kv_links.get(i)).copied().unwrap_or("");
    let rate = d.link_bytes_per_s * d.link_efficiency;
    let body = if rate > 0.0 { d.transfer_bytes as f64 / rate } else { 0.0 };
    let req = |v: f64| format_rate(v, &format!(" {}", l.req_s)).replace("  ", " ");
    let opt = |v: Option<f64>| v.map_or_else(|| l.undefined.to_owned(), format_seconds);
    [
        ("{workers}", d.prefill_workers.to_string()),
        ("{tp}", d.prefill_tensor_parallel.to_string()),
        ("{decode}", d.decode_gpus.to_string()),
        ("{total}", d.total_gpus.to_string()),
        ("{bytes}", format_bytes(d.transfer_bytes, ByteUnit::Gb)),
        ("{link}", link.to_owned()),
        ("{rate}", format_rate(d.link_bytes_per_s, "B/s")),
        ("{eff}", format_sig3(d.link_efficiency)),
        ("{body}", format_seconds(body)),
        ("{transfer}", format_seconds(d.transfer_s)),
        ("{alone}", format_seconds(d.prefill_alone_s)),
        ("{pre_p50}", opt(d.prefill_p50_s)),
        ("{pre_rate}", req(d.prefill_max_rate_per_s)),
        ("{dec_rate}", req(d.decode_max_rate_per_s)),
    ]
    .iter()
    .fold(l.math_disagg.to_owned(), |text, (slot, value)| text.replace(slot, value))
    // A link's name in parentheses ends in a full-width bracket, which takes no space after it.
    .replace("） ", "）")
}

/// The estimator's evaluation of a scenario: everything but the `load` section, which the
/// panel asks for apart ([`load_section`]) while it is in view. An edit elsewhere on the page
/// does not wait for the load model's simulations.
pub fn evaluate_without_load(s: &Scenario) -> Result<Report, EngineError> {
    crate::engine::evaluate::evaluate_without_load_with(s, &crate::catalog::Catalog)
}

/// The `load` section of a scenario (what `catalog::evaluate` puts in `report.load`) and the
/// load model's rate-independent half; `previous`, the half of an earlier call, is used again
/// when nothing but the arrival rate changed (one simulation instead of twelve).
pub fn load_section(
    s: &Scenario,
    previous: Option<&LoadCurve>,
) -> Result<Option<(LoadReport, LoadCurve)>, EngineError> {
    crate::engine::evaluate::load_with(s, &crate::catalog::Catalog, previous)
}

/// What each user of the static batch waits in a closed loop of as many users (`None` when the
/// load model already runs, or in training).
pub fn users_wait(s: &Scenario) -> Result<Option<LoadReport>, EngineError> {
    crate::engine::evaluate::static_batch_users_wait_with(s, &crate::catalog::Catalog)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::ModelSpec;

    fn scenario(rate: Option<f64>) -> Scenario {
        let mut s = Scenario::new(ModelSpec::Id("llama-3.1-8b".into()));
        s.batch = 32;
        s.context_tokens = 2048;
        s.prompt_tokens = Some(1024);
        s.output_tokens = Some(256);
        s.arrival_rate_per_s = rate;
        s
    }

    /// The panel's parts below its heading, together.
    fn joined(load: Option<&LoadReport>, s: &Scenario, lang: Lang, width: u32) -> String {
        let p = panel_parts(load, s, lang, width);
        format!("{}{}{}", p.body, p.math, p.chart)
    }

    #[test]
    fn panel_in_both_languages() {
        let s = scenario(Some(2.0));
        let r = crate::catalog::evaluate(&s).unwrap();
        let l = r.load.as_ref().unwrap();
        assert!(l.stable);
        for lang in Lang::ALL {
            let t = lang.load();
            let html = joined(r.load.as_ref(), &s, lang, 640);
            for want in [t.stable, t.sustainable, t.chart_title, t.math_decode] {
                assert!(html.contains(&escape(want)), "{lang:?}: {want}");
            }
            assert!(html.contains(&format_seconds(l.tpot_p50_s.unwrap())));
            assert!(html.contains(&format_seconds(l.decode_step_s)));
            assert!(
                html.contains("<svg")
                    && html.contains("data-source")
                    && html.contains("data-load=\"stable\"")
            );
        }
        let zh = joined(r.load.as_ref(), &s, Lang::Zh, 640);
        assert!(!zh.contains("Sustainable"));
        // The sentence after the seed ends in the page's punctuation, not an English full stop.
        assert!(zh.contains(&format!("{:#x}。", l.seed)) && !zh.contains(&format!("{:#x}.", l.seed)));
    }

    #[test]
    fn a_closed_loop_speaks_in_users() {
        let mut s = scenario(None);
        s.concurrent_users = Some(16);
        let r = crate::catalog::evaluate(&s).unwrap();
        let l = r.load.as_ref().unwrap();
        for lang in Lang::ALL {
            let t = lang.load();
            let html = joined(r.load.as_ref(), &s, lang, 640);
            for want in [
                t.users_verdict,
                t.users,
                t.completion_rate,
                t.math_users,
                t.chart_title_users,
                t.chart_x_users,
            ] {
                assert!(html.contains(&escape(want)), "{lang:?}: {want}");
            }
            assert!(!html.contains(&escape(t.chart_title)), "{lang:?}");
            assert!(html.contains(&format!("16 {}", t.u_users)));
        }
        // The chart is drawn over the users the curve was simulated at, with the scenario's 16 marked.
        let c = chart(l, Lang::En.load());
        let xs: Vec<f64> = c.panels[0].p50.iter().map(|p| p.0).collect();
        let grid = crate::engine::perf::load::users_grid(l.max_seqs, l.replicas);
        assert_eq!(xs, grid.iter().map(|u| *u as f64).collect::<Vec<_>>());
        assert_eq!(c.marker.unwrap().0, 16.0);
        assert_eq!(c.limit.unwrap().0, (l.max_seqs * l.replicas) as f64);
    }

    #[test]
    fn off_training_unstable_and_nothing_fits() {
        let s = scenario(None);
        let r = crate::catalog::evaluate(&s).unwrap();
        assert!(joined(r.load.as_ref(), &s, Lang::En, 640).contains(Lang::En.load().off));
        let mut t = scenario(Some(1.0));
        t.mode = Mode::Lora;
        let r = crate::catalog::evaluate(&t).unwrap();
        assert!(r.load.is_none());
        assert!(joined(r.load.as_ref(), &t, Lang::Zh, 640).contains(Lang::Zh.load().training));
        let s = scenario(Some(1e5));
        let r = crate::catalog::evaluate(&s).unwrap();
        let html = joined(r.load.as_ref(), &s, Lang::En, 360);
        assert!(html.contains("data-load=\"unstable\"") && html.contains(Lang::En.load().undefined));
        // 1M tokens of KV per sequence do not fit beside the weights of a 70B model on one GPU.
        let mut s = Scenario::new(ModelSpec::Id("llama-3.1-70b".into()));
        s.gpu_memory_bytes = Some(160_000_000_000);
        s.context_tokens = 1_000_000;
        s.arrival_rate_per_s = Some(1.0);
        let r = crate::catalog::evaluate(&s).unwrap();
        let l = r.load.as_ref().unwrap();
        assert_eq!((l.max_seqs, l.stable, l.max_sustainable_rate_per_s), (0, false, 0.0));
        assert!(joined(r.load.as_ref(), &s, Lang::Zh, 640).contains(Lang::Zh.load().nothing_fits));
        assert!(joined(None, &s, Lang::En, 640).contains(Lang::En.load().off));
    }

    /// The estimator's report without `load` is the whole report with `load` null, and the load
    /// section asked apart is the whole report's `load`, computed afresh or from a kept
    /// rate-independent half, on a grid of scenarios (rates below, near and past the
    /// sustainable rate; training; data-parallel replicas; a model that does not fit).
    #[test]
    fn load_apart_equals_the_whole_evaluation() {
        let mut grid = Vec::new();
        for (model, batch, prompt, output) in [
            ("llama-3.1-8b", 32, 1024, 256),
            ("llama-3.1-70b", 8, 4096, 128),
            ("qwen3-30b-a3b", 64, 512, 512),
        ] {
            for (gpus, mode) in [(1, Mode::Inference), (2, Mode::Inference), (1, Mode::Lora)] {
                for rate in [None, Some(0.5), Some(2.0), Some(9.0), Some(400.0)] {
                    let mut s = Scenario::new(ModelSpec::Id(model.into()));
                    s.batch = batch;
                    s.context_tokens = prompt + output;
                    s.prompt_tokens = Some(prompt);
                    s.output_tokens = Some(output);
                    s.arrival_rate_per_s = rate;
                    s.gpus = gpus;
                    s.mode = mode;
                    grid.push(s);
                }
            }
        }
        let mut huge = scenario(Some(1.0));
        huge.context_tokens = 10_000_000;
        grid.push(huge);
        let mut kept: Option<LoadCurve> = None;
        let mut reused = 0;
        for s in &grid {
            let whole = crate::catalog::evaluate(s);
            let apart = evaluate_without_load(s);
            match (&whole, &apart) {
                (Ok(w), Ok(a)) => {
                    assert!(a.load.is_none());
                    let mut w2 = serde_json::to_value(w).unwrap();
                    w2["load"] = serde_json::Value::Null;
                    assert_eq!(w2, serde_json::to_value(a).unwrap(), "{s:?}");
                }
                (Err(w), Err(a)) => assert_eq!(format!("{w:?}"), format!("{a:?}")),
                _ => panic!("the two evaluations disagree on {s:?}"),
            }
            let Ok(w) = whole else { continue };
            let fresh = load_section(s, None).unwrap();
            assert_eq!(fresh.as_ref().map(|f| &f.0), w.load.as_ref(), "{s:?}");
            // With the half kept from the previous scenario (the same but for the rate, or not).
            let again = load_section(s, kept.as_ref()).unwrap();
            assert_eq!(again.as_ref().map(|f| &f.0), w.load.as_ref(), "kept half, {s:?}");
            if let (Some(k), Some(a)) = (&kept, &again) {
                reused += usize::from(k == &a.1);
            }
            if let Some((_, half)) = again {
                kept = Some(half);
            }
        }
        // Rates follow one another for the same model and layout: the half is kept across them.
        assert!(reused >= 6, "reused {reused}");
    }

    #[test]
    fn a_disaggregated_deployment_shows_its_pools_and_transfer() {
        let mut s = scenario(Some(2.0));
        s.prefill_workers = 1;
        let r = crate::catalog::evaluate(&s).unwrap();
        let l = r.load.as_ref().unwrap();
        let d = l.disaggregated.as_ref().unwrap();
        for lang in Lang::ALL {
            let t = lang.load();
            let p = panel_parts(r.load.as_ref(), &s, lang, 640);
            for want in [t.disagg_gpus, t.disagg_transfer, t.disagg_prefill, t.disagg_limited] {
                assert!(p.body.contains(&escape(want)), "{lang:?}: {want}");
            }
            assert!(p.body.contains(&format!("{} + {} = {}", d.prefill_gpus, d.decode_gpus, d.total_gpus)));
            assert!(p.body.contains(&format_seconds(d.transfer_s)));
            // Every slot of the show-the-math is filled in, inside the same details block.
            assert!(!p.math.contains('{') && !p.math.contains('}'), "{lang:?}: {}", p.math);
            assert!(p.math.contains(&format_seconds(d.prefill_alone_s)));
            assert!(p.math.find("DistServe").unwrap() < p.math.rfind("</details>").unwrap());
        }
        // An aggregated deployment shows none of it.
        let plain = crate::catalog::evaluate(&scenario(Some(2.0))).unwrap();
        let p = panel_parts(plain.load.as_ref(), &scenario(Some(2.0)), Lang::En, 640);
        assert!(!p.body.contains(Lang::En.load().disagg_transfer) && !p.math.contains("DistServe"));
    }
}
