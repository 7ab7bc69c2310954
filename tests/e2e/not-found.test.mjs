// The not-found page's links reach the site from any depth (issue 30): a static host serves
// 404.html for a missing path at any depth and under the sub-path the site is hosted at, and its
// `./en/` links resolved under the missing path, so every one of them led to another 404. Typos
// at the top level and nested, at a domain's root and under a sub-path: both home buttons land
// on their home page, and every link of the page leads to a page of the site.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { serve, launch, newPage, finish } from './harness.mjs';

let browser;
after(async () => { await browser?.close(); });

const TYPOS = ['typo', 'en/chapters/no-such/', 'zh/chapters/mig/worksheet/nope/deeper/', 'a/b/c/d.html', 'en/tools/x/y/'];
const HOME = { en: 'GPU Primer', zh: 'GPU 算力入门' };

for (const prefix of ['/', '/docs/gpu-primer/']) {
  test(`404 at any depth${prefix === '/' ? '' : ` under ${prefix}`}: its links reach the site`, async () => {
    browser ??= await launch();
    const server = await serve(undefined, prefix);
    const page = await newPage(browser);
    for (const typo of TYPOS) {
      for (const lang of ['en', 'zh']) {
        const response = await page.goto(`${server.url}${typo}`);
        assert.equal(response.status(), 404, typo);
        await page.waitForSelector('article[data-page=not-found]');
        // The page has found the site's root and pointed its links there.
        await page.waitForFunction(() => document.documentElement.hasAttribute('data-root-found'), null, { timeout: 10000 });
        assert.equal(await page.evaluate(() => document.documentElement.dataset.rootFound), prefix, typo);
        // Every link but those to a place on this page (#main, #chapter-nav).
        const hrefs = await page.locator('a[href]:not([href^="#"])').evaluateAll((as) => as.map((a) => a.href));
        assert.ok(hrefs.length > 15, `${typo}: ${hrefs.length} links`);
        for (const href of new Set(hrefs)) {
          assert.ok(href.startsWith(server.url), `${typo}: ${href} is outside ${server.url}`);
          // The offline file is only in a site built with it; every other link is a page.
          // A GET read to its end: Chromium reports a HEAD request to this test server (a
          // response without a length or a body) as aborted.
          const status = await page.evaluate(async (u) => { const r = await fetch(u); await r.arrayBuffer(); return r.status; }, href);
          if (!/gpu-primer-offline\.html$/.test(href) || status !== 404) assert.equal(status, 200, `${prefix}${typo}: ${href}`);
        }
        await page.click(`section[lang=${lang === 'zh' ? 'zh-CN' : 'en'}] a.button`);
        await page.waitForSelector(`html[data-live][lang^=${lang}] article[data-page=home]`);
        assert.equal(new URL(page.url()).pathname, `${prefix}${lang}/`, `${typo} → ${lang} home`);
        assert.ok((await page.title()).startsWith(HOME[lang]), await page.title());
      }
    }
    // The missing pages were answered 404, as the probes for the root above the site were.
    page.problems = page.problems.filter((p) => !/status of 404/.test(p));
    await finish(page);
    await server.close();
  });
}
