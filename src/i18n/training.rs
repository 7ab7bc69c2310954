//! The training step's derivations in words (formula and values template), in Chinese and
//! English: the step by operation, tokens per second per GPU, model FLOPs per token, MFU, HFU.
//! `facts` asks here for these formulas; every one of them has both languages.

use super::Lang;
use crate::engine::derivation::Formula;

/// A values template, language-neutral or worded per language (as `facts`' templates).
pub(super) enum Template {
    Same(&'static str),
    Words { en: &'static str, zh: &'static str },
}

/// The formula text of a training formula (`None` for the others, which `facts` words).
pub(super) fn formula(f: Formula, lang: Lang) -> Option<&'static str> {
    use Formula as F;
    let (en, zh) = match f {
        F::TrainingStepTime => (
            "(m + (p − 1)/v) × t_mb + exposed data-parallel sync + optimizer step: the slowest stage's operations per micro-batch, the bubble, the sync and the update",
            "(m + (p − 1)/v) × t_mb + 未被掩盖的数据并行同步 + 优化器更新：最慢流水线段每个微批的各项操作、气泡、同步与更新之和",
        ),
        F::TrainingTokensPerGpu => (
            "batch × context × micro_batches × replicas / (step × GPUs)",
            "batch × 上下文 × micro_batches × 副本数 / (步时 × GPU 数)",
        ),
        F::ModelFlopsPerToken => (
            "6 × N + c × L × d_attn × s: N the multiplied parameters (the output layer, not the input embedding; every parameter under with_embedding), c = 6 for causal attention (megatron_causal), 12 without the mask (palm, with_embedding)",
            "6 × N + c × L × d_attn × s：N 为参与乘法的参数（含输出层、不含输入嵌入；with_embedding 计全部参数），因果注意力 c = 6（megatron_causal），不计掩码 c = 12（palm、with_embedding）",
        ),
        F::Mfu => (
            "model FLOPs per token × tokens/s per GPU / dense 16-bit peak (TF32 when training in fp32; FP8 and FP4 runs too)",
            "每 token 模型 FLOP × 每块 GPU 的 token/s / 16 位稠密峰值（fp32 训练时为 tf32；fp8、fp4 训练也用它）",
        ),
        F::Hfu => (
            "(causal model FLOPs + recomputed FLOPs) per token × tokens/s per GPU / the same peak as MFU",
            "每 token（因果模型 FLOP + 重算 FLOP）× 每块 GPU 的 token/s / 与模型 FLOP 利用率相同的峰值",
        ),
        F::StepGemm => (
            "m × L_s × Σ GEMMs max(FLOP / (P × e × q × r × S), bytes / B_eff) + the output layer's GEMMs in 16 bits; e the GEMM share at the best shape, q the wave quantisation, r the share a short reduction dimension K keeps (OpenXLA's H100 table: 0.69 at K = 512, 0.94 at 2,048, 1 from 4,096), S the recipe's linear-layer speedup",
            "m × L_s × Σ 矩阵乘 max(FLOP / (P × e × q × r × S), 字节 / B_eff) + 16 位输出层矩阵乘；e 为最佳形状下的矩阵乘效率，q 为波次量化，r 为归约维 K 较短时保留的效率（按实测的矩阵乘表：K = 512 时 0.69，2,048 时 0.94，4,096 起为 1），S 为配方对线性层的加速",
        ),
        F::StepAttention => (
            "m × L_s × (F / (P × r_fwd) + 2.5 × F / (P × r_bwd)), F = 4 × T × s × d_attn / tp / 2 (causal)",
            "m × L_s × (F / (P × r_fwd) + 2.5 × F / (P × r_bwd))，F = 4 × T × s × d_attn / tp / 2（因果）",
        ),
        F::StepElementwise => (
            "m × L_s × T × elements read and written by the norms, rotary embeddings, residual adds, activation and MoE permutation × bytes / B_eff",
            "m × L_s × T × 归一化、旋转位置编码、残差相加、激活与 MoE 重排读写的元素 × 字节 / B_eff",
        ),
        F::StepLoss => (
            "m × T × V/tp × β / B_eff, β the loss's bytes per logit (upcast 36, vocab_parallel 30, fused 12, fused_linear 0)",
            "m × T × V/tp × β / B_eff，β 为损失每个 logit 读写的字节（upcast 36、vocab_parallel 30、fused 12、fused_linear 0）",
        ),
        F::StepRecompute => (
            "m × covered layers × the forward the policy runs again (full: the layer; selective: attention; op-level: the even matmuls and the element-wise kernels)",
            "m × 覆盖的层数 × 策略再算一遍的前向（完全重算：整层；选择性重算：注意力；算子级：偶数序号的矩阵乘与逐元素 kernel）",
        ),
        F::StepOptimizer => (
            "P_local × β / B_eff, β the bytes read and written per parameter (fused AdamW 2p + g + 4m, foreach 4p + 14m + 2g, and g for clipping)",
            "P_local × β / B_eff，β 为每个参数读写的字节（融合 AdamW 2p + g + 4m，foreach 4p + 14m + 2g，梯度裁剪再读 g）",
        ),
        F::StepTensorParallel => (
            "without overlap, m × L_s × 4 all-reduces of T × h × a (2 more per fully recomputed layer, counted in the recomputation), exposed; with overlap (Transformer Engine userbuffers, sequence parallel), per block (attention, MLP) each collective beside its own GEMM G, σ = 16/S the SMs a pipelined or bulk kernel holds: forward max(0, AG − G_col·(tp−1)/tp) + max(RS − ¾·G_row, RS/4 + ¾·σ·RS); backward max(0, AG − G_row,dgrad·(tp−1)/tp) + max(AG − G_col,dgrad, σ·min(AG, G_col,dgrad)) + max(RS − G_col,wgrad, σ·min(RS, G_col,wgrad)); all-gathers in FP8 under an FP8 recipe",
            "不重叠时 m × L_s × 4 次 T × h × a 的 all-reduce（完全重算的层再加 2 次，计入重算），全部暴露；重叠时（序列并行）每个块（注意力、MLP）的每次集合通信与它自己的矩阵乘 G 重叠，σ = 16/S 为流水或批量重叠 kernel 占用的流多处理器比例：前向 max(0, AG − G_列·(tp−1)/tp) + max(RS − ¾·G_行, RS/4 + ¾·σ·RS)；反向 max(0, AG − G_行,输入梯度·(tp−1)/tp) + max(AG − G_列,输入梯度, σ·min(AG, G_列,输入梯度)) + max(RS − G_列,权重梯度, σ·min(RS, G_列,权重梯度))；FP8 配方下 all-gather 以 FP8 传输",
        ),
        F::StepContextParallel => (
            "m × L_s × (all-gather of K and V before attention + reduce-scatter of their gradients after), what the attention kernels do not hide",
            "m × L_s × (注意力前 all-gather K、V + 之后 reduce-scatter 其梯度)，注意力 kernel 掩盖不了的部分",
        ),
        F::StepExpertParallel => (
            "m × L_s × MoE share × 2 × (dispatch + combine): nccl, 2 all-to-alls of T × k × h × a; DeepEP, T × D × 2p in a node (D = ep·(1 − (1 − 1/ep)^k), p = h × a), once per remote node across nodes; with EP overlap max(0, C − t_compute)",
            "m × L_s × MoE 层比例 × 2 × (分发 + 合并)：nccl 为 2 次 T × k × h × a 的 all-to-all；DeepEP 节点内 T × D × 2p（D = ep·(1 − (1 − 1/ep)^k)，p = h × a），跨节点每个远端节点一次；EP 重叠时 max(0, C − t_compute)",
        ),
        F::StepFsdp => (
            "m × (L_s × (max(0, AG − t_fwd) + max(0, AG + RS − t_bwd)) + the embedding and output layer's AG + RS)",
            "m × (L_s × (max(0, AG − t_fwd) + max(0, AG + RS − t_bwd)) + 嵌入层与输出层的 AG + RS)",
        ),
        F::StepDataParallel => (
            "max(0, C_sync − o × t_bwd of the last micro-batch) + max(0, C_gather − o × t_fwd of the first)",
            "max(0, C_sync − o × 最后一个微批的 t_bwd) + max(0, C_gather − o × 第一个微批的 t_fwd)",
        ),
        F::StepBubble => ("(p − 1)/v × t_mb", "(p − 1)/v × t_mb"),
        F::StepLaunch => (
            "max(0, kernels × launch time − the GPU's time)",
            "max(0, kernel 数 × 启动时间 − GPU 时间)",
        ),
        _ => return None,
    };
    Some(if lang == Lang::Zh { zh } else { en })
}

