//! The lab's WebGPU driver: finds the adapter, creates a device with the adapter's buffer limits,
//! runs the kernels of `lab::shaders`, times them (GPU timestamps when the adapter offers
//! `timestamp-query`, else wall clock to `onSubmittedWorkDone`), reads every output back to
//! validate it, and turns the times into rates with `engine::lab`. Every await is raced against
//! a 15 s timer, the reader's Cancel is checked between samples, and the device is destroyed
//! when the run ends, however it ends.

use crate::engine::lab::{self, Spread, StreamKernel, StreamState, SCALAR};
use crate::lab::{fma_expected, matmul_expected, shaders, AdapterInfo, LabError, LabResult, Point, Timing};
use std::cell::RefCell;
use std::rc::Rc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use wasm_bindgen::{JsCast, JsValue};
use web_sys::js_sys::{self, Array, Function, Object, Promise, Reflect};
use web_sys::{
    gpu_buffer_usage as usage, gpu_map_mode, gpu_shader_stage, GpuAdapter, GpuBindGroup,
    GpuBindGroupDescriptor, GpuBindGroupEntry, GpuBindGroupLayout, GpuBindGroupLayoutDescriptor,
    GpuBindGroupLayoutEntry, GpuBuffer, GpuBufferBindingLayout, GpuBufferBindingType, GpuBufferDescriptor,
    GpuComputePassDescriptor, GpuComputePassTimestampWrites, GpuComputePipeline,
    GpuComputePipelineDescriptor, GpuDevice, GpuDeviceDescriptor, GpuErrorFilter, GpuPipelineLayout,
    GpuPipelineLayoutDescriptor, GpuProgrammableStage, GpuQuerySet, GpuQuerySetDescriptor, GpuQueryType,
    GpuShaderModuleDescriptor,
};

/// Timed samples per measurement, and the least time each sample lasts.
const SAMPLES: usize = 10;
const SAMPLE_S: f64 = 0.02;
/// Most launches in one sample (tiny arrays on a fast GPU).
const MAX_LAUNCHES: u32 = 20_000;
/// No single GPU wait may take longer.
const TIMEOUT_MS: i32 = 15_000;
/// Bytes read back from each end of an output array to validate it.
const CHECK_BYTES: u64 = 4096;

/// Where the run is, for the progress line.
#[derive(Clone, Debug, PartialEq)]
pub struct Progress {
    pub step: usize,
    pub total: usize,
    pub label: String,
}

fn text_of(e: &JsValue) -> String {
    e.as_string()
        .or_else(|| Reflect::get(e, &"message".into()).ok().and_then(|m| m.as_string()))
        .unwrap_or_default()
}

/// The adapter, or why there is none.
pub async fn adapter() -> Result<(GpuAdapter, AdapterInfo), LabError> {
    let window = web_sys::window().ok_or(LabError::NoWebGpu)?;
    let navigator = window.navigator();
    let gpu = Reflect::get(&navigator, &"gpu".into()).map_err(|_| LabError::NoWebGpu)?;
    if gpu.is_undefined() || gpu.is_null() {
        return Err(LabError::NoWebGpu);
    }
    let adapter: JsValue = within(navigator.gpu().request_adapter().unchecked_into()).await.map_err(|e| {
        if e == LabError::Timeout {
            e
        } else {
            LabError::NoAdapter
        }
    })?;
    let adapter: GpuAdapter = adapter.dyn_into().map_err(|_| LabError::NoAdapter)?;
    let info = adapter.info();
    let features = adapter.features();
    let limits = adapter.limits();
    let fallback =
        Reflect::get(&info, &"isFallbackAdapter".into()).ok().and_then(|v| v.as_bool()).unwrap_or(false)
            || Reflect::get(&adapter, &"isFallbackAdapter".into())
                .ok()
                .and_then(|v| v.as_bool())
                .unwrap_or(false);
    let described = AdapterInfo {
        vendor: info.vendor(),
        architecture: info.architecture(),
        description: info.description(),
        software: fallback,
        timestamps: features.has("timestamp-query"),
        f16: features.has("shader-f16"),
        max_buffer_bytes: as_bytes(limits.max_buffer_size()),
        max_binding_bytes: as_bytes(limits.max_storage_buffer_binding_size()),
    };
    Ok((adapter, described))
}

