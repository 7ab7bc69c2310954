//! What the report assumes, as typed facts with their numbers; `i18n::facts` words them.

use serde::Serialize;

/// One assumption behind the report's numbers.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Assumption {
    /// CUDA context, NCCL/cuBLAS workspaces and allocator reserve per GPU.
    RuntimeOverhead { bytes: u64 },
    /// Fraction of GPU memory kept free.
    SafetyMargin { fraction: f64 },
    /// Expert parallelism that does not divide the experts (vLLM): `heavier_ranks` GPUs hold one
    /// expert more, and the slowest sets the time.
    UnevenExperts { experts: u64, expert_parallel: u64, heavier_ranks: u64 },
    /// The context is longer than the model was built for (a warning).
    ContextBeyondModel { context: u64, limit: u64 },
    /// Embeddings, head, norms, biases and routers stay in 16 bits in quantised checkpoints.
    SmallTensorsIn16Bits,
    /// Speculative decoding is in the static times and memory, not yet in the load model, whose
    /// steps emit one token per sequence.
    SpeculationNotInLoad,
    /// KV tiers: uniform reuse over the open sessions, the restore before the prefill (not
    /// overlapped layer by layer), each restore at the link's full share.
    KvTiersUniformSequential,
    /// KV tiers are given without open sessions: no working set, every hit found on the GPU.
    KvTiersWithoutSessions,
    /// Inference: paged KV cache blocks and the prefill chunk.
    PagedKvAndChunk { block_tokens: u64, chunk_tokens: u64 },
    /// Training: no dropout, 1F1B schedule, 16-bit logits with fp32 for the loss.
    TrainingSchedule,
    /// LoRA/QLoRA: adapters, their gradients and optimizer states in fp32.
    AdaptersInFp32,
    /// Expected and bound times, with the efficiency factors used.
    TimeModel { memory_bandwidth: f64, tensor_flops: f64, kernel_launch_us: f64, kernels_per_layer: f64 },
    /// Decode reported at the average step of the generation.
    DecodeAtAverageStep { prompt: u64, output: u64, cached: f64 },
    /// LoRA/QLoRA step FLOPs: 4·P·tokens.
    LoraStepFlops,
    /// A fixed per-request cost added to the time to first token.
    FirstTokenFixedCost { ms: f64 },
    /// Weights dequantised in the kernel are read at `factor` of the 16-bit bandwidth.
    DequantisedWeightReads { dtype: crate::engine::precision::Dtype, factor: f64 },
    /// The 8/4-bit Tensor Core path reaches this fraction of its peak.
    LowPrecisionPath { tensor_flops: f64 },
    /// What the scaling curves scale.
    ScalingCurves { sequences: f64, seq_len: f64, micro_batches: u32, topology: String },
    /// Gemma 4: the text decoder alone (a multimodal checkpoint's vision and audio encoders are
    /// not counted); its per-layer embedding table (parameters, 0 when none) is in the total and
    /// looked up per token.
    TextDecoderOnly { per_layer_table: u64 },
}
