//! `evaluate`: Scenario in, Report out. Total: every input gives a report or a typed error.

use super::error::{EngineError, ScenarioError};
use super::memory::{lora::adapter_params, model_states::optimizer_bytes_per_param};
use super::memory::{memory_per_gpu, Inputs};
use super::model::config::parse_config;
use super::model::kv_cache::{kv_cache_bytes_per_token, kv_elements_per_token_per_layer};
use super::model::params::count_params;
use super::model::Architecture;
use super::performance::{performance, Sized};
use super::report::*;
use super::scenario::{Mode, ModelSpec, Scenario};
use super::solvers;
use std::borrow::Cow;
use std::collections::BTreeMap;

/// The model a scenario names, with its catalog metadata when it came from the catalog.
pub fn resolve_model(spec: &ModelSpec) -> Result<(Cow<'static, Architecture>, ModelInfo), ScenarioError> {
    match spec {
        ModelSpec::Id(id) => {
            let entry = crate::catalog::models::find(id).ok_or_else(|| {
                ScenarioError::new(
                    "model",
                    format!(
                        "unknown catalog id '{id}' (known: {})",
                        crate::catalog::models::ids().join(", ")
                    ),
                )
            })?;
            let info = ModelInfo {
                id: Some(entry.model.id.clone()),
                name: entry.model.name.clone(),
                family: entry.architecture.model_type.clone(),
                source: Some(entry.model.source.clone()),
            };
            Ok((Cow::Borrowed(&entry.architecture), info))
        }
        ModelSpec::Config(v) => {
            let a = parse_config(v)?;
            let name = v.get("_name_or_path").and_then(|n| n.as_str()).unwrap_or("pasted config").to_owned();
            let info = ModelInfo { id: None, name, family: a.model_type.clone(), source: None };
            Ok((Cow::Owned(a), info))
        }
    }
}

/// Checks that need the model: tensor parallelism must split the heads, pipeline the layers.
pub(crate) fn validate_against_model(s: &Scenario, a: &Architecture) -> Result<(), ScenarioError> {
    let tp = s.tensor_parallel;
    if !solvers::tp_allowed(a, tp) {
        return Err(ScenarioError::new(
            "tensor_parallel",
            format!(
                "must divide num_attention_heads ({}) and divide or be a multiple of num_key_value_heads ({}), got {tp}",
                a.attention.heads, a.attention.kv_heads
            ),
        ));
    }
    if s.pipeline_parallel > a.layers {
        return Err(ScenarioError::new(
            "pipeline_parallel",
            format!("must be between 1 and the number of layers ({}), got {}", a.layers, s.pipeline_parallel),
        ));
    }
    Ok(())
}

fn d(formula: &str, values: String, source: &str) -> Derivation {
    Derivation { formula: formula.to_owned(), values, source: source.to_owned() }
}

