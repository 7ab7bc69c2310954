// The MIG planner (issue 11) in a real browser: the page in both languages, hand placement
// (the drawing and the address follow; a placement the guide forbids is refused with its
// reason), a damaged address repaired with notices naming the fields, packing presets onto a
// known number of GPUs, and the chapter 8 widget with its link to the full tool.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { serve, launch, newPage, finish, waitForApp, live } from './harness.mjs';

let server, browser;
before(async () => { server = await serve(); browser = await launch(); });
after(async () => { await browser?.close(); await server?.close(); });

const hash = (page) => page.evaluate(() => decodeURIComponent(location.search));

test('the planner renders in zh and en with its three parts', async () => {
  const page = await newPage(browser);
  for (const lang of ['zh', 'en']) {
    await page.goto(`${server.url}${lang}/tools/mig/`);
    await waitForApp(page);
    await page.waitForSelector('article[data-tool=mig] #mig-hand svg');
    await page.waitForSelector('#mig-results .mig-summary');
    const text = await page.locator('article[data-tool=mig]').innerText();
    assert.ok(!/NaN|undefined|Infinity/.test(text), lang);
    assert.equal(await page.locator('.mig-compare tbody tr').count(), 6, `${lang}: the MIG/MPS/time-slicing rows`);
    assert.ok((await page.locator('#mig-gpu option').count()) >= 10, `${lang}: every MIG GPU`);
    // The default state is written into the address.
    assert.match(await hash(page), /^\?gpu=h100-sxm&place=/);
  }
  await finish(page);
});

test('placing a profile updates the drawing and the address; a forbidden one is refused', async () => {
  const page = await newPage(browser);
  await page.goto(`${server.url}en/tools/mig/?gpu=h100-sxm&place=&w=llama-3.1-8b:bf16:bf16:4096:4`);
  await page.waitForSelector('#mig-hand .mig-figure[data-instances="0"]');
  const profiles = await page.locator('#mig-profile option').allInnerTexts();
  await page.selectOption('#mig-profile', String(profiles.indexOf('3g.40gb')));
  assert.equal(await page.locator('#mig-start').inputValue(), '0', 'the first free start is chosen');
  await page.click('#mig-place');
  await page.waitForSelector('#mig-hand .mig-figure[data-instances="1"]');
  assert.match(await page.locator('#mig-hand svg').innerHTML(), />3g\.40gb</);
  assert.match(await page.locator('#mig-hand table').innerText(), /40 GB[\s\S]*60[\s\S]*1\.68 TB\/s/);
  assert.match(await hash(page), /place=3g\.40gb@0&/);
  // A 4g.40gb may only start at 0, which the 3g holds: refused, with the reason.
  await page.selectOption('#mig-profile', String(profiles.indexOf('4g.40gb')));
  assert.match(await page.locator('.mig-free').innerText(), /none/);
  await page.click('#mig-place');
  await page.waitForSelector('#mig-refused');
  assert.match(await page.locator('#mig-refused').innerText(), /4g\.40gb at 0 would share memory slice 0 with the 3g\.40gb at 0/);
  assert.equal(await page.locator('#mig-hand .mig-figure').getAttribute('data-instances'), '1');
  // A second 3g goes to its free start 4 by its button; then remove the first.
  await page.selectOption('#mig-profile', String(profiles.indexOf('3g.40gb')));
  await page.click('.mig-free button[data-i="4"]');
  await page.waitForSelector('#mig-hand .mig-figure[data-instances="2"]');
  assert.match(await hash(page), /place=3g\.40gb@0,3g\.40gb@4&/);
  await page.click('#mig-hand button[data-act=remove][data-i="0"]');
  await page.waitForSelector('#mig-hand .mig-figure[data-instances="1"]');
  assert.match(await hash(page), /place=3g\.40gb@4&/);
  await finish(page);
});

