//! What the reducer needs from the world, behind a trait so that it stays a pure function of
//! the state, the action and this environment: the browser's storage of code, game and language,
//! and random seeds. The page passes [`Browser`]; the native tests pass a [`Memory`].

use crate::storage;

/// The reducer's storage and randomness.
pub trait Env {
    /// The code saved for a slot and language in a scope (`Form::scope`), if any.
    fn load_code(&self, scope: &str, slot: usize, language: &str) -> Option<String>;
    fn save_code(&mut self, scope: &str, slot: usize, language: &str, code: &str);
    /// Saves `code` in place of the code shown (`shown`), keeping what it replaces in the
    /// history.
    fn replace_code(&mut self, scope: &str, slot: usize, language: &str, shown: &str, code: &str);
    fn forget_code(&mut self, scope: &str, slot: usize, language: &str);
    fn save_game(&mut self, game: &str);
    fn load_game(&self) -> Option<String>;
    fn save_language(&mut self, game: &str, language: &str);
    fn load_language(&self, game: &str) -> Option<String>;
    /// A seed for a new form: random, never 0.
    fn random_seed(&mut self) -> i64;
}

/// The page's environment: local storage (`src/storage.rs`) and the browser's random numbers.
pub struct Browser;

impl Env for Browser {
    fn load_code(&self, scope: &str, slot: usize, language: &str) -> Option<String> {
        storage::load_code(scope, slot, language)
    }
    fn save_code(&mut self, scope: &str, slot: usize, language: &str, code: &str) {
        storage::save_code(scope, slot, language, code);
    }
    fn replace_code(&mut self, scope: &str, slot: usize, language: &str, shown: &str, code: &str) {
        storage::replace_code(scope, slot, language, shown, code);
    }
    fn forget_code(&mut self, scope: &str, slot: usize, language: &str) {
        storage::forget_code(scope, slot, language);
    }
    fn save_game(&mut self, game: &str) {
        storage::save_game(game);
    }
    fn load_game(&self) -> Option<String> {
        storage::load_game()
    }
    fn save_language(&mut self, game: &str, language: &str) {
        storage::save_language(game, language);
    }
    fn load_language(&self, game: &str) -> Option<String> {
        storage::load_language(game)
    }
    fn random_seed(&mut self) -> i64 {
        random_seed()
    }
}

/// A seed for a new page: random (never 0), shown and editable.
pub fn random_seed() -> i64 {
    1 + (js_sys::Math::random() * 999_999_999.0) as i64
}

/// An environment in memory for the reducer's native tests: storage is a map, seeds count up
/// from 1000.
#[cfg(test)]
#[derive(Default)]
pub struct Memory {
    pub stored: std::collections::BTreeMap<String, String>,
    pub seeds: i64,
}

#[cfg(test)]
impl Memory {
    fn code_key(scope: &str, slot: usize, language: &str) -> String {
        storage::code_key(scope, slot, language)
    }
}

#[cfg(test)]
impl Env for Memory {
    fn load_code(&self, scope: &str, slot: usize, language: &str) -> Option<String> {
        self.stored
            .get(&Self::code_key(scope, slot, language))
            .cloned()
    }
    fn save_code(&mut self, scope: &str, slot: usize, language: &str, code: &str) {
        self.stored
            .insert(Self::code_key(scope, slot, language), code.to_string());
    }
    fn replace_code(&mut self, scope: &str, slot: usize, language: &str, _shown: &str, code: &str) {
        self.save_code(scope, slot, language, code);
    }
    fn forget_code(&mut self, scope: &str, slot: usize, language: &str) {
        self.stored.remove(&Self::code_key(scope, slot, language));
    }
    fn save_game(&mut self, game: &str) {
        self.stored.insert("game".into(), game.into());
    }
    fn load_game(&self) -> Option<String> {
        self.stored.get("game").cloned()
    }
    fn save_language(&mut self, game: &str, language: &str) {
        self.stored
            .insert(format!("{game}/language"), language.into());
    }
    fn load_language(&self, game: &str) -> Option<String> {
        self.stored.get(&format!("{game}/language")).cloned()
    }
    fn random_seed(&mut self) -> i64 {
        self.seeds += 1;
        1000 + self.seeds
    }
}
