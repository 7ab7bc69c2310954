// Turns the built dist/ into ONE self-contained HTML file that works from file:// (classrooms,
// onboarding courses, reading on a plane), with every page of the site in it:
//   - the pages (each language's home, chapters, sheets, the whole course, glossary, tools,
//     estimator, planner, lab, validation, 404) and the search indexes go into one store, a JSON
//     object by site path, gzipped and written as text (`pack`); the app reads a page from it
//     (`gpuPrimerOffline.page(path)`, decompressed once with the browser's DecompressionStream,
//     then its long repeats put back: `expand`, see `longRange`)
//     instead of fetching it, and routes by the hash (`#/en/chapters/cuda/`), so each page's links
//     are rewritten into that form;
//   - the stylesheet is inlined as <style>;
//   - the wasm-bindgen glue (an ES module) is inlined into a <script type="module"> with its
//     `export` keywords removed, because a file:// page may not import a sibling .js file; the
//     snippets it imports (the lab's WebGPU driver) are inlined into it the same way;
//   - the wasm is gzipped, embedded as text (13 bits to two characters, see `pack`), decompressed the same way and handed to the async
//     init as bytes (`init({ module_or_path: bytes })`; initSync is avoided: Chromium refuses large
//     synchronous compiles on the main thread);
//   - the Content-Security-Policy (tools/csp.mjs) is written for the final inline script and
//     styles, by their sha256 hashes: nothing inline runs or applies unless it is this file's own.
// Usage: node tools/single-file.mjs DIST_DIR OUTPUT.html APP_DIR
//   (APP_DIR: where scripts/env.sh build_site had Trunk build the bundle with everything:
//   gpu-primer-HASH.js, its _bg.wasm and snippets/.)
import { readFileSync, writeFileSync, readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { gzipAsync } from '@gfx/zopfli';
import { withCsp } from './csp.mjs';

const [dist, output, appDir] = process.argv.slice(2);
if (!dist || !output || !appDir) {
  console.error('usage: node tools/single-file.mjs DIST_DIR OUTPUT.html APP_DIR');
  process.exit(2);
}
const fail = (msg) => { console.error(`single-file: ${msg}`); process.exit(1); };
/** The pages' item that links the offline file (site/frame.rs `course_files`), hidden until
 * this script has written the file and its size into it (and shown after, when run again). */
const OFFLINE_ITEM = /<li class="offline"(?: hidden)?>[\s\S]*?<\/li>/g;

const files = readdirSync(dist);
const appFiles = readdirSync(appDir);
// Trunk's index.html names the build's glue and wasm (each hashed by its own content).
const frame = appFiles.includes('index.html') ? readFileSync(join(appDir, 'index.html'), 'utf8') : '';
const named = (re) => (frame.match(re) || [])[1];
const wasmName = named(/['"]\.?\/?([^'"\/\s]+_bg\.wasm)['"]/);
const glueName = named(/from ['"]\.?\/?([^'"\/\s]+\.js)['"]/);
const cssName = files.find((f) => /^style-.*\.css$/.test(f));
if (!glueName || !wasmName) fail(`no Trunk build in ${appDir} (its index.html naming the glue and the _bg.wasm): build the site first`);
if (!cssName) fail(`no style-*.css in ${dist}: build the site first`);
if (!files.includes('index.html')) fail(`no index.html in ${dist}: run gpu-primer site first`);

// The glue, with its snippet imports inlined: `import { a, b as c } from './snippets/…/x.js'` and
// `import * as x from "./snippets/…/x.js"`: each file is inlined once as a function scope
// returning its exports, and the imports read from that object.
let glue = readFileSync(join(appDir, glueName), 'utf8');
const snippets = new Map();
const snippet = (path) => {
  if (!snippets.has(path)) {
    const code = readFileSync(join(appDir, path), 'utf8');
    if (/^\s*import\s/m.test(code)) fail(`${path} imports other modules: extend this script to inline them`);
    const names = [...code.matchAll(/^export (?:async function|function|const|let|class) (\w+)/gm)].map((m) => m[1]);
    const body = code.replace(/^export (async function|function|const|let|class) /gm, '$1 ');
    if (/^export /m.test(body)) fail(`${path} has an export form this script does not know`);
    snippets.set(path, { id: `__snippet${snippets.size}`, body, names });
  }
  return snippets.get(path).id;
};
glue = glue
  .replace(/^import \{([^}]*)\} from ['"]\.\/(snippets\/[^'"]+\.js)['"];?[ \t]*$/gm, (_, names, path) => {
    const bindings = names.split(',').map((n) => n.trim()).filter(Boolean).map((n) => n.replace(/\s+as\s+/, ': '));
    return `const { ${bindings.join(', ')} } = ${snippet(path)};`;
  })
  .replace(/^import \* as (\w+) from ['"]\.\/(snippets\/[^'"]+\.js)['"];?[ \t]*$/gm, (_, name, path) => `const ${name} = ${snippet(path)};`);
