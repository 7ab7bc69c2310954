//! Edits that change more than the one field a control shows. A control calls one of these and
//! the rule lives here, tested natively with worked cases, rather than inside a component.
//!
//! - [`set_mode`]: a weight format the new mode cannot use falls back to the mode's default.
//! - [`set_gpus`], [`set_tensor_parallel`], [`set_pipeline_parallel`], [`set_context_parallel`]:
//!   the GPU count stays a multiple of tensor × pipeline × context parallelism (the engine refuses
//!   anything else); context parallelism also keeps the context a multiple of its 2·cp chunks.
//! - [`set_virtual_stages`], [`set_pipeline_parallel`]: an interleaved schedule keeps the
//!   micro-batches a multiple of the pipeline stages (Megatron's assertion).
//! - [`set_recompute_layers`]: 0 means every layer of a stage (the key absent).
//! - [`spread_over_gpus`]: a chapter widget's single GPU slider picks the layout itself.
//! - [`set_context_tokens`], [`set_output_tokens`]: generated tokens stay inside the context,
//!   and a shared prefix inside the prompt ([`set_prefix_shared`]).
//! - [`set_prefix_hit_rate`]: a hit rate in percent, clamped to [0, 100] (0: none).
//! - [`set_spec_method`], [`set_spec_draft_tokens`], [`set_spec_acceptance`]: speculative
//!   decoding; draft tokens stay where the method has a published acceptance unless the reader
//!   gives one, an acceptance in percent is clamped to [1, 99] (0: the method's default).
//! - [`set_recipe`]: a low-precision recipe; "none" also takes the matmuls off an FP8 compute
//!   path, which would otherwise bring back Transformer Engine's default recipe.
//! - [`set_open_sessions`], [`set_tier_gb`], [`set_tier_rate`], [`set_gpu_prefix_cache`]: KV
//!   cache tiers; sizes in GB and rates in GB/s clamped to the engine's ranges (a rate of 0: the
//!   engine's default).

use crate::catalog::resolve_model;
use crate::engine::precision::compute::ComputeDtype;
use crate::engine::precision::Dtype;
use crate::engine::solvers::tp_allowed;
use crate::engine::workload::{LowPrecisionRecipe, Mode, SpecMethod};
use crate::engine::Scenario;

/// Sets the workload mode. Quantised weights cannot be trained, so training and LoRA drop an
/// int8/int4/nf4/fp8 weight format; QLoRA wants a quantised base (nf4, int4 or int8), so it
/// drops a float one. A dropped format falls back to the mode's default (bf16, or nf4 for
/// QLoRA); a format the new mode can use is kept.
pub fn set_mode(s: &mut Scenario, mode: Mode) {
    s.mode = mode;
    let unusable = |d: Dtype| match mode {
        Mode::Training | Mode::Lora => !d.is_trainable_float(),
        Mode::Qlora => d.is_trainable_float() || d == Dtype::Fp8,
        Mode::Inference => false,
    };
    if s.weight_dtype.is_some_and(unusable) {
        s.weight_dtype = None;
    }
}

/// Rounds `gpus` up to the next multiple of tensor × pipeline × context parallelism (at least one
/// group), so that the data-parallel replicas come out whole.
pub fn fit_gpus_to_layout(s: &mut Scenario) {
    let group = (s.tensor_parallel * s.pipeline_parallel * s.context_parallel).max(1);
    if !s.gpus.is_multiple_of(group) || s.gpus < group {
        s.gpus = s.gpus.div_ceil(group).max(1) * group;
    }
}

/// Sets the GPU count; data parallelism follows from it again.
pub fn set_gpus(s: &mut Scenario, gpus: u64) {
    s.gpus = gpus;
    s.data_parallel = None;
}

/// Sets tensor parallelism and fits the GPU count to the new layout.
pub fn set_tensor_parallel(s: &mut Scenario, tp: u64) {
    s.tensor_parallel = tp;
    s.data_parallel = None;
    fit_gpus_to_layout(s);
}

