//! Stopping a bot's processes for good, so that nothing a bot started outlives its match.
//!
//! Every local bot is started in a process group of its own (led by the `sh -c` that runs its
//! command line), so that stopping it reaches what it started: `sleep 1000 &` in a bot's command
//! line, a shell script's pipeline, a program's child processes. Each bot also gets a token in
//! its environment ([`TOKEN_VAR`]), which everything it starts inherits. Stopping a bot freezes
//! its group, then kills the group, the leader's descendants (including any that moved to a
//! group or session of their own, e.g. with `setsid`) and every process that carries its token
//! (an orphan in a session of its own, a double-forked daemon), until none is left.
//!
//! Only a process that leaves the group, is no longer a descendant and clears its environment
//! escapes: the CLI is not a sandbox (see SECURITY.md).

use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Mutex, MutexGuard};

use nix::sys::signal::{kill, killpg, Signal};
use nix::unistd::Pid;

/// The environment variable that marks every process a bot started.
pub const TOKEN_VAR: &str = "BOTPLAY_BOT";

/// The bots that run now: the leader of each one's process group, and its token.
static LIVE: Mutex<Vec<(u32, String)>> = Mutex::new(Vec::new());

fn live() -> MutexGuard<'static, Vec<(u32, String)>> {
    LIVE.lock().unwrap_or_else(|e| e.into_inner())
}

/// A new token for a bot's environment: this botplay's pid and a counter.
pub fn new_token() -> String {
    static NEXT: AtomicU64 = AtomicU64::new(1);
    format!(
        "{}.{}",
        std::process::id(),
        NEXT.fetch_add(1, Ordering::Relaxed)
    )
}

/// A bot was started as the leader of process group `pid`, with `token` in its environment.
pub fn started(pid: u32, token: &str) {
    live().push((pid, token.to_string()));
}

/// Kills the process group led by `pid`, every descendant of `pid` and every process with
/// `token` in its environment. The caller still waits for `pid` itself (its own child).
pub fn kill_group(pid: u32, token: &str) {
    live().retain(|(p, _)| *p != pid);
    let Ok(raw) = i32::try_from(pid) else {
        return;
    };
    let leader = Pid::from_raw(raw);
    // Frozen, the group cannot start more processes while the others are looked for.
    let _ = killpg(leader, Signal::SIGSTOP);
    let marker = format!("{TOKEN_VAR}={token}");
    // A process found may have started another meanwhile: look again until none is left.
    for _ in 0..8 {
        let found = find(pid, &marker);
        let _ = killpg(leader, Signal::SIGKILL);
        if found.is_empty() {
            return;
        }
        for p in found {
            if let Ok(raw) = i32::try_from(p) {
                let _ = kill(Pid::from_raw(raw), Signal::SIGKILL);
            }
        }
    }
}

/// Set by [`kill_all`]: Ctrl-C is stopping this botplay.
static STOPPING: AtomicBool = AtomicBool::new(false);

/// Kills every bot still running (Ctrl-C during `botplay play`).
pub fn kill_all() {
    STOPPING.store(true, Ordering::SeqCst);
    let bots = live().clone();
    for (pid, token) in bots {
        kill_group(pid, &token);
    }
}

/// Whether Ctrl-C is stopping this botplay ([`kill_all`] was called): a match whose bots it
/// killed has no result, and the thread that called it ends the process.
pub fn stopping() -> bool {
    STOPPING.load(Ordering::SeqCst)
}

/// The living descendants of `root` and the living processes whose environment holds `marker`
/// (`NAME=VALUE`), from `/proc` (none where there is no `/proc`).
fn find(root: u32, marker: &str) -> Vec<u32> {
    let Ok(dir) = std::fs::read_dir("/proc") else {
        return Vec::new();
    };
    let mut children: HashMap<u32, Vec<u32>> = HashMap::new();
    let mut found = Vec::new();
    for entry in dir.flatten() {
        let Some(pid) = entry
            .file_name()
            .to_str()
            .and_then(|n| n.parse::<u32>().ok())
        else {
            continue;
        };
        let Ok(stat) = std::fs::read_to_string(entry.path().join("stat")) else {
            continue;
        };
        if state_in_stat(&stat).is_some_and(|s| s == "Z" || s == "X") {
            continue;
        }
        if let Some(ppid) = parent_in_stat(&stat) {
            children.entry(ppid).or_default().push(pid);
        }
        if pid != root && has_marker(&entry.path().join("environ"), marker) {
            found.push(pid);
        }
    }
    let mut todo = vec![root];
    while let Some(p) = todo.pop() {
        for &c in children.get(&p).map(Vec::as_slice).unwrap_or(&[]) {
            if !found.contains(&c) {
                found.push(c);
            }
            todo.push(c);
        }
    }
    found
}

/// Whether a `/proc/PID/environ` file (NUL-separated) holds `marker` exactly.
fn has_marker(environ: &std::path::Path, marker: &str) -> bool {
    std::fs::read(environ)
        .map(|env| env.split(|&b| b == 0).any(|var| var == marker.as_bytes()))
        .unwrap_or(false)
}

