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

  // Switches every media rule of the page's style sheets to what it is on paper ('all' or
  // 'not all', through the CSSOM, which the page's Content-Security-Policy allows); returns
  // the function that switches them back.
  function paperMedia() {
    var saved = [];
    Array.prototype.forEach.call(doc.styleSheets, function (sheet) {
      var rules;
      try { rules = sheet.cssRules; } catch (e) { return; }
      Array.prototype.forEach.call(rules, function (r) {
        if (!(r instanceof CSSMediaRule)) return;
        saved.push([r, r.media.mediaText]);
        r.media.mediaText = matchesOnPaper(r.media.mediaText) ? 'all' : 'not all';
      });
    });
    return function () {
      saved.forEach(function (s) { s[0].media.mediaText = s[1]; });
    };
  }

  var BLOCK = /^(block|list-item|flow-root|table|flex|grid)$/;

  // The pieces of `el` in order: a box kept whole, a run of lines, or a heading. `tall`: `el`
  // is inside a box to keep whole that is taller than a page, where every break breaks that
  // box: Chromium then fills each page, whole boxes inside included.
  function pieces(el, out, tall) {
    Array.prototype.forEach.call(el.children, function (c) {
      var cs = getComputedStyle(c);
      if (cs.display === 'none' || cs.position === 'absolute' || cs.position === 'fixed') return;
      var r = c.getBoundingClientRect();
      if (r.height === 0) return;
      var heading = /^H[1-6]$/.test(c.tagName);
      var avoid = cs.breakInside === 'avoid' || cs.breakInside === 'avoid-page';
      // Flex and grid boxes break between their rows too, where a box around them must break.
      var whole = (avoid && !tall) || (!tall && /^(flex|grid)$/.test(cs.display)) ||
        /^(table|inline-block|inline-flex|inline-grid)$/.test(cs.display) || /^(svg|img|tr|figure|pre|select|textarea)$/i.test(c.tagName);
      if (cs.display === 'table' && r.height > PAGE_H) {
        // A table taller than a page: it starts a page (as any box kept whole), then breaks
        // between rows, and its header row is printed again at the top of each page.
        if (avoid) out.push({ top: r.top, bottom: r.top, fresh: true });
        var head = c.tHead ? c.tHead.getBoundingClientRect().height : 0;
        var first = true;
        Array.prototype.forEach.call(c.rows, function (row) {
          if (row.parentElement === c.tHead) return;
          var rr = row.getBoundingClientRect();
          out.push({ top: first ? r.top : rr.top, bottom: rr.bottom, whole: true, heading: false, lh: 0, repeat: head });
          first = false;
        });
        return;
      }
      var blockChildren = Array.prototype.some.call(c.children, function (k) {
        return BLOCK.test(getComputedStyle(k).display);
      });
      if (!heading && (!whole || r.height > PAGE_H) && blockChildren) {
        // A box to keep whole that is taller than a page starts a page (Chromium breaks before
        // it rather than inside it where it can), then breaks inside.
        if (avoid) out.push({ top: r.top, bottom: r.top, fresh: true });
        pieces(c, out, tall || whole);
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
    pieces(section, list, false);
    var page = 1;
    var y = 0;
    var prev = section.getBoundingClientRect().top;
    var last = null;
    list.forEach(function (p) {
      if (p.fresh) {
        // Its border and padding stay at the top of the page (only margins are dropped).
        if (y > 0) { page += 1; y = 0.01; last = null; prev = p.top; }
        return;
      }
      if (p.top < prev - 0.5) {
        // Beside the piece before it (a grid or flex row): only what reaches lower counts.
        y += Math.max(0, p.bottom - prev);
        prev = Math.max(prev, p.bottom);
        return;
      }
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
      // The whole piece moves to the next page, with the heading just before it (or its
      // table's header row).
      page += 1;
      y = p.repeat || 0;
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
    var width = html.style.getPropertyValue('width');
    var restore = paperMedia();
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
      restore();
      if (width) html.style.setProperty('width', width); else html.style.removeProperty('width');
    }
  }

  window.addEventListener('beforeprint', number);
})();
