//! Which part of each collective a training step waits for.
//!
//! - **Tensor parallel** (Shoeybi et al. 2019; with sequence parallelism Korthikanti et al.
//!   2022): two all-reduces (or all-gather + reduce-scatter pairs of the same bytes) of the
//!   micro-batch's `T·h` activations per layer forward, two backward, two more for each forward
//!   recomputed in full. On the compute stream and exposed (Megatron's default; torchtitan's plain
//!   TP); with `tp_comm_overlap` (Megatron `--tp-comm-overlap`, torchtitan async TP) each is split
//!   and pipelined with the adjacent GEMMs and only its excess shows: `max(0, C − G)`, plus what
//!   the overlap itself costs ([`userbuffers_cost`]).
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

/// SMs a Transformer Engine userbuffers kernel of the `pipeline` and `bulk` overlap methods runs
/// on, and the splits of the `pipeline` method (the defaults of `initialize_ub` in
/// transformer_engine/pytorch/module/base.py, TE 1.8, 2024-06, and TE main, 2026).
pub const UB_COMM_SMS: f64 = 16.0;
pub const UB_PIPELINE_SPLITS: f64 = 4.0;

/// What Megatron's TP overlap (Transformer Engine userbuffers) costs a layer beyond the
/// collectives it hides, `(forward, backward)` seconds, for a reduce-scatter of `rs` and an
/// all-gather of `ag` seconds of the layer's `T × h` activations on a GPU of `sms` SMs.
///
/// TE's defaults (`initialize_ub`): the all-gathers before the column-parallel GEMMs run as a
/// ring exchange on the copy engines (no SMs); the reduce-scatters after the two row-parallel
/// GEMMs (attention output, MLP down) use the `pipeline` method: the GEMM runs in 4 chunks and
/// each chunk's reduce-scatter overlaps the next chunk, so the last one runs after the last GEMM
/// chunk and shows (`split_overlap_rs` in common/comm_gemm_overlap/comm_gemm_overlap.cpp); the
/// backward's re-gather of the QKV and MLP-up inputs (for their weight gradients) and the
/// reduce-scatter of their input gradients use the `bulk` method, concurrent with a GEMM. A
/// `pipeline` or `bulk` kernel holds 16 SMs while it runs, which the GEMM beside it loses
/// (`_math_sms = sm_count − num_comm_sm` where TE sets the margin; without it the kernel still
/// occupies them): `d × 16 / S` seconds for a kernel of `d` seconds.
///
/// - forward: `2·RS/4 + 2·RS·(3/4)·16/S`;
/// - backward: `(2·AG + 2·RS)·16/S`.
///
/// Worked: RS = AG = 1 ms on an H100 (132 SMs): forward 0.5 + 1.5 × 16/132 = 0.682 ms,
/// backward 4 × 16/132 = 0.485 ms. Without an SM count only the last split shows. An assumption
/// for torchtitan's async TP, which follows the same pattern with its own kernels.
pub fn userbuffers_cost(rs: f64, ag: f64, sms: Option<f64>) -> (f64, f64) {
    let (rs, ag) = (rs.max(0.0), ag.max(0.0));
    let held = match sms {
        Some(s) if s.is_finite() && s > UB_COMM_SMS => UB_COMM_SMS / s,
        _ => 0.0,
    };
    let forward = 2.0 * rs / UB_PIPELINE_SPLITS + 2.0 * rs * (1.0 - 1.0 / UB_PIPELINE_SPLITS) * held;
    let backward = (2.0 * ag + 2.0 * rs) * held;
    if forward.is_finite() && backward.is_finite() {
        (forward, backward)
    } else {
        (0.0, 0.0)
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

    #[test]
    fn the_overlap_pays_its_last_split_and_the_sms_its_kernels_hold() {
        let (f, b) = userbuffers_cost(1e-3, 1e-3, Some(132.0));
        assert!((f - (0.5e-3 + 1.5e-3 * 16.0 / 132.0)).abs() < 1e-15, "{f}");
        assert!((f - 0.682e-3).abs() < 1e-6);
        assert!((b - 4e-3 * 16.0 / 132.0).abs() < 1e-15, "{b}");
        // Without an SM count only the last split shows; nothing to overlap costs nothing.
        assert_eq!(userbuffers_cost(1e-3, 1e-3, None), (0.5e-3, 0.0));
        assert_eq!(userbuffers_cost(0.0, 0.0, Some(132.0)), (0.0, 0.0));
        let (nf, nb) = userbuffers_cost(f64::NAN, 1e-3, Some(132.0));
        assert!(nf == 0.0 && (nb - 2e-3 * 16.0 / 132.0).abs() < 1e-15, "{nf} {nb}");
        // More SMs, a smaller share held.
        assert!(userbuffers_cost(1e-3, 1e-3, Some(148.0)).1 < b);
    }
}
