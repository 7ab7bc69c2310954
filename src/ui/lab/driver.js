// The lab's WebGPU calls (imported by `src/ui/lab/gpu.rs` through wasm-bindgen): finds the
// adapter, creates a device with the adapter's buffer limits, runs the kernels of
// `lab::shaders`, times them (GPU timestamps when the plan asks for them, else wall clock to
// `onSubmittedWorkDone`) and reads each output back. It returns the raw seconds and read-backs:
// the validation, the rates and their spread are computed in Rust (`lab::run::result_from_json`). Written by
// hand because web-sys's typed bindings and Rust's async state machines cost far more wasm.
// Every await is raced against a 15 s timer, `ctl(-1)` (the reader's Cancel) is asked between
// samples, `ctl(i)` reports that step label `i` begins, and the device is destroyed when the run
// ends, however it ends. A failure is thrown as `{ kind, message }`.

const TIMEOUT_MS = 15000;
// Timed samples per measurement, the least time each sample lasts, the most launches in one.
const SAMPLES = 10;
const SAMPLE_S = 0.02;
const MAX_LAUNCHES = 20000;
// Bytes read back from each end of an output array to validate it.
const CHECK_BYTES = 4096;

const fail = (kind, message) => ({ kind, message: message ? String(message) : '' });
const text = (e) => (typeof e === 'string' ? e : (e && e.message) || '');
const guard = (e) => (e && e.kind ? e : fail('failed', text(e)));

/** `p`, or a `timeout` failure after TIMEOUT_MS; a rejection becomes `failed`. */
function within(p) {
  let timer;
  const late = new Promise((_, reject) => {
    timer = setTimeout(() => reject(fail('timeout')), TIMEOUT_MS);
  });
  return Promise.race([Promise.resolve(p).catch((e) => Promise.reject(guard(e))), late]).finally(() =>
    clearTimeout(timer),
  );
}

/** The adapter (`adapter`) and, as JSON (`json`), what the page shows of it and its limits, or
 * `{ "error": … }`. */
export async function labAdapter() {
  try {
    const adapter = await findAdapter();
    const info = adapter.info || {};
    const limits = adapter.limits;
    const json = JSON.stringify({
      vendor: info.vendor || '',
      architecture: info.architecture || '',
      description: info.description || '',
      software: !!(info.isFallbackAdapter || adapter.isFallbackAdapter),
      timestamps: adapter.features.has('timestamp-query'),
      f16: adapter.features.has('shader-f16'),
      maxBuffer: limits.maxBufferSize,
      maxBinding: limits.maxStorageBufferBindingSize,
      maxPerDimension: limits.maxComputeWorkgroupsPerDimension,
    });
    return { adapter, json };
  } catch (e) {
    return { json: JSON.stringify({ error: guard(e) }) };
  }
}

async function findAdapter() {
  const gpu = typeof navigator !== 'undefined' ? navigator.gpu : undefined;
  if (!gpu) throw fail('nowebgpu');
  let adapter;
  try {
    adapter = await within(gpu.requestAdapter());
  } catch (e) {
    throw e.kind === 'timeout' ? e : fail('noadapter');
  }
  if (!adapter) throw fail('noadapter');
  return adapter;
}

/**
 * The whole run, as JSON (or `{ "error": … }`). `plan` (JSON): `sizes` (bytes per array), `dispatch` (for each size, then the FMA
 * kernels, then the matmul fills of edge 256, 512, 1024, 2048: `[x, y, row]`), `written` (the
 * array each of copy, mul, add, triad writes), `timestamps`, `f16`, `scalar`, `fmaN`,
 * `maxBytes`; then the shader sources.
 */
export async function labRun(adapter, planJson, stream, fma32, fma16, matmul, ctl) {
  try {
    const plan = Object.assign(JSON.parse(planJson), { stream, fma32, fma16, matmul });
    // Values that are not finite become null in JSON: Rust reads them as NaN (invalid).
    return JSON.stringify(await run(adapter, plan, ctl));
  } catch (e) {
    return JSON.stringify({ error: guard(e) });
  }
}

async function run(adapter, plan, ctl) {
  const features = [];
  if (plan.timestamps) features.push('timestamp-query');
  if (plan.f16) features.push('shader-f16');
  const limits = adapter.limits;
  let device;
  try {
    device = await within(
      adapter.requestDevice({
        requiredFeatures: features,
        requiredLimits: {
          maxBufferSize: limits.maxBufferSize,
          maxStorageBufferBindingSize: limits.maxStorageBufferBindingSize,
        },
      }),
    );
  } catch (e) {
    const f = guard(e);
    throw f.kind === 'failed' ? fail('device', f.message) : f;
  }
  if (!device) throw fail('device');
  try {
    return await bench(device, plan, ctl);
  } catch (e) {
    throw guard(e);
  } finally {
    device.destroy();
  }
}

