//! The `botplay` command line as other tools meet it: its output lines, exit codes and errors,
//! against real local programs.
use crate::common::{
    assert_contains, botplay, fixture, play_match, seat_lines, stderr, stdout, temp, words,
};

use std::process::{Command, Output};
use std::time::Instant;

fn play(bots: [&str; 2], extra: &[&str]) -> Output {
    play_match("ice-and-fire", "1", &bots, extra)
}

#[test]
fn list_prints_one_line_per_game() {
    let o = botplay(&["list"]);
    assert!(o.status.success());
    assert!(
        stdout(&o)
            .lines()
            .any(|l| l == "ice-and-fire\tA Code of Ice and Fire\t2\t1"),
        "{}",
        stdout(&o)
    );
    let with_bots = stdout(&botplay(&["list", "--bots"]));
    assert_contains(&with_bots, "builtin:expander");
}

#[test]
fn play_prints_seats_and_writes_a_replay_that_replays_the_same() {
    let replay = temp("cli", "m.json");
    let replay_path = replay.display().to_string();
    let o = play(
        ["builtin:expander", "builtin:random"],
        &["--replay", &replay_path],
    );
    assert!(o.status.success(), "{}", stderr(&o));
    let seats = seat_lines(&stdout(&o));
    assert_eq!(seats.len(), 2, "{}", stdout(&o));
    assert_eq!(seats[0].0, 1);
    assert_eq!(seats[0].1, "builtin:expander");
    assert_eq!(seats[1].1, "builtin:random");
    assert_eq!(seats[0].3, 1, "expander wins seed 1: {}", stdout(&o));
    let again = botplay(&["replay", &replay_path]);
    assert!(again.status.success(), "{}", stderr(&again));
    let replayed = stdout(&again);
    for line in stdout(&o).lines() {
        assert!(replayed.contains(line), "{line} missing from\n{replayed}");
    }
    assert!(
        replayed.contains("turn "),
        "the final frame is printed: {replayed}"
    );

    // The same match's numbers per step and seat, as CSV.
    let stats = botplay(&["replay", "--stats", &replay_path]);
    assert!(stats.status.success(), "{}", stderr(&stats));
    let table = stdout(&stats);
    let rows: Vec<Vec<&str>> = table.lines().map(|l| l.split(',').collect()).collect();
    assert_eq!(
        rows[0],
        [
            "frame",
            "turn",
            "seat",
            "bot",
            "out",
            "gold",
            "income",
            "units",
            "territory",
            "military power",
            "time_ms",
            "budget_ms",
            "fault"
        ]
    );
    assert!(rows.iter().all(|r| r.len() == rows[0].len()), "{table}");
    assert_eq!(rows[1][..5], ["0", "0", "1", "builtin:expander", "0"]);
    assert_eq!(
        rows[1][10..],
        ["", "", ""],
        "nobody has played at the start"
    );
    // Ice and Fire alternates: the first step is seat 1's first turn, with its first budget.
    assert_eq!(rows[3][2], "1");
    assert_eq!(rows[3][11], "1000");
    assert_eq!(rows[4][10..], ["", "", ""], "seat 2 was not asked");
    let last = &rows[rows.len() - 2..];
    let territory = |r: &Vec<&str>| r[8].parse::<i64>().expect("a number");
    assert!(
        territory(&last[0]) > territory(&last[1]),
        "the winner holds more territory at the end:\n{table}"
    );
}

#[test]
fn unchanged_codingame_bots_in_python_javascript_and_c_play_full_matches() {
    let py = format!("python3 {}", fixture("wait.py"));
    let js = fixture("train.js");
    let exe = temp("cli", "unflushed");
    let cc = Command::new("cc")
        .args([&fixture("unflushed.c"), "-O1", "-o"])
        .arg(&exe)
        .status()
        .expect("a C compiler");
    assert!(cc.success());
    let c = exe.display().to_string();
    for (a, b) in [(py.as_str(), js.as_str()), (c.as_str(), py.as_str())] {
        let o = play([a, b], &["--relaxed"]);
        assert!(o.status.success(), "{}", stderr(&o));
        let out = stdout(&o);
        assert!(!out.contains("fault"), "{a} vs {b}:\n{out}");
        assert_eq!(seat_lines(&out).len(), 2, "{out}");
    }
}

