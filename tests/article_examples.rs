//! Worked examples from the source article's capacity-estimation section and the ZeRO paper.

use gpu_primer::catalog::evaluate;
use gpu_primer::engine::{ModelSpec, Scenario};

fn scenario(model: &str) -> Scenario {
    Scenario::new(ModelSpec::Id(model.to_owned()))
}

/// "A 70B model in FP16/BF16 needs about 140 GB for the parameters alone, more than one 80 GB GPU."
#[test]
fn seventy_b_fp16_is_about_140_gb_and_does_not_fit_one_80_gb_gpu() {
    let mut s = scenario("llama-3.1-70b");
    s.weight_dtype = Some(gpu_primer::engine::precision::Dtype::Fp16);
    s.gpu = "a100-sxm-80gb".into();
    let r = evaluate(&s).unwrap();
    let gb = r.memory_per_gpu_bytes.weights as f64 / 1e9;
    assert!((139.0..=143.0).contains(&gb), "{gb} GB");
    assert!(!r.fits);
    assert!(r.solvers.min_gpus.unwrap().gpus >= 2);
    // 4-bit: fits one 80 GB GPU.
    s.weight_dtype = Some(gpu_primer::engine::precision::Dtype::Int4);
    let r = evaluate(&s).unwrap();
    assert!(r.fits, "{}", r.memory_per_gpu_bytes.total);
}

/// "From 4K to 32K context and from 1 to 32 concurrent requests the KV cache grows with both."
#[test]
fn kv_cache_from_4k_to_32k_and_1_to_32_requests() {
    let kv = |context, batch| {
        let mut s = scenario("llama-3.1-8b");
        s.context_tokens = context;
        s.batch = batch;
        s.gpu = "h200-sxm".into();
        evaluate(&s).unwrap().memory_per_gpu_bytes.kv_cache
    };
    // 131,072 B per token: 4K = 0.5 GiB, 32K = 4 GiB, 32 requests at 32K = 128 GiB.
    assert_eq!(kv(4096, 1), 512 << 20);
    assert_eq!(kv(32_768, 1), 4 << 30);
    assert_eq!(kv(32_768, 32), 128 << 30);
    assert_eq!(kv(4096, 32), 16 << 30);
}

/// 32 requests × 32K on Llama-3.1-8B do not fit an 80 GB GPU, and the solver says how many do.
#[test]
fn solvers_answer_the_capacity_questions() {
    let mut s = scenario("llama-3.1-8b");
    s.context_tokens = 32_768;
    s.batch = 32;
    let r = evaluate(&s).unwrap();
    assert!(!r.fits);
    let max_batch = r.solvers.max_batch.unwrap();
    assert!((10..32).contains(&max_batch), "{max_batch}");
    s.batch = max_batch;
    assert!(evaluate(&s).unwrap().fits);
    s.batch = max_batch + 1;
    assert!(!evaluate(&s).unwrap().fits);
}

/// ZeRO (Rajbhandari et al. 2020) Figure 1, through the whole engine: a 7.5B-class model with
/// Adam on 64 GPUs; model states per GPU shrink 120 → 31.4 → 16.6 → 1.9 GB per 7.5B params.
#[test]
fn zero_stages_through_the_engine() {
    let mut s = scenario("llama-2-7b");
    s.mode = gpu_primer::engine::scenario::Mode::Training;
    s.weight_dtype = Some(gpu_primer::engine::precision::Dtype::Fp16);
    s.gpus = 64;
    let psi = evaluate(&s).unwrap().params.total as f64;
    let mut per_stage = Vec::new();
    for stage in 0..=3u8 {
        s.zero_stage = stage;
        let m = evaluate(&s).unwrap().memory_per_gpu_bytes;
        per_stage.push((m.weights + m.gradients + m.optimizer) as f64 / psi * 7.5);
    }
    let expected = [120.0, 31.4, 16.6, 1.9];
    for (got, want) in per_stage.iter().zip(expected) {
        assert!((got - want).abs() < 0.06, "{per_stage:?}");
    }
}
