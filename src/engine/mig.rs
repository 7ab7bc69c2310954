//! MIG placement: which instance profiles can sit where on one GPU, and packing workloads onto
//! the fewest GPUs.
//!
//! The model (NVIDIA MIG User Guide, "Supported MIG Profiles" and "Placement"; the `-lgipp`
//! outputs it shows): a MIG-capable GPU has `memory` memory slices (8 on A100/H100/H200/B200,
//! 4 on A30) and `compute` compute slices (7 and 4). Compute slice *i* sits beside memory slice
//! *i*; on the 8/7 GPUs the last memory slice has no compute slice of its own. A profile of
//! *m* memory slices and *c* compute slices may start at memory slice *s* when
//!
//! * *s* is a multiple of *m* and *s + m ≤ memory* (instances are aligned to their size), and
//! * the compute slices beside `[s, s + m)` number at least *c*.
//!
//! This reproduces every start the guide lists (7-slice GPUs: 1g {0..6}, 1g with double memory
//! {0,2,4,6}, 2g {0,2,4}, 3g {0,4}, 4g {0}, 7g {0}; A30: 1g {0..3}, 2g {0,2}, 4g {0}); the tests
//! check each. Two instances may not share a memory slice; a profile may not exceed its maximum
//! instance count; only one instance with media engines (`+me`) fits on a GPU.
//!
//! Packing is first-fit decreasing over GPUs, with an exact check per GPU: a new instance joins a
//! GPU when some placement of *all* its instances exists (a small backtracking search: at most
//! 8 instances with at most 7 starts each), so an early choice of start never blocks a later
//! instance that a different arrangement would have fitted.

/// The slice structure of one MIG-capable GPU.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SliceGeometry {
    /// Memory slices (8 on the 7-compute-slice GPUs, 4 on A30).
    pub memory: u8,
    /// Compute (GPC) slices (7 or 4).
    pub compute: u8,
}

impl SliceGeometry {
    /// A100, H100, H200, B200, GB200.
    pub const SEVEN: SliceGeometry = SliceGeometry { memory: 8, compute: 7 };
    /// A30.
    pub const FOUR: SliceGeometry = SliceGeometry { memory: 4, compute: 4 };

    /// Compute slices beside memory slices `[start, start + len)`.
    fn compute_beside(self, start: u8, len: u8) -> u8 {
        let end = start.saturating_add(len).min(self.compute);
        end.saturating_sub(start)
    }
}

/// One instance profile as slices (e.g. H100 `3g.40gb`: 4 memory, 3 compute, at most 2).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SliceProfile {
    pub memory: u8,
    pub compute: u8,
    pub max_instances: u8,
    /// With media engines (`+me`): one per GPU, whatever the profile.
    pub media: bool,
}

impl SliceProfile {
    /// From the fractions a profile table gives (memory 4/8, SMs 3/7). `None` when a fraction is
    /// not a whole number of slices (within 1 %), is zero, or exceeds the GPU.
    pub fn from_fractions(
        geometry: SliceGeometry,
        memory_fraction: f64,
        sm_fraction: f64,
        max_instances: u8,
        media: bool,
    ) -> Option<SliceProfile> {
        let memory = whole_slices(memory_fraction, geometry.memory)?;
        let compute = whole_slices(sm_fraction, geometry.compute)?;
        Some(SliceProfile { memory, compute, max_instances: max_instances.max(1), media })
    }
}

/// `fraction × total` when it is a whole number from 1 to `total`.
fn whole_slices(fraction: f64, total: u8) -> Option<u8> {
    let x = fraction * f64::from(total);
    if !x.is_finite() {
        return None;
    }
    (1..=total).find(|&n| (x - f64::from(n)).abs() <= 0.01 * f64::from(total))
}

/// The memory slices where `profile` may start (see the module's rule).
pub fn valid_starts(geometry: SliceGeometry, profile: &SliceProfile) -> Vec<u8> {
    if profile.memory == 0 || profile.memory > geometry.memory {
        return Vec::new();
    }
    (0..geometry.memory)
        .step_by(usize::from(profile.memory))
        .filter(|&s| s.saturating_add(profile.memory) <= geometry.memory)
        .filter(|&s| geometry.compute_beside(s, profile.memory) >= profile.compute)
        .collect()
}