fn as_bytes(v: f64) -> u64 {
    if v.is_finite() && v > 0.0 {
        v as u64
    } else {
        0
    }
}

/// `promise`, or [`LabError::Timeout`] after [`TIMEOUT_MS`]; a rejection becomes `Failed`.
async fn within(promise: Promise) -> Result<JsValue, LabError> {
    let timer = Promise::new(&mut |resolve: Function, _reject: Function| {
        if let Some(w) = web_sys::window() {
            let _ = w.set_timeout_with_callback_and_timeout_and_arguments_1(
                &resolve,
                TIMEOUT_MS,
                &"__timeout".into(),
            );
        }
    });
    let raced = Promise::race(&Array::of2(&promise, &timer));
    match raced.await {
        Ok(v) if v.as_string().as_deref() == Some("__timeout") => Err(LabError::Timeout),
        Ok(v) => Ok(v),
        Err(e) => Err(LabError::Failed(text_of(&e))),
    }
}

/// A device, its shared layout and pipelines, and the run's cancel and lost flags.
struct Bench {
    device: GpuDevice,
    layout: GpuBindGroupLayout,
    pipeline_layout: GpuPipelineLayout,
    timestamps: Option<(GpuQuerySet, GpuBuffer, GpuBuffer)>,
    cancel: Arc<AtomicBool>,
    lost: Rc<RefCell<Option<String>>>,
    max_per_dimension: u64,
}

impl Drop for Bench {
    fn drop(&mut self) {
        self.device.destroy();
    }
}

impl Bench {
    async fn new(
        adapter: &GpuAdapter,
        info: &AdapterInfo,
        cancel: Arc<AtomicBool>,
    ) -> Result<Bench, LabError> {
        let limits = adapter.limits();
        let desc = GpuDeviceDescriptor::new();
        let mut features = Vec::new();
        if info.timestamps {
            features.push(js_sys::JsString::from("timestamp-query"));
        }
        if info.f16 {
            features.push(js_sys::JsString::from("shader-f16"));
        }
        desc.set_required_features(&features);
        let required = Object::new();
        let _ = Reflect::set(&required, &"maxBufferSize".into(), &limits.max_buffer_size().into());
        let _ = Reflect::set(
            &required,
            &"maxStorageBufferBindingSize".into(),
            &limits.max_storage_buffer_binding_size().into(),
        );
        desc.set_required_limits(required.unchecked_ref());
        let device: GpuDevice = within(adapter.request_device_with_descriptor(&desc).unchecked_into())
            .await
            .map_err(|e| match e {
                LabError::Failed(m) => LabError::Device(m),
                other => other,
            })?
            .dyn_into()
            .map_err(|_| LabError::Device(String::new()))?;
        let lost = Rc::new(RefCell::new(None));
        {
            let lost = lost.clone();
            let promise: Promise = device.lost().unchecked_into();
            leptos::task::spawn_local(async move {
                if let Ok(info) = promise.await {
                    *lost.borrow_mut() = Some(text_of(&info));
                }
            });
        }
        let storage = || {
            let b = GpuBufferBindingLayout::new();
            b.set_type(GpuBufferBindingType::Storage);
            b
        };
        let entries: Vec<GpuBindGroupLayoutEntry> = (0..4)
            .map(|i| {
                let e = GpuBindGroupLayoutEntry::new(i, gpu_shader_stage::COMPUTE);
                if i == 3 {
                    let u = GpuBufferBindingLayout::new();
                    u.set_type(GpuBufferBindingType::Uniform);
                    e.set_buffer(&u);
                } else {
                    e.set_buffer(&storage());
                }
                e
            })
            .collect();
        let layout = device
            .create_bind_group_layout(&GpuBindGroupLayoutDescriptor::new(&entries))
            .map_err(|e| LabError::Failed(text_of(&e)))?;
        let pipeline_layout =
            device.create_pipeline_layout(&GpuPipelineLayoutDescriptor::new(&[js_sys::JsNullable::wrap(
                layout.clone(),
            )]));
        let timestamps = if info.timestamps {
            let set = device
                .create_query_set(&GpuQuerySetDescriptor::new(2, GpuQueryType::Timestamp))
                .map_err(|e| LabError::Failed(text_of(&e)))?;
            let resolve = buffer(&device, 16, usage::QUERY_RESOLVE | usage::COPY_SRC)?;
            let read = buffer(&device, 16, usage::MAP_READ | usage::COPY_DST)?;
            Some((set, resolve, read))
        } else {
            None
        };
        let max_per_dimension = u64::from(limits.max_compute_workgroups_per_dimension().max(1));
        Ok(Bench { device, layout, pipeline_layout, timestamps, cancel, lost, max_per_dimension })
    }

