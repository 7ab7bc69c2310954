//! Time and throughput of a phase on a parallel layout: the roofline upper bound (peaks, no
//! overheads, everything overlapped, no pipeline bubble) and the expected value (efficiency
//! factors, collective latencies, kernel launches, bubble, exposed communication).
//!
//! Layout: tensor parallel (TP) innermost, then pipeline (PP), then data (DP); expert parallel
//! (EP) spans `expert` GPUs for the all-to-all. Per pipeline stage and micro-batch, a GPU does
//! `1/(tp·pp·m)` of the phase. Sources: Megatron-LM (Shoeybi et al. 2019: two all-reduces per
//! layer forward, two backward); GPipe (Huang et al. 2019) bubble `(p-1)/(m+p-1)`;
//! GShard (Lepikhin et al. 2020) two all-to-alls per MoE layer forward.

use super::collectives::{hierarchical_time, Algorithm, Collective, CommTime};
use super::moe::{moe_layer_time, MoeLayerTime, MoeRun};
use super::phases::{ModelShape, PhaseWork};
use super::roofline::{bound_time, compute_time, expected_time, memory_time, ridge_point, BoundTime};
use crate::engine::checked::{finite, non_negative, positive, PerfError};
use crate::engine::efficiency::Efficiency;
use crate::engine::links::Topology;
use crate::engine::stack::EpComm;
use serde::{Deserialize, Serialize};

/// Peak figures of one GPU for the dtype in use.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Hardware {
    pub peak_flops_per_s: f64,
    pub memory_bandwidth_bytes_per_s: f64,
}

/// Parallel layout. GPUs used = tensor × pipeline × data.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct Parallelism {
    pub tensor: u32,
    pub pipeline: u32,
    pub data: u32,
    /// GPUs across which experts are spread (1 = no expert parallelism).
    pub expert: u32,
    /// Micro-batches per step through the pipeline (m).
    pub micro_batches: u32,
    /// The tensor-parallel all-reduces run on the serving stack's custom all-reduce kernels
    /// where they take them ([`super::custom_all_reduce`]): a serving run whose tensor-parallel
    /// GPUs are all connected by NVLink or Infinity Fabric inside one node. `None`: NCCL's ring.
    pub custom_all_reduce: Option<super::custom_all_reduce::Kernels>,
}

impl Default for Parallelism {
    fn default() -> Self {
        Parallelism { tensor: 1, pipeline: 1, data: 1, expert: 1, micro_batches: 1, custom_all_reduce: None }
    }
}

impl Parallelism {
    pub fn gpus(&self) -> u64 {
        u64::from(self.tensor.max(1)) * u64::from(self.pipeline.max(1)) * u64::from(self.data.max(1))
    }
}

/// Which inference phase (a training step has its own model, [`super::training`]).
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Phase {
    Prefill,
    Decode,
}

/// Pipeline bubble fraction `(p-1)/(m+p-1)` (GPipe, Huang et al. 2019).
/// Worked: p = 4, m = 8: 3/11 = 0.273.
pub fn pipeline_bubble_fraction(stages: u32, micro_batches: u32) -> f64 {
    let (p, m) = (f64::from(stages.max(1)), f64::from(micro_batches.max(1)));
    (p - 1.0) / (m + p - 1.0)
}

