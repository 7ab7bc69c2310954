// The QTI 2.1 export in real parts, not mocks (issue 34): the native CLI writes the package
// (`gpu-primer export qti`) for both languages; the ZIP is read back entry by entry (stored, CRC
// checked); the manifest and every item validate against the IMS schemas (IMS CP 1.1 and IMS QTI
// 2.1, vendored in tests/e2e/schema/) with libxml2's validator (xmllint-wasm); each item's key and
// tolerance agree with the Moodle export of the same request; and a sample of items plays in
// Cito's QTI player (@citolab/qti-components) in headless Chromium: the key typed into the text
// box scores full marks, a wrong answer zero, and the solution shows after the attempt.
//
// The player is a QTI 3 player: Cito plays QTI 2.x content after its own converter
// (@citolab/qti-convert, the 1EdTech/ETS qti2xTo30 XSLT run by SaxonJS), which is what this test
// does, in node, before the item goes to the page. Nothing is fetched from the internet: the
// player's built bundle is served from tools/node_modules by the harness's local server.
//
// Tolerance: Cito's player (7.27.4) does not implement `equal`'s toleranceMode. Its
// `<qti-equal>` declares the property without an attribute name, so it listens to the attribute
// `tolerancemode`, not the converted `tolerance-mode`, keeps the default "exact" and compares the
// two floats with `===` (ScoringHelper.compareSingleValues); its own code path for another mode
// would log "toleranceMode is not supported yet" and score false. So an answer inside a relative
// tolerance but not equal to the key scores 0 in this player: the test asserts that, and checks
// the tolerance itself against the Moodle export (an absolute tolerance, key × the exercise's
// relative tolerance). Should the player learn tolerance, the assertion on its toleranceMode
// fails first and says so.
//
// The CLI: GPU_PRIMER_BIN, else the newer of target/debug/gpu-primer and target/release/gpu-primer
// (`cargo test` builds target/debug/gpu-primer before the browser tests, scripts/test.sh).
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join, relative, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import zlib from 'node:zlib';
import { serve, launch, newPage, finish } from './harness.mjs';

const root = resolve(import.meta.dirname, '..', '..');
const tools = createRequire(join(root, 'tools', 'package.json'));
const SCHEMA_DIR = join(import.meta.dirname, 'schema');
const QTI_XSD = 'qtiv2p1/imsqti_v2p1.xsd';
const CP_XSD = 'imscp_v1p1.xsd';
// A class code with a space and CJK: the manifest's identifier is made from it.
const CLASS = 'QTI e2e 秋';
const VARIANTS = 3;
// Played in the browser, per language: two exact keys (a request count, a size in KiB) and four
// relative tolerances (3 % and 2 %, four units).
const SAMPLE = [
  'cap-8b-8k-requests', 'mem-70b-kv-per-token', 'bottle-7b-a100-bound',
  'bw-8b-prefill-2k-bound', 'mem-kv-32x8k', 'train-8b-optimizer',
];
const LANGS = ['en', 'zh'];

const work = mkdtempSync(join(tmpdir(), 'gpu-primer-qti-'));
let browser;
let server;
after(async () => {
  await browser?.close();
  await server?.close();
  rmSync(work, { recursive: true, force: true });
});

/** The native CLI, or a failure that says how to get it. */
const cli = (() => {
  let bin;
  return () => {
    if (bin) return bin;
    if (process.env.GPU_PRIMER_BIN) {
      assert.ok(existsSync(process.env.GPU_PRIMER_BIN), `GPU_PRIMER_BIN=${process.env.GPU_PRIMER_BIN} does not exist`);
      bin = process.env.GPU_PRIMER_BIN;
    } else {
      const found = ['debug', 'release'].map((p) => join(root, 'target', p, 'gpu-primer')).filter((p) => existsSync(p));
      assert.ok(found.length > 0, 'no native gpu-primer binary: build it first (`cargo build`, or `cargo test`, writes '
        + 'target/debug/gpu-primer), or name one with GPU_PRIMER_BIN');
      bin = found.sort((a, b) => statSync(b).mtimeMs - statSync(a).mtimeMs)[0];
    }
    return bin;
  };
})();

