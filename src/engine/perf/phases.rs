//! FLOPs and memory bytes of the three phases: prefill, one decode step, one training step.
//! Inputs are plain numbers (a [`ModelShape`]); the Scenario wiring maps a model onto it.
//!
//! Sources: the `2·P` FLOPs per token forward and `6·P` per token for training are from
//! Kaplan et al., "Scaling Laws for Neural Language Models" (2020) §2.1, and Narayanan et al.,
//! "Efficient Large-Scale Language Model Training on GPU Clusters Using Megatron-LM" (SC21)
//! §5.1, which also gives `8·P` with full activation recomputation (one extra forward).
//! Attention score FLOPs per layer per query token are `4·d_attn·c` for a context of `c`
//! keys (`2·d_attn·c` for `QKᵀ` and again for `A·V`, Kaplan et al. Table 1).

use crate::engine::checked::{finite, non_negative, positive, PerfError};
use serde::{Deserialize, Serialize};

/// The few numbers about a model the time model needs.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ModelShape {
    /// All parameters (training FLOPs and gradient/optimizer traffic use these).
    pub params_total: f64,
    /// Parameters used per token (equals `params_total` for dense models; MoE: shared + top-k).
    pub params_active: f64,
    pub layers: u32,
    /// Width of attention, `heads × head_dim` (usually the hidden size).
    pub attention_width: u32,
    /// Hidden size of the residual stream (activation size per token per layer).
    pub hidden: u32,
    /// KV cache bytes per token summed over all layers.
    pub kv_bytes_per_token: f64,
    /// Weight bytes read every forward pass whatever the batch: all non-expert weights except
    /// the input embedding table (only the batch's rows are gathered), plus shared experts.
    pub dense_weight_bytes: f64,
    /// Bytes of all routed experts together (0 for dense models).
    pub expert_weight_bytes: f64,
    /// Routed experts per MoE layer (0 for dense models).
    pub experts: u32,
    /// Routed experts each token uses (top-k).
    pub experts_per_token: u32,
    /// Bytes per activation element (2 for BF16).
    pub activation_bytes: f64,
    /// Fixed-size state per sequence of the linear-attention and state-space layers (hybrid
    /// models; 0 otherwise): every decode step reads it and writes it back (the recurrent
    /// update `S ← f(S, k, v)` of Gated DeltaNet and Mamba-2, and the short convolution cache).
    pub state_bytes_per_sequence: f64,
    /// Width of the feed-forward activations of one token in one layer: the dense MLP's
    /// intermediate size, or (MoE) top-k × the expert's plus the shared experts' (0: unknown,
    /// no feed-forward traffic counted).
    #[serde(default)]
    pub ffn_width: u32,
    /// The routed experts as a serving engine's kernel family runs them ([`super::moe`]); `None`:
    /// a dense model, or experts priced like the dense layers (llama.cpp's files).
    #[serde(default)]
    pub moe: Option<super::moe::MoeRun>,
    /// Parameters of the output layer (`hidden × vocab`, the tied embedding when tied), part of
    /// `params_active`: multiplied only for the tokens whose next-token logits a step computes
    /// (0: counted for every token).
    #[serde(default)]
    pub output_params: f64,
}

/// FLOPs and bytes of one phase, with its arithmetic intensity.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct PhaseWork {
    pub flops: f64,
    /// Lower bound on memory traffic used by the roofline bound.
    pub bytes: f64,
    /// Memory traffic used by the expected model (MoE: experts touched on average).
    pub expected_bytes: f64,
    /// Tokens processed (prefill: prompt tokens; decode: batch; training: tokens per step).
    pub tokens: f64,
    /// Tokens whose next-token logits the phase computes, the output layer's GEMM rows (prefill:
    /// one per sequence, the prompt's last token, as vLLM's and SGLang's `logits_processor` take
    /// only the last position of each request; decode and training: every token).
    #[serde(default)]
    pub logit_rows: f64,
    /// Sequences that decode in the step, one new token each or `γ + 1` in a speculative verify
    /// pass (a prefill and a training step: 0): what a serving stack's decode CUDA graphs are
    /// captured for (`efficiency.decode_graph_max_batch` counts sequences, not tokens).
    #[serde(default)]
    pub decode_sequences: f64,
}

impl PhaseWork {
    /// `I = W / Q` in FLOP/byte (bound traffic).
    pub fn arithmetic_intensity(&self) -> Result<f64, PerfError> {
        super::roofline::arithmetic_intensity(self.flops, self.bytes)
    }
}

