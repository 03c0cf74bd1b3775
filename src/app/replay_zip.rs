//! Every replay of an arena as one zip file, each named with its match's number, its bots'
//! names and its seed (`arena::report::replay_file_name`, as `botplay arena --replays` names
//! them). The zip is made by fflate (`www/editor/zip.js`, a script of 5 KB the page fetches
//! the first time a zip is asked for), a few files at a time so that the page stays
//! responsive.

use js_sys::{Array, Promise};
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use wasm_bindgen_futures::JsFuture;

/// A zip of the files (name, text), or why it could not be made.
pub async fn zip(files: Vec<(String, String)>) -> Result<web_sys::Blob, String> {
    let make = super::lazy_script::function("zip.js", "botplayZip", "the zip maker").await?;
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
