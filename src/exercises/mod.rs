//! Exercises that check: every chapter's exercises as data, with keys computed by the engine.
//!
//! An exercise is a number or a choice. A number's key is never typed: it is a [`Calc`], an
//! engine computation (a `Scenario` and a path into its `Report`, or a named engine function
//! such as the roofline's attainable FLOP/s or a collective's time), scaled to the unit the
//! question asks for. The page computes the key with the same engine that the tests run
//! (`tests/exercises.rs` recomputes every key and every number in the worked solutions), so a
//! chapter cannot carry a wrong answer. A choice's key is typed and reviewed.
//!
//! Texts are data next to the computation, one file per chapter in `data/`, both languages side
//! by side. A chapter places an exercise with a line `{{exercise:ID}}` in its markdown (the
//! build checks that zh and en place the same ids in the same order). In a worked solution,
//! `{key}` is the key, `{r:PATH:SCALE:DECIMALS}` another number of the same scenario's report
//! and `{x:ID}` the key of another exercise, all filled from the engine when the page is drawn.

pub mod check;
mod data;
mod typed_number;
pub mod units;

use crate::engine::links::Link;
use crate::engine::perf::collectives::{collective_time, Algorithm, Collective};
use crate::engine::perf::report::PhaseReport;
use crate::engine::perf::roofline::BoundTime;
use crate::engine::perf::roofline::{attainable_flops, compute_time, gpu_ridge_point, memory_time};
use crate::engine::precision::compute::ComputeDtype;
use crate::engine::report::Report;
use crate::engine::Scenario;
use crate::i18n::Lang;
use serde_json::Value;

/// One language's words for an exercise.
#[derive(Debug)]
pub struct Text {
    pub question: &'static str,
    /// The unit shown next to the input (numbers); empty for choices.
    pub unit: &'static str,
    /// Labels of the options, in the order of [`Answer::Choice`]'s values (choices only).
    pub options: &'static [&'static str],
    /// Shown after a wrong try.
    pub hint: &'static str,
    /// The worked solution; `{key}`, `{r:PATH:SCALE:DECIMALS}` and `{x:ID}` are filled from the engine.
    pub solution: &'static str,
}

