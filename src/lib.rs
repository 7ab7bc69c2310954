//! gpu-primer: learn GPU compute and estimate memory, time and scaling.
//!
//! Data flows one way: input → [`engine::Scenario`] → pure engine → `Report` → views.
//! Everything except `ui` and `webgpu` is plain Rust that builds and tests natively.

pub mod catalog;
pub mod charts;
pub mod content;
pub mod engine;
pub mod estimator;
pub mod exercises;
pub mod i18n;
pub mod lab;
pub mod route;
pub mod tools;
pub mod validation;

pub use catalog::evaluate as estimate;

#[cfg(target_arch = "wasm32")]
pub mod ui;
