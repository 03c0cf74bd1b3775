//! WebAssembly bots (`--bot bot.wasm`, a `wasm32-wasip1` program) run in-process under
//! wasmtime, each on a thread of its own that talks to the driver as a local program's pipes
//! do: input through a channel that `fd_read` blocks on, each line it writes pushed into the
//! match's [`Inbox`] as it is written (so the driver times it as any bot), its debug log
//! likewise. It gets [`crate::wasi`]'s functions and nothing else: a module importing anything
//! else, or one whose start needs more memory than its limit, is refused before the match.
//!
//! Its linear memory may not grow past the limit (768 MiB unless `--wasm-memory` says
//! otherwise): `memory.grow` fails, which the bot's allocator sees as out of memory; a bot that
//! then traps is a crash whose reason says so. A trap is a crash with its message; `proc_exit`
//! ends the program with its status. Stopping the bot (a timeout, a fault, the match's end)
//! interrupts its code through wasmtime's epochs and ends its thread.

use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::mpsc::{Receiver, RecvTimeoutError};
use std::sync::{Arc, Mutex, OnceLock};
use std::thread::{self, JoinHandle};
use std::time::{Duration, Instant};

use engine::referee::{MAX_LINE_BYTES, MAX_STDERR_BYTES};
use wasmtime::{
    Config, Engine, ExternType, Linker, Module, ResourceLimiter, Store, Trap, UpdateDeadline,
    WasmBacktrace,
};

use crate::bot_input::BotInput;
use crate::inbox::{finish_line, Inbox};
use crate::wasi::{self, Exit, Io, Wasi, WasiView};

/// A bot's memory limit unless `--wasm-memory` gives another, in MiB (as Python's in the page).
pub const DEFAULT_MEMORY_MB: u64 = 768;

/// The limit of every WebAssembly bot this process starts, in bytes.
static MEMORY_LIMIT: AtomicU64 = AtomicU64::new(DEFAULT_MEMORY_MB << 20);

/// The stack a bot's WebAssembly code may use (its C stack lives in its linear memory).
const WASM_STACK: usize = 8 << 20;

/// The elements a bot's tables may hold (function pointers: a large C++ program has thousands).
const MAX_TABLE_ELEMENTS: usize = 1 << 20;

/// Sets the memory limit of the WebAssembly bots started from now on (`--wasm-memory MB`).
pub fn set_memory_limit_mb(mb: u64) {
    MEMORY_LIMIT.store(mb.saturating_mul(1 << 20), Ordering::Relaxed);
}

fn memory_limit() -> u64 {
    MEMORY_LIMIT.load(Ordering::Relaxed)
}

/// The file and arguments of a WebAssembly bot's spec: a spec whose first word ends in
/// `.wasm` (or that is the path of such a file, spaces and all). Anything else is a command.
pub fn parse_spec(spec: &str) -> Option<(String, Vec<String>)> {
    let spec = spec.trim();
    let is_wasm = |s: &str| s.to_ascii_lowercase().ends_with(".wasm");
    if is_wasm(spec) && std::path::Path::new(spec).is_file() {
        return Some((spec.to_string(), Vec::new()));
    }
    let mut words = spec.split_whitespace();
    let path = words.next().filter(|w| is_wasm(w))?;
    Some((path.to_string(), words.map(str::to_string).collect()))
}

/// The engine every WebAssembly bot of this process runs on: compiled code is shared, and its
/// epoch is what interrupts a bot being stopped.
fn engine() -> Result<&'static Engine, String> {
    static ENGINE: OnceLock<Result<Engine, String>> = OnceLock::new();
    ENGINE
        .get_or_init(|| {
            let mut config = Config::new();
            config.epoch_interruption(true);
            config.max_wasm_stack(WASM_STACK);
            // (Checked against the wasm stack even though no bot runs asynchronously.)
            config.async_stack_size(WASM_STACK + (1 << 20));
            Engine::new(&config).map_err(|e| format!("cannot start the WebAssembly runtime: {e}"))
        })
        .as_ref()
        .map_err(Clone::clone)
}

