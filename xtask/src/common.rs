//! What the subcommands share: the repository's paths, the `PATH` tools run with, starting
//! commands, and failures that print as a clear message (never a panic).

use std::ffi::{OsStr, OsString};
use std::fmt::Write as _;
use std::io::ErrorKind;
use std::path::{Path, PathBuf};
use std::process::{Command, ExitStatus, Output, Stdio};
use std::time::Duration;

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

/// Runs `command` with inherited stdio, printing it first; a non-zero exit is a failure.
pub fn run(mut command: Command, hint: &str) -> Result {
    let shown = describe(&command);
    println!("$ {shown}");
    let status = command.status().map_err(|e| spawn_failure(&shown, &e))?;
    check_status(&shown, status, hint)
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

/// Runs `command` quietly and returns its trimmed stdout if it succeeded.
pub fn stdout_of(mut command: Command) -> Option<String> {
    let output: Output = command
        .stdin(Stdio::null())
        .stderr(Stdio::null())
        .output()
        .ok()?;
    if !output.status.success() {
        return None;
    }
    Some(String::from_utf8_lossy(&output.stdout).trim().to_string())
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

    #[test]
    fn commands_are_shown_quoted() {
        let mut command = Command::new("/usr/bin/echo");
        command.args(["a b", "--x=1"]);
        assert_eq!(describe(&command), "echo 'a b' --x=1");
    }
}
