// The runtime of a JavaScript or Python bot: one Web Worker runs one bot, as CodinGame runs it.
// The match host (www/match-host.js) starts it from this text; the match worker
// (src/bin/match_worker.rs) is the other end of its two rings.
//
// A JavaScript bot calls a global, blocking `readline()` for each input line, writes its answer
// with `console.log(...)` (or `print(...)`) and its debug log with `console.error(...)`.
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
//          5 need-input, 6 exit (how the program ended), 7 flood (what the bot wrote too much of)
//
// Integrity: the bot's code runs in this worker's global scope, so everything the runtime uses
// is taken before the bot's code runs (the functions below, called through `call` bound to the
// originals); a bot that replaces `Atomics.wait`, `Uint8Array.prototype.set` or any other
// global changes only what its own code sees. The rings are reachable only from this closure.
// The match worker checks every record again where it receives it.
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

const uncurry = Function.prototype.bind.bind(Function.prototype.call);
const A = {
  load: Atomics.load,
  store: Atomics.store,
  wait: Atomics.wait,
  notify: Atomics.notify,
  add: Atomics.add,
};
const U8 = Uint8Array;
const I32 = Int32Array;
const F64 = Float64Array;
// (Absent where the browser gives no shared memory: the runtime then works on messages.)
const SAB = typeof SharedArrayBuffer === "function" ? SharedArrayBuffer : null;
const portPost = uncurry(MessagePort.prototype.postMessage);
const XHR = self.XMLHttpRequest;
const xhrOpen = XHR && uncurry(XHR.prototype.open);
const xhrSend = XHR && uncurry(XHR.prototype.send);
const xhrStatus = XHR && Object.getOwnPropertyDescriptor(XHR.prototype, "status").get;
const xhrText = XHR && Object.getOwnPropertyDescriptor(XHR.prototype, "responseText").get;
const callGetter = (getter, target) => uncurry(getter)(target);
const u8Set = uncurry(Uint8Array.prototype.set);
const u8Sub = uncurry(Uint8Array.prototype.subarray);
const u8IndexOf = uncurry(Uint8Array.prototype.indexOf);
const strIndexOf = uncurry(String.prototype.indexOf);
const strSlice = uncurry(String.prototype.slice);
const strEndsWith = uncurry(String.prototype.endsWith);
const strStartsWith = uncurry(String.prototype.startsWith);
const strSplit = uncurry(String.prototype.split);
const strTrimEnd = uncurry(String.prototype.trimEnd);
const regexpExec = uncurry(RegExp.prototype.exec);
const arrayPush = uncurry(Array.prototype.push);
const arrayJoin = uncurry(Array.prototype.join);
const toString = String;
const jsonStringify = JSON.stringify;
const mathMin = Math.min;
const mathMax = Math.max;
const ErrorType = Error;
const SyntaxErrorType = SyntaxError;
const encode = uncurry(TextEncoder.prototype.encode, new TextEncoder());
const decode = uncurry(TextDecoder.prototype.decode, new TextDecoder());
const now = uncurry(Performance.prototype.now, performance);
const timeOrigin = performance.timeOrigin;
const clock = () => timeOrigin + now();
const importScriptsOriginal = self.importScripts;
const importScriptsNow = (url) => uncurry(importScriptsOriginal, self)(url);
const makeBlobUrl = (text) => URL.createObjectURL(new Blob([text], { type: "text/javascript" }));
const memoryGrow = WebAssembly.Memory.prototype.grow;
const memoryBuffer = Object.getOwnPropertyDescriptor(WebAssembly.Memory.prototype, "buffer").get;
const arrayBufferLength = Object.getOwnPropertyDescriptor(ArrayBuffer.prototype, "byteLength").get;

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
const KIND = { ready: 1, loading: 2, line: 3, stderr: 4, needInput: 5, exit: 6, flood: 7, received: 8 };
// What a bot may write without reading its input (engine::referee::MAX_AHEAD_LINES,
// MAX_AHEAD_BYTES, MAX_STDERR_FLOOD_BYTES): more is a flood, and the bot is stopped.
const MAX_AHEAD_LINES = 2000;
const MAX_AHEAD_BYTES = 1024 * 1024;
const MAX_STDERR_FLOOD_BYTES = 1024 * 1024;
// A line is cut one byte beyond the referee's cap (engine::referee::MAX_LINE_BYTES), so that the
// referee still sees it is too long; debug-log text goes in pieces of at most this many bytes.
const MAX_LINE_BYTES = 64 * 1024;
const MAX_PIECE = 64 * 1024;
// Debug-log text passed on between two reads (the referee keeps 16 KiB a turn).
const MAX_STDERR_PER_READ = 64 * 1024;
// Python's memory, at most (CodinGame gives 768 MB).
const PYTHON_MEMORY_BYTES = 768 * 1024 * 1024;
const SOURCE_NAME = "bot.js";
const PYTHON_SOURCE_NAME = "bot.py";

