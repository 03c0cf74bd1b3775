// Frames sent as they are looked at (src/match_host/driver.rs `queue_progress` and
// `after_the_end`, the page's `AppState::pictures_wanted`, src/runner.rs), in Debian's Chromium
// through playwright-core.
//
//   trunk build --release --skip-version-check --dist dist
//   node tests/e2e/pictures.mjs [--dist dist] [--only pi3]
//
// During a match the match worker sends each frame with its numbers only, but the newest; the
// page asks for the pictures of the frames it shows, during the match and after it (the match
// worker stays, with every frame, until the page lets the match go: the page re-runs nothing).
// (pi1) While an Ice and Fire match is still being played (a bot that takes 50 ms a turn), an
//       earlier turn scrubbed to shows its board and its text, asked for; playback from there
//       moves on through frames that came without their pictures.
// (pi2) Once the match is over, the same turn shows the same text and the same board (asked of
//       the match worker still), and so does every turn the viewer steps through.
// (pi3) In every game (built-in bots, from a link opened in the page; Crafting Quest 3 also on
//       100 × 100 with 4 seats) the page's main-thread task that hears the match's end takes at
//       most 16 ms (× $TIME_LIMIT_SCALE) of that thread's time, in Chromium's trace (the longest
//       task in the 1.2 s after it is printed too: the page's layout and paint of the end).
//       Then turn 1, scrubbed to, is drawn from a picture the match worker sent after the end (a
//       "pictures" news counted on the page's port to the match host): the end re-ran nothing.
// (pi4) The same turn 1 after the end where the match host runs in the page (its frame has no
//       shared memory: the match worker on rings, src/runner.rs `Isolation::Page`) and where
//       the page has no SharedArrayBuffer either (the match worker on messages, `Messages`).
// No console error. Screenshot: tests/e2e/screenshots/pictures-live.png (the earlier turn, live).

import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import {
  CHROMIUM_ARGS,
  defaultCheck,
  openPlayground,
  openSession,
  runAlone,
  setCode,
  setRelaxed,
  shareFragment,
  TIME_SCALE,
  watchProblems,
  withinLimit,
} from "./browser.mjs";

const SHOTS = join(resolve(fileURLToPath(new URL("../..", import.meta.url))), "tests", "e2e", "screenshots");

// Reads each Ice and Fire turn, thinks for 50 ms, and waits: the match stays live for seconds.
const SLOW_WAITER = `
const spots = parseInt(readline());
for (let i = 0; i < spots; i++) readline();
while (true) {
  for (let i = 0; i < 16; i++) readline();
  for (let n = parseInt(readline()), i = 0; i < n; i++) readline();
  for (let n = parseInt(readline()), i = 0; i < n; i++) readline();
  const until = Date.now() + 50;
  while (Date.now() < until) {}
  console.log("WAIT");
}
`;

async function frameShown(page) {
  return Number(await page.locator("#scrub").inputValue());
}

/** The text board and the board's pixels once the frame shown has its picture. */
async function shown(page, check, what) {
  const text = page.locator("#text-board");
  await page
    .waitForFunction(() => (document.querySelector("#text-board")?.textContent ?? "").trim().length > 0, null, { timeout: 10_000 })
    .catch(() => check(false, `${what}: the frame shown never got its picture`));
  await page.waitForTimeout(100); // the board paints after the render
  return {
    text: await text.innerText(),
    turn: (await page.locator("#turn-label").innerText()).split(" / ")[0],
    board: await page.locator("#board").evaluate((canvas) => canvas.toDataURL()),
  };
}

// `--only pi3` (or pi4): that check alone (pi1 and pi2 go together).
const ONLY = process.argv.includes("--only") ? process.argv[process.argv.indexOf("--only") + 1] : null;

