//! The decision tools' pure logic (state in the URL and its repair, the numbers, the HTML), built
//! and tested natively; `ui::tools` only mounts it and routes events to it.

pub mod cloud;
pub mod cluster;
pub mod diagnose;
pub mod local;
pub mod mig;
pub mod plan;
