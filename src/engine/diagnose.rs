//! Bottleneck diagnosis: from what a reader observes to the likely bottleneck(s), the evidence
//! for each, the observations that contradict each other, and the ones that would decide what
//! is still open. The six kinds are the source article's (capacity, under-used compute, memory
//! bandwidth, inter-GPU communication, data input, the service chain).
//!
//! The rules are data ([`RULES`]): each names a bottleneck, a signal, a comparison and a
//! threshold, and whether meeting it is strong evidence or a hint. An unknown signal never
//! counts for or against anything; it is listed as worth measuring when a rule needs it.
//! Thresholds are rules of thumb stated where they come from (profiler guidance: a kernel that
//! reaches most of the DRAM roof while its SMs idle is memory-bound; NCCL guidance: collectives
//! above a fifth of a step dominate scaling; PyTorch data-loading guidance: a GPU waiting on the
//! loader for a tenth of a step is input-bound).

/// The six kinds of bottleneck.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Bottleneck {
    Capacity,
    ComputeUnderused,
    MemoryBandwidth,
    Communication,
    DataInput,
    ServiceChain,
}

impl Bottleneck {
    pub const ALL: [Bottleneck; 6] = [
        Bottleneck::Capacity,
        Bottleneck::ComputeUnderused,
        Bottleneck::MemoryBandwidth,
        Bottleneck::Communication,
        Bottleneck::DataInput,
        Bottleneck::ServiceChain,
    ];
}

/// What the reader can observe. `None`: not known. Fractions are 0..1.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Observations {
    /// Out-of-memory errors (CUDA OOM, the serving engine refusing to allocate KV cache).
    pub out_of_memory: Option<bool>,
    /// `nvidia-smi` utilisation: the share of time any kernel ran.
    pub gpu_utilization: Option<f64>,
    /// SM (or Tensor Core) activity from a profiler or DCGM.
    pub sm_activity: Option<f64>,
    /// Achieved DRAM bandwidth as a share of the datasheet's.
    pub bandwidth_share: Option<f64>,
    /// Share of a step spent in all-reduce and other collectives.
    pub communication_share: Option<f64>,
    /// Share of a step the GPU waits for the data loader.
    pub loader_wait_share: Option<f64>,
    /// End-to-end request latency and the model's own share of it, in seconds.
    pub end_to_end_s: Option<f64>,
    pub model_s: Option<f64>,
    /// More than one GPU works on the job.
    pub multi_gpu: Option<bool>,
    /// When the out-of-memory errors appear (it tells which memory is full).
    pub oom_at: Option<OomAt>,
}

/// When out-of-memory errors appear: at start-up the weights (and fixed buffers) do not fit, as
/// the batch grows the activations do not, as concurrency rises the KV cache does not.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum OomAt {
    StartUp,
    GrowingBatch,
    RisingConcurrency,
}

/// An observation, by name (the i18n layer words it).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Signal {
    OutOfMemory,
    GpuUtilization,
    SmActivity,
    BandwidthShare,
    CommunicationShare,
    LoaderWaitShare,
    /// The model's share of end-to-end latency (model ÷ end-to-end).
    ModelLatencyShare,
    MultiGpu,
}

impl Observations {
    /// The value of a signal as a number (booleans as 0/1), if known and usable.
    pub fn value(&self, s: Signal) -> Option<f64> {
        let flag = |b: Option<bool>| b.map(|b| if b { 1.0 } else { 0.0 });
        let v = match s {
            Signal::OutOfMemory => flag(self.out_of_memory),
            Signal::GpuUtilization => self.gpu_utilization,
            Signal::SmActivity => self.sm_activity,
            Signal::BandwidthShare => self.bandwidth_share,
            Signal::CommunicationShare => self.communication_share,
            Signal::LoaderWaitShare => self.loader_wait_share,
            Signal::ModelLatencyShare => match (self.model_s, self.end_to_end_s) {
                (Some(m), Some(e)) if e > 0.0 => Some(m / e),
                _ => None,
            },
            Signal::MultiGpu => flag(self.multi_gpu),
        };
        v.filter(|x| x.is_finite())
    }
}

