//! llama.cpp on the reader's own device: the Metal profile's calibration (the one fitted pair
//! of constants, from a source the validation does not use), and the llama-bench and model-size
//! rows of the validation table against the goals.

use gpu_primer::catalog::{evaluate, gpus};
use gpu_primer::engine::hardware::GpuSpec;
use gpu_primer::engine::precision::compute::ComputeDtype;
use gpu_primer::engine::precision::file_type::FileType;
use gpu_primer::engine::precision::Dtype;
use gpu_primer::engine::{ModelSpec, Scenario};
use gpu_primer::validation::{median, validation_table, Note, ValidationRow};

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

fn rows(kind_prefix: &str) -> Vec<ValidationRow> {
    validation_table().rows.into_iter().filter(|r| r.kind.starts_with(kind_prefix)).collect()
}

fn median_abs(rows: &[&ValidationRow]) -> f64 {
    median(rows.iter().map(|r| r.error_pct.abs()).collect())
}

/// Issue 24's goal: the weights of a model in a llama.cpp file type within 3% of the size
/// llama.cpp reports, for nine in ten file types. Every published size of a catalog model is
/// compared (65 rows, 29 file types); a file type counts when all its rows are within 3%.
#[test]
fn model_sizes_within_3_percent_for_nine_in_ten_file_types() {
    let sizes = rows("gguf_model_size");
    assert!(sizes.len() >= 60, "{}", sizes.len());
    let mut types: Vec<String> = sizes.iter().map(|r| r.conditions.weight_dtype.name().to_owned()).collect();
    types.sort();
    types.dedup();
    let within = types
        .iter()
        .filter(|t| {
            sizes
                .iter()
                .filter(|r| r.conditions.weight_dtype.name() == t.as_str())
                .all(|r| r.error_pct.abs() <= 3.0)
        })
        .count();
    assert!(types.len() >= 29, "{types:?}");
    assert!(within * 10 >= types.len() * 9, "{within} of {} file types within 3%", types.len());
    let all: Vec<&ValidationRow> = sizes.iter().collect();
    assert!(median_abs(&all) < 0.5, "{}", median_abs(&all));
    // The rows outside 3%, each explained in docs/validation.md: the quantizer's help text gives
    // Q2_K_S Q2_K's size (llama-bench measures 2.78 GiB for Llama 3.1 8B, the same shapes, and the
    // engine gives 2.776). (The IQ3_XXS file, made with an importance matrix, is within 3% since
    // the engine assumes one for the IQ types: `gguf::mix::has_imatrix`.)
    let mut off: Vec<(String, &str)> = sizes
        .iter()
        .filter(|r| r.error_pct.abs() > 3.0)
        .map(|r| (r.model.clone(), r.conditions.weight_dtype.name()))
        .collect();
    off.sort();
    assert_eq!(off, [("Llama 3 8B".to_owned(), "q2_k_s")]);
}

/// Issue 24's goal for batch-1 decode (llama-bench tgN): median absolute error of the expected
/// value at most 20% in each back end's group, and no roofline bound below a measurement, for
/// prompt runs too. Measured on the rows as published (no constant fitted to them; the Metal
/// profile comes from PR #2917, see above): CUDA 4.5% (20 rows), Metal 4.7% (12), ROCm/HIP and
/// Vulkan 13.3% (11).
#[test]
fn llama_bench_decode_medians_meet_the_goal_and_bounds_hold() {
    let all = rows("llama_bench");
    for r in &all {
        assert_eq!(r.bound_holds, Some(true), "bound below the measurement: {r:?}");
    }
    for (group, at_least, target) in [("cuda", 20, 6.0), ("metal", 12, 6.0), ("rocm_vulkan", 11, 15.0)] {
        let tg: Vec<&ValidationRow> =
            all.iter().filter(|r| r.kind == format!("llama_bench_tg_{group}")).collect();
        assert!(tg.len() >= at_least, "{group}: {}", tg.len());
        let m = median_abs(&tg);
        assert!(m <= 20.0 && m <= target, "{group}: median {m:.1}%");
    }
    // Metal prompt runs (FP32 peak, Apple publishes no FP16 one before the M5) within 10%.
    let pp_metal: Vec<&ValidationRow> = all.iter().filter(|r| r.kind == "llama_bench_pp_metal").collect();
    assert!(median_abs(&pp_metal) <= 10.0, "{}", median_abs(&pp_metal));
}

