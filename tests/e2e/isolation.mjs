// Bots that attack the page's resources, in Debian's Chromium through playwright-core: the match
// runs in a host of its own (src/match_host, www/match-host.js), so none of them may crash or
// freeze the page.
//
//   node tests/e2e/isolation.mjs [--dist dist]
//
// Each attack plays a whole match in the page against a built-in bot while the test measures
//   - the page's heartbeat: a 20 ms interval in the page whose longest gap is read through a CDP
//     session of the test's own (Playwright reports a crashed frame's process as a crashed page);
//   - the renderers' memory by process id: every Chromium renderer of this test's profile, read
//     from /proc/PID/status; the page's own renderer (the one that existed before the match) must
//     stay small while the match host's process may grow and die.
// The attacks:
//   (p) a JavaScript bot that replaces every global the runtime uses (Atomics, typed arrays'
//       methods, the text codecs, String, JSON, Math, MessagePort's postMessage: bots.mjs's
//       JS_TAMPER) and then plays; a Python bot that does the same through `js`: the runtime is
//       untouched, the bots play their whole match;
//   (q) a JavaScript bot that keeps every array it allocates until its process runs out of memory:
//       the match ends with "used too much memory" for that bot, the page lives on; one that
//       keeps typed arrays (no heap limit) is stopped by its time budget;
//   (r) a Python bot that allocates 1 MiB at a time gets past 700 MiB, then MemoryError at the
//       768 MiB cap, with its traceback;
//   (s) a bot writing 60 KB of debug log every turn, one writing output and debug log in bursts
//       while never reading, and one writing debug log without end while its opponent (a slow
//       second bot of the person's) thinks: floods, the fault of the bot that wrote;
//   (t) a link whose run never ended (its tab crashed mid-match) is not run again unasked;
//   (u) a JavaScript bot that replaces every configurable method and accessor reachable from its
//       global (numbers lie as 0), then thinks 300 ms a turn: timed out at its 50 ms budget; one
//       that replaces every Symbol.species is never handed a SharedArrayBuffer; a Python bot
//       that replaces Pyodide's API and, through `js`, what the runtime could use: timed out;
//   (v) a Python bot writing 1 MiB chunks without a newline, to stdout then to stderr: a flood
//       each ("a line longer than 65536 bytes", "more than 1 MiB of debug log"), the host small.
// `cargo xtask test isolation` runs it on the page the build step made (dist/).

import { readFile, readdir, mkdir } from "node:fs/promises";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { BURSTER, chatty, JS_HOARDER, JS_TAMPER, PY_TAMPER, PYTHON_HOARDER, pythonRuntimeForger, pythonWithoutNewlines, runtimeForger, SLOW, TYPED_HOARDER, WRITER } from "./bots.mjs";
import { defaultCheck, openPlayground, openSession, runAlone, setCode, setRelaxed, starterCode, watchPauses } from "./browser.mjs";

const REPO = resolve(fileURLToPath(new URL("../..", import.meta.url)));
const SHOTS = join(REPO, "tests", "e2e", "screenshots");

/** The page's longest pause allowed while a bot attacks, in ms. */
const MAX_PAUSE_MS = 100;
/** The page's own renderer, at most, in MB. */
const MAX_PAGE_MB = 700;
/** The page's renderer: the largest one once the page has loaded, before any match. */
let pagePid = 0;

// --- processes ------------------------------------------------------------------------------

/** The renderer processes of the browser that uses `profile`: [{pid, mb}]. */
async function renderers(profile) {
  const found = [];
  for (const entry of await readdir("/proc").catch(() => [])) {
    if (!/^\d+$/.test(entry)) continue;
    const cmdline = await readFile(`/proc/${entry}/cmdline`, "utf8").catch(() => "");
    if (!cmdline.includes("--type=renderer")) continue;
    // A renderer does not carry the profile on its command line: its parent (the zygote's
    // child tree of this browser) does; accept those whose ancestry reaches the browser.
    if (!(await ofBrowser(Number(entry), profile))) continue;
    const status = await readFile(`/proc/${entry}/status`, "utf8").catch(() => "");
    const rss = Number(status.match(/VmRSS:\s+(\d+) kB/)?.[1] ?? 0);
    found.push({ pid: Number(entry), mb: rss / 1024 });
  }
  return found;
}

