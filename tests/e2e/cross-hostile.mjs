// The match host's promises (issue 19: tampering, looping, memory, floods; tests/e2e/isolation.mjs
// and hostile.mjs check them in Chromium) in the other engines, as far as each allows:
//
//   firefox           shared memory; the match frame shares the page's content process
//   webkit            WebKitGTK as shipped: no SharedArrayBuffer, the match on messages in the page
//   webkit-sab        WebKitGTK with JSC_useSharedArrayBuffer=1: shared memory, hosted in the page
//   chromium-no-sab   Chromium on messages (as WebKit as shipped)
//
//   node tests/e2e/cross-hostile.mjs [--dist dist] [--browsers firefox,webkit,...]
//
// Each attack plays a match in the page against a built-in bot (Ice and Fire), while an interval
// in the page records its longest pause (a page frozen by a bot could not run it; measured in the
// page, since only Chromium has a protocol to watch it from outside), and the browser's processes
// are read from /proc (the largest one, and the total):
//   (h1) a JavaScript bot replaces every global its runtime might use (Atomics, typed arrays'
//        methods, the text codecs, String, JSON, Math, MessagePort's postMessage and
//        XMLHttpRequest's methods) and plays its whole match without a fault;
//   (h2) a Python bot does the same through `js`, and plays;
//   (h3) a looping bot is stopped at its 50 ms budget;
//   (h4) a Python bot allocating 1 MiB at a time gets past 700 MiB, then MemoryError at the
//        768 MiB cap, with its traceback;
//   (h5) a JavaScript bot keeping every array, and one keeping typed arrays: each stopped by its
//        first turn's budget (1 s) or its process's memory, the page lives on (in Chromium
//        without SharedArrayBuffer, whose renderer the bots share and a typed-array hog can crash,
//        as the page warns there, that hog runs last and a crash of the renderer is reported);
//   (h6) 60 KB of debug log every turn: the match plays; a bot writing output and debug log in
//        bursts without reading: a flood; a bot writing while its (slow) opponent thinks: its
//        flood, and the opponent plays on;
//   (h7) a JavaScript bot replacing every configurable method and accessor it can reach (numbers
//        lie as 0), then thinking 300 ms a turn: timed out at 50 ms; one replacing every
//        Symbol.species: never handed shared memory, plays; a line of 30,000 euro signs (90 KB):
//        too long in bytes;
//   (h8) Python writing 1 MiB chunks without a newline to stdout, then stderr: a flood each;
//   (h9) a Python bot replacing Pyodide's API and, through `js`, the typed arrays', buffers',
//        Atomics' and the clock's methods, accessors and species, then thinking 300 ms a turn:
//        timed out at 50 ms, nothing shared handed out.
// The figures (pauses, process sizes) are printed per browser: they are what SECURITY.md states.

import { mkdir, readFile, rm } from "node:fs/promises";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { BURSTER, chatty, JS_HOARDER, JS_TAMPER, LOOPING_BOT, PY_TAMPER, PYTHON_HOARDER, pythonRuntimeForger, pythonWithoutNewlines, runtimeForger, SLOW, TYPED_HOARDER, WRITER } from "./bots.mjs";
import { cliArg, defaultCheck as check, markRun, runMain, settledWithin, withinLimit } from "./browser.mjs";
import { blameCrash, processTree } from "./drivers/index.mjs";
import { inEveryBrowser, openBeside, openGallery, setCode, setRelaxed } from "./drivers/suite.mjs";

const REPO = resolve(fileURLToPath(new URL("../..", import.meta.url)));
const SHOTS = join(REPO, "tests", "e2e", "screenshots");
const DIST = resolve(REPO, cliArg("--dist", "dist"));
const BROWSERS = cliArg("--browsers", "firefox,webkit,webkit-sab,chromium-no-sab").split(",");
/** The page's longest pause allowed while a bot attacks, in ms (the page's own work included). */
const MAX_PAUSE_MS = 250;
const starter = (name) => readFile(join(REPO, "www", "starter", name), "utf8");

// --- the attacks ----------------------------------------------------------------------------

