//! Scenario → time: maps the sizing engine's model, dtypes and layout onto the performance
//! formulas of [`super`] and fills the time half of the Report ([`Performance`]).
//!
//! Modelling choices (each also stated in the report's assumptions):
//! - Bytes per forward pass = every weight read once (quantised formats with their scales),
//!   except the input embedding table and learned positions, which are gathered row by row;
//!   a tied embedding is read in full as the output head.
//! - FLOPs use the parameters a token multiplies: active parameters minus the embedding (a
//!   gather, no multiply), plus attention scores (causal; sliding windows cap the keys).
//! - Decode is reported at the average step of the generation: `prompt + output/2` cached tokens.
//! - LoRA/QLoRA: the frozen base needs no weight gradients, so a step is 4·P·tokens (+ attention),
//!   not 6·P·tokens.

use super::kv_tiers;
use super::offload;
use super::phases::{decode_step_work, prefill_work, training_step_work, ModelShape, PhaseWork};
use super::report::*;
use super::roofline::attainable_flops;
use super::scaling::{communication_dominates_from, default_gpu_counts, scaling_curve, Strategy};
use super::serving::serving_estimate;
use super::speculative::SpeculativeReport;
use super::timing::{kernels_per_pass, phase_timing, Hardware, Parallelism, Phase, PhaseTiming};
use super::training::derive::training_derivations;
use super::training::run::{check_training_gpu, training_report, training_run, TrainingRun};
use super::training::{training_step, TrainingTiming};
use crate::engine::assumption::Assumption;
use crate::engine::checked::perf_error;
use crate::engine::checked::PerfError;
use crate::engine::derivation::{Absent, DerivKey, Derivation, Formula, PhaseName, PhaseQty, Source, Val};
use crate::engine::efficiency::{Efficiency, Factor};
use crate::engine::error::{ErrorKind, ScenarioError};
use crate::engine::gpu::Gpu;
use crate::engine::hardware::TopologyKind;
use crate::engine::links::Topology;
use crate::engine::lookup::Lookup;
use crate::engine::memory::model_states::{adapter_dtype, optimizer_bytes_per_param};
use crate::engine::memory::weights::{small_tensor_dtype, stage_weights};
use crate::engine::memory::Inputs;
use crate::engine::model::kv_cache::{kv_cache_bytes, kv_cache_bytes_per_token};
use crate::engine::model::params::{count_params, ParamCounts};
use crate::engine::model::quant::Quantization;
use crate::engine::model::Architecture;
use crate::engine::num::{u32_from_f64, u32_sat, u64_from_f64, usize_sat};
use crate::engine::precision::compute::{ComputeDtype, ComputePath};
use crate::engine::precision::Dtype;
use crate::engine::scenario::Scenario;
use crate::engine::workload::{Mode, Recompute};
use std::collections::BTreeMap;

/// What [`performance`] needs from the sizing half of the evaluation.
#[derive(Debug, Clone, Copy)]
pub struct SizedScenario<'a> {
    pub scenario: &'a Scenario,
    pub arch: &'a Architecture,
    pub counts: &'a ParamCounts,
    pub inputs: &'a Inputs,
    pub gpu: &'a Gpu,
    /// The catalog the scenario's ids resolve against (network links, default price).
    pub lookup: &'a dyn Lookup,
    pub trainable: u128,
    /// The draft model of speculative decoding, resolved (`speculative_method: draft_model`).
    pub draft: Option<&'a Architecture>,
    /// The heaviest GPU's usable memory beyond what the scenario takes, bytes: the KV pool's
    /// room for cached prefixes (`kv_tiers`).
    pub gpu_room: u128,
}

impl SizedScenario<'_> {
    /// The checkpoint's own quantisation when it sets this run's weights (it chooses the compute
    /// path too: [`Scenario::compute_dtype_on`]).
    pub fn published(&self) -> Option<&Quantization> {
        crate::engine::memory::quant_weights::active(self.arch, self.inputs)
    }
}

fn pe(e: PerfError) -> ScenarioError {
    perf_error("scenario", e)
}

/// The label of a compute path: `bf16 tensor`, or `fp32 vector (no bf16 path)` on fallback.
pub fn path_label(p: &ComputePath) -> String {
    let kind = match p.used {
        ComputeDtype::Fp32 | ComputeDtype::Fp64 => "vector",
        _ => "tensor",
    };
    if p.used == p.requested {
        format!("{} {kind}", p.used.label())
    } else {
        format!("{} {kind} (no {} path)", p.used.label(), p.requested.label())
    }
}

/// The model as the time formulas see it, with KV and attention sized for `context` cached tokens.
pub fn model_shape(a: &Architecture, counts: &ParamCounts, x: &Inputs, context: u64) -> ModelShape {
    at_context(&weight_shape(a, counts, x), a, x, context)
}

/// [`model_shape`]'s context-free part: parameters, weight bytes by kind, experts, widths (the
/// KV and attention fields left for [`at_context`]). Sizing the weights walks the model's layer
/// kinds, so an evaluation computes this once and sizes each context from it.
pub fn weight_shape(a: &Architecture, counts: &ParamCounts, x: &Inputs) -> ModelShape {
    let whole = Inputs { tp: 1, ep: 1, redundant_experts: 0, ..*x };
    let w = stage_weights(a, &whole, 0..usize_sat(a.layers), true, true);
    let small = small_tensor_dtype(x.weight);
    let gathered = if a.tied_embeddings { 0 } else { counts.embedding } + counts.positions;
    let mut gathered_bytes = small.bytes_for(gathered, x.group);
    let mut expert_bytes = x.weight.bytes_for(counts.experts, x.group);
    // The checkpoint's own format: experts and the (untied) embedding in their class's format.
    if let Some(q) = crate::engine::memory::quant_weights::active(a, x) {
        use crate::engine::model::quant::ModuleClass;
        let p = crate::engine::memory::quant_weights::whole_model(a, q);
        let embedding =
            if a.tied_embeddings { 0 } else { p.class_bytes(q, ModuleClass::Embedding, a.hidden) };
        gathered_bytes = embedding + small.bytes_for(counts.positions, x.group);
        expert_bytes = p.class_bytes(q, ModuleClass::Experts, a.hidden);
    }
    // A llama.cpp tensor table: the embedding and the experts as its tensors are typed.
    if let Some(t) = &a.tensor_table {
        use crate::engine::model::tensors::Part;
        gathered_bytes = if a.tied_embeddings { 0 } else { t.bytes(Part::TokenEmbd) };
        expert_bytes = t.bytes(Part::LayersExperts { from: 0, to: u32::MAX });
    }
    let dense = w.bytes.saturating_sub(gathered_bytes).saturating_sub(expert_bytes).max(1);
    let (experts, k) = a.moe.as_ref().map_or((0, 0), |m| (m.routed_experts, m.experts_per_token));
    let flop_params = counts.active.saturating_sub(gathered).max(1) as f64;
    // Feed-forward width per token: MoE layers run top-k experts plus the shared ones.
    let ffn = a.moe.as_ref().map_or(a.intermediate, |m| {
        m.experts_per_token.min(m.routed_experts) * m.expert_intermediate + m.shared_intermediate
    });
    ModelShape {
        params_total: (counts.total.saturating_sub(gathered)).max(1) as f64,
        params_active: flop_params,
        layers: u32_sat(a.layers.max(1)),
        attention_width: 1,
        hidden: u32_sat(a.hidden.max(1)),
        kv_bytes_per_token: 0.0,
        dense_weight_bytes: dense as f64,
        expert_weight_bytes: if experts > 0 { expert_bytes as f64 } else { 0.0 },
        experts: u32_sat(experts),
        experts_per_token: u32_sat(k.min(experts)),
        activation_bytes: x.activation.bytes_for(1000, x.group) as f64 / 1000.0,
        state_bytes_per_sequence: crate::engine::model::hybrid::recurrent_state_bytes(
            a,
            0..usize_sat(a.layers),
            1,
            1,
            x.activation,
        ) as f64,
        ffn_width: u32_sat(ffn),
        moe: None,
        output_params: if a.tied_embeddings { counts.embedding } else { counts.lm_head } as f64,
    }
}

/// `base` ([`weight_shape`]) with its KV bytes per token and attention width for `context`
/// cached tokens: sliding windows cap the keys, hybrid models' attention layers alone score them,
/// Gemma 4's KV-shared layers read their source's cache.
pub fn at_context(base: &ModelShape, a: &Architecture, x: &Inputs, context: u64) -> ModelShape {
    let full_kv = kv_cache_bytes_per_token(a, x.kv, x.group) as f64;
    let c = context.max(1);
    let kv_eff = kv_cache_bytes(a, 0..usize_sat(a.layers), c, 1, 1, 1, x.kv, x.group) as f64 / c as f64;
    // Gemma 4: KV-shared layers store nothing but read their source layer's cache at each step.
    let (full_kv, kv_eff) = match &a.gemma4 {
        Some(g) => {
            let (held, per_token) = crate::engine::model::gemma4::kv_read_bytes(a, g, c, x.kv, x.group);
            (per_token as f64, held as f64 / c as f64)
        }
        None => (full_kv, kv_eff),
    };
    let window_ratio = if full_kv > 0.0 { (kv_eff / full_kv).clamp(0.0, 1.0) } else { 1.0 };
    // Hybrid models: only the attention layers compute attention scores over the context.
    let attention_share = a.attention_layers() as f64 / a.layers.max(1) as f64;
    let width = (a.attention.heads * a.attention.head_dim) as f64 * window_ratio * attention_share;
    // Gemma 4: each layer's own head size and window.
    let width = match &a.gemma4 {
        Some(g) => crate::engine::model::gemma4::attention_width(a, g, c),
        None => width,
    };
    ModelShape {
        attention_width: u32_from_f64(width.round().clamp(1.0, f64::from(u32::MAX))),
        kv_bytes_per_token: kv_eff,
        ..base.clone()
    }
}

/// Kernels an MoE layer launches outside the fused experts that a dense layer does not: the
/// router GEMM and the top-k selection (vLLM `fused_moe/layer.py`). The fused experts' own
/// kernels (alignment, activation quantisation, SiLU, weighted sum) are in the kernel family's
/// measured `t0`. An estimate counted from the modelling code, like `kernels_per_layer`.
pub const MOE_EXTRA_KERNELS: f64 = 2.0;
/// The kernels of a dense layer's MLP within `kernels_per_layer`'s 10: the gate/up GEMM, the
/// activation and the down GEMM. In an MoE layer the routed experts run instead (their kernels
/// in `t0`), so these are not launched, unless the layer also runs shared experts as a dense MLP
/// (DeepSeek-V3, Qwen2-MoE).
pub const DENSE_MLP_KERNELS: f64 = 3.0;

