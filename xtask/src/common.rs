//! What the subcommands share: the repository's paths, the `PATH` tools run with, starting
//! commands (within a time limit where one is set), and failures that print as a clear message
//! (never a panic).

use std::cell::RefCell;
use std::collections::{BTreeMap, BTreeSet};
use std::ffi::{OsStr, OsString};
use std::fmt::Write as _;
use std::io::{ErrorKind, Read};
use std::os::unix::process::CommandExt as _;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, ExitStatus, Output, Stdio};
use std::sync::mpsc::{self, Receiver};
use std::sync::Mutex;
use std::time::{Duration, Instant};

use nix::sys::signal::{kill, killpg, Signal};
use nix::unistd::Pid;

/// Something that went wrong: what failed, and what to try.
#[derive(Debug)]
pub struct Failure {
    pub what: String,
    pub hint: String,
}

impl Failure {
    pub fn new(what: impl Into<String>, hint: impl Into<String>) -> Self {
        Failure {
            what: what.into(),
            hint: hint.into(),
        }
    }

    pub fn print(&self) {
        eprintln!("\nerror: {}", self.what);
        if !self.hint.is_empty() {
            eprintln!("  try: {}", self.hint.replace('\n', "\n       "));
        }
    }
}

pub type Result<T = ()> = std::result::Result<T, Failure>;

/// A bug in xtask itself still ends with a short message, not a backtrace.
pub fn install_panic_hook() {
    std::panic::set_hook(Box::new(|info| {
        eprintln!("\nerror: cargo xtask stopped on an internal error: {info}");
        eprintln!("  try: run the failing command by hand; please report this xtask bug");
    }));
}

/// The checkout and the environment the tools run in.
pub struct Repo {
    pub root: PathBuf,
    /// `node_modules/.bin`, `~/.cargo/bin` (or `$CARGO_HOME/bin`, where `cargo install` puts
    /// trunk and wasm-bindgen), then the caller's `PATH`.
    tool_path: OsString,
}

impl Repo {
    pub fn locate() -> Result<Repo> {
        let root = Path::new(env!("CARGO_MANIFEST_DIR"))
            .parent()
            .map(Path::to_path_buf)
            .ok_or_else(|| Failure::new("cannot find the repository root", ""))?;
        if !root.join("Cargo.toml").is_file() {
            return Err(Failure::new(
                format!("no Cargo.toml in {}", root.display()),
                "run cargo xtask from the botplay checkout",
            ));
        }
        let cargo_bin = cargo_home()?.join("bin");
        let tool_path = tool_path(&root, &cargo_bin)?;
        Ok(Repo { root, tool_path })
    }

    pub fn path(&self, relative: &str) -> PathBuf {
        self.root.join(relative)
    }

    /// The `target` directory (respects `CARGO_TARGET_DIR`).
    pub fn target_dir(&self) -> PathBuf {
        match std::env::var_os("CARGO_TARGET_DIR") {
            Some(dir) => self.root.join(dir),
            None => self.path("target"),
        }
    }

    /// The program `name` as found on the tools' `PATH`.
    pub fn find_program(&self, name: &str) -> Option<PathBuf> {
        std::env::split_paths(&self.tool_path)
            .map(|dir| dir.join(name))
            .find(|candidate| is_executable(candidate))
    }

    /// A command run in the repository root with the tools' `PATH`.
    pub fn command(&self, program: &str) -> Command {
        let resolved = self
            .find_program(program)
            .unwrap_or_else(|| PathBuf::from(program));
        let mut command = Command::new(resolved);
        command.current_dir(&self.root).env("PATH", &self.tool_path);
        command
    }

    /// `cargo` (the one running xtask, so the same toolchain).
    pub fn cargo(&self) -> Command {
        let mut command = match std::env::var_os("CARGO") {
            Some(cargo) => Command::new(cargo),
            None => self.command("cargo"),
        };
        command.current_dir(&self.root).env("PATH", &self.tool_path);
        command
    }
}

