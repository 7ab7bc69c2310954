//! Errors that name the offending field, for the CLI's one-line message and the UI's form hints.

use std::fmt;

/// Invalid input: which field, and what was wrong with it (including the allowed range).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ScenarioError {
    /// Dotted path of the field, e.g. `context_tokens` or `model.num_attention_heads`.
    pub field: String,
    /// What is allowed and what was given.
    pub message: String,
}

impl ScenarioError {
    pub fn new(field: impl Into<String>, message: impl Into<String>) -> Self {
        ScenarioError { field: field.into(), message: message.into() }
    }
}

impl fmt::Display for ScenarioError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.field, self.message)
    }
}

impl std::error::Error for ScenarioError {}

/// Why [`crate::engine::evaluate`] could not produce a report.
#[derive(Clone, Debug, PartialEq, Eq)]
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn message_starts_with_the_field() {
        let e = ScenarioError::new("context_tokens", "must be between 1 and 10000000, got 0");
        assert_eq!(e.to_string(), "context_tokens: must be between 1 and 10000000, got 0");
        assert_eq!(EngineError::from(e).field(), "context_tokens");
    }
}
