// Issue 24, "Your own machine": a GGUF file opened in the estimator (its header read in slices,
// nothing uploaded; a damaged or foreign file named in the page's language), llama.cpp's group
// (-ngl, host memory, the most layers that fit), and What runs on my machine (its page and the
// memory-capacity chapter's widget). Both languages, phone width and dark mode; no console errors.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { serve, launch, newPage, finish, openMath } from './harness.mjs';
import { ggufFile } from './gguf.mjs';

let server, browser;
before(async () => { server = await serve(); browser = await launch(); });
after(async () => { await browser?.close(); await server?.close(); });

const WORDS = {
  en: { notice: /GGUF file.*Q4_K_M.*Only the header was read/s, read: /the header only, nothing uploaded/, cut: /cut short.*tensor .* ends at byte/, foreign: /not a GGUF file: it starts with/, fits: /whole on the GPU/, tooBig: /does not fit/, most: /Most that fit at this context: -ngl \d+/ },
  zh: { notice: /GGUF 文件.*Q4_K_M.*只读取了文件头/s, read: /只读了文件头，没有上传/, cut: /文件被截断/, foreign: /不是 GGUF 文件/, fits: /整模型放进 GPU/, tooBig: /放不下/, most: /这个上下文下最多能放：-ngl \d+/ },
};

const shot = async (page, name) => {
  if (!process.env.SHOTS) return;
  mkdirSync(process.env.SHOTS, { recursive: true });
  await page.screenshot({ path: join(process.env.SHOTS, `${name}.png`) });
};

const weights = (page) => page.locator('tr[data-key="memory_per_gpu_bytes.weights"] td.num').getAttribute('data-bytes');

