//! KV cache size.
//!
//! Per token and layer a standard attention layer stores a key and a value for each KV head:
//! `2 · K · d · bytes` (GQA/MQA: K < H; vLLM `get_kv_cache_spec`, Kwon et al. 2023 §3:
//! "2 × 5120 × 40 × 2 bytes = 800 KB" for OPT-13B). MLA (DeepSeek-V2/V3) stores the compressed
//! latent plus the shared rope key: `(r_kv + d_rope) · bytes` (vLLM/SGLang MLA backends).
//! A sliding-window layer never holds more than `window` tokens. Paged allocators (vLLM
//! PagedAttention) hand out whole blocks, so each sequence's tokens round up to a block.
//! Under tensor parallelism each GPU holds `ceil(K / tp)` KV heads: heads are split, and
//! replicated when K < tp. The MLA latent is not split by heads and is held whole on every GPU.
//! Gemma 4's layers differ (head size and KV heads per layer kind; the last layers read an
//! earlier layer's cache and store none): its sizes are summed layer by layer (`gemma4.rs`),
//! every other family keeps one size per layer.

use super::Architecture;
use crate::engine::precision::Dtype;

/// Cache elements one token adds to one layer on one GPU of a `tp`-way tensor-parallel group.
pub fn kv_elements_per_token_per_layer(a: &Architecture, tp: u64) -> u128 {
    let at = &a.attention;
    match at.mla {
        Some(m) => u128::from(m.kv_lora_rank) + u128::from(m.qk_rope_head_dim),
        None => {
            let kv_per_gpu = u128::from(at.kv_heads.div_ceil(tp.max(1)));
            kv_per_gpu * (u128::from(at.head_dim) + u128::from(at.v_head_dim))
        }
    }
}

/// Bytes one more token adds to the cache of the whole model (all layers, no parallel split),
/// while the context is inside every sliding window.
pub fn kv_cache_bytes_per_token(a: &Architecture, dtype: Dtype, group_size: u64) -> u128 {
    // Hybrid models: only the attention layers keep a KV cache.
    let mut elements = kv_elements_per_token_per_layer(a, 1) * u128::from(a.attention_layers());
    // Gemma 4: layer by layer (head sizes and KV heads differ; KV-shared layers store nothing).
    if let Some(g) = &a.gemma4 {
        elements = (0..crate::engine::num::usize_sat(a.layers))
            .map(|i| super::gemma4::kv_elements(a, g, i, 1))
            .sum();
    }
    dtype.bytes_for(elements, group_size)
}

/// Tokens a layer keeps for one sequence of `context` tokens, rounded up to whole blocks.
pub fn tokens_held(a: &Architecture, layer: usize, context: u64, block_tokens: u64) -> u128 {
    let held = match (a.is_sliding_layer(layer), a.sliding_window) {
        (true, Some(w)) => context.min(w),
        _ => context,
    };
    let block = block_tokens.max(1);
    u128::from(held.div_ceil(block)) * u128::from(block)
}

/// KV cache bytes on one GPU holding `layers` (a pipeline stage) for `batch` sequences of
/// `context` tokens each.
#[allow(clippy::too_many_arguments)]
pub fn kv_cache_bytes(
    a: &Architecture,
    layers: std::ops::Range<usize>,
    context: u64,
    batch: u64,
    block_tokens: u64,
    tp: u64,
    dtype: Dtype,
    group_size: u64,
) -> u128 {
    // Gemma 4: layers differ in size and some store nothing, so each layer is summed on its own
    // (a loop over the stage's layers, no allocation); every other family keeps the paths below.
    if let Some(g) = &a.gemma4 {
        let mut elements = 0u128;
        for i in layers {
            let held = tokens_held(a, i, context, block_tokens);
            elements = elements.saturating_add(super::gemma4::kv_elements(a, g, i, tp).saturating_mul(held));
        }
        return dtype.bytes_for(elements.saturating_mul(u128::from(batch)), group_size);
    }
    let per_layer = kv_elements_per_token_per_layer(a, tp);
    // Only sliding vs full matters per layer: count each kind once (one pass; none when every
    // layer is a full attention layer, the common case, which the scaling curves hit often).
    // Hybrid models: only the attention layers keep a KV cache (the others a fixed state).
    let mut token_layers = 0u128;
    if a.hybrid.is_none() && a.sliding_window.is_none() {
        let n = layers.len() as u128;
        if n > 0 {
            token_layers = n * tokens_held(a, layers.start, context, block_tokens);
        }
    } else {
        let (mut sliding, mut full) = ((0u128, None), (0u128, None));
        for i in layers.filter(|i| a.is_attention_layer(*i)) {
            let kind = if a.is_sliding_layer(i) { &mut sliding } else { &mut full };
            kind.0 += 1;
            kind.1.get_or_insert(i);
        }
        for (n, first) in [sliding, full] {
            if let Some(i) = first {
                token_layers += n * tokens_held(a, i, context, block_tokens);
            }
        }
    }
    let elements = per_layer.saturating_mul(token_layers).saturating_mul(u128::from(batch));
    dtype.bytes_for(elements, group_size)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::model::config::parse_config;
    use serde_json::json;

    fn llama3_8b() -> Architecture {
        parse_config(&json!({"model_type": "llama", "hidden_size": 4096, "intermediate_size": 14336,
            "num_hidden_layers": 32, "num_attention_heads": 32, "num_key_value_heads": 8, "vocab_size": 128256}))
        .unwrap()
    }

    #[test]
    fn gqa_kv_per_token_is_128_kib_for_llama_3_8b() {
        // 2 · 32 layers · 8 KV heads · 128 · 2 bytes = 131,072 (not 524,288 as with hidden_size)
        assert_eq!(kv_cache_bytes_per_token(&llama3_8b(), Dtype::Bf16, 128), 131_072);
    }

    #[test]
    fn kv_replicates_when_tp_exceeds_kv_heads() {
        let a = llama3_8b();
        assert_eq!(kv_elements_per_token_per_layer(&a, 4), 2 * 2 * 128);
        assert_eq!(kv_elements_per_token_per_layer(&a, 16), 2 * 128);
    }

    #[test]
    fn sliding_layers_cap_at_the_window_and_blocks_round_up() {
        let a =
            parse_config(&json!({"model_type": "mistral", "hidden_size": 4096, "intermediate_size": 14336,
            "num_hidden_layers": 32, "num_attention_heads": 32, "num_key_value_heads": 8, "vocab_size": 32000,
            "sliding_window": 4096}))
            .unwrap();
        assert_eq!(tokens_held(&a, 0, 32_768, 16), 4096);
        assert_eq!(tokens_held(&a, 0, 17, 16), 32);
        // 32K context × 32 requests on Llama-3-8B: 131,072 B × 32,768 × 32 = 128 GiB
        let b = llama3_8b();
        assert_eq!(kv_cache_bytes(&b, 0..32, 32_768, 32, 16, 1, Dtype::Bf16, 128), 137_438_953_472);
    }
}