/// An engine computation that gives a number.
#[derive(Debug, Clone, Copy)]
pub enum Calc {
    /// The number at `path` (dots between keys, digits index arrays) in the report of a
    /// scenario (JSON, only the fields that differ from the defaults).
    Report { scenario: &'static str, path: &'static str },
    /// The ridge point of a catalog GPU (FLOP/byte), `engine::perf::roofline::gpu_ridge_point`.
    RidgePoint { gpu: &'static str, dtype: ComputeDtype },
    /// Attainable FLOP/s at an intensity on a catalog GPU's roofline,
    /// `engine::perf::roofline::attainable_flops`.
    Attainable { gpu: &'static str, dtype: ComputeDtype, intensity: f64 },
    /// Seconds to move `bytes` at a catalog GPU's peak memory bandwidth,
    /// `engine::perf::roofline::memory_time`.
    MemoryTime { gpu: &'static str, bytes: f64 },
    /// Seconds to run `flops` at a catalog GPU's dense peak for `dtype`,
    /// `engine::perf::roofline::compute_time`.
    ComputeTime { gpu: &'static str, dtype: ComputeDtype, flops: f64 },
    /// Time of a ring all-reduce of `bytes` over `ranks` at a measured bus bandwidth (no
    /// latency), `engine::perf::collectives::collective_time` with efficiency 1.
    AllReduce { bytes: f64, ranks: u32, bus_bytes_per_s: f64 },
}

/// What a correct answer is.
#[derive(Debug, Clone, Copy)]
pub enum Answer {
    /// `calc × scale`, shown with `decimals`; an answer within `tolerance` (relative) is right.
    Number { calc: Calc, scale: f64, decimals: usize, tolerance: f64 },
    /// The values of the options, and the right one (typed and reviewed).
    Choice { values: &'static [&'static str], key: &'static str },
}

/// One exercise.
#[derive(Debug)]
pub struct Exercise {
    /// Stable id, unique across the site (links and saved progress use it).
    pub id: &'static str,
    pub answer: Answer,
    pub zh: Text,
    pub en: Text,
}

impl Exercise {
    pub fn text(&self, lang: Lang) -> &Text {
        match lang {
            Lang::Zh => &self.zh,
            Lang::En => &self.en,
        }
    }

    /// The scenario the worked solution opens in the estimator: the key's own scenario, or for
    /// a key computed on one catalog GPU (roofline, memory or compute time) the default model on
    /// that GPU, whose roofline and bound views show the same peaks. `None` for the rest.
    pub fn scenario(&self) -> Option<Scenario> {
        let Answer::Number { calc, .. } = self.answer else { return None };
        match calc {
            Calc::Report { scenario, .. } => parse_scenario(scenario).ok(),
            Calc::RidgePoint { gpu, .. }
            | Calc::Attainable { gpu, .. }
            | Calc::MemoryTime { gpu, .. }
            | Calc::ComputeTime { gpu, .. } => {
                let mut s = crate::estimator::state::default_scenario();
                s.gpu = crate::engine::hardware::GpuSpec::Id(gpu.to_string());
                Some(s)
            }
            Calc::AllReduce { .. } => None,
        }
    }

    /// The key as a number in the question's unit (numbers only).
    pub fn key_value(&self) -> Result<f64, String> {
        match self.answer {
            Answer::Number { calc, scale, .. } => Ok(compute(&calc)? * scale),
            Answer::Choice { .. } => Err(format!("{}: a choice has no numeric key", self.id)),
        }
    }

    /// The key as a reader would type it: the number with the stated decimals, or the
    /// choice's value.
    /// The key as its card and worked solution show it: a number with `,` between thousands.
    pub fn key_text_grouped(&self) -> Result<String, String> {
        match self.answer {
            Answer::Number { decimals, .. } => Ok(format_number(self.key_value()?, decimals, true)),
            Answer::Choice { key, .. } => Ok(key.to_string()),
        }
    }

    pub fn key_text(&self) -> Result<String, String> {
        match self.answer {
            Answer::Number { decimals, .. } => Ok(format_number(self.key_value()?, decimals, false)),
            Answer::Choice { key, .. } => Ok(key.to_string()),
        }
    }

    /// Whether `input` is a right answer. Numbers accept spaces, `,` and `_` as digit
    /// separators and are right within the stated relative tolerance of the key.
    pub fn is_right(&self, input: &str) -> bool {
        match self.answer {
            Answer::Number { tolerance, .. } => {
                self.key_value().is_ok_and(|key| check::number_is_right(input, key, tolerance))
            }
            Answer::Choice { key, .. } => input == key,
        }
    }

    /// The worked solution in `lang` with its engine numbers filled in.
    pub fn solution(&self, lang: Lang) -> Result<String, String> {
        fill(self, self.text(lang).solution)
    }
}

/// The link that opens the exercise's scenario in the estimator (`Exercise::scenario`), in the
/// site's hash form, or `None` for an exercise without one.
pub fn estimator_href(lang: Lang, ex: &Exercise) -> Option<String> {
    use crate::estimator::state::{encode, EstimatorState};
    let state = EstimatorState { scenario: ex.scenario()?, ..EstimatorState::default() };
    Some(format!("{}?{}", crate::route::Route::Estimate(lang).to_hash(), encode(&state)))
}

/// Every exercise of the chapter `slug`, in the order the chapter places them.
pub fn for_chapter(slug: &str) -> &'static [Exercise] {
    data::CHAPTERS.iter().find(|(s, _)| *s == slug).map(|(_, list)| *list).unwrap_or(&[])
}

/// The chapter slugs that have exercises, with their exercises.
pub fn all() -> &'static [(&'static str, &'static [Exercise])] {
    data::CHAPTERS
}

pub fn find(id: &str) -> Option<&'static Exercise> {
    data::CHAPTERS.iter().flat_map(|(_, list)| list.iter()).find(|e| e.id == id)
}

/// A scenario from its JSON; a MIG slice named by its id (`a100-sxm-80gb/mig-1g.10gb`) becomes the
/// slice the estimator's MIG presets open at (`estimator::mig_slice`).
pub fn parse_scenario(json: &str) -> Result<Scenario, String> {
    let v: Value = serde_json::from_str(json).map_err(|e| format!("scenario JSON: {e}"))?;
    let mut s = Scenario::from_json(&v).map_err(|e| format!("scenario: {e}"))?;
    if let crate::engine::hardware::GpuSpec::Id(id) = &s.gpu {
        if let Some(g) = crate::estimator::mig_slice::slice_by_id(id) {
            s.gpu = crate::engine::hardware::GpuSpec::Custom(Box::new(g));
        }
    }
    Ok(s)
}

/// The number at a dotted `path` of a report, the same number as at that path of the report's
/// JSON (`gpu-primer estimate`; a test checks every path against it). Read field by field
/// rather than through `serde_json::to_value`, which would put the whole report's
/// serialisation into the site's wasm for a dozen paths. Covered: `params`,
/// `kv_cache_bytes_per_token`, `memory_per_gpu_bytes`, `gpu_memory_bytes`,
/// `usable_gpu_memory_bytes`, `layout`, `solvers`, `hardware`, `workload`, `time`,
/// `throughput`, `bound_ratio`, `phases.{prefill,decode,training}` with their `bound` and
/// `expected` terms, and `load` with its `disaggregated` section (not its `curve`). `None` for any
/// other path, a null or a non-finite number. The site's wasm has only this accessor (`json_value`
/// is native), so every exercise's key and solution must read through it (a test checks).
pub fn report_value(r: &Report, path: &str) -> Option<f64> {
    let (head, rest) = path.split_once('.').unwrap_or((path, ""));
    let n = |v: u64| Some(v as f64);
    let f = |v: f64| v.is_finite().then_some(v);
    let o = |v: Option<f64>| v.and_then(f);
    let p = &r.performance;
    match (head, rest) {
        ("params", k) => {
            let q = &r.params;
            n(match k {
                "total" => q.total,
                "active" => q.active,
                "trainable" => q.trainable,
                "embedding" => q.embedding,
                "lm_head" => q.lm_head,
                "attention" => q.attention,
                "mlp" => q.mlp,
                "experts" => q.experts,
                "other" => q.other,
                "drafter" => q.drafter,
                _ => return None,
            })
        }
        ("kv_cache_bytes_per_token", "") => n(r.kv_cache_bytes_per_token),
        ("recurrent_state_bytes_per_sequence", "") => n(r.recurrent_state_bytes_per_sequence),
        ("memory_per_gpu_bytes", k) => {
            let m = &r.memory_per_gpu_bytes;
            n(match k {
                "weights" => m.weights,
                "kv_cache" => m.kv_cache,
                "activations" => m.activations,
                "logits" => m.logits,
                "gradients" => m.gradients,
                "optimizer" => m.optimizer,
                "overhead" => m.overhead,
                "total" => m.total,
                "recurrent_state" => m.recurrent_state,
                "fp8_weight_cache" => m.fp8_weight_cache,
                "fsdp_buffers" => m.fsdp_buffers,
                "allocator_reserve" => m.allocator_reserve,
                _ => return None,
            })
        }
        ("gpu_memory_bytes", "") => n(r.gpu_memory_bytes),
        ("gpu_budget_bytes", "") => n(r.gpu_budget_bytes),
        ("host_memory_bytes", "") => n(r.host_memory_bytes),
        ("offload", k) => {
            let o = r.offload.as_ref()?;
            match k {
                "gpu_layers" => n(o.gpu_layers),
                "layers" => n(o.layers),
                "first_gpu_layer" => n(o.first_gpu_layer),
                "n_cpu_moe" => n(o.n_cpu_moe),
                "host_weights_bytes" => n(o.host_weights_bytes),
                "host_kv_cache_bytes" => n(o.host_kv_cache_bytes),
                "host_recurrent_state_bytes" => n(o.host_recurrent_state_bytes),
                "host_available_bytes" => o.host_available_bytes.and_then(n),
                _ => None,
            }
        }
        ("usable_gpu_memory_bytes", "") => n(r.usable_gpu_memory_bytes),
        ("layout", k) => {
            let l = &r.layout;
            n(match k {
                "gpus" => l.gpus,
                "tensor_parallel" => l.tensor_parallel,
                "pipeline_parallel" => l.pipeline_parallel,
                "data_parallel" => l.data_parallel,
                "context_parallel" => l.context_parallel,
                "heaviest_stage" => l.heaviest_stage,
                "expert_parallel" => l.expert_parallel,
                "experts_per_gpu" => l.experts_per_gpu,
                "expert_tensor_parallel" => l.expert_tensor_parallel,
                "redundant_experts" => l.redundant_experts,
                _ => return None,
            })
        }
        ("solvers", k) => {
            let s = &r.solvers;
            let g = s.min_gpus.as_ref();
            match k {
                "max_context_tokens" => s.max_context_tokens,
                "max_batch" => s.max_batch,
                "min_gpus.gpus" => g.map(|g| g.gpus),
                "min_gpus.tensor_parallel" => g.map(|g| g.tensor_parallel),
                "min_gpus.pipeline_parallel" => g.map(|g| g.pipeline_parallel),
                "min_gpus.data_parallel" => g.map(|g| g.data_parallel),
                "max_gpu_layers" => s.max_gpu_layers,
                "min_cpu_moe" => s.min_cpu_moe,
                _ => None,
            }
            .and_then(n)
        }
        ("hardware", k) => {
            let h = &p.hardware;
            match k {
                "memory_bandwidth_bytes_per_s" => f(h.memory_bandwidth_bytes_per_s),
                "peak_flops_per_s" => f(h.peak_flops_per_s),
                "path.peak_flops_per_s" => f(h.path.peak_flops_per_s),
                "gpus_per_node" => n(u64::from(h.gpus_per_node)),
                "intra_node_bytes_per_s_per_direction" => f(h.intra_node_bytes_per_s_per_direction),
                "intra_node_latency_s" => f(h.intra_node_latency_s),
                "inter_node_bytes_per_s_per_direction" => o(h.inter_node_bytes_per_s_per_direction),
                "inter_node_latency_s" => o(h.inter_node_latency_s),
                "host_memory_bandwidth_bytes_per_s" => f(h.host_memory_bandwidth_bytes_per_s),
                "pcie_bytes_per_s_per_direction" => o(h.pcie_bytes_per_s_per_direction),
                _ => None,
            }
        }
        ("workload", k) => {
            let w = &p.workload;
            match k {
                "prompt_tokens" => n(w.prompt_tokens),
                "output_tokens" => n(w.output_tokens),
                "decode_context_tokens" => f(w.decode_context_tokens),
                "concurrency" => n(w.concurrency),
                "micro_batches" => n(w.micro_batches),
                "expert_parallel" => n(w.expert_parallel),
                _ => None,
            }
        }
        ("time", k) => {
            let t = &p.time;
            match k {
                "prefill_s" => f(t.prefill_s),
                "prefill_s_bound" => f(t.prefill_s_bound),
                "decode_step_s" => f(t.decode_step_s),
                "decode_step_s_bound" => f(t.decode_step_s_bound),
                "step_s" => o(t.step_s),
                "step_s_bound" => o(t.step_s_bound),
                "time_to_first_token_s" => f(t.time_to_first_token_s),
                "time_per_output_token_s" => f(t.time_per_output_token_s),
                "generation_s" => f(t.generation_s),
                "generation_s_bound" => f(t.generation_s_bound),
                "prefix_cached_tokens" => n(t.prefix_cached_tokens),
                "prefix_hit_rate" => f(t.prefix_hit_rate),
                _ => tier_value(t.kv_tiers.as_ref()?, k.strip_prefix("kv_tiers.")?),
            }
        }
        ("speculative", k) => {
            let sp = p.speculative.as_ref()?;
            let t = &sp.times;
            match k {
                "draft_tokens" => n(sp.draft_tokens),
                "expected_tokens_per_step" => f(sp.expected_tokens_per_step),
                "acceptance_rate" => o(sp.acceptance_rate),
                "times.verify_s" => f(t.verify_s),
                "times.verify_s_bound" => f(t.verify_s_bound),
                "times.draft_s" => f(t.draft_s),
                "times.draft_gpu_s" => f(t.draft_gpu_s),
                "times.draft_host_s" => f(t.draft_host_s),
                "times.draft_s_bound" => f(t.draft_s_bound),
                "times.decode_s" => f(t.decode_s),
                "times.decode_s_bound" => f(t.decode_s_bound),
                "step_s" => f(sp.step_s),
                "step_s_bound" => f(sp.step_s_bound),
                "time_per_output_token_s" => f(sp.time_per_output_token_s),
                "time_per_output_token_s_bound" => f(sp.time_per_output_token_s_bound),
                "time_per_output_token_s_without" => f(sp.time_per_output_token_s_without),
                "speedup" => f(sp.speedup),
                "drafter_params" => n(sp.drafter_params),
                "drafter_weight_bytes_per_gpu" => n(sp.drafter_weight_bytes_per_gpu),
                "drafter_kv_bytes_per_gpu" => n(sp.drafter_kv_bytes_per_gpu),
                "crossover_batch" => sp.crossover_batch.and_then(n),
                _ => {
                    let (i, field) = k.strip_prefix("by_batch.")?.split_once('.')?;
                    let b = sp.by_batch.get(i.parse::<usize>().ok()?)?;
                    match field {
                        "batch" => n(b.batch),
                        "per_user_tokens_per_s" => f(b.per_user_tokens_per_s),
                        "per_user_tokens_per_s_without" => f(b.per_user_tokens_per_s_without),
                        "per_gpu_tokens_per_s" => f(b.per_gpu_tokens_per_s),
                        "per_gpu_tokens_per_s_without" => f(b.per_gpu_tokens_per_s_without),
                        _ => None,
                    }
                }
            }
        }
        ("throughput", k) => {
            let t = &p.throughput;
            match k {
                "decode_tokens_per_s" => f(t.decode_tokens_per_s),
                "decode_tokens_per_s_bound" => f(t.decode_tokens_per_s_bound),
                "prefill_tokens_per_s" => f(t.prefill_tokens_per_s),
                "prefill_tokens_per_s_bound" => f(t.prefill_tokens_per_s_bound),
                "per_user_tokens_per_s" => f(t.per_user_tokens_per_s),
                "per_user_tokens_per_s_bound" => f(t.per_user_tokens_per_s_bound),
                "generation_tokens_per_s" => f(t.generation_tokens_per_s),
                "generation_tokens_per_s_bound" => f(t.generation_tokens_per_s_bound),
                "tokens_per_s" => o(t.tokens_per_s),
                "tokens_per_s_bound" => o(t.tokens_per_s_bound),
                _ => None,
            }
        }
        ("bound_ratio", "") => o(p.bound_ratio),
        ("load", k) => {
            let l = r.load.as_ref()?;
            if let Some(k) = k.strip_prefix("disaggregated.") {
                return disaggregated_value(l.disaggregated.as_ref()?, k);
            }
            match k {
                "concurrent_users" => l.concurrent_users.and_then(n),
                "arrival_rate_per_s" => f(l.arrival_rate_per_s),
                "max_sustainable_rate_per_s" => f(l.max_sustainable_rate_per_s),
                "mean_concurrency" => o(l.mean_concurrency),
                "utilization" => f(l.utilization),
                "busy_fraction" => o(l.busy_fraction),
                "throughput_tokens_per_s" => f(l.throughput_tokens_per_s),
                "run_output_tokens_per_s" => o(l.run_output_tokens_per_s),
                "throughput_bound_tokens_per_s" => f(l.throughput_bound_tokens_per_s),
                "ttft_p50_s" => o(l.ttft_p50_s),
                "ttft_p90_s" => o(l.ttft_p90_s),
                "ttft_p95_s" => o(l.ttft_p95_s),
                "ttft_p99_s" => o(l.ttft_p99_s),
                "ttft_mean_s" => o(l.ttft_mean_s),
                "tpot_p50_s" => o(l.tpot_p50_s),
                "tpot_p90_s" => o(l.tpot_p90_s),
                "tpot_p95_s" => o(l.tpot_p95_s),
                "tpot_p99_s" => o(l.tpot_p99_s),
                "itl_p50_s" => o(l.itl_p50_s),
                "itl_p90_s" => o(l.itl_p90_s),
                "itl_p99_s" => o(l.itl_p99_s),
                "itl_mean_s" => o(l.itl_mean_s),
                "mean_time_in_system_s" => o(l.mean_time_in_system_s),
                "max_seqs" => n(l.max_seqs),
                "kv_limit_seqs" => l.kv_limit_seqs.and_then(n),
                "step_token_budget" => n(l.step_token_budget),
                "replicas" => n(l.replicas),
                "decode_step_s" => f(l.decode_step_s),
                "mixed_step_s" => f(l.mixed_step_s),
                "mixed_chunk_tokens" => n(l.mixed_chunk_tokens),
                "saturated_step_s" => f(l.saturated_step_s),
                "requests_simulated" => n(l.requests_simulated),
                "warmup_requests" => n(l.warmup_requests),
                "seed" => n(l.seed),
                "first_token_fixed_s" => f(l.first_token_fixed_s),
                _ => None,
            }
        }
        ("phases", k) => {
            let (phase, field) = k.split_once('.')?;
            let ph = match phase {
                "prefill" => &p.phases.prefill,
                "decode" => &p.phases.decode,
                "training" => p.phases.training.as_ref()?,
                _ => return None,
            };
            phase_value(ph, field)
        }
        _ => None,
    }
}

/// A number of the KV cache tiers' section (`report_value`'s `time.kv_tiers.` paths; a tier's
/// `restored` is a yes or no, not a number).
fn tier_value(t: &crate::engine::perf::kv_tiers::KvTierReport, k: &str) -> Option<f64> {
    let tier = |u: Option<&crate::engine::perf::kv_tiers::TierUse>, field: &str| {
        let u = u?;
        match field {
            "capacity_bytes" => Some(u.capacity_bytes),
            "bytes_per_s" => Some(u.bytes_per_s),
            "read_share" => Some(u.read_share),
            "per_copy_s" => Some(u.per_copy_s),
            "share" => Some(u.share),
            "restore_s" => Some(u.restore_s),
            _ => None,
        }
    };
    let v = match k {
        "sessions" => t.sessions as f64,
        "working_set_bytes" => t.working_set_bytes,
        "gpu_room_bytes" => t.gpu_room_bytes,
        "gpu_share" => t.gpu_share,
        "recomputed_share" => t.recomputed_share,
        "history_tokens" => t.history_tokens as f64,
        "history_bytes" => t.history_bytes,
        "copies" => t.copies,
        "recompute_s" => t.recompute_s,
        "kept_history_tokens" => t.kept_history_tokens,
        "restore_s" => t.restore_s,
        _ => match k.split_once('.') {
            Some(("cpu", field)) => tier(t.cpu.as_ref(), field)?,
            Some(("ssd", field)) => tier(t.ssd.as_ref(), field)?,
            _ => return None,
        },
    };
    v.is_finite().then_some(v)
}

/// A number of a disaggregated deployment's section (`report_value`'s `load.disaggregated.`
/// paths).
fn disaggregated_value(d: &crate::engine::perf::load::disagg::DisaggregatedReport, k: &str) -> Option<f64> {
    let n = |v: u64| Some(v as f64);
    let f = |v: f64| v.is_finite().then_some(v);
    let o = |v: Option<f64>| v.and_then(f);
    match k {
        "prefill_workers" => n(d.prefill_workers),
        "prefill_tensor_parallel" => n(d.prefill_tensor_parallel),
        "prefill_gpus" => n(d.prefill_gpus),
        "decode_gpus" => n(d.decode_gpus),
        "total_gpus" => n(d.total_gpus),
        "link_bytes_per_s" => f(d.link_bytes_per_s),
        "link_efficiency" => f(d.link_efficiency),
        "link_latency_s" => f(d.link_latency_s),
        "transfer_bytes" => n(d.transfer_bytes),
        "transfer_s" => f(d.transfer_s),
        "prefill_max_seqs" => n(d.prefill_max_seqs),
        "prefill_alone_s" => f(d.prefill_alone_s),
        "prefill_max_rate_per_s" => f(d.prefill_max_rate_per_s),
        "decode_max_rate_per_s" => f(d.decode_max_rate_per_s),
        "prefill_p50_s" => o(d.prefill_p50_s),
        "prefill_p99_s" => o(d.prefill_p99_s),
        _ => None,
    }
}

/// A number of one phase of the report (`report_value`'s `phases.NAME.` paths).
fn phase_value(ph: &PhaseReport, field: &str) -> Option<f64> {
    let (head, rest) = field.split_once('.').unwrap_or((field, ""));
    let f = |v: f64| v.is_finite().then_some(v);
    let term = |b: &BoundTime| match rest {
        "compute_s" => f(b.compute_s),
        "memory_s" => f(b.memory_s),
        "communication_s" => f(b.communication_s),
        "overhead_s" => f(b.overhead_s),
        "host_s" => f(b.host_s),
        "total_s" => f(b.total_s),
        "dominance_ratio" => b.dominance_ratio.and_then(f),
        _ => None,
    };
    match (head, rest) {
        ("path", "peak_flops_per_s") => f(ph.path.peak_flops_per_s),
        ("bound", _) => term(&ph.bound),
        ("expected", _) => term(&ph.expected),
        (_, "") => f(match head {
            "flops" => ph.flops,
            "bytes" => ph.bytes,
            "expected_bytes" => ph.expected_bytes,
            "tokens" => ph.tokens,
            "arithmetic_intensity" => ph.arithmetic_intensity,
            "ridge_point" => ph.ridge_point,
            "dominance_ratio" => return ph.dominance_ratio.and_then(f),
            "time_s" => ph.time_s,
            "time_s_bound" => ph.time_s_bound,
            "tokens_per_s" => ph.tokens_per_s,
            "tokens_per_s_bound" => ph.tokens_per_s_bound,
            "tensor_parallel_comm_s" => ph.tensor_parallel_comm_s,
            "expert_parallel_comm_s" => ph.expert_parallel_comm_s,
            "data_parallel_sync_s" => ph.data_parallel_sync_s,
            "data_parallel_exposed_s" => ph.data_parallel_exposed_s,
            "pipeline_bubble_fraction" => ph.pipeline_bubble_fraction,
            "cpu_exposed_s" => ph.cpu_exposed_s,
            _ => return None,
        }),
        ("moe", _) => moe_value(ph.moe.as_ref()?, rest),
        ("tp_all_reduce", _) => tp_value(ph.tp_all_reduce.as_ref()?, rest),
        _ => None,
    }
}

/// A number of one MoE layer's dispatch and combine (`phases.NAME.moe.exchange.` paths).
fn exchange_value(x: &crate::engine::perf::moe::EpExchange, field: &str) -> Option<f64> {
    let v = match field {
        "tokens" => x.tokens,
        "destinations" => x.destinations,
        "dispatch_bytes" => x.dispatch_bytes,
        "combine_bytes" => x.combine_bytes,
        "dispatch_rate" => x.dispatch_rate,
        "combine_rate" => x.combine_rate,
        "per_layer_s" => x.per_layer_s,
        "forward_s" => x.forward_s,
        "bound_s" => x.bound_s,
        _ => return None,
    };
    v.is_finite().then_some(v)
}

/// A number of a phase's tensor-parallel all-reduce (`phases.NAME.tp_all_reduce.` paths).
fn tp_value(a: &crate::engine::perf::timing::TpAllReduce, field: &str) -> Option<f64> {
    let v = match field {
        "bytes" => a.bytes,
        "ranks" => f64::from(a.ranks),
        "node.alpha_s" => a.node.alpha_s,
        "node.beta_bytes_per_s" => a.node.beta_bytes_per_s,
        "node.share" => a.node.share,
        "nic.alpha_s" => a.nic?.alpha_s,
        "nic.beta_bytes_per_s" => a.nic?.beta_bytes_per_s,
        "nic.share" => a.nic?.share,
        "gpus_per_node" => f64::from(a.gpus_per_node),
        "per_call_s" => a.per_call_s,
        "calls" => a.calls,
        _ => return None,
    };
    v.is_finite().then_some(v)
}

/// A number of a phase's routed experts (`phases.NAME.moe.` paths).
fn moe_value(m: &crate::engine::perf::timing::MoeTiming, field: &str) -> Option<f64> {
    let l = &m.layer;
    let v = match field {
        "layers" => m.layers,
        "grouped_gemm_s" => m.grouped_gemm_s,
        "fixed_s" => m.fixed_s,
        "layer.tokens" => l.tokens,
        "layer.pairs" => l.pairs,
        "layer.touched" => l.touched,
        "layer.tokens_per_expert" => l.tokens_per_expert,
        "layer.weight_bytes" => l.weight_bytes,
        "layer.flops" => l.flops,
        "layer.padded_flops" => l.padded_flops,
        "layer.memory_s" => l.memory_s,
        "layer.busiest_memory_s" => l.busiest_memory_s,
        "layer.compute_s" => l.compute_s,
        "layer.fixed_s" => l.fixed_s,
        "layer.imbalance" => l.imbalance,
        "layer.expected_s" => l.expected_s,
        "layer.bound_bytes" => l.bound_bytes,
        _ => return exchange_value(m.exchange.as_ref()?, field.strip_prefix("exchange.")?),
    };
    v.is_finite().then_some(v)
}

fn report_number(scenario: &str, path: &str) -> Result<f64, String> {
    let s = parse_scenario(scenario)?;
    let report = crate::catalog::evaluate(&s).map_err(|e| format!("engine: {e}"))?;
    report_value(&report, path)
        .or_else(|| json_value(&report, path))
        .ok_or_else(|| format!("report has no number at '{path}'"))
}

/// Any number of the report as `gpu-primer estimate` prints it, natively (where the page's
/// numbers are computed at build time): the paths `report_value` does not type.
#[cfg(not(target_arch = "wasm32"))]
fn json_value(report: &Report, path: &str) -> Option<f64> {
    let json = serde_json::to_value(report).ok()?;
    let v = path.split('.').try_fold(&json, |v, key| match key.parse::<usize>() {
        Ok(i) if v.is_array() => v.get(i),
        _ => v.get(key),
    })?;
    v.as_f64().filter(|x| x.is_finite())
}

#[cfg(target_arch = "wasm32")]
fn json_value(_report: &Report, _path: &str) -> Option<f64> {
    None
}

fn catalog_gpu(id: &str) -> Result<&'static crate::engine::gpu::Gpu, String> {
    crate::catalog::gpus::find(id).ok_or_else(|| format!("no GPU '{id}' in the catalog"))
}