/// Sets pipeline parallelism and fits the GPU count to the new layout.
pub fn set_pipeline_parallel(s: &mut Scenario, pp: u64) {
    s.pipeline_parallel = pp;
    s.data_parallel = None;
    fit_gpus_to_layout(s);
    fit_micro_batches_to_schedule(s);
}

/// Sets context parallelism (training: each sequence split over `cp` GPUs, at least 1), fits the
/// GPU count to the new layout and rounds the context up to a multiple of `2·cp`, the chunks of
/// Megatron-Core's load-balanced split.
pub fn set_context_parallel(s: &mut Scenario, cp: u64) {
    s.context_parallel = cp.max(1);
    s.data_parallel = None;
    fit_gpus_to_layout(s);
    let chunks = 2 * s.context_parallel;
    if s.context_parallel > 1 && !s.context_tokens.is_multiple_of(chunks) {
        set_context_tokens(s, s.context_tokens.div_ceil(chunks) * chunks);
    }
}

/// Sets the model chunks per pipeline stage of an interleaved schedule (at least 1) and keeps the
/// micro-batches a multiple of the stages.
pub fn set_virtual_stages(s: &mut Scenario, v: u64) {
    s.virtual_pipeline_stages = v.max(1);
    fit_micro_batches_to_schedule(s);
}

/// Under an interleaved schedule on pipeline stages, rounds the micro-batches up to a multiple of
/// the stages (Megatron's interleaved 1F1B asserts `num_microbatches % pipeline_parallel_size ==
/// 0`); otherwise leaves them.
fn fit_micro_batches_to_schedule(s: &mut Scenario) {
    let pp = s.pipeline_parallel.max(1);
    let m = s.resolved_micro_batches();
    if s.virtual_pipeline_stages > 1 && pp > 1 && !m.is_multiple_of(pp) {
        s.micro_batches = Some(m.div_ceil(pp) * pp);
    }
}

/// Sets the layers of each stage the recompute policy applies to; 0 means all of them.
pub fn set_recompute_layers(s: &mut Scenario, layers: u64) {
    s.recompute_layers = (layers > 0).then_some(layers);
}

/// A chapter widget's GPU slider: spreads the model over `gpus` with the widest tensor
/// parallelism of a node (8, 4, 2) that divides the count and that the model's heads allow
/// (it must divide the attention heads and divide or be a multiple of the KV heads); the rest of
/// the GPUs are data-parallel replicas. No pipeline parallelism. An unknown model gets TP 1.
pub fn spread_over_gpus(s: &mut Scenario, gpus: u64) {
    set_gpus(s, gpus);
    s.pipeline_parallel = 1;
    let arch = resolve_model(&s.model).ok().map(|(a, _)| a);
    s.tensor_parallel = [8u64, 4, 2]
        .into_iter()
        .find(|&tp| gpus.is_multiple_of(tp) && arch.as_deref().is_some_and(|a| tp_allowed(a, tp)))
        .unwrap_or(1);
}

/// Sets the context. Generated tokens that no longer fit (output ≥ context) become half the
/// context; the prompt is derived again (context − output).
pub fn set_context_tokens(s: &mut Scenario, tokens: u64) {
    s.context_tokens = tokens;
    if s.output_tokens.is_some_and(|o| o >= tokens) {
        s.output_tokens = Some((tokens / 2).max(1));
    }
    s.prompt_tokens = None;
    keep_prefix_in_prompt(s);
}

/// Sets the generated tokens per sequence: at least 1 and below the context, so at least one
/// prompt token is left; the prompt is derived again.
pub fn set_output_tokens(s: &mut Scenario, tokens: u64) {
    s.output_tokens = Some(tokens.max(1).min(s.context_tokens.saturating_sub(1).max(1)));
    s.prompt_tokens = None;
    keep_prefix_in_prompt(s);
}

/// A shared prefix longer than the prompt becomes the whole prompt (the engine refuses more).
fn keep_prefix_in_prompt(s: &mut Scenario) {
    let (prompt, _) = s.resolved_prompt_output();
    s.prefix_shared_tokens = s.prefix_shared_tokens.min(prompt);
}