/// How a rule compares its signal with its threshold.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Compare {
    AtLeast,
    Below,
}

/// One piece of evidence: `signal` compared with `threshold` points to `bottleneck`. All the
/// rules of a bottleneck with the same `group` must hold together.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Rule {
    pub bottleneck: Bottleneck,
    pub group: u8,
    pub signal: Signal,
    pub compare: Compare,
    pub threshold: f64,
    /// Strong evidence (else a hint).
    pub strong: bool,
}

const fn rule(
    bottleneck: Bottleneck,
    group: u8,
    signal: Signal,
    compare: Compare,
    threshold: f64,
    strong: bool,
) -> Rule {
    Rule { bottleneck, group, signal, compare, threshold, strong }
}

use super::bound::Term;
use super::perf::roofline::BoundTime;
use Bottleneck as B;
use Compare::{AtLeast, Below};
use Signal as S;

/// The rules, as data. A group holds when every rule in it holds.
pub const RULES: &[Rule] = &[
    // Capacity: an out-of-memory error is the evidence.
    rule(B::Capacity, 0, S::OutOfMemory, AtLeast, 1.0, true),
    // Under-used compute: the GPU is "busy" but its SMs are not, and memory is not saturated
    // either (small kernels, launch overhead, a precision off the Tensor Core path).
    rule(B::ComputeUnderused, 0, S::GpuUtilization, AtLeast, 0.8, true),
    rule(B::ComputeUnderused, 0, S::SmActivity, Below, 0.3, true),
    rule(B::ComputeUnderused, 0, S::BandwidthShare, Below, 0.5, true),
    rule(B::ComputeUnderused, 1, S::SmActivity, Below, 0.3, false),
    // Memory bandwidth: most of the DRAM roof is used.
    rule(B::MemoryBandwidth, 0, S::BandwidthShare, AtLeast, 0.7, true),
    rule(B::MemoryBandwidth, 1, S::BandwidthShare, AtLeast, 0.5, false),
    // Communication: collectives take a large share of the step, with several GPUs.
    rule(B::Communication, 0, S::CommunicationShare, AtLeast, 0.2, true),
    rule(B::Communication, 1, S::CommunicationShare, AtLeast, 0.1, false),
    // Data input: the GPU waits for the loader.
    rule(B::DataInput, 0, S::LoaderWaitShare, AtLeast, 0.1, true),
    rule(B::DataInput, 1, S::GpuUtilization, Below, 0.5, false),
    // Service chain: most of the latency is outside the model.
    rule(B::ServiceChain, 0, S::ModelLatencyShare, Below, 0.5, true),
    rule(B::ServiceChain, 1, S::ModelLatencyShare, Below, 0.8, false),
];

/// How sure a finding is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Strength {
    Hint,
    Strong,
}

/// A likely bottleneck and the rules that point to it.
#[derive(Clone, Debug, PartialEq)]
pub struct Finding {
    pub bottleneck: Bottleneck,
    pub strength: Strength,
    pub evidence: Vec<Rule>,
}

/// Observations that cannot all be true.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Contradiction {
    /// A share outside 0..1.
    OutOfRange(Signal),
    /// SM activity above the utilisation that counts any running kernel.
    SmAboveUtilization,
    /// The model's latency above the end-to-end latency that contains it.
    ModelAboveEndToEnd,
    /// Collective time on a single GPU.
    CommunicationOnOneGpu,
    /// The GPU waits for data longer than it is idle: utilisation plus loader wait above 100%.
    LoaderWaitAboveIdle,
    /// A measured rate faster than the engine's upper bound for the workload.
    FasterThanBound,
}

/// Observations that look contradictory but are a clue: both can be true, and together they
/// point somewhere.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Tension {
    /// High utilisation with low SM activity: "utilisation" counts time in which any kernel
    /// ran, however few SMs it used.
    BusyButSmsIdle,
    /// Low utilisation with a high share of the memory roof while kernels run: the kernels are
    /// memory-bound and the gaps between them are elsewhere (launches, input, the host).
    GapsBetweenSaturatedKernels,
}

