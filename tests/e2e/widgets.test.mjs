// Calculators inside chapters: preset from the article, live, and one click from the estimator.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { serve, launch, newPage, finish, live } from './harness.mjs';

let server, browser;
before(async () => { server = await serve(); browser = await launch(); });
after(async () => { await browser?.close(); await server?.close(); });

test('the memory-capacity chapter opens on 70B in FP16, and more GPUs make it fit', async () => {
  const page = await newPage(browser);
  await page.goto(`${server.url}en/chapters/memory-capacity/`);
  await live(page, 'aside.widget[data-widget="memory:70b-fp16"]');
  await page.waitForSelector('aside.widget[data-widget="memory:70b-fp16"] .verdict.bad');
  assert.match(await page.locator('aside.widget .verdict').innerText(), /Does not fit/);
  await page.fill('aside.widget #gpus-number', '4'); // 2 × 80 GB is just short once the 10% margin is kept
  await page.press('aside.widget #gpus-number', 'Enter');
  await page.waitForSelector('aside.widget .verdict.ok');
  const total = await page.locator('#total-per-gpu').getAttribute('data-bytes');
  await page.click('aside.widget a.open-estimator');
  await page.waitForSelector('html[data-live] article[data-page=estimate] #total-per-gpu');
  assert.equal(await page.locator('#total-per-gpu').getAttribute('data-bytes'), total, 'the estimator opens in the same state');
  await finish(page);
});

test('every chapter calculator renders in both languages without errors', async () => {
  const page = await newPage(browser);
  for (const lang of ['zh', 'en']) {
    for (const slug of ['introduction', 'memory-bandwidth', 'nvlink', 'mig', 'training-finetuning-inference', 'capacity-estimation']) {
      await page.goto(`${server.url}${lang}/chapters/${slug}/`);
      await page.waitForSelector('aside.widget');
      // A widget is mounted, and its charts built, when it comes near the viewport.
      await live(page, 'aside.widget');
      await page.waitForSelector('aside.widget svg, aside.widget .membar');
      const hasView = await page.locator('aside.widget svg, aside.widget .membar').count();
      assert.ok(hasView > 0, `${lang}/${slug} shows a chart or a memory bar`);
      const text = (await page.locator('aside.widget').allInnerTexts()).join(' ');
      assert.ok(!/NaN|undefined/.test(text), `${lang}/${slug}`);
    }
  }
  await finish(page);
});

// The lesson widgets of chapters 4, 5, 6, 12 and 14. Each expected number is worked out here by
// hand from the chapter's formula and the catalog's figures, not read from the code.
const value = async (page, sel) => Number(await page.locator(sel).first().getAttribute('data-value'));
const setField = async (page, sel, v) => {
  await page.fill(sel, String(v));
  await page.locator(sel).dispatchEvent('change');
};
const near = (got, want, rel = 1e-9) => assert.ok(Math.abs(got - want) <= Math.abs(want) * rel, `${got} ≠ ${want}`);

