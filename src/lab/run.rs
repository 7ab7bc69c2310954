//! The lab's run apart from the browser: the plan handed to the WebGPU driver
//! (`src/ui/lab/driver.js`, as JSON), and what it hands back (JSON: each kernel's seconds per
//! launch and its read-back values) turned into a [`LabResult`]: validated, rated and spread with
//! `engine::lab`, in the run's order, so the first invalid read-back or failure is the error.

use super::{fma_expected, matmul_expected, shaders, AdapterInfo, LabError, LabResult, Point, Timing};
use crate::engine::lab::{self, Spread, StreamKernel, StreamState, SCALAR};
use serde_json::Value;

/// Invocations of the FMA-chain kernel.
pub const FMA_INVOCATIONS: u64 = 65_536;
/// The matmul edges the driver may try (each doubling the last).
const MATMUL_EDGES: [u64; 4] = [256, 512, 1024, 2048];

/// A failure as the driver reports it: `{ "kind": …, "message": … }`.
fn error_of(v: &Value) -> LabError {
    let message = v["message"].as_str().unwrap_or_default().to_owned();
    match v["kind"].as_str().unwrap_or_default() {
        "nowebgpu" => LabError::NoWebGpu,
        "noadapter" => LabError::NoAdapter,
        "timeout" => LabError::Timeout,
        "device" => LabError::Device(message),
        "lost" => LabError::Lost(message),
        "oom" => LabError::OutOfMemory,
        "cancelled" => LabError::Cancelled,
        _ => LabError::Failed(message),
    }
}

/// The driver's JSON, or its `error`.
fn parse(text: &str) -> Result<Value, LabError> {
    let v: Value = serde_json::from_str(text).map_err(|_| LabError::Failed(String::new()))?;
    match v.get("error") {
        Some(e) => Err(error_of(e)),
        None => Ok(v),
    }
}

fn bytes_of(v: &Value) -> u64 {
    v.as_f64().filter(|b| b.is_finite() && *b > 0.0).map_or(0, |b| b as u64)
}

/// The adapter the driver found (`labAdapter`), and its most workgroups per dispatch dimension.
pub fn adapter_from_json(text: &str) -> Result<(AdapterInfo, u64), LabError> {
    let v = parse(text)?;
    let s = |k: &str| v[k].as_str().unwrap_or_default().to_owned();
    let b = |k: &str| v[k].as_bool().unwrap_or(false);
    let info = AdapterInfo {
        vendor: s("vendor"),
        architecture: s("architecture"),
        description: s("description"),
        software: b("software"),
        timestamps: b("timestamps"),
        f16: b("f16"),
        max_buffer_bytes: bytes_of(&v["maxBuffer"]),
        max_binding_bytes: bytes_of(&v["maxBinding"]),
    };
    Ok((info, bytes_of(&v["maxPerDimension"]).max(1)))
}

/// The array sizes a run sweeps: powers of two from 1 MiB up to the adapter's limits and `cap`.
pub fn sizes(info: &AdapterInfo, cap: u64) -> Vec<u64> {
    lab::sweep(1 << 20, max_bytes(info, cap))
}

fn max_bytes(info: &AdapterInfo, cap: u64) -> u64 {
    lab::max_array_bytes(info.max_buffer_bytes, info.max_binding_bytes, cap)
}

/// The progress labels, in the order the driver reports them (`ctl(i)`): each kernel at each
/// size, then the two FMA kernels and the matmul.
pub fn labels(sizes: &[u64]) -> Vec<String> {
    use crate::charts::format::{format_bytes, ByteUnit};
    let mut out: Vec<String> = sizes
        .iter()
        .flat_map(|&b| {
            StreamKernel::ALL.map(|k| format!("{} · {}", k.name(), format_bytes(b, ByteUnit::Gib)))
        })
        .collect();
    out.extend(["FP32 FMA", "FP16 FMA", "matmul"].map(String::from));
    out
}

/// The dispatch for `n` invocations of 256: `[x, y, invocations per row]`.
fn dispatch(n: u64, max_per_dimension: u64) -> String {
    let (x, y) = lab::dispatch_2d(n.div_ceil(shaders::WORKGROUP), max_per_dimension);
    format!("[{x},{y},{}]", u64::from(x) * shaders::WORKGROUP)
}

/// The plan for `labRun`: sizes, dispatches (each size, the FMA kernels, the matmul fills), the
/// array each stream kernel writes, the features to use and the constants.
pub fn plan_json(info: &AdapterInfo, cap: u64, max_per_dimension: u64) -> String {
    let sizes = sizes(info, cap);
    let invocations = sizes
        .iter()
        .map(|b| b / lab::VEC4_BYTES)
        .chain([FMA_INVOCATIONS])
        .chain(MATMUL_EDGES.map(|e| e * e * 4 / lab::VEC4_BYTES));
    let dispatches: Vec<String> = invocations.map(|n| dispatch(n, max_per_dimension)).collect();
    let written: Vec<String> =
        StreamKernel::ALL.iter().map(|k| StreamState::START.written(*k).0.to_string()).collect();
    let list = |v: Vec<String>| v.join(",");
    format!(
        "{{\"sizes\":[{}],\"dispatch\":[{}],\"written\":[{}],\"timestamps\":{},\"f16\":{},\"scalar\":{},\"fmaN\":{FMA_INVOCATIONS},\"maxBytes\":{}}}",
        list(sizes.iter().map(u64::to_string).collect()),
        list(dispatches),
        list(written),
        info.timestamps,
        info.f16,
        f64::from(SCALAR),
        max_bytes(info, cap),
    )
}