/// The two answers for one phase, plus the pieces behind them.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct PhaseTiming {
    /// Roofline upper bound: reality can never be faster.
    pub bound: BoundTime,
    pub expected: BoundTime,
    /// Tokens per second over all GPUs (`tokens × data / T`).
    pub bound_tokens_per_s: f64,
    pub expected_tokens_per_s: f64,
    /// Arithmetic intensity per GPU (FLOP/byte) and the GPU's ridge point.
    pub arithmetic_intensity: f64,
    pub ridge_point: f64,
    pub pipeline_bubble_fraction: f64,
    /// Expected seconds per step in each kind of communication.
    pub tensor_parallel_comm_s: f64,
    pub expert_parallel_comm_s: f64,
    pub data_parallel_sync_s: f64,
    /// The part of the data-parallel sync not hidden behind backward.
    pub data_parallel_exposed_s: f64,
    /// Expected seconds the attention and cache kernels add because they run after the GEMMs
    /// instead of overlapping them ([`kernels_in_sequence_s`] minus `max(W/F_eff, Q/B_eff)`).
    pub kernel_sequence_s: f64,
    /// Expected seconds of the element-wise kernels' activation traffic
    /// ([`super::phases::ModelShape::activation_traffic_bytes`]).
    pub activation_traffic_s: f64,
    /// The routed experts as their kernel family runs them (inference phases of an MoE model).
    #[serde(default)]
    pub moe: Option<MoeTiming>,
    /// Expected seconds the GPU waits for the serving stack's CPU work
    /// (`efficiency.cpu_share_of_step`).
    #[serde(default)]
    pub cpu_exposed_s: f64,
    /// One tensor-parallel all-reduce of the phase and how many it runs (null without tensor
    /// parallelism): `tensor_parallel_comm_s = calls × per_call_s`.
    #[serde(default)]
    pub tp_all_reduce: Option<TpAllReduce>,
}

/// One tensor-parallel all-reduce of a serving phase: its message, the kernel that runs it, its
/// time, and the calls the phase makes (2 a layer, per pipeline slot).
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct TpAllReduce {
    /// `S = tokens of a micro-batch × hidden × activation bytes`.
    pub bytes: f64,
    pub ranks: u32,
    /// The stack's own kernels and whether they run one-shot; null: NCCL's ring.
    pub custom: Option<(super::custom_all_reduce::Kernels, bool)>,
    /// Inside a node: the latency `α` of one step (the kernels' `α(n)`, or NVLink's for NCCL),
    /// the link's rate `β` per direction, and the share `e` of it reached (the kernels' 0.34, or
    /// NCCL's `intra_node_bus_bandwidth`).
    pub node: CommLeg,
    /// Between nodes, where NCCL's ring spans them (hierarchical): the NIC's `α`, `β` and
    /// `inter_node_bus_bandwidth`, for an all-reduce of `S/g`.
    pub nic: Option<CommLeg>,
    /// GPUs per node (`g`).
    pub gpus_per_node: u32,
    pub per_call_s: f64,
    pub calls: f64,
}

/// One link's terms in a collective's time: `α` per step, `β` bytes/s per direction, share `e`.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct CommLeg {
    pub alpha_s: f64,
    pub beta_bytes_per_s: f64,
    pub share: f64,
}

/// The routed experts' part of a phase's expected time.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct MoeTiming {
    /// One MoE layer on one GPU.
    pub layer: MoeLayerTime,
    /// MoE layers of a pipeline stage.
    pub layers: f64,
    /// Grouped-GEMM seconds of the phase, `slots · L · I · max(memory, compute)`.
    pub grouped_gemm_s: f64,
    /// Fixed seconds of the phase, `slots · L · t0`.
    pub fixed_s: f64,
    /// One layer's dispatch and combine with expert parallelism (none without it); the phase's
    /// `expert_parallel_comm_s = slots · L · I · exchange.per_layer_s`.
    #[serde(default)]
    pub exchange: Option<super::moe::EpExchange>,
}

/// Expected compute-and-memory seconds of an inference step whose kernels run one after
/// another on the GPU: the GEMMs (`W_gemm = 2·P_active·T` FLOPs over the weights `Q_w`), then
/// the attention and cache kernels (the rest of `W` and `Q`: scores over, and reads of, every
/// sequence's cache): `max(W_gemm/F_eff, Q_w/B_eff) + max(W_rest/F_eff, Q_rest/B_eff)`.
/// A single `max(W/F_eff, Q/B_eff)` assumes the GEMMs' compute hides the attention kernels'
/// cache reads; kernels on one stream do not overlap, so at a large batch, where the GEMMs are
/// compute-bound and the caches are large, the two add (per-operator rooflines summed over a
/// layer: Yuan et al., "LLM Inference Unveiled: Survey and Roofline Model Insights", 2024,
/// arXiv:2402.16363, LLM-Viewer; Agrawal et al., Sarathi-Serve, OSDI 2024, Fig. 4: decode
/// attention time grows with batch × context while the linear layers' stays flat).
/// `k_compute` and `k_memory` are expected seconds per FLOP and per byte; the GEMM parts are
/// clamped to the totals. Worked: GEMMs 7.5 ms of compute over 2.4 ms of weights, caches
/// 13.6 ms: 7.5 + 13.6 = 21.1 ms instead of max(7.5, 16.0) = 16.0 ms.
pub fn kernels_in_sequence_s(
    k_compute: f64,
    k_memory: f64,
    flops: f64,
    bytes: f64,
    gemm_flops: f64,
    weight_bytes: f64,
) -> f64 {
    let (gf, wb) = (gemm_flops.clamp(0.0, flops.max(0.0)), weight_bytes.clamp(0.0, bytes.max(0.0)));
    (k_compute * gf).max(k_memory * wb) + (k_compute * (flops - gf)).max(k_memory * (bytes - wb))
}