/// The diagnosis: findings strongest first, contradictions, and the unknown signals that some
/// rule needs (measuring them would decide more).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Diagnosis {
    pub findings: Vec<Finding>,
    pub contradictions: Vec<Contradiction>,
    pub tensions: Vec<Tension>,
    pub worth_measuring: Vec<Signal>,
}

/// How far two shares that cannot add to more than 100% may: they are sampled over different
/// windows, so a few points of overlap are noise, not a contradiction.
const TOLERANCE: f64 = 0.05;

fn holds(o: &Observations, r: &Rule) -> Option<bool> {
    let v = o.value(r.signal)?;
    Some(match r.compare {
        AtLeast => v >= r.threshold,
        Below => v < r.threshold,
    })
}

/// Applies [`RULES`] to the observations.
pub fn diagnose(o: &Observations) -> Diagnosis {
    let mut d = Diagnosis::default();
    for s in [S::GpuUtilization, S::SmActivity, S::BandwidthShare, S::CommunicationShare, S::LoaderWaitShare]
    {
        if o.value(s).is_some_and(|v| !(0.0..=1.0).contains(&v)) {
            d.contradictions.push(Contradiction::OutOfRange(s));
        }
    }
    if let (Some(sm), Some(util)) = (o.value(S::SmActivity), o.value(S::GpuUtilization)) {
        if sm > util + 1e-9 {
            d.contradictions.push(Contradiction::SmAboveUtilization);
        }
    }
    if let (Some(m), Some(e)) = (o.model_s, o.end_to_end_s) {
        if m > e {
            d.contradictions.push(Contradiction::ModelAboveEndToEnd);
        }
    }
    if o.multi_gpu == Some(false) && o.value(S::CommunicationShare).is_some_and(|c| c > 0.0) {
        d.contradictions.push(Contradiction::CommunicationOnOneGpu);
    }
    if let (Some(util), Some(wait)) = (o.value(S::GpuUtilization), o.value(S::LoaderWaitShare)) {
        if util + wait > 1.0 + TOLERANCE {
            d.contradictions.push(Contradiction::LoaderWaitAboveIdle);
        }
    }
    let util = o.value(S::GpuUtilization);
    if util.is_some_and(|u| u >= 0.8) && o.value(S::SmActivity).is_some_and(|sm| sm < 0.3) {
        d.tensions.push(Tension::BusyButSmsIdle);
    }
    if util.is_some_and(|u| u < 0.5) && o.value(S::BandwidthShare).is_some_and(|b| b >= 0.7) {
        d.tensions.push(Tension::GapsBetweenSaturatedKernels);
    }
    for b in Bottleneck::ALL {
        if b == B::Communication && o.multi_gpu == Some(false) {
            continue;
        }
        let mut best: Option<Finding> = None;
        for group in 0..=u8::MAX {
            let rules: Vec<Rule> =
                RULES.iter().filter(|r| r.bottleneck == b && r.group == group).copied().collect();
            if rules.is_empty() {
                break;
            }
            let results: Vec<Option<bool>> = rules.iter().map(|r| holds(o, r)).collect();
            for (r, res) in rules.iter().zip(&results) {
                if res.is_none() && !d.worth_measuring.contains(&r.signal) {
                    d.worth_measuring.push(r.signal);
                }
            }
            if results.iter().all(|r| *r == Some(true)) {
                let strength = if rules.iter().all(|r| r.strong) { Strength::Strong } else { Strength::Hint };
                if best.as_ref().is_none_or(|f| strength > f.strength) {
                    best = Some(Finding { bottleneck: b, strength, evidence: rules });
                }
            }
        }
        if let Some(f) = best {
            d.findings.push(f);
        }
    }
    super::num::sort_stable_by(&mut d.findings, |a, b| a.strength > b.strength);
    // A signal already known is not worth measuring; keep the list in a fixed order.
    d.worth_measuring.retain(|s| o.value(*s).is_none());
    super::num::sort_stable_by(&mut d.worth_measuring, |a, b| a < b);
    d
}

