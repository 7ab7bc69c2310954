//! Which part of each collective a training step waits for.
//!
//! - **Tensor parallel** (Shoeybi et al. 2019; with sequence parallelism Korthikanti et al.
//!   2022): two all-reduces (or all-gather + reduce-scatter pairs of the same bytes) of the
//!   micro-batch's `T·h` activations per layer forward, two backward, two more for each forward
//!   recomputed in full. On the compute stream and exposed (Megatron's default; torchtitan's plain
//!   TP); with `tp_comm_overlap` (Megatron `--tp-comm-overlap`, torchtitan async TP) each is split
//!   and pipelined with the adjacent GEMMs and only its excess shows: `max(0, C − G)`.
//! - **Context parallel** (all-gather of K and V over the `cp` ranks before attention, a
//!   reduce-scatter of their gradients after; Dubey et al., "The Llama 3 Herd of Models",
//!   arXiv:2407.21783, §3.3.2): overlapped with the attention kernels, `max(0, C − A)` per pass.
//! - **Expert parallel** (GShard; Megatron MoE): dispatch and combine all-to-alls per MoE layer,
//!   forward and backward, exposed (no overlap unless a recipe overlaps them, which the scenario
//!   does not express).
//! - **FSDP / ZeRO-3** (Zhao et al., "PyTorch FSDP", VLDB 2023, arXiv:2304.11277): a layer's
//!   all-gather before its forward and again before its backward, its gradients' reduce-scatter
//!   after; prefetching hides them behind the previous layer's compute, so per layer
//!   `max(0, AG − t_fwd) + max(0, AG + RS − t_bwd)` shows, and once per micro-batch the first
//!   unit's all-gather and the last reduce-scatter (the embedding and output layer's, which open
//!   and close the pass) show in full.
//! - **Data parallel** (DDP, ZeRO-1/2, Megatron's distributed optimizer): the gradients'
//!   all-reduce (or reduce-scatter) runs in buckets during the backward of the *last*
//!   micro-batch only (Megatron schedules.py runs the others under `no_sync`); with the
//!   distributed optimizer the updated parameters are all-gathered behind the next step's first
//!   forward. `gradient_sync_overlap` of each window hides it:
//!   `max(0, C_rs − o·t_bwd) + max(0, C_ag − o·t_fwd)`.

/// The part of a collective of `comm` seconds a window of `window` seconds of compute does not
/// hide: `max(0, comm − window)`.
pub fn exposed(comm: f64, window: f64) -> f64 {
    let e = comm - window.max(0.0);
    if e.is_finite() {
        e.max(0.0)
    } else {
        0.0
    }
}

/// Tensor-parallel seconds a pass waits for: all of `comm`, or with overlap what the pass's
/// GEMMs (`gemm` seconds) do not hide.
pub fn tensor_parallel_exposed(comm: f64, gemm: f64, overlap: bool) -> f64 {
    if overlap {
        exposed(comm, gemm)
    } else {
        comm.max(0.0)
    }
}

/// FSDP's exposed seconds per layer: `max(0, AG − t_fwd) + max(0, AG + RS − t_bwd)`.
/// Worked: AG 4 ms, RS 4 ms, forward 3 ms, backward 6 ms: 1 + 2 = 3 ms.
pub fn fsdp_layer_exposed(all_gather: f64, reduce_scatter: f64, forward: f64, backward: f64) -> f64 {
    exposed(all_gather, forward) + exposed(all_gather + reduce_scatter, backward)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn exposure_is_what_the_window_leaves() {
        assert_eq!(exposed(5.0, 3.0), 2.0);
        assert_eq!(exposed(2.0, 3.0), 0.0);
        assert_eq!(tensor_parallel_exposed(2.0, 3.0, false), 2.0);
        assert_eq!(tensor_parallel_exposed(2.0, 3.0, true), 0.0);
        assert!((fsdp_layer_exposed(4e-3, 4e-3, 3e-3, 6e-3) - 3e-3).abs() < 1e-15);
        assert_eq!(exposed(f64::NAN, 1.0), 0.0);
    }
}
