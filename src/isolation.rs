//! Whether the page is cross-origin isolated (a match needs `SharedArrayBuffer`), and where this
//! browser runs a match.

use wasm_bindgen::{JsCast, JsValue};

use crate::runner::Isolation;

pub const NOT_ISOLATED: &str = "Matches need cross-origin isolation, and this page is not \
isolated: it must be served with the headers Cross-Origin-Opener-Policy: same-origin and \
Cross-Origin-Embedder-Policy: require-corp. Replays, links, the rules and the viewer still work.";

/// Chromium gives a sandboxed frame a process of its own; other browsers keep it in the page's.
fn separate_frame_process() -> bool {
    let navigator =
        js_sys::Reflect::get(&js_sys::global(), &"navigator".into()).unwrap_or(JsValue::UNDEFINED);
    let brands = js_sys::Reflect::get(&navigator, &"userAgentData".into())
        .and_then(|data| js_sys::Reflect::get(&data, &"brands".into()))
        .unwrap_or(JsValue::UNDEFINED);
    // Only Chromium's navigator has `userAgentData` (Firefox and WebKit: undefined).
    let Ok(brands) = brands.dyn_into::<js_sys::Array>() else {
        return false;
    };
    brands.iter().any(|brand| {
        js_sys::Reflect::get(&brand, &"brand".into())
            .ok()
            .and_then(|b| b.as_string())
            .is_some_and(|b| b == "Chromium")
    })
}

/// One line saying that a bot could still crash this tab, where the browser runs the match in
/// the page's own process (`None` where the match had a process of its own).
pub fn match_process_note(place: Option<Isolation>) -> Option<&'static str> {
    match place? {
        Isolation::Frame if separate_frame_process() => None,
        Isolation::Frame => Some(
            "In this browser the match's sandboxed frame shares the page's process: every cap \
             applies, but a bot that exhausts memory could crash this tab (your code is saved as \
             you type).",
        ),
        Isolation::Page => Some(
            "This browser gives the match no frame of its own with shared memory, so the bots \
             run in workers of this page: every cap applies, but a bot that exhausts memory \
             could crash this tab (your code is saved as you type).",
        ),
    }
}

pub fn cross_origin_isolated() -> bool {
    let global = js_sys::global();
    js_sys::Reflect::get(&global, &JsValue::from_str("crossOriginIsolated"))
        .ok()
        .and_then(|v| v.as_bool())
        .unwrap_or(false)
        && js_sys::Reflect::has(&global, &JsValue::from_str("SharedArrayBuffer")).unwrap_or(false)
}