/// Kernels an MoE layer launches beyond a dense layer's `kernels_per_layer`, outside the fused
/// experts: the router and top-k ([`MOE_EXTRA_KERNELS`]), less the dense MLP's
/// ([`DENSE_MLP_KERNELS`]) where no shared expert runs it. Worked: Qwen3-30B-A3B (no shared
/// expert) 2 − 3 = −1, 9 kernels a layer; DeepSeek-V3 (one shared expert) +2, 12.
pub fn moe_layer_extra_kernels(shared_expert: bool) -> f64 {
    MOE_EXTRA_KERNELS - if shared_expert { 0.0 } else { DENSE_MLP_KERNELS }
}
/// Kernels an MLA attention block launches beyond a GQA block's: the q_a and kv_a norms and the
/// absorbed `W_UK`/`W_UV` batched GEMMs (vLLM `models/deepseek_v2.py`). An estimate.
pub const MLA_EXTRA_KERNELS: f64 = 4.0;

/// Whether the matrices are FP8 with a scale per block (DeepSeek-V3's 128 × 128), which
/// Triton's fused MoE reads at its own measured share ([`crate::engine::stack::MoeKernel::costs`]).
fn block_scaled_fp8(a: &Architecture, x: &Inputs) -> bool {
    let f = crate::engine::memory::quant_weights::matrix_format(a, x);
    f.kind == crate::engine::model::quant::FormatKind::Fp8 && f.scale_bits > 0 && f.group > 1
}

/// How the scenario's serving stack runs the routed experts of `shape`'s model
/// ([`super::moe::MoeRun`]): the expert-parallel layout, the kernel family's measured costs at
/// this model's expert slice (`H·I/moe_tp`) and weight scaling, the load imbalance and the
/// dispatch/combine. `None` for a dense model, in training, and for llama.cpp's files, whose
/// experts stay in the dense roofline as its MMVQ/MMQ kernels read them.
pub fn moe_run(
    a: &Architecture,
    x: &Inputs,
    s: &Scenario,
    gpu: &Gpu,
    path: &ComputePath,
    shape: &ModelShape,
) -> Option<super::moe::MoeRun> {
    use crate::engine::num::log_interpolate;
    use crate::engine::stack::EpComm;
    let m = a.moe.as_ref()?;
    let llama_cpp = a.tensor_table.is_some() || x.weight.file_type().is_some();
    if llama_cpp || x.trains() || m.routed_experts == 0 || shape.expert_weight_bytes <= 0.0 {
        return None;
    }
    let layers = (0..usize_sat(a.layers)).filter(|i| a.is_moe_layer(*i)).count();
    let first = (0..usize_sat(a.layers)).find(|i| a.is_moe_layer(*i))?;
    let e = m.routed_experts as f64;
    let expert_params = crate::engine::model::params::layer_params(a, first).expert_matrices as f64 / e;
    let layout = x.experts(a);
    let kernel = s.moe_kernel.unwrap_or(s.serving_stack.settings().moe_kernel);
    let costs = kernel.costs(block_scaled_fp8(a, x));
    let slice = (a.hidden * m.expert_intermediate) as f64 / layout.moe_tp as f64;
    let peak16 = [ComputeDtype::Bf16, ComputeDtype::Fp16]
        .into_iter()
        .filter_map(|d| gpu.compute_path(d).filter(|p| p.used == d).map(|p| p.peak_flops_per_s))
        .fold(0.0, f64::max);
    let peak16 = if peak16 > 0.0 { peak16 } else { path.peak_flops_per_s };
    let compute_share =
        (log_interpolate(&costs.compute_16bit, slice) * peak16 / path.peak_flops_per_s.max(1.0)).min(1.0);
    let mla = a.attention.mla.is_some();
    let layers = u32_sat(layers as u64);
    let extra = moe_layer_extra_kernels(m.shared_intermediate > 0)
        + if mla { MLA_EXTRA_KERNELS * f64::from(u32_sat(a.layers)) / f64::from(layers.max(1)) } else { 0.0 };
    Some(super::moe::MoeRun {
        layers,
        experts: e,
        experts_per_token: m.experts_per_token.min(m.routed_experts) as f64,
        per_gpu: layout.per_gpu as f64,
        moe_tp: layout.moe_tp as f64,
        ep: u32_sat(layout.ep),
        pooled: (layout.ep as f64 / x.tp.max(1) as f64).max(1.0),
        expert_params,
        expert_bytes: shape.expert_weight_bytes / (e * f64::from(layers.max(1))),
        hidden: a.hidden as f64,
        activation_bytes: shape.activation_bytes,
        fixed_s: costs.fixed_s,
        bandwidth_share: log_interpolate(&costs.bandwidth, slice),
        compute_share,
        block_rows: costs.block_rows,
        imbalance: s.expert_imbalance,
        redundant: x.redundant_experts > 0,
        comm: s.ep_comm.unwrap_or(EpComm::Nccl),
        routing_groups: (a.extras.routing_groups as f64, a.extras.groups_per_token as f64),
        extra_kernels: extra,
    })
}

fn phase_report(w: &PhaseWork, t: &PhaseTiming, path: &ComputePath) -> PhaseReport {
    let (dom, ratio) = t.expected.dominant();
    PhaseReport {
        flops: w.flops,
        bytes: w.bytes,
        expected_bytes: w.expected_bytes.max(w.bytes),
        tokens: w.tokens,
        arithmetic_intensity: if w.bytes > 0.0 { w.flops / w.bytes } else { 0.0 },
        ridge_point: t.ridge_point,
        compute_path: path_label(path),
        path: *path,
        bound: t.bound,
        expected: t.expected,
        dominant: dom,
        dominance_ratio: ratio,
        time_s: t.expected.total_s,
        time_s_bound: t.bound.total_s,
        tokens_per_s: t.expected_tokens_per_s,
        tokens_per_s_bound: t.bound_tokens_per_s,
        tensor_parallel_comm_s: t.tensor_parallel_comm_s,
        expert_parallel_comm_s: t.expert_parallel_comm_s,
        data_parallel_sync_s: t.data_parallel_sync_s,
        data_parallel_exposed_s: t.data_parallel_exposed_s,
        pipeline_bubble_fraction: t.pipeline_bubble_fraction,
        moe: t.moe,
        cpu_exposed_s: t.cpu_exposed_s,
        tp_all_reduce: t.tp_all_reduce,
    }
}

fn ratio(n: f64, t: f64) -> f64 {
    if t > 0.0 && (n / t).is_finite() {
        n / t
    } else {
        0.0
    }
}

fn u32_of(v: u64) -> u32 {
    u32_sat(v.max(1))
}

/// Fills the time half of the report and adds its derivations and assumptions. Each step is a
/// function below: [`setup`], [`phases`], [`roofline`], [`scaling`], [`serving`], [`times`],
/// [`throughput`], then [`derivations`] and [`assumptions`].
pub fn performance(
    z: &SizedScenario,
    dv: &mut BTreeMap<DerivKey, Derivation>,
    assumptions_out: &mut Vec<Assumption>,
) -> Result<Performance, ScenarioError> {
    let setup = with_tiers(z, setup(z)?)?;
    let phases = phases(z, &setup)?;
    let speculative = speculative(z, &setup, &phases)?;
    let tpot = Tpot::of(&phases.decode, speculative.as_ref());
    let roofline = roofline(&setup, &phases)?;
    let scaling = scaling(z, &setup, &phases)?;
    let (serving, cost) = serving(z, &setup, &phases, tpot)?;
    let time = times(&setup, &phases, tpot);
    let throughput = throughput(&setup, &phases, &time, serving.concurrency, tpot);
    let training = phases
        .train_timing
        .as_ref()
        .map(|t| training_report(z.scenario, &phases.train_run, t, z.scenario.gpus as f64));
    derivations(z, &setup, &phases, &time, &throughput, dv);
    if let Some(r) = &speculative {
        super::speculative::derivations(r, z.scenario.batch, dv);
    }
    if let (Some(t), Some(r)) = (&phases.train_timing, &training) {
        let mut put = |k: DerivKey, f: Formula, values: Vec<Val>, source: Source| {
            dv.insert(k, Derivation::new(f, values, source));
        };
        training_derivations(&phases.train_run, t, r, z.scenario.gpus, &mut put);
    }
    if let Some(c) = cost {
        dv.insert(DerivKey::ServingCostPerMillion, c);
    }
    assumptions_out.extend(assumptions(z, &setup, &scaling));
    if speculative.is_some() {
        assumptions_out.push(Assumption::SpeculationNotInLoad);
    }
    let s = z.scenario;
    if setup.tiers.is_some() {
        assumptions_out.push(Assumption::KvTiersUniformSequential);
    } else if s.prefix_open_sessions == 0
        && s.kv_cpu_tier_bytes + s.kv_ssd_tier_bytes > 0
        && !z.inputs.trains()
    {
        assumptions_out.push(Assumption::KvTiersWithoutSessions);
    }
    let stack = stack_report(z, &setup, &phases);
    let (bound, bound_ratio) = match &phases.training {
        Some(t) => (t.dominant, t.dominance_ratio),
        None => (phases.decode.dominant, phases.decode.dominance_ratio),
    };
    Ok(Performance {
        hardware: hardware_info(z.scenario, z.gpu, &setup),
        workload: Workload {
            prompt_tokens: setup.prompt,
            output_tokens: setup.output,
            decode_context_tokens: setup.decode_ctx,
            concurrency: serving.concurrency,
            micro_batches: setup.micro_batches,
            expert_parallel: z.scenario.expert_parallel,
        },
        time,
        throughput,
        bound,
        bound_ratio,
        roofline,
        phases: Phases { prefill: phases.prefill, decode: phases.decode, training: phases.training },
        scaling,
        serving,
        efficiency: efficiency_factors(&setup.listed, &setup.overridden, z.gpu),
        stack,
        training,
        speculative,
    })
}

/// The software the times assume ([`StackReport`]).
fn stack_report(z: &SizedScenario, c: &Setup, p: &PhaseSet) -> StackReport {
    let s = z.scenario;
    let run = p.decode_full.moe.as_ref();
    let kernel = run.map(|_| s.moe_kernel.unwrap_or(s.serving_stack.settings().moe_kernel));
    let block_scaled = block_scaled_fp8(z.arch, z.inputs);
    let llama_cpp = z.inputs.weight.file_type().is_some();
    StackReport {
        serving_stack: s.serving_stack,
        settings: s.serving_stack.settings(),
        moe_kernel: kernel,
        moe_costs: kernel.map(|k| k.costs(block_scaled)),
        moe_resolved: run.map(|r| (r.fixed_s, r.bandwidth_share, r.compute_share)),
        ep_comm: s.ep_comm.unwrap_or_default(),
        custom_all_reduce_runs: c.par.custom_all_reduce.is_some()
            && matches!(c.par.tensor, 2 | 4 | 6 | 8)
            && c.par.tensor <= c.topo.gpus_per_node,
        prefill_policy: s.prefill_policy.unwrap_or(s.serving_stack.settings().prefill_policy),
        bench_tool: s.bench_tool,
        expert_imbalance: s.expert_imbalance,
        weight_kernel: s.weight_kernel,
        llama_backend: llama_cpp.then(|| {
            s.llama_backend.unwrap_or(crate::engine::stack::LlamaBackend::default_for(&z.gpu.vendor))
        }),
        llama_moe_tiles: c.moe_tiles,
    }
}

