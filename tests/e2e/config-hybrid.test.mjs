// Issue 13, "State memory that does not grow": a pasted hybrid config.json (Qwen3-Next's Gated
// DeltaNet layers, Nemotron-H's Mamba-2 layers, Falcon-H1's parallel Mamba-2, LFM2's short
// convolutions) shows its fixed per-sequence state as its own line
// of the memory breakdown, in the page's language, with its show-the-math; the line scales with
// the sequences and not with the context, while the KV cache (attention layers only) grows.
// The chapter 2 widget compares the two. Both languages, 390 px, dark; no console errors.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { serve, launch, newPage, finish, live, openMath } from './harness.mjs';

let server, browser;
before(async () => { server = await serve(); browser = await launch(); });
after(async () => { await browser?.close(); await server?.close(); });

const root = join(import.meta.dirname, '..', '..');
const fixture = (name) => JSON.parse(readFileSync(join(root, `tests/fixtures/configs/${name}.json`), 'utf8'));
// Per sequence, by hand (tests/hybrid_models.rs): 36 × (8192 × 3 + 32 × 128 × 128) × 2 B and
// 23 × (6144 × 3 × 2 B + 64 × 64 × 128 × 4 B); Falcon-H1 (attention and Mamba-2 side by side in
// all 44 layers) 44 × (3584 × 3 + 24 × 128 × 256) × 2 B; LFM2 (22 short-convolution layers, a
// conv cache only) 22 × 2048 × 2 × 2 B.
const MODELS = [
  ['qwen3-next-80b-a3b-instruct', 39518208, 24576],
  ['nemotron-3-nano-30b-a3b', 49082368, 6144],
  ['falcon-h1-7b', 70152192, 45056],
  ['lfm2.5-2.6b', 180224, 16384],
];
const LABEL = { en: 'Recurrent state', zh: '循环状态' };
const STATE = 'tr[data-key="memory_per_gpu_bytes.recurrent_state"]';

async function paste(page, lang, config) {
  await page.goto(`${server.url}#/${lang}/estimate`);
  await page.waitForSelector('#total-per-gpu');
  await page.waitForSelector('.assumptions-group #kv-block', { state: 'attached' });
  await page.click('details.paste summary');
  await page.fill('#config-paste', JSON.stringify(config));
  await page.click('#config-apply');
}

const bytes = (page, key) =>
  page.$eval(`tr[data-key="${key}"] td.num`, (td) => Number(td.dataset.bytes));

async function setNumber(page, id, value) {
  await page.fill(`#${id}-number`, String(value));
  await page.press(`#${id}-number`, 'Enter');
}

