//! What fully sharded data parallelism (ZeRO-3, FSDP) holds beyond its shards.
//!
//! FSDP all-gathers a unit's parameters before the unit runs and frees them after (Zhao et al.,
//! "PyTorch FSDP", VLDB 2023, arXiv:2304.11277, §3); it prefetches the next unit while the
//! current one computes (FSDP2 always prefetches in backward; FSDP1's rate limiter allows two
//! all-gathers in flight, §3.4), and reduce-scatters a unit's gradients from a full-size
//! buffer after its backward. At the peak a GPU therefore holds, unsharded:
//! - the unit computing and the unit prefetched: the largest unit (a decoder layer, or the
//!   embedding or output layer a stage holds, which torchtitan and torchtune gather as units of
//!   their own or with the root module) and one decoder layer, in the weights' format;
//! - one decoder layer's gradients in the trained format before their reduce-scatter (full
//!   training; a LoRA run's adapters are too small to count).
//!
//! `(max(layer, outer) + layer)·a_w + layer·a_g`. Worked (Llama 3 8B, bf16, one stage: layer
//! 218.1M parameters; embedding and output layer 525.3M each, gathered with the root module as
//! torchtitan does): (1,050.7M + 218.1M)·2 + 218.1M·2 = 2.97 GB.

use super::weights::stage_weights;
use super::Inputs;
use crate::engine::model::Architecture;

/// Unsharded buffers of FSDP on one GPU of a stage holding `layers` (and the embedding when
/// `first`, the output layer when `last`); 0 below ZeRO stage 3 or in inference.
pub fn fsdp_buffer_bytes(
    a: &Architecture,
    x: &Inputs,
    layers: std::ops::Range<usize>,
    first: bool,
    last: bool,
) -> u128 {
    let p = fsdp_buffer_parts(a, x, layers, first, last);
    p.layer.max(p.outer) + p.layer + p.gradients
}

/// The pieces of [`fsdp_buffer_bytes`]: one decoder layer's weights, the embedding and output
/// layer's, and one layer's gradients, unsharded.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct FsdpParts {
    pub layer: u128,
    pub outer: u128,
    pub gradients: u128,
}

/// [`FsdpParts`] of a stage (all 0 below ZeRO stage 3, in inference or on one GPU).
pub fn fsdp_buffer_parts(
    a: &Architecture,
    x: &Inputs,
    layers: std::ops::Range<usize>,
    first: bool,
    last: bool,
) -> FsdpParts {
    if x.zero_stage < 3 || !x.trains() || x.dp <= 1 {
        return FsdpParts::default();
    }
    let (layer_bytes, layer_params) = layers
        .map(|i| {
            let w = stage_weights(a, x, i..i + 1, false, false);
            (w.bytes, w.params)
        })
        .max()
        .unwrap_or((0, 0));
    let outer = if first || last { stage_weights(a, x, 0..0, first, last).bytes } else { 0 };
    // The layer's gradients before their reduce-scatter, in the reduction's format (fp32 under
    // `mixed_fp32_grads`: FSDP2's `reduce_dtype`, Megatron's `main_grad`).
    let gradients = if x.full_training() {
        super::model_states::full_gradient_dtype(x).bytes_for(layer_params, x.group)
    } else {
        0
    };
    FsdpParts { layer: layer_bytes, outer, gradients }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::model::config::parse_config;
    use crate::engine::scenario::{ModelSpec, Scenario};
    use crate::engine::workload::Mode;
    use serde_json::json;

    #[test]
    fn llama3_8b_fsdp_buffers() {
        let a = parse_config(&json!({"model_type": "llama", "hidden_size": 4096, "intermediate_size": 14336,
            "num_hidden_layers": 32, "num_attention_heads": 32, "num_key_value_heads": 8,
            "vocab_size": 128256}))
        .unwrap();
        let mut s = Scenario::new(ModelSpec::Id("x".into()));
        (s.mode, s.gpus, s.zero_stage) = (Mode::Training, 8, 3);
        let x = Inputs::from_scenario(&s);
        let layer = 218_112_000u128; // the matrices (the norms are counted with the small tensors)
                                     // The root unit: the embedding, the output layer and the final norm.
        let outer = 2 * 525_336_576u128 + 4096;
        let b = fsdp_buffer_bytes(&a, &x, 0..32, true, true);
        assert_eq!(b, (outer + layer) * 2 + layer * 2);
        assert!((b as f64 / 1e9 - 2.97).abs() < 0.005, "{b}");
        // Without sharding of the weights there is nothing to gather.
        s.zero_stage = 2;
        assert_eq!(fsdp_buffer_bytes(&a, &Inputs::from_scenario(&s), 0..32, true, true), 0);
    }
}
