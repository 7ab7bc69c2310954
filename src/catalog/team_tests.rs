//! The team catalog's reader: the sample file reads, and each kind of mistake is named by its
//! entry and field. (Nothing here installs a catalog: the installed one is global to the process.)

use super::*;

const IDS: [&str; 2] = ["h100-sxm", "a100-sxm-80gb"];

fn problems(text: &str) -> Vec<String> {
    read(text, &IDS).unwrap_err().into_iter().map(|e| e.to_string()).collect()
}

#[test]
fn the_sample_file_reads() {
    let embedded = crate::catalog::gpus::embedded();
    let ids: Vec<&str> = embedded.iter().map(|g| g.id.as_str()).collect();
    let team = read(include_str!("../../docs/team-catalog.json"), &ids).unwrap();
    assert_eq!(team.gpus.len(), 2);
    let g = &team.gpus[0];
    assert_eq!(g.id, "lab-l40s-48gb");
    assert_eq!(g.memory_bytes, 48_000_000_000);
    assert_eq!(g.peak_flops.bf16, Some(362.05e12));
    assert!(g.validate().is_empty());
    // A GPU without its own source takes the file's; one with its own keeps it.
    assert_eq!(g.source, team.source);
    assert_eq!(g.retrieved, "2026-11-30");
    assert_ne!(team.gpus[1].source, team.source);
    assert_eq!(team.prices.len(), 3);
    assert_eq!(team.prices[0], ("lab-l40s-48gb".to_owned(), 0.95, team.source.clone()));
    // A price for a standard GPU, with its own source.
    assert_eq!(team.prices[2].0, "h100-sxm");
    assert!(team.prices[2].2.contains("reserved"), "{:?}", team.prices[2]);
}

#[test]
fn a_minimal_file_reads_and_fills_defaults() {
    let team = read(
        r#"{"source": "our inventory", "gpus": [{"id": "x1", "name": "X1", "memory_bytes": 24e9,
            "memory_bandwidth_bytes_per_s": 1e12, "peak_flops": {"fp16": 100e12}}]}"#,
        &IDS,
    )
    .unwrap();
    assert_eq!(team.gpus[0].source, "our inventory");
    assert_eq!(team.gpus[0].memory_bytes, 24_000_000_000);
    assert!(team.prices.is_empty() && team.name.is_empty());
}

#[test]
fn bad_fields_are_named_with_their_entry() {
    let p = problems(
        r#"{"source": "s", "gpus": [
            {"id": "ok-1", "name": "OK", "memory_bytes": 1e9, "memory_bandwidth_bytes_per_s": 1e11, "peak_flops": {"bf16": 1e13}},
            {"id": "lab-a", "name": "A", "memory_bytes": 0, "memory_bandwidth_bytes_per_s": -1, "peak_flops": {}},
            {"id": "lab-b", "name": "B", "memory_gigs": 80},
            {"id": "lab-c", "name": "C", "memory_bytes": "80 GB"}
        ]}"#,
    );
    assert_eq!(p.len(), 5, "{p:#?}");
    assert!(p[0].starts_with("gpus[1] 'lab-a'.memory_bytes: must be between"), "{}", p[0]);
    assert!(p[1].starts_with("gpus[1] 'lab-a'.memory_bandwidth_bytes_per_s: "), "{}", p[1]);
    assert!(p[2].starts_with("gpus[1] 'lab-a'.peak_flops: give at least one"), "{}", p[2]);
    assert!(p[3].starts_with("gpus[2] 'lab-b': unknown field 'memory_gigs'"), "{}", p[3]);
    assert!(p[4].starts_with("gpus[3] 'lab-c'.memory_bytes: expected"), "{}", p[4]);
}

#[test]
fn ids_must_be_new_plain_and_given() {
    let gpu = |id: &str| {
        format!(
            r#"{{{id}"name": "G", "memory_bytes": 1e9, "memory_bandwidth_bytes_per_s": 1e11, "peak_flops": {{"bf16": 1e13}}}}"#
        )
    };
    let text = format!(
        r#"{{"source": "s", "gpus": [{}, {}, {}, {}, {}, {}]}}"#,
        gpu(r#""id": "h100-sxm","#),
        gpu(r#""id": "Lab GPU","#),
        gpu(""),
        gpu(r#""id": "custom","#),
        gpu(r#""id": "lab-1","#),
        gpu(r#""id": "lab-1","#),
    );
    let p = problems(&text);
    assert_eq!(
        p,
        [
            "gpus[0] 'h100-sxm'.id: is already a GPU of the standard catalog; pick another id",
            "gpus[1] 'Lab GPU'.id: must be 1 to 64 of a-z, 0-9, '-', '.', '_'",
            "gpus[2].id: is required (the GPU's id in menus and links, e.g. \"lab-a100-80gb\")",
            "gpus[3] 'custom'.id: 'custom' is the estimator's own; pick another",
            "gpus[5] 'lab-1'.id: is given twice in this file",
        ]
    );
}

#[test]
fn the_file_and_its_prices_are_checked() {
    assert_eq!(
        problems("{\"source\": "),
        ["the file: is not valid JSON (line 1, column 11): EOF while parsing a value at line 1 column 11"]
    );
    assert_eq!(problems("[]")[0], "the file: must be a JSON object with 'source', 'gpus' and 'prices'");
    assert_eq!(
        problems(r#"{"gpus": [], "price": []}"#),
        [
            "price: unknown field (known: name, source, retrieved, gpus, prices)",
            "source: is required: say where the figures come from",
        ]
    );
    assert_eq!(problems(r#"{"source": "s"}"#), ["the file: lists no GPUs and no prices"]);
    assert_eq!(problems(r#"{"source": "s", "gpus": {}}"#), ["gpus: must be a list"]);
    let p = problems(
        r#"{"source": "s", "prices": [
            {"gpu": "h100-sxm", "usd_per_gpu_hour": 0},
            {"gpu": "nope", "usd_per_gpu_hour": 2},
            {"gpu": "a100-sxm-80gb", "usd_per_gpu_hour": 2, "currency": "EUR"},
            {"gpu": "a100-sxm-80gb", "usd_per_gpu_hour": 2},
            {"gpu": "a100-sxm-80gb", "usd_per_gpu_hour": 3},
            "h100-sxm"
        ]}"#,
    );
    assert_eq!(
        p,
        [
            "prices[0].usd_per_gpu_hour: must be a number of US dollars per GPU-hour in (0, 1000]",
            "prices[1].gpu: no GPU 'nope' in this file or the standard catalog",
            "prices[2].currency: unknown field (known: gpu, usd_per_gpu_hour, source)",
            "prices[4].gpu: 'a100-sxm-80gb' is priced twice",
            "prices[5]: must be a JSON object {\"gpu\": ID, \"usd_per_gpu_hour\": NUMBER}",
        ]
    );
}

#[test]
fn json_in_a_script_element_stays_inside_it() {
    let text = r#"{"source": "</script><b>x</b>"}"#;
    let safe = script_safe(text);
    assert!(!safe.contains("</"));
    let back: Value = serde_json::from_str(&safe).unwrap();
    assert_eq!(back["source"], "</script><b>x</b>");
}
