//! The bots of a match as the driver sees them: local programs or built-in bots.
//!
//! Every bot is reached the same way: text is delivered to it, and what it writes arrives in
//! the match's [`Inbox`], where the driver takes it when the referee wants it.

use std::io::{BufRead, BufReader, Read, Write};
use std::path::Path;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::Arc;
use std::thread;

use crate::inbox::Inbox;

/// A bot seated in the match.
pub enum Seat {
    Program(Program),
    Builtin(Builtin),
}

impl Seat {
    /// Starts the bot of a spec: `builtin:NAME` or a command line.
    pub fn start(
        spec: &str,
        game: &str,
        seat: usize,
        seed: i64,
        inbox: Arc<Inbox>,
    ) -> Result<Seat, String> {
        if let Some(name) = spec.strip_prefix("builtin:") {
            let bot = bots::builtin(game, name, bots::bot_seed(seed, seat)).ok_or_else(|| {
                let known: Vec<&str> = bots::builtins(game).map(|b| b.name).collect();
                format!(
                    "no built-in bot '{name}' for {game} (known: {})",
                    known.join(", ")
                )
            })?;
            return Ok(Seat::Builtin(Builtin { bot, seat, inbox }));
        }
        Program::start(spec, seat, inbox).map(Seat::Program)
    }

    /// Delivers text (complete lines) to the bot.
    pub fn deliver(&mut self, text: &str) {
        match self {
            Seat::Program(p) => p.deliver(text),
            Seat::Builtin(b) => b.deliver(text),
        }
    }

    /// Stops the bot for good.
    pub fn stop(&mut self) {
        if let Seat::Program(p) = self {
            p.stop();
        }
    }
}

/// A built-in bot, answering in-process.
pub struct Builtin {
    bot: Box<dyn bots::Bot>,
    seat: usize,
    inbox: Arc<Inbox>,
}

impl Builtin {
    fn deliver(&mut self, text: &str) {
        for line in self.bot.read(text) {
            self.inbox.push_line(self.seat, line);
        }
    }
}

/// A local program speaking the protocol on stdin/stdout.
pub struct Program {
    child: Child,
    stdin: Option<ChildStdin>,
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

impl Program {
    fn start(spec: &str, seat: usize, inbox: Arc<Inbox>) -> Result<Program, String> {
        let mut command = Self::command(spec)?;
        command
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            // Interpreters flush each line on a pipe, as on a terminal.
            .env("PYTHONUNBUFFERED", "1");
        let mut child = command
            .spawn()
            .map_err(|e| format!("cannot start bot '{spec}': {e}"))?;
        let stdout = child.stdout.take().ok_or("no stdout")?;
        let stderr = child.stderr.take().ok_or("no stderr")?;
        let out_inbox = Arc::clone(&inbox);
        thread::spawn(move || {
            read_lines(stdout, |line| out_inbox.push_line(seat, line));
            out_inbox.close(seat);
        });
        thread::spawn(move || {
            read_lines(stderr, |line| inbox.push_stderr(seat, &format!("{line}\n")))
        });
        Ok(Program {
            stdin: child.stdin.take(),
            child,
        })
    }

    /// The command for a spec. C and C++ programs that never flush stdout still work: `stdbuf`
    /// makes their stdio line-buffered on the pipe, as on a terminal.
    fn command(spec: &str) -> Result<Command, String> {
        if spec.trim().is_empty() {
            return Err("an empty bot command".into());
        }
        if is_js_file(spec) {
            let preload = std::env::temp_dir().join("botplay-node-preload.js");
            std::fs::write(&preload, NODE_PRELOAD)
                .map_err(|e| format!("cannot write the Node preload: {e}"))?;
            let mut c = Command::new("node");
            c.arg("--require").arg(preload).arg(spec.trim());
            return Ok(c);
        }
        let mut c = if has_stdbuf() {
            let mut c = Command::new("stdbuf");
            c.args(["-oL", "-eL", "sh", "-c"]);
            c
        } else {
            let mut c = Command::new("sh");
            c.arg("-c");
            c
        };
        c.arg(spec);
        Ok(c)
    }

    fn deliver(&mut self, text: &str) {
        if let Some(stdin) = self.stdin.as_mut() {
            // A bot that closed its input will show up as a crash or a timeout.
            if stdin
                .write_all(text.as_bytes())
                .and_then(|_| stdin.flush())
                .is_err()
            {
                self.stdin = None;
            }
        }
    }

    fn stop(&mut self) {
        self.stdin = None;
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Drop for Program {
    fn drop(&mut self) {
        self.stop();
    }
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

/// Hands each line of a pipe (without its line ending) to `take`, until the pipe closes.
fn read_lines(pipe: impl Read, mut take: impl FnMut(String)) {
    let mut reader = BufReader::new(pipe);
    let mut buf = Vec::new();
    loop {
        buf.clear();
        match reader.read_until(b'\n', &mut buf) {
            Ok(0) | Err(_) => return,
            Ok(_) => {
                while buf.last().is_some_and(|b| *b == b'\n' || *b == b'\r') {
                    buf.pop();
                }
                take(String::from_utf8_lossy(&buf).into_owned());
            }
        }
    }
}
