use super::*;
use crate::engine::diagnose::Bottleneck as B;

fn first(query: &str) -> Option<(Bottleneck, Strength)> {
    let (s, notices) = parse_query(query);
    assert!(notices.is_empty(), "{query}: {notices:?}");
    let w = workload(&s);
    let c = w.as_ref().and_then(|w| w.as_ref().ok()).and_then(|w| w.comparison);
    diagnose_with(&s.observations(), c.as_ref()).0.findings.first().map(|f| (f.bottleneck, f.strength))
}

#[test]
fn every_kind_is_reachable_from_the_form() {
    let cases = [
        ("oom=conc", B::Capacity),
        ("util=95&sm=10&bw=20", B::ComputeUnderused),
        ("bw=85", B::MemoryBandwidth),
        ("bw=1700&bwu=gbs&g=a100-sxm-80gb", B::MemoryBandwidth),
        ("multi=1&comm=35", B::Communication),
        ("dl=30", B::DataInput),
        ("e2e=1200&lat=300", B::ServiceChain),
    ];
    for (q, b) in cases {
        assert_eq!(first(q), Some((b, Strength::Strong)), "{q}");
    }
}

#[test]
fn every_preset_parses_cleanly_and_points_somewhere() {
    let expected = [
        B::MemoryBandwidth,
        B::Capacity,
        B::ComputeUnderused,
        B::Communication,
        B::DataInput,
        B::ServiceChain,
    ];
    for ((name, q), b) in PRESETS.iter().zip(expected) {
        assert_eq!(first(q).map(|f| f.0), Some(b), "{name}");
        let (via_name, notices) = parse_query(&format!("preset={name}"));
        assert!(notices.is_empty());
        assert_eq!(via_name, parse_query(q).0, "{name}");
    }
}

#[test]
fn the_chapter_example_reaches_most_of_the_memory_roof() {
    // Llama-3.1-8B in BF16 on an H100 SXM, batch 1: the engine's decode bound is set by the
    // memory roof; 170 tok/s measured is a share of it the page states as a percentage.
    let (s, _) = parse_query("preset=decode");
    let w = workload(&s).expect("a workload").expect("evaluates");
    assert_eq!(w.roof, Term::Memory);
    let c = w.comparison.expect("a measured speed");
    assert!(c.memory_roof_fraction > 0.5 && c.memory_roof_fraction < 1.0, "{c:?}");
    assert!((c.fraction_of_bound * w.bound_tokens_per_s - 170.0).abs() < 1e-6);
    let html = results_html(Lang::En, &s, true);
    assert!(html.contains("Your decode reaches"), "{html}");
    assert!(html.contains(&format_percent(c.memory_roof_fraction)));
    assert!(html.contains("(from your workload)"));
    assert!(html.contains("#/en/tools/diagnose?util=97&amp;m=llama-3.1-8b"), "{html}");
}

#[test]
fn unknowns_stay_unknown() {
    let (s, notices) = parse_query("");
    assert!(notices.is_empty() && s == State::default() && s.is_blank());
    assert_eq!(s.observations(), Observations::default());
    let html = results_html(Lang::En, &s, false);
    assert!(html.contains("No observation yet"));
    assert!(!html.contains("dg-finding"));
    // A field cleared in the form goes back to unknown, not to zero.
    let mut s = parse_query("util=95").0;
    assert_eq!(s.set("util", ""), None);
    assert_eq!(s.util, None);
    // Without a measured speed the workload says what the bound is, and derives nothing.
    let (s, _) = parse_query("m=llama-3.1-8b");
    assert!(workload(&s).expect("given").expect("evaluates").comparison.is_none());
    assert_eq!(first("m=llama-3.1-8b"), None);
}