function run(args) {
  const bin = cli();
  try {
    return execFileSync(bin, args, { encoding: 'utf8', maxBuffer: 64 << 20, stdio: ['ignore', 'pipe', 'pipe'] });
  } catch (e) {
    const hint = /unknown command 'export'/.test(e.stderr) ? ` (${bin} predates \`export\`: rebuild it with \`cargo build\`)` : '';
    assert.fail(`gpu-primer ${args.join(' ')} failed${hint}: ${e.stderr || e.message}`);
  }
}

/** The entries of a stored (uncompressed) ZIP archive, read from its central directory, each
 * checked against its local header and CRC-32 (PKWARE APPNOTE 4.3.7, 4.3.12, 4.3.16). */
function unzipStored(buf) {
  const eocd = buf.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
  assert.ok(eocd >= 0 && eocd === buf.length - 22, 'the archive ends with its end-of-central-directory record, no comment');
  const count = buf.readUInt16LE(eocd + 10);
  const dirSize = buf.readUInt32LE(eocd + 12);
  const dirOffset = buf.readUInt32LE(eocd + 16);
  const files = new Map();
  let p = dirOffset;
  for (let i = 0; i < count; i++) {
    assert.equal(buf.readUInt32LE(p), 0x02014b50, `central directory entry ${i}`);
    const method = buf.readUInt16LE(p + 10);
    const crc = buf.readUInt32LE(p + 16);
    const packed = buf.readUInt32LE(p + 20);
    const size = buf.readUInt32LE(p + 24);
    const nameLen = buf.readUInt16LE(p + 28);
    const extraLen = buf.readUInt16LE(p + 30);
    const commentLen = buf.readUInt16LE(p + 32);
    const offset = buf.readUInt32LE(p + 42);
    const name = buf.toString('utf8', p + 46, p + 46 + nameLen);
    assert.equal(method, 0, `${name} is stored`);
    assert.equal(packed, size, `${name}: stored sizes`);
    assert.equal(buf.readUInt32LE(offset), 0x04034b50, `${name}: local header`);
    const localName = buf.readUInt16LE(offset + 26);
    const localExtra = buf.readUInt16LE(offset + 28);
    assert.equal(buf.toString('utf8', offset + 30, offset + 30 + localName), name, `${name}: local header's name`);
    const start = offset + 30 + localName + localExtra;
    const data = buf.subarray(start, start + size);
    assert.equal(data.length, size, `${name}: data inside the archive`);
    if (zlib.crc32) assert.equal(zlib.crc32(data), crc, `${name}: CRC-32`);
    assert.ok(!files.has(name), `${name} once`);
    files.set(name, data.toString('utf8'));
    p += 46 + nameLen + extraLen + commentLen;
  }
  assert.equal(p, dirOffset + dirSize, 'central directory size');
  return files;
}

/** Every .xsd under tests/e2e/schema, by its path there (the imports are relative paths). */
const schemas = (() => {
  const walk = (d) => readdirSync(d).flatMap((n) => (statSync(join(d, n)).isDirectory() ? walk(join(d, n)) : [join(d, n)]));
  let all;
  return () => (all ??= walk(SCHEMA_DIR).filter((f) => f.endsWith('.xsd'))
    .map((f) => ({ fileName: relative(SCHEMA_DIR, f), contents: readFileSync(f, 'utf8') })));
})();

/** libxml2's XSD validation of `docs` ({fileName, contents}) against `xsd`, a path under schema/. */
async function validate(docs, xsd) {
  const { validateXML } = tools('xmllint-wasm');
  const all = schemas();
  const schema = all.find((s) => s.fileName === xsd);
  assert.ok(schema, `${xsd} is vendored in tests/e2e/schema`);
  return validateXML({ xml: docs, schema, preload: all.filter((s) => s !== schema), maxMemoryPages: 4096 });
}

const unescape = (s) => s.replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&quot;/g, '"').replace(/&apos;/g, "'").replace(/&amp;/g, '&');

