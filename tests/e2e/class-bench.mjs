// A benchmark, not a test: a class tournament of Soak Overflow in the page against the same
// class in the CLI (issue 35, "Measured, in a benchmark"). It prints figures and asserts no
// time; it fails only when the run cannot be done (the page refuses the class, a match is not
// played, something hangs past its time limit).
//
//   node tests/e2e/class-bench.mjs --dist dist [--bots 25] [--language javascript|python]
//        [--parallel 2] [--load links|file] [--seed S] [--relaxed] [--botplay PATH] [--keep DIR]
//        [--profile FILE]
//
// Without --botplay (or $BOTPLAY), the CLI is built first with `cargo build --release -p botplay`.
// The full benchmark (25 bots: 25·24/2 pairs × 2 seatings = 600 matches) wants an idle machine;
// `--bots 5` (20 matches) checks that the whole run works.
//
// The class: N named bots in the chosen language, each the starter www/starter/soak-overflow.js
// (or .py) with small honest differences (bot 1 is the starter itself; the others shoot the
// driest enemy instead of the wettest, throw bombs from nearer or only further from their own
// agents, keep another distance, or write no debug log: 32 different bots, then the same again),
// so that the table has winners and losers. All are deterministic and legal.
//
// In Debian's Chromium (tests/e2e/browser.mjs), as a teacher does it:
//   - the class is built in the Arena panel's class roster: the students' share links pasted at
//     once (`--load links`, the default), or a class file opened (`--load file`; only then do
//     --seed and --relaxed apply: a class built from links has the page's own set-up for a new
//     class; a Run with the class's bots then writes the panel's set-up into the class);
//   - the class file is saved (#class-save) and the panel set as the class says (its league,
//     budgets, seed and matches per pair, which must be 2: every pair in both seatings on one
//     seed), only the class's bots ticked, "At once" = --parallel;
//   - Run, until the progress says "done: M matches". Measured in the page, on its own clock:
//     the wall time from the click on Run to "done" and matches per second; the main thread's
//     pauses during the run: the lateness of a 20 ms setInterval heartbeat, the gaps between
//     requestAnimationFrame callbacks, and PerformanceObserver "longtask" entries (each the
//     longest and the 99th percentile; the long tasks counted by where they ran, as the entry
//     names it: "self" is the page's own thread); when the first match was done.
//   - the results as JSON (#arena-json) and the class file again (#class-save).
// The browser is then closed, and the CLI plays the class file the page saved:
//   botplay arena --class FILE --jobs <parallel> --json OUT
// timed from its start to its exit. The load average (as `uptime` says it) is read before and
// after each run (a mean over a minute, renewed every 5 s: a short run shows mostly what came
// before it, the CLI's "before" the page's run). Printed: a table of both runs (wall time,
// matches per second, the page's matches per second as a share of the CLI's, faults, load), the
// page's pauses, and whether the page's JSON and the CLI's give the same standings (each bot's
// matches, wins, draws, losses, faults by kind, average score and rating; each match's scores
// and ranks). A disagreement is printed, not a failure (a timeout under load changes a match);
// with --keep DIR the class file and both JSONs are kept in DIR.
//
// Every wait has a time limit (times $TIME_LIMIT_SCALE) that names what hung; the arena also
// fails when no match finishes for 5 minutes.

