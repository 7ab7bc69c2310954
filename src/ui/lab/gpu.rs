//! The lab's link to WebGPU: the calls themselves are a small hand-written module
//! (`driver.js`: adapter, device, kernels, timing, read-backs), because web-sys's typed bindings
//! and Rust's async state machines for them cost far more wasm. This side hands it the plan
//! (`lab::run::plan_json`), reports its progress and the reader's Cancel to it, and reads what it
//! measured (`lab::run::result_from_json`: validation, rates and spreads with `engine::lab`).
//! The driver's own comments say how it times and checks; `tools/shrink.mjs` takes them out of
//! the built site.

use crate::lab::run::{adapter_from_json, labels, plan_json, result_from_json, sizes};
use crate::lab::{shaders, AdapterInfo, LabError, LabResult};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use wasm_bindgen::prelude::*;
use web_sys::js_sys::{Promise, Reflect};

#[wasm_bindgen(module = "/src/ui/lab/driver.js")]
extern "C" {
    #[wasm_bindgen(js_name = labAdapter)]
    fn lab_adapter() -> Promise;
    #[wasm_bindgen(js_name = labRun)]
    fn lab_run(
        adapter: &JsValue,
        plan: &str,
        stream: &str,
        fma32: &str,
        fma16: &str,
        matmul: &str,
        ctl: &Closure<dyn FnMut(i32) -> bool>,
    ) -> Promise;
}

/// Where the run is, for the progress line.
#[derive(Clone, Debug, PartialEq)]
pub struct Progress {
    pub step: usize,
    pub total: usize,
    pub label: String,
}

/// A WebGPU adapter (the driver's object) and what it said of itself.
pub struct Adapter {
    adapter: JsValue,
    max_per_dimension: u64,
}

async fn text_of(promise: Promise) -> String {
    promise.await.ok().and_then(|v| v.as_string()).unwrap_or_default()
}

/// The adapter, or why there is none.
pub async fn adapter() -> Result<(Adapter, AdapterInfo), LabError> {
    let found = lab_adapter().await.unwrap_or(JsValue::UNDEFINED);
    let json = Reflect::get(&found, &"json".into()).ok().and_then(|v| v.as_string()).unwrap_or_default();
    let (info, max_per_dimension) = adapter_from_json(&json)?;
    let adapter = Reflect::get(&found, &"adapter".into()).unwrap_or(JsValue::UNDEFINED);
    Ok((Adapter { adapter, max_per_dimension }, info))
}

/// The whole run: the sweep up to `cap` bytes per array, then compute. A failure after some
/// sizes were measured keeps them (with the reason in `stopped`); a failure before returns it.
pub async fn run(
    adapter: Adapter,
    info: AdapterInfo,
    cap: u64,
    cancel: Arc<AtomicBool>,
    progress: impl Fn(Progress) + 'static,
) -> Result<LabResult, LabError> {
    let labels = labels(&sizes(&info, cap));
    let total = labels.len();
    let mut step = 0;
    // `ctl(-1)` asks whether the reader cancelled; `ctl(i)` says that step `i` begins.
    let ctl = Closure::<dyn FnMut(i32) -> bool>::new(move |i: i32| {
        if let Some(label) = usize::try_from(i).ok().and_then(|i| labels.get(i)) {
            step += 1;
            progress(Progress { step, total, label: label.clone() });
        }
        cancel.load(Ordering::Relaxed)
    });
    let plan = plan_json(&info, cap, adapter.max_per_dimension);
    let promise = lab_run(
        &adapter.adapter,
        &plan,
        shaders::STREAM,
        shaders::FMA_F32,
        shaders::FMA_F16,
        shaders::MATMUL,
        &ctl,
    );
    let measured = text_of(promise).await;
    drop(ctl);
    result_from_json(info, cap, &measured)
}