for (const lang of ['en', 'zh']) {
  for (const [name, perSequence, kvPerToken] of MODELS) {
    test(`${lang}: a pasted ${name} config shows its fixed state as its own memory line`, async () => {
      const page = await newPage(browser, { viewport: { width: 390, height: 900 }, colorScheme: 'dark' });
      // A dense model first: no state line.
      await page.goto(`${server.url}#/${lang}/estimate`);
      await page.waitForSelector('#total-per-gpu');
      assert.equal(await page.locator(STATE).isVisible(), false);
      await paste(page, lang, fixture(name));
      await page.waitForSelector(STATE, { state: 'visible' });
      assert.equal(await page.locator('#config-error').count(), 0);
      await setNumber(page, 'batch', 8);
      await setNumber(page, 'context', 4096);
      await page.waitForFunction(([sel, want]) => Number(document.querySelector(`${sel} td.num`).dataset.bytes) === want,
        [STATE, 8 * perSequence]);
      const row = page.locator(STATE);
      assert.match(await row.innerText(), new RegExp(LABEL[lang]));
      const kvShort = await bytes(page, 'memory_per_gpu_bytes.kv_cache');
      // KV: attention layers only (pages of 16 tokens: 4096 fills them exactly).
      assert.equal(kvShort, 8 * 4096 * kvPerToken);
      // Sixteen times the context: the KV cache grows sixteenfold, the state does not move.
      await setNumber(page, 'context', 65536);
      await page.waitForFunction(([k, want]) => Number(document.querySelector(`tr[data-key="${k}"] td.num`).dataset.bytes) === want,
        ['memory_per_gpu_bytes.kv_cache', 16 * kvShort]);
      assert.equal(await bytes(page, 'memory_per_gpu_bytes.recurrent_state'), 8 * perSequence);
      // The total counts it.
      const parts = await page.$$eval('table.legend tr[data-key^="memory_per_gpu_bytes."]:not(.total) td.num',
        (tds) => tds.reduce((s, td) => s + Number(td.dataset.bytes), 0));
      assert.equal(parts, await page.$eval('#total-per-gpu', (td) => Number(td.dataset.bytes)));
      // Show the math: the formula and the substituted values, in the page's language.
      const math = await openMath(page, row.locator('details.math'), lang === 'en' ? /no context term/ : /与上下文长度无关/);
      assert.match(math, lang === 'en' ? /no context term/ : /与上下文长度无关/);
      assert.match(math, lang === 'en' ? /8 sequences/ : /8 个序列/);
      if (process.env.SHOTS) {
        mkdirSync(process.env.SHOTS, { recursive: true });
        await page.locator('.panel.memory').scrollIntoViewIfNeeded();
        await page.screenshot({ path: join(process.env.SHOTS, `hybrid-${name}-${lang}.png`) });
      }
      await finish(page);
    });
  }

  test(`${lang}: the hybrid catalog models are listed, counted and keep a state line`, async () => {
    const page = await newPage(browser, { viewport: { width: 390, height: 900 }, colorScheme: 'dark' });
    await page.goto(`${server.url}#/${lang}/estimate`);
    await page.waitForSelector('#total-per-gpu');
    const ids = await page.locator('#model-list option').allInnerTexts();
    for (const id of ['falcon-h1-7b', 'lfm2-2.6b', 'lfm2-8b-a1b', 'granite-4.0-h-tiny', 'qwen3.6-35b-a3b'])
      assert.ok(ids.includes(id), `${id} in the model list`);
    // Totals from tests/catalog_counts.rs; one sequence's state from tests/hybrid_models.rs
    // (LFM2-8B-A1B: 18 conv layers × 2048 × 2 × 2 B; Granite 4.0 H Tiny: 36 Mamba-2 layers).
    for (const [name, total, state] of [['LFM2 8B-A1B', '8339930560', 147456], ['Granite 4.0 H Tiny', '6939037248', 29030400]]) {
      await page.fill('#model-search', name);
      await page.dispatchEvent('#model-search', 'change');
      await page.waitForFunction(`document.getElementById('params-total').textContent.replace(/\\D/g, '').includes('${total}')`);
      await setNumber(page, 'batch', 1);
      await page.waitForFunction(([sel, want]) => Number(document.querySelector(`${sel} td.num`)?.dataset.bytes) === want,
        [STATE, state]);
    }
    await finish(page);
  });

  test(`${lang}: the chapter widget compares the KV cache with the fixed state`, async () => {
    const page = await newPage(browser, { viewport: { width: 390, height: 900 }, colorScheme: 'dark' });
    await page.goto(`${server.url}${lang}/chapters/memory-capacity/`);
    await live(page, 'aside.widget[data-widget="state-vs-kv"]');
    const widget = page.locator('aside.widget[data-widget="state-vs-kv"]');
    await widget.locator('[data-k="state"]').waitFor();
    const value = (k) => widget.locator(`[data-k="${k}"]`).getAttribute('data-value').then(Number);
    // The chapter's example: Qwen3-Next-80B-A3B, 16 sequences of 131,072 tokens.
    assert.equal(await value('kv-per-token'), 24576);
    assert.equal(await value('kv'), 3 * 2 ** 30);
    assert.equal(await value('state'), 39518208);
    assert.equal(await value('if-all-attention'), 12 * 2 ** 30);
    assert.equal(await value('all'), 16 * (3 * 2 ** 30 + 39518208));
    // A longer context moves the KV cache only.
    await widget.locator('#state-vs-kv-ctx').fill('262144');
    await widget.locator('#state-vs-kv-ctx').press('Enter');
    await page.waitForFunction(() => document.querySelector('[data-widget="state-vs-kv"] [data-k="kv"]').dataset.value === String(6 * 2 ** 30));
    assert.equal(await value('state'), 39518208);
    // A number out of range is named, not computed.
    await widget.locator('#state-vs-kv-seqs').fill('0');
    await widget.locator('#state-vs-kv-seqs').press('Enter');
    await widget.locator('.field-error').waitFor();
    if (process.env.SHOTS) {
      await widget.locator('#state-vs-kv-seqs').fill('16');
      await widget.locator('#state-vs-kv-seqs').press('Enter');
      await widget.locator('[data-k="all"]').waitFor();
      await widget.scrollIntoViewIfNeeded();
      await page.screenshot({ path: join(process.env.SHOTS, `state-vs-kv-${lang}.png`) });
    }
    await finish(page);
  });
}