/// Topology seen by a group whose consecutive members are `stride` GPUs apart.
fn strided(topology: &Topology, stride: u32) -> Topology {
    Topology { gpus_per_node: (topology.gpus_per_node / stride.max(1)).max(1), ..*topology }
}

/// Time and throughput of one phase. See the module doc for the layout and sources.
/// Expected: `T = (m+p-1)·(max(W/F_eff, Q/B_eff) + C_tp + C_ep + T_launch) + max(0, C_dp − overlap·T_bwd)`;
/// an inference phase adds, per slot, what its kernels in sequence add over the single max
/// ([`kernels_in_sequence_s`]) and its activation traffic at `B_eff`.
/// Bound: `T = m·max(W/F, Q/B, C_floor)` per stage, peak rates, no latency or bubble.
pub fn phase_timing(
    work: &PhaseWork,
    model: &ModelShape,
    phase: Phase,
    hw: &Hardware,
    par: &Parallelism,
    topology: &Topology,
    eff: &Efficiency,
) -> Result<PhaseTiming, PerfError> {
    eff.validate()?;
    model.validate()?;
    let f = positive("peak_flops_per_s", hw.peak_flops_per_s)?;
    let b = positive("memory_bandwidth_bytes_per_s", hw.memory_bandwidth_bytes_per_s)?;
    for (field, v) in [
        ("tensor", par.tensor),
        ("pipeline", par.pipeline),
        ("data", par.data),
        ("expert", par.expert),
        ("micro_batches", par.micro_batches),
    ] {
        positive(field, f64::from(v))?;
    }
    let (tp, pp, m) = (par.tensor, par.pipeline, par.micro_batches);
    let share = 1.0 / (f64::from(tp) * f64::from(pp) * f64::from(m));
    non_negative("work.flops", work.flops)?;
    non_negative("work.bytes", work.bytes)?;
    non_negative("work.expected_bytes", work.expected_bytes)?;
    let micro_tokens = work.tokens / f64::from(m);
    // The routed experts as their kernel family runs them, apart from the dense roofline
    // ([`super::moe`]); a training step has its own model ([`super::training`]).
    let experts = model.moe.as_ref().filter(|_| model.experts > 0);
    let moe = match experts {
        Some(run) => Some(MoeStage::of(run, model, work, micro_tokens, f, b, pp)?),
        None => None,
    };
    let routed = moe.as_ref().map_or((0.0, 0.0, 0.0), |s| s.work);
    let flops = (work.flops - routed.0).max(0.0) * share;
    let bytes = (work.bytes - routed.1).max(0.0) * share;
    let exp_bytes = (work.expected_bytes.max(work.bytes) - routed.2).max(0.0) * share;

    // Communication per stage per micro-batch.
    let (passes, ar_per_layer): (f64, f64) = (1.0, 2.0);
    let layers_per_stage = f64::from(model.layers) / f64::from(pp);
    let act = micro_tokens * f64::from(model.hidden) * model.activation_bytes;
    let (tp_one, tp_call) = tp_all_reduce(act, tp, par.custom_all_reduce, topology, eff)?;
    let tp_n = ar_per_layer * layers_per_stage;
    // Dispatch and combine once per MoE layer, at the slowest rank's load (one layer's
    // exchange kept for its derivation); without a routed-expert stage, twice per pass.
    let (ep_exp, ep_bound, exchange) = if model.experts > 0 && par.expert > 1 {
        let sent = act * f64::from(model.experts_per_token) / f64::from(tp);
        let t = hierarchical_time(
            Collective::AllToAll,
            Algorithm::Ring,
            sent,
            par.expert,
            &strided(topology, tp),
            eff,
        )?;
        match &moe {
            Some(s) => {
                let x = s.exchange(&t, sent, micro_tokens, topology);
                (s.dispatch_combine_s(&x)?, s.layers * x.bound_s, Some(x))
            }
            None => {
                let n = 2.0 * passes.min(2.0) * layers_per_stage;
                (n * t.expected_s, n * t.bound_s, None)
            }
        }
    } else {
        (0.0, 0.0, None)
    };
    let comm_exp = tp_n * tp_one.expected_s + ep_exp;
    let comm_bound = tp_n * tp_one.bound_s + ep_bound;

    // Compute, memory and launch overhead per stage per micro-batch; the routed experts' bound
    // is their FLOPs and their least weight bytes at peak rates.
    let (moe_flops, moe_bytes) = moe.as_ref().map_or((0.0, 0.0), |s| (s.flops(), s.bound_bytes()));
    let c_b = compute_time(flops + moe_flops, f)?;
    let m_b = memory_time(bytes + moe_bytes, b)?;
    let (moe_c, moe_m) = moe.as_ref().map_or((0.0, 0.0), |s| (s.compute_s(), s.memory_s()));
    let c_e = compute_time(flops, f * eff.tensor_flops)? + moe_c;
    let m_e = memory_time(exp_bytes, b * eff.memory_bandwidth)? + moe_m;
    let kernels = kernels_per_pass(model, pp, eff);
    let launch = passes * eff.launch_s(kernels)? + moe.as_ref().map_or(0.0, |s| s.layers * s.time.fixed_s);
    // Kernels in sequence (GEMMs, then attention over the caches, the routed experts' grouped
    // GEMMs) and the element-wise kernels' activation traffic.
    let (sequence, activation) = {
        let (kc, km) = (1.0 / (f * eff.tensor_flops), 1.0 / (b * eff.memory_bandwidth));
        let (gemm, weights) = dense_gemm_and_weights(model, work.tokens, work.logit_rows, share);
        let serial = kernels_in_sequence_s(kc, km, flops, exp_bytes, gemm, weights)
            + moe.as_ref().map_or(0.0, MoeStage::grouped_gemm_s);
        let act = model.activation_traffic_bytes(micro_tokens, tp) / f64::from(pp);
        (
            finite("kernel sequence", (serial - c_e.max(m_e)).max(0.0))?,
            memory_time(act, b * eff.memory_bandwidth)?,
        )
    };
    let (dp_sync, dp_bound, dp_exposed) = (0.0, 0.0, 0.0);
    let slots = f64::from(m) + f64::from(pp) - 1.0;

    let mf = f64::from(m);
    let bound = bound_time(mf * c_b, mf * m_b, (mf * comm_bound).max(dp_bound), 0.0)?;
    let overhead = slots * (launch + sequence + activation);
    // A serving stack's CPU work the GPU waits for: the step takes `t_gpu / (1 − share)`, or a
    // decode step past the stack's largest CUDA graph `max(that, the host's eager time)`.
    let cpu = {
        let gpu = (slots * c_e).max(slots * m_e) + slots * comm_exp + dp_exposed + overhead;
        let shared = gpu / (1.0 - eff.cpu_share_of_step);
        let eager = match phase {
            Phase::Decode => slots * eff.eager_host_s(kernels, work.decode_sequences / f64::from(m)),
            Phase::Prefill => 0.0,
        };
        finite("cpu time", shared.max(eager) - gpu)?
    };
    let expected = expected_time(slots * c_e, slots * m_e, slots * comm_exp + dp_exposed, overhead + cpu)?;
    let replicas = f64::from(par.data);
    let rate = |t: f64| if t > 0.0 { finite("throughput", work.tokens * replicas / t) } else { Ok(0.0) };
    Ok(PhaseTiming {
        bound_tokens_per_s: rate(bound.total_s)?,
        expected_tokens_per_s: rate(expected.total_s)?,
        bound,
        expected,
        arithmetic_intensity: if bytes > 0.0 { finite("intensity", flops / bytes)? } else { 0.0 },
        ridge_point: ridge_point(f, b)?,
        pipeline_bubble_fraction: pipeline_bubble_fraction(pp, m),
        tensor_parallel_comm_s: slots * tp_n * tp_one.expected_s,
        expert_parallel_comm_s: slots * ep_exp,
        data_parallel_sync_s: dp_sync,
        data_parallel_exposed_s: dp_exposed,
        kernel_sequence_s: slots * sequence,
        activation_traffic_s: slots * activation,
        moe: moe.map(|s| MoeTiming {
            layer: s.time,
            layers: s.layers,
            grouped_gemm_s: slots * s.grouped_gemm_s(),
            fixed_s: slots * s.layers * s.time.fixed_s,
            exchange,
        }),
        cpu_exposed_s: cpu,
        tp_all_reduce: (tp > 1).then_some(TpAllReduce { calls: slots * tp_n, ..tp_call }),
    })
}

