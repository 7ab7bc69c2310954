//! Speculative decoding through `evaluate`: the worked defaults, the crossover against batch,
//! the drafter's memory, bad input against the model, and properties over random inputs.

use gpu_primer::engine::error::ErrorKind;
use gpu_primer::engine::perf::speculative::SpecBatchPoint;
use gpu_primer::engine::workload::SpecMethod;
use gpu_primer::engine::{EngineError, ModelSpec, Report, Scenario};
use proptest::prelude::*;

fn serving(model: &str, edit: impl FnOnce(&mut Scenario)) -> Scenario {
    let mut s = Scenario::new(ModelSpec::Id(model.into()));
    s.gpu = gpu_primer::engine::hardware::GpuSpec::Id("h100-sxm".into());
    s.prompt_tokens = Some(1024);
    s.output_tokens = Some(256);
    s.context_tokens = 1280;
    edit(&mut s);
    s
}

fn eval(s: &Scenario) -> Report {
    gpu_primer::catalog::evaluate(s).expect("the scenario evaluates")
}

#[test]
fn eagle3_at_batch_one_pays_and_the_gain_shrinks_with_batch() {
    let plain = eval(&serving("llama-3.1-8b", |_| ()));
    let r = eval(&serving("llama-3.1-8b", |s| s.speculative_method = Some(SpecMethod::Eagle3)));
    let sp = r.performance.speculative.as_ref().expect("a speculative section");
    // vLLM's EAGLE-3 default at K = 4: E = 3.08.
    assert_eq!((sp.draft_tokens, sp.expected_tokens_per_step), (4, 3.08));
    assert!(sp.speedup > 1.5 && sp.speedup <= 3.08, "{}", sp.speedup);
    // The report's headline TPOT is the speculative one; the plain step is what it was.
    assert_eq!(r.performance.time.time_per_output_token_s, sp.time_per_output_token_s);
    assert_eq!(sp.time_per_output_token_s_without, plain.performance.time.time_per_output_token_s);
    assert!(
        r.performance.throughput.per_user_tokens_per_s > plain.performance.throughput.per_user_tokens_per_s
    );
    // Per user, the gain at batch 1 is larger than at batch 512, where the verify pass of
    // 5 tokens per sequence is compute-bound.
    let gain = |p: &SpecBatchPoint| p.per_user_tokens_per_s / p.per_user_tokens_per_s_without;
    let (first, last) = (sp.by_batch.first().unwrap(), sp.by_batch.last().unwrap());
    assert!(gain(first) > gain(last) * 1.3, "{} vs {}", gain(first), gain(last));
    assert!(r.derivations.keys().any(|k| k.path() == "speculative.time_per_output_token_s"));
    assert!(r.derivations.keys().any(|k| k.path() == "speculative.expected_tokens_per_step"));
    // The head's weights (one layer with q, k, v over 2h, fc and its own 32,000-token head:
    // 424.7 M parameters) and one layer's KV are in memory.
    assert_eq!(sp.drafter_params, 424_689_664);
    assert!(r.memory_per_gpu_bytes.weights > plain.memory_per_gpu_bytes.weights);
    assert!(r.memory_per_gpu_bytes.kv_cache > plain.memory_per_gpu_bytes.kv_cache);
}

#[test]
fn a_verify_pass_of_many_tokens_at_a_large_batch_costs_more_than_it_saves() {
    // α 0.5, γ 7 (E ≈ 2): at batch 512 on an 8B model the verify pass of 8 tokens per sequence
    // is compute-bound, so speculation is slower per user than plain decoding.
    let r = eval(&serving("llama-3.1-8b", |s| {
        s.speculative_method = Some(SpecMethod::Eagle3);
        s.speculative_draft_tokens = Some(7);
        s.speculative_acceptance_rate = Some(0.5);
    }));
    let sp = r.performance.speculative.unwrap();
    assert!(sp.crossover_batch.is_some(), "{:?}", sp.by_batch);
    let first = sp.by_batch.first().unwrap();
    assert!(first.per_user_tokens_per_s > first.per_user_tokens_per_s_without);
}

