//! The match worker: plays one match in the match host (`www/match-host.js`), away from the
//! page's main thread (see [`crate::match_host`]).
//!
//! It runs on the page's own WebAssembly module: the host starts a worker from the app's
//! wasm-bindgen glue made a classic script ([`classic_script`]; the page sends it with the
//! module's bytes, `src/runner.rs`), which instantiates the module (the app's `main` starts
//! nothing where there is no `window`) and calls [`start`], exported as `botplayMatchWorker`.
//!
//! The host sends one message: `{start, doorbell, control, rings}`, where `start` is the JSON of a
//! [`HostStart`], `doorbell` and `control` are `SharedArrayBuffer`s, and `rings` has per seat
//! `[input, output]` buffers for a bot in a worker, or `null`. The worker then plays the match to
//! its end in this one call (it blocks in `Atomics.wait` between events) and posts:
//! a string, the JSON of a [`HostNews`], for the page; a number, the seat whose worker the host
//! must stop now (every bot's, at the end). After the end it stays in that call, asleep on the
//! doorbell, to answer the page's requests for pictures from the frames its referee kept, until
//! the host ends it (the page let the match go: `src/runner.rs`).
//!
//! Without `SharedArrayBuffer` the host sends `{start, mode: "messages", ports, io, tokens}`
//! instead: per seat a `MessagePort` on which the bot's runtime posts its records (or `null`),
//! a port to the page's service worker for the bots' input and each bot's token there. The
//! worker then steps the driver after each message and at each deadline
//! ([`crate::match_host::mailbox`]), each step once a probe posted to itself has come back
//! quickly ([`RoundTrip`]: nothing the bots posted before is still on its way); the host's
//! commands come as `{control: kind, seat, text}` messages, and the worker posts `{running}` (a
//! bit per seat computing) for the host's heartbeat. After the end the driver stays, for the
//! requests for pictures, as on shared memory.

use std::cell::{Cell, RefCell};
use std::rc::Rc;

use crate::match_host::driver::{BotChannels, Channels, Driver, Input, Outbox};
use crate::match_host::mailbox::{Mailbox, RoundTrip};
use crate::match_host::rings::{Doorbell, InputRing, Kind, RecordReader};
use crate::match_host::{HostNews, HostStart};
use js_sys::{Array, SharedArrayBuffer};
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use web_sys::{DedicatedWorkerGlobalScope, MessageChannel, MessageEvent, MessagePort};

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

/// The rings in shared memory, as the host made them.
fn shared_channels(data: &JsValue) -> Result<(Channels, Doorbell), String> {
    let doorbell = Doorbell::new(&buffer(get(data, "doorbell"), "doorbell")?);
    let control = RecordReader::new(&buffer(get(data, "control"), "control ring")?);
    let mut rings: Vec<Option<BotChannels>> = Vec::new();
    for pair in Array::from(&get(data, "rings")).iter() {
        if pair.is_null() || pair.is_undefined() {
            rings.push(None);
            continue;
        }
        let input = buffer(get(&pair, "0"), "input ring")?;
        let output = buffer(get(&pair, "1"), "output ring")?;
        rings.push(Some((
            Box::new(InputRing::new(&input)),
            Box::new(RecordReader::new(&output)),
        )));
    }
    let channels = Channels {
        control: Box::new(control),
        rings,
    };
    Ok((channels, doorbell))
}

/// (Messages) A bot's input, sent to the page's service worker, which answers the bot's
/// `readline()` with it.
struct ToServiceWorker {
    port: MessagePort,
    token: String,
}

impl Input for ToServiceWorker {
    fn push(&mut self, text: &str) {
        let message = Array::of2(&self.token.as_str().into(), &text.into());
        let _ = self.port.post_message(&message);
    }

    fn flush(&mut self) {}
}

/// A record as a bot's runtime posts it: `[kind, text, stamp]`.
fn receive(mailbox: &Mailbox, data: &JsValue) {
    let item = |i: u32| Array::is_array(data).then(|| Array::from(data).get(i));
    mailbox.receive(
        item(0).and_then(|k| k.as_f64()),
        item(1).and_then(|t| t.as_string()),
        item(2).and_then(|s| s.as_f64()),
    );
}

/// The driver of a match on messages, stepped after each message and at each deadline.
struct Stepper {
    driver: RefCell<Option<Driver<'static>>>,
    scope: DedicatedWorkerGlobalScope,
    timer: Cell<i32>,
    again: RefCell<Option<js_sys::Function>>,
    running: Cell<Option<u32>>,
    /// The two ends of the channel on which this worker posts probes to itself (`None`: it
    /// steps at once), and when to step.
    probe: RefCell<Option<(MessagePort, MessagePort)>>,
    trip: Cell<RoundTrip>,
}

type Shared = Rc<Stepper>;

fn now(scope: &DedicatedWorkerGlobalScope) -> f64 {
    scope
        .performance()
        .map_or(0.0, |p| p.time_origin() + p.now())
}

