//! A scenario's training step: its inputs read from the sized scenario ([`training_run`]), the
//! report's `training` section ([`training_report`]) and the checks a recipe and an attention
//! kernel need of the GPU ([`check_training_gpu`]).

use super::attention::{check_kernel, default_kernel};
use super::flops::model_flops_per_token;
use super::low_precision::needed_path;
use super::shape::{training_shape, TrainingShape};
use super::step::{StepBreakdown, TrainingHardware, TrainingLayout, TrainingSettings, TrainingTiming};
use crate::engine::error::{ErrorKind, ScenarioError};
use crate::engine::gpu::{Generation, Gpu};
use crate::engine::memory::model_states::adapter_dtype;
use crate::engine::memory::weights::small_tensor_dtype;
use crate::engine::perf::performance::SizedScenario;
use crate::engine::perf::phases::ModelShape;
use crate::engine::precision::compute::ComputeDtype;
use crate::engine::precision::Dtype;
use crate::engine::scenario::Scenario;
use crate::engine::workload::{AttentionKernel, FlopConvention, LowPrecisionRecipe, Mode};
use serde::Serialize;

/// Everything [`super::training_step`] reads, for one scenario.
#[derive(Clone, Debug, PartialEq)]
pub struct TrainingRun {
    pub shape: TrainingShape,
    pub layout: TrainingLayout,
    pub hw: TrainingHardware,
    pub settings: TrainingSettings,
}

/// The 16-bit path a training step's GEMMs, attention and MFU use: the compute dtype, or bf16
/// (fp16 with fp16 activations) when it names an 8- or 4-bit path, which only the linear layers
/// take through a low-precision recipe.
pub fn base_dtype(s: &Scenario) -> ComputeDtype {
    match s.resolved_compute_dtype() {
        ComputeDtype::Fp8 | ComputeDtype::Int8 | ComputeDtype::Fp4 if s.activation_dtype == Dtype::Fp16 => {
            ComputeDtype::Fp16
        }
        ComputeDtype::Fp8 | ComputeDtype::Int8 | ComputeDtype::Fp4 => ComputeDtype::Bf16,
        d => d,
    }
}

/// The attention kernel a scenario's training step runs on `gpu`: the one named, or the
/// generation's default.
pub fn kernel_of(s: &Scenario, gpu: &Gpu) -> AttentionKernel {
    s.attention_kernel.unwrap_or_else(|| default_kernel(gpu.generation()))
}

/// A low-precision recipe needs its Tensor Core path (FP8; FP4 for MXFP8 and NVFP4, which only
/// Blackwell has), FP8 block scaling compute capability 9.0 or later (Transformer Engine,
/// `quantization.py` `_compute_fp8_block_scaling_support`: "FP8 block scaled GEMM requires
/// compute capability 9.0 or higher", so not Ada's 8.9), and a named attention kernel the
/// generation it was measured on.
pub fn check_training_gpu(s: &Scenario, gpu: &Gpu) -> Result<(), ScenarioError> {
    let recipe = s.resolved_recipe();
    let architecture = || if gpu.architecture.is_empty() { gpu.id.clone() } else { gpu.architecture.clone() };
    if let Some(path) = needed_path(recipe) {
        let peak = if path == "fp4" { gpu.peak_flops.fp4 } else { gpu.peak_flops.fp8 };
        if !peak.is_some_and(|p| p > 0.0) {
            return Err(ScenarioError::new(
                "low_precision_recipe",
                ErrorKind::RecipeNeedsPath { recipe: recipe.name(), needs: path },
            ));
        }
    }
    if recipe == LowPrecisionRecipe::Fp8Blockwise && gpu.generation() == Generation::Ada {
        return Err(ScenarioError::new(
            "low_precision_recipe",
            ErrorKind::KernelNeedsArchitecture {
                kernel: recipe.name(),
                needs: "Hopper or Blackwell",
                architecture: architecture(),
            },
        ));
    }
    if let Some(k) = s.attention_kernel {
        check_kernel(k, gpu.generation()).map_err(|needs| {
            ScenarioError::new(
                "attention_kernel",
                ErrorKind::KernelNeedsArchitecture { kernel: k.name(), needs, architecture: architecture() },
            )
        })?;
    }
    Ok(())
}

