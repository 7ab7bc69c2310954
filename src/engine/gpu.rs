//! The GPU as the engine computes with it: memory, bandwidth, dense peak FLOP/s per dtype,
//! links, MIG support. The GPU catalog is data of this type; a reader can
//! also give one inline for a custom GPU: every field except memory, bandwidth and at least one
//! peak has a default, and [`Gpu::validate`] names bad fields.

use super::error::ErrorKind;
use super::json_read::{de, fields, opt, Read};
use super::precision::compute::{ComputeDtype, ComputePath};
use serde::{Deserialize, Serialize};
use serde_json::Value;

/// Dense peak throughput per dtype in FLOP/s (OP/s for INT8). `None`: no such path.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
#[cfg_attr(test, derive(Deserialize))]
#[serde(default, deny_unknown_fields)]
pub struct PeakFlops {
    pub fp64: Option<f64>,
    /// FP32 on the vector (CUDA/shader) cores, no Tensor Cores.
    pub fp32: Option<f64>,
    /// TF32 Tensor Core path (FP32 matmuls with TF32 inputs).
    pub tf32: Option<f64>,
    pub fp16: Option<f64>,
    pub bf16: Option<f64>,
    pub fp8: Option<f64>,
    pub int8: Option<f64>,
    pub fp4: Option<f64>,
}

impl PeakFlops {
    /// The dense peak for `dtype`, if the hardware has that path.
    pub fn get(&self, dtype: ComputeDtype) -> Option<f64> {
        match dtype {
            ComputeDtype::Fp64 => self.fp64,
            ComputeDtype::Fp32 => self.fp32,
            ComputeDtype::Tf32 => self.tf32,
            ComputeDtype::Fp16 => self.fp16,
            ComputeDtype::Bf16 => self.bf16,
            ComputeDtype::Fp8 => self.fp8,
            ComputeDtype::Int8 => self.int8,
            ComputeDtype::Fp4 => self.fp4,
        }
    }
}

/// NVLink (or AMD Infinity Fabric) scale-up link of one GPU.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
#[cfg_attr(test, derive(Deserialize))]
#[serde(default, deny_unknown_fields)]
pub struct NvLink {
    /// "NVLink 4", "Infinity Fabric (AMD)", ...
    pub generation: String,
    pub links: Option<u32>,
    /// Sum of both directions, as vendors quote it (per direction = half).
    pub bidirectional_bytes_per_s: f64,
}

/// Host PCIe link of one GPU.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
#[cfg_attr(test, derive(Deserialize))]
#[serde(default, deny_unknown_fields)]
pub struct Pcie {
    pub generation: Option<u8>,
    /// x16, both directions summed (per direction = half).
    pub bidirectional_bytes_per_s: Option<f64>,
}

/// Multi-Instance GPU support.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
#[cfg_attr(test, derive(Deserialize))]
#[serde(default, deny_unknown_fields)]
pub struct Mig {
    pub supported: bool,
    pub max_instances: u32,
    /// Key into the catalog's MIG profile tables.
    pub profiles: Option<String>,
}

/// An NVIDIA Tensor Core generation, named by the GPU catalog's `architecture`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Generation {
    Ampere,
    Ada,
    Hopper,
    Blackwell,
    /// Other vendors and generations, and custom GPUs.
    Other,
}

/// How a device's memory is shared with the CPU.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum MemoryKind {
    /// The GPU's own memory (GDDR, HBM) beside the host's.
    #[default]
    Discrete,
    /// Apple silicon under macOS: one pool, of which the GPU may wire only part
    /// ([`MemoryKind::gpu_budget`]).
    AppleUnified,
    /// One pool the GPU may use whole (DGX Spark).
    Unified,
    /// One pool of which Linux's amdgpu driver lets the GPU map half by default (Ryzen AI Max):
    /// GTT is capped at half of system memory unless `ttm.pages_limit` raises it (ROCm issue
    /// #5595: ROCm sees about 62 of 128 GB; AMD's `amd-ttm` tool sets the limit). Windows gives
    /// the GPU the share set in the firmware instead.
    LinuxGtt,
}

