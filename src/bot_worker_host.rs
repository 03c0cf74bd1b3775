//! The page's handle on one bot's Web Worker: start it, send it input, hear what it writes.

use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use web_sys::{ErrorEvent, MessageEvent, Worker, WorkerOptions, WorkerType};

use crate::input_ring::InputRing;
use crate::protocol::{FromBot, ToBuiltin};

/// The runtime of JavaScript bots (copied from `www/` by Trunk).
const JS_WORKER_URL: &str = "./js-bot-worker.js";
/// The built-in bots' worker: the loader of `src/bin/bot_worker.rs` (copied from `www/`).
const BUILTIN_WORKER_URL: &str = "./bot-worker-loader.js";

/// Which program plays a seat.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BotSource {
    /// A JavaScript bot's source code.
    JavaScript(String),
    /// A Python bot's source code (run by Pyodide in the same worker runtime).
    Python(String),
    /// A built-in bot of the game, by name.
    Builtin(String),
    /// A person plays the seat by hand in the page (`src/human`): no worker, no time budget.
    Human,
}

/// What a worker reports: one of its messages, or an error the browser saw.
#[derive(Clone, Debug, PartialEq)]
pub enum WorkerNews {
    Message(FromBot),
    /// The worker failed: it could not load, or something threw outside the bot's own code.
    Error(String),
}

pub struct BotWorker {
    worker: Worker,
    /// Where its input goes (every bot reads a shared ring).
    input: InputRing,
    stopped: bool,
    _on_message: Closure<dyn FnMut(MessageEvent)>,
    _on_error: Closure<dyn FnMut(ErrorEvent)>,
}

impl BotWorker {
    /// Starts the worker of a bot; `news` hears everything it reports, in order.
    pub fn spawn(
        source: &BotSource,
        game: &str,
        seed: i64,
        label: &str,
        news: impl FnMut(WorkerNews) + 'static,
    ) -> Result<BotWorker, String> {
        let options = WorkerOptions::new();
        options.set_type(WorkerType::Classic);
        options.set_name(label);
        let url = match source {
            BotSource::JavaScript(_) | BotSource::Python(_) => JS_WORKER_URL,
            BotSource::Builtin(_) => BUILTIN_WORKER_URL,
            BotSource::Human => return Err("a seat played by hand has no worker".into()),
        };
        let worker = Worker::new_with_options(url, &options)
            .map_err(|e| format!("the bot's worker could not be created: {}", describe(&e)))?;

        let news = std::rc::Rc::new(std::cell::RefCell::new(news));
        let on_message = {
            let news = news.clone();
            Closure::<dyn FnMut(MessageEvent)>::new(move |event: MessageEvent| {
                let report = match FromBot::from_js(event.data()) {
                    Ok(message) => WorkerNews::Message(message),
                    Err(why) => WorkerNews::Error(format!("a message the page cannot read: {why}")),
                };
                (news.borrow_mut())(report);
            })
        };
        let on_error = Closure::<dyn FnMut(ErrorEvent)>::new(move |event: ErrorEvent| {
            event.prevent_default();
            let mut text = event.message();
            if text.is_empty() {
                text = "the worker failed to load or stopped with an error".to_string();
            }
            (news.borrow_mut())(WorkerNews::Error(text));
        });
        worker.set_onmessage(Some(on_message.as_ref().unchecked_ref()));
        worker.set_onerror(Some(on_error.as_ref().unchecked_ref()));

        let ring = InputRing::new()?;
        let start = match source {
            BotSource::JavaScript(code) | BotSource::Python(code) => {
                let language = match source {
                    BotSource::Python(_) => "python",
                    _ => "javascript",
                };
                let start = js_sys::Object::new();
                let set = |k: &str, v: &JsValue| js_sys::Reflect::set(&start, &k.into(), v);
                let _ = set("type", &"start".into());
                let _ = set("language", &language.into());
                let _ = set("code", &code.into());
                start.into()
            }
            BotSource::Builtin(name) => ToBuiltin::Start {
                game: game.to_string(),
                bot: name.clone(),
                seed,
            }
            .to_js(),
            BotSource::Human => unreachable!("refused above"),
        };
        let _ = js_sys::Reflect::set(&start, &"ring".into(), ring.buffer());
        worker.post_message(&start).map_err(|e| describe(&e))?;
        Ok(BotWorker {
            worker,
            input: ring,
            stopped: false,
            _on_message: on_message,
            _on_error: on_error,
        })
    }

    /// Sends input text (complete lines) to the bot, behind any it has not read yet.
    pub fn deliver(&mut self, text: &str) {
        if self.stopped {
            return;
        }
        self.input.push(text);
    }

    /// The bot asks for input that did not fit its ring.
    pub fn refill(&mut self) {
        self.input.flush();
    }

    /// Stops the worker at once (a looping bot included). Its messages are no longer heard.
    pub fn stop(&mut self) {
        if !self.stopped {
            self.stopped = true;
            self.worker.set_onmessage(None);
            self.worker.set_onerror(None);
            self.worker.terminate();
        }
    }
}

impl Drop for BotWorker {
    fn drop(&mut self) {
        self.stop();
    }
}

fn describe(value: &JsValue) -> String {
    value
        .dyn_ref::<js_sys::Error>()
        .map(|e| String::from(e.message()))
        .or_else(|| value.as_string())
        .unwrap_or_else(|| format!("{value:?}"))
}
