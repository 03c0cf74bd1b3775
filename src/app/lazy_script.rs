//! Scripts the page fetches only when a person first asks for what they do (the zip of an
//! arena's replays, a link's QR code): each defines one global function. The first call adds the
//! script to the page; later calls find the function at once.

use js_sys::{Function, Promise, Reflect};
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use wasm_bindgen_futures::JsFuture;

fn global_function(name: &str) -> Option<Function> {
    Reflect::get(&js_sys::global(), &JsValue::from_str(name))
        .ok()?
        .dyn_into()
        .ok()
}

/// The global function `name` that `script` (beside the page) defines, the script loaded first
/// if it has not been; or why it cannot be had (`what` names it for people).
pub async fn function(script: &str, name: &str, what: &str) -> Result<Function, String> {
    if let Some(found) = global_function(name) {
        return Ok(found);
    }
    let document = web_sys::window()
        .and_then(|w| w.document())
        .ok_or("no document")?;
    let element: web_sys::HtmlScriptElement = document
        .create_element("script")
        .map_err(|_| "no script element")?
        .unchecked_into();
    let loaded = Promise::new(&mut |resolve, reject| {
        element.set_onload(Some(&resolve));
        element.set_onerror(Some(&reject));
    });
    element.set_src(script);
    document
        .head()
        .ok_or("no document head")?
        .append_child(&element)
        .map_err(|_| format!("{what} could not be added to the page"))?;
    JsFuture::from(loaded).await.map_err(|_| {
        format!("{what} ({script}) could not be loaded: is the page offline and not yet cached?")
    })?;
    global_function(name).ok_or_else(|| format!("{what} ({script}) did not start"))
}
