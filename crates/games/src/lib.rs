//! The rules of every botplay game, one module per game, and the registry.
//!
//! Adding a game: one new module, one line in [`GAMES`], and its golden transcript under
//! `tests/golden/`. It then appears in the page's picker, the CLI's `list` and the
//! registry-wide tests.

use engine::{Game, GameEntry, Setup, SetupError};

pub mod crafting_quest;
pub mod ice_and_fire;
pub mod java;
pub mod micro_rts;
pub mod skyport;
pub mod soak_overflow;

/// Every game, in the order pickers show them.
pub static GAMES: &[GameEntry] = &[
    ice_and_fire::ENTRY,
    soak_overflow::ENTRY,
    micro_rts::ENTRY,
    skyport::ENTRY,
    crafting_quest::ENTRY,
];

/// The registry entry of a game id.
pub fn entry(id: &str) -> Option<&'static GameEntry> {
    GAMES.iter().find(|e| e.info.id == id)
}

/// Builds a match for a setup, whatever its game.
pub fn new_game(setup: &Setup) -> Result<Box<dyn Game>, SetupError> {
    let entry = entry(&setup.game).ok_or_else(|| SetupError::UnknownGame(setup.game.clone()))?;
    (entry.new)(setup)
}
