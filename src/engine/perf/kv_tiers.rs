//! KV cache tiers: where a reused prefix's cache lives when the GPU cannot keep them all, and
//! whether restoring it beats computing it again.
//!
//! vLLM's KV offloading connector (`--kv-offloading-backend native`, a CPU tier), LMCache (CPU
//! memory, local disk, remote stores) and NVIDIA Dynamo's KV block manager (G1 GPU, G2 host
//! memory, G3 local SSD) copy every computed block down to the next tier as it is written, so
//! each tier holds what the one above holds and more (inclusive, write-through), and a prompt
//! whose prefix the GPU has evicted is looked up in the tiers below before it is recomputed.
//!
//! # Formula
//!
//! The working set is what the reuse refers to, per GPU: `W = n · kv(prompt + output − s_B)`
//! for `n` open sessions (conversations or agent runs whose next turn will resend their history;
//! each keeps its last request's prompt and answer, the shared prefix's `s_B` block tokens once,
//! `memory::prefix`), `kv(t)` one sequence's cache for `t` tokens on this GPU. Requests reuse
//! the sessions alike, and under uniform reuse an LRU cache of `C` bytes over `W` serves
//! `min(1, C/W)` of the hits (the independent reference model with equal probabilities: Fagin,
//! "Asymptotic miss ratios over independent references", JCSS 1977; Che et al., JSAC 2002).
//! With inclusive tiers the GPU's free KV pool `C_g` (what the running sequences leave of the
//! usable memory) serves `r_g = min(1, C_g/W)`, the CPU tier `r_c − r_g` with
//! `r_c = max(r_g, min(1, C_c/W))`, the SSD tier `r_s − r_c`, and `1 − r_s` is gone: recomputed.
//!
//! A session's history `h = cached − s_B` tokens sits whole in one tier (its blocks are used
//! together, so LRU evicts them together). Restoring it from tier `t` for the batch's `b`
//! prompts takes `b · (⌈h/B⌉ · t_copy + kv(h) / (B_t · e_t))`, one copy per block of `B`
//! tokens ([`COPY_OVERHEAD_S`]); it is chosen only when that is shorter than
//! recomputing those tokens, `prefill(s_B) − prefill(s_B + h)` (the prefill with only the shared
//! prefix cached less the prefill with the whole history cached). The report's request is the
//! mean over the tiers: `cached = s_B + h · (r_g + Σ_restored share_t)`, and its time to first
//! token adds `Σ_restored share_t · restore_t` to the prefill of the rest.
//!
//! Not expressed: loading layer by layer while earlier layers compute (LMCache's layerwise
//! mode; the restore is added to the prefill, an upper bound on its cost); the PCIe link shared
//! by restores of several requests at once (each restore runs at the link's full share); skewed
//! reuse (a few hot sessions make LRU serve more than `C/W`).

use serde::Serialize;

/// Read rate of the SSD tier per GPU, bytes/s, when the scenario does not give one: one PCIe
/// 4.0 ×4 data-centre NVMe drive per GPU, as in a DGX H100 (eight 3.84 TB U.2 drives for eight
/// GPUs, NVIDIA DGX H100 datasheet), each reading about 7 GB/s sequentially (Samsung PM1733
/// datasheet: 7,000 MB/s).
pub const DEFAULT_SSD_BYTES_PER_S: f64 = 7.0e9;
/// Share of its sequential peak an SSD tier reaches on the cache's chunks: the chunks are
/// megabytes (LMCache's 256-token chunks), read in large requests; PegaFlow measured 6.5-6.6
/// GB/s online from drives whose peak read is 6.9 (vLLM blog "vLLM x Novita AI: PegaFlow",
/// 2026-05-18): 0.95; 0.8 leaves room for the file system.
pub const SSD_READ_SHARE: f64 = 0.8;
/// Fixed cost of one host-to-GPU copy (`cudaMemcpyAsync` on a copy engine): fitted to the copy
/// rate against block size that vLLM measured on an H100 (4 KB: 1.1 GB/s … 2 MB: 47.7 GB/s,
/// 16 MB: 51.2 GB/s; `t = a + size / B` gives a ≈ 3.6 µs, B ≈ 51.5 GB/s: vLLM blog "Inside
/// vLLM's New KV Offloading Connector", 2026-01-08, Fig. 4). vLLM (from 0.12) copies one block
/// of all layers at a time, `kv_block_tokens` tokens.
pub const COPY_OVERHEAD_S: f64 = 3.6e-6;

/// A tier's size and read rate, per GPU.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Tier {
    pub capacity_bytes: f64,
    /// Peak read rate into the GPU, bytes/s.
    pub bytes_per_s: f64,
    /// Share of the peak a restore reaches.
    pub share: f64,
    /// Fixed seconds per copy (a block).
    pub per_copy_s: f64,
}

