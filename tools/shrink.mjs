// Shrinks the built site's text files without a minifier (none is installed, and trunk's own
// minifier rewrites index.html into a form tools/csp.mjs and tools/single-file.mjs do not read):
// whole-line comments and indentation out of the wasm-bindgen glue, its snippets (the lab's
// driver.js) and the stylesheet; then each `integrity` attribute in index.html is recomputed for
// the file it names. Line breaks are kept, so no statement is joined to another.
// Used by scripts/env.sh build_site after `trunk build`, before tools/csp.mjs.
// Usage: node tools/shrink.mjs DIST_DIR
import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

const dist = process.argv[2];
if (!dist) {
  console.error('usage: node tools/shrink.mjs DIST_DIR');
  process.exit(2);
}

/** JavaScript: `/** … *\/` blocks on lines of their own, `//` lines, indentation, blank lines. */
export function shrinkJs(js) {
  return js
    .replace(/^[ \t]*\/\*\*[\s\S]*?\*\/[ \t]*\n/gm, '')
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l && !l.startsWith('//'))
    .join('\n') + '\n';
}

/** CSS: every `/* … *\/` comment, indentation, blank lines. */
export function shrinkCss(css) {
  return css
    .replace(/\/\*[\s\S]*?\*\//g, '')
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean)
    .join('\n') + '\n';
}

const files = (dir) =>
  readdirSync(join(dist, dir)).flatMap((f) => {
    const rel = dir ? `${dir}/${f}` : f;
    return statSync(join(dist, rel)).isDirectory() ? files(rel) : [rel];
  });

let before = 0, after = 0;
for (const f of files('')) {
  const shrink = /\.js$/.test(f) ? shrinkJs : /\.css$/.test(f) ? shrinkCss : null;
  if (!shrink) continue;
  const text = readFileSync(join(dist, f), 'utf8');
  const out = shrink(text);
  before += text.length;
  after += out.length;
  writeFileSync(join(dist, f), out);
}

const sri = (file) => `sha384-${createHash('sha384').update(readFileSync(join(dist, file))).digest('base64')}`;
const index = join(dist, 'index.html');
const html = readFileSync(index, 'utf8').replace(/<link\b[^>]*>/g, (link) => {
  const href = link.match(/\bhref="\.\/([^"]+)"/);
  return href && /\bintegrity="/.test(link) ? link.replace(/\bintegrity="[^"]*"/, `integrity="${sri(href[1])}"`) : link;
});
writeFileSync(index, html);
console.log(`shrink: ${before} → ${after} characters of JS and CSS; integrity attributes recomputed`);
