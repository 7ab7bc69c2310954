//! The validation table: every published measurement the engine can express (embedded from
//! `catalog/data/measurements.json`, a copy of the shared reference file), turned into a
//! Scenario by generic rules (model name → catalog id, GPU name → catalog id, precision →
//! dtypes, layout and lengths from the conditions), evaluated, and compared: measured,
//! expected, bound, error, and whether the bound holds (bound speed ≥ measured speed, bound
//! time ≤ measured time). Rows that cannot be expressed are listed with the reason.
//! No constant is fitted to any row.

use crate::catalog::evaluate;
use crate::engine::precision::Dtype;
use crate::engine::report::Report;
use crate::engine::scenario::{Mode, ModelSpec, Recompute, Scenario};
use serde::Serialize;
use serde_json::{json, Value};

/// One compared measurement.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ValidationRow {
    /// Index in measurements.json.
    pub index: usize,
    /// What is compared (e.g. `decode_throughput_bs1`, `inference_memory`).
    pub kind: String,
    pub model: String,
    pub gpu: String,
    /// The conditions, as the scenario that expresses them (worded by `i18n::validation`).
    pub conditions: Conditions,
    pub unit: RowUnit,
    pub measured: f64,
    pub expected: f64,
    /// Roofline bound (null for memory, which has no bound).
    pub bound: Option<f64>,
    /// (expected − measured) / measured × 100.
    pub error_pct: f64,
    /// Bound speed ≥ measured (or bound time ≤ measured); null without a bound.
    pub bound_holds: Option<bool>,
    pub source: String,
}

/// A measurement the engine cannot express, and why.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct NotExpressed {
    pub index: usize,
    pub kind: String,
    pub model: String,
    pub reason: Reason,
}

/// The conditions of a compared measurement: the facts of the scenario that expresses it.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Conditions {
    /// Model catalog id, or `None` for a config built from the conditions.
    pub model: Option<String>,
    pub weight_dtype: Dtype,
    pub gpus: u64,
    /// GPU catalog id (or `custom`).
    pub gpu: String,
    pub tensor_parallel: u64,
    pub pipeline_parallel: u64,
    pub data_parallel: u64,
    pub batch: u64,
    pub context_tokens: u64,
    pub mode: Mode,
    pub micro_batches: u64,
    pub note: Note,
}

/// What else the comparison assumes.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Note {
    None,
    /// Prompt and output lengths (the output assumed when the source does not state it).
    PromptOutput {
        prompt: u64,
        output: u64,
        output_assumed: bool,
    },
    /// The recomputation and sequence parallelism of the run.
    Recompute {
        recompute: Recompute,
        sequence_parallel: bool,
    },
    /// Sequences per data-parallel replica per step.
    SequencesPerReplica {
        sequences: f64,
    },
    /// A fine-tuning method whose peak memory is not compared (only its throughput).
    ThroughputOnly {
        method: String,
    },
    /// A serving run under Poisson arrivals at `rate` requests/s; the p95 or the median.
    UnderLoad {
        rate: f64,
        prompt: u64,
        output: u64,
        max_seqs: u64,
        p95: bool,
    },
    /// A fine-tuning run as a framework's recipe runs it (see [`recipe`]).
    Recipe {
        method: String,
        recipe: Recipe,
    },
}

/// The settings a framework's published recipe uses, as the scenario expresses them.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Recipe {
    pub framework: String,
    pub optimizer: crate::engine::scenario::Optimizer,
    pub optimizer_in_backward: bool,
    pub recompute: Recompute,
    pub loss_chunks: u64,
    pub zero_stage: u8,
}

/// The unit a measurement is compared in.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum RowUnit {
    MsPerBatch,
    OutputTokensPerSPerGpu,
    OutputTokensPerS,
    GibWeightsPerGpu,
    BytesPerToken,
    SPerIteration,
    ModelTflopsPerGpu,
    TokensPerSReported,
    GibPeakPerGpu,
    MsToFirstToken,
    MsPerOutputTokenUnderLoad,
}

