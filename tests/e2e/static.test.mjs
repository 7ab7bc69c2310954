// Every page reads without JavaScript: each HTML file under dist/ opened with scripts off has
// its content, its own title, a description in its language, a canonical link, hreflang links to
// both languages, and `lang` on <html>; widgets are drawn in their default state. And the old
// hash addresses of the site land where they did.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { serve, launch, newPage, finish, DIST } from './harness.mjs';

let server, browser;
before(async () => { server = await serve(); browser = await launch(); });
after(async () => { await browser?.close(); await server?.close(); });

const CJK = /[\u3400-\u9fff]/;
const pages = (dir) => readdirSync(join(DIST, dir), { withFileTypes: true }).flatMap((e) =>
  e.isDirectory() ? pages(join(dir, e.name)) : e.name === 'index.html' ? [join(dir, e.name)] : []);

test('every page reads with JavaScript off: content, title, description, canonical, hreflang', async () => {
  const files = pages('').map((f) => f.replace(/index\.html$/, '')).filter((p) => p !== '');
  assert.ok(files.length > 140, `${files.length} pages`);
  const ctx = await browser.newContext({ javaScriptEnabled: false });
  const page = await ctx.newPage();
  const titles = new Map();
  for (const path of files) {
    const lang = path.slice(0, 2);
    await page.goto(`${server.url}${path}`);
    const where = path;
    assert.equal(await page.getAttribute('html', 'lang'), lang === 'zh' ? 'zh-CN' : 'en', where);
    const title = await page.title();
    assert.ok(title.length > 5, `${where}: title`);
    if (!path.includes('/embed/')) {
      assert.ok(!titles.has(title), `${where}: the title "${title}" is also ${titles.get(title)}'s`);
      titles.set(title, where);
    }
    const description = await page.getAttribute('meta[name=description]', 'content');
    assert.ok(description && description.length > 10, `${where}: description`);
    assert.equal(CJK.test(description), lang === 'zh', `${where}: the description is in the page's language: ${description}`);
    assert.equal(await page.getAttribute('link[rel=canonical]', 'href'), path.split('/').slice(0, -1).map(() => '..').join('/') + `/${path}`, where);
    for (const [hreflang, other] of [['zh-CN', 'zh'], ['en', 'en']]) {
      const href = await page.getAttribute(`link[rel=alternate][hreflang="${hreflang}"]`, 'href');
      assert.ok(href && href.endsWith(`${other}/${path.slice(3)}`), `${where}: hreflang ${hreflang} → ${href}`);
    }
    const main = await page.locator('main').innerText();
    assert.ok(main.trim().length > 40, `${where}: content`);
    assert.ok(!/NaN|undefined|\{key\}|\{r:/.test(main), `${where}: no unfilled or broken numbers`);
    // A lesson widget's number fields show the values its figures were computed from (they were
    // empty without the app: the value was only set as a property).
    const blank = await page.$$eval('aside.widget.lesson input[type=number]', (xs) => xs.filter((x) => x.value === '').map((x) => x.id));
    assert.deepEqual(blank, [], `${where}: a lesson widget's number fields are filled`);
    if (path.includes('/chapters/') && !/worksheet|answers/.test(path)) {
      // The whole article: its text, its figures and widgets drawn, its exercises with questions.
      assert.ok(main.length > 3000, `${where}: the whole article (${main.length} characters)`);
      assert.ok(await page.locator('[data-mount=widget] aside.widget').count() >= 1, `${where}: its widget is drawn`);
      assert.ok(await page.locator('section.exercise .exercise-question').count() >= 4, `${where}: exercises`);
      assert.ok(await page.locator('nav.pager a').count() >= 1, `${where}: previous/next`);
      assert.ok(await page.locator('article .prose a[href*="/glossary/#term-"]').count() >= 1, `${where}: glossary links`);
      assert.equal(await page.locator('.exercise-check').first().isVisible(), false, `${where}: no Check button without the app`);
    }
  }
  await ctx.close();
});

test('the root page names both languages without scripts and picks one with them', async () => {
  const ctx = await browser.newContext({ javaScriptEnabled: false });
  const raw = await ctx.newPage();
  await raw.goto(server.url);
  assert.deepEqual(await raw.locator('article[data-page=root] h1').allTextContents(), ['GPU 算力入门', 'GPU Primer']);
  assert.deepEqual(await raw.locator('article[data-page=root] a').evaluateAll((as) => as.map((a) => a.getAttribute('href'))), ['./zh/', './en/']);
  await ctx.close();
});

// The old hash-routed site's addresses and where each lands now (the root page's script, the
// same mapping as route::Target::from_hash).
const OLD = [
  ['#/zh/', '/zh/'],
  ['#/en', '/en/'],
  ['#/zh/chapters/nvlink', '/zh/chapters/nvlink/'],
  ['#/zh/chapters/nvlink?s=s-3', '/zh/chapters/nvlink/#s-3'],
  ['#/en/chapters/memory-capacity?exercise=mem-kv-32x8k', '/en/chapters/memory-capacity/#exercise-mem-kv-32x8k'],
  ['#/en/chapters/cuda?print=worksheet', '/en/chapters/cuda/worksheet/'],
  ['#/zh/chapters/cuda?print=answers', '/zh/chapters/cuda/answers/'],
  ['#/en/glossary?term=kv-cache', '/en/glossary/#term-kv-cache'],
  ['#/en/estimate?v=1&s=eyJtb2RlbCI6ImxsYW1hLTMuMS03MGIifQ', '/en/estimate/?v=1&s=eyJtb2RlbCI6ImxsYW1hLTMuMS03MGIifQ'],
  ['#/en/plan?rate=3', '/en/plan/?rate=3'],
  ['#/zh/tools', '/zh/tools/'],
  ['#/zh/tools/cloud?n=64', '/zh/tools/cloud/?n=64'],
  ['#/en/lab/bandwidth?cap=16&vs=h100-sxm', '/en/lab/bandwidth/?cap=16&vs=h100-sxm'],
  ['#/en/validation', '/en/validation/'],
  ['#/zh/embed/cuda-grid?n=1000&t=128', '/zh/embed/cuda-grid/?n=1000&t=128'],
  ['#/en/chapters/no-such', '/404.html'],
  ['#/fr/', '/404.html'],
];

test('every old address lands on its page with its state', async () => {
  const page = await newPage(browser);
  for (const [old, now] of OLD) {
    await page.goto(`${server.url}${old}`);
    // The page and the place on it exactly; its state as given (a tool may write it out in full).
    const want = new URL(now, 'http://x');
    await page.waitForFunction(([path, hash, pairs]) => location.pathname === path && location.hash === hash
      && pairs.every((p) => location.search.slice(1).split('&').includes(p)),
    [want.pathname, want.hash, want.search.slice(1).split('&').filter(Boolean)], { timeout: 20000 })
      .catch(async () => assert.fail(`${old} landed on ${page.url()}, not ${now}`));
    await page.waitForSelector('main [data-page]');
  }
  // The missing pages are answered 404 (logged by the browser).
  page.problems = page.problems.filter((p) => !/status of 404/.test(p));
  await finish(page);
});

test('a sitemap is written when the site address is given, and the pages link it absolutely', async () => {
  // dist/ is built without an address: no sitemap, relative canonical links (checked above).
  assert.throws(() => readFileSync(join(DIST, 'sitemap.xml')));
  const html = readFileSync(join(DIST, 'en', 'index.html'), 'utf8');
  assert.match(html, /<link rel="canonical" href="\.\.\/en\/">/);
});