/// The WASI functions, linked once.
fn linker() -> Result<&'static Linker<BotState>, String> {
    static LINKER: OnceLock<Result<Linker<BotState>, String>> = OnceLock::new();
    LINKER
        .get_or_init(|| {
            let mut linker = Linker::new(engine()?);
            wasi::add_to_linker(&mut linker)
                .map_err(|e| format!("cannot link the WASI functions: {e}"))?;
            Ok(linker)
        })
        .as_ref()
        .map_err(Clone::clone)
}

/// Compiles a module, or takes it from the modules this process compiled already (by content:
/// an arena compiles each bot once).
pub fn compile(path: &str) -> Result<Module, String> {
    static MODULES: Mutex<Option<HashMap<(usize, u64), Module>>> = Mutex::new(None);
    let bytes = std::fs::read(path).map_err(|e| format!("cannot read bot '{path}': {e}"))?;
    let key = (bytes.len(), engine::fnv1a(&bytes));
    if let Some(module) = MODULES
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .get_or_insert_with(HashMap::new)
        .get(&key)
    {
        return Ok(module.clone());
    }
    let started = Instant::now();
    let module = Module::new(engine()?, &bytes)
        .map_err(|e| format!("bot '{path}' is not a WebAssembly module botplay can run: {e:#}"))?;
    check(path, &module)?;
    // Once per module and process: what starting such a bot costs (never counted in its time).
    eprintln!(
        "botplay: {path} ({} KiB of WebAssembly) compiled in {} ms",
        bytes.len().div_ceil(1024),
        started.elapsed().as_millis()
    );
    MODULES
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .get_or_insert_with(HashMap::new)
        .insert(key, module.clone());
    Ok(module)
}

/// Refuses a module that imports what the layer does not give or is not a WASI program.
fn check(path: &str, module: &Module) -> Result<(), String> {
    let unknown = wasi::unknown_imports(module);
    if !unknown.is_empty() {
        let (them, it) = if unknown.len() == 1 {
            ("", "it")
        } else {
            ("s", "them")
        };
        return Err(format!(
            "bot '{path}' imports {}, which botplay does not give a WebAssembly bot (import{them} \
             refused before the match): a bot gets only WASI's {} functions (standard input and \
             output, clocks, random bytes; no files, no network). Build it for wasm32-wasip1 \
             without {it}.",
            unknown.join(", "),
            wasi::MODULE,
        ));
    }
    match module.get_export("_start") {
        Some(ExternType::Func(f)) if f.params().len() == 0 && f.results().len() == 0 => {}
        _ => {
            return Err(format!(
                "bot '{path}' has no `_start` function: build it as a WASI program (with a \
                 main function), not a library"
            ))
        }
    }
    if !matches!(module.get_export("memory"), Some(ExternType::Memory(_))) {
        return Err(format!("bot '{path}' exports no memory"));
    }
    Ok(())
}

/// Whether a `.wasm` spec can be seated: compiled, its imports and exports checked, and
/// instantiated once under the memory limit (then dropped, never run), as [`WasmBot::start`]
/// would.
pub fn check_spec(spec: &str) -> Result<(), String> {
    Ready::new(spec, 0, Arc::new(Inbox::new(1))).map(drop)
}

/// `proc_exit` was not called, the bot was stopped from outside.
#[derive(Debug)]
struct Stopped;

impl std::fmt::Display for Stopped {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("the bot was stopped")
    }
}

impl std::error::Error for Stopped {}

/// A store's limits: its memory, its tables, one instance.
struct Limits {
    memory: u64,
    /// The memory's size when a growth past the limit was refused, if one was.
    refused: Option<u64>,
}

