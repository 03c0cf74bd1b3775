// The runtime of a JavaScript, TypeScript or Python bot: one Web Worker runs one bot, as
// CodinGame runs it.
// The match host (www/match-host.js) starts it from this text; the match worker
// (src/bin/match_worker.rs) is the other end of its two rings.
//
// A JavaScript bot calls a global, blocking `readline()` for each input line, writes its answer
// with `console.log(...)` (or `print(...)`) and its debug log with `console.error(...)`.
// A TypeScript bot is the same, once Sucrase (www/editor/typescript.js, its text sent by the page
// with the start message) has made it JavaScript, here before the bot starts (not counted against
// it). Lines stay where they were, so a fault's "line N" is the TypeScript line; columns move
// where types were removed, so a TypeScript bot's faults name the line alone.
// A Python bot runs in Pyodide (its files are sent by the page, loaded before the match starts):
// `input()` and `sys.stdin` block on the same `readline()`, `print()` writes output lines,
// `sys.stderr` is the debug log; the standard library is there. Its memory is capped at
// PYTHON_MEMORY_BYTES (as on CodinGame): beyond it Python raises MemoryError.
//
// Input: the match worker writes each turn's text into a SharedArrayBuffer ring and wakes this
// worker; `readline()` sleeps in `Atomics.wait` until a whole line is there.
//
// Without shared memory (the start message has a `port` instead of rings: WebKitGTK as shipped,
// a page that is not cross-origin isolated), the same records are posted on that MessagePort to
// the match worker, as [kind, text, stamp], and `readline()` blocks in a synchronous request to
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
// Integrity: the bot's code runs in this worker's global scope, so everything the runtime uses
// is taken before the bot's code runs (the primordials below); a bot that replaces
// `Atomics.wait`, a typed array's `length` or `Symbol.species`, or any other global changes only
// what its own code sees. The rings are reachable only from this closure. The match worker checks
// every record again where it receives it, and believes a line's stamp only within what it saw
// itself (src/match_host/driver.rs): a forged stamp cannot buy a bot time. Lengths are bytes of
// UTF-8 everywhere.
//
// The sandbox (closeSandbox, once the runtime and Pyodide are loaded, before the bot's code
// runs): of everything the browser puts into a worker, only the JavaScript built-ins and a short
// list of harmless facilities (KEEP) are left, on the global object and on its prototypes; the
// rest (fetch, XMLHttpRequest, WebSocket, EventSource, WebTransport, importScripts, Worker,
// SharedWorker, postMessage, BroadcastChannel, indexedDB, caches, the file system APIs, and
// whatever a later browser adds) is deleted. `navigator` becomes a frozen object with a few
// plain facts. Python's `js` module is this same global. The page's Content-Security-Policy is
// the second wall: no connection but to the page's own origin, no `eval`. See SECURITY.md.
"use strict";

