//! The training step from its operations (see the module doc of [`super`] for the formula).

use super::attention::{attention_seconds, rates, AttentionRates};
use super::comm::{exposed, fsdp_layer_exposed, tensor_parallel_exposed, userbuffers, TpBlock};
use super::elementwise::widths;
use super::gemm::{gemm_seconds, reduction_share, tile, wave_quantization};
use super::loss::{bytes_per_logit, recomputes_output_gemm};
use super::low_precision::{gathered_bytes, linear_speedup, weight_read_bytes};
use super::moe::{dispatch_combine, grouped_gemm_relative_share, Exchange};
use super::optimizer::bytes_per_param;
use super::pipeline::{bubble_fraction, slots};
use super::shape::{Split, TrainingShape};
use crate::engine::checked::{finite, positive, PerfError};
use crate::engine::efficiency::Efficiency;
use crate::engine::gpu::Generation;
use crate::engine::links::Topology;
use crate::engine::perf::collectives::{hierarchical_time, Algorithm, Collective, CommTime};
use crate::engine::perf::moe::DeepepInputs;
use crate::engine::perf::roofline::{dominant_term, BoundTime};
use crate::engine::stack::EpComm;
use crate::engine::workload::{
    AttentionKernel, LossImpl, LowPrecisionRecipe, Optimizer, OptimizerImpl, Recompute, TrainingPrecision,
};
use serde::Serialize;

/// The parallel layout and the batch of a training step.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TrainingLayout {
    pub tp: f64,
    pub pp: f64,
    pub cp: f64,
    /// Data-parallel replicas (the ZeRO/FSDP group is `dp·cp`).
    pub dp: f64,
    pub ep: f64,
    /// Model chunks per pipeline stage (interleaved 1F1B).
    pub vp: f64,
    pub micro_batches: f64,
    /// Sequences per micro-batch and their length.
    pub batch: f64,
    pub seq: f64,
    pub zero_stage: u8,
    pub sequence_parallel: bool,
    pub tp_overlap: bool,
    /// Expert-parallel dispatch and combine of one micro-batch run beside another's compute
    /// (Megatron `--overlap-moe-expert-parallel-comm`).
    pub ep_overlap: bool,
}

/// What the step needs of the GPU.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TrainingHardware {
    /// Dense 16-bit Tensor Core peak (FLOP/s): the GEMMs', attention's and the MFU's.
    pub peak: f64,
    /// Dense peak of the low-precision recipe's path (fp8 or fp4), or `peak` without one.
    pub low_precision_peak: f64,
    pub bandwidth: f64,
    pub sms: Option<f64>,
    pub generation: Generation,
}

/// How the step is run.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TrainingSettings {
    pub recipe: LowPrecisionRecipe,
    pub recompute: Recompute,
    /// Layers per stage under the policy (absent: all).
    pub recompute_layers: Option<f64>,
    pub kernel: AttentionKernel,
    pub loss: LossImpl,
    pub optimizer: Optimizer,
    pub optimizer_impl: OptimizerImpl,
    pub precision: TrainingPrecision,
    /// LoRA/QLoRA: the base weights get no weight gradients.
    pub frozen_base: bool,
    /// Trained parameters of one replica (all of them, or the adapters).
    pub trainable_params: f64,
    /// Bytes per gradient element.
    pub gradient_bytes: f64,
    /// FSDP all-gathers the quantised weights (FP8 primary weights).
    pub low_precision_gather: bool,
    /// How MoE layers dispatch and combine their tokens (NCCL all-to-all, or DeepEP/HybridEP).
    pub ep_comm: EpComm,
}

/// Seconds of one step by operation, summing to the expected step time (the slowest stage's).
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize)]
pub struct StepBreakdown {
    /// The linear layers' and the output layer's GEMMs (forward, input and weight gradients).
    pub gemm_s: f64,
    /// The attention kernels, forward and backward.
    pub attention_s: f64,
    /// Norms, rotary embeddings, residual adds, activations, MoE permutation.
    pub elementwise_s: f64,
    /// The cross-entropy over the vocabulary.
    pub loss_s: f64,
    /// The forwards the checkpointing policy runs again.
    pub recompute_s: f64,
    /// The optimizer step with gradient clipping.
    pub optimizer_s: f64,
    /// Exposed tensor-, context- and expert-parallel, FSDP and data-parallel communication.
    pub tensor_parallel_s: f64,
    pub context_parallel_s: f64,
    pub expert_parallel_s: f64,
    pub fsdp_s: f64,
    pub data_parallel_s: f64,
    /// The pipeline's fill and drain.
    pub pipeline_bubble_s: f64,
    /// What kernel launches add where the CPU issues them slower than the GPU runs them.
    pub launch_s: f64,
}

impl StepBreakdown {
    /// Every item, in the order of `TrainingQty::STEP_PARTS` (GEMMs first, launches last).
    pub fn parts(&self) -> [f64; 13] {
        [
            self.gemm_s,
            self.attention_s,
            self.elementwise_s,
            self.loss_s,
            self.recompute_s,
            self.optimizer_s,
            self.tensor_parallel_s,
            self.context_parallel_s,
            self.expert_parallel_s,
            self.fsdp_s,
            self.data_parallel_s,
            self.pipeline_bubble_s,
            self.launch_s,
        ]
    }

    /// Every item, summed.
    pub fn total(&self) -> f64 {
        self.parts().iter().sum()
    }

