//! Efficiency factors: the achieved fraction of each peak, plus latencies. The expected time
//! divides by `peak × factor`; the roofline bound uses the peaks alone. Every default carries
//! its source so the reader can see (and edit) what the expected numbers assume; a device may
//! carry its own measured ones and a scenario may override any ([`EfficiencyOverrides`]).

use super::checked::{in_range, non_negative, perf_error, PerfError};
use super::error::ScenarioError;
use super::json_read::{de, fields, opt, Read};
use super::precision::compute::ComputeDtype;
use super::precision::Dtype;
use serde::{Deserialize, Serialize};
use serde_json::Value;

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
    /// Achieved fraction of dense Tensor Core peak in large GEMMs on the 8- and 4-bit paths
    /// (fp8, int8, fp4). H200 FP8 GEMM 1,366 of 1,979 TFLOPS = 0.69 (Azure
    /// AI-benchmarking-guide, ND H200 v5; hardware.json), below the 16-bit paths' fraction
    /// (A100 FP16 GEMM 256.5 of 312 = 0.82, same benchmark).
    pub fp8_tensor_flops: f64,
    /// Bandwidth of a dequantising weight-only kernel (int8/int4/nf4 weights, or fp8 weights on
    /// a path without fp8) relative to a 16-bit GEMV reading the same bytes: MARLIN (Frantar et
    /// al., PPoPP 2025) gives up to 2.8× end-to-end in vLLM against the 3.87× that 4-bit
    /// weights with group scales would give at full bandwidth: 2.8 / 3.87 = 0.72.
    pub quantized_weight_bandwidth: f64,
    /// Fixed cost of one request before its first token: tokenisation, scheduling, input
    /// preparation, sampling, the first launches (an estimate; the vLLM v0.6.0 performance
    /// blog, Sept. 2024, profiles this CPU work as a large share of each step on an H100).
    pub request_overhead_s: f64,
    /// Achieved fraction of the host's memory bandwidth when the CPU computes the layers kept in
    /// host memory (llama.cpp's CPU back end at batch 1).
    pub host_memory_bandwidth: f64,
    /// Achieved fraction of the PCIe link's per-direction rate in host↔device copies.
    pub pcie_bandwidth: f64,
    /// Achieved fraction of the int8 peak in llama.cpp's quantised matrix kernels (MMQ, which
    /// quantise the activations to 8 bits and use int8 tensor cores) at prompt-sized batches:
    /// Llama-3-8B Q4_0 prefilled 10,358.75 tokens/s with a 512-token micro-batch on an RTX 4090
    /// in the pull request that gave MMQ its tensor cores (llama.cpp PR #7676, June 2024): with
    /// this engine's FLOPs (the output layer on the last token only) and the rest of its prefill
    /// time, 0.26 of the card's 660.6 TOPS
    /// (`tests/validation_llama.rs` solves it; that row is not among the validation's).
    pub quantized_matmul_flops: f64,
    /// Share of a serving step's wall time the GPU waits for the CPU (API server, scheduler,
    /// input preparation): a step takes `t_gpu / (1 − share)`. Default: the serving stack's
    /// (`serving_stack`; 0 for vLLM V1, SGLang and TensorRT-LLM, whose CPU work overlaps the GPU's:
    /// vLLM V1 blog 2025-01-27, SGLang v0.4 blog 2024-12-04; 0.62 for vLLM 0.5.3, whose GPU ran 38%
    /// of the time: vLLM v0.6.0 blog 2024-09-05).
    pub cpu_share_of_step: f64,
    /// Achieved fraction of the 16-bit dense peak in a training step's GEMMs at their best
    /// shape: the "Maximum Achievable Matmul FLOPS" of stas00/ml-engineering's table (best of
    /// a shape sweep, mean of 100 iterations after 50 warm-ups). A device carries its own
    /// (A100 SXM 271.2 of 312 = 0.869, H100/H200 SXM 794.5 of 989 = 0.803, B200 1,745 of 2,250
    /// = 0.776, GB200 1,822 of 2,500 = 0.729); without one, `tensor_flops`' 0.75. The training
    /// model multiplies it by each GEMM's wave quantisation (`perf::training::gemm`).
    pub matmul_flops: f64,
    /// The time one speculative draft pass cannot go below, seconds: where the serving stack runs
    /// the drafter's passes outside a full CUDA graph, each pass pays Python dispatch, an
    /// attention-metadata rebuild and eager kernels between graph pieces, one after another
    /// (each pass needs the last one's token), so a pass takes `max(T_gpu, this)`, or past
    /// `decode_graph_max_batch` `max(T_gpu, this, K · eager_kernel_host_s)`. Default: the
    /// serving stack's ([`crate::engine::stack::StackSettings::draft_pass_host_s`]; 0 where the
    /// drafter runs in full CUDA graphs).
    pub draft_pass_host_s: f64,
    /// The largest decode batch (sequences in one replica's step) the serving stack replays as
    /// a CUDA graph; a decode step with more sequences runs eagerly and takes
    /// `max(t_gpu, K · eager_kernel_host_s)`, `K` the kernels of one pass. 0: every decode step
    /// is in a graph. Default: the serving stack's for the GPU's memory and the tensor
    /// parallelism ([`crate::engine::stack::ServingStack::decode_graph_max_batch`]; SGLang's
    /// memory tiers, 8 to 512; 0 for the other stacks).
    pub decode_graph_max_batch: f64,
    /// Host seconds per kernel of a decode step run eagerly, outside CUDA graphs (Python
    /// dispatch and the launch, one kernel after another):
    /// [`crate::engine::stack::SGLANG_EAGER_KERNEL_HOST_S`], 17.8 µs, from SGLang's eager decode
    /// of Qwen3-0.6B on an RTX 5090 (SGLang PR #40346) through the load model.
    pub eager_kernel_host_s: f64,
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
            fp8_tensor_flops: 0.69,
            quantized_weight_bandwidth: 0.72,
            request_overhead_s: 0.015,
            host_memory_bandwidth: 0.7,
            pcie_bandwidth: 0.8,
            quantized_matmul_flops: 0.26,
            cpu_share_of_step: 0.0,
            matmul_flops: 0.75,
            draft_pass_host_s: 0.0,
            decode_graph_max_batch: 0.0,
            eager_kernel_host_s: super::stack::SGLANG_EAGER_KERNEL_HOST_S,
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
    Fp8TensorFlops,
    QuantizedWeightBandwidth,
    RequestOverheadS,
    HostMemoryBandwidth,
    PcieBandwidth,
    QuantizedMatmulFlops,
    CpuShareOfStep,
    MatmulFlops,
    DraftPassHostS,
    DecodeGraphMaxBatch,
    EagerKernelHostS,
}

