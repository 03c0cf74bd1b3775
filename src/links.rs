//! Share links in the page's address: opening the one in the fragment, now and whenever the
//! fragment changes (a link pasted into the address bar of an open page).

use engine::ShareDoc;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

use crate::app::state::Action;

/// What to do with the page's fragment: open its link, or say why it cannot be opened.
/// Nothing for an empty fragment.
pub fn action_for_location() -> Option<Action> {
    let hash = web_sys::window()?.location().hash().ok()?;
    let fragment = hash.trim_start_matches('#');
    if fragment.is_empty() {
        return None;
    }
    Some(match ShareDoc::decode(fragment) {
        Ok(doc) => Action::OpenLink(doc),
        Err(why) => Action::Notice(format!("This link cannot be opened: {why}.")),
    })
}

/// Calls `on_change` whenever the fragment changes, until the returned value is dropped.
pub fn on_hash_change(on_change: impl Fn() + 'static) -> Option<HashListener> {
    let window = web_sys::window()?;
    let closure = Closure::<dyn Fn()>::new(on_change);
    window
        .add_event_listener_with_callback("hashchange", closure.as_ref().unchecked_ref())
        .ok()?;
    Some(HashListener { closure })
}

/// A registered `hashchange` listener; removed when dropped.
pub struct HashListener {
    closure: Closure<dyn Fn()>,
}

impl Drop for HashListener {
    fn drop(&mut self) {
        if let Some(window) = web_sys::window() {
            let _ = window.remove_event_listener_with_callback(
                "hashchange",
                self.closure.as_ref().unchecked_ref(),
            );
        }
    }
}