impl MemoryKind {
    /// Bytes the GPU may use of a device with `memory` bytes. Apple silicon: Metal's
    /// `recommendedMaxWorkingSetSize`, which macOS sets to 2/3 of the memory up to 36 GB and
    /// 3/4 above (values logged by llama.cpp's Metal back end: 10,922.67 MB of 16 GiB on an M1,
    /// llama-cpp-python #687; 21,845.34 MB of 32 GiB on an M2 Max, ollama #434; about 3/4 of
    /// 64 GB, llama.cpp #1870; "usually 0.75 × total RAM", MLX PR #64). A lower bound: the
    /// 36 GB boundary is read off those logs, not documented by Apple, newer macOS gives large
    /// machines more (84% of 128 GB on macOS 26), and `sudo sysctl iogpu.wired_limit_mb=…`
    /// raises it. Linux GTT ([`MemoryKind::LinuxGtt`]): half. Other kinds: all of it.
    pub fn gpu_budget(self, memory: u64) -> u64 {
        match self {
            MemoryKind::AppleUnified if memory <= 36 * (1 << 30) => memory / 3 * 2,
            MemoryKind::AppleUnified => memory / 4 * 3,
            MemoryKind::LinuxGtt => memory / 2,
            MemoryKind::Discrete | MemoryKind::Unified => memory,
        }
    }

    /// Whether the CPU reads the same memory as the GPU (no separate host memory).
    pub fn is_unified(self) -> bool {
        self != MemoryKind::Discrete
    }
}

/// One GPU: a catalog entry, or a custom GPU given inline in a Scenario.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[cfg_attr(test, derive(Deserialize))]
#[serde(default, deny_unknown_fields)]
pub struct Gpu {
    pub id: String,
    pub name: String,
    pub vendor: String,
    pub architecture: String,
    pub form_factor: String,
    pub memory_type: String,
    /// Decimal bytes as the vendor quotes (80 GB = 80e9).
    pub memory_bytes: u64,
    pub memory_bandwidth_bytes_per_s: f64,
    /// Dense peaks; never the sparse figure.
    pub peak_flops: PeakFlops,
    /// Vendor figures "with sparsity", kept only to check dense = sparse / 2.
    pub sparse_as_quoted: std::collections::BTreeMap<String, f64>,
    pub l2_bytes: Option<u64>,
    pub sm_count: Option<u32>,
    pub tdp_w: Option<f64>,
    pub nvlink: Option<NvLink>,
    pub pcie: Option<Pcie>,
    pub mig: Mig,
    pub source: String,
    pub source_ids: Vec<String>,
    /// Date the figures were read (ISO 8601).
    pub retrieved: String,
    /// Fields whose value is secondary-only, conflicting or unverified (keep visible in the UI).
    pub uncertain: Vec<String>,
    pub notes: Vec<String>,
    /// Whether the memory is the GPU's own or shared with the CPU.
    pub memory_kind: MemoryKind,
    /// The memory sizes the device is sold with (unified-memory machines), smallest first.
    pub memory_options_bytes: Vec<u64>,
    /// The device's own efficiency defaults: what its back end was measured to reach (Metal on
    /// Apple silicon), with the source in `efficiency_source`. Empty: the engine's defaults.
    pub efficiency: crate::engine::efficiency::EfficiencyOverrides,
    /// Where the device's efficiency defaults come from.
    pub efficiency_source: String,
}

impl Default for Gpu {
    fn default() -> Self {
        Gpu {
            id: "custom".into(),
            name: "Custom GPU".into(),
            vendor: String::new(),
            architecture: String::new(),
            form_factor: String::new(),
            memory_type: String::new(),
            memory_bytes: 0,
            memory_bandwidth_bytes_per_s: 0.0,
            peak_flops: PeakFlops::default(),
            sparse_as_quoted: Default::default(),
            l2_bytes: None,
            sm_count: None,
            tdp_w: None,
            nvlink: None,
            pcie: None,
            mig: Mig::default(),
            source: "user input".into(),
            source_ids: Vec::new(),
            retrieved: String::new(),
            uncertain: Vec::new(),
            notes: Vec::new(),
            memory_kind: MemoryKind::Discrete,
            memory_options_bytes: Vec::new(),
            efficiency: Default::default(),
            efficiency_source: String::new(),
        }
    }
}

/// A field of a [`Gpu`] that is missing or out of range.
#[derive(Clone, Debug, PartialEq)]
pub struct GpuFieldError {
    /// Dotted field path, e.g. `peak_flops.bf16`.
    pub field: String,
    pub kind: ErrorKind,
}

impl std::fmt::Display for GpuFieldError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}: {}", self.field, self.kind)
    }
}

/// Largest plausible value for sanity checks (1 EFLOP/s, 1 PB/s, 100 TB of memory).
const MAX_RATE: f64 = 1e18;
const MAX_MEMORY_BYTES: u64 = 100_000_000_000_000;

fn check_rate(errors: &mut Vec<GpuFieldError>, field: &str, v: f64, required: bool) {
    let bad = !v.is_finite() || !(0.0..=MAX_RATE).contains(&v) || (required && v <= 0.0);
    if bad {
        errors.push(GpuFieldError {
            field: field.into(),
            kind: ErrorKind::RateOutOfRange { max: MAX_RATE, got: v },
        });
    }
}