glue = [...snippets.values()]
  .map(({ id, body, names }) => `const ${id} = (() => {\n${body}\nreturn { ${names.join(', ')} };\n})();\n`)
  .join('') + glue;
if (/^\s*import\s/m.test(glue)) fail(`${glueName} imports other modules this script does not know`);
glue = glue
  .replace(/^export \{[^}]*\};?\s*$/gm, '')
  .replace(/^export (class|function|const|let|async function) /gm, '$1 ');
if (/^export /m.test(glue)) fail(`${glueName} has an export form this script does not know`);
if (!/function __wbg_init\b|async function __wbg_init\b/.test(glue)) fail(`${glueName} has no __wbg_init`);

const css = readFileSync(join(dist, cssName), 'utf8');

// Every page of the site by its site path (`en/chapters/cuda/`, `404.html`), and the search
// indexes. The embed pages are left out: they exist to be framed by another site.
const htmlFiles = (dir) => readdirSync(dir).flatMap((f) => {
  const p = join(dir, f);
  return statSync(p).isDirectory() ? htmlFiles(p) : /\.html$/.test(f) ? [p] : [];
});
const store = {};
for (const file of htmlFiles(dist)) {
  const rel = relative(dist, file).replaceAll('\\', '/');
  if (rel === 'index.html' || /\/embed\//.test(rel) || rel === output.split('/').pop()) continue;
  const path = rel === '404.html' ? rel : rel.replace(/index\.html$/, '');
  store[path] = offlinePage(readFileSync(file, 'utf8'), path);
}
for (const lang of ['zh', 'en']) {
  store[`${lang}/search-index.json`] = readFileSync(join(dist, lang, 'search-index.json'), 'utf8');
  store[`${lang}/print/`] = printRecipe(store[`${lang}/print/`], lang);
}

// A glossary term's definition follows its first use in every chapter (site/chapter.rs): the
// store keeps each definition once per language (`{lang}/term-tips`) and the pages' tooltips
// empty, filled in when a page is asked for (`fillTips`, the same function here and in the file).
const TIP = /(#term-([a-z0-9-]+)" aria-describedby="[^"]*">[^<]*<\/a><span class="term-tip" role="tooltip" id="[^"]*">)([\s\S]*?)(<\/span><\/span>)/g;
function fillTips(page, tips) {
  return tips ? page.replace(TIP, (whole, open, id, text, close) => (text || !(id in tips) ? whole : open + tips[id] + close)) : page;
}
for (const lang of ['zh', 'en']) {
  const tips = {};
  for (const [path, page] of Object.entries(store)) {
    if (!path.startsWith(`${lang}/`) || !path.endsWith('/')) continue;
    store[path] = page.replace(TIP, (whole, open, id, text, close) => {
      if (tips[id] !== undefined && tips[id] !== text) fail(`${path}: two definitions of ${id}`);
      tips[id] = text;
      return open + close;
    });
    if (fillTips(store[path], tips) !== page) fail(`${path}: its definitions do not come back as they were`);
  }
  store[`${lang}/term-tips`] = tips;
}

// The whole course on one page repeats every chapter: in the store each chapter's part of it is
// a marker that the page is put together from when asked (`composeChapter`, the same function
// here and in the file, checked here against the page the site wrote: where the two differ the
// page is stored as it is).
function composeChapter(chapterPage, slug, lang) {
  const start = chapterPage.indexOf('</h1>') + '</h1>'.length;
  const end = chapterPage.lastIndexOf('<nav class="pager"');
  return chapterPage.slice(start, end)
    .replaceAll(' id="s-', ` id="${slug}-s-`)
    .replace(/href="#\/(zh|en)\/chapters\/([a-z0-9-]+)\/(?:#([^"]*))?"/g, (whole, l, s, f) =>
      l !== lang ? whole : `href="#/${lang}/print/#${!f ? s : f.startsWith('s-') ? `${s}-${f}` : f}"`);
}
function printRecipe(page, lang) {
  const heads = [...page.matchAll(/<section class="print-chapter chapter" id="([a-z0-9-]+)"(?: data-number="\d+")?><p class="eyebrow">[^<]*<\/p><h1>[^<]*<\/h1>/g)];
  // A chapter whose heading this pattern misses would be stored whole without a word (the
  // print page's chapter numbers did that once: 300 KB more in the file).
  const sections = (page.match(/<section class="print-chapter\b/g) || []).length;
  if (heads.length !== sections) fail(`${lang}/print/: ${heads.length} of ${sections} chapters' headings read; the pattern is out of date`);
  let out = '', at = 0;
  for (const [i, m] of heads.entries()) {
    const bodyStart = m.index + m[0].length;
    const next = heads[i + 1]?.index ?? page.lastIndexOf('</article>');
    const bodyEnd = page.lastIndexOf('</section>', next);
    const chapter = store[`${lang}/chapters/${m[1]}/`];
    if (!chapter || composeChapter(chapter, m[1], lang) !== page.slice(bodyStart, bodyEnd)) {
      console.warn(`single-file: ${lang}/print/: chapter ${m[1]} does not compose; the page is stored whole`);
      return page;
    }
    out += page.slice(at, bodyStart) + `<!--compose:${m[1]}-->`;
    at = bodyEnd;
  }
  return out + page.slice(at);
}

/** A page as the store keeps it: what the app swaps in (the `<html>` attributes, the title, the
 * description, its `data-s` styles and the body), with its links in the hash form. */
function offlinePage(html, path) {
  const open = html.match(/<html\b[^>]*>/)?.[0];
  const title = html.match(/<title>[\s\S]*?<\/title>/)?.[0] ?? '';
  const description = html.match(/<meta name="description"[^>]*>/)?.[0] ?? '';
  const head = (html.match(/<head>[\s\S]*?<\/head>/)?.[0] ?? '').replace(/<noscript>[\s\S]*?<\/noscript>/g, '');
  // The file has the stylesheet once; a page that inlines it (404.html, which may be served at
  // any depth) keeps only its own rules.
  const styles = (head.match(/<style>[\s\S]*?<\/style>/g) ?? [])
    .filter((tag) => tag.slice('<style>'.length, -'</style>'.length).trim() !== css.trim())
    .join('');
  // Not kept: the link to this very file (the reader is in it), and the inline scripts of a
  // body (404.html's, which finds the site's root on a host: the store's links need none).
  const body = html.match(/<body\b[\s\S]*<\/body>/)?.[0]
    ?.replace(OFFLINE_ITEM, '')
    .replace(/<script>[\s\S]*?<\/script>/g, '');
  if (!open || !body) fail(`${path}: not a page of the site`);
  return `<!doctype html>${open}<head>${title}${description}${styles}</head>${hashLinks(body, path)}</html>`;
}

/** `href`s that lead into the site, in the hash form the offline file routes by. */
function hashLinks(html, path) {
  const base = new URL(path, 'http://site/');
  return html.replace(/\bhref="([^"]*)"/g, (whole, href) => {
    if (/^[a-z]+:/i.test(href) || href.startsWith('#/')) return whole;
    const url = new URL(href.replaceAll('&amp;', '&'), base);
    if (url.origin !== base.origin) return whole;
    const target = url.pathname.replace(/^\//, '').replace(/index\.html$/, '');
    return `href="#/${target}${url.search}${url.hash}"`.replaceAll('&', '&amp;');
  });
}