impl ResourceLimiter for Limits {
    fn memory_growing(
        &mut self,
        current: usize,
        desired: usize,
        _maximum: Option<usize>,
    ) -> wasmtime::Result<bool> {
        if desired as u64 > self.memory {
            self.refused = Some(current as u64);
            return Ok(false);
        }
        Ok(true)
    }

    fn table_growing(
        &mut self,
        _current: usize,
        desired: usize,
        _maximum: Option<usize>,
    ) -> wasmtime::Result<bool> {
        Ok(desired <= MAX_TABLE_ELEMENTS)
    }

    fn instances(&self) -> usize {
        1
    }

    fn memories(&self) -> usize {
        1
    }
}

/// What a bot's store holds.
struct BotState {
    wasi: Wasi,
    limits: Limits,
    stop: Arc<AtomicBool>,
}

impl WasiView for BotState {
    fn wasi(&mut self) -> &mut Wasi {
        &mut self.wasi
    }
}

/// "768 MiB", "1.5 GiB".
fn size(bytes: u64) -> String {
    if bytes >= 1 << 30 && bytes.is_multiple_of(1 << 30) {
        format!("{} GiB", bytes >> 30)
    } else {
        format!("{} MiB", bytes.div_ceil(1 << 20))
    }
}

/// A WebAssembly bot seated in a match.
pub struct WasmBot {
    /// Input for the bot's `fd_read`.
    input: BotInput,
    stop: Arc<AtomicBool>,
    /// Why the program ended, once it has.
    end: Arc<Mutex<Option<String>>>,
    thread: Option<JoinHandle<()>>,
    /// The match's inbox and the bot's seat: stopping the bot stops the seat there too, so a
    /// write waiting for room in a full queue returns.
    inbox: Arc<Inbox>,
    seat: usize,
}

/// A bot instantiated and not started: everything that can refuse it has been done.
struct Ready {
    store: Store<BotState>,
    main: wasmtime::TypedFunc<(), ()>,
    input: BotInput,
    stop: Arc<AtomicBool>,
    limit: u64,
    path: String,
}

impl Ready {
    /// Compiles (or finds) the module and instantiates it under its limits.
    fn new(spec: &str, seat: usize, inbox: Arc<Inbox>) -> Result<Ready, String> {
        let (path, args) = parse_spec(spec).ok_or_else(|| format!("'{spec}' is no .wasm file"))?;
        let module = compile(&path)?;
        let pre = linker()?.instantiate_pre(&module).map_err(|e| {
            format!("bot '{path}' imports a WASI function with the wrong type: {e:#}")
        })?;
        let (input, texts, pending) = BotInput::new();
        let stop = Arc::new(AtomicBool::new(false));
        let streams = Streams {
            seat,
            inbox,
            input: texts,
            pending,
            stop: Arc::clone(&stop),
            buffered: Vec::new(),
            at: 0,
            out: LineCut::new(MAX_LINE_BYTES + 1),
            err: LineCut::new(MAX_STDERR_BYTES),
        };
        // As in the page: the program is called `bot`.
        let mut argv = vec!["bot".to_string()];
        argv.extend(args);
        let limit = memory_limit();
        let mut store = Store::new(
            engine()?,
            BotState {
                wasi: Wasi::new(argv, Vec::new(), Box::new(streams)),
                limits: Limits {
                    memory: limit,
                    refused: None,
                },
                stop: Arc::clone(&stop),
            },
        );
        store.limiter(|s| &mut s.limits);
        store.set_epoch_deadline(1);
        store.epoch_deadline_callback(|ctx| {
            if ctx.data().stop.load(Ordering::Relaxed) {
                Err(wasmtime::Error::new(Stopped))
            } else {
                Ok(UpdateDeadline::Continue(1))
            }
        });
        let instance = pre.instantiate(&mut store).map_err(|e| {
            match (
                store.data().limits.refused,
                module.exports().find_map(|e| e.ty().memory().cloned()),
            ) {
                (Some(_), Some(memory)) => format!(
                    "bot '{path}' needs {} of memory to start, more than its limit of {} \
                     (--wasm-memory MB raises it)",
                    size(memory.minimum().saturating_mul(memory.page_size())),
                    size(limit)
                ),
                _ => format!("bot '{path}' cannot start: {e:#}"),
            }
        })?;
        let main = instance
            .get_typed_func::<(), ()>(&mut store, "_start")
            .map_err(|e| format!("bot '{path}': {e:#}"))?;
        Ok(Ready {
            store,
            main,
            input,
            stop,
            limit,
            path,
        })
    }
}

