// Words and numbers on the Chinese pages, as a reader sees them (issue 25): one term per concept
// (content/terminology.json), full-width punctuation after Chinese text, and no internal research
// notes on any page in either language. Every <details> is opened first, so show-the-math and
// source lists are read too; code, formulas' argument lists and source text quoted as written
// ([data-source], lang="en") are left out.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { serve, launch, newPage, finish } from './harness.mjs';

let server, browser;
before(async () => { server = await serve(); browser = await launch(); });
after(async () => { await browser?.close(); await server?.close(); });

const TERMS = JSON.parse(readFileSync(join(import.meta.dirname, '..', '..', 'content', 'terminology.json'), 'utf8')).terms;
const RESEARCH = ['UNVERIFIED', 'not found in any source', 'Spanish edition', 'retrieved_at', 'secondary copy', 'code-search id', 'code index id', 'Provenance'];
const PAGES = [
  'estimate/', 'plan/', 'tools/', 'tools/mig/', 'tools/cloud/', 'tools/diagnose/', 'tools/cluster/', 'lab/bandwidth/',
  'glossary/', 'validation/',
  ...['introduction', 'memory-capacity', 'memory-bandwidth', 'cuda', 'tensor-cores', 'reading-spec-sheets', 'nvlink', 'mig',
    'cloud-gpus', 'training-finetuning-inference', 'bottlenecks', 'learning-path', 'capacity-estimation', 'gpu-clusters',
    'sharing-gpus'].map((s) => `chapters/${s}/`),
];

/** The page's reader text with every <details> open, without code, quoted sources or English. */
async function readerText(page) {
  await page.evaluate(() => {
    document.querySelectorAll('details').forEach((d) => { d.open = true; });
    // Through the CSSOM: the pages' Content-Security-Policy refuses an injected <style>.
    document.querySelectorAll('code, pre, kbd, svg, textarea, [data-source], [lang="en"]')
      .forEach((el) => el.style.setProperty('display', 'none', 'important'));
  });
  await page.waitForTimeout(100);
  return page.locator('main').innerText();
}

function withoutFormulaArguments(text) {
  return text.replace(/\b(min|max|ceil)\([^)]*\)/g, '$1()');
}

for (const width of [1280, 390]) {
  test(`zh pages at ${width} px: one term per concept, full-width punctuation, no research notes`, async () => {
    const page = await newPage(browser, { viewport: { width, height: 900 }, colorScheme: width === 390 ? 'dark' : 'light' });
    const problems = [];
    for (const path of width === 390 ? PAGES.slice(0, 10) : PAGES) {
      await page.goto(`${server.url}zh/${path}`);
      const text = await readerText(page);
      for (const t of TERMS) {
        let scan = text;
        for (const e of t.except ?? []) scan = scan.split(e).join('');
        for (const avoid of t.avoid) {
          const at = scan.indexOf(avoid);
          if (at >= 0) problems.push(`zh/${path}: '${avoid}' (say '${t.zh}') in “${scan.slice(Math.max(0, at - 20), at + 20)}”`);
        }
      }
      const prose = withoutFormulaArguments(text);
      for (const m of prose.matchAll(/[\u4e00-\u9fff][?:;!,]|,[\u4e00-\u9fff]/g)) {
        problems.push(`zh/${path}: half-width '${m[0]}' in “${prose.slice(Math.max(0, m.index - 15), m.index + 15)}”`);
      }
      for (const r of RESEARCH) if (text.includes(r)) problems.push(`zh/${path}: research note '${r}'`);
    }
    assert.deepEqual(problems, []);
    await finish(page);
  });
}

test('en pages: no research notes, and source lines carry their dates', async () => {
  const page = await newPage(browser);
  const problems = [];
  for (const path of PAGES.slice(0, 8)) {
    await page.goto(`${server.url}en/${path}`);
    await page.evaluate(() => document.querySelectorAll('details').forEach((d) => { d.open = true; }));
    const text = await page.locator('main').innerText();
    for (const r of RESEARCH) if (text.includes(r)) problems.push(`en/${path}: '${r}'`);
  }
  assert.deepEqual(problems, []);
  // The estimator's GPU line: a citation and a date.
  await page.goto(`${server.url}en/estimate/`);
  const gpu = await page.locator('#gpu-facts').innerText();
  assert.match(gpu, /NVIDIA .* · \d{4}-\d{2}-\d{2}/, gpu);
  assert.ok(!/\[[A-Z0-9-]{2,}\]/.test(gpu), gpu);
  await finish(page);
});

test('chapter and tool agree: chapter 13\'s takeaway gives the estimator\'s fewest H100s for 70B × 32 × 8K, in both languages', async () => {
  const page = await newPage(browser);
  const b64 = (o) => Buffer.from(JSON.stringify(o)).toString('base64url');
  const base = { model: 'llama-3.1-70b', context_tokens: 8192, batch: 32, gpu: 'h100-sxm' };
  const fewest = [];
  for (const extra of [{}, { weight_dtype: 'fp8' }, { weight_dtype: 'fp8', kv_dtype: 'fp8' }]) {
    await page.goto(`${server.url}en/estimate/?v=1&s=${b64({ ...base, ...extra })}`);
    await page.waitForSelector('#min-gpus');
    fewest.push(Number((await page.locator('#min-gpus').innerText()).match(/^\d+/)[0]));
  }
  assert.ok(fewest[1] > fewest[2], `FP8 weights alone (BF16 KV cache, the default) need more than FP8 weights and KV: ${fewest}`);
  for (const [lang, heading] of [['en', 'Takeaways'], ['zh', '要点']]) {
    await page.goto(`${server.url}${lang}/chapters/capacity-estimation/`);
    const line = await page.evaluate((h) => {
      const head = [...document.querySelectorAll('h2')].find((e) => e.textContent.trim() === h);
      return [...head.nextElementSibling.querySelectorAll('li')].map((li) => li.innerText).find((t) => t.includes('70B'));
    }, heading);
    const counts = line.replace(/H100/g, '').match(/\d+/g).map(Number).filter((n) => ![70, 32, 8, 16].includes(n));
    assert.deepEqual(counts, fewest, `${lang}: ${line}`);
  }
  await finish(page);
});