/// Sets the shared prefix (a system prompt every request starts with), at most the prompt.
pub fn set_prefix_shared(s: &mut Scenario, tokens: u64) {
    s.prefix_shared_tokens = tokens;
    keep_prefix_in_prompt(s);
}

/// Sets the prefix cache's hit rate from a percentage, clamped to [0, 100]; 0 (or not a number)
/// means none given.
pub fn set_prefix_hit_rate(s: &mut Scenario, percent: f64) {
    let h = if percent.is_finite() { (percent / 100.0).clamp(0.0, 1.0) } else { 0.0 };
    s.prefix_hit_rate = (h > 0.0).then_some(h);
}

/// Chooses the speculative method (`None`: off). A new method starts from its own defaults (its
/// draft tokens and published acceptance), so the reader's earlier numbers for another method do
/// not carry over; a draft model keeps the model it names.
pub fn set_spec_method(s: &mut Scenario, m: Option<SpecMethod>) {
    if s.speculative_method != m {
        s.speculative_draft_tokens = None;
        s.speculative_acceptance_rate = None;
        s.speculative_acceptance = None;
        s.speculative_acceptance_length = None;
    }
    s.speculative_method = m;
    if m != Some(SpecMethod::DraftModel) {
        s.speculative_draft_model = None;
    }
}

/// The draft tokens a method has a published acceptance for (`engine::speculation`): EAGLE-3
/// K 2..7, n-gram 1..5, MTP 1..32 (the engine checks the modules the model ships); with the
/// reader's own acceptance, 1..32.
fn spec_token_range(s: &Scenario) -> (u64, u64) {
    let max = crate::engine::speculation::MAX_DRAFT_TOKENS;
    let given = s.speculative_acceptance_rate.is_some()
        || s.speculative_acceptance.is_some()
        || s.speculative_acceptance_length.is_some();
    match s.speculative_method {
        _ if given => (1, max),
        Some(SpecMethod::Eagle3) => (2, 7),
        Some(SpecMethod::Ngram) => (1, 5),
        _ => (1, max),
    }
}

/// Sets the draft tokens γ, clamped to [`spec_token_range`].
pub fn set_spec_draft_tokens(s: &mut Scenario, g: u64) {
    let (lo, hi) = spec_token_range(s);
    s.speculative_draft_tokens = Some(g.clamp(lo, hi));
    if let Some(rates) = &s.speculative_acceptance {
        if rates.len() as u64 != g.clamp(lo, hi) {
            s.speculative_acceptance = None;
        }
    }
}

/// Sets an i.i.d. acceptance rate from a percentage, clamped to [1, 99] (the engine takes (0, 1));
/// 0 (or not a number) returns to the method's published default, and the draft tokens back
/// into its range.
pub fn set_spec_acceptance(s: &mut Scenario, percent: f64) {
    s.speculative_acceptance = None;
    s.speculative_acceptance_length = None;
    if percent.is_finite() && percent > 0.0 {
        s.speculative_acceptance_rate = Some(percent.clamp(1.0, 99.0) / 100.0);
    } else {
        s.speculative_acceptance_rate = None;
        if let Some(g) = s.speculative_draft_tokens {
            set_spec_draft_tokens(s, g);
        }
    }
}

/// Sets the Poisson arrival rate (0: off); a rate replaces a closed loop of users.
pub fn set_arrival_rate(s: &mut Scenario, rate: f64) {
    s.arrival_rate_per_s = (rate > 0.0).then_some(rate);
    if s.arrival_rate_per_s.is_some() {
        s.concurrent_users = None;
    }
}

/// Sets the prefill workers of a disaggregated deployment (0: aggregated; at most 4,096, the
/// engine's range); with none, the prefill group and link go back to their defaults.
pub fn set_prefill_workers(s: &mut Scenario, workers: u64) {
    s.prefill_workers = workers.min(4096);
    if s.prefill_workers == 0 {
        s.prefill_tensor_parallel = None;
        s.kv_transfer_link = None;
    }
}

