//! The root page's script: the site's old addresses were hashes (`#/zh/chapters/nvlink?s=s-3`,
//! `#/en/estimate?v=1&s=…`), all on the root page; this small inline script (allowed by its
//! hash in the page's policy) sends each to its page now, with its state, before anything is
//! drawn. A bare visit goes to the home page of the reader's language (the one chosen last, else
//! the browser's). The mapping is `route::Target::from_hash` written in JavaScript; the browser
//! tests walk old links through both.

use crate::content;
use crate::route::{Tool, WIDGET_KINDS};

/// The script, with the site's chapter slugs, widget kinds and tools written in.
pub fn script() -> String {
    let list = |items: &[&str]| {
        format!("[{}]", items.iter().map(|s| format!("'{s}'")).collect::<Vec<_>>().join(","))
    };
    let tools: Vec<&str> = Tool::ALL.iter().map(|t| t.slug()).collect();
    SCRIPT
        .replace("SLUGS", &list(content::slugs()))
        .replace("KINDS", &list(WIDGET_KINDS))
        .replace("TOOLS", &list(&tools))
}

/// `html` (the root page) with the script as the first element after its `<meta charset>`.
pub fn with_script(html: &str) -> String {
    html.replacen(
        "<meta charset=\"utf-8\">\n",
        &format!("<meta charset=\"utf-8\">\n<script>{}</script>\n", script()),
        1,
    )
}

const SCRIPT: &str = r"(function () {
var slugs = SLUGS, kinds = KINDS, tools = TOOLS;
var h = location.hash.replace(/^#/, ''), lang = null;
try { lang = localStorage.getItem('gpu-primer.lang'); } catch (e) {}
if (lang !== 'zh' && lang !== 'en') lang = /^zh\b/i.test(navigator.language || '') ? 'zh' : 'en';
if (!h.replace(/\//g, '')) { location.replace(lang + '/'); return; }
var frag = '', q = '', i = h.indexOf('#');
if (i >= 0) { frag = h.slice(i + 1); h = h.slice(0, i); }
i = h.indexOf('?');
if (i >= 0) { q = h.slice(i + 1); h = h.slice(0, i); }
var old = function (k) {
  var pairs = q.split('&');
  for (var n = 0; n < pairs.length; n++) {
    var kv = pairs[n].split('=');
    if (kv[0] === k && /^[a-z0-9-]+$/.test(kv[1] || '')) return kv[1];
  }
  return null;
};
var p = h.split('/').filter(Boolean), page = null, r = p.slice(1), one = r.join('/');
if (p[0] === 'zh' || p[0] === 'en') {
  if (r.length === 0) page = '';
  else if (['estimate', 'validation', 'glossary', 'print', 'tools', 'plan', 'lab/bandwidth'].indexOf(one) >= 0) page = one + '/';
  else if (r.length === 2 && ((r[0] === 'tools' && tools.indexOf(r[1]) >= 0) || (r[0] === 'embed' && kinds.indexOf(r[1]) >= 0))) page = one + '/';
  else if (r[0] === 'chapters' && slugs.indexOf(r[1]) >= 0 && (r.length === 2 || (r.length === 3 && (r[2] === 'worksheet' || r[2] === 'answers')))) page = one + '/';
}
if (page === null) { location.replace('404.html'); return; }
var keep = /^(estimate|plan|lab\/bandwidth|tools\/[a-z]|embed\/)/.test(page);
if (r[0] === 'chapters' && r.length === 2) {
  var print = old('print'), s = old('s'), ex = old('exercise');
  if (print === 'worksheet' || print === 'answers') page += print + '/';
  else if (s) frag = s;
  else if (ex) frag = 'exercise-' + ex;
}
if (r[0] === 'glossary' && old('term')) frag = 'term-' + old('term');
location.replace(p[0] + '/' + page + (keep && q ? '?' + q : '') + (frag ? '#' + frag : ''));
})();";

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_script_knows_the_sites_pages_and_goes_first() {
        let s = script();
        assert!(
            s.contains(&format!("'{}'", content::slugs()[0]))
                && s.contains("'cuda-grid'")
                && s.contains("'mig'")
        );
        assert!(!s.contains("SLUGS") && !s.contains("</script"));
        let html = with_script("<head>\n<meta charset=\"utf-8\">\n<title>x</title>");
        assert!(html.starts_with("<head>\n<meta charset=\"utf-8\">\n<script>(function"));
    }
}