#[test]
fn a_bot_that_sleeps_times_out_within_its_budget() {
    let started = Instant::now();
    let o = play(["sleep 5", "builtin:wait"], &[]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(
        started.elapsed().as_secs_f64() < 4.0,
        "stopped at its 1000 ms budget"
    );
    let out = stdout(&o);
    assert_contains(&out, "fault seat 1 turn 1 timeout");
    let seats = seat_lines(&out);
    assert_eq!(
        (seats[0].2, seats[0].3),
        (-1, 2),
        "the timed-out bot loses: {out}"
    );
}

#[test]
fn crashes_and_garbage_are_faults_with_reasons() {
    let o = play(["builtin:wait", "echo oops >&2; exit 3"], &[]);
    let out = stdout(&o);
    assert!(o.status.success());
    assert_contains(&out, "fault seat 2 turn 2 crash");

    let o = play(
        ["sh -c 'while read l; do echo hello; done'", "builtin:wait"],
        &[],
    );
    let out = stdout(&o);
    assert_contains(&out, "fault seat 1 turn 1 malformed output");
}

#[test]
fn a_bot_that_floods_output_without_reading_costs_no_memory() {
    // `yes WAIT` never reads: lines written ahead are read as later turns' output, as on
    // CodinGame, but more than a turn's worth of them without reading is a flood. (Against a
    // Python opponent, which takes tens of milliseconds to start, it is thousands of lines
    // ahead at its second turn; against a built-in bot the match may be over before.)
    let started = Instant::now();
    let waiter = format!("python3 {}", fixture("wait.py"));
    let o = play(["yes WAIT", &waiter], &[]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(seat_lines(&stdout(&o)).len(), 2);
    assert_contains(
        &stdout(&o),
        "too much output: more than 2000 lines written without reading",
    );
    assert!(started.elapsed().as_secs() < 30);
}

#[test]
fn bad_command_lines_exit_2_with_a_message() {
    for (args, needle) in [
        (
            vec!["play", "--game", "chess", "--bot", "x"],
            "unknown game 'chess'",
        ),
        (
            words("play --game ice-and-fire --bot builtin:nobody --bot builtin:wait"),
            "no built-in bot 'nobody'",
        ),
        (
            vec!["play", "--game", "ice-and-fire", "--bot", "builtin:wait"],
            "played by 2 bots, not 1",
        ),
        (
            words("play --game ice-and-fire --league 9 --bot builtin:wait --bot builtin:wait"),
            "unknown ruleset 'league-9'",
        ),
        (
            vec!["play", "--gmae", "ice-and-fire"],
            "unknown option '--gmae'",
        ),
        (vec!["dance"], "unknown command 'dance'"),
    ] {
        let o = botplay(&args);
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        assert!(stderr(&o).contains(needle), "{args:?}: {}", stderr(&o));
        assert!(!stderr(&o).contains("panicked"));
    }
}

#[test]
fn damaged_or_foreign_replays_are_refused_with_exit_2() {
    let good = temp("cli", "good.json");
    let o = play(
        ["builtin:random", "builtin:wait"],
        &["--replay", &good.display().to_string()],
    );
    assert!(o.status.success());
    let text = std::fs::read_to_string(&good).expect("replay written");
    let cases = [
        ("missing.json", None, "cannot read"),
        (
            "garbage.json",
            Some("not json at all".to_string()),
            "not a readable replay",
        ),
        (
            "cut.json",
            Some(text[..text.len() / 2].to_string()),
            "not a readable replay",
        ),
        (
            "version.json",
            Some(text.replace("\"game_version\":1", "\"game_version\":99")),
            "version 99",
        ),
        (
            "tampered.json",
            Some(text.replacen("\"lines\":[\"WAIT\"]", "\"lines\":[\"JUMP\"]", 1)),
            "damaged",
        ),
    ];
    for (name, content, needle) in cases {
        let path = temp("cli", name);
        if let Some(content) = content {
            std::fs::write(&path, content).expect("write");
        }
        let o = botplay(&["replay", &path.display().to_string()]);
        assert_eq!(o.status.code(), Some(2), "{name}: {}", stdout(&o));
        assert!(stderr(&o).contains(needle), "{name}: {}", stderr(&o));
    }
}

#[test]
fn link_prints_a_share_link_that_carries_the_replay() {
    let file = temp("cli", "linked.json");
    let path = file.display().to_string();
    assert!(
        play(["builtin:expander", "builtin:random"], &["--replay", &path])
            .status
            .success()
    );
    let o = botplay(&["link", &path, "--base", "https://example.org/botplay/"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let link = stdout(&o).trim().to_string();
    assert!(
        link.starts_with("https://example.org/botplay/#b1."),
        "{link}"
    );
    let doc = engine::ShareDoc::decode(&link).expect("a readable link");
    let text = std::fs::read_to_string(&file).expect("the replay");
    assert_eq!(
        doc.replay,
        Some(engine::Replay::from_json(&text).expect("replay"))
    );
    assert_eq!(doc.bots[0].name(), "expander");

    assert!(
        stderr(&o).contains("not the bots' code"),
        "the maker is told what the link holds: {}",
        stderr(&o)
    );

    let damaged = temp("cli", "damaged.json");
    std::fs::write(&damaged, "{}").expect("write");
    let o = botplay(&["link", &damaged.display().to_string()]);
    assert_eq!(o.status.code(), Some(2));
    assert_contains(&stderr(&o), "not a readable replay");
}

#[test]
fn seed_0_of_soak_overflow_becomes_a_shown_random_seed() {
    let o = botplay(&words(
        "play --game soak-overflow --seed 0 --bot builtin:soaker --bot builtin:wait",
    ));
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("seed 0 means a random map in this game; using seed "),
        "{}",
        stderr(&o)
    );
    assert_eq!(seat_lines(&stdout(&o)).len(), 2);
}

#[test]
fn a_link_cuts_disk_paths_to_file_names_unless_asked_to_keep_them() {
    // A Python bot that crashes: its traceback names its file by its whole path, as does its
    // command.
    let bot = temp("cli", "student.py");
    std::fs::write(&bot, "import sys\ninput()\nraise ValueError('oops')\n").expect("write");
    let bot_path = bot.display().to_string();
    let file = temp("cli", "paths.json");
    let path = file.display().to_string();
    let command = format!("python3 {bot_path}");
    let o = play([command.as_str(), "builtin:random"], &["--replay", &path]);
    assert!(o.status.success(), "{}", stderr(&o));
    let dir = temp("cli", "").display().to_string();
    let raw = std::fs::read_to_string(&file).expect("the replay");
    assert!(raw.contains(&dir), "the replay itself keeps the paths");

    let o = botplay(&["link", &path]);
    assert!(o.status.success(), "{}", stderr(&o));
    let doc = engine::ShareDoc::decode(stdout(&o).trim()).expect("a readable link");
    let json = serde_json::to_string(&doc).expect("json");
    assert!(!json.contains(&dir), "a path is left in the link: {json}");
    assert_contains(&json, "python3 student.py");
    assert_contains(&json, "File \\\"student.py\\\"");
    assert_contains(&stderr(&o), "disk paths cut");

    let o = botplay(&["link", &path, "--keep-paths"]);
    let doc = engine::ShareDoc::decode(stdout(&o).trim()).expect("a readable link");
    let json = serde_json::to_string(&doc).expect("json");
    assert!(json.contains(&dir), "--keep-paths cut a path: {json}");
}
