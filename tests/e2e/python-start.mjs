// A benchmark, not a test (issue 38, "Python ready at once"): from Run to the first turn of a
// Python bot in the built page, in Debian's Chromium through playwright-core. It prints figures
// and asserts no time; it fails only when a match does not start or end.
//
//   node tests/e2e/python-start.mjs [--dist dist] [--runs 3] [--idle 8000]
//
// Each run is a fresh browser profile on Ice and Fire, the Python starter against the built-in
// expander (relaxed budgets):
//   cold  Python chosen and Run pressed at once: Pyodide is fetched, compiled and started after
//         the choice (src/python_ready.rs), the match waiting for it;
//   warm  the same page, its first match over, left idle for --idle ms (the page has a Python
//         worker started for the next match meanwhile), then Run again.
// Measured on the page's own clock: from the click on Run to the viewer's first turn (its label
// "turn N / M" with M at least 1). The load average (as `uptime` says it) is printed beside.

import { mkdtemp, rm } from "node:fs/promises";
import { cpus, loadavg, tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { cliArg, Failure, launch, openPlayground, withinLimit } from "./browser.mjs";
import { serve } from "./serve.mjs";

const REPO = resolve(fileURLToPath(new URL("../..", import.meta.url)));
const DIST = resolve(REPO, cliArg("--dist", "dist"));
const RUNS = Number(cliArg("--runs", "3"));
const IDLE_MS = Number(cliArg("--idle", "8000"));

/** Presses Run in the page and gives the ms from the click to the first turn shown (or null). */
function runToFirstTurn() {
  return new Promise((answer) => {
    const started = performance.now();
    const label = () => document.querySelector("#turn-label")?.innerText ?? "";
    const over = () => document.querySelector("#match-status")?.classList.contains("warning");
    const look = () => {
      if (/\/ [1-9]/.test(label())) return answer(performance.now() - started);
      if (over() || performance.now() - started > 120_000) return answer(null);
      requestAnimationFrame(look);
    };
    document.querySelector("#run").click();
    requestAnimationFrame(look);
  });
}

async function oneRun(url) {
  const profile = await mkdtemp(join(tmpdir(), "botplay-python-start-"));
  const context = await launch(profile, { viewport: { width: 1366, height: 768 } });
  try {
    const page = context.pages()[0] ?? (await context.newPage());
    await openPlayground(page, url);
    await page.locator('#games .game-choice[data-game="ice-and-fire"]').click();
    await page.locator("#opponent").selectOption("expander");
    if (!(await page.locator("#relaxed").isChecked())) await page.locator("#relaxed").click();
    await page.locator("#player").selectOption("python");
    const cold = await page.evaluate(runToFirstTurn);
    if (cold === null) throw new Failure("the cold Python match did not start");
    await page.locator("#match-status").getByText(/over/).waitFor({ timeout: 240_000 });
    await page.waitForTimeout(IDLE_MS);
    const warm = await page.evaluate(runToFirstTurn);
    if (warm === null) throw new Failure("the warm Python match did not start");
    await page.locator("#match-status").getByText(/over/).waitFor({ timeout: 240_000 });
    return { cold, warm };
  } finally {
    await context.close().catch(() => {});
    await rm(profile, { recursive: true, force: true });
  }
}

async function main() {
  const site = await serve(DIST);
  try {
    const runs = [];
    for (let i = 0; i < RUNS; i++) {
      const load = loadavg()[0].toFixed(1);
      const run = await withinLimit(`Python's first turn, run ${i + 1}`, "chromium", 600_000, () => oneRun(site.url));
      runs.push(run);
      console.log(`run ${i + 1}: cold ${run.cold.toFixed(0)} ms, warm ${run.warm.toFixed(0)} ms (load ${load})`);
    }
    const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
    console.log(
      `Run to the first Python turn, median of ${RUNS}: cold ${median(runs.map((r) => r.cold)).toFixed(0)} ms, ` +
        `warm ${median(runs.map((r) => r.warm)).toFixed(0)} ms (${cpus().length} cores, ${cpus()[0]?.model.trim()}; idle ${IDLE_MS} ms before warm)`,
    );
  } finally {
    site.server.close();
  }
}

main().catch((error) => {
  console.error(`FAILED: ${error.message}`);
  process.exit(1);
});