/// What every step shares: hardware path, links, request shape, layout.
struct Setup {
    /// The factors of the compute path in use (`Efficiency::for_path`).
    eff: Efficiency,
    /// The factors as resolved, for the efficiency list.
    listed: Efficiency,
    /// Bandwidth of this weight format's reads relative to a 16-bit read.
    weight_read: f64,
    overridden: Vec<&'static str>,
    path: ComputePath,
    label: String,
    hw: Hardware,
    kind: TopologyKind,
    topo: Topology,
    prompt: u64,
    /// Prompt tokens found in the prefix cache (at most prompt − 1).
    cached: u64,
    /// The prefix cache's hit rate (`memory::prefix::hit_rate`).
    hit_rate: f64,
    output: u64,
    micro_batches: u64,
    dp: u64,
    par: Parallelism,
    batch: f64,
    decode_ctx: f64,
    /// Where the MoE kernel family's costs come from (empty without one).
    moe_source: &'static str,
    /// llama.cpp's prompt processing of an MoE model whose back end pads every expert's tokens
    /// to the micro-batch's tile: the useful share of the experts' tile columns and the
    /// experts' share of the prompt's FLOPs ([`llama_moe_tiles`]).
    moe_tiles: Option<(f64, f64)>,
    /// Where the reused histories are served from, when the scenario gives open sessions
    /// ([`with_tiers`]); `cached` is then its mean.
    tiers: Option<kv_tiers::KvTierReport>,
}

/// A GGUF MoE model's prompt processing on a back end whose `mul_mat_id` pads each expert's
/// tokens to the tile chosen from the micro-batch's total ([`LlamaBackend::moe_token_tile`]):
/// `(u, f_e)`, the useful share of the experts' tile columns `u = n_e / (ceil(n_e/BN)·BN)` with
/// `n_e = n·k/E` tokens per expert of a micro-batch of `n = min(prompt·batch, prefill_chunk_tokens)`
/// (llama.cpp's `n_ubatch`), and the routed experts' share of the active parameters `f_e`.
/// The expected compute fraction becomes `e / ((1 − f_e) + f_e/u)`. Worked: Qwen3-30B-A3B
/// (E 128, k 8) at `-b 256`: n_e = 16 in a 128-column tile, u = 0.125; its experts are 2.42 of
/// 3.34 B active parameters (f_e 0.72): the fraction falls to 0.15 of its dense value.
///
/// [`LlamaBackend::moe_token_tile`]: crate::engine::stack::LlamaBackend::moe_token_tile
pub fn llama_moe_tiles(
    a: &Architecture,
    s: &Scenario,
    gpu: &Gpu,
    counts: &ParamCounts,
) -> Option<(f64, f64)> {
    let m = a.moe.as_ref()?;
    if s.resolved_weight_dtype().file_type().is_none() || m.routed_experts == 0 {
        return None;
    }
    let backend = s.llama_backend.unwrap_or(crate::engine::stack::LlamaBackend::default_for(&gpu.vendor));
    let (prompt, _) = s.resolved_prompt_output();
    let n = (prompt.saturating_mul(s.batch)).min(s.prefill_chunk_tokens).max(1) as f64;
    let tile = backend.moe_token_tile(n)?;
    let per_expert = n * m.experts_per_token.min(m.routed_experts) as f64 / m.routed_experts as f64;
    let padded = (per_expert / tile).ceil().max(1.0) * tile;
    let active_experts = counts.active as f64 - (counts.total - counts.experts) as f64;
    let f_e = (active_experts / counts.active.max(1) as f64).clamp(0.0, 1.0);
    Some(((per_expert / padded).clamp(1e-3, 1.0), f_e))
}

/// The time model's own input checks: the efficiency overrides (resolved, with the names of
/// those the scenario overrode) and the Tensor Core path of the compute dtype on this GPU.
/// `fit::memory_fit_with` runs them too, so that it accepts exactly what `evaluate` accepts.
pub(crate) fn time_model_inputs(
    s: &Scenario,
    gpu: &Gpu,
    published: Option<&Quantization>,
    mla: bool,
) -> Result<(Efficiency, Vec<&'static str>, ComputePath), ScenarioError> {
    let (mut eff, overridden) = s.efficiency.resolve_for(&gpu.efficiency)?;
    stack_efficiency(s, gpu, mla, &mut eff, &overridden);
    let path = gpu
        .compute_path(s.compute_dtype_on(gpu, published))
        .ok_or_else(|| ScenarioError::new("gpu.peak_flops", ErrorKind::NoUsablePeak))?;
    if s.mode != Mode::Inference {
        check_training_gpu(s, gpu)?;
    }
    Ok((eff, overridden, path))
}

/// The factors the scenario's software sets where the reader did not override them: the serving
/// stack's CPU share of a step, its host time per speculative draft pass and, on an MLA model, its per-request fixed cost where the stack
/// has a measured one ([`crate::engine::stack::ServingStack::settings`]), the named
/// weight-only kernel's share of bandwidth on quantised weights
/// ([`crate::engine::stack::WeightKernel::read_share`]), and on an RDNA GPU llama.cpp's back end's
/// share of the 16-bit peak in prompt processing ([`crate::engine::stack::LlamaBackend::prompt_share`]).
fn stack_efficiency(s: &Scenario, gpu: &Gpu, mla: bool, eff: &mut Efficiency, overridden: &[&str]) {
    let free = |f: &str| !overridden.contains(&f);
    let stack = s.serving_stack.settings();
    if free("cpu_share_of_step") {
        eff.cpu_share_of_step = stack.cpu_share_of_step;
    }
    if free("draft_pass_host_s") {
        eff.draft_pass_host_s = stack.draft_pass_host_s;
    }
    if free("decode_graph_max_batch") {
        eff.decode_graph_max_batch =
            s.serving_stack.decode_graph_max_batch(gpu.memory_bytes as f64, u32_sat(s.tensor_parallel));
    }
    if let Some(t) = stack.mla_request_overhead_s.filter(|_| mla && free("request_overhead_s")) {
        eff.request_overhead_s = t;
    }
    if let Some(k) = s.weight_kernel.filter(|_| free("quantized_weight_bandwidth")) {
        eff.quantized_weight_bandwidth = k.read_share(&gpu.architecture);
    }
    if let Some((_, _, share)) = llama_prompt_share(s, gpu) {
        if free("tensor_flops") {
            eff.tensor_flops = share;
        }
        // The share is of the 16-bit peak; on a GPU whose int8 peak is higher the MMQ path's
        // fraction of that peak is smaller by their ratio.
        let peak = |d| gpu.compute_path(d).filter(|p| p.used == d).map_or(0.0, |p| p.peak_flops_per_s);
        let (p16, p8) = (peak(ComputeDtype::Fp16), peak(ComputeDtype::Int8));
        if free("quantized_matmul_flops") && p16 > 0.0 {
            eff.quantized_matmul_flops = if p8 > p16 { share * p16 / p8 } else { share };
        }
    }
}

/// llama.cpp's back end on an RDNA GPU and the share of the 16-bit peak its prompt processing
/// reaches there ([`crate::engine::stack::LlamaBackend::prompt_share`]); `None` for a model that is
/// not a llama.cpp file type, outside RDNA, or on a back end that keeps the engine's fractions.
pub(crate) fn llama_prompt_share(
    s: &Scenario,
    gpu: &Gpu,
) -> Option<(crate::engine::stack::LlamaBackend, crate::engine::stack::Rdna, f64)> {
    s.resolved_weight_dtype().file_type()?;
    let generation = crate::engine::stack::Rdna::of(&gpu.architecture)?;
    let backend = s.llama_backend.unwrap_or(crate::engine::stack::LlamaBackend::default_for(&gpu.vendor));
    Some((backend, generation, backend.prompt_share(generation)?))
}

/// The model as the time formulas see it, context-free ([`weight_shape`]), with its routed
/// experts as the serving stack runs them ([`moe_run`]); [`at_context`] sizes it for a context.
pub fn served_shape(z: &SizedScenario, path: &ComputePath) -> ModelShape {
    let mut shape = weight_shape(z.arch, z.counts, z.inputs);
    shape.moe = moe_run(z.arch, z.inputs, z.scenario, z.gpu, path, &shape);
    shape
}

/// Step 1: the compute path, the links, the request shape and the layout.
fn setup(z: &SizedScenario) -> Result<Setup, ScenarioError> {
    let (s, x, gpu) = (z.scenario, z.inputs, z.gpu);
    let (listed, overridden, path) =
        time_model_inputs(s, gpu, z.published(), z.arch.attention.mla.is_some())?;
    let eff = listed.for_path_and_weights(path.used, x.weight);
    let weight_read = listed.weight_read_factor(x.weight, path.used);
    let hw = Hardware {
        peak_flops_per_s: path.peak_flops_per_s,
        memory_bandwidth_bytes_per_s: gpu.memory_bandwidth_bytes_per_s,
    };
    let kind = s.topology.unwrap_or_else(|| TopologyKind::default_for(gpu));
    let topo = kind.topology_for(gpu, u32_of(s.gpus_per_node), u32_of(s.gpus), z.lookup);
    let (prompt, output) = s.resolved_prompt_output();
    let dp = x.replicas();
    let par = Parallelism {
        tensor: u32_of(x.tp),
        pipeline: u32_of(x.pp),
        data: u32_of(dp),
        expert: u32_of(s.expert_parallel),
        micro_batches: 1,
        custom_all_reduce: (!x.trains()
            && s.custom_all_reduce
            && kind.fully_connected(gpu, u32_of(s.gpus_per_node), u32_of(s.gpus)))
        .then(|| s.serving_stack.custom_all_reduce()),
    };
    Ok(Setup {
        eff,
        listed,
        weight_read,
        overridden,
        label: path_label(&path),
        path,
        hw,
        kind,
        topo,
        prompt,
        cached: crate::engine::memory::prefix::scenario_cached_tokens(s).min(prompt.saturating_sub(1)),
        hit_rate: crate::engine::memory::prefix::hit_rate(s),
        output,
        micro_batches: s.resolved_micro_batches(),
        dp,
        par,
        batch: x.batch as f64,
        decode_ctx: prompt as f64 + output as f64 / 2.0,
        moe_tiles: llama_moe_tiles(z.arch, s, gpu, z.counts),
        moe_source: s
            .moe_kernel
            .unwrap_or(s.serving_stack.settings().moe_kernel)
            .costs(block_scaled_fp8(z.arch, x))
            .source,
        tiers: None,
    })
}

