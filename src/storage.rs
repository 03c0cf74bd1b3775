//! What the person typed, kept in the browser's local storage (per game and per bot slot).

fn local_storage() -> Option<web_sys::Storage> {
    web_sys::window()?.local_storage().ok()?
}

fn code_key(game: &str, slot: usize, language: &str) -> String {
    format!("botplay/{game}/bot{}/{language}", slot + 1)
}

/// The code saved for a game's bot slot in a language, if any.
pub fn load_code(game: &str, slot: usize, language: &str) -> Option<String> {
    local_storage()?
        .get_item(&code_key(game, slot, language))
        .ok()?
}

/// Saves the code of a game's bot slot in a language (quietly does nothing when storage is
/// unavailable).
pub fn save_code(game: &str, slot: usize, language: &str, code: &str) {
    if let Some(storage) = local_storage() {
        let _ = storage.set_item(&code_key(game, slot, language), code);
    }
}
