//! The pure engine: no web or UI dependency, no panics on any input.
//!
//! `Scenario` → [`evaluate`] → `Report`. Sizing lives in [`model`] (architecture, parameter
//! counts, KV cache), [`memory`] (per-GPU memory by component) and [`solvers`]; time lives in
//! [`perf`] (roofline, collectives, phases, timing, scaling, serving).

pub mod error;
pub mod evaluate;
pub mod gpu;
pub mod hardware;
pub mod lookup;
pub mod memory;
pub mod model;
pub mod perf;
pub mod precision;
pub mod report;
pub mod scenario;
pub mod solvers;

pub use error::{EngineError, ScenarioError};
pub use evaluate::evaluate_with;
pub use lookup::Lookup;
pub use report::{Derivation, Report};
pub use scenario::{ModelSpec, Scenario};
