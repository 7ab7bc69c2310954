// Shrinks the built site's text files without a minifier (none is installed):
// whole-line comments and indentation out of the wasm-bindgen glue, its snippets (the lab's
// driver.js) and the stylesheet. Line breaks are kept, so no statement is joined to another.
// Then each bundle's wasm and glue get short import names (`shortImports`), and the wasm loses
// the custom sections no browser reads.
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

// --- Short import names -------------------------------------------------------------------------
// wasm-bindgen names each function the wasm imports from its glue `__wbg_NAME_HASH` (16 hex
// digits, one name per import, about 190 in a bundle): once in the wasm's import section, once as
// a key of the glue's import object. The hashes do not compress; renamed `a`, `b`, … `$`, `aa`, …
// in both, they took 5.8 KB off the course bundle's gzip (wasm 3.4 KB, glue 2.4 KB; 2026-12-06).
// Only wasm-bindgen's names (`__wb…`) of the glue's own module (`./NAME_bg.js`) are renamed, and
// only one that stands exactly once as a key in the glue (so a second run changes nothing); the
// snippets' imports (the lab's driver) keep their exported names.

function leb(b, i) {
  let r = 0, s = 0;
  for (;;) {
    const x = b[i++];
    r += (x & 0x7f) * 2 ** s;
    s += 7;
    if (x < 0x80) return [r, i];
  }
}
function uleb(n) {
  const out = [];
  do {
    let x = n % 128;
    n = Math.floor(n / 128);
    if (n) x |= 0x80;
    out.push(x);
  } while (n);
  return Buffer.from(out);
}
const wasmName = (s) => {
  const b = Buffer.from(s, 'utf8');
  return Buffer.concat([uleb(b.length), b]);
};
/** The `n`th short name, a JavaScript identifier (a key `1e:` would not parse): `a` … `$`, then
 * `aa`, `ba`, …. */
const FIRST = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ_$';
const REST = `${FIRST}0123456789`;
function shortName(n) {
  let name = FIRST[n % FIRST.length];
  for (n = Math.floor(n / FIRST.length); n > 0; n = Math.floor((n - 1) / REST.length)) name += REST[(n - 1) % REST.length];
  return name;
}
const escapeRe = (s) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** The wasm and its glue with the glue module's import names shortened; checked: every renamed
 * key stood once in the glue, and the wasm's other sections are byte for byte as they were. */
export function shortImports(wasm, glue) {
  if (wasm.readUInt32LE(0) !== 0x6d736100) throw new Error('not a wasm module');
  const parts = [wasm.subarray(0, 8)];
  let renamed = 0, next = 0;
  for (let i = 8; i < wasm.length;) {
    const id = wasm[i];
    const [size, start] = leb(wasm, i + 1);
    const end = start + size;
    if (id === 0) {
      // Custom sections no browser reads: the toolchain's names and target features (read by
      // wasm-bindgen before, not after) and Rust's wasm-split marker.
      const [n, at] = leb(wasm, start);
      const custom = wasm.subarray(at, at + n).toString('utf8');
      if (!['producers', 'target_features', '__wasm_split_unstable'].includes(custom)) parts.push(wasm.subarray(i, end));
      i = end;
      continue;
    }
    if (id !== 2) {
      parts.push(wasm.subarray(i, end));
      i = end;
      continue;
    }
    let [count, k] = leb(wasm, start);
    const entries = [];
    for (let e = 0; e < count; e++) {
      let n;
      [n, k] = leb(wasm, k);
      const module = wasm.subarray(k, k + n).toString('utf8');
      k += n;
      [n, k] = leb(wasm, k);
      const field = wasm.subarray(k, k + n).toString('utf8');
      k += n;
      // The import's kind and type: function (a type index), table, memory, global, tag.
      const desc = k;
      const kind = wasm[k++];
      if (kind === 0 || kind === 4) {
        if (kind === 4) k++;
        [, k] = leb(wasm, k);
      } else if (kind === 1 || kind === 2) {
        if (kind === 1) k++;
        const flags = wasm[k++];
        [, k] = leb(wasm, k);
        if (flags & 1) [, k] = leb(wasm, k);
      } else if (kind === 3) {
        k += 2;
      } else {
        throw new Error(`import ${field}: kind ${kind}`);
      }
      let name = field;
      if (/^\.\/[\w-]+_bg\.js$/.test(module) && /^__wb/.test(field)) {
        const key = new RegExp(`^([ \t]*)${escapeRe(field)}:`, 'gm');
        if ((glue.match(key) || []).length === 1) {
          // A name the glue has as a key already (a glue shrunk before) is passed over.
          do name = shortName(next++);
          while (new RegExp(`^[ \t]*${escapeRe(name)}:`, 'm').test(glue));
          glue = glue.replace(key, `$1${name}:`);
          renamed++;
        }
      }
      entries.push(Buffer.concat([wasmName(module), wasmName(name), wasm.subarray(desc, k)]));
    }
    if (k !== end) throw new Error('the import section was not read to its end');
    const body = Buffer.concat([uleb(count), ...entries]);
    parts.push(Buffer.from([2]), uleb(body.length), body);
    i = end;
  }
  return { wasm: Buffer.concat(parts), glue, renamed };
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

// Each Trunk build's glue and wasm, side by side (`NAME-HASH.js`, `NAME-HASH_bg.wasm`).
let wasmBefore = 0, wasmAfter = 0;
for (const f of files('').filter((f) => /_bg\.wasm$/.test(f))) {
  const dir = f.includes('/') ? f.slice(0, f.lastIndexOf('/') + 1) : '';
  const glues = files(dir.replace(/\/$/, '')).filter((g) => !g.slice(dir.length).includes('/') && /\.js$/.test(g))
    .filter((g) => readFileSync(join(dist, g), 'utf8').includes('function __wbg_get_imports'));
  if (glues.length !== 1) throw new Error(`${f}: ${glues.length} glue files beside it`);
  const wasm = readFileSync(join(dist, f));
  const out = shortImports(wasm, readFileSync(join(dist, glues[0]), 'utf8'));
  wasmBefore += wasm.length;
  wasmAfter += out.wasm.length;
  writeFileSync(join(dist, f), out.wasm);
  writeFileSync(join(dist, glues[0]), out.glue);
}

console.log(`shrink: ${before} → ${after} characters of JS and CSS; wasm ${wasmBefore} → ${wasmAfter} bytes with short import names`);
