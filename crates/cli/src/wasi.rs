//! The WASI functions a WebAssembly bot gets (`wasi_snapshot_preview1`): the same small subset
//! as in the page, written here rather than taken from `wasmtime-wasi` (whose files, sockets and
//! async machinery a bot must not reach and the CLI need not build).
//!
//! Given, as the page's layer gives them (`www/wasm-bot-worker.js`): the arguments (`bot`, then
//! those of the `--bot` spec) and an empty environment (`args_*`, `environ_*`), the clocks
//! (`clock_*`), random bytes (`random_get`), standard input (`fd_read` on 0, blocking until the
//! referee's next input), standard output and error (`fd_write` on 1 and 2), `fd_fdstat_get` on
//! 0–2 (character devices that cannot seek: wasi-libc then buffers stdout by line, as on a
//! terminal), `fd_close` on 0–2 (it changes nothing), `sched_yield` and `proc_exit`; and
//! `poll_oneoff` on standard input and clocks (a sleep, which Go's runtime uses). Every other
//! function of `wasi_snapshot_preview1` answers an error, as in the page: an `fd_` function
//! `EBADF` for a descriptor other than 0, 1 and 2 (there are no files: `fd_prestat_get` finds no
//! directory) and `ENOSYS` on them (`ESPIPE` for seeking); paths, sockets and the rest
//! `ENOSYS`. A module importing anything else is refused before its match
//! ([`unknown_imports`]).

use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use wasmtime::{Caller, Extern, Linker, Module};

/// The module every WASI import names.
pub const MODULE: &str = "wasi_snapshot_preview1";

/// Every function of `wasi_snapshot_preview1`: a module may import any of them.
pub const FUNCTIONS: [&str; 46] = [
    "args_get",
    "args_sizes_get",
    "environ_get",
    "environ_sizes_get",
    "clock_res_get",
    "clock_time_get",
    "fd_advise",
    "fd_allocate",
    "fd_close",
    "fd_datasync",
    "fd_fdstat_get",
    "fd_fdstat_set_flags",
    "fd_fdstat_set_rights",
    "fd_filestat_get",
    "fd_filestat_set_size",
    "fd_filestat_set_times",
    "fd_pread",
    "fd_prestat_get",
    "fd_prestat_dir_name",
    "fd_pwrite",
    "fd_read",
    "fd_readdir",
    "fd_renumber",
    "fd_seek",
    "fd_sync",
    "fd_tell",
    "fd_write",
    "path_create_directory",
    "path_filestat_get",
    "path_filestat_set_times",
    "path_link",
    "path_open",
    "path_readlink",
    "path_remove_directory",
    "path_rename",
    "path_symlink",
    "path_unlink_file",
    "poll_oneoff",
    "proc_exit",
    "proc_raise",
    "sched_yield",
    "random_get",
    "sock_accept",
    "sock_recv",
    "sock_send",
    "sock_shutdown",
];

/// WASI's error numbers (`errno`) that the layer answers.
pub mod errno {
    pub const SUCCESS: i32 = 0;
    pub const BADF: i32 = 8;
    pub const FAULT: i32 = 21;
    pub const INVAL: i32 = 28;
    pub const NOSYS: i32 = 52;
    pub const SPIPE: i32 = 70;
}

const FILETYPE_CHARACTER_DEVICE: u8 = 2;
const RIGHT_FD_READ: u64 = 1 << 1;
const RIGHT_FD_WRITE: u64 = 1 << 6;
const EVENTTYPE_CLOCK: u8 = 0;
const EVENTTYPE_FD_READ: u8 = 1;
const EVENTTYPE_FD_WRITE: u8 = 2;
const SUBCLOCKFLAG_ABSTIME: u16 = 1;

/// How the bot's standard streams reach the match.
pub trait Io: Send {
    /// Reads standard input into `buf`, blocking until there is some; `Err` when the bot is
    /// being stopped (the error ends it).
    fn read(&mut self, buf: &mut [u8]) -> wasmtime::Result<usize>;
    /// Waits until standard input has something to read (`true`) or `deadline` passes
    /// (`false`); without `for_input`, only for the deadline. `Err` when the bot is stopped.
    fn wait(&mut self, for_input: bool, deadline: Option<Instant>) -> wasmtime::Result<bool>;
    /// Bytes the bot wrote on standard output (`Err` stops it).
    fn stdout(&mut self, bytes: &[u8]) -> wasmtime::Result<()>;
    /// Bytes the bot wrote on standard error.
    fn stderr(&mut self, bytes: &[u8]);
    /// The program has ended: what it wrote last without a newline is its last line.
    fn close(&mut self);
}

/// `proc_exit(code)`: the bot's program ended with this status.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Exit(pub i32);

impl std::fmt::Display for Exit {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "the program ended (exit status {})", self.0)
    }
}

impl std::error::Error for Exit {}