    /// Cancelled by the reader, or the device lost: stop here.
    fn check(&self) -> Result<(), LabError> {
        if let Some(m) = self.lost.borrow().clone() {
            return Err(LabError::Lost(m));
        }
        if self.cancel.load(Ordering::Relaxed) {
            return Err(LabError::Cancelled);
        }
        Ok(())
    }

    async fn pipeline(&self, code: &str, entry: &str) -> Result<GpuComputePipeline, LabError> {
        self.device.push_error_scope(GpuErrorFilter::Validation);
        let module = self.device.create_shader_module(&GpuShaderModuleDescriptor::new(code));
        let stage = GpuProgrammableStage::new(&module);
        stage.set_entry_point(entry);
        let p = self
            .device
            .create_compute_pipeline(&GpuComputePipelineDescriptor::new(&self.pipeline_layout, &stage));
        self.scope_error().await?;
        Ok(p)
    }

    /// The error the innermost error scope caught, if any.
    async fn scope_error(&self) -> Result<(), LabError> {
        let e = within(self.device.pop_error_scope().unchecked_into()).await?;
        if e.is_null() || e.is_undefined() {
            Ok(())
        } else {
            Err(LabError::Failed(text_of(&e)))
        }
    }

    /// Storage buffers of `bytes` each (plus the uniform block), or out-of-memory.
    async fn buffers(&self, bytes: u64, count: usize) -> Result<Vec<GpuBuffer>, LabError> {
        self.device.push_error_scope(GpuErrorFilter::OutOfMemory);
        let made: Result<Vec<GpuBuffer>, LabError> =
            (0..count).map(|_| buffer(&self.device, bytes, usage::STORAGE | usage::COPY_SRC)).collect();
        let scope = self.scope_error().await;
        let made = made?;
        if scope.is_err() {
            for b in &made {
                b.destroy();
            }
            return Err(LabError::OutOfMemory);
        }
        Ok(made)
    }

    fn bind(&self, storage: &[&GpuBuffer], params: &GpuBuffer) -> GpuBindGroup {
        let mut entries: Vec<GpuBindGroupEntry> = storage
            .iter()
            .take(3)
            .zip(0u32..)
            .map(|(b, i)| GpuBindGroupEntry::new_with_gpu_buffer(i, b))
            .collect();
        entries.push(GpuBindGroupEntry::new_with_gpu_buffer(3, params));
        self.device.create_bind_group(&GpuBindGroupDescriptor::new(&entries, &self.layout))
    }

    fn params(&self, n: u64, row: u64, k: u32) -> Result<GpuBuffer, LabError> {
        let b = buffer(&self.device, shaders::PARAMS, usage::UNIFORM | usage::COPY_DST)?;
        let mut bytes = Vec::with_capacity(16);
        bytes.extend_from_slice(&u32::try_from(n).unwrap_or(u32::MAX).to_le_bytes());
        bytes.extend_from_slice(&u32::try_from(row).unwrap_or(u32::MAX).to_le_bytes());
        bytes.extend_from_slice(&SCALAR.to_le_bytes());
        bytes.extend_from_slice(&k.to_le_bytes());
        self.device
            .queue()
            .write_buffer_with_u32_and_u8_slice(&b, 0, &bytes)
            .map_err(|e| LabError::Failed(text_of(&e)))?;
        Ok(b)
    }

