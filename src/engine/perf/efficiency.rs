//! Efficiency factors: the achieved fraction of each peak, plus latencies. The expected time
//! divides by `peak × factor`; the roofline bound uses the peaks alone. Every default carries
//! its source so the reader can see (and edit) what the expected numbers assume.

use super::{in_range, non_negative, PerfError};
use serde::{Deserialize, Serialize};

/// Achieved fractions of peak and fixed latencies. A Scenario can override any field.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Efficiency {
    /// Achieved fraction of peak HBM/GDDR bandwidth in streaming kernels.
    pub memory_bandwidth: f64,
    /// Achieved fraction of dense Tensor Core peak in large GEMMs.
    pub tensor_flops: f64,
    /// Achieved NCCL bus bandwidth as a fraction of the intra-node link's per-direction rate.
    pub intra_node_bus_bandwidth: f64,
    /// Achieved bus bandwidth as a fraction of the inter-node NIC line rate.
    pub inter_node_bus_bandwidth: f64,
    /// Seconds per kernel launch / kernel boundary (launch plus tail), on the critical path.
    pub kernel_launch_s: f64,
    /// Kernels per transformer layer per forward pass (QKV, RoPE, attention, out-proj, two
    /// norms, gate/up, activation, down, residual adds ~ 10).
    pub kernels_per_layer: f64,
    /// Fraction of the data-parallel gradient all-reduce hidden behind the backward pass.
    pub gradient_sync_overlap: f64,
}

impl Default for Efficiency {
    fn default() -> Self {
        Efficiency {
            memory_bandwidth: 0.85,
            tensor_flops: 0.75,
            intra_node_bus_bandwidth: 0.75,
            inter_node_bus_bandwidth: 0.75,
            kernel_launch_s: 4e-6,
            kernels_per_layer: 10.0,
            gradient_sync_overlap: 0.8,
        }
    }
}

/// One default with its provenance, for display next to the editable value.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct FactorSource {
    pub field: &'static str,
    pub default: f64,
    pub source: &'static str,
    /// True when the default is an engineering estimate rather than a published measurement.
    pub estimate: bool,
}

/// The defaults of [`Efficiency`] and where each comes from.
pub fn default_sources() -> Vec<FactorSource> {
    let d = Efficiency::default();
    vec![
        FactorSource {
            field: "memory_bandwidth",
            default: d.memory_bandwidth,
            source: "BabelStream-style HBM tests reach about 85-90% of peak on A100/H100/H200 \
                     (hardware.json: Azure AI-benchmarking-guide ND A100 v4 1.61-1.75 of 2.039 TB/s = \
                     0.79-0.86; ND H200 v5 4.0-4.48 of 4.8 TB/s = 0.83-0.93). Lower end taken.",
            estimate: false,
        },
        FactorSource {
            field: "tensor_flops",
            default: d.tensor_flops,
            source: "Large GEMM benchmarks (hardware.json, Azure AI-benchmarking-guide): A100 FP16 \
                     256.5 of 312 TFLOPS = 0.82; H200 FP8 1,366 of 1,979 TFLOPS = 0.69. Midpoint.",
            estimate: false,
        },
        FactorSource {
            field: "intra_node_bus_bandwidth",
            default: d.intra_node_bus_bandwidth,
            source: "nccl-tests all_reduce_perf busbw vs NVLink per-direction peak (hardware.json): \
                     8x A100 231.6/300 = 0.77 (Azure, NCCL 2.18.5), user reports 0.67-0.69; 8x H100 \
                     ~370/450 = 0.82 (NCCL issue #212). NCCL all-reduce bus bandwidth 70-80% of NVLink.",
            estimate: false,
        },
        FactorSource {
            field: "inter_node_bus_bandwidth",
            default: d.inter_node_bus_bandwidth,
            source: "Assumed equal to the NVLink fraction; no inter-node nccl-tests figure in the \
                     reference data.",
            estimate: true,
        },
        FactorSource {
            field: "kernel_launch_s",
            default: d.kernel_launch_s,
            source: "CUDA kernel launch overhead is a few microseconds per launch (CUDA C++ Best \
                     Practices Guide; CUDA Graphs blog, NVIDIA 2019). Estimate.",
            estimate: true,
        },
        FactorSource {
            field: "kernels_per_layer",
            default: d.kernels_per_layer,
            source: "Count of the separate kernels in a Llama-style decoder layer without fusion. Estimate.",
            estimate: true,
        },
        FactorSource {
            field: "gradient_sync_overlap",
            default: d.gradient_sync_overlap,
            source: "PyTorch DDP overlaps bucketed gradient all-reduce with backward (Li et al., \
                     VLDB 2020); the first bucket cannot overlap. Estimate.",
            estimate: true,
        },
    ]
}

impl Efficiency {
    /// Every fraction must be in (0, 1] (overlap in [0, 1]); latencies >= 0.
    pub fn validate(&self) -> Result<(), PerfError> {
        let frac = |f: &'static str, v: f64| in_range(f, v, 1e-6, 1.0);
        frac("memory_bandwidth", self.memory_bandwidth)?;
        frac("tensor_flops", self.tensor_flops)?;
        frac("intra_node_bus_bandwidth", self.intra_node_bus_bandwidth)?;
        frac("inter_node_bus_bandwidth", self.inter_node_bus_bandwidth)?;
        in_range("kernel_launch_s", self.kernel_launch_s, 0.0, 1.0)?;
        in_range("kernels_per_layer", self.kernels_per_layer, 0.0, 1e4)?;
        in_range("gradient_sync_overlap", self.gradient_sync_overlap, 0.0, 1.0)?;
        Ok(())
    }

    /// Launch overhead of one forward pass through `layers` layers:
    /// `T_overhead = layers × kernels_per_layer × kernel_launch_s`.
    /// Worked: 32 layers × 10 × 4 µs = 1.28 ms.
    pub fn launch_overhead_s(&self, layers: f64) -> Result<f64, PerfError> {
        Ok(non_negative("layers", layers)? * self.kernels_per_layer * self.kernel_launch_s)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults_are_valid_sourced_and_round_trip() {
        let d = Efficiency::default();
        assert!(d.validate().is_ok());
        assert_eq!(default_sources().len(), 7);
        assert!(default_sources().iter().all(|s| !s.source.is_empty()));
        let e: Efficiency = serde_json::from_str(r#"{"memory_bandwidth": 0.9}"#).unwrap();
        assert_eq!(e.memory_bandwidth, 0.9);
        assert_eq!(e.tensor_flops, d.tensor_flops);
        assert!((d.launch_overhead_s(32.0).unwrap() - 1.28e-3).abs() < 1e-12);
    }

    #[test]
    fn invalid_factors_are_named() {
        let e = Efficiency { tensor_flops: 1.5, ..Default::default() };
        assert!(matches!(e.validate(), Err(PerfError::OutOfRange { field: "tensor_flops", .. })));
        let e = Efficiency { memory_bandwidth: 0.0, ..Default::default() };
        assert!(e.validate().is_err());
    }
}