/// The phases in full, with what the later steps reuse.
struct PhaseSet {
    prefill: PhaseReport,
    decode: PhaseReport,
    training: Option<PhaseReport>,
    /// What the kernels in sequence and the activation traffic add, per phase (seconds).
    prefill_extra: FullLoad,
    decode_extra: FullLoad,
    training_extra: FullLoad,
    /// Partial offload: what is in host memory, the links, and each phase's host seconds.
    host: offload::HostShare,
    link: offload::HostLink,
    /// The whole model's decode shape (the host part is measured against it).
    decode_full: ModelShape,
    prefill_host: offload::HostTime,
    decode_host: offload::HostTime,
    /// The training step's inputs (full training's for an inference scenario: the scaling
    /// curves use them) and, when training, its timing.
    train_run: TrainingRun,
    train_timing: Option<TrainingTiming>,
}

/// The two full-load terms of a phase's expected time ([`PhaseTiming`]'s
/// `kernel_sequence_s` and `activation_traffic_s`), kept for its derivation.
#[derive(Clone, Copy, Default)]
struct FullLoad {
    sequence_s: f64,
    activation_s: f64,
}

impl FullLoad {
    fn of(t: &PhaseTiming) -> FullLoad {
        FullLoad { sequence_s: t.kernel_sequence_s, activation_s: t.activation_traffic_s }
    }
}

/// Gradient and optimizer-state bytes for `trainable` parameters trained in `dtype`.
fn train_states(z: &SizedScenario, trainable: u128, dtype: Dtype) -> (f64, f64) {
    let x = z.inputs;
    let grad_elem = if x.full_training() {
        small_tensor_dtype(crate::engine::memory::model_states::full_gradient_dtype(x)).bytes_for(1, 1)
    } else {
        adapter_dtype(x.precision).bytes_for(1, 1)
    };
    (
        (trainable * grad_elem) as f64,
        (trainable * optimizer_bytes_per_param(z.scenario.optimizer, x.precision, dtype)) as f64,
    )
}

/// The factors of an inference phase whose weight reads run at `c.weight_read` of the
/// bandwidth (dequantising kernels), the rest of its traffic at the full fraction.
fn weight_reads(c: &Setup, shape: &ModelShape, w: &PhaseWork) -> Efficiency {
    // The routed experts' reads, when their kernel family times them, are not in this stream.
    let (_, _, experts) = shape.routed_expert_work(w.tokens);
    let total = w.expected_bytes.max(w.bytes) - experts;
    let weights = shape.expected_weight_bytes(w.tokens) - experts;
    let share = if total > 0.0 { weights / total } else { 0.0 };
    c.eff.with_weight_reads(share, c.weight_read)
}

/// A phase's timing with the host part of partial offload after the GPU's
/// ([`offload::host_time`]); throughput over the longer time.
fn with_host(mut t: PhaseTiming, h: &offload::HostTime, tokens: f64, replicas: f64) -> PhaseTiming {
    if h.bound_s <= 0.0 && h.expected_s <= 0.0 {
        return t;
    }
    t.bound = t.bound.plus_host(h.bound_s);
    t.expected = t.expected.plus_host(h.expected_s);
    let rate = |total: f64| {
        if total > 0.0 && (tokens * replicas / total).is_finite() {
            tokens * replicas / total
        } else {
            0.0
        }
    };
    t.bound_tokens_per_s = rate(t.bound.total_s);
    t.expected_tokens_per_s = rate(t.expected.total_s);
    t
}

/// One inference phase (prefill or a decode step) timed as the GPU runs it, with partial
/// offload's host part after it.
struct Timed {
    work: PhaseWork,
    timing: PhaseTiming,
    host: offload::HostTime,
}

/// What partial offload puts in host memory, and the links to it.
struct Offloaded {
    share: offload::HostShare,
    link: offload::HostLink,
}

impl Offloaded {
    fn of(z: &SizedScenario) -> Offloaded {
        Offloaded { share: offload::share_of(z.arch, z.inputs), link: offload::link_of(z.scenario, z.gpu) }
    }

    /// The GPU's share of `m` for a pass whose host part is `t` (all of it when nothing is in
    /// host memory, or when a unified-memory GPU multiplies the host's weights after copying them
    /// into its buffers).
    fn gpu_part(&self, m: &ModelShape, t: &offload::HostTime) -> ModelShape {
        let all_on_gpu = t.op_offload && self.link.pcie_bytes_per_s.is_none();
        if self.share.is_empty() || all_on_gpu {
            m.clone()
        } else {
            offload::gpu_part(m, &self.share)
        }
    }
}

/// Prefill of the scenario's prompts, timed ([`Timed`]).
/// With a prefix cache only the `prompt − cached` new tokens are computed, their attention
/// reading the `cached` ones (`memory::prefix`).
fn timed_prefill(c: &Setup, o: &Offloaded, full: &ModelShape, cached: u64) -> Result<Timed, ScenarioError> {
    let cached = cached.min(c.prompt.saturating_sub(1));
    let (new, past) = ((c.prompt - cached) as f64, cached as f64);
    let tokens = new * c.batch;
    let host = offload::host_time(full, &o.share, tokens, c.batch, past, &o.link, &c.eff);
    let gpu = o.gpu_part(full, &host);
    let work = prefill_work(&gpu, new, c.batch, past).map_err(pe)?;
    let mut eff = weight_reads(c, &gpu, &work);
    if let Some((u, f_e)) = c.moe_tiles {
        eff.tensor_flops /= (1.0 - f_e) + f_e / u;
    }
    let t = phase_timing(&work, &gpu, Phase::Prefill, &c.hw, &c.par, &c.topo, &eff).map_err(pe)?;
    Ok(Timed { timing: with_host(t, &host, work.tokens, c.dp as f64), work, host })
}

/// A decode step of `batch` sequences at the average cached context, timed ([`Timed`]).
fn timed_decode(c: &Setup, o: &Offloaded, full: &ModelShape, batch: f64) -> Result<Timed, ScenarioError> {
    let host = offload::host_time(full, &o.share, batch, batch, c.decode_ctx, &o.link, &c.eff);
    let gpu = o.gpu_part(full, &host);
    let work = decode_step_work(&gpu, batch, c.decode_ctx).map_err(pe)?;
    let eff = weight_reads(c, &gpu, &work);
    let t = phase_timing(&work, &gpu, Phase::Decode, &c.hw, &c.par, &c.topo, &eff).map_err(pe)?;
    Ok(Timed { timing: with_host(t, &host, work.tokens, c.dp as f64), work, host })
}

/// Expected and bound decode rates (tokens/s) of the scenario's average decode step, without
/// the rest of the time model: for questions asked of many scenarios at once (what runs on a
/// machine).
pub fn decode_rates(z: &SizedScenario) -> Result<(f64, f64), ScenarioError> {
    let c = setup(z)?;
    let full = at_context(&served_shape(z, &c.path), z.arch, z.inputs, u64_from_f64(c.decode_ctx.round()));
    let d = timed_decode(&c, &Offloaded::of(z), &full, c.batch)?;
    Ok((d.timing.expected_tokens_per_s, d.timing.bound_tokens_per_s))
}

/// Step 1b: KV tiers, when the scenario gives open sessions: which tier serves what share of the
/// reused histories, restored when that beats recomputing them ([`kv_tiers`]); the request's
/// cached tokens become the mean over the tiers.
fn with_tiers(z: &SizedScenario, mut c: Setup) -> Result<Setup, ScenarioError> {
    let s = z.scenario;
    let shared = crate::engine::memory::prefix::shared_block_tokens(s).min(c.cached);
    let history = c.cached - shared;
    if s.prefix_open_sessions == 0 || history == 0 || z.inputs.trains() {
        return Ok(c);
    }
    let (a, x) = (z.arch, z.inputs);
    let kv = |tokens: u64| crate::engine::memory::sequence_kv_bytes(a, x, tokens) as f64;
    let o = Offloaded::of(z);
    let shape = at_context(&served_shape(z, &c.path), a, x, c.prompt);
    let prefill = |cached| timed_prefill(&c, &o, &shape, cached).map(|t| t.timing.expected.total_s);
    let recompute_s = (prefill(shared)? - prefill(c.cached)?).max(0.0);
    let pcie = z.gpu.pcie_bytes_per_s_per_direction().unwrap_or(offload::PCIE4_X16);
    let tier = |bytes: u64, rate: Option<f64>, default: f64, share: f64, per_copy_s: f64| {
        (bytes > 0).then(|| kv_tiers::Tier {
            capacity_bytes: bytes as f64,
            bytes_per_s: rate.unwrap_or(default),
            share,
            per_copy_s,
        })
    };
    let block = s.kv_block_tokens.max(1);
    let plan = kv_tiers::plan(&kv_tiers::TierInputs {
        sessions: s.prefix_open_sessions,
        session_bytes: kv((c.prompt + c.output).saturating_sub(shared)),
        gpu_room_bytes: s.kv_gpu_cache_bytes.map_or(z.gpu_room, |b| u128::from(b).min(z.gpu_room)) as f64,
        cpu: tier(
            s.kv_cpu_tier_bytes,
            s.kv_cpu_tier_bytes_per_s,
            pcie,
            c.eff.pcie_bandwidth,
            kv_tiers::COPY_OVERHEAD_S,
        ),
        ssd: tier(
            s.kv_ssd_tier_bytes,
            s.kv_ssd_tier_bytes_per_s,
            kv_tiers::DEFAULT_SSD_BYTES_PER_S,
            kv_tiers::SSD_READ_SHARE,
            0.0,
        ),
        batch: c.batch,
        history_tokens: history,
        history_bytes: kv(history),
        copies: history.div_ceil(block) as f64,
        recompute_s,
    });
    c.cached = shared + u64_from_f64(plan.kept_history_tokens.round()).min(history);
    c.tiers = Some(plan);
    Ok(c)
}

/// The mean cached tokens per request and the mean restore seconds per request under the
/// scenario's KV tiers (the load model's prompts), or `None` without open sessions.
pub fn tiered_prompt(z: &SizedScenario) -> Result<Option<(u64, f64)>, ScenarioError> {
    let c = with_tiers(z, setup(z)?)?;
    Ok(c.tiers.map(|t| (c.cached, t.restore_s / c.batch.max(1.0))))
}

