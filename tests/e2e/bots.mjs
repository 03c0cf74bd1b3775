// Bots the browser tests type into the editor, written once.

/** Ice and Fire: every unit walks to the enemy HQ; a level-1 unit is trained beside the HQ while
 * there is gold and a free cell. With `debug`, each turn logs "units: N" to the debug log; with
 * `reads`, "inputs read: N" (how many turns' inputs it has read); with `crashAt`, it throws on that
 * input ("a bug on input N"). */
export function iceAndFireWalker({ debug = false, reads = false, crashAt = 0 } = {}) {
  return `
const spots = parseInt(readline());
for (let i = 0; i < spots; i++) readline();
let read = 0;
while (true) {
  const gold = parseInt(readline());
  read++;
  readline(); readline(); readline();
  for (let y = 0; y < 12; y++) readline();
  const buildings = [];
  for (let n = parseInt(readline()), i = 0; i < n; i++) buildings.push(readline().split(" ").map(Number));
  const units = [];
  for (let n = parseInt(readline()), i = 0; i < n; i++) units.push(readline().split(" ").map(Number));
${reads ? '  console.error("inputs read: " + read);\n' : ""}${crashAt ? `  if (read === ${crashAt}) throw new Error("a bug on input " + read);\n` : ""}  const mine = buildings.find(([o, t]) => o === 0 && t === 0);
  const theirs = buildings.find(([o, t]) => o === 1 && t === 0);
  const out = units.filter(([o]) => o === 0).map(([, id]) => "MOVE " + id + " " + theirs[2] + " " + theirs[3]);
  const beside = mine[2] === 0 ? [[1, 0], [0, 1]] : [[10, 11], [11, 10]];
  const free = beside.find(([x, y]) => !units.some((u) => u[3] === x && u[4] === y));
  if (gold >= 10 && free) out.push("TRAIN 1 " + free[0] + " " + free[1]);
${debug ? '  console.error("units: " + units.length);\n' : ""}  console.log(out.length ? out.join(";") : "WAIT");
}
`;
}

/** Soak Overflow: how a JavaScript bot reads the game's first input (its lines begin with a line
 * break): its player `myId`, each agent's player in `owner`, the grid's `width` and `height`. */
export const SOAK_OVERFLOW_START = `
const myId = parseInt(readline());
const n = parseInt(readline());
const owner = {};
for (let i = 0; i < n; i++) {
  const [id, player] = readline().split(" ").map(Number);
  owner[id] = player;
}
const [width, height] = readline().split(" ").map(Number);
for (let y = 0; y < height; y++) readline();`;

/** Soak Overflow: how a JavaScript bot after SOAK_OVERFLOW_START reads a turn's input, keeping
 * the ids of its own agents in `mine`. */
export const SOAK_OVERFLOW_MINE = `const count = parseInt(readline());
const mine = [];
for (let i = 0; i < count; i++) {
  const id = Number(readline().split(" ")[0]);
  if (owner[id] === myId) mine.push(id);
}
readline();`;

// --- hostile bots against the runtime's integrity (SECURITY.md) -----------------------------

/** A JavaScript bot that, before anything else, enumerates every object reachable from its
 * global (through own properties, prototypes and accessors) and replaces every configurable
 * method and accessor there with a wrapper that lies (a number becomes 0, so a typed array's
 * `length` is 0 and the clock stands at 0) and notes any `SharedArrayBuffer`, view of one or
 * `MessagePort` that passes through it. With `species`, every `Symbol.species` getter hands out
 * a spy constructor instead, which notes what it is built from, and the wrappers do not lie.
 * Then it answers the first turn at once, and computes `thinkMs` before each later answer (a
 * forger that got away would never be timed out). A leak makes it answer "LEAKED <what>" (a
 * malformed answer), and its debug log says how many properties it replaced. */