/// Runs an engine computation.
pub fn compute(calc: &Calc) -> Result<f64, String> {
    match *calc {
        Calc::Report { scenario, path } => report_number(scenario, path),
        Calc::RidgePoint { gpu, dtype } => gpu_ridge_point(catalog_gpu(gpu)?, dtype)
            .map(|r| r.flop_per_byte)
            .ok_or_else(|| format!("{gpu} has no {dtype:?} peak")),
        Calc::Attainable { gpu, dtype, intensity } => {
            let g = catalog_gpu(gpu)?;
            let path = g.compute_path(dtype).ok_or_else(|| format!("{gpu} has no {dtype:?} peak"))?;
            attainable_flops(intensity, path.peak_flops_per_s, g.memory_bandwidth_bytes_per_s)
                .map_err(|e| format!("{e:?}"))
        }
        Calc::MemoryTime { gpu, bytes } => {
            memory_time(bytes, catalog_gpu(gpu)?.memory_bandwidth_bytes_per_s).map_err(|e| format!("{e:?}"))
        }
        Calc::ComputeTime { gpu, dtype, flops } => {
            let path = catalog_gpu(gpu)?
                .compute_path(dtype)
                .ok_or_else(|| format!("{gpu} has no {dtype:?} peak"))?;
            compute_time(flops, path.peak_flops_per_s).map_err(|e| format!("{e:?}"))
        }
        Calc::AllReduce { bytes, ranks, bus_bytes_per_s } => {
            let link = Link { bytes_per_s_per_direction: bus_bytes_per_s, latency_s: 0.0 };
            collective_time(Collective::AllReduce, Algorithm::Ring, bytes, ranks, &link, 1.0)
                .map_err(|e| format!("{e:?}"))
        }
    }
}

