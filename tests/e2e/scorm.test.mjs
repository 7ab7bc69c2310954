// The SCORM 1.2 package of an assignment in a real SCORM runtime, not a mock (issue 34): the
// native CLI packs the offline course (`gpu-primer export scorm`), the ZIP is read back entry by
// entry, and an "LMS" page hosts scorm-again's Scorm12API (tools/node_modules, pinned in
// tools/package.json) as `window.API`, with the learner's name preset and a commit URL this test
// serves, then opens the package's launch file (index.html, the SCO) in a frame. In headless
// Chromium, inside the SCO's frame, the offline course's student page starts with the LMS's
// learner name; one of three exercises is answered right (its key read from the class key page
// of the same offline file), one wrong; Check reports "incomplete" and 33.33; *Make my hand-in
// code* reports "completed", the same score and the hand-in code as suspend data, each through
// LMSCommit, which the runtime posts to the commit URL; leaving calls LMSFinish; a later session
// in another browser gets the answers back from what the LMS kept. Opened with no
// LMS around it, the SCO says so in both languages and still shows the assignment. The teacher's
// page downloads the same package, around the site's own offline file, and names why it cannot
// where there is no such file or where the page is the offline file itself.
//
// The offline file: GPU_PRIMER_OFFLINE, else dist/gpu-primer-offline.html (scripts/env.sh
// build_offline). The CLI: GPU_PRIMER_BIN, else the newer of target/debug/gpu-primer and
// target/release/gpu-primer.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { createServer } from 'node:http';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, extname, join, normalize, resolve } from 'node:path';
import zlib from 'node:zlib';
import { readFile } from 'node:fs/promises';
import { DIST, serve, launch, newPage, finish } from './harness.mjs';

const root = resolve(import.meta.dirname, '..', '..');
const OFFLINE = process.env.GPU_PRIMER_OFFLINE || join(DIST, 'gpu-primer-offline.html');
const SCORM12 = join(root, 'tools', 'node_modules', 'scorm-again', 'dist', 'scorm12.js');
// The LMS's learner: SCORM 1.2 writes cmi.core.student_name "Last, First".
const LEARNER = { id: 'ada-1815', name: 'Lovelace, Ada' };
// Own numbers twice, the chapter's numbers once.
const EXERCISES = ['mem-kv-32x8k', 'cap-8b-8k-requests', 'intro-pcie-copy-share'];
const WORDS = {
  en: { noLms: 'No SCORM 1.2 API', fromOffline: 'The offline file cannot make the SCORM package', noCourse: 'could not be fetched' },
  zh: { noLms: '找不到学习管理系统', fromOffline: '离线版文件里无法生成 SCORM 课件包', noCourse: '无法从网站取得离线版文件' },
};

const work = mkdtempSync(join(tmpdir(), 'gpu-primer-scorm-'));
let browser, server;
/** Every commit the runtime posted, as parsed JSON. */
const commits = [];

function cli() {
  if (process.env.GPU_PRIMER_BIN) return process.env.GPU_PRIMER_BIN;
  const found = ['debug', 'release'].map((p) => join(root, 'target', p, 'gpu-primer')).filter((p) => existsSync(p));
  assert.ok(found.length > 0, 'no native gpu-primer binary: build it first (`cargo build`), or name one with GPU_PRIMER_BIN');
  return found.sort((a, b) => statSync(b).mtimeMs - statSync(a).mtimeMs)[0];
}

