//! The routed experts of an MoE layer as a serving engine runs them: a grouped GEMM over the
//! experts a step's tokens are routed to, its tokens moved to and from the GPUs that hold those
//! experts (dispatch and combine), on the slowest rank of the expert-parallel group.
//!
//! For one MoE layer on one GPU with `T` tokens entering the layer, top-`k` of `E` experts,
//! `ep`-way expert parallelism holding `n = ceil((E + R)/ep)` experts split `moe_tp` ways
//! ([`crate::engine::memory::expert_parallel`]):
//! - tokens pooled over the attention replicas of the EP group: `T_moe = T · g`, `g = max(1,
//!   ep/tp)` (vLLM and SGLang run attention data-parallel inside the EP group);
//! - token–expert pairs per GPU `P = T_moe · k / ep`, experts touched per GPU `X = n·(1 −
//!   (1 − k/E)^T_moe)` (uniform routing);
//! - weights read `W = X · B_e / moe_tp`, FLOPs `F = 2·P·P_e/moe_tp` on rows padded to the kernel's
//!   block, `R = P + (BM/2)·X` (half a block of residue per touched expert);
//! - time `t = t0 + max(W_I / (B·η_b), I·F_R / (F_peak·η_c))` on the slowest rank, whose load is
//!   `I` times the mean (1 without expert parallelism): it computes `I` times the pairs but reads
//!   only the experts they touch, `W_I = X_I · B_e / moe_tp` with `X_I = n·(1 − (1 −
//!   k/E)^(I·T_moe))`, at most its `n` (a GPU whose experts are all touched reads them whatever
//!   its load, so a memory-bound decode step does not pay `I`), with `(t0, η_b, η_c, BM)` the
//!   kernel family's measured costs ([`crate::engine::stack::MoeKernel::costs`]).
//!
//! The bound stays the roofline's: the routed experts' FLOPs and the least weight bytes (`k/ep`
//! experts' worth) at peak rates, so the expected time, whose every efficiency is at most 1 and
//! every extra term at least 0, never falls below it.

use crate::engine::checked::{finite, non_negative, PerfError};
use crate::engine::stack::EpComm;
use serde::{Deserialize, Serialize};

/// How a deployment runs the routed experts of a model: the layout, the kernel family's costs
/// resolved for this model and GPU, the load imbalance and the dispatch/combine.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct MoeRun {
    /// MoE layers in the whole model.
    pub layers: u32,
    /// Routed experts `E`.
    pub experts: f64,
    /// Experts per token `k`.
    pub experts_per_token: f64,
    /// Experts one GPU holds, `ceil((E + R)/ep)`.
    pub per_gpu: f64,
    /// Ways each held expert is split.
    pub moe_tp: f64,
    /// GPUs the experts are spread over.
    pub ep: u32,
    /// Attention replicas whose tokens meet in one MoE layer, `g = max(1, ep/tp)`.
    pub pooled: f64,
    /// Parameters of one routed expert in one layer (`3·H·I` gated).
    pub expert_params: f64,
    /// Bytes of one routed expert in one layer, in its stored format.
    pub expert_bytes: f64,
    /// Hidden size (the dispatched activation per token).
    pub hidden: f64,
    /// Bytes per dispatched activation element (2 for BF16).
    pub activation_bytes: f64,
    /// `t0`: seconds per MoE layer whatever the tokens.
    pub fixed_s: f64,
    /// `η_b`: share of bandwidth while the experts' weights stream.
    pub bandwidth_share: f64,
    /// `η_c`: share of the compute path's peak while compute-bound.
    pub compute_share: f64,
    /// `BM`: rows each expert's tokens are padded to.
    pub block_rows: f64,
    /// The reader's load imbalance (`None`: [`default_imbalance`]).
    pub imbalance: Option<f64>,
    /// Whether redundant experts (EPLB) balance the load.
    pub redundant: bool,
    pub comm: EpComm,
    /// Groups of experts a token's experts are chosen from (`n_group`, 0 or 1 = none) and how
    /// many of them each token may use (`topk_group`): DeepSeek-V3's node-limited routing.
    pub routing_groups: (f64, f64),
    /// Kernels an MoE layer launches beyond a dense layer's, outside the fused experts (router
    /// GEMM and top-k, less the dense MLP's three where no shared expert runs them; negative
    /// then), with MLA's extra kernels on MLA models, per MoE layer
    /// ([`crate::engine::perf::performance::moe_layer_extra_kernels`]).
    pub extra_kernels: f64,
}

