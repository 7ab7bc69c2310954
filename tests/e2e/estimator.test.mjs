// The estimator in a real browser: sliders change the numbers, the state survives the URL and
// localStorage, bad links and bad files get a message naming what is wrong, never NaN.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { serve, launch, newPage, finish, openMath } from './harness.mjs';

let server, browser;
before(async () => { server = await serve(); browser = await launch(); });
after(async () => { await browser?.close(); await server?.close(); });

const b64 = (obj) => Buffer.from(JSON.stringify(obj)).toString('base64url');
const bytes = (page, key) => page.locator(`tr[data-key="${key}"] td.num`).getAttribute('data-bytes').then(Number);

async function open(page, path = 'en/estimate/') {
  await page.goto(`${server.url}${path}`);
  await page.waitForSelector('#total-per-gpu');
  await page.waitForSelector('html[data-live] .assumptions-group #kv-block', { state: 'attached' });
}

async function noNaN(page) {
  const text = await page.locator('body').innerText();
  assert.ok(!/\bNaN\b|\binfinity\b|undefined/i.test(text), 'no NaN, infinity or undefined on screen');
}

test('the page has at least 8 labelled sliders, each with a number field and a unit', async () => {
  const page = await newPage(browser);
  await open(page);
  const sliders = await page.locator('input[type=range]').evaluateAll((els) => els.map((el) => ({
    id: el.id, aria: el.getAttribute('aria-label'),
    number: !!document.getElementById(`${el.id}-number`),
    unit: el.closest('.slider')?.querySelector('.unit')?.textContent ?? '',
  })));
  assert.ok(sliders.length >= 8, `${sliders.length} sliders`);
  for (const s of sliders) {
    assert.ok(s.aria && s.aria.length > 1, `${s.id} has an aria label`);
    assert.ok(s.number, `${s.id} has a number field`);
  }
  // Charts are built when they come near the viewport.
  await page.locator('#charts').scrollIntoViewIfNeeded();
  await page.waitForSelector('#chart-scaling svg');
  assert.ok((await page.locator('#chart-roofline svg, #chart-kv svg, #chart-scaling svg, #chart-bound svg').count()) >= 3, 'at least 3 charts');
  await finish(page);
});

test('moving the context slider with the keyboard grows the KV cache and updates the URL', async () => {
  const page = await newPage(browser);
  await open(page);
  const kv0 = await bytes(page, 'memory_per_gpu_bytes.kv_cache');
  assert.equal(kv0, 536870912, 'Llama 3.1 8B, 4K tokens, BF16: 0.5 GiB');
  const hash0 = await page.evaluate(() => location.search);
  await page.focus('#context');
  await page.keyboard.press('ArrowRight'); // 4096 → 6144
  await page.keyboard.press('ArrowRight'); // → 8192
  await page.waitForFunction(() => document.getElementById('context-number').value === '8192');
  // The report follows the slider in the frame after the edit, so wait for it.
  await page.waitForFunction((want) => document.querySelector('tr[data-key="memory_per_gpu_bytes.kv_cache"] td.num').dataset.bytes === String(want), 2 * kv0);
  assert.equal(await bytes(page, 'memory_per_gpu_bytes.kv_cache'), 2 * kv0);
  // The URL is written once the edits pause (a quarter second).
  await page.waitForFunction((h0) => location.search !== h0, hash0);
  const hash1 = await page.evaluate(() => location.search);
  assert.notEqual(hash1, hash0);
  assert.match(hash1, /^\?v=1&s=/);
  assert.equal(await page.evaluate(() => location.pathname), '/en/estimate/');
  await noNaN(page);
  await finish(page);
});

test('typing in a number field sets the value; out of range is refused with a message', async () => {
  const page = await newPage(browser);
  await open(page);
  await page.fill('#batch-number', '32');
  await page.press('#batch-number', 'Enter');
  await page.waitForFunction(() => document.querySelector('tr[data-key="memory_per_gpu_bytes.kv_cache"] td.num').dataset.bytes === String(32 * 536870912));
  await page.fill('#batch-number', '5000');
  await page.press('#batch-number', 'Enter');
  await page.waitForSelector('.slider[data-control=batch] .field-error');
  assert.equal(await bytes(page, 'memory_per_gpu_bytes.kv_cache'), 32 * 536870912, 'the refused value changed nothing');
  await finish(page);
});

test('a shared URL opens exactly the same view in a fresh browser', async () => {
  const page = await newPage(browser);
  await open(page);
  await page.click('button[data-preset="70b-fp16"]');
  await page.waitForSelector('.verdict.bad');
  await page.selectOption('#gpu', 'h200-sxm');
  await page.click('#unit-gib');
  await page.waitForFunction(() => location.search.includes('u=gib'));
  const url = await page.evaluate(() => location.href);
  const snapshot = async (p) => p.evaluate(() => ({
    total: document.getElementById('total-per-gpu').dataset.bytes,
    text: document.getElementById('total-per-gpu').textContent,
    gpu: document.getElementById('gpu').value,
    decode: document.getElementById('decode-throughput').textContent,
    model: document.getElementById('model-search').value,
  }));
  const before = await snapshot(page);
  const fresh = await newPage(browser); // new context: empty localStorage
  await fresh.goto(url);
  await fresh.waitForSelector('html[data-live] #decode-throughput');
  assert.deepEqual(await snapshot(fresh), before);
  assert.match(before.text, /GiB/);
  assert.equal(await fresh.locator('#notices').count(), 0, 'a good link opens without notices');
  await finish(fresh);
  await finish(page);
});

test('the last state is kept in localStorage', async () => {
  const page = await newPage(browser);
  await open(page);
  await page.fill('#batch-number', '12');
  await page.press('#batch-number', 'Enter');
  await page.waitForFunction(() => location.search.includes('s='));
  await page.goto(`${server.url}en/`);
  await page.waitForSelector('article[data-page=home]');
  await page.goto(`${server.url}en/estimate/`);
  await page.waitForSelector('#total-per-gpu');
  assert.equal(await page.inputValue('#batch-number'), '12');
  await finish(page);
});