function run(args) {
  try {
    return execFileSync(cli(), args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  } catch (e) {
    assert.fail(`gpu-primer ${args.join(' ')} failed: ${e.stderr || e.message}`);
  }
}

/** The entries of a stored ZIP archive, from its central directory, each checked against its
 * local header and CRC-32 (PKWARE APPNOTE 4.3.7, 4.3.12, 4.3.16). */
function unzipStored(buf) {
  const eocd = buf.length - 22;
  assert.equal(buf.readUInt32LE(eocd), 0x06054b50, 'the archive ends with its end-of-central-directory record');
  const count = buf.readUInt16LE(eocd + 10);
  let p = buf.readUInt32LE(eocd + 16);
  const files = new Map();
  for (let i = 0; i < count; i++) {
    assert.equal(buf.readUInt32LE(p), 0x02014b50, `central directory entry ${i}`);
    const [method, crc, size, nameLen] = [buf.readUInt16LE(p + 10), buf.readUInt32LE(p + 16), buf.readUInt32LE(p + 24), buf.readUInt16LE(p + 28)];
    const offset = buf.readUInt32LE(p + 42);
    const name = buf.toString('utf8', p + 46, p + 46 + nameLen);
    assert.equal(method, 0, `${name} is stored`);
    assert.equal(buf.readUInt32LE(offset), 0x04034b50, `${name}: local header`);
    const start = offset + 30 + buf.readUInt16LE(offset + 26) + buf.readUInt16LE(offset + 28);
    const data = buf.subarray(start, start + size);
    if (zlib.crc32) assert.equal(zlib.crc32(data), crc, `${name}: CRC-32`);
    files.set(name, data);
    p += 46 + nameLen + buf.readUInt16LE(p + 30) + buf.readUInt16LE(p + 32);
  }
  return files;
}

/** The LMS: scorm-again's SCORM 1.2 runtime as window.API, the learner preset (and what the LMS
 * kept of an earlier session, `kept`: cmi.suspend_data), the SCO in a frame. */
const lmsPage = (sco, kept = '') => `<!doctype html>
<html lang="en" data-page="lms"><head><meta charset="utf-8"><title>LMS</title>
<script src="/scorm12.js"></script></head>
<body style="margin:0">
<iframe id="sco" style="width:1100px;height:900px;border:0"></iframe>
<script>
window.calls = [];
window.API = new Scorm12API({ lmsCommitUrl: '/commit', autocommit: false });
API.loadFromJSON({ core: { student_id: ${JSON.stringify(LEARNER.id)}, student_name: ${JSON.stringify(LEARNER.name)} }${kept ? `, suspend_data: ${JSON.stringify(kept)}` : ''} });
for (const name of ['LMSInitialize', 'LMSCommit', 'LMSFinish']) API.on(name, () => calls.push(name));
// The last value the SCO set of each element (cmi.core.exit and session_time are write-only).
window.values = {};
API.on('LMSSetValue.cmi.*', (element, value) => { values[element] = value; });
document.getElementById('sco').src = ${JSON.stringify(sco)};
</script></body></html>`;

const TYPES = { '.html': 'text/html; charset=utf-8', '.js': 'text/javascript', '.xml': 'application/xml' };

before(async () => {
  assert.ok(existsSync(OFFLINE), `no offline file at ${OFFLINE}: build it (scripts/env.sh build_site and build_offline) or name one with GPU_PRIMER_OFFLINE`);
  assert.ok(existsSync(SCORM12), 'no scorm-again in tools/node_modules: run scripts/setup.sh (npm ci in tools/)');
  server = createServer((req, res) => {
    const url = new URL(req.url, 'http://x');
    if (req.method === 'POST' && url.pathname === '/commit') {
      let body = '';
      req.on('data', (c) => { body += c; });
      req.on('end', () => {
        commits.push(JSON.parse(body));
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ result: true, errorCode: 0 }));
      });
      return;
    }
    if (url.pathname === '/favicon.ico') { res.writeHead(204); res.end(); return; }
    let file;
    if (url.pathname === '/scorm12.js') file = SCORM12;
    else if (/^\/lms-\w+\.html$/.test(url.pathname)) {
      const lang = url.pathname.slice(5, -5);
      res.writeHead(200, { 'content-type': TYPES['.html'] });
      res.end(lmsPage(`/${lang}/index.html`, url.searchParams.get('kept') || ''));
      return;
    } else file = normalize(join(work, decodeURIComponent(url.pathname)));
    if (!file.startsWith(work) && file !== SCORM12) { res.writeHead(403); res.end(); return; }
    try {
      const body = readFileSync(file);
      res.writeHead(200, { 'content-type': TYPES[extname(file)] || 'application/octet-stream' });
      res.end(body);
    } catch {
      res.writeHead(404);
      res.end('not found');
    }
  });
  await new Promise((ok) => server.listen(0, '127.0.0.1', ok));
  server.url = `http://127.0.0.1:${server.address().port}/`;
  browser = await launch();
});
after(async () => {
  await browser?.close();
  await new Promise((ok) => (server ? server.close(ok) : ok()));
  rmSync(work, { recursive: true, force: true });
});

