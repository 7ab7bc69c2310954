//! A QTI 2.1 content package: `imsmanifest.xml` (IMS Content Packaging 1.1) and one
//! `assessmentItem` per variant, as Canvas, Blackboard, OpenOLAT and ILIAS import them.
//!
//! Each item has one float `textEntryInteraction` followed by the unit, and response
//! processing that scores 1 when the response `equal`s the correct response within the
//! exercise's tolerance (`toleranceMode="relative"`, the tolerance in percent, both bounds
//! included; `exact` where the key is a count), 0 otherwise (IMS QTI 2.1 final, section
//! "equal" of the expression reference). The worked solution is the item's `modalFeedback`,
//! shown after the attempt where the delivery system allows it.

use super::{lang_tag, variants, xml_escape, xml_number, zip, Request};
use crate::classroom::variant::Variant;
use crate::i18n::Lang;

const QTI_NS: &str = "http://www.imsglobal.org/xsd/imsqti_v2p1";
const QTI_XSD: &str = "http://www.imsglobal.org/xsd/qti/qtiv2p1/imsqti_v2p1.xsd";

/// The package's files: the manifest first, then each item under `items/`.
pub fn files(req: &Request) -> Result<Vec<(String, Vec<u8>)>, String> {
    let mut items = Vec::new();
    for p in &req.exercises {
        for (i, v) in variants(p, &req.class, req.variants)?.iter().enumerate() {
            let id = format!("{}-{}", p.id, i + 1);
            items.push((format!("items/{id}.xml"), item(v, &id, req.lang)?.into_bytes()));
        }
    }
    let mut out = vec![("imsmanifest.xml".to_string(), manifest(&items, &req.class).into_bytes())];
    out.extend(items);
    Ok(out)
}

/// The package as a ZIP archive.
pub fn package(req: &Request) -> Result<Vec<u8>, String> {
    Ok(zip::stored(&files(req)?))
}

/// An XML identifier (NCName): letters, digits, `-`, `_`, `.`, starting with a letter.
fn ident(s: &str) -> String {
    let body: String =
        s.chars().map(|c| if c.is_ascii_alphanumeric() || "-_.".contains(c) { c } else { '_' }).collect();
    format!("I-{body}")
}

/// One assessment item.
pub fn item(v: &Variant, id: &str, lang: Lang) -> Result<String, String> {
    let key = v.key_value()?;
    let tolerance = v.tolerance();
    let compare = if tolerance > 0.0 {
        let pct = xml_number(tolerance * 100.0);
        format!("<equal toleranceMode=\"relative\" tolerance=\"{pct} {pct}\" includeLowerBound=\"true\" includeUpperBound=\"true\">")
    } else {
        "<equal toleranceMode=\"exact\">".to_string()
    };
    Ok(format!(
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n\
         <assessmentItem xmlns=\"{QTI_NS}\" xmlns:xsi=\"http://www.w3.org/2001/XMLSchema-instance\" \
         xsi:schemaLocation=\"{QTI_NS} {QTI_XSD}\" identifier=\"{ident}\" title=\"{title}\" \
         adaptive=\"false\" timeDependent=\"false\" xml:lang=\"{lang}\">\n  \
         <responseDeclaration identifier=\"RESPONSE\" cardinality=\"single\" baseType=\"float\">\n    \
         <correctResponse><value>{key}</value></correctResponse>\n  </responseDeclaration>\n  \
         <outcomeDeclaration identifier=\"SCORE\" cardinality=\"single\" baseType=\"float\">\n    \
         <defaultValue><value>0</value></defaultValue>\n  </outcomeDeclaration>\n  \
         <outcomeDeclaration identifier=\"FEEDBACK\" cardinality=\"single\" baseType=\"identifier\"/>\n  \
         <itemBody>\n    <p>{question}</p>\n    \
         <p><textEntryInteraction responseIdentifier=\"RESPONSE\" expectedLength=\"12\"/> {unit}</p>\n  </itemBody>\n  \
         <responseProcessing>\n    <responseCondition>\n      <responseIf>\n        \
         {compare}<variable identifier=\"RESPONSE\"/><correct identifier=\"RESPONSE\"/></equal>\n        \
         <setOutcomeValue identifier=\"SCORE\"><baseValue baseType=\"float\">1</baseValue></setOutcomeValue>\n      \
         </responseIf>\n      <responseElse>\n        \
         <setOutcomeValue identifier=\"SCORE\"><baseValue baseType=\"float\">0</baseValue></setOutcomeValue>\n      \
         </responseElse>\n    </responseCondition>\n    \
         <setOutcomeValue identifier=\"FEEDBACK\"><baseValue baseType=\"identifier\">SOLUTION</baseValue></setOutcomeValue>\n  \
         </responseProcessing>\n  \
         <modalFeedback outcomeIdentifier=\"FEEDBACK\" identifier=\"SOLUTION\" showHide=\"show\">{solution}</modalFeedback>\n\
         </assessmentItem>\n",
        ident = ident(id),
        title = xml_escape(id),
        lang = lang_tag(lang),
        key = xml_number(key),
        question = xml_escape(&v.question(lang)?),
        unit = xml_escape(v.unit(lang)),
        solution = xml_escape(&v.solution(lang)?),
    ))
}

/// The content package's manifest, one resource per item.
fn manifest(items: &[(String, Vec<u8>)], class: &str) -> String {
    let resources: String = items
        .iter()
        .map(|(href, _)| {
            let name = href.trim_start_matches("items/").trim_end_matches(".xml");
            format!(
                "    <resource identifier=\"{}\" type=\"imsqti_item_xmlv2p1\" href=\"{href}\">\n      <file href=\"{href}\"/>\n    </resource>\n",
                ident(&format!("R-{name}")),
                href = xml_escape(href)
            )
        })
        .collect();
    format!(
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n\
         <manifest xmlns=\"http://www.imsglobal.org/xsd/imscp_v1p1\" xmlns:xsi=\"http://www.w3.org/2001/XMLSchema-instance\" \
         identifier=\"{}\" xsi:schemaLocation=\"http://www.imsglobal.org/xsd/imscp_v1p1 http://www.imsglobal.org/xsd/imscp_v1p1.xsd\">\n  \
         <metadata>\n    <schema>QTIv2.1 Package</schema>\n    <schemaversion>1.0.0</schemaversion>\n  </metadata>\n  \
         <organizations/>\n  <resources>\n{resources}  </resources>\n</manifest>\n",
        ident(&format!("M-gpu-primer-{class}"))
    )
}