impl Factor {
    pub const ALL: [Factor; 18] = [
        Factor::MemoryBandwidth,
        Factor::TensorFlops,
        Factor::IntraNodeBusBandwidth,
        Factor::InterNodeBusBandwidth,
        Factor::KernelLaunchS,
        Factor::KernelsPerLayer,
        Factor::GradientSyncOverlap,
        Factor::Fp8TensorFlops,
        Factor::QuantizedWeightBandwidth,
        Factor::RequestOverheadS,
        Factor::HostMemoryBandwidth,
        Factor::PcieBandwidth,
        Factor::QuantizedMatmulFlops,
        Factor::CpuShareOfStep,
        Factor::MatmulFlops,
        Factor::DraftPassHostS,
        Factor::DecodeGraphMaxBatch,
        Factor::EagerKernelHostS,
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
            Factor::Fp8TensorFlops => "fp8_tensor_flops",
            Factor::QuantizedWeightBandwidth => "quantized_weight_bandwidth",
            Factor::RequestOverheadS => "request_overhead_s",
            Factor::HostMemoryBandwidth => "host_memory_bandwidth",
            Factor::PcieBandwidth => "pcie_bandwidth",
            Factor::QuantizedMatmulFlops => "quantized_matmul_flops",
            Factor::CpuShareOfStep => "cpu_share_of_step",
            Factor::MatmulFlops => "matmul_flops",
            Factor::DraftPassHostS => "draft_pass_host_s",
            Factor::DecodeGraphMaxBatch => "decode_graph_max_batch",
            Factor::EagerKernelHostS => "eager_kernel_host_s",
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
            Factor::Fp8TensorFlops => e.fp8_tensor_flops,
            Factor::QuantizedWeightBandwidth => e.quantized_weight_bandwidth,
            Factor::RequestOverheadS => e.request_overhead_s,
            Factor::HostMemoryBandwidth => e.host_memory_bandwidth,
            Factor::PcieBandwidth => e.pcie_bandwidth,
            Factor::QuantizedMatmulFlops => e.quantized_matmul_flops,
            Factor::CpuShareOfStep => e.cpu_share_of_step,
            Factor::MatmulFlops => e.matmul_flops,
            Factor::DraftPassHostS => e.draft_pass_host_s,
            Factor::DecodeGraphMaxBatch => e.decode_graph_max_batch,
            Factor::EagerKernelHostS => e.eager_kernel_host_s,
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
                | Factor::RequestOverheadS
                | Factor::HostMemoryBandwidth
                | Factor::DraftPassHostS
                | Factor::EagerKernelHostS
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
        frac("fp8_tensor_flops", self.fp8_tensor_flops)?;
        frac("quantized_weight_bandwidth", self.quantized_weight_bandwidth)?;
        in_range("request_overhead_s", self.request_overhead_s, 0.0, 60.0)?;
        frac("host_memory_bandwidth", self.host_memory_bandwidth)?;
        frac("pcie_bandwidth", self.pcie_bandwidth)?;
        frac("quantized_matmul_flops", self.quantized_matmul_flops)?;
        in_range("cpu_share_of_step", self.cpu_share_of_step, 0.0, 0.95)?;
        frac("matmul_flops", self.matmul_flops)?;
        in_range("draft_pass_host_s", self.draft_pass_host_s, 0.0, 1.0)?;
        in_range("decode_graph_max_batch", self.decode_graph_max_batch, 0.0, 1e6)?;
        in_range("eager_kernel_host_s", self.eager_kernel_host_s, 0.0, 0.01)?;
        Ok(())
    }