/// One instance on a GPU: which profile (an index into the profile list) and its start slice.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Placement {
    pub profile: usize,
    pub start: u8,
}

/// Why a set of placements is not a valid MIG layout.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PlacementError {
    /// The profile index is not in the list.
    UnknownProfile { profile: usize },
    /// The profile may not start there; `allowed` lists where it may.
    StartNotAllowed { profile: usize, start: u8, allowed: Vec<u8> },
    /// Two instances claim the same memory slice.
    Overlap { first: usize, second: usize, slice: u8 },
    /// More instances of a profile than the GPU allows.
    TooMany { profile: usize, max: u8 },
    /// A second instance with media engines.
    SecondMediaInstance { first: usize, second: usize },
}

/// Checks a whole layout: every start allowed, no shared memory slice, instance counts, one
/// media-engine instance. Errors name the placements (indices into `placed`) or the profile.
pub fn check(
    geometry: SliceGeometry,
    profiles: &[SliceProfile],
    placed: &[Placement],
) -> Result<(), PlacementError> {
    let mut owner: Vec<Option<usize>> = vec![None; usize::from(geometry.memory)];
    let mut media: Option<usize> = None;
    for (i, p) in placed.iter().enumerate() {
        let profile = profiles.get(p.profile).ok_or(PlacementError::UnknownProfile { profile: p.profile })?;
        let allowed = valid_starts(geometry, profile);
        if !allowed.contains(&p.start) {
            return Err(PlacementError::StartNotAllowed { profile: p.profile, start: p.start, allowed });
        }
        if profile.media {
            if let Some(first) = media {
                return Err(PlacementError::SecondMediaInstance { first, second: i });
            }
            media = Some(i);
        }
        let count = placed.iter().take(i + 1).filter(|q| q.profile == p.profile).count();
        if count > usize::from(profile.max_instances) {
            return Err(PlacementError::TooMany { profile: p.profile, max: profile.max_instances });
        }
        for slice in p.start..p.start.saturating_add(profile.memory) {
            match owner.get_mut(usize::from(slice)) {
                Some(Some(first)) => return Err(PlacementError::Overlap { first: *first, second: i, slice }),
                Some(cell) => *cell = Some(i),
                None => {}
            }
        }
    }
    Ok(())
}

/// The starts where one more instance of `profile` fits beside `placed` (empty: it does not).
pub fn free_starts(
    geometry: SliceGeometry,
    profiles: &[SliceProfile],
    placed: &[Placement],
    profile: usize,
) -> Vec<u8> {
    let Some(p) = profiles.get(profile) else { return Vec::new() };
    let mut trial = placed.to_vec();
    valid_starts(geometry, p)
        .into_iter()
        .filter(|&start| {
            trial.push(Placement { profile, start });
            let ok = check(geometry, profiles, &trial).is_ok();
            trial.pop();
            ok
        })
        .collect()
}

/// A placement of all of `wanted` (profile indices) on one GPU, if one exists. Larger instances
/// are placed first; the search backtracks over starts, so it finds a layout whenever one exists.
pub fn arrange(
    geometry: SliceGeometry,
    profiles: &[SliceProfile],
    wanted: &[usize],
) -> Option<Vec<Placement>> {
    let mut order: Vec<usize> = wanted.to_vec();
    let size = |i: &usize| profiles.get(*i).map_or((0, 0), |p| (p.memory, p.compute));
    crate::engine::num::sort_stable_by(&mut order, |a, b| size(a) > size(b));
    let mut placed = Vec::with_capacity(order.len());
    if search(geometry, profiles, &order, &mut placed) {
        Some(placed)
    } else {
        None
    }
}

