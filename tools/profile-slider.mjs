// CPU profile of the bench's slider scenario (80 moves round-robin over every slider, 4x CPU
// throttling): prints the DOM work of the moves, the time by kind (wasm, JS, the browser's own
// work, garbage collection, idle) and the 25 largest self times by function, each also as a share
// of the total (shares are steadier than times on a loaded machine). "(program)" is the browser's
// own work (style, layout, paint); wasm functions are unnamed in a release build. With --trace,
// a second run of the same moves records a timeline and splits the renderer's main-thread time
// by event (style recalculation, layout, paint, script …).
// Usage: node tools/profile-slider.mjs dist [--trace] [--callers=TEXT]
// Function names: a release build's wasm has none (wasm-opt strips them). For a copy of dist/ with
// names, run wasm-bindgen 0.2.130 (`--target web --out-name gpu-primer`) on
// target/wasm32-unknown-unknown/release/gpu-primer.wasm, put its _bg.wasm in place of dist's, and
// replace that file's sha384 in index.html's integrity attribute.
import { serve, launch } from '../tests/e2e/harness.mjs';
import { moveSliders } from './slider-moves.mjs';
const server = await serve(process.argv[2]);
const browser = await launch();
const pct = (v, total) => `${((100 * v) / total).toFixed(1)}%`.padStart(6);

async function open() {
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.goto(`${server.url}en/estimate/`);
  await page.waitForSelector("html[data-live]");
  await page.waitForSelector('#total-per-gpu');
  await page.waitForTimeout(500);
  const cdp = await context.newCDPSession(page);
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 });
  return { context, page, cdp };
}

{
  const { context, page, cdp } = await open();
  await cdp.send('Profiler.enable');
  await cdp.send('Profiler.setSamplingInterval', { interval: 200 });
  await cdp.send('Profiler.start');
  const { dom } = await moveSliders(page, 80);
  const { profile } = await cdp.send('Profiler.stop');
  const dt = {};
  for (let i = 0; i < profile.samples.length; i++) dt[profile.samples[i]] = (dt[profile.samples[i]] || 0) + (profile.timeDeltas[i] || 0);
  const self = {};
  const kinds = { wasm: 0, 'JS and DOM calls': 0, '(program)': 0, '(garbage collector)': 0, '(idle)': 0 };
  for (const n of profile.nodes) {
    const k = n.callFrame.functionName || `(${n.callFrame.url.split('/').pop()})`;
    const v = dt[n.id] || 0;
    self[k] = (self[k] || 0) + v;
    const kind = k in kinds ? k : n.callFrame.url.startsWith('wasm://') || /^wasm-function/.test(k) ? 'wasm' : 'JS and DOM calls';
    kinds[kind] += v;
  }
  const total = Object.values(self).reduce((a, b) => a + b, 0);
  // Total time per function with its callees (each function once per stack).
  const parent = new Map();
  for (const n of profile.nodes) for (const c of n.children || []) parent.set(c, n.id);
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const inclusive = {};
  for (const n of profile.nodes) {
    const v = dt[n.id] || 0;
    if (!v) continue;
    const seen = new Set();
    for (let id = n.id; id !== undefined; id = parent.get(id)) {
      const f = byId.get(id).callFrame.functionName;
      if (f && !seen.has(f)) { seen.add(f); inclusive[f] = (inclusive[f] || 0) + v; }
    }
  }
  console.log(`DOM work of 80 moves: ${dom.added} nodes added, ${dom.removed} removed, ${dom.text} text changes, ${dom.attributes} attribute changes`);
  console.log(`CPU profile, 4x throttling: total ${(total / 1000).toFixed(0)} ms`);
  for (const [k, v] of Object.entries(kinds)) console.log((v / 1000).toFixed(1).padStart(8), pct(v, total), k);
  console.log('Largest self times:');
  for (const [k, v] of Object.entries(self).sort((a, b) => b[1] - a[1]).slice(0, 25)) console.log((v / 1000).toFixed(1).padStart(8), pct(v, total), k.slice(0, 110));
  console.log('Largest total times (with callees):');
  for (const [k, v] of Object.entries(inclusive).filter(([k]) => !k.startsWith('(')).sort((a, b) => b[1] - a[1]).slice(0, Number((process.argv.find((a) => a.startsWith("--top=")) || "--top=40").slice(6)))) console.log((v / 1000).toFixed(1).padStart(8), pct(v, total), k.slice(0, 130));
  // --callers=TEXT: who calls the functions whose name contains TEXT (four frames up).
  const callers = (process.argv.find((a) => a.startsWith('--callers=')) || '').slice(10);
  if (callers) {
    const paths = {};
    for (const n of profile.nodes) {
      const v = dt[n.id] || 0;
      if (!v || !n.callFrame.functionName.includes(callers)) continue;
      const chain = [];
      for (let id = parent.get(n.id); id !== undefined && chain.length < 4; id = parent.get(id)) chain.push(byId.get(id).callFrame.functionName.replace(/::h[0-9a-f]{16}/g, '').slice(0, 90));
      const k = chain.join(' < ');
      paths[k] = (paths[k] || 0) + v;
    }
    console.log(`Callers of ${callers}:`);
    for (const [k, v] of Object.entries(paths).sort((a, b) => b[1] - a[1]).slice(0, 12)) console.log((v / 1000).toFixed(1).padStart(8), pct(v, total), k);
  }
  await context.close();
}

if (process.argv.includes('--trace')) {
  const { context, page, cdp } = await open();
  const events = [];
  cdp.on('Tracing.dataCollected', ({ value }) => events.push(...value));
  const done = new Promise((r) => cdp.once('Tracing.tracingComplete', r));
  await cdp.send('Tracing.start', { categories: 'devtools.timeline,v8.execute', transferMode: 'ReportEvents' });
  await moveSliders(page, 80);
  await cdp.send('Tracing.end');
  await done;
  // The renderer's main thread: its top-level complete events, by name (nested ones are inside
  // their parent's duration, so only events not inside another are summed).
  const main = events.find((e) => e.name === 'thread_name' && e.args?.name === 'CrRendererMain');
  const top = events
    .filter((e) => main && e.ph === 'X' && e.pid === main.pid && e.tid === main.tid && e.dur)
    .sort((a, b) => a.ts - b.ts);
  const by = {};
  let end = 0;
  let total = 0;
  for (const e of top) {
    if (e.ts < end) continue;
    end = e.ts + e.dur;
    by[e.name] = (by[e.name] || 0) + e.dur;
    total += e.dur;
  }
  // Inside script: the style and layout it forced, and the same at the frame (nested events).
  const nested = {};
  for (const e of events) if (main && e.ph === 'X' && e.pid === main.pid && e.tid === main.tid && e.dur && /^(UpdateLayoutTree|Layout|Paint|PrePaint|Layerize|HitTest)$/.test(e.name)) nested[e.name] = (nested[e.name] || 0) + e.dur;
  console.log(`\nTimeline, 4x throttling: renderer main thread busy ${(total / 1000).toFixed(0)} ms; top-level events:`);
  for (const [k, v] of Object.entries(by).sort((a, b) => b[1] - a[1]).slice(0, 12)) console.log((v / 1000).toFixed(1).padStart(8), pct(v, total), k);
  console.log('Rendering work wherever it ran (also inside script):');
  for (const [k, v] of Object.entries(nested).sort((a, b) => b[1] - a[1])) console.log((v / 1000).toFixed(1).padStart(8), pct(v, total), k);
  await context.close();
}
await browser.close(); server.close?.();
process.exit(0);