    fn scaled(&self, k: f64) -> StepBreakdown {
        StepBreakdown {
            gemm_s: self.gemm_s * k,
            attention_s: self.attention_s * k,
            elementwise_s: self.elementwise_s * k,
            loss_s: self.loss_s * k,
            recompute_s: self.recompute_s * k,
            optimizer_s: self.optimizer_s * k,
            tensor_parallel_s: self.tensor_parallel_s * k,
            context_parallel_s: self.context_parallel_s * k,
            expert_parallel_s: self.expert_parallel_s * k,
            fsdp_s: self.fsdp_s * k,
            data_parallel_s: self.data_parallel_s * k,
            pipeline_bubble_s: self.pipeline_bubble_s * k,
            launch_s: self.launch_s * k,
        }
    }
}

/// The step's answer: expected and bound, by operation, and what the report shows beside it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TrainingTiming {
    pub expected: BoundTime,
    pub bound: BoundTime,
    /// Tokens per second over every GPU (expected, bound).
    pub tokens_per_s: f64,
    pub tokens_per_s_bound: f64,
    pub breakdown: StepBreakdown,
    pub pipeline_bubble_fraction: f64,
    /// Total (not exposed) seconds per step of each kind of communication.
    pub tensor_parallel_comm_s: f64,
    /// Of the exposed tensor-parallel seconds, the GEMM time lost to the SMs the overlap
    /// kernels hold (0 without overlap).
    pub tensor_parallel_overlap_s: f64,
    pub expert_parallel_comm_s: f64,
    pub data_parallel_sync_s: f64,
    pub data_parallel_exposed_s: f64,
    /// FLOPs per token the recomputation adds (whole model), for the hardware FLOPs utilisation.
    pub recompute_flops_per_token: f64,
    /// The GEMM share, the linear-layer speedup and the attention rates in use.
    pub gemm_share: f64,
    pub linear_speedup: f64,
    pub attention: AttentionRates,
}

/// One layer's seconds per micro-batch on one GPU, by part.
#[derive(Clone, Copy, Debug, Default)]
struct Layer {
    gemm_f: f64,
    gemm_b: f64,
    att_f: f64,
    att_b: f64,
    elem_f: f64,
    elem_b: f64,
    tp_f: f64,
    tp_b: f64,
    cp_f: f64,
    cp_b: f64,
    ep_f: f64,
    ep_b: f64,
    /// Seconds and FLOPs per token the policy adds to a covered layer.
    recompute: f64,
    recompute_flops: f64,
    /// Bound parts: GEMM FLOPs (forward and backward) at the linear peak, attention FLOPs,
    /// weight bytes read, communication floor.
    lin_flops: f64,
    att_flops: f64,
    weight_read: f64,
    comm_floor: f64,
    /// FSDP's collectives of one layer (all-gather, reduce-scatter).
    fsdp_ag: f64,
    fsdp_rs: f64,
    /// Tensor- and expert-parallel seconds of a layer, exposed or not.
    tp_all: f64,
    /// GEMM seconds a layer loses to the SMs the TP overlap kernels hold (forward and backward;
    /// 0 without overlap).
    tp_overlap_cost: f64,
    ep_all: f64,
    /// With EP overlap: what one unpaired forward and backward expose beyond the overlapped
    /// share (0 without overlap).
    ep_unpaired: f64,
    /// The output layer's GEMMs (the last stage's), their FLOPs at the bound, its weight bytes
    /// read, and the loss.
    head_gemm: f64,
    head_flops: f64,
    head_read: f64,
    loss: f64,
}

impl Layer {
    fn forward(&self) -> f64 {
        self.gemm_f + self.att_f + self.elem_f + self.tp_f + self.cp_f + self.ep_f
    }
    fn backward(&self) -> f64 {
        self.gemm_b + self.att_b + self.elem_b + self.tp_b + self.cp_b + self.ep_b
    }
    /// The layer's kernels without its communication, forward and backward.
    fn compute(&self) -> f64 {
        self.gemm_f + self.gemm_b + self.att_f + self.att_b + self.elem_f + self.elem_b
    }
}

/// The pieces every part of the step shares.
struct Ctx<'a> {
    s: &'a TrainingShape,
    l: &'a TrainingLayout,
    hw: &'a TrainingHardware,
    topo: &'a Topology,
    eff: &'a Efficiency,
    set: &'a TrainingSettings,
    /// Tokens per GPU per micro-batch.
    tokens: f64,
    /// Achieved bandwidth.
    bw: f64,
}

/// Topology seen by a group whose consecutive members are `stride` GPUs apart.
fn strided(topology: &Topology, stride: f64) -> Topology {
    let per_node = f64::from(topology.gpus_per_node) / stride.max(1.0);
    let per_node = crate::engine::num::u32_from_f64(per_node.floor().clamp(1.0, f64::from(u32::MAX)));
    Topology { gpus_per_node: per_node, ..*topology }
}

fn ranks(n: f64) -> u32 {
    crate::engine::num::u32_from_f64(n.round().clamp(1.0, f64::from(u32::MAX)))
}