#[test]
fn contradictions_are_named_in_both_languages() {
    let (s, _) = parse_query("util=40&sm=90&e2e=100&lat=200&multi=0&comm=30&dl=80");
    let html = results_html(Lang::En, &s, false);
    assert!(html.contains("These observations contradict each other"));
    assert!(html.contains("SM activity above GPU utilisation"));
    assert!(html.contains("The model's latency is above the end-to-end latency"));
    assert!(html.contains("Collective time on a single GPU"));
    assert!(html.contains("utilisation plus the loader wait is above 100%"));
    let zh = results_html(Lang::Zh, &s, false);
    assert!(zh.contains("这些观察互相矛盾"));
    // A bandwidth in GB/s above the GPU's peak is out of range, named by its field.
    let (s, _) = parse_query("bw=5000&bwu=gbs&g=h100-sxm");
    assert!(results_html(Lang::En, &s, false).contains("Achieved memory bandwidth is outside 0–100%"));
    // Faster than the bound.
    let (s, _) = parse_query("m=llama-3.1-8b&mv=100000");
    let html = results_html(Lang::En, &s, false);
    assert!(html.contains("beats the engine's roofline best case"), "{html}");
    assert!(html.contains("The engine's upper bound on the speed"), "{html}");
    // A training step time's roofline figure is a lower bound: the shortest possible time.
    let (s, _) = parse_query("m=llama-3.1-8b&mk=step&mv=0.001");
    let html = results_html(Lang::En, &s, false);
    assert!(html.contains("The engine's lower bound on the time"), "{html}");
    assert!(!html.contains("upper bound"), "{html}");
    let zh = results_html(Lang::Zh, &s, false);
    assert!(zh.contains("时间下限") && !zh.contains("上限（"), "{zh}");
    // Busy but idle: a tension, explained, not a contradiction.
    let html = results_html(Lang::En, &parse_query("util=95&sm=10").0, false);
    assert!(html.contains("Looks contradictory, but is a clue") && !html.contains("contradict each other"));
}

#[test]
fn state_round_trips_through_the_query() {
    let queries = [
        "",
        "oom=start",
        "oom=batch&util=12.5&sm=3&bw=1200&bwu=gbs&multi=1&comm=22&dl=4&e2e=850&lat=0.5",
        "oom=no&m=qwen2.5-72b&g=a100-sxm-80gb&p=int4&b=32&ctx=32768&mk=prefill&mv=9000",
        "m=llama-3.1-8b&mk=step&mv=2.5",
    ];
    for q in queries {
        let (s, notices) = parse_query(q);
        assert!(notices.is_empty(), "{q}: {notices:?}");
        assert_eq!(s.to_query(), q);
        assert_eq!(parse_query(&s.to_query()).0, s);
    }
    // The unit may come after the bandwidth.
    assert_eq!(parse_query("bw=1200&bwu=gbs").0, parse_query("bwu=gbs&bw=1200").0);
}

#[test]
fn a_mangled_query_is_repaired_field_by_field() {
    let (s, notices) = parse_query(
        "util=140&sm=abc&e2e=-5&lat=0&b=2.5&ctx=0&m=nope&g=gtx-9000&oom=maybe&zzz=1&mv=NaN&preset=x",
    );
    let got: Vec<(Option<Field>, Problem)> = notices.iter().map(|n| (n.field, n.problem)).collect();
    assert_eq!(
        got,
        vec![
            (Some(Field::Preset), Problem::UnknownPreset),
            (Some(Field::Util), Problem::Above100),
            (Some(Field::Sm), Problem::NotANumber),
            (Some(Field::EndToEnd), Problem::Negative),
            (Some(Field::ModelLatency), Problem::NotPositive),
            (Some(Field::Batch), Problem::NotWhole),
            (Some(Field::Context), Problem::NotPositive),
            (Some(Field::Model), Problem::UnknownModel),
            (Some(Field::Gpu), Problem::UnknownGpu),
            (Some(Field::Oom), Problem::UnknownChoice),
            (None, Problem::UnknownPart),
            (Some(Field::Measured), Problem::NotANumber),
        ]
    );
    // Everything that could not be used is unknown or its default, never a NaN.
    assert_eq!(s, State::default());
    let html = notices_html(Lang::En, &notices);
    assert!(html.contains("<strong>GPU utilisation (%)</strong>: “140” is above 100%; left as don't know"));
    assert!(html
        .contains("<strong>Batch / concurrency</strong>: “2.5” must be a whole number; the default is used"));
    assert!(html.contains("<code>zzz</code>"));
    let zh = notices_html(Lang::Zh, &notices);
    assert!(zh.contains("<strong>GPU 利用率（%）</strong>：“140” 超过 100%；按“不知道”处理"), "{zh}");
    // Text in the notices is escaped.
    let (_, n) = parse_query("util=<b>");
    assert!(notices_html(Lang::En, &n).contains("“&lt;b&gt;”"));
    assert!(!results_html(Lang::En, &parse_query("util=<b>").0, false).contains("NaN"));
}

#[test]
fn an_engine_error_is_worded_not_a_panic() {
    // A batch the engine refuses for training is named by the engine's field.
    let (s, _) = parse_query("m=llama-3.1-8b&b=100000&ctx=10000000&mk=step&mv=1");
    let html = results_html(Lang::En, &s, false);
    assert!(!html.contains("NaN"));
    assert!(html.contains("dg-workload"));
}