    /// The factors with the tensor fraction of the compute path in use: the 16-bit (and
    /// fp32/tf32) paths keep `tensor_flops`, the 8- and 4-bit paths take `fp8_tensor_flops`.
    pub fn for_path(&self, path: ComputeDtype) -> Efficiency {
        let tensor_flops = match path {
            ComputeDtype::Fp64
            | ComputeDtype::Fp32
            | ComputeDtype::Tf32
            | ComputeDtype::Fp16
            | ComputeDtype::Bf16 => self.tensor_flops,
            ComputeDtype::Fp8 | ComputeDtype::Int8 | ComputeDtype::Fp4 => self.fp8_tensor_flops,
        };
        Efficiency { tensor_flops, ..self.clone() }
    }

    /// [`Efficiency::for_path`], and on the int8 path with llama.cpp quantised weights the
    /// fraction its MMQ kernels reach (`quantized_matmul_flops`).
    pub fn for_path_and_weights(&self, path: ComputeDtype, weight: Dtype) -> Efficiency {
        let e = self.for_path(path);
        if path == ComputeDtype::Int8 && weight.file_type().is_some() {
            return Efficiency { tensor_flops: self.quantized_matmul_flops, ..e };
        }
        e
    }

    /// Bandwidth of reading weights stored in `weight` on the `path`, relative to a 16-bit
    /// read: 1 when the kernel reads the format natively, `quantized_weight_bandwidth` when it
    /// dequantises in the kernel (every format must pick one: no wildcard).
    pub fn weight_read_factor(&self, weight: Dtype, path: ComputeDtype) -> f64 {
        let native = match weight {
            Dtype::Fp32 | Dtype::Bf16 | Dtype::Fp16 => true,
            Dtype::Fp8 => path == ComputeDtype::Fp8,
            Dtype::Int8 => path == ComputeDtype::Int8,
            Dtype::Int4 | Dtype::Nf4 => false,
            // Block-scaled 4-bit floats: read natively where the path is FP4 Tensor Cores
            // (Blackwell), dequantised by the kernel elsewhere (MXFP4 / NVFP4 weight-only GEMMs).
            Dtype::Mxfp4 | Dtype::Nvfp4 => path == ComputeDtype::Fp4,
            // llama.cpp's matrix-vector kernels read the quantised blocks as they are and
            // dequantise in registers (`mul_mat_vec_q`, ggml-cuda/mmvq.cu; the Metal and CPU
            // back ends likewise): the weights stream at the backend's bandwidth.
            Dtype::Gguf(_) => true,
        };
        if native {
            1.0
        } else {
            self.quantized_weight_bandwidth
        }
    }

