//! The bots of a match as the driver sees them: local programs, WebAssembly bots (run
//! in-process, [`crate::wasm_bot`]), built-in bots, or clients of `botplay host` on a TCP
//! connection.
//!
//! Every bot is reached the same way: text is delivered to it, and what it writes arrives in
//! the match's [`Inbox`], where the driver takes it when the referee wants it.

use std::io::Write;
use std::net::{Shutdown, TcpStream};
use std::os::unix::process::{CommandExt, ExitStatusExt};
use std::path::Path;
use std::process::{Child, ChildStdin, Command, ExitStatus, Stdio};
use std::sync::atomic::Ordering;
use std::sync::Arc;
use std::thread;
use std::time::{Duration, Instant};

use engine::referee::{MAX_LINE_BYTES, MAX_STDERR_BYTES, STOPPED};

use crate::bot_input::BotInput;
use crate::inbox::{read_lines, Inbox};
use crate::procs;
use crate::wasm_bot::{self, WasmBot};

/// The crash text of a `botplay host` client's turns once it is gone.
pub const GONE: &str = "the client disconnected";

/// A bot seated in the match.
pub enum SeatedBot {
    Program(Program),
    Wasm(WasmBot),
    Builtin(Builtin),
    Client(Client),
}

impl SeatedBot {
    /// Starts the bot of a spec: `builtin:NAME`, `pty:COMMAND`, a `.wasm` file (with
    /// arguments) or a command line (on a pseudo-terminal with `pty`, as `--bot-pty` asks).
    pub fn start(
        spec: &str,
        game: &str,
        seat: usize,
        seed: i64,
        inbox: Arc<Inbox>,
        pty: bool,
    ) -> Result<SeatedBot, String> {
        if let Some(name) = spec.strip_prefix("builtin:") {
            let bot = bots::builtin(game, name, bots::bot_seed(seed, seat)).ok_or_else(|| {
                let known: Vec<&str> = bots::builtins(game).map(|b| b.name).collect();
                format!(
                    "no built-in bot '{name}' for {game} (known: {})",
                    known.join(", ")
                )
            })?;
            return Ok(SeatedBot::Builtin(Builtin {
                bot,
                seat,
                inbox,
                turn: Instant::now(),
                used: Duration::ZERO,
            }));
        }
        if wasm_bot::parse_spec(spec).is_some() {
            return WasmBot::start(spec, seat, inbox).map(SeatedBot::Wasm);
        }
        match spec.strip_prefix("pty:") {
            Some(command) => Program::start(command, seat, inbox, true),
            None => Program::start(spec, seat, inbox, pty),
        }
        .map(SeatedBot::Program)
    }

    /// The seat's turn starts at `at`: a built-in bot's time counts from there.
    pub fn begin_turn(&mut self, at: Instant) {
        if let SeatedBot::Builtin(b) = self {
            b.turn = at;
            b.used = Duration::ZERO;
        }
    }

    /// Whether the bot is a local program run without a pseudo-terminal (whose output a C
    /// library may buffer).
    pub fn may_buffer(&self) -> bool {
        matches!(self, SeatedBot::Program(p) if !p.pty)
    }

    /// Delivers text (complete lines) to the bot.
    pub fn deliver(&mut self, text: &str) {
        match self {
            SeatedBot::Program(p) => p.deliver(text),
            SeatedBot::Wasm(w) => w.deliver(text),
            SeatedBot::Builtin(b) => b.deliver(text),
            SeatedBot::Client(c) => c.deliver(text),
        }
    }

    /// Stops the bot for good, with every process it started (a client: its connection).
    pub fn stop(&mut self) {
        match self {
            SeatedBot::Program(p) => p.stop(),
            SeatedBot::Wasm(w) => w.stop(),
            SeatedBot::Builtin(_) => {}
            SeatedBot::Client(c) => c.stop(),
        }
    }

    /// Why its later turns are crashes once it is stopped.
    pub fn out_reason(&self) -> &'static str {
        match self {
            SeatedBot::Client(_) => GONE,
            _ => STOPPED,
        }
    }

    /// What the bot is doing now: a local program's processes, read from `/proc`; of other
    /// bots nothing is told.
    pub fn doing(&self) -> procs::Doing {
        match self {
            SeatedBot::Program(p) if !p.stopped => procs::doing(p.child.id()),
            _ => procs::Doing::Unknown,
        }
    }

    /// Interrupts a local program where it is (SIGINT to its process group: Python writes its
    /// traceback and ends). Whether one was sent.
    pub fn interrupt(&mut self) -> bool {
        match self {
            SeatedBot::Program(p) if !p.stopped => procs::interrupt_group(p.child.id()),
            _ => false,
        }
    }

    /// Why the bot's output ended: its exit status if it has exited (waiting briefly for it).
    pub fn ended(&mut self) -> String {
        match self {
            SeatedBot::Program(p) => p.ended(),
            SeatedBot::Wasm(w) => w.ended(),
            SeatedBot::Builtin(_) => "the bot's program ended".into(),
            SeatedBot::Client(_) => GONE.into(),
        }
    }
}

