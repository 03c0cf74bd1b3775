// The runtime of a JavaScript, TypeScript or Python bot: one Web Worker runs one bot, as
// CodinGame runs it.
// The match host (www/match-host.js) starts it from this text; the match worker
// (src/match_worker.rs) is the other end of its two rings.
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
// Input, output and their caps are the bots' channel's (www/bot-channel.js, shared with the
// WebAssembly runtime): the match host starts this worker from that text followed by this one,
// and the channel is taken here before anything else (`self.botplayChannel`, deleted at once):
// `readline()` blocks on the input ring (or, without shared memory, on a synchronous request to
// the page's service worker), and every record goes through the channel's output ring or port.
//
// Integrity: the bot's code runs in this worker's global scope, so everything the runtime uses
// is taken before the bot's code runs (the primordials below, and the channel's own); a bot that
// replaces `Atomics.wait`, a typed array's `length` or `Symbol.species`, or any other global
// changes only what its own code sees. The rings are reachable only from the channel's closure.
// The match worker checks every record again where it receives it, and believes a line's stamp
// only within what it saw itself (src/match_host/driver.rs): a forged stamp cannot buy a bot
// time. Lengths are bytes of UTF-8 everywhere.
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

const channel = self.botplayChannel();
delete self.botplayChannel;
const {
  KIND, uncurry, getter, list, part, encode, byteCount, u8IndexOf, u8Set, clock, show,
  record, exit, readline, countOutput, writeLine, writeDebugText, writeOutputBytes, endOutput,
  writeDebugBytes, interruptSignal,
} = channel;
const defineOwn = Object.defineProperty;
const U8 = Uint8Array;
const strIndexOf = uncurry(String.prototype.indexOf);
const strSlice = uncurry(String.prototype.slice);
const strStartsWith = uncurry(String.prototype.startsWith);
const strSplit = uncurry(String.prototype.split);
const strTrimEnd = uncurry(String.prototype.trimEnd);
const strReplace = uncurry(String.prototype.replace);
const regexpExec = uncurry(RegExp.prototype.exec);
const arrayJoin = uncurry(Array.prototype.join);
const toString = String;
const mathMin = Math.min;
const ErrorType = Error;
const SyntaxErrorType = SyntaxError;
const RangeErrorType = RangeError;
const importScriptsOriginal = self.importScripts;
const importScriptsNow = (url) => uncurry(importScriptsOriginal, self)(url);
const postMessageOriginal = self.postMessage;
const postToHost = (message) => uncurry(postMessageOriginal, self)(message);
const createObjectURL = URL.createObjectURL;
const revokeObjectURL = URL.revokeObjectURL;
const BlobType = Blob;
const makeBlobUrl = (text) => createObjectURL(new BlobType([text], { type: "text/javascript" }));
// Pyodide's files come as Blobs (the page sends them without copying); read before the bot runs.
const blobText = uncurry(Blob.prototype.text);
const blobBytes = uncurry(Blob.prototype.arrayBuffer);
const wasmInstantiate = WebAssembly.instantiate;
const memoryGrow = uncurry(WebAssembly.Memory.prototype.grow);
const memoryBuffer = getter(WebAssembly.Memory.prototype, "buffer");
const arrayBufferLength = getter(ArrayBuffer.prototype, "byteLength");

// What the browser puts into a worker, before anything of ours or Pyodide's: the names the
// sandbox considers (names Pyodide adds later are its own and stay).
const PLATFORM = new Map();
for (let o = self; o && o !== Object.prototype; o = Object.getPrototypeOf(o)) {
  PLATFORM.set(o, new Set(Object.getOwnPropertyNames(o)));
}

// Python's memory, at most (CodinGame gives 768 MB).
const PYTHON_MEMORY_BYTES = 768 * 1024 * 1024;
const SOURCE_NAME = "bot.js";
const TYPESCRIPT_SOURCE_NAME = "bot.ts";
const PYTHON_SOURCE_NAME = "bot.py";

// --- what the bot writes --------------------------------------------------------------------