/// Sets the GPUs of each prefill worker (the decode group's own size: the default, no key).
pub fn set_prefill_tensor_parallel(s: &mut Scenario, tp: u64) {
    let tp = tp.clamp(1, 1024);
    s.prefill_tensor_parallel = (tp != s.tensor_parallel).then_some(tp);
}

/// Open sessions per replica whose histories are kept for reuse (0: off), at most the engine's
/// 100,000,000.
pub fn set_open_sessions(s: &mut Scenario, sessions: u64) {
    s.prefix_open_sessions = sessions.min(100_000_000);
}

/// A KV tier below the GPU: the CPU's memory or an SSD.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Tier {
    Cpu,
    Ssd,
}

/// Sets a tier's size per GPU from decimal GB, clamped to the engine's range (CPU 2^50 bytes,
/// SSD 2^55); 0 or not a number: no such tier.
pub fn set_tier_gb(s: &mut Scenario, tier: Tier, gb: f64) {
    let gb = if gb.is_finite() { gb.max(0.0) } else { 0.0 };
    let (field, max) = match tier {
        Tier::Cpu => (&mut s.kv_cpu_tier_bytes, 1u64 << 50),
        Tier::Ssd => (&mut s.kv_ssd_tier_bytes, 1u64 << 55),
    };
    *field = ((gb * 1e9).round() as u64).min(max);
}

/// Sets a tier's read rate from GB/s, clamped to the engine's 0.001..10,000 GB/s; 0 or not a
/// number: the engine's default (the GPU's PCIe link one way, 7 GB/s for an SSD).
pub fn set_tier_rate(s: &mut Scenario, tier: Tier, gb_per_s: f64) {
    let rate = (gb_per_s.is_finite() && gb_per_s > 0.0).then(|| (gb_per_s * 1e9).clamp(1e6, 1e13));
    match tier {
        Tier::Cpu => s.kv_cpu_tier_bytes_per_s = rate,
        Tier::Ssd => s.kv_ssd_tier_bytes_per_s = rate,
    }
}

/// Turns GPU prefix caching on (the engine's default: the KV pool's free room) or off (0 bytes:
/// only the tiers below keep histories).
pub fn set_gpu_prefix_cache(s: &mut Scenario, on: bool) {
    s.kv_gpu_cache_bytes = (!on).then_some(0);
}

/// Sets the users of a closed loop (0: off); users replace an arrival rate.
pub fn set_concurrent_users(s: &mut Scenario, users: u64) {
    s.concurrent_users = (users > 0).then_some(users);
    if s.concurrent_users.is_some() {
        s.arrival_rate_per_s = None;
    }
}

