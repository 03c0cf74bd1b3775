// The runtime of a WebAssembly bot: one Web Worker runs one program compiled to wasm32-wasip1
// (C and C++ with clang and wasi-libc, Rust with --target wasm32-wasip1, ...), as CodinGame runs
// a compiled bot: it reads its input on stdin and writes its answers on stdout, its debug log on
// stderr. The match host (www/match-host.js) starts it from www/bot-channel.js followed by this
// text, only when a WebAssembly bot plays; the channel is the same as a JavaScript bot's (rings
// in shared memory, or messages), and so are the caps and faults.
//
// The WASI layer is the project's own, small and tested (tests/e2e/wasm-bots.mjs): a bot needs
// about ten functions of `wasi_snapshot_preview1`, and the one it needs most, a blocking read of
// stdin, is a wait on the bot's input ring (Atomics.wait) or a synchronous request on messages,
// which `@bjorn3/browser_wasi_shim` (an in-memory file system, its stdin a fixed buffer) does
// not do. Given: args (one, "bot"), an empty environment, clocks, random bytes, fd_read on 0
// (blocks until the referee's next input), fd_write on 1 (lines to the referee) and 2 (the
// debug log), fd_fdstat_get on 0-2 (a character device that cannot seek: wasi-libc then
// line-buffers stdout, as a terminal), fd_prestat_get (no directories), proc_exit (ends the bot),
// sched_yield, and poll_oneoff for a program's sleep (usleep, Go's timers) and its wait for stdin. Every other function of preview 1 answers ENOSYS (or EBADF for a file that is not
// 0-2): no file system, no network, no sockets. A module that imports anything else (another
// module's functions, a memory or table from outside) is refused before the match, with a
// sentence naming the imports.
//
// Memory: a bot may use WASM_MEMORY_BYTES (768 MB, as CodinGame gives). Before compiling, the
// module's memory section is rewritten so that its maximum is at most that: `memory.grow` past
// it fails inside the program (malloc returns NULL; C++ throws bad_alloc, Rust aborts), as a
// process at its limit. A module whose memory starts above the cap, is shared or 64-bit is
// refused before the match.
//
// Faults: a trap (unreachable, out-of-bounds access, division by zero, stack overflow) is a
// crash with the engine's message; proc_exit(0) or a return from main ends the bot (a seat that
// ends early is treated as any program that exits); proc_exit(n) ends it with that code.
//
// The bot has no JavaScript of its own: it can call only the functions below, with numbers. So
// no sandbox is needed here as in js-bot-worker.js; the channel keeps its primordials anyway.
"use strict";