/// What a remedy costs (or saves) along one axis: memory, time, money, complexity.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Cost {
    /// It gives some back (less memory, less time).
    Saves,
    Nothing,
    Low,
    Medium,
    High,
}

/// The remedies the source article names, by bottleneck (the i18n layer words them).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum RemedyId {
    QuantiseWeights,
    ShardWeights,
    BiggerGpu,
    MicroBatchAccumulate,
    ActivationCheckpointing,
    LimitConcurrency,
    QuantiseKvCache,
    PagedKvCache,
    Offload,
    LargerBatches,
    ServingEngine,
    CudaGraphs,
    FuseKernels,
    TensorCoreShapes,
    BatchDecode,
    LowerPrecisionBytes,
    FusedAttention,
    AvoidCopies,
    OverlapCommunication,
    SyncLessOften,
    TensorParallelInNode,
    CheckTopology,
    BetterInterconnect,
    MoreLoaderWorkers,
    LocalCache,
    LargeShards,
    TraceStages,
    FixSlowStage,
}

/// A remedy for a bottleneck and what it costs. `only_when`: a capacity remedy that fits one
/// kind of out-of-memory error (weights, activations or KV cache full).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Remedy {
    pub id: RemedyId,
    pub bottleneck: Bottleneck,
    pub only_when: Option<OomAt>,
    pub memory: Cost,
    pub time: Cost,
    pub money: Cost,
    pub complexity: Cost,
}

const fn remedy(id: RemedyId, bottleneck: Bottleneck, only_when: Option<OomAt>, costs: [Cost; 4]) -> Remedy {
    let [memory, time, money, complexity] = costs;
    Remedy { id, bottleneck, only_when, memory, time, money, complexity }
}

use Cost::{High, Low, Medium, Nothing, Saves};
use RemedyId as R;

/// The remedies as data, each bottleneck's in the order to try them (cheap and likely first).
/// Costs are `[memory, time, money, complexity]`; "time" is the job's run time or latency.
pub const REMEDIES: &[Remedy] = &[
    // Capacity, weights do not fit: quantise, shard, or a larger card.
    remedy(R::QuantiseWeights, B::Capacity, Some(OomAt::StartUp), [Saves, Saves, Nothing, Low]),
    remedy(R::ShardWeights, B::Capacity, Some(OomAt::StartUp), [Saves, Low, Medium, Medium]),
    remedy(R::BiggerGpu, B::Capacity, Some(OomAt::StartUp), [Nothing, Nothing, High, Low]),
    // Activations do not fit: smaller micro-batches, recomputation.
    remedy(R::MicroBatchAccumulate, B::Capacity, Some(OomAt::GrowingBatch), [Saves, Low, Nothing, Low]),
    remedy(R::ActivationCheckpointing, B::Capacity, Some(OomAt::GrowingBatch), [Saves, Medium, Nothing, Low]),
    // The KV cache does not fit: fewer or shorter sequences, smaller or paged cache.
    remedy(R::PagedKvCache, B::Capacity, Some(OomAt::RisingConcurrency), [Saves, Nothing, Nothing, Low]),
    remedy(R::QuantiseKvCache, B::Capacity, Some(OomAt::RisingConcurrency), [Saves, Nothing, Nothing, Low]),
    remedy(
        R::LimitConcurrency,
        B::Capacity,
        Some(OomAt::RisingConcurrency),
        [Saves, Medium, Nothing, Nothing],
    ),
    remedy(R::Offload, B::Capacity, None, [Saves, High, Nothing, Medium]),
    // Under-used compute: give the GPU more work per launch, launch less.
    remedy(R::LargerBatches, B::ComputeUnderused, None, [Medium, Low, Nothing, Low]),
    remedy(R::ServingEngine, B::ComputeUnderused, None, [Nothing, Saves, Nothing, Medium]),
    remedy(R::CudaGraphs, B::ComputeUnderused, None, [Low, Saves, Nothing, Medium]),
    remedy(R::FuseKernels, B::ComputeUnderused, None, [Nothing, Saves, Nothing, Medium]),
    remedy(R::TensorCoreShapes, B::ComputeUnderused, None, [Nothing, Saves, Nothing, Low]),
    // Memory bandwidth: move fewer bytes per useful operation.
    remedy(R::BatchDecode, B::MemoryBandwidth, None, [Medium, Low, Nothing, Low]),
    remedy(R::LowerPrecisionBytes, B::MemoryBandwidth, None, [Saves, Saves, Nothing, Low]),
    remedy(R::FusedAttention, B::MemoryBandwidth, None, [Saves, Saves, Nothing, Medium]),
    remedy(R::AvoidCopies, B::MemoryBandwidth, None, [Saves, Saves, Nothing, Low]),
    // Communication: check the path, hide it, send less, or buy a faster link.
    remedy(R::CheckTopology, B::Communication, None, [Nothing, Nothing, Nothing, Low]),
    remedy(R::OverlapCommunication, B::Communication, None, [Low, Saves, Nothing, Medium]),
    remedy(R::SyncLessOften, B::Communication, None, [Nothing, Saves, Nothing, Low]),
    remedy(R::TensorParallelInNode, B::Communication, None, [Nothing, Saves, Nothing, Low]),
    remedy(R::BetterInterconnect, B::Communication, None, [Nothing, Saves, High, Low]),
    // Data input: feed the GPU from nearer and in bigger pieces.
    remedy(R::MoreLoaderWorkers, B::DataInput, None, [Low, Saves, Nothing, Low]),
    remedy(R::LocalCache, B::DataInput, None, [Nothing, Saves, Low, Low]),
    remedy(R::LargeShards, B::DataInput, None, [Nothing, Saves, Nothing, Medium]),
    // The service chain: find the slow stage, then fix it (not the GPU).
    remedy(R::TraceStages, B::ServiceChain, None, [Nothing, Nothing, Nothing, Medium]),
    remedy(R::FixSlowStage, B::ServiceChain, None, [Nothing, Saves, Nothing, Medium]),
];

