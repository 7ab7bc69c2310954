#![cfg_attr(
    not(all(
        feature = "course",
        feature = "estimator",
        feature = "planner",
        feature = "tools",
        feature = "classroom"
    )),
    allow(dead_code)
)]
//! The app: Leptos components that make the prerendered pages live.
//!
//! Every page is an HTML file written at build time (`crate::site`), which already carries each
//! component's default state: natively, [`snapshot`] renders these same components to HTML
//! strings. In the browser the wasm starts on whatever page it is loaded on, mounts the
//! components into their slots ([`mount`]) and from then on moves between pages without a
//! reload ([`nav`]). Components stay thin: they read signals, call the engine and show its
//! report.
//!
//! # Rooms
//!
//! The app's rooms (its top-level files and folders) are built in layers: a room imports only
//! from its own layer or the layers below, and never in a cycle; `tests/architecture.rs` holds
//! the same table and checks every import against it (a new room is placed in both). Nothing
//! reaches up: moving between pages (`nav`) mounts a new page with the mounting `mount` hands
//! it at the start, and the components ask the browser through `browser`, whose every call
//! also answers natively (for the prerenderer).
//!
//! | Layer | What | Rooms |
//! |---|---|---|
//! | 1 | reading the app's own addresses | `address` |
//! | 2 | where the page is, and moving between pages (in the browser) | `nav` |
//! | 3 | what the components ask of the browser, the same natively | `browser` |
//! | 4 | components: the site's frame (the phone's chapter menu, glossary terms' definitions), chapter figures, exercises, search, the planner, the tools, the lab, the lesson widgets, the classroom | `chrome`, `figure`, `exercise`, `search`, `plan`, `tools`, `lab`, `widgets`, `classroom` |
//! | 5 | the estimator, and the chapter widget that shows any component | `estimator` |
//! | 6 | the pages whose content is a component, and the embed page | `pages` |
//! | 7 | putting components in place: mounted in the browser, rendered natively, timed | `mount`, `snapshot`, `bench` |
//! | 8 | this module: the app's start | `mod` |

#[cfg(any(target_arch = "wasm32", test))]
mod address;
#[cfg(target_arch = "wasm32")]
mod bench;
pub(crate) mod browser;
#[cfg(target_arch = "wasm32")]
mod chrome;
pub(crate) mod classroom;
pub(crate) mod estimator;
#[cfg(target_arch = "wasm32")]
mod exercise;
pub(crate) mod figure;
// The lab (and its JavaScript driver, which wasm-bindgen would copy into every bundle) is the
// course's: its page and its chapter widget are in no other bundle.
#[cfg(any(feature = "course", not(target_arch = "wasm32")))]
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