/// Why a measurement cannot be expressed as a scenario.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(tag = "reason", rename_all = "snake_case")]
pub enum Reason {
    SpeculativeDecoding,
    /// The measured rate is past what the engine's load model sustains (its latencies unbounded).
    BeyondSustainableRate {
        sustainable: f64,
    },
    NoArchitecture,
    GpuNotInCatalog {
        gpu: String,
    },
    ContextParallelism,
    NoBatchOrValue,
    NoWeightsGib,
    NoBatchOrSequenceLength,
    PeakTrainingMemory,
    /// The framework's recipe is not one the validation knows.
    UnknownRecipe {
        framework: String,
    },
    /// FSDP CPU offload of parameters, gradients and optimizer states.
    FsdpCpuOffload,
    UnsupportedKind {
        kind: String,
    },
    /// The engine rejected the scenario (the field and what is wrong).
    Rejected {
        field: String,
        #[serde(skip)]
        kind: crate::engine::error::ErrorKind,
    },
}

/// Median absolute error of the expected values of one kind.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct KindSummary {
    pub kind: String,
    pub rows: usize,
    pub median_abs_error_pct: f64,
    pub bound_violations: usize,
}

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ValidationTable {
    pub rows: Vec<ValidationRow>,
    pub summary: Vec<KindSummary>,
    pub not_expressed: Vec<NotExpressed>,
}

/// Which number of the report a measurement is compared with.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Metric {
    /// Output tokens/s over prefill + decode of a batch; `per_gpu` divides by the GPUs.
    GenerationTokensPerS {
        per_gpu: bool,
    },
    GenerationTimeMs,
    WeightsGiB,
    KvBytesPerToken,
    TrainingTokensPerS,
    TrainingStepS,
    TrainingTflopsPerGpu,
    PeakMemoryGiB,
    TimeToFirstTokenMs,
    /// Time per output token (time between tokens) under a Poisson load: the load model's p50
    /// or p95.
    TpotUnderLoadMs {
        p95: bool,
    },
}

struct Case {
    kind: &'static str,
    scenario: Scenario,
    metric: Metric,
    measured: f64,
    unit: RowUnit,
    note: Note,
}

const GIB: f64 = 1024.0 * 1024.0 * 1024.0;

fn text(v: &Value, key: &str) -> String {
    v.get(key).map(|x| x.as_str().map_or_else(|| x.to_string(), str::to_owned)).unwrap_or_default()
}

fn num(c: &Value, keys: &[&str]) -> Option<f64> {
    keys.iter()
        .find_map(|k| c.get(*k).and_then(|v| v.as_f64().or_else(|| v.as_str().and_then(|s| s.parse().ok()))))
}

/// Catalog model id inside a free-text model name: the longest catalog id that occurs as a
/// whole token (Llama-3 70B shares Llama-3.1 70B's architecture and maps to it).
pub fn model_id(name: &str) -> Option<String> {
    let n = name.to_ascii_lowercase().replace(' ', "-");
    let n = n.replace("llama-3-70b", "llama-3.1-70b");
    let ids = crate::catalog::models::ids();
    ids.iter()
        .filter(|id| {
            n.match_indices(**id).any(|(i, _)| {
                let before = n[..i].chars().last().is_none_or(|c| !c.is_alphanumeric() && c != '.');
                let after = n[i + id.len()..].chars().next().is_none_or(|c| !c.is_alphanumeric() && c != '.');
                before && after
            })
        })
        .max_by_key(|id| id.len())
        .map(|id| id.to_string())
}

