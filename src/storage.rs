//! What the person typed, kept in the browser's local storage (per scope, bot slot and language),
//! with a short history of the versions that something else replaced.
//!
//! Nothing typed is lost: the code is written as it is typed (a crashed tab loses nothing), and a
//! version is kept in the key's history whenever it is replaced by anything but typing over it in
//! the same tab: another tab's typing, a link's code taken as one's own, the other tab's code
//! loaded, an earlier version put back. Each tab remembers what it last read or wrote for each
//! key; a write that finds something else there (another tab wrote meanwhile) keeps that first.

use std::cell::RefCell;
use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

/// How many replaced versions a key's history keeps (the oldest go first).
pub const HISTORY_LEN: usize = 10;

fn local_storage() -> Option<web_sys::Storage> {
    web_sys::window()?.local_storage().ok()?
}

/// The storage key of the code of a scope's bot slot in a language. A scope is a game's id, or a
/// game's id and a place of its own (`ice-and-fire/lesson-…`, `ice-and-fire/link-…`).
pub fn code_key(scope: &str, slot: usize, language: &str) -> String {
    format!("botplay/{scope}/bot{}/{language}", slot + 1)
}

/// The key of the history of a code key.
pub fn history_key(code_key: &str) -> String {
    format!("{code_key}/history")
}

/// The key where versions before this history kept the code a link replaced.
fn old_backup_key(code_key: &str) -> String {
    format!("{code_key}/before-link")
}

/// One replaced version of a bot's code.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Version {
    pub code: String,
    /// When it was replaced (milliseconds since 1970).
    pub at: f64,
}

/// The last [`HISTORY_LEN`] distinct versions of a key's code that were replaced, oldest first.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(transparent)]
pub struct History(pub Vec<Version>);

impl History {
    /// Reads a stored history; a damaged one reads as empty.
    pub fn parse(text: &str) -> History {
        serde_json::from_str(text).unwrap_or_default()
    }

    pub fn to_json(&self) -> String {
        serde_json::to_string(self).unwrap_or_else(|_| "[]".to_string())
    }

    /// Keeps `code` as the newest version (an equal older one moves up; blank code is not
    /// kept); the oldest go when there are more than [`HISTORY_LEN`]. Whether anything changed.
    pub fn keep(&mut self, code: &str, at: f64) -> bool {
        if code.trim().is_empty() || self.0.last().is_some_and(|v| v.code == code) {
            return false;
        }
        self.0.retain(|v| v.code != code);
        self.0.push(Version {
            code: code.to_string(),
            at,
        });
        let extra = self.0.len().saturating_sub(HISTORY_LEN);
        self.0.drain(..extra);
        true
    }
}

thread_local! {
    /// For each key: what this tab last read there or wrote there (`None`: nothing was there).
    static KNOWN: RefCell<BTreeMap<String, Option<String>>> = const { RefCell::new(BTreeMap::new()) };
}

fn remember(key: &str, code: Option<&str>) {
    KNOWN.with(|k| {
        k.borrow_mut()
            .insert(key.to_string(), code.map(str::to_string))
    });
}

/// Whether `stored`, found at `key`, was written by someone else since this tab last looked.
fn written_elsewhere(key: &str, stored: &str) -> bool {
    KNOWN.with(|k| match k.borrow().get(key) {
        Some(known) => known.as_deref() != Some(stored),
        // This tab never looked: keep what is there rather than guess.
        None => true,
    })
}

fn now() -> f64 {
    js_sys::Date::now()
}

/// The code saved for a scope's bot slot in a language, if any.
pub fn load_code(scope: &str, slot: usize, language: &str) -> Option<String> {
    let key = code_key(scope, slot, language);
    let code = local_storage()?.get_item(&key).ok()?;
    remember(&key, code.as_deref());
    code
}

/// The code stored under a key now, without taking note of it.
pub fn peek(key: &str) -> Option<String> {
    local_storage()?.get_item(key).ok()?
}

/// Saves the code of a scope's bot slot in a language (quietly does nothing when storage is
/// unavailable). What another tab wrote there since this tab last looked goes into the history.
pub fn save_code(scope: &str, slot: usize, language: &str, code: &str) {
    let Some(storage) = local_storage() else {
        return;
    };
    let key = code_key(scope, slot, language);
    if let Ok(Some(stored)) = storage.get_item(&key) {
        if stored != code && written_elsewhere(&key, &stored) {
            keep_version_at(&storage, &key, &stored);
        }
    }
    let _ = storage.set_item(&key, code);
    remember(&key, Some(code));
}

/// Keeps `code` in the history of a scope's bot slot in a language (it is about to be replaced).
pub fn keep_version(scope: &str, slot: usize, language: &str, code: &str) {
    if let Some(storage) = local_storage() {
        keep_version_at(&storage, &code_key(scope, slot, language), code);
    }
}

fn stored_history(storage: &web_sys::Storage, key: &str) -> History {
    let text = storage.get_item(&history_key(key)).ok().flatten();
    History::parse(&text.unwrap_or_default())
}

fn keep_version_at(storage: &web_sys::Storage, key: &str, code: &str) {
    let mut history = stored_history(storage, key);
    if history.keep(code, now()) {
        let _ = storage.set_item(&history_key(key), &history.to_json());
    }
}

/// Replaces the saved code of a scope's bot slot in a language by `code` (not typed: a link's
/// code, the other tab's, an earlier version), keeping what was saved and `shown` (what the tab
/// showed) in the history.
pub fn replace_code(scope: &str, slot: usize, language: &str, shown: &str, code: &str) {
    if let Some(saved) = load_code(scope, slot, language) {
        if saved != code {
            keep_version(scope, slot, language, &saved);
        }
    }
    if shown != code {
        keep_version(scope, slot, language, shown);
    }
    save_code(scope, slot, language, code);
}