/// What the tiers are asked, per GPU of one replica.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TierInputs {
    /// Open sessions whose histories are kept for reuse, per replica.
    pub sessions: u64,
    /// One session's stored cache on this GPU, bytes (`kv(prompt + output − s_B)`).
    pub session_bytes: f64,
    /// The GPU's KV pool beyond the running sequences, bytes.
    pub gpu_room_bytes: f64,
    pub cpu: Option<Tier>,
    pub ssd: Option<Tier>,
    /// Prompts prefilled together (the scenario's batch).
    pub batch: f64,
    /// Cached tokens per request beyond the shared prefix's blocks, `h`.
    pub history_tokens: u64,
    /// The cache of `h` tokens of one sequence on this GPU, bytes.
    pub history_bytes: f64,
    /// Copies restoring it takes: its blocks, `⌈h / B⌉`.
    pub copies: f64,
    /// Seconds recomputing the history takes instead of finding it cached, for the batch.
    pub recompute_s: f64,
}

/// One tier below the GPU, as used.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct TierUse {
    pub capacity_bytes: f64,
    pub bytes_per_s: f64,
    /// The share of `bytes_per_s` a restore reaches, and the fixed seconds per block copy.
    pub read_share: f64,
    pub per_copy_s: f64,
    /// Share of the reused histories this tier holds and the GPU does not.
    pub share: f64,
    /// Restoring one history for each of the batch's prompts, seconds:
    /// `b · (⌈h/B⌉ · t_copy + kv(h) / (B_t · e_t))`.
    pub restore_s: f64,
    /// Whether restoring is chosen (shorter than recomputing).
    pub restored: bool,
}

/// Where the reused histories are served from, and what that costs.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct KvTierReport {
    pub sessions: u64,
    /// The working set `W`, bytes per GPU.
    pub working_set_bytes: f64,
    /// The GPU's KV pool beyond the running sequences, bytes.
    pub gpu_room_bytes: f64,
    /// Share of the histories the GPU still holds.
    pub gpu_share: f64,
    pub cpu: Option<TierUse>,
    pub ssd: Option<TierUse>,
    /// Share recomputed: in no tier, or in a tier slower than recomputing.
    pub recomputed_share: f64,
    /// History tokens per request (beyond the shared prefix).
    pub history_tokens: u64,
    /// Their cache on this GPU, bytes, and the block copies restoring it takes.
    pub history_bytes: f64,
    pub copies: f64,
    /// Recomputing one history for each of the batch's prompts, seconds.
    pub recompute_s: f64,
    /// Mean cached tokens per request beyond the shared prefix: `h · (r_g + Σ_restored share)`.
    pub kept_history_tokens: f64,
    /// Mean restore time added to the prefill: `Σ_restored share_t · restore_t`.
    pub restore_s: f64,
}

/// `min(1, C/W)`: the share of uniform reuse an LRU cache of `capacity` serves.
pub fn reach(capacity: f64, working_set: f64) -> f64 {
    if working_set <= 0.0 {
        return 1.0;
    }
    (capacity.max(0.0) / working_set).min(1.0)
}

