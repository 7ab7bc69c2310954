//! Training measurements as scenarios: Megatron iteration times, model TFLOPs per GPU, and
//! fine-tuning peak memory and throughput under a framework's recipe.

use super::Row;
use crate::engine::memory::model_states::paged;
use crate::engine::precision::Dtype;
use crate::engine::scenario::Scenario;
use crate::engine::workload::{Mode, Recompute};
use crate::validation::{num, text, Case, Metric, Note, Reason, Recipe, RowUnit};
use serde_json::Value;

/// Iteration time of a Megatron run (Korthikanti et al. 2022, Tables 3 and 5): micro-batch and
/// sequence as stated, `global / (micro × dp)` micro-batches per step; one case per
/// recomputation the row reports (full; selective with sequence parallelism).
pub(super) fn iteration_time(row: &Row, mut s: Scenario, dp: u64) -> Result<Vec<Case>, Reason> {
    let c = &row.c;
    let (Some(mb), Some(gb), Some(seq)) =
        (num(c, &["micro_batch"]), num(c, &["global_batch"]), num(c, &["seq_len"]))
    else {
        return Err(Reason::NoBatchOrSequenceLength);
    };
    (s.mode, s.batch, s.context_tokens) = (Mode::Training, mb as u64, seq as u64);
    s.micro_batches = Some(((gb / (mb * dp as f64)).max(1.0)) as u64);
    let mut cases = Vec::new();
    for (key, recompute, sp) in [
        ("iter_time_full_recompute_s", Recompute::Full, false),
        ("iter_time_seq_par+selective_s", Recompute::Selective, true),
    ] {
        if let Some(v) = row.value.get(key).and_then(Value::as_f64) {
            let mut s = s.clone();
            (s.recompute, s.sequence_parallel) = (recompute, sp);
            let note = Note::Recompute { recompute, sequence_parallel: sp };
            cases.push(Case::new(
                "training_iteration_time",
                Metric::TrainingStepS,
                v,
                RowUnit::SPerIteration,
                s,
                note,
            ));
        }
    }
    Ok(cases)
}

/// Model TFLOPs per GPU (the Llama 3 paper's Table 4): one sequence per micro-batch, the stated sequences per data-parallel
/// replica as micro-batches, and the paper's interleaved pipeline schedule (§3.3.2: "we use an
/// interleaved schedule with V pipeline stages on one pipeline rank", bubble `(PP − 1)/(V·M)`).
/// The paper gives no V for these runs; 126 layers plus the one removed from each end stage make
/// 128 slots over 16 ranks, so V is 2, 4 or 8, and the express takes the least, 2 (the V its
/// Figure 6 draws: eight stages over four ranks).
pub(super) fn model_tflops(row: &Row, mut s: Scenario) -> Result<Vec<Case>, Reason> {
    let c = &row.c;
    let (Some(seq), Some(per_dp), Some(v)) =
        (num(c, &["seq_len"]), num(c, &["batch_size_per_DP"]), row.value.as_f64())
    else {
        return Err(Reason::NoBatchOrSequenceLength);
    };
    (s.mode, s.batch, s.context_tokens, s.micro_batches) =
        (Mode::Training, 1, seq as u64, Some(per_dp as u64));
    if s.pipeline_parallel > 1 {
        s.virtual_pipeline_stages = LLAMA3_INTERLEAVED_STAGES;
    }
    let note = Note::SequencesPerReplica { sequences: per_dp, virtual_stages: s.virtual_pipeline_stages };
    Ok(vec![Case::new(
        "training_throughput",
        Metric::TrainingTflopsPerGpu,
        v,
        RowUnit::ModelTflopsPerGpu,
        s,
        note,
    )])
}

/// Model chunks per pipeline rank the Llama 3 rows take (see [`model_tflops`]).
const LLAMA3_INTERLEAVED_STAGES: u64 = 2;

/// The fine-tuning mode a method names (QLoRA with its nf4 base).
fn set_fine_tune_mode(s: &mut Scenario, method: &str) {
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
}

