//! Partial offload: which parts of the model stay in host memory, as llama.cpp places them.
//!
//! # Rules
//! With `-ngl N` llama.cpp puts the output layer (final norm and head, counted as layer `L`) on
//! the GPU first and then the last `N − 1` decoder layers; the first ones stay in host memory
//! (`-ngl 99` = everything): `i_gpu_start = max(L + 1 − N, 0)`, layer `i` (the output layer
//! being `i = L`) on the GPU when `i ≥ i_gpu_start` (`llama_model::load_tensors`,
//! src/llama-model.cpp, since llama.cpp PR #18148 "offload output layer to GPU first", merged
//! 2025-12-17; before it the output layer moved last). The token embedding
//! always stays in host memory ("there is very little benefit to offloading the input layer");
//! a tied head is a second copy of it on the GPU. `--n-cpu-moe M` keeps the routed-expert
//! tensors of the first `M` layers in host memory whatever `-ngl` says (common/common.h,
//! `llm_ffn_exps_block_regex`). A layer's KV cache sits on that layer's device
//! (`llama_kv_cache`, src/llama-kv-cache.cpp: the layer's buffer type when `offload_kqv`).
//!
//! A model that is not a llama.cpp file (no tensor table) follows the same layer split with its
//! embedding beside the first layer.

use super::Inputs;

/// llama.cpp's default micro-batch (`n_ubatch`, `llama_context_default_params`): its compute
/// buffers are reserved for a graph of this many tokens, every one an output (the worst case
/// `graph_reserve` sizes), and prompts are processed in micro-batches of it.
pub const N_UBATCH: u64 = 512;
use crate::engine::model::Architecture;
use crate::engine::num::usize_sat;

/// Where the model's parts are.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Placement {
    /// Decoder layers.
    pub layers: u64,
    /// The first decoder layer on the GPU (`i_gpu_start`).
    pub gpu_start: u64,
    /// Whether the output layer is on the GPU.
    pub output_on_gpu: bool,
    /// The first `cpu_moe` layers keep their routed experts in host memory.
    pub cpu_moe: u64,
    /// Whether the token embedding stays in host memory (llama.cpp does this always).
    pub embedding_on_host: bool,
}

impl Placement {
    /// The placement of `a` under the scenario's `gpu_layers` and `n_cpu_moe`.
    pub fn of(a: &Architecture, x: &Inputs) -> Placement {
        let l = a.layers;
        let ngl = x.gpu_layers.unwrap_or(u64::MAX).min(l + 1);
        let gpu_start = (l + 1 - ngl).min(l);
        let llama_cpp = a.tensor_table.is_some();
        Placement {
            layers: l,
            gpu_start,
            output_on_gpu: ngl >= 1,
            cpu_moe: if a.moe.is_some() { x.n_cpu_moe.min(l) } else { 0 },
            embedding_on_host: llama_cpp || gpu_start > 0,
        }
    }

    /// `-ngl` as llama.cpp counts it: the layers on the GPU, plus one for the output layer.
    pub fn offloaded(&self) -> u64 {
        self.layers - self.gpu_start + u64::from(self.output_on_gpu)
    }

    /// Whether anything but (for llama.cpp) the token embedding is in host memory.
    pub fn splits(&self) -> bool {
        self.gpu_start > 0 || !self.output_on_gpu || self.cpu_moe > 0
    }

    /// Decoder layers on the GPU.
    pub fn gpu_layers(&self) -> std::ops::Range<usize> {
        usize_sat(self.gpu_start)..usize_sat(self.layers)
    }

    /// Decoder layers in host memory.
    pub fn host_layers(&self) -> std::ops::Range<usize> {
        0..usize_sat(self.gpu_start)
    }

    /// GPU layers whose routed experts stay in host memory.
    pub fn host_expert_layers_on_gpu(&self) -> std::ops::Range<usize> {
        usize_sat(self.gpu_start)..usize_sat(self.cpu_moe.max(self.gpu_start))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::scenario::{ModelSpec, Scenario};

    fn placement(layers: u64, ngl: Option<u64>, cpu_moe: u64, table: bool) -> Placement {
        let mut a = crate::engine::model::config::parse_config(&serde_json::json!({
            "model_type": "mixtral", "hidden_size": 256, "intermediate_size": 512,
            "num_hidden_layers": layers, "num_attention_heads": 4, "num_key_value_heads": 2,
            "num_local_experts": 8, "num_experts_per_tok": 2, "vocab_size": 1000}))
        .unwrap();
        if table {
            a.tensor_table = Some(Default::default());
        }
        let mut s = Scenario::new(ModelSpec::Id("x".into()));
        s.gpu_layers = ngl;
        s.n_cpu_moe = cpu_moe;
        Placement::of(&a, &Inputs::from_scenario(&s))
    }

    #[test]
    fn ngl_counts_the_output_layer_first_then_the_last_layers() {
        let p = placement(32, Some(20), 0, true);
        assert_eq!((p.gpu_start, p.output_on_gpu, p.offloaded()), (13, true, 20));
        assert_eq!(p.host_layers(), 0..13);
        let p = placement(32, Some(33), 0, true);
        assert_eq!((p.gpu_start, p.output_on_gpu, p.offloaded(), p.splits()), (0, true, 33, false));
        let p = placement(32, None, 0, true);
        assert_eq!((p.offloaded(), p.embedding_on_host), (33, true));
        let p = placement(32, Some(32), 0, true);
        assert_eq!((p.gpu_start, p.output_on_gpu), (1, true));
        let p = placement(32, Some(1), 0, true);
        assert_eq!((p.gpu_start, p.output_on_gpu, p.offloaded()), (32, true, 1));
        let p = placement(32, Some(0), 0, false);
        assert_eq!((p.gpu_start, p.output_on_gpu, p.embedding_on_host), (32, false, true));
        let p = placement(32, None, 0, false);
        assert!(!p.embedding_on_host && !p.splits());
    }

    #[test]
    fn n_cpu_moe_keeps_the_first_layers_experts() {
        let p = placement(32, None, 10, true);
        assert_eq!(p.host_expert_layers_on_gpu(), 0..10);
        let p = placement(32, Some(28), 10, true);
        assert_eq!(p.host_expert_layers_on_gpu(), 5..10);
        let p = placement(32, Some(20), 10, true);
        assert!(p.host_expert_layers_on_gpu().is_empty());
        assert!(p.splits());
    }
}