/// A step is wanted (a message came, or a deadline): it is taken once a probe has come back.
fn wanted(stepper: &Shared) {
    let mut trip = stepper.trip.get();
    if !trip.wanted(now(&stepper.scope)) {
        return;
    }
    stepper.trip.set(trip);
    if !post_probe(stepper) {
        stepper.trip.set(RoundTrip::new());
        step(stepper);
    }
}

/// The probe came back: a step now, or another probe if this one was held up on its way.
fn probe_back(stepper: &Shared) {
    let mut trip = stepper.trip.get();
    let quick = trip.returned(now(&stepper.scope));
    stepper.trip.set(trip);
    if quick {
        step(stepper);
    } else if trip.waiting() && !post_probe(stepper) {
        stepper.trip.set(RoundTrip::new());
        step(stepper);
    }
}

/// Posts a probe to this worker; whether it went.
fn post_probe(stepper: &Shared) -> bool {
    stepper
        .probe
        .borrow()
        .as_ref()
        .is_some_and(|(out, _)| out.post_message(&JsValue::from_f64(0.0)).is_ok())
}

/// One step of the driver, and a timer for the next deadline.
fn step(stepper: &Shared) {
    let (until, running) = {
        let Ok(mut slot) = stepper.driver.try_borrow_mut() else {
            return;
        };
        let Some(live) = slot.as_mut() else {
            return;
        };
        // Once over, the driver stays: it answers the page's requests for pictures.
        (live.step(), live.running())
    };
    let scope = &stepper.scope;
    scope.clear_timeout_with_handle(stepper.timer.get());
    // The host reports which seats compute in its heartbeat (none once over).
    if stepper.running.replace(Some(running)) != Some(running) {
        let message = js_sys::Object::new();
        let _ = js_sys::Reflect::set(&message, &"running".into(), &f64::from(running).into());
        let _ = scope.post_message(&message);
    }
    let Some(until) = until else {
        return;
    };
    let delay = (until - now(scope)).clamp(0.0, 60_000.0).ceil() as i32;
    if let Some(again) = stepper.again.borrow().as_ref() {
        if let Ok(handle) =
            scope.set_timeout_with_callback_and_timeout_and_arguments_0(again, delay)
        {
            stepper.timer.set(handle);
        }
    }
}

/// Plays the match on messages: no `SharedArrayBuffer` here.
fn play_on_messages(
    scope: DedicatedWorkerGlobalScope,
    start: HostStart,
    data: &JsValue,
    post: &'static Post,
    clock: &'static dyn Fn() -> f64,
) -> Result<(), String> {
    let driver: Shared = Rc::new(Stepper {
        driver: RefCell::new(None),
        scope: scope.clone(),
        timer: Cell::new(0),
        again: RefCell::new(None),
        running: Cell::new(None),
        probe: RefCell::new(None),
        trip: Cell::new(RoundTrip::new()),
    });
    let again = {
        let weak = Rc::downgrade(&driver);
        Closure::<dyn FnMut()>::new(move || {
            if let Some(stepper) = weak.upgrade() {
                wanted(&stepper);
            }
        })
    };
    *driver.again.borrow_mut() = Some(again.into_js_value().unchecked_into());
    // The probes go out on one port of a channel and come back on the other, as the bots'
    // records do (in WebKit, through the page's main thread).
    if let Ok(channel) = MessageChannel::new() {
        let back = {
            let weak = Rc::downgrade(&driver);
            Closure::<dyn FnMut(MessageEvent)>::new(move |_: MessageEvent| {
                if let Some(stepper) = weak.upgrade() {
                    probe_back(&stepper);
                }
            })
        };
        let (out, home) = (channel.port1(), channel.port2());
        home.set_onmessage(Some(back.as_ref().unchecked_ref()));
        back.forget();
        *driver.probe.borrow_mut() = Some((out, home));
    }
    let io = get(data, "io").dyn_into::<MessagePort>().ok();
    let tokens = Array::from(&get(data, "tokens"));
    let control = Mailbox::new();
    let mut rings: Vec<Option<BotChannels>> = Vec::new();
    for (seat, port) in Array::from(&get(data, "ports")).iter().enumerate() {
        let Ok(port) = port.dyn_into::<MessagePort>() else {
            rings.push(None);
            continue;
        };
        let mailbox = Mailbox::new();
        let listener = {
            let (mailbox, driver) = (mailbox.clone(), driver.clone());
            Closure::<dyn FnMut(MessageEvent)>::new(move |event: MessageEvent| {
                receive(&mailbox, &event.data());
                wanted(&driver);
            })
        };
        port.set_onmessage(Some(listener.as_ref().unchecked_ref()));
        listener.forget();
        let input: Box<dyn Input> = match (&io, tokens.get(seat as u32).as_string()) {
            (Some(io), Some(token)) => Box::new(ToServiceWorker {
                port: io.clone(),
                token,
            }),
            _ => return Err(format!("bot {} has no way to read its input", seat + 1)),
        };
        rings.push(Some((input, Box::new(mailbox))));
    }
    let channels = Channels {
        control: Box::new(control.clone()),
        rings,
    };
    *driver.driver.borrow_mut() = Some(Driver::new(start, channels, post, clock)?);
    // The host's commands: {control: kind, seat, text}.
    let on_command = {
        let driver = driver.clone();
        Closure::<dyn FnMut(MessageEvent)>::new(move |event: MessageEvent| {
            let data = event.data();
            let kind = get(&data, "control").as_f64();
            if !kind.is_some_and(|k| k >= f64::from(Kind::Stop as u8)) {
                return; // only the host's own commands come this way
            }
            control.receive(
                kind,
                get(&data, "text").as_string(),
                get(&data, "seat").as_f64(),
            );
            wanted(&driver);
        })
    };
    scope.set_onmessage(Some(on_command.as_ref().unchecked_ref()));
    on_command.forget();
    step(&driver);
    Ok(())
}

