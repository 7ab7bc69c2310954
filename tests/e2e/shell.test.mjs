// The app shell in a real browser: mounting, routes in both languages, the language switch,
// not-found, sub-path hosting. Run with `node --test tests/e2e/` after `trunk build`.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { serve, launch, newPage, finish, waitForApp } from './harness.mjs';

const root = resolve(import.meta.dirname, '..', '..');
const slugs = readdirSync(join(root, 'content', 'en'))
  .filter((f) => /^\d+-.+\.md$/.test(f)).sort().map((f) => f.replace(/^\d+-/, '').replace(/\.md$/, ''));

let server, browser;
before(async () => { server = await serve(); browser = await launch(); });
after(async () => { await browser?.close(); await server?.close(); });

test('home mounts in both languages without console errors', async () => {
  for (const [lang, title, htmlLang] of [['en', 'GPU Primer', 'en'], ['zh', 'GPU 算力入门', 'zh-CN']]) {
    const page = await newPage(browser);
    await page.goto(`${server.url}#/${lang}/`);
    await waitForApp(page);
    assert.equal(await page.locator('article[data-page=home] h1').textContent(), title);
    assert.equal(await page.getAttribute('html', 'lang'), htmlLang);
    assert.match(await page.title(), new RegExp(title));
    const links = await page.locator('.toc a').evaluateAll((as) => as.map((a) => a.getAttribute('href')));
    assert.deepEqual(links, slugs.map((s) => `#/${lang}/chapters/${s}`), 'home links every chapter in order');
    await finish(page);
  }
});

test('the boot header paints before the wasm and leaves when the app mounts', async () => {
  // Without JavaScript: index.html's frame (the brand in both languages) and the noscript note.
  const ctx = await browser.newContext({ javaScriptEnabled: false });
  const raw = await ctx.newPage();
  await raw.goto(`${server.url}#/zh/estimate`);
  assert.equal(await raw.locator('#boot').count(), 1);
  assert.match(await raw.locator('#boot').innerText(), /GPU Primer · GPU 算力入门/);
  assert.ok(await raw.locator('#boot').isVisible(), 'the boot header is painted from the HTML and CSS alone');
  assert.match(await raw.locator('.boot-note').innerText(), /needs JavaScript and WebAssembly[\s\S]*需要启用 JavaScript/);
  await ctx.close();
  // With it: one header, the app's, in the page's language.
  const page = await newPage(browser);
  await page.goto(`${server.url}#/zh/estimate`);
  await waitForApp(page);
  assert.equal(await page.locator('#boot').count(), 0, 'the boot header is gone');
  assert.equal(await page.locator('header.site-header').count(), 1);
  assert.equal((await page.locator('header.site-header .brand-name').innerText()).trim(), 'GPU 算力入门');
  await finish(page);
});