import { execFileSync } from "node:child_process";
import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { cpus, loadavg, tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { Failure, launch, setRelaxed, studentLink, TIME_SCALE, TimeLimit, withinLimit } from "./browser.mjs";
import { differences } from "./class-cli.mjs";
import { botplayBinary, run, stopGroups } from "./processes.mjs";
import { serve } from "./serve.mjs";

const REPO = resolve(fileURLToPath(new URL("../..", import.meta.url)));
const GAME = "soak-overflow";
const RULESET = "league-5";
/** Matches per pair: each pair once in each seating, on one seed. */
const PER_PAIR = 2;
/** The page's arena fails when no match finishes for this long (ms, times TIME_SCALE). */
const STALL_MS = 300_000;
/** The heartbeat's interval in the page, in ms. */
const BEAT_MS = 20;

const NAMES = [
  "Ada", "Ben", "Cleo", "Dan", "Eva", "Finn", "Gia", "Hugo", "Ines", "Jon", "Kai", "Lena", "Milo",
  "Nora", "Omar", "Pia", "Quinn", "Rosa", "Sami", "Tess", "Umar", "Vera", "Will", "Xena", "Yusuf",
  "Zoe", "Amir", "Bea", "Cyrus", "Dina", "Eli", "Fay", "Gus", "Hana", "Ivo", "Jade", "Karl", "Lior",
  "Maya", "Nils",
];

// --- the arguments ------------------------------------------------------------------------------

function parseArgs(argv) {
  const value = (name, fallback) => {
    const i = argv.indexOf(name);
    if (i < 0) return fallback;
    if (i + 1 >= argv.length) throw new Failure(`${name} needs a value`);
    return argv[i + 1];
  };
  const whole = (name, fallback, min, max) => {
    const text = value(name, String(fallback));
    const n = Number(text);
    if (!Number.isInteger(n) || n < min || n > max) throw new Failure(`${name} must be a whole number from ${min} to ${max}, not '${text}'`);
    return n;
  };
  const language = value("--language", "javascript");
  if (!["javascript", "python"].includes(language)) throw new Failure(`--language must be javascript or python, not '${language}'`);
  const load = value("--load", "links");
  if (!["links", "file"].includes(load)) throw new Failure(`--load must be links or file, not '${load}'`);
  const seedText = value("--seed", undefined);
  const relaxed = argv.includes("--relaxed");
  if (load === "links" && (seedText !== undefined || relaxed)) {
    throw new Failure("--seed and --relaxed need --load file: a class built from links has the page's own set-up for a new class");
  }
  let seed = 20_251_127;
  if (seedText !== undefined) {
    if (!/^-?\d+$/.test(seedText)) throw new Failure(`--seed must be a whole number, not '${seedText}'`);
    seed = Number(seedText);
  }
  const botplay = value("--botplay", process.env.BOTPLAY);
  const keep = value("--keep", undefined);
  const cpuProfile = value("--profile", undefined);
  return {
    dist: resolve(REPO, value("--dist", "dist")),
    bots: whole("--bots", 25, 2, 200),
    language,
    parallel: whole("--parallel", 2, 1, 16),
    load,
    seed,
    relaxed,
    botplay: botplay ? resolve(botplay) : undefined,
    keep: keep ? resolve(keep) : undefined,
    profile: cpuProfile ? resolve(cpuProfile) : undefined,
  };
}

// --- the profile -------------------------------------------------------------------------------

/** Starts sampling the page's main thread (Chrome DevTools Protocol), every 1 ms. */
async function startProfile(page) {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send("Profiler.enable");
  await cdp.send("Profiler.setSamplingInterval", { interval: 1000 });
  await cdp.send("Profiler.start");
  return cdp;
}

/** Stops sampling, writes the profile to `path` (a .cpuprofile DevTools opens) and gives the 20
 * functions that took the most time themselves, as [name and place, ms]. */
async function stopProfile(cdp, path) {
  const { profile } = await cdp.send("Profiler.stop");
  await writeFile(path, JSON.stringify(profile));
  const nodes = new Map(profile.nodes.map((n) => [n.id, n]));
  const spent = new Map();
  profile.samples.forEach((id, i) => {
    const { functionName, url, lineNumber } = nodes.get(id).callFrame;
    const name = `${functionName || "(anonymous)"} ${url ? `${url.split("/").pop()}:${lineNumber + 1}` : ""}`.trim();
    spent.set(name, (spent.get(name) ?? 0) + (profile.timeDeltas[i + 1] ?? 0) / 1000);
  });
  return [...spent].sort((a, b) => b[1] - a[1]).slice(0, 20);
}

// --- the class ----------------------------------------------------------------------------------

/** `text` with `from` replaced by `to`, where `from` must be (a starter that changed fails here). */
function edit(text, from, to, what) {
  if (!text.includes(from)) throw new Failure(`${what}: the starter no longer holds ${JSON.stringify(from)}`);
  return text.replace(from, to);
}

/** The small differences of bot `i` (from 0) from the starter: each a legal, honest change. */
const CHANGES = {
  javascript: [
    [".sort((a, b) => b.wetness - a.wetness)", ".sort((a, b) => a.wetness - b.wetness)"],
    ["distance(me, e) <= 4 &&", "distance(me, e) <= 3 &&"],
    ["distance(me, target) > me.optimalRange)", "distance(me, target) > me.optimalRange + 1)"],
    ["    console.error(`agent ", "    if (false) console.error(`agent "],
    ["Math.abs(m.y - e.y)) > 1)", "Math.abs(m.y - e.y)) > 2)"],
  ],
  python: [
    ['in_range.sort(key=lambda e: -e["wetness"])', 'in_range.sort(key=lambda e: e["wetness"])'],
    ["and distance(me, e) <= 4", "and distance(me, e) <= 3"],
    ['distance(me, target) > me["optimal_range"]:', 'distance(me, target) > me["optimal_range"] + 1:'],
    ["        print(f\"agent {me['id']}", "        if False: print(f\"agent {me['id']}"],
    ['abs(m["y"] - e["y"])) > 1 for m in mine', 'abs(m["y"] - e["y"])) > 2 for m in mine'],
  ],
};

/** The class's bots: [name, code]; bot 0 is the starter, the others its variants by their bits. */
export function classBots(starter, language, count) {
  const changes = CHANGES[language];
  return Array.from({ length: count }, (_, i) => {
    const name = i < NAMES.length ? NAMES[i] : `${NAMES[i % NAMES.length]} ${Math.floor(i / NAMES.length) + 1}`;
    let code = starter;
    // The bits of i choose the changes: 32 distinct bots, then the same again.
    changes.forEach(([from, to], bit) => {
      if ((i >> bit) & 1) code = edit(code, from, to, `${name} (${language})`);
    });
    return [name, code];
  });
}

/** A student's share link, as the page makes it. */
const shareLink = (base, name, code, language) => studentLink(base, { game: GAME, ruleset: RULESET }, name, code, language);

// --- processes ----------------------------------------------------------------------------------

/** The load averages over 1, 5 and 15 minutes, as `uptime` prints them. */
function load() {
  try {
    const said = execFileSync("uptime", { encoding: "utf8" });
    const m = /load averages?:\s*(.*)$/m.exec(said);
    if (m) return m[1].trim();
  } catch {}
  return loadavg().map((x) => x.toFixed(2)).join(", ");
}

// --- the page's clock ---------------------------------------------------------------------------

/**
 * Installed in the page before Run: the click on Run, a heartbeat (a 20 ms interval: how late
 * each tick is), requestAnimationFrame's gaps, long tasks, and, read at each tick, when the
 * progress line changed and when it said "done".
 */
function installMonitors(beatMs) {
  const bench = {
    start: null,
    done: null,
    firstDone: null,
    lateness: [],
    frames: [],
    longtasks: [],
    progress: "",
  };
  self.__bench = bench;
  document.addEventListener(
    "click",
    (e) => {
      if (bench.start === null && e.target.closest?.("#arena-run")) bench.start = performance.now();
    },
    true,
  );
  const running = () => bench.start !== null && bench.done === null;
  let last = performance.now();
  bench.beat = setInterval(() => {
    const now = performance.now();
    if (running()) bench.lateness.push(Math.max(0, now - last - beatMs));
    last = now;
    const text = document.querySelector("#arena-progress")?.textContent?.trim() ?? "";
    if (text !== bench.progress) {
      bench.progress = text;
      const n = /(?:playing|stopped): (\d+) of/.exec(text);
      if (bench.firstDone === null && running() && n && Number(n[1]) > 0) bench.firstDone = now;
      if (bench.done === null && bench.start !== null && /^done: /.test(text)) bench.done = now;
    }
  }, beatMs);
  let lastFrame = null;
  const frame = (t) => {
    if (running() && lastFrame !== null) bench.frames.push(t - lastFrame);
    lastFrame = t;
    if (bench.done === null) requestAnimationFrame(frame);
  };
  requestAnimationFrame(frame);
  try {
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) {
        if (running() && e.startTime >= bench.start) bench.longtasks.push([e.duration, e.name]);
      }
    }).observe({ type: "longtask" });
    bench.longtaskObserved = true;
  } catch {
    bench.longtaskObserved = false;
  }
}