/// Catalog GPU id and count from a free-text GPU description (`8x NVIDIA H100 80GB`).
pub fn gpu_id(desc: &str) -> (Option<&'static str>, Option<u64>) {
    let d = desc.to_ascii_lowercase();
    let count = d.split_whitespace().next().and_then(|w| w.strip_suffix('x')).and_then(|n| n.parse().ok());
    let has = |s: &str| d.contains(s);
    let id = if has("gb200") {
        Some("gb200")
    } else if has("b200") {
        Some("b200")
    } else if has("h200") {
        Some(if has("nvl") { "h200-nvl" } else { "h200-sxm" })
    } else if has("h100") {
        Some(if has("nvl") {
            "h100-nvl"
        } else if has("pcie") {
            "h100-pcie"
        } else {
            "h100-sxm"
        })
    } else if has("a100") {
        Some(match (has("40gb"), has("pcie")) {
            (true, true) => "a100-pcie-40gb",
            (true, false) => "a100-sxm-40gb",
            (false, true) => "a100-pcie-80gb",
            (false, false) => "a100-sxm-80gb",
        })
    } else if has("v100") {
        Some(if has("16gb") { "v100-sxm-16gb" } else { "v100-sxm-32gb" })
    } else if has("mi300x") {
        Some("mi300x")
    } else if has("mi325x") {
        Some("mi325x")
    } else if has("l40s") {
        Some("l40s")
    } else if has("a10g") {
        Some("a10g")
    } else if has("a10 ") || has("a10)") || has("a10 on") {
        Some("a10")
    } else if has("rtx 4090") || has("4090") {
        Some("rtx-4090")
    } else if has("5090") {
        Some("rtx-5090")
    } else if has(" l4") || d.starts_with("l4") {
        Some("l4")
    } else if has("t4") {
        Some("t4")
    } else {
        None
    };
    (id, count)
}

/// (weight dtype, kv dtype, int4 group size) from a precision text.
fn precision(p: &str) -> (Dtype, Option<Dtype>, Option<u64>) {
    let p = p.to_ascii_lowercase();
    let group = p
        .split("g=")
        .nth(1)
        .and_then(|r| r.split(|c: char| !c.is_ascii_digit()).next())
        .and_then(|g| g.parse().ok());
    if p.contains("fp8") {
        (Dtype::Fp8, p.contains("kv").then_some(Dtype::Fp8), None)
    } else if p.contains("int8") {
        (Dtype::Int8, None, None)
    } else if p.contains("int4") {
        (Dtype::Int4, None, group)
    } else if p.contains("nf4") {
        (Dtype::Nf4, None, None)
    } else if p.contains("fp16") || p.contains("float16") && !p.contains("bfloat16") {
        (Dtype::Fp16, None, None)
    } else {
        (Dtype::Bf16, None, None)
    }
}

