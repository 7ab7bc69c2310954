// Checks that run inside a page (passed to page.evaluate, so each function is self-contained):
// WCAG contrast of every text against what it is drawn on, chart text inside its chart, boxes
// that scroll sideways without a cue, labels away from their controls; axe-core's rules on the
// page as shown. And the list of every page of the built site.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { DIST } from './harness.mjs';

const AXE = readFileSync(join(import.meta.dirname, '..', '..', 'tools', 'node_modules', 'axe-core', 'axe.min.js'), 'utf8');

/**
 * axe-core's violations on the page shown (every rule it runs by default, and the name that
 * must contain a control's visible text, `label-content-name-mismatch`), one line per rule and
 * element. Not run: `color-contrast` (`lowContrast` measures text against what is drawn under
 * it, SVG charts included, which axe leaves out); on an embed page (one widget, for another
 * site's page to frame under its own headings) `page-has-heading-one`; and
 * `scrollable-region-focusable` (a code block or table that scrolls sideways with nothing to
 * focus in it: Chromium, which these tests drive, makes such a box focusable itself since
 * version 130; giving the boxes a tab stop in every browser is not done yet).
 */
export async function axeViolations(page) {
  if (!(await page.evaluate(() => typeof window.axe === 'object'))) await page.evaluate(AXE);
  return page.evaluate(async () => {
    const embed = document.documentElement.dataset.page === 'embed';
    const rules = {
      'color-contrast': { enabled: false },
      'scrollable-region-focusable': { enabled: false },
      'label-content-name-mismatch': { enabled: true },
      ...(embed ? { 'page-has-heading-one': { enabled: false } } : {}),
    };
    const result = await window.axe.run(document, { rules, resultTypes: ['violations'] });
    return result.violations.flatMap((v) => v.nodes.map((n) => `${v.id}: ${n.target.join(' ')} (${n.failureSummary.split('\n').slice(1).join(' ').trim()})`));
  });
}

/** Every page of the built site in `lang` (its site paths, `en/chapters/cuda/`), from dist/. */
export function sitePages(lang) {
  const walk = (dir) => readdirSync(join(DIST, dir)).flatMap((f) => {
    const rel = `${dir}/${f}`;
    if (statSync(join(DIST, rel)).isDirectory()) return walk(rel);
    return f === 'index.html' ? [`${dir}/`] : [];
  });
  return walk(lang).sort();
}

/** Scrolls down the whole page a screen at a time (so the app mounts every part as a reader
 * would reach it: a part mounts within half a screen of the view, src/ui/mount.rs), then back to
 * the top, and lets the charts that redraw after a frame draw. */
export async function readDown(page) {
  await page.evaluate(async () => {
    for (let y = 0; y < document.body.scrollHeight; y += innerHeight) {
      scrollTo(0, y);
      await new Promise((r) => setTimeout(r, 40));
    }
    scrollTo(0, 0);
    // Two frames, so what the last scroll mounted is drawn; a frame that does not come (a
    // headless page may stop producing them under load) is waited for 300 ms at most.
    const frame = () => new Promise((r) => { requestAnimationFrame(r); setTimeout(r, 300); });
    await frame();
    await frame();
    await new Promise((r) => setTimeout(r, 60));
  });
}

/**
 * Text below WCAG AA contrast on the page as shown (4.5:1, 3:1 from 24 px or 18.66 px bold):
 * every visible text node's colour against the colours under it (its own and its ancestors'
 * backgrounds composited; in an SVG, the shapes painted before it under its centre), and every
 * field's value (native inputs, selects, text areas). Disabled controls are exempt (WCAG 1.4.3).
 * Returns one line per failure: the ratio, the element and its text.
 */
