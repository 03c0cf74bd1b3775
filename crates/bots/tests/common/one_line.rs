//! For the games whose turn is one line (Ice and Fire, microRTS; their test files include it
//! with `#[path]`): every built-in bot answers every turn with one well-formed line.

use bots::Bot;

use crate::common::builtin;

/// Every built-in bot of `game`, in the registry's order, each seeded with `seed`.
pub fn every_builtin(game: &str, seed: i64) -> Vec<Box<dyn Bot>> {
    bots::builtins(game)
        .map(|b| builtin(game, b.name, seed))
        .collect()
}

/// Feeds `inputs` in turn to every built-in bot of `game`, for seeds 0 to 19: each must answer
/// each input with one line, which `well_formed` accepts.
pub fn assert_one_well_formed_line_per_turn(
    game: &str,
    inputs: &[&str],
    well_formed: fn(&str) -> bool,
) {
    for seed in 0..20 {
        for mut bot in every_builtin(game, seed) {
            for input in inputs {
                let out = bot.read(input);
                assert_eq!(out.len(), 1, "{out:?}");
                assert!(well_formed(&out[0]), "{:?}", out[0]);
            }
        }
    }
}