impl Ctx<'_> {
    fn collective(&self, c: Collective, bytes: f64, group: f64, stride: f64) -> Result<CommTime, PerfError> {
        if group <= 1.0 || bytes <= 0.0 {
            return Ok(CommTime { expected_s: 0.0, bound_s: 0.0 });
        }
        hierarchical_time(c, Algorithm::Ring, bytes, ranks(group), &strided(self.topo, stride), self.eff)
    }

    /// The average decoder layer of this layout.
    fn layer(&self) -> Result<Layer, PerfError> {
        let (s, l, hw, set) = (self.s, self.l, self.hw, self.set);
        let (t, tp, a) = (self.tokens, l.tp.max(1.0), s.activation_bytes);
        let tile = tile(hw.generation);
        let e = self.eff.matmul_flops;
        let speedup = linear_speedup(set.recipe, hw.generation);
        let w_read = weight_read_bytes(set.recipe, s.weight_bytes);
        let mut y = Layer::default();
        let mut op_recomputed = 0.0;
        let mut op_flops = 0.0;
        // The tensor-parallel blocks (a column GEMM and the row GEMM after it) outside the
        // routed experts, for the TP overlap.
        let mut blocks: Vec<TpBlock> = Vec::with_capacity(4);
        for g in &s.gemms {
            let flops = t * g.flops_per_token() * s.flop_scale / tp;
            // Routed experts: every local expert's matrices are read.
            let copies = g.experts.map_or(1.0, |(experts, _)| (experts / l.ep.max(1.0)).max(1.0));
            let params = g.input * g.output * copies * g.layers_share * s.flop_scale / tp;
            let (n_fwd, n_dgrad) = match g.split {
                Split::Column => (g.output / tp, g.input),
                Split::Row => (g.output, g.input / tp),
            };
            let (w_in, w_out) = match g.split {
                Split::Column => (g.input, g.output / tp),
                Split::Row => (g.input / tp, g.output),
            };
            // Routed experts: a grouped GEMM over the local experts, `T·k·ep/E` tokens each.
            let (share, rows, groups) = match g.experts {
                Some((experts, f_e)) => {
                    let local = (experts / l.ep.max(1.0)).max(1.0);
                    (grouped_gemm_relative_share(f_e), t * g.per_token / local, local)
                }
                None => (1.0, t, 1.0),
            };
            let q = |m: f64, n: f64| {
                // Grouped: the tiles of every local expert share the waves.
                wave_quantization(m, n * groups, tile, hw.sms)
            };
            // A short reduction dimension: forward K is the GPU's input width, the input
            // gradient's its output width, the weight gradient's the tokens. Grouped expert
            // GEMMs keep their own measured share (it was measured at their K).
            let r = |k: f64| if g.experts.is_some() { 1.0 } else { reduction_share(k) };
            let rate = |q: f64, k: f64| hw.peak * e * share * q * r(k) * speedup;
            let act = t * g.per_token * (g.input + g.output) / tp * a;
            let f = gemm_seconds(flops, params * w_read + act, rate(q(rows, n_fwd), w_in), self.bw);
            let d = gemm_seconds(flops, params * w_read + act, rate(q(rows, n_dgrad), w_out), self.bw);
            let w = if set.frozen_base {
                0.0
            } else {
                gemm_seconds(flops, params * set.gradient_bytes + act, rate(q(w_in, w_out), rows), self.bw)
            };
            y.gemm_f += f;
            y.gemm_b += d + w;
            match (g.experts, g.split) {
                (None, Split::Column) => blocks.push(TpBlock {
                    column_fwd: f,
                    column_dgrad: d,
                    column_wgrad: w,
                    share: g.layers_share,
                    ..TpBlock::default()
                }),
                (None, Split::Row) => {
                    if let Some(b) = blocks.last_mut() {
                        (b.row_fwd, b.row_dgrad) = (f, d);
                    }
                }
                _ => {}
            }
            y.lin_flops += flops * if set.frozen_base { 2.0 } else { 3.0 };
            y.weight_read += 2.0 * params * w_read;
            op_recomputed += f * g.op_recomputed;
            op_flops += g.flops_per_token() * s.flop_scale * g.op_recomputed;
        }
        // Attention: 1/cp of a sequence's causal work per GPU, split over TP by heads.
        let r = rates(set.kernel, hw.generation, l.seq);
        let att = l.batch * s.attention_flops_per_sequence(l.seq) / s.layers / (tp * l.cp.max(1.0));
        let (att_total, att_fwd) = attention_seconds(att, hw.peak, r);
        (y.att_f, y.att_b, y.att_flops) = (att_fwd, att_total - att_fwd, 3.0 * att);
        // Element-wise kernels: dense and MoE layers by their share.
        let dense = widths(s.hidden, s.norms, s.q, s.k, s.rotary, s.ffn_dense, s.gated, 0.0);
        let moe = widths(s.hidden, s.norms, s.q, s.k, s.rotary, s.ffn_moe, s.gated, s.top_k);
        let (df, db) = dense.per_gpu(tp, l.sequence_parallel);
        let (mf, mb) = moe.per_gpu(tp, l.sequence_parallel);
        let share = s.moe_share;
        y.elem_f = t * a * (df * (1.0 - share) + mf * share) / self.bw;
        y.elem_b = t * a * (db * (1.0 - share) + mb * share) / self.bw;
        self.communication(&mut y, att_fwd, att_total - att_fwd, &blocks)?;
        self.head(&mut y);
        // What the policy runs again on a covered layer.
        let tokens_flops = s.layer_linear_flops_per_token() / s.layers;
        let att_per_token = s.attention_flops_per_sequence(l.seq) / s.layers / l.seq.max(1.0);
        (y.recompute, y.recompute_flops) = match set.recompute {
            Recompute::None => (0.0, 0.0),
            Recompute::Selective => (y.att_f, att_per_token),
            Recompute::OpSelective => (op_recomputed + y.elem_f, op_flops),
            Recompute::Full => (y.forward(), tokens_flops + att_per_token),
        };
        Ok(y)
    }

    /// Tensor-, context- and expert-parallel collectives of a layer.
    fn communication(
        &self,
        y: &mut Layer,
        att_fwd: f64,
        att_bwd: f64,
        blocks: &[TpBlock],
    ) -> Result<(), PerfError> {
        let (s, l) = (self.s, self.l);
        let (t, tp, a) = (self.tokens, l.tp.max(1.0), s.activation_bytes);
        // TP: two all-reduces of the micro-batch's activations forward, two backward; with
        // overlap, each collective beside its own GEMM (Transformer Engine's userbuffers).
        let ar = self.collective(Collective::AllReduce, t * s.hidden * a, tp, 1.0)?;
        y.tp_all = 4.0 * ar.expected_s;
        y.tp_f = tensor_parallel_exposed(2.0 * ar.expected_s, y.gemm_f, l.tp_overlap);
        y.tp_b = tensor_parallel_exposed(2.0 * ar.expected_s, y.gemm_b, l.tp_overlap);
        // Userbuffers need sequence parallelism (Megatron asserts it); without it the overlap
        // stays the pass-wide hiding above.
        if l.tp_overlap && l.sequence_parallel && tp > 1.0 {
            let tp_rs = self.collective(Collective::ReduceScatter, t * s.hidden * a, tp, 1.0)?;
            let tp_ag = self.collective(
                Collective::AllGather,
                t * s.hidden * gathered_bytes(self.set.recipe, a),
                tp,
                1.0,
            )?;
            let o = userbuffers(blocks, tp_ag.expected_s, tp_rs.expected_s, tp, self.hw.sms);
            (y.tp_all, y.tp_f, y.tp_b, y.tp_overlap_cost) = (o.comm, o.forward, o.backward, o.sm_held);
        }
        // CP: all-gather K and V before attention, and their gradients' reduce-scatter after.
        let kv = 2.0 * t * s.k / tp * a * l.cp;
        let ag = self.collective(Collective::AllGather, kv, l.cp, tp)?;
        let rs = self.collective(Collective::ReduceScatter, kv, l.cp, tp)?;
        y.cp_f = exposed(ag.expected_s, att_fwd);
        y.cp_b = exposed(ag.expected_s + rs.expected_s, att_bwd);
        // EP: dispatch and combine of each MoE layer, forward and again backward, on the rank's
        // `T/tp` tokens (Megatron requires sequence parallelism for MoE with TP > 1); exposed,
        // or with EP overlap what the other micro-batch's compute leaves once the TP and CP
        // collectives it already hides are taken out of it.
        let x = self.exchange(t / tp)?;
        y.ep_all = 2.0 * x.expected_s * s.moe_share;
        let shown = if l.ep_overlap {
            // The SM time the overlap kernels hold is not communication the EP exchange can use.
            let hidden_tp = (y.tp_all - (y.tp_f + y.tp_b - y.tp_overlap_cost)).max(0.0);
            let hidden_cp = (2.0 * ag.expected_s + rs.expected_s - y.cp_f - y.cp_b).max(0.0);
            exposed(y.ep_all, y.compute() - hidden_tp - hidden_cp)
        } else {
            y.ep_all
        };
        (y.ep_f, y.ep_b) = (shown / 2.0, shown / 2.0);
        // The step's first forward and last backward have no partner micro-batch: their
        // exchanges show in full ([`Ctx::stage`] adds this once per step).
        y.ep_unpaired = y.ep_all - shown;
        y.comm_floor = 4.0 * ar.bound_s + 2.0 * ag.bound_s + rs.bound_s + 2.0 * x.bound_s * s.moe_share;
        Ok(())
    }

    /// One MoE layer's dispatch plus combine in one pass ([`dispatch_combine`]) for the rank's
    /// `tokens`: NCCL's all-to-all twice, or DeepEP/HybridEP's normal kernels.
    fn exchange(&self, tokens: f64) -> Result<Exchange, PerfError> {
        let (s, l) = (self.s, self.l);
        // Expert ranks are `moe_tp = max(1, tp/ep)` GPUs apart: with each expert whole
        // (Megatron-Bridge's expert_tensor_parallel_size 1) an EP group is consecutive GPUs.
        let stride = (l.tp.max(1.0) / l.ep.max(1.0)).max(1.0);
        let bytes = tokens * s.top_k * s.hidden * s.activation_bytes;
        let a2a = self.collective(Collective::AllToAll, bytes, l.ep, stride)?;
        let nccl = Exchange { expected_s: 2.0 * a2a.expected_s, bound_s: 2.0 * a2a.bound_s };
        let topo = strided(self.topo, stride);
        let p = s.hidden * s.activation_bytes;
        let x = DeepepInputs {
            tokens,
            k: s.top_k,
            payload: (p, p),
            ep: l.ep,
            gpus_per_node: f64::from(topo.gpus_per_node.max(1)),
            routing_groups: s.routing_groups,
            nvlink: topo.intra_node.bytes_per_s_per_direction,
            nic: topo.inter_node.map(|n| n.bytes_per_s_per_direction),
        };
        Ok(dispatch_combine(self.set.ep_comm, nccl, &x))
    }

    /// FSDP's collectives of a layer: its weights gathered forward and backward, its gradients
    /// scattered (the only part of a layer that depends on the data-parallel size).
    fn fsdp(&self, y: &mut Layer) -> Result<(), PerfError> {
        let (s, l, set) = (self.s, self.l, self.set);
        let tp = l.tp.max(1.0);
        (y.fsdp_ag, y.fsdp_rs) = (0.0, 0.0);
        if l.zero_stage >= 3 {
            let shard = l.dp * l.cp;
            let dense = (s.layer_params - s.expert_params) / s.layers;
            let experts = s.expert_params / s.layers / l.ep.max(1.0);
            let params = (dense + experts) / tp;
            let gather = if set.low_precision_gather { 1.0 } else { s.weight_bytes };
            y.fsdp_ag = self.collective(Collective::AllGather, params * gather, shard, tp * l.pp)?.expected_s;
            y.fsdp_rs = if set.frozen_base {
                0.0
            } else {
                let g = set.gradient_bytes;
                self.collective(Collective::ReduceScatter, params * g, shard, tp * l.pp)?.expected_s
            };
        }
        Ok(())
    }
}

