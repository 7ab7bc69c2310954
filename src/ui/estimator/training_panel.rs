//! The estimator's training controls: the optimizer, precision, recipe and memory policies
//! ([`TrainingControls`]), and how the step is laid out and which kernels run it
//! ([`ScheduleControls`]: context parallelism, interleaved pipeline stages, sequence parallelism,
//! overlapped tensor-parallel communication, the recompute policy's layers, the attention, loss
//! and optimizer kernels, low-precision primary weights and the MFU's FLOP convention). Rules
//! that change more than one field live in [`crate::estimator::edits`].

use super::controls::{Select, Toggle};
use super::panels::{int_slider, name_of, parse_name};
use super::Ctx;
use crate::engine::workload::{AttentionKernel, FlopConvention, LossImpl, Mode, OptimizerImpl};
use crate::estimator::edits;
use crate::estimator::scales::{nice_values, powers_of_two};
use leptos::prelude::*;

/// The low-precision recipes, in the order of the options' labels (`recipes` in the strings).
const RECIPES: [crate::engine::workload::LowPrecisionRecipe; 6] = {
    use crate::engine::workload::LowPrecisionRecipe as R;
    [R::None, R::Fp8Delayed, R::Fp8Current, R::Fp8Blockwise, R::Mxfp8, R::Nvfp4]
};

#[component]
pub fn TrainingControls() -> impl IntoView {
    let ctx = expect_context::<Ctx>();
    let e = ctx.lang.est();
    let ps = ctx.lang.est_panels();
    // A memo: the group is rebuilt when the mode changes, not on every edit.
    let mode = Memo::new(move |_| ctx.with_scenario(|s| s.mode));
    move || {
        let m = mode.get();
        (m != Mode::Inference).then(|| {
            view! {
                <fieldset class="group training">
                    <legend>{e.training}</legend>
                    <Select
                        id="optimizer"
                        label=e.optimizer
                        options=vec![
                            ("adamw".into(), "AdamW".into()),
                            ("adam8bit".into(), "8-bit Adam".into()),
                            ("paged_adam8bit".into(), crate::i18n::facts::optimizer(crate::engine::workload::Optimizer::PagedAdam8bit, ctx.lang).into()),
                            ("paged_adamw".into(), crate::i18n::facts::optimizer(crate::engine::workload::Optimizer::PagedAdamw, ctx.lang).into()),
                            ("sgd_momentum".into(), "SGD + momentum".into()),
                            ("sgd".into(), "SGD".into()),
                        ]
                        value=Signal::derive(move || ctx.with_scenario(|s| name_of(&s.optimizer)))
                        set=Callback::new(move |v: String| if let Some(o) = parse_name(&v) { ctx.edit(|s| s.optimizer = o) })
                    />
                    <Select
                        id="training-precision"
                        label=e.training_precision
                        options=vec![
                            ("mixed".into(), ps.precision_mixed.into()),
                            ("mixed_fp32_grads".into(), ps.precision_mixed_fp32_grads.into()),
                            ("bf16".into(), ps.precision_bf16.into()),
                            ("fp32".into(), ps.precision_fp32.into()),
                        ]
                        value=Signal::derive(move || ctx.with_scenario(|s| name_of(&s.training_precision)))
                        set=Callback::new(move |v: String| if let Some(p) = parse_name(&v) { ctx.edit(|s| s.training_precision = p) })
                    />
                    <Select
                        id="recipe"
                        label=ps.recipe
                        options=RECIPES.iter().zip(ps.recipes).map(|(r, label)| (name_of(r), label.to_owned())).collect()
                        value=Signal::derive(move || ctx.with_scenario(|s| name_of(&s.resolved_recipe())))
                        set=Callback::new(move |v: String| if let Some(r) = parse_name(&v) { ctx.edit(|s| edits::set_recipe(s, r)) })
                    />
                    {int_slider(ctx, "micro-batches", ps.micro_batches, ps.u_micro_batches, nice_values(1, 1024),
                        |s| s.resolved_micro_batches(), |s, v| s.micro_batches = Some(v.max(1)))}
                    <Toggle
                        id="optimizer-in-backward"
                        label=e.optimizer_in_backward
                        value=Signal::derive(move || ctx.with_scenario(|s| s.optimizer_in_backward))
                        set=Callback::new(move |v: bool| ctx.edit(|s| s.optimizer_in_backward = v))
                    />
                    <Toggle
                        id="activation-offload"
                        label=e.activation_offload
                        value=Signal::derive(move || ctx.with_scenario(|s| s.activation_offload))
                        set=Callback::new(move |v: bool| ctx.edit(|s| s.activation_offload = v))
                    />
                    <Select
                        id="loss-chunks"
                        label=e.loss_chunks
                        options=vec![
                            ("0".into(), ps.loss_unchunked.into()),
                            ("4".into(), "4".into()),
                            ("8".into(), "8".into()),
                            ("16".into(), "16".into()),
                        ]
                        value=Signal::derive(move || ctx.with_scenario(|s| s.loss_chunks.to_string()))
                        set=Callback::new(move |v: String| if let Ok(n) = v.parse::<u64>() { ctx.edit(|s| s.loss_chunks = n) })
                    />
                    <Select
                        id="zero-stage"
                        label=e.zero_stage
                        options=(0..=3).map(|z| (z.to_string(), format!("ZeRO-{z}"))).collect()
                        value=Signal::derive(move || ctx.with_scenario(|s| s.zero_stage.to_string()))
                        set=Callback::new(move |v: String| if let Ok(z) = v.parse::<u8>() { ctx.edit(|s| s.zero_stage = z) })
                    />
                    <Select
                        id="recompute"
                        label=e.recompute
                        options=vec![
                            ("none".into(), ps.recompute_none.into()),
                            ("selective".into(), ps.recompute_selective.into()),
                            ("op_selective".into(), ps.recompute_op_selective.into()),
                            ("full".into(), ps.recompute_full.into()),
                        ]
                        value=Signal::derive(move || ctx.with_scenario(|s| name_of(&s.recompute)))
                        set=Callback::new(move |v: String| if let Some(r) = parse_name(&v) { ctx.edit(|s| s.recompute = r) })
                    />
                    <Toggle
                        id="flash-attention"
                        label=e.flash_attention
                        value=Signal::derive(move || ctx.with_scenario(|s| s.flash_attention))
                        set=Callback::new(move |v: bool| ctx.edit(|s| s.flash_attention = v))
                    />
                    {matches!(m, Mode::Lora | Mode::Qlora).then(|| int_slider(ctx, "lora-rank", e.lora_rank, "r", powers_of_two(1, 1024), |s| s.lora_rank, |s, v| s.lora_rank = v))}
                </fieldset>
            }
        })
    }
}