/** What the monitors saw (the samples summed up in node). */
function readMonitors() {
  const b = self.__bench;
  clearInterval(b.beat);
  return {
    start: b.start,
    done: b.done,
    firstDone: b.firstDone,
    lateness: b.lateness,
    frames: b.frames,
    longtasks: b.longtasks,
    longtaskObserved: b.longtaskObserved,
  };
}

const percentile = (xs, p) => {
  if (xs.length === 0) return NaN;
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)];
};
const longest = (xs) => (xs.length ? xs.reduce((a, b) => Math.max(a, b), -Infinity) : NaN);

// --- the two JSONs ------------------------------------------------------------------------------

/** A JSON's faults by kind, e.g. "2 timeouts, 1 crash" or "none". */
function faultsOf(report) {
  const counts = {};
  for (const m of report.matches ?? []) for (const f of m.faults ?? []) counts[f.kind] = (counts[f.kind] ?? 0) + 1;
  const kinds = Object.keys(counts).sort();
  return kinds.length ? kinds.map((k) => `${counts[k]} ${k}`).join(", ") : "none";
}

// --- the benchmark ------------------------------------------------------------------------------

async function download(page, selector, what) {
  const [file] = await Promise.all([page.waitForEvent("download", { timeout: 30_000 * TIME_SCALE }), page.locator(selector).click()]);
  const path = await file.path();
  if (!path) throw new Failure(`${what}: the download (${selector}) saved no file`);
  return readFile(path, "utf8");
}

