//! The messages between the page and its bot workers.
//!
//! Every bot worker, the JavaScript runtime (`www/js-bot-worker.js`) and the built-in bots'
//! worker (`src/bin/bot_worker.rs`) alike, sends the page the same [`FromBot`] messages, as
//! plain objects `{type: "line", text: "..."}` or, from the built-in bots' worker, the same as
//! JSON text (one call across the boundary instead of one per field). Input reaches every bot
//! through a shared ring ([`crate::input_ring`]): a JavaScript bot blocks on it in `readline()`,
//! the built-in bots' worker in its read loop.

use serde::{Deserialize, Serialize};
use wasm_bindgen::JsValue;

/// What a bot worker tells the page.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "kebab-case")]
pub enum FromBot {
    /// A language runtime is loading (Python); shown to the person while they wait.
    Loading { text: String },
    /// The worker is loaded and has its bot; the match may start.
    Ready,
    /// One line the bot wrote to its standard output, without the line ending, stamped with
    /// the time it was written (`performance.timeOrigin + performance.now()` in the worker).
    Line {
        text: String,
        #[serde(default)]
        at: Option<f64>,
        /// Milliseconds the bot spent computing since its previous line, as its worker measured
        /// them (the built-in bots' worker reports it; the measure harness, `?measure`, takes it
        /// out of each turn's time to get the page's own overhead).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        spent: Option<f64>,
    },
    /// Several lines written at once, in order, as [`FromBot::Line`]s with this stamp, `spent`
    /// going with the first (the built-in bots' worker sends all the lines of one answer in one
    /// message: fewer messages between threads, which cost more than the lines themselves).
    Lines {
        lines: Vec<String>,
        #[serde(default)]
        at: Option<f64>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        spent: Option<f64>,
    },
    /// Text the bot wrote to its debug log (standard error).
    Stderr { text: String },
    /// The bot waits for input while the page still holds input that did not fit the ring.
    NeedInput,
    /// The bot's program ended: it threw (the message says what and where) or it returned.
    Exit { message: String },
    /// The bot wrote more than it may without reading its input (the message says what); its
    /// worker holds it still until the page stops it.
    Flood { message: String },
}

/// What the page tells the built-in bots' worker.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "kebab-case")]
pub enum ToBuiltin {
    /// Host this built-in bot of this game; answered by [`FromBot::Ready`].
    Start {
        game: String,
        bot: String,
        seed: i64,
    },
}

impl FromBot {
    /// Reads a message: a plain object, or the same as JSON text.
    pub fn from_js(value: JsValue) -> Result<FromBot, String> {
        match value.as_string() {
            Some(json) => serde_json::from_str(&json).map_err(|e| e.to_string()),
            None => serde_wasm_bindgen::from_value(value).map_err(|e| e.to_string()),
        }
    }

    /// The message as JSON text.
    pub fn to_js(&self) -> JsValue {
        serde_json::to_string(self).map_or(JsValue::NULL, |json| JsValue::from_str(&json))
    }

    /// The messages this one stands for: each line of [`FromBot::Lines`] as a [`FromBot::Line`]
    /// (the bot's time with the first), any other message as itself.
    pub fn each(self) -> Vec<FromBot> {
        match self {
            FromBot::Lines { lines, at, spent } => lines
                .into_iter()
                .enumerate()
                .map(|(i, text)| FromBot::Line {
                    text,
                    at,
                    spent: spent.map(|ms| if i == 0 { ms } else { 0.0 }),
                })
                .collect(),
            other => vec![other],
        }
    }
}

impl ToBuiltin {
    pub fn from_js(value: JsValue) -> Result<ToBuiltin, String> {
        serde_wasm_bindgen::from_value(value).map_err(|e| e.to_string())
    }

    /// As a plain object; seeds beyond 2^53 travel as BigInt.
    pub fn to_js(&self) -> JsValue {
        let serializer =
            serde_wasm_bindgen::Serializer::new().serialize_large_number_types_as_bigints(true);
        self.serialize(&serializer).unwrap_or(JsValue::NULL)
    }
}
