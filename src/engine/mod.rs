//! The pure engine: no web or UI dependency, no panics on any input, no language.
//!
//! `Scenario` → [`evaluate_with`] (with a [`Lookup`] for catalog ids) → `Report`. Sizing lives
//! in [`model`] (architecture, parameter counts, KV cache), [`memory`] (per-GPU memory by
//! component) and [`solvers`]; time lives in [`perf`] (roofline, collectives, phases, timing,
//! scaling, serving). The engine owns the types it computes with ([`gpu`], [`links::Link`],
//! [`model::Architecture`]) and imports nothing above it: the catalog is data of these types and
//! implements [`Lookup`]; `tests/architecture.rs` keeps it that way.
//!
//! What the report says in words is typed: derivations ([`derivation`]: key, formula, values,
//! source), assumptions ([`assumption`]) and errors ([`error::ErrorKind`]); `i18n` words them
//! in Chinese and English.
//!
//! ```
//! use gpu_primer::engine::{ModelSpec, Scenario};
//! let s = Scenario::new(ModelSpec::Id("llama-3.1-8b".into()));
//! let r = gpu_primer::catalog::evaluate(&s).expect("the default scenario evaluates");
//! assert_eq!(r.kv_cache_bytes_per_token, 131_072);
//! ```

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

pub mod allreduce;
pub mod assumption;
pub mod bound;
pub mod checked;
pub mod closest;
pub mod cloud;
pub mod cluster;
pub mod derivation;
pub mod diagnose;
pub mod efficiency;
pub mod error;
pub mod evaluate;
pub mod fit;
pub mod gguf;
pub mod gpu;
pub mod hardware;
pub mod headroom;
pub mod json_read;
pub mod lab;
pub mod launch;
pub mod links;
pub mod local;
pub mod lookup;
pub mod memory;
pub mod mig;
pub mod model;
pub mod num;
pub mod peaks;
pub mod perf;
pub mod precision;
pub mod report;
pub mod scenario;
pub mod solvers;
pub mod workload;

pub use assumption::Assumption;
pub use derivation::{DerivKey, Derivation, Formula, Source, Val};
pub use error::{EngineError, ScenarioError};
pub use evaluate::evaluate_with;
pub use lookup::Lookup;
pub use report::Report;
pub use scenario::{ModelSpec, Scenario};