/// Evaluates a scenario.
pub fn evaluate(s: &Scenario) -> Result<Report, EngineError> {
    s.validate()?;
    let (arch, model) = resolve_model(&s.model)?;
    let a: &Architecture = &arch;
    validate_against_model(s, a)?;
    let gpu = s.gpu.resolve()?;
    let gpu_memory_bytes = s.gpu_memory_bytes.unwrap_or(gpu.memory_bytes);
    let x = Inputs::from_scenario(s);

    let counts = count_params(a);
    let kv_per_token = kv_cache_bytes_per_token(a, x.kv, x.group);
    let mem = memory_per_gpu(a, &x);
    let usable = (gpu_memory_bytes as f64 * (1.0 - s.safety_margin)).floor() as u128;
    let fits = mem.total <= usable;
    let trainable = match s.mode {
        Mode::Inference => 0,
        Mode::Training => counts.total,
        Mode::Lora | Mode::Qlora => adapter_params(a, &x, 0..a.layers as usize),
    };
    let solvers = Solvers {
        max_context_tokens: solvers::max_context_tokens(a, &x, usable),
        max_batch: solvers::max_batch(a, &x, usable),
        min_gpus: solvers::min_gpus(a, &x, usable),
    };

    let mut dv = BTreeMap::new();
    let at = &a.attention;
    let hf = "Hugging Face transformers modeling code for the family; counted module by module";
    dv.insert("params.total".into(), d(
        "embedding V·h + lm_head (V·h unless tied) + Σ_layers(attention + MLP/experts + norms + biases) + final norm",
        format!("{} + {} + {} (attention) + {} (MLP) + {} (experts) + {} (norms, biases, routers, positions) = {}",
            counts.embedding, counts.lm_head, counts.attention, counts.mlp, counts.experts, counts.other + counts.positions, counts.total), hf));
    dv.insert(
        "params.active".into(),
        d(
            "total − routed experts + top-k routed experts per token",
            format!("{} − {} + active experts = {}", counts.total, counts.experts, counts.active),
            hf,
        ),
    );
    dv.insert(
        "params.trainable".into(),
        d(
            "training: all parameters; LoRA: Σ r·(in+out) over targeted modules; inference: 0",
            format!("mode {:?}, rank {} → {trainable}", s.mode, s.lora_rank),
            "Hu et al. 2021, LoRA",
        ),
    );
    let (kv_formula, kv_values) = match at.mla {
        Some(m) => (
            "layers × (kv_lora_rank + qk_rope_head_dim) × bytes (MLA latent)".to_owned(),
            format!(
                "{} × ({} + {}) × {} bits/8 = {kv_per_token}",
                a.layers,
                m.kv_lora_rank,
                m.qk_rope_head_dim,
                x.kv.bits_label(x.group)
            ),
        ),
        None => (
            "layers × kv_heads × (head_dim_k + head_dim_v) × bytes".to_owned(),
            format!(
                "{} × {} × ({} + {}) × {} bits/8 = {kv_per_token}",
                a.layers,
                at.kv_heads,
                at.head_dim,
                at.v_head_dim,
                x.kv.bits_label(x.group)
            ),
        ),
    };
    dv.insert(
        "kv_cache_bytes_per_token".into(),
        d(&kv_formula, kv_values, "Kwon et al. 2023 (PagedAttention) §3; DeepSeek-V2 paper §2.1 for MLA"),
    );
    dv.insert("memory_per_gpu_bytes.weights".into(), d(
        "Σ layer matrices / tp × weight bits + (embedding, head, norms, biases) × 16-bit when quantised; ZeRO-3 / dp",
        format!("stage {} of {}, tp {}, {} ({} bits) → {}", mem.stage, x.pp, x.tp, x.weight.name(), x.weight.bits_label(x.group), mem.weights),
        "Shoeybi et al. 2019 (Megatron TP); GPTQ/AWQ/QLoRA storage formats"));
    dv.insert("memory_per_gpu_bytes.kv_cache".into(), d(
        "batch × Σ_stage layers ceil(min(context, window)/block)·block × ceil(kv_heads/tp) × (d_k + d_v) × bytes",
        format!("{} × {} tokens × {} elements/token/layer × {} bits/8 → {}", x.batch, x.context, kv_elements_per_token_per_layer(a, x.tp), x.kv.bits_label(x.group), mem.kv_cache),
        "vLLM PagedAttention (Kwon et al. 2023); 0 when training"));
    dv.insert("memory_per_gpu_bytes.activations".into(), d(
        if x.trains() { "tokens × layers × in-flight micro-batches × ((norms+2)·h + (Q,K,V,O + MLP intermediates)/tp [+ H·s without flash]) × bytes + logits" }
        else { "min(chunk, context·batch) × (2h + QKV/tp + MLP intermediates/tp) × bytes + batch × V/tp × 4 (fp32 logits)" },
        format!("context {}, batch {}, recompute {:?}, flash {}, sp {} → {}", x.context, x.batch, x.recompute, x.flash_attention, x.sequence_parallel, mem.activations),
        "Korthikanti et al. 2022 §4 (training); vLLM profile run (inference)"));
    dv.insert(
        "memory_per_gpu_bytes.gradients".into(),
        d(
            "trainable params on this GPU × gradient bytes; ZeRO ≥ 2: / dp",
            format!("zero stage {}, dp {} → {}", x.zero_stage, x.dp, mem.gradients),
            "Rajbhandari et al. 2020 (ZeRO)",
        ),
    );
    dv.insert(
        "memory_per_gpu_bytes.optimizer".into(),
        d(
            "trainable params × (moments + fp32 master); ZeRO ≥ 1: / dp",
            format!(
                "{:?}: {} bytes/param (full training), zero stage {}, dp {} → {}",
                x.optimizer,
                optimizer_bytes_per_param(x.optimizer, x.weight),
                x.zero_stage,
                x.dp,
                mem.optimizer
            ),
            "Rajbhandari et al. 2020 (ZeRO) K=12 for Adam; Dettmers et al. 2022 (8-bit optimizers)",
        ),
    );
    dv.insert(
        "memory_per_gpu_bytes.overhead".into(),
        d(
            "CUDA context + NCCL/cuBLAS workspaces + allocator reserve (assumed)",
            format!("{}", mem.overhead),
            "stated assumption; vLLM reports 0.05-0.12 GiB non-torch memory plus the CUDA context",
        ),
    );
    dv.insert(
        "memory_per_gpu_bytes.total".into(),
        d(
            "weights + kv_cache + activations + gradients + optimizer + overhead",
            format!(
                "{} + {} + {} + {} + {} + {} = {}",
                mem.weights,
                mem.kv_cache,
                mem.activations,
                mem.gradients,
                mem.optimizer,
                mem.overhead,
                mem.total
            ),
            "sum",
        ),
    );
    dv.insert(
        "gpu_memory_bytes".into(),
        d(
            "GPU catalog memory (or gpu_memory_bytes override)",
            format!("{} → {gpu_memory_bytes}", gpu.id),
            "catalog/data/gpus.json",
        ),
    );
    dv.insert(
        "usable_gpu_memory_bytes".into(),
        d(
            "gpu_memory × (1 − safety_margin)",
            format!("{gpu_memory_bytes} × (1 − {}) = {usable}", s.safety_margin),
            "stated assumption",
        ),
    );
    dv.insert(
        "fits".into(),
        d("total ≤ usable", format!("{} ≤ {usable} → {fits}", mem.total,), "definition"),
    );
    dv.insert(
        "layout.data_parallel".into(),
        d("gpus / (tp × pp)", format!("{} / ({} × {}) = {}", s.gpus, x.tp, x.pp, x.dp), "definition"),
    );
    let or_none = |v: Option<u64>| v.map_or_else(|| "none fits".to_owned(), |n| n.to_string());
    let model_limit = a.max_position_embeddings.map_or_else(|| "not stated".to_owned(), |m| m.to_string());
    dv.insert("solvers.max_context_tokens".into(), d("largest context ≤ min(10M, max_position_embeddings) with total ≤ usable (binary search, memory is monotone in context)",
        format!("batch {}, usable {usable}, model limit {model_limit} → {}", s.batch, or_none(solvers.max_context_tokens)), "this engine"));
    dv.insert(
        "solvers.max_batch".into(),
        d(
            "largest batch with total ≤ usable (binary search)",
            format!("context {}, usable {usable} → {}", s.context_tokens, or_none(solvers.max_batch)),
            "this engine",
        ),
    );
    dv.insert("solvers.min_gpus".into(), d("fewest GPUs with total ≤ usable: tp ≤ 8 dividing heads, then pp; ZeRO data parallel when training",
        solvers.min_gpus.as_ref().map_or_else(
            || "none up to 65536 GPUs".to_owned(),
            |m| format!("{} GPUs = tp {} × pp {} × dp {}", m.gpus, m.tensor_parallel, m.pipeline_parallel, m.data_parallel),
        ), "this engine"));

    let mut assumptions = vec![
        format!(
            "runtime overhead {} bytes per GPU (CUDA context, NCCL/cuBLAS workspaces, allocator reserve)",
            s.runtime_overhead_bytes
        ),
        format!("safety margin {} of GPU memory kept free", s.safety_margin),
    ];
    if let Some(limit) = a.max_position_embeddings.filter(|m| *m > 0 && s.context_tokens > *m) {
        assumptions.push(format!(
            "warning: context_tokens {} exceeds the model's max_position_embeddings {limit}; the memory is computed, but the model was not built for it",
            s.context_tokens
        ));
    }
    if x.weight.is_quantised() {
        assumptions.push(
            "embeddings, output head, norms, biases and routers stay in 16 bits in quantised checkpoints"
                .into(),
        );
    }
    if !x.trains() {
        assumptions.push(format!(
            "paged KV cache in blocks of {} tokens; prefill chunk of {} tokens",
            s.kv_block_tokens, s.prefill_chunk_tokens
        ));
    } else {
        assumptions
            .push("no dropout; 1F1B pipeline schedule; logits kept in 16 bits and fp32 for the loss".into());
    }
    if matches!(s.mode, Mode::Lora | Mode::Qlora) {
        assumptions.push(
            "adapters, their gradients and optimizer states in fp32 (PEFT autocast_adapter_dtype)".into(),
        );
    }

    let sized = Sized { scenario: s, arch: a, counts: &counts, inputs: &x, gpu: &gpu, trainable };
    let performance = performance(&sized, &mut dv, &mut assumptions)?;

    Ok(Report {
        performance,
        model,
        params: Params {
            total: to_u64(counts.total),
            active: to_u64(counts.active),
            trainable: to_u64(trainable),
            embedding: to_u64(counts.embedding),
            lm_head: to_u64(counts.lm_head),
            attention: to_u64(counts.attention),
            mlp: to_u64(counts.mlp),
            experts: to_u64(counts.experts),
            other: to_u64(counts.other + counts.positions),
        },
        kv_cache_bytes_per_token: to_u64(kv_per_token),
        memory_per_gpu_bytes: Memory {
            weights: to_u64(mem.weights),
            kv_cache: to_u64(mem.kv_cache),
            activations: to_u64(mem.activations),
            gradients: to_u64(mem.gradients),
            optimizer: to_u64(mem.optimizer),
            overhead: to_u64(mem.overhead),
            total: to_u64(mem.total),
        },
        gpu_memory_bytes,
        usable_gpu_memory_bytes: to_u64(usable),
        fits,
        layout: Layout {
            gpus: s.gpus,
            tensor_parallel: x.tp,
            pipeline_parallel: x.pp,
            data_parallel: x.dp,
            heaviest_stage: mem.stage,
        },
        solvers,
        assumptions,
        derivations: dv,
    })
}
