//! Exercises that check: every numeric key is recomputed by the engine, every engine number in a
//! worked solution fills, every chapter places exactly its exercises, and the counts hold.

use gpu_primer::content::{chapters, Segment};
use gpu_primer::exercises::{self, Answer};
use gpu_primer::i18n::Lang;
use std::collections::BTreeSet;

fn placed(page: &gpu_primer::content::Page) -> Vec<&'static str> {
    page.segments
        .iter()
        .filter_map(|s| match s {
            Segment::Exercise(id) => Some(*id),
            _ => None,
        })
        .collect()
}

#[test]
fn ids_are_unique_and_stable_words() {
    let mut seen = BTreeSet::new();
    for (_, list) in exercises::all() {
        for e in *list {
            assert!(seen.insert(e.id), "exercise id '{}' is used twice", e.id);
            assert!(
                !e.id.is_empty()
                    && e.id.chars().all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-'),
                "id '{}': lowercase letters, digits and dashes",
                e.id
            );
        }
    }
}

#[test]
fn every_numeric_key_is_computed_by_the_engine() {
    for (slug, list) in exercises::all() {
        for e in *list {
            let key = e.key_text().unwrap_or_else(|err| panic!("{slug}/{}: {err}", e.id));
            if let Answer::Number { .. } = e.answer {
                let value = e.key_value().unwrap();
                assert!(value.is_finite() && value > 0.0, "{}: key {value}", e.id);
                assert!(
                    e.is_right(&key),
                    "{}: the shown key '{key}' is not within tolerance of {value}",
                    e.id
                );
                let far = format!("{}", value * 1.5 + 1.0);
                assert!(!e.is_right(&far), "{}: a wrong answer {far} passes", e.id);
            }
        }
    }
}

#[test]
fn worked_solutions_fill_from_the_engine() {
    for (_, list) in exercises::all() {
        for e in *list {
            for lang in Lang::ALL {
                let text = e.solution(lang).unwrap_or_else(|err| panic!("{} ({lang:?}): {err}", e.id));
                assert!(!text.contains('{') && !text.contains('}'), "{}: unfilled field in {text}", e.id);
                // The browser tests read "NaN" or "undefined" on a page as a number that failed
                // to fill; a text that names one in words keeps the page's check meaningful.
                for t in [text.as_str(), e.text(lang).question, e.text(lang).hint] {
                    assert!(!t.contains("NaN") && !t.contains("undefined"), "{} ({lang:?}): {t}", e.id);
                }
                if let Answer::Number { decimals, .. } = e.answer {
                    let shown = exercises::format_number(e.key_value().unwrap(), decimals, true);
                    assert!(
                        text.contains(&shown),
                        "{} ({lang:?}): the solution does not state the key {shown}",
                        e.id
                    );
                }
            }
        }
    }
}

#[test]
fn choices_have_labels_for_every_value_and_a_valid_key() {
    for (_, list) in exercises::all() {
        for e in *list {
            let t = [&e.zh, &e.en];
            match e.answer {
                Answer::Choice { values, key } => {
                    assert!(values.contains(&key), "{}: key '{key}' is not an option", e.id);
                    for text in t {
                        assert_eq!(text.options.len(), values.len(), "{}: one label per option", e.id);
                    }
                }
                Answer::Number { .. } => {
                    for text in t {
                        assert!(!text.unit.is_empty(), "{}: a number states its unit", e.id);
                        assert!(text.options.is_empty(), "{}: a number has no options", e.id);
                    }
                }
            }
            for text in t {
                assert!(
                    !text.question.is_empty() && !text.hint.is_empty() && !text.solution.is_empty(),
                    "{}",
                    e.id
                );
            }
        }
    }
}

#[test]
fn chapters_place_their_exercises_in_both_languages() {
    let mut total = 0;
    for c in chapters() {
        let defined: Vec<&str> = exercises::for_chapter(c.slug).iter().map(|e| e.id).collect();
        for (lang, page) in [(Lang::Zh, &c.zh), (Lang::En, &c.en)] {
            assert_eq!(
                placed(page),
                defined,
                "{} ({lang:?}): placed exercises differ from its definitions",
                c.slug
            );
        }
        assert!(defined.len() >= 4, "{}: {} exercises, at least 4 wanted", c.slug, defined.len());
        total += defined.len();
    }
    assert!(total >= 60, "{total} exercises per language, at least 60 wanted");
    for (slug, _) in exercises::all() {
        assert!(chapters().iter().any(|c| c.slug == *slug), "exercises for unknown chapter {slug}");
    }
}

