//! Python ready at once. Loading Pyodide takes seconds (its files fetched, its module compiled,
//! its interpreter started), and a class presses Run many times an hour. So when a Python bot
//! is chosen and no match plays, the page has a Python worker started ahead of the next match,
//! in a match frame kept for it (`host_frames`): the match host's `botplay-python-ready` message
//! (`www/match-host.js`), and the runtime's `prepare` (`www/js-bot-worker.js`), which loads
//! Pyodide with no channel to any match yet.
//! The next match's first Python seat takes that worker. It serves that one match and ends with
//! it, as every bot's worker does: each match has a fresh interpreter, never one a bot has run
//! in. Nothing here runs while a match plays (its bots keep the machine's cores), and the
//! bots' budgets start only once every bot has said it is ready, as before.

use std::cell::Cell;

use wasm_bindgen::prelude::*;

thread_local! {
    /// A worker is being prepared now (its files loading, its frame being made).
    static PREPARING: Cell<bool> = const { Cell::new(false) };
}

/// Has a Python worker started for the next match, unless one is ready or being prepared.
/// Call it only while no match plays.
pub fn prepare() {
    if PREPARING.get() {
        return;
    }
    // Where the page hosts matches itself (no shared memory: WebKitGTK as shipped), a Python
    // match loads Pyodide when it starts, as before: a worker made ready in the page once left a
    // match of WebKitGTK's waiting (cross-hostile (h4)), not yet understood.
    if !crate::isolation::shared_memory() || crate::host_frames::python_ready() {
        return;
    }
    PREPARING.set(true);
    wasm_bindgen_futures::spawn_local(async move {
        match start().await {
            Ok(Started::Now) => PREPARING.set(false),
            // Its frame's script does the rest once it listens.
            Ok(Started::OnLoad) => {}
            Err(why) => {
                let why = format!("botplay: Python could not be made ready: {why}");
                web_sys::console::warn_1(&why.into());
                PREPARING.set(false);
            }
        }
    });
}

/// Whether the worker was asked for now, or will be once its new frame has loaded.
enum Started {
    Now,
    OnLoad,
}

async fn start() -> Result<Started, String> {
    let files = crate::runner::files::load(&["python"]).await?;
    let message = js_sys::Object::new();
    let set = |key: &str, value: &JsValue| {
        let _ = js_sys::Reflect::set(&message, &key.into(), value);
    };
    let get = |key: &str| js_sys::Reflect::get(&files, &key.into()).unwrap_or(JsValue::UNDEFINED);
    set("type", &"botplay-python-ready".into());
    set("runtime", &get("runtime"));
    let languages = get("languages");
    set(
        "python",
        &js_sys::Reflect::get(&languages, &"python".into()).unwrap_or(JsValue::UNDEFINED),
    );
    match crate::host_frames::take_without_python() {
        Some(frame) => send_to(frame, &message).map(|()| Started::Now),
        None => {
            // A new frame, kept once its script listens.
            let message = message.clone();
            let frame = std::rc::Rc::new(std::cell::RefCell::new(None));
            let made = frame.clone();
            let onload = Closure::<dyn FnMut()>::new(move || {
                if let Some(frame) = made.borrow_mut().take() {
                    let _ = send_to(frame, &message);
                    PREPARING.set(false);
                }
            });
            let element = crate::host_frames::make(&onload)?;
            *frame.borrow_mut() = Some(element);
            // Called once (the frame's load), then unset when the frame is kept.
            onload.forget();
            Ok(Started::OnLoad)
        }
    }
}

/// Sends the frame's host the Python files and keeps the frame for the next Python seat.
fn send_to(frame: web_sys::HtmlIFrameElement, message: &js_sys::Object) -> Result<(), String> {
    let sent = frame
        .content_window()
        .ok_or_else(|| "the frame is gone".to_string())
        .and_then(|window| {
            window
                .post_message(message, "*")
                .map_err(|e| format!("{e:?}"))
        });
    match sent {
        Ok(()) => crate::host_frames::keep_python_ready(frame),
        Err(_) => frame.remove(),
    }
    sent
}
