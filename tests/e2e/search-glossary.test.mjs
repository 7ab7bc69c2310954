// Search and glossary (issue 25), in both languages, on a phone in the dark scheme and on a
// desktop: the search finds every tool by its name in either language, tolerates a typo, and
// ranks a glossary term above a chapter's Exercises and References headings; a glossary term
// in a chapter shows its definition on hover or keyboard focus without leaving the page, with
// JavaScript on or off, inside the screen, readable in both schemes; Escape hides it.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { serve, launch, newPage, finish, waitForApp } from './harness.mjs';
import { lowContrast } from './audit.mjs';

let server, browser;
before(async () => { server = await serve(); browser = await launch(); });
after(async () => { await browser?.close(); await server?.close(); });

// Each tool's name in both languages, and where it is.
const TOOLS = [
  ['MIG planner', 'MIG 规划器', 'tools/mig/'],
  ['Capacity planner', '容量规划器', 'plan/'],
  ['cloud selector', '云实例选择', 'tools/cloud/'],
  ['Bottleneck diagnosis', '瓶颈诊断', 'tools/diagnose/'],
  ['Shared-cluster cost', '共享集群成本', 'tools/cluster/'],
  ['WebGPU lab', 'WebGPU 实验室', 'lab/bandwidth/'],
  ['Estimator', '估算器', 'estimate/'],
];

/** Types `query` into the open search field and returns the results as [kind, title, data-href]. */
async function search(page, query) {
  await page.fill('#site-search', query);
  // Every query here has hits: wait for them (on a loaded machine the index can still be
  // loading when the list first shows), then until the list holds still (not the last query's).
  await page.waitForFunction((q) => document.querySelector('#site-search').value === q
    && document.querySelector('#search-results li[role=option]'), query);
  const read = () => page.locator('#search-results li[role=option] a').evaluateAll((as) => as.map((a) =>
    [a.querySelector('.hit-kind').textContent, a.querySelector('.hit-title').textContent, a.dataset.href]));
  let hits = await read();
  for (let i = 0; i < 20; i++) {
    await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => setTimeout(r, 30))));
    const again = await read();
    if (JSON.stringify(again) === JSON.stringify(hits)) break;
    hits = again;
  }
  return hits;
}

async function openSearch(page, phone) {
  if (phone) await page.click('.search-toggle');
  else await page.keyboard.press('/');
  assert.equal(await page.evaluate(() => document.activeElement?.id), 'site-search');
}

for (const [lang, width, scheme] of [['en', 390, 'dark'], ['zh', 390, 'dark'], ['en', 1280, 'light'], ['zh', 1280, 'light']]) {
  test(`${lang} at ${width} px (${scheme}): search finds every tool by either name, a typo, and terms above exercise headings`, async () => {
    const page = await newPage(browser, { viewport: { width, height: 800 }, colorScheme: scheme });
    await page.goto(`${server.url}${lang}/chapters/introduction/`);
    await waitForApp(page);
    await openSearch(page, width < 600);
    for (const [en, zh, path] of TOOLS) {
      for (const name of [en, zh]) {
        const hits = await search(page, name);
        assert.equal(hits[0]?.[2], `#/${lang}/${path}`, `${lang} page, "${name}": ${JSON.stringify(hits.slice(0, 3))}`);
      }
    }
    // A typo: the chapter and the term still come up, the chapter first.
    const typo = await search(page, 'nvlnk');
    assert.equal(typo[0]?.[2], `#/${lang}/chapters/nvlink/`, JSON.stringify(typo.slice(0, 3)));
    assert.ok(typo.some(([, , href]) => href === `#/${lang}/glossary/#term-nvlink`), JSON.stringify(typo));
    // A term above the chapter's Exercises, References and Takeaways headings.
    const generic = lang === 'en' ? ['Exercises', 'References', 'Takeaways'] : ['练习', '参考资料', '要点'];
    const hits = await search(page, 'Tensor Core');
    const term = hits.findIndex(([, , href]) => href === `#/${lang}/glossary/#term-tensor-core`);
    assert.ok(term >= 0 && term <= 2, `the term is among the first three: ${JSON.stringify(hits)}`);
    const heading = hits.findIndex(([, title]) => generic.includes(title));
    assert.ok(heading === -1 || heading > term, `a heading above the term: ${JSON.stringify(hits)}`);
    // The list stays on the screen and is readable.
    const list = await page.locator('#search-results').boundingBox();
    assert.ok(list.x >= 0 && list.x + list.width <= width, `the results span ${list.x}..${list.x + list.width}`);
    assert.deepEqual(await page.evaluate(() => document.documentElement.scrollWidth), width);
    assert.deepEqual(await page.locator('#search-results').evaluate(lowContrast), []);
    // A result opens its tool.
    await search(page, TOOLS[0][lang === 'en' ? 0 : 1]);
    await page.keyboard.press('Enter');
    await page.waitForSelector(`html[data-live][data-path="${lang}/tools/mig/"]`);
    await finish(page);
  });
}