export function lowContrast(root) {
  const scope = root || document.body;
  const parse = (c) => {
    const m = c && c.match(/rgba?\(([^)]+)\)/);
    if (!m) return null;
    const p = m[1].split(/[ ,/]+/).filter(Boolean).map(Number);
    return [p[0], p[1], p[2], p.length > 3 ? p[3] : 1];
  };
  const over = (top, under) => [0, 1, 2].map((i) => top[i] * top[3] + under[i] * (1 - top[3])).concat(1);
  const lum = (c) => {
    const f = (v) => { v /= 255; return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; };
    return 0.2126 * f(c[0]) + 0.7152 * f(c[1]) + 0.0722 * f(c[2]);
  };
  const ratio = (a, b) => { const [x, y] = [lum(a), lum(b)].sort((p, q) => q - p); return (x + 0.05) / (y + 0.05); };
  const canvas = parse(getComputedStyle(document.documentElement).backgroundColor);
  const base = canvas && canvas[3] > 0 ? canvas : parse(getComputedStyle(document.body).backgroundColor);
  const htmlBg = (el) => {
    const layers = [];
    for (let e = el; e && e.nodeType === 1; e = e.parentElement) {
      const c = parse(getComputedStyle(e).backgroundColor);
      if (c && c[3] > 0) { layers.push(c); if (c[3] >= 1) break; }
    }
    let bg = (base || [255, 255, 255, 1]).slice(0, 3).concat(1);
    for (const l of layers.reverse()) bg = over(l, bg);
    return bg;
  };
  const svgBg = (t) => {
    const svg = t.ownerSVGElement;
    let bg = htmlBg(svg.parentElement);
    const b = t.getBoundingClientRect();
    const x = b.left + b.width / 2, y = b.top + b.height / 2;
    for (const s of svg.querySelectorAll('rect, path, circle, polygon, ellipse')) {
      if (!(s.compareDocumentPosition(t) & Node.DOCUMENT_POSITION_FOLLOWING)) continue;
      const r = s.getBoundingClientRect();
      if (!(x >= r.left && x <= r.right && y >= r.top && y <= r.bottom)) continue;
      if (s.tagName !== 'rect' && !(s.isPointInFill && s.isPointInFill(new DOMPoint(x, y).matrixTransform(s.getScreenCTM().inverse())))) continue;
      const cs = getComputedStyle(s);
      const f = parse(cs.fill);
      if (!f) continue;
      bg = over([f[0], f[1], f[2], f[3] * Number(cs.fillOpacity) * Number(cs.opacity)], bg);
    }
    return bg;
  };
  const shown = (el) => {
    if (getComputedStyle(el).visibility !== 'visible') return false;
    for (let e = el; e; e = e.parentElement) if (Number(getComputedStyle(e).opacity) < 0.99) return false;
    const r = el.getBoundingClientRect();
    return r.width > 0 && r.height > 0;
  };
  const name = (el) => `${el.tagName.toLowerCase()}${el.id ? `#${el.id}` : ''}${typeof el.className === 'string' && el.className.trim() ? `.${el.className.trim().split(/\s+/).join('.')}` : ''}`;
  const out = [];
  const seen = new Set();
  const check = (el, fg, bg, what) => {
    if (!fg) return;
    const cs = getComputedStyle(el);
    const size = parseFloat(cs.fontSize) * (el instanceof SVGElement ? (el.ownerSVGElement.getBoundingClientRect().width / (el.ownerSVGElement.viewBox.baseVal?.width || el.ownerSVGElement.getBoundingClientRect().width)) : 1);
    const large = size >= 24 || (size >= 18.66 && Number(cs.fontWeight) >= 700);
    const need = large ? 3 : 4.5;
    const r = ratio(over(fg, bg), bg);
    if (r < need - 0.005) {
      const line = `${r.toFixed(2)}:1 < ${need}:1 ${what}`;
      if (!seen.has(line)) { seen.add(line); out.push(line); }
    }
  };
  const texts = new Set();
  const walker = document.createTreeWalker(scope, NodeFilter.SHOW_TEXT);
  for (let n = walker.nextNode(); n; n = walker.nextNode()) if (n.textContent.trim() && n.parentElement) texts.add(n.parentElement);
  for (const el of texts) {
    if (el.closest('title, script, style, noscript, option, [aria-hidden=true], :disabled')) continue;
    if (!shown(el)) continue;
    if (el instanceof SVGElement) {
      if (!(el instanceof SVGTextContentElement) || !el.ownerSVGElement) continue;
      check(el, parse(getComputedStyle(el).fill), svgBg(el), `${name(el.ownerSVGElement.parentElement)} svg text "${el.textContent.trim().slice(0, 40)}"`);
    } else {
      check(el, parse(getComputedStyle(el).color), htmlBg(el), `${name(el)} "${el.textContent.trim().slice(0, 40)}"`);
    }
  }
  for (const el of scope.querySelectorAll('input:not([type=checkbox]):not([type=radio]):not([type=range]):not([type=hidden]):not([type=color]), select, textarea')) {
    if (el.disabled || !shown(el)) continue;
    check(el, parse(getComputedStyle(el).color), htmlBg(el), `${name(el)} field`);
  }
  return out;
}

