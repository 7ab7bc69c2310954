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
    /// Mixed precision with fp32 gradients: 16-bit weights, the gradients accumulated and
    /// reduced across the data-parallel ranks in fp32 (Megatron's `main_grad`: Megatron-LM turns
    /// `accumulate_allreduce_grads_in_fp32` on for every bf16 run unless told otherwise,
    /// megatron/training/arguments.py at core_r0.8.0 and on main), an fp32 master copy and fp32
    /// optimizer states.
    MixedFp32Grads,
    /// Everything in fp32.
    Fp32,
}

/// Activation recomputation: which activations a layer keeps for its backward pass and which
/// it computes again (Korthikanti et al. 2022; torchtitan's activation checkpointing). With
/// `recompute_layers` the policy applies to that many layers of each pipeline stage and the
/// others keep everything (Megatron `--recompute-method block --recompute-num-layers n`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Recompute {
    /// Store every activation.
    #[default]
    None,
    /// Recompute the attention core (Korthikanti's selective recomputation, Megatron
    /// `--recompute-granularity selective` with its default module `core_attn`): drops the s²
    /// scores; with FlashAttention, which never stores them, it keeps what `none` keeps.
    Selective,
    /// Operator-level selective checkpointing (torchtitan `selective` with option `op`): keep the
    /// output of every other matmul in call order and of the attention kernel, recompute the rest.
    #[serde(alias = "op")]
    OpSelective,
    /// Store only each layer's input and recompute the layer in the backward pass.
    Full,
}

impl Recompute {
    /// Whether the policy recomputes anything.
    pub fn recomputes(self) -> bool {
        self != Recompute::None
    }
}

/// The low-precision recipe of a training run's linear layers (Transformer Engine's recipes;
/// Megatron `--fp8-recipe`, `--fp4-format`). Attention, the loss and the norms stay in 16 bits
/// under every recipe (TE docs, "Low precision training → Introduction").
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum LowPrecisionRecipe {
    /// Every GEMM in the 16-bit format of the compute path.
    #[default]
    None,
    /// FP8 with a per-tensor scale from the amax history (TE `DelayedScaling`).
    Fp8Delayed,
    /// FP8 with a per-tensor scale from the tensor itself (TE `Float8CurrentScaling`;
    /// Megatron `--fp8-recipe tensorwise`; torchao's Float8 "tensorwise").
    Fp8Current,
    /// FP8 with 1×128 activation and 128×128 weight blocks (TE `Float8BlockScaling`, DeepSeek-V3's
    /// scheme).
    Fp8Blockwise,
    /// MXFP8: E8M0 scales per 32 values (Blackwell).
    Mxfp8,
    /// NVFP4: E2M1 with an E4M3 scale per 16 values (Blackwell).
    Nvfp4,
}

impl LowPrecisionRecipe {
    /// Whether the recipe runs the linear layers below 16 bits.
    pub fn is_low_precision(self) -> bool {
        self != LowPrecisionRecipe::None
    }

    /// The recipe as the scenario names it.
    pub fn name(self) -> &'static str {
        match self {
            LowPrecisionRecipe::None => "none",
            LowPrecisionRecipe::Fp8Delayed => "fp8_delayed",
            LowPrecisionRecipe::Fp8Current => "fp8_current",
            LowPrecisionRecipe::Fp8Blockwise => "fp8_blockwise",
            LowPrecisionRecipe::Mxfp8 => "mxfp8",
            LowPrecisionRecipe::Nvfp4 => "nvfp4",
        }
    }
}

impl AttentionKernel {
    /// The kernel family as the scenario names it.
    pub fn name(self) -> &'static str {
        match self {
            AttentionKernel::Fa2 => "fa2",
            AttentionKernel::Fa3 => "fa3",
            AttentionKernel::Fa4 => "fa4",
            AttentionKernel::Cudnn => "cudnn",
        }
    }
}

/// The attention kernel family of a training step (FlashAttention generations, cuDNN's fused
/// attention). Each family has its own measured share of the 16-bit peak
/// (`perf::training::attention`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum AttentionKernel {
    /// FlashAttention-2 (Dao 2023), also PyTorch SDPA's flash back end.
    Fa2,
    /// FlashAttention-3 (Shah et al. 2024), Hopper only.
    Fa3,
    /// FlashAttention-4 (2026), Blackwell only.
    Fa4,
    /// cuDNN fused attention (Transformer Engine's default back end on Hopper and Blackwell).
    Cudnn,
}

