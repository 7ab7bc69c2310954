//! Partial offload in the time model: the layers (or experts) kept in host memory run on the CPU,
//! one after the GPU's layers, and the hidden state crosses PCIe between them.
//!
//! # Formula
//! For one forward pass over `T` tokens (decode: the batch; prefill: the prompt tokens):
//! - `T < 32`: the CPU computes what is in host memory, reading its bytes at the host's
//!   bandwidth, `Q_host / (B_host · e_host)`, and each of the `k` crossings copies the hidden
//!   state, `k · (t_x + T · d · 4 / (B_pcie · e_pcie))` (f32 activations, `d` the hidden size).
//! - `T ≥ 32`: llama.cpp copies the host-resident weights to the GPU and multiplies there ("op
//!   offload": `ggml_backend_cuda_device_offload_op` offloads a matrix product of at least 32
//!   rows, ggml/src/ggml-cuda/ggml-cuda.cu; `--no-op-offload` turns it off), once per micro-batch
//!   of at most 512 tokens (llama.cpp's default `n_ubatch`): `Σ_ubatch W_host(u) / (B_pcie ·
//!   e_pcie)`, where a routed-expert tensor brings only the experts the micro-batch's `u`
//!   tokens route to (`E·(1 − (1 − k/E)^u)` of `E`; llama.cpp PR #15346, "sched: copy only the
//!   used experts when offloading prompt processing", Aug 2025); the cache of the host layers is
//!   still read by the CPU. The output layer (`-ngl 0` only) multiplies just the rows that
//!   become logits, one per sequence (`inp_out_ids`): under 32 sequences the CPU reads it once,
//!   else it is copied once.
//!
//! On a unified-memory device nothing crosses PCIe, but the host layers' weights still sit in
//! the CPU's buffers: from 32 tokens on the scheduler copies them into the GPU's compute buffer
//! the same way, a memory-to-memory copy that reads and writes each byte (`2 · W_host` at the
//! host's bandwidth), and under 32 tokens the CPU cores read them, which reach only part of the
//! chip's bandwidth ([`UNIFIED_CPU_SHARE`]).
//!
//! The bound takes the peaks (`e = 1`) and no crossing latency; both are added to the GPU's
//! time ([`super::roofline::BoundTime::plus_host`]): a layer cannot start before the one before
//! it ends.

use super::phases::ModelShape;
use crate::engine::efficiency::Efficiency;

/// Tokens from which llama.cpp multiplies host-resident weights on the GPU.
pub const OP_OFFLOAD_MIN_TOKENS: f64 = 32.0;
/// llama.cpp's default micro-batch (`n_ubatch`, `llama_context_default_params`).
pub const UBATCH_TOKENS: f64 = 512.0;
/// Latency of one crossing: a synchronising copy of a few kilobytes between the two devices,
/// each side's graph split ending and the next starting (llama.cpp's `ggml_backend_sched` runs
/// each split as its own graph). Estimate: a PCIe round trip is about 1-2 µs and a CUDA
/// synchronisation and launch several more.
pub const CROSSING_LATENCY_S: f64 = 10e-6;

/// What partial offload keeps on the host, in the time model's units.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct HostShare {
    /// Weight bytes in host memory that a forward pass reads whole: the host layers' tensors
    /// other than routed experts (not the token embedding, whose rows are gathered).
    pub dense_bytes: f64,
    /// The output layer's bytes (final norm and head) when it stays in host memory (`-ngl 0`).
    pub output_bytes: f64,
    /// Routed-expert bytes in host memory (a token reads its top-k share).
    pub expert_bytes: f64,
    /// Share of the KV cache (and of a hybrid model's fixed state) in host memory.
    pub cache_fraction: f64,
    /// Decoder layers the CPU runs.
    pub cpu_layers: u32,
    /// GPU layers whose routed experts the CPU runs (`--n-cpu-moe`).
    pub cpu_moe_layers: u32,
    /// Whether the output layer runs on the CPU.
    pub output_on_host: bool,
}

/// The links the host part runs over.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct HostLink {
    /// Host memory bandwidth (peak), bytes/s.
    pub host_bytes_per_s: f64,
    /// PCIe per direction (peak), bytes/s; `None` on a unified-memory device.
    pub pcie_bytes_per_s: Option<f64>,
}

/// Seconds the host part adds to a forward pass: `(bound, expected)`, with its pieces.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct HostTime {
    pub bound_s: f64,
    pub expected_s: f64,
    /// Bytes the CPU reads from host memory.
    pub cpu_bytes: f64,
    /// Bytes copied across PCIe.
    pub pcie_bytes: f64,
    /// Crossings of the hidden state.
    pub crossings: f64,
    /// Whether the host's weights were multiplied on the GPU (op offload).
    pub op_offload: bool,
}