(() => {

// --- what the runtime uses, taken before anything else runs ---------------------------------
//
// The primordials discipline (as Node.js keeps its own internals): every method and accessor the
// runtime calls once the bot's code has started is taken here, uncurried, so that it is called
// on its receiver without any property lookup a bot could redirect. Two things are never done
// after the start: reading an inherited accessor through a property (a typed array's `length`,
// `buffer`, `byteOffset`: the getters below are called instead), and calling a method that
// follows `Symbol.species` or `constructor` (`subarray`, `slice`, `map`...): a part of a typed
// array is a new view made with the constructor taken here. Arrays the runtime fills have no
// prototype. Hardened JavaScript's `lockdown()` would freeze the intrinsics instead, which breaks
// the common contest habit of adding a method to `Array.prototype` (SECURITY.md).

const uncurry = Function.prototype.bind.bind(Function.prototype.call);
const describeOwn = Object.getOwnPropertyDescriptor;
const defineOwn = Object.defineProperty;
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
// (Absent where the browser gives no shared memory: the runtime then works on messages.)
const SAB = typeof SharedArrayBuffer === "function" ? SharedArrayBuffer : null;
const portPost = uncurry(MessagePort.prototype.postMessage);
const XHR = self.XMLHttpRequest;
const xhrOpen = XHR && uncurry(XHR.prototype.open);
const xhrSend = XHR && uncurry(XHR.prototype.send);
const xhrStatus = XHR && getter(XHR.prototype, "status");
const xhrText = XHR && getter(XHR.prototype, "responseText");
const strIndexOf = uncurry(String.prototype.indexOf);
const strSlice = uncurry(String.prototype.slice);
const strStartsWith = uncurry(String.prototype.startsWith);
const strSplit = uncurry(String.prototype.split);
const strTrimEnd = uncurry(String.prototype.trimEnd);
const strReplace = uncurry(String.prototype.replace);
const regexpExec = uncurry(RegExp.prototype.exec);
const arrayJoin = uncurry(Array.prototype.join);
const setPrototype = Object.setPrototypeOf;
const toString = String;
const jsonStringify = JSON.stringify;
const mathMin = Math.min;
const mathMax = Math.max;
const ErrorType = Error;
const SyntaxErrorType = SyntaxError;
const RangeErrorType = RangeError;
const encode = uncurry(TextEncoder.prototype.encode, new TextEncoder());
const decode = uncurry(TextDecoder.prototype.decode, new TextDecoder());
// Debug-log bytes come in pieces that may cut a character: decoded as a stream.
const decodeStream = uncurry(TextDecoder.prototype.decode, new TextDecoder());
const STREAM = Object.freeze({ __proto__: null, stream: true });
const now = uncurry(Performance.prototype.now, performance);
const timeOrigin = performance.timeOrigin;
const clock = () => timeOrigin + now();
const importScriptsOriginal = self.importScripts;
const importScriptsNow = (url) => uncurry(importScriptsOriginal, self)(url);
const createObjectURL = URL.createObjectURL;
const revokeObjectURL = URL.revokeObjectURL;
const BlobType = Blob;
const makeBlobUrl = (text) => createObjectURL(new BlobType([text], { type: "text/javascript" }));
// Pyodide's files come as Blobs (the page sends them without copying); read before the bot runs.
const blobText = uncurry(Blob.prototype.text);
const memoryGrow = uncurry(WebAssembly.Memory.prototype.grow);
const memoryBuffer = getter(WebAssembly.Memory.prototype, "buffer");
const arrayBufferLength = getter(ArrayBuffer.prototype, "byteLength");

/** A list the runtime fills: no prototype, so no setter of the bot's is found on the way. */
const list = () => setPrototype([], null);
/** Bytes `from..to` of a typed array: a new view on the same memory (no species followed). */
const part = (bytes, from, to) => new U8(bufferOf(bytes), offsetOf(bytes) + from, to - from);

// What the browser puts into a worker, before anything of ours or Pyodide's: the names the
// sandbox considers (names Pyodide adds later are its own and stay).
const PLATFORM = new Map();
for (let o = self; o && o !== Object.prototype; o = Object.getPrototypeOf(o)) {
  PLATFORM.set(o, new Set(Object.getOwnPropertyNames(o)));
}

const WRITE = 0;
const READ = 1;
const PENDING = 2;
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
// Python's memory, at most (CodinGame gives 768 MB).
const PYTHON_MEMORY_BYTES = 768 * 1024 * 1024;
const SOURCE_NAME = "bot.js";
const TYPESCRIPT_SOURCE_NAME = "bot.ts";
const PYTHON_SOURCE_NAME = "bot.py";

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
// Bytes taken from the input ring and not yet returned as lines (a normal, unshared buffer).
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

// --- output ---------------------------------------------------------------------------------

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

// --- input ----------------------------------------------------------------------------------

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

function takeFromRing() {
  const write = A.load(header, WRITE) >>> 0;
  const read = A.load(header, READ) >>> 0;
  const count = mathMin((write - read) >>> 0, capacity);
  if (count === 0) return false;
  reserve(count);
  const from = read & (capacity - 1);
  const first = mathMin(count, capacity - from);
  u8Set(pending, new U8(input, HEADER_BYTES + from, first), pendingEnd);
  if (first < count) u8Set(pending, new U8(input, HEADER_BYTES, count - first), pendingEnd + first);
  pendingEnd += count;
  A.store(header, READ, (read + count) | 0);
  linesSinceRead = 0;
  bytesSinceRead = 0;
  stderrSinceRead = 0;
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
    linesSinceRead = 0;
    bytesSinceRead = 0;
    stderrSinceRead = 0;
    return;
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
    if (port) {
      fetchInput();
      continue;
    }
    if (takeFromRing()) continue;
    const seen = A.load(header, WRITE);
    if (seen !== A.load(header, READ)) continue;
    if (A.load(header, PENDING) === 1) record(KIND.needInput, "", clock());
    A.wait(header, WRITE, seen);
  }
}

// --- what the bot writes --------------------------------------------------------------------

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

function joined(args) {
  let text = "";
  for (let i = 0; i < args.length; i++) text += (i ? " " : "") + show(args[i]);
  return text;
}

// The bot wrote more than it may without reading its input: the match worker hears why and has
// the worker stopped; until then the bot is held still here (no CPU), whatever its code would do.
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

// Counts output about to be written: `lines` lines of `bytes` bytes in all (with their newlines).
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

// What one `console.log` writes: counted whole first, so that a call that would go over a cap is
// a flood before any of its lines is passed on.
function writeLines(args) {
  const bytes = encode(joined(args));
  const length = byteCount(bytes);
  let count = 1;
  for (let at = u8IndexOf(bytes, 10); at >= 0; at = u8IndexOf(bytes, 10, at + 1)) count += 1;
  countOutput(count, length + 1);
  let from = 0;
  for (;;) {
    const end = u8IndexOf(bytes, 10, from);
    if (end < 0) return writeLine(part(bytes, from, length));
    writeLine(part(bytes, from, end));
    from = end + 1;
  }
}

// Debug-log text, counted in bytes; at most MAX_STDERR_PER_READ bytes are passed on between two
// reads, in records of at most MAX_PIECE bytes, each cut between two characters.
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

function writeDebug(args) {
  writeDebugText(joined(args) + "\n");
}

function exit(message) {
  record(KIND.exit, message, clock());
}

// Python's standard output as bytes, as Python writes them: each line as it is completed; a line
// is kept here until its newline, and more than MAX_LINE_BYTES bytes without one is a flood.
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

// The end of Python's output: a last line without its newline is a line, as from a pipe.
function endOutput() {
  if (outLineEnd === 0) return;
  countOutput(1, outLineEnd);
  writeLine(part(outLine, 0, outLineEnd));
  outLineEnd = 0;
}

// Python's standard error as bytes: passed on as they come.
function writeDebugBytes(bytes) {
  writeDebugText(decodeStream(bytes, STREAM));
  return byteCount(bytes);
}

// --- running the bot ------------------------------------------------------------------------

const PLACE = /^(\d+):(\d+)/;
const IMPORT_SCRIPTS_WORDS = /^Failed to execute 'importScripts' on 'WorkerGlobalScope': /;
const END_OF_INPUT = /end of input/;

// "TypeError: x is undefined (line 12, column 3)": the message and where in the bot (its code
// running as `name`) it happened; the line alone when `columns` are not the code's own.
function describe(error, name, columns) {
  if (!(error instanceof ErrorType)) return "the bot threw " + show(error);
  const stack = toString(error.stack || "");
  const at = strIndexOf(stack, name + ":");
  const head = toString(error.name) + ": " + toString(error.message);
  if (at < 0) return head;
  const place = regexpExec(PLACE, strSlice(stack, at + name.length + 1));
  if (!place) return head;
  return head + " (line " + place[1] + (columns ? ", column " + place[2] + ")" : ")");
}

// What a bot keeps of the browser's worker: the JavaScript built-ins, and facilities that reach
// nothing outside the worker (text, numbers, time, randomness, timers, in-memory data).
const KEEP = new Set([
  // ECMAScript
  "globalThis", "Infinity", "NaN", "undefined", "eval", "isFinite", "isNaN", "parseFloat",
  "parseInt", "decodeURI", "decodeURIComponent", "encodeURI", "encodeURIComponent", "escape",
  "unescape", "Object", "Function", "Boolean", "Symbol", "Error", "AggregateError", "EvalError",
  "RangeError", "ReferenceError", "SyntaxError", "TypeError", "URIError", "SuppressedError",
  "Number", "BigInt", "Math", "Date", "String", "RegExp", "Array", "Int8Array", "Uint8Array",
  "Uint8ClampedArray", "Int16Array", "Uint16Array", "Int32Array", "Uint32Array", "Float16Array",
  "Float32Array", "Float64Array", "BigInt64Array", "BigUint64Array", "Map", "Set", "WeakMap",
  "WeakSet", "WeakRef", "FinalizationRegistry", "ArrayBuffer", "SharedArrayBuffer", "DataView",
  "Atomics", "JSON", "Promise", "Reflect", "Proxy", "Intl", "Iterator", "DisposableStack",
  "AsyncDisposableStack", "Temporal", "WebAssembly",
  // The worker itself, its console, clock, timers and events
  "self", "name", "location", "console", "performance", "setTimeout", "clearTimeout",
  "setInterval", "clearInterval", "queueMicrotask", "structuredClone", "reportError", "close",
  "onmessage", "onmessageerror", "onerror", "onunhandledrejection", "onrejectionhandled",
  "addEventListener", "removeEventListener", "dispatchEvent", "Event", "EventTarget",
  "ErrorEvent", "MessageEvent", "PromiseRejectionEvent", "CustomEvent", "DOMException",
  "AbortController", "AbortSignal", "MessageChannel", "MessagePort", "crossOriginIsolated",
  "isSecureContext", "origin",
  // Text, bytes, randomness, in-memory data
  "TextEncoder", "TextDecoder", "TextEncoderStream", "TextDecoderStream", "atob", "btoa",
  "crypto", "Crypto", "SubtleCrypto", "CryptoKey", "URL", "URLSearchParams", "Blob", "File",
  "FileReader", "FileReaderSync", "ReadableStream", "ReadableStreamDefaultReader",
  "ReadableStreamBYOBReader", "ReadableStreamDefaultController", "ReadableByteStreamController",
  "ReadableStreamBYOBRequest", "WritableStream", "WritableStreamDefaultWriter",
  "WritableStreamDefaultController", "TransformStream", "TransformStreamDefaultController",
  "ByteLengthQueuingStrategy", "CountQueuingStrategy", "CompressionStream",
  "DecompressionStream",
]);

function closeSandbox() {
  const hide = (owner, name) => {
    try {
      delete owner[name];
    } catch (_) {
      /* not configurable */
    }
    if (Object.prototype.hasOwnProperty.call(owner, name)) {
      try {
        Object.defineProperty(owner, name, { value: undefined, writable: false });
      } catch (_) {
        /* neither deletable nor redefinable: left as is */
      }
    }
  };
  const facts = {
    userAgent: navigator.userAgent,
    language: navigator.language,
    languages: Object.freeze([...navigator.languages]),
    hardwareConcurrency: navigator.hardwareConcurrency,
    platform: navigator.platform,
    onLine: false,
  };
  for (const [owner, names] of PLATFORM) {
    for (const name of names) {
      if (!KEEP.has(name) && name !== "constructor") hide(owner, name);
    }
  }
  Object.defineProperty(self, "navigator", { value: Object.freeze(facts), enumerable: true });
}

function installConsole() {
  const console = self.console;
  const log = (...args) => writeLines(args);
  const debug = (...args) => writeDebug(args);
  console.log = log;
  console.info = log;
  console.debug = log;
  console.error = debug;
  console.warn = debug;
  console.trace = debug;
  self.print = log;
  self.printErr = debug;
  self.readline = readline;
}

// The line of a syntax error, which importScripts does not report: the first line at which the
// code up to it, wrapped in a function that is never called, fails with the same message. 0 when
// not found.
function syntaxErrorLine(code, message) {
  let end = -1;
  for (let n = 1; n <= 5000; n++) {
    end = strIndexOf(code, "\n", end + 1);
    const prefix = end < 0 ? code : strSlice(code, 0, end);
    const url = makeBlobUrl("(function () {" + prefix + "\n});");
    try {
      importScriptsNow(url);
    } catch (e) {
      if (e instanceof SyntaxErrorType && toString(e.message) === message) return n;
    } finally {
      revokeObjectURL(url);
    }
    if (end < 0) break;
  }
  return 0;
}

// Runs the bot's JavaScript, named `name` in its stack traces (`columns`: as the person wrote
// it, so that a fault may name the column).
function run(code, name, columns) {
  // The bot's code is a script of its own (no eval: the page's policy forbids it).
  const url = makeBlobUrl(code + "\n//# sourceURL=" + name + "\n");
  installConsole();
  record(KIND.ready, "", clock());
  closeSandbox();
  try {
    importScriptsNow(url);
    exit("the bot's program ended (its code returned)");
  } catch (error) {
    if (error instanceof SyntaxErrorType) {
      const message = strReplace(toString(error.message), IMPORT_SCRIPTS_WORDS, "");
      const line = syntaxErrorLine(code, error.message);
      let text = "SyntaxError: " + message;
      // (A syntax error Sucrase let through: its line is the TypeScript's too.)
      if (line) text += " (line " + line + ")";
      else if (regexpExec(END_OF_INPUT, message) !== null) {
        text += " (the code ends before a bracket, brace or quote is closed)";
      }
      return exit(text);
    }
    exit(describe(error, name, columns));
  }
}

// Sucrase's "Unexpected token (3:9)": its line and column, as JavaScript's faults say them.
const SUCRASE_PLACE = / \((\d+):(\d+)\)$/;

// A TypeScript bot: Sucrase's transform (the text of www/editor/typescript.js, sent by the page)
// makes it JavaScript, which then runs as a JavaScript bot. A syntax error Sucrase finds is the
// bot's crash, with its line, as a JavaScript bot's is.
function runTypeScript(code, transformer) {
  let transform;
  try {
    importScriptsNow(makeBlobUrl(toString(transformer)));
    transform = self.botplayTypeScript;
    delete self.botplayTypeScript;
    if (typeof transform !== "function") throw new ErrorType("no botplayTypeScript in it");
  } catch (error) {
    return exit("TypeScript could not be loaded (Sucrase, typescript.js): " + show(error));
  }
  let js;
  try {
    js = toString(transform(code));
  } catch (error) {
    const message = toString((error && error.message) || error);
    const place = regexpExec(SUCRASE_PLACE, message);
    let text = "SyntaxError: " + (place ? strSlice(message, 0, place.index) : message);
    if (place) text += " (line " + place[1] + ", column " + place[2] + ")";
    record(KIND.ready, "", clock());
    return exit(text);
  }
  run(js, TYPESCRIPT_SOURCE_NAME, false);
}

// A traceback's frame in the runtime's own Python code (Pyodide's `_pyodide` and `pyodide`
// packages: how the bot's code was started, the import hook), not the bot's: left out.
const RUNTIME_FRAME = /^ {2}File "[^"]*\/_?pyodide\//;
const BOT_FRAME = /^ {2}File "bot\.py", line (\d+)/;
// Pyodide's words for a module of its distribution that is not installed, after "No module
// named 'numpy'" (its advice, micropip and loadPackage, cannot work in a bot's worker).
const NOT_INSTALLED = /^(?:ModuleNotFoundError: )?The module '([^']+)' is included in the Pyodide distribution, but it is not installed\.$/;
const unavailable = (name) =>
  "ModuleNotFoundError: No module named '" + name + "': " + name + " is not available in this " +
  "page, only Python's standard library is (for numbers in bulk: lists, and the math, " +
  "statistics, array, itertools and heapq modules)";

