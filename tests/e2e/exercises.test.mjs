// Exercises that check: every chapter in both languages answers wrong (0: the worked solution
// stays closed, issue 30), then right, and opens the solution when asked; progress
// persists and resets; a link opens one exercise; the worksheet hides answers, the key shows them.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { serve, launch, newPage, finish } from './harness.mjs';

let server, browser;
before(async () => { server = await serve(); browser = await launch(); });
after(async () => { await browser?.close(); await server?.close(); });

const SLUGS = [
  'introduction', 'memory-capacity', 'memory-bandwidth', 'cuda', 'tensor-cores', 'reading-spec-sheets',
  'nvlink', 'mig', 'cloud-gpus', 'training-finetuning-inference', 'bottlenecks', 'learning-path',
  'capacity-estimation', 'gpu-clusters', 'sharing-gpus',
];
const WORDS = {
  zh: { correct: '正确！', wrong: '不对，再试一次。', check: '检查' },
  en: { correct: 'Correct!', wrong: 'Not quite — try again.', check: 'Check' },
};

/** Answers the exercise `card` with `value` (a number typed, or the option of that value). */
async function answer(card, value) {
  if (await card.locator('input[data-role=answer]').count()) {
    await card.locator('input[data-role=answer]').fill(value);
  } else {
    await card.locator(`input[type=radio][value="${value}"]`).check();
  }
  await card.locator('button.exercise-check').click();
}

async function wrongValue(card, key) {
  const radios = card.locator('input[type=radio]');
  if (await radios.count()) {
    for (const v of await radios.evaluateAll((rs) => rs.map((r) => r.value))) if (v !== key) return v;
  }
  return String(Number(key) * 2 + 7);
}

/** A wrong answer for `card`: 0 typed (what a reader fishing for the key types), or a wrong option. */
async function zeroOrWrong(card, key) {
  if (await card.locator('input[type=radio]').count()) return wrongValue(card, key);
  return Number(key.replace(/,/g, '')) === 0 ? '1' : '0';
}

