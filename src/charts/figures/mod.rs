//! Figures in the chapters: diagrams as pure functions to SVG strings, placed by a
//! `{{figure:NAME}}` line in a chapter and mounted by `ui::figure`.
//!
//! Each figure takes a small plain input struct whose every text is already in the page's
//! language, and returns an SVG with `role="img"` and an `aria-label`. Text is escaped by the
//! shared [`draw`] helpers; colours are CSS classes of `assets/style.css` (theme variables),
//! so the diagrams follow the light and dark themes. The roofline reuses the roofline chart.

mod draw;

pub mod decision_path;
pub mod memory_hierarchy;
pub mod mig_slices;
pub mod ring_allreduce;
pub mod roofline_kernels;
pub mod thread_hierarchy;
pub mod topology;

/// XML/HTML escaping of text (the UI's figure controls use it for catalog names).
pub(crate) use crate::charts::canvas::escape;
pub use draw::fill;
pub(crate) use draw::wrap;
