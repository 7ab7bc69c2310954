//! `evaluate_with`: Scenario in, Report out. Total: every input gives a report or a typed error.
//!
//! The steps, each a function below:
//! 1. [`resolve`]: validate the scenario on its own, resolve the GPU and the model, validate the
//!    two together;
//! 2. [`size`]: parameter counts, KV cache per token, memory per GPU, fit, solvers;
//! 3. [`sizing_derivations`] (its own file, one function per group of report paths) and
//!    [`sizing_assumptions`]: how each sizing number was obtained;
//! 4. [`performance`]: times, throughput, roofline, scaling and serving (adds its derivations);
//! 5. [`report`]: the `Report`.

use super::assumption::Assumption;
use super::derivation::{DerivKey, Derivation};
use super::error::{Catalogue, EngineError, ErrorKind, ScenarioError};
use super::gpu::Gpu;
use super::lookup::Lookup;
use super::memory::lora::adapter_params;
use super::memory::model_states::resident_paged_bytes;
use super::memory::offload::Placement;
use super::memory::StageMemory;
use super::memory::{host_parts, memory_per_gpu, HostParts, Inputs};
use super::model::config::parse_config;
use super::model::hybrid::recurrent_state_bytes;
use super::model::kv_cache::kv_cache_bytes_per_token;
use super::model::params::count_params;
use super::model::params::ParamCounts;
use super::model::Architecture;
use super::num::{u128_from_f64, usize_sat};
use super::perf::performance::{performance, SizedScenario};
use super::report::*;
use super::scenario::{ModelSpec, Scenario};
use super::solvers;
use super::workload::{Mode, TrainingPrecision};
use std::borrow::Cow;
use std::collections::BTreeMap;

mod sizing_derivations;
use sizing_derivations::sizing_derivations;

/// The model a scenario names, with its catalog metadata when it came from the catalog.
pub fn resolve_model<'a>(
    spec: &ModelSpec,
    lookup: &'a dyn Lookup,
) -> Result<(Cow<'a, Architecture>, ModelInfo), ScenarioError> {
    match spec {
        ModelSpec::Id(id) => {
            let (a, entry) = lookup.model(id).ok_or_else(|| {
                ScenarioError::new(
                    "model",
                    ErrorKind::UnknownId {
                        catalogue: Catalogue::Model,
                        id: id.clone(),
                        known: super::closest::closest_ids(
                            id,
                            &lookup.model_ids(),
                            super::closest::SUGGESTED_IDS,
                        ),
                    },
                )
            })?;
            let info = ModelInfo {
                id: Some(entry.id),
                name: entry.name,
                family: a.model_type.clone(),
                source: Some(entry.source),
                inferred: a.inferred.is_some(),
                keys_used: Vec::new(),
                keys_ignored: Vec::new(),
                quantization: None,
                gguf: None,
                layers: a.layers,
            };
            Ok((a, info))
        }
        ModelSpec::Config(v) => {
            let a = parse_config(v)?;
            // The config's own name, else its model_type: identifiers, the same in every language.
            let name = v.get("_name_or_path").and_then(|n| n.as_str()).unwrap_or(&a.model_type).to_owned();
            let keys = a.inferred.clone().unwrap_or_default();
            let info = ModelInfo {
                id: None,
                name,
                family: a.model_type.clone(),
                source: None,
                inferred: a.inferred.is_some(),
                keys_used: keys.used,
                keys_ignored: keys.ignored,
                quantization: None,
                gguf: None,
                layers: a.layers,
            };
            Ok((Cow::Owned(a), info))
        }
    }
}

/// A scenario's GPU and model, resolved and checked.
#[derive(Debug)]
pub struct Resolved<'a> {
    pub gpu: Cow<'a, Gpu>,
    pub arch: Cow<'a, Architecture>,
    pub model: ModelInfo,
    /// The draft model of speculative decoding (`speculative_method: draft_model`).
    pub draft: Option<Cow<'a, Architecture>>,
}

