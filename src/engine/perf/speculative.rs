//! Speculative decoding's time: a target step verifies γ + 1 tokens per sequence and emits E of
//! them on average (`engine::speculation`), after the drafter has run γ times.
//!
//! # Formula
//!
//! `T_step = T_verify(b, γ + 1) + γ · T_draft(b)` and the time per output token
//! `TPOT = T_step / E`, where
//! - `T_verify(b, n)` is one forward pass of the target over `n` new tokens for each of `b`
//!   sequences ([`verify_step_work`]): FLOPs `2·P·b·n + b · attention(c, n)`, bytes the weights
//!   once (the experts `b·n` tokens touch), every sequence's cache `b·c·kv` read and `b·n·kv`
//!   written — the decode step's work with `n` queries per sequence instead of one (Leviathan et
//!   al. 2023, §3.4: "the target model ... runs in parallel on γ + 1 prefixes");
//! - `T_draft(b)` is one decode step of the drafter ([`drafter_shape`]): a draft model, an EAGLE-3
//!   head or an MTP module with the target's output head; 0 for n-gram lookup;
//! - both are timed by the same operation model as a decode step (`timing::phase_timing`), so
//!   at a small batch the verify step costs about what a decode step does (memory-bound: the
//!   weights dominate) and TPOT falls by nearly E, while at a large batch it is compute-bound,
//!   costs about `(γ + 1)×` a decode step, and speculation stops paying: the crossover falls out
//!   of the roofline, not of a constant.
//!
//! Speed-up over plain decoding `T_decode(b) / TPOT ≤ E`, since `T_verify(b, n) ≥ T_decode(b)`.

use super::phases::{ModelShape, PhaseWork};
use crate::engine::checked::{finite, non_negative, PerfError};
use crate::engine::derivation::{DerivKey, Derivation, Formula, Source, Val};
use crate::engine::model::params::ParamCounts;
use crate::engine::model::Architecture;
use crate::engine::speculation::{AcceptanceFrom, Speculation};
use crate::engine::workload::SpecMethod;
use serde::Serialize;

/// One target step over `n` new tokens for each of `batch` sequences with `context` cached:
/// `W = 2·P_active·b·n + b·attention(c, n)`, `Q = weights read once (for b·n tokens) +
/// b·c·kv (read) + b·n·kv (written) + 2·b·state`. `n = 1` is `phases::decode_step_work`.
pub fn verify_step_work(m: &ModelShape, batch: f64, context: f64, n: f64) -> Result<PhaseWork, PerfError> {
    m.validate()?;
    let b = non_negative("batch", batch)?;
    let c = non_negative("context", context)?;
    let n = non_negative("verified tokens", n)?.max(1.0);
    let tokens = b * n;
    let flops = 2.0 * m.params_active * tokens + b * m.attention_flops(c, n);
    let (wb, we) = m.weight_bytes_read(tokens);
    let kv = b * (c + n) * m.kv_bytes_per_token + 2.0 * b * m.state_bytes_per_sequence;
    Ok(PhaseWork {
        flops: finite("verify flops", flops)?,
        bytes: finite("verify bytes", wb + kv)?,
        expected_bytes: finite("verify bytes", we + kv)?,
        tokens,
        logit_rows: tokens,
        decode_sequences: b,
    })
}