test('garbage and outdated hashes open the nearest valid state with a visible message', async () => {
  const page = await newPage(browser);
  const cases = [
    ['v=1&s=%%%%', 'link'],
    ['v=1&s=bm90IGpzb24', 'link'],
    ['v=7&s=' + b64({ model: 'llama-3.1-8b', batch: 4 }), 'v=7'],
    ['v=1&s=' + b64({ model: 'llama-3.1-8b', context_tokens: 0, batch: 6 }), 'context_tokens'],
    ['v=1&s=' + b64({ model: 'no-such-model' }), 'model'],
    ['v=1&s=' + b64({ model: 'llama-3.1-8b', gpu: { memory_bytes: -5 } }), 'gpu'],
  ];
  for (const [query, mention] of cases) {
    await page.goto(`${server.url}en/estimate/?${query}`);
    await page.waitForSelector('#notices');
    const text = await page.locator('#notices').innerText();
    assert.ok(text.includes(mention), `${query}: notice mentions ${mention}: ${text}`);
    await page.waitForSelector('#total-per-gpu');
    await noNaN(page);
  }
  // The good fields of a partly bad link survive.
  await page.goto(`${server.url}en/estimate/?v=1&s=${b64({ model: 'llama-3.1-8b', context_tokens: 0, batch: 6 })}`);
  await page.waitForSelector('#notices');
  assert.equal(await page.inputValue('#batch-number'), '6');
  await page.click('#notices .dismiss');
  assert.equal(await page.locator('#notices').count(), 0);
  await finish(page);
});

test('markup in a damaged link is shown as text in the notice, never as elements', async () => {
  const page = await newPage(browser);
  await open(page, `en/estimate/?v=1&s=${b64({ model: 'llama-3.1-8b', gpu: '<img src=x id=injected>' })}`);
  await page.waitForSelector('#notices');
  assert.equal(await page.locator('#notices img, #injected').count(), 0, 'no element from the link');
  assert.match(await page.locator('#notices li').first().innerText(), /gpu.*<img src=x id=injected>/);
  await finish(page);
});

test('a slider and its number field stay in step; a refused number is marked invalid until a good one', async () => {
  const page = await newPage(browser);
  await open(page);
  await page.focus('#batch');
  await page.keyboard.press('End');
  await page.waitForFunction(() => document.getElementById('batch-number').value === '1024');
  // The range's spoken value follows in the same update or the next frame (a loaded machine
  // showed the number first): wait for it, then hold it to the number.
  await page.waitForFunction(() => document.getElementById('batch').getAttribute('aria-valuetext') !== '1 sequences', null, { timeout: 5000 }).catch(() => {});
  assert.equal(await page.getAttribute('#batch', 'aria-valuetext'), '1024 sequences');
  await page.fill('#batch-number', '5000');
  await page.press('#batch-number', 'Enter');
  await page.waitForSelector('.slider[data-control=batch] .field-error');
  assert.equal(await page.getAttribute('#batch-number', 'aria-invalid'), 'true');
  await page.fill('#batch-number', '3');
  await page.press('#batch-number', 'Enter');
  await page.waitForFunction(() => document.getElementById('batch').getAttribute('aria-valuetext') === '3 sequences');
  assert.equal(await page.getAttribute('#batch-number', 'aria-invalid'), 'false');
  assert.equal(await page.locator('.slider[data-control=batch] .field-error').count(), 0);
  // The range sits on the step nearest 3 among its values.
  const [pos, max] = await page.$eval('#batch', (el) => [Number(el.value), Number(el.max)]);
  assert.ok(pos > 0 && pos < max, `range position ${pos} of ${max}`);
  await finish(page);
});

test('importing a broken JSON file names what is wrong and keeps the current state', async () => {
  const page = await newPage(browser);
  await open(page);
  const total = await bytes(page, 'memory_per_gpu_bytes.total');
  for (const [content, mention] of [
    ['{ "model": "llama-3.1-8b", ', 'JSON'],
    ['[1, 2, 3]', 'object'],
    ['{"batch": 4}', 'model'],
    ['', 'empty'],
  ]) {
    await page.setInputFiles('#import-file', { name: 'scenario.json', mimeType: 'application/json', buffer: Buffer.from(content) });
    await page.waitForSelector('#notices.error');
    const text = await page.locator('#notices').innerText();
    assert.ok(text.includes(mention), `${content}: ${text}`);
    assert.equal(await bytes(page, 'memory_per_gpu_bytes.total'), total, 'nothing lost');
    await page.click('#notices .dismiss');
  }
  // A good file is applied.
  await page.setInputFiles('#import-file', { name: 's.json', mimeType: 'application/json', buffer: Buffer.from('{"model": "qwen2.5-7b", "batch": 16}') });
  await page.waitForFunction(() => document.getElementById('batch-number').value === '16');
  assert.equal(await page.inputValue('#model-search'), 'Qwen2.5 7B');
  await finish(page);
});

test('import repairs a bad field as a link does, clamps an out-of-range value, names fields in the reader\'s words, and suggests the closest model ids (zh and en, phone, dark)', async () => {
  const WORDS = {
    en: { heading: /Imported/i, batch: /Concurrent requests \(batch\): /, ctx: /Context length \(context_tokens\): .*nearest allowed value, 10000000/, model: /closest: .*llama-3\.1-70b/ },
    zh: { heading: /导入/, batch: /并发请求数（batch）：/, ctx: /上下文长度（context_tokens）：.*最接近的允许值 10000000/, model: /最接近的：.*llama-3\.1-70b/ },
  };
  for (const lang of ['en', 'zh']) {
    const page = await newPage(browser, { viewport: { width: 390, height: 844 }, colorScheme: 'dark' });
    await open(page, `${lang}/estimate/`);
    const file = '{"model": "llama-3-70b", "batch": "lots", "gpus": 2, "context_tokens": 20000000}';
    await page.setInputFiles('#import-file', { name: 's.json', mimeType: 'application/json', buffer: Buffer.from(file) });
    await page.waitForSelector('#notices.warn');
    const text = await page.locator('#notices').innerText();
    const w = WORDS[lang];
    assert.match(text, w.batch, text);
    assert.match(text, w.ctx, text);
    assert.match(text, w.model, text);
    // A few ids are suggested, not the whole catalog.
    assert.ok(!text.includes('gpt2'), text);
    // The rest of the file was applied (2 GPUs).
    await page.waitForFunction(() => document.getElementById('gpus-number')?.value === '2');
    await finish(page);
  }
});

