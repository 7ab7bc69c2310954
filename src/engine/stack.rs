//! Serving stacks and kernel families, named as inputs: which software runs the model decides
//! how well it uses the hardware, so where a measurement depends on it the scenario names it.
//!
//! Each value carries the published measurement it comes from, with its date: an older
//! measurement is expressed as the older stack or kernel, never fitted. The numbers here are
//! plain data; the formulas that use them are in `perf::moe` (grouped GEMMs, dispatch and
//! combine), `perf::load::sim` (the scheduler's prefill policy) and `perf::performance` (the
//! weight-only kernels' share of bandwidth, llama.cpp's prompt processing).

use serde::{Deserialize, Serialize};

/// The serving engine and version a deployment runs. It sets the MoE kernel family, the
/// scheduler's prefill policy and the CPU time a step exposes ([`StackSettings`]); each setting
/// can be overridden on its own.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ServingStack {
    /// vLLM V1 (0.8 and later, 2025): chunked prefill mixed into decode steps, the CPU work
    /// overlapped with the GPU, Triton's fused MoE by default.
    #[default]
    VllmV1,
    /// vLLM 0.5 (up to 0.5.3, 2024-H1): whole prompts before decodes, the API server and
    /// scheduler on the critical path.
    #[serde(rename = "vllm_v0_5")]
    VllmV05,
    /// SGLang (0.4 and later, 2024-12 to 2025): an overlapped scheduler, prefill batches run on
    /// their own (`enable_mixed_chunk = False`), Triton's fused MoE by default.
    Sglang,
    /// TensorRT-LLM 1.0 (PyTorch back end, 2025): in-flight batching, CUTLASS grouped GEMMs for
    /// the experts.
    Trtllm,
}

impl ServingStack {
    pub const ALL: [ServingStack; 4] =
        [ServingStack::VllmV1, ServingStack::VllmV05, ServingStack::Sglang, ServingStack::Trtllm];

    /// The key as the scenario writes it.
    pub fn key(self) -> &'static str {
        match self {
            ServingStack::VllmV1 => "vllm_v1",
            ServingStack::VllmV05 => "vllm_v0_5",
            ServingStack::Sglang => "sglang",
            ServingStack::Trtllm => "trtllm",
        }
    }

    /// The custom all-reduce kernels the stack runs for tensor parallelism inside a node:
    /// vLLM's own, or TensorRT-LLM's (SGLang's `sgl-kernel` carries them).
    pub fn custom_all_reduce(self) -> AllReduceKernels {
        match self {
            ServingStack::VllmV1 | ServingStack::VllmV05 => AllReduceKernels::Vllm,
            ServingStack::Sglang | ServingStack::Trtllm => AllReduceKernels::Trtllm,
        }
    }

    /// What the stack sets, each with its source and date.
    pub fn settings(self) -> StackSettings {
        match self {
            ServingStack::VllmV1 => StackSettings {
                moe_kernel: MoeKernel::TritonFused,
                prefill_policy: PrefillPolicy::Mixed,
                cpu_share_of_step: 0.0,
                mla_request_overhead_s: None,
                draft_pass_host_s: VLLM_DRAFT_PASS_HOST_S,
                source: "vLLM blog, \"vLLM V1: A Major Upgrade to vLLM's Core Architecture\" (2025-01-27: isolated EngineCore, near-zero CPU overhead, chunked prefill always on); vLLM PR #29346 (2025-11-24: Triton is the fused-MoE back end for block-FP8 models at TP 8)",
                date: "2025",
            },
            ServingStack::VllmV05 => StackSettings {
                moe_kernel: MoeKernel::TritonFused,
                prefill_policy: PrefillPolicy::PrefillFirst,
                cpu_share_of_step: 0.62,
                mla_request_overhead_s: None,
                draft_pass_host_s: 0.0,
                source: "vLLM blog, \"vLLM v0.6.0: 2.7x Throughput Improvement and 5x Latency Reduction\" (2024-09-05: on v0.5.3, Llama 3 8B on one H100, the API server took 33% and scheduling 29% of the execution time, the GPU 38%)",
                date: "2024-H1",
            },
            ServingStack::Sglang => StackSettings {
                moe_kernel: MoeKernel::TritonFused,
                prefill_policy: PrefillPolicy::PrefillFirst,
                cpu_share_of_step: 0.0,
                mla_request_overhead_s: Some(SGLANG_MLA_REQUEST_OVERHEAD_S),
                draft_pass_host_s: 0.0,
                source: "LMSYS blog, \"SGLang v0.4: Zero-Overhead Batch Scheduler\" (2024-12-04: the CPU scheduler runs one batch ahead, no GPU idle between batches); sglang python/sglang/srt/server_args.py (enable_mixed_chunk = False: a prefill batch runs on its own)",
                date: "2024-12",
            },
            ServingStack::Trtllm => StackSettings {
                moe_kernel: MoeKernel::CutlassGrouped,
                prefill_policy: PrefillPolicy::Mixed,
                cpu_share_of_step: 0.0,
                mla_request_overhead_s: None,
                draft_pass_host_s: 0.0,
                source: "TensorRT-LLM docs/source/performance/perf-overview.md (v1.0, 2025: PyTorch back end, in-flight batching of context and generation requests, CUTLASS MoE)",
                date: "2025",
            },
        }
    }
}

/// What a serving stack sets.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct StackSettings {
    pub moe_kernel: MoeKernel,
    pub prefill_policy: PrefillPolicy,
    /// Share of a step's wall time the GPU waits for the CPU (API server, scheduler, input
    /// preparation): a step takes `t_gpu / (1 − share)`.
    pub cpu_share_of_step: f64,
    /// The fixed time each request spends before its first token on an MLA model (DeepSeek-V2/V3
    /// family), outside the GPU's steps, where the stack's own measurement shows one
    /// (`efficiency.request_overhead_s` for such a model; absent: the general default).
    pub mla_request_overhead_s: Option<f64>,
    /// The time one speculative draft pass cannot go below outside full CUDA graphs (dispatch,
    /// metadata and glue; `efficiency.draft_pass_host_s`): [`VLLM_DRAFT_PASS_HOST_S`] for vLLM, whose drafter runs
    /// outside full CUDA graphs; 0 for SGLang and TensorRT-LLM, which capture the draft passes in
    /// CUDA graphs (SGLang PR #6606, TensorRT-LLM PR #7363), and for vLLM 0.5, not measured.
    pub draft_pass_host_s: f64,
    pub source: &'static str,
    pub date: &'static str,
}