test('every chapter renders in both languages', async () => {
  const page = await newPage(browser);
  await page.goto(`${server.url}#/en/`);
  await waitForApp(page);
  for (const lang of ['en', 'zh']) {
    for (const slug of slugs) {
      await page.evaluate((h) => { location.hash = h; }, `#/${lang}/chapters/${slug}`);
      await page.waitForSelector(`article[data-page=chapter][data-slug="${slug}"]`);
      const h1 = (await page.locator('article h1').textContent()).trim();
      assert.ok(h1.length > 0, `${lang}/${slug} has a title`);
      const text = await page.locator('article .prose').first().textContent();
      assert.ok(text.trim().length > 200, `${lang}/${slug} has a body`);
      assert.match(await page.title(), new RegExp(h1.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')));
      assert.equal(await page.getAttribute('html', 'lang'), lang === 'zh' ? 'zh-CN' : 'en');
    }
  }
  await finish(page);
});

test('the language switch keeps the page and is remembered', async () => {
  const page = await newPage(browser);
  const slug = slugs[Math.min(1, slugs.length - 1)];
  await page.goto(`${server.url}#/en/chapters/${slug}`);
  await waitForApp(page);
  const enTitle = await page.locator('article h1').textContent();
  await page.click('#lang-switch');
  await page.waitForFunction((s) => location.hash === `#/zh/chapters/${s}`, slug);
  await page.waitForFunction(() => document.documentElement.lang === 'zh-CN');
  const zhTitle = await page.locator('article h1').textContent();
  assert.notEqual(zhTitle, enTitle);
  assert.equal(await page.locator('article').getAttribute('data-slug'), slug);
  // A fresh visit to the bare site opens the remembered language (the browser says English).
  await page.goto(server.url);
  await waitForApp(page);
  assert.equal(await page.evaluate(() => location.hash), '#/zh/');
  assert.equal(await page.locator('article[data-page=home] h1').textContent(), 'GPU 算力入门');
  // And back.
  await page.click('#lang-switch');
  await page.waitForFunction(() => location.hash === '#/en/');
  await page.waitForFunction(() => localStorage.getItem('gpu-primer.lang') === 'en');
  await finish(page);
});

test('the bare site follows the browser language when nothing is saved', async () => {
  for (const [locale, expected] of [['zh-CN', '#/zh/'], ['en-US', '#/en/'], ['de-DE', '#/en/']]) {
    const page = await newPage(browser, { locale });
    await page.goto(server.url);
    await waitForApp(page);
    assert.equal(await page.evaluate(() => location.hash), expected, locale);
    await finish(page);
  }
});

test('a bad route shows not found with a link home', async () => {
  const page = await newPage(browser);
  for (const [hash, text, home] of [
    ['#/en/chapters/no-such-thing', 'Page not found', '#/en/'],
    ['#/zh/whatever/else', '页面不存在', '#/zh/'],
    // No valid language in the hash: the reader's remembered one (zh, from the route above).
    ['#/xx/%%%/??', '页面不存在', '#/zh/'],
  ]) {
    await page.goto(`${server.url}${hash}`);
    await page.waitForSelector('article[data-page=not-found]');
    assert.equal(await page.locator('article h1').textContent(), text);
    assert.equal(await page.locator('article a.button').getAttribute('href'), home);
  }
  await page.click('article a.button');
  await page.waitForSelector('article[data-page=home]');
  await finish(page);
});

test('the site works under a sub-path of a static host', async () => {
  const sub = await serve(undefined, '/docs/gpu-primer/');
  const page = await newPage(browser);
  await page.goto(`${sub.url}#/zh/chapters/${slugs[0]}`);
  await page.waitForSelector('article[data-page=chapter]');
  await finish(page);
  await sub.close();
});

test('the single offline HTML file works from file://', async () => {
  const { DIST } = await import('./harness.mjs');
  const page = await newPage(browser);
  await page.goto(`file://${DIST}/gpu-primer-offline.html#/zh/chapters/${slugs[0]}`);
  await page.waitForSelector('article[data-page=chapter]', { timeout: 20000 });
  await page.click('#lang-switch');
  await page.waitForFunction((s) => location.hash === `#/en/chapters/${s}`, slugs[0]);
  await page.evaluate(() => { location.hash = '#/en/nope'; });
  await page.waitForSelector('article[data-page=not-found]');
  await finish(page);
});

test('the validation page shows the engine against published measurements in both languages', async () => {
  const page = await newPage(browser);
  for (const [lang, title] of [['en', 'Estimates against measurements'], ['zh', '估算与实测对比']]) {
    await page.goto(`${server.url}#/${lang}/validation`);
    await page.waitForSelector('article[data-page=validation]');
    assert.equal(await page.locator('article h1').textContent(), title);
    assert.ok(await page.locator('#validation-rows tbody tr').count() >= 30, 'rows compared');
    const violations = await page.locator('#validation-summary td[data-violations]').evaluateAll((tds) => tds.map((td) => Number(td.dataset.violations)));
    assert.ok(violations.length >= 5 && violations.every((v) => v === 0), 'no bound below a measurement');
  }
  await finish(page);
});
