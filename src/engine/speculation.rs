//! Speculative decoding as an input: the method, the draft tokens γ per target step, and how
//! many tokens each target step emits on average, E (the *acceptance length*).
//!
//! A drafter proposes γ tokens; the target model scores all γ + 1 positions in one forward pass
//! and keeps the longest accepted prefix plus one token of its own (Leviathan, Kalman and Matias,
//! "Fast Inference from Transformers via Speculative Decoding", ICML 2023, Algorithm 1). So each
//! target step emits between 1 and γ + 1 tokens. Three ways to say how many:
//!
//! - an acceptance rate α, i.i.d. per position: `E = (1 − α^(γ+1)) / (1 − α)` (Leviathan et al.
//!   2023, Eq. 1); worked: α = 0.8, γ = 3 → (1 − 0.4096) / 0.2 = 2.952;
//! - the acceptance per draft position, cumulative (`a_k`: the share of steps whose first k drafts
//!   were all accepted, as vLLM's `acceptance rate at token k` counts them): `E = 1 + Σ a_k`;
//! - E itself, as vLLM and SGLang print it (`mean acceptance length`).
//!
//! Without any of them a method's published default is used ([`method_default`]); each names its
//! source and whether it rests on one model and one dataset. This file is layer 4 (inputs): it
//! reads and checks the scenario's keys; the times are in `perf::speculative`, the memory in
//! `memory::speculative`.

use super::error::{ErrorKind, ScenarioError};
use super::workload::SpecMethod;
use serde::Serialize;

/// The scenario's speculative keys (`Scenario::spec_keys`), read here without the scenario so
/// that the scenario's own checks can call [`validate`].
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct SpecKeys<'a> {
    /// `speculative_method`, `None` outside inference.
    pub method: Option<SpecMethod>,
    pub draft_tokens: Option<u64>,
    pub acceptance_rate: Option<f64>,
    pub acceptance: Option<&'a [f64]>,
    pub acceptance_length: Option<f64>,
    /// Whether `speculative_draft_model` is set.
    pub draft_model: bool,
}

/// Most draft tokens per step the engine takes for any method (a range, like the other keys'):
/// past it every published acceptance has fallen below a few percent per position.
pub const MAX_DRAFT_TOKENS: u64 = 32;

/// Where the acceptance came from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum AcceptanceFrom {
    /// `speculative_acceptance_rate`, i.i.d.
    Rate,
    /// `speculative_acceptance`, per position.
    PerPosition,
    /// `speculative_acceptance_length`.
    Length,
    /// EAGLE-3's default: vLLM's measured acceptance lengths for Llama-3.1-8B-Instruct with
    /// `yuhuili/EAGLE3-LLaMA3.1-Instruct-8B` on MT-bench, K = 2..7 (vLLM issue #20780,
    /// 2025-07-10): 2.36, 2.79, 3.08, 3.32, 3.46, 3.54. One model, one dataset: uncertain
    /// elsewhere.
    PublishedEagle3,
    /// MTP's default: DeepSeek-V3 Technical Report (arXiv:2412.19437, §5.4.3): "the acceptance
    /// rate of the second token prediction ranges between 85% and 90%"; the lower end, i.i.d.
    /// for further modules (uncertain past the first).
    PublishedMtp,
    /// n-gram's default: vLLM pull request #24344 (2025-09), `--method ngram --num_spec_tokens 5
    /// --prompt_lookup_max 5 --prompt_lookup_min 2` on an editing dataset (vdaita/edit_5k_char):
    /// acceptance at tokens 0..4 of 0.81, 0.74, 0.70, 0.68, 0.66. Editing text repeats its prompt;
    /// chat text finds far fewer matches: uncertain.
    PublishedNgram,
}

impl AcceptanceFrom {
    /// Whether the number rests on one model and one dataset (the page says so).
    pub fn uncertain(self) -> bool {
        matches!(
            self,
            AcceptanceFrom::PublishedEagle3 | AcceptanceFrom::PublishedNgram | AcceptanceFrom::PublishedMtp
        )
    }