/// The drafter as the time formulas see it, or `None` (n-gram: no model). `target` is the
/// target's shape at the decode context; `draft` the draft model's, sized the same way.
/// An EAGLE-3 head or an MTP module is one layer of the target (`memory::speculative` counts its
/// parameters) with one layer's KV. An EAGLE-3 head's parameters include its own output head over
/// the draft vocabulary; an MTP module computes its logits with the target's output head over the
/// whole vocabulary, added here, and keeps the target's routed experts (one MoE layer).
pub fn drafter_shape(
    spec: &Speculation,
    a: &Architecture,
    counts: &ParamCounts,
    target: &ModelShape,
    draft: Option<&ModelShape>,
    bytes_per_param: f64,
) -> Option<ModelShape> {
    let head = if a.tied_embeddings { counts.embedding } else { counts.lm_head } as f64;
    let layers = f64::from(target.layers.max(1));
    let one_layer = |params: f64, experts: bool, head: f64| {
        let (expert_params, active_expert) = if experts {
            let p = crate::engine::model::params::layer_params(
                a,
                crate::engine::num::usize_sat(a.layers.saturating_sub(1)),
            );
            (p.expert_matrices as f64, p.active_expert_matrices as f64)
        } else {
            (0.0, 0.0)
        };
        let moe = target.moe.filter(|_| experts && target.experts > 0).map(|mut r| {
            r.layers = 1;
            r
        });
        ModelShape {
            params_total: params + head,
            params_active: params - expert_params + active_expert + head,
            layers: 1,
            dense_weight_bytes: ((params - expert_params + head) * bytes_per_param).max(1.0),
            expert_weight_bytes: if moe.is_some() { expert_params * bytes_per_param } else { 0.0 },
            experts: if moe.is_some() { target.experts } else { 0 },
            experts_per_token: if moe.is_some() { target.experts_per_token } else { 0 },
            kv_bytes_per_token: target.kv_bytes_per_token / layers,
            state_bytes_per_sequence: 0.0,
            moe,
            ..target.clone()
        }
    };
    match spec.method {
        SpecMethod::Ngram => None,
        SpecMethod::DraftModel => draft.cloned(),
        SpecMethod::Eagle3 => {
            Some(one_layer(crate::engine::memory::speculative::eagle3_params(a) as f64, false, 0.0))
        }
        SpecMethod::Mtp => {
            Some(one_layer(crate::engine::memory::speculative::mtp_module_params(a) as f64, true, head))
        }
    }
}

/// Expected and bound seconds of one speculative step: the verify pass and γ draft passes.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize)]
pub struct StepTimes {
    pub verify_s: f64,
    pub verify_s_bound: f64,
    /// One draft pass (0 for n-gram): `max(T_gpu, T_host)`.
    pub draft_s: f64,
    /// The draft pass's GPU time (its own roofline, launches included).
    pub draft_gpu_s: f64,
    /// The host time a draft pass cannot go below: the stack's glue per pass
    /// (`efficiency.draft_pass_host_s`), or, with more sequences than the stack's largest decode
    /// graph, its eager launches (`K · efficiency.eager_kernel_host_s`), whichever is longer; 0
    /// for n-gram.
    pub draft_host_s: f64,
    /// The eager launches (past the stack's largest decode graph) set `draft_host_s`, being
    /// longer than the stack's glue.
    pub draft_eager: bool,
    pub draft_s_bound: f64,
    /// The plain decode step the speculation replaces.
    pub decode_s: f64,
    pub decode_s_bound: f64,
}

impl StepTimes {
    /// `T_verify + γ · T_draft`.
    pub fn step_s(&self, gamma: u64) -> f64 {
        self.verify_s + gamma as f64 * self.draft_s
    }
    /// The bound's `T_verify + γ · T_draft`.
    pub fn step_s_bound(&self, gamma: u64) -> f64 {
        self.verify_s_bound + gamma as f64 * self.draft_s_bound
    }
}

/// Tokens per second per user and per GPU at one batch, with and without speculation.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct SpecBatchPoint {
    pub batch: u64,
    pub per_user_tokens_per_s: f64,
    pub per_user_tokens_per_s_without: f64,
    pub per_gpu_tokens_per_s: f64,
    pub per_gpu_tokens_per_s_without: f64,
}

