//! Errors that name the offending field, for the CLI's one-line message and the UI's form hints.
//!
//! As in ripgrep's globset, the error holds the field and a [`ErrorKind`] whose variants carry
//! their data (bounds, the value given, the known ids). `Display` gives the English one-liner
//! the CLI prints (`context_tokens: must be between 1 and 10000000, got 0`); `i18n::errors`
//! words every kind in Chinese and English for the web pages.

use super::precision::Dtype;
use super::workload::SpecMethod;
use std::fmt;

/// Invalid input: which field, and what was wrong with it.
#[derive(Clone, Debug, PartialEq)]
pub struct ScenarioError {
    /// Dotted path of the field, e.g. `context_tokens` or `model.num_attention_heads`.
    pub field: String,
    /// What is wrong, with the data to say it.
    pub kind: ErrorKind,
}

/// What a JSON value should have been.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Expected {
    /// A non-negative whole number.
    WholeNumber,
    /// Any number.
    Number,
    /// A string.
    Text,
    /// `true` or `false`.
    TrueFalse,
    /// One of the listed values.
    OneOf(Vec<String>),
    /// A JSON object.
    Object,
    /// A JSON list.
    List,
    /// A GPU catalog id or an inline GPU object.
    GpuIdOrObject,
    /// A model catalog id or a config.json object.
    ModelIdOrConfig,
}

/// Which catalog an unknown id was looked up in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Catalogue {
    Model,
    Gpu,
}