test('CUDA chapter: the grid for n elements in blocks of T threads on an H100', async () => {
  const page = await newPage(browser);
  await page.goto(`${server.url}en/chapters/cuda/`);
  const w = 'aside.widget[data-widget="cuda-grid"]';
  await live(page, w);
  await page.waitForSelector(`${w} [data-k=blocks]`);
  // ceil(10,000,000 / 256) = 39,063 blocks; 39,063 × 256 − 10,000,000 = 128 idle threads.
  assert.equal(await value(page, `${w} [data-k=blocks]`), 39063);
  assert.equal(await value(page, `${w} [data-k=idle-threads]`), 128);
  // 1e7 × 12 B / 3.35e12 B/s; the launch (4 µs) against it.
  near(await value(page, `${w} [data-k=memory-time]`), 1e7 * 12 / 3.35e12);
  near(await value(page, `${w} [data-k=launch-share]`), 4e-6 / (4e-6 + 1e7 * 12 / 3.35e12));
  // 100 threads a block: ceil(1e7 / 100) = 100,000 blocks of ceil(100 / 32) = 4 warps.
  await setField(page, '#cuda-grid-t', 100);
  await page.waitForFunction(() => document.querySelector('[data-widget="cuda-grid"] [data-k=blocks]')?.dataset.value === '100000');
  assert.equal(await value(page, `${w} [data-k=warps-per-block]`), 4);
  // A small kernel: 4,096 elements in 16 blocks of 256 leave 132 − 16 = 116 SMs idle.
  await setField(page, '#cuda-grid-t', 256);
  await setField(page, '#cuda-grid-n', 4096);
  await page.waitForFunction(() => document.querySelector('[data-widget="cuda-grid"] [data-k=blocks]')?.dataset.value === '16');
  assert.equal(await value(page, `${w} [data-k=idle-sms]`), 116);
  // Out of range, or not a whole number: a message, no number.
  await setField(page, '#cuda-grid-t', 2048);
  await page.waitForSelector(`${w} .field-error`);
  assert.match(await page.locator(`${w} .field-error`).innerText(), /Threads per block T: enter a whole number from 1 to 1024/);
  assert.equal(await page.locator(`${w} [data-k=blocks]`).count(), 0);
  await setField(page, '#cuda-grid-t', 128);
  await page.waitForFunction(() => document.querySelector('[data-widget="cuda-grid"] [data-k=blocks]')?.dataset.value === '32');
  await setField(page, '#cuda-grid-n', 40.5);
  await page.waitForSelector(`${w} .field-error`);
  await finish(page);
});

test('Tensor Core chapter: peaks by precision, dense apart from 2:4 sparse', async () => {
  const page = await newPage(browser);
  await page.goto(`${server.url}zh/chapters/tensor-cores/`);
  const w = 'aside.widget[data-widget="tensor-peaks"]';
  await live(page, w);
  await page.waitForSelector(`${w} tr[data-path=bf16]`);
  // A100: 312 / 19.5 = 16× in BF16, 156 / 19.5 = 8× in TF32.
  assert.equal(await value(page, `${w} tr[data-path=bf16] [data-k=speedup]`), 16);
  assert.equal(await value(page, `${w} tr[data-path=tf32] [data-k=speedup]`), 8);
  await page.selectOption('#tensor-peaks-gpu', 'h100-sxm');
  await page.waitForFunction(() => document.querySelector('[data-widget="tensor-peaks"] tr[data-path=bf16] [data-k=dense]')?.dataset.value === '989500000000000');
  near(await value(page, `${w} tr[data-path=bf16] [data-k=speedup]`), 989.5 / 67);
  // The sparse figure (1,979 TFLOPS FP16 with sparsity) is in its own column, never the dense one.
  assert.match(await page.locator(`${w} tr[data-path=fp16] td.sparse`).innerText(), /1\.98 PFLOP\/s/);
  near(await value(page, `${w} tr[data-path=fp16] [data-k=dense]`), 989.5e12);
  await finish(page);
});

test('spec-sheet chapter: the dense peak, the ridge point and which side a kernel is on', async () => {
  const page = await newPage(browser);
  await page.goto(`${server.url}en/chapters/reading-spec-sheets/`);
  const w = 'aside.widget[data-widget="spec-sheet"]';
  await live(page, w);
  await page.waitForSelector(`${w} [data-k=ridge]`);
  // L40S BF16: 362.05 TFLOPS / 864 GB/s = 419 FLOP/byte; at I = 1, 1 × 864 GB/s.
  near(await value(page, `${w} [data-k=ridge]`), 362.05e12 / 864e9);
  near(await value(page, `${w} [data-k=attainable]`), 864e9);
  assert.match(await page.locator(`${w} [data-k=side]`).innerText(), /memory-bound/);
  await setField(page, '#spec-sheet-i', 1000);
  await page.waitForFunction(() => /compute-bound/.test(document.querySelector('[data-widget="spec-sheet"] [data-k=side]')?.textContent));
  near(await value(page, `${w} [data-k=attainable]`), 362.05e12);
  // A100 80GB: 312 / 2.039 = 153 FLOP/byte.
  await page.selectOption('#spec-sheet-gpu', 'a100-sxm-80gb');
  await page.waitForFunction(() => document.querySelector('[data-widget="spec-sheet"] [data-k=dense]')?.dataset.value === '312000000000000');
  near(await value(page, `${w} [data-k=ridge]`), 312e12 / 2.039e12);
  await finish(page);
});

