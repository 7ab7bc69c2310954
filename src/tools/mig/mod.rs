//! The MIG planner (`#/{lang}/tools/mig`): hand placement of MIG instances on one GPU by the MIG
//! User Guide's rules (`engine::mig`), and a list of workloads, each sized by the engine, packed
//! onto the fewest GPUs with the engine's decode speed on the instance each gets.
//!
//! `state` is the URL form and its repair, `html` the page as escaped HTML strings; this file
//! holds the numbers: a catalog GPU's profile table as slices, what an instance gets, and the
//! packing.

pub mod html;
pub mod state;

use crate::catalog::mig::{self as tables, MigProfile};
use crate::catalog::{self, gpus};
use crate::engine::evaluate::usable_bytes;
pub use crate::engine::gpu::Gpu;
use crate::engine::hardware::GpuSpec;
use crate::engine::memory::MemoryBreakdown;
use crate::engine::mig::{pack, Assignment, Placement, PlacementError, SliceGeometry, SliceProfile};
use crate::engine::{EngineError, ModelSpec, Scenario};
use crate::estimator::mig_slice::mig_slice;
use state::Workload;

/// A catalog GPU's MIG profiles as the engine's slices.
#[derive(Clone, Debug, PartialEq)]
pub struct MigGpu {
    pub geometry: SliceGeometry,
    /// The catalog's profiles (names, fractions, SM counts).
    pub profiles: &'static [MigProfile],
    /// The same profiles as slices, index for index.
    pub slices: Vec<SliceProfile>,
}

impl MigGpu {
    /// The index of the profile named `name`.
    pub fn profile_index(&self, name: &str) -> Option<usize> {
        self.profiles.iter().position(|p| p.name == name)
    }

    /// The name of profile `i` (empty when there is none).
    pub fn name(&self, i: usize) -> &str {
        self.profiles.get(i).map_or("", |p| p.name.as_str())
    }
}

/// The profile table of catalog GPU `id` as slices: `None` when the GPU has no MIG table with
/// profiles, or a profile is not a whole number of slices of a 8/7 or 4/4 GPU.
pub fn gpu_tables(id: &str) -> Option<MigGpu> {
    let gpu = gpus::find(id)?;
    let profiles = tables::find(gpu.mig.profiles.as_deref()?)?.profiles.as_slice();
    if profiles.is_empty() {
        return None;
    }
    [SliceGeometry::SEVEN, SliceGeometry::FOUR].into_iter().find_map(|geometry| {
        let slices = profiles
            .iter()
            .map(|p| {
                let max = u8::try_from(p.max_instances.unwrap_or(1)).unwrap_or(u8::MAX);
                SliceProfile::from_fractions(
                    geometry,
                    p.memory_fraction,
                    p.sm_fraction,
                    max,
                    p.name.ends_with("+me"),
                )
            })
            .collect::<Option<Vec<_>>>()?;
        Some(MigGpu { geometry, profiles, slices })
    })
}

/// Every catalog GPU the planner offers (a MIG table with profiles), in catalog order.
pub fn mig_gpus() -> Vec<&'static Gpu> {
    gpus::all().iter().filter(|g| gpu_tables(&g.id).is_some()).collect()
}

/// Why an instance may not go where it was asked, in names a reader knows.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Refusal {
    pub profile: String,
    pub start: u8,
    pub reason: Reason,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Reason {
    /// The guide lets this profile start only at `allowed`.
    NotAllowed { allowed: Vec<u8> },
    /// Memory slice `slice` belongs to `other` (starting at `other_start`).
    Overlap { other: String, other_start: u8, slice: u8 },
    /// At most `max` instances of this profile per GPU.
    TooMany { max: u8 },
    /// `other` already has the GPU's media engines.
    SecondMedia { other: String },
    /// No such profile.
    Unknown,
}