    /// The factors for a phase whose expected traffic is `weight_share` weights (0..1) read at
    /// `read_factor` of the bandwidth and the rest (KV cache) at the full fraction:
    /// `B_eff = B·e / (share/f + (1 − share))`, the harmonic mean of the two streams.
    /// Worked: e = 0.85, f = 0.72, share 0.9: 0.85 / (1.25 + 0.1) = 0.6296.
    pub fn with_weight_reads(&self, weight_share: f64, read_factor: f64) -> Efficiency {
        let share = if weight_share.is_finite() { weight_share.clamp(0.0, 1.0) } else { 0.0 };
        let f = if read_factor.is_finite() && read_factor > 0.0 { read_factor.min(1.0) } else { 1.0 };
        let memory_bandwidth = self.memory_bandwidth / (share / f + (1.0 - share));
        Efficiency { memory_bandwidth, ..self.clone() }
    }

    /// Launch overhead of a pass of `kernels` kernels
    /// ([`crate::engine::perf::timing::kernels_per_pass`]): `T_launch = K × kernel_launch_s`.
    /// Worked: 32 dense layers × 10 kernels × 4 µs = 1.28 ms.
    pub fn launch_s(&self, kernels: f64) -> Result<f64, PerfError> {
        Ok(non_negative("kernels", kernels)? * self.kernel_launch_s)
    }

    /// The host's time for a decode step of `seqs` sequences and `kernels` kernels when it runs
    /// eagerly (more sequences than `decode_graph_max_batch`, a limit set): `K ·
    /// eager_kernel_host_s`; 0 when the step replays a graph. The step then takes `max(t_gpu,
    /// this)`. Worked: Qwen3-0.6B, 28 layers × 10 kernels, 64 sequences over a limit of 48:
    /// 280 × 17.8 µs = 4.98 ms.
    pub fn eager_host_s(&self, kernels: f64, seqs: f64) -> f64 {
        let cap = self.decode_graph_max_batch;
        if cap > 0.0 && seqs > cap && kernels.is_finite() {
            kernels.max(0.0) * self.eager_kernel_host_s
        } else {
            0.0
        }
    }
}

/// Overrides of the efficiency factors; every field optional (absent = the sourced default).
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
#[cfg_attr(test, derive(Deserialize))]
#[serde(default, deny_unknown_fields)]
pub struct EfficiencyOverrides {
    pub memory_bandwidth: Option<f64>,
    pub tensor_flops: Option<f64>,
    pub intra_node_bus_bandwidth: Option<f64>,
    pub inter_node_bus_bandwidth: Option<f64>,
    pub kernel_launch_s: Option<f64>,
    pub kernels_per_layer: Option<f64>,
    pub gradient_sync_overlap: Option<f64>,
    pub fp8_tensor_flops: Option<f64>,
    pub quantized_weight_bandwidth: Option<f64>,
    pub request_overhead_s: Option<f64>,
    pub host_memory_bandwidth: Option<f64>,
    pub pcie_bandwidth: Option<f64>,
    pub quantized_matmul_flops: Option<f64>,
    pub cpu_share_of_step: Option<f64>,
    pub matmul_flops: Option<f64>,
    pub draft_pass_host_s: Option<f64>,
    pub decode_graph_max_batch: Option<f64>,
    pub eager_kernel_host_s: Option<f64>,
}

