//! The diagnosis as escaped HTML: the form, the notices and the results, and the words of the
//! engine's typed values (bottlenecks, remedies, signals, contradictions) in either language.

use super::*;

/// The chapter section of each bottleneck (chapter 11's headings, the same in both languages;
/// a test checks them against the chapter).
pub fn section(b: Bottleneck) -> &'static str {
    match b {
        Bottleneck::Capacity => "s-2",
        Bottleneck::ComputeUnderused => "s-4",
        Bottleneck::MemoryBandwidth => "s-5",
        Bottleneck::Communication => "s-6",
        Bottleneck::DataInput => "s-8",
        Bottleneck::ServiceChain => "s-9",
    }
}

/// A bottleneck's name in the results' `data-bottleneck` attribute (the variant's name, as the
/// browser tests and the stylesheet read it; spelled out because the wasm build formats no
/// `Debug`: scripts/env.sh `-Zfmt-debug=none`).
pub fn bottleneck_key(b: Bottleneck) -> &'static str {
    match b {
        Bottleneck::Capacity => "Capacity",
        Bottleneck::ComputeUnderused => "ComputeUnderused",
        Bottleneck::MemoryBandwidth => "MemoryBandwidth",
        Bottleneck::Communication => "Communication",
        Bottleneck::DataInput => "DataInput",
        Bottleneck::ServiceChain => "ServiceChain",
    }
}

/// A signal's name in the `data-signal` attribute (the variant's name, as `bottleneck_key`).
pub fn signal_key(s: Signal) -> &'static str {
    match s {
        Signal::OutOfMemory => "OutOfMemory",
        Signal::GpuUtilization => "GpuUtilization",
        Signal::SmActivity => "SmActivity",
        Signal::BandwidthShare => "BandwidthShare",
        Signal::CommunicationShare => "CommunicationShare",
        Signal::LoaderWaitShare => "LoaderWaitShare",
        Signal::ModelLatencyShare => "ModelLatencyShare",
        Signal::MultiGpu => "MultiGpu",
    }
}

/// Position of an enum value in its `ALL`-like order, for the i18n arrays.
fn nth<T: PartialEq + Copy, const N: usize>(order: [T; N], v: T) -> usize {
    order.iter().position(|x| *x == v).unwrap_or(0)
}

fn pick<const N: usize>(arr: &[&'static str; N], i: usize) -> &'static str {
    arr.get(i).copied().unwrap_or("")
}

pub const SIGNALS: [Signal; 8] = [
    Signal::OutOfMemory,
    Signal::GpuUtilization,
    Signal::SmActivity,
    Signal::BandwidthShare,
    Signal::CommunicationShare,
    Signal::LoaderWaitShare,
    Signal::ModelLatencyShare,
    Signal::MultiGpu,
];

pub const REMEDY_IDS: [RemedyId; 28] = [
    RemedyId::QuantiseWeights,
    RemedyId::ShardWeights,
    RemedyId::BiggerGpu,
    RemedyId::MicroBatchAccumulate,
    RemedyId::ActivationCheckpointing,
    RemedyId::PagedKvCache,
    RemedyId::QuantiseKvCache,
    RemedyId::LimitConcurrency,
    RemedyId::Offload,
    RemedyId::LargerBatches,
    RemedyId::ServingEngine,
    RemedyId::CudaGraphs,
    RemedyId::FuseKernels,
    RemedyId::TensorCoreShapes,
    RemedyId::BatchDecode,
    RemedyId::LowerPrecisionBytes,
    RemedyId::FusedAttention,
    RemedyId::AvoidCopies,
    RemedyId::CheckTopology,
    RemedyId::OverlapCommunication,
    RemedyId::SyncLessOften,
    RemedyId::TensorParallelInNode,
    RemedyId::BetterInterconnect,
    RemedyId::MoreLoaderWorkers,
    RemedyId::LocalCache,
    RemedyId::LargeShards,
    RemedyId::TraceStages,
    RemedyId::FixSlowStage,
];

pub const CONTRADICTIONS: [Contradiction; 5] = [
    Contradiction::SmAboveUtilization,
    Contradiction::ModelAboveEndToEnd,
    Contradiction::CommunicationOnOneGpu,
    Contradiction::LoaderWaitAboveIdle,
    Contradiction::FasterThanBound,
];

/// The bottleneck's (name, meaning).
pub fn bottleneck_text(lang: Lang, b: Bottleneck) -> (&'static str, &'static str) {
    lang.diag().bottlenecks.get(nth(Bottleneck::ALL, b)).copied().unwrap_or(("", ""))
}

/// The signal's (name, how to measure it).
pub fn signal_text(lang: Lang, s: Signal) -> (&'static str, &'static str) {
    lang.diag().signals.get(nth(SIGNALS, s)).copied().unwrap_or(("", ""))
}

/// The remedy's (what to do, what to watch for).
pub fn remedy_text(lang: Lang, r: RemedyId) -> (&'static str, &'static str) {
    lang.diag().remedy.get(nth(REMEDY_IDS, r)).copied().unwrap_or(("", ""))
}

/// The contradiction, in words.
pub fn contradiction_text(lang: Lang, c: Contradiction) -> String {
    let t = lang.diag();
    match c {
        Contradiction::OutOfRange(s) => pick(&t.contradiction, 0).replace("{s}", signal_text(lang, s).0),
        other => pick(&t.contradiction, 1 + nth(CONTRADICTIONS, other)).to_owned(),
    }
}

pub fn tension_text(lang: Lang, t: Tension) -> &'static str {
    let i = match t {
        Tension::BusyButSmsIdle => 0,
        Tension::GapsBetweenSaturatedKernels => 1,
    };
    pick(&lang.diag().tension, i)
}

fn cost_text(lang: Lang, c: Cost) -> &'static str {
    pick(&lang.diag().costs, nth([Cost::Saves, Cost::Nothing, Cost::Low, Cost::Medium, Cost::High], c))
}