/// SGLang's fixed cost before the first token of a DeepSeek-R1 request: 0.147 s.
///
/// tenstorrent/tt-inference-server issue #356 (2025-07-09) measures DeepSeek-R1-0528 under
/// SGLang on 16 H100 at one user (128-token outputs): TTFT 179.7, 190.5, 200.4, 199.7 and
/// 263.9 ms at prompts of 128, 2,048, 3,072, 4,096 and 8,192 tokens. A least-squares line gives
/// `TTFT ≈ 169.7 ms + 10.6 µs × prompt`: at a zero-token prompt the request still costs one
/// forward, which the same runs measure as their time per output token (23.1 ms at the 128-token
/// prompt), so `169.7 − 23.1 = 146.6 ms` is spent outside the GPU's work (the cause is not
/// profiled in the source). It is not a stall of the running sequences: on 8 H200 under load
/// (InferenceX #870) SGLang's time per output token stays at the decode step's. Measured on
/// DeepSeek's MLA + MoE model only, so it applies to MLA models; vLLM's TTFT for the same model
/// is 55.6 ms at a 128-token prompt on the same 16 GPUs (same issue).
pub const SGLANG_MLA_REQUEST_OVERHEAD_S: f64 = 0.1466;

/// vLLM's floor for one speculative draft pass: 0.93 ms.
///
/// vLLM runs the drafter's passes outside full CUDA graphs: eagerly while the EAGLE drafter's
/// graph capture was broken (vLLM PR #23679, 2025-08-26: "broken for a while since the launch of
/// #20059"), in piecewise graphs since, with the attention between graph pieces run eagerly
/// (`SpecDecodeBaseProposer` pins `PIECEWISE`). Each pass then pays Python dispatch, an
/// attention-metadata rebuild and other glue, and the passes run one after another, each needing
/// the last one's token. vLLM issue #45258 (2026-06-11) measures the drafter's chain with CUDA
/// events on a GB10 (Gemma-4 26B-A4B NVFP4, an MTP drafter, γ = 3, vLLM 0.22.1.dev): 4.9 ms a step
/// at one request, of which sampling 2.1 ms, so `(4.9 − 2.1) / 3 = 0.93 ms` a pass for the forward
/// and its glue (the GB10's GPU work for that drafter included; an EAGLE drafter is taken to pick
/// its token by argmax, without sampling). That drafter's attention metadata does not change from
/// pass to pass, an EAGLE head's does: the floor may be low for it. At 16 requests the same issue
/// measures `(15.6 − 3.2) / 3 = 4.1 ms` a pass, where the GPU's work is the longer (`max`). A
/// cross-check, not a fit: vLLM's EAGLE-3 runs on Llama 3.1 8B (issue #20780, batch 1) lengthen
/// their step by about 1.0 ms per extra draft (10.20 ms at K = 2, 15.19 ms at K = 7).
pub const VLLM_DRAFT_PASS_HOST_S: f64 = 0.93e-3;

/// The source of [`VLLM_DRAFT_PASS_HOST_S`], as the report cites it.
pub const VLLM_DRAFT_PASS_HOST_SOURCE: &str = "vLLM issue #45258 (2026-06-11)";

impl ServingStack {
    /// The largest decode batch (sequences in one replica's step) the stack replays as a CUDA
    /// graph by default, on GPUs of `gpu_memory_bytes` at tensor parallelism `tp`; a decode step
    /// with more sequences runs eagerly ([`SGLANG_EAGER_KERNEL_HOST_S`]). 0: no limit the engine
    /// models (also without a memory size).
    ///
    /// SGLang sizes its decode graphs by the GPU's memory (`python/sglang/srt/server_args`,
    /// `_handle_gpu_memory_settings`, as of pull request #37898, 2026-09-04; `gpu_mem`, the
    /// device's total in MiB): under 20 GiB 8; under 35 GiB (A10, RTX 4090, RTX 5090) 48 at
    /// TP < 4, else 160; under 60 GiB (A100 40GB, L40S) 32 at TP < 4, else 160; under 160 GiB
    /// (H100, A100 80GB, H200) 256 at TP < 4, else 512; larger (B200, MI300X) 512. The catalog's
    /// memory is the vendor's nominal size, which a device reports as just under that many GiB
    /// (an RTX 4090's 24 GB as 24,564 MiB, an MI210's 64 GB as 65,520 MiB): a GPU of `N` GB
    /// (10⁹ bytes) falls in the tier below `N` GiB. Older releases set other limits (before
    /// #37898 the 35 GiB tier was 24; SGLang 0.4: under 25,000 MiB 8 at TP < 4 and 80 at TP ≥ 4,
    /// 160 above): the scenario states one with `efficiency.decode_graph_max_batch`. vLLM V1
    /// captures decode batches up to `max_cudagraph_capture_size` (512); its default
    /// `max_num_seqs` is 256, or 1,024 on GPUs of 70 GiB and more other than the A100
    /// (`EngineArgs.get_batch_defaults`), so steps of 513 to 1,024 sequences run outside graphs
    /// there: not modelled (no published host time per kernel for its path), 0; nor for
    /// TensorRT-LLM or vLLM 0.5.
    pub fn decode_graph_max_batch(self, gpu_memory_bytes: f64, tp: u32) -> f64 {
        /// SGLang's tiers: (memory up to, GiB; limit at TP < 4; limit at TP ≥ 4).
        const SGLANG_TIERS: [(f64, f64, f64); 5] = [
            (20.0, 8.0, 8.0),
            (35.0, 48.0, 160.0),
            (60.0, 32.0, 160.0),
            (160.0, 256.0, 512.0),
            (f64::INFINITY, 512.0, 512.0),
        ];
        let nominal_gb = gpu_memory_bytes / 1e9;
        if self != ServingStack::Sglang || nominal_gb.is_nan() || nominal_gb <= 0.0 {
            return 0.0;
        }
        let (_, small_tp, large_tp) =
            SGLANG_TIERS.into_iter().find(|t| nominal_gb <= t.0).unwrap_or(SGLANG_TIERS[4]);
        if tp < 4 {
            small_tp
        } else {
            large_tp
        }
    }
}