/// Step 2: prefill, the average decode step and (when training) the training step.
fn phases(z: &SizedScenario, c: &Setup) -> Result<PhaseSet, ScenarioError> {
    let (s, a, x) = (z.scenario, z.arch, z.inputs);
    let (hw, topo) = (&c.hw, &c.topo);
    // Partial offload: the GPU times its own share; the host's runs after it.
    let offloaded = Offloaded::of(z);
    let base = served_shape(z, &c.path);
    let pre_shape = at_context(&base, a, x, c.prompt);
    let dec_shape = at_context(&base, a, x, u64_from_f64(c.decode_ctx.round()));
    let Timed { work: pre_w, timing: pre_t, host: pre_host, .. } =
        timed_prefill(c, &offloaded, &pre_shape, c.cached)?;
    let Timed { work: dec_w, timing: dec_t, host: dec_host, .. } =
        timed_decode(c, &offloaded, &dec_shape, c.batch)?;
    let Offloaded { share, link } = offloaded;

    let full_recompute = s.recompute == Recompute::Full;
    let lora = matches!(s.mode, Mode::Lora | Mode::Qlora);
    let (grad, opt) =
        train_states(z, z.trainable, if x.full_training() { x.weight } else { adapter_dtype(x.precision) });
    let train_shape = at_context(&ModelShape { moe: None, ..base }, a, x, s.context_tokens);
    let train_run = training_run(z, &train_shape);
    let training = if x.trains() {
        let mut w = training_step_work(
            &train_shape,
            c.batch * c.micro_batches as f64,
            s.context_tokens as f64,
            full_recompute,
            grad,
            opt,
        )
        .map_err(pe)?;
        if lora {
            // No weight gradients for the frozen base: one backward pass of two (or three of four).
            let passes = if full_recompute { 4.0 } else { 3.0 };
            w.flops *= (passes - 1.0) / passes;
        }
        let t = training_step(
            &train_run.shape,
            &train_run.layout,
            &train_run.hw,
            topo,
            &c.listed,
            &train_run.settings,
        )
        .map_err(pe)?;
        Some((training_phase_report(&w, &t, &c.path, hw), t))
    } else {
        None
    };
    Ok(PhaseSet {
        prefill: phase_report(&pre_w, &pre_t, &c.path),
        decode: phase_report(&dec_w, &dec_t, &c.path),
        training_extra: FullLoad::default(),
        train_timing: training.as_ref().map(|t| t.1),
        training: training.map(|t| t.0),
        prefill_extra: FullLoad::of(&pre_t),
        decode_extra: FullLoad::of(&dec_t),
        host: share,
        link,
        decode_full: dec_shape,
        prefill_host: pre_host,
        decode_host: dec_host,
        train_run,
    })
}

/// The training phase as the report shows it: its FLOPs and bytes ([`training_step_work`]) with
/// the operation model's times ([`training_step`]).
fn training_phase_report(
    w: &PhaseWork,
    t: &TrainingTiming,
    path: &ComputePath,
    hw: &Hardware,
) -> PhaseReport {
    // The training model prices a step's operations itself: no serving stack's CPU share, no
    // kernel-sequence or activation-traffic terms of the inference phases, and its grouped
    // expert GEMMs are in its own breakdown.
    let timing = PhaseTiming {
        bound: t.bound,
        expected: t.expected,
        bound_tokens_per_s: t.tokens_per_s_bound,
        expected_tokens_per_s: t.tokens_per_s,
        arithmetic_intensity: if w.bytes > 0.0 { w.flops / w.bytes } else { 0.0 },
        ridge_point: if hw.memory_bandwidth_bytes_per_s > 0.0 {
            hw.peak_flops_per_s / hw.memory_bandwidth_bytes_per_s
        } else {
            0.0
        },
        pipeline_bubble_fraction: t.pipeline_bubble_fraction,
        tensor_parallel_comm_s: t.tensor_parallel_comm_s,
        expert_parallel_comm_s: t.expert_parallel_comm_s,
        data_parallel_sync_s: t.data_parallel_sync_s,
        data_parallel_exposed_s: t.data_parallel_exposed_s,
        kernel_sequence_s: 0.0,
        activation_traffic_s: 0.0,
        moe: None,
        cpu_exposed_s: 0.0,
        tp_all_reduce: None,
    };
    phase_report(w, &timing, path)
}

/// Step 3: the phases on the roofline, and the decode point moving with batch.
fn roofline(c: &Setup, p: &PhaseSet) -> Result<Roofline, ScenarioError> {
    let hw = &c.hw;
    let gpu_share = f64::from(c.par.tensor) * f64::from(c.par.pipeline);
    let named =
        [("prefill", Some(&p.prefill)), ("decode", Some(&p.decode)), ("training", p.training.as_ref())];
    let points = named
        .into_iter()
        .filter_map(|(name, ph)| ph.map(|ph| (name, ph)))
        .map(|(name, ph)| RooflinePoint {
            phase: name.into(),
            arithmetic_intensity: ph.arithmetic_intensity,
            attainable_flops_per_s: attainable_flops(
                ph.arithmetic_intensity,
                hw.peak_flops_per_s,
                hw.memory_bandwidth_bytes_per_s,
            )
            .unwrap_or(0.0),
            expected_flops_per_s: ratio(ph.flops / gpu_share, ph.time_s),
        })
        .collect();
    let mut decode_by_batch = Vec::with_capacity(11);
    for i in 0..=10 {
        let b = 1u64 << i;
        let o = Offloaded { share: p.host, link: p.link };
        let Timed { work: w, timing: t, .. } = timed_decode(c, &o, &p.decode_full, b as f64)?;
        decode_by_batch.push(DecodeBatchPoint {
            batch: b,
            arithmetic_intensity: if w.bytes > 0.0 { w.flops / w.bytes } else { 0.0 },
            tokens_per_s: t.expected_tokens_per_s,
            tokens_per_s_bound: t.bound_tokens_per_s,
            dominant: t.expected.dominant().0,
        });
    }
    Ok(Roofline {
        peak_flops_per_s: hw.peak_flops_per_s,
        memory_bandwidth_bytes_per_s: hw.memory_bandwidth_bytes_per_s,
        ridge_point: p.decode.ridge_point,
        compute_path: c.label.clone(),
        path: c.path,
        points,
        decode_by_batch,
    })
}

/// Step 4: scaling curves of a training step (full training when the scenario is inference).
fn scaling(z: &SizedScenario, c: &Setup, p: &PhaseSet) -> Result<ScalingCurves, ScenarioError> {
    let s = z.scenario;
    let m_s = c.micro_batches.clamp(8, 1 << 20) as u32;
    let counts = default_gpu_counts();
    // Tensor parallelism only at the degrees the engine accepts (they split the heads).
    let tp_counts: Vec<u32> = counts
        .iter()
        .copied()
        .filter(|&n| crate::engine::solvers::tp_allowed(z.arch, u64::from(n)))
        .collect();
    let curve = |st| {
        let counts = if st == Strategy::Tensor { &tp_counts } else { &counts };
        scaling_curve(st, &p.train_run, f64::from(m_s), &c.topo, &c.listed, counts).map_err(pe)
    };
    let (data, tensor, pipeline) =
        (curve(Strategy::Data)?, curve(Strategy::Tensor)?, curve(Strategy::Pipeline)?);
    Ok(ScalingCurves {
        phase: "training_step".into(),
        sequences: c.batch * f64::from(m_s),
        seq_len: s.context_tokens as f64,
        micro_batches: m_s,
        topology: c.kind.name().into(),
        communication_dominates_from: CommunicationDominates {
            data: communication_dominates_from(&data),
            tensor: communication_dominates_from(&tensor),
            pipeline: communication_dominates_from(&pipeline),
        },
        data,
        tensor,
        pipeline,
    })
}

/// Step 5: serving numbers and cost, with the cost's derivation when there is a price.
fn serving(
    z: &SizedScenario,
    c: &Setup,
    p: &PhaseSet,
    tpot: Tpot,
) -> Result<(Serving, Option<Derivation>), ScenarioError> {
    let s = z.scenario;
    let concurrency = z.inputs.batch.saturating_mul(c.dp);
    let (price, price_source) = match s.price_per_gpu_hour {
        Some(p) => (Some(p), Some("scenario".to_owned())),
        None => z
            .lookup
            .price_per_gpu_hour(&z.gpu.id)
            .map_or((None, None), |p| (Some(p.usd_per_gpu_hour), Some(p.source))),
    };
    let deployment_price = price.map(|p| p * s.gpus as f64);
    let sv = serving_estimate(
        p.prefill.time_s,
        tpot.expected_s,
        concurrency as f64,
        c.output as f64,
        deployment_price,
    )
    .map_err(pe)?;
    let cost = price.map(|usd| {
        let source = match s.price_per_gpu_hour {
            Some(_) => Source::ScenarioInput,
            None => Source::Cited(price_source.clone().unwrap_or_default()),
        };
        Derivation::new(
            Formula::CostPerMillion,
            vec![
                Val::Usd(usd),
                Val::int(s.gpus),
                Val::TokenRate(sv.aggregate_tokens_per_s),
                Val::Usd(sv.cost_per_million_tokens.unwrap_or(0.0)),
            ],
            source,
        )
    });
    let serving = Serving { concurrency, estimate: sv, price_per_gpu_hour: price, price_source };
    Ok((serving, cost))
}

/// The time per output token: the decode step's, or with speculative decoding `T_step / E`
/// ([`super::speculative`]).
#[derive(Clone, Copy)]
struct Tpot {
    expected_s: f64,
    bound_s: f64,
}

impl Tpot {
    fn of(dec: &PhaseReport, spec: Option<&SpeculativeReport>) -> Tpot {
        match spec {
            Some(r) => {
                Tpot { expected_s: r.time_per_output_token_s, bound_s: r.time_per_output_token_s_bound }
            }
            None => Tpot { expected_s: dec.time_s, bound_s: dec.time_s_bound },
        }
    }
}

/// Step 2b: speculative decoding, when the scenario asks for it: the verify pass, the drafter's
/// passes and the plain decode step at the scenario's batch and at batches 1 to 512
/// ([`super::speculative`]).
fn speculative(
    z: &SizedScenario,
    c: &Setup,
    p: &PhaseSet,
) -> Result<Option<SpeculativeReport>, ScenarioError> {
    use super::speculative::{drafter_shape, verify_step_work, SpecBatchPoint, StepTimes};
    let Some(spec) = z.scenario.speculation() else { return Ok(None) };
    let x = z.inputs;
    let ctx = u64_from_f64(c.decode_ctx.round());
    let draft = z.draft.map(|d| at_context(&weight_shape(d, &count_params(d), x), d, x, ctx));
    let bytes_per_param = x.weight.bytes_for(1 << 20, x.group) as f64 / f64::from(1u32 << 20);
    let target = &p.decode_full;
    let drafter = drafter_shape(&spec, z.arch, z.counts, target, draft.as_ref(), bytes_per_param);
    let n = spec.draft_tokens as f64 + 1.0;
    let timed = |w: &PhaseWork, m: &ModelShape| {
        phase_timing(w, m, Phase::Decode, &c.hw, &c.par, &c.topo, &weight_reads(c, m, w)).map_err(pe)
    };
    let at = |b: f64| -> Result<StepTimes, ScenarioError> {
        let dec = timed(&decode_step_work(target, b, c.decode_ctx).map_err(pe)?, target)?;
        let ver = timed(&verify_step_work(target, b, c.decode_ctx, n).map_err(pe)?, target)?;
        // A draft pass: its GPU time, and the host's floor (the stack's per-pass glue, or the
        // eager launches past the stack's largest decode graph, whichever is longer).
        let (draft_gpu_s, draft_s_bound, draft_host_s, draft_eager) = match &drafter {
            Some(d) => {
                let w = decode_step_work(d, b, c.decode_ctx).map_err(pe)?;
                let eff = Efficiency { decode_graph_max_batch: 0.0, ..weight_reads(c, d, &w) };
                let t = phase_timing(&w, d, Phase::Decode, &c.hw, &c.par, &c.topo, &eff).map_err(pe)?;
                let eager = c.eff.eager_host_s(kernels_per_pass(d, 1, &c.eff), b);
                let eager_floor = eager > c.eff.draft_pass_host_s;
                (t.expected.total_s, t.bound.total_s, c.eff.draft_pass_host_s.max(eager), eager_floor)
            }
            None => (0.0, 0.0, 0.0, false),
        };
        Ok(StepTimes {
            verify_s: ver.expected.total_s,
            verify_s_bound: ver.bound.total_s,
            draft_s: draft_gpu_s.max(draft_host_s),
            draft_gpu_s,
            draft_host_s,
            draft_eager,
            draft_s_bound,
            decode_s: dec.expected.total_s,
            decode_s_bound: dec.bound.total_s,
        })
    };
    let gpus = f64::from(c.par.tensor) * f64::from(c.par.pipeline);
    let mut by_batch = Vec::with_capacity(10);
    for i in 0..10 {
        let b = 1u64 << i;
        by_batch.push(SpecBatchPoint::of(b, &at(b as f64)?, &spec, gpus));
    }
    let (w, kv) = crate::engine::memory::speculative::per_gpu(&x.drafter, x);
    let n64 = |v: u128| u64::try_from(v).unwrap_or(u64::MAX);
    let drafter_bytes = (n64(x.drafter.params), n64(w), n64(kv));
    Ok(Some(SpeculativeReport::new(&spec, at(c.batch)?, by_batch, drafter_bytes)))
}