fn cost_class(c: Cost) -> &'static str {
    match c {
        Cost::Saves => "saves",
        Cost::Nothing => "none",
        Cost::Low => "low",
        Cost::Medium => "medium",
        Cost::High => "high",
    }
}

/// Escaped text with `code` between backticks.
pub fn rich(text: &str) -> String {
    text.split('`')
        .enumerate()
        .map(|(i, part)| if i % 2 == 1 { format!("<code>{}</code>", esc(part)) } else { esc(part) })
        .collect()
}

/// The notices as an alert (empty when there are none).
pub fn notices_html(lang: Lang, notices: &[Notice]) -> String {
    if notices.is_empty() {
        return String::new();
    }
    let t = lang.diag();
    let items: String = notices
        .iter()
        .map(|n| {
            let problem = match n.problem {
                Problem::NotANumber => t.not_a_number,
                Problem::Above100 => t.above_100,
                Problem::Negative => t.negative,
                Problem::NotPositive => t.not_positive,
                Problem::NotWhole => t.not_whole,
                Problem::TooLarge => t.too_large,
                Problem::UnknownChoice => t.unknown_choice,
                Problem::UnknownModel => t.unknown_model,
                Problem::UnknownGpu => t.unknown_gpu,
                Problem::UnknownPart => t.unknown_part,
                Problem::UnknownPreset => t.unknown_preset,
            };
            let semi = if lang == Lang::Zh { "；" } else { "; " };
            let (name, then) = match n.field {
                Some(f) => (
                    esc(f.label(lang)),
                    match n.problem {
                        Problem::UnknownPreset => String::new(),
                        _ if f.has_default() => format!("{semi}{}", esc(t.kept_default)),
                        _ => format!("{semi}{}", esc(t.left_unknown)),
                    },
                ),
                None => (format!("<code>{}</code>", esc(&n.key)), String::new()),
            };
            format!(
                "<li data-field=\"{}\"><strong>{name}</strong>{}“{}” {}{then}</li>",
                esc(&n.key),
                lang.colon(),
                esc(&n.value),
                esc(problem)
            )
        })
        .collect();
    format!("<div class=\"banner warn\" role=\"status\"><p>{}</p><ul>{items}</ul></div>", esc(t.repaired))
}

fn option(value: &str, label: &str, selected: bool) -> String {
    format!(
        "<option value=\"{}\"{}>{}</option>",
        esc(value),
        if selected { " selected" } else { "" },
        esc(label)
    )
}

fn number_input(lang: Lang, field: Field, value: Option<f64>, max: Option<f64>) -> String {
    let v = value.map(|v| format!("{v}")).unwrap_or_default();
    let max = max.map(|m| format!(" max=\"{m}\"")).unwrap_or_default();
    format!(
        "<label class=\"dg-field\"><span>{}</span><input type=\"number\" name=\"{}\" min=\"0\"{max} step=\"any\" inputmode=\"decimal\" value=\"{}\" placeholder=\"{}\"></label>",
        esc(field.label(lang)),
        field.key(),
        esc(&v),
        esc(lang.diag().dont_know)
    )
}

