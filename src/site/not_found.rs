//! `404.html`'s script. A static host serves the not-found page for a missing path at any depth
//! (`/docs/gpu/en/chapters/typo/x`), and under any sub-path the site is hosted at, so links
//! written relative to the site's root (`./en/`) would resolve under the missing path and lead to
//! another 404. Without the site's address (`--site-url`, which makes them absolute), the page
//! finds the root itself: it tries the directories above the missing path, the ones followed by
//! a language directory (`…/en/…`) first, then from the deepest up, and takes the first whose
//! `en/` is this site's English home page; then every root-relative link points there. A small
//! inline script, allowed by its hash in the page's policy (`tools/csp.mjs`).

/// `html` (the not-found page) with the script at the end of its body.
pub fn with_script(html: &str) -> String {
    html.replacen("</body>", &format!("<script>{SCRIPT}</script>\n</body>"), 1)
}

const SCRIPT: &str = r#"(function () {
var links = document.querySelectorAll('a[href^="./"]');
if (!links.length || !window.fetch) return;
var dirs = location.pathname.split('/'), first = [], rest = [];
dirs.pop();
for (var i = dirs.length; i >= 1; i--) {
  var root = dirs.slice(0, i).join('/') + '/';
  (dirs[i] === 'en' || dirs[i] === 'zh' ? first : rest).push(root);
}
var tries = first.concat(rest);
var home = function (text) { return text.indexOf('data-path="en/"') >= 0 && text.indexOf('data-page="home"') >= 0; };
var found = function (root) {
  for (var n = 0; n < links.length; n++) links[n].setAttribute('href', root + links[n].getAttribute('href').slice(2));
  document.documentElement.setAttribute('data-root-found', root);
};
var next = function (k) {
  if (k >= tries.length) return;
  fetch(tries[k] + 'en/').then(function (r) { return r.ok ? r.text() : ''; })
    .then(function (t) { if (home(t)) found(tries[k]); else next(k + 1); }, function () { next(k + 1); });
};
next(0);
})();"#;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_script_goes_last_in_the_body() {
        let html = with_script("<body><a href=\"./en/\">x</a></body>\n</html>");
        assert!(html.starts_with("<body><a href=\"./en/\">x</a><script>(function () {"));
        assert!(html.ends_with("})();</script>\n</body>\n</html>"));
        assert!(!SCRIPT.contains("</script"));
    }
}
