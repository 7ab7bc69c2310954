//! KV cache tiers through the whole engine (issue 32, item 6): the reused histories of open
//! sessions spread over the GPU's free KV pool, a CPU tier and an SSD tier; a hit restored from
//! a tier only when that beats recomputing it, and the time to first token with the restore.

use gpu_primer::catalog::evaluate;
use gpu_primer::engine::Scenario;
use serde_json::{json, Value};

fn scenario(v: Value) -> Scenario {
    Scenario::from_json(&v).unwrap_or_else(|e| panic!("{v}: {e}"))
}

/// vLLM's measurement set-up (blog "Inside vLLM's New KV Offloading Connector", 2026-01-08):
/// Llama-3.1-8B on one H100, one request whose whole prompt is in the CPU tier, the GPU's prefix
/// cache off.
fn whole_prompt_from_cpu(prompt: u64) -> Value {
    json!({"model": "llama-3.1-8b", "gpu": "h100-sxm", "context_tokens": prompt + 1,
           "prompt_tokens": prompt, "output_tokens": 1, "batch": 1, "prefix_hit_rate": 1.0,
           "prefix_open_sessions": 1, "kv_gpu_cache_bytes": 0, "kv_cpu_tier_bytes": 500_000_000_000_u64})
}

/// A chat deployment: 8 sequences of 16,000-token prompts on one H100, 8 turns of 500 tokens
/// after a 2,000-token system prompt, `sessions` conversations open at once.
fn chat(sessions: u64, cpu: u64, ssd: u64) -> Value {
    json!({"model": "llama-3.1-8b", "gpu": "h100-sxm", "context_tokens": 32768,
           "prompt_tokens": 16000, "output_tokens": 500, "batch": 8, "session_turns": 8,
           "session_turn_tokens": 500, "prefix_shared_tokens": 2000,
           "prefix_open_sessions": sessions, "kv_cpu_tier_bytes": cpu, "kv_ssd_tier_bytes": ssd})
}

#[test]
fn a_whole_prompt_from_the_cpu_tier_by_hand() {
    let r = evaluate(&scenario(whole_prompt_from_cpu(100_000))).unwrap();
    let t = r.performance.time.kv_tiers.unwrap();
    // 99,999 cached tokens (the last is computed), all of them from the CPU: 6,250 blocks of
    // 16 tokens × 131,072 B = 2 MiB each, each copy 3.6 µs + 2 MiB / (64 GB/s × 0.8).
    assert_eq!((t.gpu_share, t.cpu.unwrap().share, t.history_tokens), (0.0, 1.0, 99_999));
    assert_eq!(t.copies, 6250.0);
    // The cache is kept in whole blocks, so the 6,250th block is copied whole: 278.5 ms.
    let by_hand = 6250.0 * (3.6e-6 + 16.0 * 131_072.0 / 51.2e9);
    assert!((t.restore_s - by_hand).abs() < 1e-9, "{} vs {by_hand}", t.restore_s);
    // The time to first token is the restore, one token's prefill and the per-request cost.
    let time = &r.performance.time;
    let sum = time.prefill_s + t.restore_s + 0.015;
    assert!((time.time_to_first_token_s - sum).abs() < 1e-9);
    // Recomputing instead is 20 times longer at 100K tokens (vLLM measured 6.85 s vs 0.30 s).
    assert!(t.recompute_s > 20.0 * t.restore_s, "{} vs {}", t.recompute_s, t.restore_s);
    assert!(r.derivations.keys().any(|k| k.path() == "time.kv_tiers.restore_s"));
}

#[test]
fn histories_that_fit_the_gpu_need_no_tier() {
    let none = evaluate(&scenario(chat(0, 0, 0))).unwrap();
    let few = evaluate(&scenario(chat(4, 200_000_000_000, 0))).unwrap();
    let t = few.performance.time.kv_tiers.unwrap();
    assert_eq!((t.gpu_share, t.cpu.unwrap().share, t.restore_s), (1.0, 0.0, 0.0));
    let (a, b) = (&none.performance.time, &few.performance.time);
    assert_eq!(a.prefix_cached_tokens, b.prefix_cached_tokens);
    assert!((a.time_to_first_token_s - b.time_to_first_token_s).abs() < 1e-12);
    assert!(none.performance.time.kv_tiers.is_none());
}