impl Refusal {
    /// `e` about `trial` (the layout with the new placement last), in profile names.
    pub fn new(mig: &MigGpu, trial: &[Placement], e: &PlacementError) -> Refusal {
        let at = |i: usize| trial.get(i).copied().unwrap_or(Placement { profile: usize::MAX, start: 0 });
        let named = |p: Placement, reason| Refusal {
            profile: mig.name(p.profile).to_owned(),
            start: p.start,
            reason,
        };
        let last = at(trial.len().saturating_sub(1));
        match e {
            PlacementError::UnknownProfile { .. } => named(last, Reason::Unknown),
            PlacementError::StartNotAllowed { profile, start, allowed } => named(
                Placement { profile: *profile, start: *start },
                Reason::NotAllowed { allowed: allowed.clone() },
            ),
            PlacementError::Overlap { first, second, slice } => {
                let o = at(*first);
                named(
                    at(*second),
                    Reason::Overlap {
                        other: mig.name(o.profile).to_owned(),
                        other_start: o.start,
                        slice: *slice,
                    },
                )
            }
            PlacementError::TooMany { max, .. } => named(last, Reason::TooMany { max: *max }),
            PlacementError::SecondMediaInstance { first, second } => {
                named(at(*second), Reason::SecondMedia { other: mig.name(at(*first).profile).to_owned() })
            }
        }
    }
}

/// What one instance gets of its GPU.
#[derive(Clone, Debug, PartialEq)]
pub struct InstanceShare {
    pub name: String,
    pub start: u8,
    pub memory_slices: u8,
    pub compute_slices: u8,
    pub memory_bytes: u64,
    /// The catalog's SM count for the profile, when it has one.
    pub sm_count: Option<u32>,
    /// Bandwidth and L2 in proportion to the memory slices (an approximation; see [`share`]).
    pub bandwidth_bytes_per_s: f64,
    pub l2_bytes: Option<u64>,
}

/// What placement `p` gets of `gpu`: memory, bandwidth and L2 scaled by its share of memory
/// slices, compute by its share of compute slices, by [`mig_slice`] (the MIG User Guide's
/// profile table: each memory slice brings its memory controllers and L2, so bandwidth and L2
/// follow memory slices; the guide gives no per-instance bandwidth, hence an approximation).
pub fn share(gpu: &Gpu, mig: &MigGpu, p: Placement) -> Option<InstanceShare> {
    let profile = mig.profiles.get(p.profile)?;
    let slices = mig.slices.get(p.profile)?;
    let g = mig_slice(gpu, profile);
    Some(InstanceShare {
        name: profile.name.clone(),
        start: p.start,
        memory_slices: slices.memory,
        compute_slices: slices.compute,
        memory_bytes: g.memory_bytes,
        sm_count: crate::estimator::mig_slice::listed_sm_count(gpu, profile),
        bandwidth_bytes_per_s: g.memory_bandwidth_bytes_per_s,
        l2_bytes: g.l2_bytes,
    })
}

/// A workload as the engine's scenario on `gpu` (inference, one GPU).
pub fn scenario(w: &Workload, gpu: GpuSpec) -> Scenario {
    let mut s = Scenario::new(ModelSpec::Id(w.model.clone()));
    s.weight_dtype = Some(w.weights);
    s.kv_dtype = Some(w.kv);
    s.context_tokens = w.context;
    s.batch = w.concurrency;
    s.gpu = gpu;
    s
}

/// Where a workload went.
#[derive(Clone, Debug, PartialEq)]
pub enum Outcome {
    /// On GPU `gpu` (0-based) as `placement`; `tokens_per_s` is the engine's decode speed there.
    /// `whole` when the profile takes every slice (the workload needs the whole GPU).
    Instance { gpu: usize, placement: Placement, tokens_per_s: Option<f64>, whole: bool },
    /// Larger than the largest profile: `gpus` whole GPUs (memory ÷ usable memory per GPU).
    WholeGpus { gpus: u64 },
    /// The engine refused the workload (the error names the field).
    Invalid(EngineError),
}

/// The packing of a list of workloads.
#[derive(Clone, Debug, PartialEq)]
pub struct Packed {
    /// Per workload: its memory as the engine sizes it (on the whole GPU).
    pub memory: Vec<Option<MemoryBreakdown>>,
    pub outcomes: Vec<Outcome>,
    /// Per MIG GPU: its instances and the workload (index) on each.
    pub layouts: Vec<Vec<(Placement, usize)>>,
    pub whole_gpus: u64,
    /// Usable bytes of a whole GPU and of each profile (after the engine's safety margin).
    pub usable_gpu_bytes: u64,
    pub usable_profile_bytes: Vec<u64>,
}