    /// The source of a published default, as cited (`None` for the reader's own input).
    pub fn source(self) -> Option<&'static str> {
        match self {
            AcceptanceFrom::Rate | AcceptanceFrom::PerPosition | AcceptanceFrom::Length => None,
            AcceptanceFrom::PublishedEagle3 => Some(EAGLE3_SOURCE),
            AcceptanceFrom::PublishedMtp => Some(MTP_SOURCE),
            AcceptanceFrom::PublishedNgram => Some(NGRAM_SOURCE),
        }
    }
}

/// The EAGLE-3 default's source.
pub const EAGLE3_SOURCE: &str = "vLLM issue #20780 (2025-07-10): EAGLE-3 (yuhuili/EAGLE3-LLaMA3.1-Instruct-8B) on Llama-3.1-8B-Instruct, MT-bench, acceptance length by K";
/// The MTP default's source.
pub const MTP_SOURCE: &str =
    "DeepSeek-V3 Technical Report (arXiv:2412.19437), §5.4.3: second-token acceptance 85-90%";
/// The n-gram default's source.
pub const NGRAM_SOURCE: &str =
    "vLLM pull request #24344 (2025-09): ngram, num_spec_tokens 5, prompt_lookup 2-5, edit_5k_char, acceptance per token";
/// Leviathan et al.'s formula, for the derivations.
pub const LEVIATHAN: &str =
    "Leviathan, Kalman, Matias, \"Fast Inference from Transformers via Speculative Decoding\", ICML 2023, Eq. 1";

/// EAGLE-3's measured acceptance lengths at K = 2..=7 ([`AcceptanceFrom::PublishedEagle3`]).
const EAGLE3_LENGTHS: [f64; 6] = [2.36, 2.79, 3.08, 3.32, 3.46, 3.54];
/// n-gram's measured cumulative acceptance at tokens 0..=4 ([`AcceptanceFrom::PublishedNgram`]).
const NGRAM_RATES: [f64; 5] = [0.81, 0.74, 0.70, 0.68, 0.66];
/// DeepSeek-V3's second-token acceptance, the lower end ([`AcceptanceFrom::PublishedMtp`]).
const MTP_RATE: f64 = 0.85;

/// The draft tokens a method uses when the scenario gives none: EAGLE-3 4 (the best TPOT in
/// vLLM issue #20780's table), MTP 1 (DeepSeek-V3's one module), n-gram 5 (vLLM's examples),
/// a draft model 5 (vLLM's documentation example, `num_speculative_tokens: 5`).
pub fn method_default(m: SpecMethod) -> u64 {
    match m {
        SpecMethod::Eagle3 => 4,
        SpecMethod::Mtp => 1,
        SpecMethod::Ngram | SpecMethod::DraftModel => 5,
    }
}

/// The speculation a scenario asks for, resolved: method, γ, E and where E came from.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Speculation {
    pub method: SpecMethod,
    /// Draft tokens per target step, γ.
    pub draft_tokens: u64,
    /// Mean tokens emitted per target step, E, in [1, γ + 1].
    pub expected_tokens: f64,
    /// The i.i.d. acceptance rate, when E came from one.
    pub acceptance_rate: Option<f64>,
    /// The cumulative acceptance per position, when E came from them.
    pub per_position: Vec<f64>,
    pub from: AcceptanceFrom,
}

/// `E = (1 − α^(γ+1)) / (1 − α)` for an i.i.d. acceptance α (Leviathan et al. 2023, Eq. 1);
/// `γ + 1` at α = 1, 1 at α ≤ 0. Worked: α 0.8, γ 3 → 2.952.
pub fn expected_tokens_iid(alpha: f64, gamma: u64) -> f64 {
    let g = f64::from(u32::try_from(gamma).unwrap_or(u32::MAX));
    if !alpha.is_finite() || alpha <= 0.0 {
        return 1.0;
    }
    if alpha >= 1.0 {
        return g + 1.0;
    }
    (1.0 - alpha.powf(g + 1.0)) / (1.0 - alpha)
}

