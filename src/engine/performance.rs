//! Scenario → time: maps the sizing engine's model, dtypes and layout onto the performance
//! formulas of [`super::perf`] and fills the time half of the Report ([`Performance`]).
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

use super::error::ScenarioError;
use super::hardware::{default_price_per_gpu_hour, perf_error, TopologyKind};
use super::memory::model_states::optimizer_bytes_per_param;
use super::memory::weights::{small_tensor_dtype, stage_weights};
use super::memory::Inputs;
use super::model::kv_cache::{kv_cache_bytes, kv_cache_bytes_per_token};
use super::model::params::ParamCounts;
use super::model::Architecture;
use super::perf::collectives::Topology;
use super::perf::efficiency::{default_sources, Efficiency};
use super::perf::phases::{decode_step_work, prefill_work, training_step_work, ModelShape, PhaseWork};
use super::perf::roofline::{attainable_flops, BoundTime, Term};
use super::perf::scaling::{
    communication_dominates_from, default_gpu_counts, scaling_curve, Strategy, TrainingSetup,
};
use super::perf::serving::serving_estimate;
use super::perf::timing::{phase_timing, Hardware, Parallelism, Phase, PhaseTiming};
use super::perf::PerfError;
use super::perf_report::*;
use super::precision::Dtype;
use super::report::Derivation;
use super::scenario::{Mode, Recompute, Scenario};
use crate::catalog::gpus::{ComputeDtype, ComputePath, Gpu};
use std::collections::BTreeMap;

/// What [`performance`] needs from the sizing half of the evaluation.
#[derive(Debug)]
pub struct Sized<'a> {
    pub scenario: &'a Scenario,
    pub arch: &'a Architecture,
    pub counts: &'a ParamCounts,
    pub inputs: &'a Inputs,
    pub gpu: &'a Gpu,
    pub trainable: u128,
}

fn pe(e: PerfError) -> ScenarioError {
    perf_error("scenario", e)
}

fn d(formula: &str, values: String, source: &str) -> Derivation {
    Derivation { formula: formula.to_owned(), values, source: source.to_owned() }
}

/// `12.3 ms`, `4.1 s`, `310 µs`: short human times for derivation strings.
fn secs(t: f64) -> String {
    if t >= 1.0 {
        format!("{t:.3} s")
    } else if t >= 1e-3 {
        format!("{:.3} ms", t * 1e3)
    } else {
        format!("{:.2} µs", t * 1e6)
    }
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
    let whole = Inputs { tp: 1, ..*x };
    let w = stage_weights(a, &whole, 0..a.layers as usize, true, true);
    let small = small_tensor_dtype(x.weight);
    let gathered = if a.tied_embeddings { 0 } else { counts.embedding } + counts.positions;
    let gathered_bytes = small.bytes_for(gathered, x.group);
    let expert_bytes = x.weight.bytes_for(counts.experts, x.group);
    let dense = w.bytes.saturating_sub(gathered_bytes).saturating_sub(expert_bytes).max(1);
    let full_kv = kv_cache_bytes_per_token(a, x.kv, x.group) as f64;
    let c = context.max(1);
    let kv_eff = kv_cache_bytes(a, 0..a.layers as usize, c, 1, 1, 1, x.kv, x.group) as f64 / c as f64;
    let window_ratio = if full_kv > 0.0 { (kv_eff / full_kv).clamp(0.0, 1.0) } else { 1.0 };
    let width = (a.attention.heads * a.attention.head_dim) as f64 * window_ratio;
    let (experts, k) = a.moe.as_ref().map_or((0, 0), |m| (m.routed_experts, m.experts_per_token));
    let flop_params = counts.active.saturating_sub(gathered).max(1) as f64;
    ModelShape {
        params_total: (counts.total.saturating_sub(gathered)).max(1) as f64,
        params_active: flop_params,
        layers: a.layers.clamp(1, u64::from(u32::MAX)) as u32,
        attention_width: width.round().clamp(1.0, f64::from(u32::MAX)) as u32,
        hidden: a.hidden.clamp(1, u64::from(u32::MAX)) as u32,
        kv_bytes_per_token: kv_eff,
        dense_weight_bytes: dense as f64,
        expert_weight_bytes: if experts > 0 { expert_bytes as f64 } else { 0.0 },
        experts: experts.min(u64::from(u32::MAX)) as u32,
        experts_per_token: k.min(experts).min(u64::from(u32::MAX)) as u32,
        activation_bytes: x.activation.bytes_for(1000, x.group) as f64 / 1000.0,
    }
}

