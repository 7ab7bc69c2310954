//! The page that lists every embeddable widget (`{lang}/embed/`): for each kind of
//! [`WIDGET_KINDS`] its parameters (query key, meaning, allowed values, default), a link to its
//! embed page, and its embed code (the `<iframe>` and the host page's listener,
//! [`crate::ui::widgets::iframe_snippet`]). It reads without scripts: the codes name the site's
//! address `SITE/` until [`FILL_SCRIPT`] writes the real one in (a prerendered page does not
//! know where it will be served).

use crate::content::{self, Segment};
use crate::html::escape as esc;
use crate::i18n::Lang;
use crate::route::{Route, Tool, WIDGET_KINDS};
use crate::ui::widgets::{self, Allowed};

/// What stands for the site's address in the codes until the script replaces it.
pub const SITE: &str = "SITE/";

/// Replaces [`SITE`] in each code with the site root's absolute address, where the page is
/// served over http(s) (an embed needs a hosted site), and hides the note about it.
pub const FILL_SCRIPT: &str = "(function(){var d=document,r=new URL(d.documentElement.getAttribute('data-root')||'./',location.href);\
if(!/^https?:$/.test(r.protocol))return;d.querySelectorAll('code[data-embed]').forEach(function(c){\
c.textContent=c.textContent.split('SITE/').join(r.href);});var n=d.querySelector('.embed-site-note');if(n)n.hidden=true;})();";

/// The inside of `<main>`.
pub fn page_html(lang: Lang) -> String {
    let e = lang.embeds();
    let mut out = format!(
        "<article class=\"embeds\" data-page=\"embeds\"><h1>{}</h1><p class=\"lead\">{}</p><h2>{}</h2><ul>",
        esc(e.title),
        esc(e.intro),
        esc(e.how_heading)
    );
    for line in e.how {
        out.push_str(&format!("<li>{}</li>", esc(line)));
    }
    out.push_str(&format!("</ul><p class=\"embed-site-note\">{}</p>", esc(e.site_note)));
    for kind in WIDGET_KINDS {
        out.push_str(&entry(lang, kind));
    }
    out.push_str(&format!("<script>{FILL_SCRIPT}</script></article>"));
    out
}

/// The chapter that places widget `kind` first (`{{widget:KIND}}` or `{{widget:KIND:PRESET}}`).
fn chapter_of(kind: &str) -> Option<&'static content::Chapter> {
    content::chapters().iter().find(|c| {
        c.page(Lang::En).segments.iter().any(|s| match s {
            Segment::Widget(name) => name.split(':').next() == Some(kind),
            _ => false,
        })
    })
}

/// A row of the parameter table.
fn row(key: &str, meaning: &str, values: &str, default: &str) -> String {
    format!(
        "<tr><th scope=\"row\"><code>{}</code></th><td>{}</td><td>{}</td><td>{}</td></tr>",
        esc(key),
        esc(meaning),
        values,
        esc(default)
    )
}

/// A number as the table shows it: `1e12` as `1000000000000`, `0.001` as it is.
fn number(v: f64) -> String {
    if v.fract() == 0.0 && v.abs() < 1e16 {
        format!("{v:.0}")
    } else {
        format!("{v}")
    }
}

fn entry(lang: Lang, kind: &'static str) -> String {
    let e = lang.embeds();
    let s = lang.strings();
    let title = widgets::title(kind, lang);
    let mut out = format!("<section class=\"embed-entry\" id=\"embed-{kind}\"><h2>{}</h2><p>", esc(title));
    if let Some(chapter) = chapter_of(kind) {
        out.push_str(&format!(
            "{}<a href=\"{}\">{} · {}</a> · ",
            esc(e.in_chapter),
            Route::Chapter(lang, chapter.slug).to_hash(),
            esc(&s.chapter_number(chapter.number)),
            esc(chapter.page(lang).title)
        ));
    }
    out.push_str(&format!("<a href=\"{}\">{}</a></p>", Route::Embed(lang, kind).to_hash(), esc(e.open)));
    let mut rows = String::new();
    let docs = widgets::param_docs(kind, lang);
    for (key, label, allowed, default) in &docs {
        let values = match allowed {
            Allowed::OneOf(options) => format!(
                "{}<span class=\"embed-options\">{}</span>",
                esc(e.one_of),
                options.iter().map(|o| format!("<code>{}</code>", esc(o))).collect::<Vec<_>>().join(" ")
            ),
            Allowed::Range { min, max, whole } => {
                let (a, b, c) = if *whole { e.range_whole } else { e.range };
                esc(&format!("{a}{}{b}{}{c}", number(*min), number(*max)))
            }
        };
        rows.push_str(&row(key, label, &values, default));
    }
    let estimator = ["memory", "kv-cache", "roofline", "scaling", "bound"].contains(&kind);
    if estimator {
        rows.push_str(&row("v, s", e.scenario_meaning, &esc(e.scenario_values), e.example));
    } else if Tool::from_slug(kind).is_some() {
        rows.push_str(&row("…", e.tool_meaning, &esc(e.tool_values), e.example));
    }
    rows.push_str(&row("theme", e.theme_meaning, &esc(e.theme_values), "auto"));
    if docs.is_empty() && !estimator && Tool::from_slug(kind).is_none() {
        out.push_str(&format!("<p>{}</p>", esc(e.no_params)));
    }
    out.push_str(&format!(
        "<div class=\"table-scroll\"><table class=\"embed-params\"><thead><tr><th scope=\"col\">{}</th><th scope=\"col\">{}</th>\
         <th scope=\"col\">{}</th><th scope=\"col\">{}</th></tr></thead><tbody>{rows}</tbody></table></div>",
        esc(e.col_param),
        esc(e.col_meaning),
        esc(e.col_values),
        esc(e.col_default),
    ));
    let src = format!("{SITE}{}", Route::Embed(lang, kind).path());
    let code = widgets::iframe_snippet(&src, &format!("{} · {title}", s.site_title));
    out.push_str(&format!(
        "<h3>{}</h3><pre class=\"embed-code-block\"><code data-embed=\"{kind}\">{}</code></pre></section>",
        esc(e.code_heading),
        esc(&code)
    ));
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_kind_is_listed_with_its_code_and_theme() {
        for lang in Lang::ALL {
            let html = page_html(lang);
            for kind in WIDGET_KINDS {
                assert!(html.contains(&format!("id=\"embed-{kind}\"")), "{kind}");
                assert!(html.contains(&format!("{SITE}{}/embed/{kind}/", lang.code())), "{kind}");
            }
            assert_eq!(html.matches("<code>theme</code>").count(), WIDGET_KINDS.len());
            assert!(html.contains("<code>n</code>") && html.contains("<code>gpu</code>"));
            assert!(html.contains("gpu-primer:height"), "the listener is in the code");
        }
        assert!(page_html(Lang::En).contains("a whole number from 1 to 1024"));
        assert!(page_html(Lang::Zh).contains("1 到 1024 之间的整数"));
    }

    #[test]
    fn widgets_are_found_in_their_chapters() {
        assert_eq!(chapter_of("cuda-grid").map(|c| c.slug), Some("cuda"));
        assert_eq!(chapter_of("all-reduce").map(|c| c.slug), Some("gpu-clusters"));
    }
}
