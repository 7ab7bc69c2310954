// Issue 13, "Quantisation read from the file": a pasted config.json with a quantization_config
// sets the weight format (MXFP4 experts, the rest in BF16) with a notice in the page's language;
// choosing a weight format overrides it and the notice says so. Both languages, phone width,
// dark mode; no console errors.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { serve, launch, newPage, finish, openMath } from './harness.mjs';

let server, browser;
before(async () => { server = await serve(); browser = await launch(); });
after(async () => { await browser?.close(); await server?.close(); });

// Mixtral 8x7B's shape with gpt-oss's published quantization_config (openai/gpt-oss-120b).
const config = {
  model_type: 'mixtral', hidden_size: 4096, intermediate_size: 14336, num_hidden_layers: 32,
  num_attention_heads: 32, num_key_value_heads: 8, num_local_experts: 8, num_experts_per_tok: 2,
  vocab_size: 32000,
  quantization_config: {
    modules_to_not_convert: ['model.layers.*.self_attn', 'model.layers.*.mlp.router', 'model.embed_tokens', 'lm_head'],
    quant_method: 'mxfp4',
  },
};
// Experts 45,097,156,608 × 17/32 bytes + the other 1,605,636,096 parameters × 2 (tests/quant_config.rs).
const MXFP4_WEIGHTS = 23957864448 + 3211272192;
const BF16_WEIGHTS = 2 * 46702792704;

const WORDS = {
  en: { notice: /Quantised checkpoint/, format: /MXFP4 \(4\.25 bits per weight/, kept: /attention.*lm_head.*stay in BF16/s, wins: /INT4, wins/ },
  zh: { notice: /检查点自带量化/, format: /MXFP4（每个权重 4\.25 位/, kept: /注意力.*lm_head.*保持 BF16/s, wins: /INT4 优先/ },
};

const weightBytes = (page) => page.locator('tr[data-key="memory_per_gpu_bytes.weights"] td.num').getAttribute('data-bytes');

for (const lang of ['en', 'zh']) {
  test(`${lang}: a config's quantization_config sets the weight bytes, with a notice; a chosen format wins`, async () => {
    const page = await newPage(browser, { viewport: { width: 390, height: 900 }, colorScheme: 'dark' });
    await page.goto(`${server.url}#/${lang}/estimate`);
    await page.waitForSelector('#total-per-gpu');
    await page.click('details.paste summary');
    await page.fill('#config-paste', JSON.stringify(config));
    await page.click('#config-apply');
    await page.waitForSelector('#model-quant');
    assert.equal(await page.locator('#config-error').count(), 0);
    await page.waitForFunction((b) => document.querySelector('tr[data-key="memory_per_gpu_bytes.weights"] td.num')?.dataset.bytes === String(b), MXFP4_WEIGHTS);
    const notice = page.locator('#model-quant');
    const text = await notice.innerText();
    for (const key of ['notice', 'format', 'kept']) assert.match(text, WORDS[lang][key]);
    assert.ok((await notice.locator('code').allInnerTexts()).includes('mxfp4'));
    if (lang === 'zh') {
      const prose = await notice.evaluate((el) => {
        const c = el.cloneNode(true);
        c.querySelectorAll('code').forEach((n) => n.remove());
        return c.textContent;
      });
      const latin = (prose.match(/[A-Za-z]+/g) ?? []).filter((w) => !['MXFP', 'BF', 'GPU', 'GB', 'MLP'].includes(w));
      assert.deepEqual(latin, [], prose);
    }
    // The weights' show-the-math: the mixed sum, then MXFP4's bits derived (4 + 8/32).
    const math = page.locator('details.math[data-math="memory_per_gpu_bytes.weights"]');
    const mathText = await openMath(page, math, /OCP Microscaling Formats/);
    assert.equal(await math.locator('dl.weight-bits').count(), 1);
    assert.match(mathText, /(45\.1 B|451 亿) × 4\.250/);
    assert.match(mathText, /mxfp4(：|: )4 \+ 8 \/ 32 \+ 0 \/ \(32 × 1\) = 4\.250/);
    assert.match(mathText, /OCP Microscaling Formats/);
    if (process.env.SHOTS) {
      mkdirSync(process.env.SHOTS, { recursive: true });
      await notice.scrollIntoViewIfNeeded();
      await page.screenshot({ path: join(process.env.SHOTS, `quant-${lang}.png`) });
    }
    // The reader's own format wins over the config, and the notice says so.
    await page.selectOption('#weight-dtype', 'int4');
    await page.waitForFunction(() => /INT4/.test(document.getElementById('model-quant')?.textContent ?? ''));
    assert.match(await notice.innerText(), WORDS[lang].wins);
    assert.notEqual(await weightBytes(page), String(MXFP4_WEIGHTS));
    await page.selectOption('#weight-dtype', 'bf16');
    await page.waitForFunction((b) => document.querySelector('tr[data-key="memory_per_gpu_bytes.weights"] td.num')?.dataset.bytes === String(b), BF16_WEIGHTS);
    // The new weight dtypes are in the select.
    const options = await page.locator('#weight-dtype option').evaluateAll((os) => os.map((o) => o.value));
    assert.ok(options.includes('mxfp4') && options.includes('nvfp4'), options.join(' '));
    await finish(page);
  });

  test(`${lang}: a malformed quantization_config is refused with the field named`, async () => {
    const page = await newPage(browser);
    await page.goto(`${server.url}#/${lang}/estimate`);
    await page.waitForSelector('#total-per-gpu');
    await page.click('details.paste summary');
    await page.fill('#config-paste', JSON.stringify({ ...config, quantization_config: { quant_method: 'magic' } }));
    await page.click('#config-apply');
    const error = await page.locator('#config-error').innerText();
    assert.match(error, /model\.quantization_config\.quant_method/);
    assert.match(error, lang === 'zh' ? /应为/ : /expected one of/);
    assert.equal(await page.locator('#model-quant').count(), 0);
    await finish(page);
  });
}
