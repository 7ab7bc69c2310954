//! Step 3 of [`super::evaluate_with`]: how each sizing number was obtained, one derivation per
//! report path (`params.*`, `kv_cache_bytes_per_token`, the GPU's memory, the fit, the layout
//! and the solvers here; `memory_per_gpu_bytes.*` in [`memory_lines`]). Every function derives
//! one group of them from the [`Sizing`] already computed; none computes a number the report
//! does not hold, except the intermediate values a formula shows (columns, tokens, layers).

use super::Sizing;
use crate::engine::derivation::{Absent, DerivKey, Derivation, Formula, Source, Val};
use crate::engine::gpu::Gpu;
use crate::engine::model::{gemma4, Architecture};
use crate::engine::scenario::Scenario;
use std::collections::BTreeMap;

mod memory_lines;

/// One derivation, keyed by the report path it explains.
type Entry = (DerivKey, Derivation);

fn entry(k: DerivKey, f: Formula, values: Vec<Val>, source: Source) -> Entry {
    (k, Derivation::new(f, values, source))
}

/// Every sizing derivation of the scenario `s` on `gpu`, sized as `z`.
pub(super) fn sizing_derivations(
    s: &Scenario,
    a: &Architecture,
    gpu: &Gpu,
    z: &Sizing,
) -> BTreeMap<DerivKey, Derivation> {
    let mut dv = BTreeMap::new();
    dv.extend(param_derivations(s, z));
    dv.extend([kv_per_token(a, z)]);
    dv.extend(memory_lines::memory_line_derivations(a, z));
    dv.extend(gpu_memory_derivations(s, gpu, z));
    dv.extend(solver_derivations(s, a, z));
    if let Some(m) = a.moe.as_ref() {
        dv.extend([experts_per_gpu(m.routed_experts, &z.inputs, a)]);
    }
    dv
}

/// `layout.experts_per_gpu`: expert parallelism's share of the routed experts
/// ([`crate::engine::memory::expert_parallel::ExpertLayout`]).
fn experts_per_gpu(experts: u64, x: &crate::engine::memory::Inputs, a: &Architecture) -> Entry {
    let l = x.experts(a);
    entry(
        DerivKey::LayoutExpertsPerGpu,
        Formula::ExpertsPerGpu,
        vec![
            Val::int(experts),
            Val::int(x.redundant_experts),
            Val::int(l.ep),
            Val::int(l.per_gpu),
            Val::int(x.tp),
            Val::int(l.moe_tp),
        ],
        Source::cited("vLLM docs, Expert Parallel Deployment (EP = TP × DP, whole experts per rank); SGLang server_args.py ep_size (each expert tp/ep ways); DeepSeek, Day 6: DeepSeek-V3/R1 Inference System Overview (2025-03-01: redundant experts)"),
    )
}

/// `params.total` (the sum of the parts), `params.active` (total less the experts not routed
/// to) and `params.trainable` (everything in full training, the adapters under LoRA; Hu et al.
/// 2021). The counts come from the architecture as the modeling code builds it.
fn param_derivations(s: &Scenario, z: &Sizing) -> [Entry; 3] {
    let c = &z.counts;
    let parts = [c.embedding, c.lm_head, c.attention, c.mlp, c.experts, c.other + c.positions, c.total];
    [
        entry(
            DerivKey::ParamsTotal,
            Formula::ParamsTotal,
            parts.map(Val::Count).to_vec(),
            Source::ModelingCode,
        ),
        entry(
            DerivKey::ParamsActive,
            Formula::ParamsActive,
            vec![Val::Count(c.total), Val::Count(c.experts), Val::Count(c.active)],
            Source::ModelingCode,
        ),
        entry(
            DerivKey::ParamsTrainable,
            Formula::ParamsTrainable,
            vec![Val::Mode(s.mode), Val::int(s.lora_rank), Val::Count(z.trainable)],
            Source::cited("Hu et al. 2021, LoRA"),
        ),
    ]
}

