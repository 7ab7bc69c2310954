// The learning path in a real browser (issue 9): the home page lists all fifteen chapters in
// order with a goal each, the previous/next links walk every chapter in both languages, every
// chapter shows its goals, takeaways and references, and print media hides the site's chrome.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { serve, launch, newPage, waitForApp, finish } from './harness.mjs';

let server, browser;
before(async () => { server = await serve(); browser = await launch(); });
after(async () => { await browser?.close(); await server?.close(); });

const HEADINGS = {
  en: { goals: 'After this chapter you can', takeaways: 'Takeaways', references: 'References' },
  zh: { goals: '读完本章，你能', takeaways: '要点', references: '参考资料' },
};

/** The chapter slugs the home page lists, in order, with their goal lines. */
async function homeList(page, lang) {
  await page.goto(`${server.url}${lang}/`);
  await page.waitForSelector('article[data-page=home] .path .toc a');
  return page.locator('.path .toc li').evaluateAll((items) => items.map((li) => ({
    slug: li.querySelector('a').getAttribute('href').split('/').at(-2),
    goal: li.querySelector('.toc-summary')?.textContent.trim() ?? '',
  })));
}

test('the home page shows the path: fifteen chapters in order, in stages, each with a goal', async () => {
  const page = await newPage(browser);
  const orders = {};
  for (const lang of ['en', 'zh']) {
    const list = await homeList(page, lang);
    assert.equal(list.length, 15, `${lang}: ${list.length} chapters`);
    assert.equal(new Set(list.map((c) => c.slug)).size, 15, `${lang}: every chapter once`);
    for (const c of list) {
      assert.ok(c.goal.length > 10 && c.goal.length < 160, `${lang} ${c.slug}: one-line goal '${c.goal}'`);
    }
    assert.ok(await page.locator('.path .stage h3').count() >= 2, `${lang}: stages are named`);
    orders[lang] = list.map((c) => c.slug);
  }
  assert.deepEqual(orders.zh, orders.en, 'the same order in both languages');
  await finish(page);
});

test('previous/next links walk every chapter in both languages, and each shows goals, takeaways and references', async () => {
  const page = await newPage(browser);
  for (const lang of ['en', 'zh']) {
    const order = (await homeList(page, lang)).map((c) => c.slug);
    const h = HEADINGS[lang];
    await page.goto(`${server.url}${lang}/chapters/${order[0]}/`);
    for (let i = 0; i < order.length; i++) {
      await page.waitForSelector(`html[data-live] article[data-page=chapter][data-slug="${order[i]}"]`);
      const chapter = page.locator('article[data-page=chapter]');
      const prev = chapter.locator('.pager a[rel=prev]');
      const next = chapter.locator('.pager a[rel=next]');
      assert.equal(await prev.count(), i === 0 ? 0 : 1, `${lang} ${order[i]}: previous link`);
      assert.equal(await next.count(), i === order.length - 1 ? 0 : 1, `${lang} ${order[i]}: next link`);
      if (i > 0) assert.equal(await prev.getAttribute('href'), `../../../${lang}/chapters/${order[i - 1]}/`);
      // The opening block: goals as a list, then what to read first.
      const opening = chapter.locator('.prose blockquote').first();
      assert.ok((await opening.textContent()).includes(h.goals), `${lang} ${order[i]}: goals first`);
      assert.ok(await opening.locator('li').count() >= 2, `${lang} ${order[i]}: at least two goals`);
      const h2 = await chapter.locator('.prose h2').allTextContents();
      assert.ok(h2.includes(h.takeaways), `${lang} ${order[i]}: takeaways`);
      assert.equal(h2.at(-1), h.references, `${lang} ${order[i]}: references come last`);
      const refs = await chapter.locator('.prose h2:last-of-type + ul a').evaluateAll((as) => as.map((a) => a.href));
      assert.ok(refs.length >= 1 && refs.every((u) => /^https?:\/\//.test(u)), `${lang} ${order[i]}: ${refs}`);
      if (i < order.length - 1) await next.click();
    }
  }
  await finish(page);
});

test('print media shows the chapter without the site chrome, and external links with their address', async () => {
  const page = await newPage(browser);
  await page.emulateMedia({ colorScheme: 'dark' });
  await page.goto(`${server.url}en/chapters/mig/`);
  await waitForApp(page);
  await page.waitForSelector('.widget');
  const shown = (sel) => page.locator(sel).first().evaluate((el) => el.checkVisibility());
  assert.equal(await shown('.site-header'), true, 'the header shows on screen');
  await page.emulateMedia({ media: 'print', colorScheme: 'dark' });
  for (const sel of ['.site-header', '.site-footer', '.chapter-nav', '.pager', '.widget button', '.open-estimator']) {
    if (await page.locator(sel).count()) assert.equal(await shown(sel), false, `${sel} is hidden in print`);
  }
  assert.equal(await shown('article[data-page=chapter] h1'), true, 'the chapter prints');
  assert.equal(await shown('.widget-body'), true, 'the widget prints as its figure');
  const colours = await page.evaluate(() => {
    const s = getComputedStyle(document.body);
    return [s.backgroundColor, s.color];
  });
  assert.deepEqual(colours, ['rgb(255, 255, 255)', 'rgb(0, 0, 0)'], 'light colours in print, even in dark mode');
  const after = await page.locator('.prose a[href^="https://"]').first()
    .evaluate((a) => getComputedStyle(a, '::after').content);
  assert.match(after, /https:\/\//, 'an external link prints its address');
  await finish(page);
});

test('the whole course prints from one page in each language, its links inside it', async () => {
  const page = await newPage(browser);
  for (const lang of ['en', 'zh']) {
    const order = (await homeList(page, lang)).map((c) => c.slug);
    await page.goto(`${server.url}${lang}/print/`);
    await page.waitForSelector('article[data-page=print]');
    const ids = await page.locator('section.print-chapter').evaluateAll((ss) => ss.map((s) => s.id));
    assert.deepEqual(ids, order, `${lang}: every chapter, in order`);
    assert.equal(await page.locator('nav.toc a').count(), order.length);
    // Ids are unique on the page, and each in-page link has its target.
    const dup = await page.evaluate(() => {
      const seen = new Set(), twice = [];
      for (const el of document.querySelectorAll('main [id]')) { if (seen.has(el.id)) twice.push(el.id); seen.add(el.id); }
      return twice;
    });
    assert.ok(!dup.some((id) => /^[a-z0-9-]+-s-\d+$|^exercise-/.test(id)), `${lang}: duplicate section or exercise ids ${dup}`);
    const missing = await page.locator('main a[href^="#"]').evaluateAll((as) =>
      as.map((a) => a.getAttribute('href').slice(1)).filter((id) => id && !document.getElementById(id)));
    assert.deepEqual([...new Set(missing)], [], `${lang}: in-page links without a target`);
    await page.emulateMedia({ media: 'print' });
    assert.equal(await page.locator('.site-header').first().evaluate((el) => el.checkVisibility()), false);
    await page.emulateMedia({ media: 'screen' });
  }
  await finish(page);
});
