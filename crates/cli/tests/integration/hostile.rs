//! Hostile and broken local bots against `botplay play`: a bot that exits, hangs, floods, writes
//! an endless line, writes garbage, floods its debug log or never reads is a fault with a clear
//! reason in the CLI's usual output (`fault seat N turn T kind: text`), the other bot plays on
//! to the end of the match, and when the match is over nothing a bot started is left running.
use crate::common::{alive, botplay_within, play_args, temp};

use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

fn play(game: &str, bots: &[&str], extra: &[&str]) -> String {
    let mut args = play_args(game, "3", bots);
    args.extend(extra);
    let o = botplay_within(&args, Duration::from_secs(60));
    let out = String::from_utf8_lossy(&o.stdout).into_owned();
    assert_eq!(
        o.status.code(),
        Some(0),
        "a match with a broken bot still ran: {out}\n{}",
        String::from_utf8_lossy(&o.stderr)
    );
    out
}

/// The faults printed for a seat (1-based), as `(turn, "kind: text")`.
fn faults_of(out: &str, seat: usize) -> Vec<(u32, String)> {
    let prefix = format!("fault seat {seat} turn ");
    out.lines()
        .filter_map(|l| {
            let rest = l.strip_prefix(&prefix)?;
            let (turn, what) = rest.split_once(' ')?;
            Some((turn.parse().ok()?, what.to_string()))
        })
        .collect()
}

/// The `seat N NAME score S rank R` lines, as `(score, rank)`.
fn results(out: &str) -> Vec<(i64, usize)> {
    out.lines()
        .filter(|l| l.starts_with("seat "))
        .filter_map(|l| {
            let (_, rest) = l.rsplit_once(" score ")?;
            let (score, rank) = rest.split_once(" rank ")?;
            Some((score.parse().ok()?, rank.parse().ok()?))
        })
        .collect()
}

/// A CodinGame-style Python bot that reads the whole protocol and answers WAIT: an opponent
/// slow enough to start (tens of milliseconds) that a bot writing without reading is ahead by
/// thousands of lines at its second turn, whatever the machine's load.
fn python_waiter() -> String {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/bots/wait.py");
    format!("python3 {}", path.display())
}

#[test]
fn every_kind_of_broken_bot_is_a_fault_with_a_clear_reason() {
    let waiter = python_waiter();
    let cases: [(&str, &str); 8] = [
        ("exit 3", "crash: the bot's program ended (exit status 3)"),
        (
            "kill -SEGV $$",
            "crash: the bot's program ended (killed by signal 11)",
        ),
        (
            "exec sleep 1000",
            "timeout: no complete answer within 1000 ms",
        ),
        (
            "yes WAIT",
            "too much output: more than 2000 lines written without reading its input",
        ),
        (
            "head -c 5000000 /dev/zero | tr '\\0' x",
            "too much output: a line longer than 65536 bytes",
        ),
        (
            "printf '\\377\\376\\001garbage \\000 9999999999999\\n'; cat",
            "malformed output: ",
        ),
        (
            "yes 'a debug line' >&2",
            "too much output: more than 1 MiB of debug log written without reading its input",
        ),
        (
            "while read l; do head -c 200000 /dev/zero | tr '\\0' y; echo; done",
            "too much output: a line longer than 65536 bytes",
        ),
    ];
    for (bot, reason) in cases {
        let started = Instant::now();
        // Against the built-in expander, a match can end within milliseconds, before a bot
        // that writes without reading is 2000 lines ahead; against a process it cannot.
        let opponent = if bot == "yes WAIT" {
            waiter.as_str()
        } else {
            "builtin:expander"
        };
        let out = play("ice-and-fire", &[bot, opponent], &[]);
        let faults = faults_of(&out, 1);
        assert!(
            faults
                .first()
                .is_some_and(|(_, what)| what.starts_with(reason)),
            "{bot}: expected a fault `{reason}`, got:\n{out}"
        );
        assert!(
            faults_of(&out, 2).is_empty(),
            "{bot}: the other bot played on:\n{out}"
        );
        assert_eq!(
            results(&out),
            vec![(-1, 2), (results(&out)[1].0, 1)],
            "{bot}: the broken bot loses, the other wins:\n{out}"
        );
        assert!(
            started.elapsed() < Duration::from_secs(20),
            "{bot}: took {:?}",
            started.elapsed()
        );
    }
}

