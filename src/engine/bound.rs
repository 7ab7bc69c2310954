//! The terms of the time bound `T = max(W/F, Q/B, C/N) + T_overhead` (Williams, Waterman,
//! Patterson, "Roofline", CACM 2009, as the article writes it), and the host's term of a partial
//! offload: the names the roofline ([`crate::engine::perf::roofline`]), the derivations, the
//! report and a diagnosis give the limit a run hits.

use serde::{Deserialize, Serialize};

/// Which term of the bound is the largest.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Term {
    Compute,
    Memory,
    Communication,
    Overhead,
    /// The CPU reading the layers kept in host memory, and the copies across PCIe (partial
    /// offload), in sequence with the GPU's work.
    Host,
}

impl Term {
    /// The term's identifier (`compute`, `memory`, `communication`, `overhead`), as in the JSON.
    pub fn name(self) -> &'static str {
        match self {
            Term::Compute => "compute",
            Term::Memory => "memory",
            Term::Communication => "communication",
            Term::Overhead => "overhead",
            Term::Host => "host",
        }
    }
}
