//! The validation page's tables as HTML: the engine's expected values and bounds next to
//! published measurements (the same table as `gpu-primer validate`). Built as one string and
//! written into the prerendered page: it is static, so the app does nothing there.
//! Every text is escaped.

use crate::charts::format::format_sig3;
use crate::html::escape as esc;
use crate::i18n::facts::{bound_cell, Bounded};
use crate::i18n::validation::{conditions, kind, model, reason, unit};
use crate::i18n::Lang;
use crate::validation::{Conditions, ValidationTable};
use std::fmt::Write;

/// The summary table, the row table and the list of rows the engine cannot express.
pub fn page_html(table: &ValidationTable, lang: Lang) -> String {
    let v = &lang.strings().validation;
    let mut o = String::new();
    let th = |o: &mut String, cells: &[&str]| {
        for c in cells {
            let _ = write!(o, "<th>{}</th>", esc(c));
        }
    };
    let _ = write!(o, "<h2>{}</h2><div class=\"table-scroll\"><table class=\"data-table\" id=\"validation-summary\"><thead><tr>", esc(v.summary));
    th(&mut o, &[v.kind, v.rows, v.median_error, v.violations]);
    o.push_str("</tr></thead><tbody>");
    for k in &table.summary {
        let _ = write!(
            o,
            "<tr><td class=\"kind\" title=\"{}\">{}</td><td class=\"num\">{}</td><td class=\"num\">{}%</td><td class=\"num\" data-violations=\"{4}\">{4}</td></tr>",
            esc(&k.kind),
            esc(kind(&k.kind, lang)),
            k.rows,
            esc(&format_sig3(k.median_abs_error_pct)),
            k.bound_violations,
        );
    }
    o.push_str("</tbody></table></div><div class=\"table-scroll\"><table class=\"data-table\" id=\"validation-rows\"><thead><tr>");
    th(
        &mut o,
        &["#", v.kind, v.model, v.gpu, v.conditions, v.measured, v.expected, v.bound, v.error, v.bound_holds],
    );
    o.push_str("</tr></thead><tbody>");
    for r in &table.rows {
        let u = unit(r.unit, lang);
        let with_unit = |x: f64| esc(&format!("{} {u}", format_sig3(x)));
        let _ = write!(
            o,
            "<tr title=\"{}\"><td class=\"num\">{}</td><td class=\"kind\" title=\"{}\">{}</td><td class=\"name\" title=\"{}\">{}</td><td class=\"name\" title=\"{}\">{}</td><td class=\"conditions\">{}</td><td class=\"num\">{}</td><td class=\"num\">{}</td><td class=\"num\">{}</td><td class=\"num\">{:+.1}%</td><td>{}</td></tr>",
            esc(&r.source),
            r.index,
            esc(&r.kind),
            esc(kind(&r.kind, lang)),
            esc(&r.model),
            esc(&model_name(&r.conditions, lang)),
            esc(&r.gpu),
            esc(&gpu_name(&r.conditions.gpu)),
            esc(&conditions(&r.conditions, lang)),
            with_unit(r.measured),
            with_unit(r.expected),
            // A time's roofline figure is its shortest possible (≥), a rate's its highest (≤).
            r.bound.map_or_else(
                || "—".to_string(),
                |b| {
                    let side = if r.unit.is_time() { Bounded::Time } else { Bounded::Rate };
                    esc(&bound_cell(side, &format!("{} {u}", format_sig3(b))))
                }
            ),
            r.error_pct,
            match r.bound_holds {
                Some(true) => "✓",
                Some(false) => "✗",
                None => "—",
            },
        );
    }
    let _ = write!(o, "</tbody></table></div><h2>{}</h2><ul class=\"not-expressed\">", esc(v.not_expressed));
    for n in &table.not_expressed {
        // The model as the cited source names it (transcribed, so it stays in its words).
        let _ = write!(
            o,
            "<li>#{} <span title=\"{}\">{}</span> (<span class=\"source\" data-source=\"\" lang=\"en\">{}</span>): {}</li>",
            n.index,
            esc(&n.kind),
            esc(kind(&n.kind, lang)),
            esc(n.model.trim()),
            esc(&reason(&n.reason, lang)),
        );
    }
    o.push_str("</ul>");
    o
}

/// The catalog's display name of a row's model (its id in the cell's title), or the worded
/// GPT-style config.
fn model_name(c: &Conditions, lang: Lang) -> String {
    c.model
        .as_deref()
        .and_then(crate::catalog::models::find)
        .map(|e| e.model.name.clone())
        .unwrap_or_else(|| model(c, lang))
}

/// The catalog's display name of a GPU id; the id itself when the catalog has none (`custom`).
fn gpu_name(id: &str) -> String {
    crate::catalog::gpus::find(id).map_or_else(|| id.to_string(), |g| g.name.clone())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The tables the page and the browser test read: ids, one row per compared value, the
    /// violation counts as data, the not-expressed list; in both languages, all text escaped.
    #[test]
    fn tables_in_both_languages() {
        let table = crate::validation::validation_table();
        for lang in [Lang::Zh, Lang::En] {
            let html = page_html(&table, lang);
            assert!(html.contains("id=\"validation-summary\"") && html.contains("id=\"validation-rows\""));
            let rows = html.split("id=\"validation-rows\"").nth(1).unwrap();
            assert_eq!(rows.matches("<tr title=").count(), table.rows.len());
            assert_eq!(html.matches("data-violations=\"").count(), table.summary.len());
            assert_eq!(html.matches("<li>#").count(), table.not_expressed.len());
            assert_eq!(html.matches("<td").count(), table.summary.len() * 4 + table.rows.len() * 10);
            assert!(table.rows.len() >= 30);
        }
        let zh = page_html(&table, Lang::Zh);
        assert!(zh.contains(lang_title(Lang::Zh)) && !zh.contains(lang_title(Lang::En)));
    }

    /// The validation's name matching folds case in ASCII; for the embedded measurements and
    /// model names that is the same as full lower case.
    #[test]
    fn ascii_lower_case_is_full_lower_case_for_the_embedded_data() {
        for text in
            [include_str!("../catalog/data/measurements.json"), include_str!("../catalog/models.json")]
        {
            assert_eq!(text.to_lowercase(), text.to_ascii_lowercase());
        }
    }

    fn lang_title(lang: Lang) -> &'static str {
        lang.strings().validation.summary
    }

    #[test]
    fn text_is_escaped() {
        let mut table = crate::validation::validation_table();
        table.rows.truncate(1);
        table.rows[0].source = "<script>\"x\"&".into();
        table.not_expressed.truncate(1);
        table.not_expressed[0].model = "<b>m</b>".into();
        let html = page_html(&table, Lang::En);
        assert!(html.contains("title=\"&lt;script&gt;&quot;x&quot;&amp;\""));
        assert!(html.contains("&lt;b&gt;m&lt;/b&gt;") && !html.contains("<b>") && !html.contains("<script"));
    }
}
