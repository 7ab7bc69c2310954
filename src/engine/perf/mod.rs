//! Performance model: the article's bound `T = max(W/F, Q/B, C/N) + T_overhead` per phase,
//! with a roofline upper bound (peak figures, no overheads) and an expected value (efficiency
//! factors and latencies). The formulas are pure functions on plain numbers; [`performance`] maps a
//! sized Scenario onto them and [`report`] holds the time half of the Report.

pub mod collectives;
pub mod efficiency;
pub mod kernels;
pub mod load;
pub mod offload;
pub mod on_chip;
pub mod performance;
pub mod phases;
pub mod report;
pub mod roofline;
pub mod scaling;
pub mod serving;
pub mod timing;

#[cfg(test)]
mod proptests;

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
