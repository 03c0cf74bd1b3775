// Performance figures of the built page in headless Chromium (issue #13). The figures are
// printed, not asserted: the checks only make sure that each one was produced and is a sane
// number. Timings depend on the machine and on what else it runs.
//
//   trunk build --release --skip-version-check [--dist dist-perf]
//   node tests/e2e/perf.mjs [--dist dist] [--matches 5] [--loads 3] [--profile DIR]
//
// It serves dist/ itself (tests/e2e/serve.mjs, uncompressed, as `trunk serve` does) and measures:
//
// (1) Page weight and start: a fresh browser profile opens the page, `--loads` times. Every
//     response is counted (the page's and its workers'), raw and gzipped here (gzip -9, as a
//     static host would send it); "interactive" is the moment the game list, the code editor
//     and an enabled Run button are all in the page, read on the page's own clock
//     (performance.now() from navigation) by an observer installed before the page's scripts.
//     Then Run plays the first match (the JavaScript starter against the built-in opponent) and
//     what that fetches (the bots' workers) is added: everything loaded before the first match,
//     without Python (which only a Python bot loads).
// (2) The measure harness (`?measure`, src/app/measure.rs): `--matches` matches per game between
//     built-in bots with nothing drawn: per-turn time outside the bots (median, 99th percentile),
//     whole matches, and a bare postMessage round trip.
// (3) Rendering: the harness's Crafting Quest 3 match on the largest map (100×100, 4 seats) opened
//     in the viewer from its link and played at 32×; requestAnimationFrame callbacks are counted
//     while it plays (frames per second, and the longest gap between two frames), next to the
//     same count on the still page (the browser's own ceiling here).
//
// With `--profile DIR`, Chromium's CPU profiler (CDP `Profiler` domain) records (2) and (3) into
// DIR/measure.cpuprofile and DIR/render.cpuprofile (open them in Chromium's DevTools,
// Performance panel) and the functions with the most self time are printed.
//
// run.mjs calls perfFigures() at the end of the e2e step with fewer matches.

import { mkdtemp, mkdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir, cpus, loadavg } from "node:os";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { gzipSync } from "node:zlib";
import { cliArg, launch } from "./browser.mjs";
import { serve } from "./serve.mjs";

const REPO = resolve(fileURLToPath(new URL("../..", import.meta.url)));

class PerfFailure extends Error {}
function sane(value, what, { min = 0, max = Infinity } = {}) {
  if (typeof value !== "number" || !Number.isFinite(value) || value < min || value > max) {
    throw new PerfFailure(`perf: ${what} is not a sane figure: ${value} (expected ${min} to ${max})`);
  }
  return value;
}

/** A browser on a new, empty profile, closed (and its profile removed) after `body`. */
async function withBrowser(body) {
  const profile = await mkdtemp(join(tmpdir(), "botplay-perf-"));
  const context = await launch(profile);
  try {
    const page = context.pages()[0] ?? (await context.newPage());
    return await body(context, page);
  } finally {
    await context.close().catch(() => {});
    await rm(profile, { recursive: true, force: true });
  }
}

const kib = (bytes) => `${(bytes / 1024).toFixed(1)} KiB`;
const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? s[Math.floor((s.length - 1) / 2)] : NaN;
};

// Installed before any script of the page: notes, on the page's clock, when the page becomes
// interactive (the game list, the editor and an enabled Run button are all there).
// The editor lives in a shadow root, which the observer does not see into: each animation frame
// checks as well.
function interactiveObserver() {
  const ready = () =>
    document.querySelector("#games .game-choice") &&
    document.querySelector("#bot-code")?.shadowRoot?.querySelector(".cm-content") &&
    document.querySelector("#run:not([disabled])");
  const note = () => {
    if (window.__botplayInteractive === undefined && ready()) {
      window.__botplayInteractive = performance.now();
      observer.disconnect();
    }
  };
  const observer = new MutationObserver(note);
  const everyFrame = () => {
    note();
    if (window.__botplayInteractive === undefined) requestAnimationFrame(everyFrame);
  };
  document.addEventListener("DOMContentLoaded", () => {
    observer.observe(document, { childList: true, subtree: true, attributes: true });
    everyFrame();
  });
}

