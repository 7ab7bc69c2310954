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

/// An efficiency factor, named so each language can explain its default.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Factor {
    MemoryBandwidth,
    TensorFlops,
    IntraNodeBusBandwidth,
    InterNodeBusBandwidth,
    KernelLaunchS,
    KernelsPerLayer,
    GradientSyncOverlap,
}

impl Factor {
    pub const ALL: [Factor; 7] = [
        Factor::MemoryBandwidth,
        Factor::TensorFlops,
        Factor::IntraNodeBusBandwidth,
        Factor::InterNodeBusBandwidth,
        Factor::KernelLaunchS,
        Factor::KernelsPerLayer,
        Factor::GradientSyncOverlap,
    ];

    /// The field name in `Scenario.efficiency`.
    pub fn field(self) -> &'static str {
        match self {
            Factor::MemoryBandwidth => "memory_bandwidth",
            Factor::TensorFlops => "tensor_flops",
            Factor::IntraNodeBusBandwidth => "intra_node_bus_bandwidth",
            Factor::InterNodeBusBandwidth => "inter_node_bus_bandwidth",
            Factor::KernelLaunchS => "kernel_launch_s",
            Factor::KernelsPerLayer => "kernels_per_layer",
            Factor::GradientSyncOverlap => "gradient_sync_overlap",
        }
    }

    /// The factor's value in `e`.
    pub fn value(self, e: &Efficiency) -> f64 {
        match self {
            Factor::MemoryBandwidth => e.memory_bandwidth,
            Factor::TensorFlops => e.tensor_flops,
            Factor::IntraNodeBusBandwidth => e.intra_node_bus_bandwidth,
            Factor::InterNodeBusBandwidth => e.inter_node_bus_bandwidth,
            Factor::KernelLaunchS => e.kernel_launch_s,
            Factor::KernelsPerLayer => e.kernels_per_layer,
            Factor::GradientSyncOverlap => e.gradient_sync_overlap,
        }
    }

    /// True when the default is an engineering estimate rather than a published measurement.
    /// Where each default comes from is worded (with its citations) by `i18n::facts::factor_note`.
    pub fn is_estimate(self) -> bool {
        matches!(
            self,
            Factor::InterNodeBusBandwidth
                | Factor::KernelLaunchS
                | Factor::KernelsPerLayer
                | Factor::GradientSyncOverlap
        )
    }
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
        assert_eq!(Factor::ALL.len(), 7);
        assert_eq!(Factor::TensorFlops.value(&d), 0.75);
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