fn select(lang: Lang, field: Field, options: &[(String, &str)], selected: &str) -> String {
    let opts: String = options.iter().map(|(v, l)| option(v, l, v == selected)).collect();
    format!(
        "<label class=\"dg-field\"><span>{}</span><select name=\"{}\">{opts}</select></label>",
        esc(field.label(lang)),
        field.key()
    )
}

fn group(title: (&str, &str), open: bool, body: &str) -> String {
    format!(
        "<details class=\"dg-group\"{}><summary>{}</summary><p class=\"muted\">{}</p><div class=\"dg-fields\">{body}</div></details>",
        if open { " open" } else { "" },
        esc(title.0),
        esc(title.1)
    )
}

/// The form: the example picker, then the questions in five collapsible groups (a group opens
/// when it holds an answer, the first one always).
pub fn form_html(lang: Lang, s: &State) -> String {
    let t = lang.diag();
    let presets: String = std::iter::once(option("", t.preset_blank, true))
        .chain(PRESETS.iter().zip(t.presets).map(|((name, _), label)| option(name, label, false)))
        .collect();
    let head = format!(
        "<div class=\"dg-presets\"><label class=\"dg-field\"><span>{}</span><select name=\"preset\">{presets}</select></label> <button type=\"button\" class=\"button secondary\" data-action=\"clear\">{}</button></div>",
        esc(t.start_from),
        esc(t.clear)
    );
    let oom_values = ["", "no", "yes", "start", "batch", "conc"];
    let oom_now = match s.oom {
        Oom::Unknown => "",
        Oom::No => "no",
        Oom::Yes => "yes",
        Oom::At(OomAt::StartUp) => "start",
        Oom::At(OomAt::GrowingBatch) => "batch",
        Oom::At(OomAt::RisingConcurrency) => "conc",
    };
    let opts = |values: &[&str], labels: &[&'static str]| -> Vec<(String, &'static str)> {
        values.iter().zip(labels).map(|(v, l)| ((*v).to_owned(), *l)).collect()
    };
    let memory = select(lang, Field::Oom, &opts(&oom_values, &t.oom_opts), oom_now);
    let gpu = format!(
        "{}{}{}{}",
        number_input(lang, Field::Util, s.util, Some(100.0)),
        number_input(lang, Field::Sm, s.sm, Some(100.0)),
        number_input(lang, Field::Bw, s.bw, (!s.bw_gbs).then_some(100.0)),
        select(
            lang,
            Field::BwUnit,
            &opts(&["pct", "gbs"], &t.bw_units),
            if s.bw_gbs { "gbs" } else { "pct" }
        ),
    );
    let multi_now = match s.multi {
        None => "",
        Some(false) => "0",
        Some(true) => "1",
    };
    let multi = format!(
        "{}{}",
        select(lang, Field::Multi, &opts(&["", "0", "1"], &t.multi_opts), multi_now),
        number_input(lang, Field::Comm, s.comm, Some(100.0))
    );
    let outside = format!(
        "{}{}{}",
        number_input(lang, Field::Loader, s.loader, Some(100.0)),
        number_input(lang, Field::EndToEnd, s.e2e_ms, None),
        number_input(lang, Field::ModelLatency, s.model_ms, None)
    );
    let model_opts: Vec<(String, &str)> = std::iter::once((String::new(), t.wl_none))
        .chain(models::all().iter().map(|m| (m.model.id.clone(), m.model.name.as_str())))
        .collect();
    let gpu_opts: Vec<(String, &str)> = gpus::all().iter().map(|g| (g.id.clone(), g.name.as_str())).collect();
    let labels: Vec<String> = PRECISIONS.iter().map(|d| d.name().to_ascii_uppercase()).collect();
    let p_opts: Vec<(String, &str)> =
        PRECISIONS.iter().zip(&labels).map(|(d, l)| (d.name().to_owned(), l.as_str())).collect();
    let kind_now = match s.kind {
        Kind::Decode => "decode",
        Kind::Prefill => "prefill",
        Kind::Step => "step",
    };
    let whole_input = |field: Field, v: u64, max: u64| {
        format!(
            "<label class=\"dg-field\"><span>{}</span><input type=\"number\" name=\"{}\" min=\"1\" max=\"{max}\" step=\"1\" inputmode=\"numeric\" value=\"{v}\"></label>",
            esc(field.label(lang)),
            field.key()
        )
    };
    let work = format!(
        "{}{}{}{}{}{}{}",
        select(lang, Field::Model, &model_opts, s.model.as_deref().unwrap_or("")),
        select(lang, Field::Gpu, &gpu_opts, &s.gpu),
        select(lang, Field::Precision, &p_opts, s.precision.name()),
        whole_input(Field::Batch, s.batch, MAX_BATCH),
        whole_input(Field::Context, s.context, MAX_CONTEXT),
        select(lang, Field::Kind, &opts(&["decode", "prefill", "step"], &t.wl_kinds), kind_now),
        number_input(lang, Field::Measured, s.measured, None),
    );
    format!(
        "{head}{}{}{}{}{}",
        group(t.g_memory, true, &memory),
        group(t.g_gpu, s.util.is_some() || s.sm.is_some() || s.bw.is_some(), &gpu),
        group(t.g_multi, s.multi.is_some() || s.comm.is_some(), &multi),
        group(t.g_outside, s.loader.is_some() || s.e2e_ms.is_some() || s.model_ms.is_some(), &outside),
        group(t.g_workload, s.model.is_some(), &work),
    )
}