/// Host seconds per kernel of a decode step SGLang runs eagerly (above its largest decode
/// graph): 17.8 µs.
///
/// SGLang pull request #40346 (2026-09-19) measures SGLang v0.5.20 serving Qwen3-0.6B (28
/// layers) on an RTX 5090, 1,000 requests of 128 prompt and 256 output tokens at 50 requests/s:
/// with the default decode-graph limit of 48 the running batch passes it and the median time
/// per output token is 5.44-5.51 ms; with graphs up to 128 it is 2.64 ms. The graphed step
/// bounds the GPU's work, so the eager one is the host's: Python dispatch and the launch of each
/// kernel, one after another. The value is the host time per kernel at which the engine's load
/// model, run at that setting in the eager state (the running batch past the limit, as measured),
/// gives the measured 5.44-5.51 ms per output token (5.49 ms; `tests/load.rs`): the median
/// counts the prompts' steps between decode steps, so the plain quotient, 5.475 ms over 28 layers
/// × 10 kernels = 19.6 µs, would count them twice. One desktop host's measurement; other hosts
/// (slower server cores) may take longer, not measured. An eager step takes
/// `max(t_gpu, K · this)` with `K` the kernels of one pass
/// ([`crate::engine::perf::timing::kernels_per_pass`]): on a small model at a small batch the
/// host's time, on a large model the GPU's.
pub const SGLANG_EAGER_KERNEL_HOST_S: f64 = 17.8e-6;

/// The source of [`SGLANG_EAGER_KERNEL_HOST_S`], as the report cites it (a title: the
/// derivation is the constant's doc).
pub const SGLANG_EAGER_KERNEL_HOST_SOURCE: &str = "SGLang pull request #40346 (2026-09-19)";

/// The source of [`SGLANG_MLA_REQUEST_OVERHEAD_S`], as the report cites it (a title: the
/// derivation is the constant's doc).
pub const SGLANG_MLA_REQUEST_OVERHEAD_SOURCE: &str =
    "tenstorrent/tt-inference-server issue #356, \"DeepSeek-R1-0528: GPU Benchmarks\" (2025-07-09)";

/// The client that measures a closed loop at a fixed concurrency: it decides which requests
/// the reported means cover.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum BenchTool {
    /// `vllm bench serve --max-concurrency N --num-prompts M` and `sglang.bench_serving`: all
    /// requests created up front behind a semaphore of N (N start together), the means over all
    /// M requests, the first wave included (vLLM `benchmarks/serve.py`; SGLang
    /// `bench_serving.py`).
    #[default]
    VllmBench,
    /// genai-perf (perf_analyzer, NVIDIA NIM's benchmarking guide): the concurrency is held and
    /// measured over windows once the rates are stable, so the first wave and the drain are not
    /// in the means (perf_analyzer docs, "measurement mode": stability over consecutive windows).
    GenaiPerf,
}

impl BenchTool {
    pub const ALL: [BenchTool; 2] = [BenchTool::VllmBench, BenchTool::GenaiPerf];

    pub fn key(self) -> &'static str {
        match self {
            BenchTool::VllmBench => "vllm_bench",
            BenchTool::GenaiPerf => "genai_perf",
        }
    }
}

/// How a scheduler mixes prompts with running sequences.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum PrefillPolicy {
    /// Every step gives each running sequence a token, then fills the token budget with prompt
    /// chunks (vLLM V1, Sarathi-Serve).
    #[default]
    Mixed,
    /// Waiting prompts run in steps of their own, whole, before the running sequences' next
    /// decode (SGLang's default, vLLM before chunked prefill): each such step stalls them.
    PrefillFirst,
}

impl PrefillPolicy {
    pub fn key(self) -> &'static str {
        match self {
            PrefillPolicy::Mixed => "mixed",
            PrefillPolicy::PrefillFirst => "prefill_first",
        }
    }
}

/// The kernel family that runs an MoE layer's routed experts (a grouped GEMM over the experts
/// its tokens are routed to).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum MoeKernel {
    /// Triton's `fused_moe` (vLLM, SGLang).
    TritonFused,
    /// DeepSeek's DeepGEMM grouped FP8 GEMM (contiguous layout for prefill, masked for decode).
    Deepgemm,
    /// CUTLASS grouped GEMMs (TensorRT-LLM's MoE, vLLM's CUTLASS MoE, `torch._grouped_mm`).
    CutlassGrouped,
}

impl MoeKernel {
    pub const ALL: [MoeKernel; 3] = [MoeKernel::TritonFused, MoeKernel::Deepgemm, MoeKernel::CutlassGrouped];

