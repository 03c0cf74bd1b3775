// WebAssembly (WASI) bots in the built page, in Debian's Chromium through playwright-core: a
// program compiled to wasm32-wasi plays a seat in a worker of its own (www/wasm-bot-worker.js on
// the bots' channel, www/bot-channel.js).
//
//   trunk build --release --skip-version-check
//   node tests/e2e/wasm-bots.mjs [--dist dist] [--only w5]
//
// (w1) A C bot (tests/e2e/wasm/walker.c, Ice and Fire's walker of bots.mjs), compiled by clang
//      for wasm32-wasi and dropped on the JavaScript editor (the slot becomes a WebAssembly bot of
//      it; the JavaScript code is kept), plays a whole match against the built-in
//      expander; the page's replay (downloaded) has the same transcript, turn by turn (every
//      line of both seats; the bot's debug log over the match), as the same C compiled natively
//      and played by `botplay play`. Screenshot: tests/e2e/screenshots/wasm-match.png.
// (w2) Speed: the per-turn time of the WebAssembly walker against the JavaScript walker (the
//      same program) in the page and the native one in the CLI, and the start-up of a 1 MB
//      module (Run to the first turn, against the small walker's); printed, not judged.
// (w3) Hostile modules (WAT, assembled here by binaryen): an endless loop is a timeout; memory
//      grown to the limit stops at 768 MB and its trap is a crash that says so (also when the
//      module declares a larger maximum; one whose memory starts above it is refused before the
//      match); a trap is a crash with its message; proc_exit(3) ends the bot with its code; a
//      write from outside its memory, or of four billion buffers, is a crash that says so (never
//      a hang or a worker out of memory); an import of something else
//      than WASI refuses the match before it starts, naming the import; output without a newline
//      past 65,536 bytes is a flood; a debug log without end is a flood. Each while the page's
//      heartbeat (a 10 ms timer) never pauses over 100 ms until the match's end shows (the
//      page's own drawing of the end, after it, is printed beside).
// (w5) The project's own WebAssembly bots (bots/wasi/, built by `cargo xtask wasi-bots` into
//      target/wasi-bots/<name>.wasm, natively into target/wasi-bots/native/<name>): each plays
//      its game in the page, under the original budgets, against the game's strongest built-in
//      bot, with the same transcript as its native build in `botplay play`; the first turn of
//      Ice and Fire's C++ bot (1.2 MB) fits its 1,000 ms budget with room to spare.
// (w6) A class: the walker's .wasm added as a bot file is a class bot of language wasm, named
//      by its file; the class file the page saves carries the module in base64; an arena of the
//      walker against the built-in expander plays without a fault of the walker.
// (w7) The walker built to sleep 10 ms a turn (usleep, which wasi-libc makes a poll_oneoff)
//      plays the same match (relaxed budgets), each turn at least 10 ms.
// (w8) In Firefox ESR and WebKitGTK as shipped (no SharedArrayBuffer: on messages), through
//      tests/e2e/drivers: the walker, dropped on the slot, ends its match as in Chromium, and the
//      trap is a crash with its message.
// (w9) The walker dropped on the second bot's editor too plays itself: two WebAssembly workers
//      in one match, no fault.
// (w4) Without SharedArrayBuffer (Chromium as WebKitGTK ships: the match on messages in the page,
//      input through the service worker): (w1) again, then the loop, the trap, the import and
//      the output without a newline, the page's longest pause at most 100 ms (it hosts the match).
//
// Exits non-zero with a message on the first failure.

