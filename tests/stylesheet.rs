#![cfg(not(target_arch = "wasm32"))]
//! The stylesheet against what it must provide: every custom property it uses is defined with
//! a value (not in terms of itself), and every colour of the charts' palette has its dark-screen
//! value (charts carry the light palette as attributes; `svg.plot [fill="…"]` swaps each one).

use gpu_primer::charts::palette;

const CSS: &str = include_str!("../assets/style.css");

#[test]
fn every_custom_property_used_is_defined_by_a_value() {
    let mut used: Vec<&str> =
        CSS.split("var(--").skip(1).filter_map(|r| r.split([')', ',']).next()).collect();
    used.sort_unstable();
    used.dedup();
    assert!(used.len() > 15, "{used:?}");
    // Set inline by a rule for one element (`--scroll-bg`): used with a fallback.
    for name in used.iter().filter(|n| **n != "scroll-bg") {
        let definitions: Vec<&str> = CSS
            .split(&format!("--{name}:"))
            .skip(1)
            .map(|r| r.split([';', '}']).next().unwrap_or("").trim())
            .collect();
        assert!(!definitions.is_empty(), "--{name} is used but never defined");
        for value in definitions {
            assert!(!value.is_empty() && !value.contains(&format!("var(--{name}")), "--{name}: {value:?}");
        }
    }
}

#[test]
fn every_chart_colour_has_its_dark_value() {
    let dark = CSS.split("svg.plot [").skip(1).collect::<Vec<_>>().join("[");
    for colour in [
        palette::COMPUTE,
        palette::MEMORY,
        palette::COMMUNICATION,
        palette::OVERHEAD,
        palette::WEIGHTS,
        palette::KV_CACHE,
        palette::ACTIVATIONS,
        palette::LOGITS,
        palette::GRADIENTS,
        palette::OPTIMIZER,
        palette::MEMORY_OVERHEAD,
        palette::RECURRENT_STATE,
        palette::HEADROOM,
        palette::WARNING,
        palette::TEXT,
        palette::MUTED,
        palette::GRID,
        palette::AXIS,
        palette::BACKGROUND,
    ]
    .into_iter()
    .chain(palette::SERIES)
    {
        assert!(
            dark.contains(&format!("fill=\"{colour}\"]")) || dark.contains(&format!("stroke=\"{colour}\"]")),
            "{colour} has no dark-screen value in assets/style.css"
        );
    }
    // On a dark screen by the system's scheme (unless the page asks for light), and on a page
    // that asks for dark (an embed's `?theme=dark`).
    assert!(CSS.contains(
        "@media screen and (prefers-color-scheme: dark) {\n  :where(:root:not([data-theme=\"light\"])) svg.plot"
    ));
    assert!(CSS.contains("@media screen {\n  :where(:root[data-theme=\"dark\"]) svg.plot"));
}