test('learning-path chapter: from a gaming card to a datacenter GPU, fit, headroom and price', async () => {
  const page = await newPage(browser);
  await page.goto(`${server.url}en/chapters/learning-path/`);
  const w = 'aside.widget[data-widget="gpu-ladder"]';
  await live(page, w);
  await page.waitForSelector(`${w} tr[data-gpu=h100-sxm] [data-k=fits]`);
  // 8B in BF16 (16 GB of weights) fits a 24 GB card.
  assert.equal(await page.locator(`${w} tr[data-gpu=rtx-4090] [data-k=fits]`).getAttribute('class'), 'ok');
  assert.match(await page.locator(`${w} tr[data-gpu=rtx-4090] [data-k=cost]`).innerText(), /no on-demand price/);
  // The cheapest dated H100 price in the catalog: AWS p5.48xlarge $55.04 / 8 GPUs.
  near(await value(page, `${w} tr[data-gpu=h100-sxm] [data-k=cost]`), 55.04 / 8, 1e-6);
  // 70B in BF16 is 141 GB of weights: more than 0.9 × 141 GB (H200), less than 0.9 × 180 GB (B200).
  await page.selectOption('#gpu-ladder-model', 'llama-3.1-70b');
  await page.waitForFunction(() => document.querySelector('[data-widget="gpu-ladder"] tr[data-gpu=h100-sxm] [data-k=fits]')?.className === 'bad');
  assert.equal(await page.locator(`${w} tr[data-gpu=h200-sxm] [data-k=fits]`).getAttribute('class'), 'bad');
  assert.equal(await page.locator(`${w} tr[data-gpu=b200] [data-k=fits]`).getAttribute('class'), 'ok');
  assert.ok(await value(page, `${w} tr[data-gpu=h100-sxm] [data-k=headroom]`) < -60e9, 'H100 is short by more than 141 − 72 GB');
  await finish(page);
});

test('cluster chapter: all-reduce time by topology, in one node and across two', async () => {
  const page = await newPage(browser);
  await page.goto(`${server.url}en/chapters/gpu-clusters/`);
  const w = 'aside.widget[data-widget="all-reduce"]';
  await live(page, w);
  await page.waitForSelector(`${w} figure svg`);
  // 16 GPUs, 1 GB, NVSwitch (450 GB/s, α 2 µs) + IB NDR (50 GB/s, α 5 µs), bus efficiency 0.75:
  // reduce-scatter 7α + 1e9·7/8/(450e9·0.75), all-reduce of 1e9/8 over 2 nodes 2α' + 1.25e8/(50e9·0.75),
  // all-gather = reduce-scatter.
  const rs = 7 * 2e-6 + (1e9 * 7 / 8) / (450e9 * 0.75);
  near(await value(page, `${w} [data-k=expected]`), 2 * rs + 2 * 5e-6 + 1.25e8 / (50e9 * 0.75), 1e-9);
  // 8 GPUs stay in the node: 2·7·α + 1e9 · 1.75 / (450e9 · 0.75).
  await page.selectOption('#all-reduce-ranks', '8');
  const t8 = 14 * 2e-6 + 1e9 * 1.75 / (450e9 * 0.75);
  await page.waitForFunction((t) => Math.abs(Number(document.querySelector('[data-widget="all-reduce"] [data-k=expected]')?.dataset.value) - t) < 1e-12, t8);
  near(await value(page, `${w} [data-k=busbw]`), (1e9 / t8) * 1.75);
  await finish(page);
});