/// A client of `botplay host` (Skyport's original clients): what it is sent is written to its
/// connection; its lines come through the inbox. It has no debug log.
pub struct Client {
    stream: Option<TcpStream>,
}

impl Client {
    /// Seats a connection: each line it sends (cut one byte over the referee's cap, which faults
    /// it as a flood: an endless line costs no memory) goes to the inbox until it closes.
    pub fn start(stream: TcpStream, seat: usize, inbox: Arc<Inbox>) -> Result<Client, String> {
        let reader = stream
            .try_clone()
            .map_err(|e| format!("cannot read from player {}: {e}", seat + 1))?;
        inbox.close_stderr(seat);
        thread::spawn(move || {
            read_lines(reader, MAX_LINE_BYTES + 1, |line, _| {
                inbox.push_line(seat, line)
            });
            inbox.close(seat);
        });
        Ok(Client {
            stream: Some(stream),
        })
    }

    fn deliver(&mut self, text: &str) {
        let Some(stream) = self.stream.as_mut().filter(|_| !text.is_empty()) else {
            return;
        };
        if stream
            .write_all(text.as_bytes())
            .and_then(|_| stream.flush())
            .is_err()
        {
            // The client went away; its reader reports the end.
            self.stream = None;
        }
    }

    /// Ends the connection: the client sees the end of the stream.
    fn stop(&mut self) {
        if let Some(stream) = self.stream.take() {
            let _ = stream.shutdown(Shutdown::Both);
        }
    }
}

/// A built-in bot, answering in-process.
///
/// Its time is the CPU time of the thread that computes its answers (the driver's), not the
/// wall clock: our own code, in-process, is never late because other processes or other
/// matches share the cores, so arenas of built-in bots give the same table under any load and
/// with any `--jobs`. Its lines are stamped at the turn's start plus the CPU time it used in
/// the turn so far. (Local programs keep the wall clock, as the originals.)
pub struct Builtin {
    bot: Box<dyn bots::Bot>,
    seat: usize,
    inbox: Arc<Inbox>,
    /// When the current turn started.
    turn: Instant,
    /// CPU time used in the current turn.
    used: Duration,
}

impl Builtin {
    fn deliver(&mut self, text: &str) {
        let before = thread_cpu_time();
        let lines = self.bot.read(text);
        match (before, thread_cpu_time()) {
            (Some(before), Some(after)) => {
                self.used += after.saturating_sub(before);
                let at = self.turn + self.used;
                for line in lines {
                    self.inbox.push_line_at(self.seat, line, at);
                }
            }
            // No thread CPU clock: the wall clock, as for programs.
            _ => {
                for line in lines {
                    self.inbox.push_line(self.seat, line);
                }
            }
        }
    }
}

/// The CPU time the calling thread has used, if the system has a per-thread CPU clock.
pub fn thread_cpu_time() -> Option<Duration> {
    use nix::time::{clock_gettime, ClockId};
    let t = clock_gettime(ClockId::CLOCK_THREAD_CPUTIME_ID).ok()?;
    Some(Duration::new(
        u64::try_from(t.tv_sec()).ok()?,
        u32::try_from(t.tv_nsec()).ok()?,
    ))
}

/// A local program speaking the protocol on stdin/stdout, leading a process group of its own.
pub struct Program {
    child: Child,
    /// The token in the environment of every process the bot starts.
    token: String,
    /// Input for the writer thread (which never blocks the driver).
    input: BotInput,
    stopped: bool,
    /// Its standard output is a pseudo-terminal.
    pty: bool,
}

/// Node preload that gives a CodinGame JavaScript bot its global `readline()` and `print()`.
const NODE_PRELOAD: &str = r#"
const fs = require('fs');
let pending = '';
const lines = [];
globalThis.readline = function () {
  const buf = Buffer.alloc(65536);
  while (lines.length === 0) {
    let n = 0;
    try { n = fs.readSync(0, buf, 0, buf.length, null); }
    catch (e) { if (e.code === 'EAGAIN') continue; if (e.code === 'EOF') n = 0; else throw e; }
    if (n === 0) { if (pending) { lines.push(pending); pending = ''; break; } return undefined; }
    pending += buf.toString('utf8', 0, n);
    const parts = pending.split('\n');
    pending = parts.pop();
    for (const p of parts) lines.push(p.replace(/\r$/, ''));
  }
  return lines.shift();
};
globalThis.print = (...a) => console.log(...a);
globalThis.printErr = (...a) => console.error(...a);
"#;

