// Shrinks the built site's text files without a minifier (none is installed):
// whole-line comments and indentation out of the wasm-bindgen glue, its snippets (the lab's
// driver.js) and the stylesheet. Line breaks are kept, so no statement is joined to another.
// Used by scripts/env.sh build_site after the bundles are built, before the pages are written.
// Usage: node tools/shrink.mjs DIST_DIR
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

console.log(`shrink: ${before} → ${after} characters of JS and CSS`);