/// Step 6: the headline times.
fn times(c: &Setup, p: &PhaseSet, tpot: Tpot) -> Times {
    let (pre, dec) = (&p.prefill, &p.decode);
    Times {
        prefill_s: pre.time_s,
        prefill_s_bound: pre.time_s_bound,
        decode_step_s: dec.time_s,
        decode_step_s_bound: dec.time_s_bound,
        step_s: p.training.as_ref().map(|t| t.time_s),
        step_s_bound: p.training.as_ref().map(|t| t.time_s_bound),
        time_to_first_token_s: pre.time_s + restore_s(c) + c.eff.request_overhead_s,
        time_per_output_token_s: tpot.expected_s,
        generation_s: pre.time_s + c.output as f64 * tpot.expected_s,
        generation_s_bound: pre.time_s_bound + c.output as f64 * tpot.bound_s,
        prefix_cached_tokens: c.cached,
        prefix_hit_rate: c.hit_rate,
        kv_tiers: c.tiers,
    }
}

/// The mean restore from the KV tiers added to a prefill (0 without tiers).
fn restore_s(c: &Setup) -> f64 {
    c.tiers.map_or(0.0, |t| t.restore_s)
}

/// Step 7: tokens per second.
fn throughput(c: &Setup, p: &PhaseSet, time: &Times, concurrency: u64, tpot: Tpot) -> Throughput {
    let (pre, dec) = (&p.prefill, &p.decode);
    let out_total = concurrency as f64 * c.output as f64;
    // Without speculation `b·dp / TPOT` is the decode phase's own rate.
    let (speculating, seqs) = (tpot.expected_s != dec.time_s, c.batch * c.dp as f64);
    Throughput {
        decode_tokens_per_s: if speculating { ratio(seqs, tpot.expected_s) } else { dec.tokens_per_s },
        decode_tokens_per_s_bound: if speculating {
            ratio(seqs, tpot.bound_s)
        } else {
            dec.tokens_per_s_bound
        },
        prefill_tokens_per_s: pre.tokens_per_s,
        prefill_tokens_per_s_bound: pre.tokens_per_s_bound,
        per_user_tokens_per_s: ratio(1.0, tpot.expected_s),
        per_user_tokens_per_s_bound: ratio(1.0, tpot.bound_s),
        generation_tokens_per_s: ratio(out_total, time.generation_s),
        generation_tokens_per_s_bound: ratio(out_total, time.generation_s_bound),
        tokens_per_s: p.training.as_ref().map(|t| t.tokens_per_s),
        tokens_per_s_bound: p.training.as_ref().map(|t| t.tokens_per_s_bound),
    }
}

/// The GPU and links used.
fn hardware_info(s: &Scenario, gpu: &Gpu, c: &Setup) -> HardwareInfo {
    let link = offload::link_of(s, gpu);
    HardwareInfo {
        host_memory_bandwidth_bytes_per_s: link.host_bytes_per_s,
        pcie_bytes_per_s_per_direction: link.pcie_bytes_per_s,
        memory_kind: gpu.memory_kind,
        gpu: gpu.id.clone(),
        gpu_name: gpu.name.clone(),
        memory_bandwidth_bytes_per_s: gpu.memory_bandwidth_bytes_per_s,
        peak_flops_per_s: c.path.peak_flops_per_s,
        compute_path: c.label.clone(),
        path: c.path,
        uncertain: gpu.uncertain.clone(),
        source: gpu.source.clone(),
        retrieved: gpu.retrieved.clone(),
        topology: c.kind.name().into(),
        gpus_per_node: c.topo.gpus_per_node,
        intra_node_bytes_per_s_per_direction: c.topo.intra_node.bytes_per_s_per_direction,
        intra_node_latency_s: c.topo.intra_node.latency_s,
        inter_node_bytes_per_s_per_direction: c.topo.inter_node.map(|l| l.bytes_per_s_per_direction),
        inter_node_latency_s: c.topo.inter_node.map(|l| l.latency_s),
    }
}

/// What the time half assumes.
fn assumptions(z: &SizedScenario, c: &Setup, sc: &ScalingCurves) -> Vec<Assumption> {
    let e = &c.eff;
    let mut out = vec![
        Assumption::TimeModel {
            memory_bandwidth: e.memory_bandwidth,
            tensor_flops: e.tensor_flops,
            kernel_launch_us: e.kernel_launch_s * 1e6,
            kernels_per_layer: e.kernels_per_layer,
        },
        Assumption::DecodeAtAverageStep { prompt: c.prompt, output: c.output, cached: c.decode_ctx },
        Assumption::FirstTokenFixedCost { ms: e.request_overhead_s * 1e3 },
    ];
    if c.weight_read < 1.0 {
        out.push(Assumption::DequantisedWeightReads { dtype: z.inputs.weight, factor: c.weight_read });
    }
    if matches!(c.path.used, ComputeDtype::Fp8 | ComputeDtype::Int8 | ComputeDtype::Fp4) {
        out.push(Assumption::LowPrecisionPath { tensor_flops: c.eff.tensor_flops });
    }
    if matches!(z.scenario.mode, Mode::Lora | Mode::Qlora) {
        out.push(Assumption::LoraStepFlops);
    }
    out.push(Assumption::ScalingCurves {
        sequences: sc.sequences,
        seq_len: sc.seq_len,
        micro_batches: sc.micro_batches,
        topology: c.kind.name().into(),
    });
    out
}

fn efficiency_factors(eff: &Efficiency, overridden: &[&str], gpu: &Gpu) -> Vec<EfficiencyFactor> {
    let defaults = Efficiency::default();
    let device = gpu.efficiency.resolve().map(|(e, _)| e).unwrap_or_else(|_| defaults.clone());
    Factor::ALL
        .into_iter()
        .map(|f| EfficiencyFactor {
            factor: f,
            field: f.field().into(),
            value: f.value(eff),
            default: f.value(&device),
            estimate: f.is_estimate(),
            overridden: overridden.contains(&f.field()),
            device: f.value(&device) != f.value(&defaults),
        })
        .collect()
}

/// Step 8: how each time number was obtained, in named steps: the hardware, each phase, the
/// headline times, the throughputs.
fn derivations(
    z: &SizedScenario,
    c: &Setup,
    p: &PhaseSet,
    time: &Times,
    tp: &Throughput,
    dv: &mut BTreeMap<DerivKey, Derivation>,
) {
    let mut put = |k: DerivKey, f: Formula, values: Vec<Val>, source: Source| {
        dv.insert(k, Derivation::new(f, values, source));
    };
    hardware_derivations(z, c, p, &mut put);
    let e = &c.eff;
    phase_derivations(z.scenario, e, PhaseName::Prefill, &p.prefill, p.prefill_extra, &mut put);
    phase_derivations(z.scenario, e, PhaseName::Decode, &p.decode, p.decode_extra, &mut put);
    for (name, h) in [(PhaseName::Prefill, &p.prefill_host), (PhaseName::Decode, &p.decode_host)] {
        if h.expected_s > 0.0 {
            host_derivation(name, h, &p.link, e, &mut put);
        }
    }
    for (name, ph) in [(PhaseName::Prefill, &p.prefill), (PhaseName::Decode, &p.decode)] {
        if let (Some(m), Some(run)) = (&ph.moe, p.decode_full.moe.as_ref()) {
            moe_derivation(z.scenario, name, m, run, c, &mut put);
            if let Some(x) = &m.exchange {
                exchange_derivation(name, m, x, ph.expert_parallel_comm_s, &mut put);
            }
        }
        if let Some(a) = &ph.tp_all_reduce {
            tp_derivation(name, a, ph.tensor_parallel_comm_s, &mut put);
        }
    }
    if let Some(t) = &p.training {
        phase_derivations(z.scenario, e, PhaseName::Training, t, p.training_extra, &mut put);
    }
    time_derivations(z.scenario, c, time, &mut put);
    throughput_derivations(z.scenario, c, time, tp, &mut put);
    let bound = p.training.as_ref().map_or(p.decode.dominant, |t| t.dominant);
    put(DerivKey::Bound, Formula::Bound, vec![Val::Term(bound)], Source::ArticleBound);
}

/// A byte count the model holds as a float, as the bytes a person reads.
fn bytes_val(b: f64) -> Val {
    Val::Bytes(crate::engine::num::u128_from_f64(b.round()))
}

/// How a derivation is stored: key, formula, substituted values, source.
type Put<'a> = dyn FnMut(DerivKey, Formula, Vec<Val>, Source) + 'a;

