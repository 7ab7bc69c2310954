// The classroom as a teacher and students use it (issue 34's "done when"), in both languages:
// make an assignment for 40 students from the home page, download the Moodle and QTI exports,
// print two students' worksheets and the class key, let three students open the link, answer
// (right, wrong, a wrong unit) and hand in, then collect the three codes (and a damaged one) in
// the gradebook and download it as CSV. A damaged link is named in the page's language.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { serve, launch, newPage, finish, waitForApp } from './harness.mjs';

let server, browser;
before(async () => { server = await serve(); browser = await launch(); });
after(async () => { await browser?.close(); await server?.close(); });

// The first name is longer than a hand-in code keeps (64 bytes): the page, the sheets and the
// gradebook must all use the same numbers for it.
const ROSTER = {
  zh: Array.from({ length: 40 }, (_, i) => `学生${String(i + 1).padStart(2, '0')}`),
  en: Array.from({ length: 40 }, (_, i) => `Student ${String(i + 1).padStart(2, '0')}`),
};
ROSTER.zh[0] = `学生01·${'欧阳'.repeat(12)}`;
ROSTER.en[0] = `Student 01 ${'Hohenzollern-'.repeat(6)}`;
const WORDS = {
  zh: { home: '布置作业', damaged: '作业链接已损坏' },
  en: { home: 'Make an assignment', damaged: 'the assignment link is damaged' },
};

/** The text of a download started by clicking `selector`. */
async function downloaded(page, selector) {
  const [download] = await Promise.all([page.waitForEvent('download'), page.click(selector)]);
  return { name: download.suggestedFilename(), bytes: await readFile(await download.path()) };
}

/** The number a key cell starts with, as a student would type it. */
const numberOf = (text) => text.trim().match(/^[\d,.]+/)[0];