/**
 * Chart and figure text that does not fit or is too small to read: every visible text of every
 * `svg[viewBox]` measured as drawn (its bounding box, in the root's coordinates) against the
 * viewBox, text cut short with "…", and text drawn smaller than `minPx` CSS pixels.
 */
export function chartTextProblems(minPx) {
  const out = [];
  for (const svg of document.querySelectorAll('svg[viewBox]')) {
    if (!svg.getClientRects().length || svg.closest('[hidden]')) continue;
    const vb = svg.viewBox.baseVal;
    const box = svg.getBoundingClientRect();
    if (box.width === 0) continue;
    const scale = box.width / vb.width;
    const label = (svg.getAttribute('aria-label') || '').slice(0, 40);
    for (const t of svg.querySelectorAll('text')) {
      if (!t.getClientRects().length || !t.textContent.trim()) continue;
      const b = t.getBBox();
      const m = svg.getCTM().inverse().multiply(t.getCTM());
      const corners = [[b.x, b.y], [b.x + b.width, b.y], [b.x, b.y + b.height], [b.x + b.width, b.y + b.height]]
        .map(([x, y]) => new DOMPoint(x, y).matrixTransform(m));
      const xs = corners.map((p) => p.x), ys = corners.map((p) => p.y);
      const [x0, x1, y0, y1] = [Math.min(...xs), Math.max(...xs), Math.min(...ys), Math.max(...ys)];
      const text = t.textContent.trim();
      if (x0 < vb.x - 1 || x1 > vb.x + vb.width + 1 || y0 < vb.y - 1 || y1 > vb.y + vb.height + 1) {
        out.push(`"${label}": "${text.slice(0, 50)}" spans x ${x0.toFixed(0)}..${x1.toFixed(0)}, y ${y0.toFixed(0)}..${y1.toFixed(0)} of ${vb.width}×${vb.height}`);
      }
      if (text.endsWith('…')) out.push(`"${label}": "${text.slice(0, 50)}" is cut short`);
      const px = parseFloat(getComputedStyle(t).fontSize) * scale;
      if (minPx && px < minPx - 0.05) out.push(`"${label}": "${text.slice(0, 30)}" is drawn at ${px.toFixed(1)} px`);
    }
  }
  return out;
}

/** Boxes that scroll sideways (content wider than the box) without the scroll cue (a shadow at
 * the edge: the stylesheet's radial-gradient backgrounds). */
