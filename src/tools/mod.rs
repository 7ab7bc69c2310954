//! The decision tools' pure logic (state in the URL, repair, what each computes, its HTML),
//! tested natively; `ui::tools` only wires a tool's events to it.

pub mod cluster;