for (const lang of ['zh', 'en']) {
  test(`${lang}: a teacher makes an assignment for 40 students, prints, exports; three students hand in; the gradebook reads them`, async () => {
    const teacher = await newPage(browser, { acceptDownloads: true, viewport: { width: 1100, height: 900 } });
    await teacher.goto(`${server.url}${lang}/`);
    await waitForApp(teacher);
    await teacher.click(`#classroom ~ p a[href*="classroom/"]`);
    await teacher.waitForSelector('html[data-live] article[data-page="classroom"][data-class="classroom"]');
    assert.equal((await teacher.locator('article h1').innerText()).trim(), WORDS[lang].home);
    assert.equal(await teacher.locator('.cr-problems li').count(), 2, 'no class code, no exercise: both named');

    await teacher.fill('[data-f=title]', lang === 'zh' ? '第 2 周 显存' : 'Week 2: memory');
    await teacher.fill('[data-f=class]', `${lang.toUpperCase()}-GPU-26`);
    await teacher.fill('[data-f=due]', lang === 'zh' ? '周五 18:00' : 'Friday 18:00');
    await teacher.fill('[data-f=roster]', ROSTER[lang].join('\n'));
    await teacher.$$eval('details.cr-chapter', (ds) => ds.forEach((d) => { d.open = true; }));
    const own = teacher.locator('.cr-chapter li:has(.tag.own) input[data-f=ex]');
    const plain = teacher.locator('.cr-chapter li:not(:has(.tag.own)) input[data-f=ex]');
    for (let i = 0; i < 3; i++) await own.nth(i * 5).check();
    await plain.first().check();
    await teacher.check('[data-f=answer-key]');
    await teacher.waitForSelector('.cr-summary');
    assert.equal(await teacher.locator('.cr-problems').count(), 0);
    assert.equal(await teacher.locator('.cr-sheets li').count(), 40, 'one worksheet link per student');
    const studentUrl = await teacher.inputValue('.cr-link');
    assert.match(studentUrl, /^http:\/\/127\.0\.0\.1:\d+\/.*classroom\/do\/\?a=[A-Za-z0-9_-]+$/);
    assert.ok(!studentUrl.includes('&r='), 'the roster stays out of the students\' link');

    // The form lives in the address: a reload keeps it.
    await teacher.reload();
    await waitForApp(teacher);
    assert.equal(await teacher.inputValue('[data-f=class]'), `${lang.toUpperCase()}-GPU-26`);
    assert.equal(await teacher.locator('input[data-f=ex]:checked').count(), 4);

    // Exports: a Moodle bank with one category per exercise with own numbers, 40 variants each,
    // and a QTI package.
    const moodle = await downloaded(teacher, '[data-a=moodle]');
    const xml = moodle.bytes.toString('utf8');
    assert.match(moodle.name, /\.xml$/);
    assert.equal((xml.match(/<question type="category">/g) || []).length, 3);
    assert.equal((xml.match(/<question type="numerical">/g) || []).length, 3 * 40);
    const qti = await downloaded(teacher, '[data-a=qti]');
    assert.equal(qti.bytes.subarray(0, 2).toString(), 'PK');
    assert.ok(qti.bytes.includes(Buffer.from('imsmanifest.xml')));

    // Two students' worksheets, then the class key.
    const sheetLinks = await teacher.$$eval('.cr-sheets li a', (as) => as.map((a) => a.href));
    const sheets = await newPage(browser);
    for (const i of [0, 1]) {
      await sheets.goto(sheetLinks[i]);
      await sheets.waitForSelector('html[data-live] .cr-sheet');
      assert.equal(await sheets.locator('.cr-sheet').count(), 1);
      assert.equal(await sheets.locator('.cr-sheet').getAttribute('data-student'), ROSTER[lang][i]);
      assert.equal(await sheets.locator('.cr-sheet .worksheet-item').count(), 4);
    }
    const keyHref = await teacher.locator('a[data-go=key]').getAttribute('href');
    await sheets.goto(new URL(keyHref, teacher.url()).href);
    await sheets.waitForSelector('html[data-live] .cr-key');
    assert.equal(await sheets.locator('.cr-key tbody tr').count(), 40);
    const keyOf = async (student) =>
      sheets.$$eval(`.cr-key tr[data-student="${student}"] td strong`, (ss) => ss.map((s) => s.textContent));
    const keys = { a: await keyOf(ROSTER[lang][0]), b: await keyOf(ROSTER[lang][1]), c: await keyOf(ROSTER[lang][2]) };
    const owned = await sheets.$$eval('.cr-key-list li', (lis) => lis.map((li) => li.dataset.own === 'true'));
    assert.deepEqual([...owned].sort(), [false, true, true, true]);
    const plainAt = owned.indexOf(false);
    assert.notDeepEqual(keys.a.filter((_, i) => owned[i]), keys.b.filter((_, i) => owned[i]), 'two students, different numbers');
    assert.equal(keys.a[plainAt], keys.b[plainAt], 'the chapter\'s exercise: one key for the class');
    await finish(sheets);

    // Three students: all right; one right and one wrong; a unit of another kind, then right.
    const codes = [];
    for (const [who, plan] of [[0, ['key', 'key', 'key', 'key']], [1, ['key', '1', '', '']], [2, ['5 ms', '', '', '']]]) {
      const name = ROSTER[lang][who];
      const key = [keys.a, keys.b, keys.c][who];
      const student = await newPage(browser, { viewport: { width: 390, height: 844 } });
      await student.goto(studentUrl);
      await student.waitForSelector('html[data-live] .cr-name');
      assert.equal(await student.locator('[data-key]').count(), 0, 'no key written into the page');
      await student.fill('[data-f=student]', name);
      await student.click('.cr-name button[type=submit]');
      await student.waitForSelector('.cr-item');
      assert.equal(await student.locator('.cr-item').count(), 4);
      for (const [i, what] of plan.entries()) {
        if (what === '') continue;
        const card = student.locator(`.cr-item[data-i="${i}"]`);
        if (await card.locator('input[type=radio]').count()) {
          // A choice: the option whose label is the key (or the first other one, for a wrong try).
          const labels = card.locator('.exercise-option');
          const texts = await labels.allInnerTexts();
          const right = texts.findIndex((t) => t.trim() === key[i].trim());
          assert.ok(right >= 0, `the key "${key[i]}" is one of the options`);
          await labels.nth(what === 'key' ? right : (right + 1) % texts.length).click();
        } else {
          await card.locator('[data-role=answer]').fill(what === 'key' ? numberOf(key[i]) : what);
        }
        await card.locator('[data-a=check]').click();
        const choice = (await card.locator('input[type=radio]').count()) > 0;
        const result = what === 'key' ? 'correct' : what === '1' || choice ? 'wrong' : 'unreadable';
        await student.waitForSelector(`.cr-item[data-i="${i}"][data-result="${result}"]`);
        if (result === 'unreadable') {
          assert.match(await student.locator(`.cr-item[data-i="${i}"] .exercise-verdict`).innerText(), /ms/, 'the wrong unit is named');
        }
        if (result === 'wrong') {
          assert.equal(await student.locator(`.cr-item[data-i="${i}"] .exercise-hint`).count(), 1, 'a hint after a wrong answer');
          assert.equal(await student.locator(`.cr-item[data-i="${i}"] .exercise-solution`).count(), 0, 'no solution after one wrong answer');
        }
        if (result === 'correct') {
          assert.equal(await student.locator(`.cr-item[data-i="${i}"] .exercise-solution`).count(), 1, 'the worked solution after a right answer');
        }
      }
      // An answer changed after its check loses the verdict (until it is checked again).
      if (plan[0] === 'key' && !(await student.locator('.cr-item[data-i="0"] input[type=radio]').count())) {
        const field = student.locator('.cr-item[data-i="0"] [data-role=answer]');
        await field.fill('1');
        assert.equal(await student.locator('.cr-item[data-i="0"]').getAttribute('data-result'), null);
        await field.fill(numberOf(key[0]));
        await student.locator('.cr-item[data-i="0"] [data-a=check]').click();
        await student.waitForSelector('.cr-item[data-i="0"][data-result="correct"]');
      }
      // The chapter's answer key is linked only for the exercise with the chapter's numbers.
      assert.equal(await student.locator('.cr-item a[href*="/answers/"]').count(), 1);
      // A reload offers the same name (the student confirms it) and keeps the answers.
      await student.reload();
      await student.waitForSelector('html[data-live] .cr-name');
      assert.ok(name.startsWith(await student.inputValue('[data-f=student]')), 'the name is offered again');
      await student.click('.cr-name button[type=submit]');
      await student.waitForSelector('.cr-item');
      const firstText = student.locator('.cr-item input[type=text][data-role=answer]').first();
      const firstAt = Number(await firstText.getAttribute('data-i'));
      if (plan[firstAt] !== '') {
        assert.equal(await firstText.inputValue(), plan[firstAt] === 'key' ? numberOf(key[firstAt]) : plan[firstAt]);
      }
      await student.click('[data-a=hand-in]');
      const code = await student.inputValue('.cr-code');
      assert.match(code, /^GP1-[0-9A-Z-]+$/);
      codes.push(code);
      await finish(student);
    }

    // The gradebook: three codes and a damaged one (cut off), pasted as an email would wrap them.
    const gradeHref = await teacher.locator('a[data-go=grade]').getAttribute('href');
    await teacher.goto(new URL(gradeHref, teacher.url()).href);
    await teacher.waitForSelector('html[data-live] textarea[data-f=codes]');
    const wrapped = codes[0].match(/.{1,40}/g).join('\n');
    await teacher.fill('textarea[data-f=codes]', [wrapped, codes[1], codes[2], codes[2].slice(0, 30)].join('\n'));
    await teacher.waitForSelector('.cr-book tbody tr >> nth=2');
    assert.equal(await teacher.locator('.cr-book tbody tr').count(), 3);
    assert.equal(await teacher.locator('.cr-problems li').count(), 1, 'the cut-off code is named');
    const scores = await teacher.$$eval('.cr-book tbody tr td.num:first-of-type', (tds) => tds.map((t) => t.textContent));
    assert.deepEqual(scores, ['4/4', '1/4', '0/4']);
    const csv = (await downloaded(teacher, '[data-a=csv]')).bytes.toString('utf8');
    assert.equal(csv.trim().split('\r\n').length, 4, 'a header and three students');
    assert.ok(csv.includes(ROSTER[lang][1]) && csv.includes(ROSTER[lang][0].slice(0, 12)));
    // Nothing pasted is lost on a reload.
    await teacher.reload();
    await teacher.waitForSelector('html[data-live] .cr-book');
    assert.equal(await teacher.locator('.cr-book tbody tr').count(), 3);
    await finish(teacher);
  });

  test(`${lang}: a damaged assignment link is named in the page's language`, async () => {
    const page = await newPage(browser);
    await page.goto(`${server.url}${lang}/classroom/do/?a=%%%`);
    await page.waitForSelector('html[data-live] .cr-missing');
    assert.ok((await page.locator('.cr-missing').innerText()).includes(WORDS[lang].damaged));
    await finish(page);
  });
}