// The gzipped store and wasm are written as text 13 bits to two characters (91² = 8,281 ≥ 2¹³)
// from 91 printable ASCII characters that may stand in a double-quoted string inside a <script>
// (no `"`, `\`, `<` or space): 16/13 = 1.23 characters a byte, where base64 takes 4/3. The
// decoder is `unpack`, the same function here (checked on every write) and in the file.
const ALPHABET = Array.from({ length: 95 }, (_, i) => String.fromCharCode(32 + i))
  .filter((c) => !' "\\<'.includes(c)).join('');
if (ALPHABET.length !== 91) fail(`alphabet of ${ALPHABET.length}`);
function pack(bytes) {
  let out = '', acc = 0, bits = 0;
  const put = (v) => { out += ALPHABET[v % 91] + ALPHABET[Math.floor(v / 91)]; };
  for (const byte of bytes) {
    acc |= byte << bits;
    bits += 8;
    if (bits >= 13) { put(acc & 8191); acc >>>= 13; bits -= 13; }
  }
  if (bits > 0) put(acc);
  return out;
}
function unpack(text, length, alphabet) {
  const digit = new Uint8Array(128);
  for (let i = 0; i < alphabet.length; i++) digit[alphabet.charCodeAt(i)] = i;
  const out = new Uint8Array(length);
  let acc = 0, bits = 0, o = 0;
  for (let i = 0; o < length; i += 2) {
    acc |= (digit[text.charCodeAt(i)] + 91 * digit[text.charCodeAt(i + 1)]) << bits;
    bits += 13;
    while (bits >= 8 && o < length) { out[o++] = acc & 255; acc >>>= 8; bits -= 8; }
  }
  return out;
}
// The gzip is Zopfli's (tools/package.json: @gfx/zopfli), which any gzip reader reads
// (DecompressionStream here): an optimal parse of the same format, about 5% smaller than zlib's
// level 9 (measured on the full bundle's wasm and the store, 2026-12-06: about 60 KB less in the
// file), for about 15 s more of build time.
const packGz = async (bytes) => {
  const gz = Buffer.from(await gzipAsync(bytes, { numiterations: 5 }));
  if (!gunzipSync(gz).equals(Buffer.from(bytes))) fail('the gzipped bytes do not inflate back');
  const text = pack(gz);
  if (!Buffer.from(unpack(text, gz.length, ALPHABET)).equals(gz)) fail('the packed bytes do not unpack');
  return { text, length: gz.length };
};
// A page as the file hands it to the app: its chapters composed (the whole course), its shared
// blocks put back, its definitions filled. The same function here and in the file.
function pageOf(p, path) {
  const page = p[path] ?? p['404.html'] ?? null;
  const lang = path.slice(0, 2);
  return page && fillTips(page
    .replace(/<!--compose:([a-z0-9-]+)-->/g, (_, slug) => composeChapter(p[`${lang}/chapters/${slug}/`] ?? '', slug, lang))
    .replace(/<!--block:([0-9]+)-->/g, (_, i) => p.blocks[Number(i)]), p[`${lang}/term-tips`]);
}