impl Gpu {
    /// Check a GPU (catalog or custom) and name every bad field. Empty vec = valid.
    pub fn validate(&self) -> Vec<GpuFieldError> {
        let mut e = Vec::new();
        if self.memory_bytes == 0 || self.memory_bytes > MAX_MEMORY_BYTES {
            e.push(GpuFieldError {
                field: "memory_bytes".into(),
                kind: ErrorKind::OutOfRange {
                    min: 1.0,
                    max: MAX_MEMORY_BYTES as f64,
                    got: self.memory_bytes as f64,
                },
            });
        }
        check_rate(&mut e, "memory_bandwidth_bytes_per_s", self.memory_bandwidth_bytes_per_s, true);
        let mut any_peak = false;
        for d in ComputeDtype::ALL {
            if let Some(v) = self.peak_flops.get(d) {
                any_peak = true;
                check_rate(&mut e, &format!("peak_flops.{}", d.label()), v, true);
            }
        }
        if !any_peak {
            e.push(GpuFieldError { field: "peak_flops".into(), kind: ErrorKind::NoPeakGiven });
        }
        if let Some(nv) = &self.nvlink {
            check_rate(&mut e, "nvlink.bidirectional_bytes_per_s", nv.bidirectional_bytes_per_s, true);
        }
        if let Some(bw) = self.pcie.as_ref().and_then(|p| p.bidirectional_bytes_per_s) {
            check_rate(&mut e, "pcie.bidirectional_bytes_per_s", bw, true);
        }
        if self.id.trim().is_empty() {
            e.push(GpuFieldError { field: "id".into(), kind: ErrorKind::Empty });
        }
        e
    }

    /// The Tensor Core generation the GPU's architecture name states (what the training kernel
    /// tables are keyed by); [`Generation::Other`] for other vendors and custom GPUs.
    pub fn generation(&self) -> Generation {
        let a = self.architecture.to_ascii_lowercase();
        if a.contains("blackwell") {
            Generation::Blackwell
        } else if a.contains("hopper") {
            Generation::Hopper
        } else if a.contains("ada") {
            Generation::Ada
        } else if a.contains("ampere") {
            Generation::Ampere
        } else {
            Generation::Other
        }
    }

    /// The dense peak and path for `dtype`. Falls back to the FP32 vector peak when the GPU has
    /// no such path (e.g. BF16 on V100 or T4 runs without Tensor Cores), then to any peak at all.
    pub fn compute_path(&self, dtype: ComputeDtype) -> Option<ComputePath> {
        let pick = |used: ComputeDtype| {
            self.peak_flops.get(used).filter(|v| v.is_finite() && *v > 0.0).map(|p| ComputePath {
                requested: dtype,
                used,
                peak_flops_per_s: p,
            })
        };
        pick(dtype)
            .or_else(|| pick(ComputeDtype::Fp32))
            .or_else(|| ComputeDtype::ALL.iter().find_map(|d| pick(*d)))
    }

    /// NVLink bandwidth per direction in bytes/s (0 when the GPU has none).
    pub fn nvlink_bytes_per_s_per_direction(&self) -> f64 {
        self.nvlink.as_ref().map_or(0.0, |n| n.bidirectional_bytes_per_s / 2.0)
    }

    /// PCIe bandwidth per direction in bytes/s, if known.
    pub fn pcie_bytes_per_s_per_direction(&self) -> Option<f64> {
        self.pcie.as_ref().and_then(|p| p.bidirectional_bytes_per_s).map(|b| b / 2.0)
    }

    /// Is `field` (or a parent of it, e.g. `peak_flops` for `peak_flops.bf16`) flagged uncertain?
    pub fn is_uncertain(&self, field: &str) -> bool {
        self.uncertain
            .iter()
            .any(|u| u == field || field.strip_prefix(u.as_str()).is_some_and(|r| r.starts_with('.')))
    }
}

/// The JSON keys of each struct, in declaration order (serde's order for a list).
const PEAK_FIELDS: [&str; 8] = ["fp64", "fp32", "tf32", "fp16", "bf16", "fp8", "int8", "fp4"];
const NVLINK_FIELDS: [&str; 3] = ["generation", "links", "bidirectional_bytes_per_s"];
const PCIE_FIELDS: [&str; 2] = ["generation", "bidirectional_bytes_per_s"];
const MIG_FIELDS: [&str; 3] = ["supported", "max_instances", "profiles"];
pub(crate) const GPU_FIELDS: [&str; 25] = [
    "id",
    "name",
    "vendor",
    "architecture",
    "form_factor",
    "memory_type",
    "memory_bytes",
    "memory_bandwidth_bytes_per_s",
    "peak_flops",
    "sparse_as_quoted",
    "l2_bytes",
    "sm_count",
    "tdp_w",
    "nvlink",
    "pcie",
    "mig",
    "source",
    "source_ids",
    "retrieved",
    "uncertain",
    "notes",
    "memory_kind",
    "memory_options_bytes",
    "efficiency",
    "efficiency_source",
];

