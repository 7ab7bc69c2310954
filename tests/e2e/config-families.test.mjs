// Issue 13, families: gpt-oss-20b's published config.json pasted whole into the estimator is
// read as gpt_oss (no unknown-family notice, no error) with its exact count and KV bytes per
// token; the new catalog entries are in the model list and picking one gives its exact count.
// Both languages, phone width, dark mode; no console errors.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { serve, launch, newPage, finish } from './harness.mjs';

let server, browser;
before(async () => { server = await serve(); browser = await launch(); });
after(async () => { await browser?.close(); await server?.close(); });

const root = join(import.meta.dirname, '..', '..');
const gptOss = readFileSync(join(root, 'tests/fixtures/configs/gpt-oss-20b.json'), 'utf8');
const gemma4 = readFileSync(join(root, 'tests/fixtures/configs/gemma-4-31b-it.json'), 'utf8');
const digits = (id) => `document.getElementById('${id}').textContent.replace(/\\D/g, '')`;

for (const lang of ['en', 'zh']) {
  test(`${lang}: a pasted gpt-oss config is counted exactly as gpt_oss`, async () => {
    const page = await newPage(browser, { viewport: { width: 390, height: 900 }, colorScheme: 'dark' });
    await page.goto(`${server.url}#/${lang}/estimate`);
    await page.waitForSelector('#total-per-gpu');
    await page.click('details.paste summary');
    await page.fill('#config-paste', gptOss);
    await page.click('#config-apply');
    // 20,914,757,184 parameters (tests/new_families.rs derives it by hand).
    await page.waitForFunction(`${digits('params-total')}.includes('20914757184')`);
    assert.ok((await page.evaluate(digits('params-active'))).includes('4187440704'));
    assert.equal(await page.locator('#config-error').count(), 0);
    assert.equal(await page.locator('#model-inferred').count(), 0);
    // 24 layers × 2 × 8 KV heads × 64 × 2 bytes = 49,152 B per token.
    assert.match(await page.locator('#kv-per-token').innerText(), /49[,.\s]?152|48(\.0)?\s*KiB/);
    if (process.env.SHOTS) {
      mkdirSync(process.env.SHOTS, { recursive: true });
      await page.locator('#params-total').scrollIntoViewIfNeeded();
      await page.screenshot({ path: join(process.env.SHOTS, `gpt-oss-${lang}.png`) });
    }
    await finish(page);
  });

  test(`${lang}: a pasted Gemma 4 config is counted layer by layer`, async () => {
    const page = await newPage(browser, { viewport: { width: 390, height: 900 }, colorScheme: 'dark' });
    await page.goto(`${server.url}#/${lang}/estimate`);
    await page.waitForSelector('#total-per-gpu');
    await page.click('details.paste summary');
    await page.fill('#config-paste', gemma4);
    await page.click('#config-apply');
    // google/gemma-4-31B-it's whole config: 30,697,345,340 parameters (tests/gemma4.rs).
    await page.waitForFunction(`${digits('params-total')}.includes('30697345340')`);
    assert.equal(await page.locator('#config-error').count(), 0);
    assert.equal(await page.locator('#model-inferred').count(), 0);
    // 50 sliding × 16 × 512 + 10 full × 4 × 1024 elements in bf16 = 901,120 B = 880 KiB per token.
    assert.match(await page.locator('#kv-per-token').innerText(), /901[,.\s]?120|880(\.0)?\s*KiB/);
    if (process.env.SHOTS) {
      mkdirSync(process.env.SHOTS, { recursive: true });
      await page.locator('#params-total').scrollIntoViewIfNeeded();
      await page.screenshot({ path: join(process.env.SHOTS, `gemma4-${lang}.png`) });
    }
    // The catalog's Gemma 4 sizes: E2B with its per-layer embeddings and shared KV layers.
    for (const [name, total] of [['gemma-4-e2b', '4628569379'], ['gemma-4-26b-a4b', '25233141790']]) {
      await page.fill('#model-search', name);
      await page.dispatchEvent('#model-search', 'change');
      await page.waitForFunction(`${digits('params-total')}.includes('${total}')`);
    }
    await finish(page);
  });

  test(`${lang}: the new catalog models are listed and counted`, async () => {
    const page = await newPage(browser);
    await page.goto(`${server.url}#/${lang}/estimate`);
    await page.waitForSelector('#total-per-gpu');
    const ids = await page.locator('#model-list option').allInnerTexts();
    for (const id of ['gpt-oss-120b', 'gpt-oss-20b', 'llama-4-scout', 'llama-4-maverick', 'glm-4.5', 'glm-4.5-air', 'kimi-k2', 'minimax-m2'])
      assert.ok(ids.includes(id), `${id} in the model list`);
    for (const [name, total] of [['gpt-oss-120b', '116829156672'], ['Llama 4 Scout 17B-16E', '107769861120'], ['GLM-4.5-Air', '106852251264']]) {
      await page.fill('#model-search', name);
      await page.dispatchEvent('#model-search', 'change');
      await page.waitForFunction(`${digits('params-total')}.includes('${total}')`);
    }
    await finish(page);
  });
}