fn express(row: &Value) -> Result<Vec<Case>, Reason> {
    let kind = text(row, "kind");
    let model = text(row, "model");
    let gpu_text = text(row, "gpu");
    let c = row.get("conditions").cloned().unwrap_or(json!({}));
    let value = row.get("value").cloned().unwrap_or(Value::Null);
    let unit = text(row, "unit");
    let lower = model.to_ascii_lowercase();
    if lower.contains("speculative") || lower.contains("draft") {
        return Err(Reason::SpeculativeDecoding);
    }
    // The model: catalog id, or a GPT-style config from the conditions.
    let spec = match model_id(&model) {
        Some(id) => ModelSpec::Id(id),
        None => match (
            num(&c, &["hidden"]),
            num(&c, &["layers"]),
            num(&c, &["attention_heads"]),
            num(&c, &["vocab"]),
        ) {
            (Some(h), Some(l), Some(a), Some(v)) => {
                ModelSpec::Config(json!({"model_type": "gpt2", "n_embd": h, "n_layer": l, "n_head": a,
                "vocab_size": v, "n_positions": num(&c, &["seq_len"]).unwrap_or(2048.0)}))
            }
            _ => return Err(Reason::NoArchitecture),
        },
    };
    let mut s = Scenario::new(spec);
    let is_memory = kind.contains("memory") && kind.starts_with("inference");
    let (gpu, count) = gpu_id(&gpu_text);
    match gpu {
        Some(g) => s.gpu = crate::engine::hardware::GpuSpec::Id(g.into()),
        None if is_memory => {}
        None => return Err(Reason::GpuNotInCatalog { gpu: gpu_text }),
    }
    let prec = [text(&c, "precision"), text(&c, "dtype"), text(&c, "quantization"), model.clone()].join(" ");
    let (w, kv, group) = precision(&prec);
    s.weight_dtype = Some(w);
    s.kv_dtype = kv;
    if let Some(g) = group {
        s.int4_group_size = g;
    }
    // Multi-GPU serving without a stated layout: tensor parallel over all GPUs (vLLM/TRT-LLM usage).
    let serving_default = if kind.starts_with("inference")
        || kind.starts_with("decode")
        || kind.starts_with("e2e")
        || kind.contains("ttft")
        || kind.contains("first_token")
    {
        count.unwrap_or(1) as f64
    } else {
        1.0
    };
    let tp = num(&c, &["tensor_parallel", "tp", "TP"]).unwrap_or(serving_default) as u64;
    let pp = num(&c, &["pipeline_parallel", "PP"]).unwrap_or(1.0) as u64;
    if num(&c, &["CP"]).unwrap_or(1.0) > 1.0 {
        return Err(Reason::ContextParallelism);
    }
    let dp = num(&c, &["data_parallel", "DP(FSDP)"])
        .map(|d| d as u64)
        .unwrap_or_else(|| count.unwrap_or(tp * pp) / (tp * pp).max(1))
        .max(1);
    (s.tensor_parallel, s.pipeline_parallel, s.gpus) = (tp, pp, tp * pp * dp);
    let one = |kind, metric, measured: f64, unit: RowUnit, s: Scenario, note: Note| Case {
        kind,
        scenario: s,
        metric,
        measured,
        unit,
        note,
    };
    let batch = num(&c, &["batch_size"]);
    let mut cases = Vec::new();
    match kind.as_str() {
        "decode_throughput_bs1" | "decode_throughput_batched" | "e2e_latency_batched" => {
            let (Some(b), Some(v)) = (batch, value.as_f64()) else {
                return Err(Reason::NoBatchOrValue);
            };
            s.batch = b as u64;
            // gpt-fast generates 200 tokens by default; prompts default to 16 tokens when unstated.
            let prompt = num(&c, &["prompt_len", "input_len"]).unwrap_or(16.0) as u64;
            let output = num(&c, &["output_len"]).unwrap_or(200.0) as u64;
            (s.prompt_tokens, s.output_tokens, s.context_tokens) =
                (Some(prompt), Some(output), prompt + output);
            let note = Note::PromptOutput { prompt, output, output_assumed: c.get("output_len").is_none() };
            if kind == "e2e_latency_batched" {
                cases.push(one(
                    "e2e_latency_batched",
                    Metric::GenerationTimeMs,
                    v,
                    RowUnit::MsPerBatch,
                    s,
                    note,
                ));
            } else {
                let per_gpu = unit.contains("per GPU") || unit.contains("per-GPU");
                let k =
                    if kind.ends_with("bs1") { "decode_throughput_bs1" } else { "decode_throughput_batched" };
                cases.push(one(
                    k,
                    Metric::GenerationTokensPerS { per_gpu },
                    v,
                    if per_gpu { RowUnit::OutputTokensPerSPerGpu } else { RowUnit::OutputTokensPerS },
                    s,
                    note,
                ));
            }
        }
        k if k.starts_with("inference") && k.contains("memory") => {
            let weights = value
                .get("weights_GiB")
                .and_then(Value::as_f64)
                .or_else(|| value.as_f64().filter(|_| unit.contains("GiB")));
            let Some(wgib) = weights else { return Err(Reason::NoWeightsGib) };
            cases.push(one(
                "inference_memory",
                Metric::WeightsGiB,
                wgib,
                RowUnit::GibWeightsPerGpu,
                s.clone(),
                Note::None,
            ));
            if let (Some(kv), Some(t)) = (
                value.get("kv_cache_GiB").and_then(Value::as_f64),
                value.get("kv_tokens").and_then(Value::as_f64),
            ) {
                cases.push(one(
                    "kv_cache_bytes_per_token",
                    Metric::KvBytesPerToken,
                    kv * GIB / t,
                    RowUnit::BytesPerToken,
                    s,
                    Note::None,
                ));
            }
        }
        "training_iteration_time" => {
            let (Some(mb), Some(gb), Some(seq)) =
                (num(&c, &["micro_batch"]), num(&c, &["global_batch"]), num(&c, &["seq_len"]))
            else {
                return Err(Reason::NoBatchOrSequenceLength);
            };
            (s.mode, s.batch, s.context_tokens) = (Mode::Training, mb as u64, seq as u64);
            s.micro_batches = Some(((gb / (mb * dp as f64)).max(1.0)) as u64);
            for (key, recompute, sp) in [
                ("iter_time_full_recompute_s", Recompute::Full, false),
                ("iter_time_seq_par+selective_s", Recompute::Selective, true),
            ] {
                if let Some(v) = value.get(key).and_then(Value::as_f64) {
                    let mut s = s.clone();
                    (s.recompute, s.sequence_parallel) = (recompute, sp);
                    cases.push(one(
                        "training_iteration_time",
                        Metric::TrainingStepS,
                        v,
                        RowUnit::SPerIteration,
                        s,
                        Note::Recompute { recompute, sequence_parallel: sp },
                    ));
                }
            }
        }
        "training_throughput" if unit.contains("TFLOPs/GPU") => {
            let (Some(seq), Some(per_dp), Some(v)) =
                (num(&c, &["seq_len"]), num(&c, &["batch_size_per_DP"]), value.as_f64())
            else {
                return Err(Reason::NoBatchOrSequenceLength);
            };
            (s.mode, s.batch, s.context_tokens, s.micro_batches) =
                (Mode::Training, 1, seq as u64, Some(per_dp as u64));
            cases.push(one(
                "training_throughput",
                Metric::TrainingTflopsPerGpu,
                v,
                RowUnit::ModelTflopsPerGpu,
                s,
                Note::SequencesPerReplica { sequences: per_dp },
            ));
        }
        // Time between tokens under load (vLLM's benchmark reports TPOT and ITL percentiles at a
        // request rate): the scheduler's batch is vLLM's default max_num_seqs (256) unless stated.
        k if k.contains("under_load")
            || k.contains("tbt")
            || k.contains("inter_token")
            || k.contains("tpot") =>
        {
            let (Some(rate), Some(prompt), Some(output), Some(v)) = (
                num(&c, &["request_rate", "arrival_rate", "qps", "rate"]),
                num(&c, &["prompt_len", "input_len"]),
                num(&c, &["output_len"]),
                value.as_f64(),
            ) else {
                return Err(Reason::NoBatchOrValue);
            };
            let max_seqs = num(&c, &["max_num_seqs", "max_concurrency", "batch"]).unwrap_or(256.0) as u64;
            let p95 = [text(&c, "percentile"), text(&c, "statistic"), kind.clone()].join(" ").contains("95");
            let (prompt, output) = (prompt as u64, output as u64);
            s.arrival_rate_per_s = Some(rate);
            s.batch = max_seqs.max(1);
            (s.prompt_tokens, s.output_tokens, s.context_tokens) =
                (Some(prompt), Some(output), prompt.saturating_add(output));
            let u = unit.to_ascii_lowercase();
            let ms = if u.contains("ms") || u.contains("millisecond") { v } else { v * 1e3 };
            cases.push(one(
                "tpot_under_load",
                Metric::TpotUnderLoadMs { p95 },
                ms,
                RowUnit::MsPerOutputTokenUnderLoad,
                s,
                Note::UnderLoad { rate, prompt, output, max_seqs, p95 },
            ));
        }
        k if k.contains("ttft") || k.contains("first_token") => {
            let (Some(prompt), Some(v)) = (num(&c, &["prompt_len", "input_len"]), value.as_f64()) else {
                return Err(Reason::NoBatchOrValue);
            };
            s.batch = batch.unwrap_or(1.0) as u64;
            let prompt = prompt as u64;
            (s.prompt_tokens, s.output_tokens, s.context_tokens) = (Some(prompt), Some(1), prompt + 1);
            let u = unit.to_ascii_lowercase();
            let in_ms = u.trim_start().starts_with("ms")
                || u.contains(" ms")
                || u.contains("(ms)")
                || u.contains("millisecond");
            let ms = if in_ms { v } else { v * 1e3 };
            cases.push(one(
                "ttft",
                Metric::TimeToFirstTokenMs,
                ms,
                RowUnit::MsToFirstToken,
                s,
                Note::PromptOutput { prompt, output: 1, output_assumed: false },
            ));
        }
        "training_peak_memory" => {
            let method = text(&c, "method").to_ascii_lowercase();
            let gpus = count.unwrap_or(1);
            let known = recipe(&c, &method, gpus);
            let Some(tps) = row.get("tokens_per_s").and_then(Value::as_f64) else {
                return Err(known.err().unwrap_or(Reason::PeakTrainingMemory));
            };
            s.mode = if method.contains("qlora") {
                Mode::Qlora
            } else if method.contains("lora") {
                Mode::Lora
            } else {
                Mode::Training
            };
            if s.mode == Mode::Qlora {
                s.weight_dtype = Some(Dtype::Nf4);
            }
            s.batch = num(&c, &["batch_size"]).unwrap_or(1.0) as u64;
            s.context_tokens = num(&c, &["seq_len"]).unwrap_or(2048.0) as u64;
            if let Ok(r) = &known {
                apply_recipe(&mut s, r, gpus);
                let peak = value.as_f64().filter(|_| unit.contains("GiB") || unit.contains("GB"));
                if let Some(v) = peak {
                    cases.push(one(
                        "training_peak_memory",
                        Metric::PeakMemoryGiB,
                        v,
                        RowUnit::GibPeakPerGpu,
                        s.clone(),
                        Note::Recipe { method: method.clone(), recipe: r.clone() },
                    ));
                }
            }
            cases.push(one(
                "training_tokens_per_s",
                Metric::TrainingTokensPerS,
                tps,
                RowUnit::TokensPerSReported,
                s,
                Note::ThroughputOnly { method },
            ));
        }
        _ => return Err(Reason::UnsupportedKind { kind }),
    }
    Ok(cases)
}

