// Turns trunk's dist/ into ONE self-contained HTML file that works from file:// (classrooms,
// onboarding courses, reading on a plane):
//   - stylesheets are inlined as <style>;
//   - the wasm-bindgen glue (an ES module) is inlined into a <script type="module"> with its
//     `export` keywords removed, because a file:// page may not import a sibling .js file; the
//     snippets it imports (the lab's WebGPU driver) are inlined into it the same way;
//   - the wasm is embedded as base64 and handed to the async init as bytes
//     (`init({ module_or_path: bytes })`; initSync is avoided: Chromium refuses large
//     synchronous compiles on the main thread);
//   - preload links and integrity attributes are dropped (they mean nothing inside one file);
//   - the Content-Security-Policy (tools/csp.mjs) is rewritten for the final inline script and
//     styles, by their sha256 hashes: nothing inline runs or applies unless it is this file's own.
// Usage: node tools/single-file.mjs DIST_DIR OUTPUT.html
import { readFileSync, writeFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { withCsp } from './csp.mjs';

const [dist, output] = process.argv.slice(2);
if (!dist || !output) {
  console.error('usage: node tools/single-file.mjs DIST_DIR OUTPUT.html');
  process.exit(2);
}
const fail = (msg) => { console.error(`single-file: ${msg}`); process.exit(1); };

let html = readFileSync(join(dist, 'index.html'), 'utf8');
const files = readdirSync(dist);
const glueName = files.find((f) => /^gpu-primer-.*\.js$/.test(f));
const wasmName = files.find((f) => /^gpu-primer-.*_bg\.wasm$/.test(f));
if (!glueName || !wasmName) fail(`no gpu-primer-*.js / *_bg.wasm in ${dist}: run trunk build first`);

let glue = readFileSync(join(dist, glueName), 'utf8');
// wasm-bindgen snippets (the lab's WebGPU driver), imported as `import { a, b as c } from
// './snippets/…/x.js'` and `import * as x from "./snippets/…/x.js"`: each file is inlined once as
// a function scope returning its exports, and the imports read from that object.
const snippets = new Map();
const snippet = (path) => {
  if (!snippets.has(path)) {
    const code = readFileSync(join(dist, path), 'utf8');
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

const wasmBase64 = readFileSync(join(dist, wasmName)).toString('base64');

// Inline stylesheets.
html = html.replace(/<link rel="stylesheet" href="\.?\/?([^"]+)"[^>]*>/g, (_, href) => {
  const css = readFileSync(join(dist, href), 'utf8');
  return `<style>\n${css.replace(/<\/style/gi, '<\\/style')}\n</style>`;
});
// Drop preload hints.
html = html.replace(/<link rel="(modulepreload|preload)"[^>]*>/g, '');
// Replace trunk's loader with the inlined one.
const loader = /<script type="module">[\s\S]*?<\/script>/;
if (!loader.test(html)) fail('index.html has no <script type="module"> loader');
const script = `<script type="module">
${glue.replace(/<\/script/gi, '<\\/script')}
const wasmBase64 = "${wasmBase64}";
const bytes = Uint8Array.from(atob(wasmBase64), (c) => c.charCodeAt(0));
await __wbg_init({ module_or_path: bytes });
</script>`;
html = html.replace(loader, () => script);
if (/integrity=|href="\.\/gpu-primer-/.test(html)) fail('left-over references to separate files');

html = withCsp(html, { offline: true });

writeFileSync(output, html);
console.log(`single-file: wrote ${output} (${(Buffer.byteLength(html) / 1024).toFixed(0)} KiB)`);