/// Fills `{key}`, `{r:PATH:SCALE:DECIMALS}` and `{x:ID}` in a solution text.
fn fill(ex: &Exercise, template: &str) -> Result<String, String> {
    let mut out = String::new();
    let mut rest = template;
    while let Some(start) = rest.find('{') {
        out.push_str(&rest[..start]);
        let after = &rest[start + 1..];
        let end = after.find('}').ok_or_else(|| format!("{}: unclosed '{{' in solution", ex.id))?;
        let field = &after[..end];
        out.push_str(&fill_field(ex, field)?);
        rest = &after[end + 1..];
    }
    out.push_str(rest);
    Ok(out)
}

fn fill_field(ex: &Exercise, field: &str) -> Result<String, String> {
    if field == "key" {
        return match ex.answer {
            Answer::Number { decimals, .. } => Ok(format_number(ex.key_value()?, decimals, true)),
            Answer::Choice { .. } => Err(format!("{}: {{key}} in a choice's solution", ex.id)),
        };
    }
    if let Some(other) = field.strip_prefix("x:") {
        let o = find(other).ok_or_else(|| format!("{}: '{{{field}}}' names no exercise", ex.id))?;
        return match o.answer {
            Answer::Number { decimals, .. } => Ok(format_number(o.key_value()?, decimals, true)),
            Answer::Choice { .. } => Err(format!("{}: '{{{field}}}' names a choice", ex.id)),
        };
    }
    let spec = field.strip_prefix("r:").ok_or_else(|| format!("{}: unknown field '{{{field}}}'", ex.id))?;
    let mut parts = spec.split(':');
    let (Some(path), Some(scale), Some(decimals), None) =
        (parts.next(), parts.next(), parts.next(), parts.next())
    else {
        return Err(format!("{}: '{{{field}}}' is not r:PATH:SCALE:DECIMALS", ex.id));
    };
    let scale: f64 = scale.parse().map_err(|_| format!("{}: bad scale in '{{{field}}}'", ex.id))?;
    let decimals: usize =
        decimals.parse().map_err(|_| format!("{}: bad decimals in '{{{field}}}'", ex.id))?;
    let Answer::Number { calc: Calc::Report { scenario, .. }, .. } = ex.answer else {
        return Err(format!("{}: '{{{field}}}' needs a report-based key", ex.id));
    };
    Ok(format_number(report_number(scenario, path)? * scale, decimals, true))
}