    /// Runs `launches` dispatches of (x, y) workgroups in one compute pass and returns the
    /// seconds the pass took.
    async fn time(
        &self,
        p: &GpuComputePipeline,
        g: &GpuBindGroup,
        (x, y): (u32, u32),
        launches: u32,
    ) -> Result<f64, LabError> {
        self.check()?;
        let encoder = self.device.create_command_encoder();
        let desc = GpuComputePassDescriptor::new();
        if let Some((set, _, _)) = &self.timestamps {
            let w = GpuComputePassTimestampWrites::new(set);
            w.set_beginning_of_pass_write_index(0);
            w.set_end_of_pass_write_index(1);
            desc.set_timestamp_writes(&w);
        }
        let pass = encoder.begin_compute_pass_with_descriptor(&desc);
        pass.set_pipeline(p);
        pass.set_bind_group(0, Some(g));
        for _ in 0..launches {
            pass.dispatch_workgroups_with_workgroup_count_y(x, y);
        }
        pass.end();
        if let Some((set, resolve, read)) = &self.timestamps {
            encoder.resolve_query_set_with_u32(set, 0, 2, resolve, 0);
            encoder
                .copy_buffer_to_buffer_with_u32_and_u32_and_u32(resolve, 0, read, 0, 16)
                .map_err(|e| LabError::Failed(text_of(&e)))?;
        }
        let started = now();
        self.device.queue().submit(&[encoder.finish()]);
        within(self.device.queue().on_submitted_work_done().unchecked_into()).await?;
        let wall = (now() - started) / 1000.0;
        self.check()?;
        let Some((_, _, read)) = &self.timestamps else { return Ok(wall) };
        within(read.map_async(gpu_map_mode::READ).unchecked_into()).await?;
        let range = read.get_mapped_range().map_err(|e| LabError::Failed(text_of(&e)))?;
        let stamps = js_sys::BigUint64Array::new(&range);
        let (t0, t1) = (stamps.get_index(0), stamps.get_index(1));
        read.unmap();
        // A zero or negative delta (quantised or reset timestamps) falls back to the wall clock.
        Ok(lab::timestamp_seconds(t0, t1).unwrap_or(wall))
    }

    /// Seconds per launch over [`SAMPLES`] samples of at least [`SAMPLE_S`] each.
    async fn measure(
        &self,
        p: &GpuComputePipeline,
        g: &GpuBindGroup,
        dispatch: (u32, u32),
    ) -> Result<Vec<f64>, LabError> {
        let single = self.time(p, g, dispatch, 1).await?; // warm-up, and the launch count
        let launches = lab::launches_for(single, SAMPLE_S, MAX_LAUNCHES);
        let mut out = Vec::with_capacity(SAMPLES);
        for _ in 0..SAMPLES {
            out.push(self.time(p, g, dispatch, launches).await? / f64::from(launches));
        }
        Ok(out)
    }

    /// The first and last [`CHECK_BYTES`] of `src` (of `bytes`) as f32.
    async fn read_back(&self, src: &GpuBuffer, bytes: u64) -> Result<Vec<f32>, LabError> {
        let chunk = CHECK_BYTES.min(bytes);
        let staging = buffer(&self.device, 2 * chunk, usage::MAP_READ | usage::COPY_DST)?;
        let encoder = self.device.create_command_encoder();
        let fail = |e: JsValue| LabError::Failed(text_of(&e));
        encoder
            .copy_buffer_to_buffer_with_f64_and_f64_and_f64(src, 0.0, &staging, 0.0, chunk as f64)
            .map_err(fail)?;
        encoder
            .copy_buffer_to_buffer_with_f64_and_f64_and_f64(
                src,
                (bytes - chunk) as f64,
                &staging,
                chunk as f64,
                chunk as f64,
            )
            .map_err(fail)?;
        self.device.queue().submit(&[encoder.finish()]);
        within(staging.map_async(gpu_map_mode::READ).unchecked_into()).await?;
        let range = staging.get_mapped_range().map_err(fail)?;
        let values = js_sys::Float32Array::new(&range).to_vec();
        staging.unmap();
        staging.destroy();
        Ok(values)
    }
}

fn buffer(device: &GpuDevice, bytes: u64, use_: u32) -> Result<GpuBuffer, LabError> {
    device
        .create_buffer(&GpuBufferDescriptor::new_with_f64(bytes as f64, use_))
        .map_err(|e| LabError::Failed(text_of(&e)))
}

fn now() -> f64 {
    web_sys::window().and_then(|w| w.performance()).map_or(0.0, |p| p.now())
}

/// Dispatch for `n` invocations of 256: (x, y) and the invocations per row (`row`).
fn dispatch(n: u64, max_per_dimension: u64) -> ((u32, u32), u64) {
    let groups = n.div_ceil(shaders::WORKGROUP);
    let (x, y) = lab::dispatch_2d(groups, max_per_dimension);
    ((x, y), u64::from(x) * shaders::WORKGROUP)
}

