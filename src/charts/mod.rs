//! Charts as pure functions to SVG strings (plotters' SVG backend), tested natively.
//!
//! Each chart takes a small plain input struct defined here (never an engine type: the UI
//! maps a `Report` to chart input) and a width in px (640 on a desktop, 360 on a phone), and
//! returns a complete SVG string: responsive (`viewBox`, `width="100%"`), accessible
//! (`role="img"`, `aria-label` and `<title>` = the chart title), with `font-family="sans-serif"`
//! so the site's CSS can give it a CJK-capable font. Every label comes from the caller, in
//! the page's language; numbers are formatted with [`format`]. No input makes a chart panic:
//! empty or unusable data gives a valid SVG with the caller's `no_data` message, and
//! non-finite or out-of-range values are skipped or clamped.

mod canvas;
pub mod format;
pub mod palette;

pub mod allreduce;
pub mod bound_bars;
pub mod cost_split;
pub mod figures;
pub mod kv_growth;
pub mod latency_load;
pub mod memory_bar;
pub mod roofline;
pub mod scaling;
pub mod speculation;
#[cfg(any(test, not(target_arch = "wasm32")))]
pub mod text_fit;

pub use allreduce::{allreduce_svg, AllReduceChart, AllReduceSeries, YAxis};
pub use bound_bars::{bound_bars_svg, BoundBarsChart, BoundGroup, TermLabels};
pub use format::{
    format_bytes, format_percent, format_rate, format_seconds, format_si, format_tokens, ByteUnit,
};
pub use kv_growth::{kv_growth_svg, KvCapacity, KvGrowthChart, KvLine};
pub use memory_bar::{memory_bar_svg, MemoryBarChart, MemoryLabels, MemoryRow};
pub use roofline::{roofline_svg, ExpectedRoof, RooflineChart, RooflinePoint};
pub use scaling::{scaling_svg, ScalingChart, ScalingPoint, ScalingSeries};
pub use speculation::{speculation_svg, SpecPoint, SpeculationChart};

/// Width of a desktop chart (px of viewBox).
pub const DESKTOP_WIDTH: u32 = 640;
/// Width of a phone chart (px of viewBox).
pub const PHONE_WIDTH: u32 = 360;

#[cfg(test)]
mod escaping;
#[cfg(test)]
mod samples;
#[cfg(test)]
pub(crate) mod test_util;
