//! Ring all-reduce step by step (Patarasuk & Yuan 2009; NCCL's ring): each of `n` GPUs splits
//! its buffer into `n` chunks. In each of the `n − 1` reduce-scatter steps every GPU sends one
//! chunk to its right neighbour, which adds it to its own; then every GPU owns one fully summed
//! chunk. In each of the `n − 1` all-gather steps every GPU forwards a finished chunk, which the
//! neighbour copies. Each GPU thus sends `2(n − 1)` chunks of `S / n` bytes.

use super::draw::{tone, wrap, At, Svg, BOX, INK, MUTED};

/// One transfer of a step: GPU `from` sends chunk `chunk` to GPU `to` (= from + 1 mod n).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Send {
    pub from: usize,
    pub to: usize,
    pub chunk: usize,
}

/// The last step: `2(n − 1)` (0 is the starting state).
pub fn last_step(n: usize) -> usize {
    2 * n.saturating_sub(1)
}

/// Whether step `step` (1-based) is a reduce-scatter step (else all-gather).
pub fn is_reduce_scatter(n: usize, step: usize) -> bool {
    step < n
}

/// The transfers of step `step` (1 ..= `last_step(n)`); none for step 0 or past the end.
pub fn sends(n: usize, step: usize) -> Vec<Send> {
    if n < 2 || step == 0 || step > last_step(n) {
        return Vec::new();
    }
    (0..n)
        .map(|from| {
            // Reduce-scatter step s sends chunk (i − s + 1); all-gather step t sends (i − t + 2).
            let shift = if is_reduce_scatter(n, step) { step - 1 } else { step - n };
            let chunk = (from + n * 2 - shift % n) % n;
            let chunk = if is_reduce_scatter(n, step) { chunk } else { (chunk + 1) % n };
            Send { from, to: (from + 1) % n, chunk }
        })
        .collect()
}

/// After `step` steps: for each GPU and chunk, how many GPUs' values that chunk holds (1 ..= n).
pub fn state(n: usize, step: usize) -> Vec<Vec<usize>> {
    let mut counts = vec![vec![1; n]; n];
    for s in 1..=step.min(last_step(n)) {
        let before = counts.clone();
        for Send { from, to, chunk } in sends(n, s) {
            let sent = before.get(from).and_then(|r| r.get(chunk)).copied().unwrap_or(0);
            if let Some(cell) = counts.get_mut(to).and_then(|r| r.get_mut(chunk)) {
                *cell = if is_reduce_scatter(n, s) { *cell + sent } else { sent };
            }
        }
    }
    counts
}

#[derive(Clone, Debug, Default, PartialEq)]
pub struct RingFigure {
    pub title: String,
    /// "GPU" (before each GPU's number).
    pub gpu: String,
    /// What the step shown does, e.g. "Step 2 of 6 · reduce-scatter: …".
    pub status: String,
    /// What a cell's shade means.
    pub legend: String,
    pub n: usize,
    pub step: usize,
}

const W: f64 = 440.0;
const BW: f64 = 150.0;
const BH: f64 = 58.0;
/// Vertical centre of the ring.
const CY: f64 = 160.0;

/// (cos, sin) of one turn / n for n = 2..=8: a table instead of `f64::cos`, which would add
/// libm's trigonometry to the wasm for this one figure.
const TURN: [(f64, f64); 7] = [
    (-1.0, 0.0),
    (-0.5, 0.866_025_403_784_438_6),
    (0.0, 1.0),
    (0.309_016_994_374_947_4, 0.951_056_516_295_153_5),
    (0.5, 0.866_025_403_784_438_6),
    (0.623_489_801_858_733_5, 0.781_831_482_468_029_8),
    (std::f64::consts::FRAC_1_SQRT_2, std::f64::consts::FRAC_1_SQRT_2),
];

/// Centre of GPU `i` of `n` (2..=8) on the ring, GPU 0 at the top, clockwise.
fn centre(i: usize, n: usize) -> (f64, f64) {
    let (c, s) = TURN.get(n.wrapping_sub(2)).copied().unwrap_or((0.0, 1.0));
    let (mut x, mut y) = (0.0, -1.0);
    for _ in 0..i {
        (x, y) = (x * c - y * s, x * s + y * c);
    }
    (W / 2.0 + 140.0 * x, CY + 118.0 * y)
}

/// Where the segment from the centre of a box towards (dx, dy) leaves the box.
fn edge(c: (f64, f64), dx: f64, dy: f64) -> (f64, f64) {
    let t = ((BW / 2.0 + 6.0) / dx.abs().max(1e-9)).min((BH / 2.0 + 6.0) / dy.abs().max(1e-9));
    (c.0 + dx * t, c.1 + dy * t)
}