test('every chapter, both languages: one exercise wrong (hint shown, solution closed), then right; the solution opens when asked', async () => {
  const page = await newPage(browser);
  let seen = 0;
  for (const lang of ['zh', 'en']) {
    for (const slug of SLUGS) {
      await page.goto(`${server.url}${lang}/chapters/${slug}/`);
      await page.waitForSelector('section.exercise[data-exercise]');
      const cards = page.locator('section.exercise[data-exercise]');
      assert.ok((await cards.count()) >= 4, `${lang}/${slug}: at least 4 exercises`);
      const card = cards.nth(seen % (await cards.count()));
      const key = await card.getAttribute('data-answer');
      assert.ok(key, `${lang}/${slug}: data-answer is set from the engine`);
      assert.equal(await card.locator('button.exercise-check').innerText(), WORDS[lang].check);
      assert.equal(await card.locator('.exercise-hint').isVisible(), false, 'no hint before a try');
      await answer(card, await zeroOrWrong(card, key));
      assert.equal(await card.getAttribute('data-result'), 'wrong', `${lang}/${slug}`);
      assert.equal(await card.locator('.exercise-verdict').innerText(), WORDS[lang].wrong);
      assert.ok(await card.locator('.exercise-hint').isVisible(), `${lang}/${slug}: hint after a wrong try`);
      const solution = card.locator('details.exercise-solution');
      assert.equal(await solution.evaluate((d) => d.open), false, `${lang}/${slug}: a wrong try does not open the solution`);
      assert.equal(await solution.locator('p').first().isVisible(), false, `${lang}/${slug}: the worked solution is not shown`);
      await answer(card, key);
      assert.equal(await card.getAttribute('data-result'), 'correct', `${lang}/${slug}`);
      assert.equal(await card.locator('.exercise-verdict').innerText(), WORDS[lang].correct);
      assert.equal(await solution.evaluate((d) => d.open), false, `${lang}/${slug}: nor does a right one`);
      // The reader asks for it.
      await solution.locator('summary').click();
      assert.equal(await solution.evaluate((d) => d.open), true, `${lang}/${slug}: the solution opens when asked`);
      assert.ok(await solution.locator('p').first().isVisible());
      // Typing 0 into every other exercise of the chapter gives no key away.
      const others = await cards.count();
      for (let i = 0; i < others; i++) {
        const other = cards.nth(i);
        if (i === seen % others) continue;
        await answer(other, await zeroOrWrong(other, await other.getAttribute('data-answer')));
        assert.equal(await other.getAttribute('data-result'), 'wrong', `${lang}/${slug} #${i}`);
      }
      assert.equal(await page.locator('details.exercise-solution[open]').count(), 1, `${lang}/${slug}: only the solution asked for is open`);
      const text = await page.locator('article.chapter').innerText();
      assert.ok(!/NaN|undefined|\{key\}|\{r:/.test(text), `${lang}/${slug}: no unfilled numbers`);
      seen += 1;
    }
  }
  assert.equal(seen, 30);
  await finish(page);
});

test('progress persists across a reload, and reset clears it', async () => {
  const page = await newPage(browser);
  const url = `${server.url}en/chapters/memory-capacity/`;
  await page.goto(url);
  // The chapter's exercises, as many as the page carries (chapter 2 has six since its
  // out-of-memory section).
  const n = await page.locator('section[data-exercise]').count();
  assert.ok(n >= 4, `${n} exercises`);
  const card = page.locator('section[data-exercise="mem-kv-32x8k"]');
  await answer(card, await card.getAttribute('data-answer'));
  await page.waitForSelector('section[data-exercise="mem-kv-32x8k"][data-solved="true"]');
  assert.equal(await page.locator('.exercise-progress-count').innerText(), `1 / ${n} solved`);
  await page.reload();
  await page.waitForSelector('section[data-exercise="mem-kv-32x8k"][data-solved="true"]');
  assert.equal(await page.locator('.exercise-progress-count').innerText(), `1 / ${n} solved`);
  await page.locator('button.exercise-reset').click();
  assert.equal(await page.locator('.exercise-progress-count').innerText(), `0 / ${n} solved`);
  await page.reload();
  await page.waitForSelector('.exercise-progress-count');
  assert.equal(await page.locator('.exercise-progress-count').innerText(), `0 / ${n} solved`);
  await finish(page);
});

test('a link opens and focuses one exercise; the solution opens the estimator on its scenario', async () => {
  const page = await newPage(browser);
  // The old form of the link lands on the card's fragment.
  await page.goto(`${server.url}#/zh/chapters/capacity-estimation?exercise=cap-70b-int4-8k-requests`);
  assert.match(page.url(), /\/zh\/chapters\/capacity-estimation\/#exercise-cap-70b-int4-8k-requests$/);
  const card = page.locator('section[data-exercise="cap-70b-int4-8k-requests"]');
  await page.waitForFunction(() => document.activeElement?.dataset?.exercise === 'cap-70b-int4-8k-requests');
  assert.ok(await card.isVisible());
  assert.equal(await card.locator('a.exercise-link').getAttribute('href'), '#exercise-cap-70b-int4-8k-requests');
  await card.locator('details.exercise-solution summary').click();
  await card.locator('a.exercise-open').click();
  await page.waitForSelector('html[data-live] article[data-page=estimate] #context-number');
  assert.match(page.url(), /\/zh\/estimate\/\?v=1&s=/);
  assert.equal(await page.inputValue('#context-number'), '8192', 'the estimator opens on the exercise scenario');
  assert.match(await page.inputValue('#model-search'), /70B/);
  await finish(page);
});

test('the worksheet shows no answers; the answer key shows every one', async () => {
  const page = await newPage(browser);
  for (const lang of ['zh', 'en']) {
    await page.goto('about:blank');
    await page.goto(`${server.url}${lang}/chapters/nvlink/worksheet/`);
    await page.waitForSelector('article[data-print=worksheet] li.worksheet-item');
    assert.equal(await page.locator('li.worksheet-item').count(), 4);
    assert.equal(await page.locator('.worksheet-key, .worksheet-solution, [data-answer]').count(), 0, 'no answers on the worksheet');
    await page.goto('about:blank');
    await page.goto(`${server.url}${lang}/chapters/nvlink/answers/`);
    await page.waitForSelector('article[data-print=answers] li.worksheet-item');
    assert.equal(await page.locator('.worksheet-key').count(), 4);
    assert.equal(await page.locator('.worksheet-solution').count(), 4);
    assert.ok(!/NaN|undefined|\{key\}/.test(await page.locator('article.worksheet').innerText()));
  }
  await page.click('#lang-switch');
  await page.waitForSelector('html[lang="zh-CN"] article[data-print=answers]');
  assert.match(page.url(), /\/zh\/chapters\/nvlink\/answers\/$/, 'the language switch keeps the answer key');
  // The old form of the links lands on the sheets.
  await page.goto(`${server.url}#/en/chapters/nvlink?print=worksheet`);
  await page.waitForSelector('html[lang=en] article[data-print=worksheet]');
  await finish(page);
});

test('Enter checks a typed number; a roofline exercise opens the estimator on its GPU', async () => {
  const page = await newPage(browser);
  await page.goto(`${server.url}en/chapters/memory-bandwidth/`);
  const card = page.locator('section[data-exercise="bw-a100-ridge"]');
  await card.locator('input[data-role=answer]').fill(await card.getAttribute('data-answer'));
  await card.locator('input[data-role=answer]').press('Enter');
  assert.equal(await card.getAttribute('data-result'), 'correct');
  assert.equal(await card.locator('details.exercise-solution').evaluate((d) => d.open), false, 'a try opens no solution');
  await card.locator('details.exercise-solution summary').click();
  await card.locator('a.exercise-open').click();
  await page.waitForSelector('html[data-live] article[data-page=estimate] #gpu');
  assert.match(page.url(), /\/en\/estimate\/\?v=1&s=/);
  assert.equal(await page.inputValue('#gpu'), 'a100-sxm-80gb');
  await finish(page);
});

test('an answer is read as people type it: its unit, a decimal comma, full-width digits, Chinese numerals; a unit of the same kind is converted and said, another kind is named (zh and en, phone, dark)', async () => {
  for (const lang of ['en', 'zh']) {
    const page = await newPage(browser, { viewport: { width: 390, height: 844 }, colorScheme: 'dark' });
    await page.goto(`${server.url}${lang}/chapters/memory-capacity/`);
    const card = page.locator('section[data-exercise="mem-kv-32x8k"]');
    await card.scrollIntoViewIfNeeded();
    const unit = await card.getAttribute('data-unit');
    assert.equal(unit, 'GB');
    assert.equal(unit, await card.locator('.exercise-unit').innerText());
    const key = Number((await card.getAttribute('data-answer')).replace(/,/g, ''));
    const withComma = String(key).replace('.', ',');
    const fullWidth = String(key).replace(/[0-9.]/g, (c) => String.fromCharCode(c.charCodeAt(0) + 0xfee0));
    for (const typed of [`${key} ${unit}`, `${key}${unit}`, withComma, `${key}G`, `约 ${key} GB`, `${fullWidth}ＧＢ`, `${key}。`]) {
      await answer(card, typed);
      assert.equal(await card.getAttribute('data-result'), 'correct', `${lang}: "${typed}"`);
    }
    // The same size in GiB is converted into GB, and the verdict says how it was read.
    await answer(card, `${(key * 1e9 / 2 ** 30).toFixed(3)} GiB`);
    assert.equal(await card.getAttribute('data-result'), 'correct');
    assert.match(await card.locator('.exercise-verdict').innerText(), lang === 'en' ? /read as .* GB, converted from GiB/ : /按 .* GB 计，由 GiB 换算/);
    // A unit of another kind is named, not marked wrong, and is not a try.
    await answer(card, `${key} ms`);
    assert.equal(await card.getAttribute('data-result'), 'unreadable');
    const said = await card.locator('.exercise-verdict').innerText();
    assert.match(said, lang === 'en' ? /^“ms” is not a unit of this answer: it asks for GB/ : /^“ms”不是这道题的单位：答案以 GB 计/);
    assert.equal(await card.locator('.exercise-hint').isVisible(), false, 'an unreadable answer is not a wrong try');
    // Not a number at all: the field asks for the number in the question's unit.
    await answer(card, 'GB');
    assert.match(await card.locator('.exercise-verdict').innerText(), lang === 'en' ? /^Type the number only, in GB/ : /^只填数字，单位为 GB/);
    await finish(page);
  }
});

test('zh: Chinese numerals are read, and the hint\'s colon is full-width', async () => {
  const page = await newPage(browser);
  await page.goto(`${server.url}zh/chapters/memory-capacity/`);
  const card = page.locator('section[data-exercise="mem-kv-32x8k"]');
  await card.scrollIntoViewIfNeeded();
  await answer(card, '零');
  assert.equal(await card.getAttribute('data-result'), 'wrong', 'a Chinese numeral is a number');
  assert.match(await card.locator('.exercise-hint').innerText(), /^提示：/);
  // The key as a Chinese numeral (三十四点四 for 34.4), as a student might write it by hand.
  const digits = '零一二三四五六七八九';
  const [whole, fraction = ''] = (await card.getAttribute('data-answer')).replace(/,/g, '').split('.');
  const n = Number(whole);
  assert.ok(n < 1000, `a key under 1000 (${whole})`);
  const hundreds = Math.floor(n / 100), tens = Math.floor(n / 10) % 10, ones = n % 10;
  let chinese = hundreds ? `${digits[hundreds]}百` : '';
  if (tens) chinese += `${hundreds || tens > 1 ? digits[tens] : ''}十`;
  else if (hundreds && ones) chinese += '零';
  if (ones || !chinese) chinese += digits[ones];
  if (fraction) chinese += `点${[...fraction].map((d) => digits[Number(d)]).join('')}`;
  await answer(card, chinese);
  assert.equal(await card.getAttribute('data-result'), 'correct', `${chinese} is ${whole}.${fraction}`);
  await finish(page);
});
