//! `botplay play --from REPLAY --turn N`: a match taken over from one of its turns. Taken over by
//! the same bots, it is the same match, line for line, in every game: the turns before N are the
//! record's, and each bot, having read what its seat was sent in them, answers from N on as it
//! did the first time (Crafting Quest 3's bots converse within a turn; Skyport's hear
//! broadcasts between turns).
use crate::common::{assert_contains, botplay, play_args, temp, words, words_then};

use std::path::Path;
use std::process::Output;

use serde_json::Value;

fn read(path: impl AsRef<Path>) -> Value {
    serde_json::from_str(&std::fs::read_to_string(path).expect("a replay")).expect("JSON")
}

/// Every seat's lines of every turn record.
fn lines(replay: &Value) -> Vec<Vec<Value>> {
    replay["turns"]
        .as_array()
        .expect("turns")
        .iter()
        .map(|t| {
            t["seats"]
                .as_array()
                .expect("seats")
                .iter()
                .map(|s| s["lines"].clone())
                .collect()
        })
        .collect()
}

fn ok(o: &Output) -> String {
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    String::from_utf8_lossy(&o.stdout).into_owned()
}

/// Runs `botplay` with the words of `line` and `--replay` to the scratch file `name`, which
/// must succeed: the replay's path.
fn recorded(name: &str, line: &str) -> String {
    let path = temp("takeover", name).display().to_string();
    ok(&botplay(&words_then(line, &["--replay", &path])));
    path
}

/// Runs `botplay play` taking the match of the replay `original` over from `turn` with `bots`,
/// its replay written to `replay`, which must succeed: what it printed.
fn take_over(original: &str, turn: &str, [a, b]: [&str; 2], replay: &str) -> String {
    ok(&botplay(&[
        "play", "--from", original, "--turn", turn, "--bot", a, "--bot", b, "--replay", replay,
    ]))
}

#[test]
fn a_match_taken_over_by_the_same_bots_is_the_same_match() {
    let games: [(&str, &str, &[&str]); 5] = [
        ("ice-and-fire", "builtin:expander", &[]),
        ("soak-overflow", "builtin:soaker", &[]),
        ("micro-rts", "builtin:rush", &[]),
        ("skyport", "builtin:gunner", &[]),
        (
            "crafting-quest",
            "builtin:crafter",
            &["--option", "rounds=12"],
        ),
    ];
    for (game, bot, options) in games {
        let original = temp("takeover", &format!("{game}.json"));
        let original_arg = original.display().to_string();
        let mut args = play_args(game, "7", &[bot, "builtin:random"]);
        args.extend(options);
        args.extend(["--replay", &original_arg]);
        let first = ok(&botplay(&args));
        let recorded = read(&original);
        let records = lines(&recorded);
        // The turn the middle record was played in, as the viewer numbers it.
        let middle = &recorded["turns"][records.len() / 2]["seats"][0]["turn"];
        let turn = middle.as_u64().expect("a turn").to_string();

        let taken = temp("takeover", &format!("{game}-taken.json"));
        let taken_arg = taken.display().to_string();
        let again = take_over(&original_arg, &turn, [bot, "builtin:random"], &taken_arg);
        assert_eq!(again, first, "{game}: the same result");
        let replayed = read(&taken);
        assert_eq!(lines(&replayed), records, "{game}: the same lines");
        assert_eq!(replayed["setup"], recorded["setup"], "{game}");
        let from = &replayed["from"];
        assert_eq!(from["turn"].as_u64().map(|t| t.to_string()), Some(turn));
        assert!(
            from["turns"].as_u64().is_some_and(|t| t > 0),
            "{game}: {from}"
        );
        assert_eq!(
            from["replay"].as_str().map(str::len),
            Some(16),
            "{game}: {from}"
        );
        // The new replay is a replay like any other.
        ok(&botplay(&["replay", &taken_arg]));
    }
}

#[test]
fn a_bot_taking_over_plays_from_that_turn_on() {
    let original = recorded(
        "wait.json",
        "play --game ice-and-fire --seed 3 --bot builtin:wait --bot builtin:expander",
    );
    let taken = temp("takeover", "wait-taken.json");
    let bots = ["builtin:expander", "builtin:expander"];
    let out = take_over(&original, "4", bots, &taken.display().to_string());
    let (before, after) = (lines(&read(&original)), lines(&read(&taken)));
    let from = read(&taken)["from"]["turns"].as_u64().expect("turns") as usize;
    assert_eq!(before[..from], after[..from], "the record up to the turn");
    assert_ne!(before[from..], after[from..], "then the new bot plays");
    assert_contains(&out, "seat 1 builtin:expander");
}

#[test]
fn a_turn_the_match_never_reached_or_a_setup_beside_from_is_refused() {
    let original = recorded(
        "short.json",
        "play --game ice-and-fire --seed 1 --bot builtin:expander --bot builtin:random",
    );
    for (args, says) in [
        (
            words("--turn 9999 --bot builtin:wait --bot builtin:wait"),
            "the match has no turn 9999",
        ),
        (
            vec!["--turn", "2", "--bot", "builtin:wait"],
            "this match has 2 seats",
        ),
        (
            vec![
                "--turn", "2", "--game", "skyport", "--bot", "a", "--bot", "b",
            ],
            "--from takes the game and its setup from the replay",
        ),
    ] {
        let mut all = vec!["play", "--from", &original];
        all.extend(args);
        let o = botplay(&all);
        assert_eq!(o.status.code(), Some(2), "{all:?}");
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(err.contains(says), "{all:?}: {err}");
    }
}