#[test]
fn a_bot_that_never_reads_its_input_cannot_block_the_match() {
    // microRTS sends about 3 KB a turn: a bot that answers without ever reading fills its input
    // pipe within a few dozen turns; the match must still be played to its end.
    let started = Instant::now();
    // Relaxed budgets: on a loaded machine its next WAIT may come later than 50 ms.
    let out = play(
        "micro-rts",
        &["while :; do echo WAIT; sleep 0.005; done", "builtin:wait"],
        &["--relaxed"],
    );
    // Both wait for 200 turns: a draw, without faults.
    assert_eq!(results(&out), vec![(1, 1), (1, 1)], "{out}");
    assert!(faults_of(&out, 1).is_empty(), "{out}");
    assert!(started.elapsed() < Duration::from_secs(45));
}

/// Pids written one per line by the bots' children.
fn pids_in(path: &PathBuf) -> Vec<u32> {
    std::fs::read_to_string(path)
        .unwrap_or_default()
        .lines()
        .filter_map(|l| l.trim().parse().ok())
        .collect()
}

#[test]
fn nothing_a_bot_started_outlives_its_match() {
    // Each bot starts children that would sleep for 1000 s, then plays well, times out, crashes
    // or floods.
    let pids = temp("hostile", "pids");
    let _ = std::fs::remove_file(&pids);
    let p = pids.display().to_string();
    // A child, a child in a session of its own, and an orphan (its parent, a subshell, exits at
    // once) that stays in the bot's process group.
    let spawn = format!(
        "sleep 1000 & echo $! >> {p}; setsid sleep 1000 & echo $! >> {p}; \
         (sleep 1000 & echo $! >> {p}); "
    );
    let bots = [
        format!("{spawn} while read l; do echo WAIT; done"),
        format!("{spawn} exec sleep 1000"),
        format!("{spawn} read l; exit 4"),
        format!("{spawn} yes WAIT"),
    ];
    for bot in &bots {
        let out = play("ice-and-fire", &[bot, "builtin:expander"], &[]);
        assert_eq!(results(&out).len(), 2, "{out}");
    }
    let started = pids_in(&pids);
    assert_eq!(started.len(), 3 * bots.len(), "every child wrote its pid");
    // botplay has exited: every child must be gone (init reaps the killed ones soon after).
    let deadline = Instant::now() + Duration::from_secs(5);
    let mut left: Vec<u32> = started.clone();
    while !left.is_empty() && Instant::now() < deadline {
        left.retain(|&pid| alive(pid));
        std::thread::sleep(Duration::from_millis(50));
    }
    for pid in &left {
        let _ = Command::new("kill").args(["-9", &pid.to_string()]).status();
    }
    assert!(left.is_empty(), "processes left behind: {left:?}");
}

#[test]
fn ctrl_c_stops_the_bots_too() {
    let pids = temp("hostile", "ctrl-c-pids");
    let _ = std::fs::remove_file(&pids);
    let p = pids.display().to_string();
    let bot = format!("sleep 1000 & echo $! >> {p}; while read l; do echo WAIT; done");
    let mut child = Command::new(env!("CARGO_BIN_EXE_botplay"))
        .args(["play", "--game", "ice-and-fire", "--relaxed", "--bot", &bot])
        .args(["--bot", "exec sleep 1000"])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("botplay runs");
    let deadline = Instant::now() + Duration::from_secs(10);
    while pids_in(&pids).is_empty() && Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(20));
    }
    let sleeper = pids_in(&pids);
    assert_eq!(sleeper.len(), 1, "the bot started its child");
    let _ = Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status();
    let status = child.wait().expect("botplay ends");
    assert_eq!(status.code(), Some(130));
    let deadline = Instant::now() + Duration::from_secs(5);
    while alive(sleeper[0]) && Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(50));
    }
    let left = alive(sleeper[0]);
    if left {
        let _ = Command::new("kill")
            .args(["-9", &sleeper[0].to_string()])
            .status();
    }
    assert!(!left, "the bot's child outlived botplay's Ctrl-C");
}
