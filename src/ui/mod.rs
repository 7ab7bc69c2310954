#![cfg_attr(not(all(feature = "course", feature = "estimator", feature = "tools")), allow(dead_code))]
//! The app: Leptos components that make the prerendered pages live.
//!
//! Every page is an HTML file written at build time (`crate::site`), which already carries each
//! component's default state: natively, [`snapshot`] renders these same components to HTML
//! strings. In the browser the wasm starts on whatever page it is loaded on, mounts the
//! components into their slots ([`mount`]) and from then on moves between pages without a
//! reload ([`nav`]). Components stay thin: they read signals, call the engine and show its
//! report.

#[cfg(any(target_arch = "wasm32", test))]
mod address;
#[cfg(target_arch = "wasm32")]
mod bench;
pub(crate) mod browser;
pub(crate) mod estimator;
#[cfg(target_arch = "wasm32")]
mod exercise;
pub(crate) mod figure;
pub(crate) mod lab;
#[cfg(target_arch = "wasm32")]
mod mount;
#[cfg(target_arch = "wasm32")]
pub(crate) mod nav;
pub(crate) mod pages;
pub(crate) mod plan;
pub(crate) mod search;
#[cfg(not(target_arch = "wasm32"))]
pub(crate) mod snapshot;
pub(crate) mod tools;
pub(crate) mod widgets;

/// Starts the app on the page it is loaded on.
#[cfg(target_arch = "wasm32")]
pub fn start() {
    mount::start();
}
