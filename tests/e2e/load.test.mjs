// Serving under load in a real browser (issue 12): the arrival-rate control, the "Under load /
// 负载下" panel with its numbers, show-the-math and chart, in both languages; past the
// sustainable rate the panel says so and shows no latencies; bad rates in a link are named.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { serve, launch, newPage, finish, openMath } from './harness.mjs';

let server, browser;
before(async () => { server = await serve(); browser = await launch(); });
after(async () => { await browser?.close(); await server?.close(); });

const b64 = (obj) => Buffer.from(JSON.stringify(obj)).toString('base64url');
const SHOTS = process.env.LOAD_SHOTS;
const base = { model: 'llama-3.1-8b', batch: 32, context_tokens: 2048, prompt_tokens: 1024, output_tokens: 256 };

async function open(page, lang, scenario) {
  await page.goto(`${server.url}#/${lang}/estimate?v=1&s=${b64(scenario)}`);
  await page.waitForSelector('#total-per-gpu');
  await page.waitForSelector('#load h2', { state: 'attached' });
}

const cell = (page, id) => page.locator(`#load-${id}`).innerText();

for (const lang of ['en', 'zh']) {
  test(`${lang}: the panel shows the load numbers, the math and the chart; the rate control moves them`, async () => {
    const page = await newPage(browser);
    await open(page, lang, { ...base, arrival_rate_per_s: 2 });
    await page.waitForSelector('#load [data-load="stable"]');
    const heading = await page.locator('#load h2').innerText();
    assert.equal(heading, lang === 'en' ? 'Under load' : '负载下');
    const sustainable = await cell(page, 'sustainable');
    assert.match(sustainable, /\d/);
    const tpot1 = await cell(page, 'tpot-p50');
    assert.match(tpot1, /\d+(\.\d+)? ms/);
    assert.ok(await page.locator('#load svg').count() === 1, 'one chart');
    assert.match(await page.locator('#load svg').getAttribute('aria-label'), lang === 'en' ? /Latency/ : /延迟/);
    // Show the math names the step time and the sources.
    const math = await openMath(page, page.locator('#load details.math'), /Sarathi-Serve/);
    assert.match(math, /Sarathi-Serve/);
    assert.match(math, lang === 'en' ? /sustainable rate/i : /可持续速率/);
    // A higher rate (typed into the number field) raises the time between tokens.
    await page.fill('#arrival-rate-number', '12');
    await page.press('#arrival-rate-number', 'Enter');
    await page.waitForFunction((t) => document.getElementById('load-tpot-p50')?.innerText !== t, tpot1);
    const tpot2 = await cell(page, 'tpot-p50');
    const ms = (s) => parseFloat(s) * (s.includes('µs') ? 1e-3 : s.endsWith(' s') ? 1e3 : 1);
    assert.ok(ms(tpot2) > ms(tpot1), `${tpot1} → ${tpot2}`);
    const text = await page.locator('#load').innerText();
    assert.ok(!/NaN|Infinity|undefined/.test(text), text);
    if (SHOTS) await page.locator('#load').screenshot({ path: `${SHOTS}/load-${lang}.png` });
    await finish(page);
  });
}

