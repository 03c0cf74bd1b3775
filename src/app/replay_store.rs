//! The arena's replays kept in the browser (IndexedDB, through `www/replay-store.js`) as each
//! match ends, so that an arena cut short by a reload still has every played match to watch,
//! take over, share and zip. Keyed by game and the match's index in the plan; a game's are
//! forgotten when its next arena starts (at most one arena's replays per game are kept).

use std::rc::Rc;

use engine::replay::Replay;
use js_sys::Promise;
use wasm_bindgen::prelude::*;
use wasm_bindgen_futures::JsFuture;

const SCRIPT: &str = "replay-store.js";
const WHAT: &str = "the store of the arena's replays";

/// Where a played match's replay is.
#[derive(Clone, Debug, PartialEq)]
pub enum ReplayAt {
    /// In this page's memory (played since the page opened).
    Here(Rc<Replay>),
    /// Kept in the browser by the page before a reload: read when asked for.
    Kept { game: &'static str, index: usize },
}

impl ReplayAt {
    /// The replay, read from the browser's store when it is kept there.
    pub async fn replay(&self) -> Result<Rc<Replay>, String> {
        match self {
            ReplayAt::Here(replay) => Ok(replay.clone()),
            ReplayAt::Kept { .. } => {
                let text = self.text().await?;
                Replay::from_json(&text)
                    .map(Rc::new)
                    .map_err(|e| format!("the replay kept in this browser is damaged: {e}"))
            }
        }
    }

    /// The replay's file text.
    pub async fn text(&self) -> Result<String, String> {
        match self {
            ReplayAt::Here(replay) => Ok(replay.to_json()),
            ReplayAt::Kept { game, index } => {
                let got = call(
                    "botplayKeptReplay",
                    &[(*game).into(), (*index as f64).into()],
                )
                .await?;
                got.as_string().ok_or_else(|| {
                    format!(
                        "the replay of match {} is no longer kept in this browser",
                        index + 1
                    )
                })
            }
        }
    }
}

/// Calls one of the store's functions; what its promise gives, or why it failed.
async fn call(name: &str, args: &[JsValue]) -> Result<JsValue, String> {
    let function = super::lazy_script::function(SCRIPT, name, WHAT).await?;
    let promise = function
        .apply(&JsValue::NULL, &args.iter().collect::<js_sys::Array>())
        .map_err(|e| format!("{WHAT} failed: {e:?}"))?;
    JsFuture::from(Promise::from(promise))
        .await
        .map_err(|e| format!("{WHAT} failed: {e:?}"))
}

/// Keeps a match's replay (in the background; a browser that will not keep it, private
/// windows among them, leaves the replay in the page's memory only).
pub fn keep(game: &'static str, index: usize, replay: &Replay) {
    let text = replay.to_json();
    wasm_bindgen_futures::spawn_local(async move {
        let _ = call(
            "botplayKeepReplay",
            &[game.into(), (index as f64).into(), text.into()],
        )
        .await;
    });
}

/// The indices of the matches of `game`'s arena whose replays are kept.
pub async fn kept(game: &'static str) -> Vec<usize> {
    let Ok(keys) = call("botplayKeptReplays", &[game.into()]).await else {
        return Vec::new();
    };
    js_sys::Array::from(&keys)
        .iter()
        .filter_map(|k| k.as_f64())
        .filter(|k| *k >= 0.0 && k.fract() == 0.0)
        .map(|k| k as usize)
        .collect()
}

/// Forgets every replay kept for `game`'s arena (in the background).
pub fn forget(game: &'static str) {
    wasm_bindgen_futures::spawn_local(async move {
        let _ = call("botplayForgetReplays", &[game.into()]).await;
    });
}

/// Runs `then` with the replay: at once when it is in memory, once read when it is kept.
pub fn with_replay(at: &ReplayAt, then: impl FnOnce(Result<Rc<Replay>, String>) + 'static) {
    if let ReplayAt::Here(replay) = at {
        then(Ok(replay.clone()));
        return;
    }
    let at = at.clone();
    wasm_bindgen_futures::spawn_local(async move { then(at.replay().await) });
}