/// Step 1: validate the scenario on its own, resolve the GPU and the model against `lookup`,
/// and validate the two together (the checks every caller of the sizing runs first, in order).
pub fn resolve<'a>(s: &'a Scenario, lookup: &'a dyn Lookup) -> Result<Resolved<'a>, ScenarioError> {
    s.validate()?;
    let gpu = s.gpu.resolve(lookup)?;
    let (arch, model) = resolve_model(&s.model, lookup)?;
    let arch = with_tensor_table(s, arch);
    validate_against_model(s, &arch)?;
    let draft = match (&s.speculative_method, &s.speculative_draft_model) {
        (Some(super::workload::SpecMethod::DraftModel), Some(spec)) => {
            let (d, _) = resolve_model(spec, lookup)
                .map_err(|e| ScenarioError::new("speculative_draft_model", e.kind))?;
            Some(d)
        }
        _ => None,
    };
    validate_speculation(s, &arch, draft.as_deref())?;
    Ok(Resolved { gpu, arch, model, draft })
}

/// The tensor table the weights follow: a chosen llama.cpp file type writes the model's tensors
/// as `llama-quantize` would (a GGUF file's own table is replaced too: the reader asked for
/// another quantisation); another chosen format drops a file's table; no choice keeps it.
pub fn with_tensor_table<'a>(s: &Scenario, mut arch: Cow<'a, Architecture>) -> Cow<'a, Architecture> {
    match s.weight_dtype {
        // The file's own type: its own tensors.
        Some(d) if arch.tensor_table.is_some() && arch.gguf_file_type == Some(d) => {}
        Some(super::precision::Dtype::Gguf(ft)) => {
            let table = super::gguf::layout::table(&arch, ft);
            arch.to_mut().tensor_table = Some(table);
        }
        Some(_) if arch.tensor_table.is_some() => arch.to_mut().tensor_table = None,
        _ => {}
    }
    arch
}

/// GPU memory minus the safety margin, floored: `gpu_memory × (1 − safety_margin)`.
pub fn usable_bytes(gpu_memory_bytes: u64, safety_margin: f64) -> u128 {
    u128_from_f64((gpu_memory_bytes as f64 * (1.0 - safety_margin)).floor())
}

/// Checks that need the model: tensor parallelism must split the heads, pipeline the layers.
pub fn validate_against_model(s: &Scenario, a: &Architecture) -> Result<(), ScenarioError> {
    let prefill_tp = s.prefill_tensor_parallel.filter(|_| s.prefill_workers > 0);
    for (field, tp) in [("tensor_parallel", Some(s.tensor_parallel)), ("prefill_tensor_parallel", prefill_tp)]
    {
        let Some(tp) = tp else { continue };
        if solvers::tp_allowed(a, tp) {
            continue;
        }
        return Err(ScenarioError::new(
            field,
            ErrorKind::TensorParallelSplit {
                heads: a.attention.heads,
                kv_heads: a.attention.kv_heads,
                got: tp,
            },
        ));
    }
    if s.pipeline_parallel > a.layers {
        return Err(ScenarioError::new(
            "pipeline_parallel",
            ErrorKind::MoreStagesThanLayers { layers: a.layers, got: s.pipeline_parallel },
        ));
    }
    // Expert parallelism spreads the routed experts: no more GPUs than expert copies.
    let experts = a.moe.as_ref().map_or(0, |m| m.routed_experts.saturating_add(s.redundant_experts));
    if s.expert_parallel > experts.max(1) {
        return Err(ScenarioError::new(
            "expert_parallel",
            ErrorKind::MoreThanExperts { experts, got: s.expert_parallel },
        ));
    }
    if experts > 0 && !experts.is_multiple_of(s.expert_parallel.max(1)) && !uneven_experts_allowed(s) {
        return Err(ScenarioError::new(
            "expert_parallel",
            ErrorKind::ExpertsNotDivisible {
                experts,
                allowed: (1..=experts.min(s.gpus)).filter(|d| experts.is_multiple_of(*d)).collect(),
                got: s.expert_parallel,
            },
        ));
    }
    Ok(())
}