/// The JSON keys of [`EfficiencyOverrides`], in declaration order.
pub(crate) const EFFICIENCY_FIELDS: [&str; 18] = [
    "memory_bandwidth",
    "tensor_flops",
    "intra_node_bus_bandwidth",
    "inter_node_bus_bandwidth",
    "kernel_launch_s",
    "kernels_per_layer",
    "gradient_sync_overlap",
    "fp8_tensor_flops",
    "quantized_weight_bandwidth",
    "request_overhead_s",
    "host_memory_bandwidth",
    "pcie_bandwidth",
    "quantized_matmul_flops",
    "cpu_share_of_step",
    "matmul_flops",
    "draft_pass_host_s",
    "decode_graph_max_batch",
    "eager_kernel_host_s",
];

impl EfficiencyOverrides {
    /// Reads the overrides object (every key optional, unknown keys are errors).
    pub fn from_json(v: &Value) -> Read<EfficiencyOverrides> {
        let mut o = EfficiencyOverrides::default();
        fields(v, &EFFICIENCY_FIELDS, |key, x| {
            let slot = match key {
                "memory_bandwidth" => &mut o.memory_bandwidth,
                "tensor_flops" => &mut o.tensor_flops,
                "intra_node_bus_bandwidth" => &mut o.intra_node_bus_bandwidth,
                "inter_node_bus_bandwidth" => &mut o.inter_node_bus_bandwidth,
                "kernel_launch_s" => &mut o.kernel_launch_s,
                "kernels_per_layer" => &mut o.kernels_per_layer,
                "gradient_sync_overlap" => &mut o.gradient_sync_overlap,
                "fp8_tensor_flops" => &mut o.fp8_tensor_flops,
                "quantized_weight_bandwidth" => &mut o.quantized_weight_bandwidth,
                "request_overhead_s" => &mut o.request_overhead_s,
                "host_memory_bandwidth" => &mut o.host_memory_bandwidth,
                "pcie_bandwidth" => &mut o.pcie_bandwidth,
                "quantized_matmul_flops" => &mut o.quantized_matmul_flops,
                "cpu_share_of_step" => &mut o.cpu_share_of_step,
                "matmul_flops" => &mut o.matmul_flops,
                "draft_pass_host_s" => &mut o.draft_pass_host_s,
                "decode_graph_max_batch" => &mut o.decode_graph_max_batch,
                "eager_kernel_host_s" => &mut o.eager_kernel_host_s,
                _ => return Ok(false),
            };
            *slot = opt(x, de)?;
            Ok(true)
        })?;
        Ok(o)
    }

    /// The factors in use, and the names of the overridden ones. Errors name `efficiency.<field>`.
    pub fn resolve(&self) -> Result<(Efficiency, Vec<&'static str>), ScenarioError> {
        self.resolve_over(Efficiency::default())
    }

    /// The factors in use on a device: the published defaults, then the device's own profile
    /// (`device`: its back end's measured fractions, [`crate::engine::gpu::Gpu::efficiency`]),
    /// then these overrides.
    pub fn resolve_for(
        &self,
        device: &EfficiencyOverrides,
    ) -> Result<(Efficiency, Vec<&'static str>), ScenarioError> {
        let (device, _) = device.resolve()?;
        self.resolve_over(device)
    }