/// Expected distinct experts one GPU touches when `tokens` tokens each pick `k` of `experts`
/// uniformly and the GPU holds `per_gpu` of them.
///
/// # Formula
/// `X = n · (1 − (1 − k/E)^T)`. Worked: DeepSeek-V3 (E 256, k 8), all experts on the GPU:
/// T = 1, 4, 16, 64, 128 → 8, 30.5, 102, 222.4, 251.6.
pub fn experts_touched(experts: f64, k: f64, per_gpu: f64, tokens: f64) -> f64 {
    if !(experts > 0.0 && k > 0.0 && tokens > 0.0) {
        return 0.0;
    }
    let miss = (1.0 - (k / experts).min(1.0)).max(0.0);
    per_gpu.max(0.0) * (1.0 - miss.powf(tokens))
}

/// Rows a grouped GEMM computes for `pairs` token–expert pairs over `touched` experts when each
/// expert's rows are padded to a multiple of `block_rows`: half a block of residue per touched
/// expert (Triton's `moe_align_block_size`; DeepGEMM's contiguous layout aligns each expert to
/// 128 rows).
///
/// # Formula
/// `R = P + (BM/2)·X`. Worked: Qwen3-30B-A3B at 4,096 tokens on one GPU: P = 32,768, X = 128,
/// BM = 64: 32,768 + 4,096 = 36,864 rows (12.5% padding).
pub fn padded_rows(pairs: f64, touched: f64, block_rows: f64) -> f64 {
    pairs.max(0.0) + block_rows.max(0.0) / 2.0 * touched.max(0.0)
}

/// The expected busiest rank's tokens over the mean when `tokens` tokens each send `k` copies
/// to `ep` ranks uniformly: each rank receives a Binomial count of mean `μ = T·k/ep` and
/// variance about `μ(1 − 1/ep)`, and the expected maximum of `ep` of them is about
/// `μ + σ·sqrt(2 ln ep)` (the Gaussian extreme-value approximation).
///
/// # Formula
/// `I_stat = 1 + sqrt(2·ln(ep)·(ep − 1)/(T·k))`. Worked: T 16, k 8, ep 8: 1 + sqrt(2·2.079·7/128)
/// = 1.477; 128 tokens on each of 72 ranks (T = 9,216), k 8, ep 72: 1.091.
pub fn statistical_imbalance(tokens: f64, k: f64, ep: f64) -> f64 {
    if !(ep > 1.0 && tokens > 0.0 && k > 0.0) {
        return 1.0;
    }
    1.0 + (2.0 * ep.ln() * (ep - 1.0) / (tokens * k)).sqrt()
}

/// Measured skew of real routing over perfectly balanced experts with expert parallelism: the
/// default expert placement ran 20% slower than DeepSeek's balanced profile, and a simulated
/// perfect EPLB came within 5% (LMSYS, "Deploying DeepSeek with PD Disaggregation and
/// Large-scale Expert Parallelism on 96 H100 GPUs", 2025-05-05, prefill at EP 32).
pub const ROUTING_SKEW: f64 = 1.2;
/// The same with redundant experts placed by EPLB.
pub const ROUTING_SKEW_EPLB: f64 = 1.05;

/// The slowest EP rank's load over the mean: 1 without expert parallelism (every GPU holds a
/// slice of every expert), else the larger of the statistical imbalance and the measured skew.
///
/// # Formula
/// `I = max(I_stat, 1.2)`, or `max(I_stat, 1.05)` with redundant experts. Worked: T 16, k 8,
/// ep 8: max(1.477, 1.2) = 1.477.
pub fn default_imbalance(tokens: f64, k: f64, ep: f64, redundant: bool) -> f64 {
    if ep <= 1.0 {
        return 1.0;
    }
    let skew = if redundant { ROUTING_SKEW_EPLB } else { ROUTING_SKEW };
    statistical_imbalance(tokens, k, ep).max(skew)
}

/// One MoE layer on one GPU, and its parts.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct MoeLayerTime {
    /// Tokens entering the layer on this GPU's EP group (`T_moe`).
    pub tokens: f64,
    /// Token–expert pairs on this GPU (`P`).
    pub pairs: f64,
    /// Experts touched on this GPU (`X`).
    pub touched: f64,
    /// Mean tokens per touched expert (`P / X`).
    pub tokens_per_expert: f64,
    /// Weight bytes read (`W`).
    pub weight_bytes: f64,
    /// Useful FLOPs (`F`).
    pub flops: f64,
    /// FLOPs on the padded rows.
    pub padded_flops: f64,
    /// `W / (B·η_b)`.
    pub memory_s: f64,
    /// The slowest rank's weight reads, `W_I / (B·η_b)`: the experts its `I·T_moe` tokens touch.
    pub busiest_memory_s: f64,
    /// `F_R / (F_peak·η_c)`.
    pub compute_s: f64,
    /// `t0`.
    pub fixed_s: f64,
    /// `I`.
    pub imbalance: f64,
    /// `t0 + max(busiest memory, I·compute)`.
    pub expected_s: f64,
    /// Least weight bytes any step reads (`k/ep` experts' worth over `moe_tp`), for the bound.
    pub bound_bytes: f64,
}