// A large table, chart or widget that several pages show alike (What runs on my machine in
// chapter 2 and on its own page; the estimator's charts in the chapters) is stored once, in
// `blocks`, and each page keeps a marker: gzip only finds repeats within 32 KB.
const pagePaths = Object.keys(store).filter((k) => k.endsWith('/') || k.endsWith('.html'));
const whole = Object.fromEntries(pagePaths.map((k) => [k, pageOf(store, k)]));
const candidates = new Map();
for (const k of pagePaths) {
  for (const tag of ['aside', 'table', 'svg']) {
    for (const [m] of store[k].matchAll(new RegExp(`<${tag}\\b[\\s\\S]*?</${tag}>`, 'g'))) {
      if (m.length >= 2000) candidates.set(m, (candidates.get(m) ?? 0) + 1);
    }
  }
}
store.blocks = [];
for (const [block, n] of [...candidates].sort((a, b) => b[0].length - a[0].length)) {
  if (n < 2 || block.includes('<!--block:')) continue;
  const marker = `<!--block:${store.blocks.length}-->`;
  let used = 0;
  for (const k of pagePaths) {
    const parts = store[k].split(block);
    if (parts.length > 1) { store[k] = parts.join(marker); used += parts.length - 1; }
  }
  if (used > 0) store.blocks.push(block);
}
for (const k of pagePaths) {
  if (pageOf(store, k) !== whole[k]) fail(`${k}: its shared blocks do not come back as they were`);
}

