//! A training step as its operations (issue 31): the GEMMs at the GPU's GEMM share and their
//! wave quantisation, the attention kernels at their family's measured rates, the element-wise
//! kernels and the loss at their bytes, the optimizer step, each collective's exposed part, the
//! pipeline bubble and the recomputation of the checkpointing policy. Low-precision recipes speed
//! up the linear layers only.
//!
//! Per GPU of the slowest pipeline stage, per micro-batch of `T = b·s/cp` tokens:
//!
//! ```text
//! t_mb = L_s·(GEMMs + attention + element-wise + exposed TP, CP, EP + exposed FSDP)
//!        + recomputed layers + [last stage: output GEMMs + loss]            (≥ the launch lane)
//! T_step = (m + (p − 1)/v)·t_mb + exposed data-parallel sync + optimizer step
//! ```
//!
//! The bound stays a roofline: per stage and micro-batch `max(W_lin/F_lin + W_att/F + W_head/F,
//! Q_w/B, C_floor)` at peak rates, times `m`, and the data-parallel sync's floor (every term of
//! the expected time is at least its bound's, see [`step`]'s doc and the properties in
//! `proptests`). Each piece is its own file: [`gemm`], [`low_precision`], [`attention`],
//! [`elementwise`], [`loss`], [`optimizer`], [`comm`], [`pipeline`], [`flops`] (the FLOP
//! conventions of the MFU), [`moe`] (grouped GEMMs), [`shape`] (what a step needs of a model).

pub mod attention;
pub mod comm;
pub mod derive;
pub mod elementwise;
pub mod flops;
pub mod gemm;
pub mod loss;
pub mod low_precision;
pub mod moe;
pub mod optimizer;
pub mod pipeline;
pub mod run;
pub mod shape;
mod step;

#[cfg(test)]
mod proptests;

pub use shape::{training_shape, TrainingShape};
pub use step::{
    training_step, StepBreakdown, Stepper, TrainingHardware, TrainingLayout, TrainingSettings, TrainingTiming,
};