/// One MoE layer on one GPU for `tokens` tokens of one attention replica, at `peak_flops`
/// FLOP/s and `bandwidth` bytes/s. See the module doc for the formula.
///
/// Worked (vLLM PR #24700's Qwen3-30B-A3B FP8 on an H100: E 128, k 8, 3·2048·768 parameters of
/// one byte per expert, t0 32 µs, η_b 0.75): 16 tokens touch 82.4 experts, 388.9 MB, read in
/// 154.7 µs at 0.75 × 3.35 TB/s: 187 µs; measured 185.4 µs.
pub fn moe_layer_time(
    run: &MoeRun,
    tokens: f64,
    peak_flops: f64,
    bandwidth: f64,
) -> Result<MoeLayerTime, PerfError> {
    let t = non_negative("moe tokens", tokens)? * run.pooled.max(1.0);
    let (k, ep, tp) = (run.experts_per_token, f64::from(run.ep.max(1)), run.moe_tp.max(1.0));
    let pairs = t * k / ep;
    let touched = experts_touched(run.experts, k, run.per_gpu, t);
    let weight_bytes = touched * run.expert_bytes / tp;
    let flops = 2.0 * pairs * run.expert_params / tp;
    let padded_flops = 2.0 * padded_rows(pairs, touched, run.block_rows) * run.expert_params / tp;
    let memory_s = finite("moe memory time", weight_bytes / (bandwidth * run.bandwidth_share.max(1e-6)))?;
    let compute_s = finite("moe compute time", padded_flops / (peak_flops * run.compute_share.max(1e-6)))?;
    let imbalance = run.imbalance.unwrap_or_else(|| default_imbalance(t, k, ep, run.redundant));
    let fixed_s = if t > 0.0 { run.fixed_s } else { 0.0 };
    let busiest = experts_touched(run.experts, k, run.per_gpu, imbalance * t) * run.expert_bytes / tp;
    let busiest_memory_s =
        finite("moe memory time", busiest / (bandwidth * run.bandwidth_share.max(1e-6)))?.max(memory_s);
    Ok(MoeLayerTime {
        tokens: t,
        pairs,
        touched,
        tokens_per_expert: if touched > 0.0 { pairs / touched } else { 0.0 },
        weight_bytes,
        flops,
        padded_flops,
        memory_s,
        busiest_memory_s,
        compute_s,
        fixed_s,
        imbalance,
        expected_s: finite("moe layer time", fixed_s + busiest_memory_s.max(imbalance * compute_s))?,
        bound_bytes: if t > 0.0 { (k / ep).min(run.per_gpu) * run.expert_bytes / tp } else { 0.0 },
    })
}

/// Payload bytes per token and destination of DeepEP's dispatch: the FP8 activation, its
/// per-128 scales and 16 bytes of metadata, `H + 4·H/128 + 16` (AIConfigurator,
/// DEEPEP_LL_MODELING.md); the combine sends `2·H` (BF16).
/// Worked: H 7168 → 7,408 bytes dispatched, 14,336 combined.
pub fn deepep_payload(hidden: f64) -> (f64, f64) {
    (hidden + 4.0 * hidden / 128.0 + 16.0, 2.0 * hidden)
}

/// Expected distinct ranks a token's `k` experts live on among `ep` (uniform routing):
/// `D = ep·(1 − (1 − 1/ep)^k)`, at most `min(k, ep)`. Worked: k 8, ep 8: 5.25.
pub fn destinations(k: f64, ep: f64) -> f64 {
    if ep <= 1.0 {
        return 0.0;
    }
    (ep * (1.0 - (1.0 - 1.0 / ep).powf(k))).min(k.min(ep))
}