export function runtimeForger({ species = false, thinkMs = 300 } = {}) {
  return `
{
  const apply = Reflect.apply, construct = Reflect.construct, ownKeys = Reflect.ownKeys;
  const describe = Object.getOwnPropertyDescriptor, define = Object.defineProperty;
  const protoOf = Object.getPrototypeOf, isView = ArrayBuffer.isView;
  const SAB = typeof SharedArrayBuffer === "function" ? SharedArrayBuffer : null;
  const Port = MessagePort;
  const TypedArray = protoOf(Uint8Array.prototype);
  const bufferOf = describe(TypedArray, "buffer").get;
  const viewBufferOf = describe(DataView.prototype, "buffer").get;
  const now = performance.now.bind(performance);
  const write = console.log, debug = console.error, read = readline;
  const seen = new Set(), seenHas = Set.prototype.has, seenAdd = Set.prototype.add;
  const queue = [], targets = [];
  const leaks = [];
  const note = (what) => { leaks[leaks.length] = what; };
  const inspect = (value) => {
    if (value === null || (typeof value !== "object" && typeof value !== "function")) return;
    if (SAB && value instanceof SAB) return note("a SharedArrayBuffer");
    if (value instanceof Port) return note("a MessagePort");
    if (apply(isView, null, [value])) {
      let buffer = null;
      try { buffer = apply(bufferOf, value, []); } catch (_) { buffer = apply(viewBufferOf, value, []); }
      if (SAB && buffer instanceof SAB) note("a view of a SharedArrayBuffer");
    }
  };
  const lie = (result) => (${species ? "false" : "true"} && typeof result === "number" ? 0 : result);
  const wrap = (original) => function (...args) {
    inspect(this);
    for (let i = 0; i < args.length; i++) inspect(args[i]);
    const result = new.target ? construct(original, args) : apply(original, this, args);
    inspect(result);
    return lie(result);
  };
  const spy = (original) => function (...args) {
    for (let i = 0; i < args.length; i++) inspect(args[i]);
    return construct(original, args);
  };
  queue[0] = globalThis;
  for (let at = 0; at < queue.length; at++) {
    const o = queue[at];
    if (apply(seenHas, seen, [o])) continue;
    apply(seenAdd, seen, [o]);
    const up = protoOf(o);
    if (up) queue[queue.length] = up;
    const keys = ownKeys(o);
    for (let k = 0; k < keys.length; k++) {
      let d;
      try { d = describe(o, keys[k]); } catch (_) { continue; }
      if (!d) continue;
      for (const v of [d.value, d.get, d.set]) {
        if (v !== null && (typeof v === "object" || typeof v === "function")) queue[queue.length] = v;
      }
      if (d.configurable && (typeof d.value === "function" || d.get || d.set)) {
        targets[targets.length] = [o, keys[k], d];
      }
    }
  }
  let replaced = 0;
  for (let t = 0; t < targets.length; t++) {
    const o = targets[t][0], key = targets[t][1], d = targets[t][2];
    const copy = { __proto__: null, configurable: true, enumerable: d.enumerable };
    if (typeof d.value === "function") {
      copy.value = wrap(d.value);
      copy.writable = true;
    } else if (${species ? "true" : "false"} && key === Symbol.species && typeof o === "function") {
      const made = spy(o);
      copy.get = () => made;
    } else {
      copy.get = d.get && wrap(d.get);
      copy.set = d.set && wrap(d.set);
    }
    try { define(o, key, copy); replaced++; } catch (_) {}
  }
  debug("replaced " + replaced + " methods and accessors");
  const answer = () => (leaks.length ? "LEAKED " + leaks[0] : "WAIT");
  read();
  write(answer());
  for (;;) {
    read();
    const began = now();
    while (now() - began < ${thinkMs}) {}
    write(answer());
  }
}
`;
}

/** The same through Python's `js` and `pyodide_js` modules, as far as Pyodide itself survives
 * it: Pyodide's own JavaScript shares the intrinsics with the runtime, and a Python function
 * cannot stand in for one (Pyodide calls some without holding Python's lock), so the lies are
 * JavaScript's own functions (`Number`, which answers 0). Before anything else the Python bot
 * replaces Pyodide's API (`runPython`, `setStdout`…) and, through `js`, every configurable
 * method of `Atomics`, `MessagePort`, the clock (`performance`, `Date.now`) and the typed
 * arrays' `indexOf`. (A species that lies kills Pyodide's own input and output, which read and
 * write through `subarray`: the bot would only crash itself.) Then it answers the first turn at
 * once and computes `thinkMs` before each later answer (on a clock it kept). */
export function pythonRuntimeForger({ thinkMs = 300 } = {}) {
  return `
import js
import pyodide_js
from pyodide.ffi import to_js

clock = js.performance.now.bind(js.performance)
zero = js.Number
describe = js.Object.getOwnPropertyDescriptor
define = js.Object.defineProperty
plain = lambda d: to_js(d, dict_converter=js.Object.fromEntries)

for name in ["runPython", "runPythonAsync", "setStdout", "setStderr", "setStdin", "loadPackage"]:
    try:
        setattr(pyodide_js, name, zero)
    except Exception:
        pass
replaced = 0
typed_array = js.Object.getPrototypeOf(js.Uint8Array.prototype)
for owner, names in [(js.Atomics, None), (js.MessagePort.prototype, None),
                     (js.Object.getPrototypeOf(js.performance), None), (js.Date, ["now"]),
                     (typed_array, ["indexOf"])]:
    for key in names or js.Reflect.ownKeys(owner):
        d = describe(owner, key)
        value = getattr(d, "value", None)
        if d.configurable and value is not None and callable(value) and key != "constructor":
            define(owner, key, plain({"value": zero, "configurable": True, "writable": True}))
            replaced += 1
js.console.error(f"replaced {replaced} methods")

input()
print("WAIT", flush=True)
while True:
    input()
    began = clock()
    while clock() - began < ${thinkMs}:
        pass
    print("WAIT", flush=True)
`;
}

/** Python: allocates in 1 MiB pieces until MemoryError, then raises it again saying how far it
 * got ("MemoryError: after 740 MiB"). */