for (const lang of ['en', 'zh']) {
  test(`${lang}: a GGUF file is the model, read by its header; damaged and foreign files are named`, async () => {
    const page = await newPage(browser, { viewport: { width: 390, height: 900 }, colorScheme: lang === 'zh' ? 'dark' : 'light' });
    await page.goto(`${server.url}${lang}/estimate/`);
    await page.waitForSelector('html[data-live]');
    await page.waitForSelector('#total-per-gpu');
    const { file, header, bytes, embedding } = ggufFile();
    assert.ok(header > 2 * 1024 * 1024, `the header (${header} bytes) needs a second read`);
    await page.click('details.gguf summary');
    await page.setInputFiles('#gguf-file', { name: 'tiny.Q4_K_M.gguf', mimeType: 'application/octet-stream', buffer: file });
    await page.waitForSelector('#model-gguf');
    assert.match(await page.locator('#model-gguf').innerText(), WORDS[lang].notice);
    assert.match(await page.locator('#gguf-status').innerText(), WORDS[lang].read);
    // The weights on the GPU: every tensor but the token embedding, which llama.cpp keeps in
    // host memory.
    await page.waitForFunction((b) => document.querySelector('tr[data-key="memory_per_gpu_bytes.weights"] td.num')?.dataset.bytes === String(b), bytes - embedding);
    assert.equal(await weights(page), String(bytes - embedding));
    // The weight menu says "as published": the file's own tensor types, which the notice lists.
    assert.equal(await page.locator('#weight-dtype').inputValue(), 'auto');
    await shot(page, `gguf-${lang}`);
    // A file cut short, and one that is not GGUF at all.
    await page.setInputFiles('#gguf-file', { name: 'cut.gguf', mimeType: 'application/octet-stream', buffer: file.subarray(0, file.length - 1000) });
    await page.waitForSelector('#gguf-error');
    assert.match(await page.locator('#gguf-error').innerText(), WORDS[lang].cut);
    await page.setInputFiles('#gguf-file', { name: 'config.json', mimeType: 'application/json', buffer: Buffer.from('{"model_type": "llama"}') });
    await page.waitForFunction((re) => new RegExp(re).test(document.getElementById('gguf-error')?.textContent ?? ''), WORDS[lang].foreign.source);
    // The model the good file set is still there.
    assert.equal(await weights(page), String(bytes - embedding));
    await finish(page);
  });

  test(`${lang}: llama.cpp's group keeps layers in host memory and finds the most that fit`, async () => {
    const page = await newPage(browser, { viewport: { width: 1280, height: 900 } });
    const query = Buffer.from(JSON.stringify({ model: 'llama-3.1-70b', weight_dtype: 'q4_k_m', gpu: 'rtx-4090', context_tokens: 8192, host_memory_bytes: 64e9 })).toString('base64url');
    await page.goto(`${server.url}${lang}/estimate/?v=1&s=${query}`);
    await page.waitForSelector('html[data-live]');
    await page.waitForSelector('#max-gpu-layers');
    assert.equal(await page.locator('#verdict').getAttribute('class'), 'verdict bad');
    const most = await page.locator('#max-gpu-layers').innerText();
    assert.match(most, WORDS[lang].most);
    const n = Number(most.match(/-ngl (\d+)/)[1]);
    await page.locator('#max-gpu-layers button.apply').click();
    await page.waitForFunction(() => document.querySelector('#verdict')?.className === 'verdict ok');
    assert.equal(await page.locator('#gpu-layers-number').inputValue(), String(n));
    // What stays in host memory is shown, with its derivation in the page's language.
    const host = page.locator('tr[data-key="host_memory_bytes"]');
    assert.equal(await host.isVisible(), true);
    const want = lang === 'zh' ? /token 嵌入.*层/s : /token embedding.*layers/s;
    assert.match(await openMath(page, host.locator('details.math'), want), want);
    // The decode is now bound by the host's memory.
    assert.match(await page.locator('.panel.performance').innerText(), lang === 'zh' ? /主机内存与 PCIe/ : /host memory and PCIe/);
    await shot(page, `offload-${lang}`);
    await finish(page);
  });

  test(`${lang}: what runs on my machine, on its page and in the memory-capacity chapter`, async () => {
    const page = await newPage(browser, { viewport: { width: 390, height: 900 }, colorScheme: 'dark' });
    await page.goto(`${server.url}${lang}/tools/local/`);
    await page.waitForSelector('html[data-live]');
    await page.waitForSelector('#local-results table');
    const row = (id) => page.locator(`#local-results tr[data-model="${id}"]`);
    assert.match(await row('llama-3.1-8b').innerText(), WORDS[lang].fits);
    assert.match(await row('llama-3.3-70b').locator('td').nth(4).innerText(), /-ngl \d+\/81/);
    // An MoE model keeps its layers on the GPU and some experts in system memory (--fit's way).
    assert.match(await row('qwen3-30b-a3b').locator('td').nth(1).innerText(), /--n-cpu-moe \d+\/48/);
    // No page scrolls sideways at a phone's width: the table scrolls in its own box.
    assert.ok(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth + 1));
    // A Mac: its memory sizes, and nothing in "system memory" beyond the unified pool.
    await page.selectOption('#local-gpu', 'apple-m3-max-40c');
    await page.waitForSelector('#local-mem');
    await page.selectOption('#local-mem', '48');
    await page.waitForFunction(() => /gpu=apple-m3-max-40c&mem=48/.test(location.search));
    // 3/4 of 48 GB for the GPU: the 70B model's Q8_0 file (75 GB) does not fit at all, its
    // smallest file types fit whole.
    assert.match(await row('llama-3.3-70b').locator('td').nth(1).innerText(), WORDS[lang].tooBig);
    assert.match(await row('llama-3.3-70b').locator('td').last().innerText(), WORDS[lang].fits);
    await shot(page, `local-${lang}`);
    // A cell opens the estimator with its scenario.
    await row('llama-3.1-8b').locator('td a').first().click();
    await page.waitForURL(/\/estimate\//);
    await page.waitForSelector('html[data-live]');
    await page.waitForFunction(() => document.getElementById('weight-dtype')?.value === 'q8_0');
    await finish(page);

    // Issue 30, item 10: every platform keeps memory for the operating system. A 64 GB Mac keeps
    // what the GPU's working set leaves (16 GB): gpt-oss-120b fits in no file type; asking it to
    // keep 2 GB lets its Q8_0 file run, partly outside the working set.
    const mac = await newPage(browser, { viewport: { width: 1280, height: 900 } });
    await mac.goto(`${server.url}${lang}/tools/local/?gpu=apple-m4-max-40c&mem=64&ram=32&ctx=8192&kv=f16`);
    await mac.waitForSelector('html[data-live]');
    await mac.waitForSelector('#local-results table');
    assert.equal(await mac.locator('#local-keep').inputValue(), '16');
    assert.match(await mac.locator('#local-keep-rule').innerText(), /recommendedMaxWorkingSetSize/);
    const oss = mac.locator('#local-results tr[data-model="gpt-oss-120b"] td.local-cell');
    for (const t of await oss.allInnerTexts()) assert.match(t, WORDS[lang].tooBig);
    await mac.fill('#local-keep', '2');
    await mac.press('#local-keep', 'Enter');
    await mac.waitForFunction(() => /keep=2/.test(location.search));
    await mac.waitForFunction(() => !/放不下|does not fit/.test(document.querySelector('#local-results tr[data-model="gpt-oss-120b"] td.local-cell')?.textContent ?? ''));
    // A PC: Windows 11's 4 GB by default, a Linux desktop's 6 GB when chosen.
    await mac.goto(`${server.url}${lang}/tools/local/`);
    await mac.waitForSelector('html[data-live]');
    assert.equal(await mac.locator('#local-keep').inputValue(), '4');
    await mac.selectOption('#local-os', 'linux');
    await mac.waitForFunction(() => /os=linux/.test(location.search));
    assert.equal(await mac.locator('#local-keep').inputValue(), '6');
    assert.match(await mac.locator('#local-keep-rule').innerText(), /Ubuntu 26\.04/);
    await shot(mac, `local-keep-${lang}`);
    await finish(mac);

    const chapter = await newPage(browser, { viewport: { width: 1280, height: 900 } });
    await chapter.goto(`${server.url}${lang}/chapters/memory-capacity/`);
    await chapter.waitForSelector('html[data-live]');
    await chapter.locator('aside[data-widget="local"]').scrollIntoViewIfNeeded();
    await chapter.waitForSelector('#localw-results table');
    assert.match(await chapter.locator('#localw-results tr[data-model="llama-3.1-8b"]').innerText(), WORDS[lang].fits);
    await finish(chapter);
  });
}