/// Whether experts may be spread unevenly over the expert-parallel GPUs: vLLM gives the first
/// `(E + R) mod ep` ranks one expert more (`determine_expert_map`, vllm/model_executor/layers/
/// fused_moe/layer.py); SGLang asserts `(num_experts + ep_num_redundant_experts) % moe_ep_size
/// == 0` (EPMoE) and Megatron-Core that `num_moe_experts` divides by
/// `expert_model_parallel_size`, so training and SGLang need whole shares.
fn uneven_experts_allowed(s: &Scenario) -> bool {
    use super::stack::ServingStack;
    s.mode == Mode::Inference && matches!(s.serving_stack, ServingStack::VllmV1 | ServingStack::VllmV05)
}

/// Speculative decoding against the model: MTP drafts at most one token per module the
/// checkpoint ships, and a draft model is smaller than the target.
fn validate_speculation(
    s: &Scenario,
    a: &Architecture,
    draft: Option<&Architecture>,
) -> Result<(), ScenarioError> {
    let Some(spec) = s.speculation() else { return Ok(()) };
    let modules = a.extras.mtp_layers;
    if spec.method == super::workload::SpecMethod::Mtp && spec.draft_tokens > modules {
        let field = if modules == 0 { "speculative_method" } else { "speculative_draft_tokens" };
        return Err(ScenarioError::new(
            field,
            ErrorKind::MoreThanMtpModules { modules, got: spec.draft_tokens },
        ));
    }
    if let Some(d) = draft {
        let (dp, tp) = (count_params(d).total, count_params(a).total);
        if dp >= tp {
            let n = |v: u128| u64::try_from(v).unwrap_or(u64::MAX);
            return Err(ScenarioError::new(
                "speculative_draft_model",
                ErrorKind::DraftLargerThanTarget { draft: n(dp), target: n(tp) },
            ));
        }
    }
    Ok(())
}

/// Evaluates a scenario, resolving its catalog ids (model, GPU, network, price) with `lookup`.
pub fn evaluate_with(s: &Scenario, lookup: &dyn Lookup) -> Result<Report, EngineError> {
    evaluate_parts(s, lookup, true)
}

/// [`evaluate_with`] without the `load` section (null): the estimator asks for that section
/// apart ([`load_with`]), only while its panel is in view, so that an edit elsewhere on the page
/// does not wait for the load model's simulations.
pub fn evaluate_without_load_with(s: &Scenario, lookup: &dyn Lookup) -> Result<Report, EngineError> {
    evaluate_parts(s, lookup, false)
}

/// The `load` section of [`evaluate_with`]'s report alone (the same value), with the load
/// model's rate-independent half; `previous` is used again when it was computed from the same
/// inputs (an edit of the arrival rate alone costs one simulation instead of twelve).
pub fn load_with(
    s: &Scenario,
    lookup: &dyn Lookup,
    previous: Option<&super::perf::load::LoadCurve>,
) -> Result<Option<(super::perf::load::LoadReport, super::perf::load::LoadCurve)>, EngineError> {
    let Resolved { gpu, arch, draft, .. } = resolve(s, lookup)?;
    let sized = size(s, &arch, &gpu, draft.as_deref());
    let scenario = sized.scenario(s, &arch, &gpu, lookup, draft.as_deref());
    Ok(super::perf::load::load_report_reusing(&scenario, sized.usable, previous)?)
}

/// What each user of the scenario's static batch waits for the first token in a closed loop of
/// that many users ([`super::perf::load::static_batch_users_wait`]): one simulation, asked for
/// by the estimator's time panel beside the static batch's own time to first token.
pub fn static_batch_users_wait_with(
    s: &Scenario,
    lookup: &dyn Lookup,
) -> Result<Option<super::perf::load::LoadReport>, EngineError> {
    let Resolved { gpu, arch, draft, .. } = resolve(s, lookup)?;
    let sized = size(s, &arch, &gpu, draft.as_deref());
    let scenario = sized.scenario(s, &arch, &gpu, lookup, draft.as_deref());
    Ok(super::perf::load::static_batch_users_wait(&scenario, sized.usable)?)
}

