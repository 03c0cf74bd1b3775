//! Whether the page is cross-origin isolated (JavaScript bots need `SharedArrayBuffer`).

use wasm_bindgen::JsValue;

pub const NOT_ISOLATED: &str = "JavaScript bots need cross-origin isolation, and this page is \
not isolated: it must be served with the headers Cross-Origin-Opener-Policy: same-origin and \
Cross-Origin-Embedder-Policy: require-corp. The built-in bots still work.";

pub fn cross_origin_isolated() -> bool {
    let global = js_sys::global();
    js_sys::Reflect::get(&global, &JsValue::from_str("crossOriginIsolated"))
        .ok()
        .and_then(|v| v.as_bool())
        .unwrap_or(false)
        && js_sys::Reflect::has(&global, &JsValue::from_str("SharedArrayBuffer")).unwrap_or(false)
}