/// One piece of evidence: the observation, its value, the comparison and the threshold.
fn evidence_html(lang: Lang, o: &Observations, r: &Rule, derived: bool) -> String {
    let t = lang.diag();
    let name = signal_text(lang, r.signal).0;
    let text = match r.signal {
        Signal::OutOfMemory => {
            let when = o.oom_at.map(|a| {
                let i = nth([OomAt::StartUp, OomAt::GrowingBatch, OomAt::RisingConcurrency], a);
                format!(" ({})", pick(&t.oom_at, i))
            });
            format!("{name}{}{}{}", lang.colon(), t.yes, when.unwrap_or_default())
        }
        Signal::MultiGpu => format!("{name}{}{}", lang.colon(), pick(&t.multi_opts, 2)),
        s => {
            let v = o.value(s).map(format_percent).unwrap_or_default();
            let op = match r.compare {
                Compare::AtLeast => "≥",
                Compare::Below => "<",
            };
            let from = if derived && s == Signal::BandwidthShare { t.derived } else { "" };
            format!("{name} {v} {op} {}{from}", format_percent(r.threshold))
        }
    };
    format!("<li data-signal=\"{}\">{}</li>", signal_key(r.signal), esc(&text))
}

fn remedies_html(lang: Lang, b: Bottleneck, oom_at: Option<OomAt>) -> String {
    let t = lang.diag();
    let head: String = t.cost_cols.iter().map(|c| format!("<th scope=\"col\">{}</th>", esc(c))).collect();
    let rows: String = remedies(b, oom_at)
        .iter()
        .map(|r| {
            let (what, note) = remedy_text(lang, r.id);
            let cells: String = [r.memory, r.time, r.money, r.complexity]
                .iter()
                .zip(t.cost_cols.iter().skip(1))
                .map(|(c, col)| {
                    format!(
                        "<td class=\"cost-{}\" data-label=\"{}\">{}</td>",
                        cost_class(*c),
                        esc(col),
                        esc(cost_text(lang, *c))
                    )
                })
                .collect();
            format!("<tr><th scope=\"row\">{}<small>{}</small></th>{cells}</tr>", rich(what), rich(note))
        })
        .collect();
    format!(
        "<details class=\"dg-remedies\" open><summary>{}</summary><table><thead><tr>{head}</tr></thead><tbody>{rows}</tbody></table></details>",
        esc(t.remedies)
    )
}

fn estimator_query(scenario: &Scenario) -> String {
    use crate::estimator::state::{encode, EstimatorState};
    encode(&EstimatorState { scenario: scenario.clone(), ..Default::default() })
}

fn estimator_link(lang: Lang, scenario: &Scenario) -> String {
    format!("#/{}/estimate?{}", lang.code(), estimator_query(scenario))
}

/// The widget that shows a bottleneck's mechanism (`#/{lang}/embed/KIND`) and its title: the
/// memory breakdown, the bound times, the roofline, all-reduce time. None for data input and the
/// serving path (no widget draws them).
pub fn widget_for(lang: Lang, b: Bottleneck) -> Option<(&'static str, &'static str)> {
    let e = lang.est();
    match b {
        Bottleneck::Capacity => Some(("memory", e.memory_per_gpu)),
        Bottleneck::ComputeUnderused => Some(("bound", e.chart_bound_title)),
        Bottleneck::MemoryBandwidth => Some(("roofline", e.chart_roofline_title)),
        Bottleneck::Communication => Some(("all-reduce", lang.wid().ar_title)),
        Bottleneck::DataInput | Bottleneck::ServiceChain => None,
    }
}

