//! Every replay of an arena as one zip file, each named with its match's number, its bots'
//! names and its seed (`arena::report::replay_file_name`, as `botplay arena --replays` names
//! them). The zip is made by fflate (`www/editor/zip.js`, a script of 5 KB the page fetches
//! the first time a zip is asked for), a few files at a time so that the page stays
//! responsive.

use js_sys::{Array, Function, Promise, Reflect};
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use wasm_bindgen_futures::JsFuture;

/// The script that defines `botplayZip`, beside the page.
const SCRIPT: &str = "zip.js";
const MAKER: &str = "botplayZip";

fn maker() -> Option<Function> {
    Reflect::get(&js_sys::global(), &JsValue::from_str(MAKER))
        .ok()?
        .dyn_into()
        .ok()
}

/// Loads `zip.js` once; resolves when `botplayZip` is defined.
async fn load_maker() -> Result<Function, String> {
    if let Some(found) = maker() {
        return Ok(found);
    }
    let document = web_sys::window()
        .and_then(|w| w.document())
        .ok_or("no document")?;
    let script: web_sys::HtmlScriptElement = document
        .create_element("script")
        .map_err(|_| "no script element")?
        .unchecked_into();
    let loaded = Promise::new(&mut |resolve, reject| {
        script.set_onload(Some(&resolve));
        script.set_onerror(Some(&reject));
    });
    script.set_src(SCRIPT);
    document
        .head()
        .ok_or("no document head")?
        .append_child(&script)
        .map_err(|_| "the zip maker could not be added")?;
    JsFuture::from(loaded).await.map_err(|_| {
        "the zip maker (zip.js) could not be loaded: is the page offline and not yet cached?"
    })?;
    maker().ok_or_else(|| "the zip maker (zip.js) did not start".to_string())
}

/// A zip of the files (name, text), or why it could not be made.
pub async fn zip(files: Vec<(String, String)>) -> Result<web_sys::Blob, String> {
    let make = load_maker().await?;
    let (names, texts) = (Array::new(), Array::new());
    for (name, text) in files {
        names.push(&JsValue::from_str(&name));
        texts.push(&JsValue::from_str(&text));
    }
    let made = make
        .call2(&JsValue::NULL, &names, &texts)
        .map_err(|e| format!("the zip could not be made: {e:?}"))?;
    let blob = JsFuture::from(Promise::from(made))
        .await
        .map_err(|e| format!("the zip could not be made: {e:?}"))?;
    blob.dyn_into()
        .map_err(|_| "the zip maker returned no file".to_string())
}
