//! The drafter's memory under speculative decoding (`engine::speculation`): its weights and the
//! KV cache its own layers keep per sequence, beside the target's.
//!
//! - A draft model: its whole parameter count and KV per token, as the target's are counted.
//! - EAGLE-3: one decoder layer fed the concatenation of three of the target's hidden states
//!   through a fully connected `3h → h` projection (Li et al., "EAGLE-3", NeurIPS 2025, §3;
//!   SafeAILab/EAGLE `cnets.py`): the target's attention shape, a SwiGLU MLP of the target's
//!   intermediate size, `fc` of `3h²`; it reads the target's embedding and output head (vLLM's
//!   EAGLE proposer shares them), so they are not counted again. Its KV: one attention layer's.
//! - MTP: the modules the checkpoint ships (DeepSeek-V3 Technical Report, §2.2: each module is
//!   one Transformer block, a projection `M` of `2h → h` and two RMSNorms, sharing the embedding
//!   and output head): the last decoder layer's shape plus `2h² + 2h` per module. DeepSeek-V3's
//!   one module: 671B + 14B "including 14B of the Multi-Token Prediction (MTP) Module weights"
//!   (DeepSeek-V3 README; its 14B counts the embedding and head copies stored with it, 1.85B).
//!   Its KV: one layer's per module.
//! - n-gram: nothing (a lookup in the sequence's own tokens).
//!
//! Per GPU, both are split by tensor parallelism as the target's are (vLLM's draft
//! `tensor_parallel_size` defaults to the target's) and held where the last layer is.

use super::Inputs;
use crate::engine::model::kv_cache::kv_cache_bytes_per_token;
use crate::engine::model::params::{count_params, layer_params};
use crate::engine::model::Architecture;
use crate::engine::num::usize_sat;
use crate::engine::speculation::Speculation;
use crate::engine::workload::SpecMethod;

/// The drafter's parameters and KV cache bytes per token of one sequence (whole model).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Drafter {
    pub params: u128,
    pub kv_bytes_per_token: u128,
}

/// The output vocabulary of an EAGLE-3 head: its own `lm_head` over the draft vocabulary, which
/// EAGLE-3 training maps from the target's most frequent tokens (`draft_vocab_size` 32,000 in the
/// EAGLE-3 heads of SafeAILab/EAGLE, e.g. `yuhuili/EAGLE3-LLaMA3.1-Instruct-8B`; vLLM loads it and
/// does not share the target's head for `eagle3`).
pub const EAGLE3_DRAFT_VOCAB: u128 = 32_000;

/// Parameters of an EAGLE-3 head on target `a`: one decoder layer whose q, k and v read the
/// token's embedding beside the fused hidden state (`2h` wide: vLLM `llama_eagle3.py`,
/// `qkv_input_size = 2 * hidden_size`), the output projection, a SwiGLU MLP of the target's
/// intermediate size (`3·h·I`), `fc` fusing three of the target's hidden states (`3h·h`), its own
/// output head over [`EAGLE3_DRAFT_VOCAB`] and four norms (`4h`); the token embedding is the
/// target's. Worked (Llama-3.1-8B: h 4096, I 14336, 32 heads and 8 KV heads of 128): q, k, v
/// 8192 · 6144 = 50.3M, o 16.8M, MLP 176.2M, fc 50.3M, head 131.1M, norms 16K: 424.7M
/// (the checkpoint's ~0.85 GB in BF16).
pub fn eagle3_params(a: &Architecture) -> u128 {
    let h = u128::from(a.hidden);
    let at = &a.attention;
    let q = u128::from(at.heads) * u128::from(at.head_dim);
    let kv = u128::from(at.kv_heads) * u128::from(at.head_dim);
    let o = u128::from(at.heads) * u128::from(at.v_head_dim) * h;
    2 * h * (q + 2 * kv) + o + 3 * h * u128::from(a.intermediate) + 3 * h * h + EAGLE3_DRAFT_VOCAB * h + 4 * h
}

/// Parameters of one multi-token-prediction module of `a`: its last decoder layer plus the
/// projection `2h²` and two norms `2h`.
pub fn mtp_module_params(a: &Architecture) -> u128 {
    let h = u128::from(a.hidden);
    layer_params(a, usize_sat(a.layers.saturating_sub(1))).total() + 2 * h * h + 2 * h
}

/// KV bytes per token of one of `a`'s attention layers (the mean over its layers).
fn one_layer_kv(a: &Architecture, x: &Inputs) -> u128 {
    kv_cache_bytes_per_token(a, x.kv, x.group) / u128::from(a.attention_layers().max(1))
}

/// The drafter of `spec` on target `a` (`draft`: the draft model, when the method is one).
pub fn drafter(a: &Architecture, draft: Option<&Architecture>, spec: &Speculation, x: &Inputs) -> Drafter {
    match spec.method {
        SpecMethod::DraftModel => draft.map_or_else(Drafter::default, |d| Drafter {
            params: count_params(d).total,
            kv_bytes_per_token: kv_cache_bytes_per_token(d, x.kv, x.group),
        }),
        SpecMethod::Eagle3 => Drafter { params: eagle3_params(a), kv_bytes_per_token: one_layer_kv(a, x) },
        SpecMethod::Mtp => {
            let modules = u128::from(a.extras.mtp_layers.max(1));
            Drafter {
                params: modules * mtp_module_params(a),
                kv_bytes_per_token: modules * one_layer_kv(a, x),
            }
        }
        SpecMethod::Ngram => Drafter::default(),
    }
}

/// Per GPU on the stage holding the last layer: `(weights, KV cache)` bytes of the drafter,
/// `params × bytes per weight / tp` and `kv × context × batch / tp`.
pub fn per_gpu(d: &Drafter, x: &Inputs) -> (u128, u128) {
    let tp = u128::from(x.tp.max(1));
    let weights = x.weight.bytes_for(d.params, x.group) / tp;
    let kv =
        d.kv_bytes_per_token.saturating_mul(u128::from(x.context)).saturating_mul(u128::from(x.batch)) / tp;
    (weights, kv)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn heads_counted_by_hand() {
        use crate::engine::Lookup;
        let (a, _) = crate::catalog::Catalog.model("llama-3.1-8b").unwrap();
        // Llama-3.1-8B: attention 4096·(4096 + 2·1024) + 4096·4096 = 41,943,040.
        let att = 4096u128 * (4096 + 2 * 1024) + 4096 * 4096;
        assert_eq!(layer_params(&a, 0).attention_matrices, att);
        // The head: q, k, v over 2h, o, the MLP, fc, a 32,000-token head and four norms.
        let head = 8192u128 * (4096 + 2 * 1024) + 4096 * 4096 + 3 * 4096 * 14336 + 3 * 4096 * 4096;
        assert_eq!(eagle3_params(&a), head + 32_000 * 4096 + 4 * 4096);
        assert_eq!(eagle3_params(&a), 424_689_664);
        // DeepSeek-V3's one MTP module: its MoE layer plus 2·7168² and two norms, about 11.6B
        // (the README's 14B adds the embedding and head copies, 2 × 129,280 × 7,168 = 1.85B).
        let (d, _) = crate::catalog::Catalog.model("deepseek-v3").unwrap();
        assert_eq!(d.extras.mtp_layers, 1);
        let m = mtp_module_params(&d) as f64;
        let with_copies = m + 2.0 * 129_280.0 * 7_168.0;
        assert!((with_copies / 1e9 - 14.0).abs() < 0.6, "{m}");
    }
}
