// The chapter figures ({{figure:NAME}}): each renders on its chapter in both languages as an
// accessible SVG with a caption in the page's language, and the interactive ones follow their
// controls.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { serve, launch, newPage, finish, live } from './harness.mjs';

let server, browser;
before(async () => { server = await serve(); browser = await launch(); });
after(async () => { await browser?.close(); await server?.close(); });

const PLACES = [
  ['memory-bandwidth', 'roofline-kernels'],
  ['memory-bandwidth', 'memory-hierarchy'],
  ['cuda', 'thread-hierarchy'],
  ['nvlink', 'topology'],
  ['nvlink', 'ring-allreduce'],
  ['mig', 'mig-slices'],
  ['bottlenecks', 'bottlenecks'],
];

// Latin words a zh figure may show: units, product and technology names, the terms the zh
// chapters use as is (see language.test.mjs). Words with a digit (H100, BF16, 3g.40gb) pass.
const ZH_ALLOWED = new Set(['B', 'KB', 'MB', 'GB', 'TB', 'KiB', 'MiB', 'GiB', 's', 'k', 'M', 'G', 'T', 'P',
  'FLOP', 'GPU', 'CPU', 'SM', 'SXM', 'L1', 'HBM', 'NVLink', 'NVSwitch', 'PCIe', 'HGX', 'MIG', 'NCCL', 'Tensor',
  'Core', 'roofline', 'batch', 'token', 'all', 'reduce', 'x', 'N', 'S', 'a', 'b', 'NVIDIA', 'PCIe',
  // The zh pages' term for a GPU function (content/terminology.json), as chapter 1 introduces it.
  'kernel']);

const CJK = /[\u3000-\u303f\u3400-\u9fff\uff00-\uffef]/;

async function figureText(page, name) {
  const fig = page.locator(`figure.fig[data-figure="${name}"]`);
  await fig.scrollIntoViewIfNeeded();
  await page.waitForSelector(`figure.fig[data-figure="${name}"] svg[role="img"]`);
  const label = await fig.locator('svg').first().getAttribute('aria-label');
  const svgText = await fig.locator('svg').first().evaluate((s) => [...s.querySelectorAll('text')].map((t) => t.textContent).join(' '));
  const caption = await fig.locator('figcaption').innerText();
  return { label, svgText, caption };
}

test('every figure renders on its chapter in both languages, worded in the page\'s language', async () => {
  const page = await newPage(browser);
  for (const lang of ['zh', 'en']) {
    for (const [slug, name] of PLACES) {
      await page.goto(`${server.url}${lang}/chapters/${slug}/`);
      await page.waitForSelector('article[data-page=chapter]');
      const { label, svgText, caption } = await figureText(page, name);
      const where = `${lang}/${slug} ${name}`;
      assert.ok(label && label.length > 5, `${where}: aria-label`);
      assert.ok(caption.length > 20, `${where}: caption`);
      assert.ok(svgText.length > 10, `${where}: labels`);
      const all = `${label} ${svgText} ${caption}`;
      assert.ok(!/NaN|undefined|Infinity/.test(all), `${where}: ${all}`);
      if (lang === 'zh') {
        assert.ok(CJK.test(label) && CJK.test(caption), `${where}: Chinese title and caption`);
        // MIG profile names (3g.40gb) are identifiers.
        const latin = [...all.replace(/\d+g\.\d+gb/g, ' ').matchAll(/[A-Za-z][A-Za-z0-9_]*/g)].map((m) => m[0])
          .filter((w) => !/[0-9_]/.test(w) && !ZH_ALLOWED.has(w));
        assert.deepEqual(latin, [], `${where}: English words on a zh page`);
      } else {
        assert.ok(!CJK.test(all), `${where}: Chinese on an en page: ${all}`);
      }
    }
  }
  await finish(page);
});

test('the memory hierarchy follows its GPU picker and offers only sourced GPUs', async () => {
  const page = await newPage(browser);
  await page.goto(`${server.url}en/chapters/memory-bandwidth/`);
  const fig = 'figure.fig[data-figure="memory-hierarchy"]';
  await live(page, fig);
  await page.waitForSelector(`${fig} svg`);
  const options = await page.locator(`${fig} select option`).evaluateAll((os) => os.map((o) => o.value));
  assert.ok(options.includes('h100-sxm') && options.includes('a100-sxm-80gb'), options.join());
  assert.ok(!options.includes('mi300x'), 'no GPU without sourced on-chip sizes');
  assert.equal(await page.locator(`${fig} select`).inputValue(), 'h100-sxm', 'the chapter\'s GPU first');
  const h100 = await page.locator(`${fig} svg`).getAttribute('aria-label');
  assert.match(h100, /H100 SXM/);
  const h100Text = await page.locator(`${fig} svg`).textContent();
  assert.match(h100Text, /3\.35 TB\/s/);
  assert.match(h100Text, /≈ 33\.5 TB\/s/, 'shared memory bandwidth is an estimate and says so');
  assert.match(h100Text, /not published/);
  await page.selectOption(`${fig} select`, 'a100-sxm-80gb');
  await page.waitForFunction((f) => /A100/.test(document.querySelector(`${f} svg`).getAttribute('aria-label')), fig);
  const a100Text = await page.locator(`${fig} svg`).textContent();
  assert.match(a100Text, /2\.04 TB\/s/);
  assert.match(a100Text, /40 MiB/);
  assert.notEqual(a100Text, h100Text);
  await finish(page);
});

test('the ring all-reduce steps through reduce-scatter and all-gather', async () => {
  const page = await newPage(browser);
  for (const lang of ['en', 'zh']) {
    await page.goto(`${server.url}${lang}/chapters/nvlink/`);
    const fig = 'figure.fig[data-figure="ring-allreduce"]';
    await live(page, fig);
    await page.waitForSelector(`${fig} svg`);
    const cells = async (text) => (await page.locator(`${fig} svg`).textContent()).split(text).length - 1;
    assert.equal(await page.locator(`${fig} .fig-step`).innerText(), '0 / 6');
    await page.click(`${fig} .fig-prev`);
    assert.equal(await page.locator(`${fig} .fig-step`).innerText(), '0 / 6', 'no step before the start');
    assert.equal(await cells('1/4'), 16, 'at the start every chunk holds one GPU\'s values');
    const start = await page.locator(`${fig} svg`).innerHTML();
    await page.click(`${fig} .fig-next`);
    assert.equal(await page.locator(`${fig} .fig-step`).innerText(), '1 / 6');
    assert.notEqual(await page.locator(`${fig} svg`).innerHTML(), start);
    assert.equal(await cells('2/4'), 4, 'after one step each GPU has added one neighbour\'s chunk');
    for (let i = 0; i < 5; i++) await page.click(`${fig} .fig-next`);
    assert.equal(await page.locator(`${fig} .fig-step`).innerText(), '6 / 6');
    await page.click(`${fig} .fig-next`);
    assert.equal(await page.locator(`${fig} .fig-step`).innerText(), '6 / 6', 'no step past the end');
    assert.equal(await cells('4/4'), 16, 'at the end every GPU holds the full sum');
    await page.click(`${fig} .fig-prev`);
    assert.equal(await page.locator(`${fig} .fig-step`).innerText(), '5 / 6');
  }
  await finish(page);
});