test('export writes the scenario as JSON', async () => {
  const page = await newPage(browser);
  await open(page);
  const [download] = await Promise.all([page.waitForEvent('download'), page.click('#export')]);
  const { readFile } = await import('node:fs/promises');
  const json = JSON.parse(await readFile(await download.path(), 'utf8'));
  assert.equal(json.model, 'llama-3.1-8b');
  assert.equal(json.context_tokens, 4096);
  await finish(page);
});

test('what would make it fit: applying the advice makes it fit', async () => {
  const page = await newPage(browser);
  await open(page, 'zh/estimate/');
  await page.click('button[data-preset="70b-fp16"]');
  await page.waitForSelector('.verdict.bad');
  assert.match(await page.locator('#verdict').innerText(), /装不下/);
  const buttons = page.locator('.advice button.apply');
  assert.ok(await buttons.count() >= 2);
  await buttons.last().click();
  await page.waitForSelector('.verdict.ok');
  await noNaN(page);
  await finish(page);
});

test('extreme settings never show NaN; invalid combinations name the field', async () => {
  const page = await newPage(browser);
  await open(page);
  for (const id of ['context', 'batch', 'gpus']) {
    await page.focus(`#${id}`);
    await page.keyboard.press('End');
  }
  await page.waitForFunction(() => document.getElementById('gpus-number').value === '1024');
  await noNaN(page);
  await page.focus('#context');
  await page.keyboard.press('Home');
  await page.focus('#batch');
  await page.keyboard.press('Home');
  // Tensor parallel 64 does not divide Llama 3.1 8B's 8 KV heads / 32 heads.
  await page.focus('#tensor-parallel');
  await page.keyboard.press('End');
  await page.waitForSelector('#invalid-banner');
  assert.match(await page.locator('#invalid-banner').innerText(), /tensor_parallel/);
  await noNaN(page);
  await finish(page);
});

test('pasted configs: broken JSON and inconsistent fields are named; a good one is used', async () => {
  const page = await newPage(browser);
  await open(page);
  await page.click('details.paste summary');
  await page.fill('#config-paste', '{"model_type": "llama", ');
  await page.click('#config-apply');
  assert.match(await page.locator('#config-error').innerText(), /not valid JSON/);
  await page.fill('#config-paste', JSON.stringify({ model_type: 'llama', hidden_size: 4096, intermediate_size: 11008, num_hidden_layers: 32, num_attention_heads: 30, vocab_size: 32000 }));
  await page.click('#config-apply');
  assert.match(await page.locator('#config-error').innerText(), /num_attention_heads|head/);
  await page.fill('#config-paste', JSON.stringify({ model_type: 'llama', hidden_size: 4096, intermediate_size: 11008, num_hidden_layers: 32, num_attention_heads: 32, num_key_value_heads: 32, vocab_size: 32000 }));
  await page.click('#config-apply');
  await page.waitForFunction(() => document.getElementById('params-total').textContent.includes('6,738,415,616'));
  await finish(page);
});

test('the language switch keeps the estimator state', async () => {
  const page = await newPage(browser);
  await open(page);
  await page.fill('#batch-number', '24');
  await page.press('#batch-number', 'Enter');
  await page.waitForFunction(() => location.search.includes('s='));
  await page.click('#lang-switch');
  await page.waitForFunction(() => location.pathname === '/zh/estimate/' && location.search.startsWith('?v=1'));
  await page.waitForSelector('#total-per-gpu');
  assert.equal(await page.inputValue('#batch-number'), '24');
  assert.equal(await page.locator('article h1').innerText(), '估算器');
  await finish(page);
});

test('compare mode shows two scenarios side by side', async () => {
  const page = await newPage(browser);
  await open(page);
  await page.check('#compare-toggle');
  await page.waitForSelector('#compare');
  await page.selectOption('#weight-dtype', 'int4'); // edits scenario B
  await page.waitForFunction(() => {
    const cells = [...document.querySelectorAll('#compare tbody tr')].find((tr) => tr.textContent.includes('Weights'))?.querySelectorAll('td');
    return cells && cells[0].textContent !== cells[1].textContent;
  });
  await page.waitForFunction(() => location.search.includes('&c='));
  await finish(page);
});

test('training precision and the fused optimizer step change the gradient and optimizer lines', async () => {
  const page = await newPage(browser);
  // Llama 3.1 8B full fine-tune, mixed precision (default): 2 + 12 bytes/param of gradients + optimizer.
  await open(page, `en/estimate/?v=1&s=${b64({ model: 'llama-3.1-8b', mode: 'training', gpu: 'h200-sxm' })}`);
  await page.waitForSelector('#training-precision');
  const P = 8030261248;
  assert.equal(await bytes(page, 'memory_per_gpu_bytes.optimizer'), 12 * P);
  await page.selectOption('#training-precision', 'bf16');
  await page.waitForFunction(() => document.querySelector('tr[data-key="memory_per_gpu_bytes.optimizer"] td.num').getAttribute('data-bytes') === String(4 * 8030261248));
  assert.equal(await bytes(page, 'memory_per_gpu_bytes.gradients'), 2 * P);
  await page.check('#optimizer-in-backward');
  // One layer's gradients: the 128,256 × 4,096 embedding in bf16.
  await page.waitForFunction(() => document.querySelector('tr[data-key="memory_per_gpu_bytes.gradients"] td.num').getAttribute('data-bytes') === String(2 * 128256 * 4096));
  await page.waitForFunction(() => /training_precision|optimizer_in_backward/.test(atob(new URLSearchParams(location.search.slice(1)).get('s').replace(/-/g, '+').replace(/_/g, '/'))));
  await noNaN(page);
  if (process.env.SHOTS) {
    await page.locator('fieldset.training').screenshot({ path: `${process.env.SHOTS}/training-en.png` });
  }
  await finish(page);
});

