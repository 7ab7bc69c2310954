//! Which part of each collective a training step waits for.
//!
//! - **Tensor parallel** (Shoeybi et al. 2019; with sequence parallelism Korthikanti et al.
//!   2022): two all-reduces (or all-gather + reduce-scatter pairs of the same bytes) of the
//!   micro-batch's `T·h` activations per layer forward, two backward, two more for each forward
//!   recomputed in full. On the compute stream and exposed (Megatron's default; torchtitan's plain
//!   TP); with `tp_comm_overlap` (Megatron `--tp-comm-overlap`, torchtitan async TP) each is split
//!   and pipelined with its own GEMM (Transformer Engine's userbuffers, [`userbuffers`]): what
//!   that GEMM does not hide shows, the last pipelined split, and the SMs the overlap kernels hold.
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
/// on, and the splits of the `pipeline` method: the defaults of `initialize_ub`
/// (transformer_engine/pytorch/module/base.py, TE 1.8-1.9 of 2024 and TE main of 2026 alike).
pub const UB_COMM_SMS: f64 = 16.0;
pub const UB_PIPELINE_SPLITS: f64 = 4.0;

/// One tensor-parallel block of a layer (attention: QKV then output projection; MLP: up then
/// down): its column-parallel GEMM's forward, input-gradient and weight-gradient seconds, its
/// row-parallel GEMM's forward and input-gradient seconds, and the share of layers that have it.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct TpBlock {
    pub column_fwd: f64,
    pub column_dgrad: f64,
    pub column_wgrad: f64,
    pub row_fwd: f64,
    pub row_dgrad: f64,
    pub share: f64,
}

/// A layer's tensor-parallel seconds under Megatron's `--tp-comm-overlap` (Transformer Engine
/// userbuffers, sequence parallelism).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct TpOverlap {
    /// Seconds the forward and the backward wait, the SMs' share included.
    pub forward: f64,
    pub backward: f64,
    /// Of those, what the SMs the overlap kernels hold add beyond the communication itself.
    pub sm_held: f64,
    /// Every collective's seconds, hidden or not (the recomputed forward's are in the
    /// recomputation).
    pub comm: f64,
}