// gzip finds repeats only within 32 KB; the store repeats much across pages further apart (the
// two languages' markup, the shared chrome, the chapters and their sheets). `longRange` replaces
// each run of 32 bytes or more seen earlier, anywhere, by `\x01DISTANCE,LENGTH\x02` (base 36;
// a JSON text has no raw control characters, so the two bytes mark nothing else) before gzip;
// `expand`, the same function here (checked on every write) and in the file, puts them back.
// Measured on the store of 2026-12-05: 4.6 MB, gzip -9 849 KB, with this first 436 KB.
const MARK = 1, END = 2, RUN = 32;
function longRange(bytes) {
  if (bytes.includes(MARK) || bytes.includes(END)) fail('the store has a raw control character');
  const last = new Map();
  const hash = (i) => {
    let h = 0;
    for (let j = 0; j < RUN; j++) h = (Math.imul(h, 31) + bytes[i + j]) | 0;
    return h;
  };
  const parts = [];
  let i = 0, literal = 0;
  while (i + RUN <= bytes.length) {
    const h = hash(i);
    const p = last.get(h);
    let n = 0;
    // A copy never overlaps what it writes (n ≤ i - p), so `copyWithin` copies it as it is.
    if (p !== undefined) while (i + n < bytes.length && p + n < i && bytes[p + n] === bytes[i + n]) n++;
    if (n >= RUN) {
      parts.push(bytes.subarray(literal, i), Buffer.from(`\x01${(i - p).toString(36)},${n.toString(36)}\x02`, 'latin1'));
      for (let j = i; j < i + n && j + RUN <= bytes.length; j++) last.set(hash(j), j);
      i += n;
      literal = i;
    } else {
      last.set(h, i);
      i++;
    }
  }
  parts.push(bytes.subarray(literal));
  return Buffer.concat(parts);
}
function expand(bytes, length) {
  const out = new Uint8Array(length);
  let o = 0;
  for (let i = 0; i < bytes.length;) {
    if (bytes[i] === 1) {
      const end = bytes.indexOf(2, i);
      const [distance, n] = String.fromCharCode(...bytes.subarray(i + 1, end)).split(',').map((x) => parseInt(x, 36));
      out.copyWithin(o, o - distance, o - distance + n);
      o += n;
      i = end + 1;
    } else {
      const next = bytes.indexOf(1, i);
      const end = next < 0 ? bytes.length : next;
      out.set(bytes.subarray(i, end), o);
      o += end - i;
      i = end;
    }
  }
  return out;
}
const storeBytes = Buffer.from(JSON.stringify(store), 'utf8');
const storeShort = longRange(storeBytes);
if (!Buffer.from(expand(storeShort, storeBytes.length)).equals(storeBytes)) fail('the store does not expand back');
const [pagesPacked, wasmPacked] = [await packGz(storeShort), await packGz(readFileSync(join(appDir, wasmName)))];