function joined(args) {
  let text = "";
  for (let i = 0; i < args.length; i++) text += (i ? " " : "") + show(args[i]);
  return text;
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

function writeDebug(args) {
  writeDebugText(joined(args) + "\n");
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

// Pyodide, loaded from its files (sent by the page) with Python's heap capped: the interpreter
// started, nothing of the bot's run yet. No channel is needed: a worker may load it ahead of its
// match ("prepare", below). With `snapshot` (a Blob: the memory of an interpreter Pyodide had
// just started, in a worker that never ran a bot's code, www/match-host.js), the interpreter
// starts from a copy of it instead of starting Python anew: the same fresh state, in a tenth of
// the time. `makeSnapshot` loads it so that it can make one (`pythonSnapshot`).
async function loadPython(files, { snapshot = null, makeSnapshot = false, module = null } = {}) {
  capMemory();
  // Pyodide instantiates what its fetch answered through instantiateStreaming (restored below):
  // `module`, compiled before by another worker, is instantiated as it is; otherwise the module
  // compiled here is kept for a snapshot.
  const instantiateStreaming = WebAssembly.instantiateStreaming;
  WebAssembly.instantiateStreaming = async (response, imports) => {
    if (module instanceof WebAssembly.Module) {
      return { module, instance: await wasmInstantiate(module, imports) };
    }
    const made = await instantiateStreaming(response, imports);
    compiledPython = made.module;
    return made;
  };
  const text = (name) => blobText(files[name]);
  try {
    // Pyodide asks for its files by URL; they were sent by the page.
    self.fetch = async (url) => {
      const name = toString(url).split("/").pop();
      if (!files[name]) throw new TypeError("botplay: no such Python file: " + name);
      const type = name.endsWith(".wasm") ? "application/wasm" : "application/octet-stream";
      return new Response(files[name], { headers: { "Content-Type": type } });
    };
    importScriptsNow(makeBlobUrl(await text("pyodide.js")));
    const asm = await import(makeBlobUrl(capHeapMax(await text("pyodide.asm.mjs"))));
    return await self.loadPyodide({
      indexURL: "https://pyodide.invalid/",
      createPyodideModule: asm.default,
      lockFileContents: await text("pyodide-lock.json"),
      // Nothing is printed while loading: stdout belongs to the protocol.
      stdout: () => {},
      stderr: () => {},
      _loadSnapshot: snapshot ? new U8(await blobBytes(snapshot)) : undefined,
      _makeSnapshot: makeSnapshot,
    });
  } finally {
    // The files' fetch served Pyodide only: the bot gets no fetch at all.
    delete self.fetch;
    WebAssembly.instantiateStreaming = instantiateStreaming;
  }
}

// Pyodide loading ahead of the match, when the match host started this worker before it had a
// match for it (src/python_ready.rs): a promise of the loaded interpreter.
let preparedPython = null;
// Pyodide's module as this worker compiled it (sent with the snapshot).
let compiledPython = null;

async function runPython(code, files, { snapshot, module }) {
  record(KIND.loading, "loading Python (Pyodide)…", clock());
  let pyodide;
  try {
    pyodide = await (preparedPython ?? loadPython(files, { snapshot, module }));
  } catch (error) {
    exit("Python could not be loaded: " + show(error));
    return;
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
  // At a deadline the match worker interrupts a bot still computing: Python raises
  // KeyboardInterrupt where it is, and the bot's end names that line, its traceback in the debug
  // log. "interruptible" tells the match worker to ask (src/match_host/driver.rs).
  const signal = interruptSignal();
  if (signal) pyodide.setInterruptBuffer(signal);
  // Taken now: the bot can reach the Pyodide object (`pyodide_js`) and replace its methods.
  const runPython = uncurry(pyodide.runPython, pyodide);
  self.readline = readline;
  record(KIND.ready, signal ? "interruptible" : "", clock());
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

// The match host's snapshot maker (www/match-host.js): a worker that loads Pyodide, posts a
// snapshot of Python's memory as soon as the interpreter has started, with the module it
// compiled (nothing when Pyodide could not start), and is ended. It never has a bot's code.
async function pythonSnapshot(loaded) {
  let made = {};
  try {
    const pyodide = await loaded;
    made = { snapshot: new BlobType([pyodide.makeMemorySnapshot()]), module: compiledPython };
  } catch (_) {
    made = {};
  }
  postToHost({ type: "python-snapshot", ...made });
}

self.onmessage = (event) => {
  const message = event.data;
  if (message && message.type === "prepare" && message.language === "python" && !preparedPython) {
    const makeSnapshot = message.makeSnapshot === true;
    const { snapshot, module } = message;
    preparedPython = loadPython(message.files || {}, { snapshot, module, makeSnapshot });
    preparedPython.catch(() => {}); // said when the match starts, as a load that failed then
    if (makeSnapshot) pythonSnapshot(preparedPython);
    return;
  }
  if (!message || message.type !== "start") return;
  self.onmessage = null;
  channel.open(message);
  start(message);
};

// The bot in its language: `files` are Pyodide's files (Python) or Sucrase's text (TypeScript).
function start(message) {
  const code = toString(message.code);
  if (message.language === "python") return runPython(code, message.files || {}, message);
  if (message.language === "typescript") return runTypeScript(code, message.files);
  run(code, SOURCE_NAME, true);
}
})();
