//! Activation-checkpointing policies: what one token keeps in one layer for the backward pass
//! under each policy, how many of a stage's layers the policy covers, and how many micro-batches
//! a pipeline stage holds at once.
//!
//! Elements per token per layer, split into the part every tensor-parallel rank holds (the
//! residual stream, split only by sequence parallelism) and the part tensor parallelism splits
//! (attention and feed-forward widths). `h` hidden, `q = H·d` query width, `k = K·d` and
//! `v = K·d_v` key and value widths, `f` the feed-forward width (MoE: top-k × the expert's plus
//! the shared experts'), `n` norms per layer:
//!
//! | policy | replicated | split |
//! |---|---|---|
//! | `none` (Korthikanti et al. 2022 Table 2 without dropout) | `(n + 2)·h` | `q + k + v + q_out + 4f` (gated; plain MLP `2f`) `[+ H·s without FlashAttention]` |
//! | `selective` (Korthikanti §5: recompute the attention core) | as `none` | as `none` without `H·s` |
//! | `op_selective` (torchtitan op SAC: every other matmul output, and the attention kernel's) | `2h` (block input, down-projection output) | `q + v + f + q_out` |
//! | `full` (keep each layer's input) | `h` | 0 |
//!
//! torchtitan's op-level policy (torchtitan/distributed/activation_checkpoint.py, and
//! `_save_list` with the `mm_count % 2` rule in parallelize_llama.py at 3f20451, 2024-12) saves
//! the 1st, 3rd, 5th… matmul of a block in call order: in a Llama block wq, wk, wv, wo, w1, w3,
//! w2 that is wq, wv, w1 and w2, plus the SDPA output; the rest is recomputed. Llama 3 8B
//! (h 4096, q 4096, k = v 1024, f 14336): `none` keeps 83,968 elements, op SAC 31,744 (38%).

use super::Inputs;
use crate::engine::model::{Architecture, MlpKind};
use crate::engine::workload::{Mode, Recompute};

/// Width of the feed-forward intermediate a token passes through, worst layer.
pub fn ffn_width(a: &Architecture) -> u128 {
    let dense = u128::from(a.intermediate);
    match &a.moe {
        Some(m) => {
            let moe = u128::from(m.experts_per_token) * u128::from(m.expert_intermediate)
                + u128::from(m.shared_intermediate);
            let any_dense = m.layer_is_moe.iter().any(|x| !x);
            if any_dense {
                moe.max(dense)
            } else {
                moe
            }
        }
        None => dense,
    }
}

/// Elements one token keeps in one layer under `policy`: (replicated over the TP group, split
/// by it). See the module doc for the table and its sources.
pub fn kept_per_token(a: &Architecture, x: &Inputs, policy: Recompute) -> (u128, u128) {
    let at = &a.attention;
    let h = u128::from(a.hidden);
    let (heads, kv, d, dv) =
        (u128::from(at.heads), u128::from(at.kv_heads), u128::from(at.head_dim), u128::from(at.v_head_dim));
    let lora = if matches!(x.mode, Mode::Lora | Mode::Qlora) {
        // LoRA keeps each adapter's rank-r intermediate for the backward pass.
        u128::from(x.lora_rank) * x.lora_targets.iter().filter(|t| **t).count() as u128
    } else {
        0
    };
    let f = ffn_width(a);
    match policy {
        Recompute::None | Recompute::Selective => {
            let attention = heads * d + kv * (d + dv) + heads * dv;
            let mlp = f * if a.mlp == MlpKind::Gated { 4 } else { 2 };
            let mut split = attention + mlp;
            if !x.flash_attention && policy == Recompute::None {
                split += heads * u128::from(x.context);
            }
            ((u128::from(a.norms_per_layer) + 2) * h + lora, split)
        }
        Recompute::OpSelective => (2 * h + lora, heads * d + kv * dv + f + heads * dv),
        Recompute::Full => (h, 0),
    }
}

/// Layers of a stage of `stage_layers` layers that the policy covers: `recompute_layers` (at
/// most the stage's), all of them when it is absent, none without a policy.
pub fn policy_layers(x: &Inputs, stage_layers: u128) -> u128 {
    if !x.recompute.recomputes() {
        return 0;
    }
    x.recompute_layers.map_or(stage_layers, |n| u128::from(n).min(stage_layers))
}