impl HostShare {
    /// Whether nothing the time model reads is on the host.
    pub fn is_empty(&self) -> bool {
        self.dense_bytes <= 0.0
            && self.output_bytes <= 0.0
            && self.expert_bytes <= 0.0
            && self.cache_fraction <= 0.0
    }

    /// Crossings of the hidden state per forward pass: into the GPU after the CPU's first
    /// layers, back for an output layer on the CPU, and out and back around each layer whose
    /// experts the CPU runs.
    pub fn crossings(&self) -> f64 {
        f64::from(u8::from(self.cpu_layers > 0))
            + f64::from(u8::from(self.output_on_host))
            + 2.0 * f64::from(self.cpu_moe_layers)
    }
}

/// The GPU's part of `m`: the host's weights and cache taken out (at least one byte of weights
/// and one layer stay, which the shape's checks need).
pub fn gpu_part(m: &ModelShape, h: &HostShare) -> ModelShape {
    let keep = (1.0 - h.cache_fraction).clamp(0.0, 1.0);
    ModelShape {
        dense_weight_bytes: (m.dense_weight_bytes - h.dense_bytes - h.output_bytes).max(1.0),
        expert_weight_bytes: (m.expert_weight_bytes - h.expert_bytes).max(0.0),
        kv_bytes_per_token: m.kv_bytes_per_token * keep,
        state_bytes_per_sequence: m.state_bytes_per_sequence * keep,
        layers: m.layers.saturating_sub(h.cpu_layers).max(1),
        ..m.clone()
    }
}

/// Bytes the CPU reads for a forward pass over `tokens` tokens of `batch` sequences that each
/// hold `context` tokens: its weights (experts: the share the tokens touch) and its cache.
fn cpu_bytes(m: &ModelShape, h: &HostShare, tokens: f64, batch: f64, context: f64) -> (f64, f64) {
    let (bound_experts, expected_experts) = if m.experts > 0 && m.expert_weight_bytes > 0.0 {
        let per_expert = h.expert_bytes / f64::from(m.experts);
        (per_expert * f64::from(m.experts_per_token), per_expert * m.experts_touched(tokens))
    } else {
        (0.0, 0.0)
    };
    let cache = h.cache_fraction
        * (batch * (context + 1.0) * m.kv_bytes_per_token + 2.0 * batch * m.state_bytes_per_sequence);
    let whole = h.dense_bytes + h.output_bytes + cache;
    (whole + bound_experts, whole + expected_experts)
}

/// Weight bytes a prompt of `tokens` tokens copies to the GPU under op offload: per
/// micro-batch of `u ≤ 512` tokens, the host layers' dense tensors and the experts its tokens
/// touch; the output layer once, when 32 or more sequences make logits (`outputs`).
fn op_offload_copy_bytes(m: &ModelShape, h: &HostShare, tokens: f64, outputs: f64) -> f64 {
    let full = (tokens / UBATCH_TOKENS).floor();
    let rest = tokens - full * UBATCH_TOKENS;
    let per_expert = if m.experts > 0 { h.expert_bytes / f64::from(m.experts) } else { 0.0 };
    let ubatch = |u: f64| {
        let experts = if m.experts > 0 { per_expert * m.experts_touched(u) } else { h.expert_bytes };
        h.dense_bytes + experts
    };
    let rest_bytes = if rest > 0.0 { ubatch(rest) } else { 0.0 };
    let head = if outputs >= OP_OFFLOAD_MIN_TOKENS { h.output_bytes } else { 0.0 };
    full * ubatch(UBATCH_TOKENS) + rest_bytes + head
}

/// [`HostTime`] of a forward pass over `tokens` tokens (`batch` sequences, `context` cached each).
pub fn host_time(
    m: &ModelShape,
    h: &HostShare,
    tokens: f64,
    batch: f64,
    context: f64,
    link: &HostLink,
    eff: &Efficiency,
) -> HostTime {
    if h.is_empty() {
        return HostTime::default();
    }
    let host_bw = link.host_bytes_per_s.max(1.0);
    let op_offload = tokens >= OP_OFFLOAD_MIN_TOKENS;
    let crossings = h.crossings();
    let (cpu_bound, cpu_expected) = if op_offload {
        // The host layers' caches stay with the CPU, and the output layer when fewer than 32
        // sequences make logits.
        let head = if batch < OP_OFFLOAD_MIN_TOKENS { h.output_bytes } else { 0.0 };
        let rest = HostShare { dense_bytes: 0.0, expert_bytes: 0.0, output_bytes: head, ..*h };
        cpu_bytes(m, &rest, tokens, batch, context)
    } else {
        cpu_bytes(m, h, tokens, batch, context)
    };
    let (pcie_bytes, pcie_bound, pcie_expected) = match link.pcie_bytes_per_s {
        Some(p) if p > 0.0 => {
            let weights = if op_offload { op_offload_copy_bytes(m, h, tokens, batch) } else { 0.0 };
            let hidden = crossings * tokens * f64::from(m.hidden) * 4.0;
            let bytes = weights + hidden;
            (bytes, bytes / p, bytes / (p * eff.pcie_bandwidth) + crossings * CROSSING_LATENCY_S)
        }
        // Unified memory: no link to cross; an op-offload copy is a memory copy (below).
        _ => (0.0, 0.0, crossings * CROSSING_LATENCY_S),
    };
    let unified_copy = if op_offload && link.pcie_bytes_per_s.is_none() {
        2.0 * op_offload_copy_bytes(m, h, tokens, batch)
    } else {
        0.0
    };
    let (cpu_bound, cpu_expected) = (cpu_bound + unified_copy, cpu_expected + unified_copy);
    HostTime {
        bound_s: cpu_bound / host_bw + pcie_bound,
        expected_s: cpu_expected / (host_bw * eff.host_memory_bandwidth) + pcie_expected,
        cpu_bytes: cpu_expected,
        pcie_bytes,
        crossings,
        op_offload,
    }
}