    pub fn key(self) -> &'static str {
        match self {
            MoeKernel::TritonFused => "triton_fused",
            MoeKernel::Deepgemm => "deepgemm",
            MoeKernel::CutlassGrouped => "cutlass_grouped",
        }
    }

    /// The family's measured costs for weights stored `block_scaled` (FP8 with a scale per
    /// 128 × 128 block, DeepSeek-V3's format) or not (per-tensor FP8, 16-bit).
    ///
    /// Fits of the published kernel times to `t = t0 + W_touched / (B · η_b)` over batches
    /// 1–32 (the weight-read regime, `W_touched` the bytes of the experts the batch touches):
    /// - Triton, block-scaled FP8: SGLang PR #11730 (Qwen3-235B-A22B-FP8, TP 8, H200, default
    ///   config, 2025-10): 31.7 µs at 1 token to 125.0 µs at 32 → t0 23 µs, η_b 0.54;
    /// - Triton, per-tensor FP8: vLLM PR #24700 (Qwen3-30B-A3B, TP 1, H100, 2025-09): 44.5 µs
    ///   at 1 token to 185.4 µs at 16 → t0 32 µs, η_b 0.75;
    /// - DeepGEMM, block FP8: vLLM PR #13932 (DeepSeek-V3, H100, 2025-02-26), 128 tokens:
    ///   0.52 of HBM at TP 1 (an expert's slice 7168 × 2048) falling to 0.21 at TP 8 (7168 × 256).
    ///
    /// The compute-bound regime, as the FLOP rate on the padded rows ([`crate::engine::perf::moe::padded_rows`])
    /// once `t0` is taken off, relative to the GPU's 16-bit dense peak:
    /// - Triton: 1,647.6 µs at 4,096 tokens for Qwen3-30B-A3B's 2048 × 768 experts (188 TFLOPS
    ///   of useful FLOPs, 215 on padded rows: 0.22 of H100's 989) and 1,122.9 µs at 1,536
    ///   tokens for Mixtral's 4096 × 7168 halves at TP 2 (538 TFLOPS padded: 0.54), both vLLM
    ///   PR #24700;
    /// - DeepGEMM: 1,214–1,346 TFLOPS in its contiguous grouped layout on H800 (README,
    ///   2025-03-25; 1.23–1.36 of the 989 BF16 peak);
    /// - CUTLASS: `torch._grouped_mm` 181 and 242 TFLOPS on H100 BF16 at 2048 × 512 and
    ///   2048 × 768 experts, 32,768 tokens (VeOmni PR #460, 2026-02): 199 and 250 on padded
    ///   rows (0.20, 0.25).
    ///
    /// Where a family has no measurement of a regime, the nearest measured family stands in
    /// (named in `note`). Rows padded per expert: Triton's `moe_align_block_size` pads to
    /// BLOCK_SIZE_M (64 in the default configs for large batches); DeepGEMM's contiguous layout
    /// aligns each expert to 128 rows; CUTLASS tiles 128 rows.
    pub fn costs(self, block_scaled: bool) -> GroupedGemmCosts {
        const TRITON_COMPUTE: [(f64, f64); 2] = [(1.572_864e6, 0.22), (2.936_012_8e7, 0.54)];
        match (self, block_scaled) {
            (MoeKernel::TritonFused, true) => GroupedGemmCosts {
                kernel: self,
                fixed_s: 23e-6,
                bandwidth: [(1.0, 0.54), (1.0, 0.54)],
                compute_16bit: TRITON_COMPUTE,
                block_rows: 64.0,
                source: "SGLang PR #11730 (H200, 2025-10); vLLM PR #24700 (H100, 2025-09)",
                note: StandIn::None,
            },
            (MoeKernel::TritonFused, false) => GroupedGemmCosts {
                kernel: self,
                fixed_s: 32e-6,
                bandwidth: [(1.0, 0.75), (1.0, 0.75)],
                compute_16bit: TRITON_COMPUTE,
                block_rows: 64.0,
                source: "vLLM PR #24700 (H100, 2025-09)",
                note: StandIn::None,
            },
            (MoeKernel::Deepgemm, _) => GroupedGemmCosts {
                kernel: self,
                fixed_s: 23e-6,
                bandwidth: [(1.835_008e6, 0.21), (1.468_006_4e7, 0.52)],
                compute_16bit: [(1.0, 1.23), (1.0, 1.23)],
                block_rows: 128.0,
                source: "vLLM PR #13932 (H100, 2025-02-26); DeepGEMM README (H800, 2025-03-25)",
                note: StandIn::FixedCostFromTriton,
            },
            (MoeKernel::CutlassGrouped, _) => GroupedGemmCosts {
                kernel: self,
                fixed_s: 32e-6,
                bandwidth: [(1.0, 0.75), (1.0, 0.75)],
                compute_16bit: [(1.048_576e6, 0.20), (1.572_864e6, 0.25)],
                block_rows: 128.0,
                source: "VeOmni PR #460 (torch._grouped_mm, H100, 2026-02); weight reads as vLLM PR #24700's Triton",
                note: StandIn::WeightReadsFromTriton,
            },
        }
    }
}

/// Where a kernel family's value is another family's (no measurement of its own).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum StandIn {
    None,
    /// The fixed cost per layer is Triton's (the same wrapper kernels around the GEMMs).
    FixedCostFromTriton,
    /// The weight-read regime (fixed cost, share of bandwidth) is Triton's.
    WeightReadsFromTriton,
}

/// What one MoE layer's grouped GEMMs cost in a kernel family ([`MoeKernel::costs`]).
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct GroupedGemmCosts {
    pub kernel: MoeKernel,
    /// Seconds per MoE layer whatever the tokens: routing alignment, activation quantisation,
    /// the activation and the weighted sum, the GEMMs' tails (`t0`).
    pub fixed_s: f64,
    /// Share of HBM bandwidth while the experts' weights stream (`η_b`), at two expert slice
    /// sizes `(H·I/moe_tp, share)`, interpolated in the logarithm of the slice.
    pub bandwidth: [(f64, f64); 2],
    /// FLOP rate while compute-bound, as a share of the GPU's 16-bit dense peak (`η_c`), at two
    /// slice sizes, interpolated the same way.
    pub compute_16bit: [(f64, f64); 2],
    /// Rows each expert's tokens are padded to (`BM`).
    pub block_rows: f64,
    pub source: &'static str,
    pub note: StandIn,
}

/// Which family of custom all-reduce kernels a stack runs for tensor parallelism inside a node
/// ([`crate::engine::perf::custom_all_reduce`], which uses their fixed time per call).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum AllReduceKernels {
    /// vLLM's `CustomAllreduce` (`csrc/custom_all_reduce.cuh`).
    Vllm,
    /// TensorRT-LLM's kernels, which SGLang runs (`sgl-kernel`'s `custom_reduce`).
    Trtllm,
}

