// The lab's WebGPU calls, for src/ui/lab/gpu.rs (see there, and lab::run for the plan it is given
// and what it returns): cheaper in wasm than web-sys bindings. Failures are `{ kind, message }`.
const TIMEOUT_MS = 15000;
const SAMPLES = 10;
const SAMPLE_S = 0.02;
const MAX_LAUNCHES = 20000;
const CHECK_BYTES = 4096;

const fail = (kind, message) => ({ kind, message: message ? String(message) : '' });
const text = (e) => (typeof e === 'string' ? e : (e && e.message) || '');
const guard = (e) => (e && e.kind ? e : fail('failed', text(e)));

function within(p) {
  let timer;
  const late = new Promise((_, reject) => {
    timer = setTimeout(() => reject(fail('timeout')), TIMEOUT_MS);
  });
  return Promise.race([Promise.resolve(p).catch((e) => Promise.reject(guard(e))), late]).finally(() =>
    clearTimeout(timer),
  );
}

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

export async function labRun(adapter, planJson, stream, fma32, fma16, matmul, ctl) {
  try {
    const plan = Object.assign(JSON.parse(planJson), { stream, fma32, fma16, matmul });
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
    return t1 > t0 ? Number(t1 - t0) / 1e9 : wall;
  };
  const measure = async (p, g, d) => {
    const single = await time(p, g, d, 1);
    const launches =
      Number.isFinite(single) && single > 0 ? Math.min(Math.max(Math.ceil(SAMPLE_S / single), 1), MAX_LAUNCHES) : MAX_LAUNCHES;
    const out = [];
    for (let i = 0; i < SAMPLES; i++) out.push((await time(p, g, d, launches)) / launches);
    return out;
  };
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
  const yieldToPage = () => new Promise((resolve) => setTimeout(resolve, 0));
  const dispatch = (i) => {
    const [x, y, row] = plan.dispatch[i];
    return [[x, y], row];
  };

  const stream = [];
  for (const entry of ['init', 'copy', 'scale', 'add', 'triad']) stream.push(await pipeline(plan.stream, entry));
  const sizes = plan.sizes;

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

  const fma = async (code) => {
    const n = plan.fmaN;
    const p = await pipeline(code, 'fma_chain');
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

  const matmul = async () => {
    const p = await pipeline(plan.matmul, 'matmul');
    for (let edge = 256, fill = sizes.length + 1; ; edge *= 2, fill++) {
      const bytes = edge * edge * 4;
      const bufs = await buffers(bytes, 3);
      try {
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