impl SpecBatchPoint {
    /// From a step's times: per user `E / T_step` against `1 / T_decode`; per GPU `b ×` those
    /// over the replica's `gpus`.
    pub fn of(batch: u64, t: &StepTimes, spec: &Speculation, gpus: f64) -> SpecBatchPoint {
        let rate = |n: f64, t: f64| if t > 0.0 && (n / t).is_finite() { n / t } else { 0.0 };
        let user = rate(spec.expected_tokens, t.step_s(spec.draft_tokens));
        let plain = rate(1.0, t.decode_s);
        let (b, g) = (batch as f64, gpus.max(1.0));
        SpecBatchPoint {
            batch,
            per_user_tokens_per_s: user,
            per_user_tokens_per_s_without: plain,
            per_gpu_tokens_per_s: user * b / g,
            per_gpu_tokens_per_s_without: plain * b / g,
        }
    }
}

/// The report's `speculative` section.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct SpeculativeReport {
    pub method: SpecMethod,
    /// Draft tokens per target step, γ.
    pub draft_tokens: u64,
    /// Mean tokens each target step emits, E.
    pub expected_tokens_per_step: f64,
    /// The i.i.d. acceptance rate used, when E came from one.
    pub acceptance_rate: Option<f64>,
    /// The cumulative acceptance per position used, when E came from them.
    pub acceptance_per_position: Vec<f64>,
    pub acceptance_from: AcceptanceFrom,
    /// The acceptance is a published default measured on one model and one dataset.
    pub acceptance_uncertain: bool,
    /// The default's source (null for the reader's own input).
    pub acceptance_source: Option<&'static str>,
    /// The scenario's batch: the verify pass, one draft pass, the plain decode step.
    pub times: StepTimes,
    /// `T_verify + γ · T_draft`, expected and bound.
    pub step_s: f64,
    pub step_s_bound: f64,
    /// `T_step / E`.
    pub time_per_output_token_s: f64,
    pub time_per_output_token_s_bound: f64,
    /// The plain decode step's time per output token (no speculation).
    pub time_per_output_token_s_without: f64,
    /// `T_decode / TPOT` (≤ E; below 1 where speculation costs more than it saves).
    pub speedup: f64,
    /// The drafter's parameters (a draft model's, an EAGLE-3 head's, the MTP modules'; 0 for
    /// n-gram) and its bytes per GPU (also in `memory_per_gpu_bytes.weights` and `kv_cache`).
    pub drafter_params: u64,
    pub drafter_weight_bytes_per_gpu: u64,
    pub drafter_kv_bytes_per_gpu: u64,
    /// Tokens/s per user and per GPU with and without speculation, batch 1 to 512.
    pub by_batch: Vec<SpecBatchPoint>,
    /// The smallest batch of `by_batch` at which speculation is slower per user than plain
    /// decoding (null: faster at every batch drawn).
    pub crossover_batch: Option<u64>,
}

impl SpeculativeReport {
    /// The report from the scenario's batch and the curve.
    pub fn new(
        spec: &Speculation,
        at: StepTimes,
        by_batch: Vec<SpecBatchPoint>,
        drafter: (u64, u64, u64),
    ) -> Self {
        let g = spec.draft_tokens;
        let e = spec.expected_tokens.max(1.0);
        let (step, bound) = (at.step_s(g), at.step_s_bound(g));
        let tpot = step / e;
        let crossover = by_batch
            .iter()
            .find(|p| p.per_user_tokens_per_s < p.per_user_tokens_per_s_without)
            .map(|p| p.batch);
        SpeculativeReport {
            method: spec.method,
            draft_tokens: g,
            expected_tokens_per_step: e,
            acceptance_rate: spec.acceptance_rate,
            acceptance_per_position: spec.per_position.clone(),
            acceptance_from: spec.from,
            acceptance_uncertain: spec.from.uncertain(),
            acceptance_source: spec.from.source(),
            times: at,
            step_s: step,
            step_s_bound: bound,
            time_per_output_token_s: tpot,
            time_per_output_token_s_bound: bound / e,
            time_per_output_token_s_without: at.decode_s,
            speedup: if tpot > 0.0 { at.decode_s / tpot } else { 0.0 },
            drafter_params: drafter.0,
            drafter_weight_bytes_per_gpu: drafter.1,
            drafter_kv_bytes_per_gpu: drafter.2,
            by_batch,
            crossover_batch: crossover,
        }
    }
}