/// `(dispatch GB/s, combine GB/s)` of DeepEP's low-latency kernels at `ep` ranks, interpolated
/// in `ln ep` between the measured EP sizes ([`crate::engine::stack::DEEPEP_LOW_LATENCY`]) and
/// clamped outside them.
pub fn deepep_low_latency_bandwidth(ep: f64) -> (f64, f64) {
    let table = crate::engine::stack::DEEPEP_LOW_LATENCY;
    let mut prev = (8.0, 98e9, 127e9);
    for row in table {
        if ep <= row.0 {
            if ep <= prev.0 || row.0 <= prev.0 {
                return (row.1, row.2);
            }
            let t = (ep.ln() - prev.0.ln()) / (row.0.ln() - prev.0.ln());
            return (prev.1 + t * (row.1 - prev.1), prev.2 + t * (row.2 - prev.2));
        }
        prev = row;
    }
    (prev.1, prev.2)
}

/// One MoE layer's dispatch and combine on one rank, as the engine prices it: what its
/// derivation shows (`phases.*.moe.exchange`).
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct EpExchange {
    pub comm: EpComm,
    /// The rank's tokens in the step (`T`).
    pub tokens: f64,
    /// Expected ranks each token is sent to (`D`, [`destinations`]); 0 for NCCL.
    pub destinations: f64,
    /// DeepEP: bytes per token and destination dispatched (`p_d`); NCCL: the bytes one rank
    /// sends in one all-to-all (`S`).
    pub dispatch_bytes: f64,
    /// DeepEP: bytes per token and destination combined (`p_c`); NCCL: as `dispatch_bytes`.
    pub combine_bytes: f64,
    /// Bytes per second the dispatch reaches (`β_d`; NCCL: `S` over one all-to-all's time).
    pub dispatch_rate: f64,
    /// Bytes per second the combine reaches (`β_c`).
    pub combine_rate: f64,
    /// Dispatch plus combine seconds of one layer, before the imbalance.
    pub per_layer_s: f64,
    /// Of it, DeepEP's normal kernels across nodes: the NVLink forwarding inside the receiving
    /// node, which runs beside the NIC's transfer (0 otherwise).
    #[serde(default)]
    pub forward_s: f64,
    /// The least seconds of one layer: the same bytes at the links' peak rates.
    #[serde(default)]
    pub bound_s: f64,
}

/// One MoE layer's exchange on one rank, as DeepEP's kernels see it (serving and training).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct DeepepInputs {
    /// Tokens the rank holds and sends (`T`) and top-k (`k`).
    pub tokens: f64,
    pub k: f64,
    /// Bytes per token and destination, dispatch and combine: [`deepep_payload`] when serving
    /// (FP8 dispatch), `(2H, 2H)` in training (BF16 both ways).
    pub payload: (f64, f64),
    /// Expert-parallel ranks, GPUs per node (the NVLink domain) and group-limited routing
    /// (`(n_group, topk_group)`, zeros without).
    pub ep: f64,
    pub gpus_per_node: f64,
    pub routing_groups: (f64, f64),
    /// Bytes per second per direction of NVLink and, across nodes, of the GPU's NIC.
    pub nvlink: f64,
    pub nic: Option<f64>,
}

/// DeepEP's kernels for one MoE layer on the links the group spans: the normal kernels across
/// nodes when the group is larger than a node and a NIC joins the nodes
/// ([`deepep_normal_across_nodes`]), otherwise [`deepep_exchange`] over NVLink inside the node,
/// or over the NIC for the low-latency kernels across nodes. `Nccl` is priced as the normal
/// kernels here; its callers use the collective model instead.
pub fn deepep_layer(comm: EpComm, x: &DeepepInputs) -> EpExchange {
    let g = x.gpus_per_node.max(1.0);
    let nic = x.nic.filter(|_| x.ep > g);
    match (comm, nic) {
        (EpComm::DeepepLowLatency, nic) => {
            deepep_exchange(comm, x.ep, x.tokens, x.k, x.payload, nic.unwrap_or(x.nvlink))
        }
        (_, Some(nic)) => {
            let cap = node_cap(x.k, (x.ep / g).max(1.0), x.routing_groups);
            deepep_normal_across_nodes((x.tokens, x.k, x.payload), (x.ep, g, cap), (x.nvlink, nic))
        }
        (_, None) => deepep_exchange(EpComm::DeepepNormal, x.ep, x.tokens, x.k, x.payload, x.nvlink),
    }
}