/// Lets the page redraw between steps (a macrotask, so progress paints).
async fn yield_to_page() {
    let p = Promise::new(&mut |resolve: Function, _| {
        if let Some(w) = web_sys::window() {
            let _ = w.set_timeout_with_callback_and_timeout_and_arguments_0(&resolve, 0);
        }
    });
    let _ = p.await;
}

/// The whole run: the sweep up to `cap` bytes per array, then compute. A failure after some
/// sizes were measured keeps them (with the reason in `stopped`); a failure before returns it.
pub async fn run(
    adapter: GpuAdapter,
    info: AdapterInfo,
    cap: u64,
    cancel: Arc<AtomicBool>,
    progress: impl Fn(Progress),
) -> Result<LabResult, LabError> {
    let bench = Bench::new(&adapter, &info, cancel).await?;
    let timing = if bench.timestamps.is_some() { Timing::Timestamps } else { Timing::WallClock };
    let mut result = LabResult { adapter: info.clone(), timing, ..LabResult::default() };
    let max = lab::max_array_bytes(info.max_buffer_bytes, info.max_binding_bytes, cap);
    let sizes = lab::sweep(1 << 20, max);
    let total = sizes.len() * 4 + 3;
    let mut step = 0;
    let mut tell = |label: String| {
        step += 1;
        progress(Progress { step, total, label });
    };
    let stream: Vec<GpuComputePipeline> = {
        let mut v = Vec::new();
        for entry in ["init", "copy", "scale", "add", "triad"] {
            v.push(bench.pipeline(shaders::STREAM, entry).await?);
        }
        v
    };
    for &bytes in &sizes {
        match sweep_one(&bench, &stream, bytes, &mut tell).await {
            Ok(mut points) => result.points.append(&mut points),
            Err(e @ (LabError::Cancelled | LabError::Invalid(_))) => return Err(e),
            Err(e) if result.points.is_empty() => return Err(e),
            Err(e) => {
                result.stopped = Some(e);
                break;
            }
        }
    }
    tell("FP32 FMA".into());
    result.fma_f32 = Some(fma(&bench, shaders::FMA_F32, 1e-4).await?);
    tell("FP16 FMA".into());
    if info.f16 {
        result.fma_f16 = Some(fma(&bench, shaders::FMA_F16, 2e-2).await?);
    }
    tell("matmul".into());
    result.matmul = Some(matmul(&bench, &stream, max).await?);
    Ok(result)
}

/// The four memory kernels at one array size, each validated after timing.
async fn sweep_one(
    bench: &Bench,
    stream: &[GpuComputePipeline],
    bytes: u64,
    tell: &mut impl FnMut(String),
) -> Result<Vec<Point>, LabError> {
    let n = bytes / lab::VEC4_BYTES;
    let arrays = bench.buffers(bytes, 3).await?;
    let (d, row) = dispatch(n, bench.max_per_dimension);
    let params = bench.params(n, row, 0)?;
    let group = bench.bind(&arrays.iter().collect::<Vec<_>>(), &params);
    let mut out = Vec::new();
    let result = async {
        if let Some(init) = stream.first() {
            bench.time(init, &group, d, 1).await?;
        }
        let mut state = StreamState::START;
        for (i, kernel) in StreamKernel::ALL.into_iter().enumerate() {
            tell(format!(
                "{} · {}",
                kernel.name(),
                crate::charts::format::format_bytes(bytes, crate::charts::format::ByteUnit::Gib)
            ));
            yield_to_page().await;
            let p = stream.get(i + 1).ok_or(LabError::Failed(String::new()))?;
            let secs = bench.measure(p, &group, d).await?;
            let (array, expected) = state.written(kernel);
            state = state.after(kernel);
            let target = arrays.get(array).ok_or(LabError::Failed(String::new()))?;
            let values = bench.read_back(target, bytes).await?;
            if !lab::all_close(&values, expected) {
                return Err(LabError::Invalid(kernel.name()));
            }
            let rates: Vec<f64> = secs.iter().filter_map(|s| lab::rate(kernel.bytes(n), *s)).collect();
            let spread = lab::spread(&rates).ok_or(LabError::Invalid(kernel.name()))?;
            out.push(Point { kernel, array_bytes: bytes, bytes_per_s: spread });
        }
        Ok::<(), LabError>(())
    }
    .await;
    for b in arrays.iter().chain(std::iter::once(&params)) {
        b.destroy();
    }
    result.map(|()| out)
}