/// Step 8a: the compute path, the links and the ridge point.
fn hardware_derivations(z: &SizedScenario, c: &Setup, p: &PhaseSet, put: &mut Put) {
    let hw = &c.hw;
    let checkpoint = z
        .published()
        .filter(|q| z.scenario.compute_dtype.is_none() && q.runs_fp8_gemms())
        .and_then(Quantization::main_format);
    let (formula, chosen, source) = match checkpoint {
        Some(f) => (
            Formula::ComputePathCheckpoint,
            Val::Id(f.label()),
            Source::cited(
                "vLLM docs, Quantization: FP8 W8A8 (FP8 GEMMs on compute capability 8.9 and newer, weight-only W8A16 through FP8 Marlin below); DeepSeek-V3 Technical Report §3.3.2",
            ),
        ),
        None => (
            Formula::ComputePath,
            Val::ComputeDtype(z.scenario.compute_dtype_on(z.gpu, z.published())),
            Source::Cited(z.gpu.source.clone()),
        ),
    };
    let mut values =
        vec![chosen, Val::Id(z.gpu.id.clone()), Val::Path(c.path), Val::FlopRate(hw.peak_flops_per_s)];
    let (formula, source) = match llama_prompt_share(z.scenario, z.gpu) {
        Some((backend, generation, share)) => {
            values.extend([
                Val::Id(backend.key().into()),
                Val::Id(generation.key().into()),
                Val::Fixed(share, 2),
                Val::Num(c.eff.tensor_flops),
            ]);
            (Formula::ComputePathLlamaBackend, Source::cited(backend.source(generation)))
        }
        None => (formula, source),
    };
    put(DerivKey::HardwareComputePath, formula, values, source);
    let inter = c
        .topo
        .inter_node
        .map_or(Val::Absent(Absent::NoNetwork), |l| Val::ByteRate(l.bytes_per_s_per_direction));
    put(
        DerivKey::HardwareTopology,
        Formula::Topology,
        vec![
            Val::Id(c.kind.name().into()),
            Val::Int(u128::from(c.topo.gpus_per_node)),
            Val::ByteRate(c.topo.intra_node.bytes_per_s_per_direction),
            inter,
        ],
        Source::InterconnectCatalog,
    );
    put(
        DerivKey::RooflineRidgePoint,
        Formula::RidgePoint,
        vec![
            Val::FlopRate(hw.peak_flops_per_s),
            Val::ByteRate(hw.memory_bandwidth_bytes_per_s),
            Val::Fixed(p.decode.ridge_point, 1),
        ],
        Source::cited("Williams et al. 2009"),
    );
}

/// Step 8b: one phase's FLOPs, bytes, intensity, bound and expected time (with the full-load
/// terms: kernels in sequence and activation traffic).
fn phase_derivations(
    s: &Scenario,
    e: &Efficiency,
    name: PhaseName,
    r: &PhaseReport,
    extra: FullLoad,
    put: &mut Put,
) {
    let (flops, bytes) = match name {
        PhaseName::Prefill => (Formula::PrefillFlops, Formula::PrefillBytes),
        PhaseName::Decode => (Formula::DecodeFlops, Formula::DecodeBytes),
        PhaseName::Training => (Formula::TrainingFlops, Formula::TrainingBytes),
    };
    let key = |q| DerivKey::Phase(name, q);
    let kaplan = Source::cited("Kaplan et al. 2020 §2.1; Narayanan et al. 2021 §5.1");
    put(key(PhaseQty::Flops), flops, vec![Val::Flops(r.flops)], kaplan);
    put(
        key(PhaseQty::Bytes),
        bytes,
        vec![bytes_val(r.bytes), bytes_val(r.expected_bytes)],
        Source::ThisEngineWeights,
    );
    put(
        key(PhaseQty::ArithmeticIntensity),
        Formula::Intensity,
        vec![
            Val::Flops(r.flops),
            bytes_val(r.bytes),
            Val::Fixed(r.arithmetic_intensity, 2),
            Val::Fixed(r.ridge_point, 1),
            Val::ComputeBound(r.arithmetic_intensity >= r.ridge_point),
        ],
        Source::cited("Williams et al. 2009"),
    );
    let b = &r.bound;
    put(
        key(PhaseQty::TimeBound),
        Formula::PhaseTimeBound,
        vec![
            Val::int(s.tensor_parallel),
            Val::int(s.pipeline_parallel),
            Val::Secs(b.compute_s),
            Val::Secs(b.memory_s),
            Val::Secs(b.communication_s),
            Val::Secs(r.time_s_bound),
        ],
        Source::ArticleBound,
    );
    let x = &r.expected;
    let cpu = r.cpu_exposed_s.max(0.0);
    let launch = (x.overhead_s - extra.sequence_s - extra.activation_s - cpu).max(0.0);
    put(
        key(PhaseQty::Time),
        Formula::PhaseTime,
        vec![
            Val::Secs(x.compute_s),
            Val::Secs(x.memory_s),
            Val::Secs(extra.sequence_s),
            Val::Secs(extra.activation_s),
            Val::Secs(x.communication_s),
            Val::Secs(launch),
            Val::Secs(cpu),
            Val::Secs(x.host_s),
            Val::Secs(r.time_s),
            Val::Num(e.tensor_flops),
            Val::Num(e.memory_bandwidth),
            Val::Term(r.dominant),
            Val::Ratio(r.dominance_ratio),
        ],
        Source::cited("the article's bound; kernels in sequence and activation traffic: Yuan et al. 2024 (arXiv:2402.16363, LLM-Viewer)"),
    );
}

/// Step 8b'': the routed experts of a phase as their kernel family runs them
/// ([`super::moe::moe_layer_time`]).
fn moe_derivation(
    s: &Scenario,
    name: PhaseName,
    m: &super::timing::MoeTiming,
    run: &super::moe::MoeRun,
    c: &Setup,
    put: &mut Put,
) {
    let l = &m.layer;
    let kernel = s.moe_kernel.unwrap_or(s.serving_stack.settings().moe_kernel);
    put(
        DerivKey::Phase(name, PhaseQty::Moe),
        Formula::MoeGroupedGemm,
        vec![
            Val::Id(kernel.key().into()),
            Val::Count(crate::engine::num::u128_from_f64(l.tokens.round())),
            Val::Fixed(l.touched, 1),
            Val::Bytes(crate::engine::num::u128_from_f64(l.weight_bytes.round())),
            Val::ByteRate(c.hw.memory_bandwidth_bytes_per_s),
            Val::Fixed(run.bandwidth_share, 3),
            Val::Secs(l.memory_s),
            Val::Flops(l.padded_flops),
            Val::FlopRate(c.hw.peak_flops_per_s),
            Val::Fixed(run.compute_share, 3),
            Val::Secs(l.compute_s),
            Val::Secs(l.fixed_s),
            Val::Secs(l.busiest_memory_s),
            Val::Fixed(l.imbalance, 3),
            Val::Secs(l.expected_s),
            Val::Fixed(m.layers, 1),
            Val::Secs(m.grouped_gemm_s + m.fixed_s),
        ],
        Source::Cited(format!(
            "{}; routing skew: LMSYS, Deploying DeepSeek with PD Disaggregation and Large-scale Expert Parallelism on 96 H100 GPUs (2025-05-05)",
            c.moe_source
        )),
    );
}

/// Step 8b'''': a serving phase's tensor-parallel all-reduces, one call times the calls
/// ([`super::timing::TpAllReduce`], [`super::custom_all_reduce::time`]).
fn tp_derivation(name: PhaseName, a: &super::timing::TpAllReduce, total_s: f64, put: &mut Put) {
    use super::custom_all_reduce::Kernels;
    let g = a.gpus_per_node.max(1);
    let leg = |l: &super::timing::CommLeg| {
        [Val::Secs(l.alpha_s), Val::ByteRate(l.beta_bytes_per_s), Val::Fixed(l.share, 2)]
    };
    let tail = [Val::Secs(a.per_call_s), Val::Fixed(a.calls, 0), Val::Secs(total_s)];
    let bytes = Val::Bytes(crate::engine::num::u128_from_f64(a.bytes.round()));
    // The synchronising steps of one call: one-shot 1, two-shot 2, NCCL's ring 2(n − 1) on one
    // node, hierarchical across nodes 2(g − 1) + 2(nodes − 1).
    let (formula, values) = match (a.custom, a.nic) {
        (None, Some(nic)) => {
            let nodes = a.ranks.div_ceil(g);
            let steps = 2 * (g - 1) + 2 * (nodes - 1);
            let mut v = vec![
                Val::Int(u128::from(nodes)),
                Val::Int(u128::from(g)),
                Val::Int(u128::from(steps)),
                bytes,
            ];
            v.extend(leg(&a.node));
            v.extend(leg(&nic));
            v.extend(tail);
            (Formula::TpAllReduceNodes, v)
        }
        _ => {
            let (kernel, steps) = match a.custom {
                Some((Kernels::Vllm, one)) => ("vllm_custom", if one { 1 } else { 2 }),
                Some((Kernels::Trtllm, one)) => ("trtllm_custom", if one { 1 } else { 2 }),
                None => ("nccl_ring", 2 * a.ranks.saturating_sub(1)),
            };
            let mut v = vec![
                Val::Id(kernel.into()),
                Val::Int(u128::from(steps)),
                bytes,
                Val::Int(u128::from(a.ranks)),
            ];
            v.extend(leg(&a.node));
            v.extend(tail);
            (Formula::TpAllReduce, v)
        }
    };
    put(
        DerivKey::Phase(name, PhaseQty::TensorComm),
        formula,
        values,
        Source::cited(
            "vLLM csrc/custom_all_reduce.cuh (one-/two-shot rule); SGLang PR #2904 (both kernel families on H100, 2025-01-15); NVIDIA nccl-tests (the ring)",
        ),
    );
}

/// Step 8b''': the routed experts' dispatch and combine with expert parallelism, one layer on
/// the slowest rank times the layers ([`super::moe::deepep_exchange`],
/// [`super::moe::nccl_exchange`]).
fn exchange_derivation(
    name: PhaseName,
    m: &super::timing::MoeTiming,
    x: &super::moe::EpExchange,
    total_s: f64,
    put: &mut Put,
) {
    use crate::engine::stack::EpComm;
    // The MoE layers the phase runs through on the slowest rank (pipeline slots × layers).
    let per_pass = m.layer.imbalance * x.per_layer_s;
    let slots_layers = if per_pass > 0.0 { total_s / per_pass } else { m.layers };
    let bytes = |b: f64| Val::Bytes(crate::engine::num::u128_from_f64(b.round()));
    let (formula, values, source) = match x.comm {
        EpComm::Nccl => (
            Formula::EpAllToAllNccl,
            vec![
                Val::Fixed(x.tokens, 0),
                bytes(x.dispatch_bytes),
                Val::ByteRate(x.dispatch_rate),
                Val::Secs(x.per_layer_s),
                Val::Fixed(m.layer.imbalance, 3),
                Val::Fixed(slots_layers, 0),
                Val::Secs(total_s),
            ],
            "NVIDIA nccl-tests, alltoall_perf",
        ),
        EpComm::DeepepNormal if x.forward_s > 0.0 => (
            Formula::EpDispatchCombineNodes,
            vec![
                Val::Fixed(x.tokens, 0),
                Val::Fixed(x.destinations, 2),
                Val::ExactBytes(crate::engine::num::u128_from_f64((x.dispatch_bytes + x.combine_bytes).round())),
                Val::ByteRate(x.dispatch_rate),
                Val::Secs(x.tokens * x.destinations * (x.dispatch_bytes + x.combine_bytes) / x.dispatch_rate.max(1.0)),
                Val::Secs(x.forward_s),
                Val::Secs(x.per_layer_s),
                Val::Fixed(m.layer.imbalance, 3),
                Val::Fixed(slots_layers, 0),
                Val::Secs(total_s),
            ],
            "deepseek-ai/DeepEP, docs/legacy.md (2025-06-05); DeepSeek-V3 Technical Report, §2.1.2",
        ),
        comm => (
            Formula::EpDispatchCombineDeepep,
            vec![
                Val::Id(comm.key().into()),
                Val::Fixed(x.tokens, 0),
                Val::Fixed(x.destinations, 2),
                Val::ExactBytes(crate::engine::num::u128_from_f64(x.dispatch_bytes.round())),
                Val::ByteRate(x.dispatch_rate),
                Val::ExactBytes(crate::engine::num::u128_from_f64(x.combine_bytes.round())),
                Val::ByteRate(x.combine_rate),
                Val::Secs(x.per_layer_s),
                Val::Fixed(m.layer.imbalance, 3),
                Val::Fixed(slots_layers, 0),
                Val::Secs(total_s),
            ],
            "deepseek-ai/DeepEP, docs/legacy.md (2025-06-05), tests/test_low_latency.py; NVIDIA aiconfigurator, DEEPEP_LL_MODELING.md",
        ),
    };
    put(DerivKey::Phase(name, PhaseQty::ExpertComm), formula, values, Source::Cited(source.into()));
}

