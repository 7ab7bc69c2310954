#![cfg(not(target_arch = "wasm32"))]
//! Chart text is never clipped: every label of the estimator's charts lies inside its chart, in
//! both languages, at a desktop's and a phone's width, for the article's presets and for
//! scenarios that give the longest labels (each topology, compute paths without a 16-bit
//! Tensor Core path, training, serving under load). Widths are the charts' own conservative
//! estimate (`charts::text_fit`); `tests/e2e/every-page.test.mjs` measures the drawn text.
//! Every page's default charts and figures are checked where the site is written (`site.rs`).

use gpu_primer::charts::format::ByteUnit;
use gpu_primer::charts::text_fit::overflows;
use gpu_primer::charts::{
    bound_bars_svg, kv_growth_svg, roofline_svg, scaling_svg, DESKTOP_WIDTH, PHONE_WIDTH,
};
use gpu_primer::engine::Scenario;
use gpu_primer::estimator::{chart_inputs, load_panel, presets};
use gpu_primer::i18n::Lang;

fn scenarios() -> Vec<(String, Scenario)> {
    let mut out: Vec<(String, Scenario)> =
        presets::PRESETS.iter().map(|p| (p.id.to_string(), p.scenario())).collect();
    for json in [
        r#"{"model": "llama-3.1-70b", "gpu": "h100-sxm", "gpus": 16, "tensor_parallel": 8, "topology": "nvswitch"}"#,
        r#"{"model": "llama-3.1-70b", "gpu": "h100-sxm", "gpus": 16, "tensor_parallel": 8, "topology": "nvswitch_efa"}"#,
        r#"{"model": "llama-3.1-8b", "gpu": "l4", "gpus": 4, "tensor_parallel": 4, "topology": "pcie"}"#,
        r#"{"model": "llama-3.1-8b", "gpu": "v100-sxm-32gb", "weight_dtype": "bf16"}"#,
        r#"{"model": "llama-3.1-8b", "mode": "training", "gpus": 64, "zero_stage": 3}"#,
        r#"{"model": "llama-3.1-8b", "weight_dtype": "fp8", "batch": 64, "arrival_rate_per_s": 4}"#,
        r#"{"model": "llama-3.1-8b", "batch": 32, "concurrent_users": 48}"#,
        r#"{"model": "qwen3-30b-a3b", "gpus": 8, "expert_parallel": 8, "context_tokens": 131072}"#,
    ] {
        let value: serde_json::Value = serde_json::from_str(json).expect("a scenario");
        let s = Scenario::from_json(&value).unwrap_or_else(|e| panic!("{json}: {e:?}"));
        out.push((json.to_string(), s));
    }
    out
}

#[test]
fn the_estimators_charts_keep_their_text_inside_in_both_languages_and_widths() {
    let mut failures = Vec::new();
    let mut checked = 0;
    for (name, s) in scenarios() {
        let r = gpu_primer::estimate(&s).unwrap_or_else(|e| panic!("{name}: {e:?}"));
        for lang in [Lang::Zh, Lang::En] {
            let e = lang.est();
            let load = r.load.as_ref().map(|l| load_panel::chart(l, lang.load()));
            for width in [DESKTOP_WIDTH, PHONE_WIDTH] {
                let mut svgs = vec![
                    ("bound", bound_bars_svg(&chart_inputs::bound_chart(&r, e), width)),
                    ("roofline", roofline_svg(&chart_inputs::roofline_chart(&r, e, lang), width)),
                    ("scaling", scaling_svg(&chart_inputs::scaling_chart(&r, e, lang), width)),
                    ("kv", kv_growth_svg(&chart_inputs::kv_chart(&s, &r, ByteUnit::Gb, e), width)),
                ];
                if let Some(chart) = &load {
                    svgs.push(("load", gpu_primer::charts::latency_load::latency_load_svg(chart, width)));
                }
                for (chart, svg) in svgs {
                    checked += 1;
                    for o in overflows(&svg) {
                        failures.push(format!("{name} {lang:?} {width} {chart}: {o:?}"));
                    }
                }
            }
        }
    }
    assert!(checked > 100, "{checked} charts");
    assert!(failures.is_empty(), "{} texts outside their chart:\n{}", failures.len(), failures.join("\n"));
}

/// The capacity planner's latency chart, drawn at the phone's width on a phone (it was a 640-px
/// chart shrunk to 6 px text), keeps its text inside in both languages.
#[test]
fn the_planners_chart_keeps_its_text_inside_at_both_widths() {
    use gpu_primer::tools::plan::{self as p, html, state};
    let (s, _) = state::parse("");
    let plan = p::plan(&s);
    for lang in [Lang::Zh, Lang::En] {
        for width in [DESKTOP_WIDTH, PHONE_WIDTH] {
            let page = html::results_html_at(lang, &s, &plan, width);
            let svgs = gpu_primer::charts::text_fit::svgs(&page);
            assert_eq!(svgs.len(), 1, "{lang:?} {width}: one chart");
            assert!(svgs[0].contains(&format!("viewBox=\"0 0 {width} ")), "drawn at {width}");
            let outside = overflows(svgs[0]);
            assert!(outside.is_empty(), "{lang:?} {width}: {outside:?}");
        }
    }
}
