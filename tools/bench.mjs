// Benchmarks of the built site (numbers for the README, not pass/fail tests):
//   - bundle size: raw and gzip of the wasm, js, css and html in dist/;
//   - time from navigation start to first render (the first <article data-page> in the DOM)
//     in headless Chromium, median of 5 fresh page loads, home and one chapter.
// Usage: node tools/bench.mjs [DIST]
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { join } from 'node:path';
import { serve, launch, DIST } from '../tests/e2e/harness.mjs';

const dist = process.argv[2] || DIST;
const kib = (n) => `${(n / 1024).toFixed(1)} KiB`;

console.log('Bundle size (dist/):');
console.log('  file                                   raw        gzip -9');
let totalRaw = 0, totalGz = 0;
for (const f of readdirSync(dist).sort()) {
  if (!/\.(wasm|js|css|html)$/.test(f) || !statSync(join(dist, f)).isFile()) continue;
  const bytes = readFileSync(join(dist, f));
  const gz = gzipSync(bytes, { level: 9 }).length;
  if (f !== 'gpu-primer-offline.html') { totalRaw += bytes.length; totalGz += gz; }
  console.log(`  ${f.padEnd(38)} ${kib(bytes.length).padStart(10)} ${kib(gz).padStart(11)}`);
}
console.log(`  ${'total (site, without the offline file)'.padEnd(38)} ${kib(totalRaw).padStart(10)} ${kib(totalGz).padStart(11)}`);

const server = await serve(dist);
const browser = await launch();
const median = (xs) => { const s = [...xs].sort((a, b) => a - b); return s[Math.floor(s.length / 2)]; };
console.log('\nNavigation to first render, headless Chromium, median of 5 cold loads:');
for (const hash of ['#/en/', '#/zh/chapters/introduction']) {
  const times = [];
  for (let i = 0; i < 5; i++) {
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.addInitScript(() => {
      new MutationObserver((_, obs) => {
        if (document.querySelector('article[data-page]')) { window.__firstRender = performance.now(); obs.disconnect(); }
      }).observe(document, { childList: true, subtree: true });
    });
    await page.goto(`${server.url}${hash}`);
    await page.waitForFunction(() => window.__firstRender !== undefined, null, { timeout: 20000 });
    times.push(await page.evaluate(() => window.__firstRender));
    await context.close();
  }
  console.log(`  ${hash.padEnd(30)} ${median(times).toFixed(0)} ms  (runs: ${times.map((t) => t.toFixed(0)).join(', ')})`);
}

// Engine inside the browser (wasm): one full evaluation of the default scenario.
{
  const page = await browser.newPage();
  await page.goto(`${server.url}#/en/estimate`);
  await page.waitForSelector('#total-per-gpu');
  const ms = await page.evaluate(() => window.wasmBindings.engine_benchmark(300));
  console.log(`\nEngine in wasm (headless Chromium): ${(ms * 1000).toFixed(0)} µs per full evaluation (incl. 1-1024 GPU scaling curves)`);

  // Slider input → updated DOM: dispatch an input event on the context slider and time until
  // the results (numbers and charts) have been rewritten. The page updates synchronously inside
  // the event, so the time to the end of the dispatch is the latency; the first mutation of the
  // results is checked to have happened inside it.
  const times = await page.evaluate(async () => {
    const slider = document.getElementById('context');
    const target = document.querySelector('.est-results');
    const out = [];
    let mutated = 0;
    const observer = new MutationObserver(() => { mutated = performance.now(); });
    observer.observe(target, { childList: true, subtree: true, characterData: true, attributes: true });
    for (let i = 0; i < 60; i++) {
      const value = String(i % 2 === 0 ? 12 : 10); // 32K and 16K tokens on the nice-value scale
      mutated = 0;
      const t0 = performance.now();
      slider.value = value;
      slider.dispatchEvent(new Event('input', { bubbles: true }));
      await Promise.resolve();
      await new Promise((r) => setTimeout(r, 0));
      out.push((mutated || performance.now()) - t0);
      await new Promise((r) => requestAnimationFrame(() => r()));
    }
    observer.disconnect();
    return out;
  });
  const sorted = [...times].sort((a, b) => a - b);
  const p = (q) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
  console.log(`Slider input → updated DOM (estimator page, 60 moves of the context slider): median ${p(0.5).toFixed(1)} ms, p95 ${p(0.95).toFixed(1)} ms, max ${sorted[sorted.length - 1].toFixed(1)} ms`);
  await page.close();
}
await browser.close();
await server.close();
