//! Disaggregated prefill and decode through the whole engine (issue 32, item 4): the transfer's
//! worked numbers, the decode stream without prompt chunks, the two pools' rates, the closed
//! loop, and every bad layout named by its field.

use gpu_primer::catalog::evaluate;
use gpu_primer::engine::error::ErrorKind;
use gpu_primer::engine::links::KvLink;
use gpu_primer::engine::workload::Mode;
use gpu_primer::engine::{EngineError, ModelSpec, Scenario};

/// Llama 3.1 70B on eight H100s (TP 8), 4,096-token prompts, 512-token answers.
fn seventy_b(rate: f64, prefill_workers: u64) -> Scenario {
    let mut s = Scenario::new(ModelSpec::Id("llama-3.1-70b".into()));
    s.gpu = "h100-sxm".into();
    s.gpus = 8;
    s.tensor_parallel = 8;
    s.batch = 256;
    s.context_tokens = 8192;
    s.prompt_tokens = Some(4096);
    s.output_tokens = Some(512);
    s.arrival_rate_per_s = Some(rate);
    s.prefill_workers = prefill_workers;
    s
}

fn field_of(e: EngineError) -> (String, ErrorKind) {
    let EngineError::Invalid(e) = e;
    (e.field, e.kind)
}

#[test]
fn worked_transfer_over_infiniband() {
    let l = evaluate(&seventy_b(3.0, 1)).unwrap().load.unwrap();
    let d = l.disaggregated.unwrap();
    // 16 GPUs do not fit one 8-GPU node: the default link is the network, NDR at 50 GB/s.
    assert_eq!(d.link, KvLink::Infiniband);
    assert_eq!((d.prefill_gpus, d.decode_gpus, d.total_gpus), (8, 8, 16));
    // 80 layers × 8 KV heads × (128 + 128) × 2 bytes = 327,680 B per token; 4,096 tokens over
    // 8 GPUs: 167,772,160 B each.
    assert_eq!(d.transfer_bytes, 167_772_160);
    // 167,772,160 / (50e9 × 0.75) + 80 layers × 5 µs = 4.4739 ms + 0.4 ms.
    assert!((d.transfer_s - 0.004_873_924).abs() < 1e-8, "{}", d.transfer_s);
    // The time to first token holds an unloaded prefill and the transfer at least.
    assert!(l.ttft_p50_s.unwrap() >= d.prefill_alone_s + d.transfer_s);
}

#[test]
fn inside_one_node_the_cache_crosses_nvlink() {
    let mut s = seventy_b(1.0, 1);
    (s.gpus, s.tensor_parallel, s.prefill_tensor_parallel) = (4, 4, Some(4));
    let d = evaluate(&s).unwrap().load.unwrap().disaggregated.unwrap();
    assert_eq!(d.link, KvLink::Nvlink);
    // H100 SXM NVLink: 450 GB/s each way, far above a NIC's 50.
    assert!(d.link_bytes_per_s > 400e9);
}

#[test]
fn decode_steps_carry_no_prompt_chunks() {
    let agg = evaluate(&seventy_b(3.0, 0)).unwrap().load.unwrap();
    let dis = evaluate(&seventy_b(3.0, 1)).unwrap().load.unwrap();
    assert!(agg.disaggregated.is_none());
    // Aggregated, a 4,096-token prompt rides in a decode step and stalls every stream in it.
    let (a, d) = (agg.itl_p99_s.unwrap(), dis.itl_p99_s.unwrap());
    assert!(d < a / 5.0, "ITL p99 {d} against {a}");
    // Without chunks a gap is a decode step: the p99 stays within a few steps' growth.
    assert!(d <= 1.5 * dis.decode_step_s, "{d} against the full decode step {}", dis.decode_step_s);
    assert!(dis.tpot_p50_s.unwrap() < agg.tpot_p50_s.unwrap());
}

#[test]
fn the_deployment_sustains_the_slower_pool() {
    let one = evaluate(&seventy_b(1.0, 1)).unwrap().load.unwrap();
    let d1 = one.disaggregated.clone().unwrap();
    assert_eq!(one.max_sustainable_rate_per_s, d1.prefill_max_rate_per_s.min(d1.decode_max_rate_per_s));
    // 4,096-token prompts against 512-token answers: one prefill worker is the narrow pool.
    assert_eq!(format!("{:?}", d1.limited_by), "Prefill");
    let two = evaluate(&seventy_b(1.0, 2)).unwrap().load.unwrap().disaggregated.unwrap();
    let ratio = two.prefill_max_rate_per_s / d1.prefill_max_rate_per_s;
    assert!((ratio - 2.0).abs() < 1e-9, "two workers, twice the prompts: {ratio}");
    assert_eq!(two.decode_max_rate_per_s, d1.decode_max_rate_per_s);
    // Past the sustainable rate: not stable, no latencies, never NaN.
    let over = evaluate(&seventy_b(one.max_sustainable_rate_per_s * 1.5, 1)).unwrap().load.unwrap();
    assert!(!over.stable && over.ttft_p50_s.is_none());
    assert!(over.throughput_tokens_per_s.is_finite());
}

