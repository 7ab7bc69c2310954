//! "What runs on my machine": each verdict is the estimator's own answer for that scenario.

use gpu_primer::catalog::{evaluate, local_fit};
use gpu_primer::engine::local::Verdict;
use gpu_primer::engine::Scenario;
use serde_json::json;

fn scenario(v: serde_json::Value) -> Scenario {
    Scenario::from_json(&v).expect("a valid scenario")
}

/// The report's decode rate at batch 1 for `s` with `-ngl n`.
fn report_rate(s: &Scenario, ngl: Option<u64>) -> (bool, f64) {
    let r = evaluate(&Scenario { gpu_layers: ngl, ..s.clone() }).expect("evaluates");
    (r.fits, r.performance.phases.decode.tokens_per_s)
}

#[test]
fn a_small_model_fits_whole_at_the_estimators_rate() {
    let s = scenario(
        json!({"model": "llama-3.1-8b", "weight_dtype": "Q4_K_M", "gpu": "rtx-4090", "context_tokens": 8192}),
    );
    let f = local_fit(&s).unwrap();
    assert_eq!(f.verdict, Verdict::Full);
    let (fits, rate) = report_rate(&s, None);
    assert!(fits);
    assert!((f.tokens_per_s - rate).abs() < 1e-9 * rate, "{} vs {rate}", f.tokens_per_s);
    assert!(f.tokens_per_s <= f.tokens_per_s_bound);
    // 4.58 GiB as llama.cpp reports the Q4_K_M file.
    assert!((f.model_bytes as f64 / (1u64 << 30) as f64 - 4.58).abs() < 0.01, "{}", f.model_bytes);
}

#[test]
fn a_large_model_offloads_the_most_layers_that_fit() {
    let s = scenario(json!({"model": "llama-3.1-70b", "weight_dtype": "q4_k_m", "gpu": "rtx-4090",
        "context_tokens": 8192, "host_memory_bytes": 64e9}));
    let f = local_fit(&s).unwrap();
    let Verdict::Offload { gpu_layers, of, n_cpu_moe } = f.verdict else { panic!("{f:?}") };
    assert_eq!((of, n_cpu_moe), (81, 0));
    assert!(gpu_layers > 20 && gpu_layers < 60, "{gpu_layers}");
    // One more layer does not fit; these do, at the estimator's rate.
    assert!(!report_rate(&s, Some(gpu_layers + 1)).0);
    let (fits, rate) = report_rate(&s, Some(gpu_layers));
    assert!(fits && (f.tokens_per_s - rate).abs() < 1e-9 * rate, "{} vs {rate}", f.tokens_per_s);
    // Most of the weights are read from DDR5: a few tokens per second.
    assert!(f.tokens_per_s > 1.0 && f.tokens_per_s < 6.0, "{}", f.tokens_per_s);
    assert!(f.host_bytes > 20_000_000_000);
}

/// An MoE model keeps every layer on the GPU and only the experts of its first layers in host
/// memory (`--n-cpu-moe`), as llama.cpp's `--fit` does: faster than moving whole layers, since
/// a token reads a few experts of the host's share but all of a layer's attention.
#[test]
fn an_moe_model_spills_experts_not_layers() {
    let s = scenario(json!({"model": "qwen3-30b-a3b", "weight_dtype": "q4_k_m", "gpu": "rtx-4070-ti-super",
        "context_tokens": 8192, "host_memory_bytes": 64e9}));
    let f = local_fit(&s).unwrap();
    let Verdict::Offload { gpu_layers, of, n_cpu_moe } = f.verdict else { panic!("{f:?}") };
    assert_eq!((gpu_layers, of), (49, 49));
    assert!(n_cpu_moe > 0 && n_cpu_moe < 48, "{n_cpu_moe}");
    // The fewest: one layer fewer does not fit; these do, at the estimator's rate.
    let at = |m: u64| evaluate(&Scenario { n_cpu_moe: m, ..s.clone() }).unwrap();
    assert!(!at(n_cpu_moe - 1).fits);
    let r = at(n_cpu_moe);
    assert!(r.fits);
    let rate = r.performance.phases.decode.tokens_per_s;
    assert!((f.tokens_per_s - rate).abs() < 1e-9 * rate, "{} vs {rate}", f.tokens_per_s);
    // Whole layers instead: the most that fit generate more slowly.
    let x = evaluate(&s).unwrap();
    let ngl = x.solvers.max_gpu_layers.expect("some layers fit");
    let (fits, by_layers) = report_rate(&s, Some(ngl));
    assert!(fits && by_layers < f.tokens_per_s, "{by_layers} vs {}", f.tokens_per_s);
}

#[test]
fn too_little_host_memory_means_it_does_not_run() {
    let s = scenario(json!({"model": "llama-3.1-70b", "weight_dtype": "q8_0", "gpu": "rtx-4090",
        "host_memory_bytes": 16e9}));
    let f = local_fit(&s).unwrap();
    assert_eq!(f.verdict, Verdict::TooBig);
    assert_eq!(f.tokens_per_s, 0.0);
}

#[test]
fn errors_are_evaluates() {
    let s = scenario(json!({"model": "llama-3.1-8b", "kv_dtype": "q4_k_m"}));
    assert_eq!(local_fit(&s).err(), evaluate(&s).err());
}

/// The operating system's reserve (`host_reserve_bytes`) comes out of the host's memory, and on
/// a unified-memory machine out of its memory with the GPU's part (issue 30, item 10); the
/// estimator's report agrees with the local verdict.
#[test]
fn the_operating_systems_reserve_comes_out_of_host_memory() {
    // gpt-oss-120b in Q8_0 on a 64 GB M4 Max: about 61 GiB in all, 46 GiB of it in the GPU's
    // working set. With nothing kept for macOS it runs; keeping what the working set leaves
    // (16 GiB), it does not.
    let mac = json!({"model": "gpt-oss-120b", "weight_dtype": "q8_0", "gpu": "apple-m4-max-40c",
        "gpu_memory_bytes": 64u64 << 30, "context_tokens": 8192});
    let runs = local_fit(&scenario(mac.clone())).unwrap();
    assert!(matches!(runs.verdict, Verdict::Offload { .. }), "{runs:?}");
    let mut kept = mac;
    kept["host_reserve_bytes"] = json!(16u64 << 30);
    let s = scenario(kept);
    assert_eq!(local_fit(&s).unwrap().verdict, Verdict::TooBig);
    // The estimator at that placement says the host part does not fit either.
    let Verdict::Offload { gpu_layers, of, n_cpu_moe } = runs.verdict else { unreachable!() };
    let placed = Scenario { gpu_layers: (gpu_layers < of).then_some(gpu_layers), n_cpu_moe, ..s };
    let r = evaluate(&placed).unwrap();
    assert_eq!(r.offload.and_then(|o| o.host_fits), Some(false));
    // A PC with 28 GiB of RAM holds what a 70B at Q4_K_M leaves in host memory beside a 24 GB
    // card; with 12 GiB of it kept for the system and other programs, it does not.
    let pc = json!({"model": "llama-3.1-70b", "weight_dtype": "q4_k_m", "gpu": "rtx-4090",
        "context_tokens": 8192, "host_memory_bytes": 28u64 << 30});
    assert!(matches!(local_fit(&scenario(pc.clone())).unwrap().verdict, Verdict::Offload { .. }));
    let mut windows = pc;
    windows["host_reserve_bytes"] = json!(12u64 << 30);
    assert_eq!(local_fit(&scenario(windows)).unwrap().verdict, Verdict::TooBig);
}