impl Ctx<'_> {
    /// The output layer in 16 bits (Megatron's output layer is a plain ColumnParallelLinear;
    /// torchtitan's Float8 skips `output`), and the loss over its logits.
    fn head(&self, y: &mut Layer) {
        let (s, l, hw, set) = (self.s, self.l, self.hw, self.set);
        let (t, tp) = (self.tokens, l.tp.max(1.0));
        let flops = 2.0 * t * s.hidden * s.vocab / tp;
        let bytes = s.head_params / tp * s.weight_bytes + t * (s.hidden + s.vocab / tp) * s.activation_bytes;
        let q = |m: f64, n: f64| wave_quantization(m, n, tile(hw.generation), hw.sms);
        let rate = |q: f64, k: f64| hw.peak * self.eff.matmul_flops * q * reduction_share(k);
        let f = gemm_seconds(flops, bytes, rate(q(t, s.vocab / tp), s.hidden), self.bw);
        let d = gemm_seconds(flops, bytes, rate(q(t, s.hidden), s.vocab / tp), self.bw);
        let w = if set.frozen_base {
            0.0
        } else {
            gemm_seconds(flops, bytes, rate(q(s.hidden, s.vocab / tp), t), self.bw)
        };
        let again = if recomputes_output_gemm(set.loss) { f } else { 0.0 };
        y.head_gemm = f + d + w + again;
        y.head_flops =
            flops * (if set.frozen_base { 2.0 } else { 3.0 } + if again > 0.0 { 1.0 } else { 0.0 });
        y.head_read = 2.0 * s.head_params / tp * s.weight_bytes;
        y.loss = t * s.vocab / tp * bytes_per_logit(set.loss) / self.bw;
    }
}