let header = null; // Int32Array over the input ring's header
let data = null; // Uint8Array over the input ring's data bytes
let capacity = 0;
let outHeader = null;
let outData = null;
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
// Output since the last read of new input.
let linesSinceRead = 0;
let bytesSinceRead = 0;
let stderrSinceRead = 0;
const stampBytes = new U8(8);
const stampFloat = new F64(stampBytes.buffer);
const head = new U8(HEAD);

// --- output ---------------------------------------------------------------------------------

function copyOut(at, bytes) {
  let done = 0;
  while (done < bytes.length) {
    const offset = (at + done) & (outCapacity - 1);
    const run = mathMin(bytes.length - done, outCapacity - offset);
    u8Set(outData, u8Sub(bytes, done, done + run), offset);
    done += run;
  }
}

// Writes one record, waiting while the ring has no room (as a write to a full pipe blocks).
function record(kind, text, stamp) {
  if (port) {
    portPost(port, [kind, text, stamp]);
    return;
  }
  const payload = encode(text);
  const length = payload.length;
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

// --- input ----------------------------------------------------------------------------------

function takeFromRing() {
  const write = A.load(header, WRITE) >>> 0;
  const read = A.load(header, READ) >>> 0;
  const count = mathMin((write - read) >>> 0, capacity);
  if (count === 0) return false;
  if (pendingEnd + count > pending.length) {
    const keep = pendingEnd - pendingStart;
    const bigger = new U8(mathMax(pending.length, (keep + count) * 2));
    u8Set(bigger, u8Sub(pending, pendingStart, pendingEnd), 0);
    pending = bigger;
    pendingStart = 0;
    pendingEnd = keep;
  }
  const from = read & (capacity - 1);
  const first = mathMin(count, capacity - from);
  u8Set(pending, u8Sub(data, from, from + first), pendingEnd);
  if (first < count) u8Set(pending, u8Sub(data, 0, count - first), pendingEnd + first);
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
      status = callGetter(xhrStatus, request);
      text = status === 200 ? callGetter(xhrText, request) : "";
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
    if (pendingEnd + bytes.length > pending.length) {
      const keep = pendingEnd - pendingStart;
      const bigger = new U8(mathMax(pending.length, (keep + bytes.length) * 2));
      u8Set(bigger, u8Sub(pending, pendingStart, pendingEnd), 0);
      pending = bigger;
      pendingStart = 0;
      pendingEnd = keep;
    }
    u8Set(pending, bytes, pendingEnd);
    pendingEnd += bytes.length;
    linesSinceRead = 0;
    bytesSinceRead = 0;
    stderrSinceRead = 0;
    return;
  }
}

