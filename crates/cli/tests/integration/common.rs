//! What every CLI test shares: running the `botplay` binary within a time limit, reading what
//! it printed, the bots in `tests/bots`, and scratch files.

use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};
use std::time::{Duration, Instant};

/// How long one `botplay` run may take before the test fails naming it (a whole arena of slow
/// bots on a loaded machine takes a minute).
pub const LIMIT: Duration = Duration::from_secs(300);

/// Runs `botplay` with `args` to its end, within [`LIMIT`].
pub fn botplay(args: &[&str]) -> Output {
    botplay_within(args, LIMIT)
}

/// Starts `botplay` with `args`, its stdout and stderr piped to the test.
pub fn start_botplay<S: AsRef<std::ffi::OsStr>>(args: &[S]) -> Child {
    Command::new(env!("CARGO_BIN_EXE_botplay"))
        .args(args)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("botplay runs")
}

/// Runs `botplay` with `args` to its end; past `limit` it is killed and the test fails, naming
/// the command and what it printed. Its output is read as it comes (a full pipe would stop it).
pub fn botplay_within(args: &[&str], limit: Duration) -> Output {
    let mut child = start_botplay(args);
    let drain = |mut pipe: Box<dyn Read + Send>| {
        std::thread::spawn(move || {
            let mut bytes = Vec::new();
            let _ = pipe.read_to_end(&mut bytes);
            bytes
        })
    };
    let out = drain(Box::new(child.stdout.take().expect("stdout")));
    let err = drain(Box::new(child.stderr.take().expect("stderr")));
    let started = Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().expect("botplay can be waited for") {
            break Some(status);
        }
        if started.elapsed() > limit {
            let _ = child.kill();
            let _ = child.wait();
            break None;
        }
        std::thread::sleep(Duration::from_millis(10));
    };
    let (stdout, stderr) = (
        out.join().unwrap_or_default(),
        err.join().unwrap_or_default(),
    );
    let Some(status) = status else {
        panic!(
            "botplay {args:?} did not finish within {limit:?}:\n{}{}",
            String::from_utf8_lossy(&stdout),
            String::from_utf8_lossy(&stderr)
        );
    };
    Output {
        status,
        stdout,
        stderr,
    }
}

/// The words of a command line written out with single spaces (`"play --game skyport"`), for
/// the `botplay` arguments a test writes: none of them holds a space.
pub fn words(line: &str) -> Vec<&str> {
    line.split(' ').collect()
}

/// The [`words`] of `before`, then `arg` as it is (a path, or a bot whose command holds
/// spaces), then the words of `after`.
pub fn words_around<'a>(before: &'a str, arg: &'a str, after: &'a str) -> Vec<&'a str> {
    let mut all = words(before);
    all.push(arg);
    all.extend(words(after));
    all
}

/// The arguments of `botplay play` for a match of `game` on `seed` between `bots`, in seat
/// order; more flags may follow.
pub fn play_args<'a>(game: &'a str, seed: &'a str, bots: &[&'a str]) -> Vec<&'a str> {
    let mut args = vec!["play", "--game", game, "--seed", seed];
    for bot in bots {
        args.extend(["--bot", bot]);
    }
    args
}

/// Runs `botplay play` for a match of `game` on `seed` between `bots`, then the flags `extra`.
pub fn play_match(game: &str, seed: &str, bots: &[&str], extra: &[&str]) -> Output {
    let mut args = play_args(game, seed, bots);
    args.extend(extra);
    botplay(&args)
}

/// The [`words`] of `line`, then `rest` as they are (paths, and bots whose commands hold
/// spaces).
pub fn words_then<'a>(line: &'a str, rest: &[&'a str]) -> Vec<&'a str> {
    let mut all = words(line);
    all.extend(rest);
    all
}

/// `botplay`'s `seat N NAME score S rank R` lines, parsed.
pub fn seat_lines(out: &str) -> Vec<(usize, String, i64, usize)> {
    out.lines()
        .filter_map(|l| {
            let rest = l.strip_prefix("seat ")?;
            let (n, rest) = rest.split_once(' ')?;
            let (name, rest) = rest.rsplit_once(" score ")?;
            let (score, rank) = rest.split_once(" rank ")?;
            Some((
                n.parse().ok()?,
                name.to_string(),
                score.parse().ok()?,
                rank.parse().ok()?,
            ))
        })
        .collect()
}

/// Fails unless `text` holds `needle`, showing both.
#[track_caller]
pub fn assert_contains(text: &str, needle: &str) {
    assert!(text.contains(needle), "{needle:?} is not in:\n{text}");
}

pub fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

pub fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// The path of a bot in `crates/cli/tests/bots`.
pub fn fixture(name: &str) -> String {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/bots")
        .join(name)
        .display()
        .to_string()
}

/// This run's scratch directory for `area` (one test file's), made if missing.
fn scratch(area: &str) -> PathBuf {
    let dir = std::env::temp_dir()
        .join(format!("botplay-cli-tests-{}", std::process::id()))
        .join(area);
    std::fs::create_dir_all(&dir).expect("temp dir");
    dir
}

/// A scratch file `name` of `area`.
pub fn temp(area: &str, name: &str) -> PathBuf {
    scratch(area).join(name)
}

/// A new, empty scratch directory `name` of `area`.
pub fn folder(area: &str, name: &str) -> PathBuf {
    let dir = scratch(area).join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("temp dir");
    dir
}

/// Whether process `pid` runs (a zombie, which has ended, does not).
pub fn alive(pid: u32) -> bool {
    std::fs::read_to_string(format!("/proc/{pid}/stat")).is_ok_and(|stat| {
        let state = stat.rsplit_once(')').map(|(_, rest)| rest.trim_start());
        !matches!(state.and_then(|s| s.chars().next()), Some('Z' | 'X') | None)
    })
}

/// The text of a bot in `crates/cli/tests/bots`.
pub fn fixture_text(name: &str) -> String {
    let path = fixture(name);
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
}