/// The remedies for `b` in the order to try them. For capacity, knowing when the errors appear
/// keeps the remedies for that memory (and the general ones); unknown keeps them all.
pub fn remedies(b: Bottleneck, oom_at: Option<OomAt>) -> Vec<&'static Remedy> {
    REMEDIES
        .iter()
        .filter(|r| r.bottleneck == b && (r.only_when.is_none() || oom_at.is_none() || r.only_when == oom_at))
        .collect()
}

/// A measured speed of the reader's workload.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Measured {
    /// Tokens per second over the phase's tokens (decode: all sequences of the batch together).
    TokensPerS(f64),
    /// Seconds per step (a training step).
    StepSeconds(f64),
}

/// A measured speed against the engine's upper bound (a roofline bound: peak figures, no
/// overheads, so reality is never faster).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct BoundComparison {
    /// The measured time for the phase's tokens, in seconds.
    pub measured_s: f64,
    /// The engine's bound for the same tokens, in seconds.
    pub bound_s: f64,
    /// `bound_s / measured_s`: the share of the bound reached (above 1: faster than possible).
    pub fraction_of_bound: f64,
    /// The roof that sets the bound.
    pub roof: Term,
    /// `memory_s / measured_s`: the share of peak memory bandwidth the measured speed implies
    /// for the bytes the engine counts.
    pub memory_roof_fraction: f64,
    /// `compute_s / measured_s`: the share of peak FLOP/s it implies (for training, an MFU).
    pub compute_roof_fraction: f64,
}

