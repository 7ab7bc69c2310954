//! The wires between GPUs as the collective model sees them: a [`Link`] (per-GPU bandwidth in
//! one direction and a per-step latency α, the α-β model's two numbers) and a [`Topology`]
//! (GPUs grouped in nodes: a fast link inside a node, a network share per GPU between nodes).
//! The interconnect catalog is data of this type; the times on them are
//! [`crate::engine::perf::collectives`].

use serde::{Deserialize, Serialize};

/// A link as the model sees it: per-GPU bandwidth in one direction and a per-step latency α.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Link {
    pub bytes_per_s_per_direction: f64,
    pub latency_s: f64,
}

/// GPUs grouped in nodes: a fast intra-node link and, between nodes, one NIC share per GPU.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Topology {
    pub gpus_per_node: u32,
    pub intra_node: Link,
    /// Per-GPU share of the node's network; `None` for a single node.
    pub inter_node: Option<Link>,
}