/// The link to a bottleneck's widget, carrying the workload when there is one (the estimator's
/// widgets read the estimator's query; the all-reduce widget starts from its example).
fn widget_link(lang: Lang, b: Bottleneck, scenario: Option<&Scenario>) -> String {
    let Some((kind, title)) = widget_for(lang, b) else { return String::new() };
    let query = match scenario {
        Some(sc) if kind != "all-reduce" => format!("?{}", estimator_query(sc)),
        _ => String::new(),
    };
    format!(
        " · <a href=\"{}\" data-widget-link=\"{kind}\">{}</a>",
        esc(&format!("#/{}/embed/{kind}{query}", lang.code())),
        esc(title)
    )
}

fn workload_html(lang: Lang, s: &State, w: &Option<Result<WorkloadView, EngineError>>) -> String {
    let t = lang.diag();
    let w = match w {
        None => return String::new(),
        Some(Err(e)) => {
            return format!(
                "<section class=\"dg-workload\"><h3>{}</h3><p class=\"banner error\">{} {}</p></section>",
                esc(t.workload),
                esc(t.workload_error),
                esc(&crate::i18n::errors::scenario_error(e.scenario_error(), lang))
            )
        }
        Some(Ok(w)) => w,
    };
    let phase_i = match s.kind {
        Kind::Decode => 0,
        Kind::Prefill => 1,
        Kind::Step => 2,
    };
    let roof_name =
        |r: Term| pick(&t.roofs, nth([Term::Compute, Term::Memory, Term::Communication, Term::Overhead], r));
    let tok_s = lang.est().tok_s;
    let bound = if s.kind == Kind::Step {
        format_seconds(w.bound_s)
    } else {
        format_rate(w.bound_tokens_per_s, tok_s)
    };
    let comma = if lang == Lang::Zh { "，" } else { ", " };
    // A speed's roofline figure is its highest possible, a step time's its shortest possible.
    let bound_label = if s.kind == Kind::Step { t.bound.1 } else { t.bound.0 };
    let mut rows =
        vec![(bound_label, format!("{bound} ({}{comma}{})", roof_name(w.roof), w.gpu_name), "bound")];
    let sentence = match &w.comparison {
        Some(c) => {
            let measured = match s.kind {
                Kind::Step => format_seconds(c.measured_s),
                _ => format_rate(s.measured.unwrap_or(0.0), tok_s),
            };
            rows.insert(0, (t.measured, measured, "measured"));
            let roof_fraction = match c.roof {
                Term::Memory => c.memory_roof_fraction,
                Term::Compute => c.compute_roof_fraction,
                _ => c.fraction_of_bound,
            };
            let sentence = format!(
                "<p class=\"dg-reaches\" data-fraction=\"{roof_fraction}\">{}{}{}<strong>{}</strong>{}{}{}</p>",
                esc(t.reaches.0),
                esc(pick(&t.phases, phase_i)),
                esc(t.reaches.1),
                esc(&format_percent(roof_fraction)),
                esc(t.reaches.2),
                esc(roof_name(c.roof)),
                esc(t.reaches.3)
            );
            rows.push((
                t.memory_roof,
                format!(
                    "{} ({} / {})",
                    format_percent(c.memory_roof_fraction),
                    format_rate(c.memory_roof_fraction * w.peak_bandwidth, "B/s"),
                    format_rate(w.peak_bandwidth, "B/s")
                ),
                "memory-roof",
            ));
            rows.push((t.compute_roof, format_percent(c.compute_roof_fraction), "compute-roof"));
            sentence
        }
        None => format!("<p class=\"muted\">{}</p>", esc(t.no_measurement)),
    };
    let fit = format!(
        "{} ({} {})",
        format_bytes(w.memory_needed, ByteUnit::Gb),
        if w.fits { t.fits } else { t.does_not_fit },
        format_bytes(w.usable_memory, ByteUnit::Gb)
    );
    rows.push((t.memory_needed, fit, if w.fits { "fits" } else { "no-fit" }));
    let dl: String = rows
        .iter()
        .map(|(k, v, key)| format!("<dt>{}</dt><dd data-k=\"{key}\">{}</dd>", esc(k), esc(v)))
        .collect();
    format!(
        "<section class=\"dg-workload\"><h3>{}</h3>{sentence}<dl>{dl}</dl><p><a href=\"{}\">{}</a></p></section>",
        esc(t.workload),
        esc(&estimator_link(lang, &w.scenario)),
        esc(t.open_estimator)
    )
}

