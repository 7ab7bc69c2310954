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

/// The link a disaggregated deployment sends each prompt's KV cache over, from a prefill worker
/// to a decode worker (`perf::load::disagg`): one GPU to one GPU, every GPU of the group over its
/// own link at once.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum KvLink {
    /// NVLink inside one NVLink domain (both pools in one node or one NVL72 rack): the GPU's own
    /// NVLink rate.
    Nvlink,
    /// PCIe between cards of one node (peer to peer, or through host memory).
    Pcie,
    /// InfiniBand NDR, one 400 Gbit/s port per GPU (ConnectX-7).
    Infiniband,
    /// RoCE over 400 GbE, one port per GPU (ConnectX-7 runs either protocol at the same line rate;
    /// the model gives both the NDR port's 50 GB/s per direction).
    Roce,
    /// AWS EFA as in p5 instances (400 Gbit/s per GPU).
    Efa,
}

impl KvLink {
    pub const ALL: [KvLink; 5] =
        [KvLink::Nvlink, KvLink::Pcie, KvLink::Infiniband, KvLink::Roce, KvLink::Efa];

    /// The key's value in a scenario (`kv_transfer_link`).
    pub fn key(self) -> &'static str {
        match self {
            KvLink::Nvlink => "nvlink",
            KvLink::Pcie => "pcie",
            KvLink::Infiniband => "infiniband",
            KvLink::Roce => "roce",
            KvLink::Efa => "efa",
        }
    }

    /// Inside a node (the collective model's intra-node efficiency applies) or between nodes.
    pub fn inside_a_node(self) -> bool {
        matches!(self, KvLink::Nvlink | KvLink::Pcie)
    }
}