/// The speculative section's derivations: E (from α, the per-position rates or a given length,
/// with the source) and the step with the time per output token.
pub fn derivations(
    r: &SpeculativeReport,
    batch: u64,
    dv: &mut std::collections::BTreeMap<DerivKey, Derivation>,
) {
    let source = match r.acceptance_source {
        Some(cited) => Source::cited(&format!("{cited}; {}", crate::engine::speculation::LEVIATHAN)),
        None => Source::ScenarioInput,
    };
    let (f, values) = match (r.acceptance_rate, r.acceptance_per_position.is_empty()) {
        (Some(a), _) => (
            Formula::SpecAcceptanceIid,
            vec![Val::Num(a), Val::int(r.draft_tokens), Val::Fixed(r.expected_tokens_per_step, 3)],
        ),
        (None, false) => (
            Formula::SpecAcceptancePerPosition,
            vec![
                Val::Id(
                    r.acceptance_per_position.iter().map(|a| format!("{a}")).collect::<Vec<_>>().join(" + "),
                ),
                Val::Fixed(r.expected_tokens_per_step, 3),
            ],
        ),
        (None, true) => (
            Formula::SpecAcceptanceLength,
            vec![Val::int(r.draft_tokens), Val::Fixed(r.expected_tokens_per_step, 3)],
        ),
    };
    dv.insert(DerivKey::SpeculativeExpectedTokens, Derivation::new(f, values, source));
    let t = &r.times;
    let values = vec![
        Val::int(batch),
        Val::int(r.draft_tokens + 1),
        Val::Secs(t.verify_s),
        Val::int(r.draft_tokens),
        Val::Secs(t.draft_s),
        Val::Secs(t.draft_gpu_s),
        Val::Secs(t.draft_host_s),
        Val::Secs(r.step_s),
        Val::Fixed(r.expected_tokens_per_step, 3),
        Val::Secs(r.time_per_output_token_s),
        Val::Secs(r.time_per_output_token_s_without),
        Val::Fixed(r.speedup, 2),
    ];
    let floor = if t.draft_eager {
        Some(crate::engine::stack::SGLANG_EAGER_KERNEL_HOST_SOURCE)
    } else if t.draft_host_s > 0.0 {
        Some(crate::engine::stack::VLLM_DRAFT_PASS_HOST_SOURCE)
    } else {
        None
    };
    let src = match floor {
        Some(f) => Source::cited(&format!("{}; {f}", crate::engine::speculation::LEVIATHAN)),
        None => Source::cited(crate::engine::speculation::LEVIATHAN),
    };
    dv.insert(DerivKey::SpeculativeTimePerOutputToken, Derivation::new(Formula::SpecStep, values, src));
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::perf::phases::decode_step_work;
    use crate::engine::perf::phases::tests::llama2_7b;

    #[test]
    fn one_verified_token_is_a_decode_step() {
        let m = llama2_7b();
        assert_eq!(
            verify_step_work(&m, 8.0, 1000.0, 1.0).unwrap(),
            decode_step_work(&m, 8.0, 1000.0).unwrap()
        );
    }

    #[test]
    fn verifying_four_tokens_reads_the_weights_once() {
        // Llama-2-7B, batch 1, 1000 cached, γ = 3: 4 tokens' FLOPs, the weights once, the cache
        // read once and 4 tokens written.
        let m = llama2_7b();
        let w = verify_step_work(&m, 1.0, 1000.0, 4.0).unwrap();
        assert_eq!(w.bytes, 13.21e9 + 1004.0 * 524_288.0);
        let attn = 4.0 * 32.0 * 4096.0 * (4.0 * 1000.0 + 10.0);
        assert!((w.flops - (2.0 * 6.74e9 * 4.0 + attn)).abs() < 1.0);
        assert_eq!(w.tokens, 4.0);
    }
}