// What a Python exception says, for the fault and the debug log: "ZeroDivisionError: division
// by zero (line 7)", where the line is the bot's own (its last frame in the traceback), and the
// traceback without the runtime's frames, the bot's file named bot.py. A module Pyodide knows
// but the page does not install (numpy, for one) is said plainly to be unavailable here.
function describePython(error) {
  const lines = strSplit(strTrimEnd(toString((error && error.message) || error)), "\n");
  const kept = list();
  let frame = false; // inside a frame's lines (its "File" line, then lines indented by 4)
  let keep = true; // that frame is kept
  let line = "";
  let exception = -1; // where in `kept` the last exception's first line is
  let skipAdvice = false;
  for (let i = 0; i < lines.length; i++) {
    let text = lines[i];
    if (strStartsWith(text, '  File "')) {
      frame = true;
      keep = regexpExec(RUNTIME_FRAME, text) === null;
      const bot = regexpExec(BOT_FRAME, text);
      if (bot) line = bot[1];
      exception = -1;
      skipAdvice = false;
    } else if (frame && strStartsWith(text, "    ")) {
      // the frame's source line and its markers
    } else {
      frame = false;
      keep = true;
      if (skipAdvice) {
        if (text !== "" && !strStartsWith(text, "Traceback") && !strStartsWith(text, "During handling")) continue;
        skipAdvice = false;
      }
      const missing = regexpExec(NOT_INSTALLED, text);
      if (missing && exception >= 0) {
        // "No module named 'numpy'", then Pyodide's explanation: one plain sentence instead.
        kept[exception] = unavailable(missing[1]);
        skipAdvice = true;
        continue;
      }
      if (exception < 0 && text !== "" && !strStartsWith(text, "Traceback") && !strStartsWith(text, " ")) {
        if (missing) {
          text = unavailable(missing[1]);
          skipAdvice = true;
        }
        exception = kept.length;
      }
    }
    if (keep) kept[kept.length] = text;
  }
  const summary = (exception >= 0 ? kept[exception] : "") || "the bot raised an exception";
  const described = list();
  described[0] = line ? summary + " (line " + line + ")" : summary;
  described[1] = arrayJoin(kept, "\n");
  return described;
}