/// `kv_cache_bytes_per_token`: `2 × layers × kv_heads × head_dim` elements per token
/// (PagedAttention, Kwon et al. 2023 §3), the compressed latent plus the RoPE key under MLA
/// (DeepSeek-V2 §2.1), and Gemma 4's sliding and full layers of different shapes (gemma4.rs).
fn kv_per_token(a: &Architecture, z: &Sizing) -> Entry {
    let x = &z.inputs;
    let bits = Val::Bits(x.kv, x.group);
    let at = &a.attention;
    let layers = Val::int(a.attention_layers());
    let (formula, values) = match (&a.gemma4, at.mla) {
        (Some(g), _) => gemma4::kv_derivation(a, g, bits, z.kv_per_token),
        (None, Some(m)) => (
            Formula::KvPerTokenMla,
            vec![
                layers,
                Val::int(m.kv_lora_rank),
                Val::int(m.qk_rope_head_dim),
                bits,
                Val::ExactBytes(z.kv_per_token),
            ],
        ),
        (None, None) => (
            Formula::KvPerToken,
            vec![
                layers,
                Val::int(at.kv_heads),
                Val::int(at.head_dim),
                Val::int(at.v_head_dim),
                bits,
                Val::ExactBytes(z.kv_per_token),
            ],
        ),
    };
    let source = Source::cited("Kwon et al. 2023 (PagedAttention) §3; DeepSeek-V2 paper §2.1 for MLA");
    entry(DerivKey::KvCacheBytesPerToken, formula, values, source)
}

/// `gpu_memory_bytes` (the catalog's, or the scenario's override), the usable memory after the
/// safety margin, whether the heaviest GPU fits, and the data-parallel size
/// `gpus / (tp × pp)`.
fn gpu_memory_derivations(s: &Scenario, gpu: &Gpu, z: &Sizing) -> [Entry; 4] {
    let x = &z.inputs;
    [
        entry(
            DerivKey::GpuMemoryBytes,
            Formula::GpuMemory,
            vec![Val::Id(gpu.id.clone()), Val::Bytes(u128::from(z.gpu_memory_bytes))],
            Source::GpuCatalog,
        ),
        usable_memory(s, gpu, z),
        fits(z),
        entry(
            DerivKey::LayoutDataParallel,
            Formula::DataParallel,
            vec![Val::int(s.gpus), Val::int(x.tp), Val::int(x.pp), Val::int(x.dp)],
            Source::Definition,
        ),
    ]
}

/// `usable_gpu_memory_bytes`: the memory less the safety margin, and on Apple silicon (and
/// Ryzen AI Max under Linux) only the share the system lets the GPU use ([`crate::engine::gpu::MemoryKind::gpu_budget`]).
fn usable_memory(s: &Scenario, gpu: &Gpu, z: &Sizing) -> Entry {
    if z.gpu_budget == z.gpu_memory_bytes {
        return entry(
            DerivKey::UsableGpuMemoryBytes,
            Formula::Usable,
            vec![Val::Bytes(u128::from(z.gpu_memory_bytes)), Val::Num(s.safety_margin), Val::Bytes(z.usable)],
            Source::StatedAssumption,
        );
    }
    let share = z.gpu_budget as f64 / z.gpu_memory_bytes.max(1) as f64;
    entry(
        DerivKey::UsableGpuMemoryBytes,
        Formula::UsableWorkingSet,
        vec![
            Val::Bytes(u128::from(z.gpu_memory_bytes)),
            Val::Fixed(share, 3),
            Val::Num(s.safety_margin),
            Val::Bytes(z.usable),
        ],
        Source::cited(&format!("{}; {}", gpu.name, budget_source(gpu.memory_kind))),
    )
}