#[test]
fn more_sessions_push_histories_down_the_tiers_and_first_tokens_come_later() {
    let mut last = (1.0_f64, 0.0_f64);
    for n in [10, 100, 500, 2000, 10_000] {
        let r = evaluate(&scenario(chat(n, 200_000_000_000, 2_000_000_000_000))).unwrap();
        let t = r.performance.time.kv_tiers.unwrap();
        let ttft = r.performance.time.time_to_first_token_s;
        let (cpu, ssd) = (t.cpu.unwrap(), t.ssd.unwrap());
        let sum = t.gpu_share + cpu.share + ssd.share + (1.0 - t.gpu_share - cpu.share - ssd.share);
        assert!((sum - 1.0).abs() < 1e-12);
        assert!(t.gpu_share <= last.0 && ttft >= last.1 - 1e-12, "{n}: {} {ttft}", t.gpu_share);
        last = (t.gpu_share, ttft);
    }
}

#[test]
fn more_tier_capacity_never_delays_the_first_token() {
    let mut last = f64::INFINITY;
    for cpu in [0_u64, 50_000_000_000, 200_000_000_000, 1_000_000_000_000, 4_000_000_000_000] {
        let r = evaluate(&scenario(chat(2000, cpu, 0))).unwrap();
        let ttft = r.performance.time.time_to_first_token_s;
        assert!(ttft <= last + 1e-12, "{cpu}: {ttft} > {last}");
        last = ttft;
    }
}

#[test]
fn a_tier_slower_than_recomputing_is_left_unused() {
    // A 1 MB/s "SSD" against a GPU that recomputes 12,667 tokens in about 2.9 s.
    let mut v = chat(2000, 0, 2_000_000_000_000);
    v["kv_ssd_tier_bytes_per_s"] = json!(1e6);
    let r = evaluate(&scenario(v)).unwrap();
    let t = r.performance.time.kv_tiers.unwrap();
    let ssd = t.ssd.unwrap();
    // W = 2,000 × 1.90 GB = 3.80 TB: the GPU keeps 0.6%, the 2 TB SSD 52% more.
    assert!(ssd.share > 0.5 && !ssd.restored && ssd.restore_s > t.recompute_s);
    assert!(t.restore_s == 0.0 && t.recomputed_share > 0.99);
}

#[test]
fn under_load_restores_wait_before_the_prefill() {
    let at = |cpu: u64| {
        let mut v = chat(2000, cpu, 0);
        v["arrival_rate_per_s"] = json!(0.5);
        evaluate(&scenario(v)).unwrap().load.unwrap()
    };
    // Without a tier most histories are recomputed; with a large CPU tier they are restored,
    // which is shorter: the first tokens come sooner and more requests are sustained.
    let (bare, tiered) = (at(0), at(4_000_000_000_000));
    assert!(tiered.ttft_p50_s.unwrap() < bare.ttft_p50_s.unwrap());
    assert!(tiered.max_sustainable_rate_per_s > bare.max_sustainable_rate_per_s);
}

#[test]
fn bad_tier_input_is_named() {
    for (key, bad) in [
        ("kv_cpu_tier_bytes_per_s", json!(0.0)),
        ("kv_ssd_tier_bytes_per_s", json!(-5.0)),
        ("kv_cpu_tier_bytes_per_s", json!(1e15)),
        ("prefix_open_sessions", json!(1_000_000_000_u64)),
        ("kv_cpu_tier_bytes", json!(-1)),
    ] {
        let mut v = chat(10, 1, 1);
        v[key] = bad.clone();
        let named = match Scenario::from_json(&v) {
            Err(e) => e.field == key,
            Ok(s) => s.validate().err().is_some_and(|e| e.field == key),
        };
        assert!(named, "{key} = {bad}");
    }
}

#[test]
fn training_has_no_tiers() {
    let mut v = chat(2000, 200_000_000_000, 0);
    v["mode"] = json!("training");
    v["batch"] = json!(1);
    v["context_tokens"] = json!(4096);
    v["prompt_tokens"] = Value::Null;
    v["session_turns"] = json!(0);
    v["session_turn_tokens"] = json!(0);
    v["prefix_shared_tokens"] = json!(0);
    let r = evaluate(&scenario(v)).unwrap();
    assert!(r.performance.time.kv_tiers.is_none());
}

#[test]
fn tiers_without_open_sessions_say_they_serve_nothing() {
    let r = evaluate(&scenario(chat(0, 200_000_000_000, 0))).unwrap();
    assert!(r.performance.time.kv_tiers.is_none());
    let said =
        |lang| r.assumptions.iter().any(|a| gpu_primer::i18n::facts::assumption(a, lang).contains("KV"));
    assert!(said(gpu_primer::i18n::Lang::En) && said(gpu_primer::i18n::Lang::Zh));
}