test('chunked loss, offloading and a paged optimizer lower the logits, activation and optimizer lines', async () => {
  const page = await newPage(browser);
  // Llama 3.1 8B full fine-tune, all bf16, batch 2 × 2,048 tokens, full recompute.
  await open(page, `en/estimate/?v=1&s=${b64({ model: 'llama-3.1-8b', mode: 'training', gpu: 'h200-sxm', batch: 2, context_tokens: 2048, training_precision: 'bf16', recompute: 'full' })}`);
  await page.waitForSelector('#loss-chunks');
  // Logits: 2 × 2048 × 128,256 in bf16 + two fp32 arrays of them for an upcasting loss (the
  // copy and its log-softmax); with 8 chunks, the fp32 arrays of one chunk at a time.
  const L = 2 * 2048 * 128256;
  assert.equal(await bytes(page, 'memory_per_gpu_bytes.logits'), L * 2 + 2 * L * 4);
  await page.selectOption('#loss-chunks', '8');
  await page.waitForFunction((v) => document.querySelector('tr[data-key="memory_per_gpu_bytes.logits"] td.num').getAttribute('data-bytes') === String(v), L * 2 + 2 * (L / 8) * 4);
  const acts = await bytes(page, 'memory_per_gpu_bytes.activations');
  await page.check('#activation-offload');
  await page.waitForFunction((v) => Number(document.querySelector('tr[data-key="memory_per_gpu_bytes.activations"] td.num').getAttribute('data-bytes')) < v, acts);
  // Paged 8-bit AdamW: 2 bytes per parameter in unified memory, all of it on the device while
  // the H200 has room (the driver pages states out only when the device runs short).
  await page.selectOption('#optimizer', 'paged_adam8bit');
  await page.waitForFunction(() => document.querySelector('tr[data-key="memory_per_gpu_bytes.optimizer"] td.num').getAttribute('data-bytes') === String(2 * 8030261248));
  const optimizerMath = page.locator('tr[data-key="memory_per_gpu_bytes.optimizer"] details.math');
  assert.match(await openMath(page, optimizerMath, /unified memory/), /unified memory/);
  // The legend names the logits line, and the link carries the new fields.
  assert.match(await page.locator('body').innerText(), /Logits/);
  await page.waitForFunction(() => /loss_chunks.*activation_offload|activation_offload.*loss_chunks/s.test(atob(new URLSearchParams(location.search.slice(1)).get('s').replace(/-/g, '+').replace(/_/g, '/'))));
  // The efficiency list names the new factors with their sources.
  const list = await page.locator('.efficiency-group').textContent();
  for (const f of ['fp8_tensor_flops', 'quantized_weight_bandwidth', 'request_overhead_s']) assert.ok(list.includes(f), f);
  assert.ok(list.includes('MARLIN'));
  await noNaN(page);
  if (process.env.SHOTS) {
    await page.locator('fieldset.training').screenshot({ path: `${process.env.SHOTS}/recipes-training-en.png` });
  }
  await finish(page);
});

test('the first-token cost is listed with its source and can be set', async () => {
  const page = await newPage(browser);
  await open(page, `en/estimate/?v=1&s=${b64({ model: 'llama-3.1-8b', prompt_tokens: 16, output_tokens: 16, context_tokens: 32 })}`);
  await page.locator('details.efficiency-group summary').click();
  const line = () => page.locator('.efficiency-group li', { hasText: 'request_overhead_s' }).innerText();
  assert.match(await line(), /= 0\.015 .*vLLM/);
  const num = page.locator('#eff-request + input');
  await num.fill('40');
  await num.dispatchEvent('change');
  await page.waitForFunction(() => [...document.querySelectorAll('.efficiency-group li')].some((li) => /request_overhead_s = 0\.04 ✎/.test(li.textContent)));
  await page.waitForFunction(() => /request_overhead_s/.test(atob(new URLSearchParams(location.search.slice(1)).get('s').replace(/-/g, '+').replace(/_/g, '/'))));
  await noNaN(page);
  await finish(page);
});

test('the tensor-parallel scaling curve is drawn only at degrees the engine accepts, and says so (zh and en)', async () => {
  for (const lang of ['en', 'zh']) {
    const page = await newPage(browser);
    await open(page, `${lang}/estimate/`);
    const note = page.locator('#scaling-tp');
    await note.scrollIntoViewIfNeeded();
    await page.waitForFunction(() => /\d/.test(document.getElementById('scaling-tp')?.innerText ?? ''));
    const text = await note.innerText();
    // Llama-3.1-8B: 32 heads, 8 KV heads.
    assert.match(text, lang === 'en' ? /1, 2, 4, 8, 16, 32/ : /1、2、4、8、16、32/, text);
    assert.ok(!/\b(3|6|12)(, |、)/.test(text), text);
    assert.match(text, lang === 'en' ? /communication/ : /通信/);
    await finish(page);
  }
});

test('as published: DeepSeek-V3 is sized in its FP8 blocks by default, and the model line names the format (zh and en, phone, dark)', async () => {
  for (const lang of ['en', 'zh']) {
    const page = await newPage(browser, { viewport: { width: 390, height: 844 }, colorScheme: 'dark' });
    await open(page, `${lang}/estimate/?v=1&s=${b64({ model: 'deepseek-v3' })}`);
    assert.equal(await page.inputValue('#weight-dtype'), 'auto');
    assert.match(await page.locator('#weight-dtype option[value=auto]').innerText(), lang === 'en' ? /As published/ : /按发布格式/);
    assert.equal(await page.locator('#model-format').innerText(), 'FP8');
    await page.waitForSelector('#model-quant');
    // About one byte per parameter (671B main model, 16-bit embeddings and scales aside), not two.
    const weights = Number(await page.locator('tr[data-key="memory_per_gpu_bytes.weights"] td.num').getAttribute('data-bytes'));
    assert.ok(weights > 650e9 && weights < 720e9, `${weights}`);
    // Choosing BF16 doubles them; "as published" brings the FP8 back.
    await page.selectOption('#weight-dtype', 'bf16');
    await page.waitForFunction(() => Number(document.querySelector('tr[data-key="memory_per_gpu_bytes.weights"] td.num')?.dataset.bytes) > 1.2e12);
    await page.selectOption('#weight-dtype', 'auto');
    await page.waitForFunction(() => Number(document.querySelector('tr[data-key="memory_per_gpu_bytes.weights"] td.num')?.dataset.bytes) < 7.2e11);
    await finish(page);
  }
});