fn floats(v: &Value) -> Vec<f64> {
    v.as_array().map(|a| a.iter().map(|x| x.as_f64().unwrap_or(f64::NAN)).collect()).unwrap_or_default()
}

/// One measured kernel: its samples' rates (per second, from `amount` per launch).
fn rates(k: &Value, amount: u64) -> Vec<f64> {
    floats(&k["secs"]).iter().filter_map(|s| lab::rate(amount, *s)).collect()
}

fn values(k: &Value) -> Vec<f32> {
    floats(&k["values"]).iter().map(|v| *v as f32).collect()
}

fn spread_or(rates: &[f64], kernel: &'static str) -> Result<Spread, LabError> {
    lab::spread(rates).ok_or(LabError::Invalid(kernel))
}

/// What the driver measured (`labRun`'s JSON), validated and turned into rates.
pub fn result_from_json(info: AdapterInfo, cap: u64, text: &str) -> Result<LabResult, LabError> {
    let v = parse(text)?;
    let sizes = sizes(&info, cap);
    let failure =
        || v.get("failure").filter(|f| !f.is_null()).map_or(LabError::Failed(String::new()), error_of);
    let f16 = info.f16;
    let timing = if info.timestamps { Timing::Timestamps } else { Timing::WallClock };
    let stopped = v.get("stopped").filter(|f| !f.is_null()).map(error_of);
    let mut result = LabResult { adapter: info, timing, stopped, ..LabResult::default() };
    let sweep = v["sweep"].as_array().map(Vec::as_slice).unwrap_or_default();
    for (&bytes, kernels) in sizes.iter().zip(sweep) {
        let n = bytes / lab::VEC4_BYTES;
        let mut state = StreamState::START;
        let kernels = kernels.as_array().map(Vec::as_slice).unwrap_or_default();
        for (kernel, k) in StreamKernel::ALL.into_iter().zip(kernels) {
            let (_, expected) = state.written(kernel);
            state = state.after(kernel);
            if !lab::all_close(&values(k), expected) {
                return Err(LabError::Invalid(kernel.name()));
            }
            let bytes_per_s = spread_or(&rates(k, kernel.bytes(n)), kernel.name())?;
            result.points.push(Point { kernel, array_bytes: bytes, bytes_per_s });
        }
    }
    let fma = |k: &Value, tolerance: f32| -> Result<Spread, LabError> {
        let steps = u32::try_from(bytes_of(&k["steps"])).unwrap_or(0);
        let values = values(k);
        // The first 1,024 invocations are read back: invocation i holds fma_expected(i).
        let ok = values.iter().take(1024).zip(0u32..).all(|(v, i)| {
            let e = fma_expected(i, steps);
            v.is_finite() && (v - e).abs() <= tolerance * e.abs()
        });
        if !ok || values.is_empty() {
            return Err(LabError::Invalid("fma_chain"));
        }
        spread_or(&rates(k, lab::fma_flops(FMA_INVOCATIONS, u64::from(steps), 8)), "fma_chain")
    };
    match v.get("fma32").filter(|k| !k.is_null()) {
        Some(k) => result.fma_f32 = Some(fma(k, 1e-4)?),
        None => return Err(failure()),
    }
    if f16 {
        match v.get("fma16").filter(|k| !k.is_null()) {
            Some(k) => result.fma_f16 = Some(fma(k, 2e-2)?),
            None => return Err(failure()),
        }
    }
    let Some(k) = v.get("matmul").filter(|k| !k.is_null()) else { return Err(failure()) };
    let edge = bytes_of(&k["edge"]);
    let expected = matmul_expected(edge);
    let values = values(k);
    if values.is_empty() || !values.iter().all(|v| v.is_finite() && (v - expected).abs() <= 1e-3 * expected) {
        return Err(LabError::Invalid("matmul"));
    }
    result.matmul = Some((edge, spread_or(&rates(k, lab::matmul_flops(edge, edge, edge)), "matmul")?));
    Ok(result)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn info() -> AdapterInfo {
        AdapterInfo {
            vendor: "v".into(),
            timestamps: true,
            max_buffer_bytes: 4 << 20,
            max_binding_bytes: 1 << 30,
            ..AdapterInfo::default()
        }
    }

    fn kernel(value: f32) -> Value {
        json!({ "secs": [1e-3, 2e-3, 3e-3], "values": [value, value] })
    }

    /// A run at 1, 2 and 4 MiB whose read-backs hold what each kernel must write.
    fn good_run() -> Value {
        // Each size starts from the initial arrays (the `init` kernel refills them).
        let size = || {
            let mut state = StreamState::START;
            StreamKernel::ALL
                .map(|k| {
                    let (_, e) = state.written(k);
                    state = state.after(k);
                    kernel(e)
                })
                .to_vec()
        };
        let sweep: Vec<Vec<Value>> = (0..3).map(|_| size()).collect();
        let fma: Vec<f32> = (0..4).map(|i| fma_expected(i, 256)).collect();
        json!({
            "sweep": sweep,
            "stopped": null,
            "fma32": { "steps": 256, "secs": [1e-3, 1e-3], "values": fma },
            "fma16": null,
            "matmul": { "edge": 256, "secs": [0.02, 0.03], "values": vec![matmul_expected(256); 4] },
            "failure": null
        })
    }

    #[test]
    fn plan_names_the_sizes_dispatches_and_arrays() {
        let plan: Value = serde_json::from_str(&plan_json(&info(), u64::MAX, 65_535)).unwrap();
        assert_eq!(plan["sizes"], json!([1 << 20, 2 << 20, 4 << 20]));
        // Each size, the FMA kernels, then four matmul fills; 1 MiB = 65,536 vec4 = 256 groups.
        assert_eq!(plan["dispatch"].as_array().unwrap().len(), 3 + 1 + 4);
        assert_eq!(plan["dispatch"][0], json!([256, 1, 65_536]));
        assert_eq!(plan["written"], json!([2, 1, 2, 0]));
        assert_eq!(plan["scalar"].as_f64().unwrap() as f32, SCALAR);
        assert_eq!(plan["maxBytes"], json!(4 << 20));
        assert_eq!(labels(&sizes(&info(), u64::MAX)).len(), 3 * 4 + 3);
    }

    #[test]
    fn a_good_run_becomes_rates() {
        let r = result_from_json(info(), u64::MAX, &good_run().to_string()).unwrap();
        assert_eq!(r.points.len(), 12);
        assert_eq!(r.timing, Timing::Timestamps);
        // copy at 1 MiB: 2 arrays × 1 MiB per launch, the median sample 2 ms.
        let copy = &r.points[0];
        assert_eq!((copy.kernel, copy.array_bytes), (StreamKernel::Copy, 1 << 20));
        assert!((copy.bytes_per_s.median - (2u64 << 20) as f64 / 2e-3).abs() < 1e-3);
        assert_eq!(r.fma_f32.unwrap().samples, 2);
        assert_eq!(r.matmul.unwrap().0, 256);
        assert!(r.fma_f16.is_none() && r.stopped.is_none());
    }

    #[test]
    fn errors_come_in_the_runs_order() {
        // A wrong read-back in the sweep wins over a later failure.
        let mut v = good_run();
        v["sweep"][1][2]["values"] = json!([0.5, null]);
        v["matmul"] = Value::Null;
        v["failure"] = json!({ "kind": "lost", "message": "gone" });
        assert_eq!(result_from_json(info(), u64::MAX, &v.to_string()), Err(LabError::Invalid("add")));
        // Without it, the failure is the error.
        let mut v = good_run();
        v["matmul"] = Value::Null;
        v["failure"] = json!({ "kind": "lost", "message": "gone" });
        assert_eq!(result_from_json(info(), u64::MAX, &v.to_string()), Err(LabError::Lost("gone".into())));
        // An FP16 kernel the adapter offers must be there.
        let f16 = AdapterInfo { f16: true, ..info() };
        assert_eq!(
            result_from_json(f16, u64::MAX, &good_run().to_string()),
            Err(LabError::Failed(String::new()))
        );
        // A bad FMA value, a stop kept with the sizes measured, a driver error.
        let mut v = good_run();
        v["fma32"]["values"][3] = json!(1.0);
        assert_eq!(result_from_json(info(), u64::MAX, &v.to_string()), Err(LabError::Invalid("fma_chain")));
        let mut v = good_run();
        v["stopped"] = json!({ "kind": "oom" });
        let r = result_from_json(info(), u64::MAX, &v.to_string()).unwrap();
        assert_eq!(r.stopped, Some(LabError::OutOfMemory));
        assert_eq!(
            result_from_json(info(), u64::MAX, r#"{"error":{"kind":"timeout"}}"#),
            Err(LabError::Timeout)
        );
        assert_eq!(result_from_json(info(), u64::MAX, "not json"), Err(LabError::Failed(String::new())));
    }

    #[test]
    fn adapter_reads_names_flags_and_limits() {
        let text = r#"{"vendor":"x","architecture":"","description":"d","software":false,"timestamps":true,
            "f16":false,"maxBuffer":268435456,"maxBinding":134217728,"maxPerDimension":65535}"#;
        let (a, dim) = adapter_from_json(text).unwrap();
        assert_eq!((a.vendor.as_str(), a.timestamps, a.max_binding_bytes, dim), ("x", true, 1 << 27, 65_535));
        assert_eq!(adapter_from_json(r#"{"error":{"kind":"nowebgpu"}}"#), Err(LabError::NoWebGpu));
        assert_eq!(adapter_from_json(r#"{"error":{"kind":"noadapter"}}"#), Err(LabError::NoAdapter));
    }
}