/// A bot's WASI state: its arguments, environment, clocks, random bytes and streams.
pub struct Wasi {
    args: Vec<String>,
    env: Vec<String>,
    io: Box<dyn Io>,
    /// The origin of the monotonic clock.
    started: Instant,
    random: u64,
}

/// The store's data gives its [`Wasi`].
pub trait WasiView: 'static {
    fn wasi(&mut self) -> &mut Wasi;
}

impl Wasi {
    pub fn new(args: Vec<String>, env: Vec<String>, io: Box<dyn Io>) -> Wasi {
        // Not for secrets: a seed from the hasher's per-process keys and the clock.
        use std::hash::{BuildHasher, Hasher};
        let mut hasher = std::collections::hash_map::RandomState::new().build_hasher();
        hasher.write_u128(
            SystemTime::now()
                .duration_since(UNIX_EPOCH)
                .map_or(0, |d| d.as_nanos()),
        );
        Wasi {
            args,
            env,
            io,
            started: Instant::now(),
            random: hasher.finish() | 1,
        }
    }

    /// The bot's streams.
    pub fn io(&mut self) -> &mut dyn Io {
        self.io.as_mut()
    }

    /// The next 8 random bytes (SplitMix64).
    fn next_random(&mut self) -> u64 {
        self.random = self.random.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.random;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A clock's time in nanoseconds, or `None` for an unknown clock.
    fn now(&self, clock: i32) -> Option<u64> {
        match clock {
            0 => Some(
                SystemTime::now()
                    .duration_since(UNIX_EPOCH)
                    .map_or(0, |d| d.as_nanos() as u64),
            ),
            1 => Some(self.started.elapsed().as_nanos() as u64),
            // The process's and the thread's CPU time: the bot's thread's.
            2 | 3 => Some(
                crate::seats::thread_cpu_time()
                    .unwrap_or_else(|| self.started.elapsed())
                    .as_nanos() as u64,
            ),
            _ => None,
        }
    }
}

/// Whether `fd` is one of the standard streams.
fn stdio(fd: i32) -> bool {
    (0..=2).contains(&fd)
}

/// The imports of `module` that the layer does not give, as `module.name` (empty when the
/// module may run).
pub fn unknown_imports(module: &Module) -> Vec<String> {
    module
        .imports()
        .filter(|i| {
            !(i.module() == MODULE
                && FUNCTIONS.contains(&i.name())
                && matches!(i.ty(), wasmtime::ExternType::Func(_)))
        })
        .map(|i| {
            let kind = match i.ty() {
                wasmtime::ExternType::Func(_) => "a function",
                wasmtime::ExternType::Memory(_) => "a memory",
                wasmtime::ExternType::Table(_) => "a table",
                wasmtime::ExternType::Global(_) => "a global",
                _ => "something else",
            };
            format!("{}.{} ({kind})", i.module(), i.name())
        })
        .collect()
}

/// Guest memory, bounds-checked: an access outside it answers `EFAULT`.
struct Mem<'a>(&'a mut [u8]);

impl Mem<'_> {
    fn range(&self, ptr: i32, len: usize) -> Result<std::ops::Range<usize>, i32> {
        let start = ptr as u32 as usize;
        let end = start.checked_add(len).ok_or(errno::FAULT)?;
        if end <= self.0.len() {
            Ok(start..end)
        } else {
            Err(errno::FAULT)
        }
    }
    fn bytes(&self, ptr: i32, len: usize) -> Result<&[u8], i32> {
        let r = self.range(ptr, len)?;
        Ok(&self.0[r])
    }
    fn bytes_mut(&mut self, ptr: i32, len: usize) -> Result<&mut [u8], i32> {
        let r = self.range(ptr, len)?;
        Ok(&mut self.0[r])
    }
    fn u32(&self, ptr: i32) -> Result<u32, i32> {
        let b = self.bytes(ptr, 4)?;
        Ok(u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
    }
    fn u64(&self, ptr: i32) -> Result<u64, i32> {
        let b = self.bytes(ptr, 8)?;
        let mut a = [0; 8];
        a.copy_from_slice(b);
        Ok(u64::from_le_bytes(a))
    }
    fn set(&mut self, ptr: i32, bytes: &[u8]) -> Result<(), i32> {
        self.bytes_mut(ptr, bytes.len())?.copy_from_slice(bytes);
        Ok(())
    }
    fn set_u32(&mut self, ptr: i32, v: u32) -> Result<(), i32> {
        self.set(ptr, &v.to_le_bytes())
    }
    fn set_u64(&mut self, ptr: i32, v: u64) -> Result<(), i32> {
        self.set(ptr, &v.to_le_bytes())
    }
    /// The `(ptr, len)` pairs of an iovec array.
    fn iovecs(&self, iovs: i32, count: i32) -> Result<Vec<(i32, usize)>, i32> {
        let count = count as u32 as usize;
        self.range(iovs, count.checked_mul(8).ok_or(errno::FAULT)?)?;
        (0..count)
            .map(|i| {
                let at = iovs.wrapping_add((i * 8) as i32);
                Ok((self.u32(at)? as i32, self.u32(at.wrapping_add(4))? as usize))
            })
            .collect()
    }
}

