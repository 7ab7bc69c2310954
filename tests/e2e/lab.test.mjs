// The WebGPU lab: a short sweep on Chromium's software adapter (SwiftShader) in both languages,
// validated positive figures, the software-adapter flag, the hand-off to the estimator, Cancel,
// leaving mid-run, and the page without WebGPU.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { serve, launch, launchWebGpu, newPage, finish, waitForApp, live } from './harness.mjs';

let server, gpuBrowser, plainBrowser;
before(async () => { server = await serve(); gpuBrowser = await launchWebGpu(); plainBrowser = await launch(); });
after(async () => { await gpuBrowser?.close(); await plainBrowser?.close(); await server?.close(); });

/** "1.2 GB/s" → 1.2e9 (the median, first number of a cell). */
function rate(text) {
  const m = text.match(/([\d.]+)\s*([kMGTP]?)(?:B|FLOP)\/s/);
  assert.ok(m, `a rate in "${text}"`);
  return parseFloat(m[1]) * { '': 1, k: 1e3, M: 1e6, G: 1e9, T: 1e12, P: 1e15 }[m[2]];
}

const WORDS = {
  en: { software: 'Software adapter: this measures the CPU', measured: 'measured in the browser', cancelled: 'Cancelled.' },
  zh: { software: '软件适配器：这里测到的是 CPU', measured: '浏览器实测', cancelled: '已取消。' },
};

for (const lang of ['en', 'zh']) {
  test(`${lang}: a short sweep on the software adapter gives validated figures and feeds the estimator`, { timeout: 120000 }, async () => {
    const page = await newPage(gpuBrowser);
    // The reader's estimator scenario (a 70B model) is kept when the measured GPU replaces its GPU.
    await page.goto(`${server.url}${lang}/estimate/`);
    await page.waitForSelector('#total-per-gpu');
    await page.click('button[data-preset="70b-fp16"]');
    await page.waitForSelector('.verdict.bad');
    await page.waitForTimeout(1200); // the state is saved once the edits pause
    await page.goto(`${server.url}${lang}/lab/bandwidth/?cap=4&vs=a100-sxm-80gb`);
    await waitForApp(page);
    await page.waitForSelector('#lab-adapter dl');
    assert.match(await page.locator('#lab-adapter').innerText(), /swiftshader/i);
    assert.ok((await page.locator('.lab-software').innerText()).includes(WORDS[lang].software));
    assert.equal(await page.locator('#lab-cap').inputValue(), '4');
    await page.click('#lab-run');
    assert.equal(await page.locator('#lab-cancel').isVisible(), true, 'Cancel shows while it runs');
    await page.waitForSelector('#lab-compute', { timeout: 110000 });
    // Three sizes (1, 2, 4 MiB) × four kernels, every one a positive rate.
    const cells = await page.locator('#lab-bandwidth td').allInnerTexts();
    assert.equal(cells.length, 12);
    for (const c of cells) assert.ok(rate(c) > 0, c);
    assert.ok(rate(await page.locator('#lab-compute tr[data-row=fma32] td').innerText()) > 0);
    assert.ok(rate(await page.locator('#lab-compute tr[data-row=matmul] td').innerText()) > 0);
    assert.equal(await page.locator('#lab-chart svg').count(), 1);
    // The size axis ticks at the sizes that ran (1, 2, 4 MiB), not at powers of ten in MiB.
    const ticks = (await page.locator('#lab-chart svg text').allTextContents()).map((t) => t.trim());
    for (const t of ['1 MiB', '2 MiB', '4 MiB']) assert.ok(ticks.includes(t), `${t} in ${ticks.join(' | ')}`);
    assert.ok(!ticks.some((t) => /^(977 KiB|9\.54 MiB)$/.test(t)), ticks.join(' | '));
    assert.equal(await page.locator('#lab-roofline svg').count(), 1);
    assert.match(await page.locator('#lab-vs').innerText(), /A100/);
    assert.ok(!/NaN|undefined/.test(await page.locator('#lab-results').innerText()));
    assert.equal(await page.locator('#lab-cancel').isVisible(), false);
    await page.click('#lab-estimator');
    await page.waitForSelector('html[data-live] article[data-page=estimate] #total-per-gpu');
    assert.match(page.url(), new RegExp(`/${lang}/estimate/\\?v=1&s=`));
    assert.equal(await page.locator('#gpu').inputValue(), 'custom');
    const state = new URL(page.url()).search.split('s=')[1].split('&')[0];
    const scenario = JSON.parse(Buffer.from(state, 'base64url').toString());
    assert.equal(scenario.gpu.id, 'browser-measured');
    assert.equal(scenario.model, 'llama-3.1-70b', 'the reader\'s model is kept');
    assert.ok(scenario.gpu.name.includes(WORDS[lang].measured), scenario.gpu.name);
    assert.ok(scenario.gpu.memory_bandwidth_bytes_per_s > 0 && scenario.gpu.peak_flops.fp32 > 0);
    assert.equal(await page.locator('.banner.error').count(), 0, 'the estimator accepts the measured GPU');
    await finish(page);
  });
}

test('Cancel stops a run, and leaving the page mid-run is clean', { timeout: 60000 }, async () => {
  const page = await newPage(gpuBrowser);
  // Without a chosen size, a software adapter gets a short sweep by default.
  await page.goto(`${server.url}en/lab/bandwidth/`);
  await page.waitForSelector('#lab-adapter dl');
  assert.equal(await page.locator('#lab-cap').inputValue(), '16');
  await page.goto(`${server.url}en/lab/bandwidth/?cap=64`);
  await page.waitForSelector('#lab-adapter dl');
  assert.equal(await page.locator('#lab-cap').inputValue(), '64');
  await page.click('#lab-run');
  await page.waitForFunction(() => /Step \d+ of/.test(document.querySelector('#lab-progress')?.textContent || ''));
  await page.click('#lab-cancel');
  await page.waitForFunction(() => document.querySelector('#lab-progress')?.textContent === 'Cancelled.', null, { timeout: 30000 });
  assert.equal(await page.locator('#lab-compute').count(), 0, 'no figures from a cancelled run');
  assert.equal(await page.locator('#lab-run').isEnabled(), true);
  await page.click('#lab-run');
  await page.waitForFunction(() => /Step \d+ of/.test(document.querySelector('#lab-progress')?.textContent || ''));
  await page.goto(`${server.url}en/chapters/memory-bandwidth/`);
  await page.waitForSelector('article[data-page=chapter]');
  await page.waitForTimeout(1500);
  // The chapter's widget: the same panel, with a link to the full lab.
  const widget = page.locator('.widget[data-widget=lab]');
  await live(page, '.widget[data-widget=lab]');
  await page.waitForSelector('.widget[data-widget=lab] #lab-adapter dl');
  assert.equal(await widget.locator('#lab-cap').inputValue(), '16', 'the software adapter\'s short default');
  assert.equal(await widget.locator('a[href="../../../en/lab/bandwidth/"]').count(), 1);
  await finish(page);
});

test('without WebGPU the page says so in its language and Run stays off', async () => {
  const page = await newPage(plainBrowser);
  for (const [lang, words] of [['en', /WebGPU/], ['zh', /WebGPU/]]) {
    await page.goto(`${server.url}${lang}/lab/bandwidth/`);
    await page.waitForSelector('#lab-adapter .banner.error');
    const text = await page.locator('#lab-adapter').innerText();
    assert.match(text, words);
    if (lang === 'zh') assert.match(text, /请|浏览器/);
    assert.equal(await page.locator('#lab-run').isDisabled(), true);
  }
  await finish(page);
});
