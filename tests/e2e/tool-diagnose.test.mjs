// The bottleneck diagnosis (#/{lang}/tools/diagnose and chapter 11's widget) in a real browser:
// both languages without console errors, observations filled in the form give the expected
// bottleneck and land in the address, a mangled address shows a notice naming each field, the
// chapter widget starts from its example and links to the full tool. Screenshots of the page
// (phone width, dark) go to $SHOTS when it is set.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { serve, launch, newPage, finish, waitForApp, live } from './harness.mjs';

let server, browser;
before(async () => { server = await serve(); browser = await launch(); });
after(async () => { await browser?.close(); await server?.close(); });

const WORDS = {
  en: { results: 'Likely bottlenecks', nothing: 'No observation yet', util: 'GPU utilisation (%)', above: 'is above 100%', reaches: 'Your decode reaches' },
  zh: { results: '最可能的瓶颈', nothing: '还没有填写任何观察', util: 'GPU 利用率（%）', above: '超过 100%', reaches: '你的解码达到了' },
};

const hashQuery = (page) => decodeURIComponent(new URL(page.url()).search.slice(1));

for (const lang of ['en', 'zh']) {
  test(`${lang}: filling observations gives the expected bottleneck and updates the address`, async () => {
    const page = await newPage(browser);
    await page.goto(`${server.url}${lang}/tools/diagnose/`);
    await waitForApp(page);
    await page.waitForSelector('#dg-results h2');
    assert.equal(await page.locator('#dg-results h2').innerText(), WORDS[lang].results);
    assert.ok((await page.locator('#dg-results').innerText()).includes(WORDS[lang].nothing));
    // Unknowns stay unknown: nothing is found, every signal is worth measuring.
    assert.equal(await page.locator('.dg-finding').count(), 0);
    assert.equal(await page.locator('.dg-unknown li').count(), 7);

    // Busy but idle: utilisation 95%, SM activity 10%, bandwidth 20% of peak.
    await page.click('.dg-group:nth-of-type(2) > summary');
    await page.fill('input[name=util]', '95');
    await page.fill('input[name=sm]', '10');
    await page.fill('input[name=bw]', '20');
    await page.waitForSelector('.dg-finding[data-bottleneck=ComputeUnderused][data-strength=strong]');
    assert.equal(await page.locator('.dg-finding').first().getAttribute('data-bottleneck'), 'ComputeUnderused');
    assert.equal(await page.locator('.dg-tensions li').count(), 1);
    assert.match(hashQuery(page), /^util=95&sm=10&bw=20$/);
    // The evidence names the thresholds met; the remedies carry their costs.
    const evidence = await page.locator('.dg-finding').first().locator('.dg-evidence li').allInnerTexts();
    assert.equal(evidence.length, 3);
    ['95% ≥ 80%', '10% < 30%', '20% < 50%'].forEach((v, i) => assert.ok(evidence[i].endsWith(v), evidence[i]));
    assert.ok((await page.locator('.dg-finding .dg-remedies tbody tr').count()) >= 4);

    // Out of memory as concurrency rises: capacity comes first, with the KV cache remedies.
    await page.selectOption('select[name=oom]', 'conc');
    await page.waitForSelector('.dg-finding[data-bottleneck=Capacity]');
    assert.match(hashQuery(page), /^oom=conc&util=95/);
    // A chapter link per finding.
    assert.equal(await page.locator('.dg-finding[data-bottleneck=Capacity] .dg-links a').first().getAttribute('href'), `../../../${lang}/chapters/bottlenecks/#s-2`);

    // A contradiction is named: SM activity above utilisation.
    await page.fill('input[name=util]', '40');
    await page.fill('input[name=sm]', '90');
    await page.waitForSelector('.dg-contradictions li');

    // The workload: the preset's example gives the share of the memory roof as a number.
    await page.selectOption('select[name=preset]', 'decode');
    await page.waitForSelector('.dg-reaches');
    assert.ok((await page.locator('.dg-reaches').innerText()).startsWith(WORDS[lang].reaches));
    assert.equal(Math.round(Number(await page.locator('.dg-reaches').getAttribute('data-fraction')) * 100), 79);
    assert.match(hashQuery(page), /m=llama-3\.1-8b/);
    assert.ok(!/NaN|undefined/.test(await page.locator('.diagnose').innerText()));
    // The estimator link opens the same workload.
    const href = await page.locator('.dg-workload a').getAttribute('href');
    assert.match(href, new RegExp(`^\\.\\./\\.\\./\\.\\./${lang}/estimate/\\?v=1&s=`));

    // The finding links its widget with the workload: the roofline of this decode.
    const roofline = await page.locator('.dg-finding[data-bottleneck=MemoryBandwidth] [data-widget-link=roofline]').getAttribute('href');
    assert.match(roofline, new RegExp(`^\\.\\./\\.\\./\\.\\./${lang}/embed/roofline/\\?v=1&s=`));

    // Clear: back to unknown, and the address with it.
    await page.click('button[data-action=clear]');
    await page.waitForSelector('.dg-none');
    assert.equal(hashQuery(page), '');
    await finish(page);
  });

  test(`${lang}: a mangled address shows a notice naming each field and opens what it can`, async () => {
    const page = await newPage(browser);
    await page.goto(`${server.url}${lang}/tools/diagnose/?util=140&sm=abc&dl=30&b=-2&zzz=1`);
    await waitForApp(page);
    await page.waitForSelector('#dg-notices li');
    const notices = await page.locator('#dg-notices li').allInnerTexts();
    assert.equal(notices.length, 4, notices.join('\n'));
    assert.ok(notices[0].includes(WORDS[lang].util) && notices[0].includes(WORDS[lang].above), notices[0]);
    // What could be used is used: the loader wait points to data input.
    await page.waitForSelector('.dg-finding[data-bottleneck=DataInput]');
    // The repaired state is what the address now holds.
    assert.equal(hashQuery(page), 'dl=30');
    // Typing a bad value in the form names it too; fixing it removes the notice.
    await page.fill('input[name=e2e]', '-5');
    await page.waitForSelector('#dg-notices li[data-field=e2e]');
    await page.fill('input[name=e2e]', '500');
    await page.waitForSelector('#dg-notices li[data-field=e2e]', { state: 'detached' });
    await finish(page);
  });

  test(`${lang}: the chapter 11 widget starts from its example and links to the full tool`, async () => {
    const page = await newPage(browser);
    await page.goto(`${server.url}${lang}/chapters/bottlenecks/`);
    await waitForApp(page);
    const w = 'aside.widget[data-widget="diagnose"]';
    await live(page, w);
    await page.waitForSelector(`${w} .dg-finding[data-bottleneck=MemoryBandwidth][data-strength=strong]`);
    assert.equal(Math.round(Number(await page.locator(`${w} .dg-reaches`).getAttribute('data-fraction')) * 100), 79);
    const before = page.url();
    await page.fill(`${w} input[name=util]`, '30');
    await page.waitForSelector(`${w} .dg-tensions li`);
    assert.equal(page.url(), before, 'a widget does not write the address');
    const full = await page.locator(`${w} .dg-full a`).getAttribute('href');
    assert.match(full, new RegExp(`^\\.\\./\\.\\./\\.\\./${lang}/tools/diagnose/\\?util=30&m=llama-3\\.1-8b`));
    await page.click(`${w} .dg-full a`);
    await page.waitForSelector('article[data-tool=diagnose] .dg-finding[data-bottleneck=MemoryBandwidth]');
    assert.equal(await page.locator('input[name=util]').inputValue(), '30');
    // The roofline widget opens alone with the workload.
    const roofline = await page.locator('[data-widget-link=roofline]').getAttribute('href');
    await page.goto(`${server.url}${roofline}`);
    await page.waitForSelector('aside.widget svg');
    await finish(page);
  });
}

test('screenshots: phone width, dark, both languages', async () => {
  const dir = process.env.SHOTS;
  if (!dir) return;
  for (const lang of ['en', 'zh']) {
    const page = await newPage(browser, { viewport: { width: 390, height: 844 }, colorScheme: 'dark' });
    await page.goto(`${server.url}${lang}/tools/diagnose/?preset=decode&oom=conc&sm=20`);
    await page.waitForSelector('.dg-reaches');
    await page.screenshot({ path: `${dir}/diagnose-${lang}-phone.png`, fullPage: true });
    await finish(page);
  }
  const page = await newPage(browser, { viewport: { width: 1280, height: 900 } });
  await page.goto(`${server.url}en/tools/diagnose/?util=95&sm=10&bw=20&multi=0&comm=5`);
  await page.waitForSelector('.dg-finding');
  await page.screenshot({ path: `${dir}/diagnose-en-wide.png`, fullPage: true });
  await finish(page);
});