/// One tensor-parallel all-reduce of `bytes` over `tp` GPUs: the serving stack's custom
/// all-reduce where it runs (`custom`, inside one node, a size it takes), else NCCL's ring over
/// the topology; with the terms its derivation shows (one call; the caller sets the calls).
fn tp_all_reduce(
    bytes: f64,
    tp: u32,
    custom: Option<super::custom_all_reduce::Kernels>,
    topology: &Topology,
    eff: &Efficiency,
) -> Result<(CommTime, TpAllReduce), PerfError> {
    use super::custom_all_reduce as car;
    let link = topology.intra_node;
    let own = match custom {
        Some(k) if tp <= topology.gpus_per_node.max(1) => car::time(bytes, tp, &link, k)?.map(|t| (t, k)),
        _ => None,
    };
    let leg = |alpha_s, l: crate::engine::links::Link, share| CommLeg {
        alpha_s,
        beta_bytes_per_s: l.bytes_per_s_per_direction,
        share,
    };
    let (time, custom, node, nic) = match own {
        Some((t, k)) => {
            (t, Some((k, car::one_shot(bytes, tp))), leg(k.latency_s(tp), link, car::BANDWIDTH_SHARE), None)
        }
        None => {
            let t = hierarchical_time(Collective::AllReduce, Algorithm::Ring, bytes, tp, topology, eff)?;
            // Past one node NCCL's ring is hierarchical: its leg between nodes over the NIC.
            let nic = topology
                .inter_node
                .filter(|_| tp > topology.gpus_per_node.max(1))
                .map(|n| leg(n.latency_s, n, eff.inter_node_bus_bandwidth));
            (t, None, leg(link.latency_s, link, eff.intra_node_bus_bandwidth), nic)
        }
    };
    let call = TpAllReduce {
        bytes,
        ranks: tp,
        custom,
        node,
        nic,
        gpus_per_node: topology.gpus_per_node,
        per_call_s: time.expected_s,
        calls: 1.0,
    };
    Ok((time, call))
}

