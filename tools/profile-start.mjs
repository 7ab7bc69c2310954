// Where a cold start's time goes, route by route (not a test): at 4x CPU throttling, each load in
// a fresh context, it prints when the JS glue and the wasm finished downloading, when
// DOMContentLoaded ended, when the glue called WebAssembly.instantiateStreaming and when that
// resolved (compile + instantiate), and when the page's <article> entered the DOM (the bench's
// "article" time). The gap from instantiation to the article is the app's own start-up (main,
// routing, building the view); everything before it is the floor any route of this wasm pays.
// Usage: node tools/profile-start.mjs [dist] [runs] [hash ...]
import { serve, launch } from '../tests/e2e/harness.mjs';

const [dir = 'dist', runsArg = '3', ...hashes] = process.argv.slice(2);
const routes = hashes.length ? hashes : ['#/en/', '#/en/chapters/introduction', '#/en/estimate'];
const runs = Number(runsArg) || 3;
const server = await serve(dir);
const browser = await launch();
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

async function coldLoad(hash) {
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.addInitScript(() => {
    const t = (window.__start = {});
    const orig = WebAssembly.instantiateStreaming;
    if (orig) {
      WebAssembly.instantiateStreaming = function (...args) {
        t.instantiate = performance.now();
        return orig.apply(this, args).then((r) => { t.instantiated = performance.now(); return r; });
      };
    }
    new MutationObserver(() => {
      if (t.article === undefined && document.querySelector('article[data-page]')) t.article = performance.now();
    }).observe(document, { childList: true, subtree: true });
  });
  const cdp = await context.newCDPSession(page);
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 });
  await page.goto(`${server.url}${hash}`);
  await page.waitForFunction(() => window.__start.article !== undefined, null, { timeout: 60000 });
  const r = await page.evaluate(() => {
    const done = (re) => Math.max(0, ...performance.getEntriesByType('resource').filter((e) => re.test(e.name)).map((e) => e.responseEnd));
    const nav = performance.getEntriesByType('navigation')[0];
    return { glue: done(/\.js$/), wasm: done(/\.wasm$/), dcl: nav.domContentLoadedEventEnd, ...window.__start };
  });
  await context.close();
  return r;
}

const keys = ['glue', 'wasm', 'dcl', 'instantiate', 'instantiated', 'article'];
console.log(`Cold start at 4x CPU throttling, median of ${runs} loads, ms from navigation:`);
console.log(`  ${'route'.padEnd(30)}${keys.map((k) => k.padStart(13)).join('')}   app start-up`);
for (const hash of routes) {
  const loads = [];
  for (let k = 0; k < runs; k++) loads.push(await coldLoad(hash));
  const m = Object.fromEntries(keys.map((k) => [k, median(loads.map((l) => l[k] ?? NaN))]));
  console.log(`  ${hash.padEnd(30)}${keys.map((k) => m[k].toFixed(0).padStart(13)).join('')}   ${(m.article - m.instantiated).toFixed(0).padStart(6)}`);
}
await browser.close();
await server.close();
