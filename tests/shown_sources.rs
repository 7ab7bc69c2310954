//! What the pages show of the catalog's sources says what the source is and its date, in words
//! fit for a reader: no research notes ("[UNVERIFIED] not found in any source read during this
//! research", "Spanish edition for g5", "(snapshot retrieved_at)", "a secondary copy"), no
//! bracketed source tags, no code-search ids. The catalog keeps its provenance in `notes`, which
//! no page shows.

use gpu_primer::catalog::{gpus, instances, models};

const RESEARCH_NOTES: [&str; 14] = [
    "UNVERIFIED",
    "not found in any source",
    "research",
    "Spanish edition",
    "retrieved_at",
    "snapshot retrieved",
    "secondary copy",
    "code-search id",
    "code index id",
    "not verified",
    "Provenance",
    "as recalled",
    "(copies:",
    "[secondary",
];

fn problems(what: &str, text: &str, out: &mut Vec<String>) {
    for n in RESEARCH_NOTES {
        if text.contains(n) {
            out.push(format!("{what}: '{n}' in '{text}'"));
        }
    }
    // A bracketed tag such as [NV-A100-DS] or [TORCHX].
    let b = text.as_bytes();
    for (i, _) in text.match_indices('[') {
        let tag: String = text[i + 1..]
            .chars()
            .take_while(|c| c.is_ascii_uppercase() || c.is_ascii_digit() || *c == '-')
            .collect();
        if tag.len() >= 2 && b.get(i + 1 + tag.len()) == Some(&b']') {
            out.push(format!("{what}: source tag [{tag}] in '{text}'"));
        }
    }
}

fn is_date(s: &str) -> bool {
    let b = s.as_bytes();
    s.len() == 10 && b[4] == b'-' && b[7] == b'-' && s.chars().filter(char::is_ascii_digit).count() == 8
}

#[test]
fn shown_sources_are_citations_with_dates_not_research_notes() {
    let mut out = Vec::new();
    for g in gpus::all() {
        problems(&format!("gpu {}", g.id), &g.source, &mut out);
        assert!(is_date(&g.retrieved), "gpu {}: a source line has its date ({})", g.id, g.retrieved);
        if let Some((_, text)) = gpu_primer::catalog::default_price_per_gpu_hour(&g.id) {
            problems(&format!("price of {}", g.id), &text, &mut out);
            assert!(text.contains("20"), "the price names its date: {text}");
            assert!(!text.contains("GPUs"), "the price source reads in both languages: {text}");
        }
    }
    for i in instances::all() {
        let what = format!("instance {}", i.instance);
        problems(&what, &i.source, &mut out);
        for t in [&i.intra_node_interconnect]
            .into_iter()
            .chain([&i.network_type, &i.local_nvme].into_iter().flatten())
        {
            problems(&what, t, &mut out);
        }
        if let Some(d) = &i.price_date {
            assert!(is_date(d) || d == "undated", "{what}: price date '{d}'");
        }
    }
    for t in gpu_primer::catalog::mig::all() {
        problems(&format!("MIG table {}", t.key), &t.source, &mut out);
    }
    for e in models::all() {
        // The model line shows the config's address and the date.
        let first = e.model.source.split([';', ' ']).find(|p| p.starts_with("http")).unwrap_or("");
        assert!(first.starts_with("https://"), "{}", e.model.id);
        assert!(is_date(&e.model.retrieved), "{}", e.model.id);
        // The planner shows a published quantised checkpoint's address and date.
        for q in &e.model.quantized {
            problems(&format!("checkpoint {}", q.repo), &q.source, &mut out);
            assert!(q.source.starts_with("https://") && is_date(&q.retrieved), "{}", q.repo);
        }
    }
    assert!(out.is_empty(), "{} research notes shown:\n{}", out.len(), out.join("\n"));
}