// The next input line, without its line ending; blocks until the match worker sends it.
function readline() {
  for (;;) {
    const newline = u8IndexOf(u8Sub(pending, pendingStart, pendingEnd), 10);
    if (newline >= 0) {
      let end = pendingStart + newline;
      const next = end + 1;
      if (end > pendingStart && pending[end - 1] === 13) end -= 1;
      const line = decode(u8Sub(pending, pendingStart, end));
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

function writeLine(line) {
  linesSinceRead += 1;
  bytesSinceRead += line.length + 1;
  if (linesSinceRead > MAX_AHEAD_LINES) {
    flood(`more than ${MAX_AHEAD_LINES} lines written without reading its input`);
  }
  if (bytesSinceRead > MAX_AHEAD_BYTES) {
    flood("more than 1 MiB of output written without reading its input");
  }
  if (strEndsWith(line, "\r")) line = strSlice(line, 0, -1);
  // Cut beyond the referee's cap (a character counts at least one byte, at most three).
  if (line.length > MAX_LINE_BYTES + 1) line = strSlice(line, 0, MAX_LINE_BYTES + 1);
  record(KIND.line, line, clock());
}

function writeLines(args) {
  const text = joined(args);
  // What one call writes is written at once: a call that would go over a cap is a flood before
  // any of its lines is passed on.
  let count = 1;
  for (let at = strIndexOf(text, "\n"); at >= 0; at = strIndexOf(text, "\n", at + 1)) count += 1;
  if (linesSinceRead + count > MAX_AHEAD_LINES) {
    flood(`more than ${MAX_AHEAD_LINES} lines written without reading its input`);
  }
  if (bytesSinceRead + text.length > MAX_AHEAD_BYTES) {
    flood("more than 1 MiB of output written without reading its input");
  }
  let from = 0;
  for (;;) {
    const end = strIndexOf(text, "\n", from);
    if (end < 0) return writeLine(strSlice(text, from));
    writeLine(strSlice(text, from, end));
    from = end + 1;
  }
}

function writeDebug(args) {
  const text = joined(args) + "\n";
  const before = stderrSinceRead;
  stderrSinceRead += text.length;
  if (stderrSinceRead > MAX_STDERR_FLOOD_BYTES) {
    flood("more than 1 MiB of debug log written without reading its input");
  }
  if (before >= MAX_STDERR_PER_READ) return;
  const keep = strSlice(text, 0, MAX_STDERR_PER_READ - before);
  for (let from = 0; from < keep.length; from += MAX_PIECE / 4) {
    record(KIND.stderr, strSlice(keep, from, from + MAX_PIECE / 4), 0);
  }
}

function exit(message) {
  record(KIND.exit, message, clock());
}

// --- running the bot ------------------------------------------------------------------------

// "TypeError: x is undefined (bot.js line 12)": the message and where in the bot it happened.
function describe(error) {
  if (!(error instanceof ErrorType)) return "the bot threw " + show(error);
  const stack = toString(error.stack || "");
  const at = strIndexOf(stack, SOURCE_NAME + ":");
  const head = toString(error.name) + ": " + toString(error.message);
  if (at < 0) return head;
  const place = /^(\d+):(\d+)/.exec(strSlice(stack, at + SOURCE_NAME.length + 1));
  return place ? head + " (line " + place[1] + ", column " + place[2] + ")" : head;
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
      URL.revokeObjectURL(url);
    }
    if (end < 0) break;
  }
  return 0;
}

function run(code) {
  // The bot's code is a script of its own (no eval: the page's policy forbids it).
  const url = makeBlobUrl(code + "\n//# sourceURL=" + SOURCE_NAME + "\n");
  installConsole();
  record(KIND.ready, "", clock());
  closeSandbox();
  try {
    importScriptsNow(url);
    exit("the bot's program ended (its code returned)");
  } catch (error) {
    if (error instanceof SyntaxErrorType) {
      const message = toString(error.message).replace(/^Failed to execute 'importScripts' on 'WorkerGlobalScope': /, "");
      const line = syntaxErrorLine(code, error.message);
      let text = "SyntaxError: " + message;
      if (line) text += " (line " + line + ")";
      else if (/end of input/.test(message)) {
        text += " (the code ends before a bracket, brace or quote is closed)";
      }
      return exit(text);
    }
    exit(describe(error));
  }
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
  const kept = [];
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
    if (keep) arrayPush(kept, text);
  }
  const summary = (exception >= 0 ? kept[exception] : "") || "the bot raised an exception";
  return { summary: line ? summary + " (line " + line + ")" : summary, traceback: arrayJoin(kept, "\n") };
}