fn metric(r: &Report, m: Metric, gpus: f64) -> (f64, Option<f64>, bool) {
    let t = &r.performance;
    match m {
        Metric::GenerationTokensPerS { per_gpu } => {
            let k = if per_gpu { gpus } else { 1.0 };
            (
                t.throughput.generation_tokens_per_s / k,
                Some(t.throughput.generation_tokens_per_s_bound / k),
                true,
            )
        }
        Metric::GenerationTimeMs => (t.time.generation_s * 1e3, Some(t.time.generation_s_bound * 1e3), false),
        Metric::WeightsGiB => (r.memory_per_gpu_bytes.weights as f64 / GIB, None, true),
        Metric::KvBytesPerToken => (r.kv_cache_bytes_per_token as f64, None, true),
        Metric::TrainingTokensPerS => {
            (t.throughput.tokens_per_s.unwrap_or(0.0), t.throughput.tokens_per_s_bound, true)
        }
        Metric::TrainingStepS => (t.time.step_s.unwrap_or(0.0), t.time.step_s_bound, false),
        Metric::PeakMemoryGiB => (r.memory_per_gpu_bytes.total as f64 / GIB, None, true),
        // No bound: a lower bound on the time between tokens under load would need the step's
        // least traffic, which depends on the batch the scheduler happens to run.
        Metric::TpotUnderLoadMs { p95 } => {
            let l = r.load.as_ref();
            let v = l.and_then(|l| if p95 { l.tpot_p95_s } else { l.tpot_p50_s });
            (v.unwrap_or(0.0) * 1e3, None, false)
        }
        Metric::TimeToFirstTokenMs => {
            (t.time.time_to_first_token_s * 1e3, Some(t.time.prefill_s_bound * 1e3), false)
        }
        Metric::TrainingTflopsPerGpu => {
            let flops = t.phases.training.as_ref().map_or(0.0, |p| p.flops) * r.layout.data_parallel as f64
                / gpus
                / 1e12;
            let per = |s: Option<f64>| s.filter(|s| *s > 0.0).map_or(0.0, |s| flops / s);
            (per(t.time.step_s), Some(per(t.time.step_s_bound)), true)
        }
    }
}

