// The runtime of a JavaScript or Python bot: one Web Worker runs one bot, as CodinGame runs it.
//
// A JavaScript bot calls a global, blocking `readline()` for each input line, writes its answer
// with `console.log(...)` (or `print(...)`) and its debug log with `console.error(...)`.
// A Python bot runs in Pyodide (served by this site from the npm package, loaded only for Python
// bots, before the match starts): `input()` and `sys.stdin` block on the same `readline()`,
// `print()` writes output lines, `sys.stderr` is the debug log; the standard library is there.
//
// Input: the page writes each turn's text into a SharedArrayBuffer ring (layout below) and wakes
// this worker; `readline()` sleeps in `Atomics.wait` until a whole line is there. This worker is
// the only writer of READ; the page is the only writer of WRITE, PENDING and the data bytes.
//
//   Int32 header (16 bytes), then CAPACITY data bytes (a power of two):
//     header[WRITE]   bytes the page has written so far (a wrapping 32-bit counter)
//     header[READ]    bytes this worker has taken so far (a wrapping 32-bit counter)
//     header[PENDING] 1 while the page holds input that did not fit into the ring
//   Bytes WRITE - READ (mod 2^32) are unread, at data[READ % CAPACITY ...], wrapping around.
//   The page copies the bytes first and then publishes them with Atomics.store(WRITE) and
//   Atomics.notify, so this worker never sees a byte that is not written yet. Text the page
//   writes while the bot has not read the previous text is appended behind it; nothing is
//   overwritten before this worker has moved READ past it. Lines are cut on bytes ("\n" never
//   occurs inside a UTF-8 sequence), so a chunk boundary can never tear a character.
//
// Messages to the page, one per event:
//   {type: "loading", text}           progress while a language runtime loads (Python)
//   {type: "ready"}                    the worker has its code and ring; the match may start
//   {type: "line", text, at}          one output line (without its line ending), stamped
//   {type: "stderr", text}            debug-log text
//   {type: "need-input"}              this worker waits while the page holds unsent input
//   {type: "exit", message}           the bot ended: it threw (message has the error and line)
//                                      or its code returned
//   {type: "flood", message}          the bot wrote more than it may without reading its input
//                                      (the caps below); it is held still until the page stops it
// Message from the page (once): {type: "start", language, code, ring: SharedArrayBuffer}, with
// language "javascript" (the default) or "python".
//
// Each line is stamped with the time it was written ("at": performance.timeOrigin +
// performance.now(), the clock the page shares), so a busy page never makes a bot late. The
// runtime lives in a closure: the bot's code (run at global scope) cannot reach its clock, its
// ring or its postMessage.
//
// The sandbox (closeSandbox, once the runtime and Pyodide are loaded, before the bot's code
// runs): of everything the browser puts into a worker, only the JavaScript built-ins and a short
// list of harmless facilities (KEEP) are left, on the global object and on its prototypes; the
// rest (fetch, XMLHttpRequest, WebSocket, EventSource, WebTransport, importScripts, Worker,
// SharedWorker, postMessage, BroadcastChannel, indexedDB, caches, the file system APIs, and
// whatever a later browser adds) is deleted. `navigator` becomes a frozen object with a few
// plain facts (no storage, locks, devices). Python's `js` module is this same global. The
// page's Content-Security-Policy (Trunk.toml) is the second wall: no connection but to the
// page's own origin. See SECURITY.md.
"use strict";