#[test]
fn a_draft_model_adds_its_weights_and_kv_and_must_be_smaller() {
    let plain = eval(&serving("llama-3.1-70b", |s| {
        s.gpus = 4;
        s.tensor_parallel = 4;
    }));
    let with = |draft: &str| {
        serving("llama-3.1-70b", |s| {
            s.gpus = 4;
            s.tensor_parallel = 4;
            s.speculative_method = Some(SpecMethod::DraftModel);
            s.speculative_draft_model = Some(ModelSpec::Id(draft.into()));
            s.speculative_acceptance_rate = Some(0.7);
        })
    };
    let r = eval(&with("llama-3.2-1b"));
    let sp = r.performance.speculative.as_ref().unwrap();
    assert!(sp.drafter_params > 1_000_000_000 && sp.drafter_params < 1_600_000_000, "{}", sp.drafter_params);
    assert_eq!(
        r.memory_per_gpu_bytes.weights - plain.memory_per_gpu_bytes.weights,
        sp.drafter_weight_bytes_per_gpu
    );
    assert!(sp.times.draft_s > 0.0 && sp.speedup > 1.0);
    let err = gpu_primer::catalog::evaluate(&serving("llama-3.2-1b", |s| {
        s.speculative_method = Some(SpecMethod::DraftModel);
        s.speculative_draft_model = Some(ModelSpec::Id("llama-3.1-8b".into()));
        s.speculative_acceptance_rate = Some(0.7);
    }))
    .unwrap_err();
    let EngineError::Invalid(e) = err;
    assert_eq!(e.field, "speculative_draft_model");
    assert!(matches!(e.kind, ErrorKind::DraftLargerThanTarget { .. }));
}

#[test]
fn mtp_needs_the_modules_the_checkpoint_ships() {
    let err = |model: &str, edit: fn(&mut Scenario)| {
        let mut s = serving(model, |s| s.speculative_method = Some(SpecMethod::Mtp));
        edit(&mut s);
        match gpu_primer::catalog::evaluate(&s) {
            Err(EngineError::Invalid(e)) => e,
            other => panic!("{other:?}"),
        }
    };
    let e = err("llama-3.1-8b", |_| ());
    assert_eq!(
        (e.field.as_str(), e.kind),
        ("speculative_method", ErrorKind::MoreThanMtpModules { modules: 0, got: 1 })
    );
    let e = err("deepseek-v3", |s| s.speculative_draft_tokens = Some(2));
    assert_eq!(e.kind, ErrorKind::MoreThanMtpModules { modules: 1, got: 2 });
}

#[test]
fn deepseek_mtp_counts_its_module_in_memory() {
    let edit = |s: &mut Scenario| {
        s.gpus = 8;
        s.tensor_parallel = 8;
        s.gpu = gpu_primer::engine::hardware::GpuSpec::Id("h200-sxm".into());
    };
    let plain = eval(&serving("deepseek-v3", edit));
    let r = eval(&serving("deepseek-v3", |s| {
        edit(s);
        s.speculative_method = Some(SpecMethod::Mtp);
    }));
    let sp = r.performance.speculative.as_ref().unwrap();
    // One module: 11.6 B parameters (the README's 14 B with its embedding and head copies).
    assert!((sp.drafter_params as f64 / 1e9 - 11.7).abs() < 0.4, "{}", sp.drafter_params);
    // The parameter count names it beside the model's published total.
    assert_eq!((r.params.drafter, r.params.total), (sp.drafter_params, plain.params.total));
    assert_eq!(plain.params.drafter, 0);
    assert!(r.memory_per_gpu_bytes.weights > plain.memory_per_gpu_bytes.weights);
    assert!((sp.expected_tokens_per_step - 1.85).abs() < 1e-12);
    assert!(sp.speedup > 1.0 && sp.speedup <= 1.85, "{}", sp.speedup);
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]
    #[test]
    fn speculation_is_bounded_by_e_and_by_the_verify_roofline(
        alpha in 0.01f64..0.99,
        gamma in 1u64..8,
        batch in 1u64..256,
        ngram in any::<bool>(),
    ) {
        let s = serving("llama-3.1-8b", |s| {
            s.batch = batch;
            s.speculative_method = Some(if ngram { SpecMethod::Ngram } else { SpecMethod::Eagle3 });
            s.speculative_draft_tokens = Some(gamma);
            s.speculative_acceptance_rate = Some(alpha);
        });
        let r = eval(&s);
        let sp = r.performance.speculative.unwrap();
        let e = sp.expected_tokens_per_step;
        prop_assert!((1.0..=gamma as f64 + 1.0).contains(&e));
        prop_assert!(sp.speedup <= e * (1.0 + 1e-9), "speed-up {} > E {}", sp.speedup, e);
        // TPOT is at least the roofline of the verify pass of γ + 1 tokens, shared by E.
        prop_assert!(sp.time_per_output_token_s >= sp.times.verify_s_bound / e);
        prop_assert!(sp.time_per_output_token_s_bound <= sp.time_per_output_token_s);
        for p in &sp.by_batch {
            prop_assert!(p.per_user_tokens_per_s <= e * p.per_user_tokens_per_s_without * (1.0 + 1e-9));
        }
    }
}

