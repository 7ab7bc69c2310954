// Benchmarks of the built site (numbers for the README, not pass/fail tests), each against its
// budget:
//
//   1. Size, gzip -9: each bundle of the app (its wasm, glue, boot script and snippets: what a
//      page loads) ≤ 600,000 B; each chapter page's HTML + the stylesheet ≤ 60,000 B; the
//      offline file ≤ 2,000,000 B.
//   2. A chapter page with the app against the same page with JavaScript off, 4× CPU throttling
//      (CDP Emulation.setCPUThrottlingRate), cold loads in turn: largest contentful paint (the
//      browser's `largest-contentful-paint` entries, the last one before any input), ratio ≤ 1.2;
//      cumulative layout shift (`layout-shift` entries without recent input) once the app has
//      mounted the widgets in view and again after scrolling the whole page (which mounts every
//      widget), ≤ 0.05.
//   3. Interaction to next paint on the estimator, as the browser reports it: trusted key presses
//      (CDP Input.dispatchKeyEvent through playwright) on every slider, Arrow keys up and down,
//      timed by the Event Timing API (`event` entries: input delay, handlers, style, layout and
//      paint up to the next frame), one duration per interaction (the longest of its events);
//      interactions under the API's 16 ms floor are counted as 16 ms. p75, p95 (budget ≤ 50 ms at
//      4×) and the worst, at 1× and 4×.
//   4. The engine inside the browser's wasm: one full evaluation of the default scenario.
//
// Usage: node tools/bench.mjs [DIST] [--quick] [--only=size|paint|inp]   (prints `uptime`'s load
// first: other builds distort every timing on a shared machine)
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { join } from 'node:path';
import { loadavg } from 'node:os';
import { serve, launch, DIST } from '../tests/e2e/harness.mjs';

const args = process.argv.slice(2);
const dist = args.find((a) => !a.startsWith('--')) || DIST;
const quick = args.includes('--quick');
const only = (args.find((a) => a.startsWith('--only=')) || '').slice(7);
const load = () => loadavg().map((l) => l.toFixed(2)).join(' ');
const pct = (xs, q) => { const s = [...xs].sort((a, b) => a - b); return s[Math.min(s.length - 1, Math.floor(q * s.length))]; };
const median = (xs) => pct(xs, 0.5);
const gz = (file) => gzipSync(readFileSync(join(dist, file)), { level: 9 }).length;
const verdict = (ok) => (ok ? 'within' : 'OVER');

console.log(`Load average at start: ${load()}`);

// --- 1. Size ------------------------------------------------------------------------------------
{
  const top = readdirSync(dist);
  // Each bundle is one Trunk build in app/NAME/: its glue, its wasm and the snippets it imports.
  const own = (dir) => readdirSync(join(dist, dir)).flatMap((f) => {
    const rel = `${dir}/${f}`;
    return statSync(join(dist, rel)).isDirectory() ? own(rel) : [rel];
  });
  console.log('Bundles (what a page loads), gzip -9, budget 600,000 B each:');
  for (const bundle of ['course', 'estimator', 'planner', 'tools', 'classroom']) {
    // wasm-bindgen writes every snippet of the crate into each build (the lab's driver into
    // all five), but a page fetches only those its glue imports.
    const built = own(`app/${bundle}`).filter((f) => f.endsWith('.js') || f.endsWith('_bg.wasm'));
    const glue = built.filter((f) => !f.includes('/snippets/')).map((f) => readFileSync(join(dist, f), 'utf8')).join('');
    const imported = built.filter((f) => !f.includes('/snippets/') || glue.includes(f.slice(f.indexOf('snippets/'))));
    const files = [...imported, top.find((f) => new RegExp(`^boot-${bundle}-.*\\.js$`).test(f))];
    const sizes = files.map((f) => [f, gz(f)]);
    const total = sizes.reduce((a, [, n]) => a + n, 0);
    const short = (f) => f.replace(`app/${bundle}/`, '').replace(/-[0-9a-f]+(?=[._])/, '');
    console.log(`  ${bundle.padEnd(9)} ${String(total).padStart(8)} B  ${verdict(total <= 600_000)}  (${sizes.map(([f, n]) => `${short(f)} ${n}`).join(', ')})`);
  }
  const css = top.find((f) => /^style-.*\.css$/.test(f));
  const cssGz = gz(css);
  const chapters = ['en', 'zh'].flatMap((lang) => readdirSync(join(dist, lang, 'chapters')).map((s) => `${lang}/chapters/${s}/index.html`));
  const pages = chapters.map((f) => [f, gz(f) + cssGz]).sort((a, b) => b[1] - a[1]);
  console.log(`Chapter pages, HTML + stylesheet (${cssGz} B), gzip -9, budget 60,000 B: largest ${pages[0][1]} B (${pages[0][0]}) ${verdict(pages[0][1] <= 60_000)}, median ${median(pages.map((p) => p[1]))} B`);
  const offline = statSync(join(dist, 'gpu-primer-offline.html')).size;
  console.log(`Offline file: ${offline} B, budget 2,000,000 B: ${verdict(offline <= 2_000_000)}`);
}
if (only === 'size') process.exit(0);

const server = await serve(dist);
const browser = await launch();

async function throttled(page, rate) {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Emulation.setCPUThrottlingRate', { rate });
  return cdp;
}

// --- 2. Largest contentful paint and layout shift -------------------------------------------
const observe = () => {
  window.__lcp = 0;
  window.__cls = 0;
  new PerformanceObserver((l) => { for (const e of l.getEntries()) window.__lcp = e.startTime; })
    .observe({ type: 'largest-contentful-paint', buffered: true });
  new PerformanceObserver((l) => { for (const e of l.getEntries()) if (!e.hadRecentInput) window.__cls += e.value; })
    .observe({ type: 'layout-shift', buffered: true });
};

