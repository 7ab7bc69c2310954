// Shared set-up for the real-browser tests: a static server for dist/ on 127.0.0.1 (optionally
// under a sub-path) and headless Chromium (Debian's, driven by playwright-core) that records
// every console error and uncaught exception of a page.
import { createServer } from 'node:http';
import { readFile, stat } from 'node:fs/promises';
import { extname, join, normalize, resolve } from 'node:path';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { createRequire } from 'node:module';
import assert from 'node:assert/strict';

const require = createRequire(import.meta.url);
const root = resolve(import.meta.dirname, '..', '..');
const { chromium } = require(join(root, 'tools', 'node_modules', 'playwright-core'));

export const DIST = process.env.GPU_PRIMER_DIST || join(root, 'dist');
const TYPES = {
  '.html': 'text/html; charset=utf-8', '.js': 'text/javascript', '.wasm': 'application/wasm',
  '.css': 'text/css', '.svg': 'image/svg+xml', '.json': 'application/json', '.wgsl': 'text/plain',
};

/** Serves `dir` at `http://127.0.0.1:PORT{prefix}` (prefix like "/docs/gpu/"). */
export async function serve(dir = DIST, prefix = '/') {
  const server = createServer(async (req, res) => {
    const url = new URL(req.url, 'http://x');
    if (!url.pathname.startsWith(prefix)) { res.writeHead(404); res.end('outside prefix'); return; }
    let rel = decodeURIComponent(url.pathname.slice(prefix.length)) || 'index.html';
    const file = normalize(join(dir, rel));
    if (!file.startsWith(dir)) { res.writeHead(403); res.end(); return; }
    try {
      const info = await stat(file);
      const path = info.isDirectory() ? join(file, 'index.html') : file;
      const body = await readFile(path);
      // A file named by its content (Trunk's gpu-primer-HASH_bg.wasm, boot-course-HASH.js,
      // style-HASH.css) never changes under its name: cached for good, as a static host serves it,
      // so a test that walks many pages does not fetch and compile the same wasm on each.
      const immutable = /-[0-9a-f]{12,}(_bg)?\.(wasm|js|css)$/.test(path) && process.env.NOCACHE !== '1';
      res.writeHead(200, {
        'content-type': TYPES[extname(path)] || 'application/octet-stream',
        ...(immutable ? { 'cache-control': 'public, max-age=31536000, immutable' } : {}),
      });
      res.end(body);
    } catch {
      // As static hosts do (GitHub Pages, Netlify): the site's own 404.html, status 404.
      const page = await readFile(join(dir, '404.html')).catch(() => 'not found');
      res.writeHead(404, { 'content-type': 'text/html; charset=utf-8' });
      res.end(page);
    }
  });
  await new Promise((ok) => server.listen(0, '127.0.0.1', ok));
  const { port } = server.address();
  return { url: `http://127.0.0.1:${port}${prefix}`, close: () => new Promise((ok) => server.close(ok)) };
}

export const CHROMIUM_ARGS = [
  '--no-sandbox', '--no-first-run', '--disable-background-networking', '--disable-component-update',
  '--disable-sync', '--disable-quic', '--disable-gpu', '--disable-dev-shm-usage',
];

export async function launch(extraArgs = []) {
  return chromium.launch({
    executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
    headless: true,
    args: [...CHROMIUM_ARGS, ...extraArgs],
  });
}

/** Chromium with WebGPU on (its software adapter, SwiftShader, on a machine without a GPU). */
export async function launchWebGpu() {
  return chromium.launch({
    executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
    headless: true,
    args: [...CHROMIUM_ARGS.filter((a) => a !== '--disable-gpu'), '--enable-unsafe-webgpu'],
  });
}

/**
 * How long a script run in a page may take before the test gives up on it. Playwright bounds its
 * navigations and waits but not `page.evaluate`: a script whose promise never settles hangs the
 * test, and with it the CI run (seen in the every-page walk under CI load: `readDown` never
 * returned, no CPU, no output, until CI's limit or a kill). The longest script the tests run
 * (axe on the planner at 390 px) takes a few seconds.
 */
export const SCRIPT_LIMIT_MS = 60000;

/** `promise`, or an error naming `what` once `ms` have passed without it settling. */
export function bounded(promise, ms, what) {
  let timer;
  const late = new Promise((_, fail) => {
    timer = setTimeout(() => fail(new Error(`${what} did not settle within ${ms / 1000} s`)), ms);
  });
  return Promise.race([promise, late]).finally(() => clearTimeout(timer));
}

