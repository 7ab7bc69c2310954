// Printing (issue 30, item 15), in both languages: wide tables print whole at the printed page's
// width; no screen controls on paper; every exercise has a box to write its answer in; the print
// page prints the chapters ticked (without scripts too, or ?chapters=1,3) and its table of
// contents gives each chapter's first page, checked against the pages of Chromium's own PDF.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { serve, launch, newPage, finish, live } from './harness.mjs';

let server, browser;
before(async () => { server = await serve(); browser = await launch(); });
after(async () => { await browser?.close(); await server?.close(); });

const LANGS = ['zh', 'en'];
// A4 less the 15 mm margins of @page: the width a printed page lays out at, in CSS pixels.
const PAPER = { width: Math.floor((180 * 96) / 25.4), height: 1000 };

/** What sticks out of the page, under print rules at the printed width: elements wider than the
 * page or scrolled boxes hiding part of their content. */
function overflowing(page) {
  return page.evaluate(() => {
    const width = document.documentElement.clientWidth;
    const out = [];
    for (const el of document.querySelectorAll('main table, main .table-scroll, main .cl-scroll, main .plan-scroll')) {
      const r = el.getBoundingClientRect();
      if (r.width === 0) continue;
      if (r.right > width + 1 || el.scrollWidth > el.clientWidth + 1) out.push(`${el.className || el.tagName}: ${Math.round(r.right)} > ${width}, scroll ${el.scrollWidth}/${el.clientWidth}`);
    }
    return out;
  });
}

test('wide tables print whole: What runs on my machine and the shared cluster\'s team bills', async () => {
  for (const lang of LANGS) {
    for (const [tool, table] of [['local', '.local-table'], ['cluster', '.cl-results .cl-table']]) {
      const page = await newPage(browser, { viewport: PAPER });
      await page.goto(`${server.url}${lang}/tools/${tool}/`);
      await page.waitForSelector(`${table} tbody tr`);
      await page.emulateMedia({ media: 'print' });
      const out = await overflowing(page);
      assert.deepEqual(out, [], `${lang}/tools/${tool}`);
      // Every column of the table is on the page: its last header cell ends inside it.
      const right = await page.locator(`${table} thead th`).last().evaluate((th) => th.getBoundingClientRect().right);
      assert.ok(right <= PAPER.width, `${lang}/${tool}: last column at ${right}`);
      await finish(page);
    }
  }
});

test('no screen controls on paper: buttons, sliders, menus, the site\'s navigation', async () => {
  for (const lang of LANGS) {
    for (const path of ['chapters/cuda/', 'chapters/memory-capacity/', 'estimate/', 'tools/cluster/']) {
      const page = await newPage(browser, { viewport: PAPER });
      await page.goto(`${server.url}${lang}/${path}`);
      if (path.startsWith('chapters/')) await live(page, 'aside.widget');
      await page.emulateMedia({ media: 'print' });
      const shown = await page.evaluate(() => {
        const visible = (el) => el.getClientRects().length > 0 && getComputedStyle(el).visibility !== 'hidden';
        const out = [];
        for (const el of document.querySelectorAll('button, input[type=range], .site-header, .chapter-nav, .site-footer, .copy-embed, .embed-code, .search-slot, .exercise-solution')) {
          if (visible(el)) out.push(el.outerHTML.slice(0, 80));
        }
        // A menu prints as the value it holds, without its arrow or box.
        for (const el of document.querySelectorAll('main select')) {
          const s = getComputedStyle(el);
          if (visible(el) && (s.appearance !== 'none' || s.borderTopWidth !== '0px')) out.push(`select ${el.id}: ${s.appearance}`);
        }
        return out;
      });
      assert.deepEqual(shown, [], `${lang}/${path}`);
      await finish(page);
    }
  }
});