// Python's heap is a WebAssembly.Memory that Pyodide grows from JavaScript (Emscripten's
// `emscripten_resize_heap`), up to the heap's maximum, which Emscripten compiles into the module
// as `getHeapMax`. Both are set to the cap: the heap's maximum in Pyodide's text (so that
// Emscripten grows to the cap exactly and refuses a request beyond it: Python's MemoryError),
// and the growth itself, fixed in place so that no bot can undo it.
const HEAP_MAX = /getHeapMax=\(\)=>(\d+)/;
function capHeapMax(text) {
  const found = regexpExec(HEAP_MAX, text);
  if (found === null) throw new ErrorType("Pyodide's heap maximum (getHeapMax) was not found");
  return strReplace(text, HEAP_MAX, "getHeapMax=()=>" + PYTHON_MEMORY_BYTES);
}
function capMemory() {
  const grow = function (delta) {
    const size = arrayBufferLength(memoryBuffer(this));
    if (size + delta * 65536 > PYTHON_MEMORY_BYTES) {
      throw new RangeErrorType("botplay: a Python bot may use at most 768 MB");
    }
    return memoryGrow(this, delta);
  };
  defineOwn(WebAssembly.Memory.prototype, "grow", {
    value: grow,
    writable: false,
    configurable: false,
  });
}