impl WasmBot {
    /// Compiles (or finds) the module, instantiates it under its limits and starts its thread:
    /// everything that can refuse a bot happens here, before the match.
    pub fn start(spec: &str, seat: usize, inbox: Arc<Inbox>) -> Result<WasmBot, String> {
        let Ready {
            mut store,
            main,
            input,
            stop,
            limit,
            path,
        } = Ready::new(spec, seat, Arc::clone(&inbox))?;
        let end = Arc::new(Mutex::new(None));
        let ended = Arc::clone(&end);
        let thread = thread::Builder::new()
            .name(format!("wasm bot {}", seat + 1))
            .stack_size(WASM_STACK + (4 << 20))
            .spawn(move || {
                let result = main.call(&mut store, ());
                let why = describe(result, store.data().limits.refused, limit);
                *ended.lock().unwrap_or_else(|e| e.into_inner()) = Some(why);
                store.data_mut().wasi.io().close();
            })
            .map_err(|e| format!("cannot start a thread for bot '{path}': {e}"))?;
        Ok(WasmBot {
            input,
            stop,
            end,
            thread: Some(thread),
            inbox,
            seat,
        })
    }

    /// Hands text to the bot's standard input; never blocks.
    pub fn deliver(&mut self, text: &str) {
        self.input.deliver(text);
    }

    /// Stops the bot: its code is interrupted wherever it is, and its thread ends.
    pub fn stop(&mut self) {
        self.input.close();
        self.stop.store(true, Ordering::Relaxed);
        self.inbox.stop(self.seat);
        if let Ok(engine) = engine() {
            engine.increment_epoch();
        }
        if let Some(thread) = self.thread.take() {
            // Interrupted, the thread ends at once (its memory with it); a moment at most.
            let deadline = Instant::now() + Duration::from_secs(2);
            while !thread.is_finished() && Instant::now() < deadline {
                thread::sleep(Duration::from_millis(1));
            }
            if thread.is_finished() {
                let _ = thread.join();
            }
        }
    }

    /// Why the bot's output ended (waiting briefly for its thread to say).
    pub fn ended(&mut self) -> String {
        let deadline = Instant::now() + Duration::from_millis(200);
        loop {
            if let Some(why) = self.end.lock().unwrap_or_else(|e| e.into_inner()).clone() {
                return why;
            }
            if Instant::now() >= deadline {
                return "the bot closed its standard output".into();
            }
            thread::sleep(Duration::from_millis(2));
        }
    }
}

impl Drop for WasmBot {
    fn drop(&mut self) {
        self.stop();
    }
}

/// The reason a run ended, as the crash's text: the exit status, or the trap with the function
/// it happened in (and whether memory had run out).
fn describe(result: wasmtime::Result<()>, refused: Option<u64>, limit: u64) -> String {
    let error = match result {
        Ok(()) => return "the bot's program ended (exit status 0)".into(),
        Err(e) => e,
    };
    if let Some(Exit(code)) = error.downcast_ref::<Exit>() {
        return format!("the bot's program ended (exit status {code})");
    }
    if error.downcast_ref::<Stopped>().is_some() {
        return Stopped.to_string();
    }
    let place = error
        .downcast_ref::<WasmBacktrace>()
        .and_then(|bt| bt.frames().iter().find_map(|f| f.func_name()))
        .map(|name| format!(" in function {name}"))
        .unwrap_or_default();
    let what = match error.downcast_ref::<Trap>() {
        Some(trap) => {
            let text = trap.to_string();
            format!(
                "the WebAssembly program trapped: {}{place}",
                text.strip_prefix("wasm trap: ").unwrap_or(&text)
            )
        }
        None => format!("the WebAssembly program failed: {error}{place}"),
    };
    match refused {
        Some(had) => format!(
            "{what} (its memory had grown to {} and could not grow past the {} a bot may use: \
             --wasm-memory raises it)",
            size(had),
            size(limit)
        ),
        None => what,
    }
}

