//! `evaluate_with`: Scenario in, Report out. Total: every input gives a report or a typed error.
//!
//! The steps, each a function below:
//! 1. [`resolve`]: validate the scenario on its own, resolve the GPU and the model, validate the
//!    two together;
//! 2. [`size`]: parameter counts, KV cache per token, memory per GPU, fit, solvers;
//! 3. [`sizing_derivations`] and [`sizing_assumptions`]: how each sizing number was obtained;
//! 4. [`performance`]: times, throughput, roofline, scaling and serving (adds its derivations);
//! 5. [`report`]: the `Report`.

use super::assumption::Assumption;
use super::derivation::{Absent, DerivKey, Derivation, Formula, Source, Val};
use super::error::{Catalogue, EngineError, ErrorKind, ScenarioError};
use super::gpu::Gpu;
use super::lookup::Lookup;
use super::memory::lora::adapter_params;
use super::memory::model_states::{adapter_dtype, optimizer_bytes_per_param};
use super::memory::StageMemory;
use super::memory::{memory_per_gpu, Inputs};
use super::model::config::parse_config;
use super::model::hybrid::{recurrent_state_bytes, ssm_state_dtype, state_elements};
use super::model::kv_cache::{kv_cache_bytes_per_token, kv_elements_per_token_per_layer};
use super::model::params::count_params;
use super::model::params::ParamCounts;
use super::model::Architecture;
use super::num::{u128_from_f64, usize_sat};
use super::perf::performance::{performance, SizedScenario};
use super::report::*;
use super::scenario::{Mode, ModelSpec, Scenario, TrainingPrecision};
use super::solvers;
use std::borrow::Cow;
use std::collections::BTreeMap;