/// One pipeline stage's micro-batch, by part (seconds), and its bound parts.
#[derive(Clone, Copy, Debug, Default)]
struct Stage {
    parts: StepBreakdown,
    total: f64,
    bound: f64,
    forward: f64,
    backward: f64,
}

/// Layers of the stage the policy covers.
fn covered(set: &TrainingSettings, layers: f64) -> f64 {
    if set.recompute == Recompute::None {
        return 0.0;
    }
    set.recompute_layers.map_or(layers, |n| n.clamp(0.0, layers))
}

impl Ctx<'_> {
    /// A stage of `layers` layers, with the output layer and the loss when `last`, and the
    /// embedding (FSDP's first unit) when `first`.
    fn stage(&self, y: &Layer, layers: f64, first: bool, last: bool) -> Result<Stage, PerfError> {
        let (l, hw, set) = (self.l, self.hw, self.set);
        let n = covered(set, layers);
        let mut p = StepBreakdown {
            gemm_s: layers * (y.gemm_f + y.gemm_b),
            attention_s: layers * (y.att_f + y.att_b),
            elementwise_s: layers * (y.elem_f + y.elem_b),
            recompute_s: n * y.recompute,
            tensor_parallel_s: layers * (y.tp_f + y.tp_b),
            context_parallel_s: layers * (y.cp_f + y.cp_b),
            // The unpaired passes' full exchange once per step, spread over its micro-batches.
            expert_parallel_s: layers * (y.ep_f + y.ep_b + y.ep_unpaired / self.l.micro_batches.max(1.0)),
            ..Default::default()
        };
        let mut lin = layers * y.lin_flops;
        let mut head_flops = 0.0;
        let mut weight_read = layers * y.weight_read;
        if last {
            p.gemm_s += y.head_gemm;
            head_flops = y.head_flops;
            weight_read += y.head_read;
            p.loss_s = y.loss;
        }
        if set.recompute == Recompute::Full {
            lin += n * y.lin_flops / 3.0;
        }
        // FSDP: each layer's collectives behind its neighbours' compute; the outer units' at the
        // edges of the pass.
        if l.zero_stage >= 3 && l.dp * l.cp > 1.0 {
            let recompute = if layers > 0.0 { y.recompute * n / layers } else { 0.0 };
            let per_layer = fsdp_layer_exposed(y.fsdp_ag, y.fsdp_rs, y.forward(), y.backward() + recompute);
            p.fsdp_s = layers * per_layer + self.outer_units(first, last)?;
        }
        let gpu = p.total();
        // The CPU lane: three passes of the layer's kernels (and the recomputed forwards).
        let kernels = self.eff.kernels_per_layer * (3.0 * layers + n);
        let lane = kernels * self.eff.kernel_launch_s;
        p.launch_s = (lane - gpu).max(0.0);
        let total = gpu + p.launch_s;
        let compute = lin / hw.low_precision_peak.max(hw.peak * linear_speedup(set.recipe, hw.generation))
            + (layers * y.att_flops
                + if set.recompute == Recompute::Full { n * y.att_flops / 3.0 } else { 0.0 })
                / hw.peak
            + head_flops / hw.peak;
        let memory = weight_read / hw.bandwidth;
        let bound = compute.max(memory).max(layers * y.comm_floor);
        let forward = layers * y.forward();
        let backward = layers * y.backward() + n * y.recompute;
        Ok(Stage { parts: p, total, bound, forward, backward })
    }

    /// FSDP's outer units on this stage (the embedding on the first, the output layer on the
    /// last): gathered and their gradients scattered once per micro-batch, exposed.
    fn outer_units(&self, first: bool, last: bool) -> Result<f64, PerfError> {
        let (s, l, set) = (self.s, self.l, self.set);
        let share = match (first, last) {
            (true, true) => 1.0,
            (true, false) | (false, true) => 0.5,
            (false, false) => 0.0,
        };
        let params = s.outer_params * share / l.tp.max(1.0);
        let shard = l.dp * l.cp;
        let stride = l.tp.max(1.0) * l.pp;
        let ag = self.collective(Collective::AllGather, params * s.weight_bytes, shard, stride)?.expected_s;
        let rs = if set.frozen_base {
            0.0
        } else {
            self.collective(Collective::ReduceScatter, params * set.gradient_bytes, shard, stride)?.expected_s
        };
        Ok(ag + rs)
    }
}