/// What is wrong with a field (the data to word it; `Display` gives the English).
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub enum ErrorKind {
    /// A number outside `[min, max]`.
    OutOfRange { min: f64, max: f64, got: f64 },
    /// A whole number outside `[min, max]` in a model config.
    IntegerOutOfRange { min: u64, max: u64, got: String },
    /// Must be finite and > 0.
    NotPositive { got: f64 },
    /// Must be finite and >= 0.
    Negative { got: f64 },
    /// A rate outside `(0, max]` per second.
    RateOutOfRange { max: f64, got: f64 },
    /// The result does not fit in a number.
    TooLarge,
    /// An empty string.
    Empty,
    /// The scenario is not a JSON object.
    NotAnObject,
    /// A required field is absent.
    Missing,
    /// The scenario names no model.
    ModelRequired,
    /// A model config field the engine needs is absent.
    MissingFromConfig,
    /// A JSON value of the wrong type; `got` is the value as JSON text.
    WrongType { expected: Expected, got: String },
    /// A key that is not a field here.
    UnknownKey { key: String, known: Vec<String> },
    /// Text that is not JSON.
    InvalidJson { line: usize, column: usize },
    /// An id not in the catalog.
    /// `known`: the catalog ids nearest to `id` (a few, not every one).
    UnknownId { catalogue: Catalogue, id: String, known: Vec<String> },
    /// A model family the engine does not know, whose config also lacks keys a generic count
    /// needs (`missing`, all of them).
    UnknownFamily { family: String, supported: String, missing: Vec<String> },
    /// `model_type` is absent.
    MissingFamily { supported: String },
    /// Tensor parallelism must split the attention heads.
    TensorParallelSplit { heads: u64, kv_heads: u64, got: u64 },
    /// Pipeline parallelism must not exceed the layers.
    MoreStagesThanLayers { layers: u64, got: u64 },
    /// prompt + output must fit in the context.
    PromptPlusOutput { context: u64, prompt: u64, output: u64 },
    /// gpus must be a multiple of tp × pp.
    NotMultipleOfGroup { group: u64, got: u64 },
    /// tp × pp × dp must equal gpus.
    LayoutMismatch { gpus: u64, group: u64, dp: u64 },
    /// expert_parallel must be at most gpus.
    MoreThanGpus { gpus: u64, got: u64 },
    /// expert_parallel must divide a pipeline stage's GPUs (tp × dp) and divide or be a
    /// multiple of tensor_parallel.
    ExpertParallelSplit { stage_gpus: u64, tp: u64, got: u64 },
    /// expert_parallel must be at most the routed experts (with the redundant ones); 1 for a
    /// dense model.
    MoreThanExperts { experts: u64, got: u64 },
    /// expert_parallel must divide the routed experts plus the redundant ones (SGLang, training).
    ExpertsNotDivisible { experts: u64, allowed: Vec<u64>, got: u64 },
    /// A LoRA target that is not a module name.
    NotALoraTarget { allowed: Vec<String>, got: String },
    /// Full training needs float weights.
    TrainingNeedsFloat { got: Dtype },
    /// QLoRA needs a quantised base.
    QloraNeedsQuantised { got: Dtype },
    /// The GPU has no usable peak for any path.
    NoUsablePeak,
    /// A custom GPU gives no peak at all.
    NoPeakGiven,
    /// `a` must divide `b` (model config: kv heads divide heads; heads divide hidden size).
    MustDivide { what: &'static str, value: u64, got: u64 },
    /// A list must have one entry per layer.
    OnePerLayer { layers: usize, got: usize },
    /// A GGUF tensor run (`model.gguf.tensors[index]`) that is not `[role, first layer, last
    /// layer, row, elements, type]`.
    BadTensorRun { index: usize },
    /// A KV cache format llama.cpp's cache does not take (`-ctk`/`-ctv`).
    KvCacheFormat { got: Dtype },
    /// A block-quantised V cache without flash attention (llama.cpp refuses it).
    QuantizedCacheNeedsFlashAttention { got: Dtype },
    /// Layers kept in host memory need the model on one GPU (no tensor or pipeline parallelism).
    OffloadNeedsOneGpu { tp: u64, pp: u64 },
    /// Must be a multiple of `of` (`value`).
    NotMultipleOf { of: &'static str, value: u64, got: u64 },
    /// tp × pp × cp × dp must equal gpus (with context parallelism).
    ContextLayoutMismatch { gpus: u64, group: u64, dp: u64 },
    /// Only a training run (training, lora, qlora) takes this setting.
    NeedsTraining,
    /// Virtual pipeline stages need at least two pipeline stages.
    NeedsPipeline { pp: u64 },
    /// Expert-parallel overlap with full recomputation (Megatron refuses the pair).
    EpOverlapWithFullRecompute,
    /// Expert-parallel overlap across pipeline stages needs an interleaved schedule.
    EpOverlapNeedsVirtualStages { pp: u64 },
    /// A low-precision recipe needs a Tensor Core path the GPU lacks (`needs`: `fp8` or `fp4`).
    RecipeNeedsPath { recipe: &'static str, needs: &'static str },
    /// An attention kernel family that does not run on this GPU's architecture.
    KernelNeedsArchitecture { kernel: &'static str, needs: &'static str, architecture: String },
    /// A probability strictly between 0 and 1 (an acceptance rate).
    OpenFraction { got: f64 },
    /// Per-position acceptance rates must be one per draft token.
    AcceptancePerDraftToken { draft_tokens: u64, got: u64 },
    /// Cumulative per-position acceptance cannot rise: position `position` (from 0) is higher
    /// than the one before.
    AcceptanceRises { position: u64 },
    /// No published acceptance for this method at this many draft tokens: the reader gives one.
    NoPublishedAcceptance { method: SpecMethod, draft_tokens: u64 },
    /// Multi-token prediction drafts at most one token per module the checkpoint ships
    /// (`modules`, 0 when it ships none).
    MoreThanMtpModules { modules: u64, got: u64 },
    /// A draft model must be smaller than the target (parameters).
    DraftLargerThanTarget { draft: u64, target: u64 },
    /// Only serving (mode inference) takes this setting.
    NeedsInference,
    /// A disaggregated deployment's decode GPUs cannot hold one sequence of `tokens` tokens (its
    /// prompt and output) beside the weights.
    DecodePoolHoldsNoSequence { tokens: u64 },
    /// A prefill worker's GPUs cannot hold one prompt of `tokens` tokens beside the weights.
    PrefillWorkerHoldsNoPrompt { tokens: u64 },
    /// The KV transfer link is NVLink on a GPU that has none.
    NoNvlink,
    /// A value the engine cannot use, described by serde (only for shapes not classified above).
    Invalid { detail: String },
}

impl ScenarioError {
    pub fn new(field: impl Into<String>, kind: ErrorKind) -> Self {
        ScenarioError { field: field.into(), kind }
    }

    /// The English message after the field (what the CLI prints after `field: `).
    pub fn message(&self) -> String {
        self.kind.to_string()
    }
}

impl fmt::Display for ErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use ErrorKind as K;
        match self {
            K::OutOfRange { min, max, got } => write!(f, "must be between {min} and {max}, got {got}"),
            K::IntegerOutOfRange { min, max, got } => {
                write!(f, "must be an integer between {min} and {max}, got {got}")
            }
            K::NotPositive { got } => write!(f, "must be > 0, got {got}"),
            K::Negative { got } => write!(f, "must be >= 0, got {got}"),
            K::RateOutOfRange { max, got } => {
                write!(f, "must be a finite number in (0, {max:e}] per second, got {got}")
            }
            K::TooLarge => write!(f, "is too large to represent"),
            K::Empty => write!(f, "must not be empty"),
            K::NotAnObject => write!(f, "must be a JSON object"),
            K::Missing => write!(f, "is required"),
            K::ModelRequired => write!(f, "is required (a catalog id or a config.json object)"),
            K::MissingFromConfig => write!(f, "is missing from the model config"),
            K::WrongType { expected, got } if got.is_empty() => write!(f, "expected {expected}"),
            K::WrongType { expected, got } => write!(f, "expected {expected}, got {got}"),
            K::UnknownKey { key, known } => {
                write!(f, "unknown field '{key}' (known: {})", known.join(", "))
            }
            K::InvalidJson { line, column } => write!(f, "is not valid JSON (line {line}, column {column})"),
            K::UnknownId { catalogue: Catalogue::Model, id, known } if known.is_empty() => {
                write!(f, "no catalog model named '{id}'")
            }
            K::UnknownId { catalogue: Catalogue::Model, id, known } => {
                write!(f, "unknown catalog id '{id}' (closest: {})", known.join(", "))
            }
            K::UnknownId { catalogue: Catalogue::Gpu, id, known } => {
                write!(f, "unknown GPU '{id}' (closest: {}, or an inline object)", known.join(", "))
            }
            K::UnknownFamily { family, supported, missing } => write!(
                f,
                "unknown family '{family}' (supported: {supported}); to count it as a generic decoder the config needs {}",
                missing.join(", ")
            ),
            K::MissingFamily { supported } => write!(f, "is missing (supported: {supported})"),
            K::TensorParallelSplit { heads, kv_heads, got } => write!(
                f,
                "must divide num_attention_heads ({heads}) and divide or be a multiple of num_key_value_heads ({kv_heads}), got {got}"
            ),
            K::MoreStagesThanLayers { layers, got } => {
                write!(f, "must be between 1 and the number of layers ({layers}), got {got}")
            }
            K::PromptPlusOutput { context, prompt, output } => write!(
                f,
                "prompt_tokens + output_tokens must be at most context_tokens ({context}), got {prompt} + {output}"
            ),
            K::NotMultipleOfGroup { group, got } => write!(
                f,
                "must be a multiple of tensor_parallel × pipeline_parallel ({group}), got {got}"
            ),
            K::LayoutMismatch { gpus, group, dp } => write!(
                f,
                "tensor_parallel × pipeline_parallel × data_parallel must equal gpus ({gpus}), got {group} × {dp}"
            ),
            K::MoreThanGpus { gpus, got } => write!(f, "must be at most gpus ({gpus}), got {got}"),
            K::ExpertParallelSplit { stage_gpus, tp, got } => write!(
                f,
                "must divide the GPUs of a pipeline stage, tensor_parallel × data_parallel ({stage_gpus}), and divide or be a multiple of tensor_parallel ({tp}), got {got}"
            ),
            K::MoreThanExperts { experts, got } => write!(
                f,
                "must be between 1 and the routed experts plus redundant_experts ({experts}; a dense model has none to spread: 1), got {got}"
            ),
            K::ExpertsNotDivisible { experts, allowed, got } => write!(
                f,
                "must divide the routed experts plus redundant_experts ({experts}) with SGLang and in training (only vLLM spreads a remainder): one of {}, got {got}",
                join_u64(allowed, ", ")
            ),
            K::NotALoraTarget { allowed, got } => {
                write!(f, "must be among {} or all-linear, got '{got}'", allowed.join(", "))
            }
            K::TrainingNeedsFloat { got } => {
                write!(f, "full training needs fp32, bf16 or fp16 weights, got {}", got.name())
            }
            K::QloraNeedsQuantised { got } => {
                write!(f, "qlora needs a quantised base (nf4, int4 or int8), got {}", got.name())
            }
            K::NoUsablePeak => write!(f, "has no usable peak"),
            K::NoPeakGiven => write!(f, "give at least one dense peak (e.g. bf16 or fp32) in FLOP/s"),
            K::MustDivide { what, value, got } => write!(f, "must divide {what} ({value}), got {got}"),
            K::OnePerLayer { layers, got } => write!(f, "must list one entry per layer ({layers}), got {got}"),
            K::BadTensorRun { index } => write!(
                f,
                "entry {index} is not [role, first layer, last layer, row length, elements, ggml type]"
            ),
            K::KvCacheFormat { got } => write!(
                f,
                "llama.cpp's KV cache takes f32, f16, bf16, q8_0, q4_0, q4_1, iq4_nl, q5_0 or q5_1, got {}",
                got.name()
            ),
            K::QuantizedCacheNeedsFlashAttention { got } => write!(
                f,
                "a {} V cache needs flash attention (llama.cpp: \"V cache quantization requires flash_attn\"); turn flash_attention on",
                got.name()
            ),
            K::OffloadNeedsOneGpu { tp, pp } => write!(
                f,
                "layers in host memory need the model on one GPU (tensor_parallel 1, pipeline_parallel 1), got {tp} × {pp}"
            ),
            K::NotMultipleOf { of, value, got } => write!(f, "must be a multiple of {of} ({value}), got {got}"),
            K::ContextLayoutMismatch { gpus, group, dp } => write!(
                f,
                "tensor_parallel × pipeline_parallel × context_parallel × data_parallel must equal gpus ({gpus}), got {group} × {dp}"
            ),
            K::NeedsTraining => write!(f, "applies to training only (mode training, lora or qlora)"),
            K::NeedsPipeline { pp } => {
                write!(f, "an interleaved schedule needs pipeline_parallel of at least 2, got {pp}")
            }
            K::EpOverlapWithFullRecompute => write!(
                f,
                "cannot overlap under full recomputation (Megatron refuses it)"
            ),
            K::EpOverlapNeedsVirtualStages { pp } => write!(
                f,
                "with pipeline_parallel {pp} it needs virtual_pipeline_stages of at least 2"
            ),
            K::RecipeNeedsPath { recipe, needs: "fp4" } => write!(
                f,
                "{recipe} needs a GPU with Blackwell's block-scaled Tensor Cores (the catalog's fp4 path)"
            ),
            K::RecipeNeedsPath { recipe, needs } => {
                write!(f, "{recipe} needs a GPU with an {needs} Tensor Core path (Ada, Hopper, Blackwell)")
            }
            K::KernelNeedsArchitecture { kernel, needs, architecture } => {
                write!(f, "{kernel} runs on {needs} GPUs, not on {architecture}")
            }
            K::OpenFraction { got } => write!(f, "must be between 0 and 1, both excluded, got {got}"),
            K::AcceptancePerDraftToken { draft_tokens, got } => {
                write!(f, "needs one rate per draft token ({draft_tokens}), got {got}")
            }
            K::AcceptanceRises { position } => write!(
                f,
                "must not rise from one position to the next (cumulative acceptance), but position {position} is higher than position {}",
                position.saturating_sub(1)
            ),
            K::NoPublishedAcceptance { method, draft_tokens } => write!(
                f,
                "is required: no published acceptance for {} at {draft_tokens} draft tokens (give a rate in (0, 1), per-position rates or an acceptance length)",
                method.key()
            ),
            K::MoreThanMtpModules { modules: 0, .. } => {
                write!(f, "the model ships no multi-token-prediction module (mtp needs one)")
            }
            K::MoreThanMtpModules { modules, got } => write!(
                f,
                "must be at most {modules}, the multi-token-prediction modules the checkpoint ships, got {got}: this estimator models at most one draft token per module; engines can chain a module for more steps (SGLang --speculative-num-steps), with lower acceptance at later positions"
            ),
            K::DraftLargerThanTarget { draft, target } => write!(
                f,
                "a draft model must be smaller than the target: {draft} parameters against {target}"
            ),
            K::NeedsInference => write!(f, "applies to serving only (mode inference)"),
            K::DecodePoolHoldsNoSequence { tokens } => write!(
                f,
                "the decode workers cannot hold one sequence of {tokens} tokens (prompt and output) beside the weights: give them more GPUs (tensor_parallel) or fewer tokens"
            ),
            K::PrefillWorkerHoldsNoPrompt { tokens } => write!(
                f,
                "a prefill worker cannot hold one prompt of {tokens} tokens beside the weights: give it more GPUs (prefill_tensor_parallel)"
            ),
            K::NoNvlink => write!(f, "this GPU has no NVLink: choose pcie or a network (infiniband, roce, efa)"),
            K::Invalid { detail } => write!(f, "{detail}"),
        }
    }
}