fn search(
    geometry: SliceGeometry,
    profiles: &[SliceProfile],
    rest: &[usize],
    placed: &mut Vec<Placement>,
) -> bool {
    let Some((&next, tail)) = rest.split_first() else { return true };
    for start in free_starts(geometry, profiles, placed, next) {
        placed.push(Placement { profile: next, start });
        if search(geometry, profiles, tail, placed) {
            return true;
        }
        placed.pop();
    }
    false
}

/// What the planner decided for one workload.
#[derive(Clone, Debug, PartialEq)]
pub enum Assignment {
    /// On GPU `gpu` (0-based, in the plan's order) as `placement`.
    Instance { gpu: usize, placement: Placement },
    /// Needs more memory than the largest profile: `gpus` whole GPUs (memory ÷ one GPU's, rounded up).
    WholeGpus { gpus: u64 },
}

/// A packing of workloads onto MIG GPUs of one model.
#[derive(Clone, Debug, PartialEq)]
pub struct Plan {
    /// One entry per workload, in the input order.
    pub assignments: Vec<Assignment>,
    /// The MIG layout of each GPU used for instances.
    pub gpus: Vec<Vec<Placement>>,
    /// GPUs used whole by workloads too large for any instance.
    pub whole_gpus: u64,
}

impl Plan {
    /// Every GPU the plan needs.
    pub fn total_gpus(&self) -> u64 {
        u64::try_from(self.gpus.len()).unwrap_or(u64::MAX).saturating_add(self.whole_gpus)
    }
}

/// The smallest profile (fewest memory slices, then fewest compute slices, then the list order)
/// whose memory holds `need_bytes`. Media-engine (`+me`) profiles are skipped: a workload sized
/// by its memory does not need the media engines. `memory_bytes(i)` is profile `i`'s memory.
pub fn smallest_profile(
    profiles: &[SliceProfile],
    memory_bytes: &dyn Fn(usize) -> u64,
    need_bytes: u64,
) -> Option<usize> {
    profiles
        .iter()
        .enumerate()
        .filter(|(i, p)| !p.media && memory_bytes(*i) >= need_bytes)
        .min_by_key(|(i, p)| (p.memory, p.compute, *i))
        .map(|(i, _)| i)
}