impl AllReduceKernels {
    /// `α(n)` at 2, 4 and 8 GPUs (SGLang pull request #2904, H100).
    fn latency_points(self) -> [(f64, f64); 3] {
        match self {
            AllReduceKernels::Vllm => [(2.0, 9.5e-6), (4.0, 9.1e-6), (8.0, 10.1e-6)],
            AllReduceKernels::Trtllm => [(2.0, 3.7e-6), (4.0, 4.8e-6), (8.0, 5.9e-6)],
        }
    }

    /// `α(n)`: the measured points, linear in between. Worked: SGLang's on 6 GPUs → 5.35 µs.
    pub fn latency_s(self, ranks: u32) -> f64 {
        let points = self.latency_points();
        let n = f64::from(ranks);
        let mut prev = points[0];
        for p in points {
            if n <= p.0 {
                let span = p.0 - prev.0;
                return if span > 0.0 { prev.1 + (p.1 - prev.1) * (n - prev.0) / span } else { p.1 };
            }
            prev = p;
        }
        prev.1
    }
}

/// How an MoE layer's tokens reach the GPUs holding their experts and come back (dispatch and
/// combine), with expert parallelism.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum EpComm {
    /// NCCL all-to-all at the link's measured bus bandwidth.
    #[default]
    Nccl,
    /// DeepEP's normal kernels (prefill, high throughput).
    DeepepNormal,
    /// DeepEP's low-latency kernels (decode, RDMA).
    DeepepLowLatency,
}

impl EpComm {
    pub const ALL: [EpComm; 3] = [EpComm::Nccl, EpComm::DeepepNormal, EpComm::DeepepLowLatency];

    pub fn key(self) -> &'static str {
        match self {
            EpComm::Nccl => "nccl",
            EpComm::DeepepNormal => "deepep_normal",
            EpComm::DeepepLowLatency => "deepep_low_latency",
        }
    }
}

/// DeepEP's low-latency kernels: `(EP, dispatch GB/s, combine GB/s)` of RDMA bandwidth, 128
/// tokens per rank, hidden 7168, top-8, FP8 dispatch and BF16 combine, H800 with ConnectX-7
/// 400 Gb/s InfiniBand (DeepEP README, updated 2025-06-05, commit de8cfca).
pub const DEEPEP_LOW_LATENCY: [(f64, f64, f64); 6] = [
    (8.0, 98e9, 127e9),
    (16.0, 63e9, 74e9),
    (32.0, 48e9, 53e9),
    (64.0, 43e9, 46e9),
    (128.0, 39e9, 39e9),
    (256.0, 39e9, 40e9),
];

/// DeepEP's normal kernels: the share of the link they reach, intranode over NVLink (EP 8:
/// 153 of 160 GB/s) and internode over RDMA (EP 16: 43 of 50 GB/s), H800, DeepEP README.
pub const DEEPEP_NORMAL_SHARE: (f64, f64) = (153.0 / 160.0, 43.0 / 50.0);

/// The weight-only kernel that multiplies quantised weights at decode (batch 1).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum WeightKernel {
    /// MARLIN (vLLM `gptq_marlin`, `awq_marlin`).
    Marlin,
    /// Machete (vLLM's Hopper mixed-input GEMM).
    Machete,
    /// ExLlamaV2 (GPTQ and EXL2).
    Exllamav2,
    /// AWQ's W4A16 GEMV (TinyChat, AutoAWQ).
    AwqGemv,
    /// bitsandbytes NF4 (Hugging Face transformers).
    BnbNf4,
    /// llama.cpp's quantised matrix-vector kernels (MMVQ).
    LlamaCppMmvq,
}

impl WeightKernel {
    pub const ALL: [WeightKernel; 6] = [
        WeightKernel::Marlin,
        WeightKernel::Machete,
        WeightKernel::Exllamav2,
        WeightKernel::AwqGemv,
        WeightKernel::BnbNf4,
        WeightKernel::LlamaCppMmvq,
    ];

    pub fn key(self) -> &'static str {
        match self {
            WeightKernel::Marlin => "marlin",
            WeightKernel::Machete => "machete",
            WeightKernel::Exllamav2 => "exllamav2",
            WeightKernel::AwqGemv => "awq_gemv",
            WeightKernel::BnbNf4 => "bnb_nf4",
            WeightKernel::LlamaCppMmvq => "llama_cpp_mmvq",
        }
    }

    /// The kernel's bandwidth on quantised weights at batch 1, relative to a 16-bit GEMV reading
    /// the same bytes (the engine's `memory_bandwidth` share), from end-to-end decode rates:
    /// `share = tokens/s × bytes per token / peak bandwidth / 0.85`, capped at 1.
    /// - ExLlamaV2: Llama-7B GPTQ on an RTX 4090, 198 tokens/s × 3.63 GB / 1,008 GB/s = 0.71
    ///   → 0.84 (README performance table);
    /// - AWQ GEMV (TinyChat): Vicuna-7B on an RTX 4090, 5.33 ms per token, 3.63 GB → 0.68
    ///   → 0.80 (llm-awq tinychat README);
    /// - MARLIN: about 3.8× a 16-bit GEMV at batch 1–16 of the 3.87× ideal (Frantar et al.,
    ///   MARLIN, PPoPP 2025) → 0.98; Machete: "about 4× in memory-bound" (Neural Magic,
    ///   2024-10-14), no batch-1 table: MARLIN's;
    /// - bitsandbytes NF4 0.41: 3.8× a BF16 read on RTX 4090, 3.1× on RTX 3090/A40, 1.5× on A100,
    ///   1.1× on RTX 2080 Ti, of an ideal 3.56× (4.5 bits) (bitsandbytes 0.41.0 release notes,
    ///   2023-07-23) → 1.0 (Ada, Hopper), 0.87 (Ampere consumer), 0.42 (A100), 0.31 (Turing);
    /// - llama.cpp MMVQ reads the blocks as stored: 1 (the engine's GGUF decode, 3% median error).
    pub fn read_share(self, gpu_architecture: &str) -> f64 {
        match self {
            WeightKernel::Marlin | WeightKernel::Machete => 0.98,
            WeightKernel::Exllamav2 => 0.84,
            WeightKernel::AwqGemv => 0.80,
            WeightKernel::LlamaCppMmvq => 1.0,
            WeightKernel::BnbNf4 => {
                let a = gpu_architecture.to_ascii_lowercase();
                if a.contains("ga100") || a.contains("a100") {
                    0.42
                } else if a.contains("turing") {
                    0.31
                } else if a.contains("ampere") {
                    0.87
                } else {
                    1.0
                }
            }
        }
    }

    /// Where [`WeightKernel::read_share`] comes from.
    pub fn source(self) -> &'static str {
        match self {
            WeightKernel::Marlin => "Frantar et al., MARLIN (PPoPP 2025, arXiv:2408.11743)",
            WeightKernel::Machete => {
                "Neural Magic, Introducing Machete (2024-10-14); as MARLIN until a batch-1 table is published"
            }
            WeightKernel::Exllamav2 => {
                "turboderp/exllamav2 README, Performance (RTX 4090, Llama-7B GPTQ 198 tokens/s)"
            }
            WeightKernel::AwqGemv => {
                "mit-han-lab/llm-awq tinychat README, speed benchmarks (RTX 4090, Vicuna-7B 5.33 ms/token)"
            }
            WeightKernel::BnbNf4 => {
                "bitsandbytes 0.41.0 release notes (2023-07-23), 4-bit inference speed-ups by GPU"
            }
            WeightKernel::LlamaCppMmvq => "llama.cpp ggml-cuda/mmvq.cu (blocks read as stored)",
        }
    }
}