/// Makes this worker a match worker: its first message is the match to play.
#[wasm_bindgen(js_name = botplayMatchWorker)]
pub fn start() {
    console_error_panic_hook::set_once();
    let Ok(scope) = js_sys::global().dyn_into::<DedicatedWorkerGlobalScope>() else {
        return; // not in a worker
    };
    let on_message = {
        let scope = scope.clone();
        Closure::<dyn FnMut(MessageEvent)>::new(move |event: MessageEvent| {
            // One match per worker: what it needs lives as long as the worker.
            let post: &'static Post = Box::leak(Box::new(Post(scope.clone())));
            let performance = scope.performance();
            let origin = performance.as_ref().map_or(0.0, |p| p.time_origin());
            let clock: &'static dyn Fn() -> f64 = Box::leak(Box::new(move || {
                performance.as_ref().map_or(0.0, |p| origin + p.now())
            }));
            let data = event.data();
            let start = get(&data, "start")
                .as_string()
                .ok_or_else(|| "the match host sent no match".to_string())
                .and_then(|json| {
                    serde_json::from_str::<HostStart>(&json).map_err(|e| e.to_string())
                });
            let played = start.and_then(|start| {
                if get(&data, "mode").as_string().as_deref() == Some("messages") {
                    return play_on_messages(scope.clone(), start, &data, post, clock);
                }
                let (channels, doorbell) = shared_channels(&data)?;
                Driver::new(start, channels, post, clock).map(|driver| driver.run(&doorbell))
            });
            if let Err(why) = played {
                post.news(&HostNews::Failed { why });
            }
        })
    };
    scope.set_onmessage(Some(on_message.as_ref().unchecked_ref()));
    on_message.forget();
}

/// The page's wasm-bindgen glue, an ES module (Trunk builds for `--target web`), as a classic
/// worker's script: Chromium refuses a module worker from a `blob:` URL made in the match frame's
/// opaque origin. Its exports become plain declarations (`initSync`, `botplayMatchWorker`), its
/// export list goes, and `import.meta.url` (the module's default address, never used: the host
/// passes the bytes) becomes the worker's. Glue that imports anything is refused, as is glue
/// without `initSync` (wasm-bindgen is pinned in Cargo.toml: its output changes only with it).
pub fn classic_script(module: &str) -> Result<String, String> {
    let mut script = String::from("\"use strict\";\n");
    let mut sync = false;
    for line in module.lines() {
        let trimmed = line.trim_start();
        if trimmed.starts_with("import ") || trimmed.starts_with("import{") {
            return Err(format!("the page's glue imports a module: {trimmed}"));
        }
        if trimmed.starts_with("export {") || trimmed.starts_with("export default") {
            sync |= trimmed.contains("initSync");
            continue;
        }
        let line = line.strip_prefix("export ").unwrap_or(line);
        script.push_str(&line.replace("import.meta.url", "self.location.href"));
        script.push('\n');
    }
    if !sync {
        return Err("the page's glue exports no initSync".to_string());
    }
    Ok(script)
}

#[cfg(test)]
mod tests {
    use super::classic_script;

    const GLUE: &str = "let wasm;\n\
        export function botplayMatchWorker() {\n    wasm.botplayMatchWorker();\n}\n\
        function initSync(module) { return module; }\n\
        async function __wbg_init(path) {\n    \
        if (path === undefined) path = new URL('app_bg.wasm', import.meta.url);\n}\n\
        export { initSync, __wbg_init as default };\n";

    #[test]
    fn the_glue_becomes_a_classic_script() {
        let script = classic_script(GLUE).unwrap();
        assert!(script.starts_with("\"use strict\";\n"));
        assert!(script.contains("\nfunction botplayMatchWorker() {\n"));
        assert!(!script.contains("export"), "{script}");
        assert!(!script.contains("import"), "{script}");
        assert!(script.contains("new URL('app_bg.wasm', self.location.href)"));
        assert!(script.contains("function initSync(module)"));
    }

    #[test]
    fn glue_that_imports_or_lacks_init_sync_is_refused() {
        let importing = format!("import {{ x }} from './snippets/a.js';\n{GLUE}");
        assert!(classic_script(&importing)
            .unwrap_err()
            .contains("imports a module"));
        let without = GLUE.replace("export { initSync, __wbg_init as default };", "");
        assert!(classic_script(&without)
            .unwrap_err()
            .contains("no initSync"));
    }
}