for (const [lang, width, scheme, js] of [['en', 1280, 'light', true], ['zh', 390, 'dark', true], ['en', 390, 'dark', false], ['zh', 1280, 'light', false]]) {
  test(`${lang} at ${width} px (${scheme}, JavaScript ${js ? 'on' : 'off'}): a term shows its definition on focus and hover`, async () => {
    const page = await newPage(browser, { viewport: { width, height: 800 }, colorScheme: scheme, javaScriptEnabled: js });
    // The definitions, as the glossary page gives them.
    await page.goto(`${server.url}${lang}/glossary/`);
    const defs = Object.fromEntries(await page.locator('[data-term]').evaluateAll((cards) =>
      cards.map((c) => [c.dataset.term, c.querySelector('.term-def').textContent.trim()])));
    await page.goto(`${server.url}${lang}/chapters/memory-bandwidth/`);
    if (js) await waitForApp(page);
    const terms = page.locator('article .prose .term');
    assert.ok(await terms.count() > 5, 'the chapter links its terms');
    assert.equal(await page.locator('.term-tip:visible').count(), 0, 'no definition shows before it is asked for');
    const check = async (term, how) => {
      const link = term.locator('a');
      const id = (await link.getAttribute('href')).split('#term-')[1];
      const tip = term.locator('.term-tip');
      assert.ok(await tip.isVisible(), `${how}: the definition of ${id} shows`);
      assert.equal(await link.getAttribute('aria-describedby'), await tip.getAttribute('id'));
      assert.equal(await tip.getAttribute('role'), 'tooltip');
      assert.ok((await tip.textContent()).includes(defs[id]), `${how}: ${id}'s definition, as the glossary has it`);
      const box = await tip.boundingBox();
      const at = await link.boundingBox();
      assert.ok(box.x >= 0 && box.x + box.width <= width, `${how}: ${id}'s definition spans ${box.x}..${box.x + box.width}`);
      assert.ok(box.y >= at.y + at.height - 2, `${how}: under the term`);
      assert.deepEqual(await tip.evaluate(lowContrast), [], `${how}: readable`);
      assert.equal(await page.evaluate(() => document.documentElement.scrollWidth), width, `${how}: no sideways scroll`);
      assert.ok(page.url().includes('/chapters/memory-bandwidth/'), 'still on the chapter');
    };
    // Keyboard: Tab onto the first term link (from the heading before it).
    const first = terms.first();
    await first.locator('a').focus();
    await check(first, 'focus');
    if (js) {
      await page.keyboard.press('Escape');
      assert.equal(await first.locator('.term-tip').isVisible(), false, 'Escape hides the definition');
      await page.keyboard.press('Tab');
      await page.keyboard.press('Shift+Tab');
      assert.ok(await first.locator('.term-tip').isVisible(), 'focus that comes back shows it again');
    }
    await page.locator('article h1').click();
    // Pointer: hover over a term further down (the third), and onto its definition.
    const third = terms.nth(2);
    await third.locator('a').scrollIntoViewIfNeeded();
    await third.locator('a').hover();
    await check(third, 'hover');
    await third.locator('.term-tip').hover();
    assert.ok(await third.locator('.term-tip').isVisible(), 'the pointer can move onto the definition');
    await page.mouse.move(1, 1);
    assert.equal(await third.locator('.term-tip').isVisible(), false, 'it goes when the pointer leaves');
    await finish(page);
  });
}