/// `E = 1 + Σ a_k` for cumulative per-position acceptance `a_k` (each clamped to [0, 1]).
/// Worked: 0.81, 0.74, 0.70, 0.68, 0.66 → 4.59 (vLLM's printed mean acceptance length).
pub fn expected_tokens_cumulative(rates: &[f64]) -> f64 {
    1.0 + rates.iter().map(|a| if a.is_finite() { a.clamp(0.0, 1.0) } else { 0.0 }).sum::<f64>()
}

/// The scenario's speculation, or `None` without a method (or outside inference). Total: a
/// scenario that failed [`validate`] still resolves to something in range.
pub fn resolve(s: &SpecKeys) -> Option<Speculation> {
    let method = s.method?;
    let gamma = draft_tokens(s, method);
    let mut out = Speculation {
        method,
        draft_tokens: gamma,
        expected_tokens: 1.0,
        acceptance_rate: None,
        per_position: Vec::new(),
        from: AcceptanceFrom::Rate,
    };
    let cap = gamma as f64 + 1.0;
    if let Some(e) = s.acceptance_length {
        out.expected_tokens = e;
        out.from = AcceptanceFrom::Length;
    } else if let Some(a) = s.acceptance_rate {
        out.expected_tokens = expected_tokens_iid(a, gamma);
        out.acceptance_rate = Some(a);
    } else if let Some(rates) = s.acceptance {
        out.per_position = rates.iter().copied().take(usize::try_from(gamma).unwrap_or(usize::MAX)).collect();
        out.expected_tokens = expected_tokens_cumulative(&out.per_position);
        out.from = AcceptanceFrom::PerPosition;
    } else if let Some((e, rate, rates, from)) = published(method, gamma) {
        (out.expected_tokens, out.acceptance_rate, out.per_position, out.from) = (e, rate, rates, from);
    }
    let e = if out.expected_tokens.is_finite() { out.expected_tokens.clamp(1.0, cap) } else { 1.0 };
    out.expected_tokens = e;
    Some(out)
}

/// γ: the scenario's, else the per-position list's length, else the method's default.
fn draft_tokens(s: &SpecKeys, m: SpecMethod) -> u64 {
    let listed = s.acceptance.map(|v| v.len() as u64).filter(|n| *n > 0);
    s.draft_tokens.or(listed).unwrap_or_else(|| method_default(m)).clamp(1, MAX_DRAFT_TOKENS)
}

/// A method's published acceptance at γ draft tokens: `(E, α, per-position, source)`, or `None`
/// where nothing was published for that γ (a draft model; EAGLE-3 outside K 2..7; n-gram past 5).
fn published(m: SpecMethod, gamma: u64) -> Option<(f64, Option<f64>, Vec<f64>, AcceptanceFrom)> {
    let g = usize::try_from(gamma).ok()?;
    match m {
        SpecMethod::Eagle3 => {
            let e = *EAGLE3_LENGTHS.get(g.checked_sub(2)?)?;
            Some((e, None, Vec::new(), AcceptanceFrom::PublishedEagle3))
        }
        SpecMethod::Mtp => Some((
            expected_tokens_iid(MTP_RATE, gamma),
            Some(MTP_RATE),
            Vec::new(),
            AcceptanceFrom::PublishedMtp,
        )),
        SpecMethod::Ngram => {
            let rates = NGRAM_RATES.get(..g)?.to_vec();
            Some((expected_tokens_cumulative(&rates), None, rates, AcceptanceFrom::PublishedNgram))
        }
        SpecMethod::DraftModel => None,
    }
}