/// Runs `f` on the caller's memory and WASI state; a module without an exported memory gets
/// `EFAULT` (it could pass no pointer anyway).
fn with<T: WasiView>(
    caller: &mut Caller<'_, T>,
    f: impl FnOnce(&mut Mem<'_>, &mut Wasi) -> Result<(), i32>,
) -> i32 {
    let Some(Extern::Memory(memory)) = caller.get_export("memory") else {
        return errno::FAULT;
    };
    let (data, state) = memory.data_and_store_mut(caller);
    match f(&mut Mem(data), state.wasi()) {
        Ok(()) => errno::SUCCESS,
        Err(e) => e,
    }
}

/// `args_sizes_get` and `environ_sizes_get`: the count and the bytes of NUL-terminated strings.
fn sizes(mem: &mut Mem<'_>, list: &[String], count: i32, size: i32) -> Result<(), i32> {
    mem.set_u32(count, list.len() as u32)?;
    let bytes: usize = list.iter().map(|s| s.len() + 1).sum();
    mem.set_u32(size, bytes as u32)
}

/// `args_get` and `environ_get`: the pointers, then the NUL-terminated strings.
fn strings(mem: &mut Mem<'_>, list: &[String], pointers: i32, buf: i32) -> Result<(), i32> {
    let mut at = buf;
    for (i, s) in list.iter().enumerate() {
        mem.set_u32(pointers.wrapping_add((i * 4) as i32), at as u32)?;
        mem.set(at, s.as_bytes())?;
        mem.set(at.wrapping_add(s.len() as i32), &[0])?;
        at = at.wrapping_add(s.len() as i32 + 1);
    }
    Ok(())
}

/// Defines the two functions of a list of strings, the arguments or the environment: its
/// `*_sizes_get` ([`sizes`]) and its `*_get` ([`strings`]), on the `list` of the bot's state.
fn add_strings<T: WasiView>(
    linker: &mut Linker<T>,
    (sizes_get, get): (&str, &str),
    list: fn(&Wasi) -> &[String],
) -> wasmtime::Result<()> {
    linker.func_wrap(
        MODULE,
        sizes_get,
        move |mut c: Caller<'_, T>, n: i32, size: i32| {
            with(&mut c, |mem, w| sizes(mem, list(w), n, size))
        },
    )?;
    linker.func_wrap(
        MODULE,
        get,
        move |mut c: Caller<'_, T>, ptrs: i32, buf: i32| {
            with(&mut c, |mem, w| strings(mem, list(w), ptrs, buf))
        },
    )?;
    Ok(())
}

/// Defines every function of [`FUNCTIONS`] in `linker`: here the arguments, environment,
/// clocks, random bytes and the process's end; the streams and the rest in the functions below.
pub fn add_to_linker<T: WasiView>(linker: &mut Linker<T>) -> wasmtime::Result<()> {
    let m = MODULE;
    add_strings(linker, ("args_sizes_get", "args_get"), |w| {
        w.args.as_slice()
    })?;
    add_strings(linker, ("environ_sizes_get", "environ_get"), |w| {
        w.env.as_slice()
    })?;
    linker.func_wrap(
        m,
        "clock_res_get",
        |mut c: Caller<'_, T>, id: i32, res: i32| {
            with(&mut c, |mem, w| {
                w.now(id).ok_or(errno::INVAL)?;
                mem.set_u64(res, 1_000)
            })
        },
    )?;
    linker.func_wrap(
        m,
        "clock_time_get",
        |mut c: Caller<'_, T>, id: i32, _precision: i64, at: i32| {
            with(&mut c, |mem, w| {
                mem.set_u64(at, w.now(id).ok_or(errno::INVAL)?)
            })
        },
    )?;
    linker.func_wrap(
        m,
        "random_get",
        |mut c: Caller<'_, T>, buf: i32, len: i32| {
            with(&mut c, |mem, w| {
                let out = mem.bytes_mut(buf, len as u32 as usize)?;
                for chunk in out.chunks_mut(8) {
                    let r = w.next_random().to_le_bytes();
                    chunk.copy_from_slice(&r[..chunk.len()]);
                }
                Ok(())
            })
        },
    )?;
    linker.func_wrap(m, "sched_yield", || errno::SUCCESS)?;
    linker.func_wrap(m, "proc_exit", |code: i32| -> wasmtime::Result<()> {
        Err(wasmtime::Error::new(Exit(code)))
    })?;
    linker.func_wrap(m, "proc_raise", |_signal: i32| errno::NOSYS)?;
    add_streams(linker)?;
    unsupported(linker)
}