fn cargo_home() -> Result<PathBuf> {
    if let Some(home) = std::env::var_os("CARGO_HOME") {
        return Ok(PathBuf::from(home));
    }
    match std::env::var_os("HOME") {
        Some(home) => Ok(PathBuf::from(home).join(".cargo")),
        None => Err(Failure::new(
            "neither CARGO_HOME nor HOME is set",
            "set HOME (cargo installs tools into $HOME/.cargo/bin)",
        )),
    }
}

fn tool_path(root: &Path, cargo_bin: &Path) -> Result<OsString> {
    let inherited = std::env::var_os("PATH").unwrap_or_default();
    let dirs = [
        root.join("node_modules").join(".bin"),
        cargo_bin.to_path_buf(),
    ]
    .into_iter()
    .chain(std::env::split_paths(&inherited));
    std::env::join_paths(dirs).map_err(|e| Failure::new(format!("cannot build PATH: {e}"), ""))
}

fn is_executable(path: &Path) -> bool {
    use std::os::unix::fs::PermissionsExt;
    path.metadata()
        .map(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
        .unwrap_or(false)
}

/// `cargo install trunk`, shortened for messages: program name plus arguments.
pub fn describe(command: &Command) -> String {
    let program = Path::new(command.get_program())
        .file_name()
        .unwrap_or(command.get_program())
        .to_string_lossy()
        .into_owned();
    let mut text = program;
    for arg in command.get_args() {
        text.push(' ');
        text.push_str(&quote(arg));
    }
    text
}

fn quote(arg: &OsStr) -> String {
    let arg = arg.to_string_lossy();
    if !arg.is_empty()
        && arg
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "-_./=:,+@".contains(c))
    {
        arg.into_owned()
    } else {
        format!("'{}'", arg.replace('\'', r"'\''"))
    }
}

/// Runs `command` with inherited stdio, printing it first; a non-zero exit is a failure, and so
/// is running past the time limit in force ([`within`]).
pub fn run(command: Command, hint: &str) -> Result {
    let shown = describe(&command);
    println!("$ {shown}");
    let output = execute(command, &shown, Capture::Nothing)?;
    check_status(&shown, output.status, hint)
}

/// Runs `command` with its stdout and stderr captured (as `Command::output`), within the time
/// limit in force; `shown` names it in messages.
pub fn output(command: Command, shown: &str) -> Result<Output> {
    execute(command, shown, Capture::Both)
}

pub fn check_status(shown: &str, status: ExitStatus, hint: &str) -> Result {
    if status.success() {
        return Ok(());
    }
    let how = match status.code() {
        Some(code) => format!("exit status {code}"),
        None => "killed by a signal".to_string(),
    };
    Err(Failure::new(format!("`{shown}` failed ({how})"), hint))
}

pub fn spawn_failure(shown: &str, error: &std::io::Error) -> Failure {
    let program = shown.split(' ').next().unwrap_or(shown);
    if error.kind() == ErrorKind::NotFound {
        Failure::new(
            format!("`{program}` was not found (running `{shown}`)"),
            format!("install {program} or put it on PATH, then run the command again"),
        )
    } else {
        Failure::new(format!("could not start `{shown}`: {error}"), "")
    }
}

/// Runs `command` quietly and returns its trimmed stdout if it succeeded (within the time limit
/// in force).
pub fn stdout_of(mut command: Command) -> Option<String> {
    let shown = describe(&command);
    command.stdin(Stdio::null()).stderr(Stdio::null());
    let output = execute(command, &shown, Capture::Stdout).ok()?;
    if !output.status.success() {
        return None;
    }
    Some(String::from_utf8_lossy(&output.stdout).trim().to_string())
}

// --- time limits ------------------------------------------------------------------------------

/// The environment variable that multiplies every time limit of `cargo xtask test`: its steps'
/// and the browser checks' (`withinLimit` in `tests/e2e/browser.mjs`). `TIME_LIMIT_SCALE=3`
/// gives a slow machine three times as long.
pub const TIME_SCALE_VAR: &str = "TIME_LIMIT_SCALE";