test('wide expert parallelism: the dispatch kernels, redundant experts and the imbalance move the exchange row, shown with its math; a split SGLang refuses is named (zh and en)', async () => {
  const wide = { model: 'deepseek-v3', weight_dtype: 'fp8', serving_stack: 'sglang', gpu: 'h200-sxm', gpus: 16,
    tensor_parallel: 1, expert_parallel: 16, batch: 64, context_tokens: 4096, ep_comm: 'deepep_low_latency' };
  for (const lang of ['en', 'zh']) {
    const page = await newPage(browser);
    await open(page, `${lang}/estimate/?v=1&s=${b64(wide)}`);
    const row = page.locator('#ep-exchange');
    await row.waitFor();
    const ms = async () => Number((await row.innerText()).replace(/[^0-9.]/g, ''));
    const low = await ms();
    assert.ok(low > 1 && low < 100, `${lang}: ${await row.innerText()}`);
    const math = await openMath(page, row.locator('xpath=..').locator('details.math'), /7,408 B/);
    assert.match(math, /DeepEP/, `${lang}: the source is named`);
    // NCCL sends every top-k copy in BF16: the exchange takes longer.
    await page.selectOption('#ep-comm', 'nccl');
    await page.waitForFunction((v) => Number(document.querySelector('#ep-exchange').innerText.replace(/[^0-9.]/g, '')) > v, low);
    // The imbalance slider shows the engine's default and takes the reader's value.
    const imb = page.locator('#expert-imbalance-number');
    assert.equal(await imb.inputValue(), '1.2');
    await imb.fill('2');
    await imb.dispatchEvent('change');
    await page.waitForFunction(() => /expert_imbalance/.test(atob(new URLSearchParams(location.search.slice(1)).get('s').replace(/-/g, '+').replace(/_/g, '/'))));
    await noNaN(page);
    await finish(page);
  }
  // SGLang needs whole shares of the 256 experts: EP 96 is refused, with the allowed sizes.
  const page = await newPage(browser);
  await open(page, `zh/estimate/?v=1&s=${b64({ ...wide, gpus: 96, expert_parallel: 32 })}`);
  await page.locator('#ep-exchange').waitFor();
  const ep = page.locator('#expert-parallel-number');
  await ep.fill('96');
  await ep.dispatchEvent('change');
  await page.waitForSelector('#invalid-banner');
  assert.match(await page.locator('#invalid-banner').innerText(), /expert_parallel|专家并行/);
  assert.match(await page.locator('#invalid-banner').innerText(), /可取 1、2、4、8、16、32、64，实际为 96/);
  await finish(page);
});

/** The engine's report for `scenario`, from the native command line (`gpu-primer estimate -`). */
function cliEstimate(scenario) {
  const root = new URL('../../', import.meta.url).pathname;
  const bins = (process.env.GPU_PRIMER_BIN ? [process.env.GPU_PRIMER_BIN] : ['release', 'debug'].map((p) => join(root, 'target', p, 'gpu-primer')))
    .filter((p) => existsSync(p));
  assert.ok(bins.length > 0, 'no native gpu-primer binary: build it first (`cargo build --release`), or name one with GPU_PRIMER_BIN');
  const bin = bins.sort((a, b) => statSync(b).mtimeMs - statSync(a).mtimeMs)[0];
  return JSON.parse(execFileSync(bin, ['estimate', '-'], { input: JSON.stringify(scenario), encoding: 'utf8' }));
}

/** Seconds from a time as the page prints it (`435 µs`, `12.3 ms`, `1.2 s`). */
function seconds(text) {
  const m = /([\d.,]+)\s*(ns|µs|ms|s)\b/.exec(text);
  assert.ok(m, `a time in «${text}»`);
  return Number(m[1].replace(/,/g, '')) * { ns: 1e-9, 'µs': 1e-6, ms: 1e-3, s: 1 }[m[2]];
}

/** Whether `shown` is `want` to the page's three significant digits. */
const sig3 = (shown, want) => Math.abs(shown - want) <= Math.max(1e-12, 0.006 * Math.abs(want));

