// The decision tools' frame: the header link and the home page lead to the index, the index
// lists every tool with its chapter, each tool page opens in both languages, and the language
// switch keeps a tool's state.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { serve, launch, newPage, finish, waitForApp } from './harness.mjs';

let server, browser;
before(async () => { server = await serve(); browser = await launch(); });
after(async () => { await browser?.close(); await server?.close(); });

const TOOLS = ['local', 'mig', 'cloud', 'diagnose', 'cluster'];
const WORDS = { en: { nav: 'Tools', title: 'Decision tools' }, zh: { nav: '工具', title: '决策工具' } };

for (const lang of ['en', 'zh']) {
  test(`${lang}: header and home lead to the tools, and each tool opens`, async () => {
    const page = await newPage(browser);
    await page.goto(`${server.url}${lang}/`);
    await waitForApp(page);
    assert.deepEqual(
      await page.$$eval('article .tool-list li', (lis) => lis.map((li) => li.dataset.tool)),
      [...TOOLS, 'plan'],
      'the home page lists every tool and the capacity planner',
    );
    await page.click('.site-header .nav-tools');
    await page.waitForSelector('html[data-live] article[data-page="tools"]');
    assert.equal((await page.locator('.site-header .nav-tools').innerText()).trim(), WORDS[lang].nav);
    assert.equal(await page.locator('.site-header .nav-tools').getAttribute('aria-current'), 'page');
    assert.equal((await page.locator('article h1').innerText()).trim(), WORDS[lang].title);
    for (const tool of TOOLS) {
      const chapter = await page.locator(`.tool-list li[data-tool="${tool}"] .hint a`).getAttribute('href');
      assert.match(chapter, new RegExp(`^\\.\\./\\.\\./${lang}/chapters/[a-z0-9-]+/$`), `${tool} names its chapter`);
      await page.click(`.tool-list li[data-tool="${tool}"] a >> nth=0`);
      await page.waitForSelector(`html[data-live] article[data-tool="${tool}"]`);
      assert.equal(new URL(page.url()).pathname, `/${lang}/tools/${tool}/`);
      await page.goBack();
      await page.waitForSelector('html[data-live] article[data-page="tools"]');
    }
    // The capacity planner has its own route and names the capacity chapter.
    assert.match(await page.locator('.tool-list li[data-tool="plan"] .hint a').getAttribute('href'), new RegExp(`^\\.\\./\\.\\./${lang}/chapters/capacity-estimation/$`));
    await page.click('.tool-list li[data-tool="plan"] a >> nth=0');
    await page.waitForSelector('html[data-live] article[data-page="plan"]');
    assert.equal(new URL(page.url()).pathname, `/${lang}/plan/`);
    await finish(page);
  });
}

test('the language switch keeps a tool and its state', async () => {
  const page = await newPage(browser);
  await page.goto(`${server.url}en/tools/cluster/`);
  await page.waitForSelector('article[data-tool="cluster"]');
  const before = new URL(page.url()).search;
  assert.ok(before.length > 10, 'the tool writes its state into the address');
  await page.click('#lang-switch');
  await page.waitForSelector('html[data-live][lang="zh-CN"]');
  assert.equal(new URL(page.url()).pathname, '/zh/tools/cluster/');
  assert.equal(new URL(page.url()).search, before, 'the query survives');
  await finish(page);
});

test('an unknown tool is not found', async () => {
  const page = await newPage(browser);
  await page.goto(`${server.url}en/tools/no-such-tool/`);
  await page.waitForSelector('article[data-page=not-found]');
  assert.equal(await page.locator('article[data-page="tools"], article[data-page="tool"]').count(), 0);
  page.problems = page.problems.filter((p) => !/status of 404/.test(p));
  await finish(page);
});