/// The standard streams: reads, writes, their state, and waiting on them.
fn add_streams<T: WasiView>(linker: &mut Linker<T>) -> wasmtime::Result<()> {
    let m = MODULE;
    linker.func_wrap(
        m,
        "fd_write",
        |mut c: Caller<'_, T>, fd: i32, iovs: i32, n: i32, written: i32| -> wasmtime::Result<i32> {
            let mut failure = None;
            let code = with(&mut c, |mem, w| {
                if fd != 1 && fd != 2 {
                    return Err(on_fd(fd));
                }
                let mut total = 0usize;
                for (ptr, len) in mem.iovecs(iovs, n)? {
                    let bytes = mem.bytes(ptr, len)?;
                    if fd == 1 {
                        if let Err(e) = w.io.stdout(bytes) {
                            failure = Some(e);
                            return Ok(());
                        }
                    } else {
                        w.io.stderr(bytes);
                    }
                    total += len;
                }
                mem.set_u32(written, total as u32)
            });
            match failure {
                Some(e) => Err(e),
                None => Ok(code),
            }
        },
    )?;
    linker.func_wrap(
        m,
        "fd_read",
        |mut c: Caller<'_, T>, fd: i32, iovs: i32, n: i32, read: i32| -> wasmtime::Result<i32> {
            let mut failure = None;
            let code = with(&mut c, |mem, w| {
                if fd != 0 {
                    return Err(on_fd(fd));
                }
                let iovecs = mem.iovecs(iovs, n)?;
                // One read fills the first non-empty buffer (as a pipe's read(2) may).
                let Some(&(ptr, len)) = iovecs.iter().find(|(_, len)| *len > 0) else {
                    return mem.set_u32(read, 0);
                };
                let buf = mem.bytes_mut(ptr, len)?;
                match w.io.read(buf) {
                    Ok(got) => mem.set_u32(read, got as u32),
                    Err(e) => {
                        failure = Some(e);
                        Ok(())
                    }
                }
            });
            match failure {
                Some(e) => Err(e),
                None => Ok(code),
            }
        },
    )?;
    linker.func_wrap(
        m,
        "fd_fdstat_get",
        |mut c: Caller<'_, T>, fd: i32, at: i32| {
            with(&mut c, |mem, _| {
                if !stdio(fd) {
                    return Err(errno::BADF);
                }
                // Read and write, never seek or tell: wasi-libc takes it for a terminal.
                let rights = RIGHT_FD_READ | RIGHT_FD_WRITE;
                let mut stat = [0u8; 24];
                stat[0] = FILETYPE_CHARACTER_DEVICE;
                stat[8..16].copy_from_slice(&rights.to_le_bytes());
                mem.set(at, &stat)
            })
        },
    )?;
    // Closing a standard stream changes nothing (the page's layer answers the same).
    linker.func_wrap(m, "fd_close", |fd: i32| {
        if stdio(fd) {
            errno::SUCCESS
        } else {
            errno::BADF
        }
    })?;
    linker.func_wrap(m, "fd_prestat_get", |_fd: i32, _at: i32| errno::BADF)?;
    linker.func_wrap(
        m,
        "fd_seek",
        |fd: i32, _offset: i64, _whence: i32, _at: i32| seek_error(fd),
    )?;
    linker.func_wrap(m, "fd_tell", |fd: i32, _at: i32| seek_error(fd))?;
    linker.func_wrap(
        m,
        "poll_oneoff",
        |mut c: Caller<'_, T>, subs: i32, events: i32, n: i32, count: i32| {
            poll_oneoff(&mut c, subs, events, n, count)
        },
    )?;
    Ok(())
}

/// `fd_seek` and `fd_tell` on a standard stream: it cannot seek.
fn seek_error(fd: i32) -> i32 {
    if stdio(fd) {
        errno::SPIPE
    } else {
        errno::BADF
    }
}

/// `EBADF` for a descriptor other than the standard streams, else `ENOSYS` (as the page's
/// layer answers every `fd_` function it does not give).
fn on_fd(fd: i32) -> i32 {
    if stdio(fd) {
        errno::NOSYS
    } else {
        errno::BADF
    }
}

