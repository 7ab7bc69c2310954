// Nothing moves when the app mounts: every slot of a page (a chapter's widgets and figures, an
// app page's component) has the same height once live as the prerendered snapshot it replaces,
// at a desktop's width and at a phone's (where the charts are drawn narrower and taller). The
// lab is left out: what it shows once live depends on the adapter the browser offers.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { serve, launch, newPage, finish, DIST } from './harness.mjs';

let server, browser;
before(async () => { server = await serve(); browser = await launch(); });
after(async () => { await browser?.close(); await server?.close(); });

const chapters = readdirSync(join(DIST, 'en', 'chapters'));
const PAGES = [
  ...chapters.map((c) => `en/chapters/${c}/`),
  'zh/chapters/gpu-clusters/', 'zh/chapters/introduction/', 'zh/chapters/nvlink/',
  'en/estimate/', 'zh/plan/', 'en/tools/cluster/', 'zh/tools/mig/', 'en/tools/diagnose/',
];
const SLOTS = '[data-mount]:not([data-mount=search]):not([data-widget=lab]):not([data-app=lab])';

const heights = (page) => page.$$eval(SLOTS, (slots) => slots.map((s) =>
  [`${s.dataset.mount}:${s.dataset.widget || s.dataset.figure || s.dataset.app || ''}`, s.getBoundingClientRect().height]));

// Charts are redrawn in the frame after a mount: let two frames pass.
const frames = (page) => page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(() => setTimeout(r, 50)))));

for (const width of [1280, 390]) {
  test(`at ${width} px every slot keeps its height when the app mounts into it`, async () => {
    const viewport = { width, height: 900 };
    const off = await browser.newContext({ javaScriptEnabled: false, viewport });
    const still = await off.newPage();
    const page = await newPage(browser, { viewport });
    for (const path of PAGES) {
      await still.goto(`${server.url}${path}`);
      const before = await heights(still);
      assert.ok(before.length >= 1, `${path}: a slot`);
      const same = (after, when) => {
        assert.deepEqual(after.map(([k]) => k), before.map(([k]) => k), `${path}: the same slots`);
        before.forEach(([slot, h], i) =>
          assert.ok(Math.abs(after[i][1] - h) <= 1, `${path} ${slot} ${when}: ${h.toFixed(1)} px prerendered, ${after[i][1].toFixed(1)} px live`));
      };
      await page.goto(`${server.url}${path}`);
      await frames(page);
      same(await heights(page), 'at the top of the page');
      // Read down the page as a reader would, so that each part is mounted as it nears the view.
      await page.evaluate(async () => {
        for (let y = 0; y < document.body.scrollHeight; y += 600) {
          scrollTo(0, y);
          await new Promise((r) => setTimeout(r, 60));
        }
      });
      await page.waitForFunction((sel) => [...document.querySelectorAll(sel)].every((el) => el.hasAttribute('data-live')), SLOTS, { timeout: 20000 });
      await frames(page);
      same(await heights(page), 'read down to the end');
    }
    await off.close();
    await finish(page);
  });
}