fn evaluate_parts(s: &Scenario, lookup: &dyn Lookup, with_load: bool) -> Result<Report, EngineError> {
    let Resolved { gpu, arch, mut model, draft } = resolve(s, lookup)?;
    let sized = size(s, &arch, &gpu, draft.as_deref());
    model.quantization = super::memory::quant_weights::quant_info(&arch, &sized.inputs, s.weight_dtype);
    model.gguf = gguf_info(s, &arch);
    model.layers = arch.layers;
    let mut derivations = sizing_derivations(s, &arch, &gpu, &sized);
    let mut assumptions = sizing_assumptions(s, &arch, &sized.inputs);
    let scenario = sized.scenario(s, &arch, &gpu, lookup, draft.as_deref());
    let performance = performance(&scenario, &mut derivations, &mut assumptions)?;
    let load = if with_load { super::perf::load::load_report(&scenario, sized.usable)? } else { None };
    let experts = sized.inputs.experts(&arch);
    let mut r = report(s, model, sized, performance, assumptions, derivations);
    (r.layout.experts_per_gpu, r.layout.expert_tensor_parallel) = (experts.per_gpu, experts.moe_tp);
    r.load = load;
    Ok(r)
}

/// The host memory the part kept off the GPU may use: the host's memory less what the
/// operating system keeps (`host_reserve_bytes`), or on a unified-memory device its memory less
/// that and less the GPU's part `on_gpu`; `None` when the host's memory is not given.
pub(crate) fn host_room(s: &Scenario, unified: bool, gpu_memory: u64, on_gpu: u128) -> Option<u128> {
    let reserve = u128::from(s.host_reserve_bytes);
    match (s.host_memory_bytes, unified) {
        (Some(h), _) => Some(u128::from(h).saturating_sub(reserve)),
        (None, true) => Some(u128::from(gpu_memory).saturating_sub(reserve).saturating_sub(on_gpu)),
        (None, false) => None,
    }
}

/// The sizing half of an evaluation: counts, memory per GPU, fit and solvers.
struct Sizing {
    inputs: Inputs,
    counts: ParamCounts,
    trainable: u128,
    kv_per_token: u128,
    /// Fixed-size state of one sequence over all layers (hybrid models), no parallel split.
    state_per_sequence: u128,
    /// The heaviest GPU's memory, paged optimizer states resident on it included.
    memory: StageMemory,
    /// What must fit: `memory.total` without the paged optimizer states.
    must_fit: u128,
    /// Paged optimizer states the device has no room for, and what offload leaves, in host
    /// memory.
    host: u128,
    /// What partial offload leaves in host memory.
    host_parts: HostParts,
    placement: Placement,
    gpu_memory_bytes: u64,
    /// What the GPU may use of it (Apple silicon: the working set macOS allows).
    gpu_budget: u64,
    /// Host memory the host part may use, when known.
    host_available: Option<u128>,
    usable: u128,
    fits: bool,
    solvers: Solvers,
    /// The matrices' storage format (the config's when it sets the weights).
    weight_format: super::model::quant::ElementFormat,
    /// The input row length "per row" scales take (the hidden size).
    weight_row: u64,
    /// llama.cpp's bits per weight over the tensor table, when there is one.
    table_bits: Option<f64>,
}

impl Sizing {
    /// What the time model and the load model read from this sizing, with the scenario it sized.
    fn scenario<'a>(
        &'a self,
        s: &'a Scenario,
        arch: &'a Architecture,
        gpu: &'a Gpu,
        lookup: &'a dyn Lookup,
        draft: Option<&'a Architecture>,
    ) -> SizedScenario<'a> {
        SizedScenario {
            draft,
            scenario: s,
            arch,
            counts: &self.counts,
            inputs: &self.inputs,
            gpu,
            lookup,
            trainable: self.trainable,
            gpu_room: self.usable.saturating_sub(self.memory.bytes.total),
        }
    }
}