/// Kernels one forward pass of a pipeline stage launches: `kernels_per_layer` for each layer,
/// an MoE layer's changed by its extra kernels (router and top-k in, the dense MLP's out where no
/// shared expert runs it, MLA's in; never below none). Worked: Qwen3-0.6B, 28 layers × 10 = 280;
/// Qwen3-30B-A3B, 48 MoE layers × (10 − 1) = 432.
pub fn kernels_per_pass(model: &ModelShape, pp: u32, eff: &Efficiency) -> f64 {
    let pp = f64::from(pp.max(1));
    let (moe_layers, per_moe_layer) =
        model.moe.as_ref().filter(|_| model.experts > 0).map_or((0.0, 0.0), |r| {
            (f64::from(r.layers.min(model.layers)), (eff.kernels_per_layer + r.extra_kernels).max(0.0))
        });
    ((f64::from(model.layers) - moe_layers) * eff.kernels_per_layer + moe_layers * per_moe_layer) / pp
}

/// The dense GEMMs' FLOPs and expected weight bytes of a phase over `tokens` tokens, per GPU at
/// `share`: all the active parameters' and weights, less the routed experts' when their kernel
/// family times them ([`ModelShape::routed_expert_work`]).
pub fn dense_gemm_and_weights(model: &ModelShape, tokens: f64, logit_rows: f64, share: f64) -> (f64, f64) {
    let (ef, _, eb) = model.routed_expert_work(tokens);
    let gemm = (model.weight_flops(tokens, logit_rows) - ef).max(0.0) * share;
    let weights = (model.expected_weight_bytes(tokens) - eb).max(0.0) * share;
    (gemm, weights)
}

