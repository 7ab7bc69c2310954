//! The arithmetic a kernel runs in ([`ComputeDtype`]: which Tensor Core or vector path, hence
//! which of a GPU's peaks applies) and the path a GPU runs a requested one on
//! ([`ComputePath`]). A GPU's peaks per path are in [`crate::engine::gpu::PeakFlops`]; which
//! path a GPU takes for a dtype is [`crate::engine::gpu::Gpu::compute_path`].

use serde::{Deserialize, Serialize};

/// The arithmetic a kernel runs in, i.e. which peak (Tensor Core path) applies.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ComputeDtype {
    Fp64,
    Fp32,
    Tf32,
    Fp16,
    Bf16,
    Fp8,
    Int8,
    Fp4,
}

impl ComputeDtype {
    pub const ALL: [ComputeDtype; 8] = [
        ComputeDtype::Fp64,
        ComputeDtype::Fp32,
        ComputeDtype::Tf32,
        ComputeDtype::Fp16,
        ComputeDtype::Bf16,
        ComputeDtype::Fp8,
        ComputeDtype::Int8,
        ComputeDtype::Fp4,
    ];

    /// Short label, as used in field names (`peak_flops.bf16`).
    pub fn label(self) -> &'static str {
        match self {
            ComputeDtype::Fp64 => "fp64",
            ComputeDtype::Fp32 => "fp32",
            ComputeDtype::Tf32 => "tf32",
            ComputeDtype::Fp16 => "fp16",
            ComputeDtype::Bf16 => "bf16",
            ComputeDtype::Fp8 => "fp8",
            ComputeDtype::Int8 => "int8",
            ComputeDtype::Fp4 => "fp4",
        }
    }
}

/// Which hardware path a dtype actually runs on, and its dense peak.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct ComputePath {
    /// The dtype asked for.
    pub requested: ComputeDtype,
    /// The path whose peak applies (differs from `requested` when the GPU lacks that path).
    pub used: ComputeDtype,
    pub peak_flops_per_s: f64,
}