/// Where a unified-memory device's GPU share comes from.
fn budget_source(kind: crate::engine::gpu::MemoryKind) -> &'static str {
    if kind == crate::engine::gpu::MemoryKind::LinuxGtt {
        "Linux amdgpu GTT limit, half of system memory by default (ROCm issue #5595; raised with ttm.pages_limit)"
    } else {
        "Metal recommendedMaxWorkingSetSize as logged by llama.cpp (llama-cpp-python #687, ollama #434, llama.cpp #1870; MLX PR #64), a lower bound on recent macOS (raised with sysctl iogpu.wired_limit_mb)"
    }
}

/// `fits`: what must fit against the usable memory; paged optimizer states on the device are
/// not part of it.
fn fits(z: &Sizing) -> Entry {
    let (total, usable) = (z.memory.total, z.usable);
    if z.must_fit == total {
        return entry(
            DerivKey::Fits,
            Formula::Fits,
            vec![Val::Bytes(total), Val::Bytes(usable), Val::Bool(z.fits)],
            Source::Definition,
        );
    }
    entry(
        DerivKey::Fits,
        Formula::FitsPaged,
        vec![
            Val::Bytes(total),
            Val::Bytes(total - z.must_fit),
            Val::Bytes(z.must_fit),
            Val::Bytes(usable),
            Val::Bool(z.fits),
        ],
        Source::Definition,
    )
}

/// `solvers.*`: the longest context at the scenario's batch, the largest batch at its context,
/// and the fewest GPUs that fit (this engine's searches over the same memory model).
fn solver_derivations(s: &Scenario, a: &Architecture, z: &Sizing) -> Vec<Entry> {
    let (usable, solved) = (z.usable, &z.solvers);
    let min_gpus = solved.min_gpus.as_ref().map_or(Val::Absent(Absent::NoLayoutUpTo65536), |m| Val::Layout {
        gpus: m.gpus,
        tp: m.tensor_parallel,
        pp: m.pipeline_parallel,
        dp: m.data_parallel,
    });
    [
        entry(
            DerivKey::SolverMaxContext,
            Formula::MaxContext,
            vec![
                Val::int(s.batch),
                Val::Bytes(usable),
                Val::or_absent(a.max_position_embeddings, Absent::NotStated),
                Val::or_absent(solved.max_context_tokens, Absent::NoneFits),
            ],
            Source::ThisEngine,
        ),
        entry(
            DerivKey::SolverMaxBatch,
            Formula::MaxBatch,
            vec![
                Val::int(s.context_tokens),
                Val::Bytes(usable),
                Val::or_absent(solved.max_batch, Absent::NoneFits),
            ],
            Source::ThisEngine,
        ),
        entry(DerivKey::SolverMinGpus, Formula::MinGpus, vec![min_gpus], Source::ThisEngine),
        entry(
            DerivKey::SolverMaxGpuLayers,
            Formula::MaxGpuLayers,
            vec![
                Val::int(s.context_tokens),
                Val::int(s.batch),
                Val::Bytes(usable),
                Val::or_absent(solved.max_gpu_layers, Absent::NoneFits),
                Val::int(a.layers + 1),
            ],
            Source::cited("llama.cpp llama_model::load_tensors (i_gpu_start = max(L + 1 − ngl, 0); the output layer is layer L and goes first, PR #18148)"),
        ),
        entry(
            DerivKey::SolverMinCpuMoe,
            Formula::MinCpuMoe,
            vec![
                Val::int(s.context_tokens),
                Val::int(s.batch),
                Val::Bytes(usable),
                Val::or_absent(solved.min_cpu_moe, Absent::NoneFits),
                Val::int(a.layers),
            ],
            Source::cited("llama.cpp --n-cpu-moe (common/arg.cpp) and --fit (PR #16653: experts to host memory before whole layers)"),
        ),
    ]
    .into_iter()
    .filter(|(k, _)| *k != DerivKey::SolverMaxGpuLayers || solved.max_gpu_layers.is_some() || z.placement.splits())
    .filter(|(k, _)| *k != DerivKey::SolverMinCpuMoe || solved.min_cpu_moe.is_some())
    .collect()
}
