//! llama.cpp on the reader's own device: the Metal profile's calibration (the one fitted pair
//! of constants, from a source the validation does not use), and the llama-bench and model-size
//! rows of the validation table against the goals.

use gpu_primer::catalog::{evaluate, gpus};
use gpu_primer::engine::gguf::FileType;
use gpu_primer::engine::hardware::GpuSpec;
use gpu_primer::engine::precision::Dtype;
use gpu_primer::engine::{ModelSpec, Scenario};

/// llama-bench's tg128 on Llama 2 7B (LLaMA 7B) in `file_type` on `gpu`: batch 1, an empty
/// prompt, 128 generated tokens.
fn tg128(gpu: &str, file_type: FileType) -> Scenario {
    let mut s = Scenario::new(ModelSpec::Id("llama-2-7b".into()));
    s.gpu = GpuSpec::Id(gpu.into());
    s.weight_dtype = Some(Dtype::Gguf(file_type));
    (s.batch, s.prompt_tokens, s.output_tokens, s.context_tokens) = (1, Some(0), Some(128), 128);
    s
}

/// The Metal profile of the Apple chips comes from ggerganov's M2 Ultra rows in llama.cpp PR
/// #2917 (2023-08-30): LLaMA 7B Q8_0 62.05 and Q4_0 88.54 tokens/s, tg128. The engine's bytes
/// per token (its decode time at the full bandwidth and no launch cost, times the bandwidth)
/// give two equations `1 / tps = bytes / (e · B) + 32 · 10 · k`; their solution is the profile
/// in the catalog, and the catalog's M2 Ultra reproduces both rows.
#[test]
fn metal_profile_is_the_solution_of_the_two_pr_2917_rows() {
    let rows = [(FileType::Q8_0, 62.05), (FileType::Q4_0, 88.54)];
    let bandwidth = gpus::find("apple-m2-ultra-76c").expect("in the catalog").memory_bandwidth_bytes_per_s;
    assert_eq!(bandwidth, 800e9);
    let bytes = rows.map(|(ft, _)| {
        let mut s = tg128("apple-m2-ultra-76c", ft);
        s.efficiency.memory_bandwidth = Some(1.0);
        s.efficiency.kernel_launch_s = Some(0.0);
        let r = evaluate(&s).expect("evaluates");
        r.performance.time.decode_step_s * bandwidth
    });
    // 7.064 GB (Q8_0) and 3.794 GB (Q4_0) per token: the weights without the embedding table,
    // the KV cache of the average step and the activations.
    assert!((bytes[0] / 1e9 - 7.064).abs() < 0.001, "{bytes:?}");
    assert!((bytes[1] / 1e9 - 3.794).abs() < 0.001, "{bytes:?}");
    let t = rows.map(|(_, tps)| 1.0 / tps);
    let e = (bytes[0] - bytes[1]) / bandwidth / (t[0] - t[1]);
    let fixed = t[1] - bytes[1] / (e * bandwidth);
    let k = fixed / (32.0 * 10.0);
    assert!((e - 0.848).abs() < 0.0005, "e = {e}");
    assert!((k - 17.8e-6).abs() < 0.05e-6, "k = {k}");
    for (ft, measured) in rows {
        let r = evaluate(&tg128("apple-m2-ultra-76c", ft)).expect("evaluates");
        let tps = r.performance.throughput.decode_tokens_per_s;
        assert!((tps / measured - 1.0).abs() < 0.005, "{ft:?}: {tps} vs {measured}");
        assert!(r.performance.throughput.decode_tokens_per_s_bound > measured);
    }
}