test('KV cache tiers: open sessions and a CPU tier show where the histories are served from and the restore, as the engine computes them, with their math; the link keeps them (zh and en)', async () => {
  const base = { model: 'llama-3.1-8b', gpu: 'h100-sxm', context_tokens: 8192, prefix_hit_rate: 0.9 };
  const want = cliEstimate({ ...base, prefix_open_sessions: 200, kv_cpu_tier_bytes: 100e9 });
  const k = want.time.kv_tiers;
  assert.ok(k && k.cpu.restored && k.gpu_share > 0 && k.cpu.share > 0 && k.recomputed_share > 0, JSON.stringify(k));
  for (const lang of ['en', 'zh']) {
    const page = await newPage(browser);
    await open(page, `${lang}/estimate/?v=1&s=${b64(base)}`);
    assert.equal(await page.locator('#kv-tier-shares').count(), 0, 'no tier rows without open sessions');
    assert.equal(await page.locator('#kv-cpu-tier').count(), 0, 'no tier controls without open sessions');
    const sessions = page.locator('#kv-sessions-number');
    await sessions.fill('200');
    await sessions.dispatchEvent('change');
    const cpu = page.locator('#kv-cpu-tier-number');
    await cpu.waitFor();
    await cpu.fill('100');
    await cpu.dispatchEvent('change');
    // The CPU tier's read rate appears with the engine's default: this H100's PCIe link one way.
    await page.waitForFunction((v) => document.getElementById('kv-cpu-rate-number')?.value === v, String(k.cpu.bytes_per_s / 1e9));
    const row = page.locator('#kv-tier-shares');
    await page.waitForFunction(() => /CPU/.test(document.getElementById('kv-tier-shares')?.innerText ?? ''));
    const shares = [...(await row.innerText()).matchAll(/([\d.]+)%/g)].map((m) => Number(m[1]));
    const wanted = [k.gpu_share, k.cpu.share, k.recomputed_share].map((x) => 100 * x);
    assert.equal(shares.length, 3, `${lang}: GPU, CPU, recomputed: ${await row.innerText()}`);
    shares.forEach((v, i) => assert.ok(sig3(v, wanted[i]), `${lang}: ${shares} against the engine's ${wanted}`));
    const restore = await page.locator('#kv-restore').innerText();
    assert.ok(sig3(seconds(restore), k.restore_s), `${lang}: ${restore} against ${k.restore_s} s`);
    assert.ok(sig3(seconds(await page.locator('#ttft').innerText()), want.time.time_to_first_token_s), `${lang}: TTFT`);
    // Show the math: the shares' working set, and the restore inside the time to first token.
    const math = await openMath(page, row.locator('xpath=..').locator('details.math'), /200/);
    assert.match(math, /200/, `${lang}: the sessions in the working set`);
    // prefill + restore + per-request cost = TTFT, the restore to the math's four digits.
    const ttftMath = await openMath(page, page.locator('#ttft').locator('xpath=..').locator('details.math'), / \+ .+ \+ /);
    const terms = /([\d.]+ (?:µs|ms|s)) \+ ([\d.]+ (?:µs|ms|s)) \+ ([\d.]+ (?:µs|ms|s)) = ([\d.]+ (?:µs|ms|s))/.exec(ttftMath);
    assert.ok(terms, `${lang}: «${ttftMath}»`);
    assert.ok(Math.abs(seconds(terms[2]) - k.restore_s) <= 1e-3 * k.restore_s, `${lang}: the restore in «${terms[0]}» against ${k.restore_s} s`);
    // The link keeps the tiers: a fresh page opens the same rows.
    await page.waitForFunction(() => /prefix_open_sessions.*kv_cpu_tier_bytes|kv_cpu_tier_bytes.*prefix_open_sessions/s.test(atob(new URLSearchParams(location.search.slice(1)).get('s').replace(/-/g, '+').replace(/_/g, '/'))));
    const link = page.url();
    const shown = await row.innerText();
    const again = await newPage(browser);
    await again.goto(link);
    await again.locator('#kv-tier-shares').waitFor();
    assert.equal(await again.locator('#kv-tier-shares').innerText(), shown);
    assert.equal(await again.locator('#kv-cpu-tier-number').inputValue(), '100');
    await finish(again);
    // GPU prefix caching off: the GPU serves none of the histories.
    await page.check('#kv-gpu-cache-off');
    await page.waitForFunction(() => /^GPU\s0%/.test(document.getElementById('kv-tier-shares')?.innerText ?? ''));
    await noNaN(page);
    await finish(page);
  }
});

test('training shows tokens/s per GPU, MFU with its FLOP convention and where the step goes, each part with its math, as the engine computes them (zh and en)', async () => {
  const base = { model: 'llama-3.1-70b', gpu: 'h100-sxm', mode: 'training', gpus: 64, tensor_parallel: 8,
    pipeline_parallel: 4, zero_stage: 1, micro_batches: 16, context_tokens: 4096 };
  const want = cliEstimate(base);
  const t = want.training;
  const full = cliEstimate({ ...base, recompute: 'full' }).training;
  assert.ok(t.step.pipeline_bubble_s > 0 && t.step.recompute_s === 0 && full.step.recompute_s > 0, JSON.stringify(t.step));
  const percent = (text) => Number(/([\d.]+)%\s*$/.exec(text.trim())?.[1]);
  // A rate as the page prints it: "853 tokens/s", "54.6 k token/s".
  const rate = (text) => {
    const m = /([\d.,]+)\s*(k|M|G)?\s*tok/.exec(text);
    assert.ok(m, `a rate in «${text}»`);
    return Number(m[1].replace(/,/g, '')) * ({ k: 1e3, M: 1e6, G: 1e9 }[m[2]] ?? 1);
  };
  for (const lang of ['en', 'zh']) {
    const page = await newPage(browser);
    await open(page, `${lang}/estimate/?v=1&s=${b64(base)}`);
    await page.locator('#training-mfu').waitFor();
    const mfu = await page.locator('#training-mfu').innerText();
    assert.ok(sig3(Number(/^([\d.]+)%/.exec(mfu)[1]), 100 * t.mfu), `${lang}: ${mfu} against ${t.mfu}`);
    assert.match(mfu, /megatron_causal/, `${lang}: the FLOP convention is named`);
    const perGpu = await page.locator('#training-per-gpu').innerText();
    assert.ok(sig3(rate(perGpu), t.tokens_per_s_per_gpu), `${lang}: «${perGpu}» against ${t.tokens_per_s_per_gpu}`);
    const hfu = await page.locator('#training-hfu').innerText();
    assert.ok(sig3(Number(/^([\d.]+)%/.exec(hfu)[1]), 100 * t.hfu), `${lang}: ${hfu} against ${t.hfu}`);
    // Every part that takes time has a row, none that does not; the shares make the whole step.
    const parts = page.locator('td[id^="step-"]:not(#step-time)');
    const ids = await parts.evaluateAll((tds) => tds.map((td) => td.id));
    const names = { 'step-gemm': 'gemm_s', 'step-attention': 'attention_s', 'step-elementwise': 'elementwise_s',
      'step-loss': 'loss_s', 'step-recompute': 'recompute_s', 'step-optimizer': 'optimizer_s', 'step-tp': 'tensor_parallel_s',
      'step-cp': 'context_parallel_s', 'step-ep': 'expert_parallel_s', 'step-fsdp': 'fsdp_s', 'step-dp': 'data_parallel_s',
      'step-bubble': 'pipeline_bubble_s', 'step-launch': 'launch_s' };
    assert.deepEqual(ids, Object.keys(names).filter((id) => t.step[names[id]] > 0), `${lang}: ${ids}`);
    const total = Object.values(t.step).reduce((a, b) => a + b, 0);
    let sum = 0;
    for (const id of ids) {
      const text = await page.locator(`#${id}`).innerText();
      assert.ok(sig3(seconds(text), t.step[names[id]]), `${lang}: ${id} «${text}» against ${t.step[names[id]]} s`);
      sum += percent(text);
    }
    assert.ok(Math.abs(sum - 100) < 0.5, `${lang}: the shares sum to ${sum}%`);
    assert.ok(sig3(percent(await page.locator('#step-bubble').innerText()), 100 * t.step.pipeline_bubble_s / total), `${lang}: the bubble's share`);
    // Show the math of the GEMMs: the formula with its efficiency terms and the values.
    const math = await openMath(page, page.locator('#step-gemm').locator('xpath=..').locator('details.math'), /P × e × q/);
    assert.match(math, /P × e × q/, `${lang}: «${math}»`);
    // Full recomputation adds its row.
    await page.selectOption('#recompute', 'full');
    await page.locator('#step-recompute').waitFor();
    assert.ok(sig3(seconds(await page.locator('#step-recompute').innerText()), full.step.recompute_s), `${lang}: recomputation`);
    await noNaN(page);
    if (process.env.SHOTS) await page.locator('.perf-table').screenshot({ path: `${process.env.SHOTS}/training-parts-${lang}.png` });
    await finish(page);
  }
});

