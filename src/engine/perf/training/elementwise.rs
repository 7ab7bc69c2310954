//! The memory-bound (element-wise) kernels of a training step: norms, rotary embeddings,
//! residual adds, the gated activation and, in MoE layers, the token permutation. Each kernel
//! reads its inputs and writes its outputs once (LLM-Viewer's operator convention, Yuan et al.,
//! "LLM Inference Unveiled", arXiv:2402.16363, Table 2, as `ModelShape::activation_traffic_bytes`
//! counts inference), one kernel per operation as eager PyTorch runs them. Elements per token per
//! layer, `n` norms, `q`/`k` query and key widths, `f` the feed-forward width:
//!
//! | op | forward | backward |
//! |---|---|---|
//! | norms | `n·(h in + h out)` | `n·(x, dy in; dx out)` = `3nh` |
//! | rotary embedding on q, k | `2(q + k)` | `2(q + k)` |
//! | two residual adds | `2·(2h in + h out)` = `6h` | `6h` |
//! | activation: gated `silu(g)·u` | `2f in + f out` = `3f` | `g, u, dy in; dg, du out` = `5f` |
//! | activation: plain (GELU) | `2f` | `3f` |
//! | MoE permute and unpermute (top-k copies of each token) | `4·k·h` | `4·k·h` |
//!
//! Llama 3 8B (h 4096, q 4096, k 1024, f 14336, two norms): 94,208 forward and 131,072 backward
//! elements: 451 KB per token per layer in bf16. Tensor parallelism splits the `q`, `k`, `f`
//! parts; the `h` parts are replicated unless sequence parallelism splits them too. The kernels
//! run on the GEMMs' stream, after them: `t = bytes / (B·e_bw)` adds.

/// Element-wise elements per token per layer: `(forward, backward)` as `(replicated, split)`.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct ElementwiseWidths {
    pub forward: (f64, f64),
    pub backward: (f64, f64),
}

/// The widths above for a layer of hidden `h`, `norms` norms, query/key widths `q`/`k` (rotary:
/// whether the model rotates them), feed-forward width `f` (gated or not) and `moe_k` routed
/// copies per token (0 for a dense layer).
#[allow(clippy::too_many_arguments)]
pub fn widths(
    h: f64,
    norms: f64,
    q: f64,
    k: f64,
    rotary: bool,
    f: f64,
    gated: bool,
    moe_k: f64,
) -> ElementwiseWidths {
    let rope = if rotary { 2.0 * (q + k) } else { 0.0 };
    let (act_f, act_b) = if gated { (3.0 * f, 5.0 * f) } else { (2.0 * f, 3.0 * f) };
    let permute = 4.0 * moe_k * h;
    ElementwiseWidths {
        forward: (2.0 * norms * h + 6.0 * h + permute, rope + act_f),
        backward: (3.0 * norms * h + 6.0 * h + permute, rope + act_b),
    }
}

impl ElementwiseWidths {
    /// Elements per token on one GPU of a `tp` group, for `(forward, backward)`.
    pub fn per_gpu(&self, tp: f64, sequence_parallel: bool) -> (f64, f64) {
        let tp = tp.max(1.0);
        let rep = |r: f64| if sequence_parallel { r / tp } else { r };
        (rep(self.forward.0) + self.forward.1 / tp, rep(self.backward.0) + self.backward.1 / tp)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn llama3_8b_moves_451_kb_per_token_per_layer() {
        let w = widths(4096.0, 2.0, 4096.0, 1024.0, true, 14336.0, true, 0.0);
        let (f, b) = w.per_gpu(1.0, false);
        assert_eq!((f, b), (94_208.0, 131_072.0));
        assert!(((f + b) * 2.0 - 450_560.0).abs() < 1e-9);
        // Tensor parallel 8 splits the q, k, f parts only.
        let (f8, _) = w.per_gpu(8.0, false);
        assert_eq!(f8, 10.0 * 4096.0 + (2.0 * 5120.0 + 3.0 * 14336.0) / 8.0);
    }
}
