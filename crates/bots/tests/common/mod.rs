//! What the bots' tests share: matches against the real referee, through the in-process driver.

// Each test binary uses only part of this module.
#![allow(dead_code)]

use bots::Bot;
use engine::{Fault, Outcome, Referee, Setup};

/// A built-in bot of `game`, by its name in the registry, seeded.
pub fn builtin(game: &str, name: &str, seed: i64) -> Box<dyn Bot> {
    bots::builtin(game, name, seed).expect("registered")
}

/// Every ordered pair of `names` but `left_out`: the pairings a fault test plays in turn.
pub fn ordered_pairs<'a>(
    names: &[&'a str],
    left_out: Option<(&str, &str)>,
) -> Vec<(&'a str, &'a str)> {
    names
        .iter()
        .flat_map(|a| names.iter().map(move |b| (*a, *b)))
        .filter(|&pair| Some(pair) != left_out)
        .collect()
}

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

/// Fails unless the hero of a series of `of` matches won at least `at_least` of them; prints the
/// tally either way (`label` says which series).
pub fn assert_won_at_least(
    (wins, losses): (usize, usize),
    at_least: usize,
    of: usize,
    label: &str,
) {
    println!("{label}: {wins} wins, {losses} losses, of {of}");
    assert!(wins >= at_least, "{label}: only {wins} wins of {of}");
}

/// Feeds `text` to a reader one line at a time, each line ended with `ending`: it must answer
/// nothing before the last line. What it answers to the last one.
pub fn feed_line_by_line<T>(
    text: &str,
    ending: &str,
    mut feed: impl FnMut(&str) -> Option<T>,
) -> T {
    let lines: Vec<&str> = text.lines().collect();
    let (last, before) = lines.split_last().expect("a line to feed");
    for (i, line) in before.iter().enumerate() {
        let got = feed(&format!("{line}{ending}"));
        assert!(got.is_none(), "answered early, after line {i}");
    }
    feed(&format!("{last}{ending}")).expect("an answer to the last line")
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

/// Plays the built-in bot `hero` of `game` against `villain` (seeded with `seed + 1000`) in
/// two-seat matches, the hero's seat alternated by seed; `play` plays one match. Returns the
/// hero's (wins, losses) and panics on any fault (`label` says which series).
pub fn series(
    game: &str,
    seeds: std::ops::Range<i64>,
    label: &str,
    (hero, villain): (&str, &str),
    mut play: impl FnMut(i64, Vec<Box<dyn Bot>>) -> (Outcome, Vec<Fault>),
) -> (usize, usize) {
    let (mut wins, mut losses) = (0, 0);
    for seed in seeds {
        let seat = (seed % 2) as usize;
        let mut bots = vec![builtin(game, villain, seed + 1000)];
        bots.insert(seat, builtin(game, hero, seed));
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
