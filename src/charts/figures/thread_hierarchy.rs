//! A kernel launch on the hardware: a grid of blocks, each block scheduled onto one SM (the
//! tone of a block is the tone of its SM), and one block opened up into warps of 32 threads.

use super::draw::{tone, At, Svg, BOX, INK, MUTED};

#[derive(Clone, Debug, Default, PartialEq)]
pub struct ThreadHierarchyFigure {
    pub title: String,
    /// "Grid (8 blocks)"-style heading of the left part.
    pub grid: String,
    /// Name of a block / SM / warp before its number: "Block" / "SM" / "Warp".
    pub block: String,
    pub sm: String,
    pub warp: String,
    /// The line above the warps, e.g. "Block 0: 256 threads = 8 warps × 32 threads".
    pub block_detail: String,
    pub blocks: u32,
    pub sms: u32,
    pub threads_per_block: u32,
    pub warp_size: u32,
}

/// Warps a block of `threads` needs at `warp_size` threads per warp (the last may be partial).
pub fn warps_per_block(threads: u32, warp_size: u32) -> u32 {
    if warp_size == 0 {
        return 0;
    }
    threads.div_ceil(warp_size)
}

/// The SM block `b` lands on when blocks are handed out in turn (the real scheduler is free to
/// choose; round robin is what a fresh, empty GPU roughly does).
pub fn sm_of_block(b: u32, sms: u32) -> u32 {
    if sms == 0 {
        0
    } else {
        b % sms
    }
}

const W: f64 = 440.0;

pub fn thread_hierarchy_svg(f: &ThreadHierarchyFigure) -> String {
    let blocks = f.blocks.clamp(1, 16);
    let sms = f.sms.clamp(1, 8);
    let warps = warps_per_block(f.threads_per_block, f.warp_size).min(16);
    let block_rows = blocks.div_ceil(2);
    let top = (28.0 + f64::from(block_rows) * 32.0).max(28.0 + f64::from(sms) * 38.0);
    let warp_rows = warps.div_ceil(4);
    let h = top + 34.0 + f64::from(warp_rows) * 50.0;
    let mut s = Svg::new(W, h, &f.title);

    s.text(10.0, 18.0, 13.0, At::Start, INK, &f.grid);
    for b in 0..blocks {
        let (x, y) = (10.0 + f64::from(b % 2) * 92.0, 28.0 + f64::from(b / 2) * 32.0);
        s.rect(x, y, 84.0, 26.0, tone(sm_of_block(b, sms) as usize), " fill-opacity=\".25\"");
        s.text(x + 42.0, y + 17.5, 12.0, At::Middle, INK, &format!("{} {b}", f.block));
    }
    let mid = 28.0 + f64::from(block_rows) * 16.0;
    s.arrow(198.0, mid, 236.0, mid);
    for k in 0..sms {
        let y = 28.0 + f64::from(k) * 38.0;
        s.rect(244.0, y, 186.0, 30.0, BOX, "");
        s.text(252.0, y + 19.5, 12.0, At::Start, INK, &format!("{} {k}", f.sm));
        for (j, b) in (0..blocks).filter(|b| sm_of_block(*b, sms) == k).enumerate() {
            let x = 300.0 + j as f64 * 32.0;
            if x + 28.0 > 428.0 {
                break;
            }
            s.rect(x, y + 5.0, 28.0, 20.0, tone(k as usize), " fill-opacity=\".25\"");
            s.text(x + 14.0, y + 19.0, 11.0, At::Middle, INK, &b.to_string());
        }
    }

    s.text(10.0, top + 20.0, 13.0, At::Start, INK, &f.block_detail);
    for w in 0..warps {
        let (x, y) = (10.0 + f64::from(w % 4) * 106.0, top + 32.0 + f64::from(w / 4) * 50.0);
        s.rect(x, y, 100.0, 44.0, BOX, "");
        s.text(x + 6.0, y + 15.0, 11.0, At::Start, MUTED, &format!("{} {w}", f.warp));
        let lanes = f.warp_size.min(32);
        for t in 0..lanes {
            let (tx, ty) = (x + 6.0 + f64::from(t % 16) * 5.6, y + 22.0 + f64::from(t / 16) * 9.0);
            s.rect(tx, ty, 4.0, 7.0, tone(0), "");
        }
    }
    s.finish()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> ThreadHierarchyFigure {
        ThreadHierarchyFigure {
            title: "Grid, blocks, warps".into(),
            grid: "Grid: 8 blocks".into(),
            block: "Block".into(),
            sm: "SM".into(),
            warp: "Warp".into(),
            block_detail: "Block 0: 256 threads = 8 warps × 32 threads".into(),
            blocks: 8,
            sms: 4,
            threads_per_block: 256,
            warp_size: 32,
        }
    }

    #[test]
    fn counts() {
        assert_eq!(warps_per_block(256, 32), 8);
        assert_eq!(warps_per_block(100, 32), 4, "a partial warp still occupies a warp");
        assert_eq!(warps_per_block(1, 0), 0);
        assert_eq!((sm_of_block(5, 4), sm_of_block(3, 0)), (1, 0));
    }

    #[test]
    fn draws_every_block_sm_warp_and_lane() {
        let svg = thread_hierarchy_svg(&sample());
        for b in 0..8 {
            assert!(svg.contains(&format!(">Block {b}<")), "block {b}");
        }
        for k in 0..4 {
            assert!(svg.contains(&format!(">SM {k}<")));
        }
        for w in 0..8 {
            assert!(svg.contains(&format!(">Warp {w}<")));
        }
        // 8 grid blocks + 4 SMs + 8 placed blocks + 8 warps + 8 × 32 lanes.
        assert_eq!(svg.matches("<rect").count(), 8 + 4 + 8 + 8 + 256);
        assert!(!svg.contains("NaN"));
    }
}