async function ofBrowser(pid, profile) {
  for (let p = pid, hops = 0; p > 1 && hops < 8; hops++) {
    const cmdline = await readFile(`/proc/${p}/cmdline`, "utf8").catch(() => "");
    if (cmdline.includes(profile)) return true;
    const stat = await readFile(`/proc/${p}/stat`, "utf8").catch(() => "");
    p = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1] ?? 0);
  }
  return false;
}

// --- the page -------------------------------------------------------------------------------


/** Starts the page's heartbeat: the longest gap between two ticks of a 20 ms interval. */
async function startHeartbeat(cdp) {
  await cdp.send("Runtime.evaluate", { expression: `(${watchPauses})(20)` });
}

async function longestPause(cdp) {
  const { result } = await cdp.send("Runtime.evaluate", { expression: "self.longestPause" });
  return result.value;
}

/**
 * Runs the match set up in the page and watches it: the page's longest pause, and the largest
 * resident size of the page's renderer (`pagePid`) and of the others (the match host's).
 */
async function watchMatch(page, cdp, profile, timeout) {
  await startHeartbeat(cdp);
  await page.locator("#run").click();
  // The last match's result goes as soon as this one starts.
  const ended = "document.querySelector('#outcome .result, #match-status.warning') !== null";
  for (let i = 0; i < 100; i++) {
    const { result } = await cdp.send("Runtime.evaluate", { expression: ended });
    if (!result.value) break;
    await new Promise((ok) => setTimeout(ok, 20));
  }
  let pageMb = 0;
  let hostMb = 0;
  const started = Date.now();
  for (;;) {
    for (const r of await renderers(profile)) {
      if (r.pid === pagePid) pageMb = Math.max(pageMb, r.mb);
      else hostMb = Math.max(hostMb, r.mb);
    }
    const { result } = await cdp.send("Runtime.evaluate", { expression: ended });
    if (result.value) break;
    if (Date.now() - started > timeout) throw new Error(`no outcome within ${timeout / 1000} s`);
    await new Promise((ok) => setTimeout(ok, 200));
  }
  const pause = await longestPause(cdp);
  const { result } = await cdp.send("Runtime.evaluate", {
    expression: `JSON.stringify({
      outcome: document.querySelector('#outcome')?.innerText ?? '',
      status: document.querySelector('#match-status')?.innerText ?? '',
      faults: [...document.querySelectorAll('#faults li')].map((li) => li.innerText),
    })`,
  });
  return { ...JSON.parse(result.value), pause, pageMb, hostMb, seconds: (Date.now() - started) / 1000 };
}

// --- the attacks ----------------------------------------------------------------------------

// --- the checks -----------------------------------------------------------------------------

