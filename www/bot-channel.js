// A bot's channel to the match worker, shared by the bot runtimes: JavaScript and Python
// (www/js-bot-worker.js) and WebAssembly (www/wasm-bot-worker.js). The match host
// (www/match-host.js) starts a bot's worker from this text followed by the runtime's; the
// runtime's first act is `const channel = self.botplayChannel(); delete self.botplayChannel;`,
// before any bot code is loaded, so no bot ever sees it.
//
// Input: the match worker writes each turn's text into a SharedArrayBuffer ring and wakes this
// worker; `readline()` (or `readInto`, for WASI's fd_read) sleeps in `Atomics.wait` until input
// is there.
//
// Without shared memory (the start message has a `port` instead of rings: WebKitGTK as shipped,
// a page that is not cross-origin isolated), the same records are posted on that MessagePort to
// the match worker, as [kind, text, stamp], and input is waited for in a synchronous request to
// the page's service worker (`io`, www/coi-sw.js), which answers with the input the match worker
// sent it for this bot (or with 204 after a while, and the runtime asks again). After each
// answer a record "received" (kind 8) says when the runtime began waiting and when it got the
// input, so that the time the input took to arrive is not counted against the bot.
//
//   Int32 header (16 bytes), then CAPACITY data bytes (a power of two):
//     header[WRITE]   bytes written so far (a wrapping 32-bit counter), by the other side
//     header[READ]    bytes taken so far (a wrapping 32-bit counter), by this side
//     header[PENDING] 1 while the match worker holds input that did not fit into the ring
//   Bytes WRITE - READ (mod 2^32) are unread, at data[READ % CAPACITY ...], wrapping around.
//   Bytes are copied first and published with Atomics.store(WRITE) and Atomics.notify after.
//
// Output: records in a second ring of the same layout, written by this side (src/match_host/
// rings.rs has the reading side): a 16-byte head (kind byte, three zero bytes, the payload's
// length as a little-endian u32, a little-endian f64 stamp) and the payload (UTF-8). After each
// record the doorbell (an Int32Array's first cell, shared by every writer of the match) is
// incremented and notified. When the ring has no room, the bot waits, as on a full pipe.
//   kinds: 1 ready, 2 loading (text), 3 line (text, stamped when written), 4 stderr (text),
//          5 need-input, 6 exit (how the program ended), 7 flood (what the bot wrote too much of),
//          8 received (on messages only: when the input came, the text when the wait began)
//
// Integrity (the primordials discipline, as Node.js keeps its own internals): every method and
// accessor the channel calls once a bot runs is taken when `botplayChannel()` is called, before
// the bot's code is loaded, and called uncurried, without any property lookup a bot could
// redirect. Two things are never done after the start: reading an inherited accessor through a
// property (a typed array's `length`, `buffer`, `byteOffset`: the getters below are called
// instead), and calling a method that follows `Symbol.species` or `constructor` (`subarray`,
// `slice`, `map`...): a part of a typed array is a new view made with the constructor taken
// here. Arrays the channel fills have no prototype. The rings are reachable only from this
// closure. The match worker checks every record again where it receives it, and believes a
// line's stamp only within what it saw itself (src/match_host/driver.rs). Lengths are bytes of
// UTF-8 everywhere.
"use strict";