async function paint(path) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  const page = await context.newPage();
  await page.addInitScript(observe);
  await throttled(page, 4);
  await page.goto(`${server.url}${path}`, { waitUntil: 'load' });
  await page.waitForSelector('html[data-live]', { timeout: 60000 });
  await page.waitForTimeout(1000);
  const lcp = await page.evaluate(() => window.__lcp);
  const clsMounted = await page.evaluate(() => window.__cls);
  const clsScrolled = await page.evaluate(async () => {
    const step = Math.floor(innerHeight * 0.8);
    for (let y = 0; y < document.body.scrollHeight; y += step) {
      scrollTo(0, y);
      await new Promise((r) => setTimeout(r, 250));
    }
    return window.__cls;
  });
  await context.close();
  return { lcp, clsMounted, clsScrolled };
}

// With JavaScript off the init script does not run either: the LCP of the static page is read
// from a page that has the observers but not the app (the same HTML with the module script
// blocked), which paints what a reader without scripts sees.
async function paintStatic(path) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  await context.route(/\/boot-[a-z]+-[0-9a-f]+\.js$/, (r) => r.abort());
  const page = await context.newPage();
  page.on('requestfailed', () => {});
  await page.addInitScript(observe);
  await throttled(page, 4);
  await page.goto(`${server.url}${path}`, { waitUntil: 'load' });
  await page.waitForTimeout(1000);
  const lcp = await page.evaluate(() => window.__lcp);
  await context.close();
  return lcp;
}

if (!only || only === 'paint') {
  const runs = quick ? 3 : 5;
  console.log(`\nChapter pages, 4× CPU throttling, ${runs} cold loads each with the app and without (load ${load()}); budgets LCP ratio ≤ 1.2, CLS ≤ 0.05:`);
  console.log('  page                              LCP app   LCP static  ratio   CLS mounted  CLS scrolled');
  for (const path of ['en/chapters/introduction/', 'en/chapters/memory-capacity/', 'zh/chapters/mig/', 'en/chapters/nvlink/']) {
    const app = [], stat = [];
    for (let k = 0; k < runs; k++) {
      app.push(await paint(path));
      stat.push(await paintStatic(path));
    }
    const [la, ls] = [median(app.map((x) => x.lcp)), median(stat)];
    const cm = Math.max(...app.map((x) => x.clsMounted)), cs = Math.max(...app.map((x) => x.clsScrolled));
    console.log(`  ${path.padEnd(32)} ${la.toFixed(0).padStart(7)} ms ${ls.toFixed(0).padStart(9)} ms ${(la / ls).toFixed(2).padStart(6)}× ${cm.toFixed(4).padStart(11)} ${cs.toFixed(4).padStart(13)}`);
    console.log(`    runs: LCP app ${app.map((x) => x.lcp.toFixed(0)).join(', ')}; static ${stat.map((x) => x.toFixed(0)).join(', ')}`);
  }
}

// --- 3. Interaction to next paint ---------------------------------------------------------------
async function inp(rate, presses) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  const page = await context.newPage();
  await page.goto(`${server.url}en/estimate/`);
  await page.waitForSelector('html[data-live] #total-per-gpu');
  await page.evaluate(() => {
    window.__events = new Map();
    new PerformanceObserver((l) => {
      for (const e of l.getEntries()) {
        if (!e.interactionId) continue;
        window.__events.set(e.interactionId, Math.max(window.__events.get(e.interactionId) ?? 0, e.duration));
      }
    }).observe({ type: 'event', durationThreshold: 16, buffered: true });
  });
  await throttled(page, rate);
  const sliders = await page.locator('article[data-page=estimate] input[type=range]').count();
  for (let i = 0; i < sliders; i++) {
    const slider = page.locator('article[data-page=estimate] input[type=range]').nth(i);
    if (!(await slider.isVisible())) continue;
    await slider.focus();
    for (let k = 0; k < presses; k++) {
      await page.keyboard.press(k < presses / 2 ? 'ArrowRight' : 'ArrowLeft');
      await page.waitForTimeout(120);
    }
  }
  await page.waitForTimeout(500);
  const r = await page.evaluate(() => ({ count: performance.interactionCount, durations: [...window.__events.values()] }));
  await context.close();
  const all = [...r.durations, ...Array(Math.max(0, r.count - r.durations.length)).fill(16)];
  return { sliders, count: r.count, all };
}

if (!only || only === 'inp') {
  console.log(`\nInteraction to next paint on the estimator (Event Timing, trusted key presses on every slider; load ${load()}), budget p95 ≤ 50 ms at 4×:`);
  for (const rate of [1, 4]) {
    const { sliders, count, all } = await inp(rate, quick ? 4 : 8);
    console.log(`  ${rate}× CPU: ${count} interactions over ${sliders} sliders: p75 ${pct(all, 0.75).toFixed(0)} ms, p95 ${pct(all, 0.95).toFixed(0)} ms, worst ${Math.max(...all).toFixed(0)} ms${rate === 4 ? `  ${verdict(pct(all, 0.95) <= 50)}` : ''}`);
  }
}

// --- 4. The engine in the browser's wasm ------------------------------------------------------
if (!only) {
  const page = await browser.newPage();
  await page.goto(`${server.url}en/estimate/`);
  await page.waitForSelector('html[data-live] #total-per-gpu');
  const ms = await page.evaluate(() => window.wasmBindings.engine_benchmark(300));
  console.log(`\nEngine in wasm (1× CPU): ${(ms * 1000).toFixed(0)} µs per full evaluation (incl. 1-1024 GPU scaling curves)`);
  await page.close();
}
console.log(`Load average at end: ${load()}`);
await browser.close();
await server.close();