test('a damaged address is repaired field by field, with the reasons in the page language', async () => {
  const page = await newPage(browser);
  const q = 'gpu=h100-sxm&place=3g.40gb@0,2g.20gb@2,4g.40gb@4&w=llama-3.1-8b:bf16:bf16:4096:-3,nope:int4:fp8:2048:2';
  await page.goto(`${server.url}zh/tools/mig/?${q}`);
  await page.waitForSelector('#mig-notices .banner');
  const zh = await page.locator('#mig-notices').innerText();
  assert.match(zh, /第 2 个放置：2g\.20gb 放在 2 会与位于 0 的 3g\.40gb 共用显存切片 2/);
  assert.match(zh, /第 3 个放置：4g\.40gb 不能从显存切片 4 开始：指南只允许 0/);
  assert.match(zh, /负载 1 的并发请求：应为 1 到 4096 之间的整数，实际为“-3”/);
  assert.match(zh, /负载 2 的模型：“nope”不是目录里的模型/);
  await page.goto(`${server.url}en/tools/mig/?gpu=l4&w=`);
  await page.waitForSelector('#mig-notices .banner');
  const en = await page.locator('#mig-notices').innerText();
  assert.match(en, /GPU: “l4” is not a GPU with MIG profiles in the catalog; h100-sxm used/);
  assert.match(en, /Workload list: the list is empty/);
  assert.match(await page.locator('#mig-results').innerText(), /The list is empty: add a workload/);
  // Adding a workload brings the plan back.
  await page.click('button[data-act=w-add]');
  await page.waitForSelector('#mig-results .mig-summary[data-gpus="1"]');
  // A negative concurrency typed in a row is refused and named; the row keeps its last value.
  await page.fill('input[data-act=w-concurrency][data-i="0"]', '-2');
  await page.locator('input[data-act=w-concurrency][data-i="0"]').dispatchEvent('change');
  await page.waitForSelector('#mig-notices .banner');
  assert.match(await page.locator('#mig-notices').innerText(), /Workload 1, Concurrent requests: must be a whole number from 1 to 4096, got “-2”/);
  assert.equal(await page.locator('input[data-act=w-concurrency][data-i="0"]').inputValue(), '4');
  await finish(page);
});

test('packing the presets gives the expected number of GPUs', async () => {
  const page = await newPage(browser);
  await page.goto(`${server.url}en/tools/mig/?preset=mixed`);
  await page.waitForSelector('#mig-results .mig-summary[data-gpus="5"]');
  assert.equal(await page.locator('#mig-results figure.mig-figure').count(), 2, 'two GPUs with MIG');
  assert.match(await page.locator('#mig-results tr[data-w="5"]').innerText(), /needs 3 whole GPUs/);
  assert.match(await page.locator('#mig-results tr[data-w="1"]').innerText(), /3g\.40gb[\s\S]*tokens\/s/);
  await page.goto(`${server.url}en/tools/mig/?preset=7b-int4`);
  await page.waitForSelector('#mig-results .mig-summary[data-gpus="1"]');
  assert.equal(await page.locator('#mig-results tr[data-w] code', { hasText: '1g.10gb' }).count(), 7);
  // Switching to the H200 keeps the workloads and re-packs them.
  await page.selectOption('#mig-gpu', 'h200-sxm');
  await page.waitForSelector('#mig-results .mig-summary[data-gpus="1"]');
  assert.match(await hash(page), /gpu=h200-sxm&place=1g\.18gb@0,1g\.18gb@1,2g\.35gb@2,3g\.71gb@4&w=llama-2-7b:int4:fp16:2048:3\*7$/);
  await finish(page);
});

test('the chapter 8 widget opens on the chapter example and links to the full tool', async () => {
  const page = await newPage(browser);
  for (const lang of ['zh', 'en']) {
    await page.goto(`${server.url}${lang}/chapters/mig/`);
    const widget = page.locator('aside.widget[data-widget="mig"]');
    await live(page, 'aside.widget[data-widget="mig"]');
    await page.waitForSelector('aside.widget[data-widget="mig"] #mig-results .mig-summary[data-gpus="1"]');
    assert.equal(await page.locator('aside.widget #mig-hand .mig-figure').getAttribute('data-instances'), '4');
    const before = await hash(page);
    assert.match(await page.locator('#mig-open').getAttribute('href'), /place=1g\.10gb@0,1g\.10gb@1,2g\.20gb@2,3g\.40gb@4&/);
    await page.click('aside.widget #mig-hand button[data-act=remove][data-i="0"]');
    await page.waitForSelector('aside.widget #mig-hand .mig-figure[data-instances="3"]');
    assert.equal(await hash(page), before, `${lang}: a widget leaves the address alone`);
    const href = await page.locator('#mig-open').getAttribute('href');
    assert.ok(href.startsWith(`../../../${lang}/tools/mig/?gpu=a100-sxm-80gb&place=1g.10gb@1,2g.20gb@2,3g.40gb@4&`), href);
  }
  await page.click('#mig-open');
  await page.waitForSelector('article[data-tool=mig] #mig-results .mig-summary[data-gpus="1"]');
  assert.equal(await page.locator('#mig-hand .mig-figure').getAttribute('data-instances'), '3', 'the page opens in the widget\'s state');
  await finish(page);
});
