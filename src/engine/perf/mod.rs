//! Performance model: the article's bound `T = max(W/F, Q/B, C/N) + T_overhead` per phase,
//! with a roofline upper bound (peak figures, no overheads) and an expected value (efficiency
//! factors and latencies). The formulas are pure functions on plain numbers; [`performance`] maps a
//! sized Scenario onto them and [`report`] holds the time half of the Report.

pub mod collectives;
pub mod custom_all_reduce;
pub mod kernels;
pub mod kv_tiers;
pub mod load;
pub mod moe;
pub mod offload;
pub mod on_chip;
pub mod performance;
pub mod phases;
pub mod report;
pub mod roofline;
pub mod scaling;
pub mod serving;
pub mod speculative;
pub mod timing;
pub mod training;

#[cfg(test)]
mod proptests;