export const PYTHON_HOARDER = `
kept = []
try:
    while True:
        kept.append(bytearray(1 << 20))
except MemoryError:
    held = len(kept)
    kept.clear()
    raise MemoryError(f"after {held} MiB")
`;

/** Python: writes 1 MiB chunks to `stream` (stdout or stderr) without a newline: Python's own
 * buffer is passed on as it fills, and the runtime counts every byte. */
export const pythonWithoutNewlines = (stream) => `
import sys
input()
chunk = "x" * (1 << 20)
while True:
    sys.${stream}.write(chunk)
`;

/** Keeps every array it makes until its process runs out of memory (a few seconds: within the
 * relaxed first turn's 10 s). */
export const JS_HOARDER = `
const kept = [];
readline();
for (;;) kept.push(new Array(1 << 16).fill(kept.length));
`;

/** Keeps typed arrays (outside V8's heap, bound by no heap limit) as fast as it can. */
export const TYPED_HOARDER = `
const kept = [];
readline();
for (;;) kept.push(new Float64Array(1 << 20).fill(kept.length));
`;

/** Plays the starter's moves while writing 60 KB of debug log every turn. */
export const chatty = (code) =>
  code.replace(/console\.log\(/, 'console.error("x".repeat(60000)); console.log(');

/** Answers its turns, and from its second answer on writes debug log without end right after
 * answering: while its opponent thinks. */
export const WRITER = (code) =>
  code.replace(
    /console\.log\(/,
    '((answer) => { console.log(answer); self.turns = (self.turns || 0) + 1; if (self.turns > 1) for (;;) console.error("while you think ".repeat(50)); })(',
  );

/** Thinks 25 ms every turn before answering: long enough for the writer to flood, with room
 * under the 50 ms budget on a loaded machine (40 ms once timed out at 51 ms). */
export const SLOW = (code) =>
  code.replace(/console\.log\(/, "{ const t = Date.now(); while (Date.now() - t < 25); } console.log(");

/** Writes debug log and output in bursts and never reads: a flood (its first burst of debug log
 * is over 1 MiB, so the flood comes before any line could answer a turn). */
export const BURSTER = `
for (;;) {
  for (let i = 0; i < 2000; i++) console.error("burst ".repeat(100));
  for (let i = 0; i < 500; i++) console.log("WAIT");
}
`;

/** Ice and Fire, Python: the rest of a bot that has read the match's first lines: it reads each
 * turn's input and waits. */
export const PYTHON_WAITS_EVERY_TURN = `while True:
    for _ in range(4 + 12):
        input()
    for _ in range(int(input())):
        input()
    for _ in range(int(input())):
        input()
    print("WAIT")
`;

/** Ice and Fire, JavaScript: answers its first turn, then loops forever in its second (whose
 * budget is 50 ms). */
export const LOOPING_BOT = `
const spots = parseInt(readline());
for (let i = 0; i < spots; i++) readline();
for (let i = 0; i < 4 + 12; i++) readline();
for (let n = parseInt(readline()), i = 0; i < n; i++) readline();
for (let n = parseInt(readline()), i = 0; i < n; i++) readline();
console.log("WAIT");
readline();
while (true) {}
`;

/** JavaScript, put before a bot's code: replaces, in the bot's own global scope, everything a
 * runtime could lean on (Atomics, typed arrays' methods, the text codecs, String, JSON, Math,
 * MessagePort's postMessage and XMLHttpRequest's methods); the bot then plays as it would. */
export const JS_TAMPER = `
{
  const nothing = () => 0;
  Atomics.wait = () => "ok";
  Atomics.load = () => 1;
  Atomics.store = nothing;
  Atomics.notify = nothing;
  Atomics.add = nothing;
  Uint8Array.prototype.set = nothing;
  Uint8Array.prototype.subarray = () => new Uint8Array(0);
  Uint8Array.prototype.indexOf = () => -1;
  TextDecoder.prototype.decode = () => "";
  TextEncoder.prototype.encode = () => new Uint8Array(1 << 20);
  String.prototype.indexOf = () => -1;
  String.prototype.slice = () => "";
  JSON.stringify = () => { throw new Error("no"); };
  Math.min = () => 0;
  MessagePort.prototype.postMessage = function () { for (let i = 0; i < 100; i++); };
  if (self.XMLHttpRequest) {
    XMLHttpRequest.prototype.open = nothing;
    XMLHttpRequest.prototype.send = nothing;
  }
}
`;

/** Python, put before a bot's code: the same through `js` (Atomics, MessagePort's postMessage),
 * after trying `js.eval` (its debug log says whether it was allowed). */
export const PY_TAMPER = `
import js, sys
try:
    js.eval("Atomics.wait = () => 'ok'")
    print("js.eval: ALLOWED", file=sys.stderr)
except Exception as e:
    print("js.eval: blocked", type(e).__name__, file=sys.stderr)
js.Atomics.wait = lambda *a: "ok"
js.Atomics.load = lambda *a: 1
js.Atomics.store = lambda *a: 0
js.Atomics.notify = lambda *a: 0
js.MessagePort.prototype.postMessage = lambda *a: 0
`;