/// The training step's inputs for a sized scenario whose model is `model` (its shape at the
/// training sequence length). An inference scenario gets the same with full training's states
/// (the scaling curves ask what training it would take).
pub fn training_run(z: &SizedScenario, model: &ModelShape) -> TrainingRun {
    let (s, x, gpu) = (z.scenario, z.inputs, z.gpu);
    let peak = |d| gpu.compute_path(d).map_or(0.0, |p| p.peak_flops_per_s);
    let base = peak(base_dtype(s));
    let recipe = if x.trains() { x.recipe } else { LowPrecisionRecipe::None };
    let low = match needed_path(recipe) {
        Some("fp4") => gpu.peak_flops.fp4.unwrap_or(base),
        Some(_) => gpu.peak_flops.fp8.unwrap_or(base),
        None => base,
    };
    let lora = matches!(s.mode, Mode::Lora | Mode::Qlora);
    let gradient = if lora {
        adapter_dtype(x.precision)
    } else {
        // Memory's decision (fp32 under mixed_fp32_grads), in a format a GPU trains in.
        small_tensor_dtype(crate::engine::memory::model_states::full_gradient_dtype(x))
    };
    let trainable = if x.trains() { z.trainable as f64 } else { z.counts.total as f64 };
    TrainingRun {
        shape: training_shape(z.arch, z.counts, x, model),
        layout: TrainingLayout {
            tp: x.tp.max(1) as f64,
            pp: x.pp.max(1) as f64,
            cp: x.cp.max(1) as f64,
            dp: x.replicas() as f64,
            ep: s.expert_parallel.max(1) as f64,
            vp: x.vp.max(1) as f64,
            micro_batches: x.micro_batches.max(1) as f64,
            batch: x.batch.max(1) as f64,
            seq: x.context.max(1) as f64,
            zero_stage: x.zero_stage,
            sequence_parallel: x.sequence_parallel,
            tp_overlap: s.tp_comm_overlap,
            ep_overlap: s.ep_comm_overlap,
        },
        hw: TrainingHardware {
            peak: base,
            low_precision_peak: low,
            bandwidth: gpu.memory_bandwidth_bytes_per_s,
            sms: gpu.sm_count.map(f64::from),
            generation: gpu.generation(),
        },
        settings: TrainingSettings {
            recipe,
            recompute: x.recompute,
            recompute_layers: x.recompute_layers.map(|n| n as f64),
            kernel: kernel_of(s, gpu),
            loss: x.loss_impl,
            optimizer: x.optimizer,
            optimizer_impl: s.optimizer_impl,
            precision: x.precision,
            frozen_base: lora,
            trainable_params: trainable,
            gradient_bytes: gradient.bytes_for(1000, 1) as f64 / 1000.0,
            low_precision_gather: x.fp8_primary_weights && recipe.is_low_precision(),
            ep_comm: s.ep_comm.unwrap_or_default(),
        },
    }
}

/// The report's `training` section: tokens per second per GPU, the model FLOPs per token by the
/// scenario's convention, MFU and HFU against the dense 16-bit peak, and the step by operation.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct TrainingReport {
    /// Global tokens per step / (step time × GPUs), as Megatron-Bridge, NeMo, torchtitan and
    /// llm-foundry report it.
    pub tokens_per_s_per_gpu: f64,
    pub tokens_per_s_per_gpu_bound: f64,
    /// The FLOP convention of `model_flops_per_token` and `mfu`.
    pub convention: FlopConvention,
    pub model_flops_per_token: f64,
    /// Model FLOP/s per GPU (TFLOP/s as frameworks print them: this / 1e12).
    pub model_flops_per_s_per_gpu: f64,
    /// Model FLOPs utilisation against `peak_flops_per_s`.
    pub mfu: f64,
    /// Hardware FLOPs utilisation: the FLOPs the GPU runs (causal attention, recomputation
    /// included) against the same peak.
    pub hfu: f64,
    /// The dense 16-bit peak of MFU and HFU (an FP8 run is measured against it too, as
    /// Megatron-Bridge reports).
    pub peak_flops_per_s: f64,
    /// Recomputed FLOPs per token (whole model).
    pub recompute_flops_per_token: f64,
    /// Seconds of one step by operation (they sum to `time.step_s`).
    pub step: StepBreakdown,
    pub recipe: LowPrecisionRecipe,
    /// The linear layers' speedup over BF16 under the recipe.
    pub linear_speedup: f64,
    /// The GEMMs' share of the peak at their best shape (before wave quantisation).
    pub gemm_efficiency: f64,
    pub attention_kernel: AttentionKernel,
    /// The attention kernels' shares of the peak, forward and backward.
    pub attention_forward_share: f64,
    pub attention_backward_share: f64,
    /// Tokens one GPU holds of a micro-batch (`batch × context / cp`).
    pub tokens_per_gpu_per_micro_batch: f64,
    pub micro_batches: f64,
    pub pipeline_bubble_fraction: f64,
}