/// The routed experts of one pipeline stage at one step: their layers, one layer's time on one
/// GPU, and the phase's expert work they take out of the dense roofline.
struct MoeStage<'a> {
    run: &'a MoeRun,
    /// MoE layers of the stage (`L_moe / pp`).
    layers: f64,
    time: MoeLayerTime,
    /// `(FLOPs, bound bytes, expected bytes)` of the routed experts in the phase's work.
    work: (f64, f64, f64),
}

impl<'a> MoeStage<'a> {
    fn of(
        run: &'a MoeRun,
        model: &ModelShape,
        work: &PhaseWork,
        micro_tokens: f64,
        peak_flops: f64,
        bandwidth: f64,
        pp: u32,
    ) -> Result<MoeStage<'a>, PerfError> {
        Ok(MoeStage {
            run,
            layers: f64::from(run.layers) / f64::from(pp.max(1)),
            time: moe_layer_time(run, micro_tokens, peak_flops, bandwidth)?,
            work: model.routed_expert_work(work.tokens),
        })
    }

    /// Useful FLOPs of the stage's routed experts on one GPU.
    fn flops(&self) -> f64 {
        self.layers * self.time.flops
    }

    /// Least weight bytes of the stage's routed experts on one GPU.
    fn bound_bytes(&self) -> f64 {
        self.layers * self.time.bound_bytes
    }

    /// Compute seconds of the stage's grouped GEMMs (slowest rank).
    fn compute_s(&self) -> f64 {
        self.layers * self.time.imbalance * self.time.compute_s
    }

    /// Weight-read seconds of the stage's grouped GEMMs (slowest rank).
    fn memory_s(&self) -> f64 {
        self.layers * self.time.busiest_memory_s
    }

    /// `L · max(memory_I, I · compute)`: the grouped GEMMs in sequence with the other kernels.
    fn grouped_gemm_s(&self) -> f64 {
        self.layers * self.time.busiest_memory_s.max(self.time.imbalance * self.time.compute_s)
    }

    /// One MoE layer's dispatch and combine on one rank: NCCL's all-to-all twice (`t`, `sent`
    /// bytes each) or DeepEP's kernels on the links the group spans ([`super::moe::deepep_layer`]).
    fn exchange(
        &self,
        t: &CommTime,
        sent: f64,
        micro_tokens: f64,
        topology: &Topology,
    ) -> super::moe::EpExchange {
        let r = self.run;
        if r.comm == EpComm::Nccl {
            return super::moe::nccl_exchange(micro_tokens, sent, t.expected_s, t.bound_s);
        }
        let x = super::moe::DeepepInputs {
            tokens: micro_tokens,
            k: r.experts_per_token,
            payload: super::moe::deepep_payload(r.hidden),
            ep: f64::from(r.ep),
            gpus_per_node: f64::from(topology.gpus_per_node.max(1)),
            routing_groups: r.routing_groups,
            nvlink: topology.intra_node.bytes_per_s_per_direction,
            nic: topology.inter_node.map(|l| l.bytes_per_s_per_direction),
        };
        super::moe::deepep_layer(r.comm, &x)
    }

    /// Expected dispatch + combine seconds of the stage: `L · I · t_layer`, on the slowest rank.
    fn dispatch_combine_s(&self, x: &super::moe::EpExchange) -> Result<f64, PerfError> {
        finite("dispatch and combine", self.layers * self.time.imbalance * x.per_layer_s)
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::engine::bound::Term;
    use crate::engine::links::Link;
    use crate::engine::perf::phases::{decode_step_work, tests::llama2_7b};

    pub(crate) const A100: Hardware =
        Hardware { peak_flops_per_s: 312e12, memory_bandwidth_bytes_per_s: 2.039e12 };
    pub(crate) fn dgx_a100() -> Topology {
        Topology {
            gpus_per_node: 8,
            intra_node: Link { bytes_per_s_per_direction: 300e9, latency_s: 2e-6 },
            inter_node: Some(Link { bytes_per_s_per_direction: 25e9, latency_s: 5e-6 }),
        }
    }

    #[test]
    fn decode_batch1_llama2_7b_on_a100() {
        let m = llama2_7b();
        let w = decode_step_work(&m, 1.0, 0.0).unwrap();
        let t = phase_timing(
            &w,
            &m,
            Phase::Decode,
            &A100,
            &Parallelism::default(),
            &dgx_a100(),
            &Efficiency::default(),
        )
        .unwrap();
        // Bound: 13.21e9 / 2.039e12 = 6.48 ms -> 154 tokens/s; memory dominates by ~150x.
        assert!((t.bound_tokens_per_s - 154.3).abs() < 0.5, "{}", t.bound_tokens_per_s);
        assert_eq!(t.bound.dominant, Term::Memory);
        // Expected: 13.21e9 / (0.85 × 2.039e12) + 32 × 10 × 4 µs = 7.62 + 1.28 ms -> 112 tokens/s.
        assert!((t.expected_tokens_per_s - 112.3).abs() < 0.5, "{}", t.expected_tokens_per_s);
        assert!(t.arithmetic_intensity < 1.1 && (t.ridge_point - 153.0).abs() < 0.1);
    }

    #[test]
    fn kernels_in_sequence_add_the_cache_reads_to_compute_bound_gemms() {
        // GEMMs 7.5 ms of compute over 2.4 ms of weights; caches 13.6 ms: 7.5 + 13.6 = 21.1 ms.
        let t = kernels_in_sequence_s(1.0, 1.0, 7.5, 16.0, 7.5, 2.4);
        assert!((t - 21.1).abs() < 1e-9, "{t}");
        // Never below the single max; equal when one kind of kernel does all the work.
        assert!(t >= 7.5f64.max(16.0));
        assert_eq!(kernels_in_sequence_s(1.0, 1.0, 5.0, 3.0, 5.0, 3.0), 5.0);
        // A large batch of Llama-2-7B decodes: the sequence term is counted, the bound is not.
        let m = llama2_7b();
        let w = decode_step_work(&m, 256.0, 1024.0).unwrap();
        let e = Efficiency::default();
        let t = phase_timing(&w, &m, Phase::Decode, &A100, &Parallelism::default(), &dgx_a100(), &e).unwrap();
        assert!(t.kernel_sequence_s > 0.0 && t.activation_traffic_s > 0.0);
        assert!(t.expected.total_s > t.bound.total_s);
    }

    #[test]
    fn tensor_parallel_adds_two_all_reduces_per_layer() {
        let m = llama2_7b();
        let w = decode_step_work(&m, 1.0, 0.0).unwrap();
        let par = Parallelism { tensor: 8, ..Default::default() };
        let t =
            phase_timing(&w, &m, Phase::Decode, &A100, &par, &dgx_a100(), &Efficiency::default()).unwrap();
        // 64 all-reduces of 8 KiB, each ~ 14 × 2 µs latency + tiny transfer.
        assert!((t.tensor_parallel_comm_s - 64.0 * (28e-6 + 8192.0 * 1.75 / 225e9)).abs() < 1e-9);
        assert!(t.expected_tokens_per_s < t.bound_tokens_per_s);
    }

    #[test]
    fn pipeline_bubble_fraction_worked() {
        assert!((pipeline_bubble_fraction(4, 8) - 3.0 / 11.0).abs() < 1e-12);
        assert_eq!(pipeline_bubble_fraction(1, 1), 0.0);
    }
}