#[test]
fn worked_solutions_open_a_valid_scenario() {
    let mut opened = 0;
    for (_, list) in exercises::all() {
        for e in *list {
            if let Some(s) = e.scenario() {
                gpu_primer::catalog::evaluate(&s).unwrap_or_else(|err| panic!("{}: {err}", e.id));
                opened += 1;
            }
        }
    }
    assert!(opened >= 35, "most numeric exercises open the estimator ({opened})");
}

/// Ids are links teachers hand out and keys of saved progress: renaming one is a decision, so
/// the list is pinned here (add new ids at their place; never reuse an old one).
#[test]
fn ids_are_stable() {
    let ids: Vec<&str> = exercises::all().iter().flat_map(|(_, list)| list.iter().map(|e| e.id)).collect();
    assert_eq!(ids, PINNED_IDS);
}

const PINNED_IDS: &[&str] = &[
    "intro-8b-decode-bound",
    "intro-8b-memory-term",
    "intro-pcie-copy-share",
    "intro-pcie-scaling-term",
    "mem-kv-32x8k",
    "mem-adam-optimizer-7b",
    "mem-70b-int4-requests",
    "mem-70b-kv-per-token",
    "mem-oom-fragmentation",
    "mem-nvidia-smi-total",
    "bw-a100-ridge",
    "bw-a100-attainable-10",
    "bw-7b-int4-a100-bound",
    "bw-h200-16x8k-step",
    "bw-8b-prefill-2k-bound",
    "bw-8b-decode-b64-throughput",
    "bw-spec-expected-tokens",
    "bw-spec-tpot",
    "cuda-blocks-10m",
    "cuda-saxpy-h100",
    "cuda-launch-overhead",
    "cuda-shared-memory-scope",
    "cuda-occupancy-registers",
    "tc-gemm-a100-bf16",
    "tc-gemm-a100-tf32",
    "tc-amdahl-bf16",
    "tc-fp16-overflow",
    "spec-1e15-at-60pct",
    "spec-13b-l40s-decode",
    "spec-13b-a100-decode",
    "spec-mfu-sparse",
    "nvlink-7b-grad-allreduce",
    "nvlink-70b-tp8-prefill",
    "nvlink-70b-tp8-weights",
    "nvlink-nvls-busbw",
    "mig-1g10gb-sms",
    "mig-8b-int4-10gb-requests",
    "mig-8b-int4-weights",
    "mig-a100-layout",
    "cloud-l4-8k-requests",
    "cloud-a100-8k-requests",
    "cloud-idle-weekend",
    "cloud-price-per-gpu-hour",
    "train-8b-optimizer",
    "train-8b-zero3-min-gpus",
    "train-70b-qlora-base",
    "train-rag-extra-kv",
    "bottle-mfu-3000",
    "bottle-7b-a100-bound",
    "bottle-evidence-bw-share",
    "bottle-evidence-term",
    "bottle-allreduce-nvswitch",
    "bottle-allreduce-pcie",
    "path-h100-ridge",
    "path-h100-attainable-200",
    "path-scaling-efficiency",
    "path-cost-per-request",
    "cap-8b-32x8k-total",
    "cap-8b-32k-requests",
    "cap-8b-8k-requests",
    "cap-70b-int4-8k-requests",
    "cap-session-hit-rate",
    "cap-shared-prefix-kv",
    "cap-prefix-90-prefill",
    "cap-tiers-gpu-share",
    "cap-tiers-cpu-restore",
    "cap-tiers-ssd-restore",
    "cluster-intra-node-bw",
    "cluster-inter-node-bw",
    "cluster-checkpoint-write",
    "cluster-young-interval",
    "cluster-disagg-kv-bytes",
    "cluster-disagg-transfer",
    "cluster-disagg-limit",
    "cluster-wide-ep-experts",
    "cluster-wide-ep-kv",
    "cluster-wide-ep-exchange",
    "share-quota-runs",
    "share-mig-monthly-cost",
    "share-8x4k-kv",
    "share-mig-profile",
];