/// The Node preload's file, written once per process ([`script_file`]).
pub(crate) fn node_preload() -> Result<std::path::PathBuf, String> {
    static PRELOAD: std::sync::OnceLock<Result<std::path::PathBuf, String>> =
        std::sync::OnceLock::new();
    PRELOAD
        .get_or_init(|| script_file("node-preload", &[NODE_PRELOAD]))
        .clone()
}

/// A script of the CLI's own for Node (`parts` one after the other), written to the temporary
/// folder as `botplay-<name>-<hash>.js`. Its name carries a hash of its text and it is written
/// under a name of this process's own, then renamed: botplay processes running at once
/// (arenas, CI) never see it half-written, and each version of the text has its own file.
pub(crate) fn script_file(name: &str, parts: &[&str]) -> Result<std::path::PathBuf, String> {
    let text = parts.concat();
    // A stable name for the text (std's hashers are not stable across builds).
    let hash = engine::fnv1a(text.as_bytes());
    let dir = std::env::temp_dir();
    let path = dir.join(format!("botplay-{name}-{hash:016x}.js"));
    let partial = dir.join(format!(
        "botplay-{name}-{hash:016x}.{}.tmp",
        std::process::id()
    ));
    std::fs::write(&partial, text)
        .and_then(|()| std::fs::rename(&partial, &path))
        .map_err(|e| format!("cannot write {}: {e}", path.display()))?;
    Ok(path)
}

impl Program {
    fn start(spec: &str, seat: usize, inbox: Arc<Inbox>, pty: bool) -> Result<Program, String> {
        let mut command = Self::command(spec, pty)?;
        let token = procs::new_token();
        // On a pseudo-terminal, the C library of the program sees a terminal and flushes each
        // line: a program that never flushes answers at once, unchanged (static or not).
        let (stdout, pty_out) = if pty {
            let (master, slave) = open_pty()
                .map_err(|e| format!("cannot open a pseudo-terminal for bot '{spec}': {e}"))?;
            (Stdio::from(slave), Some(master))
        } else {
            (Stdio::piped(), None)
        };
        command
            .stdin(Stdio::piped())
            .stdout(stdout)
            .stderr(Stdio::piped())
            // Interpreters flush each line on a pipe, as on a terminal.
            .env("PYTHONUNBUFFERED", "1")
            // A group of its own and a token that its processes inherit: stopping the bot stops
            // everything it started.
            .process_group(0)
            .env(procs::TOKEN_VAR, &token);
        let spawned = command.spawn();
        // Our copy of the terminal's program side: the output ends when the program's copies
        // are closed.
        drop(command);
        let mut child = spawned.map_err(|e| match e.kind() {
            std::io::ErrorKind::NotFound
                if is_js_file(spec) || crate::typescript::is_file(spec) =>
            {
                format!(
                    "cannot start bot '{spec}': JavaScript and TypeScript bots run under Node.js, \
                     and `node` was not found (install Node.js 18 or later, or put it on PATH)"
                )
            }
            _ => format!("cannot start bot '{spec}': {e}"),
        })?;
        procs::started(child.id(), &token);
        let stdout: Box<dyn std::io::Read + Send> = match pty_out {
            Some(master) => Box::new(std::fs::File::from(master)),
            None => Box::new(child.stdout.take().ok_or("no stdout")?),
        };
        let stderr = child.stderr.take().ok_or("no stderr")?;
        let stdin = child.stdin.take().ok_or("no stdin")?;
        let out_inbox = Arc::clone(&inbox);
        // A line longer than the referee accepts is kept one byte over (the referee faults it
        // as a flood) and the rest dropped: an endless line costs no memory. (A terminal's
        // reading end reports EIO once the program's side is closed: the end of its output.)
        thread::spawn(move || {
            read_lines(stdout, MAX_LINE_BYTES + 1, |line, _dropped| {
                out_inbox.push_line(seat, line)
            });
            out_inbox.close(seat);
        });
        thread::spawn(move || {
            read_lines(stderr, MAX_STDERR_BYTES, |line, dropped| {
                inbox.push_stderr(seat, &format!("{line}\n"), dropped)
            });
            inbox.close_stderr(seat);
        });
        Ok(Program {
            child,
            token,
            input: spawn_writer(stdin),
            stopped: false,
            pty,
        })
    }