/// `$TIME_LIMIT_SCALE`, or 1 when it is not set.
pub fn time_scale() -> Result<f64> {
    parse_time_scale(std::env::var(TIME_SCALE_VAR).ok().as_deref())
}

fn parse_time_scale(value: Option<&str>) -> Result<f64> {
    let text = value.map(str::trim).unwrap_or_default();
    if text.is_empty() {
        return Ok(1.0);
    }
    match text.parse::<f64>() {
        Ok(scale) if scale.is_finite() && scale > 0.0 => Ok(scale),
        _ => Err(Failure::new(
            format!("{TIME_SCALE_VAR}={text} is not a positive number"),
            format!("{TIME_SCALE_VAR}=2 doubles every time limit; unset it for the usual limits"),
        )),
    }
}

/// The time limit that the commands started now must keep ([`within`]): a command still
/// running at `deadline` is killed with every process it started, and fails naming `step`.
#[derive(Clone, Debug)]
pub struct Limit {
    /// The step, for the message: `browsers`.
    pub step: String,
    /// When every command of the step must have ended.
    pub deadline: Instant,
    /// The limit in words, for the message: `its limit of 20 min`.
    pub said: String,
    /// Whether each command runs in a process group of its own, killed as a group. The set-up's
    /// commands stay in xtask's group, so that `sudo` can still ask for a password.
    pub own_group: bool,
}

thread_local! {
    static LIMIT: RefCell<Option<Limit>> = const { RefCell::new(None) };
}

/// Runs `body` with every command started through this module ([`run`], [`output`],
/// [`stdout_of`]) bounded by `limit`.
pub fn within<T>(limit: Limit, body: impl FnOnce() -> T) -> T {
    struct Restore(Option<Limit>);
    impl Drop for Restore {
        fn drop(&mut self) {
            LIMIT.with(|current| *current.borrow_mut() = self.0.take());
        }
    }
    let _restore = Restore(LIMIT.with(|current| current.replace(Some(limit))));
    body()
}

fn current_limit() -> Option<Limit> {
    LIMIT.with(|current| current.borrow().clone())
}

/// Which of a command's outputs are kept (the others are as the command was set up).
#[derive(Clone, Copy, PartialEq, Eq)]
enum Capture {
    Nothing,
    Stdout,
    Both,
}

/// Starts `command` and waits for it, killing it with everything it started when it is still
/// running at the deadline of the limit in force.
fn execute(mut command: Command, shown: &str, capture: Capture) -> Result<Output> {
    let limit = current_limit();
    if let Some(limit) = &limit {
        if Instant::now() >= limit.deadline {
            return Err(past_limit(limit, shown, false));
        }
        if limit.own_group {
            command.process_group(0);
        }
    }
    if capture != Capture::Nothing {
        command.stdout(Stdio::piped());
    }
    if capture == Capture::Both {
        command.stderr(Stdio::piped());
    }
    let mut child = command.spawn().map_err(|e| spawn_failure(shown, &e))?;
    let stdout = read_in_background(child.stdout.take());
    let stderr = read_in_background(child.stderr.take());
    let Some(limit) = limit else {
        let status = child
            .wait()
            .map_err(|e| Failure::new(format!("could not wait for `{shown}`: {e}"), ""))?;
        let read = |pipe: Option<Receiver<Vec<u8>>>| pipe.and_then(|r| r.recv().ok());
        return Ok(Output {
            status,
            stdout: read(stdout).unwrap_or_default(),
            stderr: read(stderr).unwrap_or_default(),
        });
    };
    let pid = child.id();
    running().push((pid, limit.own_group));
    let waited = wait_until(&mut child, limit.deadline);
    // What it wrote, once every process holding its pipes has ended (by the deadline).
    let mut outputs = Vec::new();
    if let Ok(Some(_)) = waited {
        for pipe in [stdout, stderr] {
            let left = limit.deadline.saturating_duration_since(Instant::now());
            match pipe.map(|r| r.recv_timeout(left)) {
                None => outputs.push(Some(Vec::new())),
                Some(Ok(bytes)) => outputs.push(Some(bytes)),
                Some(Err(_)) => outputs.push(None),
            }
        }
    }
    let finished = match waited {
        Ok(Some(status)) if outputs.iter().all(Option::is_some) => Some(status),
        _ => None,
    };
    if finished.is_none() {
        kill_tree(pid, limit.own_group);
        let _ = child.wait();
    }
    running().retain(|(p, _)| *p != pid);
    match (waited, finished) {
        (Err(e), _) => Err(Failure::new(
            format!("could not wait for `{shown}`: {e}"),
            "",
        )),
        (Ok(_), None) => Err(past_limit(&limit, shown, true)),
        (Ok(_), Some(status)) => {
            let mut outputs = outputs.into_iter().map(Option::unwrap_or_default);
            Ok(Output {
                status,
                stdout: outputs.next().unwrap_or_default(),
                stderr: outputs.next().unwrap_or_default(),
            })
        }
    }
}

