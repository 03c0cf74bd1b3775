//! The built-in bots' Web Worker: hosts one built-in bot (from the `bots` crate) and speaks the
//! same messages as the JavaScript bot runtime (see `botplay_web::protocol`).
//!
//! The page sends `{type: "start", game, bot, seed, ring}` once; the worker answers
//! `{type: "ready"}`, then reads its input from the shared ring (`botplay_web::input_ring`),
//! blocking between turns as a JavaScript bot does in `readline()`, and answers
//! `{type: "lines", lines, at, spent}` for each input the bot answers (`at`: when they were
//! written; `spent`: the bot's computing time since its last answer). The page stops it with
//! `terminate()`.

use botplay_web::input_ring::RingReader;
use botplay_web::protocol::{FromBot, ToBuiltin};
use js_sys::SharedArrayBuffer;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use web_sys::{DedicatedWorkerGlobalScope, MessageEvent};

fn main() {
    console_error_panic_hook::set_once();
    let scope: DedicatedWorkerGlobalScope = js_sys::global().unchecked_into();
    let on_message = {
        let scope = scope.clone();
        Closure::<dyn FnMut(MessageEvent)>::new(move |event: MessageEvent| {
            let post = |message: FromBot| {
                let _ = scope.post_message(&message.to_js());
            };
            let ring = js_sys::Reflect::get(&event.data(), &"ring".into())
                .ok()
                .and_then(|ring| ring.dyn_into::<SharedArrayBuffer>().ok());
            match (ToBuiltin::from_js(event.data()), ring) {
                (Ok(ToBuiltin::Start { game, bot, seed }), Some(ring)) => {
                    match bots::builtin(&game, &bot, seed) {
                        Some(bot) => {
                            post(FromBot::Ready);
                            // From here on the worker lives in this loop, until terminated.
                            serve(&scope, bot, RingReader::new(&ring));
                        }
                        None => post(FromBot::Exit {
                            message: format!("there is no built-in bot '{bot}' for {game}"),
                        }),
                    }
                }
                (Ok(ToBuiltin::Start { .. }), None) => post(FromBot::Exit {
                    message: "botplay: the start message has no input ring".into(),
                }),
                (Err(why), _) => post(FromBot::Stderr {
                    text: format!("botplay: unreadable message: {why}\n"),
                }),
            }
        })
    };
    scope.set_onmessage(Some(on_message.as_ref().unchecked_ref()));
    on_message.forget();
}

/// Reads the bot's input and posts its answers, for ever.
fn serve(scope: &DedicatedWorkerGlobalScope, mut bot: Box<dyn bots::Bot>, mut input: RingReader) {
    let post = |message: FromBot| {
        let _ = scope.post_message(&message.to_js());
    };
    // The clock the page shares (`performance.timeOrigin + performance.now()`).
    let clock = scope.performance().map(|p| {
        let origin = p.time_origin();
        (p, origin)
    });
    let now = || clock.as_ref().map(|(p, origin)| origin + p.now());
    // Milliseconds the bot computed that no line has reported yet.
    let mut spent = 0.0;
    loop {
        let text = input.read_lines(&|| post(FromBot::NeedInput));
        let began = now();
        let lines = bot.read(&text);
        let at = now();
        // The bot's time, reported with its next line (an input it answers with no line, such
        // as a broadcast, adds to the next report).
        spent += at.zip(began).map_or(0.0, |(at, began)| at - began);
        if !lines.is_empty() {
            // One message for the whole answer: each message wakes the page.
            post(FromBot::Lines {
                lines,
                at,
                spent: Some(spent),
            });
            spent = 0.0;
        }
    }
}
