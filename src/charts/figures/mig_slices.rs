//! A MIG layout on one GPU: the compute slices (top row) and memory slices (bottom row), with
//! each GPU instance drawn over the slices it takes. Instances sit where the caller placed them
//! (`engine::mig` checks placements against the MIG User Guide's rules): compute slice *i* is
//! beside memory slice *i*, so an instance starting at memory slice *s* takes compute slices from
//! *s* on.

use super::draw::{tone, At, Svg, BOX, INK, MUTED};

/// One GPU instance of the layout.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct MigInstance {
    /// Profile name, e.g. `3g.40gb`.
    pub name: String,
    pub compute_slices: u32,
    pub memory_slices: u32,
    /// Its memory as the caller words it, e.g. "40 GB".
    pub memory: String,
    /// The memory slice it starts at (its compute slices start at the same index).
    pub start: u32,
}

#[derive(Clone, Debug, Default, PartialEq)]
pub struct MigFigure {
    pub title: String,
    pub compute_label: String,
    pub memory_label: String,
    /// Shown over slices no instance uses.
    pub unused: String,
    pub compute_slices: u32,
    pub memory_slices: u32,
    pub instances: Vec<MigInstance>,
}

/// Whether every instance lies inside the GPU's slices (memory `[start, start + memory)`,
/// compute `[start, start + compute)`); overlaps are the caller's to rule out.
pub fn inside(instances: &[MigInstance], compute: u32, memory: u32) -> bool {
    instances.iter().all(|i| {
        i.start.checked_add(i.memory_slices).is_some_and(|e| e <= memory)
            && i.start.checked_add(i.compute_slices).is_some_and(|e| e <= compute)
    })
}

const W: f64 = 440.0;
const X0: f64 = 10.0;
const SPAN: f64 = 420.0;

pub fn mig_slices_svg(f: &MigFigure) -> String {
    let (compute, memory) = (f.compute_slices.clamp(1, 16), f.memory_slices.clamp(1, 16));
    let used = f.instances.iter().fold((0u32, 0u32), |(c, m), i| {
        (c.saturating_add(i.compute_slices), m.saturating_add(i.memory_slices))
    });
    let full = used == (compute, memory);
    let mut s = Svg::new(W, if full { 156.0 } else { 180.0 }, &f.title);
    let cw = SPAN / f64::from(compute);
    let mw = SPAN / f64::from(memory);
    s.text(X0, 16.0, 12.0, At::Start, MUTED, &f.compute_label);
    s.text(X0, 96.0, 12.0, At::Start, MUTED, &f.memory_label);
    for k in 0..compute {
        s.rect(X0 + f64::from(k) * cw + 1.0, 24.0, cw - 2.0, 44.0, BOX, "");
    }
    for k in 0..memory {
        s.rect(X0 + f64::from(k) * mw + 1.0, 104.0, mw - 2.0, 44.0, BOX, "");
    }
    if !inside(&f.instances, compute, memory) {
        s.text(W / 2.0, 178.0, 12.0, At::Middle, INK, &f.unused);
        return s.finish();
    }
    for (i, inst) in f.instances.iter().enumerate() {
        let (c0, m0) = (inst.start, inst.start);
        let class = tone(i);
        let (cx, cwid) = (X0 + f64::from(c0) * cw, f64::from(inst.compute_slices) * cw);
        let (mx, mwid) = (X0 + f64::from(m0) * mw, f64::from(inst.memory_slices) * mw);
        s.rect(cx + 2.0, 26.0, cwid - 4.0, 40.0, class, " fill-opacity=\".35\"");
        s.rect(mx + 2.0, 106.0, mwid - 4.0, 40.0, class, " fill-opacity=\".35\"");
        s.text(cx + cwid / 2.0, 51.0, 12.0, At::Middle, INK, &inst.name);
        s.text(mx + mwid / 2.0, 131.0, 11.0, At::Middle, INK, &inst.memory);
    }
    let (used_c, used_m): (u32, u32) =
        f.instances.iter().fold((0, 0), |(c, m), i| (c + i.compute_slices, m + i.memory_slices));
    if used_c < compute || used_m < memory {
        s.text(W / 2.0, 176.0, 12.0, At::Middle, MUTED, &f.unused);
    }
    s.finish()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn inst(name: &str, c: u32, m: u32, start: u32) -> MigInstance {
        MigInstance {
            name: name.into(),
            compute_slices: c,
            memory_slices: m,
            memory: format!("{} GB", m * 10),
            start,
        }
    }

    #[test]
    fn instances_must_lie_inside_the_slices() {
        // The guide's 3-2-1-1 placement: 1g@0, 1g@1, 2g@2, 3g@4.
        let layout = [
            inst("3g.40gb", 3, 4, 4),
            inst("2g.20gb", 2, 2, 2),
            inst("1g.10gb", 1, 1, 0),
            inst("1g.10gb", 1, 1, 1),
        ];
        assert!(inside(&layout, 7, 8));
        // 1g at memory slice 7 has no compute slice beside it.
        assert!(!inside(&[inst("1g.10gb", 1, 1, 7)], 7, 8));
        assert!(!inside(&[inst("4g.40gb", 4, 4, 4)], 7, 8));
    }

    #[test]
    fn draws_each_instance_over_its_slices() {
        let f = MigFigure {
            title: "MIG on H100 80GB".into(),
            compute_label: "Compute slices".into(),
            memory_label: "Memory slices".into(),
            unused: "unused slices".into(),
            compute_slices: 7,
            memory_slices: 8,
            instances: vec![
                inst("3g.40gb", 3, 4, 4),
                inst("2g.20gb", 2, 2, 2),
                inst("1g.10gb", 1, 1, 0),
                inst("1g.10gb", 1, 1, 1),
            ],
        };
        let svg = mig_slices_svg(&f);
        assert_eq!(svg.matches(">1g.10gb<").count(), 2);
        assert!(svg.contains(">3g.40gb<") && svg.contains(">2g.20gb<"));
        assert!(svg.contains(">40 GB<") && svg.contains(">20 GB<"));
        // 7 + 8 slices and two boxes per instance.
        assert_eq!(svg.matches("<rect").count(), 15 + 8);
        assert!(!svg.contains("unused slices"), "this layout uses every slice");
        // The 3g instance at memory slice 4 is drawn over compute slices 4-6, memory 4-7.
        let x = |k: f64| X0 + k * SPAN / 8.0 + 2.0;
        assert!(svg.contains(&format!("x=\"{:.1}\"", x(4.0))), "{svg}");
        let partial = MigFigure { instances: vec![inst("3g.40gb", 3, 4, 0)], ..f };
        assert!(mig_slices_svg(&partial).contains("unused slices"));
    }
}