test('every exercise has a box to write its answer in, on paper only', async () => {
  for (const lang of LANGS) {
    const page = await newPage(browser, { viewport: PAPER });
    await page.goto(`${server.url}${lang}/chapters/memory-capacity/`);
    const count = await page.locator('section.exercise').count();
    assert.ok(count > 0);
    assert.equal(await page.locator('.answer-space').first().isVisible(), false, 'not on screen');
    await page.emulateMedia({ media: 'print' });
    const boxes = await page.$$eval('section.exercise', (cards) => cards.map((c) => {
      const box = c.querySelector('.answer-space');
      return box ? { h: box.getBoundingClientRect().height, text: box.innerText } : null;
    }));
    for (const b of boxes) {
      assert.ok(b && b.h >= 80, `${lang}: ${JSON.stringify(b)}`); // 2.4 cm is 91 px
      assert.match(b.text, lang === 'zh' ? /答案：/ : /Answer:/);
    }
    assert.equal(boxes.length, count);
    await finish(page);
  }
});

test('the print page prints the chapters ticked: boxes without scripts, ?chapters=1,3 with them', async () => {
  for (const lang of LANGS) {
    const shownChapters = (page) => page.$$eval('.print-chapter', (s) => s.filter((x) => getComputedStyle(x).display !== 'none').map((x) => Number(x.dataset.number)));
    const noJs = await newPage(browser, { javaScriptEnabled: false });
    await noJs.goto(`${server.url}${lang}/print/`);
    const all = await shownChapters(noJs);
    assert.ok(all.length >= 15, `${lang}: every chapter when none is ticked`);
    await noJs.check('#pick-2');
    await noJs.check('#pick-5');
    assert.deepEqual(await shownChapters(noJs), [2, 5], `${lang}: the ticked ones, without scripts`);
    await noJs.emulateMedia({ media: 'print' });
    const toc = await noJs.$$eval('.toc-list li', (li) => li.filter((x) => getComputedStyle(x).display !== 'none').length);
    assert.equal(toc, 2, `${lang}: the printed contents list only them`);
    assert.equal(await noJs.locator('#pick-2').isVisible(), false, 'the boxes are not printed');
    await finish(noJs);

    const page = await newPage(browser);
    await page.goto(`${server.url}${lang}/print/?chapters=1,3`);
    assert.deepEqual(await shownChapters(page), [1, 3], `${lang}: ?chapters=1,3`);
    await finish(page);
  }
});

/** The text of each page of `pdf` (pdftotext from poppler-utils). */
function pdfPages(pdf) {
  const dir = mkdtempSync(join(tmpdir(), 'gpu-primer-print-'));
  const file = join(dir, 'page.pdf');
  writeFileSync(file, pdf);
  return execFileSync('pdftotext', ['-enc', 'UTF-8', file, '-'], { encoding: 'utf8', maxBuffer: 64 << 20 }).split('\f');
}

test('the table of contents gives the page each chapter starts on, as Chromium prints it', async () => {
  for (const lang of LANGS) {
    for (const query of ['', '?chapters=2,4,6,13']) {
      const page = await newPage(browser);
      await page.goto(`${server.url}${lang}/print/${query}`);
      await page.evaluate(() => window.dispatchEvent(new Event('beforeprint')));
      const toc = await page.$$eval('.toc-list li', (li) => li
        .filter((x) => x.querySelector('.toc-page').textContent !== '')
        .map((x) => ({ label: x.querySelector('.toc-number').textContent, page: Number(x.querySelector('.toc-page').textContent) })));
      assert.ok(toc.length === (query ? 4 : 15) || (!query && toc.length >= 15), `${lang}${query}: ${toc.length} chapters numbered`);
      const pages = pdfPages(await page.pdf({ preferCSSPageSize: true }));
      const starts = toc.map(({ label }) => {
        const head = new RegExp(`^${label.replace(/\s+/g, '\\s*')}\\s`);
        return pages.findIndex((text, i) => i > 0 && head.test(text.trimStart())) + 1;
      });
      assert.deepEqual(toc.map((t) => t.page), starts, `${lang}${query}: contents vs the PDF's pages (${pages.length - 1} pages)`);
      await finish(page);
    }
  }
});