impl ModelShape {
    pub fn validate(&self) -> Result<(), PerfError> {
        positive("params_total", self.params_total)?;
        positive("params_active", self.params_active)?;
        positive("layers", f64::from(self.layers))?;
        positive("attention_width", f64::from(self.attention_width))?;
        positive("hidden", f64::from(self.hidden))?;
        non_negative("kv_bytes_per_token", self.kv_bytes_per_token)?;
        non_negative("state_bytes_per_sequence", self.state_bytes_per_sequence)?;
        positive("dense_weight_bytes", self.dense_weight_bytes)?;
        non_negative("expert_weight_bytes", self.expert_weight_bytes)?;
        positive("activation_bytes", self.activation_bytes)?;
        if self.experts > 0 && (self.experts_per_token == 0 || self.experts_per_token > self.experts) {
            return Err(PerfError::OutOfRange {
                field: "experts_per_token",
                value: f64::from(self.experts_per_token),
                min: 1.0,
                max: f64::from(self.experts),
            });
        }
        Ok(())
    }

    /// Attention score FLOPs of `new` query tokens after `past` cached tokens, causal, all
    /// layers: `Σ_{i=past+1}^{past+new} 4·L·d_attn·i = 4·L·d_attn·(new·past + new(new+1)/2)`.
    /// (Without the causal mask, i.e. as often quoted, this is `4·L·s²·d` for `past = 0`.)
    /// Worked: L = 32, d = 4096, 2048-token prompt: 4·32·4096·2,098,176 = 1.10e12 FLOPs.
    pub fn attention_flops(&self, past: f64, new: f64) -> f64 {
        let per_pos = 4.0 * f64::from(self.layers) * f64::from(self.attention_width);
        per_pos * (new * past + new * (new + 1.0) / 2.0)
    }

    /// Activation bytes the element-wise kernels and the GEMMs' activation operands move for
    /// `tokens` tokens through all layers, per GPU of a `tp`-way tensor-parallel group:
    /// `tokens · L · a · (14·d + (4·d + 6·f) / tp)`, `a` bytes per activation, `d` hidden,
    /// `f` the feed-forward width. Counted operator by operator as LLM-Viewer does (Yuan et al.
    /// 2024, arXiv:2402.16363, Table 2: every operator loads its input activations and stores
    /// its output): the two norms (load d, store d each), the two residual adds (load 2d,
    /// store d), the GEMMs' inputs and outputs (QKV, out-proj, gate/up, down), the attention's
    /// query and output, and the gated activation (load 2f, store f). The residual stream's
    /// operators run on every tensor-parallel rank; the attention and feed-forward ones are
    /// split. These kernels are memory-bound (under 1 FLOP per byte) and run between the
    /// GEMMs, so their time adds. Fused kernels move less; a lower count is an edit of
    /// nothing but this formula. Worked (Llama-2-7B, BF16, d = 4096, f = 11008, tp 1): 32 × 2 ×
    /// (14·4096 + 4·4096 + 6·11008) = 8.95 MB per token.
    pub fn activation_traffic_bytes(&self, tokens: f64, tp: u32) -> f64 {
        let (d, f) = (f64::from(self.hidden), f64::from(self.ffn_width));
        let per_layer = 14.0 * d + (4.0 * d + 6.0 * f) / f64::from(tp.max(1));
        tokens.max(0.0) * f64::from(self.layers) * self.activation_bytes * per_layer
    }

    /// FLOPs of the weight GEMMs over `tokens` tokens of which `logit_rows` go through the
    /// output layer: `2·(P_active − P_out)·tokens + 2·P_out·logit_rows`. Worked (Llama-3.1-8B,
    /// P_active 7.50e9 without the input embedding, P_out = 4096 × 128,256 = 5.25e8): a
    /// 2,048-token prompt is 2·6.98e9·2048 + 2·5.25e8 = 2.86e13 FLOPs, 6.5% below 2·P·tokens.
    pub fn weight_flops(&self, tokens: f64, logit_rows: f64) -> f64 {
        let head = self.output_params.clamp(0.0, self.params_active);
        let rows = logit_rows.clamp(0.0, tokens.max(0.0));
        2.0 * (self.params_active - head) * tokens + 2.0 * head * rows
    }