import { execFileSync } from "node:child_process";
import { mkdir, mkdtemp, readdir, readFile, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import binaryen from "binaryen";
import { Failure, TIME_SCALE, defaultCheck, launch, runAlone, setCode, setRelaxed, watchPauses, withinLimit } from "./browser.mjs";
import { iceAndFireWalker } from "./bots.mjs";
import { serve } from "./serve.mjs";

const REPO = resolve(fileURLToPath(new URL("../..", import.meta.url)));
const SHOTS = join(REPO, "tests", "e2e", "screenshots");
const WALKER_C = join(REPO, "tests", "e2e", "wasm", "walker.c");
/** The page's longest pause allowed while a WebAssembly bot misbehaves, in ms: the match in a
 * frame of its own (Chromium), and in the page itself on messages (as cross-hostile.mjs allows
 * where the page hosts the match). */
const MAX_PAUSE_MS = { w3: 100, w4: 100 };
const SEED = "7";
// `--only w1` (w3, w5, w6, w8, w9): that check alone (while working on it).
const ONLY = process.argv.includes("--only") ? process.argv[process.argv.indexOf("--only") + 1] : null;

// --- modules -----------------------------------------------------------------------------------

/** Compiles C with Debian's clang: for wasm32-wasi (wasi-libc), or natively. */
function clang(sources, out, { wasm, defines = [] }) {
  const args = [...(wasm ? ["--target=wasm32-wasi"] : []), "-O2", ...defines, "-o", out, ...[sources].flat()];
  try {
    execFileSync("clang", args, { stdio: ["ignore", "pipe", "pipe"], timeout: 120_000 });
  } catch (error) {
    throw new Failure(
      `clang ${args.join(" ")} failed (cargo xtask setup installs clang, lld and wasi-libc): ${String(error.stderr ?? error.message).slice(0, 600)}`,
    );
  }
}

/** A WebAssembly module from its text (WAT), by binaryen. */
function assemble(name, text) {
  let module;
  try {
    module = binaryen.parseText(text);
  } catch (error) {
    throw new Failure(`the WAT of ${name} cannot be read: ${error?.message ?? JSON.stringify(error)}`);
  }
  if (!module.validate()) throw new Failure(`the WAT of ${name} is not valid`);
  const bytes = module.emitBinary();
  module.dispose();
  return Buffer.from(bytes);
}

// What every hostile module imports and how it writes: fd_write of `len` bytes at `ptr` to `fd`
// (its iovec at address 0, the count written at 8).
const WASI_PRELUDE = `
  (import "wasi_snapshot_preview1" "fd_write" (func $fd_write (param i32 i32 i32 i32) (result i32)))
  (import "wasi_snapshot_preview1" "proc_exit" (func $proc_exit (param i32)))
  (memory (export "memory") MEMORY)
  (data (i32.const 1024) "${"x".repeat(4096)}")
  (func $write (param $fd i32) (param $ptr i32) (param $len i32)
    (i32.store (i32.const 0) (local.get $ptr))
    (i32.store (i32.const 4) (local.get $len))
    (drop (call $fd_write (local.get $fd) (i32.const 0) (i32.const 1) (i32.const 8))))`;
// (`imports` come first: a module's imports precede its definitions.)
// (`memory`: its initial pages and maximum, as WAT writes them.)
const wat = (body, imports = "", memory = "1") =>
  `(module ${imports} ${WASI_PRELUDE.replace("MEMORY", memory)} (func (export "_start") ${body}))`;
const GROW_TO_THE_END = `
  (block $big (loop $l (br_if $big (i32.eq (memory.grow (i32.const 256)) (i32.const -1))) (br $l)))
  (block $done (loop $l (br_if $done (i32.eq (memory.grow (i32.const 1)) (i32.const -1))) (br $l)))
  unreachable`;

/** Hostile modules: each with the fault (or refusal) it must give. */
const HOSTILE = [
  { name: "an endless loop", fault: /timeout/i, text: wat(`(loop $l (br $l))`) },
  {
    name: "memory grown to the limit",
    fault: /trapped: unreachable.*768 MB of the 768 MB/,
    text: wat(GROW_TO_THE_END),
  },
  {
    name: "memory declared to grow to 1.25 GB",
    fault: /trapped: unreachable.*768 MB of the 768 MB/,
    text: wat(GROW_TO_THE_END, "", "1 20000"),
  },
  {
    name: "memory that starts at 813 MB",
    refused: /could not start: the WebAssembly module's memory starts at 813 MB, more than the 768 MB a bot may use/,
    text: wat(`nop`, "", "13000"),
  },
  {
    name: "a trap",
    // (Chromium and Firefox say "divide by zero", WebKit "Division by zero".)
    fault: /the WebAssembly program trapped: .*divi(de|sion) by zero/i,
    text: wat(`(drop (i32.div_s (i32.const 1) (i32.sub (i32.const 1) (i32.const 1))))`),
  },
  { name: "proc_exit(3)", fault: /exited with code 3/, text: wat(`(call $proc_exit (i32.const 3))`) },
  {
    name: "a write from outside its memory",
    fault: /called WASI with an address outside its memory/,
    text: wat(`(call $write (i32.const 1) (i32.const 0x7fff0000) (i32.const 100))`),
  },
  {
    name: "a write of four billion buffers",
    fault: /called WASI wrongly: 4294967295 buffers in one read or write/,
    text: wat(`(drop (call $fd_write (i32.const 1) (i32.const 0) (i32.const -1) (i32.const 8)))`),
  },
  {
    name: "an import of something else than WASI",
    refused: /could not start: the WebAssembly module imports what a bot may not use: env\.open_socket \(a function\)/,
    text: wat(`(drop (call $open_socket (i32.const 80)))`, `(import "env" "open_socket" (func $open_socket (param i32) (result i32)))`),
  },
  {
    name: "output without a newline",
    fault: /a line longer than 65536 bytes/,
    text: wat(`(loop $l (call $write (i32.const 1) (i32.const 1024) (i32.const 4096)) (br $l))`),
  },
  {
    name: "a debug log without end",
    fault: /more than 1 MiB of debug log written without reading its input/,
    text: wat(`(loop $l (call $write (i32.const 2) (i32.const 1024) (i32.const 4096)) (br $l))`),
  },
];

/** C with `count` functions that stay (a constructor calls one through a table of them all), to
 * be linked with the walker: about 1 MB of code for 9,000. */
function bigProgram(count) {
  const lines = [];
  for (let i = 0; i < count; i++) {
    lines.push(`int f${i}(int x) { for (int k = 0; k < ${(i % 7) + 2}; k++) x = x * ${i + 3} + (x >> ${(i % 5) + 1}) ^ ${i}; return x - ${i}; }`);
  }
  lines.push(`int (*const table[])(int) = { ${Array.from({ length: count }, (_, i) => `f${i}`).join(", ")} };`);
  lines.push("volatile int anchor;");
  lines.push("__attribute__((constructor)) static void keep(void) { anchor = table[anchor](1); }");
  return lines.join("\n");
}

// --- the page ------------------------------------------------------------------------------

/** Marks when Run is clicked, when the first turn plays (the status says "Playing"), and the
 * page's longest pause until the match's end shows (the page's own drawing of the end is not the
 * bot's doing). */
const watchStart = () => {
  const times = { run: 0, playing: 0, pause: null };
  self.wbStart = times;
  document.querySelector("#run").addEventListener("click", () => (times.run = performance.now()), { once: true });
  const status = () => document.querySelector("#match-status")?.innerText ?? "";
  const over = () =>
    document.querySelector("#match-status.warning") ||
    (document.querySelector("#outcome .result") && !/Starting|Playing/.test(status()));
  const observer = new MutationObserver(() => {
    if (times.run && !times.playing && /Playing|won|wins|draw|loses|Result/i.test(status())) {
      times.playing = performance.now();
    }
    if (times.run && over()) {
      times.pause = self.longestPause;
      observer.disconnect();
    }
  });
  observer.observe(document.body, { subtree: true, childList: true, characterData: true });
};

async function chooseWasm(page, name, bytes) {
  await page.locator("#player").selectOption("wasm");
  await page.locator("#wasm-file").setInputFiles({ name, mimeType: "application/wasm", buffer: bytes });
  await page.locator(".wasm-status").getByText(`${Math.ceil(bytes.length / 1024)} KB`).waitFor({ timeout: 10_000 });
}

/** Drops the module on the JavaScript editor, as a person drops a file: the slot becomes a
 * WebAssembly bot of it, and the JavaScript code stays as it was. */
async function dropOnEditor(page, name, bytes, check) {
  await page.locator("#player").selectOption("javascript");
  await page.locator("#bot-code .cm-content").waitFor();
  const before = await page.evaluate(() => botplayEditor.get("bot-code").getDoc());
  // (The editor lives in a shadow root: the locator reaches into it; a person's drop is composed.)
  await page.locator("#bot-code .cm-content").evaluate((target, [file, b64]) => {
    const data = new DataTransfer();
    data.items.add(new File([Uint8Array.from(atob(b64), (c) => c.charCodeAt(0))], file, { type: "application/wasm" }));
    target.dispatchEvent(new DragEvent("drop", { dataTransfer: data, bubbles: true, cancelable: true, composed: true }));
  }, [name, bytes.toString("base64")]);
  await page.locator(".wasm-status").getByText(`${Math.ceil(bytes.length / 1024)} KB`).waitFor({ timeout: 10_000 });
  check((await page.locator("#player").inputValue()) === "wasm", "(w1) the slot is not WebAssembly after the drop");
  await page.locator("#player").selectOption("javascript");
  const after = await page.evaluate(() => botplayEditor.get("bot-code").getDoc());
  check(after === before, `(w1) the drop changed the JavaScript code: '${after.slice(0, 80)}'`);
  await page.locator("#player").selectOption("wasm");
  await page.locator(".wasm-status").getByText(`${Math.ceil(bytes.length / 1024)} KB`).waitFor({ timeout: 10_000 });
}

/** (w9) The walker against itself: dropped on the second bot's editor too, two WebAssembly
 * workers play one match. */
async function againstItself(page, walker, check) {
  await page.locator('#games .game-choice[data-game="ice-and-fire"]').click();
  await chooseWasm(page, "walker.wasm", walker);
  await page.locator("#opponent").selectOption("javascript");
  await page.locator("#bot-code-2 .cm-content").evaluate((target, b64) => {
    const data = new DataTransfer();
    data.items.add(new File([Uint8Array.from(atob(b64), (c) => c.charCodeAt(0))], "walker.wasm", { type: "application/wasm" }));
    target.dispatchEvent(new DragEvent("drop", { dataTransfer: data, bubbles: true, cancelable: true, composed: true }));
  }, walker.toString("base64"));
  await page.locator("#wasm-file-2").waitFor({ timeout: 10_000 });
  check((await page.locator("#opponent").inputValue()) === "wasm", "(w9) the second bot is not WebAssembly after the drop");
  const result = await runMatch(page);
  check(result.faults.length === 0, `(w9) the walker against itself: ${result.faults.join("; ")} (${result.status})`);
  check(/wins|draw/i.test(result.outcome), `(w9) no outcome: '${result.outcome}' (${result.status})`);
  console.log(`ok (w9) the walker dropped on both editors played itself, two WebAssembly workers in one match: ${result.outcome.trim()}`);
  await page.locator("#opponent").selectOption("expander");
}

/** Runs the match the form holds: its outcome, faults, status, the page's longest pause. */
async function runMatch(page, timeout = 120_000) {
  await page.evaluate(watchPauses, 10); // the longest pause: a 10 ms timer's largest delay
  await page.evaluate(watchStart);
  await page.locator("#run").click();
  // The last match's result goes as soon as this one starts.
  for (let i = 0; i < 100 && (await page.locator("#outcome .result, #match-status.warning").count()) > 0; i++) {
    await new Promise((ok) => setTimeout(ok, 20));
  }
  const ended = async () =>
    page.evaluate(() => {
      const line = document.querySelector("#match-status");
      const result = document.querySelector("#outcome .result");
      if (!line) return null;
      if (!line.classList.contains("warning") && (!result || /Starting|Playing/.test(line.innerText))) return null;
      return {
        status: line.innerText,
        outcome: result?.innerText ?? "",
        faults: [...document.querySelectorAll("#faults li")].map((f) => f.innerText),
        pause: self.wbStart.pause ?? self.longestPause,
        pauseAfter: self.longestPause,
        startup: self.wbStart.playing ? self.wbStart.playing - self.wbStart.run : NaN,
      };
    });
  const started = performance.now();
  for (;;) {
    const over = await ended();
    if (over) return over;
    if (performance.now() - started > timeout) {
      throw new Failure(`no end of the match within ${timeout / 1000} s: '${await page.locator("#match-status").innerText()}'`);
    }
    await new Promise((ok) => setTimeout(ok, 100));
  }
}

/** The page's replay of the match shown, as JSON. */
async function pageReplay(page, dir, name) {
  const [download] = await Promise.all([page.waitForEvent("download"), page.locator("#download-replay").click()]);
  const file = join(dir, name);
  await download.saveAs(file);
  return JSON.parse(await readFile(file, "utf8"));
}

/** A replay's transcript: per turn, each seat's lines (not its times). */
const transcript = (replay) => replay.turns.map((turn) => turn.seats.map((s) => ({ seat: s.seat, lines: s.lines })));
/** A replay's debug log of seat 0, the whole match's (the CLI reads a process's stderr apart
 * from its stdout, so a turn's debug log may be recorded with the next turn's). */
const debugLog = (replay) => replay.turns.flatMap((t) => t.seats.filter((s) => s.seat === 0).map((s) => s.stderr ?? "")).join("");

/** The median time of seat 0's turns after its first, in ms (the first is set apart: a
 * budget of its own, and a compiled bot's start-up). */
function medianTurn(replay) {
  const times = replay.turns.flatMap((t) => t.seats.filter((s) => s.seat === 0).map((s) => s.time_ms)).slice(1);
  times.sort((a, b) => a - b);
  return times.length ? times[Math.floor(times.length / 2)] : NaN;
}
/** The time of seat 0's first turn, in ms. */
const firstTurn = (replay) => replay.turns.flatMap((t) => t.seats.filter((s) => s.seat === 0))[0]?.time_ms ?? NaN;

function cliReplay(bot, file) {
  execFileSync(
    "cargo",
    ["run", "-q", "-p", "botplay", "--", "play", "--game", "ice-and-fire", "--seed", SEED, "--bot", bot,
      "--bot", "builtin:expander", "--replay", file],
    { cwd: REPO, stdio: ["ignore", "pipe", "pipe"], timeout: 600_000 },
  );
}

// --- the checks ------------------------------------------------------------------------------

async function playsLikeNative(page, dir, walker, check, label = "w1") {
  await page.locator("#opponent").selectOption("expander");
  await page.locator("#seed").fill(SEED);
  await page.locator("#seed").dispatchEvent("change");
  if (label === "w1") await dropOnEditor(page, "walker.wasm", walker, check);
  else await chooseWasm(page, "walker.wasm", walker);
  const result = await runMatch(page);
  check(!result.faults.some((f) => /your bot/.test(f)), `(${label}) the WebAssembly walker faulted: ${result.faults.join("; ")}`);
  check(/win|lose|draw|score/i.test(result.outcome), `(${label}) no outcome: '${result.outcome}' (${result.status})`);
  await mkdir(SHOTS, { recursive: true });
  if (label === "w1") await page.screenshot({ path: join(SHOTS, "wasm-match.png") });
  const page1 = await pageReplay(page, dir, "page-wasm.json");
  check(page1.bots[0] === "your bot", `(${label}) the replay names the WebAssembly bot '${page1.bots[0]}'`);
  const native = join(dir, "walker");
  clang(WALKER_C, native, { wasm: false });
  const cliFile = join(dir, "cli.json");
  cliReplay(native, cliFile);
  const cli = JSON.parse(await readFile(cliFile, "utf8"));
  const [a, b] = [transcript(page1), transcript(cli)];
  check(a.length === b.length, `(${label}) the page played ${a.length} turns, the CLI ${b.length}`);
  const differs = a.findIndex((turn, i) => JSON.stringify(turn) !== JSON.stringify(b[i]));
  const shown = (turn) => JSON.stringify(turn ?? null).slice(0, 300);
  check(differs < 0, `(${label}) turn ${differs} differs: page ${shown(a[differs])} / CLI ${shown(b[differs])}`);
  // The CLI may stop the program at the match's end before reading its last debug log: the
  // CLI's log is the page's, up to at most the page's last turn's.
  const [pageLog, cliLog] = [debugLog(page1), debugLog(cli)];
  // (Ice and Fire's seats play in turn: the match's last record may be the other seat's.)
  const lastTurn = page1.turns.findLast((t) => t.seats.some((s) => s.seat === 0))?.seats.find((s) => s.seat === 0)?.stderr ?? "";
  check(
    pageLog.startsWith(cliLog) && cliLog.length >= pageLog.length - lastTurn.length,
    `(${label}) the debug logs differ: page '${pageLog.slice(-200)}' / CLI '${cliLog.slice(-200)}'`,
  );
  console.log(`ok (${label}) a C bot compiled to wasm32-wasi played ${a.length} turns in the page (${result.outcome.trim()}), the same transcript (lines and debug log) as natively in the CLI; the page's longest pause ${result.pause.toFixed(0)} ms`);
  return { page: page1, cli, startup: result.startup, outcome: result.outcome.trim() };
}

async function speed(page, dir, walker, played, check) {
  await page.locator("#player").selectOption("javascript");
  await setCode(page, iceAndFireWalker({ debug: true }));
  const js = await runMatch(page);
  check(!js.faults.some((f) => /your bot/.test(f)), `(w2) the JavaScript walker faulted: ${js.faults.join("; ")}`);
  const jsReplay = await pageReplay(page, dir, "page-js.json");
  const big = join(dir, "big.wasm");
  const source = join(dir, "big.c");
  await writeFile(source, bigProgram(9000));
  clang([WALKER_C, source], big, { wasm: true });
  const bigBytes = await readFile(big);
  await page.locator("#opponent").selectOption("wait");
  await chooseWasm(page, "big.wasm", bigBytes);
  const bigRun = await runMatch(page);
  await page.locator("#opponent").selectOption("wait");
  await chooseWasm(page, "walker.wasm", walker);
  const smallRun = await runMatch(page);
  const f = (ms) => ms.toFixed(2);
  console.log(
    `ok (w2) a turn's median in the page: the WebAssembly walker ${f(medianTurn(played.page))} ms, the JavaScript ` +
      `walker ${f(medianTurn(jsReplay))} ms; natively in the CLI ${f(medianTurn(played.cli))} ms. First turns: ` +
      `${f(firstTurn(played.page))}, ${f(firstTurn(jsReplay))} and ${f(firstTurn(played.cli))} ms. From Run to the ` +
      `first turn: a module of ${(bigBytes.length / 1e6).toFixed(2)} MB ${bigRun.startup.toFixed(0)} ms, the walker ` +
      `(${(walker.length / 1e3).toFixed(0)} KB) ${smallRun.startup.toFixed(0)} ms`,
  );
}

/** The walker that sleeps 10 ms a turn (usleep: WASI's poll_oneoff) plays the same match. */
async function sleeper(page, dir, check) {
  const file = join(dir, "sleeper.wasm");
  clang(WALKER_C, file, { wasm: true, defines: ["-DSLEEP_US=10000"] });
  await page.locator('#games .game-choice[data-game="ice-and-fire"]').click();
  await page.locator("#opponent").selectOption("expander");
  await page.locator("#seed").fill(SEED);
  await page.locator("#seed").dispatchEvent("change");
  await setRelaxed(page, true);
  await chooseWasm(page, "sleeper.wasm", await readFile(file));
  const result = await runMatch(page);
  await setRelaxed(page, false);
  check(!result.faults.some((f) => /your bot/.test(f)), `(w7) the sleeping walker faulted: ${result.faults.join("; ")}`);
  const slept = await pageReplay(page, dir, "page-sleeper.json");
  const plain = JSON.parse(await readFile(join(dir, "cli.json"), "utf8"));
  check(JSON.stringify(transcript(slept)) === JSON.stringify(transcript(plain)), "(w7) the sleeping walker played another match");
  const times = slept.turns.flatMap((t) => t.seats.filter((s) => s.seat === 0).map((s) => s.time_ms));
  check(times.every((ms) => ms >= 9.5), `(w7) a turn shorter than its 10 ms sleep: ${times.map((t) => t.toFixed(1)).join(", ")}`);
  console.log(`ok (w7) a C bot sleeping 10 ms a turn (usleep, poll_oneoff) played the same match; its turns ${Math.min(...times).toFixed(1)} to ${Math.max(...times).toFixed(1)} ms`);
}

async function hostile(page, bots, check, label = "w3") {
  await page.locator("#opponent").selectOption("wait");
  for (const bot of bots) {
    await chooseWasm(page, "hostile.wasm", assemble(bot.name, bot.text));
    const r = await runMatch(page);
    if (bot.refused) {
      check(bot.refused.test(r.status), `(${label}) ${bot.name}: expected the match refused (${bot.refused}), got '${r.status}' (faults: ${r.faults.join("; ")})`);
    } else {
      const mine = r.faults.filter((f) => /your bot/.test(f));
      check(mine.length >= 1 && bot.fault.test(mine.join(" ")), `(${label}) ${bot.name}: expected a fault ${bot.fault}, got: ${r.faults.join("; ") || "none"} (${r.status})`);
    }
    check(r.pause <= MAX_PAUSE_MS[label] * TIME_SCALE, `(${label}) ${bot.name}: the page paused for ${r.pause.toFixed(0)} ms`);
    const said = bot.refused ? r.status : r.faults.find((f) => /your bot/.test(f));
    console.log(`ok (${label}) ${bot.name}: ${said.replace(/\s+/g, " ").slice(0, 160)}; the page's longest pause ${r.pause.toFixed(0)} ms (${r.pauseAfter.toFixed(0)} ms with its drawing of the end)`);
  }
}

const WASI_BOTS = join(REPO, "target", "wasi-bots");
const GAMES = ["ice-and-fire", "soak-overflow", "micro-rts", "skyport", "crafting-quest"];

/** The project's WebAssembly bots that have a native build: [{ name, game, wasm, native }]
 * (built by `cargo xtask wasi-bots` first when there are none yet). */
async function projectBots() {
  if (!(await readdir(WASI_BOTS).catch(() => [])).some((n) => n.endsWith(".wasm"))) {
    try {
      execFileSync("cargo", ["xtask", "wasi-bots"], { cwd: REPO, stdio: ["ignore", "pipe", "pipe"], timeout: 900_000 });
    } catch (error) {
      throw new Failure(`cargo xtask wasi-bots failed: ${String(error.stderr ?? error.message).slice(-600)}`);
    }
  }
  const names = await readdir(WASI_BOTS).catch(() => []);
  const bots = [];
  for (const file of names.filter((n) => n.endsWith(".wasm")).sort()) {
    const name = file.slice(0, -".wasm".length);
    const game = GAMES.find((g) => name.startsWith(g + "-"));
    const native = join(WASI_BOTS, "native", name);
    if (game && (await stat(native).catch(() => null))) bots.push({ name, game, wasm: join(WASI_BOTS, file), native });
  }
  if (bots.length === 0) {
    throw new Failure(`no WebAssembly bot with a native build in ${WASI_BOTS}: run cargo xtask wasi-bots first`);
  }
  return bots;
}

/** The CLI's replay of the page's match `replay` with seat 0 played by the program `program`. */
function cliSameMatch(replay, program, file) {
  const { setup } = replay;
  const opponents = replay.bots.slice(1).map((name) => ["--bot", `builtin:${name}`]).flat();
  const options = Object.entries(setup.options ?? {}).map(([k, v]) => ["--option", `${k}=${v}`]).flat();
  execFileSync(
    "cargo",
    ["run", "-q", "-p", "botplay", "--", "play", "--game", setup.game, "--seed", String(setup.seed),
      "--ruleset", setup.ruleset, ...options, ...(replay.relaxed ? ["--relaxed"] : []),
      "--bot", program, ...opponents, "--replay", file],
    { cwd: REPO, stdio: ["ignore", "pipe", "pipe"], timeout: 600_000 },
  );
}

async function projectBotsPlay(page, dir, check) {
  for (const bot of await projectBots()) {
    await page.locator(`#games .game-choice[data-game="${bot.game}"]`).click();
    const opponent = await page.evaluate(() => {
      const values = [...document.querySelectorAll("#opponent option")].map((o) => o.value);
      return values.filter((v) => !["javascript", "typescript", "python", "wasm", "human"].includes(v)).pop();
    });
    await page.locator("#opponent").selectOption(opponent);
    await page.locator("#seed").fill(SEED);
    await page.locator("#seed").dispatchEvent("change");
    const bytes = await readFile(bot.wasm);
    await chooseWasm(page, `${bot.name}.wasm`, bytes);
    const result = await runMatch(page, 300_000);
    check(!result.faults.some((f) => /your bot/.test(f)), `(w5) ${bot.name} faulted in the page: ${result.faults.join("; ")}`);
    const pageRun = await pageReplay(page, dir, `page-${bot.name}.json`);
    const cliFile = join(dir, `cli-${bot.name}.json`);
    cliSameMatch(pageRun, bot.native, cliFile);
    const cli = JSON.parse(await readFile(cliFile, "utf8"));
    const [a, b] = [transcript(pageRun), transcript(cli)];
    const differs = a.findIndex((turn, i) => JSON.stringify(turn) !== JSON.stringify(b[i]));
    const shown = (turn) => JSON.stringify(turn ?? null).slice(0, 300);
    check(a.length === b.length && differs < 0, `(w5) ${bot.name}: the page played ${a.length} turns, the CLI ${b.length}; turn ${differs}: page ${shown(a[differs])} / CLI ${shown(b[differs])}`);
    const first = firstTurn(pageRun);
    if (bot.game === "ice-and-fire") check(first < 500, `(w5) ${bot.name}: its first turn took ${first} ms of its 1,000 ms`);
    console.log(
      `ok (w5) ${bot.name} (${(bytes.length / 1e6).toFixed(2)} MB) played ${a.length} turns of ${bot.game} against ${opponent} ` +
        `(${result.outcome.trim()}), the same transcript as natively in the CLI; first turn ${first.toFixed(1)} ms, then a ` +
        `median of ${medianTurn(pageRun).toFixed(2)} ms (natively ${medianTurn(cli).toFixed(2)} ms); from Run to the first ` +
        `turn ${result.startup.toFixed(0)} ms`,
    );
  }
}

async function inClass(page, dir, walker, check) {
  await page.locator('#games .game-choice[data-game="ice-and-fire"]').click();
  await page.locator("#arena > summary").click();
  const file = join(dir, "walker.wasm");
  await writeFile(file, walker);
  await page.locator("#class-files").setInputFiles(file);
  await page.locator(".class-bot").first().waitFor({ timeout: 10_000 });
  const bots = await page.locator(".class-bot").evaluateAll((items) =>
    items.map((i) => [i.querySelector(".class-bot-name").value, i.querySelector(".class-bot-kind").innerText.trim()]),
  );
  const kind = bots.find(([name]) => name === "walker")?.[1] ?? `no walker among ${JSON.stringify(bots)}`;
  check(kind === "wasm", `(w6) the class names the walker's kind '${kind}'`);
  const [saved] = await Promise.all([page.waitForEvent("download"), page.locator("#class-save").click()]);
  const classFile = join(dir, "class.json");
  await saved.saveAs(classFile);
  const carried = JSON.parse(await readFile(classFile, "utf8")).bots.find((b) => b.name === "walker")?.bot;
  check(carried?.language === "wasm" && Buffer.from(carried.code, "base64").equals(walker), `(w6) the class file carries the walker as ${JSON.stringify(carried ?? null).slice(0, 120)}`);
  for (const box of await page.locator("input.arena-bot").all()) {
    const wanted = ["walker", "expander"].includes(await box.getAttribute("value"));
    if ((await box.isChecked()) !== wanted) await box.click();
  }
  await page.locator("#arena-matches").selectOption("2");
  await page.locator("#arena-parallel").selectOption("1");
  await page.locator("#arena-run").click();
  await page.locator("#arena-progress", { hasText: "done: 2 matches" }).waitFor({ timeout: 240_000 });
  const rows = await page.locator("#arena-bots-table tbody tr").allInnerTexts();
  const row = rows.find((r) => r.startsWith("walker")) ?? "";
  // Columns: bot, rating, won, drawn, lost, avg score, timeouts, crashes, invalid.
  const cells = row.split("\t");
  check(cells.length >= 9 && cells.slice(6, 9).every((c) => Number(c) === 0), `(w6) the walker's row in the arena: '${row}'`);
  console.log(`ok (w6) the walker's .wasm is a class bot of language wasm, carried in the class file; an arena against expander: ${row.replace(/\t/g, " | ")}`);
}

// --- other engines (tests/e2e/drivers) ---------------------------------------------------------

/** In the page: puts the module (base64) into the first slot as a dropped file. */
const dropModule = ([name, b64]) => {
  const data = new DataTransfer();
  data.items.add(new File([Uint8Array.from(atob(b64), (c) => c.charCodeAt(0))], name, { type: "application/wasm" }));
  document.querySelector("#bot-pane .seat").dispatchEvent(new DragEvent("drop", { dataTransfer: data, bubbles: true, cancelable: true }));
};

/** In the page: the seed typed (the form hears `input`). */
const setSeed = (seed) => {
  const input = document.querySelector("#seed");
  input.value = seed;
  input.dispatchEvent(new Event("input", { bubbles: true }));
  return true;
};

/** In the page: the match's end once shown (its status, outcome and faults), else null. */
const shownEnd = () => {
  const line = document.querySelector("#match-status");
  const result = document.querySelector("#outcome .result");
  if (!line || (!line.classList.contains("warning") && (!result || /Starting|Playing/.test(line.innerText)))) return null;
  return { status: line.innerText, outcome: result?.innerText ?? "", faults: [...document.querySelectorAll("#faults li")].map((f) => f.innerText) };
};

/** Plays `bytes` in the first seat of the page in `browser` against `opponent`: the match's end. */
async function playIn(browser, name, bytes, opponent) {
  const { page } = browser;
  await page.select("#opponent", opponent);
  await page.evaluate(dropModule, [name, Buffer.from(bytes).toString("base64")]);
  const kb = `${Math.ceil(bytes.length / 1024)} KB`;
  await page.until((text) => document.querySelector(".wasm-status")?.innerText.includes(text), kb, { what: `the ${name} module in the slot` });
  // The last match's end goes as soon as this one starts.
  await page.click("#run");
  await page.until(() => !document.querySelector("#outcome .result, #match-status.warning"), null, { timeout: 10_000, what: "the new match to start" }).catch(() => {});
  return page.until(shownEnd, null, { timeout: 120_000, what: `the end of ${name}'s match` });
}

/** (w8) The walker and the trap in Firefox ESR and in WebKitGTK as shipped (on messages). */
async function otherEngines(walker, expected, check) {
  const drivers = await import("./drivers/index.mjs");
  const have = drivers.available();
  const names = ["firefox", "webkit"].filter((n) => have[n]);
  check(names.length > 0, "(w8) neither Firefox ESR nor WebKitGTK is installed (cargo xtask setup --browser)");
  const trap = HOSTILE.find((b) => b.name === "a trap");
  for (const name of names) {
    const browser = await drivers.open(name);
    try {
      const { page } = browser;
      const { server, url } = await serve(DIST_OF_RUN.dist);
      try {
        await page.goto(url);
        if (name === "webkit") {
          await page.until(() => Boolean(navigator.serviceWorker?.controller), null, { timeout: 60_000, what: "the service worker" });
        }
        await page.until(() => Boolean(document.querySelector('#games .game-choice[data-game="ice-and-fire"]')), null, { what: "the game list" });
        await page.click('#games .game-choice[data-game="ice-and-fire"]');
        await page.evaluate(setSeed, SEED);
        const shared = await page.evaluate(() => typeof SharedArrayBuffer === "function");
        const played = await playIn(browser, "walker.wasm", walker, "expander");
        check(!played.faults.some((f) => /your bot/.test(f)), `(w8) ${name}: the walker faulted: ${played.faults.join("; ")} (${played.status})`);
        check(played.outcome.trim() === expected, `(w8) ${name}: the walker's match ended '${played.outcome.trim()}', in Chromium '${expected}'`);
        const trapped = await playIn(browser, "trap.wasm", assemble(trap.name, trap.text), "wait");
        check(trapped.faults.some((f) => /your bot/.test(f) && trap.fault.test(f)), `(w8) ${name}: the trap gave ${trapped.faults.join("; ") || trapped.status}`);
        console.log(`ok (w8) ${name} (${shared ? "shared memory" : "on messages"}): the walker's match as in Chromium (${expected}); ${trapped.faults.find((f) => /your bot/.test(f))}`);
      } finally {
        server.close();
      }
    } finally {
      await browser.close();
    }
  }
}

/** Opens the page in a fresh Chromium; `messages`: without SharedArrayBuffer (as WebKitGTK as
 * shipped), so that the match runs on messages in the page and the bots read their input through
 * the service worker. */
async function openPage(dir, url, messages) {
  const { CHROMIUM_ARGS } = await import("./browser.mjs");
  const args = messages ? [...CHROMIUM_ARGS, "--disable-features=IsolateSandboxedIframes"] : CHROMIUM_ARGS;
  const context = await launch(join(dir, messages ? "profile-messages" : "profile"), { acceptDownloads: true, args });
  if (messages) await context.addInitScript(() => delete globalThis.SharedArrayBuffer);
  const page = context.pages()[0] ?? (await context.newPage());
  await page.goto(url);
  if (messages) {
    await page.waitForFunction(() => Boolean(navigator.serviceWorker?.controller), null, { timeout: 60_000 });
  }
  await page.locator('#games .game-choice[data-game="ice-and-fire"]').click();
  return { context, page };
}

/** The dist the checks run on (for the other engines' servers). */
const DIST_OF_RUN = { dist: "" };

export async function wasmBotChecks({ dist, check = defaultCheck }) {
  DIST_OF_RUN.dist = dist;
  const dir = await mkdtemp(join(tmpdir(), "botplay-wasm-"));
  const { server, url } = await serve(dist);
  let context = null;
  try {
    const walkerFile = join(dir, "walker.wasm");
    clang(WALKER_C, walkerFile, { wasm: true });
    const walker = await readFile(walkerFile);
    let page;
    ({ context, page } = await openPage(dir, url, false));
    check(await page.evaluate(() => self.crossOriginIsolated), "the page is not cross-origin isolated");
    const shot = (path) => page.screenshot({ path });
    if (ONLY === "w5") {
      await withinLimit("(w5) the project's WebAssembly bots", "chromium", 900_000, () => projectBotsPlay(page, dir, check), shot);
      return;
    }
    if (ONLY === "w6") {
      await withinLimit("(w6) a WebAssembly bot in a class and an arena", "chromium", 300_000, () => inClass(page, dir, walker, check), shot);
      return;
    }
    if (ONLY === "w1") {
      await withinLimit("(w1) a C bot as WebAssembly against the CLI", "chromium", 240_000, () => playsLikeNative(page, dir, walker, check), shot);
      return;
    }
    if (ONLY === "w8") {
      await withinLimit("(w8) WebAssembly bots in Firefox ESR and WebKitGTK", "firefox and webkit", 600_000, () =>
        otherEngines(walker, "blue (expander) wins: score 164 to -1 (red loses: HQ captured)", check));
      return;
    }
    if (ONLY === "w9") {
      await withinLimit("(w9) two WebAssembly bots in one match", "chromium", 120_000, () => againstItself(page, walker, check), shot);
      return;
    }
    if (ONLY === "w3") {
      await withinLimit("(w3) hostile WebAssembly bots", "chromium", 300_000, () => hostile(page, HOSTILE, check), shot);
      return;
    }
    const played = await withinLimit("(w1) a C bot as WebAssembly against the CLI", "chromium", 240_000, () => playsLikeNative(page, dir, walker, check), shot);
    await withinLimit("(w2) the speed of WebAssembly bots", "chromium", 300_000, () => speed(page, dir, walker, played, check), shot);
    await withinLimit("(w3) hostile WebAssembly bots", "chromium", 300_000, () => hostile(page, HOSTILE, check), shot);
    await withinLimit("(w7) a WebAssembly bot that sleeps", "chromium", 240_000, () => sleeper(page, dir, check), shot);
    await withinLimit("(w5) the project's WebAssembly bots", "chromium", 900_000, () => projectBotsPlay(page, dir, check), shot);
    await withinLimit("(w6) a WebAssembly bot in a class and an arena", "chromium", 300_000, () => inClass(page, dir, walker, check), shot);
    await withinLimit("(w9) two WebAssembly bots in one match", "chromium", 120_000, () => againstItself(page, walker, check), shot);
    await context.close();
    await withinLimit("(w8) WebAssembly bots in Firefox ESR and WebKitGTK", "firefox and webkit", 600_000, () => otherEngines(walker, played.outcome, check));
    ({ context, page } = await openPage(dir, url, true));
    check(await page.evaluate(() => typeof SharedArrayBuffer === "undefined"), "(w4) the page still has SharedArrayBuffer");
    await withinLimit("(w4) WebAssembly bots on messages", "chromium-no-sab", 400_000, async () => {
      await playsLikeNative(page, dir, walker, check, "w4");
      const some = HOSTILE.filter((b) => /loop|a trap|import|newline/.test(b.name));
      await hostile(page, some, check, "w4");
    }, (path) => page.screenshot({ path }));
  } finally {
    await context?.close().catch(() => {});
    server.close();
    await rm(dir, { recursive: true, force: true });
  }
}

runAlone(import.meta.url, wasmBotChecks, "WebAssembly bots");