/// A stream cut into lines: a line longer than `cap` is handed over as soon as it is (its
/// first `cap` bytes), and the rest of it is dropped and counted.
struct LineCut {
    cap: usize,
    line: Vec<u8>,
    /// Dropping the rest of an overlong line (until its newline).
    dropping: bool,
}

impl LineCut {
    fn new(cap: usize) -> LineCut {
        LineCut {
            cap,
            line: Vec::new(),
            dropping: false,
        }
    }

    /// Feeds bytes; each complete (or cut) line goes to `take`. Returns the bytes dropped.
    fn feed(&mut self, bytes: &[u8], mut take: impl FnMut(String)) -> usize {
        let mut dropped = 0;
        let mut segments = bytes.split(|&b| b == b'\n').peekable();
        while let Some(chunk) = segments.next() {
            let newline = segments.peek().is_some();
            if self.dropping {
                dropped += chunk.len();
            } else {
                let keep = chunk.len().min(self.cap - self.line.len());
                self.line.extend_from_slice(&chunk[..keep]);
                dropped += chunk.len() - keep;
                if !newline && self.line.len() >= self.cap {
                    // Full: handed over now, not at a newline that may never come.
                    take(finish_line(&mut self.line));
                    self.dropping = true;
                }
            }
            if newline {
                if self.dropping {
                    self.dropping = false;
                } else {
                    take(finish_line(&mut self.line));
                }
            }
        }
        dropped
    }

    /// The last line, without a newline, at the end of the stream.
    fn rest(&mut self) -> Option<String> {
        (!self.line.is_empty()).then(|| finish_line(&mut self.line))
    }
}

/// The bot's standard streams: input from its channel, output into the match's inbox.
struct Streams {
    seat: usize,
    inbox: Arc<Inbox>,
    input: Receiver<String>,
    pending: Arc<AtomicUsize>,
    stop: Arc<AtomicBool>,
    /// Input received and not read yet, from `at`.
    buffered: Vec<u8>,
    at: usize,
    out: LineCut,
    err: LineCut,
}

impl Streams {
    fn take(&mut self, text: String) {
        self.pending.fetch_sub(text.len(), Ordering::Relaxed);
        self.buffered.drain(..self.at);
        self.at = 0;
        self.buffered.extend_from_slice(text.as_bytes());
    }

    fn has_input(&self) -> bool {
        self.at < self.buffered.len()
    }
}

impl Io for Streams {
    fn read(&mut self, buf: &mut [u8]) -> wasmtime::Result<usize> {
        while !self.has_input() {
            let text = self
                .input
                .recv()
                .map_err(|_| wasmtime::Error::new(Stopped))?;
            self.take(text);
        }
        let n = buf.len().min(self.buffered.len() - self.at);
        buf[..n].copy_from_slice(&self.buffered[self.at..self.at + n]);
        self.at += n;
        Ok(n)
    }

