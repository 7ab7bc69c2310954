//! The pure engine: no web or UI dependency, no panics on any input.
//!
//! `Scenario` → [`evaluate`] → `Report`. Sizing lives in [`model`] (architecture, parameter
//! counts, KV cache), [`memory`] (per-GPU memory by component) and [`solvers`]; time lives in
//! [`perf`] (roofline, collectives, phases, timing, scaling, serving).

#![deny(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::indexing_slicing,
    clippy::cast_possible_truncation,
    clippy::cast_sign_loss,
    clippy::cast_possible_wrap
)]
#![cfg_attr(
    test,
    allow(
        clippy::unwrap_used,
        clippy::expect_used,
        clippy::panic,
        clippy::indexing_slicing,
        clippy::cast_possible_truncation,
        clippy::cast_sign_loss,
        clippy::cast_possible_wrap
    )
)]

pub mod assumption;
pub mod derivation;
pub mod error;
pub mod evaluate;
pub mod gpu;
pub mod hardware;
pub mod lookup;
pub mod memory;
pub mod model;
pub mod num;
pub mod perf;
pub mod precision;
pub mod report;
pub mod scenario;
pub mod solvers;

pub use assumption::Assumption;
pub use derivation::{DerivKey, Derivation, Formula, Source, Val};
pub use error::{EngineError, ScenarioError};
pub use evaluate::evaluate_with;
pub use lookup::Lookup;
pub use report::Report;
pub use scenario::{ModelSpec, Scenario};
