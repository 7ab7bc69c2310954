//! KV cache growth against context length at several concurrencies, per GPU, for the chart,
//! with the memory left for it (usable memory minus everything that is not KV cache).
//! Same formula as the engine's KV cache (`engine::model::kv_cache::kv_cache_bytes`): sliding
//! windows cap, pages round up, tensor parallelism splits KV heads, the heaviest pipeline stage.

use crate::catalog::resolve_model;
use crate::engine::model::kv_cache::kv_cache_bytes;
use crate::engine::{Report, Scenario};

/// Contexts the chart samples: 512 tokens to 1M, every doubling.
pub fn default_contexts() -> Vec<u64> {
    (9..=20).map(|k| 1u64 << k).collect()
}

/// Concurrency levels drawn, with the scenario's own batch added when it is not among them.
pub fn default_batches(current: u64) -> Vec<u64> {
    let mut v = vec![1, 8, 32, 128];
    if !v.contains(&current) && current > 0 {
        v.push(current);
        v.sort_unstable();
    }
    v
}

/// `(batch, [(context, bytes per GPU)])` for each batch; empty when the model does not resolve.
pub fn kv_growth(s: &Scenario, contexts: &[u64], batches: &[u64]) -> Vec<(u64, Vec<(u64, u64)>)> {
    let Ok((arch, _)) = resolve_model(&s.model) else { return Vec::new() };
    let layers = arch.layers as usize;
    let pp = (s.pipeline_parallel.max(1) as usize).min(layers.max(1));
    let stage = layers.div_ceil(pp);
    let kv_dtype = s.resolved_kv_dtype();
    batches
        .iter()
        .map(|&b| {
            let points = contexts
                .iter()
                .map(|&c| {
                    let bytes = kv_cache_bytes(
                        &arch,
                        0..stage,
                        c,
                        b,
                        s.kv_block_tokens,
                        s.tensor_parallel,
                        kv_dtype,
                        s.int4_group_size,
                    );
                    (c, u64::try_from(bytes).unwrap_or(u64::MAX))
                })
                .collect();
            (b, points)
        })
        .collect()
}

/// Bytes a GPU has for KV cache: usable memory minus every other component.
pub fn room_for_kv(r: &Report) -> u64 {
    let m = &r.memory_per_gpu_bytes;
    r.usable_gpu_memory_bytes.saturating_sub(m.total.saturating_sub(m.kv_cache))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::catalog::evaluate;
    use crate::engine::ModelSpec;

    #[test]
    fn matches_the_engine_at_the_scenario_point() {
        let mut s = Scenario::new(ModelSpec::Id("llama-3.1-8b".into()));
        s.context_tokens = 32768;
        s.batch = 32;
        let r = evaluate(&s).unwrap();
        let g = kv_growth(&s, &[32768], &[32]);
        assert_eq!(g[0].1[0].1, r.memory_per_gpu_bytes.kv_cache);
        // Article: 4 GiB per sequence at 32K in BF16, ×32 = 128 GiB.
        assert_eq!(g[0].1[0].1, 128 << 30);
        assert!(room_for_kv(&r) < r.memory_per_gpu_bytes.kv_cache);
    }

    #[test]
    fn sliding_windows_flatten_the_curve() {
        let s = Scenario::new(ModelSpec::Id("gemma-2-9b".into()));
        let g = kv_growth(&s, &[4096, 1 << 20], &[1]);
        let (small, huge) = (g[0].1[0].1 as f64, g[0].1[1].1 as f64);
        assert!(huge / small < 256.0 * 0.6, "half of gemma-2's layers stop at the 4K window");
        assert_eq!(default_batches(8), vec![1, 8, 32, 128]);
        assert_eq!(default_batches(4), vec![1, 4, 8, 32, 128]);
    }
}
