//! A MIG layout on one GPU: the compute slices (top row) and memory slices (bottom row), with
//! each GPU instance drawn over the slices it takes, placed left to right.

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

/// Where each instance starts (compute slice, memory slice) when placed left to right, or
/// `None` when the layout needs more slices than the GPU has.
pub fn place(instances: &[MigInstance], compute: u32, memory: u32) -> Option<Vec<(u32, u32)>> {
    let (mut c, mut m) = (0u32, 0u32);
    let mut out = Vec::new();
    for i in instances {
        out.push((c, m));
        c = c.checked_add(i.compute_slices)?;
        m = m.checked_add(i.memory_slices)?;
    }
    (c <= compute && m <= memory).then_some(out)
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
    let Some(starts) = place(&f.instances, compute, memory) else {
        s.text(W / 2.0, 178.0, 12.0, At::Middle, INK, &f.unused);
        return s.finish();
    };
    for (i, (inst, (c0, m0))) in f.instances.iter().zip(starts).enumerate() {
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

    fn inst(name: &str, c: u32, m: u32) -> MigInstance {
        MigInstance {
            name: name.into(),
            compute_slices: c,
            memory_slices: m,
            memory: format!("{} GB", m * 10),
        }
    }

    #[test]
    fn placement_is_left_to_right_and_checked() {
        let layout =
            [inst("3g.40gb", 3, 4), inst("2g.20gb", 2, 2), inst("1g.10gb", 1, 1), inst("1g.10gb", 1, 1)];
        assert_eq!(place(&layout, 7, 8), Some(vec![(0, 0), (3, 4), (5, 6), (6, 7)]));
        assert_eq!(
            place(&[inst("4g.40gb", 4, 4), inst("4g.40gb", 4, 4)], 7, 8),
            None,
            "8 compute slices > 7"
        );
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
                inst("3g.40gb", 3, 4),
                inst("2g.20gb", 2, 2),
                inst("1g.10gb", 1, 1),
                inst("1g.10gb", 1, 1),
            ],
        };
        let svg = mig_slices_svg(&f);
        assert_eq!(svg.matches(">1g.10gb<").count(), 2);
        assert!(svg.contains(">3g.40gb<") && svg.contains(">2g.20gb<"));
        assert!(svg.contains(">40 GB<") && svg.contains(">20 GB<"));
        // 7 + 8 slices and two boxes per instance.
        assert_eq!(svg.matches("<rect").count(), 15 + 8);
        assert!(!svg.contains("unused slices"), "this layout uses every slice");
        let partial = MigFigure { instances: vec![inst("3g.40gb", 3, 4)], ..f };
        assert!(mig_slices_svg(&partial).contains("unused slices"));
    }
}
