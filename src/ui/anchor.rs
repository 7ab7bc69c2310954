//! Scrolling to the part of a page the hash names: a chapter section (`?s=s-3`) or a glossary
//! entry (`?term=kv-cache`); any other page starts at the top.

use crate::route::target_element_id;
use leptos::prelude::*;

/// After the page has rendered, scrolls to the hash's target and marks it, else to the top.
pub fn scroll_to_target() {
    let hash = super::browser::current_hash();
    let Some(id) = target_element_id(&hash) else {
        super::browser::scroll_to_top();
        return;
    };
    request_animation_frame(move || {
        match web_sys::window().and_then(|w| w.document()).and_then(|d| d.get_element_by_id(&id)) {
            Some(element) => {
                let _ = element.set_attribute("data-highlight", "");
                element.scroll_into_view();
            }
            None => super::browser::scroll_to_top(),
        }
    });
}
