// Benchmarks of the built site (numbers for the README, not pass/fail tests).
//
//   1. Bundle size: raw and gzip -9 of the wasm, js, css and html in dist/.
//   2. Slider input → DOM, on the estimator page, at CPU throttling 1× and 4× (CDP
//      Emulation.setCPUThrottlingRate; 4× stands for a mid-range phone). 80 moves, round-robin over
//      every <input type="range"> of the page, each to a value from a fixed cycle (maximum,
//      minimum, middle, a quarter, three quarters), so the scenario often does not fit or is
//      invalid. Method: a MutationObserver on the whole document records performance.now() at each
//      batch of DOM changes; the move's latency is the last change it caused minus the time just
//      before the `input` event was dispatched, read after two animation frames and a task. The
//      same observer counts the DOM work of the moves (nodes added and removed, text and attribute
//      changes): a measure that the machine's load does not distort.
//   3. First render against a static snapshot of the same page: each route is rendered by the app,
//      its DOM is saved as a static HTML file (scripts removed, same stylesheet), and both are
//      loaded the same way (fresh context, 4× throttling, alternately, 5 loads each). Compared:
//      first contentful paint, and the time the page's `article[data-page]` is in the DOM.
//      Then the same moves with an arrival rate set and the "Under load" panel scrolled into
//      view (the load model runs only for a panel near the viewport).
//   4. The engine inside the browser's wasm: one full evaluation of the default scenario.
//
// Usage: node tools/bench.mjs [DIST] [--quick] [--only=size|slider|render]   (prints `uptime`'s load first: others' builds
// distort every timing on a shared machine)
import { readdirSync, readFileSync, statSync, writeFileSync, rmSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { join } from 'node:path';
import { loadavg } from 'node:os';
import { serve, launch, DIST } from '../tests/e2e/harness.mjs';
import { moveSliders } from './slider-moves.mjs';

const args = process.argv.slice(2);
const dist = args.find((a) => !a.startsWith('--')) || DIST;
const quick = args.includes('--quick');
// --only=slider or --only=render runs one of the two browser figures (a shorter run to repeat
// when the machine is quiet); --only=size prints the bundle sizes and stops (no browser).
const only = (args.find((a) => a.startsWith('--only=')) || '').slice(7);
const kib = (n) => `${(n / 1024).toFixed(1)} KiB`;
const load = () => loadavg().map((l) => l.toFixed(2)).join(' ');
const pct = (xs, q) => { const s = [...xs].sort((a, b) => a - b); return s[Math.min(s.length - 1, Math.floor(q * s.length))]; };
const median = (xs) => pct(xs, 0.5);
const domText = (d) => `${d.added} nodes added, ${d.removed} removed, ${d.text} text changes, ${d.attributes} attribute changes`;

console.log(`Load average at start: ${load()}`);
console.log('Bundle size (dist/):');
console.log('  file                                   raw        gzip -9');
let totalRaw = 0, totalGz = 0;
// The files at the top of dist/ and, below it, wasm-bindgen's snippets (the lab's driver.js).
const listed = (dir) => readdirSync(join(dist, dir)).sort().flatMap((f) => {
  const rel = dir ? `${dir}/${f}` : f;
  return statSync(join(dist, rel)).isDirectory() ? (rel.startsWith('snippets') || f === 'snippets' ? listed(rel) : []) : [rel];
});
for (const f of listed('')) {
  if (!/\.(wasm|js|css|html)$/.test(f) || !statSync(join(dist, f)).isFile() || f.startsWith('bench-snapshot-')) continue;
  const bytes = readFileSync(join(dist, f));
  const gz = gzipSync(bytes, { level: 9 }).length;
  if (f !== 'gpu-primer-offline.html') { totalRaw += bytes.length; totalGz += gz; }
  console.log(`  ${f.padEnd(38)} ${kib(bytes.length).padStart(10)} ${kib(gz).padStart(11)}`);
}
console.log(`  ${'total (site, without the offline file)'.padEnd(38)} ${kib(totalRaw).padStart(10)} ${kib(totalGz).padStart(11)}`);
// The budget (issue 8): the whole site's transfer ≤ 600 KB gzip, in bytes.
const BUDGET = 600_000;
console.log(`  total gzip -9 ${totalGz} B, budget ${BUDGET} B: ${totalGz <= BUDGET ? 'within' : 'OVER'} (${totalGz - BUDGET} B)`);
if (only === 'size') process.exit(0);

const server = await serve(dist);
const browser = await launch();

async function throttled(page, rate) {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Emulation.setCPUThrottlingRate', { rate });
  return cdp;
}

// --- 2. Slider input → DOM --------------------------------------------------------------------
async function sliderLatency(rate, moves) {
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.goto(`${server.url}#/en/estimate`);
  await page.waitForSelector('#total-per-gpu');
  await page.waitForTimeout(300);
  await throttled(page, rate);
  const result = await moveSliders(page, moves);
  await context.close();
  return result;
}

// --- 2b. The same with an arrival rate set and the "Under load" panel in view ----------------
// The panel runs the load model (twelve simulations of 400 requests) only while it is near the
// viewport, and an edit of the rate alone reuses the rate-independent eleven; the figures above
// leave it out of view (the page is not scrolled). Here: a chat workload at 2 requests/s, the
// panel scrolled into view, the same round-robin moves (every move that changes the load
// model's inputs pays for it).
async function sliderLatencyUnderLoad(rate, moves) {
  const context = await browser.newContext();
  const page = await context.newPage();
  const state = { model: 'llama-3.1-8b', batch: 32, context_tokens: 2048, prompt_tokens: 1024, output_tokens: 256, arrival_rate_per_s: 2 };
  await page.goto(`${server.url}#/en/estimate?v=1&s=${Buffer.from(JSON.stringify(state)).toString('base64url')}`);
  await page.waitForSelector('#load [data-load]');
  await page.locator('#load').scrollIntoViewIfNeeded();
  await page.waitForTimeout(300);
  await throttled(page, rate);
  const result = await moveSliders(page, moves);
  await context.close();
  return result;
}

// --- 3. First render against a static snapshot -----------------------------------------------
const ROUTES = [['home', '#/en/'], ['chapter', '#/en/chapters/introduction'], ['estimator', '#/en/estimate']];

async function snapshot(name, hash) {
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.goto(`${server.url}${hash}`);
  await page.waitForSelector('article[data-page]');
  await page.waitForTimeout(500);
  let html = await page.evaluate(() => '<!doctype html>\n' + document.documentElement.outerHTML);
  await context.close();
  html = html
    .replace(/<script\b[\s\S]*?<\/script>/gi, '')
    .replace(/<link rel="(modulepreload|preload)"[^>]*>/gi, '');
  const file = `bench-snapshot-${name}.html`;
  writeFileSync(join(dist, file), html);
  return file;
}

async function firstRender(url, rate) {
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.addInitScript(() => {
    window.__paint = {};
    new PerformanceObserver((l) => {
      for (const e of l.getEntries()) window.__paint[e.name] = e.startTime;
    }).observe({ type: 'paint', buffered: true });
    const seen = () => {
      if (window.__article === undefined && document.querySelector('article[data-page]')) window.__article = performance.now();
    };
    new MutationObserver(seen).observe(document, { childList: true, subtree: true });
    document.addEventListener('DOMContentLoaded', seen);
  });
  await throttled(page, rate);
  await page.goto(url);
  await page.waitForFunction(() => window.__article !== undefined && window.__paint['first-contentful-paint'] !== undefined, null, { timeout: 60000 });
  const r = await page.evaluate(() => ({ article: window.__article, fcp: window.__paint['first-contentful-paint'] }));
  await context.close();
  return r;
}

if (only !== 'slider') {
console.log(`\nFirst render against a static snapshot of the same page, 4× CPU throttling, ${quick ? 3 : 5} cold loads each (load ${load()}):`);
console.log('  route       app FCP   static FCP  ratio   app article  static article');
const snapshots = [];
try {
  for (const [name, hash] of ROUTES) snapshots.push(await snapshot(name, hash));
  for (let i = 0; i < ROUTES.length; i++) {
    const [name, hash] = ROUTES[i];
    const app = [], stat = [];
    for (let k = 0; k < (quick ? 3 : 5); k++) {
      app.push(await firstRender(`${server.url}${hash}`, 4));
      stat.push(await firstRender(`${server.url}${snapshots[i]}`, 4));
    }
    const [af, sf] = [median(app.map((x) => x.fcp)), median(stat.map((x) => x.fcp))];
    const [aa, sa] = [median(app.map((x) => x.article)), median(stat.map((x) => x.article))];
    console.log(`  ${name.padEnd(10)} ${af.toFixed(0).padStart(6)} ms ${sf.toFixed(0).padStart(8)} ms ${(af / sf).toFixed(2).padStart(6)}× ${aa.toFixed(0).padStart(9)} ms ${sa.toFixed(0).padStart(11)} ms`);
    console.log(`             runs app FCP ${app.map((x) => x.fcp.toFixed(0)).join(', ')}; static FCP ${stat.map((x) => x.fcp.toFixed(0)).join(', ')}`);
  }
} finally {
  for (const f of snapshots) rmSync(join(dist, f), { force: true });
}
}

if (only !== 'render') {
console.log(`\nSlider input → DOM (estimator page, every slider round-robin; load ${load()}):`);
for (const rate of [1, 4]) {
  const moves = quick ? 40 : 80;
  const { out, ids, dom, domBySlider } = await sliderLatency(rate, moves);
  console.log(`  ${rate}× CPU: ${moves} moves over ${ids.length} sliders: median ${median(out).toFixed(1)} ms, p95 ${pct(out, 0.95).toFixed(1)} ms, max ${Math.max(...out).toFixed(1)} ms`);
  if (rate === 1) {
    console.log(`  DOM work (load-independent), all moves: ${domText(dom)}`);
    for (const [id, d] of Object.entries(domBySlider)) if (d.added || d.removed) console.log(`    ${id.padEnd(18)} ${domText(d)}`);
  }
}
console.log(`  With an arrival rate set (2 req/s) and the Under load panel in view (load ${load()}):`);
for (const rate of [1, 4]) {
  const moves = quick ? 20 : 40;
  const { out, ids, dom } = await sliderLatencyUnderLoad(rate, moves);
  console.log(`  ${rate}× CPU: ${moves} moves over ${ids.length} sliders: median ${median(out).toFixed(1)} ms, p95 ${pct(out, 0.95).toFixed(1)} ms, max ${Math.max(...out).toFixed(1)} ms; ${domText(dom)}`);
}
}

{
  const page = await browser.newPage();
  await page.goto(`${server.url}#/en/estimate`);
  await page.waitForSelector('#total-per-gpu');
  const ms = await page.evaluate(() => window.wasmBindings.engine_benchmark(300));
  console.log(`\nEngine in wasm (1× CPU): ${(ms * 1000).toFixed(0)} µs per full evaluation (incl. 1-1024 GPU scaling curves)`);
  await page.close();
}
console.log(`Load average at end: ${load()}`);
await browser.close();
await server.close();
