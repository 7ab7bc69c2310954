// Embeds on someone else's docs page (issue 30, item 13): the iframe takes its content's height
// (the embed page posts it, the embed code's listener sets it, for that iframe's origin only),
// links inside an embed open outside the frame, `?theme=light|dark|auto`, and the page that
// lists every embeddable widget with its parameters and code, readable without scripts.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { serve, launch, newPage, finish } from './harness.mjs';

// The team's docs site: another origin (another port; both on 127.0.0.1, as Chromium lets a
// local page frame only local pages).
const DOCS = mkdtempSync(join(tmpdir(), 'gpu-primer-docs-'));
let server, docs, browser;
before(async () => { server = await serve(); docs = await serve(DOCS); browser = await launch(); });
after(async () => { await browser?.close(); await server?.close(); await docs?.close(); });

/** The embed code the list page offers for `kind` in `lang`, as a reader copies it. */
async function codeFor(page, lang, kind) {
  await page.goto(`${server.url}${lang}/embed/`);
  const code = page.locator(`code[data-embed="${kind}"]`);
  await page.waitForFunction((k) => !document.querySelector(`code[data-embed="${k}"]`).textContent.includes('SITE/'), kind);
  return code.textContent();
}

/** A docs page on the other origin with `body` in it, opened. */
async function host(page, body) {
  const name = `docs-${Math.random().toString(36).slice(2)}.html`;
  writeFileSync(join(DOCS, name), `<!doctype html><html><head><meta charset="utf-8"><link rel="icon" href="data:,"><title>Team docs</title></head><body><h1>Our GPUs</h1>${body}<p>After the widget.</p></body></html>`);
  // (The frame's own goto: the harness's waits for the site's app, which a docs page does not have.)
  await page.mainFrame().goto(`${docs.url}${name}`);
}

const frameHeight = (page) => page.evaluate(() => Number(document.querySelector('iframe[data-gpu-primer]').getAttribute('height')));

