//! Whether bots written in the editor can run here (with `SharedArrayBuffer`, or else through the
//! page's service worker), what the page says when they cannot, and where this browser runs a
//! match.

use wasm_bindgen::{JsCast, JsValue};

use crate::runner::Isolation;

/// Why bots written in the editor cannot run here, in one plain sentence with what still works
/// (shown where [`cross_origin_isolated`] is false). It names the real cause: a page that is
/// not cross-origin isolated, or a browser that gives an isolated page no `SharedArrayBuffer`,
/// each without a service worker to fall back on.
pub const NOT_ISOLATED: Why = Why;

/// The reason, read from the browser when it is shown (see [`NOT_ISOLATED`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Why;

/// What still works whatever the cause.
const STILL_WORKS: &str = "Matches between built-in bots, replays, links, the rules and the \
viewer still work.";

impl std::fmt::Display for Why {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let global = js_sys::global();
        if !flag(&global, "crossOriginIsolated") {
            write!(
                f,
                "Bots written in the editor cannot run here: this page is not cross-origin \
                 isolated (the host must send the headers Cross-Origin-Opener-Policy: \
                 same-origin and Cross-Origin-Embedder-Policy: require-corp, or let the page's \
                 service worker add them, which this browser does not allow here). {STILL_WORKS}"
            )
        } else {
            write!(
                f,
                "Bots written in the editor cannot run here: the page is cross-origin isolated, \
                 but this browser gives it no SharedArrayBuffer, and no service worker runs here \
                 to pass the bots their input. {STILL_WORKS}"
            )
        }
    }
}

impl yew::html::IntoPropValue<yew::virtual_dom::VNode> for Why {
    fn into_prop_value(self) -> yew::virtual_dom::VNode {
        yew::virtual_dom::VNode::from(self.to_string())
    }
}

fn flag(global: &JsValue, name: &str) -> bool {
    js_sys::Reflect::get(global, &JsValue::from_str(name))
        .ok()
        .and_then(|v| v.as_bool())
        .unwrap_or(false)
}

/// Whether the page has shared memory: cross-origin isolated, with `SharedArrayBuffer`.
pub fn shared_memory() -> bool {
    let global = js_sys::global();
    flag(&global, "crossOriginIsolated")
        && js_sys::Reflect::has(&global, &JsValue::from_str("SharedArrayBuffer")).unwrap_or(false)
}

/// Whether a service worker can serve this page (a secure context with service workers): the
/// bots' other way to their input, where there is no shared memory.
pub fn service_worker_possible() -> bool {
    let global = js_sys::global();
    if !flag(&global, "isSecureContext") {
        return false;
    }
    let navigator =
        js_sys::Reflect::get(&global, &"navigator".into()).unwrap_or(JsValue::UNDEFINED);
    js_sys::Reflect::get(&navigator, &"serviceWorker".into())
        .map(|worker| !worker.is_undefined() && !worker.is_null())
        .unwrap_or(false)
}

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
        Isolation::Messages if service_worker_possible() => Some(
            "This browser gives the page no SharedArrayBuffer, so the match runs in workers of \
             this page and talks in messages: your bots read their input through the page's \
             service worker (the time it takes to reach them is not counted), every cap \
             applies, but a bot that exhausts memory could crash this tab (your code is saved \
             as you type).",
        ),
        Isolation::Messages if !flag(&js_sys::global(), "crossOriginIsolated") => Some(
            "This page is not cross-origin isolated, so it has no SharedArrayBuffer: matches \
             between built-in bots run in a worker of this page and talk in messages.",
        ),
        Isolation::Messages => Some(
            "This browser gives the page no SharedArrayBuffer, so matches between built-in bots \
             run in a worker of this page and talk in messages.",
        ),
    }
}

/// Whether bots written in the editor can run here: with shared memory, or else through the
/// page's service worker (see `runner::Isolation::Messages`). Matches between built-in bots run
/// everywhere.
pub fn cross_origin_isolated() -> bool {
    shared_memory() || service_worker_possible()
}