impl PeakFlops {
    fn from_json(v: &Value) -> Read<PeakFlops> {
        let mut p = PeakFlops::default();
        fields(v, &PEAK_FIELDS, |key, x| {
            let slot = match key {
                "fp64" => &mut p.fp64,
                "fp32" => &mut p.fp32,
                "tf32" => &mut p.tf32,
                "fp16" => &mut p.fp16,
                "bf16" => &mut p.bf16,
                "fp8" => &mut p.fp8,
                "int8" => &mut p.int8,
                "fp4" => &mut p.fp4,
                _ => return Ok(false),
            };
            *slot = opt(x, de)?;
            Ok(true)
        })?;
        Ok(p)
    }
}

impl NvLink {
    fn from_json(v: &Value) -> Read<NvLink> {
        let mut n = NvLink::default();
        fields(v, &NVLINK_FIELDS, |key, x| {
            match key {
                "generation" => n.generation = de(x)?,
                "links" => n.links = opt(x, de)?,
                "bidirectional_bytes_per_s" => n.bidirectional_bytes_per_s = de(x)?,
                _ => return Ok(false),
            }
            Ok(true)
        })?;
        Ok(n)
    }
}

impl Pcie {
    fn from_json(v: &Value) -> Read<Pcie> {
        let mut p = Pcie::default();
        fields(v, &PCIE_FIELDS, |key, x| {
            match key {
                "generation" => p.generation = opt(x, de)?,
                "bidirectional_bytes_per_s" => p.bidirectional_bytes_per_s = opt(x, de)?,
                _ => return Ok(false),
            }
            Ok(true)
        })?;
        Ok(p)
    }
}

impl Mig {
    fn from_json(v: &Value) -> Read<Mig> {
        let mut m = Mig::default();
        fields(v, &MIG_FIELDS, |key, x| {
            match key {
                "supported" => m.supported = de(x)?,
                "max_instances" => m.max_instances = de(x)?,
                "profiles" => m.profiles = opt(x, de)?,
                _ => return Ok(false),
            }
            Ok(true)
        })?;
        Ok(m)
    }
}

impl Gpu {
    /// Reads a GPU (a catalog entry or a custom GPU given inline): every field has a default,
    /// unknown keys are errors. Ranges are checked by [`Gpu::validate`].
    pub fn from_json(v: &Value) -> Read<Gpu> {
        let mut g = Gpu::default();
        fields(v, &GPU_FIELDS, |key, x| {
            match key {
                "id" => g.id = de(x)?,
                "name" => g.name = de(x)?,
                "vendor" => g.vendor = de(x)?,
                "architecture" => g.architecture = de(x)?,
                "form_factor" => g.form_factor = de(x)?,
                "memory_type" => g.memory_type = de(x)?,
                "memory_bytes" => g.memory_bytes = de(x)?,
                "memory_bandwidth_bytes_per_s" => g.memory_bandwidth_bytes_per_s = de(x)?,
                "peak_flops" => g.peak_flops = PeakFlops::from_json(x)?,
                "sparse_as_quoted" => g.sparse_as_quoted = de(x)?,
                "l2_bytes" => g.l2_bytes = opt(x, de)?,
                "sm_count" => g.sm_count = opt(x, de)?,
                "tdp_w" => g.tdp_w = opt(x, de)?,
                "nvlink" => g.nvlink = opt(x, NvLink::from_json)?,
                "pcie" => g.pcie = opt(x, Pcie::from_json)?,
                "mig" => g.mig = Mig::from_json(x)?,
                "source" => g.source = de(x)?,
                "source_ids" => g.source_ids = de(x)?,
                "retrieved" => g.retrieved = de(x)?,
                "uncertain" => g.uncertain = de(x)?,
                "notes" => g.notes = de(x)?,
                "memory_kind" => g.memory_kind = de(x)?,
                "memory_options_bytes" => g.memory_options_bytes = de(x)?,
                "efficiency" => g.efficiency = crate::engine::efficiency::EfficiencyOverrides::from_json(x)?,
                "efficiency_source" => g.efficiency_source = de(x)?,
                _ => return Ok(false),
            }
            Ok(true)
        })?;
        Ok(g)
    }
}