/// FLOP/s of an FMA-chain kernel: 65,536 invocations, steps doubled until a launch lasts 2 ms.
async fn fma(bench: &Bench, code: &str, tolerance: f32) -> Result<Spread, LabError> {
    let n: u64 = 65_536;
    let p = bench.pipeline(code, "fma_chain").await?;
    // Three buffers, like every kernel's layout (binding one buffer twice would alias writes).
    let out = bench.buffers(n * 4, 3).await?;
    let (d, row) = dispatch(n, bench.max_per_dimension);
    let mut steps: u32 = 256;
    let result = async {
        loop {
            let params = bench.params(n, row, steps)?;
            let group = bench.bind(&out.iter().collect::<Vec<_>>(), &params);
            let single = bench.time(&p, &group, d, 1).await?;
            if single >= 0.002 || steps >= 1 << 16 {
                let secs = bench.measure(&p, &group, d).await?;
                params.destroy();
                let flops = lab::fma_flops(n, u64::from(steps), 8);
                let values =
                    bench.read_back(out.first().ok_or(LabError::Failed(String::new()))?, n * 4).await?;
                // The first 1,024 invocations are read back: invocation i holds fma_expected(i).
                let ok = values.iter().take(1024).enumerate().all(|(i, v)| {
                    let e = fma_expected(i as u32, steps);
                    v.is_finite() && (v - e).abs() <= tolerance * e.abs()
                });
                if !ok || values.is_empty() {
                    return Err(LabError::Invalid("fma_chain"));
                }
                let rates: Vec<f64> = secs.iter().filter_map(|s| lab::rate(flops, *s)).collect();
                return lab::spread(&rates).ok_or(LabError::Invalid("fma_chain"));
            }
            params.destroy();
            steps *= 2;
        }
    }
    .await;
    for b in &out {
        b.destroy();
    }
    result
}

/// FLOP/s of the tiled matmul, the edge doubled from 256 until a launch lasts 20 ms (at most
/// 2,048, and within the buffer limit).
async fn matmul(
    bench: &Bench,
    stream: &[GpuComputePipeline],
    max_bytes: u64,
) -> Result<(u64, Spread), LabError> {
    let p = bench.pipeline(shaders::MATMUL, "matmul").await?;
    let mut edge: u64 = 256;
    loop {
        let bytes = edge * edge * 4;
        let bufs = bench.buffers(bytes, 3).await?;
        let result = async {
            // Fill A with 0.1 and B with 0.2 with the stream `init` kernel.
            let n4 = bytes / lab::VEC4_BYTES;
            let (d4, row4) = dispatch(n4, bench.max_per_dimension);
            let fill_params = bench.params(n4, row4, 0)?;
            let fill = bench.bind(&bufs.iter().collect::<Vec<_>>(), &fill_params);
            if let Some(init) = stream.first() {
                bench.time(init, &fill, d4, 1).await?;
            }
            fill_params.destroy();
            let params = bench.params(edge, 0, 0)?;
            let group = bench.bind(&bufs.iter().collect::<Vec<_>>(), &params);
            let tiles = u32::try_from(edge / shaders::TILE).unwrap_or(1);
            let single = bench.time(&p, &group, (tiles, tiles), 1).await?;
            let bigger = edge * 2;
            if single < SAMPLE_S && bigger <= 2048 && bigger * bigger * 4 <= max_bytes.max(1 << 20) {
                params.destroy();
                return Ok(None);
            }
            let secs = bench.measure(&p, &group, (tiles, tiles)).await?;
            params.destroy();
            let c = bufs.get(2).ok_or(LabError::Failed(String::new()))?;
            let values = bench.read_back(c, bytes).await?;
            if !values
                .iter()
                .all(|v| v.is_finite() && (v - matmul_expected(edge)).abs() <= 1e-3 * matmul_expected(edge))
                || values.is_empty()
            {
                return Err(LabError::Invalid("matmul"));
            }
            let flops = lab::matmul_flops(edge, edge, edge);
            let rates: Vec<f64> = secs.iter().filter_map(|s| lab::rate(flops, *s)).collect();
            lab::spread(&rates).map(|s| Some((edge, s))).ok_or(LabError::Invalid("matmul"))
        }
        .await;
        for b in &bufs {
            b.destroy();
        }
        match result? {
            Some(done) => return Ok(done),
            None => edge *= 2,
        }
    }
}