/// The functions that answer an error: files, directories, sockets.
fn unsupported<T: WasiView>(linker: &mut Linker<T>) -> wasmtime::Result<()> {
    let m = MODULE;
    linker.func_wrap(m, "fd_advise", |fd: i32, _: i64, _: i64, _: i32| on_fd(fd))?;
    linker.func_wrap(m, "fd_allocate", |fd: i32, _: i64, _: i64| on_fd(fd))?;
    linker.func_wrap(m, "fd_fdstat_set_flags", |fd: i32, _: i32| on_fd(fd))?;
    linker.func_wrap(m, "fd_filestat_get", |fd: i32, _: i32| on_fd(fd))?;
    linker.func_wrap(m, "fd_datasync", on_fd)?;
    linker.func_wrap(m, "fd_fdstat_set_rights", |fd: i32, _: i64, _: i64| {
        on_fd(fd)
    })?;
    linker.func_wrap(m, "fd_filestat_set_size", |fd: i32, _: i64| on_fd(fd))?;
    linker.func_wrap(
        m,
        "fd_filestat_set_times",
        |fd: i32, _: i64, _: i64, _: i32| on_fd(fd),
    )?;
    linker.func_wrap(m, "fd_pread", |fd: i32, _: i32, _: i32, _: i64, _: i32| {
        on_fd(fd)
    })?;
    linker.func_wrap(m, "fd_prestat_dir_name", |_: i32, _: i32, _: i32| {
        errno::BADF
    })?;
    linker.func_wrap(m, "fd_pwrite", |fd: i32, _: i32, _: i32, _: i64, _: i32| {
        on_fd(fd)
    })?;
    linker.func_wrap(
        m,
        "fd_readdir",
        |fd: i32, _: i32, _: i32, _: i64, _: i32| on_fd(fd),
    )?;
    linker.func_wrap(m, "fd_renumber", |fd: i32, _: i32| on_fd(fd))?;
    linker.func_wrap(m, "fd_sync", on_fd)?;
    // Paths and sockets: not supported (and no directory is open to name a path in).
    linker.func_wrap(m, "path_create_directory", |_: i32, _: i32, _: i32| {
        errno::NOSYS
    })?;
    linker.func_wrap(
        m,
        "path_filestat_get",
        |_: i32, _: i32, _: i32, _: i32, _: i32| errno::NOSYS,
    )?;
    linker.func_wrap(
        m,
        "path_filestat_set_times",
        |_: i32, _: i32, _: i32, _: i32, _: i64, _: i64, _: i32| errno::NOSYS,
    )?;
    linker.func_wrap(
        m,
        "path_link",
        |_: i32, _: i32, _: i32, _: i32, _: i32, _: i32, _: i32| errno::NOSYS,
    )?;
    linker.func_wrap(
        m,
        "path_open",
        |_: i32, _: i32, _: i32, _: i32, _: i32, _: i64, _: i64, _: i32, _: i32| errno::NOSYS,
    )?;
    linker.func_wrap(
        m,
        "path_readlink",
        |_: i32, _: i32, _: i32, _: i32, _: i32, _: i32| errno::NOSYS,
    )?;
    linker.func_wrap(m, "path_remove_directory", |_: i32, _: i32, _: i32| {
        errno::NOSYS
    })?;
    linker.func_wrap(
        m,
        "path_rename",
        |_: i32, _: i32, _: i32, _: i32, _: i32, _: i32| errno::NOSYS,
    )?;
    linker.func_wrap(
        m,
        "path_symlink",
        |_: i32, _: i32, _: i32, _: i32, _: i32| errno::NOSYS,
    )?;
    linker.func_wrap(m, "path_unlink_file", |_: i32, _: i32, _: i32| errno::NOSYS)?;
    linker.func_wrap(m, "sock_accept", |_: i32, _: i32, _: i32| errno::NOSYS)?;
    linker.func_wrap(
        m,
        "sock_recv",
        |_: i32, _: i32, _: i32, _: i32, _: i32, _: i32| errno::NOSYS,
    )?;
    linker.func_wrap(m, "sock_send", |_: i32, _: i32, _: i32, _: i32, _: i32| {
        errno::NOSYS
    })?;
    linker.func_wrap(m, "sock_shutdown", |_: i32, _: i32| errno::NOSYS)?;
    Ok(())
}

/// One subscription of `poll_oneoff`, read from guest memory.
enum Subscription {
    /// A clock reaching `deadline` (`None`: a clock this layer does not know).
    Clock {
        userdata: u64,
        deadline: Option<Instant>,
    },
    /// Standard input readable, or standard output or error writable (always).
    Fd { userdata: u64, kind: u8, fd: i32 },
}

impl Subscription {
    /// The subscription at `at` (48 bytes): its userdata, its tag, then a clock's id, timeout
    /// and flags, or a descriptor.
    fn read(mem: &Mem<'_>, w: &Wasi, at: i32) -> Result<Subscription, i32> {
        let userdata = mem.u64(at)?;
        let tag = mem.bytes(at.wrapping_add(8), 1)?[0];
        match tag {
            EVENTTYPE_CLOCK => {
                let clock = mem.u32(at.wrapping_add(16))? as i32;
                let timeout = mem.u64(at.wrapping_add(24))?;
                let flags = mem.bytes(at.wrapping_add(40), 2)?;
                let absolute = u16::from_le_bytes([flags[0], flags[1]]) & SUBCLOCKFLAG_ABSTIME != 0;
                let deadline = w.now(clock).map(|now| {
                    let wait = if absolute {
                        timeout.saturating_sub(now)
                    } else {
                        timeout
                    };
                    // Far futures are capped (a sleep that long is stopped by the match).
                    Instant::now() + Duration::from_nanos(wait.min(1 << 50))
                });
                Ok(Subscription::Clock { userdata, deadline })
            }
            EVENTTYPE_FD_READ | EVENTTYPE_FD_WRITE => Ok(Subscription::Fd {
                userdata,
                kind: tag,
                fd: mem.u32(at.wrapping_add(16))? as i32,
            }),
            _ => Err(errno::INVAL),
        }
    }

