//! The pure engine: no web or UI dependency, no panics on any input.

pub mod perf;