/// The recipe a fine-tuning row ran, from its framework and method. torchtune's published
/// configs (recipes/configs/llama3_1/*.yaml): `dtype: bf16`, `enable_activation_checkpointing:
/// True`, a chunked cross-entropy (`CEWithChunkedOutputLoss`, 8 chunks by default); the
/// single-device full fine-tune uses `bitsandbytes.optim.PagedAdamW8bit` with
/// `optimizer_in_bwd: True`, the LoRA/QLoRA recipes `torch.optim.AdamW`; several GPUs shard
/// with FSDP (ZeRO-3). A run that offloads parameters to the CPU is not expressed.
fn recipe(c: &Value, method: &str, gpus: u64) -> Result<Recipe, Reason> {
    use crate::engine::scenario::Optimizer;
    let framework = text(c, "framework");
    if !framework.to_ascii_lowercase().contains("torchtune") {
        return Err(Reason::UnknownRecipe { framework });
    }
    let note = text(c, "note").to_ascii_lowercase();
    let full = !method.contains("lora");
    if full && gpus > 1 && note.contains("cpu offload") {
        return Err(Reason::FsdpCpuOffload);
    }
    let single_full = full && gpus <= 1;
    Ok(Recipe {
        framework,
        optimizer: if single_full { Optimizer::PagedAdam8bit } else { Optimizer::Adamw },
        optimizer_in_backward: single_full,
        recompute: Recompute::Full,
        loss_chunks: 8,
        zero_stage: if gpus > 1 { 3 } else { 0 },
    })
}