/// Micro-batches whose activations stage `stage` of `pp` holds at its peak, as a fraction
/// `(numerator, denominator)`: under 1F1B `min(pp − stage, m)` (Narayanan et al. 2021 §2.2.1;
/// Megatron's theoretical_memory_usage.py discounts by `min(1, m/pp)`), times the interleaved
/// schedule's penalty `1 + (pp − 1)/(pp·v)` with `v` model chunks per stage (Korthikanti et al.
/// 2022 §4.2.3; the same file, "Memory penalty from interleaved schedule"). Worked: pp 8, v 5,
/// first stage: 8 × (1 + 7/40) = 8 × 47/40 = 9.4 micro-batches.
pub fn in_flight(pp: u64, stage: u64, micro_batches: u64, vp: u64) -> (u128, u128) {
    let (p, v) = (u128::from(pp.max(1)), u128::from(vp.max(1)));
    let count = u128::from(pp.saturating_sub(stage).max(1)).min(u128::from(micro_batches.max(1)));
    if v <= 1 || p <= 1 {
        return (count, 1);
    }
    (count * (p * v + p - 1), p * v)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::model::config::parse_config;
    use crate::engine::scenario::{ModelSpec, Scenario};
    use serde_json::json;

    fn llama3_8b() -> Architecture {
        parse_config(&json!({"model_type": "llama", "hidden_size": 4096, "intermediate_size": 14336,
            "num_hidden_layers": 32, "num_attention_heads": 32, "num_key_value_heads": 8,
            "vocab_size": 128256}))
        .unwrap()
    }

    fn inputs(policy: Recompute) -> Inputs {
        let mut s = Scenario::new(ModelSpec::Id("x".into()));
        s.mode = Mode::Training;
        s.recompute = policy;
        Inputs::from_scenario(&s)
    }

    #[test]
    fn llama3_8b_kept_elements_per_policy() {
        let a = llama3_8b();
        let sum = |p| {
            let (r, s) = kept_per_token(&a, &inputs(p), p);
            r + s
        };
        assert_eq!(sum(Recompute::None), 83_968);
        assert_eq!(sum(Recompute::Selective), 83_968); // with FlashAttention: the same set
        assert_eq!(sum(Recompute::OpSelective), 31_744);
        assert_eq!(sum(Recompute::Full), 4096);
    }

    #[test]
    fn interleaving_raises_the_first_stage_and_few_micro_batches_lower_it() {
        assert_eq!(in_flight(8, 0, 64, 1), (8, 1));
        assert_eq!(in_flight(8, 0, 64, 5), (8 * 47, 40)); // 9.4
        assert_eq!(in_flight(8, 7, 64, 1), (1, 1));
        assert_eq!(in_flight(8, 0, 3, 1), (3, 1)); // only 3 micro-batches exist
        assert_eq!(in_flight(1, 0, 16, 1), (1, 1));
    }

    #[test]
    fn the_policy_covers_the_named_layers() {
        let mut x = inputs(Recompute::Full);
        assert_eq!(policy_layers(&x, 32), 32);
        x.recompute_layers = Some(5);
        assert_eq!(policy_layers(&x, 32), 5);
        x.recompute_layers = Some(50);
        assert_eq!(policy_layers(&x, 32), 32);
        assert_eq!(policy_layers(&inputs(Recompute::None), 32), 0);
    }
}

#[cfg(test)]
mod properties {
    use super::super::activations::training_activation_bytes;
    use super::*;
    use crate::engine::model::config::parse_config;
    use crate::engine::scenario::{ModelSpec, Scenario};
    use proptest::prelude::*;
    use serde_json::json;

    proptest! {
        /// More recomputation never means more activation memory: none ≥ selective ≥ op-level
        /// selective, none ≥ full from two layers on, and covering more layers never adds.
        #[test]
        fn more_recompute_never_means_more_activation_memory(
            layers in 2u64..64, heads in 1u64..64, kv_div in 0u32..4, mult in 1u64..8,
            batch in 1u64..8, context in 1u64..16384, tp_pow in 0u32..3, sp: bool, flash: bool,
            pp in 1u64..4, m in 1u64..16, vp in 1u64..4, offload: bool,
        ) {
            let head_dim = 64;
            let kv = (heads >> kv_div).max(1);
            prop_assume!(heads % kv == 0);
            let hidden = heads * head_dim;
            let a = parse_config(&json!({"model_type": "llama", "hidden_size": hidden,
                "intermediate_size": hidden * mult, "num_hidden_layers": layers,
                "num_attention_heads": heads, "num_key_value_heads": kv, "vocab_size": 32000}))
            .expect("a llama config");
            let tp = 1u64 << tp_pow;
            let mut s = Scenario::new(ModelSpec::Id("x".into()));
            (s.mode, s.batch, s.context_tokens, s.sequence_parallel, s.flash_attention) =
                (Mode::Training, batch, context, sp, flash);
            (s.tensor_parallel, s.pipeline_parallel, s.gpus, s.micro_batches) = (tp, pp, tp * pp, Some(m));
            (s.virtual_pipeline_stages, s.activation_offload) = (vp, offload);
            let bytes = |p: Recompute, n: Option<u64>| {
                let mut t = s.clone();
                (t.recompute, t.recompute_layers) = (p, n);
                let x = Inputs::from_scenario(&t);
                (0..pp.min(layers))
                    .map(|st| training_activation_bytes(&a, &x, super::super::stage_layers(layers, pp, st), st, st + 1 == pp))
                    .max()
                    .unwrap_or(0)
            };
            let none = bytes(Recompute::None, None);
            prop_assert!(none >= bytes(Recompute::Selective, None));
            prop_assert!(bytes(Recompute::Selective, None) >= bytes(Recompute::OpSelective, None));
            if layers / pp >= 2 {
                prop_assert!(none >= bytes(Recompute::Full, None));
            }
            for p in [Recompute::Selective, Recompute::OpSelective, Recompute::Full] {
                let mut last = none;
                for n in 1..=layers.div_ceil(pp) {
                    let b = bytes(p, Some(n));
                    prop_assert!(b <= last, "{p:?} on {n} layers: {b} > {last}");
                    last = b;
                }
            }
        }
    }
}
