//! The optimizer step: memory-bound over the parameters a GPU updates, once per step,
//! `t = P_loc·β / (B·e_bw)` with `P_loc` its shard of the trained parameters and `β` the bytes
//! read and written per parameter, including the gradient-norm clipping's read of every
//! gradient (Megatron and torchtitan clip by default). With `p` bytes per master parameter,
//! `m` per moment, `g` per gradient:
//! - **fused** AdamW (one kernel: `AdamW(fused=True)`, apex/TE `FusedAdam`): read `p`, `g`, both
//!   moments, write `p` and both moments: `2p + g + 4m` (28 with fp32 states and gradients, 26
//!   with bf16 gradients);
//! - **foreach** AdamW (PyTorch's default for CUDA tensors, `_multi_tensor_adam` in
//!   torch/optim/adam.py): one pass per operation: weight decay `2p`, `lerp_(m, g)` `2m + g`,
//!   `mul_(v)` `2m`, `addcmul_(v, g, g)` `2m + g`, `sqrt` `2m`, `div_` `2m`, `add_(eps)` `2m`,
//!   `addcdiv_(p, m, denom)` `2p + 2m`: `4p + 14m + 2g` (80 with fp32 states and gradients);
//! - 8-bit Adam (bitsandbytes, one fused kernel, 1-byte moments) and SGD count as one kernel:
//!   `2p + g (+ 2m with momentum)`.
//!
//! Worked: Llama 3 8B unsharded on one H100, foreach, fp32 states and bf16 gradients:
//! `(16 + 56 + 4 + 2)` = 78 bytes × 8.03e9 = 626 GB: 0.22 s per step at 0.85 of 3.35 TB/s.

use crate::engine::workload::{Optimizer, OptimizerImpl, TrainingPrecision};

/// `(p, m)`: bytes per master parameter and per moment element of `optimizer` under `precision`.
fn state_bytes(optimizer: Optimizer, precision: TrainingPrecision) -> (f64, f64) {
    let p = if precision == TrainingPrecision::Bf16 { 2.0 } else { 4.0 };
    let m = match optimizer {
        Optimizer::Adam8bit | Optimizer::PagedAdam8bit => 1.0,
        _ if precision == TrainingPrecision::Bf16 => 2.0,
        _ => 4.0,
    };
    (p, m)
}

/// Bytes read and written per trained parameter by one optimizer step with gradient clipping
/// (`β` in the module doc); `g` bytes per gradient.
pub fn bytes_per_param(
    optimizer: Optimizer,
    launch: OptimizerImpl,
    precision: TrainingPrecision,
    g: f64,
) -> f64 {
    let (p, m) = state_bytes(optimizer, precision);
    let clip = g;
    clip + match (optimizer, launch) {
        (Optimizer::Adamw | Optimizer::PagedAdamw, OptimizerImpl::Foreach) => 4.0 * p + 14.0 * m + 2.0 * g,
        (Optimizer::Adamw | Optimizer::PagedAdamw, OptimizerImpl::Fused) => 2.0 * p + g + 4.0 * m,
        (Optimizer::Adam8bit | Optimizer::PagedAdam8bit, _) => 2.0 * p + g + 4.0 * m,
        (Optimizer::Sgd, _) => 2.0 * p + g,
        (Optimizer::SgdMomentum, _) => 2.0 * p + g + 2.0 * m,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn adamw_bytes_by_launch() {
        use TrainingPrecision::{Bf16, Mixed};
        assert_eq!(bytes_per_param(Optimizer::Adamw, OptimizerImpl::Fused, Mixed, 4.0), 28.0 + 4.0);
        assert_eq!(bytes_per_param(Optimizer::Adamw, OptimizerImpl::Fused, Mixed, 2.0), 26.0 + 2.0);
        assert_eq!(bytes_per_param(Optimizer::Adamw, OptimizerImpl::Foreach, Mixed, 4.0), 80.0 + 4.0);
        let b = bytes_per_param(Optimizer::Adamw, OptimizerImpl::Foreach, Mixed, 2.0);
        assert_eq!(b, 78.0);
        let t = 8.03e9 * b / (0.85 * 3.35e12);
        assert!((t - 0.22).abs() < 0.005, "{t}");
        assert_eq!(bytes_per_param(Optimizer::Adamw, OptimizerImpl::Fused, Bf16, 2.0), 4.0 + 2.0 + 8.0 + 2.0);
        assert_eq!(
            bytes_per_param(Optimizer::Adam8bit, OptimizerImpl::Foreach, Mixed, 2.0),
            8.0 + 2.0 + 4.0 + 2.0
        );
    }
}