/// The recipe's settings on the scenario (LoRA as torchtune's Llama 3.1 configs: rank 8 on
/// q, v, output projections and the MLP).
fn apply_recipe(s: &mut Scenario, r: &Recipe, gpus: u64) {
    use crate::engine::scenario::TrainingPrecision;
    s.training_precision = TrainingPrecision::Bf16;
    (s.optimizer, s.optimizer_in_backward, s.recompute) = (r.optimizer, r.optimizer_in_backward, r.recompute);
    (s.loss_chunks, s.zero_stage) = (r.loss_chunks, r.zero_stage);
    (s.gpus, s.tensor_parallel, s.pipeline_parallel, s.data_parallel) = (gpus.max(1), 1, 1, None);
    if matches!(s.mode, Mode::Lora | Mode::Qlora) {
        s.lora_rank = 8;
        s.lora_targets =
            ["q_proj", "v_proj", "o_proj", "gate_proj", "up_proj", "down_proj"].map(str::to_owned).to_vec();
    }
}

/// The facts of the scenario that expresses a measurement.
fn conditions(s: &Scenario, note: Note) -> Conditions {
    Conditions {
        model: match &s.model {
            ModelSpec::Id(id) => Some(id.clone()),
            ModelSpec::Config(_) => None,
        },
        weight_dtype: s.resolved_weight_dtype(),
        gpus: s.gpus,
        gpu: match &s.gpu {
            crate::engine::hardware::GpuSpec::Id(i) => i.clone(),
            _ => "custom".into(),
        },
        tensor_parallel: s.tensor_parallel,
        pipeline_parallel: s.pipeline_parallel,
        data_parallel: s.data_parallel(),
        batch: s.batch,
        context_tokens: s.context_tokens,
        mode: s.mode,
        micro_batches: s.resolved_micro_batches(),
        note,
    }
}