/// The host share of a scenario (empty when nothing the passes read is in host memory),
/// measured like [`super::performance::model_shape`]: the whole model on one GPU.
pub fn share_of(a: &crate::engine::model::Architecture, x: &crate::engine::memory::Inputs) -> HostShare {
    use crate::engine::memory::{expert_bytes, offload::Placement, weights::stage_weights};
    let p = Placement::of(a, x);
    if !p.splits() || x.pp > 1 {
        return HostShare::default();
    }
    let one = crate::engine::memory::Inputs { tp: 1, ..*x };
    let host_layers = p.host_layers();
    let layer_experts = expert_bytes(a, &one, host_layers.clone());
    let held = stage_weights(a, &one, host_layers.clone(), false, false).bytes;
    let output = if p.output_on_gpu { 0 } else { stage_weights(a, &one, 0..0, false, true).bytes };
    let experts = layer_experts + expert_bytes(a, &one, p.host_expert_layers_on_gpu());
    let count = |r: std::ops::Range<usize>| u32::try_from(r.len()).unwrap_or(u32::MAX);
    HostShare {
        dense_bytes: held.saturating_sub(layer_experts) as f64,
        output_bytes: output as f64,
        expert_bytes: experts as f64,
        cache_fraction: host_layers.len() as f64 / a.layers.max(1) as f64,
        cpu_layers: count(host_layers),
        cpu_moe_layers: count(p.host_expert_layers_on_gpu()),
        output_on_host: !p.output_on_gpu,
    }
}

/// Share of a unified-memory chip's bandwidth its CPU cores reach: AnandTech measured the M1
/// Max's CPU cores at roughly 200-240 of its 409.6 GB/s ("Huge Memory Bandwidth, but not for
/// every Block", Apple M1 Max performance review, 2021-10-25); 0.6 is the upper end. An
/// estimate: smaller chips' CPUs reach more of their narrower bus, and a reader who measured
/// theirs sets `host_memory_bandwidth_bytes_per_s`.
pub const UNIFIED_CPU_SHARE: f64 = 0.6;

/// The links of a scenario: the host's bandwidth (the scenario's, else dual-channel DDR5, or on
/// a unified-memory device the share of its own its CPU cores reach, [`UNIFIED_CPU_SHARE`]) and
/// the GPU's PCIe link (PCIe 4.0 x16 when the catalog gives none; none on a unified-memory
/// device).
pub fn link_of(s: &crate::engine::scenario::Scenario, gpu: &crate::engine::gpu::Gpu) -> HostLink {
    let unified = gpu.memory_kind.is_unified();
    let default_host = if unified {
        gpu.memory_bandwidth_bytes_per_s * UNIFIED_CPU_SHARE
    } else {
        crate::engine::scenario::DEFAULT_HOST_BANDWIDTH
    };
    HostLink {
        host_bytes_per_s: s.host_memory_bandwidth_bytes_per_s.unwrap_or(default_host),
        pcie_bytes_per_s: if unified {
            None
        } else {
            Some(gpu.pcie_bytes_per_s_per_direction().unwrap_or(PCIE4_X16))
        },
    }
}