async function bench(device, plan, ctl) {
  let lost = null;
  device.lost.then((info) => {
    lost = text(info);
  });
  const check = () => {
    if (lost !== null) throw fail('lost', lost);
    if (ctl(-1)) throw fail('cancelled');
  };
  const U = GPUBufferUsage;
  const buffer = (size, usage) => device.createBuffer({ size, usage });
  const layout = device.createBindGroupLayout({
    entries: [0, 1, 2, 3].map((binding) => ({
      binding,
      visibility: GPUShaderStage.COMPUTE,
      buffer: { type: binding === 3 ? 'uniform' : 'storage' },
    })),
  });
  const pipelineLayout = device.createPipelineLayout({ bindGroupLayouts: [layout] });
  const ts = plan.timestamps
    ? {
        set: device.createQuerySet({ type: 'timestamp', count: 2 }),
        resolve: buffer(16, U.QUERY_RESOLVE | U.COPY_SRC),
        read: buffer(16, U.MAP_READ | U.COPY_DST),
      }
    : null;

  // The error the innermost error scope caught, thrown.
  const scopeError = async () => {
    const e = await within(device.popErrorScope());
    if (e) throw fail('failed', text(e));
  };
  const pipeline = async (code, entryPoint) => {
    device.pushErrorScope('validation');
    const module = device.createShaderModule({ code });
    const p = device.createComputePipeline({ layout: pipelineLayout, compute: { module, entryPoint } });
    await scopeError();
    return p;
  };
  // Storage buffers of `bytes` each, or out-of-memory.
  const buffers = async (bytes, count) => {
    device.pushErrorScope('out-of-memory');
    const made = [];
    let thrown = null;
    try {
      for (let i = 0; i < count; i++) made.push(buffer(bytes, U.STORAGE | U.COPY_SRC));
    } catch (e) {
      thrown = e;
    }
    let scoped = true;
    await scopeError().catch(() => {
      scoped = false;
    });
    if (thrown) throw thrown;
    if (!scoped) {
      for (const b of made) b.destroy();
      throw fail('oom');
    }
    return made;
  };
  const bind = (storage, params) =>
    device.createBindGroup({
      layout,
      entries: storage
        .slice(0, 3)
        .map((b, binding) => ({ binding, resource: { buffer: b } }))
        .concat([{ binding: 3, resource: { buffer: params } }]),
    });
  const params = (n, row, k) => {
    const b = buffer(16, U.UNIFORM | U.COPY_DST);
    const v = new DataView(new ArrayBuffer(16));
    v.setUint32(0, Math.min(n, 0xffffffff), true);
    v.setUint32(4, Math.min(row, 0xffffffff), true);
    v.setFloat32(8, plan.scalar, true);
    v.setUint32(12, k, true);
    device.queue.writeBuffer(b, 0, v.buffer);
    return b;
  };
  // Runs `launches` dispatches of (x, y) workgroups in one compute pass: the seconds it took.
  const time = async (p, g, [x, y], launches) => {
    check();
    const encoder = device.createCommandEncoder();
    const pass = encoder.beginComputePass(
      ts ? { timestampWrites: { querySet: ts.set, beginningOfPassWriteIndex: 0, endOfPassWriteIndex: 1 } } : {},
    );
    pass.setPipeline(p);
    pass.setBindGroup(0, g);
    for (let i = 0; i < launches; i++) pass.dispatchWorkgroups(x, y);
    pass.end();
    if (ts) {
      encoder.resolveQuerySet(ts.set, 0, 2, ts.resolve, 0);
      encoder.copyBufferToBuffer(ts.resolve, 0, ts.read, 0, 16);
    }
    const started = performance.now();
    device.queue.submit([encoder.finish()]);
    await within(device.queue.onSubmittedWorkDone());
    const wall = (performance.now() - started) / 1000;
    check();
    if (!ts) return wall;
    await within(ts.read.mapAsync(GPUMapMode.READ));
    const [t0, t1] = new BigUint64Array(ts.read.getMappedRange());
    ts.read.unmap();
    // A zero or negative delta (quantised or reset timestamps) falls back to the wall clock
    // (as engine::lab::timestamp_seconds).
    return t1 > t0 ? Number(t1 - t0) / 1e9 : wall;
  };
  // Seconds per launch over SAMPLES samples of at least SAMPLE_S each; the launch count as
  // engine::lab::launches_for.
  const measure = async (p, g, d) => {
    const single = await time(p, g, d, 1); // warm-up, and the launch count
    const launches =
      Number.isFinite(single) && single > 0 ? Math.min(Math.max(Math.ceil(SAMPLE_S / single), 1), MAX_LAUNCHES) : MAX_LAUNCHES;
    const out = [];
    for (let i = 0; i < SAMPLES; i++) out.push((await time(p, g, d, launches)) / launches);
    return out;
  };
  // The first and last CHECK_BYTES of `src` (of `bytes`) as f32 (numbers).
  const readBack = async (src, bytes) => {
    const chunk = Math.min(CHECK_BYTES, bytes);
    const staging = buffer(2 * chunk, U.MAP_READ | U.COPY_DST);
    const encoder = device.createCommandEncoder();
    encoder.copyBufferToBuffer(src, 0, staging, 0, chunk);
    encoder.copyBufferToBuffer(src, bytes - chunk, staging, chunk, chunk);
    device.queue.submit([encoder.finish()]);
    await within(staging.mapAsync(GPUMapMode.READ));
    const values = Array.from(new Float32Array(staging.getMappedRange()));
    staging.unmap();
    staging.destroy();
    return values;
  };
  // Lets the page redraw between steps (a macrotask, so progress paints).
  const yieldToPage = () => new Promise((resolve) => setTimeout(resolve, 0));
  const dispatch = (i) => {
    const [x, y, row] = plan.dispatch[i];
    return [[x, y], row];
  };

  const stream = [];
  for (const entry of ['init', 'copy', 'mul', 'add', 'triad']) stream.push(await pipeline(plan.stream, entry));
  const sizes = plan.sizes;

  // The four memory kernels at one array size: for each, its samples and its read-back.
  const sweepOne = async (s) => {
    const bytes = sizes[s];
    const arrays = await buffers(bytes, 3);
    const [d, row] = dispatch(s);
    const prm = params(bytes / 16, row, 0);
    try {
      const group = bind(arrays, prm);
      await time(stream[0], group, d, 1);
      const out = [];
      for (let k = 0; k < 4; k++) {
        ctl(s * 4 + k);
        await yieldToPage();
        const secs = await measure(stream[k + 1], group, d);
        out.push({ secs, values: await readBack(arrays[plan.written[k]], bytes) });
      }
      return out;
    } finally {
      for (const b of arrays) b.destroy();
      prm.destroy();
    }
  };

  // The FMA-chain kernel: 65,536 invocations, steps doubled until a launch lasts 2 ms.
  const fma = async (code) => {
    const n = plan.fmaN;
    const p = await pipeline(code, 'fma_chain');
    // Three buffers, like every kernel's layout (binding one buffer twice would alias writes).
    const out = await buffers(n * 4, 3);
    const [d, row] = dispatch(sizes.length);
    let steps = 256;
    try {
      for (;;) {
        const prm = params(n, row, steps);
        const group = bind(out, prm);
        const single = await time(p, group, d, 1);
        if (single >= 0.002 || steps >= 1 << 16) {
          const secs = await measure(p, group, d);
          prm.destroy();
          return { steps, secs, values: await readBack(out[0], n * 4) };
        }
        prm.destroy();
        steps *= 2;
      }
    } finally {
      for (const b of out) b.destroy();
    }
  };

  // The tiled matmul, the edge doubled from 256 until a launch lasts 20 ms (at most 2,048, and
  // within the buffer limit).
  const matmul = async () => {
    const p = await pipeline(plan.matmul, 'matmul');
    for (let edge = 256, fill = sizes.length + 1; ; edge *= 2, fill++) {
      const bytes = edge * edge * 4;
      const bufs = await buffers(bytes, 3);
      try {
        // Fill A with 0.1 and B with 0.2 with the stream `init` kernel.
        const [d4, row4] = dispatch(fill);
        const fillParams = params(bytes / 16, row4, 0);
        await time(stream[0], bind(bufs, fillParams), d4, 1);
        fillParams.destroy();
        const prm = params(edge, 0, 0);
        const group = bind(bufs, prm);
        const tiles = edge / 16;
        const single = await time(p, group, [tiles, tiles], 1);
        const bigger = edge * 2;
        if (single < SAMPLE_S && bigger <= 2048 && bigger * bigger * 4 <= Math.max(plan.maxBytes, 1 << 20)) {
          prm.destroy();
          continue;
        }
        const secs = await measure(p, group, [tiles, tiles]);
        prm.destroy();
        return { edge, secs, values: await readBack(bufs[2], bytes) };
      } finally {
        for (const b of bufs) b.destroy();
      }
    }
  };

  // A failure after some sizes were measured keeps them (with the reason in `stopped`); a
  // failure before, or a cancel, ends the run.
  const sweep = [];
  let stopped = null;
  for (let s = 0; s < sizes.length; s++) {
    try {
      sweep.push(await sweepOne(s));
    } catch (e) {
      const f = guard(e);
      if (f.kind === 'cancelled' || !sweep.length) throw f;
      stopped = f;
      break;
    }
  }
  // Then compute. A failure here is returned with what was measured before it: Rust validates
  // in the run's order, so an invalid read-back before the failure is the error reported.
  const out = { sweep, stopped, fma32: null, fma16: null, matmul: null, failure: null };
  try {
    ctl(sizes.length * 4);
    out.fma32 = await fma(plan.fma32);
    ctl(sizes.length * 4 + 1);
    if (plan.f16) out.fma16 = await fma(plan.fma16);
    ctl(sizes.length * 4 + 2);
    out.matmul = await matmul();
  } catch (e) {
    out.failure = guard(e);
  }
  return out;
}
