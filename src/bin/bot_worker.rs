//! The built-in bots' Web Worker: hosts one built-in bot (from the `bots` crate) and speaks the
//! same messages as the JavaScript bot runtime (see `botplay_web::protocol`).
//!
//! The page sends `{type: "start", game, bot, seed}` once, then `{type: "input", text}` for each
//! input; the worker answers `{type: "ready"}` once, then `{type: "lines", lines, at, spent}` for
//! each input the bot answers (`at`: when they were written; `spent`: the bot's computing time
//! since its last answer).

use std::cell::{Cell, RefCell};

use botplay_web::protocol::{FromBot, ToBuiltin};
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use web_sys::{DedicatedWorkerGlobalScope, MessageEvent};

thread_local! {
    static BOT: RefCell<Option<Box<dyn bots::Bot>>> = const { RefCell::new(None) };
    /// Milliseconds the bot computed that no line has reported yet.
    static SPENT: Cell<f64> = const { Cell::new(0.0) };
}

fn main() {
    console_error_panic_hook::set_once();
    let scope: DedicatedWorkerGlobalScope = js_sys::global().unchecked_into();
    // The clock the page shares (`performance.timeOrigin + performance.now()`).
    let clock = scope.performance().map(|p| {
        let origin = p.time_origin();
        (p, origin)
    });
    let on_message = {
        let scope = scope.clone();
        Closure::<dyn FnMut(MessageEvent)>::new(move |event: MessageEvent| {
            let post = |message: FromBot| {
                let _ = scope.post_message(&message.to_js());
            };
            match ToBuiltin::from_js(event.data()) {
                Ok(ToBuiltin::Start { game, bot, seed }) => {
                    match bots::builtin(&game, &bot, seed) {
                        Some(b) => {
                            BOT.with(|slot| *slot.borrow_mut() = Some(b));
                            post(FromBot::Ready);
                        }
                        None => post(FromBot::Exit {
                            message: format!("there is no built-in bot '{bot}' for {game}"),
                        }),
                    }
                }
                Ok(ToBuiltin::Input { text }) => {
                    let now = || clock.as_ref().map(|(p, origin)| origin + p.now());
                    let began = now();
                    let lines = BOT.with(|slot| match slot.borrow_mut().as_mut() {
                        Some(bot) => bot.read(&text),
                        None => Vec::new(),
                    });
                    let at = now();
                    // The bot's time, reported with its next line (an input it answers with no
                    // line, such as a broadcast, adds to the next report).
                    let took = at.zip(began).map_or(0.0, |(at, began)| at - began);
                    let spent = SPENT.get() + took;
                    if lines.is_empty() {
                        SPENT.set(spent);
                    } else {
                        SPENT.set(0.0);
                        // One message for the whole answer: each message wakes the page.
                        post(FromBot::Lines {
                            lines,
                            at,
                            spent: Some(spent),
                        });
                    }
                }
                Err(why) => post(FromBot::Stderr {
                    text: format!("botplay: unreadable message: {why}\n"),
                }),
            }
        })
    };
    scope.set_onmessage(Some(on_message.as_ref().unchecked_ref()));
    on_message.forget();
}
