//! What a bot leaves behind when it goes wrong: a crashed bot's stderr is always in the replay,
//! and a program that buffers its output is told so, or runs unchanged on a pseudo-terminal.

use crate::common::{
    assert_contains, botplay, fixture, play_match, stderr, stdout, temp, words_then,
};

use std::process::{Command, Output};

#[test]
fn a_crashed_bots_stderr_is_in_every_replay() {
    // The reproduction of issue 24: before, 10-35% of these replays lacked BOOM (the crash was
    // recorded when stdout closed, and stderr arriving after it was dropped).
    const RUNS: usize = 100;
    let missing = std::sync::atomic::AtomicUsize::new(0);
    let next = std::sync::atomic::AtomicUsize::new(0);
    std::thread::scope(|scope| {
        for _ in 0..4 {
            scope.spawn(|| loop {
                let i = next.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
                if i >= RUNS {
                    return;
                }
                let replay = temp("last-words", &format!("boom-{i}.json"));
                let path = replay.display().to_string();
                let seed = (i + 1).to_string();
                let o = botplay(&words_then(
                    "play --game soak-overflow --seed",
                    &[
                        &seed,
                        "--bot",
                        "echo BOOM >&2; exit 1",
                        "--bot",
                        "builtin:soaker",
                        "--replay",
                        &path,
                    ],
                ));
                assert!(o.status.success(), "{}", stderr(&o));
                assert_contains(&stdout(&o), "fault seat 1 turn 1 crash");
                let text = std::fs::read_to_string(&replay).expect("replay");
                if !text.contains("BOOM") {
                    missing.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
                }
            });
        }
    });
    assert_eq!(
        missing.into_inner(),
        0,
        "replays without BOOM out of {RUNS}"
    );
}

/// `unflushed.c` linked statically: `stdbuf` cannot reach its stdio.
fn static_unflushed() -> String {
    let exe = temp("last-words", "unflushed-static");
    let cc = Command::new("cc")
        .args([&fixture("unflushed.c"), "-O1", "-static", "-o"])
        .arg(&exe)
        .status()
        .expect("a C compiler");
    assert!(cc.success(), "cc -static (Debian: libc6-dev has libc.a)");
    exe.display().to_string()
}

fn ice_and_fire(bots: [&str; 2], extra: &[&str]) -> Output {
    play_match("ice-and-fire", "3", &bots, extra)
}

#[test]
fn a_static_program_that_never_flushes_is_told_why_and_runs_on_a_pty() {
    let exe = static_unflushed();
    let waiter = format!("python3 {}", fixture("wait.py"));

    // On a pipe it answers nothing: a timeout in turn 1, and a hint of why.
    let replay = temp("last-words", "unflushed.json");
    let path = replay.display().to_string();
    let o = ice_and_fire([&exe, &waiter], &["--replay", &path]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_contains(&stdout(&o), "fault seat 1 turn 1 timeout");
    assert_contains(
        &stderr(&o),
        "seat 1: no output at all in the first turn: the program may be buffering its output",
    );
    assert_contains(&stderr(&o), "--bot-pty");
    let text = std::fs::read_to_string(&replay).expect("replay");
    assert_contains(&text, "may be buffering its output");
    // A bot that answers and then is slow is not told it buffers.
    assert!(!stderr(&o).contains("seat 2:"), "{}", stderr(&o));

    // On a pseudo-terminal, unchanged, it plays the whole match: per bot or for all (relaxed:
    // the Python waiter may miss a 50 ms budget while the other tests load the machine).
    let pty = format!("pty:{exe}");
    for (bots, extra) in [
        ([pty.as_str(), waiter.as_str()], vec!["--relaxed"]),
        (
            [exe.as_str(), waiter.as_str()],
            vec!["--bot-pty", "--relaxed"],
        ),
    ] {
        let o = ice_and_fire(bots, &extra);
        assert!(o.status.success(), "{}", stderr(&o));
        let out = stdout(&o);
        assert!(!out.contains("fault"), "{bots:?} {extra:?}:\n{out}");
        assert_eq!(
            out.lines().filter(|l| l.starts_with("seat ")).count(),
            2,
            "{out}"
        );
        assert!(!stderr(&o).contains("buffering"), "{}", stderr(&o));
    }
}

#[test]
fn a_program_on_a_pty_still_has_its_stderr_and_its_crash() {
    let replay = temp("last-words", "pty-crash.json");
    let path = replay.display().to_string();
    let o = ice_and_fire(
        ["pty:echo LAST >&2; exit 4", "builtin:wait"],
        &["--replay", &path],
    );
    assert!(o.status.success(), "{}", stderr(&o));
    assert_contains(
        &stdout(&o),
        "fault seat 1 turn 1 crash: the bot's program ended (exit status 4)",
    );
    let text = std::fs::read_to_string(&replay).expect("replay");
    assert_contains(&text, "LAST");
}

/// A Python bot that loops in its first turn: interrupted at its deadline, its timeout names the
/// line it was running and its traceback is the turn's debug log; one that reads more lines
/// than the turn has is told so.
#[test]
fn a_timeout_says_what_the_program_was_doing() {
    let bot = |name: &str, code: &str| {
        let path = temp("last-words", name);
        std::fs::write(&path, code).expect("a bot file");
        format!("python3 {}", path.display())
    };
    let looping = bot(
        "loop.py",
        "spots = int(input())\nn = 0\nwhile True:\n    n += 1\n",
    );
    let replay = temp("last-words", "loop.json");
    let path = replay.display().to_string();
    let o = ice_and_fire([&looping, "builtin:wait"], &["--replay", &path]);
    assert!(o.status.success(), "{}", stderr(&o));
    // Stopped in its loop: in `while True:` (line 3) or its body (line 4).
    let said = |line: u32| {
        format!(
            "fault seat 1 turn 1 timeout: no complete answer within 1000 ms: the bot was still \
             computing at the deadline, in line {line} (an endless loop, or too slow for its \
             budget?)"
        )
    };
    assert!(
        stdout(&o).contains(&said(3)) || stdout(&o).contains(&said(4)),
        "{}",
        stdout(&o)
    );
    let text = std::fs::read_to_string(&replay).expect("replay");
    assert_contains(&text, "KeyboardInterrupt");
    assert!(!stderr(&o).contains("buffering"), "{}", stderr(&o));

    // Relaxed budgets: on a loaded machine Python may still be starting 1 s in (computing).
    let greedy = bot("greedy.py", "while True:\n    input()\n");
    let o = ice_and_fire([&greedy, "builtin:wait"], &["--relaxed"]);
    assert_contains(
        &stdout(&o),
        "fault seat 1 turn 1 timeout: no complete answer within 10000 ms: the bot was waiting \
         for more input",
    );
}