/** Packs the assignment for `lang` with the CLI and unpacks it under work/LANG/. */
function unpack(lang, token) {
  const zip = join(work, `${lang}.zip`);
  const started = Date.now();
  run(['export', 'scorm', '--token', token, '--offline', OFFLINE, '--lang', lang, '--out', zip]);
  const bytes = readFileSync(zip);
  console.log(`# scorm ${lang}: ${(bytes.length / 1e6).toFixed(2)} MB package (offline file ${(statSync(OFFLINE).size / 1e6).toFixed(2)} MB) in ${Date.now() - started} ms`);
  const files = unzipStored(bytes);
  assert.deepEqual([...files.keys()], ['imsmanifest.xml', 'index.html', 'course.html']);
  assert.ok(files.get('course.html').equals(readFileSync(OFFLINE)), 'course.html is the offline file unchanged');
  const manifest = files.get('imsmanifest.xml').toString('utf8');
  assert.match(manifest, /<schemaversion>1\.2<\/schemaversion>/);
  assert.match(manifest, /<resource identifier="SCO-1" type="webcontent" adlcp:scormtype="sco" href="index.html">/);
  for (const [name, data] of files) {
    mkdirSync(dirname(join(work, lang, name)), { recursive: true });
    writeFileSync(join(work, lang, name), data);
  }
}

/** The frame of the page that `part` of its address names, once the app lives in it. */
async function frameOf(page, part, selector) {
  const deadline = Date.now() + 60000;
  for (;;) {
    const frame = page.frames().find((f) => f.url().includes(part));
    if (frame) {
      await frame.waitForSelector(selector, { timeout: Math.max(1000, deadline - Date.now()), state: 'attached' });
      return frame;
    }
    assert.ok(Date.now() < deadline, `no frame ${part}`);
    await page.waitForTimeout(100);
  }
}

const numberOf = (text) => text.trim().match(/^[\d,.]+/)[0];

