// The print page and the offline file are linked (issue 30): a teacher found neither without the
// README. Every page's footer and the home page link the whole course on one page and the
// offline file, with its size as the build measured it; the print link opens the print page, the
// offline link downloads the file whose size it states; the offline file does not link itself.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { statSync } from 'node:fs';
import { join } from 'node:path';
import { serve, launch, newPage, finish, DIST } from './harness.mjs';

let server, browser;
before(async () => { server = await serve(); browser = await launch(); });
after(async () => { await browser?.close(); await server?.close(); });

const WORDS = {
  en: { print: 'The whole course on one page (to print)', offline: /^Offline copy: one HTML file that opens without a network \((\d+\.\d) MB\)$/, title: 'The whole course (print)' },
  zh: { print: '全部章节合成一页（便于打印）', offline: /^离线版：一个 HTML 文件，断网也能打开（(\d+\.\d) MB）$/, title: '全部课程（打印版）' },
};

test('the home page and every page\'s footer link the print page and the offline file with its size', async () => {
  const bytes = statSync(join(DIST, 'gpu-primer-offline.html')).size;
  const page = await newPage(browser, { viewport: { width: 390, height: 800 } });
  for (const lang of ['en', 'zh']) {
    const w = WORDS[lang];
    for (const path of [`${lang}/`, `${lang}/chapters/mig/`, `${lang}/estimate/`, `${lang}/tools/cluster/`, `${lang}/glossary/`]) {
      await page.goto(`${server.url}${path}`);
      const scopes = path === `${lang}/` ? ['.for-class', '.site-footer'] : ['.site-footer'];
      for (const scope of scopes) {
        const print = page.locator(`${scope} .course-files a`).first();
        assert.equal((await print.innerText()).trim(), w.print, `${path} ${scope}`);
        const offline = page.locator(`${scope} a.offline-link`);
        assert.ok(await offline.isVisible(), `${path} ${scope}: the offline link is shown`);
        const text = (await offline.innerText()).trim();
        const m = text.match(w.offline);
        assert.ok(m, `${path} ${scope}: "${text}"`);
        assert.equal(Number(m[1]), Number((bytes / 1e6).toFixed(1)), `${path}: the size stated is the file's (${bytes} B)`);
        assert.equal(await offline.getAttribute('download'), '', 'the link downloads the file');
        const href = await offline.evaluate((a) => a.href);
        assert.equal(new URL(href).pathname, '/gpu-primer-offline.html', `${path}: ${href}`);
        if (path === `${lang}/`) {
          const length = await page.evaluate(async (u) => (await (await fetch(u)).arrayBuffer()).byteLength, href);
          assert.equal(length, bytes, `${href}: the file served`);
        }
      }
    }
    // The print link opens the print page (in the app: a page swap), with its own title.
    await page.goto(`${server.url}${lang}/chapters/cuda/`);
    await page.locator('.site-footer .course-files a').first().click();
    await page.waitForSelector(`article[data-page=print]`);
    assert.ok((await page.title()).startsWith(w.title), await page.title());
  }
  await finish(page);
});

test('the offline file does not link itself', async () => {
  const page = await newPage(browser);
  await page.goto(`file://${join(DIST, 'gpu-primer-offline.html')}#/en/`);
  await page.waitForSelector('html[data-live] article[data-page=home]', { timeout: 30000 });
  assert.equal(await page.locator('a.offline-link').count(), 0);
  assert.ok(await page.locator('.site-footer .course-files a').first().isVisible(), 'the print page is linked');
  await finish(page);
});
