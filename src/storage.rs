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

fn backup_key(game: &str, slot: usize, language: &str) -> String {
    format!("{}/before-link", code_key(game, slot, language))
}

/// Keeps the code a link is about to replace, so that it can be restored.
pub fn keep_backup(game: &str, slot: usize, language: &str, code: &str) {
    if let Some(storage) = local_storage() {
        let _ = storage.set_item(&backup_key(game, slot, language), code);
    }
}

/// Whether code replaced by a link can be restored.
pub fn has_backup(game: &str, slot: usize, language: &str) -> bool {
    local_storage()
        .and_then(|s| s.get_item(&backup_key(game, slot, language)).ok().flatten())
        .is_some()
}

/// The code a link replaced, removed from the backup.
pub fn take_backup(game: &str, slot: usize, language: &str) -> Option<String> {
    let storage = local_storage()?;
    let key = backup_key(game, slot, language);
    let code = storage.get_item(&key).ok()??;
    let _ = storage.remove_item(&key);
    Some(code)
}

/// Saves the code of a game's bot slot in a language (quietly does nothing when storage is
/// unavailable).
pub fn save_code(game: &str, slot: usize, language: &str, code: &str) {
    if let Some(storage) = local_storage() {
        let _ = storage.set_item(&code_key(game, slot, language), code);
    }
}
