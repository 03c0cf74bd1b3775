//! For the games whose turns are lines of numbers (Ice and Fire, microRTS, Soak Overflow; their
//! test files include it with `#[path]`): a reader fed one line at a time, and every pairing of
//! the built-in bots played.

use std::ops::Range;

use bots::Bot;
use engine::Fault;

use crate::common::builtin;

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

/// Plays one match a seed of `seeds` with `play`, between the built-in bots of `game` named by
/// the next of every ordered pair of `names` but `left_out` (the second bot seeded one more);
/// fails on any fault, naming the seed, `label` and the pair.
pub fn assert_pairs_never_fault(
    game: &str,
    names: &[&str],
    left_out: Option<(&str, &str)>,
    seeds: Range<i64>,
    label: &str,
    mut play: impl FnMut(i64, Vec<Box<dyn Bot>>) -> Vec<Fault>,
) {
    let pairs: Vec<(&str, &str)> = names
        .iter()
        .flat_map(|a| names.iter().map(move |b| (*a, *b)))
        .filter(|&pair| Some(pair) != left_out)
        .collect();
    for seed in seeds {
        let (a, b) = pairs[seed as usize % pairs.len()];
        let faults = play(
            seed,
            vec![builtin(game, a, seed), builtin(game, b, seed + 1)],
        );
        assert!(faults.is_empty(), "seed {seed} {label}{a}-{b}: {faults:?}");
    }
}
