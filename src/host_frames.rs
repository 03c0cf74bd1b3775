//! The match hosts' frames, kept for the next match. Making a sandboxed frame (a document, its
//! script and, in Chromium, a process) is the largest part of a match's start on the page's
//! main thread, and a class's arena starts one match after another. A frame whose match ended
//! as it should (the host said the match was over and ended its workers) serves the next match
//! on a new port; a frame whose match was cut short, whose host stopped answering or said it
//! has no shared memory is removed. No bot reaches a frame: bots run in workers the frame's
//! host starts for one match and ends with it.

use std::cell::RefCell;

use web_sys::HtmlIFrameElement;

/// How many idle frames are kept at most (one per match an arena plays at once, as a rule).
const KEEP: usize = 4;

thread_local! {
    static IDLE: RefCell<Vec<HtmlIFrameElement>> = const { RefCell::new(Vec::new()) };
}

/// A frame that served a match and can serve another, if one is kept.
pub fn take() -> Option<HtmlIFrameElement> {
    IDLE.with(|idle| {
        let mut idle = idle.borrow_mut();
        while let Some(frame) = idle.pop() {
            if frame.is_connected() && frame.content_window().is_some() {
                return Some(frame);
            }
            frame.remove();
        }
        None
    })
}

/// Keeps a frame whose match ended as it should, for the next match (or removes it when
/// enough are kept).
pub fn give_back(frame: HtmlIFrameElement) {
    frame.set_onload(None);
    IDLE.with(|idle| {
        let mut idle = idle.borrow_mut();
        if idle.len() < KEEP {
            idle.push(frame);
        } else {
            frame.remove();
        }
    });
}
