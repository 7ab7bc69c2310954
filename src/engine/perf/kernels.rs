//! Arithmetic intensity of the textbook kernels the chapters place on the roofline: an
//! element-wise operation, a matrix multiply (GEMM), and the weight matmuls of decoding and
//! prefill (a GEMM with as many rows as tokens in flight). Each counts the minimum traffic:
//! every operand read once and every result written once (perfect on-chip reuse).

use super::roofline::arithmetic_intensity;
use crate::engine::checked::{positive, PerfError};

/// Intensity of an element-wise kernel with `inputs` operands and `outputs` results per element,
/// `flops_per_element` operations each, in a dtype of `bytes_per_value` bytes.
///
/// # Formula
/// `I = flops / ((inputs + outputs) × bytes)`. Worked: `c = a + b` in BF16 is 1 FLOP over
/// (2 + 1) × 2 = 6 bytes, `I = 1/6 ≈ 0.167` FLOP/byte.
pub fn elementwise_intensity(
    flops_per_element: f64,
    inputs: f64,
    outputs: f64,
    bytes_per_value: f64,
) -> Result<f64, PerfError> {
    let values = positive("values per element", inputs + outputs)?;
    let bytes = positive("bytes_per_value", bytes_per_value)?;
    arithmetic_intensity(flops_per_element, values * bytes)
}

/// Intensity of a GEMM `C[m×n] = A[m×k] · B[k×n]` with every operand read once and `C` written
/// once, all in a dtype of `bytes_per_value` bytes.
///
/// # Formula
/// `I = 2·m·n·k / (bytes × (m·k + k·n + m·n))`. Worked: a 4096³ BF16 GEMM is
/// `2 × 4096³ / (2 × 3 × 4096²) = 4096 / 3 ≈ 1365` FLOP/byte; the decode matmul of one token
/// through a 4096 × 4096 weight (`m = 1`) is `4096² / (4096 + 4096² + 4096) ≈ 0.9995`.
pub fn gemm_intensity(m: f64, n: f64, k: f64, bytes_per_value: f64) -> Result<f64, PerfError> {
    let (m, n, k) = (positive("m", m)?, positive("n", n)?, positive("k", k)?);
    let bytes = positive("bytes_per_value", bytes_per_value)?;
    arithmetic_intensity(2.0 * m * n * k, bytes * (m * k + k * n + m * n))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn elementwise_add_in_bf16_is_one_sixth() {
        let i = elementwise_intensity(1.0, 2.0, 1.0, 2.0).unwrap();
        assert!((i - 1.0 / 6.0).abs() < 1e-12, "{i}");
        // FP32: 1 FLOP over 12 bytes.
        assert!((elementwise_intensity(1.0, 2.0, 1.0, 4.0).unwrap() - 1.0 / 12.0).abs() < 1e-12);
    }

    #[test]
    fn gemm_worked_numbers() {
        let square = gemm_intensity(4096.0, 4096.0, 4096.0, 2.0).unwrap();
        assert!((square - 4096.0 / 3.0).abs() < 1e-9, "{square}");
        let decode = gemm_intensity(1.0, 4096.0, 4096.0, 2.0).unwrap();
        assert!((decode - 4096.0 / 4098.0).abs() < 1e-12, "{decode}");
        // Prefill of 2048 tokens through a 4096 × 4096 weight: 2048·4096² / (2048·4096·2 + 4096²)
        // = 2048 × 4096 / 8192 = 1024.
        let prefill = gemm_intensity(2048.0, 4096.0, 4096.0, 2.0).unwrap();
        assert!((prefill - 1024.0).abs() < 1e-9, "{prefill}");
    }

    #[test]
    fn bad_sizes_are_errors_not_nan() {
        assert!(gemm_intensity(0.0, 1.0, 1.0, 2.0).is_err());
        assert!(gemm_intensity(1.0, f64::NAN, 1.0, 2.0).is_err());
        assert!(elementwise_intensity(1.0, 0.0, 0.0, 2.0).is_err());
        assert!(elementwise_intensity(1.0, 2.0, 1.0, -2.0).is_err());
    }
}