/// The values template of a training formula (`None` for the others).
pub(super) fn template(f: Formula) -> Option<Template> {
    use Formula as F;
    use Template as T;
    Some(match f {
        F::TrainingStepTime => T::Words {
            en: "GEMMs {} + attention {} + element-wise {} + loss {} + recomputation {} + optimizer {} + tp {} + cp {} + ep {} + FSDP {} + dp {} + bubble {} + launches {} = {}",
            zh: "矩阵乘 {} + 注意力 {} + 逐元素 {} + 损失 {} + 重算 {} + 优化器 {} + tp {} + cp {} + ep {} + FSDP {} + dp {} + 气泡 {} + 启动 {} = {}",
        },
        F::TrainingTokensPerGpu => T::Words {
            en: "{} × {} × {} × {} / ({} × {}) = {} tokens/s per GPU",
            zh: "{} × {} × {} × {} / ({} × {}) = 每块 GPU {} token/s",
        },
        F::ModelFlopsPerToken => T::Same("{}: 6 × {} + {} × {} × {} × {} = {}"),
        F::Mfu => T::Same("{} × {} / {} = {}"),
        F::Hfu => T::Same("({} + {}) × {} / {} = {}"),
        F::StepGemm => T::Words {
            en: "{} micro-batches × {} layers at P = {} × e {} × S {} (recipe {}) → {}",
            zh: "{} 个微批 × {} 层，P = {} × e {} × S {}（配方 {}）→ {}",
        },
        F::StepAttention => T::Words {
            en: "kernel {}: r_fwd {}, r_bwd {} of P; {} tokens per GPU per micro-batch → {}",
            zh: "kernel {}：r_fwd {}，r_bwd {}（占 P 的比例）；每块 GPU 每微批 {} 个 token → {}",
        },
        F::StepElementwise => T::Words {
            en: "{} tokens × {} layers × {} micro-batches at {} × e_bw → {}",
            zh: "{} 个 token × {} 层 × {} 个微批，{} × e_bw → {}",
        },
        F::StepLoss => T::Words {
            en: "loss {}: β = {} bytes, {} tokens × {} columns per micro-batch → {}",
            zh: "损失 {}：β = {} 字节，每微批 {} 个 token × {} 列 → {}",
        },
        F::StepRecompute => T::Words { en: "{} on {} of {} layers → {}", zh: "{} 作用于 {} 层（共 {} 层）→ {}" },
        F::StepOptimizer => T::Words {
            en: "{} ({}): {} parameters on this GPU × {} bytes → {}",
            zh: "{}（{}）：本卡 {} 个参数 × {} 字节 → {}",
        },
        F::StepTensorParallel => T::Words {
            en: "tp {}, overlap {}: {} in all, {} exposed (of which the SMs the overlap kernels hold add {})",
            zh: "tp {}，重叠 {}：共 {}，未被掩盖 {}（其中重叠 kernel 占用流多处理器的代价 {}）",
        },
        F::StepContextParallel => T::Words { en: "cp {} → {} exposed", zh: "cp {} → 未被掩盖 {}" },
        F::StepExpertParallel => T::Words {
            en: "ep {}, {}, overlap {}: {} in all, {} exposed",
            zh: "ep {}，{}，重叠 {}：共 {}，未被掩盖 {}",
        },
        F::StepFsdp => T::Words {
            en: "ZeRO stage {}, {} shards → {} exposed",
            zh: "ZeRO 阶段 {}，{} 份分片 → 未被掩盖 {}",
        },
        F::StepDataParallel => T::Words {
            en: "{} GPUs, ZeRO stage {}: {} of collectives, {} exposed",
            zh: "{} 块 GPU，ZeRO 阶段 {}：集合通信 {}，未被掩盖 {}",
        },
        F::StepBubble => T::Words {
            en: "pp {}, v {}, {} micro-batches: bubble {} of the step → {}",
            zh: "pp {}，v {}，{} 个微批：气泡占步时 {} → {}",
        },
        F::StepLaunch => T::Same("{}"),
        _ => return None,
    })
}
