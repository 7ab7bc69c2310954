//! The estimator's state and advice, as pure functions (tested natively): what the URL hash,
//! localStorage and JSON files hold, how a damaged one is repaired, the article's presets, a
//! model made from a few sizes, what would make a scenario fit, and the rules behind edits that
//! change more than one field.

pub mod advice;
pub mod chart_inputs;
pub mod edits;
pub mod gguf_file;
pub mod hand_model;
pub mod kv_growth;
pub mod load_panel;
pub mod mig_slice;
pub mod presets;
pub mod scales;
pub mod state;