#[test]
fn a_closed_loop_of_users() {
    let mut s = seventy_b(1.0, 1);
    s.arrival_rate_per_s = None;
    s.concurrent_users = Some(16);
    let l = evaluate(&s).unwrap().load.unwrap();
    assert_eq!(l.concurrent_users, Some(16));
    let d = l.disaggregated.unwrap();
    assert!(l.ttft_p50_s.unwrap() >= d.prefill_alone_s + d.transfer_s);
    assert!(l.arrival_rate_per_s > 0.0 && l.arrival_rate_per_s.is_finite());
    assert!(!l.curve.is_empty() && l.curve.iter().all(|p| p.concurrent_users.is_some()));
    // The same scenario gives the same numbers.
    assert_eq!(evaluate(&s).unwrap().load.unwrap().ttft_p99_s, l.ttft_p99_s);
}

#[test]
fn bad_layouts_are_named() {
    let mut s = seventy_b(1.0, 1);
    s.mode = Mode::Training;
    assert_eq!(field_of(evaluate(&s).unwrap_err()), ("prefill_workers".into(), ErrorKind::NeedsInference));

    // A prefill worker of one H100 cannot hold 70B in 16 bits.
    let mut s = seventy_b(1.0, 1);
    s.prefill_tensor_parallel = Some(1);
    let (field, kind) = field_of(evaluate(&s).unwrap_err());
    assert_eq!(field, "prefill_tensor_parallel");
    assert_eq!(kind, ErrorKind::PrefillWorkerHoldsNoPrompt { tokens: 4097 });

    // Nor can a decode pool of one.
    let mut s = seventy_b(1.0, 1);
    (s.gpus, s.tensor_parallel) = (1, 1);
    let (field, kind) = field_of(evaluate(&s).unwrap_err());
    assert_eq!(field, "prefill_workers");
    assert_eq!(kind, ErrorKind::DecodePoolHoldsNoSequence { tokens: 4608 });

    // A prefill group that does not split the heads.
    let mut s = seventy_b(1.0, 1);
    s.prefill_tensor_parallel = Some(3);
    assert_eq!(field_of(evaluate(&s).unwrap_err()).0, "prefill_tensor_parallel");

    // NVLink on a card without it.
    let mut s = seventy_b(1.0, 1);
    s.model = ModelSpec::Id("llama-3.1-8b".into());
    s.gpu = "l40s".into();
    (s.gpus, s.tensor_parallel, s.batch) = (1, 1, 8);
    s.kv_transfer_link = Some(KvLink::Nvlink);
    assert_eq!(field_of(evaluate(&s).unwrap_err()), ("kv_transfer_link".into(), ErrorKind::NoNvlink));

    // Out of range.
    let mut s = seventy_b(1.0, 5000);
    assert_eq!(field_of(evaluate(&s).unwrap_err()).0, "prefill_workers");
    s.prefill_workers = 1;
    s.prefill_tensor_parallel = Some(0);
    assert_eq!(field_of(evaluate(&s).unwrap_err()).0, "prefill_tensor_parallel");
}

#[test]
fn read_from_json_and_refused_when_mangled() {
    let v = serde_json::json!({"model": "llama-3.1-8b", "prefill_workers": 2, "prefill_tensor_parallel": 1,
        "kv_transfer_link": "roce", "arrival_rate_per_s": 2.0});
    let s = Scenario::from_json(&v).unwrap();
    assert_eq!(
        (s.prefill_workers, s.prefill_tensor_parallel, s.kv_transfer_link),
        (2, Some(1), Some(KvLink::Roce))
    );
    let d = evaluate(&s).unwrap().load.unwrap().disaggregated.unwrap();
    assert_eq!((d.link, d.prefill_gpus, d.total_gpus), (KvLink::Roce, 2, 3));
    let bad = serde_json::json!({"model": "llama-3.1-8b", "kv_transfer_link": "carrier pigeon"});
    assert_eq!(Scenario::from_json(&bad).unwrap_err().field, "kv_transfer_link");
}

#[test]
fn a_kept_half_gives_the_same_report_for_another_rate() {
    use gpu_primer::engine::evaluate::load_with;
    let catalog = gpu_primer::catalog::Catalog;
    let (_, half) = load_with(&seventy_b(2.0, 1), &catalog, None).unwrap().unwrap();
    let fresh = load_with(&seventy_b(3.0, 1), &catalog, None).unwrap().unwrap().0;
    let kept = load_with(&seventy_b(3.0, 1), &catalog, Some(&half)).unwrap().unwrap().0;
    assert_eq!(kept, fresh);
    // Another prefill layout is another half: not reused, and the answer changes.
    let other = load_with(&seventy_b(3.0, 2), &catalog, Some(&half)).unwrap().unwrap().0;
    assert_eq!(other, load_with(&seventy_b(3.0, 2), &catalog, None).unwrap().unwrap().0);
    assert_ne!(other.max_sustainable_rate_per_s, fresh.max_sustainable_rate_per_s);
}
