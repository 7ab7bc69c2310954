// The print page's script (src/site/print.rs, PRINT_SCRIPT): `?chapters=1,3` ticks those
// chapters' boxes; before printing, each shown chapter's first page goes into the table of
// contents, counted on a layout of the page as the printer will make it (see print.rs).
(function () {
  'use strict';
  var doc = document;
  var wanted = new URLSearchParams(location.search).get('chapters');
  if (wanted) {
    wanted.split(',').forEach(function (n) {
      var box = doc.getElementById('pick-' + n.trim());
      if (box) box.checked = true;
    });
  }

  // The printed page: A4 less the 15 mm margins of the stylesheet's @page rule, in CSS pixels.
  var MM = 96 / 25.4;
  var PAGE_W = 180 * MM;
  var PAGE_H = 267 * MM;
  var MEASURE = 'print-measure';

  function px(value) {
    var m = /^([\d.]+)(px|rem|em)$/.exec(value.trim());
    if (!m) return NaN;
    return parseFloat(m[1]) * (m[2] === 'px' ? 1 : 16);
  }

  // Whether the media query list `text` matches on the printed page.
  function matchesOnPaper(text) {
    return text.split(',').some(function (query) {
      return query.split(/\band\b/).every(function (part) {
        var p = part.trim().toLowerCase();
        if (p === 'print' || p === 'all' || p === '') return true;
        if (p === 'screen' || p.indexOf('not ') === 0 || p.indexOf('only ') === 0) return false;
        var w = /^\((max|min)-width:\s*([^)]+)\)$/.exec(p);
        if (w) return w[1] === 'max' ? PAGE_W <= px(w[2]) : PAGE_W >= px(w[2]);
        return window.matchMedia(p).matches;
      });
    });
  }

  // `selector` under html.print-measure, with the specificity it has on paper (plus the class
  // where it names the root).
  function scoped(selector) {
    return selector.split(',').map(function (s) {
      s = s.trim();
      var root = /^(:root|html)/.exec(s);
      if (root) return 'html.' + MEASURE + s.slice(root[0].length);
      return ':where(html.' + MEASURE + ') ' + s;
    }).join(', ');
  }

  // Once: every rule that applies on paper and not on this screen, copied right after its
  // media rule under html.print-measure (through the CSSOM, which the page's
  // Content-Security-Policy allows).
  var copied = false;
  function copyPaperRules() {
    if (copied) return;
    copied = true;
    Array.prototype.forEach.call(doc.styleSheets, function (sheet) {
      var rules;
      try { rules = sheet.cssRules; } catch (e) { return; }
      for (var i = rules.length - 1; i >= 0; i--) {
        var r = rules[i];
        if (!(r instanceof CSSMediaRule)) continue;
        if (!matchesOnPaper(r.media.mediaText) || window.matchMedia(r.media.mediaText).matches) continue;
        var text = '';
        Array.prototype.forEach.call(r.cssRules, function (inner) {
          if (inner instanceof CSSStyleRule) {
            text += scoped(inner.selectorText) + '{' + inner.style.cssText + '}';
          }
        });
        if (text) {
          try { sheet.insertRule('@media all{' + text + '}', i + 1); } catch (e) { /* skipped */ }
        }
      }
    });
  }

  var BLOCK = /^(block|list-item|flow-root|table|flex|grid)$/;

  // The pieces of `el` in order: a box kept whole, a run of lines, or a heading.
  function pieces(el, out) {
    Array.prototype.forEach.call(el.children, function (c) {
      var cs = getComputedStyle(c);
      if (cs.display === 'none' || cs.position === 'absolute' || cs.position === 'fixed') return;
      var r = c.getBoundingClientRect();
      if (r.height === 0) return;
      var heading = /^H[1-6]$/.test(c.tagName);
      var whole = cs.breakInside === 'avoid' || cs.breakInside === 'avoid-page' ||
        /^(table|flex|grid|inline-block)$/.test(cs.display) || /^(svg|img|tr|figure|pre)$/i.test(c.tagName);
      var blockChildren = Array.prototype.some.call(c.children, function (k) {
        return BLOCK.test(getComputedStyle(k).display);
      });
      if (!heading && (!whole || r.height > PAGE_H) && blockChildren) {
        pieces(c, out);
        return;
      }
      var lh = parseFloat(cs.lineHeight);
      if (!(lh > 0)) lh = parseFloat(cs.fontSize) * 1.2;
      out.push({ top: r.top, bottom: r.bottom, whole: whole && r.height <= PAGE_H, heading: heading, lh: lh });
    });
  }

  // How many pages `section` takes from the top of a page.
  function pagesOf(section) {
    var list = [];
    pieces(section, list);
    var page = 1;
    var y = 0;
    var prev = section.getBoundingClientRect().top;
    var last = null;
    list.forEach(function (p) {
      var h = p.bottom - p.top;
      var gap = Math.max(0, p.top - prev);
      var before = y === 0 && page > 1 ? 0 : gap;
      prev = p.bottom;
      if (y + before + h <= PAGE_H + 0.5) {
        last = { heading: p.heading, h: h, at: y + before, page: page };
        y += before + h;
        return;
      }
      var n = p.whole ? 1 : Math.max(1, Math.round(h / p.lh));
      var line = h / n;
      var room = Math.floor((PAGE_H - y - before + 0.5) / line);
      var here = Math.min(room, n - 2);
      if (!p.whole && here >= 2) {
        // Split between lines: `here` lines on this page, the rest on the next ones.
        var rest = (n - here) * line;
        page += 1;
        while (rest > PAGE_H) { page += 1; rest -= Math.floor(PAGE_H / line) * line; }
        y = rest;
        last = null;
        return;
      }
      // The whole piece moves to the next page, with the heading just before it.
      page += 1;
      y = 0;
      if (last && last.heading && last.page === page - 1 && last.at > 0) y = last.h + gap;
      var left = h;
      while (y + left > PAGE_H + 0.5 && !p.whole) {
        var fit = Math.floor((PAGE_H - y) / line) * line;
        if (fit <= 0) break;
        left -= fit;
        page += 1;
        y = 0;
      }
      y += left;
      last = { heading: p.heading, h: h, at: 0, page: page };
    });
    return page;
  }

  function number() {
    var html = doc.documentElement;
    copyPaperRules();
    var width = html.style.getPropertyValue('width');
    html.classList.add(MEASURE);
    html.style.setProperty('width', PAGE_W + 'px');
    try {
      var chapters = Array.prototype.filter.call(doc.querySelectorAll('.print-chapter'), function (s) {
        return getComputedStyle(s).display !== 'none';
      });
      var first = chapters[0];
      var body = doc.body.getBoundingClientRect().top;
      var front = first ? Math.max(1, Math.ceil((first.getBoundingClientRect().top - body) / PAGE_H)) : 1;
      var next = front + 1;
      doc.querySelectorAll('.toc-page').forEach(function (span) { span.textContent = ''; });
      chapters.forEach(function (s) {
        var span = doc.querySelector('.toc-page[data-chapter="' + s.id + '"]');
        if (span) span.textContent = String(next);
        next += pagesOf(s);
      });
    } finally {
      html.classList.remove(MEASURE);
      if (width) html.style.setProperty('width', width); else html.style.removeProperty('width');
    }
  }

  window.addEventListener('beforeprint', number);
})();