export async function picturesChecks({ dist, check = defaultCheck, only = ONLY }) {
  const { url, context, page, problems, close } = await openSession(dist, "pictures");
  try {
    await openPlayground(page, url);
    if ((await page.locator("#text-view-toggle").getAttribute("aria-pressed")) !== "true") {
      await page.locator("#text-view-toggle").click();
    }

    // Each check within its time limit: past it, the run fails at once, naming the check, with a
    // screenshot of the page (tests/e2e/screenshots/timeout-chromium.png).
    const limit = (what, ms, checks) => withinLimit(what, "chromium", ms, checks, (path) => page.screenshot({ path }));
    let at;
    let live;
    let played;
    let playedText;

    // (pi1) A live match, looked at turn by turn.
    const early = !only || only === "pi1" || only === "pi2";
    if (early) await limit("(pi1) a live match looked at turn by turn", 120_000, async () => {
      await setCode(page, SLOW_WAITER);
      await page.locator("#opponent").selectOption("random");
      await page.locator("#seed").fill("11");
      await setRelaxed(page, true);
      await page.locator("#run").click();
      await page.waitForFunction(() => Number(document.querySelector("#scrub")?.max ?? 0) >= 14, null, { timeout: 60_000 });
      at = 7;
      await page.locator("#scrub").fill(String(at));
      check((await frameShown(page)) === at, `(pi1) the scrubber did not go to frame ${at}`);
      live = await shown(page, check, "(pi1)");
      await page.locator("#viewer").screenshot({ path: join(SHOTS, "pictures-live.png") });
      const liveStill = (await page.locator("#outcome .result").count()) === 0;
      check(liveStill, "(pi1) the match was over before its earlier turns were looked at: nothing was asked for");
      await page.locator("#play").click();
      await page.waitForFunction((from) => Number(document.querySelector("#scrub").value) >= from + 5, at, { timeout: 10_000 })
        .catch(() => check(false, "(pi1) playback from an earlier turn of a live match did not move on"));
      await page.locator("#play").click();
      played = await frameShown(page);
      playedText = await shown(page, check, "(pi1) after playback");
      console.log(`ok (pi1) live: frame ${at} (${live.turn}) drawn with its text (${live.text.split("\n").length} lines), played on to frame ${played}`);
    });

    // (pi2) The same frames once the match is over.
    if (early) await limit("(pi2) the same frames once it is over", 180_000, async () => {
      await page.locator("#outcome .result").waitFor({ timeout: 120_000 });
      await page.locator("#scrub").fill(String(at));
      const after = await shown(page, check, "(pi2)");
      check(after.turn === live.turn, `(pi2) frame ${at} is '${after.turn}' now, was '${live.turn}'`);
      check(after.text === live.text, `(pi2) frame ${at}'s text differs from the one asked for live:\n${after.text}\n---\n${live.text}`);
      check(after.board === live.board, `(pi2) frame ${at}'s board differs from the one drawn live`);
      await page.locator("#scrub").fill(String(played));
      check((await shown(page, check, "(pi2)")).text === playedText.text, `(pi2) frame ${played}'s text differs from the one played live`);
      const last = Number(await page.locator("#scrub").getAttribute("max"));
      let empty = 0;
      for (let f = 0; f <= last; f += Math.max(1, Math.floor(last / 25))) {
        await page.locator("#scrub").fill(String(f));
        // Asked of the match worker: a moment.
        const drawn = await page
          .waitForFunction(() => (document.querySelector("#text-board")?.textContent ?? "").trim().length > 0, null, { timeout: 5_000 })
          .then(() => true, () => false);
        if (!drawn) empty++;
      }
      check(empty === 0, `(pi2) ${empty} frames of the finished match have no picture`);
      console.log(`ok (pi2) over (${await page.locator("#outcome .result").innerText()}): frames ${at} and ${played} show what they showed live; all ${last + 1} frames drawn`);
    });

    // (pi3) The end of a match, in every game.
    if (!only || only === "pi3") {
      await limit("(pi3) the end of a match in every game", 300_000, () => matchEnds(context, url, check, problems));
    }

    check(problems.length === 0, `problems: ${problems.join("; ")}`);
  } finally {
    await close();
  }
  // (pi4) Without shared memory in the match's frame, then in the page too.
  if (!only || only === "pi4") {
    for (const [mode, deleted, note] of [
      ["in the page, on rings", "self !== top", /no frame of its own with shared memory/],
      ["on messages", "true", /no SharedArrayBuffer/],
    ]) {
      await withinLimit(`(pi4) turn 1 after the end, ${mode}`, "chromium", 120_000, () => turnOneAfterTheEnd(dist, check, mode, deleted, note));
    }
  }
}

/** (pi4) A Crafting Quest 3 match between built-in bots where `deleted` (an expression, in
 * each frame) says SharedArrayBuffer is gone, which the page's note under the viewer says
 * (`note`); once over, turn 1 is drawn from a picture its match worker sent. */