/// The model a scenario names, with its catalog metadata when it came from the catalog.
pub fn resolve_model<'a>(
    spec: &ModelSpec,
    lookup: &'a dyn Lookup,
) -> Result<(Cow<'a, Architecture>, ModelInfo), ScenarioError> {
    match spec {
        ModelSpec::Id(id) => lookup.model(id).ok_or_else(|| {
            ScenarioError::new(
                "model",
                ErrorKind::UnknownId {
                    catalogue: Catalogue::Model,
                    id: id.clone(),
                    known: lookup.model_ids(),
                },
            )
        }),
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
}

/// Step 1: validate the scenario on its own, resolve the GPU and the model against `lookup`,
/// and validate the two together (the checks every caller of the sizing runs first, in order).
pub fn resolve<'a>(s: &'a Scenario, lookup: &'a dyn Lookup) -> Result<Resolved<'a>, ScenarioError> {
    s.validate()?;
    let gpu = s.gpu.resolve(lookup)?;
    let (arch, model) = resolve_model(&s.model, lookup)?;
    validate_against_model(s, &arch)?;
    Ok(Resolved { gpu, arch, model })
}

/// GPU memory minus the safety margin, floored: `gpu_memory × (1 − safety_margin)`.
pub fn usable_bytes(gpu_memory_bytes: u64, safety_margin: f64) -> u128 {
    u128_from_f64((gpu_memory_bytes as f64 * (1.0 - safety_margin)).floor())
}

/// Checks that need the model: tensor parallelism must split the heads, pipeline the layers.
pub fn validate_against_model(s: &Scenario, a: &Architecture) -> Result<(), ScenarioError> {
    let tp = s.tensor_parallel;
    if !solvers::tp_allowed(a, tp) {
        return Err(ScenarioError::new(
            "tensor_parallel",
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
    let Resolved { gpu, arch, .. } = resolve(s, lookup)?;
    let sized = size(s, &arch, &gpu);
    let scenario = sized.scenario(s, &arch, &gpu, lookup);
    Ok(super::perf::load::load_report_reusing(&scenario, sized.usable, previous)?)
}

fn evaluate_parts(s: &Scenario, lookup: &dyn Lookup, with_load: bool) -> Result<Report, EngineError> {
    let Resolved { gpu, arch, mut model } = resolve(s, lookup)?;
    let sized = size(s, &arch, &gpu);
    model.quantization = super::memory::quant_weights::quant_info(&arch, &sized.inputs, s.weight_dtype);
    let mut derivations = sizing_derivations(s, &arch, &gpu, &sized);
    let mut assumptions = sizing_assumptions(s, &arch, &sized.inputs);
    let scenario = sized.scenario(s, &arch, &gpu, lookup);
    let performance = performance(&scenario, &mut derivations, &mut assumptions)?;
    let load = if with_load { super::perf::load::load_report(&scenario, sized.usable)? } else { None };
    let mut r = report(s, model, sized, performance, assumptions, derivations);
    r.load = load;
    Ok(r)
}

/// The sizing half of an evaluation: counts, memory per GPU, fit and solvers.
struct Sizing {
    inputs: Inputs,
    counts: ParamCounts,
    trainable: u128,
    kv_per_token: u128,
    /// Fixed-size state of one sequence over all layers (hybrid models), no parallel split.
    state_per_sequence: u128,
    memory: StageMemory,
    gpu_memory_bytes: u64,
    usable: u128,
    fits: bool,
    solvers: Solvers,
    /// The matrices' storage format (the config's when it sets the weights).
    weight_format: super::model::quant::ElementFormat,
    /// The input row length "per row" scales take (the hidden size).
    weight_row: u64,
}

impl Sizing {
    /// What the time model and the load model read from this sizing, with the scenario it sized.
    fn scenario<'a>(
        &'a self,
        s: &'a Scenario,
        arch: &'a Architecture,
        gpu: &'a Gpu,
        lookup: &'a dyn Lookup,
    ) -> SizedScenario<'a> {
        SizedScenario {
            scenario: s,
            arch,
            counts: &self.counts,
            inputs: &self.inputs,
            gpu,
            lookup,
            trainable: self.trainable,
        }
    }
}

/// Step 2: parameter counts, KV cache per token, memory on the heaviest GPU, fit and solvers.
fn size(s: &Scenario, a: &Architecture, gpu: &Gpu) -> Sizing {
    let x = Inputs::from_scenario(s);
    let gpu_memory_bytes = s.gpu_memory_bytes.unwrap_or(gpu.memory_bytes);
    let counts = count_params(a);
    let memory = memory_per_gpu(a, &x);
    let usable = usable_bytes(gpu_memory_bytes, s.safety_margin);
    let trainable = match s.mode {
        Mode::Inference => 0,
        Mode::Training => counts.total,
        Mode::Lora | Mode::Qlora => adapter_params(a, &x, 0..usize_sat(a.layers)),
    };
    let solvers = Solvers {
        max_context_tokens: solvers::max_context_tokens(a, &x, usable),
        max_batch: solvers::max_batch(a, &x, usable),
        min_gpus: solvers::min_gpus(a, &x, usable),
    };
    Sizing {
        kv_per_token: kv_cache_bytes_per_token(a, x.kv, x.group),
        state_per_sequence: recurrent_state_bytes(a, 0..usize_sat(a.layers), 1, 1, x.activation),
        fits: memory.total <= usable,
        weight_format: super::memory::quant_weights::matrix_format(a, &x),
        weight_row: a.hidden,
        inputs: x,
        counts,
        trainable,
        memory,
        gpu_memory_bytes,
        usable,
        solvers,
    }
}

/// Step 3: how each sizing number was obtained.
fn sizing_derivations(
    s: &Scenario,
    a: &Architecture,
    gpu: &Gpu,
    z: &Sizing,
) -> BTreeMap<DerivKey, Derivation> {
    let mut dv = BTreeMap::new();
    let mut put = |k: DerivKey, f: Formula, values: Vec<Val>, source: Source| {
        dv.insert(k, Derivation::new(f, values, source));
    };
    let (x, c, mem, usable) = (&z.inputs, &z.counts, &z.memory, z.usable);
    let at = &a.attention;
    put(
        DerivKey::ParamsTotal,
        Formula::ParamsTotal,
        [c.embedding, c.lm_head, c.attention, c.mlp, c.experts, c.other + c.positions, c.total]
            .map(Val::Int)
            .to_vec(),
        Source::ModelingCode,
    );
    put(
        DerivKey::ParamsActive,
        Formula::ParamsActive,
        vec![Val::Int(c.total), Val::Int(c.experts), Val::Int(c.active)],
        Source::ModelingCode,
    );
    put(
        DerivKey::ParamsTrainable,
        Formula::ParamsTrainable,
        vec![Val::Mode(s.mode), Val::int(s.lora_rank), Val::Int(z.trainable)],
        Source::cited("Hu et al. 2021, LoRA"),
    );
    let bits = Val::Bits(x.kv, x.group);
    let (kv_formula, kv_values) = match at.mla {
        Some(m) => (
            Formula::KvPerTokenMla,
            vec![
                Val::int(a.attention_layers()),
                Val::int(m.kv_lora_rank),
                Val::int(m.qk_rope_head_dim),
                bits.clone(),
                Val::Int(z.kv_per_token),
            ],
        ),
        None => (
            Formula::KvPerToken,
            vec![
                Val::int(a.attention_layers()),
                Val::int(at.kv_heads),
                Val::int(at.head_dim),
                Val::int(at.v_head_dim),
                bits.clone(),
                Val::Int(z.kv_per_token),
            ],
        ),
    };
    // Gemma 4: sliding and full layers have different shapes (gemma4.rs).
    let (kv_formula, kv_values) = match &a.gemma4 {
        Some(g) => super::model::gemma4::kv_derivation(a, g, bits.clone(), z.kv_per_token),
        None => (kv_formula, kv_values),
    };
    put(
        DerivKey::KvCacheBytesPerToken,
        kv_formula,
        kv_values,
        Source::cited("Kwon et al. 2023 (PagedAttention) §3; DeepSeek-V2 paper §2.1 for MLA"),
    );
    match super::memory::quant_weights::active(a, x) {
        Some(q) => {
            let (f, v, src) =
                super::memory::quant_weights::mixed_weights_derivation(a, q, x, mem.stage, mem.weights);
            put(DerivKey::MemWeights, f, v, src);
        }
        None => put(
            DerivKey::MemWeights,
            Formula::Weights,
            vec![
                Val::int(mem.stage),
                Val::int(x.pp),
                Val::int(x.tp),
                Val::Dtype(x.weight),
                Val::Bits(x.weight, x.group),
                Val::Int(mem.weights),
            ],
            Source::cited("Shoeybi et al. 2019 (Megatron TP); GPTQ/AWQ/QLoRA storage formats"),
        ),
    }
    let (f, v, src) = super::memory::quant_weights::bits_derivation(&z.weight_format, a.hidden);
    put(DerivKey::WeightBits, f, v, src);
    put(
        DerivKey::MemKvCache,
        Formula::KvCache,
        vec![
            Val::int(x.batch),
            Val::int(x.context),
            Val::Int(kv_elements_per_token_per_layer(a, x.tp)),
            bits,
            Val::Int(mem.kv_cache),
        ],
        Source::PagedAttention,
    );
    // Gemma 4: sliding and full layers of different shapes, KV-shared layers store none.
    if let Some(g) = &a.gemma4 {
        let layers = crate::engine::memory::stage_layers(a.layers, x.pp, mem.stage);
        let values = super::model::gemma4::kv_cache_values(a, g, layers, x.batch, x.context, x.tp);
        let bits = Val::Bits(x.kv, x.group);
        let values = values.into_iter().chain([bits, Val::Int(mem.kv_cache)]).collect();
        put(DerivKey::MemKvCache, Formula::KvCacheByLayerKind, values, Source::PagedAttention);
    }
    if x.trains() && x.activation_offload {
        let layers = crate::engine::memory::stage_layers(a.layers, x.pp, mem.stage).len() as u128;
        put(
            DerivKey::MemActivations,
            Formula::ActivationsOffloaded,
            vec![
                Val::int(x.context),
                Val::int(x.batch),
                Val::Recompute(x.recompute),
                Val::Int(layers.min(crate::engine::memory::logits::OFFLOAD_LAYERS_ON_GPU)),
                Val::Int(layers),
                Val::Int(mem.activations),
            ],
            Source::cited(
                "Korthikanti et al. 2022 §4; torchtune OffloadActivations (enable_activation_offloading, use_streams); PyTorch torch.autograd.graph.save_on_cpu",
            ),
        );
    } else {
        put(
            DerivKey::MemActivations,
            if x.trains() { Formula::ActivationsTraining } else { Formula::ActivationsInference },
            vec![
                Val::int(x.context),
                Val::int(x.batch),
                Val::Recompute(x.recompute),
                Val::Bool(x.flash_attention),
                Val::Bool(x.sequence_parallel),
                Val::Int(mem.activations),
            ],
            Source::cited("Korthikanti et al. 2022 §4 (training); vLLM profile run (inference)"),
        );
    }
    if x.trains() {
        let tokens = u128::from(x.context) * u128::from(x.batch);
        let columns = u128::from(a.vocab).div_ceil(u128::from(x.tp.max(1)));
        put(
            DerivKey::MemLogits,
            Formula::LogitsTraining,
            vec![
                Val::int(x.batch),
                Val::int(x.context),
                Val::Int(columns),
                Val::Int(x.activation.bytes_for(tokens * columns, x.group)),
                Val::Int(crate::engine::memory::logits::upcast_tokens(tokens, x.loss_chunks)),
                Val::int(x.loss_chunks),
                Val::Int(columns),
                Val::Int(mem.logits),
            ],
            Source::cited(
                "Hugging Face transformers ForCausalLMLoss (logits upcast to fp32); torchtune CEWithChunkedOutputLoss (one chunk upcast at a time)",
            ),
        );
    } else {
        put(
            DerivKey::MemLogits,
            Formula::LogitsInference,
            vec![
                Val::int(x.batch),
                Val::Int(u128::from(a.vocab).div_ceil(u128::from(x.tp.max(1)))),
                Val::Int(mem.logits),
            ],
            Source::cited("vLLM LogitsProcessor (logits only at sampled positions, sampled in fp32)"),
        );
    }
    // Fixed-size state: per sequence on this GPU (the heaviest stage's layers), conv cache in
    // the model dtype, recurrent state in the config's SSM dtype.
    let stage_layers = super::memory::stage_layers(a.layers, x.pp, mem.stage);
    let per_layer: Vec<(u128, u128)> =
        stage_layers.map(|i| state_elements(a, i, x.tp)).filter(|e| *e != (0, 0)).collect();
    let (conv, ssm) = per_layer.iter().fold((0u128, 0u128), |s, e| (s.0 + e.0, s.1 + e.1));
    put(
        DerivKey::MemRecurrentState,
        Formula::RecurrentState,
        vec![
            Val::int(per_layer.len() as u64),
            Val::Int(conv),
            Val::Dtype(x.activation),
            Val::Int(ssm),
            Val::Dtype(ssm_state_dtype(a, x.activation)),
            Val::int(if x.trains() { 0 } else { x.batch }),
            Val::Int(mem.recurrent_state),
        ],
        Source::cited(
            "vLLM MambaStateShapeCalculator / MambaStateDtypeCalculator (vllm/model_executor/layers/mamba/mamba_utils.py); Yang et al. 2024 (Gated DeltaNet); Dao & Gu 2024 (Mamba-2)",
        ),
    );
    // The trained tensors' format: the weights in full training, the adapters otherwise.
    let trained = if x.full_training() { x.weight } else { adapter_dtype(x.precision) };
    put(
        DerivKey::MemGradients,
        Formula::Gradients,
        vec![
            Val::Precision(x.precision),
            Val::Dtype(if x.trains() { trained } else { x.weight }),
            Val::Bool(x.optimizer_in_backward),
            Val::int(u64::from(x.zero_stage)),
            Val::int(x.dp),
            Val::Int(mem.gradients),
        ],
        Source::cited(
            "Rajbhandari et al. 2020 (ZeRO); optimizer in backward: PyTorch tutorial \"How to save memory by fusing the optimizer step into the backward pass\", torchtune optimizer_in_bwd",
        ),
    );
    let per_param = optimizer_bytes_per_param(x.optimizer, x.precision, trained);
    if x.trains() && crate::engine::memory::model_states::paged(x.optimizer) {
        let dp = if x.zero_stage >= 1 { u128::from(x.dp.max(1)) } else { 1 };
        put(
            DerivKey::MemOptimizer,
            Formula::OptimizerPaged,
            vec![
                Val::Optimizer(x.optimizer),
                Val::Precision(x.precision),
                Val::Int(per_param),
                Val::Int((z.trainable * per_param).div_ceil(dp)),
                Val::Int(mem.optimizer),
            ],
            Source::cited(
                "bitsandbytes docs, Paged optimizers (CUDA unified memory, evicted to CPU RAM under pressure); Dettmers et al. 2023 (QLoRA) §3",
            ),
        );
    } else {
        put(
        DerivKey::MemOptimizer,
        Formula::Optimizer,
        vec![
            Val::Optimizer(x.optimizer),
            Val::Precision(x.precision),
            Val::Int(per_param),
            Val::int(u64::from(x.zero_stage)),
            Val::int(x.dp),
            Val::Int(mem.optimizer),
        ],
        Source::cited(
            "Rajbhandari et al. 2020 (ZeRO) K=12 for Adam; Micikevicius et al. 2018 (mixed precision); Dettmers et al. 2022 (8-bit optimizers); torchtune bf16 recipes",
        ),
    );
    }
    put(DerivKey::MemOverhead, Formula::Overhead, vec![Val::Int(mem.overhead)], Source::OverheadAssumption);
    put(
        DerivKey::MemTotal,
        Formula::MemoryTotal,
        [
            mem.weights,
            mem.kv_cache,
            mem.activations,
            mem.logits,
            mem.gradients,
            mem.optimizer,
            mem.overhead,
            mem.recurrent_state,
            mem.total,
        ]
        .map(Val::Int)
        .to_vec(),
        Source::Sum,
    );
    put(
        DerivKey::GpuMemoryBytes,
        Formula::GpuMemory,
        vec![Val::Id(gpu.id.clone()), Val::int(z.gpu_memory_bytes)],
        Source::GpuCatalog,
    );
    put(
        DerivKey::UsableGpuMemoryBytes,
        Formula::Usable,
        vec![Val::int(z.gpu_memory_bytes), Val::Num(s.safety_margin), Val::Int(usable)],
        Source::StatedAssumption,
    );
    put(
        DerivKey::Fits,
        Formula::Fits,
        vec![Val::Int(mem.total), Val::Int(usable), Val::Bool(z.fits)],
        Source::Definition,
    );
    put(
        DerivKey::LayoutDataParallel,
        Formula::DataParallel,
        vec![Val::int(s.gpus), Val::int(x.tp), Val::int(x.pp), Val::int(x.dp)],
        Source::Definition,
    );
    put(
        DerivKey::SolverMaxContext,
        Formula::MaxContext,
        vec![
            Val::int(s.batch),
            Val::Int(usable),
            Val::or_absent(a.max_position_embeddings, Absent::NotStated),
            Val::or_absent(z.solvers.max_context_tokens, Absent::NoneFits),
        ],
        Source::ThisEngine,
    );
    put(
        DerivKey::SolverMaxBatch,
        Formula::MaxBatch,
        vec![
            Val::int(s.context_tokens),
            Val::Int(usable),
            Val::or_absent(z.solvers.max_batch, Absent::NoneFits),
        ],
        Source::ThisEngine,
    );
    let min_gpus = z.solvers.min_gpus.as_ref().map_or(Val::Absent(Absent::NoLayoutUpTo65536), |m| {
        Val::Layout { gpus: m.gpus, tp: m.tensor_parallel, pp: m.pipeline_parallel, dp: m.data_parallel }
    });
    put(DerivKey::SolverMinGpus, Formula::MinGpus, vec![min_gpus], Source::ThisEngine);
    dv
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
        },
        kv_cache_bytes_per_token: to_u64(z.kv_per_token),
        recurrent_state_bytes_per_sequence: to_u64(z.state_per_sequence),
        memory_per_gpu_bytes: Memory::from(&z.memory.bytes),
        gpu_memory_bytes: z.gpu_memory_bytes,
        usable_gpu_memory_bytes: to_u64(z.usable),
        fits: z.fits,
        weight_bits_per_element: z.weight_format.bits_f64(z.weight_row),
        layout: Layout {
            gpus: s.gpus,
            tensor_parallel: x.tp,
            pipeline_parallel: x.pp,
            data_parallel: x.dp,
            heaviest_stage: z.memory.stage,
        },
        solvers: z.solvers,
        assumptions,
        derivations,
        load: None,
    }
}
