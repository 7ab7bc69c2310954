// Issue 13, "Any other config": a pasted config.json whose model_type the engine does not know is
// counted as a generic decoder from the usual keys, with a notice (in the page's language) that
// names the family and lists the keys used and ignored; an unknown family missing essentials
// gets an error naming all of them. Both languages; no console errors.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { serve, launch, newPage, finish } from './harness.mjs';

let server, browser;
before(async () => { server = await serve(); browser = await launch(); });
after(async () => { await browser?.close(); await server?.close(); });

const root = join(import.meta.dirname, '..', '..');
// Llama-3.1-8B's published config under a made-up family name.
const mystery = JSON.parse(readFileSync(join(root, 'tests/fixtures/configs/llama-3.1-8b.json'), 'utf8'));
mystery.model_type = 'mystery_decoder';
mystery.architectures = ['MysteryDecoderForCausalLM'];

const WORDS = {
  en: { notice: /Unknown model family/, used: /Keys used/, ignored: /Keys ignored/ },
  zh: { notice: /未知的模型族/, used: /用到的键/, ignored: /忽略的键/ },
};

async function paste(page, lang, config) {
  await page.goto(`${server.url}#/${lang}/estimate`);
  await page.waitForSelector('#total-per-gpu');
  await page.click('details.paste summary');
  await page.fill('#config-paste', JSON.stringify(config));
  await page.click('#config-apply');
}

for (const lang of ['en', 'zh']) {
  test(`${lang}: an unknown model_type with the usual keys is counted, with a notice that it is inferred`, async () => {
    const page = await newPage(browser, { viewport: { width: 390, height: 900 }, colorScheme: 'dark' });
    await paste(page, lang, mystery);
    await page.waitForSelector('#model-inferred');
    // Exactly Llama-3.1-8B's count: the generic decoder is Llama's layout.
    await page.waitForFunction(() => document.getElementById('params-total').textContent.replace(/\D/g, '').includes('8030261248'));
    assert.equal(await page.locator('#config-error').count(), 0);
    const notice = page.locator('#model-inferred');
    const text = await notice.innerText();
    for (const re of Object.values(WORDS[lang])) assert.match(text, re);
    const codes = await notice.locator('code').allInnerTexts();
    assert.ok(codes.includes('mystery_decoder'), codes.join(' '));
    for (const key of ['hidden_size', 'num_key_value_heads', 'intermediate_size', 'rope_theta', 'rope_scaling'])
      assert.ok(codes.includes(key), `${key} in ${codes.join(' ')}`);
    // Metadata is in neither list.
    for (const key of ['torch_dtype', 'architectures', 'bos_token_id']) assert.ok(!codes.includes(key), key);
    if (lang === 'zh') {
      // Outside <code>, only the terms the zh pages use as is.
      const prose = await notice.evaluate((el) => {
        const c = el.cloneNode(true);
        c.querySelectorAll('code').forEach((n) => n.remove());
        return c.textContent;
      });
      const latin = (prose.match(/[A-Za-z]+/g) ?? []).filter((w) => !['KV', 'cache', 'MLP', 'Llama'].includes(w));
      assert.deepEqual(latin, [], prose);
    }
    if (process.env.SHOTS) {
      mkdirSync(process.env.SHOTS, { recursive: true });
      await notice.scrollIntoViewIfNeeded();
      await page.screenshot({ path: join(process.env.SHOTS, `generic-${lang}.png`) });
    }
    // A known family again: the notice goes.
    await page.fill('#config-paste', JSON.stringify({ ...mystery, model_type: 'llama' }));
    await page.click('#config-apply');
    await page.waitForSelector('#model-inferred', { state: 'detached' });
    await finish(page);
  });

  test(`${lang}: an unknown model_type missing essentials names all of them`, async () => {
    const page = await newPage(browser);
    await paste(page, lang, { model_type: 'mystery_decoder', num_attention_heads: 32, intermediate_size: 14336, vocab_size: 128256 });
    const error = await page.locator('#config-error').innerText();
    assert.match(error, /hidden_size/);
    assert.match(error, /num_hidden_layers/);
    assert.match(error, /mystery_decoder/);
    assert.equal(await page.locator('#model-inferred').count(), 0);
    await finish(page);
  });
}