    fn wait(&mut self, for_input: bool, deadline: Option<Instant>) -> wasmtime::Result<bool> {
        loop {
            if for_input && self.has_input() {
                return Ok(true);
            }
            let text = match deadline {
                None => self
                    .input
                    .recv()
                    .map_err(|_| RecvTimeoutError::Disconnected),
                Some(d) => self
                    .input
                    .recv_timeout(d.saturating_duration_since(Instant::now())),
            };
            match text {
                Ok(text) => self.take(text),
                Err(RecvTimeoutError::Timeout) => return Ok(for_input && self.has_input()),
                Err(RecvTimeoutError::Disconnected) => return Err(wasmtime::Error::new(Stopped)),
            }
        }
    }

    fn stdout(&mut self, bytes: &[u8]) -> wasmtime::Result<()> {
        if self.stop.load(Ordering::Relaxed) {
            return Err(wasmtime::Error::new(Stopped));
        }
        let (inbox, seat) = (&self.inbox, self.seat);
        self.out.feed(bytes, |line| inbox.push_line(seat, line));
        Ok(())
    }

    fn stderr(&mut self, bytes: &[u8]) {
        let (inbox, seat) = (&self.inbox, self.seat);
        let mut lines = Vec::new();
        let dropped = self.err.feed(bytes, |line| lines.push(line));
        for line in lines {
            inbox.push_stderr(seat, &format!("{line}\n"), 0);
        }
        if dropped > 0 {
            inbox.push_stderr(seat, "", dropped);
        }
    }

