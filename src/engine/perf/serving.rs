//! Serving metrics from prefill and decode timings: time to first token (TTFT), time per
//! output token (TPOT), tokens/s per user and aggregate, and cost per million tokens.
//! Definitions as in vLLM / TensorRT-LLM benchmark reports; cost = price / tokens per hour.

use crate::engine::checked::{finite, non_negative, positive, PerfError};
use serde::{Deserialize, Serialize};

/// Serving numbers at one concurrency.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct ServingEstimate {
    /// Prefill time of one prompt (no queueing).
    pub time_to_first_token_s: f64,
    /// Decode step time at this concurrency.
    pub time_per_output_token_s: f64,
    /// `1 / TPOT`
    pub tokens_per_s_per_user: f64,
    /// `concurrency / TPOT`, output tokens over the whole deployment.
    pub aggregate_tokens_per_s: f64,
    /// Requests/s when each request is `prompt + output_tokens` with prefill serialized
    /// between decode steps: `concurrency / (TTFT + output_tokens × TPOT)`.
    pub requests_per_s: f64,
    /// `price_per_hour / (aggregate_tokens_per_s × 3600) × 1e6`, output tokens.
    pub cost_per_million_tokens: Option<f64>,
}

/// Combine a prefill time and a decode step time (both from [`super::timing::phase_timing`],
/// bound or expected) into serving numbers. `price_per_hour` is for every GPU in use.
/// Worked: TPOT 20 ms, concurrency 32: 50 tok/s per user, 1,600 tok/s; at $10/h:
/// 10 / (1600 × 3600) × 1e6 = $1.74 per million tokens.
pub fn serving_estimate(
    prefill_s: f64,
    decode_step_s: f64,
    concurrency: f64,
    output_tokens: f64,
    price_per_hour: Option<f64>,
) -> Result<ServingEstimate, PerfError> {
    let ttft = non_negative("prefill_s", prefill_s)?;
    let tpot = positive("decode_step_s", decode_step_s)?;
    let c = non_negative("concurrency", concurrency)?;
    let out = non_negative("output_tokens", output_tokens)?;
    let aggregate = finite("aggregate tokens/s", c / tpot)?;
    let request_time = ttft + out * tpot;
    let requests_per_s = if request_time > 0.0 { finite("requests/s", c / request_time)? } else { 0.0 };
    let cost = match price_per_hour {
        Some(p) if aggregate > 0.0 => {
            Some(finite("cost", non_negative("price_per_hour", p)? / (aggregate * 3600.0) * 1e6)?)
        }
        Some(p) => {
            non_negative("price_per_hour", p)?;
            None
        }
        None => None,
    };
    Ok(ServingEstimate {
        time_to_first_token_s: ttft,
        time_per_output_token_s: tpot,
        tokens_per_s_per_user: finite("tokens/s per user", 1.0 / tpot)?,
        aggregate_tokens_per_s: aggregate,
        requests_per_s,
        cost_per_million_tokens: cost,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn worked_serving_numbers() {
        let s = serving_estimate(0.15, 0.020, 32.0, 256.0, Some(10.0)).unwrap();
        assert!((s.tokens_per_s_per_user - 50.0).abs() < 1e-9);
        assert!((s.aggregate_tokens_per_s - 1600.0).abs() < 1e-9);
        assert!((s.cost_per_million_tokens.unwrap() - 1.7361).abs() < 1e-3);
        assert!((s.requests_per_s - 32.0 / (0.15 + 256.0 * 0.02)).abs() < 1e-9);
        assert!(serving_estimate(0.1, 0.0, 1.0, 1.0, None).is_err());
        assert_eq!(serving_estimate(0.0, 0.01, 0.0, 0.0, Some(1.0)).unwrap().cost_per_million_tokens, None);
    }
}
