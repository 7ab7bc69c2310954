// Screenshots of the built site for eyes (not a test): node tools/screenshot.mjs OUTDIR [WIDTH] PATH...
// PATH is a page's site path (`en/chapters/cuda/`, `zh/estimate/?…`); append `@dark` for the dark
// scheme or `@nojs` for the page as it reads without JavaScript.
import { serve, launch } from '../tests/e2e/harness.mjs';
const [outDir, width, ...paths] = process.argv.slice(2);
const server = await serve();
const browser = await launch();
for (const spec of paths) {
  const [path, mode] = spec.split('@');
  const context = await browser.newContext({
    viewport: { width: Number(width) || 1280, height: 900 },
    colorScheme: mode === 'dark' ? 'dark' : 'light',
    javaScriptEnabled: mode !== 'nojs',
  });
  const page = await context.newPage();
  await page.goto(`${server.url}${path}`);
  if (mode !== 'nojs') await page.waitForSelector('html[data-live]', { timeout: 30000 }).catch(() => {});
  await page.waitForTimeout(300);
  const name = (path.replace(/[^a-z0-9]+/gi, '_').replace(/^_|_$/g, '') || 'root') + (mode ? `-${mode}` : '');
  await page.screenshot({ path: `${outDir}/${name}-${width}.png`, fullPage: false });
  await context.close();
}
await browser.close();
await server.close();
