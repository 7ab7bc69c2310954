//! What runs on one machine: a model in a llama.cpp file type on the reader's GPU (or Apple
//! chip) with the reader's system memory, answered as a llama.cpp user asks it: does it fit
//! whole, with how many layers on the GPU (`-ngl`) if not, and how fast it then generates.
//!
//! # Steps
//! 1. The scenario resolved as [`super::evaluate_with`] resolves it (its tensor table built once).
//! 2. The whole model on the GPU fits when its memory is at most the usable memory. Else, for an
//!    MoE model, every layer on the GPU with the routed experts of the fewest first layers in host
//!    memory (`--n-cpu-moe m`, [`super::solvers::min_cpu_moe`]), as llama.cpp's `--fit` places
//!    them: the experts are most of the bytes and a token reads few of them. Else (a dense model,
//!    or all experts in host memory still too much) the most layers that fit
//!    ([`super::solvers::max_gpu_layers`], an MoE model's experts all in host memory). What stays
//!    off the GPU must fit the host's memory (the scenario's `host_memory_bytes`, or a
//!    unified-memory device's memory less the GPU's share), less what the operating system
//!    keeps (`host_reserve_bytes`).
//! 3. The decode rate at batch 1 of the placement found ([`super::perf::performance::decode_rates`]).
//!
//! It runs the same checks and the same sizing and time functions as `evaluate`, so a cell of the
//! reader's table is the estimator's answer for that scenario (a test holds it to that).

use super::error::EngineError;
use super::evaluate::{resolve, usable_bytes, Resolved};
use super::lookup::Lookup;
use super::memory::{host_parts, memory_per_gpu, Inputs};
use super::model::params::count_params;
use super::perf::performance::{decode_rates, time_model_inputs, SizedScenario};
use super::report::to_u64;
use super::scenario::Scenario;
use super::solvers;
use serde::Serialize;

/// Where the model ends up.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Verdict {
    /// Every layer on the GPU.
    Full,
    /// `gpu_layers` of `of` on the GPU (llama.cpp's `-ngl`, the output layer counted as one;
    /// `gpu_layers == of`: every layer), and the routed experts of the first `n_cpu_moe` layers in
    /// host memory (`--n-cpu-moe`; 0 for a dense model).
    Offload { gpu_layers: u64, of: u64, n_cpu_moe: u64 },
    /// Neither the GPU nor the GPU and the host's memory together hold it.
    TooBig,
}

/// One model in one file type on one machine.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct LocalFit {
    /// The weights as llama.cpp reports the file's size (all tensors).
    pub model_bytes: u64,
    /// Bytes on the GPU at the placement found.
    pub gpu_bytes: u64,
    /// Bytes in host memory at that placement.
    pub host_bytes: u64,
    pub usable_bytes: u64,
    pub verdict: Verdict,
    /// Expected decode rate at batch 1 (0 when it does not fit).
    pub tokens_per_s: f64,
    /// The roofline bound on it.
    pub tokens_per_s_bound: f64,
}

/// [`LocalFit`] of a scenario (its `gpu_layers` is ignored: the most that fit is found).
///
/// # Errors
/// The same typed errors as `evaluate` for the scenario.
pub fn local_fit_with(s: &Scenario, lookup: &dyn Lookup) -> Result<LocalFit, EngineError> {
    let s = Scenario { gpu_layers: None, ..s.clone() };
    let Resolved { gpu, arch, .. } = resolve(&s, lookup)?;
    time_model_inputs(
        &s,
        &gpu,
        super::memory::quant_weights::active(&arch, &Inputs::from_scenario(&s)),
        arch.attention.mla.is_some(),
    )?;
    let memory = s.gpu_memory_bytes.unwrap_or(gpu.memory_bytes);
    let usable = usable_bytes(gpu.memory_kind.gpu_budget(memory), s.safety_margin);
    let x = Inputs::from_scenario(&s);
    let whole = memory_per_gpu(&arch, &x).total;
    let (gpu_layers, n_cpu_moe) = placement(&arch, &x, whole, usable);
    let x = Inputs { gpu_layers, n_cpu_moe, ..x };
    let on_gpu = memory_per_gpu(&arch, &x).total;
    let host = host_parts(&arch, &x).total();
    let host_room = super::evaluate::host_room(&s, gpu.memory_kind.is_unified(), memory, on_gpu);
    let host_fits = host_room.is_none_or(|room| host <= room);
    let of = arch.layers + 1;
    let verdict = match gpu_layers {
        _ if on_gpu > usable || !host_fits => Verdict::TooBig,
        None if n_cpu_moe == 0 => Verdict::Full,
        n => Verdict::Offload { gpu_layers: n.unwrap_or(of), of, n_cpu_moe },
    };
    let (tokens_per_s, tokens_per_s_bound) = if verdict == Verdict::TooBig {
        (0.0, 0.0)
    } else {
        let placed = Scenario { gpu_layers, n_cpu_moe, ..s.clone() };
        let counts = count_params(&arch);
        let z = SizedScenario {
            draft: None,
            scenario: &placed,
            arch: &arch,
            counts: &counts,
            inputs: &x,
            gpu: &gpu,
            lookup,
            trainable: 0,
            gpu_room: 0,
        };
        decode_rates(&z)?
    };
    let model_bytes =
        arch.tensor_table.as_ref().map_or_else(|| whole, |t| t.bytes(super::model::tensors::Part::All));
    Ok(LocalFit {
        model_bytes: to_u64(model_bytes),
        gpu_bytes: to_u64(on_gpu),
        host_bytes: to_u64(host),
        usable_bytes: to_u64(usable),
        verdict,
        tokens_per_s,
        tokens_per_s_bound,
    })
}

/// Step 2's placement: `(gpu_layers, n_cpu_moe)`, `None` layers meaning all of them.
fn placement(a: &super::model::Architecture, x: &Inputs, whole: u128, usable: u128) -> (Option<u64>, u64) {
    if whole <= usable {
        return (None, x.n_cpu_moe);
    }
    if let Some(m) = solvers::min_cpu_moe(a, x, usable) {
        return (None, m);
    }
    let n_cpu_moe = if a.moe.is_some() { a.layers } else { x.n_cpu_moe };
    (solvers::max_gpu_layers(a, &Inputs { n_cpu_moe, ..*x }, usable), n_cpu_moe)
}
