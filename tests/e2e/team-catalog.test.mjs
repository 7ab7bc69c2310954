// A site built with a team's catalog (`gpu-primer site DIR --catalog docs/team-catalog.json`)
// in a real browser, under a sub-path and as the offline file: the app installs the file the
// pages carry, so the estimator's and planner's GPU menus list the team's GPUs by name, marked as
// the team's (zh and en), a team GPU computes and shows the file's source; and an imported
// scenario with an inline custom GPU shows in the estimator's menu by its name, not blank.
// The site is the built dist/ copied aside and written again with the catalog.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { cpSync, mkdtempSync, readdirSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { DIST, serve, launch, newPage, finish } from './harness.mjs';

const root = resolve(import.meta.dirname, '..', '..');
const MARK = { en: "your team's catalog", zh: '团队目录' };
let server, browser, dir;

before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'gpu-primer-team-'));
  cpSync(DIST, dir, { recursive: true });
  // `gpu-primer site` finds each bundle by Trunk's frame, which the first build removed: write
  // it again, naming the bundle's glue and wasm.
  for (const bundle of ['course', 'estimator', 'tools']) {
    const app = join(dir, 'app', bundle);
    const files = readdirSync(app);
    const wasm = files.find((f) => f.endsWith('_bg.wasm'));
    const glue = files.find((f) => /^gpu-primer-.*\.js$/.test(f));
    writeFileSync(join(app, 'index.html'), `<script type="module">import init from '/${glue}'; await init({ module_or_path: '/${wasm}' });</script>`);
  }
  execFileSync('cargo', ['run', '--quiet', '--locked', '--', 'site', dir, '--catalog', join(root, 'docs', 'team-catalog.json')], { cwd: root, stdio: 'inherit' });
  execFileSync('node', [join(root, 'tools', 'csp.mjs'), dir], { stdio: 'ignore' });
  server = await serve(dir, '/docs/gpu/');
  browser = await launch();
});
after(async () => {
  await browser?.close();
  await server?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

const labels = (page, id) => page.locator(`#${id} option`).evaluateAll((os) => os.map((o) => [o.value, o.textContent]));

test('the estimator lists the team GPUs by name, marked, and shows the file\'s source for one (en, zh, sub-path)', async () => {
  const page = await newPage(browser);
  for (const lang of ['en', 'zh']) {
    await page.goto(`${server.url}${lang}/estimate/`);
    const options = new Map(await labels(page, 'gpu'));
    assert.equal(options.get('lab-l40s-48gb'), `Lab L40S node (48 GB) · 48 GB · ${MARK[lang]}`);
    assert.equal(options.get('lab-a800-80gb'), `Lab A800 80GB PCIe · 80 GB · ${MARK[lang]}`);
    await page.selectOption('#gpu', 'lab-l40s-48gb');
    await page.waitForFunction((mark) => document.getElementById('gpu-facts')?.textContent.includes(mark), MARK[lang]);
    const facts = await page.locator('#gpu-facts').innerText();
    assert.match(facts, /Example Lab infrastructure team/, facts);
    assert.match(facts, /48 GB/, facts);
    assert.equal(await page.locator('#gpu option:checked').textContent(), options.get('lab-l40s-48gb'), 'selected by name');
  }
  await finish(page);
});

test('an imported scenario with an inline custom GPU shows in the menu by its name', async () => {
  const page = await newPage(browser);
  await page.goto(`${server.url}en/estimate/`);
  const scenario = JSON.stringify({
    model: 'llama-3.1-8b',
    gpu: { name: 'Lab prototype', memory_bytes: 96e9, memory_bandwidth_bytes_per_s: 2e12, peak_flops: { bf16: 5e14 } },
  });
  await page.setInputFiles('#import-file', { name: 's.json', mimeType: 'application/json', buffer: Buffer.from(scenario) });
  await page.waitForFunction(() => document.querySelector('#gpu option:checked')?.textContent.startsWith('Lab prototype'));
  assert.equal(await page.locator('#gpu option:checked').textContent(), 'Lab prototype · 96 GB');
  assert.equal(await page.locator('#gpu').inputValue(), 'custom');
  // Back to a catalog GPU, the custom choice leaves the menu.
  await page.selectOption('#gpu', 'h100-sxm');
  await page.waitForFunction(() => !document.querySelector('#gpu option[value=custom]'));
  await finish(page);
});

test('the planner lists the team GPUs and prices at the team\'s rate (zh, en)', async () => {
  const page = await newPage(browser);
  for (const lang of ['en', 'zh']) {
    await page.goto(`${server.url}${lang}/plan/`);
    const options = new Map(await labels(page, 'plan-gpu'));
    assert.equal(options.get('lab-a800-80gb'), `Lab A800 80GB PCIe · ${MARK[lang]}`);
    await page.selectOption('#plan-gpu', 'lab-l40s-48gb');
    await page.waitForFunction(() => document.querySelector('.plan-results')?.getAttribute('aria-busy') === 'false'
      && /0\.95/.test(document.getElementById('plan-results')?.textContent ?? ''), null, { timeout: 60000 });
    const text = await page.locator('#plan-results').textContent();
    assert.ok(text.includes(`${MARK[lang]}`), `${lang}: the price is the team's`);
  }
  await finish(page);
});

test('the offline file built from that site carries the team catalog', async () => {
  const app = join(root, 'target', 'trunk', 'full');
  if (!existsSync(app)) throw new Error('build the site first (scripts/env.sh build_site)');
  const offline = join(dir, 'offline.html');
  execFileSync('node', [join(root, 'tools', 'single-file.mjs'), dir, offline, app], { stdio: 'ignore' });
  const page = await newPage(browser);
  await page.goto(`file://${offline}#/zh/estimate/`);
  await page.waitForSelector('html[data-live] #gpu option[value="lab-a800-80gb"]', { state: 'attached', timeout: 30000 });
  const options = new Map(await labels(page, 'gpu'));
  assert.equal(options.get('lab-a800-80gb'), `Lab A800 80GB PCIe · 80 GB · ${MARK.zh}`);
  await finish(page);
});
