// The shared-cluster calculator (#/{lang}/tools/cluster) and its widget in the sharing chapter:
// it renders in both languages without errors, an edit to a team changes its bill and the
// address, a bad field in the address is repaired with a notice naming it, and the chapter's
// example gives the chapter's numbers. Expected numbers are worked out here by hand.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { serve, launch, newPage, finish, live } from './harness.mjs';

let server, browser;
before(async () => { server = await serve(); browser = await launch(); });
after(async () => { await browser?.close(); await server?.close(); });

const tool = 'section.cluster-tool';
const value = async (page, sel) => Number(await page.locator(sel).first().getAttribute('data-value'));
const near = (got, want, rel = 1e-9) => assert.ok(Math.abs(got - want) <= Math.abs(want) * rel, `${got} ≠ ${want}`);

test('the page renders in zh and en with its headlines, chart and bills', async () => {
  const page = await newPage(browser);
  for (const lang of ['zh', 'en']) {
    await page.goto(`${server.url}${lang}/tools/cluster/`);
    await page.waitForSelector(`${tool} [data-k=pool] dd`);
    for (const k of ['pool', 'used', 'idle', 'reclaim', 'preempt', 'mig']) {
      assert.equal(await page.locator(`${tool} [data-k=${k}]`).count(), 1, `${lang}: ${k}`);
    }
    assert.equal(await page.locator(`${tool} svg.cost-split`).count(), 1);
    assert.equal(await page.locator(`${tool} tr[data-bill]`).count(), 3);
    // Pools: 16 H100 at $6.88 and 8 A100 80 GB PCIe at $3.673, 730 h each.
    near(await value(page, `${tool} [data-k=pool] dd`), (16 * 6.88 + 8 * 3.673) * 730);
    const text = await page.locator(tool).innerText();
    assert.ok(!/NaN|undefined|Infinity/.test(text), lang);
    // The page writes its state into the address.
    assert.match(page.url(), /\/[a-z]+\/tools\/cluster\/\?p=h100-sxm\*6\.88\*16~/);
  }
  await finish(page);
});

test('editing a team updates its bill and the address', async () => {
  const page = await newPage(browser);
  await page.goto(`${server.url}en/tools/cluster/`);
  const bill = `${tool} tr[data-bill="1"] td[data-value]`;
  await page.waitForSelector(bill);
  // Product: 4 H100 at $6.88 for 730 h = $20,089.60 whatever the use.
  near(await value(page, bill), 4 * 730 * 6.88);
  await page.fill(`${tool} input[data-f=tq][data-i="1"]`, '6');
  await page.waitForFunction((sel) => Math.abs(Number(document.querySelector(sel).dataset.value) - 6 * 730 * 6.88) < 1e-6, bill);
  assert.match(page.url(), /t=1\*Research\*10\*70p\*[^~]*~1\*Product\*6\*40p\*/);
  // Twelve GPUs for Product is more than the pool has left: the error names the pool's quotas.
  await page.fill(`${tool} input[data-f=tq][data-i="1"]`, '12');
  await page.waitForSelector(`${tool} .cl-results [data-field="pools.0.quotas"]`);
  assert.match(await page.locator(`${tool} .cl-results .banner.error`).innerText(), /Pool 1 · quotas/);
  // Adding a team adds a row and a bill; removing it takes both away.
  await page.fill(`${tool} input[data-f=tq][data-i="1"]`, '4');
  await page.click(`${tool} button[data-a=add-team]`);
  await page.waitForSelector(`${tool} tr[data-bill="3"]`);
  await page.click(`${tool} tr[data-team="3"] button[data-a=del-team]`);
  await page.waitForFunction((sel) => document.querySelectorAll(sel).length === 3, `${tool} tr[data-bill]`);
  await finish(page);
});

test('a bad field in the address is repaired with a notice naming it', async () => {
  const page = await newPage(browser);
  for (const [lang, words] of [['en', /Pool 1 · USD per GPU-hour: a price of zero/], ['zh', /池 1 · 每 GPU 小时价格（美元）：价格为 0：必须大于 0；已改用示例值/]]) {
    await page.goto(`${server.url}${lang}/tools/cluster/?p=h100-sxm*0*8&t=1*A*-2*10*0*6*1*1*0&r=soon`);
    await page.waitForSelector(`${tool} .cl-notices .banner.warn`);
    const notices = page.locator(`${tool} .cl-notices`);
    assert.match(await notices.innerText(), words);
    for (const f of ['pools.0.price', 'teams.0.quota', 'reclaim']) {
      assert.equal(await notices.locator(`[data-field="${f}"]`).count(), 1, `${lang}: ${f}`);
    }
    // Repaired: the catalog price, and the month is priced.
    near(await value(page, `${tool} [data-k=pool] dd`), 8 * 730 * 6.88);
    await page.click(`${tool} .cl-notices button[data-a=dismiss]`);
    await page.waitForSelector(`${tool} .cl-notices .banner`, { state: 'detached' });
  }
  await finish(page);
});

test('the sharing chapter widget opens on the chapter example and links to the tool', async () => {
  const page = await newPage(browser);
  for (const lang of ['zh', 'en']) {
    await page.goto(`${server.url}${lang}/chapters/sharing-gpus/`);
    const w = 'aside.widget[data-widget=cluster]';
    await live(page, w);
    await page.waitForSelector(`${w} [data-k=reclaim] dd`);
    // Ten A100s at $3.673: 5,475 idle h; reclaim after 60 min of 18-h stretches wins 17/18.
    near(await value(page, `${w} [data-k=reclaim] dd`), 5475 * 17 / 18 * 3.673);
    near(await value(page, `${w} [data-k=idle] dd`), 5475 * 3.673);
    // Three 7B services on one H100 instead of three: 2 × 730 × $6.88.
    near(await value(page, `${w} [data-k=mig] dd`), 2 * 730 * 6.88);
    const text = await page.locator(w).innerText();
    assert.ok(!/NaN|undefined|Infinity/.test(text), lang);
    // A widget leaves the address alone, and its link opens the full tool in the same state.
    assert.match(page.url(), /chapters\/sharing-gpus\/$/);
    await page.fill(`${w} input[data-f=r]`, '30');
    await page.click(`${w} a.cl-full`);
    await page.waitForSelector(`html[data-live] article[data-tool=cluster] ${tool} [data-k=reclaim] dd`);
    near(await value(page, `${tool} [data-k=reclaim] dd`), 5475 * 17.5 / 18 * 3.673);
  }
  await finish(page);
});