    /// Expected distinct routed experts touched per MoE layer by `tokens` tokens, uniform
    /// routing: `E·(1 - (1 - k/E)^tokens)`. The bound uses the minimum, `k`.
    pub fn experts_touched(&self, tokens: f64) -> f64 {
        if self.experts == 0 {
            return 0.0;
        }
        let (e, k) = (f64::from(self.experts), f64::from(self.experts_per_token));
        e * (1.0 - (1.0 - k / e).powf(tokens.max(1.0)))
    }

    /// Weight bytes the expected model reads in one forward pass over `tokens` tokens.
    pub fn expected_weight_bytes(&self, tokens: f64) -> f64 {
        self.weight_bytes_read(tokens).1
    }

    /// The routed experts' part of a phase's work over `tokens` tokens of one replica, whole
    /// model: `(FLOPs 2·k·P_e·L·T, bound bytes k·B_e·L, expected bytes X·B_e·L)`; zeros without a
    /// [`super::moe::MoeRun`] (the experts then stay in the dense roofline).
    pub fn routed_expert_work(&self, tokens: f64) -> (f64, f64, f64) {
        let Some(run) = &self.moe else { return (0.0, 0.0, 0.0) };
        if self.experts == 0 {
            return (0.0, 0.0, 0.0);
        }
        let per_expert = self.expert_weight_bytes / f64::from(self.experts);
        let k = f64::from(self.experts_per_token);
        (
            2.0 * k * run.expert_params * f64::from(run.layers) * tokens.max(0.0),
            per_expert * k,
            per_expert * self.experts_touched(tokens),
        )
    }

    /// Weight bytes read by one forward pass over `tokens` tokens: `(bound, expected)`.
    pub(crate) fn weight_bytes_read(&self, tokens: f64) -> (f64, f64) {
        if self.experts == 0 {
            return (self.dense_weight_bytes, self.dense_weight_bytes);
        }
        let per_expert = self.expert_weight_bytes / f64::from(self.experts);
        (
            self.dense_weight_bytes + per_expert * f64::from(self.experts_per_token),
            self.dense_weight_bytes + per_expert * self.experts_touched(tokens),
        )
    }
}

/// Prefill of `batch` prompts of `prompt_tokens` each (after `past` cached tokens):
/// `W = 2·P_active·tokens + attention_flops`, `Q = weights read once + KV written`.
/// Activations are not counted in Q (they stay on chip in fused kernels; a lower bound). A
/// hybrid model's fixed state is written once per sequence (`+ batch·state`).
pub fn prefill_work(
    m: &ModelShape,
    prompt_tokens: f64,
    batch: f64,
    past: f64,
) -> Result<PhaseWork, PerfError> {
    m.validate()?;
    let s = non_negative("prompt_tokens", prompt_tokens)?;
    let b = non_negative("batch", batch)?;
    let past = non_negative("past", past)?;
    let tokens = s * b;
    // The output layer runs on each prompt's last token only.
    let logit_rows = if s > 0.0 { b } else { 0.0 };
    let flops = m.weight_flops(tokens, logit_rows) + b * m.attention_flops(past, s);
    let (wb, we) = m.weight_bytes_read(tokens);
    let kv = tokens * m.kv_bytes_per_token + b * m.state_bytes_per_sequence;
    Ok(PhaseWork {
        flops: finite("prefill flops", flops)?,
        bytes: finite("prefill bytes", wb + kv)?,
        expected_bytes: finite("prefill bytes", we + kv + b * past * m.kv_bytes_per_token)?,
        tokens,
        logit_rows,
        decode_sequences: 0.0,
    })
}

/// One decode step for `batch` sequences with `context` tokens cached each:
/// `W = 2·P_active·batch + 4·L·d_attn·context·batch`,
/// `Q = weights read once + batch·context·kv_bytes (KV read) + batch·kv_bytes (KV written)
///      + 2·batch·state (a hybrid model's fixed state read and written back)`.
/// Worked (Llama-2-7B BF16, batch 1, context 0): Q = 13.2e9 bytes of weights.
pub fn decode_step_work(m: &ModelShape, batch: f64, context: f64) -> Result<PhaseWork, PerfError> {
    m.validate()?;
    let b = non_negative("batch", batch)?;
    let c = non_negative("context", context)?;
    let flops = 2.0 * m.params_active * b + b * m.attention_flops(c, 1.0);
    let (wb, we) = m.weight_bytes_read(b);
    let kv = b * (c + 1.0) * m.kv_bytes_per_token + 2.0 * b * m.state_bytes_per_sequence;
    Ok(PhaseWork {
        flops: finite("decode flops", flops)?,
        bytes: finite("decode bytes", wb + kv)?,
        expected_bytes: finite("decode bytes", we + kv)?,
        tokens: b,
        logit_rows: b,
        decode_sequences: b,
    })
}