/// An exercise card, as the chapter page carries it: `<section data-exercise=ID>` with the key
/// as a reader would type it (`data-answer`) and what the page checks an answer against
/// (`data-key`, and `data-tolerance` for a number: see [`check`]), the title with its number and
/// `link`, the question, the answer input (a number) or options (a choice), a box to write the
/// answer in (`answer-space`: shown on paper only, by the print rules), the Check button and
/// verdict the app drives (`needs-js`: not offered without scripts), the hint it shows after a
/// wrong try, and the worked solution in a `<details>` that opens without any script, with a
/// link to the estimator on the exercise's scenario (`estimator`, when it has one). Every text
/// escaped.
pub fn card_html(lang: Lang, ex: &Exercise, number: usize, link: &str, estimator: Option<&str>) -> String {
    use crate::html::escape as esc;
    let x = lang.ex();
    let t = ex.text(lang);
    let (answer, key) = match ex.answer {
        Answer::Number { tolerance, .. } => (
            format!(
                "<label class=\"exercise-answer\"><span>{}</span><input type=\"text\" inputmode=\"decimal\" \
                 autocomplete=\"off\" data-role=\"answer\"><span class=\"exercise-unit\">{}</span><span \
                 class=\"exercise-tolerance\">{}</span></label>",
                esc(x.answer_label),
                esc(t.unit),
                esc(&(x.tolerance)(tolerance))
            ),
            format!(
                " data-key=\"{:?}\" data-tolerance=\"{tolerance:?}\" data-unit=\"{}\"",
                ex.key_value().unwrap_or(f64::NAN),
                esc(t.unit)
            ),
        ),
        Answer::Choice { values, key } => {
            let options: String = values
                .iter()
                .zip(t.options.iter())
                .map(|(value, label)| {
                    format!(
                        "<label class=\"exercise-option\"><input type=\"radio\" name=\"exercise-{}\" value=\"{}\"><span>{}</span></label>",
                        esc(ex.id),
                        esc(value),
                        esc(label)
                    )
                })
                .collect();
            (
                format!(
                    "<fieldset class=\"exercise-options\"><legend>{}</legend>{options}</fieldset>",
                    esc(x.answer_label)
                ),
                format!(" data-key=\"{}\"", esc(key)),
            )
        }
    };
    let open = estimator
        .map(|href| {
            format!(
                "<p><a class=\"exercise-open\" href=\"{}\">{} →</a></p>",
                esc(href),
                esc(x.open_estimator)
            )
        })
        .unwrap_or_default();
    format!(
        "<section class=\"exercise\" tabindex=\"-1\" id=\"exercise-{id}\" data-exercise=\"{id}\" data-answer=\"{}\"{key}>\
         <h3 class=\"exercise-title\">{} {number}<a class=\"exercise-link\" href=\"{}\" title=\"{link_label}\" \
         aria-label=\"{link_label}\">#</a></h3><p class=\"exercise-question\">{}</p>{answer}<div class=\"answer-space\" aria-hidden=\"true\">\
         <span>{}</span><span>{}</span></div><div class=\"exercise-actions needs-js\">\
         <button type=\"button\" class=\"exercise-check\">{}</button>\
         <span class=\"exercise-verdict\" role=\"status\" aria-live=\"polite\"></span></div><p class=\"exercise-hint\" hidden>\
         <strong>{}</strong>{}</p><details class=\"exercise-solution\"><summary>{}</summary><p>{}</p>{open}</details></section>",
        esc(&ex.key_text().unwrap_or_default()),
        esc(x.exercise),
        esc(link),
        esc(t.question),
        esc(lang.embeds().answer_here.trim_end()),
        esc(if matches!(ex.answer, Answer::Number { .. }) { t.unit } else { "" }),
        esc(x.check),
        esc(x.hint),
        esc(t.hint),
        esc(x.show_solution),
        esc(&ex.solution(lang).unwrap_or_default()),
        id = esc(ex.id),
        link_label = esc(x.link),
    )
}