/// Step 2: parameter counts, KV cache per token, memory on the heaviest GPU, fit and solvers.
fn size(s: &Scenario, a: &Architecture, gpu: &Gpu, draft: Option<&Architecture>) -> Sizing {
    let mut x = Inputs::on_gpu(s, gpu);
    if let Some(spec) = s.speculation() {
        x.drafter = super::memory::speculative::drafter(a, draft, &spec, &x);
    }
    let gpu_memory_bytes = s.gpu_memory_bytes.unwrap_or(gpu.memory_bytes);
    let gpu_budget = gpu.memory_kind.gpu_budget(gpu_memory_bytes);
    let counts = count_params(a);
    let mut memory = memory_per_gpu(a, &x);
    let must_fit = memory.total;
    let spilled = page_in_states(&mut memory, gpu_budget);
    let host_parts = host_parts(a, &x);
    let usable = usable_bytes(gpu_budget, s.safety_margin);
    let trainable = match s.mode {
        Mode::Inference => 0,
        Mode::Training => counts.total,
        Mode::Lora | Mode::Qlora => adapter_params(a, &x, 0..usize_sat(a.layers)),
    };
    let placement = Placement::of(a, &x);
    let llama_cpp = a.tensor_table.is_some() || placement.splits();
    let solvers = Solvers {
        max_context_tokens: solvers::max_context_tokens(a, &x, usable),
        max_batch: solvers::max_batch(a, &x, usable),
        min_gpus: solvers::min_gpus(a, &x, usable),
        max_gpu_layers: if llama_cpp && x.pp <= 1 && !x.trains() {
            solvers::max_gpu_layers(a, &x, usable)
        } else {
            None
        },
        min_cpu_moe: if llama_cpp && x.pp <= 1 && !x.trains() {
            solvers::min_cpu_moe(a, &x, usable).filter(|m| *m > 0)
        } else {
            None
        },
    };
    let host_available = host_room(s, gpu.memory_kind.is_unified(), gpu_memory_bytes, memory.total);
    Sizing {
        kv_per_token: kv_cache_bytes_per_token(a, x.kv, x.group),
        state_per_sequence: recurrent_state_bytes(a, 0..usize_sat(a.layers), 1, 1, x.activation),
        fits: must_fit <= usable,
        must_fit,
        host: spilled + host_parts.total(),
        host_parts,
        placement,
        weight_format: super::memory::quant_weights::matrix_format(a, &x),
        weight_row: a.hidden,
        table_bits: a.tensor_table.as_ref().map(super::model::tensors::TensorTable::bits_per_weight),
        inputs: x,
        counts,
        trainable,
        memory,
        gpu_memory_bytes,
        gpu_budget,
        host_available,
        usable,
        solvers,
    }
}

/// The report's account of a llama.cpp model's tensors.
fn gguf_info(s: &Scenario, a: &Architecture) -> Option<GgufInfo> {
    let t = a.tensor_table.as_ref()?;
    let from_file = a.gguf_file_type.is_some() && s.weight_dtype.is_none_or(|d| a.gguf_file_type == Some(d));
    let file_type = s.resolved_weight_dtype();
    Some(GgufInfo {
        file_type: if from_file {
            a.gguf_file_type.map(|d| d.name().to_owned())
        } else {
            Some(file_type.name().to_owned())
        },
        from_file,
        bytes: to_u64(t.bytes(super::model::tensors::Part::All)),
        elements: to_u64(t.elements(super::model::tensors::Part::All)),
        bits_per_weight: t.bits_per_weight(),
        types: t
            .type_counts()
            .into_iter()
            .map(|c| GgufTypeCount { ty: c.ty.name().to_owned(), tensors: c.tensors, bytes: to_u64(c.bytes) })
            .collect(),
    })
}

/// The report's `offload`: set for llama.cpp models and whenever layers stay in host memory.
fn offload_report(z: &Sizing, llama_cpp: bool) -> Option<Offload> {
    let p = &z.placement;
    if !(llama_cpp || p.splits()) || z.inputs.pp > 1 || z.inputs.trains() {
        return None;
    }
    let h = &z.host_parts;
    Some(Offload {
        gpu_layers: p.offloaded(),
        layers: p.layers,
        first_gpu_layer: p.gpu_start,
        output_on_gpu: p.output_on_gpu,
        n_cpu_moe: p.cpu_moe,
        embedding_on_host: p.embedding_on_host,
        host_weights_bytes: to_u64(h.weights),
        host_kv_cache_bytes: to_u64(h.kv_cache),
        host_recurrent_state_bytes: to_u64(h.recurrent_state),
        host_available_bytes: z.host_available.map(to_u64),
        host_fits: z.host_available.map(|a| h.total() <= a),
    })
}