impl Packed {
    /// Every GPU the plan needs.
    pub fn total_gpus(&self) -> u64 {
        u64::try_from(self.layouts.len()).unwrap_or(u64::MAX).saturating_add(self.whole_gpus)
    }
}

/// Sizes each workload with the engine on the whole GPU, packs those that evaluate with
/// `engine::mig::pack` (each into the smallest profile whose usable memory holds it), then
/// evaluates each placed workload on its instance as a GPU of its own ([`mig_slice`]).
pub fn pack_workloads(gpu: &Gpu, mig: &MigGpu, workloads: &[Workload]) -> Packed {
    let whole = GpuSpec::Custom(Box::new(gpu.clone()));
    let margin = Scenario::new(ModelSpec::Id(String::new())).safety_margin;
    let usable = |bytes: u64| u64::try_from(usable_bytes(bytes, margin)).unwrap_or(u64::MAX);
    let sized: Vec<Result<MemoryBreakdown, EngineError>> = workloads
        .iter()
        .map(|w| catalog::evaluate(&scenario(w, whole.clone())).map(|r| r.memory_per_gpu_bytes))
        .collect();
    let slice_gpus: Vec<Gpu> = mig.profiles.iter().map(|p| mig_slice(gpu, p)).collect();
    let slice_bytes = |i: usize| slice_gpus.get(i).map_or(0, |g| usable(g.memory_bytes));
    // Only workloads the engine could size take part; `ids` maps back to the list.
    let ids: Vec<usize> = (0..workloads.len()).filter(|i| sized.get(*i).is_some_and(Result::is_ok)).collect();
    let needs: Vec<u64> = ids.iter().filter_map(|i| sized.get(*i)?.as_ref().ok().map(|m| m.total)).collect();
    let gpu_usable = usable(gpu.memory_bytes);
    let plan = pack(mig.geometry, &mig.slices, &slice_bytes, gpu_usable, &needs);
    let full = |p: usize| mig.slices.get(p).is_some_and(|s| s.compute == mig.geometry.compute);
    let mut outcomes: Vec<Outcome> = sized
        .iter()
        .map(|r| match r {
            Err(e) => Outcome::Invalid(e.clone()),
            Ok(_) => Outcome::WholeGpus { gpus: 0 },
        })
        .collect();
    let mut layouts: Vec<Vec<(Placement, usize)>> = vec![Vec::new(); plan.gpus.len()];
    for (k, a) in plan.assignments.iter().enumerate() {
        let Some(&w) = ids.get(k) else { continue };
        let outcome = match a {
            Assignment::WholeGpus { gpus } => Outcome::WholeGpus { gpus: *gpus },
            Assignment::Instance { gpu: g, placement } => {
                if let Some(l) = layouts.get_mut(*g) {
                    l.push((*placement, w));
                }
                let tokens_per_s = match (workloads.get(w), slice_gpus.get(placement.profile)) {
                    (Some(work), Some(slice)) => {
                        catalog::evaluate(&scenario(work, GpuSpec::Custom(Box::new(slice.clone()))))
                            .ok()
                            .map(|r| r.performance.throughput.decode_tokens_per_s)
                    }
                    _ => None,
                };
                Outcome::Instance {
                    gpu: *g,
                    placement: *placement,
                    tokens_per_s,
                    whole: full(placement.profile),
                }
            }
        };
        if let Some(o) = outcomes.get_mut(w) {
            *o = outcome;
        }
    }
    for l in &mut layouts {
        crate::engine::num::sort_stable_by(l, |a, b| a.0.start < b.0.start);
    }
    Packed {
        memory: sized.into_iter().map(Result::ok).collect(),
        outcomes,
        layouts,
        whole_gpus: plan.whole_gpus,
        usable_gpu_bytes: gpu_usable,
        usable_profile_bytes: (0..mig.profiles.len()).map(slice_bytes).collect(),
    }
}

#[cfg(test)]
mod tests;
