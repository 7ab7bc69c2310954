//! Charts as pure functions to SVG strings (plotters' SVG backend), tested natively.