/// An AMD RDNA generation, as llama.cpp's kernels are tuned for it (a gfx target family: gfx110x,
/// gfx115x, gfx120x), read from the catalog's architecture. RDNA 1 and 2 (no WMMA) have no measured
/// share of their own and take RDNA 3's.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Rdna {
    Rdna3,
    /// RDNA 3.5 (Strix Halo's Radeon 8060S, gfx1151).
    Rdna35,
    Rdna4,
}

impl Rdna {
    /// The generation of a catalog architecture (`None` outside RDNA).
    pub fn of(architecture: &str) -> Option<Rdna> {
        if !architecture.contains("RDNA") {
            None
        } else if architecture.contains("RDNA 3.5") {
            Some(Rdna::Rdna35)
        } else if architecture.contains("RDNA 4") {
            Some(Rdna::Rdna4)
        } else {
            Some(Rdna::Rdna3)
        }
    }

    pub fn key(self) -> &'static str {
        match self {
            Rdna::Rdna3 => "RDNA 3",
            Rdna::Rdna35 => "RDNA 3.5",
            Rdna::Rdna4 => "RDNA 4",
        }
    }
}

/// llama.cpp's GPU back end, as llama-bench prints it (`backend`, and for Vulkan whether the
/// driver exposes matrix cores: `matrix cores: KHR_coopmat | none`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum LlamaBackend {
    Cuda,
    Metal,
    /// HIP (ROCm).
    Rocm,
    /// Vulkan with `VK_KHR_cooperative_matrix`.
    VulkanCoopmat,
    /// Vulkan without matrix cores (scalar and integer-dot shaders).
    Vulkan,
}

impl LlamaBackend {
    pub const ALL: [LlamaBackend; 5] = [
        LlamaBackend::Cuda,
        LlamaBackend::Metal,
        LlamaBackend::Rocm,
        LlamaBackend::VulkanCoopmat,
        LlamaBackend::Vulkan,
    ];