async function runPython(code, files) {
  record(KIND.loading, "loading Python (Pyodide)…", clock());
  let pyodide;
  capMemory();
  const text = (name) => blobText(files[name]);
  try {
    // Pyodide asks for its files by URL; they were sent by the page with the start message.
    self.fetch = async (url) => {
      const name = toString(url).split("/").pop();
      if (!files[name]) throw new TypeError("botplay: no such Python file: " + name);
      const type = name.endsWith(".wasm") ? "application/wasm" : "application/octet-stream";
      return new Response(files[name], { headers: { "Content-Type": type } });
    };
    importScriptsNow(makeBlobUrl(await text("pyodide.js")));
    const asm = await import(makeBlobUrl(capHeapMax(await text("pyodide.asm.mjs"))));
    pyodide = await self.loadPyodide({
      indexURL: "https://pyodide.invalid/",
      createPyodideModule: asm.default,
      lockFileContents: await text("pyodide-lock.json"),
      // Nothing is printed while loading: stdout belongs to the protocol.
      stdout: () => {},
      stderr: () => {},
    });
  } catch (error) {
    exit("Python could not be loaded: " + show(error));
    return;
  } finally {
    // The files' fetch served Pyodide only: the bot gets no fetch at all.
    delete self.fetch;
  }
  // input() and sys.stdin block on the ring; an empty line stays a line (never end of file).
  // Lines are handed over in as many reads as Python asks for: a line longer than Python's read
  // buffer (8 KiB) must not be cut (Crafting Quest 3 sends lines of 20 KB and more).
  let line = new U8(0);
  let at = 0;
  pyodide.setStdin({
    read(buffer) {
      if (at >= byteCount(line)) {
        line = encode(readline() + "\n");
        at = 0;
      }
      const n = mathMin(byteCount(buffer), byteCount(line) - at);
      u8Set(buffer, part(line, at, at + n), 0);
      at += n;
      return n;
    },
    isatty: false,
  });
  // Output as bytes, as Python writes them (not Pyodide's batches, which keep an unfinished
  // line in a list of characters without bound).
  pyodide.setStdout({ write: writeOutputBytes, isatty: false });
  pyodide.setStderr({ write: writeDebugBytes, isatty: false });
  // Taken now: the bot can reach the Pyodide object (`pyodide_js`) and replace its methods.
  const runPython = uncurry(pyodide.runPython, pyodide);
  self.readline = readline;
  record(KIND.ready, "", clock());
  closeSandbox();
  try {
    runPython(code, { filename: PYTHON_SOURCE_NAME });
    runPython("import sys; sys.stdout.flush(); sys.stderr.flush()");
    endOutput();
    exit("the bot's program ended (its code returned)");
  } catch (error) {
    endOutput();
    const described = describePython(error);
    writeDebugText(described[1] + "\n");
    exit(described[0]);
  }
}

self.onmessage = (event) => {
  const message = event.data;
  if (!message || message.type !== "start") return;
  self.onmessage = null;
  if (message.port) {
    port = message.port;
    io = toString(message.io);
    start(message);
    return;
  }
  input = message.input;
  header = new I32(input, 0, HEADER_BYTES / 4);
  capacity = byteCount(new U8(input)) - HEADER_BYTES;
  output = message.output;
  outHeader = new I32(output, 0, HEADER_BYTES / 4);
  outCapacity = byteCount(new U8(output)) - HEADER_BYTES;
  bell = new I32(message.doorbell, 0, 4);
  start(message);
};

// The bot in its language: `files` are Pyodide's files (Python) or Sucrase's text (TypeScript).
function start(message) {
  const code = toString(message.code);
  if (message.language === "python") return runPython(code, message.files || {});
  if (message.language === "typescript") return runTypeScript(code, message.files);
  run(code, SOURCE_NAME, true);
}
})();
