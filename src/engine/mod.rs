//! The pure engine: no web or UI dependency, no panics on any input.
//!
//! `Scenario` → [`evaluate`] → `Report`. Sizing lives in [`model`] (architecture, parameter
//! counts, KV cache), [`memory`] (per-GPU memory by component) and [`solvers`]; time lives in
//! [`perf`] (roofline, collectives, phases, timing, scaling, serving).

pub mod error;
pub mod evaluate;
pub mod fit;
pub mod hardware;
pub mod memory;
pub mod model;
pub mod perf;
pub mod perf_report;
pub mod performance;
pub mod precision;
pub mod report;
pub mod scenario;
pub mod solvers;
pub mod validation;

pub use error::{EngineError, ScenarioError};
pub use evaluate::evaluate;
pub use report::{Derivation, Report};
pub use scenario::{ModelSpec, Scenario};