    fn close(&mut self) {
        if let Some(line) = self.out.rest() {
            self.inbox.push_line(self.seat, line);
        }
        if let Some(line) = self.err.rest() {
            self.inbox.push_stderr(self.seat, &format!("{line}\n"), 0);
        }
        self.inbox.close(self.seat);
        self.inbox.close_stderr(self.seat);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::inbox::Next;

    fn cut(cap: usize, pieces: &[&[u8]]) -> (Vec<String>, usize, Option<String>) {
        let mut c = LineCut::new(cap);
        let mut lines = Vec::new();
        let mut dropped = 0;
        for p in pieces {
            dropped += c.feed(p, |l| lines.push(l));
        }
        (lines, dropped, c.rest())
    }

    #[test]
    fn lines_are_cut_at_their_cap_as_soon_as_they_pass_it() {
        assert_eq!(
            cut(5, &[b"ab\r\ncd", b"e\n\nfg"]),
            (
                vec!["ab".into(), "cde".into(), String::new()],
                0,
                Some("fg".into())
            )
        );
        // Past the cap without a newline: handed over at once, the rest of it dropped.
        assert_eq!(
            cut(3, &[b"abcdef", b"gh\nij"]),
            (vec!["abc".into()], 5, Some("ij".into()))
        );
        // Exactly the cap, then its newline: one line, nothing dropped.
        assert_eq!(
            cut(3, &[b"abc", b"\nd"]),
            (vec!["abc".into()], 0, Some("d".into()))
        );
        assert_eq!(cut(3, &[b"\xff\n"]).0, vec!["\u{fffd}".to_string()]);
    }

    fn module(name: &str, body: &str) -> String {
        let text = format!(
            r#"(module
  (import "wasi_snapshot_preview1" "fd_read" (func $fd_read (param i32 i32 i32 i32) (result i32)))
  (import "wasi_snapshot_preview1" "fd_write" (func $fd_write (param i32 i32 i32 i32) (result i32)))
  (memory (export "memory") 1)
  (func (export "_start") {body}))"#
        );
        let dir = std::env::temp_dir().join(format!("botplay-wasm-unit-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("temp dir");
        let path = dir.join(format!("{name}.wasm"));
        std::fs::write(&path, wat::parse_str(text).expect("wat")).expect("module");
        path.display().to_string()
    }

    /// Echoes each read of standard input to standard output.
    const ECHO: &str = "(loop $more
        (i32.store (i32.const 0) (i32.const 1024))
        (i32.store (i32.const 4) (i32.const 4096))
        (drop (call $fd_read (i32.const 0) (i32.const 0) (i32.const 1) (i32.const 8)))
        (i32.store (i32.const 4) (i32.load (i32.const 8)))
        (drop (call $fd_write (i32.const 1) (i32.const 0) (i32.const 1) (i32.const 12)))
        (br $more))";

    fn next_line(inbox: &Inbox) -> String {
        let deadline = Instant::now() + Duration::from_secs(10);
        loop {
            match inbox.next(0) {
                Next::Line(line, _) => return line,
                Next::Closed => panic!("closed"),
                Next::Nothing if Instant::now() > deadline => panic!("no line"),
                Next::Nothing => inbox.wait(&[0], deadline),
            }
        }
    }

    #[test]
    fn input_is_read_as_delivered_and_lines_arrive_in_the_inbox() {
        let inbox = Arc::new(Inbox::new(1));
        let mut bot = WasmBot::start(&module("echo", ECHO), 0, Arc::clone(&inbox)).expect("starts");
        bot.deliver("hello\nthere\n");
        assert_eq!(next_line(&inbox), "hello");
        assert_eq!(next_line(&inbox), "there");
        bot.deliver("again\r\n");
        assert_eq!(next_line(&inbox), "again");
        bot.stop();
        assert!(bot.thread.is_none(), "the thread ended");
    }

    #[test]
    fn stopping_a_bot_interrupts_its_code_and_ends_its_thread() {
        let inbox = Arc::new(Inbox::new(1));
        let spec = module("spin", "(loop $forever (br $forever))");
        let mut bot = WasmBot::start(&spec, 0, inbox).expect("starts");
        std::thread::sleep(Duration::from_millis(50));
        let started = Instant::now();
        let thread = bot.thread.take().expect("running");
        bot.thread = Some(thread);
        bot.stop();
        assert!(bot.thread.is_none(), "the thread ended");
        assert!(
            started.elapsed() < Duration::from_secs(1),
            "{:?}",
            started.elapsed()
        );
        assert_eq!(bot.ended(), "the bot was stopped");
    }

    #[test]
    fn a_bot_blocked_on_its_input_is_stopped_too() {
        let inbox = Arc::new(Inbox::new(1));
        let mut bot = WasmBot::start(&module("reader", ECHO), 0, inbox).expect("starts");
        std::thread::sleep(Duration::from_millis(20));
        bot.stop();
        assert!(bot.thread.is_none(), "the thread ended");
    }

    #[test]
    fn a_bot_waiting_for_room_in_a_full_inbox_is_stopped_too() {
        // Writes lines without end and nobody takes them: its queue fills and its write waits.
        let body = "(i32.store8 (i32.const 100) (i32.const 10))
            (i32.store (i32.const 0) (i32.const 100))
            (i32.store (i32.const 4) (i32.const 1))
            (loop $more
              (drop (call $fd_write (i32.const 1) (i32.const 0) (i32.const 1) (i32.const 8)))
              (br $more))";
        let inbox = Arc::new(Inbox::new(1));
        let mut bot =
            WasmBot::start(&module("flood", body), 0, Arc::clone(&inbox)).expect("starts");
        std::thread::sleep(Duration::from_millis(100));
        assert!(inbox.overflow(0).is_some(), "the queue is full");
        let started = Instant::now();
        bot.stop();
        assert!(bot.thread.is_none(), "the thread ended");
        assert!(started.elapsed() < Duration::from_secs(1));
    }

    #[test]
    fn specs_name_a_wasm_file_and_its_arguments() {
        assert_eq!(
            parse_spec(" bot.wasm --depth 3 "),
            Some(("bot.wasm".into(), vec!["--depth".into(), "3".into()]))
        );
        assert_eq!(parse_spec("BOT.WASM"), Some(("BOT.WASM".into(), vec![])));
        assert_eq!(parse_spec("wasmtime bot.wasm"), None);
        assert_eq!(parse_spec("./bot"), None);
        assert_eq!(size(768 << 20), "768 MiB");
        assert_eq!(size(4 << 30), "4 GiB");
    }
}
