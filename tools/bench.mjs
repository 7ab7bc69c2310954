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
await browser.close();
await server.close();
