// Phones and dark mode (issue 25), on every page of both languages, each read down to its end
// so that the app has mounted every part: at a phone's 390 px in the dark scheme, no page scrolls
// sideways, a box that scrolls sideways inside the page shows a cue, chart text lies inside its
// chart and is drawn at 8 px or more, and every text meets WCAG AA contrast with what it is drawn
// on (native fields included); at 1280 px in the light scheme, the same contrast and chart text.
// And on a wide screen the shared-cluster and cloud tools use the width: nothing is hidden
// behind a sideways scroll. axe-core's rules hold on every page at 390 px (issue 30: the
// language switch's name holds its visible text in its own language, the cluster tool's lists,
// table heads with names, landmarks with their own labels, the planner's heading order), and at
// 1280 px on one page of each kind and on every tool: axe's rules look at the document, not the
// width, except for what a width shows or hides (the phone's menu, the desktop's chapter list,
// the wide tools' tables), which one page of each kind covers; every page at both widths was
// 3.5 minutes of a 50-minute CI run.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { serve, launch, newPage, finish, bounded, SCRIPT_LIMIT_MS } from './harness.mjs';
import { sitePages, readDown, lowContrast, chartTextProblems, scrollWithoutCue, axeViolations } from './audit.mjs';

let server, browser;
before(async () => { server = await serve(); browser = await launch(); });
after(async () => { await browser?.close(); await server?.close(); });

/** Smallest chart text a phone shows (CSS px): the planner's latency charts were at 6.4. */
const MIN_CHART_PX = 8;

/**
 * Runs `check(page, path)` on each page with one page per walk; a page whose check throws (a
 * script that never settles, bounded by the harness, or a renderer that went away) is checked
 * again once in a fresh browser context, so one stalled headless page does not fail or hang the
 * walk, while a page that fails twice fails the test with its path. Returns the failures.
 */
async function walk(options, paths, check) {
  let page = await newPage(browser, options);
  const failures = [];
  for (const path of paths) {
    try {
      failures.push(...(await check(page, path)));
    } catch (first) {
      console.error(`# ${path}: ${first.message.split('\n')[0]}; checked again in a fresh page`);
      await bounded(page.context().close(), SCRIPT_LIMIT_MS, 'closing the page').catch(() => {});
      const earlier = page.problems;
      page = await newPage(browser, options);
      page.problems.push(...earlier);
      try {
        failures.push(...(await check(page, path)));
      } catch (second) {
        failures.push(`${path}: ${second.message.split('\n')[0]}`);
      }
    }
  }
  await finish(page);
  return failures;
}

for (const lang of ['en', 'zh']) {
  // The not-found page is in both languages at once: walked with the English pages.
  const pages = [...sitePages(lang), ...(lang === 'en' ? ['404.html'] : [])];

  test(`${lang}: at 390 px, dark, no page scrolls sideways; cues, chart text, contrast and axe's rules hold on every page`, async () => {
    assert.ok(pages.length > 70, `${pages.length} pages`);
    const failures = await walk({ viewport: { width: 390, height: 800 }, colorScheme: 'dark' }, pages, async (page, path) => {
      const found = [];
      await page.goto(`${server.url}${path}`);
      await readDown(page);
      const [scroll, width] = await page.evaluate(() => [document.documentElement.scrollWidth, document.documentElement.clientWidth]);
      if (scroll > width) found.push(`${path}: the page is ${scroll} px wide in a ${width} px viewport`);
      for (const f of await page.evaluate(scrollWithoutCue)) found.push(`${path}: ${f}`);
      for (const f of await page.evaluate(chartTextProblems, MIN_CHART_PX)) found.push(`${path}: ${f}`);
      for (const f of await page.evaluate(lowContrast)) found.push(`${path} (dark): ${f}`);
      for (const f of await axeViolations(page)) found.push(`${path} (390): ${f}`);
      return found;
    });
    assert.deepEqual(failures, []);
  });

  test(`${lang}: at 1280 px, light, chart text, contrast and axe's rules hold on every page`, async () => {
    const kinds = new Set();
    const failures = await walk({ viewport: { width: 1280, height: 900 }, colorScheme: 'light' }, pages, async (page, path) => {
      const found = [];
      await page.goto(`${server.url}${path}`);
      await readDown(page);
      for (const f of await page.evaluate(scrollWithoutCue)) found.push(`${path}: ${f}`);
      for (const f of await page.evaluate(chartTextProblems, 0)) found.push(`${path}: ${f}`);
      for (const f of await page.evaluate(lowContrast)) found.push(`${path} (light): ${f}`);
      const kind = await page.evaluate(() => document.documentElement.dataset.page ?? 'none');
      if (kind === 'tool' || !kinds.has(kind)) {
        for (const f of await axeViolations(page)) found.push(`${path} (1280): ${f}`);
        kinds.add(kind);
      }
      return found;
    });
    assert.ok(kinds.size >= 8, `axe at 1280 px on ${kinds.size} kinds of page: ${[...kinds]}`);
    assert.deepEqual(failures, []);
  });
}

test('on a wide screen the shared-cluster and cloud tools use the width: no table hides columns', async () => {
  const page = await newPage(browser, { viewport: { width: 1920, height: 1000 } });
  for (const lang of ['en', 'zh']) {
    for (const tool of ['cluster', 'cloud']) {
      await page.goto(`${server.url}${lang}/tools/${tool}/`);
      await readDown(page);
      const { article, hidden } = await page.evaluate(() => ({
        article: document.querySelector('article[data-page=tool]').getBoundingClientRect().width,
        hidden: [...document.querySelectorAll('.cl-scroll, .table-scroll')]
          .filter((b) => b.scrollWidth > b.clientWidth + 1).map((b) => `${b.scrollWidth} in ${b.clientWidth}`),
      }));
      assert.ok(article > 1300, `${lang} ${tool}: the tool is ${article} px wide at 1920`);
      assert.deepEqual(hidden, [], `${lang} ${tool}: tables scroll sideways at 1920`);
    }
    // The teams and bills are tables of the results and controls; on a phone they scroll, with a cue.
  }
  await finish(page);
});

test('axe finds what issue 30 found: the old language switch, a second unnamed nav, an empty table head', async () => {
  const page = await newPage(browser, { viewport: { width: 1280, height: 900 } });
  await page.goto(`${server.url}zh/chapters/introduction/`);
  await readDown(page);
  assert.deepEqual(await axeViolations(page), [], 'the page as built');
  await page.evaluate(() => {
    const a = document.getElementById('lang-switch');
    a.replaceChildren('English');
    a.setAttribute('lang', 'en');
    a.setAttribute('aria-label', '切换到英文版');
    document.querySelector('nav.pager').setAttribute('aria-label', document.querySelector('nav.chapter-nav').getAttribute('aria-label'));
    document.querySelector('.prose table thead td, .prose table thead th').outerHTML = '<th></th>';
  });
  const found = (await axeViolations(page)).map((v) => v.split(':')[0]);
  for (const rule of ['label-content-name-mismatch', 'landmark-unique', 'empty-table-header']) {
    assert.ok(found.includes(rule), `${rule} in ${found}`);
  }
  await finish(page);
});