/// Dispatch plus combine of DeepEP's kernels for one MoE layer: `tokens` of this rank, each
/// sent as `D` copies. Low-latency: one copy per chosen expert (`D = k`, the kernels do not merge
/// the copies bound for one GPU), at the measured RDMA bandwidth of the EP size (DeepEP's V1
/// table, docs/legacy.md: H800, 128 tokens per batch); normal, inside one NVLink domain (across
/// nodes see [`deepep_normal_across_nodes`]): one copy per destination GPU ([`destinations`]), at
/// the kernels' measured share of NVLink (`link_bytes_per_s`). The normal kernels' measured rate
/// counts the copies a GPU keeps for itself (`D/ep` of them); their least time moves only the
/// others at the link's peak.
///
/// # Formula
/// `t = T·D·(p_dispatch / β_d + p_combine / β_c)`. Worked: DeepEP's own low-latency case, 128
/// tokens, k 8, EP 8, H 7168: 128·8·7,408 B / 98 GB/s = 77.4 µs dispatch and 128·8·14,336 B /
/// 127 GB/s = 115.6 µs combine (its table: 77 and 114 µs).
pub fn deepep_exchange(
    comm: EpComm,
    ep: f64,
    tokens: f64,
    k: f64,
    (pd, pc): (f64, f64),
    link_bytes_per_s: f64,
) -> EpExchange {
    // The low-latency kernels send one message per chosen expert (DeepEP's
    // tests/test_low_latency.py counts `num_selections` per token); the normal kernels merge
    // the copies bound for one GPU.
    let low_latency = comm == EpComm::DeepepLowLatency;
    let d = if low_latency { k.max(0.0) } else { destinations(k, ep) };
    let tokens = tokens.max(0.0);
    let link = link_bytes_per_s.max(1.0);
    let (bd, bc) = if low_latency {
        deepep_low_latency_bandwidth(ep)
    } else {
        let rate = link * crate::engine::stack::DEEPEP_NORMAL_SHARE.0;
        (rate, rate)
    };
    let per_layer_s = tokens * d * (pd / bd + pc / bc);
    // The low-latency kernels' measured rates count every top-k copy (above the NIC's line rate
    // for the distinct ranks' bytes): the bound is never above their time.
    let remote = if low_latency || ep <= 1.0 { 1.0 } else { 1.0 - 1.0 / ep };
    EpExchange {
        comm: if low_latency { comm } else { EpComm::DeepepNormal },
        tokens,
        destinations: d,
        dispatch_bytes: pd,
        combine_bytes: pc,
        dispatch_rate: bd,
        combine_rate: bc,
        per_layer_s,
        forward_s: 0.0,
        bound_s: (tokens * d * remote * (pd + pc) / link).min(per_layer_s),
    }
}

/// Remote nodes a token's `k` experts are on among `nodes` nodes, at most `cap` nodes in all:
/// `R = min(n·(1 − (1 − 1/n)^k), cap) · (n − 1)/n` (uniform routing; the token's own node is
/// reached over NVLink). DeepSeek-V3 routes each token to at most 4 nodes (node-limited
/// routing, DeepSeek-V3 technical report §2.1.2; `topk_group` 4 of `n_group` 8 in its
/// config.json). Worked: 8 nodes, k 8, cap 4: min(5.25, 4) · 7/8 = 3.5.
pub fn remote_nodes(k: f64, nodes: f64, cap: f64) -> f64 {
    if nodes <= 1.0 {
        return 0.0;
    }
    destinations(k, nodes).min(cap.max(1.0)) * (nodes - 1.0) / nodes
}

/// The most nodes a token reaches: `topk_group` groups of experts, each spanning
/// `max(1, nodes / n_group)` nodes, or `k` without group-limited routing.
pub fn node_cap(k: f64, nodes: f64, (groups, groups_per_token): (f64, f64)) -> f64 {
    if groups > 1.0 && groups_per_token >= 1.0 {
        (groups_per_token * (nodes / groups).max(1.0)).min(k)
    } else {
        k
    }
}