/// The expected and bound time of one training step (the module doc of [`super`] has the
/// formula). Every expected term is at least its bound's: GEMMs run at `P·e·q·S ≤ F_lin` with
/// `F_lin = max(F_low, P·S)` and never faster than their weight bytes, attention at rates
/// below the peak, each collective at least its floor and each overlap `max(G, C) ≥ C`; the
/// data-parallel sync's windows lie inside the micro-batches, so the step is at least the sync.
pub fn training_step(
    shape: &TrainingShape,
    layout: &TrainingLayout,
    hw: &TrainingHardware,
    topology: &Topology,
    eff: &Efficiency,
    settings: &TrainingSettings,
) -> Result<TrainingTiming, PerfError> {
    Stepper::new(shape, hw, topology, eff, settings)?.step(layout)
}

/// What a layer's times depend on besides the model, the GPU and the settings: the layout's
/// tensor, context and expert parallelism and the micro-batch (not the data-parallel size nor
/// the pipeline, which only FSDP's collectives and the stages read).
#[derive(Clone, Copy, Debug, PartialEq)]
struct LayerKey {
    tp: f64,
    cp: f64,
    ep: f64,
    batch: f64,
    seq: f64,
    sequence_parallel: bool,
    tp_overlap: bool,
    ep_overlap: bool,
}

impl LayerKey {
    fn of(l: &TrainingLayout) -> LayerKey {
        LayerKey {
            tp: l.tp,
            cp: l.cp,
            ep: l.ep,
            batch: l.batch,
            seq: l.seq,
            sequence_parallel: l.sequence_parallel,
            tp_overlap: l.tp_overlap,
            ep_overlap: l.ep_overlap,
        }
    }
}

/// Training steps of one model, GPU and settings over several layouts (the scaling curves):
/// a layer's times are computed once per [`LayerKey`].
#[derive(Debug)]
pub struct Stepper<'a> {
    shape: &'a TrainingShape,
    hw: &'a TrainingHardware,
    topo: &'a Topology,
    eff: &'a Efficiency,
    settings: &'a TrainingSettings,
    cached: Option<(LayerKey, Layer)>,
}

impl<'a> Stepper<'a> {
    /// Checks the factors and the GPU's rates once.
    pub fn new(
        shape: &'a TrainingShape,
        hw: &'a TrainingHardware,
        topo: &'a Topology,
        eff: &'a Efficiency,
        settings: &'a TrainingSettings,
    ) -> Result<Stepper<'a>, PerfError> {
        eff.validate()?;
        positive("peak_flops_per_s", hw.peak)?;
        positive("memory_bandwidth_bytes_per_s", hw.bandwidth)?;
        positive("layers", shape.layers)?;
        Ok(Stepper { shape, hw, topo, eff, settings, cached: None })
    }

    /// One step on `layout` ([`training_step`]).
    pub fn step(&mut self, layout: &TrainingLayout) -> Result<TrainingTiming, PerfError> {
        for (field, v) in [
            ("tensor", layout.tp),
            ("pipeline", layout.pp),
            ("context", layout.cp),
            ("data", layout.dp),
            ("expert", layout.ep),
            ("virtual_stages", layout.vp),
            ("micro_batches", layout.micro_batches),
            ("batch", layout.batch),
            ("seq_len", layout.seq),
        ] {
            positive(field, v)?;
        }
        let (shape, hw, eff, settings) = (self.shape, self.hw, self.eff, self.settings);
        let ctx = Ctx {
            s: shape,
            l: layout,
            hw,
            topo: self.topo,
            eff,
            set: settings,
            tokens: layout.batch * layout.seq / layout.cp,
            bw: hw.bandwidth * eff.memory_bandwidth,
        };
        let key = LayerKey::of(layout);
        let mut y = match self.cached {
            Some((k, y)) if k == key => y,
            _ => {
                let y = ctx.layer()?;
                self.cached = Some((key, y));
                y
            }
        };
        ctx.fsdp(&mut y)?;
        ctx.finish(&y)
    }
}

