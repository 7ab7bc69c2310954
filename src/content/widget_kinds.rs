// Included by `render.rs` (so `build.rs` checks chapter slots against it) and by `content/mod.rs`
// (so the embed route takes the same kinds): one list, two crates.

/// The estimator's charts a chapter may place: the estimator's own component, sharing its ids.
pub const ESTIMATOR_WIDGETS: &[&str] = &["memory", "kv-cache", "roofline", "scaling", "bound"];

/// The lesson widgets: each its own component (`ui::widgets`), with its own element ids.
pub const LESSON_WIDGETS: &[&str] = &[
    "cuda-grid",
    "tensor-peaks",
    "spec-sheet",
    "gpu-ladder",
    "all-reduce",
    "state-vs-kv",
    "prefix-reuse",
    "disaggregation",
    "wide-ep",
    "kv-tiers",
    "speculation",
];

/// The decision tools (`route::Tool`), each also a page at `#/{lang}/tools/{kind}`.
pub const TOOL_WIDGETS: &[&str] = &["mig", "cloud", "diagnose", "cluster", "local"];

/// `parts` one after another, in an array of exactly their total length (checked when built).
const fn joined<const N: usize>(parts: [&[&'static str]; 4]) -> [&'static str; N] {
    let mut out = [""; N];
    let (mut i, mut p) = (0, 0);
    while p < parts.len() {
        let mut j = 0;
        while j < parts[p].len() {
            out[i] = parts[p][j];
            i += 1;
            j += 1;
        }
        p += 1;
    }
    assert!(i == N, "the widget lists and their total length differ");
    out
}

const ALL_WIDGETS: [&str; 22] = joined([ESTIMATOR_WIDGETS, LESSON_WIDGETS, &["lab"], TOOL_WIDGETS]);

/// The widgets a chapter may place, as `{{widget:KIND}}` or `{{widget:KIND:PRESET}}` (a preset
/// of the estimator, checked by a test), and the kinds `#/{lang}/embed/{kind}` shows. The UI maps
/// each kind to a component.
pub const WIDGETS: &[&str] = &ALL_WIDGETS;
