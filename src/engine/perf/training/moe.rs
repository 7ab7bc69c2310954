//! Mixture-of-experts layers in training: the grouped GEMMs of the routed experts.
//!
//! A grouped GEMM runs every local expert's `tokens × h` by `h × f_e` products in one kernel.
//! With the expert matrices small (`f_e` of a few hundred), its main loop is short against its
//! prologue and epilogue and it reaches a fraction of a dense GEMM's share:
//! - VeOmni PR #460 (ByteDance-Seed, 2026-02-06), H100, BF16 forward, 32,768 tokens:
//!   `torch._grouped_mm` (CUTLASS) at Qwen3-30B-A3B's experts (E 128, h 2048, f_e 768, top-8)
//!   242 TFLOPS = 0.245 of 989; at E 512, h 2048, f_e 512, top-10: 181 = 0.18;
//! - DeepGEMM's contiguous grouped GEMM at DeepSeek-V3's experts (h 7168, f_e 2048) reaches
//!   0.61-0.68 of the FP8 peak (README, 2025-03-25), as much as its dense GEMMs of the same size:
//!   from `f_e` ≈ 2048 the grouped GEMM runs like a dense one.
//!
//! So, relative to the GPU's dense share (H100's 0.803): `g(512) = 0.18/0.803 = 0.224`,
//! `g(768) = 0.245/0.803 = 0.305`, `g(2048) = 1`, interpolated in `log f_e` and held at the ends.
//! This is a first, training-side version that the serving model's grouped-GEMM efficiency by
//! tokens per expert (issue 31, item 2) may refine: in training each local expert receives
//! `T·k·ep/E` tokens (thousands), the compute regime of those kernels.
//!
//! The dispatch and combine of each MoE layer ([`dispatch_combine`]) depend on the dispatcher:
//! Megatron's `alltoall` dispatcher sends every one of a token's `k` copies through NCCL's
//! all-to-all; its `flex` dispatcher with DeepEP or HybridEP (`--moe-token-dispatcher-type flex`,
//! `--moe-flex-dispatcher-backend deepep|hybridep`) merges the copies bound for one GPU and
//! crosses the network once per remote node, forwarding inside the node over NVLink (the normal
//! kernels of [`crate::engine::perf::moe`]). As modelled, training sends BF16 hidden states
//! both ways (`2H` bytes per token and destination; newer stacks can dispatch in FP8, which the
//! scenario does not express). HybridEP (NVIDIA's TMA-based variant for NVL72 and multi-rail
//! networks) is priced as DeepEP's normal kernels at their H800-measured link shares: an
//! estimate.

use crate::engine::perf::moe::{deepep_layer, DeepepInputs};
use crate::engine::stack::EpComm;

/// One MoE layer's dispatch plus combine in one pass on one rank: expected and least seconds.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Exchange {
    pub expected_s: f64,
    pub bound_s: f64,
}

/// Dispatch plus combine of one MoE layer in one pass. `nccl` is the all-to-all pair's time
/// from the collective model (the `alltoall` dispatcher: every copy sent). DeepEP/HybridEP
/// (`deepep_normal`; `deepep_low_latency` is a decode kernel and trains as the normal ones): the
/// serving model's normal kernels ([`deepep_layer`]) with BF16 both ways, inside one node
/// `t = T·D·2p / (B_nvl·s_nvl)` with `D` the distinct GPUs a token's experts are on, across
/// nodes once per remote node. Worked: Qwen3-30B-A3B at
/// EP 16 over two nodes of 8, 4,096 tokens, k 8, H 2048 (p 4,096 B), 50 GB/s NIC: R = 2·(1 −
/// ½⁸)·½ = 0.996 remote nodes → 4,096·0.996·8,192 B / 43 GB/s = 0.78 ms, where the all-to-all
/// sends four of the eight copies across: at the same 43 GB/s, 4,096·4·8,192 B ≈ 3.1 ms.
pub fn dispatch_combine(comm: EpComm, nccl: Exchange, x: &DeepepInputs) -> Exchange {
    if comm == EpComm::Nccl || x.ep <= 1.0 {
        return nccl;
    }
    let e = deepep_layer(EpComm::DeepepNormal, x);
    Exchange { expected_s: e.per_layer_s, bound_s: e.bound_s }
}