/// Which tier serves what share, and the mean restore ([`KvTierReport`]).
pub fn plan(x: &TierInputs) -> KvTierReport {
    let w = x.sessions as f64 * x.session_bytes;
    let r_g = reach(x.gpu_room_bytes, w);
    let mut above = r_g;
    let mut tier = |t: Option<Tier>| {
        t.map(|t| {
            let r = above.max(reach(t.capacity_bytes, w));
            let share = r - above;
            above = r;
            let restore_s =
                x.batch * (x.copies * t.per_copy_s + x.history_bytes / (t.bytes_per_s * t.share).max(1.0));
            TierUse {
                capacity_bytes: t.capacity_bytes,
                bytes_per_s: t.bytes_per_s,
                read_share: t.share,
                per_copy_s: t.per_copy_s,
                share,
                restore_s,
                restored: share > 0.0 && restore_s < x.recompute_s,
            }
        })
    };
    let (cpu, ssd) = (tier(x.cpu), tier(x.ssd));
    let restored = |u: &Option<TierUse>| u.filter(|u| u.restored).map_or(0.0, |u| u.share);
    let cost = |u: &Option<TierUse>| u.filter(|u| u.restored).map_or(0.0, |u| u.share * u.restore_s);
    let kept = r_g + restored(&cpu) + restored(&ssd);
    KvTierReport {
        sessions: x.sessions,
        working_set_bytes: w,
        gpu_room_bytes: x.gpu_room_bytes,
        gpu_share: r_g,
        cpu,
        ssd,
        recomputed_share: (1.0 - kept).max(0.0),
        history_tokens: x.history_tokens,
        history_bytes: x.history_bytes,
        copies: x.copies,
        recompute_s: x.recompute_s,
        kept_history_tokens: x.history_tokens as f64 * kept,
        restore_s: cost(&cpu) + cost(&ssd),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn inputs() -> TierInputs {
        // 400 sessions of 1 GB each on a GPU with 40 GB free: W = 400 GB, the GPU keeps 10%.
        TierInputs {
            sessions: 400,
            session_bytes: 1e9,
            gpu_room_bytes: 40e9,
            cpu: Some(Tier { capacity_bytes: 200e9, bytes_per_s: 64e9, share: 0.8, per_copy_s: 0.0 }),
            ssd: Some(Tier { capacity_bytes: 1e12, bytes_per_s: 7e9, share: 0.8, per_copy_s: 0.0 }),
            batch: 1.0,
            history_tokens: 7000,
            history_bytes: 0.875e9,
            copies: 438.0,
            recompute_s: 0.6,
        }
    }

    #[test]
    fn inclusive_tiers_by_hand() {
        let r = plan(&inputs());
        // GPU 40/400 = 0.1; CPU min(1, 200/400) = 0.5 → 0.4 more; SSD min(1, 1000/400) = 1 → 0.5.
        assert!((r.gpu_share - 0.1).abs() < 1e-12);
        let (cpu, ssd) = (r.cpu.unwrap(), r.ssd.unwrap());
        assert!((cpu.share - 0.4).abs() < 1e-12 && (ssd.share - 0.5).abs() < 1e-12);
        // CPU: 0.875 GB / (64 GB/s × 0.8) = 17.1 ms < 0.6 s: restored. SSD: 0.875 / 5.6 = 156 ms.
        assert!((cpu.restore_s - 0.875 / 51.2).abs() < 1e-12 && cpu.restored);
        assert!((ssd.restore_s - 0.875 / 5.6).abs() < 1e-12 && ssd.restored);
        assert!(r.recomputed_share.abs() < 1e-12);
        assert!((r.kept_history_tokens - 7000.0).abs() < 1e-9);
        assert!((r.restore_s - (0.4 * 0.875 / 51.2 + 0.5 * 0.875 / 5.6)).abs() < 1e-12);
    }

    #[test]
    fn each_block_copy_costs_its_overhead() {
        // 438 copies × 3.6 µs = 1.58 ms on top of 17.1 ms.
        let cpu = Tier { per_copy_s: COPY_OVERHEAD_S, ..inputs().cpu.unwrap() };
        let r = plan(&TierInputs { cpu: Some(cpu), ..inputs() });
        assert!((r.cpu.unwrap().restore_s - (438.0 * 3.6e-6 + 0.875 / 51.2)).abs() < 1e-12);
    }

    #[test]
    fn a_tier_slower_than_recomputing_is_not_used() {
        let r = plan(&TierInputs { recompute_s: 0.1, ..inputs() });
        let ssd = r.ssd.unwrap();
        assert!(!ssd.restored && r.cpu.unwrap().restored);
        assert!((r.recomputed_share - 0.5).abs() < 1e-12);
        assert!((r.kept_history_tokens - 3500.0).abs() < 1e-9);
    }

    #[test]
    fn a_working_set_that_fits_the_gpu_needs_no_tier() {
        let r = plan(&TierInputs { sessions: 30, ..inputs() });
        assert_eq!(r.gpu_share, 1.0);
        assert_eq!((r.cpu.unwrap().share, r.ssd.unwrap().share, r.restore_s), (0.0, 0.0, 0.0));
        // A CPU tier smaller than the GPU's room adds nothing (it holds the same blocks).
        let r = plan(&TierInputs {
            cpu: Some(Tier { capacity_bytes: 10e9, ..inputs().cpu.unwrap() }),
            ..inputs()
        });
        assert_eq!(r.cpu.unwrap().share, 0.0);
    }

    #[test]
    fn shares_sum_to_one_and_more_capacity_never_recomputes_more() {
        let mut last = f64::INFINITY;
        for c in [0.0, 10e9, 50e9, 100e9, 300e9, 1e12] {
            let r = plan(&TierInputs {
                cpu: Some(Tier { capacity_bytes: c, ..inputs().cpu.unwrap() }),
                ssd: None,
                ..inputs()
            });
            let cpu = r.cpu.unwrap();
            assert!((r.gpu_share + cpu.share + r.recomputed_share - 1.0).abs() < 1e-12);
            assert!(r.recomputed_share <= last);
            last = r.recomputed_share;
        }
    }
}
