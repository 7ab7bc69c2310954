//! The validation kind "time between tokens under load": a row at a request rate is compared
//! with the load model's p50 (or p95) time per output token for the same scenario; a rate past
//! what the model sustains is listed as not expressed, with the sustainable rate.

use gpu_primer::catalog::evaluate;
use gpu_primer::engine::Scenario;
use gpu_primer::validation::{validate_measurements, Reason};
use serde_json::json;

fn tpot(rate: f64, p95: bool) -> f64 {
    let s = Scenario::from_json(&json!({"model": "llama-3.1-8b", "gpu": "h100-sxm", "weight_dtype": "bf16",
        "arrival_rate_per_s": rate, "batch": 256, "prompt_tokens": 1024, "output_tokens": 128,
        "context_tokens": 1152}))
    .unwrap();
    let l = evaluate(&s).unwrap().load.unwrap();
    assert!(l.stable);
    if p95 { l.tpot_p95_s } else { l.tpot_p50_s }.unwrap() * 1e3
}

#[test]
fn tpot_under_load_rows_are_compared_with_the_load_model() {
    let file = json!({"measurements": [
        {"kind": "tpot_under_load", "model": "Llama-3.1-8B", "gpu": "1x H100 80GB",
         "conditions": {"request_rate": 4, "input_len": 1024, "output_len": 128, "precision": "bf16"},
         "value": 20.0, "unit": "ms (median TPOT)"},
        {"kind": "inter_token_latency_p95", "model": "Llama-3.1-8B", "gpu": "1x H100 80GB",
         "conditions": {"request_rate": 4, "input_len": 1024, "output_len": 128, "precision": "bf16"},
         "value": 0.03, "unit": "s"},
        {"kind": "tpot_under_load", "model": "Llama-3.1-8B", "gpu": "1x H100 80GB",
         "conditions": {"request_rate": 5000, "input_len": 1024, "output_len": 128, "precision": "bf16"},
         "value": 50.0, "unit": "ms"},
        {"kind": "tpot_under_load", "model": "Llama-3.1-8B", "gpu": "1x H100 80GB",
         "conditions": {"input_len": 1024, "output_len": 128}, "value": 20.0, "unit": "ms"}
    ]});
    let t = validate_measurements(&file);
    let rows: Vec<_> = t.rows.iter().filter(|r| r.kind == "tpot_under_load").collect();
    assert_eq!(rows.len(), 2);
    // The median row: measured 20 ms; the p95 row: 0.03 s read as 30 ms.
    assert_eq!((rows[0].measured, rows[1].measured), (20.0, 30.0));
    assert!((rows[0].expected - tpot(4.0, false)).abs() < 1e-9, "{}", rows[0].expected);
    assert!((rows[1].expected - tpot(4.0, true)).abs() < 1e-9, "{}", rows[1].expected);
    assert!(rows[1].expected >= rows[0].expected);
    assert!((rows[0].error_pct - (rows[0].expected - 20.0) / 20.0 * 100.0).abs() < 1e-9);
    assert!(rows.iter().all(|r| r.bound.is_none()));
    // 5,000 requests/s is far past one H100: not expressed, naming the sustainable rate.
    let beyond: Vec<_> =
        t.not_expressed.iter().filter(|n| matches!(n.reason, Reason::BeyondSustainableRate { .. })).collect();
    assert_eq!(beyond.len(), 1);
    let Reason::BeyondSustainableRate { sustainable } = beyond[0].reason else { unreachable!() };
    assert!(sustainable > 1.0 && sustainable < 5000.0, "{sustainable}");
    // A row without its rate is named, not guessed.
    assert!(t.not_expressed.iter().any(|n| n.index == 3 && n.reason == Reason::NoBatchOrValue));
    let summary = t.summary.iter().find(|k| k.kind == "tpot_under_load").unwrap();
    assert_eq!(summary.rows, 2);
}