/// Paged optimizer states move onto the device as far as it has room
/// ([`resident_paged_bytes`]); returns the bytes left in host memory.
fn page_in_states(memory: &mut StageMemory, device_bytes: u64) -> u128 {
    let states = memory.paged_optimizer;
    let resident = resident_paged_bytes(states, u128::from(device_bytes), memory.total);
    memory.bytes.optimizer += resident;
    memory.bytes.total += resident;
    states - resident
}

/// Step 3: what the sizing numbers assume.
fn sizing_assumptions(s: &Scenario, a: &Architecture, x: &Inputs) -> Vec<Assumption> {
    let mut out = vec![
        Assumption::RuntimeOverhead { bytes: s.runtime_overhead_bytes },
        Assumption::SafetyMargin { fraction: s.safety_margin },
    ];
    if let Some(limit) = a.max_position_embeddings.filter(|m| *m > 0 && s.context_tokens > *m) {
        out.push(Assumption::ContextBeyondModel { context: s.context_tokens, limit });
    }
    if x.weight.is_quantised() || super::memory::quant_weights::active(a, x).is_some() {
        out.push(Assumption::SmallTensorsIn16Bits);
    }
    let experts = a.moe.as_ref().map_or(0, |m| m.routed_experts.saturating_add(s.redundant_experts));
    let ep = s.expert_parallel.max(1);
    if experts > 0 && !experts.is_multiple_of(ep) {
        out.push(Assumption::UnevenExperts { experts, expert_parallel: ep, heavier_ranks: experts % ep });
    }
    if let Some(g) = &a.gemma4 {
        let per_layer_table = u64::try_from(g.lookup_table(a.layers)).unwrap_or(u64::MAX);
        out.push(Assumption::TextDecoderOnly { per_layer_table });
    }
    if x.trains() {
        out.push(Assumption::TrainingSchedule);
    } else {
        out.push(Assumption::PagedKvAndChunk {
            block_tokens: s.kv_block_tokens,
            chunk_tokens: s.prefill_chunk_tokens,
        });
    }
    if matches!(s.mode, Mode::Lora | Mode::Qlora) && s.training_precision != TrainingPrecision::Bf16 {
        out.push(Assumption::AdaptersInFp32);
    }
    out
}

/// Step 5: the report.
fn report(
    s: &Scenario,
    model: ModelInfo,
    z: Sizing,
    performance: super::perf::report::Performance,
    assumptions: Vec<Assumption>,
    derivations: BTreeMap<DerivKey, Derivation>,
) -> Report {
    let c = &z.counts;
    let x = &z.inputs;
    let offload = offload_report(&z, model.gguf.is_some());
    Report {
        performance,
        model,
        params: Params {
            total: to_u64(c.total),
            active: to_u64(c.active),
            trainable: to_u64(z.trainable),
            embedding: to_u64(c.embedding),
            lm_head: to_u64(c.lm_head),
            attention: to_u64(c.attention),
            mlp: to_u64(c.mlp),
            experts: to_u64(c.experts),
            other: to_u64(c.other + c.positions),
            drafter: to_u64(x.drafter.params),
        },
        kv_cache_bytes_per_token: to_u64(z.kv_per_token),
        recurrent_state_bytes_per_sequence: to_u64(z.state_per_sequence),
        memory_per_gpu_bytes: Memory::from(&z.memory.bytes),
        gpu_memory_bytes: z.gpu_memory_bytes,
        usable_gpu_memory_bytes: to_u64(z.usable),
        fits: z.fits,
        host_memory_bytes: to_u64(z.host),
        gpu_budget_bytes: z.gpu_budget,
        offload,
        allocator_counted_bytes: to_u64(z.must_fit),
        weight_bits_per_element: z.table_bits.unwrap_or_else(|| z.weight_format.bits_f64(z.weight_row)),
        layout: Layout {
            gpus: s.gpus,
            tensor_parallel: x.tp,
            pipeline_parallel: x.pp,
            data_parallel: x.replicas(),
            context_parallel: x.cp,
            heaviest_stage: z.memory.stage,
            expert_parallel: x.ep,
            experts_per_gpu: 0,
            expert_tensor_parallel: 1,
            redundant_experts: x.redundant_experts,
        },
        solvers: z.solvers,
        assumptions,
        derivations,
        load: None,
    }
}