/** What the test needs of a QTI 2.1 item (the schema has vouched for its structure). */
function parseItem(xml) {
  const attrs = (s) => Object.fromEntries([...s.matchAll(/([\w:]+)="([^"]*)"/g)].map((m) => [m[1], m[2]]));
  const equal = xml.match(/<equal\b([^>]*)>\s*<variable identifier="RESPONSE"\/>\s*<correct identifier="RESPONSE"\/>\s*<\/equal>/);
  return {
    identifier: xml.match(/<assessmentItem\b[^>]*\sidentifier="([^"]*)"/)?.[1],
    key: xml.match(/<correctResponse>\s*<value>([^<]*)<\/value>\s*<\/correctResponse>/)?.[1],
    question: unescape(xml.match(/<itemBody>\s*<p>([^<]*)<\/p>/)?.[1] ?? ''),
    unit: unescape(xml.match(/<textEntryInteraction\b[^>]*\/>\s*([^<]*)<\/p>/)?.[1] ?? '').trim(),
    equal: equal ? attrs(equal[1]) : null,
    solution: unescape(xml.match(/<modalFeedback\b[^>]*>([\s\S]*?)<\/modalFeedback>/)?.[1] ?? ''),
  };
}

/** The Moodle export's answer and absolute tolerance per question, by idnumber. */
function moodleAnswers(xml) {
  const out = new Map();
  for (const q of xml.split('<question type="numerical">').slice(1)) {
    const id = q.match(/<idnumber>([^<]*)<\/idnumber>/)[1];
    const key = q.match(/<answer fraction="100"[^>]*>\s*<text>([^<]*)<\/text>/)[1];
    const tolerance = Number(q.match(/<tolerance>([^<]*)<\/tolerance>/)[1]);
    out.set(id, { key, tolerance });
  }
  return out;
}

/** The package for `lang`: every exercise, VARIANTS variants, read back and parsed. */
const packages = new Map();
function pkg(lang) {
  if (!packages.has(lang)) {
    const out = join(work, `${lang}.zip`);
    run(['export', 'qti', '--class', CLASS, '--variants', String(VARIANTS), '--lang', lang, '--out', out]);
    const files = unzipStored(readFileSync(out));
    const moodle = moodleAnswers(run(['export', 'moodle', '--class', CLASS, '--variants', String(VARIANTS), '--lang', lang]));
    packages.set(lang, { files, moodle });
  }
  return packages.get(lang);
}

/** The exercises `gpu-primer export list` names. */
const exerciseIds = () => run(['export', 'list']).split('\n').filter(Boolean).map((l) => l.split(/\s+/)[0]);

