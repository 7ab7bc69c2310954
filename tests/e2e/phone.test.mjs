// A reader on a phone (issue 30): the chapter list is reachable from the header (it used to be
// only after the page's text), the language switch keeps the reader's section (the fragment, or
// the heading the reader has scrolled to), and a tap on a glossary term shows its definition
// before leaving the page (a second tap, or the link in the definition, goes to the glossary).
// At 390 px with touch, in the dark scheme, in both languages.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { serve, launch, newPage, finish } from './harness.mjs';

let server, browser;
before(async () => { server = await serve(); browser = await launch(); });
after(async () => { await browser?.close(); await server?.close(); });

const PHONE = { viewport: { width: 390, height: 844 }, colorScheme: 'dark', hasTouch: true, isMobile: true };
const OTHER = { en: 'zh', zh: 'en' };

for (const lang of ['en', 'zh']) {
  test(`${lang}: the header's menu opens the chapter list over the page, and a chapter from it`, async () => {
    const page = await newPage(browser, PHONE);
    for (const [path, bundle] of [[`${lang}/chapters/cuda/`, 'course'], [`${lang}/estimate/`, 'estimator'], [`${lang}/tools/mig/`, 'tools']]) {
      await page.goto(`${server.url}${path}`);
      assert.equal(await page.evaluate(() => document.documentElement.dataset.bundle), bundle);
      const button = page.locator('.site-header .nav-menu');
      assert.ok(await button.isVisible(), `${path}: the menu button is in the header`);
      assert.equal(await button.getAttribute('href'), '#chapter-nav', 'without the app it is a link to the list');
      const box = await button.boundingBox();
      assert.ok(box.width >= 24 && box.height >= 24 && box.x >= 0 && box.x + box.width <= 390, `${path}: ${JSON.stringify(box)}`);
      await page.evaluate(() => scrollTo(0, 600));
      await button.tap();
      const list = page.locator('#chapter-nav[data-open]');
      await list.waitFor();
      assert.equal(await button.getAttribute('aria-expanded'), 'true');
      // Over the page, under the header, within the screen; every chapter is in it.
      const [header, nav] = await page.evaluate(() => [
        document.querySelector('.site-header').getBoundingClientRect().toJSON(),
        document.getElementById('chapter-nav').getBoundingClientRect().toJSON(),
      ]);
      assert.ok(Math.abs(nav.top - header.bottom) <= 1 && nav.left === 0 && nav.right <= 390 && nav.bottom <= 844, JSON.stringify(nav));
      assert.equal(await list.locator('li a').count(), 15);
      assert.ok(await list.locator('li a').first().isVisible());
      const focused = await page.evaluate(() => document.activeElement.closest('#chapter-nav') !== null);
      assert.ok(focused, `${path}: the focus is in the list`);
      if (path.includes('/chapters/')) {
        assert.equal(await page.evaluate(() => document.activeElement.classList.contains('current')), true, 'on the chapter shown');
      }
      // Escape closes it and gives the focus back to the button.
      await page.keyboard.press('Escape');
      await list.waitFor({ state: 'detached' });
      assert.equal(await page.evaluate(() => document.activeElement.classList.contains('nav-menu')), true);
      assert.equal(await button.getAttribute('aria-expanded'), 'false');
      // A tap outside closes it too (below the list, or on the header's empty middle).
      await button.tap();
      await list.waitFor();
      const below = await page.evaluate(() => document.getElementById('chapter-nav').getBoundingClientRect().bottom);
      if (below < 830) await page.touchscreen.tap(5, below + 8);
      else await page.evaluate(() => document.querySelector('.site-header').dispatchEvent(new PointerEvent('pointerdown', { bubbles: true, pointerType: 'touch' })));
      await list.waitFor({ state: 'detached' });
    }
    // From the list to a chapter (of the other bundle: the MIG chapter is in the tools bundle).
    await page.goto(`${server.url}${lang}/chapters/cuda/`);
    await page.locator('.nav-menu').tap();
    await page.locator('#chapter-nav[data-open] a[href$="/chapters/mig/"]').tap();
    await page.waitForSelector('html[data-live] article[data-page=chapter][data-slug=mig]');
    assert.equal(await page.locator('#chapter-nav[data-open]').count(), 0, 'the list is closed on the new page');
    await finish(page);
  });

  test(`${lang}: the language switch keeps the reader's section`, async () => {
    const page = await newPage(browser, PHONE);
    // A section the reader scrolled to, without a fragment.
    await page.goto(`${server.url}${lang}/chapters/memory-bandwidth/`);
    await page.evaluate(() => { document.getElementById('s-4').scrollIntoView(); scrollBy(0, 40); });
    await page.locator('#lang-switch').tap();
    await page.waitForSelector(`html[data-live][lang^=${OTHER[lang]}] article[data-slug=memory-bandwidth]`);
    assert.equal(new URL(page.url()).hash, '#s-4');
    await page.waitForFunction(() => { const r = document.getElementById('s-4').getBoundingClientRect(); return r.top >= 0 && r.top < innerHeight / 2; });
    // A fragment in the address is kept as it is.
    await page.goto(`${server.url}${lang}/chapters/nvlink/#s-3`);
    await page.locator('#lang-switch').tap();
    await page.waitForSelector(`html[data-live][lang^=${OTHER[lang]}] article[data-slug=nvlink]`);
    assert.equal(new URL(page.url()).hash, '#s-3');
    // A glossary entry the reader scrolled to.
    await page.goto(`${server.url}${lang}/glossary/`);
    await page.evaluate(() => document.getElementById('term-nvlink').scrollIntoView());
    await page.locator('#lang-switch').tap();
    await page.waitForSelector(`html[data-live][lang^=${OTHER[lang]}] .glossary`);
    assert.equal(new URL(page.url()).hash, '#term-nvlink');
    await page.waitForFunction(() => { const r = document.getElementById('term-nvlink').getBoundingClientRect(); return r.top >= 0 && r.top < innerHeight / 2; });
    // At the top of a page, the other language's page opens at its top.
    await page.goto(`${server.url}${lang}/chapters/cuda/`);
    await page.locator('#lang-switch').tap();
    await page.waitForSelector(`html[data-live][lang^=${OTHER[lang]}] article[data-slug=cuda]`);
    assert.equal(new URL(page.url()).hash, '');
    await finish(page);
  });

  test(`${lang}: a tap on a glossary term shows its definition first, a second tap opens the glossary`, async () => {
    const page = await newPage(browser, PHONE);
    await page.goto(`${server.url}${lang}/chapters/memory-capacity/`);
    const term = page.locator('.prose .term').first();
    const link = term.locator(':scope > a');
    const href = await link.getAttribute('href');
    const id = href.split('#')[1];
    await link.scrollIntoViewIfNeeded();
    await link.tap();
    const tip = term.locator('.term-tip');
    await tip.waitFor({ state: 'visible' });
    assert.equal(new URL(page.url()).pathname, `/${lang}/chapters/memory-capacity/`, 'the page stays');
    const box = await tip.boundingBox();
    assert.ok(box.x >= 0 && box.x + box.width <= 390, `the definition is on the screen: ${JSON.stringify(box)}`);
    const more = tip.locator('a.term-more');
    assert.ok(await more.isVisible(), 'a link to the entry');
    assert.equal(await more.getAttribute('href'), href);
    // A tap elsewhere closes it.
    await page.touchscreen.tap(380, 830);
    await page.waitForFunction((el) => !el.closest('.term').hasAttribute('data-open'), await tip.elementHandle());
    // Two taps: the glossary, at the term's entry.
    await link.tap();
    await tip.waitFor({ state: 'visible' });
    await link.tap();
    await page.waitForSelector(`html[data-live] .glossary #${id}`);
    assert.equal(new URL(page.url()).hash, `#${id}`);
    await page.waitForFunction((i) => { const r = document.getElementById(i).getBoundingClientRect(); return r.bottom > 0 && r.top < innerHeight; }, id);
    // The link in the definition goes there too, from a chapter of the other bundle.
    await page.goto(`${server.url}${lang}/chapters/mig/`);
    const other = page.locator('.prose .term').first();
    await other.locator(':scope > a').scrollIntoViewIfNeeded();
    await other.locator(':scope > a').tap();
    await other.locator('a.term-more').tap();
    await page.waitForSelector(`html[data-live] .glossary`);
    await finish(page);
  });
}

test('a mouse click on a term still goes straight to the glossary', async () => {
  const page = await newPage(browser, { viewport: { width: 1280, height: 900 } });
  await page.goto(`${server.url}en/chapters/memory-capacity/`);
  await page.locator('.prose .term > a').first().click();
  await page.waitForSelector('html[data-live] .glossary');
  await finish(page);
});
