// Embedding: `{lang}/embed/{kind}/` shows one widget without the site's frame, in both
// languages, for every kind; the copy control gives an <iframe> for that page on this site.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { serve, launch, newPage, finish, live } from './harness.mjs';

let server, sub, browser;
before(async () => { server = await serve(); sub = await serve(undefined, '/docs/gpu/'); browser = await launch(); });
after(async () => { await browser?.close(); await server?.close(); await sub?.close(); });

const KINDS = ['memory', 'kv-cache', 'roofline', 'scaling', 'bound', 'cuda-grid', 'tensor-peaks', 'spec-sheet', 'gpu-ladder', 'all-reduce', 'prefix-reuse', 'disaggregation', 'wide-ep', 'kv-tiers', 'speculation'];

test('every widget kind embeds alone in both languages', async () => {
  const page = await newPage(browser);
  for (const lang of ['zh', 'en']) {
    for (const kind of KINDS) {
      await page.goto(`${server.url}${lang}/embed/${kind}/`);
      await page.waitForSelector(`[data-mount=embed][data-live] article[data-page=embed] aside.widget[data-widget="${kind}"]`);
      for (const frame of ['.site-header', '.chapter-nav', '.site-footer', 'a.skip']) {
        assert.equal(await page.locator(frame).isVisible(), false, `${lang}/${kind}: ${frame} is not shown`);
      }
      assert.equal(await page.locator('html').getAttribute('lang'), lang === 'zh' ? 'zh-CN' : 'en');
      await page.locator('aside.widget').scrollIntoViewIfNeeded();
      await page.waitForSelector('aside.widget svg, aside.widget .membar, aside.widget dl, aside.widget table');
      const text = await page.locator('aside.widget').innerText();
      assert.ok(!/NaN|undefined/.test(text), `${lang}/${kind}`);
    }
  }
  await page.goto(`${server.url}zh/embed/no-such-widget/`);
  await page.waitForSelector('article[data-page=not-found]');
  assert.match(await page.locator('main').innerText(), /页面不存在/);
  page.problems = page.problems.filter((p) => !/status of 404/.test(p));
  // A chapter has the frame.
  await page.goto(`${server.url}en/chapters/cuda/`);
  await page.waitForSelector('aside.widget[data-widget="cuda-grid"]');
  assert.equal(await page.locator('.site-header').isVisible(), true);
  await finish(page);
});

test('the embed URL carries the state, and a bad value falls back to the example', async () => {
  const page = await newPage(browser);
  await page.goto(`${server.url}en/embed/cuda-grid/?gpu=a100-sxm-80gb&n=1000&t=128`);
  await page.waitForSelector('[data-k=blocks]');
  // ceil(1000 / 128) = 8 blocks on the A100's 108 SMs: 100 idle.
  assert.equal(await page.locator('[data-k=blocks]').getAttribute('data-value'), '8');
  assert.equal(await page.locator('[data-k=idle-sms]').getAttribute('data-value'), '100');
  await page.goto(`${server.url}en/embed/cuda-grid/?gpu=nope&n=%3Cb%3E&t=128`);
  await page.waitForFunction(() => document.querySelector('[data-k=blocks]')?.dataset.value === '78125');
  assert.equal(await page.inputValue('#cuda-grid-gpu'), 'h100-sxm');
  await finish(page);
});

test('the KV-tier widget follows its controls: few sessions fit the GPU, many spill to the tiers', async () => {
  const page = await newPage(browser);
  const value = (k) => page.locator(`aside.widget [data-k="${k}"]`).getAttribute('data-value').then(Number);
  // 20 of chapter 13's agent sessions fit the GPU's free KV pool: every history is still there.
  await page.goto(`${server.url}en/embed/kv-tiers/?n=20&cpu=200&ssd=3840`);
  await page.waitForFunction(() => document.querySelector('[data-k="gpu-share"]')?.dataset.value === '1');
  assert.equal(await value('ttft'), await value('ttft-bare'));
  // 3,000 spill past the 3.84 TB SSD: some are recomputed, and the tiers still beat the GPU alone.
  await page.fill('#kv-tiers-n', '3000');
  await page.locator('#kv-tiers-n').dispatchEvent('change');
  await page.waitForFunction(() => Number(document.querySelector('[data-k="recomputed-share"]')?.dataset.value) > 0.1);
  assert.ok((await value('gpu-share')) < 0.02);
  assert.ok((await value('ttft')) < (await value('ttft-bare')));
  // Without tiers the CPU and SSD rows are gone.
  await page.fill('#kv-tiers-cpu', '0');
  await page.locator('#kv-tiers-cpu').dispatchEvent('change');
  await page.fill('#kv-tiers-ssd', '0');
  await page.locator('#kv-tiers-ssd').dispatchEvent('change');
  await page.waitForFunction(() => !document.querySelector('[data-k="ssd-share"]') && !document.querySelector('[data-k="cpu-share"]'));
  assert.equal(await value('ttft'), await value('ttft-bare'));
  await finish(page);
});

