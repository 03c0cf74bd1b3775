//! The editor's starter bots (`www/starter/`), run by the CLI as local programs: each game's
//! JavaScript, TypeScript and Python starter plays a whole match without a fault, and the three
//! languages play the very same match (the starters are deterministic translations of each
//! other), so a bot written in the page works unchanged with `botplay play`.

use std::path::Path;
use std::process::Command;

fn starter(file: &str) -> String {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../www/starter")
        .join(file)
        .display()
        .to_string()
}

/// Plays `bot` against the game's random bot; returns stdout, asserting exit status 0.
fn play(game: &str, bot: &str) -> String {
    let o = Command::new(env!("CARGO_BIN_EXE_botplay"))
        .args(["play", "--game", game, "--seed", "3", "--relaxed"])
        .args(["--bot", bot, "--bot", "builtin:random"])
        .output()
        .expect("botplay runs");
    let out = String::from_utf8_lossy(&o.stdout).into_owned();
    assert!(
        o.status.success(),
        "{game} {bot}: {out}\n{}",
        String::from_utf8_lossy(&o.stderr)
    );
    out
}

/// The outcome lines with the bot's name taken out, so two languages compare equal.
fn outcome(out: &str, name: &str) -> Vec<String> {
    out.lines()
        .filter(|l| l.starts_with("seat "))
        .map(|l| l.replace(name, "BOT"))
        .collect()
}

/// Fails if seat 1, the bot `who` names, faulted in the match `out` tells of.
fn assert_seat_1_never_faulted(out: &str, who: &str) {
    assert!(
        !out.lines().any(|l| l.starts_with("fault seat 1 ")),
        "{who} faulted:\n{out}"
    );
}

#[test]
fn every_game_has_javascript_typescript_and_python_starters_that_play_the_same_faultless_match() {
    // Every game of the registry (a new game without starters fails here).
    for game in games::GAMES.iter().map(|entry| entry.info.id) {
        let js = starter(&format!("{game}.js"));
        let ts = starter(&format!("{game}.ts"));
        let py = format!("python3 {}", starter(&format!("{game}.py")));
        let js_out = play(game, &js);
        let ts_out = play(game, &ts);
        let py_out = play(game, &py);
        for (bot, out) in [(&js, &js_out), (&ts, &ts_out), (&py, &py_out)] {
            assert_seat_1_never_faulted(out, &format!("{game}: the starter {bot}"));
        }
        assert_eq!(
            outcome(&js_out, &js),
            outcome(&py_out, &py),
            "{game}: the JavaScript and Python starters played different matches"
        );
        assert_eq!(
            outcome(&js_out, &js),
            outcome(&ts_out, &ts),
            "{game}: the JavaScript and TypeScript starters played different matches"
        );
    }
}

#[test]
fn a_command_that_runs_node_gets_the_same_readline_as_a_bare_js_file() {
    // The JavaScript starters call CodinGame's global readline(), which Node lacks.
    let file = starter("soak-overflow.js");
    let bare = play("soak-overflow", &file);
    let command = format!("node {file}");
    let by_command = play("soak-overflow", &command);
    assert_seat_1_never_faulted(&by_command, "`node FILE`");
    assert_eq!(
        outcome(&bare, &file),
        outcome(&by_command, &command),
        "`node FILE` played another match than FILE"
    );
}
