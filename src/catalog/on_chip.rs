//! On-chip memory of the GPUs whose whitepapers give it: register file and combined L1 /
//! shared memory per SM, and the boost clock (for the shared-memory bandwidth estimate in
//! [`crate::engine::perf::on_chip`]). SM count, L2 and HBM come from the GPU catalog. A GPU
//! without an entry here is not offered by the memory-hierarchy figure. Sizes are binary (KiB).

/// On-chip figures of one catalog GPU.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct OnChip {
    /// Catalog id (see [`crate::catalog::gpus`]).
    pub gpu: &'static str,
    pub register_file_bytes_per_sm: u64,
    /// Combined L1 data cache / shared memory per SM.
    pub l1_shared_bytes_per_sm: u64,
    /// Maximum boost clock, Hz.
    pub boost_clock_hz: f64,
    pub source: &'static str,
    pub retrieved: &'static str,
    /// Fields read only in secondary sources.
    pub uncertain: &'static [&'static str],
}

const KIB: u64 = 1024;
const R: &str = "2026-11-30";

static ALL: [OnChip; 5] = [
    OnChip {
        gpu: "h100-sxm",
        register_file_bytes_per_sm: 256 * KIB,
        l1_shared_bytes_per_sm: 256 * KIB,
        boost_clock_hz: 1.98e9,
        source: "NVIDIA H100 Tensor Core GPU Architecture whitepaper (2022) and 'NVIDIA Hopper Architecture In-Depth' (NVIDIA Technical Blog, Mar 2022): 64K 32-bit registers (256 KB) and 256 KB combined L1/shared memory per SM; boost clock 1,980 MHz from nvidia-smi max clocks as reported by secondary sources",
        retrieved: R,
        uncertain: &["boost_clock_hz"],
    },
    OnChip {
        gpu: "h100-pcie",
        register_file_bytes_per_sm: 256 * KIB,
        l1_shared_bytes_per_sm: 256 * KIB,
        boost_clock_hz: 1.755e9,
        source: "NVIDIA H100 Tensor Core GPU Architecture whitepaper (2022): same SM as H100 SXM; max boost clock 1,755 MHz as reported by nvidia-smi (Chips and Cheese, 'Nvidia's H100: Funny L2, and Tons of Bandwidth', Jul 2023)",
        retrieved: R,
        uncertain: &["boost_clock_hz"],
    },
    OnChip {
        gpu: "a100-sxm-80gb",
        register_file_bytes_per_sm: 256 * KIB,
        l1_shared_bytes_per_sm: 192 * KIB,
        boost_clock_hz: 1.41e9,
        source: "NVIDIA A100 Tensor Core GPU Architecture whitepaper (2020) and 'NVIDIA Ampere Architecture In-Depth' (NVIDIA Technical Blog, May 2020): 256 KB register file and 192 KB combined L1/shared memory per SM, boost clock 1,410 MHz",
        retrieved: R,
        uncertain: &[],
    },
    OnChip {
        gpu: "l4",
        register_file_bytes_per_sm: 256 * KIB,
        l1_shared_bytes_per_sm: 128 * KIB,
        boost_clock_hz: 2.04e9,
        source: "NVIDIA Ada GPU Architecture whitepaper (v2.1, 2023): 256 KB register file and 128 KB L1/shared memory per SM; L4 boost clock 2,040 MHz (NVIDIA L4 product brief as reported by secondary sources)",
        retrieved: R,
        uncertain: &["boost_clock_hz"],
    },
    OnChip {
        gpu: "v100-sxm-32gb",
        register_file_bytes_per_sm: 256 * KIB,
        l1_shared_bytes_per_sm: 128 * KIB,
        boost_clock_hz: 1.53e9,
        source: "NVIDIA Tesla V100 GPU Architecture whitepaper WP-08608-001 (2017): 256 KB register file and 128 KB combined L1/shared memory per SM, boost clock 1,530 MHz",
        retrieved: R,
        uncertain: &[],
    },
];

/// Every GPU with sourced on-chip figures, in the order the figure offers them.
pub fn all() -> &'static [OnChip] {
    &ALL
}

/// The on-chip figures of a catalog GPU, if sourced.
pub fn find(gpu: &str) -> Option<&'static OnChip> {
    ALL.iter().find(|o| o.gpu == gpu)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_entry_is_a_catalog_gpu_with_sm_count_and_l2() {
        for o in all() {
            let g = crate::catalog::gpus::find(o.gpu).unwrap_or_else(|| panic!("{} not in catalog", o.gpu));
            assert!(g.sm_count.is_some() && g.l2_bytes.is_some(), "{}", o.gpu);
            assert!(!o.source.is_empty() && !o.retrieved.is_empty());
            assert!(o.boost_clock_hz > 1e9 && o.boost_clock_hz < 3e9);
            assert!(o.l1_shared_bytes_per_sm >= 128 * KIB && o.register_file_bytes_per_sm == 256 * KIB);
        }
        assert_eq!(find("h100-sxm").map(|o| o.l1_shared_bytes_per_sm), Some(256 * KIB));
        assert!(find("mi300x").is_none());
    }
}