async function turnOneAfterTheEnd(dist, check, mode, deleted, note) {
  // The sandboxed frame in the page's process, so that the script below surely runs in it
  // first (as tests/e2e/drivers/index.mjs does).
  const args = [...CHROMIUM_ARGS, "--disable-features=IsolateSandboxedIframes"];
  const { url, context, page, problems, close } = await openSession(dist, "pictures-shared", { launchOptions: { args } });
  try {
    await context.addInitScript(`if (${deleted}) delete globalThis.SharedArrayBuffer;`);
    await page.addInitScript(RECORDER);
    await openPlayground(page, url);
    if ((await page.locator("#text-view-toggle").getAttribute("aria-pressed")) !== "true") {
      await page.locator("#text-view-toggle").click();
    }
    const doc = {
      setup: { game: "crafting-quest", ruleset: "standard", seed: 9, seats: 2 },
      relaxed: true,
      bots: [{ kind: "builtin", name: "crafter" }, { kind: "builtin", name: "random" }],
    };
    await page.evaluate((fragment) => (location.hash = fragment), shareFragment(doc));
    await page.locator("#outcome .result").waitFor({ timeout: 90_000 });
    const said = await page.locator("#isolation-note").innerText().catch(() => "");
    check(note.test(said), `(pi4) ${mode}: the match did not run there (the page's note: '${said}')`);
    await page.waitForTimeout(500);
    const before = await page.evaluate(() => self.__matchEnd.pictures);
    await page.locator("#scrub").fill("1");
    const drawn = await page
      .waitForFunction(() => (document.querySelector("#text-board")?.textContent ?? "").trim().length > 0, null, { timeout: 10_000 })
      .then(() => true, () => false);
    check(drawn, `(pi4) ${mode}: turn 1 of the match over was never drawn`);
    const after = await page.evaluate(() => self.__matchEnd.pictures);
    check(after > before, `(pi4) ${mode}: turn 1 was drawn after the end without a picture from the match worker`);
    check(problems.length === 0, `(pi4) ${mode}: problems: ${problems.join("; ")}`);
    console.log(`ok (pi4) ${mode}: turn 1 drawn after the end from the match worker's picture`);
  } finally {
    await close();
  }
}

// (pi3) The matches whose ends are measured: built-in bots, from a link.
const ENDS = [
  { game: "ice-and-fire", ruleset: "league-4", bot: "expander", seats: 2 },
  { game: "soak-overflow", ruleset: "league-5", bot: "soaker", seats: 2 },
  { game: "micro-rts", ruleset: "default", bot: "rush", seats: 2 },
  { game: "skyport", ruleset: "rev1", bot: "gunner", seats: 2 },
  { game: "crafting-quest", ruleset: "standard", bot: "crafter", seats: 2 },
  { game: "crafting-quest", ruleset: "standard", bot: "crafter", seats: 4, options: { size: "100" } },
];

// Put into the page before its own scripts: what the page hears on its ports from the match
// host (src/runner.rs reads the host's news there): a mark in the page's timeline when the
// news of the end comes, and how many "pictures" news came.
const RECORDER = () => {
  if (self !== top) return;
  const seen = (self.__matchEnd = { finished: false, pictures: 0 });
  const onmessage = Object.getOwnPropertyDescriptor(MessagePort.prototype, "onmessage");
  Object.defineProperty(MessagePort.prototype, "onmessage", {
    configurable: true,
    get() {
      return onmessage.get.call(this);
    },
    set(listener) {
      const counted = function (event) {
        const data = event.data;
        const json = data && data.type === "news" && typeof data.json === "string" ? data.json : "";
        if (json.startsWith('{"type":"pictures"')) seen.pictures++;
        if (json.startsWith('{"type":"finished"')) {
          seen.finished = true;
          performance.mark("botplay-finished-news");
        }
        return listener.call(this, event);
      };
      onmessage.set.call(this, typeof listener === "function" ? counted : listener);
    },
  });
};

/** Chromium's trace of `page` while `during()` runs (its events). */
async function traced(context, page, during) {
  const cdp = await context.newCDPSession(page);
  const events = [];
  cdp.on("Tracing.dataCollected", (e) => events.push(...e.value));
  const complete = new Promise((ok) => cdp.once("Tracing.tracingComplete", ok));
  await cdp.send("Tracing.start", {
    categories: "toplevel,devtools.timeline,disabled-by-default-devtools.timeline,blink.user_timing",
    transferMode: "ReportEvents",
  });
  try {
    await during();
  } finally {
    await cdp.send("Tracing.end");
    await complete;
    await cdp.detach();
  }
  return events;
}

/** In a trace: the page's main-thread task that heard the news of the end, and the longest task
 * from it to 1.2 s after, each with its thread time (ms: the main thread's own work, whatever
 * else the machine's cores run) and the longest pieces of work inside it. */
