//! The viewer's playback clock: on each animation frame of the page, the frames of the match that
//! are due at the chosen speed (one every `every_ms`) are reported, so that the page is redrawn
//! at most once per screen refresh whatever the speed. At 32× a match frame is due every 7.8 ms:
//! a timer per match frame would draw more often than the screen refreshes (and delay the
//! frames the screen does show), where this advances by two frames per refresh instead. Frames
//! due while the page was not drawn (a slow drawing, a hidden tab) are caught up at once, so the
//! speed stays what it says.

use std::cell::RefCell;
use std::rc::Rc;

use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

/// Playback in progress; dropping it stops it.
pub struct Playback {
    state: Rc<RefCell<State>>,
}

struct State {
    every_ms: f64,
    /// The animation frame time playback started at, once the first frame came.
    started: Option<f64>,
    /// Match frames reported so far.
    reported: u64,
    /// The pending animation frame request, and the callback it calls.
    request: Option<i32>,
    callback: Option<Closure<dyn FnMut(f64)>>,
    stopped: bool,
}

impl Playback {
    /// Starts reporting due match frames to `due` (how many came due since the last report).
    pub fn start(every_ms: f64, due: impl Fn(u64) + 'static) -> Playback {
        let state = Rc::new(RefCell::new(State {
            every_ms: every_ms.max(1.0),
            started: None,
            reported: 0,
            request: None,
            callback: None,
            stopped: false,
        }));
        let weak = Rc::downgrade(&state);
        let callback = Closure::<dyn FnMut(f64)>::new(move |now: f64| {
            let Some(state) = weak.upgrade() else {
                return;
            };
            let count = {
                let mut s = state.borrow_mut();
                s.request = None;
                if s.stopped {
                    return;
                }
                let started = *s.started.get_or_insert(now);
                let total = ((now - started) / s.every_ms).floor().max(0.0) as u64;
                let count = total.saturating_sub(s.reported);
                s.reported = total;
                count
            };
            // The handler runs with the clock free (it may drop this playback).
            if count > 0 {
                due(count);
            }
            request_frame(&state);
        });
        state.borrow_mut().callback = Some(callback);
        request_frame(&state);
        Playback { state }
    }
}

/// Asks for the next animation frame, unless stopped.
fn request_frame(state: &Rc<RefCell<State>>) {
    let mut s = state.borrow_mut();
    if s.stopped || s.request.is_some() {
        return;
    }
    let (Some(window), Some(callback)) = (web_sys::window(), s.callback.as_ref()) else {
        return;
    };
    s.request = window
        .request_animation_frame(callback.as_ref().unchecked_ref())
        .ok();
}

impl Drop for Playback {
    fn drop(&mut self) {
        let Ok(mut s) = self.state.try_borrow_mut() else {
            return;
        };
        s.stopped = true;
        if let (Some(id), Some(window)) = (s.request.take(), web_sys::window()) {
            let _ = window.cancel_animation_frame(id);
        }
        // The callback may be running now (it holds only a weak handle): it is freed with the
        // state.
    }
}