/// The report's `training` section for a run and its timing on `gpus` GPUs.
pub fn training_report(s: &Scenario, run: &TrainingRun, t: &TrainingTiming, gpus: f64) -> TrainingReport {
    let sh = &run.shape;
    let per_gpu = |v: f64| if gpus > 0.0 { v / gpus } else { 0.0 };
    let tps = per_gpu(t.tokens_per_s);
    let flops = |c| {
        model_flops_per_token(
            c,
            sh.multiplied_params,
            sh.all_params,
            sh.layers,
            sh.attention_width,
            run.layout.seq,
        )
    };
    let model = flops(s.flop_convention);
    let hardware = flops(FlopConvention::MegatronCausal) + t.recompute_flops_per_token;
    let peak = run.hw.peak;
    let share = |f: f64| if peak > 0.0 { f * tps / peak } else { 0.0 };
    TrainingReport {
        tokens_per_s_per_gpu: tps,
        tokens_per_s_per_gpu_bound: per_gpu(t.tokens_per_s_bound),
        convention: s.flop_convention,
        model_flops_per_token: model,
        model_flops_per_s_per_gpu: model * tps,
        mfu: share(model),
        hfu: share(hardware),
        peak_flops_per_s: peak,
        recompute_flops_per_token: t.recompute_flops_per_token,
        step: t.breakdown,
        recipe: run.settings.recipe,
        linear_speedup: t.linear_speedup,
        gemm_efficiency: t.gemm_share,
        attention_kernel: run.settings.kernel,
        attention_forward_share: t.attention.forward,
        attention_backward_share: t.attention.backward,
        tokens_per_gpu_per_micro_batch: run.layout.batch * run.layout.seq / run.layout.cp,
        micro_batches: run.layout.micro_batches,
        pipeline_bubble_fraction: t.pipeline_bubble_fraction,
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::engine::memory::Inputs;
    use crate::engine::model::params::count_params;
    use crate::engine::perf::performance::model_shape;

    /// FP8 block scaling needs compute capability 9.0 (Transformer Engine): an Ada GPU, which has
    /// the FP8 path, is refused by name; Hopper runs it; MXFP8 needs Blackwell's path.
    #[test]
    fn recipes_need_their_gpus() {
        let check = |gpu: &str, recipe: &str| {
            let v = serde_json::json!({"model": "llama-3.1-8b", "gpu": gpu, "mode": "training",
                "low_precision_recipe": recipe});
            let s = Scenario::from_json(&v).unwrap();
            let r = crate::engine::evaluate::resolve(&s, &crate::catalog::Catalog).unwrap();
            check_training_gpu(&s, &r.gpu)
        };
        let ada = check("l40s", "fp8_blockwise").unwrap_err();
        assert_eq!(ada.field, "low_precision_recipe");
        assert!(matches!(ada.kind, ErrorKind::KernelNeedsArchitecture { needs: "Hopper or Blackwell", .. }));
        assert!(check("l40s", "fp8_current").is_ok() && check("h100-sxm", "fp8_blockwise").is_ok());
        assert!(matches!(
            check("h100-sxm", "mxfp8").unwrap_err().kind,
            ErrorKind::RecipeNeedsPath { needs: "fp4", .. }
        ));
    }

    /// The training run of a scenario given as JSON, resolved against the catalog.
    pub(crate) fn run_for(v: serde_json::Value) -> TrainingRun {
        let s = Scenario::from_json(&v).expect("a scenario");
        let lookup = crate::catalog::Catalog;
        let r = crate::engine::evaluate::resolve(&s, &lookup).expect("it resolves");
        let x = Inputs::on_gpu(&s, &r.gpu);
        let counts = count_params(&r.arch);
        let trainable = match s.mode {
            Mode::Lora | Mode::Qlora => crate::engine::memory::lora::adapter_params(
                &r.arch,
                &x,
                0..crate::engine::num::usize_sat(r.arch.layers),
            ),
            _ => counts.total,
        };
        let z = SizedScenario {
            draft: None,
            scenario: &s,
            arch: &r.arch,
            counts: &counts,
            inputs: &x,
            gpu: &r.gpu,
            lookup: &lookup,
            trainable,
            gpu_room: 0,
        };
        training_run(&z, &model_shape(&r.arch, &counts, &x, s.context_tokens))
    }
}