/// Step 8b': the host part of a phase under partial offload ([`offload::host_time`]).
fn host_derivation(
    name: PhaseName,
    h: &offload::HostTime,
    link: &offload::HostLink,
    e: &Efficiency,
    put: &mut Put,
) {
    let pcie = link.pcie_bytes_per_s.map_or(Val::Absent(Absent::UnifiedMemory), Val::ByteRate);
    put(
        DerivKey::Phase(name, PhaseQty::Host),
        Formula::PhaseHost,
        vec![
            bytes_val(h.cpu_bytes),
            Val::ByteRate(link.host_bytes_per_s),
            Val::Num(e.host_memory_bandwidth),
            bytes_val(h.pcie_bytes),
            pcie,
            Val::Num(e.pcie_bandwidth),
            Val::Num(h.crossings),
            Val::Bool(h.op_offload),
            Val::Secs(h.expected_s),
        ],
        Source::cited(
            "llama.cpp ggml-backend scheduler (CPU-resident layers run on the CPU; ggml_backend_cuda_device_offload_op: op offload from 32 tokens, n_ubatch 512)",
        ),
    );
}

/// Prefix reuse, when the scenario has any: the cached tokens and the session's hit rate.
fn prefix_derivations(s: &Scenario, c: &Setup, put: &mut Put) {
    use crate::engine::memory::prefix;
    let src = || {
        Source::cited(
            "vLLM automatic prefix caching (docs.vllm.ai, design/prefix_caching); SGLang RadixAttention (Zheng et al., NeurIPS 2024)",
        )
    };
    if s.session_turns > 0 && s.prefix_hit_rate.is_none() {
        let o = s.session_turn_output_tokens.unwrap_or(c.output);
        let (t, a, sh) = (s.session_turns, s.session_turn_tokens, s.prefix_shared_tokens);
        let values = vec![
            Val::int(t),
            Val::int(a),
            Val::int(o),
            Val::int(sh),
            Val::Fixed(c.hit_rate, 3),
            Val::Num(prefix::session_mean_prompt(t, a, o, sh).round()),
        ];
        put(DerivKey::TimePrefixHitRate, Formula::SessionHitRate, values, src());
    }
    if c.cached > 0 || s.prefix_shared_tokens > 0 {
        let values = vec![
            Val::int(c.prompt),
            Val::int(s.prefix_shared_tokens),
            Val::Fixed(c.hit_rate, 3),
            Val::int(c.cached),
            Val::int(c.prompt - c.cached),
            Val::int(prefix::shared_block_tokens(s)),
        ];
        put(DerivKey::TimePrefixCached, Formula::PrefixCached, values, src());
    }
}

/// KV tiers, when the scenario gives open sessions: the shares and the restores.
fn tier_derivations(c: &Setup, put: &mut Put) {
    let Some(t) = &c.tiers else { return };
    let src = || {
        Source::cited(
            "Fagin, Asymptotic miss ratios over independent references (JCSS 1977); vLLM KV offloading connector (blog, 2026-01-08); LMCache; NVIDIA Dynamo KVBM",
        )
    };
    let bytes = |v: f64| Val::Bytes(crate::engine::num::u128_from_f64(v.max(0.0).round()));
    let absent = || Val::Absent(Absent::NoTier);
    let per_session = t.working_set_bytes / t.sessions.max(1) as f64;
    let cap = |u: &Option<kv_tiers::TierUse>| u.map_or_else(absent, |u| bytes(u.capacity_bytes));
    let share = |u: &Option<kv_tiers::TierUse>| Val::Fixed(u.map_or(0.0, |u| u.share), 3);
    let values = vec![
        Val::int(t.sessions),
        bytes(per_session),
        bytes(t.working_set_bytes),
        bytes(t.gpu_room_bytes),
        Val::Fixed(t.gpu_share, 3),
        cap(&t.cpu),
        share(&t.cpu),
        cap(&t.ssd),
        share(&t.ssd),
        Val::Fixed(t.recomputed_share, 3),
    ];
    put(DerivKey::TimeKvTierShares, Formula::KvTierShares, values, src());
    let restore = |u: &Option<kv_tiers::TierUse>| match u {
        Some(u) => {
            [Val::Secs(u.restore_s), Val::ByteRate(u.bytes_per_s * u.read_share), Val::Bool(u.restored)]
        }
        None => [absent(), absent(), absent()],
    };
    let mut values = vec![
        Val::Num(c.batch),
        Val::int(t.history_tokens),
        bytes(t.history_bytes),
        Val::Num(t.copies),
        Val::Secs(kv_tiers::COPY_OVERHEAD_S),
    ];
    values.extend(restore(&t.cpu));
    values.extend(restore(&t.ssd));
    values.extend([Val::Secs(t.recompute_s), Val::Secs(t.restore_s)]);
    put(DerivKey::TimeKvRestore, Formula::KvTierRestore, values, src());
}

/// Step 8c: prefill, decode step, first token, per output token, generation.
fn time_derivations(s: &Scenario, c: &Setup, time: &Times, put: &mut Put) {
    let art = || Source::ArticleBound;
    prefix_derivations(s, c, put);
    tier_derivations(c, put);
    let prefill = vec![
        Val::int(s.batch),
        Val::int(c.prompt - c.cached),
        Val::Secs(time.prefill_s),
        Val::Secs(time.prefill_s_bound),
    ];
    put(DerivKey::TimePrefill, Formula::PrefillTime, prefill, art());
    let decode = vec![
        Val::int(s.batch),
        Val::Num(c.decode_ctx),
        Val::Secs(time.decode_step_s),
        Val::Secs(time.decode_step_s_bound),
    ];
    put(DerivKey::TimeDecodeStep, Formula::DecodeStepTime, decode, art());
    let (formula, values, source) = if let Some(t) = &c.tiers {
        let values = vec![
            Val::Secs(time.prefill_s),
            Val::Secs(t.restore_s),
            Val::Secs(c.eff.request_overhead_s),
            Val::Secs(time.time_to_first_token_s),
        ];
        let src =
            "vLLM KV offloading connector (blog, 2026-01-08): the load completes before the request runs";
        (Formula::TimeToFirstTokenWithRestore, values, Source::cited(src))
    } else {
        let values = vec![
            Val::Secs(time.prefill_s),
            Val::Secs(c.eff.request_overhead_s),
            Val::Secs(time.time_to_first_token_s),
        ];
        let src = if s.serving_stack.settings().mla_request_overhead_s == Some(c.eff.request_overhead_s) {
            Source::cited(crate::engine::stack::SGLANG_MLA_REQUEST_OVERHEAD_SOURCE)
        } else {
            Source::cited("vLLM benchmark definitions; per-request cost: efficiency.request_overhead_s")
        };
        (Formula::TimeToFirstTokenWithRequest, values, src)
    };
    put(DerivKey::TimeToFirstToken, formula, values, source);
    put(
        DerivKey::TimePerOutputToken,
        Formula::TimePerOutputToken,
        vec![Val::Secs(time.time_per_output_token_s)],
        Source::cited("vLLM benchmark definitions"),
    );
    let generation = vec![
        Val::Secs(time.prefill_s),
        Val::int(c.output),
        Val::Secs(time.time_per_output_token_s),
        Val::Secs(time.generation_s),
    ];
    put(DerivKey::TimeGeneration, Formula::GenerationTime, generation, Source::Definition);
    if let Some(step) = time.step_s {
        put(DerivKey::TimeStep, Formula::StepTime, vec![Val::Secs(step)], art());
    }
}

/// Step 8d: decode, prefill, per-user, generation and training tokens per second.
fn throughput_derivations(s: &Scenario, c: &Setup, time: &Times, tp: &Throughput, put: &mut Put) {
    let def = || Source::Definition;
    let (b, dp) = (Val::int(s.batch), Val::int(c.dp));
    let rate = |t: f64, r: f64| vec![b.clone(), dp.clone(), Val::Secs(t), Val::TokenRate(r)];
    put(
        DerivKey::ThroughputDecode,
        Formula::DecodeTokensPerS,
        rate(time.time_per_output_token_s, tp.decode_tokens_per_s),
        def(),
    );
    put(
        DerivKey::ThroughputDecodeBound,
        Formula::DecodeTokensPerSBound,
        rate(ratio(s.batch as f64 * c.dp as f64, tp.decode_tokens_per_s_bound), tp.decode_tokens_per_s_bound),
        def(),
    );
    put(
        DerivKey::ThroughputPrefill,
        Formula::PrefillTokensPerS,
        vec![Val::TokenRate(tp.prefill_tokens_per_s)],
        def(),
    );
    put(
        DerivKey::ThroughputPerUser,
        Formula::PerUserTokensPerS,
        vec![Val::Secs(time.decode_step_s), Val::TokenRate(tp.per_user_tokens_per_s)],
        def(),
    );
    put(
        DerivKey::ThroughputGeneration,
        Formula::GenerationTokensPerS,
        vec![
            b.clone(),
            dp.clone(),
            Val::int(c.output),
            Val::Secs(time.generation_s),
            Val::TokenRate(tp.generation_tokens_per_s),
        ],
        Source::StaticBatching,
    );
    if let (Some(step), Some(tps)) = (time.step_s, tp.tokens_per_s) {
        let values = vec![
            b,
            Val::int(c.micro_batches),
            Val::int(s.context_tokens),
            dp,
            Val::Secs(step),
            Val::TokenRate(tps),
        ];
        put(DerivKey::ThroughputTraining, Formula::TrainingTokensPerS, values, def());
    }
}