/// What Megatron's TP overlap leaves exposed in a layer, per block of [`TpBlock`], for an
/// all-gather of `ag` and a reduce-scatter of `rs` seconds of the layer's `T × h` activations
/// over `tp` GPUs.
///
/// TE's methods by default (`initialize_ub`), each collective beside its own GEMM `G`:
/// - the all-gathers before the column-parallel GEMM (forward) and before the row-parallel
///   input gradient (backward) run as a ring exchange on the copy engines: the GEMM runs in `tp`
///   chunks, each waiting for its piece, so `max(0, AG − G·(tp − 1)/tp)` shows
///   (`split_overlap_ag`, common/comm_gemm_overlap/comm_gemm_overlap.cpp);
/// - the reduce-scatter after the row-parallel GEMM uses the `pipeline` method: the GEMM runs in
///   `n = 4` chunks, each chunk's reduce-scatter overlaps the next, and the last runs after the
///   last chunk (`split_overlap_rs`);
/// - the backward's re-gather of the column GEMM's input (for its weight gradient; none when
///   the weights are frozen) and the reduce-scatter of its input gradient use the `bulk`
///   method, beside the input-gradient and the weight-gradient GEMM.
///
/// The `pipeline` and `bulk` kernels run on 16 SMs, which the GEMM beside them loses for as long
/// as they run (`σ = 16/S` of its rate on a GPU of `S` SMs). A pass takes the longer of its two
/// paths: pipeline `max(RS − G·(n − 1)/n, RS/n + σ·RS·(n − 1)/n)`, bulk `max(C − G, σ·min(C, G))`.
/// The SM term is TE 1.x's, where the GEMM keeps every SM and loses the time the kernels hold;
/// TE 2.0 and later set an SM margin that runs the whole overlapped GEMM on `S − 16` SMs,
/// `σ'·G` with `σ' = 16/(S − 16)`, more. Per block and share `s` the collectives are forward
/// `AG + RS`, backward `AG` (row input gradient) `+ AG + RS` (bulk).
///
/// Worked: one block, AG = RS = 1 ms, tp 8, column GEMMs 4 ms each pass, row GEMMs 2 ms, 132
/// SMs (σ = 0.121): forward `0 + max(1 − 1.5, 0.25 + 0.75σ)` = 0.341 ms; backward
/// `0 + max(−3, σ) + max(−3, σ)` = 0.242 ms. Without an SM count nothing is held. Routed experts
/// go through the MoE dispatcher, not through userbuffers, and are not blocks here. torchtitan's
/// async TP (also `tp_comm_overlap`) moves its chunks with the copy engines; this is TE's
/// pattern, an assumption there.
pub fn userbuffers(blocks: &[TpBlock], ag: f64, rs: f64, tp: f64, sms: Option<f64>) -> TpOverlap {
    let n = UB_PIPELINE_SPLITS;
    let sigma = match sms {
        Some(s) if s.is_finite() && s > UB_COMM_SMS => UB_COMM_SMS / s,
        _ => 0.0,
    };
    let ring = if tp.is_finite() && tp > 1.0 { (tp - 1.0) / tp } else { 0.0 };
    let (ag, rs) = (ag.max(0.0), rs.max(0.0));
    let mut t = TpOverlap::default();
    for b in blocks {
        let s = b.share.max(0.0);
        let (ag, rs) = (s * ag, s * rs);
        let g = |x: f64| x.max(0.0);
        // Forward: the ring exchange, then the pipelined reduce-scatter (the longer path).
        let rs_comm = (rs - g(b.row_fwd) * (n - 1.0) / n).max(rs / n);
        let rs_shown = rs_comm.max(rs / n + sigma * rs * (n - 1.0) / n);
        // Backward: the ring exchange, the bulk re-gather (weights trained only) and the bulk
        // reduce-scatter, each the longer of its communication and its GEMM's lost SM time.
        let regather = if b.column_wgrad > 0.0 { ag } else { 0.0 };
        let bulk = |c: f64, gemm: f64| (c - g(gemm)).max(sigma * c.min(g(gemm))).max(0.0);
        let bulk_shown = bulk(regather, b.column_dgrad) + bulk(rs, b.column_wgrad);
        let bulk_comm = exposed(regather, b.column_dgrad) + exposed(rs, b.column_wgrad);
        t.forward += exposed(ag, g(b.column_fwd) * ring) + rs_shown;
        t.backward += exposed(ag, g(b.row_dgrad) * ring) + bulk_shown;
        t.sm_held += (rs_shown - rs_comm).max(0.0) + (bulk_shown - bulk_comm).max(0.0);
        t.comm += 2.0 * ag + regather + 2.0 * rs;
    }
    if [t.forward, t.backward, t.sm_held, t.comm].iter().all(|v| v.is_finite()) {
        t
    } else {
        TpOverlap::default()
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
        let ms = 1e-3;
        let block = TpBlock {
            column_fwd: 4.0 * ms,
            column_dgrad: 4.0 * ms,
            column_wgrad: 4.0 * ms,
            row_fwd: 2.0 * ms,
            row_dgrad: 2.0 * ms,
            share: 1.0,
        };
        let sigma = 16.0 / 132.0;
        let t = userbuffers(&[block], ms, ms, 8.0, Some(132.0));
        assert!((t.forward - (0.25 * ms + 0.75 * ms * sigma)).abs() < 1e-15, "{t:?}");
        assert!((t.forward - 0.341 * ms).abs() < 1e-6);
        assert!((t.backward - 2.0 * ms * sigma).abs() < 1e-15, "{t:?}");
        assert!((t.sm_held - 2.75 * ms * sigma).abs() < 1e-15);
        assert!((t.comm - 5.0 * ms).abs() < 1e-15);
        // A reduce-scatter longer than its own GEMM shows what the GEMM's chunks do not hide,
        // and the SMs it holds slow no one on that path.
        let short = TpBlock { row_fwd: 0.4 * ms, ..block };
        let c = userbuffers(&[short], ms, ms, 8.0, Some(132.0));
        assert!((c.forward - 0.7 * ms).abs() < 1e-15, "{c:?}");
        // The ring exchange hides an all-gather behind (tp − 1)/tp of its GEMM.
        let ring = TpBlock { column_fwd: 1.0 * ms, ..block };
        let r = userbuffers(&[ring], ms, ms, 8.0, None);
        assert!((r.forward - (0.125 * ms + 0.25 * ms)).abs() < 1e-15, "{r:?}");
        // Frozen weights: no re-gather, and the reduce-scatter has no weight gradient to hide
        // behind.
        let frozen = TpBlock { column_wgrad: 0.0, ..block };
        let f = userbuffers(&[frozen], ms, ms, 8.0, Some(132.0));
        assert!((f.backward - ms).abs() < 1e-15 && (f.comm - 4.0 * ms).abs() < 1e-15, "{f:?}");
        // Without an SM count only what the GEMMs leave shows; a block on half the layers pays half.
        assert_eq!(userbuffers(&[block], ms, ms, 8.0, None).forward, 0.25 * ms);
        let half = userbuffers(&[TpBlock { share: 0.5, ..block }], ms, ms, 8.0, Some(132.0));
        assert!((half.comm - 2.5 * ms).abs() < 1e-15);
        assert_eq!(userbuffers(&[], ms, ms, 8.0, Some(132.0)), TpOverlap::default());
        assert_eq!(userbuffers(&[block], f64::NAN, 0.0, 8.0, Some(132.0)).forward, 0.0);
        // More SMs, a smaller share held.
        assert!(userbuffers(&[block], ms, ms, 8.0, Some(148.0)).backward < t.backward);
    }
}
