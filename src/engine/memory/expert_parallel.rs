//! Expert parallelism: which routed experts one GPU holds.
//!
//! With `ep`-way expert parallelism the routed experts of an MoE layer are spread over `ep` GPUs
//! of a pipeline stage: each holds `ceil((E + R) / ep)` of the `E` experts (`R` redundant copies
//! of hot experts, DeepSeek's EPLB), and splits each of them again over the expert
//! tensor-parallel degree `moe_tp = max(1, tp / ep)`. The two serving engines agree where they
//! overlap: vLLM's `--enable-expert-parallel` makes the EP group the TP × DP ranks, each holding
//! `E / EP` whole experts (vLLM docs, "Expert Parallel Deployment"); SGLang's `--ep-size` is at
//! most `--tp-size` and splits each expert `tp / ep` ways (`server_args.py`, `ep_size`; LMSYS,
//! "Deploying DeepSeek with PD Disaggregation and Large-scale Expert Parallelism", 2025-05-05).
//! DeepSeek's own deployment holds 9 routed experts per GPU at EP32 = (256 + 32) / 32 (DeepSeek,
//! "Day 6: DeepSeek-V3/R1 Inference System Overview", 2025-03-01). Megatron-Core names the same
//! split "expert tensor parallelism" (`expert_tensor_parallel_size`).
//!
//! With `ep = 1` this is tensor parallelism of every expert: `E` experts, each split `tp` ways,
//! the engine's numbers before expert parallelism divided anything.

use crate::engine::model::Architecture;

/// How one GPU of a stage holds the routed experts of an MoE layer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ExpertLayout {
    /// Routed experts of the model (`E`; 0 for a dense model).
    pub experts: u64,
    /// Redundant expert copies over the EP group (`R`, EPLB).
    pub redundant: u64,
    /// GPUs the experts are spread over (`ep`).
    pub ep: u64,
    /// Ways each held expert is split (`moe_tp = max(1, tp / ep)`).
    pub moe_tp: u64,
    /// Experts one GPU holds, `ceil((E + R) / ep)`.
    pub per_gpu: u64,
}

impl ExpertLayout {
    /// The layout of `experts` routed experts (plus `redundant` copies) over `ep` GPUs of a
    /// stage whose tensor-parallel degree is `tp`.
    ///
    /// # Formula
    /// `per_gpu = ceil((E + R) / ep)`, `moe_tp = max(1, tp / ep)`. Worked: DeepSeek-V3 (E 256)
    /// with R 32 at EP 32 holds 9 experts per GPU; Qwen3-30B-A3B (E 128) at EP 8, TP 1 holds 16
    /// whole experts; at EP 2, TP 8 it holds 64 experts, each split 4 ways.
    pub fn of(experts: u64, redundant: u64, tp: u64, ep: u64) -> ExpertLayout {
        let ep = ep.max(1);
        let total = experts.saturating_add(if experts > 0 { redundant } else { 0 });
        ExpertLayout { experts, redundant, ep, moe_tp: (tp.max(1) / ep).max(1), per_gpu: total.div_ceil(ep) }
    }

    /// The layout of a model's experts under the inputs' `tp`, `ep` and redundant experts.
    pub fn of_model(a: &Architecture, tp: u64, ep: u64, redundant: u64) -> ExpertLayout {
        let experts = a.moe.as_ref().map_or(0, |m| m.routed_experts);
        ExpertLayout::of(experts, redundant, tp, ep)
    }

    /// What one GPU holds of a quantity summed over all `E` routed experts of a layer
    /// (parameters or bytes): `ceil(all × per_gpu / (E × moe_tp))`.
    ///
    /// # Formula
    /// `share = all / E × ceil((E + R)/ep) / moe_tp`. Worked: Qwen3-30B-A3B's 48 layers of 128
    /// experts of 3 × 2048 × 768 parameters are 28.99 B; at EP 8, TP 1 one GPU holds 16 of 128
    /// per layer, 3.62 B; at EP 1, TP 8 it holds all 128 split 8 ways, the same 3.62 B.
    pub fn share(&self, all: u128) -> u128 {
        if self.experts == 0 {
            return all.div_ceil(u128::from(self.moe_tp));
        }
        let held = all.saturating_mul(u128::from(self.per_gpu));
        held.div_ceil(u128::from(self.experts).saturating_mul(u128::from(self.moe_tp)))
    }

    /// Replicas of each expert slice over a stage of `tp × dp` GPUs, the group ZeRO shards an
    /// expert's states over (Megatron-Core's expert data-parallel group):
    /// `edp = max(1, tp·dp / (ep·moe_tp))`. Worked: TP 1, DP 8, EP 8: 1 (each expert on one GPU);
    /// TP 2, DP 4, EP 1: 4 (= dp, as every dense parameter).
    pub fn expert_data_parallel(&self, tp: u64, dp: u64) -> u64 {
        let gpus = tp.max(1).saturating_mul(dp.max(1));
        (gpus / self.ep.saturating_mul(self.moe_tp).max(1)).max(1)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn experts_per_gpu_and_expert_tp() {
        // DeepSeek's prefill: EP 32 with 32 redundant experts holds (256 + 32) / 32 = 9.
        assert_eq!(ExpertLayout::of(256, 32, 1, 32).per_gpu, 9);
        // Decode at EP 144: ceil(288 / 144) = 2.
        assert_eq!(ExpertLayout::of(256, 32, 1, 144).per_gpu, 2);
        let sglang = ExpertLayout::of(128, 0, 8, 2);
        assert_eq!((sglang.per_gpu, sglang.moe_tp), (64, 4));
        let vllm = ExpertLayout::of(128, 0, 1, 8);
        assert_eq!((vllm.per_gpu, vllm.moe_tp), (16, 1));
        // A dense model: nothing to hold, tensor parallelism splits as before.
        let dense = ExpertLayout::of(0, 5, 4, 1);
        assert_eq!((dense.per_gpu, dense.share(100)), (0, 25));
    }

    #[test]
    fn the_share_of_qwen3_30b_experts() {
        // 48 layers × 128 experts × 3 × 2048 × 768 = 28,991,029,248 parameters.
        let all: u128 = 48 * 128 * 3 * 2048 * 768;
        assert_eq!(all, 28_991_029_248);
        assert_eq!(ExpertLayout::of(128, 0, 1, 8).share(all), 3_623_878_656);
        assert_eq!(ExpertLayout::of(128, 0, 8, 1).share(all), 3_623_878_656);
        assert_eq!(ExpertLayout::of(128, 0, 8, 8).share(all), 3_623_878_656);
        // EP 1 is tensor parallelism of every expert: ceil(all / tp), exactly.
        for tp in [1u64, 2, 3, 4, 7, 8] {
            assert_eq!(ExpertLayout::of(128, 0, tp, 1).share(all + 5), (all + 5).div_ceil(u128::from(tp)));
        }
    }

    #[test]
    fn expert_data_parallel_groups() {
        assert_eq!(ExpertLayout::of(128, 0, 1, 8).expert_data_parallel(1, 8), 1);
        assert_eq!(ExpertLayout::of(128, 0, 2, 1).expert_data_parallel(2, 4), 4);
        assert_eq!(ExpertLayout::of(128, 0, 8, 8).expert_data_parallel(8, 2), 2);
        assert_eq!(ExpertLayout::of(128, 0, 4, 2).expert_data_parallel(4, 1), 1);
    }
}