impl fmt::Display for Expected {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Expected::WholeNumber => write!(f, "a whole number"),
            Expected::Number => write!(f, "a number"),
            Expected::Text => write!(f, "text"),
            Expected::TrueFalse => write!(f, "true or false"),
            Expected::OneOf(v) => write!(f, "one of {}", v.join(", ")),
            Expected::Object => write!(f, "an object"),
            Expected::List => write!(f, "a list"),
            Expected::GpuIdOrObject => write!(
                f,
                "a GPU catalog id or an object with memory_bytes, memory_bandwidth_bytes_per_s and peak_flops"
            ),
            Expected::ModelIdOrConfig => write!(f, "a catalog id string or a config.json object"),
        }
    }
}

impl fmt::Display for ScenarioError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.field, self.kind)
    }
}

impl std::error::Error for ScenarioError {}

/// Classifies a serde_json error about `field` into a kind (never passes serde's wording on,
/// except as `Invalid` for shapes it does not recognise).
pub fn classify_serde(e: &serde_json::Error) -> ErrorKind {
    use serde_json::error::Category;
    if matches!(e.classify(), Category::Syntax | Category::Eof) {
        return ErrorKind::InvalidJson { line: e.line(), column: e.column() };
    }
    let text = e.to_string();
    let msg = text.split(" at line ").next().unwrap_or(&text);
    let backticked =
        |s: &str| -> Vec<String> { s.split('`').skip(1).step_by(2).map(str::to_owned).collect() };
    if let Some(rest) = msg.strip_prefix("unknown variant ") {
        let mut names = backticked(rest);
        let got = if names.is_empty() { String::new() } else { names.remove(0) };
        return ErrorKind::WrongType { expected: Expected::OneOf(names), got: format!("\"{got}\"") };
    }
    if let Some(rest) = msg.strip_prefix("unknown field ") {
        let mut names = backticked(rest);
        let key = if names.is_empty() { String::new() } else { names.remove(0) };
        return ErrorKind::UnknownKey { key, known: names };
    }
    if msg.starts_with("missing field ") {
        return ErrorKind::Missing;
    }
    let typed = msg.strip_prefix("invalid type: ").or_else(|| msg.strip_prefix("invalid value: "));
    if let Some(rest) = typed {
        let (got, expected) = rest.split_once(", expected ").unwrap_or((rest, ""));
        let got = got
            .strip_prefix("string ")
            .map(str::to_owned)
            .or_else(|| {
                ["integer ", "floating point ", "boolean "]
                    .iter()
                    .find_map(|p| got.strip_prefix(p).map(|v| v.trim_matches('`').to_owned()))
            })
            .unwrap_or_else(|| got.to_owned());
        let expected = match expected {
            e if e.starts_with('u') || e.starts_with('i') => Expected::WholeNumber,
            e if e.starts_with('f') => Expected::Number,
            "a string" => Expected::Text,
            "a boolean" => Expected::TrueFalse,
            e if e.starts_with("a sequence") => Expected::List,
            e if e.contains("map") || e.starts_with("struct") => Expected::Object,
            _ => return ErrorKind::Invalid { detail: msg.to_owned() },
        };
        return ErrorKind::WrongType { expected, got };
    }
    if msg.starts_with("data did not match any variant") {
        return ErrorKind::WrongType { expected: Expected::ModelIdOrConfig, got: String::new() };
    }
    if msg == Expected::GpuIdOrObject.to_string() {
        return ErrorKind::WrongType { expected: Expected::GpuIdOrObject, got: String::new() };
    }
    ErrorKind::Invalid { detail: msg.to_owned() }
}