// The first screen: the root page (both languages' names); the shim below moves a bare open to
// the reader's language at once, and the app swaps that page in from the store.
const root = readFileSync(join(dist, 'index.html'), 'utf8');
const rootBody = hashLinks(root.match(/<body\b[\s\S]*<\/body>/)?.[0] ?? fail('index.html has no body'), '');
const rootTitle = root.match(/<title>[\s\S]*?<\/title>/)?.[0] ?? '<title>GPU Primer</title>';

const shim = `const unpack = ${unpack.toString()};
const inflate = async (text, length) => {
  const bytes = unpack(text, length, ${JSON.stringify(ALPHABET)});
  const stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream('gzip'));
  return new Uint8Array(await new Response(stream).arrayBuffer());
};
const expand = ${expand.toString()};
const pages = inflate("${pagesPacked.text}", ${pagesPacked.length}).then((b) => JSON.parse(new TextDecoder().decode(expand(b, ${storeBytes.length}))));
const composeChapter = ${composeChapter.toString()};
const TIP = ${TIP.toString()};
const fillTips = ${fillTips.toString()};
const pageOf = ${pageOf.toString()};
window.gpuPrimerOffline = { page: async (path) => pageOf(await pages, path) };
if (!/^#\\/./.test(location.hash)) {
  let lang = null;
  try { lang = localStorage.getItem('gpu-primer.lang'); } catch (e) {}
  if (lang !== 'zh' && lang !== 'en') lang = /^zh\\b/i.test(navigator.language || '') ? 'zh' : 'en';
  location.replace('#/' + lang + '/');
}
${glue.replace(/<\/script/gi, '<\\/script')}
await __wbg_init({ module_or_path: await inflate("${wasmPacked.text}", ${wasmPacked.length}) });`;

let html = `<!doctype html>
<html lang="en" data-offline data-root="./" data-path="" data-page="root">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light dark">
${rootTitle}
<style>
${css.replace(/<\/style/gi, '<\\/style')}
</style>
<script type="module">
${shim}
</script>
</head>
${rootBody}
</html>
`;
if (/\bsrc="[^"#]|<link rel="stylesheet"/.test(html.replace(/<script type="module">[\s\S]*?<\/script>/, ''))) {
  fail('left-over references to separate files');
}
html = withCsp(html, { offline: true });
writeFileSync(output, html);

// The pages link the file with its size (decimal MB, as the file is about to be downloaded):
// written now, from the file just written, into every page of the site that links it.
const size = `${(Buffer.byteLength(html) / 1e6).toFixed(1)} MB`;
let linked = 0;
for (const file of htmlFiles(dist)) {
  if (file.endsWith(output.split('/').pop())) continue;
  const page = readFileSync(file, 'utf8');
  if (!page.includes('<li class="offline"')) continue;
  const shown = page.replace(OFFLINE_ITEM, (item) => item
    .replace('<li class="offline" hidden>', '<li class="offline">')
    .replace(/<span class="offline-size">[^<]*<\/span>/, `<span class="offline-size">${size}</span>`));
  writeFileSync(file, shown);
  linked++;
}
if (linked === 0) fail('no page links the offline file (site/frame.rs course_files)');
const kib = (n) => (n / 1024).toFixed(0);
console.log(`single-file: wrote ${output} (${kib(Buffer.byteLength(html))} KiB, linked with its size ${size} from ${linked} pages: ${Object.keys(store).length} pages and indexes ${kib(pagesPacked.text.length)} KiB, wasm ${kib(wasmPacked.text.length)} KiB, gzip written 13 bits to 2 characters)`);