/// The replaced versions of a scope's bot slot's code in a language, newest first. The code that
/// earlier versions of botplay kept when a link replaced it joins the history here.
pub fn history(scope: &str, slot: usize, language: &str) -> Vec<Version> {
    let Some(storage) = local_storage() else {
        return Vec::new();
    };
    let key = code_key(scope, slot, language);
    if let Ok(Some(old)) = storage.get_item(&old_backup_key(&key)) {
        keep_version_at(&storage, &key, &old);
        let _ = storage.remove_item(&old_backup_key(&key));
    }
    let mut versions = stored_history(&storage, &key).0;
    versions.reverse();
    versions
}

/// Forgets the code saved under a scope (a link's own place, once its code became the person's).
pub fn forget_code(scope: &str, slot: usize, language: &str) {
    if let Some(storage) = local_storage() {
        let key = code_key(scope, slot, language);
        let _ = storage.remove_item(&key);
        remember(&key, None);
    }
}

/// Notes that this tab now shows what another tab wrote at `key` (so it is not kept again).
pub fn seen(key: &str, code: &str) {
    remember(key, Some(code));
}

/// Where the page keeps the game last chosen (a reload opens it again).
const GAME_KEY: &str = "botplay/game";

/// Where the page keeps the language last chosen for "your bot" in a game.
fn language_key(game: &str) -> String {
    format!("botplay/{game}/language")
}

/// Remembers the game chosen (quietly does nothing without storage).
pub fn save_game(game: &str) {
    if let Some(storage) = local_storage() {
        let _ = storage.set_item(GAME_KEY, game);
    }
}

/// The game last chosen, if any.
pub fn load_game() -> Option<String> {
    local_storage()?.get_item(GAME_KEY).ok()?
}

/// Remembers the language chosen for "your bot" in `game`.
pub fn save_language(game: &str, language: &str) {
    if let Some(storage) = local_storage() {
        let _ = storage.set_item(&language_key(game), language);
    }
}

/// The language last chosen for "your bot" in `game`, if any.
pub fn load_language(game: &str) -> Option<String> {
    local_storage()?.get_item(&language_key(game)).ok()?
}

/// Where the page notes the link whose bots it is running unasked, until that match ends.
const AUTO_RUN_KEY: &str = "botplay/auto-run";

/// Notes that the bots of the link `link` (its hash) are being run as the link was opened.
pub fn auto_run_began(link: &str) {
    if let Some(storage) = local_storage() {
        let _ = storage.set_item(AUTO_RUN_KEY, link);
    }
}

/// The match run as a link was opened has ended (finished, stopped or failed).
pub fn auto_run_ended() {
    if let Some(storage) = local_storage() {
        let _ = storage.remove_item(AUTO_RUN_KEY);
    }
}

/// Whether the last time the link `link` was opened here, its bots' match never ended: the tab
/// crashed, froze or was closed while they ran.
pub fn auto_run_unfinished(link: &str) -> bool {
    local_storage()
        .and_then(|s| s.get_item(AUTO_RUN_KEY).ok().flatten())
        .is_some_and(|noted| noted == link)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_name_scope_slot_and_language() {
        assert_eq!(
            code_key("ice-and-fire", 0, "javascript"),
            "botplay/ice-and-fire/bot1/javascript"
        );
        assert_eq!(
            code_key("skyport/link-00ff", 1, "python"),
            "botplay/skyport/link-00ff/bot2/python"
        );
        assert_eq!(
            history_key(&code_key("skyport", 0, "python")),
            "botplay/skyport/bot1/python/history"
        );
        // A history key is never a code key: it has one more part.
        assert_ne!(
            history_key("botplay/a/bot1/javascript"),
            code_key("a", 0, "javascript")
        );
    }

    #[test]
    fn the_history_keeps_the_last_distinct_versions() {
        let mut h = History::default();
        assert!(h.keep("a", 1.0));
        assert!(!h.keep("a", 2.0), "the newest again is not a new version");
        assert!(!h.keep("  \n", 2.0), "blank code is not kept");
        assert!(h.keep("b", 3.0));
        assert!(h.keep("a", 4.0), "an older version kept again moves up");
        assert_eq!(
            h.0.iter().map(|v| v.code.as_str()).collect::<Vec<_>>(),
            ["b", "a"]
        );
        assert_eq!(h.0[1].at, 4.0);
        for i in 0..HISTORY_LEN + 3 {
            h.keep(&format!("v{i}"), 10.0 + i as f64);
        }
        assert_eq!(h.0.len(), HISTORY_LEN);
        assert_eq!(h.0[0].code, "v3");
        assert_eq!(h.0.last().unwrap().code, format!("v{}", HISTORY_LEN + 2));
    }

    #[test]
    fn histories_round_trip_and_damage_reads_as_empty() {
        let mut h = History::default();
        h.keep(
            "while (true) {\n  console.log(\"WAIT\");\n}",
            1_700_000_000_000.0,
        );
        h.keep("print('é')", 1_700_000_000_001.5);
        assert_eq!(History::parse(&h.to_json()), h);
        assert_eq!(History::parse("{not json"), History::default());
        assert_eq!(History::parse(""), History::default());
    }

    #[test]
    fn a_tab_keeps_what_another_wrote_since_it_looked() {
        let key = "botplay/test/bot1/javascript";
        assert!(written_elsewhere(key, "x"), "never looked: keep it");
        remember(key, Some("mine"));
        assert!(!written_elsewhere(key, "mine"));
        assert!(written_elsewhere(key, "theirs"));
        remember(key, None);
        assert!(written_elsewhere(key, "theirs"));
        seen(key, "theirs");
        assert!(!written_elsewhere(key, "theirs"));
    }
}
