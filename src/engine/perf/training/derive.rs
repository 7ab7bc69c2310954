//! How each number of a training step was obtained: the step by operation, tokens per second per
//! GPU, model FLOPs per token, MFU and HFU (formula, substituted values with their units,
//! source), for the report's derivations.

use super::flops::model_flops_per_token;
use super::loss::bytes_per_logit;
use super::optimizer::bytes_per_param;
use super::run::{TrainingReport, TrainingRun};
use super::step::TrainingTiming;
use crate::engine::derivation::{DerivKey, Formula, PhaseName, PhaseQty, Source, TrainingQty, Val};
use crate::engine::num::u128_from_f64;
use crate::engine::workload::{FlopConvention, LossImpl, OptimizerImpl, Recompute};

/// How a derivation is stored: key, formula, substituted values, source.
pub type Put<'a> = dyn FnMut(DerivKey, Formula, Vec<Val>, Source) + 'a;

fn loss_name(l: LossImpl) -> &'static str {
    match l {
        LossImpl::Upcast => "upcast",
        LossImpl::VocabParallel => "vocab_parallel",
        LossImpl::Fused => "fused",
        LossImpl::FusedLinear => "fused_linear",
    }
}

/// Every derivation of the `training` section and of the training phase's time.
pub fn training_derivations(
    run: &TrainingRun,
    t: &TrainingTiming,
    r: &TrainingReport,
    gpus: u64,
    put: &mut Put,
) {
    headline(run, t, r, gpus, put);
    compute(run, r, put);
    communication(run, t, r, put);
}

/// The step as a sum, tokens per second per GPU, model FLOPs per token, MFU and HFU.
fn headline(run: &TrainingRun, t: &TrainingTiming, r: &TrainingReport, gpus: u64, put: &mut Put) {
    let (l, b, sh) = (&run.layout, &r.step, &run.shape);
    let mut parts = b.parts().to_vec();
    parts.push(t.expected.total_s);
    put(
        DerivKey::Phase(PhaseName::Training, PhaseQty::Time),
        Formula::TrainingStepTime,
        parts.into_iter().map(Val::Secs).collect(),
        Source::cited("this engine's training step model (issue 31): Narayanan et al. 2021 §2.2 (pipeline schedules); Korthikanti et al. 2022 (recomputation)"),
    );
    put(
        DerivKey::Training(TrainingQty::TokensPerGpu),
        Formula::TrainingTokensPerGpu,
        vec![
            Val::Num(l.batch),
            Val::Num(l.seq),
            Val::Num(l.micro_batches),
            Val::Num(l.dp),
            Val::Secs(t.expected.total_s),
            Val::int(gpus),
            Val::Fixed(r.tokens_per_s_per_gpu, 1),
        ],
        Source::cited("Megatron-Bridge and NeMo performance summaries (GBS × s / (step time × GPUs)); torchtitan tokens per second per device"),
    );
    let attention = match r.convention {
        FlopConvention::MegatronCausal => 6.0,
        FlopConvention::Palm | FlopConvention::WithEmbedding => 12.0,
    };
    let params =
        if r.convention == FlopConvention::WithEmbedding { sh.all_params } else { sh.multiplied_params };
    put(
        DerivKey::Training(TrainingQty::ModelFlopsPerToken),
        Formula::ModelFlopsPerToken,
        vec![
            Val::Id(FlopConvention::name(r.convention).to_owned()),
            Val::Count(u128_from_f64(params)),
            Val::Num(attention),
            Val::Num(sh.layers),
            Val::Num(sh.attention_width),
            Val::Num(l.seq),
            Val::Flops(r.model_flops_per_token),
        ],
        Source::cited("Megatron-LM num_floating_point_operations (causal since 8873b55, 2025-03-06); Chowdhery et al. 2022 (PaLM) App. B; torchtitan get_num_flop_per_token; llm-foundry MFU"),
    );
    put(
        DerivKey::Training(TrainingQty::Mfu),
        Formula::Mfu,
        vec![
            Val::Flops(r.model_flops_per_token),
            Val::Fixed(r.tokens_per_s_per_gpu, 1),
            Val::FlopRate(r.peak_flops_per_s),
            Val::Fixed(r.mfu, 3),
        ],
        Source::cited("Korthikanti et al. 2022 §6 (MFU); Chowdhery et al. 2022 (PaLM) App. B"),
    );
    let causal = model_flops_per_token(
        FlopConvention::MegatronCausal,
        sh.multiplied_params,
        sh.all_params,
        sh.layers,
        sh.attention_width,
        l.seq,
    );
    put(
        DerivKey::Training(TrainingQty::Hfu),
        Formula::Hfu,
        vec![
            Val::Flops(causal),
            Val::Flops(r.recompute_flops_per_token),
            Val::Fixed(r.tokens_per_s_per_gpu, 1),
            Val::FlopRate(r.peak_flops_per_s),
            Val::Fixed(r.hfu, 3),
        ],
        Source::cited("Korthikanti et al. 2022 §6 (HFU: model FLOPs and the recomputation)"),
    );
}

