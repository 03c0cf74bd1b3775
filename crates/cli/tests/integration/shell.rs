//! The command line as a shell user meets it: help for every command, `--flag=value`, negative
//! numbers as values, suggestions for typos (exit status 2), completions, `list` for people
//! and for scripts.

use crate::common::{assert_contains, botplay, start_botplay, stderr, stdout, words};

use std::process::Command;

use serde_json::Value;

#[test]
fn every_command_has_its_help() {
    let top = botplay(&["help"]);
    assert!(top.status.success(), "{}", stderr(&top));
    for command in [
        "list",
        "play",
        "arena",
        "replay",
        "link",
        "host",
        "completions",
    ] {
        assert!(
            stdout(&top).contains(command),
            "{command}: {}",
            stdout(&top)
        );
    }
    assert!(stdout(&top).contains("builtin:NAME"), "bot specs explained");
    for (args, needles) in [
        (
            vec!["help", "play"],
            vec!["Usage: botplay play", "--seed <N>", "--replay <FILE>"],
        ),
        (
            vec!["play", "--help"],
            vec!["Usage: botplay play", "--bot <SPEC>", "--bot-pty"],
        ),
        (
            vec!["arena", "--help"],
            vec!["--matches <N>", "--shard <K/N>", "merge"],
        ),
        (vec!["arena", "merge", "--help"], vec!["<PART>..."]),
        (vec!["host", "-h"], vec!["--port <P>", "--rounds <N>"]),
        (vec!["help", "list"], vec!["--json", "--bots"]),
        (vec![], vec!["Usage: botplay"]),
    ] {
        let o = botplay(&args);
        assert!(o.status.success(), "{args:?}: {}", stderr(&o));
        for needle in needles {
            assert!(stdout(&o).contains(needle), "{args:?}: {}", stdout(&o));
        }
    }
}

#[test]
fn values_go_with_an_equals_sign_or_after_a_space_and_may_be_negative() {
    let spaced = botplay(&words(
        "play --game ice-and-fire --seed -5 --bot builtin:expander --bot builtin:random",
    ));
    let joined = botplay(&words(
        "play --game=ice-and-fire --seed=-5 --bot=builtin:expander --bot=builtin:random",
    ));
    assert!(spaced.status.success(), "{}", stderr(&spaced));
    assert!(joined.status.success(), "{}", stderr(&joined));
    assert_contains(&stderr(&spaced), "seed -5");
    assert_eq!(stdout(&spaced), stdout(&joined));
    assert!(stdout(&spaced).contains("seat 1 builtin:expander score"));
}

#[test]
fn typos_get_suggestions_and_exit_2() {
    for (args, needle) in [
        (
            vec!["play", "--sed", "3"],
            "unknown option '--sed' for `play` (did you mean '--seed'?)",
        ),
        (
            vec!["arena", "--matchs", "3"],
            "unknown option '--matchs' for `arena` (did you mean '--matches'?)",
        ),
        (
            vec!["lsit"],
            "unknown command 'lsit' (did you mean 'list'?)",
        ),
        (vec!["completions", "tcsh"], "invalid value 'tcsh'"),
        (
            vec!["play", "--game"],
            "a value is required for '--game <GAME>'",
        ),
    ] {
        let o = botplay(&args);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {}", stderr(&o));
        assert!(stderr(&o).contains(needle), "{args:?}: {}", stderr(&o));
        assert!(stdout(&o).is_empty(), "{args:?}: {}", stdout(&o));
        assert!(!stderr(&o).contains("panicked"));
    }
}

#[test]
fn completions_for_bash_zsh_and_fish() {
    for (shell, needle) in [
        ("bash", "complete -F _botplay"),
        ("zsh", "#compdef botplay"),
        ("fish", "complete -c botplay"),
    ] {
        let o = botplay(&["completions", shell]);
        assert!(o.status.success(), "{shell}: {}", stderr(&o));
        let text = stdout(&o);
        assert!(text.contains(needle), "{shell}: {text}");
        for flag in ["matches", "shard", "bot-pty", "merge"] {
            assert!(text.contains(flag), "{shell} completes {flag}");
        }
    }
    // The bash script is valid bash.
    if let Ok(status) = Command::new("bash")
        .args(["-n", "-c", &stdout(&botplay(&["completions", "bash"]))])
        .status()
    {
        assert!(status.success());
    }
}

/// The `key` of every item of a game's `list`, from `botplay list --json`.
fn each<'a>(game: &'a Value, list: &str, key: &str) -> Vec<&'a str> {
    let items = game[list].as_array().unwrap_or_else(|| panic!("{list}"));
    let text = |item: &'a Value| {
        item[key]
            .as_str()
            .unwrap_or_else(|| panic!("{list}: {key}"))
    };
    items.iter().map(text).collect()
}

#[test]
fn list_has_a_header_and_a_json_form() {
    let o = botplay(&["list"]);
    assert!(o.status.success());
    let text = stdout(&o);
    assert_eq!(text.lines().next(), Some("id\tname\tseats\tversion"));
    assert!(text
        .lines()
        .any(|l| l == "skyport\tSkyport\t2-8\t1" || l.starts_with("skyport\tSkyport\t2-8\t")));

    let o = botplay(&["list", "--json"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let games: Value = serde_json::from_str(&stdout(&o)).expect("JSON");
    let games = games.as_array().expect("an array of games");
    assert_eq!(games.len(), text.lines().count() - 1, "one per game");
    for game in games {
        let id = game["id"].as_str().expect("id");
        let entry = games::entry(id).expect("a known game");
        assert_eq!(game["name"], entry.info.name);
        assert_eq!(game["version"], entry.info.version);
        assert_eq!(game["seats"]["min"], entry.info.min_seats);
        assert_eq!(game["seats"]["max"], entry.info.max_seats);
        let want: Vec<&str> = entry.info.rulesets.iter().map(|r| r.id).collect();
        assert_eq!(each(game, "rulesets", "id"), want);
        let want: Vec<&str> = bots::builtins(id).map(|b| b.name).collect();
        assert_eq!(each(game, "bots", "name"), want);
    }
    let soak = games
        .iter()
        .find(|g| g["id"] == "soak-overflow")
        .expect("soak");
    assert_eq!(soak["leagues"], serde_json::json!([1, 2, 3, 4, 5]));
}

/// `botplay list | head -1`: the reader has gone before the listing is written, and botplay ends
/// quietly with status 0 instead of panicking on the closed pipe.
#[test]
fn a_reader_that_goes_early_is_no_panic() {
    for args in [&["list"][..], &["list", "--json"][..]] {
        let mut child = start_botplay(args);
        drop(child.stdout.take());
        let output = child.wait_with_output().expect("botplay ends");
        let err = stderr(&output);
        assert!(!err.contains("panicked"), "{args:?}: {err}");
        assert!(
            output.status.success(),
            "{args:?}: {:?} {err}",
            output.status
        );
    }
}