test('training controls: the low-precision recipe adds the FP8 weight copies and speeds the GEMMs, micro-batches set the step; a recipe the GPU cannot run is named and nothing is lost (zh and en)', async () => {
  const base = { model: 'llama-3.1-8b', gpu: 'h100-sxm', mode: 'training', gpus: 8, zero_stage: 1 };
  const fp8 = cliEstimate({ ...base, low_precision_recipe: 'fp8_current' });
  const eight = cliEstimate({ ...base, low_precision_recipe: 'fp8_current', micro_batches: 8 });
  assert.ok(fp8.memory_per_gpu_bytes.fp8_weight_cache > 0 && eight.time.step_s > 4 * fp8.time.step_s);
  for (const lang of ['en', 'zh']) {
    const page = await newPage(browser);
    await open(page, `${lang}/estimate/?v=1&s=${b64(base)}`);
    await page.locator('#recipe').waitFor();
    assert.equal(await page.locator('#recipe').inputValue(), 'none');
    assert.equal(await page.locator('#micro-batches-number').inputValue(), '1');
    await page.selectOption('#recipe', 'fp8_current');
    await page.locator('tr[data-key="memory_per_gpu_bytes.fp8_weight_cache"]').waitFor();
    assert.ok(sig3(await bytes(page, 'memory_per_gpu_bytes.fp8_weight_cache'), fp8.memory_per_gpu_bytes.fp8_weight_cache), `${lang}: the FP8 copies`);
    await page.waitForFunction((want) => {
      const m = /([\d.]+)\s*(ms|s)\b/.exec(document.getElementById('step-gemm')?.innerText ?? '');
      return m && Math.abs(Number(m[1]) * (m[2] === 'ms' ? 1e-3 : 1) - want) <= 0.006 * want;
    }, fp8.training.step.gemm_s);
    assert.ok(sig3(seconds(await page.locator('#step-gemm').innerText()), fp8.training.step.gemm_s), `${lang}: FP8 GEMMs`);
    // Eight micro-batches: the step as the engine computes it, and the link keeps them.
    const mb = page.locator('#micro-batches-number');
    await mb.fill('8');
    await mb.dispatchEvent('change');
    await page.waitForFunction((want) => {
      const m = /([\d.]+)\s*(ms|s)\b/.exec(document.getElementById('step-time')?.innerText ?? '');
      return m && Math.abs(Number(m[1]) * (m[2] === 'ms' ? 1e-3 : 1) - want) <= 0.006 * want;
    }, eight.time.step_s);
    await page.waitForFunction(() => /"micro_batches":8/.test(atob(new URLSearchParams(location.search.slice(1)).get('s').replace(/-/g, '+').replace(/_/g, '/'))));
    // MXFP8 needs Blackwell's block-scaled Tensor Cores: the banner names the field and says why
    // in the page's language, its sentence ended before the next, and the results shown stay
    // those of the last valid settings.
    await page.selectOption('#recipe', 'mxfp8');
    await page.waitForSelector('#invalid-banner');
    const banner = await page.locator('#invalid-banner').innerText();
    assert.match(banner, /low_precision_recipe/, `${lang}: «${banner}»`);
    assert.match(banner, lang === 'zh' ? /Blackwell 块缩放 Tensor Core.*fp4 路径）。下方仍显示/ : /Blackwell's block-scaled Tensor Cores.*fp4 path\)\. The results below/,
      `${lang}: «${banner}»`);
    assert.ok(sig3(seconds(await page.locator('#step-time').innerText()), eight.time.step_s), `${lang}: the last valid step stays`);
    await noNaN(page);
    await page.selectOption('#recipe', 'fp8_current');
    await page.waitForFunction(() => !document.getElementById('invalid-banner'));
    assert.equal(await mb.inputValue(), '8');
    await finish(page);
  }
});

