//! The match worker: plays one match in the match host (`www/match-host.js`), away from the
//! page's main thread (see `botplay_web::match_host`).
//!
//! The host sends one message: `{start, doorbell, control, rings}`, where `start` is the JSON of a
//! [`HostStart`], `doorbell` and `control` are `SharedArrayBuffer`s, and `rings` has per seat
//! `[input, output]` buffers for a bot in a worker, or `null`. The worker then plays the match to
//! its end in this one call (it blocks in `Atomics.wait` between events) and posts:
//! a string, the JSON of a [`HostNews`], for the page; a number, the seat whose worker the host
//! must stop now.

use botplay_web::match_host::driver::{Channels, Driver, Outbox};
use botplay_web::match_host::rings::{Doorbell, InputRing, RecordReader};
use botplay_web::match_host::{HostNews, HostStart};
use js_sys::{Array, SharedArrayBuffer};
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use web_sys::{DedicatedWorkerGlobalScope, MessageEvent};

struct Post(DedicatedWorkerGlobalScope);

impl Outbox for Post {
    fn news(&self, news: &HostNews) {
        if let Ok(json) = serde_json::to_string(news) {
            let _ = self.0.post_message(&JsValue::from_str(&json));
        }
    }

    fn kill(&self, seat: usize) {
        let _ = self.0.post_message(&JsValue::from_f64(seat as f64));
    }
}

fn get(value: &JsValue, key: &str) -> JsValue {
    js_sys::Reflect::get(value, &key.into()).unwrap_or(JsValue::UNDEFINED)
}

fn buffer(value: JsValue, what: &str) -> Result<SharedArrayBuffer, String> {
    value
        .dyn_into::<SharedArrayBuffer>()
        .map_err(|_| format!("the match host sent no {what}"))
}

fn channels(data: &JsValue) -> Result<Channels, String> {
    let doorbell = Doorbell::new(&buffer(get(data, "doorbell"), "doorbell")?);
    let control = RecordReader::new(&buffer(get(data, "control"), "control ring")?);
    let mut rings = Vec::new();
    for pair in Array::from(&get(data, "rings")).iter() {
        if pair.is_null() || pair.is_undefined() {
            rings.push(None);
            continue;
        }
        let input = buffer(get(&pair, "0"), "input ring")?;
        let output = buffer(get(&pair, "1"), "output ring")?;
        rings.push(Some((InputRing::new(&input), RecordReader::new(&output))));
    }
    Ok(Channels {
        doorbell,
        control,
        rings,
    })
}

fn main() {
    console_error_panic_hook::set_once();
    let scope: DedicatedWorkerGlobalScope = js_sys::global().unchecked_into();
    let performance = scope.performance();
    let on_message = {
        let scope = scope.clone();
        Closure::<dyn FnMut(MessageEvent)>::new(move |event: MessageEvent| {
            let post = Post(scope.clone());
            let data = event.data();
            let origin = performance.as_ref().map_or(0.0, |p| p.time_origin());
            let clock = || performance.as_ref().map_or(0.0, |p| origin + p.now());
            let start = get(&data, "start")
                .as_string()
                .ok_or_else(|| "the match host sent no match".to_string())
                .and_then(|json| {
                    serde_json::from_str::<HostStart>(&json).map_err(|e| e.to_string())
                });
            let driver = start.and_then(|start| {
                let channels = channels(&data)?;
                Driver::new(start, channels, &post, &clock)
            });
            match driver {
                Ok(driver) => driver.run(),
                Err(why) => post.news(&HostNews::Failed { why }),
            }
        })
    };
    scope.set_onmessage(Some(on_message.as_ref().unchecked_ref()));
    on_message.forget();
}
