//! What the bots' tests share: matches against the real referee, through the in-process driver.

use bots::Bot;
use engine::{Fault, Outcome, Referee, Setup};

/// Makes a seeded bot.
pub type MakeBot = fn(i64) -> Box<dyn Bot>;

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

/// Plays `hero` against `villain` (seeded with `seed + 1000`) in two-seat matches, the hero's
/// seat alternated by seed; `play` plays one match. Returns the hero's (wins, losses) and
/// panics on any fault (`label` says which series).
pub fn series(
    seeds: std::ops::Range<i64>,
    label: &str,
    hero: MakeBot,
    villain: MakeBot,
    mut play: impl FnMut(i64, Vec<Box<dyn Bot>>) -> (Outcome, Vec<Fault>),
) -> (usize, usize) {
    let (mut wins, mut losses) = (0, 0);
    for seed in seeds {
        let seat = (seed % 2) as usize;
        let mut bots = vec![villain(seed + 1000)];
        bots.insert(seat, hero(seed));
        let (outcome, faults) = play(seed, bots);
        assert!(faults.is_empty(), "seed {seed} {label}: {faults:?}");
        match outcome.winner() {
            Some(w) if w == seat => wins += 1,
            Some(_) => losses += 1,
            None => {}
        }
    }
    (wins, losses)
}
