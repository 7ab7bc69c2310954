//! llama.cpp measurements as scenarios: llama-bench's `tgN` (decode) and `ppN` (prompt) runs,
//! and the size llama.cpp reports for a model in a file type.
//!
//! llama-bench times one sequence: `tgN` generates N tokens from an empty context (the average
//! step sees about N/2 cached tokens), `ppN` processes a prompt of N tokens. The scenario is
//! batch 1 with that prompt and output, the file type as the weight format (`F16` is fp16, the
//! KV cache llama.cpp's default f16), `-ngl` as `gpu_layers` (99: every layer, the output layer
//! too). Rows are grouped by back end (CUDA; Metal; ROCm/HIP and Vulkan), each group a kind.
//!
//! The compute path is the engine's (`Scenario::compute_dtype_on`): llama.cpp multiplies
//! quantised weights with its MMQ kernels on whichever of the GPU's int8 and fp16 paths has the
//! higher peak (int8 on NVIDIA, fp16 or the FP32 fallback on Apple and AMD, where the int8 peak
//! is no higher); the 16-bit types run on the fp16 path. With the fp16 peak alone the bound falls below measured pp512 runs: Llama 2
//! 7B costs 13.35 GFLOP per prompt token, so the RTX 5070's 5,185 tokens/s need 69 TFLOP/s,
//! above its 61.7 FP16 with FP32 accumulate, and the Tesla P40's 1,007 need 13.4, above its
//! 11.8 FP32 (it has no fast FP16): the int8 peak (INT8 tensor cores, DP4A on the P40) is the
//! one MMQ is limited by. The expected time takes the share of that peak MMQ was measured to
//! reach in the pull request that introduced it (`quantized_matmul_flops`), not a GEMM's.

use super::Row;
use crate::engine::precision::compute::ComputeDtype;
use crate::engine::precision::Dtype;
use crate::engine::scenario::Scenario;
use crate::validation::{
    num, text, Case, LlamaBackend, LlamaTest, Metric, Note, Reason, RowUnit, SizeReport,
};

/// The weight format of a llama.cpp file type name (`Q4_K_M`, `MXFP4_MOE`, `F16`, `BF16`).
fn weight_format(name: &str) -> Option<Dtype> {
    Dtype::parse(name)
}

/// The kind of a row: its test (decode or prompt) and its back end's group.
fn kind(test: LlamaTest, backend: LlamaBackend) -> &'static str {
    match (test, backend) {
        (LlamaTest::Tg(_), LlamaBackend::Cuda) => "llama_bench_tg_cuda",
        (LlamaTest::Tg(_), LlamaBackend::Metal) => "llama_bench_tg_metal",
        (LlamaTest::Tg(_), LlamaBackend::Rocm | LlamaBackend::Vulkan) => "llama_bench_tg_rocm_vulkan",
        (LlamaTest::Pp(_), LlamaBackend::Cuda) => "llama_bench_pp_cuda",
        (LlamaTest::Pp(_), LlamaBackend::Metal) => "llama_bench_pp_metal",
        (LlamaTest::Pp(_), LlamaBackend::Rocm | LlamaBackend::Vulkan) => "llama_bench_pp_rocm_vulkan",
    }
}

