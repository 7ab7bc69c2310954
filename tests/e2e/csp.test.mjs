// The Content-Security-Policy holds on every route in both languages, on the served site and on
// the offline file from file://: a `securitypolicyviolation` event anywhere fails the test. And
// what a reader brings (a pasted config's `_name_or_path`, an imported file, a custom GPU name in
// a link) is shown as text, never parsed as HTML.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { serve, launch, newPage, finish, DIST } from './harness.mjs';

const root = resolve(import.meta.dirname, '..', '..');
const slugs = readdirSync(join(root, 'content', 'en'))
  .filter((f) => /^\d+-.+\.md$/.test(f)).sort().map((f) => f.replace(/^\d+-/, '').replace(/\.md$/, ''));

const EVIL = '<img src=x onerror="window.__pwned=1"><script>window.__pwned=2</script>';
const b64 = (obj) => Buffer.from(JSON.stringify(obj)).toString('base64url');
const evilConfig = {
  _name_or_path: EVIL, model_type: 'llama', hidden_size: 2048, intermediate_size: 8192, num_hidden_layers: 16,
  num_attention_heads: 32, num_key_value_heads: 8, vocab_size: 128256, tie_word_embeddings: true,
};
const evilGpu = { name: EVIL, memory_bytes: 48000000000, memory_bandwidth_bytes_per_s: 1e12, peak_flops: { bf16: 2e14 } };

let server, browser;
before(async () => { server = await serve(); browser = await launch(); });
after(async () => { await browser?.close(); await server?.close(); });

/** A page that records every CSP violation (listener installed before any script of the page). */
async function watchedPage() {
  const page = await newPage(browser);
  await page.addInitScript(() => {
    window.__csp = [];
    document.addEventListener('securitypolicyviolation', (e) => {
      window.__csp.push(`${e.violatedDirective} blocked ${e.blockedURI || '(inline)'} at ${e.sourceFile}:${e.lineNumber} ${e.sample}`);
    });
  });
  return page;
}

async function violations(page) {
  return page.evaluate(() => [...window.__csp, ...(window.__pwned ? [`injected markup ran: ${window.__pwned}`] : [])]);
}

/** Goes to a page: on the served site a new document (`path` below `base`), in the offline file a
 * new hash (same document); waits for it. */
async function visit(page, base, path, selector) {
  if (base.startsWith('file:')) {
    await page.evaluate((h) => { location.hash = h; }, `#/${path}`);
  } else {
    await page.goto(`${base}${path}`);
  }
  await page.waitForSelector(selector, { timeout: 30000 });
}

/** Every page in both languages, moved between by loads and by the app's own swaps, and the
 * estimator in several states, on `base`; the violations seen on each document. */