for (const lang of ['en', 'zh']) {
  test(`${lang}: concurrent users run a closed loop; more users, more time between tokens`, async () => {
    const page = await newPage(browser);
    await open(page, lang, { ...base, arrival_rate_per_s: 2 });
    await page.waitForSelector('#load [data-load="stable"]');
    await page.fill('#concurrent-users-number', '4');
    await page.press('#concurrent-users-number', 'Enter');
    // The panel runs the load model near the viewport only (out of view it keeps its numbers):
    // a reader scrolls to it.
    await page.locator('#load').scrollIntoViewIfNeeded();
    await page.waitForSelector('#load-users');
    assert.match(await cell(page, 'users'), lang === 'en' ? /^4 users$/ : /^4 个用户$/);
    // The time-and-throughput table says it is one static batch, not each user's wait.
    assert.match(await page.locator('.performance .static-batch').innerText(), lang === 'en' ? /static batch/ : /静态批次/);
    // Users replace the arrival rate: the rate control is back at 0.
    assert.equal(await page.inputValue('#arrival-rate-number'), '0');
    assert.match(await page.locator('#load svg').getAttribute('aria-label'), lang === 'en' ? /concurrent users/ : /并发用户数/);
    const tpot4 = await cell(page, 'tpot-p50');
    await page.fill('#concurrent-users-number', '64');
    await page.press('#concurrent-users-number', 'Enter');
    await page.waitForFunction((t) => document.getElementById('load-tpot-p50')?.innerText !== t, tpot4);
    const tpot64 = await cell(page, 'tpot-p50');
    const ms = (s) => parseFloat(s) * (s.includes('µs') ? 1e-3 : s.endsWith(' s') ? 1e3 : 1);
    assert.ok(ms(tpot64) > ms(tpot4), `${tpot4} → ${tpot64}`);
    const little = lang === 'en' ? /Little's law/ : /Little 定律/;
    assert.match(await openMath(page, page.locator('#load details.math'), little), little);
    const text = await page.locator('#load').innerText();
    assert.ok(!/NaN|Infinity|undefined/.test(text), text);
    // The link keeps the users.
    await page.reload();
    await page.waitForSelector('#load-users', { state: 'attached' });
    assert.equal(await page.inputValue('#concurrent-users-number'), '64');
    if (SHOTS) await page.locator('#load').screenshot({ path: `${SHOTS}/load-users-${lang}.png` });
    await finish(page);
  });
}

test('out of view the panel keeps its numbers; scrolled to, it shows the current scenario', async () => {
  const page = await newPage(browser, { viewport: { width: 1280, height: 720 } });
  await open(page, 'en', { ...base, arrival_rate_per_s: 2 });
  await page.waitForSelector('#load [data-load="stable"]', { state: 'attached' });
  const before = await page.locator('#load-sustainable').textContent();
  // Far below the fold (the page at its top): an edit of the output length does not run the
  // load model, and the panel keeps what it showed.
  const far = await page.evaluate(() => document.getElementById('load').getBoundingClientRect().top - 1.5 * innerHeight);
  assert.ok(far > 0, `the panel starts more than half a screen below the viewport (${far}px)`);
  await page.evaluate(() => {
    const s = document.getElementById('output-tokens');
    s.value = s.max;
    s.dispatchEvent(new Event('input', { bubbles: true }));
  });
  await page.waitForFunction(() => document.getElementById('output-tokens-number').value !== '256');
  await page.waitForTimeout(200);
  assert.equal(await page.locator('#load-sustainable').textContent(), before, 'not recomputed out of view');
  await page.locator('#load').scrollIntoViewIfNeeded();
  await page.waitForFunction((t) => document.getElementById('load-sustainable')?.textContent !== t, before);
  await finish(page);
});

test('past the sustainable rate: not stable, latencies undefined; no rate: how to start', async () => {
  const page = await newPage(browser);
  await open(page, 'en', { ...base, arrival_rate_per_s: 400 });
  await page.waitForSelector('#load [data-load="unstable"]');
  assert.equal(await cell(page, 'ttft-p95'), 'undefined');
  assert.equal(await cell(page, 'concurrency'), 'undefined');
  await open(page, 'zh', base);
  assert.match(await page.locator('#load').innerText(), /设置请求到达率/);
  await finish(page);
});

test('a bad arrival rate in a link is named and dropped, the rest kept', async () => {
  const page = await newPage(browser);
  await page.goto(`${server.url}#/en/estimate?v=1&s=${b64({ ...base, arrival_rate_per_s: -4 })}`);
  await page.waitForSelector('#notices');
  const notices = await page.locator('#notices').innerText();
  assert.ok(notices.includes('arrival_rate_per_s'), notices);
  assert.equal(await page.locator('#batch-number').inputValue(), '32');
  await finish(page);
});

test('phone width, dark mode: the panel fits the screen in both languages', async () => {
  for (const lang of ['zh', 'en']) {
    const page = await newPage(browser, { viewport: { width: 390, height: 844 }, colorScheme: 'dark' });
    await open(page, lang, { ...base, arrival_rate_per_s: 6 });
    await page.waitForSelector('#load [data-load="stable"]');
    await page.locator('#load').scrollIntoViewIfNeeded();
    const overflow = await page.evaluate(() => document.getElementById('load').scrollWidth - document.getElementById('load').clientWidth);
    assert.ok(overflow <= 1, `no horizontal overflow (${overflow}px)`);
    if (SHOTS) await page.locator('#load').screenshot({ path: `${SHOTS}/load-phone-dark-${lang}.png` });
    await finish(page);
  }
});