    fn is_stdin(&self) -> bool {
        matches!(
            self,
            Subscription::Fd {
                kind: EVENTTYPE_FD_READ,
                fd: 0,
                ..
            }
        )
    }

    /// Its event (userdata, error, type) if it is ready: stdin when `readable`, a clock once
    /// past, a write on 1 or 2 always; an unknown clock or descriptor at once, with its error.
    fn event(&self, readable: bool, now: Instant) -> Option<(u64, i32, u8)> {
        match *self {
            Subscription::Clock {
                userdata,
                deadline: None,
            } => Some((userdata, errno::INVAL, EVENTTYPE_CLOCK)),
            Subscription::Clock {
                userdata,
                deadline: Some(d),
            } => (d <= now).then_some((userdata, errno::SUCCESS, EVENTTYPE_CLOCK)),
            Subscription::Fd { userdata, kind, fd } => match (kind, fd) {
                (EVENTTYPE_FD_READ, 0) => readable.then_some((userdata, errno::SUCCESS, kind)),
                (EVENTTYPE_FD_WRITE, 1 | 2) => Some((userdata, errno::SUCCESS, kind)),
                _ => Some((userdata, errno::BADF, kind)),
            },
        }
    }
}

/// `poll_oneoff`: waits for standard input or a clock; standard output and error are always
/// writable. Sleeps end early only when the bot is stopped.
fn poll_oneoff<T: WasiView>(
    caller: &mut Caller<'_, T>,
    subs: i32,
    events: i32,
    n: i32,
    count: i32,
) -> wasmtime::Result<i32> {
    let mut failure = None;
    let code = with(caller, |mem, w| {
        if n <= 0 {
            return Err(errno::INVAL);
        }
        let list = (0..n)
            .map(|i| Subscription::read(mem, w, subs.wrapping_add(i.wrapping_mul(48))))
            .collect::<Result<Vec<_>, _>>()?;
        let wants_input = list.iter().any(Subscription::is_stdin);
        // Anything but stdin and known clocks is ready at once: then only a look at stdin.
        let at_once = list.iter().any(|s| match s {
            Subscription::Fd { .. } => !s.is_stdin(),
            Subscription::Clock { deadline, .. } => deadline.is_none(),
        });
        let until = if at_once {
            Some(Instant::now())
        } else {
            list.iter()
                .filter_map(|s| match s {
                    Subscription::Clock { deadline, .. } => *deadline,
                    Subscription::Fd { .. } => None,
                })
                .min()
        };
        let readable = match w.io.wait(wants_input, until) {
            Ok(readable) => readable,
            Err(e) => {
                failure = Some(e);
                return Ok(());
            }
        };
        let now = Instant::now();
        let mut written = 0;
        for (userdata, error, kind) in list.iter().filter_map(|s| s.event(readable, now)) {
            let mut event = [0u8; 32];
            event[0..8].copy_from_slice(&userdata.to_le_bytes());
            event[8..10].copy_from_slice(&(error as u16).to_le_bytes());
            event[10] = kind;
            if kind != EVENTTYPE_CLOCK && error == errno::SUCCESS {
                // Bytes available: unknown for input (at least one), room for output.
                event[16..24].copy_from_slice(&1u64.to_le_bytes());
            }
            mem.set(events.wrapping_add(written * 32), &event)?;
            written += 1;
        }
        mem.set_u32(count, written as u32)
    });
    match failure {
        Some(e) => Err(e),
        None => Ok(code),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::mpsc::{channel, Receiver};
    use wasmtime::{Config, Engine, Store};

    /// Input from a channel; output dropped.
    struct TestIo {
        input: Receiver<Vec<u8>>,
        buffered: Vec<u8>,
    }

    impl Io for TestIo {
        fn read(&mut self, buf: &mut [u8]) -> wasmtime::Result<usize> {
            if self.buffered.is_empty() {
                self.buffered = self.input.recv().map_err(wasmtime::Error::msg)?;
            }
            let n = buf.len().min(self.buffered.len());
            buf[..n].copy_from_slice(&self.buffered[..n]);
            self.buffered.drain(..n);
            Ok(n)
        }
        fn wait(&mut self, for_input: bool, deadline: Option<Instant>) -> wasmtime::Result<bool> {
            if for_input && !self.buffered.is_empty() {
                return Ok(true);
            }
            let wait = deadline.map_or(Duration::from_secs(60), |d| {
                d.saturating_duration_since(Instant::now())
            });
            match self.input.recv_timeout(wait) {
                Ok(bytes) => {
                    self.buffered.extend(bytes);
                    Ok(for_input)
                }
                Err(_) => Ok(false),
            }
        }
        fn stdout(&mut self, _bytes: &[u8]) -> wasmtime::Result<()> {
            Ok(())
        }
        fn stderr(&mut self, _bytes: &[u8]) {}
        fn close(&mut self) {}
    }

    struct State(Wasi);

    impl WasiView for State {
        fn wasi(&mut self) -> &mut Wasi {
            &mut self.0
        }
    }

    /// Runs `_start` of a module (WAT) with `imports`, given `input` on standard input, and
    /// returns the first 1024 bytes of its memory.
    fn run(imports: &str, body: &str, input: Option<Vec<u8>>) -> Vec<u8> {
        let text = format!(
            r#"(module {imports} (memory (export "memory") 1)
                 (func (export "_start") {body}))"#
        );
        let engine = Engine::new(&Config::new()).expect("engine");
        let module = Module::new(&engine, wat::parse_str(text).expect("wat")).expect("module");
        assert!(unknown_imports(&module).is_empty());
        let mut linker = Linker::new(&engine);
        add_to_linker(&mut linker).expect("linked");
        let (tx, rx) = channel();
        if let Some(input) = input {
            tx.send(input).expect("sent");
        }
        let io = TestIo {
            input: rx,
            buffered: Vec::new(),
        };
        let wasi = Wasi::new(
            vec!["bot".into(), "-x".into()],
            vec!["A=1".into()],
            Box::new(io),
        );
        let mut store = Store::new(&engine, State(wasi));
        let instance = linker.instantiate(&mut store, &module).expect("instance");
        let start = instance
            .get_typed_func::<(), ()>(&mut store, "_start")
            .expect("_start");
        start.call(&mut store, ()).expect("runs");
        let memory = instance.get_memory(&mut store, "memory").expect("memory");
        memory.data(&store)[..1024].to_vec()
    }

    fn u32_at(bytes: &[u8], at: usize) -> u32 {
        u32::from_le_bytes(bytes[at..at + 4].try_into().expect("4 bytes"))
    }

    fn u64_at(bytes: &[u8], at: usize) -> u64 {
        u64::from_le_bytes(bytes[at..at + 8].try_into().expect("8 bytes"))
    }

    const I: &str = r#"(import "wasi_snapshot_preview1""#;

    #[test]
    fn arguments_environment_clocks_and_random_bytes() {
        let imports = format!(
            r#"{I} "args_sizes_get" (func $asizes (param i32 i32) (result i32)))
               {I} "args_get" (func $args (param i32 i32) (result i32)))
               {I} "environ_sizes_get" (func $esizes (param i32 i32) (result i32)))
               {I} "clock_time_get" (func $clock (param i32 i64 i32) (result i32)))
               {I} "random_get" (func $random (param i32 i32) (result i32)))"#
        );
        let body = "
            (i32.store (i32.const 900) (call $asizes (i32.const 0) (i32.const 4)))
            (drop (call $args (i32.const 8) (i32.const 100)))
            (drop (call $esizes (i32.const 16) (i32.const 20)))
            (i32.store (i32.const 904) (call $clock (i32.const 1) (i64.const 0) (i32.const 24)))
            (i32.store (i32.const 908) (call $clock (i32.const 9) (i64.const 0) (i32.const 32)))
            (drop (call $random (i32.const 200) (i32.const 13)))";
        let m = run(&imports, body, None);
        assert_eq!(u32_at(&m, 900), 0);
        assert_eq!((u32_at(&m, 0), u32_at(&m, 4)), (2, 7), "bot\\0-x\\0");
        assert_eq!(&m[100..107], b"bot\0-x\0");
        assert_eq!(u32_at(&m, 8), 100);
        assert_eq!(u32_at(&m, 12), 104);
        assert_eq!((u32_at(&m, 16), u32_at(&m, 20)), (1, 4));
        assert_eq!(u32_at(&m, 904), 0);
        assert!(
            u64_at(&m, 24) < 60_000_000_000,
            "a monotonic clock from the start"
        );
        assert_eq!(u32_at(&m, 908), errno::INVAL as u32, "an unknown clock");
        assert!(m[200..213].iter().any(|&b| b != 0), "random bytes");
        assert_eq!(m[213], 0, "no more than asked");
    }

    #[test]
    fn standard_streams_look_like_a_terminal_and_nothing_else_is_there() {
        let imports = format!(
            r#"{I} "fd_fdstat_get" (func $stat (param i32 i32) (result i32)))
               {I} "fd_prestat_get" (func $prestat (param i32 i32) (result i32)))
               {I} "fd_close" (func $close (param i32) (result i32)))
               {I} "fd_tell" (func $tell (param i32 i32) (result i32)))
               {I} "fd_write" (func $write (param i32 i32 i32 i32) (result i32)))"#
        );
        let body = "
            (i32.store (i32.const 900) (call $stat (i32.const 1) (i32.const 0)))
            (i32.store (i32.const 904) (call $stat (i32.const 5) (i32.const 100)))
            (i32.store (i32.const 908) (call $prestat (i32.const 3) (i32.const 100)))
            (i32.store (i32.const 912) (call $close (i32.const 1)))
            (i32.store (i32.const 916) (call $tell (i32.const 0) (i32.const 100)))
            (i32.store (i32.const 920) (call $write (i32.const 0) (i32.const 0) (i32.const 0) (i32.const 100)))
            ;; an iovec out of memory: EFAULT, not a trap
            (i32.store (i32.const 924) (call $write (i32.const 1) (i32.const 70000) (i32.const 1) (i32.const 100)))";
        let m = run(&imports, body, None);
        assert_eq!(u32_at(&m, 900), 0);
        assert_eq!(m[0], FILETYPE_CHARACTER_DEVICE);
        let rights = u64_at(&m, 8);
        assert_eq!(rights, RIGHT_FD_READ | RIGHT_FD_WRITE, "no seek, no tell");
        assert_eq!(u32_at(&m, 904), errno::BADF as u32);
        assert_eq!(u32_at(&m, 908), errno::BADF as u32, "no directory");
        assert_eq!(u32_at(&m, 912), 0);
        assert_eq!(u32_at(&m, 916), errno::SPIPE as u32);
        assert_eq!(u32_at(&m, 920), errno::NOSYS as u32, "stdin is not written");
        assert_eq!(u32_at(&m, 924), errno::FAULT as u32);
    }

    /// A poll_oneoff subscription at `at`: a relative clock of `ns` with userdata 7.
    fn clock_subscription(at: u32, ns: u64) -> String {
        format!(
            "(i64.store (i32.const {at}) (i64.const 7))
             (i32.store8 (i32.const {}) (i32.const 0))
             (i32.store (i32.const {}) (i32.const 1))
             (i64.store (i32.const {}) (i64.const {ns}))",
            at + 8,
            at + 16,
            at + 24
        )
    }

    #[test]
    fn poll_oneoff_sleeps_or_wakes_for_input() {
        let imports =
            format!(r#"{I} "poll_oneoff" (func $poll (param i32 i32 i32 i32) (result i32)))"#);
        // A sleep of 30 ms alone.
        let body = format!(
            "{} (i32.store (i32.const 900) (call $poll (i32.const 0) (i32.const 200) (i32.const 1) (i32.const 904)))",
            clock_subscription(0, 30_000_000)
        );
        let started = Instant::now();
        let m = run(&imports, &body, None);
        assert!(started.elapsed() >= Duration::from_millis(30));
        assert_eq!((u32_at(&m, 900), u32_at(&m, 904)), (0, 1));
        assert_eq!((u64_at(&m, 200), m[210]), (7, EVENTTYPE_CLOCK));
        // Standard input (ready) or a clock of 10 s: input wins at once.
        let body = format!(
            "{} (i64.store (i32.const 48) (i64.const 9))
             (i32.store8 (i32.const 56) (i32.const 1))
             (i32.store (i32.const 64) (i32.const 0))
             (i32.store (i32.const 900) (call $poll (i32.const 0) (i32.const 200) (i32.const 2) (i32.const 904)))",
            clock_subscription(0, 10_000_000_000)
        );
        let started = Instant::now();
        let m = run(&imports, &body, Some(b"input\n".to_vec()));
        assert!(started.elapsed() < Duration::from_secs(5));
        assert_eq!((u32_at(&m, 900), u32_at(&m, 904)), (0, 1));
        assert_eq!((u64_at(&m, 200), m[210]), (9, EVENTTYPE_FD_READ));
    }

    #[test]
    fn imports_outside_wasi_are_named_with_their_kind() {
        let engine = Engine::new(&Config::new()).expect("engine");
        let text = r#"(module
            (import "env" "f" (func))
            (import "env" "memory" (memory 1))
            (import "wasi_snapshot_preview1" "fd_write" (global i32))
            (import "wasi_snapshot_preview1" "sched_yield" (func (result i32))))"#;
        let module = Module::new(&engine, wat::parse_str(text).expect("wat")).expect("module");
        assert_eq!(
            unknown_imports(&module),
            vec![
                "env.f (a function)",
                "env.memory (a memory)",
                "wasi_snapshot_preview1.fd_write (a global)"
            ]
        );
    }
}