/// Packs workloads (each its memory need in bytes) onto the fewest GPUs this heuristic finds:
/// each gets the smallest profile that holds it; larger instances go first, each onto the first
/// GPU where [`arrange`] finds a layout for it and the GPU's earlier instances, else onto a new
/// GPU. A workload larger than every profile is given whole GPUs (`gpu_bytes` each).
pub fn pack(
    geometry: SliceGeometry,
    profiles: &[SliceProfile],
    memory_bytes: &dyn Fn(usize) -> u64,
    gpu_bytes: u64,
    needs: &[u64],
) -> Plan {
    let chosen: Vec<Option<usize>> =
        needs.iter().map(|&n| smallest_profile(profiles, memory_bytes, n)).collect();
    let mut order: Vec<usize> = (0..needs.len()).collect();
    let size = |w: &usize| {
        chosen
            .get(*w)
            .copied()
            .flatten()
            .and_then(|i| profiles.get(i))
            .map_or((0, 0), |p| (p.memory, p.compute))
    };
    crate::engine::num::sort_stable_by(&mut order, |a, b| size(a) > size(b));

    let mut members: Vec<Vec<usize>> = Vec::new(); // workloads per GPU
    let mut layouts: Vec<Vec<Placement>> = Vec::new();
    let mut assignments: Vec<Option<Assignment>> = vec![None; needs.len()];
    let mut whole_gpus = 0u64;
    for w in order {
        let need = needs.get(w).copied().unwrap_or(0);
        let Some(profile) = chosen.get(w).copied().flatten() else {
            let gpus = if gpu_bytes == 0 { 1 } else { need.div_ceil(gpu_bytes).max(1) };
            whole_gpus = whole_gpus.saturating_add(gpus);
            if let Some(slot) = assignments.get_mut(w) {
                *slot = Some(Assignment::WholeGpus { gpus });
            }
            continue;
        };
        let mut placed_on = None;
        for (g, ws) in members.iter().enumerate() {
            let mut wanted: Vec<usize> =
                ws.iter().filter_map(|m| chosen.get(*m).copied().flatten()).collect();
            wanted.push(profile);
            if let Some(layout) = arrange(geometry, profiles, &wanted) {
                placed_on = Some((g, layout));
                break;
            }
        }
        let (g, layout) = match placed_on {
            Some(found) => found,
            None => match arrange(geometry, profiles, &[profile]) {
                Some(layout) => {
                    members.push(Vec::new());
                    layouts.push(Vec::new());
                    (members.len() - 1, layout)
                }
                None => continue, // the profile has no valid start at all: left unassigned
            },
        };
        if let Some(ws) = members.get_mut(g) {
            ws.push(w);
        }
        if let Some(l) = layouts.get_mut(g) {
            *l = layout;
        }
    }
    // The layout of each GPU lists its instances in placement order; give each workload its own.
    for (g, ws) in members.iter().enumerate() {
        let Some(layout) = layouts.get(g) else { continue };
        let mut taken = vec![false; layout.len()];
        for &w in ws {
            let Some(profile) = chosen.get(w).copied().flatten() else { continue };
            let hit = layout
                .iter()
                .enumerate()
                .find(|(k, p)| p.profile == profile && !taken.get(*k).copied().unwrap_or(true));
            if let Some((k, p)) = hit {
                if let Some(t) = taken.get_mut(k) {
                    *t = true;
                }
                if let Some(slot) = assignments.get_mut(w) {
                    *slot = Some(Assignment::Instance { gpu: g, placement: *p });
                }
            }
        }
    }
    Plan {
        assignments: assignments
            .into_iter()
            .map(|a| a.unwrap_or(Assignment::WholeGpus { gpus: 0 }))
            .collect(),
        gpus: layouts,
        whole_gpus,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The 7-slice profile classes of the guide's table (A100-40GB names): 1g, 1g+me, 1g with
    /// double memory, 2g, 3g, 4g, 7g.
    fn seven() -> Vec<SliceProfile> {
        let p =
            |memory, compute, max_instances, media| SliceProfile { memory, compute, max_instances, media };
        vec![
            p(1, 1, 7, false),
            p(1, 1, 1, true),
            p(2, 1, 4, false),
            p(2, 2, 3, false),
            p(4, 3, 2, false),
            p(4, 4, 1, false),
            p(8, 7, 1, false),
        ]
    }
    const G1: usize = 0;
    const G1ME: usize = 1;
    const G1X2: usize = 2;
    const G2: usize = 3;
    const G3: usize = 4;
    const G4: usize = 5;
    const G7: usize = 6;

    fn at(profile: usize, start: u8) -> Placement {
        Placement { profile, start }
    }

    #[test]
    fn starts_are_the_guides() {
        // MIG User Guide r580, "A100 placements" (-lgipp): valid starts per class.
        let g = SliceGeometry::SEVEN;
        let s = seven();
        assert_eq!(valid_starts(g, &s[G1]), vec![0, 1, 2, 3, 4, 5, 6]);
        assert_eq!(valid_starts(g, &s[G1ME]), vec![0, 1, 2, 3, 4, 5, 6]);
        assert_eq!(valid_starts(g, &s[G1X2]), vec![0, 2, 4, 6]);
        assert_eq!(valid_starts(g, &s[G2]), vec![0, 2, 4]);
        assert_eq!(valid_starts(g, &s[G3]), vec![0, 4]);
        assert_eq!(valid_starts(g, &s[G4]), vec![0]);
        assert_eq!(valid_starts(g, &s[G7]), vec![0]);
        // A30 (observed -lgipp): 1g.6gb {0,1,2,3}, 2g.12gb {0,2}, 4g.24gb {0}.
        let a30 = SliceGeometry::FOUR;
        let p = |m, c| SliceProfile { memory: m, compute: c, max_instances: 4, media: false };
        assert_eq!(valid_starts(a30, &p(1, 1)), vec![0, 1, 2, 3]);
        assert_eq!(valid_starts(a30, &p(2, 2)), vec![0, 2]);
        assert_eq!(valid_starts(a30, &p(4, 4)), vec![0]);
    }

    #[test]
    fn fractions_become_slices() {
        let g = SliceGeometry::SEVEN;
        assert_eq!(
            SliceProfile::from_fractions(g, 0.5, 3.0 / 7.0, 2, false),
            Some(SliceProfile { memory: 4, compute: 3, max_instances: 2, media: false })
        );
        assert_eq!(SliceProfile::from_fractions(g, 0.3, 1.0 / 7.0, 1, false), None);
        assert_eq!(SliceProfile::from_fractions(g, 0.0, 1.0 / 7.0, 1, false), None);
        assert_eq!(SliceProfile::from_fractions(g, f64::NAN, 1.0, 1, false), None);
        assert_eq!(SliceProfile::from_fractions(g, 1.5, 1.0, 1, false), None);
    }

    #[test]
    fn documented_geometries_are_valid() {
        // The guide's valid combinations (A100 diagram), each as the placement it documents.
        let g = SliceGeometry::SEVEN;
        let s = seven();
        let layouts: [&[Placement]; 10] = [
            &[at(G7, 0)],
            &[at(G4, 0), at(G3, 4)],
            &[at(G4, 0), at(G2, 4), at(G1, 6)],
            &[at(G4, 0), at(G1, 4), at(G1, 5), at(G1, 6)],
            &[at(G3, 0), at(G3, 4)],
            &[at(G2, 0), at(G2, 2), at(G3, 4)],
            &[at(G3, 4), at(G2, 2), at(G1, 0), at(G1, 1)],
            &[at(G2, 0), at(G2, 2), at(G2, 4), at(G1, 6)],
            &[at(G1, 0), at(G1, 1), at(G1, 2), at(G1, 3), at(G1, 4), at(G1, 5), at(G1, 6)],
            &[at(G1X2, 0), at(G1X2, 2), at(G1X2, 4), at(G1X2, 6)],
        ];
        for l in layouts {
            assert_eq!(check(g, &s, l), Ok(()), "{l:?}");
        }
    }

    #[test]
    fn invalid_layouts_say_why() {
        let g = SliceGeometry::SEVEN;
        let s = seven();
        // 4g only at 0 (the guide: "4g.20gb: {0}").
        assert_eq!(
            check(g, &s, &[at(G3, 0), at(G4, 4)]),
            Err(PlacementError::StartNotAllowed { profile: G4, start: 4, allowed: vec![0] })
        );
        // 2g at 6 would need two compute slices beside memory slices 6-7: there is one.
        assert!(matches!(check(g, &s, &[at(G2, 6)]), Err(PlacementError::StartNotAllowed { .. })));
        // 1g at 7: the eighth memory slice has no compute slice.
        assert!(matches!(check(g, &s, &[at(G1, 7)]), Err(PlacementError::StartNotAllowed { .. })));
        // 3g@0 and 2g@2 share memory slices 2 and 3.
        assert_eq!(
            check(g, &s, &[at(G3, 0), at(G2, 2)]),
            Err(PlacementError::Overlap { first: 0, second: 1, slice: 2 })
        );
        // Two media-engine instances.
        assert_eq!(
            check(g, &s, &[at(G1ME, 0), at(G1ME, 1)]),
            Err(PlacementError::SecondMediaInstance { first: 0, second: 1 })
        );
        // A profile table that allows one 3g instance refuses a second.
        let mut three = s.clone();
        three[G3].max_instances = 1;
        assert_eq!(
            check(g, &three, &[at(G3, 0), at(G3, 4)]),
            Err(PlacementError::TooMany { profile: G3, max: 1 })
        );
        assert_eq!(check(g, &s, &[at(99, 0)]), Err(PlacementError::UnknownProfile { profile: 99 }));
    }

    #[test]
    fn free_starts_follow_what_is_placed() {
        let g = SliceGeometry::SEVEN;
        let s = seven();
        assert_eq!(free_starts(g, &s, &[at(G3, 0)], G4), Vec::<u8>::new());
        assert_eq!(free_starts(g, &s, &[at(G3, 0)], G3), vec![4]);
        assert_eq!(free_starts(g, &s, &[at(G3, 4)], G4), vec![0]);
        assert_eq!(free_starts(g, &s, &[at(G2, 0), at(G2, 2)], G1), vec![4, 5, 6]);
    }

    #[test]
    fn arrange_backtracks_past_a_bad_first_choice() {
        // 3g, 3g fit only as 3g@0 + 3g@4; 4g + 3g only as 4g@0 + 3g@4.
        let g = SliceGeometry::SEVEN;
        let s = seven();
        assert_eq!(arrange(g, &s, &[G3, G4]), Some(vec![at(G4, 0), at(G3, 4)]));
        assert_eq!(arrange(g, &s, &[G3, G3]), Some(vec![at(G3, 0), at(G3, 4)]));
        // 2g ×3 + 1g: the 1g must go to slice 6.
        assert_eq!(arrange(g, &s, &[G1, G2, G2, G2]).map(|l| l.len()), Some(4));
        // Seven compute slices are all there is: 4g + 3g + 1g does not fit.
        assert_eq!(arrange(g, &s, &[G4, G3, G1]), None);
        assert_eq!(arrange(g, &s, &[G7, G1]), None);
    }

    #[test]
    fn pack_uses_few_gpus_and_flags_the_too_large() {
        // H100 80GB: 10 GB per memory slice.
        let g = SliceGeometry::SEVEN;
        let s = seven();
        const GB: u64 = 1_000_000_000;
        let mem = |i: usize| u64::from(s[i].memory) * 10 * GB;
        // 35 GB → 3g.40gb; 15 GB → 1g.20gb (double memory, 1 compute); 8 GB → 1g.10gb ×2;
        // 200 GB → more than one GPU: 3 whole GPUs.
        let needs = [35 * GB, 15 * GB, 8 * GB, 8 * GB, 200 * GB];
        let plan = pack(g, &s, &mem, 80 * GB, &needs);
        assert_eq!(plan.whole_gpus, 3);
        assert_eq!(plan.gpus.len(), 1, "{plan:?}");
        assert_eq!(plan.total_gpus(), 4);
        assert_eq!(plan.assignments[4], Assignment::WholeGpus { gpus: 3 });
        for layout in &plan.gpus {
            assert_eq!(check(g, &s, layout), Ok(()));
        }
        let profiles: Vec<usize> = plan
            .assignments
            .iter()
            .take(4)
            .map(|a| match a {
                Assignment::Instance { placement, .. } => placement.profile,
                other => panic!("{other:?}"),
            })
            .collect();
        assert_eq!(profiles, vec![G3, G1X2, G1, G1]);
        // Eight 3g-sized workloads need four GPUs (two 3g each).
        let plan = pack(g, &s, &mem, 80 * GB, &[35 * GB; 8]);
        assert_eq!(plan.total_gpus(), 4);
        // Nothing to place: no GPUs.
        assert_eq!(pack(g, &s, &mem, 80 * GB, &[]).total_gpus(), 0);
    }

    proptest::proptest! {
        /// Whatever the needs, every GPU's layout passes `check` and every workload that fits a
        /// profile is placed exactly once.
        #[test]
        fn packed_layouts_are_valid(needs in proptest::collection::vec(0u64..120, 0..16)) {
            let g = SliceGeometry::SEVEN;
            let s = seven();
            let mem = |i: usize| u64::from(s[i].memory) * 10;
            let plan = pack(g, &s, &mem, 80, &needs);
            for layout in &plan.gpus {
                proptest::prop_assert_eq!(check(g, &s, layout), Ok(()));
            }
            let placed = plan.assignments.iter().filter(|a| matches!(a, Assignment::Instance { .. })).count();
            let fitting = needs.iter().filter(|&&n| n <= 80).count();
            proptest::prop_assert_eq!(placed, fitting);
            let instances: usize = plan.gpus.iter().map(Vec::len).sum();
            proptest::prop_assert_eq!(instances, fitting);
        }
    }
}
