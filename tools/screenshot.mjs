// Screenshots of the built site for eyes (not a test): node tools/screenshot.mjs OUTDIR [WIDTH] HASH...
import { serve, launch } from '../tests/e2e/harness.mjs';
const [outDir, width, ...hashes] = process.argv.slice(2);
const server = await serve();
const browser = await launch();
for (const hash of hashes) {
  const page = await browser.newPage({ viewport: { width: Number(width) || 1280, height: 900 } });
  await page.goto(`${server.url}${hash}`);
  await page.waitForSelector('article[data-page]');
  await page.waitForTimeout(300);
  const name = hash.replace(/[^a-z0-9]+/gi, '_').replace(/^_|_$/g, '') || 'root';
  await page.screenshot({ path: `${outDir}/${name}-${width}.png`, fullPage: false });
  await page.close();
}
await browser.close();
await server.close();
