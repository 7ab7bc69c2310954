//! A benchmark hook for `tools/bench.mjs`: times the engine inside the browser's wasm.
//! Trunk exposes exported functions as `window.wasmBindings`.

use crate::catalog::evaluate;
use crate::estimator::state::default_scenario;
use wasm_bindgen::prelude::wasm_bindgen;

/// Milliseconds per full evaluation (sizing, solvers, timing, roofline sweep, 1–1024 GPU scaling
/// curves, every derivation) of the default scenario, averaged over `iterations`.
#[wasm_bindgen]
pub fn engine_benchmark(iterations: u32) -> f64 {
    let Some(performance) = web_sys::window().and_then(|w| w.performance()) else { return f64::NAN };
    let scenario = default_scenario();
    let n = iterations.max(1);
    let start = performance.now();
    let mut ok = 0u32;
    for _ in 0..n {
        if evaluate(&scenario).is_ok() {
            ok += 1;
        }
    }
    let elapsed = performance.now() - start;
    if ok == n {
        elapsed / f64::from(n)
    } else {
        f64::NAN
    }
}
