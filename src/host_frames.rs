//! The match hosts' frames, kept for the next match. Making a sandboxed frame (a document, its
//! script and, in Chromium, a process) is the largest part of a match's start on the page's
//! main thread, and a class's arena starts one match after another. A frame whose match ended
//! as it should (the host said the match was over and ended its workers) serves the next match
//! on a new port; a frame whose match was cut short, whose host stopped answering or said it
//! has no shared memory is removed. No bot reaches a frame: bots run in workers the frame's
//! host starts for one match and ends with it.
//!
//! A kept frame may hold a Python worker started ahead of its match (`src/python_ready.rs`): a
//! match with a Python seat takes such a frame first, any other match one without.

use std::cell::RefCell;

use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use web_sys::HtmlIFrameElement;

use crate::runner::MATCH_HOST_JS;

/// How many idle frames are kept at most (one per match an arena plays at once, as a rule).
const KEEP: usize = 4;

/// A frame no match uses now.
struct Idle {
    frame: HtmlIFrameElement,
    /// A Python worker is loading or loaded in it, for the next Python seat.
    python_ready: bool,
}

thread_local! {
    static IDLE: RefCell<Vec<Idle>> = const { RefCell::new(Vec::new()) };
}

/// A new match frame, in the page's body, with the match host's script; `onload` is called once
/// that script listens (the caller keeps the closure alive).
pub fn make(onload: &Closure<dyn FnMut()>) -> Result<HtmlIFrameElement, String> {
    let document = web_sys::window()
        .and_then(|w| w.document())
        .ok_or("no document")?;
    let frame: HtmlIFrameElement = document
        .create_element("iframe")
        .map_err(|_| "no frame")?
        .unchecked_into();
    let _ = frame.set_attribute("sandbox", "allow-scripts");
    let _ = frame.set_attribute("allow", "cross-origin-isolated");
    let _ = frame.set_attribute("aria-hidden", "true");
    let _ = frame.set_attribute("tabindex", "-1");
    frame.set_class_name("match-host");
    frame.set_srcdoc(&format!(
        "<!DOCTYPE html><meta charset=\"utf-8\"><script>{MATCH_HOST_JS}</script>"
    ));
    frame.set_onload(Some(onload.as_ref().unchecked_ref()));
    let body = document.body().ok_or("no body")?;
    body.append_child(&frame)
        .map_err(|_| "the match frame could not be made")?;
    Ok(frame)
}

/// A frame that served a match and can serve another, if one is kept: for a match with a
/// Python seat, one whose Python worker is ready if there is one; for any other, one without.
pub fn take(python: bool) -> Option<HtmlIFrameElement> {
    IDLE.with(|idle| {
        let mut idle = idle.borrow_mut();
        idle.retain(|kept| {
            let alive = kept.frame.is_connected() && kept.frame.content_window().is_some();
            if !alive {
                kept.frame.remove();
            }
            alive
        });
        let at = idle
            .iter()
            .rposition(|kept| kept.python_ready == python)
            .or_else(|| idle.len().checked_sub(1))?;
        Some(idle.remove(at).frame)
    })
}

/// Keeps a frame whose match ended as it should, for the next match (or removes it when
/// enough are kept).
pub fn give_back(frame: HtmlIFrameElement) {
    keep(Idle {
        frame,
        python_ready: false,
    });
}

/// Keeps a frame in which a Python worker is now loading for the next Python seat.
pub fn keep_python_ready(frame: HtmlIFrameElement) {
    keep(Idle {
        frame,
        python_ready: true,
    });
}

fn keep(kept: Idle) {
    kept.frame.set_onload(None);
    IDLE.with(|idle| {
        let mut idle = idle.borrow_mut();
        if idle.len() < KEEP {
            idle.push(kept);
        } else {
            kept.frame.remove();
        }
    });
}

/// Whether a kept frame holds a Python worker for the next Python seat.
pub fn python_ready() -> bool {
    IDLE.with(|idle| idle.borrow().iter().any(|kept| kept.python_ready))
}

/// A kept frame without a Python worker, taken out of the idle ones (to start one in it).
pub fn take_without_python() -> Option<HtmlIFrameElement> {
    IDLE.with(|idle| {
        let mut idle = idle.borrow_mut();
        let at = idle.iter().rposition(|kept| {
            !kept.python_ready && kept.frame.is_connected() && kept.frame.content_window().is_some()
        })?;
        Some(idle.remove(at).frame)
    })
}