test('the speculation widget follows its controls: a stack with a host floor gains less, a poor drafter loses', async () => {
  const page = await newPage(browser);
  const value = (k) => page.locator(`aside.widget [data-k="${k}"]`).getAttribute('data-value').then(Number);
  // Chapter 3's example under vLLM: four drafts at α 0.75, each pass waiting 0.93 ms on the host.
  await page.goto(`${server.url}en/embed/speculation/?gamma=4&alpha=75&stack=vllm_v1`);
  await page.waitForSelector('aside.widget [data-k="speedup"]');
  const vllm = await value('speedup');
  assert.ok(vllm > 1.5 && vllm < 3.05, `${vllm}`);
  assert.equal(await value('draft-host'), 0.00093);
  assert.ok((await value('crossover')) > 1);
  assert.ok(await page.locator('aside.widget figure svg').count() > 0);
  // SGLang runs the drafts in CUDA graphs: no host floor, a larger gain.
  await page.selectOption('#speculation-stack', 'sglang');
  await page.waitForFunction(() => document.querySelector('[data-k="draft-host"]')?.dataset.value === '0');
  assert.ok((await value('speedup')) > vllm);
  // A drafter whose tokens are rarely accepted costs more than it saves.
  await page.fill('#speculation-alpha', '10');
  await page.locator('#speculation-alpha').dispatchEvent('change');
  await page.waitForFunction(() => Number(document.querySelector('[data-k="speedup"]')?.dataset.value) < 1);
  await finish(page);
});

test('copy embed code: an iframe for the page under its sub-path, selected when the clipboard fails', async () => {
  const page = await newPage(browser);
  await page.goto(`${sub.url}en/chapters/gpu-clusters/`);
  await live(page, 'aside.widget[data-widget="all-reduce"]');
  await page.waitForSelector('aside.widget[data-widget="all-reduce"] figure svg');
  await page.selectOption('#all-reduce-ranks', '64');
  await page.click('aside.widget[data-widget="all-reduce"] button.copy-embed');
  await page.waitForSelector('#all-reduce-embed');
  const snippet = await page.inputValue('#all-reduce-embed');
  assert.match(snippet, /^<iframe src="http:\/\/127\.0\.0\.1:\d+\/docs\/gpu\/en\/embed\/all-reduce\/\?ranks=64&amp;mb=1000" title="[^"]+" /);
  // With the host page's listener that sets the iframe's height (embed-host.test.mjs).
  assert.match(snippet, /data-gpu-primer><\/iframe>\n<script>[\s\S]*"gpu-primer:height"[\s\S]*<\/script>$/);
  await page.waitForFunction(() => document.querySelector('.embed-status')?.textContent !== '');
  const status = await page.locator('aside.widget[data-widget="all-reduce"] .embed-status').innerText();
  if (/Could not/.test(status)) {
    // No clipboard permission in this browser: the snippet is selected for the reader to copy.
    const selected = await page.evaluate(() => { const f = document.querySelector('#all-reduce-embed'); return f.value.slice(f.selectionStart, f.selectionEnd); });
    assert.equal(selected, snippet);
  } else {
    assert.match(status, /Copied/);
  }
  // The snippet's address opens the same widget in the same state.
  const src = snippet.match(/src="([^"]+)"/)[1].replace(/&amp;/g, '&');
  await page.goto(src);
  await page.waitForSelector('article[data-page=embed] [data-k=expected]');
  assert.equal(await page.inputValue('#all-reduce-ranks'), '64');
  // An estimator widget's embed keeps the estimator's state.
  await page.goto(`${server.url}zh/chapters/memory-capacity/`);
  await live(page, 'aside.widget[data-widget="memory:70b-fp16"]');
  await page.waitForSelector('aside.widget[data-widget="memory:70b-fp16"] .verdict');
  // (The chapter's state-vs-kv widget comes first: click this widget's own control.)
  await page.click('aside.widget[data-widget="memory:70b-fp16"] button.copy-embed');
  await page.waitForSelector('#memory-embed');
  const mem = (await page.inputValue('#memory-embed')).match(/src="([^"]+)"/)[1].replace(/&amp;/g, '&');
  assert.match(mem, /\/zh\/embed\/memory\/\?v=1&s=/);
  await page.goto(mem);
  await page.waitForSelector('article[data-page=embed] .verdict.bad');
  await finish(page);
});

test('from the offline file the copy control says embedding needs a hosted site', async () => {
  const page = await newPage(browser);
  const { DIST } = await import('./harness.mjs');
  const { existsSync } = await import('node:fs');
  const offline = `${DIST}/gpu-primer-offline.html`;
  if (!existsSync(offline)) throw new Error(`build ${offline} first (node tools/single-file.mjs dist ${offline})`);
  await page.goto(`file://${offline}#/en/chapters/reading-spec-sheets/`);
  const widget = await live(page, 'aside.widget[data-widget="spec-sheet"]');
  await widget.locator('button.copy-embed').click();
  await widget.locator('.embed-status:not(:empty)').waitFor();
  assert.match(await widget.locator('.embed-status').innerText(), /needs the site to be hosted/);
  assert.equal(await widget.locator('.embed-snippet').isVisible(), false, 'no snippet for a page that cannot be embedded');
  await finish(page);
});