(() => {
  const channel = self.botplayChannel();
  delete self.botplayChannel;
  const { KIND, clock, part, byteCount, u8Set } = channel;

  const MB = 1024 * 1024;
  const WASM_MEMORY_BYTES = 768 * MB;
  // A memory this close to the cap is full (an allocator asks for more than a page at a time).
  const FULL_MARGIN_BYTES = 64 * MB;
  const PAGE_BYTES = 65536;
  const MAX_PAGES = WASM_MEMORY_BYTES / PAGE_BYTES;
  const WASI = "wasi_snapshot_preview1";
  // Every function of WASI preview 1: a bot may import any of them (libc links some it never
  // calls); those not given answer ENOSYS.
  const PREVIEW1 = new Set([
    "args_get", "args_sizes_get", "environ_get", "environ_sizes_get", "clock_res_get",
    "clock_time_get", "fd_advise", "fd_allocate", "fd_close", "fd_datasync", "fd_fdstat_get",
    "fd_fdstat_set_flags", "fd_fdstat_set_rights", "fd_filestat_get", "fd_filestat_set_size",
    "fd_filestat_set_times", "fd_pread", "fd_prestat_get", "fd_prestat_dir_name", "fd_pwrite",
    "fd_read", "fd_readdir", "fd_renumber", "fd_seek", "fd_sync", "fd_tell", "fd_write",
    "path_create_directory", "path_filestat_get", "path_filestat_set_times", "path_link",
    "path_open", "path_readlink", "path_remove_directory", "path_rename", "path_symlink",
    "path_unlink_file", "poll_oneoff", "proc_exit", "proc_raise", "sched_yield", "random_get",
    "sock_accept", "sock_recv", "sock_send", "sock_shutdown",
  ]);
  // WASI's error numbers.
  const SUCCESS = 0;
  const EBADF = 8;
  const EINVAL = 28;
  const ENOSYS = 52;
  const ESPIPE = 70;
  const ARGS = ["bot"];
  // The most buffers one fd_read or fd_write takes (POSIX's IOV_MAX), and subscriptions one
  // poll_oneoff.
  const MAX_IOVECS = 1024;
  const MAX_SUBSCRIPTIONS = 1024;
  // fd_fdstat_get's answer for 0-2: a character device with the rights to read and write.
  const CHARACTER_DEVICE = 2;
  const RIGHTS_READ_WRITE = 2n | 64n; // fd_read, fd_write

  const encoder = new TextEncoder();
  const fillRandom = (bytes) => crypto.getRandomValues(bytes);

  // --- the module, read before the match ---------------------------------------------------

  /** A module refused before the match: its words say why. */
  class Refused extends Error {}

  /** Bytes of a WebAssembly module, from the base64 the page sends. */
  function fromBase64(text) {
    const binary = atob(text);
    const bytes = new Uint8Array(binary.length);
    for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
    return bytes;
  }

  /** An unsigned LEB128 number at `at`: [value, next]. */
  function leb(bytes, at) {
    let value = 0;
    let scale = 1;
    for (let i = 0; i < 5; i++) {
      if (at >= bytes.length) throw new Refused("the WebAssembly module is cut short");
      const byte = bytes[at++];
      value += (byte & 127) * scale;
      if ((byte & 128) === 0) return [value, at];
      scale *= 128;
    }
    throw new Refused("the WebAssembly module is damaged (a number too long)");
  }

  function lebBytes(value) {
    const out = [];
    do {
      let byte = value % 128;
      value = Math.floor(value / 128);
      if (value > 0) byte |= 128;
      out.push(byte);
    } while (value > 0);
    return out;
  }

  /** The memory section rewritten with a maximum of at most MAX_PAGES pages. */
  function cappedMemories(bytes, from, to) {
    let [count, at] = leb(bytes, from);
    const out = lebBytes(count);
    for (let m = 0; m < count; m++) {
      const flags = bytes[at++];
      if (flags & 2) {
        throw new Refused("the WebAssembly module's memory is shared (threads are not supported)");
      }
      if (flags & 4) throw new Refused("the WebAssembly module's memory is 64-bit (wasm64)");
      if (flags > 1) throw new Refused("the WebAssembly module's memory is of an unknown kind");
      let initial;
      [initial, at] = leb(bytes, at);
      let maximum = MAX_PAGES;
      if (flags & 1) [maximum, at] = leb(bytes, at);
      if (initial > MAX_PAGES) {
        const mb = Math.round((initial * PAGE_BYTES) / (1024 * 1024));
        throw new Refused(
          `the WebAssembly module's memory starts at ${mb} MB, more than the 768 MB a bot may use`,
        );
      }
      out.push(1, ...lebBytes(initial), ...lebBytes(Math.min(maximum, MAX_PAGES)));
    }
    if (at !== to) throw new Refused("the WebAssembly module's memory section is damaged");
    return out;
  }

  /**
   * The module with its memories' maximum at most the cap: sections copied as they are, the
   * memory section (id 5) rewritten.
   */
  function capMemory(bytes) {
    const MAGIC = [0, 97, 115, 109, 1, 0, 0, 0];
    if (bytes.length < 8 || MAGIC.some((b, i) => bytes[i] !== b)) {
      throw new Refused(
        "this file is not a WebAssembly module (a .wasm file built for wasm32-wasip1 starts with \\0asm, version 1)",
      );
    }
    const pieces = [bytes.subarray(0, 8)];
    let at = 8;
    while (at < bytes.length) {
      const id = bytes[at];
      const [size, body] = leb(bytes, at + 1);
      const end = body + size;
      if (end > bytes.length) throw new Refused("the WebAssembly module is cut short");
      if (id === 5) {
        const section = cappedMemories(bytes, body, end);
        pieces.push(Uint8Array.from([5, ...lebBytes(section.length), ...section]));
      } else {
        pieces.push(bytes.subarray(at, end));
      }
      at = end;
    }
    const total = pieces.reduce((n, p) => n + p.length, 0);
    const out = new Uint8Array(total);
    let offset = 0;
    for (const piece of pieces) {
      out.set(piece, offset);
      offset += piece.length;
    }
    return out;
  }

  /** Refuses a module that imports what a bot may not have, naming every such import. */
  function checkImports(module) {
    const refused = WebAssembly.Module.imports(module)
      .filter((i) => i.module !== WASI || i.kind !== "function" || !PREVIEW1.has(i.name))
      .map((i) => `${i.module}.${i.name} (a ${i.kind})`);
    if (refused.length === 0) return;
    const shown = refused.slice(0, 8).join(", ") + (refused.length > 8 ? `, and ${refused.length - 8} more` : "");
    throw new Refused(
      `the WebAssembly module imports what a bot may not use: ${shown}; a bot is given only ` +
        "the functions of wasi_snapshot_preview1 (build it for wasm32-wasip1, without a file system or network)",
    );
  }

  function checkExports(module) {
    const exports = WebAssembly.Module.exports(module);
    if (!exports.some((e) => e.name === "_start" && e.kind === "function")) {
      throw new Refused(
        "the WebAssembly module has no _start function: build it as a program with a main " +
          "(a command, not a library or reactor)",
      );
    }
    if (!exports.some((e) => e.name === "memory" && e.kind === "memory")) {
      throw new Refused("the WebAssembly module exports no memory, which WASI needs");
    }
  }

  // --- WASI ------------------------------------------------------------------------------

  /** A WASI call the bot made with arguments no program makes: the bot is stopped. */
  class Misuse extends Error {}

  /** Ends the program: thrown through the bot's frames by proc_exit. */
  class Exit {
    constructor(code) {
      this.code = code;
    }
  }

  /** The functions of wasi_snapshot_preview1 given to the bot, on its `memory` (set later). */
  function wasi(state) {
    const view = () => new DataView(state.memory.buffer);
    const bytes = (at, length) => new Uint8Array(state.memory.buffer, at, length);
    const strings = (values) => values.map((v) => encoder.encode(v + "\0"));
    const sizes = (values) => (countAt, sizeAt) => {
      const encoded = strings(values);
      view().setUint32(countAt, encoded.length, true);
      view().setUint32(sizeAt, encoded.reduce((n, b) => n + b.length, 0), true);
      return SUCCESS;
    };
    const fill = (values) => (pointersAt, bufferAt) => {
      let at = bufferAt;
      strings(values).forEach((b, i) => {
        view().setUint32(pointersAt + 4 * i, at, true);
        bytes(at, b.length).set(b);
        at += b.length;
      });
      return SUCCESS;
    };
    // The iovecs of fd_read/fd_write: [pointer, length] pairs (at most MAX_IOVECS: a count from
    // the bot is not trusted).
    const iovecs = (at, signed) => {
      const count = signed >>> 0;
      if (count > MAX_IOVECS) throw new Misuse(`${count} buffers in one read or write (at most ${MAX_IOVECS})`);
      const out = [];
      const v = view();
      for (let i = 0; i < count; i++) out.push([v.getUint32(at + 8 * i, true), v.getUint32(at + 8 * i + 4, true)]);
      return out;
    };
    const isStdio = (fd) => fd >= 0 && fd <= 2;
    const given = {
      args_sizes_get: sizes(ARGS),
      args_get: fill(ARGS),
      environ_sizes_get: sizes([]),
      environ_get: fill([]),
      clock_res_get(id, at) {
        if (id < 0 || id > 3) return EINVAL;
        view().setBigUint64(at, 1000n, true);
        return SUCCESS;
      },
      clock_time_get(id, _precision, at) {
        if (id < 0 || id > 3) return EINVAL;
        const ms = id === 0 ? clock() : performance.now();
        view().setBigUint64(at, BigInt(Math.round(ms * 1e6)), true);
        return SUCCESS;
      },
      random_get(at, length) {
        for (let done = 0; done < length; done += 65536) {
          fillRandom(bytes(at + done, Math.min(65536, length - done)));
        }
        return SUCCESS;
      },
      fd_read(fd, iovs, count, readAt) {
        if (fd !== 0) return isStdio(fd) ? ENOSYS : EBADF;
        let total = 0;
        for (const [at, length] of iovecs(iovs, count)) {
          if (length === 0) continue;
          // Blocks only for the first: what is there fills the rest, as a pipe gives it.
          if (total > 0) break;
          total += channel.readInto(bytes(at, length));
        }
        view().setUint32(readAt, total, true);
        return SUCCESS;
      },
      fd_write(fd, iovs, count, writtenAt) {
        if (fd !== 1 && fd !== 2) return isStdio(fd) ? ENOSYS : EBADF;
        let total = 0;
        for (const [at, length] of iovecs(iovs, count)) {
          // A copy: the channel keeps no view of the bot's memory, which may grow meanwhile.
          const piece = bytes(at, length).slice();
          total += fd === 1 ? channel.writeOutputBytes(piece) : channel.writeDebugBytes(piece);
        }
        view().setUint32(writtenAt, total, true);
        return SUCCESS;
      },
      fd_fdstat_get(fd, at) {
        if (!isStdio(fd)) return EBADF;
        const v = view();
        v.setUint8(at, CHARACTER_DEVICE);
        v.setUint16(at + 2, 0, true);
        v.setBigUint64(at + 8, RIGHTS_READ_WRITE, true);
        v.setBigUint64(at + 16, 0n, true);
        return SUCCESS;
      },
      fd_prestat_get: () => EBADF,
      fd_prestat_dir_name: () => EBADF,
      fd_seek: (fd) => (isStdio(fd) ? ESPIPE : EBADF),
      fd_tell: (fd) => (isStdio(fd) ? ESPIPE : EBADF),
      fd_close: (fd) => (isStdio(fd) ? SUCCESS : EBADF),
      proc_exit(code) {
        throw new Exit(code >>> 0);
      },
      sched_yield: () => SUCCESS,
      poll_oneoff: (into, out, count, countAt) => pollOneoff(view(), into, out, count, countAt),
    };
    const imports = {};
    for (const name of PREVIEW1) {
      imports[name] = given[name] || (name.startsWith("fd_") ? (fd) => (isStdio(fd) ? ENOSYS : EBADF) : () => ENOSYS);
    }
    return imports;
  }

  // poll_oneoff's subscriptions (48 bytes: userdata, tag, then a clock's id, timeout and flags
  // or an fd) and events (32 bytes: userdata, error, type, then the bytes ready).
  const SUBSCRIPTION_BYTES = 48;
  const EVENT_BYTES = 32;
  const CLOCK = 0;
  const FD_READ = 1;
  const FD_WRITE = 2;
  const ABSTIME = 1;

  /**
   * poll_oneoff, as a program's sleep and a wait for stdin use it: clocks (relative or absolute),
   * stdin readable (input pending), stdout and stderr always writable. Waits, for input or until
   * the earliest clock, when nothing is ready yet (on messages, for input alone once a read of
   * stdin is asked for: the service worker's answer cannot be waited for with a time limit).
   */
  function pollOneoff(v, into, out, count, countAt) {
    count >>>= 0;
    if (count === 0 || count > MAX_SUBSCRIPTIONS) return EINVAL;
    const subscriptions = [];
    for (let i = 0; i < count; i++) {
      const at = into + i * SUBSCRIPTION_BYTES;
      const s = { userdata: v.getBigUint64(at, true), tag: v.getUint8(at + 8), fd: v.getUint32(at + 16, true) };
      if (s.tag === CLOCK) {
        // Its clock's id is where an fd would be; a deadline on clock_time_get's clocks (the
        // realtime clock is clock(), the others performance.now()), as a time of clock().
        const ms = Number(v.getBigUint64(at + 24, true)) / 1e6;
        const absolute = (v.getUint16(at + 40, true) & ABSTIME) !== 0;
        s.until = !absolute ? clock() + ms : s.fd === 0 ? ms : clock() + (ms - performance.now());
      }
      subscriptions.push(s);
    }
    const reader = subscriptions.some((s) => s.tag === FD_READ && s.fd === 0);
    const until = Math.min(...subscriptions.filter((s) => s.tag === CLOCK).map((s) => s.until));
    const ready = () =>
      subscriptions.filter((s) =>
        s.tag === CLOCK ? clock() >= s.until : s.tag === FD_WRITE || s.fd !== 0 || channel.pendingInput() > 0);
    let events = ready();
    if (events.length === 0) {
      if (reader) channel.waitForInput(until);
      else channel.sleepUntil(until);
      events = ready();
    }
    const pending = channel.pendingInput();
    events.forEach((s, i) => {
      const at = out + i * EVENT_BYTES;
      const bad = s.tag !== CLOCK && (s.tag === FD_READ ? s.fd !== 0 : s.fd !== 1 && s.fd !== 2);
      v.setBigUint64(at, s.userdata, true);
      v.setUint16(at + 8, bad ? EBADF : SUCCESS, true);
      v.setUint8(at + 10, s.tag);
      v.setBigUint64(at + 16, BigInt(s.tag === FD_READ && !bad ? pending : 0), true);
      v.setUint16(at + 24, 0, true);
    });
    v.setUint32(countAt, events.length, true);
    return SUCCESS;
  }

  // --- running the bot -------------------------------------------------------------------

  /** What stopped the program, in a sentence (`memory`: its memory, to say when it is full). */
  function describe(error, memory) {
    if (error instanceof Exit) {
      return error.code === 0
        ? "the bot's program ended (exit code 0)"
        : `the bot's program exited with code ${error.code}`;
    }
    if (error instanceof WebAssembly.RuntimeError) {
      // A program out of memory traps (abort: unreachable) once its allocator is refused more.
      const size = memory ? memory.buffer.byteLength : 0;
      const full = size + FULL_MARGIN_BYTES >= WASM_MEMORY_BYTES
        ? ` (its memory had grown to ${Math.round(size / MB)} MB of the 768 MB a bot may use)`
        : "";
      // (WebKit adds where it was called from: "(evaluating 'instance.exports._start()')".)
      const message = String(error.message).replace(/ \(evaluating '[^']*'\)$/, "");
      return `the WebAssembly program trapped: ${message}${full}`;
    }
    if (error instanceof Misuse) return `the WebAssembly program called WASI wrongly: ${error.message}`;
    if (error instanceof RangeError && /call stack/i.test(error.message)) {
      return `the WebAssembly program failed: ${error.message} (a recursion too deep?)`;
    }
    if (error instanceof RangeError) {
      // A pointer or length outside its memory, given to one of the functions above.
      return `the WebAssembly program called WASI with an address outside its memory (${error.message})`;
    }
    return "the WebAssembly program failed: " + channel.show(error);
  }

  /** Compiles and checks the module (before the match): its instance, or a sentence. */
  async function prepare(code) {
    if (code === "") throw new Refused("no WebAssembly module was chosen for this bot: choose a .wasm file");
    const module = await WebAssembly.compile(capMemory(fromBase64(code)));
    checkImports(module);
    checkExports(module);
    const state = { memory: null };
    const instance = await WebAssembly.instantiate(module, { [WASI]: wasi(state) });
    state.memory = instance.exports.memory;
    return instance;
  }

  async function run(code) {
    let instance;
    try {
      instance = await prepare(code);
    } catch (error) {
      const why = error instanceof Refused ? error.message : "the WebAssembly module cannot be started: " + channel.show(error && error.message ? error.message : error);
      channel.exit(why);
      return;
    }
    channel.record(KIND.ready, "", clock());
    let ending;
    try {
      instance.exports._start();
      ending = "the bot's program ended (its main returned)";
    } catch (error) {
      ending = describe(error, instance.exports.memory);
    }
    channel.endOutput();
    channel.exit(ending);
  }

  self.onmessage = (event) => {
    const message = event.data;
    if (!message || message.type !== "start") return;
    self.onmessage = null;
    channel.open(message);
    run(String(message.code));
  };
})();
