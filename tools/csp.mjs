// The site's Content-Security-Policy, written into an HTML file as the first element of <head>
// (a <meta> policy governs only what comes after it).
//
//   - scripts: the page's own files ('self') and each inline <script> by its sha256 hash; no
//     'unsafe-inline', no 'unsafe-eval': wasm compiles under 'wasm-unsafe-eval' only;
//   - styles: the stylesheet file ('self'), inline <style> elements by hash (the offline file),
//     and no style attributes: the app sets styles through the CSSOM (Leptos `style:` directives),
//     which CSP does not restrict, so neither 'unsafe-inline' nor 'unsafe-hashes' is needed;
//   - object-src 'none', base-uri 'none', form-action 'none', default-src 'none' for the rest;
//     images only from the page itself or data: URIs (the favicon).
//
// Used after the pages are written (scripts/env.sh build_site: `node tools/csp.mjs dist`, every
// .html file under it, each with the hashes of its own inline elements) and by
// tools/single-file.mjs on the offline file (`offline` mode: nothing is fetched, so no 'self').
import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

const hash = (text) => `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`;

/** The bodies of the inline elements `tag` (script without src, style) in `html`. */
function inlineBodies(html, tag) {
  const re = new RegExp(`<${tag}\\b([^>]*)>([\\s\\S]*?)</${tag}>`, 'gi');
  const out = [];
  for (const m of html.matchAll(re)) {
    if (tag === 'script' && /\bsrc\s*=/.test(m[1])) continue;
    out.push(m[2]);
  }
  return out;
}

/** The policy for `html` (without any CSP meta already in it). */
export function policy(html, { offline = false } = {}) {
  const self = offline ? [] : ["'self'"];
  const scripts = inlineBodies(html, 'script').map(hash);
  const styles = inlineBodies(html, 'style').map(hash);
  return [
    "default-src 'none'",
    `script-src ${[...self, "'wasm-unsafe-eval'", ...scripts].join(' ')}`,
    `style-src ${[...self, ...styles].join(' ') || "'none'"}`,
    `img-src ${[...self, 'data:'].join(' ')}`,
    // The wasm and its preload are fetched from the site; the offline file fetches nothing.
    `connect-src ${self.join(' ') || "'none'"}`,
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'none'",
  ].join('; ');
}

const META = /<meta http-equiv="Content-Security-Policy"[^>]*>\s*/i;

/** `html` with its CSP meta (re)written for its current inline scripts and styles. */
export function withCsp(html, options) {
  const bare = html.replace(META, '');
  const meta = `<meta http-equiv="Content-Security-Policy" content="${policy(bare, options)}">`;
  // Right after <meta charset> (which must come first), before every script and style.
  const charset = /<meta charset="[^"]*"\s*\/?>\s*/i;
  if (charset.test(bare)) return bare.replace(charset, (m) => `${m}${meta}\n    `);
  if (!/<head>/i.test(bare)) throw new Error('no <head> to put the Content-Security-Policy in');
  return bare.replace(/<head>\s*/i, (h) => `${h}${meta}\n    `);
}

/** Every .html file under `path` (or `path` itself when it is a file). */
function htmlFiles(path) {
  if (!statSync(path).isDirectory()) return [path];
  return readdirSync(path).flatMap((f) => {
    const p = join(path, f);
    return statSync(p).isDirectory() ? htmlFiles(p) : /\.html$/.test(f) ? [p] : [];
  });
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const [path, mode] = process.argv.slice(2);
  if (!path) {
    console.error('usage: node tools/csp.mjs (DIR | FILE.html) [offline]');
    process.exit(2);
  }
  const files = htmlFiles(path);
  for (const file of files) {
    writeFileSync(file, withCsp(readFileSync(file, 'utf8'), { offline: mode === 'offline' }));
  }
  console.log(`csp: a Content-Security-Policy in each of ${files.length} pages`);
}
