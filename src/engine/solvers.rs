//! Inverse questions: the longest context, the largest batch and the fewest GPUs that fit.
//!
//! Memory never decreases with context or batch (proptests check it), so the first two are
//! binary searches; the third tries GPU counts in increasing order with a simple layout rule:
//! tensor parallelism inside a node (up to 8, dividing the heads), pipeline stages beyond it,
//! and for training with ZeRO also data-parallel replicas at the scenario's tp × pp.

use super::memory::{memory_per_gpu, memory_per_gpu_with, weights_by_stage, Inputs};
use super::model::Architecture;
use serde::Serialize;

pub const MAX_CONTEXT: u64 = 10_000_000;
pub const MAX_BATCH: u64 = 1_000_000;

/// A parallel layout found by the fewest-GPUs solver.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct GpuCount {
    pub gpus: u64,
    pub tensor_parallel: u64,
    pub pipeline_parallel: u64,
    pub data_parallel: u64,
}

fn fits(a: &Architecture, x: &Inputs, usable: u128) -> bool {
    memory_per_gpu(a, x).total <= usable
}

/// Largest `v` in `1..=max` with `ok(v)`, assuming `ok` is true up to some point then false.
fn largest(max: u64, ok: impl Fn(u64) -> bool) -> Option<u64> {
    if !ok(1) {
        return None;
    }
    let (mut lo, mut hi) = (1u64, max);
    while lo < hi {
        let mid = lo + (hi - lo).div_ceil(2);
        if ok(mid) {
            lo = mid
        } else {
            hi = mid - 1
        }
    }
    Some(lo)
}

/// Longest context that fits at the scenario's batch, never beyond the model's own limit
/// (`max_position_embeddings`) when the config states one.
/// The weights are sized once: they do not depend on the context.
pub fn max_context_tokens(a: &Architecture, x: &Inputs, usable: u128) -> Option<u64> {
    let limit = a.max_position_embeddings.filter(|m| *m > 0).map_or(MAX_CONTEXT, |m| m.min(MAX_CONTEXT));
    let w = weights_by_stage(a, x);
    largest(limit, |c| memory_per_gpu_with(a, &Inputs { context: c, ..*x }, &w).total <= usable)
}

/// Largest batch that fits at the scenario's context (the weights sized once).
pub fn max_batch(a: &Architecture, x: &Inputs, usable: u128) -> Option<u64> {
    let w = weights_by_stage(a, x);
    largest(MAX_BATCH, |b| memory_per_gpu_with(a, &Inputs { batch: b, ..*x }, &w).total <= usable)
}

/// Most of the model llama.cpp can offload at the scenario's context and batch, counted as its
/// `-ngl` counts (the output layer first, then the last layers): the largest `n` in
/// `0..=layers + 1` whose GPU share fits. `None` when not even `-ngl 0` fits (the runtime and
/// the compute buffers alone).
pub fn max_gpu_layers(a: &Architecture, x: &Inputs, usable: u128) -> Option<u64> {
    let at = |n: u64| fits(a, &Inputs { gpu_layers: Some(n), ..*x }, usable);
    if !at(0) {
        return None;
    }
    Some(largest(a.layers + 1, at).unwrap_or(0))
}

/// Fewest layers whose routed experts llama.cpp must keep in host memory (`--n-cpu-moe m`, the
/// first `m` layers' experts) for every layer to fit on the GPU: the smallest `m` in
/// `0..=layers` that fits, what llama.cpp's `--fit` and the common `--n-cpu-moe` advice do before
/// moving whole layers. `None` for a dense model, or when even all the experts in host memory
/// leave too much on the GPU.
pub fn min_cpu_moe(a: &Architecture, x: &Inputs, usable: u128) -> Option<u64> {
    a.moe.as_ref()?;
    let at = |m: u64| fits(a, &Inputs { gpu_layers: None, n_cpu_moe: m, ..*x }, usable);
    if !at(a.layers) {
        return None;
    }
    let (mut lo, mut hi) = (0u64, a.layers);
    while lo < hi {
        let mid = lo + (hi - lo) / 2;
        if at(mid) {
            hi = mid;
        } else {
            lo = mid + 1;
        }
    }
    Some(lo)
}

/// Whether `tp` is a valid tensor-parallel size for the model's heads.
pub fn tp_allowed(a: &Architecture, tp: u64) -> bool {
    let at = &a.attention;
    at.heads.is_multiple_of(tp) && (at.kv_heads.is_multiple_of(tp) || tp.is_multiple_of(at.kv_heads))
}

/// Fewest GPUs that fit.
pub fn min_gpus(a: &Architecture, x: &Inputs, usable: u128) -> Option<GpuCount> {
    let candidates = (1..=8u64).chain((2..=128).map(|k| 8 * k)).chain((11..=16).map(|p| 1u64 << p));
    for n in candidates {
        let mut layouts = Vec::with_capacity(2);
        if x.trains() && x.zero_stage > 0 && n % (x.tp * x.pp) == 0 {
            layouts.push((x.tp, x.pp, n / (x.tp * x.pp)));
        }
        if let Some(tp) = (1..=n.min(8)).rev().find(|t| n % t == 0 && tp_allowed(a, *t)) {
            let pp = n / tp;
            if pp <= a.layers {
                layouts.push((tp, pp, 1));
            }
        }
        for (tp, pp, dp) in layouts {
            if fits(a, &Inputs { tp, pp, dp, gpu_layers: None, n_cpu_moe: 0, ..*x }, usable) {
                return Some(GpuCount {
                    gpus: n,
                    tensor_parallel: tp,
                    pipeline_parallel: pp,
                    data_parallel: dp,
                });
            }
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::catalog::models::find;
    use crate::engine::scenario::{ModelSpec, Scenario};

    #[test]
    fn binary_search_finds_the_edge() {
        assert_eq!(largest(100, |v| v <= 37), Some(37));
        assert_eq!(largest(100, |_| false), None);
        assert_eq!(largest(100, |_| true), Some(100));
    }

    #[test]
    fn seventy_b_fp16_needs_two_80gb_gpus() {
        let a = &find("llama-2-70b").unwrap().architecture;
        let x = Inputs::from_scenario(&Scenario::new(ModelSpec::Id("llama-2-70b".into())));
        let usable = 80_000_000_000u128 * 9 / 10;
        let m = min_gpus(a, &x, usable).unwrap();
        assert_eq!((m.gpus, m.tensor_parallel), (2, 2));
    }
}