(() => {

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
// What a bot may write without reading its input (engine::referee::MAX_AHEAD_LINES,
// MAX_AHEAD_BYTES, MAX_STDERR_FLOOD_BYTES): more is a flood, and the bot is stopped.
const MAX_AHEAD_LINES = 2000;
const MAX_AHEAD_BYTES = 1024 * 1024;
const MAX_STDERR_FLOOD_BYTES = 1024 * 1024;
// Debug-log text passed on to the page between two reads (the referee keeps 16 KiB a turn).
const MAX_STDERR_PER_READ = 64 * 1024;
const SOURCE_NAME = "bot.js";
// Where Pyodide's files are, relative to this worker (copied by www/editor/build.mjs).
const PYODIDE_DIR = "pyodide/";

// Kept privately: the bot's code gets neither postMessage nor the network.
const post = self.postMessage.bind(self);
const now = performance.now.bind(performance);
const timeOrigin = performance.timeOrigin;
const clock = () => timeOrigin + now();
const decoder = new TextDecoder();

let header = null; // Int32Array over the ring's header
let data = null; // Uint8Array over the ring's data bytes
let capacity = 0;
// Bytes taken from the ring and not yet returned as lines (a normal, unshared buffer).
let pending = new Uint8Array(4096);
let pendingStart = 0;
let pendingEnd = 0;
// Output since the last read of new input.
let linesSinceRead = 0;
let bytesSinceRead = 0;
let stderrSinceRead = 0;

function takeFromRing() {
  const write = Atomics.load(header, WRITE);
  const read = Atomics.load(header, READ);
  const count = (write - read) >>> 0;
  if (count === 0) return false;
  if (pendingEnd + count > pending.length) {
    const keep = pendingEnd - pendingStart;
    const bigger = new Uint8Array(Math.max(pending.length, (keep + count) * 2));
    bigger.set(pending.subarray(pendingStart, pendingEnd));
    pending = bigger;
    pendingStart = 0;
    pendingEnd = keep;
  }
  const from = read & (capacity - 1);
  const first = Math.min(count, capacity - from);
  pending.set(data.subarray(from, from + first), pendingEnd);
  if (first < count) pending.set(data.subarray(0, count - first), pendingEnd + first);
  pendingEnd += count;
  Atomics.store(header, READ, write);
  linesSinceRead = 0;
  bytesSinceRead = 0;
  stderrSinceRead = 0;
  return true;
}

// The next input line, without its line ending; blocks until the page sends it.
function readline() {
  for (;;) {
    const newline = pending.subarray(pendingStart, pendingEnd).indexOf(10);
    if (newline >= 0) {
      let end = pendingStart + newline;
      const next = end + 1;
      if (end > pendingStart && pending[end - 1] === 13) end -= 1;
      const line = decoder.decode(pending.subarray(pendingStart, end));
      pendingStart = next;
      if (pendingStart === pendingEnd) pendingStart = pendingEnd = 0;
      return line;
    }
    if (takeFromRing()) continue;
    const seen = Atomics.load(header, WRITE);
    if (seen !== Atomics.load(header, READ)) continue;
    if (Atomics.load(header, PENDING) === 1) post({ type: "need-input" });
    Atomics.wait(header, WRITE, seen);
  }
}

function show(value) {
  if (typeof value === "string") return value;
  if (value instanceof Error) return value.stack || String(value);
  if (value !== null && typeof value === "object") {
    try {
      return JSON.stringify(value);
    } catch (_) {
      return String(value);
    }
  }
  return String(value);
}

// The bot wrote more than it may without reading its input: the page hears why and stops the
// worker; until then the bot is held still here (no CPU), whatever its code would do next.
const holder = new Int32Array(new SharedArrayBuffer(4));
const hold = Atomics.wait; // taken now: the bot may replace Atomics.wait
function flood(message) {
  post({ type: "flood", message });
  for (;;) hold(holder, 0, 0);
}

function writeLines(args) {
  const text = Array.prototype.map.call(args, show).join(" ");
  if (bytesSinceRead + text.length > MAX_AHEAD_BYTES) {
    flood("more than 1 MiB of output written without reading its input");
  }
  for (const line of text.split("\n")) {
    linesSinceRead += 1;
    bytesSinceRead += line.length + 1;
    if (linesSinceRead > MAX_AHEAD_LINES) {
      flood(`more than ${MAX_AHEAD_LINES} lines written without reading its input`);
    }
    post({ type: "line", text: line.endsWith("\r") ? line.slice(0, -1) : line, at: clock() });
  }
}

function writeDebug(args) {
  const text = Array.prototype.map.call(args, show).join(" ") + "\n";
  const before = stderrSinceRead;
  stderrSinceRead += text.length;
  if (stderrSinceRead > MAX_STDERR_FLOOD_BYTES) {
    flood("more than 1 MiB of debug log written without reading its input");
  }
  if (before < MAX_STDERR_PER_READ) post({ type: "stderr", text });
}

// "TypeError: x is undefined (bot.js line 12)": the message and where in the bot it happened.
function describe(error) {
  if (!(error instanceof Error)) return "the bot threw " + show(error);
  const where = String(error.stack || "")
    .split("\n")
    .map((l) => l.match(new RegExp(SOURCE_NAME.replace(".", "\\.") + ":(\\d+):(\\d+)")))
    .find((m) => m);
  const head = error.name + ": " + error.message;
  return where ? head + " (line " + where[1] + ", column " + where[2] + ")" : head;
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

function run(code) {
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
  closeSandbox();
  try {
    // Indirect eval: the bot runs as a classic script at global scope, like `node bot.js`.
    (0, eval)(code + "\n//# sourceURL=" + SOURCE_NAME);
    post({ type: "exit", message: "the bot's program ended (its code returned)" });
  } catch (error) {
    let message = describe(error);
    if (error instanceof SyntaxError) {
      const line = syntaxErrorLine(code, error.message);
      if (line) message = error.name + ": " + error.message + " (line " + line + ")";
      else if (/end of input/.test(error.message)) {
        message += " (the code ends before a bracket, brace or quote is closed)";
      }
    }
    post({ type: "exit", message });
  }
}

// The line of a syntax error, which V8 does not report for eval'd code: the first line at which
// the code up to it fails to compile with the same message (shorter prefixes compile, or fail
// only because they end early). Compiling does not run anything. 0 when not found.
function syntaxErrorLine(code, message) {
  const lines = code.split("\n");
  for (let n = 1; n <= lines.length; n++) {
    try {
      new Function(lines.slice(0, n).join("\n"));
    } catch (e) {
      if (e instanceof SyntaxError && e.message === message) return n;
    }
  }
  return 0;
}

// "ZeroDivisionError: division by zero (line 7)" and the whole traceback for the debug log.
function describePython(error) {
  const text = String((error && error.message) || error);
  const lines = text.trim().split("\n");
  const last = lines[lines.length - 1] || "the bot raised an exception";
  const places = [...text.matchAll(/File "<exec>", line (\d+)/g)];
  const where = places.length ? " (line " + places[places.length - 1][1] + ")" : "";
  return { summary: last + where, traceback: text };
}

async function runPython(code) {
  post({ type: "loading", text: "loading Python (Pyodide)…" });
  let pyodide;
  // Pyodide refuses to start in a worker whose importScripts() takes a data: URL (its test for
  // a classic worker); under the page's policy (no data: scripts) it never does, and so works.
  // Without the policy (a static host before its service worker is active), refuse it here too.
  const importScripts = self.importScripts;
  self.importScripts = (...urls) => {
    if (urls.some((url) => String(url).startsWith("data:"))) {
      throw new DOMException("data: scripts are refused", "NetworkError");
    }
    return importScripts.apply(self, urls);
  };
  try {
    importScripts(PYODIDE_DIR + "pyodide.js");
    pyodide = await self.loadPyodide({
      indexURL: new URL(PYODIDE_DIR, self.location.href).href,
      // Nothing is printed while loading: stdout belongs to the protocol.
      stdout: () => {},
      stderr: () => {},
    });
  } catch (error) {
    post({ type: "exit", message: "Python could not be loaded: " + show(error) });
    return;
  }
  // input() and sys.stdin block on the ring; an empty line stays a line (never end of file).
  // Lines are handed over in as many reads as Python asks for: a line longer than Python's read
  // buffer (8 KiB) must not be cut (Crafting Quest 3 sends lines of 20 KB and more).
  const encoder = new TextEncoder();
  let line = new Uint8Array(0);
  let at = 0;
  pyodide.setStdin({
    read(buffer) {
      if (at >= line.length) {
        line = encoder.encode(readline() + "\n");
        at = 0;
      }
      const n = Math.min(buffer.length, line.length - at);
      buffer.set(line.subarray(at, at + n));
      at += n;
      return n;
    },
    isatty: false,
  });
  pyodide.setStdout({ batched: (line) => writeLines([line]), isatty: false });
  pyodide.setStderr({ batched: (line) => writeDebug([line]), isatty: false });
  self.readline = readline;
  delete self.importScripts;
  closeSandbox();
  post({ type: "ready" });
  try {
    pyodide.runPython(code, { filename: "<exec>" });
    pyodide.runPython("import sys; sys.stdout.flush(); sys.stderr.flush()");
    post({ type: "exit", message: "the bot's program ended (its code returned)" });
  } catch (error) {
    const { summary, traceback } = describePython(error);
    writeDebug([traceback]);
    post({ type: "exit", message: summary });
  }
}

self.onmessage = (event) => {
  const message = event.data;
  if (!message || message.type !== "start") return;
  self.onmessage = null;
  header = new Int32Array(message.ring, 0, HEADER_BYTES / 4);
  data = new Uint8Array(message.ring, HEADER_BYTES);
  capacity = data.length;
  if (message.language === "python") {
    runPython(String(message.code));
    return;
  }
  post({ type: "ready" });
  run(String(message.code));
};
})();
