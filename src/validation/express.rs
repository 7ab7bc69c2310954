//! A published measurement as the scenarios that express it, by generic rules: the model
//! (catalog id or a GPT-style config from the conditions), the GPU, the precision, the layout,
//! then the rules of the measurement's kind ([`serving`], [`training`]). A row the rules cannot
//! express gives the [`Reason`].

use super::names::{gpu_id, model_id, precision};
use super::{num, text, Case, Reason};
use crate::engine::scenario::{ModelSpec, Scenario};
use serde_json::{json, Value};

mod concurrency;
mod disaggregation;
mod kv_tiers;
mod llama;
mod serving;
mod training;
mod wide_ep;

/// The fields of a measurement row that the rules read.
struct Row<'a> {
    /// The row itself (for the fields only one kind reads).
    raw: &'a Value,
    kind: String,
    model: String,
    /// The row's GPU text (`8x NVIDIA H100 80GB`), its catalog id and its count.
    gpu_text: String,
    gpu: Option<&'static str>,
    count: Option<u64>,
    /// The conditions (an empty object when the row has none).
    c: Value,
    value: Value,
    unit: String,
}

impl<'a> Row<'a> {
    fn read(raw: &'a Value) -> Row<'a> {
        let gpu_text = text(raw, "gpu");
        let (gpu, count) = gpu_id(&gpu_text);
        Row {
            raw,
            kind: text(raw, "kind"),
            model: text(raw, "model"),
            gpu_text,
            gpu,
            count,
            c: raw.get("conditions").cloned().unwrap_or(json!({})),
            value: raw.get("value").cloned().unwrap_or(Value::Null),
            unit: text(raw, "unit"),
        }
    }

    /// A serving kind: without a stated layout, its GPUs run tensor parallel.
    fn is_serving(&self) -> bool {
        let k = self.kind.as_str();
        ["inference", "decode", "e2e"].iter().any(|p| k.starts_with(p))
            || k.contains("ttft")
            || k.contains("first_token")
            || k.contains("fixed_concurrency")
    }
}

/// The cases (scenario, metric, measured value) that express one measurement row.
pub(super) fn express(raw: &Value) -> Result<Vec<Case>, Reason> {
    let row = Row::read(raw);
    if let Some(setting) = raw.get("not_expressed") {
        return Err(match serde_json::from_value(setting.clone()) {
            Ok(setting) => Reason::Unexpressed { setting },
            Err(_) => Reason::UnsupportedKind { kind: row.kind.clone() },
        });
    }
    if let Some(stated) = raw.get("scenario") {
        return training::stated(&row, stated);
    }
    let mut s = Scenario::new(model_spec(&row)?);
    set_gpu(&mut s, &row)?;
    set_precision(&mut s, &row);
    let dp = set_layout(&mut s, &row)?;
    set_software(&mut s, &row);
    set_speculation(&mut s, &row);
    match row.kind.as_str() {
        "decode_throughput_bs1"
        | "decode_throughput_batched"
        | "e2e_latency_batched"
        | "speculative_tpot_bs1" => serving::generation(&row, s),
        k if k.starts_with("inference") && k.contains("memory") => serving::inference_memory(&row, s),
        "training_iteration_time" => training::iteration_time(&row, s, dp),
        "training_throughput" if row.unit.contains("TFLOPs/GPU") => training::model_tflops(&row, s),
        k if wide_ep::is_wide_ep(k) => wide_ep::phase_throughput(&row, s),
        k if disaggregation::is_disaggregation(k) => disaggregation::under_load(&row, s),
        k if kv_tiers::is_kv_tier(k) => kv_tiers::restore(&row, s),
        k if concurrency::is_at_concurrency(k) => concurrency::itl_at_concurrency(&row, s),
        k if serving::is_under_load(k) => serving::tpot_under_load(&row, s),
        k if k.contains("ttft") || k.contains("first_token") => serving::time_to_first_token(&row, s),
        "training_peak_memory" => training::peak_memory(&row, s),
        "llama_bench" => llama::bench(&row, s),
        "gguf_model_size" => llama::model_size(&row, s),
        _ => Err(Reason::UnsupportedKind { kind: row.kind.clone() }),
    }
}

/// The model: the catalog id the name contains, else a GPT-2 style config from the conditions'
/// `hidden`, `layers`, `attention_heads` and `vocab` (`seq_len` positions, 2048 unstated).
/// Speculative decoding is expressed when the conditions state its method and acceptance
/// ([`set_speculation`]); a row that names a draft without them is not.
fn model_spec(row: &Row) -> Result<ModelSpec, Reason> {
    let lower = row.model.to_ascii_lowercase();
    let stated = row.c.get("speculative_method").is_some() && acceptance(&row.c).is_some();
    if (lower.contains("speculative") || lower.contains("draft")) && !stated {
        return Err(Reason::SpeculativeDecoding);
    }
    if let Some(id) = model_id(&row.model) {
        return Ok(ModelSpec::Id(id));
    }
    let c = &row.c;
    match (num(c, &["hidden"]), num(c, &["layers"]), num(c, &["attention_heads"]), num(c, &["vocab"])) {
        (Some(h), Some(l), Some(a), Some(v)) => {
            Ok(ModelSpec::Config(json!({"model_type": "gpt2", "n_embd": h, "n_layer": l, "n_head": a,
            "vocab_size": v, "n_positions": num(c, &["seq_len"]).unwrap_or(2048.0)})))
        }
        _ => Err(Reason::NoArchitecture),
    }
}

/// The GPU's catalog id; an inference memory row needs none (weights and KV cache do not
/// depend on the GPU).
fn set_gpu(s: &mut Scenario, row: &Row) -> Result<(), Reason> {
    let is_memory =
        (row.kind.contains("memory") && row.kind.starts_with("inference")) || row.kind == "gguf_model_size";
    match row.gpu {
        Some(g) => s.gpu = crate::engine::hardware::GpuSpec::Id(g.into()),
        None if is_memory => {}
        None => {
            return Err(match super::names::ambiguous_gpu(&row.gpu_text) {
                Some(candidates) => Reason::AmbiguousGpu {
                    gpu: row.gpu_text.clone(),
                    candidates: candidates.iter().map(|c| (*c).to_owned()).collect(),
                },
                None => Reason::GpuNotInCatalog { gpu: row.gpu_text.clone() },
            })
        }
    }
    Ok(())
}

/// Weight and KV dtypes and the int4 group size, from the precision, dtype and quantization
/// conditions and the model name together.
fn set_precision(s: &mut Scenario, row: &Row) {
    let c = &row.c;
    let prec = [text(c, "precision"), text(c, "dtype"), text(c, "quantization"), row.model.clone()].join(" ");
    let (w, kv, group) = precision(&prec);
    s.weight_dtype = Some(w);
    s.kv_dtype = kv;
    if let Some(g) = group {
        s.int4_group_size = g;
    }
}

/// The software a serving row ran, as its conditions name it: the stack from `engine` (SGLang;
/// TensorRT-LLM and NIM, which runs it; vLLM 0.5 and earlier; other vLLM versions are V1), the
/// client from `bench_tool` or the engine (NIM's tables are genai-perf's), and the MoE and
/// weight-only kernel families, expert parallelism and its dispatch when stated.
fn set_software(s: &mut Scenario, row: &Row) {
    use crate::engine::stack::{BenchTool, ServingStack};
    let c = &row.c;
    let engine = [text(c, "engine"), text(c, "framework")].join(" ").to_ascii_lowercase();
    s.serving_stack = if engine.contains("sglang") {
        ServingStack::Sglang
    } else if engine.contains("tensorrt") || engine.contains("trt") || engine.contains("nim") {
        ServingStack::Trtllm
    } else if ["vllm 0.5", "vllm v0.5", "vllm 0.4", "vllm v0.4"].iter().any(|v| engine.contains(v)) {
        ServingStack::VllmV05
    } else {
        ServingStack::VllmV1
    };
    let tool = text(c, "bench_tool").to_ascii_lowercase();
    if tool.contains("genai") || (tool.is_empty() && engine.contains("nim")) {
        s.bench_tool = BenchTool::GenaiPerf;
    }
    fn read<T: serde::de::DeserializeOwned>(c: &Value, key: &str) -> Option<T> {
        c.get(key).and_then(|v| serde_json::from_value(v.clone()).ok())
    }
    s.moe_kernel = read(c, "moe_kernel");
    s.weight_kernel = read(c, "weight_kernel");
    s.ep_comm = read(c, "ep_comm");
    if let Some(ep) = num(c, &["expert_parallel", "ep", "EP"]) {
        s.expert_parallel = ep as u64;
    }
    if let Some(r) = num(c, &["redundant_experts"]) {
        s.redundant_experts = r as u64;
    }
    if let Some(n) = num(c, &["num_prompts", "benchmark_requests"]) {
        s.benchmark_requests = Some(n as u64);
    }
    // The random dataset's `--random-range-ratio` (lengths uniform in [L·r, L]).
    s.length_min_ratio = num(c, &["random_range_ratio", "length_min_ratio"]);
}

/// The acceptance a row states: its mean acceptance length (`acceptance_length`, as vLLM and
/// SGLang print it) or an i.i.d. rate (`acceptance_rate`).
fn acceptance(c: &Value) -> Option<(Option<f64>, Option<f64>)> {
    let (length, rate) = (num(c, &["acceptance_length"]), num(c, &["acceptance_rate"]));
    (length.is_some() || rate.is_some()).then_some((length, rate))
}

/// Speculative decoding as the row states it: `speculative_method` (vLLM's method names),
/// `num_speculative_tokens` and the measured acceptance; the run's own acceptance is an input,
/// as a prefix-cache hit rate is, never a fitted constant.
fn set_speculation(s: &mut Scenario, row: &Row) {
    let c = &row.c;
    let Some(method) = c.get("speculative_method").and_then(|v| serde_json::from_value(v.clone()).ok())
    else {
        return;
    };
    s.speculative_method = Some(method);
    s.speculative_draft_tokens = num(c, &["num_speculative_tokens", "draft_tokens"]).map(|g| g as u64);
    if let Some((length, rate)) = acceptance(c) {
        (s.speculative_acceptance_length, s.speculative_acceptance_rate) = (length, rate);
    }
}

/// Tensor, pipeline and context parallelism as stated (multi-GPU serving without a stated
/// layout: tensor parallel over all GPUs, as vLLM and TensorRT-LLM are run), data parallelism
/// over the rest of the GPUs; returns the data-parallel size.
fn set_layout(s: &mut Scenario, row: &Row) -> Result<u64, Reason> {
    let (c, count) = (&row.c, row.count);
    let serving_default = if row.is_serving() { count.unwrap_or(1) as f64 } else { 1.0 };
    let tp = num(c, &["tensor_parallel", "tp", "TP"]).unwrap_or(serving_default) as u64;
    let pp = num(c, &["pipeline_parallel", "PP"]).unwrap_or(1.0) as u64;
    let cp = (num(c, &["context_parallel", "CP"]).unwrap_or(1.0) as u64).max(1);
    let dp = num(c, &["data_parallel", "DP(FSDP)"])
        .map(|d| d as u64)
        .unwrap_or_else(|| count.unwrap_or(tp * pp * cp) / (tp * pp * cp).max(1))
        .max(1);
    (s.tensor_parallel, s.pipeline_parallel, s.context_parallel, s.gpus) = (tp, pp, cp, tp * pp * cp * dp);
    Ok(dp)
}