#[test]
fn a_draft_pass_under_vllm_takes_at_least_its_host_time() {
    use gpu_primer::engine::stack::{ServingStack, VLLM_DRAFT_PASS_HOST_S};
    let eagle = |stack: ServingStack, batch: u64| {
        let mut s = serving("llama-3.1-8b", |s| {
            s.speculative_method = Some(SpecMethod::Eagle3);
            s.serving_stack = stack;
        });
        s.batch = batch;
        eval(&s).performance.speculative.unwrap()
    };
    // At batch 1 the EAGLE-3 head's pass is ~0.34 ms on the GPU; vLLM's pass takes its 0.93 ms
    // of host time (vLLM issue #45258), SGLang's (drafts in CUDA graphs) the GPU's.
    let (vllm, sglang) = (eagle(ServingStack::VllmV1, 1), eagle(ServingStack::Sglang, 1));
    assert!(vllm.times.draft_gpu_s < VLLM_DRAFT_PASS_HOST_S, "{}", vllm.times.draft_gpu_s);
    assert_eq!(vllm.times.draft_s, VLLM_DRAFT_PASS_HOST_S);
    assert_eq!(sglang.times.draft_host_s, 0.0);
    assert_eq!(sglang.times.draft_s, sglang.times.draft_gpu_s);
    assert!(vllm.speedup < sglang.speedup, "{} vs {}", vllm.speedup, sglang.speedup);
    // The floor bounds nothing: the roofline bound is the GPU's alone.
    assert_eq!(vllm.times.draft_s_bound, sglang.times.draft_s_bound);
    // At batch 512 the pass's GPU work (mostly its layer's KV reads) is longer than the floor,
    // which no longer binds.
    let big = eagle(ServingStack::VllmV1, 512);
    assert!(big.times.draft_gpu_s > VLLM_DRAFT_PASS_HOST_S, "{}", big.times.draft_gpu_s);
    assert_eq!(big.times.draft_s, big.times.draft_gpu_s);
}

/// SGLang's decode graphs count sequences: a verify pass of 16 sequences × (γ + 1) = 80 tokens
/// stays within the 48-sequence graphs of a 32 GB GPU (no host floor, the same verify time as
/// vLLM's), and past 48 sequences the plain decode step and the verify pass pay the eager floor.
#[test]
fn sglangs_graph_limit_counts_sequences_in_the_verify_pass() {
    use gpu_primer::engine::stack::ServingStack;
    let at = |batch: u64, stack: ServingStack| {
        let s = serving("qwen3-0.6b", |s| {
            s.gpu = gpu_primer::engine::hardware::GpuSpec::Id("rtx-5090".into());
            s.prompt_tokens = Some(128);
            s.output_tokens = Some(128);
            s.context_tokens = 256;
            s.batch = batch;
            s.serving_stack = stack;
            s.speculative_method = Some(SpecMethod::Eagle3);
        });
        let r = eval(&s);
        let source = r
            .derivations
            .iter()
            .find(|(k, _)| k.path() == "speculative.time_per_output_token_s")
            .map(|(_, d)| format!("{:?}", d.source))
            .unwrap_or_default();
        let sp = r.performance.speculative.expect("a speculative section");
        (sp.times, r.performance.time.decode_step_s, source)
    };
    let (t_sglang, _, _) = at(16, ServingStack::Sglang);
    let (t_vllm, _, vllm_source) = at(16, ServingStack::VllmV1);
    let (v_sglang, v_vllm) = (t_sglang.verify_s, t_vllm.verify_s);
    assert!((v_sglang - v_vllm).abs() < 1e-12, "{v_sglang} vs {v_vllm}");
    // 16 sequences of γ + 1 = 5 tokens each (80 tokens, past 48 if tokens were counted) stay
    // inside SGLang's 48-sequence graphs; the drafter too.
    assert!(!t_sglang.draft_eager && t_sglang.draft_host_s == 0.0, "{t_sglang:?}");
    let (t_past, d_past, past_source) = at(64, ServingStack::Sglang);
    let (t_graphed, d_graphed, _) = at(64, ServingStack::VllmV1);
    let (v_past, v_graphed) = (t_past.verify_s, t_graphed.verify_s);
    assert!(v_past > v_graphed && d_past > d_graphed, "{v_past} {v_graphed} {d_past} {d_graphed}");
    // Past the limit the draft pass runs eagerly too: its floor is the host's, its GPU time is
    // what it was (the one-layer EAGLE-3 head: 10 kernels × 17.8 µs).
    assert!(t_past.draft_eager, "{t_past:?}");
    assert!((t_past.draft_host_s - 10.0 * 17.8e-6).abs() < 1e-9, "{t_past:?}");
    assert!(t_past.draft_gpu_s < t_past.draft_host_s, "{t_past:?}");
    assert_eq!(t_past.draft_s, t_past.draft_host_s);
    // Each floor cites its own measurement.
    assert!(past_source.contains("#40346"), "{past_source}");
    assert!(vllm_source.contains("#45258"), "{vllm_source}");
}