// --- in the page ----------------------------------------------------------------------------

const watchPauses = () => {
  self.xbPause = 0;
  let last = performance.now();
  clearInterval(self.xbPauses);
  self.xbPauses = setInterval(() => {
    const now = performance.now();
    self.xbPause = Math.max(self.xbPause, now - last);
    last = now;
  }, 20);
};

const matchOver = () => {
  const line = document.querySelector("#match-status");
  if (!line || (self.botplayRun && !self.botplayRun.started)) return null;
  const failed = line.classList.contains("warning");
  const result = document.querySelector("#outcome .result");
  if (!failed && (!result || /Starting|Playing/.test(line.innerText))) return null;
  return {
    status: line.innerText,
    outcome: result?.innerText ?? "",
    faults: [...document.querySelectorAll("#outcome .fault, #faults li")].map((f) => f.innerText),
    pause: self.xbPause,
  };
};

/** Runs the match the form holds; its end, the page's longest pause and the largest process. */
async function watch(browser, timeout = 120_000) {
  const { page } = browser;
  const root = await browser.pid();
  await page.evaluate(watchPauses);
  await page.evaluate(markRun);
  const started = performance.now();
  await page.click("#run");
  let largest = 0;
  let total = 0;
  let over = null;
  while (!over) {
    check(performance.now() - started < timeout, `no end within ${timeout} ms: '${await page.evaluate(() => document.querySelector("#match-status")?.innerText)}'`);
    const tree = await processTree(root);
    largest = Math.max(largest, ...tree.map((p) => p.mb));
    total = Math.max(total, tree.reduce((sum, p) => sum + p.mb, 0));
    over = await page.evaluate(matchOver);
    if (!over) await new Promise((ok) => setTimeout(ok, 150));
  }
  return { ...over, largest, total, seconds: (performance.now() - started) / 1000 };
}

/** Where a typed-array hog may crash the page's renderer (the bots share its process: Chromium
 * without SharedArrayBuffer, whose renderer dies when its array buffers take ~4 GB). */
const TYPED_LAST = new Set(["chromium-no-sab"]);

/** (h5) The typed-array hog, last: a timeout or memory fault, or the renderer crashed, which the
 * page warns of where it hosts the bots (SECURITY.md) and which ends this browser's checks. */
async function typedArraysLast(browser, name, lines, report) {
  const { page } = browser;
  await page.select("#player", "javascript");
  await setCode(page, TYPED_HOARDER);
  let r;
  try {
    r = await watch(browser, 60_000);
  } catch (error) {
    const crash = await settledWithin(browser.crashed(), 10_000, null);
    if (!crash) throw error;
    const line = `ok (h5) ${name}: typed arrays: the page's renderer crashed (${crash}), as the page warns where the bots share its process; every check before it passed`;
    lines.push(line);
    console.log(line);
    return;
  }
  const mine = (r) => r.faults.filter((f) => /your bot/.test(f) && !/second/.test(f));
  check(mine(r).some((f) => /timeout|too much memory|memory/.test(f)), `(h5) ${name}: typed arrays: expected a timeout or a memory fault, got: ${r.faults.join("; ")} ('${r.status}')`);
  report("h5", r, `typed arrays: ${mine(r)[0]}; `);
}

// --- one browser -----------------------------------------------------------------------------

