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
}

/// The diagnosis: findings strongest first, contradictions, and the unknown signals that some
/// rule needs (measuring them would decide more).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Diagnosis {
    pub findings: Vec<Finding>,
    pub contradictions: Vec<Contradiction>,
    pub worth_measuring: Vec<Signal>,
}

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
}