pub fn ring_allreduce_svg(f: &RingFigure) -> String {
    let n = f.n.clamp(2, 8);
    let step = f.step.min(last_step(n));
    let counts = state(n, step);
    let status = wrap(&f.status, 13.0, W - 24.0);
    let legend = wrap(&f.legend, 11.5, W - 24.0);
    let below = 340.0 + 16.25 * status.len() as f64;
    let h = below + 14.4 * legend.len() as f64 + 8.0;
    let mut s = Svg::new(W, h, &f.title);
    for send in sends(n, step) {
        let (a, b) = (centre(send.from, n), centre(send.to, n));
        let (dx, dy) = (b.0 - a.0, b.1 - a.1);
        let p = edge(a, dx, dy);
        let q = edge(b, -dx, -dy);
        s.arrow(p.0, p.1, q.0, q.1);
        // The chunk in flight, beside the middle of the arrow, away from the ring's centre.
        let (mx, my) = ((p.0 + q.0) / 2.0, (p.1 + q.1) / 2.0);
        let (ox, oy) = (mx - W / 2.0, my - CY);
        let len = (ox * ox + oy * oy).sqrt().max(1e-9);
        let (cx, cy) = (mx + ox / len * 16.0, my + oy / len * 16.0);
        s.rect(cx - 11.0, cy - 10.0, 22.0, 20.0, tone(send.chunk), "");
        s.text(cx, cy + 4.5, 12.0, At::Middle, INK, &(send.chunk + 1).to_string());
    }
    let cell = (BW - 12.0) / n as f64;
    for (i, row) in counts.iter().enumerate() {
        let (cx, cy) = centre(i, n);
        let (x, y) = (cx - BW / 2.0, cy - BH / 2.0);
        s.rect(x, y, BW, BH, BOX, "");
        s.text(x + 6.0, y + 15.0, 12.0, At::Start, INK, &format!("{} {}", f.gpu, i + 1));
        for (c, count) in row.iter().enumerate() {
            let opacity = 0.12 + 0.88 * (*count as f64) / (n as f64);
            let cxs = x + 6.0 + c as f64 * cell;
            s.rect(cxs, y + 22.0, cell - 3.0, 30.0, tone(c), &format!(" fill-opacity=\"{opacity:.2}\""));
            s.text(cxs + (cell - 3.0) / 2.0, y + 41.5, 11.0, At::Middle, INK, &format!("{count}/{n}"));
        }
    }
    s.lines(10.0, 336.0, 13.0, At::Start, INK, &status);
    s.lines(10.0, below + 6.0, 11.5, At::Start, MUTED, &legend);
    s.finish()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reduce_scatter_then_all_gather_sums_everything() {
        for n in 2..=8 {
            let rs = state(n, n - 1);
            for (i, row) in rs.iter().enumerate() {
                // After reduce-scatter GPU i owns chunk i + 1 (mod n), fully summed.
                assert_eq!(row[(i + 1) % n], n, "n={n} gpu={i} {row:?}");
                assert_eq!(row.iter().filter(|c| **c == n).count(), 1, "n={n} {rs:?}");
            }
            assert!(state(n, last_step(n)).iter().all(|r| r.iter().all(|c| *c == n)), "n={n}");
        }
    }

    #[test]
    fn every_gpu_sends_one_chunk_per_step_and_2n_minus_2_in_all() {
        let n = 4;
        assert_eq!(last_step(n), 6);
        let mut sent = vec![0; n];
        for step in 1..=last_step(n) {
            let s = sends(n, step);
            assert_eq!(s.len(), n);
            for x in &s {
                assert_eq!(x.to, (x.from + 1) % n);
                sent[x.from] += 1;
            }
        }
        assert_eq!(sent, vec![6; 4]);
        // Step 1: GPU i sends its own chunk i; all-gather's first step forwards the finished chunk.
        assert_eq!(sends(4, 1)[2], Send { from: 2, to: 3, chunk: 2 });
        assert_eq!(sends(4, 4)[2], Send { from: 2, to: 3, chunk: 3 });
        assert!(sends(4, 0).is_empty() && sends(4, 7).is_empty() && sends(1, 1).is_empty());
    }

    #[test]
    fn gpus_sit_evenly_on_the_ring() {
        for n in 2..=8 {
            for i in 0..n {
                let a = -std::f64::consts::FRAC_PI_2 + std::f64::consts::TAU * i as f64 / n as f64;
                let (x, y) = centre(i, n);
                assert!((x - (W / 2.0 + 140.0 * a.cos())).abs() < 1e-6, "n={n} i={i}");
                assert!((y - (CY + 118.0 * a.sin())).abs() < 1e-6, "n={n} i={i}");
            }
        }
    }

    #[test]
    fn the_picture_follows_the_step() {
        let f = |step| RingFigure {
            title: "Ring all-reduce".into(),
            gpu: "GPU".into(),
            status: format!("Step {step}"),
            legend: "shade = values summed".into(),
            n: 4,
            step,
        };
        let start = ring_allreduce_svg(&f(0));
        assert_eq!(start.matches(">1/4<").count(), 16);
        assert!(!start.contains("fig-head"), "no transfers before the first step");
        let end = ring_allreduce_svg(&f(6));
        assert_eq!(end.matches(">4/4<").count(), 16);
        assert_eq!(end.matches("fig-head").count(), 4);
        assert_ne!(ring_allreduce_svg(&f(2)), ring_allreduce_svg(&f(3)));
        assert!(!end.contains("NaN"));
    }
}