/// How the cross-entropy over the vocabulary is computed: what it reads and writes, and what it
/// holds at its peak.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum LossImpl {
    /// `cross_entropy(logits.float())`: the logits upcast to fp32, a log-softmax and its gradient
    /// in fp32 (Hugging Face `ForCausalLMLoss`, torchtitan, torchtune; `loss_chunks` > 1 upcasts
    /// one chunk at a time).
    #[default]
    Upcast,
    /// Megatron's `vocab_parallel_cross_entropy`: fp32 copy, in-place exp and divide, the softmax
    /// saved for the backward.
    VocabParallel,
    /// A fused cross-entropy kernel (Megatron `--cross-entropy-loss-fusion`, TE): one fp32
    /// softmax written, the gradient in 16 bits.
    Fused,
    /// The output GEMM and the loss fused in token chunks (Liger `FusedLinearCrossEntropy`, Cut
    /// Cross-Entropy): the logits never exist in full.
    FusedLinear,
}

/// How the optimizer step is launched.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum OptimizerImpl {
    /// One pass per element-wise operation over all tensors (PyTorch's default for CUDA
    /// tensors, `_multi_tensor_adam`).
    #[default]
    Foreach,
    /// One kernel reads and writes each state once (`AdamW(fused=True)`, apex/TE `FusedAdam`).
    Fused,
}

/// The FLOP convention a model-FLOPs utilisation is computed with (who counts what per token).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum FlopConvention {
    /// Megatron-LM `num_floating_point_operations` since 2025-03-06 (commit 8873b55), NeMo since
    /// 2025-08-09, Megatron-Bridge: `6·N + 6·L·d_attn·s` per token (weight matmuls and the
    /// output layer; causal attention, half the score matrix).
    #[default]
    MegatronCausal,
    /// PaLM (Chowdhery et al. 2022, App. B), Megatron-LM before 2025-03, torchtitan after 2024:
    /// `6·N + 12·L·d_attn·s` (non-causal attention), N without the input embedding.
    Palm,
    /// torchtitan until mid-2024 and llm-foundry: `6·N_all + 12·L·d_attn·s`, N counting the
    /// input embedding too.
    WithEmbedding,
}

impl FlopConvention {
    /// The scenario's name of the convention (`flop_convention`).
    pub fn name(self) -> &'static str {
        match self {
            FlopConvention::MegatronCausal => "megatron_causal",
            FlopConvention::Palm => "palm",
            FlopConvention::WithEmbedding => "with_embedding",
        }
    }
}

/// How a speculative decoder proposes the tokens the target model verifies
/// (`perf::speculative`). The names are vLLM's `speculative_config.method` values.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SpecMethod {
    /// A smaller model of the same tokenizer drafts γ tokens, one decode step each (Leviathan et
    /// al. 2023; vLLM `draft_model`, SGLang `STANDALONE`).
    DraftModel,
    /// An EAGLE-3 head: one decoder layer fed the target's hidden states (Li et al. 2025; vLLM
    /// `eagle3`, SGLang `EAGLE3`).
    Eagle3,
    /// The multi-token-prediction modules the checkpoint ships (DeepSeek-V3 §2.2; vLLM
    /// `deepseek_mtp`/`mtp`).
    Mtp,
    /// Prompt lookup: the γ tokens that followed the last n-gram's earlier occurrence (vLLM
    /// `ngram`, SGLang `NGRAM`); no model.
    Ngram,
}

impl SpecMethod {
    /// The value as the scenario's JSON writes it.
    pub fn key(self) -> &'static str {
        match self {
            SpecMethod::DraftModel => "draft_model",
            SpecMethod::Eagle3 => "eagle3",
            SpecMethod::Mtp => "mtp",
            SpecMethod::Ngram => "ngram",
        }
    }

    /// Every method, in the order the estimator lists them.
    pub const ALL: [SpecMethod; 4] =
        [SpecMethod::Eagle3, SpecMethod::Mtp, SpecMethod::Ngram, SpecMethod::DraftModel];
}