/// Checks the speculative keys that need no model: a method when any of them is set, γ within
/// 1..=[`MAX_DRAFT_TOKENS`], an acceptance rate in (0, 1), per-position rates in (0, 1), one per
/// draft token and non-increasing, an acceptance length in [1, γ + 1], a draft model for
/// `draft_model`, and an acceptance where no published default exists.
pub fn validate(s: &SpecKeys) -> Result<(), ScenarioError> {
    let any = s.draft_tokens.is_some()
        || s.acceptance_rate.is_some()
        || s.acceptance.is_some()
        || s.acceptance_length.is_some()
        || s.draft_model;
    let Some(method) = s.method else {
        return if any { Err(ScenarioError::new("speculative_method", ErrorKind::Missing)) } else { Ok(()) };
    };
    if let Some(g) = s.draft_tokens {
        range("speculative_draft_tokens", g, 1, MAX_DRAFT_TOKENS)?;
    }
    let gamma = draft_tokens(s, method);
    if let Some(a) = s.acceptance_rate {
        open_fraction("speculative_acceptance_rate", a)?;
    }
    if let Some(rates) = s.acceptance {
        per_position(rates, s.draft_tokens.unwrap_or(rates.len() as u64))?;
    }
    if let Some(e) = s.acceptance_length {
        let max = gamma as f64 + 1.0;
        if !(e.is_finite() && (1.0..=max).contains(&e)) {
            return Err(ScenarioError::new(
                "speculative_acceptance_length",
                ErrorKind::OutOfRange { min: 1.0, max, got: e },
            ));
        }
    }
    if method == SpecMethod::DraftModel && !s.draft_model {
        return Err(ScenarioError::new("speculative_draft_model", ErrorKind::Missing));
    }
    let given = s.acceptance_rate.is_some() || s.acceptance.is_some() || s.acceptance_length.is_some();
    if !given && published(method, gamma).is_none() {
        return Err(ScenarioError::new(
            "speculative_acceptance_rate",
            ErrorKind::NoPublishedAcceptance { method, draft_tokens: gamma },
        ));
    }
    Ok(())
}

/// Per-position rates: one per draft token, each in (0, 1), never rising.
fn per_position(rates: &[f64], gamma: u64) -> Result<(), ScenarioError> {
    let field = "speculative_acceptance";
    if rates.len() as u64 != gamma {
        return Err(ScenarioError::new(
            field,
            ErrorKind::AcceptancePerDraftToken { draft_tokens: gamma, got: rates.len() as u64 },
        ));
    }
    for (i, a) in rates.iter().enumerate() {
        open_fraction(field, *a)?;
        if i > 0 && rates.get(i - 1).is_some_and(|prev| a > prev) {
            return Err(ScenarioError::new(field, ErrorKind::AcceptanceRises { position: i as u64 }));
        }
    }
    Ok(())
}

/// `v` within `[min, max]`.
fn range(field: &str, v: u64, min: u64, max: u64) -> Result<(), ScenarioError> {
    if (min..=max).contains(&v) {
        Ok(())
    } else {
        Err(ScenarioError::new(
            field,
            ErrorKind::OutOfRange { min: min as f64, max: max as f64, got: v as f64 },
        ))
    }
}