/// DeepEP's normal kernels across nodes: each token crosses the NIC once per remote node its
/// experts are on ([`remote_nodes`]), to the GPU of the same local rank, which forwards it over
/// NVLink to the experts' GPUs (DeepEP README: "asymmetric-domain bandwidth forwarding, such
/// as forwarding data from NVLink domain to RDMA domain", for DeepSeek-V3's group-limited
/// gating). The layer takes the longer of the two, at the kernels' measured shares of each link
/// ([`crate::engine::stack::DEEPEP_NORMAL_SHARE`]); its bound, the same bytes at peak.
///
/// # Formula
/// `t = max(T·R·(p_d + p_c) / (B_nic·s_rdma), T·D·(p_d + p_c) / (B_nvl·s_nvl))`, with the
/// payloads `(p_d, p_c)` of [`deepep_payload`] when serving (FP8 dispatch) and `2H` each way in
/// training (BF16 hidden states both ways). Worked: 4,096 tokens, k 8, EP 64 over 8 nodes,
/// DeepSeek-V3 (cap 4), 50 GB/s NIC, 450 GB/s NVLink: R 3.5 → 4,096·3.5·21,744 B / 43 GB/s =
/// 7.25 ms over the NIC; D 7.57 → 4,096·7.57·21,744 B / 430 GB/s = 1.57 ms forwarded: 7.25 ms.
pub fn deepep_normal_across_nodes(
    (tokens, k, (pd, pc)): (f64, f64, (f64, f64)),
    (ep, gpus_per_node, cap): (f64, f64, f64),
    (nvlink, nic): (f64, f64),
) -> EpExchange {
    let tokens = tokens.max(0.0);
    let r = remote_nodes(k, (ep / gpus_per_node.max(1.0)).max(1.0), cap);
    let (s_nvl, s_rdma) = crate::engine::stack::DEEPEP_NORMAL_SHARE;
    let rate = nic.max(1.0) * s_rdma;
    let over_nic = tokens * r * (pd + pc);
    let forwarded = tokens * destinations(k, ep) * (pd + pc);
    let forward_s = forwarded / (nvlink.max(1.0) * s_nvl);
    EpExchange {
        comm: EpComm::DeepepNormal,
        tokens,
        destinations: r,
        dispatch_bytes: pd,
        combine_bytes: pc,
        dispatch_rate: rate,
        combine_rate: rate,
        per_layer_s: (over_nic / rate).max(forward_s),
        forward_s,
        bound_s: (over_nic / nic.max(1.0)).max(forwarded / nvlink.max(1.0)),
    }
}