for (const lang of ['en', 'zh']) {
  test(`SCORM ${lang}: in scorm-again's SCORM 1.2 runtime, check and hand-in report the score and completion`, async () => {
    const token = run(['assign', '--class', 'SCORM e2e', '--exercises', EXERCISES.join(','), '--title', 'Week 3', '--hints']).trim();
    unpack(lang, token);

    // The key of the learner's own numbers, from the offline file's class key page.
    const sheet = await newPage(browser);
    const keyUrl = `${server.url}${lang}/course.html#/${lang}/classroom/print/?a=${token}&s=${encodeURIComponent(LEARNER.name)}&show=key`;
    await sheet.mainFrame().goto(keyUrl);
    await sheet.waitForSelector('html[data-live] .cr-key tbody tr');
    const keys = await sheet.$$eval('.cr-key tbody tr td strong', (ss) => ss.map((s) => s.textContent));
    assert.equal(keys.length, EXERCISES.length);
    await finish(sheet);

    const lms = await newPage(browser, { viewport: { width: 1100, height: 900 } });
    commits.length = 0;
    await lms.goto(`${server.url}lms-${lang}.html`);
    const course = await frameOf(lms, 'course.html', 'html[data-live] .cr-item');
    // The LMS's learner name went in: the student's numbers are theirs at once.
    assert.equal((await course.locator('.cr-who strong').innerText()).trim(), LEARNER.name);
    assert.deepEqual(await lms.evaluate(() => calls), ['LMSInitialize']);
    assert.equal(await lms.evaluate(() => API.cmi.core.lesson_status), 'incomplete', 'incomplete from the start');

    const card = (i) => course.locator(`.cr-item[data-i="${i}"]`);
    await card(0).locator('[data-role=answer]').fill(numberOf(keys[0]));
    await card(0).locator('[data-a=check]').click();
    await lms.waitForFunction(() => calls.includes('LMSCommit'));
    const cmi = () => lms.evaluate(() => ({
      status: API.cmi.core.lesson_status, raw: API.cmi.core.score.raw, min: API.cmi.core.score.min,
      max: API.cmi.core.score.max, suspend: API.cmi.suspend_data, exit: values['cmi.core.exit'], error: API.LMSGetLastError(),
    }));
    const checked = await cmi();
    assert.match(checked.suspend, /^GP1/, 'the hand-in code so far');
    assert.deepEqual(checked, { status: 'incomplete', raw: '33.33', min: '0', max: '100', suspend: checked.suspend, exit: 'suspend', error: '0' });
    await card(1).locator('[data-role=answer]').fill('1');
    await card(1).locator('[data-a=check]').click();
    await lms.waitForFunction(() => calls.filter((c) => c === 'LMSCommit').length >= 2);
    assert.equal((await cmi()).raw, '33.33', 'a wrong answer changes nothing');

    await course.click('[data-a=hand-in]');
    await lms.waitForFunction(() => API.cmi.core.lesson_status === 'completed');
    const code = (await course.locator('.cr-code').inputValue()).trim();
    assert.match(code, /^GP1/);
    assert.deepEqual(await cmi(), { status: 'completed', raw: '33.33', min: '0', max: '100', suspend: code, exit: '', error: '0' });
    const calls = await lms.evaluate(() => calls);
    assert.ok(calls.filter((c) => c === 'LMSCommit').length >= 3, `a commit after each check and on hand-in: ${calls}`);
    // The runtime sent the commits on to the LMS.
    const last = commits.at(-1);
    assert.equal(last?.cmi?.core?.lesson_status, 'completed', JSON.stringify(last));
    assert.equal(String(last.cmi.core.score.raw), '33.33');
    assert.equal(last.cmi.suspend_data, code);

    // The gradebook reads the code the LMS keeps.
    const csv = execFileSync(cli(), ['grade', token], { input: code, encoding: 'utf8' });
    assert.ok(csv.includes(LEARNER.name), csv);

    // Leaving the SCO finishes the session: LMSFinish, whose last commit the runtime sends as a
    // beacon (a page being left may not send a synchronous request).
    const before = commits.length;
    await lms.evaluate(() => document.getElementById('sco').remove());
    await lms.waitForFunction(() => calls.includes('LMSFinish'));
    assert.match(await lms.evaluate(() => values['cmi.core.session_time']), /^\d{4}:\d\d:\d\d\.\d\d$/);
    for (let i = 0; i < 100 && commits.length === before; i++) await lms.waitForTimeout(50);
    assert.equal(commits.at(-1)?.cmi?.core?.lesson_status, 'completed', 'the terminating commit');
    assert.equal(await lms.evaluate(() => API.LMSGetLastError()), '0');
    await finish(lms);

    // The next session, on another computer (a fresh browser profile: nothing in its storage):
    // the LMS hands back what it kept, and the student finds their answers and verdicts.
    const again = await newPage(browser, { viewport: { width: 1100, height: 900 } });
    await again.goto(`${server.url}lms-${lang}.html?kept=${encodeURIComponent(code)}`);
    const resumed = await frameOf(again, 'course.html', 'html[data-live] .cr-item');
    const back = (i) => resumed.locator(`.cr-item[data-i="${i}"]`);
    assert.equal(await back(0).locator('[data-role=answer]').inputValue(), numberOf(keys[0]));
    assert.equal(await back(0).getAttribute('data-result'), 'correct');
    assert.equal(await back(1).locator('[data-role=answer]').inputValue(), '1');
    assert.equal(await back(1).getAttribute('data-result'), 'wrong');
    assert.equal(await back(2).locator('[data-role=answer]:checked').count(), 0, 'the unanswered choice stays unanswered');
    await finish(again);
  });

  test(`SCORM ${lang}: opened without an LMS, the SCO says so in both languages and shows the assignment`, async () => {
    const page = await newPage(browser);
    await page.mainFrame().goto(`${server.url}${lang}/index.html`);
    await page.waitForSelector('#no-lms', { state: 'visible' });
    const text = await page.locator('#no-lms').innerText();
    assert.ok(text.includes(WORDS.en.noLms) && text.includes(WORDS.zh.noLms), text);
    const course = await frameOf(page, 'course.html', 'html[data-live] .cr-name');
    assert.equal(await course.locator('[data-f=student]').inputValue(), '');
    await finish(page);
  });
}

