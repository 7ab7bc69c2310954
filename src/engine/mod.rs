//! The pure engine: no web or UI dependency, no panics on any input, no language.
//!
//! `Scenario` → [`evaluate_with`] (with a [`Lookup`] for catalog ids) → `Report`. Sizing lives
//! in [`model`] (architecture, parameter counts, KV cache), [`memory`] (per-GPU memory by
//! component) and [`solvers`]; time lives in [`perf`] (roofline, collectives, phases, timing,
//! scaling, serving). The engine owns the types it computes with ([`gpu`], [`links::Link`],
//! [`model::Architecture`]) and imports nothing above it: the catalog is data of these types and
//! implements [`Lookup`]; `tests/architecture.rs` keeps it that way.
//!
//! # Layers
//!
//! The modules below are built in layers. A module imports only from its own layer or the
//! layers below it, and never in a cycle; a type that two layers share lives in the lower one,
//! in the file named after its concept. `tests/architecture.rs` holds the same table and
//! checks every import against it (a new module is placed in both). A new formula goes into
//! layer 5, in the file named after its concept (a memory term in [`memory`], a time in
//! [`perf`]); a tool's arithmetic into layer 6, beside the tools.
//!
//! | Layer | What | Modules |
//! |---|---|---|
//! | 1 | numbers, errors, JSON reading, number formats (dtypes, compute paths, ggml block types, llama.cpp file types), assumptions, and the words a formula is recorded with (the workload, the bound's terms) | [`num`], [`checked`], [`error`], [`json_read`], [`closest`], [`precision`], [`assumption`], [`workload`], [`bound`], [`stack`] |
//! | 2 | the record of how a number was obtained: keys, formulas, values, sources | [`derivation`] |
//! | 3 | things: GPUs, the links between them and their achieved efficiencies, model architectures and their tensor tables, GGUF files | [`gpu`], [`links`], [`efficiency`], [`model`], [`gguf`] |
//! | 4 | inputs: the scenario, its hardware resolved, the catalog lookup | [`scenario`], [`hardware`], [`lookup`], [`speculation`] |
//! | 5 | computations: memory, time (roofline, collectives, phases, load simulation), the solvers | [`memory`], [`perf`], [`solvers`] |
//! | 6 | the report, `evaluate`, and the tools' arithmetic (fit, headroom, local, cloud, cluster, MIG, diagnosis, lab, launch, peaks, all-reduce) | [`report`], [`evaluate`], [`fit`], [`headroom`], [`local`], [`cloud`], [`cluster`], [`mig`], [`diagnose`], [`lab`], [`launch`], [`peaks`], [`allreduce`] |
//! | 7 | this module: the names code outside the engine imports | `mod` |
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
pub mod speculation;
pub mod stack;
pub mod workload;

pub use assumption::Assumption;
pub use derivation::{DerivKey, Derivation, Formula, Source, Val};
pub use error::{EngineError, ScenarioError};
pub use evaluate::evaluate_with;
pub use lookup::Lookup;
pub use report::Report;
pub use scenario::{ModelSpec, Scenario};