/// `v` finite and strictly between 0 and 1.
fn open_fraction(field: &str, v: f64) -> Result<(), ScenarioError> {
    if v.is_finite() && v > 0.0 && v < 1.0 {
        Ok(())
    } else {
        Err(ScenarioError::new(field, ErrorKind::OpenFraction { got: v }))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn spec(edit: impl FnOnce(&mut SpecKeys<'static>)) -> SpecKeys<'static> {
        let mut s = SpecKeys { method: Some(SpecMethod::Eagle3), ..SpecKeys::default() };
        edit(&mut s);
        s
    }

    #[test]
    fn expected_tokens_worked() {
        // Leviathan et al.'s Eq. 1: α 0.8, γ 3 → (1 − 0.8⁴) / 0.2 = 0.5904 / 0.2 = 2.952.
        assert!((expected_tokens_iid(0.8, 3) - 2.952).abs() < 1e-12);
        // DeepSeek-V3's MTP, one module at 85%: 1.85 tokens per step.
        assert!((expected_tokens_iid(0.85, 1) - 1.85).abs() < 1e-12);
        assert_eq!(expected_tokens_iid(1.0, 3), 4.0);
        assert_eq!(expected_tokens_iid(0.0, 3), 1.0);
        // vLLM PR #24344's n-gram run printed a mean acceptance length of 4.59.
        assert!((expected_tokens_cumulative(&NGRAM_RATES) - 4.59).abs() < 1e-9);
    }

    #[test]
    fn defaults_per_method_name_their_source() {
        let r = resolve(&spec(|_| ())).unwrap();
        assert_eq!((r.draft_tokens, r.expected_tokens, r.from), (4, 3.08, AcceptanceFrom::PublishedEagle3));
        let r = resolve(&spec(|s| s.method = Some(SpecMethod::Mtp))).unwrap();
        assert_eq!((r.draft_tokens, r.acceptance_rate), (1, Some(0.85)));
        let r = resolve(&spec(|s| {
            s.method = Some(SpecMethod::Ngram);
            s.draft_tokens = Some(3);
        }))
        .unwrap();
        assert!((r.expected_tokens - 3.25).abs() < 1e-12, "{}", r.expected_tokens);
        for m in SpecMethod::ALL {
            let from = published(m, method_default(m)).map(|p| p.3);
            assert_eq!(from.and_then(AcceptanceFrom::source).is_some(), m != SpecMethod::DraftModel);
        }
        assert!(resolve(&SpecKeys::default()).is_none());
    }

    #[test]
    fn bad_speculative_input_is_named() {
        let err = |edit: fn(&mut SpecKeys<'static>)| validate(&spec(edit)).unwrap_err();
        let e = err(|s| s.acceptance_rate = Some(1.0));
        assert_eq!(
            (e.field.as_str(), e.kind),
            ("speculative_acceptance_rate", ErrorKind::OpenFraction { got: 1.0 })
        );
        assert_eq!(err(|s| s.acceptance_rate = Some(0.0)).field, "speculative_acceptance_rate");
        assert_eq!(err(|s| s.acceptance_rate = Some(f64::NAN)).field, "speculative_acceptance_rate");
        assert_eq!(err(|s| s.draft_tokens = Some(0)).field, "speculative_draft_tokens");
        assert_eq!(err(|s| s.draft_tokens = Some(33)).field, "speculative_draft_tokens");
        let e = err(|s| s.acceptance = Some(&[0.5, 0.6]));
        assert_eq!(e.kind, ErrorKind::AcceptanceRises { position: 1 });
        let e = err(|s| {
            s.draft_tokens = Some(3);
            s.acceptance = Some(&[0.5, 0.4]);
        });
        assert_eq!(e.kind, ErrorKind::AcceptancePerDraftToken { draft_tokens: 3, got: 2 });
        assert_eq!(err(|s| s.acceptance_length = Some(5.5)).field, "speculative_acceptance_length");
        assert_eq!(err(|s| s.method = Some(SpecMethod::DraftModel)).field, "speculative_draft_model");
        let e = err(|s| s.draft_tokens = Some(9));
        assert_eq!(e.kind, ErrorKind::NoPublishedAcceptance { method: SpecMethod::Eagle3, draft_tokens: 9 });
        let e = validate(&spec(|s| {
            s.method = None;
            s.acceptance_rate = Some(0.7);
        }))
        .unwrap_err();
        assert_eq!(e.field, "speculative_method");
        // Given an acceptance, any γ in range is fine.
        assert!(validate(&spec(|s| {
            s.draft_tokens = Some(9);
            s.acceptance_rate = Some(0.7);
        }))
        .is_ok());
    }
}
