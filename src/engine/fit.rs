//! `memory_fit_with`: only the memory half of [`evaluate_with`](super::evaluate::evaluate_with): the heaviest
//! GPU's bytes, the usable memory and whether it fits. No time model, no scaling curves, no
//! solvers, no derivation strings: cheap enough to ask many times per slider move (the
//! what-would-fit advice and the repair of a damaged link both ask "does this one fit?").
//!
//! It runs the same checks in the same order as `evaluate` and the same sizing functions
//! ([`memory_per_gpu`]), so `memory_fit_with(s, l)` is `Ok` exactly when `evaluate_with(s, l)` is (the few
//! checks of the time model included), and its `total_bytes` and `fits` equal the report's
//! `memory_per_gpu_bytes.total` and `fits` (a property test in `tests/fit.rs` holds it to that).

use super::error::EngineError;
use super::evaluate::{resolve, usable_bytes, Resolved};
use super::lookup::Lookup;
use super::memory::{memory_per_gpu, Inputs};
use super::perf::performance::time_model_inputs;
use super::report::to_u64;
use super::scenario::Scenario;

/// The memory verdict for a scenario: the heaviest GPU against its usable memory.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MemoryFit {
    /// Bytes on the heaviest GPU (the report's `memory_per_gpu_bytes.total`).
    pub total_bytes: u64,
    /// Of which KV cache (the report's `memory_per_gpu_bytes.kv_cache`).
    pub kv_cache_bytes: u64,
    /// GPU memory × (1 − safety margin), floored (the report's `usable_gpu_memory_bytes`).
    pub usable_bytes: u64,
    /// `total_bytes ≤ usable_bytes` (the report's `fits`).
    pub fits: bool,
}

/// The per-GPU memory and whether it fits, without the time model.
///
/// # Errors
/// The same typed errors as `evaluate`: a field out of range, an unknown model or GPU, a
/// parallel layout the model cannot take, an efficiency override out of range, a GPU without a
/// usable peak for the compute dtype.
pub fn memory_fit_with(s: &Scenario, lookup: &dyn Lookup) -> Result<MemoryFit, EngineError> {
    let Resolved { gpu, arch, .. } = resolve(s, lookup)?;
    let gpu_memory_bytes = s.gpu_memory_bytes.unwrap_or(gpu.memory_bytes);
    // The time model's own input checks, so that Ok here means Ok from `evaluate`.
    let x = Inputs::on_gpu(s, &gpu);
    time_model_inputs(
        s,
        &gpu,
        crate::engine::memory::quant_weights::active(&arch, &x),
        arch.attention.mla.is_some(),
    )?;
    let mem = memory_per_gpu(&arch, &x);
    let usable = usable_bytes(gpu.memory_kind.gpu_budget(gpu_memory_bytes), s.safety_margin);
    Ok(MemoryFit {
        total_bytes: to_u64(mem.total),
        kv_cache_bytes: to_u64(mem.kv_cache),
        usable_bytes: to_u64(usable),
        fits: mem.total <= usable,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::catalog::{evaluate, memory_fit};
    use crate::engine::ModelSpec;

    #[test]
    fn eight_b_in_bf16_on_an_h100_fits_with_the_reports_numbers() {
        let s = Scenario::new(ModelSpec::Id("llama-3.1-8b".into()));
        let f = memory_fit(&s).expect("the default scenario evaluates");
        let r = evaluate(&s).expect("the default scenario evaluates");
        assert!(f.fits);
        assert_eq!(f.total_bytes, r.memory_per_gpu_bytes.total);
        assert_eq!(f.usable_bytes, r.usable_gpu_memory_bytes);
        // 8.03 B parameters in bf16 alone are 16 GB.
        assert!(f.total_bytes > 16_000_000_000, "{f:?}");
    }

    #[test]
    fn errors_are_the_same_kind_and_field_as_evaluate() {
        let mut s = Scenario::new(ModelSpec::Id("llama-3.1-8b".into()));
        s.tensor_parallel = 3;
        s.gpus = 3;
        let e = memory_fit(&s).expect_err("tp 3 cannot split 32 heads");
        assert_eq!(Some(e), evaluate(&s).err());
    }
}