    pub fn key(self) -> &'static str {
        match self {
            LlamaBackend::Cuda => "cuda",
            LlamaBackend::Metal => "metal",
            LlamaBackend::Rocm => "rocm",
            LlamaBackend::VulkanCoopmat => "vulkan_coopmat",
            LlamaBackend::Vulkan => "vulkan",
        }
    }

    /// The share of the GPU's 16-bit matrix peak llama.cpp's prompt processing reaches on a
    /// dense model with this back end on an AMD RDNA generation (`None`: the engine's own GEMM
    /// fractions, as on CUDA and Metal). llama.cpp tunes its kernels per gfx target (ROCm's MMQ
    /// tiles per RDNA generation: PRs #17576, #18666, #26284; Vulkan's AMD coopmat tiles: PR
    /// #18749, tuned on the Radeon 8060S), so each generation takes the share measured on it.
    /// From llama-bench rates × FLOPs per token (twice the matrix parameters, plus attention at
    /// the mean context) over the catalog's FP16 peak, each from a source the validation does not
    /// compare against:
    /// - ROCm, RDNA 3.5: Radeon 8060S Llama-3-8B Q4_0 pp512 815.22 tokens/s × 15.1 GFLOP = 0.21
    ///   of 59.4 TFLOPS (llama.cpp PR #18749, its ROCm column, 2026-01-11);
    /// - ROCm, RDNA 3: RX 7900 XTX Llama-3-8B Q4_K_M pp2048 at `-ub 512` 3,226.54 tokens/s ×
    ///   15.6 GFLOP = 0.41 of 122.9 TFLOPS (llama.cpp PR #26284, WMMA-MMQ);
    /// - ROCm, RDNA 4: Radeon AI PRO R9700 the same test 4,095.11 tokens/s × 15.6 GFLOP = 0.33
    ///   of its 191 TFLOPS FP16 (AMD's R9700 specification; the same PR);
    /// - Vulkan with KHR_coopmat, RDNA 3.5: Radeon 8060S Llama-3-8B Q4_0 pp512 875.24 tokens/s
    ///   × 15.1 GFLOP = 0.22 of 59.4 TFLOPS (PR #18749, after its AMD coopmat tuning);
    /// - Vulkan with KHR_coopmat, RDNA 3 and 4: RX 9070 XT Llama-3.1-8B Q4_K_M 4,802 tokens/s ×
    ///   15.1 GFLOP = 0.37 of 194.6 TFLOPS (vulkanforge wiki, llama.cpp b9174, 2026-06);
    /// - Vulkan without matrix cores: RX 7900 XT Qwen2.5-14B 335.6 tokens/s × 28.2 GFLOP =
    ///   0.092 of 103.2 TFLOPS (geerlingguy/ai-benchmarks #23, 2025-09).
    pub fn prompt_share(self, generation: Rdna) -> Option<f64> {
        match (self, generation) {
            (LlamaBackend::Cuda | LlamaBackend::Metal, _) => None,
            (LlamaBackend::Rocm, Rdna::Rdna35) => Some(0.21),
            (LlamaBackend::Rocm, Rdna::Rdna3) => Some(0.41),
            (LlamaBackend::Rocm, Rdna::Rdna4) => Some(0.33),
            (LlamaBackend::VulkanCoopmat, Rdna::Rdna35) => Some(0.22),
            (LlamaBackend::VulkanCoopmat, Rdna::Rdna3 | Rdna::Rdna4) => Some(0.37),
            (LlamaBackend::Vulkan, _) => Some(0.092),
        }
    }

    /// Where [`LlamaBackend::prompt_share`] comes from.
    pub fn source(self, generation: Rdna) -> &'static str {
        match (self, generation) {
            (LlamaBackend::Cuda, _) => "the engine's MMQ fraction (llama.cpp PR #7676)",
            (LlamaBackend::Metal, _) => "the engine's Apple GPU profile",
            (LlamaBackend::Rocm, Rdna::Rdna35) => {
                "llama.cpp PR #18749, ROCm column (Radeon 8060S, Llama-3-8B Q4_0 pp512 815.22 tokens/s, 2026-01-11)"
            }
            (LlamaBackend::Rocm, Rdna::Rdna3) => {
                "llama.cpp PR #26284 (RX 7900 XTX, Llama-3-8B Q4_K_M pp2048 -ub 512, 3,226.54 tokens/s)"
            }
            (LlamaBackend::Rocm, Rdna::Rdna4) => {
                "llama.cpp PR #26284 (Radeon AI PRO R9700, Llama-3-8B Q4_K_M pp2048 -ub 512, 4,095.11 tokens/s; 191 TFLOPS FP16, AMD specification)"
            }
            (LlamaBackend::VulkanCoopmat, Rdna::Rdna35) => {
                "llama.cpp PR #18749, Vulkan after tuning (Radeon 8060S KHR_coopmat, Llama-3-8B Q4_0 pp512 875.24 tokens/s, 2026-01-11)"
            }
            (LlamaBackend::VulkanCoopmat, Rdna::Rdna3 | Rdna::Rdna4) => {
                "maeddesg/vulkanforge wiki, Benchmarks (RX 9070 XT, llama.cpp b9174 KHR_coopmat, 2026-06)"
            }
            (LlamaBackend::Vulkan, _) => {
                "geerlingguy/ai-benchmarks issue #23 (RX 7900 XT, RADV, matrix cores: none, 2025-09)"
            }
        }
    }

    /// The back end llama.cpp builds for a GPU by default: CUDA on NVIDIA, Metal on Apple, HIP
    /// (ROCm) on AMD.
    pub fn default_for(vendor: &str) -> LlamaBackend {
        match vendor {
            "AMD" => LlamaBackend::Rocm,
            "Apple" => LlamaBackend::Metal,
            _ => LlamaBackend::Cuda,
        }
    }

    /// Token columns of the tile `mul_mat_id` runs a micro-batch's experts in, chosen from the
    /// micro-batch's total tokens `n` (not each expert's): ggml-vulkan.cpp
    /// `ggml_vk_guess_matmul_id_pipeline` takes the small pipeline for `n ≤ 32`, medium for
    /// `n ≤ 64`, large above, whose `wg_denoms` are 32, 64 and 128 token columns without
    /// NV_coopmat2 (`l/m/s_mmq_wg_denoms`), and `ggml_vk_matmul_id` dispatches `{m, n, n_as}`:
    /// every expert's work-groups cover the columns of the whole micro-batch, those past its own
    /// tokens exiting early (ggml-org/llama.cpp, ggml/src/ggml-vulkan/ggml-vulkan.cpp at
    /// 80ec54e9). CUDA, HIP and Metal pick the tile per expert (`mmq_x` to minimise waste):
    /// `None`.
    pub fn moe_token_tile(self, micro_batch_tokens: f64) -> Option<f64> {
        match self {
            LlamaBackend::Vulkan | LlamaBackend::VulkanCoopmat => Some(if micro_batch_tokens <= 32.0 {
                32.0
            } else if micro_batch_tokens <= 64.0 {
                64.0
            } else {
                128.0
            }),
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sglangs_decode_graphs_follow_its_memory_tiers() {
        let s = ServingStack::Sglang;
        // RTX 4060 8 GB, A10 24 GB, L40S 48 GB, H100 80 GB, H200 141 GB, B200 192 GB (nominal).
        assert_eq!(s.decode_graph_max_batch(8e9, 1), 8.0);
        assert_eq!(s.decode_graph_max_batch(24e9, 2), 48.0);
        assert_eq!(s.decode_graph_max_batch(24e9, 4), 160.0);
        assert_eq!(s.decode_graph_max_batch(48e9, 1), 32.0);
        assert_eq!(s.decode_graph_max_batch(80e9, 1), 256.0);
        assert_eq!(s.decode_graph_max_batch(80e9, 8), 512.0);
        assert_eq!(s.decode_graph_max_batch(141e9, 8), 512.0);
        assert_eq!(s.decode_graph_max_batch(192e9, 1), 512.0);
        // A card of N nominal GB reports just under N GiB: 20 GB (20,475 MiB) and 64 GB
        // (MI210, 65,520 MiB) sit in the tiers below 20 and 160 GiB.
        assert_eq!(s.decode_graph_max_batch(20e9, 1), 8.0);
        assert_eq!(s.decode_graph_max_batch(20.5e9, 1), 48.0);
        assert_eq!(s.decode_graph_max_batch(64e9, 1), 256.0);
        assert_eq!(s.decode_graph_max_batch(0.0, 1), 0.0);
        assert_eq!(s.decode_graph_max_batch(f64::NAN, 1), 0.0);
        for other in [ServingStack::VllmV1, ServingStack::VllmV05, ServingStack::Trtllm] {
            assert_eq!(other.decode_graph_max_batch(24e9, 1), 0.0);
        }
    }

    #[test]
    fn log_interpolation_worked() {
        let p = [(1.572_864e6, 0.22), (2.936_012_8e7, 0.54)];
        let ds = crate::engine::num::log_interpolate(&p, 7168.0 * 256.0);
        assert!((ds - 0.237).abs() < 0.001, "{ds}");
        assert_eq!(crate::engine::num::log_interpolate(&p, 1.0), 0.22);
        assert_eq!(crate::engine::num::log_interpolate(&p, 1e12), 0.54);
        assert_eq!(crate::engine::num::log_interpolate(&p, f64::NAN), 0.22);
        // A flat entry gives its value everywhere.
        assert_eq!(crate::engine::num::log_interpolate(&[(1.0, 0.54), (1.0, 0.54)], 5e6), 0.54);
    }

    /// The key a scenario writes (`key`, which the docs and the estimator's menus use) is the
    /// one the scenario reads back, for every value of every named input.
    #[test]
    fn keys_read_back_as_written() {
        fn check<T: serde::de::DeserializeOwned + PartialEq + std::fmt::Debug + Copy>(
            all: &[T],
            key: fn(T) -> &'static str,
        ) {
            for v in all {
                let read: T = serde_json::from_value(serde_json::Value::from(key(*v))).unwrap();
                assert_eq!(read, *v, "{}", key(*v));
            }
        }
        check(&ServingStack::ALL, ServingStack::key);
        check(&BenchTool::ALL, BenchTool::key);
        check(&MoeKernel::ALL, MoeKernel::key);
        check(&EpComm::ALL, EpComm::key);
        check(&WeightKernel::ALL, WeightKernel::key);
        check(&LlamaBackend::ALL, LlamaBackend::key);
        assert_eq!(ServingStack::VllmV05.key(), "vllm_v0_5");
    }

    #[test]
    fn stacks_set_their_policies() {
        assert_eq!(ServingStack::default(), ServingStack::VllmV1);
        assert_eq!(ServingStack::Sglang.settings().prefill_policy, PrefillPolicy::PrefillFirst);
        assert_eq!(ServingStack::Trtllm.settings().moe_kernel, MoeKernel::CutlassGrouped);
        // vLLM 0.5.3: the GPU 38% of the step.
        assert!((1.0 - ServingStack::VllmV05.settings().cpu_share_of_step - 0.38).abs() < 1e-12);
        for s in ServingStack::ALL {
            assert!(!s.settings().source.is_empty());
        }
    }

    #[test]
    fn weight_kernel_shares() {
        // ExLlamaV2: 198 tokens/s × 3.63 GB / 1008 GB/s = 0.713 of the peak, / 0.85 = 0.84.
        assert!((198.0 * 3.63e9 / 1008e9 / 0.85 - WeightKernel::Exllamav2.read_share("Ada")).abs() < 0.005);
        assert_eq!(WeightKernel::BnbNf4.read_share("Ampere (GA100)"), 0.42);
        assert_eq!(WeightKernel::BnbNf4.read_share("Ampere (GA102)"), 0.87);
        assert_eq!(WeightKernel::BnbNf4.read_share("Ada Lovelace"), 1.0);
    }

    #[test]
    fn vulkan_pads_experts_to_the_micro_batch_tile() {
        assert_eq!(LlamaBackend::Vulkan.moe_token_tile(256.0), Some(128.0));
        assert_eq!(LlamaBackend::VulkanCoopmat.moe_token_tile(64.0), Some(64.0));
        assert_eq!(LlamaBackend::Vulkan.moe_token_tile(8.0), Some(32.0));
        assert_eq!(LlamaBackend::Cuda.moe_token_tile(256.0), None);
        // RX 7900 XT, Qwen2.5-14B: 335.6 × 28.2e9 / 103.2e12 = 0.0917.
        assert!(
            (335.6 * 28.2e9 / 103.2e12 - LlamaBackend::Vulkan.prompt_share(Rdna::Rdna3).unwrap()).abs()
                < 0.001
        );
    }

    /// Each RDNA generation takes the share measured on it: RX 7900 XTX (RDNA 3) on ROCm
    /// 3,226.54 tokens/s × 15.6 GFLOP / 122.88 TFLOPS = 0.410; R9700 (RDNA 4) 4,095.11 × 15.6 /
    /// 191 = 0.334; the 8060S (RDNA 3.5) on Vulkan with coopmat 875.24 × 15.1 / 59.39 = 0.2225.
    #[test]
    fn rdna_generations_take_their_own_prompt_share() {
        assert_eq!(Rdna::of("RDNA 3 (Navi 31)"), Some(Rdna::Rdna3));
        assert_eq!(Rdna::of("RDNA 3.5 iGPU (40 CU) + 16 Zen 5"), Some(Rdna::Rdna35));
        assert_eq!(Rdna::of("RDNA 4 (Navi 48)"), Some(Rdna::Rdna4));
        assert_eq!(Rdna::of("CDNA 2 (Aldebaran, 1 GCD)"), None);
        let near = |got: Option<f64>, want: f64| (got.unwrap() - want).abs() < 0.005;
        assert!(near(LlamaBackend::Rocm.prompt_share(Rdna::Rdna3), 3226.54 * 15.6e9 / 122.88e12));
        assert!(near(LlamaBackend::Rocm.prompt_share(Rdna::Rdna4), 4095.11 * 15.6e9 / 191e12));
        assert!(near(LlamaBackend::Rocm.prompt_share(Rdna::Rdna35), 815.22 * 15.1e9 / 59.392e12));
        assert!(near(LlamaBackend::VulkanCoopmat.prompt_share(Rdna::Rdna35), 875.24 * 15.1e9 / 59.392e12));
        assert_eq!(LlamaBackend::Cuda.prompt_share(Rdna::Rdna3), None);
    }
}
