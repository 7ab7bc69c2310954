//! One palette for every chart, exported as `&'static str` hex so the UI's HTML legends and
//! bars use exactly the same colours as the SVG charts.
//!
//! Colours are from the Okabe–Ito / Tableau families: distinguishable for the common forms of
//! colour blindness, and dark enough for text on white.

use plotters::style::RGBColor;

// Bound terms (roofline, bound bars).
pub const COMPUTE: &str = "#2F6FBA";
pub const MEMORY: &str = "#D9822B";
pub const COMMUNICATION: &str = "#8E5BB5";
pub const OVERHEAD: &str = "#7A7F87";

// Memory components (memory bar; same order as the report's `Memory`).
pub const WEIGHTS: &str = "#2F6FBA";
pub const KV_CACHE: &str = "#D9822B";
pub const ACTIVATIONS: &str = "#3A9E6E";
pub const LOGITS: &str = "#8C6D31";
pub const GRADIENTS: &str = "#C4475A";
pub const OPTIMIZER: &str = "#8E5BB5";
pub const MEMORY_OVERHEAD: &str = "#7A7F87";
/// Fixed-size state of linear-attention / Mamba layers (hybrid models).
pub const RECURRENT_STATE: &str = "#1B8A9A";
/// Quantised weight copies of a low-precision training recipe.
pub const FP8_WEIGHT_CACHE: &str = "#5B7FA8";
/// FSDP's unsharded layers and gradient buffer.
pub const FSDP_BUFFERS: &str = "#B07A9C";
/// The allocator's reserve beyond what is allocated.
pub const ALLOCATOR_RESERVE: &str = "#A5ABB3";
pub const HEADROOM: &str = "#E6E9EE";

/// Past capacity, impossible points, "does not fit".
pub const WARNING: &str = "#D62728";

/// Lines of several series (strategies, concurrency levels), in order.
pub const SERIES: [&str; 6] = ["#2F6FBA", "#D9822B", "#3A9E6E", "#C4475A", "#8E5BB5", "#8C6D31"];

// Neutral ink.
pub const TEXT: &str = "#1F2328";
pub const MUTED: &str = "#59636E";
pub const GRID: &str = "#E3E6EA";
pub const AXIS: &str = "#8C959F";
pub const BACKGROUND: &str = "#FFFFFF";

/// Parse one of the constants above (`#RRGGBB`) into a plotters colour; grey on bad input.
pub fn rgb(hex: &str) -> RGBColor {
    let h = hex.trim_start_matches('#');
    let byte = |i: usize| h.get(i..i + 2).and_then(|s| u8::from_str_radix(s, 16).ok());
    match (h.len(), byte(0), byte(2), byte(4)) {
        (6, Some(r), Some(g), Some(b)) => RGBColor(r, g, b),
        _ => RGBColor(128, 128, 128),
    }
}

/// Colour of series `i` (cycles).
pub fn series(i: usize) -> &'static str {
    SERIES[i % SERIES.len()]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn constants_parse() {
        assert_eq!(rgb(COMPUTE), RGBColor(0x2F, 0x6F, 0xBA));
        assert_eq!(rgb("nonsense"), RGBColor(128, 128, 128));
        for c in [
            COMPUTE,
            MEMORY,
            COMMUNICATION,
            OVERHEAD,
            WEIGHTS,
            KV_CACHE,
            ACTIVATIONS,
            LOGITS,
            GRADIENTS,
            OPTIMIZER,
            MEMORY_OVERHEAD,
            RECURRENT_STATE,
            HEADROOM,
            WARNING,
            TEXT,
        ] {
            assert_eq!(c.len(), 7);
            assert_ne!(rgb(c), RGBColor(128, 128, 128), "{c}");
        }
        assert_eq!(series(7), SERIES[1]);
    }
}