/** A page that collects console errors and page errors into `page.problems`. */
export async function newPage(browser, options = {}) {
  const context = await browser.newContext({ ...options });
  const page = await context.newPage();
  const evaluate = page.evaluate.bind(page);
  page.evaluate = (script, arg) => bounded(evaluate(script, arg), SCRIPT_LIMIT_MS, 'page.evaluate');
  page.problems = [];
  page.on('console', (msg) => { if (msg.type() === 'error') page.problems.push(`console: ${msg.text()}`); });
  page.on('pageerror', (err) => page.problems.push(`pageerror: ${err.message}`));
  // Every page is in the HTML before the app has mounted into it: a test that goes to a page
  // waits for the app (`data-live`), as a reader's first click would land after it. Pages
  // without the app (the root page, which moves on at once, the print and 404 pages) do not.
  if (options.javaScriptEnabled !== false) {
    const goto = page.goto.bind(page);
    page.goto = async (url, opts) => {
      const response = await goto(url, opts);
      if (!/^about:/.test(url)) {
        await page.waitForFunction(() => {
          const html = document.documentElement;
          const app = !!document.querySelector('script[type=module]');
          return html.hasAttribute('data-live') || (!app && html.dataset.page && html.dataset.page !== 'root');
        }, null, { timeout: 30000 });
      }
      return response;
    };
  }
  page.on('requestfailed', (r) => {
    // A document whose load a newer navigation replaced (the root page's script moving an old
    // link on to its page) is aborted by design, and so is the app's fetch of a page's HTML that
    // a test's next `goto` overtakes (`/en/ net::ERR_ABORTED` under CI load, in the CSP and the
    // old-addresses tests): the browser abandoned them; nothing failed.
    const abandoned = ['document', 'fetch'].includes(r.resourceType());
    if (abandoned && r.failure()?.errorText === 'net::ERR_ABORTED') return;
    page.problems.push(`requestfailed: ${r.url()} ${r.failure()?.errorText}`);
  });
  return page;
}

/**
 * Ends a test with its page: asserts that the page logged no console error, threw no uncaught
 * exception and had no failed request (or exactly the `expected` ones, for a test that provokes
 * an error on purpose), then closes the page's context. Every test ends this way.
 */
export async function finish(page, expected = []) {
  assert.deepEqual(page.problems, expected, 'console errors, page errors and failed requests');
  await bounded(page.context().close(), SCRIPT_LIMIT_MS, 'closing the page');
}

/** Waits until the app has started on the page shown and mounted its live parts (`data-live` on
 * `<html>`; cleared while another page is swapped in). Widgets and figures are mounted as they
 * near the viewport: `live(page, selector)` waits for one. */
export async function waitForApp(page) {
  await page.waitForSelector('html[data-live] article[data-page], html[data-live] main [data-page]', { timeout: 20000, state: 'attached' });
}

/** Scrolls to the slot `selector` (a `[data-mount]` element, or something inside one) and waits
 * until the app has mounted its live component there. Returns the slot's locator. */
export async function live(page, selector) {
  await waitForApp(page);
  const slot = page.locator(selector).first().locator('xpath=ancestor-or-self::*[@data-mount][1]');
  await slot.scrollIntoViewIfNeeded();
  await page.waitForFunction((el) => el.hasAttribute('data-live'), await slot.elementHandle(), { timeout: 20000 });
  return slot;
}

/**
 * Opens a show-the-math `details` (a locator) and returns its text once it matches `want`. A
 * click right after the numbers settle can leave the details closed: a redraw of its row or panel
 * that lands after the click draws it afresh, closed (seen under CI load in the hybrid-config,
 * offload and load tests). So the summary is clicked again while the text has not appeared, and
 * never while the details is open (a second click would close it); at most 3 s.
 */
export async function openMath(page, details, want) {
  for (let i = 0; i < 30; i++) {
    if (!(await details.evaluate((d) => d.open))) await details.locator('summary').first().click();
    const text = await details.innerText();
    if (want.test(text)) return text;
    await page.waitForTimeout(100);
  }
  return details.innerText();
}

/** The page at site path `path` (`en/chapters/cuda/`, with any `?query` or `#fragment`). */
export function at(server, path) {
  return `${server.url}${path}`;
}
