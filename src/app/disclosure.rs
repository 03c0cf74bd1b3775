//! A `<details>` whose contents are drawn only while it is open: long lists a person rarely
//! opens (an arena's hundreds of matches, a slot's earlier versions) cost nothing on the page
//! while they stay closed.

use wasm_bindgen::JsValue;
use yew::prelude::*;

/// Whether the `<details>` is open, and the `ontoggle` that keeps it so (closed at first).
#[hook]
pub fn use_open() -> (bool, Callback<Event>) {
    let open = use_state(|| false);
    let on_toggle = {
        let open = open.clone();
        Callback::from(move |e: Event| {
            let details: JsValue = e.target_unchecked_into::<web_sys::Element>().into();
            let is_open = js_sys::Reflect::get(&details, &"open".into()).ok();
            open.set(is_open.and_then(|v| v.as_bool()).unwrap_or(false))
        })
    };
    (*open, on_toggle)
}
