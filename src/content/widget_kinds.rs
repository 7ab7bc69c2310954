// Included by `render.rs` (so `build.rs` checks chapter slots against it) and by `content/mod.rs`
// (so the embed route takes the same kinds): one list, two crates.

/// The widgets a chapter may place, as `{{widget:KIND}}` or `{{widget:KIND:PRESET}}` (a preset
/// of the estimator, checked by a test), and the kinds `#/{lang}/embed/{kind}` shows. The UI maps
/// each kind to a component.
pub const WIDGETS: &[&str] = &[
    "memory",
    "kv-cache",
    "roofline",
    "scaling",
    "bound",
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
    "lab",
    // The decision tools (`route::Tool`), each also a page at `#/{lang}/tools/{kind}`.
    "mig",
    "cloud",
    "diagnose",
    "cluster",
    "local",
];