/// The median of `v` (0 for an empty list).
pub fn median(mut v: Vec<f64>) -> f64 {
    crate::engine::num::sort_stable_by(&mut v, |a, b| a.total_cmp(b).is_lt());
    crate::engine::num::median_of_sorted(&v).unwrap_or(0.0)
}

/// Builds the table from a measurements file (`{"measurements": [...]}`).
pub fn validate_measurements(file: &Value) -> ValidationTable {
    let rows_in = file.get("measurements").and_then(Value::as_array).cloned().unwrap_or_default();
    let mut rows = Vec::new();
    let mut not_expressed = Vec::new();
    for (index, row) in rows_in.iter().enumerate() {
        let skip = |reason: Reason| NotExpressed {
            index,
            kind: text(row, "kind"),
            model: text(row, "model"),
            reason,
        };
        let cases = match express(row) {
            Ok(c) => c,
            Err(reason) => {
                not_expressed.push(skip(reason));
                continue;
            }
        };
        for case in cases {
            let report = match evaluate(&case.scenario) {
                Ok(r) => r,
                Err(e) => {
                    let e = e.scenario_error().clone();
                    not_expressed.push(skip(Reason::Rejected { field: e.field, kind: e.kind }));
                    continue;
                }
            };
            if let (Metric::TpotUnderLoadMs { .. }, Some(l)) = (case.metric, report.load.as_ref()) {
                if !l.stable {
                    not_expressed.push(skip(Reason::BeyondSustainableRate {
                        sustainable: l.max_sustainable_rate_per_s,
                    }));
                    continue;
                }
            }
            let (expected, bound, higher_is_better) = metric(&report, case.metric, case.scenario.gpus as f64);
            let holds = bound.map(|b| if higher_is_better { b >= case.measured } else { b <= case.measured });
            rows.push(ValidationRow {
                index,
                kind: case.kind.into(),
                model: text(row, "model"),
                gpu: text(row, "gpu"),
                conditions: conditions(&case.scenario, case.note),
                unit: case.unit,
                measured: case.measured,
                expected,
                bound,
                error_pct: if case.measured != 0.0 {
                    (expected - case.measured) / case.measured * 100.0
                } else {
                    0.0
                },
                bound_holds: holds,
                source: text(row, "source"),
            });
        }
    }
    // Each kind once, sorted (an insertion into a sorted list: no String sort in the wasm).
    let mut kinds: Vec<String> = Vec::new();
    for r in &rows {
        if let Err(at) = kinds.binary_search(&r.kind) {
            kinds.insert(at, r.kind.clone());
        }
    }
    let summary = kinds
        .into_iter()
        .map(|k| {
            let of: Vec<&ValidationRow> = rows.iter().filter(|r| r.kind == k).collect();
            KindSummary {
                rows: of.len(),
                median_abs_error_pct: median(of.iter().map(|r| r.error_pct.abs()).collect()),
                bound_violations: of.iter().filter(|r| r.bound_holds == Some(false)).count(),
                kind: k,
            }
        })
        .collect();
    ValidationTable { rows, summary, not_expressed }
}

/// The table for the embedded measurements.
pub fn validation_table() -> ValidationTable {
    let file: Value =
        serde_json::from_str(include_str!("../catalog/data/measurements.json")).unwrap_or(Value::Null);
    validate_measurements(&file)
}