for (const lang of LANGS) {
  test(`QTI ${lang}: the package holds its manifest and one item per variant, all valid IMS CP 1.1 and IMS QTI 2.1`, async () => {
    const { files } = pkg(lang);
    const ids = exerciseIds();
    for (const id of SAMPLE) assert.ok(ids.includes(id), `${id} is still a parametric exercise (gpu-primer export list)`);
    const manifest = files.get('imsmanifest.xml');
    assert.ok(manifest, 'imsmanifest.xml at the root');
    assert.equal([...files.keys()][0], 'imsmanifest.xml', 'the manifest comes first');
    const items = [...files.keys()].filter((n) => n !== 'imsmanifest.xml').sort();
    assert.equal(items.length, ids.length * VARIANTS, `${ids.length} exercises × ${VARIANTS} variants`);
    assert.deepEqual(items, ids.flatMap((id) => Array.from({ length: VARIANTS }, (_, i) => `items/${id}-${i + 1}.xml`)).sort());
    // The manifest names each item once, as a QTI 2.1 item resource whose file is itself.
    const resources = [...manifest.matchAll(/<resource identifier="([^"]*)" type="([^"]*)" href="([^"]*)">\s*<file href="([^"]*)"\/>/g)];
    assert.deepEqual(resources.map((r) => r[3]).sort(), items, 'one resource per item');
    for (const [, , type, href, file] of resources) {
      assert.equal(type, 'imsqti_item_xmlv2p1', href);
      assert.equal(file, href, href);
    }
    assert.equal(new Set(resources.map((r) => r[1])).size, resources.length, 'resource identifiers are unique');

    const cp = await validate([{ fileName: 'imsmanifest.xml', contents: manifest }], CP_XSD);
    assert.ok(cp.valid, `imsmanifest.xml against IMS CP 1.1.4:\n${cp.rawOutput}`);
    const qti = await validate(items.map((n) => ({ fileName: n.replace('items/', ''), contents: files.get(n) })), QTI_XSD);
    assert.ok(qti.valid, `items against IMS QTI 2.1:\n${qti.errors.slice(0, 10).map((e) => e.rawMessage).join('\n')}`);
    assert.equal((qti.rawOutput.match(/ validates$/gm) || []).length, items.length, 'xmllint names every item valid');
  });

  test(`QTI ${lang}: each item's key and tolerance are the Moodle export's for the same request`, () => {
    const { files, moodle } = pkg(lang);
    let relatives = 0;
    let exacts = 0;
    for (const [name, xml] of files) {
      if (name === 'imsmanifest.xml') continue;
      const id = name.replace(/^items\//, '').replace(/\.xml$/, '');
      const item = parseItem(xml);
      const m = moodle.get(id);
      assert.ok(m, `${id} in the Moodle export`);
      assert.equal(item.identifier, `I-${id}`, name);
      assert.match(item.key, /^-?\d+(\.\d+)?$/, `${id}: a plain decimal key`);
      assert.equal(item.key, m.key, `${id}: the key`);
      assert.ok(item.equal, `${id}: RESPONSE equal to the correct response decides the score`);
      if (item.equal.toleranceMode === 'exact') {
        exacts++;
        assert.equal(m.tolerance, 0, `${id}: exact in QTI, exact in Moodle`);
      } else {
        relatives++;
        assert.equal(item.equal.toleranceMode, 'relative', id);
        const [lower, upper] = item.equal.tolerance.split(' ').map(Number);
        assert.equal(lower, upper, `${id}: symmetric tolerance`);
        assert.equal(item.equal.includeLowerBound, 'true', id);
        assert.equal(item.equal.includeUpperBound, 'true', id);
        // QTI's relative tolerance is a percentage of the correct value (QTI 2.1, "equal").
        const absolute = (Number(item.key) * lower) / 100;
        assert.ok(Math.abs(absolute - m.tolerance) <= 1e-9 * Math.abs(absolute), `${id}: ${lower} % of ${item.key} = ${absolute}, Moodle says ${m.tolerance}`);
      }
    }
    assert.ok(relatives > 0 && exacts > 0, `both kinds of tolerance (${relatives} relative, ${exacts} exact)`);
  });
}

/** A page with Cito's player: its bundle (cdn/index.js, every element defined) served from
 * tools/node_modules through a link in a scratch folder beside this page. */
const PLAYER_PAGE = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>QTI item</title><link rel="icon" href="data:,">
<link rel="stylesheet" href="qti-components/dist/item.css">
<script type="module">
import './qti-components/cdn/index.js';
const item = () => document.querySelector('item-container')?.shadowRoot?.querySelector('qti-assessment-item');
window.qtiItem = item;
window.outcomes = () => ({ score: item().getOutcome('SCORE').value, feedback: item().getOutcome('FEEDBACK').value });
document.documentElement.setAttribute('data-live', '');
</script></head>
<body><qti-item><item-container></item-container></qti-item></body></html>`;

async function playerServer() {
  if (server) return server;
  const dir = join(work, 'player');
  const pkgJson = tools.resolve('@citolab/qti-components/package.json');
  mkdirSync(dir, { recursive: true });
  symlinkSync(resolve(pkgJson, '..'), join(dir, 'qti-components'));
  writeFileSync(join(dir, 'index.html'), PLAYER_PAGE);
  server = await serve(dir);
  return server;
}

/** Cito's QTI 2.x → QTI 3 conversion (its converter for node; SaxonJS must be global). */
let convert;
async function toQti3(xml) {
  if (!convert) {
    globalThis.SaxonJS ??= tools('saxon-js');
    ({ convertQti2toQti3: convert } = await import(pathToFileURL(tools.resolve('@citolab/qti-convert/qti-convert-node'))));
  }
  return convert(xml);
}

/** A number as one would type it: no exponent, 12 significant digits at most. */
const typed = (x) => String(Number(x.toPrecision(12)));

for (const [n, lang] of LANGS.entries()) {
  test(`QTI ${lang}: in Cito's QTI player the key scores full marks, a wrong answer zero, and the solution shows`, async () => {
    const { files } = pkg(lang);
    browser ??= await launch();
    const srv = await playerServer();
    const page = await newPage(browser);
    await page.goto(srv.url);
    const variant = n + 1; // en plays variant 1, zh variant 2
    for (const id of SAMPLE) {
      const qti21 = files.get(`items/${id}-${variant}.xml`);
      const item = parseItem(qti21);
      const qti3 = await toQti3(qti21);
      await page.evaluate((xml) => { document.querySelector('item-container').itemXML = xml; }, qti3);
      await page.waitForFunction((ident) => window.qtiItem()?.identifier === ident, item.identifier);
      const input = page.locator('qti-text-entry-interaction input');
      await input.waitFor();
      // The item shows its question, then the text box, then the unit (in one line).
      const body = (await page.locator('qti-item-body').textContent()).replace(/\s+/g, ' ');
      assert.ok(item.question && item.unit, `${id}: a question and a unit`);
      assert.ok(body.includes(item.question.replace(/\s+/g, ' ')), `${id}: the question shows`);
      assert.ok(body.trim().endsWith(item.unit), `${id}: the unit (${item.unit}) follows the text box`);
      assert.equal(await page.locator('qti-text-entry-interaction').count(), 1, `${id}: one text box`);
      const dialog = page.locator('qti-modal-feedback dialog');
      const close = page.locator('qti-modal-feedback button.close-button');
      assert.equal(await dialog.evaluate((d) => d.open), false, `${id}: no solution before the attempt`);
      assert.equal(Number((await page.evaluate(() => window.outcomes())).score), 0, `${id}: SCORE starts at its default, 0`);

      /** Types `answer` into the item's text box as a student would, has the attempt scored, reads
       * the solution the player then shows (a modal dialog) and closes it with its button. */
      const scores = async (answer, expected, why) => {
        await input.fill('');
        await input.pressSequentially(answer);
        const r = await page.evaluate(() => {
          const it = window.qtiItem();
          const response = it.variables.find((v) => v.identifier === 'RESPONSE').value;
          it.processResponse();
          return { response, ...window.outcomes() };
        });
        assert.equal(r.response, answer, `${id}: the player holds what was typed`);
        assert.equal(Number(r.score), expected, `${id} (${lang}): ${why}: typed ${answer}, key ${item.key}, SCORE ${r.score}`);
        assert.equal(r.feedback, 'SOLUTION', `${id}: response processing sets FEEDBACK`);
        await page.waitForFunction(() => document.querySelector('item-container').shadowRoot
          .querySelector('qti-modal-feedback').shadowRoot.querySelector('dialog')?.open, null, { timeout: 5000 });
        assert.equal((await page.locator('qti-modal-feedback').textContent()).trim(), item.solution.trim(), `${id}: the solution as exported`);
        await close.click();
        assert.equal(await dialog.evaluate((d) => d.open), false, `${id}: the solution closes`);
      };

      const key = Number(item.key);
      await scores(item.key, 1, 'the key');
      await scores(typed(key * 2 + 1), 0, 'a clearly wrong answer');
      await scores(item.key, 1, 'the key again, after a wrong answer');
      if (item.equal.toleranceMode === 'exact') {
        await scores(typed(key + 1), 0, 'one more than an exact key');
      } else {
        const tol = Number(item.equal.tolerance.split(' ')[0]) / 100;
        // See the note at the top: the player reads no toleranceMode and compares exactly.
        const mode = await page.evaluate(() => window.qtiItem().querySelector('qti-equal').toleranceMode);
        assert.equal(mode, 'exact', `${id}: Cito's player now reads tolerance-mode (it says ${mode}): an answer inside the tolerance should score 1, update this test`);
        await scores(typed(key * (1 + tol / 2)), 0, 'inside the relative tolerance, which this player does not apply');
        await scores(typed(key * (1 + tol * 1.5)), 0, 'outside the relative tolerance');
        await scores(typed(key * (1 - tol * 1.5)), 0, 'below the relative tolerance');
      }
    }
    await finish(page);
  });
}

test('the validator rejects what the schemas forbid (the schemas are loaded, not skipped)', async () => {
  const { files } = pkg('en');
  const item = files.get(`items/${SAMPLE[2]}-1.xml`);
  const broken = item.replace('toleranceMode="relative"', 'toleranceMode="percent"');
  assert.notEqual(broken, item);
  const qti = await validate([{ fileName: 'broken.xml', contents: broken }], QTI_XSD);
  assert.equal(qti.valid, false, 'an unknown toleranceMode is invalid QTI 2.1');
  assert.match(qti.rawOutput, /toleranceMode/);
  const manifest = files.get('imsmanifest.xml').replace('<organizations/>', '');
  const cp = await validate([{ fileName: 'imsmanifest.xml', contents: manifest }], CP_XSD);
  assert.equal(cp.valid, false, 'a manifest without organizations is invalid IMS CP');
});