/// Reads `pipe` to its end on a thread of its own; the bytes come on the returned channel.
fn read_in_background(pipe: Option<impl Read + Send + 'static>) -> Option<Receiver<Vec<u8>>> {
    let mut pipe = pipe?;
    let (send, receive) = mpsc::channel();
    std::thread::spawn(move || {
        let mut bytes = Vec::new();
        let _ = pipe.read_to_end(&mut bytes);
        let _ = send.send(bytes);
    });
    Some(receive)
}

/// The child's exit status, or `None` when it is still running at `deadline`.
fn wait_until(child: &mut Child, deadline: Instant) -> std::io::Result<Option<ExitStatus>> {
    let mut pause = Duration::from_millis(2);
    loop {
        if let Some(status) = child.try_wait()? {
            return Ok(Some(status));
        }
        let now = Instant::now();
        if now >= deadline {
            return Ok(None);
        }
        std::thread::sleep(pause.min(deadline - now));
        pause = (pause * 2).min(Duration::from_millis(100));
    }
}

fn past_limit(limit: &Limit, shown: &str, started: bool) -> Failure {
    let what = if started {
        format!("`{shown}` was still running, so it was killed with every process it started")
    } else {
        format!("`{shown}` was not started")
    };
    Failure::new(
        format!("the step `{}` went past {}: {what}", limit.step, limit.said),
        format!(
            "a command that hangs: run it alone to see what it waits for; on a slow machine \
             {TIME_SCALE_VAR}=2 doubles every time limit"
        ),
    )
}

/// The commands running now under a time limit, each with whether it leads a process group of
/// its own: what an interrupt kills ([`stop_commands_on_interrupt`]).
static RUNNING: Mutex<Vec<(u32, bool)>> = Mutex::new(Vec::new());

fn running() -> std::sync::MutexGuard<'static, Vec<(u32, bool)>> {
    RUNNING.lock().unwrap_or_else(|e| e.into_inner())
}

/// From now on Ctrl-C (SIGINT), SIGTERM and SIGHUP kill the command running under a time limit
/// with everything it started, then end xtask: such a command has a process group of its own,
/// which the terminal's Ctrl-C does not reach. A handler (the `ctrlc` crate, which runs it on a
/// thread of its own), not a blocked signal mask: a mask would be inherited by every command
/// (std does not reset it), and a test that interrupts a program it started would then wait
/// forever for the program to hear it.
pub fn stop_commands_on_interrupt() {
    let _ = ctrlc::set_handler(|| {
        for (pid, own_group) in running().clone() {
            kill_tree(pid, own_group);
        }
        eprintln!("\ncargo xtask: stopped by a signal, with the commands it had started");
        std::process::exit(130);
    });
}

