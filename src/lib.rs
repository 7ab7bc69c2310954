//! gpu-primer: learn GPU compute and estimate memory, time and scaling.
//!
//! Data flows one way: input → [`engine::Scenario`] → pure engine → `Report` → views.
//! Every module builds and tests natively; `ui`'s components run in the browser (mounted into
//! the pages) and natively (rendered to HTML by `site`, the prerenderer, which only exists
//! natively).

pub mod catalog;
pub mod charts;
pub mod classroom;
pub mod content;
pub mod engine;
pub mod estimator;
pub mod exercises;
pub mod html;
pub mod i18n;
pub mod lab;
pub mod lang;
pub mod links;
pub mod route;
#[cfg(not(target_arch = "wasm32"))]
pub mod site;
pub mod tools;
pub mod ui;
pub mod validation;

pub use catalog::evaluate as estimate;