#[test]
fn remedies_follow_when_memory_runs_out() {
    let html = results_html(Lang::En, &parse_query("oom=conc").0, false);
    assert!(html.contains("Paged KV cache") && !html.contains("A GPU with more memory"));
    let html = results_html(Lang::En, &parse_query("oom=start").0, false);
    assert!(html.contains("A GPU with more memory") && !html.contains("Paged KV cache"));
    let html = results_html(Lang::En, &parse_query("oom=yes").0, false);
    assert!(html.contains("A GPU with more memory") && html.contains("Paged KV cache"));
    assert!(html.contains("<td class=\"cost-high\" data-label=\"Money\">high</td>"));
}

#[test]
fn every_engine_value_is_worded_in_both_languages() {
    for lang in [Lang::Zh, Lang::En] {
        for b in Bottleneck::ALL {
            let (n, m) = bottleneck_text(lang, b);
            assert!(!n.is_empty() && !m.is_empty());
            assert!(!remedies(b, None).is_empty());
        }
        for r in crate::engine::diagnose::REMEDIES {
            let (what, note) = remedy_text(lang, r.id);
            assert!(!what.is_empty() && !note.is_empty(), "{:?}", r.id);
        }
        for sig in SIGNALS {
            assert!(!signal_text(lang, sig).0.is_empty());
        }
        for c in CONTRADICTIONS {
            assert!(!contradiction_text(lang, c).is_empty());
        }
    }
    // The order of the arrays is the engine's: each remedy is worded as itself.
    assert_eq!(remedy_text(Lang::En, RemedyId::BiggerGpu).0, "A GPU with more memory");
    assert_eq!(remedy_text(Lang::En, RemedyId::FixSlowStage).0, "Fix the slowest stage, not the GPU");
    assert_eq!(REMEDY_IDS.len(), crate::engine::diagnose::REMEDIES.len());
    for (id, r) in REMEDY_IDS.iter().zip(crate::engine::diagnose::REMEDIES) {
        assert_eq!(*id, r.id);
    }
}

#[test]
fn sections_point_at_the_chapter_headings() {
    let expect = [
        (B::Capacity, "Out of memory"),
        (B::ComputeUnderused, "Compute units not kept busy"),
        (B::MemoryBandwidth, "Memory bandwidth"),
        (B::Communication, "Between GPUs: communication"),
        (B::DataInput, "Data input"),
        (B::ServiceChain, "The serving path"),
    ];
    let chapter = crate::content::find("bottlenecks").expect("chapter 11");
    for (b, heading) in expect {
        let n: usize = section(b).trim_start_matches("s-").parse().expect("a number");
        assert_eq!(chapter.en.headings.get(n - 1).map(|h| h.1), Some(heading), "{b:?}");
        // zh has the same structure (build.rs checks it), so the same ids.
        assert_eq!(chapter.zh.headings.len(), chapter.en.headings.len());
    }
}

#[test]
fn the_form_shows_the_state_and_escapes_it() {
    let (s, _) = parse_query("util=95&oom=conc&m=llama-3.1-8b");
    for lang in [Lang::Zh, Lang::En] {
        let html = form_html(lang, &s);
        assert!(html
            .contains("name=\"util\" min=\"0\" max=\"100\" step=\"any\" inputmode=\"decimal\" value=\"95\""));
        assert!(html.contains("<option value=\"conc\" selected>"));
        assert!(html.contains("<option value=\"llama-3.1-8b\" selected>"));
        assert_eq!(html.matches("<details class=\"dg-group\"").count(), 5);
        assert!(!html.contains("style="));
    }
}

#[test]
fn findings_link_their_widget_with_the_workload() {
    let html = results_html(Lang::En, &parse_query("preset=decode").0, false);
    assert!(html.contains("href=\"#/en/embed/roofline?v=1&amp;s="), "the roofline widget with the workload");
    let html = results_html(Lang::Zh, &parse_query("multi=1&comm=40").0, false);
    assert!(html.contains("href=\"#/zh/embed/all-reduce\""));
    // Data input has no widget: only the chapter link.
    let html = results_html(Lang::En, &parse_query("dl=40").0, false);
    assert!(!html.contains("data-widget-link"));
    assert!(html.contains("#/en/chapters/bottlenecks?s=s-8"));
}

#[test]
fn attribute_keys_are_the_variant_names() {
    // The wasm build formats no Debug (-Zfmt-debug=none): the keys are spelled out, and must stay
    // the names the browser tests and the stylesheet select on.
    for b in B::ALL {
        assert_eq!(bottleneck_key(b), format!("{b:?}"));
    }
    for s in SIGNALS {
        assert_eq!(signal_key(s), format!("{s:?}"));
    }
}