    fn resolve_over(&self, base: Efficiency) -> Result<(Efficiency, Vec<&'static str>), ScenarioError> {
        let mut e = base;
        let mut overridden = Vec::new();
        let fields: [(&'static str, Option<f64>, &mut f64); 18] = [
            ("memory_bandwidth", self.memory_bandwidth, &mut e.memory_bandwidth),
            ("tensor_flops", self.tensor_flops, &mut e.tensor_flops),
            ("intra_node_bus_bandwidth", self.intra_node_bus_bandwidth, &mut e.intra_node_bus_bandwidth),
            ("inter_node_bus_bandwidth", self.inter_node_bus_bandwidth, &mut e.inter_node_bus_bandwidth),
            ("kernel_launch_s", self.kernel_launch_s, &mut e.kernel_launch_s),
            ("kernels_per_layer", self.kernels_per_layer, &mut e.kernels_per_layer),
            ("gradient_sync_overlap", self.gradient_sync_overlap, &mut e.gradient_sync_overlap),
            ("fp8_tensor_flops", self.fp8_tensor_flops, &mut e.fp8_tensor_flops),
            (
                "quantized_weight_bandwidth",
                self.quantized_weight_bandwidth,
                &mut e.quantized_weight_bandwidth,
            ),
            ("request_overhead_s", self.request_overhead_s, &mut e.request_overhead_s),
            ("host_memory_bandwidth", self.host_memory_bandwidth, &mut e.host_memory_bandwidth),
            ("pcie_bandwidth", self.pcie_bandwidth, &mut e.pcie_bandwidth),
            ("quantized_matmul_flops", self.quantized_matmul_flops, &mut e.quantized_matmul_flops),
            ("cpu_share_of_step", self.cpu_share_of_step, &mut e.cpu_share_of_step),
            ("matmul_flops", self.matmul_flops, &mut e.matmul_flops),
            ("draft_pass_host_s", self.draft_pass_host_s, &mut e.draft_pass_host_s),
            ("decode_graph_max_batch", self.decode_graph_max_batch, &mut e.decode_graph_max_batch),
            ("eager_kernel_host_s", self.eager_kernel_host_s, &mut e.eager_kernel_host_s),
        ];
        for (name, value, slot) in fields {
            if let Some(v) = value {
                *slot = v;
                overridden.push(name);
            }
        }
        e.validate().map_err(|err| perf_error("efficiency", err))?;
        Ok((e, overridden))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_eager_decode_step_waits_for_the_host_past_the_graph_limit() {
        let mut e = Efficiency::default();
        // No limit: every step replays a graph.
        assert_eq!(e.eager_host_s(280.0, 1000.0), 0.0);
        e.decode_graph_max_batch = 48.0;
        assert_eq!(e.eager_host_s(280.0, 48.0), 0.0);
        let t = e.eager_host_s(280.0, 64.0);
        assert!((t - 4.984e-3).abs() < 1e-9, "{t}");
        assert_eq!(e.eager_host_s(f64::NAN, 64.0), 0.0);
        e.decode_graph_max_batch = -1.0;
        assert!(e.validate().is_err());
        e.decode_graph_max_batch = 48.0;
        e.eager_kernel_host_s = 0.5;
        assert!(e.validate().is_err(), "half a second per kernel is named");
    }

    #[test]
    fn defaults_are_valid_sourced_and_round_trip() {
        let d = Efficiency::default();
        assert!(d.validate().is_ok());
        assert_eq!(Factor::ALL.len(), 18);
        assert_eq!(Factor::TensorFlops.value(&d), 0.75);
        let e: Efficiency = serde_json::from_str(r#"{"memory_bandwidth": 0.9}"#).unwrap();
        assert_eq!(e.memory_bandwidth, 0.9);
        assert_eq!(e.tensor_flops, d.tensor_flops);
        assert!((d.launch_s(32.0 * d.kernels_per_layer).unwrap() - 1.28e-3).abs() < 1e-12);
    }

    #[test]
    fn invalid_factors_are_named() {
        let e = Efficiency { tensor_flops: 1.5, ..Default::default() };
        assert!(matches!(e.validate(), Err(PerfError::OutOfRange { field: "tensor_flops", .. })));
        let e = Efficiency { memory_bandwidth: 0.0, ..Default::default() };
        assert!(e.validate().is_err());
    }

    #[test]
    fn overrides_replace_defaults_and_are_checked() {
        let o = EfficiencyOverrides { tensor_flops: Some(0.5), ..Default::default() };
        let (e, names) = o.resolve().unwrap();
        assert_eq!((e.tensor_flops, names), (0.5, vec!["tensor_flops"]));
        let bad = EfficiencyOverrides { memory_bandwidth: Some(1.5), ..Default::default() };
        assert_eq!(bad.resolve().unwrap_err().field, "efficiency.memory_bandwidth");
    }
}