/// The routed experts' grouped-GEMM share relative to a dense GEMM's, by the expert's
/// intermediate size `f_e` (see the module doc). Worked: f_e 768 → 0.305; 1408 → 0.305 +
/// 0.695·log(1408/768)/log(2048/768) = 0.734.
pub fn grouped_gemm_relative_share(expert_intermediate: f64) -> f64 {
    const POINTS: [(f64, f64); 3] = [(512.0, 0.18 / 0.803), (768.0, 0.245 / 0.803), (2048.0, 1.0)];
    crate::engine::num::log_interpolate(&POINTS, expert_intermediate).clamp(0.0, 1.0)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn qwen3_30b(ep: f64, nic: Option<f64>) -> DeepepInputs {
        DeepepInputs {
            tokens: 4096.0,
            k: 8.0,
            payload: (4096.0, 4096.0),
            ep,
            gpus_per_node: 8.0,
            routing_groups: (0.0, 0.0),
            nvlink: 450e9,
            nic,
        }
    }

    #[test]
    fn deepep_crosses_the_network_once_per_remote_node() {
        let nccl = Exchange { expected_s: 1.0, bound_s: 0.5 };
        // The all-to-all dispatcher keeps the collective model's time.
        assert_eq!(dispatch_combine(EpComm::Nccl, nccl, &qwen3_30b(16.0, Some(50e9))), nccl);
        let x = dispatch_combine(EpComm::DeepepNormal, nccl, &qwen3_30b(16.0, Some(50e9)));
        let r = 2.0 * (1.0 - 0.5f64.powi(8)) * 0.5;
        let nic = 4096.0 * r * 8192.0 / 43e9;
        assert!((x.expected_s - nic).abs() < 1e-9, "{x:?}");
        assert!((x.expected_s - 0.78e-3).abs() < 0.01e-3, "{x:?}");
        assert!(x.bound_s <= x.expected_s);
        // Inside one node: the distinct GPUs of a token's experts over NVLink.
        let one = dispatch_combine(EpComm::DeepepNormal, nccl, &qwen3_30b(8.0, None));
        let d = 8.0 * (1.0 - (7.0f64 / 8.0).powi(8));
        assert!((one.expected_s - 4096.0 * d * 8192.0 / (450e9 * 153.0 / 160.0)).abs() < 1e-12, "{one:?}");
        // The decode kernels train as the normal ones; no expert parallelism, no exchange change.
        assert_eq!(dispatch_combine(EpComm::DeepepLowLatency, nccl, &qwen3_30b(8.0, None)), one);
        assert_eq!(dispatch_combine(EpComm::DeepepNormal, nccl, &qwen3_30b(1.0, None)), nccl);
    }

    #[test]
    fn small_experts_run_far_below_dense_gemms() {
        assert!((grouped_gemm_relative_share(768.0) - 0.305).abs() < 1e-3);
        assert!((grouped_gemm_relative_share(512.0) - 0.224).abs() < 1e-3);
        assert_eq!(grouped_gemm_relative_share(256.0), grouped_gemm_relative_share(512.0));
        assert_eq!(grouped_gemm_relative_share(2048.0), 1.0);
        assert_eq!(grouped_gemm_relative_share(18432.0), 1.0);
        let g = grouped_gemm_relative_share(1408.0);
        assert!(
            (g - (0.3051 + 0.6949 * (1408.0f64 / 768.0).ln() / (2048.0f64 / 768.0).ln())).abs() < 1e-3,
            "{g}"
        );
    }
}
