// Every label stays with its control (issue 30): chapter 2's "What runs on my machine" put its
// loose labels and fields in one grid, so at a desktop's width "Device" stood over the RAM field
// and "System memory" over the context field. Every form of every page (each page that has a
// <label>, read down so every widget is mounted, and the local tool's other devices) at a
// phone's, a tablet's, a laptop's and a wide screen's width: each label's text is next to its
// own control (above or beside it, within 40 px), nearer to it than to any other control, and
// over none.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { serve, launch, newPage, finish, DIST } from './harness.mjs';
import { sitePages, readDown, labelProblems } from './audit.mjs';

let server, browser;
before(async () => { server = await serve(); browser = await launch(); });
after(async () => { await browser?.close(); await server?.close(); });

const WIDTHS = [390, 768, 1280, 1920];

/** The pages with a form: a <label> in their HTML. Not the whole course on one page, whose
 * calculators are pictures of the chapters' (issue 30, item 15: printing, for later). */
function formPages(lang) {
  return sitePages(lang)
    .filter((p) => p !== `${lang}/print/`)
    .filter((p) => readFileSync(`${DIST}/${p}index.html`, 'utf8').includes('<label'));
}

for (const lang of ['en', 'zh']) {
  test(`${lang}: every label is next to its own control at 390, 768, 1280 and 1920 px`, async () => {
    const pages = [
      ...formPages(lang),
      // The local tool's other devices: a custom one (its memory and bandwidth fields) and a Mac.
      `${lang}/tools/local/?gpu=custom&vram=16&bw=500`,
      `${lang}/tools/local/?gpu=apple-m2-max-38c`,
    ];
    assert.ok(pages.length > 35, `${pages.length} pages`);
    const page = await newPage(browser, { viewport: { width: 1280, height: 900 } });
    const failures = [];
    let labels = 0;
    for (const path of pages) {
      await page.setViewportSize({ width: 1280, height: 900 });
      await page.goto(`${server.url}${path}`);
      await readDown(page);
      for (const width of WIDTHS) {
        await page.setViewportSize({ width, height: 900 });
        await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
        for (const f of await page.evaluate(labelProblems)) failures.push(`${width} px ${path}: ${f}`);
        labels += await page.evaluate(() => [...document.querySelectorAll('label')].filter((l) => l.control && l.getClientRects().length).length);
      }
    }
    assert.ok(labels > 500, `${labels} labels measured`);
    assert.deepEqual(failures, []);
    await finish(page);
  });
}

test('the check finds a label over another field (the local tool as it was)', async () => {
  // The old layout: labels and controls loose in one grid.
  const page = await newPage(browser, { viewport: { width: 1280, height: 900 } });
  await page.goto(`${server.url}en/chapters/memory-capacity/`);
  await readDown(page);
  const broken = await page.evaluate(() => {
    const box = document.querySelector('.local-controls');
    box.scrollIntoView();
    for (const field of [...box.querySelectorAll('.local-field')]) field.replaceWith(...field.childNodes);
    return box.children.length;
  });
  assert.ok(broken >= 8, `${broken} loose labels and controls`);
  const found = await page.evaluate(labelProblems);
  assert.ok(found.some((f) => /^"Device" is/.test(f)), found.join('\n'));
  await finish(page);
});