    /// The command for a spec. C and C++ programs that never flush stdout still work: `stdbuf`
    /// makes their stdio line-buffered on the pipe, as on a terminal (dynamically linked
    /// programs only; on a pseudo-terminal, `pty`, any program).
    fn command(spec: &str, pty: bool) -> Result<Command, String> {
        if spec.trim().is_empty() {
            return Err("an empty bot command".into());
        }
        if is_js_file(spec) {
            let preload = node_preload()?;
            let mut c = Command::new("node");
            c.arg("--require").arg(preload).arg(spec.trim());
            return Ok(c);
        }
        if crate::typescript::is_file(spec) {
            return crate::typescript::command(spec);
        }
        let mut c = if !pty && has_stdbuf() {
            let mut c = Command::new("stdbuf");
            c.args(["-oL", "-eL", "sh", "-c"]);
            c
        } else {
            let mut c = Command::new("sh");
            c.arg("-c");
            c
        };
        c.arg(spec);
        // A command that runs Node itself (`node bot.js`, `cd bots && node bot.js`) gets the
        // same readline() and print() as a bare `.js` file: through NODE_OPTIONS, which every
        // Node process the command starts reads (and nothing else does).
        let preload = node_preload()?;
        let mut options = std::env::var("NODE_OPTIONS").unwrap_or_default();
        if !options.is_empty() {
            options.push(' ');
        }
        options.push_str(&format!("--require \"{}\"", preload.display()));
        c.env("NODE_OPTIONS", options);
        Ok(c)
    }

    /// Hands text to the writer thread; never blocks (a bot that does not read its input
    /// shows up as a timeout, not as a stuck driver).
    fn deliver(&mut self, text: &str) {
        self.input.deliver(text);
    }

    /// Kills the bot's whole process group (and descendants that left it) and reaps the bot.
    fn stop(&mut self) {
        self.input.close();
        if self.stopped {
            return;
        }
        self.stopped = true;
        procs::kill_group(self.child.id(), &self.token);
        let _ = self.child.kill();
        let _ = self.child.wait();
    }

    /// Why the bot's output ended, from its exit status (its program may close its output a
    /// moment before it exits).
    fn ended(&mut self) -> String {
        let deadline = Instant::now() + Duration::from_millis(200);
        loop {
            match self.child.try_wait() {
                Ok(Some(status)) => return describe_exit(status),
                Ok(None) if Instant::now() < deadline => thread::sleep(Duration::from_millis(2)),
                _ => return "the bot closed its standard output".into(),
            }
        }
    }
}

/// "the bot's program ended (exit status 3)", "(killed by signal 11)".
fn describe_exit(status: ExitStatus) -> String {
    match (status.code(), status.signal()) {
        (Some(code), _) => format!("the bot's program ended (exit status {code})"),
        (None, Some(signal)) => format!("the bot's program ended (killed by signal {signal})"),
        (None, None) => "the bot's program ended".into(),
    }
}

/// A thread that writes a bot's input as it comes; it ends when the bot stops reading for good
/// (its pipe breaks) or the sender is dropped.
fn spawn_writer(mut stdin: ChildStdin) -> BotInput {
    let (input, texts, written) = BotInput::new();
    thread::spawn(move || {
        for text in texts {
            let ok = stdin
                .write_all(text.as_bytes())
                .and_then(|()| stdin.flush())
                .is_ok();
            written.fetch_sub(text.len(), Ordering::Relaxed);
            if !ok {
                return;
            }
        }
    });
    input
}

impl Drop for Program {
    fn drop(&mut self) {
        self.stop();
    }
}

/// A pseudo-terminal in raw mode (no echo, no `\r` added to line ends): the reading end and
/// the program's end.
fn open_pty() -> nix::Result<(std::os::fd::OwnedFd, std::os::fd::OwnedFd)> {
    use nix::sys::termios::{cfmakeraw, tcgetattr, tcsetattr, SetArg};
    let pty = nix::pty::openpty(None, None)?;
    let mut modes = tcgetattr(&pty.slave)?;
    cfmakeraw(&mut modes);
    tcsetattr(&pty.slave, SetArg::TCSANOW, &modes)?;
    Ok((pty.master, pty.slave))
}

fn is_js_file(spec: &str) -> bool {
    let spec = spec.trim();
    spec.ends_with(".js") && !spec.contains(char::is_whitespace) && Path::new(spec).is_file()
}

fn has_stdbuf() -> bool {
    Command::new("stdbuf")
        .arg("--version")
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_threads_cpu_time_counts_work_not_waiting() {
        let start = thread_cpu_time().expect("a thread CPU clock");
        thread::sleep(Duration::from_millis(60));
        let slept = thread_cpu_time().expect("clock") - start;
        assert!(slept < Duration::from_millis(20), "sleeping: {slept:?}");
        let wall = Instant::now();
        let mut x = 0u64;
        while wall.elapsed() < Duration::from_millis(60) {
            x = std::hint::black_box(x.wrapping_mul(31).wrapping_add(7));
        }
        let worked = thread_cpu_time().expect("clock") - start - slept;
        // At most the wall time; at least some of it (the machine may be busy).
        assert!(
            worked <= wall.elapsed() + Duration::from_millis(5)
                && worked > Duration::from_millis(5),
            "working: {worked:?}"
        );
    }
}