/// Compares a measured speed with the engine's bound for `tokens` tokens (one decode step of
/// the batch, the prefill of the batch, or a training step). `None` when the measurement or the
/// bound is not a positive finite number.
///
/// # Formula
/// `t = tokens / rate` (or the step time), `fraction = T_bound / t`, and for each roof
/// `fraction_roof = T_roof / t` where `T_roof` is the bound's compute or memory term.
pub fn compare_to_bound(measured: Measured, tokens: f64, bound: &BoundTime) -> Option<BoundComparison> {
    let positive = |v: f64| (v.is_finite() && v > 0.0).then_some(v);
    let measured_s = match measured {
        Measured::TokensPerS(rate) => positive(tokens)? / positive(rate)?,
        Measured::StepSeconds(s) => s,
    };
    let measured_s = positive(measured_s)?;
    let bound_s = positive(bound.total_s)?;
    let share = |t: f64| if t.is_finite() && t >= 0.0 { t / measured_s } else { 0.0 };
    Some(BoundComparison {
        measured_s,
        bound_s,
        fraction_of_bound: bound_s / measured_s,
        roof: bound.dominant,
        memory_roof_fraction: share(bound.memory_s),
        compute_roof_fraction: share(bound.compute_s),
    })
}

/// The diagnosis with the reader's workload: a measured speed faster than the bound is named;
/// a memory-bound workload whose bandwidth share was not observed gets it from the comparison
/// (`derived_bandwidth` says so, and the evidence is shown as derived).
pub fn diagnose_with(o: &Observations, workload: Option<&BoundComparison>) -> (Diagnosis, bool) {
    let mut obs = *o;
    let mut derived = false;
    let mut faster = false;
    if let Some(c) = workload {
        faster = c.fraction_of_bound > 1.0 + TOLERANCE;
        if !faster && obs.bandwidth_share.is_none() && c.roof == Term::Memory {
            obs.bandwidth_share = Some(c.memory_roof_fraction.min(1.0));
            derived = true;
        }
    }
    let mut d = diagnose(&obs);
    if faster {
        d.contradictions.push(Contradiction::FasterThanBound);
    }
    (d, derived)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kinds(d: &Diagnosis) -> Vec<(Bottleneck, Strength)> {
        d.findings.iter().map(|f| (f.bottleneck, f.strength)).collect()
    }

    #[test]
    fn every_kind_is_reachable() {
        let cases = [
            (Observations { out_of_memory: Some(true), ..Default::default() }, B::Capacity),
            (
                Observations {
                    gpu_utilization: Some(0.95),
                    sm_activity: Some(0.2),
                    bandwidth_share: Some(0.3),
                    ..Default::default()
                },
                B::ComputeUnderused,
            ),
            (Observations { bandwidth_share: Some(0.85), ..Default::default() }, B::MemoryBandwidth),
            (
                Observations { communication_share: Some(0.35), multi_gpu: Some(true), ..Default::default() },
                B::Communication,
            ),
            (Observations { loader_wait_share: Some(0.3), ..Default::default() }, B::DataInput),
            (
                Observations { end_to_end_s: Some(1.2), model_s: Some(0.3), ..Default::default() },
                B::ServiceChain,
            ),
        ];
        for (o, b) in cases {
            let d = diagnose(&o);
            assert_eq!(kinds(&d).first(), Some(&(b, Strength::Strong)), "{o:?}");
            assert!(d.contradictions.is_empty());
        }
    }

    #[test]
    fn hints_are_weaker_than_evidence_and_come_after_it() {
        let o =
            Observations { bandwidth_share: Some(0.6), loader_wait_share: Some(0.15), ..Default::default() };
        assert_eq!(
            kinds(&diagnose(&o)),
            vec![(B::DataInput, Strength::Strong), (B::MemoryBandwidth, Strength::Hint)]
        );
    }

    #[test]
    fn unknowns_stay_unknown() {
        let d = diagnose(&Observations::default());
        assert!(d.findings.is_empty());
        // Every signal some rule reads is worth measuring; none is assumed.
        assert_eq!(d.worth_measuring.len(), 7, "{:?}", d.worth_measuring);
        assert!(!d.worth_measuring.contains(&S::MultiGpu));
        // Knowing the bandwidth share drops it from the list.
        let d = diagnose(&Observations { bandwidth_share: Some(0.2), ..Default::default() });
        assert!(!d.worth_measuring.contains(&S::BandwidthShare));
        assert!(d.findings.is_empty());
    }

    #[test]
    fn contradictions_are_named() {
        let o = Observations {
            gpu_utilization: Some(0.4),
            sm_activity: Some(0.9),
            bandwidth_share: Some(1.4),
            end_to_end_s: Some(0.1),
            model_s: Some(0.2),
            communication_share: Some(0.3),
            multi_gpu: Some(false),
            ..Default::default()
        };
        let d = diagnose(&o);
        assert_eq!(
            d.contradictions,
            vec![
                Contradiction::OutOfRange(S::BandwidthShare),
                Contradiction::SmAboveUtilization,
                Contradiction::ModelAboveEndToEnd,
                Contradiction::CommunicationOnOneGpu,
            ]
        );
        // On one GPU, collective time is not diagnosed as communication.
        assert!(!kinds(&d).iter().any(|(b, _)| *b == B::Communication));
    }

    #[test]
    fn non_finite_inputs_count_as_unknown() {
        let o = Observations {
            bandwidth_share: Some(f64::NAN),
            end_to_end_s: Some(0.0),
            model_s: Some(1.0),
            ..Default::default()
        };
        let d = diagnose(&o);
        assert!(d.findings.is_empty() && d.contradictions.len() == 1);
        assert!(
            d.worth_measuring.contains(&S::BandwidthShare)
                && d.worth_measuring.contains(&S::ModelLatencyShare)
        );
    }

    #[test]
    fn every_rule_reads_a_signal_the_observations_carry() {
        for r in RULES {
            assert!(r.threshold.is_finite() && r.threshold >= 0.0);
        }
        for b in Bottleneck::ALL {
            assert!(RULES.iter().any(|r| r.bottleneck == b && r.group == 0 && r.strong), "{b:?}");
        }
    }

    #[test]
    fn tensions_are_clues_not_contradictions() {
        let o = Observations { gpu_utilization: Some(0.95), sm_activity: Some(0.1), ..Default::default() };
        let d = diagnose(&o);
        assert_eq!(d.tensions, vec![Tension::BusyButSmsIdle]);
        assert!(d.contradictions.is_empty());
        let o = Observations { gpu_utilization: Some(0.4), bandwidth_share: Some(0.8), ..Default::default() };
        assert_eq!(diagnose(&o).tensions, vec![Tension::GapsBetweenSaturatedKernels]);
        // Unknown SM activity: no tension is assumed.
        assert!(diagnose(&Observations { gpu_utilization: Some(0.95), ..Default::default() })
            .tensions
            .is_empty());
    }

    #[test]
    fn loader_wait_and_utilisation_cannot_both_be_high() {
        let o =
            Observations { gpu_utilization: Some(0.9), loader_wait_share: Some(0.4), ..Default::default() };
        assert_eq!(diagnose(&o).contradictions, vec![Contradiction::LoaderWaitAboveIdle]);
        // Within the sampling tolerance it is not named.
        let o =
            Observations { gpu_utilization: Some(0.7), loader_wait_share: Some(0.33), ..Default::default() };
        assert!(diagnose(&o).contradictions.is_empty());
    }

    #[test]
    fn every_kind_has_remedies_with_costs() {
        for b in Bottleneck::ALL {
            assert!(remedies(b, None).len() >= 2, "{b:?}");
        }
        // Every remedy id appears once.
        for (i, r) in REMEDIES.iter().enumerate() {
            assert!(!REMEDIES.iter().skip(i + 1).any(|o| o.id == r.id), "{:?}", r.id);
            assert!(r.only_when.is_none() || r.bottleneck == B::Capacity);
        }
        // Out of memory as concurrency rises: the KV cache remedies, not the weights' ones.
        let kv: Vec<RemedyId> =
            remedies(B::Capacity, Some(OomAt::RisingConcurrency)).iter().map(|r| r.id).collect();
        assert_eq!(kv, vec![R::PagedKvCache, R::QuantiseKvCache, R::LimitConcurrency, R::Offload]);
        let start: Vec<RemedyId> = remedies(B::Capacity, Some(OomAt::StartUp)).iter().map(|r| r.id).collect();
        assert_eq!(start, vec![R::QuantiseWeights, R::ShardWeights, R::BiggerGpu, R::Offload]);
        assert_eq!(remedies(B::Capacity, None).len(), 9);
        // A larger GPU costs money; quantising weights does not.
        let cost = |id| REMEDIES.iter().find(|r| r.id == id).map(|r| r.money);
        assert_eq!(cost(R::BiggerGpu), Some(High));
        assert_eq!(cost(R::QuantiseWeights), Some(Nothing));
    }

    fn bound(compute_s: f64, memory_s: f64) -> BoundTime {
        let (dominant, dominance_ratio) =
            super::super::perf::roofline::dominant_term(compute_s, memory_s, 0.0, 0.0);
        BoundTime {
            compute_s,
            memory_s,
            communication_s: 0.0,
            overhead_s: 0.0,
            host_s: 0.0,
            total_s: compute_s.max(memory_s),
            dominant,
            dominance_ratio,
        }
    }

    #[test]
    fn a_measured_decode_against_the_memory_roof() {
        // A batch of 4 in 5 ms at the memory roof, 1 ms of compute: 800 tok/s at best. Measured
        // 320 tok/s: each step takes 12.5 ms, 40% of the memory roof, 8% of the compute roof.
        let b = bound(0.001, 0.005);
        let c = compare_to_bound(Measured::TokensPerS(320.0), 4.0, &b).expect("valid");
        assert_eq!(c.roof, Term::Memory);
        assert!((c.measured_s - 0.0125).abs() < 1e-12);
        assert!((c.fraction_of_bound - 0.4).abs() < 1e-12);
        assert!((c.memory_roof_fraction - 0.4).abs() < 1e-12);
        assert!((c.compute_roof_fraction - 0.08).abs() < 1e-12);
        // A training step of 2 s against a compute-bound 0.8 s: 40% of the compute roof (MFU).
        let c = compare_to_bound(Measured::StepSeconds(2.0), 1.0e6, &bound(0.8, 0.1)).expect("valid");
        assert_eq!(c.roof, Term::Compute);
        assert!((c.compute_roof_fraction - 0.4).abs() < 1e-12);
        // Nothing to compare: no number, no comparison.
        for m in [Measured::TokensPerS(0.0), Measured::TokensPerS(f64::NAN), Measured::StepSeconds(-1.0)] {
            assert_eq!(compare_to_bound(m, 4.0, &b), None);
        }
        assert_eq!(compare_to_bound(Measured::TokensPerS(1.0), 0.0, &b), None);
        assert_eq!(compare_to_bound(Measured::TokensPerS(1.0), 1.0, &bound(0.0, 0.0)), None);
    }

    #[test]
    fn the_workload_fills_an_unknown_bandwidth_share_only() {
        let b = bound(0.001, 0.005);
        let c = compare_to_bound(Measured::TokensPerS(640.0), 4.0, &b).expect("valid");
        let (d, derived) = diagnose_with(&Observations::default(), Some(&c));
        assert!(derived);
        assert_eq!(kinds(&d), vec![(B::MemoryBandwidth, Strength::Strong)]);
        assert!(!d.worth_measuring.contains(&S::BandwidthShare));
        // An observed share wins over the derived one.
        let o = Observations { bandwidth_share: Some(0.2), ..Default::default() };
        let (d, derived) = diagnose_with(&o, Some(&c));
        assert!(!derived && d.findings.is_empty());
        // Faster than the bound: named, and nothing is derived from it.
        let fast = compare_to_bound(Measured::TokensPerS(2000.0), 4.0, &b).expect("valid");
        let (d, derived) = diagnose_with(&Observations::default(), Some(&fast));
        assert!(!derived);
        assert_eq!(d.contradictions, vec![Contradiction::FasterThanBound]);
        // A compute-bound workload says nothing about bandwidth.
        let c = compare_to_bound(Measured::StepSeconds(2.0), 1.0, &bound(0.8, 0.1)).expect("valid");
        assert!(!diagnose_with(&Observations::default(), Some(&c)).1);
    }
}