/// One training step over `sequences` sequences of `seq_len` tokens:
/// `W = 6·P_total·tokens + 3·attention` (`8·P·tokens + 4·attention` with full recomputation);
/// `Q >= weights read forward and backward + gradients written + optimizer state read and
/// written once` (activations not counted: a lower bound).
/// MoE note: training FLOPs use `P_active`, traffic uses all parameters.
pub fn training_step_work(
    m: &ModelShape,
    sequences: f64,
    seq_len: f64,
    full_recompute: bool,
    grad_bytes: f64,
    optimizer_state_bytes: f64,
) -> Result<PhaseWork, PerfError> {
    m.validate()?;
    let n = non_negative("sequences", sequences)?;
    let s = non_negative("seq_len", seq_len)?;
    let g = non_negative("grad_bytes", grad_bytes)?;
    let o = non_negative("optimizer_state_bytes", optimizer_state_bytes)?;
    let tokens = n * s;
    let passes = if full_recompute { 4.0 } else { 3.0 };
    let flops = 2.0 * passes * m.params_active * tokens + passes * n * m.attention_flops(0.0, s);
    let weights = m.dense_weight_bytes + m.expert_weight_bytes;
    let bytes = 2.0 * weights + g + 2.0 * o;
    Ok(PhaseWork {
        flops: finite("training flops", flops)?,
        bytes: finite("training bytes", bytes)?,
        expected_bytes: finite("training bytes", bytes)?,
        tokens,
        logit_rows: tokens,
        decode_sequences: 0.0,
    })
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    /// Llama-2-7B: 6.74e9 params, 32 layers, d = 4096, KV 2·32·4096·2 = 524,288 B/token,
    /// BF16 weights without the 262 MB input embedding = 13.21e9 bytes.
    pub(crate) fn llama2_7b() -> ModelShape {
        ModelShape {
            params_total: 6.74e9,
            params_active: 6.74e9,
            layers: 32,
            attention_width: 4096,
            hidden: 4096,
            kv_bytes_per_token: 524_288.0,
            dense_weight_bytes: 13.21e9,
            expert_weight_bytes: 0.0,
            experts: 0,
            experts_per_token: 0,
            activation_bytes: 2.0,
            state_bytes_per_sequence: 0.0,
            ffn_width: 11008,
            moe: None,
            output_params: 0.0,
        }
    }

    #[test]
    fn the_output_layer_runs_on_each_prompts_last_token() {
        // Llama-2-7B's output layer, 4096 × 32,000 = 1.31e8 parameters.
        let m = ModelShape { output_params: 1.31e8, ..llama2_7b() };
        let p = prefill_work(&m, 2048.0, 2.0, 0.0).unwrap();
        let want =
            2.0 * (6.74e9 - 1.31e8) * 4096.0 + 2.0 * 1.31e8 * 2.0 + 2.0 * m.attention_flops(0.0, 2048.0);
        assert!((p.flops - want).abs() < 1e3, "{} vs {want}", p.flops);
        assert_eq!(p.logit_rows, 2.0);
        // Decode and training run it on every token: the same FLOPs as without the split.
        let d = decode_step_work(&m, 8.0, 100.0).unwrap();
        assert_eq!(d.flops, decode_step_work(&llama2_7b(), 8.0, 100.0).unwrap().flops);
        assert_eq!(m.weight_flops(10.0, 10.0), 2.0 * 6.74e9 * 10.0);
        // Rows past the tokens, or negative, are clamped.
        assert_eq!(m.weight_flops(10.0, 50.0), m.weight_flops(10.0, 10.0));
        assert_eq!(m.weight_flops(10.0, -1.0), 2.0 * (6.74e9 - 1.31e8) * 10.0);
    }

    #[test]
    fn activation_traffic_worked() {
        let m = llama2_7b();
        let one = m.activation_traffic_bytes(1.0, 1);
        assert!((one - 32.0 * 2.0 * (18.0 * 4096.0 + 6.0 * 11008.0)).abs() < 1.0);
        assert!((one - 8.95e6).abs() < 0.01e6, "{one}");
        // Tensor parallelism splits the attention and feed-forward part, not the residual stream.
        let tp2 = m.activation_traffic_bytes(1.0, 2);
        assert!((tp2 - 32.0 * 2.0 * (14.0 * 4096.0 + (4.0 * 4096.0 + 6.0 * 11008.0) / 2.0)).abs() < 1.0);
        assert_eq!(m.activation_traffic_bytes(768.0, 1), 768.0 * one);
    }

    #[test]
    fn attention_flops_worked() {
        let m = llama2_7b();
        let f = m.attention_flops(0.0, 2048.0);
        assert!((f - 4.0 * 32.0 * 4096.0 * 2_098_176.0).abs() < 1.0);
        assert!((f - 1.100e12).abs() < 1e9);
        // One query after 1000 cached tokens: 4·L·d·1001.
        assert_eq!(m.attention_flops(1000.0, 1.0), 4.0 * 32.0 * 4096.0 * 1001.0);
    }

    #[test]
    fn a_fixed_state_is_read_and_written_by_each_decode_and_written_once_by_prefill() {
        // 1 MB of state per sequence, 4 sequences: a decode step moves 2 × 4 × 1 MB more, a
        // prefill writes 4 × 1 MB more; FLOPs do not change.
        let plain = llama2_7b();
        let hybrid = ModelShape { state_bytes_per_sequence: 1e6, ..llama2_7b() };
        let (d0, d1) =
            (decode_step_work(&plain, 4.0, 100.0).unwrap(), decode_step_work(&hybrid, 4.0, 100.0).unwrap());
        assert_eq!(d1.bytes - d0.bytes, 8e6);
        assert_eq!(d1.expected_bytes - d0.expected_bytes, 8e6);
        assert_eq!(d1.flops, d0.flops);
        let (p0, p1) =
            (prefill_work(&plain, 512.0, 4.0, 0.0).unwrap(), prefill_work(&hybrid, 512.0, 4.0, 0.0).unwrap());
        assert_eq!(p1.bytes - p0.bytes, 4e6);
        assert!(decode_step_work(&ModelShape { state_bytes_per_sequence: -1.0, ..llama2_7b() }, 1.0, 0.0)
            .is_err());
    }

    #[test]
    fn decode_batch_one_reads_weights_and_kv() {
        let m = llama2_7b();
        let w = decode_step_work(&m, 1.0, 511.0).unwrap();
        assert_eq!(w.bytes, 13.21e9 + 512.0 * 524_288.0);
        assert!((w.flops - (2.0 * 6.74e9 + 4.0 * 32.0 * 4096.0 * 512.0)).abs() < 1.0);
        assert!(w.arithmetic_intensity().unwrap() < 2.0); // far below any ridge point
        let big = decode_step_work(&m, 512.0, 0.0).unwrap();
        assert!(big.arithmetic_intensity().unwrap() > 500.0); // compute-bound at large batch
    }

    #[test]
    fn prefill_and_training_worked() {
        let m = llama2_7b();
        let p = prefill_work(&m, 2048.0, 1.0, 0.0).unwrap();
        assert!((p.flops - (2.0 * 6.74e9 * 2048.0 + 1.100e12)).abs() < 1e10);
        let t = training_step_work(&m, 1.0, 4096.0, false, 13.48e9, 80.88e9).unwrap();
        assert!(
            (t.flops / (6.0 * 6.74e9 * 4096.0)
                - 1.0
                - 3.0 * m.attention_flops(0.0, 4096.0) / (6.0 * 6.74e9 * 4096.0))
                .abs()
                < 1e-12
        );
        let r = training_step_work(&m, 1.0, 4096.0, true, 0.0, 0.0).unwrap();
        assert!((r.flops / t.flops - 4.0 / 3.0).abs() < 1e-12);
    }

    #[test]
    fn moe_reads_more_experts_at_larger_batch() {
        let m = ModelShape { experts: 8, experts_per_token: 2, expert_weight_bytes: 80e9, ..llama2_7b() };
        let one = decode_step_work(&m, 1.0, 0.0).unwrap();
        assert_eq!(one.bytes, 13.21e9 + 20e9 + 524_288.0);
        assert!((one.expected_bytes - one.bytes).abs() < 1.0);
        let many = decode_step_work(&m, 64.0, 0.0).unwrap();
        assert!(many.expected_bytes > 13.21e9 + 79.9e9 && many.bytes > one.bytes);
        let bad = ModelShape { experts_per_token: 9, ..m };
        assert!(decode_step_work(&bad, 1.0, 0.0).is_err());
    }
}
