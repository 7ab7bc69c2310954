// The glossary and the site search in a real browser (issue 9): the glossary page in both
// languages, its links to chapters, term links in chapters, and search by the `/` key.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { serve, launch, newPage, waitForApp } from './harness.mjs';

let server, browser;
before(async () => { server = await serve(); browser = await launch(); });
after(async () => { await browser?.close(); await server?.close(); });

test('the glossary lists 60+ terms in both languages and every link on it reaches a chapter', async () => {
  const page = await newPage(browser);
  for (const lang of ['zh', 'en']) {
    await page.goto(`${server.url}${lang}/glossary/`);
    await page.waitForSelector('article[data-page=glossary] [data-term]');
    const count = await page.locator('[data-term]').count();
    assert.ok(count >= 60, `${lang}: ${count} terms`);
    const both = await page.locator('[data-term]').evaluateAll((cards) => cards.every((c) =>
      c.querySelector('.term-here')?.textContent.trim() && c.querySelector('.term-other')?.textContent.trim()
      && c.querySelector('.term-def')?.textContent.trim()));
    assert.ok(both, `${lang}: every entry has both names and a definition`);
    const hrefs = await page.locator('article[data-page=glossary] .used-in a')
      .evaluateAll((as) => [...new Set(as.map((a) => a.getAttribute('href')))]);
    assert.ok(hrefs.length >= 10, `${lang}: ${hrefs.length} distinct chapter links`);
    for (const href of hrefs) {
      assert.match(href, new RegExp(`^\\.\\./\\.\\./${lang}/chapters/[a-z0-9-]+/$`));
      const slug = href.split('/').at(-2);
      await page.goto(`${server.url}${lang}/glossary/`);
      await page.locator(`.used-in a[href="${href}"]`).first().click();
      await page.waitForSelector(`html[data-live] article[data-page=chapter][data-slug="${slug}"]`);
    }
  }
  assert.deepEqual(page.problems, []);
  await page.context().close();
});

test('a term link in a chapter opens and marks the glossary entry', async () => {
  const page = await newPage(browser);
  for (const lang of ['en', 'zh']) {
    await page.goto(`${server.url}${lang}/chapters/memory-capacity/`);
    await waitForApp(page);
    const link = page.locator('.prose a[href*="/glossary/#term-"]').first();
    const href = await link.getAttribute('href');
    const id = href.split('#term-')[1];
    await link.click();
    await page.waitForSelector(`html[data-live] [data-term="${id}"][data-highlight]`);
    assert.equal(new URL(page.url()).pathname + new URL(page.url()).hash, `/${lang}/glossary/#term-${id}`);
    const box = await page.locator(`[data-term="${id}"]`).boundingBox();
    assert.ok(box && box.y >= 0 && box.y < 900, `the entry is scrolled into view (y=${box?.y})`);
    // The other language shows the same entry.
    const other = lang === 'en' ? 'zh' : 'en';
    await page.click('#lang-switch');
    await page.waitForFunction((h) => location.pathname + location.hash === h, `/${other}/glossary/#term-${id}`);
    await page.waitForSelector(`html[data-live] [data-term="${id}"][data-highlight]`);
  }
  assert.deepEqual(page.problems, []);
  await page.context().close();
});

test('/ opens search; it finds a Chinese and an English term and a result navigates there', async () => {
  const page = await newPage(browser);
  await page.goto(`${server.url}zh/chapters/introduction/`);
  await waitForApp(page);
  await page.locator('article h1').click();
  await page.keyboard.press('/');
  assert.equal(await page.evaluate(() => document.activeElement?.id), 'site-search');
  await page.keyboard.type('KV 缓存');
  const zhHit = page.locator('#search-results a[data-href="#/zh/glossary/#term-kv-cache"]');
  await zhHit.waitFor();
  assert.match(await page.locator('#search-results').textContent(), /KV/);
  assert.equal(await zhHit.getAttribute('href'), '../../../zh/glossary/#term-kv-cache', 'a result is a link relative to the page');
  await zhHit.click();
  await page.waitForSelector('html[data-live] [data-term="kv-cache"][data-highlight]');
  assert.equal(await page.locator('#search-results').isHidden(), true, 'the list closes');

  await page.goto(`${server.url}en/`);
  await waitForApp(page);
  await page.keyboard.press('/');
  await page.keyboard.type('tensor core');
  await page.waitForSelector('#search-results li[role=option]');
  const first = await page.locator('#search-results li[role=option] a').first().getAttribute('data-href');
  assert.match(first, /^#\/en\/chapters\/tensor-cores\//, 'a chapter title ranks first');
  assert.ok(await page.locator('#search-results a[data-href="#/en/glossary/#term-tensor-core"]').count() === 1);
  assert.ok((await page.locator('#search-results .hit-snippet').first().textContent()).length > 10);
  // Keyboard: down to the second result, Enter opens it.
  const second = await page.locator('#search-results li[role=option] a').nth(1).getAttribute('href');
  await page.keyboard.press('ArrowDown');
  assert.equal(await page.locator('#search-results li[aria-selected=true] a').getAttribute('href'), second);
  const want = new URL(second, page.url()).href;
  await page.keyboard.press('Enter');
  await page.waitForFunction((h) => location.href === h, want).catch(async (e) => { throw new Error(`${e.message}: at ${page.url()}, want ${want}`); });
  // The next page is swapped in and its app parts mounted (as a reader's next key lands).
  await waitForApp(page);
  // Escape closes; `/` typed inside a field stays in the field. The key that opens search is
  // pressed until the field has focus (the swapped-in page's key handler may land a frame late).
  for (let i = 0; i < 20 && (await page.evaluate(() => document.activeElement?.id)) !== 'site-search'; i++) {
    await page.keyboard.press('/');
    await page.waitForTimeout(100);
  }
  await page.keyboard.type('nvlink');
  await page.waitForSelector('#search-results:not([hidden])');
  await page.keyboard.press('Escape');
  assert.equal(await page.locator('#search-results').isHidden(), true);
  await page.goto(`${server.url}en/estimate/`);
  await waitForApp(page);
  const field = page.locator('input[type=search]:not(#site-search)').first();
  await field.click();
  await page.keyboard.press('/');
  assert.notEqual(await page.evaluate(() => document.activeElement?.id), 'site-search', '/ while typing stays in the field');
  assert.match(await field.inputValue(), /\//);
  assert.deepEqual(page.problems, []);
  await page.context().close();
});

test('a section result scrolls to its heading; phones get a search button', async () => {
  const page = await newPage(browser, { viewport: { width: 390, height: 800 } });
  await page.goto(`${server.url}en/`);
  await waitForApp(page);
  await page.click('.search-toggle');
  assert.equal(await page.evaluate(() => document.activeElement?.id), 'site-search');
  assert.ok((await page.locator('#site-search').boundingBox()).width > 200, 'the field opens wide');
  await page.keyboard.type('ridge point');
  const section = page.locator('#search-results a[data-href*="/#s-"]').first();
  const href = await section.getAttribute('href');
  const want = new URL(href, page.url()).href;
  await section.click();
  await page.waitForFunction((h) => location.href === h, want);
  const id = href.split('#')[1];
  await page.waitForSelector(`html[data-live] #${id}[data-highlight]`);
  const y = (await page.locator(`#${id}`).boundingBox()).y;
  assert.ok(y >= 0 && y < 400, `the section heading is near the top (y=${y})`);
  assert.deepEqual(page.problems, []);
  await page.context().close();
});