/// Sets the linear layers' low-precision recipe. With no recipe, a training run whose compute
/// path is FP8 would still run `fp8_delayed` ([`Scenario::resolved_recipe`]), so choosing "none"
/// moves the matmuls to the bf16 path as well.
pub fn set_recipe(s: &mut Scenario, recipe: LowPrecisionRecipe) {
    s.low_precision_recipe = recipe;
    if s.resolved_recipe() != recipe {
        s.compute_dtype = Some(ComputeDtype::Bf16);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::catalog::evaluate;
    use crate::engine::ModelSpec;

    fn scenario(model: &str) -> Scenario {
        Scenario::new(ModelSpec::Id(model.into()))
    }

    #[test]
    fn prefix_controls_clamp_and_follow_the_prompt() {
        let mut s = scenario("llama-3.1-8b");
        s.context_tokens = 4096;
        set_output_tokens(&mut s, 1024);
        set_prefix_shared(&mut s, 10_000);
        assert_eq!(s.prefix_shared_tokens, 3072);
        // A longer output shortens the prompt, and the prefix with it.
        set_output_tokens(&mut s, 3000);
        assert_eq!(s.prefix_shared_tokens, 1096);
        set_context_tokens(&mut s, 1024);
        assert_eq!(s.prefix_shared_tokens, 512);
        assert!(s.validate().is_ok());
        set_prefix_hit_rate(&mut s, 150.0);
        assert_eq!(s.prefix_hit_rate, Some(1.0));
        set_prefix_hit_rate(&mut s, 42.0);
        assert_eq!(s.prefix_hit_rate, Some(0.42));
        for off in [0.0, -5.0, f64::NAN] {
            set_prefix_hit_rate(&mut s, off);
            assert_eq!(s.prefix_hit_rate, None);
        }
    }

    #[test]
    fn kv_tier_controls_clamp_to_what_the_engine_takes() {
        let mut s = scenario("llama-3.1-8b");
        set_open_sessions(&mut s, 5_000_000_000);
        assert_eq!(s.prefix_open_sessions, 100_000_000);
        set_tier_gb(&mut s, Tier::Cpu, 256.0);
        set_tier_gb(&mut s, Tier::Ssd, 3840.0);
        assert_eq!((s.kv_cpu_tier_bytes, s.kv_ssd_tier_bytes), (256_000_000_000, 3_840_000_000_000));
        // Past the engine's ranges: its largest values; negative or not a number: none.
        set_tier_gb(&mut s, Tier::Cpu, 1e9);
        set_tier_gb(&mut s, Tier::Ssd, 1e12);
        assert_eq!((s.kv_cpu_tier_bytes, s.kv_ssd_tier_bytes), (1 << 50, 1 << 55));
        assert!(s.validate().is_ok());
        set_tier_gb(&mut s, Tier::Cpu, -1.0);
        set_tier_gb(&mut s, Tier::Ssd, f64::NAN);
        assert_eq!((s.kv_cpu_tier_bytes, s.kv_ssd_tier_bytes), (0, 0));
        set_tier_rate(&mut s, Tier::Cpu, 50.0);
        set_tier_rate(&mut s, Tier::Ssd, 1e6);
        assert_eq!((s.kv_cpu_tier_bytes_per_s, s.kv_ssd_tier_bytes_per_s), (Some(50e9), Some(1e13)));
        set_tier_rate(&mut s, Tier::Ssd, 1e-9);
        assert_eq!(s.kv_ssd_tier_bytes_per_s, Some(1e6));
        assert!(s.validate().is_ok());
        for default in [0.0, -3.0, f64::INFINITY] {
            set_tier_rate(&mut s, Tier::Cpu, default);
            assert_eq!(s.kv_cpu_tier_bytes_per_s, None);
        }
        set_gpu_prefix_cache(&mut s, false);
        assert_eq!(s.kv_gpu_cache_bytes, Some(0));
        set_gpu_prefix_cache(&mut s, true);
        assert_eq!(s.kv_gpu_cache_bytes, None);
    }

    #[test]
    fn speculative_controls_clamp_to_what_the_engine_takes() {
        let mut s = scenario("llama-3.1-8b");
        set_spec_method(&mut s, Some(SpecMethod::Eagle3));
        // EAGLE-3's published acceptance covers K 2..7: 12 is clamped to 7, 1 to 2.
        set_spec_draft_tokens(&mut s, 12);
        assert_eq!(s.speculative_draft_tokens, Some(7));
        set_spec_draft_tokens(&mut s, 1);
        assert_eq!(s.speculative_draft_tokens, Some(2));
        assert!(s.validate().is_ok());
        // The reader's own acceptance opens 1..32; 150 % is clamped to 99 %.
        set_spec_acceptance(&mut s, 150.0);
        assert_eq!(s.speculative_acceptance_rate, Some(0.99));
        set_spec_draft_tokens(&mut s, 40);
        assert_eq!(s.speculative_draft_tokens, Some(32));
        assert!(s.validate().is_ok());
        // Back to the default: the draft tokens return into the published range.
        set_spec_acceptance(&mut s, 0.0);
        assert_eq!((s.speculative_acceptance_rate, s.speculative_draft_tokens), (None, Some(7)));
        assert!(s.validate().is_ok());
        // Another method starts from its own defaults.
        set_spec_method(&mut s, Some(SpecMethod::Ngram));
        assert_eq!(s.speculative_draft_tokens, None);
        assert!(s.validate().is_ok());
        set_spec_method(&mut s, None);
        assert!(s.speculative_method.is_none() && s.validate().is_ok());
    }

    #[test]
    fn training_drops_quantised_weights_and_keeps_floats() {
        let mut s = scenario("llama-3.1-8b");
        s.weight_dtype = Some(Dtype::Int4);
        set_mode(&mut s, Mode::Training);
        assert_eq!((s.mode, s.weight_dtype), (Mode::Training, None), "int4 cannot be trained");
        assert_eq!(s.resolved_weight_dtype(), Dtype::Bf16);
        s.weight_dtype = Some(Dtype::Fp16);
        set_mode(&mut s, Mode::Lora);
        assert_eq!(s.weight_dtype, Some(Dtype::Fp16), "fp16 can");
        s.weight_dtype = Some(Dtype::Fp8);
        set_mode(&mut s, Mode::Lora);
        assert_eq!(s.weight_dtype, None, "fp8 is not a training format here");
    }

    #[test]
    fn qlora_drops_float_weights_and_keeps_quantised() {
        let mut s = scenario("llama-3.1-8b");
        for (dtype, kept) in [
            (Dtype::Bf16, false),
            (Dtype::Fp32, false),
            (Dtype::Fp8, false),
            (Dtype::Int8, true),
            (Dtype::Int4, true),
            (Dtype::Nf4, true),
        ] {
            s.weight_dtype = Some(dtype);
            set_mode(&mut s, Mode::Qlora);
            assert_eq!(s.weight_dtype.is_some(), kept, "{dtype:?}");
        }
        s.weight_dtype = Some(Dtype::Bf16);
        set_mode(&mut s, Mode::Qlora);
        assert_eq!(s.resolved_weight_dtype(), Dtype::Nf4, "QLoRA's default base");
    }

    #[test]
    fn inference_keeps_any_format() {
        let mut s = scenario("llama-3.1-8b");
        s.mode = Mode::Training;
        s.weight_dtype = Some(Dtype::Fp32);
        set_mode(&mut s, Mode::Inference);
        assert_eq!(s.weight_dtype, Some(Dtype::Fp32));
    }

    /// Every mode change leaves a scenario the engine accepts (from each catalog format).
    #[test]
    fn every_mode_change_gives_a_valid_scenario() {
        let dtypes =
            [Dtype::Fp32, Dtype::Bf16, Dtype::Fp16, Dtype::Fp8, Dtype::Int8, Dtype::Int4, Dtype::Nf4];
        for mode in [Mode::Inference, Mode::Training, Mode::Lora, Mode::Qlora] {
            for d in dtypes {
                let mut s = scenario("llama-3.2-1b");
                s.weight_dtype = Some(d);
                set_mode(&mut s, mode);
                s.validate().unwrap_or_else(|e| panic!("{d:?} then {mode:?}: {e}"));
            }
        }
    }

    #[test]
    fn layout_changes_round_the_gpu_count_up_to_whole_replicas() {
        let mut s = scenario("llama-3.1-70b");
        set_gpus(&mut s, 6);
        // 6 GPUs, TP 4: 6 is not a multiple of 4, so 8 (two replicas).
        set_tensor_parallel(&mut s, 4);
        assert_eq!((s.gpus, s.tensor_parallel, s.data_parallel()), (8, 4, 2));
        // TP 4 × PP 4 = 16 > 8 GPUs: one group of 16.
        set_pipeline_parallel(&mut s, 4);
        assert_eq!((s.gpus, s.data_parallel()), (16, 1));
        // A count that already fits is kept: 32 GPUs, TP 4 × PP 2 → 4 replicas.
        set_gpus(&mut s, 32);
        set_pipeline_parallel(&mut s, 2);
        assert_eq!((s.gpus, s.data_parallel()), (32, 4));
    }

    #[test]
    fn setting_a_count_clears_an_explicit_data_parallel() {
        let mut s = scenario("llama-3.1-8b");
        s.data_parallel = Some(1);
        set_gpus(&mut s, 4);
        assert_eq!(s.data_parallel, None);
        evaluate(&s).expect("4 replicas of Llama 3.1 8B");
    }

    #[test]
    fn widget_spreads_over_the_widest_tensor_parallelism_the_heads_allow() {
        // Llama 3.1 70B: 64 heads, 8 KV heads (config.json): TP 8, 4 or 2 all split them.
        let mut s = scenario("llama-3.1-70b");
        s.pipeline_parallel = 2;
        for (gpus, tp) in [(1, 1), (2, 2), (3, 1), (4, 4), (6, 2), (8, 8), (16, 8), (12, 4)] {
            spread_over_gpus(&mut s, gpus);
            assert_eq!((s.gpus, s.tensor_parallel, s.pipeline_parallel), (gpus, tp, 1), "{gpus} GPUs");
            evaluate(&s).unwrap_or_else(|e| panic!("{gpus} GPUs: {e}"));
        }
        // Falcon 7B: 71 heads (a prime), so replicas only.
        let mut s = scenario("falcon-7b");
        spread_over_gpus(&mut s, 8);
        assert_eq!((s.tensor_parallel, s.data_parallel()), (1, 8));
        // GPT-2: 12 heads: 8 does not divide them, 4 does.
        let mut s = scenario("gpt2");
        spread_over_gpus(&mut s, 8);
        assert_eq!((s.tensor_parallel, s.data_parallel()), (4, 2));
        // An unknown model: no heads to split.
        let mut s = scenario("no-such-model");
        spread_over_gpus(&mut s, 8);
        assert_eq!(s.tensor_parallel, 1);
    }

    #[test]
    fn generated_tokens_stay_inside_the_context() {
        let mut s = scenario("llama-3.1-8b");
        s.prompt_tokens = Some(3000);
        s.output_tokens = Some(1000);
        // 4096 → 1024: 1000 output tokens still fit; the prompt is derived (24).
        set_context_tokens(&mut s, 1024);
        assert_eq!((s.output_tokens, s.prompt_tokens), (Some(1000), None));
        assert_eq!(s.resolved_prompt_output(), (24, 1000));
        // → 512: 1000 ≥ 512, so half the context.
        set_context_tokens(&mut s, 512);
        assert_eq!(s.output_tokens, Some(256));
        // Output is clamped to context − 1 and to at least 1.
        set_output_tokens(&mut s, 5000);
        assert_eq!(s.output_tokens, Some(511));
        set_output_tokens(&mut s, 0);
        assert_eq!(s.output_tokens, Some(1));
        // A one-token context keeps one output token (the engine allows output = context).
        set_context_tokens(&mut s, 1);
        set_output_tokens(&mut s, 7);
        assert_eq!(s.output_tokens, Some(1));
        evaluate(&s).expect("a one-token context");
    }

    #[test]
    fn users_and_an_arrival_rate_replace_each_other() {
        let mut s = scenario("llama-3.1-8b");
        set_arrival_rate(&mut s, 2.5);
        set_prefill_workers(&mut s, 2);
        set_prefill_tensor_parallel(&mut s, 4);
        assert_eq!((s.prefill_workers, s.prefill_tensor_parallel), (2, Some(4)));
        let tp = s.tensor_parallel;
        set_prefill_tensor_parallel(&mut s, tp);
        assert_eq!(s.prefill_tensor_parallel, None);
        s.kv_transfer_link = Some(crate::engine::links::KvLink::Roce);
        set_prefill_workers(&mut s, 0);
        assert_eq!((s.prefill_workers, s.prefill_tensor_parallel, s.kv_transfer_link), (0, None, None));
        set_prefill_workers(&mut s, 99_999);
        assert_eq!(s.prefill_workers, 4096);
        set_prefill_workers(&mut s, 0);
        set_concurrent_users(&mut s, 32);
        assert_eq!((s.concurrent_users, s.arrival_rate_per_s), (Some(32), None));
        set_arrival_rate(&mut s, 4.0);
        assert_eq!((s.concurrent_users, s.arrival_rate_per_s), (None, Some(4.0)));
        // 0 turns each off without touching the other.
        set_concurrent_users(&mut s, 0);
        assert_eq!((s.concurrent_users, s.arrival_rate_per_s), (None, Some(4.0)));
        set_arrival_rate(&mut s, 0.0);
        assert_eq!((s.concurrent_users, s.arrival_rate_per_s), (None, None));
        let r = evaluate(&Scenario { concurrent_users: Some(8), ..s }).unwrap();
        assert_eq!(r.load.unwrap().concurrent_users, Some(8));
    }

    /// Context parallelism brings the GPUs and the context along; an interleaved schedule brings
    /// the micro-batches; what is left the engine accepts.
    #[test]
    fn schedule_controls_keep_the_layout_whole() {
        let mut s = scenario("llama-3.1-8b");
        s.mode = Mode::Training;
        s.context_tokens = 8000;
        set_gpus(&mut s, 8);
        set_tensor_parallel(&mut s, 2);
        set_context_parallel(&mut s, 8);
        // 2 × 8 = 16 GPUs; 8000 → 8000 is a multiple of 16, kept; 8 GPUs became 16.
        assert_eq!((s.gpus, s.data_parallel(), s.context_tokens), (16, 1, 8000));
        s.context_tokens = 8100;
        set_context_parallel(&mut s, 4);
        // Rounded up to a multiple of 2 × 4.
        assert_eq!((s.gpus, s.context_tokens), (16, 8104));
        evaluate(&s).expect("tp 2 × cp 4 × dp 2");
        set_context_parallel(&mut s, 0);
        assert_eq!(s.context_parallel, 1);
        // Tensor parallelism now fits the GPUs to tp × pp × cp too.
        set_context_parallel(&mut s, 4);
        set_tensor_parallel(&mut s, 8);
        assert_eq!(s.gpus, 32);

        let mut p = scenario("llama-3.1-8b");
        p.mode = Mode::Training;
        set_gpus(&mut p, 8);
        set_pipeline_parallel(&mut p, 4);
        p.micro_batches = Some(6);
        set_virtual_stages(&mut p, 2);
        assert_eq!(p.micro_batches, Some(8));
        evaluate(&p).expect("pp 4, v 2, 8 micro-batches");
        set_pipeline_parallel(&mut p, 8);
        assert_eq!(p.micro_batches, Some(8));
        p.micro_batches = Some(9);
        set_pipeline_parallel(&mut p, 2);
        assert_eq!(p.micro_batches, Some(10));
        // Without an interleaved schedule the micro-batches are left as they are.
        set_virtual_stages(&mut p, 1);
        p.micro_batches = Some(3);
        set_pipeline_parallel(&mut p, 4);
        assert_eq!(p.micro_batches, Some(3));

        set_recompute_layers(&mut p, 0);
        assert_eq!(p.recompute_layers, None);
        set_recompute_layers(&mut p, 5);
        assert_eq!(p.recompute_layers, Some(5));
    }

    /// "none" means no recipe, even where the compute path alone would bring back
    /// `fp8_delayed`; a recipe is kept as chosen.
    #[test]
    fn no_recipe_leaves_the_fp8_path() {
        let mut s = scenario("llama-3.1-8b");
        s.mode = Mode::Training;
        s.compute_dtype = Some(ComputeDtype::Fp8);
        assert_eq!(s.resolved_recipe(), LowPrecisionRecipe::Fp8Delayed);
        set_recipe(&mut s, LowPrecisionRecipe::None);
        assert_eq!(s.resolved_recipe(), LowPrecisionRecipe::None);
        assert_eq!(s.compute_dtype, Some(ComputeDtype::Bf16));
        set_recipe(&mut s, LowPrecisionRecipe::Fp8Current);
        assert_eq!(s.resolved_recipe(), LowPrecisionRecipe::Fp8Current);
        let mut plain = scenario("llama-3.1-8b");
        set_recipe(&mut plain, LowPrecisionRecipe::Mxfp8);
        assert_eq!((plain.resolved_recipe(), plain.compute_dtype), (LowPrecisionRecipe::Mxfp8, None));
    }
}