export async function isolationChecks({ dist, check = defaultCheck }) {
  const session = await openSession(dist, "isolation");
  const { url, profile, context } = session;
  try {
    let page = session.page;
    let cdp = await context.newCDPSession(page);
    const open = async () => {
      await openPlayground(page, url);
      await page.locator('#games .game-choice[data-game="ice-and-fire"]').click();
      await page.locator("#opponent").selectOption("expander");
    };
    await open();
    const before = await renderers(profile);
    pagePid = before.reduce((a, b) => (b.mb > a.mb ? b : a), { pid: 0, mb: 0 }).pid;
    check(pagePid > 0, `no renderer process found for the profile: ${JSON.stringify(before)}`);

    const report = (label, r) =>
      console.log(
        `ok (${label}) ${r.seconds.toFixed(1)} s; the page's longest pause ${r.pause.toFixed(0)} ms; ` +
          `page renderer ${r.pageMb.toFixed(0)} MB, match host up to ${r.hostMb.toFixed(0)} MB`,
      );
    const steady = (label, r) => {
      check(r.pause <= MAX_PAUSE_MS, `(${label}) the page paused for ${r.pause.toFixed(0)} ms`);
      check(r.pageMb <= MAX_PAGE_MB, `(${label}) the page's renderer grew to ${r.pageMb.toFixed(0)} MB`);
    };
    const mine = (r) => r.faults.filter((f) => /your bot/.test(f));

    // (p) Tampering with the runtime changes nothing but the bot's own view.
    const js = await starterCode("ice-and-fire.js");
    await setRelaxed(page, false);
    await setCode(page, JS_TAMPER + js);
    let r = await watchMatch(page, cdp, profile, 120_000);
    check(/wins|draw/i.test(r.outcome), `(p) JavaScript: no outcome: ${r.status} ${r.outcome}`);
    check(mine(r).length === 0, `(p) JavaScript: the tampering bot faulted: ${mine(r).join("; ")}`);
    steady("p", r);
    report("p: a JavaScript bot replaced the runtime's globals and played its whole match", r);

    await page.locator("#player").selectOption("python");
    await setCode(page, PY_TAMPER + (await starterCode("ice-and-fire.py")));
    r = await watchMatch(page, cdp, profile, 300_000);
    check(/wins|draw/i.test(r.outcome), `(p) Python: no outcome: ${r.status} ${r.outcome}`);
    check(mine(r).length === 0, `(p) Python: the tampering bot faulted: ${mine(r).join("; ")}`);
    steady("p", r);
    report("p: a Python bot replaced the runtime's globals through js and played its whole match", r);
    await page.locator("#player").selectOption("javascript");

    // (u) A bot that replaces every configurable method and accessor it can reach (lying about
    // numbers) and then thinks 300 ms a turn is timed out at its 50 ms budget; one that replaces
    // every Symbol.species is never handed a SharedArrayBuffer and plays its whole match.
    await setCode(page, runtimeForger());
    r = await watchMatch(page, cdp, profile, 120_000);
    check(mine(r).length === 1 && /timeout — no complete answer within 50 ms/.test(mine(r)[0]), `(u) the forger: expected one timeout at the 50 ms budget, got: ${r.faults.join("; ") || "none"}`);
    steady("u", r);
    report(`u: every method and accessor replaced, then 300 ms a turn: ${mine(r)[0]}`, r);
    await setCode(page, runtimeForger({ species: true, thinkMs: 0 }));
    r = await watchMatch(page, cdp, profile, 120_000);
    check(mine(r).length === 0, `(u) species: the bot faulted (a leak is "LEAKED"): ${mine(r).join("; ")}`);
    steady("u", r);
    report("u: every Symbol.species replaced: no shared memory handed out, the whole match played", r);
    await page.locator("#player").selectOption("python");
    await setCode(page, pythonRuntimeForger());
    r = await watchMatch(page, cdp, profile, 300_000);
    check(mine(r).length === 1 && /timeout — no complete answer within 50 ms/.test(mine(r)[0]), `(u) the Python forger: expected one timeout at the 50 ms budget, got: ${r.faults.join("; ") || "none"}`);
    steady("u", r);
    report(`u: Python, through js and pyodide_js, then 300 ms a turn: ${mine(r)[0]}`, r);

    // (r) Python's memory is what it was promised: 700 MiB and more, then MemoryError at the
    // 768 MiB cap, an ordinary crash with its traceback.
    await setRelaxed(page, true);
    await setCode(page, PYTHON_HOARDER);
    r = await watchMatch(page, cdp, profile, 300_000);
    const held = Number(mine(r).map((f) => f.match(/MemoryError: after (\d+) MiB/)?.[1]).find(Boolean) ?? 0);
    check(held >= 700 && held < 768, `(r) expected a MemoryError after 700 to 767 MiB, got: ${r.faults.join("; ")}`);
    steady("r", r);
    report(`r: ${mine(r)[0]}`, r);

    // (v) Python output without a newline is counted as it is written: a line too long, and a
    // debug log too long, each a flood; the match host stays small.
    for (const [stream, fault] of [
      ["stdout", /too much output — a line longer than 65536 bytes/],
      ["stderr", /too much output — more than 1 MiB of debug log written without reading its input/],
    ]) {
      await setCode(page, pythonWithoutNewlines(stream));
      r = await watchMatch(page, cdp, profile, 300_000);
      check(mine(r).some((f) => fault.test(f)), `(v) ${stream} without a newline: expected ${fault}, got: ${r.faults.join("; ")}`);
      check(r.hostMb < 600, `(v) ${stream} without a newline: the match host grew to ${r.hostMb.toFixed(0)} MB`);
      steady("v", r);
      report(`v: ${stream} without a newline: ${mine(r)[0]}`, r);
    }
    await page.locator("#player").selectOption("javascript");

    // (q) A JavaScript bot that exhausts its process's memory.
    await setCode(page, JS_HOARDER);
    r = await watchMatch(page, cdp, profile, 300_000);
    check(mine(r).some((f) => /too much memory|out of memory|allocation failed/i.test(f)), `(q) expected a memory fault, got: ${r.faults.join("; ")} (${r.status})`);
    steady("q", r);
    const { result: answer } = await cdp.send("Runtime.evaluate", { expression: "6 * 7" });
    check(answer.value === 42, "(q) the page does not answer after the match host died");
    report(`q: ${mine(r)[0]}`, r);
    // Playwright takes the death of a frame's process for the page's: go on in a new tab.
    await page.close().catch(() => {});
    page = await context.newPage();
    cdp = await context.newCDPSession(page);
    await open();
    pagePid = (await renderers(profile)).reduce((a, b) => (b.mb > a.mb ? b : a), { pid: 0, mb: 0 }).pid;

    // Typed arrays have no heap limit: the first turn's budget stops the bot, and its memory goes
    // with its worker.
    await setRelaxed(page, false);
    await setCode(page, TYPED_HOARDER);
    r = await watchMatch(page, cdp, profile, 120_000);
    check(mine(r).some((f) => /timeout|too much memory/.test(f)), `(q) typed arrays: expected a timeout or a memory fault, got: ${r.faults.join("; ")}`);
    steady("q", r);
    report(`q: typed arrays: ${mine(r)[0]}`, r);

    // (s) Floods of debug log and output.
    await setRelaxed(page, false);
    await setCode(page, chatty(js));
    r = await watchMatch(page, cdp, profile, 120_000);
    check(/wins|draw/i.test(r.outcome), `(s) a chatty bot's match has no outcome: ${r.status}`);
    steady("s", r);
    report("s: 60 KB of debug log every turn", r);
    await setCode(page, BURSTER);
    r = await watchMatch(page, cdp, profile, 120_000);
    check(mine(r).some((f) => /without reading its input|too much output/.test(f)), `(s) expected a flood, got: ${r.faults.join("; ")}`);
    steady("s", r);
    report(`s: ${mine(r)[0]}`, r);
    // A bot that keeps writing while its opponent (a second bot of the person's) is slow.
    await page.locator("#opponent").selectOption("javascript");
    await setCode(page, WRITER(js));
    await setCode(page, SLOW(js), "bot-code-2");
    r = await watchMatch(page, cdp, profile, 120_000);
    const first = r.faults.filter((f) => /your bot/.test(f) && !/second/.test(f));
    check(first.some((f) => /without reading its input/.test(f)), `(s) expected the writer's flood, got: ${r.faults.join("; ")}`);
    check(!r.faults.some((f) => /second/.test(f)), `(s) the slow bot faulted: ${r.faults.join("; ")}`);
    steady("s", r);
    report(`s: ${first[0]}, while its opponent thought`, r);
    await page.locator("#opponent").selectOption("expander");
    await mkdir(SHOTS, { recursive: true });
    // The picture is not a check: a page whose match frames crashed above may not answer.
    await Promise.race([
      page.screenshot({ path: join(SHOTS, "isolation.png"), fullPage: true }),
      new Promise((ok) => setTimeout(ok, 20_000)),
    ]).catch(() => {});

    // (t) A link whose run crashed its tab is not run again unasked. In a page of its own: the
    // page above lived through crashed match frames, and a call into it once never returned.
    const maker = await context.newPage();
    await maker.goto(url);
    await maker.locator('#games .game-choice[data-game="ice-and-fire"]').click();
    await maker.locator("#opponent").selectOption("expander");
    await setCode(maker, js);
    await maker.locator("#run").click();
    await maker.locator("#outcome .result").waitFor({ timeout: 120_000 });
    await maker.locator("#share-match").uncheck();
    await maker.locator("#make-link").click();
    const link = await maker.locator("#share-link").inputValue();
    await maker.close();
    check(link.includes("#b1."), `(t) no share link: '${link}'`);
    const crashing = await context.newPage();
    await crashing.goto(link);
    await crashing.locator("#match-status").waitFor();
    const crash = await context.newCDPSession(crashing);
    crash.send("Page.crash").catch(() => {});
    await new Promise((ok) => setTimeout(ok, 1000));
    const again = await context.newPage();
    await openPlayground(again, link);
    await again.waitForTimeout(1500);
    const notice = await again.locator("#notice").allInnerTexts();
    check(notice.some((t) => /never\s+ended/.test(t)), `(t) no notice about the unfinished link: ${notice.join(" | ")}`);
    const status = await again.locator("#match-status").innerText().catch(() => "");
    check(!/running|starting|playing/i.test(status), `(t) the link's bots ran again unasked: '${status}'`);
    console.log("ok (t) a link whose tab crashed mid-match asks before running its bots again");
  } finally {
    await session.close();
  }
}

runAlone(import.meta.url, isolationChecks, "isolation checks");