/// NCCL's all-to-all twice per MoE layer (dispatch, then combine), each sending `sent` bytes
/// from one rank in `seconds` (the collective model's expected time; `bound_s` its least).
pub fn nccl_exchange(tokens: f64, sent: f64, seconds: f64, bound_s: f64) -> EpExchange {
    let rate = if seconds > 0.0 { sent / seconds } else { 0.0 };
    EpExchange {
        comm: EpComm::Nccl,
        tokens: tokens.max(0.0),
        destinations: 0.0,
        dispatch_bytes: sent,
        combine_bytes: sent,
        dispatch_rate: rate,
        combine_rate: rate,
        per_layer_s: 2.0 * seconds,
        forward_s: 0.0,
        bound_s: 2.0 * bound_s,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::stack::MoeKernel;

    fn qwen3_30b_fp8() -> MoeRun {
        let c = MoeKernel::TritonFused.costs(false);
        MoeRun {
            layers: 48,
            experts: 128.0,
            experts_per_token: 8.0,
            per_gpu: 128.0,
            moe_tp: 1.0,
            ep: 1,
            pooled: 1.0,
            expert_params: 3.0 * 2048.0 * 768.0,
            expert_bytes: 3.0 * 2048.0 * 768.0,
            hidden: 2048.0,
            activation_bytes: 2.0,
            fixed_s: c.fixed_s,
            bandwidth_share: 0.75,
            compute_share: 0.22 * 989e12 / 1979e12,
            block_rows: c.block_rows,
            imbalance: None,
            redundant: false,
            comm: EpComm::Nccl,
            routing_groups: (0.0, 0.0),
            extra_kernels: 2.0,
        }
    }

    #[test]
    fn experts_touched_worked() {
        let want = [(1.0, 8.0), (4.0, 30.5), (16.0, 102.0), (64.0, 222.4), (128.0, 251.6)];
        for (t, x) in want {
            let got = experts_touched(256.0, 8.0, 256.0, t);
            assert!((got - x).abs() < 0.1, "{t}: {got}");
        }
        // Spread over 8 GPUs: an eighth of each.
        assert!((experts_touched(256.0, 8.0, 32.0, 16.0) - 102.0 / 8.0).abs() < 0.02);
        assert_eq!(experts_touched(0.0, 8.0, 1.0, 16.0), 0.0);
        assert_eq!(experts_touched(256.0, 8.0, 256.0, 0.0), 0.0);
    }

    #[test]
    fn the_qwen3_fp8_kernel_table_is_reproduced() {
        // vLLM PR #24700 on an H100: 16 tokens, measured 185.4 µs.
        let r = moe_layer_time(&qwen3_30b_fp8(), 16.0, 1979e12, 3.35e12).unwrap();
        assert!((r.touched - 82.4).abs() < 0.1, "{}", r.touched);
        assert!((r.weight_bytes - 388.9e6).abs() < 0.2e6, "{}", r.weight_bytes);
        assert!((r.expected_s * 1e6 - 186.7).abs() < 1.0, "{}", r.expected_s * 1e6);
        assert!((r.expected_s * 1e6 - 185.4).abs() / 185.4 < 0.02);
        // 4,096 tokens: compute-bound at 0.22 of 989 TFLOPS on 12.5% padded rows: 1.65 ms
        // (measured 1,647.6 µs, the point the share was read from).
        let big = moe_layer_time(&qwen3_30b_fp8(), 4096.0, 1979e12, 3.35e12).unwrap();
        assert!(big.compute_s > big.memory_s);
        assert!((big.padded_flops / big.flops - 36_864.0 / 32_768.0).abs() < 1e-9);
        assert!((big.expected_s * 1e6 - 1647.6).abs() / 1647.6 < 0.02, "{}", big.expected_s * 1e6);
        // No imbalance without expert parallelism.
        assert_eq!(big.imbalance, 1.0);
    }

    #[test]
    fn expert_parallelism_pools_tokens_and_divides_experts() {
        // EP 8 over 8 replicas (TP 1): each GPU holds 16 experts and sees 8 × 16 tokens.
        let run = MoeRun { per_gpu: 16.0, ep: 8, pooled: 8.0, ..qwen3_30b_fp8() };
        let r = moe_layer_time(&run, 16.0, 1979e12, 3.35e12).unwrap();
        assert_eq!(r.tokens, 128.0);
        assert_eq!(r.pairs, 128.0);
        assert!((r.touched - 16.0 * (1.0 - (1.0f64 - 8.0 / 128.0).powi(128))).abs() < 1e-9);
        // The slowest rank: max(1 + sqrt(2 ln 8 · 7 / 1024), 1.2) = 1.2.
        assert!((r.imbalance - 1.2).abs() < 1e-12);
        let own = MoeRun { imbalance: Some(1.0), ..run };
        assert!(moe_layer_time(&own, 16.0, 1979e12, 3.35e12).unwrap().expected_s < r.expected_s);
    }

    #[test]
    fn the_slowest_rank_computes_more_but_reads_only_the_experts_it_holds() {
        // EP 8, 16 experts per GPU, all of them touched by 2,048 tokens: a rank with 1.5× the
        // mean load computes 1.5× the pairs but reads the same 16 experts. On a slow memory the
        // step is memory-bound and does not pay the imbalance at all.
        let run =
            MoeRun { per_gpu: 16.0, ep: 8, imbalance: Some(1.5), compute_share: 1.0, ..qwen3_30b_fp8() };
        let slow = moe_layer_time(&run, 2048.0, 1979e12, 0.2e12).unwrap();
        assert!(slow.touched > 15.99 && slow.busiest_memory_s == slow.memory_s);
        assert!(slow.memory_s > 1.5 * slow.compute_s);
        assert!((slow.expected_s - (slow.fixed_s + slow.memory_s)).abs() < 1e-15);
        // Compute-bound on a fast memory: the slowest rank's 1.5× pairs set the time.
        let fast = moe_layer_time(&run, 2048.0, 1979e12, 100e12).unwrap();
        assert!((fast.expected_s - (fast.fixed_s + 1.5 * fast.compute_s)).abs() < 1e-15);
        // Few tokens: the slowest rank touches more of its experts than the mean rank.
        let few = moe_layer_time(&run, 8.0, 1979e12, 3.35e12).unwrap();
        let x_i = experts_touched(128.0, 8.0, 16.0, 12.0);
        assert!((few.busiest_memory_s / few.memory_s - x_i / few.touched).abs() < 1e-9);
        assert!(few.busiest_memory_s < 1.5 * few.memory_s);
    }

    #[test]
    fn imbalance_worked() {
        assert!((statistical_imbalance(16.0, 8.0, 8.0) - 1.477).abs() < 0.001);
        assert!((statistical_imbalance(9216.0, 8.0, 72.0) - 1.091).abs() < 0.001);
        assert_eq!(default_imbalance(16.0, 8.0, 1.0, false), 1.0);
        assert!((default_imbalance(1e6, 8.0, 8.0, false) - 1.2).abs() < 1e-12);
        assert!((default_imbalance(1e6, 8.0, 8.0, true) - 1.05).abs() < 1e-12);
    }

    #[test]
    fn node_limited_dispatch_worked() {
        assert!((remote_nodes(8.0, 8.0, 4.0) - 3.5).abs() < 1e-12);
        assert_eq!(remote_nodes(8.0, 1.0, 4.0), 0.0);
        // DeepSeek-V3: 8 groups, 4 per token; over 8 nodes each group is a node: at most 4.
        assert_eq!(node_cap(8.0, 8.0, (8.0, 4.0)), 4.0);
        // Over 16 nodes each group spans two: at most 8 = k. Kimi K2 (one group): k.
        assert_eq!(node_cap(8.0, 16.0, (8.0, 4.0)), 8.0);
        assert_eq!(node_cap(8.0, 8.0, (1.0, 1.0)), 8.0);
        let x = deepep_normal_across_nodes(
            (4096.0, 8.0, deepep_payload(7168.0)),
            (64.0, 8.0, 4.0),
            (450e9, 50e9),
        );
        assert!((x.per_layer_s * 1e3 - 7.25).abs() < 0.01, "{}", x.per_layer_s * 1e3);
        assert!((x.forward_s * 1e3 - 1.57).abs() < 0.01, "{}", x.forward_s * 1e3);
        assert!(x.bound_s < x.per_layer_s);
        // Without the cap every one of the 5.25 expected nodes but the own is crossed.
        let free = deepep_normal_across_nodes(
            (4096.0, 8.0, deepep_payload(7168.0)),
            (64.0, 8.0, 8.0),
            (450e9, 50e9),
        );
        assert!((free.destinations - 5.25 * 7.0 / 8.0).abs() < 0.01, "{}", free.destinations);
    }

    #[test]
    fn deepep_worked() {
        assert_eq!(deepep_payload(7168.0), (7408.0, 14336.0));
        assert!((destinations(8.0, 8.0) - 5.25).abs() < 0.01);
        let (d, c) = deepep_low_latency_bandwidth(8.0);
        assert_eq!((d, c), (98e9, 127e9));
        // Between 8 and 16 ranks in ln ep: 11.3 ranks is halfway.
        let mid = deepep_low_latency_bandwidth(8.0 * 2f64.sqrt());
        assert!((mid.0 - 80.5e9).abs() < 1e6, "{}", mid.0);
        assert_eq!(deepep_low_latency_bandwidth(1000.0), (39e9, 40e9));
        // Every top-k copy sent (D = 8): 128 × 8 × 7,408 / 98e9 = 77.4 µs dispatch.
        assert!((128.0f64 * 8.0 * 7408.0 / 98e9 * 1e6 - 77.4).abs() < 0.1);
        // Every top-k copy, as DeepEP's benchmark counts them: 77.4 + 115.6 µs (its table: 77
        // and 114 µs).
        let t = deepep_exchange(EpComm::DeepepLowLatency, 8.0, 128.0, 8.0, deepep_payload(7168.0), 160e9)
            .per_layer_s;
        assert!((t * 1e6 - (77.4 + 115.6)).abs() < 0.5, "{}", t * 1e6);
    }

    #[test]
    fn a_group_inside_one_nvlink_domain_stays_on_nvlink() {
        // EP 32 inside a 72-GPU NVLink domain: the normal kernels at their NVLink share, even
        // with a NIC present; the least time moves only the copies bound for other GPUs.
        let x = DeepepInputs {
            tokens: 1024.0,
            k: 8.0,
            payload: deepep_payload(7168.0),
            ep: 32.0,
            gpus_per_node: 72.0,
            routing_groups: (0.0, 0.0),
            nvlink: 900e9,
            nic: Some(50e9),
        };
        let e = deepep_layer(EpComm::DeepepNormal, &x);
        let sent = 1024.0 * destinations(8.0, 32.0) * (7408.0 + 14336.0);
        assert!((e.per_layer_s - sent / (900e9 * 153.0 / 160.0)).abs() < 1e-12, "{e:?}");
        assert!((e.bound_s - sent * (31.0 / 32.0) / 900e9).abs() < 1e-12, "{e:?}");
        // Twice the domain: across nodes, once per remote node over the NIC.
        let wide = deepep_layer(EpComm::DeepepNormal, &DeepepInputs { ep: 144.0, ..x });
        assert!(wide.forward_s > 0.0 && wide.per_layer_s > e.per_layer_s, "{wide:?}");
    }

    #[test]
    fn padded_rows_worked() {
        assert_eq!(padded_rows(32_768.0, 128.0, 64.0), 36_864.0);
        assert_eq!(padded_rows(-1.0, -1.0, 64.0), 0.0);
    }
}