/// Kills the process `pid` (a child of xtask) and every process it started. Each is stopped
/// first, so that none starts another while the tree is read from `/proc`; then each is killed,
/// with the process groups they lead (Chromium, puppeteer's Firefox and WebKitWebDriver start
/// in groups of their own) and, with `own_group`, the group of `pid`: that reaches the
/// processes whose parent had already ended.
pub fn kill_tree(pid: u32, own_group: bool) {
    let Ok(raw) = i32::try_from(pid) else {
        return;
    };
    if own_group {
        let _ = killpg(Pid::from_raw(raw), Signal::SIGSTOP);
    }
    let mut found = BTreeSet::new();
    for _ in 0..50 {
        let tree = process_tree(raw);
        let new: Vec<i32> = tree
            .keys()
            .filter(|p| !found.contains(*p))
            .copied()
            .collect();
        if new.is_empty() {
            break;
        }
        for p in new {
            let _ = kill(Pid::from_raw(p), Signal::SIGSTOP);
            found.insert(p);
        }
    }
    let own = read_stat(std::process::id() as i32).map(|(_, group)| group);
    let tree = process_tree(raw);
    let groups: BTreeSet<i32> = found
        .iter()
        .filter_map(|p| tree.get(p).copied())
        .filter(|group| found.contains(group) && Some(*group) != own)
        .collect();
    for p in &found {
        let _ = kill(Pid::from_raw(*p), Signal::SIGKILL);
    }
    for group in groups {
        let _ = killpg(Pid::from_raw(group), Signal::SIGKILL);
    }
    if own_group {
        let _ = killpg(Pid::from_raw(raw), Signal::SIGKILL);
    }
}

/// `root` and every process under it, each with its process group, read from `/proc`.
fn process_tree(root: i32) -> BTreeMap<i32, i32> {
    let mut parents: BTreeMap<i32, Vec<i32>> = BTreeMap::new();
    let mut groups = BTreeMap::new();
    for entry in std::fs::read_dir("/proc").into_iter().flatten().flatten() {
        let Some(pid) = entry
            .file_name()
            .to_str()
            .and_then(|n| n.parse::<i32>().ok())
        else {
            continue;
        };
        if let Some((parent, group)) = read_stat(pid) {
            parents.entry(parent).or_default().push(pid);
            groups.insert(pid, group);
        }
    }
    let mut tree = BTreeMap::new();
    let mut next = vec![root];
    while let Some(pid) = next.pop() {
        let Some(group) = groups.get(&pid) else {
            continue;
        };
        if tree.insert(pid, *group).is_none() {
            next.extend(parents.get(&pid).into_iter().flatten());
        }
    }
    tree
}

/// The parent and the process group of `pid` (from `/proc/PID/stat`), unless it has ended or
/// is a zombie.
fn read_stat(pid: i32) -> Option<(i32, i32)> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    // After the command name, which may hold spaces and parentheses: state, parent, group.
    let mut fields = stat.get(stat.rfind(')')? + 1..)?.split_whitespace();
    if fields.next()? == "Z" {
        return None;
    }
    Some((fields.next()?.parse().ok()?, fields.next()?.parse().ok()?))
}

/// `0.4 s`, `12.3 s`, `6 min 32 s`.
pub fn format_duration(duration: Duration) -> String {
    let seconds = duration.as_secs_f64();
    if seconds < 60.0 {
        format!("{seconds:.1} s")
    } else {
        let whole = duration.as_secs();
        format!("{} min {:02} s", whole / 60, whole % 60)
    }
}

