//! `content/glossary.json` → the glossary's terms, checked. Used by `build.rs` (which also links
//! the terms in the chapters and writes `$OUT_DIR/glossary.rs`) and unit-tested natively.
//!
//! The file is `{"topics": [...], "terms": [{"id", "topic", "en": {"term", "def", "match"},
//! "zh": {...}, "standalone"?}]}`; `match` lists the phrases that count as a use of the term in
//! that language's chapters, `not` (optional) the longer phrases that contain one of them in
//! another sense ("model FLOPs utilisation", "激活函数"): a link is a concept, not a string.
//! `"standalone": true` marks a term no chapter uses (allowed, but said).

use super::terms::TermPatterns;
use serde_json::Value;

/// A term in one language.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TermText {
    pub term: String,
    pub definition: String,
    pub patterns: Vec<String>,
    /// Phrases containing a pattern that are not this term.
    pub not: Vec<String>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GlossaryTerm {
    pub id: String,
    pub topic: String,
    pub zh: TermText,
    pub en: TermText,
    pub standalone: bool,
}

#[derive(Debug)]
pub struct Glossary {
    pub terms: Vec<GlossaryTerm>,
}

fn text(term: &Value, lang: &str, id: &str) -> Result<TermText, String> {
    let side = term.get(lang).ok_or_else(|| format!("term '{id}' has no '{lang}' entry"))?;
    let field = |name: &str| -> Result<String, String> {
        let value = side.get(name).and_then(Value::as_str).unwrap_or("").trim().to_string();
        if value.is_empty() {
            return Err(format!("term '{id}' has no {lang}.{name}"));
        }
        Ok(value)
    };
    let list = |name: &str| -> Vec<String> {
        side.get(name)
            .and_then(Value::as_array)
            .map(|a| {
                a.iter().filter_map(Value::as_str).map(str::to_string).filter(|p| !p.is_empty()).collect()
            })
            .unwrap_or_default()
    };
    let patterns = list("match");
    if patterns.is_empty() {
        return Err(format!("term '{id}' has no {lang}.match patterns"));
    }
    let not = list("not");
    // A `not` phrase is a longer phrase around one of the patterns, or it excludes nothing.
    if let Some(stray) = not.iter().find(|n| {
        !patterns
            .iter()
            .any(|p| n.to_ascii_lowercase().contains(&p.to_ascii_lowercase()) && n.len() > p.len())
    }) {
        return Err(format!("term '{id}': {lang}.not phrase '{stray}' contains none of its match patterns"));
    }
    Ok(TermText { term: field("term")?, definition: field("def")?, patterns, not })
}

/// Parses and checks the glossary: ids are unique lowercase slugs, topics are listed, both
/// languages have a term, a definition and at least one pattern.
pub fn parse(json: &str) -> Result<Glossary, String> {
    let root: Value = serde_json::from_str(json).map_err(|e| format!("not valid JSON: {e}"))?;
    let topics: Vec<String> = root
        .get("topics")
        .and_then(Value::as_array)
        .map(|a| a.iter().filter_map(Value::as_str).map(str::to_string).collect())
        .unwrap_or_default();
    let list = root.get("terms").and_then(Value::as_array).ok_or("no 'terms' list")?;
    let mut terms: Vec<GlossaryTerm> = Vec::new();
    for term in list {
        let id = term.get("id").and_then(Value::as_str).unwrap_or("").to_string();
        let slug_ok =
            !id.is_empty() && id.chars().all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-');
        if !slug_ok {
            return Err(format!("term id '{id}' must be lowercase letters, digits and dashes"));
        }
        if terms.iter().any(|t| t.id == id) {
            return Err(format!("term id '{id}' is used twice"));
        }
        let topic = term.get("topic").and_then(Value::as_str).unwrap_or("").to_string();
        if !topics.contains(&topic) {
            return Err(format!("term '{id}': topic '{topic}' is not in the topics list {topics:?}"));
        }
        let standalone = term.get("standalone").and_then(Value::as_bool).unwrap_or(false);
        terms.push(GlossaryTerm {
            zh: text(term, "zh", &id)?,
            en: text(term, "en", &id)?,
            id,
            topic,
            standalone,
        });
    }
    Ok(Glossary { terms })
}

impl Glossary {
    /// The patterns to link in chapters of `lang` (`zh`/`en`).
    pub fn patterns(&self, lang: &str) -> Vec<TermPatterns> {
        self.terms
            .iter()
            .map(|t| {
                let side = if lang == "zh" { &t.zh } else { &t.en };
                TermPatterns { id: t.id.clone(), patterns: side.patterns.clone(), not: side.not.clone() }
            })
            .collect()
    }
}

/// The Rust name of a topic's `Topic` variant: `interconnect` → `Interconnect`.
pub fn topic_variant(topic: &str) -> String {
    topic
        .split('-')
        .map(|w| {
            let mut c = w.chars();
            c.next().map(|f| f.to_ascii_uppercase().to_string() + c.as_str()).unwrap_or_default()
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    const OK: &str = r#"{"topics": ["memory"], "terms": [
      {"id": "hbm", "topic": "memory",
       "en": {"term": "HBM", "def": "Stacked memory.", "match": ["HBM"]},
       "zh": {"term": "HBM", "def": "堆叠内存。", "match": ["HBM"]}}]}"#;

    #[test]
    fn parses_and_checks() {
        let g = parse(OK).unwrap();
        assert_eq!(g.terms.len(), 1);
        assert_eq!(g.patterns("zh")[0].patterns, vec!["HBM".to_string()]);
        assert!(parse(&OK.replace("\"hbm\"", "\"HBM x\"")).unwrap_err().contains("lowercase"));
        assert!(parse(&OK.replace("\"堆叠内存。\"", "\"\"")).unwrap_err().contains("zh.def"));
        assert!(parse(&OK.replace("\"topic\": \"memory\"", "\"topic\": \"cloud\""))
            .unwrap_err()
            .contains("topic"));
        assert!(parse("{").unwrap_err().contains("JSON"));
        let with_not =
            OK.replace("\"match\": [\"HBM\"]}}", "\"match\": [\"HBM\"], \"not\": [\"HBM 带宽\"]}}");
        assert_eq!(parse(&with_not).unwrap().patterns("zh")[0].not, vec!["HBM 带宽".to_string()]);
        let stray = OK.replace("\"match\": [\"HBM\"]}}", "\"match\": [\"HBM\"], \"not\": [\"DRAM\"]}}");
        assert!(parse(&stray).unwrap_err().contains("none of its match patterns"));
        assert_eq!(topic_variant("interconnect"), "Interconnect");
    }

    #[test]
    fn the_real_glossary_is_complete() {
        let g = parse(include_str!("../../content/glossary.json")).unwrap();
        assert!(g.terms.len() >= 60, "{} terms", g.terms.len());
        for t in &g.terms {
            for side in [&t.zh, &t.en] {
                assert!(side.definition.chars().count() >= 10, "{}: definition too short", t.id);
            }
        }
    }
}