/// The parent pid in a `/proc/PID/stat` line: `pid (comm) state ppid ...`, where the command
/// name may itself hold spaces and parentheses.
fn parent_in_stat(stat: &str) -> Option<u32> {
    let (_, rest) = stat.rsplit_once(')')?;
    rest.split_whitespace().nth(1)?.parse().ok()
}

/// The process group in a `/proc/PID/stat` line (after the state and the parent).
fn group_in_stat(stat: &str) -> Option<u32> {
    let (_, rest) = stat.rsplit_once(')')?;
    rest.split_whitespace().nth(2)?.parse().ok()
}

/// What a bot's processes were doing when its turn's budget ran out, read from `/proc`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Doing {
    /// One of them runs (on a CPU, or ready to).
    Computing,
    /// None runs, and one sleeps in a read of a pipe or a terminal: waiting for input.
    Reading,
    /// None runs and none reads (asleep otherwise), or `/proc` cannot tell.
    Unknown,
}

/// What the process group led by `pid` (a bot's) is doing now.
pub fn doing(pid: u32) -> Doing {
    let Ok(dir) = std::fs::read_dir("/proc") else {
        return Doing::Unknown;
    };
    let mut doing = Doing::Unknown;
    for entry in dir.flatten() {
        let Ok(stat) = std::fs::read_to_string(entry.path().join("stat")) else {
            continue;
        };
        if group_in_stat(&stat) != Some(pid) {
            continue;
        }
        match state_in_stat(&stat) {
            Some("R") => return Doing::Computing,
            Some("S") => {
                // The kernel function it sleeps in: a pipe's or a terminal's read.
                let wchan = std::fs::read_to_string(entry.path().join("wchan")).unwrap_or_default();
                if wchan.contains("pipe_read") || wchan.contains("tty_read") {
                    doing = Doing::Reading;
                }
            }
            _ => {}
        }
    }
    doing
}

/// Sends SIGINT to the process group led by `pid` (a bot's): Python stops where it is and
/// writes its traceback. Whether it was sent.
pub fn interrupt_group(pid: u32) -> bool {
    i32::try_from(pid).is_ok_and(|raw| killpg(Pid::from_raw(raw), Signal::SIGINT).is_ok())
}

/// The state letter in a `/proc/PID/stat` line (`Z` for a zombie).
fn state_in_stat(stat: &str) -> Option<&str> {
    stat.rsplit_once(')')?.1.split_whitespace().next()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn what_a_group_does_is_read_from_proc() {
        use std::os::unix::process::CommandExt;
        use std::process::{Command, Stdio};
        let started = |code: &str| {
            Command::new("python3")
                .args(["-c", code])
                .stdin(Stdio::piped())
                .process_group(0)
                .spawn()
                .expect("python3")
        };
        let settle = || std::thread::sleep(std::time::Duration::from_millis(300));
        let mut looping = started("while True: pass");
        let mut reading = started("input()");
        settle();
        assert_eq!(doing(looping.id()), Doing::Computing);
        assert_eq!(doing(reading.id()), Doing::Reading);
        assert!(interrupt_group(looping.id()));
        let status = looping.wait().expect("it ends");
        assert!(!status.success(), "interrupted: {status}");
        let _ = reading.kill();
        let _ = reading.wait();
        assert_eq!(doing(reading.id()), Doing::Unknown, "gone");
    }

    #[test]
    fn stat_lines_with_odd_command_names_are_read() {
        assert_eq!(group_in_stat("12 (a) b (c) R 99 40 12 0"), Some(40));
        assert_eq!(parent_in_stat("12 (sh) S 7 12 12 0"), Some(7));
        assert_eq!(parent_in_stat("12 (a) b (c) R 99 12 12 0"), Some(99));
        assert_eq!(parent_in_stat("garbage"), None);
        assert_eq!(state_in_stat("12 (a) b (c) Z 99 12 12 0"), Some("Z"));
    }

    #[test]
    fn descendants_and_marked_processes_are_found_through_proc() {
        let mut child = std::process::Command::new("sh")
            .args([
                "-c",
                "sleep 30 & (exec env BOTPLAY_TEST_MARK=yes sleep 31) & wait",
            ])
            .spawn()
            .expect("sh runs");
        let pid = child.id();
        let deadline = std::time::Instant::now() + std::time::Duration::from_secs(10);
        let mut found = Vec::new();
        while found.len() < 2 && std::time::Instant::now() < deadline {
            found = find(pid, "BOTPLAY_TEST_MARK=yes");
            std::thread::sleep(std::time::Duration::from_millis(20));
        }
        // Both sleeps are descendants; the marked one is found twice over but listed once.
        assert_eq!(found.len(), 2, "the sleeps under sh: {found:?}");
        let _ = child.kill();
        for d in found {
            let _ = kill(Pid::from_raw(d as i32), Signal::SIGKILL);
        }
        let _ = child.wait();
    }
}