/// `1.5 KiB`, `158.2 KiB`, `1.20 MiB`, or bytes below 1 KiB.
pub fn format_size(bytes: u64) -> String {
    let mut text = String::new();
    let kib = bytes as f64 / 1024.0;
    if bytes < 1024 {
        let _ = write!(text, "{bytes} B");
    } else if kib < 1024.0 {
        let _ = write!(text, "{kib:.1} KiB");
    } else {
        let _ = write!(text, "{:.2} MiB", kib / 1024.0);
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn durations_read_well() {
        assert_eq!(format_duration(Duration::from_millis(400)), "0.4 s");
        assert_eq!(format_duration(Duration::from_secs(392)), "6 min 32 s");
    }

    #[test]
    fn sizes_read_well() {
        assert_eq!(format_size(512), "512 B");
        assert_eq!(format_size(1536), "1.5 KiB");
        assert_eq!(format_size(3 * 1024 * 1024), "3.00 MiB");
    }

    fn limited(seconds: f64) -> Limit {
        Limit {
            step: "demo".into(),
            deadline: Instant::now() + Duration::from_secs_f64(seconds),
            said: "its limit of 1 s".into(),
            own_group: true,
        }
    }

    fn command(program: &str, args: &[&str]) -> Command {
        let mut command = Command::new(program);
        command.args(args);
        command
    }

    /// Whether `pid` still runs (a zombie left for its new parent to reap has ended).
    fn alive(pid: i32) -> bool {
        read_stat(pid).is_some()
    }

    #[test]
    fn a_command_past_its_limit_fails_at_once_naming_it() {
        let started = Instant::now();
        let error = within(limited(1.0), || run(command("sleep", &["5"]), "")).unwrap_err();
        let took = started.elapsed();
        assert!(
            took >= Duration::from_millis(950) && took < Duration::from_secs(3),
            "{took:?}"
        );
        assert_eq!(
            error.what,
            "the step `demo` went past its limit of 1 s: `sleep 5` was still running, so it was \
             killed with every process it started"
        );
        assert!(error.hint.contains("TIME_LIMIT_SCALE=2"), "{}", error.hint);
    }

    #[test]
    fn what_a_command_started_is_killed_with_it() {
        let dir = std::env::temp_dir().join(format!("xtask-limit-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        // One child in the command's group, one in a session of its own, and one whose parent
        // had ended (only the group reaches it).
        let script = format!(
            "sleep 30 & echo $! > {0}/group; setsid sleep 30 & echo $! > {0}/session; \
             sh -c 'sleep 30 & echo $! > {0}/orphan'; sleep 30",
            dir.display()
        );
        let error = within(limited(1.0), || {
            output(command("sh", &["-c", &script]), "the script")
        })
        .unwrap_err();
        assert!(
            error.what.contains("`the script` was still running"),
            "{}",
            error.what
        );
        for name in ["group", "session", "orphan"] {
            let pid: i32 = std::fs::read_to_string(dir.join(name))
                .unwrap()
                .trim()
                .parse()
                .unwrap();
            let gone = (0..50).any(|_| {
                std::thread::sleep(Duration::from_millis(20));
                !alive(pid)
            });
            assert!(gone, "the {name} sleep ({pid}) still runs");
        }
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn a_command_within_its_limit_runs_as_before() {
        let out = within(limited(20.0), || {
            output(command("sh", &["-c", "echo out; echo err >&2"]), "sh")
        })
        .unwrap();
        assert!(out.status.success());
        assert_eq!(
            (&out.stdout[..], &out.stderr[..]),
            (&b"out\n"[..], &b"err\n"[..])
        );
        let failed = within(limited(20.0), || run(command("false", &[]), "")).unwrap_err();
        assert_eq!(failed.what, "`false` failed (exit status 1)");
        assert_eq!(
            within(limited(20.0), || stdout_of(command("echo", &[" hi "]))),
            Some("hi".to_string())
        );
        // Without a limit, as always.
        assert!(current_limit().is_none());
        assert!(run(command("true", &[]), "").is_ok());
    }

    #[test]
    fn nothing_starts_once_the_limit_is_past() {
        let error = within(limited(0.0), || run(command("true", &[]), "")).unwrap_err();
        assert!(
            error.what.ends_with("`true` was not started"),
            "{}",
            error.what
        );
    }

    #[test]
    fn the_time_scale_is_a_positive_number() {
        assert_eq!(parse_time_scale(None).unwrap(), 1.0);
        assert_eq!(parse_time_scale(Some("")).unwrap(), 1.0);
        assert_eq!(parse_time_scale(Some("2.5")).unwrap(), 2.5);
        for bad in ["0", "-1", "slow", "inf", "NaN"] {
            assert!(parse_time_scale(Some(bad)).is_err(), "{bad}");
        }
    }

    #[test]
    fn commands_are_shown_quoted() {
        let mut command = Command::new("/usr/bin/echo");
        command.args(["a b", "--x=1"]);
        assert_eq!(describe(&command), "echo 'a b' --x=1");
    }
}