/// The results: the likely bottlenecks ranked with their evidence, remedies and links; the
/// contradictions and tensions; the workload against the bound; what is worth measuring.
/// `full_link`: the widget's link to the full tool with this state.
pub fn results_html(lang: Lang, s: &State, full_link: bool) -> String {
    let t = lang.diag();
    let obs = s.observations();
    let w = workload(s);
    let comparison = w.as_ref().and_then(|w| w.as_ref().ok()).and_then(|w| w.comparison);
    let (d, derived) = diagnose_with(&obs, comparison.as_ref());
    let mut out = format!("<h2>{}</h2>", esc(t.results));
    out.push_str(&findings_html(lang, s, &obs, &d, derived));
    if !d.contradictions.is_empty() {
        let items: String = d
            .contradictions
            .iter()
            .map(|c| format!("<li>{}</li>", rich(&contradiction_text(lang, *c))))
            .collect();
        out.push_str(&format!(
            "<div class=\"banner error dg-contradictions\" role=\"alert\"><strong>{}</strong><ul>{items}</ul></div>",
            esc(t.contradictions)
        ));
    }
    if !d.tensions.is_empty() {
        let items: String =
            d.tensions.iter().map(|x| format!("<li>{}</li>", rich(tension_text(lang, *x)))).collect();
        out.push_str(&format!(
            "<section class=\"dg-tensions\"><h3>{}</h3><ul>{items}</ul></section>",
            esc(t.tensions)
        ));
    }
    out.push_str(&workload_html(lang, s, &w));
    if !d.worth_measuring.is_empty() {
        let items: String = d
            .worth_measuring
            .iter()
            .map(|sig| {
                let (name, how) = signal_text(lang, *sig);
                format!(
                    "<li data-signal=\"{}\"><strong>{}</strong>{}{}</li>",
                    signal_key(*sig),
                    esc(name),
                    lang.colon(),
                    rich(how)
                )
            })
            .collect();
        out.push_str(&format!(
            "<section class=\"dg-unknown\"><h3>{}</h3><ul>{items}</ul></section>",
            esc(t.unknown)
        ));
    }
    if full_link {
        let q = s.to_query();
        let href = if q.is_empty() {
            format!("#/{}/tools/diagnose", lang.code())
        } else {
            format!("#/{}/tools/diagnose?{q}", lang.code())
        };
        out.push_str(&format!(
            "<p class=\"dg-full\"><a class=\"button\" href=\"{}\">{}</a></p>",
            esc(&href),
            esc(t.open_full)
        ));
    }
    out
}

fn findings_html(lang: Lang, s: &State, obs: &Observations, d: &Diagnosis, derived: bool) -> String {
    let t = lang.diag();
    if d.findings.is_empty() {
        let text = if s.is_blank() { t.nothing_yet } else { t.nothing_found };
        return format!("<p class=\"dg-none\">{}</p>", esc(text));
    }
    let chapter = format!("#/{}/chapters/bottlenecks?s=", lang.code());
    let scenario = s.scenario();
    let items: String = d
        .findings
        .iter()
        .map(|f| {
            let (name, meaning) = bottleneck_text(lang, f.bottleneck);
            let (strength, class) = match f.strength {
                Strength::Strong => (t.strong, "strong"),
                Strength::Hint => (t.hint, "hint"),
            };
            let evidence: String = f.evidence.iter().map(|r| evidence_html(lang, obs, r, derived)).collect();
            format!(
                "<li class=\"dg-finding\" data-bottleneck=\"{}\" data-strength=\"{class}\"><h3>{} <span class=\"dg-strength {class}\">{}</span></h3>\
                 <p>{}</p><p class=\"dg-label\">{}</p><ul class=\"dg-evidence\">{evidence}</ul>{}\
                 <p class=\"dg-links\">{} <a href=\"{chapter}{}\">{}</a>{}</p></li>",
                bottleneck_key(f.bottleneck),
                esc(name),
                esc(strength),
                esc(meaning),
                esc(t.evidence),
                remedies_html(lang, f.bottleneck, obs.oom_at),
                esc(t.read_chapter),
                section(f.bottleneck),
                esc(name),
                widget_link(lang, f.bottleneck, scenario.as_ref())
            )
        })
        .collect();
    format!("<ol class=\"dg-findings\">{items}</ol>")
}
