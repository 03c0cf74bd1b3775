//! What the bots' tests share: the built-in bots by name, and matches against the real referee
//! through the in-process driver, one at a time or in series. (What only some games' tests use
//! is in the other files of this folder, each named by the test files that use it.)

use std::ops::Range;

use bots::Bot;
use engine::{Fault, Outcome, Referee, Setup};

/// A built-in bot of `game`, by its name in the registry, seeded.
pub fn builtin(game: &str, name: &str, seed: i64) -> Box<dyn Bot> {
    bots::builtin(game, name, seed).expect("registered")
}

/// A match of `game` on `seed` with the game's default ruleset and fewest seats.
pub fn setup(game: &str, seed: i64) -> Setup {
    Setup::new(games::entry(game).expect("registered").info, seed)
}

/// Plays a match of `setup` to its end; its seats are named `bot0`, `bot1`, …
pub fn play_out(setup: Setup, bots: Vec<Box<dyn Bot>>) -> Referee {
    let game = games::new_game(&setup).expect("a valid setup");
    let names = (0..bots.len()).map(|i| format!("bot{i}")).collect();
    let mut referee = Referee::new(game, setup, names, false);
    bots::local::play(&mut referee, bots);
    referee
}

/// The outcome of a finished match and its faults.
pub fn result(referee: &Referee) -> (Outcome, Vec<Fault>) {
    let outcome = referee.outcome().expect("the match ended");
    (outcome, referee.faults().to_vec())
}

/// How a series of matches went for its hero.
#[derive(Clone, Copy, Debug)]
pub struct Tally {
    pub wins: usize,
    pub losses: usize,
    /// The matches played.
    pub of: usize,
}

impl Tally {
    /// Fails unless the hero won at least `at_least` of the matches; prints the tally either
    /// way (`label` says which series).
    pub fn assert_won_at_least(self, at_least: usize, label: &str) {
        let Tally { wins, losses, of } = self;
        println!("{label}: {wins} wins, {losses} losses, of {of}");
        assert!(wins >= at_least, "{label}: only {wins} wins of {of}");
    }
}

/// Plays the built-in bot `hero` of `game` against `villain` (seeded with `seed + 1000`) in
/// two-seat matches, one a seed, the hero's seat alternated by seed; `play` plays one match.
/// Panics on any fault (`label` says which series).
pub fn series(
    game: &str,
    seeds: Range<i64>,
    label: &str,
    (hero, villain): (&str, &str),
    mut play: impl FnMut(i64, Vec<Box<dyn Bot>>) -> (Outcome, Vec<Fault>),
) -> Tally {
    let mut tally = Tally {
        wins: 0,
        losses: 0,
        of: seeds.clone().count(),
    };
    for seed in seeds {
        let seat = (seed % 2) as usize;
        let mut bots = vec![builtin(game, villain, seed + 1000)];
        bots.insert(seat, builtin(game, hero, seed));
        let (outcome, faults) = play(seed, bots);
        assert!(faults.is_empty(), "seed {seed} {label}: {faults:?}");
        match outcome.winner() {
            Some(w) if w == seat => tally.wins += 1,
            Some(_) => tally.losses += 1,
            None => {}
        }
    }
    tally
}