/// The share of the int8 peak llama.cpp's MMQ kernels reach comes from the pull request that
/// gave them tensor cores (llama.cpp PR #7676, June 2024): Llama-3-8B Q4_0 prefilled
/// 10,358.75 tokens/s with 512-token micro-batches on an RTX 4090. With the engine's default
/// (`quantized_matmul_flops`) the engine gives that row back; it is not among the validation's.
#[test]
fn mmq_share_is_the_solution_of_the_pr_7676_row() {
    let mut s = Scenario::new(ModelSpec::Id("llama-3-8b".into()));
    s.gpu = GpuSpec::Id("rtx-4090".into());
    s.weight_dtype = Some(Dtype::Gguf(FileType::Q4_0));
    s.flash_attention = false;
    (s.batch, s.prompt_tokens, s.output_tokens, s.context_tokens) = (1, Some(512), Some(0), 512);
    let r = evaluate(&s).expect("evaluates");
    assert_eq!(r.performance.phases.prefill.path.used, ComputeDtype::Int8);
    let tps = r.performance.throughput.prefill_tokens_per_s;
    assert!((tps / 10_358.75 - 1.0).abs() < 0.01, "{tps}");
    assert!(r.performance.phases.prefill.tokens_per_s_bound > 10_358.75);
}

/// llama.cpp's quantised matrix kernels (MMQ) on NVIDIA run on the int8 peak (the engine's
/// `compute_dtype_on`), so the prompt runs are compared on that path; F16 weights stay on the
/// fp16 path, Apple chips (no int8 or fp16 peak) on FP32. The CUDA prompt rows' median error is
/// a fifth or less with MMQ's share from PR #7676; AMD's RDNA back ends take their own measured
/// shares (`llama_backend`, `engine::stack::LlamaBackend::prompt_share`).
#[test]
fn prompt_runs_take_llama_cpp_s_compute_path() {
    let all = rows("llama_bench_pp");
    let path = |r: &ValidationRow| match r.conditions.note {
        Note::LlamaBench { compute, .. } => compute,
        _ => panic!("{r:?}"),
    };
    for r in &all {
        let quantised = matches!(r.conditions.weight_dtype, Dtype::Gguf(_));
        let expected = match r.conditions.gpu.as_str() {
            g if g.starts_with("apple-") => ComputeDtype::Fp16,
            // RDNA 4's int8 matrix peak is twice its fp16 one, as on NVIDIA's tensor cores.
            g if g.starts_with("rtx-")
                || g == "tesla-p40"
                || g == "dgx-spark"
                || g == "radeon-rx-9070-xt" =>
            {
                if quantised {
                    ComputeDtype::Int8
                } else {
                    ComputeDtype::Fp16
                }
            }
            _ => ComputeDtype::Fp16,
        };
        assert_eq!(path(r), expected, "{r:?}");
        assert_ne!(r.bound_holds, Some(false), "{r:?}");
    }
    let cuda: Vec<&ValidationRow> = all.iter().filter(|r| r.kind == "llama_bench_pp_cuda").collect();
    assert!(median_abs(&cuda) <= 20.0, "{}", median_abs(&cuda));
    // ROCm and Vulkan on AMD: each back end's share measured on the row's RDNA generation
    // (44.5% with one share per back end, 16.2% with one per generation).
    let amd: Vec<&ValidationRow> = all.iter().filter(|r| r.kind == "llama_bench_pp_rocm_vulkan").collect();
    assert!(median_abs(&amd) <= 20.0, "{}", median_abs(&amd));
    // On Apple chips the fp16 path asked for is the FP32 peak.
    let m2 = gpus::find("apple-m2-ultra-76c").expect("in the catalog");
    assert_eq!(m2.compute_path(ComputeDtype::Fp16).expect("a path").used, ComputeDtype::Fp32);
}