test('the teacher\'s page makes the same package around the site\'s offline file, and says why not where it cannot', async () => {
  const token = run(['assign', '--class', 'SCORM e2e', '--exercises', EXERCISES.join(','), '--title', 'Week 3', '--hints']).trim();
  const site = await serve();
  try {
    for (const lang of ['en', 'zh']) {
      const page = await newPage(browser, { acceptDownloads: true });
      await page.goto(`${site.url}${lang}/classroom/?a=${token}`);
      await page.waitForSelector('[data-a=scorm]');
      const [download] = await Promise.all([page.waitForEvent('download'), page.click('[data-a=scorm]')]);
      assert.equal(download.suggestedFilename(), `SCORMe2e-scorm12-${lang}.zip`);
      const files = unzipStored(await readFile(await download.path()));
      assert.ok(files.get('course.html').equals(readFileSync(join(DIST, 'gpu-primer-offline.html'))), 'the site\'s offline file, unchanged');
      // The same bytes as the command line's package of the same assignment.
      const cli = unzipStored(readFileSync(join(work, `${lang}.zip`)));
      for (const name of ['imsmanifest.xml', 'index.html']) assert.ok(files.get(name).equals(cli.get(name)), `${name} as the CLI writes it`);
      await finish(page);

      // A site without the offline file: named, in the page's language.
      const bare = await newPage(browser);
      await bare.route('**/gpu-primer-offline.html', (r) => r.fulfill({ status: 404, body: 'not found' }));
      await bare.goto(`${site.url}${lang}/classroom/?a=${token}`);
      await bare.click('[data-a=scorm]');
      await bare.waitForSelector('.cr-make .banner.error:not([hidden])');
      assert.ok((await bare.locator('.cr-make .banner.error').innerText()).includes(WORDS[lang].noCourse));
      await finish(bare, ['console: Failed to load resource: the server responded with a status of 404 (Not Found)']);

      // The offline file itself has no site around it to fetch from.
      const offline = await newPage(browser);
      await offline.goto(`${site.url}gpu-primer-offline.html#/${lang}/classroom/?a=${token}`);
      await offline.waitForSelector('html[data-live] [data-a=scorm]');
      await offline.click('[data-a=scorm]');
      await offline.waitForSelector('.cr-make .banner.error:not([hidden])');
      assert.ok((await offline.locator('.cr-make .banner.error').innerText()).includes(WORDS[lang].fromOffline));
      await finish(offline);
    }
  } finally {
    await site.close();
  }
});