async function walk(page, base) {
  const seen = [];
  const offline = base.startsWith('file:');
  const collect = async () => { seen.push(...(await violations(page))); };
  if (offline) await page.goto(`${base}#/en/`);
  for (const lang of ['en', 'zh']) {
    await visit(page, base, `${lang}/`, 'html[data-live] article[data-page=home]');
    // The chapters, each reached by its previous chapter's "next" link (swapped in, or loaded
    // where the bundle changes).
    await visit(page, base, `${lang}/chapters/${slugs[0]}/`, 'html[data-live] article[data-page=chapter]');
    for (const slug of slugs.slice(1)) {
      await page.click('a.next');
      await page.waitForSelector(`html[data-live] article[data-page=chapter][data-slug="${slug}"]`, { timeout: 30000 });
      await collect();
    }
    for (const [path, selector] of [
      [`${lang}/glossary/`, 'article[data-page=glossary]'],
      [`${lang}/validation/`, 'article[data-page=validation]'],
      [`${lang}/lab/bandwidth/`, 'html[data-live] article[data-page=lab] #lab-adapter > *'],
      [`${lang}/tools/`, 'article[data-page=tools]'],
      [`${lang}/plan/`, 'html[data-live] article[data-page=plan]'],
      [`${lang}/print/`, 'article[data-page=print]'],
      // The embed pages need a hosted site: the offline file leaves them out.
      ...(offline ? [] : [
        [`${lang}/embed/`, 'article[data-page=embeds]'],
        [`${lang}/embed/cuda-grid/?theme=dark&n=1000`, 'html[data-live] [data-k=blocks]'],
      ]),
      [`${lang}/chapters/${slugs[2]}/worksheet/`, 'article[data-page=worksheet]'],
      [`${lang}/no-such-page/`, 'article[data-page=not-found]'],
    ]) {
      await visit(page, base, path, selector);
      await collect();
    }
    // The estimator: default, a scenario that does not fit, a hostile pasted config and GPU name.
    await visit(page, base, `${lang}/estimate/`, 'html[data-live] #total-per-gpu');
    await page.click('button[data-preset="70b-fp16"]');
    await page.waitForSelector('.verdict.bad');
    await collect();
    await visit(page, base, `${lang}/`, 'article[data-page=home]');
    await visit(page, base, `${lang}/estimate/?v=1&s=${b64({ model: evilConfig, gpu: evilGpu, batch: 4 })}`, 'html[data-live] #total-per-gpu');
    await page.click('details.paste summary');
    await page.fill('#config-paste', JSON.stringify(evilConfig));
    await page.click('#config-apply');
    await page.setInputFiles('#import-file', {
      name: 'evil.json', mimeType: 'application/json',
      buffer: Buffer.from(JSON.stringify({ model: evilConfig, gpu: evilGpu, [EVIL]: 1 })),
    });
    await page.waitForTimeout(200);
    assert.equal(await page.locator('article img, article script').count(), 0, 'no reader text became an element');
    await collect();
  }
  return [...new Set(seen)];
}

test('no CSP violation on any route, in both languages, on the served site', async () => {
  const page = await watchedPage();
  const seen = await walk(page, server.url);
  assert.deepEqual(seen, []);
  // The not-found page was reached by a request the server answered 404: that is expected.
  page.problems = page.problems.filter((p) => !/status of 404/.test(p));
  await finish(page);
});

test('no CSP violation on any route of the offline file from file://', async () => {
  const page = await watchedPage();
  const seen = await walk(page, `file://${DIST}/gpu-primer-offline.html`);
  assert.deepEqual(seen, []);
  await finish(page);
});

test('every page carries a strict policy: no unsafe-eval, no unsafe-inline, objects and base off', async () => {
  const pages = (dir) => readdirSync(join(DIST, dir), { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? pages(join(dir, e.name)) : e.name.endsWith('.html') ? [join(dir, e.name)] : []);
  const files = pages('');
  assert.ok(files.length > 100, `${files.length} pages`);
  for (const file of files) {
    const html = readFileSync(join(DIST, file), 'utf8');
    const m = html.match(/<meta http-equiv="Content-Security-Policy" content="([^"]+)">/);
    assert.ok(m, `${file} has a CSP meta`);
    const csp = m[1];
    assert.ok(!/'unsafe-eval'|'unsafe-inline'|'unsafe-hashes'/.test(csp), `${file}: ${csp}`);
    for (const d of ["object-src 'none'", "base-uri 'none'", "'wasm-unsafe-eval'", "default-src 'none'"]) {
      assert.ok(csp.includes(d), `${file} lacks ${d}`);
    }
    const script = html.indexOf('<script');
    assert.ok(script === -1 || html.indexOf(m[0]) < script, `${file}: the policy comes before every script`);
    assert.ok(!/\sstyle="/.test(html), `${file}: no style attribute (the policy applies none)`);
  }
});

test('a script the policy does not know is refused', async () => {
  const page = await watchedPage();
  page.problems = [];
  await page.goto(`${server.url}en/`);
  await page.waitForSelector('article[data-page=home]');
  await page.evaluate(() => {
    const s = document.createElement('script');
    s.textContent = 'window.__pwned = 3';
    document.body.append(s);
  });
  await page.waitForFunction(() => window.__csp.length > 0);
  assert.equal(await page.evaluate(() => window.__pwned), undefined, 'the inline script did not run');
  // The refusal is logged as a console error: the only problem allowed here.
  assert.ok(page.problems.every((p) => /Content Security Policy/.test(p)), page.problems.join('\n'));
  await finish(page, page.problems.slice());
});