/// PCIe 4.0 x16 per direction: 16 GT/s × 16 lanes × 128/130 / 8 = 31.5 GB/s (PCI-SIG; NVIDIA's
/// datasheets quote 64 GB/s for both directions).
pub const PCIE4_X16: f64 = 31.5e9;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::perf::phases::{tests::llama2_7b, ModelShape};

    const DDR5: HostLink = HostLink { host_bytes_per_s: 89.6e9, pcie_bytes_per_s: Some(31.5e9) };

    #[test]
    fn half_the_layers_on_the_cpu_at_batch_one() {
        // Llama-2-7B BF16: 13.21e9 bytes of weights; 16 of 32 layers on the host = 6.6e9 bytes.
        let m = llama2_7b();
        let h = HostShare { dense_bytes: 6.6e9, cache_fraction: 0.5, cpu_layers: 16, ..Default::default() };
        let t = host_time(&m, &h, 1.0, 1.0, 0.0, &DDR5, &Efficiency::default());
        // Bound: 6.6e9 / 89.6e9 = 73.7 ms (+ the cache); expected at 0.7: 105 ms + one crossing.
        assert!((t.bound_s - 6.6e9 / 89.6e9).abs() < 1e-3, "{}", t.bound_s);
        assert!((t.expected_s - 6.6e9 / (89.6e9 * 0.7)).abs() < 2e-3, "{}", t.expected_s);
        assert_eq!((t.crossings, t.op_offload), (1.0, false));
        let g = gpu_part(&m, &h);
        assert!((g.dense_weight_bytes - 6.61e9).abs() < 1e7 && g.layers == 16);
    }

    #[test]
    fn a_prompt_copies_the_host_weights_once_per_ubatch() {
        let m = llama2_7b();
        let h = HostShare { dense_bytes: 6.6e9, cache_fraction: 0.5, cpu_layers: 16, ..Default::default() };
        let t = host_time(&m, &h, 2048.0, 1.0, 0.0, &DDR5, &Efficiency::default());
        // 4 ubatches × 6.6e9 bytes over 31.5e9 × 0.8.
        assert!(t.op_offload && (t.pcie_bytes - 4.0 * 6.6e9 - 2048.0 * 4096.0 * 4.0).abs() < 1.0);
        assert!(
            (t.expected_s - t.pcie_bytes / (31.5e9 * 0.8) - 10e-6 - t.cpu_bytes / (89.6e9 * 0.7)).abs()
                < 1e-9
        );
        assert!(t.bound_s <= t.expected_s);
    }

    #[test]
    fn a_prompt_copies_only_the_experts_its_micro_batch_touches() {
        // 128 experts, 8 per token, 10e9 bytes of them on the host: 100 tokens touch
        // 128·(1 − (120/128)^100) = 127.8 experts per layer, 40 tokens 119.0 of 128.
        let m = ModelShape { experts: 128, experts_per_token: 8, expert_weight_bytes: 20e9, ..llama2_7b() };
        let h = HostShare { expert_bytes: 10e9, cpu_moe_layers: 10, ..Default::default() };
        let t = host_time(&m, &h, 40.0, 1.0, 0.0, &DDR5, &Efficiency::default());
        let touched = 128.0 * (1.0 - (120.0_f64 / 128.0).powi(40));
        let hidden = 20.0 * 40.0 * 4096.0 * 4.0;
        assert!((t.pcie_bytes - (10e9 / 128.0 * touched + hidden)).abs() < 1.0, "{}", t.pcie_bytes);
        assert!(t.pcie_bytes < 10e9);
        // 1,100 tokens: two full micro-batches and one of 76 tokens.
        let t = host_time(&m, &h, 1100.0, 1.0, 0.0, &DDR5, &Efficiency::default());
        let per = |u: f64| 10e9 / 128.0 * 128.0 * (1.0 - (120.0_f64 / 128.0).powf(u));
        let hidden = 20.0 * 1100.0 * 4096.0 * 4.0;
        assert!((t.pcie_bytes - (2.0 * per(512.0) + per(76.0) + hidden)).abs() < 1.0);
    }

    #[test]
    fn the_output_layer_on_the_host_is_read_by_the_cpu_for_few_sequences() {
        let m = llama2_7b();
        let h = HostShare { output_bytes: 0.5e9, output_on_host: true, ..Default::default() };
        // A prompt of one sequence: one row of logits, so the CPU reads the head once.
        let t = host_time(&m, &h, 2048.0, 1.0, 0.0, &DDR5, &Efficiency::default());
        assert!(t.op_offload && (t.cpu_bytes - 0.5e9).abs() < 1.0);
        assert!((t.pcie_bytes - 2048.0 * 4096.0 * 4.0).abs() < 1.0);
        // 64 sequences: the head's product has 64 rows and runs on the GPU, copied once.
        let t = host_time(&m, &h, 64.0 * 128.0, 64.0, 0.0, &DDR5, &Efficiency::default());
        assert!(t.cpu_bytes.abs() < 1.0 && (t.pcie_bytes - 0.5e9 - 8192.0 * 4096.0 * 4.0).abs() < 1.0);
    }

    #[test]
    fn nothing_on_the_host_costs_nothing() {
        let t = host_time(&llama2_7b(), &HostShare::default(), 1.0, 1.0, 10.0, &DDR5, &Efficiency::default());
        assert_eq!(t, HostTime::default());
    }
}