/// The chapter's progress line (above its first exercise): the count and reset button the app
/// keeps (from what this browser saved), and the links to the chapter's worksheet and answer
/// key (`chapter`: the chapter's route).
pub fn progress_html(lang: Lang, chapter: &crate::route::Route, total: usize) -> String {
    use crate::html::escape as esc;
    use crate::route::{Route, Sheet};
    let x = lang.ex();
    let sheet = |s: Sheet| match chapter {
        Route::Chapter(l, slug) => Route::Sheet(*l, slug, s).to_hash(),
        other => other.to_hash(),
    };
    format!(
        "<div class=\"exercise-progress\" data-total=\"{total}\"><span class=\"exercise-progress-count needs-js\">{}</span>\
         <button type=\"button\" class=\"exercise-reset needs-js\">{}</button>\
         <a class=\"exercise-print\" href=\"{}\">{}</a><a class=\"exercise-print\" href=\"{}\">{}</a></div>",
        esc(&(x.progress)(0, total)),
        esc(x.reset),
        sheet(Sheet::Worksheet),
        esc(x.worksheet),
        sheet(Sheet::Answers),
        esc(x.answer_key),
    )
}

/// A chapter's exercises as the items of a printable worksheet (`answers = false`: questions,
/// options and blanks) or of its answer key (the key and the worked solution under each), as
/// `<li class="worksheet-item">` HTML. Built as a string rather than as components: the page
/// is static, and a string keeps the wasm small. Every text is escaped.
pub fn worksheet_items_html(lang: Lang, slug: &str, answers: bool) -> String {
    use crate::html::escape as esc;
    let x = lang.ex();
    let mut out = String::new();
    for ex in for_chapter(slug) {
        let t = ex.text(lang);
        out.push_str(&format!(
            "<li class=\"worksheet-item\" data-exercise=\"{}\"><p>{}</p><ul class=\"worksheet-options\">",
            esc(ex.id),
            esc(t.question)
        ));
        for o in t.options {
            out.push_str(&format!("<li>☐ {}</li>", esc(o)));
        }
        out.push_str("</ul>");
        let number = matches!(ex.answer, Answer::Number { .. });
        if !answers && number {
            out.push_str(&format!("<p class=\"worksheet-blank\">________ {}</p>", esc(t.unit)));
        }
        if answers {
            let key = match ex.answer {
                Answer::Number { decimals, .. } => ex
                    .key_value()
                    .map(|v| format!("{} {}", format_number(v, decimals, true), t.unit))
                    .unwrap_or_default(),
                Answer::Choice { values, key } => values
                    .iter()
                    .position(|v| *v == key)
                    .and_then(|i| t.options.get(i))
                    .map(|s| s.to_string())
                    .unwrap_or_default(),
            };
            out.push_str(&format!(
                "<p class=\"worksheet-key\" data-answer=\"{}\"><strong>{}</strong>{}</p><p class=\"worksheet-solution\">{}</p>",
                esc(&ex.key_text().unwrap_or_default()),
                esc(x.key),
                esc(&key),
                esc(&ex.solution(lang).unwrap_or_default())
            ));
        }
        out.push_str("</li>");
    }
    out
}