test('training schedule and kernels: interleaved stages shrink the bubble, overlap and sequence parallelism the TP row, context parallelism splits the sequence, as the engine computes them; a kernel the GPU cannot run is named and nothing is lost (zh and en)', async () => {
  const base = { model: 'llama-3.1-70b', gpu: 'h100-sxm', mode: 'training', gpus: 64, tensor_parallel: 8,
    pipeline_parallel: 4, zero_stage: 1, micro_batches: 16, context_tokens: 4096 };
  const plain = cliEstimate(base).training.step;
  const interleaved = cliEstimate({ ...base, virtual_pipeline_stages: 4 }).training.step;
  const overlapped = cliEstimate({ ...base, virtual_pipeline_stages: 4, sequence_parallel: true, tp_comm_overlap: true }).training.step;
  const split = cliEstimate({ ...base, virtual_pipeline_stages: 4, sequence_parallel: true, tp_comm_overlap: true, context_parallel: 2 }).training.step;
  assert.ok(interleaved.pipeline_bubble_s < plain.pipeline_bubble_s / 2 && overlapped.tensor_parallel_s < interleaved.tensor_parallel_s / 2
    && split.context_parallel_s > 0 && split.gemm_s < overlapped.gemm_s / 1.5, JSON.stringify([plain, interleaved, overlapped, split]));
  // The shown value of one step part, in seconds, once it is the wanted one.
  const until = (page, id, want) => page.waitForFunction(([id, want]) => {
    const m = /([\d.]+)\s*(ms|s)\b/.exec(document.getElementById(id)?.innerText ?? '');
    return m && Math.abs(Number(m[1]) * (m[2] === 'ms' ? 1e-3 : 1) - want) <= 0.006 * want;
  }, [id, want]);
  for (const lang of ['en', 'zh']) {
    const page = await newPage(browser);
    await open(page, `${lang}/estimate/?v=1&s=${b64(base)}`);
    await page.locator('details.schedule-group').waitFor({ state: 'attached' });
    await page.evaluate(() => { document.querySelector('details.schedule-group').open = true; });
    assert.ok(sig3(seconds(await page.locator('#step-bubble').innerText()), plain.pipeline_bubble_s), `${lang}: the plain bubble`);
    const set = async (id, v) => {
      const n = page.locator(`#${id}-number`);
      await n.fill(String(v));
      await n.dispatchEvent('change');
    };
    await set('virtual-stages', 4);
    await until(page, 'step-bubble', interleaved.pipeline_bubble_s);
    await page.check('#sequence-parallel');
    await page.check('#tp-overlap');
    await until(page, 'step-tp', overlapped.tensor_parallel_s);
    // Context parallelism 2 on the same 64 GPUs: tp 8 × pp 4 × cp 2, one replica.
    await set('context-parallel', 2);
    await until(page, 'step-gemm', split.gemm_s);
    assert.ok(sig3(seconds(await page.locator('#step-cp').innerText()), split.context_parallel_s), `${lang}: the CP row`);
    assert.equal(await page.locator('#gpus-number').inputValue(), '64');
    await page.waitForFunction(() => {
      const s = JSON.parse(atob(new URLSearchParams(location.search.slice(1)).get('s').replace(/-/g, '+').replace(/_/g, '/')));
      return s.context_parallel === 2 && s.virtual_pipeline_stages === 4 && s.tp_comm_overlap && s.sequence_parallel;
    });
    // FlashAttention-4 runs on Blackwell only: the banner names the key and the GPU's
    // architecture in the page's language; the last valid results stay.
    await page.selectOption('#attention-kernel', 'fa4');
    await page.waitForSelector('#invalid-banner');
    const banner = await page.locator('#invalid-banner').innerText();
    assert.match(banner, /attention_kernel/, `${lang}: «${banner}»`);
    assert.match(banner, /Blackwell/, `${lang}: «${banner}»`);
    if (lang === 'zh') assert.doesNotMatch(banner, /\b(runs|not on|GPUs)\b/, `zh: «${banner}»`);
    assert.ok(sig3(seconds(await page.locator('#step-gemm').innerText()), split.gemm_s), `${lang}: the last valid step stays`);
    await noNaN(page);
    await page.selectOption('#attention-kernel', '');
    await page.waitForFunction(() => !document.getElementById('invalid-banner'));
    assert.equal(await page.locator('#context-parallel-number').inputValue(), '2');
    if (process.env.SHOTS) await page.locator('details.schedule-group').screenshot({ path: `${process.env.SHOTS}/schedule-${lang}.png` });
    await finish(page);
  }
});

test('tensor-parallel all-reduces: the stack\'s own kernels by default, NCCL\'s ring when turned off, the decode step as the engine computes each; the link keeps it (zh and en)', async () => {
  const base = { model: 'llama-3.1-70b', gpu: 'h100-sxm', gpus: 8, tensor_parallel: 8, batch: 16, context_tokens: 4096 };
  const own = cliEstimate(base);
  const ring = cliEstimate({ ...base, custom_all_reduce: false });
  assert.ok(own.stack.custom_all_reduce_runs && !ring.stack.custom_all_reduce_runs);
  assert.ok(ring.time.decode_step_s > own.time.decode_step_s * 1.05, `${ring.time.decode_step_s} ${own.time.decode_step_s}`);
  for (const lang of ['en', 'zh']) {
    const page = await newPage(browser);
    await open(page, `${lang}/estimate/?v=1&s=${b64(base)}`);
    await page.locator('#custom-all-reduce').waitFor();
    assert.ok(await page.isChecked('#custom-all-reduce'));
    assert.ok(sig3(seconds(await page.locator('#decode-step').innerText()), own.time.decode_step_s), `${lang}: the stack's kernels`);
    // The all-reduces' own row: the engine's total, and its math names the kernel and the calls.
    const ar = page.locator('#tp-all-reduce');
    assert.ok(sig3(seconds(await ar.innerText()), own.phases.decode.tensor_parallel_comm_s), `${lang}: ${await ar.innerText()}`);
    const calls = lang === 'en' ? /vllm_custom, steps per call 2: S 262 KB on 8 GPUs.* × 160 calls/ : /vllm_custom，每次 2 步：S 262 KB，8 块 GPU.* × 160 次/;
    assert.match(await openMath(page, ar.locator('xpath=..').locator('details.math'), calls), calls);
    // The prefill's all-reduces have their own row: a bigger message, NCCL's ring past 8 MiB.
    assert.ok(sig3(seconds(await page.locator('#tp-all-reduce-prefill').innerText()), own.phases.prefill.tensor_parallel_comm_s), lang);
    await page.uncheck('#custom-all-reduce');
    await page.waitForFunction((want) => {
      const m = /([\d.]+)\s*(ms|s)\b/.exec(document.getElementById('decode-step')?.innerText ?? '');
      return m && Math.abs(Number(m[1]) * (m[2] === 'ms' ? 1e-3 : 1) - want) <= 0.006 * want;
    }, ring.time.decode_step_s);
    await page.waitForFunction(() => /"custom_all_reduce":false/.test(atob(new URLSearchParams(location.search.slice(1)).get('s').replace(/-/g, '+').replace(/_/g, '/'))));
    const ring14 = lang === 'en' ? /nccl_ring, steps per call 14/ : /nccl_ring，每次 14 步/;
    assert.match(await openMath(page, page.locator('#tp-all-reduce').locator('xpath=..').locator('details.math'), ring14), ring14);
    await noNaN(page);
    await finish(page);
  }
});