impl Ctx<'_> {
    /// The step from a layer's times: the stages, the pipeline, the data-parallel sync and the
    /// optimizer, and the bound.
    fn finish(&self, y: &Layer) -> Result<TrainingTiming, PerfError> {
        let (shape, layout, hw, eff, settings) = (self.s, self.l, self.hw, self.eff, self.set);
        let ctx = self;
        let (layers, pp) = (shape.layers, layout.pp.min(shape.layers).max(1.0));
        let stages = if pp > 1.0 {
            [
                ctx.stage(y, (layers / pp).ceil(), true, false)?,
                ctx.stage(y, (layers / pp).floor(), false, true)?,
            ]
        } else {
            let one = ctx.stage(y, layers, true, true)?;
            [one, one]
        };
        let [first, last] = stages;
        let slow = if last.total >= first.total { last } else { first };
        let bound_stage = first.bound.max(last.bound);
        let m = layout.micro_batches;
        let slot_count = slots(m, pp, layout.vp);
        let t_mb = slow.total;

        // Data-parallel sync once per step (ZeRO 0-2): the gradients' all-reduce (or reduce-scatter
        // and the updated parameters' all-gather) behind the last micro-batch's backward and the
        // first one's forward.
        let shard = layout.dp * layout.cp;
        let per_gpu = |p: f64| p / (layout.tp.max(1.0) * pp);
        let expert_trainable = if settings.frozen_base { 0.0 } else { shape.expert_params };
        let trainable = per_gpu(
            (settings.trainable_params - expert_trainable).max(0.0) + expert_trainable / layout.ep.max(1.0),
        );
        let (sync, gather) = if layout.zero_stage < 3 && shard > 1.0 {
            let grads = trainable * settings.gradient_bytes;
            let stride = layout.tp.max(1.0) * pp;
            if layout.zero_stage == 0 {
                (
                    ctx.collective(Collective::AllReduce, grads, shard, stride)?,
                    CommTime { expected_s: 0.0, bound_s: 0.0 },
                )
            } else {
                (
                    ctx.collective(Collective::ReduceScatter, grads, shard, stride)?,
                    ctx.collective(Collective::AllGather, trainable * shape.weight_bytes, shard, stride)?,
                )
            }
        } else {
            (CommTime { expected_s: 0.0, bound_s: 0.0 }, CommTime { expected_s: 0.0, bound_s: 0.0 })
        };
        let o = eff.gradient_sync_overlap;
        let dp_exposed =
            exposed(sync.expected_s, o * slow.backward) + exposed(gather.expected_s, o * slow.forward);
        // The optimizer updates this GPU's shard of the trained parameters once per step.
        let local = if layout.zero_stage >= 1 { trainable / shard.max(1.0) } else { trainable };
        let optimizer_s = local
            * bytes_per_param(
                settings.optimizer,
                settings.optimizer_impl,
                settings.precision,
                settings.gradient_bytes,
            )
            / ctx.bw;

        let mut breakdown = slow.parts.scaled(m);
        breakdown.pipeline_bubble_s = (slot_count - m) * t_mb;
        breakdown.data_parallel_s = dp_exposed;
        breakdown.optimizer_s = optimizer_s;
        let step = finite("training step", breakdown.total())?;
        let b = &breakdown;
        let compute = b.gemm_s + b.attention_s + b.recompute_s;
        let memory = b.elementwise_s + b.loss_s + b.optimizer_s;
        let comm =
            b.tensor_parallel_s + b.context_parallel_s + b.expert_parallel_s + b.fsdp_s + b.data_parallel_s;
        let overhead = b.pipeline_bubble_s + b.launch_s;
        let (dominant, dominance_ratio) = dominant_term(compute, memory, comm, overhead);
        let expected = BoundTime {
            compute_s: compute,
            memory_s: memory,
            communication_s: comm,
            overhead_s: overhead,
            host_s: 0.0,
            total_s: step,
            dominant,
            dominance_ratio,
        };
        let dp_bound = sync.bound_s + gather.bound_s;
        let bound_total = finite("training bound", (m * bound_stage).max(dp_bound))?;
        let (bd, br) = dominant_term(m * bound_stage, 0.0, dp_bound, 0.0);
        let bound = BoundTime {
            compute_s: m * bound_stage,
            memory_s: 0.0,
            communication_s: dp_bound,
            overhead_s: 0.0,
            host_s: 0.0,
            total_s: bound_total,
            dominant: bd,
            dominance_ratio: br,
        };
        let tokens = layout.batch * layout.seq * m * layout.dp;
        let rate = |t: f64| if t > 0.0 { tokens / t } else { 0.0 };
        let recomputed = covered(settings, shape.layers / pp) / (shape.layers / pp).max(1.0);
        Ok(TrainingTiming {
            expected,
            bound,
            tokens_per_s: finite("training throughput", rate(step))?,
            tokens_per_s_bound: finite("training throughput", rate(bound_total))?,
            breakdown,
            pipeline_bubble_fraction: bubble_fraction(m, pp, layout.vp),
            // Every micro-batch's collectives, once each (the bubble's slots carry none).
            tensor_parallel_comm_s: m * (layers / pp).ceil() * y.tp_all,
            tensor_parallel_overlap_s: m * (layers / pp).ceil() * y.tp_overlap_cost,
            expert_parallel_comm_s: m * (layers / pp).ceil() * y.ep_all,
            data_parallel_sync_s: sync.expected_s + gather.expected_s,
            data_parallel_exposed_s: dp_exposed,
            recompute_flops_per_token: y.recompute_flops * shape.layers * recomputed,
            gemm_share: eff.matmul_flops,
            linear_speedup: linear_speedup(settings.recipe, hw.generation),
            attention: rates(settings.kernel, hw.generation, layout.seq),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::super::run::tests::run_for;
    use super::*;
    use crate::engine::links::Link;
    use serde_json::json;

    /// One DGX H100: 8 GPUs on NVSwitch (450 GB/s per direction).
    fn dgx_h100() -> Topology {
        Topology {
            gpus_per_node: 8,
            intra_node: Link { bytes_per_s_per_direction: 450e9, latency_s: 2e-6 },
            inter_node: Some(Link { bytes_per_s_per_direction: 50e9, latency_s: 5e-6 }),
        }
    }

    /// `parts()` lists the items in the order of `TrainingQty::STEP_PARTS`, each under the name
    /// the report serialises it by (the page's rows and the derivations follow that order).
    #[test]
    fn parts_follow_the_report_names() {
        use crate::engine::derivation::TrainingQty;
        let b = StepBreakdown {
            gemm_s: 1.0,
            attention_s: 2.0,
            elementwise_s: 3.0,
            loss_s: 4.0,
            recompute_s: 5.0,
            optimizer_s: 6.0,
            tensor_parallel_s: 7.0,
            context_parallel_s: 8.0,
            expert_parallel_s: 9.0,
            fsdp_s: 10.0,
            data_parallel_s: 11.0,
            pipeline_bubble_s: 12.0,
            launch_s: 13.0,
        };
        let json = serde_json::to_value(b).unwrap();
        for (q, v) in TrainingQty::STEP_PARTS.into_iter().zip(b.parts()) {
            let name = q.path().strip_prefix("step.").unwrap();
            assert_eq!(json[name].as_f64(), Some(v), "{name}");
        }
        assert_eq!(b.total(), 91.0);
    }

    /// Megatron-Bridge 25.11, DGX-H100, Llama 3 8B, FP8 current scaling, 8 GPUs, TP = PP = CP = 1,
    /// micro-batch 1, global batch 128 (16 micro-batches), 8,192 tokens, full recomputation of 5
    /// of 32 layers: measured 14,451 tokens/s per GPU. Per token the model gives GEMMs
    /// 41.9 GFLOP at 989.5 × 0.803 × 1.57 TFLOP/s (with wave quantisation) and the output layer in
    /// BF16 (about 38 µs), cuDNN attention 2.15 GFLOP (14.4 µs), element-wise 5.1 µs, the loss,
    /// the recomputation of 5 layers: about 62 µs, 16,100 tokens/s per GPU, 11% above.
    #[test]
    fn megatron_bridge_llama3_8b_fp8_on_eight_h100() {
        let run = run_for(json!({"model": "llama-3-8b", "mode": "training", "gpu": "h100-sxm", "gpus": 8,
            "batch": 1, "micro_batches": 16, "context_tokens": 8192, "low_precision_recipe": "fp8_current",
            "recompute": "full", "recompute_layers": 5, "optimizer_impl": "fused", "loss_impl": "vocab_parallel",
            "zero_stage": 1}));
        let t = training_step(
            &run.shape,
            &run.layout,
            &run.hw,
            &dgx_h100(),
            &Efficiency { matmul_flops: 0.803, ..Default::default() },
            &run.settings,
        )
        .unwrap();
        let per_gpu = t.tokens_per_s / 8.0;
        assert!((per_gpu / 14_451.0 - 1.0).abs() < 0.15, "{per_gpu}");
        let tokens = 16.0 * 8192.0;
        let b = &t.breakdown;
        let us = |s: f64| s / tokens * 1e6;
        assert!((us(b.attention_s) - 14.4).abs() < 0.2, "{}", us(b.attention_s));
        assert!((us(b.elementwise_s) - 5.1).abs() < 0.1, "{}", us(b.elementwise_s));
        assert!(us(b.gemm_s) > 36.0 && us(b.gemm_s) < 40.0, "{}", us(b.gemm_s));
        // One node, ZeRO-1: the sync hides behind the last micro-batch's backward.
        assert_eq!(b.data_parallel_s, 0.0);
        assert!(t.bound.total_s < t.expected.total_s);
    }

    /// Qwen3-30B-A3B on two DGX H100 with EP 16 (Megatron-Bridge's 26.06 layout): the
    /// `alltoall` dispatcher sends four of a token's eight copies across the network, DeepEP once
    /// per remote node (0.996 of one), so its exposed dispatch and combine is about a quarter of
    /// NCCL's; with EP overlap only what the layer's compute leaves is exposed, here nothing
    /// but the step's first forward and last backward, which have no partner: `1/m` of it.
    #[test]
    fn deepep_and_ep_overlap_shrink_the_exposed_dispatch() {
        let step = |extra: serde_json::Value| {
            let mut v = json!({"model": "qwen3-30b-a3b", "mode": "training", "gpu": "h100-sxm", "gpus": 16,
                "expert_parallel": 16, "batch": 1, "micro_batches": 64, "context_tokens": 4096,
                "optimizer_impl": "fused", "loss_impl": "vocab_parallel", "zero_stage": 1});
            if let (Some(o), Some(e)) = (v.as_object_mut(), extra.as_object()) {
                o.extend(e.clone());
            }
            let run = run_for(v);
            let eff = Efficiency { matmul_flops: 0.803, ..Default::default() };
            (training_step(&run.shape, &run.layout, &run.hw, &dgx_h100(), &eff, &run.settings).unwrap(), run)
        };
        let (nccl, _) = step(json!({}));
        let (deepep, run) = step(json!({"ep_comm": "deepep_normal"}));
        assert_eq!(run.settings.ep_comm, EpComm::DeepepNormal);
        let ratio = deepep.breakdown.expert_parallel_s / nccl.breakdown.expert_parallel_s;
        assert!(ratio > 0.15 && ratio < 0.35, "{ratio}");
        assert_eq!(deepep.breakdown.gemm_s, nccl.breakdown.gemm_s);
        let (overlapped, run) = step(json!({"ep_comm": "deepep_normal", "ep_comm_overlap": true}));
        assert!(run.layout.ep_overlap);
        let unpaired = overlapped.expert_parallel_comm_s / 64.0;
        assert!((overlapped.breakdown.expert_parallel_s - unpaired).abs() < 1e-9, "{overlapped:?}");
        // The collectives still run: the report keeps their full time.
        assert!((overlapped.expert_parallel_comm_s - deepep.expert_parallel_comm_s).abs() < 1e-9);
        assert!(overlapped.tokens_per_s > deepep.tokens_per_s && deepep.tokens_per_s > nccl.tokens_per_s);
        // The bound never rises above the expected step.
        for t in [&nccl, &deepep, &overlapped] {
            assert!(t.bound.total_s <= t.expected.total_s, "{:?}", t.bound);
        }
    }
}