/// `v` with `decimals` decimals; `group` puts a `,` between thousands.
pub fn format_number(v: f64, decimals: usize, group: bool) -> String {
    let s = format!("{v:.decimals$}");
    if !group {
        return s;
    }
    let (sign, s) = s.strip_prefix('-').map_or(("", s.as_str()), |r| ("-", r));
    let (int, frac) = s.split_once('.').map_or((s, None), |(i, f)| (i, Some(f)));
    let mut grouped = String::new();
    for (i, c) in int.chars().enumerate() {
        if i > 0 && (int.len() - i) % 3 == 0 {
            grouped.push(',');
        }
        grouped.push(c);
    }
    match frac {
        Some(f) => format!("{sign}{grouped}.{f}"),
        None => format!("{sign}{grouped}"),
    }
}

pub use check::parse_number;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_format_and_parse() {
        assert_eq!(format_number(1234567.891, 1, true), "1,234,567.9");
        assert_eq!(format_number(-1234.0, 0, true), "-1,234");
        assert_eq!(format_number(12.0, 2, false), "12.00");
    }

    /// Each card in both languages: its number and link, an input or one option per value, the
    /// key it is checked against, the hint hidden until the page shows it, the worked solution
    /// filled and (for a scenario) the estimator link; the progress line links the sheets.
    #[test]
    fn cards_progress_and_solutions() {
        for (slug, list) in all() {
            for lang in [Lang::Zh, Lang::En] {
                for (i, ex) in list.iter().enumerate() {
                    let html =
                        card_html(lang, ex, i + 1, "#/x/#exercise-<id>", Some("#/en/estimate/?v=1&s=x"));
                    assert!(html.contains(&format!("{} {}<a", lang.ex().exercise, i + 1)), "{}", ex.id);
                    assert!(html.contains("href=\"#/x/#exercise-&lt;id&gt;\""), "{}", ex.id);
                    let inputs = match ex.answer {
                        Answer::Number { .. } => {
                            assert!(html.contains(" data-tolerance=\""), "{}", ex.id);
                            html.matches("data-role=\"answer\"").count()
                        }
                        Answer::Choice { values, .. } => {
                            assert_eq!(html.matches("type=\"radio\"").count(), values.len());
                            1
                        }
                    };
                    assert_eq!(inputs, 1, "{}", ex.id);
                    assert!(html.contains("class=\"exercise-hint\" hidden>"), "{}", ex.id);
                    assert!(html.contains("<details class=\"exercise-solution\"><summary>"), "{}", ex.id);
                    let answer = crate::html::escape(&ex.key_text().unwrap());
                    assert!(html.contains(&format!("data-answer=\"{answer}\"")), "{}", ex.id);
                    assert!(html.contains(&escape_solution(lang, ex)), "{}", ex.id);
                    assert!(html.contains("href=\"#/en/estimate/?v=1&amp;s=x\""), "{}", ex.id);
                    assert!(!card_html(lang, ex, 1, "#", None).contains("exercise-open"));
                }
                let chapter = crate::route::Route::Chapter(lang, crate::content::find(slug).unwrap().slug);
                let bar = progress_html(lang, &chapter, list.len());
                assert!(bar.contains(&(lang.ex().progress)(0, list.len())));
                assert!(bar.contains(&format!("href=\"#/{}/chapters/{slug}/answers/\"", lang.code())));
            }
        }
    }

    fn escape_solution(lang: Lang, ex: &Exercise) -> String {
        let text = ex.solution(lang).unwrap();
        assert!(!text.is_empty());
        crate::html::escape(&text)
    }

    /// The worksheet has every exercise and no answer; the key has every key and solution,
    /// filled; in both languages.
    #[test]
    fn worksheet_and_answer_key() {
        for (slug, list) in all() {
            for lang in [Lang::Zh, Lang::En] {
                let sheet = worksheet_items_html(lang, slug, false);
                assert_eq!(sheet.matches("class=\"worksheet-item\"").count(), list.len(), "{slug}");
                assert!(!sheet.contains("worksheet-key") && !sheet.contains("data-answer"), "{slug}");
                let key = worksheet_items_html(lang, slug, true);
                assert_eq!(key.matches("class=\"worksheet-key\" data-answer=\"").count(), list.len());
                assert_eq!(key.matches("class=\"worksheet-solution\"").count(), list.len());
                assert!(!key.contains("data-answer=\"\"") && !key.contains("{key}"), "{slug}");
                for ex in *list {
                    let answer = crate::html::escape(&ex.key_text().unwrap());
                    assert!(key.contains(&format!("data-answer=\"{answer}\"")), "{}", ex.id);
                    let question = crate::html::escape(ex.text(lang).question);
                    assert!(sheet.contains(&question), "{}", ex.id);
                }
            }
        }
    }

    /// Every number leaf of the report JSON, with its dotted path (arrays skipped: no path
    /// `report_value` covers goes through one).
    fn leaves(v: &Value, prefix: &str, out: &mut Vec<(String, Option<f64>)>) {
        match v {
            Value::Object(map) => {
                for (k, v) in map {
                    let path = if prefix.is_empty() { k.clone() } else { format!("{prefix}.{k}") };
                    leaves(v, &path, out);
                }
            }
            Value::Array(_) => {}
            other => out.push((prefix.to_string(), other.as_f64())),
        }
    }

    /// The typed accessor reads the same number as the report's JSON at every path it covers,
    /// and covers every number of the sections it names (a new report field must be added).
    #[test]
    fn report_value_matches_the_report_json() {
        const COVERED: [&str; 19] = [
            "load.",
            "speculative.",
            "gpu_budget_bytes",
            "host_memory_bytes",
            "offload.",
            "params.",
            "kv_cache_bytes_per_token",
            "recurrent_state_bytes_per_sequence",
            "memory_per_gpu_bytes.",
            "gpu_memory_bytes",
            "usable_gpu_memory_bytes",
            "layout.",
            "solvers.",
            "hardware.",
            "workload.",
            "time.",
            "throughput.",
            "bound_ratio",
            "phases.",
        ];
        let scenarios = [
            // KV cache tiers (`time.kv_tiers`).
            r#"{"model": "llama-3.1-8b", "gpu": "h100-sxm", "prompt_tokens": 14250, "output_tokens": 500, "context_tokens": 14750, "session_turns": 16, "session_turn_tokens": 1000, "prefix_shared_tokens": 2000, "prefix_open_sessions": 300, "kv_cpu_tier_bytes": 200000000000, "kv_ssd_tier_bytes": 3840000000000}"#,
            r#"{"model": "llama-3.1-8b", "batch": 32}"#,
            r#"{"model": "llama-3.1-70b", "gpus": 8, "tensor_parallel": 8, "mode": "training", "gpus_per_node": 4}"#,
            r#"{"model": "qwen3-30b-a3b", "mode": "qlora", "gpu": "l4", "context_tokens": 2048}"#,
            r#"{"model": "llama-3.1-405b", "gpu": "a10g"}"#,
            r#"{"model": "llama-3.1-70b", "weight_dtype": "q4_k_m", "gpu": "rtx-4090", "gpu_layers": 30, "host_memory_bytes": 64e9}"#,
            r#"{"model": "qwen3-30b-a3b", "weight_dtype": "q4_k_m", "gpu": "rtx-4090", "n_cpu_moe": 20, "kv_dtype": "q8_0"}"#,
            r#"{"model": "qwen3-30b-a3b", "gpus": 2, "expert_parallel": 2, "batch": 8, "serving_stack": "vllm_v0_5"}"#,
            r#"{"model": "llama-3.1-8b", "gpu": "h100-sxm", "batch": 4, "speculative_method": "eagle3", "speculative_acceptance_rate": 0.5, "speculative_draft_tokens": 7}"#,
            r#"{"model": "llama-3.1-70b", "gpu": "h100-sxm", "gpus": 8, "tensor_parallel": 8, "batch": 256, "prompt_tokens": 4096, "output_tokens": 512, "context_tokens": 4608, "arrival_rate_per_s": 3, "prefill_workers": 2, "prefill_tensor_parallel": 4}"#,
            r#"{"model": "llama-3.1-8b", "gpu": "h100-sxm", "batch": 64, "prompt_tokens": 1024, "output_tokens": 128, "context_tokens": 1152, "concurrent_users": 16}"#,
        ];
        let mut checked = 0;
        let mut load_checked = 0;
        for json in scenarios {
            let s = parse_scenario(json).unwrap();
            let r = crate::catalog::evaluate(&s).unwrap();
            let mut all = Vec::new();
            leaves(&serde_json::to_value(&r).unwrap(), "", &mut all);
            for (path, want) in all {
                if COVERED.iter().any(|c| path == *c || (c.ends_with('.') && path.starts_with(c))) {
                    assert_eq!(report_value(&r, &path), want, "{json}: {path}");
                    checked += usize::from(want.is_some());
                    load_checked += usize::from(want.is_some() && path.starts_with("load."));
                }
            }
            assert_eq!(report_value(&r, "params"), None);
            assert_eq!(report_value(&r, "memory_per_gpu_bytes.weights.x"), None);
            assert_eq!(report_value(&r, "phases.decode"), None);
            assert_eq!(report_value(&r, "derivations"), None);
            assert_eq!(report_value(&r, "load.disaggregated"), None);
        }
        assert!(checked > 200, "{checked}");
        // Both load reports' scalars (a closed loop and a disaggregated deployment) and the
        // disaggregated section's.
        assert!(load_checked > 70, "{load_checked}");
    }

    /// Every exercise's key and every `{r:…}` number of its worked solutions, in both languages,
    /// read through `report_value` alone: the site's wasm, where the classroom pages fill the
    /// solutions, has no JSON fallback (`json_value` returns `None` there), so a path the typed
    /// accessor does not serve would drop the exercise from a student's assignment.
    #[test]
    fn every_exercise_number_reads_without_the_json_fallback() {
        let mut reports: std::collections::HashMap<&str, Report> = std::collections::HashMap::new();
        let mut checked = 0;
        for ex in all().iter().flat_map(|(_, list)| list.iter()) {
            let Answer::Number { calc: Calc::Report { scenario, path }, .. } = ex.answer else {
                for lang in [Lang::Zh, Lang::En] {
                    assert!(!ex.text(lang).solution.contains("{r:"), "{}: {{r:…}} needs a report key", ex.id);
                }
                continue;
            };
            let r = reports
                .entry(scenario)
                .or_insert_with(|| crate::catalog::evaluate(&parse_scenario(scenario).unwrap()).unwrap());
            let mut paths = vec![path];
            for lang in [Lang::Zh, Lang::En] {
                let mut rest = ex.text(lang).solution;
                while let Some(i) = rest.find("{r:") {
                    let field = &rest[i + 3..];
                    paths.push(field.split(':').next().unwrap());
                    rest = field;
                }
            }
            for path in paths {
                assert!(report_value(r, path).is_some(), "{}: '{path}' is read from the JSON only", ex.id);
                checked += 1;
            }
        }
        assert!(checked > 20, "{checked}");
    }
}