self.botplayChannel = () => {
  const uncurry = Function.prototype.bind.bind(Function.prototype.call);
  const describeOwn = Object.getOwnPropertyDescriptor;
  const getter = (prototype, name) => uncurry(describeOwn(prototype, name).get);
  const A = Object.freeze({
    __proto__: null,
    load: Atomics.load,
    store: Atomics.store,
    wait: Atomics.wait,
    notify: Atomics.notify,
    add: Atomics.add,
  });
  const U8 = Uint8Array;
  const I32 = Int32Array;
  const F64 = Float64Array;
  const TypedArrayPrototype = Object.getPrototypeOf(Uint8Array.prototype);
  const byteCount = getter(TypedArrayPrototype, "length");
  const bufferOf = getter(TypedArrayPrototype, "buffer");
  const offsetOf = getter(TypedArrayPrototype, "byteOffset");
  const u8Set = uncurry(TypedArrayPrototype.set);
  const u8IndexOf = uncurry(TypedArrayPrototype.indexOf);
  // (Absent where the browser gives no shared memory: the channel then works on messages.)
  const SAB = typeof SharedArrayBuffer === "function" ? SharedArrayBuffer : null;
  const portPost = uncurry(MessagePort.prototype.postMessage);
  const XHR = self.XMLHttpRequest;
  const xhrOpen = XHR && uncurry(XHR.prototype.open);
  const xhrSend = XHR && uncurry(XHR.prototype.send);
  const xhrStatus = XHR && getter(XHR.prototype, "status");
  const xhrText = XHR && getter(XHR.prototype, "responseText");
  const setPrototype = Object.setPrototypeOf;
  const toString = String;
  const jsonStringify = JSON.stringify;
  const mathMin = Math.min;
  const mathMax = Math.max;
  const ErrorType = Error;
  const encode = uncurry(TextEncoder.prototype.encode, new TextEncoder());
  const decode = uncurry(TextDecoder.prototype.decode, new TextDecoder());
  // Debug-log bytes come in pieces that may cut a character: decoded as a stream.
  const decodeStream = uncurry(TextDecoder.prototype.decode, new TextDecoder());
  const STREAM = Object.freeze({ __proto__: null, stream: true });
  const now = uncurry(Performance.prototype.now, performance);
  const timeOrigin = performance.timeOrigin;
  const clock = () => timeOrigin + now();

  /** A list the channel fills: no prototype, so no setter of the bot's is found on the way. */
  const list = () => setPrototype([], null);
  /** Bytes `from..to` of a typed array: a new view on the same memory (no species followed). */
  const part = (bytes, from, to) => new U8(bufferOf(bytes), offsetOf(bytes) + from, to - from);

  const WRITE = 0;
  const READ = 1;
  const PENDING = 2;
  // Set by the match worker at a deadline to stop the bot's code where it is (Pyodide reads it as
  // its interrupt buffer: SIGINT, 2, raises KeyboardInterrupt), cleared once it is seen.
  const INTERRUPT = 3;
  const HEADER_BYTES = 16;
  const HEAD = 16;
  const KIND = Object.freeze({
    __proto__: null,
    ready: 1, loading: 2, line: 3, stderr: 4, needInput: 5, exit: 6, flood: 7, received: 8,
  });
  // What a bot may write without reading its input, in bytes of UTF-8 (engine::referee::
  // MAX_AHEAD_LINES, MAX_AHEAD_BYTES, MAX_STDERR_FLOOD_BYTES): more is a flood, and the bot is
  // stopped.
  const MAX_AHEAD_LINES = 2000;
  const MAX_AHEAD_BYTES = 1024 * 1024;
  const MAX_STDERR_FLOOD_BYTES = 1024 * 1024;
  // The longest output line, in bytes of UTF-8 (engine::referee::MAX_LINE_BYTES): a longer one,
  // or as many bytes written without a newline, is a flood. Any other record's text is cut to
  // MAX_PIECE bytes.
  const MAX_LINE_BYTES = 64 * 1024;
  const MAX_PIECE = 64 * 1024;
  const LONG_LINE = `a line longer than ${MAX_LINE_BYTES} bytes`;
  // Debug-log bytes passed on between two reads (the referee keeps 16 KiB a turn).
  const MAX_STDERR_PER_READ = 64 * 1024;

  // The input ring: its buffer, its header, its data bytes' size. The output ring likewise.
  let input = null;
  let header = null;
  let capacity = 0;
  let output = null;
  let outHeader = null;
  let outCapacity = 0;
  let bell = null; // the doorbell
  // Without shared memory: the port to the match worker, and the service worker's address for
  // this bot's input.
  let port = null;
  let io = null;
  // Bytes taken from the input ring and not yet handed to the bot (a normal, unshared buffer).
  let pending = new U8(4096);
  let pendingStart = 0;
  let pendingEnd = 0;
  // Output since the last read of new input, in lines and bytes.
  let linesSinceRead = 0;
  let bytesSinceRead = 0;
  let stderrSinceRead = 0;
  const stampBytes = new U8(8);
  const stampFloat = new F64(bufferOf(stampBytes));
  const head = new U8(HEAD);

  /** Takes the rings (or the port) of the runtime's start message. */
  function open(message) {
    if (message.port) {
      port = message.port;
      io = toString(message.io);
      return;
    }
    input = message.input;
    header = new I32(input, 0, HEADER_BYTES / 4);
    capacity = byteCount(new U8(input)) - HEADER_BYTES;
    output = message.output;
    outHeader = new I32(output, 0, HEADER_BYTES / 4);
    outCapacity = byteCount(new U8(output)) - HEADER_BYTES;
    bell = new I32(message.doorbell, 0, 4);
  }

  function show(value) {
    if (typeof value === "string") return value;
    try {
      if (value instanceof ErrorType) return toString(value.stack || value);
      if (value !== null && typeof value === "object") return toString(jsonStringify(value));
      return toString(value);
    } catch (_) {
      return "[a value that cannot be shown]";
    }
  }

  // --- output -------------------------------------------------------------------------------

  /** The end of a cut at most `at` bytes into `bytes`, not inside a character. */
  function boundary(bytes, at) {
    if (at >= byteCount(bytes)) return byteCount(bytes);
    while (at > 0 && (bytes[at] & 0xc0) === 0x80) at -= 1;
    return at;
  }

  function copyOut(at, bytes) {
    const length = byteCount(bytes);
    let done = 0;
    while (done < length) {
      const offset = (at + done) & (outCapacity - 1);
      const run = mathMin(length - done, outCapacity - offset);
      u8Set(new U8(output, HEADER_BYTES + offset, run), part(bytes, done, done + run), 0);
      done += run;
    }
  }

  // Writes one record of UTF-8 bytes, waiting while the ring has no room (as a write to a full
  // pipe blocks).
  function recordBytes(kind, payload, stamp) {
    if (port) {
      const message = list();
      message[0] = kind;
      message[1] = decode(payload);
      message[2] = stamp;
      portPost(port, message);
      return;
    }
    const length = byteCount(payload);
    for (;;) {
      const write = A.load(outHeader, WRITE) >>> 0;
      const read = A.load(outHeader, READ) >>> 0;
      const used = (write - read) >>> 0;
      if (outCapacity - used >= HEAD + length) {
        stampFloat[0] = stamp;
        head[0] = kind;
        head[4] = length & 255;
        head[5] = (length >>> 8) & 255;
        head[6] = (length >>> 16) & 255;
        head[7] = (length >>> 24) & 255;
        for (let i = 0; i < 8; i++) head[8 + i] = stampBytes[i];
        copyOut(write, head);
        copyOut((write + HEAD) >>> 0, payload);
        A.store(outHeader, WRITE, (write + HEAD + length) | 0);
        A.add(bell, 0, 1);
        A.notify(bell, 0);
        return;
      }
      A.wait(outHeader, READ, read | 0, 100);
    }
  }

  // A record of text (cut to MAX_PIECE bytes).
  function record(kind, text, stamp) {
    const bytes = encode(text);
    recordBytes(kind, part(bytes, 0, boundary(bytes, MAX_PIECE)), stamp);
  }

  function exit(message) {
    record(KIND.exit, message, clock());
  }

  // --- input --------------------------------------------------------------------------------

  // Makes room in `pending` for `count` more bytes.
  function reserve(count) {
    if (pendingEnd + count <= byteCount(pending)) return;
    const keep = pendingEnd - pendingStart;
    const bigger = new U8(mathMax(byteCount(pending), (keep + count) * 2));
    u8Set(bigger, part(pending, pendingStart, pendingEnd), 0);
    pending = bigger;
    pendingStart = 0;
    pendingEnd = keep;
  }

  function readAgain() {
    linesSinceRead = 0;
    bytesSinceRead = 0;
    stderrSinceRead = 0;
  }

  function takeFromRing() {
    const write = A.load(header, WRITE) >>> 0;
    const read = A.load(header, READ) >>> 0;
    const count = mathMin((write - read) >>> 0, capacity);
    if (count === 0) return false;
    reserve(count);
    const from = read & (capacity - 1);
    const first = mathMin(count, capacity - from);
    u8Set(pending, new U8(input, HEADER_BYTES + from, first), pendingEnd);
    if (first < count) {
      u8Set(pending, new U8(input, HEADER_BYTES, count - first), pendingEnd + first);
    }
    pendingEnd += count;
    A.store(header, READ, (read + count) | 0);
    readAgain();
    return true;
  }

  // Without shared memory: waits for input from the service worker (a synchronous request).
  function fetchInput() {
    for (;;) {
      const began = clock();
      const request = new XHR();
      let status = 0;
      let text = "";
      try {
        xhrOpen(request, "GET", io, false);
        xhrSend(request);
        status = xhrStatus(request);
        text = status === 200 ? xhrText(request) : "";
      } catch (error) {
        status = -1;
        text = show(error);
      }
      if (status === 204) continue;
      if (status !== 200) {
        exit(
          "the bot could not read its input: the page's service worker did not answer (" +
            (status < 0 ? text : "status " + status) + ")",
        );
        hold();
      }
      record(KIND.received, toString(began), clock());
      const bytes = encode(text);
      const count = byteCount(bytes);
      reserve(count);
      u8Set(pending, bytes, pendingEnd);
      pendingEnd += count;
      readAgain();
      return;
    }
  }

  // Waits until the match worker sent more input (at least one byte is pending), or, on shared
  // memory, until `until` (a time of `clock()`) if one is given; whether input is pending.
  function waitForInput(until = Infinity) {
    for (;;) {
      if (port) {
        fetchInput();
        return true;
      }
      if (takeFromRing()) return true;
      const seen = A.load(header, WRITE);
      if (seen !== A.load(header, READ)) continue;
      const left = until - clock();
      if (left <= 0) return false;
      if (A.load(header, PENDING) === 1) record(KIND.needInput, "", clock());
      A.wait(header, WRITE, seen, left === Infinity ? undefined : left);
    }
  }

  // What Pyodide takes for its interrupt buffer (`setInterruptBuffer`): an object whose cell 0
  // reads the ring's INTERRUPT cell and, written, clears it. Not a view of the ring: the bot can
  // reach what Pyodide keeps, and must not reach its rings. Null without shared memory (no one
  // can reach a busy worker then). Pyodide reads the cell and then writes 0 to it, often (every
  // few bytecodes): only an interrupt it has read is cleared, so that one the match worker
  // stores between the two is not lost.
  function interruptSignal() {
    if (port || !header) return null;
    const signal = Object.create(null);
    let seen = 0;
    Object.defineProperty(signal, "0", {
      get: () => (seen = A.load(header, INTERRUPT)),
      set: () => {
        if (seen !== 0) A.store(header, INTERRUPT, 0);
        seen = 0;
      },
    });
    return Object.freeze(signal);
  }

  /** How many input bytes are pending (taken from the ring, not yet read by the bot). */
  function pendingInput() {
    if (!port) takeFromRing();
    return pendingEnd - pendingStart;
  }

  // Sleeps until `until` (a time of `clock()`): on a cell no one wakes, or, without shared
  // memory, by watching the clock.
  let sleeper = null;
  function sleepUntil(until) {
    for (let left = until - clock(); left > 0; left = until - clock()) {
      if (!SAB) continue;
      sleeper = sleeper || new I32(new SAB(4));
      A.wait(sleeper, 0, 0, left);
    }
  }

  // The next input line, without its line ending; blocks until the match worker sends it.
  function readline() {
    for (;;) {
      const newline = u8IndexOf(part(pending, pendingStart, pendingEnd), 10);
      if (newline >= 0) {
        let end = pendingStart + newline;
        const next = end + 1;
        if (end > pendingStart && pending[end - 1] === 13) end -= 1;
        const line = decode(part(pending, pendingStart, end));
        pendingStart = next;
        if (pendingStart === pendingEnd) pendingStart = pendingEnd = 0;
        return line;
      }
      waitForInput();
    }
  }

  // Input bytes as a pipe gives them (for WASI's fd_read): as many as are there, at most the
  // size of `into`, waiting for the next input when none is; returns how many were copied.
  function readInto(into) {
    if (pendingStart === pendingEnd) waitForInput();
    const count = mathMin(byteCount(into), pendingEnd - pendingStart);
    u8Set(into, part(pending, pendingStart, pendingStart + count), 0);
    pendingStart += count;
    if (pendingStart === pendingEnd) pendingStart = pendingEnd = 0;
    return count;
  }

  // --- what the bot writes ------------------------------------------------------------------

  // The bot wrote more than it may without reading its input: the match worker hears why and
  // has the worker stopped; until then the bot is held still here (no CPU), whatever its code
  // would do.
  let holder = null;
  function hold() {
    if (SAB && !port) {
      holder = holder || new I32(new SAB(4));
      for (;;) A.wait(holder, 0, 0);
    }
    // Without shared memory: a request the service worker holds (or, failing that, a loop).
    for (;;) {
      try {
        const request = new XHR();
        xhrOpen(request, "GET", io + "?hold", false);
        xhrSend(request);
      } catch (_) {
        for (;;) {
          /* until the worker is stopped */
        }
      }
    }
  }
  function flood(message) {
    record(KIND.flood, message, clock());
    hold();
  }

  // Counts output about to be written: `lines` lines of `bytes` bytes in all (with newlines).
  function countOutput(lines, bytes) {
    if (linesSinceRead + lines > MAX_AHEAD_LINES) {
      flood(`more than ${MAX_AHEAD_LINES} lines written without reading its input`);
    }
    if (bytesSinceRead + bytes > MAX_AHEAD_BYTES) {
      flood("more than 1 MiB of output written without reading its input (a loop that prints and never reads its next input?)");
    }
    linesSinceRead += lines;
    bytesSinceRead += bytes;
  }

  // One output line of UTF-8 bytes (without its newline), stamped now.
  function writeLine(bytes) {
    let end = byteCount(bytes);
    if (end > 0 && bytes[end - 1] === 13) end -= 1;
    if (end > MAX_LINE_BYTES) flood(LONG_LINE);
    recordBytes(KIND.line, part(bytes, 0, end), clock());
  }

  // Debug-log text, counted in bytes; at most MAX_STDERR_PER_READ bytes are passed on between
  // two reads, in records of at most MAX_PIECE bytes, each cut between two characters.
  function writeDebugText(text) {
    const bytes = encode(text);
    const length = byteCount(bytes);
    const before = stderrSinceRead;
    stderrSinceRead += length;
    if (stderrSinceRead > MAX_STDERR_FLOOD_BYTES) {
      flood("more than 1 MiB of debug log written without reading its input (a loop that prints and never reads its next input?)");
    }
    if (before >= MAX_STDERR_PER_READ) return;
    const keep = boundary(bytes, MAX_STDERR_PER_READ - before);
    for (let from = 0; from < keep; ) {
      const end = from + MAX_PIECE >= keep ? keep : boundary(bytes, from + MAX_PIECE);
      recordBytes(KIND.stderr, part(bytes, from, end), 0);
      from = end;
    }
  }

  // Standard output as bytes, as a program writes them (Python's, WASI's fd_write on 1): each
  // line as it is completed; a line is kept here until its newline, and more than
  // MAX_LINE_BYTES bytes without one is a flood.
  let outLine = new U8(4096);
  let outLineEnd = 0;
  function writeOutputBytes(bytes) {
    const length = byteCount(bytes);
    let from = 0;
    while (from < length) {
      const newline = u8IndexOf(part(bytes, from, length), 10);
      const end = newline < 0 ? length : from + newline;
      const count = end - from;
      if (outLineEnd + count > MAX_LINE_BYTES + 1) flood(LONG_LINE);
      if (outLineEnd + count > byteCount(outLine)) {
        const bigger = new U8(mathMin(MAX_LINE_BYTES + 1, (outLineEnd + count) * 2));
        u8Set(bigger, part(outLine, 0, outLineEnd), 0);
        outLine = bigger;
      }
      u8Set(outLine, part(bytes, from, end), outLineEnd);
      outLineEnd += count;
      if (newline < 0) break;
      countOutput(1, outLineEnd + 1);
      writeLine(part(outLine, 0, outLineEnd));
      outLineEnd = 0;
      from = end + 1;
    }
    return length;
  }

  // The end of the program's output: a last line without its newline is a line, as from a pipe.
  function endOutput() {
    if (outLineEnd === 0) return;
    countOutput(1, outLineEnd);
    writeLine(part(outLine, 0, outLineEnd));
    outLineEnd = 0;
  }

  // Standard error as bytes: passed on as they come.
  function writeDebugBytes(bytes) {
    writeDebugText(decodeStream(bytes, STREAM));
    return byteCount(bytes);
  }

  return Object.freeze({
    __proto__: null,
    KIND,
    uncurry,
    getter,
    list,
    part,
    encode,
    decode,
    byteCount,
    u8Set,
    u8IndexOf,
    clock,
    open,
    usesPort: () => port !== null,
    show,
    record,
    recordBytes,
    exit,
    readline,
    readInto,
    waitForInput,
    pendingInput,
    interruptSignal,
    sleepUntil,
    hold,
    flood,
    countOutput,
    writeLine,
    writeDebugText,
    writeOutputBytes,
    endOutput,
    writeDebugBytes,
  });
};
