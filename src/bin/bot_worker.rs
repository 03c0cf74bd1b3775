//! The built-in bots' Web Worker: hosts one built-in bot (from the `bots` crate) and speaks the
//! same messages as the JavaScript bot runtime (see `botplay_web::protocol`).
//!
//! The page sends `{type: "start", game, bot, seed}` once, then `{type: "input", text}` for each
//! input; the worker answers `{type: "ready"}` once, then `{type: "line", text}` per output line.

use std::cell::RefCell;

use botplay_web::protocol::{FromBot, ToBuiltin};
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use web_sys::{DedicatedWorkerGlobalScope, MessageEvent};

thread_local! {
    static BOT: RefCell<Option<Box<dyn bots::Bot>>> = const { RefCell::new(None) };
}

fn main() {
    console_error_panic_hook::set_once();
    let scope: DedicatedWorkerGlobalScope = js_sys::global().unchecked_into();
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
                    let lines = BOT.with(|slot| match slot.borrow_mut().as_mut() {
                        Some(bot) => bot.read(&text),
                        None => Vec::new(),
                    });
                    let at = scope.performance().map(|p| p.time_origin() + p.now());
                    for text in lines {
                        post(FromBot::Line { text, at });
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
