// CPU profile of the bench's slider scenario (80 moves round-robin over every slider, 4x CPU
// throttling): prints the 25 largest self times by function. "(program)" is the browser's own
// work (style, layout, paint); wasm functions are unnamed in a release build.
// Usage: node tools/profile-slider.mjs dist
import { serve, launch } from '../tests/e2e/harness.mjs';
import { moveSliders } from './slider-moves.mjs';
const server = await serve(process.argv[2]);
const browser = await launch();
const context = await browser.newContext();
const page = await context.newPage();
await page.goto(`${server.url}#/en/estimate`);
await page.waitForSelector('#total-per-gpu');
await page.waitForTimeout(500);
const cdp = await context.newCDPSession(page);
await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 });
await cdp.send('Profiler.enable');
await cdp.send('Profiler.setSamplingInterval', { interval: 200 });
await cdp.send('Profiler.start');
await moveSliders(page, 80);
const { profile } = await cdp.send('Profiler.stop');
const dt = {}; const byId = new Map(profile.nodes.map((n) => [n.id, n]));
for (let i = 0; i < profile.samples.length; i++) dt[profile.samples[i]] = (dt[profile.samples[i]] || 0) + (profile.timeDeltas[i] || 0);
const self = {};
for (const n of profile.nodes) { const k = n.callFrame.functionName || `(${n.callFrame.url.split('/').pop()})`; self[k] = (self[k] || 0) + (dt[n.id] || 0); }
const total = Object.values(self).reduce((a, b) => a + b, 0);
console.log('total ms', (total / 1000).toFixed(0));
for (const [k, v] of Object.entries(self).sort((a, b) => b[1] - a[1]).slice(0, 25)) console.log((v / 1000).toFixed(1).padStart(8), k.slice(0, 110));
await browser.close(); server.close?.();
process.exit(0);