/// Largest of the four expected terms and its ratio to the next.
fn dominant(t: &BoundTime) -> (Term, Option<f64>) {
    let mut v = [
        (t.compute_s, Term::Compute),
        (t.memory_s, Term::Memory),
        (t.communication_s, Term::Communication),
        (t.overhead_s, Term::Overhead),
    ];
    v.sort_by(|a, b| b.0.total_cmp(&a.0));
    (v[0].1, (v[1].0 > 0.0).then(|| v[0].0 / v[1].0).filter(|r| r.is_finite()))
}

fn phase_report(w: &PhaseWork, t: &PhaseTiming, path: &str) -> PhaseReport {
    let (dom, ratio) = dominant(&t.expected);
    PhaseReport {
        flops: w.flops,
        bytes: w.bytes,
        expected_bytes: w.expected_bytes.max(w.bytes),
        tokens: w.tokens,
        arithmetic_intensity: if w.bytes > 0.0 { w.flops / w.bytes } else { 0.0 },
        ridge_point: t.ridge_point,
        compute_path: path.to_owned(),
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
    v.clamp(1, u64::from(u32::MAX)) as u32
}

/// Fills the time half of the report and adds its derivations and assumptions.
pub fn performance(
    z: &Sized,
    dv: &mut BTreeMap<String, Derivation>,
    assumptions: &mut Vec<String>,
) -> Result<Performance, ScenarioError> {
    let (s, a, x, gpu) = (z.scenario, z.arch, z.inputs, z.gpu);
    let (eff, overridden) = s.efficiency.resolve()?;
    let path = gpu
        .compute_path(s.resolved_compute_dtype())
        .ok_or_else(|| ScenarioError::new("gpu.peak_flops", "has no usable peak"))?;
    let label = path_label(&path);
    let hw = Hardware {
        peak_flops_per_s: path.peak_flops_per_s,
        memory_bandwidth_bytes_per_s: gpu.memory_bandwidth_bytes_per_s,
    };
    let kind = s.topology.unwrap_or_else(|| TopologyKind::default_for(gpu));
    let topo: Topology = kind.topology(gpu, u32_of(s.gpus_per_node));
    let (prompt, output) = s.resolved_prompt_output();
    let m = s.resolved_micro_batches();
    let dp = x.dp.max(1);
    let par = Parallelism {
        tensor: u32_of(x.tp),
        pipeline: u32_of(x.pp),
        data: u32_of(dp),
        expert: u32_of(s.expert_parallel),
        micro_batches: 1,
    };
    let batch = x.batch as f64;
    let decode_ctx = prompt as f64 + output as f64 / 2.0;

    // Prefill and decode.
    let pre_shape = model_shape(a, z.counts, x, prompt);
    let dec_shape = model_shape(a, z.counts, x, decode_ctx.round() as u64);
    let pre_w = prefill_work(&pre_shape, prompt as f64, batch, 0.0).map_err(pe)?;
    let pre_t = phase_timing(&pre_w, &pre_shape, Phase::Prefill, &hw, &par, &topo, &eff).map_err(pe)?;
    let dec_w = decode_step_work(&dec_shape, batch, decode_ctx).map_err(pe)?;
    let dec_t = phase_timing(&dec_w, &dec_shape, Phase::Decode, &hw, &par, &topo, &eff).map_err(pe)?;
    let prefill = phase_report(&pre_w, &pre_t, &label);
    let decode = phase_report(&dec_w, &dec_t, &label);

    // Training step.
    let full_recompute = s.recompute == Recompute::Full;
    let lora = matches!(s.mode, Mode::Lora | Mode::Qlora);
    let grad_elem = if x.full_training() { small_tensor_dtype(x.weight).bytes_for(1, 1) } else { 4 };
    let train_states = |trainable: u128, dtype: Dtype| {
        ((trainable * grad_elem) as f64, (trainable * optimizer_bytes_per_param(s.optimizer, dtype)) as f64)
    };
    let (grad, opt) = train_states(z.trainable, if x.full_training() { x.weight } else { Dtype::Fp32 });
    let train_shape = model_shape(a, z.counts, x, s.context_tokens);
    let training = if x.trains() {
        let mut w = training_step_work(
            &train_shape,
            batch * m as f64,
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
        let tpar = Parallelism { micro_batches: u32_of(m), ..par };
        let t = phase_timing(
            &w,
            &train_shape,
            Phase::Training { gradient_bytes: grad, full_recompute },
            &hw,
            &tpar,
            &topo,
            &eff,
        )
        .map_err(pe)?;
        Some((w, phase_report(&w, &t, &label)))
    } else {
        None
    };

    // Roofline and the decode point moving with batch.
    let ridge = dec_t.ridge_point;
    let mut points = Vec::new();
    let gpu_share = (x.tp * x.pp) as f64;
    for (name, p) in [
        ("prefill", Some(&prefill)),
        ("decode", Some(&decode)),
        ("training", training.as_ref().map(|t| &t.1)),
    ] {
        if let Some(p) = p {
            points.push(RooflinePoint {
                phase: name.into(),
                arithmetic_intensity: p.arithmetic_intensity,
                attainable_flops_per_s: attainable_flops(
                    p.arithmetic_intensity,
                    hw.peak_flops_per_s,
                    hw.memory_bandwidth_bytes_per_s,
                )
                .unwrap_or(0.0),
                expected_flops_per_s: ratio(p.flops / gpu_share, p.time_s),
            });
        }
    }
    let mut decode_by_batch = Vec::with_capacity(11);
    for i in 0..=10 {
        let b = 1u64 << i;
        let w = decode_step_work(&dec_shape, b as f64, decode_ctx).map_err(pe)?;
        let t = phase_timing(&w, &dec_shape, Phase::Decode, &hw, &par, &topo, &eff).map_err(pe)?;
        decode_by_batch.push(DecodeBatchPoint {
            batch: b,
            arithmetic_intensity: if w.bytes > 0.0 { w.flops / w.bytes } else { 0.0 },
            tokens_per_s: t.expected_tokens_per_s,
            tokens_per_s_bound: t.bound_tokens_per_s,
            dominant: dominant(&t.expected).0,
        });
    }

    // Scaling curves: a training step (full training states when the scenario is inference).
    let m_s = m.clamp(8, 1 << 20) as u32;
    let (s_grad, s_opt) = if x.trains() { (grad, opt) } else { train_states(z.counts.total, Dtype::Bf16) };
    let setup = TrainingSetup {
        sequences: batch * f64::from(m_s),
        seq_len: s.context_tokens as f64,
        micro_batches: m_s,
        full_recompute,
        gradient_bytes: s_grad,
        optimizer_state_bytes: s_opt,
    };
    let counts_1024 = default_gpu_counts();
    let curve = |st| scaling_curve(st, &train_shape, &setup, &hw, &topo, &eff, &counts_1024).map_err(pe);
    let (data, tensor, pipeline) =
        (curve(Strategy::Data)?, curve(Strategy::Tensor)?, curve(Strategy::Pipeline)?);
    let scaling = ScalingCurves {
        phase: "training_step".into(),
        sequences: setup.sequences,
        seq_len: setup.seq_len,
        micro_batches: m_s,
        topology: kind.name().into(),
        communication_dominates_from: CommunicationDominates {
            data: communication_dominates_from(&data),
            tensor: communication_dominates_from(&tensor),
            pipeline: communication_dominates_from(&pipeline),
        },
        data,
        tensor,
        pipeline,
    };

    // Serving and cost.
    let concurrency = x.batch.saturating_mul(dp);
    let (price, price_source) = match s.price_per_gpu_hour {
        Some(p) => (Some(p), Some("scenario".to_owned())),
        None => default_price_per_gpu_hour(&gpu.id).map_or((None, None), |(p, src)| (Some(p), Some(src))),
    };
    let deployment_price = price.map(|p| p * s.gpus as f64);
    let sv =
        serving_estimate(prefill.time_s, decode.time_s, concurrency as f64, output as f64, deployment_price)
            .map_err(pe)?;
    let generation_s = prefill.time_s + output as f64 * decode.time_s;
    let generation_s_bound = prefill.time_s_bound + output as f64 * decode.time_s_bound;
    let out_total = concurrency as f64 * output as f64;

    let time = Times {
        prefill_s: prefill.time_s,
        prefill_s_bound: prefill.time_s_bound,
        decode_step_s: decode.time_s,
        decode_step_s_bound: decode.time_s_bound,
        step_s: training.as_ref().map(|t| t.1.time_s),
        step_s_bound: training.as_ref().map(|t| t.1.time_s_bound),
        time_to_first_token_s: prefill.time_s,
        time_per_output_token_s: decode.time_s,
        generation_s,
        generation_s_bound,
    };
    let throughput = Throughput {
        decode_tokens_per_s: decode.tokens_per_s,
        decode_tokens_per_s_bound: decode.tokens_per_s_bound,
        prefill_tokens_per_s: prefill.tokens_per_s,
        prefill_tokens_per_s_bound: prefill.tokens_per_s_bound,
        per_user_tokens_per_s: ratio(1.0, decode.time_s),
        per_user_tokens_per_s_bound: ratio(1.0, decode.time_s_bound),
        generation_tokens_per_s: ratio(out_total, generation_s),
        generation_tokens_per_s_bound: ratio(out_total, generation_s_bound),
        tokens_per_s: training.as_ref().map(|t| t.1.tokens_per_s),
        tokens_per_s_bound: training.as_ref().map(|t| t.1.tokens_per_s_bound),
    };
    let (bound, bound_ratio) = match &training {
        Some((_, t)) => (t.dominant, t.dominance_ratio),
        None => (decode.dominant, decode.dominance_ratio),
    };
    let efficiency = efficiency_factors(&eff, &overridden);

    let ctx =
        Ctx { s, gpu, hw: &hw, label: &label, eff: &eff, topo: &topo, kind, prompt, output, decode_ctx, dp };
    derivations(&ctx, &prefill, &decode, training.as_ref().map(|t| &t.1), &time, &throughput, dv);
    if let Some(p) = price {
        dv.insert(
            "serving.cost_per_million_tokens".into(),
            d(
                "price_per_gpu_hour × gpus / (aggregate tokens/s × 3600) × 1e6",
                format!(
                    "{p:.4} × {} / ({:.1} × 3600) × 1e6 = {:.4} USD",
                    s.gpus,
                    sv.aggregate_tokens_per_s,
                    sv.cost_per_million_tokens.unwrap_or(0.0)
                ),
                price_source.as_deref().unwrap_or("scenario"),
            ),
        );
    }
    assumptions.push(format!(
        "time: expected = efficiency factors ({} of peak bandwidth, {} of peak FLOP/s, {} µs per kernel × {} kernels per layer); bound = peak figures, no overheads, communication overlapped",
        eff.memory_bandwidth, eff.tensor_flops, eff.kernel_launch_s * 1e6, eff.kernels_per_layer));
    assumptions.push(format!("decode reported at the average step: {prompt} prompt + {output}/2 generated = {decode_ctx} cached tokens per sequence; the input embedding is gathered, not streamed"));
    if lora {
        assumptions.push("lora/qlora step: 4·P·tokens (no weight gradients for the frozen base)".into());
    }
    assumptions.push(format!("scaling curves: one training step of {} sequences × {} tokens per replica, {m_s} micro-batches, on {}", setup.sequences, setup.seq_len, kind.name()));

    Ok(Performance {
        hardware: HardwareInfo {
            gpu: gpu.id.clone(),
            gpu_name: gpu.name.clone(),
            memory_bandwidth_bytes_per_s: gpu.memory_bandwidth_bytes_per_s,
            peak_flops_per_s: path.peak_flops_per_s,
            compute_path: label.clone(),
            uncertain: gpu.uncertain.clone(),
            source: gpu.source.clone(),
            retrieved: gpu.retrieved.clone(),
            topology: kind.name().into(),
            gpus_per_node: topo.gpus_per_node,
            intra_node_bytes_per_s_per_direction: topo.intra_node.bytes_per_s_per_direction,
            intra_node_latency_s: topo.intra_node.latency_s,
            inter_node_bytes_per_s_per_direction: topo.inter_node.map(|l| l.bytes_per_s_per_direction),
            inter_node_latency_s: topo.inter_node.map(|l| l.latency_s),
        },
        workload: Workload {
            prompt_tokens: prompt,
            output_tokens: output,
            decode_context_tokens: decode_ctx,
            concurrency,
            micro_batches: m,
            expert_parallel: s.expert_parallel,
        },
        time,
        throughput,
        bound,
        bound_ratio,
        roofline: Roofline {
            peak_flops_per_s: hw.peak_flops_per_s,
            memory_bandwidth_bytes_per_s: hw.memory_bandwidth_bytes_per_s,
            ridge_point: ridge,
            compute_path: label,
            points,
            decode_by_batch,
        },
        phases: Phases { prefill, decode, training: training.map(|t| t.1) },
        scaling,
        serving: Serving {
            concurrency,
            time_to_first_token_s: sv.time_to_first_token_s,
            time_per_output_token_s: sv.time_per_output_token_s,
            tokens_per_s_per_user: sv.tokens_per_s_per_user,
            aggregate_tokens_per_s: sv.aggregate_tokens_per_s,
            requests_per_s: sv.requests_per_s,
            price_per_gpu_hour: price,
            price_source,
            cost_per_million_tokens: sv.cost_per_million_tokens,
        },
        efficiency,
    })
}

fn efficiency_factors(eff: &Efficiency, overridden: &[&str]) -> Vec<EfficiencyFactor> {
    let value = |f: &str| match f {
        "memory_bandwidth" => eff.memory_bandwidth,
        "tensor_flops" => eff.tensor_flops,
        "intra_node_bus_bandwidth" => eff.intra_node_bus_bandwidth,
        "inter_node_bus_bandwidth" => eff.inter_node_bus_bandwidth,
        "kernel_launch_s" => eff.kernel_launch_s,
        "kernels_per_layer" => eff.kernels_per_layer,
        _ => eff.gradient_sync_overlap,
    };
    default_sources()
        .into_iter()
        .map(|f| EfficiencyFactor {
            field: f.field.into(),
            value: value(f.field),
            default: f.default,
            source: f.source.into(),
            estimate: f.estimate,
            overridden: overridden.contains(&f.field),
        })
        .collect()
}

struct Ctx<'a> {
    s: &'a Scenario,
    gpu: &'a Gpu,
    hw: &'a Hardware,
    label: &'a str,
    eff: &'a Efficiency,
    topo: &'a Topology,
    kind: TopologyKind,
    prompt: u64,
    output: u64,
    decode_ctx: f64,
    dp: u64,
}

fn derivations(
    c: &Ctx,
    pre: &PhaseReport,
    dec: &PhaseReport,
    train: Option<&PhaseReport>,
    time: &Times,
    tp: &Throughput,
    dv: &mut BTreeMap<String, Derivation>,
) {
    let (s, hw, e) = (c.s, c.hw, c.eff);
    let art = "the article's bound T = max(W/F, Q/B, C/N) + T_overhead; Williams et al. 2009 (roofline)";
    let par = format!("tp {} × pp {} GPUs per replica", s.tensor_parallel, s.pipeline_parallel);
    dv.insert(
        "hardware.compute_path".into(),
        d(
            "Tensor Core path of compute_dtype (fallback: fp32 vector)",
            format!(
                "{} on {}: {} → {:.4e} FLOP/s dense",
                s.resolved_compute_dtype().label(),
                c.gpu.id,
                c.label,
                hw.peak_flops_per_s
            ),
            &c.gpu.source,
        ),
    );
    dv.insert(
        "hardware.topology".into(),
        d(
            "intra-node link per GPU per direction; beyond gpus_per_node, the NIC share per GPU",
            format!(
                "{}: {} GPUs per node, {:.4e} B/s intra, {:?} B/s inter",
                c.kind.name(),
                c.topo.gpus_per_node,
                c.topo.intra_node.bytes_per_s_per_direction,
                c.topo.inter_node.map(|l| l.bytes_per_s_per_direction)
            ),
            "catalog/interconnects.rs",
        ),
    );
    dv.insert(
        "roofline.ridge_point".into(),
        d(
            "I* = F / B (FLOP per byte)",
            format!(
                "{:.4e} / {:.4e} = {:.1}",
                hw.peak_flops_per_s, hw.memory_bandwidth_bytes_per_s, dec.ridge_point
            ),
            "Williams et al. 2009",
        ),
    );
    let mut phase = |name: &str, p: &PhaseReport, flops_formula: &str, bytes_formula: &str| {
        dv.insert(
            format!("phases.{name}.flops"),
            d(
                flops_formula,
                format!("{:.4e} FLOP", p.flops),
                "Kaplan et al. 2020 §2.1; Narayanan et al. 2021 §5.1",
            ),
        );
        dv.insert(
            format!("phases.{name}.bytes"),
            d(
                bytes_formula,
                format!("{:.4e} bytes (expected {:.4e})", p.bytes, p.expected_bytes),
                "this engine (weights from the sizing engine)",
            ),
        );
        dv.insert(
            format!("phases.{name}.arithmetic_intensity"),
            d(
                "I = W / Q",
                format!(
                    "{:.4e} / {:.4e} = {:.2} FLOP/byte vs ridge {:.1}: {}",
                    p.flops,
                    p.bytes,
                    p.arithmetic_intensity,
                    p.ridge_point,
                    if p.arithmetic_intensity >= p.ridge_point { "compute-bound" } else { "memory-bound" }
                ),
                "Williams et al. 2009",
            ),
        );
        dv.insert(
            format!("phases.{name}.time_s_bound"),
            d(
                "max(W/F, Q/B, C_floor) per GPU, peak figures, no overhead",
                format!(
                    "{par}: max({}, {}, {}) = {}",
                    secs(p.bound.compute_s),
                    secs(p.bound.memory_s),
                    secs(p.bound.communication_s),
                    secs(p.time_s_bound)
                ),
                art,
            ),
        );
        dv.insert(
            format!("phases.{name}.time_s"),
            d(
                "max(W/F_eff, Q/B_eff) + C_exposed + T_launch (× (m+p−1) pipeline slots)",
                format!(
                    "max({}, {}) + {} + {} = {} (F_eff = {} F, B_eff = {} B); dominant {:?}{}",
                    secs(p.expected.compute_s),
                    secs(p.expected.memory_s),
                    secs(p.expected.communication_s),
                    secs(p.expected.overhead_s),
                    secs(p.time_s),
                    e.tensor_flops,
                    e.memory_bandwidth,
                    p.dominant,
                    p.dominance_ratio.map_or(String::new(), |r| format!(" by {r:.1}×"))
                ),
                art,
            ),
        );
    };
    phase(
        "prefill",
        pre,
        "2·P·batch·prompt + 4·L·d_attn·batch·prompt(prompt+1)/2 (causal)",
        "weights read once + KV written",
    );
    phase(
        "decode",
        dec,
        "2·P·batch + 4·L·d_attn·context·batch",
        "weights read once (input embedding gathered) + batch·(context+1)·KV bytes per token",
    );
    if let Some(t) = train {
        phase(
            "training",
            t,
            "6·P·tokens (8·P with full recompute; 4·P for LoRA) + attention",
            "2·weights + gradients + 2·optimizer states",
        );
    }
    dv.insert(
        "time.prefill_s".into(),
        d(
            "expected prefill of batch × prompt tokens",
            format!(
                "{} × {} tokens → {} (bound {})",
                s.batch,
                c.prompt,
                secs(time.prefill_s),
                secs(time.prefill_s_bound)
            ),
            art,
        ),
    );
    dv.insert(
        "time.decode_step_s".into(),
        d(
            "expected decode step at context prompt + output/2",
            format!(
                "batch {} at {} cached tokens → {} (bound {})",
                s.batch,
                c.decode_ctx,
                secs(time.decode_step_s),
                secs(time.decode_step_s_bound)
            ),
            art,
        ),
    );
    dv.insert(
        "time.time_to_first_token_s".into(),
        d("prefill_s (no queueing)", secs(time.time_to_first_token_s), "vLLM benchmark definitions"),
    );
    dv.insert(
        "time.time_per_output_token_s".into(),
        d("decode_step_s", secs(time.time_per_output_token_s), "vLLM benchmark definitions"),
    );
    dv.insert(
        "time.generation_s".into(),
        d(
            "prefill_s + output_tokens × decode_step_s",
            format!(
                "{} + {} × {} = {}",
                secs(time.prefill_s),
                c.output,
                secs(time.decode_step_s),
                secs(time.generation_s)
            ),
            "definition",
        ),
    );
    dv.insert(
        "throughput.decode_tokens_per_s".into(),
        d(
            "batch × data_parallel / decode_step_s",
            format!("{} × {} / {} = {:.1}", s.batch, c.dp, secs(time.decode_step_s), tp.decode_tokens_per_s),
            "definition",
        ),
    );
    dv.insert(
        "throughput.decode_tokens_per_s_bound".into(),
        d(
            "batch × data_parallel / decode_step_s_bound",
            format!(
                "{} × {} / {} = {:.1}",
                s.batch,
                c.dp,
                secs(time.decode_step_s_bound),
                tp.decode_tokens_per_s_bound
            ),
            "definition",
        ),
    );
    dv.insert(
        "throughput.prefill_tokens_per_s".into(),
        d(
            "batch × prompt × data_parallel / prefill_s",
            format!("{:.1}", tp.prefill_tokens_per_s),
            "definition",
        ),
    );
    dv.insert(
        "throughput.per_user_tokens_per_s".into(),
        d(
            "1 / decode_step_s",
            format!("1 / {} = {:.2}", secs(time.decode_step_s), tp.per_user_tokens_per_s),
            "definition",
        ),
    );
    dv.insert(
        "throughput.generation_tokens_per_s".into(),
        d(
            "batch × data_parallel × output / generation_s",
            format!(
                "{} × {} × {} / {} = {:.1}",
                s.batch,
                c.dp,
                c.output,
                secs(time.generation_s),
                tp.generation_tokens_per_s
            ),
            "definition (static batching, as gptSessionBenchmark)",
        ),
    );
    if let (Some(step), Some(tps)) = (time.step_s, tp.tokens_per_s) {
        dv.insert(
            "time.step_s".into(),
            d("expected training step (see phases.training.time_s)", secs(step), art),
        );
        dv.insert(
            "throughput.tokens_per_s".into(),
            d(
                "batch × micro_batches × context × data_parallel / step_s",
                format!(
                    "{} × {} × {} × {} / {} = {tps:.1}",
                    s.batch,
                    s.resolved_micro_batches(),
                    s.context_tokens,
                    c.dp,
                    secs(step)
                ),
                "definition",
            ),
        );
    }
    dv.insert(
        "bound".into(),
        d(
            "largest expected term of decode (inference) or the step (training)",
            format!("{:?}", train.map_or(dec.dominant, |t| t.dominant)),
            art,
        ),
    );
}