test('beside the static batch\'s time to first token, what one user waits in a closed loop of as many users (zh and en, phone, dark)', async () => {
  for (const lang of ['en', 'zh']) {
    const page = await newPage(browser, { viewport: { width: 390, height: 844 }, colorScheme: 'dark' });
    await open(page, lang, base);
    const wait = page.locator('#ttft-one-user');
    await wait.waitFor({ state: 'visible' });
    const text = await wait.innerText();
    assert.match(text, lang === 'en' ? /^One user's wait: with these 32 sequences as 32 users/ : /^单个用户的等待：把这 32 个序列看作 32 个用户/);
    // The user waits less than the whole batch's prefill, which the table's row shows.
    const secs = (s) => parseFloat(s) * (s.includes('ms') ? 1e-3 : s.includes('µs') ? 1e-6 : 1);
    const batch = secs(await page.locator('#ttft').innerText());
    const p50 = secs(text.match(lang === 'en' ? /waits (\d+(?:\.\d+)?\s*(?:ms|µs|s))/ : /时间为 (\d+(?:\.\d+)?\s*(?:ms|µs|s))/)[1]);
    assert.ok(p50 > 0 && p50 < batch, `${p50} < ${batch}: ${text}`);
    assert.match(await page.locator('.perf-table').innerText(), lang === 'en' ? /whole batch's prefill/ : /整批预填充/);
    // With the load model on, the panel points to it instead.
    await page.fill('#concurrent-users-number', '8');
    await page.press('#concurrent-users-number', 'Enter');
    await page.waitForFunction(() => /Under load|负载下/.test(document.getElementById('ttft-one-user')?.innerText ?? ''));
    await finish(page);
  }
});

for (const lang of ['en', 'zh']) {
  test(`${lang}: prefill workers split the deployment in two pools: GPUs, transfer, the limiting pool and the math; back to 0, one pool again`, async () => {
    const page = await newPage(browser);
    await open(page, lang, { ...base, arrival_rate_per_s: 2 });
    await page.waitForSelector('#load [data-load="stable"]');
    assert.equal(await page.locator('#load-transfer').count(), 0);
    await page.fill('#prefill-workers-number', '1');
    await page.press('#prefill-workers-number', 'Enter');
    // The panel follows the scenario while it is near the viewport.
    await page.locator('#load').scrollIntoViewIfNeeded();
    // Two pools are two simulations per point: give the panel time on a slow machine.
    await page.waitForSelector('#load-transfer', { timeout: 60000 });
    // One 1-GPU prefill worker beside the one decode GPU.
    assert.equal(await cell(page, 'gpus'), '1 + 1 = 2');
    assert.match(await cell(page, 'transfer'), /MB · [\d.]+ (ms|µs)/);
    assert.match(await cell(page, 'limited'), lang === 'en' ? /workers/ : /节点/);
    assert.equal(await page.locator('#kv-link').inputValue(), 'auto');
    const math = await openMath(page, page.locator('#load details.math'), /DistServe/);
    assert.match(math, lang === 'en' ? /Disaggregated: prefill workers × GPUs each = 1 × 1, plus decode GPUs: 1; 2 in all/ : /分离式部署：prefill 节点数 × 每个节点的 GPU 数 = 1 × 1，加上 1 张 decode GPU，共 2 张/);
    assert.ok(!/[{}]/.test(math), math);
    // The link menu sets the key; PCIe inside one node is slower than NVLink.
    const nvlink = await cell(page, 'transfer');
    await page.selectOption('#kv-link', 'pcie');
    await page.locator('#load').scrollIntoViewIfNeeded();
    await page.waitForFunction((t) => document.getElementById('load-transfer')?.innerText !== t, nvlink, { timeout: 60000 });
    const text = await page.locator('#load').innerText();
    assert.ok(!/NaN|Infinity|undefined/.test(text), text);
    // 0 workers: one pool, the rows gone and the link key cleared.
    await page.fill('#prefill-workers-number', '0');
    await page.press('#prefill-workers-number', 'Enter');
    await page.locator('#load').scrollIntoViewIfNeeded();
    await page.waitForSelector('#load-transfer', { state: 'detached', timeout: 60000 });
    assert.equal(await page.locator('#kv-link').count(), 0);
    await finish(page);
  });
}