/// GEMMs, attention, element-wise kernels, loss, recomputation, optimizer.
fn compute(run: &TrainingRun, r: &TrainingReport, put: &mut Put) {
    let (l, b, sh, set) = (&run.layout, &r.step, &run.shape, &run.settings);
    let layers = (sh.layers / l.pp.min(sh.layers).max(1.0)).ceil();
    put(
        DerivKey::Training(TrainingQty::Gemm),
        Formula::StepGemm,
        vec![
            Val::Num(l.micro_batches),
            Val::Num(layers),
            Val::FlopRate(run.hw.peak),
            Val::Fixed(r.gemm_efficiency, 3),
            Val::Fixed(r.linear_speedup, 2),
            Val::Id(r.recipe.name().to_owned()),
            Val::Secs(b.gemm_s),
        ],
        Source::cited("stas00/ml-engineering Maximum Achievable Matmul FLOPS table (2026-08); NVIDIA Matrix Multiplication Background User's Guide (wave quantisation); Transformer Engine speedups.rst (2026-06-01)"),
    );
    put(
        DerivKey::Training(TrainingQty::Attention),
        Formula::StepAttention,
        vec![
            Val::Id(r.attention_kernel.name().to_owned()),
            Val::Fixed(r.attention_forward_share, 3),
            Val::Fixed(r.attention_backward_share, 3),
            Val::Num(r.tokens_per_gpu_per_micro_batch),
            Val::Secs(b.attention_s),
        ],
        Source::cited("Dao 2023 (FlashAttention-2, arXiv:2307.08691) Figs. 4-7; Shah et al. 2024 (FlashAttention-3, arXiv:2407.08608) Figs. 5-6; Together AI FlashAttention-4 (2026); Azure AI-benchmarking-guide"),
    );
    put(
        DerivKey::Training(TrainingQty::Elementwise),
        Formula::StepElementwise,
        vec![
            Val::Num(r.tokens_per_gpu_per_micro_batch),
            Val::Num(layers),
            Val::Num(l.micro_batches),
            Val::ByteRate(run.hw.bandwidth),
            Val::Secs(b.elementwise_s),
        ],
        Source::cited("Yuan et al. 2024 (LLM-Viewer, arXiv:2402.16363) operator bytes, eager PyTorch (one kernel per operation)"),
    );
    put(
        DerivKey::Training(TrainingQty::Loss),
        Formula::StepLoss,
        vec![
            Val::Id(loss_name(set.loss).to_owned()),
            Val::Num(bytes_per_logit(set.loss)),
            Val::Num(r.tokens_per_gpu_per_micro_batch),
            Val::Num((sh.vocab / l.tp.max(1.0)).ceil()),
            Val::Secs(b.loss_s),
        ],
        Source::cited("PyTorch log_softmax/nll_loss; Megatron tensor_parallel/cross_entropy.py and fused_cross_entropy.py; Liger FusedLinearCrossEntropy (passes counted by this engine, an estimate)"),
    );
    let covered = match set.recompute {
        Recompute::None => 0.0,
        _ => set.recompute_layers.map_or(layers, |n| n.min(layers)),
    };
    put(
        DerivKey::Training(TrainingQty::Recompute),
        Formula::StepRecompute,
        vec![Val::Recompute(set.recompute), Val::Num(covered), Val::Num(layers), Val::Secs(b.recompute_s)],
        Source::cited("Korthikanti et al. 2022 §5; torchtitan activation_checkpoint.py (op-level policy); Megatron recompute_method block"),
    );
    let launch = match set.optimizer_impl {
        OptimizerImpl::Foreach => "foreach",
        OptimizerImpl::Fused => "fused",
    };
    let beta = bytes_per_param(set.optimizer, set.optimizer_impl, set.precision, set.gradient_bytes);
    let shard = if l.zero_stage >= 1 { l.dp * l.cp } else { 1.0 };
    let local = set.trainable_params / (l.tp.max(1.0) * l.pp.max(1.0) * shard.max(1.0));
    put(
        DerivKey::Training(TrainingQty::Optimizer),
        Formula::StepOptimizer,
        vec![
            Val::Optimizer(set.optimizer),
            Val::Id(launch.to_owned()),
            Val::Count(u128_from_f64(local)),
            Val::Num(beta),
            Val::Secs(b.optimizer_s),
        ],
        Source::cited(
            "torch/optim/adam.py (_multi_tensor_adam, _fused_adam); apex/TE FusedAdam; gradient clipping",
        ),
    );
}