// Python's heap is a WebAssembly.Memory that Pyodide grows from JavaScript: past the cap the
// growth fails, and Python raises MemoryError. Fixed in place so that no bot can undo it.
function capMemory() {
  const grow = function (delta) {
    const size = arrayBufferLength(memoryBuffer.call(this));
    if (size + delta * 65536 > PYTHON_MEMORY_BYTES) {
      throw new RangeError("botplay: a Python bot may use at most 768 MB");
    }
    return memoryGrow.call(this, delta);
  };
  Object.defineProperty(WebAssembly.Memory.prototype, "grow", {
    value: grow,
    writable: false,
    configurable: false,
  });
}

async function runPython(code, files) {
  record(KIND.loading, "loading Python (Pyodide)…", clock());
  let pyodide;
  capMemory();
  const text = (name) => decode(new U8(files[name]));
  try {
    // Pyodide asks for its files by URL; they were sent by the page with the start message.
    self.fetch = async (url) => {
      const name = toString(url).split("/").pop();
      if (!files[name]) throw new TypeError("botplay: no such Python file: " + name);
      const type = name.endsWith(".wasm") ? "application/wasm" : "application/octet-stream";
      return new Response(files[name], { headers: { "Content-Type": type } });
    };
    importScriptsNow(makeBlobUrl(text("pyodide.js")));
    const asm = await import(makeBlobUrl(text("pyodide.asm.mjs")));
    pyodide = await self.loadPyodide({
      indexURL: "https://pyodide.invalid/",
      createPyodideModule: asm.default,
      lockFileContents: text("pyodide-lock.json"),
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
      if (at >= line.length) {
        line = encode(readline() + "\n");
        at = 0;
      }
      const n = mathMin(buffer.length, line.length - at);
      u8Set(buffer, u8Sub(line, at, at + n), 0);
      at += n;
      return n;
    },
    isatty: false,
  });
  pyodide.setStdout({ batched: (text) => writeLines([text]), isatty: false });
  pyodide.setStderr({ batched: (text) => writeDebug([text]), isatty: false });
  self.readline = readline;
  record(KIND.ready, "", clock());
  closeSandbox();
  try {
    pyodide.runPython(code, { filename: PYTHON_SOURCE_NAME });
    pyodide.runPython("import sys; sys.stdout.flush(); sys.stderr.flush()");
    exit("the bot's program ended (its code returned)");
  } catch (error) {
    const { summary, traceback } = describePython(error);
    writeDebug([traceback]);
    exit(summary);
  }
}

self.onmessage = (event) => {
  const message = event.data;
  if (!message || message.type !== "start") return;
  self.onmessage = null;
  if (message.port) {
    port = message.port;
    io = toString(message.io);
    if (message.language === "python") {
      runPython(toString(message.code), message.files || {});
      return;
    }
    run(toString(message.code));
    return;
  }
  header = new I32(message.input, 0, HEADER_BYTES / 4);
  data = new U8(message.input, HEADER_BYTES);
  capacity = data.length;
  outHeader = new I32(message.output, 0, HEADER_BYTES / 4);
  outData = new U8(message.output, HEADER_BYTES);
  outCapacity = outData.length;
  bell = new I32(message.doorbell, 0, 4);
  if (message.language === "python") {
    runPython(toString(message.code), message.files || {});
    return;
  }
  run(toString(message.code));
};
})();