async function bench(o) {
  const running = new Set();
  const machine = {
    cores: cpus().length,
    model: cpus()[0]?.model?.replace(/\s+/g, " ").trim() ?? "?",
  };
  const files = await mkdtemp(join(tmpdir(), "botplay-class-bench-"));
  const starter = await readFile(join(REPO, "www", "starter", `${GAME}.${o.language === "python" ? "py" : "js"}`), "utf8");
  const bots = classBots(starter, o.language, o.bots);
  const total = (o.bots * (o.bots - 1) / 2) * PER_PAIR;
  console.log(`class bench: ${o.bots} ${o.language} bots of Soak Overflow, ${total} matches, ${o.parallel} at once, loaded from ${o.load}`);

  let browser;
  let server;
  try {
    const botplay = await withinLimit("building the CLI (cargo build --release -p botplay)", "cargo", 1_200_000, () => botplayBinary(o.botplay, running, { release: true }))
      .finally(() => stopGroups(running));
    console.log(`the CLI: ${botplay}`);

    const served = await serve(o.dist);
    server = served.server;
    const url = served.url;
    const profile = join(files, "profile");
    browser = await launch(profile, { acceptDownloads: true });
    const page = browser.pages()[0] ?? (await browser.newPage());
    const shot = (path) => page.screenshot({ path, fullPage: true });
    const userAgent = await page.evaluate(() => navigator.userAgent);
    const chromium = /Chrom(?:e|ium)\/([\d.]+)/.exec(userAgent)?.[1] ?? "?";

    // The class in the roster.
    let classText;
    await withinLimit(`the class of ${o.bots} bots in the page (${o.load})`, "chromium", 180_000, async () => {
      await page.goto(url);
      await page.locator(`#games .game-choice[data-game="${GAME}"]`).click({ timeout: 60_000 });
      await page.locator("#arena > summary").click({ timeout: 30_000 });
      if (o.load === "links") {
        await page.locator("#class-links").fill(bots.map(([name, code]) => shareLink(url, name, code, o.language)).join("\n"));
        await page.locator("#class-add-links").click();
      } else {
        const classFile = {
          kind: "botplay-class",
          format: 1,
          name: `Bench ${o.bots} ${o.language}`,
          setup: { game: GAME, ruleset: RULESET, seed: o.seed, seats: 2 },
          relaxed: o.relaxed,
          matches_per_group: PER_PAIR,
          bots: bots.map(([name, code]) => ({ name, bot: { kind: "code", name, language: o.language, code } })),
        };
        const path = join(files, "class-opened.json");
        await writeFile(path, JSON.stringify(classFile, null, 2));
        await page.locator("#class-open").setInputFiles(path);
      }
      await page.locator(".class-bot").nth(o.bots - 1).waitFor({ timeout: 30_000 });
      const error = page.locator("#class-error");
      if (await error.count()) throw new Failure(`the class roster says: ${await error.innerText()}`);
      const shown = await page.locator(".class-bot-name").evaluateAll((inputs) => inputs.map((i) => i.value));
      const names = bots.map(([name]) => name);
      if (JSON.stringify(shown) !== JSON.stringify(names)) throw new Failure(`the class's bots are ${JSON.stringify(shown)}, not ${JSON.stringify(names)}`);
      classText = await download(page, "#class-save", "the class file before the run");
    }, shot);
    const theClass = JSON.parse(classText);
    const seed = theClass.setup.seed;
    if (theClass.matches_per_group !== PER_PAIR) {
      throw new Failure(`the class plays ${theClass.matches_per_group} matches per pair, not ${PER_PAIR} (the benchmark's plan)`);
    }

    // The panel as the class says; only the class's bots.
    await withinLimit("setting the Arena panel as the class says", "chromium", 60_000, async () => {
      await page.locator("#league").selectOption(theClass.setup.ruleset);
      await setRelaxed(page, theClass.relaxed);
      const names = new Set(bots.map(([name]) => name));
      for (const box of await page.locator("input.arena-bot").all()) {
        const inClass = names.has(await box.getAttribute("value"));
        if ((await box.isChecked()) !== inClass) await box.click();
      }
      await page.locator("#arena-matches").selectOption(String(PER_PAIR));
      const offered = await page.locator("#arena-parallel option").allInnerTexts();
      if (!offered.includes(String(o.parallel))) {
        throw new Failure(`"At once" offers ${offered.join(", ")} here, not ${o.parallel} (the page offers one per core, at least 4)`);
      }
      await page.locator("#arena-parallel").selectOption(String(o.parallel));
      await page.locator("#arena-seed").fill(String(seed));
      const button = (await page.locator("#arena-run").innerText()).trim();
      if (button !== `Run ${total} matches`) throw new Failure(`the page plans '${button}', not ${total} matches`);
    }, shot);

    // The run, on the page's clock.
    const pageLoad = { before: load() };
    await page.evaluate(installMonitors, BEAT_MS);
    const profiler = o.profile ? await startProfile(page) : null;
    const nodeStart = performance.now();
    const arenaLimit = Math.max(600_000, (total * 60_000) / o.parallel);
    await withinLimit(`the page's arena of ${total} matches`, "chromium", arenaLimit, async () => {
      await page.locator("#arena-run").click();
      let count = -1;
      let changed = performance.now();
      let lastPrinted = 0;
      for (;;) {
        const state = await page.evaluate(() => ({
          done: self.__bench.done !== null,
          progress: document.querySelector("#arena-progress")?.textContent?.trim() ?? "",
          error: document.querySelector("#arena-error")?.textContent ?? null,
        }));
        if (state.error) throw new Failure(`the Arena panel says: ${state.error}`);
        if (state.done) break;
        const n = Number(/(\d+) of/.exec(state.progress)?.[1] ?? 0);
        const now = performance.now();
        if (n !== count) {
          count = n;
          changed = now;
        } else if (now - changed > STALL_MS * TIME_SCALE) {
          throw new TimeLimit(`the page's arena stalled: no match finished for ${(STALL_MS * TIME_SCALE) / 1000} s ('${state.progress}')`);
        }
        if (now - lastPrinted > 30_000) {
          lastPrinted = now;
          console.log(`  page: ${state.progress || "starting"} (${((now - nodeStart) / 1000).toFixed(0)} s)`);
        }
        await new Promise((ok) => setTimeout(ok, 500));
      }
    }, shot);
    const nodeMs = performance.now() - nodeStart;
    const seen = await page.evaluate(readMonitors);
    const heaviest = profiler ? await stopProfile(profiler, o.profile) : null;
    pageLoad.after = load();
    const pageMs = seen.done - seen.start;

    let pageJson;
    let savedClass;
    await withinLimit("the page's results as JSON and its class file", "chromium", 120_000, async () => {
      const failed = await page.locator(".arena-matches p.warning").allInnerTexts();
      if (failed.length) throw new Failure(`${failed.length} matches not played in the page: ${failed.slice(0, 3).join("; ")}`);
      pageJson = JSON.parse(await download(page, "#arena-json", "the results as JSON"));
      savedClass = await download(page, "#class-save", "the class file after the run");
    }, shot);
    if (pageJson.played !== total) throw new Failure(`the page's JSON holds ${pageJson.played} played matches, not ${total}`);
    if (savedClass !== classText) console.log("note: the class file saved after the run differs from the one saved before it");
    const classPath = join(files, "class.json");
    await writeFile(classPath, savedClass);
    await browser.close().catch(() => {});
    browser = null;
    server.close();
    server = null;

    // The CLI on the class file the page saved.
    const out = join(files, "cli.json");
    const args = ["arena", "--class", classPath, "--jobs", String(o.parallel), "--json", out];
    const cliLoad = { before: load() };
    const ran = await withinLimit(`the CLI's arena (botplay ${args.join(" ")})`, "botplay", arenaLimit, () => run(botplay, args, running))
      .finally(() => stopGroups(running));
    cliLoad.after = load();
    if (ran.code !== 0) throw new Failure(`botplay ${args.join(" ")} ended with ${ran.code}:\n${ran.stderr.slice(-2000)}`);
    const cliJson = JSON.parse(await readFile(out, "utf8"));

    if (o.keep) {
      await mkdir(o.keep, { recursive: true });
      await writeFile(join(o.keep, "class.json"), savedClass);
      await writeFile(join(o.keep, "page.json"), JSON.stringify(pageJson, null, 2));
      await writeFile(join(o.keep, "cli.json"), JSON.stringify(cliJson, null, 2));
    }

    // The figures.
    const perSecond = (ms) => total / (ms / 1000);
    const disagree = differences(pageJson, cliJson);
    const row = (label, a, b = "") => console.log(`  ${label.padEnd(26)} ${String(a).padEnd(28)} ${b}`);
    const ms = (x) => (Number.isFinite(x) ? `${x.toFixed(0)} ms` : "–");
    const matchSeed = pageJson.matches[0]?.seed;
    console.log("");
    console.log(`Soak Overflow ${theClass.setup.ruleset}, ${o.bots} ${o.language} bots, ${total} matches ` +
      `(${PER_PAIR} per pair on seed ${seed}: match seed ${matchSeed}), ${o.parallel} at once, ` +
      `${theClass.relaxed ? "relaxed" : "strict"} budgets`);
    console.log(`machine: ${machine.cores} cores (${machine.model}); Chromium ${chromium}; node ${process.version}; the CLI ${botplay}`);
    console.log("");
    row("", "page (Chromium)", "CLI (botplay arena)");
    row("wall time", `${(pageMs / 1000).toFixed(1)} s`, `${(ran.ms / 1000).toFixed(1)} s`);
    row("matches per second", perSecond(pageMs).toFixed(2), perSecond(ran.ms).toFixed(2));
    row("page's rate ÷ CLI's", (ran.ms / pageMs).toFixed(2), "");
    row("faults", faultsOf(pageJson), faultsOf(cliJson));
    row("load before", pageLoad.before, cliLoad.before);
    row("load after", pageLoad.after, cliLoad.after);
    console.log("");
    console.log(`the page during the run (Run to done: ${(pageMs / 1000).toFixed(1)} s on its clock, ${(nodeMs / 1000).toFixed(1)} s seen from node;` +
      ` first match done after ${seen.firstDone === null ? "–" : `${((seen.firstDone - seen.start) / 1000).toFixed(1)} s`}):`);
    row("heartbeat lateness", `longest ${ms(longest(seen.lateness))}`, `p99 ${ms(percentile(seen.lateness, 99))} (${seen.lateness.length} ticks of ${BEAT_MS} ms)`);
    row("animation frame gaps", `longest ${ms(longest(seen.frames))}`, `p99 ${ms(percentile(seen.frames, 99))} (${seen.frames.length} frames)`);
    const tasks = seen.longtasks.map(([duration]) => duration);
    const where = {};
    for (const [, name] of seen.longtasks) where[name] = (where[name] ?? 0) + 1;
    const whereText = Object.entries(where).map(([name, n]) => `${n} ${name}`).join(", ");
    row("long tasks", seen.longtaskObserved ? `longest ${ms(longest(tasks))}` : "not observable here",
      seen.longtaskObserved ? `p99 ${ms(percentile(tasks, 99))} (${tasks.length} tasks over 50 ms${whereText ? `: ${whereText}` : ""})` : "");
    if (heaviest) {
      console.log("");
      console.log(`the page's main thread, sampled over the run (${o.profile}; open it in Chromium's DevTools), the most time by function:`);
      for (const [name, ms] of heaviest) row(`  ${(ms / 1000).toFixed(2)} s`, name);
    }
    console.log("");
    if (disagree.length === 0) {
      console.log(`standings: the page's JSON and the CLI's agree (${o.bots} bots, ${total} matches: results, faults, ratings)`);
    } else {
      console.log(`standings: the page's JSON and the CLI's DIFFER in ${disagree.length} places${o.keep ? ` (both in ${o.keep})` : " (--keep DIR keeps both)"}:`);
      for (const d of disagree.slice(0, 12)) console.log(`  ${d}`);
      if (disagree.length > 12) console.log(`  … and ${disagree.length - 12} more`);
    }
  } finally {
    await stopGroups(running);
    if (browser) await browser.close().catch(() => {});
    if (server) server.close();
    await rm(files, { recursive: true, force: true }).catch(() => {});
  }
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  Promise.resolve()
    .then(() => bench(parseArgs(process.argv.slice(2))))
    .then(
      () => process.exit(0),
      (e) => {
        console.error(`\nclass bench not done: ${e instanceof Failure ? e.message : e.stack ?? e}`);
        process.exit(1);
      },
    );
}
