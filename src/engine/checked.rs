//! The numbers a formula accepts: finite and positive (a rate, a count, a size that divides),
//! finite and non-negative, within a range, or a finite result; anything else is a
//! [`PerfError`] that names the field, and a scenario error (`efficiency.tensor_flops`) where a
//! scenario's field gave it ([`perf_error`]). The time formulas ([`crate::engine::perf`]), the
//! efficiency factors and the tools' arithmetic check their inputs with these.

use super::error::{ErrorKind, ScenarioError};

/// An input the model cannot use, named by field.
#[derive(Clone, Debug, PartialEq)]
pub enum PerfError {
    /// The field must be finite and > 0 (a rate, a count, a size that divides).
    NotPositive { field: &'static str, value: f64 },
    /// The field must be finite and >= 0.
    Negative { field: &'static str, value: f64 },
    /// The field must lie in `[min, max]`.
    OutOfRange { field: &'static str, value: f64, min: f64, max: f64 },
    /// The inputs are valid but the result does not fit in an f64 (e.g. 1e300 FLOPs at 1 FLOP/s).
    Overflow { quantity: &'static str },
}

impl std::fmt::Display for PerfError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            PerfError::NotPositive { field, value } => write!(f, "{field} must be > 0, got {value}"),
            PerfError::Negative { field, value } => write!(f, "{field} must be >= 0, got {value}"),
            PerfError::OutOfRange { field, value, min, max } => {
                write!(f, "{field} must be in [{min}, {max}], got {value}")
            }
            PerfError::Overflow { quantity } => write!(f, "{quantity} is too large to represent"),
        }
    }
}

impl std::error::Error for PerfError {}

/// `v` if finite and > 0.
pub(crate) fn positive(field: &'static str, v: f64) -> Result<f64, PerfError> {
    if v.is_finite() && v > 0.0 {
        Ok(v)
    } else {
        Err(PerfError::NotPositive { field, value: v })
    }
}

/// `v` if finite and >= 0.
pub(crate) fn non_negative(field: &'static str, v: f64) -> Result<f64, PerfError> {
    if v.is_finite() && v >= 0.0 {
        Ok(v)
    } else {
        Err(PerfError::Negative { field, value: v })
    }
}

/// `v` if finite and in `[min, max]`.
pub(crate) fn in_range(field: &'static str, v: f64, min: f64, max: f64) -> Result<f64, PerfError> {
    if v.is_finite() && v >= min && v <= max {
        Ok(v)
    } else {
        Err(PerfError::OutOfRange { field, value: v, min, max })
    }
}

/// `v` if finite (results of arithmetic on valid inputs).
pub(crate) fn finite(quantity: &'static str, v: f64) -> Result<f64, PerfError> {
    if v.is_finite() {
        Ok(v)
    } else {
        Err(PerfError::Overflow { quantity })
    }
}

/// A [`PerfError`] as a scenario error under `prefix` (e.g. `efficiency.tensor_flops`).
pub fn perf_error(prefix: &str, e: PerfError) -> ScenarioError {
    let field = match &e {
        PerfError::NotPositive { field, .. }
        | PerfError::Negative { field, .. }
        | PerfError::OutOfRange { field, .. } => {
            format!("{prefix}.{field}")
        }
        PerfError::Overflow { .. } => prefix.to_owned(),
    };
    let kind = match e {
        PerfError::NotPositive { value, .. } => ErrorKind::NotPositive { got: value },
        PerfError::Negative { value, .. } => ErrorKind::Negative { got: value },
        PerfError::OutOfRange { value, min, max, .. } => ErrorKind::OutOfRange { min, max, got: value },
        PerfError::Overflow { .. } => ErrorKind::TooLarge,
    };
    ScenarioError::new(field, kind)
}