test('the iframe takes the height of its content, and follows it when it changes', async () => {
  for (const lang of ['zh', 'en']) {
    const page = await newPage(browser, { viewport: { width: 1100, height: 900 } });
    const code = await codeFor(page, lang, 'cuda-grid');
    assert.ok(code.startsWith(`<iframe src="${server.url}${lang}/embed/cuda-grid/"`), code);
    assert.match(code, /<script>[\s\S]*addEventListener\("message"[\s\S]*e\.origin[\s\S]*<\/script>$/, 'the listener comes with the iframe');
    await host(page, code);
    await page.waitForFunction(() => Number(document.querySelector('iframe').getAttribute('height')) !== 600, null, { timeout: 20000 });
    const frame = page.frames().find((f) => f.url().includes('/embed/cuda-grid/'));
    await frame.waitForSelector('[data-k=blocks]');
    const content = () => frame.evaluate(() => {
      const b = document.body, s = getComputedStyle(b);
      return Math.ceil(b.getBoundingClientRect().height + parseFloat(s.marginTop) + parseFloat(s.marginBottom));
    });
    let inner = await content();
    await page.waitForFunction((h) => Number(document.querySelector('iframe').getAttribute('height')) === h, inner);
    assert.ok(inner > 200 && inner !== 600, `${lang}: ${inner}`);
    // No scrolling inside the frame: all of it shows.
    assert.equal(await frame.evaluate(() => document.documentElement.scrollHeight <= innerHeight + 1), true, `${lang}: nothing hidden`);
    // A narrower docs column: the widget wraps, grows taller, and the iframe with it.
    await page.setViewportSize({ width: 380, height: 900 });
    await page.waitForFunction((h) => Number(document.querySelector('iframe').getAttribute('height')) > h, inner);
    inner = await content();
    await page.waitForFunction((h) => Number(document.querySelector('iframe').getAttribute('height')) === h, inner);
    // A message from anywhere but the iframe's origin and window changes nothing.
    await page.evaluate(() => window.postMessage({ type: 'gpu-primer:height', height: 42 }, '*'));
    await page.waitForTimeout(300);
    assert.equal(await frameHeight(page), inner, `${lang}: the host page's own message is ignored`);
    await finish(page);
  }
});

test('links inside an embed open the full site outside the frame', async () => {
  for (const lang of ['zh', 'en']) {
    const page = await newPage(browser);
    const code = await codeFor(page, lang, 'memory');
    await host(page, code);
    const frame = page.frameLocator('iframe[data-gpu-primer]');
    const link = frame.locator('main a[href]:not([href^="#"])').first();
    await link.waitFor();
    const [opened] = await Promise.all([page.context().waitForEvent('page'), link.click()]);
    await opened.waitForLoadState();
    const url = new URL(opened.url());
    assert.equal(url.origin, new URL(server.url).origin, `${lang}: on the site`);
    assert.ok(!url.pathname.includes('/embed/'), `${lang}: a full page of the site, not an embed: ${url}`);
    assert.ok(page.frames().some((f) => f.url().includes(`/${lang}/embed/memory/`)), `${lang}: the frame still shows the widget`);
    await opened.close();
    await finish(page);
  }
});

test('theme=light|dark|auto sets the embed\'s colours, whatever the system says for light and dark', async () => {
  const background = (page) => page.evaluate(() => getComputedStyle(document.body).backgroundColor);
  const DARK = 'rgb(20, 23, 26)', LIGHT = 'rgb(251, 251, 250)';
  for (const lang of ['zh', 'en']) {
    for (const [system, theme, expected] of [
      ['light', 'dark', DARK], ['dark', 'light', LIGHT], ['dark', 'auto', DARK], ['light', 'auto', LIGHT], ['dark', '', DARK],
    ]) {
      const page = await newPage(browser, { colorScheme: system });
      const q = theme ? `&theme=${theme}` : '';
      await page.goto(`${server.url}${lang}/embed/cuda-grid/?n=1000&t=128${q}`);
      await page.waitForSelector('[data-k=blocks]');
      assert.equal(await background(page), expected, `${lang}, system ${system}, theme=${theme}`);
      // The parameter is not the widget's: its own state still holds.
      assert.equal(await page.locator('[data-k=blocks]').getAttribute('data-value'), '8');
      await finish(page);
    }
  }
});

test('the list of embeddable widgets: every kind, its parameters and its code, without scripts', async () => {
  const kinds = ['memory', 'kv-cache', 'roofline', 'scaling', 'bound', 'cuda-grid', 'tensor-peaks', 'spec-sheet', 'gpu-ladder',
    'all-reduce', 'state-vs-kv', 'prefix-reuse', 'disaggregation', 'wide-ep', 'kv-tiers', 'speculation', 'lab', 'mig', 'cloud', 'diagnose', 'cluster', 'local'];
  for (const lang of ['zh', 'en']) {
    const page = await newPage(browser, { javaScriptEnabled: false });
    // Found from the footer of any page, and from the home page's part for classes and teams.
    await page.goto(`${server.url}${lang}/chapters/cuda/`);
    await page.locator('.site-footer a.embeds-link').click();
    await page.waitForSelector('article[data-page=embeds]');
    assert.equal(new URL(page.url()).pathname, `/${lang}/embed/`);
    await page.goto(`${server.url}${lang}/`);
    assert.equal(await page.locator('.for-class a.embeds-link').count(), 1, `${lang}: on the home page`);
    await page.goto(`${server.url}${lang}/embed/`);
    for (const kind of kinds) {
      const entry = page.locator(`#embed-${kind}`);
      assert.equal(await entry.isVisible(), true, `${lang}/${kind}`);
      assert.ok((await entry.locator('h2').innerText()).length > 1);
      const rows = await entry.locator('table.embed-params tbody tr').allInnerTexts();
      assert.ok(rows.some((r) => /^theme\s/.test(r) && /light/.test(r) && /auto/.test(r)), `${lang}/${kind}: theme row`);
      const code = await entry.locator('code[data-embed]').textContent();
      assert.ok(code.startsWith(`<iframe src="SITE/${lang}/embed/${kind}/"`), `${lang}/${kind}: ${code.slice(0, 80)}`);
      assert.match(code, /data-gpu-primer><\/iframe>\n<script>/);
    }
    // A lesson widget's parameters with their ranges and defaults (the widget's own).
    const grid = await page.locator('#embed-cuda-grid table.embed-params').innerText();
    assert.match(grid, lang === 'en' ? /\bt\b[\s\S]*a whole number from 1 to 1024\s+256/ : /\bt\b[\s\S]*1 到 1024 之间的整数\s+256/);
    assert.match(grid, /h100-sxm/);
    assert.equal(await page.locator('.embed-site-note').isVisible(), true, `${lang}: says what SITE/ stands for`);
    await finish(page);
  }
});