/// The attention kernels after the GPU's default, in the order of `attention_kernels[1..]`.
const ATTENTION_KERNELS: [AttentionKernel; 4] =
    [AttentionKernel::Fa2, AttentionKernel::Fa3, AttentionKernel::Fa4, AttentionKernel::Cudnn];
/// In the order of `loss_impls`.
const LOSS_IMPLS: [LossImpl; 4] =
    [LossImpl::Upcast, LossImpl::VocabParallel, LossImpl::Fused, LossImpl::FusedLinear];
/// In the order of `optimizer_impls`.
const OPTIMIZER_IMPLS: [OptimizerImpl; 2] = [OptimizerImpl::Foreach, OptimizerImpl::Fused];
/// In the order of `flop_conventions`.
const FLOP_CONVENTIONS: [FlopConvention; 3] =
    [FlopConvention::MegatronCausal, FlopConvention::Palm, FlopConvention::WithEmbedding];

/// `(serde name, label)` pairs for a select, the values in the labels' order.
fn options<T: serde::Serialize>(values: &[T], labels: &[&str]) -> Vec<(String, String)> {
    values.iter().zip(labels).map(|(v, l)| (name_of(v), (*l).to_owned())).collect()
}

/// The training step's layout and kernels, folded (training modes only). Each control writes one
/// scenario key; what the engine refuses (FlashAttention-3 off Hopper, virtual stages without a
/// pipeline) shows in the banner with the key it names.
#[component]
pub fn ScheduleControls() -> impl IntoView {
    let ctx = expect_context::<Ctx>();
    let ps = ctx.lang.est_panels();
    let training = Memo::new(move |_| ctx.with_scenario(|s| s.mode != Mode::Inference));
    move || {
        training.get().then(|| {
            let mut kernels = vec![(String::new(), ps.attention_kernels[0].to_owned())];
            kernels.extend(options(&ATTENTION_KERNELS, &ps.attention_kernels[1..]));
            let mut recompute_layers = vec![0];
            recompute_layers.extend(nice_values(1, 256));
            view! {
                <details class="group schedule-group">
                    <summary>{ps.schedule_group}</summary>
                    {int_slider(ctx, "context-parallel", ps.context_parallel, ps.u_ways, powers_of_two(1, 64),
                        |s| s.context_parallel, edits::set_context_parallel)}
                    {int_slider(ctx, "virtual-stages", ps.virtual_stages, ps.u_chunks, nice_values(1, 64),
                        |s| s.virtual_pipeline_stages, edits::set_virtual_stages)}
                    <Toggle
                        id="sequence-parallel"
                        label=ps.sequence_parallel
                        value=Signal::derive(move || ctx.with_scenario(|s| s.sequence_parallel))
                        set=Callback::new(move |v: bool| ctx.edit(|s| s.sequence_parallel = v))
                    />
                    <Toggle
                        id="tp-overlap"
                        label=ps.tp_overlap
                        value=Signal::derive(move || ctx.with_scenario(|s| s.tp_comm_overlap))
                        set=Callback::new(move |v: bool| ctx.edit(|s| s.tp_comm_overlap = v))
                    />
                    {int_slider(ctx, "recompute-layers", ps.recompute_layers, ps.u_layers, recompute_layers,
                        |s| s.recompute_layers.unwrap_or(0), edits::set_recompute_layers)}
                    <Select
                        id="attention-kernel"
                        label=ps.attention_kernel
                        options=kernels
                        value=Signal::derive(move || ctx.with_scenario(|s| s.attention_kernel.map_or(String::new(), |k| name_of(&k))))
                        set=Callback::new(move |v: String| ctx.edit(|s| s.attention_kernel = parse_name(&v)))
                    />
                    <Select
                        id="loss-impl"
                        label=ps.loss_impl
                        options=options(&LOSS_IMPLS, &ps.loss_impls)
                        value=Signal::derive(move || ctx.with_scenario(|s| name_of(&s.loss_impl)))
                        set=Callback::new(move |v: String| if let Some(l) = parse_name(&v) { ctx.edit(|s| s.loss_impl = l) })
                    />
                    <Select
                        id="optimizer-impl"
                        label=ps.optimizer_impl
                        options=options(&OPTIMIZER_IMPLS, &ps.optimizer_impls)
                        value=Signal::derive(move || ctx.with_scenario(|s| name_of(&s.optimizer_impl)))
                        set=Callback::new(move |v: String| if let Some(o) = parse_name(&v) { ctx.edit(|s| s.optimizer_impl = o) })
                    />
                    <Toggle
                        id="fp8-primary"
                        label=ps.fp8_primary
                        value=Signal::derive(move || ctx.with_scenario(|s| s.fp8_primary_weights))
                        set=Callback::new(move |v: bool| ctx.edit(|s| s.fp8_primary_weights = v))
                    />
                    <Select
                        id="flop-convention"
                        label=ps.flop_convention
                        options=options(&FLOP_CONVENTIONS, &ps.flop_conventions)
                        value=Signal::derive(move || ctx.with_scenario(|s| name_of(&s.flop_convention)))
                        set=Callback::new(move |v: String| if let Some(f) = parse_name(&v) { ctx.edit(|s| s.flop_convention = f) })
                    />
                </details>
            }
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::i18n::Lang;

    /// The recipe menu: each option's key is the scenario's name of its recipe and reads back to
    /// it, and its label in either language names the same format.
    #[test]
    fn recipe_options_name_their_recipes() {
        // What tells each option apart, in each language.
        let words = |lang: Lang| match lang {
            Lang::En => ["none", "delayed", "current", "block", "MXFP8", "NVFP4"],
            Lang::Zh => ["无", "延迟", "即时", "分块", "MXFP8", "NVFP4"],
        };
        for lang in Lang::ALL {
            for ((r, label), word) in RECIPES.iter().zip(lang.est_panels().recipes).zip(words(lang)) {
                assert_eq!(parse_name::<crate::engine::workload::LowPrecisionRecipe>(&name_of(r)), Some(*r));
                assert!(label.contains(word), "{}: {label}", lang.code());
            }
        }
    }

    /// Every other menu of the training panel: each option's key reads back to its value, the
    /// labels come in the values' order (a word each option is told apart by), and the GPU's
    /// default attention kernel is the empty key (the scenario's absent `attention_kernel`).
    #[test]
    fn schedule_options_name_their_values() {
        fn round_trip<T: serde::Serialize + serde::de::DeserializeOwned + PartialEq + std::fmt::Debug>(
            values: &[T],
            labels: &[&str],
            words: &[&str],
        ) {
            assert_eq!((values.len(), labels.len()), (words.len(), words.len()));
            for ((v, (key, label)), word) in values.iter().zip(options(values, labels)).zip(words) {
                assert_eq!(parse_name::<T>(&key).as_ref(), Some(v));
                assert!(label.contains(word), "{label} lacks {word}");
            }
        }
        for lang in Lang::ALL {
            let ps = lang.est_panels();
            let zh = lang == Lang::Zh;
            round_trip(&ATTENTION_KERNELS, &ps.attention_kernels[1..], &["-2", "-3", "-4", "cuDNN"]);
            assert!(ps.attention_kernels[0].contains("Hopper"));
            let loss: [&str; 4] = if zh {
                ["fp32", "Megatron", "融合交叉熵", "分块融合"]
            } else {
                ["fp32", "Megatron", "fused", "chunks"]
            };
            round_trip(&LOSS_IMPLS, &ps.loss_impls, &loss);
            round_trip(
                &OPTIMIZER_IMPLS,
                &ps.optimizer_impls,
                if zh { &["逐操作", "融合"] } else { &["foreach", "fused"] },
            );
            round_trip(&FLOP_CONVENTIONS, &ps.flop_conventions, &["Megatron", "PaLM", "llm-foundry"]);
        }
        assert_eq!(parse_name::<AttentionKernel>(""), None);
    }
}