export function scrollWithoutCue() {
  const out = [];
  for (const el of document.querySelectorAll('body *')) {
    const cs = getComputedStyle(el);
    if (!['auto', 'scroll'].includes(cs.overflowX) || el.scrollWidth <= el.clientWidth + 1) continue;
    if (!el.getClientRects().length) continue;
    if (!/radial-gradient/.test(cs.backgroundImage)) {
      out.push(`${el.tagName.toLowerCase()}.${typeof el.className === 'string' ? el.className : ''} scrolls ${el.scrollWidth} px in ${el.clientWidth} px without a cue`);
    }
  }
  return out;
}

/**
 * Labels that a reader would read as another field's: every visible `<label>` with a control
 * (`for` or nested) whose text is over another control, farther from its own control than
 * from another one, not next to its own (within `near` px, above it or beside it), or under it.
 * A control whose own name (`aria-label`) holds the label's text is the label's too.
 * Measured on the label's text as drawn (a block label's box spans its column). One line per
 * problem: the label's text, what is wrong, and the control's id.
 */
export function labelProblems(near = 40) {
  const shown = (el) => {
    if (!el.getClientRects().length || el.closest('[hidden], details:not([open]) > :not(summary)')) return false;
    const cs = getComputedStyle(el);
    if (cs.visibility !== 'visible' || Number(cs.opacity) === 0) return false;
    const r = el.getBoundingClientRect();
    return r.width > 2 && r.height > 2;
  };
  const textBox = (label) => {
    const range = document.createRange();
    range.selectNodeContents(label);
    const rects = [...range.getClientRects()].filter((r) => r.width > 0 && r.height > 0);
    // Only the label's own text, not a control nested in it.
    const own = label.control && label.contains(label.control) ? label.control.getBoundingClientRect() : null;
    const parts = own ? rects.filter((r) => !(r.left >= own.left - 1 && r.right <= own.right + 1 && r.top >= own.top - 1 && r.bottom <= own.bottom + 1)) : rects;
    if (!parts.length) return null;
    return {
      left: Math.min(...parts.map((r) => r.left)), right: Math.max(...parts.map((r) => r.right)),
      top: Math.min(...parts.map((r) => r.top)), bottom: Math.max(...parts.map((r) => r.bottom)),
    };
  };
  const gap = (a, b) => {
    const dx = Math.max(0, a.left - b.right, b.left - a.right);
    const dy = Math.max(0, a.top - b.bottom, b.top - a.bottom);
    return Math.hypot(dx, dy);
  };
  const overlap = (a, b) => Math.max(0, Math.min(a.right, b.right) - Math.max(a.left, b.left)) * Math.max(0, Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top));
  const controls = [...document.querySelectorAll('input:not([type=hidden]), select, textarea, button')].filter(shown)
    .map((c) => ({ c, r: c.getBoundingClientRect() }));
  const name = (c) => `${c.tagName.toLowerCase()}${c.id ? `#${c.id}` : ''}${c.dataset.k ? `[data-k=${c.dataset.k}]` : ''}`;
  const out = [];
  for (const label of document.querySelectorAll('label')) {
    const own = label.control;
    if (!own || !shown(label) || !shown(own)) continue;
    const box = textBox(label);
    if (!box) continue;
    const text = label.textContent.trim().replace(/\s+/g, ' ').slice(0, 40);
    const mine = own.getBoundingClientRect();
    const d = gap(box, mine);
    for (const { c, r } of controls) {
      // A control the label names too (a slider's number field: "Context length (tokens)").
      if (c === own || label.contains(c) || (c.getAttribute('aria-label') || '').includes(text)) continue;
      if (overlap(box, r) > 4) out.push(`"${text}" is over ${name(c)}`);
      else if (gap(box, r) + 1 < d) out.push(`"${text}" is ${gap(box, r).toFixed(0)} px from ${name(c)}, ${d.toFixed(0)} px from its own ${name(own)}`);
    }
    if (d > near) out.push(`"${text}" is ${d.toFixed(0)} px from its own ${name(own)}`);
    if (mine.bottom <= box.top + 1) out.push(`"${text}" is under its own ${name(own)}`);
  }
  return out;
}
