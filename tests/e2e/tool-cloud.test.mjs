// The cloud instance selector (#/{lang}/tools/cloud) and its chapter 9 widget: the ranking in
// both languages, edits that re-rank and land in the URL, the reader's own instance, a repaired
// link, and the widget's hand-off to the full tool.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { serve, launch, newPage, finish, waitForApp, live } from './harness.mjs';

let server, browser;
before(async () => { server = await serve(); browser = await launch(); });
after(async () => { await browser?.close(); await server?.close(); });

const hashOf = (page) => decodeURIComponent(new URL(page.url()).search);
const rowKeys = (page) => page.$$eval('.cloud-table tbody tr', (rs) => rs.map((r) => r.dataset.row));

for (const lang of ['en', 'zh']) {
  test(`${lang}: instances are ranked, edits re-rank and the URL keeps them`, async () => {
    const page = await newPage(browser);
    await page.goto(`${server.url}${lang}/tools/cloud/`);
    await page.waitForSelector('.cloud-table tbody tr');
    assert.match(hashOf(page), /m=llama-3\.1-8b&job=serve/);
    const rows = await rowKeys(page);
    assert.ok(rows.length >= 50, `${rows.length} rows`);
    assert.equal((await page.locator('.cloud-table tbody tr >> nth=0 >> td >> nth=0').innerText()).trim(), '1');
    assert.ok(await page.locator('.cloud-table tr.greyed').count() > 0, 'what does not fit stays listed');
    assert.ok(await page.locator('.cloud-math').isVisible(), 'the top choice shows its math');
    const text = await page.locator('.cloud-results').innerText();
    assert.doesNotMatch(text, /NaN|undefined|Infinity/);

    // Rank by the hour, then make p5.48xlarge the cheapest by editing its price.
    await page.selectOption('#cloud-rank', 'hour');
    await page.fill('[data-price="p5.48xlarge"]', '0.01');
    await page.locator('[data-price="p5.48xlarge"]').dispatchEvent('change');
    await page.waitForFunction(() => document.querySelector('.cloud-table tbody tr')?.dataset.row === 'p5.48xlarge');
    assert.match(hashOf(page), /rank=hour/);
    assert.match(hashOf(page), /price=p5\.48xlarge~0\.01/);

    // A training job ranks by the run; the objective follows.
    await page.selectOption('#cloud-job', 'lora');
    await page.waitForFunction(() => location.search.includes('job=lora'));
    assert.equal(await page.locator('#cloud-rank').inputValue(), 'hour');
    await page.selectOption('#cloud-rank', 'run');
    await page.waitForFunction(() => location.search.includes('rank=run'));
    assert.equal(await page.locator('#cloud-tok').isVisible(), true, 'training shows its token count');
    assert.equal(await page.locator('#cloud-tpot').isVisible(), false, 'and hides the latency target');

    // The reader's own instance: a bad one is refused with a message, a good one ranks.
    await page.click('.cloud-add summary');
    await page.fill('#cloud-an', 'bad name!');
    await page.fill('#cloud-ap', '3');
    await page.click('[data-action="add"]');
    assert.equal(await page.locator('[data-add-error]').isVisible(), true);
    await page.fill('#cloud-an', 'my-quote');
    await page.selectOption('#cloud-ag', 'h100-sxm');
    await page.fill('#cloud-ac', '8');
    await page.fill('#cloud-ap', '0.5');
    await page.click('[data-action="add"]');
    await page.waitForSelector('tr[data-row="added-0"]');
    assert.equal(await page.locator('[data-add-error]').isVisible(), false);
    assert.match(hashOf(page), /add=my-quote~h100-sxm~8~0\.5/);
    await page.reload();
    await page.waitForSelector('tr[data-row="added-0"]');
    await page.click('tr[data-row="added-0"] [data-remove]');
    await page.waitForFunction(() => !document.querySelector('tr[data-row="added-0"]'));
    await finish(page);
  });

  test(`${lang}: a damaged link is repaired field by field and says so`, async () => {
    const page = await newPage(browser);
    await page.goto(`${server.url}${lang}/tools/cloud/?m=llama-3.1-70b&n=NaN&pv=oracle&price=p5.48xlarge~0`);
    await page.waitForSelector('.cloud-table tbody tr');
    const notices = await page.locator('.notices li').allInnerTexts();
    assert.equal(notices.length, 3, notices.join(' | '));
    assert.match(hashOf(page), /m=llama-3\.1-70b/, 'the good fields are kept');
    assert.match(hashOf(page), /n=32&/);
    await finish(page);
  });
}

test('the chapter 9 widget ranks the chapter example and opens the full tool', async () => {
  const page = await newPage(browser);
  await page.goto(`${server.url}en/chapters/cloud-gpus/`);
  await waitForApp(page);
  const widget = page.locator('aside[data-widget="cloud"]');
  await live(page, 'aside[data-widget="cloud"]');
  await widget.locator('.cloud-table tbody tr').first().waitFor();
  assert.equal(new URL(page.url()).pathname + hashOf(page), '/en/chapters/cloud-gpus/', 'a widget leaves the address alone');
  await widget.locator('#cloudw-n').fill('64');
  await widget.locator('#cloudw-n').dispatchEvent('change');
  const href = await widget.locator('a.open-estimator').getAttribute('href');
  assert.match(href, /^\.\.\/\.\.\/\.\.\/en\/tools\/cloud\/\?.*n=64/);
  await page.click('aside[data-widget="cloud"] a.open-estimator');
  await page.waitForSelector('html[data-live] article[data-tool="cloud"] .cloud-table tbody tr');
  assert.equal(await page.locator('#cloud-n').inputValue(), '64');
  await finish(page);
});