/** (1) One cold load on a fresh profile, then the first match. Requests are counted where the
 * server receives them (the browser reports its workers' requests only in part), and each file's
 * size is read from `dist`. */
async function loadOnce(url, server, dist) {
  return withBrowser(async (context, page) => {
    const requests = [];
    let phase = "load";
    const onRequest = (request) => {
      const path = decodeURIComponent(new URL(request.url, "http://x").pathname);
      requests.push({ phase, path, dest: request.headers["sec-fetch-dest"] ?? "" });
    };
    server.on("request", onRequest);
    await context.addInitScript(interactiveObserver);
    await page.goto(url);
    await page.waitForFunction(() => window.__botplayInteractive !== undefined, null, { timeout: 60_000 });
    const timing = await page.evaluate(() => {
      const nav = performance.getEntriesByType("navigation")[0];
      return {
        interactiveMs: window.__botplayInteractive,
        domContentLoadedMs: nav.domContentLoadedEventEnd,
        loadMs: nav.loadEventEnd,
        isolated: self.crossOriginIsolated,
      };
    });
    // Let anything the page still fetches on its own arrive before the match begins.
    await page.waitForLoadState("networkidle");
    phase = "match";
    await page.locator("#run").click();
    await page.locator("#match-status").getByText(/over/).waitFor({ timeout: 120_000 });
    server.off("request", onRequest);
    const files = [];
    for (const { phase, path, dest } of requests) {
      const name = path.replace(/^\//, "").replace(/(^|\/)$/, "$1index.html");
      const known = files.find((f) => f.path === name);
      if (known) {
        known.requests += 1;
        known.dests.add(dest);
        continue;
      }
      const body = await readFile(join(dist, name)).catch(() => null);
      files.push({
        phase,
        path: name,
        requests: 1,
        dests: new Set([dest]),
        found: body !== null,
        raw: body?.length ?? 0,
        gzipped: body ? gzipSync(body, { level: 9 }).length : 0,
      });
    }
    return { timing, files };
  });
}

async function pageWeight(url, server, dist, loads) {
  const runs = [];
  for (let i = 0; i < loads; i++) runs.push(await loadOnce(url, server, dist));
  const files = runs[0].files;
  const sum = (phases, key) => files.filter((f) => phases.includes(f.phase)).reduce((a, f) => a + f[key], 0);
  const figures = {
    files: files.map(({ phase, path, raw, gzipped, requests, dests }) => ({ phase, path, raw, gzipped, requests, dests: [...dests].join(",") })),
    requests: files.reduce((a, f) => a + f.requests, 0),
    transferredGzipped: files.reduce((a, f) => a + f.requests * f.gzipped, 0),
    loadRaw: sum(["load"], "raw"),
    loadGzipped: sum(["load"], "gzipped"),
    firstMatchRaw: sum(["load", "match"], "raw"),
    firstMatchGzipped: sum(["load", "match"], "gzipped"),
    interactiveMs: runs.map((r) => r.timing.interactiveMs),
    domContentLoadedMs: runs.map((r) => r.timing.domContentLoadedMs),
    loadEventMs: runs.map((r) => r.timing.loadMs),
  };
  if (!runs[0].timing.isolated) throw new PerfFailure("perf: the page is not cross-origin isolated");
  if (files.some((f) => !f.found)) {
    throw new PerfFailure(`perf: requests for files not in ${dist}: ${files.filter((f) => !f.found).map((f) => f.path).join(", ")}`);
  }
  if (files.some((f) => /pyodide/.test(f.path))) throw new PerfFailure("perf: the first load fetched Python");
  // The page's module (its match worker runs on the same one, src/match_worker.rs) and the editor.
  for (const need of [/^app-[0-9a-f]+_bg\.wasm$/, /editor\.js$/]) {
    if (!files.some((f) => need.test(f.path))) throw new PerfFailure(`perf: no response for ${need} was counted`);
  }
  sane(figures.loadGzipped, "the page's gzipped weight", { min: 10_000, max: 50e6 });
  sane(figures.firstMatchGzipped, "the gzipped weight before the first match", { min: figures.loadGzipped, max: 50e6 });
  for (const ms of figures.interactiveMs) sane(ms, "the time to an interactive page", { min: 1, max: 60_000 });

  console.log("\n(1) page weight and start (fresh profile each load, uncompressed server, gzip -9 here)");
  console.log(`      ${"raw".padStart(12)} ${"gzipped".padStart(12)}  file (requests; what asked: Sec-Fetch-Dest)`);
  for (const f of figures.files) {
    console.log(`      ${kib(f.raw).padStart(12)} ${kib(f.gzipped).padStart(12)}  ${f.path} (${f.requests}; ${f.dests})${f.phase === "match" ? "   when the first match starts" : ""}`);
  }
  console.log(`      ${kib(figures.loadRaw).padStart(12)} ${kib(figures.loadGzipped).padStart(12)}  page load`);
  console.log(`      ${kib(figures.firstMatchRaw).padStart(12)} ${kib(figures.firstMatchGzipped).padStart(12)}  everything before the first match (no Python)   [target < 1 MB gzipped]`);
  if (figures.requests > figures.files.length) {
    console.log(`      ${"".padStart(12)} ${kib(figures.transferredGzipped).padStart(12)}  counting every request (${figures.requests} for ${figures.files.length} files; this server says no-store)`);
  }
  const list = (xs) => xs.map((x) => x.toFixed(0)).join(", ");
  console.log(`    navigation → interactive: median ${median(figures.interactiveMs).toFixed(0)} ms (${list(figures.interactiveMs)})   [target < 1000 ms]`);
  console.log(`    DOMContentLoaded ${list(figures.domContentLoadedMs)} ms; load event ${list(figures.loadEventMs)} ms`);
  return figures;
}

/** Starts Chromium's CPU profiler on `page`; the returned function stops it and saves the profile. */
async function startProfiler(context, page, dir, name) {
  if (!dir) return async () => {};
  const cdp = await context.newCDPSession(page);
  await cdp.send("Profiler.enable");
  await cdp.send("Profiler.setSamplingInterval", { interval: 100 });
  await cdp.send("Profiler.start");
  return async () => {
    const { profile } = await cdp.send("Profiler.stop");
    await mkdir(dir, { recursive: true });
    const file = join(dir, `${name}.cpuprofile`);
    await writeFile(file, JSON.stringify(profile));
    printProfile(profile, name, file);
  };
}

/** The functions with the most self time in a CPU profile. */
function printProfile(profile, name, file) {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const self = new Map();
  const dt = profile.timeDeltas;
  profile.samples.forEach((id, i) => {
    const { functionName, url, lineNumber, columnNumber } = byId.get(id).callFrame;
    const where = url ? `${url.split("/").pop()}:${lineNumber + 1}:${columnNumber + 1}` : "";
    const key = `${functionName || "(anonymous)"} ${where}`.trim();
    self.set(key, (self.get(key) ?? 0) + (dt[i] ?? 0) / 1000);
  });
  const total = [...self.values()].reduce((a, b) => a + b, 0);
  console.log(`    profile ${name}: ${file} (${total.toFixed(0)} ms sampled); most self time:`);
  for (const [key, ms] of [...self].sort((a, b) => b[1] - a[1]).slice(0, 15)) {
    console.log(`      ${ms.toFixed(1).padStart(9)} ms ${((100 * ms) / total).toFixed(1).padStart(5)}%  ${key}`);
  }
}

/** (2) and (3): the measure harness, then the viewer playing its largest match at 32×. */
async function harnessAndRendering(url, matches, profileDir) {
  return withBrowser(async (context, page) => {
    const problems = [];
    page.on("pageerror", (e) => problems.push(`page error: ${e.message}`));
    page.on("console", (m) => {
      if (m.type() === "error") problems.push(`console error: ${m.text()}`);
    });

    await page.goto(`${url}?measure&matches=${matches}`);
    await page.locator("#measure-run").waitFor({ timeout: 30_000 });
    const stopMeasureProfile = await startProfiler(context, page, profileDir, "measure");
    const started = performance.now();
    await page.locator("#measure-run").click();
    await page.locator("#measure-status[data-done=true], #measure-error").first().waitFor({ timeout: 900_000 });
    const harnessMs = performance.now() - started;
    await stopMeasureProfile();
    if (await page.locator("#measure-error").count()) {
      throw new PerfFailure(`perf: the measure harness failed: ${await page.locator("#measure-error").innerText()}`);
    }
    const report = JSON.parse(await page.locator("#measure-json").innerText());
    if (!report.cross_origin_isolated) throw new PerfFailure("perf: the harness page is not cross-origin isolated");
    sane(report.round_trip?.median_ms, "the postMessage round trip", { min: 0, max: 1000 });
    sane(report.round_trip?.p99_ms, "the postMessage round trip's 99th percentile", { min: report.round_trip.median_ms, max: 10_000 });
    if (report.games.length !== 5) throw new PerfFailure(`perf: the harness measured ${report.games.length} games, not 5`);
    for (const g of [...report.games, report.big_map]) {
      if (!g || g.matches < 1 || g.turns < 1) throw new PerfFailure(`perf: no turns were measured for ${g?.game}`);
      sane(g.turn_median_ms, `${g.game}'s median turn`, { min: 0, max: 60_000 });
      sane(g.bots_median_ms, `${g.game}'s median bot time`, { min: 0, max: g.turn_median_ms + 1e-9 });
      sane(g.outside_median_ms, `${g.game}'s median time outside the bots`, { min: 0, max: 60_000 });
      sane(g.host_median_ms, `${g.game}'s median work in the match worker`, { min: 0, max: g.turn_median_ms + 1e-9 });
      sane(g.outside_p99_ms, `${g.game}'s 99th percentile outside the bots`, { min: g.outside_median_ms, max: 600_000 });
      sane(g.match_median_ms, `${g.game}'s median match`, { min: 0.001, max: 600_000 });
      sane(g.match_max_ms, `${g.game}'s slowest match`, { min: g.match_median_ms, max: 600_000 });
    }
    sane(report.all_outside_median_ms, "the median time outside the bots", { min: 0, max: 60_000 });

    const ms = (v) => v.toFixed(3).padStart(9);
    console.log(`\n(2) measure harness (?measure): ${matches} matches per game, strongest built-in bot against itself, relaxed, nothing drawn (${(harnessMs / 1000).toFixed(1)} s in all)`);
    console.log(`    postMessage round trip (echo worker, ${report.round_trip.count}×): median ${report.round_trip.median_ms.toFixed(3)} ms, p99 ${report.round_trip.p99_ms.toFixed(3)} ms`);
    console.log("    per turn, ms (outside the bots = turn − the built-in bots' own time, timed in the match worker; host = the match");
    console.log("    worker's own work in it: the referee, its frames and the driver):");
    console.log(`      ${"game".padEnd(28)} ${"turns".padStart(6)} ${"lines/t".padStart(7)} ${"outside med".padStart(11)} ${"outside p99".padStart(11)} ${"turn med".padStart(9)} ${"bots med".padStart(9)} ${"host med".padStart(9)} ${"host p99".padStart(9)}  ${"match med".padStart(10)} ${"match max".padStart(10)} ${"start-up".padStart(9)} faults`);
    for (const g of [...report.games, report.big_map]) {
      const name = `${g.game}${g.options ? ` ${g.options}` : ""} ×${g.seats}`;
      console.log(
        `      ${name.padEnd(28)} ${String(g.turns).padStart(6)} ${g.lines_per_turn.toFixed(1).padStart(7)} ${ms(g.outside_median_ms).padStart(11)} ${ms(g.outside_p99_ms).padStart(11)} ${ms(g.turn_median_ms)} ${ms(g.bots_median_ms)} ${ms(g.host_median_ms)} ${ms(g.host_p99_ms)}  ${g.match_median_ms.toFixed(1).padStart(10)} ${g.match_max_ms.toFixed(1).padStart(10)} ${g.startup_median_ms.toFixed(1).padStart(9)} ${g.faults}`,
      );
    }
    console.log(`    every turn of the five games: outside the bots median ${report.all_outside_median_ms.toFixed(3)} ms, p99 ${report.all_outside_p99_ms.toFixed(3)} ms   [target: median < 0.2 ms]`);
    console.log(`    slowest whole match (first turn to outcome): ${Math.max(...report.games.map((g) => g.match_max_ms)).toFixed(1)} ms   [target < 500 ms]`);

    // (3) The viewer plays the largest match at 32×.
    const link = await page.locator("#measure-big-map-link").getAttribute("href");
    if (!link?.startsWith("./#b1.")) throw new PerfFailure(`perf: the harness gave no link to its largest match: ${link}`);
    await page.goto(new URL(link, url).href);
    await page.locator("#match-status").getByText(/replay from a link/).waitFor({ timeout: 60_000 });
    const frames = Number((await page.locator("#turn-label").innerText()).match(/\/ (\d+)/)?.[1]);
    sane(frames, "the largest match's frame count", { min: 10 });
    await page.locator("#speed").selectOption({ label: "32×" });
    await page.locator("#board").scrollIntoViewIfNeeded();
    const canvas = await page.locator("#board").evaluate((c) => ({ width: c.width, height: c.height }));
    const countFrames = (seconds, play) =>
      page.evaluate(
        ([seconds, play]) =>
          new Promise((done) => {
            const label = document.querySelector("#turn-label");
            const shown = () => Number(label.textContent.match(/turn (\d+)/)[1]);
            const gaps = [];
            let last = null;
            let first = null;
            let startFrame = 0;
            const tick = (now) => {
              if (last === null) {
                first = now;
                startFrame = shown();
                if (play) document.querySelector("#play").click();
              } else {
                gaps.push(now - last);
              }
              last = now;
              const playing = document.querySelector("#play").getAttribute("aria-pressed") === "true";
              if (now - first < seconds * 1000 && (!play || playing || gaps.length < 2)) {
                requestAnimationFrame(tick);
              } else {
                const elapsed = (now - first) / 1000;
                gaps.sort((a, b) => a - b);
                done({
                  fps: gaps.length / elapsed,
                  elapsed,
                  turnsPerSecond: (shown() - startFrame) / elapsed,
                  longestGapMs: gaps[gaps.length - 1],
                  p95GapMs: gaps[Math.floor(0.95 * (gaps.length - 1))],
                });
              }
            };
            requestAnimationFrame(tick);
          }),
        [seconds, play],
      );
    const idle = await countFrames(2, false);
    const stopRenderProfile = await startProfiler(context, page, profileDir, "render");
    const playing = await countFrames(10, true);
    await stopRenderProfile();
    sane(idle.fps, "the still page's frames per second", { min: 1, max: 1000 });
    sane(playing.fps, "the frames per second while playing", { min: 0.1, max: 1000 });
    sane(playing.turnsPerSecond, "the frames of the match shown per second", { min: 0.1, max: 10_000 });
    if (problems.length) throw new PerfFailure(`perf: errors in the page:\n  ${problems.join("\n  ")}`);
    const big = report.big_map;
    console.log(`\n(3) rendering: Crafting Quest 3, ${big.options} ×${big.seats} (${frames} frames), canvas ${canvas.width}×${canvas.height}, playing at 32× for ${playing.elapsed.toFixed(1)} s`);
    console.log(`    ${playing.fps.toFixed(1)} frames per second (still page: ${idle.fps.toFixed(1)}); ${playing.turnsPerSecond.toFixed(0)} match frames shown per second; gap between frames p95 ${playing.p95GapMs.toFixed(1)} ms, longest ${playing.longestGapMs.toFixed(1)} ms   [target 60 fps]`);
    return { report, rendering: { idle, playing, frames, canvas } };
  });
}

/** Serves the built page in `dist`, measures everything on it and prints the figures. */
export async function perfFigures(dist, { matches = 5, loads = 3, profileDir = null } = {}) {
  const { server, url } = await serve(dist);
  try {
    const [one, five, fifteen] = loadavg();
    console.log(`\nperformance figures of ${dist} (${cpus().length} cores, load average ${one.toFixed(1)} ${five.toFixed(1)} ${fifteen.toFixed(1)}; printed, not asserted)`);
    const weight = await pageWeight(url, server, dist, loads);
    const { report, rendering } = await harnessAndRendering(url, matches, profileDir);
    return { weight, report, rendering };
  } finally {
    server.close();
  }
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  try {
    const profileDir = cliArg("--profile", null);
    await perfFigures(resolve(REPO, cliArg("--dist", "dist")), {
      matches: Number(cliArg("--matches", 5)),
      loads: Number(cliArg("--loads", 3)),
      profileDir: profileDir && resolve(profileDir),
    });
    console.log("\nperf: every figure was produced");
  } catch (e) {
    console.error(`\nFAILED: ${e instanceof PerfFailure ? e.message : e.stack ?? e}`);
    process.exitCode = 1;
  }
}
