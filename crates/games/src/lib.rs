//! The rules of every botplay game, one module per game, and the registry.
//!
//! Adding a game: one new module here and one line in [`GAMES`], then its bots, painter,
//! starters, rules page and golden transcript, each with one line in its own registry: the steps
//! are under "Adding a game" in `ARCHITECTURE.md`. The registry-wide tests fail on a missing
//! part.

use engine::{Game, GameEntry, Setup, SetupError};

/// `engine::Scene` for a game whose frame keeps a copy of the match: the status lines, text
/// board, view and key numbers written by the functions of its `view` module (`status`, `text`,
/// `view`, `stats`), the events by the given method of the game.
macro_rules! scene_of_a_copy {
    ($game:ty, $events:ident) => {
        impl engine::Scene for $game {
            fn events(&self) -> Vec<String> {
                self.$events()
            }

            fn status(&self) -> Vec<String> {
                view::status(self)
            }

            fn text(&self) -> String {
                view::text(self)
            }

            fn view_json(&self) -> String {
                serde_json::to_string(&view::view(self)).unwrap_or_default()
            }

            fn view(&self) -> Box<dyn std::any::Any> {
                Box::new(view::view(self))
            }

            fn stats(&self) -> Vec<engine::Stat> {
                view::stats(self)
            }
        }
    };
}

pub mod crafting_quest;
pub mod ice_and_fire;
pub mod java;
pub mod micro_rts;
pub mod skyport;
pub mod soak_overflow;
pub mod text;

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

/// Builds a match for a setup as the CLI and the page do: a game that refuses seed 0 because
/// its original takes it for "a random map" (Soak Overflow) gets the seed `random` picks, written
/// into `setup` so that it can be shown and replayed. The only place that rule is applied.
pub fn new_game_picking_seed(
    setup: &mut Setup,
    random: impl FnOnce() -> i64,
) -> Result<Box<dyn Game>, SetupError> {
    match new_game(setup) {
        Err(SetupError::BadOption { key, .. }) if key == "seed" && setup.seed == 0 => {
            setup.seed = random();
            new_game(setup)
        }
        built => built,
    }
}

/// The seed of a match as [`new_game_picking_seed`] picks it, without building the game unless
/// it must: only seed 0 can be refused, so only then is the game built to ask (the page, which
/// leaves building the game to its match worker).
pub fn pick_seed(setup: &mut Setup, random: impl FnOnce() -> i64) -> Result<(), SetupError> {
    if setup.seed != 0 {
        return Ok(());
    }
    new_game_picking_seed(setup, random).map(drop)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The seed a new setup of `entry`'s game with `seed` is left with when 42 is offered, by
    /// [`pick_seed`] and by [`new_game_picking_seed`], which must agree.
    fn seed_picked(entry: &GameEntry, seed: i64) -> i64 {
        let mut picked = Setup::new(entry.info, seed);
        pick_seed(&mut picked, || 42).expect("a seed");
        let mut built = Setup::new(entry.info, seed);
        new_game_picking_seed(&mut built, || 42).expect("built");
        assert_eq!(picked.seed, built.seed, "{} seed {seed}", entry.info.id);
        picked.seed
    }

    #[test]
    fn picking_a_seed_builds_the_game_only_for_seed_zero() {
        // An option no game takes: building the game would refuse it.
        let mut odd = Setup::new(soak_overflow::ENTRY.info, 7);
        odd.options.insert("no-such-option".into(), "1".into());
        assert!(new_game(&odd).is_err());
        pick_seed(&mut odd, || unreachable!("seed 7 is kept")).expect("not built");
    }

    #[test]
    fn seed_zero_is_replaced_only_where_the_game_refuses_it() {
        assert_eq!(seed_picked(&soak_overflow::ENTRY, 0), 42);
        assert_eq!(
            seed_picked(&soak_overflow::ENTRY, 7),
            7,
            "a valid seed is kept"
        );
        assert_eq!(
            seed_picked(&ice_and_fire::ENTRY, 0),
            0,
            "Ice and Fire takes seed 0"
        );
        let mut bad = Setup::new(soak_overflow::ENTRY.info, 0);
        bad.ruleset = "no-such-league".into();
        assert!(new_game_picking_seed(&mut bad, || 42).is_err());
    }
}
