//! The workload: what the GPUs are doing ([`Mode`]: serving, training, LoRA or QLoRA
//! fine-tuning) and, when they train, how the trained state is kept: the optimizer, the number
//! formats of weights, gradients and optimizer states, and which activations are recomputed.
//! The scenario's vocabulary, named by the memory and time formulas and by their derivations.

use serde::{Deserialize, Serialize};

/// What the GPUs are doing.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Mode {
    /// Serving: weights + KV cache + prefill workspace.
    #[default]
    Inference,
    /// Full training or full fine-tuning with mixed precision.
    Training,
    /// LoRA fine-tuning: frozen base weights, trainable low-rank adapters.
    Lora,
    /// QLoRA: frozen nf4 base (double quantisation), 16/32-bit adapters, paged optimizer.
    Qlora,
}

/// Optimizer, which sets the bytes of state per trainable parameter.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Optimizer {
    /// Adam/AdamW: two fp32 moments (8 bytes) + fp32 master weights under mixed precision.
    #[default]
    #[serde(alias = "adam")]
    Adamw,
    /// bitsandbytes 8-bit Adam: two 8-bit moments (2 bytes) + master weights.
    /// Accepted under the names frameworks spell it: `adam_8bit`, `adamw_8bit` (Hugging Face
    /// `optim`), `adamw8bit`.
    #[serde(alias = "adam_8bit", alias = "adamw_8bit", alias = "adamw8bit")]
    Adam8bit,
    /// Plain SGD: no state besides master weights.
    Sgd,
    /// SGD with momentum: one fp32 buffer (4 bytes) + master weights.
    SgdMomentum,
    /// bitsandbytes paged 8-bit AdamW (`PagedAdamW8bit`; Hugging Face `paged_adamw_8bit`):
    /// the 8-bit states live in CUDA unified memory, which the driver pages to host memory when
    /// the GPU runs short, so they are not part of the device peak (bitsandbytes docs, "Paged
    /// optimizers"; Dettmers et al. 2023, QLoRA §3).
    #[serde(alias = "paged_adamw_8bit", alias = "paged_adam_8bit", alias = "paged_adamw8bit")]
    PagedAdam8bit,
    /// bitsandbytes paged 32-bit AdamW (`PagedAdamW`; Hugging Face `paged_adamw_32bit`): fp32
    /// moments in unified memory, paged like [`Optimizer::PagedAdam8bit`].
    #[serde(alias = "paged_adamw", alias = "paged_adamw_32bit", alias = "paged_adam")]
    PagedAdamw,
}

/// Number formats of the trained weights, their gradients and the optimizer states.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TrainingPrecision {
    /// Mixed precision (Micikevicius et al. 2018): 16-bit weights and gradients, an fp32
    /// master copy of the weights and fp32 optimizer states.
    #[default]
    Mixed,
    /// Weights, gradients and optimizer states all in bf16, no master copy (single-device
    /// fine-tuning recipes such as torchtune's `dtype: bf16`).
    Bf16,
    /// Everything in fp32.
    Fp32,
}

/// Activation recomputation (Korthikanti et al. 2022).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Recompute {
    /// Store every activation.
    #[default]
    None,
    /// Recompute the attention core (drops the s² term).
    Selective,
    /// Store only each layer's input and recompute the layer in the backward pass.
    Full,
}