function endTasks(events) {
  const mark = events.find((e) => e.name === "botplay-finished-news");
  if (!mark) return null;
  const thread = events.filter((e) => e.pid === mark.pid && e.tid === mark.tid && e.ph === "X");
  const tasks = thread.filter((e) => e.name === "ThreadControllerImpl::RunTask" || e.name === "RunTask");
  const ms = (us) => (us ?? 0) / 1000;
  const inside = (task) => {
    const work = {};
    for (const e of thread) {
      if (tasks.includes(e) || e.ts < task.ts || e.ts + e.dur > task.ts + task.dur || e.dur < 1000) continue;
      work[e.name] = Math.max(work[e.name] ?? 0, ms(e.dur));
    }
    const top = Object.entries(work).sort((a, b) => b[1] - a[1]).slice(0, 3);
    return top.map(([name, d]) => `${name} ${d.toFixed(1)}`).join(", ");
  };
  const heard = tasks
    .filter((t) => t.ts <= mark.ts && mark.ts <= t.ts + t.dur)
    .sort((a, b) => b.dur - a.dur)[0];
  const after = tasks.filter((t) => t.ts + t.dur >= mark.ts && t.ts <= mark.ts + 1_200_000).sort((a, b) => (b.tdur ?? 0) - (a.tdur ?? 0))[0];
  const describe = (t) => (t ? { thread: ms(t.tdur), wall: ms(t.dur), work: inside(t) } : null);
  return { heard: describe(heard), longest: describe(after) };
}

async function matchEnds(context, url, check, problems) {
  const page = await context.newPage();
  watchProblems(page, problems, { label: "(pi3)" });
  await page.addInitScript(RECORDER);
  const limitMs = 16 * TIME_SCALE;
  const [figures, busy, undrawn, rerun] = [[], [], [], []];
  try {
    // The page started and idle first: each match is then opened by its link in the address,
    // as a link opened in a page already open.
    await openPlayground(page, url);
    if ((await page.locator("#text-view-toggle").getAttribute("aria-pressed")) !== "true") {
      await page.locator("#text-view-toggle").click();
    }
    await page.waitForTimeout(1_500);
    for (const [i, end] of ENDS.entries()) {
      const what = `${end.game}${end.options ? ` (${end.options.size} × ${end.options.size}, ${end.seats} seats)` : ""}`;
      const doc = {
        setup: { game: end.game, ruleset: end.ruleset, seed: 21 + i, seats: end.seats, ...(end.options ? { options: end.options } : {}) },
        relaxed: true,
        bots: Array.from({ length: end.seats }, () => ({ kind: "builtin", name: end.bot })),
      };
      await page.evaluate(() => (self.__matchEnd.finished = false));
      const events = await traced(context, page, async () => {
        await page.evaluate((fragment) => (location.hash = fragment), shareFragment(doc));
        await page.waitForFunction(() => self.__matchEnd.finished, null, { timeout: 120_000 });
        await page.locator("#outcome .result").waitFor({ timeout: 10_000 });
        await page.waitForTimeout(1_200);
      });
      const tasks = endTasks(events);
      if (!tasks?.heard) {
        busy.push(`${what}: no task that heard the end in Chromium's trace`);
      } else {
        const { heard, longest } = tasks;
        figures.push(
          `${what}: ${heard.thread.toFixed(1)} ms (${heard.wall.toFixed(1)} ms of wall clock; ${heard.work}); ` +
            `the longest task to 1.2 s after, ${longest.thread.toFixed(1)} ms (${longest.wall.toFixed(1)}; ${longest.work})`,
        );
        if (heard.thread > limitMs) busy.push(`${what}: ${heard.thread.toFixed(1)} ms (${heard.work})`);
      }
      // Turn 1, from the match worker.
      const before = await page.evaluate(() => self.__matchEnd.pictures);
      await page.locator("#scrub").fill("1");
      const drawn = await page
        .waitForFunction(() => (document.querySelector("#text-board")?.textContent ?? "").trim().length > 0, null, { timeout: 10_000 })
        .then(() => true, () => false);
      const after = await page.evaluate(() => self.__matchEnd.pictures);
      if (!drawn) undrawn.push(what);
      else if (after <= before) rerun.push(what);
    }
    const said = `the page's main-thread task that heard a match's end, its thread time:\n    ${figures.join("\n    ")}`;
    console.log(`${busy.length || undrawn.length || rerun.length ? "" : "ok "}(pi3) ${said}`);
    check(busy.length === 0, `(pi3) the task that heard a match's end took the page's main thread more than ${limitMs.toFixed(0)} ms (no re-run there): ${busy.join("; ")}`);
    check(undrawn.length === 0, `(pi3) turn 1 of the match over was never drawn: ${undrawn.join("; ")}`);
    check(rerun.length === 0, `(pi3) turn 1 was drawn after the end without a picture from the match worker (the page re-ran the match): ${rerun.join("; ")}`);
  } finally {
    await page.close();
  }
}

runAlone(import.meta.url, picturesChecks, "tests/e2e/pictures.mjs");