/// Why [`crate::engine::evaluate_with`] could not produce a report.
#[derive(Clone, Debug, PartialEq)]
pub enum EngineError {
    /// The scenario or the model config is invalid; the error names the field.
    Invalid(ScenarioError),
}

impl EngineError {
    /// The field the error is about.
    pub fn field(&self) -> &str {
        match self {
            EngineError::Invalid(e) => &e.field,
        }
    }

    /// The scenario error inside.
    pub fn scenario_error(&self) -> &ScenarioError {
        match self {
            EngineError::Invalid(e) => e,
        }
    }
}

impl From<ScenarioError> for EngineError {
    fn from(e: ScenarioError) -> Self {
        EngineError::Invalid(e)
    }
}

impl fmt::Display for EngineError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            EngineError::Invalid(e) => e.fmt(f),
        }
    }
}

impl std::error::Error for EngineError {}

/// Numbers joined by `sep` (`1, 2, 4`).
pub fn join_u64(values: &[u64], sep: &str) -> String {
    values.iter().map(u64::to_string).collect::<Vec<_>>().join(sep)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn message_starts_with_the_field() {
        let e = ScenarioError::new("context_tokens", ErrorKind::OutOfRange { min: 1.0, max: 1e7, got: 0.0 });
        assert_eq!(e.to_string(), "context_tokens: must be between 1 and 10000000, got 0");
        assert_eq!(EngineError::from(e).field(), "context_tokens");
    }

    macro_rules! serde_kind {
        ($json:expr, $ty:ty, $kind:pat) => {{
            let err = serde_json::from_str::<$ty>($json).expect_err("must fail");
            let kind = classify_serde(&err);
            assert!(matches!(kind, $kind), "{} -> {kind:?}", $json);
        }};
    }

    #[test]
    fn serde_errors_are_classified() {
        serde_kind!(r#""four""#, u64, ErrorKind::WrongType { expected: Expected::WholeNumber, .. });
        serde_kind!("-1", u64, ErrorKind::WrongType { expected: Expected::WholeNumber, .. });
        serde_kind!(r#""x""#, f64, ErrorKind::WrongType { expected: Expected::Number, .. });
        serde_kind!("1", bool, ErrorKind::WrongType { expected: Expected::TrueFalse, .. });
        serde_kind!("1", String, ErrorKind::WrongType { expected: Expected::Text, .. });
        serde_kind!(r#""fp12""#, Dtype, ErrorKind::WrongType { expected: Expected::OneOf(_), .. });
        serde_kind!("[1,", Vec<u64>, ErrorKind::InvalidJson { line: 1, .. });
        let e = serde_json::from_str::<Dtype>(r#""fp12""#).expect_err("fails");
        match classify_serde(&e) {
            ErrorKind::WrongType { expected: Expected::OneOf(v), got } => {
                assert!(v.contains(&"bf16".to_owned()), "{v:?}");
                assert_eq!(got, "\"fp12\"");
            }
            k => panic!("{k:?}"),
        }
    }
}