/// Exposed communication and the pipeline's bubble and the launch lane.
fn communication(run: &TrainingRun, t: &TrainingTiming, r: &TrainingReport, put: &mut Put) {
    let (l, b) = (&run.layout, &r.step);
    let int = |v: f64| Val::Num(v.round());
    put(
        DerivKey::Training(TrainingQty::TensorParallel),
        Formula::StepTensorParallel,
        vec![
            int(l.tp),
            Val::Bool(l.tp_overlap),
            Val::Secs(t.tensor_parallel_comm_s),
            Val::Secs(b.tensor_parallel_s),
            Val::Secs(t.tensor_parallel_overlap_s),
        ],
        Source::cited("Shoeybi et al. 2019 (Megatron TP); Korthikanti et al. 2022 (sequence parallelism); Megatron --tp-comm-overlap; Transformer Engine initialize_ub and comm_gemm_overlap.cpp split_overlap_rs"),
    );
    put(
        DerivKey::Training(TrainingQty::ContextParallel),
        Formula::StepContextParallel,
        vec![int(l.cp), Val::Secs(b.context_parallel_s)],
        Source::cited(
            "Dubey et al. 2024 (The Llama 3 Herd of Models) §3.3.2: all-gather context parallelism",
        ),
    );
    put(
        DerivKey::Training(TrainingQty::ExpertParallel),
        Formula::StepExpertParallel,
        vec![
            int(l.ep),
            Val::Id(run.settings.ep_comm.key().to_owned()),
            Val::Bool(l.ep_overlap),
            Val::Secs(t.expert_parallel_comm_s),
            Val::Secs(b.expert_parallel_s),
        ],
        Source::cited("GShard (Lepikhin et al. 2020); Megatron-Core token dispatchers, --overlap-moe-expert-parallel-comm; DeepEP README"),
    );
    put(
        DerivKey::Training(TrainingQty::Fsdp),
        Formula::StepFsdp,
        vec![Val::int(u64::from(l.zero_stage)), int(l.dp * l.cp), Val::Secs(b.fsdp_s)],
        Source::cited("Zhao et al. 2023 (PyTorch FSDP, arXiv:2304.11277) §3: prefetching"),
    );
    put(
        DerivKey::Training(TrainingQty::DataParallel),
        Formula::StepDataParallel,
        vec![int(l.dp * l.cp), Val::int(u64::from(l.zero_stage)), Val::Secs(t.data_parallel_sync_s), Val::Secs(b.data_parallel_s)],
        Source::cited("Megatron-LM schedules.py (no_sync until the last micro-batch), distributed_data_parallel.py (buckets); PyTorch DDP (Li et al., VLDB 2020)"),
    );
    put(
        DerivKey::Training(TrainingQty::Bubble),
        Formula::StepBubble,
        vec![
            int(l.pp),
            int(l.vp),
            Val::Num(l.micro_batches),
            Val::Fixed(r.pipeline_bubble_fraction, 3),
            Val::Secs(b.pipeline_bubble_s),
        ],
        Source::cited(
            "Narayanan et al. 2021 (SC21) §2.2: 1F1B and interleaved schedules; Huang et al. 2019 (GPipe)",
        ),
    );
    put(
        DerivKey::Training(TrainingQty::Launch),
        Formula::StepLaunch,
        vec![Val::Secs(b.launch_s)],
        Source::cited("PyTorch CUDA semantics (asynchronous execution): launches cost time only when the GPU runs out of queued work"),
    );
}