/// A llama-bench run: tokens/s of its decode (`tgN`: `decode_tokens_per_s`, the average step)
/// or of its prompt (`ppN`: `prefill_tokens_per_s`), with the roofline bound of each.
pub(super) fn bench(row: &Row, mut s: Scenario) -> Result<Vec<Case>, Reason> {
    let c = &row.c;
    let file_type = text(c, "file_type");
    let weight = weight_format(&file_type).ok_or(Reason::UnknownFileType { name: file_type })?;
    let backend_text = text(c, "backend");
    let backend =
        LlamaBackend::parse(&backend_text).ok_or(Reason::UnsupportedBackend { backend: backend_text })?;
    let test_text = text(c, "test");
    let test = LlamaTest::parse(&test_text).ok_or(Reason::UnknownTest { test: test_text })?;
    let Some(v) = row.value.as_f64() else { return Err(Reason::NoBatchOrValue) };
    (s.weight_dtype, s.kv_dtype, s.batch) = (Some(weight), None, 1);
    let flash_attention = c.get("flash_attn").and_then(serde_json::Value::as_bool);
    s.flash_attention = flash_attention == Some(true);
    s.gpu_layers = num(c, &["ngl"]).map(|n| n as u64);
    s.llama_backend = Some(engine_backend(backend, &text(c, "matrix_cores")));
    // llama.cpp's micro-batch: n_ubatch (default 512), at most n_batch (default 2048).
    let ubatch =
        num(c, &["n_ubatch", "ub"]).unwrap_or(512.0).min(num(c, &["n_batch", "b"]).unwrap_or(2048.0));
    s.prefill_chunk_tokens = ubatch.max(1.0) as u64;
    let metric = match test {
        LlamaTest::Tg(n) => {
            (s.prompt_tokens, s.output_tokens, s.context_tokens) = (Some(0), Some(n), n);
            Metric::DecodeTokensPerS
        }
        LlamaTest::Pp(n) => {
            (s.prompt_tokens, s.output_tokens, s.context_tokens) = (Some(n), Some(0), n);
            Metric::PrefillTokensPerS
        }
    };
    let note = Note::LlamaBench {
        test,
        backend,
        flash_attention,
        gpu_layers: s.gpu_layers,
        compute: row
            .gpu
            .and_then(crate::catalog::gpus::find)
            .map_or(ComputeDtype::Fp16, |g| s.compute_dtype_on(g, None)),
    };
    Ok(vec![Case::new(kind(test, backend), metric, v, RowUnit::TokensPerS, s, note)])
}

/// The engine's back end for a row's: Vulkan with cooperative matrices unless the row's
/// llama-bench header says `matrix cores: none` (llama.cpp uses `VK_KHR_cooperative_matrix`
/// wherever the driver exposes it, as RDNA 3 and later drivers do).
fn engine_backend(b: LlamaBackend, matrix_cores: &str) -> crate::engine::stack::LlamaBackend {
    use crate::engine::stack::LlamaBackend as E;
    match b {
        LlamaBackend::Cuda => E::Cuda,
        LlamaBackend::Metal => E::Metal,
        LlamaBackend::Rocm => E::Rocm,
        LlamaBackend::Vulkan if matrix_cores.trim().eq_ignore_ascii_case("none") => E::Vulkan,
        LlamaBackend::Vulkan => E::VulkanCoopmat,
    }
}

/// The size llama.cpp reports for the model in a file type (llama-bench's size column, the
/// quantizer's help text or the loader's log) against the tensors the engine lays out: the
/// report's `model.gguf.bytes` (the 16-bit types: the weights), in GiB.
pub(super) fn model_size(row: &Row, mut s: Scenario) -> Result<Vec<Case>, Reason> {
    let c = &row.c;
    let file_type = text(c, "file_type");
    let weight = weight_format(&file_type).ok_or(Reason::UnknownFileType { name: file_type })?;
    let Some(v) = row.value.as_f64() else { return Err(Reason::NoBatchOrValue) };
    let gib = match row.unit.as_str() {
        "GiB" => v,
        "MiB" => v / 1024.0,
        "bytes" => v / crate::validation::GIB,
        _ => return Err(Reason::NoWeightsGib),
    };
    (s.weight_dtype, s.batch, s.context_tokens) = (Some(weight), 1, 16);
    let reported = SizeReport::parse(&text(c, "reported_by"));
    Ok(vec![Case::new(
        "gguf_model_size",
        Metric::ModelSizeGiB,
        gib,
        RowUnit::GibModelSize,
        s,
        Note::ModelSize { reported },
    )])
}