/// A fine-tuning run: its peak memory per GPU when its recipe is known and the value is in
/// GiB/GB, and its reported tokens/s (which needs no recipe); batch and sequence as stated
/// (1 and 2048 unstated).
pub(super) fn peak_memory(row: &Row, mut s: Scenario) -> Result<Vec<Case>, Reason> {
    let c = &row.c;
    let method = text(c, "method").to_ascii_lowercase();
    let gpus = row.count.unwrap_or(1);
    let known = recipe(c, &method, gpus);
    // A run that offloads its states to the CPU is not expressed, its throughput neither: the
    // step then runs the optimizer on the CPU and moves every state over PCIe.
    if let Err(Reason::FsdpCpuOffload) = known {
        return Err(Reason::FsdpCpuOffload);
    }
    let Some(tps) = row.raw.get("tokens_per_s").and_then(Value::as_f64) else {
        return Err(known.err().unwrap_or(Reason::PeakTrainingMemory));
    };
    set_fine_tune_mode(&mut s, &method);
    s.batch = num(c, &["batch_size"]).unwrap_or(1.0) as u64;
    s.context_tokens = num(c, &["seq_len"]).unwrap_or(2048.0) as u64;
    let mut cases = Vec::new();
    if let Ok(r) = &known {
        apply_recipe(&mut s, r, gpus);
        let peak = row.value.as_f64().filter(|_| row.unit.contains("GiB") || row.unit.contains("GB"));
        if let Some(v) = peak {
            let note = Note::Recipe { method: method.clone(), recipe: r.clone() };
            cases.push(Case::new(
                "training_peak_memory",
                // torchtune logs `training.get_memory_stats`: PyTorch's allocator statistics.
                Metric::PeakMemoryGiB { without_paged_states: paged(s.optimizer) },
                v,
                RowUnit::GibPeakPerGpu,
                s.clone(),
                note,
            ));
        }
    }
    let note = Note::ThroughputOnly { method };
    cases.push(Case::new(
        "training_tokens_per_s",
        Metric::TrainingTokensPerS,
        tps,
        RowUnit::TokensPerSReported,
        s,
        note,
    ));
    Ok(cases)
}

/// The recipe a fine-tuning row ran, from its framework and method. torchtune's published
/// configs (recipes/configs/llama3_1/*.yaml): `dtype: bf16`, `enable_activation_checkpointing:
/// True`, a chunked cross-entropy (`CEWithChunkedOutputLoss`, 8 chunks by default); the
/// single-device full fine-tune uses `bitsandbytes.optim.PagedAdamW8bit` with
/// `optimizer_in_bwd: True`, the LoRA/QLoRA recipes `torch.optim.AdamW`; several GPUs shard
/// with FSDP (ZeRO-3). A run that offloads parameters to the CPU is not expressed.
fn recipe(c: &Value, method: &str, gpus: u64) -> Result<Recipe, Reason> {
    use crate::engine::workload::Optimizer;
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
    use crate::engine::workload::TrainingPrecision;
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

/// A training measurement whose row states its scenario (`"scenario": {...}`: the engine's keys
/// for the source's layout, batch, recipe and checkpointing; the model and GPU from the row when
/// the scenario does not name them). The kind says what is compared: `training_tokens_per_s`
/// (tokens per second per GPU), `training_mfu` (MFU under the scenario's FLOP convention) and
/// `training_peak_memory` (what PyTorch's allocator counts; the row says which statistic).
pub(super) fn stated(row: &Row, stated: &Value) -> Result<Vec<Case>, Reason> {
    let mut v = stated.clone();
    let Some(obj) = v.as_object_mut() else { return Err(Reason::NoBatchOrSequenceLength) };
    if !obj.contains_key("model") {
        let id = crate::validation::model_id(&row.model).ok_or(Reason::NoArchitecture)?;
        obj.insert("model".into(), Value::String(id));
    }
    if !obj.contains_key("gpu") {
        let gpu = row.gpu.ok_or_else(|| Reason::GpuNotInCatalog { gpu: row.gpu_text.clone() })?;
        obj.insert("gpu".into(), Value::String(gpu.into()));
    }
    let s = Scenario::from_json(&v).map_err(|e| Reason::Rejected { field: e.field, kind: e.kind })?;
    let statistic = match text(row.raw, "statistic").as_str() {
        "reserved" => Some(crate::validation::MemoryStatistic::Reserved),
        "allocated" => Some(crate::validation::MemoryStatistic::Allocated),
        _ => None,
    };
    let (metric, unit) = match row.kind.as_str() {
        "training_tokens_per_s" => (Metric::TrainingTokensPerGpu, RowUnit::TokensPerSPerGpu),
        "training_mfu" => (Metric::Mfu, RowUnit::Mfu),
        "training_peak_memory" => (Metric::AllocatorPeakGiB, RowUnit::GibPeakPerGpu),
        _ => return Err(Reason::UnsupportedKind { kind: row.kind.clone() }),
    };
    let Some(value) = row.value.as_f64() else { return Err(Reason::NoBatchOrValue) };
    let note = Note::Stated(Box::new(crate::validation::StatedRun {
        framework: text(&row.c, "framework"),
        context_parallel: s.context_parallel,
        virtual_pipeline_stages: s.virtual_pipeline_stages,
        expert_parallel: s.expert_parallel,
        ep_comm: s.ep_comm.unwrap_or_default(),
        ep_overlap: s.ep_comm_overlap,
        zero_stage: s.zero_stage,
        recipe: s.resolved_recipe(),
        recompute: s.recompute,
        recompute_layers: s.recompute_layers,
        flop_convention: (metric == Metric::Mfu).then_some(s.flop_convention),
        statistic: if metric == Metric::AllocatorPeakGiB { statistic } else { None },
    }));
    let kind = match metric {
        Metric::TrainingTokensPerGpu => "training_tokens_per_s",
        Metric::Mfu => "training_mfu",
        _ => "training_peak_memory",
    };
    Ok(vec![Case::new(kind, metric, value, unit, s, note)])
}