async function suite(name) {
  await mkdir(SHOTS, { recursive: true });
  await rm(join(SHOTS, `xh-${name}-failure.png`), { force: true });
  const { site, browser, page, close } = await openBeside(DIST, name);
  const lines = [];
  const report = (label, r, extra = "") => {
    const line = `ok (${label}) ${name}: ${extra}${r.seconds.toFixed(1)} s; the page's longest pause ${r.pause.toFixed(0)} ms; largest process ${r.largest.toFixed(0)} MB (all ${r.total.toFixed(0)} MB)`;
    lines.push(line);
    console.log(line);
  };
  const steady = (label, r) => check(r.pause <= MAX_PAUSE_MS, `(${label}) ${name}: the page paused for ${r.pause.toFixed(0)} ms`);
  // The result line and the list of faults both name each fault: one fault is two entries.
  const mine = (r) => r.faults.filter((f) => /your bot/.test(f) && !/second/.test(f));
  try {
    await openGallery(page, site.url, { what: "the page" });
    await page.click('#games .game-choice[data-game="ice-and-fire"]');
    await page.select("#player", "javascript");
    await page.select("#opponent", "expander");
    const js = await starter("ice-and-fire.js");

    // (h1) Tampering, JavaScript.
    await setRelaxed(page, false);
    await setCode(page, JS_TAMPER + js);
    let r = await watch(browser);
    check(/wins|draw/i.test(r.outcome) && mine(r).length === 0, `(h1) ${name}: the tampering bot did not play its match: '${r.status}' ${r.faults.join("; ")}`);
    steady("h1", r);
    report("h1", r, "a JavaScript bot replaced the runtime's globals and played its whole match; ");

    // (h3) A looping bot.
    await setCode(page, LOOPING_BOT);
    r = await watch(browser, 30_000);
    check(mine(r).some((f) => /timeout/.test(f) && /within 50 ms/.test(f)), `(h3) ${name}: no 50 ms timeout: ${r.faults.join("; ")}`);
    steady("h3", r);
    report("h3", r, `${mine(r)[0]}; `);

    // (h7) Forged time: every method and accessor replaced (numbers lie), then 300 ms a turn:
    // timed out at the 50 ms budget; every Symbol.species replaced: no shared memory handed out.
    // A line of 30,000 euro signs: too long in bytes.
    await setCode(page, runtimeForger());
    r = await watch(browser, 60_000);
    check(new Set(mine(r)).size === 1 && /timeout/.test(mine(r)[0]) && /within 50 ms/.test(mine(r)[0]), `(h7) ${name}: the forger: expected one 50 ms timeout, got: ${r.faults.join("; ") || "none"}`);
    steady("h7", r);
    report("h7", r, `every method and accessor replaced, then 300 ms a turn: ${mine(r)[0]}; `);
    await setCode(page, runtimeForger({ species: true, thinkMs: 0 }));
    r = await watch(browser);
    check(/wins|draw/i.test(r.outcome) && mine(r).length === 0, `(h7) ${name}: species: the bot faulted (a leak is "LEAKED"): '${r.status}' ${r.faults.join("; ")}`);
    steady("h7", r);
    report("h7", r, "every Symbol.species replaced, the whole match played; ");
    await setCode(page, `readline(); console.log("\u20ac".repeat(30000)); while (true) readline();`);
    r = await watch(browser, 60_000);
    check(mine(r).some((f) => /a line longer than 65536 bytes/.test(f)), `(h7) ${name}: 30,000 euro signs: expected a line too long, got: ${r.faults.join("; ")}`);
    report("h7", r, `${mine(r)[0]}; `);

    // (h5) Memory, JavaScript: bounded by the first turn's budget (or the process's memory).
    // Where Chromium gives no SharedArrayBuffer the bots share the page's renderer, which a
    // typed-array hog can bring down: that one comes last there (typedArraysLast).
    const hogs = [["arrays", JS_HOARDER], ["typed arrays", TYPED_HOARDER]];
    for (const [what, code] of hogs.filter(([what]) => !(TYPED_LAST.has(name) && what === "typed arrays"))) {
      await setCode(page, code);
      r = await watch(browser, 60_000);
      check(mine(r).some((f) => /timeout|too much memory|memory/.test(f)), `(h5) ${name}: ${what}: expected a timeout or a memory fault, got: ${r.faults.join("; ")} ('${r.status}')`);
      check((await page.evaluate(() => 6 * 7)) === 42, `(h5) ${name}: the page does not answer`);
      report("h5", r, `${what}: ${mine(r)[0]}; `);
    }

    // (h6) Floods.
    await setCode(page, chatty(js));
    r = await watch(browser);
    check(/wins|draw/i.test(r.outcome), `(h6) ${name}: the chatty bot's match has no outcome: '${r.status}'`);
    steady("h6", r);
    report("h6", r, "60 KB of debug log every turn; ");
    await setCode(page, BURSTER);
    r = await watch(browser);
    check(mine(r).some((f) => /without reading its input|too much output/.test(f)), `(h6) ${name}: expected a flood, got: ${r.faults.join("; ")}`);
    steady("h6", r);
    report("h6", r, `${mine(r)[0]}; `);
    await page.select("#opponent", "javascript");
    await setCode(page, WRITER(js));
    await setCode(page, SLOW(js), "bot-code-2");
    r = await watch(browser);
    check(mine(r).some((f) => /without reading its input/.test(f)), `(h6) ${name}: expected the writer's flood, got: ${r.faults.join("; ")}`);
    check(!r.faults.some((f) => /second/.test(f)), `(h6) ${name}: the slow bot faulted: ${r.faults.join("; ")}`);
    steady("h6", r);
    report("h6", r, `${mine(r)[0]}, while its opponent thought; `);
    await page.select("#opponent", "expander");

    // (h2) Tampering, Python; (h4) Python's memory.
    await page.select("#player", "python");
    await setRelaxed(page, true);
    await setCode(page, PY_TAMPER + (await starter("ice-and-fire.py")));
    r = await watch(browser, 240_000);
    check(/wins|draw/i.test(r.outcome) && mine(r).length === 0, `(h2) ${name}: the Python tampering bot did not play: '${r.status}' ${r.faults.join("; ")}`);
    report("h2", r, "a Python bot replaced the runtime's globals through js and played; ");
    await setCode(page, PYTHON_HOARDER);
    r = await watch(browser, 240_000);
    const held = Number(mine(r).map((f) => f.match(/MemoryError: after (\d+) MiB/)?.[1]).find(Boolean) ?? 0);
    check(held >= 700 && held < 768, `(h4) ${name}: expected a MemoryError after 700 to 767 MiB, got: ${r.faults.join("; ")}`);
    report("h4", r, `${mine(r)[0]}; `);
    // (h8) Output without a newline, counted as it is written.
    for (const [stream, fault] of [["stdout", /a line longer than 65536 bytes/], ["stderr", /more than 1 MiB of debug log/]]) {
      await setCode(page, pythonWithoutNewlines(stream));
      r = await watch(browser, 240_000);
      check(mine(r).some((f) => fault.test(f)), `(h8) ${name}: ${stream} without a newline: expected ${fault}, got: ${r.faults.join("; ")}`);
      report("h8", r, `${stream} without a newline: ${mine(r)[0]}; `);
    }
    // (h9) Forged time from Python, through js and pyodide_js, under the strict budgets.
    await setRelaxed(page, false);
    await setCode(page, pythonRuntimeForger());
    r = await watch(browser, 240_000);
    check(new Set(mine(r)).size === 1 && /timeout/.test(mine(r)[0]) && /within 50 ms/.test(mine(r)[0]), `(h9) ${name}: the Python forger: expected one 50 ms timeout, got: ${r.faults.join("; ") || "none"}`);
    report("h9", r, `${mine(r)[0]}; `);
    await page.select("#player", "javascript");
    await page.screenshot(join(SHOTS, `xh-${name}.png`));
    if (TYPED_LAST.has(name)) await typedArraysLast(browser, name, lines, report);
    return lines;
  } catch (error) {
    await page.screenshot(join(SHOTS, `xh-${name}-failure.png`)).catch(() => {});
    throw await blameCrash(browser, error);
  } finally {
    await close();
  }
}

// Each match has its own limit (watch); the browser's whole suite has this one, which also
// catches a WebDriver command that never answers (node then exits, and the drivers kill the
// browser). A browser that crashed under a check (WebKitGTK's JavaScriptCore now and then;
// Chromium's renderer where a bot's gigabytes share the page's process) has its checks run once
// more, saying so; a second crash fails.
const withinItsLimit = (name) => withinLimit(`hostile bots (h1)-(h9)`, name, 15 * 60_000, () => suite(name));

runMain(() => inEveryBrowser(BROWSERS, withinItsLimit), "hostile bots in every engine: checks");
